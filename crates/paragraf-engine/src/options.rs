//! How to open an engine and what a request asks of it.

use crate::{DeviceChoice, Filter, GenParams, Registry, ResolveOptions, Stage};
use paragraf_rank::RankParams;
use std::path::PathBuf;

/// How to open an engine.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    pub index_dir: PathBuf,
    pub registry: Registry,
    pub resolve: ResolveOptions,
    pub device: DeviceChoice,
    /// Answer model to load at start (and warm up); `None` loads on first ask.
    pub answer_model: Option<String>,
    /// Where the rank parameters come from (the layers `--params` tops).
    pub params: ParamsSource,
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

/// Where [`crate::Engine::open`] takes its rank parameters from.
#[derive(Debug, Clone)]
pub enum ParamsSource {
    /// In layers ([`crate::params`]): the seed defaults, the calibration
    /// `models.toml` records for the index's embedder, then `file`
    /// (`--params`, TOML or JSON) when given. A layer that does not parse
    /// or names an unknown key is [`crate::EngineError::Params`], naming
    /// the file and the key.
    Layers { file: Option<PathBuf> },
    /// Exactly these parameters (tests and checks that set their own).
    Given(Box<RankParams>),
}

impl ParamsSource {
    /// The parameters for an index built with `embedder`.
    pub(crate) fn resolve(
        self,
        reg: &Registry,
        embedder: &str,
    ) -> Result<RankParams, crate::EngineError> {
        match self {
            ParamsSource::Given(p) => Ok(*p),
            ParamsSource::Layers { file } => {
                crate::params::params_for_embedder(reg, Some(embedder), file.as_deref())
            }
        }
    }
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
