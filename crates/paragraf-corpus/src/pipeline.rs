//! The ingestion pipeline: walk the corpus directory, parse every file the
//! manifest names (in parallel), attach metadata and role, chunk, extract
//! references, then build the norm graph (`references_in`), and persist.

use crate::chunking::{chunk_units, DEFAULT_MAX_TOKENS};
use crate::error::CorpusError;
use crate::manifest::{Manifest, SourceEntry};
use crate::norm_order::norm_key;
use crate::parsers::{self, mappings, SourceFormat};
use crate::raw::RawNorm;
use crate::refs::{extract_references, parse_norm_query};
use paragraf_types::{
    Chunk, ChunkId, ControlMapping, EvidenceItem, Lang, MappingKind, NormRef, SourceClass,
    SourceRole, Status,
};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::io::{BufRead, BufWriter, Write};
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

/// Counts for `paragraf corpus stats`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusStats {
    pub chunks: usize,
    /// Distinct norms (regulation, norm, lang).
    pub norms: usize,
    pub files_ingested: usize,
    pub files_skipped: Vec<SkippedFile>,
    pub files_ignored: usize,
    pub chunks_per_regulation: BTreeMap<String, usize>,
    /// Distinct norms per regulation and language (`DSGVO` → `de` → 272).
    pub norms_per_regulation: BTreeMap<String, BTreeMap<String, usize>>,
    pub per_class: BTreeMap<String, usize>,
    pub per_role: BTreeMap<String, usize>,
    pub per_role_rule: BTreeMap<String, usize>,
    pub per_status: BTreeMap<String, usize>,
    pub per_lang: BTreeMap<String, usize>,
    /// Superseded regulation → successor.
    pub superseded: BTreeMap<String, String>,
    /// References resolved to a norm of the corpus (per chunk, deduplicated).
    pub references_resolved: usize,
    /// Citations kept as text (unknown law or norm not in the corpus).
    pub references_unresolved: usize,
    /// resolved / (resolved + unresolved).
    pub resolution_rate: f64,
    pub control_mappings: usize,
    pub evidence: usize,
}

enum Outcome {
    Norms {
        chunks: Vec<Chunk>,
        norms: usize,
        embedded_annexes: bool,
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
    // embedded annex copies of `eu/en` yield to the `eu/en-annexes` file
    if !embedded.is_empty() && !annex_files_norms.is_empty() {
        let embedded_files: HashSet<String> = embedded
            .iter()
            .map(|&i| report.files[i].path.clone())
            .collect();
        let mut dropped = BTreeSet::new();
        out.chunks.retain(|c| {
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
    out.chunks.retain(|c| {
        let fresh = seen.insert(c.id.clone());
        if !fresh {
            report
                .duplicates_dropped
                .push(format!("{} ({})", c.id, c.source_file));
        }
        fresh
    });
    report.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    report.files.sort_by(|a, b| a.path.cmp(&b.path));
    report.unresolved_mapping_refs.sort();
    report.unresolved_mapping_refs.dedup();

    sort_chunks(&mut out.chunks, &manifest);
    build_graph(&mut out.chunks);
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
    report.wall_ms = start.elapsed().as_millis() as u64;
    out.report = report;
    Ok(out)
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
            let norms = parsers::parse(format, rel, &bytes).map_err(|e| e.to_string())?;
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
            })
        }
    }
}

/// `"32"` → `Art. 32`, `"21(2)"` → `Art. 21`, `"Annex I"` → `Anhang I`,
/// `"Recital 26"` → `ErwG 26`, `"Article 5"` → `Art. 5`.
pub fn mapping_label(s: &str) -> Option<String> {
    let s = s.trim();
    let num = |t: &str| -> Option<String> {
        let t = t.trim();
        let d: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
        if d.is_empty() {
            return None;
        }
        let rest = &t[d.len()..];
        let suffix: String = rest
            .chars()
            .take(1)
            .filter(|c| c.is_ascii_lowercase())
            .collect();
        let after = rest.get(suffix.len()..).unwrap_or("");
        if after.chars().next().is_some_and(|c| c.is_alphanumeric()) {
            return None;
        }
        Some(format!("{d}{suffix}"))
    };
    if let Some(rest) = s
        .strip_prefix("Annex ")
        .or_else(|| s.strip_prefix("Anhang "))
    {
        let r: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        return (!r.is_empty()).then(|| format!("Anhang {r}"));
    }
    if let Some(rest) = s
        .strip_prefix("Recital ")
        .or_else(|| s.strip_prefix("ErwG "))
    {
        return num(rest).map(|n| format!("ErwG {n}"));
    }
    for p in ["Article ", "Art. ", "Art "] {
        if let Some(rest) = s.strip_prefix(p) {
            return num(rest).map(|n| format!("Art. {n}"));
        }
    }
    num(s).map(|n| format!("Art. {n}"))
}

