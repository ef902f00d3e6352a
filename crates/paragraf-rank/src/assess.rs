//! Assessment (seed 06) + confidence (seed 07) + framework layer (design 09).
//!
//! No confidence percentage: reliability is the measured winner margin and
//! the deterministic human-review flag with its reasons.

use crate::params::RankParams;
use crate::query::QueryAnalysis;
use crate::text::norm_key;
use paragraf_types::{
    Assessment, Chunk, ChunkId, ControlMapping, EvidenceItem, NormRef, SearchResult, SourceClass,
    Status,
};
use std::collections::{BTreeSet, HashSet};

/// Why nothing relevant was found, if so (the general abstain rule):
/// no results; or the best `raw_semantic` lies below `abstainSemanticFloor`;
/// or the question matched no known domain, no topic, cites no norm and asks
/// for no controls (it is outside what the corpus covers). The engine
/// abstains on `Some`.
pub fn relevance_gate(
    q: &QueryAnalysis,
    results: &[SearchResult],
    params: &RankParams,
) -> Option<String> {
    let Some(best) = results.iter().map(|r| r.raw_semantic).reduce(f64::max) else {
        return Some("keine belastbare Quelle: keine Treffer".to_string());
    };
    if best < params.abstain_semantic_floor {
        return Some(format!(
            "keine belastbare Quelle: bester Retrieval-Score {best:.3} < abstainSemanticFloor {}",
            params.abstain_semantic_floor
        ));
    }
    if q.domains.is_empty()
        && q.topic_norms.is_empty()
        && q.explicit_refs.is_empty()
        && !q.control_intent
    {
        return Some(
            "keine belastbare Quelle: die Frage passt zu keiner Domäne und keinem Thema des Korpus"
                .to_string(),
        );
    }
    None
}

/// Canonical norm id of a result (`Art. 37 DSGVO`).
fn result_norm(r: &SearchResult) -> NormRef {
    NormRef::new(&r.norm, &r.regulation)
}

