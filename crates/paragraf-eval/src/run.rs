//! The batch runner: every golden question through every ablation stage of a
//! [`Searcher`], scored per question and aggregated per stage.

use crate::checks::{failed_checks, run_checks, CheckOutcome};
use crate::golden::GoldenQuery;
use crate::machine::Machine;
use crate::metrics::{
    citation_matches, dedupe_norms, distinct_expected, first_relevant_rank, hit_at_k, ndcg_at_k,
    reciprocal_rank, relevance_for,
};
pub use crate::searcher::{EvalOutput, Searcher};
use crate::stats::{mean, median, percentile};
use paragraf_types::{AbstainReason, NormRef, Timings};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

mod misses;
pub use misses::Misses;
mod shard;
pub use shard::{merge_shards, shard_of, Shard};

/// Cut-off of MRR and nDCG.
pub const RANK_CUTOFF: usize = 10;
/// Cut-off of the second hit metric.
pub const HIT_K: usize = 5;
/// Stage name used when a run configuration names none.
pub const DEFAULT_STAGE: &str = "full";

/// What to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// Name of the run (index, params, embedder…), shown in reports.
    pub label: String,
    /// Ablation stages, in report order, e.g. `dense`, `lexical`, `fused`,
    /// `rerank`, `full`. Empty → [`DEFAULT_STAGE`]; duplicates are dropped.
    pub stages: Vec<String>,
    /// Whether the searcher generates answers (enables answer metrics and
    /// the answer part of the `abstain` check).
    pub generate: bool,
    /// Worker threads; 0 → rayon's default (one per core).
    pub threads: usize,
}

/// Answer figures of one question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerStats {
    /// The golden question says the engine should abstain.
    pub should_abstain: bool,
    pub abstained: bool,
    /// Citations that passed the gate.
    pub citations: usize,
    /// Citations the gate removed.
    pub removed_citations: usize,
    /// Answer length in characters and in whitespace-separated words.
    pub chars: usize,
    pub words: usize,
    pub generated_tokens: usize,
    /// `generate` timing, when the searcher reported it.
    pub generate_ms: Option<f64>,
    /// Whether a gated citation names an expected norm (`None` when the
    /// question has no expected norm or the answer abstained).
    pub cites_expected: Option<bool>,
    /// Citations of the final answer that name none of the retrieved
    /// results: an independent check of the citation gate (must be 0).
    #[serde(default)]
    pub ungrounded_citations: usize,
    /// Deciding facts of the question (answers file) and how many of them
    /// the answer text states.
    #[serde(default)]
    pub facts_total: usize,
    #[serde(default)]
    pub facts_stated: usize,
    /// Sentences of the answer text, and those supported by the evidence
    /// they cite ([`sentence_supported`], independent of the engine's gate).
    #[serde(default)]
    pub sentences: usize,
    #[serde(default)]
    pub sentences_supported: usize,
    /// The statements in the answer's own words (not a verbatim quote „…“
    /// of a unit), and those supported: what the answer model wrote and
    /// the gate kept.
    #[serde(default)]
    pub own_sentences: usize,
    #[serde(default)]
    pub own_sentences_supported: usize,
    /// Evidence units of the answer, and those of an expected norm.
    #[serde(default)]
    pub evidence_units: usize,
    #[serde(default)]
    pub evidence_on_expected: usize,
    /// Generation error note, if any.
    pub error: Option<String>,
    /// Why the answer abstained, as the engine reports it.
    #[serde(default)]
    pub abstain_reason: Option<AbstainReason>,
    /// The answer quotes its sources instead of the model's text.
    #[serde(default)]
    pub extractive: bool,
}

