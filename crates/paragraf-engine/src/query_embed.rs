//! Query embedding under load: the questions that arrive while an encoder
//! pass runs share the next pass (continuous batching, as
//! text-embeddings-inference does), and recent questions come from an LRU
//! cache.
//!
//! Invariant: a question's vector does not depend on what else was in its
//! pass or in the cache. The encoder's last bits depend on how far an input
//! is padded, not on the batch size; so every question is padded to its
//! length rounded up to [`QUERY_PAD_MULTIPLE`] tokens — alone or batched —
//! and only questions of the same padded length share a pass (pinned by
//! `tests/engine.rs`). The cache key is the exact text the encoder sees
//! ([`normalize_query`]). So batching and caching change throughput, never a
//! ranking.
//!
//! Batching pays where a pass has fixed costs to share (a GPU); on a CPU
//! the default is no batching ([`QUERY_BATCH_MAX_CPU`]) and no padding.
//!
//! No fixed wait: when a batching thread is free, a question is embedded at
//! once; at low load the latency is the encoder's alone. One batching
//! thread per core: a pass of a few short questions keeps only part of the
//! machine busy (candle parallelises the GEMMs, not the norms and
//! activations), so two passes run side by side on two cores.

use crate::EngineError;
use lru::LruCache;
use paragraf_models::{Embedder, Embedding, TextKind};
use std::num::NonZeroUsize;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};

/// Most questions in one encoder pass on a GPU (`serve --embed-batch`).
pub const QUERY_BATCH_MAX: usize = 16;
/// The same on a CPU: no batching. Measured on the 2-core CPU with
/// multilingual-e5-small: 30 questions in one call took as long as one
/// after the other (1.42 s vs 1.46 s) — the encoder is GEMM-bound from a
/// single question on — and at 50 clients batching (with its padding) gave
/// 20.1 searches/s against 29.9 without (README).
pub const QUERY_BATCH_MAX_CPU: usize = 1;
/// Questions kept in the embedding cache (`serve --query-cache`).
pub const QUERY_CACHE_ENTRIES: usize = 1_024;
/// Questions are padded to a multiple of this many tokens, so that those of
/// similar length can share a pass without changing a bit of their vectors
/// (a 25-token question costs 32 tokens of encoder work).
pub const QUERY_PAD_MULTIPLE: usize = 8;

