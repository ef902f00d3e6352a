//! Dense index: cosine similarity over L2-normalised vectors, HNSW (hnsw_rs)
//! for large corpora, exact brute force for small ones, as the recall
//! reference, and for selective filters.

use crate::error::IndexError;
use crate::flat::FlatGraph;
use crate::mapped::Slab;
use crate::topk::{hit_order, Hit, TopK};
use hnsw_rs::anndists::dist::Distance;
use hnsw_rs::prelude::{AnnT, Hnsw, HnswIo};
pub use paragraf_types::vector::{dot, normalize};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Largest `m` hnsw_rs accepts: it stores the neighbour count in a `u8` and
/// exits the process for `max_nb_connection > 256`, so we validate first.
pub const MAX_M: usize = 255;

/// Number of HNSW layers (hnsw_rs caps it at 16).
const MAX_LAYERS: usize = 16;

/// HNSW parameters. Defaults are tuned on 100k × 384 synthetic clustered
/// vectors (see `benches/benches/hnsw.rs` and [`crate::bench::hnsw_synthetic`]):
/// recall@10 ≥ 0.98 against exact search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HnswParams {
    /// Max neighbours per node and layer (`M`; layer 0 keeps `2·M`). Range 2..=255.
    /// Higher: better recall, larger graph, slower build. Default 24.
    pub m: usize,
    /// Candidate list size while inserting (`efConstruction`). Range ≥ `m`.
    /// Higher: better graph, slower build. Default 200.
    pub ef_construction: usize,
    /// Candidate list size while searching (`ef`); raised to `k` when `k` is
    /// larger. Higher: better recall, lower QPS. Default 64.
    pub ef_search: usize,
    /// Below this many vectors no graph is built and every search is exact
    /// (brute force is then as fast as HNSW and has recall 1). Default 2,000.
    pub exact_below: usize,
    /// A filtered search whose filter admits at most this fraction of the
    /// vectors runs exactly on the admitted set; above it, HNSW searches with
    /// the filter applied during traversal and a widened `ef`, falling back
    /// to exact when fewer than `k` admitted hits come back. Default 0.2.
    #[serde(default = "default_filter_exact_fraction")]
    pub filter_exact_fraction: f32,
}

fn default_filter_exact_fraction() -> f32 {
    0.2
}

impl Default for HnswParams {
    fn default() -> Self {
        HnswParams {
            m: 24,
            ef_construction: 200,
            ef_search: 64,
            exact_below: 2_000,
            filter_exact_fraction: default_filter_exact_fraction(),
        }
    }
}

impl HnswParams {
    /// Check every field against its documented range.
    pub fn validate(&self) -> Result<(), IndexError> {
        if !(2..=MAX_M).contains(&self.m) {
            return Err(IndexError::InvalidParam {
                name: "hnsw.m",
                reason: format!("{} is outside 2..={MAX_M}", self.m),
            });
        }
        if self.ef_construction < self.m {
            return Err(IndexError::InvalidParam {
                name: "hnsw.ef_construction",
                reason: format!("{} is below m = {}", self.ef_construction, self.m),
            });
        }
        if self.ef_search == 0 {
            return Err(IndexError::InvalidParam {
                name: "hnsw.ef_search",
                reason: "must be at least 1".into(),
            });
        }
        if !(0.0..=1.0).contains(&self.filter_exact_fraction) {
            return Err(IndexError::InvalidParam {
                name: "hnsw.filter_exact_fraction",
                reason: format!("{} is outside 0..=1", self.filter_exact_fraction),
            });
        }
        Ok(())
    }
}

/// Cosine distance `1 − a·b` on normalised vectors, clamped at 0.
///
/// Our own distance instead of anndists' `DistDot`, whose scalar version
/// sums sequentially (slow) and asserts `1 − a·b ≥ 0`, which rounding breaks
/// for near-identical vectors.
#[derive(Debug, Clone, Copy, Default)]
pub struct CosineDist;

impl Distance<f32> for CosineDist {
    fn eval(&self, va: &[f32], vb: &[f32]) -> f32 {
        (1.0 - dot(va, vb)).max(0.0)
    }
}

