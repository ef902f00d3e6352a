//! Measurements for `paragraf bench models` and the criterion benches:
//! embedder throughput (batched vs a naive one-at-a-time loop), query
//! latency, GGUF load / prefill / decode / TTFT, peak RSS — plus random-weight
//! builds of the real architectures (XLM-R large = bge-m3; a Qwen2.5-1.5B
//! shaped GGUF written in-process) so GPU machines without weights can run it.

use crate::embed::TextKind;
pub use crate::encoder::random_encoder_tensors;
use crate::generate::GgufGenerator;
use crate::generator::GenParams;
use crate::{Embedder, ModelError};
use candle_core::{DType, Device, Tensor};
use serde::{Deserialize, Serialize};
use std::time::Instant;

mod random;
pub use random::{
    byte_level_alphabet, write_random_encoder_dir, write_random_qwen2_gguf, BatchRate, GgufFacts,
    MatRole, QuantMix, Qwen2Shape, RandomEncoder,
};

/// Peak resident set size of this process in bytes (`VmHWM`), if known.
pub fn peak_rss_bytes() -> Option<u64> {
    paragraf_types::memory::peak_rss_kib().map(|kb| kb * 1024)
}

/// Throughput of an embedder at one passage length.
#[derive(Debug, Clone, Serialize)]
pub struct EmbedThroughput {
    /// Model name.
    pub model: String,
    /// Tokens per passage (incl. special tokens).
    pub tokens: usize,
    /// Passages embedded per mode.
    pub passages: usize,
    /// Passages/s with one batched call.
    pub batched_per_s: f64,
    /// Passages/s calling once per passage.
    pub naive_per_s: f64,
    /// `batched / naive`.
    pub speedup: f64,
    /// GEMM work of one passage ([`crate::EmbedderInfo::forward_flops`], GFLOP).
    pub gflop_per_passage: f64,
}

impl EmbedThroughput {
    /// GFLOP/s the batched call achieved.
    pub fn batched_gflops(&self) -> f64 {
        self.batched_per_s * self.gflop_per_passage
    }

    /// GFLOP/s the one-at-a-time loop achieved.
    pub fn naive_gflops(&self) -> f64 {
        self.naive_per_s * self.gflop_per_passage
    }
}

/// Shape of the GEMM the bench's device line times: `[M, K] × [K, N]`, an
/// encoder feed-forward layer (H 384 → 1536) over 16 passages of 128 tokens.
pub const GEMM_RATE_SHAPE: (usize, usize, usize) = (2048, 384, 1536);

/// The GEMM rate of `device` in GFLOP/s for `[m, k] × [k, n]`: candle's
/// matmul (the one the encoder uses) in the embedders' compute dtype there
/// (f32 on CPU, f16 on a GPU). After one warm-up product it times five
/// windows of `secs / 5` seconds each and returns the best: the rate the
/// device sustains when nothing else runs (single windows varied by ±15 %
/// on the 2-core CPU). No encoder run does its GEMMs faster than the rate of
/// its shapes; the rate at one passage's rows (`m` = its tokens) against the
/// rate at a batch's rows bounds what batching can gain on the GEMMs.
pub fn gemm_rate_gflops(
    device: &Device,
    (m, k, n): (usize, usize, usize),
    secs: f64,
) -> Result<f64, ModelError> {
    const WINDOWS: usize = 5;
    let dtype = if device.is_cpu() {
        DType::F32
    } else {
        DType::F16
    };
    let run = || -> candle_core::Result<f64> {
        let mut rng = crate::encoder::SplitMix(7);
        let a = Tensor::from_vec(rng.normal_vec(m * k, 1.0), (m, k), &Device::Cpu)?
            .to_device(device)?
            .to_dtype(dtype)?;
        let b = Tensor::from_vec(rng.normal_vec(k * n, 1.0), (k, n), &Device::Cpu)?
            .to_device(device)?
            .to_dtype(dtype)?;
        a.matmul(&b)?;
        device.synchronize()?;
        let mut best = 0f64;
        for _ in 0..WINDOWS {
            let t = Instant::now();
            let mut reps = 0usize;
            while reps == 0 || t.elapsed().as_secs_f64() < secs / WINDOWS as f64 {
                a.matmul(&b)?;
                reps += 1;
                if !device.is_cpu() && reps.is_multiple_of(16) {
                    device.synchronize()?;
                }
            }
            device.synchronize()?;
            let rate = 2.0 * (m * k * n * reps) as f64 / t.elapsed().as_secs_f64() / 1e9;
            best = best.max(rate);
        }
        Ok(best)
    };
    run().map_err(ModelError::candle("gemm rate"))
}

