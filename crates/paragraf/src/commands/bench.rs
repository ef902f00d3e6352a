//! `paragraf bench`.

use crate::cli::{BenchArgs, Global};
use anyhow::Result;

pub fn run(_g: &Global, _a: BenchArgs) -> Result<()> {
    anyhow::bail!("bench is wired in the next step")
}
