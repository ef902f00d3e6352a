//! The index directory: manifest, chunk store, corpus extras, dense vectors
//! (safetensors, f32 or f16), HNSW graph (hnsw_rs dump), inverted index.
//!
//! Layout of `DIR/`:
//! `manifest.json` (format version, corpus hash, embedder, analyzer, HNSW
//! params, build time, counts, sha256 + size of every other file),
//! `chunks.bin` (the chunk store, postcard; indexes built before it have
//! `chunks.json`, still read), `extras.json`, `vectors.safetensors`, `inverted.bin`,
//! `headings.json` + `headings.safetensors` (the heading vectors, when the
//! build embedded headings), and, when a graph was built,
//! `dense.hnsw.graph` + `dense.hnsw.data`.
//!
//! Writing goes to a hidden sibling temp directory, every file is fsynced,
//! the manifest is written last, and one `rename` publishes the directory:
//! the rename is the commit point, so a crash never leaves a half-written
//! index under `DIR`. Opening verifies sizes and checksums before decoding.

use crate::analyzer::AnalyzerConfig;
use crate::dense::{normalize, DenseIndex, HnswParams};
use crate::error::IndexError;
use crate::headings::{HeadingEntry, HeadingVectors};
use crate::inverted::InvertedIndex;
use crate::mapped::Slab;
use paragraf_types::{Chunk, ControlMapping, EvidenceItem};
use rayon::prelude::*;
use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Format version of the index directory; bump on any incompatible change
/// (optional files such as the heading vectors are not one: an index
/// without them reads as having none).
pub const FORMAT_VERSION: u32 = 1;

const MANIFEST: &str = "manifest.json";
/// The chunk store: postcard (a compact serde binary format) of the chunk
/// list, decoded ~3× faster than JSON at a third of its size.
const CHUNKS: &str = "chunks.bin";
/// The chunk store of indexes built before `chunks.bin` (read, never written).
const CHUNKS_JSON: &str = "chunks.json";
const EXTRAS: &str = "extras.json";
const VECTORS: &str = "vectors.safetensors";
const INVERTED: &str = "inverted.bin";
const HEADINGS: &str = "headings.json";
const HEADING_VECTORS: &str = "headings.safetensors";
const GRAPH_BASE: &str = "dense";
const GRAPH_FILES: [&str; 2] = ["dense.hnsw.graph", "dense.hnsw.data"];

/// Which embedder produced the vectors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmbedderMeta {
    /// Registry name (`multilingual-e5-small`, `bge-m3`).
    pub name: String,
    /// Model revision (commit or tag).
    pub revision: String,
    /// Vector dimension.
    pub dim: usize,
    /// Compute dtype of the model (`f32`, `f16`).
    pub dtype: String,
}

/// How vectors are stored on disk (they are always f32 in memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VectorDtype {
    #[default]
    F32,
    /// Half the size; cosine error ≈ 1e-3.
    F16,
}

/// Counts of what the index holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexCounts {
    pub chunks: usize,
    pub vectors: usize,
    pub terms: usize,
    pub sparse: bool,
    pub hnsw_graph: bool,
    pub mappings: usize,
    pub evidence: usize,
    /// Heading vectors (one per norm heading and language).
    #[serde(default)]
    pub headings: usize,
}

/// Size and sha256 of one file of the directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    pub bytes: u64,
    pub sha256: String,
}

/// A corpus file the build left out, with the reason (parser message with
/// file and position, or `no manifest entry`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedSource {
    pub path: String,
    pub reason: String,
}

/// What [`verify_index`] checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// Files whose size and sha256 match the manifest.
    pub files: usize,
    /// Their bytes in all.
    pub bytes: u64,
}

