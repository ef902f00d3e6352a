//! Foreign acts in `foreign/`: the Swiss revDSG (SR 235.1, unofficial English
//! translation) and the UK GDPR (sections and schedules extracted from
//! legislation.gov.uk CLML).
//!
//! Both sources flatten the text of a provision into one string. Paragraphs
//! are recovered by their numbers, strictly in sequence (`1 …`, `2 …`; in the
//! UK text glued to the sentence: `…Article 10.2A group …`): a number only
//! starts a paragraph where it is the next expected one and follows a sentence
//! end, so cross-references ("Article 13 paragraph 2") are not split. Units
//! are labelled `Abs. N`. Letter points (`a. …`) are put on their own line.

use super::eu_json::text;
use crate::raw::{NormKind, ParseError, RawNorm, RawUnit};
use paragraf_types::Lang;
use regex::Regex;
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::LazyLock;

#[derive(Deserialize)]
struct ChAct<'a> {
    #[serde(borrow)]
    provisions: Vec<ChProvision<'a>>,
    #[serde(borrow, default)]
    definitions: Vec<ChDefinition<'a>>,
}

#[derive(Deserialize)]
struct ChProvision<'a> {
    #[serde(borrow)]
    provision_ref: Cow<'a, str>,
    #[serde(borrow, default)]
    chapter: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    title: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    content: Cow<'a, str>,
}

#[derive(Deserialize)]
struct ChDefinition<'a> {
    #[serde(borrow)]
    term: Cow<'a, str>,
    #[serde(borrow, default)]
    source_provision: Option<Cow<'a, str>>,
}

/// Parses the Swiss revDSG file (`provisions[{provision_ref:"art22", chapter,
/// section, title, content}]`): one [`NormKind::Article`] per provision,
/// `norm: "Art. 22"`, breadcrumb `[Chapter …, Section …]` carried forward
/// from the provisions that name them. The provision the `definitions` list
/// points to (`art5`) becomes kind [`NormKind::Definition`] with a
/// `term:<term>` hint per defined term.
pub fn parse_ch(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    let act: ChAct<'_> = serde_json::from_slice(bytes).map_err(|e| text::json_error(file, &e))?;
    let mut out = Vec::with_capacity(act.provisions.len());
    let mut chapter: Option<String> = None;
    let mut section: Option<String> = None;
    for (i, p) in act.provisions.iter().enumerate() {
        let r = p.provision_ref.trim();
        let num = r
            .strip_prefix("art")
            .map(str::trim)
            .filter(|n| !n.is_empty() && n.starts_with(|c: char| c.is_ascii_digit()))
            .ok_or_else(|| {
                ParseError::new(
                    file,
                    Some(format!("$.provisions[{i}].provision_ref")),
                    format!("unexpected provision_ref {r:?} (expected `art<number>`)"),
                )
            })?;
        if let Some(h) = p
            .chapter
            .as_deref()
            .map(text::clean_line)
            .filter(|h| !h.is_empty())
        {
            if h.starts_with("Section") {
                section = Some(h);
            } else {
                if chapter.as_deref() != Some(h.as_str()) {
                    section = None;
                }
                chapter = Some(h);
            }
        }
        let breadcrumb: Vec<String> = chapter.iter().chain(section.iter()).cloned().collect();
        let terms: Vec<String> = act
            .definitions
            .iter()
            .filter(|d| d.source_provision.as_deref().map(str::trim) == Some(r))
            .map(|d| format!("term:{}", text::clean_line(&d.term)))
            .collect();
        let content = text::clean_line(&p.content);
        out.push(RawNorm {
            kind: if terms.is_empty() {
                NormKind::Article
            } else {
                NormKind::Definition
            },
            norm: format!("Art. {num}"),
            title: text::clean_line(p.title.as_deref().unwrap_or("")),
            breadcrumb,
            units: numbered_units(&content, false),
            lang: Lang::En,
            framework: None,
            hints: terms,
        });
    }
    Ok(out)
}

