//! Crash-safe, append-only store of finished embeddings, keyed by chunk id
//! and text hash, so `index build` resumes after a crash or Ctrl-C and an
//! incremental update re-embeds only chunks whose text changed.
//!
//! File: an 8-byte magic, the dimension (u32), then records
//! `[u32 id_len][id][32-byte text sha256][dim × f32][4-byte check]` where the
//! check is the first 4 bytes of sha256 over the record body. On open the
//! file is scanned; a torn or corrupt tail (the crash case) is cut off and
//! everything before it kept. Later records for the same key win.

use crate::error::IndexError;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"PGEMB\x00\x00\x01";

/// sha256 of a chunk text, the second half of a checkpoint key.
pub fn text_hash(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// One finished embedding to append.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointEntry {
    pub id: String,
    pub text_hash: [u8; 32],
    pub vector: Vec<f32>,
}

/// The append-only embedding checkpoint.
pub struct EmbeddingCheckpoint {
    path: PathBuf,
    dim: usize,
    map: HashMap<(String, [u8; 32]), Vec<f32>>,
    out: BufWriter<File>,
}

impl std::fmt::Debug for EmbeddingCheckpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddingCheckpoint")
            .field("path", &self.path)
            .field("dim", &self.dim)
            .field("len", &self.map.len())
            .finish()
    }
}

impl EmbeddingCheckpoint {
    /// Open or create the checkpoint at `path` for vectors of `dim`. A file
    /// of another dimension is refused; a torn tail is truncated.
    pub fn open(path: &Path, dim: usize) -> Result<Self, IndexError> {
        if dim == 0 {
            return Err(IndexError::InvalidParam {
                name: "dim",
                reason: "must be at least 1".into(),
            });
        }
        let mut map = HashMap::new();
        let mut keep = 0u64;
        if path.exists() {
            let mut buf = Vec::new();
            File::open(path)
                .and_then(|mut f| f.read_to_end(&mut buf))
                .map_err(|e| IndexError::io(path, e))?;
            if buf.len() >= 12 {
                if &buf[..8] != MAGIC {
                    return Err(IndexError::corrupt(
                        path,
                        "not an embedding checkpoint (bad magic); delete it to start over",
                    ));
                }
                let fdim = u32::from_le_bytes([buf[8], buf[9], buf[10], buf[11]]) as usize;
                if fdim != dim {
                    return Err(IndexError::DimMismatch {
                        what: format!("checkpoint {} (delete it to re-embed)", path.display()),
                        expected: dim,
                        got: fdim,
                    });
                }
                keep = 12;
                let mut pos = 12usize;
                while let Some((id, h, v, end)) = parse_record(&buf, pos, dim) {
                    map.insert((id, h), v);
                    pos = end;
                    keep = end as u64;
                }
            }
        }
        let mut f = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| IndexError::io(path, e))?;
        if keep < 12 {
            f.set_len(0).map_err(|e| IndexError::io(path, e))?;
            f.write_all(MAGIC).map_err(|e| IndexError::io(path, e))?;
            f.write_all(&(dim as u32).to_le_bytes())
                .map_err(|e| IndexError::io(path, e))?;
            f.sync_data().map_err(|e| IndexError::io(path, e))?;
        } else {
            f.set_len(keep).map_err(|e| IndexError::io(path, e))?;
        }
        use std::io::Seek;
        f.seek(std::io::SeekFrom::End(0))
            .map_err(|e| IndexError::io(path, e))?;
        Ok(EmbeddingCheckpoint {
            path: path.to_path_buf(),
            dim,
            map,
            out: BufWriter::new(f),
        })
    }

    /// The vector stored for `id` with text hash `hash`.
    pub fn get(&self, id: &str, hash: &[u8; 32]) -> Option<&[f32]> {
        self.map.get(&(id.to_string(), *hash)).map(Vec::as_slice)
    }

    /// Number of stored (id, hash) keys.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Append a finished batch and make it durable (flush + fsync).
    pub fn append(&mut self, batch: &[CheckpointEntry]) -> Result<(), IndexError> {
        for e in batch {
            if e.vector.len() != self.dim {
                return Err(IndexError::DimMismatch {
                    what: format!("checkpoint entry {}", e.id),
                    expected: self.dim,
                    got: e.vector.len(),
                });
            }
        }
        for e in batch {
            let mut body = Vec::with_capacity(4 + e.id.len() + 32 + 4 * self.dim);
            body.extend_from_slice(&(e.id.len() as u32).to_le_bytes());
            body.extend_from_slice(e.id.as_bytes());
            body.extend_from_slice(&e.text_hash);
            for x in &e.vector {
                body.extend_from_slice(&x.to_le_bytes());
            }
            let check = Sha256::digest(&body);
            self.out
                .write_all(&body)
                .map_err(|er| IndexError::io(&self.path, er))?;
            self.out
                .write_all(&check[..4])
                .map_err(|er| IndexError::io(&self.path, er))?;
            self.map
                .insert((e.id.clone(), e.text_hash), e.vector.clone());
        }
        self.flush()
    }

    /// Flush buffered records to disk (fsync).
    pub fn flush(&mut self) -> Result<(), IndexError> {
        self.out
            .flush()
            .map_err(|e| IndexError::io(&self.path, e))?;
        self.out
            .get_ref()
            .sync_data()
            .map_err(|e| IndexError::io(&self.path, e))
    }
}

