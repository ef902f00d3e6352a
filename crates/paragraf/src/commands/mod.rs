//! One module per subcommand group.

mod ask;
mod bench;
mod corpus;
mod eval;
mod index;
mod models;
mod quickstart;
mod serve;

use crate::cli::{Cli, Command, Global, SearchFlags};
use anyhow::{Context, Result};
use paragraf_engine::{Engine, EngineOptions, SearchOptions};
use paragraf_models::{DeviceChoice, Registry, ResolveOptions};
use paragraf_rank::{RankParams, Stage};
use std::path::PathBuf;

pub fn dispatch(cli: Cli) -> Result<()> {
    let g = cli.global;
    match cli.command {
        Command::Quickstart(a) => quickstart::run(&g, a),
        Command::Corpus(c) => corpus::run(&g, c),
        Command::Index(c) => index::run(&g, c),
        Command::Models(c) => models::list(&g, c),
        Command::Embed(a) => models::embed(&g, a),
        Command::Generate(a) => models::generate(&g, a),
        Command::Search(a) => ask::search(&g, a),
        Command::Ask(a) => ask::ask(&g, a),
        Command::Serve(a) => serve::run(&g, a),
        Command::Eval(a) => eval::run(&g, a),
        Command::Bench(a) => bench::run(&g, a),
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

pub(crate) fn index_dir(g: &Global, flag: &Option<PathBuf>) -> PathBuf {
    flag.clone().unwrap_or_else(|| home(g).join("index"))
}

pub(crate) fn load_params(path: &Option<PathBuf>) -> Result<RankParams> {
    let Some(p) = path else {
        return Ok(RankParams::default());
    };
    let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
    let params: RankParams = if p.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text)
            .with_context(|| format!("parsing rank parameters {}", p.display()))?
    } else {
        toml::from_str(&text).with_context(|| format!("parsing rank parameters {}", p.display()))?
    };
    Ok(params)
}

pub(crate) fn parse_stage(s: &str) -> Result<Stage> {
    Ok(match s {
        "dense" | "dense_only" => Stage::DenseOnly,
        "lexical" | "lexical_only" => Stage::LexicalOnly,
        "fused" => Stage::Fused,
        "rerank" => Stage::Rerank,
        "full" => Stage::Full,
        other => anyhow::bail!("unknown stage `{other}` (dense, lexical, fused, rerank, full)"),
    })
}

pub(crate) fn search_options(f: &SearchFlags) -> Result<SearchOptions> {
    let mut filter = paragraf_index::Filter {
        regulations: f.regulation.clone(),
        ..Default::default()
    };
    for l in &f.lang {
        filter
            .langs
            .push(l.parse().map_err(|e| anyhow::anyhow!("--lang: {e}"))?);
    }
    Ok(SearchOptions {
        top_k: f.top_k,
        stage: parse_stage(&f.stage)?,
        filter,
    })
}

/// Open the engine on an index.
pub(crate) fn open_engine(
    g: &Global,
    f: &SearchFlags,
    model: Option<String>,
    warm_up: bool,
) -> Result<Engine> {
    let opts = EngineOptions {
        index_dir: index_dir(g, &f.index),
        registry: registry(g)?,
        resolve: resolve_opts(g),
        device: device(g)?,
        answer_model: model,
        params: load_params(&f.params)?,
        warm_up,
    };
    Ok(Engine::open(opts)?)
}

/// The answer model to use when none is named: the default of the registry
/// when present, else the first present answer model.
pub(crate) fn default_answer_model(g: &Global) -> Result<String> {
    let reg = registry(g)?;
    let opts = resolve_opts(g);
    let statuses = paragraf_models::list_models(&reg, &opts);
    let present: Vec<_> = statuses
        .iter()
        .filter(|s| s.present && s.kind == "answer")
        .collect();
    if let Some(d) = present.iter().find(|s| s.name == reg.defaults.answer) {
        return Ok(d.name.clone());
    }
    present
        .first()
        .map(|s| s.name.clone())
        .ok_or_else(|| anyhow::anyhow!("no answer model is present: run `paragraf quickstart` or pass --model-dir (see `paragraf models list`)"))
}
