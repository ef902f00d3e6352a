//! The [`Embedder`] trait and its candle implementation for BERT-family
//! encoders (multilingual-e5, MiniLM) and XLM-RoBERTa (bge-m3 with dense,
//! sparse and ColBERT outputs from one forward pass).

use crate::device::device_kind;
use crate::encoder::{l2_normalize, Encoder, EncoderConfig, M3Heads, Positions};
use crate::registry::{Architecture, ModelEntry, ModelKind, Pooling};
use crate::resolve::{resolve, ResolveOptions, ResolvedModel};
use crate::{ModelError, Registry};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// An encoder model ready to run on token ids.
pub(crate) struct EncoderModel {
    pub(crate) encoder: Encoder,
    pub(crate) heads: Option<M3Heads>,
    pub(crate) pooling: Pooling,
    pub(crate) normalize: bool,
    pub(crate) dtype: DType,
    pub(crate) device: Device,
    /// Ids excluded from sparse weights (cls, eos, pad, unk).
    pub(crate) special_ids: HashSet<u32>,
    /// Tokens per batch (`batch size × padded length`).
    pub(crate) token_budget: usize,
    /// Attention-score elements per head per batch (`batch size × L²`). On
    /// CPU the `[B, heads, L, L]` scores must stay cache-sized: at 512 tokens
    /// a batch of 8 ran at 0.8× the one-at-a-time loop, a batch of 2 at 1.1×
    /// (all-MiniLM-L6-v2, 2 cores, `paragraf bench models`).
    pub(crate) attn_budget: usize,
    pub(crate) max_batch: usize,
    /// Data-parallel workers for multi-batch calls on CPU.
    pub(crate) workers: Workers,
}

/// Data-parallel CPU workers: one single-thread rayon pool per core. A call
/// with several batches spreads them over the workers, so every op of a
/// pass runs on all cores — not only the GEMMs, which candle parallelises by
/// itself while its norms, GELU and softmax mostly run on one thread. A
/// matmul started inside a one-thread pool runs on that thread. On the
/// 2-core CPU this made a 32-passage call of multilingual-e5-small 1.2–1.3×
/// faster than one 32-passage batch (`paragraf bench`, notes in the README).
/// Empty on a GPU and on one core: there one batch at a time is best.
#[derive(Default)]
pub(crate) struct Workers {
    pools: Vec<rayon::ThreadPool>,
}

impl Workers {
    /// One worker per core candle uses on `device` (none on a GPU).
    pub(crate) fn for_device(device: &Device) -> Self {
        let n = candle_core::utils::get_num_threads();
        if !device.is_cpu() || n < 2 {
            return Self::default();
        }
        let pools = (0..n)
            .filter_map(|i| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .thread_name(move |_| format!("paragraf-embed-{i}"))
                    .build()
                    .ok()
            })
            .collect();
        Self { pools }
    }

    fn len(&self) -> usize {
        self.pools.len()
    }
}

fn parse_dtype(s: &str) -> DType {
    match s {
        "f16" => DType::F16,
        "bf16" => DType::BF16,
        _ => DType::F32,
    }
}

pub(crate) fn dtype_name(d: DType) -> &'static str {
    match d {
        DType::F16 => "f16",
        DType::BF16 => "bf16",
        _ => "f32",
    }
}

impl EncoderModel {
    /// Inputs per forward pass at `longest` tokens: within the token budget,
    /// the batch cap and the attention budget, which the workers share (they
    /// run at the same time, so their attention scores add up in the cache).
    pub(crate) fn batch_size(&self, longest: usize) -> usize {
        let longest = longest.max(1);
        let attn = self.attn_budget / self.workers.len().max(1);
        (self.token_budget / longest)
            .min(attn / (longest * longest))
            .clamp(1, self.max_batch)
    }

    /// Embeds tokenized inputs (each already incl. special tokens and within
    /// the position limit), batching by token budget in length order; with
    /// several batches on a multi-core CPU the workers share them.
    pub(crate) fn embed_ids(&self, seqs: &[Vec<u32>]) -> Result<Vec<Embedding>, ModelError> {
        self.embed_ids_padded(seqs, 0)
    }

