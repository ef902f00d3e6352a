//! Shared data model of Paragraf.
//!
//! Invariant: this crate holds plain data and tiny pure helpers only — no I/O,
//! no parsing of source formats, no ranking logic. Every other crate depends on
//! it; it depends on nothing of ours.
//!
//! * [`chunk`] — [`Chunk`], the citable unit with its full metadata (design §2).
//! * [`enums`] — [`SourceClass`] (03), [`SourceRole`] (04), [`Status`],
//!   [`Jurisdiction`], [`Domain`], [`Lang`].
//! * [`mapping`] — typed records of `../shared/corpus/mappings` (09).
//! * [`output`] — the output contract of CLI `--json` and HTTP.
//! * [`time`] — UTC timestamps for manifests and reports.
//! * [`german`] — the `zu` inside German infinitives (lexicon and analyzer).
//! * [`limits`] — the request limits CLI, engine, server and eval share.

pub mod chunk;
pub mod enums;
pub mod german;
pub mod limits;
pub mod mapping;
pub mod memory;
pub mod output;
pub mod rng;
pub mod time;
pub mod vector;

pub mod inputs;
pub use chunk::{Chunk, ChunkId, Framework, NormRef};
pub use enums::{Domain, Jurisdiction, Lang, ParseEnumError, SourceClass, SourceRole, Status};
pub use mapping::{ControlMapping, EvidenceItem, MappingKind};
pub use output::{
    AbstainReason, Answer, Assessment, Evidence, RemovedCitation, ReviewCode, ScoreTerm,
    SearchResponse, SearchResult, Timings,
};
