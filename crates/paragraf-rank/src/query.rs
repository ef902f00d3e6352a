//! Query analysis (design 01, step 1): language, domains, jurisdictions,
//! intents, as-of, law-enforcement scope, topics — every feature with the
//! signal that fired it.

use crate::answer_type::AnswerType;
use crate::headings::HeadingMatch;
use crate::lexicon::{HeadingIntent, Lexicon, RegulationEntry, ScopeWhen};
use crate::text::{first_match, norm_key, tokens_with_variants, Pattern};
use paragraf_types::{Domain, Jurisdiction, Lang, NormRef};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One detected feature and the signal that fired it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signal {
    /// Feature name: `language`, `domain`, `jurisdiction`, `regulation`,
    /// `control_intent`, `guidance_intent`, `definition_intent`, `historical`,
    /// `as_of`, `law_enforcement`, `topic`, `explicit_ref`, `answer_type`
    /// (what the question asks for), `answer_norm` (a norm that states it).
    pub feature: String,
    /// The lexicon pattern (or rule) that fired, e.g. `*massnahme*`.
    pub signal: String,
    /// What it detected, e.g. `cyber`, `dpo → Art. 37 DSGVO, § 38 BDSG`, or
    /// the query words it matched.
    pub detail: String,
}

/// A half-open date interval `[from, until)` of ISO dates (`YYYY-MM-DD`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DateRange {
    pub from: String,
    pub until: String,
}

impl DateRange {
    /// Whether a source in force from `valid_from` through `valid_to` (both
    /// inclusive ISO dates, as in the source manifest: BDSG 1990 ends
    /// 2018-05-24, BDSG starts 2018-05-25; open when `None`) applies at some
    /// point of this range.
    pub fn overlaps(&self, valid_from: Option<&str>, valid_to: Option<&str>) -> bool {
        let starts_before_end = valid_from.is_none_or(|vf| vf < self.until.as_str());
        let ends_after_start = valid_to.is_none_or(|vt| self.from.as_str() <= vt);
        starts_before_end && ends_after_start
    }
}

/// The ISO day after `date` (`YYYY-MM-DD`); `None` when it is not such a date.
pub(crate) fn next_iso_day(date: &str) -> Option<String> {
    let mut it = date.split('-');
    let y: u32 = it.next()?.parse().ok()?;
    let m: u32 = it.next()?.parse().ok()?;
    let d: u32 = it.next()?.parse().ok()?;
    if it.next().is_some() || !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    Some(next_day(y, m, d))
}

/// As-of intent (08): a date (range) the question asks about and/or a named
/// superseded version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AsOf {
    /// The date the question asks about (`Stand 2017` → all of 2017;
    /// `bis 2018` → 2018-01-01; `vor 2018` → 2017-12-31; `am 1.3.2017`).
    pub date: Option<DateRange>,
    /// Canonical name of a superseded version the question names (`BDSG 1990`).
    pub version: Option<String>,
}

/// The jurisdictions of a question that names none: German and EU law
/// (seed 02). Any other is foreign to such a question (`foreignPenalty`).
pub const DEFAULT_JURISDICTIONS: [Jurisdiction; 2] = [Jurisdiction::De, Jurisdiction::Eu];

/// A scope rule active for this question (`scopePenalty`, seed 02).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveScopeRule {
    pub regulation: String,
    /// Inclusive § / article number range; `None` = the whole regulation.
    pub range: Option<(u32, u32)>,
    /// German reason for the explanation.
    pub reason: String,
}

/// Index of the first rule of `rules` that covers `norm` of `regulation`.
fn covering(rules: &[ActiveScopeRule], regulation: &str, norm: &str) -> Option<usize> {
    let number = crate::rank::norm_number(norm);
    rules.iter().position(|r| {
        r.regulation == regulation
            && r.range
                .is_none_or(|(a, b)| number.is_some_and(|n| a <= n && n <= b))
    })
}

/// Result of [`analyze_query`]; input of [`crate::rank`] and [`crate::assess`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryAnalysis {
    pub lang: Lang,
    /// Question domains (empty: no known domain matched).
    pub domains: Vec<Domain>,
    /// Jurisdictions of the question; `[DE, EU]` unless the question names others.
    pub jurisdictions: Vec<Jurisdiction>,
    /// Whether the question named a jurisdiction (or a regulation of one).
    pub jurisdiction_named: bool,
    /// Seed 05 `controlIntentSignals` fired.
    pub control_intent: bool,
    /// Seed 02 `guidanceIntentSignals` fired (interpretation intent).
    pub guidance_intent: bool,
    /// The question asks what a term means (→ definitions norms as topic norms).
    pub definition_intent: bool,
    /// The question asks when a law starts to apply (`[application_intent]`:
    /// the caller gives `topicGain` to the named laws' norms headed so,
    /// [`crate::headings::HeadingTable::intent_matches`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub application_intent: bool,
    /// Under application intent: the named laws' norms on when they apply
    /// (also in `heading_matches`); they state the date a deadline question
    /// asks for (`answerTypeGain`). Set by the caller.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub application_norms: Vec<NormRef>,
    /// The question asks whom or what a named law covers (`[scope_intent]`:
    /// the caller gives `topicGain` to its norms headed „Anwendungsbereich“,
    /// "Scope", „Verpflichtete“).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub scope_intent: bool,
    /// The question asks what follows from breaking a law
    /// (`[consequence_intent]`: fines, criminal provisions, damages,
    /// liability; the caller gives `topicGain` to the norms of the named or
    /// detected laws headed so).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub consequence_intent: bool,
    /// Under consequence intent: the kinds the question names
    /// (`[[consequence_kind]]` ids: fines, criminal, damages); empty when it
    /// names none („Was passiert, wenn …“: every kind).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consequence_kinds: Vec<String>,
    /// The question asks what a named law is about (`[purpose_intent]`: the
    /// caller gives `topicGain` to its norm headed „Gegenstand“, „Ziel“,
    /// "Subject matter").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub purpose_intent: bool,
    /// The question asks for an exception or a restriction
    /// (`[exception_intent]`: „ohne Einwilligung“, „Ausnahme“, "exempt"): a
    /// norm that excepts another is not set aside for it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exception_intent: bool,
    pub as_of: Option<AsOf>,
    /// Historical / as-of intent (08).
    pub historical: bool,
    /// Law-enforcement scope: BDSG Teil 3 / JI-RL in scope, no scopePenalty.
    pub law_enforcement: bool,
    /// The question names a country outside the EU that the corpus has no law
    /// of: a third country for the EU acts (`[third_country]`; the engine
    /// searches the law's word for it too).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub third_country: bool,
    /// Categories a law defines that the question names an instance of
    /// (`[[category]]`: a vaccination status, a sick note → health data).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// The law's words for those categories („Gesundheitsdaten“, "data
    /// concerning health"), each with its language: the engine analyses and
    /// searches them beside the question's own terms.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub category_terms: Vec<(Lang, String)>,
    /// Norms cited in the question (from the corpus crate's citation parser).
    pub explicit_refs: Vec<NormRef>,
    /// Canonical norms of the detected topics (`topicGain`).
    pub topic_norms: Vec<NormRef>,
    /// Ids of the detected topics.
    pub topics: Vec<String>,
    /// Norms named by the law's own words: strong heading matches and
    /// defined terms under definition intent (`topicGain`, like a topic;
    /// [`crate::headings`]). Filled by the caller, which owns the index's
    /// analyzer, through [`QueryAnalysis::add_heading_matches`].
    #[serde(default)]
    pub heading_matches: Vec<HeadingMatch>,
    /// Laws the question names by their own title's words
    /// (`lawTitleGain`; [`crate::headings::HeadingTable::law_matches`]),
    /// filled by the caller like `heading_matches`.
    #[serde(default)]
    pub law_matches: Vec<crate::headings::LawMatch>,
    /// The question's analysed terms (the index analyzer's output) plus
    /// their translations; what lexical retrieval searches. Empty until the
    /// caller sets them ([`QueryAnalysis::set_query_terms`]).
    #[serde(default)]
    pub query_terms: Vec<String>,
    /// The terms of `query_terms` that came from the bilingual term table.
    #[serde(default)]
    pub translated_terms: Vec<String>,
    /// German synonyms of the question's words that a heading holds
    /// (OpenThesaurus): lexical retrieval adds them at `synonymBm25Weight`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synonym_terms: Vec<String>,
    /// The kinds of fact the question asks for (`[answer_type]` of the
    /// lexicon, [`crate::answer_type`]): a deadline, an amount, an age, a
    /// head count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answer_types: Vec<AnswerType>,
    /// Norms among the candidates that state a fact of an asked type, with
    /// that type (`answerTypeGain`); filled by the caller, which owns the
    /// norms' texts ([`QueryAnalysis::add_answer_norms`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answer_norms: Vec<(NormRef, AnswerType)>,
    /// Canonical names of regulations the question names.
    pub regulations: Vec<String>,
    /// Scope rules that apply to this question.
    pub scope_rules: Vec<ActiveScopeRule>,
    /// Norm ranges whose own scope the question has (`scopeMatchGain`): the
    /// ranges a general question penalises, at a law-enforcement question.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scope_matches: Vec<ActiveScopeRule>,
    /// Regulation → regime (family) of the lexicon, for cross-regime (06).
    pub regimes: BTreeMap<String, String>,
    /// Every detected feature with the signal that fired it.
    pub signals: Vec<Signal>,
}

