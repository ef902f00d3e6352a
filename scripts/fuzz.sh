#!/usr/bin/env bash
# Fuzz every cargo-fuzz target for a bounded time: the corpus parsers and the
# reference extractor (crates/paragraf-corpus/fuzz) and the HTTP layer
# (crates/paragraf-server/fuzz). See docs/fuzzing.md.
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 30 s, all)
#
# Installs cargo-fuzz (into ~/.cargo/bin) and the nightly toolchain when
# missing, builds both fuzz packages once into target/fuzz ($FUZZ_TARGET_DIR;
# optimised, debug assertions on; no sanitizer unless FUZZ_SANITIZER=address:
# our crates have no unsafe code and ASan costs 1.7x the build CPU time, see
# docs/fuzzing.md), then runs each target for the budget, $FUZZ_JOBS (2) at a
# time, -timeout=$FUZZ_TIMEOUT (10 s per input) -rss_limit_mb=2048. Both the
# per-input timeout and the server target's connection limit (5 s) are wall
# clock, so they are multiplied by the machine's load factor (load average
# over the cores, plus our own jobs, rounded up; at least 1, at most 8,
# $FUZZ_LOAD_FACTOR overrides): a starved process is not a hang. Each run
# starts from the committed regression inputs (fuzz/regressions/<target>/),
# the crate's test fixtures and, when the shared corpus is there
# (../shared/corpus or $PARAGRAF_SHARED/corpus), the first 4 KiB of its text
# files; new inputs go to a per-run temp corpus (or to
# $FUZZ_CORPUS_DIR/<target> to keep them; $FUZZ_LOG_DIR keeps the logs).
# Any crash, timeout or OOM fails the script, printing the target and the
# input as base64: fix the bug, then add the input to
# fuzz/regressions/<target>/ (rewrite it first if it quotes a real legal text:
# those are never committed).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
secs=${1:-30}
shift || true
only=("$@")
jobs=${FUZZ_JOBS:-2}
# seconds one input may take on an idle machine (wall clock; scaled below)
unit_timeout=${FUZZ_TIMEOUT:-10}
# the server target's own wall-clock limit per connection (checks.rs)
conn_limit=5
sanitizer=${FUZZ_SANITIZER:-none}
export PATH="$HOME/.cargo/bin:$PATH"
packages=(crates/paragraf-corpus/fuzz crates/paragraf-server/fuzz)
# one target dir for both packages: their common dependencies (libFuzzer
# itself, serde, paragraf-types, ...) are built once
tdir=${FUZZ_TARGET_DIR:-$root/target/fuzz}
shared=${PARAGRAF_SHARED:-../shared}
t0=$(date +%s)
elapsed() { echo "$(($(date +%s) - t0)) s"; }

# cargo-fuzz needs a nightly compiler; where none is installed and none can
# be fetched, the stable one with RUSTC_BOOTSTRAP=1 (its unstable flags
# switched on) builds the same targets
tc=+nightly
if ! rustup toolchain list | grep -q '^nightly'; then
  echo "installing the nightly toolchain"
  if ! rustup toolchain install nightly --profile minimal; then
    echo "no nightly toolchain: using the stable one with RUSTC_BOOTSTRAP=1"
    tc=+stable
    export RUSTC_BOOTSTRAP=1
  fi
fi
[ -n "${FUZZ_TOOLCHAIN:-}" ] && tc=+$FUZZ_TOOLCHAIN
[ "$tc" = +nightly ] || export RUSTC_BOOTSTRAP=1
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "installing cargo-fuzz"
  s=$(date +%s)
  cargo install cargo-fuzz --locked
  echo "cargo-fuzz installed in $(($(date +%s) - s)) s"
fi

# Fixture files and shared-corpus globs that seed each target.
fixture_seeds() {
  local a=crates/paragraf-corpus/tests/fixtures/mini-corpus b=crates/paragraf-corpus/tests/fixtures/parser-inputs
  case $1 in
    gii) echo "$a/de/gii/*.xml" ;;
    superseded_md) echo "$a/de/superseded/*.md" ;;
    formex) echo "$a/eu/de/*.formex.xml" ;;
    eurlex_xhtml) echo "$a/eu/de/*.eurlex.xhtml" ;;
    annex) echo "$b/annexes-mini.json" ;;
    asvs) echo "$b/owasp-*.json" ;;
    eu_json) echo "$b/eu-mini.json" ;;
    foreign) echo "$b/ch-mini.json $b/uk-mini-*.json" ;;
    mappings) echo "$b/iso27001-mini.json $b/nist-csf-mini.json $b/evidence-mini.json" ;;
    nist) echo "$b/nist-mini-*" ;;
    oscal) echo "$b/*.oscal.json" ;;
  esac
}
# Text formats only: a cut of a JSON file is just a syntax error.
shared_seeds() {
  case $1 in
    gii) echo "de/gii/*.xml" ;;
    superseded_md | refs) echo "de/superseded/*.md" ;;
    formex) echo "eu/de/*.formex.xml" ;;
    eurlex_xhtml) echo "eu/de/*.eurlex.xhtml" ;;
    nist) echo "controls/*.tsv" ;;
  esac
}

