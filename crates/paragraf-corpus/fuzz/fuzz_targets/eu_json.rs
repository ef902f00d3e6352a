//! cargo-fuzz target `eu_json`; the body is `checks::eu_json` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/eu_json/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::eu_json(data));
