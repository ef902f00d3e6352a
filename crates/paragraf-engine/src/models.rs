//! Model operations outside a question: which models of the registry are
//! present, the default answer model, the device a choice resolves to, and
//! embedding texts (`paragraf embed`). Vectors only: generated text leaves
//! the engine through the citation gate alone ([`crate::Engine::ask`]).

use crate::EngineError;
use paragraf_models::{
    list_models, load_embedder, select_device, DeviceChoice, Embedding, ModelStatus, Registry,
    ResolveOptions, TextKind,
};

/// The device `choice` resolves to on this machine; a fallback (a GPU asked
/// for and not there) is logged as a warning. Every engine entry opens its
/// device here.
pub fn open_device(choice: DeviceChoice) -> candle_core::Device {
    let (dev, warn) = select_device(choice);
    if let Some(w) = warn {
        tracing::warn!("{w}");
    }
    dev
}

/// Every model of the registry with where its files are (or would be).
pub fn list(reg: &Registry, opts: &ResolveOptions) -> Vec<ModelStatus> {
    list_models(reg, opts)
}

/// The answer model to use when none is named: the registry's default when
/// its files are present, else the first present answer model.
pub fn default_answer_model(reg: &Registry, opts: &ResolveOptions) -> Option<String> {
    let present: Vec<ModelStatus> = list_models(reg, opts)
        .into_iter()
        .filter(|s| s.present && s.kind == "answer")
        .collect();
    present
        .iter()
        .find(|s| s.name == reg.defaults.answer)
        .or(present.first())
        .map(|s| s.name.clone())
}

/// The device `choice` resolves to on this machine: `None` for the CPU
/// (also when a GPU was asked for and is not there; the reason is logged).
pub fn accelerator(choice: DeviceChoice) -> Option<String> {
    let dev = open_device(choice);
    (!dev.is_cpu()).then(|| format!("{dev:?}"))
}

/// Vectors of `texts` from the embedder `name`.
pub struct Embedded {
    /// The embedder's name.
    pub model: String,
    /// Texts cut at the model's token limit.
    pub truncated: usize,
    /// One per text, in order.
    pub embeddings: Vec<Embedding>,
}

/// Embed `texts` as queries (`query`) or passages with the embedder `name`.
pub fn embed_texts(
    reg: &Registry,
    name: &str,
    opts: &ResolveOptions,
    device: DeviceChoice,
    texts: &[&str],
    query: bool,
) -> Result<Embedded, EngineError> {
    let dev = open_device(device);
    let e = load_embedder(reg, name, opts, &dev)?;
    let kind = if query {
        TextKind::Query
    } else {
        TextKind::Passage
    };
    let out = e.embed(texts, kind)?;
    Ok(Embedded {
        model: e.info().name.clone(),
        truncated: out.truncated,
        embeddings: out.embeddings,
    })
}
