//! Builds a `tokenizers::Tokenizer` from GGUF metadata, for both GPT-2 style
//! byte-level BPE (qwen2, llama3, SmolLM2) and SentencePiece-style vocabularies
//! (`tokenizer.ggml.model = "llama"`: gemma, phi3), whose merges are rebuilt
//! from the stored scores.
//!
//! Special tokens are not registered as added tokens: prompts are assembled
//! from text pieces and special-token ids (see `chat.rs`), so text that merely
//! contains `<|im_start|>` cannot inject a control token.

use crate::ModelError;
use candle_core::quantized::gguf_file::{Content, Value};
use std::collections::HashMap;
use tokenizers::decoders::byte_fallback::ByteFallback;
use tokenizers::decoders::fuse::Fuse;
use tokenizers::decoders::sequence::Sequence as DecoderSeq;
use tokenizers::decoders::strip::Strip;
use tokenizers::decoders::DecoderWrapper;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::normalizers::{NormalizerWrapper, Prepend, Replace, Sequence as NormSeq, NFC};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence as PreSeq;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::pre_tokenizers::PreTokenizerWrapper;
use tokenizers::{SplitDelimiterBehavior, Tokenizer};

const REGEX_QWEN2: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
const REGEX_LLAMA3: &str = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// GGUF token types (llama.cpp `llama_token_type`).
pub(crate) const TOKEN_TYPE_CONTROL: i32 = 3;

/// A tokenizer built from GGUF metadata plus the facts generation needs.
pub struct GgufTokenizer {
    /// The tokenizer (no post-processor: BOS is added by the prompt builder).
    pub tokenizer: Tokenizer,
    /// Token strings by id.
    pub tokens: Vec<String>,
    /// Token types by id (1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte).
    pub token_types: Vec<i32>,
    /// BOS id.
    pub bos: Option<u32>,
    /// EOS id.
    pub eos: Option<u32>,
    /// Whether the model expects BOS at the start of a prompt.
    pub add_bos: bool,
    /// `tokenizer.ggml.model` (`gpt2` or `llama`).
    pub model: String,
    /// Index from token string to id.
    pub index: HashMap<String, u32>,
}

impl GgufTokenizer {
    /// Id of an exact token string.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.index.get(token).copied()
    }

    /// Whether `id` is a control token (never printed).
    pub fn is_control(&self, id: u32) -> bool {
        self.token_types.get(id as usize) == Some(&TOKEN_TYPE_CONTROL)
    }
}

fn md<'a>(ct: &'a Content, key: &str) -> Option<&'a Value> {
    ct.metadata.get(key)
}

fn as_u32(v: &Value) -> Option<u32> {
    match v {
        Value::U8(v) => Some(*v as u32),
        Value::I8(v) => u32::try_from(*v).ok(),
        Value::U16(v) => Some(*v as u32),
        Value::I16(v) => u32::try_from(*v).ok(),
        Value::U32(v) => Some(*v),
        Value::I32(v) => u32::try_from(*v).ok(),
        Value::U64(v) => u32::try_from(*v).ok(),
        Value::I64(v) => u32::try_from(*v).ok(),
        _ => None,
    }
}

fn as_f32(v: &Value) -> Option<f32> {
    match v {
        Value::F32(v) => Some(*v),
        Value::F64(v) => Some(*v as f32),
        other => as_u32(other).map(|u| u as f32),
    }
}

