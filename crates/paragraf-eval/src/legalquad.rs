//! LegalQuAD (`../shared/corpus/eval/legalquad.json`): an outside retrieval
//! benchmark — German questions over court decisions, SQuAD format. Each
//! paragraph's `context` is one document (id: its `document_id`); a
//! question's relevant documents are its paragraph's document and the
//! `document_id`s of its answers. Questions marked `is_impossible` are
//! skipped. Metric: nDCG@10 with binary relevance (as MTEB reports it).

use crate::error::EvalError;
use crate::format::md_escape;
use crate::machine::Machine;
use crate::metrics::{dedupe_ids, first_relevant_rank, ndcg_at_k};
use paragraf_types::time::utc_now;
use paragraf_types::{Chunk, ChunkId, Lang, SourceClass, SourceRole};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

/// Published nDCG@10 on LegalQuAD (MTEB), for the report.
pub const PUBLISHED: [(&str, f64); 3] = [
    ("BM25", 0.768),
    ("multilingual-e5-large", 0.432),
    ("bge-m3 dense", 0.464),
];

/// One document (a decision).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Context {
    pub id: String,
    pub text: String,
}

/// One question with its relevant documents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub id: String,
    pub question: String,
    /// Ids of relevant contexts (sorted, distinct).
    pub relevant: Vec<String>,
}

/// The benchmark: documents and questions, in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegalQuad {
    pub contexts: Vec<Context>,
    pub questions: Vec<Question>,
}

#[derive(Deserialize)]
struct RawFile {
    data: Vec<RawArticle>,
}
#[derive(Deserialize)]
struct RawArticle {
    paragraphs: Vec<RawParagraph>,
}
#[derive(Deserialize)]
struct RawParagraph {
    context: String,
    #[serde(default)]
    document_id: Option<Value>,
    #[serde(default)]
    qas: Vec<RawQa>,
}
#[derive(Deserialize)]
struct RawQa {
    question: String,
    id: Value,
    #[serde(default)]
    answers: Vec<RawAnswer>,
    #[serde(default)]
    is_impossible: bool,
}
#[derive(Deserialize)]
struct RawAnswer {
    #[serde(default)]
    document_id: Option<Value>,
}

