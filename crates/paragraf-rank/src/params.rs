//! [`RankParams`]: every constant, overridable by the eval without recompiling.

use crate::constants as c;
use crate::error::RankError;
use paragraf_types::SourceRole;
use serde::{Deserialize, Serialize};

/// How dense, lexical and sparse scores are fused into `raw_semantic` (design 01).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FusionMethod {
    /// Weighted sum of calibrated scores (default):
    /// `dense_n = clamp((cos − denseFloor)/(denseCeil − denseFloor))`,
    /// `lexical_n = bm25 / max(max_bm25_of_query, lexicalNormFloor)`,
    /// `sparse_n = dot / max(max_dot_of_query, sparseNormFloor)`,
    /// `heading_n = clamp((cos − headingFloor)/(headingCeil − headingFloor))`
    /// of the best heading of the candidate's norm,
    /// `raw = Σ w·x / Σ w` over the channels present in the query (a channel
    /// is present when any candidate has a value; a candidate missing from a
    /// present channel contributes 0 there). Keeps the cosine-like scale the
    /// seed constants assume and keeps absolute evidence (a weak query stays
    /// weak, so the abstain floor works).
    WeightedSum,
    /// Reciprocal-rank fusion `Σ w / (rrfK + rank)`, divided by its maximum
    /// `Σ w / (rrfK + 1)`; scale-free but loses absolute evidence.
    Rrf,
}

/// `controlRoleBonus` per control-pool role (seed 05).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ControlRoleBonus {
    pub operational_requirement: f64,
    pub procedural_requirement: f64,
    pub control_standard: f64,
    pub implementation_guidance: f64,
}

impl Default for ControlRoleBonus {
    fn default() -> Self {
        ControlRoleBonus {
            operational_requirement: c::CONTROL_ROLE_BONUS_OPERATIONAL_REQUIREMENT,
            procedural_requirement: c::CONTROL_ROLE_BONUS_PROCEDURAL_REQUIREMENT,
            control_standard: c::CONTROL_ROLE_BONUS_CONTROL_STANDARD,
            implementation_guidance: c::CONTROL_ROLE_BONUS_IMPLEMENTATION_GUIDANCE,
        }
    }
}

impl ControlRoleBonus {
    /// The bonus of `role`; `None` outside the control pool.
    pub fn of(&self, role: SourceRole) -> Option<f64> {
        match role {
            SourceRole::OperationalRequirement => Some(self.operational_requirement),
            SourceRole::ProceduralRequirement => Some(self.procedural_requirement),
            SourceRole::ControlStandard => Some(self.control_standard),
            SourceRole::ImplementationGuidance => Some(self.implementation_guidance),
            _ => None,
        }
    }
}

/// Every ranking constant (see [`crate::constants`] for value, meaning and
/// seed chapter). Serialized with the seed names (`authorityCoef`, …);
/// unknown fields are rejected, missing ones take the seed default, so a
/// partial TOML/JSON override is enough.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct RankParams {
    pub authority_coef: f64,
    pub jurisdiction_gain: f64,
    pub foreign_penalty: f64,
    pub unknown_penalty: f64,
    pub domain_match_gain: f64,
    pub domain_cover_gain: f64,
    pub off_domain_penalty: f64,
    pub scope_penalty: f64,
    pub scope_match_gain: f64,
    pub topic_gain: f64,
    pub superseded_penalty: f64,
    pub intent_lift_gain: f64,
    pub intent_lift_margin: f64,
    pub control_pool_gain: f64,
    pub control_role_bonus: ControlRoleBonus,
    pub assess_connected_cap: usize,
    pub assess_cross_regime_top_n: usize,
    pub assess_review_margin: f64,
    pub abstain_semantic_floor: f64,
    pub fusion_method: FusionMethod,
    pub dense_weight: f64,
    pub lexical_weight: f64,
    pub sparse_weight: f64,
    pub dense_floor: f64,
    pub dense_ceil: f64,
    pub lexical_norm_floor: f64,
    pub sparse_norm_floor: f64,
    pub exact_floor: f64,
    pub rrf_k: f64,
    pub dense_top_n: usize,
    pub lexical_top_n: usize,
    pub sparse_top_n: usize,
    pub top_k: usize,
    pub heading_min_coverage: f64,
    pub heading_min_weight: f64,
    pub heading_relative_min: f64,
    pub heading_max_norms: usize,
    pub heading_common_share: f64,
    pub heading_common_credit: f64,
    pub synonym_bm25_weight: f64,
    pub citation_gain: f64,
    pub citation_saturation: f64,
    pub answer_type_gain: f64,
    pub heading_weight: f64,
    pub heading_floor: f64,
    pub heading_ceil: f64,
    pub heading_top_n: usize,
    pub law_title_gain: f64,
    pub law_title_min_lift: f64,
    pub law_title_max_laws: usize,
    pub law_title_top_n: usize,
    pub jurisdiction_top_n: usize,
    pub recital_bridge: bool,
    pub recital_bridge_margin: f64,
    pub norm_lexical_mix: f64,
    pub norm_lexical_top_n: usize,
}

