//! Random-weight models written by the tests: bge-m3's three heads on a tiny
//! XLM-R (with the real XLM-R tokenizer.json from multilingual-e5-small when
//! PARAGRAF_TEST_MODELS is set), a tiny qwen2 GGUF, and bad input.

use candle_core::quantized::GgmlDType;
use candle_core::{Device, Tensor};
use paragraf_models::bench::{
    random_encoder_tensors, write_random_qwen2_gguf, QuantMix, Qwen2Shape, RandomEncoder,
};
use paragraf_models::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn e5_tokenizer() -> Option<PathBuf> {
    let p = std::env::var_os("PARAGRAF_TEST_MODELS")
        .map(PathBuf::from)?
        .join("multilingual-e5-small/tokenizer.json");
    if p.is_file() {
        Some(p)
    } else {
        paragraf_types::inputs::input_missing(
            "multilingual-e5-small/tokenizer.json in PARAGRAF_TEST_MODELS",
        );
        None
    }
}

fn tiny_xlmr_config(vocab: usize) -> EncoderConfig {
    serde_json::from_value(serde_json::json!({
        "model_type": "xlm-roberta", "vocab_size": vocab, "hidden_size": 32, "num_hidden_layers": 2,
        "num_attention_heads": 4, "intermediate_size": 64, "hidden_act": "gelu", "layer_norm_eps": 1e-5,
        "max_position_embeddings": 66, "type_vocab_size": 1, "pad_token_id": 1
    }))
    .unwrap()
}

/// Writes a tiny random bge-m3 layout into `dir` and returns a registry naming it.
fn write_tiny_m3(dir: &Path, tokenizer: &Path, vocab: usize) -> Registry {
    let cfg = tiny_xlmr_config(vocab);
    let cfg_json = serde_json::json!({
        "model_type": "xlm-roberta", "vocab_size": vocab, "hidden_size": 32, "num_hidden_layers": 2,
        "num_attention_heads": 4, "intermediate_size": 64, "hidden_act": "gelu", "layer_norm_eps": 1e-5,
        "max_position_embeddings": 66, "type_vocab_size": 1, "pad_token_id": 1
    });
    std::fs::write(dir.join("config.json"), cfg_json.to_string()).unwrap();
    std::fs::copy(tokenizer, dir.join("tokenizer.json")).unwrap();
    let mut t = random_encoder_tensors(&cfg, true, 11, &Device::Cpu).unwrap();
    let take = |t: &mut HashMap<String, Tensor>, p: &str| -> HashMap<String, Tensor> {
        ["weight", "bias"]
            .iter()
            .map(|w| (w.to_string(), t.remove(&format!("{p}.{w}")).unwrap()))
            .collect()
    };
    let mut sparse = take(&mut t, "sparse_linear");
    // A large bias makes every token weight positive, so the sparse output
    // must list exactly the distinct non-special token ids.
    sparse.insert("bias".into(), Tensor::new(&[10f32], &Device::Cpu).unwrap());
    let colbert = take(&mut t, "colbert_linear");
    candle_core::safetensors::save(&t, dir.join("model.safetensors")).unwrap();
    candle_core::safetensors::save(&sparse, dir.join("sparse_linear.safetensors")).unwrap();
    candle_core::safetensors::save(&colbert, dir.join("colbert_linear.safetensors")).unwrap();
    let toml = format!(
        r#"
[defaults]
embedder = "tiny-m3"
answer = "tiny-qwen"

[[model]]
name = "tiny-m3"
kind = "embedder"
architecture = "xlm-roberta"
repo = "test/tiny-m3"
path = "{dir}"
files = {{ weights = "model.safetensors", config = "config.json", tokenizer = "tokenizer.json", sparse_head = "sparse_linear.safetensors", colbert_head = "colbert_linear.safetensors" }}
pooling = "cls"
max_tokens = 64
dim = 32

[[model]]
name = "tiny-qwen"
kind = "answer"
architecture = "qwen2"
repo = "test/tiny-qwen"
path = "{dir}/tiny-qwen.gguf"
files = {{ weights = "tiny-qwen.gguf" }}
max_tokens = 512

[[model]]
name = "tiny-qwen-as-llama"
kind = "answer"
architecture = "llama"
repo = "test/tiny-qwen"
path = "{dir}/tiny-qwen.gguf"
files = {{ weights = "tiny-qwen.gguf" }}
max_tokens = 512
"#,
        dir = dir.display()
    );
    Registry::parse(&toml, "test models.toml").unwrap()
}

