//! Pure, deterministic ranking of Paragraf: query analysis (01), fusion
//! (01), authority rerank (seed 02), control roles + diversity (seed 05),
//! supersede (08), assessment (seed 06) + confidence (seed 07), framework
//! layer (09) and score explanations (08).
//!
//! Invariant: no I/O, no models, no device, no threads, no clock. The same
//! input gives the same output on every machine; every score is the sum of
//! its explanation terms. The lexicon is data (`lexicon/query.toml`,
//! embedded), every constant lives in [`constants`] and can be overridden
//! through [`RankParams`].
//!
//! ```
//! use paragraf_rank::{analyze_query, Lexicon};
//! let q = analyze_query("Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?", &[], Lexicon::builtin());
//! assert!(q.topic_norms.iter().any(|n| n.as_str() == "Art. 37 DSGVO"));
//! ```

pub mod abbreviations;
pub mod answer_type;
pub mod assess;
pub mod bilingual;
pub mod constants;
pub mod error;
pub mod explain;
pub mod frame;
pub mod headings;
pub mod lexicon;
pub mod params;
pub mod query;
pub mod rank;
pub mod synonyms;
#[cfg(feature = "testing")]
pub mod testing;
mod text;

pub use answer_type::AnswerType;
pub use assess::{assess, relevance_gate};
pub use bilingual::BilingualTerms;
pub use error::RankError;
pub use explain::explain_table;
pub use headings::{
    defined_terms_in, definition_topics_set_aside, exceptions_set_aside, keep_asked_terms,
    keep_definition_answers, keep_meant_laws, keep_named_law_titles, keep_named_laws,
    law_title_variants, meant_definitions, DefinedTerms, Heading, HeadingMatch, HeadingTable,
    LawMatch, LawTitleTable, QueryTerms,
};
pub use lexicon::Lexicon;
pub use params::{ControlRoleBonus, FusionMethod, RankParams};
pub use query::{
    analyze_query, analyze_query_with, ActiveScopeRule, AsOf, DateRange, QueryAnalysis, Signal,
};
pub use rank::{ids, rank, Candidate, Stage};
pub use synonyms::Synonyms;
/// The tokens a question is matched against lexicon patterns with.
pub use text::tokens_with_variants as question_tokens;
pub use text::{norm_key as text_key, norm_number, Pattern};
