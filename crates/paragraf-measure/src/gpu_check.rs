//! `paragraf gpu-check`: the GPU kit's measurements on random weights of
//! the real architectures (no model files needed), in parts that each write
//! their JSON as results come, so that a part cut off by its time box still
//! leaves what it measured:
//!
//! - `plan`: shapes, batches, peaks and thresholds (`plan.json`; the PyTorch
//!   peer, `scripts/gpu_peer.py`, reads its shapes from here);
//! - `parity`: one draw of weights on the CPU (f32, the reference) and on the
//!   device (f32, f16, bf16): e5-small and XLM-R large with bge-m3's sparse
//!   and ColBERT heads; a Qwen2.5-0.5B-shaped Q4_K_M GGUF, the CPU's greedy
//!   tokens forced on the device, judged by argmax agreement on the steps
//!   whose CPU top-2 gap is above noise plus the logits cosine (CPU Q8_K and
//!   CUDA Q8_1 quantise activations differently, so a near-tie may flip);
//! - `prepare`: writes (quantises) the decoders' GGUFs into the work folder,
//!   in a time box of its own, so the decoder's box times decoding only;
//! - `encoder`: a bge-m3-shaped batch sweep at 128 and 512 tokens, dense only
//!   and with bge-m3's heads (the peer does the same work in each mode):
//!   passages/s, tokens/s, TFLOP/s and MFU against the measured bf16 GEMM
//!   peak and the datasheet peak;
//! - `decoder`: Qwen2.5-1.5B and 7B-shaped Q4_K_M GGUFs, prefill and decode
//!   tok/s, decode against the bandwidth bound (datasheet and measured);
//! - `e2e`: a core-corpus index built with the random bge-m3 on the device
//!   (seconds per stage), then search latency with device query embedding;
//! - `report`: everything above plus `peer.json` as `gpu-check.json` and
//!   `gpu-check.md`, with our/peer ratios.
//!
//! `--tiny` swaps every shape for a small one so that the whole kit runs on
//! a CPU in seconds (the CI test of the kit).

use paragraf_engine::{build_index, BuildOptions, Engine, EngineError, EngineOptions};
use paragraf_eval::stats::Stat;
use paragraf_models::bench::{
    random_encoder_tensors, write_random_encoder_dir, write_random_qwen2_gguf, BatchRate,
    GgufFacts, QuantMix, Qwen2Shape, RandomEncoder,
};
use paragraf_models::parity::{argmax, cosine, max_abs_diff, sparse_pair, top2_gap};
use paragraf_models::{
    load_generator_from_file, select_device, DeviceChoice, Embedding, EncoderConfig, GenParams,
    Registry, ResolveOptions,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

mod report;
#[cfg(test)]
use report::decode_shares;
use report::report;

/// bf16 dense GEMM rate measured on one H100/H200-class GPU (TFLOP/s): the
/// reachable peak MFU is first read against (not the datasheet figure).
pub const PEAK_BF16_TFLOPS_MEASURED: f64 = 790.0;
/// Datasheet dense bf16 peak of one H200 (TFLOP/s, without sparsity).
pub const PEAK_BF16_TFLOPS_DATASHEET: f64 = 989.0;
/// Datasheet HBM3e bandwidth of one H200 (TB/s): the decode bound is weight
/// bytes per token ÷ this.
pub const HBM_TB_PER_S_DATASHEET: f64 = 4.8;
/// HBM bandwidth measured on such a GPU (TB/s, a streaming copy): the
/// reachable decode bound.
pub const HBM_TB_PER_S_MEASURED: f64 = 4.3;
/// A GGUF parity step's argmax is judged when the CPU's top-2 gap exceeds
/// this many times the step's noise, the RMS difference of the two devices'
/// logits over the vocabulary (scale-free: random weights give small
/// logits; with a Gaussian noise of that RMS, a gap of 4 flips less than
/// 0.3 % of the time). Closer ties may flip: CPU Q8_K and CUDA Q8_1 quantise
/// activations differently.
pub const PARITY_GAP_NOISE: f64 = 4.0;
/// Share of the judged GGUF steps whose device argmax must agree.
pub const PARITY_ARGMAX_AGREE: f64 = 0.95;
/// Smallest per-passage cosine device-f32 vs CPU-f32 that passes.
pub const PARITY_COS_F32: f64 = 0.999;
/// Smallest per-passage cosine device-f16/bf16 vs CPU-f32 that passes.
pub const PARITY_COS_HALF: f64 = 0.99;
/// Greedy steps compared in the GGUF parity check.
pub const PARITY_STEPS: usize = 32;

/// The parts, in the order the kit runs them.
pub const PARTS: &[&str] = &[
    "plan", "parity", "prepare", "encoder", "decoder", "e2e", "report",
];

/// How to run a part.
#[derive(Debug, Clone)]
pub struct GpuCheckOptions {
    /// The parts' JSON and the report.
    pub out: PathBuf,
    /// Scratch files (GGUFs, the e2e model and index); never under the
    /// kit's OUT, which returns a few small files only.
    pub work: PathBuf,
    pub device: DeviceChoice,
    pub tiny: bool,
    /// Corpus for `e2e` (the kit's core subset).
    pub corpus: Option<PathBuf>,
    /// XLM-R `tokenizer.json` for `e2e` (bge-m3's tokenizer).
    pub tokenizer: Option<PathBuf>,
}

/// An encoder of the plan.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EncoderSpec {
    pub name: String,
    pub config: EncoderConfig,
    /// bge-m3's sparse and ColBERT heads.
    pub m3_heads: bool,
}

