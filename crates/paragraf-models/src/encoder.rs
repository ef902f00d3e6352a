//! A BERT / XLM-RoBERTa encoder (one implementation: the two differ only in
//! position ids) plus the bge-m3 sparse and ColBERT heads.
//!
//! Written here rather than using candle-transformers' `xlm_roberta` so that
//! position ids are computed exactly (integers, not in f16/bf16, which lose
//! precision past 2048 / 256 positions) and the attention mask works in any
//! compute dtype.

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{embedding, layer_norm, linear, Embedding, LayerNorm, Linear, VarBuilder};
use serde::{Deserialize, Serialize};

/// The fields of a HF `config.json` the encoder needs.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct EncoderConfig {
    /// Vocabulary size.
    pub vocab_size: usize,
    /// Hidden size.
    pub hidden_size: usize,
    /// Layers.
    pub num_hidden_layers: usize,
    /// Attention heads.
    pub num_attention_heads: usize,
    /// FFN size.
    pub intermediate_size: usize,
    /// Activation (`gelu`, `gelu_new`, `relu`, ...).
    #[serde(default = "default_act")]
    pub hidden_act: String,
    /// Layer norm epsilon.
    #[serde(default = "default_eps")]
    pub layer_norm_eps: f64,
    /// Size of the position table.
    pub max_position_embeddings: usize,
    /// Token type vocabulary.
    #[serde(default = "default_type_vocab")]
    pub type_vocab_size: usize,
    /// Padding token id (XLM-R position offset).
    #[serde(default)]
    pub pad_token_id: u32,
    /// `bert`, `xlm-roberta`, ...
    #[serde(default)]
    pub model_type: Option<String>,
}

fn default_act() -> String {
    "gelu".into()
}
fn default_eps() -> f64 {
    1e-12
}
fn default_type_vocab() -> usize {
    2
}

impl EncoderConfig {
    /// XLM-RoBERTa large (the bge-m3 encoder shape).
    pub fn xlm_roberta_large() -> Self {
        Self {
            vocab_size: 250_002,
            hidden_size: 1024,
            num_hidden_layers: 24,
            num_attention_heads: 16,
            intermediate_size: 4096,
            hidden_act: "gelu".into(),
            layer_norm_eps: 1e-5,
            max_position_embeddings: 8194,
            type_vocab_size: 1,
            pad_token_id: 1,
            model_type: Some("xlm-roberta".into()),
        }
    }

    /// multilingual-e5-small (a BERT encoder over the XLM-R vocabulary).
    pub fn e5_small() -> Self {
        Self {
            vocab_size: 250_037,
            hidden_size: 384,
            num_hidden_layers: 12,
            num_attention_heads: 12,
            intermediate_size: 1536,
            hidden_act: "gelu".into(),
            layer_norm_eps: 1e-12,
            max_position_embeddings: 512,
            type_vocab_size: 2,
            pad_token_id: 0,
            model_type: Some("bert".into()),
        }
    }

    /// A two-layer XLM-R of width 64 over `vocab` tokens (tests; the GPU
    /// kit's `--tiny` shape with the real tokenizer's vocabulary).
    pub fn tiny_xlm_roberta(vocab: usize) -> Self {
        Self {
            vocab_size: vocab,
            hidden_size: 64,
            num_hidden_layers: 2,
            num_attention_heads: 4,
            intermediate_size: 128,
            max_position_embeddings: 514,
            ..Self::xlm_roberta_large()
        }
    }
}

/// How position ids are formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Positions {
    /// BERT: 0, 1, 2, ...
    Absolute,
    /// RoBERTa: pad+1, pad+2, ... for real tokens, pad for padding.
    Roberta {
        /// Padding id.
        pad: u32,
    },
}

pub(crate) use crate::cpu_f32::Act;

/// A linear layer whose weight is kept transposed (`[in, out]`, contiguous).
/// On the CPU, candle hands `x · Wᵀ` to gemm as the transposed problem
/// `W · xᵀ`; with `W` stored `[out, in]` that left operand is row-major, and
/// gemm copies ("packs") the whole weight matrix on every call — 55 % of a
/// query's time in a profile (issue 38). Stored `[in, out]`, it is
/// column-major there and read in place.
struct Dense {
    wt: Tensor,
    bias: Option<Tensor>,
}

