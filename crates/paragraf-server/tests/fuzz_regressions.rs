//! The committed fuzz inputs (`fuzz/regressions/<target>/*`: hand-made
//! tricky requests and every input a fuzzer ever crashed on) through the same
//! body the cargo-fuzz target runs (`fuzz/checks.rs`: the real router, a stub
//! backend, raw HTTP/1.1 over an in-memory connection), on stable, in the
//! normal test run. See docs/fuzzing.md.

#[path = "../fuzz/checks.rs"]
mod checks;
#[path = "../../paragraf-corpus/tests/support/fuzz_package.rs"]
mod fuzz_package;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The bound of one input (the fuzzer's `-timeout`).
const PER_INPUT: Duration = Duration::from_secs(10);

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

fn input(target: &str, name: &str) -> Vec<u8> {
    let p = fuzz_dir().join("regressions").join(target).join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn inputs(target: &str) -> Vec<PathBuf> {
    fuzz_package::regression_inputs(&fuzz_dir(), target)
}

#[test]
fn every_regression_input_passes_its_target() {
    let mut failures = Vec::new();
    for &(name, body) in checks::TARGETS {
        let files = inputs(name);
        assert!(!files.is_empty(), "no regression inputs for `{name}`");
        for f in files {
            let data = std::fs::read(&f).expect("readable input");
            let t = Instant::now();
            let outcome = std::panic::catch_unwind(|| body(&data));
            let took = t.elapsed();
            if outcome.is_err() {
                failures.push(format!("{name}: {} panics", f.display()));
            } else if took > PER_INPUT {
                failures.push(format!("{name}: {} took {took:?}", f.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The harness reaches the handlers: well-formed requests are answered 200
/// (a harness that only ever produced 400s would pass every input above).
#[test]
fn well_formed_requests_reach_the_handlers() {
    for name in [
        "get-healthz",
        "post-search",
        "post-answer-sse",
        "post-answer-json-chunked",
        "post-chat",
        "expect-continue",
    ] {
        let w = checks::serve_bytes(&input("http_request", name));
        assert_eq!(
            checks::first_status(&w),
            Some(if name == "expect-continue" { 100 } else { 200 }),
            "{name}: {}",
            String::from_utf8_lossy(&w.head[..w.head.len().min(300)])
        );
    }
    // pipelined: one response per request, in order
    let w = checks::serve_bytes(&input(
        "http_request",
        "get-readyz-metrics-openapi-pipelined",
    ));
    let text = String::from_utf8_lossy(&w.head);
    assert_eq!(text.matches("HTTP/1.1 200 OK\r\n").count(), 4, "{text}");

    for &(path, accept) in checks::JSON_ENDPOINTS {
        let body = match path {
            "/v1/search" => input("json_body", "search-valid.json"),
            "/v1/answer" => input("json_body", "answer-valid.json"),
            _ => input("json_body", "chat-string.json"),
        };
        let (status, _, _) = checks::post_json(path, accept, &body);
        assert_eq!(status.as_u16(), 200, "POST {path} ({accept})");
    }
}

/// Every cargo-fuzz binary has a body in `checks::TARGETS` (hence
/// regression inputs), and every regression directory belongs to a target.
#[test]
fn targets_and_regression_dirs_match_the_fuzz_package() {
    let targets: Vec<&str> = checks::TARGETS.iter().map(|(n, _)| *n).collect();
    fuzz_package::assert_targets_match(&fuzz_dir(), &targets);
}
