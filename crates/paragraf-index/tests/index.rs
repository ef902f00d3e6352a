//! Integration tests: persistence round trip, corruption and truncation,
//! bad input, filters, determinism, BM25 / sparse scoring, HNSW recall.

use paragraf_index::bench::{recall_at_k, synthetic_vectors, SplitMix64};
use paragraf_index::*;
use paragraf_types::{Chunk, Jurisdiction, Lang, SourceClass, SourceRole, Status};
use std::path::Path;

#[derive(serde::Deserialize)]
struct Fx {
    regulation: String,
    norm: String,
    lang: Lang,
    jurisdiction: Jurisdiction,
    class: SourceClass,
    role: SourceRole,
    status: Status,
    text: String,
}

fn fixture_chunks() -> Vec<Chunk> {
    let raw = include_str!("fixtures/chunks.jsonl");
    raw.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Fx = serde_json::from_str(l).unwrap();
            let mut c = Chunk::new(&f.regulation, &f.norm, f.text, f.lang, "fixture");
            c.jurisdiction = f.jurisdiction;
            c.source_class = f.class;
            c.source_role = f.role;
            c.status = f.status;
            c
        })
        .collect()
}

/// Deterministic pseudo-embeddings for the fixture (no model in this crate).
fn vectors(n: usize, dim: usize, seed: u64) -> Vec<f32> {
    let mut r = SplitMix64(seed);
    (0..n * dim).map(|_| r.normal()).collect()
}

fn meta(dim: usize) -> EmbedderMeta {
    EmbedderMeta {
        name: "test-embedder".into(),
        revision: "r1".into(),
        dim,
        dtype: "f32".into(),
    }
}

struct Built {
    chunks: Vec<Chunk>,
    dense: DenseIndex,
    inverted: InvertedIndex,
    manifest: IndexManifest,
    headings: HeadingVectors,
}

fn build(graph: bool, dtype: VectorDtype) -> Built {
    let chunks = fixture_chunks();
    let dim = 16;
    let params = HnswParams {
        exact_below: if graph { 1 } else { 1000 },
        m: 8,
        ef_construction: 32,
        ..HnswParams::default()
    };
    let dense = DenseIndex::build(vectors(chunks.len(), dim, 7), dim, &params).unwrap();
    let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
    let langs: Vec<Lang> = chunks.iter().map(|c| c.lang).collect();
    let sparse: Vec<Vec<(u32, f32)>> = (0..chunks.len())
        .map(|i| vec![(i as u32 % 3, 1.0 + i as f32)])
        .collect();
    let inverted = InvertedIndex::build_with_langs(
        &texts,
        Some(&langs),
        Some(&sparse),
        &AnalyzerConfig::default(),
    )
    .unwrap();
    let mut manifest = IndexManifest::new(
        corpus_hash(&chunks),
        meta(dim),
        AnalyzerConfig::default(),
        params,
    );
    manifest.vector_dtype = dtype;
    let entries: Vec<HeadingEntry> = chunks
        .iter()
        .take(3)
        .map(|c| HeadingEntry {
            norm: c.norm_ref().0,
            lang: c.lang,
            text: format!("{} – heading", c.citation),
        })
        .collect();
    let headings = HeadingVectors::new(entries, vectors(3, dim, 11), dim).unwrap();
    Built {
        chunks,
        dense,
        inverted,
        manifest,
        headings,
    }
}

fn write(b: &Built, dir: &Path) -> IndexManifest {
    let extras = CorpusExtras::default();
    write_index(
        dir,
        &b.manifest,
        &b.chunks,
        &extras,
        &b.dense,
        &b.inverted,
        &b.headings,
    )
    .unwrap()
}

