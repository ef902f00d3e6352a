//! The citable unit: [`Chunk`] and its identifiers.

use crate::enums::{Domain, Jurisdiction, Lang, SourceClass, SourceRole, Status};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Stable chunk id: `REGULATION/NORM[/SUBUNIT][@lang]`, e.g. `DSGVO/Art.37/Abs.1`,
/// `DSGVO/Art.37/Abs.1@en`, `BDSG/§38`, `NIST SP 800-53/AC-7`.
///
/// Built only from the regulation's canonical name, the norm label and the
/// sub-unit label (never from a running counter), so it survives re-ingestion.
/// German text carries no language suffix; every other language does.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ChunkId(pub String);

impl ChunkId {
    /// Compose an id from its parts. Spaces inside the norm label are removed
    /// (`Art. 37` → `Art.37`), those of the regulation kept.
    pub fn new(regulation: &str, norm: &str, subunit: Option<&str>, lang: Lang) -> Self {
        let mut s = String::with_capacity(regulation.len() + norm.len() + 16);
        s.push_str(regulation);
        s.push('/');
        s.extend(norm.chars().filter(|c| !c.is_whitespace()));
        if let Some(sub) = subunit {
            s.push('/');
            s.extend(sub.chars().filter(|c| !c.is_whitespace()));
        }
        if lang != Lang::De {
            s.push('@');
            s.push_str(lang.as_str());
        }
        ChunkId(s)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ChunkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Canonical identity of a norm (not of a chunk): `"<norm> <regulation>"`,
/// e.g. `Art. 37 DSGVO`, `§ 38 BDSG`, `Anhang I CRA`, `ErwG 97 DSGVO`,
/// `AC-7 NIST SP 800-53`. The form of `expect_any` in the golden sets and of
/// `references_out` / `references_in`. The German and English texts of one
/// law share it (GDPR → DSGVO).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NormRef(pub String);

impl NormRef {
    pub fn new(norm: &str, regulation: &str) -> Self {
        NormRef(format!("{norm} {regulation}"))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// Whether this norm belongs to `regulation`: its text ends in a space
    /// and the name (`§ 3 BDSG 1990` is of `BDSG 1990`, not of `BDSG` or
    /// `DSG 1990`).
    pub fn is_of(&self, regulation: &str) -> bool {
        self.0
            .strip_suffix(regulation)
            .is_some_and(|head| head.ends_with(' '))
    }
}

impl fmt::Display for NormRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Framework fields of a control (design 09).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Framework {
    /// e.g. `NIST-SP-800-53r5`, `BSI-GS++`, `OWASP-ASVS-5.0.0`.
    pub framework_id: String,
    /// e.g. `AC-7`, `V2.4.1`.
    pub framework_control_id: String,
    /// e.g. `AC` (control family / chapter).
    pub framework_family: String,
}

/// One citable unit with every field of the design's data model (§2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chunk {
    pub id: ChunkId,
    /// Canonical regulation short name (`DSGVO`, `BDSG`, `NIST SP 800-53`).
    pub regulation: String,
    /// Norm label: `Art. 37`, `§ 38`, `Anhang I`, `ErwG 97`, `AC-7`.
    pub norm: String,
    /// Finest citable unit: `Art. 37 Abs. 1 DSGVO`.
    pub citation: String,
    pub title: String,
    /// Structure headings above the norm, outermost first.
    pub breadcrumb: Vec<String>,
    pub text: String,
    pub lang: Lang,
    pub jurisdiction: Jurisdiction,
    pub source_class: SourceClass,
    pub source_role: SourceRole,
    /// Name of the manifest rule that assigned `source_role` (or `default`).
    pub role_rule: String,
    pub domains: Vec<Domain>,
    pub status: Status,
    /// ISO date `YYYY-MM-DD` the source applies from, when known.
    pub valid_from: Option<String>,
    /// ISO date `YYYY-MM-DD` the source stopped applying, when superseded.
    pub valid_to: Option<String>,
    /// Canonical name of the successor regulation.
    pub superseded_by: Option<String>,
    /// Norms this chunk cites, resolved to canonical norm ids, deduplicated, sorted.
    pub references_out: Vec<NormRef>,
    /// Norms whose text cites this chunk's norm (inverse of `references_out`).
    pub references_in: Vec<NormRef>,
    /// Citations found in the text that could not be resolved, kept verbatim.
    pub unresolved_references: Vec<String>,
    pub framework: Option<Framework>,
    /// Path of the source file relative to the corpus root.
    pub source_file: String,
    /// 0-based index of this chunk among the chunks of its norm.
    pub part: u32,
    /// Number of chunks the norm was split into.
    pub parts: u32,
}

impl Chunk {
    /// The one constructor of a chunk: `text` of `norm` in `regulation`,
    /// language `lang`, id and citation from those; the rest neutral —
    /// binding law, role obligation (rule `default`), jurisdiction DE, in
    /// force, no dates, domains, references or framework, one part of one,
    /// source file `source_file`. Callers set what they know on top.
    pub fn new(regulation: &str, norm: &str, text: String, lang: Lang, source_file: &str) -> Chunk {
        Chunk {
            id: ChunkId::new(regulation, norm, None, lang),
            regulation: regulation.to_string(),
            norm: norm.to_string(),
            citation: format!("{norm} {regulation}"),
            title: String::new(),
            breadcrumb: Vec::new(),
            text,
            lang,
            jurisdiction: Jurisdiction::De,
            source_class: SourceClass::BindingLaw,
            source_role: SourceRole::Obligation,
            role_rule: "default".to_string(),
            domains: Vec::new(),
            status: Status::InForce,
            valid_from: None,
            valid_to: None,
            superseded_by: None,
            references_out: Vec::new(),
            references_in: Vec::new(),
            unresolved_references: Vec::new(),
            framework: None,
            source_file: source_file.to_string(),
            part: 0,
            parts: 1,
        }
    }

    /// Canonical norm identity of this chunk (`Art. 37 DSGVO`).
    pub fn norm_ref(&self) -> NormRef {
        NormRef::new(&self.norm, &self.regulation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_norm_belongs_to_its_regulation_only() {
        let n = NormRef::new("§ 3", "BDSG 1990");
        assert!(n.is_of("BDSG 1990"));
        assert!(!n.is_of("BDSG") && !n.is_of("DSG 1990"));
        assert!(NormRef::new("§ 3", "AO").is_of("AO") && !NormRef::new("§ 3", "AO").is_of("O"));
    }

    #[test]
    fn chunk_id_is_compact_and_language_tagged() {
        assert_eq!(
            ChunkId::new("DSGVO", "Art. 37", Some("Abs. 1"), Lang::De).as_str(),
            "DSGVO/Art.37/Abs.1"
        );
        assert_eq!(
            ChunkId::new("DSGVO", "Art. 37", Some("Abs. 1"), Lang::En).as_str(),
            "DSGVO/Art.37/Abs.1@en"
        );
        assert_eq!(
            ChunkId::new("NIST SP 800-53", "AC-7", None, Lang::En).as_str(),
            "NIST SP 800-53/AC-7@en"
        );
    }

    #[test]
    fn norm_ref_form() {
        assert_eq!(NormRef::new("§ 38", "BDSG").as_str(), "§ 38 BDSG");
    }
}
