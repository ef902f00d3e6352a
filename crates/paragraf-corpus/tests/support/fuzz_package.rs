//! Shared by the `fuzz_regressions` tests of the corpus and server crates:
//! the regression inputs of a target, and the check that a cargo-fuzz
//! package's `[[bin]]`s, its `checks::TARGETS` and its `regressions/`
//! folders name the same targets.

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
}