fn parse_record(buf: &[u8], pos: usize, dim: usize) -> Option<(String, [u8; 32], Vec<f32>, usize)> {
    let l = u32::from_le_bytes(buf.get(pos..pos + 4)?.try_into().ok()?) as usize;
    let id_end = pos.checked_add(4)?.checked_add(l)?;
    let vec_start = id_end.checked_add(32)?;
    let body_end = vec_start.checked_add(dim.checked_mul(4)?)?;
    let end = body_end.checked_add(4)?;
    let rec = buf.get(pos..end)?;
    let body = &rec[..rec.len() - 4];
    if Sha256::digest(body)[..4] != rec[rec.len() - 4..] {
        return None;
    }
    let id = std::str::from_utf8(&buf[pos + 4..id_end]).ok()?.to_string();
    let mut h = [0u8; 32];
    h.copy_from_slice(&buf[id_end..vec_start]);
    let v = buf[vec_start..body_end]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Some((id, h, v, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, x: f32) -> CheckpointEntry {
        CheckpointEntry {
            id: id.into(),
            text_hash: text_hash(id),
            vector: vec![x, x + 1.0, x + 2.0],
        }
    }

    #[test]
    fn resumes_and_cuts_torn_tail() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("emb.ckpt");
        {
            let mut c = EmbeddingCheckpoint::open(&p, 3).unwrap();
            c.append(&[entry("a", 1.0), entry("b", 2.0)]).unwrap();
        }
        // Simulate a crash in the middle of the next record.
        let full = std::fs::metadata(&p).unwrap().len();
        {
            let mut f = OpenOptions::new().append(true).open(&p).unwrap();
            f.write_all(&[7, 0, 0, 0, b'x']).unwrap();
        }
        let mut c = EmbeddingCheckpoint::open(&p, 3).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(std::fs::metadata(&p).unwrap().len(), full);
        assert_eq!(c.get("b", &text_hash("b")).unwrap(), &[2.0, 3.0, 4.0]);
        // A changed text hash misses.
        assert!(c.get("b", &text_hash("changed")).is_none());
        c.append(&[entry("c", 3.0)]).unwrap();
        drop(c);
        let c = EmbeddingCheckpoint::open(&p, 3).unwrap();
        assert_eq!(c.len(), 3);
    }

    #[test]
    fn other_dimension_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("emb.ckpt");
        EmbeddingCheckpoint::open(&p, 3).unwrap();
        let e = EmbeddingCheckpoint::open(&p, 4).unwrap_err();
        assert!(e.to_string().contains("expected 4, got 3"), "{e}");
        let mut c = EmbeddingCheckpoint::open(&p, 3).unwrap();
        assert!(c
            .append(&[CheckpointEntry {
                id: "x".into(),
                text_hash: [0; 32],
                vector: vec![1.0]
            }])
            .is_err());
    }
}
