//! cargo-fuzz target `formex`; the body is `checks::formex` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/formex/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::formex(data));
