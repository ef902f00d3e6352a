//! Loading an embedder: resolve its files through the registry, open the
//! weights (safetensors, dtype per device), the tokenizer and the ColBERT
//! head, and check the registry's claims (dim) against the model.

use crate::device::device_kind;
use crate::embed::{Embedder, EmbedderInfo};
use crate::embed_run::{dtype_name, parse_dtype, EncoderModel, TextEmbedder, Workers};
use crate::encoder::{Encoder, EncoderConfig, M3Heads, Positions};
use crate::registry::{Architecture, ModelEntry, ModelKind, Pooling};
use crate::resolve::{resolve, ResolveOptions, ResolvedModel};
use crate::{ModelError, Registry};
use candle_core::{DType, Device};
use candle_nn::VarBuilder;
use std::collections::HashSet;
use std::path::Path;

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
            batch: entry.batch.for_kind(device_kind(device)),
            workers: Workers::for_device(device),
        },
        tokenizer,
        info,
        query_prefix: entry.query_prefix.clone(),
        passage_prefix: entry.passage_prefix.clone(),
        tokenizer_path: tok_path.display().to_string(),
    }))
}
