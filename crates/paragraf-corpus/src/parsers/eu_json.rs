//! EU acts in the English JSON format of `eu/en/*.json`:
//! `{id, full_name, celex_id, effective_date, eur_lex_url,
//! articles:[{number,title,text,chapter}], definitions:[{term, definition,
//! article}], recitals:[{recital_number, text}]}`.
//!
//! Mapping to [`RawNorm`]s, in file order:
//! - every article → kind [`NormKind::Article`], `norm: "Art. 37"`, one unit
//!   per numbered paragraph (`1.\u{a0}\u{a0}\u{a0}` markers, label `Abs. 1`, the
//!   German citation label so that GDPR and DSGVO share chunk ids); text before
//!   the first numbered paragraph is an unlabelled unit; points `(a)`, `(1)`,
//!   `—` are kept inline as `(a) …` lines; hint `chapter:<chapter>`.
//! - the definitions article (named by the `definitions[].article` field, or
//!   else the article titled "Definitions") is emitted once, as kind
//!   [`NormKind::Definition`] instead of `Article`: when it has no numbered
//!   paragraphs its top-level points become units labelled `Nr. 1`, `Nr. 2`, …
//!   (the German citation "Art. 4 Nr. 1 DSGVO"); every defined term of the
//!   `definitions` list becomes a hint `term:<term>`. Definitions that name an
//!   article missing from the file become one `Definition` norm with one unit
//!   per term (label = the term).
//! - every recital → kind [`NormKind::Recital`], `norm: "ErwG 97"`;
//!   duplicate recital numbers (the GDPR file repeats 173 with a truncated
//!   first copy) are merged, keeping the longer text at the first position.
//! - the text after the signature of the final article (`Done at …`,
//!   footnotes, the annexes of the Official Journal page) is cut off the
//!   article; annexes found there (`ANNEX III` blocks) become kind
//!   [`NormKind::Annex`] norms `Anhang III` with hint `annex-source:embedded`,
//!   so that acts without a separate annex file (e.g. the Machinery
//!   Regulation's Anhang III) still have their annexes. Where an
//!   `eu/en-annexes` file exists for the same act, the pipeline should prefer
//!   that file and drop the embedded copies (same `norm`).

use crate::raw::{NormKind, ParseError, RawNorm, RawUnit};
use paragraf_types::Lang;
use regex::Regex;
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::LazyLock;

#[derive(Deserialize)]
struct Act<'a> {
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(default)]
    articles: Vec<Article<'a>>,
    #[serde(default)]
    definitions: Option<Vec<Definition<'a>>>,
    #[serde(default)]
    recitals: Option<Vec<Recital<'a>>>,
}

#[derive(Deserialize)]
struct Article<'a> {
    #[serde(borrow)]
    number: Cow<'a, str>,
    #[serde(borrow, default)]
    title: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    text: Cow<'a, str>,
    #[serde(borrow, default)]
    chapter: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Definition<'a> {
    #[serde(borrow)]
    term: Cow<'a, str>,
    #[serde(borrow, default)]
    definition: Cow<'a, str>,
    #[serde(borrow, default)]
    article: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Recital<'a> {
    recital_number: RecitalNumber,
    #[serde(borrow, default)]
    text: Cow<'a, str>,
}

/// Recital numbers are integers in the corpus; strings are accepted too.
#[derive(Deserialize)]
#[serde(untagged)]
enum RecitalNumber {
    Int(u64),
    Str(String),
}

impl RecitalNumber {
    fn label(&self) -> String {
        match self {
            RecitalNumber::Int(n) => n.to_string(),
            RecitalNumber::Str(s) => s.trim().to_string(),
        }
    }
}

