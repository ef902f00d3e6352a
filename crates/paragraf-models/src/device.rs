//! Device selection: `auto|cpu|cuda[:N]|metal` with CPU fallback.

use crate::ModelError;
use candle_core::Device;
use std::str::FromStr;

/// A requested device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceChoice {
    /// CUDA 0 if built with `cuda` and available, else Metal, else CPU.
    Auto,
    /// CPU.
    Cpu,
    /// CUDA device N.
    Cuda(usize),
    /// Apple Metal.
    Metal,
}

impl FromStr for DeviceChoice {
    type Err = ModelError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "auto" | "" => Ok(DeviceChoice::Auto),
            "cpu" => Ok(DeviceChoice::Cpu),
            "cuda" | "gpu" => Ok(DeviceChoice::Cuda(0)),
            "metal" => Ok(DeviceChoice::Metal),
            _ => match t.strip_prefix("cuda:").map(str::parse::<usize>) {
                Some(Ok(n)) => Ok(DeviceChoice::Cuda(n)),
                _ => Err(ModelError::BadDevice(s.to_string())),
            },
        }
    }
}

impl std::fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeviceChoice::Auto => write!(f, "auto"),
            DeviceChoice::Cpu => write!(f, "cpu"),
            DeviceChoice::Cuda(n) => write!(f, "cuda:{n}"),
            DeviceChoice::Metal => write!(f, "metal"),
        }
    }
}

/// Opens the requested device. When CUDA/Metal is requested but unavailable
/// (not compiled in, no driver, no GPU) this returns the CPU and a warning.
pub fn select_device(c: DeviceChoice) -> (Device, Option<String>) {
    match c {
        DeviceChoice::Cpu => (Device::Cpu, None),
        DeviceChoice::Cuda(n) => match open_cuda(n) {
            Ok(d) => (d, None),
            Err(e) => (
                Device::Cpu,
                Some(format!("cuda:{n} unavailable ({e}); falling back to CPU")),
            ),
        },
        DeviceChoice::Metal => match open_metal() {
            Ok(d) => (d, None),
            Err(e) => (
                Device::Cpu,
                Some(format!("metal unavailable ({e}); falling back to CPU")),
            ),
        },
        DeviceChoice::Auto => {
            if let Ok(d) = open_cuda(0) {
                return (d, None);
            }
            if let Ok(d) = open_metal() {
                return (d, None);
            }
            (Device::Cpu, None)
        }
    }
}

fn open_cuda(n: usize) -> Result<Device, String> {
    if !cfg!(feature = "cuda") {
        return Err("binary built without the `cuda` feature".into());
    }
    // cudarc may panic when the driver library is missing; contain it.
    match std::panic::catch_unwind(|| Device::new_cuda(n)) {
        Ok(Ok(d)) => Ok(d),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("CUDA driver could not be loaded".into()),
    }
}

fn open_metal() -> Result<Device, String> {
    if !cfg!(feature = "metal") {
        return Err("binary built without the `metal` feature".into());
    }
    match std::panic::catch_unwind(|| Device::new_metal(0)) {
        Ok(Ok(d)) => Ok(d),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("Metal device could not be opened".into()),
    }
}

/// Short name of a device (`cpu`, `cuda`, `metal`).
pub(crate) fn device_kind(d: &Device) -> &'static str {
    match d {
        Device::Cpu => "cpu",
        Device::Cuda(_) => "cuda",
        Device::Metal(_) => "metal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_devices() {
        assert_eq!("auto".parse::<DeviceChoice>().unwrap(), DeviceChoice::Auto);
        assert_eq!("CPU".parse::<DeviceChoice>().unwrap(), DeviceChoice::Cpu);
        assert_eq!(
            "cuda".parse::<DeviceChoice>().unwrap(),
            DeviceChoice::Cuda(0)
        );
        assert_eq!(
            "cuda:3".parse::<DeviceChoice>().unwrap(),
            DeviceChoice::Cuda(3)
        );
        assert!("cuda:x".parse::<DeviceChoice>().is_err());
        assert!("tpu".parse::<DeviceChoice>().is_err());
    }

    #[test]
    fn cpu_and_fallback() {
        let (d, w) = select_device(DeviceChoice::Cpu);
        assert!(d.is_cpu() && w.is_none());
        if !cfg!(feature = "cuda") {
            let (d, w) = select_device(DeviceChoice::Cuda(0));
            assert!(d.is_cpu());
            assert!(w.unwrap().contains("falling back to CPU"));
        }
    }
}
