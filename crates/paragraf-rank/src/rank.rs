//! Fusion (01), authority rerank (02), control roles + diversity (05) and
//! supersede (08): [`rank`].
//!
//! Invariants: pure and deterministic (same input → same output, whatever
//! the candidate order); stable sort by score, ties by chunk id; nothing is
//! deleted except implementation guidance displaced by
//! `ensureControlDiversity` and what falls below `top_k`; every score is the
//! exact sum of its explanation terms.

mod authority;

use crate::answer_type::AnswerType;
use crate::params::{names, FusionMethod, RankParams};
use crate::query::QueryAnalysis;
use authority::{authority_terms, reason_text};
use paragraf_types::{Chunk, ChunkId, Domain, ScoreTerm, SearchResult, SourceClass, SourceRole};
use std::cmp::Ordering;

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
    /// Share of the question's word pairs the chunk writes together
    /// (`pairLexicalGain` lifts its BM25 by it); `None`: not measured.
    pub pairs: Option<f32>,
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
    /// The norm's heading names a duty the question asks about.
    DutyHeading,
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
    /// Share of the question's word pairs held together (0: none, unmeasured).
    pairs: f64,
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
            pairs: finite(c.pairs).unwrap_or(0.0),
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
            kept.pairs = kept.pairs.max(later.pairs);
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
    // the question's words in a row, written together by the chunk
    if p.pair_lexical_gain > 0.0 {
        for s in v.iter_mut().filter(|s| s.pairs > 0.0) {
            s.lexical = s.lexical.map(|l| l * (1.0 + p.pair_lexical_gain * s.pairs));
        }
    }
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

fn raw_reason(s: &Scored<'_>, stage: Stage, p: &RankParams) -> String {
    let norm_mix = p.norm_lexical_mix;
    let mut parts = Vec::new();
    if let Some(d) = s.dense {
        parts.push(format!("dense cos {d:.3}→{:.3}", s.dense_n));
    } else if s.dense_imputed {
        parts.push(format!("dense ohne Vektor: Median {:.3}", s.dense_n));
    }
    if let Some(l) = s.lexical {
        // lifted by the question's word pairs the chunk writes together
        // (`pairLexicalGain`), the norm BM25 mixed in (`normLexicalMix`)
        let mut how: Vec<String> = Vec::new();
        if norm_mix > 0.0 {
            how.push(format!("Chunk/Norm, normLexicalMix {norm_mix}"));
        }
        if s.pairs > 0.0 && p.pair_lexical_gain > 0.0 {
            how.push(format!(
                "Wortpaare der Frage {:.2}, pairLexicalGain {}",
                s.pairs, p.pair_lexical_gain
            ));
        }
        if how.is_empty() {
            parts.push(format!("bm25 {l:.2}→{:.3}", s.lexical_n));
        } else {
            parts.push(format!(
                "bm25 ({}) {l:.2}→{:.3}",
                how.join("; "),
                s.lexical_n
            ));
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
    params: &RankParams,
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
                Reason::Raw => raw_reason(s, stage, params),
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
            to_result(q, s, i + 1, stage, params, div)
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