/// One question scored at one stage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryResult {
    pub id: String,
    pub query: String,
    pub category: String,
    pub expect_any: Vec<String>,
    /// The question expects the engine to abstain (`expect.abstain`).
    pub expect_abstain: bool,
    /// N of the primary hit (`expect.hit_at`, default 1).
    pub hit_n: usize,
    /// Primary hit: an expected norm within the first `hit_n` distinct norms,
    /// or named by the assessment's primary norm. `None` without expected norms.
    pub hit_at_1: Option<bool>,
    pub hit_at_5: Option<bool>,
    /// Reciprocal rank within the top 10 distinct norms.
    pub reciprocal_rank: Option<f64>,
    pub ndcg_at_10: Option<f64>,
    /// 1-based rank of the first expected norm in the whole deduplicated list.
    pub first_relevant_rank: Option<usize>,
    /// The first distinct norm is of an expected norm's law (the law was
    /// found, maybe not its norm). `None` without expected norms or results.
    #[serde(default)]
    pub law_first: Option<bool>,
    /// `primary_norm` + `primary_regulation` of the assessment.
    pub primary: Option<String>,
    /// The first five distinct norms, `"<norm> <regulation>"`.
    pub top: Vec<String>,
    pub checks: Vec<CheckOutcome>,
    /// Primary hit (when scored) and every check passed.
    pub passed: bool,
    pub answer: Option<AnswerStats>,
    /// Wall-clock time of the search call.
    pub wall_ms: f64,
    pub timings_ms: Timings,
    /// The searcher's error, when it failed (scored as a miss).
    pub error: Option<String>,
    /// Language of the question as query analysis detected it (`de`, `en`).
    #[serde(default)]
    pub lang: Option<String>,
}

/// Passed / applicable count of one check.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Rate {
    pub passed: usize,
    pub total: usize,
}

impl Rate {
    /// `passed / total`, `None` when nothing applied.
    pub fn rate(&self) -> Option<f64> {
        (self.total > 0).then(|| self.passed as f64 / self.total as f64)
    }
    fn add(&mut self, ok: bool) {
        self.total += 1;
        if ok {
            self.passed += 1;
        }
    }
}

/// Latency summary of the search calls.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Latency {
    pub mean_ms: Option<f64>,
    pub p50_ms: Option<f64>,
    pub p95_ms: Option<f64>,
    pub max_ms: Option<f64>,
    /// Median of each pipeline timing the searcher reported.
    pub timings_p50_ms: BTreeMap<String, f64>,
}

/// Grounded-answer figures of one stage.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AnswerAggregate {
    /// Questions with an answer.
    pub answered: usize,
    pub abstained: usize,
    pub citations_kept: usize,
    pub citations_removed: usize,
    /// kept / (kept + removed) over all answers. The kept ones are the final
    /// citations, including the gate's attributions and extractive quotes.
    pub citation_validity: Option<f64>,
    /// Share of non-abstaining answers whose every final citation names a
    /// retrieved result (what reaches the user; target 1.0).
    #[serde(default)]
    pub grounded_answers: Option<f64>,
    /// Answers that abstained before any generation (retrieval found no
    /// reliable binding source), and of those the share that should have.
    #[serde(default)]
    pub abstained_before_generation: usize,
    #[serde(default)]
    pub retrieval_abstention_precision: Option<f64>,
    /// Of the answers that abstained, the share that should have.
    pub abstention_precision: Option<f64>,
    /// Of the questions that should abstain, the share that did.
    pub abstention_recall: Option<f64>,
    pub mean_answer_chars: Option<f64>,
    pub mean_answer_words: Option<f64>,
    pub mean_generated_tokens: Option<f64>,
    /// Σ generated tokens / Σ generate seconds, over answers with timings.
    pub tokens_per_s: Option<f64>,
    /// Share of non-abstaining answers with expected norms that cite one.
    pub cites_expected: Option<f64>,
    /// Answers that carry a generation error.
    pub errors: usize,
    /// Non-abstaining answers that quote their sources because the model's
    /// text held no statement backed by a binding source.
    #[serde(default)]
    pub extractive_answers: usize,
    /// Abstentions per reason (`not_relevant`, `model_declined`, …).
    #[serde(default)]
    pub abstain_reasons: BTreeMap<String, usize>,
    /// Stated facts ÷ all facts, over the questions with answer facts.
    #[serde(default)]
    pub answer_fact_recall: Option<f64>,
    #[serde(default)]
    pub facts_total: usize,
    /// Supported sentences ÷ sentences of non-abstaining answers.
    #[serde(default)]
    pub supported_sentence_precision: Option<f64>,
    /// The same over the statements in the answer's own words only (the
    /// model's restatement; verbatim quotes left out).
    #[serde(default)]
    pub own_sentence_precision: Option<f64>,
    #[serde(default)]
    pub own_sentences: usize,
    /// Evidence units of an expected norm ÷ evidence units, over questions
    /// with expected norms.
    #[serde(default)]
    pub pinpoint_accuracy: Option<f64>,
}

