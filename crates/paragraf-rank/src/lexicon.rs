//! The query-analysis lexicon: data in `lexicon/query.toml`, compiled once.
//!
//! [`Lexicon::builtin`] is the file embedded at compile time;
//! [`Lexicon::from_toml_str`] loads a user override with the same schema
//! (documented at the top of the file).

use crate::answer_type::AnswerType;
use crate::error::RankError;
use crate::frame::ClassifyFrame;
use crate::text::{norm_key, Pattern};
use paragraf_types::{Domain, Jurisdiction, Lang, NormRef};
use std::collections::BTreeSet;
use std::sync::OnceLock;

mod raw;
use raw::{
    RawCategory, RawDomain, RawGuidance, RawHeadingIntent, RawJurisdiction, RawLexicon,
    RawRegulation, RawScopeRule, RawTopic,
};

const BUILTIN_TOML: &str = include_str!("../lexicon/query.toml");

/// When a [`ScopeRule`] or a [`Topic`] applies, relative to the question's
/// law-enforcement scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeWhen {
    /// Only when the question is *not* about law enforcement.
    General,
    /// Only when the question is about law enforcement.
    LawEnforcement,
}

/// A jurisdiction the question can name.
#[derive(Debug, Clone)]
pub struct JurisdictionEntry {
    pub code: Jurisdiction,
    pub signals: Vec<Pattern>,
}

/// A subject-matter domain with its signals.
#[derive(Debug, Clone)]
pub struct DomainEntry {
    pub domain: Domain,
    /// Definitions norms of the domain's main acts (definition intent without a named act).
    pub definitions: Vec<NormRef>,
    pub signals: Vec<Pattern>,
    /// Groups of patterns that name the domain only together, anywhere in
    /// the question ("Daten … verarbeiten").
    pub together: Vec<Vec<Pattern>>,
    /// Words that contain a signal but are another word ("Bewerbung" holds
    /// "werbung"): tokens matching one of these never fire the domain.
    pub except: Vec<Pattern>,
}

/// A regulation with its aliases.
#[derive(Debug, Clone)]
pub struct RegulationEntry {
    /// Canonical short name (`DSGVO`).
    pub name: String,
    pub aliases: Vec<Pattern>,
    pub jurisdiction: Jurisdiction,
    pub domains: Vec<Domain>,
    /// Regime (family) for cross-regime (seed 06).
    pub regime: String,
    /// Label of the definitions norm (`Art. 4`).
    pub definitions: Option<String>,
    /// A superseded version: naming it is an as-of hint (08).
    pub historical: bool,
    /// The law whose article numbering this one keeps (the UK GDPR keeps
    /// the GDPR's): a question about this law's jurisdiction takes the
    /// same-numbered norms of the topics it fires.
    pub numbered_like: Option<String>,
    /// A law of its own numbering on the same matters as another
    /// (`concordance_with`): per label of that law, this law's label (the
    /// revDSG article for a GDPR article), used like `numbered_like`.
    pub concordance: Option<(String, Vec<(String, String)>)>,
}

/// A norm range out of scope of a general (or a law-enforcement) question (`scopePenalty`).
#[derive(Debug, Clone)]
pub struct ScopeRule {
    pub regulation: String,
    /// Inclusive § / article number range; `None` = the whole regulation.
    pub range: Option<(u32, u32)>,
    pub penalise_when: ScopeWhen,
    /// German reason written into the explanation.
    pub reason: String,
    /// The norms' own scope, in German, when a question has it
    /// (`scopeMatchGain`): a rule penalised at a general question names the
    /// norms a law-enforcement question is about.
    pub in_scope: Option<String>,
}

