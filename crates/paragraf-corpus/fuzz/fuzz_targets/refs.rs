//! cargo-fuzz target `refs`; the body is `checks::refs` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/refs/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::refs(data));
