//! GGUF answer models (qwen2, llama, gemma3, phi3) through candle-transformers'
//! quantized models: chat template, seeded/greedy sampling, repeat penalty,
//! stop tokens and strings, streaming, KV cache within a request.

use crate::chat::{default_system, render_chat, ChatTemplate, PromptPiece};
use crate::generator::{
    ChatMessage, GenOutput, GenParams, Generator, GeneratorInfo, GreedyTiming, StopReason,
};
use crate::gguf_tokenizer::{tokenizer_from_gguf, GgufTokenizer};
use crate::registry::{Architecture, ModelEntry, ModelKind};
use crate::resolve::{resolve, ResolveOptions};
use crate::{ModelError, Registry};
use candle_core::quantized::gguf_file;
use candle_core::{DType, Device, Tensor};
use candle_transformers::generation::{LogitsProcessor, Sampling};
use candle_transformers::models::{quantized_gemma3, quantized_llama, quantized_phi3};
use std::collections::HashSet;
use std::path::Path;
use std::time::Instant;

enum Weights {
    Qwen2(crate::qwen2::ModelWeights),
    Llama(quantized_llama::ModelWeights),
    Gemma3(quantized_gemma3::ModelWeights),
    Phi3(quantized_phi3::ModelWeights),
}

impl Weights {
    fn forward(&mut self, x: &Tensor, pos: usize) -> candle_core::Result<Tensor> {
        match self {
            Weights::Qwen2(m) => m.forward(x, pos),
            Weights::Llama(m) => m.forward(x, pos),
            Weights::Gemma3(m) => m.forward(x, pos),
            Weights::Phi3(m) => m.forward(x, pos),
        }
    }
}

/// A GGUF chat model.
pub struct GgufGenerator {
    weights: Weights,
    tok: GgufTokenizer,
    /// Optional tokenizer.json replacing the GGUF tokenizer for text.
    text_tokenizer: Option<tokenizers::Tokenizer>,
    template: ChatTemplate,
    default_system: Option<String>,
    stop_ids: HashSet<u32>,
    info: GeneratorInfo,
    device: Device,
}

fn load_weights<R: std::io::Read + std::io::Seek>(
    family: Architecture,
    ct: gguf_file::Content,
    reader: &mut R,
    device: &Device,
) -> candle_core::Result<Weights> {
    Ok(match family {
        Architecture::Qwen2 => {
            Weights::Qwen2(crate::qwen2::ModelWeights::from_gguf(ct, reader, device)?)
        }
        Architecture::Llama => Weights::Llama(quantized_llama::ModelWeights::from_gguf(
            ct, reader, device,
        )?),
        Architecture::Gemma3 => Weights::Gemma3(quantized_gemma3::ModelWeights::from_gguf(
            ct, reader, device,
        )?),
        _ => Weights::Phi3(quantized_phi3::ModelWeights::from_gguf(
            false, ct, reader, device,
        )?),
    })
}

fn md_u32(ct: &gguf_file::Content, key: &str) -> Option<usize> {
    ct.metadata
        .get(key)
        .and_then(|v| v.to_u32().ok())
        .map(|v| v as usize)
}

/// Resolves and loads the answer model `name` onto `device`.
pub fn load_generator(
    reg: &Registry,
    name: &str,
    opts: &ResolveOptions,
    device: &Device,
) -> Result<Box<dyn Generator>, ModelError> {
    let entry = reg.get(name)?;
    if entry.kind != ModelKind::Answer {
        return Err(ModelError::WrongArchitecture {
            model: name.to_string(),
            found: format!("{} ({})", entry.kind.as_str(), entry.architecture.as_str()),
            expected: "an answer model (GGUF)".into(),
        });
    }
    let files = resolve(entry, opts)?;
    if entry.architecture == Architecture::Scripted {
        let g = crate::scripted::ScriptedGenerator::from_file(&entry.name, &files.weights)?;
        let delay = std::time::Duration::from_millis(entry.word_delay_ms.unwrap_or(0));
        return Ok(Box::new(g.with_word_delay(delay)));
    }
    let g = load_generator_from_file(
        &files.weights,
        files.tokenizer.as_deref(),
        Some(entry),
        device,
    )?;
    Ok(Box::new(g))
}