/// Query latency percentiles.
#[derive(Debug, Clone, Serialize)]
pub struct QueryLatency {
    /// Model name.
    pub model: String,
    /// Number of queries timed.
    pub queries: usize,
    /// Median (ms).
    pub p50_ms: f64,
    /// 95th percentile (ms).
    pub p95_ms: f64,
}

/// Generation figures for one model.
#[derive(Debug, Clone, Serialize)]
pub struct GenBench {
    /// Model name.
    pub model: String,
    /// Load time (ms), when measured by the caller.
    pub load_ms: Option<f64>,
    /// Prompt tokens.
    pub prompt_tokens: usize,
    /// Generated tokens.
    pub generated_tokens: usize,
    /// Prefill tokens/s.
    pub prefill_tok_per_s: f64,
    /// Decode tokens/s.
    pub decode_tok_per_s: f64,
    /// Time to first token (ms).
    pub ttft_ms: f64,
    /// Peak RSS after the run (bytes).
    pub peak_rss_bytes: Option<u64>,
}

const WORDS: &[&str] = &[
    "Der",
    "Verantwortliche",
    "benennt",
    "einen",
    "Datenschutzbeauftragten",
    "wenn",
    "die",
    "Kerntätigkeit",
    "in",
    "der",
    "Durchführung",
    "von",
    "Verarbeitungsvorgängen",
    "besteht",
    "welche",
    "aufgrund",
    "ihrer",
    "Art",
    "ihres",
    "Umfangs",
    "und",
    "Zwecke",
    "eine",
    "umfangreiche",
    "regelmäßige",
    "systematische",
    "Überwachung",
    "betroffener",
    "Personen",
    "erforderlich",
    "machen",
    "controller",
    "shall",
    "designate",
    "a",
    "data",
    "protection",
    "officer",
    "where",
    "processing",
    "is",
    "carried",
    "out",
];

/// A passage of about `tokens` tokens (incl. specials) for `emb`.
pub fn passage_of_tokens(emb: &dyn Embedder, tokens: usize) -> Result<String, ModelError> {
    let mut words = Vec::new();
    let mut i = 0;
    loop {
        let candidate = format!("{} {}", words.join(" "), WORDS[i % WORDS.len()]);
        if emb.token_count(candidate.trim(), TextKind::Passage)? > tokens {
            break;
        }
        words.push(WORDS[i % WORDS.len()]);
        i += 1;
        if i > tokens * 4 {
            break;
        }
    }
    Ok(words.join(" "))
}

