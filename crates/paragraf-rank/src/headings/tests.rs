//! Tests of `headings`.

use super::*;

#[test]
fn law_title_variants_name_the_subject_not_the_instrument() {
    // long title with short title and abbreviation in parentheses
    let v = law_title_variants(
        "Gesetz zur Förderung der Teilhabe von Pflegekräften (Pflegeteilhabegesetz - PflTG)",
    );
    assert_eq!(
        v,
        vec![
            "zur Förderung der Teilhabe von Pflegekräften",
            "Pflegeteilhabegesetz",
            "PflTG",
            "Pflegeteilhabe"
        ]
    );
    // a short title alone gives itself and its subject; an ordinance too
    assert_eq!(
        law_title_variants("Seilbahngesetz"),
        vec!["Seilbahngesetz", "Seilbahn"]
    );
    assert_eq!(
        law_title_variants("Hafenordnung"),
        vec!["Hafenordnung", "Hafen"]
    );
    // a long title listing many subjects names none of them on its own
    let long = law_title_variants(
            "Gesetz über Maßnahmen zur Sicherheit und zum Schutz der Gesundheit der Beschäftigten bei der Arbeit",
        );
    assert!(long.is_empty(), "{long:?}");
    // two subjects are still a name
    assert_eq!(
        law_title_variants("Gesetz über Wasserwege und Schleusen"),
        vec!["über Wasserwege und Schleusen"]
    );
}

fn laws() -> LawTitleTable {
    let w = |terms: &[&str]| terms.iter().map(|t| vec![t.to_string()]).collect();
    LawTitleTable::new(
        vec![
            (
                "SeilbG".to_string(),
                "Seilbahn".to_string(),
                w(&["seilbahn"]),
            ),
            (
                "SeilbV".to_string(),
                "Seilbahn".to_string(),
                w(&["seilbahn"]),
            ),
            ("HafO".to_string(), "Hafen".to_string(), w(&["haf"])),
            ("DatG".to_string(), "Daten".to_string(), w(&["dat"])),
        ],
        ["SeilbV".to_string()].into_iter().collect(),
    )
}

/// (lift, df_L) per law: what the engine reads from its index.
fn lift(term: &str, laws: &[&str]) -> Vec<(f64, u32)> {
    laws.iter()
        .map(|l| match (term, *l) {
            ("seilbahn", "SeilbG") => (80.0, 12),
            ("seilbahn", "SeilbV") => (120.0, 9),
            ("haf", "HafO") => (45.0, 1),
            ("dat", "DatG") => (3.0, 40),
            _ => (0.0, 0),
        })
        .collect()
}