/// Turn one parsed norm into its chunks with every field of the data model.
pub fn build_chunks(
    norm: &RawNorm,
    regulation: &str,
    src: &SourceEntry,
    rel: &str,
    manifest: &Manifest,
    max_tokens: usize,
) -> Vec<Chunk> {
    let reg = manifest.regulation(regulation);
    let decision = manifest.decide_role(norm, regulation, src);
    let parts = chunk_units(&norm.units, max_tokens);
    let n_parts = parts.len() as u32;
    let mut used = HashSet::new();
    let mut out = Vec::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        let mut sub = if n_parts > 1 {
            Some(p.subunit(i))
        } else {
            None
        };
        let mut id = ChunkId::new(regulation, &norm.norm, sub.as_deref(), norm.lang);
        let mut k = 2;
        while !used.insert(id.clone()) {
            let s = format!("{}.{k}", p.subunit(i));
            id = ChunkId::new(regulation, &norm.norm, Some(&s), norm.lang);
            sub = Some(s);
            k += 1;
        }
        let _ = sub;
        let citation = match (n_parts > 1).then(|| p.label_range()).flatten() {
            Some(range) => format!("{} {} {}", norm.norm, range, regulation),
            None => format!("{} {}", norm.norm, regulation),
        };
        let ex = extract_references(&p.text, regulation, manifest);
        out.push(Chunk {
            id,
            regulation: regulation.to_string(),
            norm: norm.norm.clone(),
            citation,
            title: norm.title.clone(),
            breadcrumb: norm.breadcrumb.clone(),
            text: p.text.clone(),
            lang: norm.lang,
            jurisdiction: reg
                .map(|r| r.jurisdiction)
                .unwrap_or(paragraf_types::Jurisdiction::De),
            source_class: decision.source_class,
            source_role: decision.role,
            role_rule: decision.rule.clone(),
            domains: reg.map(|r| r.domains.clone()).unwrap_or_default(),
            status: reg.map(|r| r.status).unwrap_or(Status::InForce),
            valid_from: reg.and_then(|r| r.valid_from.clone()),
            valid_to: reg.and_then(|r| r.valid_to.clone()),
            superseded_by: reg.and_then(|r| r.superseded_by.clone()),
            references_out: ex.resolved,
            references_in: Vec::new(),
            unresolved_references: ex.unresolved,
            framework: norm.framework.clone(),
            source_file: rel.to_string(),
            part: i as u32,
            parts: n_parts,
        });
    }
    out
}

/// Deterministic order: manifest regulation order, language (de first), norm
/// natural order, part, id.
pub fn sort_chunks(chunks: &mut [Chunk], manifest: &Manifest) {
    let rank: HashMap<&str, usize> = manifest
        .regulations
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.as_str(), i))
        .collect();
    chunks.sort_by_cached_key(|c| {
        (
            rank.get(c.regulation.as_str())
                .copied()
                .unwrap_or(usize::MAX),
            c.regulation.clone(),
            c.lang,
            norm_key(&c.norm),
            c.norm.clone(),
            c.part,
            c.id.clone(),
        )
    });
}

/// The graph pass: keep only references to norms that exist in the corpus
/// (the rest become unresolved), drop self-references, and fill
/// `references_in` as the norm-level inverse of `references_out`.
pub fn build_graph(chunks: &mut [Chunk]) {
    let existing: HashSet<NormRef> = chunks.iter().map(|c| c.norm_ref()).collect();
    let mut incoming: HashMap<NormRef, BTreeSet<NormRef>> = HashMap::new();
    for c in chunks.iter_mut() {
        let me = c.norm_ref();
        let mut keep = Vec::with_capacity(c.references_out.len());
        for r in std::mem::take(&mut c.references_out) {
            if r == me {
                continue;
            }
            if existing.contains(&r) {
                keep.push(r);
            } else {
                c.unresolved_references.push(r.0);
            }
        }
        keep.sort();
        keep.dedup();
        c.unresolved_references.sort();
        c.unresolved_references.dedup();
        for r in &keep {
            incoming.entry(r.clone()).or_default().insert(me.clone());
        }
        c.references_out = keep;
    }
    for c in chunks.iter_mut() {
        c.references_in = incoming
            .get(&c.norm_ref())
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default();
    }
}

