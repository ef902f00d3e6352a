//! Integration test of the golden runner: a hand-written fake searcher with
//! scripted outputs over a small golden fixture, checked against metrics
//! computed by hand; report rendering; compare; the real golden file and
//! LegalQuAD when present.

use paragraf_eval::{
    compare, load_golden, run_eval, score_query, EvalOutput, EvalReport, GoldenQuery, RunConfig,
    Searcher,
};
use paragraf_types::{
    AbstainReason, Answer, Assessment, ChunkId, Jurisdiction, Lang, SearchResponse, SearchResult,
    SourceClass, SourceRole, Status,
};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/golden-mini.jsonl")
}

fn res(norm: &str, reg: &str, role: SourceRole) -> SearchResult {
    SearchResult {
        rank: 0,
        chunk_id: ChunkId(format!("{reg}/{norm}")),
        regulation: reg.into(),
        norm: norm.into(),
        citation: format!("{norm} {reg}"),
        title: String::new(),
        score: 0.0,
        raw_semantic: 0.0,
        source_class: SourceClass::BindingLaw,
        source_role: role,
        jurisdiction: Jurisdiction::Eu,
        status: Status::InForce,
        lang: Lang::De,
        superseded_by: None,
        explanation: vec![],
        framework: None,
        text: String::new(),
    }
}

fn out(
    results: Vec<SearchResult>,
    assessment: Assessment,
    analysis: serde_json::Value,
) -> EvalOutput {
    let mut results = results;
    for (i, r) in results.iter_mut().enumerate() {
        r.rank = i + 1;
    }
    EvalOutput {
        response: SearchResponse {
            query: String::new(),
            results,
            assessment,
            answer: None,
            timings_ms: Default::default(),
            lang: None,
        },
        analysis,
        answer: None,
        timings: [("total".to_string(), 12.0), ("generate".to_string(), 500.0)]
            .into_iter()
            .collect(),
    }
}

use SourceRole::*;

/// Scripted engine: stage `good` answers well, stage `weak` worse.
struct Fake {
    calls: AtomicUsize,
}

