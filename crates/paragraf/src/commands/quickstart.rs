//! `paragraf quickstart`: from a fresh machine to a grounded answer.
//!
//! 1. lays out the small offline models under `<home>/models` (the fetch
//!    script of the shared tree; no hub is needed),
//! 2. ingests the corpus and builds the index with the best embedder present
//!    (bge-m3 when present, else multilingual-e5-small) — on a CPU-only
//!    machine the core set of regulations (`CORE_REGULATIONS`), on a GPU or
//!    with `--full` everything,
//! 3. answers a sample question with citations.

use super::{home, registry, resolve_opts};
use crate::cli::{Global, QuickstartArgs, SearchFlags};
use crate::progress::StageBars;
use anyhow::{Context, Result};
use paragraf_engine::GenParams;
use paragraf_engine::{build_index, AskOptions, BuildOptions};
use std::process::Command;
use std::time::Instant;

pub fn run(g: &Global, a: QuickstartArgs) -> Result<()> {
    let t0 = Instant::now();
    let home_dir = home(g);
    std::fs::create_dir_all(&home_dir)
        .with_context(|| format!("creating {}", home_dir.display()))?;
    let models_dir = g
        .model_dir
        .clone()
        .unwrap_or_else(|| home_dir.join("models"));

    // 1. models
    eprintln!("[1/3] Modelle in {}", models_dir.display());
    let mut g2 = g.clone();
    g2.model_dir = Some(models_dir.clone());
    let reg = registry(&g2)?;
    let present = |g: &Global| -> Vec<(String, String)> {
        paragraf_engine::models::list(&reg, &resolve_opts(g))
            .into_iter()
            .filter(|s| s.present)
            .map(|s| (s.name, s.kind))
            .collect()
    };
    let mut have = present(&g2);
    let need_embed = !have.iter().any(|(_, k)| k == "embedder");
    let need_llm = !have.iter().any(|(n, _)| *n == a.model);
    if need_embed || need_llm {
        match crate::paths::fetch_script() {
            Some(script) => {
                eprintln!("      lade die kleinen Offline-Modelle mit {}", script.display());
                let status = Command::new("bash")
                    .arg(&script)
                    .arg(&models_dir)
                    .args(["embed", "llm"])
                    // the script lists the directory on stdout; keep stdout for the answer
                    .stdout(std::process::Stdio::null())
                    .status()
                    .with_context(|| format!("running {}", script.display()))?;
                anyhow::ensure!(status.success(), "{} failed ({status})", script.display());
                have = present(&g2);
            }
            None if g.allow_download => eprintln!("      Modelle werden bei Bedarf vom Hub geladen (--allow-download)"),
            None => anyhow::bail!(
                "no embedder or answer model present in {} and no fetch script found; pass --model-dir DIR or --allow-download",
                models_dir.display()
            ),
        }
    }
    let embedder = ["bge-m3", "multilingual-e5-small"]
        .into_iter()
        .find(|e| have.iter().any(|(n, _)| n == e))
        .unwrap_or("multilingual-e5-small")
        .to_string();

    // 2. index
    let gpu = paragraf_engine::models::accelerator(super::device(g)?).is_some();
    let core = !a.full && !gpu;
    eprintln!(
        "[2/3] Index mit {embedder} ({})",
        if core {
            "Kernbestand: bindender Text von DSGVO, BDSG, TDDDG, BSIG, NIS2, CRA, KI-VO – `paragraf index build` oder `--full` für alles"
        } else {
            "gesamter Korpus"
        }
    );
    let index_dir = home_dir.join("index");
    let opts = BuildOptions {
        device: super::device(g)?,
        core_only: core,
        ..BuildOptions::new(
            a.corpus
                .clone()
                .unwrap_or_else(crate::paths::default_corpus),
            index_dir.clone(),
            embedder.clone(),
            reg.clone(),
            resolve_opts(&g2),
        )
    };
    let bars = StageBars::new(g.quiet);
    let report = build_index(&opts, &|e| bars.on_event(e))?;
    eprintln!(
        "      {} Chunks indexiert ({} neu eingebettet)",
        report.chunks, report.embedded
    );
    for s in &report.skipped_files {
        eprintln!("      übersprungen: {}: {}", s.path, s.reason);
    }

    // 3. answer
    eprintln!("[3/3] Beispielfrage: {}", a.question);
    let flags = SearchFlags::for_index(Some(index_dir.clone()));
    let engine = super::open_engine(&g2, &flags, None, false)?;
    let ask = AskOptions {
        model: Some(a.model.clone()),
        gen: GenParams {
            max_tokens: 200,
            ..GenParams::default()
        },
        ..AskOptions::default()
    };
    // only gated text is printed: while the model writes, a token count
    let out = engine.ask(&a.question, &ask, &mut |p| {
        if let paragraf_engine::AnswerProgress::Tokens(tokens) = p {
            if !g.quiet && tokens % 8 == 1 {
                eprint!("\r      Antwort wird erzeugt und geprüft … {tokens} Tokens");
            }
        }
        true
    })?;
    eprintln!();
    print!("{}", crate::output::response_text(&out.response, false));
    println!(
        "\nFertig in {:.0} s. Index: {} · Modelle: {}\nWeiter: paragraf search \"…\" · paragraf ask \"…\" --model {} · paragraf serve",
        t0.elapsed().as_secs_f64(),
        index_dir.display(),
        models_dir.display(),
        a.model
    );
    Ok(())
}
