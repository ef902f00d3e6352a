//! The lenient HTML tree of an EUR-Lex page: quick-xml events into
//! elements and text, void elements closed implicitly, `<script>`/`<style>`
//! skipped as raw text, entities resolved; errors name the byte and line.

use crate::raw::ParseError;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// One element of the lenient HTML tree.
#[derive(Debug, Default)]
pub(super) struct Element {
    /// Lower-case tag name.
    pub(super) name: String,
    pub(super) id: String,
    pub(super) class: String,
    pub(super) href: String,
    pub(super) style: String,
    pub(super) lang: String,
    /// Byte offset of the start tag.
    pub(super) pos: usize,
    pub(super) children: Vec<Node>,
}

#[derive(Debug)]
pub(super) enum Node {
    El(Element),
    Text(String),
}

impl Element {
    pub(super) fn has_class(&self, c: &str) -> bool {
        self.class.split_ascii_whitespace().any(|x| x == c)
    }

    pub(super) fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::El(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// Depth-first search for the first element satisfying `f`.
    pub(super) fn find(&self, f: &dyn Fn(&Element) -> bool) -> Option<&Element> {
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
pub(super) fn position(text: &str, pos: usize) -> String {
    let pos = pos.min(text.len());
    let line = text.as_bytes()[..pos]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1;
    format!("byte {pos} (line {line})")
}

pub(super) fn describe(e: &Element) -> String {
    if e.id.is_empty() {
        format!("<{}>", e.name)
    } else {
        format!("<{} id=\"{}\">", e.name, e.id)
    }
}

/// Reads the document into an element tree (root `#document`).
pub(super) fn build_tree(file: &str, text: &str) -> Result<Element, ParseError> {
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
