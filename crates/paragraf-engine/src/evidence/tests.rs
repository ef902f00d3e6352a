//! Tests of `evidence`.

use super::*;

fn nr(s: &str) -> NormRef {
    NormRef(s.into())
}

/// A sentence unit of `norm` (regulation `XG`, German).
fn unit(norm: &str, pin: &str, text: &str, pos: usize) -> Unit {
    Unit {
        norm: nr(norm),
        regulation: "XG".into(),
        pinpoint: pin.into(),
        text: text.into(),
        lead_in: None,
        lang: Lang::De,
        pos,
        label: None,
        is_list: false,
    }
}

#[test]
fn german_paragraphs_sentences_numbers_letters() {
    let text = "(1) Die Stelle benennt einen Beauftragten, soweit sie mindestens 20 Personen beschäftigt. Das gilt auch für Auftragsverarbeiter.\n(2) Folgende Angaben sind zu melden:\n1. unverzüglich, spätestens nach 24 Stunden, eine Erstmeldung;\n2. nach 72 Stunden eine Meldung mit\na) der Art der Bedrohung;\nb) den Maßnahmen.\nDie Pflicht nach Satz 1 gilt ab Einrichtung des Meldewegs.";
    let u = norm_units(&nr("§ 9 XG"), "§ 9", "XG", text, Lang::De, None);
    let pins: Vec<&str> = u.iter().map(|u| u.pinpoint.as_str()).collect();
    assert_eq!(
        pins,
        vec![
            "§ 9 Abs. 1 Satz 1 XG",
            "§ 9 Abs. 1 Satz 2 XG",
            "§ 9 Abs. 2 Satz 1 XG",
            "§ 9 Abs. 2 Nr. 1 XG",
            "§ 9 Abs. 2 Nr. 2 XG",
            "§ 9 Abs. 2 Nr. 2 lit. a XG",
            "§ 9 Abs. 2 Nr. 2 lit. b XG",
            "§ 9 Abs. 2 Satz 2 XG",
        ]
    );
    assert_eq!(
        u[3].lead_in.as_deref(),
        Some("Folgende Angaben sind zu melden:")
    );
    assert_eq!(
        u[5].lead_in.as_deref(),
        Some("nach 72 Stunden eine Meldung mit")
    );
    assert!(u[3]
        .quote()
        .starts_with("Folgende Angaben sind zu melden: … unverzüglich"));
}

#[test]
fn english_paragraphs_points_and_subpoints() {
    let text = "1.   Manufacturers shall notify:\n(a) an early warning within 24 hours;\n(b) a notification within 72 hours, with\n(i) details;\n(ii) measures;\n(c) a final report.\n2.   The notification shall be submitted to ENISA.";
    let u = norm_units(&nr("Art. 14 CRA"), "Art. 14", "CRA", text, Lang::En, None);
    let pins: Vec<&str> = u.iter().map(|u| u.pinpoint.as_str()).collect();
    assert_eq!(
        pins,
        vec![
            "Art. 14 Abs. 1 Satz 1 CRA",
            "Art. 14 Abs. 1 lit. a CRA",
            "Art. 14 Abs. 1 lit. b CRA",
            "Art. 14 Abs. 1 lit. c CRA",
            "Art. 14 Abs. 2 Satz 1 CRA",
        ]
    );
    assert!(u[2].text.contains("(ii)") || u[2].text.contains("measures"));
    // English numbered points of a definitions article
    let d = "For the purposes of this Regulation:\n(1) ‘provider’ means a person;\n(2) ‘deployer’ means a user;";
    let u = norm_units(&nr("Art. 3 KI-VO"), "Art. 3", "KI-VO", d, Lang::En, None);
    assert_eq!(u[1].pinpoint, "Art. 3 Nr. 1 KI-VO");
    assert_eq!(u[2].pinpoint, "Art. 3 Nr. 2 KI-VO");
}

#[test]
fn continuation_chunk_keeps_its_absatz() {
    assert_eq!(first_absatz("§ 32 Abs. 1–3 BSIG").as_deref(), Some("1"));
    assert_eq!(first_absatz("§ 32 BSIG"), None);
    let u = norm_units(
        &nr("§ 32 BSIG"),
        "§ 32",
        "BSIG",
        "b) Angaben zur Art;",
        Lang::De,
        Some("1".into()),
    );
    assert_eq!(u[0].pinpoint, "§ 32 Abs. 1 lit. b BSIG");
}

#[test]
fn cues_follow_the_question() {
    let asks = Asks::of("Bis wann muss ein Vorfall gemeldet werden?");
    assert!(asks.deadline && !asks.amount);
    assert!(cue(
        "unverzüglich, spätestens innerhalb von 24 Stunden",
        asks
    ));
    assert!(!cue("Die Meldung enthält eine Beschreibung der Art.", asks));
    let asks = Asks::of("Wie hoch kann ein Bußgeld werden?");
    assert!(cue(
        "Geldbußen von bis zu 20 000 000 EUR oder bis zu 4 %",
        asks
    ));
    // a deadline needs a number and a unit of time, not any word that
    // starts like one („Eintragung“, „Jahresabschluss“)
    let asks = Asks::of("Wie lange sind die Unterlagen aufzubewahren?");
    assert!(cue("Sie sind zehn Jahre aufzubewahren.", asks));
    assert!(cue("Die Meldung erfolgt binnen eines Monats.", asks));
    assert!(!cue(
        "Die Frist beginnt mit der letzten Eintragung in den Jahresabschluss.",
        asks
    ));
    let asks = Asks::of("Welche Unternehmen müssen eine Meldestelle einrichten?");
    assert!(asks.threshold, "who must: the scope threshold");
    let asks = Asks::of("Ab wie vielen Mitarbeitern brauche ich das?");
    assert!(cue(
        "soweit sie in der Regel mindestens 20 Personen ständig beschäftigen",
        asks
    ));
}