#[derive(Deserialize)]
struct UkSection<'a> {
    #[serde(borrow)]
    section: Cow<'a, str>,
    #[serde(borrow, default)]
    title: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    part: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    chapter: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    content: Cow<'a, str>,
}

#[derive(Deserialize)]
struct UkSchedule<'a> {
    #[serde(borrow, default)]
    schedule: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    title: Option<Cow<'a, str>>,
    #[serde(borrow)]
    content: Cow<'a, str>,
}

/// Parses a UK GDPR file. `…-sections.json` → one [`NormKind::Article`] per
/// entry (`norm: "Art. 12A"`; paragraphs and whole articles omitted in the UK
/// version, shown as `. . . .` in the source, are left out); `…-schedules.json` → one
/// [`NormKind::Schedule`] per entry (`norm: "Anhang 1"` for the inserted
/// `ANNEX 1`, title from the upper-case heading); `…-metadata.json` holds no
/// legal text and yields no norms.
pub fn parse_uk(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    let name = file.rsplit('/').next().unwrap_or(file);
    if name.contains("metadata") {
        // Validate that it is JSON at all, then skip.
        serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
            .map_err(|e| text::json_error(file, &e))?;
        return Ok(Vec::new());
    }
    if name.contains("schedule") {
        let entries: Vec<UkSchedule<'_>> =
            serde_json::from_slice(bytes).map_err(|e| text::json_error(file, &e))?;
        return entries
            .iter()
            .enumerate()
            .map(|(i, s)| uk_schedule(file, i, s))
            .collect();
    }
    let entries: Vec<UkSection<'_>> =
        serde_json::from_slice(bytes).map_err(|e| text::json_error(file, &e))?;
    let mut out = Vec::with_capacity(entries.len());
    for (i, s) in entries.iter().enumerate() {
        let num = s.section.trim().trim_end_matches('.').trim();
        if num.is_empty() {
            return Err(ParseError::new(
                file,
                Some(format!("$[{i}].section")),
                "empty section number",
            ));
        }
        let title = text::clean_line(s.title.as_deref().unwrap_or(""));
        let content = uk_clean(&s.content);
        let is_def = title.eq_ignore_ascii_case("definitions");
        let units: Vec<RawUnit> = if is_def {
            vec![RawUnit {
                label: None,
                text: content,
            }]
        } else {
            glued_points(numbered_units(&content, true))
        }
        .into_iter()
        .filter(|u| !is_omitted(&u.text))
        .collect();
        if units.is_empty() {
            // Omitted in the UK version (`. . . .` only): no legal text.
            continue;
        }
        let breadcrumb = [s.part.as_deref(), s.chapter.as_deref()]
            .into_iter()
            .flatten()
            .map(text::clean_line)
            .filter(|h| !h.is_empty())
            .collect();
        out.push(RawNorm {
            kind: if is_def {
                NormKind::Definition
            } else {
                NormKind::Article
            },
            norm: format!("Art. {num}"),
            title,
            breadcrumb,
            units,
            lang: Lang::En,
            framework: None,
            hints: Vec::new(),
        });
    }
    Ok(out)
}

fn uk_schedule(file: &str, i: usize, s: &UkSchedule<'_>) -> Result<RawNorm, ParseError> {
    static HEAD_RE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(?:ANNEX|SCHEDULE)\s*(\d{1,3})").expect("static regex"));
    let content = uk_clean(&s.content);
    let given = s
        .schedule
        .as_deref()
        .map(str::trim)
        .filter(|x| !x.is_empty());
    let (num, rest) = match HEAD_RE.captures(&content) {
        Some(c) => {
            let end = c.get(0).map_or(0, |m| m.end());
            (
                given
                    .map(str::to_string)
                    .unwrap_or_else(|| c[1].to_string()),
                content[end..].to_string(),
            )
        }
        None => match given {
            Some(g) => (g.to_string(), content.clone()),
            None => {
                return Err(ParseError::new(
                    file,
                    Some(format!("$[{i}]")),
                    "schedule without number (neither `schedule` nor an `ANNEX n` heading)",
                ))
            }
        },
    };
    let (title, body) = match s.title.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => (text::clean_line(t), rest),
        None => glued_upper_title(&rest),
    };
    Ok(RawNorm {
        kind: NormKind::Schedule,
        norm: format!("Anhang {num}"),
        title,
        breadcrumb: Vec::new(),
        units: glued_points(numbered_units(&body, true)),
        lang: Lang::En,
        framework: None,
        hints: Vec::new(),
    })
}

