//! In-memory test double of the engine for the server tests, the browser test
//! and `examples/demo_server.rs`: a handful of hand-written chunks
//! (`tests/fixtures/norms.json`), a small lexical scorer with an authority
//! term and penalties, citation gating against the retrieved norms, and a
//! scripted answer text streamed word by word, each sentence handed on as
//! soon as it is complete and gated. Official links come from the real
//! source manifest. Test hooks: block answers on a gate, panic on a marker
//! query, toggle readiness, turn the answer cache on (an identity) and count
//! the answers run.
#![allow(dead_code)]

use paragraf_corpus::Manifest;
use paragraf_server::{AnswerEvent, AnswerRequest, Backend, BackendError, NormView, SearchRequest};
use paragraf_types::{
    Answer, Assessment, Chunk, ChunkId, ControlMapping, EvidenceItem, Jurisdiction, Lang, NormRef,
    RemovedCitation, ReviewCode, ScoreTerm, SearchResponse, SearchResult, SourceClass, SourceRole,
    Status,
};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Path of the fixture file.
pub const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/norms.json");

/// Query that makes every backend call panic (to test panic isolation).
pub const PANIC_QUERY: &str = "__panic__";

#[derive(Debug, Clone, Deserialize)]
pub struct FixtureChunk {
    pub id: ChunkId,
    pub regulation: String,
    pub norm: String,
    pub citation: String,
    pub title: String,
    pub breadcrumb: Vec<String>,
    pub text: String,
    pub lang: Lang,
    pub jurisdiction: Jurisdiction,
    pub source_class: SourceClass,
    pub source_role: SourceRole,
    pub status: Status,
    pub valid_from: Option<String>,
    pub valid_to: Option<String>,
    pub superseded_by: Option<String>,
    pub references_out: Vec<NormRef>,
    pub references_in: Vec<NormRef>,
}

impl FixtureChunk {
    fn norm_ref(&self) -> NormRef {
        NormRef::new(&self.norm, &self.regulation)
    }

