//! Random-weight builds of the real architectures, so that a machine
//! without model files can measure them: an encoder on token ids (the
//! bge-m3 shape with its heads), an encoder directory on disk, and a
//! Qwen2-shaped GGUF written in-process.

use super::EmbedThroughput;
use crate::embed_run::EncoderModel;
use crate::encoder::{random_encoder_tensors, Encoder, EncoderConfig, M3Heads, Positions};
use crate::registry::Pooling;
use crate::ModelError;
use candle_core::quantized::{gguf_file, GgmlDType, QTensor};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use serde::Serialize;
use std::collections::HashSet;
use std::path::Path;
use std::time::Instant;

/// A random-weight encoder that runs on token ids (no tokenizer), e.g. the
/// bge-m3 shape: `EncoderConfig::xlm_roberta_large()` with the M3 heads.
pub struct RandomEncoder {
    model: EncoderModel,
}

impl RandomEncoder {
    /// Builds it on `device` in `dtype`.
    pub fn new(
        cfg: &EncoderConfig,
        m3_heads: bool,
        device: &Device,
        dtype: DType,
        seed: u64,
    ) -> Result<Self, ModelError> {
        let c = ModelError::candle("random encoder");
        let t = random_encoder_tensors(cfg, m3_heads, seed, &Device::Cpu).map_err(c)?;
        Self::from_tensors(cfg, m3_heads, t, device, dtype)
    }

    /// Builds it from tensors of [`random_encoder_tensors`] (one draw of
    /// weights loaded on several devices or in several dtypes), moved to
    /// `device` in `dtype`.
    pub fn from_tensors(
        cfg: &EncoderConfig,
        m3_heads: bool,
        t: std::collections::HashMap<String, Tensor>,
        device: &Device,
        dtype: DType,
    ) -> Result<Self, ModelError> {
        let vb = VarBuilder::from_tensors(t, dtype, device);
        let positions = Positions::Roberta {
            pad: cfg.pad_token_id,
        };
        let encoder = Encoder::load(vb.clone(), cfg, positions)
            .map_err(ModelError::candle("random encoder"))?;
        let heads = if m3_heads {
            Some(M3Heads {
                sparse: candle_nn::linear(cfg.hidden_size, 1, vb.pp("sparse_linear"))
                    .map_err(ModelError::candle("sparse head"))?,
                colbert: candle_nn::linear(
                    cfg.hidden_size,
                    cfg.hidden_size,
                    vb.pp("colbert_linear"),
                )
                .map_err(ModelError::candle("colbert head"))?,
            })
        } else {
            None
        };
        Ok(Self {
            model: EncoderModel {
                encoder,
                heads,
                pooling: Pooling::Cls,
                normalize: true,
                dtype,
                device: device.clone(),
                special_ids: [0u32, 1, 2, 3].into_iter().collect::<HashSet<_>>(),
                batch: crate::registry::BatchPerDevice::default()
                    .for_kind(crate::device::device_kind(device)),
                workers: crate::embed_run::Workers::for_device(device),
            },
        })
    }

    /// Embeds token-id sequences (each `<s> … </s>`), all outputs.
    pub fn embed_ids(&self, seqs: &[Vec<u32>]) -> Result<Vec<crate::Embedding>, ModelError> {
        self.model.embed_ids(seqs)
    }

    /// The encoder's shape.
    pub fn config(&self) -> &EncoderConfig {
        &self.model.encoder.cfg
    }

    /// `n` synthetic sequences of `tokens` tokens each (`<s> … </s>`; ids
    /// spread over the vocabulary, different per sequence, deterministic).
    pub fn synthetic_ids(&self, tokens: usize, n: usize) -> Vec<Vec<u32>> {
        let vocab = self.model.encoder.cfg.vocab_size as u32;
        (0..n)
            .map(|k| {
                let mut s = vec![0u32];
                s.extend(
                    (0..tokens.saturating_sub(2))
                        .map(|i| 5 + ((i * 31 + k * 17) as u32 % (vocab - 5))),
                );
                s.push(2);
                s
            })
            .collect()
    }

