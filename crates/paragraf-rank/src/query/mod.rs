//! Query analysis (design 01, step 1): language, domains, jurisdictions,
//! intents, as-of, law-enforcement scope, topics — every feature with the
//! signal that fired it.

use crate::answer_type::AnswerType;
use crate::headings::HeadingMatch;
use crate::lexicon::Lexicon;
use paragraf_types::{Domain, Jurisdiction, Lang, NormRef};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One detected feature and the signal that fired it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signal {
    /// Feature name: `language`, `domain`, `jurisdiction`, `regulation`,
    /// `control_intent`, `guidance_intent`, `definition_intent`, `historical`,
    /// `as_of`, `law_enforcement`, `topic`, `explicit_ref`, `answer_type`
    /// (what the question asks for), `answer_norm` (a norm that states it).
    pub feature: String,
    /// The lexicon pattern (or rule) that fired, e.g. `*massnahme*`.
    pub signal: String,
    /// What it detected, e.g. `cyber`, `dpo → Art. 37 DSGVO, § 38 BDSG`, or
    /// the query words it matched.
    pub detail: String,
}

/// A half-open date interval `[from, until)` of ISO dates (`YYYY-MM-DD`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DateRange {
    pub from: String,
    pub until: String,
}

impl DateRange {
    /// Whether a source in force from `valid_from` through `valid_to` (both
    /// inclusive ISO dates, as in the source manifest: BDSG 1990 ends
    /// 2018-05-24, BDSG starts 2018-05-25; open when `None`) applies at some
    /// point of this range.
    pub fn overlaps(&self, valid_from: Option<&str>, valid_to: Option<&str>) -> bool {
        let starts_before_end = valid_from.is_none_or(|vf| vf < self.until.as_str());
        let ends_after_start = valid_to.is_none_or(|vt| self.from.as_str() <= vt);
        starts_before_end && ends_after_start
    }
}

/// As-of intent (08): a date (range) the question asks about and/or a named
/// superseded version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AsOf {
    /// The date the question asks about (`Stand 2017` → all of 2017;
    /// `bis 2018` → 2018-01-01; `vor 2018` → 2017-12-31; `am 1.3.2017`).
    pub date: Option<DateRange>,
    /// Canonical name of a superseded version the question names (`BDSG 1990`).
    pub version: Option<String>,
}

/// The jurisdictions of a question that names none: German and EU law
/// (seed 02). Any other is foreign to such a question (`foreignPenalty`).
pub const DEFAULT_JURISDICTIONS: [Jurisdiction; 2] = [Jurisdiction::De, Jurisdiction::Eu];

/// A scope rule active for this question (`scopePenalty`, seed 02).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveScopeRule {
    pub regulation: String,
    /// Inclusive § / article number range; `None` = the whole regulation.
    pub range: Option<(u32, u32)>,
    /// German reason for the explanation.
    pub reason: String,
}

/// Index of the first rule of `rules` that covers `norm` of `regulation`.
fn covering(rules: &[ActiveScopeRule], regulation: &str, norm: &str) -> Option<usize> {
    let number = crate::text::norm_number(norm);
    rules.iter().position(|r| {
        r.regulation == regulation
            && r.range
                .is_none_or(|(a, b)| number.is_some_and(|n| a <= n && n <= b))
    })
}

