//! Parsers for the official source formats, source manifest, chunking,
//! reference extraction and the norm graph.

pub mod raw;

pub use raw::{NormKind, ParseError, RawControlMapping, RawEvidence, RawNorm, RawUnit};
