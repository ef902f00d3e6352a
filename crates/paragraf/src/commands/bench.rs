//! `paragraf bench [models|search]`: model candidates from `models.toml`
//! side by side — load time, embed throughput at 128/512 tokens (batched and
//! the naive one-at-a-time loop), query-embed latency, prefill/decode tok/s
//! and time to first token on a real prompt built from retrieved sources,
//! memory — repeated, medians, one table (JSON + Markdown) with the machine.

use super::{device, registry, resolve_opts, SearchFlags};
use crate::cli::{BenchArgs, Global};
use anyhow::{Context, Result};
use paragraf_eval::Machine;
use paragraf_measure::bench::{bench_models, bench_search, ModelBenchOptions};

pub fn run(g: &Global, a: BenchArgs) -> Result<()> {
    if let Some(pair) = &a.compare {
        let ta = paragraf_eval::bench::BenchTable::load(&pair[0])?;
        let tb = paragraf_eval::bench::BenchTable::load(&pair[1])?;
        let c = paragraf_eval::bench::compare_bench(&ta, &tb, a.tolerance);
        if a.json {
            println!("{}", serde_json::to_string_pretty(&c)?);
        } else {
            println!("{}", c.to_markdown());
        }
        return Ok(());
    }
    match a.what.as_deref().unwrap_or("models") {
        "models" => models(g, &a),
        "search" => search(g, &a),
        "encode" | "decode" => peer(g, &a),
        other => anyhow::bail!("unknown bench `{other}` (models, search, encode, decode)"),
    }
}