impl Dense {
    fn new(l: &Linear) -> candle_core::Result<Self> {
        Ok(Self {
            wt: l.weight().t()?.contiguous()?,
            bias: l.bias().cloned(),
        })
    }

    /// `act(x · W + b)` for token-major `x` (`[N, in]`). On the CPU in f32
    /// the bias and the activation go into the GEMM's output in place.
    fn forward(&self, x: &Tensor, act: Option<Act>) -> candle_core::Result<Tensor> {
        if x.device().is_cpu() && x.dtype() == DType::F32 && self.wt.dtype() == DType::F32 {
            return crate::cpu_f32::dense(x, &self.wt, self.bias.as_ref(), act);
        }
        let y = x.matmul(&self.wt)?;
        let y = match &self.bias {
            Some(b) => y.broadcast_add(b)?,
            None => y,
        };
        match act {
            None => Ok(y),
            Some(Act::GeluErf) => y.gelu_erf(),
            Some(Act::GeluTanh) => y.gelu(),
            Some(Act::Relu) => y.relu(),
        }
    }
}

struct Layer {
    /// Query, key and value in one projection (outputs q, k, v): one GEMM
    /// instead of three.
    qkv: Dense,
    attn_out: Dense,
    attn_ln: LayerNorm,
    inter: Dense,
    out: Dense,
    out_ln: LayerNorm,
}

/// The encoder.
pub struct Encoder {
    word: Embedding,
    pos: Embedding,
    token_type: Embedding,
    emb_ln: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
    head_dim: usize,
    act: Act,
    /// Position scheme.
    pub positions: Positions,
    /// Config.
    pub cfg: EncoderConfig,
}

impl Encoder {
    /// Loads the encoder from `vb` (tensor names as in HF BertModel / XLMRobertaModel).
    pub fn load(
        vb: VarBuilder,
        cfg: &EncoderConfig,
        positions: Positions,
    ) -> candle_core::Result<Self> {
        if cfg.num_attention_heads == 0 || !cfg.hidden_size.is_multiple_of(cfg.num_attention_heads)
        {
            candle_core::bail!(
                "hidden_size {} is not divisible by num_attention_heads {}",
                cfg.hidden_size,
                cfg.num_attention_heads
            );
        }
        let act = match cfg.hidden_act.as_str() {
            "gelu" => Act::GeluErf,
            "gelu_new" | "gelu_pytorch_tanh" | "gelu_fast" => Act::GeluTanh,
            "relu" => Act::Relu,
            other => candle_core::bail!("unsupported hidden_act `{other}`"),
        };
        let h = cfg.hidden_size;
        let e = vb.pp("embeddings");
        let word = embedding(cfg.vocab_size, h, e.pp("word_embeddings"))?;
        let pos = embedding(cfg.max_position_embeddings, h, e.pp("position_embeddings"))?;
        let token_type = embedding(cfg.type_vocab_size, h, e.pp("token_type_embeddings"))?;
        let emb_ln = layer_norm(h, cfg.layer_norm_eps, e.pp("LayerNorm"))?;
        let mut layers = Vec::with_capacity(cfg.num_hidden_layers);
        for i in 0..cfg.num_hidden_layers {
            let l = vb.pp(format!("encoder.layer.{i}"));
            let a = l.pp("attention");
            let (q, k, v) = (
                linear(h, h, a.pp("self.query"))?,
                linear(h, h, a.pp("self.key"))?,
                linear(h, h, a.pp("self.value"))?,
            );
            let cat = |f: fn(&Linear) -> Option<&Tensor>| -> candle_core::Result<Option<Tensor>> {
                match (f(&q), f(&k), f(&v)) {
                    (Some(q), Some(k), Some(v)) => Ok(Some(Tensor::cat(&[q, k, v], 0)?)),
                    _ => Ok(None),
                }
            };
            let w = Tensor::cat(&[q.weight(), k.weight(), v.weight()], 0)?;
            layers.push(Layer {
                qkv: Dense::new(&Linear::new(w, cat(Linear::bias)?))?,
                attn_out: Dense::new(&linear(h, h, a.pp("output.dense"))?)?,
                attn_ln: layer_norm(h, cfg.layer_norm_eps, a.pp("output.LayerNorm"))?,
                inter: Dense::new(&linear(
                    h,
                    cfg.intermediate_size,
                    l.pp("intermediate.dense"),
                )?)?,
                out: Dense::new(&linear(cfg.intermediate_size, h, l.pp("output.dense"))?)?,
                out_ln: layer_norm(h, cfg.layer_norm_eps, l.pp("output.LayerNorm"))?,
            });
        }
        Ok(Self {
            word,
            pos,
            token_type,
            emb_ln,
            layers,
            heads: cfg.num_attention_heads,
            head_dim: h / cfg.num_attention_heads,
            act,
            positions,
            cfg: cfg.clone(),
        })
    }

