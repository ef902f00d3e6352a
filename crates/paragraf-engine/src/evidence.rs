//! Evidence: pinpoint units and the model-free extractive answer.
//!
//! A norm's text (all its chunks of one language, in order) is split into
//! citable units down to Absatz, Satz, Nummer and Buchstabe, each with its
//! pinpoint citation (`§ 38 Abs. 1 Satz 1 BDSG`, `Art. 33 Abs. 1 DSGVO`,
//! `Art. 14 Abs. 2 lit. a CRA`); a lettered or numbered item keeps the lead-in
//! of its list, which it needs to be understood.
//!
//! The extractor scores the units of the top-ranked norms against the
//! question, deterministically and without a model:
//!
//! * **terms**: the idf-weighted share of the question's analysed terms (in
//!   the unit's language: the question's own terms, or their translations
//!   from the bilingual term table) that the unit (with its lead-in) holds;
//! * **cues**: what answers a legal question — a deadline when the question
//!   asks "wann / bis wann / wie lange / how quickly", a threshold or count
//!   for "ab wie vielen / how many", an amount for "wie hoch / Bußgeld /
//!   fine", an age for "Alter / age", an exception for "Ausnahme / gilt
//!   nicht / unless" ([`CUE_GAIN`]); any number at all ([`NUMBER_GAIN`]);
//! * **rank**: the norm's place among the distinct ranked norms
//!   ([`RANK_WEIGHTS`]).
//!
//! The best units (at most [`EVIDENCE_MAX_UNITS`], [`EVIDENCE_MAX_PER_NORM`]
//! per norm, each at least [`EVIDENCE_MIN_SHARE`] of the best score) are the
//! evidence: the extractive answer quotes them with their pinpoints, and the
//! answer model gets them as its sources.

mod paragraphs;

use crate::gate::split_sentences;
pub use paragraphs::norm_text;
// numbers and units of time: one vocabulary with the ranking's answer types
use paragraf_rank::answer_type::{is_number, is_time_unit, ONE_WORDS};
use paragraf_types::{Evidence, Lang, NormRef};
use std::collections::BTreeSet;

/// Most units an answer quotes.
pub const EVIDENCE_MAX_UNITS: usize = 5;
/// Most units quoted from one norm.
pub const EVIDENCE_MAX_PER_NORM: usize = 3;
/// A unit is quoted only when its score reaches this share of the best
/// unit's score (the best is always quoted).
pub const EVIDENCE_MIN_SHARE: f64 = 0.5;
/// Distinct norms (in rank order) whose units are considered, with the weight
/// of each place: the primary norm counts fully, the next ones less.
pub const RANK_WEIGHTS: [f64; 3] = [1.0, 0.75, 0.55];
/// Added to the term score of a unit that holds what the question asks for
/// (a deadline, threshold, amount, age, exception).
pub const CUE_GAIN: f64 = 0.6;
/// Added to the term score of a unit holding any number.
pub const NUMBER_GAIN: f64 = 0.05;
/// Characters of a list's lead-in kept with its item.
pub const LEAD_IN_MAX_CHARS: usize = 220;
/// Characters of a unit's text kept in the quote.
pub const UNIT_MAX_CHARS: usize = 700;
/// A list (the items under one lead-in) with at most this many items is
/// quoted whole when one of its items or its lead-in is selected: the items
/// together are the rule („folgende Angaben: a) … b) …“), one alone is a
/// fragment. Longer lists (the 26 definitions of Art. 4 DSGVO) quote the
/// selected item only.
pub const LIST_MAX_ITEMS: usize = 10;
/// Characters of one item kept in a whole-list quote.
pub const LIST_ITEM_MAX_CHARS: usize = 220;
/// Characters of a whole-list quote (lead-in not counted).
pub const LIST_MAX_CHARS: usize = 1_600;

