//! What is measured: lexical retrieval — our BM25 (paragraf-index) against
//! tantivy on the same documents and the same analyzed queries, in one run:
//! build time, single-query top-10 latency (p50/p99, QPS), multi-thread QPS,
//! and agreement of the top-10 (identical ordered lists, identical sets,
//! mean overlap). tantivy is configured with *our* analyzer (wrapped as a
//! tantivy `Tokenizer`) and gets the identical de-duplicated query terms as a
//! BooleanQuery of SHOULD TermQuerys, so the comparison isolates index and
//! scoring (both use BM25 k1 1.2, b 0.75, one-byte length norms). A second
//! tantivy run with its stock German analyzer (simple tokenizer, lower-case,
//! ASCII folding, German stop words and Snowball stemmer) gives a QPS
//! reference only (different terms, so no overlap figure).
//! Data: (1) the real corpus `../shared/corpus` (or `$PARAGRAF_CORPUS`),
//! parsed with paragraf-corpus's format parsers, one document per unit
//! (Absatz/paragraph ≈ chunk) — `paragraf_corpus::ingest` is used once
//! corpus ingestion lands; (2) the scale archive
//! `scale/gii-all-federal-law.tar.zst`, one document per chunk as
//! `index build --scale` makes them (~164k). Queries: the 40 golden questions of
//! `../shared/eval/golden-dev.jsonl` plus 400 titles of norms sampled with a
//! fixed seed from the corpus at hand.
//! How to run: `cargo bench -p paragraf-benches --bench bm25`
//! (`PARAGRAF_BM25_SCALE=0` skips the scale archive); the report is printed
//! and written to `target/paragraf-bench/bm25.json`. Skips with a message
//! when the corpus is absent.

use criterion::Criterion;
use paragraf_corpus::parsers::{self, SourceFormat};
use paragraf_index::bench::{bm25_bench, parallel_qps, time_queries, LatencyStats, SplitMix64};
use paragraf_index::{Analyzer, Hit, InvertedIndex};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{
    IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, FAST, STORED,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer,
    StopWordFilter, TextAnalyzer, Token, TokenStream, Tokenizer,
};
use tantivy::{doc, Index, IndexWriter, Searcher, TantivyDocument, Term};

const K: usize = 10;

/// Our analyzer as a tantivy tokenizer.
#[derive(Clone)]
struct ParagrafTokenizer(Analyzer);

struct VecStream {
    tokens: Vec<Token>,
    i: usize,
}

impl TokenStream for VecStream {
    fn advance(&mut self) -> bool {
        self.i += 1;
        self.i <= self.tokens.len()
    }
    fn token(&self) -> &Token {
        &self.tokens[self.i - 1]
    }
    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.i - 1]
    }
}

impl Tokenizer for ParagrafTokenizer {
    type TokenStream<'a> = VecStream;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> VecStream {
        let tokens = self
            .0
            .analyze(text)
            .into_iter()
            .enumerate()
            .map(|(i, t)| Token {
                offset_from: 0,
                offset_to: 0,
                position: i,
                text: t,
                position_length: 1,
            })
            .collect();
        VecStream { tokens, i: 0 }
    }
}

