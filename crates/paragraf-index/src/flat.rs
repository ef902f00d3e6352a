//! A compact, read-only copy of the HNSW graph for unfiltered search.
//!
//! hnsw_rs builds and persists the graph; its search path pays for a
//! SipHash map of visited points, an `Arc` per candidate and a lock per
//! neighbour list. Search here walks the same graph from flat adjacency
//! arrays (one CSR per layer), marks visited nodes in a reused
//! generation-stamped array and keeps plain `(similarity, id)` heaps. Same
//! algorithm (greedy descent through the upper layers, beam of width `ef` on
//! layer 0), same graph, so recall matches; ties break by id, so the result
//! is deterministic.

use crate::topk::{hit_order, Hit};
use hnsw_rs::prelude::Hnsw;
use paragraf_types::vector::dot;
use std::cell::RefCell;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// Neighbour lists of one layer: `ids[offsets[d]..offsets[d + 1]]`.
#[derive(Debug, Clone, Default)]
struct Csr {
    offsets: Vec<u32>,
    ids: Vec<u32>,
}

impl Csr {
    fn neighbours(&self, d: u32) -> &[u32] {
        let d = d as usize;
        match (self.offsets.get(d), self.offsets.get(d + 1)) {
            (Some(&a), Some(&b)) => &self.ids[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// The graph as flat arrays; `layers[0]` is the bottom layer.
#[derive(Debug, Clone)]
pub(crate) struct FlatGraph {
    entry: u32,
    layers: Vec<Csr>,
}

/// `(similarity, id)` ordered by similarity, then by *lower* id first.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Scored(f32, u32);

impl Eq for Scored {}
impl PartialOrd for Scored {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Scored {
    fn hit(self) -> Hit {
        Hit {
            doc: self.1,
            score: self.0,
        }
    }
}
impl Ord for Scored {
    /// Greater = better in the index's one result order ([`hit_order`]).
    fn cmp(&self, other: &Self) -> Ordering {
        hit_order(&other.hit(), &self.hit())
    }
}

thread_local! {
    /// Visit stamps per node and the current stamp, reused across queries.
    static VISITED: RefCell<(Vec<u32>, u32)> = const { RefCell::new((Vec::new(), 0)) };
}

impl FlatGraph {
    /// Copy the adjacency of `graph` (ids are the data ids `0..n`).
    pub(crate) fn from_hnsw<D>(graph: &Hnsw<'_, f32, D>, n: usize) -> FlatGraph
    where
        D: hnsw_rs::anndists::dist::Distance<f32> + Send + Sync,
    {
        let mut lists: Vec<Vec<Vec<u32>>> = Vec::new(); // [node][layer] -> ids
        lists.resize_with(n, Vec::new);
        let mut top: Option<(usize, u32)> = None; // (level, id) of the entry
        for p in graph.get_point_indexation() {
            let id = p.get_origin_id();
            if id >= n {
                continue;
            }
            let level = p.get_point_id().0 as usize;
            let id32 = id as u32;
            top = match top {
                Some((l, e)) if l > level || (l == level && e < id32) => Some((l, e)),
                _ => Some((level, id32)),
            };
            lists[id] = p
                .get_neighborhood_id()
                .into_iter()
                .take(level + 1)
                .map(|layer| {
                    layer
                        .into_iter()
                        .map(|nb| nb.d_id as u32)
                        .filter(|&d| (d as usize) < n)
                        .collect()
                })
                .collect();
        }
        let levels = top.map_or(1, |(l, _)| l + 1);
        let mut layers = Vec::with_capacity(levels);
        for l in 0..levels {
            let mut csr = Csr {
                offsets: Vec::with_capacity(n + 1),
                ids: Vec::new(),
            };
            csr.offsets.push(0);
            for node in &lists {
                if let Some(ids) = node.get(l) {
                    csr.ids.extend_from_slice(ids);
                }
                csr.offsets.push(csr.ids.len() as u32);
            }
            layers.push(csr);
        }
        FlatGraph {
            entry: top.map_or(0, |(_, e)| e),
            layers,
        }
    }

    /// Up to `ef` (≥ k) nearest ids to the normalised `q` by dot product;
    /// `vector(d)` returns stored vector `d`.
    pub(crate) fn search<'v>(
        &self,
        q: &[f32],
        ef: usize,
        n: usize,
        vector: impl Fn(u32) -> &'v [f32],
    ) -> Vec<u32> {
        if n == 0 {
            return Vec::new();
        }
        let sim = |d: u32| dot(q, vector(d));
        let mut cur = self.entry;
        let mut cur_s = sim(cur);
        for layer in self.layers.iter().skip(1).rev() {
            loop {
                let mut moved = false;
                for &nb in layer.neighbours(cur) {
                    let s = sim(nb);
                    if Scored(s, nb) > Scored(cur_s, cur) {
                        cur = nb;
                        cur_s = s;
                        moved = true;
                    }
                }
                if !moved {
                    break;
                }
            }
        }
        let bottom = &self.layers[0];
        let ef = ef.max(1);
        VISITED.with(|cell| {
            let mut guard = cell.borrow_mut();
            let (marks, stamp) = &mut *guard;
            if marks.len() < n {
                marks.resize(n, 0);
            }
            *stamp = stamp.wrapping_add(1);
            if *stamp == 0 {
                marks.iter_mut().for_each(|m| *m = 0);
                *stamp = 1;
            }
            let stamp = *stamp;
            // Best candidate first; worst kept result on top.
            let mut candidates: BinaryHeap<Scored> = BinaryHeap::with_capacity(ef * 4);
            let mut results: BinaryHeap<Reverse<Scored>> = BinaryHeap::with_capacity(ef + 1);
            marks[cur as usize] = stamp;
            candidates.push(Scored(cur_s, cur));
            results.push(Reverse(Scored(cur_s, cur)));
            while let Some(c) = candidates.pop() {
                if results.len() >= ef {
                    if let Some(Reverse(worst)) = results.peek() {
                        if c < *worst {
                            break;
                        }
                    }
                }
                for &nb in bottom.neighbours(c.1) {
                    let m = &mut marks[nb as usize];
                    if *m == stamp {
                        continue;
                    }
                    *m = stamp;
                    let s = Scored(sim(nb), nb);
                    let admit = results.len() < ef
                        || results.peek().is_some_and(|Reverse(worst)| s > *worst);
                    if admit {
                        candidates.push(s);
                        results.push(Reverse(s));
                        if results.len() > ef {
                            results.pop();
                        }
                    }
                }
            }
            results.into_iter().map(|Reverse(s)| s.1).collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scored_orders_by_similarity_then_lower_id() {
        assert!(Scored(0.9, 5) > Scored(0.8, 1));
        assert!(Scored(0.8, 1) > Scored(0.8, 2));
        let mut v = vec![Scored(0.5, 3), Scored(0.9, 2), Scored(0.5, 1)];
        v.sort();
        assert_eq!(v, vec![Scored(0.5, 3), Scored(0.5, 1), Scored(0.9, 2)]);
    }

    #[test]
    fn csr_out_of_range_is_empty() {
        let c = Csr {
            offsets: vec![0, 2, 3],
            ids: vec![1, 2, 0],
        };
        assert_eq!(c.neighbours(0), &[1, 2]);
        assert_eq!(c.neighbours(1), &[0]);
        assert!(c.neighbours(2).is_empty());
        assert!(c.neighbours(99).is_empty());
    }
}
