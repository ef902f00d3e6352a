#!/usr/bin/env bash
# Headless-Chromium test of the web page (issue 7): the server crate's browser
# test starts the server on 127.0.0.1:0, asks the DPO question and checks the
# streamed answer, citation links, assessment and breakdown chart.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/browser-setup.sh
export PARAGRAF_SCREENSHOT=${PARAGRAF_SCREENSHOT:-$PWD/target/browser-test/paragraf-web.png}
PARAGRAF_BROWSER_TEST=1 cargo test --release --workspace --test browser -- --nocapture
echo "screenshot (CI artifact): $PARAGRAF_SCREENSHOT"