/// Result of [`analyze_query`]; input of [`crate::rank`] and [`crate::assess`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryAnalysis {
    pub lang: Lang,
    /// Question domains (empty: no known domain matched).
    pub domains: Vec<Domain>,
    /// Jurisdictions of the question; `[DE, EU]` unless the question names others.
    pub jurisdictions: Vec<Jurisdiction>,
    /// Whether the question named a jurisdiction (or a regulation of one).
    pub jurisdiction_named: bool,
    /// Seed 05 `controlIntentSignals` fired.
    pub control_intent: bool,
    /// Seed 02 `guidanceIntentSignals` fired (interpretation intent).
    pub guidance_intent: bool,
    /// The question asks what a term means (→ definitions norms as topic norms).
    pub definition_intent: bool,
    /// The question asks who must do what or what a duty is
    /// (`[duty_intent]`): candidate norms headed as a duty gain
    /// `dutyHeadingGain` (`duty_norms`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub duty_intent: bool,
    /// Norms among the candidates whose heading names a duty; filled by the
    /// caller, which owns the headings ([`QueryAnalysis::add_duty_norms`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub duty_norms: Vec<NormRef>,
    /// The question asks when a law starts to apply (`[application_intent]`:
    /// the caller gives `topicGain` to the named laws' norms headed so,
    /// [`crate::headings::HeadingTable::intent_matches`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub application_intent: bool,
    /// Under application intent: the named laws' norms on when they apply
    /// (also in `heading_matches`); they state the date a deadline question
    /// asks for (`answerTypeGain`). Set by the caller.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub application_norms: Vec<NormRef>,
    /// The question asks whom or what a named law covers (`[scope_intent]`:
    /// the caller gives `topicGain` to its norms headed „Anwendungsbereich“,
    /// "Scope", „Verpflichtete“).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub scope_intent: bool,
    /// Under scope intent, the question places the addressee beyond the law's
    /// territory („außerhalb der EU“, "outside Europe", `[scope_intent]
    /// narrow_when`): the law's norm on its territorial reach answers it
    /// (`narrow_headings`: „Räumlicher Anwendungsbereich“, "Territorial
    /// scope"), its general scope norm only for a law without one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub scope_narrowed: bool,
    /// The question asks what follows from breaking a law
    /// (`[consequence_intent]`: fines, criminal provisions, damages,
    /// liability; the caller gives `topicGain` to the norms of the named or
    /// detected laws headed so).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub consequence_intent: bool,
    /// Under consequence intent: the kinds the question names
    /// (`[[consequence_kind]]` ids: fines, criminal, damages); empty when it
    /// names none („Was passiert, wenn …“: every kind).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consequence_kinds: Vec<String>,
    /// The question asks what a named law is about (`[purpose_intent]`: the
    /// caller gives `topicGain` to its norm headed „Gegenstand“, „Ziel“,
    /// "Subject matter").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub purpose_intent: bool,
    /// The words after a bare definition frame, fillers and the law's name
    /// taken out, lower case as written („Was ist ein Bevollmächtigter?“ →
    /// "bevollmächtigter"); the
    /// caller reads them against the defined terms of its laws and, when
    /// they are one, sets definition intent
    /// ([`QueryAnalysis::set_definition_intent`]). `None` without a frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_words: Option<String>,
    /// The term a definition question quotes („Wer ist „wirtschaftlich
    /// Berechtigter“ im Transparenzregister“): the one it asks about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quoted_term: Option<String>,
    /// The candidate predicates of a yes/no question whether something is
    /// a term of art („Ist … eine Auftragsverarbeitung?“), longest first
    /// ([`classify`]); the caller sets definition intent when one of them
    /// is a defined term whole. Empty for other questions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classified_words: Vec<String>,
    /// The question asks for an exception or a restriction
    /// (`[exception_intent]`: „ohne Einwilligung“, „Ausnahme“, "exempt"): a
    /// norm that excepts another is not set aside for it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exception_intent: bool,
    pub as_of: Option<AsOf>,
    /// Historical / as-of intent (08).
    pub historical: bool,
    /// Law-enforcement scope: BDSG Teil 3 / JI-RL in scope, no scopePenalty.
    pub law_enforcement: bool,
    /// The question names a country outside the EU that the corpus has no law
    /// of: a third country for the EU acts (`[third_country]`; the engine
    /// searches the law's word for it too).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub third_country: bool,
    /// Categories a law defines that the question names an instance of
    /// (`[[category]]`: a vaccination status, a sick note → health data).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// The law's words for those categories („Gesundheitsdaten“, "data
    /// concerning health"), each with its language: the engine analyses and
    /// searches them beside the question's own terms.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub category_terms: Vec<(Lang, String)>,
    /// The law's words for the abbreviations the question holds („DSFA“ →
    /// „Datenschutz-Folgenabschätzung“; [`crate::abbreviations`]), each
    /// with its language: searched like `category_terms`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abbreviation_terms: Vec<(Lang, String)>,
    /// The question's words that named its laws by name or abbreviation
    /// (folded: „produktsicherheitsverordnung“), one entry per named law.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub law_names: Vec<String>,
    /// Norms cited in the question (from the corpus crate's citation parser).
    pub explicit_refs: Vec<NormRef>,
    /// Canonical norms of the detected topics (`topicGain`).
    pub topic_norms: Vec<NormRef>,
    /// Ids of the detected topics.
    pub topics: Vec<String>,
    /// Norms named by the law's own words: strong heading matches and
    /// defined terms under definition intent (`topicGain`, like a topic;
    /// [`crate::headings`]). Filled by the caller, which owns the index's
    /// analyzer, through [`QueryAnalysis::add_heading_matches`].
    #[serde(default)]
    pub heading_matches: Vec<HeadingMatch>,
    /// Laws the question names by their own title's words
    /// (`lawTitleGain`; [`crate::headings::HeadingTable::law_matches`]),
    /// filled by the caller like `heading_matches`.
    #[serde(default)]
    pub law_matches: Vec<crate::headings::LawMatch>,
    /// The question's analysed terms (the index analyzer's output) plus
    /// their translations; what lexical retrieval searches. Empty until the
    /// caller sets them ([`QueryAnalysis::set_query_terms`]).
    #[serde(default)]
    pub query_terms: Vec<String>,
    /// The terms of `query_terms` that came from the bilingual term table.
    #[serde(default)]
    pub translated_terms: Vec<String>,
    /// German synonyms of the question's words that a heading holds
    /// (OpenThesaurus): lexical retrieval adds them at `synonymBm25Weight`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synonym_terms: Vec<String>,
    /// The kinds of fact the question asks for (`[answer_type]` of the
    /// lexicon, [`crate::answer_type`]): a deadline, an amount, an age, a
    /// head count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answer_types: Vec<AnswerType>,
    /// Norms among the candidates that state a fact of an asked type, with
    /// that type (`answerTypeGain`); filled by the caller, which owns the
    /// norms' texts ([`QueryAnalysis::add_answer_norms`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answer_norms: Vec<(NormRef, AnswerType)>,
    /// Canonical names of regulations the question names.
    pub regulations: Vec<String>,
    /// Scope rules that apply to this question.
    pub scope_rules: Vec<ActiveScopeRule>,
    /// Norm ranges whose own scope the question has (`scopeMatchGain`): the
    /// ranges a general question penalises, at a law-enforcement question.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scope_matches: Vec<ActiveScopeRule>,
    /// Regulation → regime (family) of the lexicon, for cross-regime (06).
    pub regimes: BTreeMap<String, String>,
    /// Every detected feature with the signal that fired it.
    pub signals: Vec<Signal>,
}

