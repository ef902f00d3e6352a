//! Superseded law versions as Markdown (`de/superseded/*.md`).
//!
//! YAML front matter between `---` lines (only `jurabk`/`Title` are read);
//! `#` is the law title; `##`–`####` headings are either norms (`§ N Title`,
//! `Art. N`, `Anlage …`) or structure headings that form the breadcrumb by
//! level. Inside a norm, blank-line separated blocks are joined; a block
//! starting with `(n)` opens a new Absatz; list items (`1.  …`, `a)  …`) stay
//! on their own line. Footnote definitions `[^id]: …` (with their indented
//! continuation) and inline markers `[^id]` are dropped; repealed
//! placeholders (`(XXXX) §§ 36 und 37 (weggefallen)`) are skipped.

use super::text::{absatz_label, kind_of_label, normalize_inline};
use crate::raw::{ParseError, RawNorm, RawUnit};
use paragraf_types::Lang;

/// Front matter fields the pipeline may use.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrontMatter {
    pub title: Option<String>,
    pub jurabk: Option<String>,
}

/// Parse a superseded-law Markdown file into its norms.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    parse_with_front_matter(file, bytes).map(|(_, n)| n)
}

struct Cur {
    label: String,
    title: String,
    breadcrumb: Vec<String>,
    units: Vec<RawUnit>,
    block: Vec<String>,
}

/// Parse, returning the front matter too.
pub fn parse_with_front_matter(
    file: &str,
    bytes: &[u8],
) -> Result<(FrontMatter, Vec<RawNorm>), ParseError> {
    let text = super::text::utf8(file, bytes)?;
    let lines: Vec<&str> = text.lines().collect();
    let mut fm = FrontMatter::default();
    let mut i = 0;
    if lines.first().map(|l| l.trim()) == Some("---") {
        let end = lines
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, l)| l.trim() == "---")
            .map(|(k, _)| k)
            .ok_or_else(|| {
                ParseError::new(
                    file,
                    Some("line 1".into()),
                    "front matter not closed by `---`",
                )
            })?;
        for l in &lines[1..end] {
            if let Some((k, v)) = l.split_once(':') {
                let v = v.trim().to_string();
                match k.trim() {
                    "jurabk" => fm.jurabk = Some(v),
                    "Title" | "title" => fm.title = Some(v),
                    _ => {}
                }
            }
        }
        i = end + 1;
    }

    let mut out = Vec::new();
    let mut crumbs: Vec<(usize, String)> = Vec::new();
    let mut cur: Option<Cur> = None;
    let mut skipping = false; // inside a repealed placeholder
    let mut in_footnote = false;
    let mut saw_heading = false;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if let Some((level, heading)) = heading_of(line) {
            saw_heading = true;
            in_footnote = false;
            finish(&mut cur, &mut out);
            skipping = false;
            if level == 1 {
                continue;
            }
            let heading = strip_footnote_refs(heading);
            if heading.starts_with('(') {
                skipping = true;
                continue;
            }
            if let Some((label, title)) = norm_heading(&heading) {
                crumbs.retain(|(l, _)| *l < level);
                cur = Some(Cur {
                    label,
                    title,
                    breadcrumb: crumbs.iter().map(|(_, h)| h.clone()).collect(),
                    units: Vec::new(),
                    block: Vec::new(),
                });
            } else {
                crumbs.retain(|(l, _)| *l < level);
                crumbs.push((level, heading));
            }
            continue;
        }
        if line.starts_with("[^") && line.contains("]:") {
            in_footnote = true;
            continue;
        }
        if in_footnote {
            if line.trim().is_empty() || line.starts_with(' ') || line.starts_with('\t') {
                if line.trim().is_empty() {
                    in_footnote = false;
                }
                continue;
            }
            in_footnote = false;
        }
        if skipping {
            continue;
        }
        let Some(c) = cur.as_mut() else { continue };
        if line.trim().is_empty() {
            end_block(c);
        } else {
            c.block.push(line.to_string());
        }
    }
    finish(&mut cur, &mut out);
    if !saw_heading {
        return Err(ParseError::new(
            file,
            None,
            "no Markdown headings found: not a law file",
        ));
    }
    Ok((fm, out))
}

fn heading_of(line: &str) -> Option<(usize, &str)> {
    let hashes = line.chars().take_while(|c| *c == '#').count();
    if hashes == 0 || hashes > 6 {
        return None;
    }
    let rest = &line[hashes..];
    if !rest.starts_with(' ') {
        return None;
    }
    Some((hashes, rest.trim()))
}