#[test]
fn a_law_fires_on_a_title_word_its_own_text_is_about() {
    let p = RankParams::default();
    // the statute fires; its ordinance (higher lift) stays below it
    let m = laws().matches(&qt(&["seilbahn", "betrieb"]), &lift, &p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!((m[0].regulation.as_str(), m[0].lift), ("SeilbG", 80.0));
    assert_eq!(m[0].terms, vec!["seilbahn"]);
    // alone, the ordinance fires
    let only_v = LawTitleTable::new(
        vec![(
            "SeilbV".to_string(),
            "Seilbahn".to_string(),
            vec![vec!["seilbahn".to_string()]],
        )],
        ["SeilbV".to_string()].into_iter().collect(),
    );
    assert_eq!(
        only_v.matches(&qt(&["seilbahn"]), &lift, &p)[0].regulation,
        "SeilbV"
    );
    // a word every law uses does not name a law; a word the law's text
    // holds once is not what it is about
    assert!(laws().matches(&qt(&["dat"]), &lift, &p).is_empty());
    assert!(laws().matches(&qt(&["haf"]), &lift, &p).is_empty());
    // a compound part of the question counts like a word
    let q = QueryTerms {
        full: vec!["seilbahnunfall".into()],
        parts: vec!["seilbahn".into(), "unfall".into()],
        lang: None,
    };
    assert_eq!(laws().matches(&q, &lift, &p)[0].regulation, "SeilbG");
    // lawTitleMaxLaws = 0 switches the signal off
    let off = RankParams {
        law_title_max_laws: 0,
        ..RankParams::default()
    };
    assert!(laws().matches(&qt(&["seilbahn"]), &lift, &off).is_empty());
}

/// A heading whose words are single terms (no compound parts).
fn h(norm: &str, text: &str, terms: &[&str]) -> Heading {
    Heading {
        norm: NormRef(norm.into()),
        lang: Lang::De,
        text: text.into(),
        words: terms.iter().map(|s| vec![s.to_string()]).collect(),
    }
}

fn qt(full: &[&str]) -> QueryTerms {
    QueryTerms {
        full: full.iter().map(|s| s.to_string()).collect(),
        ..QueryTerms::default()
    }
}

fn table() -> HeadingTable {
    HeadingTable::new(vec![
            h("Art. 4 DSGVO", "Begriffsbestimmungen", &["begriffsbestimm"]),
            h("Art. 3 CRA", "Begriffsbestimmungen", &["begriffsbestimm"]),
            h("Art. 3 NIS2", "Definitions", &["definit"]),
            h(
                "Art. 33 DSGVO",
                "Meldung von Verletzungen des Schutzes personenbezogener Daten an die Aufsichtsbehörde",
                &["meldung", "verletzung", "schutz", "personenbezog", "dat", "aufsichtsbehord"],
            ),
            h(
                "Art. 34 DSGVO",
                "Benachrichtigung der von einer Verletzung des Schutzes personenbezogener Daten betroffenen Person",
                &["benachricht", "verletzung", "schutz", "personenbezog", "dat", "betroff", "person"],
            ),
            h("§ 5 BDSG", "Benennung", &["benenn"]),
            h("Art. 37 DSGVO", "Benennung eines Datenschutzbeauftragten", &["benenn", "datenschutzbeauftragt", "datenschutz", "beauftragt"]),
            h("§ 257 HGB", "Aufbewahrung von Unterlagen. Aufbewahrungsfristen", &["aufbewahr", "unterlag", "aufbewahrungsfrist", "frist"]),
            h("Art. 1 DSGVO", "Gegenstand und Ziele", &["gegenstand", "ziel"]),
            h("Art. 1 CRA", "Gegenstand", &["gegenstand"]),
        ])
}

/// The norms `intent` finds in `t` for the laws `regs` (every match with
/// coverage 1).
fn intent_norms(
    t: &HeadingTable,
    intent: &crate::lexicon::HeadingIntent,
    regs: &[&str],
    first_norms: Option<usize>,
) -> Vec<String> {
    let regs: Vec<String> = regs.iter().map(|r| r.to_string()).collect();
    t.intent_matches(
        &regs,
        &intent.headings,
        &intent.fallback_headings,
        first_norms,
    )
    .into_iter()
    .map(|m| {
        assert_eq!(m.coverage, 1.0);
        m.norm.0
    })
    .collect()
}

#[test]
fn a_law_answers_when_it_applies_with_its_own_heading() {
    let lex = crate::lexicon::Lexicon::builtin();
    let app = &lex.application_intent;
    let t = HeadingTable::new(vec![
        h(
            "Art. 12 XVO",
            "Pflichten der Einführer",
            &["pflicht", "einfuhr"],
        ),
        h(
            "Art. 70 XVO",
            "Übergangsbestimmungen",
            &["ubergangsbestimm"],
        ),
        h(
            "Art. 71 XVO",
            "Inkrafttreten und Geltungsbeginn",
            &["inkrafttret", "geltungsbeginn"],
        ),
        h("Art. 30 YRL", "Transposition", &["transposit"]),
        h("Art. 31 YRL", "Entry into force", &["entri", "forc"]),
        h("§ 40 ZG", "Übergangsregelung", &["ubergangsregel"]),
        h("§ 41 ZG", "Außerkrafttreten", &["ausserkrafttret"]),
    ]);
    let norms = |regs: &[&str]| intent_norms(&t, app, regs, None);
    // entry into force and application; transposition and entry into
    // force of a directive; only the named law's norms
    assert_eq!(norms(&["XVO"]), vec!["Art. 71 XVO"]);
    assert_eq!(norms(&["YRL"]), vec!["Art. 30 YRL", "Art. 31 YRL"]);
    // a law without such a heading: its transitional provisions (never
    // its repeal)
    assert_eq!(norms(&["ZG"]), vec!["§ 40 ZG"]);
    assert!(norms(&[]).is_empty());
}

#[test]
fn a_law_states_whom_it_covers_up_front() {
    let lex = crate::lexicon::Lexicon::builtin();
    let scope = &lex.scope_intent;
    let t = HeadingTable::new(vec![
        h(
            "Art. 34 XRL",
            "Supervision of important entities",
            &["supervis", "import", "entiti"],
        ),
        h(
            "Art. 3 XRL",
            "Essential and important entities",
            &["essenti", "import", "entiti"],
        ),
        h("Art. 2 XRL", "Scope", &["scope"]),
        h(
            "§ 2 ZG",
            "Sachlicher Anwendungsbereich",
            &["sachlich", "anwendungsbereich"],
        ),
        h(
            "§ 9 ZG",
            "Pflichten der Verpflichteten",
            &["pflicht", "verpflicht"],
        ),
    ]);
    let norms = |regs: &[&str], k: Option<usize>| intent_norms(&t, scope, regs, k);
    // the lowest-numbered scope headings, never a later norm that
    // shares their words
    assert_eq!(
        norms(&["XRL"], Some(crate::constants::SCOPE_NORMS_PER_LAW)),
        vec!["Art. 2 XRL", "Art. 3 XRL"]
    );
    assert_eq!(norms(&["XRL"], None).len(), 3);
    assert_eq!(norms(&["ZG"], Some(2)), vec!["§ 2 ZG", "§ 9 ZG"]);
}

/// Thresholds scaled to a ten-heading table (the defaults assume thousands).
fn small_table_params(min_weight: f64) -> RankParams {
    RankParams {
        heading_min_coverage: 0.5,
        heading_min_weight: min_weight,
        ..RankParams::default()
    }
}

fn q(terms: &[&str]) -> Vec<String> {
    terms.iter().map(|s| s.to_string()).collect()
}

#[test]
fn strong_heading_match_names_the_norm() {
    let p = small_table_params(3.0);
    // "An wen melde ich eine Datenschutzverletzung? Aufsichtsbehörde?"
    let m = table().matches(
        &qt(&[
            "meld",
            "meldung",
            "verletzung",
            "aufsichtsbehord",
            "datenschutz",
        ]),
        &p,
    );
    assert_eq!(m[0].norm.as_str(), "Art. 33 DSGVO", "{m:?}");
    // "Wie lange müssen Unterlagen aufbewahrt werden?"
    let m = table().matches(&qt(&["lang", "unterlag", "aufbewahr"]), &p);
    assert_eq!(m[0].norm.as_str(), "§ 257 HGB", "{m:?}");
}

#[test]
fn one_heading_in_several_laws_fires_in_each() {
    let p = RankParams {
        heading_max_norms: 1,
        ..small_table_params(0.5)
    };
    let t = HeadingTable::new(vec![
        h(
            "Art. 11 GPSR",
            "Obligations of importers",
            &["oblig", "import"],
        ),
        h(
            "Art. 19 CRA",
            "Obligations of importers",
            &["oblig", "import"],
        ),
        h(
            "Art. 13 CRA",
            "Obligations of manufacturers",
            &["oblig", "manufactur"],
        ),
        h(
            "Art. 20 CRA",
            "Obligations of distributors",
            &["oblig", "distributor"],
        ),
        h("Art. 4 CRA", "Free movement", &["free", "movement"]),
    ]);
    // "what must an importer check", "duties of importers"
    for terms in [&["import", "check"][..], &["duti", "import", "oblig"]] {
        let m = t.matches(&qt(terms), &p);
        let norms: Vec<&str> = m.iter().map(|m| m.norm.as_str()).collect();
        assert_eq!(norms, ["Art. 11 GPSR", "Art. 19 CRA"], "{terms:?}: {m:?}");
    }
}

#[test]
fn common_headings_do_not_fire_alone() {
    let p = small_table_params(3.0);
    // a heading word present in several acts is too common to name one norm
    let m = table().matches(&qt(&["gegenstand", "vertrag"]), &p);
    assert!(m.is_empty(), "{m:?}");
    let m = table().matches(&qt(&["begriffsbestimm"]), &p);
    assert!(m.is_empty(), "{m:?}");
}

#[test]
fn partial_cover_of_a_long_heading_is_weak() {
    let p = small_table_params(3.0);
    // one ordinary word of a seven-word heading
    let m = table().matches(&qt(&["person", "auskunft"]), &p);
    assert!(
        m.iter().all(|m| m.norm.as_str() != "Art. 34 DSGVO"),
        "{m:?}"
    );
}

#[test]
fn same_norm_same_terms_kept_once_and_order_is_stable() {
    let t = HeadingTable::new(vec![
        h("§ 5 BDSG", "Benennung", &["benenn"]),
        h("§ 5 BDSG", "Benennung", &["benenn"]),
        h(
            "Art. 37 DSGVO",
            "Benennung eines Datenschutzbeauftragten",
            &["benenn", "datenschutzbeauftragt"],
        ),
    ]);
    assert_eq!(t.len(), 2);
    let p = small_table_params(0.5);
    let a = t.matches(&qt(&["benenn", "datenschutzbeauftragt"]), &p);
    let b = t.matches(&qt(&["datenschutzbeauftragt", "benenn"]), &p);
    assert_eq!(a, b);
    assert_eq!(a[0].norm.as_str(), "Art. 37 DSGVO");
}

/// Five CRA headings: three duties of operators, two about the products.
fn cra_headings() -> Vec<Heading> {
    vec![
        h(
            "Art. 20 CRA",
            "Obligations of distributors",
            &["oblig", "distributor"],
        ),
        h(
            "Art. 6 CRA",
            "Requirements for products with digital elements",
            &["requir", "product", "digit", "element"],
        ),
        h(
            "Art. 8 CRA",
            "Critical products with digital elements",
            &["critic", "product", "digit", "element"],
        ),
        h(
            "Art. 13 CRA",
            "Obligations of manufacturers",
            &["oblig", "manufactur"],
        ),
        h(
            "Art. 19 CRA",
            "Obligations of importers",
            &["oblig", "import"],
        ),
    ]
}

#[test]
fn a_heading_covered_whole_outranks_a_longer_one_covered_in_part() {
    let p = RankParams {
        heading_min_coverage: 0.6,
        heading_min_weight: 0.1,
        ..RankParams::default()
    };
    let t = HeadingTable::new(cra_headings());
    // "what must a distributor of products with digital elements do":
    // the three-word phrase matches more, the distributors' heading whole
    let m = t.matches(
        &qt(&["oblig", "distributor", "product", "digit", "element"]),
        &p,
    );
    assert_eq!(norms(&m), ["Art. 20 CRA", "Art. 6 CRA", "Art. 8 CRA"]);
    assert!(m[0].weight < m[1].weight && m[0].coverage > m[1].coverage);
}

#[test]
fn words_common_in_their_law_do_not_name_one_norm() {
    let p = RankParams {
        heading_min_coverage: 0.6,
        heading_min_weight: 0.1,
        heading_common_credit: 0.5,
        ..RankParams::default()
    };
    let mut headings = cra_headings();
    headings.push(h("Art. 1 XG", "Scope", &["scope"]));
    let mut t = HeadingTable::new(headings);
    // the act's own vocabulary: in most of its norms
    t.mark_common(|h, term| h.norm.is_of("CRA") && ["product", "digit", "element"].contains(&term));
    // "what must an importer of products with digital elements do":
    // the duties of importers, not every heading naming the products
    let m = t.matches(&qt(&["oblig", "import", "product", "digit", "element"]), &p);
    assert_eq!(norms(&m), ["Art. 19 CRA"]);
    // "which products with digital elements count as critical": the
    // heading's own word carries it
    let m = t.matches(&qt(&["critic", "product", "digit", "element"]), &p);
    assert_eq!(norms(&m)[0], "Art. 8 CRA");
    // "requirements a product with digital elements must meet"
    let m = t.matches(&qt(&["requir", "product", "digit", "element"]), &p);
    assert_eq!(norms(&m)[0], "Art. 6 CRA");
    // the common words alone name no norm
    assert!(t
        .matches(&qt(&["product", "digit", "element"]), &p)
        .is_empty());
    // headingCommonCredit 1 = no discount: every heading naming them fires
    let off = RankParams {
        heading_common_credit: 1.0,
        ..p.clone()
    };
    assert_eq!(
        norms(&t.matches(&qt(&["product", "digit", "element"]), &off)).len(),
        2
    );
}

#[test]
fn a_norm_written_in_the_questions_language_is_judged_by_that_heading() {
    let p = RankParams {
        heading_min_coverage: 0.6,
        heading_min_weight: 0.1,
        ..RankParams::default()
    };
    let en = |norm: &str, text: &str, terms: &[&str]| Heading {
        lang: Lang::En,
        ..h(norm, text, terms)
    };
    let t = HeadingTable::new(vec![
        h(
            "Art. 18 DSGVO",
            "Recht auf Einschränkung",
            &["recht", "einschrank"],
        ),
        en(
            "Art. 18 DSGVO",
            "Right to restriction",
            &["right", "restrict"],
        ),
        en("Art. 14 CRA", "Reporting obligations", &["report", "oblig"]),
    ]);
    // a German question whose translations cover the English heading of
    // a norm that also has a German one: the German heading decides
    let q = |full: &[&str], lang| QueryTerms { lang, ..qt(full) };
    let de = q(
        &["recht", "right", "restrict", "report", "oblig"],
        Some(Lang::De),
    );
    assert_eq!(norms(&t.matches(&de, &p)), ["Art. 14 CRA"]);
    // the same terms in an English question: the English heading
    let en_q = q(&["right", "restrict"], Some(Lang::En));
    assert_eq!(norms(&t.matches(&en_q, &p)), ["Art. 18 DSGVO"]);
    // no language given: every heading
    assert_eq!(t.matches(&q(&["right", "restrict"], None), &p).len(), 1);
}

#[test]
fn a_compound_counts_once_and_a_part_earns_half() {
    let p = RankParams {
        heading_min_coverage: 0.6,
        heading_min_weight: 0.1,
        ..RankParams::default()
    };
    let t = HeadingTable::new(vec![
        Heading {
            norm: NormRef("§ 17 ProdSG".into()),
            lang: Lang::De,
            text: "Meldepflichten der notifizierten Stelle".into(),
            words: vec![
                vec!["meldepflicht".into(), "meld".into(), "pflicht".into()],
                vec!["notifiziert".into()],
                vec!["stell".into()],
            ],
        },
        h("Art. 1 X", "Pflicht", &["pflicht"]),
        h("Art. 2 X", "Stelle", &["stell"]),
    ]);
    // the question names the duty to report and holds `stell` only inside
    // a compound (Hersteller): the notified body's heading is not covered
    let q = QueryTerms {
        full: vec!["meldepflicht".into(), "herstell".into()],
        parts: vec!["stell".into()],
        lang: None,
    };
    assert!(t
        .matches(&q, &p)
        .iter()
        .all(|m| m.norm.as_str() != "§ 17 ProdSG"));
    // all three words: a strong match
    let q = qt(&["meldepflicht", "notifiziert", "stell"]);
    assert_eq!(t.matches(&q, &p)[0].norm.as_str(), "§ 17 ProdSG");
}

#[test]
fn defined_terms_are_read_from_definition_items() {
    let de = "Im Sinne dieser Verordnung bezeichnet der Ausdruck:\n1. „personenbezogene Daten“ alle Informationen, …\n5. „Pseudonymisierung“ die Verarbeitung …";
    assert_eq!(
        defined_terms_in(de),
        vec!["personenbezogene Daten", "Pseudonymisierung"]
    );
    let en = "For the purposes of this Regulation:\n(3) ‘provider’ means a natural or legal person\n(4) 'deployer' means";
    assert_eq!(defined_terms_in(en), vec!["provider", "deployer"]);
    assert!(defined_terms_in("Die Vorschrift gilt „entsprechend“ für …").is_empty());
}

#[test]
fn unquoted_german_definitions_name_their_terms() {
    // numbered items that open with the term, the definiens after its article
    let items = "Im Sinne dieses Gesetzes ist\n1. Geschäftsgeheimnis eine Information\na) die weder …\n2. Inhaber eines Geschäftsgeheimnisses jede natürliche oder juristische Person, …\n4. rechtsverletzendes Produkt ein Produkt, …";
    assert_eq!(
        defined_terms_in(items),
        vec![
            "Geschäftsgeheimnis",
            "Inhaber eines Geschäftsgeheimnisses",
            "rechtsverletzendes Produkt"
        ]
    );
    // paragraphs that say what the term is
    let paragraphs = "(1) Für dieses Gesetz gelten die Begriffsbestimmungen der folgenden Absätze.\n(2) Verstöße sind Handlungen oder Unterlassungen …\n(5) Offenlegung bezeichnet das Zugänglichmachen …\n(8) Beschäftigte sind\n1. Arbeitnehmerinnen und Arbeitnehmer,";
    assert_eq!(
        defined_terms_in(paragraphs),
        vec!["Verstöße", "Offenlegung", "Beschäftigte"]
    );
    // an unnumbered sentence, a lettered item, a lower-case phrase are none
    assert!(defined_terms_in("Im Sinne dieser Verordnung bezeichnet der Ausdruck:\na) das Bundesamt,\n3. nach Maßgabe ist").is_empty());
}

#[test]
fn defined_term_routes_to_its_definitions_norm() {
    let d = DefinedTerms::new(vec![
        (
            q(&["anbiet"]),
            "Anbieter".into(),
            NormRef("Art. 3 KI-VO".into()),
        ),
        (
            q(&["pseudonymisier"]),
            "Pseudonymisierung".into(),
            NormRef("Art. 4 DSGVO".into()),
        ),
        (q(&["anbiet"]), "Anbieter".into(), NormRef("§ 2 DDG".into())),
    ]);
    let m = d.matches(&q(&["gilt", "anbiet", "ki"]), &["KI-VO".into()]);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].norm.as_str(), "Art. 3 KI-VO");
    let m = d.matches(&q(&["bedeut", "pseudonymisier"]), &[]);
    assert_eq!(m[0].norm.as_str(), "Art. 4 DSGVO");
}

