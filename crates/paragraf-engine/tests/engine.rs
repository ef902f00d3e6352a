//! The engine end to end on a small fixture corpus (real excerpts of BDSG,
//! DSGVO, BDSG 1990 and OWASP ASVS in their official formats) with the real
//! multilingual-e5-small embedder, and a scripted generator for the gate.
//! Needs the test models (`PARAGRAF_TEST_MODELS`, set by scripts/test.sh);
//! without them the tests print why and return.

use paragraf_engine::{
    build_index, AnswerProgress, AskOptions, Engine, EngineError, EngineOptions, ParamsSource,
    SearchOptions,
};
use paragraf_models::{
    ChatMessage, DeviceChoice, GenOutput, GenParams, Generator, GeneratorInfo, ModelError,
    Registry, ResolveOptions, ScriptedGenerator,
};
use std::path::PathBuf;
use std::sync::OnceLock;

mod support;
use support::{fixture_build, models_dir};

/// One index for all tests of this binary (built once, ~1 min on 2 cores).
fn index_dir() -> Option<&'static PathBuf> {
    static DIR: OnceLock<Option<(tempfile::TempDir, PathBuf)>> = OnceLock::new();
    DIR.get_or_init(|| {
        let models = models_dir()?;
        let tmp = tempfile::tempdir().expect("tempdir");
        let out = tmp.path().join("index");
        let opts = fixture_build(out.clone(), models);
        let report = build_index(&opts, &|_| {}).expect("index build on the fixture corpus");
        assert!(
            report.chunks > 10,
            "fixture corpus gave {} chunks",
            report.chunks
        );
        Some((tmp, out))
    })
    .as_ref()
    .map(|(_, p)| p)
}

fn engine() -> Option<Engine> {
    engine_with(Default::default())
}

fn engine_with(params: paragraf_rank::RankParams) -> Option<Engine> {
    let dir = index_dir()?.clone();
    let opts = EngineOptions {
        index_dir: dir,
        registry: Registry::builtin(),
        resolve: ResolveOptions {
            model_dir: models_dir(),
            allow_download: false,
        },
        device: DeviceChoice::Cpu,
        answer_model: None,
        params: ParamsSource::Given(Box::new(params)),
        query_batch_max: None,
        query_cache_entries: paragraf_engine::query_embed::QUERY_CACHE_ENTRIES,
        warm_up: false,
    };
    Some(Engine::open(opts).expect("open engine"))
}

macro_rules! engine_or_skip {
    () => {
        match engine() {
            Some(e) => e,
            None => {
                paragraf_types::inputs::input_missing(
                    "PARAGRAF_TEST_MODELS with multilingual-e5-small",
                );
                return;
            }
        }
    };
}

/// A generator that replays a fixed text word by word (the models crate's
/// scripted answer model).
fn scripted(text: &str) -> Box<ScriptedGenerator> {
    Box::new(ScriptedGenerator::new(
        "scripted",
        text,
        std::path::Path::new("script"),
    ))
}

/// A generator that fails mid-answer.
struct Failing(GeneratorInfo);
impl Generator for Failing {
    fn info(&self) -> &GeneratorInfo {
        &self.0
    }
    fn count_tokens(&self, text: &str) -> Result<usize, ModelError> {
        Ok(text.len() / 4)
    }
    fn chat(
        &mut self,
        _m: &[ChatMessage],
        _p: &GenParams,
        on_token: &mut dyn FnMut(&str) -> bool,
    ) -> Result<GenOutput, ModelError> {
        on_token("Der Verantwortliche ");
        Err(ModelError::InvalidInput(
            "simulated failure after one token".into(),
        ))
    }
}

const DPO: &str = "Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?";

/// The kinds of fact a question asks for (`answerTypeGain`, `dutyHeadingGain`).
mod answer_kinds;

#[test]
fn dpo_question_finds_art_37_or_38_first() {
    let e = engine_or_skip!();
    let out = e.search(DPO, &SearchOptions::default()).unwrap();
    let top = &out.response.results[0];
    let key = format!("{} {}", top.norm, top.regulation);
    assert!(
        key == "Art. 37 DSGVO" || key == "§ 38 BDSG",
        "top result {key}"
    );
    assert!(out.response.timings_ms.contains_key("rank"));
    assert!(!top.explanation.is_empty());
}