/// One citable unit of a norm.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub norm: NormRef,
    pub regulation: String,
    /// `§ 38 Abs. 1 Satz 1 BDSG`.
    pub pinpoint: String,
    pub text: String,
    /// The list's lead-in for a numbered or lettered item.
    pub lead_in: Option<String>,
    pub lang: Lang,
    /// Position in the norm (document order).
    pub pos: usize,
    /// The item's marker as written (`a)`, `1.`, `(b)`); `None` for a
    /// sentence.
    pub label: Option<String>,
    /// A whole list quoted as one unit (see [`LIST_MAX_ITEMS`]).
    pub is_list: bool,
}

impl Unit {
    /// The text a reader needs: the lead-in (shortened), then the unit.
    pub fn quote(&self) -> String {
        let max = if self.is_list {
            LIST_MAX_CHARS
        } else {
            UNIT_MAX_CHARS
        };
        let text = shorten(&self.text, max);
        match &self.lead_in {
            Some(l) => format!("{} … {}", shorten_tail(l, LEAD_IN_MAX_CHARS), text),
            None => text,
        }
    }
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let cut: String = s.chars().take(max).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(a, _)| a);
    format!("{cut} …")
}

/// The end of a lead-in (the words just before the list matter most).
fn shorten_tail(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let tail: String = s.chars().skip(n - max).collect();
    let tail = tail.split_once(' ').map_or(tail.as_str(), |(_, b)| b);
    format!("… {tail}")
}

/// Marker at the start of a line, by kind.
#[derive(Debug, Clone, PartialEq)]
enum Marker {
    /// `(1)` German Absatz; `1.` English paragraph of an EU act.
    Absatz(String),
    /// `1.` German Nummer; `(1)` English numbered point.
    Nummer(String),
    /// `a)` German, `(a)` English.
    Buchstabe(String),
    /// `(i)` English sub-point, `aa)` German.
    Sub(String),
}

fn is_roman(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| "ivx".contains(c))
}

/// Split a line into its marker and the rest.
fn marker(line: &str, lang: Lang, last_letter: Option<char>) -> Option<(Marker, &str)> {
    let l = line.trim_start();
    // (1) / (1a) / (a) / (i)
    if let Some(rest) = l.strip_prefix('(') {
        let (inner, after) = rest.split_once(')')?;
        if inner.is_empty() || inner.len() > 5 {
            return None;
        }
        let after = after.trim_start();
        if inner.chars().next()?.is_ascii_digit()
            && inner.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Some(match lang {
                Lang::De => (Marker::Absatz(inner.to_string()), after),
                Lang::En => (Marker::Nummer(inner.to_string()), after),
            });
        }
        if inner.chars().all(|c| c.is_ascii_lowercase()) {
            let letter_next = inner.len() == 1
                && last_letter
                    .is_some_and(|p| (p as u8 + 1) as char == inner.chars().next().unwrap_or('a'));
            if is_roman(inner) && !letter_next && !(inner == "i" && last_letter.is_none()) {
                return Some((Marker::Sub(inner.to_string()), after));
            }
            if inner.len() == 1 {
                return Some((Marker::Buchstabe(inner.to_string()), after));
            }
        }
        return None;
    }
    // 1. / 12a. / a) / aa)
    let head: String = l
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    if head.is_empty() || head.len() > 4 {
        return None;
    }
    let after = &l[head.len()..];
    if head.chars().next()?.is_ascii_digit() && head.chars().all(|c| c.is_ascii_alphanumeric()) {
        let rest = after.strip_prefix('.')?;
        if !rest.starts_with(char::is_whitespace) && !rest.is_empty() {
            return None;
        }
        let rest = rest.trim_start();
        return Some(match lang {
            Lang::De => (Marker::Nummer(head), rest),
            Lang::En => (Marker::Absatz(head), rest),
        });
    }
    if head.chars().all(|c| c.is_ascii_lowercase()) {
        let rest = after.strip_prefix(')')?.trim_start();
        return Some(if head.len() == 1 {
            (Marker::Buchstabe(head), rest)
        } else {
            (Marker::Sub(head), rest)
        });
    }
    None
}