/// Parses one `eu/en/*.json` act into articles, definitions, recitals and
/// embedded annexes (see the module docs for the mapping).
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    let act: Act<'_> = serde_json::from_slice(bytes).map_err(|e| text::json_error(file, &e))?;
    if act.articles.is_empty() {
        return Err(ParseError::new(
            file,
            Some("$.articles".into()),
            format!(
                "act {} has no articles",
                act.id.as_deref().unwrap_or("(without id)")
            ),
        ));
    }
    let definitions = act.definitions.unwrap_or_default();

    // Which article holds the definitions.
    let def_article: Option<String> = definitions
        .iter()
        .find_map(|d| d.article.as_deref().map(|a| a.trim().to_string()))
        .filter(|a| act.articles.iter().any(|x| x.number.trim() == a))
        .or_else(|| {
            act.articles
                .iter()
                .find(|a| {
                    a.title
                        .as_deref()
                        .is_some_and(|t| t.trim().eq_ignore_ascii_case("definitions"))
                })
                .map(|a| a.number.trim().to_string())
        });

    let mut out = Vec::with_capacity(act.articles.len() + 200);
    let mut embedded_annexes = Vec::new();
    for (i, art) in act.articles.iter().enumerate() {
        let number = art.number.trim();
        if number.is_empty() {
            return Err(ParseError::new(
                file,
                Some(format!("$.articles[{i}].number")),
                "empty article number",
            ));
        }
        let blocks = text::blocks(&art.text);
        let (body, tail) = split_tail(blocks);
        embedded_annexes.extend(annexes_from_tail(&tail));
        let is_def = def_article.as_deref() == Some(number);
        let mut units = paragraph_units(&body);
        let mut hints = Vec::new();
        if let Some(ch) = art
            .chapter
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
        {
            hints.push(format!("chapter:{ch}"));
        }
        if is_def {
            if units.len() == 1 && units[0].label.is_none() {
                units = definition_point_units(&body);
            }
            for d in definitions
                .iter()
                .filter(|d| d.article.as_deref().is_none_or(|a| a.trim() == number))
            {
                hints.push(format!("term:{}", text::clean_line(&d.term)));
            }
        }
        if units.is_empty() {
            units.push(RawUnit {
                label: None,
                text: String::new(),
            });
        }
        out.push(RawNorm {
            kind: if is_def {
                NormKind::Definition
            } else {
                NormKind::Article
            },
            norm: format!("Art. {number}"),
            title: text::clean_line(art.title.as_deref().unwrap_or("")),
            breadcrumb: art
                .chapter
                .as_deref()
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(|c| vec![format!("Chapter {c}")])
                .unwrap_or_default(),
            units,
            lang: Lang::En,
            framework: None,
            hints,
        });
    }

    // Definitions naming an article the file lacks: keep them as data.
    let orphans: Vec<&Definition<'_>> = definitions
        .iter()
        .filter(|d| match d.article.as_deref() {
            Some(a) => !act.articles.iter().any(|x| x.number.trim() == a.trim()),
            None => def_article.is_none(),
        })
        .collect();
    if !orphans.is_empty() {
        let norm = orphans[0]
            .article
            .as_deref()
            .map(|a| format!("Art. {}", a.trim()))
            .unwrap_or_else(|| "Definitions".to_string());
        out.push(RawNorm {
            kind: NormKind::Definition,
            norm,
            title: "Definitions".into(),
            breadcrumb: Vec::new(),
            units: orphans
                .iter()
                .map(|d| RawUnit {
                    label: Some(text::clean_line(&d.term)),
                    text: text::clean_text(&d.definition),
                })
                .collect(),
            lang: Lang::En,
            framework: None,
            hints: orphans
                .iter()
                .map(|d| format!("term:{}", text::clean_line(&d.term)))
                .collect(),
        });
    }

    out.extend(recital_norms(act.recitals.unwrap_or_default()));
    out.extend(embedded_annexes);
    Ok(out)
}

/// The recitals, merged by number (the longer text wins).
fn recital_norms(recitals_in: Vec<Recital<'_>>) -> Vec<RawNorm> {
    let mut out = Vec::new();
    // Recitals, merged by number.
    let mut recitals: Vec<(String, String)> = Vec::new();
    for r in recitals_in {
        let num = r.recital_number.label();
        let body = text::clean_text(&text::strip_footnote_refs(&r.text));
        if let Some(existing) = recitals.iter_mut().find(|(n, _)| *n == num) {
            if body.len() > existing.1.len() {
                existing.1 = body;
            }
        } else {
            recitals.push((num, body));
        }
    }
    for (num, body) in recitals {
        out.push(RawNorm {
            kind: NormKind::Recital,
            norm: format!("ErwG {num}"),
            title: format!("Recital {num}"),
            breadcrumb: Vec::new(),
            units: vec![RawUnit {
                label: None,
                text: body,
            }],
            lang: Lang::En,
            framework: None,
            hints: Vec::new(),
        });
    }
    out
}

