//! `models.toml`: the user-editable registry of embedders, answer models and
//! rerankers. Unknown keys are errors (`deny_unknown_fields`).

use crate::ModelError;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What a registry entry is used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelKind {
    /// Text embedder (dense, optionally sparse / ColBERT).
    Embedder,
    /// Generative answer model (GGUF).
    Answer,
    /// Cross-encoder reranker (listed for resolution; no loader yet).
    Reranker,
}

impl ModelKind {
    /// Lower-case name as written in `models.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            ModelKind::Embedder => "embedder",
            ModelKind::Answer => "answer",
            ModelKind::Reranker => "reranker",
        }
    }
}

/// Model architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Architecture {
    /// XLM-RoBERTa encoder (bge-m3; with optional sparse/ColBERT heads).
    XlmRoberta,
    /// BERT encoder (multilingual-e5, MiniLM).
    Bert,
    /// GGUF qwen2.
    Qwen2,
    /// GGUF llama (Llama 3.x, SmolLM2).
    Llama,
    /// GGUF gemma3.
    Gemma3,
    /// GGUF phi3.
    Phi3,
    /// A text file replayed as the answer (tests and demonstrations of the
    /// gate; `paragraf_models::ScriptedGenerator`).
    Scripted,
}

impl Architecture {
    /// Name as written in `models.toml` (and, for GGUF, `general.architecture`).
    pub fn as_str(self) -> &'static str {
        match self {
            Architecture::XlmRoberta => "xlm-roberta",
            Architecture::Bert => "bert",
            Architecture::Qwen2 => "qwen2",
            Architecture::Llama => "llama",
            Architecture::Gemma3 => "gemma3",
            Architecture::Phi3 => "phi3",
            Architecture::Scripted => "scripted",
        }
    }
}

/// Pooling of token states into one dense vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pooling {
    /// First token (`[CLS]` / `<s>`).
    Cls,
    /// Mean over non-padding tokens.
    Mean,
}

/// The files of a model, by role. Each value is a file name inside the hub repo.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelFiles {
    /// Weights: `.safetensors`, `.bin`/`.pt` (PyTorch) or `.gguf`.
    pub weights: String,
    /// HF `config.json` (encoders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
    /// HF `tokenizer.json`; GGUF models use the tokenizer inside the GGUF when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokenizer: Option<String>,
    /// bge-m3 `sparse_linear.pt` (1024 → 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sparse_head: Option<String>,
    /// bge-m3 `colbert_linear.pt` (1024 → 1024).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colbert_head: Option<String>,
}

impl ModelFiles {
    /// `(role, file name)` pairs of all files, weights first.
    pub fn roles(&self) -> Vec<(&'static str, &str)> {
        let mut v = vec![("weights", self.weights.as_str())];
        for (role, f) in [
            ("config", &self.config),
            ("tokenizer", &self.tokenizer),
            ("sparse_head", &self.sparse_head),
            ("colbert_head", &self.colbert_head),
        ] {
            if let Some(f) = f {
                v.push((role, f.as_str()));
            }
        }
        v
    }
}

/// Compute dtype per device kind (`f32`, `f16`, `bf16`). Applies to encoders;
/// GGUF models keep their quantized weights.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DtypePerDevice {
    /// CPU dtype (default `f32`).
    #[serde(default = "default_f32")]
    pub cpu: String,
    /// CUDA dtype (default `f16`).
    #[serde(default = "default_f16")]
    pub cuda: String,
    /// Metal dtype (default `f16`).
    #[serde(default = "default_f16")]
    pub metal: String,
}

fn default_f32() -> String {
    "f32".into()
}
fn default_f16() -> String {
    "f16".into()
}

impl Default for DtypePerDevice {
    fn default() -> Self {
        Self {
            cpu: default_f32(),
            cuda: default_f16(),
            metal: default_f16(),
        }
    }
}

/// How an encoder batches inputs on one device kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchLimits {
    /// Tokens per forward pass (`batch size × padded length`).
    pub tokens: usize,
    /// Attention-score elements per head per pass (`batch size × L²`); on a
    /// CPU the `[B, heads, L, L]` scores must stay cache-sized (at 512
    /// tokens a batch of 8 ran at 0.8× the one-at-a-time loop, a batch of 2
    /// at 1.1×: all-MiniLM-L6-v2, 2 cores, `paragraf bench models`).
    /// Absent = no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attention: Option<usize>,
    /// Inputs per pass.
    pub max: usize,
}

