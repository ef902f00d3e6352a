//! The schema of `lexicon/query.toml` as read (serde); [`super::Lexicon`]
//! compiles it into patterns and checked names.

use crate::answer_type::AnswerType;
use crate::frame::RawClassifyFrame;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLexicon {
    pub(super) language: RawLanguage,
    pub(super) control_intent: RawSignals,
    pub(super) guidance_intent: RawGuidance,
    pub(super) definition_intent: RawDefinition,
    #[serde(default)]
    pub(super) application_intent: RawHeadingIntent,
    #[serde(default)]
    pub(super) scope_intent: RawHeadingIntent,
    #[serde(default)]
    pub(super) consequence_intent: RawHeadingIntent,
    #[serde(default)]
    pub(super) consequence_kind: Vec<RawConsequenceKind>,
    #[serde(default)]
    pub(super) purpose_intent: RawHeadingIntent,
    #[serde(default)]
    pub(super) exception_intent: Option<RawSignals>,
    #[serde(default)]
    pub(super) duty_intent: RawHeadingIntent,
    pub(super) historical: RawSignals,
    pub(super) law_enforcement: RawSignals,
    #[serde(default)]
    pub(super) jurisdiction: Vec<RawJurisdiction>,
    #[serde(default)]
    pub(super) domain: Vec<RawDomain>,
    #[serde(default)]
    pub(super) regulation: Vec<RawRegulation>,
    #[serde(default)]
    pub(super) scope_rule: Vec<RawScopeRule>,
    #[serde(default)]
    pub(super) topic: Vec<RawTopic>,
    #[serde(default)]
    pub(super) answer_type: RawAnswerTypes,
    #[serde(default)]
    pub(super) third_country: RawThirdCountry,
    #[serde(default)]
    pub(super) category: Vec<RawCategory>,
}

/// `[[category]]`: a category a law defines, the instances its definition or
/// list names, and the law's words for the category.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCategory {
    pub(super) id: String,
    pub(super) defined_in: String,
    pub(super) instances: Vec<String>,
    #[serde(default)]
    pub(super) unless: Vec<String>,
    #[serde(default)]
    pub(super) terms_de: Vec<String>,
    #[serde(default)]
    pub(super) terms_en: Vec<String>,
    #[serde(default)]
    pub(super) norms: Vec<String>,
}

/// `[third_country]`: a country the corpus has no law of, and the law's words
/// for it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawThirdCountry {
    #[serde(default)]
    pub(super) signals: Vec<String>,
    #[serde(default)]
    pub(super) terms_de: Vec<String>,
    #[serde(default)]
    pub(super) terms_en: Vec<String>,
}

/// `[application_intent]`, `[scope_intent]`, `[consequence_intent]`: a kind
/// of question about a named law that the law answers in a norm it heads so.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHeadingIntent {
    #[serde(default)]
    pub(super) signals: Vec<String>,
    #[serde(default)]
    pub(super) together: Vec<Vec<String>>,
    #[serde(default)]
    pub(super) unless: Vec<String>,
    #[serde(default)]
    pub(super) headings: Vec<String>,
    #[serde(default)]
    pub(super) fallback_headings: Vec<String>,
    #[serde(default)]
    pub(super) narrow_when: Vec<String>,
    #[serde(default)]
    pub(super) narrow_headings: Vec<String>,
}

/// `[[consequence_kind]]`: one kind of consequence (fines, criminal
/// provisions, damages) — the question's words for it and the headings of
/// the norms that state it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawConsequenceKind {
    pub(super) id: String,
    pub(super) signals: Vec<String>,
    pub(super) headings: Vec<String>,
    #[serde(default)]
    pub(super) statements: Vec<String>,
    #[serde(default)]
    pub(super) stands_in: Option<String>,
    #[serde(default)]
    pub(super) states: Option<AnswerType>,
}

/// `[answer_type]`: per kind of fact, the patterns of a question asking for it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAnswerTypes {
    #[serde(default)]
    pub(super) deadline: Vec<String>,
    #[serde(default)]
    pub(super) amount: Vec<String>,
    #[serde(default)]
    pub(super) age: Vec<String>,
    #[serde(default)]
    pub(super) threshold: Vec<String>,
    #[serde(default)]
    pub(super) charge: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLanguage {
    pub(super) de: Vec<String>,
    pub(super) en: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSignals {
    pub(super) signals: Vec<String>,
}

/// `[definition_intent]`: its signals, and the frames that ask what a
/// quoted term means („Was ist eine „X“?“, "What is a ‘X’?").
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDefinition {
    pub(super) signals: Vec<String>,
    #[serde(default)]
    pub(super) compare: Vec<String>,
    #[serde(default)]
    pub(super) quoted_frames: Vec<String>,
    #[serde(default)]
    pub(super) quoted_fillers: Vec<String>,
    #[serde(default)]
    pub(super) classify: RawClassifyFrame,
}

/// `[guidance_intent]`: the seed's signals, and the authorities among them
/// that a question may name as the addressee of a report instead.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGuidance {
    pub(super) signals: Vec<String>,
    #[serde(default)]
    pub(super) addressed: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawJurisdiction {
    pub(super) code: String,
    pub(super) signals: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDomain {
    pub(super) name: String,
    #[serde(default)]
    pub(super) definitions: Vec<String>,
    pub(super) signals: Vec<String>,
    #[serde(default)]
    pub(super) together: Vec<Vec<String>>,
    #[serde(default)]
    pub(super) except: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRegulation {
    pub(super) name: String,
    pub(super) aliases: Vec<String>,
    pub(super) jurisdiction: String,
    #[serde(default)]
    pub(super) domains: Vec<String>,
    pub(super) regime: String,
    #[serde(default)]
    pub(super) definitions: Option<String>,
    #[serde(default)]
    pub(super) historical: bool,
    #[serde(default)]
    pub(super) numbered_like: Option<String>,
    #[serde(default)]
    pub(super) concordance_with: Option<String>,
    #[serde(default)]
    pub(super) concordance: Vec<[String; 2]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScopeRule {
    pub(super) regulation: String,
    #[serde(default)]
    pub(super) from: Option<u32>,
    #[serde(default)]
    pub(super) to: Option<u32>,
    pub(super) penalise_when: String,
    pub(super) reason: String,
    #[serde(default)]
    pub(super) in_scope: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTopic {
    pub(super) id: String,
    pub(super) signals: Vec<String>,
    #[serde(default)]
    pub(super) require: Vec<String>,
    #[serde(default)]
    pub(super) unless: Vec<String>,
    #[serde(default)]
    pub(super) when_domain: Option<String>,
    #[serde(default)]
    pub(super) scope: Option<String>,
    pub(super) norms: Vec<String>,
    #[serde(default)]
    pub(super) suppresses: Vec<String>,
}