/// Splits an upper-case heading glued to the following mixed-case text
/// (`LAWFUL PROCESSINGDisclosure for …` → `LAWFUL PROCESSING`, `Disclosure …`).
fn glued_upper_title(s: &str) -> (String, String) {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut end = 0;
    for (k, &(_, c)) in chars.iter().enumerate() {
        if c.is_lowercase() {
            // The capital just before starts the next word.
            end = if k >= 1 { chars[k - 1].0 } else { 0 };
            break;
        }
        end = s.len();
    }
    let title = s[..end].trim().trim_end_matches([':', ',']).to_string();
    if title.chars().filter(|c| c.is_alphabetic()).count() < 4 {
        return (String::new(), s.trim().to_string());
    }
    (title, s[end..].trim().to_string())
}

/// True for a unit whose text is only the ellipsis of omitted UK text.
fn is_omitted(s: &str) -> bool {
    s.chars().all(|c| c == '…' || c.is_whitespace())
}

/// UK text: whitespace cleaned, runs of `. . . .` (repealed text) as `…`.
fn uk_clean(s: &str) -> String {
    static DOTS_RE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?:\. ?){3,}").expect("static regex"));
    let c = text::clean_line(s);
    DOTS_RE.replace_all(&c, "… ").trim().to_string()
}

/// Splits flat text into `Abs. N` units by strictly sequential paragraph
/// numbers. `glued` allows the number to touch the following word (UK).
pub(crate) fn numbered_units(s: &str, glued: bool) -> Vec<RawUnit> {
    let bytes = s.as_bytes();
    let mut starts: Vec<(usize, usize, u32)> = Vec::new(); // (number start, text start, n)
    let mut expected = 1u32;
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() || (i > 0 && bytes[i - 1].is_ascii_digit()) {
            i += 1;
            continue;
        }
        // In glued text a heading may touch the number (`…defence2This …`).
        let after_letter = glued && i > 0 && s[..i].ends_with(|c: char| c.is_alphabetic());
        let boundary = if i == 0 {
            true
        } else {
            let before = s[..i].trim_end();
            let spaced = before.len() < i;
            before.is_empty()
                || (spaced && before.ends_with(['.', ';', ':', '…']))
                || (glued && before.ends_with(['.', ';', ':', ')', '…', '—']))
                || after_letter
        };
        let mut j = i;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        let n: Option<u32> = s[i..j].parse().ok();
        if boundary && n == Some(expected) {
            let mut k = j;
            if k < bytes.len() && bytes[k] == b'.' {
                k += 1;
            }
            let had_space = k < bytes.len() && bytes[k] == b' ';
            if had_space {
                k += 1;
            }
            let next = s[k..].chars().next();
            let ok_next =
                next.is_some_and(|c| c.is_uppercase() || matches!(c, '‘' | '“' | '"' | '…' | '('));
            let tight = k == j && next.is_some_and(char::is_uppercase);
            if ok_next && (had_space || glued) && (!after_letter || tight) {
                starts.push((i, k, expected));
                expected += 1;
                i = k;
                continue;
            }
        }
        i = j;
    }
    let mut units = Vec::new();
    let first = starts.first().map_or(s.len(), |x| x.0);
    let intro = s[..first].trim();
    if !intro.is_empty() || starts.is_empty() {
        units.push(RawUnit {
            label: None,
            text: point_lines(intro),
        });
    }
    for (k, &(_, text_start, n)) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(s.len(), |x| x.0);
        units.push(RawUnit {
            label: Some(format!("Abs. {n}")),
            text: point_lines(s[text_start..end].trim()),
        });
    }
    units
}