/// A decoder of the plan.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DecoderSpec {
    pub name: String,
    pub shape: Qwen2Shape,
    /// Quantisation recipe (always Q4_K_M here; see [`QuantMix::Q4KM`]).
    pub quant: String,
}

/// One token length of the encoder sweep.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sweep {
    pub tokens: usize,
    pub batches: Vec<usize>,
}

/// What the kit measures; `plan.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    pub device: String,
    pub tiny: bool,
    /// MFU peaks: the measured bf16 GEMM rate and the datasheet figure.
    pub peak_bf16_tflops_measured: f64,
    pub peak_bf16_tflops_datasheet: f64,
    /// Decode bounds: datasheet and measured HBM bandwidth.
    pub hbm_tb_per_s_datasheet: f64,
    pub hbm_tb_per_s_measured: f64,
    pub parity_gap_noise: f64,
    pub parity_argmax_agree: f64,
    pub parity_cos_f32: f64,
    pub parity_cos_half: f64,
    pub parity_encoders: Vec<EncoderSpec>,
    /// Passages per parity check and their longest length (lengths vary, so
    /// padding and masks are compared too).
    pub parity_passages: usize,
    pub parity_tokens: usize,
    pub parity_decoder: DecoderSpec,
    pub parity_steps: usize,
    pub parity_prompt_tokens: usize,
    pub encoder: EncoderSpec,
    /// Compute dtype of the sweep on this device (the peer uses the same).
    pub encoder_dtype: String,
    /// The sweep's modes: `false` dense (CLS) only, `true` with bge-m3's
    /// sparse and ColBERT heads, their outputs copied to the host; the peer
    /// runs the same modes.
    pub encoder_heads: Vec<bool>,
    pub sweeps: Vec<Sweep>,
    /// Shortest timed span of one sweep point (seconds).
    pub min_seconds: f64,
    pub decoders: Vec<DecoderSpec>,
    pub prefill_tokens: usize,
    pub decode_steps: usize,
    pub e2e_embedder: EncoderSpec,
    pub e2e_questions: Vec<String>,
}

/// Questions for the end-to-end search latency (own wording; timing only,
/// the random embedder ranks nothing meaningfully).
const E2E_QUESTIONS: &[&str] = &[
    "Wann muss eine Datenpanne der Aufsichtsbehörde gemeldet werden?",
    "Welche Pflichten hat ein Hersteller vernetzter Produkte bei Schwachstellen?",
    "Dürfen Beschäftigtendaten für die Zeiterfassung verarbeitet werden?",
    "Which AI systems count as high-risk under the AI Act?",
    "Wer muss einen Datenschutzbeauftragten benennen?",
    "What must an essential entity report after a significant incident?",
    "Ist eine Einwilligung für Tracking-Cookies nötig?",
    "Welche Bußgelder drohen bei Verstößen gegen die DSGVO?",
];

