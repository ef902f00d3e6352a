//! The law's own words as ranking signals: norm headings and defined terms.
//!
//! Every norm has a heading (`<titel>` of a §, the title of an EU article or
//! annex, a control's title), and definitions norms name their defined terms
//! („Pseudonymisierung“, ‘provider’). A question whose content terms cover a
//! heading strongly names that norm's subject, so the norm gets the seed's
//! `topicGain` exactly as a lexicon topic does — without a hand entry. The
//! explanation names the heading and the terms that matched.
//!
//! The table holds *analysed* terms (the index analyzer's output: stop words
//! removed, stemmed, umlauts folded, German compounds split), computed by the
//! caller, so this module stays pure: no analyzer, no I/O.
//!
//! Matching is a BM25F-style heading field with an all-or-most rule instead
//! of a raw score. A heading is a list of words, each with its analysed full
//! term and, for a German compound, its parts („Meldepflichten“ →
//! `meldepflicht` + `meld`, `pflicht`), so a compound counts once, not once
//! per part. With `idf(t) = ln(1 + (N − df + ½)/(df + ½))` over the headings,
//! a heading word earns
//!
//! * `idf(full)` when the question holds the word itself,
//! * half of that ([`PART_CREDIT`]) when the question holds it only as a
//!   part of one of its compounds, or holds only some of the word's parts
//!   (scaled by their idf share);
//!
//! `matched = Σ earned`, `coverage = matched / Σ idf(full)` over the words.
//!
//! a heading is a *strong match* when `coverage ≥ headingMinCoverage` and
//! `matched ≥ headingMinWeight` (one rare word or two ordinary ones; a
//! heading like „Begriffsbestimmungen“ present in every act has a tiny idf
//! and never fires alone). Of the strong matches the best
//! `headingMaxNorms` distinct headings by `matched × coverage` (ties:
//! coverage, then norm id) fire — every norm that carries one of them, so
//! the same heading in several laws neither crowds out the others nor is
//! cut by norm id — and only those within `headingRelativeMin × best`: a short heading
//! the question covers whole („Obligations of distributors“) outranks a
//! longer one it covers in part („Requirements for products with digital
//! elements“) though the longer one matched more words.

use crate::params::RankParams;
use crate::text::Pattern;
use paragraf_types::{Lang, NormRef};

/// Share of a heading word's idf earned when the question holds it only as a
/// part of a compound, or holds only parts of it.
pub const PART_CREDIT: f64 = 0.5;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// One heading of the table: the norm, the heading as written, its words.
#[derive(Debug, Clone, PartialEq)]
pub struct Heading {
    pub norm: NormRef,
    /// The language the heading is written in.
    pub lang: Lang,
    /// The heading as the law writes it (for the explanation).
    pub text: String,
    /// Analysed words of the heading: per word its full term first, then
    /// the parts of a compound (the analyzer's output for that word).
    pub words: Vec<Vec<String>>,
}

/// A question's analysed terms: full words (and translations) and the parts
/// of its compounds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryTerms {
    pub full: Vec<String>,
    pub parts: Vec<String>,
    /// The question's language. When given, a norm with a heading in this
    /// language is matched by that heading only: its heading in the other
    /// language (reached by translated terms) does not speak for it. Norms
    /// written only in the other language are matched as before.
    pub lang: Option<Lang>,
}

/// A strong heading match (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeadingMatch {
    pub norm: NormRef,
    /// What matched, for the explanation: `Überschrift „…“` (the heading as
    /// the law writes it) or `Begriffsbestimmung „…“` (a defined term).
    pub heading: String,
    /// The analysed terms of the question that matched.
    pub terms: Vec<String>,
    /// `matched / Σ idf` of the heading.
    pub coverage: f64,
    /// `Σ idf` of the matched terms.
    pub weight: f64,
}

/// Headings of all norms with their term statistics.
#[derive(Debug, Clone, Default)]
pub struct HeadingTable {
    headings: Vec<Heading>,
    /// Per heading: whether its norm also has a heading in the other
    /// language (`QueryTerms::lang`).
    has_twin: Vec<bool>,
    idf: HashMap<String, f64>,
    postings: HashMap<String, Vec<u32>>,
    /// Per heading and word: whether the word is common in the norm's law
    /// (`headingCommonShare`, set by [`HeadingTable::mark_common`]).
    common: Vec<Vec<bool>>,
}

impl HeadingTable {
    /// Build the table. Entries with the same norm and the same terms (the
    /// heading repeated on every Absatz chunk) are kept once; a norm may keep
    /// several headings (German and English).
    pub fn new(entries: impl IntoIterator<Item = Heading>) -> HeadingTable {
        let mut headings: Vec<Heading> = entries
            .into_iter()
            .filter_map(|mut h| {
                h.words.retain(|w| !w.is_empty());
                // a word once (titles are short: a scan, no set)
                let mut i = 0;
                while i < h.words.len() {
                    if h.words[..i].iter().any(|w| w[0] == h.words[i][0]) {
                        h.words.remove(i);
                    } else {
                        i += 1;
                    }
                }
                (!h.words.is_empty()).then_some(h)
            })
            .collect();
        // one heading per norm and set of words, the first one given
        let keep: Vec<bool> = {
            let mut seen: HashSet<(&str, Vec<&[String]>)> = HashSet::new();
            headings
                .iter()
                .map(|h| {
                    let mut key: Vec<&[String]> = h.words.iter().map(Vec::as_slice).collect();
                    key.sort_unstable();
                    seen.insert((h.norm.0.as_str(), key))
                })
                .collect()
        };
        let mut keep = keep.into_iter();
        headings.retain(|_| keep.next().unwrap_or(false));
        headings.sort_by(|a, b| a.norm.0.cmp(&b.norm.0).then(a.text.cmp(&b.text)));
        let mut postings: HashMap<String, Vec<u32>> = HashMap::new();
        for (i, h) in headings.iter().enumerate() {
            let terms: BTreeSet<&String> = h.words.iter().flatten().collect();
            for t in terms {
                match postings.get_mut(t.as_str()) {
                    Some(p) => p.push(i as u32),
                    None => {
                        postings.insert(t.clone(), vec![i as u32]);
                    }
                }
            }
        }
        let n = headings.len() as f64;
        let idf = postings
            .iter()
            .map(|(t, p)| {
                let df = p.len() as f64;
                (t.clone(), (1.0 + (n - df + 0.5) / (df + 0.5)).ln())
            })
            .collect();
        let langs: HashSet<(&str, Lang)> = headings
            .iter()
            .map(|h| (h.norm.0.as_str(), h.lang))
            .collect();
        let has_twin = headings
            .iter()
            .map(|h| {
                let other = match h.lang {
                    Lang::De => Lang::En,
                    Lang::En => Lang::De,
                };
                langs.contains(&(h.norm.0.as_str(), other))
            })
            .collect();
        let common = headings
            .iter()
            .map(|h| vec![false; h.words.len()])
            .collect();
        HeadingTable {
            headings,
            has_twin,
            idf,
            postings,
            common,
        }
    }

    /// Mark the words of every heading that `is_common(heading, full term)`
    /// says are common in the heading's law: they earn
    /// `headingCommonCredit` of their idf in a match.
    pub fn mark_common(&mut self, is_common: impl Fn(&Heading, &str) -> bool) {
        for (h, c) in self.headings.iter().zip(self.common.iter_mut()) {
            for (w, flag) in h.words.iter().zip(c.iter_mut()) {
                *flag = is_common(h, &w[0]);
            }
        }
    }

