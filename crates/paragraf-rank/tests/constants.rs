//! One pinning test per constant: each fails when the constant (or its
//! effect in the ranking) changes. Values are literals from the seed.

use paragraf_rank::constants as c;
use paragraf_rank::testing::{chunk, dense};
use paragraf_rank::{
    analyze_query, assess, rank, Candidate, Lexicon, QueryAnalysis, RankParams, Stage,
};
use paragraf_types::{Chunk, ChunkId, Domain, Jurisdiction, SearchResult, SourceClass, SourceRole};

fn q(text: &str) -> QueryAnalysis {
    analyze_query(text, &[], Lexicon::builtin())
}

fn one(q: &QueryAnalysis, c: &Chunk, cos: f32) -> SearchResult {
    rank(q, &[dense(c, cos)], &RankParams::default(), Stage::Full, 10).remove(0)
}

/// The explanation term `name` of a result (the test fails without it).
fn term<'a>(r: &'a SearchResult, name: &str) -> &'a paragraf_types::ScoreTerm {
    r.explanation
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no {name} in {:?}", r.explanation))
}

fn value(r: &SearchResult, name: &str) -> f64 {
    r.explanation
        .iter()
        .filter(|t| t.name == name)
        .map(|t| t.value)
        .sum()
}

fn none(_: &ChunkId) -> Option<&'static Chunk> {
    None
}

const DP: &[Domain] = &[Domain::DataProtection];

#[test]
fn pin_authority_coef() {
    assert_eq!(c::AUTHORITY_COEF, 0.40);
    let qa = QueryAnalysis::default();
    for (class, expect) in [
        (SourceClass::BindingLaw, 0.40),
        (SourceClass::Recital, 0.28),
        (SourceClass::OfficialGuidance, 0.24),
        (SourceClass::ControlStandard, 0.20),
        (SourceClass::Mapping, 0.12),
        (SourceClass::Unknown, 0.0),
    ] {
        let ch = chunk("X", "Art. 1")
            .class(class, SourceRole::Obligation)
            .build();
        assert!(
            (value(&one(&qa, &ch, 0.5), "authorityCoef") - expect).abs() < 1e-12,
            "{class}"
        );
    }
}

#[test]
fn pin_jurisdiction_gain() {
    assert_eq!(c::JURISDICTION_GAIN, 0.05);
    let r = one(
        &QueryAnalysis::default(),
        &chunk("DSGVO", "Art. 1").build(),
        0.5,
    );
    assert_eq!(value(&r, "jurisdictionGain"), 0.05);
    let int = chunk("NIST SP 800-53", "AC-7")
        .juris(Jurisdiction::Int)
        .build();
    let r = one(&QueryAnalysis::default(), &int, 0.5);
    assert_eq!(value(&r, "jurisdictionGain"), 0.0);
    assert_eq!(
        value(&r, "foreignPenalty"),
        0.0,
        "INT standards are never foreign"
    );
}

#[test]
fn pin_foreign_penalty() {
    assert_eq!(c::FOREIGN_PENALTY, 0.60);
    let ch = chunk("revDSG", "Art. 22").juris(Jurisdiction::Ch).build();
    assert_eq!(
        value(&one(&QueryAnalysis::default(), &ch, 0.5), "foreignPenalty"),
        -0.60
    );
    let uk = chunk("UK GDPR", "Art. 35").juris(Jurisdiction::Uk).build();
    assert_eq!(
        value(&one(&QueryAnalysis::default(), &uk, 0.5), "foreignPenalty"),
        -0.60
    );
    assert_eq!(
        value(&one(&q("Was gilt im UK?"), &uk, 0.5), "foreignPenalty"),
        0.0
    );
}

#[test]
fn pin_unknown_penalty() {
    assert_eq!(c::UNKNOWN_PENALTY, 0.08);
    let u = chunk("Blog", "Post")
        .class(SourceClass::Unknown, SourceRole::ImplementationGuidance)
        .build();
    assert_eq!(
        value(&one(&QueryAnalysis::default(), &u, 0.5), "unknownPenalty"),
        -0.08
    );
}

#[test]
fn pin_domain_match_gain() {
    assert_eq!(c::DOMAIN_MATCH_GAIN, 0.15);
    let ch = chunk("DSGVO", "Art. 37").domains(DP).build();
    assert_eq!(
        value(
            &one(&q("Datenschutzbeauftragter"), &ch, 0.5),
            "domainMatchGain"
        ),
        0.15
    );
}

