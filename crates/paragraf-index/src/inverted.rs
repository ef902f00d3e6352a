//! Inverted index with two fields in one structure: BM25 over analyzed text
//! and learned sparse vectors (token id → weight, e.g. bge-m3 lexical
//! weights) scored by dot product.
//!
//! Postings: per term, doc ids delta-encoded as LEB128 varints followed by
//! the term frequency (BM25 field) or the weight as f16 (sparse field).
//! Queries are scored term-at-a-time into a per-thread dense accumulator and
//! selected with a bounded heap; ties are broken by doc id.
//!
//! BM25 (Robertson/Lucene form, the same as tantivy):
//! `score(d,q) = Σ_t idf(t) · (k1+1) · tf / (tf + k1·(1 − b + b·|d|/avgdl))`,
//! `idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5))`; `|d|` is the number of
//! terms the analyzer emitted for `d` (stored as a one-byte Lucene norm when
//! `quantize_doc_len`), `avgdl` the exact mean.

use crate::analyzer::{Analyzer, AnalyzerConfig};
use crate::codec::{get_varint, Reader, Writer};
use crate::mapped::Slab;
use crate::topk::{Hit, TopK};
use half::f16;
use memmap2::Mmap;
use paragraf_types::Lang;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

const MAGIC: &[u8; 8] = b"PGINV\x00\x00\x01";

/// Decode a Lucene/tantivy one-byte length norm (`SmallFloat.byte4ToInt`):
/// codes 0..24 are exact, above that 3 mantissa bits with an exponent.
pub fn norm_decode(code: u8) -> u32 {
    const IDENTITY: u8 = 24;
    if code < IDENTITY {
        return u32::from(code);
    }
    let b = code - IDENTITY;
    let bits = u32::from(b & 0b111);
    let shift = b >> 3;
    let v = if shift == 0 {
        bits
    } else {
        (bits | 8) << (shift - 1)
    };
    u32::from(IDENTITY) + v
}

