//! cargo-fuzz target `json_body`; the body is `checks::json_body` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/json_body/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::json_body(data));
