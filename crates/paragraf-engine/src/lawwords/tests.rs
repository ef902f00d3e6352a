//! Tests of `lawwords`.

use super::*;
use paragraf_index::AnalyzerConfig;
use paragraf_rank::testing::chunk;

fn analyzer() -> Analyzer {
    Analyzer::new(&AnalyzerConfig::default())
}

fn synonyms_of(question: &str, headings: &[&str]) -> Vec<String> {
    let a = analyzer();
    let chunks: Vec<Chunk> = headings
        .iter()
        .enumerate()
        .map(|(i, h)| chunk("HGB", &format!("§ {}", i + 1)).title(h).build())
        .collect();
    let table = heading_table(&chunks, &a);
    let syn = heading_synonyms(&a, &table);
    question_terms(&a, question, Lang::De, &BilingualTerms::default(), &syn).synonyms
}

#[test]
fn a_verb_form_joins_the_synonyms_as_its_infinitive() {
    let words = ["einstufung", "loschen", "intern", "rechen"].map(String::from);
    let a = Analyzer::with_lexicon(&AnalyzerConfig::default(), words);
    let terms = |q: &str| {
        let t = question_terms(
            &a,
            q,
            Lang::De,
            &BilingualTerms::default(),
            &Synonyms::default(),
        );
        (t.own, t.synonyms)
    };
    let stem = |w: &str| a.analyze_lang(w, Lang::De)[0].clone();
    for (q, want) in [
        (
            "Wann wird ein Spielzeug als gefährlich eingestuft?",
            "einstufung",
        ),
        ("Bis wann müssen alte Bewerbungen gelöscht sein?", "loschen"),
        ("Gelöscht werden muss was genau?", "loschen"),
    ] {
        let (own, syn) = terms(q);
        assert!(syn.contains(&stem(want)), "{q}: {syn:?}");
        assert!(!own.contains(&stem(want)), "{q}: {own:?}");
    }
    // capitalised words are nouns, not verb forms
    let (_, syn) = terms("Welches Recht gilt für das Internet?");
    assert!(syn.is_empty(), "{syn:?}");
}

#[test]
fn a_security_word_is_translated_as_security_and_safety() {
    let a = analyzer();
    let translated = |q: &str| {
        question_terms(
            &a,
            q,
            Lang::De,
            &BilingualTerms::default(),
            &Synonyms::default(),
        )
        .translated
    };
    let en = |w: &str| a.analyze_lang(w, Lang::En)[0].clone();
    for q in [
        "Welche Sicherheitsanforderungen gelten für einen WLAN-Router?",
        "Was verlangt die IT-Sicherheit von einer Arztpraxis?",
    ] {
        let t = translated(q);
        assert!(
            t.contains(&en("security")) && t.contains(&en("safety")),
            "{q}: {t:?}"
        );
    }
    let t = translated("Wie stellen wir sicher, dass nur Befugte zugreifen?");
    assert!(!t.contains(&en("security")), "{t:?}");
}

#[test]
fn a_question_word_reaches_the_heading_word_of_its_synonym() {
    let heads = [
        "Aufbewahrung von Unterlagen",
        "Berichtigung unrichtiger Angaben",
    ];
    let aufbewahr = Analyzer::new(&AnalyzerConfig::default()).analyze_lang("aufbewahren", Lang::De);
    let bericht = Analyzer::new(&AnalyzerConfig::default()).analyze_lang("berichtigen", Lang::De);
    // two wordings each, none the heading's own word (a finite verb form
    // meets its infinitive only as far as the stemmer folds it:
    // „verbessert“ does not reach „verbessern“)
    for q in [
        "Wie lange muss ich Quittungen aufheben?",
        "Müssen wir alte Belege verwahren?",
    ] {
        let s = synonyms_of(q, &heads);
        assert!(s.contains(&aufbewahr[0]), "{q}: {s:?}");
    }
    for q in [
        "Kann ich falsche Angaben korrigieren lassen?",
        "Lassen sich fehlerhafte Einträge verbessern?",
    ] {
        let s = synonyms_of(q, &heads);
        assert!(s.contains(&bericht[0]), "{q}: {s:?}");
    }
    // only what a heading holds: no heading, no synonyms
    assert!(synonyms_of("Wie lange muss ich Quittungen aufheben?", &[]).is_empty());
    // the question's own words are not repeated as synonyms
    let s = synonyms_of("Wie lange muss ich Unterlagen aufbewahren?", &heads);
    assert!(!s.contains(&aufbewahr[0]), "{s:?}");
}

