//! The error type of the corpus crate. Every message names the file.

use crate::raw::ParseError;
use std::path::PathBuf;

/// Errors of manifest loading, ingestion, persistence and the scale run.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The source manifest could not be read or is invalid.
    #[error("manifest {file}: {message}")]
    Manifest { file: String, message: String },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A source file could not be parsed.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A saved corpus is malformed.
    #[error("{}: line {line}: {message}", path.display())]
    Format {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// The corpus directory does not exist or is not a directory.
    #[error("{}: corpus directory not found; pass the folder with de/, eu/, controls/ …", path.display())]
    NoCorpus { path: PathBuf },
}

impl CorpusError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        CorpusError::Io {
            path: path.into(),
            source,
        }
    }
}
