//! The output contract (design brief, "Output contract"): what `--json` prints
//! and what the HTTP API returns. Field names are part of the contract.

use crate::chunk::{ChunkId, Framework, NormRef};
use crate::enums::{Jurisdiction, Lang, SourceClass, SourceRole, Status};
use crate::mapping::{ControlMapping, EvidenceItem};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One term of a result's score breakdown (08), in the style of tantivy's
/// `Explanation`: the seed constant's name, its value, the signed contribution
/// it made to the score, and why it applied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreTerm {
    /// Seed name of the constant or input, e.g. `rawSemantic`, `authorityCoef`,
    /// `scopePenalty`.
    pub name: String,
    /// Value of the constant (for `rawSemantic` the raw score itself).
    pub constant: f64,
    /// Signed contribution to the final score.
    pub value: f64,
    /// German reason, e.g. `BDSG Teil 3 (§§ 45–84) bei allgemeiner DS-Frage`.
    pub reason: String,
}

/// One ranked result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchResult {
    /// 1-based rank.
    pub rank: usize,
    pub chunk_id: ChunkId,
    pub regulation: String,
    pub norm: String,
    pub citation: String,
    pub title: String,
    /// Final score after rerank (02/05/08); the authority score.
    pub score: f64,
    /// Fused retrieval score in [0,1] before rerank.
    pub raw_semantic: f64,
    pub source_class: SourceClass,
    pub source_role: SourceRole,
    pub jurisdiction: Jurisdiction,
    pub status: Status,
    pub lang: Lang,
    pub superseded_by: Option<String>,
    pub explanation: Vec<ScoreTerm>,
    /// Framework fields of a control (09); `None` for norms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub framework: Option<Framework>,
    /// Text excerpt of the chunk (for display and prompting).
    #[serde(default)]
    pub text: String,
}

/// The assessment layer (06) with confidence (07): no invented percentage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Assessment {
    pub primary_norm: Option<String>,
    pub primary_regulation: Option<String>,
    pub connected_norms: Vec<NormRef>,
    pub cross_regime: bool,
    pub winner_margin: f64,
    pub human_review_flag: bool,
    /// Why a person should check the result, one plain sentence per
    /// condition, in the question's language (`lang`).
    pub human_review_reasons: Vec<String>,
    /// The machine-readable form of `human_review_reasons`: one code per
    /// reason, in the same order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub human_review_codes: Vec<ReviewCode>,
    pub score_reasoning: String,
    /// Obligation → controls per framework → evidence (09), filled under
    /// control intent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controls: Vec<ControlMapping>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<EvidenceItem>,
    /// The best result of another norm, as its norm (`§ 38 BDSG`), when
    /// it is close behind the primary norm (`winner_margin` below the review
    /// margin): the near tie a reader should weigh too. `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner_up: Option<String>,
}

/// A citation removed or flagged by the gate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemovedCitation {
    /// The text as the model wrote it (`[7]`, `Art. 124 DSGVO`).
    pub text: String,
    /// Why the gate removed it.
    pub reason: String,
}

/// A grounded answer after citation gating.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Answer {
    pub text: String,
    /// Citations that passed the gate (`Art. 37 DSGVO`).
    pub citations: Vec<String>,
    pub abstained: bool,
    pub removed_citations: Vec<RemovedCitation>,
    /// Answer model used.
    #[serde(default)]
    pub model: String,
    /// Tokens generated.
    #[serde(default)]
    pub generated_tokens: usize,
    /// Error note when generation failed mid-answer; the search result stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why the answer abstained (set exactly when `abstained`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstain_reason: Option<AbstainReason>,
    /// The text quotes the cited sources instead of the model's wording: the
    /// model's text held no statement backed by a binding source, while
    /// retrieval was unambiguous (no human-review flag).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub extractive: bool,
    /// The pinpoint units the answer rests on, numbered as the `[n]` of the
    /// text (`[1]` = the first).
    #[serde(default)]
    pub evidence: Vec<Evidence>,
    /// Shown with the answer when the assessment asks for human review (the
    /// answer is given all the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review_warning: Option<String>,
}

