//! The grounded prompt: numbered source excerpts, primary norm first, within a
//! token budget, and the instruction to answer in the question's language and
//! cite `[n]`.

use crate::gate::Source;
use paragraf_models::{ChatMessage, Role};
use paragraf_types::{Lang, SearchResult};

/// A prompt ready for the answer model, with the sources its `[n]` refer to.
#[derive(Debug, Clone)]
pub struct GroundedPrompt {
    pub messages: Vec<ChatMessage>,
    pub sources: Vec<Source>,
}

/// Excerpt length cap per source, in characters, before the token budget.
pub const MAX_EXCERPT_CHARS: usize = 1_600;

const SYSTEM_DE: &str =
    "Du bist ein sorgfältiger Assistent für deutsches und europäisches Compliance-Recht. \
Beantworte die Frage ausschließlich auf Grundlage der nummerierten Quellen. \
Belege jede Aussage mit der Nummer der Quelle in eckigen Klammern, z. B. [1]. \
Nenne keine Normen, die nicht in den Quellen stehen. \
Wenn die Quellen die Frage nicht beantworten, antworte nur: \"Keine belastbare Quelle.\" \
Antworte kurz, in höchstens fünf Sätzen, auf Deutsch.";

const SYSTEM_EN: &str = "You are a careful assistant for German and European compliance law. \
Answer only from the numbered sources. Support every statement with the source number in square brackets, e.g. [1]. \
Do not name norms that are not in the sources. \
If the sources do not answer the question, reply only: \"No reliable source.\" \
Answer briefly, in at most five sentences, in English.";

/// Build the prompt from ranked results (already in rank order; the primary
/// norm is the first). Results of the same norm are merged into one source.
/// `count_tokens` measures text in the answer model's tokens; sources are added
/// until `budget_tokens` is reached (the first source is always included,
/// truncated if need be).
pub fn build_prompt(
    question: &str,
    lang: Lang,
    results: &[SearchResult],
    max_sources: usize,
    budget_tokens: usize,
    count_tokens: &dyn Fn(&str) -> usize,
) -> GroundedPrompt {
    let mut sources: Vec<Source> = Vec::new();
    let mut blocks: Vec<String> = Vec::new();
    let mut used = 0usize;
    let mut merged: Vec<(String, Vec<&SearchResult>)> = Vec::new();
    for r in results {
        let key = format!("{} {}", r.norm, r.regulation);
        match merged.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(r),
            None => merged.push((key, vec![r])),
        }
    }
    for (key, parts) in merged.into_iter().take(max_sources) {
        let head = parts[0];
        let mut excerpt = String::new();
        for p in &parts {
            if !excerpt.is_empty() {
                excerpt.push('\n');
            }
            excerpt.push_str(p.text.trim());
        }
        let excerpt = truncate_chars(&excerpt, MAX_EXCERPT_CHARS);
        let n = sources.len() + 1;
        let title = if head.title.is_empty() {
            String::new()
        } else {
            format!(" — {}", head.title)
        };
        let mut block = format!("[{n}] {key}{title}\n{excerpt}");
        let cost = count_tokens(&block);
        if used + cost > budget_tokens {
            if sources.is_empty() {
                // keep the primary source, shortened to the budget
                let ratio = budget_tokens as f64 / cost.max(1) as f64;
                let keep = ((block.chars().count() as f64) * ratio * 0.95) as usize;
                block = truncate_chars(&block, keep.max(64));
            } else {
                break;
            }
        }
        used += count_tokens(&block);
        // What the model saw of the excerpt (after a budget cut, if any).
        let shown = block.split_once('\n').map_or("", |(_, e)| e).to_string();
        blocks.push(block);
        sources.push(Source {
            norm: paragraf_types::NormRef(key),
            citation: head.citation.clone(),
            source_class: head.source_class,
            excerpt: shown,
        });
    }
    assemble(question, lang, &blocks, sources)
}

/// The prompt over the evidence: each pinpoint unit is one numbered source
/// (`[n]` = the n-th evidence entry), so the model restates the rule the
/// extractor selected and the gate checks each sentence against the units it
/// cites. `class_of` gives the source class of a norm (`§ 38 BDSG`).
pub fn build_evidence_prompt(
    question: &str,
    lang: Lang,
    evidence: &[paragraf_types::Evidence],
    class_of: &dyn Fn(&str) -> paragraf_types::SourceClass,
) -> GroundedPrompt {
    let mut sources = Vec::with_capacity(evidence.len());
    let mut blocks = Vec::with_capacity(evidence.len());
    for (i, e) in evidence.iter().enumerate() {
        let excerpt = truncate_chars(&e.text, MAX_EXCERPT_CHARS);
        blocks.push(format!("[{}] {}\n{excerpt}", i + 1, e.pinpoint));
        sources.push(Source {
            norm: paragraf_types::NormRef(e.norm.clone()),
            citation: e.pinpoint.clone(),
            source_class: class_of(&e.norm),
            excerpt,
        });
    }
    assemble(question, lang, &blocks, sources)
}

/// The system instruction in the question's language and the user message
/// with the numbered source blocks, then the question.
fn assemble(question: &str, lang: Lang, blocks: &[String], sources: Vec<Source>) -> GroundedPrompt {
    let (system, q_label, s_label) = match lang {
        Lang::En => (SYSTEM_EN, "Question", "Sources"),
        Lang::De => (SYSTEM_DE, "Frage", "Quellen"),
    };
    let user = format!(
        "{s_label}:\n\n{}\n\n{q_label}: {question}",
        blocks.join("\n\n")
    );
    GroundedPrompt {
        messages: vec![
            ChatMessage {
                role: Role::System,
                content: system.to_string(),
            },
            ChatMessage {
                role: Role::User,
                content: user,
            },
        ],
        sources,
    }
}

fn truncate_chars(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push('…');
    out
}
