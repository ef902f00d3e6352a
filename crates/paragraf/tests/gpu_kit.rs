//! The GPU kit on this machine's CPU: `scripts/gpu-kit.sh pack --cpu` packs
//! the test build's binary with the core corpus and the XLM-R tokenizer,
//! then the packed `gpu-kit.sh run --device cpu --tiny` runs every part of
//! `paragraf gpu-check` (small shapes) and the PyTorch peer exactly as the
//! GPU machine would. A broken kit fails here instead of on a GPU run.
//! Needs the shared corpus (`PARAGRAF_CORPUS`) and the test models
//! (`PARAGRAF_TEST_MODELS`, for the tokenizer); both set by scripts/test.sh.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn inputs() -> Option<(PathBuf, PathBuf)> {
    let corpus = PathBuf::from(std::env::var_os("PARAGRAF_CORPUS")?);
    let models = PathBuf::from(std::env::var_os("PARAGRAF_TEST_MODELS")?);
    (corpus.join("de").is_dir()
        && models
            .join("multilingual-e5-small/tokenizer.json")
            .is_file())
    .then_some((corpus, models))
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/gpu-kit.sh")
}

fn sh(c: &mut Command) -> String {
    let out = c.output().expect("run bash");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{c:?} failed:\n{text}");
    text
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn rows(v: &Value) -> Vec<Value> {
    v["rows"].as_array().cloned().unwrap_or_default()
}

#[test]
fn the_packed_kit_runs_every_part_on_the_cpu() {
    let Some((corpus, models)) = inputs() else {
        paragraf_types::inputs::input_missing(
            "PARAGRAF_CORPUS and multilingual-e5-small/tokenizer.json in PARAGRAF_TEST_MODELS",
        );
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let kit = tmp.path().join("kit");
    let packed = sh(Command::new("bash")
        .arg(script())
        .args(["pack", "--cpu"])
        .arg(&kit)
        .env("PARAGRAF_BIN", env!("CARGO_BIN_EXE_paragraf"))
        .env("GPU_KIT_XZ_LEVEL", "1")
        .env("PARAGRAF_CORPUS", &corpus)
        .env("PARAGRAF_TEST_MODELS", &models));
    assert!(packed.contains("MiB"), "{packed}");
    for f in [
        "paragraf.xz",
        "corpus.tar.xz",
        "tokenizer.json.xz",
        "gpu-kit.sh",
        "gpu_peer.py",
        "MANIFEST",
    ] {
        assert!(kit.join(f).is_file(), "kit lacks {f}");
    }
    // run from the kit, as on the GPU machine (its own binary, unpacked)
    let out = tmp.path().join("out");
    let ran = sh(Command::new("bash")
        .arg(kit.join("gpu-kit.sh"))
        .arg("run")
        .arg(&out)
        .args(["--device", "cpu", "--tiny"])
        .env_remove("PARAGRAF_BIN")
        .env("PARAGRAF_LOG", "error"));
    let log = std::fs::read_to_string(out.join("parts.log")).unwrap();
    for part in ["parity", "encoder", "decoder", "e2e"] {
        assert!(
            log.contains(&format!("{part} rc=0")),
            "{part} failed:\n{log}\n{ran}"
        );
        assert_eq!(
            json(&out.join(format!("{part}.json")))["complete"],
            true,
            "{part}"
        );
    }
    let plan = json(&out.join("plan.json"));
    // parity: every encoder in every dtype and the GGUF, all within bounds
    let parity = rows(&json(&out.join("parity.json")));
    assert_eq!(
        parity.len(),
        3 * plan["parity_encoders"].as_array().unwrap().len() + 1
    );
    for r in &parity {
        assert_eq!(r["pass"], true, "parity row fails: {r}");
    }
    let m3_half = parity
        .iter()
        .find(|r| r["dtype"] == "bf16" && r["sparse_cos_min"].is_number())
        .expect("a bf16 row with the bge-m3 heads");
    assert!(
        m3_half["colbert_cos_min"].as_f64().unwrap() < 1.0,
        "bf16 must differ from f32: {m3_half}"
    );
    // throughput: every sweep point and both decoders measured
    let points: usize = plan["sweeps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["batches"].as_array().unwrap().len())
        .sum();
    let enc = rows(&json(&out.join("encoder.json")));
    assert_eq!(enc.len(), points);
    assert!(enc
        .iter()
        .all(|r| r["passages_per_s"].as_f64().unwrap() > 0.0));
    let dec = rows(&json(&out.join("decoder.json")));
    assert_eq!(dec.len(), plan["decoders"].as_array().unwrap().len());
    for r in &dec {
        assert!(r["decode_tok_per_s"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["weight_bytes_per_token"].as_u64().unwrap() > 0, "{r}");
    }
    let types: Vec<String> = dec
        .iter()
        .flat_map(|r| r["tensor_types"].as_object().unwrap().keys().cloned())
        .collect();
    for t in ["Q4K", "Q6K", "Q5_0", "Q8_0"] {
        assert!(
            types.iter().any(|x| x == t),
            "the Q4_K_M mix should hold {t}: {types:?}"
        );
    }
    // end to end: the core corpus built and searched
    let e2e = rows(&json(&out.join("e2e.json")));
    assert!(e2e[0]["chunks"].as_u64().unwrap() > 500, "{}", e2e[0]);
    assert!(e2e[1]["timings"]["total"]["p50_ms"].as_f64().unwrap() > 0.0);
    // the peer read the plan: its planned list covers every measurement,
    // and it ran or says why not (no torch here), never a fake figure
    let peer = json(&out.join("peer.json"));
    assert_eq!(
        peer["planned"].as_array().unwrap().len(),
        points + dec.len()
    );
    match peer["status"].as_str().unwrap() {
        "complete" => assert_eq!(peer["encoder"].as_array().unwrap().len(), points),
        "not run" => {
            assert!(peer["encoder"].as_array().unwrap().is_empty() && log.contains("peer rc=3"))
        }
        other => panic!("peer status {other}"),
    }
    let md = std::fs::read_to_string(out.join("gpu-check.md")).unwrap();
    for h in [
        "## Parity",
        "## Encoder throughput",
        "## Decoder (GGUF)",
        "## End to end",
        "## PyTorch peer",
    ] {
        assert!(md.contains(h), "report lacks {h}");
    }
    assert!(json(&out.join("gpu-check.json"))["encoder"]["rows"].is_array());
}
