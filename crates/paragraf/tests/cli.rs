//! The `paragraf` binary end to end: index build, search, ask, corpus show,
//! models list and bad input, on the fixture corpus with the real small
//! models (`PARAGRAF_TEST_MODELS`, set by scripts/test.sh). Without the
//! models the model-dependent tests print why and return.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_paragraf"));
    c.env("PARAGRAF_LOG", "error").arg("--quiet");
    c
}

fn fixture_corpus() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/corpus"
    ))
}

fn models_dir() -> Option<PathBuf> {
    let d = PathBuf::from(std::env::var_os("PARAGRAF_TEST_MODELS")?);
    d.join("multilingual-e5-small/model.safetensors")
        .is_file()
        .then_some(d)
}

fn run(c: &mut Command) -> Output {
    let out = c.output().expect("run paragraf");
    if !out.status.success() {
        eprintln!(
            "stdout:\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    out
}

/// Build the fixture index once for this test binary.
fn index() -> Option<(&'static Path, &'static Path)> {
    static IDX: OnceLock<Option<(tempfile::TempDir, PathBuf, PathBuf)>> = OnceLock::new();
    IDX.get_or_init(|| {
        let models = models_dir()?;
        let home = tempfile::tempdir().unwrap();
        let out = home.path().join("index");
        let o = run(bin()
            .arg("--home")
            .arg(home.path())
            .arg("--model-dir")
            .arg(&models)
            .args([
                "index",
                "build",
                "--embedder",
                "multilingual-e5-small",
                "--strict",
                "--json",
                "--corpus",
            ])
            .arg(fixture_corpus())
            .arg("--out")
            .arg(&out));
        assert!(o.status.success(), "index build failed");
        let report: serde_json::Value =
            serde_json::from_slice(&o.stdout).expect("build report JSON");
        assert!(report["chunks"].as_u64().unwrap_or(0) > 10, "{report}");
        Some((home, out, models))
    })
    .as_ref()
    .map(|(_, i, m)| (i.as_path(), m.as_path()))
}

macro_rules! index_or_skip {
    () => {
        match index() {
            Some(x) => x,
            None => {
                paragraf_types::inputs::input_missing(
                    "PARAGRAF_TEST_MODELS with multilingual-e5-small",
                );
                return;
            }
        }
    };
}

const DPO: &str = "Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?";

#[test]
fn search_json_puts_the_dpo_norm_first() {
    let (idx, models) = index_or_skip!();
    let o = run(bin()
        .arg("--model-dir")
        .arg(models)
        .args(["search", DPO, "--json", "--index"])
        .arg(idx));
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let top = &v["results"][0];
    let key = format!(
        "{} {}",
        top["norm"].as_str().unwrap(),
        top["regulation"].as_str().unwrap()
    );
    assert!(key == "Art. 37 DSGVO" || key == "§ 38 BDSG", "{key}");
    assert!(v["assessment"]["primary_norm"].is_string());
    assert!(v["timings_ms"]["total"].as_f64().unwrap() > 0.0);
    assert!(!top["explanation"].as_array().unwrap().is_empty());
}

#[test]
fn search_explain_prints_table_and_assessment() {
    let (idx, models) = index_or_skip!();
    let o = run(bin()
        .arg("--model-dir")
        .arg(models)
        .args(["search", DPO, "--explain", "--top-k", "3", "--index"])
        .arg(idx));
    assert!(o.status.success());
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("Bewertung") && s.contains("Primärnorm"), "{s}");
    assert!(
        s.contains("authorityCoef"),
        "breakdown names the seed constants: {s}"
    );
}

#[test]
fn ask_with_smollm2_returns_a_gated_answer() {
    let (idx, models) = index_or_skip!();
    if !models.join("SmolLM2-135M-Instruct.Q4_1.gguf").is_file() {
        paragraf_types::inputs::input_missing("SmolLM2 in PARAGRAF_TEST_MODELS");
        return;
    }
    let o = run(bin()
        .arg("--model-dir")
        .arg(models)
        .args([
            "ask",
            DPO,
            "--json",
            "--model",
            "smollm2-135m-instruct-q4_1",
            "--max-tokens",
            "24",
            "--index",
        ])
        .arg(idx));
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let answer = &v["answer"];
    assert!(
        answer["text"].as_str().is_some_and(|t| !t.is_empty()),
        "{answer}"
    );
    let retrieved: Vec<String> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r["norm"].as_str().unwrap(),
                r["regulation"].as_str().unwrap()
            )
        })
        .collect();
    for c in answer["citations"].as_array().unwrap() {
        assert!(
            retrieved.contains(&c.as_str().unwrap().to_string()),
            "citation {c} not retrieved"
        );
    }
    assert!(v["timings_ms"]["generate"].as_f64().is_some());
}

