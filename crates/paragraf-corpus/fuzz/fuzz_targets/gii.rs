//! cargo-fuzz target `gii`; the body is `checks::gii` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/gii/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::gii(data));
