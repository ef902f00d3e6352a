//! Shared by the `fuzz_regressions` tests of the corpus and server crates:
//! the regression inputs of a target, and the check that a cargo-fuzz
//! package's `[[bin]]`s, its `checks::TARGETS` and its `regressions/`
//! folders name the same targets, with no stray libFuzzer artifact beside
//! them.

use std::path::{Path, PathBuf};

/// The files in `regressions/<target>/` of the package at `fuzz_dir`, sorted.
pub fn regression_inputs(fuzz_dir: &Path, target: &str) -> Vec<PathBuf> {
    let dir = fuzz_dir.join("regressions").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Every cargo-fuzz binary of the package at `fuzz_dir` has a body in
/// `targets` (hence regression inputs), and every regression directory
/// belongs to a target.
pub fn assert_targets_match(fuzz_dir: &Path, targets: &[&str]) {
    let manifest = std::fs::read_to_string(fuzz_dir.join("Cargo.toml")).expect("fuzz manifest");
    let mut bins: Vec<&str> = manifest
        .split("[[bin]]")
        .skip(1)
        .filter_map(|sec| {
            sec.lines()
                .find_map(|l| l.trim().strip_prefix("name = \""))
                .and_then(|rest| rest.strip_suffix('"'))
        })
        .collect();
    bins.sort_unstable();
    let mut targets = targets.to_vec();
    targets.sort_unstable();
    assert_eq!(bins, targets, "fuzz/Cargo.toml [[bin]]s vs checks::TARGETS");
    let mut dirs: Vec<String> = std::fs::read_dir(fuzz_dir.join("regressions"))
        .expect("regressions dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert_eq!(dirs, targets, "fuzz/regressions/* vs checks::TARGETS");
    assert_no_artifacts(fuzz_dir);
}

/// libFuzzer's own names for what it writes into the working directory when
/// run without `-artifact_prefix`.
const ARTIFACT_PREFIXES: &[&str] = &["crash-", "timeout-", "oom-", "slow-unit-", "leak-"];

/// No crash, timeout or OOM file lies in the package directory: a found
/// input belongs, minimised and named for what it does, in
/// `regressions/<target>/` (a 0-byte `crash-da39…` was once committed).
pub fn assert_no_artifacts(fuzz_dir: &Path) {
    let mut stray: Vec<String> = std::fs::read_dir(fuzz_dir)
        .expect("fuzz dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| ARTIFACT_PREFIXES.iter().any(|p| n.starts_with(p)))
        .collect();
    stray.sort();
    assert!(
        stray.is_empty(),
        "libFuzzer artifacts in {}: {stray:?} (move a real finding to regressions/<target>/)",
        fuzz_dir.display()
    );
}
