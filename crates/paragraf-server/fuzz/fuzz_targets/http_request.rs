//! cargo-fuzz target `http_request`; the body is `checks::http_request` (see `../checks.rs`),
//! which `tests/fuzz_regressions.rs` runs on `regressions/http_request/`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::http_request(data));
