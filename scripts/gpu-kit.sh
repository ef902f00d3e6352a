#!/usr/bin/env bash
# The GPU kit: everything a GPU check needs, built here, carried small, run
# there as one prepared script (issue "GPU kit"; docs in ARCHITECTURE.md,
# "Devices").
#
#   scripts/gpu-kit.sh pack [--cpu] [KIT_DIR]
#       Builds `paragraf` with `--features cuda` for CUDA_COMPUTE_CAP (default
#       90: H100/H200) against CUDA 13.0 from the Python registry
#       (../shared/cuda/make-link-stubs.sh), in its own target dir so the CPU
#       build is untouched; strips and compresses it and packs it with the core
#       corpus subset (binding German and EU texts + mappings), the XLM-R
#       tokenizer (bge-m3's; from the multilingual-e5-small model directory),
#       the PyTorch peer script and this script into KIT_DIR (default
#       target/gpu-kit, ignored by git). Fails when the kit exceeds
#       GPU_KIT_MAX_MIB (default 40). `--cpu` packs the CPU release binary
#       instead (no CUDA build; with PARAGRAF_BIN set, that binary: what the
#       CI test does).
#   scripts/gpu-kit.sh run OUT [--device cuda|cpu] [--tiny]
#       On the GPU machine, from the kit directory: unpacks into a work folder
#       outside OUT (GPU_KIT_WORK, default a new folder under $TMPDIR or
#       /tmp), finds the CUDA libraries (the Python packages' nvidia/*/lib,
#       then /usr/local/cuda*/lib64 and ldconfig) and writes a preflight
#       (kit commit, host, library folders, `ldd` of the binary,
#       `nvidia-smi -q`) before any part runs; samples clocks, power, memory
#       and throttling with nvidia-smi for the whole run. Then runs each part
#       of `paragraf gpu-check` (plan, parity, prepare, encoder, decoder, e2e)
#       and the PyTorch peer under its own time box — a failing or slow part
#       is recorded and the rest still run — and the report in a box of its
#       own. OUT follows the GPU machine's return rules (at most 8 plain
#       files of at most 16 MiB, no folders, names of [A-Za-z0-9._-]) and is
#       refreshed after every part: gpu-check.md, gpu-check.json,
#       preflight.txt, parts.log and gpu-kit-results.tar.gz (every part's
#       JSON, the peer's, logs, nvidia-smi samples).
#
# Environment:
#   PARAGRAF_MODEL_DIR  where multilingual-e5-small/tokenizer.json is (pack)
#   PARAGRAF_SHARED     ../shared (corpus, cuda stubs)
#   PARAGRAF_CORPUS     the corpus (default $PARAGRAF_SHARED/corpus)
#   CUDA_STUBS_DIR      CUDA venv + link stand-ins (default /work/targets/cuda-stubs)
#   GPU_KIT_TARGET_DIR  target dir of the CUDA build (default /work/targets/cuda-kit)
#   GPU_KIT_BUDGET_S    seconds for all parts of `run` (default 450; the
#                       report has 60 s of its own after it)
#   GPU_KIT_WORK        work folder of `run` (must lie outside OUT)
#   GPU_KIT_XZ_LEVEL    xz level of the binary (default 9)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cmd=${1:-}
shift || true

die() { echo "gpu-kit: $*" >&2; exit 2; }
mib() { echo $(( ($1 + 1048575) / 1048576 )); }