/// A category a law defines (`[[category]]`): a question naming one of its
/// instances („Impfstatus“, „Krankmeldung“ for health data) is about the
/// category; its terms (the law's own words) are searched too, and with hand
/// topics its norms get `topicGain`.
#[derive(Debug, Clone)]
pub struct Category {
    pub id: String,
    /// The norm whose definition or list the category and its instances come from.
    pub defined_in: NormRef,
    pub instances: Vec<Pattern>,
    pub unless: Vec<Pattern>,
    /// The law's words for the category, each with its language.
    pub terms: Vec<(Lang, String)>,
    pub norms: Vec<NormRef>,
}

/// Topic → canonical norms (`topicGain`).
#[derive(Debug, Clone)]
pub struct Topic {
    pub id: String,
    pub signals: Vec<Pattern>,
    pub require: Vec<Pattern>,
    pub unless: Vec<Pattern>,
    pub when_domain: Option<Domain>,
    pub scope: Option<ScopeWhen>,
    pub norms: Vec<NormRef>,
    pub suppresses: Vec<String>,
    /// Domains of the regulations of `norms` (filled at load): a fired topic
    /// brings them to the question.
    pub domains: Vec<Domain>,
}

/// The `addressed` phrases of `[guidance_intent]`, each with the guidance
/// signal it holds (a phrase must hold one).
fn addressed(g: &RawGuidance, signals: &[Pattern]) -> Result<Vec<(Pattern, String)>, RankError> {
    let phrases = patterns("guidance_intent.addressed", &g.addressed)?;
    phrases
        .into_iter()
        .map(|p| {
            let words: Vec<String> = crate::text::tokens_with_variants(&p.source);
            signals
                .iter()
                .find(|s| s.matches(&words))
                .map(|s| (p.clone(), s.source.clone()))
                .ok_or_else(|| RankError::Lexicon {
                    field: "guidance_intent.addressed".into(),
                    message: format!("`{}` holds no guidance signal", p.source),
                })
        })
        .collect()
}

/// Compiled query-analysis lexicon.
#[derive(Debug, Clone)]
pub struct Lexicon {
    pub lang_de: Vec<Pattern>,
    pub lang_en: Vec<Pattern>,
    pub control_intent: Vec<Pattern>,
    pub guidance_intent: Vec<Pattern>,
    /// An authority named as the addressee of a report („beim BSI melden“):
    /// the authority's name is then no guidance intent (`[guidance_intent]
    /// addressed`: the phrase, and the signal it holds).
    pub guidance_addressed: Vec<(Pattern, String)>,
    pub definition_intent: Vec<Pattern>,
    /// The difference between two things (`[definition_intent] compare`).
    pub definition_compare: Vec<Pattern>,
    /// The words before a quoted term that ask what it means
    /// (`[definition_intent] quoted_frames`, folded and lower-cased, e.g.
    /// "was ist", "what is") and the articles and prepositions that may
    /// stand between frame and quote (`quoted_fillers`).
    pub quoted_frames: Vec<Vec<String>>,
    pub quoted_fillers: Vec<String>,
    /// A yes/no question whether a thing is a term of art
    /// (`[definition_intent.classify]`).
    pub classify_frame: ClassifyFrame,
    /// When a law starts to apply (`[application_intent]`).
    pub application_intent: HeadingIntent,
    /// Whom or what a law covers (`[scope_intent]`).
    pub scope_intent: HeadingIntent,
    /// What follows from breaking a law: fines, criminal provisions,
    /// damages, liability (`[consequence_intent]`).
    pub consequence_intent: HeadingIntent,
    /// The kinds of consequence (`[[consequence_kind]]`): per kind the
    /// question's words for it and the headings of its norms.
    pub consequence_kinds: Vec<ConsequenceKind>,
    /// What a named law is about: its subject matter and aims
    /// (`[purpose_intent]`).
    pub purpose_intent: HeadingIntent,
    /// The question asks for an exception or a restriction
    /// (`[exception_intent]`): a norm that excepts another keeps its place.
    pub exception_intent: Vec<Pattern>,
    /// The question asks who must do what, or what a duty is
    /// (`[duty_intent]`): the candidate norms whose heading names a duty
    /// („Pflicht zur Einrichtung …“, "Obligations of …") gain `dutyHeadingGain`.
    pub duty_intent: HeadingIntent,
    pub historical: Vec<Pattern>,
    pub law_enforcement: Vec<Pattern>,
    pub jurisdictions: Vec<JurisdictionEntry>,
    pub domains: Vec<DomainEntry>,
    pub regulations: Vec<RegulationEntry>,
    pub scope_rules: Vec<ScopeRule>,
    pub topics: Vec<Topic>,
    /// Per answer type, the patterns of a question that asks for it
    /// (`[answer_type]`, `crate::answer_type`).
    pub answer_types: Vec<(AnswerType, Vec<Pattern>)>,
    /// A country outside the EU the corpus has no law of (`[third_country]`).
    pub third_country: Vec<Pattern>,
    /// The law's words for such a country („Drittland“, "third country"),
    /// each with its language; the engine analyses them into searched terms.
    pub third_country_terms: Vec<(Lang, String)>,
    /// Categories the laws define, with their instances (`[[category]]`).
    pub categories: Vec<Category>,
}