    /// The chunk the engine would hold.
    fn to_chunk(&self) -> Chunk {
        let mut c = Chunk::new(
            &self.regulation,
            &self.norm,
            self.text.clone(),
            self.lang,
            "fixture",
        );
        c.id = self.id.clone();
        c.citation = self.citation.clone();
        c.title = self.title.clone();
        c.breadcrumb = self.breadcrumb.clone();
        c.jurisdiction = self.jurisdiction;
        c.source_class = self.source_class;
        c.source_role = self.source_role;
        c.status = self.status;
        c.valid_from = self.valid_from.clone();
        c.valid_to = self.valid_to.clone();
        c.superseded_by = self.superseded_by.clone();
        c.references_out = self.references_out.clone();
        c.references_in = self.references_in.clone();
        c
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct ScriptedAnswer {
    pub primary: String,
    pub text: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Fixture {
    pub chunks: Vec<FixtureChunk>,
    pub controls: Vec<ControlMapping>,
    pub evidence: Vec<EvidenceItem>,
    pub answers: Vec<ScriptedAnswer>,
}

/// A gate that blocks answers until opened; counts answers that reached it.
#[derive(Default)]
pub struct Gate {
    open: Mutex<bool>,
    cv: Condvar,
    pub arrived: AtomicUsize,
}

impl Gate {
    pub fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.cv.notify_all();
    }
    fn wait(&self) {
        self.arrived.fetch_add(1, Ordering::SeqCst);
        let mut g = self.open.lock().unwrap();
        while !*g {
            g = self.cv.wait(g).unwrap();
        }
    }
    /// Wait until `n` answers reached the gate (max 5 s).
    pub fn wait_arrived(&self, n: usize) {
        let t = Instant::now();
        while self.arrived.load(Ordering::SeqCst) < n && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

pub struct TestBackend {
    pub fixture: Fixture,
    /// Pause between streamed words.
    pub token_delay: Duration,
    pub ready: AtomicBool,
    pub gate: Option<std::sync::Arc<Gate>>,
    /// Answers that pass the gate without waiting before it starts to hold.
    pub gate_skip: AtomicUsize,
    /// Delay inside `search`, to test timeouts.
    pub search_delay: Duration,
    /// [`Backend::cache_identity`]: `None` (the default) keeps answers out
    /// of the server's answer cache.
    pub cache_identity: Mutex<Option<String>>,
    /// Answers run (the model's work; a cache hit runs none).
    pub answers_run: AtomicUsize,
    /// The built-in source manifest (official links).
    pub manifest: Manifest,
}

/// Weight of the lexical score in the final score.
const LEXICAL_WEIGHT: f64 = 0.7;
/// Weight of the source-class authority in the final score.
const AUTHORITY_COEF: f64 = 0.3;
/// Weight of query terms found in the title.
const TITLE_WEIGHT: f64 = 0.1;
/// Penalty of a superseded source.
const SUPERSEDED_PENALTY: f64 = -0.25;
/// Penalty of a non-binding source (recital) when binding law exists.
const NON_BINDING_PENALTY: f64 = -0.05;
/// Margin under which a human should review the result.
const REVIEW_MARGIN: f64 = 0.05;
/// Share of the question's terms the best result must hold; below it the
/// question has no applicable norm here (the engine's relevance gate).
const RELEVANCE_FLOOR: f64 = 0.25;

/// Words ending in a full stop that do not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "Art.", "Abs.", "Nr.", "lit.", "S.", "bzw.", "z.", "B.", "vgl.",
];

/// English function words: a question with more of them than German ones
/// is English.
const EN_WORDS: &[&str] = &[
    "the", "a", "an", "does", "do", "is", "are", "what", "which", "when", "must", "have", "has",
    "our", "we", "to", "of", "for", "how", "who",
];
/// German function words.
const DE_WORDS: &[&str] = &[
    "der", "die", "das", "ist", "sind", "muss", "müssen", "wann", "wer", "wie", "was", "welche",
    "unsere", "unser", "wir", "ein", "eine", "einen", "zu", "für", "von", "mit", "ab",
];

impl TestBackend {
    pub fn load() -> Self {
        let text = std::fs::read_to_string(FIXTURE).expect("fixture readable");
        let fixture: Fixture = serde_json::from_str(&text).expect("fixture parses");
        TestBackend {
            fixture,
            token_delay: Duration::ZERO,
            ready: AtomicBool::new(true),
            gate: None,
            gate_skip: AtomicUsize::new(0),
            search_delay: Duration::ZERO,
            cache_identity: Mutex::new(None),
            answers_run: AtomicUsize::new(0),
            manifest: Manifest::builtin().expect("built-in manifest"),
        }
    }

    /// The question's language, by its function words (German on a tie).
    pub fn lang_of(query: &str) -> Lang {
        let words: Vec<String> = query
            .split(|c: char| !c.is_alphanumeric())
            .map(str::to_lowercase)
            .collect();
        let count = |list: &[&str]| words.iter().filter(|w| list.contains(&w.as_str())).count();
        if count(EN_WORDS) > count(DE_WORDS) {
            Lang::En
        } else {
            Lang::De
        }
    }

    fn terms(s: &str) -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= 4)
            .map(|w| w.to_lowercase().chars().take(5).collect())
            .collect()
    }

    fn run_search(&self, query: &str, top_k: usize) -> Result<SearchResponse, BackendError> {
        let t0 = Instant::now();
        if query.contains(PANIC_QUERY) {
            panic!("test backend panics on request");
        }
        if !self.search_delay.is_zero() {
            std::thread::sleep(self.search_delay);
        }
        let qterms: BTreeSet<String> = Self::terms(query).into_iter().collect();
        let analyze = t0.elapsed();
        let mut scored: Vec<(f64, f64, Vec<ScoreTerm>, &FixtureChunk)> = Vec::new();
        for c in &self.fixture.chunks {
            let cterms: BTreeSet<String> = Self::terms(&format!("{} {}", c.title, c.text))
                .into_iter()
                .collect();
            let hits = qterms.intersection(&cterms).count();
            if hits == 0 || qterms.is_empty() {
                continue;
            }
            let raw = hits as f64 / qterms.len() as f64;
            let authority = f64::from(c.source_class.weight()) / 100.0;
            let mut expl = vec![
                ScoreTerm {
                    name: "rawSemantic".into(),
                    constant: raw,
                    value: LEXICAL_WEIGHT * raw,
                    reason: format!("{hits} von {} Suchbegriffen im Text", qterms.len()),
                },
                ScoreTerm {
                    name: "authorityCoef".into(),
                    constant: AUTHORITY_COEF,
                    value: AUTHORITY_COEF * authority,
                    reason: format!("Quellenklasse {}", c.source_class),
                },
            ];
            let tterms: BTreeSet<String> = Self::terms(&c.title).into_iter().collect();
            let title_hits = qterms.intersection(&tterms).count();
            if title_hits > 0 {
                let frac = title_hits as f64 / qterms.len() as f64;
                expl.push(ScoreTerm {
                    name: "titleMatch".into(),
                    constant: TITLE_WEIGHT,
                    value: TITLE_WEIGHT * frac,
                    reason: format!("{title_hits} Suchbegriffe im Titel"),
                });
            }
            if c.status == Status::Superseded {
                expl.push(ScoreTerm {
                    name: "supersededPenalty".into(),
                    constant: SUPERSEDED_PENALTY,
                    value: SUPERSEDED_PENALTY,
                    reason: format!(
                        "außer Kraft, ersetzt durch {}",
                        c.superseded_by.as_deref().unwrap_or("?")
                    ),
                });
            }
            if !c.source_class.is_binding() {
                expl.push(ScoreTerm {
                    name: "nonBindingPenalty".into(),
                    constant: NON_BINDING_PENALTY,
                    value: NON_BINDING_PENALTY,
                    reason: "kein verbindliches Recht".into(),
                });
            }
            let score: f64 = expl.iter().map(|t| t.value).sum();
            scored.push((score, raw, expl, c));
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.3.id.cmp(&b.3.id)));
        scored.truncate(top_k);
        let results: Vec<SearchResult> = scored
            .iter()
            .enumerate()
            .map(|(i, (score, raw, expl, c))| SearchResult {
                rank: i + 1,
                chunk_id: c.id.clone(),
                regulation: c.regulation.clone(),
                norm: c.norm.clone(),
                citation: c.citation.clone(),
                title: c.title.clone(),
                score: *score,
                raw_semantic: *raw,
                source_class: c.source_class,
                source_role: c.source_role,
                jurisdiction: c.jurisdiction,
                status: c.status,
                lang: c.lang,
                superseded_by: c.superseded_by.clone(),
                explanation: expl.clone(),
                framework: None,
                text: c.text.clone(),
            })
            .collect();
        let rank = t0.elapsed();
        let assessment = self.assess(
            &scored.iter().map(|s| (s.0, s.1, s.3)).collect::<Vec<_>>(),
            Self::lang_of(query),
        );
        let mut timings = paragraf_types::Timings::new();
        timings.insert("analyze".into(), analyze.as_secs_f64() * 1000.0);
        timings.insert("rank".into(), (rank - analyze).as_secs_f64() * 1000.0);
        timings.insert(
            "assess".into(),
            (t0.elapsed() - rank).as_secs_f64() * 1000.0,
        );
        timings.insert("total".into(), t0.elapsed().as_secs_f64() * 1000.0);
        Ok(SearchResponse {
            query: query.to_string(),
            results,
            assessment,
            answer: None,
            timings_ms: timings,
            lang: Some(Self::lang_of(query)),
        })
    }

