//! `paragraf corpus stats`: counts per regulation, class, role, status and
//! language, reference resolution, skipped files.

use crate::pipeline::{Ingested, SkippedFile};
use paragraf_types::Lang;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Counts for `paragraf corpus stats`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusStats {
    pub chunks: usize,
    /// Distinct norms (regulation, norm, lang).
    pub norms: usize,
    pub files_ingested: usize,
    pub files_skipped: Vec<SkippedFile>,
    pub files_ignored: usize,
    pub chunks_per_regulation: BTreeMap<String, usize>,
    /// Distinct norms per regulation and language (`DSGVO` → `de` → 272).
    pub norms_per_regulation: BTreeMap<String, BTreeMap<String, usize>>,
    pub per_class: BTreeMap<String, usize>,
    pub per_role: BTreeMap<String, usize>,
    pub per_role_rule: BTreeMap<String, usize>,
    pub per_status: BTreeMap<String, usize>,
    pub per_lang: BTreeMap<String, usize>,
    /// Superseded regulation → successor.
    pub superseded: BTreeMap<String, String>,
    /// References resolved to a norm of the corpus (per chunk, deduplicated).
    pub references_resolved: usize,
    /// Citations kept as text (unknown law or norm not in the corpus).
    pub references_unresolved: usize,
    /// resolved / (resolved + unresolved).
    pub resolution_rate: f64,
    pub control_mappings: usize,
    pub evidence: usize,
}

impl Ingested {
    /// Counts per regulation / class / role / status / language, resolution
    /// rate, skipped files.
    pub fn stats(&self) -> CorpusStats {
        let mut s = CorpusStats {
            chunks: self.chunks.len(),
            norms: 0,
            files_ingested: self.report.files.len(),
            files_skipped: self.report.skipped.clone(),
            files_ignored: self.report.ignored,
            chunks_per_regulation: BTreeMap::new(),
            norms_per_regulation: BTreeMap::new(),
            per_class: BTreeMap::new(),
            per_role: BTreeMap::new(),
            per_role_rule: BTreeMap::new(),
            per_status: BTreeMap::new(),
            per_lang: BTreeMap::new(),
            superseded: BTreeMap::new(),
            references_resolved: 0,
            references_unresolved: 0,
            resolution_rate: 0.0,
            control_mappings: self.control_mappings.len(),
            evidence: self.evidence.len(),
        };
        let mut norms: BTreeSet<(&str, &str, Lang)> = BTreeSet::new();
        for c in &self.chunks {
            *s.chunks_per_regulation
                .entry(c.regulation.clone())
                .or_default() += 1;
            *s.per_class.entry(c.source_class.to_string()).or_default() += 1;
            *s.per_role.entry(c.source_role.to_string()).or_default() += 1;
            *s.per_role_rule.entry(c.role_rule.clone()).or_default() += 1;
            *s.per_status.entry(c.status.to_string()).or_default() += 1;
            *s.per_lang.entry(c.lang.to_string()).or_default() += 1;
            if let Some(by) = &c.superseded_by {
                s.superseded.insert(c.regulation.clone(), by.clone());
            }
            s.references_resolved += c.references_out.len();
            s.references_unresolved += c.unresolved_references.len();
            norms.insert((c.regulation.as_str(), c.norm.as_str(), c.lang));
        }
        s.norms = norms.len();
        for (reg, _, lang) in norms {
            *s.norms_per_regulation
                .entry(reg.to_string())
                .or_default()
                .entry(lang.to_string())
                .or_default() += 1;
        }
        let total = s.references_resolved + s.references_unresolved;
        s.resolution_rate = if total == 0 {
            0.0
        } else {
            s.references_resolved as f64 / total as f64
        };
        s
    }
}
