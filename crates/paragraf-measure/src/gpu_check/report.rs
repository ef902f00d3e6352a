//! The `report` part: everything the other parts wrote, with the PyTorch
//! peer's figures and our/peer ratios, as `gpu-check.json` and
//! `gpu-check.md`.

use super::{read_json, write_atomic, write_json};
use paragraf_engine::EngineError;
use serde_json::{json, Value};
use std::path::Path;

fn f(v: &Value, k: &str) -> Option<f64> {
    v.get(k).and_then(Value::as_f64)
}

fn fmt(x: Option<f64>, digits: usize) -> String {
    x.map(|v| format!("{v:.digits$}"))
        .unwrap_or_else(|| "–".into())
}

/// `gpu-check.json` + `gpu-check.md` from the parts' files and `peer.json`.
/// The decoder peer's share of its own bandwidth bound (tok/s ÷ (bandwidth
/// ÷ its weight bytes per token)) and ours ÷ the peer's share: the two
/// sides read different weight bytes (Q4_K_M vs bf16), so tokens per second
/// are not equal work; shares of each one's bound are.
pub(super) fn decode_shares(
    ours_of_bound: Option<f64>,
    peer_tok_per_s: Option<f64>,
    peer_weight_bytes: Option<f64>,
    tb_per_s: Option<f64>,
) -> (Option<f64>, Option<f64>) {
    let peer = (|| {
        let bytes = peer_weight_bytes.filter(|b| *b > 0.0)?;
        let bound = tb_per_s.filter(|t| *t > 0.0)? * 1e12 / bytes;
        Some(peer_tok_per_s? / bound)
    })();
    let ratio = peer
        .filter(|p| *p > 0.0)
        .and_then(|p| ours_of_bound.map(|o| o / p));
    (peer, ratio)
}

/// `gpu-check.json` and `gpu-check.md` from the parts' JSON in `out`.
pub(super) fn report(out: &Path) -> Result<(), EngineError> {
    let plan = read_json(&out.join("plan.json")).unwrap_or(Value::Null);
    let part = |p: &str| read_json(&out.join(format!("{p}.json")));
    let peer = read_json(&out.join("peer.json"));
    let mut md = String::from("# GPU check\n\n");
    if let Ok(gpu) = std::fs::read_to_string(out.join("gpu.txt")) {
        md.push_str(&format!("GPU: {}\n\n", gpu.trim()));
    }
    md.push_str(&format!(
        "Device `{}`, tiny shapes: {}. Parts that did not finish are marked; the time boxes are in `parts.log`.\n\n",
        plan["device"].as_str().unwrap_or("?"),
        plan["tiny"]
    ));
    let peer_rows = |section: &str| -> Vec<Value> {
        peer.as_ref()
            .and_then(|p| p[section].as_array().cloned())
            .unwrap_or_default()
    };
    let parity = part("parity");
    parity_section(&plan, &parity, &mut md);
    let enc = part("encoder");
    let enc_rows = encoder_section(&plan, &enc, &peer_rows("encoder"), &mut md);
    let dec = part("decoder");
    let dec_rows = decoder_section(&plan, &dec, &peer_rows("decoder"), &mut md);
    let e2e = part("e2e");
    e2e_section(&e2e, &mut md);
    // GPU telemetry sampled by the kit (nvidia-smi every 500 ms)
    let telemetry = read_json(&out.join("telemetry.json"));
    if let Some(t) = &telemetry {
        md.push_str(&format!(
            "\n## GPU telemetry (nvidia-smi, sampled)\n\n{} samples; SM clock {}–{} MHz; memory used peak {} MiB; power peak {} W; throttle reasons seen: {}.\n",
            t["samples"], t["sm_clock_mhz_min"], t["sm_clock_mhz_max"],
            t["memory_used_mib_max"], t["power_w_max"], t["throttle_reasons"],
        ));
    }
    // peer
    md.push_str("\n## PyTorch peer\n\n");
    match &peer {
        None => md.push_str("not run (no peer.json)\n"),
        Some(p) => md.push_str(&format!(
            "status: {}; {}\n",
            p["status"].as_str().unwrap_or("?"),
            p["versions"]
        )),
    }
    if let Ok(log) = std::fs::read_to_string(out.join("parts.log")) {
        md.push_str("\n## Time boxes\n\n```\n");
        md.push_str(&log);
        md.push_str("```\n");
    }
    let all = json!({
        "plan": plan,
        "parity": parity,
        "encoder": enc.map(|mut v| { v["rows"] = json!(enc_rows); v }),
        "decoder": dec.map(|mut v| { v["rows"] = json!(dec_rows); v }),
        "e2e": e2e,
        "prepare": part("prepare"),
        "telemetry": telemetry,
        "peer": peer,
    });
    write_json(&out.join("gpu-check.json"), &all)?;
    write_atomic(&out.join("gpu-check.md"), &md)
}

