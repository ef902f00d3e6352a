//! The body of every corpus fuzz target, shared by the cargo-fuzz binaries
//! (`fuzz_targets/*.rs`) and the stable regression test
//! (`tests/fuzz_regressions.rs`), both through `#[path] mod checks;`.
//!
//! The contract of every parser: any bytes give `Ok` or a `ParseError` that
//! names the file — never a panic (libFuzzer aborts on one), never unbounded
//! time or memory (`-timeout`, `-rss_limit_mb` of `scripts/fuzz.sh`).
#![allow(dead_code)]

use paragraf_corpus::parsers::{
    annex, asvs, eu_json, eurlex_xhtml, foreign, formex, gii, mappings, nist, oscal, superseded_md,
};
use paragraf_corpus::{extract_references, parse_norm_query, Manifest, ParseError};
use paragraf_types::MappingKind;
use std::sync::OnceLock;

/// File name handed to the parsers; every error must carry it.
pub const FILE: &str = "fuzz.input";

/// A target: its name and its body.
pub type Target = (&'static str, fn(&[u8]));

/// Every target: (name, body). The name is the cargo-fuzz binary and the
/// directory under `fuzz/regressions/`.
pub const TARGETS: &[Target] = &[
    ("gii", gii),
    ("formex", formex),
    ("eurlex_xhtml", eurlex_xhtml),
    ("superseded_md", superseded_md),
    ("refs", refs),
    ("annex", annex),
    ("asvs", asvs),
    ("eu_json", eu_json),
    ("foreign", foreign),
    ("mappings", mappings),
    ("nist", nist),
    ("oscal", oscal),
];

fn names_file<T>(what: &str, r: Result<T, ParseError>) {
    if let Err(e) = r {
        assert_eq!(e.file, FILE, "{what}: the error must name the file: {e}");
    }
}

/// `gii::parse_law` (what `gii::parse` calls).
pub fn gii(data: &[u8]) {
    names_file("gii::parse_law", gii::parse_law(FILE, data));
}

pub fn formex(data: &[u8]) {
    names_file("formex::parse", formex::parse(FILE, data));
}

pub fn eurlex_xhtml(data: &[u8]) {
    names_file("eurlex_xhtml::parse", eurlex_xhtml::parse(FILE, data));
}

/// `superseded_md::parse_with_front_matter` (what `superseded_md::parse`
/// calls).
pub fn superseded_md(data: &[u8]) {
    names_file(
        "superseded_md::parse_with_front_matter",
        superseded_md::parse_with_front_matter(FILE, data),
    );
}

pub fn annex(data: &[u8]) {
    names_file("annex::parse", annex::parse(FILE, data));
}

pub fn asvs(data: &[u8]) {
    names_file("asvs::parse", asvs::parse(FILE, data));
}

pub fn eu_json(data: &[u8]) {
    names_file("eu_json::parse", eu_json::parse(FILE, data));
}

/// Both foreign formats on the same bytes (both are JSON).
pub fn foreign(data: &[u8]) {
    names_file("foreign::parse_ch", foreign::parse_ch(FILE, data));
    names_file("foreign::parse_uk", foreign::parse_uk(FILE, data));
}

/// Both mapping kinds and the evidence file on the same bytes.
pub fn mappings(data: &[u8]) {
    for kind in [MappingKind::Iso27001, MappingKind::NistCsf] {
        names_file(
            "mappings::parse_control_mappings",
            mappings::parse_control_mappings(FILE, data, kind),
        );
    }
    names_file(
        "mappings::parse_evidence",
        mappings::parse_evidence(FILE, data),
    );
}

/// The SP 800-53 TSV and the SP 800-82 overlay JSON on the same bytes.
pub fn nist(data: &[u8]) {
    names_file("nist::parse_tsv", nist::parse_tsv(FILE, data));
    names_file("nist::parse_82_json", nist::parse_82_json(FILE, data));
}

pub fn oscal(data: &[u8]) {
    names_file("oscal::parse", oscal::parse(FILE, data));
}

fn manifest() -> &'static Manifest {
    static M: OnceLock<Manifest> = OnceLock::new();
    M.get_or_init(|| Manifest::builtin().expect("builtin manifest"))
}

/// The reference extractor and the norm-query parser on the (lossily
/// decoded) text: never panic, and the same input gives the same output.
pub fn refs(data: &[u8]) {
    let s = String::from_utf8_lossy(data);
    let m = manifest();
    for citing in ["BDSG", "DSGVO"] {
        let a = extract_references(&s, citing, m);
        assert_eq!(a, extract_references(&s, citing, m), "deterministic");
    }
    let q = parse_norm_query(&s, m);
    assert_eq!(q, parse_norm_query(&s, m), "deterministic");
}