    /// Passages per second when one call embeds `batch` sequences of
    /// `tokens` tokens: one warm-up call, then calls until `min_s` seconds
    /// (at least `min_calls`) have passed, the device synchronised around
    /// the timed calls.
    pub fn batch_rate(
        &self,
        tokens: usize,
        batch: usize,
        min_s: f64,
        min_calls: usize,
    ) -> Result<BatchRate, ModelError> {
        let seqs = self.synthetic_ids(tokens, batch);
        let sync = |d: &Device| d.synchronize().map_err(ModelError::candle("sync"));
        self.embed_ids(&seqs)?;
        sync(&self.model.device)?;
        let t = Instant::now();
        let mut calls = 0usize;
        while calls < min_calls.max(1) || t.elapsed().as_secs_f64() < min_s {
            self.embed_ids(&seqs)?;
            calls += 1;
        }
        sync(&self.model.device)?;
        let secs = t.elapsed().as_secs_f64();
        let per_s = (calls * batch) as f64 / secs;
        let cfg = &self.model.encoder.cfg;
        Ok(BatchRate {
            tokens,
            batch,
            calls,
            passages_per_s: per_s,
            tokens_per_s: per_s * tokens as f64,
            tflops: per_s
                * crate::embed::encoder_forward_flops(
                    cfg.num_hidden_layers,
                    cfg.hidden_size,
                    cfg.intermediate_size,
                    tokens,
                )
                / 1e12,
        })
    }

    /// Throughput at `tokens` tokens over `n` synthetic sequences.
    pub fn throughput(
        &self,
        name: &str,
        tokens: usize,
        n: usize,
    ) -> Result<EmbedThroughput, ModelError> {
        let seqs = self.synthetic_ids(tokens, n);
        self.embed_ids(&seqs[..1])?;
        let sync = |d: &Device| d.synchronize().map_err(ModelError::candle("sync"));
        sync(&self.model.device)?;
        let t = Instant::now();
        self.embed_ids(&seqs)?;
        sync(&self.model.device)?;
        let batched = n as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        for s in &seqs {
            self.embed_ids(std::slice::from_ref(s))?;
        }
        sync(&self.model.device)?;
        let naive = n as f64 / t.elapsed().as_secs_f64();
        Ok(EmbedThroughput {
            model: name.to_string(),
            tokens,
            passages: n,
            batched_per_s: batched,
            naive_per_s: naive,
            speedup: batched / naive,
            gflop_per_passage: crate::embed::encoder_forward_flops(
                self.model.encoder.cfg.num_hidden_layers,
                self.model.encoder.cfg.hidden_size,
                self.model.encoder.cfg.intermediate_size,
                tokens,
            ) / 1e9,
        })
    }
}

/// One point of an encoder batch sweep.
#[derive(Debug, Clone, Serialize)]
pub struct BatchRate {
    /// Tokens per sequence.
    pub tokens: usize,
    /// Sequences per call.
    pub batch: usize,
    /// Timed calls.
    pub calls: usize,
    /// Passages per second.
    pub passages_per_s: f64,
    /// Tokens per second.
    pub tokens_per_s: f64,
    /// GEMM rate achieved (see [`crate::encoder_forward_flops`]), TFLOP/s.
    pub tflops: f64,
}