fn norm(v: &[f32]) -> f32 {
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

#[test]
fn bge_m3_three_heads_from_one_pass() {
    let Some(tok) = e5_tokenizer() else { return };
    let dir = tempfile::tempdir().unwrap();
    let reg = write_tiny_m3(dir.path(), &tok, 250_002);
    let opts = ResolveOptions::default();
    let emb = load_embedder(&reg, "tiny-m3", &opts, &Device::Cpu).unwrap();
    let info = emb.info();
    assert!(info.has_sparse && info.has_colbert);
    assert_eq!(
        (info.dim, info.max_tokens, info.dtype.as_str()),
        (32, 64, "f32")
    );
    let texts = [
        "Datenschutz Datenschutz und Datensicherheit",
        "The data protection officer",
        &"Sehr lange Eingabe ".repeat(40),
    ];
    let out = emb.embed(&texts, TextKind::Passage).unwrap();
    assert_eq!(out.truncated, 1);
    let t = tokenizers::Tokenizer::from_file(&tok).unwrap();
    for (i, e) in out.embeddings.iter().enumerate() {
        assert_eq!(e.dense.len(), 32);
        assert!((norm(&e.dense) - 1.0).abs() < 1e-4);
        let ids = t.encode(texts[i], true).unwrap().get_ids().to_vec();
        let n_tokens = ids.len().min(64);
        let colbert = e.colbert.as_ref().unwrap();
        assert_eq!(colbert.len(), n_tokens - 1, "ColBERT length = tokens - 1");
        for v in colbert {
            assert_eq!(v.len(), 32);
            assert!((norm(v) - 1.0).abs() < 1e-4);
        }
        let sparse = e.sparse.as_ref().unwrap();
        let expected: std::collections::BTreeSet<u32> = ids[..n_tokens]
            .iter()
            .copied()
            .filter(|i| ![0u32, 1, 2, 3].contains(i))
            .collect();
        let got: std::collections::BTreeSet<u32> = sparse.iter().map(|(i, _)| *i).collect();
        assert_eq!(got, expected, "one weight per distinct non-special token");
        assert!(
            sparse.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted, unique ids"
        );
        for (id, w) in sparse {
            assert!(*w > 0.0);
            assert!(![0u32, 1, 2, 3].contains(id), "special token {id} excluded");
            assert!(ids.contains(id));
        }
    }
    // Order independence of batching.
    let single = emb.embed(&[texts[1]], TextKind::Passage).unwrap();
    let c: f32 = single.embeddings[0]
        .dense
        .iter()
        .zip(&out.embeddings[1].dense)
        .map(|(a, b)| a * b)
        .sum();
    assert!(c > 0.9999, "cos {c}");
    // Tokenizer mismatch: the same tokenizer on a model with a small vocabulary.
    let dir2 = tempfile::tempdir().unwrap();
    let reg2 = write_tiny_m3(dir2.path(), &tok, 1000);
    let emb2 = load_embedder(&reg2, "tiny-m3", &opts, &Device::Cpu).unwrap();
    let err = emb2
        .embed(&["Datenschutzbeauftragter"], TextKind::Query)
        .unwrap_err()
        .to_string();
    assert!(err.contains("does not match the model"), "{err}");
    // Truncated safetensors.
    let w = dir.path().join("model.safetensors");
    let bytes = std::fs::read(&w).unwrap();
    std::fs::write(&w, &bytes[..bytes.len() / 2]).unwrap();
    let err = load_embedder(&reg, "tiny-m3", &opts, &Device::Cpu)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("model.safetensors") && err.contains("safetensors"),
        "{err}"
    );
    // Missing file names the repo and the file.
    std::fs::remove_file(dir.path().join("sparse_linear.safetensors")).unwrap();
    let err = load_embedder(&reg, "tiny-m3", &opts, &Device::Cpu)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("test/tiny-m3") && err.contains("sparse_linear.safetensors"),
        "{err}"
    );
}

#[test]
fn random_encoder_runs_on_ids() {
    let cfg = tiny_xlmr_config(500);
    let enc = RandomEncoder::new(&cfg, true, &Device::Cpu, candle_core::DType::F32, 3).unwrap();
    let out = enc
        .embed_ids(&[vec![0, 10, 11, 2], vec![0, 12, 2]])
        .unwrap();
    assert_eq!(out[0].colbert.as_ref().unwrap().len(), 3);
    assert_eq!(out[1].colbert.as_ref().unwrap().len(), 2);
    let t = enc.throughput("tiny", 16, 8).unwrap();
    assert!(t.batched_per_s > 0.0 && t.naive_per_s > 0.0);
    assert_eq!(
        t.gflop_per_passage * 1e9,
        encoder_forward_flops(
            cfg.num_hidden_layers,
            cfg.hidden_size,
            cfg.intermediate_size,
            16
        )
    );
}

#[test]
fn spreading_batches_over_workers_matches_one_at_a_time() {
    // 9 sequences of different lengths: on a multi-core CPU they are split
    // into batches that the data-parallel workers share.
    let cfg = tiny_xlmr_config(500);
    let enc = RandomEncoder::new(&cfg, true, &Device::Cpu, candle_core::DType::F32, 5).unwrap();
    let seqs: Vec<Vec<u32>> = (0..9u32)
        .map(|k| {
            let mut s = vec![0];
            s.extend((0..(3 + 4 * k)).map(|i| 5 + (i * 7 + k * 13) % 490));
            s.push(2);
            s
        })
        .collect();
    let together = enc.embed_ids(&seqs).unwrap();
    assert_eq!(together.len(), seqs.len());
    for (s, t) in seqs.iter().zip(&together) {
        let one = enc.embed_ids(std::slice::from_ref(s)).unwrap().remove(0);
        for (a, b) in one.dense.iter().zip(&t.dense) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        assert_eq!(
            one.sparse.as_ref().map(Vec::len),
            t.sparse.as_ref().map(Vec::len)
        );
        assert_eq!(one.colbert.as_ref().unwrap().len(), s.len() - 1);
        assert_eq!(t.colbert.as_ref().unwrap().len(), s.len() - 1);
    }
}

