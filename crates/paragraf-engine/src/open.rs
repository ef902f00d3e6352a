//! Opening an engine: the index and the embedder (side by side), the
//! norm and law-word tables built from the chunks, the optional warm-up.

use crate::{
    answer_models, lawwords, query_embed, Engine, EngineError, EngineLoad, EngineOptions,
    GenParams, IndexManifest, RankParams, SearchOptions,
};
use paragraf_corpus::Manifest;
use paragraf_index::{open_index, read_manifest, LoadedIndex};
use paragraf_models::{load_embedder, ChatMessage, Embedder};
use paragraf_rank::{BilingualTerms, DefinedTerms, HeadingTable, LawTitleTable, Lexicon};
use paragraf_types::vector::dot;
use paragraf_types::{ChunkId, Lang, NormRef};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicUsize;
use std::sync::{Mutex, OnceLock};

impl Engine {
    /// Load the index and the models once: the rank parameters (their
    /// layers), the index and the embedder side by side, the tables built
    /// from the chunks, the answer model when named, the optional warm-up.
    pub fn open(opts: EngineOptions) -> Result<Engine, EngineError> {
        if !opts.index_dir.join("manifest.json").exists() && !opts.index_dir.exists() {
            return Err(EngineError::MissingIndex {
                path: opts.index_dir.display().to_string(),
            });
        }
        let t_open = std::time::Instant::now();
        let index_manifest = read_manifest(&opts.index_dir, None)?;
        let params = opts
            .params
            .clone()
            .resolve(&opts.registry, &index_manifest.embedder.name)?;
        let device = crate::models::open_device(opts.device);
        let (index, embedder, models_ms) =
            load_index_and_embedder(&opts, &index_manifest, &device)?;
        warn_old_analysis(&index);
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
        let norms = NormTables::of(&index);
        let words = LawWords::of(&index, &params)?;
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
            headings: words.headings,
            sections: words.sections,
            statements: words.statements,
            transpositions: words.transpositions,
            synonyms: words.synonyms,
            law_titles: words.law_titles,
            recital_target: words.recital_target,
            law_lift: words.law_lift,
            defined: words.defined,
            self_defining: words.self_defining,
            duty_words: words.duty_words,
            exceptions: words.exceptions,
            bilingual: words.bilingual,
            index,
            embedder,
            query_embedder,
            generators: Mutex::new(answer_models::ModelSet::new(
                answer_models::ANSWER_MODELS_KEPT,
            )),
            model_stats: Mutex::new(answer_models::ModelLoadStats::default()),
            queue_depth: AtomicUsize::new(0),
            manifest: words.manifest,
            law_names: words.law_names,
            lexicon: Lexicon::builtin(),
            params,
            by_norm: norms.by_norm,
            by_id: norms.by_id,
            norms: norms.norms,
            chunk_norm: norms.chunk_norm,
            heading_norm: norms.heading_norm,
            norm_text_of: norms.norm_text_of,
            norm_text_k: norms.norm_text_k,
            norm_text_docs: norms.norm_text_docs,
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
            engine.warm_up(opts.answer_model.as_deref())?;
        }
        Ok(engine)
    }

    /// One query, and a few tokens of the answer model when one is named.
    fn warm_up(&self, answer_model: Option<&str>) -> Result<(), EngineError> {
        let _ = self.search(
            "Wann muss ein Datenschutzbeauftragter benannt werden?",
            &SearchOptions::default(),
        )?;
        if let Some(m) = answer_model {
            let mut guard = self.generators.lock().unwrap_or_else(|p| p.into_inner());
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
        Ok(())
    }
}

/// The index and the embedder the manifest names, the embedder loading on a
/// second thread while the index opens: neither waits for the other.
/// Returns the embedder's load time too (ms).
fn load_index_and_embedder(
    opts: &EngineOptions,
    index_manifest: &IndexManifest,
    device: &candle_core::Device,
) -> Result<(LoadedIndex, std::sync::Arc<dyn Embedder>, f64), EngineError> {
    let (index, loaded) = std::thread::scope(|s| {
        let model = s.spawn(|| {
            let t = std::time::Instant::now();
            let e = load_embedder(
                &opts.registry,
                &index_manifest.embedder.name,
                &opts.resolve,
                device,
            );
            (e, t.elapsed().as_secs_f64() * 1e3)
        });
        (open_index(&opts.index_dir, None), model.join())
    });
    let index = index?;
    let (embedder, models_ms) =
        loaded.map_err(|_| EngineError::Other("the embedder loading thread panicked".into()))?;
    let embedder: std::sync::Arc<dyn Embedder> = embedder?.into();
    Ok((index, embedder, models_ms))
}

