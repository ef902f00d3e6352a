//! Load driver for a running `paragraf serve`: N keep-alive clients send a
//! weighted mix of searches, answers and malformed requests for a fixed
//! time; prints requests/s, latency percentiles and errors per kind, and the
//! server's RSS after warm-up and at the end (from /proc, with `--pid`).
//!
//! ```text
//! cargo run --release -p paragraf-server --example loadtest -- \
//!   --url 127.0.0.1:8080 --clients 50 --seconds 60 --warmup 10 \
//!   --questions eval/sets/own-phrasings.jsonl --unique \
//!   --mix search=1,answer=0.02,bad=0.1 --pid $(pidof paragraf) [--json]
//! ```
//!
//! Expected statuses: search 200; answer 200, or 503 `queue_full` (turned
//! away by design, counted apart); bad 4xx. Anything else — other statuses,
//! broken connections, no reply within `--timeout` (330 s: past the server's
//! 300 s answer deadline) — is an error. `--unique`
//! makes every question text unique (a counter appended), so no cache can
//! answer it.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::Request;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Search,
    Answer,
    Bad,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Search => "search",
            Kind::Answer => "answer",
            Kind::Bad => "bad",
        }
    }
}

#[derive(Default)]
struct Tally {
    /// Latencies of requests that got the expected reply, after warm-up.
    ok_ms: Vec<f64>,
    turned_away: u64,
    errors: u64,
    error_samples: Vec<String>,
}

struct Args {
    url: String,
    clients: usize,
    seconds: u64,
    warmup: u64,
    questions: Vec<String>,
    unique: bool,
    mix: Vec<(Kind, f64)>,
    pid: Option<u32>,
    json: bool,
    timeout: Duration,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        url: "127.0.0.1:8080".into(),
        clients: 50,
        seconds: 60,
        warmup: 10,
        questions: Vec::new(),
        unique: false,
        mix: vec![(Kind::Search, 1.0)],
        pid: None,
        json: false,
        timeout: Duration::from_secs(330),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--url" => {
                a.url = val()?
                    .trim_start_matches("http://")
                    .trim_end_matches('/')
                    .into()
            }
            "--clients" => a.clients = val()?.parse().map_err(|e| format!("--clients: {e}"))?,
            "--seconds" => a.seconds = val()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--warmup" => a.warmup = val()?.parse().map_err(|e| format!("--warmup: {e}"))?,
            "--pid" => a.pid = Some(val()?.parse().map_err(|e| format!("--pid: {e}"))?),
            "--timeout" => {
                a.timeout =
                    Duration::from_secs(val()?.parse().map_err(|e| format!("--timeout: {e}"))?)
            }
            "--unique" => a.unique = true,
            "--json" => a.json = true,
            "--questions" => {
                let p = val()?;
                let text = std::fs::read_to_string(&p).map_err(|e| format!("{p}: {e}"))?;
                for (i, line) in text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                {
                    let v: serde_json::Value = serde_json::from_str(line)
                        .map_err(|e| format!("{p}: line {}: {e}", i + 1))?;
                    let q = v["query"]
                        .as_str()
                        .ok_or(format!("{p}: line {}: field `query` missing", i + 1))?;
                    a.questions.push(q.to_string());
                }
            }
            "--mix" => {
                a.mix.clear();
                for part in val()?.split(',') {
                    let (k, w) = part
                        .split_once('=')
                        .ok_or(format!("--mix: `{part}` is not kind=weight"))?;
                    let kind = match k {
                        "search" => Kind::Search,
                        "answer" => Kind::Answer,
                        "bad" => Kind::Bad,
                        _ => {
                            return Err(format!("--mix: unknown kind `{k}` (search, answer, bad)"))
                        }
                    };
                    a.mix
                        .push((kind, w.parse().map_err(|e| format!("--mix {k}: {e}"))?));
                }
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if a.questions.is_empty() {
        return Err("--questions FILE (JSON lines with `query`) is required".into());
    }
    Ok(a)
}

