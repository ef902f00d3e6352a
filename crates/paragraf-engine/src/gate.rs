//! Citation gating (design "Grounded generation", seed 07 Ausbaustufe:
//! a finding counts only with **Quelle ∧ Scope ∧ Stichtag**).
//!
//! The model's text is gated sentence by sentence ([`Gate::sentence`]), so a
//! stream can pass each sentence on as soon as it is complete and judged; no
//! raw model text leaves the gate. A sentence is **kept** only when
//!
//! * every `[n]` marker points to one of the numbered sources given to the
//!   model (others are removed and listed in `removed_citations`);
//! * every norm it names was retrieved, is in the question's scope and in
//!   force at the question's date, and no law it cites is unknown to the
//!   corpus (`§ 202a StGB`) — otherwise the sentence is dropped and the
//!   citation listed with its reason;
//! * it rests on at least one source: its markers, the sources of the norms
//!   it names, or — for a sentence without either — the source holding most
//!   of its content terms ([`ATTRIBUTION_MIN_OVERLAP`]);
//! * every number it states occurs in a source it rests on; and
//! * enough of its content terms (the index analyzer: stop words out,
//!   Snowball stems, compounds split) occur in those sources
//!   ([`SUPPORT_MIN_OVERLAP`]).
//!
//! Every other sentence is dropped and listed with the reason — never kept
//! with a mark. When the model declines, or no sentence backed by a binding
//! source survives, [`GateOutcome::answer`] abstains with the reason; the
//! engine then quotes its evidence instead.
//!
//! The gate is pure: it sees the generated text, the sources, a norm
//! extractor and a term analyzer, so it is tested with scripted texts and no
//! model.

use paragraf_types::{AbstainReason, Answer, Lang, NormRef, RemovedCitation, SourceClass};
use std::collections::BTreeSet;

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

/// Fewest distinct content terms (the analyzer's output) a sentence needs
/// before the gate attributes it to a source by overlap: shorter sentences
/// ("Ja.") say too little to be checked against a source.
/// Pinned by `attribution_needs_enough_content_words`.
pub const ATTRIBUTION_MIN_WORDS: usize = 3;

/// Share of a sentence's distinct content terms that must occur in one
/// source's excerpt for the gate to attribute the sentence to that source
/// (the source with the largest share wins, ties by lower number).
/// Pinned by `unmarked_sentence_is_attributed_by_overlap`.
pub const ATTRIBUTION_MIN_OVERLAP: f64 = 0.6;

/// Share of a sentence's distinct content terms that must occur in the
/// sources it rests on (its markers, the norms it names); below it the
/// sentence says more than its sources and is dropped. A sentence with no
/// content term at all ("Ja [1].") states nothing and is dropped too.
/// Pinned by `a_cited_sentence_must_say_what_its_source_says`.
pub const SUPPORT_MIN_OVERLAP: f64 = 0.5;

/// Fewest words (tokens with a letter; norm labels such as `Art. 37` and
/// numbers do not count) a sentence of the model needs to be shown as a
/// statement of the answer: a bare number ("20 [1].") or a one-word
/// fragment is dropped, even when its number occurs in the source.
/// Pinned by `a_bare_number_or_fragment_is_not_a_sentence`.
pub const STATEMENT_MIN_WORDS: usize = 2;

/// One numbered source excerpt given to the model (`[n]` = index + 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub norm: NormRef,
    pub citation: String,
    pub source_class: SourceClass,
    /// The excerpt text as the prompt showed it.
    pub excerpt: String,
}

/// What the gate decided.
#[derive(Debug, Clone, PartialEq)]
pub struct GateOutcome {
    /// The kept sentences with their markers, or an abstention (model
    /// declined / nothing backed by a binding source).
    pub answer: Answer,
    /// Sentences kept.
    pub kept_sentences: usize,
    /// Sentences dropped (each with its reason in `removed_citations`).
    pub dropped_sentences: usize,
    /// Kept sentences without a marker that the gate attributed to a source
    /// by word overlap.
    pub attributed_sentences: usize,
}