#[test]
fn a_norm_that_defines_its_heading_word_is_found() {
    let a = analyzer();
    let chunks = vec![
            // own wording in the law's pattern, not a law's text
            chunk("XG", "§ 3")
                .lang(Lang::De)
                .title("Lieferant")
                .text("(1) Lieferant im Sinne dieses Gesetzes ist, wer Waren gewerbsmäßig abgibt.")
                .build(),
            chunk("XG", "§ 4")
                .lang(Lang::De)
                .title("Beschäftigte")
                .text("Beschäftigte (Arbeitnehmerinnen und Arbeitnehmer) im Sinne dieser Verordnung sind Personen, die …")
                .build(),
            // uses its heading word and the phrase, but defines another word
            chunk("XG", "§ 5")
                .lang(Lang::De)
                .title("Haftung des Lieferanten")
                .text("(1) Der Lieferant haftet für Schäden. Ware im Sinne dieses Gesetzes ist jede bewegliche Sache.")
                .build(),
            // its heading word, no defining phrase
            chunk("XG", "§ 6")
                .lang(Lang::De)
                .title("Verjährung")
                .text("(1) Der Anspruch verjährt in drei Jahren.")
                .build(),
            chunk("XG", "Art. 7")
                .lang(Lang::En)
                .title("Supplier")
                .text("Supplier within the meaning of this Act is …")
                .build(),
        ];
    let got = self_defining_norms(&chunks, &a);
    let mut got: Vec<&str> = got.iter().map(|n| n.0.as_str()).collect();
    got.sort_unstable();
    assert_eq!(
        got,
        vec![
            chunks[0].norm_ref().0.as_str(),
            chunks[1].norm_ref().0.as_str()
        ]
    );
}

#[test]
fn an_exception_finds_the_rule_it_excepts() {
    // own wording in the laws' patterns, not a law's text
    let chunks = vec![
        chunk("XG", "§ 2")
            .lang(Lang::De)
            .title("Veröffentlichung von Bildern")
            .build(),
        // named by label
        chunk("XG", "§ 3")
            .lang(Lang::De)
            .title("Ausnahmen zu § 2")
            .text("(1) Ohne Zustimmung dürfen verbreitet werden: …")
            .build(),
        chunk("XG", "§ 7")
            .lang(Lang::De)
            .title("Vertraulichkeit")
            .build(),
        // named by heading
        chunk("XG", "§ 8")
            .lang(Lang::De)
            .title("Ausnahmen von der Vertraulichkeit")
            .build(),
        // the same heading as a norm of another law that it cites
        chunk("YV", "Art. 12")
            .lang(Lang::De)
            .title("Auskunftsrecht")
            .build(),
        chunk("XG", "§ 20")
            .lang(Lang::De)
            .title("Auskunftsrecht")
            .text("(1) Das Recht auf Auskunft nach Artikel 12 besteht nicht, wenn …")
            .refs(&["Art. 12 YV"], &[])
            .build(),
        // no heading, the derogation formula citing its rule first
        chunk("XG", "§ 30")
            .lang(Lang::De)
            .text("(1) Abweichend von § 7 darf die Stelle … weitergeben.")
            .refs(&["§ 7 XG", "§ 2 XG"], &[])
            .build(),
        // a definitions norm citing the same-headed definitions of another
        // law borrows them: no exception
        chunk("YV", "Art. 2")
            .lang(Lang::De)
            .title("Begriffsbestimmungen")
            .role(SourceRole::Definition)
            .build(),
        chunk("XG", "§ 1")
            .lang(Lang::De)
            .title("Begriffsbestimmungen")
            .text("Im Sinne dieses Gesetzes gelten die Begriffe nach Artikel 2 …")
            .refs(&["Art. 2 YV"], &[])
            .role(SourceRole::Definition)
            .build(),
        // an ordinary norm citing another: no exception
        chunk("XG", "§ 31")
            .lang(Lang::De)
            .title("Zuständigkeit")
            .text("(1) Für Verfahren nach § 7 ist die Behörde zuständig.")
            .refs(&["§ 7 XG"], &[])
            .build(),
    ];
    let got: Vec<(String, String)> = exception_rules(&chunks)
        .into_iter()
        .map(|(b, a)| (b.0, a.0))
        .collect();
    let pair = |b: &str, a: &str| (b.to_string(), a.to_string());
    assert_eq!(
        got,
        vec![
            pair("§ 20 XG", "Art. 12 YV"),
            pair("§ 3 XG", "§ 2 XG"),
            pair("§ 30 XG", "§ 7 XG"),
            pair("§ 8 XG", "§ 7 XG"),
        ]
    );
}

