//! Handlers of the native API: search, answer (SSE), norms, health, metrics.

use crate::backend::{AnswerRequest, Backend, BackendError, SearchRequest};
use crate::error::{from_backend, ApiError};
use crate::extract::{ApiJson, ApiPath};
use crate::queue::{timeout_error, WorkerEvent};
use crate::AppState;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures::stream::{self, Stream};
use paragraf_types::SearchResponse;
use std::convert::Infallible;
use std::panic::AssertUnwindSafe;
use std::time::Instant;
use tokio::sync::mpsc;

/// Check `query`: not blank (nothing but white space and control
/// characters, `\u0000` included), at most `max_query_chars` characters.
pub(crate) fn check_query(state: &AppState, field: &str, query: &str) -> Result<(), ApiError> {
    if paragraf_types::limits::is_blank(query) {
        return Err(ApiError::invalid_field(
            field,
            "die Frage darf nicht leer sein",
        ));
    }
    let n = query.chars().count();
    if n > state.limits.max_query_chars {
        return Err(ApiError::invalid_field(
            field,
            format!(
                "die Frage ist {n} Zeichen lang; erlaubt sind höchstens {}",
                state.limits.max_query_chars
            ),
        ));
    }
    Ok(())
}

/// Check an optional positive count against its maximum.
pub(crate) fn check_count(field: &str, value: Option<usize>, max: usize) -> Result<(), ApiError> {
    match value {
        Some(0) => Err(ApiError::invalid_field(
            field,
            format!("`{field}` muss mindestens 1 sein"),
        )),
        Some(v) if v > max => Err(ApiError::invalid_field(
            field,
            format!("`{field}` ist {v}; erlaubt sind höchstens {max}"),
        )),
        _ => Ok(()),
    }
}

/// Validate an answer request against the limits and the answer models the
/// operator offers ([`crate::ServerConfig::answer_models`]): a client never
/// makes the server load a model it was not started with.
pub(crate) fn check_answer(state: &AppState, req: &AnswerRequest) -> Result<(), ApiError> {
    check_query(state, "query", &req.query)?;
    check_count("top_k", req.top_k, state.limits.max_top_k)?;
    check_count("max_tokens", req.max_tokens, state.limits.max_tokens)?;
    if let Some(m) = &req.model {
        if !state.answer_models.iter().any(|a| a == m) {
            let shown: String = m.chars().take(80).collect();
            let offered = if state.answer_models.is_empty() {
                "keine (nur das voreingestellte Modell; Feld weglassen)".to_string()
            } else {
                state.answer_models.join(", ")
            };
            return Err(ApiError::invalid_field(
                "model",
                format!(
                    "Modell `{shown}` wird von diesem Server nicht angeboten; angeboten: {offered}"
                ),
            ));
        }
    }
    Ok(())
}

/// Run a blocking backend call on the blocking pool with the request timeout;
/// a panic inside becomes a 500 and is counted, never a dead server.
pub(crate) async fn run_blocking<T, F>(state: &AppState, f: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&dyn Backend) -> Result<T, BackendError> + Send + 'static,
{
    let backend = state.backend.clone();
    let task = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(AssertUnwindSafe(|| f(&*backend)))
    });
    match tokio::time::timeout(state.limits.request_timeout, task).await {
        Err(_) => Err(search_timeout()),
        Ok(Err(join)) => {
            tracing::error!(error = %join, "blocking task failed");
            Err(ApiError::internal())
        }
        Ok(Ok(Err(_panic))) => {
            state.metrics.backend_panic();
            tracing::error!("backend call panicked");
            Err(ApiError::internal())
        }
        Ok(Ok(Ok(res))) => res.map_err(from_backend),
    }
}

/// 504 after `Limits::request_timeout`.
fn search_timeout() -> ApiError {
    ApiError::new(
        StatusCode::GATEWAY_TIMEOUT,
        "timeout",
        "Zeitlimit der Anfrage überschritten",
    )
}

/// `POST /v1/search`.
pub(crate) async fn search(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<SearchRequest>,
) -> Result<Json<SearchResponse>, ApiError> {
    check_query(&state, "query", &req.query)?;
    check_count("top_k", req.top_k, state.limits.max_top_k)?;
    // wait for a search slot (first come, first served) within the deadline
    let slot = tokio::time::timeout(
        state.limits.request_timeout,
        state.search_slots.clone().acquire_owned(),
    )
    .await;
    let _slot = match slot {
        Ok(Ok(p)) => p,
        Ok(Err(_)) => return Err(ApiError::internal()),
        Err(_) => return Err(search_timeout()),
    };
    let resp = run_blocking(&state, move |b| b.search(&req)).await?;
    state.metrics.observe_timings(&resp.timings_ms);
    Ok(Json(resp))
}

/// True when the client asked for JSON rather than an event stream.
fn wants_json(headers: &HeaderMap) -> bool {
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    accept.contains("application/json") && !accept.contains("text/event-stream")
}