#[test]
fn round_trip_save_load_equality() {
    for graph in [false, true] {
        let b = build(graph, VectorDtype::F32);
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("idx");
        let m = write(&b, &dir);
        let l = open_index(&dir, Some(&meta(16))).unwrap();
        assert_eq!(l.manifest, m);
        assert_eq!(l.chunks, b.chunks);
        assert_eq!(l.dense.vectors(), b.dense.vectors());
        assert_eq!(l.dense.has_graph(), graph);
        assert!(l.inverted == b.inverted);
        assert_eq!(l.headings, b.headings);
        assert_eq!(m.counts.headings, 3);
        // the bulk data is read in place from the mapped files, a built
        // index holds it in memory
        let le = cfg!(target_endian = "little");
        assert_eq!(l.dense.vectors_mapped(), le);
        assert_eq!(l.inverted.postings_mapped(), le);
        assert_eq!(l.headings.vectors_mapped(), le);
        assert!(!b.dense.vectors_mapped() && !b.inverted.postings_mapped());
        let mut regs: Vec<String> = b.chunks.iter().map(|c| c.regulation.clone()).collect();
        regs.sort();
        regs.dedup();
        assert_eq!(
            m.regulations, regs,
            "the manifest names the covered regulations"
        );
        assert_eq!(m.counts.chunks, b.chunks.len());
        assert_eq!(m.counts.hnsw_graph, graph);
        let q = b.dense.vector(3).to_vec();
        assert_eq!(l.dense.search(&q, 5, None), b.dense.search(&q, 5, None));
        assert_eq!(l.dense.search(&q, 1, None)[0].doc, 3);
        assert_eq!(
            l.inverted.bm25("Datenschutzbeauftragter benennen", 5, None),
            b.inverted.bm25("Datenschutzbeauftragter benennen", 5, None)
        );
        assert_eq!(
            l.inverted.sparse(&[(1, 1.0)], 5, None),
            b.inverted.sparse(&[(1, 1.0)], 5, None)
        );
        // No temp directory left behind.
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
        assert_eq!(left.len(), 1);
    }
}

