//! `paragraf models list`, `paragraf embed`, `paragraf generate`.

use super::{device, registry, resolve_opts};
use crate::cli::{EmbedArgs, GenerateArgs, Global, ModelsCmd};
use anyhow::Result;
use paragraf_models::{
    load_embedder, load_generator, select_device, ChatMessage, GenParams, Role, TextKind,
};
use std::io::Write;

pub fn list(g: &Global, c: ModelsCmd) -> Result<()> {
    let ModelsCmd::List { json } = c;
    let reg = registry(g)?;
    let statuses = paragraf_models::list_models(&reg, &resolve_opts(g));
    if json {
        println!("{}", serde_json::to_string_pretty(&statuses)?);
        return Ok(());
    }
    println!("{:<36} {:<9} {:<10} WHERE", "NAME", "KIND", "SIZE");
    for s in &statuses {
        let size = s.size_bytes.map(human_size).unwrap_or_else(|| "–".into());
        println!("{:<36} {:<9} {:<10} {}", s.name, s.kind, size, s.location);
    }
    Ok(())
}

pub fn human_size(b: u64) -> String {
    const U: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i < U.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    format!("{v:.1} {}", U[i])
}

pub fn embed(g: &Global, a: EmbedArgs) -> Result<()> {
    let reg = registry(g)?;
    let (dev, warn) = select_device(device(g)?);
    if let Some(w) = warn {
        eprintln!("warning: {w}");
    }
    let e = load_embedder(&reg, &a.model, &resolve_opts(g), &dev)?;
    let texts: Vec<&str> = a.texts.iter().map(|s| s.as_str()).collect();
    let kind = if a.query {
        TextKind::Query
    } else {
        TextKind::Passage
    };
    let out = e.embed(&texts, kind)?;
    let rows: Vec<serde_json::Value> = a
        .texts
        .iter()
        .zip(&out.embeddings)
        .map(|(t, e)| {
            serde_json::json!({
                "text": t,
                "dim": e.dense.len(),
                "dense": e.dense,
                "sparse": e.sparse,
                "colbert_vectors": e.colbert.as_ref().map(|c| c.len()),
            })
        })
        .collect();
    println!(
        "{}",
        serde_json::to_string_pretty(&serde_json::json!({
            "model": e.info().name, "truncated": out.truncated, "embeddings": rows
        }))?
    );
    Ok(())
}

pub fn generate(g: &Global, a: GenerateArgs) -> Result<()> {
    let reg = registry(g)?;
    let (dev, warn) = select_device(device(g)?);
    if let Some(w) = warn {
        eprintln!("warning: {w}");
    }
    let mut gen = load_generator(&reg, &a.model, &resolve_opts(g), &dev)?;
    let mut msgs = Vec::new();
    if let Some(s) = &a.system {
        msgs.push(ChatMessage {
            role: Role::System,
            content: s.clone(),
        });
    }
    msgs.push(ChatMessage {
        role: Role::User,
        content: a.prompt.clone(),
    });
    let p = GenParams {
        max_tokens: a.max_tokens,
        temperature: a.temperature,
        seed: a.seed,
        ..GenParams::default()
    };
    let out = gen.chat(&msgs, &p, &mut |t| {
        print!("{t}");
        let _ = std::io::stdout().flush();
        true
    })?;
    println!();
    eprintln!(
        "{} prompt tokens, {} generated; prefill {:.1} tok/s, decode {:.1} tok/s",
        out.prompt_tokens,
        out.generated_tokens,
        out.prompt_tokens as f64 / (out.prefill_ms / 1e3).max(1e-9),
        out.generated_tokens as f64 / (out.decode_ms / 1e3).max(1e-9)
    );
    Ok(())
}
