//! The German ↔ English term table derived from the corpus's parallel
//! texts (`paragraf index terms`): aligned units, Dice pairs, heading
//! pairs, the TSV written for review.

use super::{terms, words};
use paragraf_index::Analyzer;
use paragraf_types::{Chunk, Lang, NormRef};
use std::collections::{BTreeMap, HashMap, HashSet};

/// One aligned pair of the corpus's parallel texts.
struct Unit {
    de: Vec<u32>,
    en: Vec<u32>,
}

/// Split a norm's text into its numbered paragraphs: German `(1)`, English
/// `1.` at the start of a line. One piece when it has none.
pub(super) fn paragraphs(text: &str, lang: Lang) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let l = line.trim_start();
        let starts = match lang {
            Lang::De => {
                l.starts_with('(')
                    && l[1..].split_once(')').is_some_and(|(n, _)| {
                        !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
                    })
            }
            Lang::En => l.split_once('.').is_some_and(|(n, rest)| {
                !n.is_empty()
                    && n.len() <= 3
                    && n.chars().all(|c| c.is_ascii_digit())
                    && rest.starts_with(char::is_whitespace)
            }),
        };
        if starts || out.is_empty() {
            out.push(line.to_string());
        } else if let Some(last) = out.last_mut() {
            last.push('\n');
            last.push_str(line);
        }
    }
    out
}

/// A derived term pair with its statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct TermPair {
    pub de: String,
    pub en: String,
    /// Aligned units holding both.
    pub both: u32,
    /// Dice coefficient `2·both / (units with de + units with en)`; 0 for
    /// a heading pair.
    pub dice: f64,
    /// Paired by [`heading_pairs`] (the one word two parallel headings
    /// leave unpaired); `both` is then the number of such headings.
    pub heading: bool,
}

/// Fewest aligned units a pair must share.
pub const TERMS_MIN_BOTH: u32 = 4;
/// Lowest Dice coefficient of a kept pair.
pub const TERMS_MIN_DICE: f64 = 0.4;
/// Shortest German part that shares its compound's translation (shorter
/// stems are too often pieces of unrelated words: „auss“, „halb“ of
/// „außerhalb“).
pub const TERMS_MIN_PART: usize = 5;

