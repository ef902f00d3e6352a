//! Formex 5 XML of the Official Journal (`eu/de/dsgvo.formex.xml`).
//!
//! `ARTICLE` → norm `Art. N` (`TI.ART` label, `STI.ART` title), each `PARAG`
//! one unit labelled `Abs. n` from `NO.PARAG`; an article without `PARAG`s is
//! one unlabelled unit. `LIST`/`ITEM`/`NP` become `a) …` lines. Recitals
//! (`CONSID`) become `ErwG n` norms. `DIVISION` titles (`KAPITEL I
//! Allgemeine Bestimmungen`, `Abschnitt 1 …`) form the breadcrumb. Footnotes
//! (`NOTE`) are dropped; `QUOT.START`/`QUOT.END` become „ “.
//!
//! A corrigendum (`<CORR>` root) yields no norms: its corrections are partial
//! quotes (`… dabei sind die vernünftigen Erwartungen …`) of single sentences,
//! not citable units, and the consolidated wording is not published in the
//! corpus. The pipeline records the file as ingested with 0 norms and the
//! manifest's `note` as reason (see `sources.toml`).

use super::text::{absatz_number, normalize_block, normalize_inline};
use crate::raw::{NormKind, ParseError, RawNorm, RawUnit};
use paragraf_types::Lang;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// Parse a Formex act (or return no norms for a corrigendum).
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    let text = super::text::utf8(file, bytes)?;
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(false);
    let err = |reader: &Reader<&[u8]>, msg: String| {
        ParseError::new(
            file,
            Some(format!("byte {}", reader.buffer_position())),
            msg,
        )
    };

    let mut open: Vec<Vec<u8>> = Vec::new();
    let mut root: Option<Vec<u8>> = None;
    let mut skip_depth = 0u32;
    let mut w = Walk {
        out: Vec::new(),
        divisions: Vec::new(),
        div_title: None,
        art: None,
        capture: None,
        unit: None,
        consid: None,
        list_depth: 0,
        in_number: false,
    };

    loop {
        let ev = reader
            .read_event()
            .map_err(|e| err(&reader, format!("malformed XML: {e}")))?;
        match ev {
            Event::Start(e) => {
                let name = e.name().as_ref().to_vec();
                if root.is_none() {
                    root = Some(name.clone());
                    if name.as_slice() == b"CORR" {
                        // corrigendum: no citable units (see module docs);
                        // still check it is well-formed
                        check_well_formed(file, &mut reader, name)?;
                        return Ok(Vec::new());
                    }
                }
                open.push(name.clone());
                if skip_depth > 0 {
                    skip_depth += 1;
                    continue;
                }
                if w.start(&name, &e, open.len()) {
                    skip_depth = 1;
                }
            }
            Event::End(e) => {
                let name = e.name().as_ref().to_vec();
                if name.as_slice() == b"FT" {
                    w.in_number = false;
                }
                super::text::close_element(&mut open, &name).map_err(|m| err(&reader, m))?;
                if skip_depth > 0 {
                    skip_depth -= 1;
                    continue;
                }
                w.end(&name).map_err(|m| err(&reader, m))?;
            }
            Event::Empty(e) => {
                if skip_depth > 0 {
                    continue;
                }
                let q = match e.name().as_ref() {
                    b"QUOT.START" => "„",
                    b"QUOT.END" => "“",
                    _ => continue,
                };
                if let Some((_, c)) = w.capture.as_mut() {
                    c.push_str(q);
                } else {
                    push_text(&mut w.unit, &mut w.consid, q);
                }
            }
            Event::Text(t) => {
                if skip_depth > 0 {
                    continue;
                }
                // raw newlines in Formex are layout; structure comes from elements
                let s = match t.unescape() {
                    Ok(s) => s.replace(['\n', '\r'], " "),
                    Err(_) => String::from_utf8_lossy(t.as_ref()).replace(['\n', '\r'], " "),
                };
                w.text(s);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(o) = open.last() {
        return Err(err(
            &reader,
            format!("truncated XML: <{}> not closed", String::from_utf8_lossy(o)),
        ));
    }
    if root.is_none() {
        return Err(ParseError::new(
            file,
            None,
            "empty document: no XML elements",
        ));
    }
    Ok(w.out)
}

/// The walk through a Formex act: the norms so far, the division headings,
/// the article, unit or recital being read.
struct Walk {
    out: Vec<RawNorm>,
    /// Division headings: stack of (depth in the open elements, heading).
    divisions: Vec<(usize, String)>,
    /// The TITLE of the current division, while it is collected.
    div_title: Option<String>,
    art: Option<RawNorm>,
    /// TI.ART / STI.ART / NO.PARAG / NO.P being collected.
    capture: Option<(&'static str, String)>,
    unit: Option<(Option<String>, String)>,
    /// (number, text) of the recital being read.
    consid: Option<(String, String)>,
    list_depth: usize,
    /// Inside `<FT TYPE="NUMBER">`: digits the Official Journal prints grouped.
    in_number: bool,
}

impl Walk {
    /// A start tag outside dropped subtrees, `depth` elements open; returns
    /// whether its subtree is dropped (notes, bibliographic instances).
    fn start(&mut self, name: &[u8], e: &BytesStart<'_>, depth: usize) -> bool {
        match name {
            b"NOTE" | b"BIB.INSTANCE" => return true,
            b"DIVISION" => self.divisions.push((depth, String::new())),
            b"TITLE"
                if self.art.is_none() && self.consid.is_none() && !self.divisions.is_empty() =>
            {
                self.div_title = Some(String::new())
            }
            b"ARTICLE" => {
                let breadcrumb = self
                    .divisions
                    .iter()
                    .map(|(_, h)| h.clone())
                    .filter(|h| !h.is_empty())
                    .collect();
                self.art = Some(RawNorm {
                    kind: NormKind::Article,
                    norm: attr(e, "IDENTIFIER")
                        .map(|id| format!("Art. {}", id.trim_start_matches('0')))
                        .unwrap_or_default(),
                    title: String::new(),
                    breadcrumb,
                    units: Vec::new(),
                    lang: Lang::De,
                    framework: None,
                    hints: Vec::new(),
                });
            }
            b"TI.ART" => self.capture = Some(("TI.ART", String::new())),
            b"STI.ART" => self.capture = Some(("STI.ART", String::new())),
            b"NO.PARAG" => self.capture = Some(("NO.PARAG", String::new())),
            b"NO.P" if self.consid.as_ref().is_some_and(|c| c.0.is_empty()) => {
                self.capture = Some(("CONSID.NO", String::new()))
            }
            b"NO.P" => {
                let indent = "  ".repeat(self.list_depth.saturating_sub(1));
                push_text(&mut self.unit, &mut self.consid, &format!("\n{indent}"));
            }
            b"PARAG" if self.art.is_some() => {
                flush(&mut self.unit, &mut self.art);
                self.unit = Some((None, String::new()));
            }
            b"CONSID" => self.consid = Some((String::new(), String::new())),
            b"LIST" => self.list_depth += 1,
            b"ALINEA" | b"P" => push_text(&mut self.unit, &mut self.consid, "\n"),
            b"FT" => self.in_number = attr(e, "TYPE").as_deref() == Some("NUMBER"),
            _ => {}
        }
        false
    }

    /// An end tag outside dropped subtrees; an article without a number is
    /// an error.
    fn end(&mut self, name: &[u8]) -> Result<(), String> {
        match name {
            b"DIVISION" => {
                self.divisions.pop();
            }
            b"TITLE" => {
                if let Some(t) = self.div_title.take() {
                    if let Some(d) = self.divisions.last_mut() {
                        d.1 = normalize_inline(&t);
                    }
                }
            }
            b"TI" | b"STI" => {
                if let Some(t) = self.div_title.as_mut() {
                    t.push(' ');
                }
            }
            b"TI.ART" | b"STI.ART" | b"NO.PARAG" | b"NO.P" => {
                if self.capture.is_none() {
                    push_text(&mut self.unit, &mut self.consid, " ");
                }
                if let Some((kind, v)) = self.capture.take() {
                    let v = normalize_inline(&v);
                    match kind {
                        "TI.ART" => {
                            if let Some(a) = self.art.as_mut() {
                                if let Some(n) = v.strip_prefix("Artikel ") {
                                    a.norm = format!("Art. {n}");
                                }
                            }
                        }
                        "STI.ART" => {
                            if let Some(a) = self.art.as_mut() {
                                a.title = v;
                            }
                        }
                        "NO.PARAG" => {
                            if let Some(u) = self.unit.as_mut() {
                                u.0 = absatz_number(&v).map(|n| format!("Abs. {n}"));
                                u.1.push_str(&v);
                                u.1.push(' ');
                            }
                        }
                        "CONSID.NO" => {
                            if let Some(c) = self.consid.as_mut() {
                                c.0 = v.trim_matches(|c| c == '(' || c == ')').to_string();
                            }
                        }
                        _ => {}
                    }
                }
            }
            b"LIST" => self.list_depth = self.list_depth.saturating_sub(1),
            b"PARAG" => flush(&mut self.unit, &mut self.art),
            b"CONSID" => {
                if let Some((no, text)) = self.consid.take() {
                    let text = tidy_quotes(&normalize_block(&text));
                    if !no.is_empty() && !text.is_empty() {
                        self.out.push(RawNorm {
                            kind: NormKind::Recital,
                            norm: format!("ErwG {no}"),
                            title: String::new(),
                            breadcrumb: vec!["Erwägungsgründe".to_string()],
                            units: vec![RawUnit {
                                label: None,
                                text: format!("({no}) {text}"),
                            }],
                            lang: Lang::De,
                            framework: None,
                            hints: Vec::new(),
                        });
                    }
                }
            }
            b"ARTICLE" => {
                flush(&mut self.unit, &mut self.art);
                if let Some(a) = self.art.take() {
                    if a.norm.is_empty() {
                        return Err("ARTICLE without IDENTIFIER or TI.ART".into());
                    }
                    if !a.units.is_empty() {
                        self.out.push(a);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Text outside dropped subtrees (newlines already spaces).
    fn text(&mut self, s: String) {
        let s = if self.in_number { group_digits(&s) } else { s };
        if let Some((_, c)) = self.capture.as_mut() {
            c.push_str(&s);
        } else if let Some(d) = self.div_title.as_mut() {
            d.push_str(&s);
        } else if self.art.is_some() && self.unit.is_none() {
            // article text outside PARAG (single-Absatz article)
            if !s.trim().is_empty() {
                self.unit = Some((None, s));
            }
        } else {
            push_text(&mut self.unit, &mut self.consid, &s);
        }
    }
}

fn check_well_formed(
    file: &str,
    reader: &mut Reader<&[u8]>,
    root: Vec<u8>,
) -> Result<(), ParseError> {
    let mut depth = 1usize;
    loop {
        match reader.read_event() {
            Ok(Event::Start(_)) => depth += 1,
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => {
                return Err(ParseError::new(
                    file,
                    Some(format!("byte {}", reader.buffer_position())),
                    format!("malformed XML: {e}"),
                ))
            }
        }
    }
    if depth != 0 {
        return Err(ParseError::new(
            file,
            Some(format!("byte {}", reader.buffer_position())),
            format!(
                "truncated XML: <{}> not closed",
                String::from_utf8_lossy(&root)
            ),
        ));
    }
    Ok(())
}

/// `„ personenbezogene Daten “ )` → `„personenbezogene Daten“)`: the
/// layout whitespace around QUOT.START / QUOT.END.
fn tidy_quotes(s: &str) -> String {
    s.replace("„ ", "„")
        .replace(" “", "“")
        .replace("“ )", "“)")
        .replace("“ ,", "“,")
        .replace("“ .", "“.")
}

fn attr(e: &BytesStart<'_>, name: &str) -> Option<String> {
    e.try_get_attribute(name)
        .ok()
        .flatten()
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

fn push_text(
    unit: &mut Option<(Option<String>, String)>,
    consid: &mut Option<(String, String)>,
    s: &str,
) {
    if let Some(c) = consid.as_mut() {
        c.1.push_str(s);
    } else if let Some(u) = unit.as_mut() {
        u.1.push_str(s);
    }
}

fn flush(unit: &mut Option<(Option<String>, String)>, art: &mut Option<RawNorm>) {
    if let Some((label, text)) = unit.take() {
        let mut text = tidy_quotes(&normalize_block(&text));
        if text.is_empty() {
            return;
        }
        // `(1)` from NO.PARAG and the first ALINEA line belong together
        if let Some(nl) = text.find('\n') {
            if absatz_number(&text[..nl]).is_some_and(|n| text[..nl] == format!("({n})")) {
                text.replace_range(nl..nl + 1, " ");
            }
        }
        if let Some(a) = art.as_mut() {
            a.units.push(RawUnit { label, text });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FMX: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<ACT><BIB.INSTANCE><NO.DOC>x</NO.DOC></BIB.INSTANCE>
<PREAMBLE><GR.CONSID><CONSID><NP><NO.P>(1)</NO.P><TXT>Der Schutz ist ein Grundrecht<NOTE><P>ABl. C 1</P></NOTE> der <QUOT.START CODE="201E"/>Charta<QUOT.END CODE="201C"/>.</TXT></NP></CONSID></GR.CONSID></PREAMBLE>
<ENACTING.TERMS><DIVISION><TITLE><TI><P><HT>KAPITEL I</HT></P></TI><STI><P>Allgemeine Bestimmungen</P></STI></TITLE>
<ARTICLE IDENTIFIER="004"><TI.ART>Artikel 4</TI.ART><STI.ART>Begriffsbestimmungen</STI.ART>
<ALINEA><P>Im Sinne dieser Verordnung bezeichnet der Ausdruck:</P><LIST TYPE="ARAB"><ITEM><NP><NO.P>1.</NO.P><TXT>
<QUOT.START CODE="201E"/>
personenbezogene Daten
<QUOT.END CODE="201C"/>
 alle Informationen;</TXT></NP></ITEM></LIST></ALINEA></ARTICLE>
<ARTICLE IDENTIFIER="037"><TI.ART>Artikel 37</TI.ART><STI.ART>Benennung</STI.ART>
<PARAG IDENTIFIER="037.001"><NO.PARAG>(1)</NO.PARAG><ALINEA><P>Der Verantwortliche benennt, wenn</P><LIST TYPE="alpha"><ITEM><NP><NO.P>a)</NO.P><TXT>eine Behörde handelt,</TXT></NP></ITEM><ITEM><NP><NO.P>b)</NO.P><TXT>oder nicht.</TXT></NP></ITEM></LIST></ALINEA></PARAG>
<PARAG IDENTIFIER="037.002"><NO.PARAG>(2)</NO.PARAG><ALINEA>Eine Gruppe darf.</ALINEA></PARAG></ARTICLE>
</DIVISION></ENACTING.TERMS></ACT>"#;

    #[test]
    fn parses_articles_paragraphs_lists_recitals() {
        let n = parse("d.xml", FMX.as_bytes()).unwrap();
        assert_eq!(n.len(), 3, "{n:#?}");
        assert_eq!(n[0].norm, "ErwG 1");
        assert_eq!(n[0].kind, NormKind::Recital);
        assert_eq!(
            n[0].units[0].text,
            "(1) Der Schutz ist ein Grundrecht der „Charta“."
        );
        assert_eq!(n[1].norm, "Art. 4");
        assert_eq!(n[1].breadcrumb, vec!["KAPITEL I Allgemeine Bestimmungen"]);
        assert_eq!(n[1].units.len(), 1);
        assert_eq!(n[1].units[0].label, None);
        assert!(
            n[1].units[0].text.contains("\n1. „personenbezogene Daten“"),
            "{}",
            n[1].units[0].text
        );
        let a37 = &n[2];
        assert_eq!(a37.title, "Benennung");
        assert_eq!(a37.units.len(), 2);
        assert_eq!(a37.units[0].label.as_deref(), Some("Abs. 1"));
        assert_eq!(
            a37.units[0].text,
            "(1) Der Verantwortliche benennt, wenn\na) eine Behörde handelt,\nb) oder nicht."
        );
        assert_eq!(a37.units[1].text, "(2) Eine Gruppe darf.");
    }

    #[test]
    fn corrigendum_yields_no_norms() {
        let c = r#"<CORR><CONTENTS.CORR><CORRECTION><DESCRIPTION>Seite 9</DESCRIPTION></CORRECTION></CONTENTS.CORR></CORR>"#;
        assert!(parse("c.xml", c.as_bytes()).unwrap().is_empty());
        assert!(parse("c.xml", b"<CORR><CONTENTS.CORR>").is_err());
    }

    #[test]
    fn truncated_is_error() {
        let e = parse("d.xml", &FMX.as_bytes()[..FMX.len() / 2]).unwrap_err();
        assert!(e.to_string().starts_with("d.xml at byte"), "{e}");
    }
}

/// A number as the Official Journal prints it: digits in groups of three
/// separated by a space from five digits on (`20000000` → `20 000 000`);
/// anything that is not a plain run of digits stays as it is.
fn group_digits(s: &str) -> String {
    let t = s.trim();
    if t.len() < 5 || !t.chars().all(|c| c.is_ascii_digit()) {
        return s.to_string();
    }
    let mut out = String::with_capacity(t.len() + t.len() / 3);
    for (i, c) in t.chars().enumerate() {
        if i > 0 && (t.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    let lead = &s[..s.len() - s.trim_start().len()];
    let tail = &s[s.trim_end().len()..];
    format!("{lead}{out}{tail}")
}

#[cfg(test)]
mod number_tests {
    use super::group_digits;

    #[test]
    fn journal_numbers_are_grouped_in_threes() {
        assert_eq!(group_digits("20000000"), "20 000 000");
        assert_eq!(group_digits("10000"), "10 000");
        assert_eq!(group_digits("2016"), "2016");
        assert_eq!(group_digits(" 123456 "), " 123 456 ");
        assert_eq!(group_digits("4 %"), "4 %");
    }
}