/// The fixed abstention text in the question's language; `found` lists
/// what retrieval did find.
pub fn abstention_text(reason: AbstainReason, found: &[String], lang: Lang) -> String {
    let (head, found_head, ask) = match lang {
        Lang::De => (
            "Keine belastbare Quelle: Die Frage lässt sich mit den gefundenen Quellen nicht verlässlich beantworten",
            " Gefunden wurden: ",
            " Bitte durch eine fachkundige Person prüfen lassen.",
        ),
        Lang::En => (
            "No reliable source: the question cannot be answered reliably from the sources found",
            " Found: ",
            " Please have it checked by a qualified person.",
        ),
    };
    let mut s = format!("{head} ({}).", reason.text(lang));
    if !found.is_empty() {
        s.push_str(found_head);
        s.push_str(&found.join(", "));
        s.push('.');
    }
    s.push_str(ask);
    s
}

/// An abstaining answer with its reason and the fixed text in `lang`.
pub fn abstention(reason: AbstainReason, found: &[String], lang: Lang) -> Answer {
    Answer {
        text: abstention_text(reason, found, lang),
        abstained: true,
        abstain_reason: Some(reason),
        ..Answer::default()
    }
}

/// Analyzes text into content terms (the engine passes the index's
/// analyzer: stop words removed, stemmed, compounds split).
pub type TermFn<'a> = &'a dyn Fn(&str) -> Vec<String>;

/// How the gate recognises and judges the norms a sentence names (seed 07
/// Ausbaustufe: a finding counts only with **Quelle ∧ Scope ∧ Stichtag**).
pub struct NormChecks<'a> {
    /// Resolved norm references in a sentence (the corpus citation parser).
    pub extract: &'a dyn Fn(&str) -> Vec<NormRef>,
    /// Citations in a sentence whose law cannot be resolved at all
    /// (`§ 202a StGB`, `Art. 13 GG` when the corpus holds neither).
    pub unresolved: &'a dyn Fn(&str) -> Vec<String>,
    /// Why a retrieved norm may not be cited for this question — out of the
    /// question's scope, or not in force at the question's date; `None`
    /// when it may.
    pub inadmissible: &'a dyn Fn(&NormRef) -> Option<String>,
}

/// Citation-like spans (`§ 202a StGB`, `Art. 13 GG`, `Artikel 5 Absatz 1
/// BGB`) with the law abbreviation that follows the number.
pub fn citation_spans(sentence: &str) -> Vec<(String, String)> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"(?:§§?|Art\.|Artikel|Article)\s*\d+[a-z]?(?:\s*(?:Abs\.|Absatz|Satz|S\.|Nr\.|Nummer|lit\.|Buchst\.|UAbs\.|paragraph|point)\s*[0-9a-z]+\)?)*\s+(?:der\s+|des\s+|of\s+the\s+)?([A-ZÄÖÜ][A-Za-zÄÖÜäöüß\-]*[A-Z][A-Za-zÄÖÜäöüß\-]*)",
        )
        .expect("valid citation regex")
    });
    re.captures_iter(sentence)
        .filter_map(|c| {
            Some((
                c.get(0)?.as_str().to_string(),
                c.get(1)?.as_str().to_string(),
            ))
        })
        .collect()
}

/// The text without norm labels and pinpoints (`Art. 33`, `Abs. 1`,
/// `§ 26`), whose numbers are identities, not statements.
fn without_labels(text: &str) -> String {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"(?:§§?|Art\.|Artikel|Article|Abs\.|Absatz|Satz|S\.|Nr\.|Nummer|lit\.|Anhang|Annex|ErwG|Verordnung \(EU\)|Regulation \(EU\))\s*[0-9]+[a-z]?(?:/[0-9]+)?",
        )
        .expect("valid label regex")
    });
    re.replace_all(text, " ").into_owned()
}

/// Words of a sentence that can carry a statement: tokens with a letter,
/// norm labels and pinpoints left out (see [`STATEMENT_MIN_WORDS`]).
fn statement_words(text: &str) -> usize {
    without_labels(text)
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count()
}

