//! Model candidates side by side (`paragraf bench models`): load time,
//! embed throughput at 128/512 tokens (batched and the naive one-at-a-time
//! loop), query-embed latency, prefill/decode tok/s and time to first token
//! on a real prompt built from retrieved sources, memory — repeated,
//! medians, one table with the machine. And the pipeline's latency per stage
//! over a question set (`paragraf bench search`). The generated text of a
//! model run is counted, never returned.

use paragraf_engine::prompt::build_prompt;
use paragraf_engine::{AnswerProgress, AskOptions, Engine, EngineError, SearchOptions};
use paragraf_eval::bench::{repeat, BenchRow, BenchTable};
use paragraf_eval::machine::{peak_rss_mib, Machine};
use paragraf_eval::stats::Stat;
pub use paragraf_models::bench::{PeerDecodeInputs, PeerEncodeInputs, PeerEncodeRun};
pub use paragraf_models::GreedyTiming;
use paragraf_models::{
    bench as mb, list_models, load_embedder, load_generator, ChatMessage, DeviceChoice, GenParams,
    Generator, Registry, ResolveOptions, Role,
};
use paragraf_types::Lang;
use std::collections::BTreeMap;
use std::time::Instant;

/// The question whose retrieved sources make the answer models' prompt.
const QUESTION: &str = "Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?";

/// Resident set size now, MiB.
fn rss_mib() -> Option<f64> {
    paragraf_types::memory::rss_kib().map(|kb| kb as f64 / 1024.0)
}

/// What `bench models` measures.
pub struct ModelBenchOptions<'a> {
    pub registry: &'a Registry,
    pub resolve: &'a ResolveOptions,
    pub device: DeviceChoice,
    /// Models to measure (empty: every present one).
    pub models: &'a [String],
    /// Repetitions per figure (medians reported).
    pub repeat: usize,
}

/// Measure the present models of the registry; `engine` (when an index is
/// there) gives the answer models a real prompt from retrieved sources.
pub fn bench_models(
    opts: &ModelBenchOptions,
    engine: Option<&Engine>,
    progress: &dyn Fn(&str),
) -> Result<BenchTable, EngineError> {
    let reg = opts.registry;
    let ropts = opts.resolve;
    let dev = paragraf_engine::models::open_device(opts.device);
    let dev_name = if dev.is_cpu() {
        "cpu".to_string()
    } else {
        format!("{dev:?}")
    };
    let reps = opts.repeat.max(1);
    let mut table = BenchTable::new(Machine::detect(), 1, reps);
    let gemm_dtype = if dev.is_cpu() { "f32" } else { "f16" };
    let (m, k, n) = mb::GEMM_RATE_SHAPE;
    match mb::gemm_rate_gflops(&dev, mb::GEMM_RATE_SHAPE, 1.5) {
        Ok(r) => {
            table.gemm_gflops = Some(r);
            table.notes.push(format!(
                "GEMM rate of the device: {r:.1} GFLOP/s ({gemm_dtype} matmul {m}×{k} · {k}×{n}, candle, best of five windows)"
            ));
        }
        Err(e) => table.notes.push(format!("GEMM rate not measured: {e}")),
    }
    let present: Vec<_> = list_models(reg, ropts)
        .into_iter()
        .filter(|s| s.present && (opts.models.is_empty() || opts.models.contains(&s.name)))
        .collect();
    if present.is_empty() {
        return Err(EngineError::Other("no model of models.toml is present (see `paragraf models list`; `paragraf quickstart` fetches the small ones)".into()));
    }
    if engine.is_none() {
        table.notes.push("no index found: TTFT measured on a fixed German legal prompt instead of retrieved sources".into());
    }
    for s in &present {
        progress(&format!("bench {} ({})", s.name, s.kind));
        let mut row = BenchRow {
            model: s.name.clone(),
            kind: s.kind.clone(),
            device: dev_name.clone(),
            ..BenchRow::default()
        };
        let rss0 = rss_mib().unwrap_or(0.0);
        match s.kind.as_str() {
            "embedder" => bench_embedder(&mut row, &s.name, reg, ropts, &dev, reps, rss0)?,
            "answer" => {
                bench_answer_model(&mut row, &s.name, engine, reg, ropts, &dev, reps, rss0)?
            }
            _ => continue,
        }
        table.rows.push(row);
    }
    table.notes.push(format!(
        "peak RSS of the whole run: {:.0} MiB",
        peak_rss_mib().unwrap_or(0.0)
    ));
    Ok(table)
}

