//! `paragraf gpu-check`: the GPU kit's parts (see
//! `paragraf_measure::gpu_check`); `scripts/gpu-kit.sh run` calls one part
//! per process, each under its own time box.

use super::device;
use crate::cli::{Global, GpuCheckArgs};
use anyhow::{Context, Result};
use paragraf_measure::gpu_check::{run_part, GpuCheckOptions, PARTS};

pub fn run(g: &Global, a: GpuCheckArgs) -> Result<()> {
    let opts = GpuCheckOptions {
        out: a.out.clone(),
        work: a
            .work
            .clone()
            .unwrap_or_else(|| std::env::temp_dir().join("paragraf-gpu-check")),
        device: device(g)?,
        tiny: a.tiny,
        corpus: a.corpus.clone(),
        tokenizer: a.tokenizer.clone(),
    };
    let parts: Vec<&str> = match a.part.as_str() {
        "all" => PARTS.to_vec(),
        p if PARTS.contains(&p) => vec![p],
        other => anyhow::bail!("--part: unknown part `{other}` (all, {})", PARTS.join(", ")),
    };
    for p in parts {
        run_part(p, &opts).with_context(|| format!("gpu-check part {p}"))?;
        if !g.quiet {
            eprintln!("gpu-check: {p} done ({})", a.out.display());
        }
    }
    Ok(())
}