/// One citable unit of a norm that an answer quotes or restates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// Pinpoint citation: `§ 38 Abs. 1 Satz 1 BDSG`, `Art. 14 Abs. 2 lit. a CRA`.
    pub pinpoint: String,
    /// The norm (`§ 38 BDSG`).
    pub norm: String,
    pub regulation: String,
    /// The unit's text (a lettered or numbered item carries its lead-in).
    pub text: String,
    /// Official source of the regulation (EUR-Lex / gesetze-im-internet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    pub lang: Lang,
}

/// Why an answer abstained. The first three are decided from retrieval alone,
/// before the answer model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbstainReason {
    /// Retrieval returned nothing (or no primary norm).
    NoResults,
    /// No result is binding law.
    NoBindingSource,
    /// The relevance gate: no result is pertinent enough to the question.
    NotRelevant,
    /// The model said that the sources do not answer the question.
    ModelDeclined,
    /// No statement of the generated text is backed by a binding source and
    /// the assessment asks for human review, so there is no extractive answer.
    NoSupportedStatement,
    /// The answer model failed; the search result stands.
    GenerationFailed,
}

impl AbstainReason {
    /// Decided before any generation (from the retrieved results alone).
    pub fn before_generation(self) -> bool {
        matches!(
            self,
            Self::NoResults | Self::NoBindingSource | Self::NotRelevant
        )
    }

    /// The snake_case name, as serialized (`not_relevant`).
    pub fn name(self) -> &'static str {
        match self {
            Self::NoResults => "no_results",
            Self::NoBindingSource => "no_binding_source",
            Self::NotRelevant => "not_relevant",
            Self::ModelDeclined => "model_declined",
            Self::NoSupportedStatement => "no_supported_statement",
            Self::GenerationFailed => "generation_failed",
        }
    }

    /// The phrase used in the abstention text, in `lang`.
    pub fn text(self, lang: Lang) -> &'static str {
        match lang {
            Lang::De => self.text_de(),
            Lang::En => self.text_en(),
        }
    }

    /// The English phrase used in the abstention text.
    pub fn text_en(self) -> &'static str {
        match self {
            Self::NoResults => "nothing was found",
            Self::NoBindingSource => "none of the results is binding law",
            Self::NotRelevant => "none of the results bears on the question",
            Self::ModelDeclined => "the answer model finds no answer in the sources",
            Self::NoSupportedStatement => "no statement is backed by a binding source",
            Self::GenerationFailed => "the answer model failed",
        }
    }

    /// The German phrase used in the abstention text.
    pub fn text_de(self) -> &'static str {
        match self {
            Self::NoResults => "keine Treffer",
            Self::NoBindingSource => "keine bindende Quelle unter den Treffern",
            Self::NotRelevant => "kein einschlägiger Treffer",
            Self::ModelDeclined => "das Modell findet in den Quellen keine Antwort",
            Self::NoSupportedStatement => "keine Aussage ist durch eine bindende Quelle belegt",
            Self::GenerationFailed => "das Antwortmodell ist ausgefallen",
        }
    }
}

/// Why the assessment asks for human review: the machine-readable code of
/// each of `Assessment::human_review_reasons` (serialized snake_case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewCode {
    /// Retrieval returned nothing.
    NoResults,
    /// The best retrieval score lies below `abstainSemanticFloor`.
    WeakMatch,
    /// The question matches no domain, topic or norm of the corpus.
    OutsideCorpus,
    /// The winner's margin lies below `assessReviewMargin`: two norms are
    /// almost tied.
    NearTie,
    /// Binding results (or the question) span several regimes.
    CrossRegime,
    /// The best result is not binding law.
    NotBinding,
    /// The best result is a superseded version (on a question that is not
    /// historical).
    Superseded,
}

