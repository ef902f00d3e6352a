//! The `paragraf bench` report: one row per model candidate, the machine it
//! ran on, warm-up and repetition counts, medians of repeated runs, and a
//! comparison of two runs that says which differences are within noise. The
//! machine description is [`crate::machine`].

use crate::error::EvalError;
use crate::format::{fmt_num, md_escape};
use crate::stats::{rel_diff, within_noise, Stat};
use serde::{Deserialize, Serialize};

use std::fmt::Write as _;
use std::path::Path;

use crate::machine::Machine;
use paragraf_types::time::utc_now;

/// Measurements of one model candidate. Every figure is a [`Stat`] over the
/// repetitions (medians reported); `None` where it does not apply (an
/// embedder has no decode speed) or was not measured.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BenchRow {
    /// Entry name in `models.toml`.
    pub model: String,
    /// `embedder`, `answer` or `reranker`.
    pub kind: String,
    /// Device it ran on (`cpu`, `cuda:0`).
    pub device: String,
    pub load_ms: Option<Stat>,
    /// Passages of 128 tokens embedded per second.
    pub embed_passages_per_s_128: Option<Stat>,
    /// Passages of 512 tokens embedded per second.
    pub embed_passages_per_s_512: Option<Stat>,
    /// Latency of embedding one query: p50 and p95 per repetition.
    pub query_embed_p50_ms: Option<Stat>,
    pub query_embed_p95_ms: Option<Stat>,
    pub prefill_tok_per_s: Option<Stat>,
    pub decode_tok_per_s: Option<Stat>,
    /// Decode tok/s after a short prompt (a one-line question, 64 new
    /// tokens): the KV cache is short, so this is the figure comparable with
    /// published per-model decode speeds; `decode_tok_per_s` is the one a
    /// real answer (1–2k tokens of sources) sees.
    pub decode_short_tok_per_s: Option<Stat>,
    /// Time to first token on a real prompt built from retrieved sources.
    pub ttft_ms: Option<Stat>,
    /// Peak resident memory after the model's runs.
    pub peak_memory_mib: Option<f64>,
    /// hit@1 on the golden set, where a table is joined with an eval run
    /// (`paragraf eval` measures it; `paragraf bench` leaves it empty).
    pub hit_at_1: Option<f64>,
    /// Free-text remarks (prompt length, batch size, skipped parts).
    pub notes: Vec<String>,
}

/// Column names and the direction in which a metric is better.
const METRICS: &[(&str, &str, bool)] = &[
    ("load_ms", "load ms", false),
    ("embed_passages_per_s_128", "emb/s @128", true),
    ("embed_passages_per_s_512", "emb/s @512", true),
    ("query_embed_p50_ms", "query p50 ms", false),
    ("query_embed_p95_ms", "query p95 ms", false),
    ("prefill_tok_per_s", "prefill tok/s", true),
    ("decode_tok_per_s", "decode tok/s", true),
    ("decode_short_tok_per_s", "decode tok/s short", true),
    ("ttft_ms", "TTFT ms", false),
];

impl BenchRow {
    /// The repeated-run metrics by field name, in report order.
    pub fn metrics(&self) -> Vec<(&'static str, Option<&Stat>)> {
        let v = [
            self.load_ms.as_ref(),
            self.embed_passages_per_s_128.as_ref(),
            self.embed_passages_per_s_512.as_ref(),
            self.query_embed_p50_ms.as_ref(),
            self.query_embed_p95_ms.as_ref(),
            self.prefill_tok_per_s.as_ref(),
            self.decode_tok_per_s.as_ref(),
            self.decode_short_tok_per_s.as_ref(),
            self.ttft_ms.as_ref(),
        ];
        METRICS
            .iter()
            .zip(v)
            .map(|((n, _, _), s)| (*n, s))
            .collect()
    }

    fn key(&self) -> (String, String, String) {
        (self.model.clone(), self.kind.clone(), self.device.clone())
    }
}

/// The whole bench report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchTable {
    /// UTC time of the run, `YYYY-MM-DDTHH:MM:SSZ`.
    pub created_utc: String,
    pub machine: Machine,
    /// Untimed warm-up runs before measuring.
    pub warmup: usize,
    /// Timed repetitions each median is taken over.
    pub repetitions: usize,
    pub rows: Vec<BenchRow>,
    /// Run-level remarks (build flags, thread count).
    pub notes: Vec<String>,
    /// The device's GEMM rate (GFLOP/s), the ceiling of every encoder run
    /// (`paragraf_models::bench::gemm_rate_gflops`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gemm_gflops: Option<f64>,
}