impl Default for QueryAnalysis {
    /// A plain DE/EU question without any detected feature.
    fn default() -> Self {
        QueryAnalysis {
            lang: Lang::De,
            domains: Vec::new(),
            jurisdictions: DEFAULT_JURISDICTIONS.to_vec(),
            jurisdiction_named: false,
            control_intent: false,
            guidance_intent: false,
            definition_intent: false,
            duty_intent: false,
            duty_norms: Vec::new(),
            application_intent: false,
            application_norms: Vec::new(),
            scope_intent: false,
            scope_narrowed: false,
            consequence_intent: false,
            consequence_kinds: Vec::new(),
            purpose_intent: false,
            frame_words: None,
            quoted_term: None,
            classified_words: Vec::new(),
            exception_intent: false,
            as_of: None,
            historical: false,
            law_enforcement: false,
            third_country: false,
            categories: Vec::new(),
            category_terms: Vec::new(),
            abbreviation_terms: Vec::new(),
            law_names: Vec::new(),
            explicit_refs: Vec::new(),
            topic_norms: Vec::new(),
            topics: Vec::new(),
            heading_matches: Vec::new(),
            law_matches: Vec::new(),
            query_terms: Vec::new(),
            translated_terms: Vec::new(),
            synonym_terms: Vec::new(),
            answer_types: Vec::new(),
            answer_norms: Vec::new(),
            regulations: Vec::new(),
            scope_rules: Vec::new(),
            scope_matches: Vec::new(),
            regimes: BTreeMap::new(),
            signals: Vec::new(),
        }
    }
}