fn corpus_root() -> Option<PathBuf> {
    let p = std::env::var("PARAGRAF_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    p.is_dir().then_some(p)
}

fn format_of(rel: &str) -> Option<SourceFormat> {
    let f = rel.rsplit('/').next().unwrap_or(rel);
    Some(match () {
        _ if rel.starts_with("de/gii/") && f.ends_with(".xml") => SourceFormat::GiiXml,
        _ if rel.starts_with("de/superseded/") && f.ends_with(".md") => SourceFormat::SupersededMd,
        _ if rel.starts_with("eu/de/")
            && f.ends_with(".formex.xml")
            && !f.contains("corrigendum") =>
        {
            SourceFormat::Formex
        }
        _ if rel.starts_with("eu/en/") && f.ends_with(".json") => SourceFormat::EuJson,
        _ if rel.starts_with("eu/en-annexes/") && f.ends_with(".json") => SourceFormat::EuAnnexJson,
        _ if rel.starts_with("foreign/ch-") => SourceFormat::ChJson,
        _ if rel.starts_with("foreign/uk-") && !f.contains("metadata") => SourceFormat::UkJson,
        _ if f.ends_with(".oscal.json") => SourceFormat::BsiOscal,
        _ if f.ends_with("controls.tsv") => SourceFormat::NistTsv,
        _ if f.starts_with("nist-sp800-82") => SourceFormat::Nist82Json,
        _ if f.starts_with("owasp-asvs") => SourceFormat::AsvsJson,
        _ => return None,
    })
}

/// One document per unit of every parsable source file; titles for queries.
fn load_corpus(root: &Path) -> (Vec<String>, Vec<String>) {
    let mut files = Vec::new();
    for d in [
        "de/gii",
        "de/superseded",
        "eu/de",
        "eu/en",
        "eu/en-annexes",
        "foreign",
        "controls",
    ] {
        if let Ok(rd) = std::fs::read_dir(root.join(d)) {
            for e in rd.flatten() {
                files.push(format!("{d}/{}", e.file_name().to_string_lossy()));
            }
        }
    }
    files.sort();
    let (mut docs, mut titles) = (Vec::new(), Vec::new());
    for rel in files {
        let Some(fmt) = format_of(&rel) else { continue };
        let Ok(bytes) = std::fs::read(root.join(&rel)) else {
            continue;
        };
        match parsers::parse(fmt, &rel, &bytes) {
            Err(e) => eprintln!("  skipping {rel}: {e}"),
            Ok(norms) => {
                for n in norms {
                    if !n.title.trim().is_empty() {
                        titles.push(n.title.clone());
                    }
                    for u in &n.units {
                        docs.push(format!("{}\n{}", n.title, u.text));
                    }
                }
            }
        }
    }
    (docs, titles)
}

/// One document per chunk of the scale archive (every law, chunked as
/// `index build --scale` chunks it: ~164k), the text a chunk is indexed
/// with (citation, title, text).
fn load_scale(root: &Path) -> Option<(Vec<String>, Vec<String>)> {
    let p = root.join("scale/gii-all-federal-law.tar.zst");
    if !p.is_file() {
        return None;
    }
    let opts = paragraf_corpus::IngestOptions::default();
    let select = paragraf_corpus::scale::ArchiveSelection {
        keep: &|_| true,
        domains: &|_| Vec::new(),
    };
    let (report, chunks, _titles) =
        paragraf_corpus::scale::archive_chunks(&p, &opts, &select).ok()?;
    if report.files_failed > 0 {
        eprintln!(
            "  scale archive: {} files the gii parser refused (skipped)",
            report.files_failed
        );
    }
    let mut titles: Vec<String> = chunks
        .iter()
        .filter(|c| !c.title.trim().is_empty())
        .map(|c| c.title.clone())
        .collect();
    titles.dedup();
    let docs = chunks
        .iter()
        .map(|c| format!("{} – {}\n{}", c.citation, c.title, c.text))
        .collect();
    Some((docs, titles))
}

fn golden_queries() -> Vec<String> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/eval/golden-dev.jsonl");
    std::fs::read_to_string(p)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v.get("query").and_then(|q| q.as_str()).map(str::to_string))
        .collect()
}

fn sample_titles(titles: &[String], n: usize, seed: u64) -> Vec<String> {
    let mut uniq: Vec<&String> = titles
        .iter()
        .filter(|t| t.split_whitespace().count() >= 2)
        .collect();
    uniq.sort();
    uniq.dedup();
    let mut rng = SplitMix64(seed);
    (0..n.min(uniq.len()))
        .map(|_| uniq[(rng.next_u64() % uniq.len() as u64) as usize].clone())
        .collect()
}

struct Tantivy {
    searcher: Searcher,
    field: tantivy::schema::Field,
    id: tantivy::schema::Field,
}

