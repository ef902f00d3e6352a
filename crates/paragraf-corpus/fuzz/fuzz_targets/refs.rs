//! Fuzz the reference extractor and the norm-query parser: never panic, and
//! the same input gives the same output.
#![no_main]
use libfuzzer_sys::fuzz_target;
use paragraf_corpus::{extract_references, parse_norm_query, Manifest};
use std::sync::OnceLock;

fn manifest() -> &'static Manifest {
    static M: OnceLock<Manifest> = OnceLock::new();
    M.get_or_init(|| Manifest::builtin().expect("builtin manifest"))
}

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let a = extract_references(s, "BDSG", manifest());
        assert_eq!(a, extract_references(s, "BDSG", manifest()));
        let _ = parse_norm_query(s, manifest());
    }
});