#[test]
fn parallel_headings_pair_the_one_word_left_over() {
    let pair = |de: &str, en: &str| TermPair {
        de: de.into(),
        en: en.into(),
        both: 9,
        dice: 0.8,
        heading: false,
    };
    let known = [pair("pflicht", "oblig"), pair("verarbeit", "process")];
    let titles: Vec<(String, String)> = [
        ("Pflichten der Einführer", "Obligations of importers"),
        // a compound whose parts are paired is paired
        (
            "Verzeichnis der Verarbeitungspflichten",
            "Record of processing obligations",
        ),
        // two words left over on each side: no pair
        (
            "Pflichten der Händler und Bevollmächtigten",
            "Obligations of distributors and representatives",
        ),
    ]
    .iter()
    .map(|(d, e)| (d.to_string(), e.to_string()))
    .collect();
    let a = analyzer();
    let got = heading_pairs(&titles, &a, &known);
    let has = |d: &str, e: &str| got.iter().any(|p| p.de == d && p.en == e && p.heading);
    assert!(has("einfuhr", "import"), "{got:?}");
    assert!(has("verzeichnis", "record"), "{got:?}");
    assert_eq!(got.len(), 2, "{got:?}");
    // a German word the Dice pairs already translate keeps them only
    let mut more = known.to_vec();
    more.push(pair("einfuhr", "introduc"));
    let got = heading_pairs(&titles, &a, &more);
    assert!(got.iter().all(|p| p.de != "einfuhr"), "{got:?}");
}

#[test]
fn paragraphs_split_on_numbers() {
    let de = "(1) Erster Satz.\nweiter\n(2) Zweiter.";
    assert_eq!(paragraphs(de, Lang::De).len(), 2);
    let en = "1.   First.\n2.   Second.\n(a) item";
    assert_eq!(paragraphs(en, Lang::En).len(), 2);
}

#[test]
fn parallel_paragraphs_give_term_pairs() {
    let mut chunks = Vec::new();
    for i in 1..=4 {
        chunks.push(
            chunk("DSGVO", &format!("Art. {i}"))
                .lang(Lang::De)
                .title("Meldung")
                .text(&format!(
                    "(1) Die Meldung erfolgt unverzüglich {i}.\n(2) Die Aufsichtsbehörde prüft."
                ))
                .build(),
        );
        chunks.push(
                chunk("DSGVO", &format!("Art. {i}"))
                    .lang(Lang::En)
                    .title("Notification")
                    .text(&format!("1.   The notification is made without delay {i}.\n2.   The supervisory authority checks."))
                    .build(),
            );
    }
    let pairs = derive_bilingual_terms(&chunks, &analyzer());
    let has = |d: &str, e: &str| pairs.iter().any(|p| p.de == d && p.en == e);
    assert!(has("meldung", "notif"), "{pairs:?}");
    // the compound and its parts co-occur with both English words; the
    // tie is broken deterministically
    assert!(
        pairs
            .iter()
            .any(|p| p.de.starts_with("aufsicht") && (p.en == "supervisori" || p.en == "author")),
        "{pairs:?}"
    );
    assert_eq!(
        pairs,
        derive_bilingual_terms(&chunks, &analyzer()),
        "deterministic"
    );
    let tsv = bilingual_tsv(&pairs, "test");
    let t = BilingualTerms::from_tsv(&tsv);
    assert_eq!(t.len(), pairs.len());
}