/// Batching per device kind (`batch = { cpu = {…}, cuda = {…} }`); a kind
/// left out keeps its default ([`BatchPerDevice::default`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchPerDevice {
    /// CPU (default 4096 tokens, 2¹⁹ score elements, 64 inputs).
    #[serde(default = "BatchPerDevice::cpu_default")]
    pub cpu: BatchLimits,
    /// CUDA (default 65,536 tokens, no score limit, 256 inputs).
    #[serde(default = "BatchPerDevice::gpu_default")]
    pub cuda: BatchLimits,
    /// Metal (the CUDA default).
    #[serde(default = "BatchPerDevice::gpu_default")]
    pub metal: BatchLimits,
}

impl BatchPerDevice {
    fn cpu_default() -> BatchLimits {
        BatchLimits {
            tokens: 4096,
            attention: Some(1 << 19),
            max: 64,
        }
    }
    fn gpu_default() -> BatchLimits {
        BatchLimits {
            tokens: 65_536,
            attention: None,
            max: 256,
        }
    }
    /// The limits for a device kind (`cpu`, `cuda`, `metal`).
    pub fn for_kind(&self, kind: &str) -> BatchLimits {
        match kind {
            "cuda" => self.cuda,
            "metal" => self.metal,
            _ => self.cpu,
        }
    }
}

impl Default for BatchPerDevice {
    fn default() -> Self {
        Self {
            cpu: Self::cpu_default(),
            cuda: Self::gpu_default(),
            metal: Self::gpu_default(),
        }
    }
}

/// Optional sha256 per file role (hex).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sha256s {
    /// sha256 of the weights file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<String>,
    /// sha256 of the tokenizer file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokenizer: Option<String>,
}

/// One `[[model]]` entry of `models.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelEntry {
    /// Registry name (`--model NAME`).
    pub name: String,
    /// What it is used for.
    pub kind: ModelKind,
    /// Architecture.
    pub architecture: Architecture,
    /// Hugging Face hub repository.
    pub repo: String,
    /// Hub revision (branch, tag or commit).
    #[serde(default = "default_revision")]
    pub revision: String,
    /// File names by role.
    pub files: ModelFiles,
    /// Name under `--model-dir`: a directory holding the files by their names,
    /// or (single-file GGUF models) the file itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local: Option<String>,
    /// Explicit absolute/relative path to a directory or GGUF file (overrides everything).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Known sha256 digests.
    #[serde(default)]
    pub sha256: Sha256s,
    /// Compute dtype per device.
    #[serde(default)]
    pub dtype: DtypePerDevice,
    /// Encoder batching per device.
    #[serde(default)]
    pub batch: BatchPerDevice,
    /// Pooling (embedders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pooling: Option<Pooling>,
    /// Prefix for queries (e5: `query: `).
    #[serde(default)]
    pub query_prefix: String,
    /// Prefix for passages (e5: `passage: `).
    #[serde(default)]
    pub passage_prefix: String,
    /// Maximum tokens per input (embedders) or context length used (answer models).
    pub max_tokens: usize,
    /// Embedding dimension (embedders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dim: Option<usize>,
    /// Whether the dense vector is L2-normalized (default true).
    #[serde(default = "default_true")]
    pub normalize: bool,
    /// Chat template source: `gguf` (metadata `tokenizer.chat_template`,
    /// recognised family), or one of `chatml`, `llama3`, `gemma`, `phi3`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_template: Option<String>,
    /// Free-text note shown by `models list`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Embedders only: rank-parameter overrides measured for this embedder's
    /// score distribution (seed names, e.g. `denseWeight`, `denseFloor`).
    /// Applied whenever an index built with it is searched, below any
    /// `--params` file. The keys are checked by the rank crate when applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_params: Option<toml::Table>,
    /// Scripted answer models only: milliseconds the model pauses before
    /// each word, as a real model spends decoding it (tests of streaming:
    /// the first sentence must reach the client before the last word is
    /// written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub word_delay_ms: Option<u64>,
}

fn default_revision() -> String {
    "main".into()
}
fn default_true() -> bool {
    true
}

/// Which models are used when none is named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defaults {
    /// Default embedder name.
    pub embedder: String,
    /// Default answer model name.
    pub answer: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RegistryFile {
    defaults: Defaults,
    #[serde(default)]
    model: Vec<ModelEntry>,
}

/// The parsed registry.
#[derive(Debug, Clone)]
pub struct Registry {
    /// Default model names.
    pub defaults: Defaults,
    entries: Vec<ModelEntry>,
}

