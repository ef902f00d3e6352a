//! What is measured: ingestion throughput — parsing the official files,
//! manifest metadata, chunking, reference extraction and the norm graph.
//! Data: `../shared/corpus` (or `$PARAGRAF_CORPUS`); the group is skipped with
//! a message when the corpus is absent. The 94k-§ scale archive is measured
//! by `paragraf corpus ingest --bench` (one pass takes too long for criterion
//! sampling).
//! How to run: `cargo bench -p paragraf-benches --bench ingest`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use paragraf_corpus::{ingest, IngestOptions};
use std::path::PathBuf;

fn corpus_dir() -> Option<PathBuf> {
    let p = std::env::var_os("PARAGRAF_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus"))
        });
    p.is_dir().then_some(p)
}

fn dir_bytes(p: &std::path::Path) -> u64 {
    let mut n = 0;
    if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            let path = e.path();
            if path.is_dir() {
                if path
                    .file_name()
                    .is_some_and(|f| f == "scale" || f == "eval")
                {
                    continue;
                }
                n += dir_bytes(&path);
            } else if let Ok(m) = e.metadata() {
                n += m.len();
            }
        }
    }
    n
}

fn bench_ingest(c: &mut Criterion) {
    let Some(dir) = corpus_dir() else {
        eprintln!("skipping ingest bench: corpus not found (set PARAGRAF_CORPUS)");
        return;
    };
    let mut g = c.benchmark_group("ingest");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(dir_bytes(&dir)));
    g.bench_function("shared_corpus", |b| {
        b.iter(|| ingest(&dir, &IngestOptions::default(), None).expect("ingest"))
    });
    g.finish();
}

criterion_group!(benches, bench_ingest);
criterion_main!(benches);