/// The first Absatz number of a chunk citation (`§ 32 Abs. 1–3 BSIG` → 1).
pub fn first_absatz(citation: &str) -> Option<String> {
    let i = citation.find("Abs. ")?;
    let n: String = citation[i + 5..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    (!n.is_empty()).then_some(n)
}

/// Split one norm's text (its chunks of one language, concatenated in
/// order) into pinpoint units. `label` is the norm label (`§ 38`, `Art. 14`),
/// `start_absatz` the Absatz the text starts in when it does not open with
/// one (a continuation chunk).
pub fn norm_units(
    norm: &NormRef,
    label: &str,
    regulation: &str,
    text: &str,
    lang: Lang,
    start_absatz: Option<String>,
) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    let mut absatz: Option<String> = start_absatz;
    let mut satz = 0usize;
    let mut nummer: Option<String> = None;
    let mut letter: Option<char> = None;
    let mut lead_in: Option<String> = None;
    let mut nummer_lead: Option<String> = None;
    let pin = |abs: &Option<String>, tail: &str| -> String {
        let mut s = label.to_string();
        if let Some(a) = abs {
            s.push_str(" Abs. ");
            s.push_str(a);
        }
        if !tail.is_empty() {
            s.push(' ');
            s.push_str(tail);
        }
        s.push(' ');
        s.push_str(regulation);
        s
    };
    let push = |units: &mut Vec<Unit>,
                pinpoint: String,
                text: &str,
                lead: Option<String>,
                label: Option<String>| {
        let t = text.trim();
        if t.is_empty() {
            return;
        }
        let pos = units.len();
        units.push(Unit {
            norm: norm.clone(),
            regulation: regulation.to_string(),
            pinpoint,
            text: t.to_string(),
            lead_in: lead,
            lang,
            pos,
            label,
            is_list: false,
        });
    };
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        match marker(line, lang, letter) {
            Some((Marker::Absatz(n), rest)) => {
                absatz = Some(n);
                satz = 0;
                nummer = None;
                letter = None;
                nummer_lead = None;
                for s in split_sentences(rest) {
                    satz += 1;
                    push(
                        &mut units,
                        pin(&absatz, &format!("Satz {satz}")),
                        &s,
                        None,
                        None,
                    );
                }
                lead_in = Some(rest.to_string());
            }
            Some((Marker::Nummer(n), rest)) => {
                letter = None;
                let tail = format!("Nr. {n}");
                let label = match lang {
                    Lang::De => format!("{n}."),
                    Lang::En => format!("({n})"),
                };
                push(
                    &mut units,
                    pin(&absatz, &tail),
                    rest,
                    lead_in.clone(),
                    Some(label),
                );
                nummer_lead = Some(rest.to_string());
                nummer = Some(n);
            }
            Some((Marker::Buchstabe(b), rest)) => {
                letter = b.chars().next();
                let tail = match &nummer {
                    Some(n) => format!("Nr. {n} lit. {b}"),
                    None => format!("lit. {b}"),
                };
                let lead = nummer_lead.clone().or_else(|| lead_in.clone());
                let label = match lang {
                    Lang::De => format!("{b})"),
                    Lang::En => format!("({b})"),
                };
                push(&mut units, pin(&absatz, &tail), rest, lead, Some(label));
            }
            Some((Marker::Sub(_), rest)) => {
                // a sub-point belongs to the item above it
                if let Some(last) = units.last_mut() {
                    last.text.push(' ');
                    last.text.push_str(rest.trim());
                }
            }
            None => {
                // text after a list, or a paragraph without a marker: sentences
                nummer = None;
                letter = None;
                nummer_lead = None;
                for s in split_sentences(line) {
                    satz += 1;
                    push(
                        &mut units,
                        pin(&absatz, &format!("Satz {satz}")),
                        &s,
                        None,
                        None,
                    );
                }
                lead_in = Some(line.to_string());
            }
        }
    }
    units
}

