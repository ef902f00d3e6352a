//! `paragraf eval --golden FILE`, `paragraf eval legalquad`, `--compare A B`.

use super::{default_answer_model, device, home, open_engine, registry, resolve_opts};
use crate::cli::{EvalArgs, Global};
use anyhow::{Context, Result};
use paragraf_engine::{AskOptions, Engine, SearchOptions};
use paragraf_eval::{compare, load_golden, run_eval, EvalOutput, EvalReport, RunConfig, Searcher};
use paragraf_models::{load_embedder, select_device, TextKind};
use paragraf_rank::{analyze_query, rank, Candidate, Lexicon, Stage};
use std::collections::HashMap;
use std::path::PathBuf;

/// The analysis keys the golden `expect` checks read.
pub fn analysis_json(a: &paragraf_rank::QueryAnalysis) -> serde_json::Value {
    let mut v = serde_json::to_value(a).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        let juris: Vec<String> = a.jurisdictions.iter().map(|j| j.to_string()).collect();
        // the jurisdiction the question is about: the named non-home one, else DE/EU
        let named = a
            .jurisdictions
            .iter()
            .find(|j| !j.is_home())
            .map(|j| j.to_string());
        o.insert(
            "jurisdiction".into(),
            serde_json::json!(named.unwrap_or_else(|| juris.first().cloned().unwrap_or_default())),
        );
        o.insert("jurisdictions".into(), serde_json::json!(juris));
        o.insert(
            "scope".into(),
            serde_json::json!(if a.law_enforcement {
                "law_enforcement"
            } else {
                "general"
            }),
        );
    }
    v
}

struct EngineSearcher<'a> {
    engine: &'a Engine,
    top_k: usize,
    generate: Option<String>,
    /// Answer with the model-free extractive answer.
    extractive: bool,
}

/// Ablation stage name: the full pipeline without the hand-written topics.
const NO_HAND_TOPICS: &str = "full-no-topics";

impl Searcher for EngineSearcher<'_> {
    fn search(&self, query: &str, stage: &str) -> Result<EvalOutput, String> {
        // `full-no-topics`: the full pipeline with the hand-written lexicon
        // topics off (headings, defined terms and retrieval only)
        let (stage, hand_topics) = match stage {
            NO_HAND_TOPICS => (Stage::Full, false),
            s => (super::parse_stage(s).map_err(|e| e.to_string())?, true),
        };
        let opts = SearchOptions {
            top_k: self.top_k,
            stage,
            hand_topics,
            ..SearchOptions::default()
        };
        let out = match (&self.generate, stage) {
            (None, Stage::Full) if self.extractive => self
                .engine
                .ask_extractive(query, &opts)
                .map_err(|e| e.to_string())?,
            // generation (minutes per question on a CPU) runs for `full` only,
            // not again for the `full-no-topics` ablation
            (Some(model), Stage::Full) if hand_topics => {
                let ask = AskOptions {
                    search: opts,
                    model: Some(model.clone()),
                    ..AskOptions::default()
                };
                self.engine
                    .ask(query, &ask, &mut |_| true)
                    .map_err(|e| e.to_string())?
            }
            _ => self
                .engine
                .search(query, &opts)
                .map_err(|e| e.to_string())?,
        };
        Ok(EvalOutput {
            analysis: analysis_json(&out.analysis),
            answer: out.response.answer.clone(),
            timings: out.response.timings_ms.clone(),
            response: out.response,
        })
    }
}