impl QueryAnalysis {
    /// Regime of a regulation (its own name when unknown).
    pub fn regime_of<'a>(&'a self, regulation: &'a str) -> &'a str {
        self.regimes
            .get(regulation)
            .map(String::as_str)
            .unwrap_or(regulation)
    }

    /// The foreign jurisdictions the question names („in der Schweiz“,
    /// "UK GDPR"): named, and neither a default one (DE/EU) nor
    /// international. Empty for a question that names none.
    pub fn named_foreign_jurisdictions(&self) -> Vec<Jurisdiction> {
        if !self.jurisdiction_named {
            return Vec::new();
        }
        self.jurisdictions
            .iter()
            .copied()
            .filter(|j| !DEFAULT_JURISDICTIONS.contains(j) && *j != Jurisdiction::Int)
            .collect()
    }

    /// Record the norms that an intent names as the kind of fact asked for
    /// (`kind`: a consequence intent's sanction norms, a definition
    /// intent's definitions), unless the question asks for a number: then
    /// the norm stating it answers („bis zu welchem Betrag haftet …“ asks
    /// for § 10 ProdHaftG's ceiling, not § 1's liability), and of the
    /// intent's norms those whose kind states the asked number by what they
    /// are (`states`: a fines provision states the fine's amount, or that
    /// the Member States set it — "What fines can be imposed under the
    /// RED?" asks for its Art. 45 „Sanktionen“).
    pub fn add_intent_answer_norms(
        &mut self,
        kind: AnswerType,
        norms: Vec<(NormRef, Option<AnswerType>)>,
    ) {
        let asked = |t: &Option<AnswerType>| t.filter(|t| self.answer_types.contains(t));
        let answers = if self.answer_types.is_empty() {
            norms.into_iter().map(|(n, _)| (n, kind)).collect()
        } else {
            norms
                .into_iter()
                .filter_map(|(n, t)| asked(&t).map(|t| (n, t)))
                .collect()
        };
        self.add_answer_norms(answers);
    }

    /// Record the norms that state a fact of an asked answer type (a norm
    /// is kept once) and one `answer_norm` signal per type with their
    /// number; each result's explanation names its own.
    pub fn add_answer_norms(&mut self, norms: Vec<(NormRef, AnswerType)>) {
        let mut counts: BTreeMap<AnswerType, usize> = BTreeMap::new();
        for (n, k) in norms {
            if self.answer_norms.iter().any(|(m, _)| m == &n) {
                continue;
            }
            *counts.entry(k).or_default() += 1;
            self.answer_norms.push((n, k));
        }
        for (k, c) in counts {
            self.push(
                "answer_norm",
                k.as_str(),
                format!("{c} Normen unter den Kandidaten nennen {}", k.label_de()),
            );
        }
    }

