//! The machine a run measured, for every report (bench tables, eval and
//! LegalQuAD reports): `/proc/cpuinfo`, `/proc/meminfo` and
//! `/proc/driver/nvidia/gpus/*/information` (Linux); elsewhere the fields
//! stay empty.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The machine a run measured.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Machine {
    /// `model name` of `/proc/cpuinfo`, or empty.
    pub cpu_model: String,
    /// Processor entries of `/proc/cpuinfo` (0 when unknown).
    pub logical_cores: usize,
    /// Distinct (physical id, core id) pairs, when the file says.
    pub physical_cores: Option<usize>,
    /// Threads this process may use (`available_parallelism`).
    pub available_parallelism: usize,
    /// `MemTotal` in GiB.
    pub memory_gib: Option<f64>,
    /// GPU models found (NVIDIA driver's `/proc` entries).
    pub gpus: Vec<String>,
    pub os: String,
    pub arch: String,
}

impl Machine {
    /// Describe this machine from `/proc` (missing files leave fields empty).
    pub fn detect() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok();
        let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
        let mut gpu_infos = Vec::new();
        if let Ok(dir) = std::fs::read_dir("/proc/driver/nvidia/gpus") {
            let mut paths: Vec<_> = dir.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            paths.sort();
            for p in paths {
                if let Ok(t) = std::fs::read_to_string(p.join("information")) {
                    gpu_infos.push(t);
                }
            }
        }
        let mut m = Machine::from_proc(cpuinfo.as_deref(), meminfo.as_deref(), &gpu_infos);
        m.available_parallelism = std::thread::available_parallelism().map_or(0, |n| n.get());
        m
    }

    /// Build the description from the text of `/proc/cpuinfo`,
    /// `/proc/meminfo` and the NVIDIA `information` files.
    pub fn from_proc(
        cpuinfo: Option<&str>,
        meminfo: Option<&str>,
        gpu_infos: &[String],
    ) -> Machine {
        let mut m = Machine {
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            ..Machine::default()
        };
        if let Some(ci) = cpuinfo {
            let mut cores = BTreeSet::new();
            let mut phys: Option<String> = None;
            for line in ci.lines() {
                let Some((k, v)) = line.split_once(':') else {
                    continue;
                };
                let (k, v) = (k.trim(), v.trim());
                match k {
                    "processor" => m.logical_cores += 1,
                    "model name" | "Model" if m.cpu_model.is_empty() => m.cpu_model = v.to_string(),
                    "physical id" => phys = Some(v.to_string()),
                    "core id" => {
                        cores.insert((phys.clone().unwrap_or_default(), v.to_string()));
                    }
                    _ => {}
                }
            }
            m.physical_cores = (!cores.is_empty()).then_some(cores.len());
        }
        if let Some(mi) = meminfo {
            m.memory_gib = parse_kb_field(mi, "MemTotal").map(|kb| kb / (1024.0 * 1024.0));
        }
        for info in gpu_infos {
            if let Some(model) = info.lines().find_map(|l| {
                l.split_once(':')
                    .filter(|(k, _)| k.trim() == "Model")
                    .map(|(_, v)| v.trim().to_string())
            }) {
                m.gpus.push(model);
            }
        }
        m
    }

    /// One line: `CPU model, N cores (M physical), X GiB, GPU …, os/arch`.
    pub fn describe(&self) -> String {
        let mut s = if self.cpu_model.is_empty() {
            "unknown CPU".to_string()
        } else {
            self.cpu_model.clone()
        };
        let _ = write!(s, ", {} logical cores", self.logical_cores);
        if let Some(p) = self.physical_cores {
            let _ = write!(s, " ({p} physical)");
        }
        if self.available_parallelism > 0 && self.available_parallelism != self.logical_cores {
            let _ = write!(s, ", {} usable", self.available_parallelism);
        }
        if let Some(g) = self.memory_gib {
            let _ = write!(s, ", {g:.1} GiB RAM");
        }
        if self.gpus.is_empty() {
            s.push_str(", no GPU");
        } else {
            let _ = write!(s, ", GPU: {}", self.gpus.join(" + "));
        }
        let _ = write!(s, ", {}/{}", self.os, self.arch);
        s
    }
}

pub use paragraf_types::memory::parse_kb_field;

/// Peak resident memory of this process (`VmHWM` of `/proc/self/status`)
/// in MiB; `None` where the file does not exist.
pub fn peak_rss_mib() -> Option<f64> {
    paragraf_types::memory::peak_rss_kib().map(|kb| kb as f64 / 1024.0)
}

pub use paragraf_types::time::{format_utc, utc_now};
