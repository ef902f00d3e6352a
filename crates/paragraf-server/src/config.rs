//! Server configuration: address, optional API key, request and connection
//! limits, CORS, the answer models clients may name, accepted host names.

use paragraf_types::limits;
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
    /// Time a client has to send a request's headers, counted from the
    /// moment the connection is idle (new, or after the previous response):
    /// idle, partial-header and slow-header connections are closed after it.
    pub header_read_timeout: Duration,
    /// Time a client has to send a whole request body (408 after it).
    pub body_read_timeout: Duration,
    /// Connections served at once; further clients wait in the listen
    /// backlog until one closes.
    pub max_connections: usize,
    /// Searches computed at once; more wait their turn (first come, first
    /// served) within `request_timeout`. One per core keeps the machine
    /// busy without starving the answer worker of CPU time.
    pub max_concurrent_searches: usize,
    /// Complete answers kept for repeated questions (least recently used
    /// out first); 0 turns the answer cache off. See `cache.rs`.
    pub answer_cache_entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 64 * 1024,
            max_query_chars: limits::MAX_QUERY_CHARS,
            max_top_k: limits::MAX_TOP_K,
            max_tokens: limits::MAX_TOKENS,
            request_timeout: Duration::from_secs(30),
            answer_timeout: Duration::from_secs(300),
            answer_queue_capacity: 8,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(15),
            max_connections: 256,
            max_concurrent_searches: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
            answer_cache_entries: 64,
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
    /// Answer models a client may name in `model` (`serve --models`); the
    /// backend's default needs no entry. Any other name is a 422.
    pub answer_models: Vec<String>,
    /// Host names accepted in the `Host` header besides `localhost` and IP
    /// literals (`serve --allow-host`); `*` accepts any. Guards a loopback
    /// server against DNS rebinding: a page on `attacker.example` that
    /// resolves to 127.0.0.1 still sends `Host: attacker.example`.
    pub allowed_hosts: Vec<String>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            api_key: None,
            limits: Limits::default(),
            cors: false,
            answer_models: Vec::new(),
            allowed_hosts: Vec::new(),
        }
    }
}
