use super::*;

fn a() -> Analyzer {
    Analyzer::new(&AnalyzerConfig::default())
}

#[test]
fn umlauts_and_sharp_s_fold() {
    assert_eq!(fold("Größe über Ärger"), "Grosse uber Arger");
    let an = a();
    // Same term whether written with or without umlaut after stemming.
    assert_eq!(
        an.analyze_lang("Maßnahmen", Lang::De),
        an.analyze_lang("Massnahmen", Lang::De)
    );
    assert_eq!(
        an.analyze_lang("Übermittlung", Lang::De),
        vec!["ubermittl".to_string()]
    );
}

#[test]
fn paragraph_and_article_tokens_kept() {
    let an = a();
    assert_eq!(
        an.analyze_lang("nach § 38 BDSG", Lang::De),
        vec!["§38", "bdsg"]
    );
    assert_eq!(an.analyze_lang("§§ 45 bis 84", Lang::De), vec!["§45", "84"]);
    assert_eq!(an.analyze_lang("§38a", Lang::De), vec!["§38a"]);
    assert_eq!(
        an.analyze_lang("Art. 37 DSGVO", Lang::De),
        vec!["art37", "dsgvo"]
    );
    assert_eq!(an.analyze_lang("Artikel 6", Lang::De), vec!["art6"]);
    assert_eq!(
        an.analyze_lang("Article 33 GDPR", Lang::En),
        vec!["art33", "gdpr"]
    );
    // "Art" not followed by a number is an ordinary word.
    assert_eq!(
        an.analyze_lang("die Art der Daten", Lang::De),
        vec!["art", "dat"]
    );
}

#[test]
fn compounds_split_into_known_parts() {
    let an = a();
    let t = an.analyze_lang("Datenschutzbeauftragter", Lang::De);
    assert_eq!(t[0], "datenschutzbeauftragt");
    assert!(t.contains(&"datenschutz".to_string()), "{t:?}");
    assert!(t.contains(&"beauftragt".to_string()), "{t:?}");
    // Fugen-s.
    let parts = an.split("verarbeitungsverzeichnis", 2).unwrap();
    assert_eq!(parts, vec!["verarbeitung", "verzeichnis"]);
    // No split of unknown or short words.
    assert!(an.split("datenbank", 2).is_none());
    // English is never decompounded.
    assert_eq!(
        an.analyze_lang("Datenschutzbeauftragter", Lang::En).len(),
        1
    );
}

#[test]
fn corpus_lexicon_extends_splitting() {
    let an = Analyzer::with_lexicon(&AnalyzerConfig::default(), ["hinweisgeber".to_string()]);
    let t = an.analyze_lang("Hinweisgeberschutz", Lang::De);
    assert!(
        t.contains(&"hinweisgeb".to_string()) && t.contains(&"schutz".to_string()),
        "{t:?}"
    );
}