type Graph = Hnsw<'static, f32, CosineDist>;

/// The dense index: normalised vectors plus an optional HNSW graph.
pub struct DenseIndex {
    dim: usize,
    /// Row-major, normalised (in the mapped `vectors.safetensors` of an
    /// opened f32 index).
    vectors: Slab<f32>,
    params: HnswParams,
    graph: Option<Graph>,
    /// Flat copy of `graph` that serves unfiltered searches.
    flat: Option<FlatGraph>,
}

impl std::fmt::Debug for DenseIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DenseIndex")
            .field("dim", &self.dim)
            .field("len", &self.len())
            .field("params", &self.params)
            .field("graph", &self.graph.is_some())
            .finish()
    }
}

fn check_vectors(vectors: &[f32], dim: usize) -> Result<usize, IndexError> {
    if dim == 0 {
        return Err(IndexError::InvalidParam {
            name: "dim",
            reason: "must be at least 1".into(),
        });
    }
    if vectors.is_empty() {
        return Err(IndexError::Empty("no vectors to index".into()));
    }
    if !vectors.len().is_multiple_of(dim) {
        return Err(IndexError::DimMismatch {
            what: format!(
                "vectors ({} floats is not a multiple of dim)",
                vectors.len()
            ),
            expected: dim,
            got: vectors.len() % dim,
        });
    }
    if let Some(pos) = vectors.iter().position(|x| !x.is_finite()) {
        return Err(IndexError::InvalidInput(format!(
            "vector {} has a non-finite value at component {}",
            pos / dim,
            pos % dim
        )));
    }
    let n = vectors.len() / dim;
    if n > u32::MAX as usize {
        return Err(IndexError::InvalidInput(format!(
            "{n} vectors exceed the u32 doc id range"
        )));
    }
    Ok(n)
}

impl DenseIndex {
    /// Build from `vectors` (row-major, `len = n · dim`). Vectors are
    /// normalised; a graph is built (parallel insert) when `n ≥ exact_below`.
    pub fn build(
        mut vectors: Vec<f32>,
        dim: usize,
        params: &HnswParams,
    ) -> Result<Self, IndexError> {
        params.validate()?;
        let n = check_vectors(&vectors, dim)?;
        for v in vectors.chunks_exact_mut(dim) {
            normalize(v);
        }
        let graph = if n >= params.exact_below.max(1) {
            Some(build_graph(&vectors, dim, n, params))
        } else {
            None
        };
        let flat = graph.as_ref().map(|g| FlatGraph::from_hnsw(g, n));
        Ok(DenseIndex {
            dim,
            vectors: vectors.into(),
            params: params.clone(),
            graph,
            flat,
        })
    }

    /// Rebuild from already normalised vectors and a graph dump (`graph_dir`
    /// holds `<basename>.hnsw.graph` and `<basename>.hnsw.data`).
    pub(crate) fn from_parts(
        vectors: Slab<f32>,
        dim: usize,
        params: &HnswParams,
        graph: Option<(&Path, &str)>,
    ) -> Result<Self, IndexError> {
        params.validate()?;
        let n = check_vectors(&vectors, dim)?;
        let graph = match graph {
            None => None,
            Some((dir, base)) => {
                let g = load_graph(dir, base)?;
                if g.get_nb_point() != n {
                    return Err(IndexError::corrupt(
                        dir.join(format!("{base}.hnsw.graph")),
                        format!("graph holds {} points, vectors {n}", g.get_nb_point()),
                    ));
                }
                Some(g)
            }
        };
        let flat = graph.as_ref().map(|g| FlatGraph::from_hnsw(g, n));
        Ok(DenseIndex {
            dim,
            vectors,
            params: params.clone(),
            graph,
            flat,
        })
    }

