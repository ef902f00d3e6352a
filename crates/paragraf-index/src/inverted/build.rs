//! Building the inverted index from texts: languages, the German compound
//! lexicon (pass 1), analysis (pass 2), term ids and postings (pass 3), and
//! the sparse field.

use super::{merge_dupes, Field, InvertedIndex};
use crate::analyzer::{fold, tokenize, Analyzer, AnalyzerConfig};
use crate::codec::put_varint;
use crate::error::IndexError;
use half::f16;
use paragraf_types::Lang;
use rayon::prelude::*;
use std::collections::HashMap;

/// Documents analyzed per rayon task (shares a word cache).
const BATCH: usize = 256;

impl InvertedIndex {
    /// Build from texts; each text's language is detected from its stop words.
    pub fn build(
        texts: &[&str],
        sparse: Option<&[Vec<(u32, f32)>]>,
        analyzer: &AnalyzerConfig,
    ) -> Result<Self, IndexError> {
        Self::build_with_langs(texts, None, sparse, analyzer)
    }

    /// Build from texts with known languages (`langs[i]` of `texts[i]`).
    pub fn build_with_langs(
        texts: &[&str],
        langs: Option<&[Lang]>,
        sparse: Option<&[Vec<(u32, f32)>]>,
        cfg: &AnalyzerConfig,
    ) -> Result<Self, IndexError> {
        check_inputs(texts, langs, sparse)?;
        let detector = Analyzer::new(cfg);
        let doc_lang: Vec<Lang> = match langs {
            Some(l) => l.to_vec(),
            None => texts.par_iter().map(|t| detector.detect_lang(t)).collect(),
        };
        let lexicon = compound_lexicon(texts, &doc_lang, cfg, &detector);
        let analyzer = Analyzer::with_lexicon(cfg, lexicon);
        let analyzed = analyze_all(texts, &doc_lang, &analyzer);
        let t = TextField::of(analyzed, texts.len());
        let (sparse_tokens, sparse_field, has_sparse) = match sparse {
            None => (
                Vec::new(),
                Field {
                    off: vec![0],
                    ..Field::default()
                },
                false,
            ),
            Some(sp) => {
                let (toks, f) = sparse_field(sp)?;
                (toks, f, true)
            }
        };
        let mut ix = InvertedIndex {
            analyzer,
            n_docs: texts.len() as u32,
            doc_lang,
            doc_len: t.doc_len,
            total_tokens: t.total_tokens,
            terms: t.terms,
            term_ids: t.term_ids,
            text: t.field,
            sparse_tokens,
            sparse: sparse_field,
            has_sparse,
            doc_k: Vec::new(),
        };
        ix.derive();
        Ok(ix)
    }
}

/// Texts, their languages and their sparse vectors agree in number, and the
/// doc ids fit a `u32`.
fn check_inputs(
    texts: &[&str],
    langs: Option<&[Lang]>,
    sparse: Option<&[Vec<(u32, f32)>]>,
) -> Result<(), IndexError> {
    if texts.is_empty() {
        return Err(IndexError::Empty("no texts for the inverted index".into()));
    }
    if texts.len() > u32::MAX as usize - 1 {
        return Err(IndexError::InvalidInput(format!(
            "{} texts exceed the u32 doc id range",
            texts.len()
        )));
    }
    if let Some(l) = langs {
        if l.len() != texts.len() {
            return Err(IndexError::InvalidInput(format!(
                "{} languages for {} texts",
                l.len(),
                texts.len()
            )));
        }
    }
    if let Some(s) = sparse {
        if s.len() != texts.len() {
            return Err(IndexError::InvalidInput(format!(
                "{} sparse vectors for {} texts",
                s.len(),
                texts.len()
            )));
        }
    }
    Ok(())
}

/// Pass 1: the German vocabulary by document frequency → the compound
/// lexicon (sorted; empty when decompounding is off).
fn compound_lexicon(
    texts: &[&str],
    doc_lang: &[Lang],
    cfg: &AnalyzerConfig,
    detector: &Analyzer,
) -> Vec<String> {
    if !cfg.decompound {
        return Vec::new();
    }
    let counts = texts
        .par_iter()
        .zip(doc_lang.par_iter())
        .filter(|(_, l)| **l == Lang::De)
        .fold(HashMap::<String, u32>::new, |mut m, (t, _)| {
            let mut words: Vec<String> = tokenize(t)
                .into_iter()
                .filter(|w| !w.special)
                .map(|w| fold(&w.text))
                .filter(|w| {
                    w.chars().count() >= cfg.compound_min_part
                        && !w.chars().all(|c| c.is_ascii_digit())
                })
                .collect();
            words.sort_unstable();
            words.dedup();
            for w in words {
                *m.entry(w).or_insert(0) += 1;
            }
            m
        })
        .reduce(HashMap::new, |mut a, b| {
            for (k, v) in b {
                *a.entry(k).or_insert(0) += v;
            }
            a
        });
    let mut lex: Vec<String> = counts
        .into_iter()
        .filter(|(w, c)| *c >= cfg.compound_min_df && !detector.is_stopword(w, Lang::De))
        .map(|(w, _)| w)
        .collect();
    lex.sort_unstable();
    lex
}

