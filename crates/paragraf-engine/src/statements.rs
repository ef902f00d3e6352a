//! Norms whose text states a consequence their heading does not name.
//!
//! A consequence question („Wer haftet bei NIS-2-Verstößen?“) is answered
//! by the named law's norm headed so (`[[consequence_kind]] headings`:
//! „Haftung“, "Penalties"), else by the section so headed. Some laws state a
//! consequence only in the text of the norm that imposes the duty: § 38
//! BSIG, headed as the management's duties, says „Geschäftsleitungen, die
//! ihre Pflichten … verletzen, haften ihrer Einrichtung …“; Art. 20 NIS2,
//! headed "Governance", says the management bodies "can be held liable".
//! For such a law the first norm (in the law's order) whose text says so
//! (`[[consequence_kind]] statements`) answers, and the explanation quotes
//! its sentence.
//!
//! A German question about an EU directive („Wer haftet bei
//! NIS-2-Verstößen?“) asks after the German law that transposes it
//! ([`transposing_laws`]): the directive binds the member states, the
//! German law binds whoever breaks the duty. A German law that states
//! which directives it transposes („Dieses Gesetz dient der Umsetzung der
//! im Folgenden genannten Richtlinien …“, § 1 ProdSG) transposes those
//! only ([`DeclaredTranspositions`]): the ProdSG lists the low-voltage and
//! the machinery directive, not the radio equipment directive.

use crate::gate::split_sentences;
use paragraf_corpus::Manifest;
use paragraf_rank::lexicon::ConsequenceKind;
use paragraf_rank::{question_tokens, text_key, HeadingMatch, Lexicon};
use paragraf_types::Chunk;
use paragraf_types::Jurisdiction;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Per (consequence kind id, law): the first norm of the law whose text
/// states that kind of consequence, as a match quoting the sentence.
#[derive(Debug, Clone, Default)]
pub(crate) struct ConsequenceStatements(BTreeMap<(String, String), HeadingMatch>);

impl ConsequenceStatements {
    /// Scan the binding chunks, in index order (a law's norms in its own
    /// order), for every kind that has `statements`.
    pub(crate) fn of(chunks: &[Chunk], kinds: &[ConsequenceKind]) -> ConsequenceStatements {
        let kinds: Vec<&ConsequenceKind> =
            kinds.iter().filter(|k| !k.statements.is_empty()).collect();
        if kinds.is_empty() {
            return ConsequenceStatements::default();
        }
        let found: Vec<Vec<(usize, HeadingMatch)>> = chunks
            .par_iter()
            .map(|c| {
                if !c.source_class.is_binding() {
                    return Vec::new();
                }
                let key = text_key(&c.text);
                kinds
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| k.statements.iter().any(|p| p.may_match(&key)))
                    .filter_map(|(i, k)| stated_in(c, k).map(|m| (i, m)))
                    .collect()
            })
            .collect();
        let mut table = BTreeMap::new();
        for (c, hits) in chunks.iter().zip(found) {
            for (i, m) in hits {
                table
                    .entry((kinds[i].id.clone(), c.regulation.clone()))
                    .or_insert(m);
            }
        }
        ConsequenceStatements(table)
    }

    /// The norm of `law` whose text states consequences of `kind`.
    pub(crate) fn get(&self, law: &str, kind: &ConsequenceKind) -> Option<&HeadingMatch> {
        self.0.get(&(kind.id.clone(), law.to_string()))
    }
}

/// How a German law opens the statement of the directives it transposes
/// („Dieses Gesetz dient der Umsetzung der im Folgenden genannten
/// Richtlinien …“); the act numbers after it in the same chunk are its list.
const TRANSPOSES: &str = "dient der Umsetzung";

/// Per German law whose text states the directives it transposes, the act
/// numbers it lists („2014/35“ for „Richtlinie 2014/35/EU“, „2023/988“ for
/// „Verordnung (EU) 2023/988“).
#[derive(Debug, Clone, Default)]
pub(crate) struct DeclaredTranspositions(BTreeMap<String, BTreeSet<String>>);

impl DeclaredTranspositions {
    /// Scan the German chunks for [`TRANSPOSES`] and the act numbers that
    /// follow it in the chunk.
    pub(crate) fn of(chunks: &[Chunk]) -> DeclaredTranspositions {
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for c in chunks.iter().filter(|c| c.jurisdiction == Jurisdiction::De) {
            if let Some(i) = c.text.find(TRANSPOSES) {
                let numbers = paragraf_corpus::act_numbers(&c.text[i..]);
                if !numbers.is_empty() {
                    out.entry(c.regulation.clone()).or_default().extend(numbers);
                }
            }
        }
        DeclaredTranspositions(out)
    }

