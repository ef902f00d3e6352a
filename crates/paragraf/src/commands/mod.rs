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
use std::path::{Path, PathBuf};

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

/// Where reports go: `--report-dir`, else `<home>/reports`.
pub(crate) fn report_dir(g: &Global, flag: &Option<PathBuf>) -> PathBuf {
    flag.clone().unwrap_or_else(|| home(g).join("reports"))
}

pub(crate) fn index_dir(g: &Global, flag: &Option<PathBuf>) -> PathBuf {
    flag.clone().unwrap_or_else(|| home(g).join("index"))
}

/// Rank parameters for searching `index_dir`: the seed defaults, then the
/// calibration models.toml records for the index's embedder (`rank_params`),
/// then the user's `--params` file (TOML or JSON; its keys win).
pub(crate) fn load_params(
    reg: &Registry,
    index_dir: &Path,
    path: &Option<PathBuf>,
) -> Result<RankParams> {
    let embedder = paragraf_index::read_manifest(index_dir, None)
        .ok()
        .map(|m| m.embedder.name);
    params_for_embedder(reg, embedder.as_deref(), path)
}

/// [`load_params`] for a known embedder name (`None`: seed defaults + file).
pub(crate) fn params_for_embedder(
    reg: &Registry,
    embedder: Option<&str>,
    path: &Option<PathBuf>,
) -> Result<RankParams> {
    let mut params = RankParams::default();
    if let Some(name) = embedder {
        if let Ok(entry) = reg.get(name) {
            if let Some(cal) = &entry.rank_params {
                let v = serde_json::to_value(cal)?;
                params = params
                    .overlay(&v)
                    .with_context(|| format!("models.toml `{}`: rank_params", entry.name))?;
                tracing::info!(embedder = %entry.name, "rank parameters calibrated for the embedder (models.toml rank_params)");
            }
        }
    }
    let Some(p) = path else {
        return Ok(params);
    };
    let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
    let user: serde_json::Value = if p.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text)
            .with_context(|| format!("parsing rank parameters {}", p.display()))?
    } else {
        let t: toml::Table = toml::from_str(&text)
            .with_context(|| format!("parsing rank parameters {}", p.display()))?;
        serde_json::to_value(t)?
    };
    params
        .overlay(&user)
        .with_context(|| format!("rank parameters {}", p.display()))
}

/// The parameters that differ from the seed defaults, as `name=value, …`
/// (`seed defaults` when none do), for report labels.
pub(crate) fn params_delta(p: &RankParams) -> String {
    let (Ok(serde_json::Value::Object(cur)), Ok(serde_json::Value::Object(def))) = (
        serde_json::to_value(p),
        serde_json::to_value(RankParams::default()),
    ) else {
        return "?".into();
    };
    let changed: Vec<String> = cur
        .iter()
        .filter(|(k, v)| def.get(*k) != Some(*v))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if changed.is_empty() {
        "seed defaults".into()
    } else {
        changed.join(", ")
    }
}

/// `--stage`: the rank crate's one definition of the stage names; a bad
/// value is exit 2.
pub(crate) fn parse_stage(s: &str) -> Result<Stage> {
    s.parse::<Stage>()
        .map_err(|e| anyhow::Error::new(crate::BadFlag(format!("--stage: {e}"))))
}

pub(crate) fn search_options(f: &SearchFlags) -> Result<SearchOptions> {
    let mut filter = paragraf_index::Filter {
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
        ..SearchOptions::default()
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
    let params = load_params(&reg, &dir, &f.params)?;
    let opts = EngineOptions {
        index_dir: dir,
        registry: reg,
        resolve: resolve_opts(g),
        device: device(g)?,
        answer_model: model,
        params,
        warm_up,
        query_batch_max,
        query_cache_entries,
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

#[cfg(test)]
mod tests {
    use super::*;

    const REG: &str = r#"
[defaults]
embedder = "e"
answer = "a"

[[model]]
name = "e"
kind = "embedder"
architecture = "bert"
repo = "x/e"
files = { weights = "model.safetensors", config = "config.json", tokenizer = "tokenizer.json" }
max_tokens = 512
rank_params = { denseFloor = 0.6, lexicalWeight = 0.1 }

[[model]]
name = "a"
kind = "answer"
architecture = "qwen2"
repo = "x/a"
files = { weights = "a.gguf" }
max_tokens = 4096
"#;

    #[test]
    fn builtin_calibrations_are_valid_rank_params() {
        let reg = Registry::builtin();
        let mut calibrated = 0;
        for e in reg.embedders() {
            let p = params_for_embedder(&reg, Some(&e.name), &None)
                .unwrap_or_else(|err| panic!("{}: {err:#}", e.name));
            if e.rank_params.is_some() {
                calibrated += 1;
                assert_ne!(p, RankParams::default(), "{}", e.name);
            }
        }
        assert!(
            calibrated >= 1,
            "multilingual-e5-small carries its calibration"
        );
    }

    #[test]
    fn params_layer_defaults_then_embedder_then_file() {
        let reg = Registry::parse(REG, "test.toml").unwrap();
        // No embedder known: the seed defaults.
        let p = params_for_embedder(&reg, None, &None).unwrap();
        assert_eq!(p, RankParams::default());
        assert_eq!(params_delta(&p), "seed defaults");
        // The embedder's calibration.
        let p = params_for_embedder(&reg, Some("e"), &None).unwrap();
        assert_eq!((p.dense_floor, p.lexical_weight), (0.6, 0.1));
        assert_eq!(p.topic_gain, RankParams::default().topic_gain);
        assert!(
            params_delta(&p).contains("denseFloor=0.6"),
            "{}",
            params_delta(&p)
        );
        // A user file wins over the calibration, keeps what it does not name.
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("p.toml");
        std::fs::write(&f, "denseFloor = 0.0\ntopicGain = 0.2\n").unwrap();
        let p = params_for_embedder(&reg, Some("e"), &Some(f.clone())).unwrap();
        assert_eq!(
            (p.dense_floor, p.lexical_weight, p.topic_gain),
            (0.0, 0.1, 0.2)
        );
        // A bad key names the file.
        std::fs::write(&f, "denseFlor = 0.5\n").unwrap();
        let e = format!(
            "{:#}",
            params_for_embedder(&reg, Some("e"), &Some(f.clone())).unwrap_err()
        );
        assert!(e.contains("p.toml") && e.contains("denseFlor"), "{e}");
    }
}
