//! Prometheus metrics, written in the text exposition format (0.0.4) by hand:
//! a few counters, gauges and fixed-bucket histograms need ~150 lines, while
//! the `prometheus`/`metrics` crates would add a registry, global state and a
//! dozen transitive dependencies for the same output. Every label comes from
//! a closed set (route templates, known methods, status codes). The standard
//! process metrics (`process_resident_memory_bytes`, `process_start_time_seconds`,
//! `process_open_fds`, `process_threads`) come from the workspace's one
//! `/proc` reader.

use paragraf_types::Timings;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Mutex;

/// Upper bounds (seconds) of the latency histogram buckets.
const BUCKETS_S: [f64; 14] = [
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

#[derive(Debug, Clone, Default)]
struct Histogram {
    /// Per-bucket (non-cumulative) counts; the last slot is `+Inf`.
    counts: [u64; BUCKETS_S.len() + 1],
    sum: f64,
    count: u64,
}

impl Histogram {
    fn observe(&mut self, seconds: f64) {
        let v = if seconds.is_finite() && seconds >= 0.0 {
            seconds
        } else {
            0.0
        };
        let idx = BUCKETS_S
            .iter()
            .position(|b| v <= *b)
            .unwrap_or(BUCKETS_S.len());
        self.counts[idx] += 1;
        self.sum += v;
        self.count += 1;
    }

    fn write(&self, out: &mut String, name: &str, label: &str, value: &str) {
        let mut cumulative = 0;
        for (i, b) in BUCKETS_S.iter().enumerate() {
            cumulative += self.counts[i];
            let _ = writeln!(
                out,
                "{name}_bucket{{{label}=\"{}\",le=\"{b}\"}} {cumulative}",
                escape(value)
            );
        }
        cumulative += self.counts[BUCKETS_S.len()];
        let _ = writeln!(
            out,
            "{name}_bucket{{{label}=\"{}\",le=\"+Inf\"}} {cumulative}",
            escape(value)
        );
        let _ = writeln!(
            out,
            "{name}_sum{{{label}=\"{}\"}} {}",
            escape(value),
            self.sum
        );
        let _ = writeln!(
            out,
            "{name}_count{{{label}=\"{}\"}} {}",
            escape(value),
            self.count
        );
    }
}

/// The `method` label of a request: one of the methods the router knows,
/// `other` for anything else. Every label value comes from a closed set, so
/// no client can grow `/metrics` (or this process) by inventing methods.
pub fn method_label(method: &axum::http::Method) -> &'static str {
    use axum::http::Method;
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        _ => "other",
    }
}

#[derive(Debug, Default)]
struct Inner {
    /// By (route template or `unmatched`, [`method_label`], status).
    requests: BTreeMap<(&'static str, &'static str, u16), u64>,
    http: BTreeMap<&'static str, Histogram>,
    stages: BTreeMap<String, Histogram>,
    last_tokens_per_second: f64,
    /// Wall times of the last [`RECENT_JOBS`] answer jobs, seconds.
    recent_jobs: std::collections::VecDeque<f64>,
}

/// Answer jobs whose wall time the admission estimate remembers.
pub const RECENT_JOBS: usize = 16;

/// Process-wide metrics of one router.
#[derive(Debug, Default)]
pub struct Metrics {
    inner: Mutex<Inner>,
    queue_depth: AtomicI64,
    answers_in_progress: AtomicI64,
    answers_rejected: AtomicU64,
    generated_tokens: AtomicU64,
    /// Generation time in microseconds (integer to stay atomic).
    generation_micros: AtomicU64,
    backend_panics: AtomicU64,
    generations: AtomicU64,
    jobs: AtomicU64,
    /// Answer-worker wall time in microseconds.
    job_micros: AtomicU64,
    connections_open: AtomicI64,
    connections_timed_out: AtomicU64,
    answer_cache_hits: AtomicU64,
    answer_cache_misses: AtomicU64,
    started: StartTime,
}

/// When the metrics (the server) started, seconds since the Unix epoch.
#[derive(Debug)]
struct StartTime(f64);

impl Default for StartTime {
    fn default() -> Self {
        StartTime(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs_f64())
                .unwrap_or(0.0),
        )
    }
}