    /// Largest number of tokens (incl. specials) the position table allows.
    pub fn max_len(&self) -> usize {
        match self.positions {
            Positions::Absolute => self.cfg.max_position_embeddings,
            Positions::Roberta { pad } => self
                .cfg
                .max_position_embeddings
                .saturating_sub(pad as usize + 1),
        }
    }

    /// Runs the encoder on right-padded `ids` (`[B, L]`, u32) with `lens[b]`
    /// real tokens each; returns hidden states `[B, L, H]` in the compute dtype.
    pub fn forward(
        &self,
        ids: &Tensor,
        lens: &[usize],
        dtype: DType,
    ) -> candle_core::Result<Tensor> {
        let (b, l) = ids.dims2()?;
        let dev = ids.device();
        let mut pos = Vec::with_capacity(b * l);
        let mut mask = Vec::with_capacity(b * l);
        for &n in lens {
            for j in 0..l {
                let real = j < n;
                mask.push(if real { 0f32 } else { -1e9f32 });
                pos.push(match self.positions {
                    Positions::Absolute => j as u32,
                    Positions::Roberta { pad } => {
                        if real {
                            pad + 1 + j as u32
                        } else {
                            pad
                        }
                    }
                });
            }
        }
        let pos = Tensor::from_vec(pos, (b, l), dev)?;
        // The composed attention masks padded keys with a bias; the CPU f32
        // kernel reads `lens` instead.
        let bias = if dev.is_cpu() && dtype == DType::F32 {
            None
        } else {
            Some(Tensor::from_vec(mask, (b, 1, 1, l), dev)?.to_dtype(dtype)?)
        };
        let tt = Tensor::zeros((b, l), DType::U32, dev)?;
        let x = (self.word.forward(ids)? + self.pos.forward(&pos)?)?;
        let x = (x + self.token_type.forward(&tt)?)?;
        // Token-major 2-D activations `[B·L, H]`: every linear layer is then
        // one large GEMM instead of B small broadcast ones (the batching gain
        // on CPU comes from here).
        let hidden = self.heads * self.head_dim;
        let mut x = self
            .emb_ln
            .forward(&x.to_dtype(dtype)?.reshape((b * l, hidden))?)?;
        let scale = 1.0 / (self.head_dim as f64).sqrt();
        for layer in &self.layers {
            let qkv = layer.qkv.forward(&x, None)?;
            let ctx = match &bias {
                None => crate::cpu_f32::attention(
                    &qkv,
                    b,
                    l,
                    lens,
                    self.heads,
                    self.head_dim,
                    scale as f32,
                )?,
                Some(bias) => {
                    let split = |i: usize| -> candle_core::Result<Tensor> {
                        qkv.narrow(1, i * hidden, hidden)?
                            .reshape((b, l, self.heads, self.head_dim))?
                            .transpose(1, 2)?
                            .contiguous()
                    };
                    let (q, k, v) = (split(0)?, split(1)?, split(2)?);
                    let scores = (q.matmul(&k.t()?)? * scale)?.broadcast_add(bias)?;
                    let probs = candle_nn::ops::softmax_last_dim(&scores)?;
                    probs
                        .matmul(&v)?
                        .transpose(1, 2)?
                        .reshape((b * l, hidden))?
                }
            };
            let a = layer
                .attn_ln
                .forward(&(layer.attn_out.forward(&ctx, None)? + &x)?)?;
            let i = layer.inter.forward(&a, Some(self.act))?;
            x = layer.out_ln.forward(&(layer.out.forward(&i, None)? + a)?)?;
        }
        x.reshape((b, l, hidden))
    }
}

/// bge-m3's extra heads.
pub struct M3Heads {
    /// `sparse_linear` (H → 1).
    pub sparse: Linear,
    /// `colbert_linear` (H → H').
    pub colbert: Linear,
}

