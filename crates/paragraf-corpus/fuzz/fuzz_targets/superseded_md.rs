//! cargo-fuzz target `superseded_md`; the body is `checks::superseded_md` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/superseded_md/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::superseded_md(data));