#[test]
fn an_index_with_the_json_chunk_store_still_opens() {
    use sha2::Digest;
    let b = build(false, VectorDtype::F32);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("idx");
    write(&b, &dir);
    // turn the directory into the layout of an index built before chunks.bin
    std::fs::remove_file(dir.join("chunks.bin")).unwrap();
    let json = serde_json::to_vec(&b.chunks).unwrap();
    std::fs::write(dir.join("chunks.json"), &json).unwrap();
    let mpath = dir.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&mpath).unwrap()).unwrap();
    let files = m["files"].as_object_mut().unwrap();
    files.remove("chunks.bin").unwrap();
    files.insert(
        "chunks.json".into(),
        serde_json::json!({"bytes": json.len(), "sha256": hex::encode(sha2::Sha256::digest(&json))}),
    );
    std::fs::write(&mpath, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    let l = open_index(&dir, None).unwrap();
    assert_eq!(l.chunks, b.chunks);
    // a manifest that lists neither store is refused, naming the file
    let files = m["files"].as_object_mut().unwrap();
    files.remove("chunks.json").unwrap();
    std::fs::write(&mpath, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    let e = open_index(&dir, None).err().unwrap().to_string();
    assert!(e.contains("chunks.bin"), "{e}");
}

#[test]
fn f16_vectors_round_trip_within_tolerance() {
    let b = build(false, VectorDtype::F16);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("idx");
    write(&b, &dir);
    let l = open_index(&dir, None).unwrap();
    assert!(
        !l.dense.vectors_mapped(),
        "f16 rows are widened into memory"
    );
    for d in 0..b.chunks.len() as u32 {
        let c: f32 = l
            .dense
            .vector(d)
            .iter()
            .zip(b.dense.vector(d))
            .map(|(x, y)| x * y)
            .sum();
        assert!(c > 0.999, "doc {d}: cosine {c}");
    }
}

#[test]
fn rewrite_replaces_existing_index() {
    let b = build(false, VectorDtype::F32);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("idx");
    write(&b, &dir);
    let m2 = write(&b, &dir);
    assert_eq!(open_index(&dir, None).unwrap().manifest, m2);
}

#[test]
fn flipped_byte_in_any_file_is_refused() {
    let b = build(true, VectorDtype::F32);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("idx");
    let m = write(&b, &dir);
    assert!(m.files.len() >= 6, "{:?}", m.files.keys());
    for name in m.files.keys() {
        let p = dir.join(name);
        let orig = std::fs::read(&p).unwrap();
        let mut bad = orig.clone();
        let i = bad.len() / 2;
        bad[i] ^= 0x01;
        std::fs::write(&p, &bad).unwrap();
        let err = open_index(&dir, None)
            .err()
            .expect("corrupt index must be refused");
        let msg = err.to_string();
        assert!(matches!(err, IndexError::Corrupt { .. }), "{msg}");
        assert!(
            msg.contains(name.as_str()) && msg.contains("sha256"),
            "{msg}"
        );
        std::fs::write(&p, &orig).unwrap();
    }
    open_index(&dir, None).unwrap();
}

#[test]
fn truncated_file_is_refused() {
    let b = build(true, VectorDtype::F32);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("idx");
    write(&b, &dir);
    let p = dir.join("inverted.bin");
    let data = std::fs::read(&p).unwrap();
    std::fs::write(&p, &data[..data.len() - 10]).unwrap();
    let msg = open_index(&dir, None).err().unwrap().to_string();
    assert!(
        msg.contains("inverted.bin") && msg.contains("truncated"),
        "{msg}"
    );
    // Decoding a truncated buffer directly errors, never panics.
    for cut in [0, 7, 8, 20, data.len() / 2, data.len() - 1] {
        assert!(InvertedIndex::from_bytes(&data[..cut]).is_err());
    }
}

#[test]
fn half_written_other_embedder_and_format_refused() {
    let b = build(false, VectorDtype::F32);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("idx");
    write(&b, &dir);
    // Other embedder.
    let mut other = meta(16);
    other.name = "bge-m3".into();
    let msg = open_index(&dir, Some(&other)).err().unwrap().to_string();
    assert!(
        msg.contains("test-embedder") && msg.contains("paragraf index build --embedder bge-m3"),
        "{msg}"
    );
    // Other format version.
    let mp = dir.join("manifest.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&mp).unwrap()).unwrap();
    v["format_version"] = serde_json::json!(999);
    std::fs::write(&mp, serde_json::to_vec(&v).unwrap()).unwrap();
    let msg = open_index(&dir, None).err().unwrap().to_string();
    assert!(
        msg.contains("format version 999") && msg.contains("rebuild"),
        "{msg}"
    );
    // No manifest (a half-written directory) → not an index.
    std::fs::remove_file(&mp).unwrap();
    let msg = open_index(&dir, None).err().unwrap().to_string();
    assert!(msg.contains("manifest.json missing"), "{msg}");
}

#[test]
fn bad_input_gives_errors_not_panics() {
    let p = HnswParams::default();
    assert!(matches!(
        DenseIndex::build(vec![], 4, &p),
        Err(IndexError::Empty(_))
    ));
    assert!(matches!(
        DenseIndex::build(vec![1.0; 10], 4, &p),
        Err(IndexError::DimMismatch { .. })
    ));
    assert!(matches!(
        DenseIndex::build(vec![f32::NAN; 8], 4, &p),
        Err(IndexError::InvalidInput(_))
    ));
    let bad = HnswParams {
        m: 300,
        ..p.clone()
    };
    let e = DenseIndex::build(vec![1.0; 8], 4, &bad).unwrap_err();
    assert!(e.to_string().contains("hnsw.m"), "{e}");
    assert!(matches!(
        InvertedIndex::build(&[], None, &AnalyzerConfig::default()),
        Err(IndexError::Empty(_))
    ));
    let e = InvertedIndex::build(&["a b"], Some(&[]), &AnalyzerConfig::default()).unwrap_err();
    assert!(e.to_string().contains("sparse"), "{e}");
    // Query of the wrong dimension.
    let d = DenseIndex::build(vec![1.0; 8], 4, &p).unwrap();
    assert!(d.search(&[1.0; 3], 5, None).is_empty());
    assert!(matches!(
        d.try_search(&[1.0; 3], 5, None),
        Err(IndexError::DimMismatch { .. })
    ));
    // Chunk / vector count mismatch and an unwritable target, with the path in the message.
    let b = build(false, VectorDtype::F32);
    let tmp = tempfile::tempdir().unwrap();
    let e = write_index(
        &tmp.path().join("x"),
        &b.manifest,
        &b.chunks[..2],
        &CorpusExtras::default(),
        &b.dense,
        &b.inverted,
        &b.headings,
    )
    .unwrap_err();
    assert!(e.to_string().contains("2 chunks"), "{e}");
    let file = tmp.path().join("plainfile");
    std::fs::write(&file, b"x").unwrap();
    let e = write_index(
        &file.join("idx"),
        &b.manifest,
        &b.chunks,
        &CorpusExtras::default(),
        &b.dense,
        &b.inverted,
        &b.headings,
    )
    .unwrap_err();
    assert!(e.to_string().contains("plainfile"), "{e}");
    // Mismatched embedder dim.
    let mut m = b.manifest.clone();
    m.embedder.dim = 32;
    let e = write_index(
        &tmp.path().join("y"),
        &m,
        &b.chunks,
        &CorpusExtras::default(),
        &b.dense,
        &b.inverted,
        &b.headings,
    )
    .unwrap_err();
    assert!(matches!(e, IndexError::DimMismatch { .. }), "{e}");
}

#[test]
fn filters_apply_to_every_search() {
    let b = build(true, VectorDtype::F32);
    let f = Filter {
        langs: vec![Lang::En],
        ..Filter::default()
    };
    let pred = f.predicate(&b.chunks).unwrap();
    let q = b.dense.vector(0).to_vec();
    let hits = b.dense.search(&q, 10, Some(&pred));
    let exact = b.dense.search_exact(&q, 10, Some(&pred));
    assert_eq!(hits, exact);
    assert_eq!(hits.len(), 3);
    assert!(hits
        .iter()
        .all(|h| b.chunks[h.doc as usize].lang == Lang::En));
    let bm = b
        .inverted
        .bm25("personal data breach controller", 10, Some(&pred));
    assert!(!bm.is_empty() && bm.iter().all(|h| b.chunks[h.doc as usize].lang == Lang::En));
    let f2 = Filter {
        statuses: vec![Status::Superseded],
        regulations: vec!["BDSG 1990".into()],
        ..Filter::default()
    };
    assert!(f2.matches(&b.chunks[3]) && !f2.matches(&b.chunks[2]));
    assert!(Filter::default().is_empty() && Filter::default().predicate(&b.chunks).is_none());
}

#[test]
fn bm25_finds_compounds_and_paragraphs() {
    let b = build(false, VectorDtype::F32);
    // Query with the compound finds the BDSG 1990 text that says "Beauftragten für den Datenschutz".
    let hits = b.inverted.bm25("Datenschutzbeauftragter", 10, None);
    let docs: Vec<u32> = hits.iter().map(|h| h.doc).collect();
    assert!(
        docs.contains(&0) && docs.contains(&2) && docs.contains(&3),
        "{docs:?}"
    );
    // "Artikel 37" in § 38 BDSG matches the query "Art. 37".
    assert_eq!(b.inverted.bm25("Art. 37", 10, None)[0].doc, 2);
    // English query analyzed as English.
    assert_eq!(
        b.inverted
            .bm25("notify the supervisory authority of a breach", 1, None)[0]
            .doc,
        5
    );
}

#[test]
fn bm25_matches_hand_computed_scores() {
    let cfg = AnalyzerConfig {
        stem: false,
        stopwords: false,
        decompound: false,
        bm25: Bm25Params {
            quantize_doc_len: false,
            ..Bm25Params::default()
        },
        ..AnalyzerConfig::default()
    };
    let texts = [
        "apple banana",
        "apple apple cherry",
        "cherry date elder fig",
    ];
    let ix = InvertedIndex::build(&texts, None, &cfg).unwrap();
    let hits = ix.bm25("apple", 10, None);
    // idf = ln(1 + (3 − 2 + 0.5)/(2 + 0.5)) = ln 1.6; avgdl = 3; k1 = 1.2, b = 0.75.
    // d1: tf 2, |d| 3: ln1.6 · 2.2 · 2/(2 + 1.2)            = 0.6462550
    // d0: tf 1, |d| 2: ln1.6 · 2.2 · 1/(1 + 1.2·(0.25+0.5)) = 0.5442147
    assert_eq!(hits.len(), 2);
    assert_eq!(hits[0].doc, 1);
    assert!((hits[0].score - 0.646_255).abs() < 1e-5, "{hits:?}");
    assert_eq!(hits[1].doc, 0);
    assert!((hits[1].score - 0.544_215).abs() < 1e-5, "{hits:?}");
    assert!(ix.bm25("kiwi", 10, None).is_empty());
    // postings of a term, all or up to a document
    assert_eq!(ix.docs("cherry"), vec![1, 2]);
    assert_eq!(ix.docs_below("cherry", 2), vec![1]);
    assert!(ix.docs_below("cherry", 1).is_empty());
    assert!(ix.docs("kiwi").is_empty());
    // a term's weight scales its contribution: an expansion term at 0.5
    // adds half of what it adds as a question's own term
    let w = ix.bm25_weighted_each(&[("apple", 1.0), ("cherry", 0.5)], &[(10, None)]);
    let own = ix.bm25_terms_each(&["apple".into(), "cherry".into()], &[(10, None)]);
    let cherry = ix.bm25("cherry", 10, None);
    let of = |hits: &[paragraf_index::Hit], d: u32| hits.iter().find(|h| h.doc == d).unwrap().score;
    let c1 = of(&cherry, 1);
    assert!(
        (of(&w[0], 1) - (0.646_255 + 0.5 * c1)).abs() < 1e-5,
        "{w:?}"
    );
    assert!((of(&own[0], 1) - (0.646_255 + c1)).abs() < 1e-5, "{own:?}");
    assert!((of(&w[0], 2) - 0.5 * of(&cherry, 2)).abs() < 1e-6);
}

#[test]
fn sparse_dot_product_scoring() {
    let texts = ["eins", "zwei", "drei"];
    let sp = vec![vec![(5, 1.0), (7, 0.5)], vec![(5, 0.25)], vec![(9, 2.0)]];
    let ix = InvertedIndex::build(&texts, Some(&sp), &AnalyzerConfig::default()).unwrap();
    let hits = ix.sparse(&[(5, 2.0), (9, 0.5)], 10, None);
    let got: Vec<(u32, f32)> = hits.iter().map(|h| (h.doc, h.score)).collect();
    assert_eq!(got, vec![(0, 2.0), (2, 1.0), (1, 0.5)]);
    // Duplicate query tokens add up; k truncates.
    assert_eq!(
        ix.sparse(&[(7, 1.0), (7, 1.0)], 1, None),
        vec![Hit { doc: 0, score: 1.0 }]
    );
    let no = InvertedIndex::build(&texts, None, &AnalyzerConfig::default()).unwrap();
    assert!(no.sparse(&[(5, 1.0)], 10, None).is_empty());
}

#[test]
fn ties_are_broken_by_doc_id() {
    let texts = [
        "gleicher text hier",
        "anderes wort",
        "gleicher text hier",
        "gleicher text hier",
    ];
    let ix = InvertedIndex::build(&texts, None, &AnalyzerConfig::default()).unwrap();
    let hits = ix.bm25("gleicher Text", 10, None);
    assert_eq!(
        hits.iter().map(|h| h.doc).collect::<Vec<_>>(),
        vec![0, 2, 3]
    );
    assert!(hits[0].score == hits[1].score && hits[1].score == hits[2].score);
    // Same for dense: identical vectors.
    let v = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0];
    let d = DenseIndex::build(v.to_vec(), 3, &HnswParams::default()).unwrap();
    let hits = d.search(&[1.0, 0.0, 0.0], 3, None);
    assert_eq!(
        hits.iter().map(|h| h.doc).collect::<Vec<_>>(),
        vec![0, 1, 3]
    );
    // Repeated searches give the same order.
    for _ in 0..5 {
        assert_eq!(
            ix.bm25("gleicher Text", 10, None),
            ix.bm25("gleicher Text", 10, None)
        );
    }
}

#[test]
fn hnsw_recall_against_exact_on_5k_by_64() {
    let (n, dim, nq, k) = (5_000, 64, 200, 10);
    let base = synthetic_vectors(n, dim, 16, 50, 42);
    let queries = synthetic_vectors(nq, dim, 16, 50, 4242);
    let params = HnswParams {
        exact_below: 100,
        ..HnswParams::default()
    };
    let idx = DenseIndex::build(base, dim, &params).unwrap();
    assert!(idx.has_graph());
    let mut recall = 0.0;
    for q in queries.chunks_exact(dim) {
        let truth = idx.search_exact(q, k, None);
        let got = idx.search(q, k, None);
        recall += recall_at_k(&truth, &got, k);
    }
    recall /= nq as f64;
    assert!(recall >= 0.95, "recall@10 = {recall}");
    // Filtered search (half the docs) loses nothing against exact filtered search.
    let even = |d: u32| d.is_multiple_of(2);
    let mut fr = 0.0;
    for q in queries.chunks_exact(dim).take(50) {
        let truth = idx.search_exact(q, k, Some(&even));
        let got = idx.search(q, k, Some(&even));
        assert!(got.iter().all(|h| h.doc.is_multiple_of(2)));
        fr += recall_at_k(&truth, &got, k);
    }
    assert!(fr / 50.0 >= 0.95, "filtered recall {}", fr / 50.0);
    // Selective filter → exact on the admitted set.
    let rare = |d: u32| d.is_multiple_of(100);
    let q = &queries[..dim];
    assert_eq!(
        idx.search(q, k, Some(&rare)),
        idx.search_exact(q, k, Some(&rare))
    );
}

#[test]
fn the_same_vectors_give_the_same_graph() {
    // approximate search, but the same approximation on every build: a
    // rebuilt index ranks exactly as the one it replaces
    let (n, dim, k) = (3_000, 32, 10);
    let base = synthetic_vectors(n, dim, 8, 40, 7);
    let queries = synthetic_vectors(100, dim, 8, 40, 77);
    let params = HnswParams {
        exact_below: 100,
        ef_search: 16,
        ..HnswParams::default()
    };
    let a = DenseIndex::build(base.clone(), dim, &params).unwrap();
    let b = DenseIndex::build(base, dim, &params).unwrap();
    assert!(a.has_graph() && b.has_graph());
    for q in queries.chunks_exact(dim) {
        assert_eq!(a.search(q, k, None), b.search(q, k, None));
    }
}

/// Norm BM25: a group (a norm's chunks) whose documents together hold every
/// question word outranks a group whose one document repeats one word; a
/// word found in every group weighs nothing; documents outside any group
/// (`u32::MAX`) are left out.
#[test]
fn grouped_bm25_scores_a_norm_by_all_its_chunks() {
    let texts = [
        "Der Verantwortliche führt ein Verzeichnis.", // group 0
        "Das Verzeichnis enthält die Zwecke der Verarbeitung.", // group 0
        "Verzeichnis Verzeichnis Verzeichnis der Aufsichtsbehörde", // group 1
        "Die Aufsichtsbehörde prüft die Verarbeitung.", // group 2
        "Zwecke Zwecke Zwecke Verantwortliche",       // no group
    ];
    let langs = vec![Lang::De; texts.len()];
    let inv =
        InvertedIndex::build_with_langs(&texts, Some(&langs), None, &AnalyzerConfig::default())
            .unwrap();
    let group_of = [0, 0, 1, 2, u32::MAX];
    let k = inv.group_k(&group_of, 3);
    assert_eq!(k.len(), 3);
    // group 0 is longer than the average group: its `k` is the largest
    assert!(k[0] > k[1] && k[0] > k[2], "{k:?}");
    let terms = inv.query_terms("Verantwortliche Verzeichnis Zwecke");
    let weighted: Vec<(&str, f32)> = terms.iter().map(|t| (t.as_str(), 1.0)).collect();
    let s = inv.bm25_grouped(&weighted, &group_of, &k);
    assert_eq!(s.len(), 3);
    assert!(s[0] > s[1] && s[1] > 0.0, "{s:?}");
    assert_eq!(s[2], 0.0, "{s:?}");
    // a weight scales a term's contribution
    let half: Vec<(&str, f32)> = terms.iter().map(|t| (t.as_str(), 0.5)).collect();
    let h = inv.bm25_grouped(&half, &group_of, &k);
    assert!((h[0] - s[0] / 2.0).abs() < 1e-4, "{h:?} {s:?}");
    // no groups: no scores
    assert!(inv.bm25_grouped(&weighted, &group_of, &[]).is_empty());
}