/// Build the assessment of ranked `results` (seed 06/07, design 09).
///
/// * `primary_norm` = citation of the top result (its norm label + regulation
///   when the citation is empty); `primary_regulation` its regulation.
/// * `connected_norms` = references_out ∪ references_in of the top chunk,
///   deduplicated (first occurrence kept, out before in), without the norm
///   itself, capped at `assessConnectedCap`.
/// * `cross_regime`: the binding results among the first
///   `assessCrossRegimeTopN` belong to ≥ 2 regimes, or the question names
///   regulations of ≥ 2 regimes. A regime is a regulation family of the
///   lexicon (DSGVO/BDSG = Datenschutz, NIS2/BSIG = NIS2, CRA, KI-VO, …) so a
///   national implementing act does not count as a second regime.
/// * `winner_margin` = score(1) − score of the best result of another norm
///   (chunks of the same norm and its language variants do not compete; with
///   no other norm: the top score).
/// * `human_review_flag` when margin < `assessReviewMargin`, cross-regime,
///   the primary is not binding_law, the primary is superseded on a
///   non-historical question, or [`relevance_gate`] finds nothing relevant;
///   one German reason per condition.
/// * Under control intent, `controls` / `evidence` = the mappings and
///   evidence items of the primary and top binding norms (09).
pub fn assess<'c>(
    q: &QueryAnalysis,
    results: &[SearchResult],
    chunk_of: &dyn Fn(&ChunkId) -> Option<&'c Chunk>,
    mappings: &[ControlMapping],
    evidence: &[EvidenceItem],
    params: &RankParams,
) -> Assessment {
    let mut a = Assessment::default();
    let mut reasons: Vec<String> = Vec::new();
    let gate = relevance_gate(q, results, params);
    let Some(top) = results.first() else {
        a.human_review_flag = true;
        a.human_review_reasons = gate.into_iter().collect();
        a.score_reasoning = "Keine Treffer – keine Aussage möglich.".to_string();
        return a;
    };
    let top_ref = result_norm(top);
    a.primary_norm = Some(if top.citation.trim().is_empty() {
        top_ref.0.clone()
    } else {
        top.citation.clone()
    });
    a.primary_regulation = Some(top.regulation.clone());

    // connected norms
    if let Some(chunk) = chunk_of(&top.chunk_id) {
        let own = norm_key(top_ref.as_str());
        let mut seen: HashSet<String> = HashSet::new();
        for n in chunk
            .references_out
            .iter()
            .chain(chunk.references_in.iter())
        {
            if a.connected_norms.len() >= params.assess_connected_cap {
                break;
            }
            let k = norm_key(n.as_str());
            if k != own && seen.insert(k) {
                a.connected_norms.push(n.clone());
            }
        }
    }

    // cross regime
    let n = params.assess_cross_regime_top_n;
    let result_regimes: BTreeSet<&str> = results
        .iter()
        .take(n)
        .filter(|r| r.source_class == SourceClass::BindingLaw)
        .map(|r| q.regime_of(&r.regulation))
        .collect();
    let named_regimes: BTreeSet<&str> = q.regulations.iter().map(|r| q.regime_of(r)).collect();
    if result_regimes.len() >= 2 {
        a.cross_regime = true;
        reasons.push(format!(
            "Cross-Regime: bindende Treffer aus mehreren Regelwerken in den Top-{n} ({})",
            result_regimes
                .iter()
                .copied()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    } else if named_regimes.len() >= 2 {
        a.cross_regime = true;
        reasons.push(format!(
            "Cross-Regime: die Frage nennt mehrere Regelwerke ({})",
            named_regimes.iter().copied().collect::<Vec<_>>().join(", ")
        ));
    }

    // winner margin: against the best result of another norm — further
    // chunks (Absätze, language variants) of the primary norm do not compete
    let top_norm = result_norm(top);
    let runner_up = results.iter().skip(1).find(|r| result_norm(r) != top_norm);
    a.winner_margin = match runner_up {
        Some(second) => top.score - second.score,
        None => top.score,
    };
    if runner_up.is_some() && a.winner_margin < params.assess_review_margin {
        reasons.push(format!(
            "uneindeutig: Abstand Platz 1 ↔ 2 ist {:.3} < assessReviewMargin {}",
            a.winner_margin, params.assess_review_margin
        ));
    }
    if top.source_class != SourceClass::BindingLaw {
        reasons.push(format!(
            "Rechtsaussage ohne bindende Primärquelle: Top-Treffer ist {} ({})",
            top.source_class, top.source_role
        ));
    }
    if top.status == Status::Superseded && !q.historical {
        reasons.push(format!(
            "Primärquelle ist abgelöst{}",
            top.superseded_by
                .as_ref()
                .map(|s| format!(" (ersetzt durch {s})"))
                .unwrap_or_default()
        ));
    }
    if let Some(g) = gate {
        reasons.push(g);
    }
    a.human_review_flag = !reasons.is_empty();
    a.human_review_reasons = reasons;

    // framework layer (09)
    if q.control_intent {
        (a.controls, a.evidence) = framework_layer(results, top, n, mappings, evidence);
    }

    a.score_reasoning = score_reasoning(q, top, runner_up, &a);
    a
}

/// The mappings and evidence items of the primary and the top binding
/// norms (09), sorted and deduplicated.
fn framework_layer(
    results: &[SearchResult],
    top: &SearchResult,
    n: usize,
    mappings: &[ControlMapping],
    evidence: &[EvidenceItem],
) -> (Vec<ControlMapping>, Vec<EvidenceItem>) {
    let top_ref = result_norm(top);
    let mut keys: BTreeSet<String> = BTreeSet::new();
    if top.source_class == SourceClass::BindingLaw {
        keys.insert(norm_key(top_ref.as_str()));
    }
    for r in results
        .iter()
        .take(n)
        .filter(|r| r.source_class == SourceClass::BindingLaw)
    {
        keys.insert(norm_key(result_norm(r).as_str()));
    }
    let mut controls: Vec<ControlMapping> = mappings
        .iter()
        .filter(|m| {
            m.norms
                .iter()
                .any(|nr| keys.contains(&norm_key(nr.as_str())))
        })
        .cloned()
        .collect();
    controls.sort_by(|x, y| {
        (&x.framework_id, &x.control_id, &x.regulation).cmp(&(
            &y.framework_id,
            &y.control_id,
            &y.regulation,
        ))
    });
    controls.dedup_by(|x, y| {
        x.framework_id == y.framework_id
            && x.control_id == y.control_id
            && x.regulation == y.regulation
    });
    let mut ev: Vec<EvidenceItem> = evidence
        .iter()
        .filter(|e| keys.contains(&norm_key(e.norm.as_str())))
        .cloned()
        .collect();
    ev.sort_by(|x, y| (&x.norm, &x.artifact_name).cmp(&(&y.norm, &y.artifact_name)));
    (controls, ev)
}

fn score_reasoning(
    q: &QueryAnalysis,
    top: &SearchResult,
    second: Option<&SearchResult>,
    a: &Assessment,
) -> String {
    let mut drivers: Vec<&paragraf_types::ScoreTerm> = top
        .explanation
        .iter()
        .filter(|t| t.name != "rawSemantic" && t.value != 0.0)
        .collect();
    drivers.sort_by(|x, y| {
        y.value
            .abs()
            .total_cmp(&x.value.abs())
            .then_with(|| x.name.cmp(&y.name))
    });
    let drivers: Vec<String> = drivers
        .iter()
        .take(4)
        .map(|t| format!("{} {:+.3}", t.name, t.value))
        .collect();
    let mut s = format!(
        "Primärnorm {} ({}, {}/{}), Score {:.3} (Retrieval {:.3}",
        a.primary_norm.as_deref().unwrap_or("?"),
        top.regulation,
        top.source_class,
        top.source_role,
        top.score,
        top.raw_semantic
    );
    if !drivers.is_empty() {
        s.push_str(&format!("; {}", drivers.join(", ")));
    }
    s.push(')');
    if let Some(b) = second {
        s.push_str(&format!(
            ". Abstand zu Platz 2 ({} {}): {:.3}",
            b.norm, b.regulation, a.winner_margin
        ));
    }
    if q.control_intent && !a.controls.is_empty() {
        s.push_str(&format!(
            ". {} Controls, {} Nachweise zugeordnet",
            a.controls.len(),
            a.evidence.len()
        ));
    }
    s.push_str(if a.human_review_flag {
        ". Menschliche Prüfung empfohlen."
    } else {
        ". Eindeutig."
    });
    s
}
