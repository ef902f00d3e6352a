//! The body of the server fuzz targets, shared by the cargo-fuzz binaries
//! (`fuzz_targets/*.rs`) and the stable regression test
//! (`tests/fuzz_regressions.rs`), both through `#[path] mod checks;`.
//!
//! Both drive the real router (`paragraf_server::router` with
//! `ServerConfig::default()`) over a stub [`Backend`] that answers at once,
//! so any slowness or failure is the HTTP layer's own.
//!
//! * `http_request`: the bytes are the raw HTTP/1.1 stream a client sends on
//!   one connection (possibly several pipelined requests, then EOF), decoded
//!   by hyper's HTTP/1 server as `paragraf serve` configures it. Invariant:
//!   no panic, the connection ends (answered or closed) within
//!   [`connection_limit`], whatever it writes is an HTTP/1 response, and it
//!   is never a 500 (the stub backend never fails).
//! * `json_body`: the bytes are the JSON body of `POST /v1/search`,
//!   `POST /v1/answer` (JSON and event stream) and `POST
//!   /v1/chat/completions`. Invariant: no panic, 200 or a JSON error with a
//!   code (400 malformed, 413 too large, 422 bad field), never a 5xx.
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use paragraf_server::{
    AnswerEvent, AnswerRequest, Backend, BackendError, NormView, SearchRequest, ServerConfig,
};
use paragraf_types::{Answer, SearchResponse};
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tower::ServiceExt;

/// A target: its name and its body.
pub type Target = (&'static str, fn(&[u8]));

/// Every target: (name, body). The name is the cargo-fuzz binary and the
/// directory under `fuzz/regressions/`.
pub const TARGETS: &[Target] = &[("http_request", http_request), ("json_body", json_body)];

/// Longest a connection may take to be answered and closed on an idle
/// machine (the stub backend answers at once; the fuzzer's `-timeout` is the
/// outer bound).
pub const CONNECTION_LIMIT: Duration = Duration::from_secs(5);

/// [`CONNECTION_LIMIT`], or `PARAGRAF_FUZZ_CONNECTION_LIMIT_S` seconds where
/// that is set: `scripts/fuzz.sh` scales it with the machine's load, since
/// the limit is wall-clock time and a starved process is not a hang.
pub fn connection_limit() -> Duration {
    static LIMIT: OnceLock<Duration> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var("PARAGRAF_FUZZ_CONNECTION_LIMIT_S")
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .filter(|&s| s > 0)
            .map_or(CONNECTION_LIMIT, Duration::from_secs)
    })
}

/// Bytes handed to the server per read: the request arrives in pieces, as
/// from a socket, so the incremental parser is exercised.
const READ_CHUNK: usize = 1024;

/// Response bytes kept for the checks; the rest is only counted.
const KEEP_OUTPUT: usize = 1 << 20;

/// A backend that answers every call at once with a fixed response.
struct StubBackend;

fn response(query: &str) -> SearchResponse {
    SearchResponse {
        query: query.to_string(),
        ..SearchResponse::default()
    }
}

impl Backend for StubBackend {
    fn search(&self, req: &SearchRequest) -> Result<SearchResponse, BackendError> {
        Ok(response(&req.query))
    }

    fn answer(
        &self,
        req: &AnswerRequest,
        on_event: &mut dyn FnMut(AnswerEvent) -> bool,
    ) -> Result<SearchResponse, BackendError> {
        let mut resp = response(&req.query);
        if !on_event(AnswerEvent::Results(resp.clone())) {
            return Ok(resp);
        }
        let text = "Die Norm regelt das [1].";
        if on_event(AnswerEvent::Progress(1)) {
            on_event(AnswerEvent::Sentence(text.to_string()));
        }
        resp.answer = Some(Answer {
            text: text.to_string(),
            citations: vec!["Art. 1 DSGVO".to_string()],
            model: "stub".to_string(),
            generated_tokens: 1,
            ..Answer::default()
        });
        Ok(resp)
    }

    fn norm(&self, _id: &str) -> Result<Option<NormView>, BackendError> {
        Ok(None)
    }

    fn ready(&self) -> bool {
        true
    }

    fn info(&self) -> serde_json::Value {
        serde_json::json!({ "index": "fuzz-stub", "models": [] })
    }
}

/// One current-thread runtime for all inputs (the blocking pool serves the
/// backend calls).
fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("tokio runtime")
    })
}

/// One router for all inputs (it owns the answer worker thread).
fn router() -> Router {
    static APP: OnceLock<Router> = OnceLock::new();
    APP.get_or_init(|| paragraf_server::router(Arc::new(StubBackend), &ServerConfig::default()))
        .clone()
}

/// What the server wrote on a connection.
#[derive(Default)]
pub struct Written {
    /// The first [`KEEP_OUTPUT`] bytes.
    pub head: Vec<u8>,
    /// All bytes written.
    pub total: usize,
}