#[test]
fn pin_domain_cover_gain() {
    assert_eq!(c::DOMAIN_COVER_GAIN, 0.05);
    let both = &[Domain::DataProtection, Domain::Telecom];
    // two wordings with a data-protection and a telecom signal
    for text in [
        "Dürfen Telekommunikationsanbieter die personenbezogenen Daten ihrer Kunden speichern?",
        "May a telecom provider keep the personal data of its subscribers?",
    ] {
        let qa = q(text);
        assert!(qa.domains.contains(&Domain::DataProtection), "{text}");
        assert!(qa.domains.contains(&Domain::Telecom), "{text}");
        let r = one(&qa, &chunk("TDDDG", "§ 9").domains(both).build(), 0.5);
        assert_eq!(value(&r, "domainMatchGain"), c::DOMAIN_MATCH_GAIN);
        assert_eq!(value(&r, "domainCoverGain"), 0.05, "{text}");
        let r = one(&qa, &chunk("DSGVO", "Art. 6").domains(DP).build(), 0.5);
        assert_eq!(value(&r, "domainCoverGain"), 0.0, "{text}");
    }
    // one question domain: a law of two domains gets no more
    let qa = q("Wie lange darf ein Arzt Patientendaten speichern?");
    let r = one(&qa, &chunk("TDDDG", "§ 9").domains(both).build(), 0.5);
    assert_eq!(value(&r, "domainCoverGain"), 0.0);
}

#[test]
fn pin_off_domain_penalty() {
    assert_eq!(c::OFF_DOMAIN_PENALTY, 0.10);
    let ch = chunk("DSGVO", "Art. 33").domains(DP).build();
    let qa = q("Meldepflicht für Sicherheitsvorfälle nach NIS2");
    assert_eq!(value(&one(&qa, &ch, 0.5), "offDomainPenalty"), -0.10);
    // not for non-binding sources
    let g = chunk("ENISA", "X")
        .class(SourceClass::OfficialGuidance, SourceRole::Interpretation)
        .domains(DP)
        .build();
    assert_eq!(value(&one(&qa, &g, 0.5), "offDomainPenalty"), 0.0);
}

#[test]
fn pin_scope_penalty() {
    assert_eq!(c::SCOPE_PENALTY, 0.25);
    let qa = q("Welche Rechte hat die betroffene Person?");
    for (norm, expect) in [
        ("§ 44", 0.0),
        ("§ 45", -0.25),
        ("§ 84", -0.25),
        ("§ 85", 0.0),
    ] {
        let ch = chunk("BDSG", norm).domains(DP).build();
        assert_eq!(value(&one(&qa, &ch, 0.5), "scopePenalty"), expect, "{norm}");
    }
}

#[test]
fn pin_scope_match_gain() {
    assert_eq!(c::SCOPE_MATCH_GAIN, 0.10);
    // two law-enforcement wordings: BDSG Teil 3 and the JI-RL are in scope
    for text in [
        "Wie lange darf die Kriminalpolizei Fingerabdrücke von Verdächtigen speichern?",
        "May a public prosecutor share case files with a foreign authority?",
    ] {
        let qa = q(text);
        assert!(qa.law_enforcement, "{text}");
        for (reg, norm, expect) in [
            ("BDSG", "§ 44", 0.0),
            ("BDSG", "§ 45", 0.10),
            ("BDSG", "§ 84", 0.10),
            ("BDSG", "§ 85", 0.0),
            ("JI-RL", "Art. 4", 0.10),
            ("DSGVO", "Art. 17", 0.0),
        ] {
            let ch = chunk(reg, norm).domains(DP).build();
            let r = one(&qa, &ch, 0.5);
            assert_eq!(value(&r, "scopeMatchGain"), expect, "{text}: {norm} {reg}");
            assert_eq!(
                value(&r, "scopePenalty"),
                if reg == "DSGVO" { -0.25 } else { 0.0 }
            );
        }
    }
    // a general data-protection question: no gain, the penalty instead
    let qa = q("Wie lange darf ein Onlineshop Bestelldaten speichern?");
    let r = one(&qa, &chunk("BDSG", "§ 75").domains(DP).build(), 0.5);
    assert_eq!(value(&r, "scopeMatchGain"), 0.0);
    assert_eq!(value(&r, "scopePenalty"), -0.25);
}

#[test]
fn pin_topic_gain() {
    assert_eq!(c::TOPIC_GAIN, 0.18);
    let qa = q("Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?");
    assert_eq!(
        value(
            &one(&qa, &chunk("DSGVO", "Art. 37").build(), 0.5),
            "topicGain"
        ),
        0.18
    );
    assert_eq!(
        value(
            &one(&qa, &chunk("DSGVO", "Art. 36").build(), 0.5),
            "topicGain"
        ),
        0.0
    );
}

#[test]
fn pin_superseded_penalty() {
    assert_eq!(c::SUPERSEDED_PENALTY, 0.50);
    let old = chunk("BDSG 1990", "§ 4f")
        .superseded("BDSG", None, "2018-05-24")
        .build();
    let r = one(&QueryAnalysis::default(), &old, 0.5);
    assert_eq!(value(&r, "supersededPenalty"), -0.50);
    assert_eq!(r.superseded_by.as_deref(), Some("BDSG"));
}

