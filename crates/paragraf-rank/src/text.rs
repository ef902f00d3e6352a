//! Text normalisation and the signal pattern matcher of the lexicon.
//!
//! Query and patterns are normalised the same way: lower case, umlauts folded
//! (ä→ae, ö→oe, ü→ue, ß→ss), every character that is not a letter or digit
//! separates tokens. A [`Pattern`] is a sequence of tokens; `*` at the start
//! or end of a token makes that edge open (suffix / prefix / infix match), so
//! German inflection and compounds match without a stemmer.

use std::fmt;

/// Fold one lower-cased character into `out` (umlauts, ß, accents).
pub(crate) fn push_folded(c: char, out: &mut String) {
    match c {
        'ä' => out.push_str("ae"),
        'ö' => out.push_str("oe"),
        'ü' => out.push_str("ue"),
        'ß' => out.push_str("ss"),
        'é' | 'è' | 'ê' => out.push('e'),
        'á' | 'à' | 'â' => out.push('a'),
        'ó' | 'ò' | 'ô' => out.push('o'),
        'í' | 'ì' | 'î' => out.push('i'),
        'ú' | 'ù' | 'û' => out.push('u'),
        _ => out.push(c),
    }
}

/// The tokens of every phrase of a list, in one list (a lexicon's word
/// lists: fillers, copulas).
pub(crate) fn list_tokens(list: &[String]) -> Vec<String> {
    list.iter().flat_map(|w| tokens(w, false)).collect()
}

/// Normalise `text` into tokens: lower case, folded, split on every
/// character that is neither a letter nor a digit (nor `*` when
/// `keep_star`).
pub(crate) fn tokens(text: &str, keep_star: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in text.chars() {
        if ch.is_alphanumeric() || (keep_star && ch == '*') {
            for lc in ch.to_lowercase() {
                push_folded(lc, &mut cur);
            }
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

use paragraf_types::german::{without_ge_infix, without_zu_infix};

/// The tokens of `text` as [`tokens`] splits them, lower case but not
/// folded: the i-th is the word the i-th of [`tokens`] is folded from.
pub(crate) fn lower_tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The question's tokens, then an empty separator, then the variants of
/// tokens that have one ([`without_zu_infix`], [`without_ge_infix`]) and
/// the hyphenated compounds written whole. The
/// separator matches no pattern token, so a multi-token pattern never spans
/// into the variants.
pub fn tokens_with_variants(text: &str) -> Vec<String> {
    let mut toks = tokens(text, false);
    let mut variants: Vec<String> = toks
        .iter()
        .filter_map(|t| without_zu_infix(t).or_else(|| without_ge_infix(t)))
        .collect();
    // a hyphenated compound is the compound written whole:
    // „Cyberresilienz-Verordnung“ names what „Cyberresilienzverordnung“ does
    for word in text.split_whitespace().filter(|w| w.contains('-')) {
        let parts = tokens(word, false);
        if parts.len() > 1 {
            variants.push(parts.concat());
        }
    }
    if !variants.is_empty() {
        toks.push(String::new());
        toks.extend(variants);
    }
    toks
}

/// Canonical comparison key of a norm id: folded, without whitespace
/// (`Art. 37 DSGVO` and `Art.37 DSGVO` compare equal).
pub fn norm_key(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_norm_key(s, &mut out);
    out
}

/// Append the [`norm_key`] of `s` to `out` (keys of several parts without
/// an allocation per part).
pub(crate) fn push_norm_key(s: &str, out: &mut String) {
    for ch in s.chars() {
        if ch.is_whitespace() {
            continue;
        }
        if ch.is_ascii() {
            out.push(ch.to_ascii_lowercase());
            continue;
        }
        for lc in ch.to_lowercase() {
            push_folded(lc, out);
        }
    }
}

/// One compiled signal pattern (see the module doc and `lexicon/query.toml`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// The pattern as written in the lexicon (reported in signals).
    pub source: String,
    /// (token, open start, open end) per token.
    toks: Vec<(String, bool, bool)>,
}

impl Pattern {
    /// Compile a pattern; `None` when it holds no token.
    pub fn parse(src: &str) -> Option<Pattern> {
        let raw = tokens(src, true);
        if raw.is_empty() {
            return None;
        }
        let mut toks = Vec::with_capacity(raw.len());
        for t in raw {
            let os = t.starts_with('*');
            let oe = t.ends_with('*');
            let core = t.trim_matches('*');
            if core.is_empty() || core.contains('*') {
                return None;
            }
            toks.push((core.to_string(), os, oe));
        }
        Some(Pattern {
            source: src.to_string(),
            toks,
        })
    }

    fn tok_match(&self, i: usize, q: &str) -> bool {
        let (p, os, oe) = &self.toks[i];
        match (os, oe) {
            (false, false) => q == p,
            (false, true) => q.starts_with(p.as_str()),
            (true, false) => q.ends_with(p.as_str()),
            (true, true) => q.contains(p.as_str()),
        }
    }

    /// The first token position where the pattern matches `query_tokens`.
    pub fn find(&self, query_tokens: &[String]) -> Option<usize> {
        let n = self.toks.len();
        if query_tokens.len() < n {
            return None;
        }
        (0..=query_tokens.len() - n)
            .find(|&s| (0..n).all(|i| self.tok_match(i, &query_tokens[s + i])))
    }

    /// Every token position where the pattern matches `query_tokens`, in
    /// order ([`Pattern::find`] gives the first).
    pub(crate) fn spans<'q>(
        &'q self,
        query_tokens: &'q [String],
    ) -> impl Iterator<Item = usize> + 'q {
        let mut from = 0;
        std::iter::from_fn(move || {
            let at = from + self.find(query_tokens.get(from..)?)?;
            from = at + 1;
            Some(at)
        })
    }

    /// The number of tokens the pattern spans (at least one).
    pub(crate) fn token_count(&self) -> usize {
        self.toks.len()
    }

    /// Whether the pattern matches anywhere in `query_tokens`.
    pub fn matches(&self, query_tokens: &[String]) -> bool {
        self.find(query_tokens).is_some()
    }

    /// Whether the pattern may match a text whose [`norm_key`] (folded,
    /// without whitespace) is `key`: each of its tokens occurs in it. A
    /// cheap test before a long text is split into tokens.
    pub fn may_match(&self, key: &str) -> bool {
        self.toks.iter().all(|(t, _, _)| key.contains(t.as_str()))
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// The first pattern of `set` that matches, with the query tokens it matched.
pub(crate) fn first_match<'p>(
    set: &'p [Pattern],
    toks: &[String],
) -> Option<(&'p Pattern, String)> {
    set.iter().find_map(|p| {
        p.find(toks)
            .map(|at| (p, toks[at..at + p.toks.len()].join(" ")))
    })
}

/// [`first_match`], skipping a match that lies wholly on tokens marked in
/// `skip` (one flag per token): a topic's word inside a law's name
/// („Geschäftsgeheimnis“ in „Geschäftsgeheimnisgesetz“) is no sign of the
/// topic, a pattern that reaches beyond the name („von NIS2 betroffen“) is.
pub(crate) fn first_match_beside<'p>(
    set: &'p [Pattern],
    toks: &[String],
    skip: &[bool],
) -> Option<(&'p Pattern, String)> {
    set.iter().find_map(|p| {
        let n = p.toks.len();
        p.spans(toks)
            .find(|&at| !(at..at + n).all(|i| skip.get(i).copied().unwrap_or(false)))
            .map(|at| (p, toks[at..at + n].join(" ")))
    })
}