fn build_tantivy(texts: &[&str], analyzer: TextAnalyzer) -> tantivy::Result<Tantivy> {
    let mut sb = Schema::builder();
    let opts = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("bench")
            .set_index_option(IndexRecordOption::WithFreqs),
    );
    let field = sb.add_text_field("text", opts);
    let id = sb.add_u64_field("id", FAST | STORED);
    let index = Index::create_in_ram(sb.build());
    index.tokenizers().register("bench", analyzer);
    let mut w: IndexWriter = index.writer_with_num_threads(1, 1_000_000_000)?;
    for (i, t) in texts.iter().enumerate() {
        w.add_document(doc!(field => *t, id => i as u64))?;
    }
    w.commit()?;
    let ids = index.searchable_segment_ids()?;
    if ids.len() > 1 {
        w.merge(&ids).wait()?;
    }
    w.wait_merging_threads()?;
    let reader = index.reader()?;
    reader.reload()?;
    Ok(Tantivy {
        searcher: reader.searcher(),
        field,
        id,
    })
}

impl Tantivy {
    fn query(&self, terms: &[String]) -> BooleanQuery {
        BooleanQuery::new(
            terms
                .iter()
                .map(|t| {
                    let q: Box<dyn Query> = Box::new(TermQuery::new(
                        Term::from_field_text(self.field, t),
                        IndexRecordOption::WithFreqs,
                    ));
                    (Occur::Should, q)
                })
                .collect(),
        )
    }
    fn search(&self, q: &BooleanQuery) -> Vec<(f32, tantivy::DocAddress)> {
        self.searcher
            .search(q, &TopDocs::with_limit(K))
            .unwrap_or_default()
    }
    fn to_hits(&self, top: &[(f32, tantivy::DocAddress)]) -> Vec<Hit> {
        let mut hits: Vec<Hit> = top
            .iter()
            .filter_map(|(s, a)| {
                let d: TantivyDocument = self.searcher.doc(*a).ok()?;
                let id = d.get_first(self.id)?.as_u64()?;
                Some(Hit {
                    doc: id as u32,
                    score: *s,
                })
            })
            .collect();
        // The same tie rule as ours: score descending, then doc id.
        hits.sort_by(paragraf_index::topk::hit_order);
        hits
    }
}

#[derive(Serialize)]
struct Agreement {
    queries: usize,
    identical_ordered_pct: f64,
    identical_set_pct: f64,
    mean_overlap_at_10: f64,
    max_abs_score_diff: f32,
}

fn agreement(ours: &[Vec<Hit>], theirs: &[Vec<Hit>]) -> Agreement {
    let n = ours.len().max(1) as f64;
    let (mut ordered, mut set, mut overlap, mut maxdiff) = (0usize, 0usize, 0.0f64, 0f32);
    for (a, b) in ours.iter().zip(theirs) {
        let da: Vec<u32> = a.iter().map(|h| h.doc).collect();
        let db: Vec<u32> = b.iter().map(|h| h.doc).collect();
        ordered += usize::from(da == db);
        let (mut sa, mut sb) = (da.clone(), db.clone());
        sa.sort_unstable();
        sb.sort_unstable();
        set += usize::from(sa == sb);
        let common = da.iter().filter(|d| db.contains(d)).count();
        overlap += if da.is_empty() && db.is_empty() {
            1.0
        } else {
            common as f64 / da.len().max(db.len()) as f64
        };
        for h in a {
            if let Some(o) = b.iter().find(|o| o.doc == h.doc) {
                maxdiff = maxdiff.max((o.score - h.score).abs());
            }
        }
    }
    Agreement {
        queries: ours.len(),
        identical_ordered_pct: 100.0 * ordered as f64 / n,
        identical_set_pct: 100.0 * set as f64 / n,
        mean_overlap_at_10: overlap / n,
        max_abs_score_diff: maxdiff,
    }
}

#[derive(Serialize)]
struct Side {
    build_s: f64,
    latency: LatencyStats,
    parallel_qps: f64,
}