impl M3Heads {
    /// Sparse token weights `relu(sparse_linear(h))`, `[B, L]` f32.
    pub fn token_weights(&self, h: &Tensor) -> candle_core::Result<Tensor> {
        self.sparse
            .forward(h)?
            .relu()?
            .squeeze(D::Minus1)?
            .to_dtype(DType::F32)
    }

    /// ColBERT vectors of tokens 1.., L2-normalized, `[B, L-1, H']` f32.
    pub fn colbert_vectors(&self, h: &Tensor) -> candle_core::Result<Tensor> {
        let l = h.dim(1)?;
        let v = self
            .colbert
            .forward(&h.narrow(1, 1, l - 1)?)?
            .to_dtype(DType::F32)?;
        l2_normalize(&v)
    }
}

/// L2-normalizes along the last dimension (zero vectors stay zero).
pub fn l2_normalize(v: &Tensor) -> candle_core::Result<Tensor> {
    let n = v
        .sqr()?
        .sum_keepdim(D::Minus1)?
        .sqrt()?
        .clamp(1e-12, f64::MAX)?;
    v.broadcast_div(&n)
}

/// Random-weight tensors named like a HF encoder checkpoint (for tests and
/// benches without real weights). Includes the bge-m3 heads when `m3_heads`.
pub fn random_encoder_tensors(
    cfg: &EncoderConfig,
    m3_heads: bool,
    seed: u64,
    device: &Device,
) -> candle_core::Result<std::collections::HashMap<String, Tensor>> {
    let rng = std::cell::RefCell::new(SplitMix(seed));
    let randn = |shape: &[usize], std: f32| -> candle_core::Result<Tensor> {
        let n: usize = shape.iter().product();
        let v = rng.borrow_mut().normal_vec(n, std);
        Tensor::from_vec(v, shape, &Device::Cpu)?.to_device(device)
    };
    let h = cfg.hidden_size;
    let mut t = std::collections::HashMap::new();
    t.insert(
        "embeddings.word_embeddings.weight".into(),
        randn(&[cfg.vocab_size, h], 0.02)?,
    );
    t.insert(
        "embeddings.position_embeddings.weight".into(),
        randn(&[cfg.max_position_embeddings, h], 0.02)?,
    );
    t.insert(
        "embeddings.token_type_embeddings.weight".into(),
        randn(&[cfg.type_vocab_size, h], 0.02)?,
    );
    let lin = |t: &mut std::collections::HashMap<String, Tensor>,
               name: &str,
               o: usize,
               i: usize|
     -> candle_core::Result<()> {
        t.insert(format!("{name}.weight"), randn(&[o, i], 0.02)?);
        t.insert(
            format!("{name}.bias"),
            Tensor::zeros(o, DType::F32, device)?,
        );
        Ok(())
    };
    let ln = |t: &mut std::collections::HashMap<String, Tensor>,
              name: &str|
     -> candle_core::Result<()> {
        t.insert(
            format!("{name}.weight"),
            Tensor::ones(h, DType::F32, device)?,
        );
        t.insert(
            format!("{name}.bias"),
            Tensor::zeros(h, DType::F32, device)?,
        );
        Ok(())
    };
    ln(&mut t, "embeddings.LayerNorm")?;
    for i in 0..cfg.num_hidden_layers {
        let p = format!("encoder.layer.{i}");
        for n in [
            "attention.self.query",
            "attention.self.key",
            "attention.self.value",
            "attention.output.dense",
        ] {
            lin(&mut t, &format!("{p}.{n}"), h, h)?;
        }
        ln(&mut t, &format!("{p}.attention.output.LayerNorm"))?;
        lin(
            &mut t,
            &format!("{p}.intermediate.dense"),
            cfg.intermediate_size,
            h,
        )?;
        lin(
            &mut t,
            &format!("{p}.output.dense"),
            h,
            cfg.intermediate_size,
        )?;
        ln(&mut t, &format!("{p}.output.LayerNorm"))?;
    }
    if m3_heads {
        // sparse bias positive so that some weights survive the ReLU.
        t.insert("sparse_linear.weight".into(), randn(&[1, h], 0.5)?);
        t.insert("sparse_linear.bias".into(), Tensor::new(&[0.1f32], device)?);
        lin(&mut t, "colbert_linear", h, h)?;
    }
    Ok(t)
}

/// The workspace's deterministic generator: random weights must be
/// reproducible and candle's CPU device cannot be seeded.
pub use paragraf_types::rng::SplitMix64 as SplitMix;
