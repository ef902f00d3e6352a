//! Golden ranking tests on fixed, hand-built candidate lists: one per failure
//! class the seed chapters name, plus the seed's live example (05).

use paragraf_rank::testing::{chunk, dense};
use paragraf_rank::{
    analyze_query, assess, explain_table, rank, relevance_gate, Candidate, Lexicon, QueryAnalysis,
    RankParams, Stage,
};
use paragraf_types::{
    Chunk, ChunkId, ControlMapping, Domain, EvidenceItem, Jurisdiction, MappingKind, NormRef,
    ReviewCode, SearchResult, SourceClass, SourceRole,
};

fn q(text: &str) -> QueryAnalysis {
    analyze_query(text, &[], Lexicon::builtin())
}

fn full(q: &QueryAnalysis, c: &[Candidate<'_>], k: usize) -> Vec<SearchResult> {
    rank(q, c, &RankParams::default(), Stage::Full, k)
}

fn order(r: &[SearchResult]) -> Vec<String> {
    r.iter()
        .map(|x| format!("{} {}", x.norm, x.regulation))
        .collect()
}

fn term<'a>(r: &'a SearchResult, name: &str) -> Option<&'a paragraf_types::ScoreTerm> {
    r.explanation.iter().find(|t| t.name == name)
}

fn find<'a>(r: &'a [SearchResult], norm: &str, reg: &str) -> &'a SearchResult {
    r.iter()
        .find(|x| x.norm == norm && x.regulation == reg)
        .unwrap_or_else(|| panic!("{norm} {reg} missing in {:?}", order(r)))
}

fn no_chunks(_: &ChunkId) -> Option<&'static Chunk> {
    None
}

const DP: &[Domain] = &[Domain::DataProtection];
const CY: &[Domain] = &[Domain::Cyber];

fn guidance(name: &str, d: &[Domain]) -> Chunk {
    chunk("ENISA", name)
        .class(
            SourceClass::OfficialGuidance,
            SourceRole::ImplementationGuidance,
        )
        .juris(Jurisdiction::Eu)
        .domains(d)
        .build()
}

// ------------------------------------------------------------ Guidance verdrängt Gesetz

#[test]
fn guidance_verdraengt_gesetz() {
    let law = chunk("DSGVO", "Art. 35").domains(DP).build();
    let g = chunk("EDPB", "Leitlinie DSFA")
        .class(SourceClass::OfficialGuidance, SourceRole::Interpretation)
        .juris(Jurisdiction::Eu)
        .domains(DP)
        .build();
    let cands = [dense(&g, 0.88), dense(&law, 0.80)];
    // semantically the guidance leads; the plain fused order shows the failure …
    let fused = rank(
        &q("Müssen wir vor dem Einsatz einer neuen Personalsoftware eine Datenschutz-Folgenabschätzung machen?"),
        &cands,
        &RankParams::default(),
        Stage::Fused,
        10,
    );
    assert_eq!(fused[0].norm, "Leitlinie DSFA");
    // … the authority rerank puts the binding law first, the guidance stays
    let r = full(
        &q("Müssen wir vor dem Einsatz einer neuen Personalsoftware eine Datenschutz-Folgenabschätzung machen?"),
        &cands,
        10,
    );
    assert_eq!(order(&r), ["Art. 35 DSGVO", "Leitlinie DSFA EDPB"]);
}

#[test]
fn guidance_intent_lifts_competitive_guidance_just_above_binding_law() {
    let law = chunk("DSGVO", "Art. 35").domains(DP).build();
    let g = chunk("EDPB", "Leitlinie DSFA")
        .class(SourceClass::OfficialGuidance, SourceRole::Interpretation)
        .juris(Jurisdiction::Eu)
        .domains(DP)
        .build();
    let qa = q("Was empfiehlt der EDPB zur Datenschutz-Folgenabschätzung?");
    assert!(qa.guidance_intent);
    // within intentLiftMargin (0.83 >= 0.85 - 0.05): lifted to best binding + 0.10
    let r = full(&qa, &[dense(&g, 0.83), dense(&law, 0.85)], 10);
    assert_eq!(r[0].norm, "Leitlinie DSFA");
    assert!(
        (r[0].score - (r[1].score + 0.10)).abs() < 1e-9,
        "{} vs {}",
        r[0].score,
        r[1].score
    );
    assert!(term(&r[0], "intentLiftGain").is_some());
    // outside the margin guard (0.70 < 0.80): the law stays first
    let r = full(&qa, &[dense(&g, 0.70), dense(&law, 0.85)], 10);
    assert_eq!(r[0].norm, "Art. 35");
    assert!(term(&r[1], "intentLiftGain").is_none());
}