/// An id given as a JSON number or non-empty string.
fn id_string(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

/// Read and parse the benchmark file.
pub fn load(path: &Path) -> Result<LegalQuad, EvalError> {
    let text = std::fs::read_to_string(path).map_err(|e| EvalError::io(path, e))?;
    parse(&text, &path.display().to_string())
}

/// Parse SQuAD-format text; `source` names it in errors. Errors name the
/// JSON position: a paragraph without `document_id`, one id used for two
/// different texts, a question without id or with an id used twice, an
/// answer pointing at an unknown document.
pub fn parse(text: &str, source: &str) -> Result<LegalQuad, EvalError> {
    let err = |at: String, message: String| EvalError::LegalQuad {
        path: source.to_string(),
        at,
        message,
    };
    let raw: RawFile =
        serde_json::from_str(text).map_err(|e| err("top level".into(), e.to_string()))?;
    let mut contexts: Vec<Context> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    // First pass: documents.
    for (ai, art) in raw.data.iter().enumerate() {
        for (pi, p) in art.paragraphs.iter().enumerate() {
            let at = format!("data[{ai}].paragraphs[{pi}]");
            let id = p
                .document_id
                .as_ref()
                .and_then(id_string)
                .ok_or_else(|| err(at.clone(), "missing or empty `document_id`".into()))?;
            match by_id.get(&id) {
                Some(&k) if contexts[k].text != p.context => {
                    return Err(err(
                        at,
                        format!("document_id {id} used for two different texts"),
                    ))
                }
                Some(_) => {}
                None => {
                    by_id.insert(id.clone(), contexts.len());
                    contexts.push(Context {
                        id,
                        text: p.context.clone(),
                    });
                }
            }
        }
    }
    // Second pass: questions.
    let mut questions = Vec::new();
    let mut seen_q: HashSet<String> = HashSet::new();
    for (ai, art) in raw.data.iter().enumerate() {
        for (pi, p) in art.paragraphs.iter().enumerate() {
            let doc = p
                .document_id
                .as_ref()
                .and_then(id_string)
                .unwrap_or_default();
            for (qi, qa) in p.qas.iter().enumerate() {
                let at = format!("data[{ai}].paragraphs[{pi}].qas[{qi}]");
                if qa.is_impossible {
                    continue;
                }
                let qid = id_string(&qa.id)
                    .ok_or_else(|| err(at.clone(), "missing or empty `id`".into()))?;
                if !seen_q.insert(qid.clone()) {
                    return Err(err(at, format!("question id {qid} used twice")));
                }
                if qa.question.trim().is_empty() {
                    return Err(err(at, "empty `question`".into()));
                }
                let mut relevant = vec![doc.clone()];
                for (ni, an) in qa.answers.iter().enumerate() {
                    if let Some(d) = an.document_id.as_ref().and_then(id_string) {
                        if !by_id.contains_key(&d) {
                            return Err(err(
                                format!("{at}.answers[{ni}]"),
                                format!("document_id {d} names no context"),
                            ));
                        }
                        relevant.push(d);
                    }
                }
                relevant.sort();
                relevant.dedup();
                questions.push(Question {
                    id: qid,
                    question: qa.question.clone(),
                    relevant,
                });
            }
        }
    }
    Ok(LegalQuad {
        contexts,
        questions,
    })
}

/// Regulation name under which LegalQuAD documents are indexed; a result's
/// `norm` is then the document id.
pub const REGULATION: &str = "LegalQuAD";

/// Split `text` into passages of at most `max_chars` characters at
/// whitespace, preferring to end a passage after a sentence end (`.`, `?`,
/// `!`, `:`, `;`) in its second half. A single word longer than `max_chars`
/// becomes its own passage. Whitespace runs collapse to one space.
pub fn split_passages(text: &str, max_chars: usize) -> Vec<String> {
    let max_chars = max_chars.max(1);
    let mut out = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    let mut len = 0usize; // chars of cur joined by spaces
    let mut last_sentence_end: Option<usize> = None; // words in cur up to a sentence end
    for w in text.split_whitespace() {
        let wl = w.chars().count();
        let added = if cur.is_empty() { wl } else { len + 1 + wl };
        if added > max_chars && !cur.is_empty() {
            // Cut at the last sentence end when it lies in the second half.
            let cut = match last_sentence_end {
                Some(k)
                    if cur[..k]
                        .iter()
                        .map(|x| x.chars().count() + 1)
                        .sum::<usize>()
                        > max_chars / 2 =>
                {
                    k
                }
                _ => cur.len(),
            };
            out.push(cur[..cut].join(" "));
            cur.drain(..cut);
            len =
                cur.iter().map(|x| x.chars().count()).sum::<usize>() + cur.len().saturating_sub(1);
            last_sentence_end = None;
            // The remainder plus the new word may still not fit.
            if !cur.is_empty() && len + 1 + wl > max_chars {
                out.push(cur.join(" "));
                cur.clear();
                len = 0;
            }
        }
        len = if cur.is_empty() { wl } else { len + 1 + wl };
        cur.push(w);
        if w.ends_with(['.', '?', '!', ':', ';']) {
            last_sentence_end = Some(cur.len());
        }
    }
    if !cur.is_empty() {
        out.push(cur.join(" "));
    }
    out
}

impl LegalQuad {
    /// The documents as chunks for a separate index: regulation
    /// [`REGULATION`], norm = document id, one chunk per passage of at most
    /// `max_chars` characters ([`split_passages`]), ids
    /// `LegalQuAD/<doc>/<part>`. Court decisions have no class of the design
    /// table: class `unknown`, role `interpretation` (rule `legalquad`).
    pub fn to_chunks(&self, max_chars: usize) -> Vec<Chunk> {
        let mut out = Vec::new();
        for c in &self.contexts {
            let passages = split_passages(&c.text, max_chars);
            let parts = passages.len() as u32;
            let title: String = c.text.chars().take(80).collect();
            for (i, p) in passages.into_iter().enumerate() {
                let sub = (parts > 1).then(|| format!("{}", i + 1));
                let mut chunk = Chunk::new(REGULATION, &c.id, p, Lang::De, "eval/legalquad.json");
                chunk.id = ChunkId::new(REGULATION, &c.id, sub.as_deref(), Lang::De);
                chunk.title = title.clone();
                chunk.source_class = SourceClass::Unknown;
                chunk.source_role = SourceRole::Interpretation;
                chunk.role_rule = "legalquad".to_string();
                chunk.part = i as u32;
                chunk.parts = parts;
                out.push(chunk);
            }
        }
        out
    }
}

/// nDCG@10 of one question: `ranked` context ids (duplicates — several
/// passages of one document — count once, at their first position) against
/// the relevant ids.
pub fn ndcg_at_10(relevant: &[String], ranked: &[String]) -> f64 {
    let rel = relevance(relevant, ranked);
    ndcg_at_k(&rel, relevant.len(), 10)
}

fn relevance(relevant: &[String], ranked: &[String]) -> Vec<bool> {
    let set: HashSet<&str> = relevant.iter().map(String::as_str).collect();
    dedupe_ids(ranked)
        .iter()
        .map(|id| set.contains(id.as_str()))
        .collect()
}

/// Scores of one retrieval method over the benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MethodScore {
    /// e.g. `BM25`, `dense (e5-small)`, `fused`.
    pub method: String,
    pub questions: usize,
    pub ndcg_at_10: f64,
    pub mrr_at_10: f64,
    /// Share of questions with a relevant document in the top 10 / 100.
    pub recall_at_10: f64,
    pub recall_at_100: f64,
    /// Questions without a ranking (retrieval failed); scored 0.
    pub missing: usize,
    /// Mean retrieval time per question, when measured.
    pub mean_ms: Option<f64>,
}