impl Searcher for Fake {
    fn search(&self, query: &str, stage: &str) -> Result<EvalOutput, String> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let good = stage == "good";
        let o = if query.contains("Datenschutzbeauftragter") {
            // m-001: three chunks of Art. 38 first in `weak`; Art. 37 second distinct norm
            if good {
                out(
                    vec![
                        res("Art. 37", "DSGVO", Obligation),
                        res("§ 38", "BDSG", Obligation),
                    ],
                    Assessment::default(),
                    json!({}),
                )
            } else {
                out(
                    vec![
                        res("Art. 38", "DSGVO", Obligation),
                        res("Art. 38", "DSGVO", Obligation),
                        res("Art. 38", "DSGVO", Obligation),
                        res("Art. 37", "DSGVO", Obligation),
                    ],
                    Assessment::default(),
                    json!({}),
                )
            }
        } else if query.contains("Datenpanne") {
            // m-002: nothing relevant in the list, but the assessment's primary
            // norm (a citation unit) names Art. 33 → hit@1 only via the assessment
            let a = Assessment {
                primary_norm: Some("Art. 33 Abs. 1".into()),
                primary_regulation: Some("DSGVO".into()),
                ..Assessment::default()
            };
            out(vec![res("Art. 34", "DSGVO", Obligation)], a, json!({}))
        } else if query.contains("Passwörter") {
            let roles = if good {
                vec![
                    res("V6.2.1", "OWASP ASVS", ControlStandard),
                    res("IA-5", "NIST SP 800-53", OperationalRequirement),
                ]
            } else {
                vec![
                    res("V6.2.1", "OWASP ASVS", ControlStandard),
                    res("Art. 32", "DSGVO", Obligation),
                ]
            };
            out(
                roles,
                Assessment::default(),
                json!({"control_intent": true}),
            )
        } else if query.contains("Smart-Home") {
            let a = Assessment {
                cross_regime: true,
                human_review_flag: true,
                ..Assessment::default()
            };
            out(
                vec![
                    res("Art. 32", "DSGVO", Obligation),
                    res("Art. 13", "CRA", Obligation),
                ],
                a,
                json!({}),
            )
        } else if query.contains("Schweizer") {
            out(
                vec![res("Art. 22", "revDSG", Obligation)],
                Assessment::default(),
                json!({"jurisdiction": ["CH", "EU"]}),
            )
        } else if query.contains("BDSG 1990") {
            // expected at rank 3 → hit under hit_at 3
            out(
                vec![
                    res("§ 38", "BDSG", Obligation),
                    res("§ 4", "BDSG 1990", Obligation),
                    res("§ 4f", "BDSG 1990", Obligation),
                ],
                Assessment::default(),
                json!({"historical": good}),
            )
        } else if query.contains("Polizei") {
            if good {
                out(
                    vec![res("§ 57", "BDSG", Obligation)],
                    Assessment::default(),
                    json!({"scope": "law_enforcement"}),
                )
            } else {
                return Err("index not loaded".into());
            }
        } else if query.contains("Pseudonymisierung") {
            out(
                vec![res("Art. 4", "DSGVO", Definition)],
                Assessment::default(),
                json!({}),
            )
        } else {
            // Hundesteuer: flagged; the answer abstains in `good`
            let a = Assessment {
                human_review_flag: true,
                ..Assessment::default()
            };
            let mut o = out(vec![res("Art. 6", "DSGVO", Obligation)], a, json!({}));
            o.answer = Some(Answer {
                text: if good {
                    "keine belastbare Quelle".into()
                } else {
                    "Die Steuer beträgt 100 Euro [1].".into()
                },
                citations: if good {
                    vec![]
                } else {
                    vec!["Art. 6 DSGVO".into()]
                },
                abstained: good,
                removed_citations: vec![],
                model: "fake".into(),
                generated_tokens: 10,
                error: None,
                abstain_reason: good.then_some(AbstainReason::ModelDeclined),
                extractive: false,
                evidence: Vec::new(),
                review_warning: None,
            });
            return Ok(o);
        };
        let mut o = o;
        o.answer = Some(Answer {
            text: "Antwort [1]".into(),
            citations: o
                .response
                .results
                .first()
                .map(|r| vec![format!("{} Abs. 1 {}", r.norm, r.regulation)])
                .unwrap_or_default(),
            abstained: false,
            removed_citations: if good {
                vec![]
            } else {
                vec![paragraf_types::RemovedCitation {
                    text: "Art. 999 DSGVO".into(),
                    reason: "not retrieved".into(),
                }]
            },
            model: "fake".into(),
            generated_tokens: 40,
            error: None,
            abstain_reason: None,
            extractive: false,
            evidence: Vec::new(),
            review_warning: None,
        });
        Ok(o)
    }
}

fn run(stages: &[&str], generate: bool, threads: usize) -> EvalReport {
    let golden = load_golden(&fixture()).unwrap();
    let fake = Fake {
        calls: AtomicUsize::new(0),
    };
    let cfg = RunConfig {
        label: "fixture".into(),
        stages: stages.iter().map(|s| s.to_string()).collect(),
        generate,
        threads,
    };
    let seen = AtomicUsize::new(0);
    let progress = |done: usize, total: usize| {
        assert!(done <= total && total == 9);
        seen.fetch_add(1, Ordering::SeqCst);
    };
    let rep = run_eval(&golden, &fake, &cfg, Some(&progress));
    assert_eq!(seen.load(Ordering::SeqCst), 9);
    assert_eq!(fake.calls.load(Ordering::SeqCst), 9 * rep.stages.len());
    rep
}

