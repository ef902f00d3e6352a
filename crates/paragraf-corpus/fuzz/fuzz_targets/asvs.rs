//! cargo-fuzz target `asvs`; the body is `checks::asvs` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/asvs/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::asvs(data));
