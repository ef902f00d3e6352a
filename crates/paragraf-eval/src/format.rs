//! Formatting and JSON helpers the reports, benches and comparisons share.

use crate::error::EvalError;
use std::path::Path;

/// A number with precision fitting its size (3 significant figures, at
/// least integer precision).
pub fn fmt_num(x: f64) -> String {
    let a = x.abs();
    if !x.is_finite() {
        "–".to_string()
    } else if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// Escape `|` and newlines for a Markdown table cell.
pub fn md_escape(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Pretty JSON of a report or table (a serialisation error, which these
/// plain data types cannot have, becomes an `{"error": …}` object).
pub(crate) fn pretty_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// Parse a saved report or table; `source` names it in errors.
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(
    text: &str,
    source: &str,
) -> Result<T, EvalError> {
    serde_json::from_str(text).map_err(|e| EvalError::ReportJson {
        path: source.to_string(),
        source: e,
    })
}

/// Read and parse a saved report or table.
pub(crate) fn load_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, EvalError> {
    let text = std::fs::read_to_string(path).map_err(|e| EvalError::io(path, e))?;
    parse_json(&text, &path.display().to_string())
}