impl ReviewCode {
    /// Every code, in declaration order.
    pub const ALL: &'static [ReviewCode] = &[
        Self::NoResults,
        Self::WeakMatch,
        Self::OutsideCorpus,
        Self::NearTie,
        Self::CrossRegime,
        Self::NotBinding,
        Self::Superseded,
    ];

    /// The snake_case name, as serialized (`near_tie`).
    pub fn name(self) -> &'static str {
        match self {
            Self::NoResults => "no_results",
            Self::WeakMatch => "weak_match",
            Self::OutsideCorpus => "outside_corpus",
            Self::NearTie => "near_tie",
            Self::CrossRegime => "cross_regime",
            Self::NotBinding => "not_binding",
            Self::Superseded => "superseded",
        }
    }

    /// This review reason as a plain sentence in `lang`, for a
    /// compliance officer: no constant names, no scores. `detail` is what the
    /// sentence names (the tied norms, the regimes, the kind of source, the
    /// successor); empty when there is none.
    pub fn reason(self, lang: Lang, detail: &str) -> String {
        let de = lang == Lang::De;
        let with = |s: &str| {
            if detail.is_empty() {
                String::new()
            } else if s.starts_with(',') {
                format!("{s}{detail}")
            } else {
                format!(" {s}{detail}")
            }
        };
        match self {
            Self::NoResults if de => {
                "Keine belastbare Quelle: Die Suche hat im Korpus nichts gefunden.".into()
            }
            Self::NoResults => "No reliable source: the search found nothing in the corpus.".into(),
            Self::WeakMatch if de => {
                "Keine belastbare Quelle: Keiner der Treffer passt gut genug zur Frage.".into()
            }
            Self::WeakMatch => {
                "No reliable source: none of the results fits the question closely enough.".into()
            }
            Self::OutsideCorpus if de => {
                "Keine belastbare Quelle: Die Frage betrifft kein Rechtsgebiet, das der Korpus abdeckt."
                    .into()
            }
            Self::OutsideCorpus => {
                "No reliable source: the question concerns no area of law the corpus covers.".into()
            }
            Self::NearTie if de => format!(
                "Zwei Normen liegen fast gleichauf{}: Bitte beide prüfen.",
                if detail.is_empty() { String::new() } else { format!(" ({detail})") }
            ),
            Self::NearTie => format!(
                "Two provisions are almost tied{}: please check both.",
                if detail.is_empty() { String::new() } else { format!(" ({detail})") }
            ),
            Self::CrossRegime if de => format!(
                "Mehrere Rechtsgebiete sind berührt{}: Die Antwort kann von mehr als einem Gesetz abhängen.",
                if detail.is_empty() { String::new() } else { format!(" ({detail})") }
            ),
            Self::CrossRegime => format!(
                "Several areas of law are involved{}: the answer may depend on more than one law.",
                if detail.is_empty() { String::new() } else { format!(" ({detail})") }
            ),
            Self::NotBinding if de => format!(
                "Der beste Treffer ist kein verbindliches Recht{}.",
                with(", sondern ")
            ),
            Self::NotBinding => format!("The best match is not binding law{}.", with("but ")),
            Self::Superseded if de => format!(
                "Die gefundene Vorschrift gilt nicht mehr{}.",
                if detail.is_empty() { String::new() } else { format!(" (ersetzt durch {detail})") }
            ),
            Self::Superseded => format!(
                "The provision found is no longer in force{}.",
                if detail.is_empty() { String::new() } else { format!(" (replaced by {detail})") }
            ),
        }
    }

    /// Retrieval found nothing relevant (the engine abstains before any
    /// generation).
    pub fn nothing_relevant(self) -> bool {
        matches!(
            self,
            Self::NoResults | Self::WeakMatch | Self::OutsideCorpus
        )
    }
}

/// Milliseconds per pipeline stage (`analyze`, `embed`, `dense`, `lexical`,
/// `fusion`, `rank`, `assess`, `generate`, `total`).
pub type Timings = BTreeMap<String, f64>;

/// The whole response of a search or an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct SearchResponse {
    pub query: String,
    pub results: Vec<SearchResult>,
    pub assessment: Assessment,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
    pub timings_ms: Timings,
    /// Language of the question as the engine read it: the language the
    /// page, its banners and reasons are shown in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<Lang>,
}

#[cfg(test)]
mod tests {
    use super::AbstainReason::*;
    use super::ReviewCode;

    #[test]
    fn review_codes_are_the_serialized_form() {
        for &c in ReviewCode::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), c.name());
        }
    }

    #[test]
    fn abstain_reason_names_are_the_serialized_form() {
        for r in [
            NoResults,
            NoBindingSource,
            NotRelevant,
            ModelDeclined,
            NoSupportedStatement,
            GenerationFailed,
        ] {
            assert_eq!(serde_json::to_value(r).unwrap(), r.name());
            assert_eq!(
                r.before_generation(),
                matches!(r, NoResults | NoBindingSource | NotRelevant)
            );
        }
    }
}