#[derive(Serialize)]
struct CorpusReport {
    corpus: String,
    docs: usize,
    queries: usize,
    terms: usize,
    paragraf: Side,
    tantivy_same_analyzer: Side,
    tantivy_stock_german: Side,
    qps_ratio_single: f64,
    qps_ratio_parallel: f64,
    p50_ratio: f64,
    p99_ratio: f64,
    agreement: Agreement,
}

fn run(
    name: &str,
    docs: &[String],
    titles: &[String],
    golden: &[String],
) -> Option<(CorpusReport, InvertedIndex)> {
    let texts: Vec<&str> = docs.iter().map(String::as_str).collect();
    let mut queries: Vec<String> = golden.to_vec();
    queries.extend(sample_titles(titles, 400, 11));
    eprintln!("[{name}] {} docs, {} queries", texts.len(), queries.len());
    let (ours, ix, our_hits) = match bm25_bench(&texts, &queries, K) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("[{name}] skipped: {e}");
            return None;
        }
    };
    let terms: Vec<Vec<String>> = queries.iter().map(|q| ix.query_terms(q)).collect();

    let t = Instant::now();
    let tv = build_tantivy(
        &texts,
        TextAnalyzer::from(ParagrafTokenizer(ix.analyzer().clone())),
    )
    .ok()?;
    let tv_build = t.elapsed().as_secs_f64();
    let tq: Vec<BooleanQuery> = terms.iter().map(|t| tv.query(t)).collect();
    for q in tq.iter().take(20) {
        std::hint::black_box(tv.search(q));
    }
    let (tv_lat, tv_top) = time_queries(&tq, |q| tv.search(q));
    let tv_pqps = parallel_qps(&tq, 3, |q| tv.search(q).len());
    let tv_hits: Vec<Vec<Hit>> = tv_top.iter().map(|t| tv.to_hits(t)).collect();
    let agree = agreement(&our_hits, &tv_hits);

    // tantivy with its stock German analyzer: QPS reference.
    let stock = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(StopWordFilter::new(Language::German).expect("German stop words ship with tantivy"))
        .filter(Stemmer::new(Language::German))
        .build();
    let mut qa = stock.clone();
    let t = Instant::now();
    let ts = build_tantivy(&texts, stock).ok()?;
    let ts_build = t.elapsed().as_secs_f64();
    let sq: Vec<BooleanQuery> = queries
        .iter()
        .map(|q| {
            let mut stream = qa.token_stream(q);
            let mut v: Vec<String> = Vec::new();
            while stream.advance() {
                let t = stream.token().text.clone();
                if !v.contains(&t) {
                    v.push(t);
                }
            }
            ts.query(&v)
        })
        .collect();
    let (ts_lat, _) = time_queries(&sq, |q| ts.search(q));
    let ts_pqps = parallel_qps(&sq, 3, |q| ts.search(q).len());

    let rep = CorpusReport {
        corpus: name.to_string(),
        docs: texts.len(),
        queries: queries.len(),
        terms: ours.terms,
        qps_ratio_single: ours.latency.qps / tv_lat.qps.max(1e-9),
        qps_ratio_parallel: ours.parallel_qps / tv_pqps.max(1e-9),
        p50_ratio: ours.latency.p50_us / tv_lat.p50_us.max(1e-9),
        p99_ratio: ours.latency.p99_us / tv_lat.p99_us.max(1e-9),
        paragraf: Side {
            build_s: ours.build_s,
            latency: ours.latency.clone(),
            parallel_qps: ours.parallel_qps,
        },
        tantivy_same_analyzer: Side {
            build_s: tv_build,
            latency: tv_lat,
            parallel_qps: tv_pqps,
        },
        tantivy_stock_german: Side {
            build_s: ts_build,
            latency: ts_lat,
            parallel_qps: ts_pqps,
        },
        agreement: agree,
    };
    eprintln!(
        "[{name}] paragraf {:.0} QPS (p50 {:.0} µs, p99 {:.0} µs, {:.0} QPS parallel) vs tantivy {:.0} QPS (p50 {:.0} µs, p99 {:.0} µs, {:.0} parallel): ratio {:.2}x single, {:.2}x parallel; identical top-10 {:.1} % (sets {:.1} %, overlap {:.3})",
        rep.paragraf.latency.qps,
        rep.paragraf.latency.p50_us,
        rep.paragraf.latency.p99_us,
        rep.paragraf.parallel_qps,
        rep.tantivy_same_analyzer.latency.qps,
        rep.tantivy_same_analyzer.latency.p50_us,
        rep.tantivy_same_analyzer.latency.p99_us,
        rep.tantivy_same_analyzer.parallel_qps,
        rep.qps_ratio_single,
        rep.qps_ratio_parallel,
        rep.agreement.identical_ordered_pct,
        rep.agreement.identical_set_pct,
        rep.agreement.mean_overlap_at_10
    );
    Some((rep, ix))
}