impl Default for RankParams {
    fn default() -> Self {
        RankParams {
            authority_coef: c::AUTHORITY_COEF,
            jurisdiction_gain: c::JURISDICTION_GAIN,
            foreign_penalty: c::FOREIGN_PENALTY,
            unknown_penalty: c::UNKNOWN_PENALTY,
            domain_match_gain: c::DOMAIN_MATCH_GAIN,
            domain_cover_gain: c::DOMAIN_COVER_GAIN,
            off_domain_penalty: c::OFF_DOMAIN_PENALTY,
            scope_penalty: c::SCOPE_PENALTY,
            scope_match_gain: c::SCOPE_MATCH_GAIN,
            topic_gain: c::TOPIC_GAIN,
            superseded_penalty: c::SUPERSEDED_PENALTY,
            intent_lift_gain: c::INTENT_LIFT_GAIN,
            intent_lift_margin: c::INTENT_LIFT_MARGIN,
            control_pool_gain: c::CONTROL_POOL_GAIN,
            control_role_bonus: ControlRoleBonus::default(),
            assess_connected_cap: c::ASSESS_CONNECTED_CAP,
            assess_cross_regime_top_n: c::ASSESS_CROSS_REGIME_TOP_N,
            assess_review_margin: c::ASSESS_REVIEW_MARGIN,
            abstain_semantic_floor: c::ABSTAIN_SEMANTIC_FLOOR,
            fusion_method: FusionMethod::WeightedSum,
            dense_weight: c::DENSE_WEIGHT,
            lexical_weight: c::LEXICAL_WEIGHT,
            sparse_weight: c::SPARSE_WEIGHT,
            dense_floor: c::DENSE_FLOOR,
            dense_ceil: c::DENSE_CEIL,
            lexical_norm_floor: c::LEXICAL_NORM_FLOOR,
            sparse_norm_floor: c::SPARSE_NORM_FLOOR,
            exact_floor: c::EXACT_FLOOR,
            rrf_k: c::RRF_K,
            dense_top_n: c::DENSE_TOP_N,
            lexical_top_n: c::LEXICAL_TOP_N,
            sparse_top_n: c::SPARSE_TOP_N,
            top_k: c::TOP_K,
            heading_min_coverage: c::HEADING_MIN_COVERAGE,
            heading_min_weight: c::HEADING_MIN_WEIGHT,
            synonym_bm25_weight: c::SYNONYM_BM25_WEIGHT,
            heading_relative_min: c::HEADING_RELATIVE_MIN,
            heading_max_norms: c::HEADING_MAX_NORMS,
            heading_common_share: c::HEADING_COMMON_SHARE,
            heading_common_credit: c::HEADING_COMMON_CREDIT,
            citation_gain: c::CITATION_GAIN,
            citation_saturation: c::CITATION_SATURATION,
            answer_type_gain: c::ANSWER_TYPE_GAIN,
            heading_weight: c::HEADING_WEIGHT,
            heading_floor: c::HEADING_FLOOR,
            heading_ceil: c::HEADING_CEIL,
            heading_top_n: c::HEADING_TOP_N,
            law_title_gain: c::LAW_TITLE_GAIN,
            law_title_min_lift: c::LAW_TITLE_MIN_LIFT,
            law_title_max_laws: c::LAW_TITLE_MAX_LAWS,
            law_title_top_n: c::LAW_TITLE_TOP_N,
            jurisdiction_top_n: c::JURISDICTION_TOP_N,
            recital_bridge: c::RECITAL_BRIDGE,
            recital_bridge_margin: c::RECITAL_BRIDGE_MARGIN,
            norm_lexical_mix: c::NORM_LEXICAL_MIX,
            norm_lexical_top_n: c::NORM_LEXICAL_TOP_N,
        }
    }
}

