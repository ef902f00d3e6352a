#!/usr/bin/env bash
# Headless-Chromium test of the web page (issue 7): installs Debian's chromium
# and playwright-core (no browser download), then runs the server crate's
# browser test, which starts the server on 127.0.0.1:0, asks the DPO question
# and checks the streamed answer, citation links, assessment and breakdown.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium >/dev/null
fi
if [ ! -d scripts/node_modules/playwright-core ]; then
  npm ci --prefix scripts --no-audit --no-fund --silent
fi
export PARAGRAF_SCREENSHOT=${PARAGRAF_SCREENSHOT:-$PWD/target/browser-test/paragraf-web.png}
PARAGRAF_BROWSER_TEST=1 cargo test --release --workspace --test browser -- --nocapture
echo "screenshot (CI artifact): $PARAGRAF_SCREENSHOT"