    /// The assessment of a ranked list of (score, raw share, chunk); the
    /// reasons in the engine's wording and the question's language, with
    /// their codes.
    fn assess(&self, ranked: &[(f64, f64, &FixtureChunk)], lang: Lang) -> Assessment {
        let Some((top_score, _, top)) = ranked.first() else {
            return Assessment {
                human_review_flag: true,
                human_review_reasons: vec![ReviewCode::NoResults.reason(lang, "")],
                human_review_codes: vec![ReviewCode::NoResults],
                score_reasoning: "Keine Treffer – keine Aussage möglich.".into(),
                ..Assessment::default()
            };
        };
        let best_raw = ranked.iter().map(|r| r.1).fold(0.0, f64::max);
        let ranked: Vec<(f64, &FixtureChunk)> = ranked.iter().map(|r| (r.0, r.2)).collect();
        let ranked = ranked.as_slice();
        let primary = top.norm_ref();
        // Margin to the best result of a different norm.
        let runner_up = ranked
            .iter()
            .find(|(_, c)| c.norm_ref() != primary)
            .map(|(s, _)| *s);
        let margin = runner_up.map(|s| top_score - s).unwrap_or(*top_score);
        let runner_up_norm = ranked
            .iter()
            .find(|(_, c)| c.norm_ref() != primary)
            .filter(|_| margin < REVIEW_MARGIN)
            .map(|(_, c)| c.norm_ref().0);
        let mut connected: BTreeSet<NormRef> = top.references_out.iter().cloned().collect();
        connected.extend(top.references_in.iter().cloned());
        for (_, c) in ranked.iter().skip(1) {
            if c.norm_ref() != primary && c.source_class.is_binding() {
                connected.insert(c.norm_ref());
            }
        }
        connected.remove(&primary);
        let regulations: BTreeSet<&str> = ranked
            .iter()
            .filter(|(_, c)| c.source_class.is_binding() && c.status == Status::InForce)
            .map(|(_, c)| c.regulation.as_str())
            .collect();
        let cross_regime = regulations.len() > 1;
        let mut reasons: Vec<(ReviewCode, String)> = Vec::new();
        if cross_regime {
            reasons.push((
                ReviewCode::CrossRegime,
                regulations.iter().copied().collect::<Vec<_>>().join(", "),
            ));
        }
        if let Some(second) = runner_up_norm.as_ref() {
            let and = if lang == Lang::En { "and" } else { "und" };
            reasons.push((ReviewCode::NearTie, format!("{primary} {and} {second}")));
        }
        if best_raw < RELEVANCE_FLOOR {
            // as the engine: nothing relevant is then the one reason
            reasons = vec![(ReviewCode::WeakMatch, String::new())];
        }
        let norms_of_interest: BTreeSet<NormRef> = std::iter::once(primary.clone())
            .chain(connected.iter().cloned())
            .collect();
        let controls = self
            .fixture
            .controls
            .iter()
            .filter(|m| m.norms.iter().any(|n| norms_of_interest.contains(n)))
            .cloned()
            .collect();
        let evidence = self
            .fixture
            .evidence
            .iter()
            .filter(|e| norms_of_interest.contains(&e.norm))
            .cloned()
            .collect();
        Assessment {
            primary_norm: Some(primary.0.clone()),
            primary_regulation: Some(top.regulation.clone()),
            connected_norms: connected.into_iter().collect(),
            cross_regime,
            winner_margin: margin,
            human_review_flag: !reasons.is_empty(),
            human_review_reasons: reasons.iter().map(|(c, d)| c.reason(lang, d)).collect(),
            human_review_codes: reasons.iter().map(|(c, _)| *c).collect(),
            score_reasoning: format!(
                "{} führt mit Score {top_score:.3} ({}, {})",
                primary, top.source_class, top.jurisdiction
            ),
            controls,
            evidence,
            runner_up: runner_up_norm,
        }
    }

