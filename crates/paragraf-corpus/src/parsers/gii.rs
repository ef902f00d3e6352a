//! gesetze-im-internet.de XML (`de/gii/*.xml`, the scale archive).
//!
//! One `<norm>` per § / Anlage; structure headings are norms carrying a
//! `<gliederungseinheit>` and become the breadcrumb of the norms after them
//! (level = length of `gliederungskennzahl` / 3). Each top-level `<P>` of the
//! text is one unit (Absatz, label from its `(n)` prefix); `<DL>` lists are
//! flattened into `1. …` lines; `<fussnoten>`, `<Footnotes>` and footnote
//! references are dropped; the table of contents (`Inhaltsübersicht`,
//! `<TOC>`), repealed placeholders (`(XXXX) §§ …`) and the enacting formula
//! are skipped. Streaming with quick-xml, no DOM.

use super::text::{absatz_label, kind_of_label, normalize_block, normalize_inline};
use crate::raw::{ParseError, RawNorm, RawUnit};
use paragraf_types::Lang;
use quick_xml::events::Event;
use quick_xml::Reader;

/// Law-level metadata of a gii file, from its first `<norm>`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GiiLaw {
    /// First `<jurabk>` (e.g. `BDSG 2018`, `TTDSG`).
    pub jurabk: String,
    /// `<amtabk>` when present (e.g. `BDSG`, `TDDDG`).
    pub amtabk: Option<String>,
    /// `<langue>` long title.
    pub title: String,
    /// `<kurzue>` short title („Mutterschutzgesetz“), when the law has one.
    pub short_title: Option<String>,
    pub norms: Vec<RawNorm>,
}

