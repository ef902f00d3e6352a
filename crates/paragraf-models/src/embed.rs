//! The [`Embedder`] trait and what it gives back. The candle implementation
//! for BERT-family encoders (multilingual-e5, MiniLM) and XLM-RoBERTa (bge-m3
//! with dense, sparse and ColBERT outputs from one forward pass) is in
//! `embed_run` (batching, workers, pooling) and `embed_load` (files,
//! weights, tokenizer).

use crate::ModelError;
use serde::Serialize;

/// Whether a text is a search query or a stored passage (selects the prefix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// A user question.
    Query,
    /// A stored passage / chunk.
    Passage,
}

/// The outputs for one text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Embedding {
    /// Dense vector (L2-normalized when the model says so).
    pub dense: Vec<f32>,
    /// bge-m3 lexical weights: `(token id, weight > 0)`, sorted by token id,
    /// max over repeated tokens, special tokens excluded.
    pub sparse: Option<Vec<(u32, f32)>>,
    /// bge-m3 ColBERT vectors (one per token after the first, normalized).
    pub colbert: Option<Vec<Vec<f32>>>,
}

/// A batch result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EmbedBatch {
    /// One per input text, in input order.
    pub embeddings: Vec<Embedding>,
    /// How many inputs were truncated to `max_tokens`.
    pub truncated: usize,
}

/// Description of a loaded embedder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EmbedderInfo {
    /// Registry name.
    pub name: String,
    /// Hub revision from the registry.
    pub revision: String,
    /// Dense dimension.
    pub dim: usize,
    /// Max tokens per input (incl. special tokens).
    pub max_tokens: usize,
    /// Compute dtype.
    pub dtype: String,
    /// Has the sparse head.
    pub has_sparse: bool,
    /// Has the ColBERT head.
    pub has_colbert: bool,
    /// Encoder layers.
    pub layers: usize,
    /// Feed-forward width of a layer.
    pub intermediate: usize,
}

impl EmbedderInfo {
    /// GEMM work of one encoder pass over `tokens` tokens
    /// (see [`encoder_forward_flops`]).
    pub fn forward_flops(&self, tokens: usize) -> f64 {
        encoder_forward_flops(self.layers, self.dim, self.intermediate, tokens)
    }
}

/// Floating-point operations of one encoder pass over a sequence of `tokens`
/// tokens (multiply-add = 2): per layer the four `H×H` projections and the
/// two feed-forward matrices (`2·L·(4H² + 2HI)`) plus attention scores and
/// context (`2·2·L²·H`). Embeddings, norms, softmax and activations are left
/// out (they are not GEMMs), so `passages/s × flops` is the GEMM rate a run
/// achieved.
pub fn encoder_forward_flops(
    layers: usize,
    hidden: usize,
    intermediate: usize,
    tokens: usize,
) -> f64 {
    let (l, h, i) = (tokens as f64, hidden as f64, intermediate as f64);
    layers as f64 * (2.0 * l * (4.0 * h * h + 2.0 * h * i) + 4.0 * l * l * h)
}

/// A text embedder. Thread-safe; one call embeds a batch of texts.
pub trait Embedder: Send + Sync {
    /// What is loaded.
    fn info(&self) -> &EmbedderInfo;
    /// Embeds `texts` (prefix chosen by `kind`). Empty texts are an error.
    fn embed(&self, texts: &[&str], kind: TextKind) -> Result<EmbedBatch, ModelError>;
    /// Tokens `text` occupies (with prefix and special tokens, before truncation).
    fn token_count(&self, text: &str, kind: TextKind) -> Result<usize, ModelError>;
    /// How many inputs one forward pass takes when a call embeds `inputs`
    /// inputs of `tokens` tokens (the batch planner's choice on this device).
    fn batch_size(&self, tokens: usize, inputs: usize) -> usize {
        let _ = (tokens, inputs);
        1
    }
    /// [`Embedder::embed`] with every input padded (attention-masked) to at
    /// least `len` tokens. An input's vector then depends only on its own
    /// tokens and `len`, not on the other inputs of the call: the encoder
    /// gives bit-identical results for equal padded lengths at any batch
    /// size, while different padding changes the last bits. Query batching
    /// relies on it. The default ignores `len` (for encoders without
    /// padding).
    fn embed_padded(
        &self,
        texts: &[&str],
        kind: TextKind,
        len: usize,
    ) -> Result<EmbedBatch, ModelError> {
        let _ = len;
        self.embed(texts, kind)
    }
}