#[test]
fn the_longest_defined_term_of_the_question_wins() {
    let d = DefinedTerms::new(vec![
        (
            q(&["product"]),
            "product".into(),
            NormRef("Art. 3 XVO".into()),
        ),
        (
            q(&["connect", "product"]),
            "connected product".into(),
            NormRef("Art. 2 YVO".into()),
        ),
        (
            q(&["manufactur"]),
            "manufacturer".into(),
            NormRef("Art. 3 XVO".into()),
        ),
    ]);
    // „what is a connected product“, "is a connected device a product"
    let m = d.matches(&q(&["connect", "product"]), &[]);
    assert_eq!(norms(&m), vec!["Art. 2 YVO"]);
    // a plain product keeps the shorter term; two unrelated terms both stay
    let m = d.matches(&q(&["product", "manufactur"]), &[]);
    assert_eq!(norms(&m), vec!["Art. 3 XVO"]);
    let m = d.matches(&q(&["product"]), &[]);
    assert_eq!(norms(&m), vec!["Art. 3 XVO"]);
}

fn hm(norm: &str) -> HeadingMatch {
    hmt(norm, &["x"])
}

fn hmt(norm: &str, terms: &[&str]) -> HeadingMatch {
    HeadingMatch {
        norm: NormRef(norm.into()),
        heading: String::new(),
        terms: terms.iter().map(|t| t.to_string()).collect(),
        coverage: 1.0,
        weight: 1.0,
    }
}

