//! Tests of `gate`.

use super::*;

fn src(norm: &str, class: SourceClass) -> Source {
    src_text(norm, class, "")
}

fn src_text(norm: &str, class: SourceClass, excerpt: &str) -> Source {
    Source {
        norm: NormRef(norm.into()),
        citation: norm.into(),
        source_class: class,
        excerpt: excerpt.into(),
    }
}

const ART37: &str = "(1) Der Verantwortliche und der Auftragsverarbeiter benennen auf jeden Fall einen Datenschutzbeauftragten, wenn die Kerntätigkeit in der Durchführung von Verarbeitungsvorgängen besteht. (2) Eine Unternehmensgruppe darf einen gemeinsamen Datenschutzbeauftragten ernennen.";
const ART88: &str = "Die Mitgliedstaaten können durch Rechtsvorschriften spezifischere Vorschriften zum Schutz der Rechte und Freiheiten hinsichtlich der Verarbeitung personenbezogener Beschäftigtendaten im Beschäftigungskontext vorsehen.";

/// A tiny extractor for tests: finds `Art. N DSGVO` and `§ N BDSG`.
fn extract(s: &str) -> Vec<NormRef> {
    let re = regex::Regex::new(r"(Art\. \d+ DSGVO|§ \d+ BDSG)").unwrap();
    re.find_iter(s)
        .map(|m| NormRef(m.as_str().to_string()))
        .collect()
}

/// The index's analyzer with its default configuration, German.
fn terms(s: &str) -> Vec<String> {
    static A: std::sync::OnceLock<paragraf_index::Analyzer> = std::sync::OnceLock::new();
    A.get_or_init(|| paragraf_index::Analyzer::new(&paragraf_index::AnalyzerConfig::default()))
        .analyze_lang(s, paragraf_types::Lang::De)
}

/// Laws of the test world: DSGVO and BDSG.
fn unresolved(s: &str) -> Vec<String> {
    citation_spans(s)
        .into_iter()
        .filter(|(_, law)| law != "DSGVO" && law != "BDSG")
        .map(|(span, _)| span)
        .collect()
}

/// The gate with the test extractor and analyzer; `norms` were retrieved.
fn gated(text: &str, sources: &[Source], norms: &[&str]) -> GateOutcome {
    let checks = NormChecks {
        extract: &extract,
        unresolved: &unresolved,
        inadmissible: &|n| {
            (n.as_str() == "§ 75 BDSG").then(|| "BDSG Teil 3 bei allgemeiner DS-Frage".to_string())
        },
    };
    gate(text, sources, &retrieved(norms), &checks, &terms)
}

#[test]
fn unknown_laws_out_of_scope_and_unbacked_numbers_are_removed() {
    let sources = [
        src_text("Art. 37 DSGVO", SourceClass::BindingLaw, ART37),
        src_text("§ 75 BDSG", SourceClass::BindingLaw, "(1) Löschung."),
    ];
    let text = "Der Verantwortliche benennt einen Datenschutzbeauftragten [1]. Rechtsgrundlage ist zusätzlich § 202a StGB [1]. Siehe auch Art. 13 GG [1]. Ebenso § 823 Abs. 1 BGB [1]. Die Löschung regelt § 75 BDSG [2]. Das gilt ab 50 Beschäftigten [1].";
    let out = gated(text, &sources, &["Art. 37 DSGVO", "§ 75 BDSG"]);
    let a = &out.answer;
    assert!(!a.abstained, "{a:?}");
    for gone in ["StGB", "GG", "BGB", "§ 75 BDSG", "50"] {
        assert!(!a.text.contains(gone), "{gone} survived: {}", a.text);
    }
    // each dropped sentence is listed by its place and the reason, never
    // by the model's words
    let why = |n: usize| -> Vec<&str> {
        a.removed_citations
            .iter()
            .filter(|r| r.text == format!("Satz {n} der Modellantwort"))
            .map(|r| r.reason.as_str())
            .collect()
    };
    for n in 2..=4 {
        assert!(
            why(n).iter().any(|r| r.contains("nicht im Korpus")),
            "{:?}",
            a.removed_citations
        );
    }
    assert!(why(5).iter().any(|r| r.contains("Teil 3")), "{:?}", why(5));
    assert!(why(6).iter().any(|r| r.contains("Zahl")), "{:?}", why(6));
    for r in &a.removed_citations {
        for model_words in ["StGB", "GG", "BGB", "§ 75", "50"] {
            assert!(
                !r.text.contains(model_words) && !r.reason.contains(model_words),
                "{r:?}"
            );
        }
    }
    assert_eq!(out.dropped_sentences, 5);
}

