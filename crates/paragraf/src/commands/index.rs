//! `paragraf index build|terms|info`.

use super::{device, home, registry, resolve_opts};
use crate::cli::{Global, IndexCmd};
use crate::progress::StageBars;
use anyhow::{Context, Result};
use paragraf_engine::{build_index, BuildOptions};

pub fn run(g: &Global, c: IndexCmd) -> Result<()> {
    match c {
        IndexCmd::Build {
            corpus,
            embedder,
            out,
            only,
            core,
            batch_size,
            f16,
            strict,
            heading_vectors,
            scale,
            scale_archive,
            embed_scale,
            json,
        } => {
            let corpus = corpus.unwrap_or_else(crate::paths::default_corpus);
            let scale = scale.then(|| {
                scale_archive.unwrap_or_else(|| corpus.join("scale/gii-all-federal-law.tar.zst"))
            });
            if let Some(a) = &scale {
                anyhow::ensure!(a.is_file(), "--scale: no archive at {}", a.display());
            }
            let opts = BuildOptions {
                device: device(g)?,
                batch_size,
                f16,
                only_regulations: only,
                core_only: core,
                strict,
                heading_vectors,
                scale,
                embed_scale,
                ..BuildOptions::new(
                    corpus,
                    out.unwrap_or_else(|| home(g).join("index")),
                    embedder,
                    registry(g)?,
                    resolve_opts(g),
                )
            };
            let bars = StageBars::new(g.quiet || json);
            let report = build_index(&opts, &|e| bars.on_event(e))?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                println!(
                    "index written to {}: {} chunks ({} embedded, {} reused), {}",
                    report.out,
                    report.chunks,
                    report.embedded,
                    report.reused_from_checkpoint,
                    super::models::human_size(report.size_bytes)
                );
                for (k, v) in &report.stage_ms {
                    println!("  {k:<9} {:>8.1} s", v / 1e3);
                }
                if report.truncated > 0 {
                    println!(
                        "  {} passages were truncated to the embedder's max tokens",
                        report.truncated
                    );
                }
            }
            // never silent: every file left out, with file and position
            for s in &report.skipped_files {
                eprintln!("skipped {}: {}", s.path, s.reason);
            }
            if !report.skipped_files.is_empty() {
                eprintln!(
                    "{} corpus file(s) left out (listed in manifest.json; `--strict` makes this an error)",
                    report.skipped_files.len()
                );
            }
            Ok(())
        }
        IndexCmd::Terms { dir, out } => {
            let dir = dir.unwrap_or_else(|| home(g).join("index"));
            let (tsv, n) = paragraf_engine::lawwords::bilingual_tsv_of_index(&dir)?;
            match out {
                Some(p) => {
                    std::fs::write(&p, tsv).with_context(|| format!("writing {}", p.display()))?;
                    eprintln!("{n} term pairs written to {}", p.display());
                }
                None => print!("{tsv}"),
            }
            Ok(())
        }
        IndexCmd::Info { dir, verify, json } => info(g, dir, verify, json),
    }
}

/// `paragraf index info`: the manifest (and with `--verify` the files
/// checked against it).
fn info(g: &Global, dir: Option<std::path::PathBuf>, verify: bool, json: bool) -> Result<()> {
    let dir = dir.unwrap_or_else(|| home(g).join("index"));
    let m = paragraf_engine::index_manifest(&dir)?;
    let verified = if verify {
        Some(paragraf_engine::verify_index(&dir)?)
    } else {
        None
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&m)?);
    } else {
        println!("index {}", dir.display());
        println!("  format version  {}", m.format_version);
        println!("  built at        {}", m.built_at);
        println!(
            "  embedder        {} (revision {}, {} dims, {})",
            m.embedder.name, m.embedder.revision, m.embedder.dim, m.embedder.dtype
        );
        println!("  chunks          {}", m.counts.chunks);
        if m.regulations.is_empty() {
            println!(
                "  regulations     (not recorded: built before session 6; rebuild to list them)"
            );
        } else {
            println!(
                "  regulations     {} — {}",
                m.regulations.len(),
                m.regulations.join(", ")
            );
        }
        println!(
            "  corpus          {}",
            if m.core_only {
                "core set only (index build --core; `index build --corpus DIR` indexes everything)"
            } else {
                "whole corpus"
            }
        );
        println!("  terms           {}", m.counts.terms);
        println!("  sparse weights  {}", m.counts.sparse);
        println!(
            "  mappings        {} controls, {} evidence items",
            m.counts.mappings, m.counts.evidence
        );
        println!("  corpus hash     {}", m.corpus_hash);
        let total: u64 = m.files.values().map(|f| f.bytes).sum();
        println!("  size on disk    {}", super::models::human_size(total));
        for (name, f) in &m.files {
            println!("    {name:<24} {:>12}", super::models::human_size(f.bytes));
        }
        if !m.skipped_sources.is_empty() {
            println!("  skipped sources {}", m.skipped_sources.len());
            for s in &m.skipped_sources {
                println!("    {}: {}", s.path, s.reason);
            }
        }
    }
    if let Some(v) = verified {
        let line = format!(
            "verified: {} files, {}, sizes and sha256 match the manifest",
            v.files,
            super::models::human_size(v.bytes)
        );
        // keep --json output one JSON document
        if json {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }
    Ok(())
}
