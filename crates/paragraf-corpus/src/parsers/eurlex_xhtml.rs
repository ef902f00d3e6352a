//! EUR-Lex XHTML of the Official Journal, German text, as served by
//! eur-lex.europa.eu (`eu/de/ki-vo.eurlex.xhtml`): HTML, not strict XML
//! (unclosed `<meta>`/`<link>`, page scripts), read leniently with quick-xml
//! (end names unchecked, void elements closed implicitly, `<script>`/`<style>`
//! skipped as raw text) into a small element tree.
//!
//! Mapping to [`RawNorm`]s, following the Formex parser (German DSGVO) so
//! that the German text and the English `eu_json`/`eu_annex_json` files of
//! the same act share norm labels (`Art. 5`, `ErwG 12`, `Anhang III`):
//! - `<div id="art_5">` → kind [`NormKind::Article`], `norm: "Art. 5"`, title
//!   from `p.oj-sti-art`; `p.oj-ti-art` (`Artikel 5`) must agree with the id.
//!   Each paragraph `<div id="005.001">` (a direct child whose number is the
//!   article's) is one unit labelled `Abs. n` from its `(n)` marker, text
//!   `(1) …`; text before the first paragraph is an unlabelled unit. Quoted
//!   paragraphs of amended acts (`<div id="017.003">` inside Art. 102 ff.)
//!   are text, not paragraphs.
//! - the definitions article (title `Begriffsbestimmungen`, no paragraphs)
//!   is kind [`NormKind::Definition`], like the English `eu_json` variant:
//!   the intro is an unlabelled unit, every numbered point a unit `Nr. n`
//!   (`Art. 3 Nr. 1 KI-VO`); each defined term becomes a hint `term:<term>`.
//! - lists are tables whose rows hold a marker cell (`a)`, `1.`, `i)`, empty
//!   leading cells allowed) and a text cell: one line `a) …` per row, nested
//!   lists as further lines; other tables become one `cell | cell` line per
//!   row.
//! - `<div id="rct_12">` → kind [`NormKind::Recital`], `norm: "ErwG 12"`, one
//!   unit `(12) …`, breadcrumb `Erwägungsgründe`.
//! - `<div id="anx_III">` → kind [`NormKind::Annex`], `norm: "Anhang III"`,
//!   title from the `p.oj-doc-ti` after `ANHANG III`; units split at
//!   `Abschnitt A` / `Teil I` headings (`p.oj-ti-grseq-1`), labels as in the
//!   English annex parser (`Abschnitt A`, `Teil I`).
//! - parts, chapters and sections (`<div id="cpt_III">`, `cpt_III.sct_1`)
//!   form the breadcrumb (`KAPITEL III HOCHRISIKO-KI-SYSTEME`,
//!   `ABSCHNITT 1 …`, as printed) and the hint `chapter:III`.
//! - footnote references (`<a href="#ntr…">(1)</a>`) and footnotes
//!   (`p.oj-note`) are dropped, superscripts read `10^25`, whitespace is
//!   collapsed; the preamble, signature and page furniture yield nothing.
//!
//! Errors name the file and `byte N (line L)`: malformed markup, an end tag
//! that closes an element still holding an unclosed `<div>`/`<table>`, a
//! truncated document, a heading that contradicts its id (`art_5` headed
//! `Artikel 6`), a duplicate norm, a page without articles. A document in
//! another language than German is refused (its norms would carry the wrong
//! language and collide with the German ids); use the English JSON formats
//! for English text.

use super::text::absatz_number;
use crate::raw::{NormKind, ParseError, RawNorm, RawUnit};
use paragraf_types::Lang;
use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

mod tree;
use tree::{build_tree, position, Element, Node};

/// Parse one German EUR-Lex XHTML act (see the module docs).
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    let text = super::text::utf8(file, bytes)?;
    let root = build_tree(file, text)?;
    if let Some((lang, pos)) = document_language(&root) {
        if !lang.eq_ignore_ascii_case("de") {
            return Err(ParseError::new(
                file,
                Some(position(text, pos)),
                format!("document language `{lang}`: only the German EUR-Lex text is read by this format"),
            ));
        }
    }
    let mut w = Walker {
        file,
        text,
        out: Vec::new(),
        seen: HashMap::new(),
        crumbs: Vec::new(),
        chapter: None,
        articles: 0,
    };
    w.walk(&root)?;
    if w.articles == 0 {
        return Err(ParseError::new(
            file,
            None,
            "no articles found: expected EUR-Lex XHTML with <div id=\"art_N\"> elements",
        ));
    }
    Ok(w.out)
}