#[test]
fn dates_do_not_end_a_sentence() {
    let s = split_sentences("Nach dem BSI-Gesetz vom 14. August 2009 galt das. Danach nicht.");
    assert_eq!(s.len(), 2, "{s:?}");
}

#[test]
fn numbers_with_thousands_separators() {
    assert_eq!(
        numbers("bis zu 20 000 000 EUR oder 4 %"),
        vec!["20000000", "4"]
    );
    assert_eq!(
        numbers("binnen 72 Stunden, Art. 33 Abs. 1 DSGVO"),
        vec!["72"]
    );
    assert_eq!(numbers("20.000.000 EUR"), vec!["20000000"]);
}

#[test]
fn citation_spans_find_the_law() {
    let spans =
        citation_spans("Nach § 202a StGB und Art. 13 GG sowie Artikel 5 Absatz 1 der DSGVO.");
    let laws: Vec<&str> = spans.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(laws, vec!["StGB", "GG", "DSGVO"]);
    assert!(citation_spans("Art. 5 gilt entsprechend.").is_empty());
}

fn retrieved(norms: &[&str]) -> BTreeSet<NormRef> {
    norms.iter().map(|n| NormRef(n.to_string())).collect()
}

#[test]
fn valid_markers_pass_and_invalid_are_removed() {
    let sources = vec![
            src_text("Art. 37 DSGVO", SourceClass::BindingLaw, ART37),
            src_text(
                "§ 38 BDSG",
                SourceClass::BindingLaw,
                "soweit sie in der Regel mindestens 20 Personen ständig mit der automatisierten Verarbeitung beschäftigen",
            ),
        ];
    let text = "Ein Datenschutzbeauftragter ist zu benennen, wenn die Kerntätigkeit eine umfangreiche Überwachung ist [1]. Das gilt, wenn in der Regel mindestens 20 Personen ständig mit der automatisierten Verarbeitung beschäftigt sind [2][7].";
    let out = gated(text, &sources, &["Art. 37 DSGVO", "§ 38 BDSG"]);
    assert!(!out.answer.abstained);
    assert_eq!(out.answer.citations, vec!["Art. 37 DSGVO", "§ 38 BDSG"]);
    assert_eq!(out.answer.removed_citations.len(), 1);
    assert_eq!(out.answer.removed_citations[0].text, "[7]");
    assert!(!out.answer.text.contains("[7]"));
    assert!(out.answer.text.contains("[2]"));
}

#[test]
fn fabricated_norm_is_removed_with_its_sentence() {
    let sources = vec![src_text("Art. 37 DSGVO", SourceClass::BindingLaw, ART37)];
    let text = "Die Benennung regelt Art. 37 DSGVO [1]. Ein Bußgeld droht nach Art. 124 DSGVO [1].";
    let out = gated(text, &sources, &["Art. 37 DSGVO"]);
    assert!(!out.answer.abstained);
    assert!(!out.answer.text.contains("Art. 124"));
    assert_eq!(out.dropped_sentences, 1);
    assert!(out
        .answer
        .removed_citations
        .iter()
        .any(|r| r.text == "Satz 2 der Modellantwort"
            && r.reason.contains("nicht unter den gefundenen Quellen")));
}

