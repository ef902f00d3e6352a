//! Retrieval over a list of passages outside the legal corpus (LegalQuAD's
//! contexts): the index crate's BM25 and HNSW and the rank crate's fusion —
//! the same stages [`crate::Engine::search`] fuses — over chunks the caller
//! builds. Passage vectors are cached in a resumable checkpoint (the index
//! build's embedding step), so a second run embeds nothing.

use crate::build::{embed_resumable, BuildEvent};
use crate::EngineError;
use paragraf_index::{
    AnalyzerConfig, DenseIndex, EmbeddingCheckpoint, Hit, HnswParams, InvertedIndex,
};
use paragraf_models::{load_embedder, DeviceChoice, Embedder, Registry, ResolveOptions, TextKind};
use paragraf_rank::{analyze_query, rank, Candidate, Lexicon, RankParams, Stage};
use paragraf_types::vector::dot;
use paragraf_types::Chunk;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Candidates each stage contributes before fusion (and the length of every
/// returned list).
pub const PASSAGE_CANDIDATES: usize = 100;

/// Passages to embed per encoder call while filling the cache.
const EMBED_BATCH: usize = 16;

/// BM25 + dense + fused search over `chunks`; results are the chunks'
/// `norm` labels (a document), each once, best first.
pub struct PassageSearch<'a> {
    chunks: &'a [Chunk],
    inverted: InvertedIndex,
    dense: DenseIndex,
    embedder: Box<dyn Embedder>,
    params: RankParams,
}

impl<'a> PassageSearch<'a> {
    /// Index `chunks`: BM25 at once, vectors from `cache` where it holds
    /// them (same id, same text) and from the embedder `embedder` for the
    /// rest (appended to `cache` batch by batch). `params`: the fusion's rank
    /// parameters (see [`crate::params`]).
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        chunks: &'a [Chunk],
        reg: &Registry,
        embedder: &str,
        resolve: &ResolveOptions,
        device: DeviceChoice,
        cache: &Path,
        params: RankParams,
        progress: &dyn Fn(BuildEvent),
    ) -> Result<Self, EngineError> {
        let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
        let inverted = InvertedIndex::build(&texts, None, &AnalyzerConfig::default())?;
        let dev = crate::models::open_device(device);
        let embedder = load_embedder(reg, embedder, resolve, &dev)?;
        let dim = embedder.info().dim;
        if let Some(parent) = cache.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| EngineError::Other(format!("{}: {e}", parent.display())))?;
        }
        let mut ckpt = EmbeddingCheckpoint::open(cache, dim)?;
        let ids: Vec<String> = chunks.iter().map(|c| c.id.as_str().to_string()).collect();
        let embedded = embed_resumable(
            embedder.as_ref(),
            &mut ckpt,
            &ids,
            &texts,
            EMBED_BATCH,
            "embed",
            progress,
        )?;
        ckpt.flush()?;
        let dense = DenseIndex::build(embedded.vectors, dim, &HnswParams::default())?;
        Ok(PassageSearch {
            chunks,
            inverted,
            dense,
            embedder,
            params,
        })
    }

    /// The embedder's name.
    pub fn embedder_name(&self) -> &str {
        &self.embedder.info().name
    }

    fn embed_query(&self, q: &str) -> Result<Vec<f32>, EngineError> {
        let out = self.embedder.embed(&[q], TextKind::Query)?;
        out.embeddings
            .into_iter()
            .next()
            .map(|e| e.dense)
            .ok_or_else(|| EngineError::Other("the embedder returned no vector".into()))
    }

    /// Documents of `hits` in order, each once.
    fn documents(&self, hits: impl IntoIterator<Item = u32>) -> Vec<String> {
        let mut seen = HashSet::new();
        hits.into_iter()
            .map(|d| self.chunks[d as usize].norm.clone())
            .filter(|n| seen.insert(n.clone()))
            .collect()
    }

    /// BM25 alone.
    pub fn bm25(&self, q: &str) -> Vec<String> {
        let hits = self.inverted.bm25(q, PASSAGE_CANDIDATES, None);
        self.documents(hits.into_iter().map(|h: Hit| h.doc))
    }

    /// Dense (HNSW) alone.
    pub fn dense(&self, q: &str) -> Result<Vec<String>, EngineError> {
        let qv = self.embed_query(q)?;
        let hits = self.dense.search(&qv, PASSAGE_CANDIDATES, None);
        Ok(self.documents(hits.into_iter().map(|h| h.doc)))
    }

    /// Both stages' candidates fused by the rank crate ([`Stage::Fused`]);
    /// a BM25 candidate the HNSW search missed gets its exact dot product.
    pub fn fused(&self, q: &str) -> Result<Vec<String>, EngineError> {
        let qv = self.embed_query(q)?;
        let mut cand: HashMap<u32, (Option<f32>, Option<f32>)> = HashMap::new();
        for h in self.dense.search(&qv, PASSAGE_CANDIDATES, None) {
            cand.entry(h.doc).or_default().0 = Some(h.score);
        }
        for h in self.inverted.bm25(q, PASSAGE_CANDIDATES, None) {
            cand.entry(h.doc).or_default().1 = Some(h.score);
        }
        let mut docs: Vec<u32> = cand.keys().copied().collect();
        docs.sort_unstable();
        let analysis = analyze_query(q, &[], Lexicon::builtin());
        // the question's words in a row, as the legal search reads them
        let pairs = if self.params.pair_lexical_gain > 0.0 {
            crate::phrase::question_pairs(self.inverted.analyzer(), q, analysis.lang)
        } else {
            Vec::new()
        };
        let cands: Vec<Candidate> = docs
            .iter()
            .map(|&d| {
                let (ds, ls) = cand[&d];
                Candidate {
                    chunk: &self.chunks[d as usize],
                    dense: ds.or_else(|| Some(dot(&qv, self.dense.vector(d)))),
                    lexical: ls,
                    sparse: None,
                    heading: None,
                    exact: false,
                    pairs: ls
                        .map(|_| crate::phrase::pair_share(&self.chunks[d as usize].text, &pairs)),
                }
            })
            .collect();
        let ranked = rank(
            &analysis,
            &cands,
            &self.params,
            Stage::Fused,
            PASSAGE_CANDIDATES,
        );
        let mut seen = HashSet::new();
        Ok(ranked
            .into_iter()
            .map(|r| r.norm)
            .filter(|n| seen.insert(n.clone()))
            .collect())
    }
}