/// Builds the tokenizer of a GGUF file (`origin` names the file in errors).
pub fn tokenizer_from_gguf(ct: &Content, origin: &str) -> Result<GgufTokenizer, ModelError> {
    let err = |m: String| ModelError::Tokenizer {
        context: origin.to_string(),
        message: m,
    };
    let model = md(ct, "tokenizer.ggml.model")
        .and_then(|v| v.to_string().ok())
        .cloned()
        .ok_or_else(|| err("missing tokenizer.ggml.model".into()))?;
    let tokens: Vec<String> = md(ct, "tokenizer.ggml.tokens")
        .and_then(|v| v.to_vec().ok())
        .ok_or_else(|| err("missing tokenizer.ggml.tokens".into()))?
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.to_string()
                .cloned()
                .map_err(|_| err(format!("tokenizer.ggml.tokens[{i}] is not a string")))
        })
        .collect::<Result<_, _>>()?;
    if tokens.is_empty() {
        return Err(err("empty vocabulary".into()));
    }
    let token_types: Vec<i32> =
        match md(ct, "tokenizer.ggml.token_type").and_then(|v| v.to_vec().ok()) {
            Some(a) => a
                .iter()
                .map(|v| as_u32(v).map(|u| u as i32).unwrap_or(1))
                .collect(),
            None => vec![1; tokens.len()],
        };
    let mut index = HashMap::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        index.entry(t.clone()).or_insert(i as u32);
    }
    let id_of = |key: &str| {
        md(ct, key)
            .and_then(as_u32)
            .filter(|&i| (i as usize) < tokens.len())
    };
    let bos = id_of("tokenizer.ggml.bos_token_id");
    let eos = id_of("tokenizer.ggml.eos_token_id");
    let unk =
        id_of("tokenizer.ggml.unknown_token_id").or_else(|| id_of("tokenizer.ggml.unk_token_id"));
    let arch = md(ct, "general.architecture")
        .and_then(|v| v.to_string().ok())
        .cloned()
        .unwrap_or_default();

    let tokenizer = match model.as_str() {
        "gpt2" => gpt2_tokenizer(ct, &index, origin)?,
        "llama" => sentencepiece_tokenizer(ct, &tokens, &token_types, &index, unk, &arch, origin)?,
        other => {
            return Err(err(format!(
                "unsupported tokenizer model `{other}` (expected gpt2 or llama)"
            )))
        }
    };
    let add_bos = md(ct, "tokenizer.ggml.add_bos_token")
        .and_then(|v| v.to_bool().ok())
        .unwrap_or(model == "llama");
    Ok(GgufTokenizer {
        tokenizer,
        tokens,
        token_types,
        bos,
        eos,
        add_bos,
        model,
        index,
    })
}

/// A GPT-2 style byte-level BPE (`tokenizer.ggml.model = gpt2`) with the
/// pre-tokenizer its `tokenizer.ggml.pre` names.
fn gpt2_tokenizer(
    ct: &Content,
    index: &HashMap<String, u32>,
    origin: &str,
) -> Result<Tokenizer, ModelError> {
    let err = |m: String| ModelError::Tokenizer {
        context: origin.to_string(),
        message: m,
    };
    let merges: Vec<(String, String)> = md(ct, "tokenizer.ggml.merges")
        .and_then(|v| v.to_vec().ok())
        .ok_or_else(|| err("gpt2 tokenizer without tokenizer.ggml.merges".into()))?
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.to_string()
                .ok()
                .and_then(|s| s.split_once(' '))
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| err(format!("tokenizer.ggml.merges[{i}] is not `a b`")))
        })
        .collect::<Result<_, _>>()?;
    let vocab: Vocab = index.iter().map(|(k, v)| (k.clone(), *v)).collect();
    let pre = md(ct, "tokenizer.ggml.pre")
        .and_then(|v| v.to_string().ok())
        .cloned()
        .unwrap_or_else(|| "default".into());
    let llama3 = matches!(pre.as_str(), "llama-bpe" | "llama3" | "smaug-bpe");
    let bpe = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .ignore_merges(llama3)
        .build()
        .map_err(|e| err(format!("BPE: {e}")))?;
    let mut t = Tokenizer::new(bpe);
    let split = |re: &str| -> Result<PreTokenizerWrapper, ModelError> {
        let s = Split::new(
            SplitPattern::Regex(re.to_string()),
            SplitDelimiterBehavior::Isolated,
            false,
        )
        .map_err(|e| err(format!("pre-tokenizer regex: {e}")))?;
        Ok(PreSeq::new(vec![s.into(), ByteLevel::new(false, false, false).into()]).into())
    };
    match pre.as_str() {
        "qwen2" => {
            t.with_normalizer(Some(NormalizerWrapper::from(NFC)))
                .map_err(|e| err(format!("normalizer: {e}")))?;
            t.with_pre_tokenizer(Some(split(REGEX_QWEN2)?));
        }
        _ if llama3 => {
            t.with_pre_tokenizer(Some(split(REGEX_LLAMA3)?));
        }
        // SmolLM2: digits split individually, then GPT-2 byte-level
        // *without* a prefix space (candle's default adds one).
        "smollm" => {
            t.with_pre_tokenizer(Some(PreTokenizerWrapper::from(PreSeq::new(vec![
                Digits::new(true).into(),
                ByteLevel::new(false, true, true).into(),
            ]))));
        }
        _ => {
            t.with_pre_tokenizer(Some(PreTokenizerWrapper::from(ByteLevel::new(
                false, true, true,
            ))));
        }
    }
    t.with_decoder(Some(DecoderWrapper::from(ByteLevel::new(
        false, true, true,
    ))));
    Ok(t)
}

