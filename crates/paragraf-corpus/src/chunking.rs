//! Chunking: one chunk per citable unit, split at Absatz boundaries when the
//! norm is longer than the token budget, never across norms.
//!
//! Tokens are estimated without a tokenizer, deterministically: `ceil(chars /
//! CHARS_PER_TOKEN)`. bge-m3's XLM-R sentencepiece vocabulary averages about
//! 4 characters per token on German and English legal prose; 3.2 assumes 25 %
//! more tokens than that as a safety margin (long compounds, numbers,
//! citations split into many pieces). The default budget of 480 estimated
//! tokens leaves 32 tokens of the model's 512 for special tokens and a short
//! title prefix. A single Absatz longer than the budget is split further at
//! line breaks (list items), then at sentence ends, then hard at a character
//! boundary.

use crate::raw::RawUnit;

/// Characters per estimated token (see the module docs).
pub const CHARS_PER_TOKEN: f64 = 3.2;
/// Default token budget per chunk (fits bge-m3's 512 with headroom).
pub const DEFAULT_MAX_TOKENS: usize = 480;

/// Estimated token count of a text.
pub fn estimate_tokens(text: &str) -> usize {
    (text.chars().count() as f64 / CHARS_PER_TOKEN).ceil() as usize
}

/// One piece of a norm's text: a whole unit or a slice of an oversized one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// Label of the unit the piece comes from (`Abs. 3`).
    pub label: Option<String>,
    /// 0 for the first piece of a unit, k for the k-th continuation.
    pub cont: u32,
    pub text: String,
}

/// One chunk of a norm before metadata is attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkText {
    pub pieces: Vec<Piece>,
    pub text: String,
}

impl ChunkText {
    /// Sub-unit id part: the label of the first piece (`Abs.3`), with `.k` for
    /// a continuation piece; `p{n}` when the first piece is unlabelled.
    pub fn subunit(&self, part: usize) -> String {
        match self.pieces.first() {
            Some(Piece {
                label: Some(l),
                cont: 0,
                ..
            }) => l.clone(),
            Some(Piece {
                label: Some(l),
                cont,
                ..
            }) => format!("{l}.{}", cont + 1),
            _ => format!("p{}", part + 1),
        }
    }

    /// Citation label range of the chunk: `Abs. 1`, `Abs. 1–3`; None when
    /// no piece is labelled.
    pub fn label_range(&self) -> Option<String> {
        let labels: Vec<&str> = self
            .pieces
            .iter()
            .filter_map(|p| p.label.as_deref())
            .collect();
        let first = *labels.first()?;
        let last = *labels.last()?;
        if first == last {
            return Some(first.to_string());
        }
        let split = |l: &str| -> (String, String) {
            match l.rfind(' ') {
                Some(i) => (l[..=i].to_string(), l[i + 1..].to_string()),
                None => (String::new(), l.to_string()),
            }
        };
        let (pa, a) = split(first);
        let (pb, b) = split(last);
        if pa == pb {
            Some(format!("{pa}{a}–{b}"))
        } else {
            Some(format!("{first}–{last}"))
        }
    }
}

/// Split a norm's units into chunks of at most `max_tokens` estimated tokens.
pub fn chunk_units(units: &[RawUnit], max_tokens: usize) -> Vec<ChunkText> {
    let max_tokens = max_tokens.max(16);
    let max_chars = (max_tokens as f64 * CHARS_PER_TOKEN).floor() as usize;
    let mut pieces = Vec::new();
    for u in units {
        if u.text.chars().count() <= max_chars {
            pieces.push(Piece {
                label: u.label.clone(),
                cont: 0,
                text: u.text.clone(),
            });
        } else {
            for (k, t) in split_long(&u.text, max_chars).into_iter().enumerate() {
                pieces.push(Piece {
                    label: u.label.clone(),
                    cont: k as u32,
                    text: t,
                });
            }
        }
    }
    let mut out: Vec<ChunkText> = Vec::new();
    let mut cur: Vec<Piece> = Vec::new();
    let mut cur_chars = 0usize;
    for p in pieces {
        let n = p.text.chars().count();
        if !cur.is_empty() && cur_chars + 2 + n > max_chars {
            out.push(finish(std::mem::take(&mut cur)));
            cur_chars = 0;
        }
        cur_chars += if cur.is_empty() { n } else { n + 2 };
        cur.push(p);
    }
    if !cur.is_empty() {
        out.push(finish(cur));
    }
    out
}