#[test]
fn selection_prefers_the_answering_unit_and_keeps_reading_order() {
    let mk = |pin: &str, text: &str, pos: usize, norm: &str| unit(norm, pin, text, pos);
    let units = vec![
        (
            0,
            mk(
                "§ 1 Abs. 1 Satz 1 XG",
                "Der Verantwortliche meldet Verletzungen der Behörde.",
                0,
                "§ 1 XG",
            ),
        ),
        (
            0,
            mk(
                "§ 1 Abs. 1 Satz 2 XG",
                "Die Meldung erfolgt binnen 72 Stunden.",
                1,
                "§ 1 XG",
            ),
        ),
        (
            0,
            mk(
                "§ 1 Abs. 2 Satz 1 XG",
                "Die Behörde veröffentlicht einen Bericht.",
                2,
                "§ 1 XG",
            ),
        ),
        (
            1,
            mk("§ 2 Abs. 1 Satz 1 XG", "Sonstiges ohne Bezug.", 0, "§ 2 XG"),
        ),
    ];
    let q: Vec<String> = vec!["meld".into(), "verletz".into()];
    let terms = |t: &str, _: Lang| -> Vec<String> {
        let t = t.to_lowercase();
        let mut v = Vec::new();
        if t.contains("meld") {
            v.push("meld".to_string());
        }
        if t.contains("verletz") {
            v.push("verletz".to_string());
        }
        v
    };
    let scored = score_units(
        units,
        Asks::of("Wann muss eine Verletzung gemeldet werden?"),
        &q,
        &[],
        &terms,
        &|_| 1.0,
    );
    let sel = select(scored);
    let pins: Vec<&str> = sel.iter().map(|s| s.unit.pinpoint.as_str()).collect();
    assert_eq!(pins, vec!["§ 1 Abs. 1 Satz 1 XG", "§ 1 Abs. 1 Satz 2 XG"]);
    let ev = to_evidence(&sel, &|_, _| Some("https://example.invalid".into()));
    let text = extractive_text(&ev, Lang::De);
    assert!(
        text.contains("§ 1 Abs. 1 Satz 2 XG: „Die Meldung erfolgt binnen 72 Stunden.“ [2]"),
        "{text}"
    );
}

#[test]
fn a_selected_item_brings_its_whole_short_list() {
    let text = "(1) Das Verzeichnis enthält folgende Angaben:\na) den Namen des Verantwortlichen;\nb) die Zwecke der Verarbeitung;\nc) die Fristen für die Löschung.\n(2) Die Behörde kann es anfordern.";
    let u = norm_units(&nr("Art. 9 XG"), "Art. 9", "XG", text, Lang::De, None);
    assert_eq!(u[1].label.as_deref(), Some("a)"));
    let units: Vec<(usize, Unit)> = u.into_iter().map(|u| (0, u)).collect();
    // only the item on purposes holds the question's term
    let terms = |t: &str, _: Lang| -> Vec<String> {
        if t.contains("Zwecke") {
            vec!["zweck".to_string()]
        } else {
            Vec::new()
        }
    };
    let scored = score_units(
        units,
        Asks::default(),
        &["zweck".to_string()],
        &[],
        &terms,
        &|_| 1.0,
    );
    let sel = select(scored);
    assert_eq!(sel.len(), 1, "{sel:?}");
    let q = sel[0].unit.quote();
    assert_eq!(sel[0].unit.pinpoint, "Art. 9 Abs. 1 lit. a–c XG");
    assert!(
        q.starts_with("Das Verzeichnis enthält folgende Angaben: …"),
        "{q}"
    );
    for item in ["a) den Namen", "b) die Zwecke", "c) die Fristen"] {
        assert!(q.contains(item), "{q}");
    }
}

#[test]
fn the_primary_norm_is_always_quoted() {
    let mk = unit;
    // the second-ranked norm shares the question's word, the primary does not
    let units = vec![
        (
            0,
            mk(
                "§ 1 XG",
                "§ 1 Abs. 1 Satz 1 XG",
                "Die Speicherung ist nur zulässig, wenn der Nutzer eingewilligt hat.",
                0,
            ),
        ),
        (
            1,
            mk(
                "§ 2 XG",
                "§ 2 Abs. 1 Satz 1 XG",
                "Die Einwilligung ist schriftlich zu erteilen.",
                0,
            ),
        ),
    ];
    let terms = |t: &str, _: Lang| -> Vec<String> {
        if t.contains("Einwilligung") {
            vec!["einwill".to_string()]
        } else {
            Vec::new()
        }
    };
    let sel = select(score_units(
        units,
        Asks::default(),
        &["einwill".to_string()],
        &[],
        &terms,
        &|_| 1.0,
    ));
    let pins: Vec<&str> = sel.iter().map(|s| s.unit.pinpoint.as_str()).collect();
    assert_eq!(pins, vec!["§ 1 Abs. 1 Satz 1 XG", "§ 2 Abs. 1 Satz 1 XG"]);
}