/// Pass 2: every text analysed (parallel, a word cache per batch).
fn analyze_all(texts: &[&str], doc_lang: &[Lang], analyzer: &Analyzer) -> Vec<Vec<String>> {
    let idx: Vec<usize> = (0..texts.len()).collect();
    idx.par_chunks(BATCH)
        .flat_map_iter(|chunk| {
            let mut cache: HashMap<(String, Lang), Vec<String>> = HashMap::new();
            let an = analyzer;
            let mut out = Vec::with_capacity(chunk.len());
            for &i in chunk {
                let lang = doc_lang[i];
                let mut terms = Vec::new();
                for t in tokenize(texts[i]) {
                    if t.special {
                        terms.push(t.text);
                        continue;
                    }
                    if let Some(v) = cache.get(&(t.text.clone(), lang)) {
                        terms.extend(v.iter().cloned());
                        continue;
                    }
                    let mut v = Vec::new();
                    an.process(&t, lang, &mut v);
                    terms.extend(v.iter().cloned());
                    cache.insert((t.text, lang), v);
                }
                out.push(terms);
            }
            out
        })
        .collect()
}

/// Pass 3: term ids in first-seen order, postings per term, document
/// lengths.
struct TextField {
    term_ids: HashMap<String, u32>,
    terms: Vec<String>,
    doc_len: Vec<u32>,
    total_tokens: u64,
    field: Field,
}

impl TextField {
    fn of(analyzed: Vec<Vec<String>>, n_texts: usize) -> TextField {
        let mut term_ids: HashMap<String, u32> = HashMap::new();
        let mut terms: Vec<String> = Vec::new();
        let mut plists: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut doc_len = Vec::with_capacity(n_texts);
        let mut total_tokens = 0u64;
        let mut ids: Vec<u32> = Vec::new();
        for (d, doc_terms) in analyzed.into_iter().enumerate() {
            doc_len.push(doc_terms.len() as u32);
            total_tokens += doc_terms.len() as u64;
            ids.clear();
            for t in doc_terms {
                let id = match term_ids.get(&t) {
                    Some(&id) => id,
                    None => {
                        let id = terms.len() as u32;
                        terms.push(t.clone());
                        term_ids.insert(t, id);
                        plists.push(Vec::new());
                        id
                    }
                };
                ids.push(id);
            }
            ids.sort_unstable();
            let mut i = 0;
            while i < ids.len() {
                let mut j = i;
                while j < ids.len() && ids[j] == ids[i] {
                    j += 1;
                }
                plists[ids[i] as usize].push((d as u32, (j - i) as u32));
                i = j;
            }
        }
        let mut field = Field {
            off: vec![0],
            ..Field::default()
        };
        let mut post = Vec::new();
        for pl in &plists {
            encode_postings(&mut post, pl.iter().map(|&(d, tf)| (d, tf)), |out, tf| {
                put_varint(out, u64::from(tf))
            });
            field.df.push(pl.len() as u32);
            field.off.push(post.len() as u64);
        }
        field.post = post.into();
        TextField {
            term_ids,
            terms,
            doc_len,
            total_tokens,
            field,
        }
    }
}

/// The sparse field: per token (sorted) the docs and their weights as f16.
fn sparse_field(sp: &[Vec<(u32, f32)>]) -> Result<(Vec<u32>, Field), IndexError> {
    let mut by_tok: HashMap<u32, Vec<(u32, f32)>> = HashMap::new();
    for (d, v) in sp.iter().enumerate() {
        let mut v = v.clone();
        v.sort_by_key(|p| p.0);
        for (tok, w) in merge_dupes(v) {
            if !w.is_finite() {
                return Err(IndexError::InvalidInput(format!(
                    "sparse vector of doc {d} has a non-finite weight for token {tok}"
                )));
            }
            by_tok.entry(tok).or_default().push((d as u32, w));
        }
    }
    let mut toks: Vec<u32> = by_tok.keys().copied().collect();
    toks.sort_unstable();
    let mut f = Field {
        off: vec![0],
        ..Field::default()
    };
    let mut post = Vec::new();
    for t in &toks {
        let pl = &by_tok[t];
        encode_postings(&mut post, pl.iter().copied(), |out, w: f32| {
            out.extend_from_slice(&f16::from_f32(w).to_bits().to_le_bytes())
        });
        f.df.push(pl.len() as u32);
        f.off.push(post.len() as u64);
    }
    f.post = post.into();
    Ok((toks, f))
}

fn encode_postings<V: Copy>(
    out: &mut Vec<u8>,
    pl: impl Iterator<Item = (u32, V)>,
    mut val: impl FnMut(&mut Vec<u8>, V),
) {
    let mut prev = 0u32;
    for (d, v) in pl {
        put_varint(out, u64::from(d - prev));
        val(out, v);
        prev = d;
    }
}