/// One kind of consequence of breaking a law (`[[consequence_kind]]`).
#[derive(Debug, Clone)]
pub struct ConsequenceKind {
    pub id: String,
    /// The question's words for this kind („Bußgeld“, "fine"; „haftet“).
    pub signals: Vec<Pattern>,
    /// Headings of the norms that state it („Bußgeldvorschriften“, "Penalties").
    pub headings: Vec<Pattern>,
    /// Words of a norm's text that state it, for a law with no norm so
    /// headed („… haften ihrer Einrichtung“, "can be held liable").
    pub statements: Vec<Pattern>,
    /// The kind whose norms answer for a law with none of this kind (a law
    /// without fines punishes through its criminal provisions); an `id` of
    /// another `[[consequence_kind]]`.
    pub stands_in: Option<String>,
    /// The kind of fact its norms state by what they are, whatever their
    /// text (a fines provision states the fine: an amount, or the Member
    /// States' rules on it); an asked number of that kind is answered by
    /// them ([`crate::QueryAnalysis::add_intent_answer_norms`]).
    pub states: Option<AnswerType>,
}

/// A compiled heading intent (`[application_intent]`, `[scope_intent]`,
/// `[consequence_intent]`): the question's signals and the headings of the
/// norms that answer it (entry into force; scope; sanctions), matched against the headings of the laws it names.
#[derive(Debug, Clone, Default)]
pub struct HeadingIntent {
    pub signals: Vec<Pattern>,
    /// Patterns that say it only together (each group: all of them).
    pub together: Vec<Vec<Pattern>>,
    /// None of these may occur in the question.
    pub unless: Vec<Pattern>,
    /// Patterns on a heading's words (normalised like a question).
    pub headings: Vec<Pattern>,
    /// Headings that answer for a law without any of `headings`
    /// (transitional provisions).
    pub fallback_headings: Vec<Pattern>,
    /// Question words that narrow the intent to `narrow_headings` (a place
    /// beyond the law's territory → its territorial scope); they also turn
    /// a question when a law applies into one whom it reaches.
    pub narrow_when: Vec<Pattern>,
    /// The headings that answer a narrowed question (`headings` stay the
    /// fallback for a law without one).
    pub narrow_headings: Vec<Pattern>,
}

impl HeadingIntent {
    fn compile(field: &str, raw: &RawHeadingIntent) -> Result<HeadingIntent, RankError> {
        Ok(HeadingIntent {
            signals: patterns(&format!("{field}.signals"), &raw.signals)?,
            together: groups(&format!("{field}.together"), &raw.together)?,
            unless: patterns(&format!("{field}.unless"), &raw.unless)?,
            headings: patterns(&format!("{field}.headings"), &raw.headings)?,
            fallback_headings: patterns(
                &format!("{field}.fallback_headings"),
                &raw.fallback_headings,
            )?,
            narrow_when: patterns(&format!("{field}.narrow_when"), &raw.narrow_when)?,
            narrow_headings: patterns(&format!("{field}.narrow_headings"), &raw.narrow_headings)?,
        })
    }
}