/// What kind of fact a question asks for (cue features).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Asks {
    pub deadline: bool,
    pub threshold: bool,
    pub amount: bool,
    pub age: bool,
    pub exception: bool,
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn any_prefix(ws: &[String], prefixes: &[&str]) -> bool {
    ws.iter().any(|w| prefixes.iter().any(|p| w.starts_with(p)))
}

fn phrase(text: &str, phrases: &[&str]) -> bool {
    let t = text.to_lowercase();
    phrases.iter().any(|p| t.contains(p))
}

impl Asks {
    /// Read the question's cue words (German and English).
    pub fn of(question: &str) -> Asks {
        let ws = words(question);
        Asks {
            deadline: phrase(
                question,
                &[
                    "bis wann",
                    "wie lange",
                    "wie schnell",
                    "wie zügig",
                    "how quickly",
                    "how long",
                    "how soon",
                    "by when",
                    "wie viel zeit",
                ],
            ) || any_prefix(
                &ws,
                &[
                    "wann",
                    "frist",
                    "deadline",
                    "innerhalb",
                    "when",
                    "within",
                    "zeitraum",
                    "dauer",
                    // a reporting duty is defined by its deadlines
                    "meldepflicht",
                    "melden",
                    "meldung",
                    "report",
                    "notif",
                ],
            ),
            threshold: phrase(
                question,
                &[
                    "ab wie viel",
                    "wie viele",
                    "ab welcher größe",
                    "ab welcher anzahl",
                    "how many",
                    "how large",
                    "ab wann",
                    // who must: the duty's scope is often a size threshold
                    "welche unternehmen",
                    "welche beschäftigungsgeber",
                    "welche arbeitgeber",
                    "welche betriebe",
                    "welche firmen",
                    "welche stellen",
                    "welche einrichtungen",
                    "which companies",
                    "which employers",
                    "which entities",
                    "which organisations",
                    "which organizations",
                    "which businesses",
                ],
            ) || any_prefix(
                &ws,
                &[
                    "schwellenwert",
                    "mindestens",
                    "threshold",
                    "beschäftig",
                    "mitarbeiter",
                    "personen",
                    "leute",
                    "employees",
                ],
            ),
            amount: phrase(
                question,
                &[
                    "wie hoch",
                    "wie teuer",
                    "how much",
                    "maximum fine",
                    "höchst",
                ],
            ) || any_prefix(
                &ws,
                &[
                    "bußgeld",
                    "bussgeld",
                    "geldbuße",
                    "geldbusse",
                    "strafe",
                    "fine",
                    "penalt",
                    "sanktion",
                    "betrag",
                ],
            ),
            age: phrase(
                question,
                &["welchem alter", "wie alt", "what age", "how old"],
            ) || any_prefix(
                &ws,
                &[
                    "alter",
                    "jugendlich",
                    "kind",
                    "minderjährig",
                    "age",
                    "child",
                    "minor",
                ],
            ),
            exception: any_prefix(
                &ws,
                &[
                    "ausnahm",
                    "exception",
                    "ausgenommen",
                    "befreit",
                    "exempt",
                    "unless",
                ],
            ) || phrase(question, &["gilt nicht", "es sei denn", "does not apply"]),
        }
    }
}

/// Whether the words state a number: a digit, a number word, or „ein/eine/
/// einem/einen/one/a“ right before a unit of time („binnen eines Monats“).
fn states_number(text: &str, ws: &[String]) -> bool {
    text.chars().any(|c| c.is_ascii_digit())
        || ws.iter().any(|w| is_number(w))
        || ws
            .windows(2)
            .any(|p| ONE_WORDS.contains(&p[0].as_str()) && is_time_unit(&p[1]))
}

