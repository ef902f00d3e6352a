//! The `expect` checks of a golden question, evaluated on one engine output.
//!
//! Query-analysis checks read the `analysis` JSON the searcher returns. Keys
//! read: `jurisdiction` (string or array of strings; `jurisdictions` as a
//! fallback), `historical` (bool), `scope` (string, array or null; `scopes`
//! as a fallback), `control_intent` (bool). A missing key fails the check
//! with a detail that names it.

use crate::golden::GoldenQuery;
use crate::metrics::norm_key;
use crate::searcher::EvalOutput;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Window of the control-intent and regulation checks.
pub const CONTROL_TOP_N: usize = 10;
/// Distinct control-pool roles the control-intent check requires.
pub const CONTROL_MIN_ROLES: usize = 2;

/// Outcome of one `expect` check on one output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckOutcome {
    /// Check name: the `expect` field (`control_intent`, `cross_regime`, …;
    /// `top10_regulation` for `top10_regulation_any` alone).
    pub name: String,
    pub passed: bool,
    /// What was seen, for the report.
    pub detail: String,
}

fn outcome(name: &str, passed: bool, detail: String) -> CheckOutcome {
    CheckOutcome {
        name: name.to_string(),
        passed,
        detail,
    }
}

fn lookup<'a>(analysis: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|k| analysis.get(*k))
}

/// Whether a JSON value (string, or array of strings) names `want`
/// (ASCII case-insensitive).
fn names(v: &Value, want: &str) -> bool {
    match v {
        Value::String(s) => s.eq_ignore_ascii_case(want),
        Value::Array(a) => a
            .iter()
            .any(|x| x.as_str().is_some_and(|s| s.eq_ignore_ascii_case(want))),
        _ => false,
    }
}

fn top_regulations(out: &EvalOutput) -> Vec<&str> {
    out.response
        .results
        .iter()
        .take(CONTROL_TOP_N)
        .map(|r| r.regulation.as_str())
        .collect()
}

fn regulation_check(out: &EvalOutput, any: &[String]) -> (bool, String) {
    let regs = top_regulations(out);
    let found: Vec<&String> = any
        .iter()
        .filter(|want| regs.iter().any(|r| norm_key(r) == norm_key(want)))
        .collect();
    let mut distinct: Vec<&str> = regs.clone();
    distinct.sort_unstable();
    distinct.dedup();
    (
        !found.is_empty(),
        format!(
            "top {} regulations [{}]; wanted one of [{}]",
            CONTROL_TOP_N,
            distinct.join(", "),
            any.join(", ")
        ),
    )
}

/// Run every check `q.expect` sets against one output, in a fixed order:
/// control_intent, top10_regulation, cross_regime, human_review, abstain,
/// jurisdiction, historical, scope, role. `generate` says whether answers
/// were requested (then `abstain` also needs an abstaining answer).
pub fn run_checks(q: &GoldenQuery, out: &EvalOutput, generate: bool) -> Vec<CheckOutcome> {
    let e = &q.expect;
    let a = &out.response.assessment;
    let mut v = Vec::new();

    match e.control_intent {
        Some(true) => {
            let mut roles: Vec<&str> = out
                .response
                .results
                .iter()
                .take(CONTROL_TOP_N)
                .filter(|r| r.source_role.in_control_pool())
                .map(|r| r.source_role.as_str())
                .collect();
            roles.sort_unstable();
            roles.dedup();
            let roles_ok = roles.len() >= CONTROL_MIN_ROLES;
            let (reg_ok, reg_detail) = if e.top10_regulation_any.is_empty() {
                (true, "no regulation required".to_string())
            } else {
                regulation_check(out, &e.top10_regulation_any)
            };
            v.push(outcome(
                "control_intent",
                roles_ok && reg_ok,
                format!(
                    "{} control-pool roles in top {} [{}] (need {}); {}",
                    roles.len(),
                    CONTROL_TOP_N,
                    roles.join(", "),
                    CONTROL_MIN_ROLES,
                    reg_detail
                ),
            ));
        }
        Some(false) => {
            let got = out.analysis.get("control_intent").and_then(Value::as_bool);
            v.push(outcome(
                "control_intent",
                got == Some(false),
                format!("analysis control_intent = {}", show_opt(got)),
            ));
        }
        None => {}
    }
    if e.control_intent != Some(true) && !e.top10_regulation_any.is_empty() {
        let (ok, detail) = regulation_check(out, &e.top10_regulation_any);
        v.push(outcome("top10_regulation", ok, detail));
    }
    if let Some(want) = e.cross_regime {
        v.push(outcome(
            "cross_regime",
            a.cross_regime == want,
            format!("assessment cross_regime = {} (want {want})", a.cross_regime),
        ));
    }
    if let Some(want) = e.human_review {
        v.push(outcome(
            "human_review",
            a.human_review_flag == want,
            format!(
                "assessment human_review_flag = {} (want {want}); reasons: {}",
                a.human_review_flag,
                a.human_review_reasons.join("; ")
            ),
        ));
    }
    if let Some(want) = e.abstain {
        let answer = out.answer.as_ref().or(out.response.answer.as_ref());
        let (ok, detail) = match (generate, answer) {
            (false, _) => (
                // Without generation only the review flag can show abstention.
                a.human_review_flag == want,
                format!(
                    "no generation; human_review_flag = {} (want {want})",
                    a.human_review_flag
                ),
            ),
            (true, None) => (
                false,
                "generation requested but no answer returned".to_string(),
            ),
            (true, Some(ans)) => {
                let flag_ok = !want || a.human_review_flag;
                (
                    ans.abstained == want && flag_ok,
                    format!(
                        "answer abstained = {} (want {want}); human_review_flag = {}; {} citations",
                        ans.abstained,
                        a.human_review_flag,
                        ans.citations.len()
                    ),
                )
            }
        };
        v.push(outcome("abstain", ok, detail));
    }
    if let Some(want) = e.jurisdiction {
        let got = lookup(&out.analysis, &["jurisdiction", "jurisdictions"]);
        v.push(outcome(
            "jurisdiction",
            got.is_some_and(|g| names(g, want.as_str())),
            format!("analysis jurisdiction = {} (want {want})", show(got)),
        ));
    }
    if let Some(want) = e.historical {
        let got = out.analysis.get("historical").and_then(Value::as_bool);
        v.push(outcome(
            "historical",
            got == Some(want),
            format!("analysis historical = {} (want {want})", show_opt(got)),
        ));
    }
    if let Some(want) = &e.scope {
        let got = lookup(&out.analysis, &["scope", "scopes"]);
        v.push(outcome(
            "scope",
            got.is_some_and(|g| names(g, want)),
            format!("analysis scope = {} (want {want})", show(got)),
        ));
    }
    if let Some(want) = e.role {
        let got = out.response.results.first().map(|r| r.source_role);
        v.push(outcome(
            "role",
            got == Some(want),
            format!(
                "top result role = {} (want {want})",
                got.map_or("none (no results)", |r| r.as_str())
            ),
        ));
    }
    v
}

