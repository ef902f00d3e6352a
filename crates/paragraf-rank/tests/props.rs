//! Property tests of the ranking invariants.

use paragraf_rank::testing::chunk;
use paragraf_rank::{analyze_query, rank, Candidate, Lexicon, QueryAnalysis, RankParams, Stage};
use paragraf_types::{Chunk, Domain, Jurisdiction, SourceClass, SourceRole};
use proptest::prelude::*;

/// A pool of 24 varied chunks (all classes, roles, jurisdictions, a
/// superseded one, a BDSG Teil 3 norm).
fn pool() -> Vec<Chunk> {
    let classes = [
        (SourceClass::BindingLaw, SourceRole::Obligation),
        (SourceClass::BindingLaw, SourceRole::OperationalRequirement),
        (SourceClass::BindingLaw, SourceRole::ProceduralRequirement),
        (SourceClass::Recital, SourceRole::Interpretation),
        (
            SourceClass::OfficialGuidance,
            SourceRole::ImplementationGuidance,
        ),
        (SourceClass::ControlStandard, SourceRole::ControlStandard),
        (
            SourceClass::ControlStandard,
            SourceRole::ImplementationGuidance,
        ),
        (SourceClass::Mapping, SourceRole::ControlStandard),
        (SourceClass::Unknown, SourceRole::ImplementationGuidance),
    ];
    let juris = [
        Jurisdiction::Eu,
        Jurisdiction::De,
        Jurisdiction::Ch,
        Jurisdiction::Int,
        Jurisdiction::Uk,
    ];
    let domains = [
        Domain::DataProtection,
        Domain::Cyber,
        Domain::Ai,
        Domain::ProductSafety,
    ];
    let regs = [
        "DSGVO",
        "BDSG",
        "CRA",
        "NIS2",
        "KI-VO",
        "revDSG",
        "ENISA",
        "NIST SP 800-53",
    ];
    let mut v: Vec<Chunk> = (0..22)
        .map(|i| {
            let (c, r) = classes[i % classes.len()];
            let reg = regs[i % regs.len()];
            let norm = if reg == "BDSG" {
                format!("§ {}", 40 + i)
            } else {
                format!("Art. {}", i + 1)
            };
            chunk(reg, &norm)
                .class(c, r)
                .juris(juris[i % juris.len()])
                .domains(&[domains[i % domains.len()]])
                .build()
        })
        .collect();
    v.push(
        chunk("BDSG 1990", "§ 4f")
            .superseded("BDSG", Some("1991-06-01"), "2018-05-24")
            .build(),
    );
    v.push(
        chunk("DSGVO", "Art. 37")
            .domains(&[Domain::DataProtection])
            .build(),
    );
    v
}

const QUERIES: [&str; 6] = [
    "Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?",
    "Welche Controls schützen eine SCADA-Anlage vor Angriffen?",
    "Was empfiehlt die ENISA zur Meldung von Sicherheitsvorfällen?",
    "Was verlangte das BDSG a. F. vom betrieblichen Datenschutzbeauftragten?",
    "Welche Auskunftsrechte bestehen gegenüber der Polizei?",
    "Braucht ein Schweizer Spital nach dem revDSG eine DSFA?",
];

#[derive(Debug, Clone)]
struct Spec {
    idx: usize,
    dense: Option<f32>,
    lexical: Option<f32>,
    sparse: Option<f32>,
    exact: bool,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        0usize..24,
        proptest::option::of(prop_oneof![
            -1.0f32..1.0f32,
            Just(f32::NAN),
            Just(f32::INFINITY)
        ]),
        proptest::option::of(0.0f32..40.0f32),
        proptest::option::of(0.0f32..1.0f32),
        proptest::bool::weighted(0.05),
    )
        .prop_map(|(idx, dense, lexical, sparse, exact)| Spec {
            idx,
            dense,
            lexical,
            sparse,
            exact,
        })
}