/// Score rankings (`question id → ranked context ids`) of one method.
/// Questions without a ranking count as misses.
pub fn score_method(
    lq: &LegalQuad,
    method: &str,
    rankings: &BTreeMap<String, Vec<String>>,
) -> MethodScore {
    let n = lq.questions.len();
    let (mut ndcg, mut rr, mut r10, mut r100, mut missing) = (0.0, 0.0, 0usize, 0usize, 0usize);
    for q in &lq.questions {
        let Some(ranked) = rankings.get(&q.id) else {
            missing += 1;
            continue;
        };
        let rel = relevance(&q.relevant, ranked);
        ndcg += ndcg_at_k(&rel, q.relevant.len(), 10);
        let first = first_relevant_rank(&rel, rel.len());
        if let Some(k) = first {
            if k <= 10 {
                rr += 1.0 / k as f64;
                r10 += 1;
            }
            if k <= 100 {
                r100 += 1;
            }
        }
    }
    let d = n.max(1) as f64;
    MethodScore {
        method: method.to_string(),
        questions: n,
        ndcg_at_10: ndcg / d,
        mrr_at_10: rr / d,
        recall_at_10: r10 as f64 / d,
        recall_at_100: r100 as f64 / d,
        missing,
        mean_ms: None,
    }
}

/// Run `retrieve(question) → ranked context ids` over every question in
/// parallel and score it. Failed calls count as misses.
pub fn run_method(
    lq: &LegalQuad,
    method: &str,
    retrieve: &(dyn Fn(&str) -> Result<Vec<String>, String> + Sync),
) -> MethodScore {
    let timed: Vec<(String, Option<Vec<String>>, f64)> = lq
        .questions
        .par_iter()
        .map(|q| {
            let t = std::time::Instant::now();
            let r = retrieve(&q.question).ok();
            (q.id.clone(), r, t.elapsed().as_secs_f64() * 1000.0)
        })
        .collect();
    let total_ms: f64 = timed.iter().map(|t| t.2).sum();
    let rankings: BTreeMap<String, Vec<String>> = timed
        .into_iter()
        .filter_map(|(id, r, _)| r.map(|r| (id, r)))
        .collect();
    let mut s = score_method(lq, method, &rankings);
    s.mean_ms = (!lq.questions.is_empty()).then(|| total_ms / lq.questions.len() as f64);
    s
}

/// The `paragraf eval legalquad` report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegalQuadReport {
    pub created_utc: String,
    pub machine: Machine,
    pub contexts: usize,
    pub questions: usize,
    pub methods: Vec<MethodScore>,
    /// How documents were indexed (chunking, embedder, params).
    pub notes: Vec<String>,
}

