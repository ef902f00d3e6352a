//! Printable score breakdown (08).

use paragraf_types::SearchResult;
use std::fmt::Write;

/// A fixed-width table of a result's score breakdown: one row per term
/// (seed name, constant, signed contribution, German reason) and the total.
pub fn explain_table(result: &SearchResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "#{} {} — {} ({} / {}, {})",
        result.rank,
        result.chunk_id,
        result.citation,
        result.source_class,
        result.source_role,
        result.jurisdiction
    );
    let w = result
        .explanation
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "  {:<w$}  {:>9}  {:>9}  Begründung",
        "Term", "Konstante", "Beitrag"
    );
    let _ = writeln!(
        out,
        "  {}  {}  {}  {}",
        "-".repeat(w),
        "-".repeat(9),
        "-".repeat(9),
        "-".repeat(10)
    );
    for t in &result.explanation {
        let _ = writeln!(
            out,
            "  {:<w$}  {:>9.3}  {:>+9.3}  {}",
            t.name, t.constant, t.value, t.reason
        );
    }
    let _ = writeln!(out, "  {:<w$}  {:>9}  {:>+9.3}", "Score", "", result.score);
    if let Some(s) = &result.superseded_by {
        let _ = writeln!(out, "  abgelöst durch: {s}");
    }
    out
}
