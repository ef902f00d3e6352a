//! Browser test: starts the server with the test backend on 127.0.0.1:0 and
//! runs `node scripts/browser-test.mjs URL SCREENSHOT_DIR` (playwright-core
//! driving the Debian `chromium` in headless mode), which asks as a
//! compliance officer would at 1280x900 and 390x844 and checks the answer
//! comes first (first sentence and primary norm above the fold), every [n]
//! links to its quote, the official link of a German norm is its § page, an
//! abstention shows no primary norm, the page follows the question's
//! language, and the input's counter and messages (issue 40); it saves a
//! screenshot of each state (empty, results, answering, final, abstained)
//! per viewport.
//!
//! Ignored by default (needs node, `npm ci` in `scripts/` and
//! `/usr/bin/chromium`); `.ci/run` runs it with `--ignored`.
//! Screenshot folder: env `PARAGRAF_SCREENSHOT_DIR`, else
//! `target/browser-test/` under the repository root.

mod common;

use paragraf_server::{serve_on, Backend, ServerConfig};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

#[test]
#[ignore = "needs node, playwright-core and Chromium: scripts/browser-setup.sh, then `cargo test --release --test browser -- --ignored`"]
fn web_page_in_headless_chromium() {
    let root = std::fs::canonicalize(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .expect("repository root");
    let script = root.join("scripts/browser-test.mjs");
    assert!(
        root.join("scripts/node_modules/playwright-core").is_dir(),
        "playwright-core missing: run `npm ci` in {}",
        root.join("scripts").display()
    );
    let shots = std::env::var("PARAGRAF_SCREENSHOT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root.join("target/browser-test"));
    std::fs::create_dir_all(&shots).expect("screenshot directory");

    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let mut backend = common::TestBackend::load();
    // slow enough that the results and the streaming states can be seen
    backend.token_delay = Duration::from_millis(60);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = rt.spawn(serve_on(
        listener,
        Arc::new(backend) as Arc<dyn Backend>,
        ServerConfig {
            addr,
            ..ServerConfig::default()
        },
        async {
            let _ = stop_rx.await;
        },
    ));

    let out = Command::new("node")
        .arg(&script)
        .arg(format!("http://{addr}/"))
        .arg(&shots)
        .current_dir(root.join("scripts"))
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");

    let _ = stop_tx.send(());
    let served = rt.block_on(async { tokio::time::timeout(Duration::from_secs(10), server).await });
    assert!(
        matches!(served, Ok(Ok(Ok(())))),
        "server did not shut down cleanly: {served:?}"
    );
    assert!(
        out.status.success(),
        "browser test failed:\n{stdout}\n{stderr}"
    );
    for viewport in ["desktop", "phone"] {
        for state in ["empty", "results", "answering", "final", "abstained"] {
            let shot = shots.join(format!("{viewport}-{state}.png"));
            assert!(shot.is_file(), "no screenshot at {}", shot.display());
        }
    }
    println!("browser screenshots: {}", shots.display());
}
