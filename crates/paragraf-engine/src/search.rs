//! The life of a query after analysis: gather candidates (dense, lexical,
//! headings, exact lookups, recital bridge) → fuse → rank → assess → mark.

use crate::{Engine, EngineError, QueryAnalysis, SearchOptions, MAX_TOP_K};
use paragraf_rank::{assess, rank, AnswerType, Candidate};
use paragraf_types::vector::dot;
use paragraf_types::{ChunkId, Lang, NormRef, SearchResponse, Timings};
use std::collections::HashMap;
use std::time::Instant;

/// A search result together with the query analysis that produced it.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    pub response: SearchResponse,
    pub analysis: QueryAnalysis,
}

impl Engine {
    fn validate(query: &str, top_k: usize) -> Result<(), EngineError> {
        // blank = nothing but white space and control characters (NUL)
        match paragraf_types::limits::check_query(query) {
            Ok(()) => {}
            Err(paragraf_types::limits::QueryError::Empty) => return Err(EngineError::EmptyQuery),
            Err(paragraf_types::limits::QueryError::TooLong { len, max }) => {
                return Err(EngineError::QueryTooLong { len, max })
            }
        }
        if top_k == 0 || top_k > MAX_TOP_K {
            return Err(EngineError::BadTopK {
                got: top_k,
                max: MAX_TOP_K,
            });
        }
        Ok(())
    }

    /// Ranked results and the assessment for a question: analyse → embed →
    /// gather (dense, lexical, headings, exact lookups, recital bridge) →
    /// fuse → rank → assess → mark.
    pub fn search(&self, query: &str, opts: &SearchOptions) -> Result<SearchOutcome, EngineError> {
        Self::validate(query, opts.top_k)?;
        let mut t = Timings::new();
        let t0 = Instant::now();
        let mut lap = Instant::now();
        let mark = |t: &mut Timings, name: &str, lap: &mut Instant| {
            t.insert(name.to_string(), lap.elapsed().as_secs_f64() * 1e3);
            *lap = Instant::now();
        };

        let mut analysis = self.analyze_with(query, opts.hand_topics);
        mark(&mut t, "analyze", &mut lap);

        let qe = self.query_embedder.embed(query)?;
        mark(&mut t, "embed", &mut lap);

        let chunks = &self.index.chunks;
        let filter_fn = |doc: u32| opts.filter.matches(&chunks[doc as usize]);
        let filter: DocFilter<'_> = if opts.filter.is_empty() {
            None
        } else {
            Some(&filter_fn)
        };
        let mut cand: HashMap<u32, Signals> = HashMap::new();
        self.gather_dense(
            &qe.dense,
            self.params.dense_top_n.max(opts.top_k),
            filter,
            &mut cand,
        );
        mark(&mut t, "dense", &mut lap);
        let lexical_n = self.params.lexical_top_n.max(opts.top_k);
        let norm_lexical = self.gather_lexical(&analysis, lexical_n, filter, &mut cand);
        if let Some(sp) = &qe.sparse {
            let sparse_n = self.params.sparse_top_n.max(opts.top_k);
            for h in self.index.inverted.sparse(sp, sparse_n, filter) {
                cand.entry(h.doc).or_default().sparse = Some(h.score);
            }
        }
        mark(&mut t, "lexical", &mut lap);
        let heading_of = self.gather_headings(&qe.dense, filter, &mut cand);
        mark(&mut t, "headings", &mut lap);
        self.gather_exact(&analysis, filter, &mut cand);
        let via = self.recital_evidence(&qe.dense, filter, &mut cand);
        // the question's content words in a row (`pairLexicalGain`)
        let pairs = if self.params.pair_lexical_gain > 0.0 {
            crate::phrase::question_pairs(self.index.inverted.analyzer(), query, analysis.lang)
        } else {
            Vec::new()
        };
        let fused = Fusion {
            q: &qe.dense,
            heading_of: &heading_of,
            norm_lexical: &norm_lexical,
            via: &via,
            pairs: &pairs,
        };
        let (candidates, bridged) = self.fuse(&cand, &fused);
        self.note_answer_norms(&mut analysis, &candidates);
        self.note_duty_norms(&mut analysis, &candidates);
        mark(&mut t, "candidates", &mut lap);