static PARA_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d{1,3}[a-z]?)\.\u{a0}+\s*(.*)$").expect("static regex"));
static POINT_ONLY_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\((?:[a-z]{1,2}|[ivxlc]{1,6}|\d{1,3}[a-z]?)\)|\d{1,3}\.|[a-z]\)|—|–|-|•)$")
        .expect("static regex")
});
static ANNEX_HEAD_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ANNEX\s+([IVXLC]+)$").expect("static regex"));
static FOOTNOTE_BLOCK_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\(\d{1,3}\)\u{a0}").expect("static regex"));

/// Splits the article blocks into the article body and the tail after the
/// signature (`Done at …`) or the footnote list.
fn split_tail(blocks: Vec<String>) -> (Vec<String>, Vec<String>) {
    let mut cut = None;
    for (i, b) in blocks.iter().enumerate() {
        let next = blocks.get(i + 1).map(String::as_str).unwrap_or("");
        let c = text::clean_line(b);
        if c.starts_with("Done at ")
            || FOOTNOTE_BLOCK_RE.is_match(b)
            || c.starts_with("////")
            || (is_number_paren(&c) && text::clean_line(next).starts_with("OJ "))
            || (c == "("
                && next.trim().chars().all(|ch| ch.is_ascii_digit())
                && blocks
                    .get(i + 2)
                    .is_some_and(|n| n.trim_start().starts_with(')')))
        {
            cut = Some(i);
            break;
        }
    }
    match cut {
        Some(i) => {
            let mut body = blocks;
            let tail = body.split_off(i);
            (body, tail)
        }
        None => (blocks, Vec::new()),
    }
}

fn is_number_paren(s: &str) -> bool {
    s.len() >= 3
        && s.starts_with('(')
        && s.ends_with(')')
        && s[1..s.len() - 1].chars().all(|c| c.is_ascii_digit())
}

/// Groups raw blocks into units split at numbered paragraphs.
fn paragraph_units(blocks: &[String]) -> Vec<RawUnit> {
    let mut units: Vec<RawUnit> = Vec::new();
    let mut cur_label: Option<String> = None;
    let mut cur_lines: Vec<String> = Vec::new();
    let flush = |label: Option<String>, lines: &mut Vec<String>, units: &mut Vec<RawUnit>| {
        if label.is_some() || !lines.is_empty() {
            units.push(RawUnit {
                label,
                text: lines.join("\n"),
            });
        }
        lines.clear();
    };
    let lines = join_points(blocks);
    for line in lines {
        if let Some(c) = PARA_RE.captures(&line.raw) {
            flush(cur_label.take(), &mut cur_lines, &mut units);
            cur_label = Some(format!("Abs. {}", &c[1]));
            let rest = text::clean_line(&c[2]);
            if !rest.is_empty() {
                cur_lines.push(rest);
            }
        } else if !line.clean.is_empty() {
            cur_lines.push(line.clean);
        }
    }
    flush(cur_label, &mut cur_lines, &mut units);
    units
}

/// Units of a definitions article without numbered paragraphs: the intro,
/// then one unit per top-level `(N)` point labelled `Nr. N`.
fn definition_point_units(blocks: &[String]) -> Vec<RawUnit> {
    static TOP_RE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\((\d{1,3}[a-z]?)\) ").expect("static regex"));
    let mut units: Vec<RawUnit> = Vec::new();
    let mut label: Option<String> = None;
    let mut lines: Vec<String> = Vec::new();
    for line in join_points(blocks) {
        if line.clean.is_empty() {
            continue;
        }
        if let Some(c) = TOP_RE.captures(&line.clean) {
            if label.is_some() || !lines.is_empty() {
                units.push(RawUnit {
                    label: label.take(),
                    text: lines.join("\n"),
                });
                lines.clear();
            }
            label = Some(format!("Nr. {}", &c[1]));
        }
        lines.push(line.clean);
    }
    if label.is_some() || !lines.is_empty() {
        units.push(RawUnit {
            label,
            text: lines.join("\n"),
        });
    }
    units
}

