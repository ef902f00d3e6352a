//! OpenAI-compatible `POST /v1/chat/completions` and `GET /v1/models`, so chat
//! clients can talk to the grounded pipeline. The last user message is the
//! question; the gated citations appear in the message text (a `Quellen:`
//! section, `Sources:` for an English question) and as the structured `paragraf` field.
//!
//! Unknown request fields are ignored here (unlike the native API) because
//! chat clients send sampling parameters (`temperature`, `top_p`, …) that
//! have no meaning for a deterministic pipeline.

use crate::backend::AnswerRequest;
use crate::error::ApiError;
use crate::extract::ApiJson;
use crate::handlers::{check_answer, collect_final, job_steps, Step};
use crate::AppState;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures::StreamExt;
use paragraf_types::SearchResponse;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Model name this endpoint answers to (the backend's default answer model);
/// any other name must be one of [`crate::ServerConfig::answer_models`].
pub const DEFAULT_MODEL: &str = "paragraf";

/// Body of `POST /v1/chat/completions` (the fields Paragraf uses).
#[derive(Debug, Clone, Deserialize)]
pub struct ChatRequest {
    #[serde(default)]
    pub model: Option<String>,
    pub messages: Vec<ChatMessage>,
    #[serde(default)]
    pub stream: bool,
    #[serde(default)]
    pub max_tokens: Option<usize>,
    #[serde(default)]
    pub max_completion_tokens: Option<usize>,
}

/// One chat message.
#[derive(Debug, Clone, Deserialize)]
pub struct ChatMessage {
    pub role: String,
    #[serde(default)]
    pub content: Option<ChatContent>,
}

/// Message content: a string or a list of typed parts (only `text` parts count).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum ChatContent {
    Text(String),
    Parts(Vec<ChatPart>),
}

/// A typed content part.
#[derive(Debug, Clone, Deserialize)]
pub struct ChatPart {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub text: Option<String>,
}

