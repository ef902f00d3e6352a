//! Fusion (01), authority rerank (02), control roles + diversity (05) and
//! supersede (08): [`rank`].
//!
//! Invariants: pure and deterministic (same input → same output, whatever
//! the candidate order); stable sort by score, ties by chunk id; nothing is
//! deleted except implementation guidance displaced by
//! `ensureControlDiversity` and what falls below `top_k`; every score is the
//! exact sum of its explanation terms.

use crate::answer_type::AnswerType;
use crate::params::{names, FusionMethod, RankParams};
use crate::query::{next_iso_day, DateRange, QueryAnalysis};
use crate::text::{norm_key, push_norm_key};
use paragraf_types::{
    Chunk, ChunkId, Domain, Jurisdiction, NormRef, ScoreTerm, SearchResult, SourceClass,
    SourceRole, Status,
};
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

/// One retrieval candidate for [`rank`]: the chunk and the score of every
/// channel that found it.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    pub chunk: &'a Chunk,
    /// Cosine similarity of the dense embedding.
    pub dense: Option<f32>,
    /// Raw BM25 score.
    pub lexical: Option<f32>,
    /// Learned-sparse dot product.
    pub sparse: Option<f32>,
    /// Cosine of the question with the best heading vector of the
    /// candidate's norm (`paragraf_index::HeadingVectors`).
    pub heading: Option<f32>,
    /// Found by an explicit-reference lookup (the question cites the norm).
    pub exact: bool,
}

/// Which part of the pipeline [`rank`] applies (ablations for the eval).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Calibrated dense cosine only; score = raw semantic.
    DenseOnly,
    /// Normalised BM25 only (learned sparse when no BM25 is present).
    LexicalOnly,
    /// Fusion of all channels (01); score = raw semantic.
    Fused,
    /// Fusion + authority rerank (02) with the plain supersededPenalty and
    /// `liftAboveBinding`.
    Rerank,
    /// Everything: fusion + 02 + control roles/diversity (05) + as-of
    /// supersede (08).
    Full,
}

impl Stage {
    /// All stages, in pipeline order.
    pub const ALL: [Stage; 5] = [
        Stage::DenseOnly,
        Stage::LexicalOnly,
        Stage::Fused,
        Stage::Rerank,
        Stage::Full,
    ];

    /// snake_case name (`dense_only`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::DenseOnly => "dense_only",
            Stage::LexicalOnly => "lexical_only",
            Stage::Fused => "fused",
            Stage::Rerank => "rerank",
            Stage::Full => "full",
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Stage {
    type Err = String;
    /// Parse `dense_only`, `lexical_only`, `fused`, `rerank`, `full` (also
    /// with `-`), and the short forms `dense`, `lexical`.
    fn from_str(s: &str) -> Result<Stage, String> {
        let norm = s.trim().to_ascii_lowercase().replace('-', "_");
        let norm = match norm.as_str() {
            "dense" => "dense_only".to_string(),
            "lexical" => "lexical_only".to_string(),
            _ => norm,
        };
        Stage::ALL
            .into_iter()
            .find(|st| st.as_str() == norm)
            .ok_or_else(|| format!("unknown stage `{s}` (expected one of: dense_only or dense, lexical_only or lexical, fused, rerank, full)"))
    }
}

#[derive(Debug, Clone)]
struct Term {
    name: &'static str,
    constant: f64,
    value: f64,
    reason: Reason,
}

/// Why a term applied; formatted to German text only for the returned
/// top-k (keeps the per-candidate cost free of string formatting).
#[derive(Debug, Clone)]
enum Reason {
    Raw,
    Authority,
    JurisMatch,
    Foreign,
    Unknown,
    DomainMatch(Domain),
    /// Number of question domains the chunk's law covers.
    DomainCover(usize),
    OffDomain,
    /// Index into `QueryAnalysis::scope_rules`.
    Scope(usize),
    /// Index into `QueryAnalysis::scope_matches`.
    ScopeMatch(usize),
    /// Number of norms citing this one.
    Cited(usize),
    TopicExplicit,
    Topic,
    /// Index into `QueryAnalysis::heading_matches`.
    Heading(usize),
    /// Index into `QueryAnalysis::law_matches`.
    LawTitle(usize),
    /// The asked kind of fact the norm states.
    AnswerType(AnswerType),
    Superseded,
    ControlPool,
    RoleBonus,
    Text(String),
}

impl From<String> for Reason {
    fn from(s: String) -> Reason {
        Reason::Text(s)
    }
}

#[derive(Debug, Clone)]
struct Scored<'a> {
    chunk: &'a Chunk,
    dense: Option<f64>,
    lexical: Option<f64>,
    sparse: Option<f64>,
    heading: Option<f64>,
    exact: bool,
    /// No vector: `dense_n` is the candidates' median (see [`fuse`]).
    dense_imputed: bool,
    /// Normalised channel values used by the fusion (for the explanation).
    dense_n: f64,
    lexical_n: f64,
    sparse_n: f64,
    heading_n: f64,
    raw: f64,
    terms: Vec<Term>,
    score: f64,
    /// Position in chunk-id order (after [`prepare`]): ties break on it as
    /// on the id, without comparing strings.
    ord: u32,
}