fn cell(s: Option<&Stat>) -> String {
    s.map_or_else(|| "–".to_string(), |s| fmt_num(s.median))
}

impl BenchTable {
    /// An empty table for this machine, timestamped now.
    pub fn new(machine: Machine, warmup: usize, repetitions: usize) -> BenchTable {
        BenchTable {
            created_utc: utc_now(),
            machine,
            warmup,
            repetitions,
            rows: Vec::new(),
            notes: Vec::new(),
            gemm_gflops: None,
        }
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        crate::format::pretty_json(self)
    }

    /// Parse a saved table; `source` names it in errors.
    pub fn from_json(text: &str, source: &str) -> Result<BenchTable, EvalError> {
        crate::format::parse_json(text, source)
    }

    /// Read a saved table.
    pub fn load(path: &Path) -> Result<BenchTable, EvalError> {
        crate::format::load_json(path)
    }

    /// Write `<stem>.json` and `<stem>.md` into `dir` (created when
    /// missing); returns the paths.
    pub fn write_files(
        &self,
        dir: &Path,
        stem: &str,
    ) -> Result<Vec<std::path::PathBuf>, EvalError> {
        std::fs::create_dir_all(dir).map_err(|e| EvalError::write(dir, e))?;
        let mut out = Vec::new();
        for (name, body) in [
            (format!("{stem}.json"), self.to_json()),
            (format!("{stem}.md"), self.to_markdown()),
        ] {
            let p = dir.join(name);
            std::fs::write(&p, body).map_err(|e| EvalError::write(&p, e))?;
            out.push(p);
        }
        Ok(out)
    }

    /// Markdown: machine, counts, one table of medians, the spread of each
    /// figure (min–max) and the notes.
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# Model benchmark\n");
        let _ = writeln!(s, "- created: {}", self.created_utc);
        let _ = writeln!(s, "- machine: {}", self.machine.describe());
        let _ = writeln!(
            s,
            "- warm-up runs: {}, timed repetitions: {} (figures are medians)",
            self.warmup, self.repetitions
        );
        for n in &self.notes {
            let _ = writeln!(s, "- {n}");
        }
        s.push('\n');
        s.push_str("| model | kind | device |");
        for (_, label, _) in METRICS {
            let _ = write!(s, " {label} |");
        }
        s.push_str(" peak MiB | hit@1 |\n|---|---|---|");
        for _ in METRICS {
            s.push_str("---:|");
        }
        s.push_str("---:|---:|\n");
        for r in &self.rows {
            let _ = write!(s, "| {} | {} | {} |", md_escape(&r.model), r.kind, r.device);
            for (_, st) in r.metrics() {
                let _ = write!(s, " {} |", cell(st));
            }
            let _ = writeln!(
                s,
                " {} | {} |",
                r.peak_memory_mib
                    .map_or_else(|| "–".into(), |m| format!("{m:.0}")),
                r.hit_at_1.map_or_else(|| "–".into(), |h| format!("{h:.3}"))
            );
        }
        let spread: Vec<String> = self
            .rows
            .iter()
            .flat_map(|r| {
                r.metrics().into_iter().filter_map(move |(n, st)| {
                    st.filter(|st| st.samples.len() > 1).map(|st| {
                        format!(
                            "| {} | {n} | {} | {} | {} | {} |",
                            md_escape(&r.model),
                            fmt_num(st.median),
                            fmt_num(st.min),
                            fmt_num(st.max),
                            st.samples.len()
                        )
                    })
                })
            })
            .collect();
        if !spread.is_empty() {
            s.push_str("\n## Spread over repetitions\n\n| model | metric | median | min | max | n |\n|---|---|---:|---:|---:|---:|\n");
            for l in spread {
                s.push_str(&l);
                s.push('\n');
            }
        }
        let notes: Vec<String> = self
            .rows
            .iter()
            .flat_map(|r| r.notes.iter().map(move |n| format!("- {}: {n}", r.model)))
            .collect();
        if !notes.is_empty() {
            s.push_str("\n## Notes\n\n");
            for n in notes {
                s.push_str(&n);
                s.push('\n');
            }
        }
        s
    }
}

