//! Ranking metrics and the golden-set matching rules.
//!
//! All metrics take a *relevance vector*: `relevance[i]` says whether the
//! item at rank `i + 1` is relevant (binary relevance). Build it with
//! [`relevance_for`] after [`dedupe_norms`], so that a norm counts once
//! whatever paragraph chunk of it matched.
//!
//! Matching: a result matches an expected `"<norm> <regulation>"` when its
//! norm label and regulation name, joined by one space, have the same
//! [`norm_key`] as the expected string. The key collapses Unicode whitespace
//! and drops the space after `§`/`.` before a digit, so `§ 38 BDSG`,
//! `§38 BDSG` and `§ 38 BDSG` (with a non-breaking space) are one norm.

use paragraf_types::SearchResult;

/// Whether any of the first `k` items is relevant. `k == 0` or an empty
/// list → `false`.
pub fn hit_at_k(relevance: &[bool], k: usize) -> bool {
    relevance.iter().take(k).any(|&r| r)
}

/// 1-based rank of the first relevant item within the first `k`, if any.
pub fn first_relevant_rank(relevance: &[bool], k: usize) -> Option<usize> {
    relevance.iter().take(k).position(|&r| r).map(|p| p + 1)
}

/// Reciprocal rank of the first relevant item within the first `k`
/// (`1 / rank`), `0.0` when none is relevant there (MRR@k per query).
pub fn reciprocal_rank(relevance: &[bool], k: usize) -> f64 {
    first_relevant_rank(relevance, k).map_or(0.0, |r| 1.0 / r as f64)
}

/// Discounted cumulative gain at `k` with binary gains and the log2
/// discount: `Σ_{i=1..k} rel_i / log2(i + 1)`.
pub fn dcg_at_k(relevance: &[bool], k: usize) -> f64 {
    relevance
        .iter()
        .take(k)
        .enumerate()
        .filter(|(_, &r)| r)
        .map(|(i, _)| 1.0 / ((i + 2) as f64).log2())
        .fold(0.0, |acc, g| acc + g)
}

/// Normalised DCG at `k`: [`dcg_at_k`] divided by the DCG of the ideal list,
/// which puts all `total_relevant` relevant items first (at most `k` of them).
/// `total_relevant == 0` → `0.0` (nothing can be found). The result is
/// clamped to `[0, 1]` in case the ranked list holds more relevant items than
/// `total_relevant` says (duplicates not removed by the caller).
pub fn ndcg_at_k(relevance: &[bool], total_relevant: usize, k: usize) -> f64 {
    let ideal_n = total_relevant.min(k);
    if ideal_n == 0 {
        return 0.0;
    }
    let ideal = (0..ideal_n).fold(0.0, |acc, i| acc + 1.0 / ((i + 2) as f64).log2());
    (dcg_at_k(relevance, k) / ideal).clamp(0.0, 1.0)
}

/// Comparison key of a norm reference (see module docs): Unicode whitespace
/// collapsed to one ASCII space, trimmed, and the space between `§` or a
/// period and a following digit removed (`Art. 37` → `Art.37`).
pub fn norm_key(s: &str) -> String {
    let collapsed: Vec<&str> = s
        .split(char::is_whitespace)
        .filter(|t| !t.is_empty())
        .collect();
    let mut out = String::with_capacity(s.len());
    for (i, tok) in collapsed.iter().enumerate() {
        if i > 0 {
            let prev_last = collapsed[i - 1].chars().last();
            let next_digit = tok.chars().next().is_some_and(|c| c.is_ascii_digit());
            let glue = matches!(prev_last, Some('§') | Some('.')) && next_digit;
            if !glue {
                out.push(' ');
            }
        }
        out.push_str(tok);
    }
    out
}

/// Norm-label prefixes that take two tokens (`Art. 37`, `§ 38`, `Anhang I`).
const TWO_TOKEN_NORMS: &[&str] = &[
    "Art.", "Art", "Artikel", "Article", "§", "Anhang", "Annex", "ErwG", "Recital", "Nr.",
];

/// Split an expected `"<norm> <regulation>"` into its two parts: the norm is
/// two tokens when it starts with `Art.`, `§`, `Anhang`, `ErwG` (and their
/// English forms), else one token (control ids such as `AC-7`).
/// `None` when no regulation follows the norm.
pub fn split_norm_ref(s: &str) -> Option<(String, String)> {
    let toks: Vec<&str> = s.split_whitespace().collect();
    let n = if toks.first().is_some_and(|t| TWO_TOKEN_NORMS.contains(t)) {
        2
    } else {
        1
    };
    if toks.len() <= n {
        return None;
    }
    Some((toks[..n].join(" "), toks[n..].join(" ")))
}