// ------------------------------------------------------------ Fremdrecht Top-1

#[test]
fn fremdrecht_top1() {
    let dsgvo = chunk("DSGVO", "Art. 35").domains(DP).build();
    let ch = chunk("revDSG", "Art. 22")
        .juris(Jurisdiction::Ch)
        .domains(DP)
        .build();
    let cands = [dense(&ch, 0.92), dense(&dsgvo, 0.80)];
    let r = full(
        &q("Müssen wir vor dem Einsatz einer neuen Personalsoftware eine Datenschutz-Folgenabschätzung machen?"),
        &cands,
        10,
    );
    assert_eq!(
        order(&r),
        ["Art. 35 DSGVO", "Art. 22 revDSG"],
        "demoted, not removed"
    );
    let t = term(&r[1], "foreignPenalty").unwrap();
    assert_eq!(t.value, -0.60);
    assert!(t.reason.contains("Fremdrecht CH"), "{}", t.reason);
    // the question names Switzerland: no foreign penalty for revDSG, DSGVO is foreign now
    let r = full(
        &q("Braucht ein Zürcher Onlinehändler nach dem revDSG eine Datenschutz-Folgenabschätzung?"),
        &cands,
        10,
    );
    assert_eq!(r[0].regulation, "revDSG");
    assert!(term(&r[0], "foreignPenalty").is_none());
    assert!(term(&r[0], "jurisdictionGain").is_some());
    assert!(term(&r[1], "foreignPenalty").is_some());
}

// ------------------------------------------------------------ Off-Domain-Gesetz dominiert

#[test]
fn off_domain_gesetz_dominiert() {
    let dsgvo = chunk("DSGVO", "Art. 33").domains(DP).build();
    let bsig = chunk("BSIG", "§ 32").domains(CY).build();
    let qa = q("Welche Meldepflicht trifft Stadtwerke nach einem Ransomware-Angriff?");
    let r = full(&qa, &[dense(&dsgvo, 0.90), dense(&bsig, 0.80)], 10);
    assert_eq!(order(&r), ["§ 32 BSIG", "Art. 33 DSGVO"]);
    assert_eq!(term(&r[1], "offDomainPenalty").unwrap().value, -0.10);
    assert_eq!(term(&r[0], "domainMatchGain").unwrap().value, 0.15);
}

#[test]
fn scope_penalty_for_bdsg_part_3_on_general_question() {
    let art15 = chunk("DSGVO", "Art. 15").domains(DP).build();
    let s57 = chunk("BDSG", "§ 57").domains(DP).build();
    let cands = [dense(&s57, 0.92), dense(&art15, 0.82)];
    let r = full(
        &q("Welche Angaben stehen mir zu, wenn ich bei meiner Krankenkasse Auskunft über meine Daten verlange?"),
        &cands,
        10,
    );
    assert_eq!(order(&r), ["Art. 15 DSGVO", "§ 57 BDSG"]);
    let t = term(&r[1], "scopePenalty").unwrap();
    assert_eq!(t.value, -0.25);
    assert_eq!(t.reason, "BDSG Teil 3 (§§ 45–84) bei allgemeiner DS-Frage");
    let table = explain_table(&r[1]);
    assert!(
        table.contains("scopePenalty")
            && table.contains("-0.250")
            && table.contains("BDSG Teil 3 (§§ 45–84)"),
        "{table}"
    );
    // law-enforcement scope: no scopePenalty, § 57 BDSG first
    let le = q("Muss mir die Polizei Auskunft über die zu meiner Person gespeicherten Ermittlungsdaten geben?");
    let r = full(&le, &cands, 10);
    assert_eq!(r[0].norm, "§ 57");
    assert!(term(&r[0], "scopePenalty").is_none());
}

// ------------------------------------------------------------ Veraltete Norm gewinnt

