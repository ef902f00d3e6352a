//! Industry mappings in `mappings/` (source class `mapping`), read as typed
//! records with the values exactly as the file states them; the pipeline
//! canonicalises regulation names and article strings (`"21(2)"`,
//! `"Annex I"`, `"Recital 26"`, `"GDPR:6"`) into norm ids.
//!
//! - `iso27001-*.json`, `nist-csf-*.json`: a list of `{control_id,
//!   control_name, regulation, articles:[…], coverage, notes}` →
//!   [`RawControlMapping`];
//! - `evidence-*.json`: a list of `{regulation, article, requirement_summary,
//!   evidence_type, artifact_name, artifact_example, description,
//!   retention_period, auditor_questions:[…], maturity_levels:{…},
//!   cross_references:[…]}` → [`RawEvidence`].
//!
//! Optional text fields may be missing or `null` (→ empty string); article
//! numbers may be JSON strings or numbers; a list given as a single string is
//! read as a one-element list.

use super::eu_json::text;
use crate::raw::ParseError;
use paragraf_types::MappingKind;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// One control of ISO 27001 / NIST CSF mapped to articles of one regulation,
/// as the mapping file states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawControlMapping {
    /// Which mapping family the file belongs to (from the caller).
    pub kind: MappingKind,
    /// `A.5.1`, `GV.OC-01`.
    pub control_id: String,
    pub control_name: String,
    /// Regulation as written in the file (`GDPR`, `AI_ACT`).
    pub regulation: String,
    /// Article strings as written (`"32"`, `"21(2)"`, `"Annex I"`).
    pub articles: Vec<String>,
    /// `full` / `partial` as the source says.
    pub coverage: String,
    pub notes: String,
}

/// Evidence artefact to keep for one obligation, as the file states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawEvidence {
    /// Regulation as written (`GDPR`).
    pub regulation: String,
    /// Article string as written (`"30"`, `"Annex III"`).
    pub article: String,
    pub requirement_summary: String,
    pub evidence_type: String,
    pub artifact_name: String,
    pub artifact_example: String,
    pub description: String,
    pub retention_period: String,
    pub auditor_questions: Vec<String>,
    /// Other norms named by the record, as written (`"GDPR:6"`).
    pub cross_references: Vec<String>,
    /// Maturity level → description (`basic`, `intermediate`, `advanced`),
    /// sorted by level name; empty when the file has none.
    pub maturity_levels: Vec<(String, String)>,
}

/// A string, number or null, read as a string (`null` → empty).
fn lenient_string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum S {
        Str(String),
        Int(i64),
        Float(f64),
        Null(()),
    }
    Ok(match Option::<S>::deserialize(d)? {
        Some(S::Str(s)) => s,
        Some(S::Int(i)) => i.to_string(),
        Some(S::Float(f)) => f.to_string(),
        Some(S::Null(())) | None => String::new(),
    })
}

/// A list of strings/numbers, a single string, or null.
fn lenient_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Item {
        Str(String),
        Int(i64),
    }
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum L {
        List(Vec<Item>),
        One(Item),
    }
    Ok(match Option::<L>::deserialize(d)? {
        Some(L::List(v)) => v
            .into_iter()
            .map(|i| match i {
                Item::Str(s) => s,
                Item::Int(n) => n.to_string(),
            })
            .collect(),
        Some(L::One(Item::Str(s))) => vec![s],
        Some(L::One(Item::Int(n))) => vec![n.to_string()],
        None => Vec::new(),
    })
}

#[derive(Deserialize)]
struct MappingRecord {
    #[serde(deserialize_with = "lenient_string")]
    control_id: String,
    #[serde(default, deserialize_with = "lenient_string")]
    control_name: String,
    #[serde(default, deserialize_with = "lenient_string")]
    regulation: String,
    #[serde(default, deserialize_with = "lenient_list")]
    articles: Vec<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    coverage: String,
    #[serde(default, deserialize_with = "lenient_string")]
    notes: String,
}

#[derive(Deserialize)]
struct EvidenceRecord {
    #[serde(default, deserialize_with = "lenient_string")]
    regulation: String,
    #[serde(deserialize_with = "lenient_string")]
    article: String,
    #[serde(default, deserialize_with = "lenient_string")]
    requirement_summary: String,
    #[serde(default, deserialize_with = "lenient_string")]
    evidence_type: String,
    #[serde(default, deserialize_with = "lenient_string")]
    artifact_name: String,
    #[serde(default, deserialize_with = "lenient_string")]
    artifact_example: String,
    #[serde(default, deserialize_with = "lenient_string")]
    description: String,
    #[serde(default, deserialize_with = "lenient_string")]
    retention_period: String,
    #[serde(default, deserialize_with = "lenient_list")]
    auditor_questions: Vec<String>,
    #[serde(default, deserialize_with = "lenient_list")]
    cross_references: Vec<String>,
    #[serde(default)]
    maturity_levels: Option<BTreeMap<String, String>>,
}

/// Parses an `iso27001-*.json` or `nist-csf-*.json` mapping file.
pub fn parse_control_mappings(
    file: &str,
    bytes: &[u8],
    kind: MappingKind,
) -> Result<Vec<RawControlMapping>, ParseError> {
    let recs: Vec<MappingRecord> =
        serde_json::from_slice(bytes).map_err(|e| text::json_error(file, &e))?;
    let mut out = Vec::with_capacity(recs.len());
    for (i, r) in recs.into_iter().enumerate() {
        let control_id = text::clean_line(&r.control_id);
        if control_id.is_empty() {
            return Err(ParseError::new(
                file,
                Some(format!("$[{i}].control_id")),
                "empty control_id",
            ));
        }
        out.push(RawControlMapping {
            kind,
            control_id,
            control_name: text::clean_line(&r.control_name),
            regulation: text::clean_line(&r.regulation),
            articles: r
                .articles
                .iter()
                .map(|a| text::clean_line(a))
                .filter(|a| !a.is_empty())
                .collect(),
            coverage: text::clean_line(&r.coverage),
            notes: text::clean_line(&r.notes),
        });
    }
    Ok(out)
}

/// Parses an `evidence-*.json` file.
pub fn parse_evidence(file: &str, bytes: &[u8]) -> Result<Vec<RawEvidence>, ParseError> {
    let recs: Vec<EvidenceRecord> =
        serde_json::from_slice(bytes).map_err(|e| text::json_error(file, &e))?;
    let mut out = Vec::with_capacity(recs.len());
    for (i, r) in recs.into_iter().enumerate() {
        let article = text::clean_line(&r.article);
        if article.is_empty() {
            return Err(ParseError::new(
                file,
                Some(format!("$[{i}].article")),
                "empty article",
            ));
        }
        let clean_list = |v: Vec<String>| {
            v.iter()
                .map(|s| text::clean_line(s))
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
        };
        out.push(RawEvidence {
            regulation: text::clean_line(&r.regulation),
            article,
            requirement_summary: text::clean_line(&r.requirement_summary),
            evidence_type: text::clean_line(&r.evidence_type),
            artifact_name: text::clean_line(&r.artifact_name),
            artifact_example: text::clean_line(&r.artifact_example),
            description: text::clean_line(&r.description),
            retention_period: text::clean_line(&r.retention_period),
            auditor_questions: clean_list(r.auditor_questions),
            cross_references: clean_list(r.cross_references),
            maturity_levels: r
                .maturity_levels
                .unwrap_or_default()
                .into_iter()
                .map(|(k, v)| (k, text::clean_line(&v)))
                .collect(),
        });
    }
    Ok(out)
}