fn builtin_manifest() -> Option<&'static Manifest> {
    static M: OnceLock<Option<Manifest>> = OnceLock::new();
    M.get_or_init(|| Manifest::builtin().ok()).as_ref()
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Record {
    Report(IngestReport),
    Chunk(Box<Chunk>),
    ControlMapping(ControlMapping),
    Evidence(EvidenceItem),
}

impl Ingested {
    /// Counts per regulation / class / role / status / language, resolution
    /// rate, skipped files.
    pub fn stats(&self) -> CorpusStats {
        let mut s = CorpusStats {
            chunks: self.chunks.len(),
            norms: 0,
            files_ingested: self.report.files.len(),
            files_skipped: self.report.skipped.clone(),
            files_ignored: self.report.ignored,
            chunks_per_regulation: BTreeMap::new(),
            norms_per_regulation: BTreeMap::new(),
            per_class: BTreeMap::new(),
            per_role: BTreeMap::new(),
            per_role_rule: BTreeMap::new(),
            per_status: BTreeMap::new(),
            per_lang: BTreeMap::new(),
            superseded: BTreeMap::new(),
            references_resolved: 0,
            references_unresolved: 0,
            resolution_rate: 0.0,
            control_mappings: self.control_mappings.len(),
            evidence: self.evidence.len(),
        };
        let mut norms: BTreeSet<(&str, &str, Lang)> = BTreeSet::new();
        for c in &self.chunks {
            *s.chunks_per_regulation
                .entry(c.regulation.clone())
                .or_default() += 1;
            *s.per_class.entry(c.source_class.to_string()).or_default() += 1;
            *s.per_role.entry(c.source_role.to_string()).or_default() += 1;
            *s.per_role_rule.entry(c.role_rule.clone()).or_default() += 1;
            *s.per_status.entry(c.status.to_string()).or_default() += 1;
            *s.per_lang.entry(c.lang.to_string()).or_default() += 1;
            if let Some(by) = &c.superseded_by {
                s.superseded.insert(c.regulation.clone(), by.clone());
            }
            s.references_resolved += c.references_out.len();
            s.references_unresolved += c.unresolved_references.len();
            norms.insert((c.regulation.as_str(), c.norm.as_str(), c.lang));
        }
        s.norms = norms.len();
        for (reg, _, lang) in norms {
            *s.norms_per_regulation
                .entry(reg.to_string())
                .or_default()
                .entry(lang.to_string())
                .or_default() += 1;
        }
        let total = s.references_resolved + s.references_unresolved;
        s.resolution_rate = if total == 0 {
            0.0
        } else {
            s.references_resolved as f64 / total as f64
        };
        s
    }

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

    /// Save to a directory (`chunks.jsonl`, `control_mappings.jsonl`,
    /// `evidence.jsonl`, `report.json`) or, when `path` has a file extension,
    /// to one JSON Lines file of tagged records.
    pub fn save(&self, path: &Path) -> Result<(), CorpusError> {
        if is_dir_target(path) {
            std::fs::create_dir_all(path).map_err(|e| CorpusError::io(path, e))?;
            write_jsonl(&path.join("chunks.jsonl"), self.chunks.iter())?;
            write_jsonl(
                &path.join("control_mappings.jsonl"),
                self.control_mappings.iter(),
            )?;
            write_jsonl(&path.join("evidence.jsonl"), self.evidence.iter())?;
            let p = path.join("report.json");
            let s =
                serde_json::to_string_pretty(&self.report).map_err(|e| CorpusError::Format {
                    path: p.clone(),
                    line: 0,
                    message: e.to_string(),
                })?;
            std::fs::write(&p, s).map_err(|e| CorpusError::io(&p, e))
        } else {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| CorpusError::io(parent, e))?;
            }
            let recs = std::iter::once(Record::Report(self.report.clone()))
                .chain(
                    self.chunks
                        .iter()
                        .cloned()
                        .map(|c| Record::Chunk(Box::new(c))),
                )
                .chain(
                    self.control_mappings
                        .iter()
                        .cloned()
                        .map(Record::ControlMapping),
                )
                .chain(self.evidence.iter().cloned().map(Record::Evidence));
            let v: Vec<Record> = recs.collect();
            write_jsonl(path, v.iter())
        }
    }

    /// Load what [`Ingested::save`] wrote (directory or single file).
    pub fn load(path: &Path) -> Result<Ingested, CorpusError> {
        if path.is_dir() {
            let p = path.join("report.json");
            let s = std::fs::read_to_string(&p).map_err(|e| CorpusError::io(&p, e))?;
            let report = serde_json::from_str(&s).map_err(|e| CorpusError::Format {
                path: p.clone(),
                line: e.line(),
                message: e.to_string(),
            })?;
            Ok(Ingested {
                chunks: read_jsonl(&path.join("chunks.jsonl"))?,
                control_mappings: read_jsonl(&path.join("control_mappings.jsonl"))?,
                evidence: read_jsonl(&path.join("evidence.jsonl"))?,
                report,
            })
        } else {
            let mut out = Ingested::default();
            for r in read_jsonl::<Record>(path)? {
                match r {
                    Record::Report(x) => out.report = x,
                    Record::Chunk(c) => out.chunks.push(*c),
                    Record::ControlMapping(m) => out.control_mappings.push(m),
                    Record::Evidence(e) => out.evidence.push(e),
                }
            }
            Ok(out)
        }
    }
}