impl Metrics {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves plain counters behind; keep going.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Count a finished request and its latency. `route` is a route
    /// template of the router (or `unmatched`), `method` a [`method_label`]:
    /// both from closed sets.
    pub fn observe_request(
        &self,
        route: &'static str,
        method: &'static str,
        status: u16,
        seconds: f64,
    ) {
        let mut g = self.lock();
        *g.requests.entry((route, method, status)).or_insert(0) += 1;
        g.http.entry(route).or_default().observe(seconds);
    }

    /// Connections open changed by `delta`.
    pub fn connections_add(&self, delta: i64) {
        self.connections_open.fetch_add(delta, Ordering::Relaxed);
    }

    /// One connection closed because its client sent nothing in time.
    pub fn connection_timed_out(&self) {
        self.connections_timed_out.fetch_add(1, Ordering::Relaxed);
    }

    /// Record the per-stage timings of a pipeline run (milliseconds).
    pub fn observe_timings(&self, timings: &Timings) {
        let mut g = self.lock();
        for (stage, ms) in timings {
            g.stages
                .entry(stage.clone())
                .or_default()
                .observe(ms / 1000.0);
        }
    }

    /// Record one finished generation.
    pub fn observe_generation(&self, tokens: usize, seconds: f64) {
        self.generations.fetch_add(1, Ordering::Relaxed);
        self.generated_tokens
            .fetch_add(tokens as u64, Ordering::Relaxed);
        self.generation_micros
            .fetch_add((seconds.max(0.0) * 1e6) as u64, Ordering::Relaxed);
        if seconds > 0.0 && tokens > 0 {
            self.lock().last_tokens_per_second = tokens as f64 / seconds;
        }
    }

    /// Record the wall time the answer worker spent on one job (search,
    /// generation and gate): what a waiting client waits for.
    pub fn observe_job(&self, seconds: f64) {
        self.jobs.fetch_add(1, Ordering::Relaxed);
        self.job_micros
            .fetch_add((seconds.max(0.0) * 1e6) as u64, Ordering::Relaxed);
        let mut g = self.lock();
        if g.recent_jobs.len() == RECENT_JOBS {
            g.recent_jobs.pop_front();
        }
        g.recent_jobs.push_back(seconds.max(0.0));
    }

    /// The longest of the last [`RECENT_JOBS`] answer jobs: what admission
    /// plans with, since answer times spread widely (one question's evidence
    /// is three times another's) and a mean lets the long ones time out.
    pub fn recent_job_seconds_max(&self) -> Option<f64> {
        self.lock().recent_jobs.iter().copied().reduce(f64::max)
    }

    /// Mean wall time of the worker's jobs so far; `None` before the first.
    pub fn mean_job_seconds(&self) -> Option<f64> {
        let n = self.jobs.load(Ordering::Relaxed);
        (n > 0).then(|| self.job_micros.load(Ordering::Relaxed) as f64 / 1e6 / n as f64)
    }

    /// Answers waiting in the queue changed by `delta`.
    pub fn queue_depth_add(&self, delta: i64) {
        self.queue_depth.fetch_add(delta, Ordering::Relaxed);
    }

    /// Current number of waiting answers.
    pub fn queue_depth(&self) -> i64 {
        self.queue_depth.load(Ordering::Relaxed)
    }

    /// Generations running changed by `delta`.
    pub fn in_progress_add(&self, delta: i64) {
        self.answers_in_progress.fetch_add(delta, Ordering::Relaxed);
    }

    /// One answer turned away with 503.
    pub fn answer_rejected(&self) {
        self.answers_rejected.fetch_add(1, Ordering::Relaxed);
    }

    /// One answer served from the answer cache.
    pub fn answer_cache_hit(&self) {
        self.answer_cache_hits.fetch_add(1, Ordering::Relaxed);
    }

    /// One answer looked up in the answer cache and not found.
    pub fn answer_cache_miss(&self) {
        self.answer_cache_misses.fetch_add(1, Ordering::Relaxed);
    }

    /// One backend call panicked (and was caught).
    pub fn backend_panic(&self) {
        self.backend_panics.fetch_add(1, Ordering::Relaxed);
    }

