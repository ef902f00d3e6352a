//! What is measured: the cost of one query's rank stage — `rank` (Full
//! stage, control intent, diversity) plus `assess` — on the realistic
//! 200-candidate fixture of `paragraf_rank::testing`.
//! How to run: `cargo run --release -p paragraf-rank --features testing --example rank_cost`.

use paragraf_rank::testing::{fixture_candidates, fixture_chunks, FIXTURE_QUERY};
use paragraf_rank::{analyze_query, assess, rank, Lexicon, RankParams, Stage};
use std::time::Instant;

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
    let iters = 5000u32;
    let t = Instant::now();
    for _ in 0..iters {
        let r = rank(&q, std::hint::black_box(&cands), &params, Stage::Full, 10);
        std::hint::black_box(&r);
    }
    let rank_us = t.elapsed().as_secs_f64() * 1e6 / f64::from(iters);
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
    println!("rank (Full, top 10):   {rank_us:8.1} µs/query");
    println!("rank + assess:         {both_us:8.1} µs/query");
    println!("analyze_query:         {analyze_us:8.1} µs/query");
}