fn is_dir_target(path: &Path) -> bool {
    path.is_dir() || (!path.exists() && path.extension().is_none())
}

fn write_jsonl<'a, T: Serialize + 'a>(
    path: &Path,
    items: impl Iterator<Item = &'a T>,
) -> Result<(), CorpusError> {
    let f = std::fs::File::create(path).map_err(|e| CorpusError::io(path, e))?;
    let mut w = BufWriter::new(f);
    for (i, it) in items.enumerate() {
        serde_json::to_writer(&mut w, it).map_err(|e| CorpusError::Format {
            path: path.to_path_buf(),
            line: i + 1,
            message: e.to_string(),
        })?;
        w.write_all(b"\n").map_err(|e| CorpusError::io(path, e))?;
    }
    w.flush().map_err(|e| CorpusError::io(path, e))
}

fn read_jsonl<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>, CorpusError> {
    let f = std::fs::File::open(path).map_err(|e| CorpusError::io(path, e))?;
    let r = std::io::BufReader::with_capacity(1 << 20, f);
    let mut out = Vec::new();
    for (i, line) in r.lines().enumerate() {
        let line = line.map_err(|e| CorpusError::io(path, e))?;
        if line.trim().is_empty() {
            continue;
        }
        out.push(
            serde_json::from_str(&line).map_err(|e| CorpusError::Format {
                path: path.to_path_buf(),
                line: i + 1,
                message: e.to_string(),
            })?,
        );
    }
    Ok(out)
}

/// Role/class helpers for callers that want the control pool.
pub fn is_control_chunk(c: &Chunk) -> bool {
    c.source_role.in_control_pool()
        || c.source_class == SourceClass::ControlStandard
        || c.source_role == SourceRole::ControlStandard
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_labels() {
        assert_eq!(mapping_label("32").as_deref(), Some("Art. 32"));
        assert_eq!(mapping_label("21(2)").as_deref(), Some("Art. 21"));
        assert_eq!(mapping_label("4a").as_deref(), Some("Art. 4a"));
        assert_eq!(mapping_label("Annex III").as_deref(), Some("Anhang III"));
        assert_eq!(mapping_label("Recital 26").as_deref(), Some("ErwG 26"));
        assert_eq!(mapping_label("Article 5").as_deref(), Some("Art. 5"));
        assert_eq!(mapping_label("whatever"), None);
    }

    fn chunk(reg: &str, norm: &str, refs: &[&str]) -> Chunk {
        let mut c = Chunk::new(reg, norm, String::new(), Lang::De, "x");
        c.references_out = refs.iter().map(|r| NormRef(r.to_string())).collect();
        c
    }

    #[test]
    fn graph_inverts_and_checks_existence() {
        let mut cs = vec![
            chunk(
                "BDSG",
                "§ 38",
                &["Art. 37 DSGVO", "§ 38 BDSG", "Art. 999 DSGVO"],
            ),
            chunk("DSGVO", "Art. 37", &[]),
        ];
        build_graph(&mut cs);
        assert_eq!(cs[0].references_out, vec![NormRef("Art. 37 DSGVO".into())]);
        assert_eq!(
            cs[0].unresolved_references,
            vec!["Art. 999 DSGVO".to_string()]
        );
        assert_eq!(cs[1].references_in, vec![NormRef("§ 38 BDSG".into())]);
        assert!(cs[0].references_in.is_empty());
    }
}
