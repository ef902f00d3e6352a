//! `paragraf index build`: ingest → embed (resumable) → HNSW → inverted →
//! write, with a progress callback per stage.

use crate::EngineError;
use paragraf_corpus::{ingest, IngestOptions};
use paragraf_index::{
    text_hash, write_index, AnalyzerConfig, CheckpointEntry, CorpusExtras, DenseIndex,
    EmbedderMeta, EmbeddingCheckpoint, HeadingEntry, HeadingVectors, HnswParams, IndexManifest,
    InvertedIndex,
};
use paragraf_models::{load_embedder, DeviceChoice, Embedder, Registry, ResolveOptions, TextKind};
use paragraf_types::{Chunk, Lang, NormRef};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Instant;

/// Regulations of the core set that `paragraf quickstart` indexes on a
/// CPU-only machine, where embedding the whole corpus (~13k chunks) takes
/// about an hour: the binding text of the central data-protection, cyber and
/// AI laws, German where a German text exists (recitals and the English GDPR
/// text are left to a full build).
pub const CORE_REGULATIONS: &[&str] = &["DSGVO", "BDSG", "TDDDG", "BSIG", "NIS2", "CRA", "KI-VO"];

/// Whether a chunk belongs to the core set (see [`CORE_REGULATIONS`]).
pub fn in_core(c: &Chunk) -> bool {
    CORE_REGULATIONS.contains(&c.regulation.as_str())
        && c.source_class == paragraf_types::SourceClass::BindingLaw
        && !(c.regulation == "DSGVO" && c.lang != paragraf_types::Lang::De)
}

/// How to build an index.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub corpus: PathBuf,
    pub out: PathBuf,
    pub embedder: String,
    pub registry: Registry,
    pub resolve: ResolveOptions,
    pub device: DeviceChoice,
    /// Passages per embedding call.
    pub batch_size: usize,
    pub hnsw: HnswParams,
    /// Store dense vectors as f16 on disk.
    pub f16: bool,
    /// Index only these regulations (canonical names); `None` = everything.
    pub only_regulations: Option<Vec<String>>,
    /// Index only the core set ([`in_core`]).
    pub core_only: bool,
    pub ingest: IngestOptions,
    /// Where finished embedding batches are kept so that an interrupted build
    /// resumes; default `<out>.embeddings`.
    pub checkpoint: Option<PathBuf>,
    /// Fail (before embedding anything) when a corpus file was left out.
    pub strict: bool,
    /// Also embed every norm heading on its own (the heading-vector
    /// channel, `headingWeight`).
    pub heading_vectors: bool,
    /// `index build --scale`: the archive of all federal law
    /// (`scale/gii-all-federal-law.tar.zst`); every law the curated corpus
    /// does not hold joins the index as the lexical tier (BM25, headings,
    /// references), after the curated chunks.
    pub scale: Option<PathBuf>,
    /// With `scale`: embed the archive's chunks too (resumable through the
    /// checkpoint; minutes on a GPU, most of a day on 2 CPU cores). Without
    /// it only the curated chunks have vectors.
    pub embed_scale: bool,
}

/// Passages per embedding call unless a build says otherwise (`index build
/// --batch-size`).
pub const DEFAULT_BATCH_SIZE: usize = 16;

impl BuildOptions {
    /// A build of `corpus` into `out` with the embedder `embedder`, every
    /// other option at its default: the device chosen automatically,
    /// [`DEFAULT_BATCH_SIZE`], default HNSW parameters, f32 vectors, the
    /// whole corpus, no heading vectors, no archive tier, files that fail to
    /// parse listed rather than fatal.
    pub fn new(
        corpus: PathBuf,
        out: PathBuf,
        embedder: impl Into<String>,
        registry: Registry,
        resolve: ResolveOptions,
    ) -> BuildOptions {
        BuildOptions {
            corpus,
            out,
            embedder: embedder.into(),
            registry,
            resolve,
            device: DeviceChoice::Auto,
            batch_size: DEFAULT_BATCH_SIZE,
            hnsw: HnswParams::default(),
            f16: false,
            only_regulations: None,
            core_only: false,
            ingest: IngestOptions::default(),
            checkpoint: None,
            strict: false,
            heading_vectors: false,
            scale: None,
            embed_scale: false,
        }
    }
}