#[test]
fn scripted_answer_keeps_valid_and_removes_fabricated_citations() {
    let e = engine_or_skip!();
    e.set_generator(
        "scripted",
        scripted("Ein Datenschutzbeauftragter ist nach Art. 37 DSGVO zu benennen [1]. Ein Bußgeld folgt aus Art. 124 DSGVO [1]. Siehe auch [9]."),
    );
    let ask = AskOptions {
        model: Some("scripted".into()),
        ..AskOptions::default()
    };
    let mut progress = 0usize;
    let out = e
        .ask(DPO, &ask, &mut |p| {
            if let AnswerProgress::Tokens(n) = p {
                progress = n;
            }
            true
        })
        .unwrap();
    let a = out.response.answer.expect("answer");
    assert!(!a.abstained, "{a:?}");
    assert!(
        a.citations
            .iter()
            .any(|c| c == "Art. 37 DSGVO" || c == "§ 38 BDSG"),
        "{a:?}"
    );
    assert!(
        a.removed_citations
            .iter()
            .any(|r| r.reason.contains("nicht unter den gefundenen Quellen")),
        "{a:?}"
    );
    assert!(a.removed_citations.iter().any(|r| r.text == "[9]"), "{a:?}");
    assert!(!a.text.contains("124"));
    assert!(
        progress > 0,
        "progress is reported as a token count, never as text"
    );
    assert!(
        !a.evidence.is_empty(),
        "the answer names its evidence units"
    );
}

#[test]
fn unanswerable_question_abstains_without_calling_the_model() {
    let e = engine_or_skip!();
    e.set_generator(
        "scripted",
        scripted("Die Zweitwohnungsteuer beträgt 12 Prozent der Jahresmiete [1]."),
    );
    let ask = AskOptions {
        model: Some("scripted".into()),
        ..AskOptions::default()
    };
    let out = e
        .ask(
            "Wie viel Zweitwohnungsteuer verlangt die Stadt Freiburg für eine Ferienwohnung?",
            &ask,
            &mut |_| true,
        )
        .unwrap();
    let a = out.response.answer.expect("answer");
    assert!(a.abstained, "{a:?}");
    assert!(
        a.abstain_reason.is_some_and(|r| r.before_generation()),
        "{a:?}"
    );
    assert_eq!(a.generated_tokens, 0);
    assert!(a.citations.is_empty());
    assert!(out.response.assessment.human_review_flag);
}

/// An English question: what the engine itself writes for a client — the
/// abstention or the extract's lead-in, the review warning, the review
/// reasons, the gate's removal reasons — is English, without a constant's
/// name (the quoted law keeps its own language).
#[test]
fn an_english_question_gets_the_engines_texts_in_english() {
    let e = engine_or_skip!();
    e.set_generator(
        "scripted",
        scripted("The second-home tax is 12 percent of the annual rent [1]."),
    );
    let ask = AskOptions {
        model: Some("scripted".into()),
        ..AskOptions::default()
    };
    let out = e
        .ask(
            "How much second-home tax does the city of Freiburg charge for a holiday flat?",
            &ask,
            &mut |_| true,
        )
        .unwrap();
    assert_eq!(out.response.lang, Some(paragraf_types::Lang::En));
    let a = out.response.answer.expect("answer");
    let own = if a.abstained {
        assert!(a.text.starts_with("No reliable source: "), "{}", a.text);
        a.text.clone()
    } else {
        // the extract: the engine's lead-in, then the law's own words
        let lead = a.text.lines().next().unwrap_or_default().to_string();
        assert_eq!(lead, "The relevant provisions read:", "{}", a.text);
        lead
    };
    let assessment = &out.response.assessment;
    assert!(assessment.human_review_flag, "{assessment:?}");
    assert_eq!(
        assessment.human_review_reasons.len(),
        assessment.human_review_codes.len()
    );
    let warning = a.review_warning.clone().unwrap_or_default();
    assert!(
        a.abstained || warning.starts_with("Please have this checked by a qualified person."),
        "{warning}"
    );
    let texts: Vec<&str> = assessment
        .human_review_reasons
        .iter()
        .map(String::as_str)
        .chain([own.as_str(), warning.as_str()])
        .chain(
            a.removed_citations
                .iter()
                .flat_map(|r| [r.text.as_str(), r.reason.as_str()]),
        )
        .collect();
    assert!(
        !a.removed_citations.is_empty(),
        "the made-up tax rate is removed: {a:?}"
    );
    for text in texts {
        let camel = text.split(|c: char| !c.is_alphanumeric()).any(|w| {
            let mut cs = w.chars();
            cs.next().is_some_and(char::is_lowercase) && cs.any(char::is_uppercase)
        });
        assert!(!camel, "a constant's name in: {text}");
        for german in ["Keine", "Bitte", "Quelle", "prüfen", "Satz", "nennt"] {
            assert!(!text.contains(german), "German in: {text}");
        }
    }
}

