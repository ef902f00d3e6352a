#!/usr/bin/env bash
# Serving beyond one process: N stateless `paragraf serve` replicas over the
# same immutable index directory behind HAProxy (Debian's package; installed
# when missing), health-checked via /readyz, all on loopback. Runs the load
# driver (crates/paragraf-server/examples/loadtest.rs) three times through
# the balancer: one replica, all replicas, and all replicas with one killed
# (SIGKILL) halfway through; prints each driver report and a summary line.
#
#   scripts/replicas.sh --index DIR [--replicas 2] [--seconds 30] [--warmup 5] [-- driver flags …]
#   PARAGRAF_FLAGS="--home /work/data --model-dir /work/models --quiet" \
#     scripts/replicas.sh --index /work/data/index-all -- --clients 16 \
#     --questions eval/sets/own-phrasings.jsonl --unique --mix search=100
#
# Needs the release binary and example (cargo build --release -p paragraf
# -p paragraf-server --example loadtest). Exit status: 1 when a valid
# request failed in any run (the driver's rule), else 0.
set -euo pipefail
cd "$(dirname "$0")/.."
index="" replicas=2 seconds=30 warmup=5
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --index) index=$2; shift 2 ;;
    --replicas) replicas=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    *) echo "replicas.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ "${1:-}" = "--" ] && shift
[ -n "$index" ] || { echo "replicas.sh: --index DIR is required" >&2; exit 2; }
bin=target/release/paragraf
driver=target/release/examples/loadtest
[ -x "$bin" ] && [ -x "$driver" ] || { echo "build first: cargo build --release -p paragraf -p paragraf-server --example loadtest" >&2; exit 2; }
if ! command -v haproxy >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq haproxy >/dev/null
fi
base=${REPLICAS_PORT:-18180}
work=$(mktemp -d)
pids=()
hap=""
cleanup() {
  [ -n "$hap" ] && kill "$hap" 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

for i in $(seq 1 "$replicas"); do
  port=$((base + i))
  # shellcheck disable=SC2086
  $bin ${PARAGRAF_FLAGS:-} serve --addr "127.0.0.1:$port" --index "$index" 2>"$work/replica-$i.log" &
  pids+=($!)
done
for i in $(seq 1 "$replicas"); do
  port=$((base + i))
  for _ in $(seq 600); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    kill -0 "${pids[$((i - 1))]}" 2>/dev/null || { echo "replica $i exited:" >&2; tail -5 "$work/replica-$i.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "replica $i ready on 127.0.0.1:$port (pid ${pids[$((i - 1))]})"
done

# haproxy with the first N servers; health check /readyz every second, a
# request on a dead server is retried on another (L7 retry + redispatch)
balancer() {
  local n=$1 cfg=$work/haproxy-$1.cfg
  {
    cat <<CFG
global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 300s
  timeout server 300s
  retries 3
  option redispatch 1
  retry-on all-retryable-errors
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 1s fall 2 rise 2
frontend paragraf
  bind 127.0.0.1:$base
  default_backend replicas
backend replicas
  balance leastconn
CFG
    for i in $(seq 1 "$n"); do echo "  server r$i 127.0.0.1:$((base + i)) check"; done
  } > "$cfg"
  haproxy -f "$cfg" -db >"$work/haproxy-$n.log" 2>&1 &
  hap=$!
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$base/readyz" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "haproxy did not come up:" >&2; cat "$work/haproxy-$n.log" >&2; exit 1
}
stop_balancer() { kill "$hap" 2>/dev/null || true; wait "$hap" 2>/dev/null || true; hap=""; }

status=0
run() {
  local label=$1; shift
  echo "=== $label"
  "$driver" --url "127.0.0.1:$base" --seconds "$seconds" --warmup "$warmup" --json "$@" > "$work/$label.json" || status=1
  cat "$work/$label.json"
}
balancer 1
run one-replica "$@"
stop_balancer
balancer "$replicas"
run all-replicas "$@"
# the last replica dies halfway through the third run's measured span
kill_at=$((warmup + seconds / 2))
( sleep "$kill_at"; kill -9 "${pids[$((replicas - 1))]}" 2>/dev/null && echo "killed replica $replicas (pid ${pids[$((replicas - 1))]}) at $kill_at s" ) &
killer=$!
run one-killed "$@"
wait "$killer" 2>/dev/null || true
stop_balancer
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
rows = []
for label in ("one-replica", "all-replicas", "one-killed"):
    kinds = json.load(open(f"{w}/{label}.json"))["kinds"]
    ok = sum(k["ok"] for k in kinds.values())
    err = sum(k["errors"] for k in kinds.values())
    rows.append((label, ok, err, sum(k["per_s"] for k in kinds.values())))
for label, ok, err, qps in rows:
    print(f"{label}: {ok} ok, {err} errors, {qps:.2f} req/s")
print(f"scaling (all / one): {rows[1][3] / rows[0][3]:.2f}x" if rows[0][3] else "scaling: n/a")
PY
exit $status