struct Line {
    /// Block with only amendment markers removed (paragraph markers intact).
    raw: String,
    /// Normalised text.
    clean: String,
}

/// Merges a lone point marker block (`(a)`, `1.`, `—`) with the block that
/// follows it, so that points read `(a) text`.
fn join_points(blocks: &[String]) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::with_capacity(blocks.len());
    let mut pending: Option<String> = None;
    for b in blocks {
        let clean = text::clean_line(&text::strip_footnote_refs(b));
        if clean.is_empty() {
            continue;
        }
        if POINT_ONLY_RE.is_match(&clean) {
            if let Some(p) = pending.take() {
                out.push(Line {
                    raw: p.clone(),
                    clean: p,
                });
            }
            pending = Some(clean);
            continue;
        }
        // A numbered paragraph never continues a point marker (GDPR Art. 97
        // has empty points `(a)`, `(b)` right before paragraph 3).
        if PARA_RE.is_match(b) {
            if let Some(p) = pending.take() {
                out.push(Line {
                    raw: p.clone(),
                    clean: p,
                });
            }
        }
        match pending.take() {
            Some(p) => {
                let joined = format!("{p} {clean}");
                out.push(Line {
                    raw: joined.clone(),
                    clean: joined,
                });
            }
            None => out.push(Line {
                raw: text::strip_footnote_refs(b).into_owned(),
                clean,
            }),
        }
    }
    if let Some(p) = pending {
        out.push(Line {
            raw: p.clone(),
            clean: p,
        });
    }
    out
}

/// Annexes found in the tail of the final article.
fn annexes_from_tail(tail: &[String]) -> Vec<RawNorm> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tail.len() {
        let head = text::clean_line(&tail[i]);
        let Some(c) = ANNEX_HEAD_RE.captures(&head) else {
            i += 1;
            continue;
        };
        let numeral = c[1].to_string();
        let mut j = i + 1;
        let mut body = Vec::new();
        while j < tail.len() && !ANNEX_HEAD_RE.is_match(&text::clean_line(&tail[j])) {
            if tail[j].trim_start().starts_with("////") {
                // Script debris of the EUR-Lex page: the end of the text.
                j = tail.len();
                break;
            }
            if !FOOTNOTE_BLOCK_RE.is_match(&tail[j]) {
                body.push(tail[j].clone());
            }
            j += 1;
        }
        let title = body
            .first()
            .map(|t| text::clean_line(t))
            .filter(|t| !POINT_ONLY_RE.is_match(t) && !PARA_RE.is_match(t))
            .unwrap_or_default();
        let rest = if title.is_empty() {
            &body[..]
        } else {
            &body[1..]
        };
        let units = annex_units(rest);
        out.push(RawNorm {
            kind: NormKind::Annex,
            norm: format!("Anhang {numeral}"),
            title,
            breadcrumb: Vec::new(),
            units,
            lang: Lang::En,
            framework: None,
            hints: vec!["annex-source:embedded".into()],
        });
        i = j;
    }
    out
}

/// Units of an embedded annex: split at `Part I` / `Section A` headings.
fn annex_units(blocks: &[String]) -> Vec<RawUnit> {
    static PART_RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?i:(part|section))\s+([IVXLC]+|[A-Z]|\d{1,2})\.?(?:\s|$)")
            .expect("static regex")
    });
    let mut units: Vec<RawUnit> = Vec::new();
    let mut label: Option<String> = None;
    let mut lines: Vec<String> = Vec::new();
    for line in join_points(blocks) {
        if let Some(c) = PART_RE.captures(&line.clean) {
            if label.is_some() || !lines.is_empty() {
                units.push(RawUnit {
                    label: label.take(),
                    text: lines.join("\n"),
                });
                lines.clear();
            }
            label = Some(text::part_label(&c[1], &c[2]));
        }
        lines.push(line.clean);
    }
    if label.is_some() || !lines.is_empty() {
        units.push(RawUnit {
            label,
            text: lines.join("\n"),
        });
    }
    if units.is_empty() {
        units.push(RawUnit {
            label: None,
            text: String::new(),
        });
    }
    units
}

