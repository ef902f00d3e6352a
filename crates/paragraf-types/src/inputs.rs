//! Test inputs that live outside the repository (the shared corpus, the small
//! real models): one rule for what a test does when they are missing.
//!
//! On a developer machine without them a real-input test says why it does
//! not run and returns. With `PARAGRAF_REQUIRE_INPUTS=1` — set by `.ci/run`
//! and by `scripts/test.sh` whenever the shared folder is present — a missing
//! input fails the test instead, so a green run never hides a test that did
//! not run.

/// Environment variable that turns a missing test input into a failure.
pub const REQUIRE_INPUTS_ENV: &str = "PARAGRAF_REQUIRE_INPUTS";

/// Whether missing test inputs must fail the test.
pub fn inputs_required() -> bool {
    std::env::var(REQUIRE_INPUTS_ENV).is_ok_and(|v| v == "1")
}

/// A test input is missing: panic when inputs are required, else print
/// `not run: <what>` to stderr. The caller returns afterwards.
///
/// # Panics
/// When `PARAGRAF_REQUIRE_INPUTS=1`.
pub fn input_missing(what: &str) {
    if inputs_required() {
        panic!("required test input missing ({REQUIRE_INPUTS_ENV}=1): {what}");
    }
    eprintln!("not run: {what} (set {REQUIRE_INPUTS_ENV}=1 to make this a failure)");
}