/// An embedder's load time and memory, its passages per second at 128 and
/// 512 tokens (batched against the naive loop, with the GEMM rates that
/// bound them) and its query latency.
fn bench_embedder(
    row: &mut BenchRow,
    name: &str,
    reg: &Registry,
    ropts: &ResolveOptions,
    dev: &candle_core::Device,
    reps: usize,
    rss0: f64,
) -> Result<(), EngineError> {
    let (load, e) = timed_loads(reps, || load_embedder(reg, name, ropts, dev))?;
    row.load_ms = load;
    row.peak_memory_mib = rss_mib().map(|r| (r - rss0).max(0.0));
    let mut naive = Vec::new();
    for tokens in [128usize, 512] {
        let n = if tokens == 128 { 32 } else { 16 };
        let mut speedups = Vec::new();
        let mut gflops = Vec::new(); // (batched, naive)
        let st = repeat(0, reps, || -> Result<f64, EngineError> {
            let r = mb::embed_throughput(e.as_ref(), tokens, n)?;
            speedups.push(r.speedup);
            gflops.push((r.batched_gflops(), r.naive_gflops()));
            naive.push(format!("{tokens} tok: naive {:.1}/s", r.naive_per_s));
            Ok(r.batched_per_s)
        })?;
        if let Some(st) = &st {
            speedups.sort_by(f64::total_cmp);
            let max = e.info().max_tokens;
            let cut = if tokens > max {
                format!(" (the model reads at most {max} tokens: truncated)")
            } else {
                String::new()
            };
            row.notes.push(format!(
                    "{tokens} tok{cut}: batched {:.1} passages/s = {:.2}× the naive loop (median of {reps})",
                    st.median,
                    speedups[speedups.len() / 2]
                ));
            gflops.sort_by(|x, y| x.0.total_cmp(&y.0));
            let (b, nv) = gflops[gflops.len() / 2];
            let info = e.info();
            let read = tokens.min(info.max_tokens);
            let rows = read * e.batch_size(read, n);
            let shape = |m: usize| (m, info.dim, info.intermediate);
            if rows == read {
                row.notes.push(format!(
                        "{tokens} tok: a pass takes one passage at this length (attention budget), so batching adds no GEMM rows; the runs did their GEMM work at {b:.0} GFLOP/s batched and {nv:.0} naive"
                    ));
            } else if let (Ok(one), Ok(many)) = (
                mb::gemm_rate_gflops(dev, shape(read), 1.0),
                mb::gemm_rate_gflops(dev, shape(rows), 1.0),
            ) {
                row.notes.push(format!(
                        "{tokens} tok: GEMM rate {one:.0} GFLOP/s at one passage's {read} rows, {many:.0} at a batch's {rows} rows, so batching gains at most {:.2}× on the GEMMs; the runs did their GEMM work at {b:.0} GFLOP/s batched ({:.0} % of that rate) and {nv:.0} naive ({:.0} %)",
                        many / one,
                        100.0 * b / many,
                        100.0 * nv / one
                    ));
            }
        }
        if tokens == 128 {
            row.embed_passages_per_s_128 = st;
        } else {
            row.embed_passages_per_s_512 = st;
        }
    }
    let mut p95 = Vec::new();
    row.query_embed_p50_ms = repeat(0, reps, || -> Result<f64, EngineError> {
        let q = mb::query_latency(e.as_ref(), 20)?;
        p95.push(q.p95_ms);
        Ok(q.p50_ms)
    })?;
    row.query_embed_p95_ms = Stat::from_samples(&p95);
    Ok(())
}