impl Plan {
    /// The plan for `device`; `tiny` = small shapes for a CPU run.
    pub fn new(device: DeviceChoice, tiny: bool, device_is_cpu: bool) -> Plan {
        let enc = |name: &str, config: EncoderConfig, m3_heads: bool| EncoderSpec {
            name: name.into(),
            config,
            m3_heads,
        };
        let dec = |name: &str, shape: Qwen2Shape| DecoderSpec {
            name: name.into(),
            shape,
            quant: QuantMix::Q4KM.name(),
        };
        let xlmr_vocab = EncoderConfig::xlm_roberta_large().vocab_size;
        let (parity_encoders, encoder, e2e, parity_decoder, decoders) = if tiny {
            let tiny_enc = EncoderConfig::tiny_xlm_roberta(1000);
            let mut tiny_bert = tiny_enc.clone();
            tiny_bert.model_type = Some("bert".into());
            tiny_bert.type_vocab_size = 2;
            tiny_bert.pad_token_id = 0;
            (
                vec![
                    enc("tiny-bert (e5-small layout)", tiny_bert, false),
                    enc("tiny-xlm-r (bge-m3 layout)", tiny_enc.clone(), true),
                ],
                enc("tiny-xlm-r (bge-m3 layout)", tiny_enc, true),
                enc(
                    "tiny-xlm-r (bge-m3 layout)",
                    EncoderConfig::tiny_xlm_roberta(xlmr_vocab),
                    true,
                ),
                dec("small qwen2 (k-quant rows)", Qwen2Shape::small_k()),
                vec![
                    dec("small qwen2 (k-quant rows)", Qwen2Shape::small_k()),
                    dec("tiny qwen2 (fallback rows)", Qwen2Shape::tiny()),
                ],
            )
        } else {
            (
                vec![
                    enc("multilingual-e5-small", EncoderConfig::e5_small(), false),
                    enc("bge-m3", EncoderConfig::xlm_roberta_large(), true),
                ],
                enc("bge-m3", EncoderConfig::xlm_roberta_large(), true),
                enc("bge-m3", EncoderConfig::xlm_roberta_large(), true),
                dec("qwen2.5-0.5b", Qwen2Shape::qwen2_5_0_5b()),
                vec![
                    dec("qwen2.5-1.5b", Qwen2Shape::qwen2_5_1_5b()),
                    dec("qwen2.5-7b", Qwen2Shape::qwen2_5_7b()),
                ],
            )
        };
        Plan {
            device: device.to_string(),
            tiny,
            peak_bf16_tflops_measured: PEAK_BF16_TFLOPS_MEASURED,
            peak_bf16_tflops_datasheet: PEAK_BF16_TFLOPS_DATASHEET,
            hbm_tb_per_s_datasheet: HBM_TB_PER_S_DATASHEET,
            hbm_tb_per_s_measured: HBM_TB_PER_S_MEASURED,
            parity_gap_noise: PARITY_GAP_NOISE,
            parity_argmax_agree: PARITY_ARGMAX_AGREE,
            parity_cos_f32: PARITY_COS_F32,
            parity_cos_half: PARITY_COS_HALF,
            parity_encoders,
            parity_passages: 4,
            parity_tokens: if tiny { 24 } else { 128 },
            parity_decoder,
            parity_steps: PARITY_STEPS,
            parity_prompt_tokens: 16,
            encoder,
            encoder_dtype: if device_is_cpu { "f32" } else { "f16" }.into(),
            encoder_heads: vec![false, true],
            sweeps: if tiny {
                vec![
                    Sweep {
                        tokens: 32,
                        batches: vec![1, 4],
                    },
                    Sweep {
                        tokens: 64,
                        batches: vec![1, 4],
                    },
                ]
            } else {
                vec![
                    Sweep {
                        tokens: 128,
                        batches: vec![1, 8, 32, 128, 256],
                    },
                    Sweep {
                        tokens: 512,
                        batches: vec![1, 8, 32, 64],
                    },
                ]
            },
            min_seconds: if tiny { 0.05 } else { 1.0 },
            decoders,
            prefill_tokens: if tiny { 64 } else { 512 },
            decode_steps: if tiny { 16 } else { 64 },
            e2e_embedder: e2e,
            e2e_questions: E2E_QUESTIONS.iter().map(|s| s.to_string()).collect(),
        }
    }
}

