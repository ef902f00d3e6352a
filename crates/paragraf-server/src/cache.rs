//! The answer cache: a repeated question is answered from memory instead of
//! running the model again. Bounded (least recently used entry goes first),
//! keyed by everything that shapes an answer — the request (question,
//! `top_k`, filters, model, `max_tokens`) and the identity of the index and
//! models the backend serves ([`crate::Backend::cache_identity`]) — and
//! emptied when that identity changes. Only complete answers are kept: no
//! error, no timeout, no client that left half-way.

use crate::backend::AnswerRequest;
use paragraf_types::SearchResponse;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

/// What a cached answer replays: the events of the original run.
#[derive(Debug, Clone)]
pub(crate) struct CachedAnswer {
    /// The `results` event.
    pub results: SearchResponse,
    /// The gated `sentence` events, in order.
    pub sentences: Vec<String>,
    /// The `final` event.
    pub last: SearchResponse,
}

#[derive(Default)]
struct Inner {
    /// The backend identity the entries belong to.
    identity: String,
    entries: HashMap<String, Arc<CachedAnswer>>,
    /// Keys, least recently used first.
    order: VecDeque<String>,
}

/// Bounded LRU of complete answers (see the module doc).
pub(crate) struct AnswerCache {
    capacity: usize,
    inner: Mutex<Inner>,
}

impl AnswerCache {
    /// A cache of at most `capacity` answers; 0 turns it off.
    pub(crate) fn new(capacity: usize) -> Self {
        AnswerCache {
            capacity,
            inner: Mutex::new(Inner::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// True when answers are cached at all.
    pub(crate) fn enabled(&self) -> bool {
        self.capacity > 0
    }

    /// The key of a request: the request's own fields as JSON (question
    /// exactly as asked, filters, model, budget). The identity is checked
    /// separately, so one change of index empties the whole cache.
    pub(crate) fn key(req: &AnswerRequest) -> String {
        serde_json::to_string(req).unwrap_or_else(|_| req.query.clone())
    }

    /// Drop every entry when the backend's identity changed.
    fn check_identity(&self, g: &mut Inner, identity: &str) {
        if g.identity != identity {
            g.entries.clear();
            g.order.clear();
            g.identity = identity.to_string();
        }
    }

    /// The cached answer of `key` under `identity`, now the most recently used.
    pub(crate) fn get(&self, identity: &str, key: &str) -> Option<Arc<CachedAnswer>> {
        if !self.enabled() {
            return None;
        }
        let mut g = self.lock();
        self.check_identity(&mut g, identity);
        let hit = g.entries.get(key).cloned()?;
        if let Some(i) = g.order.iter().position(|k| k == key) {
            let k = g.order.remove(i).unwrap_or_default();
            g.order.push_back(k);
        }
        Some(hit)
    }

    /// Keep a complete answer; the least recently used one goes when full.
    pub(crate) fn put(&self, identity: &str, key: String, answer: CachedAnswer) {
        if !self.enabled() {
            return;
        }
        let mut g = self.lock();
        self.check_identity(&mut g, identity);
        if g.entries.insert(key.clone(), Arc::new(answer)).is_some() {
            g.order.retain(|k| k != &key);
        }
        g.order.push_back(key);
        while g.order.len() > self.capacity {
            if let Some(old) = g.order.pop_front() {
                g.entries.remove(&old);
            }
        }
    }

    /// Entries held.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(q: &str) -> CachedAnswer {
        let r = SearchResponse {
            query: q.into(),
            ..SearchResponse::default()
        };
        CachedAnswer {
            results: r.clone(),
            sentences: vec![format!("{q}.")],
            last: r,
        }
    }

    fn req(q: &str) -> AnswerRequest {
        AnswerRequest {
            query: q.into(),
            top_k: None,
            model: None,
            max_tokens: None,
            filters: None,
        }
    }

    #[test]
    fn least_recently_used_goes_first() {
        let c = AnswerCache::new(2);
        c.put("idx", AnswerCache::key(&req("a")), answer("a"));
        c.put("idx", AnswerCache::key(&req("b")), answer("b"));
        assert!(c.get("idx", &AnswerCache::key(&req("a"))).is_some());
        c.put("idx", AnswerCache::key(&req("c")), answer("c"));
        assert_eq!(c.len(), 2);
        assert!(c.get("idx", &AnswerCache::key(&req("b"))).is_none());
        assert!(c.get("idx", &AnswerCache::key(&req("a"))).is_some());
        assert!(c.get("idx", &AnswerCache::key(&req("c"))).is_some());
    }

    #[test]
    fn every_field_of_the_request_is_part_of_the_key() {
        let base = AnswerCache::key(&req("a"));
        let mut r = req("a");
        r.top_k = Some(3);
        assert_ne!(AnswerCache::key(&r), base);
        let mut r = req("a");
        r.model = Some("m".into());
        assert_ne!(AnswerCache::key(&r), base);
        let mut r = req("a");
        r.max_tokens = Some(10);
        assert_ne!(AnswerCache::key(&r), base);
        let mut r = req("a");
        r.filters = Some(crate::SearchFilters {
            regulations: vec!["BDSG".into()],
            ..Default::default()
        });
        assert_ne!(AnswerCache::key(&r), base);
    }

    #[test]
    fn a_new_index_empties_the_cache() {
        let c = AnswerCache::new(4);
        let k = AnswerCache::key(&req("a"));
        c.put("index 1", k.clone(), answer("a"));
        assert!(c.get("index 1", &k).is_some());
        assert!(c.get("index 2", &k).is_none());
        assert_eq!(c.len(), 0);
    }

    #[test]
    fn capacity_zero_keeps_nothing() {
        let c = AnswerCache::new(0);
        let k = AnswerCache::key(&req("a"));
        c.put("idx", k.clone(), answer("a"));
        assert!(c.get("idx", &k).is_none());
    }
}
