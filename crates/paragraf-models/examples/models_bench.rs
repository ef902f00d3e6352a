//! Measures the real small models on this machine (CPU) or, with
//! `--random`, random-weight bge-m3 (XLM-R large) and a Qwen2.5-1.5B-shaped
//! GGUF on the selected device. Prints one JSON object per measurement.
//!
//! `cargo run --release -p paragraf-models --example models_bench -- MODELS_DIR [--device D]`
//! `cargo run --release -p paragraf-models --example models_bench -- --random [--device cuda]`

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
    if args.iter().any(|a| a == "--random") {
        let dtype = if device.is_cpu() {
            candle_core::DType::F32
        } else {
            candle_core::DType::F16
        };
        let t = Instant::now();
        let enc = RandomEncoder::new(&EncoderConfig::xlm_roberta_large(), true, &device, dtype, 1)?;
        println!(
            "{}",
            serde_json::json!({"model": "bge-m3-shape (random)", "load_ms": t.elapsed().as_secs_f64() * 1e3})
        );
        for (tokens, n) in [(128, n128), (512, n512)] {
            println!(
                "{}",
                serde_json::to_string(&enc.throughput("bge-m3-shape (random)", tokens, n)?)?
            );
        }
        drop(enc);
        let dir = std::env::temp_dir().join("paragraf-random-qwen");
        std::fs::create_dir_all(&dir)?;
        let path = dir.join("qwen2.5-1.5b-shape-q4k.gguf");
        let t = Instant::now();
        write_random_qwen2_gguf(
            &path,
            &Qwen2Shape::qwen2_5_1_5b(),
            candle_core::quantized::GgmlDType::Q4K,
            1,
        )?;
        eprintln!("wrote random GGUF in {:.1}s", t.elapsed().as_secs_f64());
        let t = Instant::now();
        let mut g = load_generator_from_file(&path, None, None, &device)?;
        let load_ms = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "{}",
            serde_json::to_string(&generation_bench(&mut g, 512, 64, Some(load_ms))?)?
        );
        std::fs::remove_file(&path)?;
        println!(
            "{}",
            serde_json::json!({"peak_rss_bytes": peak_rss_bytes()})
        );
        return Ok(());
    }
    let dir = PathBuf::from(
        args.first()
            .ok_or("usage: models_bench MODELS_DIR | --random")?,
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