    /// Record the candidate norms whose heading names a duty (a norm is
    /// kept once) and one `duty_norm` signal with their number.
    pub fn add_duty_norms(&mut self, norms: Vec<NormRef>) {
        let before = self.duty_norms.len();
        for n in norms {
            if !self.duty_norms.contains(&n) {
                self.duty_norms.push(n);
            }
        }
        let added = self.duty_norms.len() - before;
        if added > 0 {
            self.push(
                "duty_norm",
                "duty_intent",
                format!("{added} Normen unter den Kandidaten sind als Pflicht überschrieben"),
            );
        }
    }

    /// Index of the active scope rule that covers `norm` (`§ 75`, `Art. 2`)
    /// of `regulation`, if any (`scopePenalty`, seed 02; the gate's Scope).
    pub fn scope_rule_for(&self, regulation: &str, norm: &str) -> Option<usize> {
        covering(&self.scope_rules, regulation, norm)
    }

    /// Index of the scope match that covers `norm` of `regulation`, if any
    /// (`scopeMatchGain`).
    pub fn scope_match_for(&self, regulation: &str, norm: &str) -> Option<usize> {
        if self.scope_matches.is_empty() {
            return None;
        }
        covering(&self.scope_matches, regulation, norm)
    }

    /// Record heading / defined-term matches (each becomes a `heading`
    /// signal); a norm already matched is kept once.
    /// Record the laws the question names by title (one match per law).
    pub fn add_law_matches(&mut self, matches: Vec<crate::headings::LawMatch>) {
        for m in matches {
            if self
                .law_matches
                .iter()
                .any(|x| x.regulation == m.regulation)
            {
                continue;
            }
            self.push(
                "law_title",
                &m.title,
                format!("{} ← {}", m.regulation, m.terms.join(" ")),
            );
            self.law_matches.push(m);
        }
    }

    pub fn add_heading_matches(&mut self, matches: Vec<HeadingMatch>) {
        for m in matches {
            if self.heading_matches.iter().any(|x| x.norm == m.norm) {
                continue;
            }
            self.push(
                "heading",
                &m.heading,
                format!("{} ← {}", m.norm, m.terms.join(" ")),
            );
            self.heading_matches.push(m);
        }
    }

    /// Set the analysed terms lexical retrieval searches, and which of them
    /// are translations (recorded as a `translation` signal).
    pub fn set_query_terms(&mut self, terms: Vec<String>, translated: Vec<String>) {
        if !translated.is_empty() {
            self.push(
                "translation",
                "terms_de_en, glossary_de_en",
                translated.join(" "),
            );
        }
        self.query_terms = terms;
        self.translated_terms = translated;
    }

    /// Set the synonyms lexical retrieval adds (recorded as a `synonyms` signal).
    pub fn set_synonym_terms(&mut self, synonyms: Vec<String>) {
        if !synonyms.is_empty() {
            self.push("synonyms", "synonyms_de", synonyms.join(" "));
        }
        self.synonym_terms = synonyms;
    }

    /// A definition question's term of art names its law: the areas of the
    /// laws that define the question's term (`defining`) join the question's
    /// domains („What is a ‘connected product’?“ is a Data Act question,
    /// though „product“ alone says product safety) — when they are the laws
    /// of one regime: „processing“, which many laws define, says nothing of
    /// the question's area.
    pub fn add_defining_law_domains(&mut self, defining: &[String], lexicon: &crate::Lexicon) {
        let regimes: std::collections::BTreeSet<&str> =
            defining.iter().map(|r| lexicon.regime_of(r)).collect();
        if regimes.len() != 1 {
            return;
        }
        for name in defining {
            let Some(r) = lexicon.regulation(name) else {
                continue;
            };
            for d in &r.domains {
                if !self.domains.contains(d) {
                    self.domains.push(*d);
                    self.push("domain", &format!("defined_term:{name}"), d.as_str());
                }
            }
        }
    }

    /// Take topic norms out of `topic_norms` (no `topicGain`), saying why in
    /// the signals (e.g. [`crate::headings::definition_topics_set_aside`]).
    pub fn set_aside_topic_norms(&mut self, norms: &[NormRef], why: &str) {
        if norms.is_empty() {
            return;
        }
        self.topic_norms.retain(|n| !norms.contains(n));
        let list: Vec<&str> = norms.iter().map(NormRef::as_str).collect();
        self.push("topic_set_aside", why, list.join(", "));
    }

