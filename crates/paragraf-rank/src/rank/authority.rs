//! The authority terms of the rank (02), the control roles (05) and the
//! as-of supersede (08), added to each candidate, and the German text of
//! every term's reason.

use super::{Reason, Scored, Stage};
use crate::answer_type::AnswerType;
use crate::params::{names, RankParams};
use crate::query::{next_iso_day, DateRange, QueryAnalysis};
use crate::text::{norm_key, push_norm_key};
use paragraf_types::{Chunk, Domain, Jurisdiction, NormRef, SourceClass, Status};
use std::collections::{HashMap, HashSet};

fn juris_list(q: &QueryAnalysis) -> String {
    q.jurisdictions
        .iter()
        .map(|j| j.as_str())
        .collect::<Vec<_>>()
        .join("/")
}

/// The 02 terms (and, in Full, the 05 role terms and the 08 as-of
/// supersede), per candidate in a fixed order: the source's class, place
/// and domain; its law; its norm; its status and role.
pub(super) fn authority_terms(
    v: &mut [Scored<'_>],
    q: &QueryAnalysis,
    p: &RankParams,
    stage: Stage,
) {
    let keys = NormKeys::of(q);
    let full = stage == Stage::Full;
    let asof = if full && q.historical {
        Some(AsOfCtx::new(q, v))
    } else {
        None
    };
    let mut key = String::new();
    for s in v.iter_mut() {
        source_terms(s, q, p);
        law_terms(s, q, p);
        norm_terms(s, q, p, &keys, &mut key);
        status_terms(s, q, p, asof.as_ref(), full);
    }
}

/// The question's norms by norm key: explicit references, topic norms,
/// heading matches (their index) and the norms stating the asked kind of
/// fact.
struct NormKeys {
    topic: HashSet<String>,
    heading: HashMap<String, usize>,
    explicit: HashSet<String>,
    answer: HashMap<String, AnswerType>,
    duty: HashSet<String>,
}

impl NormKeys {
    fn of(q: &QueryAnalysis) -> NormKeys {
        let topic: HashSet<String> = q.topic_norms.iter().map(|n| norm_key(n.as_str())).collect();
        let heading: HashMap<String, usize> = q
            .heading_matches
            .iter()
            .enumerate()
            .map(|(i, m)| (norm_key(m.norm.as_str()), i))
            .collect();
        let explicit: HashSet<String> = q
            .explicit_refs
            .iter()
            .map(|n| norm_key(n.as_str()))
            .collect();
        let answer: HashMap<String, AnswerType> = q
            .answer_norms
            .iter()
            .map(|(n, k)| (norm_key(n.as_str()), *k))
            .collect();
        let duty: HashSet<String> = q.duty_norms.iter().map(|n| norm_key(n.as_str())).collect();
        NormKeys {
            topic,
            heading,
            explicit,
            answer,
            duty,
        }
    }
}

/// Authority (03), jurisdiction, unknown class, domain.
fn source_terms(s: &mut Scored<'_>, q: &QueryAnalysis, p: &RankParams) {
    let c = s.chunk;
    // authorityCoef · weight/100 (03)
    let w = c.source_class.weight();
    s.add(
        names::AUTHORITY_COEF,
        p.authority_coef,
        p.authority_coef * f64::from(w) / 100.0,
        Reason::Authority,
    );
    // jurisdiction
    if q.jurisdictions.contains(&c.jurisdiction) {
        s.add(
            names::JURISDICTION_GAIN,
            p.jurisdiction_gain,
            p.jurisdiction_gain,
            Reason::JurisMatch,
        );
    } else if c.jurisdiction != Jurisdiction::Int {
        s.add(
            names::FOREIGN_PENALTY,
            p.foreign_penalty,
            -p.foreign_penalty,
            Reason::Foreign,
        );
    }
    if c.source_class == SourceClass::Unknown {
        s.add(
            names::UNKNOWN_PENALTY,
            p.unknown_penalty,
            -p.unknown_penalty,
            Reason::Unknown,
        );
    }
    // domain
    if !q.domains.is_empty() && !c.domains.is_empty() {
        if let Some(d) = c.domains.iter().find(|d| q.domains.contains(d)) {
            s.add(
                names::DOMAIN_MATCH_GAIN,
                p.domain_match_gain,
                p.domain_match_gain,
                Reason::DomainMatch(*d),
            );
            // domainCoverGain (own): each further question domain the
            // chunk's law covers (TDDDG: data protection and telecom)
            let more = c.domains.iter().filter(|d| q.domains.contains(d)).count() - 1;
            if more > 0 && p.domain_cover_gain != 0.0 {
                s.add(
                    names::DOMAIN_COVER_GAIN,
                    p.domain_cover_gain,
                    p.domain_cover_gain * more as f64,
                    Reason::DomainCover(more + 1),
                );
            }
        } else if c.source_class.is_binding() {
            s.add(
                names::OFF_DOMAIN_PENALTY,
                p.off_domain_penalty,
                -p.off_domain_penalty,
                Reason::OffDomain,
            );
        }
    }
}

/// Law title, citations, scope rules and scope matches.
fn law_terms(s: &mut Scored<'_>, q: &QueryAnalysis, p: &RankParams) {
    let c = s.chunk;
    // lawTitleGain (own): the question names this law by its title's words
    if let Some(i) = q
        .law_matches
        .iter()
        .position(|m| m.regulation == c.regulation)
    {
        if p.law_title_gain != 0.0 {
            s.add(
                names::LAW_TITLE_GAIN,
                p.law_title_gain,
                p.law_title_gain,
                Reason::LawTitle(i),
            );
        }
    }
    // citationGain (own): binding law that other norms cite
    let cited = c.references_in.len();
    if c.source_class.is_binding() && cited > 0 && p.citation_gain != 0.0 {
        let share = ((cited as f64).ln_1p() / p.citation_saturation.ln_1p()).min(1.0);
        s.add(
            names::CITATION_GAIN,
            p.citation_gain,
            p.citation_gain * share,
            Reason::Cited(cited),
        );
    }
    // scope
    if let Some(ri) = q.scope_rule_for(&c.regulation, &c.norm) {
        s.add(
            names::SCOPE_PENALTY,
            p.scope_penalty,
            -p.scope_penalty,
            Reason::Scope(ri),
        );
    }
    // scopeMatchGain (own): the question has this norm's own scope
    if p.scope_match_gain != 0.0 {
        if let Some(ri) = q.scope_match_for(&c.regulation, &c.norm) {
            s.add(
                names::SCOPE_MATCH_GAIN,
                p.scope_match_gain,
                p.scope_match_gain,
                Reason::ScopeMatch(ri),
            );
        }
    }
}

/// Topic / explicit reference / heading match, and the asked kind of fact;
/// `key` is a reused buffer for the candidate's norm key.
fn norm_terms(
    s: &mut Scored<'_>,
    q: &QueryAnalysis,
    p: &RankParams,
    keys: &NormKeys,
    key: &mut String,
) {
    let c = s.chunk;
    // topic / explicit reference (cheap suffix pre-check before building the key)
    let named = |list: &[NormRef]| list.iter().any(|n| n.0.ends_with(c.regulation.as_str()));
    let heading_named = q
        .heading_matches
        .iter()
        .any(|m| m.norm.0.ends_with(c.regulation.as_str()));
    // the candidate's norm key, built once into the reused buffer
    let mut key_built = false;
    let mut norm_key_of = |key: &mut String| {
        if !key_built {
            key.clear();
            push_norm_key(&c.norm, key);
            push_norm_key(&c.regulation, key);
            key_built = true;
        }
    };
    if named(&q.explicit_refs) || named(&q.topic_norms) || heading_named {
        norm_key_of(key);
        if keys.explicit.contains(key.as_str()) {
            s.add(
                names::TOPIC_GAIN,
                p.topic_gain,
                p.topic_gain,
                Reason::TopicExplicit,
            );
        } else if keys.topic.contains(key.as_str()) {
            s.add(names::TOPIC_GAIN, p.topic_gain, p.topic_gain, Reason::Topic);
        } else if let Some(&i) = keys.heading.get(key.as_str()) {
            s.add(
                names::TOPIC_GAIN,
                p.topic_gain,
                p.topic_gain,
                Reason::Heading(i),
            );
        }
    }
    // answerTypeGain (own): the norm states the kind of fact the
    // question asks for (a deadline, an amount, an age, a head count)
    if !keys.answer.is_empty() && p.answer_type_gain != 0.0 {
        norm_key_of(key);
        if let Some(&k) = keys.answer.get(key.as_str()) {
            s.add(
                names::ANSWER_TYPE_GAIN,
                p.answer_type_gain,
                p.answer_type_gain,
                Reason::AnswerType(k),
            );
        }
    }
    // dutyHeadingGain (own): the question asks who must do what and the
    // norm's heading names a duty
    if !keys.duty.is_empty() && p.duty_heading_gain != 0.0 {
        norm_key_of(key);
        if keys.duty.contains(key.as_str()) {
            s.add(
                names::DUTY_HEADING_GAIN,
                p.duty_heading_gain,
                p.duty_heading_gain,
                Reason::DutyHeading,
            );
        }
    }
}

/// Supersede (02 / 08) and, in Full under control intent, the control
/// roles (05).
fn status_terms(
    s: &mut Scored<'_>,
    q: &QueryAnalysis,
    p: &RankParams,
    asof: Option<&AsOfCtx>,
    full: bool,
) {
    let c = s.chunk;
    match asof {
        None => {
            if c.status == Status::Superseded {
                s.add(
                    names::SUPERSEDED_PENALTY,
                    p.superseded_penalty,
                    -p.superseded_penalty,
                    Reason::Superseded,
                );
            }
        }
        Some(ctx) => ctx.apply(s, p),
    }
    // control roles (05)
    if full && q.control_intent {
        if let Some(bonus) = p.control_role_bonus.of(c.source_role) {
            s.add(
                names::CONTROL_POOL_GAIN,
                p.control_pool_gain,
                p.control_pool_gain,
                Reason::ControlPool,
            );
            s.add(names::CONTROL_ROLE_BONUS, bonus, bonus, Reason::RoleBonus);
        }
    }
}

/// German text of a term's reason.
pub(super) fn reason_text(r: &Reason, c: &Chunk, q: &QueryAnalysis) -> String {
    let list = |d: &[Domain]| d.iter().map(|x| x.as_str()).collect::<Vec<_>>().join("/");
    match r {
        Reason::Raw => String::new(),
        Reason::Authority => format!(
            "Quellenklasse {} (Gewicht {})",
            c.source_class,
            c.source_class.weight()
        ),
        Reason::JurisMatch => format!(
            "Jurisdiktion {} passt zur Frage ({})",
            c.jurisdiction,
            juris_list(q)
        ),
        Reason::Foreign => format!("Fremdrecht {} bei {}-Frage", c.jurisdiction, juris_list(q)),
        Reason::Unknown => "unklassifizierte Quelle".to_string(),
        Reason::Cited(n) => format!("von {n} Normen zitiert (zentral im Regelwerk)"),
        Reason::DomainMatch(d) => format!("Domäne {d} passt zur Frage"),
        Reason::DomainCover(n) => format!(
            "das Regelwerk deckt {n} der {} Domänen der Frage ab ({})",
            q.domains.len(),
            list(&c.domains)
        ),
        Reason::OffDomain => format!(
            "bindend, aber fachfremd ({} statt {})",
            list(&c.domains),
            list(&q.domains)
        ),
        Reason::Scope(i) => q
            .scope_rules
            .get(*i)
            .map(|r| r.reason.clone())
            .unwrap_or_default(),
        Reason::ScopeMatch(i) => q
            .scope_matches
            .get(*i)
            .map(|r| r.reason.clone())
            .unwrap_or_default(),
        Reason::TopicExplicit => format!("in der Frage zitiert: {} {}", c.norm, c.regulation),
        Reason::Topic => format!("kanonische Norm des Themas: {} {}", c.norm, c.regulation),
        Reason::Heading(i) => q
            .heading_matches
            .get(*i)
            .map(|m| {
                format!(
                    "{} von {} passt zur Frage ({})",
                    m.heading,
                    m.norm,
                    m.terms.join(" ")
                )
            })
            .unwrap_or_default(),
        Reason::LawTitle(i) => q
            .law_matches
            .get(*i)
            .map(|m| {
                format!(
                    "Titel „{}“ von {} passt zur Frage ({}; {:.0}× häufiger im Gesetz als im Korpus)",
                    m.title,
                    m.regulation,
                    m.terms.join(" "),
                    m.lift
                )
            })
            .unwrap_or_default(),
        Reason::AnswerType(k) => format!(
            "{} {} nennt {}, wonach die Frage fragt",
            c.norm,
            c.regulation,
            k.label_de()
        ),
        Reason::DutyHeading => format!(
            "Überschrift von {} {} nennt eine Pflicht, nach der die Frage fragt",
            c.norm, c.regulation
        ),
        Reason::Superseded => superseded_reason(c),
        Reason::ControlPool => "Control-Pool-Rolle bei Umsetzungsfrage".to_string(),
        Reason::RoleBonus => format!("Rollenbonus {}", c.source_role),
        Reason::Text(t) => t.clone(),
    }
}

fn superseded_reason(c: &Chunk) -> String {
    match &c.superseded_by {
        Some(n) => format!("abgelöste Fassung, ersetzt durch {n}"),
        None => "abgelöste Fassung".to_string(),
    }
}

/// As-of context (08): which superseded versions the question asks for, and
/// which in-force versions are therefore out of time.
struct AsOfCtx {
    date: Option<DateRange>,
    version: Option<String>,
    label: String,
    /// Successors of the lifted superseded versions in the pool.
    successors: Vec<String>,
}

impl AsOfCtx {
    fn new(q: &QueryAnalysis, v: &[Scored<'_>]) -> AsOfCtx {
        let version = q.as_of.as_ref().and_then(|a| a.version.clone());
        let mut date = q.as_of.as_ref().and_then(|a| a.date.clone());
        // A named version without a date: any time up to its last day in force
        // (`valid_to` is inclusive).
        if date.is_none() {
            if let Some(ver) = &version {
                let end = v
                    .iter()
                    .filter(|s| &s.chunk.regulation == ver)
                    .filter_map(|s| s.chunk.valid_to.as_deref())
                    .min()
                    .and_then(next_iso_day);
                if let Some(until) = end {
                    date = Some(DateRange {
                        from: String::new(),
                        until,
                    });
                }
            }
        }
        let label = match (&version, &date) {
            (Some(ver), _) => ver.clone(),
            (None, Some(d)) if !d.from.is_empty() => format!("Stand {}", d.from),
            _ => "historische Frage".to_string(),
        };
        let mut ctx = AsOfCtx {
            date,
            version,
            label,
            successors: Vec::new(),
        };
        let mut succ: Vec<String> = v
            .iter()
            .filter(|s| s.chunk.status == Status::Superseded && ctx.lifts(s.chunk))
            .filter_map(|s| s.chunk.superseded_by.clone())
            .collect();
        succ.sort();
        succ.dedup();
        ctx.successors = succ;
        ctx
    }

    /// Whether a superseded chunk is the version the question asks for.
    fn lifts(&self, c: &Chunk) -> bool {
        if let Some(ver) = &self.version {
            if &c.regulation == ver {
                return true;
            }
        }
        match &self.date {
            Some(d) => d.overlaps(c.valid_from.as_deref(), c.valid_to.as_deref()),
            None => self.version.is_none(),
        }
    }

    fn apply(&self, s: &mut Scored<'_>, p: &RankParams) {
        let c = s.chunk;
        if c.status == Status::Superseded {
            if self.lifts(c) {
                s.add(
                    names::SUPERSEDED_PENALTY,
                    p.superseded_penalty,
                    0.0,
                    format!(
                        "entfällt: Frage nach altem Recht ({}); {}",
                        self.label,
                        superseded_reason(c)
                    ),
                );
            } else {
                s.add(
                    names::SUPERSEDED_PENALTY,
                    p.superseded_penalty,
                    -p.superseded_penalty,
                    format!(
                        "{}; nicht die erfragte Fassung ({})",
                        superseded_reason(c),
                        self.label
                    ),
                );
            }
            return;
        }
        if self.successors.iter().any(|n| n == &c.regulation) {
            s.add(
                names::SUPERSEDED_PENALTY,
                p.superseded_penalty,
                -p.superseded_penalty,
                format!("Nachfolgefassung; Frage nach altem Recht ({})", self.label),
            );
        } else if let Some(d) = &self.date {
            if c.valid_from.is_some() && !d.overlaps(c.valid_from.as_deref(), c.valid_to.as_deref())
            {
                s.add(
                    names::SUPERSEDED_PENALTY,
                    p.superseded_penalty,
                    -p.superseded_penalty,
                    format!(
                        "zum erfragten Zeitpunkt ({}) nicht in Kraft (gilt ab {})",
                        self.label,
                        c.valid_from.as_deref().unwrap_or("?")
                    ),
                );
            }
        }
    }
}