/// Progress of a build, for progress bars.
#[derive(Debug, Clone)]
pub enum BuildEvent {
    /// A stage starts; `total` units of work (0 = unknown).
    Stage { name: &'static str, total: u64 },
    /// `done` units of the current stage are finished.
    Progress { name: &'static str, done: u64 },
    /// A stage ended after `ms` milliseconds.
    StageDone { name: &'static str, ms: f64 },
}

/// What a build did.
#[derive(Debug, Clone, Serialize)]
pub struct BuildReport {
    pub out: String,
    pub chunks: usize,
    pub embedded: usize,
    pub reused_from_checkpoint: usize,
    pub truncated: usize,
    pub stage_ms: BTreeMap<String, f64>,
    pub size_bytes: u64,
    /// Corpus files left out (also in the manifest).
    pub skipped_files: Vec<paragraf_index::SkippedSource>,
}

/// The text a chunk is embedded with: citation and title give the model the
/// norm's identity, then the text.
pub fn passage_text(c: &Chunk) -> String {
    let mut s = String::with_capacity(c.text.len() + 64);
    s.push_str(&c.citation);
    if !c.title.is_empty() {
        s.push_str(" – ");
        s.push_str(&c.title);
    }
    s.push('\n');
    s.push_str(&c.text);
    s
}

/// The text a chunk is indexed with for BM25: its `passage` text
/// ([`passage_text`]) with the heading written `heading_weight` times in all
/// (a BM25F heading field, `Bm25Params::heading_weight`).
pub fn lexical_text(c: &Chunk, passage: String, heading_weight: u32) -> String {
    if c.title.is_empty() || heading_weight <= 1 {
        return passage;
    }
    let extra = heading_weight as usize - 1;
    let mut s = String::with_capacity(passage.len() + extra * (c.title.len() + 1));
    for _ in 0..extra {
        s.push_str(&c.title);
        s.push('\n');
    }
    s.push_str(&passage);
    s
}

/// The text a norm heading is embedded with: the heading as the law writes
/// it (`Recht auf Löschung („Recht auf Vergessenwerden“)`), without the
/// norm's label, whose number would match numbers in a question.
pub fn heading_text(_norm: &NormRef, title: &str) -> String {
    title.trim().to_string()
}

/// Every norm heading of the chunks, once per norm and language, in chunk
/// order (German and English variants of one norm give two entries).
pub fn norm_headings(chunks: &[Chunk]) -> Vec<HeadingEntry> {
    let mut seen: BTreeSet<(NormRef, Lang)> = BTreeSet::new();
    let mut out = Vec::new();
    for c in chunks {
        if c.title.trim().is_empty() || !seen.insert((c.norm_ref(), c.lang)) {
            continue;
        }
        out.push(HeadingEntry {
            norm: c.norm_ref().0,
            lang: c.lang,
            text: heading_text(&c.norm_ref(), &c.title),
        });
    }
    out
}

/// Checkpoint key of a heading vector (never a chunk id: those hold no `#`).
fn heading_key(h: &HeadingEntry) -> String {
    format!("{}#heading@{}", h.norm, h.lang.as_str())
}

/// What [`embed_resumable`] produced.
pub(crate) struct Embedded {
    /// `texts.len() × dim` values.
    pub vectors: Vec<f32>,
    /// Learned-sparse weights per text (empty without a sparse head).
    sparse: Vec<Vec<(u32, f32)>>,
    reused: usize,
    /// Texts embedded in this run.
    todo: usize,
    truncated: usize,
}

/// Embed `texts` as passages, reusing what the checkpoint holds for the
/// same id and text and appending every finished batch to it, so that an
/// interrupted build resumes. Progress is reported as stage `stage`.
pub(crate) fn embed_resumable<S: AsRef<str>>(
    embedder: &dyn Embedder,
    ckpt: &mut EmbeddingCheckpoint,
    ids: &[String],
    texts: &[S],
    batch_size: usize,
    stage: &'static str,
    progress: &dyn Fn(BuildEvent),
) -> Result<Embedded, EngineError> {
    let info = embedder.info().clone();
    let dim = info.dim;
    let hashes: Vec<[u8; 32]> = texts.iter().map(|s| text_hash(s.as_ref())).collect();
    let mut vectors = vec![0f32; texts.len() * dim];
    let mut sparse: Vec<Vec<(u32, f32)>> = vec![Vec::new(); texts.len()];
    let mut todo: Vec<usize> = Vec::new();
    let mut reused = 0usize;
    for i in 0..texts.len() {
        // the checkpoint keeps dense vectors only: an embedder with sparse
        // weights re-embeds (its sparse vectors are needed for the index)
        match ckpt.get(&ids[i], &hashes[i]).filter(|_| !info.has_sparse) {
            Some(v) => {
                vectors[i * dim..(i + 1) * dim].copy_from_slice(v);
                reused += 1;
            }
            None => todo.push(i),
        }
    }
    progress(BuildEvent::Stage {
        name: stage,
        total: texts.len() as u64,
    });
    progress(BuildEvent::Progress {
        name: stage,
        done: reused as u64,
    });
    // longest first inside the embedder's batching; here batches of similar length
    todo.sort_by_key(|&i| (std::cmp::Reverse(texts[i].as_ref().len()), i));
    let mut truncated = 0usize;
    let mut done = reused as u64;
    for batch in todo.chunks(batch_size.max(1)) {
        let refs: Vec<&str> = batch.iter().map(|&i| texts[i].as_ref()).collect();
        let out = embedder.embed(&refs, TextKind::Passage)?;
        truncated += out.truncated;
        let mut entries = Vec::with_capacity(batch.len());
        for (&i, e) in batch.iter().zip(out.embeddings) {
            if e.dense.len() != dim {
                return Err(EngineError::Other(format!(
                    "embedder {} returned {} dims, expected {dim}",
                    info.name,
                    e.dense.len()
                )));
            }
            vectors[i * dim..(i + 1) * dim].copy_from_slice(&e.dense);
            sparse[i] = e.sparse.unwrap_or_default();
            entries.push(CheckpointEntry {
                id: ids[i].clone(),
                text_hash: hashes[i],
                vector: e.dense,
            });
        }
        ckpt.append(&entries)?;
        done += batch.len() as u64;
        progress(BuildEvent::Progress { name: stage, done });
    }
    Ok(Embedded {
        vectors,
        sparse,
        reused,
        todo: todo.len(),
        truncated,
    })
}

/// Appends the archive's laws that `chunks` (the curated corpus) does not
/// hold: a curated regulation is never shadowed by the archive's copy (its
/// current and superseded versions keep their own status), and a chunk id
/// seen before is dropped (two archive files with one abbreviation).
fn add_archive(
    chunks: &mut Vec<Chunk>,
    archive: &std::path::Path,
    ingest: &IngestOptions,
    titles: &mut Vec<(String, String)>,
) -> Result<paragraf_index::ScaleTier, EngineError> {
    let curated: BTreeSet<String> = chunks.iter().map(|c| c.regulation.clone()).collect();
    // a law's domains from its long title, by the lexicon that reads
    // questions (one definition of what names a domain)
    let lexicon = paragraf_rank::Lexicon::builtin();
    let domains = |title: &str| paragraf_rank::analyze_query(title, &[], lexicon).domains;
    let select = paragraf_corpus::scale::ArchiveSelection {
        keep: &|r| !curated.contains(r),
        domains: &domains,
    };
    let (report, extra, archive_titles) =
        paragraf_corpus::scale::archive_chunks(archive, ingest, &select)?;
    titles.extend(archive_titles);
    let mut seen: std::collections::HashSet<String> =
        chunks.iter().map(|c| c.id.as_str().to_string()).collect();
    let before = extra.len();
    let mut laws = BTreeSet::new();
    let mut added = 0usize;
    for c in extra {
        if seen.insert(c.id.as_str().to_string()) {
            laws.insert(c.regulation.clone());
            chunks.push(c);
            added += 1;
        }
    }
    // the norm graph over both tiers: a reference to an archive norm now
    // resolves, and `references_in` (the seed's citationGain) counts the
    // citing norms of every law
    paragraf_corpus::assemble::build_graph(chunks);
    Ok(paragraf_index::ScaleTier {
        archive: archive
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        archive_files: report.files,
        files_failed: report.files_failed,
        laws: laws.len(),
        chunks: added,
        duplicate_ids_dropped: before - added,
        curated_regulations_kept: curated.len(),
    })
}

/// Each indexed law's titles, as written: for a curated law the manifest's
/// title and names and the titles its gii file gives (`gii`: the ingest
/// report's `(regulation, title)`), for an archive law its long and short
/// title. Sorted by regulation; what the law-title signal reads
/// (`paragraf_rank::law_title_variants`).
fn law_titles(
    chunks: &[Chunk],
    manifest: &paragraf_corpus::Manifest,
    gii: Vec<(String, String)>,
    archive: Vec<(String, String)>,
) -> Vec<paragraf_index::LawTitles> {
    let mut by_law: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut add = |law: &str, title: &str| {
        let v = by_law.entry(law.to_string()).or_default();
        let t = title.trim();
        if !t.is_empty() && !v.iter().any(|x| x == t) {
            v.push(t.to_string());
        }
    };
    // only laws with chunks in the index (a filtered build, an archive
    // file without norms)
    let indexed: BTreeSet<&str> = chunks.iter().map(|c| c.regulation.as_str()).collect();
    for law in &indexed {
        if let Some(r) = manifest.regulation(law) {
            add(law, &r.title);
            for a in &r.aliases {
                add(law, a);
            }
        }
    }
    for (law, title) in gii.into_iter().chain(archive) {
        if indexed.contains(law.as_str()) {
            add(&law, &title);
        }
    }
    by_law
        .into_iter()
        .map(|(regulation, titles)| paragraf_index::LawTitles { regulation, titles })
        .collect()
}

/// Build an index directory: ingest (and the archive tier with `--scale`)
/// → embed (resumable) and the heading vectors → HNSW → inverted → write.
pub fn build_index(
    opts: &BuildOptions,
    progress: &dyn Fn(BuildEvent),
) -> Result<BuildReport, EngineError> {
    let mut stage_ms = BTreeMap::new();
    let corpus = ingest_stage(opts, progress, &mut stage_ms)?;
    let chunks = &corpus.chunks;
    let (embedded, headings, info, mut texts) =
        embed_stage(opts, &corpus, progress, &mut stage_ms)?;
    let dim = info.dim;
    let Embedded {
        vectors,
        mut sparse,
        reused,
        todo,
        truncated,
    } = embedded;
    // the lexical tier has no learned-sparse weights either
    sparse.resize(chunks.len(), Vec::new());

    let t = Instant::now();
    progress(BuildEvent::Stage {
        name: "hnsw",
        total: chunks.len() as u64,
    });
    let dense = DenseIndex::build(vectors, dim, &opts.hnsw)?;
    let ms = t.elapsed().as_secs_f64() * 1e3;
    stage_ms.insert("hnsw".into(), ms);
    progress(BuildEvent::StageDone { name: "hnsw", ms });

    let t = Instant::now();
    progress(BuildEvent::Stage {
        name: "inverted",
        total: chunks.len() as u64,
    });
    let analyzer = AnalyzerConfig::default();
    // BM25 reads the embedded text with its heading weighted, replaced in
    // place (one text at a time: a scale build holds ~170k)
    if analyzer.bm25.heading_weight > 1 {
        for (t, c) in texts.iter_mut().zip(chunks) {
            *t = lexical_text(c, std::mem::take(t), analyzer.bm25.heading_weight);
        }
    }
    let bodies: Vec<&str> = texts.iter().map(|s| s.as_str()).collect();
    let has_sparse = info.has_sparse;
    let inverted = InvertedIndex::build(
        &bodies,
        if has_sparse { Some(&sparse) } else { None },
        &analyzer,
    )?;
    let ms = t.elapsed().as_secs_f64() * 1e3;
    stage_ms.insert("inverted".into(), ms);
    progress(BuildEvent::StageDone {
        name: "inverted",
        ms,
    });

    let t = Instant::now();
    progress(BuildEvent::Stage {
        name: "write",
        total: 0,
    });
    let mut manifest = IndexManifest::new(
        corpus.corpus_hash,
        EmbedderMeta {
            name: info.name.clone(),
            revision: info.revision.clone(),
            dim,
            dtype: info.dtype.clone(),
        },
        analyzer,
        opts.hnsw.clone(),
    );
    if opts.f16 {
        manifest.vector_dtype = paragraf_index::VectorDtype::F16;
    }
    manifest.skipped_sources = corpus.skipped.clone();
    manifest.core_only = opts.core_only;
    manifest.scale = corpus.scale;
    let extras = CorpusExtras {
        mappings: corpus.control_mappings,
        evidence: corpus.evidence,
        laws: law_titles(
            chunks,
            &corpus.title_manifest,
            corpus.gii_titles,
            corpus.archive_titles,
        ),
    };
    let written = write_index(
        &opts.out, &manifest, chunks, &extras, &dense, &inverted, &headings,
    )?;
    let size_bytes: u64 = written.files.values().map(|f| f.bytes).sum();
    let ms = t.elapsed().as_secs_f64() * 1e3;
    stage_ms.insert("write".into(), ms);
    progress(BuildEvent::StageDone { name: "write", ms });

    Ok(BuildReport {
        out: opts.out.display().to_string(),
        chunks: chunks.len(),
        embedded: todo,
        reused_from_checkpoint: reused,
        truncated,
        stage_ms,
        size_bytes,
        skipped_files: corpus.skipped,
    })
}

/// What the ingest stage hands on: the chunks to index and what the
/// manifest and the extras record about them.
struct IngestedCorpus {
    chunks: Vec<Chunk>,
    skipped: Vec<paragraf_index::SkippedSource>,
    /// Law titles the GII files state, (regulation, title).
    gii_titles: Vec<(String, String)>,
    /// Law titles of the archive tier (`--scale`).
    archive_titles: Vec<(String, String)>,
    title_manifest: paragraf_corpus::Manifest,
    scale: Option<paragraf_index::ScaleTier>,
    corpus_hash: String,
    control_mappings: Vec<paragraf_types::ControlMapping>,
    evidence: Vec<paragraf_types::EvidenceItem>,
}

/// Ingest the corpus (with `--strict`, a file left out is an error), keep
/// the regulations asked for, add the archive tier (`--scale`), and hash
/// the chunks.
fn ingest_stage(
    opts: &BuildOptions,
    progress: &dyn Fn(BuildEvent),
    stage_ms: &mut BTreeMap<String, f64>,
) -> Result<IngestedCorpus, EngineError> {
    let t = Instant::now();
    progress(BuildEvent::Stage {
        name: "ingest",
        total: 0,
    });
    let ingested = ingest(&opts.corpus, &opts.ingest, None)?;
    let skipped: Vec<paragraf_index::SkippedSource> = ingested
        .report
        .skipped
        .iter()
        .map(|s| paragraf_index::SkippedSource {
            path: s.path.clone(),
            reason: s.reason.clone(),
        })
        .collect();
    if opts.strict && !skipped.is_empty() {
        return Err(EngineError::SkippedSources(skipped));
    }
    let gii_titles: Vec<(String, String)> = ingested
        .report
        .files
        .iter()
        .filter_map(|f| f.regulation.as_ref().map(|r| (r, &f.titles)))
        .flat_map(|(r, ts)| ts.iter().map(move |t| (r.clone(), t.clone())))
        .collect();
    let title_manifest = match &opts.ingest.manifest {
        Some(p) => paragraf_corpus::Manifest::load(p)?,
        None => paragraf_corpus::Manifest::builtin()?,
    };
    let mut chunks = ingested.chunks;
    if let Some(only) = &opts.only_regulations {
        chunks.retain(|c| only.iter().any(|r| r == &c.regulation));
    }
    if opts.core_only {
        chunks.retain(in_core);
    }
    let mut archive_titles = Vec::new();
    let scale = match &opts.scale {
        Some(archive) if !chunks.is_empty() => {
            let t = Instant::now();
            progress(BuildEvent::Stage {
                name: "scale",
                total: 0,
            });
            let tier = add_archive(&mut chunks, archive, &opts.ingest, &mut archive_titles)?;
            let ms = t.elapsed().as_secs_f64() * 1e3;
            stage_ms.insert("scale".into(), ms);
            progress(BuildEvent::StageDone { name: "scale", ms });
            Some(tier)
        }
        _ => None,
    };
    if chunks.is_empty() {
        return Err(EngineError::Other(format!(
            "the corpus at {} gave no chunks to index{}",
            opts.corpus.display(),
            if opts.only_regulations.is_some() || opts.core_only {
                " (after the regulation filter)"
            } else {
                ""
            }
        )));
    }
    let corpus_hash = {
        let mut h = Sha256::new();
        for c in &chunks {
            h.update(c.id.as_str().as_bytes());
            h.update([0]);
            h.update(c.text.as_bytes());
            h.update([0]);
        }
        hex::encode(h.finalize())
    };
    let ms = t.elapsed().as_secs_f64() * 1e3;
    stage_ms.insert("ingest".into(), ms);
    progress(BuildEvent::StageDone { name: "ingest", ms });
    Ok(IngestedCorpus {
        chunks,
        skipped,
        gii_titles,
        archive_titles,
        title_manifest,
        scale,
        corpus_hash,
        control_mappings: ingested.control_mappings,
        evidence: ingested.evidence,
    })
}

/// Embed the chunks (the curated tier, or everything with
/// `--embed-scale`), resumable from the checkpoint, then the heading
/// vectors (opt-in; always with `--scale`). Returns the embeddings, the
/// heading vectors, the embedder's description and every chunk's passage
/// text.
fn embed_stage(
    opts: &BuildOptions,
    corpus: &IngestedCorpus,
    progress: &dyn Fn(BuildEvent),
    stage_ms: &mut BTreeMap<String, f64>,
) -> Result<
    (
        Embedded,
        HeadingVectors,
        paragraf_models::EmbedderInfo,
        Vec<String>,
    ),
    EngineError,
> {
    let chunks = &corpus.chunks;
    let t = Instant::now();
    let device = crate::models::open_device(opts.device);
    let embedder = load_embedder(&opts.registry, &opts.embedder, &opts.resolve, &device)?;
    let info = embedder.info().clone();
    let ckpt_path = opts.checkpoint.clone().unwrap_or_else(|| {
        let mut p = opts.out.clone().into_os_string();
        p.push(format!(".{}.embeddings", info.name));
        PathBuf::from(p)
    });
    let mut ckpt = EmbeddingCheckpoint::open(&ckpt_path, info.dim)?;
    let texts: Vec<String> = chunks.iter().map(passage_text).collect();
    let ids: Vec<String> = chunks.iter().map(|c| c.id.as_str().to_string()).collect();
    let dim = info.dim;
    // the embedded tier: everything, or the curated chunks before the archive's
    let dense_n = match &corpus.scale {
        Some(tier) if !opts.embed_scale => chunks.len() - tier.chunks,
        _ => chunks.len(),
    };
    let embedded = embed_resumable(
        embedder.as_ref(),
        &mut ckpt,
        &ids[..dense_n],
        &texts[..dense_n],
        opts.batch_size,
        "embed",
        progress,
    )?;
    let ms = t.elapsed().as_secs_f64() * 1e3;
    stage_ms.insert("embed".into(), ms);
    progress(BuildEvent::StageDone { name: "embed", ms });

    // heading vectors (opt-in; always with --scale, where the archive's
    // headings are the lexical tier's cheap dense signal: one short text per
    // norm instead of every chunk): one per norm heading and language
    let headings = if opts.heading_vectors || corpus.scale.is_some() {
        let t = Instant::now();
        let heads = norm_headings(chunks);
        let head_ids: Vec<String> = heads.iter().map(heading_key).collect();
        let head_texts: Vec<String> = heads.iter().map(|h| h.text.clone()).collect();
        let out = embed_resumable(
            embedder.as_ref(),
            &mut ckpt,
            &head_ids,
            &head_texts,
            opts.batch_size,
            "headings",
            progress,
        )?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        stage_ms.insert("headings".into(), ms);
        progress(BuildEvent::StageDone {
            name: "headings",
            ms,
        });
        HeadingVectors::new(heads, out.vectors, dim)?
    } else {
        HeadingVectors::default()
    };
    ckpt.flush()?;
    Ok((embedded, headings, info, texts))
}

/// The manifest of the index at `dir` (what `index info` prints).
pub fn index_manifest(dir: &std::path::Path) -> Result<IndexManifest, EngineError> {
    Ok(paragraf_index::read_manifest(dir, None)?)
}

/// Every file of the index at `dir` checked against the manifest's
/// checksums (`index info --verify`); a mismatch is [`IndexError::Corrupt`].
///
/// [`IndexError::Corrupt`]: paragraf_index::IndexError::Corrupt
pub fn verify_index(dir: &std::path::Path) -> Result<paragraf_index::VerifyReport, EngineError> {
    Ok(paragraf_index::verify_index(dir, None)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use paragraf_types::Lang;

    #[test]
    fn the_heading_weighs_in_the_lexical_text_only() {
        let mut c = Chunk::new(
            "HinSchG",
            "§ 8",
            "Die Meldestellen haben die Vertraulichkeit zu wahren.".into(),
            Lang::De,
            "x.xml",
        );
        c.title = "Vertraulichkeitsgebot".into();
        let once = passage_text(&c);
        assert_eq!(once.matches("Vertraulichkeitsgebot").count(), 1);
        assert_eq!(lexical_text(&c, once.clone(), 1), once);
        let twice = lexical_text(&c, once.clone(), 2);
        assert_eq!(twice.matches("Vertraulichkeitsgebot").count(), 2);
        assert!(twice.ends_with(&once), "the body follows: {twice}");
        // a chunk without heading is its passage text
        c.title.clear();
        assert_eq!(lexical_text(&c, passage_text(&c), 3), passage_text(&c));
    }
}
