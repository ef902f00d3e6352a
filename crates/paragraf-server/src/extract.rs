//! [`ApiJson`]: a JSON body extractor whose rejections are JSON errors that
//! name the field (`serde_path_to_error` gives the path of a type error),
//! and [`ApiPath`], the same for path parameters.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;

/// A JSON request body. Rejections: 415 without a JSON content type, 413 above
/// the body limit, 408 when the body does not arrive within the
/// [`BodyReadTimeout`], 400 for malformed JSON, 422 for wrong types, missing
/// or unknown fields (with `field` set).
#[derive(Debug, Clone)]
pub struct ApiJson<T>(pub T);

/// Time a client has to send a whole request body, set by the router as a
/// request extension ([`crate::Limits::body_read_timeout`]): a client that
/// trickles its body is answered with 408 and its connection closed.
#[derive(Debug, Clone, Copy)]
pub struct BodyReadTimeout(pub std::time::Duration);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|ct| {
                let mime = ct
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase();
                mime == "application/json" || mime.ends_with("+json")
            })
            .unwrap_or(false);
        if !is_json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "Content-Type muss application/json sein",
            ));
        }
        let limit = req.extensions().get::<BodyReadTimeout>().map(|t| t.0);
        let read = Bytes::from_request(req, state);
        let read = match limit {
            Some(t) => match tokio::time::timeout(t, read).await {
                Ok(r) => r,
                Err(_) => return Err(body_timeout()),
            },
            None => read.await,
        };
        let bytes = read.map_err(|rej| {
            if rej.status() == StatusCode::PAYLOAD_TOO_LARGE {
                body_too_large()
            } else {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "bad_body",
                    "Anfragekörper konnte nicht gelesen werden",
                )
            }
        })?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// A path parameter (`/v1/norms/{*id}`) whose rejections are the API's
/// JSON error: 400 `bad_path`, field `path`, for a path that is no UTF-8
/// once percent-decoded (`/v1/norms/%ff%fe`) or does not fit its type.
/// Axum's own [`axum::extract::Path`] answers those in plain text.
#[derive(Debug, Clone)]
pub struct ApiPath<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(ApiPath(v)),
            Err(rej) if rej.status().is_server_error() => Err(ApiError::internal()),
            Err(_) => Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_path",
                "der Pfad lässt sich nicht lesen (kein gültiges UTF-8 nach der Prozent-Dekodierung)",
            )
            .field("path")),
        }
    }
}

/// 408 for a body that did not arrive in time; the connection is closed.
fn body_timeout() -> ApiError {
    let mut e = ApiError::new(
        StatusCode::REQUEST_TIMEOUT,
        "body_timeout",
        "Anfragekörper kam nicht rechtzeitig an",
    )
    .field("body");
    e.close = true;
    e
}

/// 413 with the body as the field at fault.
pub fn body_too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "body_too_large",
        "Anfragekörper ist zu groß",
    )
    .field("body")
}

/// Parse JSON bytes into `T`, mapping errors to [`ApiError`]s with the field.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize::<_, T>(de) {
        Ok(v) => Ok(v),
        Err(err) => {
            let path = err.path().to_string();
            let inner = err.into_inner();
            let msg = inner.to_string();
            use serde_json::error::Category;
            match inner.classify() {
                Category::Syntax | Category::Eof | Category::Io => Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "malformed_json",
                    format!("ungültiges JSON: {msg}"),
                )),
                Category::Data => {
                    let field = field_of(&path, &msg);
                    let mut e = ApiError::new(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        "invalid_field",
                        format!("ungültiges Feld: {msg}"),
                    );
                    if let Some(f) = field {
                        e = e.field(f);
                    }
                    Err(e)
                }
            }
        }
    }
}

/// The field a serde data error is about: the path, extended by the name in
/// backticks of an `unknown field` / `missing field` message.
fn field_of(path: &str, msg: &str) -> Option<String> {
    let named = ["unknown field `", "missing field `"]
        .iter()
        .find_map(|prefix| {
            let start = msg.find(prefix)? + prefix.len();
            let rest = &msg[start..];
            rest.find('`').map(|end| rest[..end].to_string())
        });
    let path = if path == "." { "" } else { path };
    match (path.is_empty(), named) {
        (true, Some(n)) => Some(n),
        // serde_path_to_error already ends the path of an unknown field with it.
        (false, Some(n)) if path == n || path.ends_with(&format!(".{n}")) => Some(path.to_string()),
        (false, Some(n)) => Some(format!("{path}.{n}")),
        (false, None) => Some(path.to_string()),
        (true, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchRequest;

    #[test]
    fn wrong_type_names_the_field() {
        let e = parse_json::<SearchRequest>(br#"{"query":"x","top_k":"drei"}"#).unwrap_err();
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(e.body.error.field.as_deref(), Some("top_k"));
    }

    #[test]
    fn unknown_and_missing_fields_are_named() {
        let e = parse_json::<SearchRequest>(br#"{"query":"x","topk":3}"#).unwrap_err();
        assert_eq!(e.body.error.field.as_deref(), Some("topk"));
        let e = parse_json::<SearchRequest>(br#"{"top_k":3}"#).unwrap_err();
        assert_eq!(e.body.error.field.as_deref(), Some("query"));
        let e = parse_json::<SearchRequest>(br#"{"query":"x","filters":{"lang":"de","langs":1}}"#)
            .unwrap_err();
        assert_eq!(e.body.error.field.as_deref(), Some("filters.langs"));
        let e = parse_json::<SearchRequest>(br#"{"query":"x","filters":{"jurisdictions":["XX"]}}"#)
            .unwrap_err();
        assert_eq!(
            e.body.error.field.as_deref(),
            Some("filters.jurisdictions[0]")
        );
    }

    #[test]
    fn malformed_json_is_400() {
        let e = parse_json::<SearchRequest>(br#"{"query": "x""#).unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(e.code(), "malformed_json");
    }
}