    /// The question asks what a term of art means (`term`, the caller's
    /// defined-term match) whose name only holds a category's instance word
    /// („biometric identification“, not biometric data): the categories
    /// step aside, their law's words and norms with them.
    pub fn drop_categories(&mut self, lexicon: &crate::Lexicon, term: &str) {
        if self.categories.is_empty() {
            return;
        }
        let norms: Vec<NormRef> = lexicon
            .categories
            .iter()
            .filter(|c| self.categories.contains(&c.id))
            .flat_map(|c| c.norms.iter().cloned())
            .collect();
        let ids = self.categories.join(", ");
        self.push(
            "category_set_aside",
            "defined_term",
            format!("{ids} ({term})"),
        );
        self.categories.clear();
        self.category_terms.clear();
        self.set_aside_topic_norms(&norms, "defined_term");
    }

    /// Definition intent found outside the lexicon's passes (the engine's
    /// defined terms read in [`QueryAnalysis::frame_words`]).
    pub fn set_definition_intent(&mut self, signal: &str, detail: impl Into<String>) {
        self.definition_intent = true;
        self.push("definition_intent", signal, detail);
    }

    /// The definition question asks about `head`, a thing its defined term
    /// only qualifies (the engine's check of the words after the frame):
    /// said in the signals; the caller drops the defined-term matches.
    pub fn set_definition_head(&mut self, head: &str) {
        self.push("definition_head", "unheld_head", head);
    }

    fn push(&mut self, feature: &str, signal: &str, detail: impl Into<String>) {
        self.signals.push(Signal {
            feature: feature.to_string(),
            signal: signal.to_string(),
            detail: detail.into(),
        });
    }
}

mod classify;
mod date;
mod passes;
#[cfg(test)]
mod tests;

pub(crate) use date::next_iso_day;

/// Analyse a question with the lexicon. `explicit_refs` are the norms the
/// corpus crate's citation parser found in the query; they are recorded as
/// signals, and their regulations count as named (domain, jurisdiction).
pub fn analyze_query(query: &str, explicit_refs: &[NormRef], lex: &Lexicon) -> QueryAnalysis {
    analyze_query_with(query, explicit_refs, lex, true)
}

/// [`analyze_query`], with the hand-written lexicon topics only when
/// `hand_topics` (`false`: the eval's "hand topics off" ablation — `topicGain`
/// then comes only from headings, defined terms, definition intent and
/// explicit references). The life of a question's analysis: the passes of
/// [`passes::Passes`] in this order, each adding its features with the
/// signal that fired them.
pub fn analyze_query_with(
    query: &str,
    explicit_refs: &[NormRef],
    lex: &Lexicon,
    hand_topics: bool,
) -> QueryAnalysis {
    let mut q = QueryAnalysis {
        jurisdictions: Vec::new(),
        explicit_refs: Vec::new(),
        ..QueryAnalysis::default()
    };
    q.regimes = lex
        .regulations
        .iter()
        .map(|r| (r.name.clone(), r.regime.clone()))
        .collect();
    let mut p = passes::Passes::new(query, lex, hand_topics);
    p.language(&mut q);
    p.regulations(&mut q, explicit_refs);
    p.domains(&mut q);
    p.jurisdictions(&mut q);
    p.intents(&mut q);
    p.as_of(&mut q);
    p.topics(&mut q);
    p.categories(&mut q);
    p.abbreviations(&mut q);
    p.twin_norms(&mut q);
    p.definition_intent(&mut q);
    p.heading_intents(&mut q);
    p.exception_and_consequence(&mut q);
    p.answer_types(&mut q);
    p.duty_intent(&mut q);
    p.scope_rules(&mut q);
    q
}
