//! Print the query analysis of each line of a JSONL file with `query` fields
//! (e.g. the golden set): `cargo run --release -p paragraf-rank --example analyze -- FILE`.
use paragraf_rank::{analyze_query, Lexicon};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: analyze FILE.jsonl");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(1);
        }
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("skipping bad line: {e}");
                continue;
            }
        };
        let q = v["query"].as_str().unwrap_or_default();
        let a = analyze_query(q, &[], Lexicon::builtin());
        let norms: Vec<&str> = a.topic_norms.iter().map(|n| n.as_str()).collect();
        println!(
            "{} | {} | dom={:?} jur={:?} ctl={} gui={} hist={} le={} def={} | topics={:?} | norms={:?} | expect={} {}",
            v["id"].as_str().unwrap_or("?"),
            q,
            a.domains.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
            a.jurisdictions.iter().map(|j| j.as_str()).collect::<Vec<_>>(),
            a.control_intent,
            a.guidance_intent,
            a.historical,
            a.law_enforcement,
            a.definition_intent,
            a.topics,
            norms,
            v["expect_any"],
            v.get("expect").map(|e| e.to_string()).unwrap_or_default()
        );
    }
}
