//! The law's own words, read from the loaded index: norm headings, defined
//! terms and the German ↔ English term table, all through the index's
//! analyzer so that question and law meet on the same terms (stems,
//! decompounded parts, folded umlauts).
//!
//! The matching rules are pure and live in `paragraf_rank::headings` and
//! `paragraf_rank::bilingual`; this module only feeds them analysed text.

use paragraf_index::Analyzer;
use paragraf_index::LawTitles;
use paragraf_rank::bilingual::{stem_collision_words, GlossaryLaw, PhrasePair};
use paragraf_rank::{
    defined_terms_in, law_title_variants, BilingualTerms, DefinedTerms, Heading, HeadingTable,
    LawTitleTable, QueryTerms, Synonyms,
};
use paragraf_types::{Chunk, Lang, NormRef, SourceRole};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

mod bilingual;
#[cfg(test)]
use bilingual::paragraphs;
pub use bilingual::{
    bilingual_tsv, bilingual_tsv_of_index, derive_bilingual_terms, heading_pairs, TermPair,
    TERMS_MIN_BOTH, TERMS_MIN_DICE, TERMS_MIN_PART,
};

/// Analysed, deduplicated terms of `text` as `lang`.
fn terms(analyzer: &Analyzer, text: &str, lang: Lang) -> Vec<String> {
    let mut v = analyzer.analyze_lang(text, lang);
    let mut seen = BTreeSet::new();
    v.retain(|t| seen.insert(t.clone()));
    v
}

