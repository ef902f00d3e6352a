//! What every answer model is to its callers: the [`Generator`] trait, its
//! parameters and its output. The GGUF models (`generate`) and the scripted
//! test model (`scripted`) both implement it.

pub use crate::chat::{ChatMessage, Role};
use crate::ModelError;
use serde::Serialize;
use std::path::PathBuf;

/// Generation parameters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenParams {
    /// Maximum new tokens.
    pub max_tokens: usize,
    /// Sampling temperature; 0 = greedy.
    pub temperature: f64,
    /// Nucleus sampling threshold.
    pub top_p: Option<f64>,
    /// Repeat penalty (1.0 = off).
    pub repeat_penalty: f32,
    /// How many recent tokens the penalty looks at.
    pub repeat_last_n: usize,
    /// Sampling seed.
    pub seed: u64,
    /// Stop strings (not included in the output).
    pub stop: Vec<String>,
}

impl Default for GenParams {
    fn default() -> Self {
        Self {
            max_tokens: 512,
            temperature: 0.0,
            top_p: None,
            repeat_penalty: 1.1,
            repeat_last_n: 64,
            seed: 299_792_458,
            stop: Vec::new(),
        }
    }
}

/// Why generation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model ended its turn (end-of-turn / EOS token).
    EndOfTurn,
    /// A stop string was produced.
    StopString,
    /// `max_tokens` reached.
    MaxTokens,
    /// The context window is full.
    ContextFull,
    /// The streaming callback asked to stop.
    Cancelled,
}

/// Result of one chat call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenOutput {
    /// Generated text (without stop string / end token).
    pub text: String,
    /// Prompt length in tokens.
    pub prompt_tokens: usize,
    /// Generated tokens (incl. a final stop token).
    pub generated_tokens: usize,
    /// Prompt processing time, read after a device synchronise (so on a GPU
    /// it is the kernels' time, not their launch).
    pub prefill_ms: f64,
    /// Time from the end of prefill to the end.
    pub decode_ms: f64,
    /// Why it ended.
    pub stop_reason: StopReason,
}

/// A timed greedy run of exactly `steps` tokens ([`GgufGenerator::timed_greedy`]).
#[derive(Debug, Clone, Serialize)]
pub struct GreedyTiming {
    /// Prompt length in tokens.
    pub prompt_tokens: usize,
    /// Tokens chosen (the first one after prefill included).
    pub steps: usize,
    /// Prompt processing, after a device synchronise (ms).
    pub prefill_ms: f64,
    /// Time to the first token: prefill plus its argmax (ms).
    pub ttft_ms: f64,
    /// The `steps - 1` one-token steps after the first token (ms).
    pub decode_ms: f64,
    /// Prompt tokens per second of prefill.
    pub prefill_tok_per_s: f64,
    /// Tokens per second of the one-token steps.
    pub decode_tok_per_s: f64,
    /// Steps that chose the expected token, when expected ids were given.
    pub agree: Option<usize>,
    /// The first step that chose another token than the expected one.
    pub first_difference: Option<usize>,
}

/// Description of a loaded answer model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GeneratorInfo {
    /// Registry name (or file name).
    pub name: String,
    /// `general.architecture`.
    pub architecture: String,
    /// Chat template family.
    pub chat_template: String,
    /// Context length used.
    pub context_length: usize,
    /// Vocabulary size.
    pub vocab_size: usize,
    /// Weights file.
    pub path: PathBuf,
}

/// A chat model. Not shared between threads concurrently (`&mut self`).
pub trait Generator: Send {
    /// What is loaded.
    fn info(&self) -> &GeneratorInfo;
    /// Number of tokens of `text` (no special tokens).
    fn count_tokens(&self, text: &str) -> Result<usize, ModelError>;
    /// Runs one chat turn; `on_token` receives text as it is produced and
    /// returns false to stop.
    fn chat(
        &mut self,
        messages: &[ChatMessage],
        params: &GenParams,
        on_token: &mut dyn FnMut(&str) -> bool,
    ) -> Result<GenOutput, ModelError>;
}
