//! cargo-fuzz target `eurlex_xhtml`; the body is `checks::eurlex_xhtml` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/eurlex_xhtml/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::eurlex_xhtml(data));