/// xorshift64*: a seeded, dependency-free generator for the request mix.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Malformed requests the server must answer with a 4xx.
const BAD: &[(&str, &str, &str, &str)] = &[
    (
        "POST",
        "/v1/search",
        "application/json",
        "{\"query\": \"unterbrochen",
    ),
    ("POST", "/v1/search", "application/json", "{\"query\": 42}"),
    (
        "POST",
        "/v1/search",
        "application/json",
        "{\"query\": \"x\", \"top_k\": 100000}",
    ),
    (
        "POST",
        "/v1/search",
        "application/json",
        "{\"query\": \"x\", \"unbekannt\": 1}",
    ),
    ("POST", "/v1/search", "text/plain", "query=x"),
    (
        "POST",
        "/v1/answer",
        "application/json",
        "{\"query\": \"x\", \"model\": \"anything-else\"}",
    ),
    ("GET", "/v1/norms/Art.%20999%20XYZ", "application/json", ""),
    ("BREW", "/v1/search", "application/json", "{}"),
];

fn build(kind: Kind, q: &str, rng: &mut Rng, host: &str) -> Request<Full<Bytes>> {
    let (method, path, ctype, body) = match kind {
        Kind::Search => (
            "POST",
            "/v1/search",
            "application/json",
            serde_json::json!({ "query": q }).to_string(),
        ),
        Kind::Answer => (
            "POST",
            "/v1/answer",
            "application/json",
            serde_json::json!({ "query": q, "max_tokens": 96 }).to_string(),
        ),
        Kind::Bad => {
            let (m, p, c, b) = BAD[(rng.next() % BAD.len() as u64) as usize];
            (m, p, c, b.to_string())
        }
    };
    let mut r = Request::builder()
        .method(method)
        .uri(path)
        .header("host", host)
        .header("content-type", ctype);
    if kind == Kind::Answer {
        r = r.header("accept", "application/json");
    }
    r.body(Full::new(Bytes::from(body))).expect("valid request")
}

type Sender = hyper::client::conn::http1::SendRequest<Full<Bytes>>;

async fn connect(addr: &str) -> Result<Sender, String> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let _ = stream.set_nodelay(true);
    let (send, conn) = hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(conn);
    Ok(send)
}

fn rss_kib(pid: u32) -> Option<u64> {
    paragraf_types::memory::rss_kib_of(pid)
}