/// Whether a result with this norm label and regulation is the expected
/// `"<norm> <regulation>"`.
pub fn result_matches(norm: &str, regulation: &str, expected: &str) -> bool {
    norm_key(&format!("{norm} {regulation}")) == norm_key(expected)
}

/// Whether a citation — an assessment's `primary_norm` (article label or
/// finest citation unit, with or without the regulation) or a citation of an
/// answer — names the expected norm. `regulation` is the separately given
/// regulation (`primary_regulation`), if any.
///
/// The citation matches when, after stripping a trailing regulation, it is
/// the expected norm label or starts with it followed by a space
/// (`Art. 37 Abs. 1` matches `Art. 37`, `Art. 3` does not match `Art. 37`).
pub fn citation_matches(citation: &str, regulation: Option<&str>, expected: &str) -> bool {
    let Some((exp_norm, exp_reg)) = split_norm_ref(expected) else {
        return false;
    };
    let cit = norm_key(citation);
    let exp_reg_key = norm_key(&exp_reg);
    let exp_norm_key = norm_key(&exp_norm);
    let stripped = match cit.strip_suffix(&exp_reg_key) {
        Some(rest) if rest.ends_with(' ') => rest.trim_end().to_string(),
        Some("") => return false,
        _ => {
            // Regulation not inside the citation: it must be given separately.
            match regulation {
                Some(r) if norm_key(r) == exp_reg_key => cit.clone(),
                _ => return false,
            }
        }
    };
    if let Some(r) = regulation {
        if norm_key(r) != exp_reg_key {
            return false;
        }
    }
    stripped == exp_norm_key
        || stripped
            .strip_prefix(&exp_norm_key)
            .is_some_and(|rest| rest.starts_with(' '))
}

/// The ranked list reduced to distinct norms: `(norm, regulation)` of each
/// result in list order, keeping the first occurrence of each [`norm_key`].
pub fn dedupe_norms(results: &[SearchResult]) -> Vec<(String, String)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for r in results {
        if seen.insert(norm_key(&format!("{} {}", r.norm, r.regulation))) {
            out.push((r.norm.clone(), r.regulation.clone()));
        }
    }
    out
}

/// Relevance vector of a deduplicated ranked list against the expected norms.
pub fn relevance_for(ranked: &[(String, String)], expect_any: &[String]) -> Vec<bool> {
    ranked
        .iter()
        .map(|(n, r)| expect_any.iter().any(|e| result_matches(n, r, e)))
        .collect()
}

/// Number of distinct expected norms (by [`norm_key`]): the relevant-set
/// size used as the ideal for nDCG.
pub fn distinct_expected(expect_any: &[String]) -> usize {
    let set: std::collections::HashSet<String> = expect_any.iter().map(|e| norm_key(e)).collect();
    set.len()
}