/// `manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexManifest {
    pub format_version: u32,
    /// sha256 over the ingested corpus (see [`corpus_hash`]).
    pub corpus_hash: String,
    pub embedder: EmbedderMeta,
    pub analyzer: AnalyzerConfig,
    pub hnsw: HnswParams,
    /// On-disk dtype of `vectors.safetensors`.
    #[serde(default)]
    pub vector_dtype: VectorDtype,
    /// UTC build time, RFC 3339.
    pub built_at: String,
    /// Filled by [`write_index`].
    #[serde(default)]
    pub counts: IndexCounts,
    /// Filled by [`write_index`]: file name → size + sha256.
    #[serde(default)]
    pub files: BTreeMap<String, FileEntry>,
    /// Corpus files the build left out (never silently: `index build`
    /// lists them and fails on them with `--strict`).
    #[serde(default)]
    pub skipped_sources: Vec<SkippedSource>,
    /// Canonical names of the regulations the index covers, sorted (empty
    /// for indexes built before this field).
    #[serde(default)]
    pub regulations: Vec<String>,
    /// Built from the core set only (`index build --core`, what quickstart
    /// builds on a CPU), not the whole corpus.
    #[serde(default)]
    pub core_only: bool,
    /// The lexical tier from the archive of all federal law
    /// (`index build --scale`); `None` for a curated-only index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<ScaleTier>,
}

/// What `index build --scale` added after the curated chunks. Chunks
/// `0..counts.vectors` have vectors; the rest (the archive's, unless it was
/// embedded too) are found through the inverted index and headings only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScaleTier {
    /// File name of the archive.
    pub archive: String,
    pub archive_files: usize,
    pub files_failed: usize,
    /// Regulations added from the archive.
    pub laws: usize,
    /// Chunks added from the archive.
    pub chunks: usize,
    /// Archive chunks left out because their id was already there.
    pub duplicate_ids_dropped: usize,
    /// Curated regulations whose archive copy was left out (never shadowed).
    pub curated_regulations_kept: usize,
}

impl IndexManifest {
    /// A manifest for a new build; counts and checksums are filled on write.
    pub fn new(
        corpus_hash: String,
        embedder: EmbedderMeta,
        analyzer: AnalyzerConfig,
        hnsw: HnswParams,
    ) -> Self {
        IndexManifest {
            format_version: FORMAT_VERSION,
            corpus_hash,
            embedder,
            analyzer,
            hnsw,
            vector_dtype: VectorDtype::F32,
            built_at: now_rfc3339(),
            counts: IndexCounts::default(),
            files: BTreeMap::new(),
            skipped_sources: Vec::new(),
            regulations: Vec::new(),
            core_only: false,
            scale: None,
        }
    }
}

/// Corpus data that is not chunks: norm → control mappings and evidence.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CorpusExtras {
    pub mappings: Vec<ControlMapping>,
    pub evidence: Vec<EvidenceItem>,
    /// Each law's titles (manifest title and names, the gii long title),
    /// read by the law-title signal; absent in indexes built before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub laws: Vec<LawTitles>,
}

/// The titles of one law (canonical regulation name), as written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LawTitles {
    pub regulation: String,
    pub titles: Vec<String>,
}

/// An opened index.
pub struct LoadedIndex {
    pub manifest: IndexManifest,
    pub chunks: Vec<Chunk>,
    pub extras: CorpusExtras,
    pub dense: DenseIndex,
    pub inverted: InvertedIndex,
    pub headings: HeadingVectors,
    /// Wall time of each step of [`open_index`].
    pub load: LoadTimings,
}

/// Milliseconds each step of [`open_index`] took (what `paragraf bench`
/// and the engine's load log report).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct LoadTimings {
    /// Manifest read, every file mapped, sizes and sha256 checked.
    pub verify_ms: f64,
    /// The chunk store decoded.
    pub chunks_ms: f64,
    /// Dense vectors decoded.
    pub vectors_ms: f64,
    /// Inverted index decoded.
    pub inverted_ms: f64,
    /// Heading entries and vectors decoded.
    pub headings_ms: f64,
    /// HNSW graph loaded (or the flat index set up).
    pub dense_ms: f64,
}

