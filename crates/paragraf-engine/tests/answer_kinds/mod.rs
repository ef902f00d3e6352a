//! The kind of fact a question asks for: a number, a duty, a consequence
//! (`answerTypeGain`, `dutyHeadingGain`), on the fixture index of `engine.rs`.

use super::{engine, DPO};
use paragraf_engine::SearchOptions;

/// Search options that keep the `k` best results.
fn top(k: usize) -> SearchOptions {
    SearchOptions {
        top_k: k,
        ..SearchOptions::default()
    }
}

#[test]
fn a_norm_that_states_the_asked_number_gets_the_answer_type_gain() {
    let e = engine_or_skip!();
    let opts = top(50);
    let out = e
        .search(
            "Ab wie vielen Leuten, die mit Kundendaten arbeiten, braucht ein Betrieb jemanden für den Datenschutz?",
            &opts,
        )
        .unwrap();
    assert_eq!(
        out.analysis.answer_types,
        vec![paragraf_rank::AnswerType::Threshold]
    );
    let gain = |norm: &str| {
        out.response
            .results
            .iter()
            .filter(|r| format!("{} {}", r.norm, r.regulation) == norm)
            .flat_map(|r| r.explanation.iter())
            .any(|t| t.name == "answerTypeGain")
    };
    // § 38 BDSG: „mindestens 20 Personen“; § 26 BDSG states no head count
    assert!(gain("§ 38 BDSG"), "{:?}", out.analysis.answer_norms);
    assert!(!gain("§ 26 BDSG"), "{:?}", out.analysis.answer_norms);
    // a question that asks for no number gives no such term
    let plain = e.search(DPO, &opts).unwrap();
    assert!(plain.analysis.answer_norms.is_empty());
    assert!(plain
        .response
        .results
        .iter()
        .all(|r| r.explanation.iter().all(|t| t.name != "answerTypeGain")));
}

#[test]
fn under_duty_intent_only_norms_headed_as_a_duty_get_the_duty_gain() {
    // the fixture corpus heads no norm as a duty (its DSGVO, BDSG and DSG
    // extracts): the engine marks none, and no result takes the gain; the
    // gain itself is pinned in the rank crate (`pin_duty_heading_gain`)
    let e = engine_or_skip!();
    let opts = top(50);
    let out = e
        .search(
            "Welche Pflichten hat ein Unternehmen, wenn Kundendaten verloren gehen?",
            &opts,
        )
        .unwrap();
    assert!(out.analysis.duty_intent, "{:?}", out.analysis.signals);
    let lex = paragraf_rank::Lexicon::builtin();
    for r in &out.response.results {
        assert!(
            !lex.heading_names_duty(&r.title),
            "fixture changed: {}",
            r.title
        );
    }
    assert!(
        out.analysis.duty_norms.is_empty(),
        "{:?}",
        out.analysis.duty_norms
    );
    let gained = |r: &paragraf_types::SearchResult| {
        r.explanation.iter().any(|t| t.name == "dutyHeadingGain")
    };
    assert!(out.response.results.iter().all(|r| !gained(r)));
    // a question that asks for no duty has no duty intent
    let plain = e.search("Ab wann gilt die KI-Verordnung?", &opts).unwrap();
    assert!(!plain.analysis.duty_intent);
    assert!(plain.response.results.iter().all(|r| !gained(r)));
}

/// „Was droht …“, "What happens if …": the named law's norm headed as its
/// sanctions (§ 42 BDSG „Strafvorschriften“, standing in for the fines the
/// fixture lacks) states the kind of fact asked for and comes first,
/// though the question's words name the duties (own phrasings in both
/// languages; `scripts/consequence-battery.py` has twelve per law).
#[test]
fn a_consequence_question_gets_the_named_laws_sanction_norm_first() {
    let e = engine_or_skip!();
    let opts = top(20);
    for q in [
        "Was droht einer Firma, die ihre Pflichten nach dem BDSG verletzt?",
        "What happens if a company does not comply with the BDSG?",
    ] {
        let out = e.search(q, &opts).unwrap();
        assert!(
            out.analysis.consequence_intent,
            "{q}: {:?}",
            out.analysis.signals
        );
        let top = &out.response.results[0];
        assert_eq!(
            format!("{} {}", top.norm, top.regulation),
            "§ 42 BDSG",
            "{q}: {:?}",
            out.analysis.answer_norms
        );
        assert!(
            top.explanation.iter().any(|t| t.name == "answerTypeGain"),
            "{q}"
        );
    }
}

/// „Was regelt das BDSG?“: a law that heads no norm as its subject matter
/// or purpose says what it governs in its first norm (§ 1 BDSG
/// „Anwendungsbereich des Gesetzes“), which the purpose intent puts first
/// (own phrasings; the real questions were about § 1 ProdHaftG „Haftung“).
#[test]
fn what_a_law_without_a_purpose_norm_governs_is_its_first_norm() {
    let e = engine_or_skip!();
    let opts = top(10);
    for q in ["Was regelt das BDSG?", "What does the BDSG regulate?"] {
        let out = e.search(q, &opts).unwrap();
        assert!(
            out.analysis.purpose_intent,
            "{q}: {:?}",
            out.analysis.signals
        );
        let first = out
            .analysis
            .heading_matches
            .iter()
            .find(|m| m.terms == ["first norm"])
            .map(|m| m.norm.as_str());
        assert_eq!(
            first,
            Some("§ 1 BDSG"),
            "{q}: {:?}",
            out.analysis.heading_matches
        );
        let top = &out.response.results[0];
        assert_eq!(
            format!("{} {}", top.norm, top.regulation),
            "§ 1 BDSG",
            "{q}"
        );
    }
}

/// „Was ist Pseudonymisierung?“: the law's definition of the asked term
/// states the kind of fact asked for; a yes/no question whether something
/// is a defined term asks whether, and gives it none (own phrasings).
#[test]
fn a_definition_question_gets_the_definition_as_the_asked_kind_of_fact() {
    let e = engine_or_skip!();
    let definitions = |q: &paragraf_engine::QueryAnalysis| -> Vec<String> {
        q.answer_norms
            .iter()
            .filter(|(_, k)| *k == paragraf_rank::AnswerType::Definition)
            .map(|(n, _)| n.0.clone())
            .collect()
    };
    for question in [
        "Was ist Pseudonymisierung?",
        "Was bedeutet Profiling nach der DSGVO?",
    ] {
        let q = e.analyze(question);
        assert!(q.definition_intent, "{question}: {:?}", q.signals);
        assert_eq!(definitions(&q), ["Art. 4 DSGVO"], "{question}");
    }
    let q = e.analyze("Sind Kfz-Kennzeichen personenbezogene Daten?");
    assert!(q.definition_intent, "{:?}", q.signals);
    assert!(definitions(&q).is_empty(), "{:?}", q.answer_norms);
}