/// A report without what the clock decides (start, wall times, latency,
/// threads), for comparing runs.
fn without_timing(mut r: EvalReport) -> EvalReport {
    r.meta.created_utc.clear();
    r.meta.wall_s = 0.0;
    r.meta.threads = 0;
    for s in &mut r.stages {
        s.aggregate.latency = Default::default();
        for a in s.by_lang.values_mut() {
            a.latency = Default::default();
        }
        for q in &mut s.queries {
            q.wall_ms = 0.0;
        }
    }
    r
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn metrics_of_the_scripted_engine() {
    let rep = run(&["weak", "good"], true, 3);
    assert_eq!(rep.meta.stages, vec!["weak", "good"]);
    let good = rep.stage("good").unwrap();
    let weak = rep.stage("weak").unwrap();
    // order is golden order
    let ids: Vec<&str> = good.queries.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(
        ids,
        ["m-001", "m-002", "m-003", "m-004", "m-005", "m-006", "m-007", "m-008", "m-009"]
    );

    // good: scored m-001,2,5,6,7,8 → 6; all hit@1 (m-002 via assessment, m-006 via hit_at 3)
    let g = &good.aggregate;
    assert_eq!(g.scored, 6);
    assert!(close(g.hit_at_1, 1.0));
    // hit@5: m-002 has no relevant item in the list → 5/6
    assert!(close(g.hit_at_5, 5.0 / 6.0));
    // MRR over m-001, m-002, m-005, m-006, m-007, m-008: 1, 0, 1, 1/3, 1, 1
    assert!(close(g.mrr_at_10, (4.0 + 1.0 / 3.0) / 6.0));
    // nDCG: m-001 both relevant at 1,2 → 1; m-002 0; m-005 1; m-006 rank 3 → 0.5; m-007 1; m-008 1
    assert!(close(g.ndcg_at_10, 4.5 / 6.0));
    assert_eq!(g.errors, 0);
    assert_eq!(g.passed.passed, 9);

    let w = &weak.aggregate;
    // weak: m-001 Art. 37 is the 2nd distinct norm (3 chunks of Art. 38 count once)
    let m1 = &weak.queries[0];
    assert_eq!(m1.first_relevant_rank, Some(2));
    assert_eq!(m1.hit_at_1, Some(false));
    assert_eq!(m1.top, vec!["Art. 38 DSGVO", "Art. 37 DSGVO"]);
    // ideal: 2 relevant; DCG = 1/log2 3; IDCG = 1 + 1/log2 3
    let l3 = 1.0 / 3f64.log2();
    assert!(close(m1.ndcg_at_10, l3 / (1.0 + l3)));
    // m-007 failed → miss and error
    assert_eq!(w.errors, 1);
    assert_eq!(weak.queries[6].hit_at_1, Some(false));
    assert!(weak.queries[6]
        .checks
        .iter()
        .all(|c| !c.passed && c.detail.contains("index not loaded")));
    // hit@1 weak: m-002 yes, m-005 yes, m-006 yes, m-008 yes; m-001, m-007 no → 4/6
    assert!(close(w.hit_at_1, 4.0 / 6.0));
    // where they lie: m-001 has its law first (Art. 38 DSGVO) and Art. 37
    // lower in the list; m-007 failed, nothing in the list
    assert_eq!(m1.law_first, Some(true));
    assert_eq!(weak.queries[6].law_first, None);
    let misses = paragraf_eval::Misses {
        total: 2,
        law_first: 1,
        in_list: 1,
        absent: 1,
    };
    assert_eq!(w.misses, misses);
    assert_eq!(g.misses, paragraf_eval::Misses::default());
    // checks: control_intent fails (1 control role), historical fails, scope fails (error),
    // abstain fails (answer did not abstain)
    assert_eq!(w.checks["control_intent"].passed, 0);
    assert_eq!(w.checks["historical"].passed, 0);
    assert_eq!(w.checks["scope"].passed, 0);
    assert_eq!(w.checks["abstain"].passed, 0);
    assert_eq!(w.checks["jurisdiction"].passed, 1);
    assert_eq!(w.checks["role"].passed, 1);
    assert_eq!(w.checks["cross_regime"].passed, 1);
    assert_eq!(w.checks["human_review"].total, 2);
    assert_eq!(w.checks["human_review"].passed, 2);

    // answers (good): 8 answered (m-007 in good answered too → 9), 1 abstained which should
    let ga = g.answer.as_ref().unwrap();
    assert_eq!(ga.answered, 9);
    assert!(close(ga.abstention_precision, 1.0));
    assert!(close(ga.abstention_recall, 1.0));
    assert!(close(ga.citation_validity, 1.0));
    assert!(close(ga.grounded_answers, 1.0));
    // the abstaining answer had generated tokens: decided by the answer gate
    assert_eq!(ga.abstained_before_generation, 0);
    assert_eq!(ga.retrieval_abstention_precision, None);
    // tokens/s: (8·40 + 10) tokens over 9 × 0.5 s
    assert!(close(ga.tokens_per_s, 330.0 / 4.5));
    // weak: 8 answers (m-007 errored); abstained none → precision undefined, recall 0
    let wa = w.answer.as_ref().unwrap();
    assert_eq!(wa.answered, 8);
    assert_eq!(wa.abstention_precision, None);
    assert!(close(wa.abstention_recall, 0.0));
    // citations kept: 7 (m-004 etc. each one, m-009 one) vs removed 7
    assert_eq!(wa.citations_removed, 7);
    assert!(close(
        wa.citation_validity,
        wa.citations_kept as f64 / (wa.citations_kept + 7) as f64
    ));
}

#[test]
fn output_is_deterministic_across_thread_counts() {
    let strip = without_timing;
    let a = strip(run(&["weak", "good"], false, 1));
    let b = strip(run(&["weak", "good"], false, 4));
    assert_eq!(a, b);
    assert!(a.stages[0].aggregate.answer.is_none());
}

#[test]
fn reports_render_and_round_trip() {
    let rep = run(&["weak", "good", "weak"], true, 2);
    assert_eq!(rep.stages.len(), 2, "duplicate stage dropped");
    // A saved report renders exactly as the original (floats may differ in
    // the last bit after a JSON round trip, the rendering does not).
    let back = EvalReport::from_json(&rep.to_json(), "mem").unwrap();
    assert_eq!(back.to_markdown(), rep.to_markdown());
    assert_eq!(
        back.stages[1].queries[0].checks,
        rep.stages[1].queries[0].checks
    );
    assert_eq!(back.meta.stages, rep.meta.stages);
    let md = rep.to_markdown_with_chart("chart.svg");
    for want in [
        "# Evaluation report — fixture",
        "![hit@1 per stage and pass rate per category](chart.svg)",
        "| weak | 6 | 0.667 | 0.667 |",
        "| control_intent | 0.000 (0/1) | 1.000 (1/1) |",
        "## Answers",
        "## Where the misses lie",
        "| weak | 2 | 1 | 1 | 1 |",
        "| good | 0 | 0 | 0 | 0 |",
        "| m-001 | DSGVO | Art. 37 DSGVO, § 38 BDSG | ✗ Art. 38 DSGVO (#2) | ✓ Art. 37 DSGVO (#1) |",
        "## Failures at stage `good` (0)",
        "| m-002 | DSGVO | Art. 33 DSGVO | ✓ Art. 34 DSGVO · primary Art. 33 Abs. 1 DSGVO |",
    ] {
        assert!(md.contains(want), "missing {want:?} in\n{md}");
    }
    let svg = rep.to_svg_chart();
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(">weak</text>") && svg.contains(">control_intent</text>"));
    // hit@1 of good = 1.0 → full bar width
    assert!(svg.contains("width=\"440.0\" height=\"10\""));
    let t = rep.print_table();
    assert!(t.lines().count() == 5, "{t}");
    assert!(t.contains("good") && t.contains("1.000"));
    let dir = tempfile::tempdir().unwrap();
    let files = rep.write_files(dir.path(), "golden-dev").unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["golden-dev.json", "golden-dev.md", "golden-dev.svg"]
    );
    let loaded = EvalReport::load(&files[0]).unwrap();
    assert_eq!(loaded.to_markdown(), rep.to_markdown());
    assert!(std::fs::read_to_string(&files[1])
        .unwrap()
        .contains("](golden-dev.svg)"));
    let err = EvalReport::from_json("{\"meta\":1}", "old.json")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("old.json: invalid report JSON"), "{err}");
}