/// Writes a random-weight encoder as a model directory the registry can
/// load: `config.json`, `model.safetensors` (weights in `dtype`), with
/// `m3_heads` also `sparse_linear.safetensors` and
/// `colbert_linear.safetensors` (bge-m3's heads), and a copy of `tokenizer`
/// as `tokenizer.json`. Returns the registry entry (TOML) naming it `name`
/// (inputs cut at 512 tokens, or the position table if shorter).
pub fn write_random_encoder_dir(
    dir: &Path,
    name: &str,
    cfg: &EncoderConfig,
    m3_heads: bool,
    tokenizer: &Path,
    dtype: DType,
    seed: u64,
) -> Result<String, ModelError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ModelError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let cfg_path = dir.join("config.json");
    let json = serde_json::to_string_pretty(cfg)
        .map_err(|e| ModelError::invalid(&cfg_path, e.to_string()))?;
    std::fs::write(&cfg_path, json).map_err(io(&cfg_path))?;
    let tok = dir.join("tokenizer.json");
    std::fs::copy(tokenizer, &tok).map_err(io(tokenizer))?;
    let c = ModelError::candle("random encoder weights");
    let mut t = random_encoder_tensors(cfg, m3_heads, seed, &Device::Cpu).map_err(c)?;
    for v in t.values_mut() {
        *v = v
            .to_dtype(dtype)
            .map_err(ModelError::candle("random encoder weights"))?;
    }
    let mut take = |p: &str| -> std::collections::HashMap<String, Tensor> {
        ["weight", "bias"]
            .iter()
            .filter_map(|w| t.remove(&format!("{p}.{w}")).map(|x| (w.to_string(), x)))
            .collect()
    };
    let heads = m3_heads.then(|| (take("sparse_linear"), take("colbert_linear")));
    let save = |m: &std::collections::HashMap<String, Tensor>, f: &str| {
        candle_core::safetensors::save(m, dir.join(f))
            .map_err(ModelError::candle(format!("writing {f}")))
    };
    save(&t, "model.safetensors")?;
    let mut files = String::from(
        r#"weights = "model.safetensors", config = "config.json", tokenizer = "tokenizer.json""#,
    );
    if let Some((sparse, colbert)) = heads {
        save(&sparse, "sparse_linear.safetensors")?;
        save(&colbert, "colbert_linear.safetensors")?;
        files.push_str(r#", sparse_head = "sparse_linear.safetensors", colbert_head = "colbert_linear.safetensors""#);
    }
    let dt = format!("{dtype:?}").to_lowercase();
    Ok(format!(
        r#"[[model]]
name = "{name}"
kind = "embedder"
architecture = "{arch}"
repo = "random/{name}"
path = "{dir}"
files = {{ {files} }}
dtype = {{ cpu = "f32", cuda = "{dt}", metal = "{dt}" }}
pooling = "{pooling}"
max_tokens = {max_tokens}
dim = {dim}
"#,
        arch = cfg.model_type.as_deref().unwrap_or("xlm-roberta"),
        dir = dir.display(),
        pooling = if m3_heads { "cls" } else { "mean" },
        max_tokens = 512,
        dim = cfg.hidden_size,
    ))
}

/// Shape of a qwen2 decoder.
#[derive(Debug, Clone, Copy, Serialize, serde::Deserialize)]
pub struct Qwen2Shape {
    /// Vocabulary.
    pub vocab: usize,
    /// Hidden size.
    pub hidden: usize,
    /// Layers.
    pub layers: usize,
    /// Attention heads.
    pub heads: usize,
    /// KV heads.
    pub kv_heads: usize,
    /// FFN size.
    pub ffn: usize,
    /// Context length.
    pub context: usize,
    /// The output head is the token embedding (no `output.weight`).
    pub tied: bool,
}

impl Qwen2Shape {
    /// Qwen2.5-0.5B-Instruct.
    pub fn qwen2_5_0_5b() -> Self {
        Self {
            vocab: 151_936,
            hidden: 896,
            layers: 24,
            heads: 14,
            kv_heads: 2,
            ffn: 4864,
            context: 32_768,
            tied: true,
        }
    }