    /// Dump the graph (when there is one) as `<basename>.hnsw.{graph,data}` in `dir`.
    pub(crate) fn dump_graph(&self, dir: &Path, basename: &str) -> Result<bool, IndexError> {
        let Some(g) = &self.graph else {
            return Ok(false);
        };
        let name = g.file_dump(dir, basename).map_err(|e| {
            IndexError::io(dir.join(basename), std::io::Error::other(e.to_string()))
        })?;
        if name != basename {
            return Err(IndexError::io(
                dir.join(basename),
                std::io::Error::other(format!(
                    "hnsw_rs wrote basename {name}, expected {basename}"
                )),
            ));
        }
        Ok(true)
    }

    /// Vector dimension.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of vectors.
    pub fn len(&self) -> usize {
        self.vectors.len() / self.dim
    }

    /// True when the index holds no vector (never, after a successful build).
    pub fn is_empty(&self) -> bool {
        self.vectors.is_empty()
    }

    /// Parameters it was built with.
    pub fn params(&self) -> &HnswParams {
        &self.params
    }

    /// Set the search-time `ef` (does not touch the graph).
    pub fn set_ef_search(&mut self, ef: usize) {
        self.params.ef_search = ef.max(1);
    }

    /// Whether a graph was built (`len ≥ exact_below`).
    pub fn has_graph(&self) -> bool {
        self.graph.is_some()
    }

    /// The normalised vector of `doc`; empty when out of range.
    pub fn vector(&self, doc: u32) -> &[f32] {
        let s = doc as usize * self.dim;
        self.vectors.get(s..s + self.dim).unwrap_or(&[])
    }

    /// All normalised vectors, row-major.
    pub fn vectors(&self) -> &[f32] {
        &self.vectors
    }

    /// Whether the vectors are read from a mapped file.
    pub fn vectors_mapped(&self) -> bool {
        self.vectors.is_mapped()
    }

    fn check_query(&self, query: &[f32]) -> Result<Vec<f32>, IndexError> {
        if query.len() != self.dim {
            return Err(IndexError::DimMismatch {
                what: "query".into(),
                expected: self.dim,
                got: query.len(),
            });
        }
        if query.iter().any(|x| !x.is_finite()) {
            return Err(IndexError::InvalidInput(
                "query vector has a non-finite value".into(),
            ));
        }
        let mut q = query.to_vec();
        normalize(&mut q);
        Ok(q)
    }

    /// Top-`k` by cosine similarity, optionally restricted to docs the
    /// filter admits. HNSW when a graph exists, exact otherwise; a selective
    /// filter searches exactly on the admitted set so no admitted hit is
    /// lost. A query of the wrong dimension yields no hits (see
    /// [`DenseIndex::try_search`] for the error).
    pub fn search(
        &self,
        query: &[f32],
        k: usize,
        filter: Option<&dyn Fn(u32) -> bool>,
    ) -> Vec<Hit> {
        self.try_search(query, k, filter).unwrap_or_default()
    }

    /// [`DenseIndex::search`] that reports a wrong query dimension.
    pub fn try_search(
        &self,
        query: &[f32],
        k: usize,
        filter: Option<&dyn Fn(u32) -> bool>,
    ) -> Result<Vec<Hit>, IndexError> {
        let q = self.check_query(query)?;
        if k == 0 {
            return Ok(Vec::new());
        }
        let Some(graph) = &self.graph else {
            return Ok(self.exact(&q, k, filter));
        };
        let ef = self.params.ef_search.max(k);
        match filter {
            None => match &self.flat {
                Some(flat) => {
                    let ids = flat.search(&q, ef, self.len(), |d| self.vector(d));
                    Ok(self.rescore(&q, ids.into_iter().map(|d| d as usize), k))
                }
                None => Ok(self.rescore(&q, graph.search(&q, k, ef).iter().map(|n| n.d_id), k)),
            },
            Some(f) => {
                let n = self.len();
                let admitted = (0..n as u32).filter(|&d| f(d)).count();
                if admitted == 0 {
                    return Ok(Vec::new());
                }
                if admitted as f32 <= self.params.filter_exact_fraction * n as f32 {
                    return Ok(self.exact(&q, k, Some(f)));
                }
                // Widen ef in proportion to how much the filter removes.
                let widen = (n as f32 / admitted as f32).ceil() as usize;
                let ef = ef.saturating_mul(widen).min(n);
                let hf = |id: &usize| f(*id as u32);
                let found = graph.search_filter(&q, k, ef, Some(&hf));
                let ids: Vec<usize> = found
                    .iter()
                    .map(|n| n.d_id)
                    .filter(|&d| f(d as u32))
                    .collect();
                if ids.len() < k.min(admitted) {
                    return Ok(self.exact(&q, k, Some(f)));
                }
                Ok(self.rescore(&q, ids.into_iter(), k))
            }
        }
    }

