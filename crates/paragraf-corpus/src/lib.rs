//! Parsers for the official source formats, source manifest, chunking,
//! reference extraction and the norm graph.

pub mod raw;

pub mod parsers;

pub use parsers::mappings::{RawControlMapping, RawEvidence};
pub use parsers::SourceFormat;
pub use raw::{NormKind, ParseError, RawNorm, RawUnit};