    /// Whether `law` states the directives it transposes and the directive
    /// with `numbers` is none of them.
    fn excludes(&self, law: &str, numbers: &[String]) -> bool {
        self.0
            .get(law)
            .is_some_and(|listed| !numbers.iter().any(|n| listed.contains(n)))
    }
}

/// The German laws that transpose the EU directives among `laws`: the
/// in-force German laws of a directive's regime (NIS2 → BSIG), but not a
/// law that lists the directives it transposes without this one
/// (`declared`). A directive is a law the manifest titles „Richtlinie …“;
/// a regulation (the DSGVO) applies itself and brings none.
pub(crate) fn transposing_laws(
    manifest: &Manifest,
    lexicon: &Lexicon,
    declared: &DeclaredTranspositions,
    laws: &[String],
) -> Vec<String> {
    let is_directive = |law: &str| {
        manifest
            .regulation(law)
            .is_some_and(|r| r.title.starts_with("Richtlinie"))
    };
    let mut out: Vec<String> = Vec::new();
    for law in laws.iter().filter(|l| is_directive(l)) {
        let regime = lexicon.regime_of(law);
        let numbers = manifest
            .regulation(law)
            .map(|r| r.act_numbers.as_slice())
            .unwrap_or_default();
        for r in &lexicon.regulations {
            let german = r.jurisdiction == Jurisdiction::De && !r.historical;
            let listed_elsewhere = declared.excludes(&r.name, numbers);
            if german
                && r.regime == regime
                && !listed_elsewhere
                && !laws.contains(&r.name)
                && !out.contains(&r.name)
            {
                out.push(r.name.clone());
            }
        }
    }
    out
}

/// Words that negate the clause they stand in (folded): „Haften
/// Diensteanbieter … nicht, so …“ (§ 7 DDG) and „trägt weder die
/// Verantwortung noch haftet er“ (§ 27 TKG) exempt from liability; „Kommt
/// der weitere Auftragsverarbeiter … nicht nach, so haftet …“ (Art. 28
/// DSGVO) negates the condition, not the liability.
const NEGATIONS: &[&str] = &[
    "nicht", "weder", "kein", "keine", "keinen", "keiner", "keinem", "keines", "not", "neither",
    "nor", "never",
];

