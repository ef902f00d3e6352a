//! Families of defined terms: a definitions norm that defines several kinds
//! of one thing names each kind with the thing's word last — the AI Act's
//! "emotion recognition system", "biometric categorisation system", "remote
//! biometric identification system". The words before that head name the
//! practice the kind performs, and a question asks about the practice in
//! those words ("What is emotion recognition under the AI Act?", "What is
//! biometric categorisation?"): the kind's definition answers it.

use paragraf_types::NormRef;
use std::collections::{BTreeMap, BTreeSet};

/// Fewest defined terms of one definitions norm that must end in the same
/// word for it to be a family's head ("system" in the AI Act); fewer is a
/// coincidence of two terms.
pub const FAMILY_MIN_MEMBERS: usize = 3;

/// Fewest words the practice's name keeps without the head: "emotion
/// recognition" names a practice, "AI" of "AI system" names none.
pub const FAMILY_MIN_PRACTICE_WORDS: usize = 2;

/// The entries of [`super::DefinedTerms::new`] and, for each member of a
/// family, its practice: the member's terms without the head's, with the
/// member's surface form and norm. The head's analysed term is the one term
/// every member of the family shares (a family whose members share none or
/// several is left alone).
pub(super) fn with_practices(
    entries: Vec<(Vec<String>, String, NormRef)>,
) -> Vec<(Vec<String>, String, NormRef)> {
    let last_word = |surface: &str| {
        let words: Vec<&str> = surface.split_whitespace().collect();
        (words.len() > FAMILY_MIN_PRACTICE_WORDS).then(|| words[words.len() - 1].to_lowercase())
    };
    // per (norm, head word): the members' indices
    let mut families: BTreeMap<(&str, String), Vec<usize>> = BTreeMap::new();
    for (i, (_, surface, norm)) in entries.iter().enumerate() {
        if let Some(head) = last_word(surface) {
            families.entry((norm.0.as_str(), head)).or_default().push(i);
        }
    }
    let mut practices: Vec<(Vec<String>, String, NormRef)> = Vec::new();
    for members in families.values().filter(|m| m.len() >= FAMILY_MIN_MEMBERS) {
        let mut shared: BTreeSet<&String> = entries[members[0]].0.iter().collect();
        for &m in &members[1..] {
            let own: BTreeSet<&String> = entries[m].0.iter().collect();
            shared = shared.intersection(&own).copied().collect();
        }
        let [head] = shared.into_iter().collect::<Vec<_>>()[..] else {
            continue;
        };
        for &m in members {
            let (terms, surface, norm) = &entries[m];
            let practice: Vec<String> = terms.iter().filter(|t| *t != head).cloned().collect();
            practices.push((practice, surface.clone(), norm.clone()));
        }
    }
    let mut out = entries;
    out.extend(practices);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(terms: &[&str], surface: &str, norm: &str) -> (Vec<String>, String, NormRef) {
        let terms = terms.iter().map(|t| t.to_string()).collect();
        (terms, surface.to_string(), NormRef(norm.to_string()))
    }

    /// Real questions of two pages ask so: "What is emotion recognition
    /// under the AI Act?" (a tuning page), "What is biometric
    /// categorisation?" (virconlegal.com, in no set).
    #[test]
    fn a_family_members_practice_is_its_terms_without_the_shared_head() {
        let entries = vec![
            entry(
                &["emot", "recognit", "system"],
                "emotion recognition system",
                "Art. 3 KI-VO",
            ),
            entry(
                &["biometr", "categoris", "system"],
                "biometric categorisation system",
                "Art. 3 KI-VO",
            ),
            entry(
                &["remot", "biometr", "identif", "system"],
                "remote biometric identification system",
                "Art. 3 KI-VO",
            ),
            entry(&["ai", "system"], "AI system", "Art. 3 KI-VO"),
            // two terms ending alike are no family
            entry(&["genet", "data"], "genetic data", "Art. 4 DSGVO"),
            entry(&["person", "data"], "personal data", "Art. 4 DSGVO"),
        ];
        let out = with_practices(entries.clone());
        let added: Vec<(Vec<String>, String)> = out[entries.len()..]
            .iter()
            .map(|(t, s, _)| (t.clone(), s.clone()))
            .collect();
        let words = |w: &[&str]| w.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        assert_eq!(
            added,
            vec![
                (
                    words(&["emot", "recognit"]),
                    "emotion recognition system".into()
                ),
                (
                    words(&["biometr", "categoris"]),
                    "biometric categorisation system".into()
                ),
                (
                    words(&["remot", "biometr", "identif"]),
                    "remote biometric identification system".into()
                ),
            ]
        );
    }
}