/// Loads a GGUF chat model from a file. With `entry`, the architecture is
/// checked against the registry and its template/context settings apply.
pub fn load_generator_from_file(
    path: &Path,
    tokenizer_json: Option<&Path>,
    entry: Option<&ModelEntry>,
    device: &Device,
) -> Result<GgufGenerator, ModelError> {
    let mut file = std::fs::File::open(path).map_err(|source| ModelError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let ct = gguf_file::Content::read(&mut file)
        .map_err(|e| ModelError::invalid(path, format!("not a readable GGUF file: {e}")))?;
    let (arch, family, model_name) = architecture_of(&ct, path, entry)?;
    check_tensors_in_file(&ct, &file, path)?;
    let tok = tokenizer_from_gguf(&ct, &path.display().to_string())?;
    let jinja = ct
        .metadata
        .get("tokenizer.chat_template")
        .and_then(|v| v.to_string().ok())
        .cloned()
        .unwrap_or_default();
    let template = match entry.and_then(|e| e.chat_template.as_deref()) {
        Some(name) if name != "gguf" => ChatTemplate::from_name(name),
        _ => ChatTemplate::detect(&jinja),
    }
    .unwrap_or(match family {
        Architecture::Gemma3 => ChatTemplate::Gemma,
        Architecture::Phi3 => ChatTemplate::Phi3,
        Architecture::Llama if tok.id("<|start_header_id|>").is_some() => ChatTemplate::Llama3,
        _ => ChatTemplate::ChatMl,
    });
    for t in template.required_tokens() {
        if tok.id(t).is_none() {
            return Err(ModelError::Tokenizer {
                context: path.display().to_string(),
                message: format!(
                    "chat template {} needs token `{t}`, which the vocabulary lacks",
                    template.as_str()
                ),
            });
        }
    }
    let mut stop_ids: HashSet<u32> = template
        .end_of_turn_tokens()
        .iter()
        .filter_map(|t| tok.id(t))
        .collect();
    stop_ids.extend(tok.eos);
    let n_vocab = ct
        .tensor_infos
        .get("token_embd.weight")
        .and_then(|i| i.shape.dims().first().copied())
        .unwrap_or(tok.tokens.len());
    if tok.tokens.len() > n_vocab {
        return Err(ModelError::Tokenizer {
            context: path.display().to_string(),
            message: format!(
                "vocabulary has {} tokens but the embedding has {n_vocab} rows",
                tok.tokens.len()
            ),
        });
    }
    let text_tokenizer = match tokenizer_json {
        Some(p) => {
            let t = crate::embed_load::load_tokenizer_json(p)?;
            let n = t.get_vocab_size(true);
            if n > n_vocab {
                return Err(ModelError::Tokenizer {
                    context: p.display().to_string(),
                    message: format!("tokenizer has {n} tokens but the model only {n_vocab}; tokenizer does not match the model"),
                });
            }
            Some(t)
        }
        None => None,
    };
    let ctx_len = md_u32(&ct, &format!("{arch}.context_length")).unwrap_or(4096);
    let context_length = entry.map(|e| e.max_tokens.min(ctx_len)).unwrap_or(ctx_len);
    let load =
        |e: candle_core::Error| ModelError::invalid(path, format!("loading {arch} weights: {e}"));
    let mut ct = ct;
    // CPU only: Q5_0 matrices run on our kernel (qwen2 + q5_0) or, where
    // that cannot run, as the same values in Q8_0 (gguf_widen)
    let own_kernel = family == Architecture::Qwen2 && crate::q5_0::available();
    let widened = if device.is_cpu() && !own_kernel {
        crate::gguf_widen::widen_q5_0(&mut ct, &mut file).map_err(|source| ModelError::Io {
            path: path.to_path_buf(),
            source,
        })?
    } else {
        None
    };
    let weights = match widened {
        Some(mut reader) => load_weights(family, ct, &mut reader, device),
        None => load_weights(family, ct, &mut file, device),
    }
    .map_err(load)?;
    let info = GeneratorInfo {
        name: model_name,
        architecture: arch,
        chat_template: template.as_str().to_string(),
        context_length,
        vocab_size: n_vocab,
        path: path.to_path_buf(),
    };
    Ok(GgufGenerator {
        weights,
        default_system: default_system(&jinja),
        tok,
        text_tokenizer,
        template,
        stop_ids,
        info,
        device: device.clone(),
    })
}

/// The GGUF's architecture, its family (checked against the registry
/// entry when there is one) and the model's name.
fn architecture_of(
    ct: &gguf_file::Content,
    path: &Path,
    entry: Option<&ModelEntry>,
) -> Result<(String, Architecture, String), ModelError> {
    let arch = ct
        .metadata
        .get("general.architecture")
        .and_then(|v| v.to_string().ok())
        .cloned()
        .ok_or_else(|| ModelError::invalid(path, "GGUF without general.architecture"))?;
    let model_name = entry.map(|e| e.name.clone()).unwrap_or_else(|| {
        path.file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    let expected = entry.map(|e| e.architecture);
    let family = match arch.as_str() {
        "qwen2" => Architecture::Qwen2,
        "llama" => Architecture::Llama,
        "gemma3" | "gemma2" | "gemma" => Architecture::Gemma3,
        "phi3" => Architecture::Phi3,
        other => {
            return Err(ModelError::WrongArchitecture {
                model: model_name,
                found: other.to_string(),
                expected: "qwen2, llama, gemma3 or phi3".into(),
            })
        }
    };
    if let Some(exp) = expected {
        if exp != family {
            return Err(ModelError::WrongArchitecture {
                model: model_name,
                found: arch,
                expected: exp.as_str().to_string(),
            });
        }
    }
    Ok((arch, family, model_name))
}

/// Every tensor lies inside the file (truncated downloads).
fn check_tensors_in_file(
    ct: &gguf_file::Content,
    file: &std::fs::File,
    path: &Path,
) -> Result<(), ModelError> {
    let file_len = file
        .metadata()
        .map_err(|source| ModelError::Io {
            path: path.to_path_buf(),
            source,
        })?
        .len();
    for (name, info) in &ct.tensor_infos {
        let bytes =
            info.shape.elem_count() / info.ggml_dtype.block_size() * info.ggml_dtype.type_size();
        let end = ct.tensor_data_offset + info.offset + bytes as u64;
        if end > file_len {
            return Err(ModelError::invalid(
                path,
                format!("truncated: tensor `{name}` ends at byte {end} but the file has {file_len} bytes"),
            ));
        }
    }
    Ok(())
}

impl GgufGenerator {
    fn encode_text(&self, text: &str) -> Result<Vec<u32>, ModelError> {
        let t = self.text_tokenizer.as_ref().unwrap_or(&self.tok.tokenizer);
        t.encode(text, false)
            .map(|e| e.get_ids().to_vec())
            .map_err(|e| ModelError::Tokenizer {
                context: self.info.path.display().to_string(),
                message: e.to_string(),
            })
    }

    fn decode(&self, ids: &[u32]) -> Result<String, ModelError> {
        let ids: Vec<u32> = ids
            .iter()
            .copied()
            .filter(|&i| !self.tok.is_control(i))
            .collect();
        let t = self.text_tokenizer.as_ref().unwrap_or(&self.tok.tokenizer);
        t.decode(&ids, false).map_err(|e| ModelError::Tokenizer {
            context: self.info.path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Token ids of the rendered chat prompt.
    pub fn prompt_ids(&self, messages: &[ChatMessage]) -> Result<Vec<u32>, ModelError> {
        if messages.is_empty() {
            return Err(ModelError::InvalidInput("no messages".into()));
        }
        let pieces = render_chat(self.template, messages, self.default_system.as_deref());
        let mut ids = Vec::new();
        let starts_with_bos = matches!(pieces.first(), Some(PromptPiece::Special(s)) if self.tok.id(s) == self.tok.bos);
        if self.tok.add_bos && !starts_with_bos {
            ids.extend(self.tok.bos);
        }
        for p in pieces {
            match p {
                PromptPiece::Special(s) => {
                    ids.push(self.tok.id(s).ok_or_else(|| ModelError::Tokenizer {
                        context: self.info.path.display().to_string(),
                        message: format!("special token `{s}` missing"),
                    })?)
                }
                PromptPiece::Text(t) => ids.extend(self.encode_text(&t)?),
            }
        }
        Ok(ids)
    }

    /// Greedy decoding for parity checks: `steps` tokens after `prompt`,
    /// each with the logits it was chosen from. With `forced`, step `i`
    /// feeds `forced[i]` as the next input instead of its own choice
    /// (teacher forcing: two devices then see the same inputs, so their
    /// logits compare step by step even after a near-tie flips a choice).
    pub fn greedy_logits(
        &mut self,
        prompt: &[u32],
        steps: usize,
        forced: Option<&[u32]>,
    ) -> Result<Vec<(u32, Vec<f32>)>, ModelError> {
        if prompt.is_empty() || prompt.len() + steps >= self.info.context_length {
            return Err(ModelError::InvalidInput(format!(
                "greedy trace of {} prompt tokens and {steps} steps does not fit the context window {}",
                prompt.len(),
                self.info.context_length
            )));
        }
        let mut out = Vec::with_capacity(steps);
        let mut input: Vec<u32> = prompt.to_vec();
        let mut pos = 0usize;
        for i in 0..steps {
            let x = Tensor::new(&input[..], &self.device)
                .and_then(|t| t.unsqueeze(0))
                .map_err(ModelError::candle("greedy trace"))?;
            let logits: Vec<f32> = self
                .weights
                .forward(&x, pos)
                .and_then(|l| l.squeeze(0)?.to_dtype(DType::F32)?.to_vec1())
                .map_err(ModelError::candle("greedy trace"))?;
            let best = crate::parity::argmax(&logits);
            pos += input.len();
            let next = forced.and_then(|f| f.get(i).copied()).unwrap_or(best);
            out.push((best, logits));
            input = vec![next];
        }
        Ok(out)
    }

    /// Greedy decoding of exactly `steps` tokens after `prompt`, timed the
    /// way llama.cpp's runs are read beside it (`paragraf bench decode`,
    /// issue 38): prefill after a device synchronise, time to the first
    /// token (prefill plus its argmax), then `steps - 1` decode steps of one
    /// token each. No stop token ends it and no text is made, so both
    /// runtimes do equal work. With `expected` (the reference's greedy
    /// ids) it counts the steps that chose the same token; the ids
    /// themselves never leave.
    pub fn timed_greedy(
        &mut self,
        prompt: &[u32],
        steps: usize,
        expected: Option<&[u32]>,
    ) -> Result<GreedyTiming, ModelError> {
        if prompt.is_empty() || steps == 0 || prompt.len() + steps >= self.info.context_length {
            return Err(ModelError::InvalidInput(format!(
                "{} prompt tokens and {steps} steps do not fit the context window {} (both must be at least 1)",
                prompt.len(),
                self.info.context_length
            )));
        }
        let step =
            |w: &mut Weights, ids: &[u32], pos: usize, dev: &Device| -> candle_core::Result<u32> {
                let x = Tensor::new(ids, dev)?.unsqueeze(0)?;
                w.forward(&x, pos)?
                    .squeeze(0)?
                    .argmax(candle_core::D::Minus1)?
                    .to_scalar::<u32>()
            };
        let t0 = Instant::now();
        let x = Tensor::new(prompt, &self.device)
            .and_then(|t| t.unsqueeze(0))
            .map_err(ModelError::candle("timed greedy"))?;
        let logits = self
            .weights
            .forward(&x, 0)
            .map_err(ModelError::candle("prefill"))?;
        self.device
            .synchronize()
            .map_err(ModelError::candle("prefill sync"))?;
        let prefill_ms = t0.elapsed().as_secs_f64() * 1e3;
        let mut next = logits
            .squeeze(0)
            .and_then(|l| l.argmax(candle_core::D::Minus1))
            .and_then(|t| t.to_scalar::<u32>())
            .map_err(ModelError::candle("timed greedy"))?;
        let ttft_ms = t0.elapsed().as_secs_f64() * 1e3;
        let mut chosen = vec![next];
        let t1 = Instant::now();
        for pos in prompt.len()..prompt.len() + steps - 1 {
            next = step(&mut self.weights, &[next], pos, &self.device)
                .map_err(ModelError::candle("decode step"))?;
            chosen.push(next);
        }
        let decode_ms = t1.elapsed().as_secs_f64() * 1e3;
        let (agree, first_difference) = match expected {
            Some(e) => (
                Some(chosen.iter().zip(e).filter(|(a, b)| a == b).count()),
                chosen.iter().zip(e).position(|(a, b)| a != b),
            ),
            None => (None, None),
        };
        Ok(GreedyTiming {
            prompt_tokens: prompt.len(),
            steps,
            prefill_ms,
            ttft_ms,
            decode_ms,
            prefill_tok_per_s: prompt.len() as f64 / (prefill_ms / 1e3).max(1e-9),
            decode_tok_per_s: (steps - 1) as f64 / (decode_ms / 1e3).max(1e-9),
            agree,
            first_difference,
        })
    }

    /// The sampler for `params`, after checking the prompt and the
    /// parameters (a non-empty prompt shorter than the context, temperature
    /// >= 0, top_p in (0, 1]).
    fn sampler(&self, prompt: &[u32], params: &GenParams) -> Result<LogitsProcessor, ModelError> {
        if prompt.is_empty() {
            return Err(ModelError::InvalidInput("empty prompt".into()));
        }
        if params.temperature < 0.0 || !params.temperature.is_finite() {
            return Err(ModelError::InvalidInput(format!(
                "temperature {} must be >= 0",
                params.temperature
            )));
        }
        if let Some(p) = params.top_p {
            if !(p > 0.0 && p <= 1.0) {
                return Err(ModelError::InvalidInput(format!(
                    "top_p {p} must be in (0, 1]"
                )));
            }
        }
        let ctx = self.info.context_length;
        if prompt.len() >= ctx {
            return Err(ModelError::InvalidInput(format!(
                "prompt has {} tokens; the context window is {ctx}",
                prompt.len()
            )));
        }
        let sampling = if params.temperature <= 0.0 {
            Sampling::ArgMax
        } else {
            match params.top_p {
                Some(p) if p < 1.0 => Sampling::TopP {
                    p,
                    temperature: params.temperature,
                },
                _ => Sampling::All {
                    temperature: params.temperature,
                },
            }
        };
        Ok(LogitsProcessor::from_sampling(params.seed, sampling))
    }

    /// Runs generation on already-built prompt ids.
    pub fn generate_ids(
        &mut self,
        prompt: &[u32],
        params: &GenParams,
        on_token: &mut dyn FnMut(&str) -> bool,
    ) -> Result<(GenOutput, Vec<u32>), ModelError> {
        let ctx = self.info.context_length;
        let mut lp = self.sampler(prompt, params)?;
        let fwd = |w: &mut Weights,
                   ids: &[u32],
                   pos: usize,
                   dev: &Device|
         -> candle_core::Result<Tensor> {
            let x = Tensor::new(ids, dev)?.unsqueeze(0)?;
            w.forward(&x, pos)?.squeeze(0)?.to_dtype(DType::F32)
        };
        let t0 = Instant::now();
        let mut logits = fwd(&mut self.weights, prompt, 0, &self.device)
            .map_err(ModelError::candle("prefill"))?;
        // On CUDA/Metal the forward pass only queues kernels: wait for them
        // before reading the clock, or prefill counts launches and decode's
        // first step absorbs the prefill (a no-op on the CPU).
        self.device
            .synchronize()
            .map_err(ModelError::candle("prefill sync"))?;
        let prefill_ms = t0.elapsed().as_secs_f64() * 1e3;
        let t1 = Instant::now();
        let mut all: Vec<u32> = prompt.to_vec();
        let mut generated: Vec<u32> = Vec::new();
        let mut text = String::new();
        let mut emitted = 0usize;
        let stop_reason;
        loop {
            if generated.len() >= params.max_tokens {
                stop_reason = StopReason::MaxTokens;
                break;
            }
            if all.len() >= ctx {
                stop_reason = StopReason::ContextFull;
                break;
            }
            let l = if params.repeat_penalty != 1.0 && params.repeat_last_n > 0 {
                let start = all.len().saturating_sub(params.repeat_last_n);
                candle_transformers::utils::apply_repeat_penalty(
                    &logits,
                    params.repeat_penalty,
                    &all[start..],
                )
                .map_err(ModelError::candle("repeat penalty"))?
            } else {
                logits.clone()
            };
            let next = lp.sample(&l).map_err(ModelError::candle("sampling"))?;
            generated.push(next);
            all.push(next);
            if self.stop_ids.contains(&next) {
                stop_reason = StopReason::EndOfTurn;
                break;
            }
            let content: Vec<u32> = generated.clone();
            let full = self.decode(&content)?;
            if !full.ends_with('\u{FFFD}') {
                text = full;
            }
            // Stop strings: cut and finish.
            if let Some(cut) = params
                .stop
                .iter()
                .filter(|s| !s.is_empty())
                .filter_map(|s| text.find(s.as_str()))
                .min()
            {
                text.truncate(cut);
                if cut > emitted && text.is_char_boundary(emitted) {
                    on_token(&text[emitted..]);
                }
                emitted = text.len();
                stop_reason = StopReason::StopString;
                break;
            }
            // Hold back a tail that could be the start of a stop string.
            let hold = params
                .stop
                .iter()
                .map(|s| longest_suffix_prefix(&text, s))
                .max()
                .unwrap_or(0);
            let upto = text.len() - hold;
            if upto > emitted && text.is_char_boundary(emitted) && text.is_char_boundary(upto) {
                let keep_going = on_token(&text[emitted..upto]);
                emitted = upto;
                if !keep_going {
                    stop_reason = StopReason::Cancelled;
                    break;
                }
            }
            logits = fwd(&mut self.weights, &[next], all.len() - 1, &self.device)
                .map_err(ModelError::candle("decode step"))?;
        }
        if stop_reason != StopReason::StopString
            && stop_reason != StopReason::Cancelled
            && emitted < text.len()
            && text.is_char_boundary(emitted)
        {
            on_token(&text[emitted..]);
        }
        let decode_ms = t1.elapsed().as_secs_f64() * 1e3;
        Ok((
            GenOutput {
                text,
                prompt_tokens: prompt.len(),
                generated_tokens: generated.len(),
                prefill_ms,
                decode_ms,
                stop_reason,
            },
            generated,
        ))
    }
}

/// Length of the longest suffix of `text` that is a proper prefix of `stop`.
fn longest_suffix_prefix(text: &str, stop: &str) -> usize {
    let max = stop.len().saturating_sub(1).min(text.len());
    (1..=max)
        .rev()
        .find(|&n| {
            text.is_char_boundary(text.len() - n) && stop.starts_with(&text[text.len() - n..])
        })
        .unwrap_or(0)
}

impl Generator for GgufGenerator {
    fn info(&self) -> &GeneratorInfo {
        &self.info
    }

    fn count_tokens(&self, text: &str) -> Result<usize, ModelError> {
        Ok(self.encode_text(text)?.len())
    }

    fn chat(
        &mut self,
        messages: &[ChatMessage],
        params: &GenParams,
        on_token: &mut dyn FnMut(&str) -> bool,
    ) -> Result<GenOutput, ModelError> {
        let ids = self.prompt_ids(messages)?;
        Ok(self.generate_ids(&ids, params, on_token)?.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_prefix() {
        assert_eq!(longest_suffix_prefix("hello wor", "world"), 3);
        assert_eq!(longest_suffix_prefix("hello", "xyz"), 0);
        assert_eq!(longest_suffix_prefix("ab", "abc"), 2);
        assert_eq!(longest_suffix_prefix("äö", "ö!"), 2);
    }
}
