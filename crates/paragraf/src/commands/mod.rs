//! One module per subcommand group.

mod ask;
mod bench;
mod corpus;
mod eval;
mod gpu_check;
mod index;
mod models;
mod quickstart;
mod serve;

use crate::cli::{Cli, Command, Global, SearchFlags};
use anyhow::{Context, Result};
use paragraf_engine::{DeviceChoice, Registry, ResolveOptions, Stage};
use paragraf_engine::{Engine, EngineOptions, ParamsSource, SearchOptions};
use std::path::PathBuf;

pub fn dispatch(cli: Cli) -> Result<()> {
    let g = cli.global;
    match cli.command {
        Command::Quickstart(a) => quickstart::run(&g, a),
        Command::Corpus(c) => corpus::run(&g, c),
        Command::Index(c) => index::run(&g, c),
        Command::Models(c) => models::list(&g, c),
        Command::Embed(a) => models::embed(&g, a),
        Command::Search(a) => ask::search(&g, a),
        Command::Ask(a) => ask::ask(&g, a),
        Command::Serve(a) => serve::run(&g, a),
        Command::Eval(a) => eval::run(&g, a),
        Command::Bench(a) => bench::run(&g, a),
        Command::GpuCheck(a) => gpu_check::run(&g, a),
    }
}

/// Data directory.
pub(crate) fn home(g: &Global) -> PathBuf {
    g.home.clone().unwrap_or_else(crate::paths::default_home)
}

/// The model registry: `--models-toml` or the built-in one.
pub(crate) fn registry(g: &Global) -> Result<Registry> {
    match &g.models_toml {
        Some(p) => {
            Registry::load(p).with_context(|| format!("loading model registry {}", p.display()))
        }
        None => Ok(Registry::builtin()),
    }
}

/// Resolution options: `--model-dir`, else `<home>/models` when it exists.
pub(crate) fn resolve_opts(g: &Global) -> ResolveOptions {
    let model_dir = g.model_dir.clone().or_else(|| {
        let d = home(g).join("models");
        d.is_dir().then_some(d)
    });
    ResolveOptions {
        model_dir,
        allow_download: g.allow_download,
    }
}

pub(crate) fn device(g: &Global) -> Result<DeviceChoice> {
    g.device
        .parse::<DeviceChoice>()
        .map_err(|e| anyhow::anyhow!("--device: {e}"))
}

/// Where reports go: `--report-dir`, else `<home>/reports`.
pub(crate) fn report_dir(g: &Global, flag: &Option<PathBuf>) -> PathBuf {
    flag.clone().unwrap_or_else(|| home(g).join("reports"))
}

pub(crate) fn index_dir(g: &Global, flag: &Option<PathBuf>) -> PathBuf {
    flag.clone().unwrap_or_else(|| home(g).join("index"))
}

/// `--stage`: the rank crate's one definition of the stage names; a bad
/// value is exit 2.
pub(crate) fn parse_stage(s: &str) -> Result<Stage> {
    s.parse::<Stage>()
        .map_err(|e| anyhow::Error::new(crate::BadFlag(format!("--stage: {e}"))))
}

pub(crate) fn search_options(f: &SearchFlags) -> Result<SearchOptions> {
    let mut filter = paragraf_engine::Filter {
        regulations: f.regulation.clone(),
        ..Default::default()
    };
    for l in &f.lang {
        filter.langs.push(
            l.parse()
                .map_err(|e| anyhow::Error::new(crate::BadFlag(format!("--lang: {e}"))))?,
        );
    }
    Ok(SearchOptions {
        top_k: f.top_k,
        stage: parse_stage(&f.stage)?,
        filter,
        hand_topics: !f.no_hand_topics,
    })
}

/// Open the engine on an index.
pub(crate) fn open_engine(
    g: &Global,
    f: &SearchFlags,
    model: Option<String>,
    warm_up: bool,
) -> Result<Engine> {
    open_engine_with(
        g,
        f,
        model,
        warm_up,
        None,
        paragraf_engine::query_embed::QUERY_CACHE_ENTRIES,
    )
}

/// [`open_engine`] with the query batching and cache sizes (`serve`).
pub(crate) fn open_engine_with(
    g: &Global,
    f: &SearchFlags,
    model: Option<String>,
    warm_up: bool,
    query_batch_max: Option<usize>,
    query_cache_entries: usize,
) -> Result<Engine> {
    let dir = index_dir(g, &f.index);
    let reg = registry(g)?;
    let opts = EngineOptions {
        index_dir: dir,
        registry: reg,
        resolve: resolve_opts(g),
        device: device(g)?,
        answer_model: model,
        params: ParamsSource::Layers {
            file: f.params.clone(),
        },
        warm_up,
        query_batch_max,
        query_cache_entries,
    };
    Ok(Engine::open(opts)?)
}

/// The answer model to use when none is named: the default of the registry
/// when present, else the first present answer model.
pub(crate) fn default_answer_model(g: &Global) -> Result<String> {
    paragraf_engine::models::default_answer_model(&registry(g)?, &resolve_opts(g))
        .ok_or_else(|| anyhow::anyhow!("no answer model is present: run `paragraf quickstart` or pass --model-dir (see `paragraf models list`)"))
}
