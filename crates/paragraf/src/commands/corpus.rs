//! `paragraf corpus ingest|stats|show`.

use super::home;
use crate::cli::{CorpusCmd, Global};
use anyhow::{Context, Result};
use paragraf_corpus::{ingest, IngestOptions, Ingested};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn corpus_dir(from: Option<PathBuf>) -> PathBuf {
    from.unwrap_or_else(crate::paths::default_corpus)
}

fn load(from: &Path, max_tokens: Option<usize>, quiet: bool) -> Result<Ingested> {
    let mut opts = IngestOptions::default();
    if let Some(m) = max_tokens {
        opts.max_tokens = m;
    }
    let bar = if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new_spinner()
    };
    bar.set_message(format!("ingesting {}", from.display()));
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    let r = ingest(from, &opts, None).with_context(|| format!("ingesting {}", from.display()));
    bar.finish_and_clear();
    r
}

pub fn run(g: &Global, c: CorpusCmd) -> Result<()> {
    match c {
        CorpusCmd::Ingest {
            from,
            out,
            max_tokens,
            bench,
            json,
        } => {
            let from = corpus_dir(from);
            if bench {
                let archive = from.join("scale/gii-all-federal-law.tar.zst");
                let mut opts = IngestOptions::default();
                if let Some(m) = max_tokens {
                    opts.max_tokens = m;
                }
                let r = paragraf_corpus::scale::ingest_archive(&archive, &opts)?;
                if json {
                    println!("{}", serde_json::to_string_pretty(&r)?);
                } else {
                    print!("{}", scale_text(&r));
                }
                return Ok(());
            }
            let t = Instant::now();
            let ing = load(&from, max_tokens, g.quiet)?;
            let out = out.unwrap_or_else(|| home(g).join("corpus"));
            ing.save(&out)
                .with_context(|| format!("writing {}", out.display()))?;
            let stats = ing.stats();
            if json {
                println!("{}", serde_json::to_string_pretty(&stats)?);
            } else {
                print!("{}", stats_text(&stats));
                println!(
                    "ingested {} chunks from {} in {:.1} s → {}",
                    ing.chunks.len(),
                    from.display(),
                    t.elapsed().as_secs_f64(),
                    out.display()
                );
            }
            Ok(())
        }
        CorpusCmd::Stats { from, json } => {
            let ing = load(&corpus_dir(from), None, g.quiet)?;
            let stats = ing.stats();
            if json {
                println!("{}", serde_json::to_string_pretty(&stats)?);
            } else {
                print!("{}", stats_text(&stats));
            }
            Ok(())
        }
        CorpusCmd::Show { norm, from, json } => {
            let ing = load(&corpus_dir(from), None, g.quiet)?;
            let chunks = ing.find_norm(&norm);
            if chunks.is_empty() {
                anyhow::bail!(
                    "no norm matches `{norm}` (try e.g. \"Art. 37 DSGVO\" or \"§ 38 BDSG\")"
                );
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&chunks)?);
                return Ok(());
            }
            let first = chunks[0];
            println!("{} – {}", first.norm_ref(), first.title);
            if !first.breadcrumb.is_empty() {
                println!("{}", first.breadcrumb.join(" › "));
            }
            println!(
                "class {} · role {} (rule {}) · {} · {} · domains {}",
                first.source_class,
                first.source_role,
                first.role_rule,
                first.jurisdiction,
                first.status,
                first
                    .domains
                    .iter()
                    .map(|d| d.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            if let Some(s) = &first.superseded_by {
                println!("abgelöst durch {s}");
            }
            let mut out_refs = std::collections::BTreeSet::new();
            let mut in_refs = std::collections::BTreeSet::new();
            for c in &chunks {
                println!("\n[{}] {} ({})\n{}", c.id, c.citation, c.lang, c.text);
                out_refs.extend(c.references_out.iter().map(|r| r.to_string()));
                in_refs.extend(c.references_in.iter().map(|r| r.to_string()));
            }
            println!(
                "\nreferences_out: {}",
                out_refs.into_iter().collect::<Vec<_>>().join(", ")
            );
            println!(
                "references_in:  {}",
                in_refs.into_iter().collect::<Vec<_>>().join(", ")
            );
            Ok(())
        }
    }
}

fn scale_text(r: &paragraf_corpus::scale::ScaleReport) -> String {
    format!(
        "scale archive {}\n  files      {} ({} failed)\n  bytes      {:.1} MB uncompressed ({:.1} MB compressed)\n  norms      {}\n  chunks     {}\n  references {}\n  time       {:.1} s on {} threads\n  throughput {:.1} MB/s, {:.0} chunks/s\n  peak RSS   {:.0} MiB\n",
        r.archive,
        r.files,
        r.files_failed,
        r.bytes_uncompressed as f64 / 1e6,
        r.bytes_compressed as f64 / 1e6,
        r.norms,
        r.chunks,
        r.references,
        r.seconds,
        r.threads,
        r.mb_per_s,
        r.chunks_per_s,
        r.peak_rss_kib as f64 / 1024.0
    )
}

fn stats_text(s: &paragraf_corpus::CorpusStats) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{} chunks, {} norms from {} files ({} ignored, {} skipped)",
        s.chunks,
        s.norms,
        s.files_ingested,
        s.files_ignored,
        s.files_skipped.len()
    );
    let _ = writeln!(o, "\nper regulation (norms per language / chunks):");
    for (reg, chunks) in &s.chunks_per_regulation {
        let norms = s
            .norms_per_regulation
            .get(reg)
            .map(|m| {
                m.iter()
                    .map(|(l, n)| format!("{n} {l}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        let sup = s
            .superseded
            .get(reg)
            .map(|succ| format!("  superseded → {succ}"))
            .unwrap_or_default();
        let _ = writeln!(o, "  {reg:<16} {norms:<22} {chunks:>6} chunks{sup}");
    }
    for (title, map) in [
        ("class", &s.per_class),
        ("role", &s.per_role),
        ("role rule", &s.per_role_rule),
        ("status", &s.per_status),
        ("language", &s.per_lang),
    ] {
        let parts: Vec<String> = map.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(o, "\nper {title}: {}", parts.join(", "));
    }
    let _ = writeln!(
        o,
        "\nreferences: {} resolved, {} unresolved (resolution rate {:.1} %)",
        s.references_resolved,
        s.references_unresolved,
        s.resolution_rate * 100.0
    );
    let _ = writeln!(
        o,
        "mappings: {} norm→control, {} evidence items",
        s.control_mappings, s.evidence
    );
    if !s.files_skipped.is_empty() {
        let _ = writeln!(o, "\nskipped files:");
        for f in &s.files_skipped {
            let _ = writeln!(o, "  {}: {}", f.path, f.reason);
        }
    }
    o
}
