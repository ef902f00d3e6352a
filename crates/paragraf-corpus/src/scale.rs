//! Scale run: stream the archive of all federal laws
//! (`scale/gii-all-federal-law.tar.zst`, 6,877 XML laws) through the gii
//! parser, chunking and reference extraction in parallel, without keeping
//! the chunks, and report throughput and peak memory.
//!
//! One reader thread decompresses (zstd) and untars into a bounded channel;
//! rayon workers parse. The regulation of a law is its `amtabk`, else its
//! `jurabk`, else the file stem; metadata comes from the manifest when the
//! law is in it, else the defaults of a German statute in force.

use crate::error::CorpusError;
use crate::manifest::{Manifest, SourceEntry};
use crate::parsers::{gii, SourceFormat};
use crate::pipeline::{build_chunks, IngestOptions};
use paragraf_types::{Chunk, Lang, SourceClass, SourceRole};
use rayon::iter::{ParallelBridge, ParallelIterator};
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::Path;
use std::sync::mpsc::sync_channel;
use std::time::Instant;

/// Figures of one scale run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct ScaleReport {
    pub archive: String,
    /// XML files read from the archive.
    pub files: usize,
    /// Files that failed to parse (skipped; the run continues).
    pub files_failed: usize,
    /// The first failures with their reasons.
    pub failures: Vec<String>,
    pub bytes_compressed: u64,
    pub bytes_uncompressed: u64,
    pub norms: usize,
    pub chunks: usize,
    /// Resolved + unresolved references found.
    pub references: usize,
    pub seconds: f64,
    /// Uncompressed MB (10^6 bytes) per second.
    pub mb_per_s: f64,
    pub chunks_per_s: f64,
    /// Peak resident set size (VmHWM of /proc/self/status), KiB; 0 where unknown.
    pub peak_rss_kib: u64,
    pub threads: usize,
}

#[derive(Default)]
struct Acc {
    /// With `keep`: the chunks of each file, by file name.
    kept: Vec<(String, Vec<Chunk>)>,
    /// With `keep`: (regulation, long title) of each kept law.
    titles: Vec<(String, String)>,
    files: usize,
    failed: Vec<String>,
    failed_n: usize,
    bytes: u64,
    norms: usize,
    chunks: usize,
    refs: usize,
}

impl Acc {
    fn merge(mut self, o: Acc) -> Acc {
        self.kept.extend(o.kept);
        self.titles.extend(o.titles);
        self.files += o.files;
        self.failed_n += o.failed_n;
        self.failed.extend(o.failed);
        self.failed.sort();
        self.failed.truncate(20);
        self.bytes += o.bytes;
        self.norms += o.norms;
        self.chunks += o.chunks;
        self.refs += o.refs;
        self
    }
}

/// Stream a `.tar.zst` of gii XML files through parsing and chunking.
pub fn ingest_archive(path: &Path, opts: &IngestOptions) -> Result<ScaleReport, CorpusError> {
    run_archive(path, opts, None).map(|(r, _)| r)
}

/// `(regulation, title)` of each kept law.
pub type LawTitlePairs = Vec<(String, String)>;

/// What [`archive_chunks`] keeps and how it labels a law.
pub struct ArchiveSelection<'a> {
    /// Whether a law (by canonical regulation name) is kept.
    pub keep: &'a (dyn Fn(&str) -> bool + Sync),
    /// The domains of a law from its long title (`<langue>`; the
    /// regulation name where it has none).
    pub domains: &'a (dyn Fn(&str) -> Vec<paragraf_types::Domain> + Sync),
}

/// The chunks of every law of the archive that `select` keeps (e.g. not one
/// of the curated corpus), in archive-file order (file name, then norm
/// order: the same archive gives the same list), with the run's figures and
/// each kept law's long and short title (`(regulation, title)`, sorted). A
/// law is German binding law in force unless the manifest says otherwise;
/// its domains come from `select.domains` of its long title.
pub fn archive_chunks(
    path: &Path,
    opts: &IngestOptions,
    select: &ArchiveSelection<'_>,
) -> Result<(ScaleReport, Vec<Chunk>, LawTitlePairs), CorpusError> {
    let (report, acc) = run_archive(path, opts, Some(select))?;
    let mut kept = acc.kept;
    kept.sort_by(|a, b| a.0.cmp(&b.0));
    let mut titles = acc.titles;
    titles.sort();
    titles.dedup();
    Ok((
        report,
        kept.into_iter().flat_map(|(_, c)| c).collect(),
        titles,
    ))
}

