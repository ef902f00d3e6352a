//! `paragraf eval`.

use crate::cli::{EvalArgs, Global};
use anyhow::Result;

pub fn run(_g: &Global, _a: EvalArgs) -> Result<()> {
    anyhow::bail!("eval is wired in the next step")
}