fn reg_of(n: &NormRef) -> Option<String> {
    n.0.rsplit_once(' ').map(|(_, r)| r.to_string())
}

fn norms(ms: &[HeadingMatch]) -> Vec<&str> {
    ms.iter().map(|m| m.norm.as_str()).collect()
}

/// `keep_definition_answers` on matches whose first `defined` are the
/// defined-term matches; the defined ones first again.
fn keep_defs(m: &mut Vec<HeadingMatch>, defined: usize, defs: &dyn Fn(&NormRef) -> bool) {
    let mut headings = m.split_off(defined);
    keep_definition_answers(m, &mut headings, &reg_of, defs);
    m.extend(headings);
}

#[test]
fn a_defined_term_drops_headings_of_its_law_only() {
    let defs = |n: &NormRef| ["Art. 3 CRA", "Art. 4 DSGVO", "Art. 2 Data"].contains(&n.as_str());
    // „what does the CRA mean by a manufacturer“: Art. 3 defines it, the
    // heading „Obligations of manufacturers“ only names it
    let mut m = vec![
        hmt("Art. 3 CRA", &["manufactur"]),
        hmt("Art. 13 CRA", &["manufactur"]),
        hmt("Art. 14 CRA", &["manufactur", "report"]),
        hmt("§ 4 ProdHaftG", &["manufactur"]),
    ];
    keep_defs(&mut m, 1, &defs);
    // a heading that matched other words too stays, as does another law's
    assert_eq!(norms(&m), ["Art. 3 CRA", "Art. 14 CRA", "§ 4 ProdHaftG"]);
    // a defined term of another law leaves this law's headings alone
    let mut m = vec![
        hmt("Art. 2 Data", &["data"]),
        hmt("Art. 25 DSGVO", &["data"]),
    ];
    keep_defs(&mut m, 1, &defs);
    assert_eq!(norms(&m), ["Art. 2 Data", "Art. 25 DSGVO"]);
    // no defined term matched: every heading stays
    let mut m = vec![hm("Art. 25 DSGVO"), hm("Art. 4 DSGVO")];
    keep_defs(&mut m, 0, &defs);
    assert_eq!(m.len(), 2);
}

