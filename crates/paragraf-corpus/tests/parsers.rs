//! Tests of the JSON and TSV parsers (EU JSON, annexes, CH/UK, BSI OSCAL, NIST,
//! ASVS, mappings): hand-written fixtures in `tests/fixtures/parser-inputs/`, malformed
//! input, and — when present — the real corpus in `../shared/corpus`
//! (located via `PARAGRAF_CORPUS` or relative to the repository root).

use paragraf_corpus::parsers::{annex, asvs, eu_json, foreign, mappings, nist, oscal};
use paragraf_corpus::{NormKind, ParseError, RawNorm};
use paragraf_types::{Lang, MappingKind};
use std::path::PathBuf;

fn fixture(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/parser-inputs")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("fixture {}: {e}", p.display()))
}

fn find<'a>(norms: &'a [RawNorm], norm: &str) -> &'a RawNorm {
    norms
        .iter()
        .find(|n| n.norm == norm)
        .unwrap_or_else(|| panic!("norm {norm} missing"))
}

fn labels(n: &RawNorm) -> Vec<Option<&str>> {
    n.units.iter().map(|u| u.label.as_deref()).collect()
}

#[path = "support/shared_corpus.rs"]
mod shared_corpus;

fn corpus() -> Option<PathBuf> {
    let p = shared_corpus::corpus_dir();
    if p.is_none() {
        paragraf_types::inputs::input_missing(
            "the shared corpus (../shared/corpus or PARAGRAF_CORPUS)",
        );
    }
    p
}

fn read_corpus(root: &std::path::Path, rel: &str) -> Option<Vec<u8>> {
    match std::fs::read(root.join(rel)) {
        Ok(b) => Some(b),
        Err(_) => {
            paragraf_types::inputs::input_missing(&format!("corpus file {rel}"));
            None
        }
    }
}

fn count(norms: &[RawNorm], kind: NormKind) -> usize {
    norms.iter().filter(|n| n.kind == kind).count()
}

/// Every parser must reject truncated JSON / wrong types with a positioned
/// error naming the file, never panic.
fn assert_rejects(
    parse: impl Fn(&str, &[u8]) -> Result<usize, ParseError>,
    good: &[u8],
    wrong_type: &[u8],
) {
    for cut in [
        1,
        good.len() / 3,
        good.len() / 2,
        good.len().saturating_sub(2),
    ] {
        let err = parse("bad/file.json", &good[..cut]).expect_err("truncated input must fail");
        assert_eq!(err.file, "bad/file.json");
        assert!(err.position.is_some(), "no position in {err}");
    }
    let err = parse("bad/types.json", wrong_type).expect_err("wrong types must fail");
    assert!(err.to_string().starts_with("bad/types.json"), "{err}");
    assert!(parse("bad/empty.json", b"").is_err());
    assert!(parse("bad/binary.json", &[0xff, 0xfe, 0x00, 0x7b]).is_err());
}

// ---------------------------------------------------------------- EU JSON

#[test]
fn eu_json_fixture_articles_definitions_recitals_annexes() {
    let norms = eu_json::parse("eu/en/mini.json", &fixture("eu-mini.json")).expect("parses");
    let kinds: Vec<(NormKind, &str)> = norms.iter().map(|n| (n.kind, n.norm.as_str())).collect();
    assert_eq!(
        kinds,
        vec![
            (NormKind::Article, "Art. 1"),
            (NormKind::Definition, "Art. 2"),
            (NormKind::Article, "Art. 3"),
            (NormKind::Article, "Art. 4"),
            (NormKind::Recital, "ErwG 1"),
            (NormKind::Recital, "ErwG 2"),
            (NormKind::Annex, "Anhang I"),
            (NormKind::Annex, "Anhang II"),
        ]
    );
    assert!(norms
        .iter()
        .all(|n| n.lang == Lang::En && n.framework.is_none()));

    let a1 = find(&norms, "Art. 1");
    assert_eq!(a1.title, "Subject matter");
    assert_eq!(a1.hints, vec!["chapter:I"]);
    assert_eq!(a1.breadcrumb, vec!["Chapter I"]);
    assert_eq!(labels(a1), vec![None]);

    let a2 = find(&norms, "Art. 2");
    assert_eq!(labels(a2), vec![None, Some("Nr. 1"), Some("Nr. 2")]);
    assert_eq!(a2.units[1].text, "(1) ‘widget’ means a small device;");
    assert_eq!(
        a2.units[2].text,
        "(2) ‘operator’ means a person who:\n(a) runs a widget; or\n(b) sells a widget;"
    );
    assert_eq!(a2.hints, vec!["chapter:I", "term:widget", "term:operator"]);

    let a3 = find(&norms, "Art. 3");
    assert_eq!(labels(a3), vec![Some("Abs. 1"), Some("Abs. 2")]);
    // NBSP normalised, footnote reference dropped, points inline.
    assert_eq!(
        a3.units[0].text,
        "The operator shall keep records referred to in Article 2 (Directive 2099/1).\n(a) first point;\n(b) second point;"
    );
    assert_eq!(a3.units[1].text, "Records shall be kept for five years.");

    // The signature, footnotes and annexes are cut off the final article.
    let a4 = find(&norms, "Art. 4");
    assert_eq!(a4.full_text(), "Member States shall lay down penalties.\nThis Regulation shall be binding in its entirety.");

    let r2 = find(&norms, "ErwG 2");
    assert_eq!(
        r2.units[0].text, "Operators should be responsible.",
        "duplicate recital merged, longer text kept"
    );
    assert_eq!(
        find(&norms, "ErwG 1").units[0].text,
        "Widgets are important."
    );

    let an1 = find(&norms, "Anhang I");
    assert_eq!(an1.title, "ESSENTIAL WIDGET REQUIREMENTS");
    assert_eq!(labels(an1), vec![Some("Teil I"), Some("Teil II")]);
    assert_eq!(
        an1.units[0].text,
        "Part I\nDesign requirements\n(1) Widgets shall be safe."
    );
    assert_eq!(an1.hints, vec!["annex-source:embedded"]);
    let an2 = find(&norms, "Anhang II");
    assert_eq!(
        an2.full_text(),
        "1. Small widgets.",
        "script debris dropped"
    );
}