/// Per-category summary.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CategoryAggregate {
    pub queries: usize,
    /// Questions passing primary hit and all checks.
    pub passed: Rate,
    /// Primary hit over the scored questions of the category.
    pub hit_at_1: Rate,
}

/// Aggregates of one stage.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Aggregate {
    pub queries: usize,
    /// Questions with expected norms (the denominator of the rank metrics).
    pub scored: usize,
    /// Searcher failures.
    pub errors: usize,
    pub hit_at_1: Option<f64>,
    pub hit_at_5: Option<f64>,
    pub mrr_at_10: Option<f64>,
    pub ndcg_at_10: Option<f64>,
    /// Where the primary-hit misses lie.
    #[serde(default)]
    pub misses: Misses,
    /// Pass rate of each check, by name.
    pub checks: BTreeMap<String, Rate>,
    /// Questions with at least one check whose checks all passed.
    pub checks_all: Rate,
    /// Questions passing everything (primary hit and checks).
    pub passed: Rate,
    pub categories: BTreeMap<String, CategoryAggregate>,
    pub latency: Latency,
    /// Present when the run generated answers.
    pub answer: Option<AnswerAggregate>,
}

/// Results of one ablation stage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageReport {
    pub stage: String,
    pub aggregate: Aggregate,
    /// The same aggregates per detected question language (`de`, `en`).
    #[serde(default)]
    pub by_lang: BTreeMap<String, Aggregate>,
    /// One entry per golden question, in golden-file order.
    pub queries: Vec<QueryResult>,
}

/// Run metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportMeta {
    pub label: String,
    pub stages: Vec<String>,
    pub generate: bool,
    /// Threads actually used.
    pub threads: usize,
    pub queries: usize,
    /// UTC start time, `YYYY-MM-DDTHH:MM:SSZ`.
    pub created_utc: String,
    pub wall_s: f64,
    pub machine: Machine,
    /// Version of this crate.
    pub eval_version: String,
    /// Which part of the golden set this run covered (`eval --shard i/n`);
    /// `None` for a whole run (also after `eval --merge`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

fn stage_report(stage: &str, queries: Vec<QueryResult>, generate: bool) -> StageReport {
    let mut langs: BTreeMap<String, Vec<QueryResult>> = BTreeMap::new();
    for q in &queries {
        if let Some(l) = &q.lang {
            langs.entry(l.clone()).or_default().push(q.clone());
        }
    }
    StageReport {
        stage: stage.to_string(),
        aggregate: Aggregate::from_results(&queries, generate),
        by_lang: langs
            .into_iter()
            .map(|(l, qs)| (l, Aggregate::from_results(&qs, generate)))
            .collect(),
        queries,
    }
}

/// A whole evaluation run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalReport {
    pub meta: ReportMeta,
    pub stages: Vec<StageReport>,
}

fn norm_ref_string(n: &str, r: &str) -> String {
    format!("{n} {r}")
}

fn answer_stats(q: &GoldenQuery, out: &EvalOutput, timings: &Timings) -> Option<AnswerStats> {
    let ans = out.answer.as_ref().or(out.response.answer.as_ref())?;
    let cites_expected = (!q.expect_any.is_empty() && !ans.abstained).then(|| {
        ans.citations
            .iter()
            .any(|c| q.expect_any.iter().any(|e| citation_matches(c, None, e)))
    });
    let retrieved: Vec<String> = out
        .response
        .results
        .iter()
        .map(|r| norm_ref_string(&r.norm, &r.regulation))
        .collect();
    let ungrounded_citations = ans
        .citations
        .iter()
        .filter(|c| !retrieved.iter().any(|r| citation_matches(c, None, r)))
        .count();
    let text = normalise(&ans.text);
    let facts_stated = q
        .answer_facts
        .iter()
        .filter(|alts| alts.iter().any(|a| text.contains(&normalise(a))))
        .count();
    let sentences = if ans.abstained {
        Vec::new()
    } else {
        answer_sentences(&ans.text)
    };
    let evidence: Vec<&str> = ans.evidence.iter().map(|e| e.text.as_str()).collect();
    let supported = sentences
        .iter()
        .filter(|s| sentence_supported(s, &evidence))
        .count();
    let own: Vec<&String> = sentences.iter().filter(|s| !is_quote(s)).collect();
    let own_supported = own
        .iter()
        .filter(|s| sentence_supported(s, &evidence))
        .count();
    let on_expected = ans
        .evidence
        .iter()
        .filter(|e| {
            q.expect_any
                .iter()
                .any(|x| citation_matches(&e.norm, None, x))
        })
        .count();
    Some(AnswerStats {
        facts_total: q.answer_facts.len(),
        facts_stated,
        sentences: sentences.len(),
        sentences_supported: supported,
        own_sentences: own.len(),
        own_sentences_supported: own_supported,
        evidence_units: if q.expect_any.is_empty() {
            0
        } else {
            ans.evidence.len()
        },
        evidence_on_expected: if q.expect_any.is_empty() {
            0
        } else {
            on_expected
        },
        ungrounded_citations,
        should_abstain: q.expect.abstain == Some(true),
        abstained: ans.abstained,
        citations: ans.citations.len(),
        removed_citations: ans.removed_citations.len(),
        chars: ans.text.chars().count(),
        words: ans.text.split_whitespace().count(),
        generated_tokens: ans.generated_tokens,
        generate_ms: timings.get("generate").copied(),
        cites_expected,
        error: ans.error.clone(),
        abstain_reason: ans.abstain_reason,
        extractive: ans.extractive,
    })
}

