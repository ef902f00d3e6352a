//! Which questions each lexicon signal fires on, over question sets:
//! `cargo run --release -p paragraf-rank --example lexicon_usage -- SET.jsonl…`.
//! One line per topic/category signal: `section id pattern` and the ids of
//! the questions it matches (a signal only one question of one set matches
//! is a candidate for a per-question entry).
use paragraf_rank::{question_tokens, Lexicon, Pattern};

fn main() {
    let mut qs: Vec<(String, Vec<String>)> = Vec::new();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2)
        });
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
            let id = v["id"].as_str().unwrap_or("?").to_string();
            qs.push((id, question_tokens(v["query"].as_str().unwrap_or_default())));
        }
    }
    let lex = Lexicon::builtin();
    let show = |section: &str, id: &str, kind: &str, pats: &[Pattern]| {
        for p in pats {
            let ids: Vec<&str> = qs
                .iter()
                .filter(|(_, t)| p.matches(t))
                .map(|(i, _)| i.as_str())
                .collect();
            println!(
                "{section}\t{id}\t{kind}\t{}\t{}\t{}",
                p.source,
                ids.len(),
                ids.join(",")
            );
        }
    };
    for t in &lex.topics {
        show("topic", &t.id, "signal", &t.signals);
        show("topic", &t.id, "require", &t.require);
    }
    for c in &lex.categories {
        show("category", &c.id, "instance", &c.instances);
    }
    for d in &lex.domains {
        show("domain", d.domain.as_str(), "signal", &d.signals);
    }
}
