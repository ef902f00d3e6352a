//! What the real-model test files share: where the test models are and how
//! to resolve from there only.

use paragraf_models::ResolveOptions;
use std::path::PathBuf;

/// `PARAGRAF_TEST_MODELS` (fetched by `../shared/models/fetch-test-models.sh`);
/// missing, the test says it did not run, and fails under
/// `PARAGRAF_REQUIRE_INPUTS=1` (CI, `scripts/test.sh`).
pub fn models_dir() -> Option<PathBuf> {
    match std::env::var_os("PARAGRAF_TEST_MODELS").map(PathBuf::from) {
        Some(d) if d.is_dir() => Some(d),
        _ => {
            paragraf_types::inputs::input_missing(
                "PARAGRAF_TEST_MODELS (a directory of test models)",
            );
            None
        }
    }
}

/// Resolve model files from `dir`, never from the hub.
pub fn opts(dir: PathBuf) -> ResolveOptions {
    ResolveOptions {
        model_dir: Some(dir),
        allow_download: false,
    }
}