fn cands<'a>(pool: &'a [Chunk], specs: &[Spec]) -> Vec<Candidate<'a>> {
    specs
        .iter()
        .map(|s| Candidate {
            chunk: &pool[s.idx],
            dense: s.dense,
            lexical: s.lexical,
            sparse: s.sparse,
            heading: None,
            exact: s.exact,
            pairs: None,
        })
        .collect()
}

fn analysis(i: usize) -> QueryAnalysis {
    analyze_query(QUERIES[i % QUERIES.len()], &[], Lexicon::builtin())
}

fn stage(i: usize) -> Stage {
    Stage::ALL[i % Stage::ALL.len()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn input_order_does_not_change_output(
        specs in proptest::collection::vec(spec(), 0..40),
        qi in 0usize..6, si in 0usize..5, k in 1usize..12,
        perm in any::<proptest::sample::Index>(),
    ) {
        let p = pool();
        let qa = analysis(qi);
        let a = cands(&p, &specs);
        let mut b = a.clone();
        b.reverse();
        let rot = perm.index(b.len().max(1));
        if !b.is_empty() { b.rotate_left(rot); }
        let ra = rank(&qa, &a, &RankParams::default(), stage(si), k);
        let rb = rank(&qa, &b, &RankParams::default(), stage(si), k);
        prop_assert_eq!(ra, rb);
    }

    #[test]
    fn scores_are_finite_and_sum_of_terms(
        specs in proptest::collection::vec(spec(), 0..40),
        qi in 0usize..6, si in 0usize..5, k in 1usize..30,
    ) {
        let p = pool();
        let r = rank(&analysis(qi), &cands(&p, &specs), &RankParams::default(), stage(si), k);
        prop_assert!(r.len() <= k);
        for (i, x) in r.iter().enumerate() {
            prop_assert!(x.score.is_finite() && x.raw_semantic.is_finite());
            prop_assert!((0.0..=1.0).contains(&x.raw_semantic));
            prop_assert_eq!(x.rank, i + 1);
            let sum: f64 = x.explanation.iter().map(|t| t.value).sum();
            prop_assert!((sum - x.score).abs() < 1e-9);
        }
        let ids: std::collections::BTreeSet<_> = r.iter().map(|x| &x.chunk_id).collect();
        prop_assert_eq!(ids.len(), r.len(), "no duplicates");
    }

    #[test]
    fn top_k_never_loses_binding_law(
        specs in proptest::collection::vec(spec(), 1..40),
        qi in 0usize..6, k in 1usize..12,
    ) {
        let p = pool();
        let qa = analysis(qi);
        let c = cands(&p, &specs);
        // the full sorted list (top_k = everything: diversity has nothing below the top-K)
        let all = rank(&qa, &c, &RankParams::default(), Stage::Full, usize::MAX);
        let top = rank(&qa, &c, &RankParams::default(), Stage::Full, k);
        for b in all.iter().take(k).filter(|x| x.source_class == SourceClass::BindingLaw) {
            prop_assert!(top.iter().any(|x| x.chunk_id == b.chunk_id), "{} lost", b.chunk_id);
        }
        // only implementation guidance is ever displaced
        for d in all.iter().take(k).filter(|x| !top.iter().any(|t| t.chunk_id == x.chunk_id)) {
            prop_assert_eq!(d.source_role, SourceRole::ImplementationGuidance);
        }
    }

    #[test]
    fn same_input_same_output(
        specs in proptest::collection::vec(spec(), 0..40),
        qi in 0usize..6, si in 0usize..5, k in 1usize..12,
    ) {
        let p = pool();
        let qa = analysis(qi);
        let c = cands(&p, &specs);
        let a = rank(&qa, &c, &RankParams::default(), stage(si), k);
        let b = rank(&qa, &c, &RankParams::default(), stage(si), k);
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    }

    #[test]
    fn analyze_query_never_panics(s in "\\PC{0,200}") {
        let q = analyze_query(&s, &[], Lexicon::builtin());
        prop_assert!(!q.jurisdictions.is_empty());
    }
}
