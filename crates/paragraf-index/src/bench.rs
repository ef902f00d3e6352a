//! Measurement functions behind `benches/benches/{hnsw,bm25}.rs` and the
//! `paragraf bench` command; results are serialisable.

use crate::dense::{DenseIndex, HnswParams};
use crate::error::IndexError;
use crate::inverted::InvertedIndex;
use crate::topk::Hit;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Latency distribution of a query set run one query at a time.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LatencyStats {
    pub queries: usize,
    /// Queries per second, single thread (1 / mean latency).
    pub qps: f64,
    pub mean_us: f64,
    pub p50_us: f64,
    pub p99_us: f64,
}

impl LatencyStats {
    /// Stats from per-query durations in nanoseconds.
    pub fn from_nanos(mut ns: Vec<u64>) -> Self {
        if ns.is_empty() {
            return LatencyStats::default();
        }
        ns.sort_unstable();
        let n = ns.len();
        let total: u64 = ns.iter().sum();
        let pct = |p: f64| ns[((p * (n - 1) as f64).round() as usize).min(n - 1)] as f64 / 1e3;
        LatencyStats {
            queries: n,
            qps: n as f64 / (total as f64 / 1e9).max(1e-12),
            mean_us: total as f64 / n as f64 / 1e3,
            p50_us: pct(0.50),
            p99_us: pct(0.99),
        }
    }
}

/// Time `f` once per query, returning the stats and the results.
pub fn time_queries<Q: Sync, R: Send>(
    queries: &[Q],
    f: impl Fn(&Q) -> R,
) -> (LatencyStats, Vec<R>) {
    let mut ns = Vec::with_capacity(queries.len());
    let mut out = Vec::with_capacity(queries.len());
    for q in queries {
        let t = Instant::now();
        let r = f(q);
        ns.push(t.elapsed().as_nanos() as u64);
        out.push(r);
    }
    (LatencyStats::from_nanos(ns), out)
}

/// Throughput with all rayon threads (queries per second of wall time).
pub fn parallel_qps<Q: Sync>(queries: &[Q], rounds: usize, f: impl Fn(&Q) -> usize + Sync) -> f64 {
    let t = Instant::now();
    let mut sink = 0usize;
    for _ in 0..rounds.max(1) {
        sink += queries.par_iter().map(&f).sum::<usize>();
    }
    std::hint::black_box(sink);
    (queries.len() * rounds.max(1)) as f64 / t.elapsed().as_secs_f64().max(1e-12)
}

/// The workspace's deterministic generator (synthetic data).
pub use paragraf_types::rng::SplitMix64;

/// Synthetic embedding-like vectors: `n × dim`, row-major.
///
/// Real sentence embeddings have a low intrinsic dimension and topical
/// clusters, which isotropic Gaussian noise has not. Each vector is
/// `A·(c + z) + ε`: `A` a fixed random `dim × latent` matrix, `c` one of
/// `clusters` latent centres, `z` latent noise (σ 0.6), `ε` ambient noise
/// (σ 0.05). Deterministic for a `seed`.
pub fn synthetic_vectors(
    n: usize,
    dim: usize,
    latent: usize,
    clusters: usize,
    seed: u64,
) -> Vec<f32> {
    let mut rng = SplitMix64(0x5EED ^ 0xA5A5_A5A5);
    let a: Vec<f32> = (0..dim * latent)
        .map(|_| rng.normal() / (latent as f32).sqrt())
        .collect();
    let centres: Vec<f32> = (0..clusters.max(1) * latent)
        .map(|_| rng.normal())
        .collect();
    let mut rng = SplitMix64(seed);
    let mut out = Vec::with_capacity(n * dim);
    let mut z = vec![0f32; latent];
    for _ in 0..n {
        let c = (rng.next_u64() % clusters.max(1) as u64) as usize;
        for (j, zj) in z.iter_mut().enumerate() {
            *zj = centres[c * latent + j] + 0.6 * rng.normal();
        }
        for i in 0..dim {
            let row = &a[i * latent..(i + 1) * latent];
            let x: f32 = row.iter().zip(&z).map(|(p, q)| p * q).sum();
            out.push(x + 0.05 * rng.normal());
        }
    }
    out
}

