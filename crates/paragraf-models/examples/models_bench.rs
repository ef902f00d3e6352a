//! Measures the real small models on this machine (CPU) or the selected
//! device. Prints one JSON object per measurement. Random weights of the
//! large architectures (bge-m3, Qwen2.5-1.5B/7B) are measured by
//! `paragraf gpu-check` (the GPU kit).
//!
//! `cargo run --release -p paragraf-models --example models_bench -- MODELS_DIR [--device D]`

use paragraf_models::bench::*;
use paragraf_models::*;
use std::path::PathBuf;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let device_arg = args
        .iter()
        .position(|a| a == "--device")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
        .unwrap_or("cpu");
    let (device, warn) = select_device(device_arg.parse()?);
    if let Some(w) = warn {
        eprintln!("warning: {w}");
    }
    let n128: usize = std::env::var("BENCH_N128")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(32);
    let n512: usize = std::env::var("BENCH_N512")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    println!(
        "{}",
        serde_json::json!({"gemm_gflops": gemm_rate_gflops(&device, GEMM_RATE_SHAPE, 1.5)?, "shape": GEMM_RATE_SHAPE})
    );
    let dir = PathBuf::from(
        args.first()
            .ok_or("usage: models_bench MODELS_DIR [--device D]")?,
    );
    let reg = Registry::builtin();
    let opts = ResolveOptions {
        model_dir: Some(dir),
        allow_download: false,
    };
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    // BENCH_ONLY=gen: answer models only; BENCH_ONLY=<embedder>: that one only.
    let embedders: Vec<&str> = ["multilingual-e5-small", "all-minilm-l6-v2"]
        .into_iter()
        .filter(|n| only.is_empty() || only == *n)
        .collect();
    for name in embedders {
        let t = Instant::now();
        let emb = load_embedder(&reg, name, &opts, &device)?;
        println!(
            "{}",
            serde_json::json!({"model": name, "load_ms": t.elapsed().as_secs_f64() * 1e3})
        );
        for (tokens, n) in [(128, n128), (512, n512)] {
            let tokens = tokens.min(emb.info().max_tokens);
            println!(
                "{}",
                serde_json::to_string(&embed_throughput(emb.as_ref(), tokens, n)?)?
            );
        }
        println!(
            "{}",
            serde_json::to_string(&query_latency(emb.as_ref(), 20)?)?
        );
    }
    let generators: &[&str] = if only.is_empty() || only == "gen" {
        &[
            "smollm2-135m-instruct-q4_1",
            "qwen2.5-coder-0.5b-instruct-q4km",
        ]
    } else {
        &[]
    };
    for &name in generators {
        let entry = reg.get(name)?;
        let files = resolve(entry, &opts)?;
        let t = Instant::now();
        let mut g = load_generator_from_file(&files.weights, None, Some(entry), &device)?;
        let load_ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "{}",
            serde_json::to_string(&generation_bench(&mut g, 128, 32, Some(load_ms))?)?
        );
    }
    println!(
        "{}",
        serde_json::json!({"peak_rss_bytes": peak_rss_bytes()})
    );
    Ok(())
}