/// Score one question at one stage from the searcher's result.
/// `wall_ms` is the measured time of the call.
pub fn score_query(
    q: &GoldenQuery,
    stage_out: Result<&EvalOutput, &str>,
    generate: bool,
    wall_ms: f64,
) -> QueryResult {
    let scored = !q.expect_any.is_empty();
    let mut r = QueryResult {
        id: q.id.clone(),
        query: q.query.clone(),
        category: q.category(),
        expect_any: q.expect_any.clone(),
        expect_abstain: q.expect.abstain == Some(true),
        hit_n: q.hit_n(),
        hit_at_1: scored.then_some(false),
        hit_at_5: scored.then_some(false),
        reciprocal_rank: scored.then_some(0.0),
        ndcg_at_10: scored.then_some(0.0),
        first_relevant_rank: None,
        law_first: None,
        primary: None,
        top: Vec::new(),
        checks: Vec::new(),
        passed: false,
        answer: None,
        wall_ms,
        timings_ms: Timings::new(),
        error: None,
        lang: None,
    };
    let out = match stage_out {
        Ok(o) => o,
        Err(e) => {
            r.checks = failed_checks(q, generate, e);
            r.error = Some(e.to_string());
            return r;
        }
    };
    let timings = if out.timings.is_empty() {
        out.response.timings_ms.clone()
    } else {
        out.timings.clone()
    };
    r.lang = out
        .analysis
        .get("lang")
        .and_then(|l| l.as_str())
        .map(str::to_string);
    let ranked = dedupe_norms(&out.response.results);
    r.top = ranked
        .iter()
        .take(HIT_K)
        .map(|(n, g)| norm_ref_string(n, g))
        .collect();
    let a = &out.response.assessment;
    r.primary = a
        .primary_norm
        .as_ref()
        .map(|n| match &a.primary_regulation {
            Some(reg) if !n.ends_with(reg.as_str()) => norm_ref_string(n, reg),
            _ => n.clone(),
        });
    if scored {
        let rel = relevance_for(&ranked, &q.expect_any);
        let primary_hit = a.primary_norm.as_deref().is_some_and(|n| {
            q.expect_any
                .iter()
                .any(|e| citation_matches(n, a.primary_regulation.as_deref(), e))
        });
        r.hit_at_1 = Some(hit_at_k(&rel, q.hit_n()) || primary_hit);
        r.hit_at_5 = Some(hit_at_k(&rel, HIT_K));
        r.reciprocal_rank = Some(reciprocal_rank(&rel, RANK_CUTOFF));
        r.ndcg_at_10 = Some(ndcg_at_k(
            &rel,
            distinct_expected(&q.expect_any),
            RANK_CUTOFF,
        ));
        r.first_relevant_rank = first_relevant_rank(&rel, rel.len());
        r.law_first = ranked
            .first()
            .map(|(_, law)| q.expect_any.iter().any(|e| NormRef(e.clone()).is_of(law)));
    }
    r.checks = run_checks(q, out, generate);
    r.passed = r.hit_at_1.unwrap_or(true) && r.checks.iter().all(|c| c.passed);
    if generate {
        r.answer = answer_stats(q, out, &timings);
    }
    r.timings_ms = timings;
    r
}