#[test]
fn veraltete_norm_gewinnt() {
    let old = chunk("BDSG 1990", "§ 4f")
        .domains(DP)
        .superseded("BDSG", Some("1991-06-01"), "2018-05-24")
        .build();
    let new = chunk("BDSG", "§ 38")
        .domains(DP)
        .valid_from("2018-05-25")
        .build();
    let gdpr = chunk("DSGVO", "Art. 37")
        .domains(DP)
        .valid_from("2018-05-25")
        .build();
    let cands = [dense(&old, 0.92), dense(&new, 0.80), dense(&gdpr, 0.79)];
    let r = full(
        &q("Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?"),
        &cands,
        10,
    );
    assert_eq!(r[2].regulation, "BDSG 1990", "{:?}", order(&r));
    assert_eq!(r[2].superseded_by.as_deref(), Some("BDSG"));
    let t = term(&r[2], "supersededPenalty").unwrap();
    assert_eq!(t.value, -0.50);
    assert!(t.reason.contains("ersetzt durch BDSG"));
    // historical question: the old version is lifted, the successor and the later DSGVO are penalised
    let hq = q("Welche Regeln galten im Jahr 1990 für den betrieblichen Datenschutzbeauftragten nach dem alten BDSG?");
    let r = full(&hq, &cands, 10);
    assert_eq!(r[0].regulation, "BDSG 1990", "{:?}", order(&r));
    assert_eq!(term(&r[0], "supersededPenalty").unwrap().value, 0.0);
    let succ = find(&r, "§ 38", "BDSG");
    assert!(term(succ, "supersededPenalty")
        .unwrap()
        .reason
        .contains("Nachfolgefassung"));
    let later = find(&r, "Art. 37", "DSGVO");
    assert!(term(later, "supersededPenalty")
        .unwrap()
        .reason
        .contains("nicht in Kraft"));
    // the plain Rerank stage does not know as-of: penalty stays
    let r = rank(&hq, &cands, &RankParams::default(), Stage::Rerank, 10);
    assert_ne!(r[0].regulation, "BDSG 1990");
}

#[test]
fn named_old_version_without_date() {
    let old = chunk("BDSG 1990", "§ 6b")
        .domains(DP)
        .superseded("BDSG", Some("1991-06-01"), "2018-05-24")
        .build();
    let new = chunk("BDSG", "§ 4")
        .domains(DP)
        .valid_from("2018-05-25")
        .build();
    let gdpr = chunk("DSGVO", "Art. 6")
        .domains(DP)
        .valid_from("2018-05-25")
        .build();
    let ancient = chunk("ProdHaftG", "§ 1").valid_from("1990-01-01").build();
    let cands = [
        dense(&old, 0.75),
        dense(&new, 0.85),
        dense(&gdpr, 0.84),
        dense(&ancient, 0.3),
    ];
    let qa = q("Was regelte das alte BDSG zur Videoüberwachung?");
    assert_eq!(
        qa.as_of.as_ref().and_then(|a| a.version.as_deref()),
        Some("BDSG 1990")
    );
    let r = full(&qa, &cands, 10);
    assert_eq!(r[0].norm, "§ 6b", "{:?}", order(&r));
    assert!(
        term(find(&r, "Art. 6", "DSGVO"), "supersededPenalty").is_some(),
        "DSGVO starts after BDSG 1990 ended"
    );
    assert!(
        term(find(&r, "§ 1", "ProdHaftG"), "supersededPenalty").is_none(),
        "in force back then"
    );
}

#[test]
fn as_of_date_picks_version_in_force() {
    let old = chunk("TMG", "§ 5")
        .superseded("DDG", Some("2007-03-01"), "2024-05-13")
        .build();
    let new = chunk("DDG", "§ 5").valid_from("2024-05-14").build();
    let cands = [dense(&old, 0.80), dense(&new, 0.80)];
    let r = full(&q("Impressumspflicht Stand 2020"), &cands, 10);
    assert_eq!(r[0].regulation, "TMG", "{:?}", order(&r));
    let r = full(&q("Impressumspflicht"), &cands, 10);
    assert_eq!(r[0].regulation, "DDG");
}

// ------------------------------------------------------------ abstrakte Pflicht dominiert Umsetzungsfrage