/// The language the page declares: `p.oj-hd-lg` (`DE`), else `lang` of
/// `<html>`.
fn document_language(root: &Element) -> Option<(String, usize)> {
    if let Some(p) = root.find(&|e| e.has_class("oj-hd-lg")) {
        let t = inline_text(p);
        if !t.is_empty() {
            return Some((t, p.pos));
        }
    }
    root.find(&|e| e.name == "html" && !e.lang.is_empty())
        .map(|h| (h.lang.clone(), h.pos))
}

// ------------------------------------------------------------- rendering --

/// Marks a dropped footnote reference until the line is cleaned.
const FOOTNOTE: char = '\u{E000}';

/// Lines of text being rendered.
#[derive(Default)]
struct Lines {
    lines: Vec<String>,
    cur: String,
}

impl Lines {
    fn flush(&mut self) {
        let l = clean_line(&self.cur);
        self.cur.clear();
        if !l.is_empty() {
            self.lines.push(l);
        }
    }

    fn finish(mut self) -> Vec<String> {
        self.flush();
        self.lines
    }
}

/// Collapse whitespace, drop soft hyphens, remove footnote marks with the
/// space before them (`Rates (1), und` → `Rates, und`).
fn clean_line(s: &str) -> String {
    static MARK_PUNCT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\s*\x{E000}[\x{E000}\s]*([,.;:)\]“”]|$)").expect("static regex")
    });
    static MARK: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\s*\x{E000}[\x{E000}\s]*").expect("static regex"));
    let s: String = s
        .chars()
        .filter(|c| !matches!(c, '\u{ad}' | '\u{200b}' | '\u{feff}'))
        .collect();
    let s = if s.contains(FOOTNOTE) {
        let s = MARK_PUNCT.replace_all(&s, "$1");
        MARK.replace_all(&s, " ").into_owned()
    } else {
        s
    };
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_footnote_ref(e: &Element) -> bool {
    e.name == "a"
        && (e.href.starts_with("#ntr")
            || e.id.starts_with("ntc")
            || e.find(&|x| x.has_class("oj-note-tag")).is_some())
}

fn is_skipped(e: &Element) -> bool {
    e.has_class("oj-note")
        || matches!(
            e.name.as_str(),
            "head"
                | "title"
                | "meta"
                | "link"
                | "col"
                | "colgroup"
                | "hr"
                | "img"
                | "button"
                | "input"
                | "nav"
                | "noscript"
                | "form"
                | "select"
        )
}

fn is_inline_p(e: &Element) -> bool {
    let s: String = e.style.chars().filter(|c| !c.is_whitespace()).collect();
    s.contains("display:inline")
}

fn render_nodes(nodes: &[Node], out: &mut Lines) {
    for n in nodes {
        render_node(n, out);
    }
}

fn render_node(n: &Node, out: &mut Lines) {
    let e = match n {
        Node::Text(t) => {
            out.cur.push_str(t);
            return;
        }
        Node::El(e) => e,
    };
    if is_skipped(e) {
        return;
    }
    if is_footnote_ref(e) {
        out.cur.push(FOOTNOTE);
        return;
    }
    match e.name.as_str() {
        "br" => out.cur.push(' '),
        "sup" => {
            out.cur.push('^');
            render_nodes(&e.children, out);
        }
        "span" if e.has_class("oj-super") => {
            out.cur.push('^');
            render_nodes(&e.children, out);
        }
        "table" => {
            out.flush();
            render_table(e, out);
        }
        "p" if is_inline_p(e) => render_nodes(&e.children, out),
        "p" | "div" | "li" | "ul" | "ol" | "dl" | "dt" | "dd" | "tr" | "td" | "th" | "tbody"
        | "thead" | "tfoot" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote"
        | "section" | "article" | "body" | "html" => {
            out.flush();
            render_nodes(&e.children, out);
            out.flush();
        }
        _ => render_nodes(&e.children, out),
    }
}

/// Lines of an element's content.
fn lines_of(nodes: &[Node]) -> Vec<String> {
    let mut l = Lines::default();
    render_nodes(nodes, &mut l);
    l.finish()
}

/// The element's text on one line.
fn inline_text(e: &Element) -> String {
    lines_of(&e.children).join(" ")
}