#[test]
fn eu_json_rejects_malformed_input() {
    let good = fixture("eu-mini.json");
    assert_rejects(
        |f, b| eu_json::parse(f, b).map(|v| v.len()),
        &good,
        br#"{"id":"X","articles":[{"number":5,"title":"T","text":"x"}]}"#,
    );
    let err =
        eu_json::parse("eu/en/x.json", br#"{"id":"X","articles":[]}"#).expect_err("no articles");
    assert_eq!(err.position.as_deref(), Some("$.articles"));
    let err = eu_json::parse(
        "eu/en/x.json",
        b"{\"articles\": [\n  {\"number\": \"1\", \"text\": 7}]}",
    )
    .expect_err("wrong type");
    assert!(
        err.position
            .as_deref()
            .is_some_and(|p| p.starts_with("line 2")),
        "{err}"
    );
}

// ---------------------------------------------------------------- annexes

#[test]
fn annex_fixture_parts_and_points() {
    let norms =
        annex::parse("eu/en-annexes/mini.json", &fixture("annexes-mini.json")).expect("parses");
    assert_eq!(norms.len(), 2);
    let a1 = &norms[0];
    assert_eq!((a1.kind, a1.norm.as_str()), (NormKind::Annex, "Anhang I"));
    assert_eq!(a1.title, "ESSENTIAL WIDGET REQUIREMENTS");
    assert_eq!(
        labels(a1),
        vec![Some("Teil I"), Some("Teil II")],
        "\"Part I of this Annex\" is no heading"
    );
    assert_eq!(
        a1.units[0].text,
        "Part I Design requirements (1) Widgets shall be safe.\n(2) On the basis of the risk assessment referred to in Article 3(2), widgets shall:\n(a) be secure by default;\n(b) receive updates."
    );
    let a2 = &norms[1];
    assert_eq!(a2.norm, "Anhang II");
    assert_eq!(a2.title, "List of widgets referred to in Article 3(1)");
    assert_eq!(
        a2.full_text(),
        "The following widgets are covered:\n1. Small widgets.\n2. Large widgets."
    );
}

#[test]
fn annex_rejects_malformed_input() {
    let good = fixture("annexes-mini.json");
    assert_rejects(
        |f, b| annex::parse(f, b).map(|v| v.len()),
        &good,
        br#"[{"annex":"I","content":5}]"#,
    );
    let err = annex::parse("a.json", br#"[{"annex":"","content":"no heading here"}]"#)
        .expect_err("no number");
    assert_eq!(err.position.as_deref(), Some("$[0].annex"));
}

// ---------------------------------------------------------------- CH / UK

#[test]
fn ch_fixture_breadcrumbs_paragraphs_definitions() {
    let norms =
        foreign::parse_ch("foreign/ch-mini.json", &fixture("ch-mini.json")).expect("parses");
    let ids: Vec<&str> = norms.iter().map(|n| n.norm.as_str()).collect();
    assert_eq!(ids, vec!["Art. 1", "Art. 2", "Art. 3", "Art. 3a"]);
    let a2 = &norms[1];
    assert_eq!(a2.kind, NormKind::Definition);
    assert_eq!(a2.hints, vec!["term:data", "term:person"]);
    assert_eq!(
        a2.breadcrumb,
        vec!["Chapter 1 General Provisions", "Section 1 Definitions"]
    );
    assert_eq!(
        a2.units[0].text,
        "In this Act:\na. data means information;\nb. person means a natural person."
    );
    let a3 = &norms[2];
    assert_eq!(a3.kind, NormKind::Article);
    assert_eq!(a3.breadcrumb, a2.breadcrumb, "headings carry forward");
    assert_eq!(labels(a3), vec![Some("Abs. 1"), Some("Abs. 2")]);
    assert_eq!(a3.units[0].text, "The controller shall act under Article 13 paragraph 2 of this Act:\na. promptly;\nb. carefully.");
    assert_eq!(
        a3.units[1].text,
        "The processor shall assist. 4 items remain."
    );
    assert_eq!(
        norms[3].breadcrumb,
        vec!["Chapter 2 Final Provisions"],
        "a new chapter resets the section"
    );
}

#[test]
fn uk_fixture_sections_schedules_metadata() {
    let norms = foreign::parse_uk(
        "foreign/uk-mini-sections.json",
        &fixture("uk-mini-sections.json"),
    )
    .expect("parses");
    assert_eq!(
        norms.iter().map(|n| n.norm.as_str()).collect::<Vec<_>>(),
        vec!["Art. 1", "Art. 12A", "Art. 4"],
        "Art. 51 (omitted in the UK version) left out"
    );
    let a1 = &norms[0];
    assert_eq!(
        labels(a1),
        vec![Some("Abs. 1"), Some("Abs. 2")],
        "omitted Abs. 3 left out"
    );
    assert_eq!(
        a1.units[1].text,
        "This Regulation protects rights under Article 10."
    );
    let a12 = &norms[1];
    assert_eq!(
        a12.units[0].text,
        "The controller shall act where:\n(a) the request is made;\n(b) the fee is paid; or\n(c) the identity is confirmed."
    );
    assert_eq!(a12.units[1].text, "A notice must be given.");
    assert_eq!(norms[2].kind, NormKind::Definition);
    assert_eq!(
        norms[2].units.len(),
        1,
        "definitions are not split at their point numbers"
    );

    let sched = foreign::parse_uk(
        "foreign/uk-mini-schedules.json",
        &fixture("uk-mini-schedules.json"),
    )
    .expect("parses");
    assert_eq!(sched.len(), 1);
    assert_eq!(
        (sched[0].kind, sched[0].norm.as_str()),
        (NormKind::Schedule, "Anhang 1")
    );
    assert_eq!(sched[0].title, "LAWFUL INTERESTS");
    assert_eq!(
        labels(&sched[0]),
        vec![None, Some("Abs. 1"), Some("Abs. 2")]
    );
    assert_eq!(sched[0].units[1].text, "This condition is met where—\n(a) the processing is necessary, and\n(b) the request is made.");

    let meta = foreign::parse_uk(
        "foreign/uk-mini-metadata.json",
        &fixture("uk-mini-metadata.json"),
    )
    .expect("parses");
    assert!(meta.is_empty());
}

#[test]
fn foreign_rejects_malformed_input() {
    let good = fixture("ch-mini.json");
    assert_rejects(
        |f, b| foreign::parse_ch(f, b).map(|v| v.len()),
        &good,
        br#"{"provisions":[{"provision_ref":1}]}"#,
    );
    let err = foreign::parse_ch(
        "ch.json",
        br#"{"provisions":[{"provision_ref":"para1","content":"x"}]}"#,
    )
    .expect_err("bad ref");
    assert_eq!(
        err.position.as_deref(),
        Some("$.provisions[0].provision_ref")
    );
    let good = fixture("uk-mini-sections.json");
    assert_rejects(
        |f, b| foreign::parse_uk(f, b).map(|v| v.len()),
        &good,
        br#"[{"section":[],"content":"x"}]"#,
    );
    assert!(foreign::parse_uk("uk-metadata.json", b"{\"a\":").is_err());
}

// ---------------------------------------------------------------- OSCAL

#[test]
fn oscal_fixture_controls_subcontrols_guidance() {
    let norms = oscal::parse(
        "controls/bsi-mini-kernel.oscal.json",
        &fixture("bsi-mini-kernel.oscal.json"),
    )
    .expect("parses");
    let kinds: Vec<(NormKind, &str)> = norms.iter().map(|n| (n.kind, n.norm.as_str())).collect();
    assert_eq!(
        kinds,
        vec![
            (NormKind::Control, "ASST.1.1"),
            (NormKind::ControlGuidance, "ASST.1.1 Umsetzungshinweise"),
            (NormKind::Control, "ASST.1.1.1"),
        ]
    );
    let c = &norms[0];
    assert_eq!(c.lang, Lang::De);
    assert_eq!(c.title, "Verfahren und Regelungen");
    assert_eq!(c.breadcrumb, vec!["Informationen und Assets", "Grundlagen"]);
    assert_eq!(
        c.full_text(),
        "Informationen und Assets MUSS Verfahren regelmäßig prüfen."
    );
    let fw = c.framework.as_ref().expect("framework");
    assert_eq!(
        (
            fw.framework_id.as_str(),
            fw.framework_control_id.as_str(),
            fw.framework_family.as_str()
        ),
        ("BSI-GS++", "ASST.1.1", "ASST")
    );
    assert_eq!(
        c.hints,
        vec![
            "modal_verb:MUSS",
            "sec_level:normal-SdT",
            "effort_level:0",
            "related:BER.1.1"
        ]
    );
    let g = &norms[1];
    assert_eq!(g.full_text(), "Hinweise mit Betonung und Link.");
    assert_eq!(g.hints, vec!["part:guidance", "control:ASST.1.1"]);
    assert_eq!(g.framework, c.framework);
    let sub = &norms[2];
    assert_eq!(
        sub.breadcrumb,
        vec![
            "Informationen und Assets",
            "Grundlagen",
            "ASST.1.1 Verfahren und Regelungen"
        ]
    );
    assert_eq!(
        sub.hints,
        vec!["parent:ASST.1.1", "modal_verb:SOLLTE", "tags:Dokumentation"]
    );
}

#[test]
fn oscal_tls_draft_uses_own_labels() {
    let norms = oscal::parse(
        "controls/bsi-mindeststandard-tls-mini.oscal.json",
        &fixture("bsi-mindeststandard-tls-mini.oscal.json"),
    )
    .expect("parses");
    assert_eq!(norms.len(), 1);
    let c = &norms[0];
    assert_eq!(c.norm, "VER.2");
    assert_eq!(
        c.full_text(),
        "Anwendungen MUSS Kommunikation nach TLS 1.3 verschlüsseln."
    );
    let fw = c.framework.as_ref().expect("framework");
    assert_eq!(
        (fw.framework_id.as_str(), fw.framework_family.as_str()),
        ("BSI-MST-TLS", "VER")
    );
    assert_eq!(c.hints, vec!["oscal-id:KONF.14.1"]);
}

#[test]
fn oscal_rejects_malformed_input() {
    let good = fixture("bsi-mini-kernel.oscal.json");
    assert_rejects(
        |f, b| oscal::parse(f, b).map(|v| v.len()),
        &good,
        br#"{"catalog":{"groups":[{"id":7}]}}"#,
    );
    let err = oscal::parse(
        "k.json",
        br#"{"catalog":{"groups":[{"id":"A","controls":[{"id":"A.1","parts":[]}]}]}}"#,
    )
    .expect_err("no statement");
    assert_eq!(
        err.position.as_deref(),
        Some("$.catalog.groups[0].controls[0].parts")
    );
    assert!(oscal::parse("k.json", br#"{"catalog":{"groups":[]}}"#).is_err());
}

// ---------------------------------------------------------------- NIST

#[test]
fn nist_tsv_fixture() {
    let norms =
        nist::parse_tsv("controls/nist.tsv", &fixture("nist-mini-800-53.tsv")).expect("parses");
    let kinds: Vec<(NormKind, &str)> = norms.iter().map(|n| (n.kind, n.norm.as_str())).collect();
    assert_eq!(
        kinds,
        vec![
            (NormKind::Control, "AC-2"),
            (NormKind::ControlGuidance, "AC-2 Discussion"),
            (NormKind::Control, "AC-2(1)"),
        ],
        "withdrawn AC-2(10) without text is skipped"
    );
    let c = &norms[0];
    assert_eq!(labels(c), vec![Some("lit. a"), Some("lit. b")]);
    assert_eq!(
        c.units[1].text,
        "b. Assign \"account managers\";\n1. with care"
    );
    assert_eq!(c.hints, vec!["related:AC-3", "related:AC-5"]);
    assert_eq!(c.breadcrumb, vec!["AC Access Control"]);
    let fw = c.framework.as_ref().expect("framework");
    assert_eq!(
        (fw.framework_id.as_str(), fw.framework_family.as_str()),
        ("NIST-SP-800-53r5", "AC")
    );
    assert_eq!(norms[1].hints, vec!["part:guidance", "control:AC-2"]);
    let e = &norms[2];
    assert_eq!(e.hints, vec!["parent:AC-2"]);
    assert_eq!(
        e.breadcrumb,
        vec!["AC Access Control", "AC-2 Account Management"]
    );
    assert_eq!(
        e.framework
            .as_ref()
            .map(|f| f.framework_control_id.as_str()),
        Some("AC-2(1)")
    );
}

#[test]
fn nist_tsv_rejects_malformed_input() {
    let good = fixture("nist-mini-800-53.tsv");
    let cut = good
        .iter()
        .position(|&b| b == b'"')
        .map(|p| p + 5)
        .unwrap_or(10);
    let err = nist::parse_tsv("n.tsv", &good[..cut]).expect_err("unterminated quote");
    assert_eq!(err.position.as_deref(), Some("line 2"));
    let err =
        nist::parse_tsv("n.tsv", b"Control Identifier\tName\nnot an id\tx\n").expect_err("bad id");
    assert_eq!(err.position.as_deref(), Some("line 2"));
    assert!(nist::parse_tsv("n.tsv", b"").is_err());
    assert!(
        nist::parse_tsv("n.tsv", b"AC-1\tx\n").is_err(),
        "missing header"
    );
    assert!(nist::parse_tsv("n.tsv", &[0x41, 0xff, 0x0a]).is_err());
}

#[test]
fn nist_82_fixture() {
    let norms = nist::parse_82_json("controls/n82.json", &fixture("nist-mini-82-overlay.json"))
        .expect("parses");
    assert_eq!(norms.len(), 2);
    let c = &norms[0];
    assert_eq!((c.kind, c.norm.as_str()), (NormKind::Control, "AC-3"));
    assert_eq!(labels(c), vec![Some("OT-Diskussion"), Some("Baselines")]);
    assert_eq!(
        c.units[0].text,
        "Enforcement must not impact OT performance."
    );
    assert_eq!(
        c.units[1].text,
        "AC-3 Access Enforcement: LOW Select, MOD Select, HIGH Select\nAC-3(11) ACCESS ENFORCEMENT RESTRICT ACCESS: LOW –, MOD –, HIGH Add"
    );
    assert_eq!(
        c.hints,
        vec!["baseline:LOW", "baseline:MOD", "baseline:HIGH"]
    );
    assert_eq!(
        c.framework.as_ref().map(|f| f.framework_id.as_str()),
        Some("NIST-SP-800-82r3")
    );
    assert_eq!(c.breadcrumb, vec!["AC Access Control"]);
    let pm = &norms[1];
    assert_eq!(pm.full_text(), "No OT Discussion for this control.\n\nPM-1 Information Security Program Plan: no baseline allocation");
    assert!(pm.hints.is_empty());
}

#[test]
fn nist_82_rejects_malformed_input() {
    let good = fixture("nist-mini-82-overlay.json");
    assert_rejects(
        |f, b| nist::parse_82_json(f, b).map(|v| v.len()),
        &good,
        br#"[{"control_id":["AC-1"]}]"#,
    );
    let err = nist::parse_82_json("n.json", br#"[{"control_id":"Access"}]"#).expect_err("bad id");
    assert_eq!(err.position.as_deref(), Some("$[0].control_id"));
}

// ---------------------------------------------------------------- ASVS

#[test]
fn asvs_fixtures_both_versions() {
    let de = asvs::parse(
        "controls/owasp-asvs-4.0.3-de.flat.json",
        &fixture("owasp-asvs-4.0.3-de.flat.json"),
    )
    .expect("parses");
    assert_eq!(
        de.iter().map(|n| n.norm.as_str()).collect::<Vec<_>>(),
        vec!["V1.1.1", "V2.1.1"],
        "deleted skipped"
    );
    assert!(de
        .iter()
        .all(|n| n.lang == Lang::De && n.kind == NormKind::Control));
    assert_eq!(
        de[0].full_text(),
        "Prüfen Sie, dass der SDLC Sicherheit berücksichtigt. (C1)"
    );
    assert_eq!(de[0].hints, vec!["level:L2"]);
    assert_eq!(de[1].hints, vec!["level:L1", "cwe:521", "nist:5.1.1.2"]);
    assert_eq!(
        de[0].breadcrumb,
        vec!["V1 Architektur", "V1.1 Sicherer Entwicklungszyklus"]
    );
    let fw = de[1].framework.as_ref().expect("framework");
    assert_eq!(
        (
            fw.framework_id.as_str(),
            fw.framework_control_id.as_str(),
            fw.framework_family.as_str()
        ),
        ("OWASP-ASVS-4.0.3", "V2.1.1", "V2")
    );

    let en = asvs::parse(
        "controls/owasp-asvs-5.0.0-en.flat.json",
        &fixture("owasp-asvs-5.0.0-en.flat.json"),
    )
    .expect("parses");
    assert_eq!(en.len(), 2);
    assert!(en.iter().all(|n| n.lang == Lang::En));
    assert_eq!(en[1].hints, vec!["level:L1"]);
    assert_eq!(
        en[1].framework.as_ref().map(|f| f.framework_id.as_str()),
        Some("OWASP-ASVS-5.0.0")
    );

    // Without version/language in the file name: detected from the content.
    let de2 = asvs::parse("asvs.json", &fixture("owasp-asvs-4.0.3-de.flat.json")).expect("parses");
    assert_eq!(de2[0].lang, Lang::De);
    assert_eq!(
        de2[0].framework.as_ref().map(|f| f.framework_id.as_str()),
        Some("OWASP-ASVS-4.0.3")
    );
}

#[test]
fn asvs_rejects_malformed_input() {
    let good = fixture("owasp-asvs-5.0.0-en.flat.json");
    assert_rejects(
        |f, b| asvs::parse(f, b).map(|v| v.len()),
        &good,
        br#"{"requirements":[{"req_id":"V1.1.1","req_description":42}]}"#,
    );
}

// ---------------------------------------------------------------- mappings

#[test]
fn control_mapping_fixtures() {
    let iso = mappings::parse_control_mappings(
        "mappings/iso27001-mini.json",
        &fixture("iso27001-mini.json"),
        MappingKind::Iso27001,
    )
    .expect("parses");
    assert_eq!(iso.len(), 2);
    assert_eq!(iso[0].kind, MappingKind::Iso27001);
    assert_eq!(iso[0].control_id, "A.5.1");
    assert_eq!(iso[0].regulation, "GDPR");
    assert_eq!(iso[0].articles, vec!["24", "32"]);
    assert_eq!(iso[0].coverage, "partial");
    assert_eq!(
        iso[1].articles,
        vec!["Annex I", "21(2)", "13"],
        "numbers read as strings"
    );
    assert_eq!(iso[1].notes, "", "missing notes");
    let csf = mappings::parse_control_mappings(
        "mappings/nist-csf-mini.json",
        &fixture("nist-csf-mini.json"),
        MappingKind::NistCsf,
    )
    .expect("parses");
    assert_eq!(csf[0].articles, vec!["Recital 26"]);
    assert_eq!(csf[0].notes, "", "null notes");
}

#[test]
fn evidence_fixture() {
    let ev = mappings::parse_evidence(
        "mappings/evidence-mini.json",
        &fixture("evidence-mini.json"),
    )
    .expect("parses");
    assert_eq!(ev.len(), 2);
    let e = &ev[0];
    assert_eq!((e.regulation.as_str(), e.article.as_str()), ("GDPR", "30"));
    assert_eq!(e.description, "Records of processing activities");
    assert_eq!(e.auditor_questions, vec!["Show me your RoPA"]);
    assert_eq!(e.cross_references, vec!["GDPR:5", "GDPR:24"]);
    assert_eq!(
        e.maturity_levels,
        vec![
            ("advanced".to_string(), "Tool".to_string()),
            ("basic".to_string(), "Spreadsheet".to_string())
        ]
    );
    assert_eq!(ev[1].article, "Annex III");
    assert!(ev[1].cross_references.is_empty() && ev[1].retention_period.is_empty());
}

#[test]
fn mappings_reject_malformed_input() {
    let good = fixture("iso27001-mini.json");
    assert_rejects(
        |f, b| mappings::parse_control_mappings(f, b, MappingKind::Iso27001).map(|v| v.len()),
        &good,
        br#"[{"control_id":"A.5.1","articles":[{"n":1}]}]"#,
    );
    let good = fixture("evidence-mini.json");
    assert_rejects(
        |f, b| mappings::parse_evidence(f, b).map(|v| v.len()),
        &good,
        br#"[{"article":"5","auditor_questions":[true]}]"#,
    );
    let err =
        mappings::parse_evidence("e.json", br#"[{"article":"  "}]"#).expect_err("empty article");
    assert_eq!(err.position.as_deref(), Some("$[0].article"));
}

// ---------------------------------------------------------------- real corpus

#[test]
fn real_eu_acts() {
    let Some(root) = corpus() else { return };
    // (file, articles incl. the definitions article, recitals, embedded annexes)
    let expected = [
        ("gdpr.json", 99, 173, 0),
        ("nis2.json", 46, 144, 3),
        ("cra.json", 71, 130, 8),
        ("ai-act.json", 113, 180, 13),
        ("machinery.json", 54, 86, 12),
        ("eprivacy.json", 21, 49, 0),
        ("dora.json", 64, 106, 0),
        ("pld.json", 24, 64, 0),
        ("led.json", 65, 107, 0),
        ("red.json", 52, 75, 8),
        ("gpsr.json", 52, 108, 0),
        ("data-act.json", 50, 119, 0),
        ("cybersecurity-act.json", 69, 110, 0),
    ];
    for (file, arts, recs, annexes) in expected {
        let rel = format!("eu/en/{file}");
        let Some(bytes) = read_corpus(&root, &rel) else {
            continue;
        };
        let norms = eu_json::parse(&rel, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let got_arts = count(&norms, NormKind::Article) + count(&norms, NormKind::Definition);
        assert_eq!(got_arts, arts, "{file} articles");
        assert_eq!(
            count(&norms, NormKind::Definition),
            1,
            "{file}: one definitions article"
        );
        assert_eq!(count(&norms, NormKind::Recital), recs, "{file} recitals");
        assert_eq!(
            count(&norms, NormKind::Annex),
            annexes,
            "{file} embedded annexes"
        );
        for n in &norms {
            let t = n.full_text();
            assert!(!t.trim().is_empty(), "{file} {} empty", n.norm);
            assert!(
                !t.contains('\u{a0}') && !t.contains("  ") && !t.contains("////"),
                "{file} {} unclean",
                n.norm
            );
        }
    }
    if let Some(bytes) = read_corpus(&root, "eu/en/gdpr.json") {
        let norms = eu_json::parse("eu/en/gdpr.json", &bytes).unwrap_or_else(|e| panic!("{e}"));
        let a37 = find(&norms, "Art. 37");
        assert_eq!(a37.units.len(), 7);
        assert!(a37.units[0].text.contains("\n(b) the core activities"));
        let a4 = find(&norms, "Art. 4");
        assert_eq!(a4.kind, NormKind::Definition);
        assert_eq!(a4.units.len(), 27, "intro + 26 definitions");
        assert!(a4.hints.iter().any(|h| h == "term:personal data"));
        assert!(find(&norms, "Art. 83")
            .hints
            .iter()
            .any(|h| h == "chapter:VIII"));
        // Regression: the empty points (a), (b) of Art. 97(2) swallowed Abs. 3.
        assert_eq!(
            labels(find(&norms, "Art. 97")),
            vec![
                Some("Abs. 1"),
                Some("Abs. 2"),
                Some("Abs. 3"),
                Some("Abs. 4"),
                Some("Abs. 5")
            ]
        );
    }
}

#[test]
fn real_annex_files() {
    let Some(root) = corpus() else { return };
    for (file, n, first_title) in [
        (
            "cra-annexes.json",
            8,
            "ESSENTIAL CYBERSECURITY REQUIREMENTS",
        ),
        ("nis2-annexes.json", 3, "SECTORS OF HIGH CRITICALITY"),
        (
            "ai-act-annexes.json",
            13,
            "List of Union harmonisation legislation",
        ),
    ] {
        let rel = format!("eu/en-annexes/{file}");
        let Some(bytes) = read_corpus(&root, &rel) else {
            continue;
        };
        let norms = annex::parse(&rel, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(norms.len(), n, "{file}");
        assert_eq!(norms[0].norm, "Anhang I");
        assert_eq!(norms[0].title, first_title);
        assert!(
            norms
                .iter()
                .all(|a| !a.title.is_empty() && !a.full_text().is_empty()),
            "{file}"
        );
    }
    if let Some(bytes) = read_corpus(&root, "eu/en-annexes/cra-annexes.json") {
        let norms = annex::parse("cra", &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(labels(&norms[0]), vec![Some("Teil I"), Some("Teil II")]);
        assert_eq!(
            labels(&norms[7]),
            vec![
                Some("Teil I"),
                Some("Teil II"),
                Some("Teil III"),
                Some("Teil IV")
            ]
        );
    }
}

#[test]
fn real_foreign_files() {
    let Some(root) = corpus() else { return };
    if let Some(bytes) = read_corpus(&root, "foreign/ch-revdsg-sr-235-1.json") {
        let norms = foreign::parse_ch("foreign/ch-revdsg-sr-235-1.json", &bytes)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(norms.len(), 77);
        let a22 = find(&norms, "Art. 22");
        assert_eq!(a22.units.len(), 5);
        assert_eq!(find(&norms, "Art. 5").kind, NormKind::Definition);
        assert!(norms.iter().all(|n| !n.breadcrumb.is_empty()));
    }
    if let Some(bytes) = read_corpus(&root, "foreign/uk-gdpr-uk-gdpr-sections.json") {
        let norms = foreign::parse_uk("foreign/uk-gdpr-uk-gdpr-sections.json", &bytes)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            norms.len(),
            82,
            "119 sections, 37 wholly omitted in the UK version"
        );
        let a37 = find(&norms, "Art. 37");
        assert_eq!(a37.units.len(), 7);
        assert!(a37.units[0].text.contains("\n(b) the core activities"));
        assert!(norms.iter().any(|n| n.norm == "Art. 12A"));
    }
    if let Some(bytes) = read_corpus(&root, "foreign/uk-gdpr-uk-gdpr-schedules.json") {
        let norms = foreign::parse_uk("foreign/uk-gdpr-uk-gdpr-schedules.json", &bytes)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            norms.iter().map(|n| n.norm.as_str()).collect::<Vec<_>>(),
            vec!["Anhang 1", "Anhang 2"]
        );
        assert!(norms
            .iter()
            .all(|n| n.kind == NormKind::Schedule && n.units.len() > 3));
    }
    if let Some(bytes) = read_corpus(&root, "foreign/uk-gdpr-uk-gdpr-metadata.json") {
        assert!(
            foreign::parse_uk("foreign/uk-gdpr-uk-gdpr-metadata.json", &bytes)
                .unwrap_or_else(|e| panic!("{e}"))
                .is_empty()
        );
    }
}

#[test]
fn real_bsi_catalogues() {
    let Some(root) = corpus() else { return };
    for (file, controls, guidance, fw) in [
        (
            "controls/bsi-grundschutz-pp-kernel.oscal.json",
            901,
            899,
            "BSI-GS++",
        ),
        (
            "controls/bsi-grundschutz-pp-methodik.oscal.json",
            95,
            95,
            "BSI-GS++",
        ),
        (
            "controls/bsi-mindeststandard-tls-draft.oscal.json",
            17,
            8,
            "BSI-MST-TLS",
        ),
    ] {
        let Some(bytes) = read_corpus(&root, file) else {
            continue;
        };
        let norms = oscal::parse(file, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(count(&norms, NormKind::Control), controls, "{file}");
        assert_eq!(count(&norms, NormKind::ControlGuidance), guidance, "{file}");
        let mut ids: Vec<&str> = norms.iter().map(|n| n.norm.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), norms.len(), "{file}: norm ids unique");
        for n in &norms {
            assert_eq!(
                n.framework.as_ref().map(|f| f.framework_id.as_str()),
                Some(fw)
            );
            let t = n.full_text();
            assert!(!t.is_empty() && !t.contains("{{"), "{file} {}: {t}", n.norm);
        }
        if fw == "BSI-GS++" {
            let statements = norms.iter().filter(|n| n.kind == NormKind::Control);
            assert!(statements
                .clone()
                .all(|n| n.hints.iter().any(|h| h.starts_with("modal_verb:"))));
        }
    }
}

#[test]
fn real_nist_catalogues() {
    let Some(root) = corpus() else { return };
    if let Some(bytes) = read_corpus(&root, "controls/nist-sp800-53r5-controls.tsv") {
        let norms = nist::parse_tsv("nist.tsv", &bytes).unwrap_or_else(|e| panic!("{e}"));
        let controls: Vec<&RawNorm> = norms
            .iter()
            .filter(|n| n.kind == NormKind::Control)
            .collect();
        // 1,189 rows, of which 179 are withdrawn without text.
        assert_eq!(controls.len(), 1010);
        assert_eq!(
            controls.iter().filter(|n| !n.norm.contains('(')).count(),
            299
        );
        assert_eq!(count(&norms, NormKind::ControlGuidance), 1007);
        assert_eq!(find(&norms, "AC-2").units.len(), 12, "AC-2 a.–l.");
        assert!(find(&norms, "AC-2")
            .hints
            .iter()
            .any(|h| h == "related:AC-3"));
        assert!(norms.iter().any(|n| n.norm == "SR-12"));
    }
    if let Some(bytes) = read_corpus(&root, "controls/nist-sp800-82r3-ot-overlay.json") {
        let norms = nist::parse_82_json("n82.json", &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(norms.len(), 230);
        assert!(norms
            .iter()
            .all(|n| !n.full_text().is_empty() && !n.full_text().contains('|')));
        let with_baselines = norms
            .iter()
            .filter(|n| {
                n.units
                    .iter()
                    .any(|u| u.label.as_deref() == Some("Baselines"))
            })
            .count();
        assert!(with_baselines >= 220, "{with_baselines} with baselines");
    }
}

#[test]
fn real_asvs() {
    let Some(root) = corpus() else { return };
    for (file, n, lang, fw) in [
        (
            "controls/owasp-asvs-4.0.3-de.flat.json",
            278,
            Lang::De,
            "OWASP-ASVS-4.0.3",
        ),
        (
            "controls/owasp-asvs-5.0.0-en.flat.json",
            345,
            Lang::En,
            "OWASP-ASVS-5.0.0",
        ),
    ] {
        let Some(bytes) = read_corpus(&root, file) else {
            continue;
        };
        let norms = asvs::parse(file, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(norms.len(), n, "{file}");
        assert!(norms.iter().all(|r| r.lang == lang
            && r.framework.as_ref().is_some_and(|f| f.framework_id == fw)
            && r.hints.iter().any(|h| h.starts_with("level:L"))
            && !r.full_text().contains("](")));
    }
}

#[test]
fn real_mapping_files() {
    let Some(root) = corpus() else { return };
    let Ok(dir) = std::fs::read_dir(root.join("mappings")) else {
        paragraf_types::inputs::input_missing("the corpus's mappings folder");
        return;
    };
    let mut names: Vec<String> = dir
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let (mut controls, mut evidence, mut files) = (0, 0, 0);
    for name in names.iter().filter(|n| n.ends_with(".json")) {
        let rel = format!("mappings/{name}");
        let Some(bytes) = read_corpus(&root, &rel) else {
            continue;
        };
        files += 1;
        if name.starts_with("evidence-") {
            let ev = mappings::parse_evidence(&rel, &bytes).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                !ev.is_empty()
                    && ev
                        .iter()
                        .all(|e| !e.regulation.is_empty() && !e.auditor_questions.is_empty()),
                "{name}"
            );
            evidence += ev.len();
        } else {
            let kind = if name.starts_with("iso27001-") {
                MappingKind::Iso27001
            } else {
                MappingKind::NistCsf
            };
            let m = mappings::parse_control_mappings(&rel, &bytes, kind)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(
                !m.is_empty() && m.iter().all(|c| !c.articles.is_empty()),
                "{name}"
            );
            controls += m.len();
        }
    }
    assert_eq!(files, 39);
    assert_eq!(controls, 124 + 163);
    assert_eq!(evidence, 150);
}

// ---------------------------------------------------------------- robustness

/// Every corpus-B parser on the given bytes; the result only matters in that
/// it must come back (no panic).
fn run_all(name: &str, bytes: &[u8]) {
    let _ = eu_json::parse(name, bytes);
    let _ = annex::parse(name, bytes);
    let _ = foreign::parse_ch(name, bytes);
    let _ = foreign::parse_uk(name, bytes);
    let _ = foreign::parse_uk("uk-schedules.json", bytes);
    let _ = oscal::parse(name, bytes);
    let _ = nist::parse_tsv(name, bytes);
    let _ = nist::parse_82_json(name, bytes);
    let _ = asvs::parse(name, bytes);
    let _ = mappings::parse_control_mappings(name, bytes, MappingKind::NistCsf);
    let _ = mappings::parse_evidence(name, bytes);
}

const FIXTURES: &[&str] = &[
    "eu-mini.json",
    "annexes-mini.json",
    "ch-mini.json",
    "uk-mini-sections.json",
    "uk-mini-schedules.json",
    "bsi-mini-kernel.oscal.json",
    "bsi-mindeststandard-tls-mini.oscal.json",
    "nist-mini-800-53.tsv",
    "nist-mini-82-overlay.json",
    "owasp-asvs-4.0.3-de.flat.json",
    "owasp-asvs-5.0.0-en.flat.json",
    "iso27001-mini.json",
    "evidence-mini.json",
];

#[test]
fn every_prefix_of_every_fixture_is_handled_without_panic() {
    for name in FIXTURES {
        let bytes = fixture(name);
        for cut in 0..bytes.len() {
            run_all(name, &bytes[..cut]);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Random byte edits of the fixtures (wrong types, broken UTF-8, odd
    /// markers) never make a parser panic.
    #[test]
    fn mutated_fixtures_never_panic(
        which in 0usize..13,
        edits in proptest::collection::vec((0usize..100_000, proptest::prelude::any::<u8>()), 1..8),
    ) {
        let name = FIXTURES[which % FIXTURES.len()];
        let mut bytes = fixture(name);
        for (pos, b) in edits {
            let len = bytes.len();
            if len > 0 {
                bytes[pos % len] = b;
            }
        }
        run_all(name, &bytes);
    }
}
