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
//!
//! Laws the corpus holds in one language have no parallel text to derive
//! from; their terms come from the [`glossary`] (`lexicon/glossary_de_en.tsv`):
//! the official wording of the other language (an EU act's German text, the
//! BMJ's English translation of a German law), one defined or heading term
//! a line, with its law and norm. The engine analyses it at open and adds
//! the pairs with [`BilingualTerms::with_phrases`].

use paragraf_types::Lang;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const BUILTIN_TSV: &str = include_str!("../lexicon/terms_de_en.tsv");
const GLOSSARY_TSV: &str = include_str!("../lexicon/glossary_de_en.tsv");

/// One line of the glossary (`lexicon/glossary_de_en.tsv`): a term of a law
/// the corpus holds in one language only, with its official wording in the
/// other language (an EU act's German text, the BMJ's English translation of
/// a German law). No parallel text of these laws is in the corpus, so the
/// derived table cannot pair their terms: „wesentliche Einrichtung“ never
/// met NIS2's "essential entity", "trade secret" never the GeschGehG's
/// „Geschäftsgeheimnis“.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlossaryEntry {
    /// Canonical regulation name (as the lexicon's `[[regulation]]`).
    pub law: String,
    /// The norm that defines or heads the term.
    pub norm: String,
    pub de: String,
    pub en: String,
}

/// The glossary shipped with the crate, in file order.
pub fn glossary() -> &'static [GlossaryEntry] {
    static G: OnceLock<Vec<GlossaryEntry>> = OnceLock::new();
    G.get_or_init(|| parse_glossary(GLOSSARY_TSV))
}

/// Parse `law<TAB>norm<TAB>de<TAB>en` lines; `#` starts a comment line,
/// lines with an empty column are skipped.
pub fn parse_glossary(s: &str) -> Vec<GlossaryEntry> {
    s.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').map(str::trim).collect();
            match c.as_slice() {
                [law, norm, de, en, ..] if [law, norm, de, en].iter().all(|x| !x.is_empty()) => {
                    Some(GlossaryEntry {
                        law: law.to_string(),
                        norm: norm.to_string(),
                        de: de.to_string(),
                        en: en.to_string(),
                    })
                }
                _ => None,
            }
        })
        .collect()
}

/// A glossary term pair as the index analyzer reads it: the full words of
/// each side (what a question must hold, compound parts aside) and every
/// term of each side (what the other language's question is given).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PhrasePair {
    pub de_words: Vec<String>,
    pub de_terms: Vec<String>,
    pub en_words: Vec<String>,
    pub en_terms: Vec<String>,
    /// The side that is the translation: the language the corpus does not
    /// hold the law in (German for an EU act held in English).
    pub translation: Option<Lang>,
    /// The law the translation side names ([`BilingualTerms::named_laws`]):
    /// set by the caller, which owns the index, where no text of the
    /// translation's language holds its words in a row ("transparency
    /// register" is the GwG's „Transparenzregister“; "trade secret" names no
    /// law, as the Data Act's English text uses it too).
    pub names_law: Option<GlossaryLaw>,
}