/// One metric of one model in two runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchDelta {
    pub model: String,
    pub kind: String,
    pub device: String,
    pub metric: String,
    pub a: f64,
    pub b: f64,
    /// `(b − a) / |a|`.
    pub rel_diff: Option<f64>,
    pub within_noise: bool,
    /// Whether b is better than a (by the metric's direction), outside noise.
    pub improved: bool,
}

/// Two bench runs side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchComparison {
    /// Relative tolerance used by [`within_noise`].
    pub rel_tol: f64,
    pub deltas: Vec<BenchDelta>,
    /// Models (`model/kind/device`) measured in only one of the runs.
    pub only_in_a: Vec<String>,
    pub only_in_b: Vec<String>,
    /// Largest |relative difference| of medians over all deltas.
    pub max_abs_rel_diff: Option<f64>,
}

/// Compare two bench runs metric by metric (rows matched by model, kind and
/// device; metrics present in both).
pub fn compare_bench(a: &BenchTable, b: &BenchTable, rel_tol: f64) -> BenchComparison {
    let mut deltas = Vec::new();
    let mut only_in_a = Vec::new();
    let fmt_key = |r: &BenchRow| format!("{}/{}/{}", r.model, r.kind, r.device);
    for ra in &a.rows {
        let Some(rb) = b.rows.iter().find(|rb| rb.key() == ra.key()) else {
            only_in_a.push(fmt_key(ra));
            continue;
        };
        for (((name, sa), (_, sb)), (_, _, higher_better)) in
            ra.metrics().into_iter().zip(rb.metrics()).zip(METRICS)
        {
            let (Some(sa), Some(sb)) = (sa, sb) else {
                continue;
            };
            let within = within_noise(sa, sb, rel_tol);
            let better = if *higher_better {
                sb.median > sa.median
            } else {
                sb.median < sa.median
            };
            deltas.push(BenchDelta {
                model: ra.model.clone(),
                kind: ra.kind.clone(),
                device: ra.device.clone(),
                metric: name.to_string(),
                a: sa.median,
                b: sb.median,
                rel_diff: rel_diff(sa.median, sb.median),
                within_noise: within,
                improved: !within && better,
            });
        }
    }
    let only_in_b = b
        .rows
        .iter()
        .filter(|rb| !a.rows.iter().any(|ra| ra.key() == rb.key()))
        .map(fmt_key)
        .collect();
    let max_abs_rel_diff = deltas
        .iter()
        .filter_map(|d| d.rel_diff.map(f64::abs))
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
    BenchComparison {
        rel_tol,
        deltas,
        only_in_a,
        only_in_b,
        max_abs_rel_diff,
    }
}

impl BenchComparison {
    /// Whether every compared metric is within noise.
    pub fn all_within_noise(&self) -> bool {
        self.deltas.iter().all(|d| d.within_noise)
    }