pub fn run(g: &Global, a: EvalArgs) -> Result<()> {
    if let Some(pair) = &a.compare {
        let ra = EvalReport::load(&pair[0])?;
        let rb = EvalReport::load(&pair[1])?;
        let c = compare(&ra, &rb);
        if a.json {
            println!("{}", c.to_json());
        } else {
            println!("{}", c.to_markdown());
        }
        return Ok(());
    }
    if a.suite.as_deref() == Some("legalquad") {
        return legalquad(g, &a);
    }
    if let Some(s) = &a.suite {
        anyhow::bail!("unknown eval suite `{s}` (use `legalquad`, or --golden FILE)");
    }
    let golden_path = a
        .golden
        .clone()
        .unwrap_or_else(|| crate::paths::default_corpus().join("../eval/golden-dev.jsonl"));
    let mut golden = load_golden(&golden_path)?;
    let answers = a
        .answers
        .clone()
        .unwrap_or_else(|| paragraf_eval::answers_path(&golden_path));
    if a.answers.is_some() || answers.exists() {
        let text = std::fs::read_to_string(&answers)
            .with_context(|| format!("reading answer facts {}", answers.display()))?;
        paragraf_eval::attach_answer_facts(&mut golden, &text, &answers.display().to_string())?;
    }
    let engine = open_engine(g, &a.flags, None, false)?;
    let model = if a.generate {
        Some(match &a.model {
            Some(m) => m.clone(),
            None => default_answer_model(g)?,
        })
    } else {
        None
    };
    let searcher = EngineSearcher {
        engine: &engine,
        top_k: a.flags.top_k.max(10),
        generate: model.clone(),
        extractive: a.extractive,
    };
    let stages: Vec<String> = if a.flags.stage == "full" {
        Stage::ALL
            .iter()
            .map(|s| s.as_str().to_string())
            .chain([NO_HAND_TOPICS.to_string()])
            .collect()
    } else if a.flags.stage == NO_HAND_TOPICS {
        vec![NO_HAND_TOPICS.to_string()]
    } else {
        vec![super::parse_stage(&a.flags.stage)?.as_str().to_string()]
    };
    let cfg = RunConfig {
        label: format!(
            "{} · index {} · params {} · {}",
            golden_path
                .file_name()
                .and_then(|f| f.to_str())
                .unwrap_or("golden"),
            engine.embedder_name(),
            super::params_delta(engine.params()),
            model.as_deref().unwrap_or(if a.extractive {
                "extractive answers"
            } else {
                "no generation"
            })
        ),
        stages,
        generate: a.generate || a.extractive,
        // generation holds one model lock; parallel questions only queue there
        threads: if a.generate { 1 } else { 2 },
    };
    let bar = if g.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(golden.len() as u64)
    };
    let report = run_eval(
        &golden,
        &searcher,
        &cfg,
        Some(&|done, _total| bar.set_position(done as u64)),
    );
    bar.finish_and_clear();
    let dir = super::report_dir(g, &a.report_dir);
    let files = report
        .write_files(&dir, "eval")
        .with_context(|| format!("writing report to {}", dir.display()))?;
    if a.json {
        println!("{}", report.to_json());
    } else {
        println!("{}", report.print_table());
        for f in files {
            println!("report: {}", f.display());
        }
    }
    Ok(())
}