    /// Render everything in the Prometheus text format.
    pub fn render(&self) -> String {
        let g = self.lock();
        let mut out = String::with_capacity(8 * 1024);
        out.push_str(
            "# HELP paragraf_http_requests_total HTTP requests by route, method and status.\n",
        );
        out.push_str("# TYPE paragraf_http_requests_total counter\n");
        for ((route, method, status), n) in &g.requests {
            let _ = writeln!(
                out,
                "paragraf_http_requests_total{{route=\"{}\",method=\"{}\",status=\"{status}\"}} {n}",
                escape(route),
                escape(method)
            );
        }
        out.push_str(
            "# HELP paragraf_http_request_duration_seconds Time to response headers by route.\n",
        );
        out.push_str("# TYPE paragraf_http_request_duration_seconds histogram\n");
        for (route, h) in &g.http {
            h.write(
                &mut out,
                "paragraf_http_request_duration_seconds",
                "route",
                route,
            );
        }
        out.push_str(
            "# HELP paragraf_stage_duration_seconds Pipeline stage durations from timings_ms.\n",
        );
        out.push_str("# TYPE paragraf_stage_duration_seconds histogram\n");
        for (stage, h) in &g.stages {
            h.write(&mut out, "paragraf_stage_duration_seconds", "stage", stage);
        }
        let gauges: [(&str, &str, &str, String); 9] = [
            (
                "paragraf_http_connections_open",
                "gauge",
                "HTTP connections being served.",
                self.connections_open.load(Ordering::Relaxed).to_string(),
            ),
            (
                "paragraf_http_connections_timed_out_total",
                "counter",
                "Connections closed because the client sent its headers or body too slowly.",
                self.connections_timed_out
                    .load(Ordering::Relaxed)
                    .to_string(),
            ),
            (
                "paragraf_answer_queue_depth",
                "gauge",
                "Answers waiting for the generation worker.",
                self.queue_depth.load(Ordering::Relaxed).to_string(),
            ),
            (
                "paragraf_answers_in_progress",
                "gauge",
                "Generations running.",
                self.answers_in_progress.load(Ordering::Relaxed).to_string(),
            ),
            (
                "paragraf_answers_rejected_total",
                "counter",
                "Answers turned away with 503 because the queue was full.",
                self.answers_rejected.load(Ordering::Relaxed).to_string(),
            ),
            (
                "paragraf_generated_tokens_total",
                "counter",
                "Tokens generated.",
                self.generated_tokens.load(Ordering::Relaxed).to_string(),
            ),
            (
                "paragraf_generation_seconds_total",
                "counter",
                "Time spent generating.",
                (self.generation_micros.load(Ordering::Relaxed) as f64 / 1e6).to_string(),
            ),
            (
                "paragraf_tokens_per_second",
                "gauge",
                "Generation speed of the last answer.",
                g.last_tokens_per_second.to_string(),
            ),
            (
                "paragraf_backend_panics_total",
                "counter",
                "Backend calls that panicked and were caught.",
                self.backend_panics.load(Ordering::Relaxed).to_string(),
            ),
        ];
        for (name, kind, help, value) in gauges {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        }
        out.push_str(
            "# HELP paragraf_answer_cache_total Answers looked up in the answer cache, by outcome.\n\
             # TYPE paragraf_answer_cache_total counter\n",
        );
        for (result, n) in [
            ("hit", &self.answer_cache_hits),
            ("miss", &self.answer_cache_misses),
        ] {
            let _ = writeln!(
                out,
                "paragraf_answer_cache_total{{result=\"{result}\"}} {}",
                n.load(Ordering::Relaxed)
            );
        }
        // the standard process metrics of the Prometheus client libraries
        // (names and units as they define them); a figure the OS does not
        // give is left out rather than reported as 0
        use paragraf_types::memory;
        let process = [
            (
                "process_resident_memory_bytes",
                "Resident memory size in bytes.",
                memory::rss_kib().map(|k| (k * 1024) as f64),
            ),
            (
                "process_start_time_seconds",
                "Start time of the process since unix epoch in seconds.",
                Some(self.started.0),
            ),
            (
                "process_open_fds",
                "Number of open file descriptors.",
                memory::open_fds().map(|n| n as f64),
            ),
            (
                "process_threads",
                "Number of OS threads in the process.",
                memory::threads().map(|n| n as f64),
            ),
        ];
        for (name, help, value) in process {
            if let Some(v) = value {
                let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {v}");
            }
        }
        out
    }
}

