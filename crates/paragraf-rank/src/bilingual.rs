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
//! Terms are the index analyzer's output (stemmed, folded). No hand entries.

use paragraf_types::Lang;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const BUILTIN_TSV: &str = include_str!("../lexicon/terms_de_en.tsv");

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
