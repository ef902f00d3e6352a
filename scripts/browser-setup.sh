#!/usr/bin/env bash
# Installs what the headless-Chromium test needs: Debian's chromium and
# playwright-core (no browser download).
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