#[test]
fn ask_no_generate_quotes_the_evidence_without_a_model() {
    let (idx, models) = index_or_skip!();
    let o = run(bin()
        .arg("--model-dir")
        .arg(models)
        .args(["ask", DPO, "--no-generate", "--json", "--index"])
        .arg(idx));
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let a = &v["answer"];
    assert_eq!(a["extractive"], true, "{a}");
    assert_eq!(a["model"], "", "no model ran");
    let ev = a["evidence"].as_array().expect("evidence");
    assert!(!ev.is_empty());
    for e in ev {
        let pin = e["pinpoint"].as_str().unwrap();
        assert!(
            a["text"].as_str().unwrap().contains(pin),
            "{pin} quoted in the text"
        );
    }
    assert!(v["timings_ms"]["generate"].is_null());
    assert!(v["timings_ms"]["extract"].as_f64().is_some());
}

#[test]
fn empty_question_is_bad_input_with_exit_code_2() {
    let (idx, models) = index_or_skip!();
    let o = bin()
        .arg("--model-dir")
        .arg(models)
        .args(["search", "  ", "--index"])
        .arg(idx)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("empty"));
}

/// Copy a directory tree (fixture corpus, index) into `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

#[test]
fn index_build_lists_skipped_files_and_fails_on_them_with_strict() {
    let (_, models) = index_or_skip!();
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    copy_tree(&fixture_corpus(), &corpus);
    // a listed source cut off mid-element, and a file no manifest entry names
    let xml = std::fs::read(corpus.join("de/gii/bdsg_2018.xml")).unwrap();
    std::fs::write(corpus.join("de/gii/tdddg.xml"), &xml[..xml.len() / 3]).unwrap();
    std::fs::write(corpus.join("de/gii/unlisted.xml"), b"<dokumente/>").unwrap();
    let build = |strict: bool| {
        let mut c = bin();
        c.arg("--home")
            .arg(tmp.path())
            .arg("--model-dir")
            .arg(models)
            .args(["index", "build", "--only", "BDSG", "--corpus"])
            .arg(&corpus)
            .arg("--out")
            .arg(tmp.path().join(if strict { "strict" } else { "lenient" }));
        if strict {
            c.arg("--strict");
        }
        c.output().unwrap()
    };
    let o = build(true);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("de/gii/tdddg.xml") && err.contains("de/gii/unlisted.xml"),
        "{err}"
    );
    assert!(
        !tmp.path().join("strict/manifest.json").exists(),
        "nothing written"
    );

    let o = build(false);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let listed: Vec<&str> = err.lines().filter(|l| l.starts_with("skipped ")).collect();
    assert_eq!(listed.len(), 2, "{err}");
    assert!(
        listed
            .iter()
            .any(|l| l.contains("de/gii/tdddg.xml") && l.contains(" at ")),
        "position named: {err}"
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("lenient/manifest.json")).unwrap())
            .unwrap();
    let skipped = manifest["skipped_sources"].as_array().unwrap();
    assert_eq!(skipped.len(), 2, "{manifest}");
    assert!(skipped.iter().any(|s| s["path"] == "de/gii/unlisted.xml"));
}

