//! The Paragraf pipeline in one process: a question goes in; the primary norm,
//! connected norms, controls, a score breakdown and a grounded answer with
//! checked citations come out.
//!
//! Invariant: the engine owns the loaded index and the models; everything it
//! decides about ranking comes from `paragraf-rank` (pure), so the same index
//! and the same question give the same ranking on every device.
//!
//! Life of a query ([`Engine::search`]): validate → analyse (lexicons + the
//! corpus citation parser for explicit norm references) → embed the query →
//! candidates (HNSW dense ∪ BM25 ∪ learned sparse ∪ exact norm lookups ∪ topic
//! norms) → fusion + authority rerank + control diversity + supersede (rank) →
//! assessment → (ask only) grounded prompt → generation → citation gate.

mod analyze;
pub mod answer_models;
mod ask;
pub mod build;
mod error;
pub mod evidence;
pub mod gate;
pub mod lawwords;
pub mod models;
mod open;
mod options;
pub mod params;
pub mod passages;
mod phrase;
pub mod prompt;
pub mod query_embed;
mod search;
mod statements;

use paragraf_corpus::Manifest;
use paragraf_index::LoadedIndex;
use paragraf_models::{Embedder, Generator};
use paragraf_rank::{BilingualTerms, DefinedTerms, HeadingTable, LawTitleTable, Lexicon};
use paragraf_types::{Chunk, ChunkId, NormRef};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

pub use ask::AnswerProgress;
pub use error::EngineError;
pub use options::{AskOptions, EngineOptions, ParamsSource, SearchOptions};
pub use search::SearchOutcome;

pub use build::{build_index, index_manifest, verify_index, BuildEvent, BuildOptions, BuildReport};

// The vocabulary of the pipeline's API: the data types callers name in
// options, flags and output (the binary reaches the pipeline through the
// engine only, as ripgrep's binary does through its `grep` crate). They are
// defined where their stage lives; the operations on them are the engine's.
pub use paragraf_index::{Filter, HnswParams, IndexError, IndexManifest};
pub use paragraf_models::{
    DeviceChoice, GenParams, ModelError, ModelStatus, Registry, ResolveOptions,
};
pub use paragraf_rank::{explain_table, QueryAnalysis, RankParams, Stage};

/// The request limits the CLI and the server share (written once in
/// `paragraf_types::limits`).
pub use paragraf_types::limits::{MAX_QUERY_CHARS, MAX_TOP_K};

/// The loaded pipeline. `search` may run concurrently from many threads;
/// generation runs one request at a time (requests queue on the model lock).
pub struct Engine {
    index: LoadedIndex,
    load: EngineLoad,
    embedder: std::sync::Arc<dyn Embedder>,
    query_embedder: query_embed::QueryEmbedder,
    /// The answer models loaded, least recently used dropped first.
    generators: Mutex<answer_models::ModelSet<Box<dyn Generator>>>,
    /// A copy of the set's counters, readable while a model generates.
    model_stats: Mutex<answer_models::ModelLoadStats>,
    queue_depth: AtomicUsize,
    manifest: Manifest,
    /// Every law's names in words (manifest titles and aliases, the index's
    /// law titles): the gate resolves `§ 202a des Strafgesetzbuchs` with it.
    law_names: paragraf_corpus::LawNames,
    lexicon: &'static Lexicon,
    headings: HeadingTable,
    /// The section each norm stands under, as a heading table
    /// (`lawwords::section_table`): a law's sanctions headed only as a
    /// section („Strafbestimmungen“) answer a consequence question.
    sections: HeadingTable,
    /// Per consequence kind and law, the norm whose text states it
    /// (`statements`): a law with no norm headed so answers with it.
    statements: statements::ConsequenceStatements,
    /// The directives a German law says it transposes, where it says so
    /// (§ 1 ProdSG): it transposes no other.
    transpositions: statements::DeclaredTranspositions,
    /// German synonyms a heading holds (OpenThesaurus, `synonymBm25Weight`).
    synonyms: paragraf_rank::Synonyms,
    /// Title words of every law (`lawTitleGain`).
    law_titles: LawTitleTable,
    /// Per-law counts behind a law-title match.
    law_lift: lawwords::LawLift,
    /// Recital chunk → the article chunk it explains (see `recitalBridge`).
    recital_target: HashMap<u32, u32>,
    /// Per chunk, the answer types its text states
    /// (`paragraf_rank::answer_type::stated_mask`), scanned the first time
    /// a question that asks for a number meets the chunk's norm.
    answer_masks: Vec<OnceLock<u8>>,
    defined: DefinedTerms,
    /// Norms whose heading is the word they define for their law
    /// (`lawwords::self_defining_norms`).
    self_defining: HashSet<NormRef>,
    /// The duty words of the lexicon's duty headings in both languages
    /// (`analyze::duty_heading_terms`), analysed once at open.
    duty_words: Vec<String>,
    /// Norms that except or restrict another, exception → rule
    /// (`lawwords::exception_rules`): the rule answers first.
    exceptions: std::collections::BTreeMap<NormRef, NormRef>,
    /// The derived term table with the glossary's pairs
    /// (`lawwords::glossary_phrases`), analysed once at open.
    bilingual: BilingualTerms,
    params: RankParams,
    by_norm: HashMap<NormRef, Vec<u32>>,
    by_id: HashMap<ChunkId, u32>,
    /// Norm table for the heading channel: every norm that has chunks.
    norms: Vec<NormRef>,
    /// Chunk doc → index into `norms`.
    chunk_norm: Vec<u32>,
    /// Heading vector entry → index into `norms` (`u32::MAX`: no chunks).
    heading_norm: Vec<u32>,
    /// Norm BM25 (`normLexicalMix`): chunk doc → its norm text (norm and
    /// language) as one document, that document's BM25 `k`, its chunks.
    norm_text_of: Vec<u32>,
    norm_text_k: Vec<f32>,
    norm_text_docs: Vec<Vec<u32>>,
    registry: Registry,
    resolve: ResolveOptions,
    device: candle_core::Device,
    default_model: Option<String>,
}

