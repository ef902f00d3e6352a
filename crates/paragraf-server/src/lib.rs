//! HTTP server of Paragraf: the JSON API of the output contract, answers as
//! Server-Sent Events, an OpenAI-compatible chat endpoint, Prometheus metrics,
//! an OpenAPI document and the embedded German web page.
//!
//! Invariant: the server knows nothing of models, devices or the index. It
//! talks to the engine through the [`Backend`] trait, which the binary
//! implements; searches run on the blocking pool, answers on one dedicated
//! worker thread behind a bounded queue.
//!
//! Routes ([`ROUTES`]): `POST /v1/search`, `POST /v1/answer` (SSE),
//! `GET /v1/norms/{id}`, `POST /v1/chat/completions`, `GET /v1/models`,
//! `GET /healthz`, `GET /readyz`, `GET /metrics`, `GET /openapi.json`,
//! `GET /` and `GET /assets/*`. Bearer auth (when configured) guards `/v1/*`.
//!
//! Wiring in the binary (`paragraf serve`):
//!
//! ```ignore
//! paragraf_server::init_json_logging();
//! let backend: Arc<dyn paragraf_server::Backend> = Arc::new(EngineBackend::load(&index_dir)?);
//! let cfg = paragraf_server::ServerConfig {
//!     addr: "127.0.0.1:8080".parse()?,
//!     api_key: std::env::var("PARAGRAF_API_KEY").ok(),
//!     ..Default::default()
//! };
//! paragraf_server::serve(backend, cfg).await?; // returns after Ctrl-C / SIGTERM
//! ```

pub mod backend;
mod cache;
pub mod config;
pub mod error;
pub mod extract;
mod handlers;
pub mod metrics;
pub mod openai;
mod queue;
pub mod ratelog;
mod web;

pub use backend::{
    AnswerEvent, AnswerRequest, Backend, BackendError, LanguageVariant, ModelLoads, NormMetadata,
    NormView, SearchFilters, SearchRequest,
};
pub use config::{Limits, ServerConfig};
pub use error::{ApiError, ErrorBody, ErrorDetail, ServerError};

use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::{header, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use metrics::Metrics;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tower_http::classify::ServerErrorsFailureClass;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::trace::{DefaultOnResponse, TraceLayer};

/// Every route the router serves, as (method, OpenAPI path). The OpenAPI test
/// checks each one is documented.
pub const ROUTES: &[(&str, &str)] = &[
    ("POST", "/v1/search"),
    ("POST", "/v1/answer"),
    ("GET", "/v1/norms/{id}"),
    ("POST", "/v1/chat/completions"),
    ("GET", "/v1/models"),
    ("GET", "/healthz"),
    ("GET", "/health"),
    ("GET", "/readyz"),
    ("GET", "/metrics"),
    ("GET", "/openapi.json"),
    ("GET", "/"),
    ("GET", "/assets/{file}"),
];

/// The OpenAPI 3.1 document served at `/openapi.json` (hand-written; the
/// tests check it covers [`ROUTES`] and that its examples match its schemas).
pub const OPENAPI_JSON: &str = include_str!("../assets/openapi.json");

/// Shared state of all handlers.
#[derive(Clone)]
pub(crate) struct AppState {
    backend: Arc<dyn Backend>,
    limits: Arc<Limits>,
    metrics: Arc<Metrics>,
    queue: Arc<queue::AnswerQueue>,
    api_key: Option<Arc<str>>,
    /// [`ServerConfig::answer_models`].
    answer_models: Arc<[String]>,
    /// [`ServerConfig::allowed_hosts`].
    allowed_hosts: Arc<[String]>,
    /// [`Limits::max_concurrent_searches`] permits.
    search_slots: Arc<tokio::sync::Semaphore>,
}

/// Header carrying the request id (set when absent, echoed on the response).
pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// Request ids `<process prefix>-<counter>`: unique per process run, cheap,
/// no uuid dependency.
#[derive(Clone)]
struct CounterRequestId {
    prefix: Arc<str>,
    next: Arc<AtomicU64>,
}

impl CounterRequestId {
    fn new() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        let seed = nanos ^ (u64::from(std::process::id()) << 32);
        CounterRequestId {
            prefix: format!("{:012x}", seed & 0xffff_ffff_ffff).into(),
            next: Arc::new(AtomicU64::new(1)),
        }
    }
}

impl MakeRequestId for CounterRequestId {
    fn make_request_id<B>(&mut self, _req: &axum::http::Request<B>) -> Option<RequestId> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        HeaderValue::from_str(&format!("{}-{n:08x}", self.prefix))
            .ok()
            .map(RequestId::new)
    }
}

/// Build the router. Starts the answer worker thread; it ends when the router
/// (and every clone of it) is dropped. Panics only if the OS refuses to start
/// a thread at all — use [`try_router`] to get that as an error.
pub fn router(backend: Arc<dyn Backend>, cfg: &ServerConfig) -> Router {
    match try_router(backend, cfg) {
        Ok(r) => r,
        Err(e) => panic!("cannot start the answer worker thread: {e}"),
    }
}

