//! What is measured: the whole rank stage for one query — fusion, authority
//! rerank (02), control roles + diversity (05), supersede (08) and the
//! assessment (06) — on 200 candidates, once for a legal question and once
//! under control intent.
//! Data: the realistic 200-candidate fixture of `paragraf_rank::testing`
//! (mixed classes, roles, jurisdictions, superseded sources; no model).
//! How to run: `cargo bench -p paragraf-benches --bench rank`.
//! Target (issue 5): under 200 µs per query on the 2-core CI machine.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use paragraf_rank::testing::{fixture_candidates, fixture_chunks};
use paragraf_rank::{analyze_query, assess, rank, Lexicon, RankParams, Stage};

fn bench_rank(c: &mut Criterion) {
    let chunks = fixture_chunks(200);
    let cands = fixture_candidates(&chunks);
    let params = RankParams::default();
    let lex = Lexicon::builtin();
    let legal = analyze_query(
        "Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?",
        &[],
        lex,
    );
    let control = analyze_query(
        "Wie härten wir die Fernwartungszugänge unserer Produktionsanlagen ab?",
        &[],
        lex,
    );
    let by_id: std::collections::HashMap<_, _> = chunks.iter().map(|c| (c.id.clone(), c)).collect();
    let chunk_of = |id: &paragraf_types::ChunkId| by_id.get(id).copied();

    let mut g = c.benchmark_group("rank_200_candidates");
    for (name, q) in [("legal_question", &legal), ("control_intent", &control)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let results = rank(black_box(q), black_box(&cands), &params, Stage::Full, 10);
                let a = assess(q, &results, &chunk_of, &[], &[], &params);
                black_box((results, a))
            })
        });
    }
    g.finish();

    c.bench_function("analyze_query", |b| {
        b.iter(|| analyze_query(black_box("Welche Fristen gelten nach NIS2 für die Frühwarnung und den Abschlussbericht nach einem Cyberangriff?"), &[], lex))
    });
}

criterion_group!(benches, bench_rank);
criterion_main!(benches);