    /// The headings of the table (after deduplication), in table order.
    pub fn headings(&self) -> &[Heading] {
        &self.headings
    }

    /// Number of distinct headings.
    pub fn len(&self) -> usize {
        self.headings.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.headings.is_empty()
    }

    /// Inverse heading frequency of an analysed term (0 when unknown).
    pub fn idf(&self, term: &str) -> f64 {
        self.idf.get(term).copied().unwrap_or(0.0)
    }

    /// The strong heading matches of a question's analysed terms, best first.
    pub fn matches(&self, query: &QueryTerms, p: &RankParams) -> Vec<HeadingMatch> {
        let found = self
            .scan(query, p)
            .into_iter()
            .map(|mut m| {
                m.heading = format!("Überschrift „{}“", m.heading);
                m
            })
            .collect();
        best_matches(found, p)
    }

    /// Under a heading intent: the norms of the named `regulations` whose
    /// heading answers that kind of question (`primary`, the lexicon's
    /// `headings` of the intent, on the heading's normalised words): for
    /// application intent „Inkrafttreten und Geltungsbeginn“, "Entry into
    /// force", "Transposition"; for scope intent „Anwendungsbereich“,
    /// "Scope", „Verpflichtete“. A law without such a heading answers with
    /// its `fallback` headings (transitional provisions). One match per norm,
    /// in table order; coverage 1 — the law names the norm for this question
    /// itself. `first_norms`: keep per law only that many matches, the
    /// lowest-numbered (a law states its scope up front: Art. 2 and 3
    /// DSGVO, not Art. 33 NIS2 on supervising important entities).
    pub fn intent_matches(
        &self,
        regulations: &[String],
        primary: &[Pattern],
        fallback: &[Pattern],
        first_norms: Option<usize>,
    ) -> Vec<HeadingMatch> {
        let mut found: Vec<HeadingMatch> = Vec::new();
        for r in regulations {
            for patterns in [primary, fallback] {
                let before = found.len();
                for h in self.headings.iter().filter(|h| h.norm.is_of(r)) {
                    if found.iter().any(|m| m.norm == h.norm) {
                        continue;
                    }
                    let words = crate::text::tokens(&h.text, false);
                    if let Some(p) = patterns.iter().find(|p| p.matches(&words)) {
                        let weight = h.words.iter().map(|w| self.idf(&w[0])).sum();
                        found.push(HeadingMatch {
                            norm: h.norm.clone(),
                            heading: format!("Überschrift „{}“", h.text),
                            terms: vec![p.source.clone()],
                            coverage: 1.0,
                            weight,
                        });
                    }
                }
                if found.len() > before {
                    if let Some(k) = first_norms {
                        found[before..].sort_by_key(|m| {
                            let n = crate::text::norm_number(m.norm.as_str());
                            (n.unwrap_or(u32::MAX), m.norm.0.clone())
                        });
                        found.truncate(before + k.min(found.len() - before));
                    }
                    break;
                }
            }
        }
        found
    }

    /// Every entry the question covers with `coverage ≥ min_coverage` and
    /// `matched ≥ min_weight`, in table order; `heading` holds the entry's
    /// text as written.
    fn scan(&self, query: &QueryTerms, p: &RankParams) -> Vec<HeadingMatch> {
        let (min_coverage, min_weight) = (p.heading_min_coverage, p.heading_min_weight);
        let full: BTreeSet<&str> = query.full.iter().map(String::as_str).collect();
        let parts: BTreeSet<&str> = query.parts.iter().map(String::as_str).collect();
        let mut touched: BTreeSet<u32> = BTreeSet::new();
        for t in full.iter().chain(&parts) {
            if let Some(ps) = self.postings.get(*t) {
                touched.extend(ps.iter().copied());
            }
        }
        let mut found: Vec<HeadingMatch> = Vec::new();
        for i in touched {
            let h = &self.headings[i as usize];
            // a norm with a heading in the question's language is judged by it
            if query.lang.is_some_and(|l| h.lang != l) && self.has_twin[i as usize] {
                continue;
            }
            let mut total = 0.0;
            let mut matched = 0.0;
            let mut matched_terms: Vec<String> = Vec::new();
            for (w, &common) in h.words.iter().zip(&self.common[i as usize]) {
                let head = &w[0];
                let weight = self.idf(head);
                total += weight;
                let credit = if common { p.heading_common_credit } else { 1.0 };
                let earned = credit
                    * if full.contains(head.as_str()) {
                        weight
                    } else if parts.contains(head.as_str()) {
                        PART_CREDIT * weight
                    } else {
                        let word_parts = &w[1..];
                        let mass: f64 = word_parts.iter().map(|t| self.idf(t)).sum();
                        let got: f64 = word_parts
                            .iter()
                            .filter(|t| full.contains(t.as_str()) || parts.contains(t.as_str()))
                            .map(|t| self.idf(t))
                            .sum();
                        if mass > 0.0 {
                            PART_CREDIT * weight * got / mass
                        } else {
                            0.0
                        }
                    };
                if earned > 0.0 {
                    matched += earned;
                    matched_terms.push(head.clone());
                }
            }
            if total <= 0.0 {
                continue;
            }
            let coverage = matched / total;
            if coverage >= min_coverage && matched >= min_weight {
                found.push(HeadingMatch {
                    norm: h.norm.clone(),
                    heading: h.text.clone(),
                    terms: matched_terms,
                    coverage,
                    weight: matched,
                });
            }
        }
        found
    }
}

/// Words that name the kind of instrument, not its subject: a law's title
/// „Gesetz zum Elterngeld und zur Elternzeit“ is about Elterngeld and
/// Elternzeit. Dropped from title variants; as the closing part of a
/// compound („Arbeitszeitgesetz“, „Insolvenzordnung“) they are cut off to
/// give the subject („Arbeitszeit“, „Insolvenz“). Lower case, longest first.
pub const INSTRUMENT_WORDS: &[&str] = &[
    "gesetzbuches",
    "gesetzbuchs",
    "gesetzbuch",
    "verordnung",
    "richtlinie",
    "gesetzes",
    "ordnung",
    "gesetz",
];

/// Most nouns of a title that still names its law as a whole (see
/// [`law_title_variants`]).
pub const LONG_TITLE_NOUNS: usize = 3;

/// The names a question may use for a law, from its title as the law or
/// the manifest writes it: the title without its parenthesis and without
/// instrument words when it has at most [`LONG_TITLE_NOUNS`] nouns, each part of the parenthesis (short title,
/// abbreviation: „… (Bundeselterngeld- und Elternzeitgesetz - BEEG)“), and
/// the subject of every word that ends in an instrument word
/// („Mutterschutzgesetz“ → „Mutterschutz“). Deduplicated, in that order.
pub fn law_title_variants(title: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |s: String| {
        let s = s
            .trim()
            .trim_matches(|c: char| c == ',' || c == ';' || c == '-')
            .trim()
            .to_string();
        if !s.is_empty() && !out.iter().any(|o| o == &s) {
            out.push(s);
        }
    };
    let (outer, inner) = paragraf_types::german::split_parenthesized(title);
    let is_instrument = |w: &str| {
        let l = w.to_lowercase();
        INSTRUMENT_WORDS.contains(&l.trim_matches(|c: char| !c.is_alphanumeric()))
    };
    let strip = |text: &str| -> String {
        text.split_whitespace()
            .filter(|w| !is_instrument(w))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // a long title lists everything the law regulates („… des
    // Arbeitsschutzes zur Verbesserung der Sicherheit … der Beschäftigten
    // bei der Arbeit“): it names the law only when it is short, at most
    // `LONG_TITLE_NOUNS` nouns (capitalised words) besides the instrument
    let nouns = outer
        .split_whitespace()
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase) && !is_instrument(w))
        .count();
    if nouns <= LONG_TITLE_NOUNS {
        push(strip(&outer));
    }
    for part in &inner {
        for piece in part.split(" - ").flat_map(|p| p.split([',', ';'])) {
            push(strip(piece));
        }
    }
    for word in title.split(|c: char| c.is_whitespace() || c == '(' || c == ')') {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric());
        let lower = w.to_lowercase();
        for suffix in INSTRUMENT_WORDS {
            if lower.len() > suffix.len() + 3 && lower.ends_with(suffix) {
                let cut = w.len() - suffix.len();
                if w.is_char_boundary(cut) {
                    push(w[..cut].trim_end_matches('-').to_string());
                }
                break;
            }
        }
    }
    out
}