/// The first sentence of the chunk that states `kind`, as a match: a
/// clause of it (between commas, semicolons and colons) holds a statement
/// and no negation.
fn stated_in(c: &Chunk, kind: &ConsequenceKind) -> Option<HeadingMatch> {
    split_sentences(&c.text).into_iter().find_map(|sentence| {
        let p = sentence.split([',', ';', ':']).find_map(|clause| {
            let toks = question_tokens(clause);
            let negated = toks.iter().any(|t| NEGATIONS.contains(&t.as_str()));
            let p = kind.statements.iter().find(|p| p.matches(&toks))?;
            (!negated).then_some(p)
        })?;
        Some(HeadingMatch {
            norm: c.norm_ref(),
            heading: format!("Satz „{}“", sentence.trim()),
            terms: vec![p.source.clone()],
            coverage: 1.0,
            weight: 0.0,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::{transposing_laws, ConsequenceStatements, DeclaredTranspositions};
    use paragraf_rank::testing::chunk;
    use paragraf_rank::Lexicon;
    use paragraf_types::{Lang, SourceClass, SourceRole};

    /// A law with no liability heading answers with the first norm whose
    /// text states the liability by its verb; the noun ("the liability of
    /// providers of intermediary services") and "liable to a fine" state
    /// none, nor does a recital.
    #[test]
    fn the_norm_whose_text_states_the_liability_answers() {
        let en = |law: &str, norm: &str, title: &str, text: &str| {
            chunk(law, norm)
                .lang(Lang::En)
                .title(title)
                .text(text)
                .build()
        };
        let chunks = vec![
            chunk("BSIG", "§ 38")
                .title("Umsetzungs-, Überwachungs- und Schulungspflicht für Geschäftsleitungen")
                .text("(1) Geschäftsleitungen sind verpflichtet, die Maßnahmen nach § 30 Abs. 1 zu billigen.\n\n(2) Geschäftsleitungen, die ihre Pflichten nach Absatz 1 verletzen, haften ihrer Einrichtung für einen schuldhaft verursachten Schaden.")
                .build(),
            chunk("NIS2", "ErwG 137")
                .class(SourceClass::Recital, SourceRole::Obligation)
                .text("Management bodies should be held liable.")
                .build(),
            en("NIS2", "Art. 20", "Governance", "Member States shall ensure that the management bodies approve the measures and can be held liable for infringements."),
            en("NIS2", "Art. 32", "Supervisory measures", "Natural persons can be held liable for breach of their duties."),
            en("KI-VO", "Art. 2", "Scope", "This Regulation shall not affect the liability of providers of intermediary services."),
            en("revDSG", "Art. 62", "Violation of the professional duty of confidentiality", "Any person who wilfully discloses such data shall be liable to a fine."),
            // a negated clause exempts; a negated condition does not
            chunk("DDG", "§ 7")
                .text("(3) Haften Anbieter nach der Verordnung (EU) 2022/2065 nicht, so können sie auch nicht in Anspruch genommen werden.")
                .build(),
            chunk("TKG", "§ 27")
                .text("Der Rechnungsersteller trägt weder die Verantwortung noch haftet er für fremde Leistungen.")
                .build(),
            chunk("TKG", "§ 165")
                .text("Kommt die Geschäftsleitung ihren Pflichten nicht nach, so haftet sie der Einrichtung für den Schaden.")
                .build(),
            en("CSA", "Art. 9", "Tasks", "The provider shall not be liable for the content it transmits."),
        ];
        let lex = Lexicon::builtin();
        let damages = lex
            .consequence_kinds
            .iter()
            .find(|k| k.id == "damages")
            .unwrap();
        let table = ConsequenceStatements::of(&chunks, &lex.consequence_kinds);
        let norm = |law: &str| table.get(law, damages).map(|m| m.norm.0.clone());
        assert_eq!(norm("BSIG").as_deref(), Some("§ 38 BSIG"));
        assert_eq!(norm("NIS2").as_deref(), Some("Art. 20 NIS2"));
        assert_eq!(norm("KI-VO"), None);
        assert_eq!(norm("revDSG"), None);
        assert_eq!(norm("DDG"), None);
        assert_eq!(norm("TKG").as_deref(), Some("§ 165 TKG"));
        assert_eq!(norm("CSA"), None);
        let quoted = &table.get("BSIG", damages).unwrap().heading;
        assert!(
            quoted.starts_with("Satz „(2) Geschäftsleitungen, die"),
            "{quoted}"
        );
    }

    /// A directive brings the German laws of its regime, a regulation none.
    #[test]
    fn a_directive_brings_the_german_law_that_transposes_it() {
        let manifest = paragraf_corpus::Manifest::builtin().unwrap();
        let lex = Lexicon::builtin();
        let none = DeclaredTranspositions::default();
        let of = |law: &str| transposing_laws(&manifest, lex, &none, &[law.to_string()]);
        assert_eq!(of("NIS2"), ["BSIG", "BSI-KritisV"]);
        assert_eq!(of("JI-RL"), ["BDSG"]);
        assert_eq!(of("PLD"), ["ProdHaftG"]);
        assert!(of("DSGVO").is_empty());
        assert!(of("BSIG").is_empty());
        // a law the question names itself is not brought again
        let both = transposing_laws(&manifest, lex, &none, &["NIS2".into(), "BSIG".into()]);
        assert_eq!(both, ["BSI-KritisV"]);
    }

    /// A German law that lists the directives it transposes (§ 1 ProdSG:
    /// „Dieses Gesetz dient der Umsetzung der im Folgenden genannten
    /// Richtlinien …“) transposes those only: a German question about the
    /// radio equipment directive does not ask after the ProdSG.
    #[test]
    fn a_law_that_lists_its_directives_transposes_those_only() {
        let manifest = paragraf_corpus::Manifest::builtin().unwrap();
        let lex = Lexicon::builtin();
        // (Chunk::new: a German law)
        let c = paragraf_types::Chunk::new(
            "ProdSG",
            "§ 1",
            "(1) Dieses Gesetz dient der Umsetzung der im Folgenden genannten Richtlinien: \
             1. Richtlinie 2014/35/EU (Niederspannung), 2. Richtlinie 2006/42/EG (Maschinen), \
             3. Verordnung (EU) 2023/988."
                .into(),
            paragraf_types::Lang::De,
            "prodsg.xml",
        );
        let declared = DeclaredTranspositions::of(&[c]);
        let brings_prodsg = |declared: &DeclaredTranspositions| {
            transposing_laws(&manifest, lex, declared, &["RED".into()]).contains(&"ProdSG".into())
        };
        // the regime alone brought the ProdSG for the RED; its list does not
        assert!(brings_prodsg(&DeclaredTranspositions::default()));
        assert!(!brings_prodsg(&declared));
        // a law that lists nothing keeps the regime's rule
        assert_eq!(
            transposing_laws(&manifest, lex, &declared, &["NIS2".into()]),
            ["BSIG", "BSI-KritisV"]
        );
    }
}
