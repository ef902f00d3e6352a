//! Paragraf's command line. `main.rs` only calls [`run`]; every subcommand
//! lives in [`commands`] and talks to the library crates.

pub mod cli;
pub mod commands;
pub mod output;
pub mod paths;
pub mod progress;

use clap::Parser;

/// Parse the command line, run the subcommand, map errors to exit codes:
/// 0 ok, 1 runtime error, 2 bad input (clap's own usage errors also exit 2).
pub fn run() -> i32 {
    let cli = cli::Cli::parse();
    init_logging(&cli.global);
    match commands::dispatch(cli) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e:#}");
            if e.downcast_ref::<paragraf_engine::EngineError>()
                .is_some_and(|e| {
                    matches!(
                        e,
                        paragraf_engine::EngineError::EmptyQuery
                            | paragraf_engine::EngineError::QueryTooLong { .. }
                            | paragraf_engine::EngineError::BadTopK { .. }
                    )
                })
            {
                2
            } else {
                1
            }
        }
    }
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
