//! Real small models (fetched by `../shared/models/fetch-test-models.sh`),
//! located through `PARAGRAF_TEST_MODELS`; without them each test says it did
//! not run, and fails under `PARAGRAF_REQUIRE_INPUTS=1` (CI, `scripts/test.sh`).

mod common;
use common::{models_dir, opts};
use paragraf_models::*;
use paragraf_types::vector::dot;

#[test]
fn e5_ranks_german_and_english_norms_above_unrelated_text() {
    let Some(dir) = models_dir() else { return };
    let reg = Registry::builtin();
    let emb = load_embedder(
        &reg,
        "multilingual-e5-small",
        &opts(dir),
        &candle_core::Device::Cpu,
    )
    .unwrap();
    assert_eq!(emb.info().dim, 384);
    let q = emb
        .embed(
            &["Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?"],
            TextKind::Query,
        )
        .unwrap();
    let passages = [
        // DSGVO Art. 37 (German), GDPR Art. 37 (English), unrelated x2.
        "Der Verantwortliche und der Auftragsverarbeiter benennen auf jeden Fall einen Datenschutzbeauftragten, wenn die Kerntätigkeit in der Durchführung von Verarbeitungsvorgängen besteht, welche eine umfangreiche regelmäßige und systematische Überwachung von betroffenen Personen erforderlich machen.",
        "The controller and the processor shall designate a data protection officer in any case where the core activities consist of processing operations which require regular and systematic monitoring of data subjects on a large scale.",
        "Die Umsatzsteuer für die Lieferung von Gegenständen beträgt neunzehn Prozent der Bemessungsgrundlage.",
        "Preheat the oven to 180 degrees and bake the bread for forty minutes until golden brown.",
    ];
    let p = emb.embed(&passages, TextKind::Passage).unwrap();
    assert_eq!(p.truncated, 0);
    let s: Vec<f32> = p
        .embeddings
        .iter()
        .map(|e| dot(&q.embeddings[0].dense, &e.dense))
        .collect();
    eprintln!("scores {s:?}");
    for e in &p.embeddings {
        let n = dot(&e.dense, &e.dense).sqrt();
        assert!((n - 1.0).abs() < 1e-4, "not normalized: {n}");
        assert!(e.sparse.is_none() && e.colbert.is_none());
    }
    assert!(
        s[0] > s[2] && s[0] > s[3],
        "German norm must beat unrelated: {s:?}"
    );
    assert!(
        s[1] > s[2] && s[1] > s[3],
        "English norm must beat unrelated: {s:?}"
    );
}

#[test]
fn e5_batching_matches_single_and_truncation_is_counted() {
    let Some(dir) = models_dir() else { return };
    let reg = Registry::builtin();
    let emb = load_embedder(
        &reg,
        "multilingual-e5-small",
        &opts(dir),
        &candle_core::Device::Cpu,
    )
    .unwrap();
    let texts = [
        "kurz",
        "ein etwas längerer Satz über Datenschutz und Informationssicherheit",
        "mittel lang",
    ];
    let batch = emb.embed(&texts, TextKind::Passage).unwrap();
    for (i, t) in texts.iter().enumerate() {
        let one = emb.embed(&[t], TextKind::Passage).unwrap();
        let c = dot(&one.embeddings[0].dense, &batch.embeddings[i].dense);
        assert!(c > 0.9999, "text {i}: padding changed the result (cos {c})");
    }
    let long = "Datenschutz ".repeat(600);
    let r = emb.embed(&[&long, "kurz"], TextKind::Passage).unwrap();
    assert_eq!(r.truncated, 1);
    assert!(emb.token_count(&long, TextKind::Passage).unwrap() > 512);
    let err = emb
        .embed(&["ok", "  "], TextKind::Passage)
        .unwrap_err()
        .to_string();
    assert!(err.contains("text #1 is empty"), "{err}");
}

#[derive(serde::Deserialize)]
struct Reference {
    texts: Vec<String>,
    vectors: Vec<Vec<f32>>,
}

#[test]
fn minilm_matches_recorded_reference() {
    let Some(dir) = models_dir() else { return };
    let reg = Registry::builtin();
    let emb = load_embedder(
        &reg,
        "all-minilm-l6-v2",
        &opts(dir),
        &candle_core::Device::Cpu,
    )
    .unwrap();
    let r: Reference = serde_json::from_str(include_str!("fixtures/minilm_reference.json"))
        .expect("fixture parses");
    let texts: Vec<&str> = r.texts.iter().map(String::as_str).collect();
    let out = emb.embed(&texts, TextKind::Passage).unwrap();
    for (i, (e, v)) in out.embeddings.iter().zip(&r.vectors).enumerate() {
        let c = dot(&e.dense, v) / (dot(v, v).sqrt() * dot(&e.dense, &e.dense).sqrt());
        assert!(c > 0.999, "text {i}: cosine {c} vs reference");
    }
}

fn chat_once(g: &mut dyn Generator, user: &str, p: &GenParams) -> (GenOutput, String) {
    let mut streamed = String::new();
    let out = g
        .chat(
            &[ChatMessage {
                role: Role::User,
                content: user.into(),
            }],
            p,
            &mut |t| {
                streamed.push_str(t);
                true
            },
        )
        .unwrap();
    (out, streamed)
}

