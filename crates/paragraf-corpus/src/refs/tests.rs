//! Tests of `refs`.

use super::*;
use proptest::prelude::*;

fn m() -> Manifest {
    Manifest::builtin().unwrap()
}

fn refs(text: &str, reg: &str) -> Vec<String> {
    extract_references(text, reg, &m())
        .resolved
        .into_iter()
        .map(|r| r.0)
        .collect()
}

#[test]
fn eu_act_number_with_subunits() {
    assert_eq!(
            refs("Ergänzend zu Artikel 37 Absatz 1 Buchstabe b und c der Verordnung (EU) 2016/679 benennen", "BDSG"),
            vec!["Art. 37 DSGVO"]
        );
    assert_eq!(
        refs(
            "nach Artikel 6 Absatz 1 Unterabsatz 1 Buchstabe f der Verordnung (EU) 2016/679",
            "BDSG"
        ),
        vec!["Art. 6 DSGVO"]
    );
    assert_eq!(
        refs("gemäß Artikel 21 der Richtlinie (EU) 2022/2555", "BSIG"),
        vec!["Art. 21 NIS2"]
    );
    assert_eq!(
        refs("Article 6 of Regulation (EU) 2024/2847", "KI-VO"),
        vec!["Art. 6 CRA"]
    );
}

#[test]
fn same_law_sections_and_lists() {
    assert_eq!(
        refs(
            "§ 6 Absatz 4, 5 Satz 2 und Absatz 6 finden Anwendung",
            "BDSG"
        ),
        vec!["§ 6 BDSG"]
    );
    let r = refs("Die §§ 45 bis 84 gelten", "BDSG");
    assert_eq!(r.len(), 40);
    assert!(r.contains(&"§ 45 BDSG".to_string()) && r.contains(&"§ 84 BDSG".to_string()));
    let r = refs("vgl. §§ 4 Abs. 4, 12 Abs. 3, 16 Abs. 5", "BDSG");
    assert_eq!(r, vec!["§ 12 BDSG", "§ 16 BDSG", "§ 4 BDSG"]);
    assert_eq!(
        refs("nach Artikel 15, 16 und 17", "DSGVO"),
        vec!["Art. 15 DSGVO", "Art. 16 DSGVO", "Art. 17 DSGVO"]
    );
}

#[test]
fn german_eu_act_forms_resolve_within_the_act() {
    // KI-VO, EUR-Lex German text
    assert_eq!(
        refs("gemäß Artikel 6 Absatz 2 und Anhang III", "KI-VO"),
        vec!["Anhang III KI-VO", "Art. 6 KI-VO"]
    );
    assert_eq!(
        refs(
            "die in Artikel 13 der vorliegenden Verordnung genannten Informationen",
            "KI-VO"
        ),
        vec!["Art. 13 KI-VO"]
    );
    assert_eq!(
        refs(
            "gemäß Artikel 9 Absatz 1 der Verordnung (EU) 2016/679 und Artikel 5 dieser Verordnung",
            "KI-VO"
        ),
        vec!["Art. 5 KI-VO", "Art. 9 DSGVO"]
    );
    // genitive `des Artikels`
    assert_eq!(
            refs("Ungeachtet des Artikels 5 Absatz 1 und im Sinne des Artikels 9 Absatz 1 der Verordnung (EU) 2016/679", "KI-VO"),
            vec!["Art. 5 KI-VO", "Art. 9 DSGVO"]
        );
}

#[test]
fn named_laws() {
    assert_eq!(
        refs("siehe Art. 35 DSGVO und § 38 BDSG.", "TKG"),
        vec!["Art. 35 DSGVO", "§ 38 BDSG"]
    );
    assert_eq!(
        refs("nach § 26 des Bundesdatenschutzgesetzes", "BetrVG"),
        vec!["§ 26 BDSG"]
    );
    assert_eq!(refs("§ 4f BDSG 1990", "BDSG"), vec!["§ 4f BDSG 1990"]);
    assert_eq!(refs("Article 5 of the AI Act", "CRA"), vec!["Art. 5 KI-VO"]);
}