/// `bench encode|decode --inputs FILE`: our side of a same-run comparison
/// with a reference runtime (`scripts/bench_peers.py` writes the inputs,
/// runs PyTorch / llama.cpp on the same ones and alternates the rounds);
/// prints the measurements as JSON.
fn peer(g: &Global, a: &BenchArgs) -> Result<()> {
    let path = a.inputs.as_ref().context(
        "`bench encode` and `bench decode` need --inputs FILE (see scripts/bench_peers.py)",
    )?;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let report = if a.what.as_deref() == Some("encode") {
        let inputs: paragraf_measure::bench::PeerEncodeInputs = serde_json::from_str(&text)
            .with_context(|| format!("{}: not encode inputs", path.display()))?;
        let model = match a.models.as_slice() {
            [m] => m.clone(),
            _ => anyhow::bail!("`bench encode` needs exactly one embedder in --models"),
        };
        let reg = registry(g)?;
        let run = paragraf_measure::bench::bench_encode_peer(
            &reg,
            &resolve_opts(g),
            device(g)?,
            &model,
            &inputs,
        )?;
        serde_json::to_value(run)?
    } else {
        let inputs: paragraf_measure::bench::PeerDecodeInputs = serde_json::from_str(&text)
            .with_context(|| format!("{}: not decode inputs", path.display()))?;
        serde_json::to_value(paragraf_measure::bench::bench_decode_peer(
            device(g)?,
            &inputs,
        )?)?
    };
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

fn models(g: &Global, a: &BenchArgs) -> Result<()> {
    let reg = registry(g)?;
    let resolve = resolve_opts(g);
    // a real prompt: the sources retrieved for the sample question, when an index is there
    let index_dir = super::index_dir(g, &a.index);
    let engine = if index_dir.join("manifest.json").exists() {
        let flags = SearchFlags::for_index(Some(index_dir.clone()));
        super::open_engine(g, &flags, None, false).ok()
    } else {
        None
    };
    let opts = ModelBenchOptions {
        registry: &reg,
        resolve: &resolve,
        device: device(g)?,
        models: &a.models,
        repeat: a.repeat,
    };
    let table = bench_models(&opts, engine.as_ref(), &|line| eprintln!("{line}"))?;
    let dir = super::report_dir(g, &a.report_dir);
    let files = table
        .write_files(&dir, "bench")
        .with_context(|| format!("writing {}", dir.display()))?;
    if a.json {
        println!("{}", table.to_json());
    } else {
        println!("{}", table.to_markdown());
        for f in files {
            println!("report: {}", f.display());
        }
    }
    Ok(())
}

/// End-to-end latency per stage over the golden questions: search and the
/// model-free extractive answer (`extract`); with `--answers N`, the first N
/// questions also get a generated answer: time to the first gated sentence
/// (`first_sentence`, from the start of the search) and to the whole answer
/// (`answer`).
fn search(g: &Global, a: &BenchArgs) -> Result<()> {
    let flags = SearchFlags::for_index(a.index.clone());
    let t_open = std::time::Instant::now();
    let engine = super::open_engine(g, &flags, None, true)?;
    let open_ms = t_open.elapsed().as_secs_f64() * 1e3;
    let mib = |k: Option<u64>| k.map(|k| k as f64 / 1024.0);
    let memory = serde_json::json!({
        "rss_mib": mib(paragraf_types::memory::rss_kib()),
        "rss_anon_mib": mib(paragraf_types::memory::rss_anon_kib()),
        "rss_file_mib": mib(paragraf_types::memory::rss_file_kib()),
    });
    let load = engine.load_timings();
    let golden_path = crate::paths::default_corpus().join("../eval/golden-dev.jsonl");
    let golden = paragraf_eval::load_golden(&golden_path)?;
    let questions: Vec<String> = golden.iter().map(|q| q.query.clone()).collect();
    let model = match (a.answers, a.models.first()) {
        (0, _) => None,
        (_, Some(m)) => Some(m.clone()),
        (_, None) => Some(super::default_answer_model(g)?),
    };
    let per_stage = bench_search(&engine, &questions, a.repeat, a.answers, model)?;
    let mut rows = Vec::new();
    for (k, mut v) in per_stage {
        v.sort_by(f64::total_cmp);
        let p = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        rows.push(serde_json::json!({"stage": k, "n": v.len(), "p50_ms": p(0.5), "p95_ms": p(0.95), "p99_ms": p(0.99)}));
    }
    let report = serde_json::json!({"machine": Machine::detect(), "index": engine.index().manifest.counts.chunks, "embedder": engine.embedder_name(), "open_ms": open_ms, "load": load, "memory_after_open": memory, "stages": rows});
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        let l = &load.index;
        println!(
            "open {open_ms:.0} ms (with warm-up): index {:.0} (verify {:.0}, chunks {:.0}, vectors {:.0}, postings {:.0}, headings {:.0}, graph {:.0}) beside embedder {:.0}, tables {:.0}",
            l.verify_ms + l.chunks_ms + l.vectors_ms + l.inverted_ms + l.headings_ms + l.dense_ms,
            l.verify_ms,
            l.chunks_ms,
            l.vectors_ms,
            l.inverted_ms,
            l.headings_ms,
            l.dense_ms,
            load.models_ms,
            load.tables_ms
        );
        println!(
            "memory after open: RSS {:.0} MiB = anonymous {:.0} + mapped files {:.0}",
            memory["rss_mib"].as_f64().unwrap_or(0.0),
            memory["rss_anon_mib"].as_f64().unwrap_or(0.0),
            memory["rss_file_mib"].as_f64().unwrap_or(0.0)
        );
        println!(
            "search + extractive answer latency over {} golden questions × {} (ms)",
            golden.len(),
            a.repeat.max(1)
        );
        println!("{:<12} {:>8} {:>8} {:>8}", "stage", "p50", "p95", "p99");
        for r in report["stages"].as_array().into_iter().flatten() {
            println!(
                "{:<12} {:>8.2} {:>8.2} {:>8.2}",
                r["stage"].as_str().unwrap_or(""),
                r["p50_ms"].as_f64().unwrap_or(0.0),
                r["p95_ms"].as_f64().unwrap_or(0.0),
                r["p99_ms"].as_f64().unwrap_or(0.0)
            );
        }
    }
    Ok(())
}
