//! The embedded web page (German UI): HTML, CSS and JS compiled into the
//! binary with `include_str!`; no CDN, strict Content-Security-Policy.

use crate::error::ApiError;
use crate::extract::ApiPath;
use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

fn page(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /`.
pub(crate) async fn index() -> Response {
    page("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /assets/{file}`.
pub(crate) async fn asset(ApiPath(file): ApiPath<String>) -> Result<Response, ApiError> {
    match file.as_str() {
        "app.js" => Ok(page("text/javascript; charset=utf-8", APP_JS)),
        "style.css" => Ok(page("text/css; charset=utf-8", STYLE_CSS)),
        _ => Err(ApiError::not_found(format!("unbekannte Datei `{file}`")).field("file")),
    }
}