/// The checks `q` sets, each failed with the same detail (the search failed).
pub fn failed_checks(q: &GoldenQuery, generate: bool, why: &str) -> Vec<CheckOutcome> {
    let empty = EvalOutput::default();
    run_checks(q, &empty, generate)
        .into_iter()
        .map(|c| outcome(&c.name, false, format!("search failed: {why}")))
        .collect()
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "missing".to_string(), |v| v.to_string())
}

fn show_opt(v: Option<bool>) -> String {
    v.map_or_else(|| "missing".to_string(), |b| b.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::parse_golden;
    use paragraf_types::{
        Answer, ChunkId, Jurisdiction, Lang, SearchResult, SourceClass, SourceRole, Status,
    };
    use serde_json::json;

    fn q(expect: serde_json::Value) -> GoldenQuery {
        let line = json!({"id": "t", "query": "q", "expect_any": [], "expect": expect}).to_string();
        parse_golden(&line, "t").unwrap().remove(0)
    }

    fn r(reg: &str, role: SourceRole) -> SearchResult {
        SearchResult {
            rank: 0,
            chunk_id: ChunkId(format!("{reg}/x")),
            regulation: reg.into(),
            norm: "x".into(),
            citation: String::new(),
            title: String::new(),
            score: 0.0,
            raw_semantic: 0.0,
            source_class: SourceClass::ControlStandard,
            source_role: role,
            jurisdiction: Jurisdiction::Int,
            status: Status::InForce,
            lang: Lang::En,
            superseded_by: None,
            explanation: vec![],
            framework: None,
            text: String::new(),
        }
    }

    fn with(results: Vec<SearchResult>, analysis: serde_json::Value) -> EvalOutput {
        let mut o = EvalOutput {
            analysis,
            ..EvalOutput::default()
        };
        o.response.results = results;
        o
    }

    fn pass(checks: &[CheckOutcome], name: &str) -> bool {
        checks
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no check {name} in {checks:?}"))
            .passed
    }

    use SourceRole::*;

    #[test]
    fn control_intent_needs_two_distinct_roles_in_top_ten_and_a_regulation() {
        let g = q(json!({"control_intent": true, "top10_regulation_any": ["NIST SP 800-82"]}));
        // same role twice = one distinct role
        let o = with(
            vec![
                r("NIST SP 800-82", ControlStandard),
                r("BSI GS++", ControlStandard),
            ],
            json!({}),
        );
        assert!(!pass(&run_checks(&g, &o, false), "control_intent"));
        // two roles, regulation present
        let o = with(
            vec![
                r("NIST SP 800-82", ControlStandard),
                r("BSI GS++", ImplementationGuidance),
            ],
            json!({}),
        );
        let c = run_checks(&g, &o, false);
        assert!(pass(&c, "control_intent"), "{c:?}");
        assert_eq!(
            c.len(),
            1,
            "regulation is part of control_intent, not a second check"
        );
        // two roles but wrong regulation
        let o = with(
            vec![
                r("BSI GS++", ControlStandard),
                r("BSI GS++", ImplementationGuidance),
            ],
            json!({}),
        );
        assert!(!pass(&run_checks(&g, &o, false), "control_intent"));
        // second role only at rank 11 → outside the window; non-pool roles never count
        let mut list = vec![r("NIST SP 800-82", ControlStandard)];
        list.extend((0..9).map(|_| r("DSGVO", Obligation)));
        list.push(r("NIST SP 800-82", OperationalRequirement));
        assert!(!pass(
            &run_checks(&g, &with(list, json!({})), false),
            "control_intent"
        ));
        // empty result list
        assert!(!pass(
            &run_checks(&g, &with(vec![], json!({})), false),
            "control_intent"
        ));
    }

    #[test]
    fn regulation_check_alone_and_control_intent_false() {
        let g = q(json!({"top10_regulation_any": ["OWASP ASVS"]}));
        let c = run_checks(
            &g,
            &with(vec![r("OWASP ASVS", ControlStandard)], json!({})),
            false,
        );
        assert_eq!(c.len(), 1);
        assert!(pass(&c, "top10_regulation"));
        let g = q(json!({"control_intent": false}));
        assert!(pass(
            &run_checks(&g, &with(vec![], json!({"control_intent": false})), false),
            "control_intent"
        ));
        assert!(!pass(
            &run_checks(&g, &with(vec![], json!({"control_intent": true})), false),
            "control_intent"
        ));
        let missing = run_checks(&g, &with(vec![], json!({})), false);
        assert!(!missing[0].passed && missing[0].detail.contains("missing"));
    }

    #[test]
    fn analysis_checks() {
        let g = q(json!({"jurisdiction": "CH", "historical": true, "scope": "law_enforcement"}));
        let ok = with(
            vec![],
            json!({"jurisdiction": "ch", "historical": true, "scopes": ["general", "law_enforcement"]}),
        );
        let c = run_checks(&g, &ok, false);
        assert!(c.iter().all(|c| c.passed), "{c:?}");
        let bad = with(
            vec![],
            json!({"jurisdiction": ["DE", "EU"], "historical": "yes", "scope": null}),
        );
        let c = run_checks(&g, &bad, false);
        assert!(c.iter().all(|c| !c.passed), "{c:?}");
        let none = run_checks(&g, &with(vec![], json!(null)), false);
        assert!(
            none.iter()
                .all(|c| !c.passed && c.detail.contains("missing")),
            "{none:?}"
        );
    }

    #[test]
    fn assessment_and_role_checks() {
        let g = q(json!({"cross_regime": false, "human_review": true, "role": "definition"}));
        let mut o = with(
            vec![r("DSGVO", Definition), r("DSGVO", Obligation)],
            json!({}),
        );
        o.response.assessment.human_review_flag = true;
        let c = run_checks(&g, &o, false);
        assert!(c.iter().all(|c| c.passed), "{c:?}");
        o.response.assessment.cross_regime = true;
        o.response.results.swap(0, 1);
        let c = run_checks(&g, &o, false);
        assert!(!pass(&c, "cross_regime") && !pass(&c, "role") && pass(&c, "human_review"));
        let c = run_checks(&g, &with(vec![], json!({})), false);
        assert!(!pass(&c, "role"));
    }

    #[test]
    fn abstain_with_and_without_generation() {
        let g = q(json!({"abstain": true}));
        let mut o = with(vec![], json!({}));
        // without generation: the review flag decides
        assert!(!pass(&run_checks(&g, &o, false), "abstain"));
        o.response.assessment.human_review_flag = true;
        assert!(pass(&run_checks(&g, &o, false), "abstain"));
        // generating but no answer → fail
        assert!(!pass(&run_checks(&g, &o, true), "abstain"));
        // answer in the response counts; must abstain
        o.response.answer = Some(Answer {
            abstained: false,
            ..Answer::default()
        });
        assert!(!pass(&run_checks(&g, &o, true), "abstain"));
        o.answer = Some(Answer {
            abstained: true,
            ..Answer::default()
        });
        assert!(
            pass(&run_checks(&g, &o, true), "abstain"),
            "EvalOutput.answer wins"
        );
        // abstained, but the flag is not set → fail
        o.response.assessment.human_review_flag = false;
        assert!(!pass(&run_checks(&g, &o, true), "abstain"));
    }

    #[test]
    fn failed_search_fails_every_check() {
        let g = q(json!({"cross_regime": true, "role": "obligation"}));
        let c = failed_checks(&g, false, "timeout");
        assert_eq!(c.len(), 2);
        assert!(c
            .iter()
            .all(|c| !c.passed && c.detail == "search failed: timeout"));
        assert!(failed_checks(&q(json!({})), false, "x").is_empty());
    }
}