/// Analysed words of `text` as `lang`: per word its full term first, then
/// the parts of a compound; words the analyzer drops (stop words) are left out.
fn words(analyzer: &Analyzer, text: &str, lang: Lang) -> Vec<Vec<String>> {
    paragraf_index::analyzer::tokenize(text)
        .iter()
        .map(|t| {
            let mut out = Vec::new();
            analyzer.process(t, lang, &mut out);
            out
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// The glossary's term pairs (`paragraf_rank::bilingual::glossary`) as
/// `analyzer` reads them, for [`BilingualTerms::with_phrases`]. A pair's
/// translation side is the language the corpus does not hold its law in,
/// unless a heading of that language holds all its words: then they are
/// that language's own term too (NIS2's „wichtige Einrichtung“ is the
/// BSIG's, § 28 BSIG).
pub fn glossary_phrases(analyzer: &Analyzer, headings: &HeadingTable) -> Vec<PhrasePair> {
    let in_a_heading = |words: &[String], lang: Lang| {
        headings.headings().iter().any(|h| {
            h.lang == lang
                && words
                    .iter()
                    .all(|w| h.words.iter().any(|hw| hw.contains(w)))
        })
    };
    let side = |text: &str, lang: Lang| {
        let ws = words(analyzer, text, lang);
        let full: Vec<String> = ws.iter().map(|w| w[0].clone()).collect();
        let mut all: Vec<String> = Vec::new();
        for t in ws.into_iter().flatten() {
            if !all.contains(&t) {
                all.push(t);
            }
        }
        (full, all)
    };
    paragraf_rank::bilingual::glossary()
        .iter()
        .map(|e| {
            let (de_words, de_terms) = side(&e.de, Lang::De);
            let (en_words, en_terms) = side(&e.en, Lang::En);
            let translation = Some(match law_language(&e.law) {
                Lang::En => Lang::De,
                Lang::De => Lang::En,
            })
            .filter(|&l| {
                let words = if l == Lang::De { &de_words } else { &en_words };
                !in_a_heading(words, l)
            });
            PhrasePair {
                de_words,
                de_terms,
                en_words,
                en_terms,
                translation,
                names_law: None,
            }
        })
        .collect()
}

/// The language the corpus holds a glossary law in: an EU act in English,
/// a German law in German.
fn law_language(law: &str) -> Lang {
    let eu = paragraf_rank::Lexicon::builtin()
        .regulations
        .iter()
        .any(|r| r.name == law && r.jurisdiction == paragraf_types::Jurisdiction::Eu);
    if eu {
        Lang::En
    } else {
        Lang::De
    }
}

/// Mark the glossary pairs (`phrases`, in glossary order, from
/// [`glossary_phrases`]) whose translation names their law: no chunk of
/// the translation's language holds its words in a row. No text of that
/// language uses the term, so a question that does means the law's
/// ("transparency register" is the GwG's „Transparenzregister“, „wesentliche
/// Einrichtung“ NIS2's "essential entity"), while "trade secret" is also
/// the Data Act's own English wording and names no law. The glossary
/// already says the term is the law's (defined or in a heading), so no
/// further test of the law's text is asked; the lift of the law's own
/// wording (`(df_L/n_L)/(df/N)`, the best of its words) orders the match
/// among the laws a title names.
pub fn mark_glossary_laws(
    phrases: &mut [PhrasePair],
    analyzer: &Analyzer,
    inverted: &paragraf_index::InvertedIndex,
    chunks: &[Chunk],
    lift: &LawLift,
) {
    for (p, e) in phrases.iter_mut().zip(paragraf_rank::bilingual::glossary()) {
        let Some(lang) = p.translation else { continue };
        let (words, own, term) = match lang {
            Lang::De => (&p.de_words, &p.en_words, &e.de),
            Lang::En => (&p.en_words, &p.de_words, &e.en),
        };
        let mut docs: Option<BTreeSet<u32>> = None;
        for w in words {
            let d: BTreeSet<u32> = inverted
                .docs(w)
                .into_iter()
                .filter(|&d| chunks.get(d as usize).is_some_and(|c| c.lang == lang))
                .collect();
            docs = Some(match docs {
                None => d,
                Some(x) => x.intersection(&d).copied().collect(),
            });
        }
        let used = docs.is_none_or(|d| {
            d.iter().any(|&doc| {
                let text: Vec<String> = self::words(analyzer, &chunks[doc as usize].text, lang)
                    .into_iter()
                    .map(|w| w[0].clone())
                    .collect();
                text.windows(words.len()).any(|x| x == words.as_slice())
            })
        });
        if used {
            continue;
        }
        let best = own
            .iter()
            .flat_map(|w| lift.lift_uncached(inverted, chunks, w, &[e.law.as_str()]))
            .map(|(l, _)| l)
            .filter(|l| l.is_finite())
            .fold(0.0, f64::max);
        p.names_law = Some(GlossaryLaw {
            law: e.law.clone(),
            term: term.clone(),
            lift: best,
        });
    }
}

/// The head of the noun phrase `text` opens with (as `lang`) when `text`
/// meets the terms of `held` but the head is not among them: the phrase
/// names something else that the held term only qualifies. The
/// phrase is the opening run of words the analyzer keeps (a stop word ends
/// it: "data processing agreement and who needs one", „Vertrag zur
/// Auftragsverarbeitung“); its head is its last word, of a compound the
/// last part („Auftragsverarbeitungsvertrag“ → `vertrag`). A term is held
/// when it or a translation of it (`table`) is among `held`.
pub fn unheld_head(
    analyzer: &Analyzer,
    text: &str,
    lang: Lang,
    table: &BilingualTerms,
    held: &[String],
) -> Option<String> {
    let holds = |t: &String| {
        held.contains(t)
            || table
                .translate(std::slice::from_ref(t), lang)
                .iter()
                .any(|x| held.contains(x))
    };
    // the words in one pass; the first stop word after a kept word ends the phrase
    let mut all: Vec<Vec<String>> = Vec::new();
    let mut phrase_len = None;
    for t in paragraf_index::analyzer::tokenize(text) {
        let mut w = Vec::new();
        analyzer.process(&t, lang, &mut w);
        if !w.is_empty() {
            all.push(w);
        } else if !all.is_empty() && phrase_len.is_none() {
            phrase_len = Some(all.len());
        }
    }
    let met = all.iter().flatten().any(holds);
    let head = all[..phrase_len.unwrap_or(all.len())].last()?;
    let head_held = holds(&head[0]) || head.len() > 1 && head.last().is_some_and(holds);
    (met && !head_held).then(|| head.last().cloned()).flatten()
}

/// The heading table of all norms of the index: each norm's title in each of
/// its languages (German and English variants of one norm both name it).
/// Each distinct title is analysed once (many norms share one: „Inkrafttreten“,
/// "Definitions"), in parallel.
pub fn heading_table(chunks: &[Chunk], analyzer: &Analyzer) -> HeadingTable {
    table_of(chunks, analyzer, |c| c.title.trim())
}

/// The section headings of all norms: per norm, the innermost heading of
/// the chapter or section it stands under (`breadcrumb`, „Abschnitt 4
/// Strafvorschriften“, "Chapter 8 Criminal Provisions") — for a law whose
/// sanctions are headed only as a section.
pub fn section_table(chunks: &[Chunk], analyzer: &Analyzer) -> HeadingTable {
    table_of(chunks, analyzer, |c| {
        c.breadcrumb.last().map(|s| s.trim()).unwrap_or("")
    })
}

/// A heading table of one heading per norm and language, `title_of` a chunk.
fn table_of<'c>(
    chunks: &'c [Chunk],
    analyzer: &Analyzer,
    title_of: impl Fn(&'c Chunk) -> &'c str,
) -> HeadingTable {
    let mut seen: HashSet<(&str, &str, &str)> = HashSet::new();
    let mut firsts: Vec<(&Chunk, &str)> = Vec::new();
    let mut distinct: HashMap<(Lang, &str), usize> = HashMap::new();
    let mut titles: Vec<(Lang, &str)> = Vec::new();
    for c in chunks {
        let title = title_of(c);
        if title.is_empty() || !seen.insert((c.norm.as_str(), c.regulation.as_str(), title)) {
            continue;
        }
        firsts.push((c, title));
        distinct.entry((c.lang, title)).or_insert_with(|| {
            titles.push((c.lang, title));
            titles.len() - 1
        });
    }
    let analysed: Vec<Vec<Vec<String>>> = titles
        .par_iter()
        .map(|&(lang, t)| words(analyzer, t, lang))
        .collect();
    let entries: Vec<Heading> = firsts
        .into_iter()
        .map(|(c, title)| Heading {
            norm: c.norm_ref(),
            lang: c.lang,
            text: title.to_string(),
            words: analysed[distinct[&(c.lang, title)]].clone(),
        })
        .collect();
    HeadingTable::new(entries)
}

/// Mark the heading words that are common in their law
/// (`headingCommonShare`): found in at least `share` of the law's norms of
/// the heading's language, in a law of at least
/// [`paragraf_rank::constants::HEADING_COMMON_MIN_NORMS`] norms. Counted
/// over the BM25 postings (heading and text of every chunk) of the first
/// `curated` chunks: the curated laws (the embedded ones; all of them
/// with `--embed-scale`). The laws of an `index build --scale` archive tier
/// (after them) keep plain heading idf — marked, they
/// cost a scale index 0.75 s at open and lost a question of
/// `eval/sets/archive-heldout.jsonl` (session 13).
pub fn mark_common_heading_words(
    table: &mut HeadingTable,
    chunks: &[Chunk],
    curated: usize,
    inverted: &paragraf_index::InvertedIndex,
    share: f64,
) {
    if share > 1.0 {
        return;
    }
    let chunks = &chunks[..curated.min(chunks.len())];
    // chunk → (law, language) slot and norm id; norms per slot
    let mut slots: HashMap<(&str, Lang), u32> = HashMap::new();
    let mut norm_ids: HashMap<(&str, &str), u32> = HashMap::new();
    let mut per_slot: Vec<HashSet<u32>> = Vec::new();
    let mut of_chunk: Vec<(u32, u32)> = Vec::with_capacity(chunks.len());
    let mut law_of: HashMap<String, &str> = HashMap::new();
    for c in chunks {
        let next = slots.len() as u32;
        let slot = *slots.entry((c.regulation.as_str(), c.lang)).or_insert(next);
        if slot as usize == per_slot.len() {
            per_slot.push(HashSet::new());
        }
        let next = norm_ids.len() as u32;
        let norm = *norm_ids
            .entry((c.regulation.as_str(), c.norm.as_str()))
            .or_insert(next);
        per_slot[slot as usize].insert(norm);
        of_chunk.push((slot, norm));
        law_of
            .entry(c.norm_ref().0)
            .or_insert(c.regulation.as_str());
    }
    let min = paragraf_rank::constants::HEADING_COMMON_MIN_NORMS;
    let terms: BTreeSet<String> = table
        .headings()
        .iter()
        .filter(|h| law_of.contains_key(&h.norm.0))
        .flat_map(|h| h.words.iter().map(|w| w[0].clone()))
        .collect();
    // term → slot → norms holding it
    let counts: HashMap<&str, HashMap<u32, u32>> = terms
        .par_iter()
        .map(|t| {
            let mut seen: HashSet<(u32, u32)> = HashSet::new();
            let mut by_slot: HashMap<u32, u32> = HashMap::new();
            for d in inverted.docs_below(t, chunks.len() as u32) {
                if let Some(&(slot, norm)) = of_chunk.get(d as usize) {
                    if seen.insert((slot, norm)) {
                        *by_slot.entry(slot).or_default() += 1;
                    }
                }
            }
            (t.as_str(), by_slot)
        })
        .collect();
    table.mark_common(|h, term| {
        let Some(law) = law_of.get(&h.norm.0) else {
            return false;
        };
        let Some(&slot) = slots.get(&(*law, h.lang)) else {
            return false;
        };
        let n = per_slot[slot as usize].len();
        if n < min {
            return false;
        }
        let k = counts
            .get(term)
            .and_then(|m| m.get(&slot))
            .copied()
            .unwrap_or(0);
        k as f64 >= share * n as f64
    });
}

/// The phrase with which a German law defines a word for itself,
/// „Hersteller im Sinne dieses Gesetzes ist, …“ (§ 4 ProdHaftG): this
/// start, then one of [`SELF_DEFINITION_ENDS`].
pub const SELF_DEFINITION_MARKER: &str = " im Sinne dies";

/// How [`SELF_DEFINITION_MARKER`] goes on: the law itself, not another
/// act („im Sinne dieser Richtlinie“ of a German law cites an EU act).
pub const SELF_DEFINITION_ENDS: &[&str] = &["es Gesetzes", "er Verordnung", "es Buches"];

/// Most words before a [`SELF_DEFINITION_MARKER`] phrase read as the
/// defined term (the heading's words must be among them).
pub const SELF_DEFINITION_SPAN: usize = 8;

/// How a German norm opens when it derogates from the rule it cites first
/// („Abweichend von …“, „Ohne die nach § 22 erforderliche Einwilligung …“).
const DEROGATION_OPENINGS: &[&str] = &["Abweichend von", "In Abweichung von", "Ohne die nach"];

/// Norms that except or restrict another norm, in the law's own words
/// (exception → rule): a German heading „Ausnahme(n) zu/von/vom …“ naming
/// the rule by its label („Ausnahmen zu § 22“, § 23 KUG) or by its heading
/// („Ausnahmen vom Vertraulichkeitsgebot“, § 9 HinSchG → § 8); or a norm
/// headed exactly like a norm of another law that it cites (§ 34 BDSG
/// „Auskunftsrecht der betroffenen Person“ restricts Art. 15 DSGVO, headed
/// so too; not a definitions norm, which borrows the other law's
/// definitions: § 2 BSIG citing § 2 TDDDG); or a norm that opens with the
/// legal formula of a derogation citing the rule („Ohne die nach § 22
/// erforderliche Einwilligung …“, § 23 KUG, whose heading the source lacks;
/// „Abweichend von Artikel 9 Absatz 1 der Verordnung (EU) 2016/679 …“,
/// § 22 BDSG). Only rules the corpus holds.
pub fn exception_rules(chunks: &[Chunk]) -> BTreeMap<NormRef, NormRef> {
    // per norm: its law, its German heading (lower case) and what it cites
    let mut norms: BTreeMap<NormRef, (&str, String)> = BTreeMap::new();
    let mut refs: BTreeMap<NormRef, BTreeSet<&NormRef>> = BTreeMap::new();
    // the rule a norm's opening derogation cites (its first chunk's first reference)
    let mut derogates: BTreeMap<NormRef, &NormRef> = BTreeMap::new();
    // definitions norms: one that cites another law's definitions borrows them
    let mut definitions: BTreeSet<NormRef> = BTreeSet::new();
    for c in chunks.iter().filter(|c| c.lang == Lang::De) {
        let n = c.norm_ref();
        if c.source_role == SourceRole::Definition {
            definitions.insert(n.clone());
        }
        if c.part <= 1 {
            let opening = c.text.trim_start().trim_start_matches("(1)").trim_start();
            let derogation = DEROGATION_OPENINGS.iter().any(|o| opening.starts_with(o));
            if let (true, Some(first)) = (derogation, c.references_out.first()) {
                derogates.entry(n.clone()).or_insert(first);
            }
        }
        let t = c.title.trim().to_lowercase();
        if !t.is_empty() {
            norms.entry(n.clone()).or_insert((c.regulation.as_str(), t));
        }
        refs.entry(n).or_default().extend(c.references_out.iter());
    }
    let mut by_heading: BTreeMap<(&str, &str), &NormRef> = BTreeMap::new();
    for (n, (reg, t)) in &norms {
        by_heading.entry((reg, t.as_str())).or_insert(n);
    }
    let mut out = BTreeMap::new();
    for (b, &a) in &derogates {
        if !norms.contains_key(b) && a != b {
            out.insert(b.clone(), a.clone());
        }
    }
    for (b, (reg, t)) in &norms {
        let named = t
            .strip_prefix("ausnahmen ")
            .or_else(|| t.strip_prefix("ausnahme "))
            .and_then(|r| {
                ["zu ", "von der ", "vom ", "von ", "zum ", "zur "]
                    .iter()
                    .find_map(|p| r.strip_prefix(p))
            });
        let rule = match named {
            Some(rest) => {
                let label = rest.replace("artikel ", "Art. ").replace("art. ", "Art. ");
                let by_label = NormRef::new(&label, reg);
                if norms.contains_key(&by_label) {
                    Some(by_label)
                } else {
                    by_heading.get(&(*reg, rest)).map(|n| (*n).clone())
                }
            }
            None if definitions.contains(b) => None,
            None => refs.get(b).and_then(|rs| {
                rs.iter()
                    .find(|a| !a.is_of(reg) && norms.get(**a).is_some_and(|(_, h)| h == t))
                    .map(|a| (*a).clone())
            }),
        };
        let rule = rule.or_else(|| derogates.get(b).map(|a| (*a).clone()));
        if let Some(a) = rule.filter(|a| a != b) {
            out.insert(b.clone(), a);
        }
    }
    out
}

/// Norms whose heading is a word the norm itself defines for its law:
/// § 4 ProdHaftG „Hersteller“ („Hersteller im Sinne dieses Gesetzes ist
/// …“), § 5 BetrVG „Arbeitnehmer“, § 2 ProdHaftG „Produkt“. Such a norm is
/// a definition: a question that only uses the word (a question about a
/// manufacturer's liability, an employee's rights) does not ask what it
/// means, so its heading does not name the question's subject (see
/// [`crate::Engine::analyze_with`]). Read from the law's own text: the
/// heading's every word stands within [`SELF_DEFINITION_SPAN`] words before
/// a [`SELF_DEFINITION_MARKER`] phrase of the norm, in the same sentence.
/// German norms only (EU acts define in their „Begriffsbestimmungen“).
/// One pass over each chunk's text, in parallel (a scale index has 174k
/// chunks); only a chunk holding the phrase has its title analysed.
pub fn self_defining_norms(chunks: &[Chunk], analyzer: &Analyzer) -> HashSet<NormRef> {
    chunks
        .par_iter()
        .filter_map(|c| {
            let title = c.title.trim();
            if c.lang != Lang::De || title.is_empty() || title.split_whitespace().count() > 4 {
                return None;
            }
            let spans: Vec<String> = c
                .text
                .match_indices(SELF_DEFINITION_MARKER)
                .filter(|(at, m)| {
                    let rest = &c.text[at + m.len()..];
                    SELF_DEFINITION_ENDS.iter().any(|e| rest.starts_with(e))
                })
                .map(|(at, _)| {
                    let before = &c.text[..at];
                    let sentence = before
                        .rfind(['.', ';', ':', '\n'])
                        .map_or(before, |i| &before[i + 1..]);
                    let toks: Vec<&str> = sentence.split_whitespace().collect();
                    toks[toks.len().saturating_sub(SELF_DEFINITION_SPAN)..].join(" ")
                })
                .collect();
            if spans.is_empty() {
                return None;
            }
            let head: Vec<String> = words(analyzer, title, Lang::De)
                .into_iter()
                .map(|w| w[0].clone())
                .collect();
            let defines = !head.is_empty()
                && spans.iter().any(|span| {
                    let got: HashSet<String> = words(analyzer, span, Lang::De)
                        .into_iter()
                        .flatten()
                        .collect();
                    head.iter().all(|t| got.contains(t))
                });
            defines.then(|| c.norm_ref())
        })
        .collect()
}

/// The built-in German synonym sets (`paragraf_rank::synonyms`) through
/// the index analyzer: a word that analyses to one term joins its set; a
/// synonym is kept only where some heading holds it.
pub fn heading_synonyms(analyzer: &Analyzer, headings: &HeadingTable) -> Synonyms {
    let sets: Vec<Vec<&str>> = paragraf_rank::synonyms::builtin_sets().collect();
    let analysed: Vec<Vec<String>> = sets
        .par_iter()
        .map(|set| {
            let mut out: Vec<String> = Vec::new();
            for w in set {
                let t = analyzer.analyze_lang(w, Lang::De);
                if let [one] = &t[..] {
                    if !out.contains(one) {
                        out.push(one.clone());
                    }
                }
            }
            out
        })
        .filter(|s| s.len() >= 2)
        .collect();
    Synonyms::new(analysed, |t| headings.idf(t) > 0.0)
}

/// Per-law chunk counts for the law-title lift (`lawTitleMinLift`), with a
/// per-term cache: a term of a large law reads tens of thousands of
/// postings, and questions repeat terms.
#[derive(Debug, Default)]
pub struct LawLift {
    /// Chunk doc → law id.
    chunk_law: Vec<u32>,
    /// Regulation → (law id, chunks, language of its first chunk).
    laws: HashMap<String, (u32, u32, Lang)>,
    /// Chunks per language (the background of a lift).
    lang_chunks: HashMap<Lang, u32>,
    cache: std::sync::RwLock<HashMap<String, Vec<(f64, u32)>>>,
}

impl LawLift {
    pub fn new(chunks: &[Chunk]) -> LawLift {
        let mut out = LawLift::default();
        for c in chunks {
            *out.lang_chunks.entry(c.lang).or_default() += 1;
            let next = out.laws.len() as u32;
            let e = out
                .laws
                .entry(c.regulation.clone())
                .or_insert((next, 0, c.lang));
            e.1 += 1;
            out.chunk_law.push(e.0);
        }
        out
    }

    /// Whether chunk `doc` belongs to `law` — a test of ids, not names, for
    /// filters that run over every scored document.
    pub fn in_law(&self, law: &str) -> impl Fn(u32) -> bool + '_ {
        let id = self.laws.get(law).map(|&(id, _, _)| id);
        move |doc| id.is_some() && self.chunk_law.get(doc as usize).copied() == id
    }

    /// `(lift, df_L)` of an analysed term in each of `laws`: how much more
    /// often the law's chunks hold it than the chunks of the law's language,
    /// `(df_L/n_L)/(df/N)` (an English act is not about „data“ because a
    /// German corpus rarely says it). Cached per term: a term's laws are
    /// the same on every call (the title table's).
    pub fn lift(
        &self,
        inverted: &paragraf_index::InvertedIndex,
        chunks: &[Chunk],
        term: &str,
        laws: &[&str],
    ) -> Vec<(f64, u32)> {
        let cached = self.cache.read().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = cached.get(term) {
            return v.clone();
        }
        drop(cached);
        let v = self.lift_uncached(inverted, chunks, term, laws);
        self.cache
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(term.to_string(), v.clone());
        v
    }

    /// [`LawLift::lift`] for any `laws`, without the per-term cache.
    pub fn lift_uncached(
        &self,
        inverted: &paragraf_index::InvertedIndex,
        chunks: &[Chunk],
        term: &str,
        laws: &[&str],
    ) -> Vec<(f64, u32)> {
        let ids: Vec<Option<&(u32, u32, Lang)>> = laws.iter().map(|l| self.laws.get(*l)).collect();
        let slot: HashMap<u32, usize> = ids
            .iter()
            .enumerate()
            .filter_map(|(k, id)| id.map(|&(id, _, _)| (id, k)))
            .collect();
        let mut in_law = vec![0u32; laws.len()];
        let mut by_lang: HashMap<Lang, u32> = HashMap::new();
        for d in inverted.docs(term) {
            let d = d as usize;
            if let Some(c) = chunks.get(d) {
                *by_lang.entry(c.lang).or_default() += 1;
            }
            if let Some(&k) = self.chunk_law.get(d).and_then(|l| slot.get(l)) {
                in_law[k] += 1;
            }
        }
        ids.iter()
            .zip(in_law)
            .map(|(law, k)| match law {
                Some(&(_, n_law, lang)) => {
                    let df = f64::from(by_lang.get(&lang).copied().unwrap_or(0).max(k).max(1));
                    let n = f64::from(self.lang_chunks.get(&lang).copied().unwrap_or(1).max(1));
                    ((f64::from(k) / f64::from(n_law.max(1))) / (df / n), k)
                }
                None => (0.0, 0),
            })
            .collect()
    }
}

/// The law-title table: every variant (`law_title_variants`) of every
/// title of every law, analysed as German (titles and manifest names are
/// German or name the act in English; translations reach them through the
/// question's terms). Its "norms" are regulation names.
///
/// An index built before law titles were stored has none: then the
/// manifest's title and names of each of its regulations stand in.
pub fn law_title_table(
    laws: &[LawTitles],
    chunks: &[Chunk],
    manifest: &paragraf_corpus::Manifest,
    analyzer: &Analyzer,
) -> LawTitleTable {
    let fallback: Vec<LawTitles>;
    let laws = if laws.is_empty() {
        let regs: BTreeSet<&str> = chunks.iter().map(|c| c.regulation.as_str()).collect();
        fallback = regs
            .into_iter()
            .filter_map(|r| manifest.regulation(r))
            .map(|r| LawTitles {
                regulation: r.name.clone(),
                titles: std::iter::once(r.title.clone())
                    .chain(r.aliases.iter().cloned())
                    .collect(),
            })
            .collect();
        &fallback[..]
    } else {
        laws
    };
    // a German ordinance says so in its title (EU regulations are
    // „Verordnung (EU) …“ and rank with statutes)
    let german: BTreeSet<&str> = chunks
        .iter()
        .filter(|c| c.jurisdiction == paragraf_types::Jurisdiction::De)
        .map(|c| c.regulation.as_str())
        .collect();
    let ordinances: BTreeSet<String> = laws
        .iter()
        .filter(|l| {
            german.contains(l.regulation.as_str())
                && l.titles
                    .iter()
                    .any(|t| t.to_lowercase().contains("verordnung"))
        })
        .map(|l| l.regulation.clone())
        .collect();
    let mut entries = Vec::new();
    for l in laws {
        for t in &l.titles {
            for v in law_title_variants(t) {
                let w = words(analyzer, &v, Lang::De);
                entries.push((l.regulation.clone(), v, w));
            }
        }
    }
    LawTitleTable::new(entries, ordinances)
}

/// Defined terms of every definitions norm (role `definition`) of binding
/// law: the quoted term that opens each definition; and the glossary's
/// terms (`phrases`, in glossary order, from [`glossary_phrases`]) with the
/// norm the glossary names as defining or heading them. A law defines some
/// of its terms outside its definitions norm: NIS2's "essential entity" in
/// Art. 3, whose Art. 6 defines only "entity"; the CRA's "severe incident"
/// in Art. 14, whose Art. 3 defines "incident". Where the definitions norm
/// defines the term itself, it alone answers (the HinSchG's „Repressalien“:
/// § 3, not the prohibition of § 36). The term's words in the law's own
/// language count; its translation's only where no heading of that
/// language uses them as another law's term (NIS2's „wichtige Einrichtung“
/// is the BSIG's too, § 28 BSIG).
pub fn defined_terms(
    chunks: &[Chunk],
    analyzer: &Analyzer,
    phrases: &[PhrasePair],
) -> DefinedTerms {
    let mut entries = Vec::new();
    let mut by_law: BTreeSet<(String, Vec<String>)> = BTreeSet::new();
    for c in chunks {
        if c.source_role != SourceRole::Definition || !c.source_class.is_binding() {
            continue;
        }
        for surface in defined_terms_in(&c.text) {
            let t = terms(analyzer, &surface, c.lang);
            by_law.insert((c.regulation.clone(), sorted(&t)));
            entries.push((t, surface, c.norm_ref()));
        }
    }
    let glossary = paragraf_rank::bilingual::glossary();
    let wanted: BTreeSet<(&str, &str)> = glossary
        .iter()
        .map(|e| (e.law.as_str(), e.norm.as_str()))
        .collect();
    let held: BTreeSet<(&str, &str)> = chunks
        .iter()
        .filter(|c| c.source_class.is_binding())
        .map(|c| (c.regulation.as_str(), c.norm.as_str()))
        .filter(|k| wanted.contains(k))
        .collect();
    for (e, p) in glossary.iter().zip(phrases) {
        if !held.contains(&(e.law.as_str(), e.norm.as_str())) {
            continue;
        }
        let own = law_language(&e.law);
        // the pair's terms are the analyzer's reading of each side already
        for (text, lang, t) in [
            (&e.de, Lang::De, &p.de_terms),
            (&e.en, Lang::En, &p.en_terms),
        ] {
            let defined_there = by_law.contains(&(e.law.clone(), sorted(t)));
            if (own == lang || p.translation == Some(lang)) && !defined_there {
                entries.push((t.clone(), text.clone(), NormRef::new(&e.norm, &e.law)));
            }
        }
    }
    DefinedTerms::new(entries)
}

fn sorted(terms: &[String]) -> Vec<String> {
    let mut v = terms.to_vec();
    v.sort();
    v
}

/// A question's analysed terms: its own (full words and compound parts) and
/// their translations from the term table.
#[derive(Debug, Clone, Default)]
pub struct QuestionTerms {
    /// Every own term, full words and parts, deduplicated, in order.
    pub own: Vec<String>,
    /// Translations of the own terms (full words of the other language).
    pub translated: Vec<String>,
    /// Synonyms of the German full words that a heading holds
    /// (`heading_synonyms`), and the infinitive stems of German verb forms
    /// (`Analyzer::verb_form_stem`), for lexical retrieval at
    /// `synonymBm25Weight`.
    pub synonyms: Vec<String>,
    /// Full words + translations vs. compound parts, for heading matching.
    pub heading: QueryTerms,
}

/// Analyse a question in its own language, translate its terms and find
/// the synonyms of its German full words that a heading holds.
pub fn question_terms(
    analyzer: &Analyzer,
    query: &str,
    lang: Lang,
    table: &BilingualTerms,
    synonyms: &Synonyms,
) -> QuestionTerms {
    let ws = words(analyzer, query, lang);
    let mut own: Vec<String> = Vec::new();
    let mut full: Vec<String> = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    for w in &ws {
        for (i, t) in w.iter().enumerate() {
            if !own.contains(t) {
                own.push(t.clone());
            }
            let list = if i == 0 { &mut full } else { &mut parts };
            if !list.contains(t) {
                list.push(t.clone());
            }
        }
    }
    // a German verb form meets its infinitive's stem („eingestuft“ →
    // `einstuf`, as „Einstufung“), at the synonyms' weight: lower-case
    // words only (nouns are capitalised), and the question's first word.
    // As own terms or in heading matching they cost more than they gave:
    // a question's verbs are mostly generic („verlangt“, „zahlt“), its
    // subject is in its nouns (session 18, `eval/baselines/retrieval-scope-domain-cover-2026-12-03.md`)
    // the question's words as written and folded (lower case, no umlauts)
    let raw: Vec<&str> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let folded: Vec<String> = raw
        .iter()
        .map(|w| paragraf_index::analyzer::fold(&w.to_lowercase()))
        .collect();
    let mut verb_forms: Vec<String> = Vec::new();
    if lang == Lang::De {
        for (i, (w, folded)) in raw.iter().zip(&folded).enumerate() {
            if i > 0 && w.chars().next().is_some_and(char::is_uppercase) {
                continue;
            }
            if analyzer.is_stopword(folded, Lang::De) {
                continue;
            }
            if let Some(t) = analyzer.verb_form_stem(folded) {
                if !verb_forms.contains(&t) {
                    verb_forms.push(t);
                }
            }
        }
    }
    let mut translated = table.translate(&own, lang);
    if lang == Lang::De {
        // a word the stemmer merged with others („Sicherheit“ = `sich`)
        // reaches its English words (`STEM_COLLISIONS_DE_EN`)
        for en in stem_collision_words(folded.iter().map(String::as_str)) {
            for t in analyzer.analyze_lang(en, Lang::En) {
                if !own.contains(&t) && !translated.contains(&t) {
                    translated.push(t);
                }
            }
        }
    }
    // the words of another law's term in its translation's wording name
    // that law's one concept: in heading matching they count as the parts
    // of a compound („wesentliche Einrichtung“ is NIS2's "essential
    // entity", not a heading „Wesentliche Informationen“)
    for w in table.translation_words(&own, lang) {
        if let Some(i) = full.iter().position(|f| *f == w) {
            full.remove(i);
            if !parts.contains(&w) {
                parts.push(w);
            }
        }
    }
    let synonyms = match lang {
        Lang::De => synonyms.expand(&full),
        Lang::En => Vec::new(),
    };
    // likewise the translation wording a glossary term of the question's
    // own law is given: „Transparenzregister“ reaches `transpar regist`,
    // the GwG's register, not an English act's "Transparency" heading
    let in_translation = table.translation_terms(&own, lang);
    for t in &translated {
        let list = if in_translation.contains(t) {
            &mut parts
        } else {
            &mut full
        };
        if !list.contains(t) {
            list.push(t.clone());
        }
    }
    parts.retain(|p| !full.contains(p));
    let mut synonyms: Vec<String> = synonyms
        .into_iter()
        .filter(|s| !own.contains(s) && !translated.contains(s))
        .collect();
    for t in verb_forms {
        if !own.contains(&t) && !synonyms.contains(&t) {
            synonyms.push(t);
        }
    }
    QuestionTerms {
        own,
        translated,
        synonyms,
        heading: QueryTerms {
            full,
            parts,
            lang: Some(lang),
        },
    }
}

#[cfg(test)]
mod tests;