/// A law the question names by its own title's words (see
/// [`HeadingTable::law_matches`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LawMatch {
    /// Canonical regulation name.
    pub regulation: String,
    /// The title variant that matched, as written.
    pub title: String,
    /// The analysed terms of the question that matched.
    pub terms: Vec<String>,
    /// The best lift of a matched term (see [`LawTitleTable::matches`]).
    pub lift: f64,
}

/// `(term, laws) → (lift, df_L)` per law: the index statistics a law-title
/// match reads (the caller owns the index).
pub type LiftFn<'a> = dyn Fn(&str, &[&str]) -> Vec<(f64, u32)> + 'a;

/// The words of every law's title variants (analysed: full terms and the
/// parts of compounds) → the laws whose titles hold them.
#[derive(Debug, Clone, Default)]
pub struct LawTitleTable {
    /// term → (regulation, the title variant it came from), one per law.
    by_term: BTreeMap<String, Vec<(String, String)>>,
    /// Ordinances (see [`LawTitleTable::new`]).
    ordinances: BTreeSet<String>,
}

impl LawTitleTable {
    /// Build from (regulation, variant as written, its analysed words);
    /// `ordinances` are the laws made under a statute (German
    /// Rechtsverordnungen): below a statute that the question names by
    /// title too, they do not fire (Normenhierarchie: the
    /// Mutterschutzgesetz, not the ordinance on Mutterschutz for civil
    /// servants, answers a question about Mutterschutz).
    pub fn new(
        entries: impl IntoIterator<Item = (String, String, Vec<Vec<String>>)>,
        ordinances: BTreeSet<String>,
    ) -> Self {
        let mut by_term: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        for (law, text, words) in entries {
            for t in words.iter().flatten() {
                let v = by_term.entry(t.clone()).or_default();
                if !v.iter().any(|(l, _)| l == &law) {
                    v.push((law.clone(), text.clone()));
                }
            }
        }
        LawTitleTable {
            by_term,
            ordinances,
        }
    }

    /// Number of distinct title terms.
    pub fn len(&self) -> usize {
        self.by_term.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.by_term.is_empty()
    }

    /// Laws the question names by a word of their own title that their own
    /// text is about: a question term (full or compound part) in a title
    /// variant of law L whose lift `(df_L(t)/n_L) / (df(t)/N)` — how much
    /// more often L's chunks hold the term than the corpus's — reaches
    /// `lawTitleMinLift`, with `df_L(t) ≥ 2`. `lift(t, laws)` returns
    /// `(lift, df_L)` per law (the caller owns the index). Best lift first, ties by
    /// regulation; at most `lawTitleMaxLaws`.
    pub fn matches(&self, query: &QueryTerms, lift: &LiftFn<'_>, p: &RankParams) -> Vec<LawMatch> {
        let terms: BTreeSet<&str> = query
            .full
            .iter()
            .chain(&query.parts)
            .map(String::as_str)
            .collect();
        let mut best: BTreeMap<&str, LawMatch> = BTreeMap::new();
        for t in terms {
            let Some(laws) = self.by_term.get(t) else {
                continue;
            };
            let names: Vec<&str> = laws.iter().map(|(l, _)| l.as_str()).collect();
            for ((law, title), (l, df_law)) in laws.iter().zip(lift(t, &names)) {
                if df_law < 2 || !l.is_finite() || l < p.law_title_min_lift {
                    continue;
                }
                let m = best.entry(law.as_str()).or_insert_with(|| LawMatch {
                    regulation: law.clone(),
                    title: title.clone(),
                    terms: Vec::new(),
                    lift: l,
                });
                m.terms.push(t.to_string());
                if l > m.lift {
                    m.lift = l;
                    m.title = title.clone();
                }
            }
        }
        let mut found: Vec<LawMatch> = best.into_values().collect();
        if found
            .iter()
            .any(|m| !self.ordinances.contains(&m.regulation))
        {
            found.retain(|m| !self.ordinances.contains(&m.regulation));
        }
        found.sort_by(|a, b| {
            b.lift
                .total_cmp(&a.lift)
                .then(a.regulation.cmp(&b.regulation))
        });
        found.truncate(p.law_title_max_laws);
        found
    }
}

/// Order by `weight × coverage` desc, coverage desc, norm id asc; one match
/// per norm; keep those within `headingRelativeMin × best` whose heading
/// (case aside) is one of the first `headingMaxNorms` distinct headings.
fn best_matches(mut found: Vec<HeadingMatch>, p: &RankParams) -> Vec<HeadingMatch> {
    let key = |m: &HeadingMatch| m.weight * m.coverage;
    found.sort_by(|a, b| {
        key(b)
            .total_cmp(&key(a))
            .then(b.coverage.total_cmp(&a.coverage))
            .then(a.norm.0.cmp(&b.norm.0))
            .then(a.heading.cmp(&b.heading))
    });
    let mut seen: BTreeSet<String> = BTreeSet::new();
    found.retain(|m| seen.insert(m.norm.0.clone()));
    let best = found.first().map_or(0.0, key);
    found.retain(|m| key(m) >= p.heading_relative_min * best);
    // one heading in several laws („Obligations of importers“ in the CRA,
    // the GPSR, the RED) names one thing: its norms fire together and count
    // once, and retrieval and the domains decide among them
    let mut kept: Vec<String> = Vec::new();
    found.retain(|m| {
        let h = m.heading.to_lowercase();
        if kept.contains(&h) {
            return true;
        }
        if kept.len() < p.heading_max_norms {
            kept.push(h);
            return true;
        }
        false
    });
    found
}

/// Defined terms → their definitions norm („Pseudonymisierung“ → Art. 4
/// DSGVO), used under definition intent: the question asks what a term means,
/// so the definitions norm that defines that term is its subject.
#[derive(Debug, Clone, Default)]
pub struct DefinedTerms {
    /// (analysed terms of the defined term, its surface form, definitions norm).
    entries: Vec<(Vec<String>, String, NormRef)>,
}

impl DefinedTerms {
    /// Build from (analysed terms, surface form, norm); entries without terms
    /// are dropped, duplicates kept once.
    pub fn new(entries: impl IntoIterator<Item = (Vec<String>, String, NormRef)>) -> DefinedTerms {
        let mut seen: BTreeMap<(Vec<String>, String), String> = BTreeMap::new();
        for (mut terms, surface, norm) in entries {
            terms.sort();
            terms.dedup();
            if terms.is_empty() {
                continue;
            }
            seen.entry((terms, norm.0.clone())).or_insert(surface);
        }
        DefinedTerms {
            entries: seen
                .into_iter()
                .map(|((terms, norm), surface)| (terms, surface, NormRef(norm)))
                .collect(),
        }
    }