#[test]
fn sentences_without_a_source_are_dropped_not_marked() {
    let sources = vec![src_text("Art. 37 DSGVO", SourceClass::BindingLaw, ART37)];
    let text = "Art. 37 DSGVO regelt die Benennung. Das ist oft sinnvoll.";
    let out = gated(text, &sources, &["Art. 37 DSGVO"]);
    assert_eq!(out.dropped_sentences, 1);
    assert_eq!(out.kept_sentences, 1);
    assert_eq!(out.answer.text, "Art. 37 DSGVO regelt die Benennung [1].");
    assert!(out
        .answer
        .removed_citations
        .iter()
        .any(|r| r.text == "Satz 2 der Modellantwort" && r.reason.contains("ohne Beleg")));
}

#[test]
fn a_cited_sentence_must_say_what_its_source_says() {
    assert_eq!(SUPPORT_MIN_OVERLAP, 0.5);
    let sources = vec![src_text("Art. 37 DSGVO", SourceClass::BindingLaw, ART37)];
    let text = "Der Verantwortliche benennt einen Datenschutzbeauftragten [1]. Gerichte im Ausland brauchen keinen Beauftragten, außer bei Steuerprüfungen [1]. Ja [1].";
    let out = gated(text, &sources, &["Art. 37 DSGVO"]);
    assert_eq!(
        out.answer.text,
        "Der Verantwortliche benennt einen Datenschutzbeauftragten [1]."
    );
    assert_eq!(out.dropped_sentences, 2);
    assert!(out
        .answer
        .removed_citations
        .iter()
        .any(|r| r.text == "Satz 2 der Modellantwort" && r.reason.contains("geht über")));
}

#[test]
fn streamed_sentences_are_gated_as_soon_as_they_are_complete() {
    let sources = vec![src_text("Art. 37 DSGVO", SourceClass::BindingLaw, ART37)];
    let text = "Der Verantwortliche benennt einen Datenschutzbeauftragten [1]. Rechtsgrundlage ist zusätzlich § 202a StGB [1]. Die Benennung regelt Art. 37 DSGVO [1].";
    let checks = NormChecks {
        extract: &extract,
        unresolved: &unresolved,
        inadmissible: &|_| None,
    };
    let norms = retrieved(&["Art. 37 DSGVO"]);
    let mut g = Gate::new(&sources, &norms, &checks, &terms);
    let mut stream = SentenceStream::new();
    let mut got: Vec<(usize, String)> = Vec::new();
    // token by token: a few characters at a time
    let chars: Vec<char> = text.chars().collect();
    for (i, piece) in chars.chunks(3).enumerate() {
        let piece: String = piece.iter().collect();
        for k in stream.push(&piece, &mut g) {
            got.push((i, k));
        }
    }
    got.extend(stream.finish(&mut g).into_iter().map(|k| (usize::MAX, k)));
    let texts: Vec<&str> = got.iter().map(|(_, k)| k.as_str()).collect();
    assert_eq!(
        texts,
        vec![
            "Der Verantwortliche benennt einen Datenschutzbeauftragten [1].",
            "Die Benennung regelt Art. 37 DSGVO [1]."
        ]
    );
    // the first sentence left the gate before the text was complete
    assert!(got[0].0 < chars.len() / 3 / 2, "{got:?}");
    let out = g.finish();
    assert_eq!(out.answer.text, texts.join(" "));
    assert_eq!(
        out.answer.text,
        gated(text, &sources, &["Art. 37 DSGVO"]).answer.text
    );
}

#[test]
fn no_binding_support_abstains() {
    let sources = vec![src("ErwG 97 DSGVO", SourceClass::Recital)];
    let text = "Das steht so in den Erwägungsgründen [1].";
    let out = gated(text, &sources, &["ErwG 97 DSGVO"]);
    assert!(out.answer.abstained);
    assert!(out.answer.citations.is_empty());
    assert!(out.answer.text.starts_with("Keine belastbare Quelle"));
    assert_eq!(
        out.answer.abstain_reason,
        Some(AbstainReason::NoSupportedStatement),
    );
}

