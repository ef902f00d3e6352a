//! The request limits, written once: the CLI's flags, the engine's checks,
//! the server's defaults (`paragraf_server::Limits`) and eval read them
//! here, so a question, a `top_k` or a token budget the server rejects is
//! rejected by the CLI too, with the same bounds.

/// Results returned when the caller names no `top_k`.
pub const DEFAULT_TOP_K: usize = 10;

/// Largest accepted `top_k` (CLI `--top-k`, HTTP `top_k`, the engine).
pub const MAX_TOP_K: usize = 50;

/// Longest accepted question, in characters (not bytes).
pub const MAX_QUERY_CHARS: usize = 2_000;

/// Tokens the answer model may write when the caller names no budget.
pub const DEFAULT_MAX_TOKENS: usize = 256;

// the defaults lie within the limits
const _: () = assert!(DEFAULT_TOP_K <= MAX_TOP_K && DEFAULT_MAX_TOKENS <= MAX_TOKENS);

/// Largest accepted answer budget (CLI `--max-tokens`, HTTP `max_tokens`).
pub const MAX_TOKENS: usize = 1_024;

/// Why a question is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// Nothing but white space and control characters (`"\u{0}\u{0}"`).
    #[error("the question is empty")]
    Empty,
    /// Longer than `max` characters.
    #[error("the question has {len} characters; the limit is {max}")]
    TooLong { len: usize, max: usize },
}

/// A question says nothing: after trimming it holds only white space and
/// control characters (NUL, escape, …), which no analyzer turns into a
/// term.
pub fn is_blank(query: &str) -> bool {
    query.chars().all(|c| c.is_whitespace() || c.is_control())
}

/// Check a question against [`is_blank`] and `max_chars` characters.
pub fn check_query_with(query: &str, max_chars: usize) -> Result<(), QueryError> {
    if is_blank(query) {
        return Err(QueryError::Empty);
    }
    let len = query.chars().count();
    if len > max_chars {
        return Err(QueryError::TooLong {
            len,
            max: max_chars,
        });
    }
    Ok(())
}

/// Check a question against [`MAX_QUERY_CHARS`].
pub fn check_query(query: &str) -> Result<(), QueryError> {
    check_query_with(query, MAX_QUERY_CHARS)
}

/// A count that must lie in `1..=max` (`top_k`, `max_tokens`): the message
/// names `name` and the range.
pub fn check_count(name: &str, value: usize, max: usize) -> Result<usize, String> {
    if value == 0 || value > max {
        return Err(format!("{name} {value} is out of range 1..={max}"));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_only_questions_are_blank() {
        for q in [
            "",
            "   ",
            "\u{0}",
            "\u{0}\u{0}\u{0}",
            " \t\u{1b}\n\u{7f} ",
            "\u{85}",
        ] {
            assert!(is_blank(q), "{q:?}");
            assert_eq!(check_query(q), Err(QueryError::Empty), "{q:?}");
        }
        for q in ["a", "\u{0}§ 1\u{0}", "Art. 5"] {
            assert!(!is_blank(q), "{q:?}");
            assert_eq!(check_query(q), Ok(()));
        }
        let long = "x".repeat(MAX_QUERY_CHARS + 1);
        assert_eq!(
            check_query(&long),
            Err(QueryError::TooLong {
                len: MAX_QUERY_CHARS + 1,
                max: MAX_QUERY_CHARS
            })
        );
    }

    #[test]
    fn counts_lie_in_one_to_max() {
        assert!(check_count("top_k", 0, MAX_TOP_K).is_err());
        assert_eq!(check_count("top_k", MAX_TOP_K, MAX_TOP_K), Ok(MAX_TOP_K));
        let e = check_count("top_k", MAX_TOP_K + 1, MAX_TOP_K).unwrap_err();
        assert!(e.contains("1..=50"), "{e}");
    }
}