#[test]
fn unsupported_model_text_is_replaced_by_the_quoted_evidence() {
    let e = engine_or_skip!();
    e.set_generator("scripted", scripted("Ja."));
    let ask = AskOptions {
        model: Some("scripted".into()),
        ..AskOptions::default()
    };
    let out = e.ask(DPO, &ask, &mut |_| true).unwrap();
    let a = out.response.answer.expect("answer");
    assert!(!a.abstained && a.extractive, "{a:?}");
    let primary = format!(
        "{} {}",
        out.response.results[0].norm, out.response.results[0].regulation
    );
    assert_eq!(a.citations.first(), Some(&primary), "{a:?}");
    assert!(a.text.contains("„") && a.text.contains("[1]"), "{}", a.text);
    assert!(!a.text.contains("Ja."), "{}", a.text);
}

#[test]
fn extractive_answer_quotes_the_rule_with_pinpoints() {
    let e = engine_or_skip!();
    // own phrasing: a threshold question on the DPO duty
    let out = e
        .ask_extractive(
            "Ab wie vielen Beschäftigten, die Daten automatisiert verarbeiten, brauchen wir einen Datenschutzbeauftragten?",
            &SearchOptions::default(),
        )
        .unwrap();
    let a = out.response.answer.expect("answer");
    assert!(a.extractive && !a.abstained, "{a:?}");
    assert!(!a.evidence.is_empty());
    assert!(
        a.evidence.iter().any(|ev| ev.pinpoint.contains(" Abs. ")),
        "pinpoints name the Absatz: {:?}",
        a.evidence.iter().map(|e| &e.pinpoint).collect::<Vec<_>>()
    );
    assert!(
        a.text.contains("20 Personen"),
        "states the threshold: {}",
        a.text
    );
    assert!(out.response.timings_ms.contains_key("extract"));
}

#[test]
fn gate_removes_unknown_laws_fabricated_superseded_and_out_of_scope_norms() {
    let e = engine_or_skip!();
    e.set_generator(
        "scripted",
        scripted(
            "Ein Datenschutzbeauftragter ist nach Art. 37 DSGVO zu benennen [1]. \
             Rechtsgrundlage ist zusätzlich § 202a StGB [1]. \
             Maßgeblich ist auch Art. 999 DSGVO [1]. \
             Früher galt § 4f BDSG 1990 [1]. \
             Für Strafverfolgungsbehörden gilt § 45 BDSG [1].",
        ),
    );
    let ask = AskOptions {
        model: Some("scripted".into()),
        ..AskOptions::default()
    };
    let mut streamed: Vec<String> = Vec::new();
    let out = e
        .ask(DPO, &ask, &mut |p| {
            if let AnswerProgress::Sentence(t) = p {
                streamed.push(t);
            }
            true
        })
        .unwrap();
    let a = out.response.answer.expect("answer");
    assert!(
        !streamed.is_empty(),
        "the kept sentence and the quotes are streamed"
    );
    for bad in ["202a", "StGB", "999", "4f", "§ 45"] {
        assert!(
            streamed.iter().all(|t| !t.contains(bad)),
            "{bad} was streamed: {streamed:?}"
        );
        assert!(
            !a.text.contains(bad),
            "{bad} reached the answer: {}",
            a.text
        );
    }
    // sentences 2–5 are listed by their place with the reason; the model's
    // words stay out of the list as well
    let why = |n: usize| -> String {
        a.removed_citations
            .iter()
            .filter(|r| r.text == format!("Satz {n} der Modellantwort"))
            .map(|r| r.reason.clone())
            .collect::<Vec<_>>()
            .join("; ")
    };
    assert!(
        why(2).contains("nicht im Korpus"),
        "{:?}",
        a.removed_citations
    );
    assert!(why(3).contains("nicht unter den gefundenen"), "{}", why(3));
    assert!(
        why(4).contains("nicht in Kraft") || why(4).contains("nicht unter den gefundenen"),
        "{}",
        why(4)
    );
    assert!(
        why(5).contains("Geltungsbereich") || why(5).contains("nicht unter den gefundenen"),
        "{}",
        why(5)
    );
    for r in &a.removed_citations {
        for bad in ["202a", "StGB", "999", "4f"] {
            assert!(!r.text.contains(bad) && !r.reason.contains(bad), "{r:?}");
        }
    }
}