static MARKER_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^„?(?:\(?[0-9]{1,3}[a-z]?[.)]|\(?[a-z]{1,2}\)|\(?[ivxlc]{1,6}\)|\([0-9]{1,3}[a-z]?\)|[0-9]{1,2}(?:\.[0-9]{1,2})+\.?|[—–•*-])$")
        .expect("static regex")
});

fn rows(table: &Element) -> Vec<&Element> {
    let mut out = Vec::new();
    for e in table.elements() {
        match e.name.as_str() {
            "tr" => out.push(e),
            "tbody" | "thead" | "tfoot" => out.extend(e.elements().filter(|r| r.name == "tr")),
            _ => {}
        }
    }
    out
}

fn cells(row: &Element) -> Vec<Vec<String>> {
    row.elements()
        .filter(|c| c.name == "td" || c.name == "th")
        .map(|c| lines_of(&c.children))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The list marker of a table laid out as `marker | text` (first row).
fn table_marker(table: &Element) -> Option<String> {
    let row = rows(table).into_iter().next()?;
    let cs = cells(row);
    (cs.len() >= 2 && is_marker_cells(&cs)).then(|| cs[..cs.len() - 1].concat().join(" "))
}

fn is_marker_cells(cs: &[Vec<String>]) -> bool {
    cs[..cs.len() - 1]
        .iter()
        .all(|c| c.len() == 1 && MARKER_RE.is_match(&c[0]))
}

fn render_table(table: &Element, out: &mut Lines) {
    for row in rows(table) {
        let cs = cells(row);
        match cs.len() {
            0 => {}
            1 => out.lines.extend(cs.into_iter().flatten()),
            _ if is_marker_cells(&cs) => {
                let marker = cs[..cs.len() - 1].concat().join(" ");
                let mut content = cs[cs.len() - 1].iter();
                match content.next() {
                    Some(first) => out.lines.push(format!("{marker} {first}")),
                    None => out.lines.push(marker),
                }
                out.lines.extend(content.cloned());
            }
            _ => out.lines.push(
                cs.iter()
                    .map(|c| c.join(" "))
                    .collect::<Vec<_>>()
                    .join(" | "),
            ),
        }
    }
}

// ---------------------------------------------------------------- norms --

/// Structure divisions: parts, titles, chapters, sections, subsections
/// (`prt_II`, `cpt_III`, `cpt_III.sct_1`), not their title blocks (`….tit_1`).
static DIVISION_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:prt|tis|cpt)_[0-9A-Za-z]+(?:\.(?:tis|cpt|sct|sbs)_[0-9A-Za-z]+)*$")
        .expect("static regex")
});
/// The numeral of a chapter division id (`cpt_III`, `prt_I.cpt_II`).
static CHAPTER_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|\.)cpt_([IVXLC]+)$").expect("static regex"));
static ART_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^art_(\d{1,4}[a-z]?)$").expect("static regex"));
static RCT_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^rct_(\d{1,4}[a-z]?)$").expect("static regex"));
static ANX_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^anx_([IVXLC]+[a-z]?|\d{1,3}[a-z]?)$").expect("static regex"));
static PARA_ID_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^0*(\d{1,4}[a-z]?)\.0*(\d{1,4}[a-z]?)$").expect("static regex"));
static DEF_TERM_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\d{1,3}[a-z]?\. „([^“]{1,160})“").expect("static regex"));
/// A recital number cell: `(12)`.
static RECITAL_NO_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\(\d{1,4}[a-z]?\)( |$)").expect("static regex"));

static PART_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(Abschnitt|ABSCHNITT|Teil|TEIL)\s+([IVXLC]+|[A-Z]|\d{1,2})(?:$|\s|\.|:|—|–)")
        .expect("static regex")
});

struct Walker<'a> {
    file: &'a str,
    text: &'a str,
    out: Vec<RawNorm>,
    /// Norm label → byte offset of its first occurrence.
    seen: HashMap<String, usize>,
    /// Chapter / section headings above the current element.
    crumbs: Vec<String>,
    /// Roman numeral of the current chapter.
    chapter: Option<String>,
    articles: usize,
}