impl GiiLaw {
    /// The law's titles as written: long title, then short title (the
    /// empty ones left out).
    pub fn titles(&self) -> Vec<String> {
        std::iter::once(&self.title)
            .chain(self.short_title.iter())
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// Parse a gii XML file into its citable norms.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    parse_law(file, bytes).map(|l| l.norms)
}

#[derive(Default)]
struct NormState {
    enbez: Option<String>,
    titel: Option<String>,
    glied_kz: Option<String>,
    glied_bez: Option<String>,
    glied_titel: Option<String>,
    has_toc: bool,
    units: Vec<RawUnit>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    None,
    Enbez,
    Titel,
    Jurabk,
    Amtabk,
    Langue,
    Kurzue,
    GliedKz,
    GliedBez,
    GliedTitel,
}

/// Parse a gii XML file, returning its law metadata too (used by the scale run).
pub fn parse_law(file: &str, bytes: &[u8]) -> Result<GiiLaw, ParseError> {
    let text = super::text::utf8(file, bytes)?;
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(false);

    let mut w = Walk {
        law: GiiLaw::default(),
        first_norm: true,
        crumbs: Vec::new(),
        norm: None,
        field: Field::None,
        field_buf: String::new(),
        skip_depth: 0,
        in_text: false,
        p_level: 0,
        list_depth: 0,
        cur: None,
    };
    let mut open: Vec<Vec<u8>> = Vec::new();
    let mut saw_root = false;

    let err = |reader: &Reader<&[u8]>, msg: String| {
        ParseError::new(
            file,
            Some(format!("byte {}", reader.buffer_position())),
            msg,
        )
    };

    loop {
        let ev = reader
            .read_event()
            .map_err(|e| err(&reader, format!("malformed XML: {e}")))?;
        match ev {
            Event::Start(e) => {
                let name = e.name().as_ref().to_vec();
                open.push(name.clone());
                saw_root = true;
                if w.skip_depth > 0 {
                    w.skip_depth += 1;
                    continue;
                }
                w.start(&name);
            }
            Event::End(e) => {
                let name = e.name().as_ref().to_vec();
                super::text::close_element(&mut open, &name).map_err(|m| err(&reader, m))?;
                if w.skip_depth > 0 {
                    w.skip_depth -= 1;
                    continue;
                }
                w.end(&name);
            }
            Event::Empty(e) => {
                if w.skip_depth > 0 {
                    continue;
                }
                if e.name().as_ref() == b"BR" {
                    w.line_break();
                }
            }
            Event::Text(t) => {
                if w.skip_depth > 0 {
                    continue;
                }
                let s = match t.unescape() {
                    Ok(s) => s.into_owned(),
                    Err(_) => String::from_utf8_lossy(t.as_ref()).into_owned(),
                };
                let s = s.replace(['\n', '\r'], " ");
                if w.field != Field::None {
                    w.field_buf.push_str(&s);
                } else if w.in_text {
                    push(&mut w.cur, &s);
                }
            }
            Event::CData(t) if w.skip_depth == 0 && w.in_text => {
                push(&mut w.cur, &String::from_utf8_lossy(t.as_ref()));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !open.is_empty() {
        return Err(err(
            &reader,
            format!(
                "truncated XML: <{}> not closed",
                String::from_utf8_lossy(open.last().map(|v| v.as_slice()).unwrap_or(b""))
            ),
        ));
    }
    if !saw_root {
        return Err(ParseError::new(
            file,
            None,
            "empty document: no XML elements",
        ));
    }
    Ok(w.law)
}

/// The walk through a gii document: the law so far, the norm being read,
/// the field or text being collected.
struct Walk {
    law: GiiLaw,
    first_norm: bool,
    crumbs: Vec<(usize, String)>,
    norm: Option<NormState>,
    field: Field,
    field_buf: String,
    /// > 0 inside dropped subtrees.
    skip_depth: u32,
    /// Inside `<text>` of `textdaten`.
    in_text: bool,
    p_level: u32,
    list_depth: u32,
    cur: Option<String>,
}

impl Walk {
    /// A start tag outside dropped subtrees.
    fn start(&mut self, name: &[u8]) {
        match name {
            b"norm" => {
                self.norm = Some(NormState::default());
            }
            b"fussnoten" | b"Footnotes" | b"FnR" => self.skip_depth = 1,
            b"TOC" => {
                if let Some(n) = self.norm.as_mut() {
                    n.has_toc = true;
                }
                self.skip_depth = 1;
            }
            b"enbez" => start_field(&mut self.field, &mut self.field_buf, Field::Enbez),
            b"titel" => start_field(&mut self.field, &mut self.field_buf, Field::Titel),
            b"jurabk" if self.first_norm && self.law.jurabk.is_empty() => {
                start_field(&mut self.field, &mut self.field_buf, Field::Jurabk)
            }
            b"amtabk" if self.first_norm => {
                start_field(&mut self.field, &mut self.field_buf, Field::Amtabk)
            }
            b"langue" if self.first_norm => {
                start_field(&mut self.field, &mut self.field_buf, Field::Langue)
            }
            b"kurzue" if self.first_norm => {
                start_field(&mut self.field, &mut self.field_buf, Field::Kurzue)
            }
            b"gliederungskennzahl" => {
                start_field(&mut self.field, &mut self.field_buf, Field::GliedKz)
            }
            b"gliederungsbez" => start_field(&mut self.field, &mut self.field_buf, Field::GliedBez),
            b"gliederungstitel" => {
                start_field(&mut self.field, &mut self.field_buf, Field::GliedTitel)
            }
            b"text" => {
                self.in_text = true;
                self.p_level = 0;
                self.list_depth = 0;
            }
            b"P" if self.in_text => {
                if self.p_level == 0 && self.list_depth == 0 {
                    flush_unit(&mut self.cur, &mut self.norm);
                    self.cur = Some(String::new());
                } else {
                    push(&mut self.cur, "\n");
                }
                self.p_level += 1;
            }
            b"DL" if self.in_text => {
                self.list_depth += 1;
            }
            b"DT" if self.in_text => {
                let indent = "  ".repeat(self.list_depth.saturating_sub(1) as usize);
                push(&mut self.cur, &format!("\n{indent}"));
            }
            b"row" | b"Title" | b"Subtitle" if self.in_text => push(&mut self.cur, "\n"),
            b"entry" if self.in_text => push(&mut self.cur, " "),
            b"BR" => {
                if self.field != Field::None {
                    self.field_buf.push(' ');
                } else if self.in_text {
                    push(&mut self.cur, " ");
                }
            }
            _ => {}
        }
    }

    /// An end tag outside dropped subtrees.
    fn end(&mut self, name: &[u8]) {
        match name {
            b"enbez"
            | b"titel"
            | b"jurabk"
            | b"amtabk"
            | b"langue"
            | b"kurzue"
            | b"gliederungskennzahl"
            | b"gliederungsbez"
            | b"gliederungstitel" => {
                let v = normalize_inline(&self.field_buf);
                if let Some(n) = self.norm.as_mut() {
                    match self.field {
                        Field::Enbez => n.enbez = Some(v),
                        Field::Titel => n.titel = Some(v),
                        Field::GliedKz => n.glied_kz = Some(v),
                        Field::GliedBez => n.glied_bez = Some(v),
                        Field::GliedTitel => n.glied_titel = Some(v),
                        Field::Jurabk => self.law.jurabk = v,
                        Field::Amtabk => self.law.amtabk = Some(v),
                        Field::Langue => self.law.title = v,
                        Field::Kurzue => self.law.short_title = Some(v).filter(|s| !s.is_empty()),
                        Field::None => {}
                    }
                }
                self.field = Field::None;
                self.field_buf.clear();
            }
            b"text" => {
                flush_unit(&mut self.cur, &mut self.norm);
                self.in_text = false;
            }
            b"P" if self.in_text => {
                self.p_level = self.p_level.saturating_sub(1);
                if self.p_level == 0 && self.list_depth == 0 {
                    flush_unit(&mut self.cur, &mut self.norm);
                }
            }
            b"DL" if self.in_text => {
                self.list_depth = self.list_depth.saturating_sub(1);
                push(&mut self.cur, "\n");
            }
            b"DT" | b"LA" | b"entry" | b"DD" if self.in_text => push(&mut self.cur, " "),
            b"Title" | b"Subtitle" if self.in_text => push(&mut self.cur, "\n"),
            b"norm" => {
                if let Some(n) = self.norm.take() {
                    finish_norm(n, &mut self.crumbs, &mut self.law.norms);
                }
                self.first_norm = false;
            }
            _ => {}
        }
    }

    /// `<BR/>`: a space in the field or the text.
    fn line_break(&mut self) {
        if self.field != Field::None {
            self.field_buf.push(' ');
        } else if self.in_text {
            push(&mut self.cur, " ");
        }
    }
}

fn start_field(field: &mut Field, buf: &mut String, f: Field) {
    *field = f;
    buf.clear();
}

fn push(cur: &mut Option<String>, s: &str) {
    cur.get_or_insert_with(String::new).push_str(s);
}

fn flush_unit(cur: &mut Option<String>, norm: &mut Option<NormState>) {
    if let Some(buf) = cur.take() {
        let text = normalize_block(&buf);
        if text.is_empty() {
            return;
        }
        if let Some(n) = norm.as_mut() {
            let label = absatz_label(&text);
            n.units.push(RawUnit { label, text });
        }
    }
}

fn finish_norm(n: NormState, crumbs: &mut Vec<(usize, String)>, out: &mut Vec<RawNorm>) {
    if let Some(kz) = &n.glied_kz {
        let level = kz.len().div_ceil(3).max(1);
        crumbs.retain(|(l, _)| *l < level);
        let heading = match (&n.glied_bez, &n.glied_titel) {
            (Some(b), Some(t)) if !t.is_empty() => format!("{b} {t}"),
            (Some(b), _) => b.clone(),
            (None, Some(t)) => t.clone(),
            (None, None) => return,
        };
        crumbs.push((level, heading));
        return;
    }
    let Some(enbez) = n.enbez else { return };
    let label = normalize_inline(&enbez);
    if n.has_toc
        || label.is_empty()
        || label.starts_with("Inhaltsübersicht")
        || label.starts_with("Inhaltsverzeichnis")
        || label.starts_with('(')
        || label == "Eingangsformel"
        || label == "Schlussformel"
    {
        return;
    }
    if n.units.is_empty() {
        return;
    }
    out.push(RawNorm {
        kind: kind_of_label(&label),
        norm: label,
        title: n.titel.unwrap_or_default(),
        breadcrumb: crumbs.iter().map(|(_, h)| h.clone()).collect(),
        units: n.units,
        lang: Lang::De,
        framework: None,
        hints: Vec::new(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<dokumente><norm><metadaten><jurabk>TG 2020</jurabk><amtabk>TG</amtabk><langue>Gesetz zur Erprobung von Tests</langue><kurzue>Testgesetz</kurzue></metadaten>
<textdaten><fussnoten><Content><P>Fußnote zum Gesetz</P></Content></fussnoten></textdaten></norm>
<norm><metadaten><jurabk>TG</jurabk><enbez>Inhaltsübersicht</enbez></metadaten><textdaten><text><TOC><P>§ 1</P></TOC></text></textdaten></norm>
<norm><metadaten><gliederungseinheit><gliederungskennzahl>010</gliederungskennzahl><gliederungsbez>Teil 1</gliederungsbez><gliederungstitel>Allgemeines</gliederungstitel></gliederungseinheit></metadaten></norm>
<norm><metadaten><enbez>§  1</enbez><titel>Zweck</titel></metadaten><textdaten><text format="XML"><Content>
<P>(1) Dieses Gesetz gilt für <DL Type="arabic"><DT>1.</DT><DD><LA>öffentliche Stellen,</LA></DD><DT>2.</DT><DD><LA>private Stellen.<FnR ID="F1"/></LA></DD></DL></P>
<P>(2) Es gilt § 2 Absatz 1.</P></Content></text><fussnoten><Content><P>Fußnote</P></Content></fussnoten></textdaten></norm>
<norm><metadaten><gliederungseinheit><gliederungskennzahl>010010</gliederungskennzahl><gliederungsbez>Kapitel 1</gliederungsbez><gliederungstitel>Begriffe</gliederungstitel></gliederungseinheit></metadaten></norm>
<norm><metadaten><enbez>§ 2</enbez><titel>Begriffe</titel></metadaten><textdaten><text><Content><P>Begriffe sind <B>wichtig</B>.</P></Content></text></textdaten></norm>
<norm><metadaten><enbez>(XXXX) §§ 3 bis 4</enbez></metadaten><textdaten><text><Content><P>-</P></Content></text></textdaten></norm>
</dokumente>"#;

    #[test]
    fn parses_norms_breadcrumb_lists_and_drops_footnotes() {
        let law = parse_law("t.xml", SMALL.as_bytes()).unwrap();
        assert_eq!(law.jurabk, "TG 2020");
        assert_eq!(law.amtabk.as_deref(), Some("TG"));
        assert_eq!(law.title, "Gesetz zur Erprobung von Tests");
        assert_eq!(law.short_title.as_deref(), Some("Testgesetz"));
        assert_eq!(
            law.titles(),
            ["Gesetz zur Erprobung von Tests", "Testgesetz"]
        );
        assert_eq!(law.norms.len(), 2, "{:#?}", law.norms);
        let n1 = &law.norms[0];
        assert_eq!(n1.norm, "§ 1");
        assert_eq!(n1.title, "Zweck");
        assert_eq!(n1.breadcrumb, vec!["Teil 1 Allgemeines"]);
        assert_eq!(n1.units.len(), 2);
        assert_eq!(n1.units[0].label.as_deref(), Some("Abs. 1"));
        assert_eq!(
            n1.units[0].text,
            "(1) Dieses Gesetz gilt für\n1. öffentliche Stellen,\n2. private Stellen."
        );
        assert!(!n1.full_text().contains("Fußnote"));
        let n2 = &law.norms[1];
        assert_eq!(
            n2.breadcrumb,
            vec!["Teil 1 Allgemeines", "Kapitel 1 Begriffe"]
        );
        assert_eq!(n2.units[0].label, None);
        assert_eq!(n2.units[0].text, "Begriffe sind wichtig.");
    }

    #[test]
    fn truncated_file_is_an_error_with_position() {
        let cut = &SMALL[..SMALL.len() / 2];
        let e = parse("t.xml", cut.as_bytes()).unwrap_err();
        assert_eq!(e.file, "t.xml");
        assert!(e.position.is_some());
    }

    #[test]
    fn invalid_utf8_is_an_error() {
        let e = parse("t.xml", b"<a>\xff</a>").unwrap_err();
        assert!(e.message.contains("UTF-8"));
    }

    #[test]
    fn garbage_never_panics() {
        for s in ["", "<", "<<>>", "<norm><enbez>", "</x>", "<a></b>"] {
            let _ = parse("t.xml", s.as_bytes());
        }
    }
}