fn lap(t: &mut std::time::Instant) -> f64 {
    let ms = t.elapsed().as_secs_f64() * 1e3;
    *t = std::time::Instant::now();
    ms
}

/// sha256 (hex) over chunk ids and texts in order: changes whenever the
/// ingested corpus does.
pub fn corpus_hash(chunks: &[Chunk]) -> String {
    let mut h = Sha256::new();
    for c in chunks {
        h.update(c.id.as_str().as_bytes());
        h.update([0]);
        h.update(c.text.as_bytes());
        h.update([0]);
    }
    hex::encode(h.finalize())
}

/// Current UTC time as RFC 3339 (seconds).
pub fn now_rfc3339() -> String {
    paragraf_types::time::utc_now()
}

fn write_file(path: &Path, data: &[u8]) -> Result<FileEntry, IndexError> {
    let mut f = File::create(path).map_err(|e| IndexError::io(path, e))?;
    f.write_all(data).map_err(|e| IndexError::io(path, e))?;
    f.sync_all().map_err(|e| IndexError::io(path, e))?;
    Ok(FileEntry {
        bytes: data.len() as u64,
        sha256: hex::encode(Sha256::digest(data)),
    })
}

fn hash_file(path: &Path) -> Result<FileEntry, IndexError> {
    let data = fs::read(path).map_err(|e| IndexError::io(path, e))?;
    if let Ok(f) = File::open(path) {
        // Best effort: make the dump durable before the rename.
        let _ = f.sync_all();
    }
    Ok(FileEntry {
        bytes: data.len() as u64,
        sha256: hex::encode(Sha256::digest(&data)),
    })
}