#[test]
fn english_forms() {
    assert_eq!(
        refs("referred to in Article 13(2) and (3)", "DSGVO"),
        vec!["Art. 13 DSGVO"]
    );
    let r = refs("Articles 15 to 22 apply", "DSGVO");
    assert_eq!(r.len(), 8);
    assert_eq!(
        refs("Article 6(1), point (f), of this Regulation", "DSGVO"),
        vec!["Art. 6 DSGVO"]
    );
    assert_eq!(
        refs("set out in Annex III", "KI-VO"),
        vec!["Anhang III KI-VO"]
    );
    assert_eq!(refs("gemäß Anhang I", "CRA"), vec!["Anhang I CRA"]);
    assert_eq!(refs("in recital 47", "DSGVO"), vec!["ErwG 47 DSGVO"]);
}

#[test]
fn unknown_laws_are_unresolved() {
    let e = extract_references(
        "Artikel 10 des Grundgesetzes und Art. 13 GG und § 202a StGB",
        "BDSG",
        &m(),
    );
    assert!(e.resolved.is_empty(), "{e:?}");
    assert_eq!(e.unresolved.len(), 3, "{e:?}");
    let e = extract_references("Artikel 8 der Richtlinie 95/46/EG", "DSGVO", &m());
    assert!(e.resolved.is_empty() && e.unresolved.len() == 1, "{e:?}");
    let e = extract_references("Article 8(1) of the Charter", "DSGVO", &m());
    assert!(e.resolved.is_empty(), "{e:?}");
}

#[test]
fn lists_and_in_verbindung_mit_share_the_designation() {
    let e = extract_references(
        "nach den § 802g Absatz 2 und § 802h der Zivilprozessordnung",
        "AO",
        &m(),
    );
    assert!(e.resolved.is_empty() && e.unresolved.len() == 2, "{e:?}");
    let e = extract_references(
        "im Sinne des § 56 Absatz 4 Satz 1 in Verbindung mit § 2 Nummer 24 des BSI-Gesetzes",
        "BSI-KritisV",
        &m(),
    );
    assert_eq!(
        e.resolved,
        vec![NormRef("§ 2 BSIG".into()), NormRef("§ 56 BSIG".into())]
    );
    assert!(refs("in § 1234 des Bürgerlichen Gesetzbuchs bestimmt", "HGB").is_empty());
    assert_eq!(
        refs("§ 5 und § 6 BDSG", "TKG"),
        vec!["§ 5 BDSG", "§ 6 BDSG"]
    );
}

#[test]
fn law_titles_in_words_resolve_with_names() {
    let mut names = LawNames::from_manifest(&m());
    names.add("StGB", "Strafgesetzbuch");
    names.add("BGB", "Bürgerliches Gesetzbuch");
    let text = "Das regelt Art. 37 DSGVO und § 202a des Strafgesetzbuchs [1].";
    // without the titles the law in words is not resolved
    let plain = extract_references(text, "DSGVO", &m());
    assert_eq!(plain.resolved, vec![NormRef("Art. 37 DSGVO".into())]);
    let e = extract_references_with(text, "DSGVO", &m(), &names);
    assert_eq!(
        e.resolved,
        vec![
            NormRef("Art. 37 DSGVO".into()),
            NormRef("§ 202a StGB".into())
        ]
    );
    assert!(e.unresolved.is_empty(), "{e:?}");
    let e = extract_references_with(
            "nach § 823 Absatz 1 des Bürgerlichen Gesetzbuches und § 3 des Gesetzes gegen den unlauteren Wettbewerb",
            "HGB",
            &m(),
            &names,
        );
    assert_eq!(
        e.resolved,
        vec![NormRef("§ 3 UWG".into()), NormRef("§ 823 BGB".into())]
    );
    assert_eq!(
        extract_references_with(
            "Art. 5 der Datenschutz-Grundverordnung",
            "BDSG",
            &m(),
            &names
        )
        .resolved,
        vec![NormRef("Art. 5 DSGVO".into())]
    );
    // a law the names do not know stays unresolved
    let e = extract_references_with("Artikel 10 des Grundgesetzes", "BDSG", &m(), &names);
    assert!(e.resolved.is_empty() && e.unresolved.len() == 1, "{e:?}");
}