/// [`router`], returning the thread-spawn error instead of panicking.
pub fn try_router(backend: Arc<dyn Backend>, cfg: &ServerConfig) -> std::io::Result<Router> {
    build(backend, cfg).map(|(app, _)| app)
}

/// The router and its metrics (the accept loop counts connections there).
fn build(backend: Arc<dyn Backend>, cfg: &ServerConfig) -> std::io::Result<(Router, Arc<Metrics>)> {
    let metrics = Arc::new(Metrics::default());
    let queue = queue::AnswerQueue::start(
        backend.clone(),
        metrics.clone(),
        cfg.limits.answer_queue_capacity,
        cfg.limits.answer_timeout,
        cfg.limits.answer_cache_entries,
    )?;
    let state = AppState {
        backend,
        limits: Arc::new(cfg.limits.clone()),
        metrics: metrics.clone(),
        queue: Arc::new(queue),
        api_key: cfg
            .api_key
            .as_deref()
            .filter(|k| !k.is_empty())
            .map(Arc::from),
        answer_models: cfg.answer_models.clone().into(),
        allowed_hosts: cfg.allowed_hosts.clone().into(),
        search_slots: Arc::new(tokio::sync::Semaphore::new(
            cfg.limits.max_concurrent_searches.max(1),
        )),
    };

    let api = Router::new()
        .route("/v1/search", post(handlers::search))
        .route("/v1/answer", post(handlers::answer))
        .route("/v1/norms/{*id}", get(handlers::norm))
        .route("/v1/chat/completions", post(openai::chat_completions))
        .route("/v1/models", get(openai::models))
        .route_layer(middleware::from_fn_with_state(state.clone(), auth));

    let mut app = Router::new()
        .route("/healthz", get(handlers::healthz))
        // the name text-embeddings-inference and llama-server use
        .route("/health", get(handlers::healthz))
        .route("/readyz", get(handlers::readyz))
        .route("/metrics", get(handlers::metrics))
        .route("/openapi.json", get(openapi))
        .route("/", get(web::index))
        .route("/assets/{file}", get(web::asset))
        .merge(api)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(cfg.limits.max_body_bytes))
        .layer(axum::Extension(extract::BodyReadTimeout(
            cfg.limits.body_read_timeout,
        )))
        .layer(middleware::from_fn_with_state(state.clone(), check_host))
        .layer(middleware::from_fn_with_state(state.clone(), observe))
        .with_state(state);

    if cfg.cors {
        app = app.layer(
            tower_http::cors::CorsLayer::new()
                .allow_origin(tower_http::cors::Any)
                .allow_methods([Method::GET, Method::POST])
                .allow_headers([
                    header::CONTENT_TYPE,
                    header::AUTHORIZATION,
                    HeaderName::from_static(REQUEST_ID_HEADER),
                ]),
        );
    }
    let rid = HeaderName::from_static(REQUEST_ID_HEADER);
    let app = app
        .layer(PropagateRequestIdLayer::new(rid.clone()))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &axum::http::Request<_>| {
                    let id = req
                        .headers()
                        .get(REQUEST_ID_HEADER)
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    let path = req.uri().path();
                    let cut = (0..=path.len().min(256))
                        .rev()
                        .find(|i| path.is_char_boundary(*i))
                        .unwrap_or(0);
                    tracing::info_span!(
                        "request",
                        request_id = %id,
                        method = metrics::method_label(req.method()),
                        path = %&path[..cut],
                    )
                })
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO))
                // a 503 (queue full, not ready) at WARN and rate-limited;
                // the default logged every one at ERROR
                .on_failure({
                    let limiter =
                        Arc::new(ratelog::RateLimiter::new(ratelog::UNAVAILABLE_LOG_INTERVAL));
                    move |class: ServerErrorsFailureClass,
                          latency: std::time::Duration,
                          _: &tracing::Span| {
                        let status = match &class {
                            ServerErrorsFailureClass::StatusCode(s) => Some(s.as_u16()),
                            ServerErrorsFailureClass::Error(_) => None,
                        };
                        ratelog::log_failure(&limiter, status, &class.to_string(), latency);
                    }
                }),
        )
        .layer(SetRequestIdLayer::new(rid, CounterRequestId::new()));
    Ok((app, metrics))
}