    /// Qwen2.5-1.5B-Instruct.
    pub fn qwen2_5_1_5b() -> Self {
        Self {
            vocab: 151_936,
            hidden: 1536,
            layers: 28,
            heads: 12,
            kv_heads: 2,
            ffn: 8960,
            context: 32_768,
            tied: true,
        }
    }

    /// Qwen2.5-7B-Instruct.
    pub fn qwen2_5_7b() -> Self {
        Self {
            vocab: 152_064,
            hidden: 3584,
            layers: 28,
            heads: 28,
            kv_heads: 4,
            ffn: 18_944,
            context: 32_768,
            tied: false,
        }
    }

    /// A tiny model for tests (rows of 64: k-quants fall back, see
    /// [`QuantMix`]).
    pub fn tiny() -> Self {
        Self {
            vocab: 300,
            hidden: 64,
            layers: 2,
            heads: 4,
            kv_heads: 2,
            ffn: 128,
            context: 512,
            tied: true,
        }
    }

    /// A small model whose rows are multiples of 256, so that k-quants apply
    /// (the GPU kit's `--tiny` shape).
    pub fn small_k() -> Self {
        Self {
            vocab: 512,
            hidden: 256,
            layers: 2,
            heads: 4,
            kv_heads: 2,
            ffn: 512,
            context: 1024,
            tied: false,
        }
    }

    /// Parameters of the matrices and vectors (embedding and head included).
    pub fn params(&self) -> usize {
        let head_dim = self.hidden / self.heads;
        let kv = self.kv_heads * head_dim;
        let layer = 2 * self.hidden * self.hidden
            + 2 * kv * self.hidden
            + 3 * self.ffn * self.hidden
            + self.hidden
            + 2 * kv
            + 2 * self.hidden;
        let head = if self.tied {
            0
        } else {
            self.vocab * self.hidden
        };
        self.vocab * self.hidden + head + self.hidden + self.layers * layer
    }
}

/// Where a matrix sits in a decoder (the quantisation recipe depends on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatRole {
    /// Token embedding (also the head when tied).
    Embedding,
    /// Separate output head.
    Output,
    /// Attention value projection.
    AttnV,
    /// Feed-forward down projection.
    FfnDown,
    /// Every other matrix (q, k, o, gate, up).
    Other,
}

/// How the matrices of a random GGUF are quantised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuantMix {
    /// Every matrix in one type.
    Uniform(GgmlDType),
    /// llama.cpp's Q4_K_M recipe, simplified: `attn_v`, `ffn_down` and the
    /// output head in Q6_K (llama.cpp: half of the layers' `ffn_down`), all
    /// other matrices in Q4_K; a matrix whose rows are not a multiple of 256
    /// falls back as llama.cpp does (Q4_K → Q5_0, Q6_K → Q8_0), which is
    /// what the real Qwen2.5-0.5B Q4_K_M holds for its 896-wide rows.
    Q4KM,
}

impl QuantMix {
    /// The type of a matrix with `cols` values per row.
    pub fn dtype(self, role: MatRole, cols: usize) -> GgmlDType {
        match self {
            QuantMix::Uniform(t) => t,
            QuantMix::Q4KM => {
                let k = matches!(role, MatRole::AttnV | MatRole::FfnDown | MatRole::Output);
                match (k, cols.is_multiple_of(256)) {
                    (true, true) => GgmlDType::Q6K,
                    (true, false) => GgmlDType::Q8_0,
                    (false, true) => GgmlDType::Q4K,
                    (false, false) => GgmlDType::Q5_0,
                }
            }
        }
    }

    /// Name in reports.
    pub fn name(self) -> String {
        match self {
            QuantMix::Uniform(t) => format!("{t:?}"),
            QuantMix::Q4KM => "Q4_K_M".into(),
        }
    }
}