/// Text helpers shared by the corpus-B parsers (EU JSON, annexes, foreign
/// acts, catalogues, mappings).
pub(crate) mod text {
    use crate::raw::ParseError;
    use regex::Regex;
    use std::sync::LazyLock;

    /// A serde_json error as a [`ParseError`] with line and column.
    pub(crate) fn json_error(file: &str, e: &serde_json::Error) -> ParseError {
        let what = match e.classify() {
            serde_json::error::Category::Eof => "truncated JSON",
            serde_json::error::Category::Syntax => "malformed JSON",
            serde_json::error::Category::Data => "unexpected JSON structure",
            serde_json::error::Category::Io => "read error",
        };
        ParseError::new(
            file,
            Some(format!("line {} column {}", e.line(), e.column())),
            format!("{what}: {e}"),
        )
    }

    /// True for the space-like characters the sources use (NBSP, narrow
    /// NBSP, figure space, thin space, ideographic space, tab).
    fn is_space(c: char) -> bool {
        c.is_whitespace() || matches!(c, '\u{a0}' | '\u{202f}' | '\u{2007}' | '\u{2009}')
    }

    /// One line: amendment markers (`▼M2`, `►B`, `◄`) removed, every run of
    /// whitespace (NBSP included) collapsed to one space, trimmed.
    pub(crate) fn clean_line(s: &str) -> String {
        static MARKER_RE: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r"[▼►◄](?:[A-Z]\d{0,3})?").expect("static regex"));
        let s = if s.contains(['▼', '►', '◄']) {
            MARKER_RE.replace_all(s, " ")
        } else {
            std::borrow::Cow::Borrowed(s)
        };
        let mut out = String::with_capacity(s.len());
        let mut space = false;
        for c in s.chars() {
            if is_space(c) || c.is_control() {
                space = true;
            } else {
                if space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push(c);
            }
        }
        out
    }

    /// Multi-line text: each line cleaned, empty lines dropped, lines joined
    /// by `\n` (paragraph breaks kept as line breaks).
    pub(crate) fn clean_text(s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        for line in s.split('\n') {
            let l = clean_line(line);
            if l.is_empty() {
                continue;
            }
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&l);
        }
        out
    }

    /// Raw blocks of an EU JSON text: split at blank lines, with the
    /// consolidated-text footnote references `(\n\n8\n\n)` removed first.
    pub(crate) fn blocks(s: &str) -> Vec<String> {
        static SPLIT_REF_RE: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"\u{a0}?\(\s*\n\s*\n\s*\d{1,3}\s*\n\s*\n\s*\)").expect("static regex")
        });
        let s = if s.contains("(\n\n") {
            // Only inline references (preceded by text on the same line).
            let mut out = String::with_capacity(s.len());
            let mut last = 0;
            for m in SPLIT_REF_RE.find_iter(s) {
                let before = &s[..m.start()];
                let inline = before
                    .rsplit('\n')
                    .next()
                    .is_some_and(|l| !l.trim().is_empty());
                if inline {
                    out.push_str(&s[last..m.start()]);
                    last = m.end();
                }
            }
            out.push_str(&s[last..]);
            out
        } else {
            s.to_string()
        };
        s.split("\n\n")
            .flat_map(|b| b.split('\n'))
            .map(|b| b.trim_matches(|c: char| c == '\r').to_string())
            .filter(|b| !b.trim().is_empty())
            .collect()
    }

    /// Removes EUR-Lex footnote references written as NBSP + `(12)` after a
    /// word (`Council\u{a0}(18)`).
    pub(crate) fn strip_footnote_refs(s: &str) -> std::borrow::Cow<'_, str> {
        static REF_RE: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(\S)\u{a0}\(\d{1,3}\)([\s,.;:)]|$)").expect("static regex")
        });
        if s.contains('\u{a0}') {
            REF_RE.replace_all(s, "$1$2")
        } else {
            std::borrow::Cow::Borrowed(s)
        }
    }

    /// Removes HTML tags (`<br>` becomes a space), markdown links
    /// (`[text](url)` → `text`), emphasis markers and decodes the common
    /// entities; then cleans the line.
    pub(crate) fn strip_markup(s: &str) -> String {
        static LINK_RE: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r"\[([^\]]*)\]\([^)\s]*\)").expect("static regex"));
        static TAG_RE: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r"</?[A-Za-z][A-Za-z0-9]*[^<>]*>").expect("static regex"));
        let mut s = std::borrow::Cow::Borrowed(s);
        if s.contains("](") {
            s = std::borrow::Cow::Owned(LINK_RE.replace_all(&s, "$1").into_owned());
        }
        if s.contains('<') {
            s = std::borrow::Cow::Owned(TAG_RE.replace_all(&s, " ").into_owned());
        }
        let mut t = s.replace("**", "").replace("__", "");
        if t.contains('&') {
            t = t
                .replace("&nbsp;", " ")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
        }
        clean_line(&t)
    }

    /// German label of an annex part/section heading: `Teil II`,
    /// `Abschnitt A`.
    pub(crate) fn part_label(kind: &str, id: &str) -> String {
        if kind.eq_ignore_ascii_case("part") {
            format!("Teil {id}")
        } else {
            format!("Abschnitt {id}")
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn clean_line_collapses_nbsp_and_markers() {
            assert_eq!(clean_line("  a\u{a0}\u{a0} b\t c "), "a b c");
            assert_eq!(clean_line("▼M2 (c) text"), "(c) text");
        }

        #[test]
        fn strip_markup_removes_links_and_tags() {
            assert_eq!(
                strip_markup("see ([C1](https://x.org/#a)) <br>now **bold**"),
                "see (C1) now bold"
            );
            assert_eq!(strip_markup("a &amp; b"), "a & b");
        }

        #[test]
        fn footnote_refs_are_removed() {
            assert_eq!(
                strip_footnote_refs("the Council\u{a0}(18), and"),
                "the Council, and"
            );
            assert_eq!(
                strip_footnote_refs("point\u{a0}(a) stays"),
                "point\u{a0}(a) stays"
            );
        }

        #[test]
        fn split_footnote_refs_are_removed_from_blocks() {
            let b = blocks("Directive)\u{a0}(\n\n8\n\n) shall apply.\n\nNext");
            assert_eq!(
                b,
                vec!["Directive) shall apply.".to_string(), "Next".to_string()]
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn paragraphs_and_points() {
        let u = paragraph_units(&b(&[
            "1.\u{a0}\u{a0}\u{a0}The controller shall:",
            "(a)",
            "do this;",
            "2.\u{a0}\u{a0}\u{a0}Second.",
        ]));
        assert_eq!(u.len(), 2);
        assert_eq!(u[0].label.as_deref(), Some("Abs. 1"));
        assert_eq!(u[0].text, "The controller shall:\n(a) do this;");
        assert_eq!(u[1].text, "Second.");
    }

    #[test]
    fn empty_points_do_not_swallow_the_next_paragraph() {
        let u = paragraph_units(&b(&[
            "2.\u{a0}\u{a0}\u{a0}The Commission shall examine:",
            "(a)",
            "(b)",
            "3.\u{a0}\u{a0}\u{a0}Third.",
        ]));
        assert_eq!(u.len(), 2);
        assert_eq!(u[0].text, "The Commission shall examine:\n(a)\n(b)");
        assert_eq!(u[1].label.as_deref(), Some("Abs. 3"));
    }

    #[test]
    fn tail_is_cut_at_signature() {
        let (body, tail) = split_tail(b(&[
            "Text.",
            "Done at Brussels.",
            "ANNEX\u{a0}I",
            "Title",
            "Body",
        ]));
        assert_eq!(body, b(&["Text."]));
        let ann = annexes_from_tail(&tail);
        assert_eq!(ann.len(), 1);
        assert_eq!(ann[0].norm, "Anhang I");
        assert_eq!(ann[0].title, "Title");
    }
}
