//! The one error type of this crate.

/// Everything that can go wrong while loading evaluation inputs or reports.
/// Each variant names the file and, where it applies, the line and field.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A report file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A golden-set line is not valid JSON or breaks the schema.
    #[error("{path}:{line}: invalid golden query: {message}")]
    GoldenLine {
        path: String,
        line: usize,
        message: String,
    },
    /// A golden-set line carries a field the schema does not know.
    #[error("{path}:{line}: unknown field `{field}` (known fields: {known})")]
    UnknownField {
        path: String,
        line: usize,
        /// Dotted path of the field, e.g. `expect.hit_at5`.
        field: String,
        known: &'static str,
    },
    /// Two golden queries share one id.
    #[error("{path}:{line}: duplicate id `{id}` (first used on line {first})")]
    DuplicateId {
        path: String,
        line: usize,
        id: String,
        first: usize,
    },
    /// The LegalQuAD file does not have the SQuAD shape expected.
    #[error("{path}: invalid LegalQuAD file at {at}: {message}")]
    LegalQuad {
        path: String,
        /// JSON position, e.g. `data[3].paragraphs[0]`.
        at: String,
        message: String,
    },
    /// Shard reports that do not make one run (`eval --merge`), or a bad
    /// `--shard` value.
    #[error("{what}: {message}")]
    Shard { what: String, message: String },
    /// A saved eval or bench report could not be parsed.
    #[error("{path}: invalid report JSON: {source}")]
    ReportJson {
        path: String,
        #[source]
        source: serde_json::Error,
    },
}

impl EvalError {
    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        EvalError::Io {
            path: path.display().to_string(),
            source,
        }
    }

    pub(crate) fn write(path: &std::path::Path, source: std::io::Error) -> Self {
        EvalError::Write {
            path: path.display().to_string(),
            source,
        }
    }
}
