//! The ingestion pipeline: walk the corpus directory, parse every file the
//! manifest names (in parallel), attach metadata and role, chunk, extract
//! references, then build the norm graph (`references_in`). Chunk assembly
//! lives in [`crate::assemble`], saving and loading in [`crate::persist`],
//! the counts in [`crate::stats`].

pub use crate::assemble::{
    build_chunks, build_graph, is_control_chunk, mapping_label, sort_chunks,
};
use crate::chunking::DEFAULT_MAX_TOKENS;
use crate::error::CorpusError;
use crate::manifest::{Manifest, SourceEntry};
use crate::norm_order::norm_key;
use crate::parsers::{self, mappings, SourceFormat};
use crate::refs::parse_norm_query;
use paragraf_types::{Chunk, ControlMapping, EvidenceItem, Lang, MappingKind, NormRef};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// Options of [`ingest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IngestOptions {
    /// Token budget per chunk (estimated, see [`crate::chunking`]).
    pub max_tokens: usize,
    /// A user manifest instead of the built-in one.
    pub manifest: Option<PathBuf>,
}

impl Default for IngestOptions {
    fn default() -> Self {
        IngestOptions {
            max_tokens: DEFAULT_MAX_TOKENS,
            manifest: None,
        }
    }
}

/// Progress of an ingestion, reported after each file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
    /// The file just finished (corpus-relative).
    pub file: String,
}

/// What happened to one ingested file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileReport {
    pub path: String,
    pub format: SourceFormat,
    pub regulation: Option<String>,
    pub norms: usize,
    pub chunks: usize,
    /// Mapping / evidence records read.
    pub records: usize,
    /// Why the file has no citable units, when it has none (from the manifest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The law's own titles as the file writes them (gii `<langue>` and
    /// `<kurzue>`); empty for formats without them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub titles: Vec<String>,
}

/// A file that was not ingested, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedFile {
    pub path: String,
    pub reason: String,
}

/// Summary of one ingestion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct IngestReport {
    /// Manifest origin (`builtin sources.toml` or a path).
    pub manifest: String,
    pub max_tokens: usize,
    pub files: Vec<FileReport>,
    pub skipped: Vec<SkippedFile>,
    /// Files ignored by rule (README, LICENSE, `*.meta.json`, `scale/`, `eval/`).
    pub ignored: usize,
    /// Norms dropped because another file carries the same norm (embedded
    /// annex copies of `eu/en` when `eu/en-annexes` has the annex).
    pub duplicates_dropped: Vec<String>,
    /// Mapping references naming a law or article outside the corpus.
    pub unresolved_mapping_refs: Vec<String>,
    pub wall_ms: u64,
}

/// The ingested corpus.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ingested {
    pub chunks: Vec<Chunk>,
    pub control_mappings: Vec<ControlMapping>,
    pub evidence: Vec<EvidenceItem>,
    pub report: IngestReport,
}

enum Outcome {
    Norms {
        chunks: Vec<Chunk>,
        norms: usize,
        embedded_annexes: bool,
        titles: Vec<String>,
    },
    Controls(Vec<ControlMapping>, Vec<String>),
    Evidence(Vec<EvidenceItem>, Vec<String>),
}