        // the assessment reads the ranked list, never the cut the caller asked
        // to see: rank at least the default `topK`, assess, then cut
        let mut results = rank(
            &analysis,
            &candidates,
            &self.params,
            opts.stage,
            opts.top_k.max(self.params.top_k),
        );
        mark(&mut t, "rank", &mut lap);
        let chunk_of = |id: &ChunkId| self.chunk(id);
        let assessment = assess(
            &analysis,
            &results,
            &chunk_of,
            &self.index.extras.mappings,
            &self.index.extras.evidence,
            &self.params,
        );
        results.truncate(opts.top_k);
        self.mark_lexical_tier(&mut results);
        self.mark_bridged(&mut results, &bridged);
        mark(&mut t, "assess", &mut lap);
        t.insert("total".into(), t0.elapsed().as_secs_f64() * 1e3);
        Ok(SearchOutcome {
            response: SearchResponse {
                query: query.to_string(),
                results,
                assessment,
                answer: None,
                timings_ms: t,
                lang: Some(analysis.lang),
            },
            analysis,
        })
    }

    /// The question vector's nearest chunks (HNSW).
    fn gather_dense(
        &self,
        q: &[f32],
        dense_n: usize,
        filter: DocFilter<'_>,
        cand: &mut HashMap<u32, Signals>,
    ) {
        for h in self.index.dense.search(q, dense_n, filter) {
            cand.entry(h.doc).or_default().dense = Some(h.score);
        }
    }

    /// BM25 once: the overall pool and, for each law the question names by
    /// title, that law's best chunks; the best norms by norm BM25
    /// (`normLexicalMix`) join with their chunks. Returns the norm BM25
    /// scores (empty when the mix is off).
    fn gather_lexical(
        &self,
        analysis: &QueryAnalysis,
        lexical_n: usize,
        filter: DocFilter<'_>,
        cand: &mut HashMap<u32, Signals>,
    ) -> Vec<f32> {
        let chunks = &self.index.chunks;
        let mut norm_lexical: Vec<f32> = Vec::new();
        let in_law: Vec<Box<dyn Fn(u32) -> bool + '_>> = analysis
            .law_matches
            .iter()
            .map(|m| {
                let in_law = self.law_lift.in_law(&m.regulation);
                Box::new(move |doc: u32| in_law(doc) && filter.map(|f| f(doc)).unwrap_or(true))
                    as Box<dyn Fn(u32) -> bool + '_>
            })
            .collect();
        // and, for each foreign jurisdiction it names („in der Schweiz“),
        // that jurisdiction's best chunks (`jurisdictionTopN`), used below
        // only when retrieval found none of it: its act is small and
        // drowns in a pool of federal and EU law. (Its nearest chunks by
        // vector were tried as well and put its hub articles first.)
        let foreign = analysis.named_foreign_jurisdictions();
        let in_juris: Vec<Box<dyn Fn(u32) -> bool + '_>> = foreign
            .iter()
            .map(|&j| {
                Box::new(move |doc: u32| {
                    chunks[doc as usize].jurisdiction == j && filter.map(|f| f(doc)).unwrap_or(true)
                }) as Box<dyn Fn(u32) -> bool + '_>
            })
            .collect();
        let mut picks: Vec<paragraf_index::Pick<'_>> = vec![(lexical_n, filter)];
        picks.extend(
            in_law
                .iter()
                .map(|f| (self.params.law_title_top_n, Some(f.as_ref()))),
        );
        picks.extend(
            in_juris
                .iter()
                .map(|f| (self.params.jurisdiction_top_n, Some(f.as_ref()))),
        );
        // the question's terms, then its synonyms at synonymBm25Weight
        let w = self.params.synonym_bm25_weight as f32;
        let mut weighted: Vec<(&str, f32)> = analysis
            .query_terms
            .iter()
            .map(|t| (t.as_str(), 1.0))
            .collect();
        if w > 0.0 {
            weighted.extend(analysis.synonym_terms.iter().map(|t| (t.as_str(), w)));
        }
        // chunk BM25 and norm BM25 from one walk over the postings
        let (all, scores) = if self.params.norm_lexical_mix > 0.0 {
            self.index.inverted.bm25_each_and_grouped(
                &weighted,
                &picks,
                &self.norm_text_of,
                &self.norm_text_k,
            )
        } else {
            (
                self.index.inverted.bm25_weighted_each(&weighted, &picks),
                Vec::new(),
            )
        };
        if self.params.norm_lexical_mix > 0.0 {
            self.join_best_norm_texts(&scores, filter, cand);
            norm_lexical = scores;
        }
        let (general, named) = all.split_at(picks.len() - in_juris.len());
        for h in general.iter().flatten() {
            cand.entry(h.doc).or_default().lexical = Some(h.score);
        }
        // a foreign jurisdiction's pool is a fallback: joined only when
        // neither retrieval found any chunk of it (where they did, its
        // joined chunks outranked them: `eval/sets/own-foreign-2.jsonl`)
        for (&j, hits) in foreign.iter().zip(named) {
            if cand.keys().any(|&d| chunks[d as usize].jurisdiction == j) {
                continue;
            }
            for h in hits {
                cand.entry(h.doc).or_default().lexical = Some(h.score);
            }
        }
        norm_lexical
    }

    /// The best norms by norm BM25 (`normLexicalTopN`) join the pool with
    /// their chunks.
    fn join_best_norm_texts(
        &self,
        scores: &[f32],
        filter: DocFilter<'_>,
        cand: &mut HashMap<u32, Signals>,
    ) {
        let mut best: Vec<u32> = (0..scores.len() as u32)
            .filter(|&g| scores[g as usize] > 0.0)
            .collect();
        let by = |a: &u32, b: &u32| {
            scores[*b as usize]
                .total_cmp(&scores[*a as usize])
                .then_with(|| a.cmp(b))
        };
        let top_n = self.params.norm_lexical_top_n;
        if best.len() > top_n && top_n > 0 {
            best.select_nth_unstable_by(top_n - 1, by);
        }
        best.truncate(top_n);
        for g in best {
            for &doc in &self.norm_text_docs[g as usize] {
                if filter.map(|f| f(doc)).unwrap_or(true) {
                    cand.entry(doc).or_default();
                }
            }
        }
    }

    /// Heading vectors (when the index has them and they weigh): the best
    /// heading cosine of every norm, for the heading channel and for a
    /// lexical tier (its chunks' only dense signal is their norm's heading
    /// vector); the nearest norms (`headingTopN`) join the pool. Returns
    /// the cosine per norm (NaN: none).
    fn gather_headings(
        &self,
        q: &[f32],
        filter: DocFilter<'_>,
        cand: &mut HashMap<u32, Signals>,
    ) -> Vec<f32> {
        let tiered = self.index.dense.len() < self.index.chunks.len();
        let heading_of =
            if (self.params.heading_weight > 0.0 || tiered) && !self.index.headings.is_empty() {
                self.heading_scores(q)
            } else {
                vec![f32::NAN; self.norms.len()]
            };
        let mut near: Vec<u32> = (0..self.norms.len() as u32)
            .filter(|&n| !heading_of[n as usize].is_nan())
            .collect();
        // the best `headingTopN` (ties by norm), selected rather than a
        // sort of every norm: a scale index has ~100k
        let by_heading = |&a: &u32, &b: &u32| {
            heading_of[b as usize]
                .total_cmp(&heading_of[a as usize])
                .then_with(|| self.norms[a as usize].0.cmp(&self.norms[b as usize].0))
        };
        let top_n = self.params.heading_top_n;
        if near.len() > top_n && top_n > 0 {
            near.select_nth_unstable_by(top_n - 1, by_heading);
        }
        near.truncate(top_n);
        near.sort_by(by_heading);
        for n in near {
            for &doc in self
                .by_norm
                .get(&self.norms[n as usize])
                .map_or(&[][..], |v| v)
            {
                if filter.map(|f| f(doc)).unwrap_or(true) {
                    cand.entry(doc).or_default();
                }
            }
        }
        heading_of
    }

    /// Exact lookups: explicit references; topic norms and heading matches
    /// join the pool so topicGain can apply.
    fn gather_exact(
        &self,
        analysis: &QueryAnalysis,
        filter: DocFilter<'_>,
        cand: &mut HashMap<u32, Signals>,
    ) {
        for (norm, exact) in analysis
            .explicit_refs
            .iter()
            .map(|n| (n, true))
            .chain(analysis.topic_norms.iter().map(|n| (n, false)))
            .chain(analysis.heading_matches.iter().map(|m| (&m.norm, false)))
        {
            for &doc in self.by_norm.get(norm).map(|v| v.as_slice()).unwrap_or(&[]) {
                if filter.map(|f| f(doc)).unwrap_or(true) {
                    let e = cand.entry(doc).or_default();
                    e.exact |= exact;
                }
            }
        }
    }

    /// A recital's evidence reaches the article it explains
    /// (`recitalBridge`): the article chunk joins the pool; returns, per
    /// article chunk, the recital nearest to the question with its dense
    /// and BM25 scores (the article takes the higher of its own and these).
    fn recital_evidence(
        &self,
        q: &[f32],
        filter: DocFilter<'_>,
        cand: &mut HashMap<u32, Signals>,
    ) -> RecitalEvidence {
        let mut via: RecitalEvidence = HashMap::new();
        if self.params.recital_bridge && !self.recital_target.is_empty() {
            let mut recitals: Vec<u32> = cand
                .keys()
                .copied()
                .filter(|d| self.recital_target.contains_key(d))
                .collect();
            recitals.sort_unstable();
            for r in recitals {
                let t = self.recital_target[&r];
                if !filter.map(|f| f(t)).unwrap_or(true) {
                    continue;
                }
                let s = cand[&r];
                let dense = s.dense.or_else(|| Some(dot(q, self.index.dense.vector(r))));
                let e = via.entry(t).or_insert((r, dense, s.lexical));
                // the recital nearest to the question speaks for the article
                if dense > e.1 {
                    *e = (r, dense, s.lexical);
                }
            }
        }
        for &t in via.keys() {
            cand.entry(t).or_default();
        }
        via
    }

    /// Fusion's input: every candidate gets its exact dense score, so fusion
    /// compares like with like, its lexical score mixed with its norm's
    /// BM25, and a bridged article its recital's scores where higher.
    /// Returns the candidates in doc order and the bridged articles
    /// (article doc → recital doc).
    fn fuse<'e>(
        &'e self,
        cand: &HashMap<u32, Signals>,
        f: &Fusion<'_>,
    ) -> (Vec<Candidate<'e>>, HashMap<u32, u32>) {
        let chunks = &self.index.chunks;
        let mut bridged: HashMap<u32, u32> = HashMap::new();
        let mut docs: Vec<u32> = cand.keys().copied().collect();
        docs.sort_unstable();
        let candidates: Vec<Candidate> = docs
            .iter()
            .map(|&doc| {
                let s = cand[&doc];
                // a chunk of the lexical tier (no vector) scores by its
                // norm's heading vector, or has no dense score at all
                let embedded = (doc as usize) < self.index.dense.len();
                let h = f.heading_of[self.chunk_norm[doc as usize] as usize];
                let mut dense = s.dense.or_else(|| {
                    if embedded {
                        Some(dot(f.q, self.index.dense.vector(doc)))
                    } else {
                        (!h.is_nan()).then_some(h)
                    }
                });
                let mut lexical = s.lexical;
                if let Some(&n) = f.norm_lexical.get(self.norm_text_of[doc as usize] as usize) {
                    let mix = self.params.norm_lexical_mix as f32;
                    let l = (1.0 - mix) * lexical.unwrap_or(0.0) + mix * n;
                    lexical = (l > 0.0).then_some(l);
                }
                if let Some(&(r, rd, rl)) = f.via.get(&doc) {
                    if rd > dense || rl > lexical {
                        bridged.insert(doc, r);
                    }
                    dense = higher(dense, rd);
                    lexical = higher(lexical, rl);
                }
                // only a BM25 score is lifted by the pairs: the others need none
                let pairs = (lexical.is_some() && !f.pairs.is_empty()).then(|| {
                    let text = &chunks[doc as usize].text;
                    crate::phrase::pair_share(text, f.pairs)
                });
                Candidate {
                    chunk: &chunks[doc as usize],
                    dense,
                    lexical,
                    sparse: s.sparse,
                    heading: (!h.is_nan()).then_some(h),
                    exact: s.exact,
                    pairs,
                }
            })
            .collect();
        (candidates, bridged)
    }

    /// The norms among the candidates that state the kind of fact the
    /// question asks for (`answerTypeGain`) go into the analysis.
    fn note_answer_norms(&self, analysis: &mut QueryAnalysis, candidates: &[Candidate<'_>]) {
        if analysis.answer_types.is_empty() {
            return;
        }
        let mut stated = self.answer_norms(candidates, &analysis.answer_types);
        // the law's norm on when it applies states the date asked for
        if analysis.answer_types.contains(&AnswerType::Deadline) {
            stated.extend(
                analysis
                    .application_norms
                    .iter()
                    .map(|n| (n.clone(), AnswerType::Deadline)),
            );
        }
        analysis.add_answer_norms(stated);
    }

    /// Under duty intent, the binding norms among the candidates whose
    /// heading names a duty and the question's subject beside it — a term
    /// of the question that is no duty word („Transparenzpflichten …“ for
    /// "Who is affected by the obligations of the transparency register?",
    /// „… Schulungspflicht …“ for „Wie oft müssen NIS-2-Schulungen …“) — go
    /// into the analysis (`dutyHeadingGain`). A duty heading on another
    /// subject is no answer to who must do this.
    fn note_duty_norms(&self, analysis: &mut QueryAnalysis, candidates: &[Candidate<'_>]) {
        if !analysis.duty_intent {
            return;
        }
        // each heading once: a norm's chunks repeat it
        let mut headed: Vec<(NormRef, &str, Lang)> = candidates
            .iter()
            .filter(|c| {
                c.chunk.source_class.is_binding() && self.lexicon.heading_names_duty(&c.chunk.title)
            })
            .map(|c| {
                let norm = NormRef::new(&c.chunk.norm, &c.chunk.regulation);
                (norm, c.chunk.title.as_str(), c.chunk.lang)
            })
            .collect();
        headed.sort();
        headed.dedup();
        let mut norms: Vec<NormRef> = headed
            .into_iter()
            .filter(|(_, title, lang)| {
                crate::analyze::duty_heading_names_subject(
                    self.index.inverted.analyzer(),
                    title,
                    *lang,
                    &self.duty_words,
                    &analysis.query_terms,
                )
            })
            .map(|(norm, _, _)| norm)
            .collect();
        norms.dedup();
        analysis.add_duty_norms(norms);
    }

    /// The binding norms among `candidates` whose text (any chunk of the
    /// norm, any language) states a fact of an `asked` type, each with the
    /// first such type; in norm order.
    fn answer_norms(
        &self,
        candidates: &[Candidate<'_>],
        asked: &[AnswerType],
    ) -> Vec<(NormRef, AnswerType)> {
        let mut norms: Vec<NormRef> = candidates
            .iter()
            .filter(|c| c.chunk.source_class.is_binding())
            .map(|c| NormRef::new(&c.chunk.norm, &c.chunk.regulation))
            .collect();
        norms.sort();
        norms.dedup();
        let mask = |d: u32| {
            *self.answer_masks[d as usize].get_or_init(|| {
                paragraf_rank::answer_type::stated_mask(&self.index.chunks[d as usize].text)
            })
        };
        norms
            .into_iter()
            .filter_map(|n| {
                let docs = self.by_norm.get(&n)?;
                let kind = docs.iter().find_map(|&d| {
                    let m = mask(d);
                    asked.iter().copied().find(|k| m & k.bit() != 0)
                })?;
                Some((n, kind))
            })
            .collect()
    }

    /// Results that took a recital's retrieval evidence say which recital.
    fn mark_bridged(
        &self,
        results: &mut [paragraf_types::SearchResult],
        bridged: &HashMap<u32, u32>,
    ) {
        if bridged.is_empty() {
            return;
        }
        for r in results {
            let Some(&doc) = self.by_id.get(&r.chunk_id) else {
                continue;
            };
            if let Some(&rec) = bridged.get(&doc) {
                let c = &self.index.chunks[rec as usize];
                r.explanation.push(paragraf_types::ScoreTerm {
                    name: "recitalBridge".into(),
                    constant: 0.0,
                    value: 0.0,
                    reason: format!(
                        "Retrieval-Score über {} {}, der diese Norm erläutert (nächster Artikel im Vektorraum)",
                        c.norm, c.regulation
                    ),
                });
            }
        }
    }

    /// Results from the lexical tier (archive chunks without a vector) say
    /// so in their explanation: their fused score had no dense channel.
    fn mark_lexical_tier(&self, results: &mut [paragraf_types::SearchResult]) {
        let embedded = self.index.dense.len();
        for r in results {
            if self
                .by_id
                .get(&r.chunk_id)
                .is_some_and(|&i| i as usize >= embedded)
            {
                r.explanation.push(paragraf_types::ScoreTerm {
                    name: "lexicalTier".into(),
                    constant: 0.0,
                    value: 0.0,
                    reason: "Gesamtarchiv Bundesrecht, Text nicht eingebettet: dense-Score aus dem Überschriftsvektor der Norm (ohne ihn der Median der Kandidaten), dazu BM25, Überschrift und Verweise".into(),
                });
            }
        }
    }

    /// The best heading cosine of every norm (index into `norms`) for a
    /// question vector; NaN for a norm without a heading vector.
    fn heading_scores(&self, q: &[f32]) -> Vec<f32> {
        let mut best = vec![f32::NAN; self.norms.len()];
        for (e, score) in self.index.headings.scores(q).into_iter().enumerate() {
            let n = self.heading_norm[e];
            if n == u32::MAX {
                continue;
            }
            let b = &mut best[n as usize];
            if b.is_nan() || score > *b {
                *b = score;
            }
        }
        best
    }
}

/// The higher of two optional scores (a missing one loses).
fn higher(a: Option<f32>, b: Option<f32>) -> Option<f32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Retrieval signals of one candidate before fusion.
#[derive(Debug, Clone, Copy, Default)]
struct Signals {
    dense: Option<f32>,
    lexical: Option<f32>,
    sparse: Option<f32>,
    exact: bool,
}

/// A chunk filter of a request (`None`: every chunk).
type DocFilter<'a> = Option<&'a dyn Fn(u32) -> bool>;

/// Per bridged article chunk: the recital that speaks for it, with that
/// recital's dense and BM25 scores.
type RecitalEvidence = HashMap<u32, (u32, Option<f32>, Option<f32>)>;

/// What fusion reads besides the candidates' own signals.
struct Fusion<'a> {
    /// The question vector.
    q: &'a [f32],
    /// Heading cosine per norm (NaN: none).
    heading_of: &'a [f32],
    /// Norm BM25 per norm text (empty: `normLexicalMix` off).
    norm_lexical: &'a [f32],
    via: &'a RecitalEvidence,
    /// The question's content-word pairs (`phrase::question_pairs`).
    pairs: &'a [(String, String)],
}