/// Passages/s at `tokens` tokens: one batched call over `n` passages vs. `n`
/// single calls. Passages differ (rotated word order) so nothing is cached.
pub fn embed_throughput(
    emb: &dyn Embedder,
    tokens: usize,
    n: usize,
) -> Result<EmbedThroughput, ModelError> {
    let base = passage_of_tokens(emb, tokens)?;
    let words: Vec<&str> = base.split(' ').collect();
    let texts: Vec<String> = (0..n)
        .map(|k| {
            let r = k % words.len().max(1);
            let mut w = words[r..].to_vec();
            w.extend_from_slice(&words[..r]);
            w.join(" ")
        })
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    emb.embed(&refs[..1.min(n)], TextKind::Passage)?; // warm-up
    let t = Instant::now();
    emb.embed(&refs, TextKind::Passage)?;
    let batched = n as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    for r in &refs {
        emb.embed(&[r], TextKind::Passage)?;
    }
    let naive = n as f64 / t.elapsed().as_secs_f64();
    // what the model actually reads of each passage
    let read = emb
        .token_count(&texts[0], TextKind::Passage)?
        .min(emb.info().max_tokens);
    Ok(EmbedThroughput {
        model: emb.info().name.clone(),
        tokens,
        passages: n,
        batched_per_s: batched,
        naive_per_s: naive,
        speedup: batched / naive,
        gflop_per_passage: emb.info().forward_flops(read) / 1e9,
    })
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// p50/p95 latency of embedding one short query, over `n` queries.
pub fn query_latency(emb: &dyn Embedder, n: usize) -> Result<QueryLatency, ModelError> {
    let qs = [
        "Wann muss ein Datenschutzbeauftragter benannt werden?",
        "Welche Meldepflichten gelten bei einer Datenpanne?",
        "What are the obligations of a processor?",
        "Wie lange dürfen Bewerberdaten gespeichert werden?",
    ];
    let mut ms = Vec::with_capacity(n);
    emb.embed(&[qs[0]], TextKind::Query)?;
    for i in 0..n {
        let t = Instant::now();
        emb.embed(&[qs[i % qs.len()]], TextKind::Query)?;
        ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    ms.sort_by(f64::total_cmp);
    Ok(QueryLatency {
        model: emb.info().name.clone(),
        queries: n,
        p50_ms: percentile(&ms, 0.5),
        p95_ms: percentile(&ms, 0.95),
    })
}

/// Prefill / decode / TTFT of `gen` on a synthetic prompt of `prompt_tokens`
/// token ids (ids below 1000, no special tokens) and `new_tokens` greedy
/// steps (stop tokens ignored: decoding runs exactly `new_tokens` steps
/// unless the model emits an end-of-turn token).
pub fn generation_bench(
    gen: &mut GgufGenerator,
    prompt_tokens: usize,
    new_tokens: usize,
    load_ms: Option<f64>,
) -> Result<GenBench, ModelError> {
    let prompt: Vec<u32> = (0..prompt_tokens.max(1))
        .map(|i| (100 + (i * 7919) % 900) as u32)
        .collect();
    let params = GenParams {
        max_tokens: new_tokens,
        repeat_penalty: 1.0,
        ..GenParams::default()
    };
    let t = Instant::now();
    let mut first: Option<f64> = None;
    let (out, _) = gen.generate_ids(&prompt, &params, &mut |_| {
        if first.is_none() {
            first = Some(t.elapsed().as_secs_f64() * 1e3);
        }
        true
    })?;
    let decode_steps = out.generated_tokens.saturating_sub(1).max(1);
    Ok(GenBench {
        model: crate::Generator::info(gen).name.clone(),
        load_ms,
        prompt_tokens: out.prompt_tokens,
        generated_tokens: out.generated_tokens,
        prefill_tok_per_s: out.prompt_tokens as f64 / (out.prefill_ms / 1e3),
        decode_tok_per_s: decode_steps as f64 / (out.decode_ms / 1e3),
        ttft_ms: first.unwrap_or(out.prefill_ms + out.decode_ms),
        peak_rss_bytes: peak_rss_bytes(),
    })
}

/// The texts a same-run comparison with a reference runtime feeds both
/// sides (`paragraf bench encode --inputs`, written by
/// `scripts/bench_peers.py`; issue 38).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeerEncodeInputs {
    /// Queries, each embedded alone (batch 1), `passes` times over the list.
    pub queries: Vec<String>,
    /// Passage sets, each embedded in one batched call.
    pub passages: Vec<PeerPassages>,
    /// Timed passes (over the queries; batched calls per passage set).
    pub passes: usize,
}

/// One passage set of [`PeerEncodeInputs`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeerPassages {
    /// Intended tokens per passage (with prefix and special tokens).
    pub tokens: usize,
    /// The passages.
    pub texts: Vec<String>,
}

/// What one side measured on [`PeerEncodeInputs`].
#[derive(Debug, Clone, Serialize)]
pub struct PeerEncodeRun {
    /// Model name.
    pub model: String,
    /// Every timed query call (ms), in order.
    pub query_ms: Vec<f64>,
    /// Median of `query_ms`.
    pub query_p50_ms: f64,
    /// Per passage set.
    pub passages: Vec<PeerPassageRun>,
    /// Dense vectors of the queries, then of every passage (set by set), for
    /// the cosine check against the reference.
    pub vectors: Vec<Vec<f32>>,
}