triple=$(rustc $tc -vV | sed -n 's/^host: //p')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_target() { # package dir, target
  local pkg=$1 t=$2 corpus seeds=$work/seeds-$2 art=$work/artifacts-$2 log=$work/$2.log f
  mkdir -p "$seeds" "$art"
  if [ -n "${FUZZ_CORPUS_DIR:-}" ]; then corpus=$FUZZ_CORPUS_DIR/$t; else corpus=$work/corpus-$t; fi
  mkdir -p "$corpus"
  for f in $(fixture_seeds "$t"); do
    if [ -f "$f" ]; then cp "$f" "$seeds/"; fi
  done
  local globs
  globs=$(shared_seeds "$t")
  if [ -n "$globs" ] && [ -d "$shared/corpus" ]; then
    for f in $(cd "$shared/corpus" && eval "ls -d $globs 2>/dev/null" || true); do
      if [ -f "$shared/corpus/$f" ]; then
        head -c 4096 "$shared/corpus/$f" >"$seeds/shared-$(echo "$f" | tr / _)"
      fi
    done
  fi
  local rc=0
  "$tdir/$triple/release/$t" "$corpus" "$pkg/regressions/$t" "$seeds" \
    -max_total_time="$secs" -rss_limit_mb=2048 -timeout="$unit_timeout" \
    -report_slow_units="$unit_timeout" -print_final_stats=1 \
    -artifact_prefix="$art/" >"$log" 2>&1 || rc=$?
  local execs slowest done_line
  execs=$(awk '/stat::number_of_executed_units/ {print $NF}' "$log" | tail -1)
  slowest=$(awk '/stat::slowest_unit_time_sec/ {print $NF}' "$log" | tail -1)
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 | sed -E 's/^#[0-9]+[[:space:]]+DONE[[:space:]]+//' || true)
  if [ -n "${FUZZ_LOG_DIR:-}" ]; then mkdir -p "$FUZZ_LOG_DIR" && cp "$log" "$FUZZ_LOG_DIR/"; fi
  if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$art")" ]; then
    echo "FUZZ FAILURE: target $t (exit $rc)"
    tail -n 60 "$log"
    for f in "$art"/*; do
      if [ ! -f "$f" ]; then continue; fi
      echo "crashing input of $t ($(basename "$f"), $(wc -c <"$f") bytes), base64:"
      base64 -w0 "$f"
      echo
    done
    return 1
  fi
  echo "ok $t: ${execs:-?} runs in $secs s, 0 crashes, slowest input ${slowest:-?} s; ${done_line:-no final stats}"
}

targets=()
for p in "${packages[@]}"; do
  for t in $(cd "$p" && cargo $tc fuzz list); do
    if [ ${#only[@]} -eq 0 ] || printf '%s\n' "${only[@]}" | grep -qx "$t"; then
      targets+=("$p:$t")
    fi
  done
done
for t in "${only[@]}"; do
  if ! printf '%s\n' "${targets[@]##*:}" | grep -qx "$t"; then
    echo "no fuzz target \`$t\`" >&2
    exit 2
  fi
done
for p in "${packages[@]}"; do
  if printf '%s\n' "${targets[@]%%:*}" | grep -qx "$p"; then
    s=$(date +%s)
    (cd "$p" && cargo $tc fuzz build --sanitizer "$sanitizer" --target-dir "$tdir")
    echo "built $p (sanitizer: $sanitizer) in $(($(date +%s) - s)) s"
  fi
done
# Load factor: how many runnable processes share a core once our jobs run
# (1-minute load average, taken after the build, plus $jobs, over the cores),
# rounded up and clamped to 1..8. The wall-clock limits grow with it so a
# target that is merely starved of CPU is not reported as a timeout.
load_factor() {
  local cores load
  cores=$(nproc 2>/dev/null || echo 1)
  load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
  awk -v l="$load" -v j="$jobs" -v c="$cores" 'BEGIN {
    f = (l + j) / c; n = int(f); if (n < f) n++;
    if (n < 1) n = 1; if (n > 8) n = 8; print n }'
}
factor=${FUZZ_LOAD_FACTOR:-$(load_factor)}
unit_timeout=$((unit_timeout * factor))
export PARAGRAF_FUZZ_CONNECTION_LIMIT_S=$((conn_limit * factor))
echo "fuzzing ${#targets[@]} targets for $secs s each, $jobs at a time; load factor $factor: -timeout=$unit_timeout s per input, $PARAGRAF_FUZZ_CONNECTION_LIMIT_S s per connection ($(elapsed) so far)"

failed=0
running=0
for pt in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  run_target "${pt%%:*}" "${pt##*:}" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done

if [ "$failed" -ne 0 ]; then
  echo "fuzzing found a failure ($(elapsed))"
  exit 1
fi
echo "fuzzing: ${#targets[@]} targets, no failure ($(elapsed))"