/// The `models.toml` shipped with the repository.
pub const BUILTIN_MODELS_TOML: &str = include_str!("../../../models.toml");

impl Registry {
    /// The registry compiled into the binary (the repository's `models.toml`).
    ///
    /// # Panics
    /// Never in a released build: the builtin file is validated by a unit test.
    pub fn builtin() -> Registry {
        match Registry::parse(BUILTIN_MODELS_TOML, "<builtin models.toml>") {
            Ok(r) => r,
            Err(e) => panic!("builtin models.toml is invalid (caught by unit tests): {e}"),
        }
    }

    /// Reads and validates a `models.toml`.
    pub fn load(path: &Path) -> Result<Registry, ModelError> {
        let text = std::fs::read_to_string(path).map_err(|source| ModelError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Registry::parse(&text, &path.display().to_string())
    }

    /// Parses and validates registry text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Registry, ModelError> {
        let err = |message: String| ModelError::Registry {
            path: origin.to_string(),
            message,
        };
        let file: RegistryFile = toml::from_str(text).map_err(|e| err(e.to_string()))?;
        let mut seen = std::collections::BTreeSet::new();
        for e in &file.model {
            if !seen.insert(e.name.as_str()) {
                return Err(err(format!("duplicate model name `{}`", e.name)));
            }
            let encoder = matches!(
                e.architecture,
                Architecture::Bert | Architecture::XlmRoberta
            );
            match e.kind {
                ModelKind::Embedder | ModelKind::Reranker
                    if !encoder || e.architecture == Architecture::Scripted =>
                {
                    return Err(err(format!(
                        "model `{}`: kind {} needs an encoder architecture, not {}",
                        e.name,
                        e.kind.as_str(),
                        e.architecture.as_str()
                    )))
                }
                ModelKind::Answer if encoder => {
                    return Err(err(format!(
                        "model `{}`: answer models must be GGUF decoders, not {}",
                        e.name,
                        e.architecture.as_str()
                    )))
                }
                _ => {}
            }
            if e.kind == ModelKind::Embedder
                && (e.files.config.is_none() || e.files.tokenizer.is_none())
            {
                return Err(err(format!(
                    "model `{}`: embedders need files.config and files.tokenizer",
                    e.name
                )));
            }
            if e.rank_params.is_some() && e.kind != ModelKind::Embedder {
                return Err(err(format!(
                    "model `{}`: rank_params only apply to embedders",
                    e.name
                )));
            }
            if e.max_tokens == 0 {
                return Err(err(format!("model `{}`: max_tokens must be > 0", e.name)));
            }
            for d in [&e.dtype.cpu, &e.dtype.cuda, &e.dtype.metal] {
                if !matches!(d.as_str(), "f32" | "f16" | "bf16") {
                    return Err(err(format!(
                        "model `{}`: dtype `{d}` (expected f32, f16 or bf16)",
                        e.name
                    )));
                }
            }
            if let Some(t) = &e.chat_template {
                if !matches!(t.as_str(), "gguf" | "chatml" | "llama3" | "gemma" | "phi3") {
                    return Err(err(format!(
                        "model `{}`: chat_template `{t}` (expected gguf, chatml, llama3, gemma or phi3)",
                        e.name
                    )));
                }
            }
        }
        let reg = Registry {
            defaults: file.defaults,
            entries: file.model,
        };
        for (what, name, kind) in [
            ("embedder", &reg.defaults.embedder, ModelKind::Embedder),
            ("answer", &reg.defaults.answer, ModelKind::Answer),
        ] {
            match reg.entries.iter().find(|e| &e.name == name) {
                Some(e) if e.kind == kind => {}
                Some(_) => {
                    return Err(err(format!(
                        "defaults.{what} `{name}` is not of kind {what}"
                    )))
                }
                None => {
                    return Err(err(format!(
                        "defaults.{what} `{name}` is not a model entry"
                    )))
                }
            }
        }
        Ok(reg)
    }

    /// All entries in file order.
    pub fn entries(&self) -> &[ModelEntry] {
        &self.entries
    }

    /// Embedder entries.
    pub fn embedders(&self) -> impl Iterator<Item = &ModelEntry> {
        self.entries
            .iter()
            .filter(|e| e.kind == ModelKind::Embedder)
    }

    /// Answer-model entries.
    pub fn answer_models(&self) -> impl Iterator<Item = &ModelEntry> {
        self.entries.iter().filter(|e| e.kind == ModelKind::Answer)
    }