fn err(what: impl std::fmt::Display) -> EngineError {
    EngineError::Other(format!("gpu-check: {what}"))
}

/// Writes `path` atomically (a temporary file renamed over it), so that a
/// part killed by its time box never leaves half a JSON file.
fn write_json(path: &Path, v: &Value) -> Result<(), EngineError> {
    let text = serde_json::to_string_pretty(v).map_err(err)?;
    write_atomic(path, &(text + "\n"))
}

fn write_atomic(path: &Path, text: &str) -> Result<(), EngineError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| err(format!("writing {}: {e}", path.display())))
}

fn read_json(path: &Path) -> Option<Value> {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
}

/// A part's JSON file, rewritten after every row (`complete: false` until
/// the part ends), so that a time box leaves the rows measured so far.
struct PartFile {
    path: PathBuf,
    part: &'static str,
    rows: Vec<Value>,
    notes: Vec<String>,
    started: Instant,
}

impl PartFile {
    fn new(out: &Path, part: &'static str) -> Result<PartFile, EngineError> {
        let f = PartFile {
            path: out.join(format!("{part}.json")),
            part,
            rows: Vec::new(),
            notes: Vec::new(),
            started: Instant::now(),
        };
        f.flush(false)?;
        Ok(f)
    }
    fn push(&mut self, row: Value) -> Result<(), EngineError> {
        tracing::info!("{}: {row}", self.part);
        self.rows.push(row);
        self.flush(false)
    }
    fn note(&mut self, n: String) -> Result<(), EngineError> {
        tracing::info!("{}: {n}", self.part);
        self.notes.push(n);
        self.flush(false)
    }
    fn flush(&self, complete: bool) -> Result<(), EngineError> {
        write_json(
            &self.path,
            &json!({
                "part": self.part,
                "complete": complete,
                "seconds": self.started.elapsed().as_secs_f64(),
                "rows": self.rows,
                "notes": self.notes,
            }),
        )
    }
    fn finish(self) -> Result<(), EngineError> {
        self.flush(true)
    }
}

/// Opens the device the check is about; a GPU asked for and not there is an
/// error here (a silent CPU fallback would report CPU figures as GPU ones).
fn device(choice: DeviceChoice) -> Result<candle_core::Device, EngineError> {
    let (dev, warn) = select_device(choice);
    match warn {
        Some(w) => Err(err(w)),
        None => Ok(dev),
    }
}

fn dtype_of(name: &str) -> candle_core::DType {
    match name {
        "f16" => candle_core::DType::F16,
        "bf16" => candle_core::DType::BF16,
        _ => candle_core::DType::F32,
    }
}

/// Runs one part (see the module docs); `plan` is written by the `plan`
/// part and read by the others.
pub fn run_part(part: &str, opts: &GpuCheckOptions) -> Result<(), EngineError> {
    std::fs::create_dir_all(&opts.out)
        .map_err(|e| err(format!("creating {}: {e}", opts.out.display())))?;
    let plan_path = opts.out.join("plan.json");
    if part == "plan" {
        let dev = device(opts.device)?;
        let plan = Plan::new(opts.device, opts.tiny, dev.is_cpu());
        return write_json(&plan_path, &serde_json::to_value(&plan).map_err(err)?);
    }
    if part == "report" {
        return report(&opts.out);
    }
    let plan: Plan = read_json(&plan_path)
        .and_then(|v| serde_json::from_value(v).ok())
        .ok_or_else(|| {
            err(format!(
                "no readable plan.json in {}: run `--part plan` first",
                opts.out.display()
            ))
        })?;
    let dev = device(opts.device)?;
    std::fs::create_dir_all(&opts.work)
        .map_err(|e| err(format!("creating {}: {e}", opts.work.display())))?;
    match part {
        "parity" => parity(&plan, &dev, &opts.out, &opts.work),
        "prepare" => prepare(&plan, &opts.out, &opts.work),
        "encoder" => encoder(&plan, &dev, &opts.out),
        "decoder" => decoder(&plan, &dev, &opts.out, &opts.work),
        "e2e" => e2e(&plan, opts, &opts.out, &opts.work),
        other => Err(err(format!(
            "unknown part `{other}` (one of {})",
            PARTS.join(", ")
        ))),
    }
}