fn finish(pieces: Vec<Piece>) -> ChunkText {
    let text = pieces
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n");
    ChunkText { pieces, text }
}

/// Split an oversized text into slices of at most `max_chars` characters:
/// at line breaks, then sentence ends, then hard.
fn split_long(text: &str, max_chars: usize) -> Vec<String> {
    let mut atoms: Vec<String> = Vec::new();
    for line in text.split('\n') {
        if line.chars().count() <= max_chars {
            atoms.push(line.to_string());
            continue;
        }
        let mut sentence = String::new();
        for (i, part) in line.split_inclusive(". ").enumerate() {
            let _ = i;
            if sentence.chars().count() + part.chars().count() > max_chars && !sentence.is_empty() {
                atoms.push(std::mem::take(&mut sentence).trim_end().to_string());
            }
            if part.chars().count() > max_chars {
                let chars: Vec<char> = part.chars().collect();
                for c in chars.chunks(max_chars) {
                    atoms.push(c.iter().collect());
                }
            } else {
                sentence.push_str(part);
            }
        }
        if !sentence.trim().is_empty() {
            atoms.push(sentence.trim_end().to_string());
        }
    }
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for a in atoms {
        if !cur.is_empty() && cur.chars().count() + 1 + a.chars().count() > max_chars {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push('\n');
        }
        cur.push_str(&a);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(label: Option<&str>, text: &str) -> RawUnit {
        RawUnit {
            label: label.map(String::from),
            text: text.into(),
        }
    }

    #[test]
    fn short_norm_is_one_chunk() {
        let c = chunk_units(
            &[u(Some("Abs. 1"), "(1) a"), u(Some("Abs. 2"), "(2) b")],
            480,
        );
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].text, "(1) a\n\n(2) b");
        assert_eq!(c[0].label_range().as_deref(), Some("Abs. 1–2"));
    }

    #[test]
    fn splits_at_absatz_boundaries_within_budget() {
        let long = "x".repeat(1000);
        let units: Vec<RawUnit> = (1..=4)
            .map(|i| u(Some(&format!("Abs. {i}")), &format!("({i}) {long}")))
            .collect();
        let c = chunk_units(&units, 480); // 1536 chars
        assert_eq!(c.len(), 4);
        assert_eq!(c[2].subunit(2), "Abs. 3");
        for ch in &c {
            assert!(estimate_tokens(&ch.text) <= 480);
        }
    }

    #[test]
    fn oversized_unit_is_split_and_labelled() {
        let text = (0..200)
            .map(|i| format!("Satz {i} ist hier."))
            .collect::<Vec<_>>()
            .join(" ");
        let c = chunk_units(&[u(Some("Abs. 1"), &text)], 100);
        assert!(c.len() > 1);
        assert_eq!(c[0].subunit(0), "Abs. 1");
        assert_eq!(c[1].subunit(1), "Abs. 1.2");
        for ch in &c {
            assert!(estimate_tokens(&ch.text) <= 100, "{}", ch.text.len());
        }
        let joined: String = c
            .iter()
            .map(|x| x.text.replace('\n', " "))
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(
            joined.split_whitespace().count(),
            text.split_whitespace().count()
        );
    }

    #[test]
    fn deterministic_estimate() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcd"), 2);
        assert_eq!(estimate_tokens("äöü"), 1);
    }
}
