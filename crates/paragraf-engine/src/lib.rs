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

pub mod answer_models;
pub mod build;
pub mod evidence;
pub mod gate;
pub mod lawwords;
pub mod models;
pub mod params;
pub mod passages;
pub mod prompt;
pub mod query_embed;

use paragraf_corpus::Manifest;
use paragraf_index::{open_index, read_manifest, LoadedIndex};
use paragraf_models::{load_embedder, load_generator, ChatMessage, Embedder, Generator};
use paragraf_rank::{
    analyze_query_with, assess, definition_topics_set_aside, exceptions_set_aside,
    keep_definition_answers, keep_named_laws, rank, AnswerType, BilingualTerms, Candidate,
    DefinedTerms, HeadingMatch, HeadingTable, LawTitleTable, Lexicon,
};
use paragraf_types::vector::dot;
use paragraf_types::{
    AbstainReason, Answer, Chunk, ChunkId, Lang, NormRef, SearchResponse, Timings,
};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

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

/// Everything that can go wrong in the engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the question is empty")]
    EmptyQuery,
    #[error("the question has {len} characters; the limit is {max}")]
    QueryTooLong { len: usize, max: usize },
    #[error("top_k {got} is out of range 1..={max}")]
    BadTopK { got: usize, max: usize },
    #[error("no index at {path}: build one with `paragraf index build --corpus ../shared/corpus --out {path}` (or run `paragraf quickstart`)")]
    MissingIndex { path: String },
    #[error(transparent)]
    Index(#[from] paragraf_index::IndexError),
    #[error(transparent)]
    Model(#[from] paragraf_models::ModelError),
    #[error(transparent)]
    Corpus(#[from] paragraf_corpus::CorpusError),
    #[error("no answer model configured: pass --model NAME (see `paragraf models list`)")]
    NoAnswerModel,
    /// `index build --strict` and corpus files were left out.
    #[error("{} corpus file(s) could not be indexed (--strict): {}", .0.len(), .0.iter().map(|s| format!("{}: {}", s.path, s.reason)).collect::<Vec<_>>().join("; "))]
    SkippedSources(Vec<paragraf_index::SkippedSource>),
    /// A rank-parameter layer that does not parse or names an unknown key
    /// (`origin`: the file, or the models.toml entry).
    #[error("rank parameters {origin}: {message}")]
    Params { origin: String, message: String },
    #[error("{0}")]
    Other(String),
}

/// How to open an engine.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    pub index_dir: PathBuf,
    pub registry: Registry,
    pub resolve: ResolveOptions,
    pub device: DeviceChoice,
    /// Answer model to load at start (and warm up); `None` loads on first ask.
    pub answer_model: Option<String>,
    pub params: RankParams,
    /// Run one query (and a few tokens of generation) at start.
    pub warm_up: bool,
    /// Most concurrent questions embedded in one encoder pass; 1 = each
    /// its own pass; `None` = by device ([`query_embed::QUERY_BATCH_MAX`]
    /// on a GPU, [`query_embed::QUERY_BATCH_MAX_CPU`] on a CPU).
    pub query_batch_max: Option<usize>,
    /// Questions whose vectors are kept; 0 = no cache
    /// ([`query_embed::QUERY_CACHE_ENTRIES`]).
    pub query_cache_entries: usize,
}

/// Per-request search options.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub top_k: usize,
    pub stage: Stage,
    pub filter: Filter,
    /// Apply the hand-written lexicon topics (`false`: the "hand topics off"
    /// ablation — headings, defined terms and retrieval only).
    pub hand_topics: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            top_k: paragraf_types::limits::DEFAULT_TOP_K,
            stage: Stage::Full,
            filter: Filter::default(),
            hand_topics: true,
        }
    }
}

/// Per-request answer options.
#[derive(Debug, Clone)]
pub struct AskOptions {
    pub search: SearchOptions,
    pub gen: GenParams,
    /// Answer model (overrides the engine's default).
    pub model: Option<String>,
    /// Token budget for the source excerpts in the prompt.
    pub source_budget_tokens: usize,
    /// Most sources put in the prompt.
    pub max_sources: usize,
}

impl Default for AskOptions {
    fn default() -> Self {
        AskOptions {
            search: SearchOptions::default(),
            gen: GenParams {
                max_tokens: 256,
                ..GenParams::default()
            },
            model: None,
            source_budget_tokens: 1_200,
            max_sources: 5,
        }
    }
}