#[test]
fn bm25_heading_weight_default() {
    assert_eq!(BM25_HEADING_WEIGHT, 2);
    assert_eq!(Bm25Params::default().heading_weight, BM25_HEADING_WEIGHT);
    // indexes built before the option count their heading once
    let old: Bm25Params =
        serde_json::from_str(r#"{"k1": 1.2, "b": 0.75, "quantize_doc_len": true}"#).unwrap();
    assert_eq!(old.heading_weight, 1);
}

#[test]
fn an_inner_zu_meets_the_verb() {
    let on = Analyzer::new(&AnalyzerConfig::default());
    let t = |a: &Analyzer, w: &str| a.analyze_lang(w, Lang::De)[0].clone();
    assert_eq!(t(&on, "aufzubewahren"), t(&on, "aufbewahren"));
    assert_eq!(t(&on, "mitzuteilen"), t(&on, "mitteilen"));
    // indexes built before the option keep their analysis
    let off = Analyzer::new(&AnalyzerConfig {
        zu_infix: false,
        ..AnalyzerConfig::default()
    });
    assert_ne!(t(&off, "aufzubewahren"), t(&off, "aufbewahren"));
    let old: AnalyzerConfig = serde_json::from_str(
        &serde_json::to_string(&AnalyzerConfig::default())
            .unwrap()
            .replace(",\"zu_infix\":true", ""),
    )
    .unwrap();
    assert!(!old.zu_infix);
}

#[test]
fn a_compound_may_end_in_a_form_of_a_known_word() {
    let lex = ["automatisierte", "entscheidung", "voll", "teil", "einzel"];
    let on = Analyzer::with_lexicon(&AnalyzerConfig::default(), lex);
    let stem = |w: &str| on.analyze_lang(w, Lang::De)[0].clone();
    for w in ["vollautomatisch", "teilautomatisiert"] {
        let terms = on.analyze_lang(w, Lang::De);
        assert!(terms.contains(&stem("automatisierte")), "{w}: {terms:?}");
    }
    // „Einzelentscheidungen“: the tail's plural meets the lexicon's singular
    let terms = on.analyze_lang("Einzelentscheidungen", Lang::De);
    assert!(terms.contains(&stem("entscheidung")), "{terms:?}");
    // old indexes keep their analysis
    let off = Analyzer::with_lexicon(
        &AnalyzerConfig {
            stem_tails: false,
            ..AnalyzerConfig::default()
        },
        lex,
    );
    assert_eq!(off.analyze_lang("vollautomatisch", Lang::De).len(), 1);
}

#[test]
fn verb_forms_meet_their_infinitive() {
    let corpus = [
        "einstufung",
        "speichern",
        "verarbeitung",
        "ablehnen",
        "loschen",
        "haften",
    ];
    let a = Analyzer::with_lexicon(&AnalyzerConfig::default(), corpus.map(String::from));
    let stem = |w: &str| a.analyze_lang(w, Lang::De)[0].clone();
    for (form, like) in [
        ("eingestuft", "einstufung"),
        ("gespeichert", "speichern"),
        ("verarbeitet", "verarbeitung"),
        ("abgelehnt", "ablehnen"),
        ("geloscht", "loschen"),
        ("haftet", "haften"),
    ] {
        assert_eq!(a.verb_form_stem(form), Some(stem(like)), "{form}");
    }
    // no verb form, or no corpus word to meet
    for w in ["gebiet", "geht", "haltbar", "eingerichtet"] {
        assert_eq!(a.verb_form_stem(w), None, "{w}");
    }
}

#[test]
fn derivations_of_one_verb_meet() {
    let on = Analyzer::new(&AnalyzerConfig::default());
    let t = |a: &Analyzer, w: &str| a.analyze_lang(w, Lang::De)[0].clone();
    for group in [
        &[
            "automatisiert",
            "automatisierten",
            "Automatisierung",
            "automatisch",
        ][..],
        &["anonymisiert", "Anonymisierung", "anonym"],
        &["zertifiziert", "zertifizieren", "Zertifizierung"],
        &["informiert", "informieren"],
    ] {
        for w in group {
            assert_eq!(t(&on, w), t(&on, group[0]), "{w} vs {}", group[0]);
        }
    }
    // a short base stays apart from the word it would look like
    assert_ne!(t(&on, "organisiert"), t(&on, "Organ"));
    assert_ne!(t(&on, "realisiert"), t(&on, "real"));
    // English is left to its stemmer; old indexes keep their analysis
    assert_eq!(on.analyze_lang("automated", Lang::En), vec!["autom"]);
    let off = Analyzer::new(&AnalyzerConfig {
        derivation: false,
        ..AnalyzerConfig::default()
    });
    assert_ne!(t(&off, "automatisiert"), t(&off, "automatisch"));
    let old: AnalyzerConfig = serde_json::from_str(
        &serde_json::to_string(&AnalyzerConfig::default())
            .unwrap()
            .replace(",\"derivation\":true", ""),
    )
    .unwrap();
    assert!(!old.derivation);
}

#[test]
fn a_derived_noun_meets_its_base() {
    let on = Analyzer::with_lexicon(
        &AnalyzerConfig::default(),
        ["haften", "meldet", "prüfen", "satz"].map(fold),
    );
    let terms = |w: &str| on.analyze_lang(w, Lang::De);
    let meets = |a: &str, b: &str| {
        let (ta, tb) = (terms(a), terms(b));
        ta.iter().any(|t| tb.contains(t))
    };
    // adjective and noun of a state; a quality; a verb and its noun (a
    // finite form, „haftet“, meets the infinitive on the question's side:
    // `verb_form_stem`)
    for (a, b) in [
        ("schwanger", "Schwangerschaft"),
        ("krank", "Krankheit"),
        ("Mitglied", "Mitgliedschaft"),
        ("Strafe", "strafbar"),
        ("haften", "Haftung"),
        ("melden", "Meldung"),
        ("prüfen", "Prüfung"),
    ] {
        assert!(meets(a, b), "{a} {:?} vs {b} {:?}", terms(a), terms(b));
    }
    // the full word still comes first, the base after it
    assert_eq!(terms("Krankheit"), vec!["krankheit", "krank"]);
    // a noun whose base is another word, or no verb of the corpus
    for (a, b) in [
        ("Beleg", "Belegschaft"),
        ("Satz", "Satzung"),
        ("ein", "Einheit"),
    ] {
        assert!(!meets(a, b), "{a} {:?} vs {b} {:?}", terms(a), terms(b));
    }
    // old indexes keep their analysis
    let off = Analyzer::new(&AnalyzerConfig {
        noun_derivation: false,
        ..AnalyzerConfig::default()
    });
    assert_eq!(off.analyze_lang("Krankheit", Lang::De), vec!["krankheit"]);
    let old: AnalyzerConfig = serde_json::from_str(
        &serde_json::to_string(&AnalyzerConfig::default())
            .unwrap()
            .replace(",\"noun_derivation\":true", ""),
    )
    .unwrap();
    assert!(!old.noun_derivation);
}

#[test]
fn stemming_per_language_and_stop_words() {
    let an = a();
    assert_eq!(
        an.analyze_lang("die Verarbeitungen", Lang::De),
        vec!["verarbeit"]
    );
    assert_eq!(
        an.analyze_lang("the processing of data", Lang::En),
        vec!["process", "data"]
    );
    assert_eq!(an.detect_lang("What is the processing of data?"), Lang::En);
    assert_eq!(
        an.detect_lang("Wann muss ein Unternehmen einen Beauftragten benennen?"),
        Lang::De
    );
}

#[test]
fn important_is_no_form_of_importer() {
    let an = a();
    let terms = |s: &str| an.analyze_lang(s, Lang::En);
    // NIS2's important entities, the CRA's important products: not the
    // importers of the CRA, the GPSR and the RED
    for q in [
        "Which duties do important entities have?",
        "Is my router an important product with digital elements?",
        "Does the risk assessment apply only to important or critical products?",
    ] {
        assert!(
            !terms(q).contains(&"import".to_string()),
            "{q}: {:?}",
            terms(q)
        );
    }
    assert_eq!(terms("important"), terms("importance"));
    assert_eq!(terms("importers"), terms("import"));
    assert_eq!(terms("imported products"), vec!["import", "product"]);
    // old indexes keep their analysis
    let off = Analyzer::new(&AnalyzerConfig {
        stem_overrides: false,
        ..AnalyzerConfig::default()
    });
    assert_eq!(off.analyze_lang("important", Lang::En), vec!["import"]);
    let old: AnalyzerConfig = serde_json::from_str(
        &serde_json::to_string(&AnalyzerConfig::default())
            .unwrap()
            .replace(",\"stem_overrides\":true", ""),
    )
    .unwrap();
    assert!(!old.stem_overrides);
}

#[test]
fn numbers_kept_single_letters_dropped() {
    let an = a();
    assert_eq!(
        an.analyze_lang("innerhalb von 72 Stunden, lit. a", Lang::De),
        vec!["innerhalb", "72", "stund", "lit"]
    );
}
