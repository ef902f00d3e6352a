//! Bounded top-k selection with a deterministic order: score descending,
//! ties broken by doc id ascending.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// One search hit: a doc id (position in the chunk store) and its score.
///
/// For the dense index `score` is the cosine similarity; for BM25 the BM25
/// score; for the sparse field the dot product.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    pub doc: u32,
    pub score: f32,
}

/// `Ordering` of hits in result order: better first (higher score, then lower doc id).
pub fn hit_order(a: &Hit, b: &Hit) -> Ordering {
    b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc))
}

/// Heap entry ordered so that the heap's maximum is the *worst* kept hit.
#[derive(Clone, Copy)]
struct Worst(Hit);

impl PartialEq for Worst {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Worst {}
impl PartialOrd for Worst {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Worst {
    fn cmp(&self, other: &Self) -> Ordering {
        hit_order(&self.0, &other.0)
    }
}

/// A bounded heap that keeps the `k` best hits seen so far.
pub struct TopK {
    k: usize,
    heap: BinaryHeap<Worst>,
}

impl TopK {
    /// An empty collector for `k` hits.
    pub fn new(k: usize) -> Self {
        TopK {
            k,
            heap: BinaryHeap::with_capacity(k.saturating_add(1).min(1 << 16)),
        }
    }

    /// The score a new hit must beat (ties resolved by doc id) once full;
    /// `f32::NEG_INFINITY` while not full.
    #[inline]
    pub fn threshold(&self) -> f32 {
        if self.heap.len() < self.k {
            f32::NEG_INFINITY
        } else {
            self.heap.peek().map_or(f32::NEG_INFINITY, |w| w.0.score)
        }
    }

    /// Offer a hit; kept when it ranks among the best `k`.
    #[inline]
    pub fn push(&mut self, doc: u32, score: f32) {
        if self.k == 0 {
            return;
        }
        let hit = Hit { doc, score };
        if self.heap.len() < self.k {
            self.heap.push(Worst(hit));
        } else if let Some(worst) = self.heap.peek() {
            if hit_order(&hit, &worst.0) == Ordering::Less {
                self.heap.pop();
                self.heap.push(Worst(hit));
            }
        }
    }

    /// The kept hits in result order.
    pub fn into_sorted(self) -> Vec<Hit> {
        let mut v: Vec<Hit> = self.heap.into_iter().map(|w| w.0).collect();
        v.sort_by(hit_order);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_best_and_breaks_ties_by_doc() {
        let mut t = TopK::new(3);
        for (d, s) in [(5, 1.0), (1, 2.0), (3, 1.0), (2, 1.0), (9, 0.5), (0, 2.0)] {
            t.push(d, s);
        }
        let docs: Vec<u32> = t.into_sorted().iter().map(|h| h.doc).collect();
        assert_eq!(docs, vec![0, 1, 2]);
    }

    #[test]
    fn zero_k_is_empty() {
        let mut t = TopK::new(0);
        t.push(1, 1.0);
        assert!(t.into_sorted().is_empty());
    }
}
