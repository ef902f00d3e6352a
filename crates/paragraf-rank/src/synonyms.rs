//! German synonyms for lexical retrieval: the question says „aufheben“,
//! „übertragen“, „korrigieren“ where the law's heading says „Aufbewahrung“,
//! „Übermittlung“, „Berichtigung“.
//!
//! The sets come from OpenThesaurus (`lexicon/synonyms_de.tsv`, derived by
//! `scripts/synonyms-from-openthesaurus.py`; LGPL-2.1-or-later): a general
//! German thesaurus, not written for any question. The caller analyses the
//! words with the index analyzer and keeps only synonyms that some norm
//! heading holds (the law's own name for a subject); lexical retrieval adds
//! them to the question's terms at `synonymBm25Weight`. (As heading-match
//! credit they did not help: every sense of a word is in, and a heading
//! match gives the full topic gain.)

use std::collections::{BTreeSet, HashMap};

const BUILTIN_TSV: &str = include_str!("../lexicon/synonyms_de.tsv");

/// The built-in synonym sets as written, one `Vec` of words per set.
pub fn builtin_sets() -> impl Iterator<Item = Vec<&'static str>> {
    BUILTIN_TSV
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            l.split('\t')
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .collect()
        })
}

/// Analysed term → analysed synonyms that can meet a heading.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Synonyms {
    by_term: HashMap<String, Vec<String>>,
}

impl Synonyms {
    /// From analysed sets (one term per word); a term's synonyms are the
    /// other terms of every set it is in for which `keep` holds (the caller:
    /// "some heading has this term"), sorted.
    pub fn new(
        sets: impl IntoIterator<Item = Vec<String>>,
        keep: impl Fn(&str) -> bool,
    ) -> Synonyms {
        let mut by_term: HashMap<String, BTreeSet<String>> = HashMap::new();
        for set in sets {
            let kept: Vec<&String> = set.iter().filter(|t| keep(t)).collect();
            if kept.is_empty() {
                continue;
            }
            for t in &set {
                for k in &kept {
                    if *k != t {
                        by_term.entry(t.clone()).or_default().insert((*k).clone());
                    }
                }
            }
        }
        Synonyms {
            by_term: by_term
                .into_iter()
                .map(|(t, s)| (t, s.into_iter().collect()))
                .collect(),
        }
    }

    /// Number of terms that have synonyms.
    pub fn len(&self) -> usize {
        self.by_term.len()
    }

    /// Whether no term has a synonym.
    pub fn is_empty(&self) -> bool {
        self.by_term.is_empty()
    }

    /// Synonyms of `terms` that are not among them, sorted, once each.
    pub fn expand(&self, terms: &[String]) -> Vec<String> {
        let own: BTreeSet<&str> = terms.iter().map(String::as_str).collect();
        let mut out: BTreeSet<&str> = BTreeSet::new();
        for t in terms {
            for s in self.by_term.get(t).into_iter().flatten() {
                if !own.contains(s.as_str()) {
                    out.insert(s);
                }
            }
        }
        out.into_iter().map(str::to_string).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ws: &[&str]) -> Vec<String> {
        ws.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn only_synonyms_a_heading_holds_are_kept() {
        let s = Synonyms::new(
            [
                set(&["aufheb", "aufbewahr", "verwahr"]),
                set(&["aufheb", "annulli"]),
            ],
            |t| t == "aufbewahr" || t == "annulli",
        );
        assert_eq!(s.expand(&set(&["aufheb"])), set(&["annulli", "aufbewahr"]));
        assert_eq!(s.expand(&set(&["verwahr"])), set(&["aufbewahr"]));
        // a term is never its own synonym, nor one the question already holds
        assert_eq!(s.expand(&set(&["aufbewahr"])), Vec::<String>::new());
        assert_eq!(
            s.expand(&set(&["verwahr", "aufbewahr"])),
            Vec::<String>::new()
        );
    }

    #[test]
    fn the_builtin_sets_hold_general_german_synonyms() {
        let sets: Vec<Vec<&str>> = builtin_sets().collect();
        assert!(sets.len() > 10_000, "{}", sets.len());
        let together = |a: &str, b: &str| sets.iter().any(|s| s.contains(&a) && s.contains(&b));
        assert!(together("berichtigen", "korrigieren"));
        assert!(together("aufbewahren", "verwahren"));
        assert!(sets
            .iter()
            .all(|s| s.len() >= 2 && s.iter().all(|w| !w.contains(' '))));
    }
}
