//! Law names written in words: the laws' long and short titles
//! (`Strafgesetzbuch`, `Bürgerliches Gesetzbuch`, `Gesetz gegen den
//! unlauteren Wettbewerb`, `Datenschutz-Grundverordnung`) in any case
//! (`des Strafgesetzbuchs`, `des Bürgerlichen Gesetzbuches`, `der
//! Datenschutz-Grundverordnung`), resolved to the canonical regulation.
//!
//! The reference extractor's own alias lookup knows abbreviations and
//! names of up to four words; a citation followed by a longer title, or by
//! a title in the genitive that is no alias, was left to the citing law or
//! marked unknown without saying which law it names.
//! [`crate::refs::extract_references_with`] consults a [`LawNames`] before
//! giving up, so the citation gate can hold such a citation to the rule that
//! a cited norm must be among the retrieved sources.
//!
//! Matching is on a key per word: lower case, letters and digits only, one
//! inflection ending cut (`-es`, `-en`, `-er`, `-em`, `-s`, `-e`) from words
//! longer than four letters, so the nominative of a title and its genitive
//! meet (`bürgerlich gesetzbuch`).

use crate::manifest::{alias_key, Manifest};
use std::collections::HashMap;

/// Longest name, in words, tried after a citation.
pub const MAX_NAME_WORDS: usize = 12;

/// Words that name a kind of instrument, not one law: never a name alone.
const GENERIC: &[&str] = &[
    "gesetz",
    "verordnung",
    "richtlini",
    "richtlinie",
    "regulation",
    "directive",
    "act",
    "beschlus",
    "beschluss",
    "entscheidung",
    "decision",
    "eu",
    "eg",
    "ewg",
    "ec",
    "sr",
];

/// One word's key: see the module docs.
fn word_key(w: &str) -> String {
    let k = alias_key(w);
    for suf in ["es", "en", "er", "em", "s", "e"] {
        if k.chars().count() > suf.len() + 4 && k.ends_with(suf) {
            return k[..k.len() - suf.len()].to_string();
        }
    }
    k
}