/// Passages of varying length (longest `tokens`), so that one batch pads.
fn parity_ids(enc: &RandomEncoder, n: usize, tokens: usize) -> Vec<Vec<u32>> {
    let mut ids = enc.synthetic_ids(tokens, n);
    for (k, s) in ids.iter_mut().enumerate() {
        let keep = (tokens - k * tokens / (2 * n)).max(3);
        s.truncate(keep - 1);
        s.push(2);
    }
    ids
}

/// Root-mean-square difference of two logit vectors (infinite when the
/// lengths differ).
fn rms_diff(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() || a.is_empty() {
        return f64::INFINITY;
    }
    let ss: f64 = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| (x as f64 - y as f64).powi(2))
        .sum();
    (ss / a.len() as f64).sqrt()
}

fn compare_embeddings(reference: &[Embedding], got: &[Embedding]) -> Value {
    let min = |v: Vec<f64>| v.into_iter().fold(f64::INFINITY, f64::min);
    let dense = min(reference
        .iter()
        .zip(got)
        .map(|(a, b)| cosine(&a.dense, &b.dense))
        .collect());
    let sparse: Vec<f64> = reference
        .iter()
        .zip(got)
        .filter_map(|(a, b)| {
            let (x, y) = sparse_pair(a.sparse.as_deref()?, b.sparse.as_deref()?);
            Some(cosine(&x, &y))
        })
        .collect();
    let colbert: Vec<f64> = reference
        .iter()
        .zip(got)
        .filter_map(|(a, b)| {
            let (x, y) = (a.colbert.as_ref()?, b.colbert.as_ref()?);
            if x.len() != y.len() {
                return Some(0.0);
            }
            Some(min(x.iter().zip(y).map(|(p, q)| cosine(p, q)).collect()))
        })
        .collect();
    json!({
        "dense_cos_min": dense,
        "sparse_cos_min": (!sparse.is_empty()).then(|| min(sparse)),
        "colbert_cos_min": (!colbert.is_empty()).then(|| min(colbert)),
    })
}

