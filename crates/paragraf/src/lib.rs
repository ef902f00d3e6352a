//! Paragraf's command line. `main.rs` only calls [`run`]; every subcommand
//! lives in [`commands`] and talks to the library crates.

pub mod cli;
pub mod commands;
pub mod output;
pub mod paths;
pub mod progress;

use clap::Parser;

/// Parse the command line, run the subcommand, map errors to exit codes:
/// 0 ok, 1 runtime error, 2 bad input (clap's own usage errors also exit 2),
/// 3 `ask` printed an abstention (no answer the sources carry).
pub fn run() -> i32 {
    let cli = cli::Cli::parse();
    init_logging(&cli.global);
    match commands::dispatch(cli) {
        Ok(()) => 0,
        // the response, abstention and reason included, is already printed
        Err(e) if e.downcast_ref::<Abstained>().is_some() => EXIT_ABSTAINED,
        Err(e) => {
            eprintln!("error: {e:#}");
            if is_bad_input(&e) {
                2
            } else {
                1
            }
        }
    }
}

/// Exit status of `ask` when the answer abstained (as grep's 1 for "no
/// match": the command worked, there is no answer to use).
pub const EXIT_ABSTAINED: i32 = 3;

/// `ask` printed an abstention: exit [`EXIT_ABSTAINED`].
#[derive(Debug)]
pub struct Abstained;

impl std::fmt::Display for Abstained {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the answer abstained")
    }
}

impl std::error::Error for Abstained {}

/// A flag value the command cannot use (the message names the flag): exit 2.
#[derive(Debug)]
pub struct BadFlag(pub String);

impl std::fmt::Display for BadFlag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadFlag {}

/// Errors in what the user gave (question, flag values, corpus files under
/// `--strict`, an index that is missing, half-written, of another format or
/// has a file that is missing or fails its checksum): exit code 2.
fn is_bad_input(e: &anyhow::Error) -> bool {
    use paragraf_engine::{EngineError, IndexError};
    let index_bad = |i: &IndexError| match i {
        IndexError::Corrupt { .. } | IndexError::Incompatible(_) => true,
        IndexError::Io { source, .. } => source.kind() == std::io::ErrorKind::NotFound,
        _ => false,
    };
    e.chain().any(|cause| {
        if cause.downcast_ref::<BadFlag>().is_some() {
            return true;
        }
        if let Some(i) = cause.downcast_ref::<IndexError>() {
            return index_bad(i);
        }
        cause
            .downcast_ref::<EngineError>()
            .is_some_and(|e| match e {
                EngineError::EmptyQuery
                | EngineError::QueryTooLong { .. }
                | EngineError::BadTopK { .. }
                | EngineError::SkippedSources(_)
                | EngineError::MissingIndex { .. }
                | EngineError::Params { .. } => true,
                EngineError::Index(i) => index_bad(i),
                _ => false,
            })
    })
}

fn init_logging(g: &cli::Global) {
    use tracing_subscriber::EnvFilter;
    let default = if g.verbose {
        "info,paragraf=debug"
    } else {
        "warn"
    };
    let filter =
        EnvFilter::try_from_env("PARAGRAF_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if g.log_json {
        let _ = builder.json().try_init();
    } else {
        let _ = builder.try_init();
    }
}
