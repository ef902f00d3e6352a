//! Assessment (seed 06) + confidence (seed 07) + framework layer (design 09).
//!
//! No confidence percentage: reliability is the measured winner margin and
//! the deterministic human-review flag with its reasons.

use crate::params::RankParams;
use crate::query::QueryAnalysis;
use crate::text::norm_key;
use paragraf_types::{
    Assessment, Chunk, ChunkId, ControlMapping, EvidenceItem, Lang, NormRef, ReviewCode,
    SearchResult, SourceClass, Status,
};
use std::collections::{BTreeSet, HashSet};

/// Why nothing relevant was found, if so (the general abstain rule):
/// no results ([`ReviewCode::NoResults`]); or the best `raw_semantic` lies
/// below `abstainSemanticFloor` ([`ReviewCode::WeakMatch`]); or the question
/// matched no known domain, no topic, cites no norm and asks for no controls
/// ([`ReviewCode::OutsideCorpus`]: it is outside what the corpus covers).
/// The engine abstains on `Some`.
pub fn relevance_gate(
    q: &QueryAnalysis,
    results: &[SearchResult],
    params: &RankParams,
) -> Option<ReviewCode> {
    let Some(best) = results.iter().map(|r| r.raw_semantic).reduce(f64::max) else {
        return Some(ReviewCode::NoResults);
    };
    if best < params.abstain_semantic_floor {
        return Some(ReviewCode::WeakMatch);
    }
    if q.domains.is_empty()
        && q.topic_norms.is_empty()
        && q.explicit_refs.is_empty()
        && !q.control_intent
    {
        return Some(ReviewCode::OutsideCorpus);
    }
    None
}

/// A source class in plain words (`eine behördliche Leitlinie`).
fn class_words(c: SourceClass, lang: Lang) -> &'static str {
    match (c, lang) {
        (SourceClass::BindingLaw, Lang::De) => "verbindliches Recht",
        (SourceClass::BindingLaw, Lang::En) => "binding law",
        (SourceClass::Recital, Lang::De) => "ein Erwägungsgrund",
        (SourceClass::Recital, Lang::En) => "a recital",
        (SourceClass::OfficialGuidance, Lang::De) => "eine behördliche Leitlinie",
        (SourceClass::OfficialGuidance, Lang::En) => "official guidance",
        (SourceClass::ControlStandard, Lang::De) => "ein Kontrollstandard",
        (SourceClass::ControlStandard, Lang::En) => "a control standard",
        (SourceClass::Mapping, Lang::De) => "eine Zuordnungstabelle",
        (SourceClass::Mapping, Lang::En) => "a mapping table",
        (SourceClass::Unknown, Lang::De) => "eine nicht eingeordnete Quelle",
        (SourceClass::Unknown, Lang::En) => "an unclassified source",
    }
}

/// Canonical norm id of a result (`Art. 37 DSGVO`).
fn result_norm(r: &SearchResult) -> NormRef {
    NormRef::new(&r.norm, &r.regulation)
}

