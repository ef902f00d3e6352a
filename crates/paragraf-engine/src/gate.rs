//! Citation gating (design "Grounded generation", seed 07 Ausbaustufe).
//!
//! After generation every citation is checked against what was retrieved:
//!
//! * a source marker `[n]` must point to one of the numbered sources given to
//!   the model, otherwise it is removed and listed in `removed_citations`;
//! * every norm the text names (`Art. 124 DSGVO`) must be among the retrieved
//!   norms; a sentence naming an unsupported norm is dropped and the norm is
//!   listed in `removed_citations`;
//! * a sentence with neither a valid marker nor a retrieved norm is kept but
//!   marked [`UNSUPPORTED_MARK`], so a reader sees which statements carry no
//!   source;
//! * when no sentence is supported by a binding source, or the model itself
//!   says that the sources do not answer the question, the answer abstains.
//!
//! The gate is pure: it sees the generated text, the sources and a norm
//! extractor, so it is tested with scripted texts and no model.

use paragraf_types::{Answer, NormRef, RemovedCitation, SourceClass};
use std::collections::BTreeSet;

/// Appended to a sentence that cites nothing the engine retrieved.
pub const UNSUPPORTED_MARK: &str = "[ohne Quellenbeleg]";

/// Phrases with which a model declines to answer from the sources (lower case).
pub const DECLINE_PHRASES: &[&str] = &[
    "keine belastbare quelle",
    "keine belastbaren quellen",
    "quellen beantworten die frage nicht",
    "lässt sich den quellen nicht entnehmen",
    "nicht aus den quellen",
    "the sources do not answer",
    "no reliable source",
];

/// One numbered source excerpt given to the model (`[n]` = index + 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub norm: NormRef,
    pub citation: String,
    pub source_class: SourceClass,
}

/// What the gate decided.
#[derive(Debug, Clone, PartialEq)]
pub struct GateOutcome {
    pub answer: Answer,
    /// Sentences kept with [`UNSUPPORTED_MARK`].
    pub unsupported_sentences: usize,
    /// Sentences dropped for naming a norm that was not retrieved.
    pub dropped_sentences: usize,
}

/// The fixed abstention text; `found` lists what retrieval did find.
pub fn abstention_text(reason: &str, found: &[String]) -> String {
    let mut s = format!(
        "Keine belastbare Quelle: Die Frage lässt sich mit den gefundenen Quellen nicht verlässlich beantworten ({reason})."
    );
    if !found.is_empty() {
        s.push_str(" Gefunden wurden: ");
        s.push_str(&found.join(", "));
        s.push('.');
    }
    s.push_str(" Bitte durch eine fachkundige Person prüfen lassen.");
    s
}

