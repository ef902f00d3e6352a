//! The seam between the evaluator and the engine: what one question at one
//! ablation stage gives back ([`EvalOutput`]) and the trait the binary
//! implements with the engine ([`Searcher`]). The runner and the checks both
//! read it; neither depends on the other for it.

use paragraf_types::{Answer, SearchResponse, Timings};
use serde::{Deserialize, Serialize};

/// One engine output for one question at one stage.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct EvalOutput {
    /// Ranked results and assessment, as the output contract defines them.
    pub response: SearchResponse,
    /// Query-analysis features (`jurisdiction`, `historical`, `scope`,
    /// `control_intent`, …) as JSON; see [`crate::checks`] for the keys read.
    pub analysis: serde_json::Value,
    /// Grounded answer when generating (`response.answer` is used when this
    /// is `None`).
    pub answer: Option<Answer>,
    /// Milliseconds per pipeline stage; `response.timings_ms` is used when
    /// this is empty. `generate` feeds tokens/s.
    pub timings: Timings,
}

/// The engine seen by the evaluator. Implemented by the engine crate's
/// caller; must be callable from several threads at once.
pub trait Searcher: Sync {
    /// Answer `query` with the pipeline cut at ablation `stage`.
    fn search(&self, query: &str, stage: &str) -> Result<EvalOutput, String>;
}

/// Any `Fn(query, stage)` is a searcher (handy for tests and adapters).
impl<F> Searcher for F
where
    F: Fn(&str, &str) -> Result<EvalOutput, String> + Sync,
{
    fn search(&self, query: &str, stage: &str) -> Result<EvalOutput, String> {
        self(query, stage)
    }
}
