//! Server configuration: address, optional API key, request limits, CORS.

use std::net::SocketAddr;
use std::time::Duration;

/// Request limits. Exceeding one yields 413 (body) or 422 (fields) with a JSON
/// error that names the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted request body in bytes (413 above).
    pub max_body_bytes: usize,
    /// Longest accepted question, in characters (not bytes).
    pub max_query_chars: usize,
    /// Largest accepted `top_k`.
    pub max_top_k: usize,
    /// Largest accepted `max_tokens`.
    pub max_tokens: usize,
    /// Deadline of a search or norm lookup (504 after it).
    pub request_timeout: Duration,
    /// Deadline of one answer, queueing included; the stream ends with an
    /// `error` event `timeout` after it.
    pub answer_timeout: Duration,
    /// Answers that may wait while one is generated; one more → 503.
    pub answer_queue_capacity: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 64 * 1024,
            max_query_chars: 2_000,
            max_top_k: 50,
            max_tokens: 1_024,
            request_timeout: Duration::from_secs(30),
            answer_timeout: Duration::from_secs(300),
            answer_queue_capacity: 8,
        }
    }
}

/// Everything [`crate::serve`] and [`crate::router`] need besides the backend.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Listen address; port 0 picks a free port.
    pub addr: SocketAddr,
    /// Bearer token required on `/v1/*` when set.
    pub api_key: Option<String>,
    pub limits: Limits,
    /// Send permissive CORS headers (off by default).
    pub cors: bool,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            api_key: None,
            limits: Limits::default(),
            cors: false,
        }
    }
}