/// Whether a unit states what the question asks for.
fn cue(text: &str, asks: Asks) -> bool {
    let ws = words(text);
    let has_num = states_number(text, &ws);
    let deadline_word = ws.iter().any(|w| is_time_unit(w))
        || any_prefix(&ws, &["unverzüglich", "spätestens", "binnen", "frist"])
        || phrase(text, &["without undue delay", "no later than"]);
    (asks.deadline
        && ((has_num && deadline_word) || phrase(text, &["unverzüglich", "without undue delay"])))
        || (asks.threshold
            && has_num
            && any_prefix(
                &ws,
                &[
                    "person",
                    "beschäftig",
                    "mitarbeit",
                    "arbeitnehm",
                    "employ",
                    "mindestens",
                    "least",
                    "weniger",
                    "mehr als",
                    "more",
                ],
            ))
        || (asks.amount
            && (phrase(
                text,
                &["eur", "euro", "%", "prozent", "per cent", "percent"],
            ) && has_num))
        || (asks.age
            && any_prefix(
                &ws,
                &[
                    "lebensjahr",
                    "jahr",
                    "alter",
                    "age",
                    "years",
                    "kind",
                    "child",
                ],
            )
            && has_num)
        || (asks.exception
            && (phrase(
                text,
                &[
                    "gilt nicht",
                    "es sei denn",
                    "ausgenommen",
                    "findet keine anwendung",
                    "does not apply",
                    "unless",
                    "shall not apply",
                ],
            )))
}

/// A scored unit.
#[derive(Debug, Clone)]
pub struct ScoredUnit {
    pub unit: Unit,
    pub score: f64,
    /// Place of the unit's norm among the distinct ranked norms (0-based).
    pub norm_rank: usize,
}

/// Score units against the question. `unit_terms` analyses a unit's text in
/// its language; `idf` weighs a term; `terms_de` / `terms_en` are the
/// question's analysed terms in each language (own or translated).
pub fn score_units(
    units: Vec<(usize, Unit)>,
    asks: Asks,
    terms_de: &[String],
    terms_en: &[String],
    unit_terms: &dyn Fn(&str, Lang) -> Vec<String>,
    idf: &dyn Fn(&str) -> f64,
) -> Vec<ScoredUnit> {
    let mass = |ts: &[String]| ts.iter().map(|t| idf(t)).sum::<f64>();
    let (mass_de, mass_en) = (mass(terms_de), mass(terms_en));
    units
        .into_iter()
        .map(|(norm_rank, unit)| {
            let (q, m) = match unit.lang {
                Lang::De => (terms_de, mass_de),
                Lang::En => (terms_en, mass_en),
            };
            // an item is read with its list's lead-in (measured: crediting the
            // lead-in's words at half lowered answer-fact recall, as did a
            // bonus for a norm's first sentence)
            let mut text = unit.text.clone();
            if let Some(l) = &unit.lead_in {
                text.push(' ');
                text.push_str(l);
            }
            let have: BTreeSet<String> = unit_terms(&text, unit.lang).into_iter().collect();
            let got: f64 = q.iter().filter(|t| have.contains(*t)).map(|t| idf(t)).sum();
            let lexical = if m > 0.0 { got / m } else { 0.0 };
            let mut score = lexical;
            if cue(&unit.text, asks) {
                score += CUE_GAIN;
            }
            if unit.text.chars().any(|c| c.is_ascii_digit()) {
                score += NUMBER_GAIN;
            }
            let w = RANK_WEIGHTS.get(norm_rank).copied().unwrap_or(0.0);
            ScoredUnit {
                unit,
                score: score * w,
                norm_rank,
            }
        })
        .collect()
}