impl Default for QueryAnalysis {
    /// A plain DE/EU question without any detected feature.
    fn default() -> Self {
        QueryAnalysis {
            lang: Lang::De,
            domains: Vec::new(),
            jurisdictions: DEFAULT_JURISDICTIONS.to_vec(),
            jurisdiction_named: false,
            control_intent: false,
            guidance_intent: false,
            definition_intent: false,
            application_intent: false,
            application_norms: Vec::new(),
            scope_intent: false,
            consequence_intent: false,
            consequence_kinds: Vec::new(),
            purpose_intent: false,
            exception_intent: false,
            as_of: None,
            historical: false,
            law_enforcement: false,
            third_country: false,
            categories: Vec::new(),
            category_terms: Vec::new(),
            explicit_refs: Vec::new(),
            topic_norms: Vec::new(),
            topics: Vec::new(),
            heading_matches: Vec::new(),
            law_matches: Vec::new(),
            query_terms: Vec::new(),
            translated_terms: Vec::new(),
            synonym_terms: Vec::new(),
            answer_types: Vec::new(),
            answer_norms: Vec::new(),
            regulations: Vec::new(),
            scope_rules: Vec::new(),
            scope_matches: Vec::new(),
            regimes: BTreeMap::new(),
            signals: Vec::new(),
        }
    }
}

impl QueryAnalysis {
    /// Regime of a regulation (its own name when unknown).
    pub fn regime_of<'a>(&'a self, regulation: &'a str) -> &'a str {
        self.regimes
            .get(regulation)
            .map(String::as_str)
            .unwrap_or(regulation)
    }

    /// The foreign jurisdictions the question names („in der Schweiz“,
    /// "UK GDPR"): named, and neither a default one (DE/EU) nor
    /// international. Empty for a question that names none.
    pub fn named_foreign_jurisdictions(&self) -> Vec<Jurisdiction> {
        if !self.jurisdiction_named {
            return Vec::new();
        }
        self.jurisdictions
            .iter()
            .copied()
            .filter(|j| !DEFAULT_JURISDICTIONS.contains(j) && *j != Jurisdiction::Int)
            .collect()
    }

    /// Record the norms that state a fact of an asked answer type (a norm
    /// is kept once) and one `answer_norm` signal per type with their
    /// number; each result's explanation names its own.
    pub fn add_answer_norms(&mut self, norms: Vec<(NormRef, AnswerType)>) {
        let mut counts: BTreeMap<AnswerType, usize> = BTreeMap::new();
        for (n, k) in norms {
            if self.answer_norms.iter().any(|(m, _)| m == &n) {
                continue;
            }
            *counts.entry(k).or_default() += 1;
            self.answer_norms.push((n, k));
        }
        for (k, c) in counts {
            self.push(
                "answer_norm",
                k.as_str(),
                format!("{c} Normen unter den Kandidaten nennen {}", k.label_de()),
            );
        }
    }

    /// Index of the active scope rule that covers `norm` (`§ 75`, `Art. 2`)
    /// of `regulation`, if any (`scopePenalty`, seed 02; the gate's Scope).
    pub fn scope_rule_for(&self, regulation: &str, norm: &str) -> Option<usize> {
        covering(&self.scope_rules, regulation, norm)
    }

    /// Index of the scope match that covers `norm` of `regulation`, if any
    /// (`scopeMatchGain`).
    pub fn scope_match_for(&self, regulation: &str, norm: &str) -> Option<usize> {
        if self.scope_matches.is_empty() {
            return None;
        }
        covering(&self.scope_matches, regulation, norm)
    }

    /// Record heading / defined-term matches (each becomes a `heading`
    /// signal); a norm already matched is kept once.
    /// Record the laws the question names by title (one match per law).
    pub fn add_law_matches(&mut self, matches: Vec<crate::headings::LawMatch>) {
        for m in matches {
            if self
                .law_matches
                .iter()
                .any(|x| x.regulation == m.regulation)
            {
                continue;
            }
            self.push(
                "law_title",
                &m.title,
                format!("{} ← {}", m.regulation, m.terms.join(" ")),
            );
            self.law_matches.push(m);
        }
    }

    pub fn add_heading_matches(&mut self, matches: Vec<HeadingMatch>) {
        for m in matches {
            if self.heading_matches.iter().any(|x| x.norm == m.norm) {
                continue;
            }
            self.push(
                "heading",
                &m.heading,
                format!("{} ← {}", m.norm, m.terms.join(" ")),
            );
            self.heading_matches.push(m);
        }
    }

    /// Set the analysed terms lexical retrieval searches, and which of them
    /// are translations (recorded as a `translation` signal).
    pub fn set_query_terms(&mut self, terms: Vec<String>, translated: Vec<String>) {
        if !translated.is_empty() {
            self.push("translation", "terms_de_en", translated.join(" "));
        }
        self.query_terms = terms;
        self.translated_terms = translated;
    }

    /// Set the synonyms lexical retrieval adds (recorded as a `synonyms` signal).
    pub fn set_synonym_terms(&mut self, synonyms: Vec<String>) {
        if !synonyms.is_empty() {
            self.push("synonyms", "synonyms_de", synonyms.join(" "));
        }
        self.synonym_terms = synonyms;
    }

    /// Take topic norms out of `topic_norms` (no `topicGain`), saying why in
    /// the signals (e.g. [`crate::headings::definition_topics_set_aside`]).
    pub fn set_aside_topic_norms(&mut self, norms: &[NormRef], why: &str) {
        if norms.is_empty() {
            return;
        }
        self.topic_norms.retain(|n| !norms.contains(n));
        let list: Vec<&str> = norms.iter().map(NormRef::as_str).collect();
        self.push("topic_set_aside", why, list.join(", "));
    }

    fn push(&mut self, feature: &str, signal: &str, detail: impl Into<String>) {
        self.signals.push(Signal {
            feature: feature.to_string(),
            signal: signal.to_string(),
            detail: detail.into(),
        });
    }
}

fn is_year(t: &str) -> Option<u32> {
    if t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit()) {
        let y: u32 = t.parse().ok()?;
        (1900..=2099).contains(&y).then_some(y)
    } else {
        None
    }
}

fn small_num(t: &str, max: u32) -> Option<u32> {
    if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: u32 = t.parse().ok()?;
    (1..=max).contains(&v).then_some(v)
}

