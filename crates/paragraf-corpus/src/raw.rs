//! The interface between the format parsers and the ingestion pipeline.
//!
//! A parser turns the bytes of one source file into [`RawNorm`]s: citable
//! units with their text split into sub-units (Absätze), no metadata beyond
//! what the file itself says. The pipeline then applies the source manifest
//! (regulation, class, role rules, domains, status …), chunks by token budget,
//! extracts references and builds [`paragraf_types::Chunk`]s.

use paragraf_types::{Framework, Lang};
use serde::{Deserialize, Serialize};

/// What kind of citable unit a [`RawNorm`] is; role rules match on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NormKind {
    /// EU article (`Art. 37`).
    Article,
    /// German statute section (`§ 38`).
    Section,
    /// Recital (`ErwG 97`).
    Recital,
    /// Annex or annex section (`Anhang I`, `Anhang I Teil II`).
    Annex,
    /// A definition entry of an EU act (from the `definitions` list).
    Definition,
    /// A catalogue control or requirement (BSI GS++, NIST, ASVS).
    Control,
    /// The guidance part of a control (BSI GS++ `guidance`, NIST discussion).
    ControlGuidance,
    /// A schedule (UK).
    Schedule,
}

/// One sub-unit of a norm: an Absatz / paragraph, with its label when the
/// source numbers it (`Abs. 1`, `(2)`, `1.`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawUnit {
    /// Normalised label: `Abs. 1` for German sections/articles, `para. 1`
    /// for English articles; `None` for an unnumbered text block.
    pub label: Option<String>,
    /// Plain text, lists flattened as `1. …` lines, footnotes dropped.
    pub text: String,
}

/// One citable unit as read from a source file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RawNorm {
    pub kind: NormKind,
    /// Norm label in the canonical German citation style: `Art. 37`, `§ 38`,
    /// `§ 4f`, `ErwG 97`, `Anhang I`, `AC-7`, `V2.4.1`.
    pub norm: String,
    pub title: String,
    /// Structure headings above the norm, outermost first.
    pub breadcrumb: Vec<String>,
    pub units: Vec<RawUnit>,
    pub lang: Lang,
    /// Framework fields for controls (09).
    pub framework: Option<Framework>,
    /// Free-form hints a role rule may match on (e.g. `chapter:Remedies,
    /// liability and penalties`, `part:guidance`).
    pub hints: Vec<String>,
}

impl RawNorm {
    /// Whole text of the norm, units joined by blank lines.
    pub fn full_text(&self) -> String {
        let mut s = String::new();
        for u in &self.units {
            if !s.is_empty() {
                s.push_str("\n\n");
            }
            s.push_str(&u.text);
        }
        s
    }
}

/// A parse failure, always naming the file and, where known, the position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", position.as_ref().map(|p| format!(" at {p}")).unwrap_or_default())]
pub struct ParseError {
    /// File path as given to the parser (relative to the corpus root).
    pub file: String,
    /// Byte offset, line or JSON path where the problem was found.
    pub position: Option<String>,
    pub message: String,
}

impl ParseError {
    pub fn new(file: &str, position: Option<String>, message: impl Into<String>) -> Self {
        ParseError {
            file: file.to_string(),
            position,
            message: message.into(),
        }
    }
}
