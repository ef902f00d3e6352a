//! Router tests for every endpoint, without a socket (`tower::ServiceExt::oneshot`),
//! against the in-memory test backend (`tests/common`).

mod common;
#[path = "common/schema.rs"]
mod schema;

use axum::body::{to_bytes, Body};
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use axum::Router;
use common::{Gate, TestBackend, PANIC_QUERY};
use paragraf_server::{router, Backend, Limits, ServerConfig, OPENAPI_JSON, ROUTES};
use serde_json::{json, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

const DPO: &str = "Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?";

fn cfg() -> ServerConfig {
    ServerConfig::default()
}

fn app_with(backend: TestBackend, cfg: &ServerConfig) -> (Router, Arc<TestBackend>) {
    let b = Arc::new(backend);
    (router(b.clone() as Arc<dyn Backend>, cfg), b)
}

fn app() -> Router {
    app_with(TestBackend::load(), &cfg()).0
}

/// An app with one answer slot whose answers wait at the returned gate
/// (after `skip` answers that pass it).
fn gated_app(skip: usize) -> (Router, Arc<Gate>) {
    let mut c = cfg();
    c.limits.answer_queue_capacity = 1;
    let gate = Arc::new(Gate::default());
    let mut b = TestBackend::load();
    b.gate = Some(gate.clone());
    b.gate_skip = skip.into();
    (app_with(b, &c).0, gate)
}

/// Submit an answer and keep its response (the stream) unread.
async fn start_answer(app: &Router) -> axum::response::Response {
    app.clone()
        .oneshot(post_json("/v1/answer", json!({"query": DPO})))
        .await
        .unwrap()
}

struct Resp {
    status: StatusCode,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl Resp {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    fn error_field(&self) -> Option<String> {
        self.json()["error"]["field"].as_str().map(str::to_string)
    }
    fn error_code(&self) -> String {
        self.json()["error"]["code"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }
}

async fn send(app: &Router, req: Request<Body>) -> Resp {
    let resp = app.clone().oneshot(req).await.expect("infallible");
    let status = resp.status();
    let headers = resp.headers().clone();
    let body = to_bytes(resp.into_body(), usize::MAX)
        .await
        .expect("body")
        .to_vec();
    Resp {
        status,
        headers,
        body,
    }
}

fn post(uri: &str, body: impl Into<Body>) -> Request<Body> {
    Request::post(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.into())
        .unwrap()
}

fn post_json(uri: &str, v: Value) -> Request<Body> {
    post(uri, v.to_string())
}

fn get(uri: &str) -> Request<Body> {
    Request::get(uri).body(Body::empty()).unwrap()
}

/// Parse an SSE body into (event, data) pairs; comments are skipped.
fn sse(body: &str) -> Vec<(String, String)> {
    body.split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .filter_map(|block| {
            let mut event = "message".to_string();
            let mut data = Vec::new();
            for line in block.lines() {
                if let Some(e) = line.strip_prefix("event:") {
                    event = e.trim().to_string();
                } else if let Some(d) = line.strip_prefix("data:") {
                    data.push(d.strip_prefix(' ').unwrap_or(d).to_string());
                }
            }
            (!data.is_empty()).then(|| (event, data.join("\n")))
        })
        .collect()
}

fn openapi() -> Value {
    serde_json::from_str(OPENAPI_JSON).expect("openapi.json parses")
}

fn check_schema(name: &str, v: &Value) {
    if let Err(e) = schema::validate_named(&openapi(), name, v) {
        panic!("response does not match schema {name}: {e}\n{v:#}");
    }
}

// ---------------------------------------------------------------- health

#[tokio::test]
async fn healthz_and_readyz() {
    let (app, backend) = app_with(TestBackend::load(), &cfg());
    let r = send(&app, get("/healthz")).await;
    assert_eq!(r.status, StatusCode::OK);
    check_schema("Health", &r.json());
    let r = send(&app, get("/readyz")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["info"]["index"], "test-fixture");
    assert_eq!(r.json()["limits"]["max_query_chars"], 2_000);
    check_schema("Ready", &r.json());
    backend.ready.store(false, Ordering::SeqCst);
    let r = send(&app, get("/readyz")).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.json()["status"], "loading");
    assert!(r.headers.contains_key(header::RETRY_AFTER));
}

// ---------------------------------------------------------------- search

#[tokio::test]
async fn search_returns_the_contract_with_breakdown() {
    let app = app();
    let r = send(
        &app,
        post_json(
            "/v1/search",
            json!({"query": DPO, "top_k": 4, "explain": true}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let v = r.json();
    check_schema("SearchResponse", &v);
    assert_eq!(v["assessment"]["primary_norm"], "Art. 37 DSGVO");
    let results = v["results"].as_array().unwrap();
    assert!(!results.is_empty() && results.len() <= 4);
    for (i, res) in results.iter().enumerate() {
        assert_eq!(res["rank"], i + 1);
        assert!(!res["explanation"].as_array().unwrap().is_empty());
    }
    let scores: Vec<f64> = results
        .iter()
        .map(|r| r["score"].as_f64().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "sorted: {scores:?}"
    );
    assert!(v["timings_ms"]["total"].is_number());
    assert!(r.headers.contains_key("x-request-id"));
}

#[tokio::test]
async fn search_without_explain_drops_breakdown() {
    let r = send(&app(), post_json("/v1/search", json!({"query": DPO}))).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.json()["results"][0]["explanation"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn bad_input_is_4xx_json_naming_the_field() {
    let app = app();
    // malformed JSON
    let r = send(&app, post("/v1/search", r#"{"query": "x""#)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.error_code(), "malformed_json");
    // wrong type
    let r = send(
        &app,
        post_json("/v1/search", json!({"query": DPO, "top_k": "fünf"})),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.error_field().as_deref(), Some("top_k"));
    let r = send(&app, post_json("/v1/search", json!({"query": 17}))).await;
    assert_eq!(r.error_field().as_deref(), Some("query"));
    // unknown field
    let r = send(
        &app,
        post_json("/v1/search", json!({"query": DPO, "topk": 3})),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.error_field().as_deref(), Some("topk"));
    // missing field
    let r = send(&app, post_json("/v1/answer", json!({"top_k": 3}))).await;
    assert_eq!(r.error_field().as_deref(), Some("query"));
    // nested wrong enum value
    let r = send(
        &app,
        post_json(
            "/v1/search",
            json!({"query": DPO, "filters": {"jurisdictions": ["MARS"]}}),
        ),
    )
    .await;
    assert_eq!(r.error_field().as_deref(), Some("filters.jurisdictions[0]"));
    // no JSON content type
    let req = Request::post("/v1/search")
        .body(Body::from(json!({"query": DPO}).to_string()))
        .unwrap();
    let r = send(&app, req).await;
    assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // blank query
    let r = send(&app, post_json("/v1/search", json!({"query": "   "}))).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.error_field().as_deref(), Some("query"));
    check_schema("ErrorBody", &r.json());
    // nothing but NUL and other control characters is blank too (it
    // returned results before)
    for q in ["\u{0}", "\u{0}\u{0}\u{0}", " \u{1b}\t\u{7f} "] {
        for path in ["/v1/search", "/v1/answer"] {
            let r = send(&app, post_json(path, json!({ "query": q }))).await;
            assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{path} {q:?}");
            assert_eq!(r.error_field().as_deref(), Some("query"), "{path} {q:?}");
        }
    }
}

/// The answer models' load count, switches and load time are in
/// `/metrics` (the switch cost clients cause by alternating models).
#[tokio::test]
async fn metrics_show_answer_model_loads() {
    let (app, _) = app_with(TestBackend::load(), &cfg());
    let r = send(&app, get("/metrics")).await;
    assert_eq!(r.status, StatusCode::OK);
    let text = r.text();
    for line in [
        "# TYPE paragraf_answer_model_loads_total counter",
        "paragraf_answer_model_loads_total 2",
        "paragraf_answer_model_switches_total 5",
        "paragraf_answer_model_load_seconds_total 1.5",
        "paragraf_answer_models_loaded 2",
        "paragraf_answer_models_kept_max 2",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} missing:\n{text}");
    }
}

/// A path the router cannot decode (`%ff%fe` is no UTF-8) answers 400 with
/// the API's JSON error, like every other refusal; it was axum's plain text.
#[tokio::test]
async fn undecodable_path_is_a_json_error() {
    let (app, _) = app_with(TestBackend::load(), &cfg());
    for path in ["/v1/norms/%ff%fe", "/v1/norms/%C3%28", "/v1/norms/a%80b"] {
        let r = send(&app, get(path)).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path}: {}", r.text());
        assert!(
            r.headers
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("application/json")),
            "{path}: {:?}",
            r.headers
        );
        check_schema("ErrorBody", &r.json());
        assert!(
            !r.text().contains("/work"),
            "no file-system path: {}",
            r.text()
        );
    }
}

#[tokio::test]
async fn limits_are_enforced() {
    let mut c = cfg();
    c.limits = Limits {
        max_body_bytes: 2_000,
        max_query_chars: 100,
        max_top_k: 10,
        max_tokens: 64,
        ..Limits::default()
    };
    let (app, _) = app_with(TestBackend::load(), &c);
    // body over the limit
    let big = json!({"query": "x".repeat(3_000)});
    let r = send(&app, post_json("/v1/search", big)).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.text());
    assert_eq!(r.error_field().as_deref(), Some("body"));
    // question too long (in characters: 101 umlauts are 202 bytes, under the body limit)
    let r = send(
        &app,
        post_json("/v1/search", json!({"query": "ä".repeat(101)})),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.error_field().as_deref(), Some("query"));
    let r = send(
        &app,
        post_json("/v1/search", json!({"query": "ä".repeat(100)})),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    // top_k
    let r = send(
        &app,
        post_json("/v1/search", json!({"query": DPO, "top_k": 11})),
    )
    .await;
    assert_eq!(r.error_field().as_deref(), Some("top_k"));
    let r = send(
        &app,
        post_json("/v1/search", json!({"query": DPO, "top_k": 0})),
    )
    .await;
    assert_eq!(r.error_field().as_deref(), Some("top_k"));
    // max tokens
    let r = send(
        &app,
        post_json("/v1/answer", json!({"query": DPO, "max_tokens": 65})),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.error_field().as_deref(), Some("max_tokens"));
    let r = send(
        &app,
        post_json(
            "/v1/chat/completions",
            json!({"messages": [{"role": "user", "content": DPO}], "max_tokens": 1000}),
        ),
    )
    .await;
    assert_eq!(r.error_field().as_deref(), Some("max_tokens"));
}

#[tokio::test]
async fn search_timeout_is_504() {
    let mut c = cfg();
    c.limits.request_timeout = Duration::from_millis(50);
    let mut b = TestBackend::load();
    b.search_delay = Duration::from_millis(400);
    let (app, _) = app_with(b, &c);
    let r = send(&app, post_json("/v1/search", json!({"query": DPO}))).await;
    assert_eq!(r.status, StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(r.error_code(), "timeout");
}

#[tokio::test]
async fn panicking_backend_is_a_bare_500_and_the_server_lives_on() {
    let app = app();
    let r = send(&app, post_json("/v1/search", json!({"query": PANIC_QUERY}))).await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(r.error_code(), "internal");
    assert!(!r.text().contains("panic"), "no internals: {}", r.text());
    let r = send(&app, get(&format!("/v1/norms/{PANIC_QUERY}"))).await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
    // the answer worker survives a panic, too
    let r = send(&app, post_json("/v1/answer", json!({"query": PANIC_QUERY}))).await;
    let ev = sse(&r.text());
    assert_eq!(ev.last().unwrap().0, "error");
    assert!(ev.last().unwrap().1.contains("internal"));
    wait_idle(&app).await;
    let r = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(sse(&r.text()).last().unwrap().0, "final");
    let r = send(&app, get("/metrics")).await;
    assert!(
        r.text().contains("paragraf_backend_panics_total 3"),
        "{}",
        r.text()
    );
}

// ---------------------------------------------------------------- answer

#[tokio::test]
async fn answer_streams_results_then_gated_sentences_then_the_final() {
    let r = send(
        &app(),
        post_json("/v1/answer", json!({"query": DPO, "top_k": 5})),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let events = sse(&r.text());
    let (last, rest) = events.split_last().unwrap();
    assert_eq!(last.0, "final");
    // results first, at once, without an answer
    let (first, sentences) = rest.split_first().unwrap();
    assert_eq!(first.0, "results");
    let results: Value = serde_json::from_str(&first.1).unwrap();
    check_schema("SearchResponse", &results);
    assert!(results["answer"].is_null());
    assert!(!results["results"].as_array().unwrap().is_empty());
    // then only gated sentences: the model's bad citation never goes on the wire
    assert!(!sentences.is_empty());
    for (name, data) in sentences {
        assert_eq!(name, "sentence");
        let s: Value = serde_json::from_str(data).unwrap();
        check_schema("SentenceEvent", &s);
        assert!(
            !s["text"].as_str().unwrap().contains("Art. 83 DSGVO"),
            "{data}"
        );
    }
    let fin: Value = serde_json::from_str(&last.1).unwrap();
    check_schema("SearchResponse", &fin);
    let answer = &fin["answer"];
    let cites: Vec<&str> = answer["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(cites, ["Art. 37 DSGVO", "§ 38 BDSG"]);
    assert_eq!(answer["removed_citations"][0]["text"], "Art. 83 DSGVO");
    assert!(!answer["text"].as_str().unwrap().contains("Art. 83"));
    assert_eq!(fin["assessment"]["primary_norm"], "Art. 37 DSGVO");
}

#[tokio::test]
async fn answer_as_json_when_asked() {
    let mut req = post_json("/v1/answer", json!({"query": DPO}));
    req.headers_mut()
        .insert(header::ACCEPT, "application/json".parse().unwrap());
    let r = send(&app(), req).await;
    assert_eq!(r.status, StatusCode::OK);
    check_schema("SearchResponse", &r.json());
    assert_eq!(r.json()["answer"]["model"], "test-model");
}

#[tokio::test]
async fn backend_rejection_during_answer_is_an_error_event() {
    // offered by the operator, refused by the backend once the job runs
    let mut c = cfg();
    c.answer_models = vec!["gpt-9".into()];
    let (app, _) = app_with(TestBackend::load(), &c);
    let r = send(
        &app,
        post_json("/v1/answer", json!({"query": DPO, "model": "gpt-9"})),
    )
    .await;
    let events = sse(&r.text());
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].0, "error");
    let body: Value = serde_json::from_str(&events[0].1).unwrap();
    check_schema("ErrorBody", &body);
    assert_eq!(body["error"]["field"], "model");
}

#[tokio::test]
async fn full_queue_is_503_with_retry_after_and_searches_still_run() {
    // one quick answer first: until an answer time is measured nothing is
    // queued behind a running one
    let (app, gate) = gated_app(1);
    let quick = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(sse(&quick.text()).last().unwrap().0, "final");
    // 1st: running (blocked at the gate); keep the response body unread.
    let first = start_answer(&app).await;
    assert_eq!(first.status(), StatusCode::OK);
    gate.wait_arrived(1);
    // 2nd: waits in the queue.
    let second = start_answer(&app).await;
    assert_eq!(second.status(), StatusCode::OK);
    // 3rd: rejected.
    let r = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.error_code(), "queue_full");
    let retry: u64 = r.headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1);
    let r = send(
        &app,
        post_json(
            "/v1/chat/completions",
            json!({"messages": [{"role": "user", "content": DPO}]}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    // searches are not queued behind the generation
    let r = send(&app, post_json("/v1/search", json!({"query": DPO}))).await;
    assert_eq!(r.status, StatusCode::OK);
    let m = send(&app, get("/metrics")).await.text();
    assert!(m.contains("paragraf_answer_queue_depth 1\n"), "{m}");
    assert!(m.contains("paragraf_answers_in_progress 1\n"), "{m}");
    assert!(m.contains("paragraf_answers_rejected_total 2\n"), "{m}");
    gate.open();
    for resp in [first, second] {
        let body = to_bytes(resp.into_body(), usize::MAX).await.unwrap();
        let ev = sse(&String::from_utf8_lossy(&body));
        assert_eq!(ev.last().unwrap().0, "final");
    }
    let m = send(&app, get("/metrics")).await.text();
    assert!(m.contains("paragraf_answer_queue_depth 0\n"), "{m}");
    assert!(m.contains("paragraf_generated_tokens_total"), "{m}");
}

#[tokio::test]
async fn answer_deadline_ends_the_stream_with_a_timeout_event() {
    let mut c = cfg();
    c.limits.answer_timeout = Duration::from_millis(150);
    let mut b = TestBackend::load();
    b.token_delay = Duration::from_millis(20);
    let (app, _) = app_with(b, &c);
    let r = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    let ev = sse(&r.text());
    let last = ev.last().unwrap();
    assert_eq!(last.0, "error");
    assert!(last.1.contains("timeout"), "{}", last.1);
    assert_eq!(
        ev[0].0, "results",
        "results reach the client before the deadline"
    );
    assert!(ev.iter().all(|(n, _)| n != "token"));
}

// ---------------------------------------------------------------- norms

#[tokio::test]
async fn norms_by_chunk_id_and_norm_ref() {
    let app = app();
    for uri in [
        "/v1/norms/DSGVO/Art.37/Abs.1",
        "/v1/norms/DSGVO%2FArt.37%2FAbs.1",
        "/v1/norms/Art.%2037%20DSGVO",
    ] {
        let r = send(&app, get(uri)).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text());
        let v = r.json();
        check_schema("NormView", &v);
        assert_eq!(v["norm_ref"], "Art. 37 DSGVO");
        assert_eq!(v["chunks"].as_array().unwrap().len(), 2);
        assert_eq!(v["language_variants"][0]["lang"], "en");
        assert!(v["references_in"]
            .as_array()
            .unwrap()
            .contains(&json!("§ 38 BDSG")));
    }
    let r = send(&app, get("/v1/norms/BDSG-alt/%C2%A74f")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["metadata"]["superseded_by"], "BDSG");
    let r = send(&app, get("/v1/norms/Art.%20999%20DSGVO")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.error_field().as_deref(), Some("id"));
    check_schema("ErrorBody", &r.json());
}

// ---------------------------------------------------------------- OpenAI

#[tokio::test]
async fn chat_completions_non_streaming() {
    let r = send(
        &app(),
        post_json(
            "/v1/chat/completions",
            json!({"model": "paragraf", "temperature": 0.3, "messages": [
                {"role": "system", "content": "Antworte knapp."},
                {"role": "user", "content": DPO}
            ]}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let v = r.json();
    check_schema("ChatCompletion", &v);
    let content = v["choices"][0]["message"]["content"].as_str().unwrap();
    assert!(
        content.contains("Quellen:\n- Art. 37 DSGVO\n- § 38 BDSG"),
        "{content}"
    );
    assert_eq!(v["paragraf"]["citations"][0], "Art. 37 DSGVO");
    assert_eq!(v["paragraf"]["assessment"]["primary_norm"], "Art. 37 DSGVO");
    assert!(v["usage"]["completion_tokens"].as_u64().unwrap() > 0);
}

#[tokio::test]
async fn chat_completions_streaming_in_openai_format() {
    let r = send(
        &app(),
        post_json(
            "/v1/chat/completions",
            json!({"stream": true, "messages": [{"role": "user", "content": [{"type": "text", "text": DPO}]}]}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    let events = sse(&r.text());
    assert_eq!(events.last().unwrap().1, "[DONE]");
    let chunks: Vec<Value> = events[..events.len() - 1]
        .iter()
        .map(|(name, d)| {
            assert_eq!(name, "message", "OpenAI streams use unnamed events");
            serde_json::from_str(d).unwrap()
        })
        .collect();
    for c in &chunks {
        check_schema("ChatCompletionChunk", c);
    }
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let text: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert!(text.starts_with("Ein Unternehmen muss"), "{text}");
    assert!(text.contains("Quellen:"), "{text}");
    // the stream carries gated sentences only: the model's unsupported
    // citation was removed before anything was sent
    let before_sources = text.split("Quellen:").next().unwrap();
    assert!(!before_sources.contains("Art. 83 DSGVO"), "{text}");
    let last = chunks.last().unwrap();
    assert_eq!(last["choices"][0]["finish_reason"], "stop");
    assert_eq!(last["paragraf"]["citations"][1], "§ 38 BDSG");
    let ids: std::collections::BTreeSet<&str> =
        chunks.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 1, "one completion id per stream");
}

#[tokio::test]
async fn chat_completions_without_user_message_is_422() {
    let r = send(
        &app(),
        post_json(
            "/v1/chat/completions",
            json!({"messages": [{"role": "system", "content": "x"}]}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.error_field().as_deref(), Some("messages"));
    let r = send(
        &app(),
        post_json("/v1/chat/completions", json!({"messages": "hi"})),
    )
    .await;
    assert_eq!(r.error_field().as_deref(), Some("messages"));
}

#[tokio::test]
async fn models_list() {
    let r = send(&app(), get("/v1/models")).await;
    assert_eq!(r.status, StatusCode::OK);
    check_schema("ModelList", &r.json());
    assert_eq!(r.json()["data"].as_array().unwrap().len(), 1);
    let mut c = cfg();
    c.answer_models = vec!["test-model".into(), "small".into()];
    let (app, _) = app_with(TestBackend::load(), &c);
    let r = send(&app, get("/v1/models")).await;
    check_schema("ModelList", &r.json());
    let ids: Vec<String> = r.json()["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["paragraf", "test-model", "small"]);
}

#[tokio::test]
async fn a_client_cannot_name_a_model_the_operator_did_not_offer() {
    let mut c = cfg();
    c.answer_models = vec!["test-model".into()];
    let (app, backend) = app_with(TestBackend::load(), &c);
    let big = "qwen2.5-7b-instruct-q4km";
    let r = send(
        &app,
        post_json("/v1/answer", json!({"query": DPO, "model": big})),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    assert_eq!(r.error_field().as_deref(), Some("model"));
    assert!(r.text().contains("test-model"), "{}", r.text());
    assert!(
        !r.text().contains('/'),
        "no path in the reply: {}",
        r.text()
    );
    let r = send(
        &app,
        post_json(
            "/v1/chat/completions",
            json!({"model": big, "messages": [{"role": "user", "content": DPO}]}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.error_field().as_deref(), Some("model"));
    // nothing reached the worker
    let m = send(&app, get("/metrics")).await.text();
    assert!(m.contains("paragraf_generated_tokens_total 0\n"), "{m}");
    // an offered model and the default still answer
    let r = send(
        &app,
        post_json("/v1/answer", json!({"query": DPO, "model": "test-model"})),
    )
    .await;
    assert_eq!(sse(&r.text()).last().unwrap().0, "final");
    let _ = backend;
}

// ---------------------------------------------------------------- auth, CORS, ids

#[tokio::test]
async fn bearer_auth_guards_v1_only() {
    let mut c = cfg();
    c.api_key = Some("s3cret".into());
    let (app, _) = app_with(TestBackend::load(), &c);
    let r = send(&app, post_json("/v1/search", json!({"query": DPO}))).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(r.headers[header::WWW_AUTHENTICATE], "Bearer");
    assert_eq!(r.error_code(), "unauthorized");
    let mut req = post_json("/v1/search", json!({"query": DPO}));
    req.headers_mut()
        .insert(header::AUTHORIZATION, "Bearer wrong!".parse().unwrap());
    assert_eq!(send(&app, req).await.status, StatusCode::UNAUTHORIZED);
    let mut req = post_json("/v1/search", json!({"query": DPO}));
    req.headers_mut()
        .insert(header::AUTHORIZATION, "Bearer s3cret".parse().unwrap());
    assert_eq!(send(&app, req).await.status, StatusCode::OK);
    assert_eq!(
        send(&app, get("/v1/norms/Art.%2037%20DSGVO")).await.status,
        StatusCode::UNAUTHORIZED
    );
    for open in ["/healthz", "/readyz", "/metrics", "/openapi.json", "/"] {
        assert_eq!(send(&app, get(open)).await.status, StatusCode::OK, "{open}");
    }
}

#[tokio::test]
async fn cors_off_by_default_on_when_configured() {
    let preflight = || {
        Request::builder()
            .method(Method::OPTIONS)
            .uri("/v1/search")
            .header(header::ORIGIN, "https://example.org")
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .body(Body::empty())
            .unwrap()
    };
    let r = send(&app(), preflight()).await;
    assert!(!r.headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));
    let mut c = cfg();
    c.cors = true;
    let (app, _) = app_with(TestBackend::load(), &c);
    let r = send(&app, preflight()).await;
    assert_eq!(r.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
}

#[tokio::test]
async fn request_id_is_generated_or_echoed() {
    let app = app();
    let r = send(&app, get("/healthz")).await;
    let id = r.headers["x-request-id"].to_str().unwrap().to_string();
    assert!(!id.is_empty());
    let r2 = send(&app, get("/healthz")).await;
    assert_ne!(r2.headers["x-request-id"].to_str().unwrap(), id);
    let req = Request::get("/healthz")
        .header("x-request-id", "abc-123")
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&app, req).await.headers["x-request-id"], "abc-123");
}

#[tokio::test]
async fn unknown_route_and_method_are_json_errors() {
    let app = app();
    let r = send(&app, get("/v2/nothing")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    check_schema("ErrorBody", &r.json());
    let r = send(&app, get("/v1/search")).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(r.error_code(), "method_not_allowed");
}

// ---------------------------------------------------------------- metrics

#[tokio::test]
async fn metrics_count_routes_stages_and_generation() {
    let app = app();
    send(&app, post_json("/v1/search", json!({"query": DPO}))).await;
    send(&app, post_json("/v1/search", json!({"query": ""}))).await;
    send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    send(&app, get("/v1/norms/Art.%2037%20DSGVO")).await;
    let r = send(&app, get("/metrics")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/plain; version=0.0.4"));
    let m = r.text();
    for needle in [
        "paragraf_http_requests_total{route=\"/v1/search\",method=\"POST\",status=\"200\"} 1",
        "paragraf_http_requests_total{route=\"/v1/search\",method=\"POST\",status=\"422\"} 1",
        "paragraf_http_requests_total{route=\"/v1/norms/{id}\",method=\"GET\",status=\"200\"} 1",
        "paragraf_http_request_duration_seconds_count{route=\"/v1/answer\"} 1",
        "paragraf_stage_duration_seconds_count{stage=\"rank\"} 2",
        "paragraf_stage_duration_seconds_count{stage=\"generate\"} 1",
        "# TYPE paragraf_answer_queue_depth gauge",
        "# TYPE paragraf_tokens_per_second gauge",
    ] {
        assert!(m.contains(needle), "missing `{needle}` in\n{m}");
    }
    // Every sample line is `name{labels} value` or `name value` with a numeric value.
    for line in m.lines().filter(|l| !l.starts_with('#')) {
        let value = line.rsplit(' ').next().unwrap();
        assert!(value.parse::<f64>().is_ok(), "bad sample line {line}");
    }
}

// ---------------------------------------------------------------- web page

#[tokio::test]
async fn web_page_and_assets_are_embedded() {
    let app = app();
    let r = send(&app, get("/")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert!(r.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .contains("default-src 'self'"));
    let html = r.text();
    assert!(html.contains("lang=\"de\""));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no CDN"
    );
    for asset in ["/assets/app.js", "/assets/style.css"] {
        assert!(html.contains(asset));
        let r = send(&app, get(asset)).await;
        assert_eq!(r.status, StatusCode::OK);
        assert!(r.body.len() > 500, "{asset} is real");
    }
    assert_eq!(
        send(&app, get("/assets/x.js")).await.status,
        StatusCode::NOT_FOUND
    );
}

// ---------------------------------------------------------------- OpenAPI

#[tokio::test]
async fn openapi_documents_every_route_and_nothing_else() {
    let doc = openapi();
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    for (method, path) in ROUTES {
        let op = &paths
            .get(*path)
            .unwrap_or_else(|| panic!("{path} undocumented"))[method.to_lowercase()];
        assert!(op.is_object(), "{method} {path} undocumented");
        assert!(op["responses"].is_object());
    }
    for (path, item) in paths {
        for method in item.as_object().unwrap().keys() {
            assert!(
                ROUTES
                    .iter()
                    .any(|(m, p)| p == path && m.eq_ignore_ascii_case(method)),
                "documented {method} {path} is not served"
            );
        }
    }
    // every documented route answers (not the 404 fallback)
    let app = app();
    for (method, path) in ROUTES {
        let uri = path
            .replace("{id}", "Art.%2037%20DSGVO")
            .replace("{file}", "app.js");
        let req = if *method == "POST" {
            post(&uri, "{}")
        } else {
            get(&uri)
        };
        let r = send(&app, req).await;
        assert!(
            r.status != StatusCode::NOT_FOUND && r.status != StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path} -> {}",
            r.status
        );
    }
    // every $ref resolves, every example validates
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let mut examples = 0;
    for (name, s) in schemas {
        for ex in s["examples"].as_array().into_iter().flatten() {
            schema::validate_named(&doc, name, ex)
                .unwrap_or_else(|e| panic!("example of {name}: {e}"));
            examples += 1;
        }
    }
    assert!(examples >= 8);
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref") {
                    out.push(r.clone());
                }
                m.values().for_each(|x| refs(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    refs(&doc, &mut all);
    for r in all {
        let p = r.trim_start_matches('#');
        assert!(doc.pointer(p).is_some(), "dangling {r}");
    }
    // served verbatim
    let r = send(&app, get("/openapi.json")).await;
    assert_eq!(r.json(), doc);
}

#[tokio::test]
async fn schema_checker_rejects_wrong_shapes() {
    // The checker itself must be able to fail, or the schema tests prove nothing.
    let doc = openapi();
    let bad = json!({"query": "x", "results": [], "assessment": {}, "timings_ms": {}});
    assert!(schema::validate_named(&doc, "SearchResponse", &bad).is_err());
    let bad = json!({"error": {"code": "x", "message": "y", "field": null, "extra": 1}});
    assert!(schema::validate_named(&doc, "ErrorBody", &bad).is_err());
    let bad = json!({"query": "x", "top_k": "3"});
    assert!(schema::validate_named(&doc, "SearchRequest", &bad).is_err());
}

#[tokio::test]
async fn a_waiting_client_that_leaves_frees_its_queue_slot() {
    let (app, gate) = gated_app(1);
    let quick = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(sse(&quick.text()).last().unwrap().0, "final");
    let running = start_answer(&app).await;
    gate.wait_arrived(1);
    let waiting = start_answer(&app).await;
    assert_eq!(waiting.status(), StatusCode::OK);
    let m = send(&app, get("/metrics")).await.text();
    assert!(m.contains("paragraf_answer_queue_depth 1\n"), "{m}");
    drop(waiting); // the waiting client goes away
    let next = start_answer(&app).await;
    assert_eq!(next.status(), StatusCode::OK, "the slot was freed");
    let m = send(&app, get("/metrics")).await.text();
    assert!(m.contains("paragraf_answer_queue_depth 1\n"), "{m}");
    assert!(m.contains("paragraf_answers_rejected_total 0\n"), "{m}");
    gate.open();
    for resp in [running, next] {
        let body = to_bytes(resp.into_body(), usize::MAX).await.unwrap();
        assert_eq!(
            sse(&String::from_utf8_lossy(&body)).last().unwrap().0,
            "final"
        );
    }
}

#[tokio::test]
async fn retry_after_follows_the_running_generation() {
    let (app, gate) = gated_app(1); // one quick answer first: a short mean
    let quick = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(sse(&quick.text()).last().unwrap().0, "final");
    let long = start_answer(&app).await;
    gate.wait_arrived(1);
    let queued = start_answer(&app).await;
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let r = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    let retry: u64 = r.headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    // the running answer has taken 2.1 s so far and one waits behind it
    assert!(retry >= 3, "Retry-After {retry} s");
    gate.open();
    for resp in [long, queued] {
        let body = to_bytes(resp.into_body(), usize::MAX).await.unwrap();
        assert_eq!(
            sse(&String::from_utf8_lossy(&body)).last().unwrap().0,
            "final"
        );
    }
}

#[tokio::test]
async fn an_answer_that_could_not_finish_in_time_is_turned_away_at_once() {
    let mut c = cfg();
    c.limits.answer_timeout = Duration::from_secs(2);
    let mut b = TestBackend::load();
    b.token_delay = Duration::from_millis(20); // ~1.2 s per answer
    let (app, _) = app_with(b, &c);
    // one answer measures the job time
    let first = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(sse(&first.text()).last().unwrap().0, "final");
    // while the next runs, a third would start after ~1.2 s and need ~1.2 s
    // more: past its 2 s deadline, so it is refused now, not failed later
    let running = start_answer(&app).await;
    let r = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text());
    assert!(r.headers.contains_key(header::RETRY_AFTER));
    let body = to_bytes(running.into_body(), usize::MAX).await.unwrap();
    assert_eq!(
        sse(&String::from_utf8_lossy(&body)).last().unwrap().0,
        "final"
    );
    // with the worker free it fits again
    wait_idle(&app).await;
    let r = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(sse(&r.text()).last().unwrap().0, "final");
}

#[tokio::test]
async fn metrics_labels_come_from_closed_sets() {
    let app = app();
    for i in 0..200 {
        let method = format!("M{i}{}", "X".repeat(2_000));
        let req = Request::builder()
            .method(method.as_str())
            .uri(format!("/nowhere/{i}"))
            .body(Body::empty())
            .unwrap();
        let r = send(&app, req).await;
        assert!(r.status.is_client_error());
        let req = Request::builder()
            .method(method.as_str())
            .uri("/healthz")
            .body(Body::empty())
            .unwrap();
        let _ = send(&app, req).await;
    }
    let m = send(&app, get("/metrics")).await.text();
    assert!(m.len() < 16 * 1024, "/metrics is {} bytes", m.len());
    assert!(!m.contains("XXXX") && !m.contains("nowhere"), "{m}");
    assert!(m.contains("method=\"other\""), "{m}");
    assert!(m.contains("route=\"unmatched\""), "{m}");
}

#[tokio::test]
async fn foreign_host_names_are_refused() {
    let with_host = |host: &str| {
        let mut r = post_json("/v1/search", json!({"query": DPO}));
        r.headers_mut().insert(header::HOST, host.parse().unwrap());
        r
    };
    let app = app();
    for ok in [
        "localhost:8080",
        "127.0.0.1:8080",
        "[::1]:8080",
        "LOCALHOST",
        "10.1.2.3",
    ] {
        let r = send(&app, with_host(ok)).await;
        assert_eq!(r.status, StatusCode::OK, "{ok}");
    }
    for bad in [
        "attacker.example",
        "attacker.example:8080",
        "localhost.attacker.example",
        "",
    ] {
        let r = send(&app, with_host(bad)).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{bad}");
        assert_eq!(r.error_code(), "host_not_allowed");
    }
    let r = send(&app, {
        let mut g = get("/");
        g.headers_mut()
            .insert(header::HOST, "attacker.example".parse().unwrap());
        g
    })
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "the web page too");
    let mut c = cfg();
    c.allowed_hosts = vec!["paragraf.intern".into()];
    let (app, _) = app_with(TestBackend::load(), &c);
    assert_eq!(
        send(&app, with_host("paragraf.intern:443")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        send(&app, with_host("attacker.example")).await.status,
        StatusCode::FORBIDDEN
    );
    c.allowed_hosts = vec!["*".into()];
    let (app, _) = app_with(TestBackend::load(), &c);
    assert_eq!(
        send(&app, with_host("attacker.example")).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn client_leaving_stops_the_generation() {
    use futures::StreamExt;
    let mut b = TestBackend::load();
    b.token_delay = Duration::from_millis(10);
    let (app, _) = app_with(b, &cfg());
    let resp = app
        .clone()
        .oneshot(post_json("/v1/answer", json!({"query": DPO})))
        .await
        .unwrap();
    let mut body = resp.into_body().into_data_stream();
    let first = body.next().await.expect("one frame").expect("bytes");
    assert!(String::from_utf8_lossy(&first).contains("event: results"));
    drop(body); // the client goes away
                // The worker notices on its next token and is free again (no answer is
                // queued behind a running one before an answer time is known): a new
                // answer completes, and fewer tokens were generated than the script has.
    wait_idle(&app).await;
    let r = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    let events = sse(&r.text());
    let (name, fin) = events.last().unwrap();
    assert_eq!(name, "final");
    let fin: Value = serde_json::from_str(fin).unwrap();
    let full = fin["answer"]["generated_tokens"].as_u64().unwrap() as usize;
    let m = send(&app, get("/metrics")).await.text();
    let total: usize = m
        .lines()
        .find_map(|l| l.strip_prefix("paragraf_generated_tokens_total "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        total < 2 * full,
        "first generation stopped early: {total} tokens vs {full} per answer"
    );
}

#[tokio::test]
async fn nothing_queues_behind_an_unmeasured_answer() {
    // no answer has finished yet: the running one may take its whole
    // deadline, so a second is turned away now instead of timing out later
    let (app, gate) = gated_app(0);
    let running = start_answer(&app).await;
    gate.wait_arrived(1);
    let r = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text());
    assert!(r.headers.contains_key(header::RETRY_AFTER));
    gate.open();
    let body = to_bytes(running.into_body(), usize::MAX).await.unwrap();
    assert_eq!(
        sse(&String::from_utf8_lossy(&body)).last().unwrap().0,
        "final"
    );
    // measured now (quick): the next one queues and runs
    let next = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
    assert_eq!(sse(&next.text()).last().unwrap().0, "final");
}

/// Until the answer worker has no answer in progress (at most 2 s).
async fn wait_idle(app: &axum::Router) {
    for _ in 0..200 {
        let m = send(app, get("/metrics")).await.text();
        if m.contains("paragraf_answers_in_progress 0\n") {
            // the worker clears its running mark just after the last event
            tokio::time::sleep(Duration::from_millis(20)).await;
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn asking_again_on_the_final_event_is_admitted() {
    // the worker books an answer as done before its final event goes out,
    // so a client that asks its next question at once is never turned away
    // as if the first answer were still running unmeasured
    for _ in 0..20 {
        let app = app();
        let first = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
        assert_eq!(sse(&first.text()).last().unwrap().0, "final");
        let next = send(&app, post_json("/v1/answer", json!({"query": DPO}))).await;
        assert_eq!(next.status, StatusCode::OK, "{}", next.text());
        assert_eq!(sse(&next.text()).last().unwrap().0, "final");
    }
}

// ---------------------------------------------------------------- answer cache

/// The `paragraf_answer_cache_total{result=…}` counter of `/metrics`.
async fn cache_count(app: &Router, result: &str) -> u64 {
    let text = send(app, get("/metrics")).await.text();
    let prefix = format!("paragraf_answer_cache_total{{result=\"{result}\"}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("no {prefix} in /metrics"))
        .trim()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn a_repeated_answer_comes_from_the_cache_at_once() {
    let mut b = TestBackend::load();
    // a model slow enough that a second run could not be quick
    b.token_delay = Duration::from_millis(5);
    *b.cache_identity.lock().unwrap() = Some("fixture index 1".into());
    let (app, backend) = app_with(b, &cfg());
    let ask = json!({"query": DPO, "top_k": 5});

    let t = std::time::Instant::now();
    let first = send(&app, post_json("/v1/answer", ask.clone())).await;
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(backend.answers_run.load(Ordering::SeqCst), 1);
    assert_eq!(cache_count(&app, "miss").await, 1);
    assert_eq!(cache_count(&app, "hit").await, 0);

    let t = std::time::Instant::now();
    let second = send(&app, post_json("/v1/answer", ask.clone())).await;
    let second_ms = t.elapsed().as_secs_f64() * 1e3;
    println!("first answer {first_ms:.1} ms, repeated {second_ms:.1} ms");
    assert_eq!(second.status, StatusCode::OK);
    assert!(
        second_ms < 100.0,
        "the repeated answer took {second_ms:.1} ms"
    );
    // the model did not run again, and the stream is the same events
    assert_eq!(backend.answers_run.load(Ordering::SeqCst), 1);
    assert_eq!(cache_count(&app, "hit").await, 1);
    let names = |r: &Resp| {
        sse(&r.text())
            .into_iter()
            .map(|(e, _)| e)
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&first), names(&second));
    assert!(names(&second).iter().any(|e| e == "sentence"));
    let fin = |r: &Resp| {
        let (_, data) = sse(&r.text()).pop().unwrap();
        serde_json::from_str::<Value>(&data).unwrap()
    };
    assert_eq!(fin(&first)["answer"], fin(&second)["answer"]);

    // another question, filter or budget is another answer
    let mut other = ask.clone();
    other["max_tokens"] = json!(20);
    send(&app, post_json("/v1/answer", other)).await;
    assert_eq!(backend.answers_run.load(Ordering::SeqCst), 2);

    // a new index: what was cached is gone
    *backend.cache_identity.lock().unwrap() = Some("fixture index 2".into());
    send(&app, post_json("/v1/answer", ask)).await;
    assert_eq!(backend.answers_run.load(Ordering::SeqCst), 3);
    assert_eq!(cache_count(&app, "hit").await, 1);
}

#[tokio::test]
async fn search_response_carries_the_question_language_and_the_near_tie() {
    let r = send(
        &app(),
        post_json(
            "/v1/search",
            json!({"query": "Does our company have to appoint a data protection officer?"}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["lang"], "en");
    let r = send(&app(), post_json("/v1/search", json!({"query": DPO}))).await;
    let v = r.json();
    assert_eq!(v["lang"], "de");
    check_schema("SearchResponse", &v);
    let a = &v["assessment"];
    // the runner-up is named exactly when the margin is a near tie
    let margin = a["winner_margin"].as_f64().unwrap();
    assert_eq!(a["runner_up"].is_string(), margin < 0.05, "{a}");
}

#[tokio::test]
async fn norm_view_links_the_official_page_of_the_provision() {
    let r = send(&app(), get("/v1/norms/BDSG%2F%C2%A738%2FAbs.1")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let v = r.json();
    check_schema("NormView", &v);
    assert_eq!(
        v["url"],
        "https://www.gesetze-im-internet.de/bdsg_2018/__38.html"
    );
}
