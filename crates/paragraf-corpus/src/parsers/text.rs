//! Small text helpers shared by the parsers: whitespace normalisation and
//! Absatz label detection.

/// Collapse runs of spaces/tabs inside each line, trim every line and drop
/// empty lines. Newlines separate list items and are kept.
/// The file's bytes as UTF-8, or a parse error naming the file and the byte
/// where the encoding breaks.
pub fn utf8<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, crate::raw::ParseError> {
    std::str::from_utf8(bytes).map_err(|e| {
        crate::raw::ParseError::new(
            file,
            Some(format!("byte {}", e.valid_up_to())),
            "invalid UTF-8",
        )
    })
}

pub fn normalize_block(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for line in s.split('\n') {
        let mut first = true;
        let mut line_buf = String::new();
        for w in line.split_whitespace() {
            if !first {
                line_buf.push(' ');
            }
            first = false;
            line_buf.push_str(w);
        }
        if !line_buf.is_empty() {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&line_buf);
        }
    }
    out
}

/// Collapse all whitespace (including newlines) to single spaces.
pub fn normalize_inline(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The Absatz number of a text that starts with `(n)` or `(na)`, e.g. `3` or `3a`.
pub fn absatz_number(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('(')?;
    let end = rest.find(')')?;
    let inner = &rest[..end];
    let digits = inner.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    let tail = &inner[digits..];
    if tail.len() <= 1 && tail.chars().all(|c| c.is_ascii_lowercase()) {
        Some(inner)
    } else {
        None
    }
}

/// `Abs. n` label for a German unit text starting with `(n)`.
pub fn absatz_label(text: &str) -> Option<String> {
    absatz_number(text).map(|n| format!("Abs. {n}"))
}

/// Norm kind from a German label (`§ 3`, `Art. 4`, `Anlage 1`, `Anhang`).
pub fn kind_of_label(label: &str) -> crate::raw::NormKind {
    use crate::raw::NormKind;
    if label.starts_with("Art") {
        NormKind::Article
    } else if label.starts_with("Anlage") || label.starts_with("Anhang") {
        NormKind::Annex
    } else {
        NormKind::Section
    }
}

/// Pop the innermost open element of an XML parser's stack for the closing
/// tag `name`; a closing tag that does not match it (or closes nothing) is
/// an error message naming the tag (quick-xml does not check nesting for us).
pub fn close_element(open: &mut Vec<Vec<u8>>, name: &[u8]) -> Result<(), String> {
    match open.pop() {
        Some(o) if o == name => Ok(()),
        _ => Err(format!(
            "unexpected closing tag </{}>",
            String::from_utf8_lossy(name)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_keeps_lines_collapses_spaces() {
        assert_eq!(normalize_block("  a   b \n\n  c\t d  \n"), "a b\nc d");
    }

    #[test]
    fn absatz_labels() {
        assert_eq!(absatz_label("(1) Text").as_deref(), Some("Abs. 1"));
        assert_eq!(absatz_label("(3a) Text").as_deref(), Some("Abs. 3a"));
        assert_eq!(absatz_label("(weggefallen)"), None);
        assert_eq!(absatz_label("Text (1)"), None);
    }
}