/// Whether a part finished, and in how many seconds.
fn status(p: &Option<Value>) -> String {
    match p {
        None => "not run".to_string(),
        Some(v) if v["complete"] == json!(true) => {
            format!("complete ({:.1} s)", f(v, "seconds").unwrap_or(0.0))
        }
        Some(v) => format!("cut off after {:.1} s", f(v, "seconds").unwrap_or(0.0)),
    }
}

/// A part's rows.
fn rows(p: &Option<Value>) -> Vec<Value> {
    p.as_ref()
        .and_then(|v| v["rows"].as_array().cloned())
        .unwrap_or_default()
}

/// A part's notes as a list.
fn notes(p: &Option<Value>, md: &mut String) {
    for n in p
        .as_ref()
        .and_then(|v| v["notes"].as_array().cloned())
        .unwrap_or_default()
    {
        md.push_str(&format!("- {}\n", n.as_str().unwrap_or("")));
    }
}

/// The parity table and the GGUF lines.
fn parity_section(plan: &Value, parity: &Option<Value>, md: &mut String) {
    md.push_str(&format!("## Parity — {}\n\n", status(parity)));
    if plan["device"].as_str() == Some("cpu") {
        md.push_str("The device is the CPU: the f32 rows and the GGUF compare the CPU with itself; only the f16/bf16 rows test anything here.\n\n");
    }
    md.push_str("| model | dtype | dense cos min | sparse cos min | ColBERT cos min | threshold | pass |\n|---|---|---|---|---|---|---|\n");
    let mut gguf_rows = Vec::new();
    for r in rows(parity) {
        if r.get("same_greedy_tokens").is_some() {
            gguf_rows.push(r);
            continue;
        }
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            r["model"].as_str().unwrap_or(""),
            r["dtype"].as_str().unwrap_or(""),
            fmt(f(&r, "dense_cos_min"), 5),
            fmt(f(&r, "sparse_cos_min"), 5),
            fmt(f(&r, "colbert_cos_min"), 5),
            fmt(f(&r, "threshold"), 3),
            r.get("error")
                .and_then(Value::as_str)
                .map(|e| format!("error: {e}"))
                .unwrap_or_else(|| r["pass"].to_string()),
        ));
    }
    for r in &gguf_rows {
        md.push_str(&format!(
            "\nGGUF {} ({}): with the CPU's tokens forced, argmax agrees on {}/{} steps whose CPU top-2 gap exceeds {}× the step's RMS logit difference (needed: {}; all steps {}/{}); logits cosine min {} (needed: {}), max |Δ| {}; pass {}. Free-running greedy tokens equal for {}/{} steps (informative only: CPU Q8_K and CUDA Q8_1 activations flip near-ties).\n",
            r["model"].as_str().unwrap_or(""),
            r["quant"].as_str().unwrap_or(""),
            r["judged_argmax_agree"], r["judged_steps"], r["judged_gap_noise"],
            r["argmax_threshold"], r["forced_argmax_agree"], r["steps"],
            fmt(f(r, "logits_cos_min"), 5), fmt(f(r, "threshold"), 3),
            fmt(f(r, "logits_max_abs_diff"), 4), r["pass"],
            r["same_greedy_tokens"], r["steps"],
        ));
    }
    notes(parity, md);
}

/// The encoder table with the peer; returns the rows with the peer's
/// figures and the ratio added.
fn encoder_section(
    plan: &Value,
    enc: &Option<Value>,
    peer_enc: &[Value],
    md: &mut String,
) -> Vec<Value> {
    md.push_str(&format!("\n## Encoder throughput — {}\n\n", status(enc)));
    md.push_str(&format!(
        "MFU against two peaks: {} TFLOP/s, a bf16 GEMM rate measured on such a GPU (reachable), and {} TFLOP/s, the datasheet's dense bf16 figure. `heads`: with bge-m3's sparse and ColBERT heads and their outputs copied to the host; without, dense CLS only. The PyTorch peer does the same work in each mode.\n\n",
        fmt(plan["peak_bf16_tflops_measured"].as_f64(), 0),
        fmt(plan["peak_bf16_tflops_datasheet"].as_f64(), 0),
    ));
    md.push_str("| model | dtype | heads | tokens | batch | passages/s | tokens/s | TFLOP/s | MFU (measured peak) | MFU (datasheet) | PyTorch passages/s | ours ÷ PyTorch |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    let mut enc_rows = Vec::new();
    for r in rows(enc) {
        let p = peer_enc.iter().find(|p| {
            p["tokens"] == r["tokens"]
                && p["batch"] == r["batch"]
                && p["heads"].as_bool().unwrap_or(false) == r["heads"].as_bool().unwrap_or(false)
        });
        let ratio = p
            .and_then(|p| f(p, "passages_per_s"))
            .and_then(|pp| f(&r, "passages_per_s").map(|o| o / pp));
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r["model"].as_str().unwrap_or(""),
            r["dtype"].as_str().unwrap_or(""),
            r["heads"],
            r["tokens"],
            r["batch"],
            fmt(f(&r, "passages_per_s"), 1),
            fmt(f(&r, "tokens_per_s"), 0),
            fmt(f(&r, "tflops"), 2),
            fmt(f(&r, "mfu_measured_peak"), 3),
            fmt(f(&r, "mfu_datasheet_peak"), 3),
            fmt(p.and_then(|p| f(p, "passages_per_s")), 1),
            fmt(ratio, 2),
        ));
        let mut r = r.clone();
        r["peer_passages_per_s"] = json!(p.and_then(|p| f(p, "passages_per_s")));
        r["ratio_vs_peer"] = json!(ratio);
        enc_rows.push(r);
    }
    notes(enc, md);
    enc_rows
}