    /// True when the assessment found no applicable norm (the relevance
    /// gate's reason): the answer abstains without the model.
    fn irrelevant(a: &Assessment) -> bool {
        a.primary_norm.is_none() || a.human_review_codes.iter().any(|c| c.nothing_relevant())
    }

    /// Gate one sentence: citations of norms not retrieved are replaced by
    /// `[entfernt]` and listed.
    fn gate_sentence(
        sentence: &str,
        retrieved: &BTreeSet<String>,
        citations: &mut Vec<String>,
        removed: &mut Vec<RemovedCitation>,
        lang: Lang,
    ) -> String {
        let mut gated = sentence.trim().to_string();
        for c in Self::citations_in(sentence) {
            if retrieved.contains(&c) {
                if !citations.contains(&c) {
                    citations.push(c);
                }
            } else {
                gated = gated.replace(&c, "[entfernt]");
                if !removed.iter().any(|r| r.text == c) {
                    removed.push(RemovedCitation {
                        text: c,
                        reason: match lang {
                            Lang::De => "nicht unter den gefundenen Normen",
                            Lang::En => "not among the provisions found",
                        }
                        .into(),
                    });
                }
            }
        }
        gated
    }

    /// Citations of the form `Art. 37 DSGVO`, `§ 38 BDSG`, `ErwG 97 DSGVO`.
    pub fn citations_in(text: &str) -> Vec<String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let clean = |w: &str| {
            w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '§'))
                .to_string()
        };
        let mut out = Vec::new();
        for i in 0..words.len().saturating_sub(2) {
            let lead = match clean(words[i]).as_str() {
                "Art" => "Art.",
                "§" => "§",
                "ErwG" => "ErwG",
                _ => continue,
            };
            let num = clean(words[i + 1]);
            let reg = clean(words[i + 2]);
            if num.chars().next().is_some_and(|c| c.is_ascii_digit())
                && reg.chars().next().is_some_and(|c| c.is_uppercase())
            {
                let c = format!("{lead} {num} {reg}");
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        out
    }
}