    /// Reranker entries.
    pub fn rerankers(&self) -> impl Iterator<Item = &ModelEntry> {
        self.entries
            .iter()
            .filter(|e| e.kind == ModelKind::Reranker)
    }

    /// The entry called `name`; the error lists the known names.
    pub fn get(&self, name: &str) -> Result<&ModelEntry, ModelError> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| ModelError::UnknownModel {
                name: name.to_string(),
                known: self
                    .entries
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_limits_per_device_override_only_what_they_name() {
        let text = BUILTIN_MODELS_TOML.replace(
            "name = \"bge-m3\"\n",
            "name = \"bge-m3\"\nbatch = { cuda = { tokens = 131072, max = 512 } }\n",
        );
        let r = Registry::parse(&text, "test").unwrap();
        let b = &r.get("bge-m3").unwrap().batch;
        let cuda = b.for_kind("cuda");
        assert_eq!(
            (cuda.tokens, cuda.attention, cuda.max),
            (131_072, None, 512)
        );
        // the kinds left out keep their defaults
        assert_eq!(b.for_kind("cpu"), BatchPerDevice::default().for_kind("cpu"));
        assert_eq!(
            b.for_kind("metal"),
            BatchPerDevice::default().for_kind("metal")
        );
        let e5 = &r.get("multilingual-e5-small").unwrap().batch;
        assert_eq!(e5, &BatchPerDevice::default());
        // an unknown key is an error naming it
        let bad = BUILTIN_MODELS_TOML.replace(
            "name = \"bge-m3\"\n",
            "name = \"bge-m3\"\nbatch = { cuda = { tokens = 1, max = 1, width = 2 } }\n",
        );
        let e = Registry::parse(&bad, "test").unwrap_err().to_string();
        assert!(e.contains("width"), "{e}");
    }

    #[test]
    fn builtin_parses_and_has_required_entries() {
        let r = Registry::parse(BUILTIN_MODELS_TOML, "builtin").unwrap();
        for n in [
            "bge-m3",
            "multilingual-e5-small",
            "all-minilm-l6-v2",
            "qwen2.5-1.5b-instruct-q4km",
            "qwen2.5-coder-0.5b-instruct-q4km",
            "smollm2-135m-instruct-q4_1",
            "gemma-3-270m-q4km",
            "qwen2.5-3b-instruct-q4km",
            "qwen2.5-7b-instruct-q4km",
            "llama-3.2-1b-instruct-q4km",
            "llama-3.2-3b-instruct-q4km",
            "phi-3.5-mini-instruct-q4km",
        ] {
            r.get(n).unwrap();
        }
        assert_eq!(r.defaults.embedder, "bge-m3");
        assert_eq!(r.defaults.answer, "qwen2.5-1.5b-instruct-q4km");
        assert_eq!(
            r.get("multilingual-e5-small").unwrap().query_prefix,
            "query: "
        );
    }

    #[test]
    fn unknown_keys_and_names_are_errors() {
        let bad = BUILTIN_MODELS_TOML.replacen("max_tokens", "max_tokenz", 1);
        let e = Registry::parse(&bad, "x.toml").unwrap_err().to_string();
        assert!(e.contains("x.toml") && e.contains("max_tokenz"), "{e}");
        let r = Registry::builtin();
        let e = r.get("nope").unwrap_err().to_string();
        assert!(e.contains("nope") && e.contains("bge-m3"), "{e}");
    }

    #[test]
    fn rank_params_only_on_embedders() {
        let on_answer = BUILTIN_MODELS_TOML.replacen(
            "kind = \"answer\"",
            "kind = \"answer\"\nrank_params = { denseFloor = 0.5 }",
            1,
        );
        let e = Registry::parse(&on_answer, "x").unwrap_err().to_string();
        assert!(e.contains("rank_params only apply to embedders"), "{e}");
        let on_embedder = BUILTIN_MODELS_TOML.replacen(
            "kind = \"embedder\"",
            "kind = \"embedder\"\nrank_params = { denseFloor = 0.5 }",
            1,
        );
        let r = Registry::parse(&on_embedder, "x").unwrap();
        let first = r.embedders().next().unwrap();
        let t = first.rank_params.as_ref().unwrap();
        assert_eq!(t.get("denseFloor").and_then(|v| v.as_float()), Some(0.5));
    }

    #[test]
    fn bad_dtype_is_rejected() {
        let bad = BUILTIN_MODELS_TOML.replacen("cuda = \"f16\"", "cuda = \"f8\"", 1);
        assert!(Registry::parse(&bad, "x").is_err());
    }
}
