//! The answer to a searched question: the answer models, the evidence,
//! the extractive answer, the abstention when retrieval found nothing
//! reliable, and generation through the citation gate.

use crate::{
    answer_models, evidence, gate, prompt, AskOptions, Engine, EngineError, QueryAnalysis,
    RankParams, SearchOptions, SearchOutcome,
};
use paragraf_models::{load_generator, Generator};
use paragraf_types::{AbstainReason, Answer, Chunk, NormRef};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

impl Engine {
    /// Install an already loaded answer model under `name` (a model the
    /// caller loaded itself, or a scripted generator in tests).
    pub fn set_generator(&self, name: &str, generator: Box<dyn Generator>) {
        let mut guard = self.generators.lock().unwrap_or_else(|p| p.into_inner());
        guard.insert(name, generator);
        self.copy_model_stats(&guard);
    }

    /// Keep up to `n` answer models loaded (default
    /// [`answer_models::ANSWER_MODELS_KEPT`]; `serve` passes the number of
    /// models its clients may name), dropping the least recently used.
    pub fn set_answer_models_kept(&self, n: usize) {
        let mut guard = self.generators.lock().unwrap_or_else(|p| p.into_inner());
        guard.set_capacity(n);
        self.copy_model_stats(&guard);
    }

    /// Answer-model loads, switches and load time so far (`/metrics`);
    /// cheap, and does not wait for a running generation.
    pub fn model_load_stats(&self) -> answer_models::ModelLoadStats {
        *self.model_stats.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn copy_model_stats(&self, set: &answer_models::ModelSet<Box<dyn Generator>>) {
        *self.model_stats.lock().unwrap_or_else(|p| p.into_inner()) = set.stats();
    }

    /// The answer model `name`, loaded unless it is in the set already.
    fn generator_in<'s>(
        &self,
        set: &'s mut answer_models::ModelSet<Box<dyn Generator>>,
        name: &str,
    ) -> Result<&'s mut Box<dyn Generator>, EngineError> {
        let loaded = set
            .get_or_load(name, || {
                load_generator(&self.registry, name, &self.resolve, &self.device)
            })
            .map(|_| ());
        self.copy_model_stats(set);
        loaded?;
        set.current_mut(name).ok_or(EngineError::NoAnswerModel)
    }

    pub(crate) fn ensure_generator(&self, name: &str) -> Result<(), EngineError> {
        let mut guard = self.generators.lock().unwrap_or_else(|p| p.into_inner());
        self.generator_in(&mut guard, name).map(|_| ())
    }

    /// Search, then a grounded answer. `on_progress` hears the number of
    /// tokens generated so far and each answer sentence once it has passed
    /// the gate — never raw model text: only gated text leaves the engine.
    /// Return `false` to stop generation. A model failure mid-answer returns
    /// the search result with `answer.error` set.
    pub fn ask(
        &self,
        query: &str,
        opts: &AskOptions,
        on_progress: &mut dyn FnMut(AnswerProgress) -> bool,
    ) -> Result<SearchOutcome, EngineError> {
        let outcome = self.search(query, &opts.search)?;
        self.answer(outcome, opts, on_progress)
    }

    /// The grounded answer for a search outcome (see [`Engine::ask`]); lets
    /// a caller show the results before the answer is ready.
    pub fn answer(
        &self,
        mut outcome: SearchOutcome,
        opts: &AskOptions,
        on_progress: &mut dyn FnMut(AnswerProgress) -> bool,
    ) -> Result<SearchOutcome, EngineError> {
        let model = opts
            .model
            .clone()
            .or_else(|| self.default_model.clone())
            .ok_or(EngineError::NoAnswerModel)?;
        let started = Instant::now();
        let answer = match self.generate_answer(&outcome, &model, opts, on_progress) {
            Ok(a) => a,
            Err(e) => Answer {
                text: String::new(),
                abstained: true,
                abstain_reason: Some(AbstainReason::GenerationFailed),
                model: model.clone(),
                error: Some(format!("generation failed: {e}")),
                ..Answer::default()
            },
        };
        outcome
            .response
            .timings_ms
            .insert("generate".into(), started.elapsed().as_secs_f64() * 1e3);
        let total = outcome
            .response
            .timings_ms
            .get("total")
            .copied()
            .unwrap_or(0.0)
            + started.elapsed().as_secs_f64() * 1e3;
        outcome.response.timings_ms.insert("total".into(), total);
        outcome.response.answer = Some(answer);
        Ok(outcome)
    }

    /// The evidence of a search outcome: the pinpoint units of the top
    /// distinct norms that answer the question best (see [`evidence`]).
    pub fn evidence(&self, outcome: &SearchOutcome) -> Vec<paragraf_types::Evidence> {
        let a = &outcome.analysis;
        // distinct norms in rank order
        let mut norms: Vec<NormRef> = Vec::new();
        for r in &outcome.response.results {
            let n = NormRef::new(&r.norm, &r.regulation);
            // Scope ∧ Stichtag hold for evidence as for citations
            if !norms.contains(&n) && self.inadmissible(&n, a).is_none() {
                norms.push(n);
            }
            if norms.len() == evidence::RANK_WEIGHTS.len() {
                break;
            }
        }
        let mut units = Vec::new();
        for (rank, n) in norms.iter().enumerate() {
            let mut chunks = self.norm_chunks(n);
            if chunks.is_empty() {
                continue;
            }
            // the question's language when the norm has it, else the other
            let lang = if chunks.iter().any(|c| c.lang == a.lang) {
                a.lang
            } else {
                chunks[0].lang
            };
            chunks.retain(|c| c.lang == lang);
            chunks.sort_by_key(|c| c.part);
            let parts: Vec<(&str, &str)> = chunks
                .iter()
                .map(|c| (c.citation.as_str(), c.text.as_str()))
                .collect();
            let first = chunks[0];
            for u in evidence::norm_units(
                n,
                &first.norm,
                &first.regulation,
                &evidence::norm_text(&parts, lang),
                lang,
                evidence::first_absatz(&first.citation),
            ) {
                units.push((rank, u));
            }
        }
        let inverted = &self.index.inverted;
        let analyzer = inverted.analyzer();
        let own: Vec<String> = a
            .query_terms
            .iter()
            .filter(|t| !a.translated_terms.contains(t))
            .cloned()
            .collect();
        let (de, en) = match a.lang {
            paragraf_types::Lang::De => (own, a.translated_terms.clone()),
            paragraf_types::Lang::En => (a.translated_terms.clone(), own),
        };
        let unit_terms = |t: &str, l: paragraf_types::Lang| analyzer.analyze_lang(t, l);
        let idf = |t: &str| f64::from(inverted.idf(inverted.doc_freq(t)));
        let scored = evidence::score_units(
            units,
            evidence::Asks::of(&outcome.response.query),
            &de,
            &en,
            &unit_terms,
            &idf,
        );
        let selected = evidence::select(scored);
        let url_of = |reg: &str, norm: &str| self.manifest.norm_url(reg, norm);
        evidence::to_evidence(&selected, &url_of)
    }

    /// The model-free answer: the evidence quoted with its pinpoints (or the
    /// abstention when retrieval found nothing reliable). A human-review flag
    /// adds a warning; it does not silence the answer.
    pub fn extractive_answer(&self, outcome: &SearchOutcome) -> Answer {
        if let Some(a) = Self::retrieval_abstention(outcome, &self.params) {
            return a;
        }
        Self::quote_evidence(outcome, self.evidence(outcome))
    }

    /// The answer that quotes `evidence` (abstains when there is none).
    pub(crate) fn quote_evidence(
        outcome: &SearchOutcome,
        evidence: Vec<paragraf_types::Evidence>,
    ) -> Answer {
        if evidence.is_empty() {
            return gate::abstention(
                AbstainReason::NoSupportedStatement,
                &[],
                outcome.analysis.lang,
            );
        }
        let mut citations: Vec<String> = Vec::new();
        for e in &evidence {
            if !citations.contains(&e.norm) {
                citations.push(e.norm.clone());
            }
        }
        Answer {
            text: evidence::extractive_text(&evidence, outcome.analysis.lang),
            citations,
            extractive: true,
            evidence,
            review_warning: review_warning(outcome),
            ..Answer::default()
        }
    }

    /// Search, then the model-free extractive answer (`ask --no-generate`).
    pub fn ask_extractive(
        &self,
        query: &str,
        opts: &SearchOptions,
    ) -> Result<SearchOutcome, EngineError> {
        let mut outcome = self.search(query, opts)?;
        let t = Instant::now();
        let answer = self.extractive_answer(&outcome);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let timings = &mut outcome.response.timings_ms;
        timings.insert("extract".into(), ms);
        let total = timings.get("total").copied().unwrap_or(0.0) + ms;
        timings.insert("total".into(), total);
        outcome.response.answer = Some(answer);
        Ok(outcome)
    }

    /// The abstention answer when retrieval itself found nothing reliable.
    fn retrieval_abstention(outcome: &SearchOutcome, params: &RankParams) -> Option<Answer> {
        let a = &outcome.response.assessment;
        let binding_hit = outcome
            .response
            .results
            .iter()
            .any(|r| r.source_class.is_binding());
        let nothing = outcome.response.results.is_empty() || a.primary_norm.is_none();
        let reason = if nothing {
            Some(AbstainReason::NoResults)
        } else if !binding_hit {
            Some(AbstainReason::NoBindingSource)
        } else {
            paragraf_rank::relevance_gate(&outcome.analysis, &outcome.response.results, params)
                .map(|_| AbstainReason::NotRelevant)
        }?;
        let found: Vec<String> = outcome
            .response
            .results
            .iter()
            .take(5)
            .map(|r| r.citation.clone())
            .collect();
        Some(gate::abstention(reason, &found, outcome.analysis.lang))
    }

    fn generate_answer(
        &self,
        outcome: &SearchOutcome,
        model: &str,
        opts: &AskOptions,
        on_progress: &mut dyn FnMut(AnswerProgress) -> bool,
    ) -> Result<Answer, EngineError> {
        if let Some(mut a) = Self::retrieval_abstention(outcome, &self.params) {
            a.model = model.to_string();
            return Ok(a);
        }
        let evidence = self.evidence(outcome);
        if evidence.is_empty() {
            let mut a = gate::abstention(
                AbstainReason::NoSupportedStatement,
                &[],
                outcome.analysis.lang,
            );
            a.model = model.to_string();
            return Ok(a);
        }
        let class_of = |norm: &str| {
            outcome
                .response
                .results
                .iter()
                .find(|r| format!("{} {}", r.norm, r.regulation) == norm)
                .map_or(paragraf_types::SourceClass::Unknown, |r| r.source_class)
        };
        let p = prompt::build_evidence_prompt(
            &outcome.response.query,
            outcome.analysis.lang,
            &evidence,
            &class_of,
        );
        let retrieved: BTreeSet<NormRef> = outcome
            .response
            .results
            .iter()
            .map(|r| NormRef::new(&r.norm, &r.regulation))
            .collect();
        let context_reg = outcome
            .response
            .assessment
            .primary_regulation
            .clone()
            .unwrap_or_default();
        // laws written in words (`des Strafgesetzbuchs`) resolve through
        // the laws' titles, so the rules below hold for them too
        let refs = |s: &str| {
            paragraf_corpus::extract_references_with(
                s,
                &context_reg,
                &self.manifest,
                &self.law_names,
            )
        };
        let extract = |s: &str| refs(s).resolved;
        let unresolved = |s: &str| {
            let mut out: Vec<String> = gate::citation_spans(s)
                .into_iter()
                .filter(|(_, law)| {
                    self.manifest.canonical_regulation(law).is_none()
                        && self.law_names.resolve(law).is_none()
                })
                .map(|(span, _)| span)
                .collect();
            out.extend(refs(s).unresolved);
            out
        };
        let inadmissible = |n: &NormRef| self.inadmissible(n, &outcome.analysis);
        let checks = gate::NormChecks {
            extract: &extract,
            unresolved: &unresolved,
            inadmissible: &inadmissible,
        };
        let analyzer = self.index.inverted.analyzer();
        let terms = |s: &str| analyzer.analyze_lang(s, outcome.analysis.lang);
        let mut g =
            gate::Gate::new(&p.sources, &retrieved, &checks, &terms).in_lang(outcome.analysis.lang);
        let mut stream = gate::SentenceStream::new();

        self.queue_depth.fetch_add(1, Ordering::Relaxed);
        let _dec = DecOnDrop(&self.queue_depth);
        let mut guard = self.generators.lock().unwrap_or_else(|p| p.into_inner());
        let generator = self.generator_in(&mut guard, model)?;
        let mut generated = 0usize;
        let mut listening = true;
        // each piece of model text goes into the gate; only the sentences it
        // keeps are handed on, as soon as they are complete
        let out = generator.chat(&p.messages, &opts.gen, &mut |piece| {
            generated += 1;
            for s in stream.push(piece, &mut g) {
                listening &= on_progress(AnswerProgress::Sentence(s));
            }
            listening && on_progress(AnswerProgress::Tokens(generated))
        })?;
        drop(guard);
        for s in stream.finish(&mut g) {
            listening &= on_progress(AnswerProgress::Sentence(s));
        }
        let gated = g.finish();
        let mut answer = gated.answer;
        let removed = std::mem::take(&mut answer.removed_citations);
        if answer.abstained {
            // the model restated nothing the evidence supports: the evidence
            // itself is the answer
            answer = Self::quote_evidence(outcome, evidence);
        } else {
            // the model's gated restatement, then the rule in the law's words
            let quoted = Self::quote_evidence(outcome, evidence);
            answer.text = format!("{}\n\n{}", answer.text, quoted.text);
            for c in quoted.citations {
                if !answer.citations.contains(&c) {
                    answer.citations.push(c);
                }
            }
            answer.evidence = quoted.evidence;
            answer.review_warning = quoted.review_warning;
        }
        if listening && !answer.abstained {
            let quotes = if answer.extractive {
                answer.text.as_str()
            } else {
                answer.text.split_once("\n\n").map_or("", |(_, q)| q)
            };
            for line in quotes.lines().filter(|l| !l.trim().is_empty()) {
                if !on_progress(AnswerProgress::Sentence(line.trim().to_string())) {
                    break;
                }
            }
        }
        answer.removed_citations = removed;
        answer.model = model.to_string();
        answer.generated_tokens = out.generated_tokens;
        Ok(answer)
    }

    /// Why a retrieved norm may not be cited for this question (seed 07:
    /// Scope ∧ Stichtag): an active scope rule covers it, or no version of
    /// it is in force at the question's date (superseded norms only under
    /// historical intent). In the question's language (the scope rules'
    /// own reasons are German and are left out of an English one).
    pub fn inadmissible(&self, n: &NormRef, q: &QueryAnalysis) -> Option<String> {
        let chunks = self.norm_chunks(n);
        let first = chunks.first()?;
        let de = q.lang == paragraf_types::Lang::De;
        if let Some(i) = q.scope_rule_for(&first.regulation, &first.norm) {
            return Some(if de {
                format!(
                    "außerhalb des Geltungsbereichs der Frage: {}",
                    q.scope_rules[i].reason
                )
            } else {
                "outside the question's scope".to_string()
            });
        }
        // the version the question names ("nach dem BDSG 1990") is the one it asks about
        let named = q.as_of.as_ref().and_then(|a| a.version.as_deref());
        let in_force_at = |c: &Chunk| {
            if named == Some(c.regulation.as_str()) {
                return true;
            }
            match q.as_of.as_ref().and_then(|a| a.date.as_ref()) {
                Some(d) => d.overlaps(c.valid_from.as_deref(), c.valid_to.as_deref()),
                None => c.status != paragraf_types::Status::Superseded || q.historical,
            }
        };
        if !chunks.iter().any(|c| in_force_at(c)) {
            return Some(match (&first.superseded_by, de) {
                (Some(by), true) => {
                    format!("zum Stichtag der Frage nicht in Kraft (abgelöst durch {by})")
                }
                (None, true) => "zum Stichtag der Frage nicht in Kraft".to_string(),
                (Some(by), false) => {
                    format!("not in force at the question's date (replaced by {by})")
                }
                (None, false) => "not in force at the question's date".to_string(),
            });
        }
        None
    }
}

/// The warning shown with an answer whose assessment asks for human review,
/// in the question's language: the request for a review, then the
/// assessment's reasons (plain sentences in that language already).
fn review_warning(outcome: &SearchOutcome) -> Option<String> {
    let a = &outcome.response.assessment;
    a.human_review_flag.then(|| {
        let ask = match outcome.analysis.lang {
            paragraf_types::Lang::De => "Bitte von einer fachkundigen Person prüfen lassen.",
            paragraf_types::Lang::En => "Please have this checked by a qualified person.",
        };
        std::iter::once(ask)
            .chain(a.human_review_reasons.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// What an answer in progress reports to its caller ([`Engine::ask`]): the
/// number of tokens generated so far, and each answer sentence once it has
/// passed the citation gate. Raw model text never appears here.
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerProgress {
    Tokens(usize),
    Sentence(String),
}

struct DecOnDrop<'a>(&'a AtomicUsize);
impl Drop for DecOnDrop<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}