/// Write an index directory at `dir` atomically and return the final
/// manifest (with counts and checksums). An existing index at `dir` is
/// replaced only once the new one is complete.
pub fn write_index(
    dir: &Path,
    manifest: &IndexManifest,
    chunks: &[Chunk],
    extras: &CorpusExtras,
    dense: &DenseIndex,
    inverted: &InvertedIndex,
    headings: &HeadingVectors,
) -> Result<IndexManifest, IndexError> {
    if chunks.is_empty() {
        return Err(IndexError::Empty("no chunks to write".into()));
    }
    // vectors for a prefix (the embedded tier), inverted postings for all
    if dense.len() > chunks.len() || inverted.len() != chunks.len() {
        return Err(IndexError::InvalidInput(format!(
            "{} chunks but {} vectors and {} inverted-index docs",
            chunks.len(),
            dense.len(),
            inverted.len()
        )));
    }
    if dense.dim() != manifest.embedder.dim {
        return Err(IndexError::DimMismatch {
            what: format!("vectors of embedder {}", manifest.embedder.name),
            expected: manifest.embedder.dim,
            got: dense.dim(),
        });
    }
    if !headings.is_empty() && headings.dim() != manifest.embedder.dim {
        return Err(IndexError::DimMismatch {
            what: format!("heading vectors of embedder {}", manifest.embedder.name),
            expected: manifest.embedder.dim,
            got: headings.dim(),
        });
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(|e| IndexError::io(&parent, e))?;
    let name = dir
        .file_name()
        .ok_or_else(|| {
            IndexError::InvalidInput(format!("index path {} has no file name", dir.display()))
        })?
        .to_string_lossy()
        .to_string();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tmp = parent.join(format!(".{name}.tmp-{}-{nanos}", std::process::id()));
    fs::create_dir(&tmp).map_err(|e| IndexError::io(&tmp, e))?;
    let res = write_into(&tmp, manifest, chunks, extras, dense, inverted, headings).and_then(|m| {
        publish(&tmp, dir)?;
        Ok(m)
    });
    if res.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    res
}

fn write_into(
    tmp: &Path,
    manifest: &IndexManifest,
    chunks: &[Chunk],
    extras: &CorpusExtras,
    dense: &DenseIndex,
    inverted: &InvertedIndex,
    headings: &HeadingVectors,
) -> Result<IndexManifest, IndexError> {
    let mut m = manifest.clone();
    m.format_version = FORMAT_VERSION;
    m.files.clear();
    let json = |v: &dyn erased::Ser, what: &str| {
        v.to_json()
            .map_err(|e| IndexError::InvalidInput(format!("cannot serialise {what}: {e}")))
    };
    let p = tmp.join(CHUNKS);
    let store = postcard::to_stdvec(chunks)
        .map_err(|e| IndexError::InvalidInput(format!("cannot serialise chunks: {e}")))?;
    m.files.insert(CHUNKS.into(), write_file(&p, &store)?);
    drop(store);
    let p = tmp.join(EXTRAS);
    m.files
        .insert(EXTRAS.into(), write_file(&p, &json(extras, "extras")?)?);
    // Vectors.
    let n = dense.len();
    let shape = vec![n, dense.dim()];
    let bytes: Vec<u8> = match m.vector_dtype {
        VectorDtype::F32 => dense
            .vectors()
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        VectorDtype::F16 => dense
            .vectors()
            .iter()
            .flat_map(|x| half::f16::from_f32(*x).to_bits().to_le_bytes())
            .collect(),
    };
    let dtype = match m.vector_dtype {
        VectorDtype::F32 => Dtype::F32,
        VectorDtype::F16 => Dtype::F16,
    };
    let p = tmp.join(VECTORS);
    let view = TensorView::new(dtype, shape, &bytes)
        .map_err(|e| IndexError::InvalidInput(format!("vectors tensor: {e}")))?;
    let st = safetensors::serialize([("vectors", view)], None)
        .map_err(|e| IndexError::InvalidInput(format!("vectors tensor: {e}")))?;
    m.files.insert(VECTORS.into(), write_file(&p, &st)?);
    drop(st);
    drop(bytes);
    // Inverted index.
    let p = tmp.join(INVERTED);
    m.files
        .insert(INVERTED.into(), write_file(&p, &inverted.to_bytes())?);
    // Heading vectors (always f32: they are few).
    if !headings.is_empty() {
        let p = tmp.join(HEADINGS);
        m.files.insert(
            HEADINGS.into(),
            write_file(&p, &json(&headings.entries(), "headings")?)?,
        );
        let bytes: Vec<u8> = headings
            .vectors()
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let view = TensorView::new(Dtype::F32, vec![headings.len(), headings.dim()], &bytes)
            .map_err(|e| IndexError::InvalidInput(format!("headings tensor: {e}")))?;
        let st = safetensors::serialize([("headings", view)], None)
            .map_err(|e| IndexError::InvalidInput(format!("headings tensor: {e}")))?;
        let p = tmp.join(HEADING_VECTORS);
        m.files.insert(HEADING_VECTORS.into(), write_file(&p, &st)?);
    }
    // Graph.
    let has_graph = dense.dump_graph(tmp, GRAPH_BASE)?;
    if has_graph {
        for f in GRAPH_FILES {
            m.files.insert(f.into(), hash_file(&tmp.join(f))?);
        }
    }
    m.counts = IndexCounts {
        chunks: chunks.len(),
        vectors: n,
        terms: inverted.num_terms(),
        sparse: inverted.has_sparse(),
        hnsw_graph: has_graph,
        mappings: extras.mappings.len(),
        evidence: extras.evidence.len(),
        headings: headings.len(),
    };
    m.hnsw = dense.params().clone();
    let regs: std::collections::BTreeSet<&str> =
        chunks.iter().map(|c| c.regulation.as_str()).collect();
    m.regulations = regs.into_iter().map(str::to_string).collect();
    m.analyzer = inverted.analyzer().config().clone();
    // Manifest last.
    let p = tmp.join(MANIFEST);
    let mj = serde_json::to_vec_pretty(&m)
        .map_err(|e| IndexError::InvalidInput(format!("manifest: {e}")))?;
    write_file(&p, &mj)?;
    if let Ok(d) = File::open(tmp) {
        let _ = d.sync_all();
    }
    Ok(m)
}

/// Move `tmp` to `dir`, replacing an existing index only after the new one is in place.
fn publish(tmp: &Path, dir: &Path) -> Result<(), IndexError> {
    if dir.exists() {
        let old = tmp.with_extension("old");
        fs::rename(dir, &old).map_err(|e| IndexError::io(dir, e))?;
        if let Err(e) = fs::rename(tmp, dir) {
            let _ = fs::rename(&old, dir);
            return Err(IndexError::io(dir, e));
        }
        fs::remove_dir_all(&old).map_err(|e| IndexError::io(&old, e))?;
    } else {
        fs::rename(tmp, dir).map_err(|e| IndexError::io(dir, e))?;
    }
    if let Some(p) = dir.parent() {
        if let Ok(d) = File::open(p) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

mod erased {
    //! Object-safe JSON serialisation for the writer's helper closure.
    pub trait Ser {
        fn to_json(&self) -> serde_json::Result<Vec<u8>>;
    }
    impl<T: serde::Serialize> Ser for T {
        fn to_json(&self) -> serde_json::Result<Vec<u8>> {
            serde_json::to_vec(self)
        }
    }
}

/// Read and check `manifest.json` of `dir` (format version, embedder).
pub fn read_manifest(
    dir: &Path,
    expect: Option<&EmbedderMeta>,
) -> Result<IndexManifest, IndexError> {
    let p = dir.join(MANIFEST);
    let raw = match fs::read(&p) {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(IndexError::Incompatible(format!(
                "no complete index at {} (manifest.json missing); build one with `paragraf index build --corpus DIR --embedder NAME --out {}`",
                dir.display(),
                dir.display()
            )))
        }
        Err(e) => return Err(IndexError::io(&p, e)),
    };
    let v: serde_json::Value =
        serde_json::from_slice(&raw).map_err(|e| IndexError::corrupt(&p, e.to_string()))?;
    let fv = v
        .get("format_version")
        .and_then(|x| x.as_u64())
        .unwrap_or(0);
    if fv != u64::from(FORMAT_VERSION) {
        let emb = v
            .pointer("/embedder/name")
            .and_then(|x| x.as_str())
            .unwrap_or("NAME")
            .to_string();
        return Err(IndexError::Incompatible(format!(
            "index at {} has format version {fv}, this build reads version {FORMAT_VERSION}; rebuild with `paragraf index build --embedder {emb}`",
            dir.display()
        )));
    }
    let m: IndexManifest =
        serde_json::from_value(v).map_err(|e| IndexError::corrupt(&p, e.to_string()))?;
    if let Some(e) = expect {
        if e.name != m.embedder.name || e.revision != m.embedder.revision || e.dim != m.embedder.dim
        {
            return Err(IndexError::Incompatible(format!(
                "index at {} was built with embedder {} (revision {}, dim {}), the engine uses {} (revision {}, dim {}); rebuild with `paragraf index build --embedder {}`",
                dir.display(),
                m.embedder.name,
                m.embedder.revision,
                m.embedder.dim,
                e.name,
                e.revision,
                e.dim,
                e.name
            )));
        }
    }
    Ok(m)
}

fn map_file(path: &Path) -> Result<memmap2::Mmap, IndexError> {
    let f = File::open(path).map_err(|e| IndexError::io(path, e))?;
    // SAFETY: the index directory is immutable once published (writers
    // build a new directory and rename it); a concurrent external
    // modification is outside the contract and caught by the checksum for
    // everything decoded after verification.
    unsafe { memmap2::Mmap::map(&f) }.map_err(|e| IndexError::io(path, e))
}

/// Check every file of an index directory against its manifest (format,
/// embedder, presence, size, sha256) without decoding anything: what
/// `paragraf index info --verify` runs. The error names the first bad file.
pub fn verify_index(dir: &Path, expect: Option<&EmbedderMeta>) -> Result<VerifyReport, IndexError> {
    let m = read_manifest(dir, expect)?;
    let maps = verify_files(dir, &m)?;
    Ok(VerifyReport {
        files: maps.len(),
        bytes: maps.iter().map(|(_, mm)| mm.len() as u64).sum(),
    })
}

/// Map every file the manifest lists, after checking that the required ones
/// are listed and that each has its recorded size and sha256.
fn verify_files(
    dir: &Path,
    m: &IndexManifest,
) -> Result<Vec<(String, Arc<memmap2::Mmap>)>, IndexError> {
    let chunks = if m.files.contains_key(CHUNKS_JSON) && !m.files.contains_key(CHUNKS) {
        CHUNKS_JSON
    } else {
        CHUNKS
    };
    let mut required = vec![chunks, EXTRAS, VECTORS, INVERTED];
    if m.counts.hnsw_graph {
        required.extend(GRAPH_FILES);
    }
    if m.counts.headings > 0 {
        required.extend([HEADINGS, HEADING_VECTORS]);
    }
    for r in &required {
        if !m.files.contains_key(*r) {
            return Err(IndexError::corrupt(
                dir.join(MANIFEST),
                format!("no checksum for {r}"),
            ));
        }
    }
    // Verify all files in parallel; keep the maps for decoding.
    m.files
        .par_iter()
        .map(|(name, fe)| {
            let p = dir.join(name);
            let mm = map_file(&p)?;
            if mm.len() as u64 != fe.bytes {
                return Err(IndexError::corrupt(
                    &p,
                    format!(
                        "size {} bytes, manifest says {} (truncated or modified)",
                        mm.len(),
                        fe.bytes
                    ),
                ));
            }
            let got = hex::encode(Sha256::digest(&mm[..]));
            if got != fe.sha256 {
                return Err(IndexError::corrupt(
                    &p,
                    format!("sha256 {got} does not match manifest {}", fe.sha256),
                ));
            }
            Ok((name.clone(), Arc::new(mm)))
        })
        .collect()
}

/// Open an index directory: verify the manifest (format, embedder), every
/// file's size and sha256, then decode. Nothing is decoded from a file
/// whose checksum does not match.
pub fn open_index(dir: &Path, expect: Option<&EmbedderMeta>) -> Result<LoadedIndex, IndexError> {
    let mut t = std::time::Instant::now();
    let mut load = LoadTimings::default();
    let m = read_manifest(dir, expect)?;
    let maps = verify_files(dir, &m)?;
    load.verify_ms = lap(&mut t);
    let map = |n: &str| -> Result<&Arc<memmap2::Mmap>, IndexError> {
        maps.iter()
            .find(|(k, _)| k == n)
            .map(|(_, mm)| mm)
            .ok_or_else(|| IndexError::corrupt(dir.join(MANIFEST), format!("no checksum for {n}")))
    };
    let get = |n: &str| -> &[u8] {
        maps.iter()
            .find(|(k, _)| k == n)
            .map_or(&[][..], |(_, mm)| &mm[..])
    };
    let chunks: Vec<Chunk> = if m.files.contains_key(CHUNKS) {
        let p = dir.join(CHUNKS);
        postcard::from_bytes(get(CHUNKS)).map_err(|e| IndexError::corrupt(&p, e.to_string()))?
    } else {
        let p = dir.join(CHUNKS_JSON);
        serde_json::from_slice(get(CHUNKS_JSON))
            .map_err(|e| IndexError::corrupt(&p, e.to_string()))?
    };
    load.chunks_ms = lap(&mut t);
    let p = dir.join(EXTRAS);
    let extras: CorpusExtras =
        serde_json::from_slice(get(EXTRAS)).map_err(|e| IndexError::corrupt(&p, e.to_string()))?;
    let p = dir.join(VECTORS);
    let (vectors, dim) =
        decode_vectors(map(VECTORS)?, "vectors").map_err(|e| IndexError::corrupt(&p, e))?;
    if dim != m.embedder.dim {
        return Err(IndexError::corrupt(
            &p,
            format!("dim {dim}, manifest embedder dim {}", m.embedder.dim),
        ));
    }
    load.vectors_ms = lap(&mut t);
    let p = dir.join(INVERTED);
    let inverted =
        InvertedIndex::from_map(map(INVERTED)?).map_err(|e| IndexError::corrupt(&p, e))?;
    load.inverted_ms = lap(&mut t);
    let headings = if m.counts.headings > 0 {
        let p = dir.join(HEADINGS);
        let entries: Vec<HeadingEntry> = serde_json::from_slice(get(HEADINGS))
            .map_err(|e| IndexError::corrupt(&p, e.to_string()))?;
        let p = dir.join(HEADING_VECTORS);
        let (hv, hdim) = decode_vectors(map(HEADING_VECTORS)?, "headings")
            .map_err(|e| IndexError::corrupt(&p, e))?;
        if hdim != dim || entries.len() != m.counts.headings {
            return Err(IndexError::corrupt(
                &p,
                format!(
                    "{} heading entries of dim {hdim}, manifest says {} of dim {dim}",
                    entries.len(),
                    m.counts.headings
                ),
            ));
        }
        HeadingVectors::normalised(entries, hv, hdim)
            .map_err(|e| IndexError::corrupt(&p, e.to_string()))?
    } else {
        HeadingVectors::default()
    };
    load.headings_ms = lap(&mut t);
    let graph = m.counts.hnsw_graph.then_some((dir, GRAPH_BASE));
    let dense = DenseIndex::from_parts(vectors, dim, &m.hnsw, graph)?;
    load.dense_ms = lap(&mut t);
    if dense.len() > chunks.len()
        || dense.len() != m.counts.vectors
        || chunks.len() != inverted.len()
        || chunks.len() != m.counts.chunks
    {
        return Err(IndexError::corrupt(
            dir.join(MANIFEST),
            format!(
                "{} chunks, {} vectors, {} inverted docs, manifest counts {}",
                chunks.len(),
                dense.len(),
                inverted.len(),
                m.counts.chunks
            ),
        ));
    }
    Ok(LoadedIndex {
        manifest: m,
        chunks,
        extras,
        dense,
        inverted,
        headings,
        load,
    })
}

/// The tensor `name` of a mapped safetensors file as normalised rows and
/// their dimension: f32 rows are read in place (they were written
/// normalised), f16 rows are widened and normalised into memory.
fn decode_vectors(map: &Arc<memmap2::Mmap>, name: &str) -> Result<(Slab<f32>, usize), String> {
    let st = SafeTensors::deserialize(map).map_err(|e| format!("safetensors: {e}"))?;
    let t = st
        .tensor(name)
        .map_err(|e| format!("tensor `{name}`: {e}"))?;
    let shape = t.shape().to_vec();
    if shape.len() != 2 || shape[1] == 0 {
        return Err(format!(
            "tensor `{name}` has shape {shape:?}, expected [n, dim]"
        ));
    }
    let data = t.data();
    let width = match t.dtype() {
        Dtype::F32 => 4,
        Dtype::F16 => 2,
        d => {
            return Err(format!(
                "tensor `{name}` has dtype {d:?}, expected F32 or F16"
            ))
        }
    };
    if data.len() != shape[0] * shape[1] * width {
        return Err(format!(
            "tensor `{name}` holds {} values for shape {shape:?}",
            data.len() / width
        ));
    }
    if t.dtype() == Dtype::F32 {
        let mapped = Slab::<u8>::range_in(map, data).and_then(|r| Slab::mapped(map, r));
        let rows = mapped.unwrap_or_else(|| {
            data.chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect::<Vec<f32>>()
                .into()
        });
        return Ok((rows, shape[1]));
    }
    let mut v: Vec<f32> = data
        .chunks_exact(2)
        .map(|b| half::f16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f32())
        .collect();
    for row in v.chunks_exact_mut(shape[1]) {
        normalize(row);
    }
    Ok((v.into(), shape[1]))
}