/// What a written random GGUF holds.
#[derive(Debug, Clone, Serialize)]
pub struct GgufFacts {
    /// Bytes of the file.
    pub file_bytes: u64,
    /// Bytes of weights one decode step reads: every layer matrix and
    /// vector plus the output head (the embedding row lookup is left out
    /// unless the head is the embedding).
    pub weight_bytes_per_token: u64,
    /// Tensors per GGML type.
    pub tensor_types: std::collections::BTreeMap<String, usize>,
}

/// GPT-2 byte-to-unicode table (the 256 byte-level token strings).
pub fn byte_level_alphabet() -> Vec<String> {
    let mut bs: Vec<u32> = (b'!' as u32..=b'~' as u32)
        .chain(0xA1..=0xAC)
        .chain(0xAE..=0xFF)
        .collect();
    let mut cs = bs.clone();
    let mut n = 0;
    for b in 0..256u32 {
        if !bs.contains(&b) {
            bs.push(b);
            cs.push(256 + n);
            n += 1;
        }
    }
    let mut pairs: Vec<(u32, u32)> = bs.into_iter().zip(cs).collect();
    pairs.sort();
    pairs
        .into_iter()
        .map(|(_, c)| char::from_u32(c).map(String::from).unwrap_or_default())
        .collect()
}