#[test]
fn a_defined_term_sets_aside_the_topic_norms_of_its_law() {
    let defs = |n: &NormRef| ["Art. 4 DSGVO", "Art. 3 KI-VO"].contains(&n.as_str());
    let refs = |v: &[&str]| v.iter().map(|n| NormRef(n.to_string())).collect::<Vec<_>>();
    // „was heißt Profiling laut DSGVO“: the profiling topic's Art. 22
    // governs the term, Art. 4 defines it; § 37 BDSG is another law's
    let topics = refs(&["Art. 22 DSGVO", "§ 37 BDSG", "Art. 4 DSGVO"]);
    let aside = definition_topics_set_aside(
        &[hmt("Art. 4 DSGVO", &["profiling"])],
        &topics,
        &reg_of,
        &defs,
    );
    assert_eq!(aside, refs(&["Art. 22 DSGVO"]));
    // "who counts as a deployer under the AI Act": Art. 26 and 50 step back
    let topics = refs(&["Art. 26 KI-VO", "Art. 50 KI-VO"]);
    let aside =
        definition_topics_set_aside(&[hmt("Art. 3 KI-VO", &["deploy"])], &topics, &reg_of, &defs);
    assert_eq!(aside, topics);
    // no defined term matched: nothing set aside
    assert!(definition_topics_set_aside(&[], &topics, &reg_of, &defs).is_empty());
    // another law's definitions norm, guessed from the domain, steps back
    // for the law that defines the term
    let topics = refs(&["Art. 4 DSGVO", "§ 26 BDSG"]);
    let aside =
        definition_topics_set_aside(&[hmt("Art. 3 KI-VO", &["deploy"])], &topics, &reg_of, &defs);
    assert_eq!(aside, refs(&["Art. 4 DSGVO"]));
}