#[test]
fn a_corrupt_index_fails_info_verify_and_serve() {
    let (idx, models) = index_or_skip!();
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("index");
    copy_tree(idx, &copy);
    let info = || {
        bin()
            .args(["index", "info", "--verify"])
            .arg(&copy)
            .output()
            .unwrap()
    };
    let o = info();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("sha256 match"));
    // one flipped byte in the middle of the vectors
    let vectors = copy.join("vectors.safetensors");
    let mut bytes = std::fs::read(&vectors).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&vectors, bytes).unwrap();
    let o = info();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("vectors.safetensors") && err.contains("sha256"),
        "{err}"
    );
    // serve refuses it at start instead of listening
    let mut child = bin()
        .arg("--model-dir")
        .arg(models)
        .args(["serve", "--addr", "127.0.0.1:0", "--index"])
        .arg(&copy)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            panic!("serve started on a corrupt index");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("vectors.safetensors"), "{err}");
}

#[test]
fn serve_refuses_bad_flags_before_loading_anything() {
    for args in [
        &[
            "serve",
            "--models",
            "no-such-model",
            "--index",
            "/nonexistent/idx",
        ][..],
        &[
            "serve",
            "--addr",
            "localhost",
            "--index",
            "/nonexistent/idx",
        ][..],
    ] {
        let o = bin().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(args[1]), "{err}");
    }
}

#[test]
fn missing_index_names_the_build_command() {
    let o = bin()
        .args(["search", DPO, "--index", "/nonexistent/idx"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("paragraf index build"), "{err}");
}

#[test]
fn corpus_show_lists_references() {
    let o = run(bin()
        .args(["corpus", "show", "§ 38 BDSG", "--from"])
        .arg(fixture_corpus()));
    assert!(o.status.success());
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(
        s.contains("§ 38 BDSG") && s.contains("references_out:"),
        "{s}"
    );
    assert!(
        s.contains("Art. 37 DSGVO"),
        "§ 38 BDSG cites Art. 37 DSGVO: {s}"
    );
}

#[test]
fn corpus_stats_json_counts_the_fixture() {
    let o = run(bin()
        .args(["corpus", "stats", "--json", "--from"])
        .arg(fixture_corpus()));
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["chunks"].as_u64().unwrap() > 10);
    assert!(v["chunks_per_regulation"]["BDSG"].as_u64().unwrap() >= 4);
    assert!(v["files_skipped"].as_array().unwrap().is_empty(), "{v}");
}

#[test]
fn models_list_shows_every_entry() {
    let o = run(bin().args(["models", "list", "--json"]));
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    for n in [
        "bge-m3",
        "multilingual-e5-small",
        "qwen2.5-1.5b-instruct-q4km",
        "smollm2-135m-instruct-q4_1",
    ] {
        assert!(names.contains(&n), "{n} missing in {names:?}");
    }
}

#[test]
fn unknown_model_is_a_clear_error() {
    let o = bin()
        .args(["embed", "--model", "no-such-model", "text"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown model"));
}

#[test]
fn bench_compare_reports_noise_and_regressions() {
    use paragraf_eval::bench::{BenchRow, BenchTable, Machine};
    use paragraf_eval::stats::Stat;
    let table = |decode: &[f64]| {
        let mut t = BenchTable::new(Machine::from_proc(None, None, &[]), 1, 3);
        t.rows.push(BenchRow {
            model: "m".into(),
            kind: "answer".into(),
            device: "cpu".into(),
            decode_tok_per_s: Stat::from_samples(decode),
            ..BenchRow::default()
        });
        t
    };
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, t: &BenchTable| {
        let p = dir.path().join(name);
        std::fs::write(&p, t.to_json()).unwrap();
        p
    };
    let a = write("a.json", &table(&[20.0, 20.4, 19.8]));
    let b = write("b.json", &table(&[20.2, 19.9, 20.1]));
    let slow = write("slow.json", &table(&[12.0, 12.1, 11.9]));
    let o = run(bin().args(["bench", "--compare"]).arg(&a).arg(&b));
    assert!(o.status.success());
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(md.contains("All within noise: yes"), "{md}");
    let o = run(bin()
        .args(["bench", "--json", "--compare"])
        .arg(&a)
        .arg(&slow));
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = &v["deltas"][0];
    assert_eq!(d["metric"], "decode_tok_per_s");
    assert_eq!(d["within_noise"], false);
    assert_eq!(d["improved"], false);
    let o = bin()
        .args(["bench", "--compare"])
        .arg(&a)
        .arg(dir.path().join("missing.json"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.json"));
}