#[test]
fn that_regulation_is_the_last_named() {
    assert_eq!(
            refs("under Regulation (EU) 2016/679 pursuant to Article 58(2), point (i), of that Regulation", "NIS2"),
            vec!["Art. 58 DSGVO"]
        );
    let e = extract_references(
        "gemäß Artikel 4 der Entscheidung Nr. 676/2002/EG",
        "TKG",
        &m(),
    );
    assert!(e.resolved.is_empty() && e.unresolved.len() == 1, "{e:?}");
}

/// The act numbers a text names, held in the manifest or not (§ 1 ProdSG
/// lists the directives it transposes this way); a date is none.
#[test]
fn act_numbers_are_year_and_number() {
    assert_eq!(
        crate::act_numbers(
            "der Richtlinie 2014/35/EU und der Verordnung (EU) 2023/988; Verordnung (EG) Nr. 765/2008, am 1.1.2024"
        ),
        ["2014/35", "2023/988", "765/2008"]
    );
}

#[test]
fn no_false_triggers() {
    assert!(refs("Die Artikelnummer 5G und Artefakte", "DSGVO").is_empty());
    assert!(refs("im Anhang der Mitteilung", "CRA").is_empty());
}

#[test]
fn norm_queries() {
    let q = |s: &str| {
        parse_norm_query(s, &m())
            .into_iter()
            .map(|r| r.0)
            .collect::<Vec<_>>()
    };
    assert_eq!(q("Was regelt Art. 37 DSGVO?"), vec!["Art. 37 DSGVO"]);
    assert_eq!(q("§ 26 BDSG Beschäftigtendaten"), vec!["§ 26 BDSG"]);
    assert_eq!(q("Art. 22 revDSG"), vec!["Art. 22 revDSG"]);
    assert_eq!(q("§ 4f BDSG 1990"), vec!["§ 4f BDSG 1990"]);
    assert_eq!(q("GDPR Article 5"), vec!["Art. 5 DSGVO"]);
    assert!(q("Was muss ich tun?").is_empty());
    assert!(q("Art. 37").is_empty());
}

proptest! {
    #[test]
    fn never_panics_and_is_deterministic(s in "\\PC{0,200}") {
        let m = m();
        let a = extract_references(&s, "DSGVO", &m);
        let b = extract_references(&s, "DSGVO", &m);
        prop_assert_eq!(&a, &b);
        for r in &a.resolved {
            let ok = ["§ ", "Art. ", "Anhang ", "Anlage ", "ErwG "].iter().any(|p| r.0.starts_with(p));
            prop_assert!(ok, "malformed {}", r.0);
            prop_assert!(m.regulation(r.0.splitn(3, ' ').nth(2).unwrap_or("")).is_some(), "unknown law in {}", r.0);
        }
        let _ = parse_norm_query(&s, &m);
    }

    #[test]
    fn citation_soup_never_panics(parts in proptest::collection::vec(prop_oneof![
        Just("§"), Just("§§"), Just("Art."), Just("Artikel"), Just("Article"), Just("Annex"), Just("Anhang"),
        Just(" "), Just("1"), Just("37"), Just("(2)"), Just("Absatz"), Just("bis"), Just("to"), Just(","),
        Just("und"), Just("der Verordnung (EU) 2016/679"), Just("DSGVO"), Just("BDSG 1990"), Just("ä"), Just("IV"),
        Just("Buchstabe"), Just("b"), Just("des"), Just("Gesetzes"),
    ], 0..40)) {
        let s: String = parts.concat();
        let m = m();
        let a = extract_references(&s, "BDSG", &m);
        prop_assert_eq!(a, extract_references(&s, "BDSG", &m));
    }
}
