//! Serve the in-memory test backend (tests/common, hand-written fixture) for
//! trying the web page, the browser test and the load-test script without
//! models or an index. Not the product: `paragraf serve` wires the engine.
//!
//! ```text
//! cargo run --release -p paragraf-server --example demo_server -- [ADDR] [TOKEN_DELAY_MS]
//! ```
//! ADDR defaults to 127.0.0.1:8080; TOKEN_DELAY_MS (default 40) paces the
//! scripted answer so streaming is visible. Env `PARAGRAF_API_KEY` enables
//! bearer auth. Logs are JSON lines on stderr.

#[path = "../tests/common/mod.rs"]
mod common;

use paragraf_server::{serve, Backend, ServerConfig};
use std::sync::Arc;
use std::time::Duration;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    paragraf_server::init_json_logging();
    let mut args = std::env::args().skip(1);
    let addr = args
        .next()
        .unwrap_or_else(|| "127.0.0.1:8080".to_string())
        .parse()?;
    let delay_ms: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(40);
    let mut backend = common::TestBackend::load();
    backend.token_delay = Duration::from_millis(delay_ms);
    let cfg = ServerConfig {
        addr,
        api_key: std::env::var("PARAGRAF_API_KEY")
            .ok()
            .filter(|k| !k.is_empty()),
        ..ServerConfig::default()
    };
    println!("demo server (test backend) on http://{addr}/");
    serve(Arc::new(backend) as Arc<dyn Backend>, cfg).await?;
    Ok(())
}