/// An index built by an older analyzer keeps its own analysis; say what it
/// misses and how to rebuild.
fn warn_old_analysis(index: &LoadedIndex) {
    // the built-in term table is keyed by the current analyzer's stems
    let cfg = index.inverted.analyzer().config();
    if !(cfg.derivation && cfg.stem_tails && cfg.zu_infix && cfg.stem_overrides) {
        tracing::warn!(
            "the index was built by an older analyzer (derivation {}, stem_tails {}, \
             zu_infix {}, stem_overrides {}): it keeps its own analysis, but some words \
             miss their translations and derived forms; rebuild it with `paragraf index \
             build` (minutes from the embedding checkpoint)",
            cfg.derivation,
            cfg.stem_tails,
            cfg.zu_infix,
            cfg.stem_overrides
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

/// The norm tables of the loaded chunks (see the fields of [`Engine`]).
struct NormTables {
    by_norm: HashMap<NormRef, Vec<u32>>,
    by_id: HashMap<ChunkId, u32>,
    norms: Vec<NormRef>,
    chunk_norm: Vec<u32>,
    heading_norm: Vec<u32>,
    norm_text_of: Vec<u32>,
    norm_text_k: Vec<f32>,
    norm_text_docs: Vec<Vec<u32>>,
}

impl NormTables {
    fn of(index: &LoadedIndex) -> NormTables {
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
        NormTables {
            by_norm,
            by_id,
            norms,
            chunk_norm,
            heading_norm,
            norm_text_of,
            norm_text_k,
            norm_text_docs,
        }
    }
}

/// The law's own words, read from the chunks at open (see the fields of
/// [`Engine`] and [`lawwords`]).
struct LawWords {
    headings: HeadingTable,
    sections: HeadingTable,
    statements: crate::statements::ConsequenceStatements,
    transpositions: crate::statements::DeclaredTranspositions,
    synonyms: paragraf_rank::Synonyms,
    defined: DefinedTerms,
    self_defining: HashSet<NormRef>,
    duty_words: Vec<String>,
    bilingual: BilingualTerms,
    exceptions: std::collections::BTreeMap<NormRef, NormRef>,
    manifest: Manifest,
    law_names: paragraf_corpus::LawNames,
    law_titles: LawTitleTable,
    law_lift: lawwords::LawLift,
    recital_target: HashMap<u32, u32>,
}

impl LawWords {
    fn of(index: &LoadedIndex, params: &RankParams) -> Result<LawWords, EngineError> {
        let analyzer = index.inverted.analyzer();
        let mut headings = lawwords::heading_table(&index.chunks, analyzer);
        if params.heading_common_credit < 1.0 {
            lawwords::mark_common_heading_words(
                &mut headings,
                &index.chunks,
                index.dense.len(),
                &index.inverted,
                params.heading_common_share,
            );
        }
        let sections = lawwords::section_table(&index.chunks, analyzer);
        let statements = crate::statements::ConsequenceStatements::of(
            &index.chunks,
            &Lexicon::builtin().consequence_kinds,
        );
        let transpositions = crate::statements::DeclaredTranspositions::of(&index.chunks);
        let synonyms = lawwords::heading_synonyms(analyzer, &headings);
        let self_defining = lawwords::self_defining_norms(&index.chunks, analyzer);
        let duty_words = crate::analyze::duty_heading_terms(Lexicon::builtin(), analyzer);
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
        let mut phrases = lawwords::glossary_phrases(analyzer, &headings);
        lawwords::mark_glossary_laws(
            &mut phrases,
            analyzer,
            &index.inverted,
            &index.chunks,
            &law_lift,
        );
        let defined = lawwords::defined_terms(&index.chunks, analyzer, &phrases);
        let bilingual = BilingualTerms::builtin().clone().with_phrases(phrases);
        let recital_target = if params.recital_bridge {
            recital_targets(index, params.recital_bridge_margin)
        } else {
            HashMap::new()
        };
        Ok(LawWords {
            headings,
            sections,
            statements,
            transpositions,
            synonyms,
            defined,
            self_defining,
            duty_words,
            bilingual,
            exceptions,
            manifest,
            law_names,
            law_titles,
            law_lift,
            recital_target,
        })
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