/// The list a unit belongs to: the positions (in `all`) of the items that
/// share its lead-in, in reading order, and the position of the lead-in
/// sentence itself when it is a unit. A unit that is neither an item nor a
/// lead-in has none.
fn list_of(all: &[ScoredUnit], i: usize) -> Option<(Option<usize>, Vec<usize>)> {
    let u = &all[i].unit;
    let same = |o: &Unit| o.norm == u.norm && o.lang == u.lang;
    // an item: its siblings share norm, language and lead-in
    let lead = match (&u.label, &u.lead_in) {
        (Some(_), Some(l)) => Some(l.clone()),
        _ => {
            // a lead-in sentence: the next unit is an item whose lead-in ends with it
            all.iter()
                .find(|o| same(&o.unit) && o.unit.pos == u.pos + 1)
                .and_then(|o| match (&o.unit.label, &o.unit.lead_in) {
                    (Some(_), Some(l)) if l.trim_end().ends_with(u.text.trim_end()) => {
                        Some(l.clone())
                    }
                    _ => None,
                })
        }
    }?;
    let mut items: Vec<usize> = (0..all.len())
        .filter(|&j| {
            let o = &all[j].unit;
            same(o) && o.label.is_some() && o.lead_in.as_deref() == Some(lead.as_str())
        })
        .collect();
    items.sort_by_key(|&j| all[j].unit.pos);
    let first = all[*items.first()?].unit.pos;
    let head = (0..all.len()).find(|&j| {
        let o = &all[j].unit;
        same(o)
            && o.pos + 1 == first
            && o.label.is_none()
            && lead.trim_end().ends_with(o.text.trim_end())
    });
    Some((head, items))
}

/// Pinpoint of a whole list: `Art. 15 Abs. 1 lit. a–h DSGVO` from the
/// pinpoints of its first and last item.
fn list_pinpoint(first: &Unit, last: &Unit) -> String {
    let strip = |p: &str| -> Option<(String, String)> {
        let body = p.strip_suffix(&format!(" {}", first.regulation))?;
        let (head, tail) = body.rsplit_once(' ')?;
        Some((head.to_string(), tail.to_string()))
    };
    match (strip(&first.pinpoint), strip(&last.pinpoint)) {
        (Some((h1, a)), Some((h2, b))) if h1 == h2 && a != b => {
            format!("{h1} {a}–{b} {}", first.regulation)
        }
        _ => first.pinpoint.clone(),
    }
}

/// One unit for a whole list: lead-in, then every item with its marker.
fn list_unit(all: &[ScoredUnit], head: Option<usize>, items: &[usize]) -> Unit {
    let first = &all[items[0]].unit;
    let last = &all[items[items.len() - 1]].unit;
    let text = items
        .iter()
        .map(|&j| {
            let u = &all[j].unit;
            format!(
                "{} {}",
                u.label.as_deref().unwrap_or(""),
                shorten(&u.text, LIST_ITEM_MAX_CHARS)
            )
        })
        .collect::<Vec<_>>()
        .join(" ");
    Unit {
        norm: first.norm.clone(),
        regulation: first.regulation.clone(),
        pinpoint: list_pinpoint(first, last),
        text,
        lead_in: first.lead_in.clone(),
        lang: first.lang,
        pos: head.map_or(first.pos, |h| all[h].unit.pos),
        label: None,
        is_list: true,
    }
}

