//! cargo-fuzz target `nist`; the body is `checks::nist` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/nist/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::nist(data));
