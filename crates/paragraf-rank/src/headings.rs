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
                // each match, and whether the heading's first part holds it: a
                // matter after „;“ is a second one (§ 8c UWG „…; Haftung“)
                let mut round: Vec<(bool, HeadingMatch)> = Vec::new();
                for h in self.headings.iter().filter(|h| h.norm.is_of(r)) {
                    let seen = |m: &HeadingMatch| m.norm == h.norm;
                    if found.iter().any(seen) || round.iter().any(|(_, m)| seen(m)) {
                        continue;
                    }
                    let words = crate::text::tokens(&h.text, false);
                    if let Some(p) = patterns.iter().find(|p| p.matches(&words)) {
                        let weight = h.words.iter().map(|w| self.idf(&w[0])).sum();
                        let leading = first_norms.is_some() && {
                            let first = h.text.split(';').next().unwrap_or_default();
                            p.matches(&crate::text::tokens(first, false))
                        };
                        round.push((
                            leading,
                            HeadingMatch {
                                norm: h.norm.clone(),
                                heading: format!("Überschrift „{}“", h.text),
                                terms: vec![p.source.clone()],
                                coverage: 1.0,
                                weight,
                            },
                        ));
                    }
                }
                if round.is_empty() {
                    continue;
                }
                if let Some(k) = first_norms {
                    round.sort_by_key(|(leading, m)| {
                        let n = crate::text::norm_number(m.norm.as_str());
                        (!*leading, n.unwrap_or(u32::MAX), m.norm.0.clone())
                    });
                    round.truncate(k);
                }
                found.extend(round.into_iter().map(|(_, m)| m));
                break;
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
        self.keep_best(&mut found, p);
        found
    }

    /// The laws a question names, best first: an ordinance only when no law
    /// is named, by lift (ties: name), at most `lawTitleMaxLaws`. Also for
    /// laws named otherwise than by title (a glossary term).
    pub fn keep_best(&self, found: &mut Vec<LawMatch>, p: &RankParams) {
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
    /// Build from (analysed terms, surface form, norm) and the practices
    /// the members of a family of terms name (`family`); entries without
    /// terms are dropped, duplicates kept once.
    pub fn new(entries: impl IntoIterator<Item = (Vec<String>, String, NormRef)>) -> DefinedTerms {
        let mut seen: BTreeMap<(Vec<String>, String), String> = BTreeMap::new();
        for (mut terms, surface, norm) in family::with_practices(entries.into_iter().collect()) {
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
/// numbered item or sentence — and the unquoted terms of German numbered
/// items and paragraphs (`unquoted_term`: „1. Geschäftsgeheimnis eine
/// Information …“, „(2) Verstöße sind …“). Returns the surface forms in
/// order.
pub fn defined_terms_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim_start();
        // a numbered item or paragraph („1.“, „(2)“), not a lettered one
        let numbered = l.starts_with(|c: char| c.is_ascii_digit())
            || (l.starts_with('(') && l[1..].starts_with(|c: char| c.is_ascii_digit()));
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
            _ => {
                out.extend(unquoted_term(l).filter(|_| numbered));
                continue;
            }
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

/// Most words an unquoted defined term has (`unquoted_term`).
const UNQUOTED_TERM_MAX_WORDS: usize = 4;

/// The words that end an unquoted German defined term: the article that
/// opens its definiens („1. Geschäftsgeheimnis eine Information …“,
/// „2. Inhaber eines Geschäftsgeheimnisses jede natürliche … Person“) or
/// the verb that says what it is („(2) Verstöße sind Handlungen …“,
/// „(5) Offenlegung bezeichnet …“).
const UNQUOTED_TERM_ENDS: &[&str] = &[
    "ein",
    "eine",
    "einen",
    "jede",
    "jeder",
    "jedes",
    "alle",
    "die",
    "das",
    "den",
    "ist",
    "sind",
    "bezeichnet",
    "bezeichnen",
    "bedeutet",
];

/// Words of a sentence about the definitions rather than a term.
const UNQUOTED_TERM_FRAMES: &[&str] = &[
    "für", "im", "in", "nach", "bei", "mit", "zu", "auf", "dieses", "dieser", "diese", "gelten",
    "gilt", "sinne",
];

/// The defined term of an unquoted German definition item (numbered items
/// and paragraphs of a definitions norm, the item number already cut):
/// the words before [`UNQUOTED_TERM_ENDS`], at most
/// [`UNQUOTED_TERM_MAX_WORDS`], one of them a noun (capitalised). `None`
/// for an item that opens otherwise („Für dieses Gesetz gelten …“, „das
/// Bundesamt,“, „Arbeitnehmerinnen und Arbeitnehmer,“).
fn unquoted_term(item: &str) -> Option<String> {
    let words: Vec<&str> = item
        .split_whitespace()
        .take(UNQUOTED_TERM_MAX_WORDS + 1)
        .collect();
    let end = words.iter().position(|w| UNQUOTED_TERM_ENDS.contains(w))?;
    let term = &words[..end];
    let clean = |w: &&str| w.chars().all(|c| c.is_alphabetic() || c == '-');
    let noun = |w: &&str| w.chars().next().is_some_and(char::is_uppercase);
    // a sentence about the definitions, not a term („Für dieses Gesetz gelten …“)
    let frame = |w: &&str| UNQUOTED_TERM_FRAMES.contains(&w.to_lowercase().as_str());
    (!term.is_empty() && term.iter().all(clean) && term.iter().any(noun) && !term.iter().any(frame))
        .then(|| term.join(" "))
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
            || defined.iter().any(|d| d.norm == m.norm)
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
    let defines = |n: &NormRef| is_definitions_norm(n) || defined.iter().any(|m| m.norm == *n);
    let governs = |n: &NormRef| !defines(n) && defining.iter().any(|r| n.is_of(r));
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

mod family;
mod named;
pub use named::{
    keep_asked_terms, keep_meant_laws, keep_named_law_titles, keep_named_laws, meant_definitions,
};

#[cfg(test)]
mod tests;