    /// Number of defined terms.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Definitions norms whose defined term occurs whole in the question
    /// (every analysed term of it), restricted to `regulations` when that is
    /// not empty. Longer terms first; one match per norm.
    pub fn matches(&self, query_terms: &[String], regulations: &[String]) -> Vec<HeadingMatch> {
        let q: BTreeSet<&str> = query_terms.iter().map(String::as_str).collect();
        let mut found: Vec<HeadingMatch> = self
            .entries
            .iter()
            .filter(|(terms, _, norm)| {
                terms.iter().all(|t| q.contains(t.as_str()))
                    && (regulations.is_empty() || regulations.iter().any(|r| norm.is_of(r)))
            })
            .map(|(terms, surface, norm)| HeadingMatch {
                norm: norm.clone(),
                heading: format!("Begriffsbestimmung „{surface}“"),
                terms: terms.clone(),
                coverage: 1.0,
                weight: terms.len() as f64,
            })
            .collect();
        found.sort_by(|a, b| {
            b.weight
                .total_cmp(&a.weight)
                .then(a.norm.0.cmp(&b.norm.0))
                .then(a.heading.cmp(&b.heading))
        });
        let mut seen: BTreeSet<String> = BTreeSet::new();
        found.retain(|m| seen.insert(m.norm.0.clone()));
        // the longest defined term the question holds names its subject: a
        // term that is only part of it („product“ in „connected product“)
        // is another law's word for something else
        let longer: Vec<BTreeSet<&str>> = found
            .iter()
            .map(|m| m.terms.iter().map(String::as_str).collect())
            .collect();
        let keep: Vec<bool> = longer
            .iter()
            .map(|t| !longer.iter().any(|o| o.len() > t.len() && t.is_subset(o)))
            .collect();
        found
            .into_iter()
            .zip(keep)
            .filter_map(|(m, k)| k.then_some(m))
            .collect()
    }
}

/// Defined terms of a definitions text: the quoted terms that open a
/// definition — German „…“ / "…", English ‘…’ / '…' / "…" at the start of a
/// numbered item or sentence. Returns the surface forms in order.
pub fn defined_terms_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim_start();
        // skip an item number such as "1." / "(1)" / "a)" / "11."
        let l = l.trim_start_matches(|c: char| c.is_ascii_digit() || "().) ".contains(c));
        let mut chars = l.char_indices();
        let Some((_, open)) = chars.next() else {
            continue;
        };
        let close = match open {
            '„' => '“',
            '"' => '"',
            '‘' => '’',
            '\'' => '\'',
            '“' => '”',
            _ => continue,
        };
        let rest = &l[open.len_utf8()..];
        if let Some(end) = rest.find(close) {
            let term = rest[..end].trim();
            let words = term.split_whitespace().count();
            if !term.is_empty() && words <= 6 && term.chars().any(char::is_alphabetic) {
                out.push(term.to_string());
            }
        }
    }
    out
}

/// Heading matches a definition question keeps, given its defined-term
/// matches (`defined`, from the definitions norms). A heading of another
/// norm of the defining law whose matched words are all words of the
/// defined term only names the term — duties about it, not its meaning
/// („Critical products with digital elements“ for ‘product with digital
/// elements’): it is dropped. A heading that matched other words of the
/// question stays (Art. 44 DSGVO „Datenübermittlung“ when „personenbezogene
/// Daten“ is also a defined term), and so does every heading of a law that
/// defines none of the question's terms („was bedeutet Datenschutz durch
/// Technikgestaltung“ → Art. 25 DSGVO).
pub fn keep_definition_answers(
    defined: &[HeadingMatch],
    headings: &mut Vec<HeadingMatch>,
    regulation_of: &dyn Fn(&NormRef) -> Option<String>,
    is_definitions_norm: &dyn Fn(&NormRef) -> bool,
) {
    let defining: Vec<(String, BTreeSet<&str>)> = defined
        .iter()
        .filter_map(|m| {
            Some((
                regulation_of(&m.norm)?,
                m.terms.iter().map(String::as_str).collect(),
            ))
        })
        .collect();
    if defining.is_empty() {
        return;
    }
    headings.retain(|m| {
        is_definitions_norm(&m.norm)
            || !defining.iter().any(|(r, terms)| {
                m.norm.is_of(r)
                    && !m.terms.is_empty()
                    && m.terms.iter().all(|t| terms.contains(t.as_str()))
            })
    });
}

/// Hand-topic norms a definition question sets aside, given its
/// defined-term matches (`defined`): a topic norm of a law that defines a
/// term of the question, other than its definitions norm, governs the term
/// rather than saying what it means („what does the GDPR mean by
/// profiling“: Art. 4 answers, Art. 22 of the profiling topic does not). It
/// keeps its retrieval score, not the topic's gain
/// ([`crate::QueryAnalysis::set_aside_topic_norms`]). Topic norms of other
/// laws stay, but for their definitions norms: the definitions norm of a law
/// that does not define the term was only the question's domain's guess
/// ("what is a connected product": the Data Act defines it, the machinery
/// and product safety definitions do not).
pub fn definition_topics_set_aside(
    defined: &[HeadingMatch],
    topic_norms: &[NormRef],
    regulation_of: &dyn Fn(&NormRef) -> Option<String>,
    is_definitions_norm: &dyn Fn(&NormRef) -> bool,
) -> Vec<NormRef> {
    let defining: BTreeSet<String> = defined
        .iter()
        .filter_map(|m| regulation_of(&m.norm))
        .collect();
    let governs = |n: &NormRef| !is_definitions_norm(n) && defining.iter().any(|r| n.is_of(r));
    let other_definitions = |n: &NormRef| {
        !defined.is_empty() && is_definitions_norm(n) && !defined.iter().any(|m| m.norm == *n)
    };
    topic_norms
        .iter()
        .filter(|n| governs(n) || other_definitions(n))
        .cloned()
        .collect()
}

/// The norms of a question (its topic norms and heading matches, `present`)
/// that step aside for the rule they except or restrict (`exceptions`:
/// exception → rule, read from the laws' headings and citations): the rule
/// answers first („Darf ich ein Foto von mir veröffentlichen?“ → § 22 KUG,
/// not its exceptions in § 23). An exception stays when its rule is not
/// there, and when the question names the exception's law but not the
/// rule's (a question about the BDSG's right of access means § 34 BDSG).
/// The caller skips this when the question asks for exceptions.
pub fn exceptions_set_aside(
    present: &[NormRef],
    exceptions: &BTreeMap<NormRef, NormRef>,
    named: &[String],
    regulation_of: &dyn Fn(&NormRef) -> Option<String>,
) -> Vec<NormRef> {
    let names = |n: &NormRef| regulation_of(n).is_some_and(|r| named.contains(&r));
    let mut aside: Vec<NormRef> = present
        .iter()
        .filter(|b| {
            exceptions
                .get(*b)
                // (it stays when the question names its law but not the rule's)
                .is_some_and(|a| present.contains(a) && (names(a) || !names(b)))
        })
        .cloned()
        .collect();
    aside.sort();
    aside.dedup();
    aside
}