/// A term a law defines outside its definitions norm (NIS2's "essential
/// entity", Art. 3): that norm answers, its heading stays and it is not set
/// aside as a norm that only governs the term.
#[test]
fn a_term_defined_outside_the_definitions_norm_keeps_its_norm() {
    let defs = |n: &NormRef| n.as_str() == "Art. 6 NIS2";
    let defined = [hmt("Art. 3 NIS2", &["essenti", "entiti"])];
    let mut headings = vec![
        hmt("Art. 3 NIS2", &["essenti", "entiti"]),
        hmt("Art. 32 NIS2", &["essenti", "entiti"]),
    ];
    keep_definition_answers(&defined, &mut headings, &reg_of, &defs);
    assert_eq!(norms(&headings), ["Art. 3 NIS2"]);
    let topics: Vec<NormRef> = ["Art. 3 NIS2", "Art. 21 NIS2", "Art. 6 NIS2"]
        .iter()
        .map(|n| NormRef(n.to_string()))
        .collect();
    let aside = definition_topics_set_aside(&defined, &topics, &reg_of, &defs);
    assert_eq!(
        aside,
        [
            NormRef("Art. 21 NIS2".into()),
            NormRef("Art. 6 NIS2".into())
        ]
    );
}

/// The term a definition question quotes, or names alone after its frame,
/// is the one it asks about: a defined term elsewhere in it is context;
/// matches stay when none lies inside the asked words.
#[test]
fn the_asked_term_keeps_its_own_definition() {
    let register = hmt("§ 18 GwG", &["transparenzregist", "transparenz", "regist"]);
    let owner = hmt("§ 3 GwG", &["wirtschaft", "berechtigt"]);
    // „Wer ist „wirtschaftlich Berechtigter“ im Transparenzregister?“
    let mut m = vec![register.clone(), owner.clone()];
    keep_asked_terms(&mut m, &q(&["wirtschaft", "berechtigt"]));
    assert_eq!(norms(&m), ["§ 3 GwG"]);
    // asked words no defined term lies inside: all stay
    let mut m = vec![register, owner];
    keep_asked_terms(&mut m, &q(&["beneficial", "owner"]));
    assert_eq!(m.len(), 2);
}

