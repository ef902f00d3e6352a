#!/usr/bin/env bash
# Headless-Chromium test of the web page (issues 7 and 40): the server crate's
# browser test starts the server on 127.0.0.1:0, asks at desktop and phone
# size and checks the answer first, citation links, official links,
# abstention, language and input; screenshots of each state.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/browser-setup.sh
export PARAGRAF_SCREENSHOT_DIR=${PARAGRAF_SCREENSHOT_DIR:-$PWD/target/browser-test}
PARAGRAF_BROWSER_TEST=1 cargo test --release --workspace --test browser -- --nocapture
echo "screenshots (CI artifacts): $PARAGRAF_SCREENSHOT_DIR"
