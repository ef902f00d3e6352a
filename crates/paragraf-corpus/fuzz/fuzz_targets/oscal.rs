//! cargo-fuzz target `oscal`; the body is `checks::oscal` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/oscal/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::oscal(data));
