//! Batch evaluation in shards: which questions a shard runs, and the merge
//! of the shards' reports back into the report of one unsharded run.

use super::{stage_report, EvalReport, ReportMeta};
use crate::error::EvalError;
use crate::golden::GoldenQuery;
use serde::{Deserialize, Serialize};

/// Shard `index` of `count` (0-based): the questions whose position in the
/// golden file is `index` modulo `count`, in file order, so shards of any
/// size stay balanced by category order and merge back by position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
    /// Questions of the whole golden set.
    pub total: usize,
}

impl std::str::FromStr for Shard {
    type Err = EvalError;
    /// `i/n` with 1 ≤ i ≤ n (as people count shards); `total` is filled by
    /// [`shard_of`].
    fn from_str(s: &str) -> Result<Shard, EvalError> {
        let bad = |m: &str| EvalError::Shard {
            what: format!("--shard {s}"),
            message: m.to_string(),
        };
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| bad("expected i/n, e.g. 1/4"))?;
        let i: usize = i.trim().parse().map_err(|_| bad("i is not a number"))?;
        let n: usize = n.trim().parse().map_err(|_| bad("n is not a number"))?;
        if n == 0 || i == 0 || i > n {
            return Err(bad("need 1 ≤ i ≤ n"));
        }
        Ok(Shard {
            index: i - 1,
            count: n,
            total: 0,
        })
    }
}

/// The questions of `shard` (its `total` set to the golden set's size).
pub fn shard_of(golden: &[GoldenQuery], shard: Shard) -> (Vec<GoldenQuery>, Shard) {
    let part = golden
        .iter()
        .enumerate()
        .filter(|(p, _)| p % shard.count == shard.index)
        .map(|(_, q)| q.clone())
        .collect();
    (
        part,
        Shard {
            total: golden.len(),
            ..shard
        },
    )
}

/// One stage's report from its per-question results (aggregate, by language).
/// The reports of every shard of one run merged into the report of the
/// whole run: questions back in golden-file order, aggregates recomputed
/// from them (the same figures an unsharded run gives, latency aside),
/// wall time the longest shard's (shards run side by side), start the
/// earliest. Refused (naming the shard) unless the reports are the shards
/// `1/n … n/n` of one golden set with the same stages and mode.
pub fn merge_shards(reports: &[EvalReport]) -> Result<EvalReport, EvalError> {
    let bad = |what: String, m: &str| EvalError::Shard {
        what,
        message: m.to_string(),
    };
    let first = reports
        .first()
        .ok_or_else(|| bad("--merge".into(), "no reports given"))?;
    let n = first.meta.shard.map(|s| s.count).unwrap_or(0);
    let total = first.meta.shard.map(|s| s.total).unwrap_or(0);
    let mut by_index: Vec<Option<&EvalReport>> = vec![None; n];
    for (k, r) in reports.iter().enumerate() {
        let what = format!("report {} ({})", k + 1, r.meta.label);
        let s = r
            .meta
            .shard
            .ok_or_else(|| bad(what.clone(), "is not a shard (run with --shard i/n)"))?;
        if s.count != n || s.total != total {
            return Err(bad(
                what,
                "belongs to another split (count or golden-set size differ)",
            ));
        }
        if r.meta.stages != first.meta.stages || r.meta.generate != first.meta.generate {
            return Err(bad(what, "ran other stages or another mode"));
        }
        let slot = &mut by_index[s.index];
        if slot.is_some() {
            return Err(bad(what, "repeats a shard"));
        }
        *slot = Some(r);
    }
    if let Some(missing) = by_index.iter().position(Option::is_none) {
        return Err(bad(
            "--merge".into(),
            &format!("shard {}/{n} is missing", missing + 1),
        ));
    }
    let shards: Vec<&EvalReport> = by_index.into_iter().flatten().collect();
    let mut stages = Vec::new();
    for (si, stage) in first.meta.stages.iter().enumerate() {
        let mut queries = Vec::with_capacity(total);
        for p in 0..total {
            let q = shards[p % n]
                .stages
                .get(si)
                .and_then(|st| st.queries.get(p / n))
                .ok_or_else(|| {
                    bad(
                        format!("shard {}/{n}", p % n + 1),
                        "has fewer questions than its share of the golden set",
                    )
                })?;
            queries.push(q.clone());
        }
        stages.push(stage_report(stage, queries, first.meta.generate));
    }
    let created_utc = shards
        .iter()
        .map(|r| r.meta.created_utc.clone())
        .min()
        .unwrap_or_default();
    Ok(EvalReport {
        meta: ReportMeta {
            label: first.meta.label.clone(),
            stages: first.meta.stages.clone(),
            generate: first.meta.generate,
            threads: shards.iter().map(|r| r.meta.threads).sum(),
            queries: total,
            created_utc,
            wall_s: shards.iter().map(|r| r.meta.wall_s).fold(0.0, f64::max),
            machine: first.meta.machine.clone(),
            eval_version: first.meta.eval_version.clone(),
            shard: None,
        },
        stages,
    })
}