/// LegalQuAD: its contexts as a separate corpus, BM25 / dense / fused.
fn legalquad(g: &Global, a: &EvalArgs) -> Result<()> {
    use paragraf_index::{
        AnalyzerConfig, DenseIndex, EmbeddingCheckpoint, HnswParams, InvertedIndex,
    };
    let path: PathBuf = crate::paths::default_corpus().join("eval/legalquad.json");
    let mut lq = paragraf_eval::legalquad::load(&path)?;
    if a.limit > 0 {
        lq.questions.truncate(a.limit);
    }
    let chunks = lq.to_chunks(1_500);
    let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
    eprintln!(
        "LegalQuAD: {} documents → {} passages, {} questions",
        lq.contexts.len(),
        chunks.len(),
        lq.questions.len()
    );

    // lexical
    let inverted = InvertedIndex::build(&texts, None, &AnalyzerConfig::default())?;
    // dense, with a resumable embedding cache
    let (dev, warn) = select_device(device(g)?);
    if let Some(w) = warn {
        eprintln!("warning: {w}");
    }
    let reg = registry(g)?;
    let embedder = load_embedder(&reg, &a.embedder, &resolve_opts(g), &dev)?;
    let dim = embedder.info().dim;
    let cache = home(g).join(format!("legalquad.{}.embeddings", a.embedder));
    std::fs::create_dir_all(home(g))?;
    let mut ckpt = EmbeddingCheckpoint::open(&cache, dim)?;
    let hashes: Vec<[u8; 32]> = texts.iter().map(|t| paragraf_index::text_hash(t)).collect();
    let todo: Vec<usize> = (0..chunks.len())
        .filter(|&i| ckpt.get(chunks[i].id.as_str(), &hashes[i]).is_none())
        .collect();
    let bar = if g.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(todo.len() as u64)
    };
    for batch in todo.chunks(16) {
        let b: Vec<&str> = batch.iter().map(|&i| texts[i]).collect();
        let out = embedder.embed(&b, TextKind::Passage)?;
        let entries: Vec<_> = batch
            .iter()
            .zip(out.embeddings)
            .map(|(&i, e)| paragraf_index::CheckpointEntry {
                id: chunks[i].id.as_str().to_string(),
                text_hash: hashes[i],
                vector: e.dense,
            })
            .collect();
        ckpt.append(&entries)?;
        bar.inc(batch.len() as u64);
    }
    ckpt.flush()?;
    bar.finish_and_clear();
    let mut vectors = Vec::with_capacity(chunks.len() * dim);
    for (i, c) in chunks.iter().enumerate() {
        vectors.extend_from_slice(
            ckpt.get(c.id.as_str(), &hashes[i])
                .context("embedding missing after embedding pass")?,
        );
    }
    let dense = DenseIndex::build(vectors, dim, &HnswParams::default())?;
    let doc_of = |i: u32| chunks[i as usize].norm.clone();
    let dedupe = |hits: Vec<paragraf_index::Hit>| -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        hits.into_iter()
            .map(|h| doc_of(h.doc))
            .filter(|d| seen.insert(d.clone()))
            .collect()
    };
    let embed_q = |q: &str| -> Result<Vec<f32>, String> {
        let out = embedder
            .embed(&[q], TextKind::Query)
            .map_err(|e| e.to_string())?;
        out.embeddings
            .into_iter()
            .next()
            .map(|e| e.dense)
            .ok_or_else(|| "no embedding".to_string())
    };
    let params = super::params_for_embedder(&reg, Some(&a.embedder), &a.flags.params)?;
    let lex = Lexicon::builtin();
    let bm25 = |q: &str| -> Result<Vec<String>, String> { Ok(dedupe(inverted.bm25(q, 100, None))) };
    let dense_fn = |q: &str| -> Result<Vec<String>, String> {
        Ok(dedupe(dense.search(&embed_q(q)?, 100, None)))
    };
    let fused = |q: &str| -> Result<Vec<String>, String> {
        let qv = embed_q(q)?;
        let mut cand: HashMap<u32, (Option<f32>, Option<f32>)> = HashMap::new();
        for h in dense.search(&qv, 100, None) {
            cand.entry(h.doc).or_default().0 = Some(h.score);
        }
        for h in inverted.bm25(q, 100, None) {
            cand.entry(h.doc).or_default().1 = Some(h.score);
        }
        let mut docs: Vec<u32> = cand.keys().copied().collect();
        docs.sort_unstable();
        let cands: Vec<Candidate> = docs
            .iter()
            .map(|&d| {
                let (ds, ls) = cand[&d];
                let ds =
                    ds.or_else(|| Some(qv.iter().zip(dense.vector(d)).map(|(a, b)| a * b).sum()));
                Candidate {
                    chunk: &chunks[d as usize],
                    dense: ds,
                    lexical: ls,
                    sparse: None,
                    heading: None,
                    exact: false,
                }
            })
            .collect();
        let analysis = analyze_query(q, &[], lex);
        let ranked = rank(&analysis, &cands, &params, Stage::Fused, 100);
        let mut seen = std::collections::HashSet::new();
        Ok(ranked
            .into_iter()
            .map(|r| r.norm)
            .filter(|d| seen.insert(d.clone()))
            .collect())
    };
    let methods = vec![
        paragraf_eval::legalquad::run_method(&lq, "BM25", &bm25),
        paragraf_eval::legalquad::run_method(&lq, &format!("dense ({})", a.embedder), &dense_fn),
        paragraf_eval::legalquad::run_method(
            &lq,
            &format!("fused (BM25 + {})", a.embedder),
            &fused,
        ),
    ];
    let notes = vec![
        format!("contexts split into passages of at most 1,500 characters ({} passages); a document counts once", chunks.len()),
        format!(
            "embedder {}; fusion = paragraf-rank weighted sum, params: {}",
            a.embedder,
            super::params_delta(&params)
        ),
    ];
    let report = paragraf_eval::legalquad::LegalQuadReport::new(&lq, methods, notes);
    let dir = super::report_dir(g, &a.report_dir);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("legalquad.json"), report.to_json())?;
    std::fs::write(dir.join("legalquad.md"), report.to_markdown())?;
    if a.json {
        println!("{}", report.to_json());
    } else {
        println!("{}", report.to_markdown());
        println!("report: {}", dir.join("legalquad.md").display());
    }
    Ok(())
}