impl Backend for TestBackend {
    fn search(&self, req: &SearchRequest) -> Result<SearchResponse, BackendError> {
        let mut resp = self.run_search(&req.query, req.top_k.unwrap_or(5))?;
        if !req.explain {
            for r in &mut resp.results {
                r.explanation.clear();
            }
        }
        Ok(resp)
    }

    fn answer(
        &self,
        req: &AnswerRequest,
        on_event: &mut dyn FnMut(AnswerEvent) -> bool,
    ) -> Result<SearchResponse, BackendError> {
        if let Some(m) = &req.model {
            if m != "test-model" {
                return Err(BackendError::InvalidRequest {
                    field: "model".into(),
                    message: format!("unbekanntes Modell `{m}`"),
                });
            }
        }
        if let Some(g) = &self.gate {
            let skip = self
                .gate_skip
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
            if !skip {
                g.wait();
            }
        }
        let mut resp = self.run_search(&req.query, req.top_k.unwrap_or(5))?;
        if !on_event(AnswerEvent::Results(resp.clone())) {
            return Ok(resp);
        }
        self.answers_run.fetch_add(1, Ordering::SeqCst);
        let t0 = Instant::now();
        let lang = Self::lang_of(&req.query);
        let primary = resp.assessment.primary_norm.clone();
        let irrelevant = Self::irrelevant(&resp.assessment);
        let script = self
            .fixture
            .answers
            .iter()
            .find(|a| Some(&a.primary) == primary.as_ref())
            .filter(|_| !irrelevant);
        let retrieved: BTreeSet<String> = resp
            .results
            .iter()
            .map(|r| NormRef::new(&r.norm, &r.regulation).0)
            .collect();
        let max_tokens = req.max_tokens.unwrap_or(usize::MAX);
        let mut tokens = 0usize;
        let mut sentence = String::new();
        let mut kept: Vec<String> = Vec::new();
        let mut citations = Vec::new();
        let mut removed = Vec::new();
        let mut listening = true;
        // the model writes word by word; each sentence is gated and handed
        // on as soon as it is complete
        let words: Vec<&str> = script
            .map(|s| s.text.split_inclusive(' ').collect())
            .unwrap_or_default();
        for (i, word) in words.iter().enumerate() {
            if tokens >= max_tokens {
                break;
            }
            if !self.token_delay.is_zero() {
                std::thread::sleep(self.token_delay);
            }
            tokens += 1;
            sentence.push_str(word);
            let w = word.trim_end().trim_start_matches('(');
            let closes = (w.ends_with('.') && !ABBREVIATIONS.contains(&w)) || i + 1 == words.len();
            if closes {
                let g =
                    Self::gate_sentence(&sentence, &retrieved, &mut citations, &mut removed, lang);
                sentence.clear();
                listening &= on_event(AnswerEvent::Sentence(g.clone()));
                kept.push(g);
            }
            if !listening || !on_event(AnswerEvent::Progress(tokens)) {
                break;
            }
        }
        let abstained = kept.is_empty();
        let text = if !abstained {
            kept.join(" ")
        } else if lang == Lang::En {
            "No reliable source: the norms found do not answer the question.".to_string()
        } else {
            "Keine belastbare Quelle: die gefundenen Normen tragen keine Antwort.".to_string()
        };
        resp.timings_ms
            .insert("generate".into(), t0.elapsed().as_secs_f64() * 1000.0);
        resp.answer = Some(Answer {
            text,
            citations,
            abstained,
            removed_citations: removed,
            model: "test-model".into(),
            generated_tokens: tokens,
            error: None,
            abstain_reason: abstained.then_some(if irrelevant {
                paragraf_types::AbstainReason::NotRelevant
            } else {
                paragraf_types::AbstainReason::ModelDeclined
            }),
            extractive: false,
            // the top result's first sentence, as the engine's extractor
            // would quote it
            evidence: resp
                .results
                .iter()
                .take(1)
                .filter(|_| !abstained)
                .map(|r| paragraf_types::Evidence {
                    pinpoint: r.citation.clone(),
                    norm: NormRef::new(&r.norm, &r.regulation).0,
                    regulation: r.regulation.clone(),
                    text: r
                        .text
                        .split_inclusive(". ")
                        .next()
                        .unwrap_or(&r.text)
                        .trim()
                        .to_string(),
                    url: self.manifest.norm_url(&r.regulation, &r.norm),
                    lang: r.lang,
                })
                .collect(),
            review_warning: None,
        });
        Ok(resp)
    }

