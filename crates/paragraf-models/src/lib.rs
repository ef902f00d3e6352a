//! Models in-process through candle: embedders (bge-m3 with dense, sparse and
//! ColBERT outputs; BERT-family encoders), GGUF answer models (qwen2, llama,
//! gemma3, phi3) and the `models.toml` registry with offline-first resolution.
//!
//! The engine drives this crate through [`Registry`], [`resolve`],
//! [`load_embedder`] and [`load_generator`]; [`bench`] measures throughput.

pub mod bench;
mod chat;
mod cpu_f32;
mod device;
mod embed;
mod embed_load;
mod embed_run;
mod encoder;
mod error;
mod generate;
mod generator;
mod gguf_tokenizer;
mod gguf_widen;
pub mod parity;
mod q5_0;
mod qwen2;
mod registry;
mod resolve;
mod scripted;

pub use chat::{render_chat, ChatTemplate, PromptPiece};
pub use device::{select_device, DeviceChoice};
pub use embed::{encoder_forward_flops, EmbedBatch, Embedder, EmbedderInfo, Embedding, TextKind};
pub use embed_load::{load_embedder, load_embedder_from_files};
pub use encoder::EncoderConfig;
pub use error::ModelError;
pub use generate::{load_generator, load_generator_from_file, GgufGenerator};
pub use generator::{
    ChatMessage, GenOutput, GenParams, Generator, GeneratorInfo, GreedyTiming, Role, StopReason,
};
pub use gguf_tokenizer::{tokenizer_from_gguf, GgufTokenizer};
pub use registry::{
    Architecture, BatchLimits, BatchPerDevice, DtypePerDevice, ModelEntry, ModelFiles, ModelKind,
    Pooling, Registry, BUILTIN_MODELS_TOML,
};
pub use resolve::{
    list_models, resolve, verify_sha256, ModelStatus, ResolveOptions, ResolvedModel,
};
pub use scripted::ScriptedGenerator;