    /// [`Self::embed_ids`] with every batch padded to at least `min_len`
    /// tokens.
    pub(crate) fn embed_ids_padded(
        &self,
        seqs: &[Vec<u32>],
        min_len: usize,
    ) -> Result<Vec<Embedding>, ModelError> {
        let mut order: Vec<usize> = (0..seqs.len()).collect();
        // Longest first; ties by input index (stable sort).
        order.sort_by(|&a, &b| seqs[b].len().cmp(&seqs[a].len()));
        // With workers, no batch takes more than a worker's share, so that a
        // call of one planner batch still keeps every worker busy.
        let share = order.len().div_ceil(self.workers.len().max(1)).max(1);
        let mut batches: Vec<Vec<usize>> = Vec::new();
        let mut i = 0;
        while i < order.len() {
            let n = self.batch_size(seqs[order[i]].len()).min(share);
            batches.push(order[i..(i + n).min(order.len())].to_vec());
            i += n;
        }
        let run = |batch: &[usize]| {
            self.run_batch(
                &batch.iter().map(|&j| &seqs[j][..]).collect::<Vec<_>>(),
                min_len,
            )
        };
        let mut out: Vec<Option<Embedding>> = vec![None; seqs.len()];
        if batches.len() < 2 || self.workers.len() < 2 {
            for batch in &batches {
                for (j, e) in batch.iter().zip(run(batch)?) {
                    out[*j] = Some(e);
                }
            }
        } else {
            // Workers take the next batch from a shared cursor; the first
            // error stops the others at their next batch.
            let next = AtomicUsize::new(0);
            let results: Vec<Result<Vec<(usize, Embedding)>, ModelError>> =
                std::thread::scope(|s| {
                    let handles: Vec<_> = self
                        .workers
                        .pools
                        .iter()
                        .take(batches.len())
                        .map(|pool| {
                            let (next, batches, run) = (&next, &batches, &run);
                            s.spawn(move || {
                                pool.install(|| {
                                    let mut got = Vec::new();
                                    loop {
                                        let b = next.fetch_add(1, Ordering::Relaxed);
                                        let Some(batch) = batches.get(b) else {
                                            return Ok(got);
                                        };
                                        match run(batch) {
                                            Ok(embs) => got.extend(batch.iter().copied().zip(embs)),
                                            Err(e) => {
                                                next.store(batches.len(), Ordering::Relaxed);
                                                return Err(e);
                                            }
                                        }
                                    }
                                })
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| {
                            h.join().unwrap_or_else(|_| {
                                Err(ModelError::InvalidInput(
                                    "an embedding worker panicked".into(),
                                ))
                            })
                        })
                        .collect()
                });
            for r in results {
                for (j, e) in r? {
                    out[j] = Some(e);
                }
            }
        }
        out.into_iter()
            .enumerate()
            .map(|(i, e)| {
                e.ok_or_else(|| ModelError::InvalidInput(format!("input #{i} was not embedded")))
            })
            .collect()
    }

    fn run_batch(&self, seqs: &[&[u32]], min_len: usize) -> Result<Vec<Embedding>, ModelError> {
        let ctx = ModelError::candle("encoder forward");
        self.run_batch_inner(seqs, min_len).map_err(ctx)
    }

    fn run_batch_inner(
        &self,
        seqs: &[&[u32]],
        min_len: usize,
    ) -> candle_core::Result<Vec<Embedding>> {
        let b = seqs.len();
        let l = seqs
            .iter()
            .map(|s| s.len())
            .max()
            .unwrap_or(1)
            .max(min_len)
            .max(1);
        let pad = match self.encoder.positions {
            Positions::Roberta { pad } => pad,
            Positions::Absolute => self.encoder.cfg.pad_token_id,
        };
        let mut ids = Vec::with_capacity(b * l);
        let lens: Vec<usize> = seqs.iter().map(|s| s.len()).collect();
        for s in seqs {
            ids.extend_from_slice(s);
            ids.extend(std::iter::repeat_n(pad, l - s.len()));
        }
        let ids_t = Tensor::from_vec(ids, (b, l), &self.device)?;
        let h = self.encoder.forward(&ids_t, &lens, self.dtype)?;
        let dense = match self.pooling {
            Pooling::Cls => h.narrow(1, 0, 1)?.squeeze(1)?.to_dtype(DType::F32)?,
            Pooling::Mean => {
                let mut m = Vec::with_capacity(b * l);
                for &n in &lens {
                    m.extend((0..l).map(|j| if j < n { 1f32 } else { 0f32 }));
                }
                let m = Tensor::from_vec(m, (b, l, 1), &self.device)?;
                let sum = h.to_dtype(DType::F32)?.broadcast_mul(&m)?.sum(1)?;
                let cnt = m.sum(1)?.clamp(1f64, f64::MAX)?;
                sum.broadcast_div(&cnt)?
            }
        };
        let dense = if self.normalize {
            l2_normalize(&dense)?
        } else {
            dense
        };
        let dense: Vec<Vec<f32>> = dense.to_vec2()?;
        let (weights, colbert) = match &self.heads {
            Some(heads) => {
                let w: Vec<Vec<f32>> = heads.token_weights(&h)?.to_vec2()?;
                let c: Vec<Vec<Vec<f32>>> = if l > 1 {
                    heads.colbert_vectors(&h)?.to_vec3()?
                } else {
                    vec![Vec::new(); b]
                };
                (Some(w), Some(c))
            }
            None => (None, None),
        };
        let mut out = Vec::with_capacity(b);
        for (i, d) in dense.into_iter().enumerate() {
            let sparse = weights.as_ref().map(|w| {
                let mut m: BTreeMap<u32, f32> = BTreeMap::new();
                for (j, &id) in seqs[i].iter().enumerate() {
                    let wt = w[i][j];
                    if self.special_ids.contains(&id) || wt <= 0.0 {
                        continue;
                    }
                    let e = m.entry(id).or_insert(wt);
                    if wt > *e {
                        *e = wt;
                    }
                }
                m.into_iter().collect::<Vec<_>>()
            });
            let colbert = colbert.as_ref().map(|c| {
                let n = lens[i].saturating_sub(1);
                c[i].iter().take(n).cloned().collect::<Vec<_>>()
            });
            out.push(Embedding {
                dense: d,
                sparse,
                colbert,
            });
        }
        Ok(out)
    }
}

/// Tokenizer + encoder + prefixes.
pub(crate) struct TextEmbedder {
    pub(crate) model: EncoderModel,
    pub(crate) tokenizer: tokenizers::Tokenizer,
    pub(crate) info: EmbedderInfo,
    pub(crate) query_prefix: String,
    pub(crate) passage_prefix: String,
    pub(crate) tokenizer_path: String,
}

impl TextEmbedder {
    /// Tokenizes with truncation to `max_tokens` (keeping the final special
    /// token); returns ids and the number of truncated inputs.
    pub(crate) fn tokenize(
        &self,
        texts: &[&str],
        kind: TextKind,
    ) -> Result<(Vec<Vec<u32>>, usize), ModelError> {
        let prefix = match kind {
            TextKind::Query => &self.query_prefix,
            TextKind::Passage => &self.passage_prefix,
        };
        let mut inputs = Vec::with_capacity(texts.len());
        for (i, t) in texts.iter().enumerate() {
            if t.trim().is_empty() {
                return Err(ModelError::InvalidInput(format!("text #{i} is empty")));
            }
            inputs.push(format!("{prefix}{t}"));
        }
        let enc = self
            .tokenizer
            .encode_batch(inputs, true)
            .map_err(|e| ModelError::Tokenizer {
                context: self.tokenizer_path.clone(),
                message: e.to_string(),
            })?;
        let max = self.info.max_tokens;
        let vocab = self.model.encoder.cfg.vocab_size as u32;
        let mut truncated = 0;
        let mut out = Vec::with_capacity(enc.len());
        for e in enc {
            let mut ids = e.get_ids().to_vec();
            if let Some(bad) = ids.iter().find(|&&id| id >= vocab) {
                return Err(ModelError::Tokenizer {
                    context: self.tokenizer_path.clone(),
                    message: format!(
                        "token id {bad} is outside the model's vocabulary ({vocab}); tokenizer does not match the model"
                    ),
                });
            }
            if ids.len() > max {
                truncated += 1;
                let last = ids[ids.len() - 1];
                ids.truncate(max - 1);
                ids.push(last);
            }
            out.push(ids);
        }
        Ok((out, truncated))
    }
}

impl Embedder for TextEmbedder {
    fn info(&self) -> &EmbedderInfo {
        &self.info
    }

    fn embed(&self, texts: &[&str], kind: TextKind) -> Result<EmbedBatch, ModelError> {
        let (ids, truncated) = self.tokenize(texts, kind)?;
        let embeddings = self.model.embed_ids(&ids)?;
        Ok(EmbedBatch {
            embeddings,
            truncated,
        })
    }

    fn embed_padded(
        &self,
        texts: &[&str],
        kind: TextKind,
        len: usize,
    ) -> Result<EmbedBatch, ModelError> {
        let (ids, truncated) = self.tokenize(texts, kind)?;
        let embeddings = self
            .model
            .embed_ids_padded(&ids, len.min(self.info.max_tokens))?;
        Ok(EmbedBatch {
            embeddings,
            truncated,
        })
    }

    fn token_count(&self, text: &str, kind: TextKind) -> Result<usize, ModelError> {
        let prefix = match kind {
            TextKind::Query => &self.query_prefix,
            TextKind::Passage => &self.passage_prefix,
        };
        self.tokenizer
            .encode(format!("{prefix}{text}"), true)
            .map(|e| e.len())
            .map_err(|e| ModelError::Tokenizer {
                context: self.tokenizer_path.clone(),
                message: e.to_string(),
            })
    }

    fn batch_size(&self, tokens: usize, inputs: usize) -> usize {
        self.model
            .batch_size(tokens)
            .min(inputs.div_ceil(self.model.workers.len().max(1)))
            .max(1)
    }
}

/// Resolves and loads the embedder `name` from the registry onto `device`.
pub fn load_embedder(
    reg: &Registry,
    name: &str,
    opts: &ResolveOptions,
    device: &Device,
) -> Result<Box<dyn Embedder>, ModelError> {
    let entry = reg.get(name)?;
    if entry.kind != ModelKind::Embedder {
        return Err(ModelError::WrongArchitecture {
            model: name.to_string(),
            found: format!("{} ({})", entry.kind.as_str(), entry.architecture.as_str()),
            expected: "an embedder".into(),
        });
    }
    let files = resolve(entry, opts)?;
    load_embedder_from_files(entry, &files, device)
}

fn open_weights(
    path: &Path,
    dtype: DType,
    device: &Device,
) -> Result<VarBuilder<'static>, ModelError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "safetensors" => {
            // Validate the header/size first so truncation gives a clear error.
            // SAFETY: the file is mapped read-only; model files are not expected
            // to change while the process runs.
            let st =
                unsafe { candle_core::safetensors::MmapedSafetensors::new(path) }.map_err(|e| {
                    ModelError::invalid(path, format!("not a valid safetensors file: {e}"))
                })?;
            Ok(VarBuilder::from_backend(
                Box::new(st),
                dtype,
                device.clone(),
            ))
        }
        "bin" | "pt" | "pth" => {
            let pth = candle_core::pickle::PthTensors::new(path, None)
                .map_err(|e| ModelError::invalid(path, format!("not a valid PyTorch file: {e}")))?;
            Ok(VarBuilder::from_backend(
                Box::new(pth),
                dtype,
                device.clone(),
            ))
        }
        _ => Err(ModelError::invalid(
            path,
            "unknown weights format (expected .safetensors, .bin or .pt)",
        )),
    }
}