/// Ingest a corpus directory.
pub fn ingest(
    root: &Path,
    opts: &IngestOptions,
    progress: Option<&(dyn Fn(Progress) + Sync)>,
) -> Result<Ingested, CorpusError> {
    let start = Instant::now();
    let manifest = match &opts.manifest {
        Some(p) => Manifest::load(p)?,
        None => Manifest::builtin()?,
    };
    if !root.is_dir() {
        return Err(CorpusError::NoCorpus {
            path: root.to_path_buf(),
        });
    }
    let mut files = Vec::new();
    walk(root, root, &mut files)?;
    files.sort();

    let mut report = IngestReport {
        manifest: manifest.origin.clone(),
        max_tokens: opts.max_tokens,
        ..Default::default()
    };
    let mut work: Vec<(String, SourceEntry)> = Vec::new();
    for rel in files {
        if manifest.is_ignored(&rel) {
            report.ignored += 1;
            continue;
        }
        match manifest.source_for(&rel) {
            Some(s) => work.push((rel, s.clone())),
            None => report.skipped.push(SkippedFile {
                path: rel,
                reason: "no manifest entry".into(),
            }),
        }
    }

    let total = work.len();
    let done = AtomicUsize::new(0);
    let results: Vec<(String, SourceEntry, Result<Outcome, String>)> = work
        .into_par_iter()
        .map(|(rel, src)| {
            let r = process_file(root, &rel, &src, &manifest, opts.max_tokens);
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(p) = progress {
                p(Progress {
                    done: d,
                    total,
                    file: rel.clone(),
                });
            }
            (rel, src, r)
        })
        .collect();

    let mut out = Ingested::default();
    let mut annex_files_norms: HashSet<(String, String, Lang)> = HashSet::new();
    let mut embedded: Vec<usize> = Vec::new();
    for (rel, src, r) in results {
        match r {
            Err(reason) => report.skipped.push(SkippedFile { path: rel, reason }),
            Ok(Outcome::Norms {
                chunks,
                norms,
                embedded_annexes,
                titles,
            }) => {
                if src.format == SourceFormat::EuAnnexJson {
                    for c in &chunks {
                        annex_files_norms.insert((c.regulation.clone(), c.norm.clone(), c.lang));
                    }
                }
                report.files.push(FileReport {
                    path: rel,
                    format: src.format,
                    regulation: src.regulation.clone(),
                    norms,
                    chunks: chunks.len(),
                    records: 0,
                    note: if norms == 0 {
                        src.note.clone().or_else(|| Some("no citable units".into()))
                    } else {
                        None
                    },
                    titles,
                });
                if embedded_annexes {
                    embedded.push(report.files.len() - 1);
                }
                out.chunks.extend(chunks);
            }
            Ok(Outcome::Controls(cm, unresolved)) => {
                report.files.push(file_report_records(&rel, &src, cm.len()));
                report.unresolved_mapping_refs.extend(unresolved);
                out.control_mappings.extend(cm);
            }
            Ok(Outcome::Evidence(ev, unresolved)) => {
                report.files.push(file_report_records(&rel, &src, ev.len()));
                report.unresolved_mapping_refs.extend(unresolved);
                out.evidence.extend(ev);
            }
        }
    }
    drop_duplicates(&mut out.chunks, &mut report, &embedded, &annex_files_norms);
    report.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    report.files.sort_by(|a, b| a.path.cmp(&b.path));
    report.unresolved_mapping_refs.sort();
    report.unresolved_mapping_refs.dedup();

    sort_chunks(&mut out.chunks, &manifest);
    build_graph(&mut out.chunks);
    sort_records(&mut out);
    report.wall_ms = start.elapsed().as_millis() as u64;
    out.report = report;
    Ok(out)
}

/// Embedded annex copies of `eu/en` yield to the `eu/en-annexes` file
/// (`embedded`: indexes into `report.files` of files with embedded
/// annexes); any remaining id collision keeps the first chunk in file
/// order. What is dropped is reported.
fn drop_duplicates(
    chunks: &mut Vec<Chunk>,
    report: &mut IngestReport,
    embedded: &[usize],
    annex_files_norms: &HashSet<(String, String, Lang)>,
) {
    // embedded annex copies of `eu/en` yield to the `eu/en-annexes` file
    if !embedded.is_empty() && !annex_files_norms.is_empty() {
        let embedded_files: HashSet<String> = embedded
            .iter()
            .map(|&i| report.files[i].path.clone())
            .collect();
        let mut dropped = BTreeSet::new();
        chunks.retain(|c| {
            let dup = embedded_files.contains(&c.source_file)
                && c.norm.starts_with("Anhang")
                && annex_files_norms.contains(&(c.regulation.clone(), c.norm.clone(), c.lang));
            if dup {
                dropped.insert(format!("{} ({})", c.norm_ref(), c.source_file));
            }
            !dup
        });
        report.duplicates_dropped = dropped.into_iter().collect();
    }
    // any remaining id collision: keep the first in file order, report the rest
    let mut seen = HashSet::new();
    chunks.retain(|c| {
        let fresh = seen.insert(c.id.clone());
        if !fresh {
            report
                .duplicates_dropped
                .push(format!("{} ({})", c.id, c.source_file));
        }
        fresh
    });
}

