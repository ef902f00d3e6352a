//! A question that names its laws (by name or abbreviation): the law's own
//! words of other laws that it meets are incidental.

use super::{HeadingMatch, LawMatch};
use paragraf_types::NormRef;
use std::collections::BTreeSet;

/// Heading matches of a question that names its laws (by name or
/// abbreviation, `named`): headings of those laws and of laws of their
/// regime (an EU act and its national implementation, seed 06) stay; a
/// heading of another law that shares a word is incidental.
pub fn keep_named_laws(
    matches: &mut Vec<HeadingMatch>,
    named: &[String],
    regulation_of: &dyn Fn(&NormRef) -> Option<String>,
    regime_of: &dyn Fn(&str) -> String,
) {
    if named.is_empty() {
        return;
    }
    let regimes: BTreeSet<String> = named.iter().map(|r| regime_of(r)).collect();
    matches.retain(|m| {
        regulation_of(&m.norm)
            .is_some_and(|r| named.contains(&r) || regimes.contains(&regime_of(&r)))
    });
}

/// Law-title matches of a question that names its laws by name or
/// abbreviation (`named`): a title of another regime that a word of the
/// question meets is incidental — "Stellen die Datenzugangsansprüche unter
/// dem Data Act eine Gefahr für Geschäftsgeheimnisse dar?" asks the Data
/// Act, though „Geschäftsgeheimnisse“ is the GeschGehG's title word (real
/// questions of cmshs-bloggt.de and sorena.io). Titles of the named laws'
/// regimes stay — unless every word of the title match lies inside the
/// name that named a law (`name_terms`, the analysed words of that name):
/// „Produktsicherheitsverordnung“ names the GPSR, and the ProdSG's title
/// word „Produktsicherheit“ inside it names nothing.
pub fn keep_named_law_titles(
    laws: &mut Vec<LawMatch>,
    named: &[String],
    regime_of: &dyn Fn(&str) -> String,
    name_terms: &[String],
) {
    if named.is_empty() {
        return;
    }
    let regimes: BTreeSet<String> = named.iter().map(|r| regime_of(r)).collect();
    laws.retain(|l| {
        let inside_name = !named.contains(&l.regulation)
            && !l.terms.is_empty()
            && l.terms.iter().all(|t| name_terms.contains(t));
        regimes.contains(&regime_of(&l.regulation)) && !inside_name
    });
}

/// Heading or defined-term matches of the laws a question means: a law it
/// names by its title's words (`laws`, from [`keep_named_law_titles`])
/// keeps that law's matches only; else a law named by name or abbreviation
/// keeps its regime's ([`keep_named_laws`]).
pub fn keep_meant_laws(
    matches: &mut Vec<HeadingMatch>,
    laws: &[LawMatch],
    named: &[String],
    regulation_of: &dyn Fn(&NormRef) -> Option<String>,
    regime_of: &dyn Fn(&str) -> String,
) {
    if laws.is_empty() {
        keep_named_laws(matches, named, regulation_of, regime_of);
    } else {
        matches.retain(|m| laws.iter().any(|l| m.norm.is_of(&l.regulation)));
    }
}

/// The defined terms a definition question asks about: those its own words
/// name (`own`), else those its translations reach (`translated`, asked only
/// then), each kept to the laws the question means (`keep`). A term of a
/// law the question does not mean names nothing: "What is a trade secret?"
/// meets the Data Act's definition in its own words, while its words name
/// the GeschGehG by its title — the GeschGehG's „Geschäftsgeheimnis“,
/// reached through the translation, is the term it asks about, and the
/// Data Act's definition sets no topic of the GeschGehG aside.
pub fn meant_definitions(
    mut own: Vec<HeadingMatch>,
    translated: impl FnOnce() -> Vec<HeadingMatch>,
    keep: &dyn Fn(&mut Vec<HeadingMatch>),
) -> Vec<HeadingMatch> {
    keep(&mut own);
    if !own.is_empty() {
        return own;
    }
    let mut any = translated();
    keep(&mut any);
    any
}

/// The defined-term matches of the term a definition question marks as the
/// one it asks about (`asked`: the analysed terms of its quoted term, else
/// of the words after its frame): a defined term elsewhere in the question
/// is its context („Wer ist „wirtschaftlich Berechtigter“ im
/// Transparenzregister“ asks § 3 GwG, not what the register is). Matches
/// stay as they are when none lies inside the asked words (a translation's
/// term, a frame the question words differently).
pub fn keep_asked_terms(defined: &mut Vec<HeadingMatch>, asked: &[String]) {
    let inside = |m: &HeadingMatch| m.terms.iter().all(|t| asked.contains(t));
    if defined.iter().any(inside) {
        defined.retain(inside);
    }
}