    fn norm(&self, id: &str) -> Result<Option<NormView>, BackendError> {
        if id.contains(PANIC_QUERY) {
            panic!("test backend panics on norm lookup");
        }
        let hit = self
            .fixture
            .chunks
            .iter()
            .find(|c| c.id.as_str() == id)
            .or_else(|| {
                self.fixture
                    .chunks
                    .iter()
                    .find(|c| c.norm_ref().as_str() == id && c.lang == Lang::De)
            });
        let Some(first) = hit else { return Ok(None) };
        let norm_ref = first.norm_ref();
        let norm: Vec<Chunk> = self
            .fixture
            .chunks
            .iter()
            .filter(|c| c.norm_ref() == norm_ref)
            .map(FixtureChunk::to_chunk)
            .collect();
        let refs: Vec<&Chunk> = norm.iter().collect();
        let mut view = NormView::from_chunks(&first.to_chunk(), &refs);
        view.url = self.manifest.norm_url(&first.regulation, &first.norm);
        Ok(Some(view))
    }

    fn ready(&self) -> bool {
        self.ready.load(Ordering::SeqCst)
    }

    fn info(&self) -> serde_json::Value {
        serde_json::json!({
            "index": "test-fixture",
            "chunks": self.fixture.chunks.len(),
            "embedder": "none (lexical test double)",
            "answer_model": "test-model",
            "regulations": self.fixture.chunks.iter().map(|c| c.regulation.clone()).collect::<std::collections::BTreeSet<_>>(),
        })
    }

    /// Fixed figures: `/metrics` shows what the backend reports.
    fn model_loads(&self) -> Option<paragraf_server::ModelLoads> {
        Some(paragraf_server::ModelLoads {
            loads: 2,
            switches: 5,
            load_seconds: 1.5,
            loaded: 2,
            capacity: 2,
        })
    }

    fn cache_identity(&self) -> Option<String> {
        self.cache_identity
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}