fn mean_opt(xs: impl Iterator<Item = f64>) -> Option<f64> {
    let v: Vec<f64> = xs.collect();
    mean(&v)
}

fn ratio(num: usize, den: usize) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

impl Aggregate {
    /// Aggregate per-question results of one stage. `generate` adds the
    /// answer figures.
    pub fn from_results(results: &[QueryResult], generate: bool) -> Aggregate {
        let scored: Vec<&QueryResult> = results.iter().filter(|r| r.hit_at_1.is_some()).collect();
        let share = |f: &dyn Fn(&QueryResult) -> bool| {
            ratio(scored.iter().filter(|r| f(r)).count(), scored.len())
        };
        let mut checks: BTreeMap<String, Rate> = BTreeMap::new();
        let mut checks_all = Rate::default();
        let mut passed = Rate::default();
        let mut categories: BTreeMap<String, CategoryAggregate> = BTreeMap::new();
        for r in results {
            for c in &r.checks {
                checks.entry(c.name.clone()).or_default().add(c.passed);
            }
            if !r.checks.is_empty() {
                checks_all.add(r.checks.iter().all(|c| c.passed));
            }
            passed.add(r.passed);
            let cat = categories.entry(r.category.clone()).or_default();
            cat.queries += 1;
            cat.passed.add(r.passed);
            if let Some(h) = r.hit_at_1 {
                cat.hit_at_1.add(h);
            }
        }
        let walls: Vec<f64> = results.iter().map(|r| r.wall_ms).collect();
        let mut per_timing: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        for r in results {
            for (k, v) in &r.timings_ms {
                per_timing.entry(k.clone()).or_default().push(*v);
            }
        }
        let latency = Latency {
            mean_ms: mean(&walls),
            p50_ms: median(&walls),
            p95_ms: percentile(&walls, 95.0),
            max_ms: percentile(&walls, 100.0),
            timings_p50_ms: per_timing
                .into_iter()
                .filter_map(|(k, v)| median(&v).map(|m| (k, m)))
                .collect(),
        };
        Aggregate {
            queries: results.len(),
            scored: scored.len(),
            errors: results.iter().filter(|r| r.error.is_some()).count(),
            hit_at_1: share(&|r| r.hit_at_1 == Some(true)),
            hit_at_5: share(&|r| r.hit_at_5 == Some(true)),
            mrr_at_10: mean_opt(scored.iter().filter_map(|r| r.reciprocal_rank)),
            ndcg_at_10: mean_opt(scored.iter().filter_map(|r| r.ndcg_at_10)),
            misses: Misses::of(&scored),
            checks,
            checks_all,
            passed,
            categories,
            latency,
            answer: generate.then(|| answer_aggregate(results)),
        }
    }
}

/// Lower case, whitespace collapsed (the answer-fact comparison of
/// `../shared/eval/README.md`).
fn normalise(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The statements of an answer text: one per line item or sentence, without
/// the lead-in line that introduces a list of quotes.
fn answer_sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim().trim_start_matches("- ").trim();
        if l.is_empty() || l.ends_with(':') {
            continue;
        }
        // a quoted unit is one statement, whatever its inner sentences
        if is_quote(l) {
            out.push(l.to_string());
            continue;
        }
        let mut cur = String::new();
        for ch in l.chars() {
            cur.push(ch);
            if matches!(ch, '.' | '!' | '?') && cur.trim().chars().count() > 20 {
                out.push(cur.trim().to_string());
                cur.clear();
            }
        }
        if !cur.trim().is_empty() {
            out.push(cur.trim().to_string());
        }
    }
    out
}

/// Whether a statement is a verbatim quote of a unit (`„…“`, `“…”`).
fn is_quote(statement: &str) -> bool {
    statement.contains('„') || statement.contains('“')
}