/// `§ 4f Beauftragter …` → (`§ 4f`, `Beauftragter …`); `Anlage (zu § 9 Satz 1)`
/// → (`Anlage`, `(zu § 9 Satz 1)`); structure headings → None.
fn norm_heading(h: &str) -> Option<(String, String)> {
    let words: Vec<&str> = h.split_whitespace().collect();
    let first = *words.first()?;
    let (n_label_words, ok) = match first {
        "§" | "Art." | "Artikel" => (2, words.len() >= 2),
        "Anlage" | "Anhang" => {
            // `Anlage 1 …` or `Anlage (zu …)`
            let numbered = words
                .get(1)
                .map(|w| {
                    w.chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
                        && w.len() <= 5
                })
                .unwrap_or(false);
            (if numbered { 2 } else { 1 }, true)
        }
        _ => (0, false),
    };
    if !ok {
        return None;
    }
    let mut label = words[..n_label_words].join(" ");
    if label.starts_with("Artikel ") {
        label = label.replacen("Artikel", "Art.", 1);
    }
    let title = words[n_label_words..].join(" ");
    Some((label, title))
}

fn strip_footnote_refs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find("[^") {
        out.push_str(&rest[..p]);
        match rest[p..].find(']') {
            Some(q) => rest = &rest[p + q + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

fn end_block(c: &mut Cur) {
    if c.block.is_empty() {
        return;
    }
    let raw = c.block.join(" ");
    c.block.clear();
    let text = strip_footnote_refs(&normalize_inline(&raw));
    if text.is_empty() {
        return;
    }
    if let Some(label) = absatz_label(&text) {
        c.units.push(RawUnit {
            label: Some(label),
            text,
        });
        return;
    }
    match c.units.last_mut() {
        Some(u) => {
            // list items and continuation blocks each start a new line
            u.text.push('\n');
            u.text.push_str(&text);
        }
        None => c.units.push(RawUnit { label: None, text }),
    }
}

fn finish(cur: &mut Option<Cur>, out: &mut Vec<RawNorm>) {
    let Some(mut c) = cur.take() else { return };
    end_block(&mut c);
    // repealed stubs (`-`, `(weggefallen)`) carry no text worth a chunk
    c.units
        .retain(|u| u.text != "-" && u.text != "(weggefallen)");
    if c.units.is_empty() {
        return;
    }
    out.push(RawNorm {
        kind: kind_of_label(&c.label),
        norm: c.label,
        title: c.title,
        breadcrumb: c.breadcrumb,
        units: c.units,
        lang: Lang::De,
        framework: None,
        hints: Vec::new(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const MD: &str = "---\nTitle: Testgesetz\njurabk: TG 1990\n---\n\n# Testgesetz (TG 1990)\n\nAusfertigungsdatum\n:   1990-12-20\n\n[^F1]:     Fußnote zum Gesetz\n    zweite Zeile\n\n## Erster Abschnitt - Allgemeines\n\n### § 1 Zweck[^F2]\n\n(1) Zweck ist es,\nden Einzelnen zu schützen.\n\n(2) Es gilt für\n\n1.  öffentliche Stellen,\n\n2.  private Stellen.\n\n#### (XXXX) §§ 2 und 3 (weggefallen)\n\n-\n\n### § 4f Beauftragter\n\nText ohne Absatz.\n\n## Anlage (zu § 9 Satz 1)\n\nMaßnahmen.\n";

    #[test]
    fn parses_sections_breadcrumb_lists() {
        let (fm, norms) = parse_with_front_matter("t.md", MD.as_bytes()).unwrap();
        assert_eq!(fm.jurabk.as_deref(), Some("TG 1990"));
        assert_eq!(norms.len(), 3, "{norms:#?}");
        assert_eq!(norms[0].norm, "§ 1");
        assert_eq!(norms[0].title, "Zweck");
        assert_eq!(norms[0].breadcrumb, vec!["Erster Abschnitt - Allgemeines"]);
        assert_eq!(norms[0].units.len(), 2);
        assert_eq!(
            norms[0].units[0].text,
            "(1) Zweck ist es, den Einzelnen zu schützen."
        );
        assert_eq!(
            norms[0].units[1].text,
            "(2) Es gilt für\n1. öffentliche Stellen,\n2. private Stellen."
        );
        assert_eq!(norms[1].norm, "§ 4f");
        assert_eq!(norms[1].units[0].label, None);
        assert_eq!(norms[2].norm, "Anlage");
        assert_eq!(norms[2].breadcrumb, Vec::<String>::new());
        assert!(norms.iter().all(|n| !n.full_text().contains("Fußnote")));
    }

    #[test]
    fn unclosed_front_matter_is_an_error() {
        let e = parse("t.md", b"---\nTitle: x\n").unwrap_err();
        assert!(e.message.contains("front matter"));
    }

    #[test]
    fn no_headings_is_an_error() {
        assert!(parse("t.md", b"just text").is_err());
    }
}
