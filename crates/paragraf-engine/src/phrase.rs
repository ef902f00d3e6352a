//! The question's words in a row: two content words the question writes
//! next to each other (stop words between them aside: "register of
//! information", „Recht auf Löschung“) name one thing, and a passage that
//! writes them together (at most [`PAIR_GAP`] words apart) speaks of that
//! thing, where one that holds them apart only shares words. The rank
//! crate lifts its BM25 by the share of pairs it holds (`pairLexicalGain`).

use paragraf_index::Analyzer;
use paragraf_rank::constants::PAIR_GAP;
use paragraf_types::Lang;

/// The pairs of content words next to each other in the question (as the
/// index analyzer stems them), each once.
pub fn question_pairs(analyzer: &Analyzer, query: &str, lang: Lang) -> Vec<(String, String)> {
    let stems: Vec<String> = words(query)
        .iter()
        .filter_map(|w| analyzer.analyze_lang(w, lang).into_iter().next())
        .collect();
    let mut pairs: Vec<(String, String)> = Vec::new();
    for w in stems.windows(2) {
        let p = (w[0].clone(), w[1].clone());
        if p.0 != p.1 && !pairs.contains(&p) {
            pairs.push(p);
        }
    }
    pairs
}

/// Which of `pairs` a text holds together, in order, at most
/// [`PAIR_GAP`] words apart. A pair whose stems the text does not hold
/// at all is decided by a substring search, without splitting the text.
pub fn held_pairs(text: &str, pairs: &[(String, String)]) -> Vec<bool> {
    let folded = lower_folded(text);
    let mut ws: Option<Vec<&str>> = None;
    let mut held = Vec::with_capacity(pairs.len());
    for (a, b) in pairs {
        if !folded.contains(form_key(a)) || !folded.contains(form_key(b)) {
            held.push(false);
            continue;
        }
        let ws = ws.get_or_insert_with(|| split_words(&folded).collect());
        held.push(ws.iter().enumerate().any(|(i, w)| {
            is_form(w, a)
                && ws[i + 1..ws.len().min(i + 2 + PAIR_GAP)]
                    .iter()
                    .any(|v| is_form(v, b))
        }));
    }
    held
}

/// How many leading letters of a stem every form of it holds: all but the
/// last (the stemmer's `y → i`: "company" / `compani`), at least three,
/// at most the stem.
fn form_len(stem: &str) -> usize {
    let n = stem.chars().count();
    n.min(3.max(n.saturating_sub(1)))
}

/// The part of a stem every form of it holds ([`form_len`]).
fn form_key(stem: &str) -> &str {
    stem.char_indices()
        .nth(form_len(stem))
        .map_or(stem, |(at, _)| &stem[..at])
}

/// The share of `pairs` a text holds together ([`held_pairs`]); 0 for no
/// pairs.
pub fn pair_share(text: &str, pairs: &[(String, String)]) -> f32 {
    if pairs.is_empty() {
        return 0.0;
    }
    let held = held_pairs(text, pairs).into_iter().filter(|h| *h).count();
    held as f32 / pairs.len() as f32
}

/// A text lower-cased and umlaut-folded in one pass (as [`fold`] after
/// `to_lowercase`).
fn lower_folded(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
            continue;
        }
        match c {
            'ä' | 'Ä' => out.push('a'),
            'ö' | 'Ö' => out.push('o'),
            'ü' | 'Ü' => out.push('u'),
            'ß' | 'ẞ' => out.push_str("ss"),
            _ => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// The words of a lower-cased, folded text.
fn split_words(folded: &str) -> impl Iterator<Item = &str> {
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// Lower-cased, umlaut-folded words of a text.
fn words(text: &str) -> Vec<String> {
    split_words(&lower_folded(text))
        .map(str::to_string)
        .collect()
}

/// Whether a word is a form of a (non-empty) stem: it begins with the
/// stem's first [`form_len`] letters.
fn is_form(word: &str, stem: &str) -> bool {
    let common = word
        .chars()
        .zip(stem.chars())
        .take_while(|(x, y)| x == y)
        .count();
    !stem.is_empty() && common >= form_len(stem)
}

#[cfg(test)]
mod tests {
    use super::*;
    use paragraf_index::analyzer::fold;

    #[test]
    fn forms_share_the_stem() {
        assert!(is_form("companies", "compani"));
        assert!(is_form("company", "compani"));
        assert!(is_form("information", "inform"));
        assert!(!is_form("register", "inform"));
        // the part every form holds, for the substring search
        assert_eq!(form_key("compani"), "compan");
        assert_eq!(form_key("dat"), "dat");
        assert_eq!(form_key("loschung"), "loschun");
        assert_eq!(
            lower_folded("Recht auf Löschung, GROẞ"),
            fold(&"Recht auf Löschung, GROẞ".to_lowercase())
        );
    }

    #[test]
    fn a_pair_is_held_when_its_words_stand_together() {
        let pairs = vec![
            ("regist".to_string(), "inform".to_string()),
            ("inform".to_string(), "dora".to_string()),
        ];
        let held = held_pairs(
            "Financial entities shall maintain a register of information in relation to all contractual arrangements.",
            &pairs,
        );
        assert_eq!(held, [true, false]);
        let apart = held_pairs(
            "The register is kept by the authority, which shares the information.",
            &pairs,
        );
        assert_eq!(apart, [false, false]);
        // at most PAIR_GAP words between the two
        let two = held_pairs("a register of the information", &pairs);
        let three = held_pairs("a register of all the information", &pairs);
        assert_eq!((two[0], three[0]), (true, false));
    }
}