/// An in-memory connection: reads return the request bytes (in
/// [`READ_CHUNK`] pieces, then EOF, as when the client shuts down its
/// sending side); writes are collected.
struct MemIo {
    input: Vec<u8>,
    pos: usize,
    out: Arc<Mutex<Written>>,
}

impl AsyncRead for MemIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let n = (self.input.len() - self.pos)
            .min(buf.remaining())
            .min(READ_CHUNK);
        let start = self.pos;
        buf.put_slice(&self.input[start..start + n]);
        self.pos += n;
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for MemIo {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let keep = KEEP_OUTPUT.saturating_sub(out.head.len()).min(buf.len());
        out.head.extend_from_slice(&buf[..keep]);
        out.total += buf.len();
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// Serve one connection whose client sends `data` and then shuts down its
/// sending side; returns what the server wrote. Panics when the connection
/// is still open after [`connection_limit`].
///
/// HTTP/1 as `paragraf serve` sets it up (keep-alive, header-read timeout,
/// tokio timer), plus half-close support so the server still answers a
/// request whose client has finished sending.
pub fn serve_bytes(data: &[u8]) -> Written {
    let out = Arc::new(Mutex::new(Written::default()));
    let io = MemIo {
        input: data.to_vec(),
        pos: 0,
        out: out.clone(),
    };
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(10))
        .keep_alive(true)
        .half_close(true);
    let conn = http.serve_connection(TokioIo::new(io), TowerToHyperService::new(router()));
    // the timer of `timeout` needs the runtime: create it inside
    let limit = connection_limit();
    let ended = runtime().block_on(async { tokio::time::timeout(limit, conn).await });
    // A protocol error just closes the connection; only a hang is a failure.
    assert!(
        ended.is_ok(),
        "the connection neither answered nor closed within {limit:?}"
    );
    let written = std::mem::take(&mut *out.lock().unwrap_or_else(|e| e.into_inner()));
    written
}

/// Status code of the first response on a connection, if any.
pub fn first_status(written: &Written) -> Option<u16> {
    let line = written.head.get(..12)?;
    let code = std::str::from_utf8(line.get(9..12)?).ok()?;
    code.parse().ok()
}

/// Target `http_request`.
pub fn http_request(data: &[u8]) {
    let written = serve_bytes(data);
    if written.total == 0 {
        return; // closed without an answer (e.g. nothing or half a request sent)
    }
    assert!(
        written.head.starts_with(b"HTTP/1."),
        "the server wrote something other than an HTTP/1 response: {:?}",
        String::from_utf8_lossy(&written.head[..written.head.len().min(200)])
    );
    let status = first_status(&written);
    assert!(
        status.is_some_and(|s| (100..600).contains(&s) && s != 500),
        "unexpected first response status {status:?}: {:?}",
        String::from_utf8_lossy(&written.head[..written.head.len().min(400)])
    );
}

/// The JSON endpoints and the `Accept` header each is called with.
pub const JSON_ENDPOINTS: &[(&str, &str)] = &[
    ("/v1/search", "application/json"),
    ("/v1/answer", "application/json"),
    ("/v1/answer", "text/event-stream"),
    ("/v1/chat/completions", "application/json"),
];

/// POST `body` to `path` through the router (no HTTP decoding); returns the
/// status, the content type and the whole response body.
pub fn post_json(path: &str, accept: &str, body: &[u8]) -> (StatusCode, String, Vec<u8>) {
    let req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, accept)
        .body(Body::from(body.to_vec()))
        .expect("well-formed request");
    let fut = async {
        let resp = router().oneshot(req).await.expect("router is infallible");
        let status = resp.status();
        let ctype = resp
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let bytes = axum::body::to_bytes(resp.into_body(), 16 << 20)
            .await
            .expect("response body readable");
        (status, ctype, bytes.to_vec())
    };
    let limit = connection_limit();
    runtime()
        .block_on(async { tokio::time::timeout(limit, fut).await })
        .unwrap_or_else(|_| panic!("POST {path} not answered within {limit:?}"))
}

/// Target `json_body`.
pub fn json_body(data: &[u8]) {
    for &(path, accept) in JSON_ENDPOINTS {
        let (status, ctype, body) = post_json(path, accept, data);
        let s = status.as_u16();
        assert!(
            matches!(s, 200 | 400 | 413 | 422),
            "POST {path}: status {s}: {:?}",
            String::from_utf8_lossy(&body[..body.len().min(400)])
        );
        if ctype.starts_with("application/json") {
            let v: serde_json::Value = serde_json::from_slice(&body)
                .unwrap_or_else(|e| panic!("POST {path}: {s} with a body that is not JSON ({e})"));
            if s != 200 {
                assert!(
                    v["error"]["code"].is_string(),
                    "POST {path}: error {s} without error.code: {v}"
                );
            }
        } else {
            assert_eq!(s, 200, "POST {path}: error {s} that is not JSON");
            assert!(
                ctype.starts_with("text/event-stream"),
                "POST {path}: content type {ctype:?}"
            );
        }
    }
}
