//! Two evaluation runs side by side: metric deltas per stage and the
//! questions whose primary hit or checks flipped.

use crate::format::md_escape;
use crate::run::{Aggregate, EvalReport, QueryResult, StageReport};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// One metric in runs A and B.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricDelta {
    pub metric: String,
    pub a: Option<f64>,
    pub b: Option<f64>,
    /// `b − a` when both exist.
    pub delta: Option<f64>,
}

/// A question whose primary hit changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flip {
    pub id: String,
    pub query: String,
    /// Top distinct norm in A and B.
    pub a_top: Option<String>,
    pub b_top: Option<String>,
    /// Rank of the first expected norm in A and B.
    pub a_rank: Option<usize>,
    pub b_rank: Option<usize>,
}

/// A question whose check changed outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckFlip {
    pub id: String,
    pub check: String,
    pub a: bool,
    pub b: bool,
}

/// Differences at one stage present in both runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageComparison {
    pub stage: String,
    pub metrics: Vec<MetricDelta>,
    /// Hit in A, miss in B (regressions), in A's question order.
    pub hit_to_miss: Vec<Flip>,
    /// Miss in A, hit in B (improvements).
    pub miss_to_hit: Vec<Flip>,
    pub check_flips: Vec<CheckFlip>,
    /// Question ids present in only one run.
    pub only_in_a: Vec<String>,
    pub only_in_b: Vec<String>,
}

/// The comparison of two runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub a_label: String,
    pub b_label: String,
    pub stages: Vec<StageComparison>,
    pub stages_only_in_a: Vec<String>,
    pub stages_only_in_b: Vec<String>,
}

fn metric_rows(a: &Aggregate, b: &Aggregate) -> Vec<MetricDelta> {
    let mut rows = vec![
        ("hit@1", a.hit_at_1, b.hit_at_1),
        ("hit@5", a.hit_at_5, b.hit_at_5),
        ("MRR@10", a.mrr_at_10, b.mrr_at_10),
        ("nDCG@10", a.ndcg_at_10, b.ndcg_at_10),
        ("checks all", a.checks_all.rate(), b.checks_all.rate()),
        ("passed", a.passed.rate(), b.passed.rate()),
        ("latency p50 ms", a.latency.p50_ms, b.latency.p50_ms),
    ]
    .into_iter()
    .map(|(m, x, y)| (m.to_string(), x, y))
    .collect::<Vec<_>>();
    let mut names: Vec<&String> = a.checks.keys().chain(b.checks.keys()).collect();
    names.sort();
    names.dedup();
    for n in names {
        rows.push((
            format!("check {n}"),
            a.checks.get(n).and_then(|r| r.rate()),
            b.checks.get(n).and_then(|r| r.rate()),
        ));
    }
    rows.into_iter()
        .map(|(metric, a, b)| MetricDelta {
            metric,
            a,
            b,
            delta: a.zip(b).map(|(a, b)| b - a),
        })
        .collect()
}

fn flip(a: &QueryResult, b: &QueryResult) -> Flip {
    Flip {
        id: a.id.clone(),
        query: a.query.clone(),
        a_top: a.top.first().cloned(),
        b_top: b.top.first().cloned(),
        a_rank: a.first_relevant_rank,
        b_rank: b.first_relevant_rank,
    }
}

fn compare_stage(a: &StageReport, b: &StageReport) -> StageComparison {
    let mut c = StageComparison {
        stage: a.stage.clone(),
        metrics: metric_rows(&a.aggregate, &b.aggregate),
        hit_to_miss: Vec::new(),
        miss_to_hit: Vec::new(),
        check_flips: Vec::new(),
        only_in_a: Vec::new(),
        only_in_b: Vec::new(),
    };
    for qa in &a.queries {
        let Some(qb) = b.queries.iter().find(|q| q.id == qa.id) else {
            c.only_in_a.push(qa.id.clone());
            continue;
        };
        match (qa.hit_at_1, qb.hit_at_1) {
            (Some(true), Some(false)) => c.hit_to_miss.push(flip(qa, qb)),
            (Some(false), Some(true)) => c.miss_to_hit.push(flip(qa, qb)),
            _ => {}
        }
        for ca in &qa.checks {
            if let Some(cb) = qb.checks.iter().find(|cb| cb.name == ca.name) {
                if ca.passed != cb.passed {
                    c.check_flips.push(CheckFlip {
                        id: qa.id.clone(),
                        check: ca.name.clone(),
                        a: ca.passed,
                        b: cb.passed,
                    });
                }
            }
        }
    }
    c.only_in_b = b
        .queries
        .iter()
        .filter(|qb| !a.queries.iter().any(|qa| qa.id == qb.id))
        .map(|q| q.id.clone())
        .collect();
    c
}

