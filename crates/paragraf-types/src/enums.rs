//! Closed vocabularies of the data model. Each enum serializes to the
//! snake_case (or upper-case for jurisdictions) name used in the design brief,
//! in manifests and in JSON output.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// An unknown value for one of the closed vocabularies.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{value}` (expected one of: {expected})")]
pub struct ParseEnumError {
    pub kind: &'static str,
    pub value: String,
    pub expected: &'static str,
}

macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        $name:ident, $kind:literal { $( $(#[$vmeta:meta])* $variant:ident => $s:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $s)] $variant ),+
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The canonical string form (as in manifests and JSON).
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $s),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = ParseEnumError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($s => Ok($name::$variant),)+
                    _ => Err(ParseEnumError {
                        kind: $kind,
                        value: s.to_string(),
                        expected: concat!($($s, " "),+),
                    }),
                }
            }
        }
    };
}

string_enum! {
    /// Source class (design 03). Its [`SourceClass::weight`] feeds
    /// `authorityCoef · weight/100` in the authority rerank (seed 02).
    SourceClass, "source_class" {
        BindingLaw => "binding_law",
        Recital => "recital",
        OfficialGuidance => "official_guidance",
        ControlStandard => "control_standard",
        Mapping => "mapping",
        Unknown => "unknown",
    }
}

impl SourceClass {
    /// Authority weight 0..=100 of design table 03.
    pub fn weight(self) -> u32 {
        match self {
            SourceClass::BindingLaw => 100,
            SourceClass::Recital => 70,
            SourceClass::OfficialGuidance => 60,
            SourceClass::ControlStandard => 50,
            SourceClass::Mapping => 30,
            SourceClass::Unknown => 0,
        }
    }

    /// `binding_law` — the only class that can carry a legal statement alone (06).
    pub fn is_binding(self) -> bool {
        self == SourceClass::BindingLaw
    }
}

string_enum! {
    /// Source role (design 04).
    SourceRole, "source_role" {
        Obligation => "obligation",
        Definition => "definition",
        Scope => "scope",
        Interpretation => "interpretation",
        Sanction => "sanction",
        OperationalRequirement => "operational_requirement",
        ProceduralRequirement => "procedural_requirement",
        ControlStandard => "control_standard",
        ImplementationGuidance => "implementation_guidance",
    }
}

impl SourceRole {
    /// Roles of the control pool (05): operational_requirement,
    /// procedural_requirement, control_standard, implementation_guidance.
    pub fn in_control_pool(self) -> bool {
        matches!(
            self,
            SourceRole::OperationalRequirement
                | SourceRole::ProceduralRequirement
                | SourceRole::ControlStandard
                | SourceRole::ImplementationGuidance
        )
    }
}

string_enum! {
    /// Whether a source is the version in force.
    Status, "status" {
        InForce => "in_force",
        Superseded => "superseded",
    }
}

string_enum! {
    /// Jurisdiction of a source. `INT` = international standards (NIST, OWASP).
    Jurisdiction, "jurisdiction" {
        Eu => "EU",
        De => "DE",
        Ch => "CH",
        Uk => "UK",
        Int => "INT",
    }
}

impl Jurisdiction {
    /// DE and EU are the home jurisdictions of a default question (02).
    pub fn is_home(self) -> bool {
        matches!(self, Jurisdiction::De | Jurisdiction::Eu)
    }
}

string_enum! {
    /// Subject-matter domain of a source and of a question (02 `domainMatchGain`).
    Domain, "domain" {
        DataProtection => "data_protection",
        Cyber => "cyber",
        Ai => "ai",
        ProductSafety => "product_safety",
        Employment => "employment",
        Commercial => "commercial",
        Tax => "tax",
        Telecom => "telecom",
        Finance => "finance",
        Whistleblowing => "whistleblowing",
        Egovernment => "egovernment",
        Media => "media",
        Competition => "competition",
    }
}

string_enum! {
    /// Language of a chunk's text.
    Lang, "lang" {
        De => "de",
        En => "en",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_variant() {
        for c in SourceClass::ALL {
            assert_eq!(c.as_str().parse::<SourceClass>().unwrap(), *c);
            let j = serde_json::to_string(c).unwrap();
            assert_eq!(j, format!("\"{}\"", c.as_str()));
        }
        for r in SourceRole::ALL {
            assert_eq!(r.as_str().parse::<SourceRole>().unwrap(), *r);
        }
        for d in Domain::ALL {
            assert_eq!(d.as_str().parse::<Domain>().unwrap(), *d);
        }
    }

    #[test]
    fn unknown_value_names_kind_and_value() {
        let e = "binding".parse::<SourceClass>().unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("source_class") && msg.contains("`binding`"),
            "{msg}"
        );
    }

    #[test]
    fn weights_of_table_03() {
        assert_eq!(SourceClass::BindingLaw.weight(), 100);
        assert_eq!(SourceClass::Recital.weight(), 70);
        assert_eq!(SourceClass::OfficialGuidance.weight(), 60);
        assert_eq!(SourceClass::ControlStandard.weight(), 50);
        assert_eq!(SourceClass::Mapping.weight(), 30);
        assert_eq!(SourceClass::Unknown.weight(), 0);
    }

    #[test]
    fn control_pool_roles() {
        let pool: Vec<_> = SourceRole::ALL
            .iter()
            .filter(|r| r.in_control_pool())
            .collect();
        assert_eq!(pool.len(), 4);
        assert!(!SourceRole::Obligation.in_control_pool());
    }
}
