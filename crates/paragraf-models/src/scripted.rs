//! A scripted answer model: replays the text of a file, word by word, as if
//! a model wrote it — whatever the prompt. For tests and demonstrations of
//! the citation gate without model weights (`architecture = "scripted"` in
//! a user's `models.toml`; never in the built-in registry). An optional
//! pause per word (`word_delay_ms` in the entry) stands in for decoding
//! time, so streaming can be tested.

use crate::error::ModelError;
use crate::generator::{ChatMessage, GenOutput, GenParams, Generator, GeneratorInfo, StopReason};
use std::path::Path;
use std::time::Duration;

/// The replaying generator.
pub struct ScriptedGenerator {
    info: GeneratorInfo,
    text: String,
    /// Pause before each word.
    word_delay: Duration,
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
            word_delay: Duration::ZERO,
        }
    }

    /// The same generator pausing `delay` before each word (as a model
    /// spends time decoding it).
    pub fn with_word_delay(mut self, delay: Duration) -> ScriptedGenerator {
        self.word_delay = delay;
        self
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
            if !self.word_delay.is_zero() {
                std::thread::sleep(self.word_delay);
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

    #[test]
    fn word_delay_paces_the_words() {
        let mut g = ScriptedGenerator::new("s", "Eins zwei drei.", Path::new("x"))
            .with_word_delay(Duration::from_millis(30));
        let t0 = std::time::Instant::now();
        let mut at = Vec::new();
        g.chat(&[], &GenParams::default(), &mut |_| {
            at.push(t0.elapsed());
            true
        })
        .unwrap();
        assert_eq!(at.len(), 3);
        assert!(at[0] >= Duration::from_millis(30), "{at:?}");
        assert!(at[2] >= Duration::from_millis(90), "{at:?}");
    }
}