/// A search result together with the query analysis that produced it.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    pub response: SearchResponse,
    pub analysis: QueryAnalysis,
}

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
    /// Norms that except or restrict another, exception → rule
    /// (`lawwords::exception_rules`): the rule answers first.
    exceptions: std::collections::BTreeMap<NormRef, NormRef>,
    bilingual: &'static BilingualTerms,
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
    /// Load the index and the models once.
    pub fn open(opts: EngineOptions) -> Result<Engine, EngineError> {
        if !opts.index_dir.join("manifest.json").exists() && !opts.index_dir.exists() {
            return Err(EngineError::MissingIndex {
                path: opts.index_dir.display().to_string(),
            });
        }
        let t_open = std::time::Instant::now();
        // The embedder named by the manifest loads on a second thread while
        // the index opens: neither waits for the other.
        let index_manifest = read_manifest(&opts.index_dir, None)?;
        let device = crate::models::open_device(opts.device);
        let (index, loaded) = std::thread::scope(|s| {
            let model = s.spawn(|| {
                let t = std::time::Instant::now();
                let e = load_embedder(
                    &opts.registry,
                    &index_manifest.embedder.name,
                    &opts.resolve,
                    &device,
                );
                (e, t.elapsed().as_secs_f64() * 1e3)
            });
            (open_index(&opts.index_dir, None), model.join())
        });
        let index = index?;
        {
            // the built-in term table is keyed by the current analyzer's stems
            let cfg = index.inverted.analyzer().config();
            if !(cfg.derivation && cfg.stem_tails && cfg.zu_infix) {
                tracing::warn!(
                    "the index was built by an older analyzer (derivation {}, stem_tails {}, \
                     zu_infix {}): it keeps its own analysis, but some German words miss their \
                     translations and derived forms; rebuild it with `paragraf index build` \
                     (minutes from the embedding checkpoint)",
                    cfg.derivation,
                    cfg.stem_tails,
                    cfg.zu_infix
                );
            }
            if cfg.bm25.heading_weight < paragraf_index::analyzer::BM25_HEADING_WEIGHT {
                tracing::warn!(
                    "the index counts a norm's heading {}× in BM25 (now {}×): rebuild it with \
                     `paragraf index build` for the current lexical ranking (minutes from the \
                     embedding checkpoint)",
                    cfg.bm25.heading_weight,
                    paragraf_index::analyzer::BM25_HEADING_WEIGHT
                );
            }
        }
        let (embedder, models_ms) = loaded
            .map_err(|_| EngineError::Other("the embedder loading thread panicked".into()))?;
        let embedder: std::sync::Arc<dyn Embedder> = embedder?.into();
        let batch_max = opts.query_batch_max.unwrap_or(if device.is_cpu() {
            query_embed::QUERY_BATCH_MAX_CPU
        } else {
            query_embed::QUERY_BATCH_MAX
        });
        let query_embedder =
            query_embed::QueryEmbedder::new(embedder.clone(), batch_max, opts.query_cache_entries)
                .map_err(|e| {
                    EngineError::Other(format!("cannot start the query embedding thread: {e}"))
                })?;
        let t_tables = std::time::Instant::now();
        let mut by_norm: HashMap<NormRef, Vec<u32>> = HashMap::new();
        let mut by_id = HashMap::with_capacity(index.chunks.len());
        let mut norms: Vec<NormRef> = Vec::new();
        let mut norm_ids: HashMap<NormRef, u32> = HashMap::new();
        let mut chunk_norm = Vec::with_capacity(index.chunks.len());
        for (i, c) in index.chunks.iter().enumerate() {
            let n = c.norm_ref();
            let id = *norm_ids.entry(n.clone()).or_insert_with(|| {
                norms.push(n.clone());
                (norms.len() - 1) as u32
            });
            chunk_norm.push(id);
            by_norm.entry(n).or_default().push(i as u32);
            by_id.insert(c.id.clone(), i as u32);
        }
        let heading_norm: Vec<u32> = index
            .headings
            .entries()
            .iter()
            .map(|e| {
                norm_ids
                    .get(&NormRef(e.norm.clone()))
                    .copied()
                    .unwrap_or(u32::MAX)
            })
            .collect();
        // a norm's chunks of one language are one document of the norm BM25
        let mut norm_text_ids: HashMap<(u32, paragraf_types::Lang), u32> = HashMap::new();
        let mut norm_text_docs: Vec<Vec<u32>> = Vec::new();
        let norm_text_of: Vec<u32> = index
            .chunks
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let g = *norm_text_ids
                    .entry((chunk_norm[i], c.lang))
                    .or_insert_with(|| {
                        norm_text_docs.push(Vec::new());
                        (norm_text_docs.len() - 1) as u32
                    });
                norm_text_docs[g as usize].push(i as u32);
                g
            })
            .collect();
        let norm_text_k = index.inverted.group_k(&norm_text_of, norm_text_docs.len());
        let analyzer = index.inverted.analyzer();
        let mut headings = lawwords::heading_table(&index.chunks, analyzer);
        if opts.params.heading_common_credit < 1.0 {
            lawwords::mark_common_heading_words(
                &mut headings,
                &index.chunks,
                index.dense.len(),
                &index.inverted,
                opts.params.heading_common_share,
            );
        }
        let synonyms = lawwords::heading_synonyms(analyzer, &headings);
        let defined = lawwords::defined_terms(&index.chunks, analyzer);
        let self_defining = lawwords::self_defining_norms(&index.chunks, analyzer);
        let exceptions = lawwords::exception_rules(&index.chunks);
        let manifest = Manifest::builtin()?;
        let mut law_names = paragraf_corpus::LawNames::from_manifest(&manifest);
        for law in &index.extras.laws {
            law_names.add(&law.regulation, &law.regulation);
            for t in &law.titles {
                law_names.add(&law.regulation, t);
            }
        }
        let law_titles =
            lawwords::law_title_table(&index.extras.laws, &index.chunks, &manifest, analyzer);
        let law_lift = lawwords::LawLift::new(&index.chunks);
        let recital_target = if opts.params.recital_bridge {
            recital_targets(&index, opts.params.recital_bridge_margin)
        } else {
            HashMap::new()
        };
        let ms = |a: std::time::Instant, b: std::time::Instant| (b - a).as_secs_f64() * 1e3;
        let done = std::time::Instant::now();
        let load = EngineLoad {
            index: index.load,
            models_ms,
            index_and_models_ms: ms(t_open, t_tables),
            tables_ms: ms(t_tables, done),
            total_ms: ms(t_open, done),
        };
        tracing::debug!(load = ?load, "engine opened");
        let answer_masks = (0..index.chunks.len()).map(|_| OnceLock::new()).collect();
        let engine = Engine {
            answer_masks,
            headings,
            synonyms,
            law_titles,
            recital_target,
            law_lift,
            defined,
            self_defining,
            exceptions,
            bilingual: BilingualTerms::builtin(),
            index,
            embedder,
            query_embedder,
            generators: Mutex::new(answer_models::ModelSet::new(
                answer_models::ANSWER_MODELS_KEPT,
            )),
            model_stats: Mutex::new(answer_models::ModelLoadStats::default()),
            queue_depth: AtomicUsize::new(0),
            manifest,
            law_names,
            lexicon: Lexicon::builtin(),
            params: opts.params,
            by_norm,
            by_id,
            norms,
            chunk_norm,
            heading_norm,
            norm_text_of,
            norm_text_k,
            norm_text_docs,
            registry: opts.registry,
            resolve: opts.resolve,
            device,
            default_model: opts.answer_model.clone(),
            load,
        };
        if let Some(m) = &opts.answer_model {
            engine.ensure_generator(m)?;
        }
        if opts.warm_up {
            let _ = engine.search(
                "Wann muss ein Datenschutzbeauftragter benannt werden?",
                &SearchOptions::default(),
            )?;
            if let Some(m) = &opts.answer_model {
                let mut guard = engine.generators.lock().unwrap_or_else(|p| p.into_inner());
                if let Some(g) = guard.current_mut(m) {
                    let msgs = vec![ChatMessage {
                        role: paragraf_models::Role::User,
                        content: "Hallo".into(),
                    }];
                    let p = GenParams {
                        max_tokens: 2,
                        ..GenParams::default()
                    };
                    let _ = g.chat(&msgs, &p, &mut |_| true);
                }
            }
        }
        Ok(engine)
    }

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

    fn validate(query: &str, top_k: usize) -> Result<(), EngineError> {
        // blank = nothing but white space and control characters (NUL)
        match paragraf_types::limits::check_query(query) {
            Ok(()) => {}
            Err(paragraf_types::limits::QueryError::Empty) => return Err(EngineError::EmptyQuery),
            Err(paragraf_types::limits::QueryError::TooLong { len, max }) => {
                return Err(EngineError::QueryTooLong { len, max })
            }
        }
        if top_k == 0 || top_k > MAX_TOP_K {
            return Err(EngineError::BadTopK {
                got: top_k,
                max: MAX_TOP_K,
            });
        }
        Ok(())
    }

    /// Analyse a question (no retrieval).
    pub fn analyze(&self, query: &str) -> QueryAnalysis {
        self.analyze_with(query, true)
    }

    /// Analyse a question: the lexicon's features (hand topics only when
    /// `hand_topics`), then the law's own words — the question's analysed
    /// terms and their translations (`BilingualTerms`) against the norm
    /// headings, and under definition intent against the defined terms.
    pub fn analyze_with(&self, query: &str, hand_topics: bool) -> QueryAnalysis {
        let refs: Vec<NormRef> = paragraf_corpus::parse_norm_query(query, &self.manifest)
            .into_iter()
            .filter(|r| self.by_norm.contains_key(r))
            .collect();
        let mut q = analyze_query_with(query, &refs, self.lexicon, hand_topics);
        let analyzer = self.index.inverted.analyzer();
        let mut terms =
            lawwords::question_terms(analyzer, query, q.lang, self.bilingual, &self.synonyms);
        // the law's own words for what the question names in other words
        // are searched too: for a country the corpus has no law of
        // („Drittland“, "third country"), for a category named by an
        // instance („Impfstatus“ → „Gesundheitsdaten“)
        let third_country = q.third_country.then_some(&self.lexicon.third_country_terms);
        for (lang, text) in third_country.into_iter().flatten().chain(&q.category_terms) {
            for t in analyzer.analyze_lang(text, *lang) {
                if !terms.own.contains(&t) {
                    terms.own.push(t.clone());
                }
                if !terms.heading.full.contains(&t) {
                    terms.heading.full.push(t);
                }
            }
        }
        let mut all = terms.own;
        all.extend(terms.translated.iter().cloned());
        let defined = if q.definition_intent {
            self.defined.matches(&all, &q.regulations)
        } else {
            Vec::new()
        };
        let mut headings = self.headings.matches(&terms.heading, &self.params);
        // a heading that is the word its norm defines („Hersteller“, § 4
        // ProdHaftG) names the question's subject only when the question
        // asks what the word means
        if !q.definition_intent {
            headings.retain(|m| !self.self_defining.contains(&m.norm));
        }
        let regulation_of = |n: &NormRef| self.regulation_of(n).map(str::to_string);
        let is_definitions = |n: &NormRef| self.is_definitions_norm(n);
        let aside =
            definition_topics_set_aside(&defined, &q.topic_norms, &regulation_of, &is_definitions);
        q.set_aside_topic_norms(&aside, "defined_term");
        keep_definition_answers(&defined, &mut headings, &regulation_of, &is_definitions);
        let mut matches = defined;
        matches.extend(headings);
        let lift = |term: &str, laws: &[&str]| {
            self.law_lift
                .lift(&self.index.inverted, &self.index.chunks, term, laws)
        };
        let laws = self.law_titles.matches(&terms.heading, &lift, &self.params);
        // a question that names its law by title means a norm of that law:
        // a heading of another law that shares its words is incidental
        if !laws.is_empty() {
            matches.retain(|m| laws.iter().any(|l| m.norm.is_of(&l.regulation)));
        } else {
            // likewise a law named by its name or abbreviation
            let regime_of = |r: &str| self.lexicon.regime_of(r).to_string();
            keep_named_laws(&mut matches, &q.regulations, &regulation_of, &regime_of);
        }
        // a question about when its law starts to apply or whom it covers:
        // the law's own norm on that (headed „Inkrafttreten“, "Entry into
        // force", „Anwendungsbereich“, …) first
        if q.application_intent || q.scope_intent || q.consequence_intent || q.purpose_intent {
            let mut named = q.regulations.clone();
            for l in &laws {
                if !named.contains(&l.regulation) {
                    named.push(l.regulation.clone());
                }
            }
            let mut first = Vec::new();
            if q.application_intent {
                // no law named: the laws whose headings the question meets
                // („Ab wann gelten die Pflichten für Hochrisiko-KI?“)
                let mut laws_of = named.clone();
                if laws_of.is_empty() {
                    for r in matches.iter().filter_map(|m| regulation_of(&m.norm)) {
                        if !laws_of.contains(&r) {
                            laws_of.push(r);
                        }
                    }
                }
                let app = &self.lexicon.application_intent;
                first = self.headings.intent_matches(
                    &laws_of,
                    &app.headings,
                    &app.fallback_headings,
                    None,
                );
                q.application_norms = first.iter().map(|m| m.norm.clone()).collect();
            }
            // scope: only a law the question names (a duty's heading names
            // the duty's law, not a question about its scope)
            if q.scope_intent {
                let scope = &self.lexicon.scope_intent;
                for m in self.headings.intent_matches(
                    &named,
                    &scope.headings,
                    &scope.fallback_headings,
                    Some(paragraf_rank::constants::SCOPE_NORMS_PER_LAW),
                ) {
                    if !first.iter().any(|f| f.norm == m.norm) {
                        first.push(m);
                    }
                }
            }
            // consequence: the named laws' sanction and liability norms;
            // no law named: the laws of the question's topics and headings
            // („Was droht, wenn wir keinen Datenschutzbeauftragten
            // benennen?“ → the DSGVO's and BDSG's)
            // per law and kind (fines, criminal, damages; every kind when the
            // question names none) the lowest-numbered norm so headed: the
            // general one (Art. 99 KI-VO, not its fines for Union bodies)
            if q.consequence_intent {
                let mut laws_of = named.clone();
                if laws_of.is_empty() {
                    let topic_laws = q.topic_norms.iter().filter_map(&regulation_of);
                    let heading_laws = matches.iter().filter_map(|m| regulation_of(&m.norm));
                    for r in topic_laws.chain(heading_laws) {
                        if !laws_of.contains(&r) {
                            laws_of.push(r);
                        }
                    }
                }
                let mut consequences: Vec<NormRef> = Vec::new();
                for kind in self.lexicon.consequence_kinds.iter().filter(|k| {
                    q.consequence_kinds.is_empty() || q.consequence_kinds.contains(&k.id)
                }) {
                    for m in self
                        .headings
                        .intent_matches(&laws_of, &kind.headings, &[], Some(1))
                    {
                        if !first.iter().any(|f| f.norm == m.norm) {
                            consequences.push(m.norm.clone());
                            first.push(m);
                        }
                    }
                }
                // the duty whose breach is asked about steps aside
                if !consequences.is_empty() {
                    let duties: Vec<NormRef> = q
                        .topic_norms
                        .iter()
                        .filter(|n| !consequences.contains(n))
                        .cloned()
                        .collect();
                    q.set_aside_topic_norms(&duties, "consequence_intent");
                }
            }
            // purpose: the named law's norm on its subject matter and aims
            if q.purpose_intent {
                let purpose = &self.lexicon.purpose_intent;
                for m in self.headings.intent_matches(
                    &named,
                    &purpose.headings,
                    &purpose.fallback_headings,
                    Some(1),
                ) {
                    if !first.iter().any(|f| f.norm == m.norm) {
                        first.push(m);
                    }
                }
            }
            first.append(&mut matches);
            matches = first;
        }
        // a norm that excepts or restricts another steps aside for its rule
        // unless the question asks for exceptions (§ 23 KUG for § 22; § 34
        // BDSG for Art. 15 DSGVO)
        if !q.exception_intent && !self.exceptions.is_empty() {
            let mut present = q.topic_norms.clone();
            present.extend(matches.iter().map(|m| m.norm.clone()));
            let aside =
                exceptions_set_aside(&present, &self.exceptions, &q.regulations, &regulation_of);
            if !aside.is_empty() {
                q.set_aside_topic_norms(&aside, "exception_of_rule");
                matches.retain(|m| !aside.contains(&m.norm));
            }
            // a topic's exception without its rule in the same law: the rule
            // joins, named by the exception's own words (§ 23 KUG opens
            // „Ohne die nach § 22 erforderliche Einwilligung“)
            let mut rules: Vec<HeadingMatch> = Vec::new();
            for b in q.topic_norms.iter().filter(|b| !aside.contains(b)) {
                let Some(a) = self.exceptions.get(b) else {
                    continue;
                };
                let same_law = regulation_of(a).is_some() && regulation_of(a) == regulation_of(b);
                if present.contains(a) || !same_law || !self.by_norm.contains_key(a) {
                    continue;
                }
                if !rules.iter().any(|m| m.norm == *a) {
                    rules.push(HeadingMatch {
                        norm: a.clone(),
                        heading: format!("Regel, von der {b} abweicht"),
                        terms: Vec::new(),
                        coverage: 1.0,
                        weight: 0.0,
                    });
                }
            }
            if !rules.is_empty() {
                let moved: Vec<NormRef> = present
                    .iter()
                    .filter(|b| {
                        self.exceptions
                            .get(*b)
                            .is_some_and(|a| rules.iter().any(|m| m.norm == *a))
                    })
                    .cloned()
                    .collect();
                q.set_aside_topic_norms(&moved, "exception_of_rule");
                matches.retain(|m| !moved.contains(&m.norm));
                matches.extend(rules);
            }
        }
        q.add_heading_matches(matches);
        q.add_law_matches(laws);
        q.set_query_terms(all, terms.translated);
        q.set_synonym_terms(terms.synonyms);
        q
    }

    /// Ranked results and the assessment for a question.
    pub fn search(&self, query: &str, opts: &SearchOptions) -> Result<SearchOutcome, EngineError> {
        Self::validate(query, opts.top_k)?;
        let mut t = Timings::new();
        let t0 = Instant::now();
        let mut lap = Instant::now();
        let mark = |t: &mut Timings, name: &str, lap: &mut Instant| {
            t.insert(name.to_string(), lap.elapsed().as_secs_f64() * 1e3);
            *lap = Instant::now();
        };

        let mut analysis = self.analyze_with(query, opts.hand_topics);
        mark(&mut t, "analyze", &mut lap);

        let qe = self.query_embedder.embed(query)?;
        mark(&mut t, "embed", &mut lap);

        let chunks = &self.index.chunks;
        let filter_fn = |doc: u32| opts.filter.matches(&chunks[doc as usize]);
        let filter: Option<&dyn Fn(u32) -> bool> = if opts.filter.is_empty() {
            None
        } else {
            Some(&filter_fn)
        };
        let dense_n = self.params.dense_top_n.max(opts.top_k);
        let lexical_n = self.params.lexical_top_n.max(opts.top_k);
        let sparse_n = self.params.sparse_top_n.max(opts.top_k);

        let mut cand: HashMap<u32, Signals> = HashMap::new();
        let mut norm_lexical: Vec<f32> = Vec::new();
        for h in self.index.dense.search(&qe.dense, dense_n, filter) {
            cand.entry(h.doc).or_default().dense = Some(h.score);
        }
        mark(&mut t, "dense", &mut lap);
        {
            // BM25 once: the overall pool and, for each law the question names
            // by title, that law's best chunks
            let in_law: Vec<Box<dyn Fn(u32) -> bool + '_>> = analysis
                .law_matches
                .iter()
                .map(|m| {
                    let in_law = self.law_lift.in_law(&m.regulation);
                    Box::new(move |doc: u32| in_law(doc) && filter.map(|f| f(doc)).unwrap_or(true))
                        as Box<dyn Fn(u32) -> bool + '_>
                })
                .collect();
            // and, for each foreign jurisdiction it names („in der Schweiz“),
            // that jurisdiction's best chunks (`jurisdictionTopN`), used below
            // only when retrieval found none of it: its act is small and
            // drowns in a pool of federal and EU law. (Its nearest chunks by
            // vector were tried as well and put its hub articles first.)
            let foreign = analysis.named_foreign_jurisdictions();
            let in_juris: Vec<Box<dyn Fn(u32) -> bool + '_>> = foreign
                .iter()
                .map(|&j| {
                    Box::new(move |doc: u32| {
                        chunks[doc as usize].jurisdiction == j
                            && filter.map(|f| f(doc)).unwrap_or(true)
                    }) as Box<dyn Fn(u32) -> bool + '_>
                })
                .collect();
            let mut picks: Vec<paragraf_index::Pick<'_>> = vec![(lexical_n, filter)];
            picks.extend(
                in_law
                    .iter()
                    .map(|f| (self.params.law_title_top_n, Some(f.as_ref()))),
            );
            picks.extend(
                in_juris
                    .iter()
                    .map(|f| (self.params.jurisdiction_top_n, Some(f.as_ref()))),
            );
            // the question's terms, then its synonyms at synonymBm25Weight
            let w = self.params.synonym_bm25_weight as f32;
            let mut weighted: Vec<(&str, f32)> = analysis
                .query_terms
                .iter()
                .map(|t| (t.as_str(), 1.0))
                .collect();
            if w > 0.0 {
                weighted.extend(analysis.synonym_terms.iter().map(|t| (t.as_str(), w)));
            }
            // chunk BM25 and norm BM25 from one walk over the postings
            let (all, scores) = if self.params.norm_lexical_mix > 0.0 {
                self.index.inverted.bm25_each_and_grouped(
                    &weighted,
                    &picks,
                    &self.norm_text_of,
                    &self.norm_text_k,
                )
            } else {
                (
                    self.index.inverted.bm25_weighted_each(&weighted, &picks),
                    Vec::new(),
                )
            };
            if self.params.norm_lexical_mix > 0.0 {
                // the best norms by norm BM25 join the pool with their chunks
                let mut best: Vec<u32> = (0..scores.len() as u32)
                    .filter(|&g| scores[g as usize] > 0.0)
                    .collect();
                let by = |a: &u32, b: &u32| {
                    scores[*b as usize]
                        .total_cmp(&scores[*a as usize])
                        .then_with(|| a.cmp(b))
                };
                let top_n = self.params.norm_lexical_top_n;
                if best.len() > top_n && top_n > 0 {
                    best.select_nth_unstable_by(top_n - 1, by);
                }
                best.truncate(top_n);
                for g in best {
                    for &doc in &self.norm_text_docs[g as usize] {
                        if filter.map(|f| f(doc)).unwrap_or(true) {
                            cand.entry(doc).or_default();
                        }
                    }
                }
                norm_lexical = scores;
            }
            let (general, named) = all.split_at(picks.len() - in_juris.len());
            for h in general.iter().flatten() {
                cand.entry(h.doc).or_default().lexical = Some(h.score);
            }
            // a foreign jurisdiction's pool is a fallback: joined only when
            // neither retrieval found any chunk of it (where they did, its
            // joined chunks outranked them: `eval/sets/own-foreign-2.jsonl`)
            for (&j, hits) in foreign.iter().zip(named) {
                if cand.keys().any(|&d| chunks[d as usize].jurisdiction == j) {
                    continue;
                }
                for h in hits {
                    cand.entry(h.doc).or_default().lexical = Some(h.score);
                }
            }
        }
        if let Some(sp) = &qe.sparse {
            for h in self.index.inverted.sparse(sp, sparse_n, filter) {
                cand.entry(h.doc).or_default().sparse = Some(h.score);
            }
        }
        mark(&mut t, "lexical", &mut lap);
        // heading vectors (when the index has them and they weigh): the best
        // heading cosine of every norm; the nearest norms join the pool
        // heading cosines: for the heading channel, and for a lexical tier
        // (its chunks' only dense signal is their norm's heading vector)
        let tiered = self.index.dense.len() < chunks.len();
        let heading_of =
            if (self.params.heading_weight > 0.0 || tiered) && !self.index.headings.is_empty() {
                self.heading_scores(&qe.dense)
            } else {
                vec![f32::NAN; self.norms.len()]
            };
        let mut near: Vec<u32> = (0..self.norms.len() as u32)
            .filter(|&n| !heading_of[n as usize].is_nan())
            .collect();
        // the best `headingTopN` (ties by norm), selected rather than a
        // sort of every norm: a scale index has ~100k
        let by_heading = |&a: &u32, &b: &u32| {
            heading_of[b as usize]
                .total_cmp(&heading_of[a as usize])
                .then_with(|| self.norms[a as usize].0.cmp(&self.norms[b as usize].0))
        };
        let top_n = self.params.heading_top_n;
        if near.len() > top_n && top_n > 0 {
            near.select_nth_unstable_by(top_n - 1, by_heading);
        }
        near.truncate(top_n);
        near.sort_by(by_heading);
        for n in near {
            for &doc in self
                .by_norm
                .get(&self.norms[n as usize])
                .map_or(&[][..], |v| v)
            {
                if filter.map(|f| f(doc)).unwrap_or(true) {
                    cand.entry(doc).or_default();
                }
            }
        }
        mark(&mut t, "headings", &mut lap);
        // exact lookups: explicit references; topic norms join the pool so topicGain can apply
        for (norm, exact) in analysis
            .explicit_refs
            .iter()
            .map(|n| (n, true))
            .chain(analysis.topic_norms.iter().map(|n| (n, false)))
            .chain(analysis.heading_matches.iter().map(|m| (&m.norm, false)))
        {
            for &doc in self.by_norm.get(norm).map(|v| v.as_slice()).unwrap_or(&[]) {
                if filter.map(|f| f(doc)).unwrap_or(true) {
                    let e = cand.entry(doc).or_default();
                    e.exact |= exact;
                }
            }
        }
        // a recital's evidence reaches the article it explains
        // (`recitalBridge`): the article chunk joins the pool and takes the
        // higher of its own and the recital's dense and BM25 scores
        let mut via: HashMap<u32, (u32, Option<f32>, Option<f32>)> = HashMap::new();
        if self.params.recital_bridge && !self.recital_target.is_empty() {
            let mut recitals: Vec<u32> = cand
                .keys()
                .copied()
                .filter(|d| self.recital_target.contains_key(d))
                .collect();
            recitals.sort_unstable();
            for r in recitals {
                let t = self.recital_target[&r];
                if !filter.map(|f| f(t)).unwrap_or(true) {
                    continue;
                }
                let s = cand[&r];
                let dense = s
                    .dense
                    .or_else(|| Some(dot(&qe.dense, self.index.dense.vector(r))));
                let e = via.entry(t).or_insert((r, dense, s.lexical));
                // the recital nearest to the question speaks for the article
                if dense > e.1 {
                    *e = (r, dense, s.lexical);
                }
            }
        }
        for &t in via.keys() {
            cand.entry(t).or_default();
        }
        let mut bridged: HashMap<u32, u32> = HashMap::new();
        // every candidate gets its exact dense score, so fusion compares like with like
        let mut docs: Vec<u32> = cand.keys().copied().collect();
        docs.sort_unstable();
        let candidates: Vec<Candidate> = docs
            .iter()
            .map(|&doc| {
                let s = cand[&doc];
                // a chunk of the lexical tier (no vector) scores by its
                // norm's heading vector, or has no dense score at all
                let embedded = (doc as usize) < self.index.dense.len();
                let h = heading_of[self.chunk_norm[doc as usize] as usize];
                let mut dense = s.dense.or_else(|| {
                    if embedded {
                        Some(dot(&qe.dense, self.index.dense.vector(doc)))
                    } else {
                        (!h.is_nan()).then_some(h)
                    }
                });
                let mut lexical = s.lexical;
                if let Some(&n) = norm_lexical.get(self.norm_text_of[doc as usize] as usize) {
                    let mix = self.params.norm_lexical_mix as f32;
                    let l = (1.0 - mix) * lexical.unwrap_or(0.0) + mix * n;
                    lexical = (l > 0.0).then_some(l);
                }
                if let Some(&(r, rd, rl)) = via.get(&doc) {
                    if rd > dense || rl > lexical {
                        bridged.insert(doc, r);
                    }
                    dense = higher(dense, rd);
                    lexical = higher(lexical, rl);
                }
                Candidate {
                    chunk: &chunks[doc as usize],
                    dense,
                    lexical,
                    sparse: s.sparse,
                    heading: (!h.is_nan()).then_some(h),
                    exact: s.exact,
                }
            })
            .collect();
        // the norms among the candidates that state the kind of fact the
        // question asks for (`answerTypeGain`)
        if !analysis.answer_types.is_empty() {
            let mut stated = self.answer_norms(&candidates, &analysis.answer_types);
            // the law's norm on when it applies states the date asked for
            if analysis.answer_types.contains(&AnswerType::Deadline) {
                stated.extend(
                    analysis
                        .application_norms
                        .iter()
                        .map(|n| (n.clone(), AnswerType::Deadline)),
                );
            }
            analysis.add_answer_norms(stated);
        }
        mark(&mut t, "candidates", &mut lap);

        // the assessment reads the ranked list, never the cut the caller asked
        // to see: rank at least the default `topK`, assess, then cut
        let mut results = rank(
            &analysis,
            &candidates,
            &self.params,
            opts.stage,
            opts.top_k.max(self.params.top_k),
        );
        mark(&mut t, "rank", &mut lap);
        let chunk_of = |id: &ChunkId| self.chunk(id);
        let mut assessment = assess(
            &analysis,
            &results,
            &chunk_of,
            &self.index.extras.mappings,
            &self.index.extras.evidence,
            &self.params,
        );
        assessment.runner_up = runner_up(&results, assessment.winner_margin, &self.params);
        results.truncate(opts.top_k);
        self.mark_lexical_tier(&mut results);
        self.mark_bridged(&mut results, &bridged);
        mark(&mut t, "assess", &mut lap);
        t.insert("total".into(), t0.elapsed().as_secs_f64() * 1e3);
        Ok(SearchOutcome {
            response: SearchResponse {
                query: query.to_string(),
                results,
                assessment,
                answer: None,
                timings_ms: t,
                lang: Some(analysis.lang),
            },
            analysis,
        })
    }

    /// The binding norms among `candidates` whose text (any chunk of the
    /// norm, any language) states a fact of an `asked` type, each with the
    /// first such type; in norm order.
    fn answer_norms(
        &self,
        candidates: &[Candidate<'_>],
        asked: &[AnswerType],
    ) -> Vec<(NormRef, AnswerType)> {
        let mut norms: Vec<NormRef> = candidates
            .iter()
            .filter(|c| c.chunk.source_class.is_binding())
            .map(|c| NormRef::new(&c.chunk.norm, &c.chunk.regulation))
            .collect();
        norms.sort();
        norms.dedup();
        let mask = |d: u32| {
            *self.answer_masks[d as usize].get_or_init(|| {
                paragraf_rank::answer_type::stated_mask(&self.index.chunks[d as usize].text)
            })
        };
        norms
            .into_iter()
            .filter_map(|n| {
                let docs = self.by_norm.get(&n)?;
                let kind = docs.iter().find_map(|&d| {
                    let m = mask(d);
                    asked.iter().copied().find(|k| m & k.bit() != 0)
                })?;
                Some((n, kind))
            })
            .collect()
    }

    /// Results that took a recital's retrieval evidence say which recital.
    fn mark_bridged(
        &self,
        results: &mut [paragraf_types::SearchResult],
        bridged: &HashMap<u32, u32>,
    ) {
        if bridged.is_empty() {
            return;
        }
        for r in results {
            let Some(&doc) = self.by_id.get(&r.chunk_id) else {
                continue;
            };
            if let Some(&rec) = bridged.get(&doc) {
                let c = &self.index.chunks[rec as usize];
                r.explanation.push(paragraf_types::ScoreTerm {
                    name: "recitalBridge".into(),
                    constant: 0.0,
                    value: 0.0,
                    reason: format!(
                        "Retrieval-Score über {} {}, der diese Norm erläutert (nächster Artikel im Vektorraum)",
                        c.norm, c.regulation
                    ),
                });
            }
        }
    }

    /// Results from the lexical tier (archive chunks without a vector) say
    /// so in their explanation: their fused score had no dense channel.
    fn mark_lexical_tier(&self, results: &mut [paragraf_types::SearchResult]) {
        let embedded = self.index.dense.len();
        for r in results {
            if self
                .by_id
                .get(&r.chunk_id)
                .is_some_and(|&i| i as usize >= embedded)
            {
                r.explanation.push(paragraf_types::ScoreTerm {
                    name: "lexicalTier".into(),
                    constant: 0.0,
                    value: 0.0,
                    reason: "Gesamtarchiv Bundesrecht, Text nicht eingebettet: dense-Score aus dem Überschriftsvektor der Norm (ohne ihn der Median der Kandidaten), dazu BM25, Überschrift und Verweise".into(),
                });
            }
        }
    }

    /// The best heading cosine of every norm (index into `norms`) for a
    /// question vector; NaN for a norm without a heading vector.
    fn heading_scores(&self, q: &[f32]) -> Vec<f32> {
        let mut best = vec![f32::NAN; self.norms.len()];
        for (e, score) in self.index.headings.scores(q).into_iter().enumerate() {
            let n = self.heading_norm[e];
            if n == u32::MAX {
                continue;
            }
            let b = &mut best[n as usize];
            if b.is_nan() || score > *b {
                *b = score;
            }
        }
        best
    }

    /// The official address of a provision (`("BDSG", "§ 38")` →
    /// `https://www.gesetze-im-internet.de/bdsg_2018/__38.html`), see
    /// `paragraf_corpus::Manifest::norm_url`.
    pub fn norm_url(&self, regulation: &str, norm: &str) -> Option<String> {
        self.manifest.norm_url(regulation, norm)
    }

    /// Install an already loaded answer model under `name` (a model the
    /// caller loaded itself, or a scripted generator in tests).
    pub fn set_generator(&self, name: &str, generator: Box<dyn Generator>) {
        let mut guard = self.generators.lock().unwrap_or_else(|p| p.into_inner());
        guard.insert(name, generator);
        self.copy_model_stats(&guard);
    }

    /// Keep up to `n` answer models loaded (default
    /// [`answer_models::ANSWER_MODELS_KEPT`]; `serve` passes the number of
    /// models its clients may name), dropping the least recently used.
    pub fn set_answer_models_kept(&self, n: usize) {
        let mut guard = self.generators.lock().unwrap_or_else(|p| p.into_inner());
        guard.set_capacity(n);
        self.copy_model_stats(&guard);
    }

    /// Answer-model loads, switches and load time so far (`/metrics`);
    /// cheap, and does not wait for a running generation.
    pub fn model_load_stats(&self) -> answer_models::ModelLoadStats {
        *self.model_stats.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn copy_model_stats(&self, set: &answer_models::ModelSet<Box<dyn Generator>>) {
        *self.model_stats.lock().unwrap_or_else(|p| p.into_inner()) = set.stats();
    }

    /// The answer model `name`, loaded unless it is in the set already.
    fn generator_in<'s>(
        &self,
        set: &'s mut answer_models::ModelSet<Box<dyn Generator>>,
        name: &str,
    ) -> Result<&'s mut Box<dyn Generator>, EngineError> {
        let loaded = set
            .get_or_load(name, || {
                load_generator(&self.registry, name, &self.resolve, &self.device)
            })
            .map(|_| ());
        self.copy_model_stats(set);
        loaded?;
        set.current_mut(name).ok_or(EngineError::NoAnswerModel)
    }

    fn ensure_generator(&self, name: &str) -> Result<(), EngineError> {
        let mut guard = self.generators.lock().unwrap_or_else(|p| p.into_inner());
        self.generator_in(&mut guard, name).map(|_| ())
    }

    /// Search, then a grounded answer. `on_progress` hears the number of
    /// tokens generated so far and each answer sentence once it has passed
    /// the gate — never raw model text: only gated text leaves the engine.
    /// Return `false` to stop generation. A model failure mid-answer returns
    /// the search result with `answer.error` set.
    pub fn ask(
        &self,
        query: &str,
        opts: &AskOptions,
        on_progress: &mut dyn FnMut(AnswerProgress) -> bool,
    ) -> Result<SearchOutcome, EngineError> {
        let outcome = self.search(query, &opts.search)?;
        self.answer(outcome, opts, on_progress)
    }

    /// The grounded answer for a search outcome (see [`Engine::ask`]); lets
    /// a caller show the results before the answer is ready.
    pub fn answer(
        &self,
        mut outcome: SearchOutcome,
        opts: &AskOptions,
        on_progress: &mut dyn FnMut(AnswerProgress) -> bool,
    ) -> Result<SearchOutcome, EngineError> {
        let model = opts
            .model
            .clone()
            .or_else(|| self.default_model.clone())
            .ok_or(EngineError::NoAnswerModel)?;
        let started = Instant::now();
        let answer = match self.generate_answer(&outcome, &model, opts, on_progress) {
            Ok(a) => a,
            Err(e) => Answer {
                text: String::new(),
                abstained: true,
                abstain_reason: Some(AbstainReason::GenerationFailed),
                model: model.clone(),
                error: Some(format!("generation failed: {e}")),
                ..Answer::default()
            },
        };
        outcome
            .response
            .timings_ms
            .insert("generate".into(), started.elapsed().as_secs_f64() * 1e3);
        let total = outcome
            .response
            .timings_ms
            .get("total")
            .copied()
            .unwrap_or(0.0)
            + started.elapsed().as_secs_f64() * 1e3;
        outcome.response.timings_ms.insert("total".into(), total);
        outcome.response.answer = Some(answer);
        Ok(outcome)
    }

    /// The evidence of a search outcome: the pinpoint units of the top
    /// distinct norms that answer the question best (see [`evidence`]).
    pub fn evidence(&self, outcome: &SearchOutcome) -> Vec<paragraf_types::Evidence> {
        let a = &outcome.analysis;
        // distinct norms in rank order
        let mut norms: Vec<NormRef> = Vec::new();
        for r in &outcome.response.results {
            let n = NormRef::new(&r.norm, &r.regulation);
            // Scope ∧ Stichtag hold for evidence as for citations
            if !norms.contains(&n) && self.inadmissible(&n, a).is_none() {
                norms.push(n);
            }
            if norms.len() == evidence::RANK_WEIGHTS.len() {
                break;
            }
        }
        let mut units = Vec::new();
        for (rank, n) in norms.iter().enumerate() {
            let mut chunks = self.norm_chunks(n);
            if chunks.is_empty() {
                continue;
            }
            // the question's language when the norm has it, else the other
            let lang = if chunks.iter().any(|c| c.lang == a.lang) {
                a.lang
            } else {
                chunks[0].lang
            };
            chunks.retain(|c| c.lang == lang);
            chunks.sort_by_key(|c| c.part);
            let text: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
            let first = chunks[0];
            for u in evidence::norm_units(
                n,
                &first.norm,
                &first.regulation,
                &text.join("\n"),
                lang,
                evidence::first_absatz(&first.citation),
            ) {
                units.push((rank, u));
            }
        }
        let inverted = &self.index.inverted;
        let analyzer = inverted.analyzer();
        let own: Vec<String> = a
            .query_terms
            .iter()
            .filter(|t| !a.translated_terms.contains(t))
            .cloned()
            .collect();
        let (de, en) = match a.lang {
            paragraf_types::Lang::De => (own, a.translated_terms.clone()),
            paragraf_types::Lang::En => (a.translated_terms.clone(), own),
        };
        let unit_terms = |t: &str, l: paragraf_types::Lang| analyzer.analyze_lang(t, l);
        let idf = |t: &str| f64::from(inverted.idf(inverted.doc_freq(t)));
        let scored = evidence::score_units(
            units,
            evidence::Asks::of(&outcome.response.query),
            &de,
            &en,
            &unit_terms,
            &idf,
        );
        let selected = evidence::select(scored);
        let url_of = |reg: &str, norm: &str| self.manifest.norm_url(reg, norm);
        evidence::to_evidence(&selected, &url_of)
    }

    /// The model-free answer: the evidence quoted with its pinpoints (or the
    /// abstention when retrieval found nothing reliable). A human-review flag
    /// adds a warning; it does not silence the answer.
    pub fn extractive_answer(&self, outcome: &SearchOutcome) -> Answer {
        if let Some(a) = Self::retrieval_abstention(outcome, &self.params) {
            return a;
        }
        Self::quote_evidence(outcome, self.evidence(outcome))
    }

    /// The answer that quotes `evidence` (abstains when there is none).
    pub(crate) fn quote_evidence(
        outcome: &SearchOutcome,
        evidence: Vec<paragraf_types::Evidence>,
    ) -> Answer {
        if evidence.is_empty() {
            return gate::abstention(
                AbstainReason::NoSupportedStatement,
                &[],
                outcome.analysis.lang,
            );
        }
        let mut citations: Vec<String> = Vec::new();
        for e in &evidence {
            if !citations.contains(&e.norm) {
                citations.push(e.norm.clone());
            }
        }
        Answer {
            text: evidence::extractive_text(&evidence, outcome.analysis.lang),
            citations,
            extractive: true,
            evidence,
            review_warning: review_warning(outcome),
            ..Answer::default()
        }
    }

    /// Search, then the model-free extractive answer (`ask --no-generate`).
    pub fn ask_extractive(
        &self,
        query: &str,
        opts: &SearchOptions,
    ) -> Result<SearchOutcome, EngineError> {
        let mut outcome = self.search(query, opts)?;
        let t = Instant::now();
        let answer = self.extractive_answer(&outcome);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let timings = &mut outcome.response.timings_ms;
        timings.insert("extract".into(), ms);
        let total = timings.get("total").copied().unwrap_or(0.0) + ms;
        timings.insert("total".into(), total);
        outcome.response.answer = Some(answer);
        Ok(outcome)
    }

    /// The abstention answer when retrieval itself found nothing reliable.
    fn retrieval_abstention(outcome: &SearchOutcome, params: &RankParams) -> Option<Answer> {
        let a = &outcome.response.assessment;
        let binding_hit = outcome
            .response
            .results
            .iter()
            .any(|r| r.source_class.is_binding());
        let nothing = outcome.response.results.is_empty() || a.primary_norm.is_none();
        let reason = if nothing {
            Some(AbstainReason::NoResults)
        } else if !binding_hit {
            Some(AbstainReason::NoBindingSource)
        } else {
            paragraf_rank::relevance_gate(&outcome.analysis, &outcome.response.results, params)
                .map(|_| AbstainReason::NotRelevant)
        }?;
        let found: Vec<String> = outcome
            .response
            .results
            .iter()
            .take(5)
            .map(|r| r.citation.clone())
            .collect();
        Some(gate::abstention(reason, &found, outcome.analysis.lang))
    }

    fn generate_answer(
        &self,
        outcome: &SearchOutcome,
        model: &str,
        opts: &AskOptions,
        on_progress: &mut dyn FnMut(AnswerProgress) -> bool,
    ) -> Result<Answer, EngineError> {
        if let Some(mut a) = Self::retrieval_abstention(outcome, &self.params) {
            a.model = model.to_string();
            return Ok(a);
        }
        let evidence = self.evidence(outcome);
        if evidence.is_empty() {
            let mut a = gate::abstention(
                AbstainReason::NoSupportedStatement,
                &[],
                outcome.analysis.lang,
            );
            a.model = model.to_string();
            return Ok(a);
        }
        let class_of = |norm: &str| {
            outcome
                .response
                .results
                .iter()
                .find(|r| format!("{} {}", r.norm, r.regulation) == norm)
                .map_or(paragraf_types::SourceClass::Unknown, |r| r.source_class)
        };
        let p = prompt::build_evidence_prompt(
            &outcome.response.query,
            outcome.analysis.lang,
            &evidence,
            &class_of,
        );
        let retrieved: BTreeSet<NormRef> = outcome
            .response
            .results
            .iter()
            .map(|r| NormRef::new(&r.norm, &r.regulation))
            .collect();
        let context_reg = outcome
            .response
            .assessment
            .primary_regulation
            .clone()
            .unwrap_or_default();
        // laws written in words (`des Strafgesetzbuchs`) resolve through
        // the laws' titles, so the rules below hold for them too
        let refs = |s: &str| {
            paragraf_corpus::extract_references_with(
                s,
                &context_reg,
                &self.manifest,
                &self.law_names,
            )
        };
        let extract = |s: &str| refs(s).resolved;
        let unresolved = |s: &str| {
            let mut out: Vec<String> = gate::citation_spans(s)
                .into_iter()
                .filter(|(_, law)| {
                    self.manifest.canonical_regulation(law).is_none()
                        && self.law_names.resolve(law).is_none()
                })
                .map(|(span, _)| span)
                .collect();
            out.extend(refs(s).unresolved);
            out
        };
        let inadmissible = |n: &NormRef| self.inadmissible(n, &outcome.analysis);
        let checks = gate::NormChecks {
            extract: &extract,
            unresolved: &unresolved,
            inadmissible: &inadmissible,
        };
        let analyzer = self.index.inverted.analyzer();
        let terms = |s: &str| analyzer.analyze_lang(s, outcome.analysis.lang);
        let mut g =
            gate::Gate::new(&p.sources, &retrieved, &checks, &terms).in_lang(outcome.analysis.lang);
        let mut stream = gate::SentenceStream::new();

        self.queue_depth.fetch_add(1, Ordering::Relaxed);
        let _dec = DecOnDrop(&self.queue_depth);
        let mut guard = self.generators.lock().unwrap_or_else(|p| p.into_inner());
        let generator = self.generator_in(&mut guard, model)?;
        let mut generated = 0usize;
        let mut listening = true;
        // each piece of model text goes into the gate; only the sentences it
        // keeps are handed on, as soon as they are complete
        let out = generator.chat(&p.messages, &opts.gen, &mut |piece| {
            generated += 1;
            for s in stream.push(piece, &mut g) {
                listening &= on_progress(AnswerProgress::Sentence(s));
            }
            listening && on_progress(AnswerProgress::Tokens(generated))
        })?;
        drop(guard);
        for s in stream.finish(&mut g) {
            listening &= on_progress(AnswerProgress::Sentence(s));
        }
        let gated = g.finish();
        let mut answer = gated.answer;
        let removed = std::mem::take(&mut answer.removed_citations);
        if answer.abstained {
            // the model restated nothing the evidence supports: the evidence
            // itself is the answer
            answer = Self::quote_evidence(outcome, evidence);
        } else {
            // the model's gated restatement, then the rule in the law's words
            let quoted = Self::quote_evidence(outcome, evidence);
            answer.text = format!("{}\n\n{}", answer.text, quoted.text);
            for c in quoted.citations {
                if !answer.citations.contains(&c) {
                    answer.citations.push(c);
                }
            }
            answer.evidence = quoted.evidence;
            answer.review_warning = quoted.review_warning;
        }
        if listening && !answer.abstained {
            let quotes = if answer.extractive {
                answer.text.as_str()
            } else {
                answer.text.split_once("\n\n").map_or("", |(_, q)| q)
            };
            for line in quotes.lines().filter(|l| !l.trim().is_empty()) {
                if !on_progress(AnswerProgress::Sentence(line.trim().to_string())) {
                    break;
                }
            }
        }
        answer.removed_citations = removed;
        answer.model = model.to_string();
        answer.generated_tokens = out.generated_tokens;
        Ok(answer)
    }

    /// Why a retrieved norm may not be cited for this question (seed 07:
    /// Scope ∧ Stichtag): an active scope rule covers it, or no version of
    /// it is in force at the question's date (superseded norms only under
    /// historical intent). In the question's language (the scope rules'
    /// own reasons are German and are left out of an English one).
    pub fn inadmissible(&self, n: &NormRef, q: &QueryAnalysis) -> Option<String> {
        let chunks = self.norm_chunks(n);
        let first = chunks.first()?;
        let de = q.lang == Lang::De;
        if let Some(i) = q.scope_rule_for(&first.regulation, &first.norm) {
            return Some(if de {
                format!(
                    "außerhalb des Geltungsbereichs der Frage: {}",
                    q.scope_rules[i].reason
                )
            } else {
                "outside the question's scope".to_string()
            });
        }
        // the version the question names ("nach dem BDSG 1990") is the one it asks about
        let named = q.as_of.as_ref().and_then(|a| a.version.as_deref());
        let in_force_at = |c: &Chunk| {
            if named == Some(c.regulation.as_str()) {
                return true;
            }
            match q.as_of.as_ref().and_then(|a| a.date.as_ref()) {
                Some(d) => d.overlaps(c.valid_from.as_deref(), c.valid_to.as_deref()),
                None => c.status != paragraf_types::Status::Superseded || q.historical,
            }
        };
        if !chunks.iter().any(|c| in_force_at(c)) {
            return Some(match (&first.superseded_by, de) {
                (Some(by), true) => {
                    format!("zum Stichtag der Frage nicht in Kraft (abgelöst durch {by})")
                }
                (None, true) => "zum Stichtag der Frage nicht in Kraft".to_string(),
                (Some(by), false) => {
                    format!("not in force at the question's date (replaced by {by})")
                }
                (None, false) => "not in force at the question's date".to_string(),
            });
        }
        None
    }
}