/// The `[[jurisdiction]]` entries.
fn compile_jurisdictions(raw: &[RawJurisdiction]) -> Result<Vec<JurisdictionEntry>, RankError> {
    let mut jurisdictions = Vec::new();
    for (i, j) in raw.iter().enumerate() {
        let f = format!("jurisdiction[{i}]");
        jurisdictions.push(JurisdictionEntry {
            code: parse_enum(&format!("{f}.code"), &j.code)?,
            signals: patterns(&format!("{f}.signals"), &j.signals)?,
        });
    }
    Ok(jurisdictions)
}

/// The `[[domain]]` entries.
fn compile_domains(raw: &[RawDomain]) -> Result<Vec<DomainEntry>, RankError> {
    let mut domains = Vec::new();
    for (i, d) in raw.iter().enumerate() {
        let f = format!("domain[{i}]");
        domains.push(DomainEntry {
            domain: parse_enum(&format!("{f}.name"), &d.name)?,
            definitions: d.definitions.iter().map(|n| NormRef(n.clone())).collect(),
            signals: patterns(&format!("{f}.signals"), &d.signals)?,
            together: groups(&format!("{f}.together"), &d.together)?,
            except: patterns(&format!("{f}.except"), &d.except)?,
        });
    }
    Ok(domains)
}

/// The `[[regulation]]` entries (names unique; a concordance names its
/// other law).
fn compile_regulations(raw: &[RawRegulation]) -> Result<Vec<RegulationEntry>, RankError> {
    let mut regulations = Vec::new();
    let mut names = BTreeSet::new();
    for (i, r) in raw.iter().enumerate() {
        let f = format!("regulation[{i}]");
        if !names.insert(r.name.clone()) {
            return Err(RankError::Lexicon {
                field: format!("{f}.name"),
                message: format!("duplicate regulation `{}`", r.name),
            });
        }
        let mut ds = Vec::new();
        for (k, d) in r.domains.iter().enumerate() {
            ds.push(parse_enum(&format!("{f}.domains[{k}]"), d)?);
        }
        regulations.push(RegulationEntry {
            name: r.name.clone(),
            aliases: patterns(&format!("{f}.aliases"), &r.aliases)?,
            jurisdiction: parse_enum(&format!("{f}.jurisdiction"), &r.jurisdiction)?,
            domains: ds,
            regime: r.regime.clone(),
            definitions: r.definitions.clone(),
            historical: r.historical,
            numbered_like: r.numbered_like.clone(),
            concordance: match (&r.concordance_with, r.concordance.is_empty()) {
                (Some(law), _) => Some((
                    law.clone(),
                    r.concordance
                        .iter()
                        .map(|[a, b]| (a.clone(), b.clone()))
                        .collect(),
                )),
                (None, true) => None,
                (None, false) => {
                    return Err(RankError::Lexicon {
                        field: format!("{f}.concordance"),
                        message: "`concordance` needs `concordance_with` (the other law)"
                            .to_string(),
                    })
                }
            },
        });
    }
    Ok(regulations)
}

/// The `[[scope_rule]]` entries (a range has both ends, in order).
fn compile_scope_rules(raw: &[RawScopeRule]) -> Result<Vec<ScopeRule>, RankError> {
    let mut scope_rules = Vec::new();
    for (i, s) in raw.iter().enumerate() {
        let f = format!("scope_rule[{i}]");
        let range = match (s.from, s.to) {
            (None, None) => None,
            (Some(a), Some(b)) if a <= b => Some((a, b)),
            _ => {
                return Err(RankError::Lexicon {
                    field: format!("{f}.from/to"),
                    message: "give both `from` and `to` (from <= to) or neither".into(),
                })
            }
        };
        scope_rules.push(ScopeRule {
            regulation: s.regulation.clone(),
            range,
            penalise_when: scope_when(&format!("{f}.penalise_when"), &s.penalise_when)?,
            reason: s.reason.clone(),
            in_scope: s.in_scope.clone(),
        });
    }
    Ok(scope_rules)
}