fn run_archive(
    path: &Path,
    opts: &IngestOptions,
    keep: Option<&ArchiveSelection<'_>>,
) -> Result<(ScaleReport, Acc), CorpusError> {
    let manifest = match &opts.manifest {
        Some(p) => Manifest::load(p)?,
        None => Manifest::builtin()?,
    };
    let start = Instant::now();
    let compressed = std::fs::metadata(path)
        .map_err(|e| CorpusError::io(path, e))?
        .len();
    let file = std::fs::File::open(path).map_err(|e| CorpusError::io(path, e))?;
    let (tx, rx) = sync_channel::<(String, Vec<u8>)>(64);
    let archive_path = path.to_path_buf();
    let reader = std::thread::spawn(move || -> Result<(), CorpusError> {
        let dec = zstd::stream::read::Decoder::new(file)
            .map_err(|e| CorpusError::io(&archive_path, e))?;
        let mut ar = tar::Archive::new(dec);
        let entries = ar
            .entries()
            .map_err(|e| CorpusError::io(&archive_path, e))?;
        for entry in entries {
            let mut entry = entry.map_err(|e| CorpusError::io(&archive_path, e))?;
            if !entry.header().entry_type().is_file() {
                continue;
            }
            let name = entry
                .path()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !name.ends_with(".xml") {
                continue;
            }
            let mut buf = Vec::with_capacity(entry.size() as usize);
            entry
                .read_to_end(&mut buf)
                .map_err(|e| CorpusError::io(archive_path.join(&name), e))?;
            if tx.send((name, buf)).is_err() {
                break;
            }
        }
        Ok(())
    });

    let max_tokens = opts.max_tokens;
    let mut acc = rx
        .into_iter()
        .par_bridge()
        .map(|(name, bytes)| process(&name, &bytes, &manifest, max_tokens, keep))
        .reduce(Acc::default, Acc::merge);
    match reader.join() {
        Ok(r) => r?,
        Err(_) => {
            return Err(CorpusError::Format {
                path: path.to_path_buf(),
                line: 0,
                message: "archive reader thread panicked".into(),
            })
        }
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let report = ScaleReport {
        archive: path.display().to_string(),
        files: acc.files,
        files_failed: acc.failed_n,
        failures: std::mem::take(&mut acc.failed),
        bytes_compressed: compressed,
        bytes_uncompressed: acc.bytes,
        norms: acc.norms,
        chunks: acc.chunks,
        references: acc.refs,
        seconds,
        mb_per_s: acc.bytes as f64 / 1e6 / seconds,
        chunks_per_s: acc.chunks as f64 / seconds,
        peak_rss_kib: peak_rss_kib(),
        threads: rayon::current_num_threads(),
    };
    Ok((report, acc))
}

fn process(
    name: &str,
    bytes: &[u8],
    manifest: &Manifest,
    max_tokens: usize,
    keep: Option<&ArchiveSelection<'_>>,
) -> Acc {
    let mut acc = Acc {
        files: 1,
        bytes: bytes.len() as u64,
        ..Default::default()
    };
    match gii::parse_law(name, bytes) {
        Err(e) => {
            acc.failed_n = 1;
            acc.failed.push(e.to_string());
        }
        Ok(law) => {
            let stem = name
                .rsplit('/')
                .next()
                .unwrap_or(name)
                .trim_end_matches(".xml");
            let raw_name = law
                .amtabk
                .clone()
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| {
                    if law.jurabk.is_empty() {
                        stem.to_string()
                    } else {
                        law.jurabk.clone()
                    }
                });
            let regulation = manifest
                .canonical_regulation(&raw_name)
                .map(str::to_string)
                .unwrap_or(raw_name);
            let src = SourceEntry {
                path: name.to_string(),
                format: SourceFormat::GiiXml,
                regulation: Some(regulation.clone()),
                lang: Lang::De,
                source_class: SourceClass::BindingLaw,
                default_role: SourceRole::Obligation,
                url: None,
                note: None,
            };
            acc.norms = law.norms.len();
            let kept = keep.filter(|k| (k.keep)(&regulation));
            let domains = match kept {
                Some(k) if manifest.domains(&regulation).is_empty() => {
                    (k.domains)(if law.title.trim().is_empty() {
                        &regulation
                    } else {
                        &law.title
                    })
                }
                _ => Vec::new(),
            };
            let mut all = Vec::new();
            for n in &law.norms {
                let cs = build_chunks(n, &regulation, &src, name, manifest, max_tokens);
                acc.chunks += cs.len();
                acc.refs += cs
                    .iter()
                    .map(|c| c.references_out.len() + c.unresolved_references.len())
                    .sum::<usize>();
                if kept.is_some() {
                    all.extend(cs.into_iter().map(|mut c| {
                        if c.domains.is_empty() {
                            c.domains = domains.clone();
                        }
                        c
                    }));
                }
            }
            if kept.is_some() {
                acc.kept.push((name.to_string(), all));
                acc.titles
                    .extend(law.titles().into_iter().map(|t| (regulation.clone(), t)));
            }
        }
    }
    acc
}

/// Peak resident set size of this process in KiB (Linux `VmHWM`), 0 elsewhere.
pub fn peak_rss_kib() -> u64 {
    paragraf_types::memory::peak_rss_kib().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_a_small_archive() {
        let dir = tempfile::tempdir().unwrap();
        let tar_path = dir.path().join("laws.tar.zst");
        let xml = br#"<dokumente><norm><metadaten><jurabk>TG</jurabk></metadaten></norm><norm><metadaten><enbez>&#167; 1</enbez><titel>T</titel></metadaten><textdaten><text><Content><P>(1) Es gilt Art. 5 DSGVO.</P></Content></text></textdaten></norm></dokumente>"#;
        {
            let f = std::fs::File::create(&tar_path).unwrap();
            let enc = zstd::stream::write::Encoder::new(f, 3)
                .unwrap()
                .auto_finish();
            let mut b = tar::Builder::new(enc);
            for (name, data) in [("a.xml", &xml[..]), ("b.xml", &b"<broken"[..])] {
                let mut h = tar::Header::new_gnu();
                h.set_size(data.len() as u64);
                h.set_mode(0o644);
                h.set_cksum();
                b.append_data(&mut h, name, data).unwrap();
            }
            b.finish().unwrap();
        }
        let r = ingest_archive(&tar_path, &IngestOptions::default()).unwrap();
        assert_eq!(r.files, 2);
        assert_eq!(r.files_failed, 1);
        assert!(r.failures[0].starts_with("b.xml"), "{:?}", r.failures);
        assert_eq!(r.norms, 1);
        assert_eq!(r.chunks, 1);
        assert_eq!(r.references, 1);
    }
}
