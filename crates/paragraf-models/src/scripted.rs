//! A scripted answer model: replays the text of a file, word by word, as if
//! a model wrote it — whatever the prompt. For tests and demonstrations of
//! the citation gate without model weights (`architecture = "scripted"` in
//! a user's `models.toml`; never in the built-in registry).

use crate::error::ModelError;
use crate::generate::{ChatMessage, GenOutput, GenParams, Generator, GeneratorInfo, StopReason};
use std::path::Path;

/// The replaying generator.
pub struct ScriptedGenerator {
    info: GeneratorInfo,
    text: String,
}

impl ScriptedGenerator {
    /// Read the script (UTF-8 text) from `path`.
    pub fn from_file(name: &str, path: &Path) -> Result<ScriptedGenerator, ModelError> {
        let text = std::fs::read_to_string(path).map_err(|source| ModelError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(ScriptedGenerator::new(name, &text, path))
    }

    /// A generator that replays `text`.
    pub fn new(name: &str, text: &str, path: &Path) -> ScriptedGenerator {
        ScriptedGenerator {
            info: GeneratorInfo {
                name: name.to_string(),
                architecture: "scripted".into(),
                chat_template: "none".into(),
                context_length: 1 << 20,
                vocab_size: 0,
                path: path.to_path_buf(),
            },
            text: text.trim_end().to_string(),
        }
    }
}

impl Generator for ScriptedGenerator {
    fn info(&self) -> &GeneratorInfo {
        &self.info
    }

    /// One token per whitespace-separated word.
    fn count_tokens(&self, text: &str) -> Result<usize, ModelError> {
        Ok(text.split_whitespace().count())
    }

    fn chat(
        &mut self,
        _messages: &[ChatMessage],
        params: &GenParams,
        on_token: &mut dyn FnMut(&str) -> bool,
    ) -> Result<GenOutput, ModelError> {
        let mut text = String::new();
        let mut n = 0usize;
        let mut stop_reason = StopReason::EndOfTurn;
        for w in self.text.split_inclusive(' ') {
            if n >= params.max_tokens {
                stop_reason = StopReason::MaxTokens;
                break;
            }
            n += 1;
            text.push_str(w);
            if !on_token(w) {
                stop_reason = StopReason::Cancelled;
                break;
            }
        }
        Ok(GenOutput {
            text,
            prompt_tokens: 0,
            generated_tokens: n,
            prefill_ms: 0.0,
            decode_ms: 0.0,
            stop_reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_word_by_word_within_the_budget() {
        let mut g = ScriptedGenerator::new("s", "Eins zwei drei.", Path::new("x"));
        let mut seen = Vec::new();
        let p = GenParams {
            max_tokens: 2,
            ..GenParams::default()
        };
        let out = g
            .chat(&[], &p, &mut |t| {
                seen.push(t.to_string());
                true
            })
            .unwrap();
        assert_eq!(seen, vec!["Eins ", "zwei "]);
        assert_eq!(out.generated_tokens, 2);
        assert_eq!(out.stop_reason, StopReason::MaxTokens);
    }
}