impl LegalQuadReport {
    /// A report for these scores, timestamped now.
    pub fn new(lq: &LegalQuad, methods: Vec<MethodScore>, notes: Vec<String>) -> LegalQuadReport {
        LegalQuadReport {
            created_utc: utc_now(),
            machine: Machine::detect(),
            contexts: lq.contexts.len(),
            questions: lq.questions.len(),
            methods,
            notes,
        }
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        crate::format::pretty_json(self)
    }

    /// Markdown: our methods next to the published figures.
    pub fn to_markdown(&self) -> String {
        let mut s = String::from("# LegalQuAD retrieval\n\n");
        let _ = writeln!(
            s,
            "- created: {}\n- machine: {}\n- {} documents, {} questions",
            self.created_utc,
            self.machine.describe(),
            self.contexts,
            self.questions
        );
        for n in &self.notes {
            let _ = writeln!(s, "- {}", md_escape(n));
        }
        s.push_str("\n| method | nDCG@10 | MRR@10 | recall@10 | recall@100 | missing | mean ms |\n|---|---:|---:|---:|---:|---:|---:|\n");
        for m in &self.methods {
            let _ = writeln!(
                s,
                "| {} | {:.3} | {:.3} | {:.3} | {:.3} | {} | {} |",
                md_escape(&m.method),
                m.ndcg_at_10,
                m.mrr_at_10,
                m.recall_at_10,
                m.recall_at_100,
                m.missing,
                m.mean_ms.map_or_else(|| "–".into(), |v| format!("{v:.1}"))
            );
        }
        s.push_str("\nPublished (MTEB, nDCG@10):\n\n| method | nDCG@10 |\n|---|---:|\n");
        for (m, v) in PUBLISHED {
            let _ = writeln!(s, "| {m} | {v:.3} |");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = r#"{"data":[
      {"paragraphs":[{"context":"Urteil A","document_id":11,
         "qas":[{"question":"Was entschied A?","id":1,"answers":[{"document_id":11,"text":"x"}],"is_impossible":false}]}]},
      {"paragraphs":[{"context":"Urteil B","document_id":"22",
         "qas":[{"question":"Was entschied B?","id":2,"answers":[{"document_id":22}]},
                {"question":"Unmöglich?","id":3,"answers":[],"is_impossible":true}]}]}
    ]}"#;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn parses_squad_shape() {
        let lq = parse(MINI, "mini").unwrap();
        assert_eq!(lq.contexts.len(), 2);
        assert_eq!(lq.contexts[1].id, "22");
        assert_eq!(lq.questions.len(), 2);
        assert_eq!(lq.questions[0].relevant, vec!["11"]);
        assert_eq!(lq.questions[1].id, "2");
    }

    #[test]
    fn errors_name_positions() {
        let no_doc = r#"{"data":[{"paragraphs":[{"context":"x","qas":[]}]}]}"#;
        let m = parse(no_doc, "f").unwrap_err().to_string();
        assert!(
            m.contains("f: invalid LegalQuAD file at data[0].paragraphs[0]"),
            "{m}"
        );
        let bad_ans = r#"{"data":[{"paragraphs":[{"context":"x","document_id":1,"qas":[{"question":"q","id":1,"answers":[{"document_id":9}]}]}]}]}"#;
        let m = parse(bad_ans, "f").unwrap_err().to_string();
        assert!(
            m.contains("qas[0].answers[0]") && m.contains("9 names no context"),
            "{m}"
        );
        let dup = r#"{"data":[{"paragraphs":[{"context":"x","document_id":1,"qas":[{"question":"q","id":1},{"question":"r","id":1}]}]}]}"#;
        assert!(parse(dup, "f")
            .unwrap_err()
            .to_string()
            .contains("used twice"));
        assert!(parse("{}", "f")
            .unwrap_err()
            .to_string()
            .contains("top level"));
        assert!(parse("not json", "f").is_err());
    }

    #[test]
    fn ndcg_dedupes_passages() {
        // passages of document 5 appear three times; relevant doc 7 is the
        // second distinct document → 1/log2(3)
        let r = ndcg_at_10(&s(&["7"]), &s(&["5", "5", "5", "7"]));
        assert!((r - 1.0 / 3f64.log2()).abs() < 1e-12, "{r}");
        assert_eq!(ndcg_at_10(&s(&["7"]), &[]), 0.0);
        assert_eq!(ndcg_at_10(&s(&["7"]), &s(&["7"])), 1.0);
    }

    #[test]
    fn passages_fit_and_keep_every_word() {
        let text = "Erster Satz hier. Zweiter Satz ist etwas länger als der erste. Dritter.   Vierter Satz folgt  hier";
        for max in [1, 10, 20, 35, 50, 1000] {
            let ps = split_passages(text, max);
            let words: Vec<&str> = ps.iter().flat_map(|p| p.split(' ')).collect();
            assert_eq!(
                words,
                text.split_whitespace().collect::<Vec<_>>(),
                "max {max}"
            );
            for p in &ps {
                assert!(
                    p.chars().count() <= max || !p.contains(' '),
                    "max {max}: {p:?}"
                );
                assert!(!p.is_empty());
            }
        }
        // a sentence end in the second half is preferred as the cut
        // max 30: "Erster Satz hier. Zweiter Satz" fits, "ist" does not; the
        // sentence end (18 chars) lies past half of 30 → cut there
        let ps = split_passages(text, 30);
        assert_eq!(ps[0], "Erster Satz hier.");
        assert!(ps[1].starts_with("Zweiter Satz ist"), "{ps:?}");
        // max 50: the sentence end (18) lies before half of 50 → cut at the word
        let ps = split_passages(text, 50);
        assert_eq!(ps[0], "Erster Satz hier. Zweiter Satz ist etwas länger");
        assert_eq!(split_passages(text, 1000).len(), 1);
        assert!(split_passages("", 10).is_empty());
        assert!(split_passages("  \n ", 10).is_empty());
    }

    #[test]
    fn chunks_of_documents() {
        let lq = parse(MINI, "mini").unwrap();
        let ch = lq.to_chunks(1000);
        assert_eq!(ch.len(), 2);
        assert_eq!(ch[0].id.as_str(), "LegalQuAD/11");
        assert_eq!(ch[0].norm, "11");
        assert_eq!(ch[0].parts, 1);
        let long = LegalQuad {
            contexts: vec![Context {
                id: "7".into(),
                text: "Satz eins. Satz zwei. Satz drei.".into(),
            }],
            questions: vec![],
        };
        let ch = long.to_chunks(12);
        assert_eq!(ch.len(), 3);
        assert_eq!(ch[2].id.as_str(), "LegalQuAD/7/3");
        assert!(ch.iter().all(|c| c.parts == 3 && c.norm == "7"));
    }

    #[test]
    fn method_scores() {
        let lq = parse(MINI, "mini").unwrap();
        let mut runs = BTreeMap::new();
        runs.insert("1".to_string(), s(&["11", "22"])); // rank 1
        runs.insert("2".to_string(), s(&["11", "11", "22"])); // rank 2 after dedupe
        let m = score_method(&lq, "bm25", &runs);
        let want = (1.0 + 1.0 / 3f64.log2()) / 2.0;
        assert!((m.ndcg_at_10 - want).abs() < 1e-12);
        assert!((m.mrr_at_10 - 0.75).abs() < 1e-12);
        assert_eq!(m.recall_at_10, 1.0);
        assert_eq!(m.missing, 0);
        runs.remove("2");
        let m = score_method(&lq, "bm25", &runs);
        assert_eq!(m.missing, 1);
        assert!((m.ndcg_at_10 - 0.5).abs() < 1e-12);
    }

    #[test]
    fn run_method_is_parallel_and_counts_failures() {
        let lq = parse(MINI, "mini").unwrap();
        let retrieve = |q: &str| -> Result<Vec<String>, String> {
            if q.contains('A') {
                Ok(s(&["11"]))
            } else {
                Err("index missing".into())
            }
        };
        let m = run_method(&lq, "x", &retrieve);
        assert_eq!(m.missing, 1);
        assert!((m.ndcg_at_10 - 0.5).abs() < 1e-12);
        assert!(m.mean_ms.is_some());
        let rep = LegalQuadReport::new(&lq, vec![m], vec!["test".into()]);
        let md = rep.to_markdown();
        assert!(
            md.contains("| x | 0.500 |") && md.contains("| BM25 | 0.768 |"),
            "{md}"
        );
    }
}
