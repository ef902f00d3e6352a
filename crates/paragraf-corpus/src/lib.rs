//! Parsers for the official source formats, source manifest, chunking,
//! reference extraction and the norm graph.

pub mod raw;

pub mod assemble;
pub mod chunking;
pub mod error;
pub mod lawnames;
pub mod manifest;
pub mod norm_order;
pub mod parsers;
pub mod persist;
pub mod pipeline;
pub mod refs;
pub mod scale;
pub mod stats;

pub use error::CorpusError;
pub use lawnames::LawNames;
pub use manifest::Manifest;
pub use parsers::mappings::{RawControlMapping, RawEvidence};
pub use parsers::SourceFormat;
pub use pipeline::{
    ingest, FileReport, IngestOptions, IngestReport, Ingested, Progress, SkippedFile,
};
pub use raw::{NormKind, ParseError, RawNorm, RawUnit};
pub use refs::{
    act_numbers, extract_references, extract_references_with, parse_norm_query, Extracted,
};
pub use stats::CorpusStats;