/// Control mappings and evidence items in a stable order.
fn sort_records(out: &mut Ingested) {
    out.control_mappings.sort_by(|a, b| {
        (
            a.regulation.as_str(),
            a.framework_id.as_str(),
            a.control_id.as_str(),
            a.source_file.as_str(),
        )
            .cmp(&(
                b.regulation.as_str(),
                b.framework_id.as_str(),
                b.control_id.as_str(),
                b.source_file.as_str(),
            ))
    });
    out.evidence.sort_by(|a, b| {
        (
            a.regulation.as_str(),
            norm_key(norm_part(&a.norm)),
            a.artifact_name.as_str(),
        )
            .cmp(&(
                b.regulation.as_str(),
                norm_key(norm_part(&b.norm)),
                b.artifact_name.as_str(),
            ))
    });
}

fn norm_part(r: &NormRef) -> &str {
    // `Art. 30 DSGVO` → `Art. 30`
    let s = r.as_str();
    match s
        .find(' ')
        .and_then(|i| s[i + 1..].find(' ').map(|j| i + 1 + j))
    {
        Some(k) => &s[..k],
        None => s,
    }
}

fn file_report_records(rel: &str, src: &SourceEntry, n: usize) -> FileReport {
    FileReport {
        path: rel.to_string(),
        format: src.format,
        regulation: src.regulation.clone(),
        norms: 0,
        chunks: 0,
        records: n,
        note: None,
        titles: Vec::new(),
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<(), CorpusError> {
    let rd = std::fs::read_dir(dir).map_err(|e| CorpusError::io(dir, e))?;
    let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        let p = e.path();
        let ft = e.file_type().map_err(|err| CorpusError::io(&p, err))?;
        if ft.is_dir() {
            walk(root, &p, out)?;
        } else if ft.is_file() || ft.is_symlink() {
            let rel = p.strip_prefix(root).unwrap_or(&p);
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(rel.join("/"));
        }
    }
    Ok(())
}

fn process_file(
    root: &Path,
    rel: &str,
    src: &SourceEntry,
    manifest: &Manifest,
    max_tokens: usize,
) -> Result<Outcome, String> {
    let path = root.join(rel);
    let bytes = std::fs::read(&path).map_err(|e| format!("{rel}: cannot read: {e}"))?;
    match src.format {
        SourceFormat::IsoMapping | SourceFormat::NistCsfMapping => {
            let kind = if src.format == SourceFormat::IsoMapping {
                MappingKind::Iso27001
            } else {
                MappingKind::NistCsf
            };
            let raws =
                mappings::parse_control_mappings(rel, &bytes, kind).map_err(|e| e.to_string())?;
            let mut unresolved = Vec::new();
            let mut out = Vec::new();
            for r in raws {
                let Some(reg) = manifest
                    .canonical_regulation(&r.regulation)
                    .map(str::to_string)
                else {
                    unresolved.push(format!("{rel}: regulation `{}`", r.regulation));
                    continue;
                };
                let mut norms = Vec::new();
                for a in &r.articles {
                    match mapping_label(a) {
                        Some(l) => norms.push(NormRef::new(&l, &reg)),
                        None => unresolved.push(format!("{rel}: {} `{a}`", r.regulation)),
                    }
                }
                norms.sort();
                norms.dedup();
                out.push(ControlMapping {
                    kind,
                    framework_id: match kind {
                        MappingKind::Iso27001 => "ISO-27001:2022".into(),
                        MappingKind::NistCsf => "NIST-CSF-2.0".into(),
                    },
                    control_id: r.control_id,
                    control_name: r.control_name,
                    regulation: reg,
                    norms,
                    coverage: r.coverage,
                    notes: r.notes,
                    source_file: rel.to_string(),
                });
            }
            Ok(Outcome::Controls(out, unresolved))
        }
        SourceFormat::EvidenceMapping => {
            let raws = mappings::parse_evidence(rel, &bytes).map_err(|e| e.to_string())?;
            let mut unresolved = Vec::new();
            let mut out = Vec::new();
            for r in raws {
                let reg = manifest
                    .canonical_regulation(&r.regulation)
                    .map(str::to_string);
                let (Some(reg), Some(label)) = (reg, mapping_label(&r.article)) else {
                    unresolved.push(format!("{rel}: {} `{}`", r.regulation, r.article));
                    continue;
                };
                let mut cross = Vec::new();
                for x in &r.cross_references {
                    let resolved = x.split_once(':').and_then(|(law, art)| {
                        Some(NormRef::new(
                            &mapping_label(art)?,
                            manifest.canonical_regulation(law)?,
                        ))
                    });
                    match resolved {
                        Some(n) => cross.push(n),
                        None => unresolved.push(format!("{rel}: cross reference `{x}`")),
                    }
                }
                cross.sort();
                cross.dedup();
                out.push(EvidenceItem {
                    norm: NormRef::new(&label, &reg),
                    regulation: reg,
                    requirement_summary: r.requirement_summary,
                    evidence_type: r.evidence_type,
                    artifact_name: r.artifact_name,
                    artifact_example: r.artifact_example,
                    description: r.description,
                    retention_period: r.retention_period,
                    auditor_questions: r.auditor_questions,
                    cross_references: cross,
                    source_file: rel.to_string(),
                });
            }
            Ok(Outcome::Evidence(out, unresolved))
        }
        format => {
            // a gii file also names its law (long and short title)
            let (norms, titles) = if format == SourceFormat::GiiXml {
                let law = parsers::gii::parse_law(rel, &bytes).map_err(|e| e.to_string())?;
                let titles = law.titles();
                (law.norms, titles)
            } else {
                let norms = parsers::parse(format, rel, &bytes).map_err(|e| e.to_string())?;
                (norms, Vec::new())
            };
            let regulation = src
                .regulation
                .clone()
                .ok_or_else(|| format!("{rel}: manifest entry names no regulation"))?;
            let embedded_annexes = norms
                .iter()
                .any(|n| n.hints.iter().any(|h| h == "annex-source:embedded"));
            let n = norms.len();
            let mut chunks = Vec::new();
            for norm in &norms {
                chunks.extend(build_chunks(
                    norm,
                    &regulation,
                    src,
                    rel,
                    manifest,
                    max_tokens,
                ));
            }
            Ok(Outcome::Norms {
                chunks,
                norms: n,
                embedded_annexes,
                titles,
            })
        }
    }
}

fn builtin_manifest() -> Option<&'static Manifest> {
    static M: OnceLock<Option<Manifest>> = OnceLock::new();
    M.get_or_init(|| Manifest::builtin().ok()).as_ref()
}

impl Ingested {
    /// Chunks of the norms a query names (`Art. 37 DSGVO`, `§ 38 BDSG`), in
    /// corpus order; also accepts a chunk id or an exact citation.
    pub fn find_norm(&self, query: &str) -> Vec<&Chunk> {
        let q = query.trim();
        let refs: HashSet<NormRef> = builtin_manifest()
            .map(|m| parse_norm_query(q, m).into_iter().collect())
            .unwrap_or_default();
        let hits: Vec<&Chunk> = self
            .chunks
            .iter()
            .filter(|c| refs.contains(&c.norm_ref()))
            .collect();
        if !hits.is_empty() {
            return hits;
        }
        self.chunks
            .iter()
            .filter(|c| c.norm_ref().as_str() == q || c.id.as_str() == q || c.citation == q)
            .collect()
    }
}
