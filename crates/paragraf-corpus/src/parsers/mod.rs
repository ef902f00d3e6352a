//! One parser per official source format, and [`parse`], the dispatcher the
//! pipeline calls with the format the source manifest names.
//!
//! Every parser is a pure function `(file, bytes) → Vec<RawNorm>`: no I/O, no
//! panics on bad input; errors name the file and the position.

pub mod eurlex_xhtml;
pub mod formex;
pub mod gii;
pub mod superseded_md;
pub mod text;

// Written by corpus-B (JSON, OSCAL, TSV formats and the mapping files).
pub mod annex;
pub mod asvs;
pub mod eu_json;
pub mod foreign;
pub mod mappings;
pub mod nist;
pub mod oscal;

use crate::raw::{ParseError, RawNorm};
use serde::{Deserialize, Serialize};

/// The source formats of the corpus, as named in the manifest (`format =
/// "gii_xml"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceFormat {
    /// gesetze-im-internet.de XML (`de/gii/*.xml`).
    GiiXml,
    /// Markdown with YAML front matter (`de/superseded/*.md`).
    SupersededMd,
    /// Formex 5 XML of the Official Journal (`eu/de/*.formex.xml`).
    Formex,
    /// EUR-Lex XHTML of the Official Journal, German text
    /// (`eu/de/*.eurlex.xhtml`).
    EurlexXhtml,
    /// EU act JSON (`eu/en/*.json`).
    EuJson,
    /// EU annex JSON (`eu/en-annexes/*.json`).
    EuAnnexJson,
    /// Swiss revDSG JSON (`foreign/ch-*.json`).
    ChJson,
    /// UK GDPR sections/schedules JSON (`foreign/uk-*.json`).
    UkJson,
    /// BSI OSCAL catalogue JSON (`controls/*.oscal.json`).
    BsiOscal,
    /// NIST SP 800-53 TSV.
    NistTsv,
    /// NIST SP 800-82 overlay JSON.
    Nist82Json,
    /// OWASP ASVS flat JSON.
    AsvsJson,
    /// ISO 27001 → articles mapping JSON (`mappings/iso27001-*.json`).
    IsoMapping,
    /// NIST CSF → articles mapping JSON (`mappings/nist-csf-*.json`).
    NistCsfMapping,
    /// Article → evidence JSON (`mappings/evidence-*.json`).
    EvidenceMapping,
}

impl SourceFormat {
    /// Whether the format yields mapping records instead of norms.
    pub fn is_mapping(self) -> bool {
        matches!(
            self,
            SourceFormat::IsoMapping | SourceFormat::NistCsfMapping | SourceFormat::EvidenceMapping
        )
    }
}

/// Parse one file of a norm-bearing format. Mapping formats return an empty
/// list here; read them with [`mappings`].
pub fn parse(format: SourceFormat, file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    match format {
        SourceFormat::GiiXml => gii::parse(file, bytes),
        SourceFormat::SupersededMd => superseded_md::parse(file, bytes),
        SourceFormat::Formex => formex::parse(file, bytes),
        SourceFormat::EurlexXhtml => eurlex_xhtml::parse(file, bytes),
        SourceFormat::EuJson => eu_json::parse(file, bytes),
        SourceFormat::EuAnnexJson => annex::parse(file, bytes),
        SourceFormat::ChJson => foreign::parse_ch(file, bytes),
        SourceFormat::UkJson => foreign::parse_uk(file, bytes),
        SourceFormat::BsiOscal => oscal::parse(file, bytes),
        SourceFormat::NistTsv => nist::parse_tsv(file, bytes),
        SourceFormat::Nist82Json => nist::parse_82_json(file, bytes),
        SourceFormat::AsvsJson => asvs::parse(file, bytes),
        SourceFormat::IsoMapping | SourceFormat::NistCsfMapping | SourceFormat::EvidenceMapping => {
            Ok(Vec::new())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_round_trip_snake_case() {
        let f: SourceFormat = serde_json::from_str("\"gii_xml\"").unwrap();
        assert_eq!(f, SourceFormat::GiiXml);
        assert_eq!(
            serde_json::to_string(&SourceFormat::Nist82Json).unwrap(),
            "\"nist82_json\""
        );
        assert!(SourceFormat::EvidenceMapping.is_mapping());
    }

    #[test]
    fn mapping_formats_yield_no_norms() {
        assert!(parse(SourceFormat::IsoMapping, "m.json", b"[]")
            .unwrap()
            .is_empty());
    }
}
