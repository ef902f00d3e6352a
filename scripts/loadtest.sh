#!/usr/bin/env bash
# Load test of a running Paragraf server on loopback, bounded in count and time.
#
#   scripts/loadtest.sh [BASE_URL] [DURATION_S] [CONNECTIONS] [SERVER_PID]
#
# Defaults: http://127.0.0.1:8080, 30 s, 200 connections. Two phases with wrk
# (Debian package `wrk`): (1) POST /v1/search idle; (2) the same while a
# second process keeps one generation running (sequential POST /v1/answer via
# curl). Prints requests, errors (socket + non-2xx), p50/p99 per phase, the
# ratio busy-p99 / idle-p99 (target < 2) and, given SERVER_PID, the server's
# RSS and peak RSS. Only 127.0.0.1 / localhost / [::1] targets are accepted.
# Env: QUERY (search text), API_KEY (bearer token), THREADS (wrk threads, 2).
set -euo pipefail

BASE=${1:-http://127.0.0.1:8080}
DURATION=${2:-30}
CONNS=${3:-200}
PID=${4:-}
THREADS=${THREADS:-2}
QUERY=${QUERY:-Ist unsere Firma verpflichtet, einen Datenschutzbeauftragten zu benennen?}

case "$BASE" in
  http://127.0.0.1:*|http://localhost:*|http://\[::1\]:*) ;;
  *) echo "refusing non-loopback target: $BASE" >&2; exit 2 ;;
esac
[[ "$DURATION" =~ ^[0-9]+$ && "$DURATION" -ge 1 && "$DURATION" -le 120 ]] || { echo "DURATION must be 1..120 s" >&2; exit 2; }
[[ "$CONNS" =~ ^[0-9]+$ && "$CONNS" -ge 1 && "$CONNS" -le 1000 ]] || { echo "CONNECTIONS must be 1..1000" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl not found" >&2; exit 2; }

AUTH=()
[[ -n "${API_KEY:-}" ]] && AUTH=(-H "Authorization: Bearer $API_KEY")
curl -fsS "${AUTH[@]}" "$BASE/readyz" >/dev/null || { echo "server at $BASE is not ready" >&2; exit 1; }

TMP=$(mktemp -d)
trap 'kill "${GEN_PID:-}" 2>/dev/null || true; rm -rf "$TMP"' EXIT
BODY=$(printf '{"query": "%s", "top_k": 5}' "$QUERY")

cat > "$TMP/search.lua" <<LUA
wrk.method = "POST"
wrk.body = [[$BODY]]
wrk.headers["Content-Type"] = "application/json"
${API_KEY:+wrk.headers["Authorization"] = "Bearer $API_KEY"}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT requests=%d socket_errors=%d non2xx=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f rps=%.1f\n",
    summary.requests, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    summary.requests / (summary.duration / 1e6)))
end
LUA

rss() {
  [[ -n "$PID" && -r /proc/$PID/status ]] || return 0
  awk '/^VmRSS|^VmHWM/ {printf "%s %.1f MiB  ", $1, $2/1024} END {print ""}' "/proc/$PID/status"
}

run_phase() {
  local name=$1
  local out
  out=$(wrk -t"$THREADS" -c"$CONNS" -d"${DURATION}s" --timeout 10s -s "$TMP/search.lua" "$BASE/v1/search" 2>&1)
  local line
  line=$(grep '^RESULT' <<<"$out" || true)
  [[ -n "$line" ]] || { echo "$out" >&2; echo "wrk produced no result" >&2; exit 1; }
  echo "$name: ${line#RESULT }"
  echo "$line" > "$TMP/$name"
}

echo "== phase 1: /v1/search idle (${CONNS} connections, ${DURATION}s)"
run_phase idle
rss

echo "== phase 2: /v1/search while generations run"
(
  end=$((SECONDS + DURATION + 5))
  while (( SECONDS < end )); do
    curl -sS -N -o /dev/null "${AUTH[@]}" -H 'Content-Type: application/json' \
      --max-time $((DURATION + 10)) -d "$BODY" "$BASE/v1/answer" || sleep 1
  done
) &
GEN_PID=$!
sleep 1
run_phase busy
kill "$GEN_PID" 2>/dev/null || true
wait "$GEN_PID" 2>/dev/null || true
rss

field() { sed -n "s/.*$2=\([0-9.]*\).*/\1/p" "$TMP/$1"; }
IDLE_P99=$(field idle p99_ms); BUSY_P99=$(field busy p99_ms)
ERRS=$(( $(field idle socket_errors) + $(field idle non2xx) + $(field busy socket_errors) + $(field busy non2xx) ))
RATIO=$(awk -v a="$BUSY_P99" -v b="$IDLE_P99" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
echo "== summary: errors=$ERRS idle_p99_ms=$IDLE_P99 busy_p99_ms=$BUSY_P99 busy/idle_p99=$RATIO"
curl -fsS "$BASE/metrics" | grep -E '^paragraf_(answer_queue_depth|generated_tokens_total|tokens_per_second|answers_rejected_total) ' || true
[[ "$ERRS" -eq 0 ]] || { echo "FAIL: $ERRS errors" >&2; exit 1; }
