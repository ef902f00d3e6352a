//! Everything that can go wrong in the engine.

/// Everything that can go wrong in the engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("the question is empty")]
    EmptyQuery,
    #[error("the question has {len} characters; the limit is {max}")]
    QueryTooLong { len: usize, max: usize },
    #[error("top_k {got} is out of range 1..={max}")]
    BadTopK { got: usize, max: usize },
    #[error("no index at {path}: build one with `paragraf index build --corpus ../shared/corpus --out {path}` (or run `paragraf quickstart`)")]
    MissingIndex { path: String },
    #[error(transparent)]
    Index(#[from] paragraf_index::IndexError),
    #[error(transparent)]
    Model(#[from] paragraf_models::ModelError),
    #[error(transparent)]
    Corpus(#[from] paragraf_corpus::CorpusError),
    #[error("no answer model configured: pass --model NAME (see `paragraf models list`)")]
    NoAnswerModel,
    /// `index build --strict` and corpus files were left out.
    #[error("{} corpus file(s) could not be indexed (--strict): {}", .0.len(), .0.iter().map(|s| format!("{}: {}", s.path, s.reason)).collect::<Vec<_>>().join("; "))]
    SkippedSources(Vec<paragraf_index::SkippedSource>),
    /// A rank-parameter layer that does not parse or names an unknown key
    /// (`origin`: the file, or the models.toml entry).
    #[error("rank parameters {origin}: {message}")]
    Params { origin: String, message: String },
    #[error("{0}")]
    Other(String),
}
