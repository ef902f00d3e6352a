//! Offline evaluation of Paragraf: golden questions, ranking metrics,
//! `expect` checks, per-stage ablation runs, reports (JSON, Markdown, SVG),
//! run comparison, the LegalQuAD benchmark and the model-bench report.
//!
//! Invariant: this crate knows nothing of the engine or the models. The
//! engine plugs in through [`Searcher`]; everything here is scoring and
//! reporting, deterministic for a given searcher output (only wall-clock
//! timings and machine metadata vary between runs).
//!
//! * [`golden`] — strict JSONL loader of the golden set.
//! * [`metrics`] — hit@k, MRR, nDCG, the norm-matching rules.
//! * [`checks`] — the `expect` checks.
//! * [`run`] — [`run_eval`], per-question results and aggregates.
//! * [`report`] — rendering of an [`EvalReport`].
//! * [`compare`] — [`compare()`] of two runs: deltas and flipped questions.
//! * [`legalquad`] — the outside LegalQuAD benchmark.
//! * [`bench`] — the model-bench table, machine description, noise check.
//! * [`stats`] — percentiles, medians, repeated-run summaries.

pub mod bench;
pub mod checks;
pub mod compare;
pub mod error;
pub mod golden;
pub mod legalquad;
pub mod metrics;
pub mod report;
pub mod run;
pub mod stats;

pub use bench::{compare_bench, BenchComparison, BenchRow, BenchTable, Machine};
pub use checks::CheckOutcome;
pub use compare::{compare, Comparison};
pub use error::EvalError;
pub use golden::{load_golden, parse_golden, Expect, GoldenQuery};
pub use run::{
    run_eval, score_query, Aggregate, EvalOutput, EvalReport, QueryResult, RunConfig, Searcher,
    StageReport,
};
pub use stats::{median, percentile, within_noise, Stat};
