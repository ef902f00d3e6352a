//! Errors: [`ApiError`] is what a client sees (`{"error":{code,message,field}}`),
//! [`ServerError`] is what [`crate::serve`] returns.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Error of [`crate::serve`].
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// Binding the listen address failed.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: std::net::SocketAddr,
        #[source]
        source: std::io::Error,
    },
    /// The accept loop failed.
    #[error("server failed: {0}")]
    Serve(#[source] std::io::Error),
}

/// JSON body of every error response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

/// The `error` object: a stable machine code, a German/English message for
/// people and the request field at fault, when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ErrorDetail {
    pub code: String,
    pub message: String,
    pub field: Option<String>,
}

/// An error response: status, body and an optional `Retry-After`.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub body: ErrorBody,
    pub retry_after_s: Option<u64>,
    /// Close the connection after the response (`Connection: close`), e.g.
    /// when the request body was not read to its end.
    pub close: bool,
}

impl ApiError {
    /// An error with a code, message and optional field.
    pub fn new(status: StatusCode, code: &str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            body: ErrorBody {
                error: ErrorDetail {
                    code: code.to_string(),
                    message: message.into(),
                    field: None,
                },
            },
            retry_after_s: None,
            close: false,
        }
    }

    /// Name the request field at fault.
    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.body.error.field = Some(field.into());
        self
    }

    /// 422 for a field that breaks a limit or a rule.
    pub fn invalid_field(field: &str, message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_field", message).field(field)
    }

    /// 500 without internals; the cause is logged by the caller.
    pub fn internal() -> Self {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "interner Fehler; Details stehen im Server-Log (request id)",
        )
    }

    /// 404 for an unknown route or id.
    pub fn not_found(what: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", what)
    }

    /// The machine code of the error.
    pub fn code(&self) -> &str {
        &self.body.error.code
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut resp = (self.status, axum::Json(self.body)).into_response();
        if let Some(s) = self.retry_after_s {
            if let Ok(v) = HeaderValue::from_str(&s.to_string()) {
                resp.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        if self.close {
            resp.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        resp
    }
}

/// Map a backend error to an API error; internal causes are logged, not sent.
pub fn from_backend(err: crate::BackendError) -> ApiError {
    match err {
        crate::BackendError::InvalidRequest { field, message } => {
            ApiError::invalid_field(&field, message)
        }
        crate::BackendError::NotReady(why) => {
            // the 503 itself is logged by the trace layer, rate-limited
            tracing::debug!(reason = %why, "backend not ready");
            let mut e = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "not_ready",
                "Index oder Modelle sind noch nicht geladen",
            );
            e.retry_after_s = Some(5);
            e
        }
        crate::BackendError::Internal(why) => {
            tracing::error!(error = %why, "backend error");
            ApiError::internal()
        }
    }
}