#[test]
fn compare_lists_flips() {
    let rep = run(&["weak", "good"], false, 2);
    // Make two single-stage reports named alike: A = weak, B = good
    let mut a = rep.clone();
    a.stages = vec![rep.stages[0].clone()];
    a.stages[0].stage = "full".into();
    a.meta.label = "A".into();
    let mut b = rep.clone();
    b.stages = vec![rep.stages[1].clone()];
    b.stages[0].stage = "full".into();
    b.meta.label = "B".into();
    let c = compare(&a, &b);
    let st = &c.stages[0];
    let up: Vec<&str> = st.miss_to_hit.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(up, ["m-001", "m-007"]);
    assert!(st.hit_to_miss.is_empty());
    assert_eq!(c.regressions(), 0);
    assert_eq!(st.miss_to_hit[0].a_rank, Some(2));
    assert_eq!(st.miss_to_hit[0].b_rank, Some(1));
    let hit1 = st.metrics.iter().find(|m| m.metric == "hit@1").unwrap();
    assert!(close(hit1.delta, 1.0 - 4.0 / 6.0));
    let flipped: Vec<(&str, &str)> = st
        .check_flips
        .iter()
        .map(|f| (f.id.as_str(), f.check.as_str()))
        .collect();
    assert_eq!(
        flipped,
        [
            ("m-003", "control_intent"),
            ("m-006", "historical"),
            ("m-007", "scope")
        ]
    );
    // reversed: the same questions are regressions
    let r = compare(&b, &a);
    assert_eq!(r.regressions(), 2);
    let md = r.to_markdown();
    assert!(md.contains("### hit → miss (regressions): 2"), "{md}");
    assert!(md.contains("| m-001 |"), "{md}");
    // a stage missing on one side is listed
    let mut b2 = b.clone();
    b2.stages[0].stage = "other".into();
    let c2 = compare(&a, &b2);
    assert!(c2.stages.is_empty());
    assert_eq!(c2.stages_only_in_a, vec!["full"]);
    assert_eq!(c2.stages_only_in_b, vec!["other"]);
}