/// Heading matches of a question that names its laws (by name or
/// abbreviation, `named`): headings of those laws and of laws of their
/// regime (an EU act and its national implementation, seed 06) stay; a
/// heading of another law that shares a word is incidental.
pub fn keep_named_laws(
    matches: &mut Vec<HeadingMatch>,
    named: &[String],
    regulation_of: &dyn Fn(&NormRef) -> Option<String>,
    regime_of: &dyn Fn(&str) -> String,
) {
    if named.is_empty() {
        return;
    }
    let regimes: BTreeSet<String> = named.iter().map(|r| regime_of(r)).collect();
    matches.retain(|m| {
        regulation_of(&m.norm)
            .is_some_and(|r| named.contains(&r) || regimes.contains(&regime_of(&r)))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn law_title_variants_name_the_subject_not_the_instrument() {
        // long title with short title and abbreviation in parentheses
        let v = law_title_variants(
            "Gesetz zur Förderung der Teilhabe von Pflegekräften (Pflegeteilhabegesetz - PflTG)",
        );
        assert_eq!(
            v,
            vec![
                "zur Förderung der Teilhabe von Pflegekräften",
                "Pflegeteilhabegesetz",
                "PflTG",
                "Pflegeteilhabe"
            ]
        );
        // a short title alone gives itself and its subject; an ordinance too
        assert_eq!(
            law_title_variants("Seilbahngesetz"),
            vec!["Seilbahngesetz", "Seilbahn"]
        );
        assert_eq!(
            law_title_variants("Hafenordnung"),
            vec!["Hafenordnung", "Hafen"]
        );
        // a long title listing many subjects names none of them on its own
        let long = law_title_variants(
            "Gesetz über Maßnahmen zur Sicherheit und zum Schutz der Gesundheit der Beschäftigten bei der Arbeit",
        );
        assert!(long.is_empty(), "{long:?}");
        // two subjects are still a name
        assert_eq!(
            law_title_variants("Gesetz über Wasserwege und Schleusen"),
            vec!["über Wasserwege und Schleusen"]
        );
    }

    fn laws() -> LawTitleTable {
        let w = |terms: &[&str]| terms.iter().map(|t| vec![t.to_string()]).collect();
        LawTitleTable::new(
            vec![
                (
                    "SeilbG".to_string(),
                    "Seilbahn".to_string(),
                    w(&["seilbahn"]),
                ),
                (
                    "SeilbV".to_string(),
                    "Seilbahn".to_string(),
                    w(&["seilbahn"]),
                ),
                ("HafO".to_string(), "Hafen".to_string(), w(&["haf"])),
                ("DatG".to_string(), "Daten".to_string(), w(&["dat"])),
            ],
            ["SeilbV".to_string()].into_iter().collect(),
        )
    }

    /// (lift, df_L) per law: what the engine reads from its index.
    fn lift(term: &str, laws: &[&str]) -> Vec<(f64, u32)> {
        laws.iter()
            .map(|l| match (term, *l) {
                ("seilbahn", "SeilbG") => (80.0, 12),
                ("seilbahn", "SeilbV") => (120.0, 9),
                ("haf", "HafO") => (45.0, 1),
                ("dat", "DatG") => (3.0, 40),
                _ => (0.0, 0),
            })
            .collect()
    }

    #[test]
    fn a_law_fires_on_a_title_word_its_own_text_is_about() {
        let p = RankParams::default();
        // the statute fires; its ordinance (higher lift) stays below it
        let m = laws().matches(&qt(&["seilbahn", "betrieb"]), &lift, &p);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!((m[0].regulation.as_str(), m[0].lift), ("SeilbG", 80.0));
        assert_eq!(m[0].terms, vec!["seilbahn"]);
        // alone, the ordinance fires
        let only_v = LawTitleTable::new(
            vec![(
                "SeilbV".to_string(),
                "Seilbahn".to_string(),
                vec![vec!["seilbahn".to_string()]],
            )],
            ["SeilbV".to_string()].into_iter().collect(),
        );
        assert_eq!(
            only_v.matches(&qt(&["seilbahn"]), &lift, &p)[0].regulation,
            "SeilbV"
        );
        // a word every law uses does not name a law; a word the law's text
        // holds once is not what it is about
        assert!(laws().matches(&qt(&["dat"]), &lift, &p).is_empty());
        assert!(laws().matches(&qt(&["haf"]), &lift, &p).is_empty());
        // a compound part of the question counts like a word
        let q = QueryTerms {
            full: vec!["seilbahnunfall".into()],
            parts: vec!["seilbahn".into(), "unfall".into()],
            lang: None,
        };
        assert_eq!(laws().matches(&q, &lift, &p)[0].regulation, "SeilbG");
        // lawTitleMaxLaws = 0 switches the signal off
        let off = RankParams {
            law_title_max_laws: 0,
            ..RankParams::default()
        };
        assert!(laws().matches(&qt(&["seilbahn"]), &lift, &off).is_empty());
    }

    /// A heading whose words are single terms (no compound parts).
    fn h(norm: &str, text: &str, terms: &[&str]) -> Heading {
        Heading {
            norm: NormRef(norm.into()),
            lang: Lang::De,
            text: text.into(),
            words: terms.iter().map(|s| vec![s.to_string()]).collect(),
        }
    }

    fn qt(full: &[&str]) -> QueryTerms {
        QueryTerms {
            full: full.iter().map(|s| s.to_string()).collect(),
            ..QueryTerms::default()
        }
    }

    fn table() -> HeadingTable {
        HeadingTable::new(vec![
            h("Art. 4 DSGVO", "Begriffsbestimmungen", &["begriffsbestimm"]),
            h("Art. 3 CRA", "Begriffsbestimmungen", &["begriffsbestimm"]),
            h("Art. 3 NIS2", "Definitions", &["definit"]),
            h(
                "Art. 33 DSGVO",
                "Meldung von Verletzungen des Schutzes personenbezogener Daten an die Aufsichtsbehörde",
                &["meldung", "verletzung", "schutz", "personenbezog", "dat", "aufsichtsbehord"],
            ),
            h(
                "Art. 34 DSGVO",
                "Benachrichtigung der von einer Verletzung des Schutzes personenbezogener Daten betroffenen Person",
                &["benachricht", "verletzung", "schutz", "personenbezog", "dat", "betroff", "person"],
            ),
            h("§ 5 BDSG", "Benennung", &["benenn"]),
            h("Art. 37 DSGVO", "Benennung eines Datenschutzbeauftragten", &["benenn", "datenschutzbeauftragt", "datenschutz", "beauftragt"]),
            h("§ 257 HGB", "Aufbewahrung von Unterlagen. Aufbewahrungsfristen", &["aufbewahr", "unterlag", "aufbewahrungsfrist", "frist"]),
            h("Art. 1 DSGVO", "Gegenstand und Ziele", &["gegenstand", "ziel"]),
            h("Art. 1 CRA", "Gegenstand", &["gegenstand"]),
        ])
    }

    /// The norms `intent` finds in `t` for the laws `regs` (every match with
    /// coverage 1).
    fn intent_norms(
        t: &HeadingTable,
        intent: &crate::lexicon::HeadingIntent,
        regs: &[&str],
        first_norms: Option<usize>,
    ) -> Vec<String> {
        let regs: Vec<String> = regs.iter().map(|r| r.to_string()).collect();
        t.intent_matches(
            &regs,
            &intent.headings,
            &intent.fallback_headings,
            first_norms,
        )
        .into_iter()
        .map(|m| {
            assert_eq!(m.coverage, 1.0);
            m.norm.0
        })
        .collect()
    }

    #[test]
    fn a_law_answers_when_it_applies_with_its_own_heading() {
        let lex = crate::lexicon::Lexicon::builtin();
        let app = &lex.application_intent;
        let t = HeadingTable::new(vec![
            h(
                "Art. 12 XVO",
                "Pflichten der Einführer",
                &["pflicht", "einfuhr"],
            ),
            h(
                "Art. 70 XVO",
                "Übergangsbestimmungen",
                &["ubergangsbestimm"],
            ),
            h(
                "Art. 71 XVO",
                "Inkrafttreten und Geltungsbeginn",
                &["inkrafttret", "geltungsbeginn"],
            ),
            h("Art. 30 YRL", "Transposition", &["transposit"]),
            h("Art. 31 YRL", "Entry into force", &["entri", "forc"]),
            h("§ 40 ZG", "Übergangsregelung", &["ubergangsregel"]),
            h("§ 41 ZG", "Außerkrafttreten", &["ausserkrafttret"]),
        ]);
        let norms = |regs: &[&str]| intent_norms(&t, app, regs, None);
        // entry into force and application; transposition and entry into
        // force of a directive; only the named law's norms
        assert_eq!(norms(&["XVO"]), vec!["Art. 71 XVO"]);
        assert_eq!(norms(&["YRL"]), vec!["Art. 30 YRL", "Art. 31 YRL"]);
        // a law without such a heading: its transitional provisions (never
        // its repeal)
        assert_eq!(norms(&["ZG"]), vec!["§ 40 ZG"]);
        assert!(norms(&[]).is_empty());
    }

    #[test]
    fn a_law_states_whom_it_covers_up_front() {
        let lex = crate::lexicon::Lexicon::builtin();
        let scope = &lex.scope_intent;
        let t = HeadingTable::new(vec![
            h(
                "Art. 34 XRL",
                "Supervision of important entities",
                &["supervis", "import", "entiti"],
            ),
            h(
                "Art. 3 XRL",
                "Essential and important entities",
                &["essenti", "import", "entiti"],
            ),
            h("Art. 2 XRL", "Scope", &["scope"]),
            h(
                "§ 2 ZG",
                "Sachlicher Anwendungsbereich",
                &["sachlich", "anwendungsbereich"],
            ),
            h(
                "§ 9 ZG",
                "Pflichten der Verpflichteten",
                &["pflicht", "verpflicht"],
            ),
        ]);
        let norms = |regs: &[&str], k: Option<usize>| intent_norms(&t, scope, regs, k);
        // the lowest-numbered scope headings, never a later norm that
        // shares their words
        assert_eq!(
            norms(&["XRL"], Some(crate::constants::SCOPE_NORMS_PER_LAW)),
            vec!["Art. 2 XRL", "Art. 3 XRL"]
        );
        assert_eq!(norms(&["XRL"], None).len(), 3);
        assert_eq!(norms(&["ZG"], Some(2)), vec!["§ 2 ZG", "§ 9 ZG"]);
    }

    /// Thresholds scaled to a ten-heading table (the defaults assume thousands).
    fn small_table_params(min_weight: f64) -> RankParams {
        RankParams {
            heading_min_coverage: 0.5,
            heading_min_weight: min_weight,
            ..RankParams::default()
        }
    }

    fn q(terms: &[&str]) -> Vec<String> {
        terms.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn strong_heading_match_names_the_norm() {
        let p = small_table_params(3.0);
        // "An wen melde ich eine Datenschutzverletzung? Aufsichtsbehörde?"
        let m = table().matches(
            &qt(&[
                "meld",
                "meldung",
                "verletzung",
                "aufsichtsbehord",
                "datenschutz",
            ]),
            &p,
        );
        assert_eq!(m[0].norm.as_str(), "Art. 33 DSGVO", "{m:?}");
        // "Wie lange müssen Unterlagen aufbewahrt werden?"
        let m = table().matches(&qt(&["lang", "unterlag", "aufbewahr"]), &p);
        assert_eq!(m[0].norm.as_str(), "§ 257 HGB", "{m:?}");
    }

    #[test]
    fn one_heading_in_several_laws_fires_in_each() {
        let p = RankParams {
            heading_max_norms: 1,
            ..small_table_params(0.5)
        };
        let t = HeadingTable::new(vec![
            h(
                "Art. 11 GPSR",
                "Obligations of importers",
                &["oblig", "import"],
            ),
            h(
                "Art. 19 CRA",
                "Obligations of importers",
                &["oblig", "import"],
            ),
            h(
                "Art. 13 CRA",
                "Obligations of manufacturers",
                &["oblig", "manufactur"],
            ),
            h(
                "Art. 20 CRA",
                "Obligations of distributors",
                &["oblig", "distributor"],
            ),
            h("Art. 4 CRA", "Free movement", &["free", "movement"]),
        ]);
        // "what must an importer check", "duties of importers"
        for terms in [&["import", "check"][..], &["duti", "import", "oblig"]] {
            let m = t.matches(&qt(terms), &p);
            let norms: Vec<&str> = m.iter().map(|m| m.norm.as_str()).collect();
            assert_eq!(norms, ["Art. 11 GPSR", "Art. 19 CRA"], "{terms:?}: {m:?}");
        }
    }

    #[test]
    fn common_headings_do_not_fire_alone() {
        let p = small_table_params(3.0);
        // a heading word present in several acts is too common to name one norm
        let m = table().matches(&qt(&["gegenstand", "vertrag"]), &p);
        assert!(m.is_empty(), "{m:?}");
        let m = table().matches(&qt(&["begriffsbestimm"]), &p);
        assert!(m.is_empty(), "{m:?}");
    }

    #[test]
    fn partial_cover_of_a_long_heading_is_weak() {
        let p = small_table_params(3.0);
        // one ordinary word of a seven-word heading
        let m = table().matches(&qt(&["person", "auskunft"]), &p);
        assert!(
            m.iter().all(|m| m.norm.as_str() != "Art. 34 DSGVO"),
            "{m:?}"
        );
    }

    #[test]
    fn same_norm_same_terms_kept_once_and_order_is_stable() {
        let t = HeadingTable::new(vec![
            h("§ 5 BDSG", "Benennung", &["benenn"]),
            h("§ 5 BDSG", "Benennung", &["benenn"]),
            h(
                "Art. 37 DSGVO",
                "Benennung eines Datenschutzbeauftragten",
                &["benenn", "datenschutzbeauftragt"],
            ),
        ]);
        assert_eq!(t.len(), 2);
        let p = small_table_params(0.5);
        let a = t.matches(&qt(&["benenn", "datenschutzbeauftragt"]), &p);
        let b = t.matches(&qt(&["datenschutzbeauftragt", "benenn"]), &p);
        assert_eq!(a, b);
        assert_eq!(a[0].norm.as_str(), "Art. 37 DSGVO");
    }

    /// Five CRA headings: three duties of operators, two about the products.
    fn cra_headings() -> Vec<Heading> {
        vec![
            h(
                "Art. 20 CRA",
                "Obligations of distributors",
                &["oblig", "distributor"],
            ),
            h(
                "Art. 6 CRA",
                "Requirements for products with digital elements",
                &["requir", "product", "digit", "element"],
            ),
            h(
                "Art. 8 CRA",
                "Critical products with digital elements",
                &["critic", "product", "digit", "element"],
            ),
            h(
                "Art. 13 CRA",
                "Obligations of manufacturers",
                &["oblig", "manufactur"],
            ),
            h(
                "Art. 19 CRA",
                "Obligations of importers",
                &["oblig", "import"],
            ),
        ]
    }

    #[test]
    fn a_heading_covered_whole_outranks_a_longer_one_covered_in_part() {
        let p = RankParams {
            heading_min_coverage: 0.6,
            heading_min_weight: 0.1,
            ..RankParams::default()
        };
        let t = HeadingTable::new(cra_headings());
        // "what must a distributor of products with digital elements do":
        // the three-word phrase matches more, the distributors' heading whole
        let m = t.matches(
            &qt(&["oblig", "distributor", "product", "digit", "element"]),
            &p,
        );
        assert_eq!(norms(&m), ["Art. 20 CRA", "Art. 6 CRA", "Art. 8 CRA"]);
        assert!(m[0].weight < m[1].weight && m[0].coverage > m[1].coverage);
    }

    #[test]
    fn words_common_in_their_law_do_not_name_one_norm() {
        let p = RankParams {
            heading_min_coverage: 0.6,
            heading_min_weight: 0.1,
            heading_common_credit: 0.5,
            ..RankParams::default()
        };
        let mut headings = cra_headings();
        headings.push(h("Art. 1 XG", "Scope", &["scope"]));
        let mut t = HeadingTable::new(headings);
        // the act's own vocabulary: in most of its norms
        t.mark_common(|h, term| {
            h.norm.is_of("CRA") && ["product", "digit", "element"].contains(&term)
        });
        // "what must an importer of products with digital elements do":
        // the duties of importers, not every heading naming the products
        let m = t.matches(&qt(&["oblig", "import", "product", "digit", "element"]), &p);
        assert_eq!(norms(&m), ["Art. 19 CRA"]);
        // "which products with digital elements count as critical": the
        // heading's own word carries it
        let m = t.matches(&qt(&["critic", "product", "digit", "element"]), &p);
        assert_eq!(norms(&m)[0], "Art. 8 CRA");
        // "requirements a product with digital elements must meet"
        let m = t.matches(&qt(&["requir", "product", "digit", "element"]), &p);
        assert_eq!(norms(&m)[0], "Art. 6 CRA");
        // the common words alone name no norm
        assert!(t
            .matches(&qt(&["product", "digit", "element"]), &p)
            .is_empty());
        // headingCommonCredit 1 = no discount: every heading naming them fires
        let off = RankParams {
            heading_common_credit: 1.0,
            ..p.clone()
        };
        assert_eq!(
            norms(&t.matches(&qt(&["product", "digit", "element"]), &off)).len(),
            2
        );
    }

    #[test]
    fn a_norm_written_in_the_questions_language_is_judged_by_that_heading() {
        let p = RankParams {
            heading_min_coverage: 0.6,
            heading_min_weight: 0.1,
            ..RankParams::default()
        };
        let en = |norm: &str, text: &str, terms: &[&str]| Heading {
            lang: Lang::En,
            ..h(norm, text, terms)
        };
        let t = HeadingTable::new(vec![
            h(
                "Art. 18 DSGVO",
                "Recht auf Einschränkung",
                &["recht", "einschrank"],
            ),
            en(
                "Art. 18 DSGVO",
                "Right to restriction",
                &["right", "restrict"],
            ),
            en("Art. 14 CRA", "Reporting obligations", &["report", "oblig"]),
        ]);
        // a German question whose translations cover the English heading of
        // a norm that also has a German one: the German heading decides
        let q = |full: &[&str], lang| QueryTerms { lang, ..qt(full) };
        let de = q(
            &["recht", "right", "restrict", "report", "oblig"],
            Some(Lang::De),
        );
        assert_eq!(norms(&t.matches(&de, &p)), ["Art. 14 CRA"]);
        // the same terms in an English question: the English heading
        let en_q = q(&["right", "restrict"], Some(Lang::En));
        assert_eq!(norms(&t.matches(&en_q, &p)), ["Art. 18 DSGVO"]);
        // no language given: every heading
        assert_eq!(t.matches(&q(&["right", "restrict"], None), &p).len(), 1);
    }

    #[test]
    fn a_compound_counts_once_and_a_part_earns_half() {
        let p = RankParams {
            heading_min_coverage: 0.6,
            heading_min_weight: 0.1,
            ..RankParams::default()
        };
        let t = HeadingTable::new(vec![
            Heading {
                norm: NormRef("§ 17 ProdSG".into()),
                lang: Lang::De,
                text: "Meldepflichten der notifizierten Stelle".into(),
                words: vec![
                    vec!["meldepflicht".into(), "meld".into(), "pflicht".into()],
                    vec!["notifiziert".into()],
                    vec!["stell".into()],
                ],
            },
            h("Art. 1 X", "Pflicht", &["pflicht"]),
            h("Art. 2 X", "Stelle", &["stell"]),
        ]);
        // the question names the duty to report and holds `stell` only inside
        // a compound (Hersteller): the notified body's heading is not covered
        let q = QueryTerms {
            full: vec!["meldepflicht".into(), "herstell".into()],
            parts: vec!["stell".into()],
            lang: None,
        };
        assert!(t
            .matches(&q, &p)
            .iter()
            .all(|m| m.norm.as_str() != "§ 17 ProdSG"));
        // all three words: a strong match
        let q = qt(&["meldepflicht", "notifiziert", "stell"]);
        assert_eq!(t.matches(&q, &p)[0].norm.as_str(), "§ 17 ProdSG");
    }

    #[test]
    fn defined_terms_are_read_from_definition_items() {
        let de = "Im Sinne dieser Verordnung bezeichnet der Ausdruck:\n1. „personenbezogene Daten“ alle Informationen, …\n5. „Pseudonymisierung“ die Verarbeitung …";
        assert_eq!(
            defined_terms_in(de),
            vec!["personenbezogene Daten", "Pseudonymisierung"]
        );
        let en = "For the purposes of this Regulation:\n(3) ‘provider’ means a natural or legal person\n(4) 'deployer' means";
        assert_eq!(defined_terms_in(en), vec!["provider", "deployer"]);
        assert!(defined_terms_in("Die Vorschrift gilt „entsprechend“ für …").is_empty());
    }

    #[test]
    fn defined_term_routes_to_its_definitions_norm() {
        let d = DefinedTerms::new(vec![
            (
                q(&["anbiet"]),
                "Anbieter".into(),
                NormRef("Art. 3 KI-VO".into()),
            ),
            (
                q(&["pseudonymisier"]),
                "Pseudonymisierung".into(),
                NormRef("Art. 4 DSGVO".into()),
            ),
            (q(&["anbiet"]), "Anbieter".into(), NormRef("§ 2 DDG".into())),
        ]);
        let m = d.matches(&q(&["gilt", "anbiet", "ki"]), &["KI-VO".into()]);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].norm.as_str(), "Art. 3 KI-VO");
        let m = d.matches(&q(&["bedeut", "pseudonymisier"]), &[]);
        assert_eq!(m[0].norm.as_str(), "Art. 4 DSGVO");
    }

    #[test]
    fn the_longest_defined_term_of_the_question_wins() {
        let d = DefinedTerms::new(vec![
            (
                q(&["product"]),
                "product".into(),
                NormRef("Art. 3 XVO".into()),
            ),
            (
                q(&["connect", "product"]),
                "connected product".into(),
                NormRef("Art. 2 YVO".into()),
            ),
            (
                q(&["manufactur"]),
                "manufacturer".into(),
                NormRef("Art. 3 XVO".into()),
            ),
        ]);
        // „what is a connected product“, "is a connected device a product"
        let m = d.matches(&q(&["connect", "product"]), &[]);
        assert_eq!(norms(&m), vec!["Art. 2 YVO"]);
        // a plain product keeps the shorter term; two unrelated terms both stay
        let m = d.matches(&q(&["product", "manufactur"]), &[]);
        assert_eq!(norms(&m), vec!["Art. 3 XVO"]);
        let m = d.matches(&q(&["product"]), &[]);
        assert_eq!(norms(&m), vec!["Art. 3 XVO"]);
    }

    fn hm(norm: &str) -> HeadingMatch {
        hmt(norm, &["x"])
    }

    fn hmt(norm: &str, terms: &[&str]) -> HeadingMatch {
        HeadingMatch {
            norm: NormRef(norm.into()),
            heading: String::new(),
            terms: terms.iter().map(|t| t.to_string()).collect(),
            coverage: 1.0,
            weight: 1.0,
        }
    }

    fn reg_of(n: &NormRef) -> Option<String> {
        n.0.rsplit_once(' ').map(|(_, r)| r.to_string())
    }

    fn norms(ms: &[HeadingMatch]) -> Vec<&str> {
        ms.iter().map(|m| m.norm.as_str()).collect()
    }

    /// `keep_definition_answers` on matches whose first `defined` are the
    /// defined-term matches; the defined ones first again.
    fn keep_defs(m: &mut Vec<HeadingMatch>, defined: usize, defs: &dyn Fn(&NormRef) -> bool) {
        let mut headings = m.split_off(defined);
        keep_definition_answers(m, &mut headings, &reg_of, defs);
        m.extend(headings);
    }

    #[test]
    fn a_defined_term_drops_headings_of_its_law_only() {
        let defs =
            |n: &NormRef| ["Art. 3 CRA", "Art. 4 DSGVO", "Art. 2 Data"].contains(&n.as_str());
        // „what does the CRA mean by a manufacturer“: Art. 3 defines it, the
        // heading „Obligations of manufacturers“ only names it
        let mut m = vec![
            hmt("Art. 3 CRA", &["manufactur"]),
            hmt("Art. 13 CRA", &["manufactur"]),
            hmt("Art. 14 CRA", &["manufactur", "report"]),
            hmt("§ 4 ProdHaftG", &["manufactur"]),
        ];
        keep_defs(&mut m, 1, &defs);
        // a heading that matched other words too stays, as does another law's
        assert_eq!(norms(&m), ["Art. 3 CRA", "Art. 14 CRA", "§ 4 ProdHaftG"]);
        // a defined term of another law leaves this law's headings alone
        let mut m = vec![
            hmt("Art. 2 Data", &["data"]),
            hmt("Art. 25 DSGVO", &["data"]),
        ];
        keep_defs(&mut m, 1, &defs);
        assert_eq!(norms(&m), ["Art. 2 Data", "Art. 25 DSGVO"]);
        // no defined term matched: every heading stays
        let mut m = vec![hm("Art. 25 DSGVO"), hm("Art. 4 DSGVO")];
        keep_defs(&mut m, 0, &defs);
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn a_defined_term_sets_aside_the_topic_norms_of_its_law() {
        let defs = |n: &NormRef| ["Art. 4 DSGVO", "Art. 3 KI-VO"].contains(&n.as_str());
        let refs = |v: &[&str]| v.iter().map(|n| NormRef(n.to_string())).collect::<Vec<_>>();
        // „was heißt Profiling laut DSGVO“: the profiling topic's Art. 22
        // governs the term, Art. 4 defines it; § 37 BDSG is another law's
        let topics = refs(&["Art. 22 DSGVO", "§ 37 BDSG", "Art. 4 DSGVO"]);
        let aside = definition_topics_set_aside(
            &[hmt("Art. 4 DSGVO", &["profiling"])],
            &topics,
            &reg_of,
            &defs,
        );
        assert_eq!(aside, refs(&["Art. 22 DSGVO"]));
        // "who counts as a deployer under the AI Act": Art. 26 and 50 step back
        let topics = refs(&["Art. 26 KI-VO", "Art. 50 KI-VO"]);
        let aside = definition_topics_set_aside(
            &[hmt("Art. 3 KI-VO", &["deploy"])],
            &topics,
            &reg_of,
            &defs,
        );
        assert_eq!(aside, topics);
        // no defined term matched: nothing set aside
        assert!(definition_topics_set_aside(&[], &topics, &reg_of, &defs).is_empty());
        // another law's definitions norm, guessed from the domain, steps back
        // for the law that defines the term
        let topics = refs(&["Art. 4 DSGVO", "§ 26 BDSG"]);
        let aside = definition_topics_set_aside(
            &[hmt("Art. 3 KI-VO", &["deploy"])],
            &topics,
            &reg_of,
            &defs,
        );
        assert_eq!(aside, refs(&["Art. 4 DSGVO"]));
    }

    #[test]
    fn an_exception_steps_aside_for_its_rule() {
        let refs = |v: &[&str]| v.iter().map(|n| NormRef(n.to_string())).collect::<Vec<_>>();
        let exceptions: BTreeMap<NormRef, NormRef> =
            [("§ 23 KUG", "§ 22 KUG"), ("§ 34 BDSG", "Art. 15 DSGVO")]
                .into_iter()
                .map(|(b, a)| (NormRef(b.into()), NormRef(a.into())))
                .collect();
        let aside = |present: &[&str], named: &[&str]| {
            let named: Vec<String> = named.iter().map(|s| s.to_string()).collect();
            exceptions_set_aside(&refs(present), &exceptions, &named, &reg_of)
        };
        // the rule and its exception: the exception steps aside
        assert_eq!(aside(&["§ 22 KUG", "§ 23 KUG"], &[]), refs(&["§ 23 KUG"]));
        assert_eq!(
            aside(&["§ 34 BDSG", "Art. 15 DSGVO", "Art. 12 DSGVO"], &["DSGVO"]),
            refs(&["§ 34 BDSG"])
        );
        // the exception alone, or its law named without the rule's: it stays
        assert!(aside(&["§ 23 KUG", "Art. 6 DSGVO"], &[]).is_empty());
        assert!(aside(&["§ 34 BDSG", "Art. 15 DSGVO"], &["BDSG"]).is_empty());
    }

    #[test]
    fn a_named_law_keeps_its_own_and_its_regimes_headings() {
        let regime = |r: &str| match r {
            "BSIG" | "NIS2" => "NIS2".to_string(),
            r => r.to_string(),
        };
        let all = || {
            vec![
                hm("Art. 13 CRA"),
                hm("§ 4 ProdHaftG"),
                hm("§ 30 BSIG"),
                hm("Art. 21 NIS2"),
            ]
        };
        let mut m = all();
        keep_named_laws(&mut m, &["CRA".into()], &reg_of, &regime);
        assert_eq!(norms(&m), ["Art. 13 CRA"]);
        // the EU act named: its national implementation stays
        let mut m = all();
        keep_named_laws(&mut m, &["NIS2".into()], &reg_of, &regime);
        assert_eq!(norms(&m), ["§ 30 BSIG", "Art. 21 NIS2"]);
        // no law named: nothing dropped
        let mut m = all();
        keep_named_laws(&mut m, &[], &reg_of, &regime);
        assert_eq!(m.len(), 4);
    }
}