impl Walker<'_> {
    fn err(&self, pos: usize, msg: String) -> ParseError {
        ParseError::new(self.file, Some(position(self.text, pos)), msg)
    }

    fn walk(&mut self, el: &Element) -> Result<(), ParseError> {
        if DIVISION_RE.is_match(&el.id) {
            let heading = division_heading(el);
            let pushed = !heading.is_empty();
            if pushed {
                self.crumbs.push(heading);
            }
            let chapter = CHAPTER_RE.captures(&el.id).map(|c| c[1].to_string());
            let prev = match chapter {
                Some(ch) => self.chapter.replace(ch),
                None => self.chapter.clone(),
            };
            for e in el.elements() {
                self.walk(e)?;
            }
            if pushed {
                self.crumbs.pop();
            }
            self.chapter = prev;
            return Ok(());
        }
        if let Some(c) = ART_RE.captures(&el.id) {
            return self.article(el, &c[1]);
        }
        if let Some(c) = RCT_RE.captures(&el.id) {
            return self.recital(el, &c[1]);
        }
        if let Some(c) = ANX_RE.captures(&el.id) {
            return self.annex(el, &c[1]);
        }
        if is_skipped(el) {
            return Ok(());
        }
        for e in el.elements() {
            self.walk(e)?;
        }
        Ok(())
    }

    fn push(&mut self, norm: RawNorm, pos: usize) -> Result<(), ParseError> {
        if let Some(first) = self.seen.get(&norm.norm) {
            return Err(self.err(
                pos,
                format!(
                    "duplicate {} (first at {})",
                    norm.norm,
                    position(self.text, *first)
                ),
            ));
        }
        self.seen.insert(norm.norm.clone(), pos);
        if norm.units.iter().any(|u| !u.text.is_empty()) {
            self.out.push(norm);
        }
        Ok(())
    }

    fn article(&mut self, el: &Element, num: &str) -> Result<(), ParseError> {
        self.articles += 1;
        let norm = format!("Art. {num}");
        if let Some(h) = el.elements().find(|e| e.has_class("oj-ti-art")) {
            let t = inline_text(h);
            let n = t.strip_prefix("Artikel").map(str::trim);
            if n != Some(num) {
                return Err(self.err(
                    h.pos,
                    format!(
                        "heading `{t}` of <div id=\"{}\"> is not `Artikel {num}`",
                        el.id
                    ),
                ));
            }
        }
        let title = el
            .find(&|e| e.has_class("oj-sti-art"))
            .map(inline_text)
            .unwrap_or_default();
        let is_para = |e: &Element| {
            e.name == "div"
                && PARA_ID_RE
                    .captures(&e.id)
                    .is_some_and(|c| c[1].eq_ignore_ascii_case(num))
        };
        let has_paras = el.elements().any(is_para);
        let is_def = !has_paras && title.to_lowercase().contains("begriffsbestimmung");

        let mut units: Vec<RawUnit> = Vec::new();
        let mut label: Option<String> = None;
        let mut cur = Lines::default();
        let mut hints = Vec::new();
        let close = |label: Option<String>, cur: Lines, units: &mut Vec<RawUnit>| {
            let lines = cur.finish();
            if label.is_some() || !lines.is_empty() {
                units.push(RawUnit {
                    label,
                    text: lines.join("\n"),
                });
            }
        };
        for n in &el.children {
            if let Node::El(e) = n {
                // the heading `Artikel 5` and the title block (read above)
                if e.has_class("oj-ti-art")
                    || e.has_class("oj-sti-art")
                    || e.find(&|x| x.has_class("oj-sti-art")).is_some()
                {
                    continue;
                }
                if is_para(e) {
                    close(label.take(), std::mem::take(&mut cur), &mut units);
                    let lines = lines_of(&e.children);
                    let id_no = PARA_ID_RE
                        .captures(&e.id)
                        .map(|c| c[2].to_string())
                        .unwrap_or_default();
                    let no = lines
                        .first()
                        .and_then(|l| absatz_number(l))
                        .map(str::to_string)
                        .unwrap_or(id_no);
                    label = Some(format!("Abs. {no}"));
                    cur.lines = lines;
                    continue;
                }
                if is_def && e.name == "table" {
                    if let Some(m) = table_marker(e) {
                        if let Some(n) = m.strip_suffix('.').filter(|n| {
                            n.chars().next().is_some_and(|c| c.is_ascii_digit()) && !n.contains('.')
                        }) {
                            close(label.take(), std::mem::take(&mut cur), &mut units);
                            label = Some(format!("Nr. {n}"));
                            render_table(e, &mut cur);
                            if let Some(t) = cur.lines.first().and_then(|l| DEF_TERM_RE.captures(l))
                            {
                                hints.push(format!("term:{}", &t[1]));
                            }
                            continue;
                        }
                    }
                }
            }
            render_node(n, &mut cur);
        }
        close(label, cur, &mut units);
        if let Some(ch) = &self.chapter {
            hints.insert(0, format!("chapter:{ch}"));
        }
        let norm = RawNorm {
            kind: if is_def {
                NormKind::Definition
            } else {
                NormKind::Article
            },
            norm,
            title,
            breadcrumb: self.crumbs.clone(),
            units,
            lang: Lang::De,
            framework: None,
            hints,
        };
        self.push(norm, el.pos)
    }

    fn recital(&mut self, el: &Element, num: &str) -> Result<(), ParseError> {
        let mut lines = lines_of(&el.children);
        let prefix = format!("({num})");
        match lines.first() {
            Some(first) if first == &prefix || first.starts_with(&format!("{prefix} ")) => {}
            Some(first) if RECITAL_NO_RE.is_match(first) => {
                return Err(self.err(
                    el.pos,
                    format!(
                        "recital <div id=\"{}\"> is numbered `{}`",
                        el.id,
                        first.split(' ').next().unwrap_or("")
                    ),
                ))
            }
            Some(first) => {
                let f = format!("{prefix} {first}");
                lines[0] = f;
            }
            None => {}
        }
        let norm = RawNorm {
            kind: NormKind::Recital,
            norm: format!("ErwG {num}"),
            title: String::new(),
            breadcrumb: vec!["Erwägungsgründe".to_string()],
            units: vec![RawUnit {
                label: None,
                text: lines.join("\n"),
            }],
            lang: Lang::De,
            framework: None,
            hints: Vec::new(),
        };
        self.push(norm, el.pos)
    }

    fn annex(&mut self, el: &Element, numeral: &str) -> Result<(), ParseError> {
        let mut heading_seen = false;
        let mut title_parts: Vec<String> = Vec::new();
        let mut units: Vec<RawUnit> = Vec::new();
        let mut label: Option<String> = None;
        let mut cur = Lines::default();
        for n in &el.children {
            if let Node::El(e) = n {
                if e.has_class("oj-doc-ti") && units.is_empty() && cur.lines.is_empty() {
                    let t = inline_text(e);
                    if !heading_seen {
                        heading_seen = true;
                        let got = t
                            .split_whitespace()
                            .collect::<Vec<_>>()
                            .join(" ")
                            .to_uppercase();
                        let want = format!("ANHANG {}", numeral.to_uppercase());
                        if got != want && got != "ANHANG" {
                            return Err(self.err(
                                e.pos,
                                format!("heading `{t}` of <div id=\"{}\"> is not `{want}`", el.id),
                            ));
                        }
                    } else if !t.is_empty() {
                        title_parts.push(t);
                    }
                    continue;
                }
                if e.has_class("oj-ti-grseq-1") {
                    let t = inline_text(e);
                    if let Some(c) = PART_RE.captures(&t) {
                        let lines = std::mem::take(&mut cur).finish();
                        if label.is_some() || !lines.is_empty() {
                            units.push(RawUnit {
                                label: label.take(),
                                text: lines.join("\n"),
                            });
                        }
                        let kind = if c[1].eq_ignore_ascii_case("teil") {
                            "Teil"
                        } else {
                            "Abschnitt"
                        };
                        label = Some(format!("{kind} {}", &c[2]));
                    }
                }
            }
            render_node(n, &mut cur);
        }
        let lines = cur.finish();
        if label.is_some() || !lines.is_empty() {
            units.push(RawUnit {
                label,
                text: lines.join("\n"),
            });
        }
        let norm = RawNorm {
            kind: NormKind::Annex,
            norm: format!("Anhang {numeral}"),
            title: title_parts.join(" "),
            breadcrumb: Vec::new(),
            units,
            lang: Lang::De,
            framework: None,
            hints: Vec::new(),
        };
        self.push(norm, el.pos)
    }
}

/// Heading of a chapter / section division: its `oj-ti-section-*`
/// paragraphs and `eli-title` block (`KAPITEL I ALLGEMEINE BESTIMMUNGEN`).
fn division_heading(el: &Element) -> String {
    el.elements()
        .filter(|e| {
            e.has_class("oj-ti-section-1")
                || e.has_class("oj-ti-section-2")
                || e.has_class("eli-title")
        })
        .map(inline_text)
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
