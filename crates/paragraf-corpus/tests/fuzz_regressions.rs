//! The committed fuzz inputs (`fuzz/regressions/<target>/*`: hand-made
//! tricky inputs and every input a fuzzer ever crashed on) through the same
//! body the cargo-fuzz target runs (`fuzz/checks.rs`), on stable, in the
//! normal test run. See docs/fuzzing.md.

#[path = "../fuzz/checks.rs"]
mod checks;
#[path = "support/fuzz_package.rs"]
mod fuzz_package;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The bound of one input (the fuzzer's `-timeout`).
const PER_INPUT: Duration = Duration::from_secs(10);

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

fn inputs(target: &str) -> Vec<PathBuf> {
    fuzz_package::regression_inputs(&fuzz_dir(), target)
}

#[test]
fn every_regression_input_passes_its_target() {
    let mut failures = Vec::new();
    let mut count = 0;
    for &(name, body) in checks::TARGETS {
        let files = inputs(name);
        assert!(!files.is_empty(), "no regression inputs for `{name}`");
        for f in files {
            let data = std::fs::read(&f).expect("readable input");
            let t = Instant::now();
            let outcome = std::panic::catch_unwind(|| body(&data));
            let took = t.elapsed();
            count += 1;
            if outcome.is_err() {
                failures.push(format!("{name}: {} panics", f.display()));
            } else if took > PER_INPUT {
                failures.push(format!("{name}: {} took {took:?}", f.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(count >= checks::TARGETS.len());
}

/// Every cargo-fuzz binary has a body in `checks::TARGETS` (hence
/// regression inputs), and every regression directory belongs to a target.
#[test]
fn targets_and_regression_dirs_match_the_fuzz_package() {
    let targets: Vec<&str> = checks::TARGETS.iter().map(|(n, _)| *n).collect();
    fuzz_package::assert_targets_match(&fuzz_dir(), &targets);
}