/// A SentencePiece BPE (`tokenizer.ggml.model = llama`): merges rebuilt
/// from the piece scores, byte fallback, `▁` for spaces.
fn sentencepiece_tokenizer(
    ct: &Content,
    tokens: &[String],
    token_types: &[i32],
    index: &HashMap<String, u32>,
    unk: Option<u32>,
    arch: &str,
    origin: &str,
) -> Result<Tokenizer, ModelError> {
    let err = |m: String| ModelError::Tokenizer {
        context: origin.to_string(),
        message: m,
    };
    let scores: Vec<f32> = match md(ct, "tokenizer.ggml.scores").and_then(|v| v.to_vec().ok()) {
        Some(a) => a.iter().map(|v| as_f32(v).unwrap_or(0.0)).collect(),
        None => {
            return Err(err(
                "SentencePiece tokenizer without tokenizer.ggml.scores".into()
            ))
        }
    };
    let merges = merges_from_scores(tokens, token_types, &scores, index);
    let vocab: Vocab = index.iter().map(|(k, v)| (k.clone(), *v)).collect();
    let mut b = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .byte_fallback(true)
        .fuse_unk(true);
    if let Some(u) = unk {
        b = b.unk_token(tokens[u as usize].clone());
    }
    let bpe = b.build().map_err(|e| err(format!("BPE: {e}")))?;
    let mut t = Tokenizer::new(bpe);
    let add_space = md(ct, "tokenizer.ggml.add_space_prefix")
        .and_then(|v| v.to_bool().ok())
        .unwrap_or(!arch.starts_with("gemma"));
    let replace = Replace::new(" ", "▁").map_err(|e| err(format!("normalizer: {e}")))?;
    let mut norms: Vec<NormalizerWrapper> = Vec::new();
    if add_space {
        norms.push(Prepend::new("▁".into()).into());
    }
    norms.push(replace.into());
    t.with_normalizer(Some(NormalizerWrapper::from(NormSeq::new(norms))))
        .map_err(|e| err(format!("normalizer: {e}")))?;
    let mut decs: Vec<DecoderWrapper> = vec![
        Replace::new("▁", " ")
            .map_err(|e| err(format!("decoder: {e}")))?
            .into(),
        ByteFallback::new().into(),
        Fuse::new().into(),
    ];
    if add_space {
        decs.push(Strip::new(' ', 1, 0).into());
    }
    t.with_decoder(Some(DecoderWrapper::from(DecoderSeq::new(decs))));
    Ok(t)
}

/// SentencePiece BPE merges rebuilt from piece scores: every split of a
/// normal piece into two pieces of the vocabulary is a merge, ranked by the
/// merged piece's score (higher first), ties by id.
fn merges_from_scores(
    tokens: &[String],
    types: &[i32],
    scores: &[f32],
    index: &HashMap<String, u32>,
) -> Vec<(String, String)> {
    let mut ranked: Vec<(f32, u32, usize, usize)> = Vec::new();
    for (id, piece) in tokens.iter().enumerate() {
        let ty = types.get(id).copied().unwrap_or(1);
        if ty != 1 && ty != 4 {
            continue;
        }
        let score = scores.get(id).copied().unwrap_or(0.0);
        for (i, _) in piece.char_indices().skip(1) {
            let (l, r) = piece.split_at(i);
            if index.contains_key(l) && index.contains_key(r) {
                ranked.push((score, id as u32, i, 0));
            }
        }
    }
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    ranked
        .into_iter()
        .map(|(_, id, i, _)| {
            let (l, r) = tokens[id as usize].split_at(i);
            (l.to_string(), r.to_string())
        })
        .collect()
}