/// Escape a label value (backslash, quote, newline).
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The answer-model load counters in the Prometheus text format (appended
/// to [`Metrics::render`] by `/metrics`).
pub fn render_model_loads(m: &crate::backend::ModelLoads) -> String {
    let mut out = String::new();
    let rows: [(&str, &str, &str, String); 5] = [
        (
            "paragraf_answer_model_loads_total",
            "counter",
            "Answer models loaded from disk (a switch to a model still loaded is none).",
            m.loads.to_string(),
        ),
        (
            "paragraf_answer_model_switches_total",
            "counter",
            "Answers whose model differed from the previous answer's.",
            m.switches.to_string(),
        ),
        (
            "paragraf_answer_model_load_seconds_total",
            "counter",
            "Time spent loading answer models.",
            m.load_seconds.to_string(),
        ),
        (
            "paragraf_answer_models_loaded",
            "gauge",
            "Answer models loaded now.",
            m.loaded.to_string(),
        ),
        (
            "paragraf_answer_models_kept_max",
            "gauge",
            "Most answer models kept loaded (least recently used dropped first).",
            m.capacity.to_string(),
        ),
    ];
    for (name, kind, help, value) in rows {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} {kind}");
        let _ = writeln!(out, "{name} {value}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_is_cumulative_and_counts_inf() {
        let m = Metrics::default();
        m.observe_request("/v1/search", "POST", 200, 0.003);
        m.observe_request("/v1/search", "POST", 200, 100.0);
        let text = m.render();
        assert!(text.contains(
            "paragraf_http_request_duration_seconds_bucket{route=\"/v1/search\",le=\"0.005\"} 1"
        ));
        assert!(text.contains(
            "paragraf_http_request_duration_seconds_bucket{route=\"/v1/search\",le=\"60\"} 1"
        ));
        assert!(text.contains(
            "paragraf_http_request_duration_seconds_bucket{route=\"/v1/search\",le=\"+Inf\"} 2"
        ));
        assert!(text.contains(
            "paragraf_http_requests_total{route=\"/v1/search\",method=\"POST\",status=\"200\"} 2"
        ));
    }

    #[test]
    fn unknown_methods_share_one_label() {
        use axum::http::Method;
        let m = Metrics::default();
        for i in 0..100 {
            let method = Method::from_bytes(format!("M{i}XXXXXXXX").as_bytes()).unwrap();
            m.observe_request("/healthz", method_label(&method), 200, 0.001);
        }
        m.observe_request("/healthz", method_label(&Method::GET), 200, 0.001);
        let text = m.render();
        assert!(text.contains(
            "paragraf_http_requests_total{route=\"/healthz\",method=\"other\",status=\"200\"} 100"
        ));
        assert_eq!(text.matches("paragraf_http_requests_total{").count(), 2);
    }

    #[test]
    fn labels_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn process_metrics_are_exported() {
        let text = Metrics::default().render();
        for name in [
            "process_resident_memory_bytes",
            "process_start_time_seconds",
            "process_open_fds",
            "process_threads",
        ] {
            let line = text
                .lines()
                .find(|l| l.starts_with(&format!("{name} ")))
                .unwrap_or_else(|| panic!("{name} missing:\n{text}"));
            let v: f64 = line[name.len() + 1..].parse().unwrap();
            assert!(v > 0.0, "{line}");
            assert!(text.contains(&format!("# TYPE {name} gauge")));
        }
    }

    #[test]
    fn tokens_per_second_from_generation() {
        let m = Metrics::default();
        m.observe_generation(50, 2.0);
        assert!(m.render().contains("paragraf_tokens_per_second 25\n"));
        assert!(m.render().contains("paragraf_generated_tokens_total 50\n"));
    }
}

#[cfg(test)]
mod admission_tests {
    use super::*;

    #[test]
    fn admission_remembers_the_longest_recent_job() {
        let m = Metrics::default();
        assert_eq!(m.recent_job_seconds_max(), None);
        for s in [130.0, 280.0, 150.0] {
            m.observe_job(s);
        }
        assert_eq!(m.recent_job_seconds_max(), Some(280.0));
        assert!((m.mean_job_seconds().unwrap() - 186.666).abs() < 0.01);
        // a long job is forgotten after RECENT_JOBS shorter ones
        for _ in 0..RECENT_JOBS {
            m.observe_job(100.0);
        }
        assert_eq!(m.recent_job_seconds_max(), Some(100.0));
    }
}
