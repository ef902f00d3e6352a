//! `paragraf eval --golden FILE`, `paragraf eval legalquad`, `--compare A B`.

use super::{default_answer_model, device, home, open_engine, registry, resolve_opts};
use crate::cli::{EvalArgs, Global};
use anyhow::{Context, Result};
use paragraf_engine::passages::PassageSearch;
use paragraf_engine::{AskOptions, Engine, SearchOptions};
use paragraf_engine::{QueryAnalysis, Stage};
use paragraf_eval::{compare, load_golden, run_eval, EvalOutput, EvalReport, RunConfig, Searcher};
use std::path::PathBuf;

/// The analysis keys the golden `expect` checks read.
pub fn analysis_json(a: &QueryAnalysis) -> serde_json::Value {
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
    if !a.merge.is_empty() {
        let reports = a
            .merge
            .iter()
            .map(|p| EvalReport::load(p))
            .collect::<Result<Vec<_>, _>>()?;
        let report = paragraf_eval::merge_shards(&reports)
            .map_err(|e| anyhow::Error::new(crate::BadFlag(format!("--merge: {e}"))))?;
        return write_report(g, &a, &report);
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
    // after the answer facts: they are attached by id to the whole set
    let shard = match &a.shard {
        Some(s) => {
            let s: paragraf_eval::Shard = s
                .parse()
                .map_err(|e| anyhow::Error::new(crate::BadFlag(format!("{e}"))))?;
            let (part, s) = paragraf_eval::shard_of(&golden, s);
            golden = part;
            Some(s)
        }
        None => None,
    };
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
        // at least the default: the metrics read the first ten
        top_k: a.flags.top_k.max(paragraf_types::limits::DEFAULT_TOP_K),
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
            paragraf_engine::params::params_delta(engine.params()),
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
    let mut report = run_eval(
        &golden,
        &searcher,
        &cfg,
        Some(&|done, _total| bar.set_position(done as u64)),
    );
    bar.finish_and_clear();
    report.meta.shard = shard;
    write_report(g, &a, &report)
}

/// Write the report files (`eval.json`, `.md`, `.svg`, named `eval.shard-i-of-n`
/// for a shard) and print the table or the JSON.
fn write_report(g: &Global, a: &EvalArgs, report: &EvalReport) -> Result<()> {
    let stem = match report.meta.shard {
        Some(s) => format!("eval.shard-{}-of-{}", s.index + 1, s.count),
        None => "eval".to_string(),
    };
    let dir = super::report_dir(g, &a.report_dir);
    let files = report
        .write_files(&dir, &stem)
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

/// LegalQuAD: its contexts as a separate corpus, BM25 / dense / fused
/// ([`paragraf_engine::passages`]).
fn legalquad(g: &Global, a: &EvalArgs) -> Result<()> {
    let path: PathBuf = crate::paths::default_corpus().join("eval/legalquad.json");
    let mut lq = paragraf_eval::legalquad::load(&path)?;
    if a.limit > 0 {
        lq.questions.truncate(a.limit);
    }
    let chunks = lq.to_chunks(1_500);
    eprintln!(
        "LegalQuAD: {} documents → {} passages, {} questions",
        lq.contexts.len(),
        chunks.len(),
        lq.questions.len()
    );
    let reg = registry(g)?;
    let params = paragraf_engine::params::params_for_embedder(
        &reg,
        Some(&a.embedder),
        a.flags.params.as_deref(),
    )?;
    let bars = crate::progress::StageBars::new(g.quiet);
    let search = PassageSearch::build(
        &chunks,
        &reg,
        &a.embedder,
        &resolve_opts(g),
        device(g)?,
        &home(g).join(format!("legalquad.{}.embeddings", a.embedder)),
        params.clone(),
        &|e| bars.on_event(e),
    )?;
    let bm25 = |q: &str| -> Result<Vec<String>, String> { Ok(search.bm25(q)) };
    let dense_fn = |q: &str| search.dense(q).map_err(|e| e.to_string());
    let fused = |q: &str| search.fused(q).map_err(|e| e.to_string());
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
            paragraf_engine::params::params_delta(&params)
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
