//! A yes/no question whether something is a term of art: „Ist die
//! Lohnabrechnung über den Steuerberater eine Auftragsverarbeitung?“, "Is an
//! IP address personal data?", "Is a payroll provider a processor?". A
//! copula opens it and the predicate closes it; when the predicate is a
//! term a law defines, the definition decides the question (real questions
//! of several pages: a tax adviser's payroll as processing on behalf, IP
//! addresses as personal data). This pass only reads the candidate
//! predicates ([`QueryAnalysis::classified_words`](super::QueryAnalysis));
//! the engine, which holds the laws' defined terms, sets definition intent
//! when one of them is a defined term whole.

use crate::lexicon::Lexicon;
use crate::text::first_match;

/// The most words a predicate has („personenbezogene Daten“, "personal
/// data", "provider of an online marketplace" has five and is no
/// predicate of a yes/no question).
pub const PREDICATE_MAX_WORDS: usize = 4;

/// The candidate predicates of a classification question, longest first:
/// the words after the last indefinite article that follows the subject
/// („… eine Auftragsverarbeitung“), else the closing one to
/// [`PREDICATE_MAX_WORDS`] words with at least one word left for the
/// subject ("Is an IP address personal data?" → "address personal data",
/// "personal data", "data"). Empty unless a copula opens the question.
pub(super) fn classified_words(toks: &[String], lex: &Lexicon) -> Vec<String> {
    let c = &lex.classify_frame;
    let toks = toks.split(String::is_empty).next().unwrap_or_default();
    let Some((first, rest)) = toks.split_first() else {
        return Vec::new();
    };
    if !c.copulas.contains(first) {
        return Vec::new();
    }
    let mut rest = rest.to_vec();
    drop_law_names(&mut rest, lex);
    while rest
        .last()
        .is_some_and(|w| c.tail.contains(w) || lex.quoted_fillers.contains(w))
    {
        rest.pop();
    }
    let is_article = |w: &String| c.articles.contains(w);
    if let Some(at) = rest.iter().rposition(is_article).filter(|&at| at > 0) {
        let predicate = &rest[at + 1..];
        return if (1..=PREDICATE_MAX_WORDS).contains(&predicate.len()) {
            vec![predicate.join(" ")]
        } else {
            Vec::new()
        };
    }
    let subject = 1 + usize::from(rest.first().is_some_and(is_article));
    let most = PREDICATE_MAX_WORDS.min(rest.len().saturating_sub(subject));
    (1..=most)
        .rev()
        .map(|n| rest[rest.len() - n..].join(" "))
        .collect()
}

/// Take the first mention of each law's name out of a question's words
/// (the frames read what is left: "What is profiling under the GDPR?" →
/// "profiling under").
pub(super) fn drop_law_names(words: &mut Vec<String>, lex: &Lexicon) {
    for r in &lex.regulations {
        if let Some((p, name)) = first_match(&r.aliases, words) {
            if let Some(at) = p.find(words) {
                words.drain(at..at + name.split(' ').count());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::tokens_with_variants;

    fn words(q: &str) -> Vec<String> {
        classified_words(&tokens_with_variants(q), Lexicon::builtin())
    }

    #[test]
    fn the_predicate_after_its_article_is_the_candidate() {
        // own phrasings
        assert_eq!(
            words("Ist ein Steuerbüro ein Auftragsverarbeiter?"),
            ["auftragsverarbeiter"]
        );
        assert_eq!(
            words("Is a payroll provider a processor under the GDPR?"),
            ["processor"]
        );
        // a real question (a tax adviser's page on payroll)
        assert_eq!(
            words("Ist die Lohnabrechnung über den Steuerberater eine Auftragsverarbeitung?"),
            ["auftragsverarbeitung"]
        );
    }

    #[test]
    fn without_an_article_the_closing_words_are_candidates_longest_first() {
        // own phrasing; the subject keeps at least one word
        assert_eq!(
            words("Sind Kfz-Kennzeichen personenbezogene Daten?"),
            [
                "kennzeichen personenbezogene daten",
                "personenbezogene daten",
                "daten"
            ]
        );
        // a real question of another page (a consent-tool vendor's FAQ)
        assert_eq!(
            words("Is an IP address considered personal data?"),
            [
                "address considered personal data",
                "considered personal data",
                "personal data",
                "data"
            ]
        );
    }

    #[test]
    fn no_copula_or_a_long_predicate_gives_none() {
        for q in [
            "Was ist eine Auftragsverarbeitung?",
            "Can you be a data controller?",
            "Are standard contractual clauses a valid safeguard for data exports?",
            "Ist Videoüberwachung?",
        ] {
            assert!(words(q).is_empty(), "{q}");
        }
    }
}