/// Recall@k of `got` against `truth` (fraction of true top-k found).
pub fn recall_at_k(truth: &[Hit], got: &[Hit], k: usize) -> f64 {
    let t: std::collections::HashSet<u32> = truth.iter().take(k).map(|h| h.doc).collect();
    if t.is_empty() {
        return 1.0;
    }
    got.iter().take(k).filter(|h| t.contains(&h.doc)).count() as f64 / t.len() as f64
}

/// Result of [`hnsw_bench`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HnswReport {
    pub n: usize,
    pub dim: usize,
    pub k: usize,
    pub params: HnswParams,
    pub threads: usize,
    pub build_s: f64,
    /// Mean recall@k against exact search.
    pub recall: f64,
    /// HNSW latency, one query at a time.
    pub hnsw: LatencyStats,
    /// HNSW throughput with all threads.
    pub hnsw_parallel_qps: f64,
    /// Exact brute force latency.
    pub exact: LatencyStats,
    /// Recall and parallel QPS per `ef_search` of the sweep.
    pub ef_sweep: Vec<EfPoint>,
}

/// One point of the `ef_search` sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EfPoint {
    pub ef_search: usize,
    pub recall: f64,
    pub parallel_qps: f64,
    pub p50_us: f64,
    pub p99_us: f64,
}

/// Build an HNSW index over `base`, measure recall@k against exact search
/// and QPS for `queries` (row-major, same `dim`), sweeping `ef_sweep`.
pub fn hnsw_bench(
    base: Vec<f32>,
    dim: usize,
    queries: &[f32],
    params: &HnswParams,
    k: usize,
    ef_sweep: &[usize],
) -> Result<HnswReport, IndexError> {
    let n = base.len() / dim.max(1);
    let mut p = params.clone();
    p.exact_below = p.exact_below.min(n);
    let t = Instant::now();
    let mut idx = DenseIndex::build(base, dim, &p)?;
    let build_s = t.elapsed().as_secs_f64();
    let qs: Vec<&[f32]> = queries.chunks_exact(dim).collect();
    let (exact, truth) = time_queries(&qs, |q| idx.search_exact(q, k, None));
    let mut sweep = Vec::new();
    let mut efs: Vec<usize> = ef_sweep.to_vec();
    if !efs.contains(&params.ef_search) {
        efs.push(params.ef_search);
    }
    efs.sort_unstable();
    let mut main = None;
    for ef in efs {
        idx.set_ef_search(ef);
        let (lat, got) = time_queries(&qs, |q| idx.search(q, k, None));
        let recall = truth
            .iter()
            .zip(&got)
            .map(|(t, g)| recall_at_k(t, g, k))
            .sum::<f64>()
            / qs.len().max(1) as f64;
        let pq = parallel_qps(&qs, 3, |q| idx.search(q, k, None).len());
        sweep.push(EfPoint {
            ef_search: ef,
            recall,
            parallel_qps: pq,
            p50_us: lat.p50_us,
            p99_us: lat.p99_us,
        });
        if ef == params.ef_search {
            main = Some((recall, lat, pq));
        }
    }
    let (recall, hnsw, hnsw_parallel_qps) = main.unwrap_or_default();
    Ok(HnswReport {
        n,
        dim,
        k,
        params: params.clone(),
        threads: rayon::current_num_threads(),
        build_s,
        recall,
        hnsw,
        hnsw_parallel_qps,
        exact,
        ef_sweep: sweep,
    })
}

