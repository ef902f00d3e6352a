//! Abbreviations of terms of art (`lexicon/abbreviations.tsv`): practice
//! writes "DPIA", „DSFA“, „AV-Vertrag“ where the law writes the term out
//! („Datenschutz-Folgenabschätzung“, Art. 35 DSGVO). A question that holds
//! one is also searched with the law's words for it (the query pass
//! `abbreviations`, kept with hand topics off: they are the law's words,
//! not a routing to norms), so the heading and the defined term that hold
//! those words can answer it.

use paragraf_types::Lang;
use std::sync::OnceLock;

const ABBREVIATIONS_TSV: &str = include_str!("../lexicon/abbreviations.tsv");

/// One line of the table: an abbreviation and the law's words for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Abbreviation {
    /// Canonical regulation name (as the lexicon's `[[regulation]]`).
    pub law: String,
    /// The norm whose heading or definition holds `words`.
    pub norm: String,
    /// The abbreviation as practice writes it, capitals included.
    pub short: String,
    /// The language of `words`.
    pub lang: Lang,
    /// The law's words for the abbreviated term.
    pub words: String,
}

impl Abbreviation {
    /// Whether the question word `word`, as written, is this abbreviation
    /// or its plural ("DPIAs", "TOMs"). Capitals count: "wE" is not "we".
    pub fn is_written_as(&self, word: &str) -> bool {
        word == self.short || word.strip_suffix('s') == Some(self.short.as_str())
    }
}

/// The table shipped with the crate, in file order.
pub fn abbreviations() -> &'static [Abbreviation] {
    static A: OnceLock<Vec<Abbreviation>> = OnceLock::new();
    A.get_or_init(|| parse_abbreviations(ABBREVIATIONS_TSV))
}

/// Parse `law<TAB>norm<TAB>abbreviation<TAB>lang<TAB>words` lines; `#`
/// starts a comment line; a line with an empty column or a language other
/// than `de` / `en` is skipped (the table's test holds every line to both).
pub fn parse_abbreviations(s: &str) -> Vec<Abbreviation> {
    s.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').map(str::trim).collect();
            let [law, norm, short, lang, words] = c.as_slice() else {
                return None;
            };
            let lang = match *lang {
                "de" => Lang::De,
                "en" => Lang::En,
                _ => return None,
            };
            if [law, norm, short, words].iter().any(|x| x.is_empty()) {
                return None;
            }
            Some(Abbreviation {
                law: law.to_string(),
                norm: norm.to_string(),
                short: short.to_string(),
                lang,
                words: words.to_string(),
            })
        })
        .collect()
}

/// The words of `query` as written: runs of letters and digits, so that
/// „AV-Vertrag“ gives "AV" and "Vertrag", "(DSFA)" gives "DSFA".
pub fn written_words(query: &str) -> impl Iterator<Item = &str> {
    query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// The lines of `table` whose abbreviation `query` holds, in table order.
pub fn abbreviations_in<'t>(query: &str, table: &'t [Abbreviation]) -> Vec<&'t Abbreviation> {
    let words: Vec<&str> = written_words(query).collect();
    table
        .iter()
        .filter(|a| words.iter().any(|w| a.is_written_as(w)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::Lexicon;

    #[test]
    fn every_line_names_a_law_of_the_lexicon_and_a_norm() {
        let lex = Lexicon::builtin();
        let table = abbreviations();
        let lines = ABBREVIATIONS_TSV
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(table.len(), lines, "every line parses");
        for a in table {
            assert!(lex.regulation(&a.law).is_some(), "{a:?}: unknown law");
            assert!(
                a.norm.starts_with("Art. ")
                    || a.norm.starts_with("§ ")
                    || a.norm.starts_with("Anhang "),
                "{a:?}: norm"
            );
            assert!(a.short.chars().any(char::is_uppercase), "{a:?}: as written");
        }
    }

    #[test]
    fn an_abbreviation_counts_as_written_with_its_plural_and_inside_a_compound() {
        let table = abbreviations();
        let found = |q: &str| -> Vec<String> {
            abbreviations_in(q, table)
                .iter()
                .map(|a| a.words.clone())
                .collect()
        };
        assert_eq!(
            found("Brauchen wir für die neue App eine DSFA?"),
            ["Datenschutz-Folgenabschätzung"]
        );
        assert_eq!(
            found("Who signs off our DPIAs?"),
            ["data protection impact assessment"]
        );
        // a compound with a hyphen holds the abbreviation as a word
        assert_eq!(
            found("Muss der AV-Vertrag schriftlich sein?"),
            ["Auftragsverarbeiter"]
        );
        // capitals count: the English "we" is not the BSIG's „wE“
        assert!(found("Do we need to keep records?").is_empty());
        assert_eq!(
            found("Sind wir eine wE oder eine bwE?"),
            ["besonders wichtige Einrichtung", "wichtige Einrichtung"]
        );
        // a word that only starts like one is not it
        assert!(found("Was gilt für DSFAen und TOMATEN?").is_empty());
    }
}
