//! `paragraf serve`: the engine behind the HTTP API and web page.

use crate::cli::{Global, ServeArgs};
use anyhow::Result;

pub fn run(_g: &Global, _a: ServeArgs) -> Result<()> {
    anyhow::bail!("serve is wired in the next step")
}
