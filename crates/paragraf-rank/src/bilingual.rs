//! The bilingual term table: German ↔ English analysed terms of the same
//! legal concept („Verletzung des Schutzes“ ↔ “breach”), so a German question
//! reaches English-only norms (CRA, NIS2, …) and an English question German
//! norms (BDSG, TDDDG, …).
//!
//! The table is data (`lexicon/terms_de_en.tsv`), derived from the corpus's
//! own parallel texts — the German and English versions of the same norms
//! (DSGVO, KI-VO), aligned paragraph by paragraph — by
//! `paragraf index terms` (`paragraf_engine::lawwords`): Dice coefficient of
//! co-occurrence over aligned units, kept where each term is the other's
//! best partner; then the one word two parallel headings leave unpaired
//! (`heading_pairs`: „Einführer“ ↔ “importers”, „Verzeichnis“ ↔ “record”).
//! Terms are the index analyzer's output (stemmed, folded). No hand entries
//! in the table; the one exception is [`STEM_COLLISIONS_DE_EN`], for a
//! German word the stemmer merges with others before any table can see it.

use paragraf_types::Lang;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const BUILTIN_TSV: &str = include_str!("../lexicon/terms_de_en.tsv");

/// German words whose stem collides with other words', with the English
/// words of their concept: the caller looks for the German part inside the
/// question's (folded, lower-case) words and adds the English words through
/// the English analyzer. Snowball drops the derivational „-heit“, so
/// „Sicherheit“, „sicher“ and „sicherstellen“ are all `sich`, and the
/// derived table can pair `sich` with one English term only (`ensur`, from
/// „sicherstellen“ ↔ “ensure”): a German question about IT security,
/// product safety, a „Sicherheitslücke“ never reached an English act's
/// “security” or “safety” (the DSGVO's pair: „Sicherheit der
/// Verarbeitung“ ↔ “Security of processing”; the KI-VO's: „Gesundheit,
/// Sicherheit“ ↔ “health, safety”). Session 19,
/// `eval/baselines/retrieval-domain-signals-2026-12-03.md`.
pub const STEM_COLLISIONS_DE_EN: &[(&str, &[&str])] = &[("sicherheit", &["security", "safety"])];

/// The English words of [`STEM_COLLISIONS_DE_EN`] for German question words
/// (folded, lower case) that hold a listed part, once each, in table order.
pub fn stem_collision_words<'a>(words: impl IntoIterator<Item = &'a str>) -> Vec<&'static str> {
    let words: Vec<&str> = words.into_iter().collect();
    let mut out: Vec<&'static str> = Vec::new();
    for (de, en) in STEM_COLLISIONS_DE_EN {
        if words.iter().any(|w| w.contains(de)) {
            for e in *en {
                if !out.contains(e) {
                    out.push(e);
                }
            }
        }
    }
    out
}

/// German ↔ English analysed terms.
#[derive(Debug, Clone, Default)]
pub struct BilingualTerms {
    de_en: BTreeMap<String, Vec<String>>,
    en_de: BTreeMap<String, Vec<String>>,
}

impl BilingualTerms {
    /// The table shipped with the crate.
    pub fn builtin() -> &'static BilingualTerms {
        static T: OnceLock<BilingualTerms> = OnceLock::new();
        T.get_or_init(|| BilingualTerms::from_tsv(BUILTIN_TSV))
    }

    /// Parse `de<TAB>en[<TAB>…]` lines; `#` starts a comment line, extra
    /// columns (statistics) are ignored, malformed lines are skipped.
    pub fn from_tsv(s: &str) -> BilingualTerms {
        let mut t = BilingualTerms::default();
        for line in s.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut cols = line.split('\t');
            let (Some(de), Some(en)) = (cols.next(), cols.next()) else {
                continue;
            };
            let (de, en) = (de.trim(), en.trim());
            if de.is_empty() || en.is_empty() {
                continue;
            }
            t.de_en.entry(de.into()).or_default().push(en.into());
            t.en_de.entry(en.into()).or_default().push(de.into());
        }
        t
    }

    /// Number of term pairs.
    pub fn len(&self) -> usize {
        self.de_en.values().map(Vec::len).sum()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.de_en.is_empty()
    }

    /// Terms of the other language for analysed `terms` of language `from`,
    /// deduplicated, in first-occurrence order, without terms already given.
    pub fn translate(&self, terms: &[String], from: Lang) -> Vec<String> {
        let map = match from {
            Lang::De => &self.de_en,
            Lang::En => &self.en_de,
        };
        let mut out: Vec<String> = Vec::new();
        for t in terms {
            for x in map.get(t).map(Vec::as_slice).unwrap_or(&[]) {
                if !terms.contains(x) && !out.contains(x) {
                    out.push(x.clone());
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_security_word_reaches_security_and_safety_and_ensuring_does_not() {
        assert_eq!(
            stem_collision_words(["welche", "sicherheitsanforderungen", "gelten"]),
            vec!["security", "safety"]
        );
        assert_eq!(
            stem_collision_words(["datensicherheit", "it", "sicherheit"]),
            vec!["security", "safety"]
        );
        assert!(stem_collision_words(["wie", "stelle", "ich", "sicher"]).is_empty());
        assert!(stem_collision_words(["sichergestellt"]).is_empty());
    }

    #[test]
    fn parses_and_translates_both_ways() {
        let t = BilingualTerms::from_tsv(
            "# comment\nverletzung\tbreach\t12\t0.8\nmeldung\tnotif\nbad line\n",
        );
        assert_eq!(t.len(), 2);
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(t.translate(&v(&["meldung", "x"]), Lang::De), v(&["notif"]));
        assert_eq!(t.translate(&v(&["breach"]), Lang::En), v(&["verletzung"]));
        assert!(t.translate(&v(&["breach"]), Lang::De).is_empty());
    }
}