/// Numbers a sentence states (`72`, `20 000 000`, `4`), digits only; norm
/// labels and pinpoints are left out.
fn numbers(text: &str) -> Vec<String> {
    let text = without_labels(text);
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_digit() {
            cur.push(c);
        } else if (c == ' ' || c == '.' || c == '\u{a0}')
            && !cur.is_empty()
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit())
            && chars.get(i + 4).is_none_or(|n| !n.is_ascii_digit())
            && chars[i + 1..].iter().take(3).all(|n| n.is_ascii_digit())
        {
            // thousands separator: "20 000 000", "20.000.000"
            continue;
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The source a sentence without markers restates, by content-term overlap
/// (see [`ATTRIBUTION_MIN_OVERLAP`]); `None` below the thresholds.
fn attribute(words: &BTreeSet<String>, source_terms: &[BTreeSet<String>]) -> Option<usize> {
    if words.len() < ATTRIBUTION_MIN_WORDS {
        return None;
    }
    let mut best: Option<(usize, usize)> = None; // (shared, index)
    for (i, source) in source_terms.iter().enumerate() {
        let shared = words.intersection(source).count();
        if best.is_none_or(|(b, _)| shared > b) {
            best = Some((shared, i));
        }
    }
    let (shared, i) = best?;
    (shared as f64 >= ATTRIBUTION_MIN_OVERLAP * words.len() as f64).then_some(i)
}

/// The citation gate over one answer, fed sentence by sentence.
pub struct Gate<'a> {
    sources: &'a [Source],
    retrieved: &'a BTreeSet<NormRef>,
    checks: &'a NormChecks<'a>,
    terms: TermFn<'a>,
    source_terms: Vec<BTreeSet<String>>,
    removed: Vec<RemovedCitation>,
    cited: BTreeSet<usize>,
    kept: Vec<String>,
    supported_binding: usize,
    dropped: usize,
    attributed: usize,
    /// Sentences judged so far (their place in the model's text).
    judged: usize,
    /// Everything fed so far (for the decline check).
    seen: String,
    /// The question's language: the language of the removal reasons and of
    /// the abstention text.
    lang: Lang,
}