/// Number of a `§ 57` / `Art. 14` label (leading digits after the prefix).
pub fn norm_number(norm: &str) -> Option<u32> {
    let digits: String = norm
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Vec<String> {
        tokens(s, false)
    }

    #[test]
    fn folds_umlauts_and_splits_punctuation() {
        assert_eq!(
            t("Größe der DS-GVO, a. F."),
            vec!["groesse", "der", "ds", "gvo", "a", "f"]
        );
    }

    #[test]
    fn pattern_modes() {
        let q = t("Welche Risikomanagementmaßnahmen muss ein Controller umsetzen?");
        assert!(Pattern::parse("*massnahme*").unwrap().matches(&q));
        assert!(
            !Pattern::parse("control").unwrap().matches(&q),
            "controller is not control"
        );
        assert!(Pattern::parse("control*").unwrap().matches(&q));
        assert!(Pattern::parse("*umsetzen").unwrap().matches(&q));
        assert!(!Pattern::parse("massnahme").unwrap().matches(&q));
        assert!(Pattern::parse("ein controller").unwrap().matches(&q));
        assert!(!Pattern::parse("ein controllers").unwrap().matches(&q));
        assert!(Pattern::parse("muss ein control*").unwrap().matches(&q));
        assert!(Pattern::parse("welch* *management*").unwrap().matches(&q));
        assert!(!Pattern::parse("welch* controller").unwrap().matches(&q));
    }

    #[test]
    fn zu_infinitives_and_participles_meet_their_verb() {
        // the word-level rules are tested in paragraf_types::german
        let q = tokens_with_variants("Wer hat die Daten weitergegeben?");
        assert!(Pattern::parse("weitergeb*").unwrap().matches(&q));
        let q = tokens_with_variants("Wie lange sind Rechnungen aufzubewahren?");
        assert!(Pattern::parse("aufbewahr*").unwrap().matches(&q));
        // the separator keeps multi-token patterns inside the question
        assert!(!Pattern::parse("aufzubewahren aufbewahr*")
            .unwrap()
            .matches(&q));
    }

    #[test]
    fn degenerate_patterns_are_rejected() {
        assert!(Pattern::parse("  ").is_none());
        assert!(Pattern::parse("*").is_none());
        assert!(Pattern::parse("a*b").is_none());
    }

    #[test]
    fn norm_keys_ignore_spacing_and_case() {
        assert_eq!(norm_key("Art. 37 DSGVO"), norm_key("art.37  dsgvo"));
        assert_ne!(norm_key("§ 38 BDSG"), norm_key("§ 38 BDSG 1990"));
    }

    #[test]
    fn a_pattern_may_match_only_a_text_that_holds_its_tokens() {
        let p = Pattern::parse("held liable").unwrap();
        assert!(p.may_match(&norm_key("… and can be held liable for infringements")));
        assert!(!p.may_match(&norm_key("the liability of providers")));
        let folded = Pattern::parse("haftungsbeschraenk*").unwrap();
        assert!(folded.may_match(&norm_key("Eine Haftungsbeschränkung gilt nicht.")));
    }

    #[test]
    fn norm_numbers() {
        assert_eq!(norm_number("§ 57"), Some(57));
        assert_eq!(norm_number("§ 45a"), Some(45));
        assert_eq!(norm_number("Art. 14"), Some(14));
        assert_eq!(norm_number("Anhang I"), None);
    }
}
