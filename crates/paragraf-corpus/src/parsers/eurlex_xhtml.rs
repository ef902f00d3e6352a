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
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

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

// ------------------------------------------------------------------ tree --

/// One element of the lenient HTML tree.
#[derive(Debug, Default)]
struct Element {
    /// Lower-case tag name.
    name: String,
    id: String,
    class: String,
    href: String,
    style: String,
    lang: String,
    /// Byte offset of the start tag.
    pos: usize,
    children: Vec<Node>,
}

#[derive(Debug)]
enum Node {
    El(Element),
    Text(String),
}

impl Element {
    fn has_class(&self, c: &str) -> bool {
        self.class.split_ascii_whitespace().any(|x| x == c)
    }

    fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::El(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// Depth-first search for the first element satisfying `f`.
    fn find(&self, f: &dyn Fn(&Element) -> bool) -> Option<&Element> {
        for e in self.elements() {
            if f(e) {
                return Some(e);
            }
            if let Some(x) = e.find(f) {
                return Some(x);
            }
        }
        None
    }
}

/// Elements without content in HTML (`<meta …>` needs no end tag).
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// Deepest element nesting accepted (EUR-Lex pages nest about 20 deep); the
/// tree is walked recursively.
const MAX_DEPTH: usize = 256;

/// Elements whose content is raw text, not markup.
const RAW_TEXT: &[&str] = &["script", "style"];

/// Elements whose end tag HTML lets an enclosing end tag imply.
const OPTIONAL_END: &[&str] = &[
    "p", "li", "dt", "dd", "td", "th", "tr", "tbody", "thead", "tfoot", "colgroup", "option",
];

fn new_reader(s: &str) -> Reader<&[u8]> {
    let mut r = Reader::from_str(s);
    let c = r.config_mut();
    c.trim_text(false);
    c.check_end_names = false;
    c.allow_unmatched_ends = true;
    c.expand_empty_elements = false;
    r
}

/// `byte N (line L)` for an error position.
fn position(text: &str, pos: usize) -> String {
    let pos = pos.min(text.len());
    let line = text.as_bytes()[..pos]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1;
    format!("byte {pos} (line {line})")
}

fn describe(e: &Element) -> String {
    if e.id.is_empty() {
        format!("<{}>", e.name)
    } else {
        format!("<{} id=\"{}\">", e.name, e.id)
    }
}

/// Reads the document into an element tree (root `#document`).
fn build_tree(file: &str, text: &str) -> Result<Element, ParseError> {
    let err = |pos: usize, msg: String| ParseError::new(file, Some(position(text, pos)), msg);
    let mut base = 0usize;
    let mut reader = new_reader(text);
    let mut stack: Vec<Element> = vec![Element {
        name: "#document".into(),
        ..Default::default()
    }];
    let attach = |stack: &mut Vec<Element>, n: Node| {
        if let Some(top) = stack.last_mut() {
            top.children.push(n);
        }
    };
    loop {
        let before = base + reader.buffer_position() as usize;
        let ev = match reader.read_event() {
            Ok(ev) => ev,
            Err(e) => {
                return Err(err(
                    base + reader.error_position() as usize,
                    format!("malformed markup: {e}"),
                ))
            }
        };
        match ev {
            Event::Start(e) => {
                let el = element(&e, before);
                if RAW_TEXT.contains(&el.name.as_str()) {
                    // skip the raw text up to `</script` (case-insensitive)
                    let from = base + reader.buffer_position() as usize;
                    let close = format!("</{}", el.name);
                    let Some(end) = find_ci(&text[from..], &close)
                        .map(|i| from + i)
                        .and_then(|i| text[i..].find('>').map(|j| i + j + 1))
                    else {
                        return Err(err(
                            before,
                            format!("unterminated <{}>: no {close}> follows", el.name),
                        ));
                    };
                    base = end;
                    reader = new_reader(&text[base..]);
                    continue;
                }
                if VOID.contains(&el.name.as_str()) {
                    attach(&mut stack, Node::El(el));
                } else if stack.len() > MAX_DEPTH {
                    return Err(err(
                        before,
                        format!("elements nested deeper than {MAX_DEPTH}"),
                    ));
                } else {
                    stack.push(el);
                }
            }
            Event::Empty(e) => {
                let el = element(&e, before);
                if !RAW_TEXT.contains(&el.name.as_str()) {
                    attach(&mut stack, Node::El(el));
                }
            }
            Event::End(e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).to_ascii_lowercase();
                if VOID.contains(&name.as_str()) {
                    continue;
                }
                let Some(i) = stack
                    .iter()
                    .rposition(|x| x.name == name)
                    .filter(|&i| i > 0)
                else {
                    return Err(err(
                        before,
                        format!("closing tag </{name}> without an open <{name}>"),
                    ));
                };
                while stack.len() > i + 1 {
                    let top = stack.pop().expect("stack holds more than i + 1 elements");
                    if !OPTIONAL_END.contains(&top.name.as_str()) {
                        return Err(err(
                            before,
                            format!(
                                "</{name}> closes {} opened at {}, which was never closed",
                                describe(&top),
                                position(text, top.pos)
                            ),
                        ));
                    }
                    attach(&mut stack, Node::El(top));
                }
                let el = stack.pop().expect("stack holds element i");
                attach(&mut stack, Node::El(el));
            }
            Event::Text(t) => {
                let s = match t.unescape_with(html_entity) {
                    Ok(s) => s.into_owned(),
                    Err(_) => String::from_utf8_lossy(t.as_ref()).into_owned(),
                };
                attach(&mut stack, Node::Text(s));
            }
            Event::CData(t) => {
                attach(
                    &mut stack,
                    Node::Text(String::from_utf8_lossy(t.as_ref()).into_owned()),
                );
            }
            Event::Eof => break,
            _ => {}
        }
    }
    while stack.len() > 1 {
        let top = stack.pop().expect("stack holds more than one element");
        if !(OPTIONAL_END.contains(&top.name.as_str())
            || matches!(top.name.as_str(), "html" | "head" | "body"))
        {
            return Err(err(
                text.len(),
                format!(
                    "truncated document: {} opened at {} is not closed",
                    describe(&top),
                    position(text, top.pos)
                ),
            ));
        }
        attach(&mut stack, Node::El(top));
    }
    Ok(stack.pop().unwrap_or_default())
}