#[test]
fn abstrakte_pflicht_dominiert_umsetzungsfrage() {
    let obligation = chunk("NIS2", "Art. 21").domains(CY).build();
    let g = guidance("OT Security Guide", CY);
    let opreq = chunk("CRA", "Anhang I")
        .role(SourceRole::OperationalRequirement)
        .domains(CY)
        .build();
    let cands = [
        dense(&obligation, 0.86),
        dense(&g, 0.88),
        dense(&opreq, 0.70),
    ];
    let qa = q("Welche Maßnahmen sollte ich zur Härtung vernetzter Systeme umsetzen?");
    assert!(qa.control_intent);
    // without the control roles the abstract obligation wins by authority alone
    let r = rank(&qa, &cands, &RankParams::default(), Stage::Rerank, 10);
    assert_eq!(r[0].norm, "Art. 21");
    // with controlPoolGain + role bonus the control pool rises above it
    let r = full(&qa, &cands, 10);
    assert_eq!(
        order(&r),
        ["Anhang I CRA", "OT Security Guide ENISA", "Art. 21 NIS2"]
    );
    assert_eq!(term(&r[0], "controlPoolGain").unwrap().value, 0.15);
    assert_eq!(term(&r[0], "controlRoleBonus").unwrap().value, 0.100);
    // a legal question (no control intent) leaves the rerank alone
    let lq = q("Welche Pflichten enthält Art. 21 NIS2 für wichtige Einrichtungen?");
    assert!(!lq.control_intent);
    let r = full(&lq, &cands, 10);
    assert!(r.iter().all(|x| term(x, "controlPoolGain").is_none()));
}

// ------------------------------------------------------------ eine Rolle flutet die Top-K (live example)

