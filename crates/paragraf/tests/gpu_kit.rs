//! The GPU kit on this machine's CPU: `scripts/gpu-kit.sh pack --cpu` packs
//! the test build's binary with the core corpus and the XLM-R tokenizer,
//! then the packed `gpu-kit.sh run --device cpu --tiny` runs every part of
//! `paragraf gpu-check` (small shapes) and the PyTorch peer exactly as the
//! GPU machine would. A broken kit fails here instead of on a GPU run.
//! `$OUT` must obey the GPU machine's return rules (at most 8 files, each at
//! most 16 MiB, at most 2 folders down, names of `[A-Za-z0-9._-]`); the
//! parts' JSON come back inside its one archive, which is unpacked here.
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
    let manifest = std::fs::read_to_string(kit.join("MANIFEST")).unwrap();
    let kit_bytes: u64 = std::fs::read_dir(&kit)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    eprintln!(
        "kit: {:.1} MiB packed\n{manifest}",
        kit_bytes as f64 / 1048576.0
    );
    // run from the kit, as on the GPU machine (its own binary, unpacked),
    // with the work folder outside OUT
    let out = tmp.path().join("out");
    let work = tmp.path().join("work");
    let ran = sh(Command::new("bash")
        .arg(kit.join("gpu-kit.sh"))
        .arg("run")
        .arg(&out)
        .args(["--device", "cpu", "--tiny"])
        .env_remove("PARAGRAF_BIN")
        .env("GPU_KIT_WORK", &work)
        .env("PARAGRAF_LOG", "error"));
    let returned = check_return_rules(&out);
    for f in [
        "gpu-check.md",
        "gpu-check.json",
        "preflight.txt",
        "parts.log",
        "gpu-kit-results.tar.gz",
    ] {
        assert!(
            returned.iter().any(|r| r == f),
            "OUT lacks {f}: {returned:?}"
        );
    }
    let preflight = std::fs::read_to_string(out.join("preflight.txt")).unwrap();
    for h in [
        "## kit",
        "commit ",
        "## ldd",
        "## nvidia-smi -q",
        "## CUDA library folders",
    ] {
        assert!(preflight.contains(h), "preflight lacks {h}:\n{preflight}");
    }
    // the parts' JSON and logs come back in the archive
    let unpacked = tmp.path().join("returned");
    std::fs::create_dir_all(&unpacked).unwrap();
    sh(Command::new("tar")
        .arg("-C")
        .arg(&unpacked)
        .arg("-xzf")
        .arg(out.join("gpu-kit-results.tar.gz")));
    let log = std::fs::read_to_string(out.join("parts.log")).unwrap();
    let out = unpacked.join("results");
    for part in [
        "plan", "parity", "prepare", "encoder", "decoder", "e2e", "peer", "report",
    ] {
        assert!(
            unpacked.join(format!("logs/{part}.log")).is_file(),
            "no log of {part}"
        );
    }
    for part in ["parity", "prepare", "encoder", "decoder", "e2e"] {
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
    let gguf = parity.last().unwrap();
    assert!(
        gguf["judged_steps"].as_u64().unwrap() > 0
            && gguf["judged_gap_noise"].as_f64().unwrap() > 0.0,
        "GGUF parity is judged on steps above the top-2 gap: {gguf}"
    );
    let m3_half = parity
        .iter()
        .find(|r| r["dtype"] == "bf16" && r["sparse_cos_min"].is_number())
        .expect("a bf16 row with the bge-m3 heads");
    assert!(
        m3_half["colbert_cos_min"].as_f64().unwrap() < 1.0,
        "bf16 must differ from f32: {m3_half}"
    );
    // throughput: every sweep point in both modes (dense only, with heads)
    // and both decoders measured
    let modes = plan["encoder_heads"].as_array().unwrap().len();
    assert_eq!(modes, 2, "dense-only and with-heads sweeps");
    let points: usize = modes
        * plan["sweeps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["batches"].as_array().unwrap().len())
            .sum::<usize>();
    let enc = rows(&json(&out.join("encoder.json")));
    assert_eq!(enc.len(), points);
    assert!(enc.iter().any(|r| r["heads"] == true) && enc.iter().any(|r| r["heads"] == false));
    for r in &enc {
        assert!(
            r["mfu_measured_peak"].as_f64().unwrap() > r["mfu_datasheet_peak"].as_f64().unwrap()
        );
    }
    assert!(enc
        .iter()
        .all(|r| r["passages_per_s"].as_f64().unwrap() > 0.0));
    let dec = rows(&json(&out.join("decoder.json")));
    assert_eq!(dec.len(), plan["decoders"].as_array().unwrap().len());
    let prepared = rows(&json(&out.join("prepare.json")));
    assert_eq!(
        prepared.len(),
        dec.len(),
        "every GGUF written in the prepare part"
    );
    for r in &dec {
        assert!(r["decode_tok_per_s"].as_f64().unwrap() > 0.0, "{r}");
        assert!(
            r["decode_bound_measured_bw_tok_per_s"].as_f64().unwrap()
                < r["decode_bound_tok_per_s"].as_f64().unwrap(),
            "{r}"
        );
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
    let md = std::fs::read_to_string(tmp.path().join("out/gpu-check.md")).unwrap();
    assert!(md.contains("measured on such a GPU"), "MFU peaks labelled");
    for h in [
        "## Parity",
        "## Encoder throughput",
        "## Decoder (GGUF)",
        "## End to end",
        "## PyTorch peer",
    ] {
        assert!(md.contains(h), "report lacks {h}");
    }
    assert!(json(&tmp.path().join("out/gpu-check.json"))["encoder"]["rows"].is_array());
    // nothing of the work folder leaked into OUT
    assert!(!tmp.path().join("out/work").exists());

    // a run whose plan fails (here: CUDA asked of a CPU build) still runs
    // every part in its box, the peer and the report, and returns within
    // the rules: one failure must not lose the run
    let out2 = tmp.path().join("out-cuda");
    sh(Command::new("bash")
        .arg(kit.join("gpu-kit.sh"))
        .arg("run")
        .arg(&out2)
        .args(["--device", "cuda", "--tiny"])
        .env_remove("PARAGRAF_BIN")
        .env("GPU_KIT_WORK", tmp.path().join("work-cuda"))
        .env("PARAGRAF_LOG", "error"));
    check_return_rules(&out2);
    let log2 = std::fs::read_to_string(out2.join("parts.log")).unwrap();
    for part in [
        "plan", "parity", "prepare", "encoder", "decoder", "e2e", "peer",
    ] {
        assert!(
            log2.contains(&format!("{part} rc=")),
            "{part} not run:\n{log2}"
        );
    }
    assert!(log2.contains("report rc=0"), "{log2}");
    assert!(out2.join("gpu-check.md").is_file() && out2.join("preflight.txt").is_file());
}

/// The GPU machine's return rules for `$OUT`: at most 8 files, each at most
/// 16 MiB, at most 2 folders down, names of letters, digits, `.`, `_`, `-`.
/// Returns the files' paths relative to `out`.
fn check_return_rules(out: &Path) -> Vec<String> {
    fn walk(dir: &Path, depth: usize, rel: &str, files: &mut Vec<(String, u64)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().into_string().expect("a UTF-8 name");
            assert!(
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')),
                "OUT name {name:?} has other characters than [A-Za-z0-9._-]"
            );
            let path = format!("{rel}{name}");
            let meta = std::fs::symlink_metadata(e.path()).unwrap();
            if meta.is_dir() {
                assert!(depth < 2, "OUT/{path} is more than 2 folders down");
                walk(&e.path(), depth + 1, &format!("{path}/"), files);
            } else {
                assert!(meta.is_file(), "OUT/{path} is not a plain file");
                files.push((path, meta.len()));
            }
        }
    }
    let mut files = Vec::new();
    walk(out, 0, "", &mut files);
    assert!(
        files.len() <= 8,
        "OUT holds {} files (at most 8): {files:?}",
        files.len()
    );
    for (f, len) in &files {
        assert!(
            *len <= 16 * 1048576,
            "OUT/{f} is {len} bytes (at most 16 MiB)"
        );
    }
    files.into_iter().map(|(f, _)| f).collect()
}
