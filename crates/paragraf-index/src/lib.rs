//! HNSW dense index and inverted index (BM25 + learned sparse), persisted.
//!
//! Invariant: takes `&[f32]` vectors and texts, never sees a model or a
//! device; every search is deterministic (score descending, ties by doc id,
//! where doc id = position in the chunk store).
//!
//! * [`dense`] — [`DenseIndex`]: hnsw_rs graph + exact brute force, filters.
//! * [`analyzer`] — German/English [`Analyzer`]: folding, Snowball, stop
//!   words, decompounding, § / Art. tokens.
//! * [`inverted`] — [`InvertedIndex`]: BM25 and learned-sparse fields.
//! * [`filter`] — [`Filter`] on chunk metadata.
//! * [`headings`] — [`HeadingVectors`]: one vector per norm heading and language.
//! * [`mapped`] — [`mapped::Slab`]: vectors and postings read in place from mapped files.
//! * [`store`] — the index directory: [`write_index`], [`open_index`].
//! * [`checkpoint`] — [`EmbeddingCheckpoint`] for resumable embedding.
//! * [`bench`] — measurement functions for the benches and `paragraf bench`.

pub mod analyzer;
pub mod bench;
pub mod checkpoint;
mod codec;
pub mod dense;
pub mod error;
pub mod filter;
mod flat;
pub mod headings;
pub mod inverted;
pub mod mapped;
pub mod store;
pub mod topk;

pub use analyzer::{Analyzer, AnalyzerConfig, Bm25Params};
pub use checkpoint::{text_hash, CheckpointEntry, EmbeddingCheckpoint};
pub use dense::{DenseIndex, HnswParams};
pub use error::IndexError;
pub use filter::Filter;
pub use headings::{HeadingEntry, HeadingVectors};
pub use inverted::{InvertedIndex, Pick};
pub use store::{
    corpus_hash, open_index, read_manifest, verify_index, write_index, CorpusExtras, EmbedderMeta,
    FileEntry, IndexCounts, IndexManifest, LawTitles, LoadTimings, LoadedIndex, ScaleTier,
    SkippedSource, VectorDtype, VerifyReport, FORMAT_VERSION,
};
pub use topk::Hit;