impl RankParams {
    /// These parameters with the fields of a partial override (a JSON object
    /// with seed names) replaced; unknown names and out-of-range values are
    /// errors. Layering `defaults → embedder calibration → user file` is
    /// `RankParams::default().overlay(cal)?.overlay(user)?`.
    pub fn overlay(&self, partial: &serde_json::Value) -> Result<RankParams, RankError> {
        let serde_json::Value::Object(over) = partial else {
            return Err(RankError::ParamsJson {
                message: "a parameter override must be a table/object".into(),
            });
        };
        let mut base = serde_json::to_value(self).map_err(|e| RankError::ParamsJson {
            message: e.to_string(),
        })?;
        if let serde_json::Value::Object(b) = &mut base {
            for (k, v) in over {
                b.insert(k.clone(), v.clone());
            }
        }
        let p: RankParams = serde_json::from_value(base).map_err(|e| RankError::ParamsJson {
            message: e.to_string(),
        })?;
        p.validate()?;
        Ok(p)
    }

    /// Parse a (partial) TOML override and validate it.
    pub fn from_toml_str(s: &str) -> Result<RankParams, RankError> {
        let p: RankParams = toml::from_str(s).map_err(|e| RankError::ParamsToml {
            message: e.to_string(),
        })?;
        p.validate()?;
        Ok(p)
    }

    /// Parse a (partial) JSON override and validate it.
    pub fn from_json_str(s: &str) -> Result<RankParams, RankError> {
        let p: RankParams = serde_json::from_str(s).map_err(|e| RankError::ParamsJson {
            message: e.to_string(),
        })?;
        p.validate()?;
        Ok(p)
    }