#[test]
fn an_exception_steps_aside_for_its_rule() {
    let refs = |v: &[&str]| v.iter().map(|n| NormRef(n.to_string())).collect::<Vec<_>>();
    let exceptions: BTreeMap<NormRef, NormRef> =
        [("§ 23 KUG", "§ 22 KUG"), ("§ 34 BDSG", "Art. 15 DSGVO")]
            .into_iter()
            .map(|(b, a)| (NormRef(b.into()), NormRef(a.into())))
            .collect();
    let aside = |present: &[&str], named: &[&str]| {
        let named: Vec<String> = named.iter().map(|s| s.to_string()).collect();
        exceptions_set_aside(&refs(present), &exceptions, &named, &reg_of)
    };
    // the rule and its exception: the exception steps aside
    assert_eq!(aside(&["§ 22 KUG", "§ 23 KUG"], &[]), refs(&["§ 23 KUG"]));
    assert_eq!(
        aside(&["§ 34 BDSG", "Art. 15 DSGVO", "Art. 12 DSGVO"], &["DSGVO"]),
        refs(&["§ 34 BDSG"])
    );
    // the exception alone, or its law named without the rule's: it stays
    assert!(aside(&["§ 23 KUG", "Art. 6 DSGVO"], &[]).is_empty());
    assert!(aside(&["§ 34 BDSG", "Art. 15 DSGVO"], &["BDSG"]).is_empty());
}

#[test]
fn a_named_law_keeps_its_own_and_its_regimes_headings() {
    let regime = |r: &str| match r {
        "BSIG" | "NIS2" => "NIS2".to_string(),
        r => r.to_string(),
    };
    let all = || {
        vec![
            hm("Art. 13 CRA"),
            hm("§ 4 ProdHaftG"),
            hm("§ 30 BSIG"),
            hm("Art. 21 NIS2"),
        ]
    };
    let mut m = all();
    keep_named_laws(&mut m, &["CRA".into()], &reg_of, &regime);
    assert_eq!(norms(&m), ["Art. 13 CRA"]);
    // the EU act named: its national implementation stays
    let mut m = all();
    keep_named_laws(&mut m, &["NIS2".into()], &reg_of, &regime);
    assert_eq!(norms(&m), ["§ 30 BSIG", "Art. 21 NIS2"]);
    // no law named: nothing dropped
    let mut m = all();
    keep_named_laws(&mut m, &[], &reg_of, &regime);
    assert_eq!(m.len(), 4);
}

