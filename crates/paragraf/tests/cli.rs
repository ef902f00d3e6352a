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
    // the question analysis: what fired and what lexical retrieval searched
    assert!(s.contains("Frageanalyse") && s.contains("Suchterme"), "{s}");
    assert!(
        s.lines().any(|l| l.trim_start().starts_with("topic ")),
        "{s}"
    );
}

#[test]
fn search_without_hand_topics_and_the_analysis_as_json() {
    let (idx, models) = index_or_skip!();
    let search = |extra: &[&str]| {
        let o = run(bin()
            .arg("--model-dir")
            .arg(models)
            .args(["search", DPO, "--json", "--explain", "--top-k", "3"])
            .args(extra)
            .arg("--index")
            .arg(idx));
        assert!(o.status.success());
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let on = search(&[]);
    assert!(
        !on["analysis"]["topics"].as_array().unwrap().is_empty(),
        "{on}"
    );
    assert!(!on["analysis"]["query_terms"].as_array().unwrap().is_empty());
    assert!(on["results"].is_array(), "the API's shape stays");
    let off = search(&["--no-hand-topics"]);
    assert!(
        off["analysis"]["topics"].as_array().unwrap().is_empty(),
        "{off}"
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
fn ask_exits_3_when_it_abstains() {
    // a question no norm of the corpus answers: the response is printed
    // (abstention and reason) and the exit status says there is no answer
    let (idx, models) = index_or_skip!();
    for json in [false, true] {
        let mut c = bin();
        c.arg("--model-dir")
            .arg(models)
            .args([
                "ask",
                "Welche Farbe hat ein Zebra?",
                "--no-generate",
                "--index",
            ])
            .arg(idx);
        if json {
            c.arg("--json");
        }
        let o = c.output().expect("run paragraf");
        assert_eq!(
            o.status.code(),
            Some(3),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let stdout = String::from_utf8_lossy(&o.stdout);
        if json {
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(v["answer"]["abstained"], true, "{v}");
        } else {
            assert!(stdout.contains("Keine belastbare Quelle"), "{stdout}");
        }
        assert!(!String::from_utf8_lossy(&o.stderr).contains("error:"));
    }
    // an answerable question still exits 0
    let o = run(bin()
        .arg("--model-dir")
        .arg(models)
        .args(["ask", DPO, "--no-generate", "--index"])
        .arg(idx));
    assert!(o.status.success());
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

/// The engine layers the rank parameters itself (`ParamsSource::Layers`):
/// a `--params` file with an unknown key or a missing file is bad input,
/// exit 2, the file and the key named.
#[test]
fn a_bad_params_file_is_exit_2_naming_file_and_key() {
    let (idx, models) = index_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("knobs.toml");
    std::fs::write(&bad, "noSuchKnob = 1.0\n").unwrap();
    let missing = dir.path().join("absent.toml");
    for (file, needle) in [(&bad, "noSuchKnob"), (&missing, "absent.toml")] {
        let o = bin()
            .arg("--model-dir")
            .arg(models)
            .args(["search", DPO, "--index"])
            .arg(idx)
            .arg("--params")
            .arg(file)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("rank parameters"), "{err}");
        assert!(err.contains(file.to_str().unwrap()), "{err}");
        assert!(err.contains(needle), "{err}");
    }
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
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(text.contains("sha256 match"));
    // what the index covers: its regulations and whether it is the core set
    assert!(
        text.contains("regulations") && text.contains("BDSG") && text.contains("DSGVO"),
        "{text}"
    );
    assert!(text.contains("whole corpus"), "{text}");
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
    // a path that holds no index is bad input, as documented (exit 2)
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("paragraf index build"), "{err}");
}

/// An index with one of its files gone is bad input (exit 2, naming the
/// file), like one whose file fails its checksum; it was exit 1.
#[test]
fn a_missing_index_file_is_exit_2() {
    let (idx, models) = index_or_skip!();
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("index");
    copy_tree(idx, &copy);
    std::fs::remove_file(copy.join("vectors.safetensors")).unwrap();
    let o = bin()
        .arg("--model-dir")
        .arg(models)
        .args(["search", DPO, "--index"])
        .arg(&copy)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("vectors.safetensors"), "{err}");
}

/// `ask --model` with something that is no answer model is bad input
/// (exit 2), never an abstention (exit 3, what `/etc/passwd` gave).
#[test]
fn ask_with_no_answer_model_is_exit_2() {
    let (idx, models) = index_or_skip!();
    for model in ["/etc/passwd", "no-such-model"] {
        let o = bin()
            .arg("--model-dir")
            .arg(models)
            .args(["ask", DPO, "--model", model, "--index"])
            .arg(idx)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{model}: {err}");
        assert!(err.contains("--model"), "{model}: {err}");
    }
}

/// The CLI takes what the server takes: `top_k` 1..=50, `max_tokens`
/// 1..=1024, a question that is not blank (control characters only) and not
/// over 2000 characters; anything else is exit 2 before an index is opened.
/// It allowed `--top-k 100` and `--max-tokens 0`.
#[test]
fn the_cli_has_the_servers_limits() {
    use paragraf_types::limits;
    let long = "x".repeat(limits::MAX_QUERY_CHARS + 1);
    let too_many = (limits::MAX_TOP_K + 1).to_string();
    let too_long = (limits::MAX_TOKENS + 1).to_string();
    let cases: Vec<Vec<&str>> = vec![
        vec!["search", DPO, "--top-k", "0"],
        vec!["search", DPO, "--top-k", &too_many],
        vec!["search", DPO, "--top-k", "100"],
        vec!["ask", DPO, "--max-tokens", "0"],
        vec!["ask", DPO, "--max-tokens", &too_long],
        vec!["search", "\u{1}\u{1b}\t"],
        vec!["ask", " \u{7f}\u{7} ", "--no-generate"],
        vec!["search", &long],
    ];
    for args in cases {
        let o = bin()
            .args(&args)
            .args(["--index", "/nonexistent/idx"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{:?}: {err}", &args[..1]);
        assert!(
            !err.contains("paragraf index build"),
            "refused before the index: {err}"
        );
    }
    // the limits themselves are accepted
    let max = limits::MAX_TOP_K.to_string();
    let o = bin()
        .args([
            "search",
            DPO,
            "--top-k",
            &max,
            "--index",
            "/nonexistent/idx",
        ])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("paragraf index build"),
        "top_k {max} passes the flag check"
    );
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
    use paragraf_eval::bench::{BenchRow, BenchTable};
    use paragraf_eval::stats::Stat;
    use paragraf_eval::Machine;
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

/// A scripted answer: one supported sentence, then an unknown law, an
/// invented article, a superseded norm, an out-of-scope norm, and two
/// sentences that say what the source says but also cite a law written out
/// in words: one outside the corpus (`des Strafgesetzbuchs`), one in it but
/// not retrieved (`des Gesetzes gegen den unlauteren Wettbewerb`, the UWG).
const BAD_CITATIONS: &str = "Ein Datenschutzbeauftragter ist nach Art. 37 DSGVO zu benennen [1]. \
     Rechtsgrundlage ist zusätzlich § 202a StGB [1]. \
     Maßgeblich ist auch Art. 999 DSGVO [1]. \
     Früher galt § 4f BDSG 1990 [1]. \
     Für Strafverfolgungsbehörden gilt § 45 BDSG [1]. \
     Der Verantwortliche und der Auftragsverarbeiter benennen einen Datenschutzbeauftragten, wenn die Verarbeitung von einer Behörde durchgeführt wird, nach Art. 37 DSGVO und § 202a des Strafgesetzbuchs [1]. \
     Der Verantwortliche und der Auftragsverarbeiter benennen einen Datenschutzbeauftragten, wenn die Verarbeitung von einer Behörde durchgeführt wird, nach Art. 37 DSGVO und § 7 des Gesetzes gegen den unlauteren Wettbewerb [1].";

/// What must not reach any output of [`BAD_CITATIONS`].
const BAD_WORDS: &[&str] = &[
    "202a",
    "StGB",
    "999",
    "4f BDSG",
    "§ 45 BDSG",
    "Strafgesetzbuch",
    "unlauteren",
];

/// The built-in registry plus a scripted answer model that replays `script`
/// (a file) whatever it is asked: a `--models-toml` for gate tests.
fn registry_with_script(dir: &Path, script: &str) -> PathBuf {
    registry_with_paced_script(dir, script, 0)
}

/// [`registry_with_script`] with a scripted model that pauses `delay_ms`
/// before each word, as a real model spends decoding it.
fn registry_with_paced_script(dir: &Path, script: &str, delay_ms: u64) -> PathBuf {
    let file = dir.join("answer.txt");
    std::fs::write(&file, script).unwrap();
    let builtin =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../models.toml"))
            .expect("the repository's models.toml");
    let toml = format!(
        "{builtin}\n[[model]]\nname = \"scripted-gate\"\nkind = \"answer\"\narchitecture = \"scripted\"\nrepo = \"local/scripted\"\npath = {:?}\nfiles = {{ weights = \"answer.txt\" }}\nmax_tokens = 4096\nword_delay_ms = {delay_ms}\n",
        file.display().to_string()
    );
    let reg = dir.join("models.toml");
    std::fs::write(&reg, toml).unwrap();
    reg
}

#[test]
fn ask_prints_only_what_the_gate_kept() {
    let (idx, models) = index_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let reg = registry_with_script(dir.path(), BAD_CITATIONS);
    for json in [false, true] {
        let mut c = bin();
        c.arg("--model-dir")
            .arg(models)
            .arg("--models-toml")
            .arg(&reg)
            .args(["ask", DPO, "--model", "scripted-gate", "--index"])
            .arg(idx);
        if json {
            c.arg("--json");
        }
        let o = run(&mut c);
        assert!(o.status.success());
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let answer = if json {
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let removed = v["answer"]["removed_citations"].as_array().unwrap();
            assert!(
                removed.len() >= 4,
                "the four dropped sentences are listed: {removed:?}"
            );
            // the answer and what the gate reports (the results list is the
            // corpus's own text and may name any norm)
            format!(
                "{}\n{}",
                v["answer"]["text"].as_str().unwrap(),
                serde_json::Value::Array(removed.clone())
            )
        } else {
            // the answer block of the terminal output (the result table above
            // it is the corpus's text), its removed list, and the progress line
            let from = stdout.rfind("\nAntwort").expect("an answer block");
            format!("{}\n{stderr}", &stdout[from..])
        };
        for bad in BAD_WORDS {
            assert!(
                !answer.contains(bad),
                "{bad} reached the CLI output:\n{answer}"
            );
        }
        assert!(answer.contains("Art. 37"), "the kept sentence: {answer}");
    }
}

/// One HTTP/1.0 request to a local server (no chunked encoding, so the body
/// arrives as the server wrote it); the whole response.
fn http(port: u16, method: &str, path: &str, body: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(std::time::Duration::from_secs(120)))
        .unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// A `paragraf serve` child process, killed when dropped.
struct Served(std::process::Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Start `paragraf serve` with the scripted answer model of `reg` on a free
/// port and wait until it is ready; the child and its port.
fn serve_scripted(idx: &Path, models: &Path, reg: &Path) -> (Served, u16) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = bin()
        .arg("--model-dir")
        .arg(models)
        .arg("--models-toml")
        .arg(reg)
        .args(["serve", "--model", "scripted-gate", "--addr"])
        .arg(format!("127.0.0.1:{port}"))
        .arg("--index")
        .arg(idx)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start serve");
    let served = Served(child);
    let t0 = std::time::Instant::now();
    loop {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
            && http(port, "GET", "/readyz", "").contains(" 200 ")
        {
            break;
        }
        assert!(t0.elapsed().as_secs() < 120, "server did not become ready");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    (served, port)
}

/// A scripted answer of three supported sentences (32 words).
const THREE_SENTENCES: &str = "Ein Datenschutzbeauftragter ist nach Art. 37 DSGVO zu benennen [1]. \
     Die Benennung erfolgt auf der Grundlage der beruflichen Qualifikation und des Fachwissens auf dem Gebiet des Datenschutzrechts [1]. \
     Die Kontaktdaten des Datenschutzbeauftragten werden veröffentlicht und der Aufsichtsbehörde mitgeteilt [1].";

#[test]
fn the_first_gated_sentence_is_streamed_before_the_model_finishes() {
    use std::io::{BufRead, BufReader, Write};
    use std::time::{Duration, Instant};
    let (idx, models) = index_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    // the scripted model takes DELAY per word, 32 words in all
    const DELAY_MS: u64 = 120;
    let reg = registry_with_paced_script(dir.path(), THREE_SENTENCES, DELAY_MS);
    let (_served, port) = serve_scripted(idx, models, &reg);
    let words = THREE_SENTENCES.split_whitespace().count();
    // the first sentence is complete when the model writes the word after it
    let first_len = THREE_SENTENCES.split_inclusive("[1]. ").next().unwrap();
    let first_words = first_len.split_whitespace().count() + 1;

    let q = serde_json::json!({ "query": "Ab wann braucht ein Betrieb einen eigenen Datenschutzbeauftragten?" })
        .to_string();
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    write!(
        s,
        "POST /v1/answer HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{q}",
        q.len()
    )
    .unwrap();
    let t0 = Instant::now();
    // (event name, arrival in ms after the request)
    let mut events: Vec<(String, f64)> = Vec::new();
    for line in BufReader::new(s).lines() {
        let Ok(line) = line else { break };
        if let Some(ev) = line.strip_prefix("event:") {
            events.push((ev.trim().to_string(), t0.elapsed().as_secs_f64() * 1e3));
        }
    }
    for (ev, ms) in &events {
        println!("{ms:8.1} ms  {ev}");
    }
    let at = |name: &str| events.iter().find(|(e, _)| e == name).map(|(_, t)| *t);
    let results = at("results").expect("a results event");
    let first = at("sentence").expect("a sentence event");
    let fin = at("final").expect("a final event");
    assert!(results < first && first < fin, "{events:?}");
    // after the first sentence the model still writes the rest, a pause per
    // word: the sentence came while the model was writing, not at its end
    let rest_ms = ((words - first_words) as u64 * DELAY_MS) as f64;
    assert!(
        fin - first >= rest_ms * 0.9,
        "first sentence at {first:.0} ms, final at {fin:.0} ms: the sentence came at the end \
         (the model writes {} more words of {DELAY_MS} ms after it)",
        words - first_words
    );
    // and it came about when its last word was written, not much later
    let written_ms = (first_words as u64 * DELAY_MS) as f64;
    assert!(
        first - results < written_ms + 2_000.0,
        "first sentence {:.0} ms after the results; its words take {written_ms:.0} ms",
        first - results
    );
}

#[test]
fn served_streams_carry_only_what_the_gate_kept() {
    let (idx, models) = index_or_skip!();
    let dir = tempfile::tempdir().unwrap();
    let reg = registry_with_script(dir.path(), BAD_CITATIONS);
    let (_served, port) = serve_scripted(idx, models, &reg);
    let q = serde_json::json!({ "query": DPO }).to_string();
    let sse = http(port, "POST", "/v1/answer", &q);
    assert!(sse.contains("event: sentence"), "{sse}");
    let chat = serde_json::json!({
        "model": "paragraf",
        "stream": true,
        "messages": [{ "role": "user", "content": DPO }],
    })
    .to_string();
    let chat = http(port, "POST", "/v1/chat/completions", &chat);
    assert!(chat.contains("data:"), "{chat}");
    // the results event carries the corpus's own text, which may name any
    // norm; the sentences, the chat deltas and the gate's report may not
    // carry what the model invented
    let deltas: Vec<String> = chat
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<serde_json::Value>(d.trim()).ok())
        .filter_map(|v| {
            v["choices"][0]["delta"]["content"]
                .as_str()
                .map(str::to_string)
        })
        .collect();
    assert!(!deltas.is_empty(), "{chat}");
    let gated: Vec<&str> = sse
        .split("\n\n")
        .filter(|ev| ev.contains("event: sentence"))
        .chain(deltas.iter().map(String::as_str))
        .collect();
    assert!(!gated.is_empty());
    for ev in &gated {
        for bad in BAD_WORDS {
            assert!(!ev.contains(bad), "{bad} was streamed: {ev}");
        }
    }
    let final_ev = sse
        .split("\n\n")
        .find(|ev| ev.contains("event: final"))
        .expect("a final event");
    let data = final_ev.split_once("data:").unwrap().1.trim();
    let v: serde_json::Value = serde_json::from_str(data).unwrap();
    let answer = &v["answer"];
    for bad in BAD_WORDS {
        assert!(!answer["text"].as_str().unwrap().contains(bad), "{answer}");
        assert!(
            !answer["removed_citations"].to_string().contains(bad),
            "{answer}"
        );
    }
}

#[test]
fn bad_stage_and_lang_values_are_exit_2_naming_the_flag() {
    for (flag, value) in [("--stage", "foo"), ("--lang", "fr")] {
        let o = bin()
            .args(["search", DPO, flag, value, "--index", "/nonexistent/idx"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flag}: {err}");
        assert!(err.contains(flag) && err.contains(value), "{err}");
    }
}