/// One passage set's figures.
#[derive(Debug, Clone, Serialize)]
pub struct PeerPassageRun {
    /// Intended tokens.
    pub tokens: usize,
    /// Passages per call.
    pub batch: usize,
    /// Tokens each passage occupies (prefix and specials included, before truncation).
    pub token_counts: Vec<usize>,
    /// Passages per second of every timed call.
    pub per_s: Vec<f64>,
    /// Median of `per_s`.
    pub median_per_s: f64,
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    percentile(&s, 0.5)
}

/// Embeds `inputs` the way the reference side does (one warm-up call per
/// shape, then `passes` timed passes), timing tokenization and the forward
/// pass together, as a caller sees them.
pub fn peer_encode(
    emb: &dyn Embedder,
    inputs: &PeerEncodeInputs,
) -> Result<PeerEncodeRun, ModelError> {
    if inputs.queries.is_empty() || inputs.passes == 0 {
        return Err(ModelError::InvalidInput(
            "bench inputs: `queries` must not be empty and `passes` must be at least 1".into(),
        ));
    }
    let mut vectors = Vec::new();
    for q in &inputs.queries {
        let b = emb.embed(&[q.as_str()], TextKind::Query)?;
        vectors.extend(b.embeddings.into_iter().map(|e| e.dense));
    }
    let mut query_ms = Vec::new();
    for _ in 0..inputs.passes {
        for q in &inputs.queries {
            let t = Instant::now();
            emb.embed(&[q.as_str()], TextKind::Query)?;
            query_ms.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    let mut passages = Vec::new();
    for set in &inputs.passages {
        if set.texts.is_empty() {
            return Err(ModelError::InvalidInput(format!(
                "bench inputs: passage set of {} tokens has no texts",
                set.tokens
            )));
        }
        let refs: Vec<&str> = set.texts.iter().map(String::as_str).collect();
        let token_counts = refs
            .iter()
            .map(|t| emb.token_count(t, TextKind::Passage))
            .collect::<Result<Vec<_>, _>>()?;
        let warm = emb.embed(&refs, TextKind::Passage)?;
        vectors.extend(warm.embeddings.into_iter().map(|e| e.dense));
        let mut per_s = Vec::new();
        for _ in 0..inputs.passes {
            let t = Instant::now();
            emb.embed(&refs, TextKind::Passage)?;
            per_s.push(refs.len() as f64 / t.elapsed().as_secs_f64());
        }
        passages.push(PeerPassageRun {
            tokens: set.tokens,
            batch: refs.len(),
            token_counts,
            median_per_s: median(&per_s),
            per_s,
        });
    }
    Ok(PeerEncodeRun {
        model: emb.info().name.clone(),
        query_p50_ms: median(&query_ms),
        query_ms,
        passages,
        vectors,
    })
}

/// The decoder side of a same-run comparison: one GGUF file, the same
/// prompt ids and step count for both runtimes (`paragraf bench decode
/// --inputs`; issue 38).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeerDecodeInputs {
    /// The GGUF file both runtimes load.
    pub gguf: std::path::PathBuf,
    /// Prompt token ids.
    pub prompt_ids: Vec<u32>,
    /// Greedy steps (tokens chosen), no stop token.
    pub steps: usize,
    /// Timed runs (each after a fresh KV cache; one untimed warm-up first).
    pub passes: usize,
    /// The reference's greedy ids, to count agreeing steps.
    #[serde(default)]
    pub expected_ids: Option<Vec<u32>>,
}

/// Timed greedy runs of `inputs` on `gen` (one warm-up, then `passes`).
pub fn peer_decode(
    gen: &mut GgufGenerator,
    inputs: &PeerDecodeInputs,
) -> Result<Vec<crate::GreedyTiming>, ModelError> {
    let expected = inputs.expected_ids.as_deref();
    gen.timed_greedy(&inputs.prompt_ids, inputs.steps, expected)?;
    (0..inputs.passes.max(1))
        .map(|_| gen.timed_greedy(&inputs.prompt_ids, inputs.steps, expected))
        .collect()
}