    /// Exact top-`k` by brute force (the recall reference).
    pub fn search_exact(
        &self,
        query: &[f32],
        k: usize,
        filter: Option<&dyn Fn(u32) -> bool>,
    ) -> Vec<Hit> {
        match self.check_query(query) {
            Ok(q) => self.exact(&q, k, filter),
            Err(_) => Vec::new(),
        }
    }

    fn exact(&self, q: &[f32], k: usize, filter: Option<&dyn Fn(u32) -> bool>) -> Vec<Hit> {
        let mut top = TopK::new(k);
        for (d, v) in self.vectors.chunks_exact(self.dim).enumerate() {
            let d = d as u32;
            if filter.is_some_and(|f| !f(d)) {
                continue;
            }
            top.push(d, dot(q, v));
        }
        top.into_sorted()
    }

    /// Exact cosine for HNSW candidates, in the deterministic order.
    fn rescore(&self, q: &[f32], ids: impl Iterator<Item = usize>, k: usize) -> Vec<Hit> {
        let mut hits: Vec<Hit> = ids
            .filter(|&d| d < self.len())
            .map(|d| Hit {
                doc: d as u32,
                score: dot(q, self.vector(d as u32)),
            })
            .collect();
        hits.sort_by(hit_order);
        hits.dedup_by_key(|h| h.doc);
        hits.truncate(k);
        hits
    }
}

/// The graph, inserted one vector after the other in document order:
/// hnsw_rs draws each node's layer from a generator seeded at creation, so
/// the same vectors give the same graph on every build (its
/// `parallel_insert_slice` interleaves the draws and the links by thread
/// timing: LegalQuAD's dense nDCG@10 moved between 0.725 and 0.733 across
/// runs of one binary).
fn build_graph(vectors: &[f32], dim: usize, n: usize, params: &HnswParams) -> Graph {
    let graph: Graph = Hnsw::new(params.m, n, MAX_LAYERS, params.ef_construction, CosineDist);
    for (i, v) in vectors.chunks_exact(dim).enumerate() {
        graph.insert_slice((v, i));
    }
    graph
}

fn load_leaked(io: &'static mut HnswIo) -> Result<Graph, String> {
    io.load_hnsw::<f32, CosineDist>().map_err(|e| e.to_string())
}

fn load_graph(dir: &Path, base: &str) -> Result<Graph, IndexError> {
    let path = dir.join(format!("{base}.hnsw.graph"));
    // hnsw_rs ties the graph's lifetime to its loader; the loader holds only
    // paths and options (no mmap is used), so leaking it costs a few hundred
    // bytes per load and gives a 'static graph.
    // hnsw_rs asserts on malformed dumps; checksums are verified before we get
    // here, but a panic must still not escape as one.
    let (d, b) = (dir.to_path_buf(), base.to_string());
    let res = std::panic::catch_unwind(move || {
        // hnsw_rs ties the graph's lifetime to its loader; the loader holds
        // only paths and options (no mmap is used), so leaking it costs a few
        // hundred bytes per load and gives a 'static graph.
        let io: &'static mut HnswIo = Box::leak(Box::new(HnswIo::new(&d, &b)));
        load_leaked(io)
    });
    match res {
        Ok(Ok(g)) => Ok(g),
        Ok(Err(e)) => Err(IndexError::corrupt(
            &path,
            format!("hnsw_rs could not load the graph: {e}"),
        )),
        Err(_) => Err(IndexError::corrupt(
            &path,
            "hnsw_rs panicked while loading the graph",
        )),
    }
}
