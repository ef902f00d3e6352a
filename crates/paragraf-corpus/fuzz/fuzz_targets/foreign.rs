//! cargo-fuzz target `foreign`; the body is `checks::foreign` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/foreign/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::foreign(data));
