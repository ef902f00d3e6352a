//! Running an encoder on texts: tokenisation with truncation, length-sorted
//! batches within a token and attention budget, data-parallel CPU workers,
//! pooling and the bge-m3 heads.

use crate::embed::{EmbedBatch, Embedder, EmbedderInfo, Embedding, TextKind};
use crate::encoder::{l2_normalize, Encoder, M3Heads, Positions};
use crate::registry::Pooling;
use crate::ModelError;
use candle_core::{DType, Device, Tensor};
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};

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
    /// Batching on this device (the registry entry's `batch`).
    pub(crate) batch: crate::registry::BatchLimits,
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

pub(crate) fn parse_dtype(s: &str) -> DType {
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
        let attn = self.batch.attention.unwrap_or(usize::MAX) / self.workers.len().max(1);
        (self.batch.tokens / longest)
            .min(attn / (longest * longest))
            .clamp(1, self.batch.max)
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