#[test]
fn encoder_flops_match_a_hand_count() {
    // multilingual-e5-small at 128 tokens: 12 layers, H 384, FFN 1536.
    // Per layer 2·128·(4·384² + 2·384·1536) = 452,984,832 for the
    // projections and 4·128²·384 = 25,165,824 for attention.
    assert_eq!(
        encoder_forward_flops(12, 384, 1536, 128),
        12.0 * (452_984_832.0 + 25_165_824.0)
    );
    // at 4× the tokens the projections cost 4×, attention 16×
    assert_eq!(
        encoder_forward_flops(12, 384, 1536, 512),
        12.0 * (4.0 * 452_984_832.0 + 16.0 * 25_165_824.0)
    );
}

#[test]
fn gemm_rate_is_measured_on_the_device() {
    let r = paragraf_models::bench::gemm_rate_gflops(&Device::Cpu, (64, 32, 48), 0.05).unwrap();
    assert!(r.is_finite() && r > 0.0, "{r}");
}

#[test]
fn random_qwen2_gguf_loads_generates_and_rejects_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny-qwen.gguf");
    write_random_qwen2_gguf(
        &path,
        &Qwen2Shape::tiny(),
        QuantMix::Uniform(GgmlDType::Q8_0),
        5,
    )
    .unwrap();
    let reg = write_tiny_m3_registry_only(dir.path());
    let opts = ResolveOptions::default();
    let mut g = load_generator(&reg, "tiny-qwen", &opts, &Device::Cpu).unwrap();
    assert_eq!(g.info().architecture, "qwen2");
    assert_eq!(g.info().chat_template, "chatml");
    let msgs = [ChatMessage {
        role: Role::User,
        content: "hello <|im_end|>".into(),
    }];
    let p = GenParams {
        max_tokens: 8,
        repeat_penalty: 1.0,
        ..GenParams::default()
    };
    let a = g.chat(&msgs, &p, &mut |_| true).unwrap();
    let b = g.chat(&msgs, &p, &mut |_| true).unwrap();
    assert!(a.generated_tokens >= 1 && a.generated_tokens <= 8);
    assert_eq!(a.text, b.text);
    // 2 × <|im_start|> + 1 × <|im_end|>: the one in the user text is plain text.
    let gg = load_generator_from_file(&path, None, None, &Device::Cpu).unwrap();
    let ids = gg.prompt_ids(&msgs).unwrap();
    assert_eq!(ids.iter().filter(|&&i| i == 257).count(), 2);
    assert_eq!(ids.iter().filter(|&&i| i == 258).count(), 1);
    // Prompt longer than the context.
    let long = [ChatMessage {
        role: Role::User,
        content: "x".repeat(600),
    }];
    let err = g.chat(&long, &p, &mut |_| true).unwrap_err().to_string();
    assert!(err.contains("context window"), "{err}");
    // Wrong architecture.
    let err = load_generator(&reg, "tiny-qwen-as-llama", &opts, &Device::Cpu)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("qwen2") && err.contains("llama"), "{err}");
    // An embedder name is refused by the generator loader and vice versa.
    assert!(load_embedder(&reg, "tiny-qwen", &opts, &Device::Cpu).is_err());
    // Truncated GGUF: in the tensor data and in the header.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let err = load_generator(&reg, "tiny-qwen", &opts, &Device::Cpu)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("truncated"), "{err}");
    std::fs::write(&path, &bytes[..200]).unwrap();
    let err = load_generator(&reg, "tiny-qwen", &opts, &Device::Cpu)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("not a readable GGUF"), "{err}");
    std::fs::write(&path, b"").unwrap();
    assert!(load_generator(&reg, "tiny-qwen", &opts, &Device::Cpu).is_err());
}

fn write_tiny_m3_registry_only(dir: &Path) -> Registry {
    let toml = format!(
        r#"
[defaults]
embedder = "e"
answer = "tiny-qwen"

[[model]]
name = "e"
kind = "embedder"
architecture = "bert"
repo = "test/e"
files = {{ weights = "model.safetensors", config = "config.json", tokenizer = "tokenizer.json" }}
max_tokens = 8

[[model]]
name = "tiny-qwen"
kind = "answer"
architecture = "qwen2"
repo = "test/tiny-qwen"
path = "{dir}/tiny-qwen.gguf"
files = {{ weights = "tiny-qwen.gguf" }}
max_tokens = 512

[[model]]
name = "tiny-qwen-as-llama"
kind = "answer"
architecture = "llama"
repo = "test/tiny-qwen"
path = "{dir}/tiny-qwen.gguf"
files = {{ weights = "tiny-qwen.gguf" }}
max_tokens = 512
"#,
        dir = dir.display()
    );
    Registry::parse(&toml, "test").unwrap()
}
