//! The crate's error type.

use std::path::PathBuf;

/// Everything that can go wrong while resolving, loading or running a model.
/// Messages name the model, file, field or position involved.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// `models.toml` could not be read or parsed.
    #[error("registry {path}: {message}")]
    Registry {
        /// The file (or `<builtin>`).
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A model name that is not in the registry.
    #[error("unknown model `{name}`; known models: {known}")]
    UnknownModel {
        /// The requested name.
        name: String,
        /// Comma-separated list of known names.
        known: String,
    },
    /// A model file could not be found locally (and was not downloaded).
    #[error("model `{model}`: file `{file}` not found (hub: {repo}); looked in: {searched}")]
    NotFound {
        /// Registry name.
        model: String,
        /// File name in the repository.
        file: String,
        /// Hub repository and revision (`owner/name@revision`).
        repo: String,
        /// Places searched, and how to make the file available.
        searched: String,
    },
    /// Download failed or is not available in this build.
    #[error("download of {repo}/{file}: {message}")]
    Download {
        /// Hub repository.
        repo: String,
        /// File name.
        file: String,
        /// What went wrong.
        message: String,
    },
    /// Reading a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A model file is malformed (truncated, wrong tensors, bad config).
    #[error("{path}: invalid model file: {message}")]
    InvalidModel {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The model's architecture is not the one expected / not supported.
    #[error("model `{model}`: architecture `{found}` is not supported here (expected {expected})")]
    WrongArchitecture {
        /// Model name or file.
        model: String,
        /// Architecture found.
        found: String,
        /// What was expected.
        expected: String,
    },
    /// Tokenizer problems (load, mismatch with the model, encode/decode).
    #[error("tokenizer ({context}): {message}")]
    Tokenizer {
        /// Which tokenizer / file.
        context: String,
        /// What is wrong.
        message: String,
    },
    /// Invalid request input (empty text, empty message list, bad parameters).
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// Unknown device string.
    #[error("unknown device `{0}` (expected auto, cpu, cuda, cuda:N or metal)")]
    BadDevice(String),
    /// An error inside candle during inference.
    #[error("inference ({context}): {source}")]
    Candle {
        /// What was being done.
        context: String,
        /// The candle error.
        #[source]
        source: candle_core::Error,
    },
}

impl ModelError {
    /// Wraps a candle error with context.
    pub(crate) fn candle(context: impl Into<String>) -> impl FnOnce(candle_core::Error) -> Self {
        let context = context.into();
        move |source| ModelError::Candle { context, source }
    }

    /// An invalid-model error for `path`.
    pub(crate) fn invalid(path: &std::path::Path, message: impl std::fmt::Display) -> Self {
        ModelError::InvalidModel {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }
}