/// A law whose sanctions are headed only as a section (the revDSG's
/// "Chapter 8 Criminal Provisions") answers a consequence question with the
/// section's first norm; a norm heading that merely holds the word
/// ("… criminal convictions and offences", "Corporate criminal liability")
/// is no criminal provision.
#[test]
fn a_section_headed_as_the_sanctions_answers_for_its_law() {
    let a = analyzer();
    let in_section = |norm: &str, title: &str| {
        let mut c = chunk("revDSG", norm).lang(Lang::En).title(title).build();
        c.breadcrumb = vec!["Chapter 8 Criminal Provisions".into()];
        c
    };
    let chunks = vec![
        in_section("Art. 64", "Corporate criminal liability"),
        in_section("Art. 61", "Violation of duties of care"),
        in_section("Art. 60", "Violation of the duty to provide information"),
        chunk("DSGVO", "Art. 10")
            .lang(Lang::En)
            .title("Processing of personal data relating to criminal convictions and offences")
            .build(),
        chunk("DSGVO", "Art. 83")
            .lang(Lang::En)
            .title("General conditions for imposing administrative fines")
            .build(),
    ];
    let lex = paragraf_rank::Lexicon::builtin();
    let kind = |id: &str| lex.consequence_kinds.iter().find(|k| k.id == id).unwrap();
    let criminal = kind("criminal");
    let norms = |t: &HeadingTable, law: &str| -> Vec<String> {
        t.intent_matches(&[law.to_string()], &criminal.headings, &[], Some(1))
            .into_iter()
            .map(|m| m.norm.0)
            .collect()
    };
    let (headings, sections) = (heading_table(&chunks, &a), section_table(&chunks, &a));
    assert!(norms(&headings, "revDSG").is_empty());
    assert!(norms(&headings, "DSGVO").is_empty());
    assert_eq!(norms(&sections, "revDSG"), ["Art. 60 revDSG"]);
    assert!(norms(&sections, "DSGVO").is_empty());
    // fines stand in: a law without a fines norm is asked for its criminal ones
    assert_eq!(kind("fines").stands_in.as_deref(), Some("criminal"));
    // and the other way: a law without criminal provisions punishes by fines
    // („Ist es strafbar, wenn man kein Impressum hat?“ → § 33 DDG)
    assert_eq!(kind("criminal").stands_in.as_deref(), Some("fines"));
}

/// The glossary's official wording of a law the corpus holds in one
/// language (`glossary_phrases`): a German question about NIS2's essential
/// entities or the CRA's open-source stewards reaches their English words,
/// an English question about a trade secret or the transparency register
/// the German law's; the phrase's words are not also translated one by one.
#[test]
fn a_glossary_term_reaches_the_other_languages_official_wording() {
    let a = analyzer();
    let table = BilingualTerms::builtin()
        .clone()
        .with_phrases(glossary_phrases(&a, &HeadingTable::default()));
    let translated =
        |q: &str, lang: Lang| question_terms(&a, q, lang, &table, &Synonyms::default()).translated;
    // the question's terms and their translations („Software“ is both)
    let reached = |q: &str, lang: Lang| {
        let t = question_terms(&a, q, lang, &table, &Synonyms::default());
        [t.own, t.translated].concat()
    };
    let terms = |w: &str, lang: Lang| a.analyze_lang(w, lang);
    // a German question reaches the English act's words, an English one
    // the German law's
    for (q, lang, want) in [
        (
            "Ab wann gilt ein Krankenhaus als wesentliche Einrichtung?",
            Lang::De,
            "essential entity",
        ),
        (
            "Welche Pflichten hat eine wichtige Einrichtung nach NIS2?",
            Lang::De,
            "important entity",
        ),
        (
            "Muss ein Verwalter quelloffener Software Schwachstellen melden?",
            Lang::De,
            "open-source software steward",
        ),
        (
            "Wie lange dauert der Unterstützungszeitraum für einen Router?",
            Lang::De,
            "support period",
        ),
        (
            "Is a customer list a trade secret under German law?",
            Lang::En,
            "Geschäftsgeheimnis",
        ),
        (
            "Who counts as the beneficial owner of a GmbH?",
            Lang::En,
            "wirtschaftlich Berechtigter",
        ),
        (
            "Which companies must file with the transparency register?",
            Lang::En,
            "Transparenzregister",
        ),
    ] {
        let other = if lang == Lang::De { Lang::En } else { Lang::De };
        let t = reached(q, lang);
        for w in terms(want, other) {
            assert!(t.contains(&w), "{q}: {w} not in {t:?}");
        }
    }
    // „wesentlich“ alone is the KI-VO's „wesentliche Änderung“, "substantial"
    let entity = translated(
        "Zählt ein Wasserversorger als wesentliche Einrichtung?",
        Lang::De,
    );
    assert!(
        !entity.contains(&terms("substantial", Lang::En)[0]),
        "{entity:?}"
    );
    let change = translated("Wann liegt eine wesentliche Änderung vor?", Lang::De);
    assert!(
        change.contains(&terms("substantial", Lang::En)[0]),
        "{change:?}"
    );
    // one word of a two-word term is not the term
    let owner = translated("Who owns the data a connected car produces?", Lang::En);
    assert!(
        !owner.contains(&terms("Berechtigter", Lang::De)[0]),
        "{owner:?}"
    );
}