/// Wall time of [`Engine::open`], ms (what `paragraf bench search` reports).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct EngineLoad {
    /// The steps of opening the index directory.
    pub index: paragraf_index::LoadTimings,
    /// The embedder, loaded on a second thread while the index opens.
    pub models_ms: f64,
    /// Index and embedder together (the longer of the two).
    pub index_and_models_ms: f64,
    /// Norm, heading, defined-term and law-title tables from the chunks.
    pub tables_ms: f64,
    /// All of `open` before the optional warm-up.
    pub total_ms: f64,
}

impl Engine {
    /// The regulation of an indexed norm.
    fn regulation_of(&self, norm: &NormRef) -> Option<&str> {
        let &i = self.by_norm.get(norm)?.first()?;
        Some(self.index.chunks[i as usize].regulation.as_str())
    }

    /// Whether `norm` is a definitions norm (a chunk of it has role
    /// `definition`).
    fn is_definitions_norm(&self, norm: &NormRef) -> bool {
        self.by_norm.get(norm).is_some_and(|ids| {
            ids.iter().any(|&i| {
                self.index.chunks[i as usize].source_role == paragraf_types::SourceRole::Definition
            })
        })
    }

    /// How long opening took.
    pub fn load_timings(&self) -> EngineLoad {
        self.load
    }

    /// The loaded chunks, in index order.
    pub fn chunks(&self) -> &[Chunk] {
        &self.index.chunks
    }

    /// The loaded index (manifest, mappings).
    pub fn index(&self) -> &LoadedIndex {
        &self.index
    }

    /// Name of the embedder the index was built with.
    pub fn embedder_name(&self) -> &str {
        &self.embedder.info().name
    }

    /// Answer model used when a request names none.
    pub fn default_model(&self) -> Option<&str> {
        self.default_model.as_deref()
    }

    /// Generation requests waiting for or holding the model.
    /// Counters of the query embedder (batching, cache).
    pub fn query_embed_stats(&self) -> query_embed::QueryEmbedStats {
        self.query_embedder.stats()
    }

    pub fn queue_depth(&self) -> usize {
        self.queue_depth.load(Ordering::Relaxed)
    }

    /// The rank parameters in use.
    pub fn params(&self) -> &RankParams {
        &self.params
    }

    /// Look a chunk up by id.
    pub fn chunk(&self, id: &ChunkId) -> Option<&Chunk> {
        self.by_id.get(id).map(|&i| &self.index.chunks[i as usize])
    }

    /// The article chunk a recital chunk is linked to (`recitalBridge`;
    /// `None` when the bridge is off or the recital has no clear article).
    pub fn recital_link(&self, recital: &ChunkId) -> Option<&Chunk> {
        let doc = self.by_id.get(recital)?;
        let t = self.recital_target.get(doc)?;
        self.index.chunks.get(*t as usize)
    }

    /// All chunks of a norm (`Art. 37 DSGVO`), German first.
    pub fn norm_chunks(&self, norm: &NormRef) -> Vec<&Chunk> {
        self.by_norm
            .get(norm)
            .map(|v| v.iter().map(|&i| &self.index.chunks[i as usize]).collect())
            .unwrap_or_default()
    }

    /// Resolve a user-written norm reference ("Art. 37 DSGVO", "§ 38 BDSG",
    /// a chunk id) to the chunks of that norm.
    pub fn find_norm(&self, text: &str) -> Vec<&Chunk> {
        if let Some(c) = self.chunk(&ChunkId(text.to_string())) {
            return self.norm_chunks(&c.norm_ref());
        }
        for r in paragraf_corpus::parse_norm_query(text, &self.manifest) {
            let v = self.norm_chunks(&r);
            if !v.is_empty() {
                return v;
            }
        }
        Vec::new()
    }

    /// The official address of a provision (`("BDSG", "§ 38")` →
    /// `https://www.gesetze-im-internet.de/bdsg_2018/__38.html`), see
    /// `paragraf_corpus::Manifest::norm_url`.
    pub fn norm_url(&self, regulation: &str, norm: &str) -> Option<String> {
        self.manifest.norm_url(regulation, norm)
    }
}