/// An English question: the gate's removal reasons, the places of the
/// dropped sentences and its abstention are English, with no German
/// word of the fixed texts; a German one keeps them German.
#[test]
fn reasons_and_abstention_follow_the_questions_language() {
    let sources = vec![
        src_text("Art. 37 DSGVO", SourceClass::BindingLaw, ART37),
        src("ErwG 97 DSGVO", SourceClass::Recital),
    ];
    let checks = NormChecks {
        extract: &extract,
        unresolved: &unresolved,
        inadmissible: &|_| None,
    };
    let norms = retrieved(&["Art. 37 DSGVO", "ErwG 97 DSGVO"]);
    // a bare number, an unknown law, a marker to no source, and a
    // statement only a recital backs: nothing a binding source carries
    let text = "20 [1]. The basis is § 202a StGB [1]. See also [7]. That is in the recitals [2].";
    let run = |lang: Lang| {
        let mut g = Gate::new(&sources, &norms, &checks, &terms).in_lang(lang);
        for s in split_sentences(text) {
            g.sentence(&s);
        }
        g.finish().answer
    };
    let en = run(Lang::En);
    assert!(en.abstained, "{en:?}");
    assert!(en.text.starts_with("No reliable source: "), "{}", en.text);
    assert!(
        en.text.contains("Found: Art. 37 DSGVO, ErwG 97 DSGVO."),
        "{}",
        en.text
    );
    assert!(!en.removed_citations.is_empty());
    let german = ["Satz", "nennt", "Quelle", "keine", "Bitte", "nicht"];
    for t in std::iter::once(en.text.as_str()).chain(
        en.removed_citations
            .iter()
            .flat_map(|r| [r.text.as_str(), r.reason.as_str()]),
    ) {
        for w in german {
            assert!(!t.contains(w), "German `{w}` in an English text: {t}");
        }
    }
    assert!(en.removed_citations.iter().any(
        |r| r.text == "sentence 1 of the model's answer" && r.reason.contains("only a number")
    ));
    assert!(en
        .removed_citations
        .iter()
        .any(|r| r.text == "[7]" && r.reason.contains("points to no source")));
    let de = run(Lang::De);
    assert!(
        de.text.starts_with("Keine belastbare Quelle: "),
        "{}",
        de.text
    );
    assert!(de
        .removed_citations
        .iter()
        .any(|r| r.text == "Satz 1 der Modellantwort"));
    // the fixed text itself, for every reason
    for r in [
        AbstainReason::NoResults,
        AbstainReason::NoBindingSource,
        AbstainReason::NotRelevant,
        AbstainReason::ModelDeclined,
        AbstainReason::NoSupportedStatement,
        AbstainReason::GenerationFailed,
    ] {
        let t = abstention_text(r, &[], Lang::En);
        assert!(
            t.contains(r.text_en()) && t.ends_with("qualified person."),
            "{t}"
        );
        let t = abstention_text(r, &[], Lang::De);
        assert!(t.contains(r.text_de()), "{t}");
    }
}

#[test]
fn unmarked_sentence_is_attributed_by_overlap() {
    let sources = vec![
        src_text("Art. 88 DSGVO", SourceClass::BindingLaw, ART88),
        src_text("Art. 37 DSGVO", SourceClass::BindingLaw, ART37),
    ];
    let text = "Der Verantwortliche benennt einen Datenschutzbeauftragten, wenn die Kerntätigkeit in Verarbeitungsvorgängen besteht.";
    let out = gated(text, &sources, &["Art. 88 DSGVO", "Art. 37 DSGVO"]);
    assert_eq!(out.attributed_sentences, 1);
    assert!(!out.answer.abstained, "{:?}", out.answer);
    assert_eq!(out.answer.citations, vec!["Art. 37 DSGVO"]);
    assert!(
        out.answer.text.ends_with("besteht [2]."),
        "{}",
        out.answer.text
    );
    // One shared content term of five or more is not enough.
    let half = "Der Verantwortliche füttert Hunde und Katzen im Tierheim.";
    let out = gated(half, &sources, &[]);
    assert_eq!(out.attributed_sentences, 0);
    assert!(out.answer.abstained);
}