impl ChatContent {
    fn text(&self) -> String {
        match self {
            ChatContent::Text(s) => s.clone(),
            ChatContent::Parts(parts) => parts
                .iter()
                .filter(|p| p.kind == "text")
                .filter_map(|p| p.text.as_deref())
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

/// The question: text of the last `user` message.
fn question(req: &ChatRequest) -> Result<String, ApiError> {
    req.messages
        .iter()
        .rev()
        .find(|m| m.role == "user")
        .and_then(|m| m.content.as_ref())
        .map(ChatContent::text)
        .ok_or_else(|| ApiError::invalid_field("messages", "keine Nachricht mit role `user`"))
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn completion_id() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "chatcmpl-{now:x}{:04x}",
        NEXT_ID.fetch_add(1, Ordering::Relaxed)
    )
}

fn created() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The `Quellen:` section appended to the message text (`Sources:` for an
/// English question): the gated citations, the primary norm and the review
/// note with its reasons.
pub fn sources_section(resp: &SearchResponse) -> String {
    let Some(answer) = &resp.answer else {
        return String::new();
    };
    let en = resp.lang == Some(paragraf_types::Lang::En);
    let mut s = String::new();
    if !answer.citations.is_empty() {
        s.push_str(if en { "\n\nSources:" } else { "\n\nQuellen:" });
        for c in &answer.citations {
            s.push_str("\n- ");
            s.push_str(c);
        }
    }
    if let Some(primary) = &resp.assessment.primary_norm {
        let label = if en { "Primary norm" } else { "Primärnorm" };
        s.push_str(&format!("\n\n{label}: {primary}"));
    }
    if resp.assessment.human_review_flag {
        s.push_str(if en {
            "\n\nNote: please have this checked by a qualified person."
        } else {
            "\n\nHinweis: Bitte von einer fachkundigen Person prüfen lassen."
        });
        for r in &resp.assessment.human_review_reasons {
            s.push(' ');
            s.push_str(r);
        }
    }
    s
}

/// The structured `paragraf` field of a completion.
fn paragraf_field(resp: &SearchResponse) -> Value {
    let answer = resp.answer.as_ref();
    json!({
        "citations": answer.map(|a| a.citations.clone()).unwrap_or_default(),
        "removed_citations": answer.map(|a| a.removed_citations.clone()).unwrap_or_default(),
        "abstained": answer.map(|a| a.abstained).unwrap_or(false),
        "assessment": resp.assessment,
        "results": resp.results,
        "timings_ms": resp.timings_ms,
    })
}

/// `POST /v1/chat/completions`.
pub(crate) async fn chat_completions(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<ChatRequest>,
) -> Result<Response, ApiError> {
    let query = question(&req)?;
    let max_tokens = req.max_completion_tokens.or(req.max_tokens);
    let model_name = req
        .model
        .clone()
        .filter(|m| !m.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_MODEL.to_string());
    let areq = AnswerRequest {
        query,
        top_k: None,
        model: (model_name != DEFAULT_MODEL).then(|| model_name.clone()),
        max_tokens,
        filters: None,
    };
    check_answer(&state, &areq).map_err(|e| {
        // Report the OpenAI field names.
        let field = match e.body.error.field.as_deref() {
            Some("query") => "messages",
            Some(other) => other,
            None => "messages",
        }
        .to_string();
        e.field(field)
    })?;
    let deadline = Instant::now() + state.limits.answer_timeout;
    let rx = state.queue.submit(areq, deadline)?;
    let id = completion_id();
    let created = created();
    if !req.stream {
        let resp = collect_final(rx, deadline).await?;
        let answer = resp.answer.clone().unwrap_or_default();
        let text = format!("{}{}", answer.text, sources_section(&resp));
        let body = json!({
            "id": id,
            "object": "chat.completion",
            "created": created,
            "model": model_name,
            "choices": [{
                "index": 0,
                "message": { "role": "assistant", "content": text },
                "finish_reason": "stop",
            }],
            "usage": {
                "prompt_tokens": 0,
                "completion_tokens": answer.generated_tokens,
                "total_tokens": answer.generated_tokens,
            },
            "paragraf": paragraf_field(&resp),
        });
        return Ok(Json(body).into_response());
    }
    let chunk = move |delta: Value, finish: Option<&str>, extra: Option<Value>| {
        let mut v = json!({
            "id": id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model_name,
            "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }],
        });
        if let (Some(extra), Some(obj)) = (extra, v.as_object_mut()) {
            obj.insert("paragraf".into(), extra);
        }
        Event::default().data(v.to_string())
    };
    let first = chunk(json!({ "role": "assistant", "content": "" }), None, None);
    let body = job_steps(rx, deadline).flat_map(move |step| {
        let events = match step {
            Step::Results(_) => Vec::new(),
            Step::Sentence(t) => vec![chunk(json!({ "content": format!("{t} ") }), None, None)],
            Step::Final(resp) => vec![
                chunk(
                    json!({ "content": sources_section(&resp) }),
                    Some("stop"),
                    Some(paragraf_field(&resp)),
                ),
                Event::default().data("[DONE]"),
            ],
            Step::Error(e) => vec![
                Event::default().data(json!({ "error": e.body.error }).to_string()),
                Event::default().data("[DONE]"),
            ],
        };
        futures::stream::iter(events.into_iter().map(Ok::<_, std::convert::Infallible>))
    });
    let stream = futures::stream::once(async move { Ok(first) }).chain(body);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// `GET /v1/models`: the names clients can pick: [`DEFAULT_MODEL`] and the
/// answer models the operator offers.
pub(crate) async fn models(State(state): State<AppState>) -> Json<Value> {
    let names = std::iter::once(DEFAULT_MODEL)
        .chain(state.answer_models.iter().map(String::as_str))
        .filter(|n| !n.is_empty());
    let mut seen = std::collections::BTreeSet::new();
    let data: Vec<Value> = names
        .filter(|n| seen.insert(*n))
        .map(|n| json!({ "id": n, "object": "model", "created": 0, "owned_by": "paragraf" }))
        .collect();
    Json(json!({ "object": "list", "data": data }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_is_the_last_user_message_text_parts_joined() {
        let req: ChatRequest = serde_json::from_value(json!({
            "messages": [
                {"role": "system", "content": "sei knapp"},
                {"role": "user", "content": "erste Frage"},
                {"role": "assistant", "content": "Antwort"},
                {"role": "user", "content": [{"type": "text", "text": "zweite"}, {"type": "image_url"}, {"type": "text", "text": "Frage"}]}
            ],
            "temperature": 0.2
        }))
        .unwrap();
        assert_eq!(question(&req).unwrap(), "zweite\nFrage");
    }

    #[test]
    fn no_user_message_names_messages() {
        let req: ChatRequest =
            serde_json::from_value(json!({"messages": [{"role": "system", "content": "x"}]}))
                .unwrap();
        assert_eq!(
            question(&req).unwrap_err().body.error.field.as_deref(),
            Some("messages")
        );
    }
}
