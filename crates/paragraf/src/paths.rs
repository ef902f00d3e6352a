//! Default locations: the data directory, the corpus, the index, the models.

use std::path::PathBuf;

/// `$PARAGRAF_HOME`, else `$XDG_DATA_HOME/paragraf`, else
/// `$HOME/.local/share/paragraf`, else `./.paragraf`.
pub fn default_home() -> PathBuf {
    if let Some(h) = std::env::var_os("PARAGRAF_HOME") {
        return PathBuf::from(h);
    }
    if let Some(x) = std::env::var_os("XDG_DATA_HOME") {
        return PathBuf::from(x).join("paragraf");
    }
    if let Some(h) = std::env::var_os("HOME") {
        return PathBuf::from(h).join(".local/share/paragraf");
    }
    PathBuf::from(".paragraf")
}

/// The corpus directory: `$PARAGRAF_CORPUS`, else `../shared/corpus` or
/// `shared/corpus` when present.
pub fn default_corpus() -> PathBuf {
    if let Some(c) = std::env::var_os("PARAGRAF_CORPUS") {
        return PathBuf::from(c);
    }
    for c in ["../shared/corpus", "shared/corpus", "../../shared/corpus"] {
        let p = PathBuf::from(c);
        if p.is_dir() {
            return p;
        }
    }
    PathBuf::from("../shared/corpus")
}

/// The script that lays out the small offline test models, when present.
pub fn fetch_script() -> Option<PathBuf> {
    let corpus = default_corpus();
    let candidates = [
        corpus.join("../models/fetch-test-models.sh"),
        PathBuf::from("../shared/models/fetch-test-models.sh"),
    ];
    candidates.into_iter().find(|p| p.is_file())
}
