//! Saving and loading an ingested corpus: a directory of JSON Lines files
//! or one file of tagged records.

use crate::error::CorpusError;
use crate::pipeline::{IngestReport, Ingested};
use paragraf_types::{Chunk, ControlMapping, EvidenceItem};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufWriter, Write};
use std::path::Path;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Record {
    Report(IngestReport),
    Chunk(Box<Chunk>),
    ControlMapping(ControlMapping),
    Evidence(EvidenceItem),
}

impl Ingested {
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