/// A law written out in words is held to the same rules as its
/// abbreviation: `§ 202a des Strafgesetzbuchs` (not in the corpus) and `§ 7
/// des Gesetzes gegen den unlauteren Wettbewerb` (the UWG, in the corpus but
/// not retrieved) drop their sentences, although each says what its source
/// says; before, the gate knew only abbreviations and kept both.
#[test]
fn gate_resolves_laws_written_in_words() {
    let e = engine_or_skip!();
    let supported = "Der Verantwortliche und der Auftragsverarbeiter benennen einen \
         Datenschutzbeauftragten, wenn die Verarbeitung von einer Behörde durchgeführt wird, \
         nach Art. 37 DSGVO";
    e.set_generator(
        "scripted",
        scripted(&format!(
            "{supported} [1]. {supported} und § 202a des Strafgesetzbuchs [1]. \
             {supported} und § 7 des Gesetzes gegen den unlauteren Wettbewerb [1]."
        )),
    );
    let ask = AskOptions {
        model: Some("scripted".into()),
        ..AskOptions::default()
    };
    let mut streamed: Vec<String> = Vec::new();
    let out = e
        .ask(DPO, &ask, &mut |p| {
            if let AnswerProgress::Sentence(t) = p {
                streamed.push(t);
            }
            true
        })
        .unwrap();
    let a = out.response.answer.expect("answer");
    assert!(!a.abstained, "the first sentence is kept: {a:?}");
    for bad in ["202a", "Strafgesetzbuch", "unlauteren", "§ 7"] {
        assert!(
            streamed.iter().all(|t| !t.contains(bad)),
            "{bad} was streamed: {streamed:?}"
        );
        assert!(
            !a.text.contains(bad),
            "{bad} reached the answer: {}",
            a.text
        );
    }
    let why = |n: usize| -> String {
        a.removed_citations
            .iter()
            .filter(|r| r.text == format!("Satz {n} der Modellantwort"))
            .map(|r| r.reason.clone())
            .collect::<Vec<_>>()
            .join("; ")
    };
    assert!(why(2).contains("nicht im Korpus"), "{}", why(2));
    assert!(why(3).contains("nicht unter den gefundenen"), "{}", why(3));
}

/// Two answer models used in turn both stay loaded: no load per switch
/// (the engine held one model, so going back to the first one reloaded it,
/// here: failed, as a scripted model is not in the registry).
#[test]
fn alternating_answer_models_stay_loaded() {
    let e = engine_or_skip!();
    let text = "Ein Datenschutzbeauftragter ist nach Art. 37 DSGVO zu benennen [1].";
    e.set_generator("scripted-a", scripted(text));
    e.set_generator("scripted-b", scripted(text));
    for m in ["scripted-a", "scripted-b", "scripted-a", "scripted-b"] {
        let ask = AskOptions {
            model: Some(m.into()),
            ..AskOptions::default()
        };
        let out = e.ask(DPO, &ask, &mut |_| true).unwrap();
        let a = out.response.answer.expect("answer");
        assert!(!a.abstained, "{m}: {a:?}");
    }
    let s = e.model_load_stats();
    assert_eq!((s.loads, s.switches, s.loaded), (0, 3, 2), "{s:?}");
}