/// The decoder table with the peer; returns the rows with the peer's
/// figures and the share-of-bound ratio added.
fn decoder_section(
    plan: &Value,
    dec: &Option<Value>,
    peer_dec: &[Value],
    md: &mut String,
) -> Vec<Value> {
    md.push_str(&format!("\n## Decoder (GGUF) — {}\n\n", status(dec)));
    md.push_str(&format!(
        "Decode bound = HBM bandwidth ÷ weight bytes per token, at the datasheet's {} TB/s and at the ~{} TB/s measured on such a GPU. Prefill is timed after a device synchronise. The peer runs bf16 weights (not Q4_K_M), so tokens per second are not equal work: the ratio is each side's share of its own bandwidth bound (tok/s ÷ (bandwidth ÷ its weight bytes per token)), ours ÷ PyTorch — equal work per byte read; the like-for-like decoder peer is llama.cpp on the same GGUF.\n\n",
        fmt(plan["hbm_tb_per_s_datasheet"].as_f64(), 1),
        fmt(plan["hbm_tb_per_s_measured"].as_f64(), 1),
    ));
    md.push_str("| model | quant | weight MiB/token | prefill tok/s | decode tok/s | bound tok/s (datasheet) | of bound | bound tok/s (measured bw) | of bound | PyTorch bf16 decode tok/s | PyTorch of bound | ours ÷ PyTorch (share of bound) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    let mut dec_rows = Vec::new();
    for r in rows(dec) {
        let p = peer_dec.iter().find(|p| p["model"] == r["model"]);
        let (peer_of_bound, ratio) = decode_shares(
            f(&r, "decode_of_bound"),
            p.and_then(|p| f(p, "decode_tok_per_s")),
            p.and_then(|p| f(p, "weight_bytes_per_token")),
            plan["hbm_tb_per_s_datasheet"].as_f64(),
        );
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r["model"].as_str().unwrap_or(""),
            r["quant"].as_str().unwrap_or(""),
            fmt(f(&r, "weight_bytes_per_token").map(|b| b / 1048576.0), 1),
            fmt(f(&r, "prefill_tok_per_s"), 1),
            fmt(f(&r, "decode_tok_per_s"), 1),
            fmt(f(&r, "decode_bound_tok_per_s"), 1),
            fmt(f(&r, "decode_of_bound"), 3),
            fmt(f(&r, "decode_bound_measured_bw_tok_per_s"), 1),
            fmt(f(&r, "decode_of_measured_bound"), 3),
            fmt(p.and_then(|p| f(p, "decode_tok_per_s")), 1),
            fmt(peer_of_bound, 3),
            fmt(ratio, 2),
        ));
        let mut r = r.clone();
        r["peer_decode_tok_per_s"] = json!(p.and_then(|p| f(p, "decode_tok_per_s")));
        r["peer_decode_of_bound"] = json!(peer_of_bound);
        // share of bound, ours ÷ peer (equal work per byte read)
        r["ratio_vs_peer"] = json!(ratio);
        dec_rows.push(r);
    }
    notes(dec, md);
    dec_rows
}

/// The index build and the search latencies of the end-to-end part.
fn e2e_section(e2e: &Option<Value>, md: &mut String) {
    md.push_str(&format!(
        "\n## End to end (core corpus, random bge-m3 on the device) — {}\n\n",
        status(e2e)
    ));
    for r in rows(e2e) {
        if let Some(stages) = r["stage_s"].as_object() {
            md.push_str(&format!(
                "Index build: {} chunks, {:.1} s in all, {} MiB on disk. Seconds per stage: {}.\n\n",
                r["chunks"],
                f(&r, "total_s").unwrap_or(0.0),
                fmt(f(&r, "size_bytes").map(|b| b / 1048576.0), 1),
                stages
                    .iter()
                    .map(|(k, v)| format!("{k} {}", fmt(v.as_f64(), 2)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(t) = r["timings"].as_object() {
            md.push_str(&format!(
                "Search over {} questions (engine open {} s):\n\n| stage | p50 ms | p99 ms |\n|---|---|---|\n",
                r["questions"],
                fmt(f(&r, "open_s"), 1)
            ));
            for (k, v) in t {
                md.push_str(&format!(
                    "| {k} | {} | {} |\n",
                    fmt(f(v, "p50_ms"), 2),
                    fmt(f(v, "p99_ms"), 2)
                ));
            }
        }
    }
    notes(e2e, md);
}