/// Writes a random-weight qwen2 GGUF with a chatml template and a byte-level
/// vocabulary (256 byte tokens, `<|endoftext|>`, `<|im_start|>`, `<|im_end|>`,
/// filler tokens up to `shape.vocab`), matrices quantised by `mix`. Each
/// distinct shape is generated once and reused by all layers (speed does not
/// depend on values).
pub fn write_random_qwen2_gguf(
    path: &Path,
    shape: &Qwen2Shape,
    mix: QuantMix,
    seed: u64,
) -> Result<GgufFacts, ModelError> {
    let c = |what: &'static str| ModelError::candle(format!("writing random GGUF: {what}"));
    let dev = Device::Cpu;
    let rng = std::cell::RefCell::new(crate::encoder::SplitMix(seed));
    let head_dim = shape.hidden / shape.heads;
    let kv = shape.kv_heads * head_dim;
    let mat = |o: usize, i: usize, role: MatRole| -> Result<QTensor, ModelError> {
        let v = rng.borrow_mut().normal_vec(o * i, 0.02);
        let t = Tensor::from_vec(v, (o, i), &dev).map_err(c("randn"))?;
        QTensor::quantize(&t, mix.dtype(role, i)).map_err(c("quantize"))
    };
    let vecf = |n: usize, v: f32| -> Result<QTensor, ModelError> {
        let t = Tensor::full(v, n, &dev).map_err(c("full"))?;
        QTensor::quantize(&t, GgmlDType::F32).map_err(c("quantize"))
    };
    let embd = mat(shape.vocab, shape.hidden, MatRole::Embedding)?;
    let head = if shape.tied {
        None
    } else {
        Some(mat(shape.vocab, shape.hidden, MatRole::Output)?)
    };
    let q = mat(shape.hidden, shape.hidden, MatRole::Other)?;
    let k = mat(kv, shape.hidden, MatRole::Other)?;
    let v = mat(kv, shape.hidden, MatRole::AttnV)?;
    let o = mat(shape.hidden, shape.hidden, MatRole::Other)?;
    let gate = mat(shape.ffn, shape.hidden, MatRole::Other)?;
    let up = mat(shape.ffn, shape.hidden, MatRole::Other)?;
    let down = mat(shape.hidden, shape.ffn, MatRole::FfnDown)?;
    let norm = vecf(shape.hidden, 1.0)?;
    let bq = vecf(shape.hidden, 0.0)?;
    let bkv = vecf(kv, 0.0)?;
    let mut names: Vec<String> = vec!["token_embd.weight".into(), "output_norm.weight".into()];
    let mut refs: Vec<&QTensor> = vec![&embd, &norm];
    if let Some(h) = &head {
        names.push("output.weight".into());
        refs.push(h);
    }
    for l in 0..shape.layers {
        for (n, t) in [
            ("attn_q.weight", &q),
            ("attn_k.weight", &k),
            ("attn_v.weight", &v),
            ("attn_q.bias", &bq),
            ("attn_k.bias", &bkv),
            ("attn_v.bias", &bkv),
            ("attn_output.weight", &o),
            ("attn_norm.weight", &norm),
            ("ffn_gate.weight", &gate),
            ("ffn_up.weight", &up),
            ("ffn_down.weight", &down),
            ("ffn_norm.weight", &norm),
        ] {
            names.push(format!("blk.{l}.{n}"));
            refs.push(t);
        }
    }
    let mut tensor_types = std::collections::BTreeMap::new();
    let mut per_token = 0u64;
    for (n, t) in names.iter().zip(&refs) {
        *tensor_types.entry(format!("{:?}", t.dtype())).or_insert(0) += 1;
        if n != "token_embd.weight" || shape.tied {
            per_token += t.storage_size_in_bytes() as u64;
        }
    }
    let mut tokens = byte_level_alphabet();
    let eot = tokens.len() as u32;
    tokens.extend(["<|endoftext|>", "<|im_start|>", "<|im_end|>"].map(String::from));
    let mut types = vec![1i32; tokens.len()];
    for t in types.iter_mut().skip(eot as usize) {
        *t = 3;
    }
    while tokens.len() < shape.vocab {
        tokens.push(format!("<filler_{}>", tokens.len()));
        types.push(5);
    }
    use gguf_file::Value as V;
    let template = "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
    let md: Vec<(&str, V)> = vec![
        ("general.architecture", V::String("qwen2".into())),
        ("general.name", V::String("random-qwen2".into())),
        ("qwen2.attention.head_count", V::U32(shape.heads as u32)),
        (
            "qwen2.attention.head_count_kv",
            V::U32(shape.kv_heads as u32),
        ),
        ("qwen2.embedding_length", V::U32(shape.hidden as u32)),
        ("qwen2.context_length", V::U32(shape.context as u32)),
        ("qwen2.block_count", V::U32(shape.layers as u32)),
        ("qwen2.feed_forward_length", V::U32(shape.ffn as u32)),
        ("qwen2.attention.layer_norm_rms_epsilon", V::F32(1e-6)),
        ("qwen2.rope.freq_base", V::F32(1_000_000.0)),
        ("tokenizer.ggml.model", V::String("gpt2".into())),
        ("tokenizer.ggml.pre", V::String("qwen2".into())),
        (
            "tokenizer.ggml.tokens",
            V::Array(tokens.into_iter().map(V::String).collect()),
        ),
        (
            "tokenizer.ggml.token_type",
            V::Array(types.into_iter().map(V::I32).collect()),
        ),
        ("tokenizer.ggml.merges", V::Array(Vec::new())),
        ("tokenizer.ggml.eos_token_id", V::U32(eot + 2)),
        ("tokenizer.ggml.bos_token_id", V::U32(eot)),
        ("tokenizer.ggml.add_bos_token", V::Bool(false)),
        ("tokenizer.chat_template", V::String(template.into())),
    ];
    let md_refs: Vec<(&str, &V)> = md.iter().map(|(k, v)| (*k, v)).collect();
    let t_refs: Vec<(&str, &QTensor)> = names.iter().map(String::as_str).zip(refs).collect();
    let mut f =
        std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|source| ModelError::Io {
                path: path.to_path_buf(),
                source,
            })?,
        );
    gguf_file::write(&mut f, &md_refs, &t_refs).map_err(c("write"))?;
    use std::io::Write;
    let io = |source| ModelError::Io {
        path: path.to_path_buf(),
        source,
    };
    f.flush().map_err(io)?;
    drop(f);
    Ok(GgufFacts {
        file_bytes: std::fs::metadata(path).map_err(io)?.len(),
        weight_bytes_per_token: per_token,
        tensor_types,
    })
}