fn element(e: &BytesStart<'_>, pos: usize) -> Element {
    let mut el = Element {
        name: String::from_utf8_lossy(e.name().as_ref()).to_ascii_lowercase(),
        pos,
        ..Default::default()
    };
    for a in e.html_attributes().with_checks(false).flatten() {
        let slot = match a.key.as_ref() {
            b"id" => &mut el.id,
            b"class" => &mut el.class,
            b"href" => &mut el.href,
            b"style" => &mut el.style,
            b"lang" | b"xml:lang" => &mut el.lang,
            _ => continue,
        };
        *slot = match a.unescape_value_with(html_entity) {
            Ok(v) => v.into_owned(),
            Err(_) => String::from_utf8_lossy(&a.value).into_owned(),
        };
    }
    el
}

/// Case-insensitive ASCII search.
fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    let n = needle.as_bytes();
    hay.as_bytes()
        .windows(n.len())
        .position(|w| w.eq_ignore_ascii_case(n))
}

/// The HTML entities an EUR-Lex page may use beside the XML ones.
fn html_entity(name: &str) -> Option<&'static str> {
    Some(match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        "nbsp" => "\u{a0}",
        "shy" => "\u{ad}",
        "ndash" => "–",
        "mdash" => "—",
        "hellip" => "…",
        "bdquo" => "„",
        "ldquo" => "“",
        "rdquo" => "”",
        "sbquo" => "‚",
        "lsquo" => "‘",
        "rsquo" => "’",
        "laquo" => "«",
        "raquo" => "»",
        "sect" => "§",
        "para" => "¶",
        "euro" => "€",
        "deg" => "°",
        "middot" => "·",
        "bull" => "•",
        "times" => "×",
        "auml" => "ä",
        "ouml" => "ö",
        "uuml" => "ü",
        "Auml" => "Ä",
        "Ouml" => "Ö",
        "Uuml" => "Ü",
        "szlig" => "ß",
        "eacute" => "é",
        _ => return None,
    })
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
mod tests {
    use super::*;