/// Gate a generated text. `retrieved` are the norms of all ranked results
/// (a superset of the sources); `extract` finds norm references in a sentence.
pub fn gate(
    text: &str,
    sources: &[Source],
    retrieved: &BTreeSet<NormRef>,
    extract: &dyn Fn(&str) -> Vec<NormRef>,
) -> GateOutcome {
    let mut removed: Vec<RemovedCitation> = Vec::new();
    let mut cited: BTreeSet<usize> = BTreeSet::new();
    let mut kept: Vec<String> = Vec::new();
    let mut supported_binding = 0usize;
    let mut unsupported_sentences = 0usize;
    let mut dropped_sentences = 0usize;

    for sentence in split_sentences(text) {
        let (clean, markers) = strip_markers(&sentence, sources.len(), &mut removed);
        if clean.trim().is_empty() {
            continue;
        }
        let named = extract(&clean);
        let foreign: Vec<&NormRef> = named.iter().filter(|n| !retrieved.contains(n)).collect();
        if !foreign.is_empty() {
            for n in foreign {
                push_removed(
                    &mut removed,
                    n.as_str(),
                    "Norm wird genannt, ist aber nicht unter den gefundenen Quellen",
                );
            }
            dropped_sentences += 1;
            continue;
        }
        // Norms named in the text that are among the sources count as support.
        let mut support: BTreeSet<usize> = markers.into_iter().collect();
        for n in &named {
            if let Some(i) = sources.iter().position(|s| &s.norm == n) {
                support.insert(i);
            }
        }
        let mut out = clean.trim().to_string();
        if support.is_empty() {
            unsupported_sentences += 1;
            out.push(' ');
            out.push_str(UNSUPPORTED_MARK);
        } else {
            if support
                .iter()
                .any(|&i| sources[i].source_class.is_binding())
            {
                supported_binding += 1;
            }
            let refs: String = support.iter().map(|i| format!("[{}]", i + 1)).collect();
            out = attach_markers(&out, &refs);
            cited.extend(support);
        }
        kept.push(out);
    }

    let declined = {
        let lower = text.to_lowercase();
        DECLINE_PHRASES.iter().any(|p| lower.contains(p))
    };
    let citations: Vec<String> = cited.iter().map(|&i| sources[i].norm.to_string()).collect();
    let abstain_reason = if declined {
        Some("das Modell findet in den Quellen keine Antwort")
    } else if supported_binding == 0 {
        Some("keine Aussage ist durch eine bindende Quelle belegt")
    } else {
        None
    };
    let answer = match abstain_reason {
        Some(reason) => {
            let found: Vec<String> = sources.iter().map(|s| s.citation.clone()).collect();
            Answer {
                text: abstention_text(reason, &found),
                citations: Vec::new(),
                abstained: true,
                removed_citations: removed,
                ..Answer::default()
            }
        }
        None => Answer {
            text: kept.join(" "),
            citations,
            abstained: false,
            removed_citations: removed,
            ..Answer::default()
        },
    };
    GateOutcome {
        answer,
        unsupported_sentences,
        dropped_sentences,
    }
}

fn push_removed(removed: &mut Vec<RemovedCitation>, text: &str, reason: &str) {
    if !removed.iter().any(|r| r.text == text) {
        removed.push(RemovedCitation {
            text: text.to_string(),
            reason: reason.to_string(),
        });
    }
}

/// Put source markers before the sentence's final punctuation.
fn attach_markers(sentence: &str, refs: &str) -> String {
    let trimmed = sentence.trim_end();
    match trimmed.chars().last() {
        Some(c @ ('.' | '!' | '?' | ':' | ';')) => {
            let body = &trimmed[..trimmed.len() - c.len_utf8()];
            format!("{} {}{}", body.trim_end(), refs, c)
        }
        _ => format!("{trimmed} {refs}"),
    }
}

/// Remove every `[..]` marker group from a sentence; return the cleaned text
/// and the 0-based source indices of the valid markers. Invalid markers
/// (`[0]`, `[9]` with 3 sources, `[2a]`) are recorded as removed.
fn strip_markers(
    sentence: &str,
    n_sources: usize,
    removed: &mut Vec<RemovedCitation>,
) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(sentence.len());
    let mut found = Vec::new();
    let mut rest = sentence;
    while let Some(open) = rest.find('[') {
        let Some(close_rel) = rest[open..].find(']') else {
            break;
        };
        let inner = &rest[open + 1..open + close_rel];
        let looks_like_marker = !inner.is_empty()
            && inner
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == ' ' || c == '-' || c == '–');
        out.push_str(&rest[..open]);
        if looks_like_marker {
            for part in inner.split(',') {
                let part = part.trim();
                if part.is_empty() {
                    continue;
                }
                // ranges "1-3"
                let nums: Vec<Option<usize>> = if let Some((a, b)) = part.split_once(['-', '–']) {
                    match (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
                        (Ok(a), Ok(b)) if a <= b && b - a < 32 => (a..=b).map(Some).collect(),
                        _ => vec![None],
                    }
                } else {
                    vec![part.parse::<usize>().ok()]
                };
                for n in nums {
                    match n {
                        Some(n) if n >= 1 && n <= n_sources => found.push(n - 1),
                        _ => push_removed(
                            removed,
                            &format!("[{part}]"),
                            "Quellenverweis zeigt auf keine bereitgestellte Quelle",
                        ),
                    }
                }
            }
        } else {
            out.push_str(&rest[open..open + close_rel + 1]);
        }
        rest = &rest[open + close_rel + 1..];
    }
    out.push_str(rest);
    // collapse double spaces left by removed markers, and space before punctuation
    let mut collapsed = String::with_capacity(out.len());
    for w in out.split_whitespace() {
        if !collapsed.is_empty() && !matches!(w, "." | "," | ";" | ":" | "!" | "?") {
            collapsed.push(' ');
        }
        collapsed.push_str(w);
    }
    found.sort_unstable();
    found.dedup();
    (collapsed, found)
}