/// Whether a statement is supported by the evidence it cites — checked here,
/// independently of the engine's gate: it carries at least one `[n]` that
/// names an evidence unit, every number it states (outside `[n]`, norm
/// labels and pinpoints) occurs in a cited unit, and at least half of its
/// words of five or more letters occur in the cited units.
pub fn sentence_supported(sentence: &str, evidence: &[&str]) -> bool {
    let mut cited: Vec<&str> = Vec::new();
    let mut rest = String::new();
    let mut chars = sentence.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '[' {
            if let Some(end) = sentence[i..].find(']') {
                let inner = &sentence[i + 1..i + end];
                if let Ok(n) = inner.trim().parse::<usize>() {
                    if let Some(e) = n.checked_sub(1).and_then(|k| evidence.get(k)) {
                        cited.push(e);
                    }
                    while chars.peek().is_some_and(|(j, _)| *j <= i + end) {
                        chars.next();
                    }
                    continue;
                }
            }
        }
        rest.push(c);
    }
    if cited.is_empty() {
        return false;
    }
    let backing = normalise(&cited.join(" "));
    // drop norm labels and pinpoints: their numbers are identities
    let mut plain = String::new();
    let mut skip_number = false;
    for w in rest.split_whitespace() {
        let lw = w.to_lowercase();
        let is_label = [
            "§", "§§", "art.", "artikel", "article", "abs.", "absatz", "satz", "nr.", "lit.",
            "anhang", "annex",
        ]
        .contains(&lw.as_str());
        if skip_number && w.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            skip_number = false;
            continue;
        }
        skip_number = is_label;
        if !is_label {
            plain.push_str(w);
            plain.push(' ');
        }
    }
    let digits: Vec<String> = plain
        .split(|c: char| !c.is_ascii_digit())
        .filter(|d| !d.is_empty())
        .map(str::to_string)
        .collect();
    let backing_digits: String = backing.chars().filter(|c| !c.is_whitespace()).collect();
    if !digits.iter().all(|d| backing_digits.contains(d.as_str())) {
        return false;
    }
    let words: Vec<String> = plain
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| w.chars().count() >= 5)
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() {
        return true;
    }
    let hit = words
        .iter()
        .filter(|w| backing.contains(w.as_str()))
        .count();
    2 * hit >= words.len()
}

fn answer_aggregate(results: &[QueryResult]) -> AnswerAggregate {
    let answers: Vec<&AnswerStats> = results.iter().filter_map(|r| r.answer.as_ref()).collect();
    let kept: usize = answers.iter().map(|a| a.citations).sum();
    let removed: usize = answers.iter().map(|a| a.removed_citations).sum();
    let tp = answers
        .iter()
        .filter(|a| a.abstained && a.should_abstain)
        .count();
    let predicted = answers.iter().filter(|a| a.abstained).count();
    // Questions that should abstain, answered or not (a missing answer is a miss).
    let positives = results.iter().filter(|r| r.expect_abstain).count();
    let timed: Vec<&&AnswerStats> = answers
        .iter()
        .filter(|a| a.generate_ms.is_some_and(|ms| ms > 0.0))
        .collect();
    let tok: usize = timed.iter().map(|a| a.generated_tokens).sum();
    let secs: f64 = timed.iter().filter_map(|a| a.generate_ms).sum::<f64>() / 1000.0;
    let cite_judged: Vec<bool> = answers.iter().filter_map(|a| a.cites_expected).collect();
    let non_abstained: Vec<&&AnswerStats> = answers.iter().filter(|a| !a.abstained).collect();
    // Reports written before answers carried a reason: no tokens and no
    // error meant that retrieval abstained.
    let before_generation = |a: &AnswerStats| match a.abstain_reason {
        Some(r) => r.before_generation(),
        None => a.generated_tokens == 0 && a.error.is_none(),
    };
    let early: Vec<&&AnswerStats> = answers
        .iter()
        .filter(|a| a.abstained && before_generation(a))
        .collect();
    let mut abstain_reasons: BTreeMap<String, usize> = BTreeMap::new();
    for a in answers.iter().filter(|a| a.abstained) {
        let key = a.abstain_reason.map_or("unknown", AbstainReason::name);
        *abstain_reasons.entry(key.to_string()).or_default() += 1;
    }
    AnswerAggregate {
        grounded_answers: ratio(
            non_abstained
                .iter()
                .filter(|a| a.ungrounded_citations == 0)
                .count(),
            non_abstained.len(),
        ),
        abstained_before_generation: early.len(),
        retrieval_abstention_precision: ratio(
            early.iter().filter(|a| a.should_abstain).count(),
            early.len(),
        ),
        answered: answers.len(),
        abstained: predicted,
        citations_kept: kept,
        citations_removed: removed,
        citation_validity: ratio(kept, kept + removed),
        abstention_precision: ratio(tp, predicted),
        abstention_recall: ratio(tp, positives),
        mean_answer_chars: mean_opt(answers.iter().map(|a| a.chars as f64)),
        mean_answer_words: mean_opt(answers.iter().map(|a| a.words as f64)),
        mean_generated_tokens: mean_opt(answers.iter().map(|a| a.generated_tokens as f64)),
        tokens_per_s: (secs > 0.0).then(|| tok as f64 / secs),
        cites_expected: ratio(
            cite_judged.iter().filter(|&&b| b).count(),
            cite_judged.len(),
        ),
        errors: answers.iter().filter(|a| a.error.is_some()).count(),
        extractive_answers: non_abstained.iter().filter(|a| a.extractive).count(),
        abstain_reasons,
        answer_fact_recall: ratio(
            answers.iter().map(|a| a.facts_stated).sum(),
            answers.iter().map(|a| a.facts_total).sum(),
        ),
        facts_total: answers.iter().map(|a| a.facts_total).sum(),
        supported_sentence_precision: ratio(
            non_abstained.iter().map(|a| a.sentences_supported).sum(),
            non_abstained.iter().map(|a| a.sentences).sum(),
        ),
        own_sentence_precision: ratio(
            non_abstained
                .iter()
                .map(|a| a.own_sentences_supported)
                .sum(),
            non_abstained.iter().map(|a| a.own_sentences).sum(),
        ),
        own_sentences: non_abstained.iter().map(|a| a.own_sentences).sum(),
        pinpoint_accuracy: ratio(
            answers.iter().map(|a| a.evidence_on_expected).sum(),
            answers.iter().map(|a| a.evidence_units).sum(),
        ),
    }
}

