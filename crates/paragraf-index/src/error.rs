//! The one error type of this crate.

use std::path::PathBuf;

/// Everything that can go wrong while building, writing or opening an index.
///
/// Messages are lower-case, name the file / field / position involved and,
/// where the user can fix it, say how.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// Nothing to index.
    #[error("empty corpus: {0}")]
    Empty(String),
    /// Vectors or queries whose dimension does not match the index.
    #[error("dimension mismatch in {what}: expected {expected}, got {got}")]
    DimMismatch {
        /// Which input was wrong (`vectors`, `query`, `checkpoint batch`).
        what: String,
        expected: usize,
        got: usize,
    },
    /// A parameter outside its documented range.
    #[error("invalid parameter `{name}`: {reason}")]
    InvalidParam {
        /// Field name, e.g. `hnsw.m`.
        name: &'static str,
        reason: String,
    },
    /// Input data that cannot be indexed (NaN in a vector, sparse list of the wrong length).
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// An I/O error, with the path it happened on.
    #[error("i/o error on {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A file of the index directory failed its checksum or could not be decoded.
    #[error("corrupt index file {path}: {reason}; rebuild with `paragraf index build`")]
    Corrupt { path: PathBuf, reason: String },
    /// The index directory is missing, half-written, or of another format version.
    #[error("{0}")]
    Incompatible(String),
}

impl IndexError {
    /// Wrap an `std::io::Error` with the path it happened on.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        IndexError::Io {
            path: path.into(),
            source,
        }
    }

    /// A decoding / checksum failure of `path`.
    pub fn corrupt(path: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        IndexError::Corrupt {
            path: path.into(),
            reason: reason.into(),
        }
    }
}