#[test]
fn pin_intent_lift_gain() {
    assert_eq!(c::INTENT_LIFT_GAIN, 0.10);
    let law = chunk("DSGVO", "Art. 35").build();
    let g = chunk("EDPB", "WP248")
        .class(SourceClass::OfficialGuidance, SourceRole::Interpretation)
        .juris(Jurisdiction::Eu)
        .build();
    let qa = q("Was sagt der EDPB?");
    let r = rank(
        &qa,
        &[dense(&law, 0.8), dense(&g, 0.8)],
        &RankParams::default(),
        Stage::Full,
        10,
    );
    assert_eq!(r[0].norm, "WP248");
    assert!((r[0].score - r[1].score - 0.10).abs() < 1e-12);
}

#[test]
fn pin_intent_lift_margin() {
    assert_eq!(c::INTENT_LIFT_MARGIN, 0.05);
    let law = chunk("DSGVO", "Art. 35").build();
    let g = chunk("EDPB", "WP248")
        .class(SourceClass::OfficialGuidance, SourceRole::Interpretation)
        .juris(Jurisdiction::Eu)
        .build();
    let qa = q("Was sagt der EDPB?");
    let lifted = |gs: f32| {
        let r = rank(
            &qa,
            &[dense(&law, 0.75), dense(&g, gs)],
            &RankParams::default(),
            Stage::Full,
            10,
        );
        r[0].norm == "WP248"
    };
    assert!(lifted(0.7001), "within 0.05");
    assert!(!lifted(0.6999), "outside 0.05");
}

#[test]
fn pin_control_pool_gain() {
    assert_eq!(c::CONTROL_POOL_GAIN, 0.15);
    let ch = chunk("NIST SP 800-53", "IA-5")
        .class(SourceClass::ControlStandard, SourceRole::ControlStandard)
        .juris(Jurisdiction::Int)
        .build();
    let qa = q("Welche Controls für Passwörter?");
    assert_eq!(value(&one(&qa, &ch, 0.5), "controlPoolGain"), 0.15);
    assert_eq!(
        value(
            &one(&q("Was gilt für Passwörter?"), &ch, 0.5),
            "controlPoolGain"
        ),
        0.0,
        "only under control intent"
    );
    let ob = chunk("DSGVO", "Art. 32").build();
    assert_eq!(
        value(&one(&qa, &ob, 0.5), "controlPoolGain"),
        0.0,
        "obligation is not in the pool"
    );
}

#[test]
fn pin_control_role_bonus() {
    assert_eq!(c::CONTROL_ROLE_BONUS_OPERATIONAL_REQUIREMENT, 0.100);
    assert_eq!(c::CONTROL_ROLE_BONUS_PROCEDURAL_REQUIREMENT, 0.075);
    assert_eq!(c::CONTROL_ROLE_BONUS_CONTROL_STANDARD, 0.050);
    assert_eq!(c::CONTROL_ROLE_BONUS_IMPLEMENTATION_GUIDANCE, 0.000);
    let qa = q("Welche Controls für Passwörter?");
    for (role, expect) in [
        (SourceRole::OperationalRequirement, 0.100),
        (SourceRole::ProceduralRequirement, 0.075),
        (SourceRole::ControlStandard, 0.050),
        (SourceRole::ImplementationGuidance, 0.000),
    ] {
        let ch = chunk("X", "1").role(role).build();
        assert_eq!(
            value(&one(&qa, &ch, 0.5), "controlRoleBonus"),
            expect,
            "{role}"
        );
    }
}

#[test]
fn pin_assess_connected_cap() {
    assert_eq!(c::ASSESS_CONNECTED_CAP, 12);
    let refs: Vec<String> = (1..=30).map(|i| format!("Art. {i} CRA")).collect();
    let r: Vec<&str> = refs.iter().map(String::as_str).collect();
    let top = chunk("DSGVO", "Art. 99").refs(&r, &[]).build();
    let res = rank(
        &QueryAnalysis::default(),
        &[dense(&top, 0.8)],
        &RankParams::default(),
        Stage::Full,
        10,
    );
    let lookup = |_: &ChunkId| Some(&top);
    assert_eq!(
        assess(
            &QueryAnalysis::default(),
            &res,
            &lookup,
            &[],
            &[],
            &RankParams::default()
        )
        .connected_norms
        .len(),
        12
    );
}