/// Build the assessment of ranked `results` (seed 06/07, design 09).
///
/// * `primary_norm` = the norm of the top result (`Art. 33 DSGVO`, not the
///   paragraph range of its chunk); `primary_regulation` its regulation.
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
/// * `runner_up` = that other norm when margin < `assessReviewMargin` (the
///   near tie a reader should weigh too).
/// * `human_review_flag` when margin < `assessReviewMargin`, cross-regime,
///   the primary is not binding_law, the primary is superseded on a
///   non-historical question, or [`relevance_gate`] finds nothing relevant;
///   one reason per condition (only the relevance gate's when it fires):
///   a plain sentence in the question's language
///   ([`ReviewCode::reason`]) with its [`ReviewCode`] in `human_review_codes`.
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
    let lang = q.lang;
    let mut reasons: Vec<(ReviewCode, String)> = Vec::new();
    let gate = relevance_gate(q, results, params);
    let Some(top) = results.first() else {
        a.human_review_flag = true;
        if let Some(code) = gate {
            a.human_review_reasons.push(code.reason(lang, ""));
            a.human_review_codes.push(code);
        }
        a.score_reasoning = match lang {
            Lang::De => "Keine Treffer – keine Aussage möglich.",
            Lang::En => "Nothing found – no statement possible.",
        }
        .to_string();
        return a;
    };
    let top_ref = result_norm(top);
    // the norm, never the top chunk's paragraph range: a chunk boundary
    // (`Art. 33 Abs. 4–5`) is an artefact of indexing, and the deciding
    // paragraph is the evidence's pinpoint
    a.primary_norm = Some(top_ref.0.clone());
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
    let join = |v: &BTreeSet<&str>| v.iter().copied().collect::<Vec<_>>().join(", ");
    if result_regimes.len() >= 2 {
        a.cross_regime = true;
        reasons.push((ReviewCode::CrossRegime, join(&result_regimes)));
    } else if named_regimes.len() >= 2 {
        a.cross_regime = true;
        reasons.push((ReviewCode::CrossRegime, join(&named_regimes)));
    }

    // winner margin: against the best result of another norm — further
    // chunks (Absätze, language variants) of the primary norm do not compete
    let runner_up = results.iter().skip(1).find(|r| result_norm(r) != top_ref);
    a.winner_margin = match runner_up {
        Some(second) => top.score - second.score,
        None => top.score,
    };
    if let Some(second) = runner_up.filter(|_| a.winner_margin < params.assess_review_margin) {
        let second = result_norm(second).0;
        let and = if lang == Lang::De { "und" } else { "and" };
        reasons.push((ReviewCode::NearTie, format!("{} {and} {second}", top_ref.0)));
        a.runner_up = Some(second);
    }
    if top.source_class != SourceClass::BindingLaw {
        reasons.push((
            ReviewCode::NotBinding,
            class_words(top.source_class, lang).to_string(),
        ));
    }
    if top.status == Status::Superseded && !q.historical {
        reasons.push((
            ReviewCode::Superseded,
            top.superseded_by.clone().unwrap_or_default(),
        ));
    }
    if let Some(g) = gate {
        // nothing relevant was found: that is the reason; a tie or several
        // regimes among results that do not bear on the question would only
        // make them look weighed
        reasons = vec![(g, String::new())];
    }
    a.human_review_flag = !reasons.is_empty();
    for (code, detail) in reasons {
        a.human_review_reasons.push(code.reason(lang, &detail));
        a.human_review_codes.push(code);
    }

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

/// The figures behind the assessment in plain words of the question's
/// language: the primary norm with its kind of source, its score and the
/// factors that moved it most (named as a reader would, not by their
/// constants), the lead over the next norm, and whether a review is advised.
fn score_reasoning(
    q: &QueryAnalysis,
    top: &SearchResult,
    second: Option<&SearchResult>,
    a: &Assessment,
) -> String {
    let lang = q.lang;
    let de = lang == Lang::De;
    let dec = |x: f64, signed: bool| {
        let s = if signed {
            format!("{x:+.3}")
        } else {
            format!("{x:.3}")
        };
        if de {
            s.replace('.', ",")
        } else {
            s
        }
    };
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
        .map(|t| format!("{} {}", term_words(&t.name, lang), dec(t.value, true)))
        .collect();
    let mut s = format!(
        "{} {} ({}, {}, {}). {} {}: {} {}",
        if de { "Primärnorm" } else { "Primary norm" },
        a.primary_norm.as_deref().unwrap_or("?"),
        top.regulation,
        without_article(class_words(top.source_class, lang)),
        role_words(top.source_role, lang),
        "Score",
        dec(top.score, false),
        if de {
            "Textähnlichkeit"
        } else {
            "text similarity"
        },
        dec(top.raw_semantic, false)
    );
    if !drivers.is_empty() {
        s.push_str(&format!("; {}", drivers.join(", ")));
    }
    if let Some(b) = second {
        s.push_str(&if de {
            format!(
                ". Vorsprung vor der nächsten Norm ({} {}): {}",
                b.norm,
                b.regulation,
                dec(a.winner_margin, false)
            )
        } else {
            format!(
                ". Lead over the next norm ({} {}): {}",
                b.norm,
                b.regulation,
                dec(a.winner_margin, false)
            )
        });
    }
    if q.control_intent && !a.controls.is_empty() {
        s.push_str(&if de {
            format!(
                ". {} Kontrollen, {} Nachweise zugeordnet",
                a.controls.len(),
                a.evidence.len()
            )
        } else {
            format!(
                ". {} controls, {} evidence items mapped",
                a.controls.len(),
                a.evidence.len()
            )
        });
    }
    s.push_str(match (a.human_review_flag, de) {
        (true, true) => ". Prüfung durch eine fachkundige Person empfohlen.",
        (false, true) => ". Eindeutig.",
        (true, false) => ". Review by a qualified person advised.",
        (false, false) => ". Clear-cut.",
    });
    s
}

