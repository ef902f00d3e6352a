//! What is measured: the cost of one query's rank stage — `rank` (Full
//! stage, control intent, diversity) plus `assess` — on the realistic
//! 200-candidate fixture of `paragraf_rank::testing`.
//! How to run: `cargo run --release -p paragraf-rank --features testing --example rank_cost`.

use paragraf_rank::testing::{fixture_candidates, fixture_chunks, FIXTURE_QUERY};
use paragraf_rank::{analyze_query, assess, rank, Lexicon, RankParams, Stage};
use std::time::Instant;

/// CPU time of this process in seconds (utime + stime from /proc/self/stat,
/// clock ticks of 1/100 s); `None` off Linux. On a loaded shared machine the
/// CPU time per query is the fairer figure than wall time.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ut: f64 = f.get(11)?.parse().ok()?;
    let st: f64 = f.get(12)?.parse().ok()?;
    Some((ut + st) / 100.0)
}

fn main() {
    let chunks = fixture_chunks(200);
    let cands = fixture_candidates(&chunks);
    let lex = Lexicon::builtin();
    let params = RankParams::default();
    let q = analyze_query(FIXTURE_QUERY, &[], lex);
    let by_id: std::collections::HashMap<_, _> = chunks.iter().map(|c| (c.id.clone(), c)).collect();
    let chunk_of = |id: &paragraf_types::ChunkId| by_id.get(id).copied();
    // warm-up
    for _ in 0..200 {
        let r = rank(&q, &cands, &params, Stage::Full, 10);
        std::hint::black_box(assess(&q, &r, &chunk_of, &[], &[], &params));
    }
    let iters = 20000u32;
    let cpu0 = cpu_seconds();
    let t = Instant::now();
    for _ in 0..iters {
        let r = rank(&q, std::hint::black_box(&cands), &params, Stage::Full, 10);
        std::hint::black_box(&r);
    }
    let rank_us = t.elapsed().as_secs_f64() * 1e6 / f64::from(iters);
    let rank_cpu_us = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) => (b - a) * 1e6 / f64::from(iters),
        _ => f64::NAN,
    };
    let t = Instant::now();
    for _ in 0..iters {
        let r = rank(&q, std::hint::black_box(&cands), &params, Stage::Full, 10);
        std::hint::black_box(assess(&q, &r, &chunk_of, &[], &[], &params));
    }
    let both_us = t.elapsed().as_secs_f64() * 1e6 / f64::from(iters);
    let t = Instant::now();
    for _ in 0..iters / 10 {
        std::hint::black_box(analyze_query(std::hint::black_box(FIXTURE_QUERY), &[], lex));
    }
    let analyze_us = t.elapsed().as_secs_f64() * 1e6 / f64::from(iters / 10);
    println!("candidates: {}", cands.len());
    println!("rank (Full, top 10):   {rank_us:8.1} µs/query wall, {rank_cpu_us:8.1} µs/query CPU");
    println!("rank + assess:         {both_us:8.1} µs/query");
    println!("analyze_query:         {analyze_us:8.1} µs/query");
}