/// The law a glossary term names.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GlossaryLaw {
    /// Canonical regulation name.
    pub law: String,
    /// The term as the glossary writes it in the translation's language.
    pub term: String,
    /// The highest lift of the law-language side's words in the law's text
    /// (`(df_L/n_L)/(df/N)`, as for a law title's word): orders the match
    /// among the laws a title names.
    pub lift: f64,
}

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
    /// The glossary's pairs (`with_phrases`), looked at before the terms.
    phrases: Vec<PhrasePair>,
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

    /// The table with the glossary's analysed pairs added.
    pub fn with_phrases(mut self, phrases: Vec<PhrasePair>) -> BilingualTerms {
        for p in phrases {
            if !p.de_words.is_empty() && !p.en_words.is_empty() && !self.phrases.contains(&p) {
                self.phrases.push(p);
            }
        }
        self
    }

    /// The words of `terms` (language `from`) that make up a glossary term
    /// written in its translation's wording: the question names the other
    /// law's concept with them, one thing, as a compound does
    /// ("transparency register" is the GwG's „Transparenzregister“, not a
    /// "Transparency" heading of an English act).
    pub fn translation_words(&self, terms: &[String], from: Lang) -> Vec<String> {
        self.held_terms(terms, from, true)
    }

    /// The laws that the glossary terms `terms` (language `from`) hold in
    /// their translation's wording name ([`PhrasePair::names_law`]), once
    /// each, in glossary order, with the question's words of the term.
    pub fn named_laws<'a>(
        &'a self,
        terms: &'a [String],
        from: Lang,
    ) -> Vec<(&'a GlossaryLaw, &'a [String])> {
        let mut out: Vec<(&GlossaryLaw, &[String])> = Vec::new();
        for (p, words, _) in self.held_phrases(terms, from) {
            let Some(l) = p.names_law.as_ref().filter(|_| p.translation == Some(from)) else {
                continue;
            };
            if !out.iter().any(|(x, _)| x.law == l.law) {
                out.push((l, words));
            }
        }
        out
    }

    /// The terms that glossary pairs give a question of language `from` in
    /// their translation's wording (the GwG's „Transparenzregister“ →
    /// `transpar regist`): together they name the law's one concept, as the
    /// question's own words of it do ([`BilingualTerms::translation_words`]).
    pub fn translation_terms(&self, terms: &[String], from: Lang) -> Vec<String> {
        self.held_terms(terms, from, false)
    }

    /// Of the glossary pairs `terms` hold: where the question's language
    /// `from` is the translation (`in_translation`), the question's words
    /// of the term; where it is the law's own, the translation's terms it is
    /// given. Deduplicated, in glossary order.
    fn held_terms(&self, terms: &[String], from: Lang, in_translation: bool) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (p, words, other) in self.held_phrases(terms, from) {
            let list = match p.translation {
                Some(t) if (t == from) == in_translation => {
                    if in_translation {
                        words
                    } else {
                        other
                    }
                }
                _ => continue,
            };
            for w in list {
                if !out.contains(w) {
                    out.push(w.clone());
                }
            }
        }
        out
    }

    /// The glossary pairs whose words in language `from` `terms` all hold,
    /// with those words and the other side's terms.
    fn held_phrases<'a>(
        &'a self,
        terms: &'a [String],
        from: Lang,
    ) -> impl Iterator<Item = (&'a PhrasePair, &'a [String], &'a [String])> + 'a {
        self.phrases.iter().filter_map(move |p| {
            let (words, other) = match from {
                Lang::De => (&p.de_words, &p.en_terms),
                Lang::En => (&p.en_words, &p.de_terms),
            };
            words.iter().all(|w| terms.contains(w)).then_some((
                p,
                words.as_slice(),
                other.as_slice(),
            ))
        })
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
    /// A glossary pair whose words `terms` all hold comes first, and its
    /// words are not translated one by one: „wesentliche Einrichtung“ is
    /// `essenti entiti`, not also `substanti` (the KI-VO's „wesentliche
    /// Änderung“).
    pub fn translate(&self, terms: &[String], from: Lang) -> Vec<String> {
        let map = match from {
            Lang::De => &self.de_en,
            Lang::En => &self.en_de,
        };
        let mut out: Vec<String> = Vec::new();
        let mut covered: Vec<&String> = Vec::new();
        for (_, words, other) in self.held_phrases(terms, from) {
            covered.extend(words);
            for x in other {
                if !terms.contains(x) && !out.contains(x) {
                    out.push(x.clone());
                }
            }
        }
        for t in terms {
            if covered.contains(&t) {
                continue;
            }
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

    #[test]
    fn the_glossary_names_a_law_of_the_lexicon_and_a_norm_for_every_term() {
        let g = glossary();
        assert!(g.len() >= 70, "{}", g.len());
        let lex = crate::Lexicon::builtin();
        for e in g {
            assert!(
                lex.regulations.iter().any(|r| r.name == e.law),
                "glossary: {} is no regulation of the lexicon",
                e.law
            );
            assert!(
                e.norm.starts_with("Art. ")
                    || e.norm.starts_with("§ ")
                    || e.norm.starts_with("Anhang "),
                "{e:?}"
            );
        }
        let parsed = parse_glossary(
            "# c\nNIS2\tArt. 3\twesentliche Einrichtung\tessential entity\nCRA\t\tx\ty\nbad\n",
        );
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0].en, "essential entity");
    }

    #[test]
    fn a_glossary_pair_translates_when_every_word_is_there_and_covers_its_words() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let t = BilingualTerms::from_tsv("wesent\tsubstanti\nfrist\tdeadlin\n").with_phrases(vec![
            PhrasePair {
                de_words: v(&["wesent", "einricht"]),
                de_terms: v(&["wesent", "einricht"]),
                en_words: v(&["essenti", "entiti"]),
                en_terms: v(&["essenti", "entiti"]),
                translation: Some(Lang::De),
                names_law: None,
            },
        ]);
        assert_eq!(
            t.translate(&v(&["wesent", "einricht", "frist"]), Lang::De),
            v(&["essenti", "entiti", "deadlin"])
        );
        assert_eq!(
            t.translate(&v(&["wesent", "anderung"]), Lang::De),
            v(&["substanti"])
        );
        assert_eq!(
            t.translate(&v(&["essenti", "entiti"]), Lang::En),
            v(&["wesent", "einricht"])
        );
        assert!(t.translate(&v(&["essenti"]), Lang::En).is_empty());
        // the German words are NIS2's translation, the English its own
        assert_eq!(
            t.translation_words(&v(&["was", "wesent", "einricht"]), Lang::De),
            v(&["wesent", "einricht"])
        );
        assert!(t
            .translation_words(&v(&["essenti", "entiti"]), Lang::En)
            .is_empty());
        assert!(t.translation_words(&v(&["wesent"]), Lang::De).is_empty());
        // the English words are given to a German question in NIS2's own
        // wording, not in its translation's
        assert!(t
            .translation_terms(&v(&["wesent", "einricht"]), Lang::De)
            .is_empty());
        let u = BilingualTerms::default().with_phrases(vec![PhrasePair {
            de_words: v(&["transparenzregist"]),
            de_terms: v(&["transparenzregist", "transparenz", "regist"]),
            en_words: v(&["transpar", "regist"]),
            en_terms: v(&["transpar", "regist"]),
            translation: Some(Lang::En),
            names_law: None,
        }]);
        assert_eq!(
            u.translation_terms(&v(&["kost", "transparenzregist"]), Lang::De),
            v(&["transpar", "regist"])
        );
    }

    #[test]
    fn a_glossary_term_names_its_law_only_in_its_translations_wording() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let pair = |de: &[&str], en: &[&str], law: Option<&str>| PhrasePair {
            de_words: v(de),
            de_terms: v(de),
            en_words: v(en),
            en_terms: v(en),
            translation: Some(Lang::En),
            names_law: law.map(|l| GlossaryLaw {
                law: l.into(),
                term: en.join(" "),
                lift: 40.0,
            }),
        };
        let t = BilingualTerms::default().with_phrases(vec![
            pair(&["transparenzregist"], &["transpar", "regist"], Some("GwG")),
            pair(
                &["wirtschaft", "berechtigt"],
                &["benefici", "owner"],
                Some("GwG"),
            ),
            pair(&["geschaftsgeheimnis"], &["trade", "secret"], None),
        ]);
        let laws = |q: &[&str], lang: Lang| -> Vec<(String, Vec<String>)> {
            t.named_laws(&v(q), lang)
                .into_iter()
                .map(|(l, w)| (l.law.clone(), w.to_vec()))
                .collect()
        };
        // one law once, with the first term's words
        assert_eq!(
            laws(
                &["who", "benefici", "owner", "transpar", "regist"],
                Lang::En
            ),
            [("GwG".to_string(), v(&["transpar", "regist"]))]
        );
        assert!(laws(&["transpar", "oblig"], Lang::En).is_empty());
        assert!(laws(&["trade", "secret"], Lang::En).is_empty());
        assert!(laws(&["transparenzregist"], Lang::De).is_empty());
    }
}