/// An answer model's load time and memory, prefill and decode rates and
/// time to the first token on a real prompt (from retrieved sources when
/// `engine` is there), and its decode rate on a short prompt.
#[allow(clippy::too_many_arguments)]
fn bench_answer_model(
    row: &mut BenchRow,
    name: &str,
    engine: Option<&Engine>,
    reg: &Registry,
    ropts: &ResolveOptions,
    dev: &candle_core::Device,
    reps: usize,
    rss0: f64,
) -> Result<(), EngineError> {
    let (load, mut m) = timed_loads(reps, || load_generator(reg, name, ropts, dev))?;
    row.load_ms = load;
    row.peak_memory_mib = rss_mib().map(|r| (r - rss0).max(0.0));
    let messages = match engine {
            Some(engine) => real_prompt(engine, m.as_ref())?,
            None => vec![ChatMessage {
                role: Role::User,
                content: format!("Quellen:\n[1] Art. 37 DSGVO — Benennung eines Datenschutzbeauftragten\nDer Verantwortliche und der Auftragsverarbeiter benennen auf jeden Fall einen Datenschutzbeauftragten, wenn die Kerntätigkeit in einer umfangreichen regelmäßigen und systematischen Überwachung von betroffenen Personen besteht.\n\nFrage: {QUESTION}"),
            }],
        };
    let params = GenParams {
        max_tokens: 32,
        ..GenParams::default()
    };
    let (mut prefill, mut decode, mut ttft) = (Vec::new(), Vec::new(), Vec::new());
    let mut prompt_tokens = 0;
    for i in 0..=reps {
        let t = Instant::now();
        let mut first = None;
        let out = m.chat(&messages, &params, &mut |_| {
            first.get_or_insert_with(|| t.elapsed().as_secs_f64() * 1e3);
            true
        })?;
        if i == 0 {
            continue; // warm-up
        }
        prompt_tokens = out.prompt_tokens;
        prefill.push(out.prompt_tokens as f64 / (out.prefill_ms / 1e3).max(1e-9));
        decode.push(
            out.generated_tokens.saturating_sub(1).max(1) as f64 / (out.decode_ms / 1e3).max(1e-9),
        );
        ttft.push(first.unwrap_or(out.prefill_ms));
    }
    row.prefill_tok_per_s = Stat::from_samples(&prefill);
    row.decode_tok_per_s = Stat::from_samples(&decode);
    row.ttft_ms = Stat::from_samples(&ttft);
    // Short prompt: decode speed with a short KV cache.
    let short = vec![ChatMessage {
        role: Role::User,
        content: "Erkläre kurz, was ein Datenschutzbeauftragter tut.".into(),
    }];
    let short_params = GenParams {
        max_tokens: 64,
        ..GenParams::default()
    };
    let mut short_decode = Vec::new();
    let mut short_prompt = 0;
    for i in 0..=reps {
        let out = m.chat(&short, &short_params, &mut |_| true)?;
        if i == 0 {
            continue; // warm-up
        }
        short_prompt = out.prompt_tokens;
        short_decode.push(
            out.generated_tokens.saturating_sub(1).max(1) as f64 / (out.decode_ms / 1e3).max(1e-9),
        );
    }
    row.decode_short_tok_per_s = Stat::from_samples(&short_decode);
    row.notes.push(format!(
            "prompt {prompt_tokens} tokens, 32 new tokens, greedy; short: prompt {short_prompt} tokens, up to 64 new tokens"
        ));
    Ok(())
}