#[test]
fn pin_assess_cross_regime_top_n() {
    assert_eq!(c::ASSESS_CROSS_REGIME_TOP_N, 5);
    let dp: Vec<Chunk> = (1..=6)
        .map(|i| chunk("DSGVO", &format!("Art. {i}")).build())
        .collect();
    let cra = chunk("CRA", "Art. 13").build();
    let run = |n_dp: usize| {
        let mut c: Vec<Candidate<'_>> = dp[..n_dp].iter().map(|x| dense(x, 0.9)).collect();
        c.push(dense(&cra, 0.1));
        let qa = QueryAnalysis::default();
        let r = rank(&qa, &c, &RankParams::default(), Stage::Full, 10);
        assess(&qa, &r, &none, &[], &[], &RankParams::default()).cross_regime
    };
    assert!(run(4), "CRA at rank 5 counts");
    assert!(!run(5), "CRA at rank 6 does not");
}

#[test]
fn pin_assess_review_margin() {
    assert_eq!(c::ASSESS_REVIEW_MARGIN, 0.05);
    let a = chunk("DSGVO", "Art. 1").build();
    let b = chunk("DSGVO", "Art. 2").build();
    let flagged = |gap: f32| {
        let qa = q("Datenschutz personenbezogener Daten");
        let r = rank(
            &qa,
            &[dense(&a, 0.8), dense(&b, 0.8 - gap)],
            &RankParams::default(),
            Stage::Full,
            10,
        );
        assess(&qa, &r, &none, &[], &[], &RankParams::default()).human_review_flag
    };
    assert!(flagged(0.049));
    assert!(!flagged(0.051));
}

#[test]
fn pin_abstain_semantic_floor() {
    assert_eq!(c::ABSTAIN_SEMANTIC_FLOOR, 0.35);
    let a = chunk("DSGVO", "Art. 37").build();
    let qa = q("Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?");
    let gate = |cos: f32| {
        let r = rank(
            &qa,
            &[dense(&a, cos)],
            &RankParams::default(),
            Stage::Full,
            10,
        );
        paragraf_rank::relevance_gate(&qa, &r, &RankParams::default()).is_some()
    };
    assert!(gate(0.349));
    assert!(!gate(0.351));
}

#[test]
fn pin_fusion_defaults() {
    assert_eq!(
        (
            c::DENSE_WEIGHT,
            c::LEXICAL_WEIGHT,
            c::SPARSE_WEIGHT,
            c::DENSE_FLOOR,
            c::DENSE_CEIL
        ),
        (0.55, 0.30, 0.15, 0.0, 1.0)
    );
    assert_eq!(
        (
            c::LEXICAL_NORM_FLOOR,
            c::SPARSE_NORM_FLOOR,
            c::EXACT_FLOOR,
            c::RRF_K
        ),
        (10.0, 0.2, 0.75, 60.0)
    );
    let x = chunk("DSGVO", "Art. 1").build();
    let y = chunk("DSGVO", "Art. 2").build();
    let qa = QueryAnalysis::default();
    let cands = [
        Candidate {
            chunk: &x,
            dense: Some(0.8),
            lexical: Some(20.0),
            sparse: Some(0.1),
            heading: None,
            exact: false,
            pairs: None,
        },
        Candidate {
            chunk: &y,
            dense: Some(0.6),
            lexical: Some(5.0),
            sparse: None,
            heading: None,
            exact: true,
            pairs: None,
        },
    ];
    let r = rank(&qa, &cands, &RankParams::default(), Stage::Fused, 10);
    // x: (0.55·0.8 + 0.30·20/20 + 0.15·0.1/0.2) / 1.0
    let rx = 0.55 * 0.8 + 0.30 + 0.15 * 0.5;
    assert!((r.iter().find(|z| z.norm == "Art. 1").unwrap().raw_semantic - rx).abs() < 1e-6);
    // y: 0.55·0.6 + 0.30·5/20 = 0.405 → exact floor 0.75
    assert!((r.iter().find(|z| z.norm == "Art. 2").unwrap().raw_semantic - 0.75).abs() < 1e-6);
    // the BM25 floor: a weak best match (5 < 10) is not inflated to 1
    let weak = [Candidate {
        chunk: &x,
        dense: None,
        lexical: Some(5.0),
        sparse: None,
        heading: None,
        exact: false,
        pairs: None,
    }];
    let r = rank(&qa, &weak, &RankParams::default(), Stage::LexicalOnly, 10);
    assert!((r[0].raw_semantic - 0.5).abs() < 1e-9);
}

