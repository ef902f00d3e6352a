//! The seam between the HTTP layer and the engine: request types, the
//! [`Backend`] trait the binary implements with the real engine, and the norm
//! view returned by `GET /v1/norms/{id}`.
//!
//! Invariant: nothing here knows about models or devices; the server crate
//! stays free of candle so it builds and tests in seconds.

use paragraf_types::{
    Chunk, ChunkId, Jurisdiction, Lang, NormRef, SearchResponse, SourceClass, SourceRole, Status,
};
use serde::{Deserialize, Serialize};

/// Body of `POST /v1/search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    /// The question or search text (German or English).
    pub query: String,
    /// Number of results to return; the server caps it at `Limits::max_top_k`.
    #[serde(default)]
    pub top_k: Option<usize>,
    /// Optional restrictions of the candidate set.
    #[serde(default)]
    pub filters: Option<SearchFilters>,
    /// Include the score breakdown (`explanation[]`) of each result. The
    /// breakdown is always computed; `false` lets a backend drop it from the
    /// response to save bytes.
    #[serde(default)]
    pub explain: bool,
}

/// Restrictions of the candidate set of a search. Every field is optional;
/// an empty list means "no restriction".
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchFilters {
    /// Canonical regulation names to keep (`DSGVO`, `BDSG`).
    #[serde(default)]
    pub regulations: Vec<String>,
    /// Jurisdictions to keep.
    #[serde(default)]
    pub jurisdictions: Vec<Jurisdiction>,
    /// Source classes to keep.
    #[serde(default)]
    pub source_classes: Vec<SourceClass>,
    /// Language of the chunks to keep.
    #[serde(default)]
    pub lang: Option<Lang>,
    /// Keep superseded sources (default: the engine's own policy).
    #[serde(default)]
    pub include_superseded: Option<bool>,
}

/// Body of `POST /v1/answer`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerRequest {
    /// The question.
    pub query: String,
    /// Number of retrieved results the answer is grounded on.
    #[serde(default)]
    pub top_k: Option<usize>,
    /// One of the answer models the server offers
    /// ([`crate::ServerConfig::answer_models`]); `None` = the default.
    #[serde(default)]
    pub model: Option<String>,
    /// Generation budget; the server caps it at `Limits::max_tokens`.
    #[serde(default)]
    pub max_tokens: Option<usize>,
    /// Optional restrictions of the candidate set the answer rests on (as
    /// for `/v1/search`).
    #[serde(default)]
    pub filters: Option<SearchFilters>,
}

/// One event of a streamed answer.
// Sent at most once per answer, so the size of `Final` does not matter; the
// unboxed form keeps the backend's code plain (`AnswerEvent::Final(resp)`).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerEvent {
    /// Ranked results and the assessment, before any answer: the client
    /// shows them at once (`results`).
    Results(SearchResponse),
    /// The model is still writing (`tokens` so far). Never sent to the
    /// client — raw model output does not leave the engine; it lets the
    /// server notice a departed client.
    Progress(usize),
    /// One sentence of the answer after the citation gate (`sentence`).
    Sentence(String),
    /// The final response with the gated answer and the assessment.
    Final(SearchResponse),
}

/// Metadata block of a [`NormView`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NormMetadata {
    pub source_class: SourceClass,
    pub source_role: SourceRole,
    pub jurisdiction: Jurisdiction,
    pub status: Status,
    /// ISO date the source applies from.
    pub valid_from: Option<String>,
    /// ISO date the source stopped applying.
    pub valid_to: Option<String>,
    /// Canonical name of the successor regulation.
    pub superseded_by: Option<String>,
    pub lang: Lang,
}

/// The same norm in another language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LanguageVariant {
    pub lang: Lang,
    /// Chunk id of the first chunk of the variant.
    pub id: ChunkId,
}