/// Index directory write + load time for the real corpus texts with
/// synthetic 384-d vectors (the embedder is not part of this crate).
fn persist(
    docs: &[String],
    ix: &InvertedIndex,
    dir: &Path,
) -> Option<paragraf_index::bench::PersistReport> {
    use paragraf_types::{Chunk, ChunkId, Lang};
    let chunks: Vec<Chunk> = docs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let lang = ix.doc_lang(i as u32).unwrap_or(Lang::De);
            let mut c = Chunk::new("BENCH", &format!("§ {i}"), t.clone(), lang, "bench");
            c.id = ChunkId(format!("BENCH/{i}"));
            c.title = t.lines().next().unwrap_or_default().to_string();
            c
        })
        .collect();
    let dim = 384;
    let vectors = paragraf_index::bench::synthetic_vectors(chunks.len(), dim, 64, 200, 3);
    let params = paragraf_index::HnswParams::default();
    match paragraf_index::bench::persist_bench(dir, &chunks, vectors, dim, &params) {
        Ok(r) => {
            eprintln!(
                "[persist] {} chunks x {dim}: dense build {:.1} s, inverted build {:.1} s, write {:.2} s, load {:.3} s, {:.1} MB on disk",
                r.chunks,
                r.dense_build_s,
                r.inverted_build_s,
                r.write_s,
                r.load_s,
                r.bytes as f64 / 1e6
            );
            let _ = std::fs::remove_dir_all(dir);
            Some(r)
        }
        Err(e) => {
            eprintln!("[persist] failed: {e}");
            None
        }
    }
}

fn main() {
    let Some(root) = corpus_root() else {
        eprintln!("skipping: corpus not found (set PARAGRAF_CORPUS)");
        return;
    };
    let golden = golden_queries();
    let mut reports = Vec::new();
    let (docs, titles) = load_corpus(&root);
    let small = run("corpus", &docs, &titles, &golden);
    if std::env::var("PARAGRAF_BM25_SCALE").map_or(true, |v| v != "0") {
        eprintln!("[scale] reading the archive …");
        if let Some((sdocs, stitles)) = load_scale(&root) {
            if let Some((r, _)) = run("scale-chunks", &sdocs, &stitles, &golden) {
                reports.push(r);
            }
        } else {
            eprintln!("[scale] skipped: archive not found");
        }
    }
    let Some((r, ix)) = small else { return };
    reports.insert(0, r);
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/paragraf-bench");
    let persist = persist(&docs, &ix, &target.join("index-load"));
    let json =
        serde_json::to_string_pretty(&serde_json::json!({ "bm25": reports, "persist": persist }))
            .unwrap_or_default();
    if std::fs::create_dir_all(&target).is_ok() {
        let _ = std::fs::write(target.join("bm25.json"), &json);
    }
    println!("{json}");

    // Criterion: one golden query on the real corpus.
    let q = golden
        .first()
        .cloned()
        .unwrap_or_else(|| "Datenschutzbeauftragter benennen".into());
    let mut c = Criterion::default().configure_from_args().sample_size(50);
    c.bench_function("paragraf_bm25_top10_golden1", |b| {
        b.iter(|| ix.bm25(std::hint::black_box(&q), K, None))
    });
    c.final_summary();
}