/// Derive the German ↔ English term table from the parallel texts in the
/// index: every norm present in both languages (same `NormRef`), aligned by
/// numbered paragraph when both versions have the same number of
/// paragraphs, else as a whole; headings are units of their own. A pair is
/// kept when each term is the other's best partner by Dice (ties: more
/// shared units, then the term), with at least [`TERMS_MIN_BOTH`] shared
/// units and Dice ≥ [`TERMS_MIN_DICE`]. A German compound and its part
/// share a translation: where the English term's best partner is a
/// compound holding the German term, or a part of it („Produkthersteller“ ↔
/// „Hersteller“ for ‘manufacturer’; the part at least [`TERMS_MIN_PART`]
/// characters), the German term's own best partner is kept as well.
/// Numbers and § / Art. tokens are left out. Deterministic: the output is
/// sorted.
pub fn derive_bilingual_terms(chunks: &[Chunk], analyzer: &Analyzer) -> Vec<TermPair> {
    // norm → lang → (title, text in chunk order)
    let mut by_norm: BTreeMap<NormRef, [Option<(String, String)>; 2]> = BTreeMap::new();
    for c in chunks {
        let slot = match c.lang {
            Lang::De => 0,
            Lang::En => 1,
        };
        let e = by_norm.entry(c.norm_ref()).or_default();
        let s = e[slot].get_or_insert_with(|| (c.title.clone(), String::new()));
        if !s.1.is_empty() {
            s.1.push('\n');
        }
        s.1.push_str(&c.text);
    }
    let mut vocab: HashMap<String, u32> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut id = |t: String| -> u32 {
        if let Some(&i) = vocab.get(&t) {
            return i;
        }
        let i = names.len() as u32;
        names.push(t.clone());
        vocab.insert(t, i);
        i
    };
    let keep = |t: &str| {
        t.chars().count() >= 3
            && t.chars().any(char::is_alphabetic)
            && !t.starts_with('§')
            && !(t.starts_with("art") && t[3..].chars().next().is_some_and(|c| c.is_ascii_digit()))
    };
    let mut units: Vec<Unit> = Vec::new();
    let push_unit =
        |de: &str, en: &str, units: &mut Vec<Unit>, id: &mut dyn FnMut(String) -> u32| {
            let d: Vec<u32> = terms(analyzer, de, Lang::De)
                .into_iter()
                .filter(|t| keep(t))
                .map(&mut *id)
                .collect();
            let e: Vec<u32> = terms(analyzer, en, Lang::En)
                .into_iter()
                .filter(|t| keep(t))
                .map(&mut *id)
                .collect();
            if !d.is_empty() && !e.is_empty() {
                units.push(Unit { de: d, en: e });
            }
        };
    let mut titles: Vec<(String, String)> = Vec::new();
    for [de, en] in by_norm.values() {
        let (Some((dt, dx)), Some((et, ex))) = (de, en) else {
            continue;
        };
        if !dt.is_empty() && !et.is_empty() {
            push_unit(dt, et, &mut units, &mut id);
            titles.push((dt.clone(), et.clone()));
        }
        let dp = paragraphs(dx, Lang::De);
        let ep = paragraphs(ex, Lang::En);
        if dp.len() == ep.len() && dp.len() > 1 {
            for (a, b) in dp.iter().zip(&ep) {
                push_unit(a, b, &mut units, &mut id);
            }
        } else {
            push_unit(dx, ex, &mut units, &mut id);
        }
    }
    let mut df: HashMap<u32, u32> = HashMap::new();
    let mut both: HashMap<(u32, u32), u32> = HashMap::new();
    for u in &units {
        for &t in u.de.iter().chain(&u.en) {
            *df.entry(t).or_default() += 1;
        }
        for &d in &u.de {
            for &e in &u.en {
                *both.entry((d, e)).or_default() += 1;
            }
        }
    }
    let dice = |d: u32, e: u32, c: u32| 2.0 * f64::from(c) / f64::from(df[&d] + df[&e]);
    // best partner per term in each direction
    let better = |a: (f64, u32, &str), b: (f64, u32, &str)| {
        a.0.total_cmp(&b.0)
            .then(a.1.cmp(&b.1))
            .then(b.2.cmp(a.2))
            .is_gt()
    };
    let mut best_de: HashMap<u32, (f64, u32, u32)> = HashMap::new();
    let mut best_en: HashMap<u32, (f64, u32, u32)> = HashMap::new();
    for (&(d, e), &c) in &both {
        if c < TERMS_MIN_BOTH {
            continue;
        }
        let x = dice(d, e, c);
        let cur = best_de.get(&d);
        if cur.is_none_or(|&(bx, bc, be)| {
            better((x, c, &names[e as usize]), (bx, bc, &names[be as usize]))
        }) {
            best_de.insert(d, (x, c, e));
        }
        let cur = best_en.get(&e);
        if cur.is_none_or(|&(bx, bc, bd)| {
            better((x, c, &names[d as usize]), (bx, bc, &names[bd as usize]))
        }) {
            best_en.insert(e, (x, c, d));
        }
    }
    let mut out: Vec<TermPair> = best_de
        .iter()
        .filter(|(d, (x, _, e))| {
            *x >= TERMS_MIN_DICE
                && best_en.get(e).is_some_and(|b| {
                    let (mine, theirs) = (&names[**d as usize], &names[b.2 as usize]);
                    let part_of = |part: &str, whole: &str| {
                        part.chars().count() >= TERMS_MIN_PART && whole.contains(part)
                    };
                    b.2 == **d || part_of(mine, theirs) || part_of(theirs, mine)
                })
        })
        .map(|(&d, &(x, c, e))| TermPair {
            de: names[d as usize].clone(),
            en: names[e as usize].clone(),
            both: c,
            dice: x,
            heading: false,
        })
        .filter(|p| p.de != p.en)
        .collect();
    let more = heading_pairs(&titles, analyzer, &out);
    out.extend(more);
    out.sort_by(|a, b| a.de.cmp(&b.de).then(a.en.cmp(&b.en)));
    out
}