impl Scored<'_> {
    fn add(&mut self, name: &'static str, constant: f64, value: f64, reason: impl Into<Reason>) {
        self.terms.push(Term {
            name,
            constant,
            value,
            reason: reason.into(),
        });
        self.score = self.terms.iter().map(|t| t.value).sum();
    }
}

fn finite(x: Option<f32>) -> Option<f64> {
    x.map(f64::from).filter(|v| v.is_finite())
}

fn merge_max(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Deduplicate by chunk id (max per channel, exact OR) and order by id, so
/// the result does not depend on the input order.
fn prepare<'a>(candidates: &[Candidate<'a>]) -> Vec<Scored<'a>> {
    let mut v: Vec<Scored<'a>> = candidates
        .iter()
        .map(|c| Scored {
            chunk: c.chunk,
            dense: finite(c.dense),
            lexical: finite(c.lexical),
            sparse: finite(c.sparse),
            heading: finite(c.heading),
            exact: c.exact,
            dense_imputed: false,
            dense_n: 0.0,
            lexical_n: 0.0,
            sparse_n: 0.0,
            heading_n: 0.0,
            raw: 0.0,
            terms: Vec::with_capacity(10),
            score: 0.0,
            ord: 0,
        })
        .collect();
    v.sort_by(|a, b| a.chunk.id.cmp(&b.chunk.id));
    v.dedup_by(|later, kept| {
        if later.chunk.id == kept.chunk.id {
            kept.dense = merge_max(kept.dense, later.dense);
            kept.lexical = merge_max(kept.lexical, later.lexical);
            kept.sparse = merge_max(kept.sparse, later.sparse);
            kept.heading = merge_max(kept.heading, later.heading);
            kept.exact |= later.exact;
            true
        } else {
            false
        }
    });
    for (i, s) in v.iter_mut().enumerate() {
        s.ord = i as u32;
    }
    v
}

/// 1-based rank of every candidate in one channel (by value desc, id asc).
fn channel_ranks(v: &[Scored<'_>], get: impl Fn(&Scored<'_>) -> Option<f64>) -> Vec<Option<usize>> {
    let mut idx: Vec<(usize, f64)> = v
        .iter()
        .enumerate()
        .filter_map(|(i, s)| get(s).map(|x| (i, x)))
        .collect();
    idx.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then_with(|| v[a.0].ord.cmp(&v[b.0].ord))
    });
    let mut ranks = vec![None; v.len()];
    for (r, (i, _)) in idx.into_iter().enumerate() {
        ranks[i] = Some(r + 1);
    }
    ranks
}

