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

use paragraf_types::memory::parse_kb_field;

/// Peak resident memory of this process (`VmHWM` of `/proc/self/status`)
/// in MiB; `None` where the file does not exist.
pub fn peak_rss_mib() -> Option<f64> {
    paragraf_types::memory::peak_rss_kib().map(|kb| kb as f64 / 1024.0)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) const CPUINFO: &str = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nphysical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13\nphysical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 2\nmodel name\t: AMD EPYC 7B13\nphysical id\t: 0\ncore id\t\t: 1\n";

    #[test]
    fn machine_from_proc_text() {
        let gpu = "Model: \t\t NVIDIA H200\nIRQ:   \t\t 123\n".to_string();
        let m = Machine::from_proc(
            Some(CPUINFO),
            Some("MemTotal:       25165824 kB\nMemFree: 1 kB\n"),
            &[gpu],
        );
        assert_eq!(m.cpu_model, "AMD EPYC 7B13");
        assert_eq!(m.logical_cores, 3);
        assert_eq!(m.physical_cores, Some(2));
        assert_eq!(m.memory_gib, Some(24.0));
        assert_eq!(m.gpus, vec!["NVIDIA H200"]);
        let d = m.describe();
        assert!(
            d.starts_with("AMD EPYC 7B13, 3 logical cores (2 physical)"),
            "{d}"
        );
        assert!(
            d.contains("24.0 GiB RAM") && d.contains("GPU: NVIDIA H200"),
            "{d}"
        );
        let none = Machine::from_proc(None, None, &[]);
        assert_eq!(none.logical_cores, 0);
        assert!(none
            .describe()
            .starts_with("unknown CPU, 0 logical cores, no GPU"));
    }

    #[test]
    fn detect_does_not_panic() {
        let m = Machine::detect();
        assert!(m.available_parallelism >= 1);
    }
}