#[test]
fn eine_rolle_flutet_die_topk_seed_live_example() {
    let enisa: Vec<Chunk> = (1..=8)
        .map(|i| guidance(&format!("ICS Guide {i}"), CY))
        .collect();
    let nist = chunk("NIST SP 800-82", "6.2.1")
        .class(SourceClass::ControlStandard, SourceRole::ControlStandard)
        .juris(Jurisdiction::Int)
        .domains(CY)
        .framework("NIST-SP-800-82r3", "6.2.1", "6.2")
        .build();
    let mvo = chunk("MVO", "Anhang III")
        .role(SourceRole::OperationalRequirement)
        .domains(&[Domain::ProductSafety])
        .build();
    let obligation = chunk("NIS2", "Art. 21").domains(CY).build();
    let mut cands: Vec<Candidate<'_>> = enisa
        .iter()
        .enumerate()
        .map(|(i, c)| dense(c, 0.90 - 0.01 * i as f32))
        .collect();
    cands.push(dense(&nist, 0.60));
    cands.push(dense(&mvo, 0.50));
    cands.push(dense(&obligation, 0.45));
    let qa = q(
        "Wie sichern wir die OT-Netze unserer Fertigung mit passenden Controls und Maßnahmen ab?",
    );
    let r = full(&qa, &cands, 6);
    assert_eq!(r.len(), 6);
    assert_eq!(
        order(&r),
        [
            "ICS Guide 1 ENISA",
            "ICS Guide 2 ENISA",
            "ICS Guide 3 ENISA",
            "ICS Guide 4 ENISA",
            "6.2.1 NIST SP 800-82",
            "Anhang III MVO"
        ]
    );
    assert_eq!(r[4].source_role, SourceRole::ControlStandard);
    assert_eq!(r[5].source_role, SourceRole::OperationalRequirement);
    assert!(term(&r[4], "ensureControlDiversity").is_some());
    assert_eq!(
        r[4].framework.as_ref().unwrap().framework_id,
        "NIST-SP-800-82r3",
        "framework fields carried"
    );
    assert_eq!(
        r.iter().map(|x| x.rank).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    // without control intent: no diversity injection
    let lq = q("Was regelt die Sicherheit industrieller Steuerungssysteme?");
    assert!(!lq.control_intent);
    let r = full(&lq, &cands, 6);
    assert!(r
        .iter()
        .all(|x| x.source_role == SourceRole::ImplementationGuidance || x.regulation == "NIS2"));
}

// ------------------------------------------------------------ uneindeutige Antwort als sicher verkauft

#[test]
fn uneindeutige_antwort_als_sicher_verkauft() {
    let a37 = chunk("DSGVO", "Art. 37").domains(DP).build();
    let s38 = chunk("BDSG", "§ 38").domains(DP).build();
    let qa = q("Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?");
    let r = full(&qa, &[dense(&a37, 0.80), dense(&s38, 0.79)], 10);
    let a = assess(&qa, &r, &no_chunks, &[], &[], &RankParams::default());
    assert!((a.winner_margin - 0.01).abs() < 1e-6, "{}", a.winner_margin);
    assert!(a.human_review_flag);
    assert!(
        a.human_review_codes.contains(&ReviewCode::NearTie),
        "{:?}",
        a.human_review_codes
    );
    // the reason names both norms in plain words, no constant
    let tie = &a.human_review_reasons[a
        .human_review_codes
        .iter()
        .position(|c| *c == ReviewCode::NearTie)
        .unwrap()];
    assert!(
        tie.contains("Art. 37 DSGVO") && tie.contains("§ 38 BDSG") && tie.contains("beide"),
        "{tie}"
    );
    // a clear winner is not flagged
    let r = full(&qa, &[dense(&a37, 0.85), dense(&s38, 0.70)], 10);
    let a = assess(&qa, &r, &no_chunks, &[], &[], &RankParams::default());
    assert!(!a.human_review_flag, "{:?}", a.human_review_reasons);
    assert_eq!(a.primary_norm.as_deref(), Some("Art. 37 DSGVO"));
    assert_eq!(a.primary_regulation.as_deref(), Some("DSGVO"));
    assert!(
        a.score_reasoning.starts_with("Primärnorm Art. 37 DSGVO"),
        "{}",
        a.score_reasoning
    );
    assert!(!a.score_reasoning.contains('%'), "no confidence percentage");
}

// ------------------------------------------------------------ Cross-Regime übersehen

#[test]
fn cross_regime_uebersehen() {
    let gdpr = chunk("DSGVO", "Art. 32").domains(DP).build();
    let cra = chunk("CRA", "Art. 13")
        .domains(&[Domain::Cyber, Domain::ProductSafety])
        .build();
    let qa = q("Eine smarte Türklingel speichert Gesichtsbilder – was verlangen die DSGVO und der Cyber Resilience Act vom Hersteller?");
    let r = full(&qa, &[dense(&gdpr, 0.80), dense(&cra, 0.60)], 10);
    let a = assess(&qa, &r, &no_chunks, &[], &[], &RankParams::default());
    assert!(a.cross_regime && a.human_review_flag, "{a:?}");
    // from the results alone: two regimes among the binding top-5
    let plain = q("Welche Pflichten gelten für vernetzte Geräte?");
    let r = full(&plain, &[dense(&gdpr, 0.80), dense(&cra, 0.80)], 10);
    let a = assess(&plain, &r, &no_chunks, &[], &[], &RankParams::default());
    assert!(a.cross_regime, "{a:?}");
    // DSGVO + BDSG are one regime (Datenschutz)
    let s38 = chunk("BDSG", "§ 38").domains(DP).build();
    let dpo = q("Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?");
    let r = full(&dpo, &[dense(&gdpr, 0.80), dense(&s38, 0.60)], 10);
    let a = assess(&dpo, &r, &no_chunks, &[], &[], &RankParams::default());
    assert!(!a.cross_regime);
}

#[test]
fn cross_regime_window_is_top_5() {
    let dp: Vec<Chunk> = (1..=5)
        .map(|i| chunk("DSGVO", &format!("Art. {i}")).domains(DP).build())
        .collect();
    let cra = chunk("CRA", "Art. 13").domains(CY).build();
    let mut c: Vec<Candidate<'_>> = dp.iter().map(|x| dense(x, 0.9)).collect();
    c.push(dense(&cra, 0.1));
    let qa = QueryAnalysis::default();
    let r = full(&qa, &c, 10);
    assert_eq!(r[5].regulation, "CRA");
    assert!(!assess(&qa, &r, &no_chunks, &[], &[], &RankParams::default()).cross_regime);
}

// ------------------------------------------------------------ Rechtsaussage ohne bindende Quelle

#[test]
fn rechtsaussage_ohne_bindende_quelle() {
    let recital = chunk("DSGVO", "ErwG 97")
        .class(SourceClass::Recital, SourceRole::Interpretation)
        .domains(DP)
        .build();
    let g = guidance("DPO Handbook", DP);
    let qa = q("Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?");
    let r = full(&qa, &[dense(&recital, 0.9), dense(&g, 0.6)], 10);
    let a = assess(&qa, &r, &no_chunks, &[], &[], &RankParams::default());
    assert!(a.human_review_flag);
    assert_eq!(a.human_review_codes, [ReviewCode::NotBinding], "{a:?}");
    assert_eq!(
        a.human_review_reasons,
        ["Der beste Treffer ist kein verbindliches Recht, sondern ein Erwägungsgrund."]
    );
}

// ------------------------------------------------------------ nothing relevant: abstain

#[test]
fn nothing_relevant_flags_human_review() {
    let ao = chunk("AO", "§ 3").domains(&[Domain::Tax]).build();
    let hgb = chunk("HGB", "§ 257").domains(&[Domain::Commercial]).build();
    let qa = q("Wie viel Zweitwohnungsteuer verlangt die Stadt Freiburg für eine Ferienwohnung?");
    let r = full(&qa, &[dense(&ao, 0.81), dense(&hgb, 0.70)], 10);
    let a = assess(&qa, &r, &no_chunks, &[], &[], &RankParams::default());
    assert!(a.human_review_flag);
    // nothing relevant is the one reason: no tie or regimes among results
    // that do not bear on the question
    assert_eq!(
        a.human_review_codes,
        [ReviewCode::OutsideCorpus],
        "{:?}",
        a.human_review_reasons
    );
    assert_eq!(
        relevance_gate(&qa, &r, &RankParams::default()),
        Some(ReviewCode::OutsideCorpus)
    );
    // low retrieval evidence on an in-domain question also gates
    let dpo = q("Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?");
    let weak = chunk("DSGVO", "Art. 37").domains(DP).build();
    let r = full(&dpo, &[dense(&weak, 0.2)], 10);
    assert_eq!(
        relevance_gate(&dpo, &r, &RankParams::default()),
        Some(ReviewCode::WeakMatch)
    );
    let r = full(&dpo, &[dense(&weak, 0.8)], 10);
    assert!(relevance_gate(&dpo, &r, &RankParams::default()).is_none());
    // no results at all
    let a = assess(&dpo, &[], &no_chunks, &[], &[], &RankParams::default());
    assert!(a.human_review_flag && a.primary_norm.is_none());
}

// ------------------------------------------------------------ connected norms, framework layer

#[test]
fn connected_norms_dedup_cap_and_skip_self() {
    let out: Vec<String> = (1..=10).map(|i| format!("Art. {i} DSGVO")).collect();
    let inn: Vec<String> = (5..=15)
        .map(|i| format!("Art. {i} DSGVO"))
        .chain(["Art. 37 DSGVO".to_string()])
        .collect();
    let out_r: Vec<&str> = out.iter().map(String::as_str).collect();
    let in_r: Vec<&str> = inn.iter().map(String::as_str).collect();
    let top = chunk("DSGVO", "Art. 37")
        .domains(DP)
        .refs(&out_r, &in_r)
        .build();
    let qa = q("Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?");
    let r = full(&qa, &[dense(&top, 0.8)], 10);
    let lookup = |id: &ChunkId| (id == &top.id).then_some(&top);
    let a = assess(&qa, &r, &lookup, &[], &[], &RankParams::default());
    assert_eq!(a.connected_norms.len(), 12);
    assert_eq!(a.connected_norms[0].as_str(), "Art. 1 DSGVO");
    assert_eq!(a.connected_norms[11].as_str(), "Art. 12 DSGVO");
    assert!(!a
        .connected_norms
        .iter()
        .any(|n| n.as_str() == "Art. 37 DSGVO"));
}

#[test]
fn framework_layer_lists_controls_and_evidence_under_control_intent() {
    let art32 = chunk("DSGVO", "Art. 32").domains(DP).build();
    let m = |fw: &str, id: &str, norm: &str| ControlMapping {
        kind: MappingKind::Iso27001,
        framework_id: fw.to_string(),
        control_id: id.to_string(),
        control_name: format!("control {id}"),
        regulation: "DSGVO".to_string(),
        norms: vec![NormRef(norm.to_string())],
        coverage: "full".to_string(),
        notes: String::new(),
        source_file: "fixture".to_string(),
    };
    let maps = [
        m("ISO-27001:2022", "A.8.24", "Art. 32 DSGVO"),
        m("ISO-27001:2022", "A.5.1", "Art. 5 DSGVO"),
        m("NIST-CSF-2.0", "PR.DS-01", "Art. 32 DSGVO"),
    ];
    let ev = EvidenceItem {
        norm: NormRef("Art. 32 DSGVO".to_string()),
        regulation: "DSGVO".to_string(),
        requirement_summary: "TOM".to_string(),
        evidence_type: "document".to_string(),
        artifact_name: "TOM-Dokumentation".to_string(),
        artifact_example: String::new(),
        description: String::new(),
        retention_period: String::new(),
        auditor_questions: vec![],
        cross_references: vec![],
        source_file: "fixture".to_string(),
    };
    let qa = q("Welche TOMs müssen wir nach der DSGVO umsetzen, um Patientendaten abzusichern?");
    assert!(qa.control_intent);
    let r = full(&qa, &[dense(&art32, 0.8)], 10);
    let a = assess(
        &qa,
        &r,
        &no_chunks,
        &maps,
        std::slice::from_ref(&ev),
        &RankParams::default(),
    );
    let ids: Vec<&str> = a.controls.iter().map(|c| c.control_id.as_str()).collect();
    assert_eq!(ids, ["A.8.24", "PR.DS-01"]);
    assert_eq!(a.evidence.len(), 1);
    // a legal question gets no control list
    let lq = q("Was regelt Art. 32 DSGVO?");
    let a = assess(&lq, &r, &no_chunks, &maps, &[ev], &RankParams::default());
    assert!(a.controls.is_empty() && a.evidence.is_empty());
}

// ------------------------------------------------------------ explanations

#[test]
fn explanation_terms_sum_to_score() {
    let chunks = paragraf_rank::testing::fixture_chunks(200);
    let cands = paragraf_rank::testing::fixture_candidates(&chunks);
    let qa = q(paragraf_rank::testing::FIXTURE_QUERY);
    for stage in Stage::ALL {
        for r in rank(&qa, &cands, &RankParams::default(), stage, 200) {
            let sum: f64 = r.explanation.iter().map(|t| t.value).sum();
            assert!(
                (sum - r.score).abs() < 1e-9,
                "{stage:?} {}: {sum} vs {}",
                r.chunk_id,
                r.score
            );
            assert_eq!(r.explanation[0].name, "rawSemantic");
            assert!(
                r.explanation.iter().all(|t| !t.reason.is_empty()),
                "{:?}",
                r.explanation
            );
        }
    }
}

#[test]
fn explanation_serializes_as_json() {
    let c = chunk("DSGVO", "Art. 37").domains(DP).build();
    let r = full(&q("Datenschutzbeauftragter"), &[dense(&c, 0.8)], 10);
    let j = serde_json::to_value(&r[0].explanation).unwrap();
    assert_eq!(j[1]["name"], "authorityCoef");
    assert_eq!(j[1]["constant"], 0.4);
}

#[test]
fn exact_lookup_and_explicit_reference() {
    let a14 = chunk("CRA", "Art. 14").domains(CY).build();
    let other = chunk("CRA", "Art. 13").domains(CY).build();
    let qa = analyze_query(
        "Was regelt Art. 14 CRA?",
        &[NormRef("Art. 14 CRA".into())],
        Lexicon::builtin(),
    );
    let cands = [
        Candidate {
            chunk: &a14,
            dense: None,
            lexical: None,
            sparse: None,
            heading: None,
            exact: true,
            pairs: None,
        },
        dense(&other, 0.85),
    ];
    let r = full(&qa, &cands, 10);
    assert_eq!(r[0].norm, "Art. 14");
    assert!(r[0].raw_semantic >= 0.75);
    assert!(term(&r[0], "topicGain").unwrap().reason.contains("zitiert"));
}

/// Regression: two Absatz chunks of the primary norm are not two competing
/// answers; the margin is measured against the next *norm*.
#[test]
fn winner_margin_ignores_further_chunks_of_the_primary_norm() {
    use paragraf_rank::testing::{chunk, dense};
    use paragraf_rank::{analyze_query, assess, rank, Lexicon, RankParams, Stage};
    let a1 = chunk("DSGVO", "Art. 37").part("Abs. 1").build();
    let a2 = chunk("DSGVO", "Art. 37").part("Abs. 4").build();
    let other = chunk("BDSG", "§ 38")
        .juris(paragraf_types::Jurisdiction::De)
        .build();
    let cands = vec![dense(&a1, 0.90), dense(&a2, 0.89), dense(&other, 0.70)];
    let q = analyze_query(
        "Ab welcher Unternehmensgröße ist ein Datenschutzbeauftragter Pflicht?",
        &[],
        Lexicon::builtin(),
    );
    let p = RankParams::default();
    let results = rank(&q, &cands, &p, Stage::Full, 10);
    let chunks = [&a1, &a2, &other];
    let chunk_of = |id: &paragraf_types::ChunkId| chunks.iter().copied().find(|c| &c.id == id);
    let a = assess(&q, &results, &chunk_of, &[], &[], &p);
    let top = &results[0];
    let next_norm = results
        .iter()
        .find(|r| r.norm != top.norm)
        .expect("another norm");
    assert!(
        (a.winner_margin - (top.score - next_norm.score)).abs() < 1e-12,
        "{a:?}"
    );
    assert!(
        !a.human_review_codes.contains(&ReviewCode::NearTie),
        "{:?}",
        a.human_review_reasons
    );
}

/// The primary norm and the near tie name norms, not the paragraph range of
/// the chunk that happened to rank first: the deciding paragraph is the
/// evidence's pinpoint, which may lie in another chunk of the same norm.
#[test]
fn primary_norm_and_runner_up_name_the_norm_not_the_chunk_range() {
    let late = chunk("DSGVO", "Art. 37")
        .part("Abs. 4–5")
        .domains(DP)
        .build();
    let close = chunk("BDSG", "§ 38").part("Abs. 1").domains(DP).build();
    let qa = q("Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?");
    let results = full(&qa, &[dense(&late, 0.80), dense(&close, 0.79)], 10);
    assert_eq!(results[0].citation, "Art. 37 Abs. 4–5 DSGVO");
    let a = assess(&qa, &results, &no_chunks, &[], &[], &RankParams::default());
    assert_eq!(a.primary_norm.as_deref(), Some("Art. 37 DSGVO"));
    assert_eq!(a.runner_up.as_deref(), Some("§ 38 BDSG"));
    let tie = a
        .human_review_reasons
        .iter()
        .find(|r| r.contains("Art. 37 DSGVO") && r.contains("§ 38 BDSG"));
    assert!(
        tie.is_some_and(|r| !r.contains("Abs.")),
        "{:?}",
        a.human_review_reasons
    );
    assert!(
        a.score_reasoning.contains("Primärnorm Art. 37 DSGVO"),
        "{}",
        a.score_reasoning
    );
}

// ------------------------------------------------------------ review reasons a compliance officer reads

/// A camelCase word (`assessReviewMargin`, `authorityCoef`): a constant's
/// name, which no reason shown to a reader may carry.
fn camel_case_words(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| {
            let mut cs = w.chars();
            cs.next().is_some_and(|c| c.is_lowercase()) && cs.any(|c| c.is_uppercase())
        })
        .collect()
}