#[test]
fn top_k_cuts_the_list_but_not_the_assessment() {
    let e = engine_or_skip!();
    let q = "Welche Regeln gelten für Beschäftigtendaten im Arbeitsverhältnis?";
    let at = |k: usize| {
        let o = e
            .search(
                q,
                &SearchOptions {
                    top_k: k,
                    ..SearchOptions::default()
                },
            )
            .unwrap();
        assert_eq!(o.response.results.len().min(k), o.response.results.len());
        o.response.assessment
    };
    let (a1, a3, a10) = (at(1), at(3), at(10));
    assert_eq!(a1, a10);
    assert_eq!(a3, a10);
}

#[test]
fn model_failure_returns_search_result_with_error_note() {
    let e = engine_or_skip!();
    let info = GeneratorInfo {
        name: "failing".into(),
        architecture: "test".into(),
        chat_template: "none".into(),
        context_length: 4096,
        vocab_size: 0,
        path: PathBuf::new(),
    };
    e.set_generator("failing", Box::new(Failing(info)));
    let ask = AskOptions {
        model: Some("failing".into()),
        ..AskOptions::default()
    };
    let out = e.ask(DPO, &ask, &mut |_| true).unwrap();
    assert!(!out.response.results.is_empty());
    let a = out.response.answer.expect("answer");
    assert!(
        a.error
            .as_deref()
            .unwrap_or("")
            .contains("simulated failure"),
        "{a:?}"
    );
    assert!(a.abstained);
}

#[test]
fn bad_questions_are_rejected_with_clear_errors() {
    let e = engine_or_skip!();
    assert!(matches!(
        e.search("   ", &SearchOptions::default()),
        Err(EngineError::EmptyQuery)
    ));
    let long = "Datenschutz ".repeat(400);
    assert!(matches!(
        e.search(&long, &SearchOptions::default()),
        Err(EngineError::QueryTooLong { .. })
    ));
    let bad_k = SearchOptions {
        top_k: 0,
        ..SearchOptions::default()
    };
    assert!(matches!(
        e.search(DPO, &bad_k),
        Err(EngineError::BadTopK { .. })
    ));
}

#[test]
fn same_question_same_ranking() {
    let e = engine_or_skip!();
    let a = e.search(DPO, &SearchOptions::default()).unwrap();
    let b = e.search(DPO, &SearchOptions::default()).unwrap();
    let ids = |r: &paragraf_engine::SearchOutcome| {
        r.response
            .results
            .iter()
            .map(|x| (x.chunk_id.clone(), x.score))
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&a), ids(&b));
}

#[test]
fn missing_index_says_how_to_build_it() {
    let opts = EngineOptions {
        index_dir: PathBuf::from("/nonexistent/paragraf-index"),
        registry: Registry::builtin(),
        resolve: ResolveOptions {
            model_dir: None,
            allow_download: false,
        },
        device: DeviceChoice::Cpu,
        answer_model: None,
        params: ParamsSource::Given(Box::default()),
        query_batch_max: None,
        query_cache_entries: paragraf_engine::query_embed::QUERY_CACHE_ENTRIES,
        warm_up: false,
    };
    let err = Engine::open(opts).err().expect("must fail").to_string();
    assert!(err.contains("paragraf index build"), "{err}");
}