/// A norm as `GET /v1/norms/{id}` returns it: full text, metadata and the
/// connected norms in both directions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NormView {
    /// Chunk id the view was resolved to (first chunk of the norm when the
    /// request named a norm).
    pub id: ChunkId,
    /// Canonical norm identity (`Art. 37 DSGVO`).
    pub norm_ref: NormRef,
    pub regulation: String,
    /// Norm label (`Art. 37`).
    pub norm: String,
    pub title: String,
    /// Text of the whole norm (all its chunks, in order).
    pub text: String,
    /// Structure headings above the norm, outermost first.
    pub breadcrumb: Vec<String>,
    pub metadata: NormMetadata,
    /// Norms this norm cites.
    pub references_out: Vec<NormRef>,
    /// Norms that cite this norm.
    pub references_in: Vec<NormRef>,
    /// Chunks the norm is split into, in order.
    pub chunks: Vec<ChunkId>,
    /// The same norm in other languages.
    pub language_variants: Vec<LanguageVariant>,
    /// Official address of the provision itself where the official site
    /// has one (gesetze-im-internet.de per-§ page, EUR-Lex article anchor),
    /// else of the act; `None` when the corpus names no official source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl NormView {
    /// The view of a norm resolved to chunk `first`: text, chunks and the
    /// references of every chunk of `norm` in `first`'s language (in the
    /// order given), the other languages as variants (first chunk of each).
    /// Both backends build their views here, the engine's and the test stub;
    /// each sets [`NormView::url`] itself.
    pub fn from_chunks(first: &Chunk, norm: &[&Chunk]) -> NormView {
        let same_lang: Vec<&Chunk> = norm
            .iter()
            .copied()
            .filter(|c| c.lang == first.lang)
            .collect();
        let mut refs_out = std::collections::BTreeSet::new();
        let mut refs_in = std::collections::BTreeSet::new();
        for c in &same_lang {
            refs_out.extend(c.references_out.iter().cloned());
            refs_in.extend(c.references_in.iter().cloned());
        }
        let mut variants: Vec<LanguageVariant> = Vec::new();
        for c in norm {
            if c.lang != first.lang && !variants.iter().any(|v| v.lang == c.lang) {
                variants.push(LanguageVariant {
                    lang: c.lang,
                    id: c.id.clone(),
                });
            }
        }
        NormView {
            id: first.id.clone(),
            norm_ref: first.norm_ref(),
            regulation: first.regulation.clone(),
            norm: first.norm.clone(),
            title: first.title.clone(),
            text: same_lang
                .iter()
                .map(|c| c.text.as_str())
                .collect::<Vec<_>>()
                .join("\n\n"),
            breadcrumb: first.breadcrumb.clone(),
            metadata: NormMetadata {
                source_class: first.source_class,
                source_role: first.source_role,
                jurisdiction: first.jurisdiction,
                status: first.status,
                valid_from: first.valid_from.clone(),
                valid_to: first.valid_to.clone(),
                superseded_by: first.superseded_by.clone(),
                lang: first.lang,
            },
            references_out: refs_out.into_iter().collect(),
            references_in: refs_in.into_iter().collect(),
            chunks: same_lang.iter().map(|c| c.id.clone()).collect(),
            language_variants: variants,
            url: None,
        }
    }
}

/// Error of a backend call. The server maps it to an HTTP status and never
/// forwards `Internal` messages to the client.
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    /// The request is well-formed but cannot be served (unknown model name,
    /// unknown filter value); the message is shown to the client.
    #[error("invalid request field `{field}`: {message}")]
    InvalidRequest {
        /// Name of the request field at fault.
        field: String,
        /// What is wrong, for the client.
        message: String,
    },
    /// Models or index are not loaded yet.
    #[error("backend not ready: {0}")]
    NotReady(String),
    /// Anything else; logged, answered with a bare 500.
    #[error("internal backend error: {0}")]
    Internal(String),
}

/// What the server needs from the engine. Implemented by the binary with the
/// real engine and by the tests with an in-memory double.
///
/// All methods are blocking; the server calls `search` and `norm` through
/// `tokio::task::spawn_blocking` (so they run concurrently with a generation)
/// and `answer` on one dedicated worker thread, one generation at a time.
pub trait Backend: Send + Sync + 'static {
    /// Retrieve, rank and assess. Fast, CPU-bound; no generation.
    fn search(&self, req: &SearchRequest) -> Result<SearchResponse, BackendError>;

    /// Search, then generate a grounded answer. Calls `on_event` with
    /// [`AnswerEvent::Results`] first, [`AnswerEvent::Progress`] while the
    /// model writes, each gated [`AnswerEvent::Sentence`], and may call it
    /// once with [`AnswerEvent::Final`]. When `on_event` returns `false` the client is
    /// gone or the deadline passed: stop generating as soon as possible and
    /// return what there is. The returned response is the authoritative final
    /// result (the server sends it as the `final` event).
    fn answer(
        &self,
        req: &AnswerRequest,
        on_event: &mut dyn FnMut(AnswerEvent) -> bool,
    ) -> Result<SearchResponse, BackendError>;

    /// Look up a norm by chunk id (`DSGVO/Art.37/Abs.1`) or by norm
    /// reference (`Art. 37 DSGVO`). `Ok(None)` when unknown.
    fn norm(&self, id: &str) -> Result<Option<NormView>, BackendError>;

    /// True once index and models are loaded (`/readyz`). Called on the async
    /// runtime: must be cheap and must not block.
    fn ready(&self) -> bool;

    /// Names of the loaded index and models, for `/readyz` and the web page.
    /// Called on the async runtime: must be cheap and must not block.
    fn info(&self) -> serde_json::Value;

    /// Identity of what answers depend on besides the request — the index
    /// (its build) and the models — for the answer cache: answers are kept
    /// under it, and all of them are dropped when it changes. `None` (the
    /// default): this backend's answers are not cached. Called on the async
    /// runtime: must be cheap and must not block.
    fn cache_identity(&self) -> Option<String> {
        None
    }

    /// What loading answer models has cost (`/metrics`); `None` for a
    /// backend without models. Called on the async runtime: must be cheap
    /// and must not block (not wait for a running generation).
    fn model_loads(&self) -> Option<ModelLoads> {
        None
    }
}

/// Answer-model loads of a backend, for `/metrics`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ModelLoads {
    /// Models loaded from disk.
    pub loads: u64,
    /// Answers whose model differed from the previous answer's.
    pub switches: u64,
    /// Time spent loading, in seconds.
    pub load_seconds: f64,
    /// Models loaded now.
    pub loaded: usize,
    /// Most models kept loaded.
    pub capacity: usize,
}