    /// Check ranges: every float finite, weights non-negative with a positive
    /// sum, `denseCeil > denseFloor`, norm floors positive.
    pub fn validate(&self) -> Result<(), RankError> {
        let floats: [(&'static str, f64); 41] = [
            ("synonymBm25Weight", self.synonym_bm25_weight),
            ("normLexicalMix", self.norm_lexical_mix),
            ("answerTypeGain", self.answer_type_gain),
            ("recitalBridgeMargin", self.recital_bridge_margin),
            ("lawTitleGain", self.law_title_gain),
            ("lawTitleMinLift", self.law_title_min_lift),
            ("citationGain", self.citation_gain),
            ("citationSaturation", self.citation_saturation),
            ("headingWeight", self.heading_weight),
            ("headingFloor", self.heading_floor),
            ("headingCeil", self.heading_ceil),
            ("headingMinCoverage", self.heading_min_coverage),
            ("headingMinWeight", self.heading_min_weight),
            ("headingRelativeMin", self.heading_relative_min),
            ("authorityCoef", self.authority_coef),
            ("jurisdictionGain", self.jurisdiction_gain),
            ("foreignPenalty", self.foreign_penalty),
            ("unknownPenalty", self.unknown_penalty),
            ("domainMatchGain", self.domain_match_gain),
            ("domainCoverGain", self.domain_cover_gain),
            ("offDomainPenalty", self.off_domain_penalty),
            ("scopePenalty", self.scope_penalty),
            ("scopeMatchGain", self.scope_match_gain),
            ("topicGain", self.topic_gain),
            ("supersededPenalty", self.superseded_penalty),
            ("intentLiftGain", self.intent_lift_gain),
            ("intentLiftMargin", self.intent_lift_margin),
            ("controlPoolGain", self.control_pool_gain),
            (
                "controlRoleBonus.operational_requirement",
                self.control_role_bonus.operational_requirement,
            ),
            (
                "controlRoleBonus.procedural_requirement",
                self.control_role_bonus.procedural_requirement,
            ),
            (
                "controlRoleBonus.control_standard",
                self.control_role_bonus.control_standard,
            ),
            (
                "controlRoleBonus.implementation_guidance",
                self.control_role_bonus.implementation_guidance,
            ),
            ("assessReviewMargin", self.assess_review_margin),
            ("abstainSemanticFloor", self.abstain_semantic_floor),
            ("denseWeight", self.dense_weight),
            ("lexicalWeight", self.lexical_weight),
            ("sparseWeight", self.sparse_weight),
            ("denseFloor", self.dense_floor),
            ("denseCeil", self.dense_ceil),
            ("lexicalNormFloor", self.lexical_norm_floor),
            ("exactFloor", self.exact_floor),
        ];
        for (field, v) in floats {
            if !v.is_finite() {
                return Err(RankError::Param {
                    field,
                    message: format!("must be finite, got {v}"),
                });
            }
        }
        for (field, v) in [
            ("denseWeight", self.dense_weight),
            ("lexicalWeight", self.lexical_weight),
            ("sparseWeight", self.sparse_weight),
            ("headingWeight", self.heading_weight),
        ] {
            if v < 0.0 {
                return Err(RankError::Param {
                    field,
                    message: format!("must be >= 0, got {v}"),
                });
            }
        }
        if self.dense_weight + self.lexical_weight + self.sparse_weight <= 0.0 {
            return Err(RankError::Param {
                field: "denseWeight",
                message: "the fusion weights must not all be 0".into(),
            });
        }
        if self.heading_ceil <= self.heading_floor {
            return Err(RankError::Param {
                field: "headingCeil",
                message: format!("must be greater than headingFloor ({})", self.heading_floor),
            });
        }
        if self.dense_ceil <= self.dense_floor {
            return Err(RankError::Param {
                field: "denseCeil",
                message: format!("must be greater than denseFloor ({})", self.dense_floor),
            });
        }
        for (field, v) in [
            ("normLexicalMix", self.norm_lexical_mix),
            ("headingCommonCredit", self.heading_common_credit),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(RankError::Param {
                    field,
                    message: format!("must be a share in 0..=1, got {v}"),
                });
            }
        }
        for (field, v) in [
            ("citationSaturation", self.citation_saturation),
            ("lexicalNormFloor", self.lexical_norm_floor),
            ("sparseNormFloor", self.sparse_norm_floor),
            ("rrfK", self.rrf_k),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(RankError::Param {
                    field,
                    message: format!("must be a positive number, got {v}"),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_override_keeps_seed_defaults() {
        let p = RankParams::from_toml_str(
            "topicGain = 0.2\n[controlRoleBonus]\ncontrol_standard = 0.06\n",
        )
        .unwrap();
        assert_eq!(p.topic_gain, 0.2);
        assert_eq!(p.authority_coef, 0.40);
        assert_eq!(p.control_role_bonus.control_standard, 0.06);
        assert_eq!(p.control_role_bonus.operational_requirement, 0.100);
        let j =
            RankParams::from_json_str(r#"{"foreignPenalty":0.7,"fusionMethod":"rrf"}"#).unwrap();
        // An overlay keeps what it does not name.
        let o = j
            .overlay(&serde_json::json!({"denseFloor": 0.6, "lexicalWeight": 0.1}))
            .unwrap();
        assert_eq!(o.foreign_penalty, 0.7);
        assert_eq!(o.fusion_method, FusionMethod::Rrf);
        assert_eq!((o.dense_floor, o.lexical_weight), (0.6, 0.1));
        assert!(j.overlay(&serde_json::json!({"noSuchKnob": 1})).is_err());
        assert!(j
            .overlay(&serde_json::json!({"denseWeight": -1.0}))
            .is_err());
        assert!(j.overlay(&serde_json::json!([1, 2])).is_err());
        assert_eq!(j.foreign_penalty, 0.7);
        assert_eq!(j.fusion_method, FusionMethod::Rrf);
    }

    #[test]
    fn unknown_field_is_rejected_with_its_name() {
        let e = RankParams::from_toml_str("authorityCoeff = 0.5")
            .unwrap_err()
            .to_string();
        assert!(e.contains("authorityCoeff"), "{e}");
    }

    #[test]
    fn invalid_ranges_are_rejected() {
        assert!(RankParams::from_json_str(r#"{"denseCeil":0.0}"#).is_err());
        assert!(RankParams::from_json_str(r#"{"denseWeight":-1}"#).is_err());
        assert!(RankParams::from_json_str(
            r#"{"denseWeight":0,"lexicalWeight":0,"sparseWeight":0}"#
        )
        .is_err());
    }

    #[test]
    fn seed_names_round_trip() {
        let s = serde_json::to_string(&RankParams::default()).unwrap();
        for name in [
            "authorityCoef",
            "jurisdictionGain",
            "foreignPenalty",
            "unknownPenalty",
            "domainMatchGain",
            "offDomainPenalty",
            "scopePenalty",
            "topicGain",
            "supersededPenalty",
            "intentLiftGain",
            "intentLiftMargin",
            "controlPoolGain",
            "controlRoleBonus",
            "assessConnectedCap",
            "assessCrossRegimeTopN",
            "assessReviewMargin",
        ] {
            assert!(s.contains(&format!("\"{name}\"")), "{name} missing in {s}");
        }
        assert_eq!(
            RankParams::from_json_str(&s).unwrap(),
            RankParams::default()
        );
    }
}