/// The text the encoder sees for a question: trimmed, runs of whitespace
/// made one space. Also the cache key, so two spellings that differ only
/// in spacing share one vector.
pub fn normalize_query(q: &str) -> String {
    q.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Counters of the query embedder (`paragraf bench`, `/readyz`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct QueryEmbedStats {
    /// Questions asked for.
    pub queries: u64,
    /// Served from the cache.
    pub cache_hits: u64,
    /// Encoder passes run for questions.
    pub passes: u64,
    /// Questions embedded in those passes (after the cache).
    pub embedded: u64,
}

struct Request {
    text: String,
    /// Padded length in tokens ([`QueryEmbedder::padded_len`]).
    len: usize,
    reply: SyncSender<Result<Embedding, String>>,
}

/// Embeds questions, batching concurrent ones and caching recent ones.
pub struct QueryEmbedder {
    embedder: Arc<dyn Embedder>,
    cache: Option<Mutex<LruCache<String, Embedding>>>,
    /// To the batching thread; `None` when batching is off (`max` 1).
    batcher: Option<Sender<Request>>,
    queries: AtomicU64,
    cache_hits: AtomicU64,
    passes: Arc<AtomicU64>,
    embedded: Arc<AtomicU64>,
}

impl QueryEmbedder {
    /// `batch_max` questions per pass at most (1: no batching thread, each
    /// question its own pass on the caller's thread); `cache_entries` 0
    /// turns the cache off.
    pub fn new(
        embedder: Arc<dyn Embedder>,
        batch_max: usize,
        cache_entries: usize,
    ) -> std::io::Result<Self> {
        let cores = candle_core::utils::get_num_threads().max(1);
        Self::with_threads(embedder, batch_max, cache_entries, cores)
    }

    /// [`Self::new`] with `threads` batching threads (one per core there).
    pub fn with_threads(
        embedder: Arc<dyn Embedder>,
        batch_max: usize,
        cache_entries: usize,
        threads: usize,
    ) -> std::io::Result<Self> {
        let passes = Arc::new(AtomicU64::new(0));
        let embedded = Arc::new(AtomicU64::new(0));
        let batcher = if batch_max > 1 {
            let (tx, rx) = channel::<Request>();
            let rx = Arc::new(Mutex::new(rx));
            for i in 0..threads.max(1) {
                let (e, p, n, rx) = (
                    embedder.clone(),
                    passes.clone(),
                    embedded.clone(),
                    rx.clone(),
                );
                std::thread::Builder::new()
                    .name(format!("paragraf-query-embed-{i}"))
                    .spawn(move || run_batches(&*e, &rx, batch_max, &p, &n))?;
            }
            Some(tx)
        } else {
            None
        };
        Ok(QueryEmbedder {
            embedder,
            cache: NonZeroUsize::new(cache_entries).map(|n| Mutex::new(LruCache::new(n))),
            batcher,
            queries: AtomicU64::new(0),
            cache_hits: AtomicU64::new(0),
            passes,
            embedded,
        })
    }

    /// The vector of one question (see the module doc).
    pub fn embed(&self, query: &str) -> Result<Embedding, EngineError> {
        self.queries.fetch_add(1, Ordering::Relaxed);
        let text = normalize_query(query);
        if let Some(c) = &self.cache {
            let hit = c
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&text)
                .cloned();
            if let Some(e) = hit {
                self.cache_hits.fetch_add(1, Ordering::Relaxed);
                return Ok(e);
            }
        }
        let e = match &self.batcher {
            Some(tx) => {
                let len = self.padded_len(&text)?;
                let (reply, answer) = sync_channel(1);
                let sent = tx.send(Request {
                    text: text.clone(),
                    len,
                    reply,
                });
                match sent.ok().and_then(|()| answer.recv().ok()) {
                    Some(Ok(e)) => e,
                    Some(Err(message)) => return Err(batch_error(message)),
                    None => return Err(batch_error("the query batcher stopped".into())),
                }
            }
            None => {
                self.passes.fetch_add(1, Ordering::Relaxed);
                self.embedded.fetch_add(1, Ordering::Relaxed);
                // alone every time: no padding needed for equal vectors
                one(&*self.embedder, &text, 0)?
            }
        };
        if let Some(c) = &self.cache {
            c.lock()
                .unwrap_or_else(|p| p.into_inner())
                .put(text, e.clone());
        }
        Ok(e)
    }

    /// The length a question is padded to: its tokens (within the
    /// encoder's limit) rounded up to [`QUERY_PAD_MULTIPLE`].
    fn padded_len(&self, text: &str) -> Result<usize, EngineError> {
        let max = self.embedder.info().max_tokens.max(1);
        let n = self
            .embedder
            .token_count(text, TextKind::Query)?
            .clamp(1, max);
        Ok((n.div_ceil(QUERY_PAD_MULTIPLE) * QUERY_PAD_MULTIPLE).clamp(n, max))
    }

    /// Counters so far.
    pub fn stats(&self) -> QueryEmbedStats {
        QueryEmbedStats {
            queries: self.queries.load(Ordering::Relaxed),
            cache_hits: self.cache_hits.load(Ordering::Relaxed),
            passes: self.passes.load(Ordering::Relaxed),
            embedded: self.embedded.load(Ordering::Relaxed),
        }
    }
}

fn batch_error(message: String) -> EngineError {
    EngineError::Other(format!("query embedding: {message}"))
}

fn one(e: &dyn Embedder, text: &str, len: usize) -> Result<Embedding, EngineError> {
    e.embed_padded(&[text], TextKind::Query, len)?
        .embeddings
        .into_iter()
        .next()
        .ok_or_else(|| batch_error("the embedder returned no vector".into()))
}

/// A batching thread: take the first waiting question and everything else
/// that waits (up to `max`), embed each group of equal padded length in one
/// call, answer each; ends when the [`QueryEmbedder`] is dropped.
fn run_batches(
    e: &dyn Embedder,
    rx: &Mutex<Receiver<Request>>,
    max: usize,
    passes: &AtomicU64,
    embedded: &AtomicU64,
) {
    loop {
        let mut batch = {
            let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
            let Ok(first) = rx.recv() else {
                return;
            };
            let mut batch = vec![first];
            while batch.len() < max {
                match rx.try_recv() {
                    Ok(r) => batch.push(r),
                    Err(_) => break,
                }
            }
            batch
        };
        batch.sort_by(|a, b| (a.len, &a.text).cmp(&(b.len, &b.text)));
        let mut rest = &mut batch[..];
        while !rest.is_empty() {
            let n = rest.iter().take_while(|r| r.len == rest[0].len).count();
            let (group, tail) = rest.split_at_mut(n);
            run_group(e, group, passes, embedded);
            rest = tail;
        }
    }
}

/// One call for questions of equal padded length (sorted by text; the same
/// question twice is embedded once).
fn run_group(e: &dyn Embedder, group: &[Request], passes: &AtomicU64, embedded: &AtomicU64) {
    let len = group[0].len;
    let mut texts: Vec<&str> = group.iter().map(|r| r.text.as_str()).collect();
    texts.dedup();
    passes.fetch_add(1, Ordering::Relaxed);
    embedded.fetch_add(texts.len() as u64, Ordering::Relaxed);
    let out = std::panic::catch_unwind(AssertUnwindSafe(|| {
        e.embed_padded(&texts, TextKind::Query, len)
    }));
    match out {
        Ok(Ok(b)) if b.embeddings.len() == texts.len() => {
            for r in group {
                let i = texts.binary_search(&r.text.as_str()).unwrap_or(0);
                let _ = r.reply.send(Ok(b.embeddings[i].clone()));
            }
        }
        // a failed pass: each question alone, so one bad input fails only
        // its own request
        _ => {
            for r in group {
                let res = std::panic::catch_unwind(AssertUnwindSafe(|| one(e, &r.text, len)))
                    .unwrap_or_else(|_| Err(batch_error("the encoder panicked".into())))
                    .map_err(|err| err.to_string());
                let _ = r.reply.send(res);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use paragraf_models::{EmbedBatch, EmbedderInfo, ModelError};
    use std::sync::Barrier;

    /// A stand-in encoder: the vector is a function of the text alone;
    /// counts calls and the inputs per call.
    struct Counting {
        info: EmbedderInfo,
        calls: Mutex<Vec<usize>>,
        /// Holds the first pass until the test has queued the others.
        gate: Option<Barrier>,
    }

    impl Embedder for Counting {
        fn info(&self) -> &EmbedderInfo {
            &self.info
        }
        fn embed(&self, texts: &[&str], _: TextKind) -> Result<EmbedBatch, ModelError> {
            let first = {
                let mut c = self.calls.lock().unwrap();
                c.push(texts.len());
                c.len() == 1
            };
            if let (true, Some(g)) = (first, &self.gate) {
                g.wait();
            }
            if texts.iter().any(|t| t.contains("kaputt")) {
                return Err(ModelError::InvalidInput("kaputt".into()));
            }
            Ok(EmbedBatch {
                embeddings: texts
                    .iter()
                    .map(|t| Embedding {
                        dense: vec![
                            t.len() as f32,
                            t.chars().filter(|c| *c == 'e').count() as f32,
                        ],
                        sparse: None,
                        colbert: None,
                    })
                    .collect(),
                truncated: 0,
            })
        }
        fn token_count(&self, text: &str, _: TextKind) -> Result<usize, ModelError> {
            Ok(text.split_whitespace().count())
        }
    }

    fn counting(hold_first: bool) -> Arc<Counting> {
        Arc::new(Counting {
            info: EmbedderInfo {
                name: "counting".into(),
                revision: "0".into(),
                dim: 2,
                max_tokens: 512,
                dtype: "f32".into(),
                has_sparse: false,
                has_colbert: false,
                layers: 1,
                intermediate: 1,
            },
            calls: Mutex::new(Vec::new()),
            gate: hold_first.then(|| Barrier::new(2)),
        })
    }

    #[test]
    fn concurrent_questions_share_a_pass_and_keep_their_own_vectors() {
        let enc = counting(true);
        let qe = Arc::new(QueryEmbedder::with_threads(enc.clone(), 16, 0, 1).unwrap());
        // the first question's pass is held at the barrier; four more queue
        let first = {
            let qe = qe.clone();
            std::thread::spawn(move || qe.embed("erste Frage").unwrap())
        };
        while enc.calls.lock().unwrap().is_empty() {
            std::thread::yield_now();
        }
        let others: Vec<_> = ["zwei", "drei  Fragen", "drei Fragen", "vier eee"]
            .into_iter()
            .map(|q| {
                let qe = qe.clone();
                std::thread::spawn(move || (q, qe.embed(q).unwrap()))
            })
            .collect();
        while qe.stats().queries < 5 {
            std::thread::yield_now();
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        enc.gate.as_ref().unwrap().wait();
        assert_eq!(first.join().unwrap().dense, vec![11.0, 3.0]);
        for h in others {
            let (q, e) = h.join().unwrap();
            let n = normalize_query(q);
            assert_eq!(e.dense[0], n.len() as f32, "{q}");
        }
        let calls = enc.calls.lock().unwrap().clone();
        // one pass for the first, one for the four that waited (the two
        // spellings of "drei Fragen" are one text)
        assert_eq!(calls, vec![1, 3], "{calls:?}");
        let s = qe.stats();
        assert_eq!((s.queries, s.passes, s.embedded), (5, 2, 4));
    }

    #[test]
    fn a_bad_question_fails_alone() {
        let enc = counting(false);
        let qe = QueryEmbedder::new(enc.clone(), 16, 0).unwrap();
        assert!(qe.embed("kaputt").is_err());
        assert!(qe.embed("heil").is_ok());
    }

    #[test]
    fn the_cache_answers_repeats_and_respellings() {
        let enc = counting(false);
        let qe = QueryEmbedder::new(enc.clone(), 1, 4).unwrap();
        let a = qe.embed("Muss  ich  das?").unwrap();
        let b = qe.embed(" Muss ich das? ").unwrap();
        assert_eq!(a, b);
        let s = qe.stats();
        assert_eq!((s.queries, s.cache_hits, s.passes), (2, 1, 1));
    }
}