/// The `[[topic]]` entries (ids unique, each names a norm, what a topic
/// suppresses is a topic).
fn compile_topics(raw: &[RawTopic]) -> Result<Vec<Topic>, RankError> {
    let mut topics = Vec::new();
    let mut ids = BTreeSet::new();
    for (i, t) in raw.iter().enumerate() {
        let f = format!("topic[{i}]");
        if !ids.insert(t.id.clone()) {
            return Err(RankError::Lexicon {
                field: format!("{f}.id"),
                message: format!("duplicate topic id `{}`", t.id),
            });
        }
        if t.norms.is_empty() {
            return Err(RankError::Lexicon {
                field: format!("{f}.norms"),
                message: format!("topic `{}` names no norm", t.id),
            });
        }
        topics.push(Topic {
            id: t.id.clone(),
            signals: patterns(&format!("{f}.signals"), &t.signals)?,
            require: patterns(&format!("{f}.require"), &t.require)?,
            unless: patterns(&format!("{f}.unless"), &t.unless)?,
            when_domain: match &t.when_domain {
                Some(d) => Some(parse_enum(&format!("{f}.when_domain"), d)?),
                None => None,
            },
            scope: match &t.scope {
                Some(s) => Some(scope_when(&format!("{f}.scope"), s)?),
                None => None,
            },
            norms: t.norms.iter().map(|n| NormRef(n.clone())).collect(),
            suppresses: t.suppresses.clone(),
            domains: Vec::new(),
        });
    }
    for (i, t) in topics.iter().enumerate() {
        for s in &t.suppresses {
            if !ids.contains(s) {
                return Err(RankError::Lexicon {
                    field: format!("topic[{i}].suppresses"),
                    message: format!("unknown topic id `{s}`"),
                });
            }
        }
    }
    Ok(topics)
}

/// The `[[category]]` entries (ids unique, each names the law's words or a
/// norm).
fn compile_categories(raw: &[RawCategory]) -> Result<Vec<Category>, RankError> {
    let mut categories = Vec::new();
    let mut category_ids = BTreeSet::new();
    for (i, c) in raw.iter().enumerate() {
        let f = format!("category[{i}]");
        if !category_ids.insert(c.id.clone()) {
            return Err(RankError::Lexicon {
                field: format!("{f}.id"),
                message: format!("duplicate category id `{}`", c.id),
            });
        }
        if c.terms_de.is_empty() && c.terms_en.is_empty() && c.norms.is_empty() {
            return Err(RankError::Lexicon {
                field: format!("{f}.terms_de"),
                message: format!(
                    "category `{}` names neither the law's words nor a norm",
                    c.id
                ),
            });
        }
        categories.push(Category {
            id: c.id.clone(),
            defined_in: NormRef(c.defined_in.clone()),
            instances: patterns(&format!("{f}.instances"), &c.instances)?,
            unless: patterns(&format!("{f}.unless"), &c.unless)?,
            terms: c
                .terms_de
                .iter()
                .map(|t| (Lang::De, t.clone()))
                .chain(c.terms_en.iter().map(|t| (Lang::En, t.clone())))
                .collect(),
            norms: c.norms.iter().map(|n| NormRef(n.clone())).collect(),
        });
    }
    Ok(categories)
}

/// `together` groups: each a list of patterns that fire only all together.
fn groups(field: &str, list: &[Vec<String>]) -> Result<Vec<Vec<Pattern>>, RankError> {
    list.iter()
        .enumerate()
        .map(|(k, g)| patterns(&format!("{field}[{k}]"), g))
        .collect()
}