/// Keep the first occurrence of each id (a document chunked into several
/// passages counts once).
pub fn dedupe_ids<S: AsRef<str>>(ids: &[S]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    ids.iter()
        .filter(|s| seen.insert(s.as_ref().to_string()))
        .map(|s| s.as_ref().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn hit_at_k_cases() {
        assert!(!hit_at_k(&[], 5));
        assert!(!hit_at_k(&[true], 0));
        assert!(hit_at_k(&[false, true], 2));
        assert!(!hit_at_k(&[false, true], 1));
        assert!(hit_at_k(&[false, false, false, false, true], 5));
        assert!(!hit_at_k(&[false, false, false, false, false, true], 5));
    }

    #[test]
    fn reciprocal_rank_cases() {
        assert_eq!(reciprocal_rank(&[], 10), 0.0);
        assert_eq!(reciprocal_rank(&[true], 10), 1.0);
        assert!(close(
            reciprocal_rank(&[false, false, true, true], 10),
            1.0 / 3.0
        ));
        // first relevant beyond the cut-off → 0
        let mut v = vec![false; 10];
        v.push(true);
        assert_eq!(reciprocal_rank(&v, 10), 0.0);
        assert_eq!(first_relevant_rank(&v, 11), Some(11));
    }

    #[test]
    fn ndcg_hand_computed() {
        // one relevant item at rank 3 of 1 relevant: 1/log2(4) / 1 = 0.5
        assert!(close(ndcg_at_k(&[false, false, true], 1, 10), 0.5));
        // relevant at ranks 1 and 3, two relevant in total:
        // DCG = 1 + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) = 1.6309297535714575
        let v = ndcg_at_k(&[true, false, true], 2, 10);
        assert!(close(v, 1.5 / (1.0 + 1.0 / 3f64.log2())), "{v}");
        assert!((v - 0.919720).abs() < 1e-6, "{v}");
        // perfect list
        assert!(close(ndcg_at_k(&[true, true, false], 2, 10), 1.0));
        // three relevant in total but only one found at rank 1:
        // 1 / (1 + 1/log2 3 + 1/log2 4) = 1 / 2.1309297535714575
        assert!(close(ndcg_at_k(&[true], 3, 10), 1.0 / 2.130929753571457));
    }

    #[test]
    fn ndcg_edge_cases() {
        assert_eq!(ndcg_at_k(&[], 1, 10), 0.0);
        // +0.0, not -0.0 (an empty f64 sum is -0.0 and would print as such)
        assert!(ndcg_at_k(&[false], 1, 10).is_sign_positive());
        assert_eq!(ndcg_at_k(&[true], 0, 10), 0.0);
        assert_eq!(ndcg_at_k(&[true], 1, 0), 0.0);
        // relevant item just past the cut-off does not count
        let mut v = vec![false; 10];
        v.push(true);
        assert_eq!(ndcg_at_k(&v, 1, 10), 0.0);
        // the ideal list is capped at k: 20 relevant, all top-10 relevant → 1
        assert!(close(ndcg_at_k(&[true; 10], 20, 10), 1.0));
        // more relevant in the list than declared (caller did not dedupe) → clamped
        assert_eq!(ndcg_at_k(&[true, true], 1, 10), 1.0);
    }

    #[test]
    fn norm_key_normalises_spacing() {
        assert_eq!(norm_key("§ 38 BDSG"), "§38 BDSG");
        assert_eq!(norm_key("§38  BDSG"), "§38 BDSG");
        assert_eq!(norm_key("Art.\u{a0}37 DSGVO"), "Art.37 DSGVO");
        assert_eq!(norm_key("  Anhang I CRA "), "Anhang I CRA");
        assert_eq!(norm_key("AC-7 NIST SP 800-53"), "AC-7 NIST SP 800-53");
        assert_eq!(norm_key(""), "");
    }

    #[test]
    fn split_norm_ref_forms() {
        let s = |x: &str| split_norm_ref(x).map(|(a, b)| format!("{a}|{b}"));
        assert_eq!(s("Art. 37 DSGVO").as_deref(), Some("Art. 37|DSGVO"));
        assert_eq!(s("§ 4f BDSG 1990").as_deref(), Some("§ 4f|BDSG 1990"));
        assert_eq!(s("Anhang I CRA").as_deref(), Some("Anhang I|CRA"));
        assert_eq!(
            s("AC-7 NIST SP 800-53").as_deref(),
            Some("AC-7|NIST SP 800-53")
        );
        assert_eq!(s("Art. 22 revDSG").as_deref(), Some("Art. 22|revDSG"));
        assert_eq!(s("Art. 37"), None);
        assert_eq!(s("DSGVO"), None);
        assert_eq!(s(""), None);
    }

    #[test]
    fn result_matching_is_exact_per_norm() {
        assert!(result_matches("Art. 37", "DSGVO", "Art. 37 DSGVO"));
        assert!(result_matches("§ 38", "BDSG", "§ 38 BDSG"));
        assert!(!result_matches("Art. 3", "DSGVO", "Art. 37 DSGVO"));
        assert!(!result_matches("Art. 37", "BDSG", "Art. 37 DSGVO"));
        // BDSG 1990 is its own regulation
        assert!(!result_matches("§ 4f", "BDSG", "§ 4f BDSG 1990"));
        assert!(result_matches("§ 4f", "BDSG 1990", "§ 4f BDSG 1990"));
    }

    #[test]
    fn citation_matching_of_primary_and_answers() {
        assert!(citation_matches("Art. 37", Some("DSGVO"), "Art. 37 DSGVO"));
        assert!(citation_matches(
            "Art. 37 Abs. 1 lit. b",
            Some("DSGVO"),
            "Art. 37 DSGVO"
        ));
        assert!(citation_matches(
            "Art. 37 Abs. 1 DSGVO",
            Some("DSGVO"),
            "Art. 37 DSGVO"
        ));
        assert!(citation_matches(
            "Art. 37 Abs. 1 DSGVO",
            None,
            "Art. 37 DSGVO"
        ));
        assert!(!citation_matches("Art. 3", Some("DSGVO"), "Art. 37 DSGVO"));
        assert!(!citation_matches("Art. 37", None, "Art. 37 DSGVO"));
        assert!(!citation_matches("Art. 37", Some("BDSG"), "Art. 37 DSGVO"));
        assert!(!citation_matches("§ 4", Some("BDSG"), "§ 4f BDSG"));
        assert!(!citation_matches("§ 4f", Some("BDSG"), "§ 4f BDSG 1990"));
        assert!(citation_matches(
            "§ 4f Abs. 1 BDSG 1990",
            None,
            "§ 4f BDSG 1990"
        ));
        assert!(!citation_matches("DSGVO", None, "Art. 37 DSGVO"));
        assert!(!citation_matches("", None, "Art. 37 DSGVO"));
        assert!(!citation_matches("Art. 37", Some("DSGVO"), "nonsense"));
    }

    fn res(norm: &str, reg: &str) -> SearchResult {
        SearchResult {
            rank: 0,
            chunk_id: paragraf_types::ChunkId(format!("{reg}/{norm}")),
            regulation: reg.into(),
            norm: norm.into(),
            citation: format!("{norm} {reg}"),
            title: String::new(),
            score: 0.0,
            raw_semantic: 0.0,
            source_class: paragraf_types::SourceClass::BindingLaw,
            source_role: paragraf_types::SourceRole::Obligation,
            jurisdiction: paragraf_types::Jurisdiction::Eu,
            status: paragraf_types::Status::InForce,
            lang: paragraf_types::Lang::De,
            superseded_by: None,
            explanation: vec![],
            framework: None,
            text: String::new(),
        }
    }

    #[test]
    fn duplicates_count_once() {
        // three chunks of Art. 37 (Abs. 1, Abs. 2, Abs. 3), then Art. 38, then § 38 BDSG
        let list = vec![
            res("Art. 37", "DSGVO"),
            res("Art. 37", "DSGVO"),
            res("Art.\u{a0}37", "DSGVO"),
            res("Art. 38", "DSGVO"),
            res("§ 38", "BDSG"),
        ];
        let d = dedupe_norms(&list);
        assert_eq!(d.len(), 3);
        let exp = vec!["Art. 37 DSGVO".to_string(), "§ 38 BDSG".to_string()];
        let rel = relevance_for(&d, &exp);
        assert_eq!(rel, vec![true, false, true]);
        // without dedupe § 38 BDSG would sit at rank 5; after it is rank 3
        assert_eq!(first_relevant_rank(&rel, 10), Some(1));
        let ideal = distinct_expected(&exp);
        assert_eq!(ideal, 2);
        assert!(close(
            ndcg_at_k(&rel, ideal, 10),
            1.5 / (1.0 + 1.0 / 3f64.log2())
        ));
        assert!(dedupe_norms(&[]).is_empty());
        assert!(relevance_for(&[], &exp).is_empty());
        assert_eq!(
            distinct_expected(&["§ 38 BDSG".into(), "§38 BDSG".into()]),
            1
        );
    }

    #[test]
    fn equal_scores_keep_list_order() {
        // Ties in score are the engine's to break (by chunk id); the metrics
        // take the list order as the ranking and never re-sort by score.
        let mut a = res("Art. 5", "DSGVO");
        let mut b = res("Art. 6", "DSGVO");
        a.score = 0.5;
        b.score = 0.5;
        let d = dedupe_norms(&[a.clone(), b.clone()]);
        let rel = relevance_for(&d, &["Art. 6 DSGVO".to_string()]);
        assert_eq!(first_relevant_rank(&rel, 10), Some(2));
        let d = dedupe_norms(&[b, a]);
        let rel = relevance_for(&d, &["Art. 6 DSGVO".to_string()]);
        assert_eq!(first_relevant_rank(&rel, 10), Some(1));
        // every relevant: MRR 1, nDCG 1
        assert_eq!(reciprocal_rank(&[true, true], 10), 1.0);
        assert!(close(ndcg_at_k(&[true, true], 2, 10), 1.0));
    }

    #[test]
    fn dedupe_ids_keeps_first() {
        assert_eq!(dedupe_ids(&["a", "b", "a", "c", "b"]), vec!["a", "b", "c"]);
        assert!(dedupe_ids::<&str>(&[]).is_empty());
    }
}
