//! What is measured: dense retrieval — HNSW (hnsw_rs, our cosine distance)
//! recall@10 against exact brute force, single-query latency (p50/p99),
//! multi-thread QPS, build time, and an `ef_search` sweep; plus, when an
//! index directory is given, index load time and recall on the real corpus
//! vectors.
//! Data: 100,000 synthetic 384-d vectors (`paragraf_index::bench::
//! synthetic_vectors`: 64-d latent Gaussian clusters mapped to 384-d plus
//! noise, fixed seed; embedding-like low intrinsic dimension) and 1,000
//! held-out queries from the same distribution. `PARAGRAF_INDEX_DIR` = a
//! built index directory adds the real-corpus run (queries: 500 stored
//! vectors, fixed sample).
//! How to run: `cargo bench -p paragraf-benches --bench hnsw`
//! (`PARAGRAF_HNSW_N=20000` for a quick run; report JSON in
//! `target/paragraf-bench/hnsw.json`).

use criterion::Criterion;
use paragraf_index::bench::{hnsw_bench, recall_at_k, time_queries, SplitMix64};
use paragraf_index::{open_index, HnswParams};
use std::time::Instant;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let n = env_usize("PARAGRAF_HNSW_N", 100_000);
    let dim = env_usize("PARAGRAF_HNSW_DIM", 384);
    let nq = env_usize("PARAGRAF_HNSW_QUERIES", 1_000);
    let k = 10;
    let params = HnswParams::default();
    eprintln!("generating {n} x {dim} synthetic vectors …");
    let base = paragraf_index::bench::synthetic_vectors(n, dim, 64, 200, 1);
    let queries = paragraf_index::bench::synthetic_vectors(nq, dim, 64, 200, 2);
    eprintln!(
        "building HNSW (m {}, ef_construction {}) …",
        params.m, params.ef_construction
    );
    let report = hnsw_bench(
        base,
        dim,
        &queries,
        &params,
        k,
        &[16, 32, 48, 64, 96, 128, 200],
    )
    .expect("synthetic vectors are valid");
    let mut out = serde_json::json!({ "synthetic": report });
    eprintln!(
        "synthetic {n}x{dim}: build {:.1} s, recall@{k} {:.4} at ef {}, {:.0} QPS ({} threads), p50 {:.0} µs, p99 {:.0} µs; exact {:.0} QPS",
        report.build_s,
        report.recall,
        params.ef_search,
        report.hnsw_parallel_qps,
        report.threads,
        report.hnsw.p50_us,
        report.hnsw.p99_us,
        report.exact.qps
    );
    for p in &report.ef_sweep {
        eprintln!(
            "  ef {:>4}: recall {:.4}, {:>7.0} QPS, p50 {:>6.0} µs, p99 {:>6.0} µs",
            p.ef_search, p.recall, p.parallel_qps, p.p50_us, p.p99_us
        );
    }

    if let Ok(dir) = std::env::var("PARAGRAF_INDEX_DIR") {
        let t = Instant::now();
        match open_index(std::path::Path::new(&dir), None) {
            Err(e) => eprintln!("skipping real-corpus run: {e}"),
            Ok(ix) => {
                let load_s = t.elapsed().as_secs_f64();
                let d = &ix.dense;
                let mut rng = SplitMix64(7);
                let qs: Vec<Vec<f32>> = (0..500.min(d.len()))
                    .map(|_| d.vector((rng.next_u64() % d.len() as u64) as u32).to_vec())
                    .collect();
                let (exact, truth) = time_queries(&qs, |q| d.search_exact(q, k, None));
                let (lat, got) = time_queries(&qs, |q| d.search(q, k, None));
                let recall = truth
                    .iter()
                    .zip(&got)
                    .map(|(t, g)| recall_at_k(t, g, k))
                    .sum::<f64>()
                    / qs.len() as f64;
                let pqps =
                    paragraf_index::bench::parallel_qps(&qs, 3, |q| d.search(q, k, None).len());
                eprintln!(
                    "real corpus {} x {}: load {:.3} s, recall@{k} {:.4}, {:.0} QPS, p50 {:.0} µs, p99 {:.0} µs, exact {:.0} QPS",
                    d.len(),
                    d.dim(),
                    load_s,
                    recall,
                    pqps,
                    lat.p50_us,
                    lat.p99_us,
                    exact.qps
                );
                out["real"] = serde_json::json!({
                    "dir": dir, "vectors": d.len(), "dim": d.dim(), "load_s": load_s,
                    "recall": recall, "parallel_qps": pqps, "hnsw": lat, "exact": exact,
                });
            }
        }
    }
    let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/paragraf-bench");
    if std::fs::create_dir_all(&target).is_ok() {
        let _ = std::fs::write(
            target.join("hnsw.json"),
            serde_json::to_vec_pretty(&out).unwrap_or_default(),
        );
    }
    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());

    // Criterion: one query at the default ef on a 20k subset (keeps sampling short).
    let small_n = n.min(20_000);
    let base = paragraf_index::bench::synthetic_vectors(small_n, dim, 64, 200, 1);
    let idx = paragraf_index::DenseIndex::build(base, dim, &params).expect("valid");
    let q = queries[..dim].to_vec();
    let mut c = Criterion::default().configure_from_args().sample_size(50);
    c.bench_function(&format!("hnsw_search_top10_{small_n}x{dim}"), |b| {
        b.iter(|| idx.search(std::hint::black_box(&q), k, None))
    });
    c.bench_function(&format!("exact_search_top10_{small_n}x{dim}"), |b| {
        b.iter(|| idx.search_exact(std::hint::black_box(&q), k, None))
    });
    c.final_summary();
}