fn parity(
    plan: &Plan,
    dev: &candle_core::Device,
    out: &Path,
    work: &Path,
) -> Result<(), EngineError> {
    let mut f = PartFile::new(out, "parity")?;
    let cpu = candle_core::Device::Cpu;
    for spec in &plan.parity_encoders {
        let t = Instant::now();
        let weights = random_encoder_tensors(&spec.config, spec.m3_heads, 7, &cpu)
            .map_err(|e| err(format!("{}: random weights: {e}", spec.name)))?;
        let reference = RandomEncoder::from_tensors(
            &spec.config,
            spec.m3_heads,
            weights.clone(),
            &cpu,
            candle_core::DType::F32,
        )?;
        let ids = parity_ids(&reference, plan.parity_passages, plan.parity_tokens);
        let want = reference.embed_ids(&ids)?;
        drop(reference);
        let setup_s = t.elapsed().as_secs_f64();
        for dt in ["f32", "f16", "bf16"] {
            let t = Instant::now();
            let threshold = if dt == "f32" {
                plan.parity_cos_f32
            } else {
                plan.parity_cos_half
            };
            let row = RandomEncoder::from_tensors(
                &spec.config,
                spec.m3_heads,
                weights.clone(),
                dev,
                dtype_of(dt),
            )
            .and_then(|e| e.embed_ids(&ids));
            match row {
                Ok(got) => {
                    let mut cmp = compare_embeddings(&want, &got);
                    let worst = ["dense_cos_min", "sparse_cos_min", "colbert_cos_min"]
                        .iter()
                        .filter_map(|k| cmp[*k].as_f64())
                        .fold(f64::INFINITY, f64::min);
                    cmp["model"] = json!(spec.name);
                    cmp["dtype"] = json!(dt);
                    cmp["passages"] = json!(ids.len());
                    cmp["threshold"] = json!(threshold);
                    cmp["pass"] = json!(worst >= threshold);
                    cmp["seconds"] = json!(t.elapsed().as_secs_f64() + setup_s);
                    f.push(cmp)?;
                }
                Err(e) => f.push(
                    json!({"model": spec.name, "dtype": dt, "pass": false, "error": e.to_string()}),
                )?,
            }
        }
    }
    // The GGUF: the same file on both devices, greedy.
    let spec = &plan.parity_decoder;
    let path = work.join("parity-decoder.gguf");
    let facts = write_random_qwen2_gguf(&path, &spec.shape, QuantMix::Q4KM, 11)?;
    let prompt: Vec<u32> = (0..plan.parity_prompt_tokens as u32)
        .map(|i| (i * 37 + 11) % 256)
        .collect();
    let mut on_cpu = load_generator_from_file(&path, None, None, &cpu)?;
    let want = on_cpu.greedy_logits(&prompt, plan.parity_steps, None)?;
    drop(on_cpu);
    let mut on_dev = load_generator_from_file(&path, None, None, dev)?;
    let free = on_dev.greedy_logits(&prompt, plan.parity_steps, None)?;
    let forced_tokens: Vec<u32> = want.iter().map(|(t, _)| *t).collect();
    let forced = on_dev.greedy_logits(&prompt, plan.parity_steps, Some(&forced_tokens))?;
    let same_prefix = want
        .iter()
        .zip(&free)
        .take_while(|(a, b)| a.0 == b.0)
        .count();
    let steps: Vec<Value> = want
        .iter()
        .zip(&forced)
        .map(|((a, la), (_, lb))| {
            json!({"cpu": a, "device": argmax(lb), "cos": cosine(la, lb),
                   "max_abs_diff": max_abs_diff(la, lb), "rms_diff": rms_diff(la, lb),
                   "cpu_top2_gap": top2_gap(la)})
        })
        .collect();
    let cos_min = steps
        .iter()
        .filter_map(|s| s["cos"].as_f64())
        .fold(f64::INFINITY, f64::min);
    let diff_max = steps
        .iter()
        .filter_map(|s| s["max_abs_diff"].as_f64())
        .fold(0.0, f64::max);
    let forced_agree = steps.iter().filter(|s| s["cpu"] == s["device"]).count();
    // judged: the steps whose CPU top-2 gap is above noise
    let judged: Vec<&Value> = steps
        .iter()
        .filter(|s| {
            let gap = s["cpu_top2_gap"].as_f64().unwrap_or(0.0);
            gap > 0.0 && gap > plan.parity_gap_noise * s["rms_diff"].as_f64().unwrap_or(f64::MAX)
        })
        .collect();
    let judged_agree = judged.iter().filter(|s| s["cpu"] == s["device"]).count();
    let share = judged_agree as f64 / judged.len().max(1) as f64;
    f.push(json!({
        "model": spec.name, "quant": spec.quant, "tensor_types": facts.tensor_types,
        "steps": plan.parity_steps,
        "same_greedy_tokens": same_prefix,
        "forced_argmax_agree": forced_agree,
        "judged_steps": judged.len(), "judged_gap_noise": plan.parity_gap_noise,
        "judged_argmax_agree": judged_agree,
        "logits_cos_min": cos_min, "logits_max_abs_diff": diff_max,
        "threshold": plan.parity_cos_half,
        "argmax_threshold": plan.parity_argmax_agree,
        // no step above noise: the argmax cannot be judged, the cosine can
        "pass": (judged.is_empty() || share >= plan.parity_argmax_agree)
            && cos_min >= plan.parity_cos_half,
        "per_step": steps,
    }))?;
    let _ = std::fs::remove_file(&path);
    f.finish()
}

fn encoder(plan: &Plan, dev: &candle_core::Device, out: &Path) -> Result<(), EngineError> {
    let mut f = PartFile::new(out, "encoder")?;
    let spec = &plan.encoder;
    for &heads in &plan.encoder_heads {
        if heads && !spec.m3_heads {
            continue;
        }
        let t = Instant::now();
        let enc = RandomEncoder::new(&spec.config, heads, dev, dtype_of(&plan.encoder_dtype), 1)?;
        f.note(format!(
            "{} random weights on the device in {:.1} s ({}, {})",
            spec.name,
            t.elapsed().as_secs_f64(),
            plan.encoder_dtype,
            if heads {
                "with sparse + ColBERT heads"
            } else {
                "dense only"
            }
        ))?;
        for sweep in &plan.sweeps {
            for &batch in &sweep.batches {
                match enc.batch_rate(sweep.tokens, batch, plan.min_seconds, 2) {
                    Ok(r) => f.push(rate_row(spec, plan, heads, &r))?,
                    Err(e) => {
                        f.note(format!("{} tokens × {batch}: {e}", sweep.tokens))?;
                        break;
                    }
                }
            }
        }
    }
    f.finish()
}

