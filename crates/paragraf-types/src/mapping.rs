//! Typed records of `../shared/corpus/mappings` (design 09): norm → control
//! mappings (ISO 27001, NIST CSF) and obligation → evidence artefacts.

use crate::chunk::NormRef;
use serde::{Deserialize, Serialize};

/// Which mapping family a record comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MappingKind {
    Iso27001,
    NistCsf,
}

/// One control of a framework mapped to norms of one regulation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ControlMapping {
    pub kind: MappingKind,
    /// Framework id, e.g. `ISO-27001:2022`, `NIST-CSF-2.0`.
    pub framework_id: String,
    pub control_id: String,
    pub control_name: String,
    /// Canonical regulation name (GDPR → DSGVO).
    pub regulation: String,
    /// Canonical norm ids the control covers (`Art. 32 DSGVO`).
    pub norms: Vec<NormRef>,
    /// `full` / `partial` as the source says.
    pub coverage: String,
    pub notes: String,
    pub source_file: String,
}

/// Evidence artefact to keep for one obligation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvidenceItem {
    /// Canonical norm id of the obligation (`Art. 30 DSGVO`).
    pub norm: NormRef,
    pub regulation: String,
    pub requirement_summary: String,
    pub evidence_type: String,
    pub artifact_name: String,
    pub artifact_example: String,
    pub description: String,
    pub retention_period: String,
    pub auditor_questions: Vec<String>,
    /// Other norms named by the record, canonicalised.
    pub cross_references: Vec<NormRef>,
    pub source_file: String,
}