#[test]
fn a_question_has_the_same_vector_alone_and_in_any_batch() {
    use paragraf_engine::query_embed::QueryEmbedder;
    use paragraf_models::{load_embedder, Embedder};
    use std::sync::Arc;
    let Some(models) = models_dir() else {
        paragraf_types::inputs::input_missing("PARAGRAF_TEST_MODELS with multilingual-e5-small");
        return;
    };
    let e: Arc<dyn Embedder> = load_embedder(
        &Registry::builtin(),
        "multilingual-e5-small",
        &ResolveOptions {
            model_dir: Some(models),
            allow_download: false,
        },
        &candle_core::Device::Cpu,
    )
    .expect("embedder")
    .into();
    // lengths from a few tokens to ~40, several within one padding bucket
    let qs = [
        "Wer haftet, wenn ein Auftragsverarbeiter Daten verliert?",
        "Bußgeld?",
        "Wer haftet bei Datenverlust?",
        "Which documentation must accompany a product that contains software before it is sold in the EU, and for how long must it be kept?",
        "Welche Pflichten hat der Betreiber einer Videoüberwachung im Eingangsbereich eines Supermarkts gegenüber Kunden?",
        "Welche Pflichten hat der Betreiber einer Videoüberwachung gegenüber Kunden?",
        "Muss ein Hersteller Sicherheitslücken melden?",
        "Do I need a data protection officer?",
    ];
    // each question alone (one after the other: every pass holds one)
    let alone = QueryEmbedder::new(e.clone(), 16, 0).unwrap();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let want: Vec<Vec<u32>> = qs
        .iter()
        .map(|q| bits(&alone.embed(q).unwrap().dense))
        .collect();
    // concurrently through the batcher, in three rounds of 24 questions
    let batched = Arc::new(QueryEmbedder::new(e.clone(), 16, 0).unwrap());
    for round in 0..3 {
        let handles: Vec<_> = (0..24)
            .map(|n| {
                let qe = batched.clone();
                let i = (n * 5 + round) % qs.len();
                std::thread::spawn(move || (i, qe.embed(qs[i]).unwrap().dense))
            })
            .collect();
        for h in handles {
            let (i, v) = h.join().unwrap();
            assert_eq!(bits(&v), want[i], "{}", qs[i]);
        }
    }
    let s = batched.stats();
    assert_eq!(s.queries, 72);
    assert!(s.passes < 72, "concurrent questions shared passes: {s:?}");
}

