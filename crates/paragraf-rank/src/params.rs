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

/// One rank parameter as the table in [`crate::constants`] declares it: for
/// `paragraf` to list, documentation and explanations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Knob {
    /// The seed name: the `--params` key and the name explanations show.
    pub name: &'static str,
    /// The default as written in the table.
    pub default: &'static str,
    /// Its meaning, reason, seed chapter and pinning test.
    pub doc: &'static str,
    /// Its range check: `finite`, `nonneg`, `positive`, `share` or `any`.
    pub check: &'static str,
}

/// The range checks a knob's table entry names.
mod check {
    use crate::error::RankError;

    pub(super) fn finite(field: &'static str, v: f64) -> Result<(), RankError> {
        if v.is_finite() {
            Ok(())
        } else {
            Err(RankError::Param {
                field,
                message: format!("must be finite, got {v}"),
            })
        }
    }

    pub(super) fn nonneg(field: &'static str, v: f64) -> Result<(), RankError> {
        finite(field, v)?;
        if v < 0.0 {
            return Err(RankError::Param {
                field,
                message: format!("must be >= 0, got {v}"),
            });
        }
        Ok(())
    }

    pub(super) fn positive(field: &'static str, v: f64) -> Result<(), RankError> {
        if v.is_finite() && v > 0.0 {
            Ok(())
        } else {
            Err(RankError::Param {
                field,
                message: format!("must be a positive number, got {v}"),
            })
        }
    }

    pub(super) fn share(field: &'static str, v: f64) -> Result<(), RankError> {
        if (0.0..=1.0).contains(&v) {
            Ok(())
        } else {
            Err(RankError::Param {
                field,
                message: format!("must be a share in 0..=1, got {v}"),
            })
        }
    }

    pub(super) fn any<T>(_field: &'static str, _v: T) -> Result<(), RankError> {
        Ok(())
    }
}

/// Makes [`RankParams`], its `Default`, [`names`], [`RankParams::KNOBS`] and
/// the per-knob range checks from the table of [`crate::constants`].
macro_rules! declare_params {
    ($($(#[doc = $doc:literal])* $field:ident, $konst:ident, $name:literal: $ty:ty = $val:expr, $check:ident;)*) => {
        /// Every ranking constant (see [`crate::constants`] for value,
        /// meaning and seed chapter). Serialized with the seed names
        /// (`authorityCoef`, …); unknown fields are rejected, missing ones
        /// take the seed default, so a partial TOML/JSON override is enough.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct RankParams {
            $($(#[doc = $doc])* #[serde(rename = $name)] pub $field: $ty,)*
            /// `controlRoleBonus` per control-pool role (seed 05).
            #[serde(rename = "controlRoleBonus")]
            pub control_role_bonus: ControlRoleBonus,
            /// How the retrieval channels are fused (design 01).
            #[serde(rename = "fusionMethod")]
            pub fusion_method: FusionMethod,
        }

        impl Default for RankParams {
            fn default() -> Self {
                RankParams {
                    $($field: c::$konst,)*
                    control_role_bonus: ControlRoleBonus::default(),
                    fusion_method: FusionMethod::WeightedSum,
                }
            }
        }

        /// The seed name of every rank parameter, for explanations (one
        /// spelling: the table's).
        pub mod names {
            $(pub const $konst: &str = $name;)*
            /// `controlRoleBonus`.
            pub const CONTROL_ROLE_BONUS: &str = "controlRoleBonus";
        }

        impl RankParams {
            /// Every table knob with its default and meaning, in table order.
            pub const KNOBS: &'static [Knob] = &[$(Knob {
                name: $name,
                default: stringify!($val),
                doc: concat!($($doc, "\n",)*),
                check: stringify!($check),
            },)*];

            /// The range check each knob's table entry names.
            fn check_knobs(&self) -> Result<(), RankError> {
                $(check::$check($name, self.$field)?;)*
                Ok(())
            }
        }
    };
}
c::rank_knobs!(declare_params);

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

    /// Check ranges: each knob's own check from the table (finite,
    /// non-negative, positive, a share), the control-role bonuses finite, and
    /// the checks across knobs: fusion weights with a positive sum, the dense
    /// and heading ceilings above their floors.
    pub fn validate(&self) -> Result<(), RankError> {
        self.check_knobs()?;
        for (field, v) in [
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
        ] {
            check::finite(field, v)?;
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
    fn every_knob_of_the_table_is_a_field_with_its_check() {
        let json = serde_json::to_value(RankParams::default()).unwrap();
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        let mut names: Vec<&str> = RankParams::KNOBS.iter().map(|k| k.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RankParams::KNOBS.len(), "a seed name twice");
        // the table's knobs plus the two structured ones, nothing else
        assert_eq!(keys.len(), RankParams::KNOBS.len() + 2);
        for k in RankParams::KNOBS {
            assert!(json.get(k.name).is_some(), "{} is no field", k.name);
            assert!(!k.doc.trim().is_empty(), "{} has no meaning", k.name);
            // the check named in the table is the one validation applies
            let bad = match k.check {
                "finite" => Some("inf"),
                "nonneg" | "positive" | "share" => Some("-1.0"),
                "any" => None,
                other => panic!("{}: unknown check {other}", k.name),
            };
            if let Some(bad) = bad {
                let e = RankParams::from_toml_str(&format!("{} = {bad}", k.name))
                    .expect_err(k.name)
                    .to_string();
                assert!(e.contains(k.name), "{}: {e}", k.name);
            }
        }
        assert_eq!(names::TOPIC_GAIN, "topicGain");
        assert!(RankParams::from_toml_str("normLexicalMix = 1.5").is_err());
        assert!(RankParams::from_toml_str("rrfK = 0.0").is_err());
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
