//! Annexes of EU acts in `eu/en-annexes/*.json`: a JSON list of
//! `{annex: "I", annex_name, content}` whose `content` is the whole annex as
//! one flattened line (`ANNEX I ESSENTIAL CYBERSECURITY REQUIREMENTS Part I …`).
//!
//! Each entry becomes one [`RawNorm`] of kind [`NormKind::Annex`] with
//! `norm: "Anhang I"` (numeral kept, German label). The structure is
//! recovered from the flat text:
//! - title: `annex_name` when given, else the upper-case run after
//!   `ANNEX I` (`ESSENTIAL CYBERSECURITY REQUIREMENTS`), else the leading
//!   phrase up to the first sentence start, list marker or part heading;
//! - units: one per `Part I` / `Section A` heading (labels `Teil I`,
//!   `Abschnitt A`; text before the first heading is an unlabelled unit); a
//!   heading is only recognised where it starts a sentence, not in
//!   cross-references such as "set out in Part I of Annex I";
//! - list markers (`(1)`, `(a)`, `1.`, `3.2.`) that follow `.`, `:` or `;`
//!   start a new line, so points read as `(a) …` lines.

use super::eu_json::text;
use crate::raw::{NormKind, ParseError, RawNorm, RawUnit};
use paragraf_types::Lang;
use regex::Regex;
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::LazyLock;

#[derive(Deserialize)]
struct Entry<'a> {
    #[serde(borrow, default)]
    annex: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    annex_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    content: Cow<'a, str>,
}

static ANNEX_PREFIX_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ANNEX\s+([IVXLC]+|\d{1,3}[A-Z]?)\b\s*").expect("static regex"));

/// Parses one `eu/en-annexes/*.json` file (see the module docs).
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    let entries: Vec<Entry<'_>> =
        serde_json::from_slice(bytes).map_err(|e| text::json_error(file, &e))?;
    let mut out = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let content = text::clean_line(&e.content);
        let (prefix_numeral, rest) = match ANNEX_PREFIX_RE.captures(&content) {
            Some(c) => (
                Some(c[1].to_string()),
                content[c.get(0).map_or(0, |m| m.end())..].to_string(),
            ),
            None => (None, content.clone()),
        };
        let numeral = e
            .annex
            .as_deref()
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(str::to_string)
            .or(prefix_numeral)
            .ok_or_else(|| {
                ParseError::new(
                    file,
                    Some(format!("$[{i}].annex")),
                    "annex without number (neither `annex` nor an `ANNEX …` heading)",
                )
            })?;
        let (title, body) = match e
            .annex_name
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
        {
            Some(name) => {
                let name = text::clean_line(name);
                let body = rest
                    .strip_prefix(name.as_str())
                    .map(str::trim_start)
                    .unwrap_or(&rest);
                (name, body.to_string())
            }
            None => split_title(&rest),
        };
        out.push(RawNorm {
            kind: NormKind::Annex,
            norm: format!("Anhang {numeral}"),
            title,
            breadcrumb: Vec::new(),
            units: flat_units(&body),
            lang: Lang::En,
            framework: None,
            hints: Vec::new(),
        });
    }
    Ok(out)
}

/// Words after which a capitalised word still belongs to the title
/// (`List of Union …`, `referred to in Article 6(2)`).
const TITLE_GLUE: &[&str] = &[
    "of", "in", "to", "the", "and", "or", "for", "on", "with", "by", "under", "from", "a", "an",
];

/// Splits the leading title off a flat annex text.
pub(crate) fn split_title(s: &str) -> (String, String) {
    let words: Vec<&str> = s.split(' ').filter(|w| !w.is_empty()).collect();
    // Upper-case run.
    let mut n_upper = 0;
    for w in &words {
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        if w.chars().any(|c| c.is_lowercase()) || (letters == 0 && n_upper == 0) {
            break;
        }
        n_upper += 1;
    }
    // A final single capital is the first letter of a glued next word only
    // in badly extracted sources; keep the run as is.
    let upper_letters: usize = words[..n_upper]
        .iter()
        .map(|w| w.chars().filter(|c| c.is_alphabetic()).count())
        .sum();
    if n_upper >= 1 && upper_letters >= 4 {
        return (words[..n_upper].join(" "), words[n_upper..].join(" "));
    }
    // Mixed case: up to a heading, list marker or a sentence start.
    let mut cut = words.len().min(40);
    for (i, w) in words.iter().enumerate().take(40).skip(1) {
        let prev = words[i - 1];
        let starts_upper_word = {
            let mut cs = w.chars();
            matches!((cs.next(), cs.next()), (Some(a), Some(b)) if a.is_uppercase() && (b.is_lowercase() || b == '-'))
        };
        let is_marker = (is_list_marker(w) || *w == "—")
            && !["point", "points", "paragraph", "Article"].contains(&prev);
        let glued = TITLE_GLUE.contains(&prev.to_lowercase().as_str()) || prev.ends_with(',');
        if is_marker || (starts_upper_word && !glued) || prev.ends_with(':') || prev.ends_with('.')
        {
            cut = i;
            break;
        }
    }
    if cut == 0 || cut >= words.len() {
        // No recognisable end: the whole text is body.
        return (String::new(), words.join(" "));
    }
    (
        words[..cut].join(" ").trim_end_matches(':').to_string(),
        words[cut..].join(" "),
    )
}