/// Split text into sentences at `.`, `!`, `?` followed by whitespace and an
/// upper-case letter/digit, and at line breaks. Abbreviations common in legal
/// German (`Art.`, `Abs.`, `Nr.`, `lit.`, `z. B.`, `S.`, `bzw.`, `ggf.`) do not
/// end a sentence.
pub fn split_sentences(text: &str) -> Vec<String> {
    const ABBREV: &[&str] = &[
        "art", "abs", "nr", "lit", "z", "b", "s", "bzw", "ggf", "vgl", "u", "a", "i", "d", "v",
        "ua", "etc", "ca", "buchst", "unterabs", "satz", "anh", "erwg", "dr", "gem", "sog", "inkl",
        "para", "e", "g", "no",
    ];
    let mut sentences = Vec::new();
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        let mut start = 0usize;
        let mut i = 0usize;
        while i < chars.len() {
            let c = chars[i];
            if matches!(c, '.' | '!' | '?') {
                // find next non-space
                let mut j = i + 1;
                // allow closing markers/quotes directly after punctuation
                while j < chars.len() && matches!(chars[j], ']' | ')' | '"' | '\'' | '“' | '”')
                {
                    j += 1;
                }
                let space_end = {
                    let mut k = j;
                    while k < chars.len() && chars[k].is_whitespace() {
                        k += 1;
                    }
                    k
                };
                let at_end = space_end >= chars.len();
                let next_starts = !at_end
                    && space_end > j
                    && (chars[space_end].is_uppercase()
                        || chars[space_end].is_ascii_digit()
                        || chars[space_end] == '[');
                let word: String = {
                    let mut k = i;
                    while k > start && chars[k - 1].is_alphabetic() {
                        k -= 1;
                    }
                    chars[k..i].iter().collect::<String>().to_lowercase()
                };
                let is_abbrev = c == '.' && ABBREV.contains(&word.as_str());
                // a marker group right after the full stop belongs to this sentence
                if (at_end || next_starts) && !is_abbrev {
                    let mut end = j;
                    // "[1]" after the punctuation: include it
                    if !at_end && chars[space_end] == '[' {
                        if let Some(close) = chars[space_end..].iter().position(|&ch| ch == ']') {
                            let inner: String =
                                chars[space_end + 1..space_end + close].iter().collect();
                            if inner
                                .chars()
                                .all(|ch| ch.is_ascii_digit() || ch == ',' || ch == ' ')
                            {
                                end = space_end + close + 1;
                            }
                        }
                    }
                    let s: String = chars[start..end].iter().collect();
                    if !s.trim().is_empty() {
                        sentences.push(s.trim().to_string());
                    }
                    start = end;
                    i = end;
                    continue;
                }
            }
            i += 1;
        }
        let s: String = chars[start..].iter().collect();
        if !s.trim().is_empty() {
            sentences.push(s.trim().to_string());
        }
    }
    sentences
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(norm: &str, class: SourceClass) -> Source {
        Source {
            norm: NormRef(norm.into()),
            citation: norm.into(),
            source_class: class,
        }
    }

    /// A tiny extractor for tests: finds `Art. N DSGVO` and `§ N BDSG`.
    fn extract(s: &str) -> Vec<NormRef> {
        let re = regex::Regex::new(r"(Art\. \d+ DSGVO|§ \d+ BDSG)").unwrap();
        re.find_iter(s)
            .map(|m| NormRef(m.as_str().to_string()))
            .collect()
    }

    fn retrieved(norms: &[&str]) -> BTreeSet<NormRef> {
        norms.iter().map(|n| NormRef(n.to_string())).collect()
    }

    #[test]
    fn valid_markers_pass_and_invalid_are_removed() {
        let sources = vec![
            src("Art. 37 DSGVO", SourceClass::BindingLaw),
            src("§ 38 BDSG", SourceClass::BindingLaw),
        ];
        let text = "Ein Datenschutzbeauftragter ist zu benennen, wenn die Kerntätigkeit eine umfangreiche Überwachung ist [1]. In Deutschland gilt zusätzlich die 20-Personen-Schwelle [2][7].";
        let out = gate(
            text,
            &sources,
            &retrieved(&["Art. 37 DSGVO", "§ 38 BDSG"]),
            &extract,
        );
        assert!(!out.answer.abstained);
        assert_eq!(out.answer.citations, vec!["Art. 37 DSGVO", "§ 38 BDSG"]);
        assert_eq!(out.answer.removed_citations.len(), 1);
        assert_eq!(out.answer.removed_citations[0].text, "[7]");
        assert!(!out.answer.text.contains("[7]"));
        assert!(out.answer.text.contains("[2]"));
    }

    #[test]
    fn fabricated_norm_is_removed_with_its_sentence() {
        let sources = vec![src("Art. 37 DSGVO", SourceClass::BindingLaw)];
        let text =
            "Die Benennung regelt Art. 37 DSGVO [1]. Ein Bußgeld droht nach Art. 124 DSGVO [1].";
        let out = gate(text, &sources, &retrieved(&["Art. 37 DSGVO"]), &extract);
        assert!(!out.answer.abstained);
        assert!(!out.answer.text.contains("Art. 124"));
        assert_eq!(out.dropped_sentences, 1);
        assert!(out
            .answer
            .removed_citations
            .iter()
            .any(|r| r.text == "Art. 124 DSGVO"));
    }

    #[test]
    fn uncited_sentences_are_marked() {
        let sources = vec![src("Art. 37 DSGVO", SourceClass::BindingLaw)];
        let text = "Art. 37 DSGVO regelt die Benennung. Das ist oft sinnvoll.";
        let out = gate(text, &sources, &retrieved(&["Art. 37 DSGVO"]), &extract);
        assert_eq!(out.unsupported_sentences, 1);
        assert!(out.answer.text.contains(UNSUPPORTED_MARK));
        assert!(out
            .answer
            .text
            .starts_with("Art. 37 DSGVO regelt die Benennung [1]."));
    }

    #[test]
    fn no_binding_support_abstains() {
        let sources = vec![src("ErwG 97 DSGVO", SourceClass::Recital)];
        let text = "Das steht so in den Erwägungsgründen [1].";
        let out = gate(text, &sources, &retrieved(&["ErwG 97 DSGVO"]), &extract);
        assert!(out.answer.abstained);
        assert!(out.answer.citations.is_empty());
        assert!(out.answer.text.starts_with("Keine belastbare Quelle"));
    }

    #[test]
    fn model_decline_abstains() {
        let sources = vec![src("Art. 37 DSGVO", SourceClass::BindingLaw)];
        let out = gate(
            "Keine belastbare Quelle vorhanden [1].",
            &sources,
            &retrieved(&["Art. 37 DSGVO"]),
            &extract,
        );
        assert!(out.answer.abstained);
    }

    #[test]
    fn sentence_split_respects_legal_abbreviations() {
        let s = split_sentences(
            "Nach Art. 37 Abs. 1 lit. b DSGVO gilt das. Außerdem z. B. § 38 BDSG [2]. Ende",
        );
        assert_eq!(s.len(), 3, "{s:?}");
        assert!(s[1].ends_with("[2]."), "{s:?}");
    }

    #[test]
    fn marker_ranges_and_lists() {
        let mut removed = Vec::new();
        let (clean, found) = strip_markers("Text [1, 3] und [2-3] und [Anm.]", 3, &mut removed);
        assert_eq!(found, vec![0, 1, 2]);
        assert!(removed.is_empty());
        assert_eq!(clean, "Text und und [Anm.]");
    }
}