/// A glossary term in its translation's wording names the other law's one
/// concept: in heading matching its words are a compound's parts, unless a
/// heading of that language holds them all (the German transposition's own
/// term).
#[test]
fn a_glossary_term_in_translation_counts_as_parts_unless_a_heading_holds_it() {
    let a = analyzer();
    let chunks = vec![
        chunk("BSIG", "§ 28")
            .title("Besonders wichtige Einrichtungen und wichtige Einrichtungen")
            .build(),
        chunk("UWG", "§ 5b")
            .title("Wesentliche Informationen")
            .build(),
    ];
    let headings = heading_table(&chunks, &a);
    let table = BilingualTerms::builtin()
        .clone()
        .with_phrases(glossary_phrases(&a, &headings));
    let heading_terms =
        |q: &str, lang: Lang| question_terms(&a, q, lang, &table, &Synonyms::default()).heading;
    let stem = |w: &str, lang: Lang| a.analyze_lang(w, lang)[0].clone();
    for (q, lang, word) in [
        (
            "Wann ist ein Betreiber eine wesentliche Einrichtung?",
            Lang::De,
            "wesentliche",
        ),
        (
            "Must every GmbH report to the transparency register?",
            Lang::En,
            "transparency",
        ),
    ] {
        let t = heading_terms(q, lang);
        let w = stem(word, lang);
        assert!(!t.full.contains(&w) && t.parts.contains(&w), "{q}: {t:?}");
    }
    // the translation a German law's own term is given names that term:
    // parts too („Transparenzregister“ → "transparency register", not an
    // English act's "Transparency" heading)
    for q in [
        "Was kostet die Eintragung ins Transparenzregister?",
        "Welche Angaben verlangt das Transparenzregister von einem Verein?",
    ] {
        let t = heading_terms(q, Lang::De);
        let w = stem("transparency", Lang::En);
        assert!(!t.full.contains(&w) && t.parts.contains(&w), "{q}: {t:?}");
    }
    // the BSIG's own „wichtige Einrichtung“ stays a full word
    let t = heading_terms("Bin ich eine wichtige Einrichtung?", Lang::De);
    assert!(t.full.contains(&stem("wichtige", Lang::De)), "{t:?}");
}