fn days_in_month(y: u32, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn iso(y: u32, m: u32, d: u32) -> String {
    format!("{y:04}-{m:02}-{d:02}")
}

fn next_day(y: u32, m: u32, d: u32) -> String {
    if d < days_in_month(y, m) {
        iso(y, m, d + 1)
    } else if m < 12 {
        iso(y, m + 1, 1)
    } else {
        iso(y + 1, 1, 1)
    }
}

/// Prepositions that make a following year/date an as-of date.
const DATE_PREPOSITIONS: &[&str] = &[
    "bis", "vor", "stand", "von", "jahr", "jahre", "in", "am", "zum", "seit", "ab", "until",
    "before", "of",
];

/// Find `[preposition] (dd mm yyyy | yyyy [mm dd] | yyyy)` in the tokens.
fn parse_as_of_date(toks: &[String]) -> Option<(DateRange, String)> {
    for (i, t) in toks.iter().enumerate() {
        let Some(y) = is_year(t) else { continue };
        // dd.mm.yyyy
        let dm = if i >= 2 {
            match (small_num(&toks[i - 2], 31), small_num(&toks[i - 1], 12)) {
                (Some(d), Some(m)) if d <= days_in_month(y, m) => Some((d, m, i - 2)),
                _ => None,
            }
        } else {
            None
        };
        // yyyy-mm-dd
        let iso_md = match (toks.get(i + 1), toks.get(i + 2)) {
            (Some(a), Some(b)) if a.len() == 2 && b.len() == 2 => {
                match (small_num(a, 12), small_num(b, 31)) {
                    (Some(m), Some(d)) if d <= days_in_month(y, m) => Some((d, m)),
                    _ => None,
                }
            }
            _ => None,
        };
        let start = dm.map(|x| x.2).unwrap_or(i);
        let prep = if start > 0 {
            toks[start - 1].as_str()
        } else {
            ""
        };
        let has_prep = DATE_PREPOSITIONS.contains(&prep);
        let (day, month) = match (dm, iso_md) {
            (Some((d, m, _)), _) => (Some(d), Some(m)),
            (None, Some((d, m))) => (Some(d), Some(m)),
            _ => (None, None),
        };
        // A bare year without preposition (e.g. `2016/679`) is no as-of date;
        // a full date is one by itself.
        if !has_prep && day.is_none() {
            continue;
        }
        let range = match (day, month) {
            (Some(d), Some(m)) => DateRange {
                from: iso(y, m, d),
                until: next_day(y, m, d),
            },
            _ => match prep {
                "bis" | "until" => DateRange {
                    from: iso(y, 1, 1),
                    until: iso(y, 1, 2),
                },
                "vor" | "before" => DateRange {
                    from: iso(y.saturating_sub(1), 12, 31),
                    until: iso(y, 1, 1),
                },
                _ => DateRange {
                    from: iso(y, 1, 1),
                    until: iso(y + 1, 1, 1),
                },
            },
        };
        let matched = toks[start.saturating_sub(usize::from(has_prep))..=i].join(" ");
        return Some((range, matched));
    }
    None
}

/// Whether a heading intent fires: one of its signals, or a `together` group
/// whole, and none of its `unless` patterns (the signal's source and words).
fn heading_intent(intent: &HeadingIntent, toks: &[String]) -> Option<(String, String)> {
    if intent.unless.iter().any(|p| p.matches(toks)) {
        return None;
    }
    first_match(&intent.signals, toks)
        .map(|(p, words)| (p.source.clone(), words))
        .or_else(|| {
            together_match(&intent.together, toks).map(|src| (src.clone(), src.replace(" + ", " ")))
        })
}

/// The first `together` group whose patterns all match, as `a + b` (the
/// signal recorded for it).
fn together_match(groups: &[Vec<Pattern>], toks: &[String]) -> Option<String> {
    groups
        .iter()
        .find(|g| !g.is_empty() && g.iter().all(|p| p.matches(toks)))
        .map(|g| {
            let src: Vec<&str> = g.iter().map(|p| p.source.as_str()).collect();
            src.join(" + ")
        })
}

fn push_unique<T: PartialEq>(v: &mut Vec<T>, x: T) -> bool {
    if v.contains(&x) {
        false
    } else {
        v.push(x);
        true
    }
}

/// Analyse a question with the lexicon. `explicit_refs` are the norms the
/// corpus crate's citation parser found in the query; they are recorded as
/// signals, and their regulations count as named (domain, jurisdiction).
/// Whether every occurrence of the words `short` in `toks` lies inside an
/// occurrence of the longer words `long` (both as matched, space-separated).
fn inside_only(toks: &[String], short: &str, long: &str) -> bool {
    if long.split(' ').count() <= short.split(' ').count() {
        return false;
    }
    let text = format!(" {} ", toks.join(" "));
    let count = |w: &str| text.matches(&format!(" {w} ")).count();
    let inner = format!(" {long} ").matches(&format!(" {short} ")).count();
    inner > 0 && count(short) <= count(long) * inner
}

/// Opening and closing quotation marks of German, English, French/Swiss
/// typography and ASCII.
const OPENING_QUOTES: &[char] = &['„', '“', '"', '«', '»', '‘', '‚', '‹', '›'];
const CLOSING_QUOTES: &[char] = &['“', '”', '"', '»', '«', '’', '‘', '‹', '›'];
/// The longest quoted term read as a term of art (words).
const QUOTED_TERM_MAX_WORDS: usize = 6;

/// A question that asks what a quoted term means: the words before the
/// first quotation mark are a definition frame of the lexicon
/// (`quoted_frames`: „Was ist“, „Wer ist“, "What is"), optionally followed by
/// fillers (articles, „mit dem“), and the quote holds a term of at most
/// `QUOTED_TERM_MAX_WORDS` words („Was ist eine „wesentliche
/// Einrichtung“?“, "What is a ‘connected product’?", „Was ist mit dem
/// «Bearbeitungsverzeichnis» gemeint?“). Quotation marks are how people
/// name a term of art; a quote elsewhere in a question („Was ist bei einer
/// „Datenpanne“ zu tun?“) is no such frame. Returns the frame, the term and
/// whether the term names a law (then the question asks what the law is
/// about: "What is “Law Enforcement Directive”?").
fn quoted_term(query: &str, lex: &Lexicon) -> Option<(String, String, bool)> {
    let open = query.find(OPENING_QUOTES)?;
    let rest = &query[open..];
    let first = rest.chars().next()?;
    let inner = &rest[first.len_utf8()..];
    let close = inner.find(CLOSING_QUOTES)?;
    let term = inner[..close].trim();
    let words = term.split_whitespace().count();
    if words == 0 || words > QUOTED_TERM_MAX_WORDS {
        return None;
    }
    let mut before = crate::text::tokens(&query[..open], false);
    while before
        .last()
        .is_some_and(|w| lex.quoted_fillers.contains(w))
    {
        before.pop();
    }
    let frame = lex.quoted_frames.iter().find(|f| **f == before)?;
    let term_toks = tokens_with_variants(term);
    let names_law = lex
        .regulations
        .iter()
        .any(|r| first_match(&r.aliases, &term_toks).is_some());
    Some((frame.join(" "), term.to_string(), names_law))
}

pub fn analyze_query(query: &str, explicit_refs: &[NormRef], lex: &Lexicon) -> QueryAnalysis {
    analyze_query_with(query, explicit_refs, lex, true)
}

/// [`analyze_query`], with the hand-written lexicon topics only when
/// `hand_topics` (`false`: the eval's "hand topics off" ablation — `topicGain`
/// then comes only from headings, defined terms, definition intent and
/// explicit references).
pub fn analyze_query_with(
    query: &str,
    explicit_refs: &[NormRef],
    lex: &Lexicon,
    hand_topics: bool,
) -> QueryAnalysis {
    let toks = tokens_with_variants(query);
    let mut q = QueryAnalysis {
        jurisdictions: Vec::new(),
        explicit_refs: Vec::new(),
        ..QueryAnalysis::default()
    };
    q.regimes = lex
        .regulations
        .iter()
        .map(|r| (r.name.clone(), r.regime.clone()))
        .collect();

    // language: marker words; umlauts/ß count for German
    let de = lex.lang_de.iter().filter(|p| p.matches(&toks)).count()
        + usize::from(query.chars().any(|c| "äöüÄÖÜß".contains(c))) * 2;
    let en = lex.lang_en.iter().filter(|p| p.matches(&toks)).count();
    q.lang = if en > de { Lang::En } else { Lang::De };
    q.push(
        "language",
        "marker_words",
        format!("{} (de {de}, en {en})", q.lang),
    );

    // regulations named in the question, and those of explicit references
    let mut named_juris: Vec<Jurisdiction> = Vec::new();
    let named: Vec<(&RegulationEntry, &Pattern, String)> = lex
        .regulations
        .iter()
        .filter_map(|r| first_match(&r.aliases, &toks).map(|(p, words)| (r, p, words)))
        .collect();
    for (r, p, words) in &named {
        // a name inside a longer name of another law is that law's („gdpr“
        // in „UK GDPR“): it names its own law only where it also stands alone
        if named
            .iter()
            .any(|(o, _, longer)| o.name != r.name && inside_only(&toks, words, longer))
        {
            continue;
        }
        q.regulations.push(r.name.clone());
        q.push("regulation", &p.source, format!("{} ({words})", r.name));
        if r.jurisdiction != Jurisdiction::Int {
            push_unique(&mut named_juris, r.jurisdiction);
        }
    }
    for nr in explicit_refs {
        if !q.explicit_refs.contains(nr) {
            q.explicit_refs.push(nr.clone());
            q.push("explicit_ref", "citation_parser", nr.as_str());
        }
        if let Some(r) = lex.regulation_of_norm(nr) {
            if push_unique(&mut q.regulations, r.name.clone()) {
                q.push("regulation", "explicit_ref", format!("{} ({nr})", r.name));
            }
            if r.jurisdiction != Jurisdiction::Int {
                push_unique(&mut named_juris, r.jurisdiction);
            }
        }
    }

    // domains: lexicon signals, then the domains of named regulations
    for d in &lex.domains {
        let kept: Vec<String>;
        let toks: &[String] = if d.except.is_empty() {
            &toks
        } else {
            kept = toks
                .iter()
                .map(|t| {
                    let one = std::slice::from_ref(t);
                    if d.except.iter().any(|e| e.matches(one)) {
                        String::new() // matches no pattern token
                    } else {
                        t.clone()
                    }
                })
                .collect();
            &kept
        };
        if let Some((p, words)) = first_match(&d.signals, toks) {
            if push_unique(&mut q.domains, d.domain) {
                q.push("domain", &p.source, format!("{} ({words})", d.domain));
            }
        } else if let Some(src) = together_match(&d.together, toks) {
            if push_unique(&mut q.domains, d.domain) {
                q.push("domain", &src, d.domain.as_str());
            }
        }
    }
    for name in q.regulations.clone() {
        if let Some(r) = lex.regulation(&name) {
            for d in &r.domains {
                if push_unique(&mut q.domains, *d) {
                    q.push("domain", &format!("regulation:{name}"), d.as_str());
                }
            }
        }
    }

    // jurisdictions: named countries and named regulations; default DE/EU
    for j in &lex.jurisdictions {
        if let Some((p, words)) = first_match(&j.signals, &toks) {
            push_unique(&mut named_juris, j.code);
            q.push("jurisdiction", &p.source, format!("{} ({words})", j.code));
        }
    }
    if named_juris.is_empty() {
        q.jurisdictions = DEFAULT_JURISDICTIONS.to_vec();
        q.push("jurisdiction", "default", "DE, EU");
    } else {
        q.jurisdiction_named = true;
        // DE and EU are one home: naming either (DSGVO, BDSG) keeps both.
        if named_juris.iter().any(|j| j.is_home()) {
            push_unique(&mut named_juris, Jurisdiction::De);
            push_unique(&mut named_juris, Jurisdiction::Eu);
        }
        named_juris.sort();
        q.jurisdictions = named_juris;
    }

    // intents
    if let Some((p, words)) = first_match(&lex.control_intent, &toks) {
        q.control_intent = true;
        q.push("control_intent", &p.source, words);
    }
    // an authority the question reports to („beim BSI melden“) is no
    // source of guidance: its name does not count as a guidance signal
    let addressed: Vec<&str> = lex
        .guidance_addressed
        .iter()
        .filter(|(p, _)| p.matches(&toks))
        .map(|(_, s)| s.as_str())
        .collect();
    let guidance = lex
        .guidance_intent
        .iter()
        .filter(|p| !addressed.contains(&p.source.as_str()))
        .find_map(|p| first_match(std::slice::from_ref(p), &toks));
    if let Some((p, words)) = guidance {
        q.guidance_intent = true;
        q.push("guidance_intent", &p.source, words);
    }
    if let Some((p, words)) = first_match(&lex.law_enforcement, &toks) {
        q.law_enforcement = true;
        q.push("law_enforcement", &p.source, words);
    }
    if let Some((p, words)) = first_match(&lex.third_country, &toks) {
        q.third_country = true;
        q.push("third_country", &p.source, words);
    }

    // historical / as-of
    if let Some((p, words)) = first_match(&lex.historical, &toks) {
        q.historical = true;
        q.push("historical", &p.source, words);
    }
    let version = q
        .regulations
        .iter()
        .find(|n| lex.regulation(n).is_some_and(|r| r.historical))
        .cloned();
    let date = parse_as_of_date(&toks);
    if let Some((range, words)) = &date {
        q.push(
            "as_of",
            "date",
            format!("[{}, {}) ({words})", range.from, range.until),
        );
    }
    if let Some(v) = &version {
        q.push("as_of", "historical_version", v.clone());
    }
    if date.is_some() || version.is_some() {
        q.historical = true;
        q.as_of = Some(AsOf {
            date: date.map(|d| d.0),
            version,
        });
    }

    // topics
    let mut fired: Vec<(usize, String)> = Vec::new();
    let topics = if hand_topics {
        lex.topics.as_slice()
    } else {
        &[]
    };
    for (ti, t) in topics.iter().enumerate() {
        let Some((p, words)) = first_match(&t.signals, &toks) else {
            continue;
        };
        if !t.require.is_empty() && first_match(&t.require, &toks).is_none() {
            continue;
        }
        if first_match(&t.unless, &toks).is_some() {
            continue;
        }
        if let Some(d) = t.when_domain {
            if !q.domains.contains(&d) {
                continue;
            }
        }
        match t.scope {
            Some(ScopeWhen::General) if q.law_enforcement => continue,
            Some(ScopeWhen::LawEnforcement) if !q.law_enforcement => continue,
            _ => {}
        }
        fired.push((ti, format!("{} ({words})", p.source)));
    }
    let suppressed: BTreeSet<&str> = fired
        .iter()
        .flat_map(|(ti, _)| lex.topics[*ti].suppresses.iter().map(String::as_str))
        .collect();
    let mut norm_keys: BTreeSet<String> = BTreeSet::new();
    for (ti, sig) in fired {
        let t = &lex.topics[ti];
        if suppressed.contains(t.id.as_str()) {
            continue;
        }
        q.topics.push(t.id.clone());
        for n in &t.norms {
            if norm_keys.insert(norm_key(n.as_str())) {
                q.topic_norms.push(n.clone());
            }
        }
        let list: Vec<&str> = t.norms.iter().map(NormRef::as_str).collect();
        q.push("topic", &sig, format!("{} → {}", t.id, list.join(", ")));
        // a fired topic names the field the question is about: the domains
        // of its canonical norms join the question's (a bank's automated
        // credit refusal is a data-protection question too, so Art. 22 DSGVO
        // is not off-domain beside the GwG)
        for &d in &t.domains {
            if push_unique(&mut q.domains, d) {
                q.push("domain", &format!("topic:{}", t.id), d.as_str());
            }
        }
    }

    // categories a law defines, named by an instance: the law's words for
    // the category are searched too (with hand topics off as well: they are
    // the law's own words); with hand topics its norms get topicGain
    for c in &lex.categories {
        let Some((p, words)) = first_match(&c.instances, &toks) else {
            continue;
        };
        if first_match(&c.unless, &toks).is_some() {
            continue;
        }
        q.categories.push(c.id.clone());
        for t in &c.terms {
            if !q.category_terms.contains(t) {
                q.category_terms.push(t.clone());
            }
        }
        let terms: Vec<&str> = c.terms.iter().map(|(_, t)| t.as_str()).collect();
        q.push(
            "category",
            &format!("{} ({})", c.id, c.defined_in),
            format!("{} ({words}) → {}", p.source, terms.join(", ")),
        );
        if hand_topics {
            for n in &c.norms {
                if norm_keys.insert(norm_key(n.as_str())) {
                    q.topic_norms.push(n.clone());
                }
            }
        }
        // the law that defines the category names the question's field:
        // a colleague's state of health is a data-protection question too
        if let Some(r) = lex.regulation_of_norm(&c.defined_in) {
            for &d in &r.domains {
                if push_unique(&mut q.domains, d) {
                    q.push("domain", &format!("category:{}", c.id), d.as_str());
                }
            }
        }
    }

    // a question about a jurisdiction whose law keeps another law's
    // numbering (the UK GDPR the GDPR's) or has a concordance with it (the
    // revDSG): the topics' norms of that law have twins there
    if q.jurisdiction_named && !q.jurisdictions.iter().any(|j| j.is_home()) {
        let juris = q.jurisdictions.clone();
        for r in lex
            .regulations
            .iter()
            .filter(|r| juris.contains(&r.jurisdiction))
        {
            // the other law, and per label of it this law's labels
            let (like, pairs): (&String, Option<&[(String, String)]>) =
                match (&r.numbered_like, &r.concordance) {
                    (Some(like), _) => (like, None),
                    (None, Some((like, pairs))) => (like, Some(pairs)),
                    (None, None) => continue,
                };
            let mut twins: Vec<NormRef> = Vec::new();
            for label in q
                .topic_norms
                .iter()
                .filter(|n| n.is_of(like))
                .filter_map(|n| n.0.strip_suffix(like.as_str()))
                .map(str::trim_end)
            {
                match pairs {
                    None => twins.push(NormRef::new(label, &r.name)),
                    Some(pairs) => twins.extend(
                        pairs
                            .iter()
                            .filter(|(a, _)| a == label)
                            .map(|(_, b)| NormRef::new(b, &r.name)),
                    ),
                }
            }
            let list: Vec<&str> = twins.iter().map(NormRef::as_str).collect();
            if !twins.is_empty() {
                q.push(
                    "twin_norms",
                    &r.name,
                    format!("{like} → {}", list.join(", ")),
                );
            }
            for n in twins {
                if norm_keys.insert(norm_key(n.as_str())) {
                    q.topic_norms.push(n);
                }
            }
        }
    }

    // definition intent → definitions norms of the named regulations (else of the domains)
    let quoted = quoted_term(query, lex);
    let quoted_law = quoted
        .as_ref()
        .filter(|(_, _, law)| *law)
        .map(|(frame, term, _)| format!("{frame} „{term}“"));
    let definition = first_match(&lex.definition_intent, &toks)
        .map(|(p, words)| (p.source.clone(), words))
        .or_else(|| {
            quoted
                .filter(|(_, _, law)| !law)
                .map(|(frame, term, _)| ("quoted_frames".to_string(), format!("{frame} „{term}“")))
        });
    if let Some((source, words)) = definition {
        q.definition_intent = true;
        let mut defs: Vec<NormRef> = q
            .regulations
            .iter()
            .filter_map(|n| lex.regulation(n))
            .filter_map(|r| r.definitions.as_ref().map(|d| NormRef::new(d, &r.name)))
            .collect();
        if defs.is_empty() {
            defs = lex
                .domains
                .iter()
                .filter(|d| q.domains.contains(&d.domain))
                .flat_map(|d| d.definitions.iter().cloned())
                .collect();
        }
        let list: Vec<&str> = defs.iter().map(NormRef::as_str).collect();
        q.push(
            "definition_intent",
            &source,
            format!("{words} → {}", list.join(", ")),
        );
        for n in defs {
            if norm_keys.insert(norm_key(n.as_str())) {
                q.topic_norms.push(n);
            }
        }
    }

    // application intent: when the named law starts to apply (never with
    // definition intent: „gilt als“ asks what a word means)
    if !q.definition_intent {
        if let Some((source, words)) = heading_intent(&lex.application_intent, &toks) {
            q.application_intent = true;
            q.push("application_intent", &source, words);
            // „Bis wann muss die Richtlinie umgesetzt werden?“ asks for a
            // date, not for measures
            if q.control_intent {
                q.control_intent = false;
                q.push("control_intent_set_aside", "application_intent", source);
            }
        }
        // scope intent: whom or what the named law covers
        if let Some((source, words)) = heading_intent(&lex.scope_intent, &toks) {
            q.scope_intent = true;
            q.push("scope_intent", &source, words);
        }
        // purpose intent: what the named law is about
        // (a quoted law's name after a definition frame asks the same)
        let purpose = heading_intent(&lex.purpose_intent, &toks)
            .or_else(|| quoted_law.map(|words| ("quoted_frames".to_string(), words)));
        if let Some((source, words)) = purpose {
            q.purpose_intent = true;
            q.push("purpose_intent", &source, words);
        }
    }
    // exception intent: the question asks when a rule does not apply
    if let Some((p, words)) = first_match(&lex.exception_intent, &toks) {
        q.exception_intent = true;
        q.push("exception_intent", &p.source, words);
    }
    // consequence intent: what follows from breaking the law (a question
    // what a fine means is one too: „Was ist ein Bußgeld nach DSGVO?“ asks
    // for the fines norm)
    let kinds: Vec<(&str, String)> = lex
        .consequence_kinds
        .iter()
        .filter_map(|k| first_match(&k.signals, &toks).map(|(_, w)| (k.id.as_str(), w)))
        .collect();
    let consequence = heading_intent(&lex.consequence_intent, &toks).or_else(|| {
        let unless = lex
            .consequence_intent
            .unless
            .iter()
            .any(|p| p.matches(&toks));
        kinds
            .first()
            .filter(|_| !unless)
            .map(|(id, w)| (format!("consequence_kind:{id}"), w.clone()))
    });
    if let Some((source, words)) = consequence {
        q.consequence_intent = true;
        q.consequence_kinds = kinds.iter().map(|(id, _)| id.to_string()).collect();
        q.push("consequence_intent", &source, words);
        // „Welche Strafen drohen bei fehlenden Maßnahmen?“ asks for the
        // sanction, not for measures
        if q.control_intent {
            q.control_intent = false;
            q.push("control_intent_set_aside", "consequence_intent", source);
        }
    }

    // answer types: the kind of fact the question asks for (a question
    // feature like an intent, not a hand topic: it names no norm)
    for (kind, pats) in &lex.answer_types {
        if let Some((p, words)) = first_match(pats, &toks) {
            q.answer_types.push(*kind);
            q.push(
                "answer_type",
                &p.source,
                format!("{} ({words})", kind.as_str()),
            );
        }
    }

    // scope rules active for this question
    for s in &lex.scope_rules {
        let active = match s.penalise_when {
            ScopeWhen::General => !q.law_enforcement,
            ScopeWhen::LawEnforcement => q.law_enforcement,
        };
        if active {
            q.scope_rules.push(ActiveScopeRule {
                regulation: s.regulation.clone(),
                range: s.range,
                reason: s.reason.clone(),
            });
        }
        // the other side of a rule for general questions: a law-enforcement
        // question is about the norms such a rule keeps away from the others
        if let (ScopeWhen::General, true, Some(text)) =
            (s.penalise_when, q.law_enforcement, &s.in_scope)
        {
            q.scope_matches.push(ActiveScopeRule {
                regulation: s.regulation.clone(),
                range: s.range,
                reason: text.clone(),
            });
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> QueryAnalysis {
        analyze_query(s, &[], Lexicon::builtin())
    }

    /// Assert that domain `d` is (`want`) or is not among the question's
    /// domains; the message lists the signals that fired.
    #[track_caller]
    fn assert_domain(s: &str, d: Domain, want: bool) {
        let q = a(s);
        assert_eq!(q.domains.contains(&d), want, "{s}: {d} {:?}", q.signals);
    }

    #[test]
    fn data_bearbeiten_is_the_swiss_word_for_processing() {
        assert_domain(
            "Wie lange darf ein Zürcher Treuhänder die Daten seiner Mandanten bearbeiten?",
            Domain::DataProtection,
            true,
        );
        assert_domain(
            "Darf ein Onlineshop in Basel die Daten seiner Kunden für Werbung bearbeiten?",
            Domain::DataProtection,
            true,
        );
    }

    #[test]
    fn every_feature_records_its_signal() {
        let q = a("Welche Security-Controls brauchen SCADA-Systeme in einer Fabrik?");
        assert!(q.control_intent);
        let s = q
            .signals
            .iter()
            .find(|s| s.feature == "control_intent")
            .unwrap();
        assert_eq!(s.signal, "controls");
        assert!(q.domains.contains(&Domain::Cyber));
    }

    #[test]
    fn control_signals_need_word_boundaries() {
        // `control` must not fire on `Controller`, `nist` not on `Ministerium`, `bsi` not on `BSIG`
        let q = a("Ist das Ministerium Controller nach dem BSIG?");
        assert!(!q.control_intent, "{:?}", q.signals);
        assert!(!q.guidance_intent, "{:?}", q.signals);
    }

    #[test]
    fn guidance_intent_from_seed_signals() {
        for s in [
            "Was empfiehlt die DSK zu Cookies?",
            "Laut EDPB-Leitlinien",
            "Was sagt das BSI zur Härtung?",
        ] {
            assert!(a(s).guidance_intent, "{s}");
        }
        assert!(
            !a("Was ist untersagt?").guidance_intent,
            "`sagt` is a whole word"
        );
    }

    #[test]
    fn an_authority_reported_to_is_no_guidance_source() {
        for s in [
            "Bis wann muss ein Krankenhaus einen Cyberangriff beim BSI anzeigen?",
            "Does an energy supplier have to notify the BSI of an outage?",
        ] {
            assert!(!a(s).guidance_intent, "{s}: {:?}", a(s).signals);
        }
        // named as a source it still is; and another signal still counts
        for s in [
            "Was empfiehlt das BSI für die Härtung von Servern?",
            "Welche Leitlinie gilt, wenn wir einen Vorfall beim BSI melden?",
        ] {
            assert!(a(s).guidance_intent, "{s}");
        }
    }

    #[test]
    fn swiss_question_names_ch_only() {
        let q = a(
            "Braucht ein Zürcher Onlinehändler nach dem revDSG eine Datenschutz-Folgenabschätzung?",
        );
        assert_eq!(q.jurisdictions, vec![Jurisdiction::Ch]);
        assert!(q.jurisdiction_named);
        assert!(q.topics.contains(&"dpia".to_string()));
        assert!(q.topic_norms.contains(&NormRef("Art. 22 revDSG".into())));
    }

    #[test]
    fn default_jurisdiction_is_de_eu() {
        let q = a("Brauchen wir für das neue Kundenportal eine Datenschutz-Folgenabschätzung?");
        assert_eq!(q.jurisdictions, vec![Jurisdiction::De, Jurisdiction::Eu]);
        assert!(!q.jurisdiction_named);
    }

    #[test]
    fn historical_version_and_date() {
        let q = a("Welche Regeln galten im Jahr 1990 für den betrieblichen Datenschutzbeauftragten nach dem alten BDSG?");
        assert!(q.historical);
        let as_of = q.as_of.clone().unwrap();
        assert_eq!(as_of.version.as_deref(), Some("BDSG 1990"));
        assert_eq!(as_of.date.unwrap().from, "1990-01-01");
        let q = a("Was galt bis 2018 für die Videoüberwachung?");
        assert_eq!(
            q.as_of.unwrap().date.unwrap(),
            DateRange {
                from: "2018-01-01".into(),
                until: "2018-01-02".into()
            }
        );
        assert_eq!(next_iso_day("2018-05-24").as_deref(), Some("2018-05-25"));
        assert_eq!(next_iso_day("2020-02-29").as_deref(), Some("2020-03-01"));
        assert_eq!(next_iso_day("2018-12-31").as_deref(), Some("2019-01-01"));
        assert_eq!(next_iso_day("2018-13-01"), None);
        let r = DateRange {
            from: "2018-05-24".into(),
            until: "2018-05-25".into(),
        };
        assert!(
            r.overlaps(Some("1991-06-01"), Some("2018-05-24")),
            "valid_to is inclusive"
        );
        assert!(!r.overlaps(Some("2018-05-25"), None));
        let q = a("Rechtslage am 25.05.2018");
        assert_eq!(
            q.as_of.unwrap().date.unwrap(),
            DateRange {
                from: "2018-05-25".into(),
                until: "2018-05-26".into()
            }
        );
        let q = a("§ 4f BDSG a. F.");
        assert!(q.historical);
        assert!(
            !a("Verordnung (EU) 2016/679 Anwendungsbereich").historical,
            "a bare year is no as-of"
        );
        assert!(
            !a("Wie verhalten sich Inhalt und Anwalt?").historical,
            "`alt` is a whole word"
        );
    }

    #[test]
    fn foreign_jurisdictions_only_when_named() {
        assert_eq!(
            a("Wer beaufsichtigt in der Schweiz den Datenschutz?").named_foreign_jurisdictions(),
            vec![Jurisdiction::Ch]
        );
        assert_eq!(
            a("Does the UK GDPR require a representative?").named_foreign_jurisdictions(),
            vec![Jurisdiction::Uk]
        );
        // the default and a named default are not foreign
        assert!(a("Wer beaufsichtigt den Datenschutz?")
            .named_foreign_jurisdictions()
            .is_empty());
        assert!(a("Gilt in Deutschland eine Meldepflicht für Datenpannen?")
            .named_foreign_jurisdictions()
            .is_empty());
    }

    #[test]
    fn a_country_without_its_own_law_is_a_third_country() {
        for s in [
            "Dürfen wir Personaldaten an eine Tochterfirma in Indien schicken?",
            "Can we host customer records with a cloud provider in the United States?",
            "Darf unser Dienstleister die Daten auf Rechnern außerhalb der EU speichern?",
        ] {
            let q = a(s);
            assert!(q.third_country, "{s}: {:?}", q.signals);
            assert!(
                q.signals.iter().any(|x| x.feature == "third_country"),
                "{s}"
            );
        }
        for s in [
            "Gilt das Datenschutzgesetz auch für Firmen in der Schweiz?",
            "Can you tell us which records we must keep?",
            "Welche Pflichten hat ein Einführer von Spielzeug?",
        ] {
            assert!(!a(s).third_country, "{s}");
        }
    }

    #[test]
    fn consent_as_a_verb_is_a_data_protection_signal() {
        for s in [
            "Muss ich jedes Mal neu einwilligen, wenn die App ein Update bekommt?",
            "Reicht es, wenn die Eltern mündlich eingewilligt haben?",
        ] {
            assert!(a(s).domains.contains(&Domain::DataProtection), "{s}");
        }
    }

    #[test]
    fn english_questions_find_their_domain() {
        use Domain::*;
        // two English wordings per domain, each without the German word
        for (s, d) in [
            (
                "Can a gym share member records without asking for consent?",
                DataProtection,
            ),
            (
                "Who must be told after a data breach at a hospital?",
                DataProtection,
            ),
            (
                "Must a utility report a ransomware attack within a day?",
                Cyber,
            ),
            ("Is two factor login required for remote access?", Cyber),
            ("How long must invoices be kept for tax purposes?", Tax),
            ("Can the tax office see my bank statements?", Tax),
            (
                "Which insurance firms fall under the ICT rules for the financial sector?",
                Finance,
            ),
            (
                "When must a dealer report suspected money laundering?",
                Finance,
            ),
            (
                "Is retaliation against a person who reported fraud forbidden?",
                Whistleblowing,
            ),
            (
                "Which reporting channels must a firm with 60 staff set up?",
                Whistleblowing,
            ),
            (
                "Are cold calls to consumers allowed without their consent?",
                Competition,
            ),
            ("Is a misleading discount claim unlawful?", Competition),
        ] {
            assert!(a(s).domains.contains(&d), "{s}: {:?}", a(s).domains);
        }
    }

    #[test]
    fn a_name_inside_a_longer_name_names_the_longer_law() {
        let regs = |s: &str| a(s).regulations;
        for s in [
            "Does the UK GDPR require a record of processing activities?",
            "Which fines can the ICO impose under the UK GDPR?",
        ] {
            assert_eq!(regs(s), ["UK GDPR"], "{s}");
        }
        // standing alone as well, the short name names its own law too
        let both = regs("Is the UK GDPR stricter than the GDPR on consent?");
        assert!(
            both.contains(&"UK GDPR".to_string()) && both.contains(&"DSGVO".to_string()),
            "{both:?}"
        );
        assert_eq!(regs("Does the GDPR apply to a sole trader?"), ["DSGVO"]);
    }

    #[test]
    fn law_enforcement_scope() {
        let q = a("Muss mir die Polizei Auskunft über die zu meiner Person gespeicherten Ermittlungsdaten geben?");
        assert!(q.law_enforcement);
        assert!(q.topics.contains(&"access_law_enforcement".to_string()));
        assert!(!q.topics.contains(&"access".to_string()));
        assert!(q.scope_rules.iter().all(|r| r.regulation != "BDSG"));
        let g = a("Welche Angaben stehen mir zu, wenn ich bei meiner Krankenkasse Auskunft über meine Daten verlange?");
        assert!(!g.law_enforcement);
        assert!(g
            .scope_rules
            .iter()
            .any(|r| r.regulation == "BDSG" && r.range == Some((45, 84))));
    }

    #[test]
    fn specific_topic_suppresses_general_one() {
        let q = a("Was gehört zu den Aufgaben einer externen Datenschutzbeauftragten?");
        assert!(q.topics.contains(&"dpo_tasks".to_string()));
        assert!(!q.topics.contains(&"dpo".to_string()));
        assert_eq!(q.topic_norms[0].as_str(), "Art. 39 DSGVO");
    }

    #[test]
    fn inflection_and_compounds() {
        let q = a("Müssen Daten gelöscht werden?");
        assert!(q.topics.contains(&"erasure".to_string()), "{:?}", q.signals);
        let q = a("Darf ein Supermarkt seinen Parkplatz videoüberwachen lassen?");
        assert!(q.topic_norms.contains(&NormRef("§ 4 BDSG".into())));
    }

    #[test]
    fn paraphrases_find_their_topic() {
        for (text, norm) in [
            (
                "Brauchen wir als Firma mit 30 Mitarbeitern einen DSB?",
                "Art. 37 DSGVO",
            ),
            (
                "Bis wann muss eine Datenpanne an die Behörde gemeldet werden?",
                "Art. 33 DSGVO",
            ),
            (
                "Darf ich Kundendaten ohne Rechtsgrundlage speichern?",
                "Art. 6 DSGVO",
            ),
            (
                "Welche Bußgelder drohen nach dem KI-Gesetz?",
                "Art. 99 KI-VO",
            ),
            (
                "Dürfen wir alte Rechnungen nach fünf Jahren schreddern oder gilt eine Aufbewahrungspflicht?",
                "§ 257 HGB",
            ),
            (
                "Dürfen Mitarbeiter per Video am Arbeitsplatz überwacht werden?",
                "§ 26 BDSG",
            ),
            (
                "Is a DPIA required for large-scale processing under the GDPR?",
                "Art. 35 DSGVO",
            ),
            (
                "Welche Pflichten haben Betreiber von Hochrisiko-KI-Systemen?",
                "Art. 26 KI-VO",
            ),
        ] {
            let q = a(text);
            assert!(
                q.topic_norms.iter().any(|n| n.as_str() == norm),
                "{text}: {:?}",
                q.topic_norms
            );
        }
        let q = a("Wie härte ich einen Linux-Server nach BSI IT-Grundschutz?");
        assert!(q.control_intent && q.domains.contains(&Domain::Cyber));
    }

    #[test]
    fn two_named_regimes() {
        let q = a("Eine smarte Türklingel speichert Gesichtsbilder – was verlangen die DSGVO und der Cyber Resilience Act vom Hersteller?");
        assert!(
            q.regulations.contains(&"DSGVO".to_string())
                && q.regulations.contains(&"CRA".to_string())
        );
    }

    #[test]
    fn explicit_refs_are_signals_and_name_their_regulation() {
        let q = analyze_query(
            "Was regelt das?",
            &[NormRef("Art. 14 CRA".into())],
            Lexicon::builtin(),
        );
        assert!(q
            .signals
            .iter()
            .any(|s| s.feature == "explicit_ref" && s.detail == "Art. 14 CRA"));
        assert!(q.regulations.contains(&"CRA".to_string()));
        assert!(q.domains.contains(&Domain::Cyber));
    }

    #[test]
    fn the_gdprs_terms_for_processing_name_the_domain() {
        // „Verarbeitungsvorgang“, „Verarbeitungstätigkeit“ (Art. 4 Nr. 2,
        // Art. 30 DSGVO) are data-protection words without „Daten“ beside them
        for q in [
            "Wie halten wir unsere Verarbeitungsvorgänge schriftlich fest?",
            "Which processing operations does a small firm have to write down?",
        ] {
            assert_domain(q, Domain::DataProtection, true);
        }
    }

    #[test]
    fn a_fired_topic_brings_the_domain_of_its_norms() {
        let lex = Lexicon::builtin();
        // a bank question (finance) about an automated decision: the topic's
        // Art. 22 DSGVO makes it a data-protection question as well
        for q in [
            "Wird bei meiner Bank automatisch entschieden, ob ich ein Konto bekomme?",
            "Lehnt die Bank Kreditanträge ohne menschliche Prüfung ab?",
        ] {
            let a = analyze_query(q, &[], lex);
            assert!(
                a.topics.iter().any(|t| t == "automated_decisions"),
                "{q}: {:?}",
                a.signals
            );
            assert!(a.domains.contains(&Domain::Finance), "{q}: {:?}", a.signals);
            assert!(
                a.domains.contains(&Domain::DataProtection),
                "{q}: {:?}",
                a.signals
            );
            assert!(a
                .signals
                .iter()
                .any(|s| s.feature == "domain" && s.signal == "topic:automated_decisions"));
        }
        // hand topics off: no topic, no domain from one
        let a = analyze_query_with(
            "Lehnt die Bank Kreditanträge ohne menschliche Prüfung ab?",
            &[],
            lex,
            false,
        );
        assert!(
            !a.domains.contains(&Domain::DataProtection),
            "{:?}",
            a.signals
        );
    }

    #[test]
    fn domains_from_words_that_only_together_name_it() {
        let lex = Lexicon::builtin();
        // "Daten" and "verarbeiten" apart in the sentence: data protection
        let q = analyze_query(
            "Welche Daten der Vereinsmitglieder darf der Vorstand verarbeiten?",
            &[],
            lex,
        );
        assert!(
            q.domains.contains(&Domain::DataProtection),
            "{:?}",
            q.signals
        );
        assert!(q
            .signals
            .iter()
            .any(|s| s.feature == "domain" && s.signal == "daten + verarbeit*"));
        let q = analyze_query("Which data about its members may a club store?", &[], lex);
        assert!(
            q.domains.contains(&Domain::DataProtection),
            "{:?}",
            q.signals
        );
        // one of them alone is not enough
        let q = analyze_query("Wie werden Messdaten einer Maschine ausgewertet?", &[], lex);
        assert!(
            !q.domains.contains(&Domain::DataProtection),
            "{:?}",
            q.signals
        );
        // a social network is not network security
        let q = analyze_query(
            "Ab welchem Alter darf man sich in einem sozialen Netzwerk anmelden?",
            &[],
            lex,
        );
        assert!(!q.domains.contains(&Domain::Cyber), "{:?}", q.signals);
    }

    #[test]
    fn liability_for_a_defect_is_product_safety_and_liability_alone_is_not() {
        for s in [
            "Haftet jemand, wenn ein kaputter Heizlüfter die Gardinen anzündet?",
            "Wer trägt die Haftung für eine defekte Kettensäge, die den Nutzer verletzt?",
            "Who is liable when a defective scooter battery explodes?",
            "Is anyone liable for burns from a faulty kettle?",
        ] {
            assert_domain(s, Domain::ProductSafety, true);
        }
        // liability without a defective thing, a defect without liability
        for s in [
            "Wer haftet für Fehler im Jahresabschluss einer GmbH?",
            "Who is liable for a data breach at a cloud provider?",
            "Wie melde ich einen defekten Parkscheinautomaten der Stadt?",
        ] {
            assert_domain(s, Domain::ProductSafety, false);
        }
    }

    #[test]
    fn whose_data_filming_scores_job_adverts_and_imported_goods_name_their_domain() {
        let cases: [(&str, Domain); 14] = [
            (
                "Darf der Vermieter Mieterdaten an den Hausmeisterdienst geben?",
                Domain::DataProtection,
            ),
            (
                "Wie lange dürfen Schülerdaten nach dem Abschluss bleiben?",
                Domain::DataProtection,
            ),
            (
                "Was gilt für unsere Kontaktdaten-Liste von Messebesuchern?",
                Domain::DataProtection,
            ),
            (
                "Stimmen die Angaben über mich in der Schufa, und wie ändere ich sie?",
                Domain::DataProtection,
            ),
            (
                "Darf der Nachbar meinen Garten filmen?",
                Domain::DataProtection,
            ),
            (
                "Darf eine Versicherung ihren Tarif nach einem Scorewert festlegen?",
                Domain::DataProtection,
            ),
            (
                "Can a landlord refuse me because of my credit scoring result?",
                Domain::DataProtection,
            ),
            (
                "Was darf in einer Stellenausschreibung für Pflegekräfte nicht stehen?",
                Domain::Employment,
            ),
            (
                "Muss ich bei der Beförderung alle gleich behandeln?",
                Domain::Employment,
            ),
            (
                "A colleague keeps mocking my accent: what can I do?",
                Domain::Employment,
            ),
            (
                "Welche Pflichten hat ein Importeur von Fahrradhelmen?",
                Domain::ProductSafety,
            ),
            (
                "Gilt für Verbraucherprodukte aus dem Onlinehandel eine Kennzeichnungspflicht?",
                Domain::ProductSafety,
            ),
            (
                "Welche Warnhinweise braucht ein Spielzeug für Kleinkinder?",
                Domain::ProductSafety,
            ),
            (
                "What must an importer check before selling toys in the EU?",
                Domain::ProductSafety,
            ),
        ];
        for (s, d) in cases {
            assert_domain(s, d, true);
        }
        // a word alone is not the concept
        for (s, d) in [
            (
                "Welche Angaben muss eine Rechnung enthalten?",
                Domain::DataProtection,
            ),
            (
                "Darf die Schule einen Film über die Stadtgeschichte zeigen?",
                Domain::DataProtection,
            ),
            (
                "Wie viele Mitglieder hat das Kollegium eines Gerichts?",
                Domain::Employment,
            ),
        ] {
            assert_domain(s, d, false);
        }
    }

    #[test]
    fn an_employer_watching_staff_or_reading_their_mail_is_data_protection() {
        for s in [
            "Darf mein Chef meinen Bildschirm heimlich überwachen?",
            "Darf der Arbeitgeber die E-Mail-Postfächer der Belegschaft durchsuchen?",
            "May my employer read my work e-mails?",
            "Is my employer allowed to track my location on the company phone?",
        ] {
            assert_domain(s, Domain::DataProtection, true);
            assert_domain(s, Domain::Employment, true);
        }
        // the employer alone is employment law only
        assert_domain(
            "Wie viel Urlaub muss der Arbeitgeber gewähren?",
            Domain::DataProtection,
            false,
        );
    }

    #[test]
    fn everyday_words_for_vulnerabilities_and_attackers_are_cyber() {
        for s in [
            "Was tun, wenn in unserer Buchhaltungssoftware eine Sicherheitslücke bekannt wird?",
            "Müssen wir melden, dass Angreifer unser Netz durchsucht haben?",
            "Is a zero day in our accounting tool a reportable event?",
            "Someone exploited a flaw in our booking tool: what now?",
        ] {
            assert_domain(s, Domain::Cyber, true);
        }
    }

    #[test]
    fn domains_meet_participles_possessive_data_and_not_look_alikes() {
        let lex = Lexicon::builtin();
        let dp = |s: &str| {
            analyze_query(s, &[], lex)
                .domains
                .contains(&Domain::DataProtection)
        };
        let has = |s: &str, d: Domain| analyze_query(s, &[], lex).domains.contains(&d);
        // the participle of a separable verb meets the verb's pattern
        // (`weitergeb*`), someone's own data under its own name
        assert!(dp(
            "Die Versicherung hat Daten über meinen Unfall weitergegeben, ohne zu fragen."
        ));
        assert!(dp(
            "Eine Agentur hat meine Bewegungsdaten aus der Lauf-App ausgewertet."
        ));
        assert!(dp("Who may see my sleep data?"));
        assert!(dp("Darf der Hersteller meine Schlafdaten sehen?"));
        // machine data handled is still no personal data
        assert!(!dp("Wurden die Sensordaten der Anlage weitergegeben?"));
        // a job application is no advertising
        assert!(!has(
            "Wie lange dürfen Bewerbungsunterlagen abgelehnter Kandidaten aufgehoben werden?",
            Domain::Commercial
        ));
        assert!(has(
            "Ist Werbung per Fax an Firmenkunden erlaubt?",
            Domain::Commercial
        ));
        // applications, CVs and the boss are employment
        assert!(has(
            "Darf meine Vorgesetzte meine Pausenzeiten kontrollieren?",
            Domain::Employment
        ));
        assert!(has(
            "Müssen Lebensläufe nach der Stellenbesetzung vernichtet werden?",
            Domain::Employment
        ));
    }

    #[test]
    fn a_uk_or_swiss_question_takes_the_twins_of_its_topic_norms() {
        let uk =
            a("Muss eine Firma in England einen Hackerangriff auf ihre Kundendatenbank melden?");
        assert!(
            uk.topic_norms.contains(&NormRef("Art. 33 UK GDPR".into())),
            "{:?}",
            uk.topic_norms
        );
        assert!(uk.signals.iter().any(|s| s.feature == "twin_norms"));
        // a Swiss question: the revDSG article on the same matter
        let ch = a(
            "Muss eine Firma in der Schweiz einen Hackerangriff auf ihre Kundendatenbank melden?",
        );
        assert!(
            ch.topic_norms.contains(&NormRef("Art. 24 revDSG".into())),
            "{:?}",
            ch.topic_norms
        );
        let ch = a("Kann ich in der Schweiz eine Kopie meiner Daten von meiner Bank verlangen?");
        assert!(
            ch.topic_norms.contains(&NormRef("Art. 25 revDSG".into())),
            "{:?}",
            ch.topic_norms
        );
        // a German question keeps the GDPR's norms alone
        let de = a("Muss eine Firma in Köln einen Hackerangriff auf ihre Kundendatenbank melden?");
        assert!(
            de.topic_norms.contains(&NormRef("Art. 33 DSGVO".into())),
            "{:?}",
            de.topic_norms
        );
        assert!(
            !de.topic_norms.iter().any(|n| n.is_of("UK GDPR")),
            "{:?}",
            de.topic_norms
        );
    }

    /// `fires` holds for every question of `yes` and for none of `no`.
    fn assert_intent(fires: fn(&QueryAnalysis) -> bool, yes: &[&str], no: &[&str]) {
        for s in yes {
            assert!(fires(&a(s)), "{s}: {:?}", a(s).signals);
        }
        for s in no {
            assert!(!fires(&a(s)), "{s}: {:?}", a(s).signals);
        }
    }

    #[test]
    fn asking_whom_a_law_covers_is_scope_intent() {
        assert_intent(
            |q| q.scope_intent,
            &[
                "Gilt das Produktsicherheitsgesetz auch für gebrauchte Waren?",
                "Fällt eine kleine Arztpraxis unter die NIS2-Richtlinie?",
                "Für wen gilt die Maschinenverordnung?",
                "Sind Behörden vom Hinweisgeberschutzgesetz ausgenommen?",
                "Does the Data Act apply to small businesses?",
                "Is a municipal utility covered by NIS2?",
            ],
            &[
                // what the law requires, what a word means, when it applies
                "What security requirements apply to connected toys under the CRA?",
                "Wer gilt als Betreiber einer kritischen Anlage?",
                "Ab wann gilt die KI-Verordnung?",
                "Welche Pflichten hat ein Hersteller nach dem Produktsicherheitsgesetz?",
            ],
        );
    }

    #[test]
    fn asking_when_a_law_applies_is_application_intent() {
        assert_intent(
            |q| q.application_intent,
            &[
                "Ab wann gilt die Maschinenverordnung?",
                "Seit wann sind die Regeln der Datenverordnung anzuwenden?",
                "Wann ist das Geschäftsgeheimnisgesetz in Kraft getreten?",
                "Gibt es eine Übergangsfrist für bestehende Funkanlagen?",
                "Bis wann müssen die Mitgliedstaaten die Richtlinie umsetzen?",
                "When did the Data Act enter into force?",
                "When do the machinery rules apply?",
                "Is there a transition period for products already on the market?",
            ],
            &[
                // a threshold, a condition, a deadline of a duty, a definition
                "Ab wann muss ein Verein einen Datenschutzbeauftragten benennen?",
                "Ab wann gilt ein Betreiber als wichtige Einrichtung?",
                "Wann gilt eine Maschine als unvollständig?",
                "Bis wann muss eine Datenpanne gemeldet werden?",
                "When does a controller have to notify a breach?",
            ],
        );
        // transposing a directive is no question for measures
        let q = a("Bis wann ist die Richtlinie in nationales Recht umzusetzen?");
        assert!(q.application_intent && !q.control_intent, "{:?}", q.signals);
        assert!(q
            .signals
            .iter()
            .any(|s| s.feature == "control_intent_set_aside"));
    }

    #[test]
    fn definition_intent_uses_named_regulation() {
        let q = a("Welche Definition von Pseudonymisierung enthält die DSGVO?");
        assert!(q.definition_intent);
        assert!(q.topic_norms.contains(&NormRef("Art. 4 DSGVO".into())));
        // „was ist ein …“ and its English
        for (q, norm) in [
            (
                "Was ist ein Auftragsverarbeiter laut DSGVO?",
                "Art. 4 DSGVO",
            ),
            ("What is a deployer under the AI Act?", "Art. 3 KI-VO"),
            ("What is an important entity under NIS2?", "Art. 6 NIS2"),
        ] {
            let q = a(q);
            assert!(q.definition_intent, "{:?}", q.signals);
            assert!(
                q.topic_norms.contains(&NormRef(norm.into())),
                "{:?}",
                q.topic_norms
            );
        }
    }

    #[test]
    fn a_quoted_term_after_a_definition_frame_asks_what_it_means() {
        for text in [
            // own phrasings
            "Wer ist ein „Betreiber“ im Sinne der KI-Verordnung?",
            "Was sind »kritische Komponenten«?",
            "Who is a \"data holder\" under the Data Act?",
            "What does ‘placing on the market’ mean?",
            // real questions (tuning pages: gesellschaft-datenschutz.de, fes.de)
            "Was ist eine „wesentliche Einrichtung“?",
            "Wer ist „wirtschaftlich Berechtigter“ im Transparenzregister",
        ] {
            let q = a(text);
            assert!(q.definition_intent, "{text}: {:?}", q.signals);
        }
        // a quote that is no frame's object, an unquoted „wer ist“, a quote
        // too long for a term
        for text in [
            "Was ist bei einer „Datenpanne“ im Verein zu tun?",
            "Welche Pflichten hat ein „Anbieter“ nach der KI-VO?",
            "Wer ist für die Meldung zuständig?",
            "Was ist „die Verarbeitung personenbezogener Daten zu Zwecken der Werbung durch Dritte“?",
        ] {
            let q = a(text);
            assert!(!q.definition_intent, "{text}: {:?}", q.signals);
        }
    }

    #[test]
    fn a_quoted_law_name_after_a_definition_frame_asks_what_the_law_is_about() {
        for text in [
            "Was ist die „Datenschutz-Grundverordnung“?",
            "What is the “Cyber Resilience Act”?",
        ] {
            let q = a(text);
            assert!(!q.definition_intent, "{text}: {:?}", q.signals);
            assert!(q.purpose_intent, "{text}: {:?}", q.signals);
        }
    }

    #[test]
    fn english_question() {
        assert_eq!(
            a("What are the obligations of the controller under the GDPR?").lang,
            Lang::En
        );
        assert_eq!(
            a("Welche Pflichten hat der Verantwortliche?").lang,
            Lang::De
        );
    }

    #[test]
    fn no_domain_for_unrelated_question() {
        let q =
            a("Wie viel Zweitwohnungsteuer verlangt die Stadt Freiburg für eine Ferienwohnung?");
        assert!(q.domains.is_empty(), "{:?}", q.signals);
        assert!(q.topic_norms.is_empty());
    }
}
