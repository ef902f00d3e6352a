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
//!
//! ```
//! use paragraf_eval::{parse_golden, run_eval, EvalOutput, RunConfig};
//! use paragraf_types::SearchResponse;
//!
//! let golden = parse_golden(
//!     r#"{"id":"q1","query":"Wer ist Verantwortlicher?","expect_any":["Art. 4 DSGVO"]}"#,
//!     "inline",
//! )?;
//! // The engine side: any `Fn(query, stage) -> Result<EvalOutput, String>`
//! // (or a type implementing `Searcher`). This one finds nothing.
//! let engine = |query: &str, _stage: &str| -> Result<EvalOutput, String> {
//!     Ok(EvalOutput {
//!         response: SearchResponse { query: query.to_string(), ..Default::default() },
//!         ..Default::default()
//!     })
//! };
//! let cfg = RunConfig { label: "doc".into(), stages: vec!["dense".into(), "full".into()], generate: false, threads: 1 };
//! let report = run_eval(&golden, &engine, &cfg, None);
//! assert_eq!(report.stages.len(), 2);
//! assert_eq!(report.stages[1].aggregate.hit_at_1, Some(0.0));
//! println!("{}", report.print_table());
//! # Ok::<(), paragraf_eval::EvalError>(())
//! ```

pub mod bench;
pub mod checks;
pub mod compare;
pub mod error;
pub mod format;
pub mod golden;
pub mod legalquad;
pub mod machine;
pub mod metrics;
pub mod report;
pub mod run;
pub mod searcher;
pub mod stats;

pub use bench::{compare_bench, BenchComparison, BenchRow, BenchTable};
pub use checks::CheckOutcome;
pub use compare::{compare, Comparison};
pub use error::EvalError;
pub use golden::{
    answers_path, attach_answer_facts, load_golden, parse_golden, Expect, GoldenQuery,
};
pub use machine::Machine;
pub use run::{
    merge_shards, run_eval, score_query, shard_of, Aggregate, AnswerAggregate, AnswerStats,
    EvalOutput, EvalReport, Misses, QueryResult, Rate, ReportMeta, RunConfig, Searcher, Shard,
    StageReport,
};
pub use stats::{median, percentile, within_noise, Stat};
