//! `paragraf models list`, `paragraf embed`. (Model text reaches the
//! command line only through `ask`, after the citation gate.)

use super::{device, registry, resolve_opts};
use crate::cli::{EmbedArgs, Global, ModelsCmd};
use anyhow::Result;

pub fn list(g: &Global, c: ModelsCmd) -> Result<()> {
    let ModelsCmd::List { json } = c;
    let reg = registry(g)?;
    let statuses = paragraf_engine::models::list(&reg, &resolve_opts(g));
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
    let texts: Vec<&str> = a.texts.iter().map(|s| s.as_str()).collect();
    let out = paragraf_engine::models::embed_texts(
        &reg,
        &a.model,
        &resolve_opts(g),
        device(g)?,
        &texts,
        a.query,
    )?;
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
            "model": out.model, "truncated": out.truncated, "embeddings": rows
        }))?
    );
    Ok(())
}
