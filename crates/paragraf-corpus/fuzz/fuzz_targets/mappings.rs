//! cargo-fuzz target `mappings`; the body is `checks::mappings` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/mappings/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::mappings(data));