/// Encode a length as the largest norm code whose decoded value is ≤ `len`.
pub fn norm_encode(len: u32) -> u8 {
    // Binary search over the monotone decode table.
    let (mut lo, mut hi) = (0u16, 255u16);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if norm_decode(mid as u8) <= len {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo as u8
}

/// BM25's idf of a term found in `df` of `n` documents (or groups).
fn bm25_idf(n: f32, df: f32) -> f32 {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// One field's postings.
#[derive(Debug, Clone, Default, PartialEq)]
struct Field {
    /// Document frequency per term id.
    df: Vec<u32>,
    /// Byte offset of each term's postings; `len = terms + 1`.
    off: Vec<u64>,
    /// Concatenated postings (in the mapped `inverted.bin` of an opened index).
    post: Slab<u8>,
}

impl Field {
    fn postings(&self, t: usize) -> &[u8] {
        let (s, e) = (self.off[t] as usize, self.off[t + 1] as usize);
        self.post.get(s..e).unwrap_or(&[])
    }

    /// A term's postings decoded: `(doc, tf)` in ascending doc order (the
    /// encoding is doc delta, tf, both varints); stops at a truncated entry.
    fn doc_tf(&self, t: usize) -> impl Iterator<Item = (u64, u64)> + '_ {
        let buf = self.postings(t);
        let (mut pos, mut doc) = (0usize, 0u64);
        std::iter::from_fn(move || {
            if pos >= buf.len() {
                return None;
            }
            let (Some(delta), Some(tf)) = (get_varint(buf, &mut pos), get_varint(buf, &mut pos))
            else {
                return None;
            };
            doc += delta;
            Some((doc, tf))
        })
    }
}

/// Per-thread scratch space of the term-at-a-time scorer.
#[derive(Default)]
struct Scratch {
    acc: Vec<f32>,
    stamp: Vec<u32>,
    gen: u32,
    touched: Vec<u32>,
}

impl Scratch {
    fn reset(&mut self, n: usize) {
        if self.acc.len() != n {
            self.acc = vec![0.0; n];
            self.stamp = vec![0; n];
            self.gen = 0;
        }
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.gen = 1;
        }
        self.touched.clear();
    }
    #[inline]
    fn add(&mut self, d: usize, s: f32) {
        if self.stamp[d] != self.gen {
            self.stamp[d] = self.gen;
            self.acc[d] = s;
            self.touched.push(d as u32);
        } else {
            self.acc[d] += s;
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// One pool of [`InvertedIndex::bm25_terms_each`]: its size and the
/// documents it may hold.
pub type Pick<'a> = (usize, Option<&'a dyn Fn(u32) -> bool>);

/// The inverted index (BM25 field + sparse field).
#[derive(Debug, Clone)]
pub struct InvertedIndex {
    analyzer: Analyzer,
    n_docs: u32,
    doc_lang: Vec<Lang>,
    doc_len: Vec<u32>,
    total_tokens: u64,
    terms: Vec<String>,
    term_ids: HashMap<String, u32>,
    text: Field,
    /// Sparse token ids, sorted; `sparse.df[i]` etc. belong to `sparse_tokens[i]`.
    sparse_tokens: Vec<u32>,
    sparse: Field,
    has_sparse: bool,
    /// `k1·(1 − b + b·|d|/avgdl)` per doc, derived on build/load.
    doc_k: Vec<f32>,
}

mod build;

impl InvertedIndex {
    fn derive(&mut self) {
        let p = &self.analyzer.config().bm25;
        let avg = if self.n_docs == 0 {
            1.0
        } else {
            (self.total_tokens as f32 / self.n_docs as f32).max(f32::MIN_POSITIVE)
        };
        let q = p.quantize_doc_len;
        self.doc_k = self
            .doc_len
            .iter()
            .map(|&l| {
                let l = if q { norm_decode(norm_encode(l)) } else { l };
                p.k1 * (1.0 - p.b + p.b * l as f32 / avg)
            })
            .collect();
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.n_docs as usize
    }

    /// True when it holds no document (never after a successful build).
    pub fn is_empty(&self) -> bool {
        self.n_docs == 0
    }

    /// Number of distinct BM25 terms.
    pub fn num_terms(&self) -> usize {
        self.terms.len()
    }

    /// Whether the sparse field was built.
    pub fn has_sparse(&self) -> bool {
        self.has_sparse
    }

    /// The analyzer (with the corpus compound lexicon) to analyze queries with.
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// Number of analyzed terms of `doc`.
    pub fn doc_len(&self, doc: u32) -> Option<u32> {
        self.doc_len.get(doc as usize).copied()
    }

    /// Language the doc was analyzed as.
    pub fn doc_lang(&self, doc: u32) -> Option<Lang> {
        self.doc_lang.get(doc as usize).copied()
    }

    /// Document frequency of an analyzed term.
    pub fn doc_freq(&self, term: &str) -> u32 {
        self.term_ids
            .get(term)
            .map_or(0, |&t| self.text.df[t as usize])
    }

    /// The documents holding an analysed term, ascending.
    pub fn docs(&self, term: &str) -> Vec<u32> {
        self.docs_below(term, u32::MAX)
    }

    /// The documents below `limit` holding an analysed term, ascending
    /// (the postings are read only up to `limit`).
    pub fn docs_below(&self, term: &str, limit: u32) -> Vec<u32> {
        let Some(&tid) = self.term_ids.get(term) else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(self.text.df[tid as usize] as usize);
        for (doc, _) in self.text.doc_tf(tid as usize) {
            if doc >= u64::from(limit) {
                break;
            }
            out.push(doc as u32);
        }
        out
    }

    /// Mean number of analyzed terms per document.
    pub fn avg_doc_len(&self) -> f32 {
        self.total_tokens as f32 / self.n_docs.max(1) as f32
    }

    /// `idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5))`.
    pub fn idf(&self, df: u32) -> f32 {
        bm25_idf(self.n_docs as f32, df as f32)
    }

    /// Analyzed, de-duplicated query terms (first occurrence order) in the
    /// query's detected language.
    pub fn query_terms(&self, query: &str) -> Vec<String> {
        let mut terms = self.analyzer.analyze(query);
        let mut seen = std::collections::HashSet::new();
        terms.retain(|t| seen.insert(t.clone()));
        terms
    }

    /// BM25 top-`k` for a free-text query (analyzed in its detected language).
    pub fn bm25(&self, query: &str, k: usize, filter: Option<&dyn Fn(u32) -> bool>) -> Vec<Hit> {
        let terms = self.query_terms(query);
        self.bm25_terms(&terms, k, filter)
    }

    /// BM25 top-`k` for a free-text query analyzed as `lang`.
    pub fn bm25_lang(
        &self,
        query: &str,
        lang: Lang,
        k: usize,
        filter: Option<&dyn Fn(u32) -> bool>,
    ) -> Vec<Hit> {
        let mut terms = self.analyzer.analyze_lang(query, lang);
        let mut seen = std::collections::HashSet::new();
        terms.retain(|t| seen.insert(t.clone()));
        self.bm25_terms(&terms, k, filter)
    }

    /// BM25 top-`k` for already analyzed terms (each counted once per occurrence).
    pub fn bm25_terms(
        &self,
        terms: &[String],
        k: usize,
        filter: Option<&dyn Fn(u32) -> bool>,
    ) -> Vec<Hit> {
        self.bm25_terms_each(terms, &[(k, filter)])
            .pop()
            .unwrap_or_default()
    }

    /// BM25 over `terms` scored once, then the top `k` of each
    /// `(k, filter)` pick (several candidate pools from one pass).
    pub fn bm25_terms_each(&self, terms: &[String], picks: &[Pick<'_>]) -> Vec<Vec<Hit>> {
        let weighted: Vec<(&str, f32)> = terms.iter().map(|t| (t.as_str(), 1.0)).collect();
        self.bm25_weighted_each(&weighted, picks)
    }

    /// [`InvertedIndex::bm25_terms_each`] with a weight per term: a term's
    /// BM25 contribution is multiplied by it (expansion terms count less
    /// than the question's own).
    pub fn bm25_weighted_each(&self, terms: &[(&str, f32)], picks: &[Pick<'_>]) -> Vec<Vec<Hit>> {
        if picks.iter().all(|(k, _)| *k == 0) {
            return picks.iter().map(|_| Vec::new()).collect();
        }
        self.bm25_pass(terms, picks, None).0
    }

    /// BM25 over groups of documents (a norm's chunks as one document):
    /// per group the summed term frequencies of its documents, saturated
    /// with the group's own `k` (`k1 · (1 − b + b · len / avg len)` of the
    /// group, from [`InvertedIndex::group_k`]); idf over the groups. Returns
    /// the score of every group (0 where no term occurs); `group_of[doc]` is
    /// the group of a document, `u32::MAX` leaves it out.
    pub fn bm25_grouped(
        &self,
        terms: &[(&str, f32)],
        group_of: &[u32],
        group_k: &[f32],
    ) -> Vec<f32> {
        self.bm25_pass(terms, &[], Some((group_of, group_k))).1
    }

    /// [`InvertedIndex::bm25_weighted_each`] and
    /// [`InvertedIndex::bm25_grouped`] from one walk over the postings.
    pub fn bm25_each_and_grouped(
        &self,
        terms: &[(&str, f32)],
        picks: &[Pick<'_>],
        group_of: &[u32],
        group_k: &[f32],
    ) -> (Vec<Vec<Hit>>, Vec<f32>) {
        self.bm25_pass(terms, picks, Some((group_of, group_k)))
    }

    /// One term-at-a-time walk over the terms' postings: the picks of the
    /// document BM25 (none when every `k` is 0) and, with `groups`, the
    /// grouped BM25 of every group.
    fn bm25_pass(
        &self,
        terms: &[(&str, f32)],
        picks: &[Pick<'_>],
        groups: Option<(&[u32], &[f32])>,
    ) -> (Vec<Vec<Hit>>, Vec<f32>) {
        let k1 = self.analyzer.config().bm25.k1;
        let docs = picks.iter().any(|(k, _)| *k > 0);
        let (group_of, group_k) = groups.unwrap_or((&[], &[]));
        let n_groups = group_k.len();
        let mut scores = vec![0.0f32; n_groups];
        let mut tf_of = vec![0.0f32; n_groups];
        let mut touched: Vec<u32> = Vec::new();
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            if docs {
                s.reset(self.n_docs as usize);
            }
            for &(t, tw) in terms {
                let Some(&tid) = self.term_ids.get(t) else {
                    continue;
                };
                let tid = tid as usize;
                let w = tw * self.idf(self.text.df[tid]) * (1.0 + k1);
                let (mut in_docs, mut in_groups) = (docs, n_groups > 0);
                for (doc, tf) in self.text.doc_tf(tid) {
                    let d = doc as usize;
                    let tf = tf as f32;
                    if in_docs {
                        match self.doc_k.get(d) {
                            Some(&dk) => s.add(d, w * (tf / (tf + dk))),
                            None => in_docs = false,
                        }
                    }
                    if in_groups {
                        match group_of.get(d) {
                            Some(&g) if g != u32::MAX && (g as usize) < n_groups => {
                                if tf_of[g as usize] == 0.0 {
                                    touched.push(g);
                                }
                                tf_of[g as usize] += tf;
                            }
                            Some(_) => {}
                            None => in_groups = false,
                        }
                    }
                    if !in_docs && !in_groups {
                        break;
                    }
                }
                if n_groups > 0 {
                    let w = tw * bm25_idf(n_groups as f32, touched.len() as f32) * (1.0 + k1);
                    for &g in &touched {
                        let tf = tf_of[g as usize];
                        scores[g as usize] += w * (tf / (tf + group_k[g as usize]));
                        tf_of[g as usize] = 0.0;
                    }
                    touched.clear();
                }
            }
            let hits = picks
                .iter()
                .map(|&(k, filter)| {
                    if k == 0 {
                        Vec::new()
                    } else {
                        collect(&s, k, filter)
                    }
                })
                .collect();
            (hits, scores)
        })
    }

    /// The BM25 `k` of each group of documents (see
    /// [`InvertedIndex::bm25_grouped`]): `k1 · (1 − b + b · len / avg)` with
    /// the group's summed document lengths over the average group length.
    pub fn group_k(&self, group_of: &[u32], n_groups: usize) -> Vec<f32> {
        let p = &self.analyzer.config().bm25;
        let mut len = vec![0u64; n_groups];
        for (d, &g) in group_of.iter().enumerate() {
            if (g as usize) < n_groups {
                len[g as usize] += u64::from(self.doc_len(d as u32).unwrap_or(0));
            }
        }
        let avg = if n_groups == 0 {
            1.0
        } else {
            (len.iter().sum::<u64>() as f64 / n_groups as f64).max(1.0)
        };
        len.iter()
            .map(|&l| {
                (f64::from(p.k1) * (1.0 - f64::from(p.b) + f64::from(p.b) * l as f64 / avg)) as f32
            })
            .collect()
    }

    /// Dot-product top-`k` over the sparse field; empty when it was not built.
    /// Duplicate query tokens have their weights summed.
    pub fn sparse(
        &self,
        query: &[(u32, f32)],
        k: usize,
        filter: Option<&dyn Fn(u32) -> bool>,
    ) -> Vec<Hit> {
        if k == 0 || !self.has_sparse {
            return Vec::new();
        }
        let mut q = query.to_vec();
        q.sort_by_key(|p| p.0);
        let q = merge_dupes(q);
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            s.reset(self.n_docs as usize);
            for (tok, qw) in q {
                if !qw.is_finite() || qw == 0.0 {
                    continue;
                }
                let Ok(i) = self.sparse_tokens.binary_search(&tok) else {
                    continue;
                };
                let buf = self.sparse.postings(i);
                let mut pos = 0usize;
                let mut doc = 0u64;
                while pos < buf.len() {
                    let Some(delta) = get_varint(buf, &mut pos) else {
                        break;
                    };
                    let Some(b) = buf.get(pos..pos + 2) else {
                        break;
                    };
                    pos += 2;
                    doc += delta;
                    let d = doc as usize;
                    if d >= self.n_docs as usize {
                        break;
                    }
                    let w = f16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f32();
                    s.add(d, qw * w);
                }
            }
            collect(&s, k, filter)
        })
    }

    /// Serialise to bytes (the `inverted.bin` file of an index directory).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.buf.extend_from_slice(MAGIC);
        let cfg = serde_json::to_string(self.analyzer.config()).unwrap_or_default();
        w.str(&cfg);
        w.u32(self.n_docs);
        w.bytes(
            &self
                .doc_lang
                .iter()
                .map(|l| u8::from(*l == Lang::En))
                .collect::<Vec<_>>(),
        );
        for &l in &self.doc_len {
            w.u32(l);
        }
        w.u64(self.total_tokens);
        let lex = self.analyzer.lexicon_sorted();
        w.u64(lex.len() as u64);
        for s in &lex {
            w.str(s);
        }
        w.u64(self.terms.len() as u64);
        for (i, t) in self.terms.iter().enumerate() {
            w.str(t);
            w.u32(self.text.df[i]);
            w.u64(self.text.off[i + 1]);
        }
        w.bytes(&self.text.post);
        w.u8(u8::from(self.has_sparse));
        w.u64(self.sparse_tokens.len() as u64);
        for (i, t) in self.sparse_tokens.iter().enumerate() {
            w.u32(*t);
            w.u32(self.sparse.df[i]);
            w.u64(self.sparse.off[i + 1]);
        }
        w.bytes(&self.sparse.post);
        w.buf
    }

    /// Decode bytes written by [`InvertedIndex::to_bytes`]; `Err` names the
    /// field that is truncated or inconsistent. The postings are copied.
    pub fn from_bytes(buf: &[u8]) -> Result<Self, String> {
        Self::decode(buf, None)
    }

    /// Decode a mapped `inverted.bin`: the term dictionary is read into
    /// memory, the postings stay in the map.
    pub fn from_map(map: &Arc<Mmap>) -> Result<Self, String> {
        Self::decode(map, Some(map))
    }

    /// Whether the postings are read from a mapped file.
    pub fn postings_mapped(&self) -> bool {
        self.text.post.is_mapped()
    }

    fn decode(buf: &[u8], map: Option<&Arc<Mmap>>) -> Result<Self, String> {
        let postings = |part: &[u8]| -> Slab<u8> {
            map.and_then(|m| Slab::mapped(m, Slab::<u8>::range_in(m, part)?))
                .unwrap_or_else(|| part.to_vec().into())
        };
        if buf.len() < MAGIC.len() || &buf[..MAGIC.len()] != MAGIC {
            return Err("not an inverted index file of this format version (bad magic)".into());
        }
        let mut r = Reader::new(&buf[MAGIC.len()..]);
        let cfg: AnalyzerConfig = serde_json::from_str(r.str("analyzer config")?)
            .map_err(|e| format!("analyzer config: {e}"))?;
        let n_docs = r.u32("doc count")?;
        let langs = r.bytes("doc languages")?;
        if langs.len() != n_docs as usize {
            return Err(format!("{} doc languages for {n_docs} docs", langs.len()));
        }
        let doc_lang = langs
            .iter()
            .map(|&b| if b == 1 { Lang::En } else { Lang::De })
            .collect();
        let mut doc_len = Vec::with_capacity(n_docs as usize);
        for _ in 0..n_docs {
            doc_len.push(r.u32("doc length")?);
        }
        let total_tokens = r.u64("token total")?;
        let nlex = r.u64("lexicon size")?;
        let mut lex = Vec::new();
        for _ in 0..nlex {
            lex.push(r.str("lexicon word")?.to_string());
        }
        let nterms = r.u64("term count")? as usize;
        let mut terms = Vec::with_capacity(nterms.min(buf.len()));
        let mut term_ids = HashMap::with_capacity(nterms.min(buf.len()));
        let mut text = Field {
            off: vec![0],
            ..Field::default()
        };
        for i in 0..nterms {
            let t = r.str("term")?.to_string();
            text.df.push(r.u32("term df")?);
            text.off.push(r.u64("term offset")?);
            term_ids.insert(t.clone(), i as u32);
            terms.push(t);
        }
        text.post = postings(r.bytes("text postings")?);
        check_offsets(&text, "text postings")?;
        let has_sparse = r.u8("sparse flag")? == 1;
        let ntok = r.u64("sparse token count")? as usize;
        let mut sparse_tokens = Vec::with_capacity(ntok.min(buf.len()));
        let mut sparse = Field {
            off: vec![0],
            ..Field::default()
        };
        for _ in 0..ntok {
            sparse_tokens.push(r.u32("sparse token")?);
            sparse.df.push(r.u32("sparse df")?);
            sparse.off.push(r.u64("sparse offset")?);
        }
        sparse.post = postings(r.bytes("sparse postings")?);
        check_offsets(&sparse, "sparse postings")?;
        if !r.is_at_end() {
            return Err(format!(
                "{} trailing bytes",
                buf.len() - MAGIC.len() - r.pos
            ));
        }
        let mut ix = InvertedIndex {
            analyzer: Analyzer::with_lexicon(&cfg, lex),
            n_docs,
            doc_lang,
            doc_len,
            total_tokens,
            terms,
            term_ids,
            text,
            sparse_tokens,
            sparse,
            has_sparse,
            doc_k: Vec::new(),
        };
        ix.derive();
        Ok(ix)
    }
}

impl PartialEq for InvertedIndex {
    fn eq(&self, o: &Self) -> bool {
        self.analyzer.config() == o.analyzer.config()
            && self.analyzer.lexicon_sorted() == o.analyzer.lexicon_sorted()
            && self.n_docs == o.n_docs
            && self.doc_lang == o.doc_lang
            && self.doc_len == o.doc_len
            && self.total_tokens == o.total_tokens
            && self.terms == o.terms
            && self.text == o.text
            && self.sparse_tokens == o.sparse_tokens
            && self.sparse == o.sparse
            && self.has_sparse == o.has_sparse
    }
}

fn check_offsets(f: &Field, what: &str) -> Result<(), String> {
    let mut prev = 0u64;
    for &o in &f.off {
        if o < prev || o > f.post.len() as u64 {
            return Err(format!(
                "{what}: offset {o} out of order or beyond {} bytes",
                f.post.len()
            ));
        }
        prev = o;
    }
    Ok(())
}

fn merge_dupes(sorted: Vec<(u32, f32)>) -> Vec<(u32, f32)> {
    let mut out: Vec<(u32, f32)> = Vec::with_capacity(sorted.len());
    for (t, w) in sorted {
        match out.last_mut() {
            Some(l) if l.0 == t => l.1 += w,
            _ => out.push((t, w)),
        }
    }
    out
}

fn collect(s: &Scratch, k: usize, filter: Option<&dyn Fn(u32) -> bool>) -> Vec<Hit> {
    let mut top = TopK::new(k);
    for &d in &s.touched {
        let sc = s.acc[d as usize];
        if sc < top.threshold() {
            continue;
        }
        if filter.is_some_and(|f| !f(d)) {
            continue;
        }
        top.push(d, sc);
    }
    top.into_sorted()
}

#[cfg(test)]
mod tests;
