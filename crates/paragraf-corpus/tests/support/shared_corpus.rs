//! Where the real-corpus tests find `../shared/corpus` (`$PARAGRAF_CORPUS`
//! first); one definition for every test file that reads it.

use std::path::PathBuf;

/// The shared corpus directory, `None` when it is not there (the caller
/// reports that through `paragraf_types::inputs::input_missing`).
pub fn corpus_dir() -> Option<PathBuf> {
    let p = std::env::var_os("PARAGRAF_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../shared/corpus"
            ))
        });
    p.join("README.md").exists().then_some(p)
}