#[test]
fn attribution_needs_enough_content_words() {
    let sources = vec![src_text("Art. 37 DSGVO", SourceClass::BindingLaw, ART37)];
    // Both terms occur in the source, but two terms are too few.
    let short = "Verantwortliche benennen.";
    assert_eq!(terms(short).len(), 2, "{:?}", terms(short));
    assert!(terms(short).iter().all(|w| terms(ART37).contains(w)));
    let out = gated(short, &sources, &["Art. 37 DSGVO"]);
    assert_eq!(out.attributed_sentences, 0);
    assert_eq!(out.dropped_sentences, 1);
    assert_eq!(
        out.answer.abstain_reason,
        Some(AbstainReason::NoSupportedStatement)
    );
}

#[test]
fn a_bare_number_or_fragment_is_not_a_sentence() {
    const S38: &str = "Der Verantwortliche benennt eine Datenschutzbeauftragte oder einen Datenschutzbeauftragten, soweit er in der Regel mindestens 20 Personen ständig mit der automatisierten Verarbeitung personenbezogener Daten beschäftigt.";
    let sources = vec![src_text("§ 38 BDSG", SourceClass::BindingLaw, S38)];
    // the number is in the source, but "20" alone says nothing
    for fragment in ["20 [1].", "Mindestens 20 [1].", "§ 38 [1]."] {
        let out = gated(fragment, &sources, &["§ 38 BDSG"]);
        assert_eq!(out.kept_sentences, 0, "{fragment}");
        assert!(out.answer.abstained, "{fragment}");
        assert!(
            out.answer
                .removed_citations
                .iter()
                .any(|r| r.reason.contains("kein vollständiger Satz")),
            "{fragment}: {:?}",
            out.answer.removed_citations
        );
    }
    let text = "20 [1]. Ein Datenschutzbeauftragter ist zu benennen, soweit mindestens 20 Personen ständig mit der automatisierten Verarbeitung beschäftigt sind [1].";
    let out = gated(text, &sources, &["§ 38 BDSG"]);
    assert_eq!(out.kept_sentences, 1);
    assert_eq!(out.dropped_sentences, 1);
    assert!(!out.answer.text.starts_with("20"), "{}", out.answer.text);
    assert!(statement_words("Art. 37 DSGVO") < STATEMENT_MIN_WORDS);
    assert!(statement_words("Ja, nach Art. 37 DSGVO.") >= STATEMENT_MIN_WORDS);
}

#[test]
fn model_decline_abstains() {
    let sources = vec![src_text("Art. 37 DSGVO", SourceClass::BindingLaw, ART37)];
    let out = gated(
        "Keine belastbare Quelle vorhanden [1].",
        &sources,
        &["Art. 37 DSGVO"],
    );
    assert!(out.answer.abstained);
    assert_eq!(
        out.answer.abstain_reason,
        Some(AbstainReason::ModelDeclined)
    );
}

#[test]
fn sentence_split_respects_legal_abbreviations() {
    let s = split_sentences(
        "Nach Art. 37 Abs. 1 lit. b DSGVO gilt das. Außerdem z. B. § 38 BDSG [2]. Ende",
    );
    assert_eq!(s.len(), 3, "{s:?}");
    assert!(s[1].ends_with("[2]."), "{s:?}");
}

#[test]
fn marker_ranges_and_lists() {
    let mut removed = Vec::new();
    let (clean, found) = strip_markers(
        "Text [1, 3] und [2-3] und [Anm.]",
        3,
        &mut removed,
        Lang::De,
    );
    assert_eq!(found, vec![0, 1, 2]);
    assert!(removed.is_empty());
    assert_eq!(clean, "Text und und [Anm.]");
}