/// Load a model `reps` times (at least once), the previous copy dropped
/// before each load; the load times in ms and the last copy, which the
/// bench goes on with (no extra load after the timed ones).
fn timed_loads<T>(
    reps: usize,
    mut load: impl FnMut() -> Result<T, paragraf_models::ModelError>,
) -> Result<(Option<Stat>, T), EngineError> {
    let mut ms = Vec::with_capacity(reps.max(1));
    let mut last = None;
    for _ in 0..reps.max(1) {
        drop(last.take()); // free the previous copy before the next load
        let t = Instant::now();
        last = Some(load()?);
        ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let model = last.ok_or_else(|| EngineError::Other("no model loaded".into()))?;
    Ok((Stat::from_samples(&ms), model))
}

fn real_prompt(engine: &Engine, m: &dyn Generator) -> Result<Vec<ChatMessage>, EngineError> {
    let out = engine.search(QUESTION, &SearchOptions::default())?;
    let count = |s: &str| m.count_tokens(s).unwrap_or(s.len() / 3);
    Ok(build_prompt(QUESTION, Lang::De, &out.response.results, 5, 1_200, &count).messages)
}

/// Latency samples per stage, ms: the engine's stage timings of search and
/// the model-free extractive answer for every question × `repeat`; with
/// `answers` > 0 the first `answers` questions also get a generated answer
/// from `model`: time to the first gated sentence (`first_sentence`, from
/// the start of the search) and to the whole answer (`answer`).
pub fn bench_search(
    engine: &Engine,
    questions: &[String],
    repeat: usize,
    answers: usize,
    model: Option<String>,
) -> Result<BTreeMap<String, Vec<f64>>, EngineError> {
    let mut per_stage: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for _ in 0..repeat.max(1) {
        for q in questions {
            let out = engine.ask_extractive(q, &SearchOptions::default())?;
            for (k, v) in &out.response.timings_ms {
                per_stage.entry(k.clone()).or_default().push(*v);
            }
        }
    }
    if answers > 0 {
        let ask = AskOptions {
            model,
            ..AskOptions::default()
        };
        for q in questions.iter().take(answers) {
            let t0 = Instant::now();
            let mut first: Option<f64> = None;
            engine.ask(q, &ask, &mut |p| {
                if matches!(p, AnswerProgress::Sentence(_)) && first.is_none() {
                    first = Some(t0.elapsed().as_secs_f64() * 1e3);
                }
                true
            })?;
            let total = t0.elapsed().as_secs_f64() * 1e3;
            if let Some(f) = first {
                per_stage
                    .entry("first_sentence".into())
                    .or_default()
                    .push(f);
            }
            per_stage.entry("answer".into()).or_default().push(total);
        }
    }
    Ok(per_stage)
}

/// Same-run peers (issue 38): one side of a comparison with a reference
/// runtime on the inputs `scripts/bench_peers.py` writes. The embedder
/// `model` of the registry embeds `inputs`' queries and passages.
pub fn bench_encode_peer(
    reg: &Registry,
    resolve: &ResolveOptions,
    device: DeviceChoice,
    model: &str,
    inputs: &PeerEncodeInputs,
) -> Result<PeerEncodeRun, EngineError> {
    let dev = paragraf_engine::models::open_device(device);
    let emb = load_embedder(reg, model, resolve, &dev)?;
    Ok(mb::peer_encode(emb.as_ref(), inputs)?)
}

/// The decoder side: the GGUF file of `inputs`, greedy, exactly
/// `inputs.steps` tokens per pass.
pub fn bench_decode_peer(
    device: DeviceChoice,
    inputs: &PeerDecodeInputs,
) -> Result<Vec<GreedyTiming>, EngineError> {
    let dev = paragraf_engine::models::open_device(device);
    let mut gen = paragraf_models::load_generator_from_file(&inputs.gguf, None, None, &dev)?;
    Ok(mb::peer_decode(&mut gen, inputs)?)
}