fn rate_row(spec: &EncoderSpec, plan: &Plan, heads: bool, r: &BatchRate) -> Value {
    json!({
        "model": spec.name, "dtype": plan.encoder_dtype, "heads": heads,
        "tokens": r.tokens, "batch": r.batch,
        "calls": r.calls, "passages_per_s": r.passages_per_s, "tokens_per_s": r.tokens_per_s,
        "tflops": r.tflops,
        "mfu_measured_peak": r.tflops / plan.peak_bf16_tflops_measured,
        "mfu_datasheet_peak": r.tflops / plan.peak_bf16_tflops_datasheet,
    })
}

fn decoder_file(work: &Path, spec: &DecoderSpec) -> (PathBuf, PathBuf) {
    let stem = format!("decoder-{}", spec.shape.hidden);
    (
        work.join(format!("{stem}.gguf")),
        work.join(format!("{stem}.facts.json")),
    )
}

/// Writes the decoders' GGUFs (quantising ~1.3 G values for the 7B shape)
/// and their facts into `work`, one row per file.
fn prepare(plan: &Plan, out: &Path, work: &Path) -> Result<(), EngineError> {
    let mut f = PartFile::new(out, "prepare")?;
    for spec in &plan.decoders {
        let (path, facts_path) = decoder_file(work, spec);
        let _ = std::fs::remove_file(&facts_path);
        let t = Instant::now();
        let facts: GgufFacts = write_random_qwen2_gguf(&path, &spec.shape, QuantMix::Q4KM, 3)?;
        let facts = serde_json::to_value(&facts).map_err(err)?;
        write_json(&facts_path, &facts)?;
        f.push(
            json!({"model": spec.name, "write_s": t.elapsed().as_secs_f64(),
                      "file_bytes": facts["file_bytes"]}),
        )?;
    }
    f.finish()
}

fn decoder(
    plan: &Plan,
    dev: &candle_core::Device,
    out: &Path,
    work: &Path,
) -> Result<(), EngineError> {
    let mut f = PartFile::new(out, "decoder")?;
    for spec in &plan.decoders {
        let (path, facts_path) = decoder_file(work, spec);
        let t = Instant::now();
        let facts = match read_json(&facts_path).filter(|_| path.is_file()) {
            Some(v) => v,
            None => {
                f.note(format!(
                    "{}: no GGUF from the prepare part; quantising it inside this box",
                    spec.name
                ))?;
                let facts = write_random_qwen2_gguf(&path, &spec.shape, QuantMix::Q4KM, 3)?;
                serde_json::to_value(&facts).map_err(err)?
            }
        };
        let write_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut g = load_generator_from_file(&path, None, None, dev)?;
        let load_s = t.elapsed().as_secs_f64();
        let prompt: Vec<u32> = (0..plan.prefill_tokens as u32)
            .map(|i| (i * 53 + 7) % 256)
            .collect();
        let params = GenParams {
            max_tokens: plan.decode_steps,
            temperature: 0.0,
            ..GenParams::default()
        };
        // one warm-up turn (kernels, allocator), then the timed one
        let warm = GenParams {
            max_tokens: 2,
            ..params.clone()
        };
        g.generate_ids(&prompt, &warm, &mut |_| true)?;
        let (o, _) = g.generate_ids(&prompt, &params, &mut |_| true)?;
        drop(g);
        let decode_steps = o.generated_tokens.saturating_sub(1).max(1);
        let decode = decode_steps as f64 / (o.decode_ms / 1e3);
        let per_token = facts["weight_bytes_per_token"].as_f64().unwrap_or(f64::NAN);
        let bound = plan.hbm_tb_per_s_datasheet * 1e12 / per_token;
        let bound_measured = plan.hbm_tb_per_s_measured * 1e12 / per_token;
        f.push(json!({
            "model": spec.name, "quant": spec.quant, "params": spec.shape.params(),
            "file_bytes": facts["file_bytes"], "weight_bytes_per_token": facts["weight_bytes_per_token"],
            "tensor_types": facts["tensor_types"],
            "write_s": write_s, "load_s": load_s,
            "prompt_tokens": o.prompt_tokens, "generated_tokens": o.generated_tokens,
            "prefill_tok_per_s": o.prompt_tokens as f64 / (o.prefill_ms / 1e3),
            "decode_tok_per_s": decode,
            "decode_bound_tok_per_s": bound,
            "decode_of_bound": decode / bound,
            "decode_bound_measured_bw_tok_per_s": bound_measured,
            "decode_of_measured_bound": decode / bound_measured,
        }))?;
        let _ = std::fs::remove_file(&path);
    }
    f.finish()
}

