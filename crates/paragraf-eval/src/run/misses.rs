//! Where the misses of a stage lie (aggregates only).

use super::QueryResult;
use serde::{Deserialize, Serialize};

/// Where the misses of a stage lie: of the scored questions whose primary
/// hit failed, those whose first norm is of an expected norm's law (the law
/// found, another of its norms first), and those whose expected norm stands
/// lower in the returned list or not in it at all (`in_list` + `absent` =
/// `total`). Aggregates only, so a held-out set can be read this way.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Misses {
    pub total: usize,
    pub law_first: usize,
    pub in_list: usize,
    pub absent: usize,
}

impl Misses {
    pub(super) fn of(scored: &[&QueryResult]) -> Misses {
        let mut m = Misses::default();
        for r in scored.iter().filter(|r| r.hit_at_1 == Some(false)) {
            m.total += 1;
            m.law_first += usize::from(r.law_first == Some(true));
            if r.first_relevant_rank.is_some() {
                m.in_list += 1;
            } else {
                m.absent += 1;
            }
        }
        m
    }
}