#[test]
fn a_recital_links_to_the_article_it_explains_only_when_the_bridge_is_on() {
    let Some(on) = engine_with(
        paragraf_rank::RankParams::from_json_str(r#"{"recitalBridge": true}"#).unwrap(),
    ) else {
        paragraf_types::inputs::input_missing("PARAGRAF_TEST_MODELS with multilingual-e5-small");
        return;
    };
    // the fixture's one recital (97) is about the data protection officer
    let recital = on
        .chunks()
        .iter()
        .find(|c| c.regulation == "DSGVO" && c.norm.starts_with("ErwG"))
        .expect("the fixture has a DSGVO recital")
        .clone();
    let art = on
        .recital_link(&recital.id)
        .expect("the recital is linked to an article");
    assert_eq!((art.regulation.as_str(), art.lang), ("DSGVO", recital.lang));
    assert!(
        ["Art. 37", "Art. 38"].contains(&art.norm.as_str()),
        "ErwG 97 explains the DPO articles, linked to {}",
        art.norm
    );
    // a question in the recital's words finds the linked article, and where
    // the recital's evidence lifted it, the explanation names the recital
    let out = on
        .search(
            "Braucht eine Behörde einen Datenschutzbeauftragten, der sie bei der Einhaltung der Verordnung unterstützt?",
            &SearchOptions::default(),
        )
        .unwrap();
    for r in &out.response.results {
        if let Some(t) = r.explanation.iter().find(|t| t.name == "recitalBridge") {
            assert_eq!(r.regulation, "DSGVO");
            assert!(t.reason.contains("ErwG 97"), "{}", t.reason);
        }
    }
    let off = engine_or_skip!();
    assert!(off.recital_link(&recital.id).is_none(), "off by default");
}

#[test]
fn a_named_jurisdiction_brings_its_act_into_the_pool() {
    // overall pools of one (one result, no heading matches, no norm-BM25
    // pool), so the fixture's one Swiss act (revDSG, English) reaches a
    // German question only through the pool of the jurisdiction it names
    let with = |extra: &str| {
        engine_with(
            paragraf_rank::RankParams::from_json_str(&format!(
                r#"{{"denseTopN": 1, "lexicalTopN": 1, "headingMaxNorms": 0, "normLexicalTopN": 0{extra}}}"#
            ))
            .unwrap(),
        )
    };
    let (Some(on), Some(off)) = (with(""), with(r#", "jurisdictionTopN": 0"#)) else {
        paragraf_types::inputs::input_missing("PARAGRAF_TEST_MODELS with multilingual-e5-small");
        return;
    };
    let regs = |e: &Engine, q: &str| -> Vec<String> {
        let opts = SearchOptions {
            top_k: 1,
            hand_topics: false,
            ..SearchOptions::default()
        };
        e.search(q, &opts)
            .unwrap()
            .response
            .results
            .iter()
            .map(|r| r.regulation.clone())
            .collect()
    };
    for q in [
        "Wem meldet ein Verantwortlicher in der Schweiz eine Verletzung des Schutzes personenbezogener Daten?",
        "Innerhalb welcher Frist meldet ein Schweizer Verantwortlicher eine Verletzung des Schutzes personenbezogener Daten an die Aufsichtsbehörde?",
    ] {
        let found = regs(&on, q);
        assert_eq!(
            found.first().map(String::as_str),
            Some("revDSG"),
            "{q}: {found:?}"
        );
        let without = regs(&off, q);
        assert!(!without.iter().any(|r| r == "revDSG"), "{q}: {without:?}");
    }
    // the same question without the country gets no such pool
    let plain = regs(
        &on,
        "Wem meldet ein Verantwortlicher eine Verletzung des Schutzes personenbezogener Daten?",
    );
    assert!(!plain.iter().any(|r| r == "revDSG"), "{plain:?}");
}

#[test]
fn a_term_a_law_defines_after_a_bare_frame_asks_what_it_means() {
    let e = engine_or_skip!();
    // own phrasings, and a real question of a data-protection FAQ page
    // („Was sind Gesundheitsdaten?“)
    for question in [
        "Was ist Pseudonymisierung?",
        "Was ist Profiling nach der DSGVO?",
        "Was sind Gesundheitsdaten?",
    ] {
        let q = e.analyze(question);
        assert!(q.definition_intent, "{question}: {:?}", q.signals);
        assert!(
            q.heading_matches
                .iter()
                .any(|m| m.norm.as_str() == "Art. 4 DSGVO"),
            "{question}: {:?}",
            q.heading_matches
        );
    }
    // a bare frame before anything else asks anything
    for question in [
        "Was ist bei einer Datenpanne zu tun?",
        "What is required for valid consent under the GDPR?",
    ] {
        let q = e.analyze(question);
        assert!(!q.definition_intent, "{question}: {:?}", q.signals);
    }
}

#[test]
fn a_yes_no_question_whose_predicate_a_law_defines_asks_what_it_means() {
    let e = engine_or_skip!();
    // own phrasings, and a real question of a tax adviser's page
    for question in [
        "Ist ein Steuerbüro ein Auftragsverarbeiter?",
        "Sind Kfz-Kennzeichen personenbezogene Daten?",
        "Ist die Lohnabrechnung über den Steuerberater eine Auftragsverarbeitung?",
    ] {
        let q = e.analyze(question);
        let framed = q.signals.iter().any(|s| s.signal == "classification_frame");
        assert!(q.definition_intent && framed, "{question}: {:?}", q.signals);
    }
    // a predicate no law defines leaves the question as it is
    for question in [
        "Ist eine Datenschutz-Folgenabschätzung Pflicht?",
        "Sind Geburtstagslisten im Unternehmen zulässig?",
    ] {
        let q = e.analyze(question);
        assert!(!q.definition_intent, "{question}: {:?}", q.signals);
    }
}

#[test]
fn a_definition_question_about_a_word_no_law_defines_keeps_no_definitions_guess() {
    let e = engine_or_skip!();
    let aside = |q: &paragraf_engine::QueryAnalysis| {
        q.signals
            .iter()
            .any(|s| s.feature == "topic_set_aside" && s.signal == "no_defined_term")
    };
    // a term Art. 4 DSGVO defines: its definitions norm answers
    let q = e.analyze("Was bedeutet Pseudonymisierung im Datenschutz?");
    assert!(q.definition_intent && !aside(&q), "{:?}", q.signals);
    assert!(
        q.topic_norms.iter().any(|n| n.as_str() == "Art. 4 DSGVO"),
        "{:?}",
        q.topic_norms
    );
    // a word no law defines: the domain's definitions norm was a guess
    let q = e.analyze("Was bedeutet „angemessen“ beim Datenschutz?");
    assert!(q.definition_intent && aside(&q), "{:?}", q.signals);
    assert!(
        !q.topic_norms.iter().any(|n| n.as_str() == "Art. 4 DSGVO"),
        "{:?}",
        q.topic_norms
    );
}