impl<'a> Gate<'a> {
    /// A gate for the model's answer over `sources` (`[n]` = `sources[n-1]`);
    /// `retrieved` are the norms of all ranked results (a superset of the
    /// sources).
    pub fn new(
        sources: &'a [Source],
        retrieved: &'a BTreeSet<NormRef>,
        checks: &'a NormChecks<'a>,
        terms: TermFn<'a>,
    ) -> Gate<'a> {
        let source_terms = sources
            .iter()
            .map(|s| terms(&s.excerpt).into_iter().collect())
            .collect();
        Gate {
            sources,
            retrieved,
            checks,
            terms,
            source_terms,
            removed: Vec::new(),
            cited: BTreeSet::new(),
            kept: Vec::new(),
            supported_binding: 0,
            dropped: 0,
            attributed: 0,
            judged: 0,
            seen: String::new(),
            lang: Lang::De,
        }
    }

    /// The same gate writing its reasons and its abstention in `lang` (the
    /// question's language; German unless set).
    pub fn in_lang(mut self, lang: Lang) -> Gate<'a> {
        self.lang = lang;
        self
    }

    /// A removal reason in the gate's language.
    fn say(&self, de: &str, en: &str) -> String {
        match self.lang {
            Lang::De => de.to_string(),
            Lang::En => en.to_string(),
        }
    }

    /// Drop the current sentence for `reason`. The entry names the
    /// sentence by its place in the model's text, never by its words: what
    /// the gate removed does not leave the engine.
    fn drop_with(&mut self, reason: &str) -> Option<String> {
        let place = self.place();
        push_removed(&mut self.removed, &place, reason);
        self.dropped += 1;
        None
    }

    /// `Satz N der Modellantwort` (`sentence N of the model's answer`)
    /// for the sentence being judged.
    fn place(&self) -> String {
        match self.lang {
            Lang::De => format!("Satz {} der Modellantwort", self.judged),
            Lang::En => format!("sentence {} of the model's answer", self.judged),
        }
    }

    /// Judge one complete sentence of the model's text: the sentence as
    /// kept (markers normalised, attributed source added) or `None` when it
    /// is dropped (the reason is recorded).
    pub fn sentence(&mut self, sentence: &str) -> Option<String> {
        if !self.seen.is_empty() {
            self.seen.push(' ');
        }
        self.seen.push_str(sentence);
        let sources = self.sources;
        let (clean, markers) = strip_markers(sentence, sources.len(), &mut self.removed, self.lang);
        let clean = clean.trim().to_string();
        if clean.is_empty() || is_decline(&clean) {
            return None;
        }
        self.judged += 1;
        if statement_words(&clean) < STATEMENT_MIN_WORDS {
            let why = self.say(
                "kein vollständiger Satz (nur eine Zahl oder ein Bruchstück)",
                "not a complete sentence (only a number or a fragment)",
            );
            return self.drop_with(&why);
        }
        let named = (self.checks.extract)(&clean);
        let mut bad: Vec<String> = Vec::new();
        // Quelle: a law the engine cannot resolve is never a source
        if !(self.checks.unresolved)(&clean).is_empty() {
            bad.push(self.say(
                "nennt ein Gesetz, das nicht im Korpus ist (die Norm ist nicht überprüfbar)",
                "names a law that is not in the corpus (the provision cannot be checked)",
            ));
        }
        for n in &named {
            if !self.retrieved.contains(n) {
                // Quelle: the norm must be among the retrieved ones
                bad.push(self.say(
                    "nennt eine Norm, die nicht unter den gefundenen Quellen ist",
                    "names a provision that is not among the sources found",
                ));
            } else if let Some(why) = (self.checks.inadmissible)(n) {
                // Scope ∧ Stichtag
                bad.push(self.say(
                    &format!("nennt eine Norm {why}"),
                    &format!("names a provision {why}"),
                ));
            }
        }
        if !bad.is_empty() {
            let place = self.place();
            for why in &bad {
                push_removed(&mut self.removed, &place, why);
            }
            self.dropped += 1;
            return None;
        }
        // content terms: the norms it names are identities, not statements
        let mut words: BTreeSet<String> =
            (self.terms)(&without_labels(&clean)).into_iter().collect();
        for n in &named {
            for t in (self.terms)(n.as_str()) {
                words.remove(&t);
            }
        }
        // the sources the sentence rests on
        let mut support: BTreeSet<usize> = markers.into_iter().collect();
        for n in &named {
            if let Some(i) = sources.iter().position(|s| &s.norm == n) {
                support.insert(i);
            }
        }
        let mut attributed = false;
        if support.is_empty() {
            match attribute(&words, &self.source_terms) {
                Some(i) => {
                    support.insert(i);
                    attributed = true;
                }
                None => {
                    let why = self.say(
                        "Aussage ohne Beleg in den Quellen",
                        "a statement the sources do not back",
                    );
                    return self.drop_with(&why);
                }
            }
        }
        // every number the sentence states must occur in a source it rests on
        let backing: String = support
            .iter()
            .map(|&i| sources[i].excerpt.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let backed = numbers(&backing);
        let unbacked: Vec<String> = numbers(&clean)
            .into_iter()
            .filter(|n| !backed.contains(n))
            .collect();
        if !unbacked.is_empty() {
            let why = self.say(
                "nennt eine Zahl, die in keiner zitierten Quelle steht",
                "states a number that is in none of the cited sources",
            );
            return self.drop_with(&why);
        }
        // and what it says must be what they say
        let held: BTreeSet<&String> = support
            .iter()
            .flat_map(|&i| self.source_terms[i].iter())
            .collect();
        let shared = words.iter().filter(|w| held.contains(w)).count();
        if words.is_empty() || (shared as f64) < SUPPORT_MIN_OVERLAP * words.len() as f64 {
            let why = self.say(
                &format!(
                    "Aussage geht über die zitierte Quelle hinaus ({shared} von {} Begriffen belegt)",
                    words.len()
                ),
                &format!(
                    "the statement goes beyond the cited source ({shared} of {} terms backed)",
                    words.len()
                ),
            );
            return self.drop_with(&why);
        }
        if attributed {
            self.attributed += 1;
        }
        if support
            .iter()
            .any(|&i| sources[i].source_class.is_binding())
        {
            self.supported_binding += 1;
        }
        let refs: String = support.iter().map(|i| format!("[{}]", i + 1)).collect();
        let out = attach_markers(&clean, &refs);
        self.cited.extend(support);
        self.kept.push(out.clone());
        Some(out)
    }

    /// The outcome after the last sentence.
    pub fn finish(self) -> GateOutcome {
        let abstain_reason = if self.supported_binding > 0 {
            None
        } else if is_decline(&self.seen) {
            Some(AbstainReason::ModelDeclined)
        } else {
            Some(AbstainReason::NoSupportedStatement)
        };
        let answer = match abstain_reason {
            Some(reason) => {
                let found: Vec<String> = self.sources.iter().map(|s| s.citation.clone()).collect();
                Answer {
                    removed_citations: self.removed,
                    ..abstention(reason, &found, self.lang)
                }
            }
            None => Answer {
                text: self.kept.join(" "),
                citations: self
                    .cited
                    .iter()
                    .map(|&i| self.sources[i].norm.to_string())
                    .collect(),
                abstained: false,
                removed_citations: self.removed,
                ..Answer::default()
            },
        };
        GateOutcome {
            answer,
            kept_sentences: self.kept.len(),
            dropped_sentences: self.dropped,
            attributed_sentences: self.attributed,
        }
    }
}