/// Bearer-token check for `/v1/*` (constant-time comparison).
async fn auth(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if let Some(key) = &state.api_key {
        let given = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim);
        let ok = given.is_some_and(|g| constant_time_eq(g.as_bytes(), key.as_bytes()));
        if !ok {
            let mut resp = ApiError::new(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "gültiger API-Schlüssel fehlt (Authorization: Bearer …)",
            )
            .field("authorization")
            .into_response();
            resp.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            return resp;
        }
    }
    next.run(req).await
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Count every request by route/method/status and time it (to headers).
/// Labels come from closed sets: the route template from [`ROUTES`] (or
/// `unmatched`) and [`metrics::method_label`].
async fn observe(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().replace("{*id}", "{id}"))
        .and_then(|p| ROUTES.iter().find(|(_, r)| *r == p).map(|(_, r)| *r))
        .unwrap_or("unmatched");
    let method = metrics::method_label(req.method());
    let started = Instant::now();
    let resp = next.run(req).await;
    state.metrics.observe_request(
        route,
        method,
        resp.status().as_u16(),
        started.elapsed().as_secs_f64(),
    );
    resp
}

/// Refuse requests whose `Host` is neither an IP literal, `localhost` (or a
/// name under `.localhost`) nor one of [`ServerConfig::allowed_hosts`]:
/// DNS rebinding cannot drive the server from a web page.
async fn check_host(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("\u{fffd}"))
        .or_else(|| req.uri().authority().map(|a| a.as_str()));
    match host {
        Some(h) if !host_allowed(h, &state.allowed_hosts) => ApiError::new(
            StatusCode::FORBIDDEN,
            "host_not_allowed",
            "unbekannter Host-Name; der Betreiber kann ihn mit `serve --allow-host` freigeben",
        )
        .field("host")
        .into_response(),
        // no Host at all (HTTP/1.0, in-process calls) cannot come from a browser
        _ => next.run(req).await,
    }
}

/// True when a `Host` header value (with or without port) may reach the
/// server; see [`check_host`].
pub fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let host = host.trim();
    // [v6]:port, [v6], v4:port, name:port, name
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((v6, _)) => return v6.parse::<std::net::Ipv6Addr>().is_ok(),
            None => return false,
        }
    } else {
        match host.rsplit_once(':') {
            Some((n, port)) if port.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => host,
        }
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if name.is_empty() {
        return false;
    }
    name.parse::<std::net::Ipv4Addr>().is_ok()
        || name == "localhost"
        || name.ends_with(".localhost")
        || allowed
            .iter()
            .any(|a| a == "*" || a.trim_end_matches('.').eq_ignore_ascii_case(&name))
}

async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI_JSON).into_response()
}

async fn not_found() -> ApiError {
    ApiError::not_found("unbekannter Pfad")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "Methode für diesen Pfad nicht erlaubt",
    )
}

/// Serve on `cfg.addr` until Ctrl-C or SIGTERM, then finish open requests.
pub async fn serve(backend: Arc<dyn Backend>, cfg: ServerConfig) -> Result<(), ServerError> {
    let listener = tokio::net::TcpListener::bind(cfg.addr)
        .await
        .map_err(|source| ServerError::Bind {
            addr: cfg.addr,
            source,
        })?;
    serve_on(listener, backend, cfg, shutdown_signal()).await
}

/// Serve on a bound listener until `shutdown` resolves (tests bind port 0),
/// then finish the open requests.
///
/// Each connection is HTTP/1.1 with keep-alive. A client must send its
/// headers within [`Limits::header_read_timeout`] of the connection going
/// idle (so idle, partial-header and slow-header connections are closed) and
/// its body within [`Limits::body_read_timeout`] (408); at most
/// [`Limits::max_connections`] are served at once, the rest wait in the
/// listen backlog.
pub async fn serve_on<F>(
    listener: tokio::net::TcpListener,
    backend: Arc<dyn Backend>,
    cfg: ServerConfig,
    shutdown: F,
) -> Result<(), ServerError>
where
    F: Future<Output = ()> + Send + 'static,
{
    let (app, metrics) = build(backend, &cfg).map_err(ServerError::Serve)?;
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, auth = cfg.api_key.is_some(), cors = cfg.cors, "paragraf server listening");
    }
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(cfg.limits.header_read_timeout)
        .keep_alive(true);
    let slots = Arc::new(tokio::sync::Semaphore::new(
        cfg.limits.max_connections.max(1),
    ));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            s = slots.clone().acquire_owned() => match s {
                Ok(s) => s,
                Err(_) => break, // never closed
            },
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _peer)) => stream,
                Err(e) => {
                    // out of file descriptors and the like: back off, go on
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let svc = hyper_util::service::TowerToHyperService::new(app.clone());
        let conn = graceful.watch(http.serve_connection(hyper_util::rt::TokioIo::new(stream), svc));
        let metrics = metrics.clone();
        metrics.connections_add(1);
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                if e.is_timeout() {
                    metrics.connection_timed_out();
                }
                tracing::debug!(error = %e, "connection ended with an error");
            }
            metrics.connections_add(-1);
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutdown signal received; finishing open requests");
}

/// Install a JSON `tracing` subscriber (one JSON object per line, with the
/// span fields such as `request_id`) on stderr, filtered by `RUST_LOG`
/// (default `info`). Returns `false` when a subscriber was already installed.
pub fn init_json_logging() -> bool {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .json()
        .with_current_span(true)
        .with_span_list(false)
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init()
        .is_ok()
}
