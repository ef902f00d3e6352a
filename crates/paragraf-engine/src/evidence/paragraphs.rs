//! A norm's text with its paragraph markers, before it is split into units.
//!
//! The German texts keep their Absatz marker in the text (`(1) …`); the EU
//! acts' English texts keep it only as the unit's label (`1.` → `Abs. 1`),
//! so their chunks start a paragraph without saying so, and every paragraph
//! after the first would be cited as the first one (`Art. 21 Abs. 1 lit. a
//! NIS2` for the measures of Abs. 2). A chunk holds whole paragraphs joined
//! by a blank line, the first possibly the rest of the previous chunk's
//! last, and its citation names the range (`Art. 14 Abs. 2–3 CRA`): that is
//! enough to put each paragraph's marker back.

use super::{marker, Marker};
use paragraf_types::Lang;

/// The numeric Absatz range of a chunk citation (`Art. 14 Abs. 2–3 CRA` →
/// 2..=3, `Art. 14 Abs. 7 CRA` → 7..=7); None without one or for lettered
/// numbers (`Abs. 1a`).
fn absatz_range(citation: &str) -> Option<(u32, u32)> {
    let i = citation.find("Abs. ")?;
    let rest = &citation[i + 5..];
    let num = |s: &str| -> Option<(u32, usize)> {
        let d: String = s.chars().take_while(char::is_ascii_digit).collect();
        let after = s[d.len()..].chars().next();
        if d.is_empty() || after.is_some_and(|c| c.is_ascii_alphanumeric()) {
            return None;
        }
        Some((d.parse().ok()?, d.len()))
    };
    let (a, len) = num(rest)?;
    let b = match rest[len..].strip_prefix('–') {
        Some(tail) => num(tail)?.0,
        None => a,
    };
    (a <= b).then_some((a, b))
}

fn opens_absatz(piece: &str, lang: Lang) -> bool {
    let first = piece.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    matches!(marker(first, lang, None), Some((Marker::Absatz(_), _)))
}

/// The text of one norm's chunks (`(citation, text)`, one language, in
/// order), joined, with the Absatz marker of the language (`(n)` German,
/// `n.` English) put before every paragraph that starts without one. A
/// chunk whose paragraphs do not match its citation's range only gets its
/// first paragraph marked.
pub fn norm_text(chunks: &[(&str, &str)], lang: Lang) -> String {
    let mark = |n: u32| match lang {
        Lang::De => format!("({n}) "),
        Lang::En => format!("{n}. "),
    };
    let mut out: Vec<String> = Vec::with_capacity(chunks.len());
    let mut prev_last: Option<u32> = None;
    for (citation, text) in chunks {
        let Some((a, b)) = absatz_range(citation) else {
            out.push(text.to_string());
            prev_last = None;
            continue;
        };
        // the chunk's first paragraph continues the previous chunk's last
        let continues = prev_last == Some(a);
        let pieces: Vec<&str> = text.split("\n\n").collect();
        let whole = pieces.len() == (b - a + 1) as usize;
        let marked: Vec<String> = pieces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let n = a + i as u32;
                let needs = (i > 0 && whole) || (i == 0 && !continues);
                if needs && !opens_absatz(p, lang) {
                    format!("{}{p}", mark(n))
                } else {
                    p.to_string()
                }
            })
            .collect();
        out.push(marked.join("\n\n"));
        prev_last = Some(b);
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_from_citations() {
        assert_eq!(absatz_range("Art. 14 Abs. 2–3 CRA"), Some((2, 3)));
        assert_eq!(absatz_range("Art. 14 Abs. 7 CRA"), Some((7, 7)));
        assert_eq!(absatz_range("§ 30 Abs. 10–12 BSIG"), Some((10, 12)));
        assert_eq!(absatz_range("§ 5 Abs. 1a BDSG"), None);
        assert_eq!(absatz_range("Art. 4 DSGVO"), None);
    }

    #[test]
    fn english_paragraphs_get_their_numbers_back() {
        // three chunks of one article: 1; 2 (cut in the middle of its list); the rest of 2, then 3
        let chunks = [
            ("Art. 9 Abs. 1 XA", "A maker shall report any incident."),
            (
                "Art. 9 Abs. 2 XA",
                "For the report under paragraph 1, the maker shall submit:\n(a) a warning within 24 hours;",
            ),
            (
                "Art. 9 Abs. 2–3 XA",
                "(b) a report within 72 hours.\n\nA maker shall inform the users.",
            ),
        ];
        let t = norm_text(&chunks, Lang::En);
        let u = super::super::norm_units(
            &paragraf_types::NormRef("Art. 9 XA".into()),
            "Art. 9",
            "XA",
            &t,
            Lang::En,
            None,
        );
        let pins: Vec<&str> = u.iter().map(|u| u.pinpoint.as_str()).collect();
        assert_eq!(
            pins,
            vec![
                "Art. 9 Abs. 1 Satz 1 XA",
                "Art. 9 Abs. 2 Satz 1 XA",
                "Art. 9 Abs. 2 lit. a XA",
                "Art. 9 Abs. 2 lit. b XA",
                "Art. 9 Abs. 3 Satz 1 XA",
            ]
        );
    }

    #[test]
    fn marked_paragraphs_and_mismatched_chunks_stay_as_they_are() {
        // German text keeps its own markers; a continuation chunk that opens with a numbered item
        let de = [
            ("§ 3 Abs. 1 XG", "(1) Erstens."),
            ("§ 3 Abs. 1–2 XG", "2. eine Nummer.\n\n(2) Zweitens."),
        ];
        assert_eq!(
            norm_text(&de, Lang::De),
            "(1) Erstens.\n2. eine Nummer.\n\n(2) Zweitens."
        );
        // two paragraphs named, three pieces: only the chunk's start is known
        let en = [("Art. 5 Abs. 4–5 XA", "Four.\n\nStill four?\n\nFive?")];
        assert_eq!(norm_text(&en, Lang::En), "4. Four.\n\nStill four?\n\nFive?");
    }
}