/// Separates the letter points the UK extraction glued to the text
/// (`…where:athe processing …;bthe core …`) into `(a) …` lines. Letters are
/// matched strictly in sequence (`a`, `b`, `c`, …), each after `:`, `—`, `;`
/// or `; or`/`, and`-style joiners; at least two points must be found.
fn glued_points(units: Vec<RawUnit>) -> Vec<RawUnit> {
    units
        .into_iter()
        .map(|u| RawUnit {
            label: u.label,
            text: split_glued_points(&u.text),
        })
        .collect()
}

fn split_glued_points(s: &str) -> String {
    let mut cuts: Vec<(usize, char)> = Vec::new();
    let mut expected = b'a';
    let bytes = s.as_bytes();
    let mut i = 1;
    while i + 1 < bytes.len() && expected <= b'z' {
        let c = bytes[i];
        let next = bytes[i + 1];
        if c == expected && (next.is_ascii_lowercase() || next == b' ') {
            let before = s[..i].trim_end();
            let ok = if expected == b'a' {
                before.ends_with(':') || before.ends_with('—')
            } else {
                before.ends_with([';', ':', '—', ','])
                    || ["; or", "; and", ", or", ", and", ";or", ";and"]
                        .iter()
                        .any(|j| before.ends_with(j))
            };
            if ok {
                cuts.push((i, expected as char));
                expected += 1;
                i += 1;
                continue;
            }
        }
        i += 1;
    }
    if cuts.len() < 2 {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + cuts.len() * 4);
    let mut last = 0;
    for (pos, letter) in cuts {
        out.push_str(s[last..pos].trim_end());
        out.push_str(&format!("\n({letter}) "));
        last = pos + 1;
        while s[last..].starts_with(' ') {
            last += 1;
        }
    }
    out.push_str(&s[last..]);
    out
}

/// Puts `a. …` / `1. …` points that follow `:`, `;` or `,` on their own line.
fn point_lines(s: &str) -> String {
    static RE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"([:;,]) ([a-z]{1,2}\.|\d{1,2}\.) ").expect("static regex"));
    RE.replace_all(s, "$1\n$2 ").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swiss_paragraphs_are_sequential() {
        let u = numbered_units("1 If processing under Article 13 paragraph 2 is risky: a. one; b. two. 2 The rest. 4 No.", false);
        assert_eq!(u.len(), 2);
        assert_eq!(u[0].label.as_deref(), Some("Abs. 1"));
        assert_eq!(
            u[0].text,
            "If processing under Article 13 paragraph 2 is risky:\na. one;\nb. two."
        );
        assert_eq!(u[1].text, "The rest. 4 No.");
    }

    #[test]
    fn uk_glued_paragraphs() {
        let u = numbered_units(
            "1The controller shall act in Article 10.2A group may.3Where x.",
            true,
        );
        let labels: Vec<_> = u
            .iter()
            .map(|u| u.label.clone().unwrap_or_default())
            .collect();
        assert_eq!(labels, vec!["Abs. 1", "Abs. 2", "Abs. 3"]);
        assert_eq!(u[1].text, "A group may.");
    }

    #[test]
    fn uk_glued_letter_points() {
        let t = split_glued_points(
            "in any case where:athe processing is public;bthe core activities; orc the core large.",
        );
        assert_eq!(t, "in any case where:\n(a) the processing is public;\n(b) the core activities; or\n(c) the core large.");
        assert_eq!(
            split_glued_points("no points: about this"),
            "no points: about this"
        );
    }

    #[test]
    fn glued_title() {
        let (t, b) = glued_upper_title("LAWFUL PROCESSINGDisclosure for purposes");
        assert_eq!(t, "LAWFUL PROCESSING");
        assert_eq!(b, "Disclosure for purposes");
    }
}
