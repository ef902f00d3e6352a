//! cargo-fuzz target `annex`; the body is `checks::annex` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/annex/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::annex(data));