pack() {
  local ROOT SHARED kit cpu=0 bin t0 t1 tok
  ROOT=$(cd "$HERE/.." && pwd)
  SHARED=${PARAGRAF_SHARED:-$ROOT/../shared}
  if [ "${1:-}" = "--cpu" ]; then cpu=1; shift; fi
  kit=${1:-$ROOT/target/gpu-kit}
  local models=${PARAGRAF_MODEL_DIR:-}
  tok=""
  for d in "$models" "${PARAGRAF_TEST_MODELS:-}" "${XDG_CACHE_HOME:-$HOME/.cache}/paragraf/test-models"; do
    if [ -n "$d" ] && [ -f "$d/multilingual-e5-small/tokenizer.json" ]; then tok=$d/multilingual-e5-small/tokenizer.json; break; fi
  done
  [ -n "$tok" ] || die "no multilingual-e5-small/tokenizer.json (the XLM-R tokenizer bge-m3 uses) under PARAGRAF_MODEL_DIR or the test-model cache"
  local corpus=${PARAGRAF_CORPUS:-$SHARED/corpus}
  [ -d "$corpus/de" ] && [ -d "$corpus/eu" ] || die "no corpus at $corpus"
  t0=$(date +%s)
  if [ $cpu = 1 ] && [ -n "${PARAGRAF_BIN:-}" ]; then
    bin=$PARAGRAF_BIN   # an already-built CPU binary (the CI test's)
  elif [ $cpu = 1 ]; then
    (cd "$ROOT" && cargo build --release -p paragraf)
    bin=${CARGO_TARGET_DIR:-$ROOT/target}/release/paragraf
  else
    local stubs=${CUDA_STUBS_DIR:-/work/targets/cuda-stubs}
    if ! command -v nvcc >/dev/null 2>&1; then
      eval "$(bash "$SHARED/cuda/make-link-stubs.sh" "$stubs" | grep '^export ')"
    fi
    export CUDA_COMPUTE_CAP=${CUDA_COMPUTE_CAP:-90}
    local target=${GPU_KIT_TARGET_DIR:-/work/targets/cuda-kit}
    local link=${PARAGRAF_CUDA_LINK_DIR:-$stubs/link}
    # RUSTFLAGS only for this target dir: changing them rebuilds everything
    (cd "$ROOT" && CARGO_TARGET_DIR=$target RUSTFLAGS="-L $link" \
      cargo build --release -p paragraf --features cuda)
    bin=$target/release/paragraf
  fi
  t1=$(date +%s)
  echo "gpu-kit: build $(( t1 - t0 )) s ($([ $cpu = 1 ] && echo cpu || echo "cuda, sm_$CUDA_COMPUTE_CAP"))"
  rm -rf "$kit"; mkdir -p "$kit"
  strip -o "$kit/paragraf" "$bin"
  xz -T0 "-${GPU_KIT_XZ_LEVEL:-9}" -f "$kit/paragraf"
  tar -C "$corpus" -cJf "$kit/corpus.tar.xz" de eu mappings
  xz -9 -c "$tok" > "$kit/tokenizer.json.xz"
  cp "$HERE/gpu-kit.sh" "$HERE/gpu_peer.py" "$kit/"
  {
    echo "commit $(cd "$ROOT" && git rev-parse --short HEAD)$(cd "$ROOT" && git diff --quiet || echo '+dirty')"
    echo "build $([ $cpu = 1 ] && echo cpu || echo "cuda sm_$CUDA_COMPUTE_CAP") $(( t1 - t0 )) s"
    echo "binary $(stat -c %s "$bin") bytes unstripped"
  } > "$kit/MANIFEST"
  local size max=${GPU_KIT_MAX_MIB:-40}
  size=$(du -cb "$kit"/* | tail -1 | cut -f1)
  echo "gpu-kit: $kit $(mib "$size") MiB ($size bytes)"
  ls -l "$kit"
  [ "$size" -le $(( max * 1048576 )) ] || die "kit is $(mib "$size") MiB, over the ${max} MiB limit"
}

# Seconds left of the run's budget.
left() { echo $(( deadline - $(date +%s) )); }

# part NAME SECONDS CMD...: runs one part under `timeout`, never longer than
# what is left of the budget; a failure or a timeout is recorded, not fatal
# (`run` works without `set -e`), and OUT is refreshed after every part, so a
# run cut off from outside still returns what was measured.
part() {
  local name=$1 box=$2; shift 2
  local l; l=$(left)
  if [ "$l" -lt 10 ]; then echo "gpu-kit: $name not run (budget spent)" | tee -a "$logs/parts.log"; return; fi
  [ "$box" -le "$l" ] || box=$l
  local t0 rc=0; t0=$(date +%s)
  echo "=== $name (time box $box s)"
  timeout --kill-after=10 "$box" "$@" >"$logs/$name.log" 2>&1 || rc=$?
  tail -5 "$logs/$name.log"
  echo "$name rc=$rc $(( $(date +%s) - t0 )) s (box $box s)" | tee -a "$logs/parts.log"
  collect
}

# The CUDA libraries candle's binary links: the Python packages' nvidia/*/lib
# folders first (CUDA 13 from the registry), then a system toolkit
# (/usr/local/cuda*/lib64, /usr/lib/x86_64-linux-gnu via ldconfig). Prints
# the folders found, colon-separated (empty when none).
cuda_lib_dirs() {
  local found=()
  local py
  py=$(python3 - <<'PY' 2>/dev/null || true
import glob, os, site, sys
roots = []
try:
    roots += site.getsitepackages() + [site.getusersitepackages()]
except Exception:
    pass
roots += sys.path
seen = []
for r in roots:
    for d in sorted(glob.glob(os.path.join(r, "nvidia", "cu13", "lib"))) + sorted(glob.glob(os.path.join(r, "nvidia", "*", "lib"))):
        if os.path.isdir(d) and d not in seen:
            seen.append(d)
print(":".join(seen))
PY
)
  [ -n "$py" ] && found+=("$py")
  local d
  for d in /usr/local/cuda/lib64 /usr/local/cuda-*/lib64 /usr/local/cuda*/targets/x86_64-linux/lib; do
    [ -d "$d" ] && found+=("$d")
  done
  d=$(ldconfig -p 2>/dev/null | awk '/libcublas\.so|libcudart\.so/ {print $NF}' | xargs -r -n1 dirname | sort -u | paste -sd: -)
  [ -n "$d" ] && found+=("$d")
  (IFS=:; echo "${found[*]}")
}

# OUT, rebuilt from the work folder: at most 8 plain files, each within
# GPU_KIT_MAX_RETURN_MIB (16), no folders, names of [A-Za-z0-9._-]: the
# report (.md, .json), the preflight, the time boxes, and one archive of
# every log and JSON (logs cut to their last MiB when the archive would be
# too large).
collect() {
  local max=$(( ${GPU_KIT_MAX_RETURN_MIB:-16} * 1048576 ))
  for f in gpu-check.md gpu-check.json; do
    [ -f "$res/$f" ] && cp -f "$res/$f" "$out/$f.tmp" && mv -f "$out/$f.tmp" "$out/$f"
  done
  cp -f "$logs/preflight.txt" "$out/preflight.txt.tmp" 2>/dev/null && mv -f "$out/preflight.txt.tmp" "$out/preflight.txt"
  cp -f "$logs/parts.log" "$out/parts.log.tmp" 2>/dev/null && mv -f "$out/parts.log.tmp" "$out/parts.log"
  tar -C "$work" -czf "$out/gpu-kit-results.tar.gz.tmp" results logs 2>/dev/null
  if [ "$(stat -c %s "$out/gpu-kit-results.tar.gz.tmp" 2>/dev/null || echo 0)" -gt "$max" ]; then
    local f
    for f in "$logs"/*.log "$logs"/*.csv; do
      [ -f "$f" ] && [ "$(stat -c %s "$f")" -gt 1048576 ] && { tail -c 1048576 "$f" > "$f.cut"; mv -f "$f.cut" "$f"; }
    done
    tar -C "$work" -czf "$out/gpu-kit-results.tar.gz.tmp" results logs 2>/dev/null
  fi
  mv -f "$out/gpu-kit-results.tar.gz.tmp" "$out/gpu-kit-results.tar.gz" 2>/dev/null
  return 0
}

# Before any part: what the machine is and what the binary will load.
preflight() {
  local bin=$1 libs=$2 f=$logs/preflight.txt
  {
    echo "# gpu-kit preflight $(date -u +%FT%TZ)"
    echo "## kit"; cat "$kit/MANIFEST" 2>/dev/null || echo "no MANIFEST"
    echo "## host"; uname -a; echo "cpus $(nproc)"; free -g 2>/dev/null | head -2
    echo "## CUDA library folders found"; echo "${libs:-none}" | tr ':' '\n'
    echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
    echo "## ldd $bin"; ldd "$bin" 2>&1 || true
    echo "## nvidia-smi -q"
    if command -v nvidia-smi >/dev/null 2>&1; then nvidia-smi -q 2>&1 || true; else echo "nvidia-smi not found"; fi
  } > "$f" 2>&1
  grep -q "not found" <(ldd "$bin" 2>&1) && echo "gpu-kit: warning: ldd finds missing libraries (see preflight.txt)" | tee -a "$logs/parts.log"
  return 0
}

run() {
  local out=${1:?usage: gpu-kit.sh run OUT [--device cuda|cpu] [--tiny]}; shift
  local device=cuda tiny=()
  while [ $# -gt 0 ]; do
    case $1 in
      --device) device=$2; shift 2 ;;
      --tiny) tiny=(--tiny); shift ;;
      *) die "unknown argument $1" ;;
    esac
  done
  # from here on a failing command is recorded, never fatal: every part,
  # the peer and the report get their chance
  set +e
  mkdir -p "$out"; out=$(cd "$out" && pwd)
  local kit=$HERE work
  # work files (binary, corpus, GGUFs, index, logs) stay outside OUT, which
  # only ever holds what `collect` puts there
  work=${GPU_KIT_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/gpu-kit-work.XXXXXX")}
  mkdir -p "$work"; work=$(cd "$work" && pwd)
  case "$work/" in "$out/"*) die "GPU_KIT_WORK must lie outside OUT" ;; esac
  local res=$work/results logs=$work/logs
  mkdir -p "$res" "$logs"
  deadline=$(( $(date +%s) + ${GPU_KIT_BUDGET_S:-450} ))
  : > "$logs/parts.log"
  local bin=${PARAGRAF_BIN:-}
  if [ -z "$bin" ]; then
    xz -dc "$kit/paragraf.xz" > "$work/paragraf"; chmod +x "$work/paragraf"; bin=$work/paragraf
  fi
  mkdir -p "$work/corpus"; tar -C "$work/corpus" -xJf "$kit/corpus.tar.xz"
  xz -dc "$kit/tokenizer.json.xz" > "$work/tokenizer.json"
  local libs="" sampler=""
  if [ "$device" = cuda ]; then
    libs=$(cuda_lib_dirs)
    [ -n "$libs" ] || echo "gpu-kit: no CUDA library folder found (Python nvidia/*/lib, /usr/local/cuda*, ldconfig); the parts will say what is missing" | tee -a "$logs/parts.log"
    export LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    if command -v nvidia-smi >/dev/null 2>&1; then
      nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$res/gpu.txt" 2>&1
      # clocks, power, memory and throttling, sampled for the whole run
      nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,memory.used,temperature.gpu,utilization.gpu,clocks_throttle_reasons.active \
        --format=csv -lms 500 > "$logs/nvidia-smi-samples.csv" 2>&1 &
      sampler=$!
    else
      echo "gpu-kit: nvidia-smi not found: no GPU telemetry" | tee -a "$logs/parts.log"
    fi
  fi
  preflight "$bin" "$libs"
  collect
  local gc=("$bin" --quiet gpu-check --out "$res" --work "$work/scratch" --device "$device" "${tiny[@]}")
  part plan 60 "${gc[@]}" --part plan
  part parity 100 "${gc[@]}" --part parity
  # the decoders' GGUFs are written (quantised) in their own box, so the
  # decoder box times decoding only
  part prepare 120 "${gc[@]}" --part prepare
  part encoder 110 "${gc[@]}" --part encoder
  part decoder 150 "${gc[@]}" --part decoder
  part e2e 90 "${gc[@]}" --part e2e --corpus "$work/corpus" --tokenizer "$work/tokenizer.json"
  part peer 120 python3 "$kit/gpu_peer.py" --plan "$res/plan.json" --out "$res/peer.json" --device "$device"
  if [ -n "$sampler" ]; then
    kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
    nvidia-smi -q > "$logs/nvidia-smi-after.txt" 2>&1
    telemetry "$logs/nvidia-smi-samples.csv" > "$res/telemetry.json"
  fi
  # the report gets a box of its own, outside the parts' budget
  deadline=$(( $(date +%s) + 60 ))
  cp -f "$logs/parts.log" "$res/parts.log"
  part report 60 "${gc[@]}" --part report
  rm -rf "$work/scratch" "$work/corpus" "$work/paragraf"
  collect
  echo "gpu-kit: report in $out/gpu-check.md (work files in $work)"
}

# Peak memory, clock range, power peak and throttle reasons seen in the
# sampled nvidia-smi CSV, as JSON (the report shows it).
telemetry() {
  awk -F', *' 'NR > 1 && $2 ~ /^[0-9]/ {
      n++; sm = $2 + 0; mem = $5 + 0; pw = $4 + 0
      if (n == 1 || sm < smin) smin = sm; if (sm > smax) smax = sm
      if (mem > mmax) mmax = mem; if (pw > pmax) pmax = pw
      if ($8 != "0x0000000000000000" && $8 != "") thr[$8]++
    }
    END {
      printf "{\"samples\": %d, \"sm_clock_mhz_min\": %d, \"sm_clock_mhz_max\": %d, \"memory_used_mib_max\": %d, \"power_w_max\": %.1f, \"throttle_reasons\": {", n, smin, smax, mmax, pmax
      sep = ""; for (k in thr) { printf "%s\"%s\": %d", sep, k, thr[k]; sep = ", " }
      print "}}"
    }' "$1"
}

case $cmd in
  pack) pack "$@" ;;
  run) run "$@" ;;
  *) die "usage: gpu-kit.sh pack [--cpu] [KIT_DIR] | run OUT [--device cuda|cpu] [--tiny]" ;;
esac