/// A glossary term that no text of its translation's language holds in a
/// row names its law (`mark_glossary_laws`): "transparency register" the
/// GwG, „wesentliche Einrichtung“ NIS2; "trade secret", which an English
/// act's text says itself, names none, and words apart in a text do not
/// make the term.
#[test]
fn a_glossary_term_no_text_of_its_language_uses_names_its_law() {
    let chunks = vec![
        chunk("GwG", "§ 18")
            .title("Einrichtung des Transparenzregisters")
            .text("Es wird ein Transparenzregister eingerichtet.")
            .build(),
        chunk("Data Act", "Art. 4")
            .lang(Lang::En)
            .title("Rights of users")
            .text("The data holder may refuse to share trade secrets.")
            .build(),
        chunk("KI-VO", "Art. 50")
            .lang(Lang::En)
            .title("Transparency obligations")
            .text("Transparency towards users; the provider shall register the system.")
            .build(),
    ];
    let texts: Vec<String> = chunks.iter().map(|c| c.text.clone()).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let langs: Vec<Lang> = chunks.iter().map(|c| c.lang).collect();
    let inverted = paragraf_index::InvertedIndex::build_with_langs(
        &texts,
        Some(&langs),
        None,
        &AnalyzerConfig::default(),
    )
    .unwrap();
    let a = inverted.analyzer();
    let mut phrases = glossary_phrases(a, &HeadingTable::default());
    mark_glossary_laws(&mut phrases, a, &inverted, &chunks, &LawLift::new(&chunks));
    let table = BilingualTerms::builtin().clone().with_phrases(phrases);
    let named = |q: &str, lang: Lang| -> Vec<String> {
        let own = question_terms(a, q, lang, &table, &Synonyms::default()).own;
        table
            .named_laws(&own, lang)
            .into_iter()
            .map(|(l, _)| l.law.clone())
            .collect()
    };
    assert_eq!(
        named(
            "Does a small GmbH have to report to the transparency register?",
            Lang::En
        ),
        ["GwG"]
    );
    assert_eq!(
        named(
            "Which fees does the transparency register charge?",
            Lang::En
        ),
        ["GwG"]
    );
    assert_eq!(
        named(
            "Ab welcher Größe ist ein Betrieb eine wesentliche Einrichtung?",
            Lang::De
        ),
        ["NIS2"]
    );
    assert!(named("Can trade secrets block access to product data?", Lang::En).is_empty());
    // the German law's own wording names it through its title, not here
    assert!(named("Wer muss dem Transparenzregister melden?", Lang::De).is_empty());
}

/// A law defines some of its terms outside its definitions norm: the
/// glossary's norm answers what the term means (NIS2's "essential entity"
/// in Art. 3, whose Art. 6 defines only "entity"), in the law's own
/// language, and in the translation where no heading of that language
/// holds the words as another law's term; a term the definitions norm
/// defines itself stays with it (the HinSchG's „Repressalien“: § 3, not
/// the prohibition of § 36).
#[test]
fn a_glossary_term_is_defined_by_the_norm_the_glossary_names() {
    let a = analyzer();
    let chunks = vec![
        chunk("NIS2", "Art. 6")
            .lang(Lang::En)
            .role(SourceRole::Definition)
            .title("Definitions")
            .text("(38) ‘entity’ means a natural or legal person created and recognised as such;")
            .build(),
        chunk("NIS2", "Art. 3")
            .lang(Lang::En)
            .title("Essential and important entities")
            .text("1. For the purposes of this Directive, the following entities shall be considered to be essential entities:")
            .build(),
        chunk("BSIG", "§ 28")
            .title("Besonders wichtige Einrichtungen und wichtige Einrichtungen")
            .build(),
        chunk("HinSchG", "§ 3")
            .role(SourceRole::Definition)
            .title("Begriffsbestimmungen")
            .text("(6) Repressalien sind Handlungen oder Unterlassungen im Zusammenhang mit der beruflichen Tätigkeit.")
            .build(),
        chunk("HinSchG", "§ 36").title("Verbot von Repressalien").build(),
    ];
    let phrases = glossary_phrases(&a, &heading_table(&chunks, &a));
    let defined = defined_terms(&chunks, &a, &phrases);
    let norms = |q: &str, lang: Lang| -> Vec<String> {
        let terms = a.analyze_lang(q, lang);
        defined
            .matches(&terms, &[])
            .into_iter()
            .map(|m| m.norm.0)
            .collect()
    };
    assert_eq!(
        norms("What is an essential entity?", Lang::En),
        ["Art. 3 NIS2"]
    );
    assert_eq!(
        norms("Was gilt als wesentliche Einrichtung?", Lang::De),
        ["Art. 3 NIS2"]
    );
    assert_eq!(
        norms("Who counts as an important entity?", Lang::En),
        ["Art. 3 NIS2"]
    );
    assert_eq!(
        norms("What does the directive mean by an entity?", Lang::En),
        ["Art. 6 NIS2"]
    );
    // the BSIG's heading holds „wichtige Einrichtung“: the German words
    // are its term too, not only NIS2's
    assert!(norms("Was ist eine wichtige Einrichtung?", Lang::De).is_empty());
    assert_eq!(
        norms("Was versteht man unter Repressalien?", Lang::De),
        ["§ 3 HinSchG"]
    );
}