fn generation_mechanics(name: &str) {
    let Some(dir) = models_dir() else { return };
    let reg = Registry::builtin();
    let mut g = load_generator(&reg, name, &opts(dir), &candle_core::Device::Cpu).unwrap();
    assert_eq!(g.info().chat_template, "chatml");
    let greedy = GenParams {
        max_tokens: 8,
        ..GenParams::default()
    };
    let (a, sa) = chat_once(g.as_mut(), "List three colors.", &greedy);
    assert_eq!(a.text, sa, "streamed text equals the result");
    assert!(a.generated_tokens >= 1 && a.generated_tokens <= 8);
    assert!(a.prompt_tokens > 5 && a.prefill_ms > 0.0);
    // Determinism: greedy twice and seeded sampling twice.
    let (b, _) = chat_once(g.as_mut(), "List three colors.", &greedy);
    assert_eq!(a.text, b.text);
    let sampled = GenParams {
        max_tokens: 8,
        temperature: 0.9,
        top_p: Some(0.95),
        seed: 7,
        ..GenParams::default()
    };
    let (c, _) = chat_once(g.as_mut(), "Write a word.", &sampled);
    let (d, _) = chat_once(g.as_mut(), "Write a word.", &sampled);
    assert_eq!(c.text, d.text);
    assert_eq!(c.generated_tokens, d.generated_tokens);
    // Stop string: stop at the first character produced by the greedy run.
    let first_char = a
        .text
        .trim_start()
        .chars()
        .next()
        .expect("greedy output not empty")
        .to_string();
    let stop = GenParams {
        max_tokens: 8,
        stop: vec![first_char.clone()],
        ..GenParams::default()
    };
    let (s, streamed) = chat_once(g.as_mut(), "List three colors.", &stop);
    assert_eq!(s.stop_reason, StopReason::StopString);
    assert!(!s.text.contains(&first_char), "{:?}", s.text);
    assert_eq!(s.text, streamed);
    // Cancellation from the callback.
    let mut n = 0;
    let out = g
        .chat(
            &[ChatMessage {
                role: Role::User,
                content: "Count to ten.".into(),
            }],
            &greedy,
            &mut |_| {
                n += 1;
                false
            },
        )
        .unwrap();
    assert_eq!(out.stop_reason, StopReason::Cancelled);
    assert_eq!(n, 1);
    // Token counting and bad input.
    assert!(g.count_tokens("Datenschutzbeauftragter").unwrap() >= 2);
    assert!(g.chat(&[], &greedy, &mut |_| true).is_err());
    let bad = GenParams {
        temperature: -1.0,
        ..GenParams::default()
    };
    assert!(chat_once_err(g.as_mut(), &bad).contains("temperature"));
}

fn chat_once_err(g: &mut dyn Generator, p: &GenParams) -> String {
    g.chat(
        &[ChatMessage {
            role: Role::User,
            content: "x".into(),
        }],
        p,
        &mut |_| true,
    )
    .unwrap_err()
    .to_string()
}

#[test]
fn smollm2_generation_mechanics() {
    generation_mechanics("smollm2-135m-instruct-q4_1");
}

#[test]
fn qwen_coder_generation_mechanics() {
    generation_mechanics("qwen2.5-coder-0.5b-instruct-q4km");
}

#[test]
fn gguf_tokenizers_round_trip_and_apply_template() {
    let Some(dir) = models_dir() else { return };
    for f in [
        "SmolLM2-135M-Instruct.Q4_1.gguf",
        "Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf",
    ] {
        let path = dir.join(f);
        let mut file = std::fs::File::open(&path).unwrap();
        let ct = candle_core::quantized::gguf_file::Content::read(&mut file).unwrap();
        let tok = tokenizer_from_gguf(&ct, f).unwrap();
        let text = "Hallo Welt! Der Datenschutzbeauftragte prüft 1234 Fälle.";
        let ids = tok
            .tokenizer
            .encode(text, false)
            .unwrap()
            .get_ids()
            .to_vec();
        let back = tok.tokenizer.decode(&ids, false).unwrap();
        assert_eq!(back, text, "{f}: round trip");
        // No stray prefix space: "Hello" after a special token encodes like at start.
        let a = tok
            .tokenizer
            .encode("user\nHello", false)
            .unwrap()
            .get_ids()
            .to_vec();
        let first = tok.tokens[a[0] as usize].clone();
        assert!(
            !first.starts_with('Ġ'),
            "{f}: stray prefix space token {first:?}"
        );
        let g = load_generator_from_file(&path, None, None, &candle_core::Device::Cpu).unwrap();
        let ids = g
            .prompt_ids(&[ChatMessage {
                role: Role::User,
                content: "Hi".into(),
            }])
            .unwrap();
        let im_start = tok.id("<|im_start|>").unwrap();
        assert_eq!(
            ids.iter().filter(|&&i| i == im_start).count(),
            3,
            "{f}: system + user + assistant"
        );
    }
}