    /// Markdown table of every delta.
    pub fn to_markdown(&self) -> String {
        let mut s = String::from("# Bench comparison\n\n");
        let _ = writeln!(
            s,
            "Tolerance: {:.0} % of the larger median or the larger IQR. All within noise: {}. Largest difference: {}.\n",
            self.rel_tol * 100.0,
            if self.all_within_noise() { "yes" } else { "no" },
            self.max_abs_rel_diff
                .map_or_else(|| "–".into(), |d| format!("{:.1} %", d * 100.0))
        );
        s.push_str("| model | metric | A | B | Δ | verdict |\n|---|---|---:|---:|---:|---|\n");
        for d in &self.deltas {
            let verdict = if d.within_noise {
                "within noise"
            } else if d.improved {
                "better"
            } else {
                "worse"
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {verdict} |",
                md_escape(&d.model),
                d.metric,
                fmt_num(d.a),
                fmt_num(d.b),
                d.rel_diff
                    .map_or_else(|| "–".into(), |r| format!("{:+.1} %", r * 100.0))
            );
        }
        for m in &self.only_in_a {
            let _ = writeln!(s, "\nOnly in A: {m}");
        }
        for m in &self.only_in_b {
            let _ = writeln!(s, "\nOnly in B: {m}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(model: &str, decode: &[f64], load: &[f64]) -> BenchRow {
        BenchRow {
            model: model.into(),
            kind: "answer".into(),
            device: "cpu".into(),
            load_ms: Stat::from_samples(load),
            decode_tok_per_s: Stat::from_samples(decode),
            peak_memory_mib: Some(512.0),
            ..BenchRow::default()
        }
    }

    #[test]
    fn table_round_trip_and_markdown() {
        let mut t = BenchTable::new(
            Machine::from_proc(Some(crate::machine::tests::CPUINFO), None, &[]),
            1,
            3,
        );
        t.rows.push(row(
            "qwen2.5-0.5b",
            &[13.0, 12.5, 13.4],
            &[800.0, 790.0, 810.0],
        ));
        let back = BenchTable::from_json(&t.to_json(), "mem").unwrap();
        assert_eq!(back, t);
        let md = t.to_markdown();
        assert!(md.contains("warm-up runs: 1, timed repetitions: 3"), "{md}");
        assert!(
            md.contains("| qwen2.5-0.5b | answer | cpu | 800 | – |"),
            "{md}"
        );
        assert!(md.contains("| 13.0 | – | – | 512 | – |"), "{md}");
        assert!(md.contains("## Spread over repetitions"));
        let dir = tempfile::tempdir().unwrap();
        let files = t
            .write_files(&dir.path().join("bench"), "bench-cpu")
            .unwrap();
        assert_eq!(files.len(), 2);
        assert_eq!(BenchTable::load(&files[0]).unwrap(), t);
        let blocked = dir.path().join("file");
        std::fs::write(&blocked, "x").unwrap();
        let e = t.write_files(&blocked, "b").unwrap_err().to_string();
        assert!(e.starts_with("cannot write ") && e.contains("file"), "{e}");
        assert!(BenchTable::from_json("{", "x.json")
            .unwrap_err()
            .to_string()
            .starts_with("x.json:"));
    }

    #[test]
    fn comparison_flags_noise_and_changes() {
        let mut a = BenchTable::new(Machine::default(), 1, 3);
        let mut b = a.clone();
        a.rows
            .push(row("m", &[13.0, 12.5, 13.4], &[800.0, 790.0, 810.0]));
        a.rows.push(row("gone", &[1.0], &[1.0]));
        b.rows
            .push(row("m", &[13.2, 12.9, 13.1], &[1000.0, 990.0, 1010.0]));
        let c = compare_bench(&a, &b, 0.05);
        assert_eq!(c.deltas.len(), 2);
        let load = c.deltas.iter().find(|d| d.metric == "load_ms").unwrap();
        assert!(!load.within_noise && !load.improved);
        assert!((load.rel_diff.unwrap() - 0.25).abs() < 1e-12);
        let dec = c
            .deltas
            .iter()
            .find(|d| d.metric == "decode_tok_per_s")
            .unwrap();
        assert!(dec.within_noise);
        assert!(!c.all_within_noise());
        assert_eq!(c.only_in_a, vec!["gone/answer/cpu"]);
        assert!(c.only_in_b.is_empty());
        assert_eq!(c.max_abs_rel_diff, Some(0.25));
        let md = c.to_markdown();
        assert!(
            md.contains("| m | load_ms | 800 | 1000 | +25.0 % | worse |"),
            "{md}"
        );
        assert!(md.contains("within noise"));
    }
}

/// Run `f` `warmup` times untimed, then `repetitions` times, and summarise
/// the values it returns (each call returns its own measurement, e.g.
/// passages/s or milliseconds). The first error stops the run.
/// `Ok(None)` when `repetitions` is 0.
pub fn repeat<E>(
    warmup: usize,
    repetitions: usize,
    mut f: impl FnMut() -> Result<f64, E>,
) -> Result<Option<Stat>, E> {
    for _ in 0..warmup {
        f()?;
    }
    let mut samples = Vec::with_capacity(repetitions);
    for _ in 0..repetitions {
        samples.push(f()?);
    }
    Ok(Stat::from_samples(&samples))
}

#[cfg(test)]
mod repeat_tests {
    use super::*;

    #[test]
    fn warmups_are_not_counted() {
        let mut n = 0.0;
        let s = repeat::<()>(2, 3, || {
            n += 1.0;
            Ok(n)
        })
        .unwrap()
        .unwrap();
        assert_eq!(s.samples, vec![3.0, 4.0, 5.0]);
        assert_eq!(s.median, 4.0);
        assert!(repeat::<()>(1, 0, || Ok(1.0)).unwrap().is_none());
        let mut calls = 0;
        let e = repeat(0, 5, || {
            calls += 1;
            if calls == 2 {
                Err("boom")
            } else {
                Ok(1.0)
            }
        });
        assert_eq!(e, Err("boom"));
        assert_eq!(calls, 2);
    }
}