#[test]
fn closures_are_searchers() {
    let golden = load_golden(&fixture()).unwrap();
    let always_art4 = |_q: &str, _stage: &str| -> Result<EvalOutput, String> {
        Ok(out(
            vec![res("Art. 4", "DSGVO", Definition)],
            Default::default(),
            json!({}),
        ))
    };
    let cfg = RunConfig {
        label: "closure".into(),
        stages: vec![],
        generate: false,
        threads: 1,
    };
    let rep = run_eval(&golden, &always_art4, &cfg, None);
    assert_eq!(rep.meta.stages, vec!["full"]);
    // only m-008 expects Art. 4 DSGVO among the 6 scored questions
    assert!(close(rep.stages[0].aggregate.hit_at_1, 1.0 / 6.0));
}

#[test]
fn score_query_without_results_or_checks() {
    let q: GoldenQuery =
        serde_json::from_value(json!({"id":"x","query":"q","expect_any":["Art. 1 DSGVO"]}))
            .unwrap();
    let r = score_query(&q, Ok(&EvalOutput::default()), false, 1.0);
    assert_eq!(r.hit_at_1, Some(false));
    assert_eq!(r.ndcg_at_10, Some(0.0));
    assert_eq!(r.reciprocal_rank, Some(0.0));
    assert!(r.checks.is_empty());
    assert!(!r.passed);
    let q2: GoldenQuery =
        serde_json::from_value(json!({"id":"y","query":"q","expect_any":[]})).unwrap();
    let r2 = score_query(&q2, Ok(&EvalOutput::default()), false, 1.0);
    assert_eq!(r2.hit_at_1, None);
    assert!(r2.passed, "no expectations → nothing to fail");
}

#[test]
fn real_golden_file_parses() {
    let dir = std::env::var("PARAGRAF_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../shared/corpus"
            ))
        });
    let golden = dir.join("../eval/golden-dev.jsonl");
    if !golden.exists() {
        paragraf_types::inputs::input_missing("../shared/eval/golden-dev.jsonl");
        return;
    }
    let g = load_golden(&golden).unwrap();
    assert_eq!(g.len(), 40);
    assert!(g.iter().any(|q| q.expect.control_intent == Some(true)));
    let lq_path = dir.join("eval/legalquad.json");
    if lq_path.exists() {
        let lq = paragraf_eval::legalquad::load(&lq_path).unwrap();
        assert_eq!(lq.contexts.len(), 200);
        assert_eq!(lq.questions.len(), 200);
        assert!(lq.questions.iter().all(|q| q.relevant.len() == 1));
        // an oracle ranking scores 1, a ranking without the relevant document 0
        let oracle = |q: &str| -> Result<Vec<String>, String> {
            let hit = lq
                .questions
                .iter()
                .find(|x| x.question == q)
                .ok_or("unknown")?;
            Ok(hit.relevant.clone())
        };
        let m = paragraf_eval::legalquad::run_method(&lq, "oracle", &oracle);
        assert!((m.ndcg_at_10 - 1.0).abs() < 1e-12, "{m:?}");
        let chunks = lq.to_chunks(1500);
        assert!(chunks.len() > lq.contexts.len());
        assert!(chunks
            .iter()
            .all(|c| c.text.chars().count() <= 1500 || !c.text.contains(' ')));
        let docs: std::collections::BTreeSet<&str> =
            chunks.iter().map(|c| c.norm.as_str()).collect();
        assert_eq!(docs.len(), 200);
        eprintln!("legalquad: {} chunks of at most 1500 chars", chunks.len());
    } else {
        paragraf_types::inputs::input_missing("../shared/corpus/eval/legalquad.json");
    }
}

