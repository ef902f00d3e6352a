//! Rank parameters in layers, one definition for every command: the seed
//! defaults ([`RankParams::default`]), then the calibration `models.toml`
//! records for the index's embedder (`rank_params`), then the user's file
//! (`--params`, TOML or JSON; its keys win, unknown keys are an error naming
//! the file and the key).

use crate::EngineError;
use paragraf_models::Registry;
use paragraf_rank::RankParams;
use std::path::Path;

/// Rank parameters for an index built with `embedder` (`None`: seed
/// defaults + file); `Engine::open` reads the embedder from the manifest.
pub fn params_for_embedder(
    reg: &Registry,
    embedder: Option<&str>,
    file: Option<&Path>,
) -> Result<RankParams, EngineError> {
    let bad = |origin: String, message: String| EngineError::Params { origin, message };
    let mut params = RankParams::default();
    if let Some(entry) = embedder.and_then(|name| reg.get(name).ok()) {
        if let Some(cal) = &entry.rank_params {
            let origin = format!("models.toml `{}`: rank_params", entry.name);
            let v = serde_json::to_value(cal).map_err(|e| bad(origin.clone(), e.to_string()))?;
            params = params.overlay(&v).map_err(|e| bad(origin, e.to_string()))?;
            tracing::info!(embedder = %entry.name, "rank parameters calibrated for the embedder (models.toml rank_params)");
        }
    }
    let Some(p) = file else {
        return Ok(params);
    };
    let origin = p.display().to_string();
    let text = std::fs::read_to_string(p).map_err(|e| bad(origin.clone(), e.to_string()))?;
    let user: serde_json::Value = if p.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).map_err(|e| bad(origin.clone(), e.to_string()))?
    } else {
        let t: toml::Table =
            toml::from_str(&text).map_err(|e| bad(origin.clone(), e.to_string()))?;
        serde_json::to_value(t).map_err(|e| bad(origin.clone(), e.to_string()))?
    };
    params
        .overlay(&user)
        .map_err(|e| bad(origin, e.to_string()))
}

/// The parameters that differ from the seed defaults, as `name=value, …`
/// (`seed defaults` when none do), for report labels.
pub fn params_delta(p: &RankParams) -> String {
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
            let p = params_for_embedder(&reg, Some(&e.name), None)
                .unwrap_or_else(|err| panic!("{}: {err}", e.name));
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
        let p = params_for_embedder(&reg, None, None).unwrap();
        assert_eq!(p, RankParams::default());
        assert_eq!(params_delta(&p), "seed defaults");
        // The embedder's calibration.
        let p = params_for_embedder(&reg, Some("e"), None).unwrap();
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
        let p = params_for_embedder(&reg, Some("e"), Some(&f)).unwrap();
        assert_eq!(
            (p.dense_floor, p.lexical_weight, p.topic_gain),
            (0.0, 0.1, 0.2)
        );
        // A bad key names the file and the key.
        std::fs::write(&f, "denseFlor = 0.5\n").unwrap();
        let e = params_for_embedder(&reg, Some("e"), Some(&f))
            .unwrap_err()
            .to_string();
        assert!(e.contains("p.toml") && e.contains("denseFlor"), "{e}");
        // So does a file that does not parse.
        let j = dir.path().join("p.json");
        std::fs::write(&j, "{ denseFloor: }").unwrap();
        let e = params_for_embedder(&reg, None, Some(&j))
            .unwrap_err()
            .to_string();
        assert!(e.contains("p.json"), "{e}");
    }
}