/// Compare run B against run A, stage by stage (stages matched by name, in
/// A's order).
pub fn compare(a: &EvalReport, b: &EvalReport) -> Comparison {
    let stages = a
        .stages
        .iter()
        .filter_map(|sa| b.stage(&sa.stage).map(|sb| compare_stage(sa, sb)))
        .collect();
    Comparison {
        a_label: a.meta.label.clone(),
        b_label: b.meta.label.clone(),
        stages,
        stages_only_in_a: a
            .stages
            .iter()
            .filter(|s| b.stage(&s.stage).is_none())
            .map(|s| s.stage.clone())
            .collect(),
        stages_only_in_b: b
            .stages
            .iter()
            .filter(|s| a.stage(&s.stage).is_none())
            .map(|s| s.stage.clone())
            .collect(),
    }
}

fn f3(x: Option<f64>) -> String {
    x.map_or_else(|| "–".to_string(), |v| format!("{v:.3}"))
}

fn rank(r: Option<usize>) -> String {
    r.map_or_else(|| "–".to_string(), |k| format!("#{k}"))
}

impl Comparison {
    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        crate::format::pretty_json(self)
    }

    /// Total questions that flipped hit → miss over all stages.
    pub fn regressions(&self) -> usize {
        self.stages.iter().map(|s| s.hit_to_miss.len()).sum()
    }

    /// Markdown: per stage a metric table (A, B, Δ), then the flipped
    /// questions and checks.
    pub fn to_markdown(&self) -> String {
        let mut s = format!(
            "# Comparison: A = {} → B = {}\n",
            md_escape(&self.a_label),
            md_escape(&self.b_label)
        );
        for st in &self.stages {
            let _ = writeln!(s, "\n## Stage `{}`\n", md_escape(&st.stage));
            s.push_str("| metric | A | B | Δ |\n|---|---:|---:|---:|\n");
            for m in &st.metrics {
                let d = m
                    .delta
                    .map_or_else(|| "–".to_string(), |d| format!("{d:+.3}"));
                let _ = writeln!(s, "| {} | {} | {} | {d} |", m.metric, f3(m.a), f3(m.b));
            }
            for (title, list) in [
                ("hit → miss (regressions)", &st.hit_to_miss),
                ("miss → hit (improvements)", &st.miss_to_hit),
            ] {
                let _ = writeln!(s, "\n### {title}: {}\n", list.len());
                if !list.is_empty() {
                    s.push_str("| id | question | A top | A rank | B top | B rank |\n|---|---|---|---:|---|---:|\n");
                    for f in list {
                        let _ = writeln!(
                            s,
                            "| {} | {} | {} | {} | {} | {} |",
                            md_escape(&f.id),
                            md_escape(&f.query),
                            md_escape(f.a_top.as_deref().unwrap_or("–")),
                            rank(f.a_rank),
                            md_escape(f.b_top.as_deref().unwrap_or("–")),
                            rank(f.b_rank)
                        );
                    }
                }
            }
            if !st.check_flips.is_empty() {
                let _ = writeln!(s, "\n### check flips: {}\n", st.check_flips.len());
                for f in &st.check_flips {
                    let _ = writeln!(
                        s,
                        "- {} `{}`: {} → {}",
                        md_escape(&f.id),
                        f.check,
                        if f.a { "pass" } else { "fail" },
                        if f.b { "pass" } else { "fail" }
                    );
                }
            }
            if !st.only_in_a.is_empty() {
                let _ = writeln!(s, "\nOnly in A: {}", st.only_in_a.join(", "));
            }
            if !st.only_in_b.is_empty() {
                let _ = writeln!(s, "\nOnly in B: {}", st.only_in_b.join(", "));
            }
        }
        if !self.stages_only_in_a.is_empty() {
            let _ = writeln!(
                s,
                "\nStages only in A: {}",
                self.stages_only_in_a.join(", ")
            );
        }
        if !self.stages_only_in_b.is_empty() {
            let _ = writeln!(
                s,
                "\nStages only in B: {}",
                self.stages_only_in_b.join(", ")
            );
        }
        s
    }
}