fn is_decline(text: &str) -> bool {
    let lower = text.to_lowercase();
    DECLINE_PHRASES.iter().any(|p| lower.contains(p))
}

/// Gate a whole generated text (see [`Gate`]).
pub fn gate(
    text: &str,
    sources: &[Source],
    retrieved: &BTreeSet<NormRef>,
    checks: &NormChecks,
    terms: TermFn,
) -> GateOutcome {
    let mut g = Gate::new(sources, retrieved, checks, terms);
    for sentence in split_sentences(text) {
        g.sentence(&sentence);
    }
    g.finish()
}

/// Feeds streamed text to a [`Gate`] and hands on each sentence as soon as
/// it is complete and kept.
pub struct SentenceStream {
    buf: String,
}

impl SentenceStream {
    pub fn new() -> SentenceStream {
        SentenceStream { buf: String::new() }
    }

    /// Add streamed text; the complete sentences it closes are gated and
    /// the kept ones returned, in order.
    pub fn push(&mut self, piece: &str, gate: &mut Gate) -> Vec<String> {
        self.buf.push_str(piece);
        let mut parts = split_sentences(&self.buf);
        // the last part may still grow (a marker "[1]" may still follow the
        // full stop); the others are complete
        if parts.len() < 2 || parts.last().is_some_and(|l| l.starts_with('[')) {
            return Vec::new();
        }
        let last = parts.pop().unwrap_or_default();
        let mut kept = Vec::new();
        for p in parts {
            kept.extend(gate.sentence(&p));
        }
        // keep what follows the complete sentences (with a line break, if any)
        let tail_at = self.buf.rfind(last.as_str()).unwrap_or(0);
        self.buf = self.buf[tail_at..].to_string();
        kept
    }

    /// The end of the text: the rest is gated as the last sentence(s).
    pub fn finish(&mut self, gate: &mut Gate) -> Vec<String> {
        let rest = std::mem::take(&mut self.buf);
        split_sentences(&rest)
            .into_iter()
            .filter_map(|s| gate.sentence(&s))
            .collect()
    }
}

impl Default for SentenceStream {
    fn default() -> Self {
        SentenceStream::new()
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
    lang: Lang,
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
                            match lang {
                                Lang::De => "Quellenverweis zeigt auf keine bereitgestellte Quelle",
                                Lang::En => "the source marker points to no source given",
                            },
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
/// German and English month names: a number with a full stop before one is
/// a date, not a sentence end.
const MONTHS: &[&str] = &[
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
    "January",
    "February",
    "March",
    "May",
    "June",
    "July",
    "October",
    "December",
];

pub fn split_sentences(text: &str) -> Vec<String> {
    const ABBREV: &[&str] = &[
        "art", "abs", "nr", "lit", "z", "b", "s", "bzw", "ggf", "vgl", "u", "a", "i", "d", "v",
        "ua", "etc", "ca", "buchst", "unterabs", "satz", "anh", "erwg", "dr", "gem", "sog", "inkl",
        "para", "e", "g", "no", "bgbl", "abl", "nrn", "f", "ff",
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
                // a date such as "vom 14. August 2009" or an ordinal ("1. Januar")
                let is_date = c == '.' && i > 0 && chars[i - 1].is_ascii_digit() && !at_end && {
                    let next: String = chars[space_end..]
                        .iter()
                        .take_while(|ch| ch.is_alphabetic())
                        .collect();
                    MONTHS.contains(&next.as_str())
                };
                let is_abbrev = is_abbrev || is_date;
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
mod tests;