fn is_list_marker(w: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(\((\d{1,3}|[a-z]{1,2}|[ivx]{1,5})\)|\d{1,2}(\.\d{1,2})*\.)$")
            .expect("static regex")
    });
    RE.is_match(w)
}

/// Units of a flat annex body, split at `Part`/`Section` headings.
pub(crate) fn flat_units(body: &str) -> Vec<RawUnit> {
    static HEAD_RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b(Part|PART|Section|SECTION) ([IVX]+|[A-Z]|\d{1,2})(\.|\s—)?\s+[A-Z]")
            .expect("static regex")
    });
    let mut cuts: Vec<(usize, String)> = Vec::new();
    for c in HEAD_RE.captures_iter(body) {
        let Some(m) = c.get(0) else { continue };
        let before = body[..m.start()].trim_end();
        let prev_word = before.rsplit(' ').next().unwrap_or("");
        let glued = [
            "in", "of", "to", "by", "under", "and", "or", "see", "with", "this", "that",
        ]
        .contains(&prev_word.to_lowercase().as_str());
        if before.ends_with(',') || glued {
            continue;
        }
        cuts.push((m.start(), text::part_label(&c[1], &c[2])));
    }
    let mut units = Vec::new();
    let mut start = 0;
    let mut label: Option<String> = None;
    for (pos, l) in cuts {
        let seg = body[start..pos].trim();
        if !seg.is_empty() || label.is_some() {
            units.push(RawUnit {
                label: label.take(),
                text: list_lines(seg),
            });
        }
        label = Some(l);
        start = pos;
    }
    let seg = body[start..].trim();
    if !seg.is_empty() || label.is_some() || units.is_empty() {
        units.push(RawUnit {
            label,
            text: list_lines(seg),
        });
    }
    units
}

/// Puts list markers that follow `.`, `:` or `;` on a new line.
pub(crate) fn list_lines(s: &str) -> String {
    static MARK_RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"([.:;]) (\((?:\d{1,3}|[a-z]{1,2}|[ivx]{1,5})\) |\d{1,2}(?:\.\d{1,2})*\. [A-Z(]|— )",
        )
        .expect("static regex")
    });
    MARK_RE.replace_all(s, "$1\n$2").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uppercase_title() {
        let (t, b) = split_title("ESSENTIAL REQUIREMENTS Part I Cyber (1) Products shall");
        assert_eq!(t, "ESSENTIAL REQUIREMENTS");
        assert_eq!(b, "Part I Cyber (1) Products shall");
    }

    #[test]
    fn mixed_case_title_stops_at_sentence_start() {
        let (t, _) = split_title(
            "High-risk AI systems referred to in Article 6(2) High-risk AI systems pursuant to",
        );
        assert_eq!(t, "High-risk AI systems referred to in Article 6(2)");
        let (t, _) = split_title("Transparency information referred to in Article 53(1), point (b) — technical documentation");
        assert_eq!(
            t,
            "Transparency information referred to in Article 53(1), point (b)"
        );
        let (t, _) = split_title("List of Union harmonisation legislation Section A. List of");
        assert_eq!(t, "List of Union harmonisation legislation");
    }

    #[test]
    fn parts_split_but_not_cross_references() {
        let u = flat_units("Intro. Part I Requirements as set out in Part I of Annex I. (a) one; (b) two. Part II Handling x");
        let labels: Vec<_> = u.iter().map(|u| u.label.clone()).collect();
        assert_eq!(
            labels,
            vec![None, Some("Teil I".into()), Some("Teil II".into())]
        );
        assert!(u[1].text.contains("\n(a) one;\n(b) two."));
    }
}