/// A score factor (its seed name, `authorityCoef`) in plain words.
pub fn term_words(name: &str, lang: Lang) -> &'static str {
    use crate::params::names as n;
    let (de, en) = match name {
        "rawSemantic" => ("Textähnlichkeit", "text similarity"),
        n::AUTHORITY_COEF => ("Autorität der Quelle", "authority of the source"),
        n::JURISDICTION_GAIN => ("passende Rechtsordnung", "matching jurisdiction"),
        n::FOREIGN_PENALTY => ("fremdes Recht", "foreign law"),
        n::UNKNOWN_PENALTY => ("nicht eingeordnete Quelle", "unclassified source"),
        n::DOMAIN_MATCH_GAIN => ("passendes Rechtsgebiet", "matching area of law"),
        n::DOMAIN_COVER_GAIN => ("deckt das Rechtsgebiet ab", "covers the area of law"),
        n::OFF_DOMAIN_PENALTY => ("fachfremd", "off-topic area of law"),
        n::SCOPE_PENALTY => ("außerhalb des Anwendungsbereichs", "out of scope"),
        n::SCOPE_MATCH_GAIN => ("passender Anwendungsbereich", "matching scope"),
        n::TOPIC_GAIN => ("Thema der Frage", "topic of the question"),
        n::CITATION_GAIN => ("oft zitierte Norm", "often cited"),
        n::SUPERSEDED_PENALTY => ("abgelöste Fassung", "superseded version"),
        n::INTENT_LIFT_GAIN => ("Auslegungsfrage", "question of interpretation"),
        n::CONTROL_POOL_GAIN => ("Umsetzungsfrage", "question of implementation"),
        n::CONTROL_ROLE_BONUS => ("Rolle als Kontrolle", "role as a control"),
        n::ANSWER_TYPE_GAIN => ("nennt das Gefragte", "states what is asked"),
        n::LAW_TITLE_GAIN => ("Gesetz im Titel genannt", "law named in the title"),
        "ensureControlDiversity" => ("Vielfalt der Kontrollen", "variety of controls"),
        _ => ("weiterer Faktor", "further factor"),
    };
    if lang == Lang::De {
        de
    } else {
        en
    }
}

/// `eine behördliche Leitlinie` → `behördliche Leitlinie`.
fn without_article(s: &str) -> &str {
    ["ein ", "eine ", "a ", "an "]
        .iter()
        .find_map(|a| s.strip_prefix(a))
        .unwrap_or(s)
}

/// A source role in plain words.
fn role_words(r: paragraf_types::SourceRole, lang: Lang) -> &'static str {
    use paragraf_types::SourceRole as R;
    let (de, en) = match r {
        R::Obligation => ("Pflicht", "obligation"),
        R::Definition => ("Begriffsbestimmung", "definition"),
        R::Scope => ("Anwendungsbereich", "scope"),
        R::Interpretation => ("Auslegung", "interpretation"),
        R::Sanction => ("Sanktion", "sanction"),
        R::OperationalRequirement => ("operative Anforderung", "operational requirement"),
        R::ProceduralRequirement => ("Verfahrensanforderung", "procedural requirement"),
        R::ControlStandard => ("Kontrollstandard", "control standard"),
        R::ImplementationGuidance => ("Umsetzungshinweis", "implementation guidance"),
    };
    if lang == Lang::De {
        de
    } else {
        en
    }
}