/// `POST /v1/answer`: SSE `results`, then gated `sentence`*, then `final`
/// (or `error`); no raw model output is ever sent. With
/// `Accept: application/json` the final response as one JSON document.
pub(crate) async fn answer(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<AnswerRequest>,
) -> Result<Response, ApiError> {
    check_answer(&state, &req)?;
    let deadline = Instant::now() + state.limits.answer_timeout;
    let rx = state.queue.submit(req, deadline)?;
    if wants_json(&headers) {
        let resp = collect_final(rx, deadline).await?;
        return Ok(Json(resp).into_response());
    }
    let events = answer_events(rx, deadline);
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// Wait for the final response of a job, dropping the earlier events.
pub(crate) async fn collect_final(
    mut rx: mpsc::Receiver<WorkerEvent>,
    deadline: Instant,
) -> Result<SearchResponse, ApiError> {
    let deadline = tokio::time::Instant::from_std(deadline);
    loop {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Err(_) => return Err(timeout_error()),
            Ok(None) => return Err(ApiError::internal()),
            Ok(Some(WorkerEvent::Results(_) | WorkerEvent::Sentence(_))) => {}
            Ok(Some(WorkerEvent::Final(resp))) => return Ok(*resp),
            Ok(Some(WorkerEvent::Error(e))) => return Err(e),
        }
    }
}

/// One step of a job's event stream: the next worker event or the deadline.
pub(crate) enum Step {
    Results(Box<SearchResponse>),
    Sentence(String),
    Final(Box<SearchResponse>),
    Error(ApiError),
}

/// The worker events of a job as a stream that ends after `final`/`error`.
pub(crate) fn job_steps(
    rx: mpsc::Receiver<WorkerEvent>,
    deadline: Instant,
) -> impl Stream<Item = Step> + Send + 'static {
    let deadline = tokio::time::Instant::from_std(deadline);
    stream::unfold(Some(rx), move |rx| async move {
        let mut rx = rx?;
        let step = match tokio::time::timeout_at(deadline, rx.recv()).await {
            Err(_) => Step::Error(timeout_error()),
            Ok(None) => Step::Error(ApiError::internal()),
            Ok(Some(WorkerEvent::Results(r))) => return Some((Step::Results(r), Some(rx))),
            Ok(Some(WorkerEvent::Sentence(t))) => return Some((Step::Sentence(t), Some(rx))),
            Ok(Some(WorkerEvent::Final(r))) => Step::Final(r),
            Ok(Some(WorkerEvent::Error(e))) => Step::Error(e),
        };
        Some((step, None))
    })
}

fn answer_events(
    rx: mpsc::Receiver<WorkerEvent>,
    deadline: Instant,
) -> impl Stream<Item = Result<Event, Infallible>> + Send + 'static {
    use futures::StreamExt;
    job_steps(rx, deadline).map(|step| {
        let ev = match step {
            Step::Results(r) => Event::default().event("results").json_data(&*r),
            Step::Sentence(t) => Event::default()
                .event("sentence")
                .json_data(serde_json::json!({ "text": t })),
            Step::Final(r) => Event::default().event("final").json_data(&*r),
            Step::Error(e) => Event::default().event("error").json_data(&e.body),
        };
        Ok(ev.unwrap_or_else(|_| Event::default().event("error").data("{}")))
    })
}

/// `GET /v1/norms/{*id}`: chunk id (`DSGVO/Art.37/Abs.1`) or norm reference
/// (`Art. 37 DSGVO`).
pub(crate) async fn norm(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, ApiError> {
    let id = id.trim().to_string();
    if id.is_empty() || id.chars().count() > 512 {
        return Err(ApiError::invalid_field("id", "ungültige Norm-Kennung"));
    }
    let lookup = id.clone();
    match run_blocking(&state, move |b| b.norm(&lookup)).await? {
        Some(view) => Ok(Json(view).into_response()),
        None => Err(ApiError::not_found(format!("Norm `{id}` ist unbekannt")).field("id")),
    }
}

/// `GET /healthz`: the process is up.
pub(crate) async fn healthz() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok" }))
}

/// `GET /readyz`: 200 when index and models are loaded, else 503.
pub(crate) async fn readyz(State(state): State<AppState>) -> Response {
    let b = state.backend.clone();
    let probe = std::panic::catch_unwind(AssertUnwindSafe(|| (b.ready(), b.info())));
    // what a client must know before it asks (the web page's counter)
    let limits = serde_json::json!({ "max_query_chars": state.limits.max_query_chars });
    match probe {
        Ok((true, info)) => {
            Json(serde_json::json!({ "status": "ready", "info": info, "limits": limits }))
                .into_response()
        }
        Ok((false, info)) => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "5")],
            Json(serde_json::json!({ "status": "loading", "info": info, "limits": limits })),
        )
            .into_response(),
        Err(_) => {
            state.metrics.backend_panic();
            ApiError::internal().into_response()
        }
    }
}

/// `GET /metrics`: Prometheus text format.
pub(crate) async fn metrics(State(state): State<AppState>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        {
            let mut text = state.metrics.render();
            if let Some(m) = state.backend.model_loads() {
                text.push_str(&crate::metrics::render_model_loads(&m));
            }
            text
        },
    )
        .into_response()
}