    /// Hand-written: a recital with a footnote, a chapter with a two-paragraph
    /// article (lettered list as tables, a nested list, a superscript), an
    /// annex with a three-cell list row, footnotes, page scripts (one in the
    /// head that writes markup, one whose string holds an end tag), unclosed
    /// `<meta>`/`<link>` as EUR-Lex serves them.
    const XHTML: &str = r##"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML//EN" "xhtml-strict.dtd"><html xmlns="http://www.w3.org/1999/xhtml"><head><meta name='viewport' content='width=device-width'><link rel='stylesheet' href='x.css'>
<script type="text/javascript">if (a < b && c > d) { document.write("<p class='oj-ti-art'>Artikel 99</p>"); }</script><title>L_1</title></head>
<body><table><tbody><tr><td><p class="oj-hd-lg">DE</p></td><td  /></tr></tbody></table>
<div class="eli-subdivision" id="rct_1"><table width="100%"><col width="4%"/><col width="96%"/><tbody><tr><td valign="top"><p class="oj-normal">(1)</p></td>
<td valign="top"><p class="oj-normal">Zweck dieser Verordnung ist es<a id="ntc1-X" href="#ntr1-X"> (<span class="oj-super oj-note-tag">1</span>)</a>, das Funktionieren des
      Binnenmarkts zu verbessern.</p></td></tr></tbody></table></div>
<div class="eli-subdivision" id="enc_1"><div id="cpt_II"><p class="oj-ti-section-1">KAPITEL II</p>
<div class="eli-title" id="cpt_II.tit_1"><p class="oj-ti-section-2"><span class="oj-bold">VERBOTENE PRAKTIKEN IM KI-BEREICH</span></p></div>
<div class="eli-subdivision" id="art_5"><p class="oj-ti-art">Artikel 5</p><div class="eli-title" id="art_5.tit_1"><p class="oj-sti-art">Verbotene Praktiken im KI-Bereich</p></div>
<div id="005.001"><p class="oj-normal">(1)   Folgende Praktiken im KI-Bereich sind verboten:</p>
<table><col width="4%"/><col width="96%"/><tbody><tr><td valign="top"><p class="oj-normal">a)</p></td><td valign="top"><p class="oj-normal">das Inverkehrbringen eines KI-Systems gemäß Artikel 6 Absatz 2;</p></td></tr></tbody></table>
<table><tbody><tr><td valign="top"><p class="oj-normal">b)</p></td><td valign="top"><p class="oj-normal">die soziale Bewertung, die zu Folgendem führt:</p>
<table><tbody><tr><td><p class="oj-normal">i)</p></td><td><p class="oj-normal">Schlechterstellung;</p></td></tr></tbody></table></td></tr></tbody></table></div>
<div id="005.002"><p class="oj-normal">(2)   Mehr als 10<span class="oj-super">25</span> Gleitkommaoperationen.</p></div>
</div></div></div>
<div class="eli-subdivision" id="fnp_1"><div class="oj-final"><p class="oj-normal">Geschehen zu Brüssel am 13. Juni 2024.</p></div></div>
<hr class="oj-note"/><p class="oj-note"><a id="ntr1-X" href="#ntc1-X">(<span class="oj-super">1</span>)</a>  ABl. C 517 vom 22.12.2021, S. 56.</p>
<hr class="oj-doc-sep"/><div id="L_2.fmx"><div class="eli-container" id="anx_III"><p class="oj-doc-ti">ANHANG III</p><p class="oj-doc-ti">Hochrisiko-KI-Systeme gemäß Artikel 6 Absatz 2</p>
<p class="oj-normal">Als Hochrisiko-KI-Systeme gelten:</p>
<table><tbody><tr><td valign="top"  /><td valign="top"><p class="oj-normal">1.</p></td><td valign="top"><span>Biometrie (<a href="./x">ABl. L 1</a>)</span></td></tr></tbody></table></div></div>
<script src='x.js'>//</script><script type='text/javascript'>var s = "</div>";</script></body>
</html>"##;

    fn find<'a>(n: &'a [RawNorm], norm: &str) -> &'a RawNorm {
        n.iter()
            .find(|x| x.norm == norm)
            .unwrap_or_else(|| panic!("{norm} missing: {n:#?}"))
    }

    #[test]
    fn parses_recital_article_and_annex() {
        let n = parse("k.xhtml", XHTML.as_bytes()).unwrap();
        let labels: Vec<&str> = n.iter().map(|x| x.norm.as_str()).collect();
        assert_eq!(labels, vec!["ErwG 1", "Art. 5", "Anhang III"]);

        let r = find(&n, "ErwG 1");
        assert_eq!(r.kind, NormKind::Recital);
        assert_eq!(r.breadcrumb, vec!["Erwägungsgründe"]);
        assert_eq!(
            r.units[0].text,
            "(1) Zweck dieser Verordnung ist es, das Funktionieren des Binnenmarkts zu verbessern."
        );

        let a = find(&n, "Art. 5");
        assert_eq!(a.kind, NormKind::Article);
        assert_eq!(a.title, "Verbotene Praktiken im KI-Bereich");
        assert_eq!(
            a.breadcrumb,
            vec!["KAPITEL II VERBOTENE PRAKTIKEN IM KI-BEREICH"]
        );
        assert_eq!(a.hints, vec!["chapter:II"]);
        assert_eq!(a.lang, Lang::De);
        let l: Vec<_> = a.units.iter().map(|u| u.label.as_deref()).collect();
        assert_eq!(l, vec![Some("Abs. 1"), Some("Abs. 2")]);
        assert_eq!(
            a.units[0].text,
            "(1) Folgende Praktiken im KI-Bereich sind verboten:\n\
             a) das Inverkehrbringen eines KI-Systems gemäß Artikel 6 Absatz 2;\n\
             b) die soziale Bewertung, die zu Folgendem führt:\n\
             i) Schlechterstellung;"
        );
        assert_eq!(a.units[1].text, "(2) Mehr als 10^25 Gleitkommaoperationen.");

        let x = find(&n, "Anhang III");
        assert_eq!(x.kind, NormKind::Annex);
        assert_eq!(x.title, "Hochrisiko-KI-Systeme gemäß Artikel 6 Absatz 2");
        assert_eq!(x.units.len(), 1);
        assert_eq!(x.units[0].label, None);
        assert_eq!(
            x.units[0].text,
            "Als Hochrisiko-KI-Systeme gelten:\n1. Biometrie (ABl. L 1)"
        );
    }

    #[test]
    fn scripts_footnotes_and_page_furniture_are_ignored() {
        let n = parse("k.xhtml", XHTML.as_bytes()).unwrap();
        assert!(n.iter().all(|x| x.norm != "Art. 99"));
        for x in &n {
            let t = x.full_text();
            for bad in [
                "document",
                "var s",
                "ABl. C 517",
                "Geschehen",
                "\u{E000}",
                "  ",
            ] {
                assert!(!t.contains(bad), "{bad:?} in {}: {t}", x.norm);
            }
        }
    }

    #[test]
    fn definitions_article_has_numbered_units_and_terms() {
        let doc = r#"<html><body><div id="art_3"><p class="oj-ti-art">Artikel 3</p><div class="eli-title"><p class="oj-sti-art">Begriffsbestimmungen</p></div>
<p class="oj-normal">Für die Zwecke dieser Verordnung bezeichnet der Ausdruck</p>
<table><tbody><tr><td><p>1.</p></td><td><p>„KI-System“ ein maschinengestütztes System;</p></td></tr></tbody></table>
<table><tbody><tr><td><p>2.</p></td><td><p>„Strafverfolgungsbehörde“</p><table><tbody><tr><td><p>a)</p></td><td><p>eine Behörde oder</p></td></tr></tbody></table>
<table><tbody><tr><td><p>b)</p></td><td><p>eine andere Stelle;</p></td></tr></tbody></table></td></tr></tbody></table></div></body></html>"#;
        let n = parse("k.xhtml", doc.as_bytes()).unwrap();
        assert_eq!(n.len(), 1);
        let d = &n[0];
        assert_eq!(d.kind, NormKind::Definition);
        let l: Vec<_> = d.units.iter().map(|u| u.label.as_deref()).collect();
        assert_eq!(l, vec![None, Some("Nr. 1"), Some("Nr. 2")]);
        assert_eq!(
            d.units[1].text,
            "1. „KI-System“ ein maschinengestütztes System;"
        );
        assert_eq!(
            d.units[2].text,
            "2. „Strafverfolgungsbehörde“\na) eine Behörde oder\nb) eine andere Stelle;"
        );
        assert_eq!(
            d.hints,
            vec!["term:KI-System", "term:Strafverfolgungsbehörde"]
        );
    }

    #[test]
    fn quoted_paragraphs_of_amended_acts_are_text() {
        let doc = r#"<html><body><div id="art_104"><p class="oj-ti-art">Artikel 104</p><div class="eli-title"><p class="oj-sti-art">Änderung der Verordnung (EU) Nr. 168/2013</p></div>
<p class="oj-normal">Artikel 22 wird wie folgt geändert:</p>
<table><tbody><tr><td><p>1.</p></td><td><p>Folgender Absatz wird angefügt:</p><div id="022.005"><p class="oj-normal">„(5)   Beim Erlass …“</p></div></td></tr></tbody></table></div></body></html>"#;
        let n = parse("k.xhtml", doc.as_bytes()).unwrap();
        assert_eq!(n[0].units.len(), 1);
        assert_eq!(n[0].units[0].label, None);
        assert_eq!(
            n[0].units[0].text,
            "Artikel 22 wird wie folgt geändert:\n1. Folgender Absatz wird angefügt:\n„(5) Beim Erlass …“"
        );
    }

    #[test]
    fn bad_structure_is_a_positioned_error() {
        let half = &XHTML.as_bytes()[..XHTML.len() / 2];
        let e = parse("k.xhtml", half).unwrap_err();
        assert!(e.to_string().starts_with("k.xhtml at byte"), "{e}");
        assert!(e.message.contains("not closed"), "{e}");

        let cases: &[(&str, &str)] = &[
            (
                r#"<html><body><div id="art_5"><p class="oj-ti-art">Artikel 6</p><p>x</p></div></body></html>"#,
                "is not `Artikel 5`",
            ),
            (
                r#"<html><body><div id="art_5"><p>x</p></div><div id="art_5"><p>y</p></div></body></html>"#,
                "duplicate Art. 5",
            ),
            (
                r#"<html><body><div id="art_5"><p>x</p></span></div></body></html>"#,
                "</span> without an open <span>",
            ),
            (
                r#"<html><body><div id="art_5"><table><tr><td><div>x</td></tr></table></div></body></html>"#,
                "closes <div> opened at byte",
            ),
            (
                r#"<html><body><div id="art_5"><p>x</p></div><script>var a = 1;"#,
                "unterminated <script>",
            ),
            (
                r#"<html><body><div id="rct_2"><table><tr><td><p>(3)</p></td><td><p>x</p></td></tr></table></div><div id="art_1"><p>x</p></div></body></html>"#,
                "is numbered `(3)`",
            ),
            (
                r#"<html><body><p class="oj-hd-lg">EN</p><div id="art_1"><p>x</p></div></body></html>"#,
                "document language `EN`",
            ),
            (
                r#"<html><body><p>Keine Artikel</p></body></html>"#,
                "no articles",
            ),
            (&"<div>".repeat(300), "nested deeper than 256"),
            (
                r#"<html><body><div id="art_1"><p a="1></body></html>"#,
                "malformed",
            ),
        ];
        for (doc, want) in cases {
            let e = parse("k.xhtml", doc.as_bytes()).unwrap_err();
            assert_eq!(e.file, "k.xhtml");
            assert!(e.message.contains(want), "{want:?} not in {e}");
        }
        let e = parse("k.xhtml", b"<html>\xff</html>").unwrap_err();
        assert_eq!(e.to_string(), "k.xhtml at byte 6: invalid UTF-8");
    }

    proptest::proptest! {
        #[test]
        fn cut_or_edited_input_never_panics(cut in 0usize..4000, at in 0usize..4000, b in proptest::prelude::any::<u8>()) {
            let mut bytes = XHTML.as_bytes().to_vec();
            let at = at % bytes.len();
            bytes[at] = b;
            bytes.truncate(cut.min(bytes.len()));
            if let Err(e) = parse("k.xhtml", &bytes) {
                proptest::prop_assert_eq!(e.file, "k.xhtml");
            }
        }
    }
}