#[test]
fn grounding_is_checked_against_the_retrieved_results() {
    // Two questions: one answered with a citation outside the results, one
    // that abstains before generation (0 tokens) and should.
    let golden: Vec<GoldenQuery> = [
        r#"{"id":"g-1","query":"DSB?","expect_any":["Art. 37 DSGVO"]}"#,
        r#"{"id":"g-2","query":"Hundesteuer?","expect_any":[],"expect":{"abstain":true}}"#,
    ]
    .iter()
    .map(|l| serde_json::from_str(l).unwrap())
    .collect();
    let searcher = |q: &str, _stage: &str| -> Result<EvalOutput, String> {
        let mut o = out(
            vec![res("Art. 37", "DSGVO", SourceRole::Obligation)],
            Assessment::default(),
            json!({}),
        );
        let abstain = q.starts_with("Hund");
        o.answer = Some(Answer {
            text: "…".into(),
            citations: if abstain {
                vec![]
            } else {
                vec!["Art. 37 Abs. 1 DSGVO".into(), "Art. 124 DSGVO".into()]
            },
            abstained: abstain,
            removed_citations: vec![],
            model: "fake".into(),
            generated_tokens: if abstain { 0 } else { 12 },
            error: None,
            abstain_reason: abstain.then_some(AbstainReason::NotRelevant),
            extractive: false,
            evidence: Vec::new(),
            review_warning: None,
        });
        Ok(o)
    };
    let cfg = RunConfig {
        label: "grounding".into(),
        stages: vec!["full".into()],
        generate: true,
        threads: 1,
    };
    let rep = run_eval(&golden, &searcher, &cfg, None);
    let st = rep.stage("full").unwrap();
    assert_eq!(
        st.queries[0].answer.as_ref().unwrap().ungrounded_citations,
        1
    );
    let a = st.aggregate.answer.as_ref().unwrap();
    assert!(close(a.grounded_answers, 0.0));
    assert_eq!(a.abstained_before_generation, 1);
    assert!(close(a.retrieval_abstention_precision, 1.0));
    let md = rep.to_markdown();
    assert!(md.contains("| full | 2 | 1 | 1 | 0 | 0.000 |"), "{md}");
    assert!(
        md.contains("Abstentions by reason (full): not_relevant 1."),
        "{md}"
    );
    assert_eq!(a.abstain_reasons.get("not_relevant"), Some(&1));
}

#[test]
fn shards_merge_into_the_unsharded_report() {
    use paragraf_eval::{merge_shards, shard_of, Shard};
    let golden = load_golden(&fixture()).unwrap();
    let cfg = RunConfig {
        label: "fixture".into(),
        stages: vec!["weak".into(), "good".into()],
        generate: true,
        threads: 2,
    };
    let fake = || Fake {
        calls: AtomicUsize::new(0),
    };
    let whole = run_eval(&golden, &fake(), &cfg, None);
    let parts: Vec<EvalReport> = (1..=3)
        .map(|i| {
            let (qs, shard) = shard_of(&golden, format!("{i}/3").parse().unwrap());
            let mut r = run_eval(&qs, &fake(), &cfg, None);
            r.meta.shard = Some(shard);
            r
        })
        .collect();
    assert_eq!(parts.iter().map(|p| p.meta.queries).sum::<usize>(), 9);
    // in any order
    let shuffled = vec![parts[2].clone(), parts[0].clone(), parts[1].clone()];
    let merged = merge_shards(&shuffled).unwrap();
    let strip = without_timing;
    assert!(merged.meta.shard.is_none());
    assert_eq!(strip(merged), strip(whole));
    // incomplete, repeated or foreign shards are refused with the reason
    let e = merge_shards(&parts[..2]).unwrap_err().to_string();
    assert!(e.contains("3/3 is missing"), "{e}");
    let e = merge_shards(&[parts[0].clone(), parts[0].clone(), parts[1].clone()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("repeats"), "{e}");
    let mut other = parts[1].clone();
    other.meta.shard = Some(Shard {
        index: 1,
        count: 4,
        total: 9,
    });
    let e = merge_shards(&[parts[0].clone(), other, parts[2].clone()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("another split"), "{e}");
    // bad --shard values
    for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
}