/// Pick the evidence: best first, within the limits, then in reading order
/// (norm rank, position in the norm). A selected item or lead-in of a list
/// of at most [`LIST_MAX_ITEMS`] items brings the whole list, quoted as one
/// unit.
pub fn select(scored: Vec<ScoredUnit>) -> Vec<ScoredUnit> {
    let mut order: Vec<usize> = (0..scored.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&scored[a], &scored[b]);
        b.score
            .total_cmp(&a.score)
            .then(a.norm_rank.cmp(&b.norm_rank))
            .then(a.unit.pos.cmp(&b.unit.pos))
    });
    let best = order.first().map_or(0.0, |&i| scored[i].score);
    let mut covered = vec![false; scored.len()];
    let mut out: Vec<ScoredUnit> = Vec::new();
    for i in order {
        let s = &scored[i];
        if out.len() >= EVIDENCE_MAX_UNITS {
            break;
        }
        if !out.is_empty() && s.score < EVIDENCE_MIN_SHARE * best {
            break;
        }
        if covered[i] {
            continue;
        }
        if out.iter().filter(|o| o.unit.norm == s.unit.norm).count() >= EVIDENCE_MAX_PER_NORM {
            continue;
        }
        if out
            .iter()
            .any(|o| o.unit.pinpoint == s.unit.pinpoint && o.unit.lang == s.unit.lang)
        {
            continue;
        }
        match list_of(&scored, i) {
            Some((head, items)) if (2..=LIST_MAX_ITEMS).contains(&items.len()) => {
                for &j in items.iter().chain(head.iter()) {
                    covered[j] = true;
                }
                out.push(ScoredUnit {
                    unit: list_unit(&scored, head, &items),
                    score: s.score,
                    norm_rank: s.norm_rank,
                });
            }
            _ => {
                covered[i] = true;
                out.push(s.clone());
            }
        }
    }
    // the primary norm (rank 0) always speaks: retrieval chose it, so its
    // best unit is quoted even when another norm's units share more words
    // with the question (German inflection: „eingewilligt“ ≠ „Einwilligung“)
    if !out.is_empty() && !out.iter().any(|o| o.norm_rank == 0) {
        let best0 = (0..scored.len())
            .filter(|&i| scored[i].norm_rank == 0)
            .max_by(|&a, &b| {
                scored[a]
                    .score
                    .total_cmp(&scored[b].score)
                    .then(scored[b].unit.pos.cmp(&scored[a].unit.pos))
            });
        if let Some(i) = best0 {
            let unit = match list_of(&scored, i) {
                Some((head, items)) if (2..=LIST_MAX_ITEMS).contains(&items.len()) => {
                    list_unit(&scored, head, &items)
                }
                _ => scored[i].unit.clone(),
            };
            if out.len() >= EVIDENCE_MAX_UNITS {
                out.pop();
            }
            out.push(ScoredUnit {
                unit,
                score: scored[i].score,
                norm_rank: 0,
            });
        }
    }
    out.sort_by(|a, b| {
        a.norm_rank
            .cmp(&b.norm_rank)
            .then(a.unit.pos.cmp(&b.unit.pos))
    });
    out
}

/// The evidence entries of selected units.
///
/// `url_of(regulation, norm label)` gives the official address of the
/// provision (`("BDSG", "§ 38")`), see `Manifest::norm_url`.
pub fn to_evidence(
    selected: &[ScoredUnit],
    url_of: &dyn Fn(&str, &str) -> Option<String>,
) -> Vec<Evidence> {
    selected
        .iter()
        .map(|s| {
            let norm = s.unit.norm.as_str();
            let label = norm
                .strip_suffix(s.unit.regulation.as_str())
                .map_or(norm, str::trim);
            Evidence {
                pinpoint: s.unit.pinpoint.clone(),
                norm: norm.to_string(),
                regulation: s.unit.regulation.clone(),
                text: s.unit.quote(),
                url: url_of(&s.unit.regulation, label),
                lang: s.unit.lang,
            }
        })
        .collect()
}

/// The extractive answer text: each unit quoted with its pinpoint and its
/// `[n]`, after a lead-in sentence in the question's language.
pub fn extractive_text(evidence: &[Evidence], lang: Lang) -> String {
    let mut s = String::from(match lang {
        Lang::De => "Die einschlägigen Vorschriften lauten:",
        Lang::En => "The relevant provisions read:",
    });
    for (i, e) in evidence.iter().enumerate() {
        s.push_str(&format!("\n- {}: „{}“ [{}]", e.pinpoint, e.text, i + 1));
    }
    s
}

#[cfg(test)]
mod tests;