fn patterns(field: &str, list: &[String]) -> Result<Vec<Pattern>, RankError> {
    list.iter()
        .map(|s| {
            Pattern::parse(s).ok_or_else(|| RankError::Lexicon {
                field: field.to_string(),
                message: format!("invalid signal pattern `{s}` (`*` only at token edges, at least one letter or digit per token)"),
            })
        })
        .collect()
}

fn parse_enum<T: std::str::FromStr>(field: &str, v: &str) -> Result<T, RankError>
where
    T::Err: std::fmt::Display,
{
    v.parse::<T>().map_err(|e| RankError::Lexicon {
        field: field.to_string(),
        message: e.to_string(),
    })
}

fn scope_when(field: &str, v: &str) -> Result<ScopeWhen, RankError> {
    match v {
        "general" => Ok(ScopeWhen::General),
        "law_enforcement" => Ok(ScopeWhen::LawEnforcement),
        other => Err(RankError::Lexicon {
            field: field.to_string(),
            message: format!("unknown scope `{other}` (expected `general` or `law_enforcement`)"),
        }),
    }
}

impl Lexicon {
    /// The lexicon shipped with the crate (`lexicon/query.toml`), parsed once.
    pub fn builtin() -> &'static Lexicon {
        static BUILTIN: OnceLock<Lexicon> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            // The embedded file is part of the crate and covered by
            // `lexicon::tests::builtin_lexicon_parses`; it cannot fail at run time.
            Lexicon::from_toml_str(BUILTIN_TOML).expect("embedded lexicon/query.toml is valid")
        })
    }

    /// Parse and validate a lexicon in the schema of `lexicon/query.toml`.
    pub fn from_toml_str(s: &str) -> Result<Lexicon, RankError> {
        let raw: RawLexicon = toml::from_str(s).map_err(|e| RankError::LexiconToml {
            message: e.to_string(),
        })?;
        let jurisdictions = compile_jurisdictions(&raw.jurisdiction)?;
        let domains = compile_domains(&raw.domain)?;
        let regulations = compile_regulations(&raw.regulation)?;
        let scope_rules = compile_scope_rules(&raw.scope_rule)?;
        let topics = compile_topics(&raw.topic)?;
        let categories = compile_categories(&raw.category)?;
        let guidance_intent = patterns("guidance_intent.signals", &raw.guidance_intent.signals)?;
        let guidance_addressed = addressed(&raw.guidance_intent, &guidance_intent)?;
        let tc = &raw.third_country;
        let mut lex = Lexicon {
            lang_de: patterns("language.de", &raw.language.de)?,
            lang_en: patterns("language.en", &raw.language.en)?,
            control_intent: patterns("control_intent.signals", &raw.control_intent.signals)?,
            guidance_intent,
            guidance_addressed,
            definition_intent: patterns(
                "definition_intent.signals",
                &raw.definition_intent.signals,
            )?,
            definition_compare: patterns(
                "definition_intent.compare",
                &raw.definition_intent.compare,
            )?,
            quoted_frames: raw
                .definition_intent
                .quoted_frames
                .iter()
                .map(|f| crate::text::tokens(f, false))
                .collect(),
            quoted_fillers: crate::text::list_tokens(&raw.definition_intent.quoted_fillers),
            classify_frame: ClassifyFrame::compile(&raw.definition_intent.classify),
            application_intent: HeadingIntent::compile(
                "application_intent",
                &raw.application_intent,
            )?,
            scope_intent: HeadingIntent::compile("scope_intent", &raw.scope_intent)?,
            consequence_intent: HeadingIntent::compile(
                "consequence_intent",
                &raw.consequence_intent,
            )?,
            consequence_kinds: raw
                .consequence_kind
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    Ok(ConsequenceKind {
                        id: k.id.clone(),
                        signals: patterns(&format!("consequence_kind[{i}].signals"), &k.signals)?,
                        headings: patterns(
                            &format!("consequence_kind[{i}].headings"),
                            &k.headings,
                        )?,
                        statements: patterns(
                            &format!("consequence_kind[{i}].statements"),
                            &k.statements,
                        )?,
                        stands_in: match &k.stands_in {
                            Some(id) if !raw.consequence_kind.iter().any(|o| &o.id == id) => {
                                return Err(RankError::Lexicon {
                                    field: format!("consequence_kind[{i}].stands_in"),
                                    message: format!("no [[consequence_kind]] with id `{id}`"),
                                })
                            }
                            other => other.clone(),
                        },
                        states: k.states,
                    })
                })
                .collect::<Result<_, RankError>>()?,
            purpose_intent: HeadingIntent::compile("purpose_intent", &raw.purpose_intent)?,
            exception_intent: match &raw.exception_intent {
                Some(e) => patterns("exception_intent.signals", &e.signals)?,
                None => Vec::new(),
            },
            duty_intent: HeadingIntent::compile("duty_intent", &raw.duty_intent)?,
            historical: patterns("historical.signals", &raw.historical.signals)?,
            law_enforcement: patterns("law_enforcement.signals", &raw.law_enforcement.signals)?,
            third_country: patterns("third_country.signals", &raw.third_country.signals)?,
            third_country_terms: (tc.terms_de.iter().map(|t| (Lang::De, t.clone())))
                .chain(tc.terms_en.iter().map(|t| (Lang::En, t.clone())))
                .collect(),
            categories,
            jurisdictions,
            domains,
            regulations,
            scope_rules,
            topics,
            answer_types: [
                (AnswerType::Deadline, "deadline", &raw.answer_type.deadline),
                (AnswerType::Amount, "amount", &raw.answer_type.amount),
                (AnswerType::Age, "age", &raw.answer_type.age),
                (
                    AnswerType::Threshold,
                    "threshold",
                    &raw.answer_type.threshold,
                ),
                (AnswerType::Charge, "charge", &raw.answer_type.charge),
            ]
            .into_iter()
            .map(|(t, f, l)| Ok((t, patterns(&format!("answer_type.{f}"), l)?)))
            .collect::<Result<_, RankError>>()?,
        };
        let domains: Vec<Vec<Domain>> = lex
            .topics
            .iter()
            .map(|t| {
                let mut ds: Vec<Domain> = Vec::new();
                for d in t
                    .norms
                    .iter()
                    .filter_map(|n| lex.regulation_of_norm(n))
                    .flat_map(|r| &r.domains)
                {
                    if !ds.contains(d) {
                        ds.push(*d);
                    }
                }
                ds
            })
            .collect();
        for (t, ds) in lex.topics.iter_mut().zip(domains) {
            t.domains = ds;
        }
        Ok(lex)
    }

    /// Whether a norm's heading names a duty (`[duty_intent] headings`:
    /// „Transparenzpflichten …“, "Obligations of distributors").
    pub fn heading_names_duty(&self, heading: &str) -> bool {
        let toks = crate::text::tokens(heading, false);
        crate::text::first_match(&self.duty_intent.headings, &toks).is_some()
    }

    /// The regulation entry of a canonical name.
    pub fn regulation(&self, name: &str) -> Option<&RegulationEntry> {
        self.regulations.iter().find(|r| r.name == name)
    }

    /// Regime of a regulation (its own name when the lexicon does not know it).
    pub fn regime_of<'a>(&'a self, regulation: &'a str) -> &'a str {
        self.regulation(regulation)
            .map(|r| r.regime.as_str())
            .unwrap_or(regulation)
    }

    /// The regulation a canonical norm id belongs to: the longest known
    /// regulation name the id ends with (`§ 4f BDSG 1990` → `BDSG 1990`).
    pub fn regulation_of_norm(&self, norm: &NormRef) -> Option<&RegulationEntry> {
        let key = norm_key(norm.as_str());
        self.regulations
            .iter()
            .filter(|r| key.ends_with(&norm_key(&r.name)))
            .max_by_key(|r| r.name.len())
    }
}

#[cfg(test)]
mod tests;