/// Compute `raw` of every candidate for the stage (see [`FusionMethod`]).
fn fuse(v: &mut [Scored<'_>], p: &RankParams, stage: Stage) {
    let has_dense = v.iter().any(|s| s.dense.is_some());
    let has_lex = v.iter().any(|s| s.lexical.is_some());
    let has_sparse = v.iter().any(|s| s.sparse.is_some());
    let has_heading = v.iter().any(|s| s.heading.is_some());
    let max_lex = v.iter().filter_map(|s| s.lexical).fold(0.0_f64, f64::max);
    let max_sparse = v.iter().filter_map(|s| s.sparse).fold(0.0_f64, f64::max);
    let lex_den = max_lex.max(p.lexical_norm_floor);
    let sparse_den = max_sparse.max(p.sparse_norm_floor);
    let span = p.dense_ceil - p.dense_floor;
    let heading_span = p.heading_ceil - p.heading_floor;
    for s in v.iter_mut() {
        s.dense_n = s
            .dense
            .map_or(0.0, |d| ((d - p.dense_floor) / span).clamp(0.0, 1.0));
        s.heading_n = s.heading.map_or(0.0, |h| {
            ((h - p.heading_floor) / heading_span).clamp(0.0, 1.0)
        });
        s.lexical_n = s.lexical.map_or(0.0, |l| (l / lex_den).clamp(0.0, 1.0));
        s.sparse_n = s.sparse.map_or(0.0, |x| (x / sparse_den).clamp(0.0, 1.0));
    }
    // A candidate without a vector (the lexical tier of an `index build
    // --scale` index) has an unknown dense score, not a zero one: it takes
    // the lower median of the candidates that have one, so that neither a
    // missing vector buries it nor its other channels alone lift it.
    if has_dense && v.iter().any(|s| s.dense.is_none()) {
        let mut present: Vec<f64> = v
            .iter()
            .filter(|s| s.dense.is_some())
            .map(|s| s.dense_n)
            .collect();
        present.sort_by(f64::total_cmp);
        let median = present[(present.len() - 1) / 2];
        for s in v.iter_mut().filter(|s| s.dense.is_none()) {
            s.dense_n = median;
            s.dense_imputed = true;
        }
    }
    match stage {
        Stage::DenseOnly => {
            for s in v.iter_mut() {
                s.raw = s.dense_n;
            }
        }
        Stage::LexicalOnly => {
            for s in v.iter_mut() {
                s.raw = if has_lex { s.lexical_n } else { s.sparse_n };
            }
        }
        Stage::Fused | Stage::Rerank | Stage::Full => {
            let wd = if has_dense { p.dense_weight } else { 0.0 };
            let wl = if has_lex { p.lexical_weight } else { 0.0 };
            let ws = if has_sparse { p.sparse_weight } else { 0.0 };
            let wh = if has_heading { p.heading_weight } else { 0.0 };
            let wsum = wd + wl + ws + wh;
            match p.fusion_method {
                FusionMethod::WeightedSum => {
                    for s in v.iter_mut() {
                        s.raw = if wsum > 0.0 {
                            ((wd * s.dense_n
                                + wl * s.lexical_n
                                + ws * s.sparse_n
                                + wh * s.heading_n)
                                / wsum)
                                .clamp(0.0, 1.0)
                        } else {
                            0.0
                        };
                    }
                }
                FusionMethod::Rrf => {
                    let mut rd = channel_ranks(v, |s| s.dense);
                    // no vector: the median dense rank (see the weighted sum)
                    let ranked = rd.iter().flatten().count();
                    if ranked > 0 {
                        for (r, s) in rd.iter_mut().zip(v.iter()) {
                            if s.dense_imputed {
                                *r = Some((ranked - 1) / 2 + 1);
                            }
                        }
                    }
                    let rl = channel_ranks(v, |s| s.lexical);
                    let rs = channel_ranks(v, |s| s.sparse);
                    let rh = channel_ranks(v, |s| s.heading);
                    let k = p.rrf_k;
                    let max = wsum / (k + 1.0);
                    for (i, s) in v.iter_mut().enumerate() {
                        let f = |r: Option<usize>, w: f64| r.map_or(0.0, |r| w / (k + r as f64));
                        let sum = f(rd[i], wd) + f(rl[i], wl) + f(rs[i], ws) + f(rh[i], wh);
                        s.raw = if max > 0.0 {
                            (sum / max).clamp(0.0, 1.0)
                        } else {
                            0.0
                        };
                    }
                }
            }
            for s in v.iter_mut() {
                if s.exact {
                    s.raw = s.raw.max(p.exact_floor);
                }
            }
        }
    }
    for s in v.iter_mut() {
        s.terms.clear();
        s.score = 0.0;
        s.add("rawSemantic", s.raw, s.raw, Reason::Raw);
    }
}

fn juris_list(q: &QueryAnalysis) -> String {
    q.jurisdictions
        .iter()
        .map(|j| j.as_str())
        .collect::<Vec<_>>()
        .join("/")
}

/// The 02 terms (and, in Full, the 05 role terms and the 08 as-of supersede).
fn authority_terms(v: &mut [Scored<'_>], q: &QueryAnalysis, p: &RankParams, stage: Stage) {
    let topic_keys: HashSet<String> = q.topic_norms.iter().map(|n| norm_key(n.as_str())).collect();
    let heading_keys: HashMap<String, usize> = q
        .heading_matches
        .iter()
        .enumerate()
        .map(|(i, m)| (norm_key(m.norm.as_str()), i))
        .collect();
    let explicit_keys: HashSet<String> = q
        .explicit_refs
        .iter()
        .map(|n| norm_key(n.as_str()))
        .collect();
    let answer_keys: HashMap<String, AnswerType> = q
        .answer_norms
        .iter()
        .map(|(n, k)| (norm_key(n.as_str()), *k))
        .collect();
    let full = stage == Stage::Full;
    let asof = if full && q.historical {
        Some(AsOfCtx::new(q, v))
    } else {
        None
    };
    let mut key = String::new();
    for s in v.iter_mut() {
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
        // topic / explicit reference (cheap suffix pre-check before building the key)
        let named = |list: &[NormRef]| list.iter().any(|n| n.0.ends_with(c.regulation.as_str()));
        let heading_named = q
            .heading_matches
            .iter()
            .any(|m| m.norm.0.ends_with(c.regulation.as_str()));
        // the candidate's norm key, built once into a reused buffer
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
            norm_key_of(&mut key);
            if explicit_keys.contains(&key) {
                s.add(
                    names::TOPIC_GAIN,
                    p.topic_gain,
                    p.topic_gain,
                    Reason::TopicExplicit,
                );
            } else if topic_keys.contains(&key) {
                s.add(names::TOPIC_GAIN, p.topic_gain, p.topic_gain, Reason::Topic);
            } else if let Some(&i) = heading_keys.get(key.as_str()) {
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
        if !answer_keys.is_empty() && p.answer_type_gain != 0.0 {
            norm_key_of(&mut key);
            if let Some(&k) = answer_keys.get(key.as_str()) {
                s.add(
                    names::ANSWER_TYPE_GAIN,
                    p.answer_type_gain,
                    p.answer_type_gain,
                    Reason::AnswerType(k),
                );
            }
        }
        // supersede (02 / 08)
        match &asof {
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
}

/// German text of a term's reason.
fn reason_text(r: &Reason, c: &Chunk, q: &QueryAnalysis) -> String {
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

/// Whether a source may be lifted under guidance intent (seed 02).
fn is_guidance(c: &Chunk) -> bool {
    !c.source_class.is_binding()
        && (matches!(
            c.source_class,
            SourceClass::OfficialGuidance | SourceClass::Recital
        ) || matches!(
            c.source_role,
            SourceRole::Interpretation | SourceRole::ImplementationGuidance
        ))
}

/// `liftAboveBinding` (seed 02): under guidance intent, the best guidance
/// whose raw semantic lies within `intentLiftMargin` of the best binding
/// result's (`bestBindingSemantic`) is lifted to best binding score +
/// `intentLiftGain`.
fn lift_above_binding(v: &mut [Scored<'_>], p: &RankParams) {
    let binding = v.iter().filter(|s| s.chunk.source_class.is_binding());
    let Some(best_sem) = binding.clone().map(|s| s.raw).reduce(f64::max) else {
        return;
    };
    let Some(best_score) = binding.map(|s| s.score).reduce(f64::max) else {
        return;
    };
    let pick = v
        .iter()
        .enumerate()
        .filter(|(_, s)| is_guidance(s.chunk) && s.raw >= best_sem - p.intent_lift_margin)
        .max_by(|(_, a), (_, b)| {
            a.raw
                .total_cmp(&b.raw)
                .then_with(|| b.chunk.id.cmp(&a.chunk.id))
        })
        .map(|(i, _)| i);
    if let Some(i) = pick {
        let target = best_score + p.intent_lift_gain;
        let s = &mut v[i];
        if s.score < target {
            let lift = target - s.score;
            s.add(
                names::INTENT_LIFT_GAIN,
                p.intent_lift_gain,
                lift,
                format!(
                    "Auslegungs-Intent: Guidance semantisch innerhalb {} des besten bindenden Treffers ({:.3}), über bindendes Recht gehoben",
                    p.intent_lift_margin, best_sem
                ),
            );
        }
    }
}

fn by_score(a: &Scored<'_>, b: &Scored<'_>) -> Ordering {
    b.score.total_cmp(&a.score).then_with(|| a.ord.cmp(&b.ord))
}

/// `ensureControlDiversity` (seed 05) on the sorted list: for each wanted
/// role (operational_requirement, then control_standard) missing from the
/// top-K, the best result of that role below the top-K overwrites the
/// lowest implementation_guidance in the top-K (the displaced guidance goes
/// to the tail and falls away at the truncation to `top_k`).
/// Returns the (position, role) of every injection.
fn ensure_control_diversity(v: &mut [Scored<'_>], top_k: usize) -> Vec<(usize, SourceRole)> {
    let k = top_k.min(v.len());
    let mut injected = Vec::new();
    for wanted in [
        SourceRole::OperationalRequirement,
        SourceRole::ControlStandard,
    ] {
        if v[..k].iter().any(|s| s.chunk.source_role == wanted) {
            continue;
        }
        let Some(src) = (k..v.len()).find(|&i| v[i].chunk.source_role == wanted) else {
            continue;
        };
        let Some(dst) = (0..k)
            .rev()
            .find(|&i| v[i].chunk.source_role == SourceRole::ImplementationGuidance)
        else {
            continue;
        };
        v.swap(dst, src);
        injected.push((dst, wanted));
    }
    injected
}

fn raw_reason(s: &Scored<'_>, stage: Stage, norm_mix: f64) -> String {
    let mut parts = Vec::new();
    if let Some(d) = s.dense {
        parts.push(format!("dense cos {d:.3}→{:.3}", s.dense_n));
    } else if s.dense_imputed {
        parts.push(format!("dense ohne Vektor: Median {:.3}", s.dense_n));
    }
    if let Some(l) = s.lexical {
        if norm_mix > 0.0 {
            // the engine mixed the norm BM25 in (`normLexicalMix`)
            parts.push(format!(
                "bm25 (Chunk/Norm, normLexicalMix {norm_mix}) {l:.2}→{:.3}",
                s.lexical_n
            ));
        } else {
            parts.push(format!("bm25 {l:.2}→{:.3}", s.lexical_n));
        }
    }
    if let Some(x) = s.sparse {
        parts.push(format!("sparse {x:.3}→{:.3}", s.sparse_n));
    }
    if let Some(h) = s.heading {
        parts.push(format!("Überschrift cos {h:.3}→{:.3}", s.heading_n));
    }
    if s.exact {
        parts.push("exakter Normtreffer".to_string());
    }
    let what = match stage {
        Stage::DenseOnly => "nur dense",
        Stage::LexicalOnly => "nur lexikalisch",
        _ => "fusioniert",
    };
    if parts.is_empty() {
        format!("Retrieval-Score ({what}): kein Kanal")
    } else {
        format!("Retrieval-Score ({what}): {}", parts.join(", "))
    }
}

fn to_result(
    q: &QueryAnalysis,
    s: &Scored<'_>,
    rank: usize,
    stage: Stage,
    norm_mix: f64,
    diversity: Option<SourceRole>,
) -> SearchResult {
    let c = s.chunk;
    let mut explanation: Vec<ScoreTerm> = s
        .terms
        .iter()
        .map(|t| ScoreTerm {
            name: t.name.to_string(),
            constant: t.constant,
            value: t.value,
            reason: match &t.reason {
                Reason::Raw => raw_reason(s, stage, norm_mix),
                r => reason_text(r, c, q),
            },
        })
        .collect();
    if let Some(role) = diversity {
        explanation.push(ScoreTerm {
            name: "ensureControlDiversity".to_string(),
            constant: 0.0,
            value: 0.0,
            reason: format!("Rolle {role} fehlte in den Top-K: statt der niedrigsten implementation_guidance eingefügt"),
        });
    }
    SearchResult {
        rank,
        chunk_id: c.id.clone(),
        regulation: c.regulation.clone(),
        norm: c.norm.clone(),
        citation: c.citation.clone(),
        title: c.title.clone(),
        score: s.score,
        raw_semantic: s.raw,
        source_class: c.source_class,
        source_role: c.source_role,
        jurisdiction: c.jurisdiction,
        status: c.status,
        lang: c.lang,
        superseded_by: c.superseded_by.clone(),
        explanation,
        framework: c.framework.clone(),
        text: c.text.clone(),
    }
}

/// Rank the candidates of one question.
///
/// Steps: deduplicate by chunk id → fusion into `raw_semantic` (01) → for
/// `Rerank`/`Full` the authority score of seed 02 (+ in `Full` the control
/// roles of 05 under control intent and the as-of supersede of 08) →
/// `liftAboveBinding` under guidance intent → stable sort by score, ties by
/// chunk id → in `Full` under control intent `ensureControlDiversity` →
/// the first `top_k` as [`SearchResult`]s with rank, score and explanation.
pub fn rank(
    q: &QueryAnalysis,
    candidates: &[Candidate<'_>],
    params: &RankParams,
    stage: Stage,
    top_k: usize,
) -> Vec<SearchResult> {
    let mut v = prepare(candidates);
    if v.is_empty() || top_k == 0 {
        return Vec::new();
    }
    fuse(&mut v, params, stage);
    if matches!(stage, Stage::Rerank | Stage::Full) {
        authority_terms(&mut v, q, params, stage);
        if q.guidance_intent {
            lift_above_binding(&mut v, params);
        }
    }
    v.sort_by(by_score);
    let injected = if stage == Stage::Full && q.control_intent {
        ensure_control_diversity(&mut v, top_k)
    } else {
        Vec::new()
    };
    v.iter()
        .take(top_k)
        .enumerate()
        .map(|(i, s)| {
            let div = injected.iter().find(|(pos, _)| *pos == i).map(|(_, r)| *r);
            to_result(q, s, i + 1, stage, params.norm_lexical_mix, div)
        })
        .collect()
}

/// Chunk ids in result order (convenience for tests and the eval).
pub fn ids(results: &[SearchResult]) -> Vec<&ChunkId> {
    results.iter().map(|r| &r.chunk_id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_names_round_trip() {
        for st in Stage::ALL {
            assert_eq!(st.as_str().parse::<Stage>().unwrap(), st);
            assert_eq!(serde_json::to_string(&st).unwrap(), format!("\"{st}\""));
        }
        assert_eq!("Dense-Only".parse::<Stage>().unwrap(), Stage::DenseOnly);
        assert!("bm25".parse::<Stage>().unwrap_err().contains("bm25"));
    }
}