fn e2e(plan: &Plan, opts: &GpuCheckOptions, out: &Path, work: &Path) -> Result<(), EngineError> {
    let corpus = opts
        .corpus
        .clone()
        .ok_or_else(|| err("part e2e needs --corpus (the kit's core corpus)"))?;
    let tokenizer = opts
        .tokenizer
        .clone()
        .ok_or_else(|| err("part e2e needs --tokenizer (XLM-R tokenizer.json)"))?;
    let mut f = PartFile::new(out, "e2e")?;
    let spec = &plan.e2e_embedder;
    let model_dir = work.join("random-bge-m3");
    let t = Instant::now();
    let name = "random-bge-m3";
    let entry = write_random_encoder_dir(
        &model_dir,
        name,
        &spec.config,
        spec.m3_heads,
        &tokenizer,
        dtype_of(&plan.encoder_dtype),
        5,
    )?;
    // the shipped registry plus the random model (its defaults stay)
    let registry = Registry::parse(
        &format!("{}\n{entry}", paragraf_models::BUILTIN_MODELS_TOML),
        "gpu-check registry",
    )?;
    f.note(format!(
        "random {} written in {:.1} s",
        spec.name,
        t.elapsed().as_secs_f64()
    ))?;
    let index = work.join("index-core");
    let _ = std::fs::remove_dir_all(&index);
    let build = BuildOptions {
        device: opts.device,
        batch_size: 64,
        f16: true,
        core_only: true,
        checkpoint: Some(work.join("index-core.embeddings")),
        heading_vectors: true,
        ..BuildOptions::new(
            corpus,
            index.clone(),
            name,
            registry.clone(),
            ResolveOptions::default(),
        )
    };
    let _ = std::fs::remove_dir_all(work.join("index-core.embeddings"));
    let t = Instant::now();
    let report = build_index(&build, &|_| {})?;
    f.push(json!({
        "stage": "index build (core corpus)", "chunks": report.chunks, "embedded": report.embedded,
        "stage_s": report.stage_ms.iter().map(|(k, v)| (k.clone(), v / 1e3)).collect::<std::collections::BTreeMap<_, _>>(),
        "total_s": t.elapsed().as_secs_f64(), "size_bytes": report.size_bytes,
    }))?;
    let t = Instant::now();
    let engine = Engine::open(EngineOptions {
        index_dir: index,
        registry,
        resolve: ResolveOptions::default(),
        device: opts.device,
        answer_model: None,
        params: paragraf_engine::ParamsSource::Given(Box::default()),
        warm_up: true,
        query_batch_max: None,
        query_cache_entries: 0,
    })?;
    let open_s = t.elapsed().as_secs_f64();
    let per_stage = crate::bench::bench_search(
        &engine,
        &plan.e2e_questions,
        if plan.tiny { 1 } else { 5 },
        0,
        None,
    )?;
    let stats: serde_json::Map<String, Value> = per_stage
        .iter()
        .filter_map(|(k, v)| {
            let s = Stat::from_samples(v)?;
            Some((
                k.clone(),
                json!({"p50_ms": s.median, "p99_ms": paragraf_eval::stats::percentile(v, 99.0), "n": v.len()}),
            ))
        })
        .collect();
    f.push(json!({"stage": "search", "open_s": open_s, "questions": plan.e2e_questions.len(), "timings": stats}))?;
    f.finish()
}

#[cfg(test)]
mod tests;