/// The key of a name of several words (empty words dropped).
pub fn name_key(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| word_key(w))
        .filter(|k| !k.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Law names (titles, short titles, aliases) → canonical regulation.
#[derive(Debug, Clone, Default)]
pub struct LawNames {
    by_key: HashMap<String, String>,
}

impl LawNames {
    /// No names: [`crate::refs::extract_references_with`] then behaves as
    /// [`crate::refs::extract_references`].
    pub fn new() -> LawNames {
        LawNames::default()
    }

    /// The names of every regulation of the manifest: canonical name,
    /// aliases and title (with the names in its parentheses).
    pub fn from_manifest(manifest: &Manifest) -> LawNames {
        let mut names = LawNames::new();
        for r in &manifest.regulations {
            names.add(&r.name, &r.name);
            for a in &r.aliases {
                names.add(&r.name, a);
            }
            names.add(&r.name, &r.title);
        }
        names
    }

    /// Add `title` (and the names in its parentheses, split at `,` and
    /// ` - `: `Gesetz zur … (Pflegeteilhabegesetz - PflTG)`) as names of
    /// `regulation`. The first regulation to claim a name keeps it.
    pub fn add(&mut self, regulation: &str, title: &str) {
        let (outer, inner) = paragraf_types::german::split_parenthesized(title);
        let mut forms = vec![title.to_string(), outer];
        for part in &inner {
            forms.extend(
                part.split([',', ';'])
                    .flat_map(|p| p.split(" - "))
                    .map(String::from),
            );
        }
        for form in forms {
            let words: Vec<&str> = form.split_whitespace().collect();
            if words.is_empty() || words.len() > MAX_NAME_WORDS {
                continue;
            }
            let key = name_key(&words);
            let letters = key.chars().filter(|c| c.is_alphabetic()).count();
            if letters < 2 || GENERIC.contains(&key.as_str()) {
                continue;
            }
            self.by_key
                .entry(key)
                .or_insert_with(|| regulation.to_string());
        }
    }

    /// Number of distinct names.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// No names at all.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// The regulation a name (in any case) stands for.
    pub fn resolve(&self, name: &str) -> Option<&str> {
        let words: Vec<&str> = name.split_whitespace().collect();
        self.by_key.get(&name_key(&words)).map(String::as_str)
    }

    /// The longest law name at the start of `text` (up to
    /// [`MAX_NAME_WORDS`] words, ending before punctuation that closes a
    /// phrase): the regulation and the byte length of the name. The first
    /// word must not start in lower case (`ePrivacy` only as an exact name),
    /// so ordinary words are never read as a law.
    pub fn prefix(&self, text: &str) -> Option<(&str, usize)> {
        if self.by_key.is_empty() {
            return None;
        }
        let mut spans: Vec<(usize, &str)> = Vec::new();
        let mut at = 0usize;
        for w in text.split(' ') {
            if spans.len() >= MAX_NAME_WORDS || w.is_empty() || w.contains('\n') {
                break;
            }
            let t =
                w.trim_end_matches([',', '.', ';', ':', ')', '(', '“', '"', '!', '?', ']', '[']);
            if t.is_empty() {
                break;
            }
            spans.push((at, t));
            if t.len() != w.len() {
                break;
            }
            at += w.len() + 1;
        }
        let first = spans.first()?.1;
        for k in (1..=spans.len()).rev() {
            let words: Vec<&str> = spans[..k].iter().map(|(_, w)| *w).collect();
            let Some(reg) = self.by_key.get(&name_key(&words)) else {
                continue;
            };
            let lower_start = first.chars().next().is_some_and(char::is_lowercase);
            if lower_start && k == 1 && !self.exact(first) {
                continue;
            }
            if lower_start && k > 1 {
                continue;
            }
            let (off, w) = spans[k - 1];
            return Some((reg.as_str(), off + w.len()));
        }
        None
    }

    /// `w` is a name as written (`ePrivacy`), not only by its key.
    fn exact(&self, w: &str) -> bool {
        // a key without an inflection ending cut is the word itself
        word_key(w) == alias_key(w) && self.by_key.contains_key(&alias_key(w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> LawNames {
        let mut n = LawNames::from_manifest(&Manifest::builtin().expect("builtin manifest"));
        n.add("StGB", "Strafgesetzbuch");
        n.add("BGB", "Bürgerliches Gesetzbuch");
        n
    }

    #[test]
    fn titles_resolve_in_any_case() {
        let n = names();
        for (text, reg) in [
            ("des Strafgesetzbuchs", None),
            ("Strafgesetzbuchs", Some("StGB")),
            ("Strafgesetzbuches", Some("StGB")),
            ("Bürgerlichen Gesetzbuchs", Some("BGB")),
            ("Bürgerliches Gesetzbuch", Some("BGB")),
            ("Datenschutz-Grundverordnung", Some("DSGVO")),
            ("Gesetzes gegen den unlauteren Wettbewerb", Some("UWG")),
            ("Bundesdatenschutzgesetzes", Some("BDSG")),
            ("Gesetzes", None),
            ("Verordnung", None),
            ("EU", None),
        ] {
            assert_eq!(n.resolve(text), reg, "{text}");
        }
    }

    #[test]
    fn the_longest_name_at_the_start_wins() {
        let n = names();
        let text = "Gesetzes gegen den unlauteren Wettbewerb verbietet das.";
        let (reg, len) = n.prefix(text).expect("a name");
        assert_eq!(
            (reg, &text[..len]),
            ("UWG", "Gesetzes gegen den unlauteren Wettbewerb")
        );
        let (reg, len) = n.prefix("Strafgesetzbuchs [1].").expect("a name");
        assert_eq!((reg, len), ("StGB", "Strafgesetzbuchs".len()));
        assert!(n.prefix("gilt entsprechend").is_none());
        assert!(LawNames::new().prefix("Strafgesetzbuchs").is_none());
    }
}