fn with_prefix(vb: VarBuilder<'static>) -> VarBuilder<'static> {
    for p in ["", "roberta", "bert", "model", "xlm_roberta"] {
        let v = if p.is_empty() { vb.clone() } else { vb.pp(p) };
        if v.contains_tensor("embeddings.word_embeddings.weight") {
            return v;
        }
    }
    vb
}

/// Loads an embedder for `entry` from already-resolved files.
pub fn load_embedder_from_files(
    entry: &ModelEntry,
    files: &ResolvedModel,
    device: &Device,
) -> Result<Box<dyn Embedder>, ModelError> {
    let cfg_path = files.config.as_ref().ok_or_else(|| ModelError::Registry {
        path: "models.toml".into(),
        message: format!("model `{}` has no files.config", entry.name),
    })?;
    let tok_path = files
        .tokenizer
        .as_ref()
        .ok_or_else(|| ModelError::Registry {
            path: "models.toml".into(),
            message: format!("model `{}` has no files.tokenizer", entry.name),
        })?;
    let cfg_text = std::fs::read_to_string(cfg_path).map_err(|source| ModelError::Io {
        path: cfg_path.clone(),
        source,
    })?;
    let cfg: EncoderConfig = serde_json::from_str(&cfg_text)
        .map_err(|e| ModelError::invalid(cfg_path, format!("config.json: {e}")))?;
    if let Some(mt) = &cfg.model_type {
        let ok = match entry.architecture {
            Architecture::Bert => mt == "bert",
            Architecture::XlmRoberta => mt == "xlm-roberta",
            _ => false,
        };
        if !ok {
            return Err(ModelError::WrongArchitecture {
                model: entry.name.clone(),
                found: mt.clone(),
                expected: entry.architecture.as_str().to_string(),
            });
        }
    }
    let dtype = parse_dtype(match device_kind(device) {
        "cuda" => &entry.dtype.cuda,
        "metal" => &entry.dtype.metal,
        _ => &entry.dtype.cpu,
    });
    let tokenizer = load_tokenizer_json(tok_path)?;
    let vb = with_prefix(open_weights(&files.weights, dtype, device)?);
    let positions = match entry.architecture {
        Architecture::XlmRoberta => Positions::Roberta {
            pad: cfg.pad_token_id,
        },
        _ => Positions::Absolute,
    };
    let encoder = Encoder::load(vb, &cfg, positions)
        .map_err(|e| ModelError::invalid(&files.weights, format!("encoder weights: {e}")))?;
    let heads = match (&files.sparse_head, &files.colbert_head) {
        (Some(s), Some(c)) => Some(M3Heads {
            sparse: candle_nn::linear(cfg.hidden_size, 1, open_weights(s, dtype, device)?)
                .map_err(|e| ModelError::invalid(s, format!("sparse head: {e}")))?,
            colbert: load_colbert(c, cfg.hidden_size, dtype, device)?,
        }),
        _ => None,
    };
    build_text_embedder(entry, encoder, heads, tokenizer, tok_path, dtype, device)
}

fn load_colbert(
    path: &Path,
    hidden: usize,
    dtype: DType,
    device: &Device,
) -> Result<candle_nn::Linear, ModelError> {
    let vb = open_weights(path, dtype, device)?;
    let out = vb
        .get_unchecked_dtype("weight", dtype)
        .and_then(|w| w.dim(0))
        .map_err(|e| ModelError::invalid(path, format!("colbert head: {e}")))?;
    candle_nn::linear(hidden, out, vb)
        .map_err(|e| ModelError::invalid(path, format!("colbert head: {e}")))
}

pub(crate) fn load_tokenizer_json(path: &Path) -> Result<tokenizers::Tokenizer, ModelError> {
    let mut t = tokenizers::Tokenizer::from_file(path).map_err(|e| ModelError::Tokenizer {
        context: path.display().to_string(),
        message: e.to_string(),
    })?;
    t.with_padding(None);
    t.with_truncation(None).map_err(|e| ModelError::Tokenizer {
        context: path.display().to_string(),
        message: e.to_string(),
    })?;
    Ok(t)
}

pub(crate) fn special_ids(tokenizer: &tokenizers::Tokenizer) -> HashSet<u32> {
    [
        "<s>", "</s>", "<pad>", "<unk>", "[CLS]", "[SEP]", "[PAD]", "[UNK]",
    ]
    .iter()
    .filter_map(|t| tokenizer.token_to_id(t))
    .collect()
}

pub(crate) fn build_text_embedder(
    entry: &ModelEntry,
    encoder: Encoder,
    heads: Option<M3Heads>,
    tokenizer: tokenizers::Tokenizer,
    tok_path: &Path,
    dtype: DType,
    device: &Device,
) -> Result<Box<dyn Embedder>, ModelError> {
    let max_tokens = entry.max_tokens.min(encoder.max_len());
    if max_tokens < 2 {
        return Err(ModelError::invalid(
            tok_path,
            "max_tokens leaves no room for text",
        ));
    }
    let info = EmbedderInfo {
        name: entry.name.clone(),
        revision: entry.revision.clone(),
        dim: encoder.cfg.hidden_size,
        max_tokens,
        dtype: dtype_name(dtype).to_string(),
        has_sparse: heads.is_some(),
        has_colbert: heads.is_some(),
        layers: encoder.cfg.num_hidden_layers,
        intermediate: encoder.cfg.intermediate_size,
    };
    if let Some(d) = entry.dim {
        if d != info.dim {
            return Err(ModelError::invalid(
                tok_path,
                format!(
                    "models.toml says dim {d} but the model has hidden size {}",
                    info.dim
                ),
            ));
        }
    }
    let gpu = !device.is_cpu();
    let special_ids = special_ids(&tokenizer);
    Ok(Box::new(TextEmbedder {
        model: EncoderModel {
            encoder,
            heads,
            pooling: entry.pooling.unwrap_or(Pooling::Cls),
            normalize: entry.normalize,
            dtype,
            device: device.clone(),
            special_ids,
            token_budget: if gpu { 65_536 } else { 4096 },
            attn_budget: if gpu { usize::MAX } else { 1 << 19 },
            max_batch: if gpu { 256 } else { 64 },
            workers: Workers::for_device(device),
        },
        tokenizer,
        info,
        query_prefix: entry.query_prefix.clone(),
        passage_prefix: entry.passage_prefix.clone(),
        tokenizer_path: tok_path.display().to_string(),
    }))
}
