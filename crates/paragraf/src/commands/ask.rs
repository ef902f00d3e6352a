//! `paragraf search` and `paragraf ask`.

use super::{default_answer_model, open_engine, search_options};
use crate::cli::{AskArgs, Global, SearchArgs};
use crate::output::response_text;
use anyhow::Result;
use paragraf_engine::{AnswerProgress, AskOptions, GenParams};
use std::io::Write;

pub fn search(g: &Global, a: SearchArgs) -> Result<()> {
    let opts = search_options(&a.flags)?;
    let engine = open_engine(g, &a.flags, None, false)?;
    let out = engine.search(&a.question, &opts)?;
    if a.json && a.explain {
        // the API's shape plus the question analysis
        let mut v = serde_json::to_value(&out.response)?;
        v["analysis"] = serde_json::to_value(&out.analysis)?;
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if a.json {
        println!("{}", serde_json::to_string_pretty(&out.response)?);
    } else {
        if a.explain {
            println!("{}", crate::output::analysis_text(&out.analysis));
        }
        print!("{}", response_text(&out.response, a.explain));
    }
    Ok(())
}

pub fn ask(g: &Global, a: AskArgs) -> Result<()> {
    let opts = search_options(&a.flags)?;
    if a.no_generate {
        let engine = open_engine(g, &a.flags, None, false)?;
        let out = engine.ask_extractive(&a.question, &opts)?;
        if a.json {
            println!("{}", serde_json::to_string_pretty(&out.response)?);
        } else {
            print!("{}", response_text(&out.response, false));
        }
        return abstention(&out.response);
    }
    let model = match a.model.clone() {
        Some(m) => m,
        None => default_answer_model(g)?,
    };
    // the model loads with the engine: a name or file that is no answer
    // model is bad input (exit 2), not an abstention (exit 3)
    let engine =
        open_engine(g, &a.flags, Some(model.clone()), false).map_err(|e| bad_model(&model, e))?;
    let ask = AskOptions {
        search: opts,
        gen: GenParams {
            max_tokens: a.max_tokens,
            temperature: a.temperature,
            seed: a.seed,
            ..GenParams::default()
        },
        model: Some(model),
        ..AskOptions::default()
    };
    // only gated text leaves the engine: while the model writes, the
    // terminal shows progress, never the ungated tokens
    let stream = !a.json && !g.quiet;
    let mut sentences = 0usize;
    let mut on_progress = |p: AnswerProgress| {
        match p {
            AnswerProgress::Tokens(tokens) if stream && tokens % 8 == 1 => {
                eprint!("\rAntwort wird erzeugt und geprüft … {tokens} Tokens, {sentences} Sätze belegt");
                let _ = std::io::stderr().flush();
            }
            AnswerProgress::Sentence(_) => sentences += 1,
            AnswerProgress::Tokens(_) => {}
        }
        true
    };
    let out = engine.ask(&a.question, &ask, &mut on_progress)?;
    if stream {
        eprintln!();
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out.response)?);
    } else {
        print!("{}", response_text(&out.response, false));
    }
    abstention(&out.response)
}

/// A `--model` that cannot be loaded as an answer model (unknown name, a
/// file that is no model, missing files) is a bad flag: exit 2.
fn bad_model(model: &str, e: anyhow::Error) -> anyhow::Error {
    use paragraf_engine::{EngineError, ModelError};
    let unusable = e.chain().any(|c| {
        matches!(
            c.downcast_ref::<EngineError>(),
            Some(EngineError::Model(m)) if !matches!(m, ModelError::Candle { .. })
        )
    });
    if unusable {
        let shown: String = model.chars().take(200).collect();
        anyhow::Error::new(crate::BadFlag(format!("--model `{shown}`: {e:#}")))
    } else {
        e
    }
}

/// Exit 3 ([`crate::EXIT_ABSTAINED`]) when the printed answer abstained.
fn abstention(r: &paragraf_types::SearchResponse) -> Result<()> {
    if r.answer.as_ref().is_some_and(|a| a.abstained) {
        return Err(anyhow::Error::new(crate::Abstained));
    }
    Ok(())
}