#[test]
fn review_reasons_are_plain_sentences_in_the_questions_language() {
    use paragraf_types::Lang;
    for &code in ReviewCode::ALL {
        for lang in [Lang::De, Lang::En] {
            for detail in ["", "§ 38 BDSG"] {
                let r = code.reason(lang, detail);
                assert!(camel_case_words(&r).is_empty(), "{r}");
                assert!(r.ends_with('.'), "a sentence: {r}");
                assert!(r.chars().next().is_some_and(char::is_uppercase), "{r}");
            }
        }
    }
    // an English question with a recital on top: English reasons, English
    // score reasoning, and no constant name in either
    let recital = chunk("DSGVO", "ErwG 97")
        .class(SourceClass::Recital, SourceRole::Interpretation)
        .domains(DP)
        .build();
    let g = guidance("DPO Handbook", DP);
    let en = q("Does our company have to appoint a data protection officer?");
    assert_eq!(en.lang, Lang::En);
    let r = full(&en, &[dense(&recital, 0.9), dense(&g, 0.6)], 10);
    let a = assess(&en, &r, &no_chunks, &[], &[], &RankParams::default());
    assert!(a.human_review_flag, "{a:?}");
    assert_eq!(a.human_review_codes.len(), a.human_review_reasons.len());
    assert!(
        a.human_review_codes.contains(&ReviewCode::NotBinding),
        "{a:?}"
    );
    assert!(
        a.human_review_reasons
            .iter()
            .any(|x| x == "The best match is not binding law but a recital."),
        "{:?}",
        a.human_review_reasons
    );
    for text in a.human_review_reasons.iter().chain([&a.score_reasoning]) {
        assert!(camel_case_words(text).is_empty(), "{text}");
        for german in ["Primärnorm", "Prüfung", "nicht", "Recht "] {
            assert!(
                !text.contains(german),
                "German in an English reason: {text}"
            );
        }
    }
    assert!(
        a.score_reasoning.starts_with("Primary norm "),
        "{}",
        a.score_reasoning
    );
    // the same in German
    let de = q("Muss unsere Firma einen Datenschutzbeauftragten benennen?");
    let r = full(&de, &[dense(&recital, 0.9), dense(&g, 0.6)], 10);
    let a = assess(&de, &r, &no_chunks, &[], &[], &RankParams::default());
    for text in a.human_review_reasons.iter().chain([&a.score_reasoning]) {
        assert!(camel_case_words(text).is_empty(), "{text}");
    }
    assert!(
        a.human_review_reasons
            .iter()
            .any(|x| x.starts_with("Der beste Treffer ist kein verbindliches Recht")),
        "{:?}",
        a.human_review_reasons
    );
}
