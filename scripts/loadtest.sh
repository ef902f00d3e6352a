#!/usr/bin/env bash
# Start `paragraf serve` on a loopback port, wait until it is ready, run the
# load driver (crates/paragraf-server/examples/loadtest.rs) against it with
# the server's pid (for RSS), stop the server. Prints the driver's report.
#
#   scripts/loadtest.sh [serve flags …] -- [driver flags …]
#   scripts/loadtest.sh --index /work/data/index-all --embed-batch 1 --query-cache 0 \
#     -- --clients 50 --seconds 60 --questions eval/sets/own-phrasings.jsonl --unique
#
# Needs the release binary and example: cargo build --release -p paragraf
# -p paragraf-server --example loadtest. PARAGRAF_FLAGS adds global flags
# (--home, --model-dir). The exit status is the driver's: 1 when any valid
# request failed.
set -euo pipefail
cd "$(dirname "$0")/.."
serve=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do serve+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
port=${LOADTEST_PORT:-18080}
bin=target/release/paragraf
driver=target/release/examples/loadtest
[ -x "$bin" ] && [ -x "$driver" ] || { echo "build first: cargo build --release -p paragraf -p paragraf-server --example loadtest" >&2; exit 2; }
# shellcheck disable=SC2086
$bin ${PARAGRAF_FLAGS:-} serve --addr "127.0.0.1:$port" "${serve[@]}" 2>/tmp/paragraf-loadtest-serve.log &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 600); do
  curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  kill -0 $pid 2>/dev/null || { echo "server exited; log: /tmp/paragraf-loadtest-serve.log" >&2; tail -5 /tmp/paragraf-loadtest-serve.log >&2; exit 1; }
  sleep 0.5
done
echo "server ready (pid $pid, RSS $(awk '/VmRSS/ {printf "%.0f MiB", $2/1024}' /proc/$pid/status)): ${serve[*]}"
$driver --url "127.0.0.1:$port" --pid "$pid" "$@"
