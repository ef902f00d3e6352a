//! The crate's error type.

/// Errors of paragraf-rank. Ranking itself never fails; only loading a
/// lexicon or a parameter override can.
#[derive(Debug, thiserror::Error)]
pub enum RankError {
    /// The lexicon is not valid TOML or does not match the schema.
    #[error("lexicon: {message}")]
    LexiconToml { message: String },
    /// A lexicon field holds an invalid value.
    #[error("lexicon field `{field}`: {message}")]
    Lexicon { field: String, message: String },
    /// A `RankParams` override (TOML) is invalid.
    #[error("rank params (toml): {message}")]
    ParamsToml { message: String },
    /// A `RankParams` override (JSON) is invalid.
    #[error("rank params (json): {message}")]
    ParamsJson { message: String },
    /// A parameter value is out of its range.
    #[error("rank params field `{field}`: {message}")]
    Param {
        field: &'static str,
        message: String,
    },
}