/// Term pairs from parallel headings: the German and English heading of one
/// norm name the same thing in few words, so where the table already pairs
/// all words of both but one German word and one English term, those two
/// are each other's translation („Pflichten der Einführer“ ↔ “Obligations
/// of importers”: `pflicht` ↔ `oblig` is known, so `einfuhr` ↔ `import`, which
/// co-occurrence misses because Snowball stems “important” to `import` as
/// well). A German compound counts as paired when each of its parts is. A
/// German term gets the English term most headings give it (ties: the
/// term), and only when the Dice pairs have none for it.
pub fn heading_pairs(
    titles: &[(String, String)],
    analyzer: &Analyzer,
    known: &[TermPair],
) -> Vec<TermPair> {
    let keep = |t: &str| t.chars().count() >= 3 && t.chars().any(char::is_alphabetic);
    let linked: HashSet<(&str, &str)> = known
        .iter()
        .map(|p| (p.de.as_str(), p.en.as_str()))
        .collect();
    let has_pair: HashSet<&str> = known.iter().map(|p| p.de.as_str()).collect();
    let mut votes: BTreeMap<(String, String), u32> = BTreeMap::new();
    for (dt, et) in titles {
        let ens: Vec<String> = terms(analyzer, et, Lang::En)
            .into_iter()
            .filter(|t| keep(t))
            .collect();
        let mut covered: HashSet<&str> = HashSet::new();
        let mut open: Vec<String> = Vec::new();
        for w in words(analyzer, dt, Lang::De) {
            let Some(full) = w.first().filter(|t| keep(t)) else {
                continue;
            };
            // a term spelled alike in both („intern“, „digital“) pairs itself
            let partner = |t: &str| {
                ens.iter()
                    .find(|e| e.as_str() == t || linked.contains(&(t, e.as_str())))
                    .map(String::as_str)
            };
            if let Some(e) = partner(full) {
                covered.insert(e);
            } else if w.len() > 1 && w[1..].iter().all(|p| partner(p).is_some()) {
                covered.extend(w[1..].iter().filter_map(|p| partner(p)));
            } else {
                open.push(full.clone());
            }
        }
        let rest: Vec<&String> = ens
            .iter()
            .filter(|e| !covered.contains(e.as_str()))
            .collect();
        if let ([d], [e]) = (open.as_slice(), rest.as_slice()) {
            if d != *e && !has_pair.contains(d.as_str()) {
                *votes.entry((d.clone(), (*e).clone())).or_default() += 1;
            }
        }
    }
    let mut best: BTreeMap<String, (u32, String)> = BTreeMap::new();
    for ((d, e), n) in votes {
        let cur = best.entry(d).or_insert((0, String::new()));
        if n > cur.0 {
            *cur = (n, e);
        }
    }
    best.into_iter()
        .map(|(de, (both, en))| TermPair {
            de,
            en,
            both,
            dice: 0.0,
            heading: true,
        })
        .collect()
}

/// The term table as the TSV of `paragraf_rank::BilingualTerms`.
pub fn bilingual_tsv(pairs: &[TermPair], source: &str) -> String {
    let mut s = String::new();
    s.push_str("# German <TAB> English analysed terms of the same concept, derived from the\n");
    s.push_str("# parallel German/English texts of the corpus (same norm, aligned paragraphs)\n");
    s.push_str(
        "# by `paragraf index terms` (paragraf_engine::lawwords::derive_bilingual_terms).\n",
    );
    s.push_str(&format!("# source: {source}\n"));
    s.push_str(
        "# heading pairs (the one word parallel headings leave unpaired) say `heading` for dice\n",
    );
    s.push_str("# de\ten\tshared_units\tdice\n");
    for p in pairs {
        if p.heading {
            s.push_str(&format!("{}\t{}\t{}\theading\n", p.de, p.en, p.both));
        } else {
            s.push_str(&format!("{}\t{}\t{}\t{:.3}\n", p.de, p.en, p.both, p.dice));
        }
    }
    s
}

/// Open the index at `dir` and derive its term table as TSV (for
/// `paragraf index terms`); also returns the number of pairs.
pub fn bilingual_tsv_of_index(
    dir: &std::path::Path,
) -> Result<(String, usize), crate::EngineError> {
    let index = paragraf_index::open_index(dir, None)?;
    let pairs = derive_bilingual_terms(&index.chunks, index.inverted.analyzer());
    let source = format!(
        "index of {} chunks, corpus hash {}",
        index.chunks.len(),
        &index.manifest.corpus_hash[..12.min(index.manifest.corpus_hash.len())]
    );
    Ok((bilingual_tsv(&pairs, &source), pairs.len()))
}