/// The near tie of a ranked list: the citation of the best result of
/// another norm than the top one when the winner's margin is below the
/// review margin (`assessReviewMargin`), so a reader sees both candidates.
fn runner_up(
    results: &[paragraf_types::SearchResult],
    margin: f64,
    params: &RankParams,
) -> Option<String> {
    if margin >= params.assess_review_margin {
        return None;
    }
    let top = results.first()?;
    let top_norm = NormRef::new(&top.norm, &top.regulation);
    let second = results
        .iter()
        .skip(1)
        .find(|r| NormRef::new(&r.norm, &r.regulation) != top_norm)?;
    Some(if second.citation.trim().is_empty() {
        NormRef::new(&second.norm, &second.regulation).0
    } else {
        second.citation.clone()
    })
}

/// The warning shown with an answer whose assessment asks for human review,
/// in the question's language: the request for a review, then the
/// assessment's reasons (plain sentences in that language already).
fn review_warning(outcome: &SearchOutcome) -> Option<String> {
    let a = &outcome.response.assessment;
    a.human_review_flag.then(|| {
        let ask = match outcome.analysis.lang {
            paragraf_types::Lang::De => "Bitte von einer fachkundigen Person prüfen lassen.",
            paragraf_types::Lang::En => "Please have this checked by a qualified person.",
        };
        std::iter::once(ask)
            .chain(a.human_review_reasons.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// What an answer in progress reports to its caller ([`Engine::ask`]): the
/// number of tokens generated so far, and each answer sentence once it has
/// passed the citation gate. Raw model text never appears here.
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerProgress {
    Tokens(usize),
    Sentence(String),
}

/// The higher of two optional scores (a missing one loses).
fn higher(a: Option<f32>, b: Option<f32>) -> Option<f32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Each embedded recital chunk → the embedded article chunk of the same act
/// and language nearest to it (dot product of the index's normalised
/// vectors; ties by doc), when it is nearer by `recitalBridgeMargin` than
/// the nearest chunk of any other article. The link `recitalBridge` follows.
fn recital_targets(index: &LoadedIndex, margin: f64) -> HashMap<u32, u32> {
    use paragraf_types::SourceClass;
    let embedded = index.dense.len().min(index.chunks.len());
    let mut articles: HashMap<(&str, Lang), Vec<u32>> = HashMap::new();
    let mut recitals: Vec<u32> = Vec::new();
    for (i, c) in index.chunks[..embedded].iter().enumerate() {
        match c.source_class {
            SourceClass::Recital => recitals.push(i as u32),
            SourceClass::BindingLaw if c.norm.starts_with("Art.") => articles
                .entry((c.regulation.as_str(), c.lang))
                .or_default()
                .push(i as u32),
            _ => {}
        }
    }
    let mut out = HashMap::new();
    for r in recitals {
        let c = &index.chunks[r as usize];
        let Some(arts) = articles.get(&(c.regulation.as_str(), c.lang)) else {
            continue;
        };
        let v = index.dense.vector(r);
        // best chunk per article norm, then the best article and the runner-up
        let mut per_norm: HashMap<&str, (f32, u32)> = HashMap::new();
        for &a in arts {
            let s = dot(v, index.dense.vector(a));
            let e = per_norm
                .entry(index.chunks[a as usize].norm.as_str())
                .or_insert((s, a));
            if s > e.0 || (s == e.0 && a < e.1) {
                *e = (s, a);
            }
        }
        let mut ranked: Vec<(f32, u32)> = per_norm.into_values().collect();
        ranked.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let Some(&(best, a)) = ranked.first() else {
            continue;
        };
        let second = ranked.get(1).map_or(f32::NEG_INFINITY, |x| x.0);
        if f64::from(best - second) >= margin {
            out.insert(r, a);
        }
    }
    out
}

/// Retrieval signals of one candidate before fusion.
#[derive(Debug, Clone, Copy, Default)]
struct Signals {
    dense: Option<f32>,
    lexical: Option<f32>,
    sparse: Option<f32>,
    exact: bool,
}

struct DecOnDrop<'a>(&'a AtomicUsize);
impl Drop for DecOnDrop<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}