/// The stage list of a configuration: duplicates dropped, empty → `full`.
pub fn effective_stages(cfg: &RunConfig) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in &cfg.stages {
        if !out.contains(s) {
            out.push(s.clone());
        }
    }
    if out.is_empty() {
        out.push(DEFAULT_STAGE.to_string());
    }
    out
}

/// Run every golden question through every stage, in parallel over the
/// questions (stages of one question run in order on one worker). The report
/// lists stages in configuration order and questions in golden order,
/// whatever order the workers finish in. `progress(done, total)` is called
/// after each question, from worker threads.
pub fn run_eval(
    golden: &[GoldenQuery],
    searcher: &dyn Searcher,
    cfg: &RunConfig,
    progress: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> EvalReport {
    let stages = effective_stages(cfg);
    let start = Instant::now();
    let created_utc = paragraf_types::time::utc_now();
    let total = golden.len();
    let done = AtomicUsize::new(0);
    let work = |q: &GoldenQuery| -> Vec<QueryResult> {
        let rows = stages
            .iter()
            .map(|stage| {
                let t = Instant::now();
                let out = searcher.search(&q.query, stage);
                let wall_ms = t.elapsed().as_secs_f64() * 1000.0;
                match &out {
                    Ok(o) => score_query(q, Ok(o), cfg.generate, wall_ms),
                    Err(e) => score_query(q, Err(e.as_str()), cfg.generate, wall_ms),
                }
            })
            .collect();
        let n = done.fetch_add(1, Ordering::SeqCst) + 1;
        if let Some(p) = progress {
            p(n, total);
        }
        rows
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build();
    let (per_query, threads): (Vec<Vec<QueryResult>>, usize) = match pool {
        Ok(pool) => (
            pool.install(|| golden.par_iter().map(work).collect()),
            pool.current_num_threads(),
        ),
        // Building a pool only fails when the OS refuses threads: run inline.
        Err(_) => (golden.iter().map(work).collect(), 1),
    };
    let stage_reports = stages
        .iter()
        .enumerate()
        .map(|(si, stage)| {
            let queries: Vec<QueryResult> = per_query.iter().map(|rows| rows[si].clone()).collect();
            stage_report(stage, queries, cfg.generate)
        })
        .collect();
    EvalReport {
        meta: ReportMeta {
            label: cfg.label.clone(),
            stages,
            generate: cfg.generate,
            threads,
            queries: total,
            created_utc,
            wall_s: start.elapsed().as_secs_f64(),
            machine: Machine::detect(),
            eval_version: env!("CARGO_PKG_VERSION").to_string(),
            shard: None,
        },
        stages: stage_reports,
    }
}