/// Result of [`bm25_bench`] for our index alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bm25Report {
    pub docs: usize,
    pub terms: usize,
    pub build_s: f64,
    pub k: usize,
    pub latency: LatencyStats,
    pub parallel_qps: f64,
}

/// Build the inverted index over `texts` and time BM25 top-`k` for `queries`.
/// Returns the report, the index and the per-query hits.
pub fn bm25_bench(
    texts: &[&str],
    queries: &[String],
    k: usize,
) -> Result<(Bm25Report, InvertedIndex, Vec<Vec<Hit>>), IndexError> {
    let t = Instant::now();
    let ix = InvertedIndex::build(texts, None, &crate::AnalyzerConfig::default())?;
    let build_s = t.elapsed().as_secs_f64();
    // Warm-up.
    for q in queries.iter().take(20) {
        std::hint::black_box(ix.bm25(q, k, None));
    }
    let (latency, hits) = time_queries(queries, |q| ix.bm25(q, k, None));
    let parallel_qps = parallel_qps(queries, 3, |q| ix.bm25(q, k, None).len());
    Ok((
        Bm25Report {
            docs: ix.len(),
            terms: ix.num_terms(),
            build_s,
            k,
            latency,
            parallel_qps,
        },
        ix,
        hits,
    ))
}

/// Result of [`persist_bench`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PersistReport {
    pub chunks: usize,
    pub dim: usize,
    pub dense_build_s: f64,
    pub inverted_build_s: f64,
    pub write_s: f64,
    /// `open_index` wall time: checksums, decoding, graph load.
    pub load_s: f64,
    /// Size of the index directory on disk.
    pub bytes: u64,
    /// Bytes per file.
    pub files: std::collections::BTreeMap<String, u64>,
}

/// Build dense + inverted indexes for `chunks` and `vectors`, write the
/// index directory to `dir` and time opening it again.
pub fn persist_bench(
    dir: &std::path::Path,
    chunks: &[paragraf_types::Chunk],
    vectors: Vec<f32>,
    dim: usize,
    params: &HnswParams,
) -> Result<PersistReport, IndexError> {
    use crate::store::{
        corpus_hash, open_index, write_index, CorpusExtras, EmbedderMeta, IndexManifest,
    };
    let t = Instant::now();
    let dense = DenseIndex::build(vectors, dim, params)?;
    let dense_build_s = t.elapsed().as_secs_f64();
    let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
    let langs: Vec<paragraf_types::Lang> = chunks.iter().map(|c| c.lang).collect();
    let t = Instant::now();
    let cfg = crate::AnalyzerConfig::default();
    let inverted = InvertedIndex::build_with_langs(&texts, Some(&langs), None, &cfg)?;
    let inverted_build_s = t.elapsed().as_secs_f64();
    let meta = EmbedderMeta {
        name: "bench".into(),
        revision: "synthetic".into(),
        dim,
        dtype: "f32".into(),
    };
    let m = IndexManifest::new(corpus_hash(chunks), meta, cfg, params.clone());
    let t = Instant::now();
    let written = write_index(
        dir,
        &m,
        chunks,
        &CorpusExtras::default(),
        &dense,
        &inverted,
        &crate::headings::HeadingVectors::default(),
    )?;
    let write_s = t.elapsed().as_secs_f64();
    drop(dense);
    drop(inverted);
    let t = Instant::now();
    let loaded = open_index(dir, None)?;
    let load_s = t.elapsed().as_secs_f64();
    std::hint::black_box(&loaded);
    let files: std::collections::BTreeMap<String, u64> = written
        .files
        .iter()
        .map(|(k, v)| (k.clone(), v.bytes))
        .collect();
    let bytes = files.values().sum::<u64>()
        + std::fs::metadata(dir.join("manifest.json")).map_or(0, |m| m.len());
    Ok(PersistReport {
        chunks: chunks.len(),
        dim,
        dense_build_s,
        inverted_build_s,
        write_s,
        load_s,
        bytes,
        files,
    })
}