#[test]
fn a_candidate_without_a_vector_takes_the_median_dense_value() {
    // the lexical tier of a `--scale` index: archive chunks have no vector
    let x = chunk("DSGVO", "Art. 1").build();
    let z = chunk("DSGVO", "Art. 2").build();
    let y = chunk("GwG", "§ 10").build();
    let cand = |c, dense, lexical| Candidate {
        chunk: c,
        dense,
        lexical: Some(lexical),
        sparse: None,
        heading: None,
        exact: false,
        pairs: None,
    };
    let cands = [
        cand(&x, Some(0.8), 10.0),
        cand(&z, Some(0.6), 5.0),
        cand(&y, None, 20.0),
    ];
    let qa = QueryAnalysis::default();
    let r = rank(&qa, &cands, &RankParams::default(), Stage::Fused, 10);
    let hit = |n: &str| r.iter().find(|h| h.norm == n).unwrap().clone();
    // lower median of (0.6, 0.8) = 0.6: y = (0.55·0.6 + 0.30·20/20) / 0.85
    let y_raw = hit("§ 10").raw_semantic;
    assert!((y_raw - (0.55 * 0.6 + 0.30) / 0.85).abs() < 1e-6, "{y_raw}");
    assert!(hit("§ 10").explanation[0].reason.contains("Median"));
    // x keeps its own: (0.55·0.8 + 0.30·0.5) / 0.85
    let x_raw = hit("Art. 1").raw_semantic;
    assert!(
        (x_raw - (0.55 * 0.8 + 0.30 * 0.5) / 0.85).abs() < 1e-6,
        "{x_raw}"
    );
    // RRF: the median dense rank of the two ranked (1) and lexical rank 1
    let p = RankParams::from_json_str(r#"{"fusionMethod":"rrf"}"#).unwrap();
    let r = rank(&qa, &cands, &p, Stage::Fused, 10);
    let y_rrf = r.iter().find(|h| h.norm == "§ 10").unwrap().raw_semantic;
    assert!((y_rrf - 1.0).abs() < 1e-12, "{y_rrf}");
    // a list where every candidate has a vector is untouched
    let all = [cand(&x, Some(0.8), 10.0), cand(&z, Some(0.6), 5.0)];
    let r = rank(&qa, &all, &RankParams::default(), Stage::Fused, 10);
    assert!(r
        .iter()
        .all(|h| !h.explanation[0].reason.contains("Median")));
}

#[test]
fn rrf_fusion_is_scale_free() {
    let x = chunk("DSGVO", "Art. 1").build();
    let y = chunk("DSGVO", "Art. 2").build();
    let p = RankParams::from_json_str(r#"{"fusionMethod":"rrf"}"#).unwrap();
    let cands = [
        Candidate {
            chunk: &x,
            dense: Some(0.9),
            lexical: Some(30.0),
            sparse: None,
            heading: None,
            exact: false,
            pairs: None,
        },
        Candidate {
            chunk: &y,
            dense: Some(0.8),
            lexical: Some(1.0),
            sparse: None,
            heading: None,
            exact: false,
            pairs: None,
        },
    ];
    let r = rank(&QueryAnalysis::default(), &cands, &p, Stage::Fused, 10);
    assert!(
        (r[0].raw_semantic - 1.0).abs() < 1e-12,
        "rank 1 in every channel = 1"
    );
    let expect = (0.55 / 62.0 + 0.30 / 62.0) / (0.85 / 61.0);
    assert!((r[1].raw_semantic - expect).abs() < 1e-12);
}

#[test]
fn pin_heading_defaults() {
    assert_eq!(
        (
            c::HEADING_MIN_COVERAGE,
            c::HEADING_MIN_WEIGHT,
            c::HEADING_RELATIVE_MIN,
            c::HEADING_MAX_NORMS
        ),
        (0.6, 7.0, 0.8, 3)
    );
    assert_eq!(
        (
            c::HEADING_COMMON_SHARE,
            c::HEADING_COMMON_CREDIT,
            c::HEADING_COMMON_MIN_NORMS
        ),
        (0.5, 0.5, 10)
    );
    assert_eq!(c::SCOPE_NORMS_PER_LAW, 2);
    let p = paragraf_rank::RankParams::default();
    assert_eq!(
        (p.heading_common_share, p.heading_common_credit),
        (c::HEADING_COMMON_SHARE, c::HEADING_COMMON_CREDIT)
    );
    // a heading match gives exactly topicGain, named after the heading
    let x = chunk("HGB", "§ 257").build();
    // (no lexicon topic: the heading alone names the norm)
    let mut qa = QueryAnalysis::default();
    qa.add_heading_matches(vec![paragraf_rank::HeadingMatch {
        norm: paragraf_types::NormRef("§ 257 HGB".into()),
        heading: "Überschrift „Aufbewahrung von Unterlagen. Aufbewahrungsfristen“".into(),
        terms: vec!["aufbewahr".into()],
        coverage: 0.7,
        weight: 9.0,
    }]);
    let r = one(&qa, &x, 0.8);
    assert_eq!(value(&r, "topicGain"), c::TOPIC_GAIN);
    let t = term(&r, "topicGain");
    assert!(t.reason.contains("Aufbewahrungsfristen"), "{}", t.reason);
    // a lexicon topic and a heading on the same norm give topicGain once
    let y = chunk("DSGVO", "Art. 37").build();
    let mut qa = q("Wann ist ein Datenschutzbeauftragter zu benennen?");
    assert!(qa.topic_norms.iter().any(|n| n.as_str() == "Art. 37 DSGVO"));
    qa.add_heading_matches(vec![paragraf_rank::HeadingMatch {
        norm: paragraf_types::NormRef("Art. 37 DSGVO".into()),
        heading: "Überschrift „Benennung eines Datenschutzbeauftragten“".into(),
        terms: vec!["benenn".into(), "datenschutzbeauftragt".into()],
        coverage: 1.0,
        weight: 12.0,
    }]);
    assert_eq!(value(&one(&qa, &y, 0.8), "topicGain"), c::TOPIC_GAIN);
}

#[test]
fn pin_law_title_defaults() {
    assert_eq!(
        (
            c::LAW_TITLE_GAIN,
            c::LAW_TITLE_MIN_LIFT,
            c::LAW_TITLE_MAX_LAWS,
            c::LAW_TITLE_TOP_N,
            paragraf_rank::headings::LONG_TITLE_NOUNS
        ),
        (0.10, 30.0, 2, 20, 3)
    );
    // a law named by title gives its chunks exactly lawTitleGain, with the
    // title and the matched words in the explanation; other laws get nothing
    let x = chunk("SeilbG", "§ 3").build();
    let y = chunk("HafO", "§ 3").build();
    let mut qa = QueryAnalysis::default();
    qa.add_law_matches(vec![paragraf_rank::LawMatch {
        regulation: "SeilbG".into(),
        title: "Seilbahn".into(),
        terms: vec!["seilbahn".into()],
        lift: 80.0,
    }]);
    let r = one(&qa, &x, 0.8);
    assert_eq!(value(&r, "lawTitleGain"), c::LAW_TITLE_GAIN);
    let t = term(&r, "lawTitleGain");
    assert!(
        t.reason.contains("Seilbahn") && t.reason.contains("80×"),
        "{}",
        t.reason
    );
    assert_eq!(value(&one(&qa, &y, 0.8), "lawTitleGain"), 0.0);
}

#[test]
fn pin_recital_bridge_default() {
    assert_eq!(
        (c::RECITAL_BRIDGE, c::RECITAL_BRIDGE_MARGIN),
        (false, 0.005)
    );
    assert!(!RankParams::default().recital_bridge);
    let on = RankParams::from_json_str(r#"{"recitalBridge": true}"#).unwrap();
    assert!(on.recital_bridge);
}

#[test]
fn pin_norm_lexical_defaults() {
    assert_eq!((c::NORM_LEXICAL_MIX, c::NORM_LEXICAL_TOP_N), (0.2, 20));
    let p = RankParams::default();
    assert_eq!((p.norm_lexical_mix, p.norm_lexical_top_n), (0.2, 20));
    let off = RankParams::from_json_str(r#"{"normLexicalMix": 0.0}"#).unwrap();
    assert_eq!(off.norm_lexical_mix, 0.0);
    let bad = RankParams::from_json_str(r#"{"normLexicalMix": 1.5}"#);
    assert!(bad.is_err(), "a share above 1 is refused");
}

#[test]
fn pin_pair_lexical_gain() {
    assert_eq!((c::PAIR_LEXICAL_GAIN, c::PAIR_GAP), (1.0, 2));
    assert_eq!(RankParams::default().pair_lexical_gain, 1.0);
    // two chunks alike but for the question's word pairs: the one that
    // writes them together has its BM25 lifted to bm25 · (1 + gain · share)
    let x = chunk("DORA", "Art. 45").build();
    let y = chunk("DORA", "Art. 28").build();
    let qa = QueryAnalysis::default();
    let cand = |chunk, pairs| Candidate {
        chunk,
        dense: Some(0.8),
        lexical: Some(20.0),
        sparse: None,
        heading: None,
        exact: false,
        pairs,
    };
    let cands = [cand(&x, Some(0.0)), cand(&y, Some(0.5))];
    let p = RankParams::default();
    let r = rank(&qa, &cands, &p, Stage::LexicalOnly, 10);
    assert_eq!(r[0].norm, "Art. 28", "{r:?}");
    let got = |n: &str| r.iter().find(|z| z.norm == n).unwrap().raw_semantic;
    assert!(
        (got("Art. 45") - 20.0 / 30.0).abs() < 1e-6,
        "{}",
        got("Art. 45")
    );
    let why = &r[0].explanation[0].reason;
    assert!(
        why.contains("Wortpaare der Frage 0.50, pairLexicalGain 1"),
        "{why}"
    );
    // off: the tie breaks by chunk id
    let off = RankParams::from_json_str(r#"{"pairLexicalGain": 0.0}"#).unwrap();
    let r = rank(&qa, &cands, &off, Stage::LexicalOnly, 10);
    assert!((r[0].raw_semantic - r[1].raw_semantic).abs() < 1e-9);
    assert!(RankParams::from_json_str(r#"{"pairLexicalGain": -1.0}"#).is_err());
}

#[test]
fn pin_heading_vector_defaults() {
    assert_eq!(
        (
            c::HEADING_WEIGHT,
            c::HEADING_FLOOR,
            c::HEADING_CEIL,
            c::HEADING_TOP_N
        ),
        (0.0, 0.0, 1.0, 20)
    );
    let p = RankParams::default()
        .overlay(&serde_json::json!({"headingWeight": 0.35}))
        .unwrap();
    let hw = 0.35;
    // the heading cosine is a fourth fusion channel: Σ w·x / Σ w
    let x = chunk("DSGVO", "Art. 1").build();
    let y = chunk("DSGVO", "Art. 2").build();
    let qa = QueryAnalysis::default();
    let cands = [
        Candidate {
            chunk: &x,
            dense: Some(0.8),
            lexical: Some(20.0),
            sparse: None,
            heading: Some(0.9),
            exact: false,
            pairs: None,
        },
        Candidate {
            chunk: &y,
            dense: Some(0.8),
            lexical: Some(20.0),
            sparse: None,
            heading: Some(0.5),
            exact: false,
            pairs: None,
        },
    ];
    let r = rank(&qa, &cands, &p, Stage::Fused, 10);
    let wsum = c::DENSE_WEIGHT + c::LEXICAL_WEIGHT + hw;
    let raw = |h: f64| (c::DENSE_WEIGHT * 0.8 + c::LEXICAL_WEIGHT + hw * h) / wsum;
    let got = |n: &str| r.iter().find(|z| z.norm == n).unwrap().raw_semantic;
    assert!((got("Art. 1") - raw(0.9)).abs() < 1e-6, "{}", got("Art. 1"));
    assert!((got("Art. 2") - raw(0.5)).abs() < 1e-6, "{}", got("Art. 2"));
    assert_eq!(
        r[0].norm, "Art. 1",
        "the nearer heading wins a tie of the other channels"
    );
    let why = &r[0].explanation[0].reason;
    assert!(why.contains("Überschrift cos 0.900"), "{why}");
    // the calibration maps headingFloor..headingCeil onto 0..1
    let cal = p
        .overlay(&serde_json::json!({"headingFloor": 0.5, "headingCeil": 1.0}))
        .unwrap();
    let r = rank(&qa, &cands, &cal, Stage::Fused, 10);
    let raw_cal = |h: f64| (c::DENSE_WEIGHT * 0.8 + c::LEXICAL_WEIGHT + hw * h) / wsum;
    let got = |n: &str| r.iter().find(|z| z.norm == n).unwrap().raw_semantic;
    assert!((got("Art. 1") - raw_cal(0.8)).abs() < 1e-6);
    assert!((got("Art. 2") - raw_cal(0.0)).abs() < 1e-6);
    // dense only ignores it; so does the default weight 0
    let r = rank(&qa, &cands, &p, Stage::DenseOnly, 10);
    assert!((r[0].raw_semantic - 0.8).abs() < 1e-6);
    let r = rank(&qa, &cands, &RankParams::default(), Stage::Fused, 10);
    let got = |n: &str| r.iter().find(|z| z.norm == n).unwrap().raw_semantic;
    assert_eq!(got("Art. 1"), got("Art. 2"));
}

#[test]
fn pin_citation_gain() {
    assert_eq!((c::CITATION_GAIN, c::CITATION_SATURATION), (0.05, 20.0));
    let cited = |n: usize| {
        let mut x = chunk("DSGVO", "Art. 15").build();
        x.references_in = (0..n)
            .map(|i| paragraf_types::NormRef(format!("§ {i} BDSG")))
            .collect();
        x
    };
    let qa = QueryAnalysis::default();
    // nobody cites it: no term at all
    let r = one(&qa, &cited(0), 0.8);
    assert!(r.explanation.iter().all(|t| t.name != "citationGain"));
    // a few citations count, many saturate at citationGain
    let v = |n: usize| value(&one(&qa, &cited(n), 0.8), "citationGain");
    let expect3 = c::CITATION_GAIN * (4f64).ln() / (21f64).ln();
    assert!((v(3) - expect3).abs() < 1e-12, "{}", v(3));
    assert!((v(20) - c::CITATION_GAIN).abs() < 1e-12);
    assert!((v(60) - c::CITATION_GAIN).abs() < 1e-12);
    let t = one(&qa, &cited(3), 0.8);
    let why = &term(&t, "citationGain").reason;
    assert!(why.contains("von 3 Normen zitiert"), "{why}");
    // binding law only
    let mut g = cited(30);
    g.source_class = SourceClass::ControlStandard;
    assert!(one(&qa, &g, 0.8)
        .explanation
        .iter()
        .all(|t| t.name != "citationGain"));
}

#[test]
fn pin_synonym_default() {
    assert_eq!(c::SYNONYM_BM25_WEIGHT, 0.6);
    assert_eq!(
        RankParams::default().synonym_bm25_weight,
        c::SYNONYM_BM25_WEIGHT
    );
    let off = RankParams::from_json_str(r#"{"synonymBm25Weight": 0}"#).unwrap();
    assert_eq!(off.synonym_bm25_weight, 0.0);
}

#[test]
fn pin_jurisdiction_top_n() {
    assert_eq!(c::JURISDICTION_TOP_N, 20);
    assert_eq!(
        paragraf_rank::RankParams::default().jurisdiction_top_n,
        c::JURISDICTION_TOP_N
    );
    // the default jurisdictions are the ones a question that names none gets
    let qa = q("Wann ist ein Datenschutzbeauftragter zu benennen?");
    assert_eq!(
        qa.jurisdictions,
        paragraf_rank::query::DEFAULT_JURISDICTIONS.to_vec()
    );
    assert!(!qa.jurisdiction_named);
}

#[test]
fn pin_answer_type_gain() {
    use paragraf_rank::AnswerType;
    assert_eq!(c::ANSWER_TYPE_GAIN, 0.15);
    assert_eq!(RankParams::default().answer_type_gain, c::ANSWER_TYPE_GAIN);
    // the question asks for a period; the caller found that § 12 states one
    let mut qa =
        q("Nach wie vielen Jahren ist der Anspruch auf Ersatz eines Produktschadens verjährt?");
    assert_eq!(qa.answer_types, vec![AnswerType::Deadline]);
    qa.add_answer_norms(vec![(
        paragraf_types::NormRef("§ 12 ProdHaftG".into()),
        AnswerType::Deadline,
    )]);
    let states = one(&qa, &chunk("ProdHaftG", "§ 12").build(), 0.5);
    assert_eq!(value(&states, "answerTypeGain"), 0.15);
    assert!(
        term(&states, "answerTypeGain")
            .reason
            .contains("eine Frist"),
        "{:?}",
        states.explanation
    );
    // a norm that states no period gets nothing, and below topicGain a
    // named subject keeps its lead when it states the fact itself
    let other = one(&qa, &chunk("ProdHaftG", "§ 1").build(), 0.5);
    assert_eq!(value(&other, "answerTypeGain"), 0.0);
    const { assert!(c::ANSWER_TYPE_GAIN < c::TOPIC_GAIN) };
    // 0 switches it off
    let off = RankParams::from_json_str(r#"{"answerTypeGain": 0}"#).unwrap();
    let r = rank(
        &qa,
        &[dense(&chunk("ProdHaftG", "§ 12").build(), 0.5)],
        &off,
        Stage::Full,
        10,
    );
    assert!(r[0].explanation.iter().all(|t| t.name != "answerTypeGain"));
}

#[test]
fn pin_duty_heading_gain() {
    assert_eq!(c::DUTY_HEADING_GAIN, 0.06);
    assert_eq!(
        RankParams::default().duty_heading_gain,
        c::DUTY_HEADING_GAIN
    );
    // the question asks who must act; the caller found that § 20 is headed
    // as the duty
    let mut qa = q("Wer muss einen wirtschaftlich Berechtigten ins Register melden?");
    assert!(qa.duty_intent);
    qa.add_duty_norms(vec![paragraf_types::NormRef("§ 20 GwG".into())]);
    let duty = one(&qa, &chunk("GwG", "§ 20").build(), 0.5);
    assert_eq!(value(&duty, "dutyHeadingGain"), 0.06);
    assert!(
        term(&duty, "dutyHeadingGain").reason.contains("Pflicht"),
        "{:?}",
        duty.explanation
    );
    // the register's norm on the same subject gets nothing; the gain stays
    // under answerTypeGain and topicGain
    let other = one(&qa, &chunk("GwG", "§ 18").build(), 0.5);
    assert_eq!(value(&other, "dutyHeadingGain"), 0.0);
    const { assert!(c::DUTY_HEADING_GAIN < c::ANSWER_TYPE_GAIN) };
    // 0 switches it off
    let off = RankParams::from_json_str(r#"{"dutyHeadingGain": 0}"#).unwrap();
    let r = rank(
        &qa,
        &[dense(&chunk("GwG", "§ 20").build(), 0.5)],
        &off,
        Stage::Full,
        10,
    );
    assert!(r[0].explanation.iter().all(|t| t.name != "dutyHeadingGain"));
}
