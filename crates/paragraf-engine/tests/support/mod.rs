//! What the engine's integration tests share: the test models and the
//! fixture corpus.

use paragraf_engine::BuildOptions;
use paragraf_models::{DeviceChoice, Registry, ResolveOptions};
use std::path::PathBuf;

/// `PARAGRAF_TEST_MODELS` when it holds multilingual-e5-small.
pub fn models_dir() -> Option<PathBuf> {
    let d = PathBuf::from(std::env::var_os("PARAGRAF_TEST_MODELS")?);
    d.join("multilingual-e5-small/model.safetensors")
        .is_file()
        .then_some(d)
}

/// The fixture corpus of the binary's tests (real excerpts in their
/// official formats).
pub fn fixture_corpus() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../paragraf/tests/fixtures/corpus"
    ))
}

/// A CPU build of the fixture corpus into `out` with multilingual-e5-small
/// from `models`, batches of 8, every other option at its default.
pub fn fixture_build(out: PathBuf, models: PathBuf) -> BuildOptions {
    BuildOptions {
        device: DeviceChoice::Cpu,
        batch_size: 8,
        ..BuildOptions::new(
            fixture_corpus(),
            out,
            "multilingual-e5-small",
            Registry::builtin(),
            ResolveOptions {
                model_dir: Some(models),
                allow_download: false,
            },
        )
    }
}