#[test]
fn a_named_law_keeps_only_its_regimes_title_matches() {
    let regime = |r: &str| match r {
        "BSIG" | "NIS2" => "NIS2".to_string(),
        r => r.to_string(),
    };
    let law = |r: &str| LawMatch {
        regulation: r.into(),
        title: format!("title of {r}"),
        terms: vec!["t".into()],
        lift: 40.0,
    };
    let names = |l: &[LawMatch]| l.iter().map(|m| m.regulation.clone()).collect::<Vec<_>>();
    // the Data Act named, the GeschGehG reached by its title word
    let mut l = vec![law("GeschGehG"), law("Data Act")];
    keep_named_law_titles(&mut l, &["Data Act".into()], &regime, &[]);
    assert_eq!(names(&l), ["Data Act"]);
    // the EU act named: its national implementation's title stays
    let mut l = vec![law("BSIG"), law("GeschGehG")];
    keep_named_law_titles(&mut l, &["NIS2".into()], &regime, &[]);
    assert_eq!(names(&l), ["BSIG"]);
    // no law named: every title match stays
    let mut l = vec![law("BSIG"), law("GeschGehG")];
    keep_named_law_titles(&mut l, &[], &regime, &[]);
    assert_eq!(l.len(), 2);
    // the GPSR named by its German name, whose word the ProdSG's title
    // holds: the title match lies inside the name and names nothing
    let regime = |r: &str| match r {
        "GPSR" | "ProdSG" => "Produktsicherheit".to_string(),
        r => r.to_string(),
    };
    let name = ["produktsicherheitsverordn".to_string(), "t".to_string()];
    let mut l = vec![law("ProdSG")];
    keep_named_law_titles(&mut l, &["GPSR".into()], &regime, &name);
    assert!(l.is_empty());
    // a title word of its own beside the name keeps the match
    let mut l = vec![LawMatch {
        terms: vec!["t".into(), "marktuberwach".into()],
        ..law("ProdSG")
    }];
    keep_named_law_titles(&mut l, &["GPSR".into()], &regime, &name);
    assert_eq!(names(&l), ["ProdSG"]);
}

#[test]
fn a_definition_question_means_the_term_of_the_law_it_names() {
    let regime = |r: &str| r.to_string();
    let law = |r: &str| LawMatch {
        regulation: r.into(),
        title: format!("title of {r}"),
        terms: vec!["t".into()],
        lift: 40.0,
    };
    let titled = [law("GeschGehG")];
    let keep = |m: &mut Vec<HeadingMatch>| keep_meant_laws(m, &titled, &[], &reg_of, &regime);
    // "What is a trade secret?": its own words meet the Data Act's (DA) term,
    // its title words name the GeschGehG, whose term the translation reaches
    let m = meant_definitions(
        vec![hm("Art. 2 DA")],
        || vec![hm("Art. 2 DA"), hm("§ 2 GeschGehG")],
        &keep,
    );
    assert_eq!(norms(&m), ["§ 2 GeschGehG"]);
    // own words that name the meant law's term: the translation is not asked
    let m = meant_definitions(vec![hm("§ 2 GeschGehG")], || unreachable!(), &keep);
    assert_eq!(norms(&m), ["§ 2 GeschGehG"]);
    // no law meant: the own words' term stays, whichever law defines it
    let keep_all = |m: &mut Vec<HeadingMatch>| keep_meant_laws(m, &[], &[], &reg_of, &regime);
    let m = meant_definitions(vec![hm("Art. 2 DA")], || unreachable!(), &keep_all);
    assert_eq!(norms(&m), ["Art. 2 DA"]);
    // a law named by abbreviation when no title matched
    let mut m = vec![hm("Art. 2 DA"), hm("§ 2 GeschGehG")];
    keep_meant_laws(&mut m, &[], &["DA".into()], &reg_of, &regime);
    assert_eq!(norms(&m), ["Art. 2 DA"]);
}

/// A heading names its norm's subject first: the lowest-numbered norm
/// whose heading opens with the asked matter answers before one that adds
/// it after „;“ (§ 9 UWG „Schadensersatz“, not § 8c UWG „Verbot der
/// missbräuchlichen Geltendmachung von Ansprüchen; Haftung“); a law that
/// names it only second still answers with that norm.
#[test]
fn a_heading_that_opens_with_the_matter_answers_first() {
    let lex = crate::lexicon::Lexicon::builtin();
    let damages = lex
        .consequence_kinds
        .iter()
        .find(|k| k.id == "damages")
        .unwrap();
    let t = HeadingTable::new(vec![
        h(
            "§ 8c XG",
            "Verbot der missbräuchlichen Geltendmachung von Ansprüchen; Haftung",
            &["verbot", "missbrauch", "geltendmach", "anspruch", "haftung"],
        ),
        h("§ 9 XG", "Schadensersatz", &["schadensersatz"]),
        h("§ 20 XG", "Haftung der Betreiber", &["haftung", "betreib"]),
        h(
            "§ 4 YG",
            "Auskunft; Schadensersatz bei Verletzung",
            &["auskunft", "schadensersatz", "verletzung"],
        ),
    ]);
    let first = |reg: &str| {
        t.intent_matches(&[reg.to_string()], &damages.headings, &[], Some(1))
            .into_iter()
            .map(|m| m.norm.0)
            .collect::<Vec<_>>()
    };
    assert_eq!(first("XG"), ["§ 9 XG"]);
    assert_eq!(first("YG"), ["§ 4 YG"]);
}