#[tokio::main]
async fn main() {
    let args = match parse_args() {
        Ok(a) => Arc::new(a),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let tallies: Arc<Mutex<BTreeMap<Kind, Tally>>> = Arc::default();
    let start = Instant::now();
    let warm = start + Duration::from_secs(args.warmup);
    let end = warm + Duration::from_secs(args.seconds);
    let counter = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let total_w: f64 = args.mix.iter().map(|(_, w)| w).sum();
    let mut tasks = Vec::new();
    for c in 0..args.clients {
        let (args, tallies, counter) = (args.clone(), tallies.clone(), counter.clone());
        tasks.push(tokio::spawn(async move {
            let mut rng =
                Rng(0x9E37_79B9_7F4A_7C15 ^ (c as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
            let mut conn: Option<Sender> = None;
            while Instant::now() < end {
                let mut pick = rng.unit() * total_w;
                let kind = args
                    .mix
                    .iter()
                    .find(|(_, w)| {
                        pick -= w;
                        pick < 0.0
                    })
                    .map_or(args.mix[0].0, |(k, _)| *k);
                let base = &args.questions[(rng.next() % args.questions.len() as u64) as usize];
                let q = if args.unique {
                    let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    format!("{base} (Vorgang {n})")
                } else {
                    base.clone()
                };
                let t0 = Instant::now();
                let outcome = async {
                    if conn.as_ref().is_none_or(|s| s.is_closed()) {
                        conn = Some(connect(&args.url).await?);
                    }
                    let s = conn.as_mut().expect("connected");
                    s.ready().await.map_err(|e| format!("ready: {e}"))?;
                    let resp = s
                        .send_request(build(kind, &q, &mut rng, &args.url))
                        .await
                        .map_err(|e| format!("send: {e}"))?;
                    let status = resp.status().as_u16();
                    let body = resp
                        .into_body()
                        .collect()
                        .await
                        .map_err(|e| format!("body: {e}"))?
                        .to_bytes();
                    Ok::<_, String>((status, body))
                };
                let res = tokio::time::timeout(args.timeout, outcome).await;
                let ms = t0.elapsed().as_secs_f64() * 1e3;
                let counted = t0 >= warm;
                let mut g = tallies.lock().await;
                let t = g.entry(kind).or_default();
                let verdict = match res {
                    Err(_) => Err(format!("no reply within {} s", args.timeout.as_secs())),
                    Ok(Err(e)) => Err(e),
                    Ok(Ok((status, body))) => match (kind, status) {
                        (Kind::Search | Kind::Answer, 200) => Ok(true),
                        (Kind::Answer, 503) => Ok(false),
                        (Kind::Bad, 400..=499) => Ok(true),
                        _ => Err(format!(
                            "{} {status}: {}",
                            kind.name(),
                            String::from_utf8_lossy(&body[..body.len().min(200)])
                        )),
                    },
                };
                if !counted {
                    if verdict.is_err() {
                        conn = None;
                    }
                    continue;
                }
                match verdict {
                    Ok(true) => t.ok_ms.push(ms),
                    Ok(false) => {
                        t.turned_away += 1;
                        drop(g);
                        // honour the queue's answer instead of hammering it
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                    Err(e) => {
                        t.errors += 1;
                        if t.error_samples.len() < 5 {
                            t.error_samples.push(e);
                        }
                        conn = None;
                    }
                }
            }
        }));
    }
    // RSS: after warm-up, then at the end
    let rss_warm = match args.pid {
        Some(pid) => {
            tokio::time::sleep_until(warm.into()).await;
            rss_kib(pid)
        }
        None => None,
    };
    let mut rss_max = rss_warm;
    if let Some(pid) = args.pid {
        while Instant::now() < end {
            tokio::time::sleep(Duration::from_secs(1)).await;
            rss_max = rss_max.max(rss_kib(pid));
        }
    }
    for t in tasks {
        let _ = t.await;
    }
    let rss_end = args.pid.and_then(rss_kib);
    let g = tallies.lock().await;
    let secs = args.seconds as f64;
    let mut kinds = serde_json::Map::new();
    for (k, t) in g.iter() {
        let v = &t.ok_ms;
        let pct = |p: f64| paragraf_eval::stats::percentile(v, p).unwrap_or(f64::NAN);
        kinds.insert(
            k.name().into(),
            serde_json::json!({
                "ok": v.len(), "per_s": v.len() as f64 / secs,
                "p50_ms": pct(50.0), "p90_ms": pct(90.0), "p99_ms": pct(99.0),
                "turned_away_503": t.turned_away, "errors": t.errors, "error_samples": t.error_samples,
            }),
        );
    }
    let growth = match (rss_warm, rss_end) {
        (Some(a), Some(b)) if a > 0 => Some((b as f64 - a as f64) / a as f64 * 100.0),
        _ => None,
    };
    let report = serde_json::json!({
        "clients": args.clients, "seconds": args.seconds, "warmup_s": args.warmup, "unique_questions": args.unique,
        "kinds": kinds,
        "rss_kib": { "after_warmup": rss_warm, "max": rss_max, "end": rss_end, "growth_pct": growth },
    });
    if args.json {
        println!("{report}");
    } else {
        println!(
            "{} clients, {} s after {} s warm-up{}",
            args.clients,
            args.seconds,
            args.warmup,
            if args.unique {
                ", every question unique"
            } else {
                ""
            }
        );
        println!(
            "{:<7} {:>8} {:>8} {:>9} {:>9} {:>9} {:>7} {:>7}",
            "kind", "ok", "req/s", "p50 ms", "p90 ms", "p99 ms", "503", "errors"
        );
        for (k, v) in &kinds {
            println!(
                "{:<7} {:>8} {:>8.1} {:>9.1} {:>9.1} {:>9.1} {:>7} {:>7}",
                k,
                v["ok"],
                v["per_s"].as_f64().unwrap_or(0.0),
                v["p50_ms"].as_f64().unwrap_or(f64::NAN),
                v["p90_ms"].as_f64().unwrap_or(f64::NAN),
                v["p99_ms"].as_f64().unwrap_or(f64::NAN),
                v["turned_away_503"],
                v["errors"]
            );
            for s in v["error_samples"].as_array().into_iter().flatten() {
                println!("        error: {}", s.as_str().unwrap_or(""));
            }
        }
        if let (Some(a), Some(b)) = (rss_warm, rss_end) {
            println!("server RSS: {:.1} MiB after warm-up, {:.1} MiB at the end ({:+.1} %), max {:.1} MiB",
                a as f64 / 1024.0, b as f64 / 1024.0, growth.unwrap_or(0.0), rss_max.unwrap_or(0) as f64 / 1024.0);
        }
    }
    let errors: u64 = g.values().map(|t| t.errors).sum();
    std::process::exit(if errors == 0 { 0 } else { 1 });
}
