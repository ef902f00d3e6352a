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
#       On the GPU machine, from the kit directory: unpacks, puts the CUDA
#       libraries of the Python packages (nvidia/cu13/lib) on LD_LIBRARY_PATH,
#       then runs each part of `paragraf gpu-check` and the PyTorch peer under
#       its own time box (a slow part cannot eat the rest; each part's JSON is
#       written as soon as it ends) and writes OUT/gpu-check.json + .md.
#
# Environment:
#   PARAGRAF_MODEL_DIR  where multilingual-e5-small/tokenizer.json is (pack)
#   PARAGRAF_SHARED     ../shared (corpus, cuda stubs)
#   PARAGRAF_CORPUS     the corpus (default $PARAGRAF_SHARED/corpus)
#   CUDA_STUBS_DIR      CUDA venv + link stand-ins (default /work/targets/cuda-stubs)
#   GPU_KIT_TARGET_DIR  target dir of the CUDA build (default /work/targets/cuda-kit)
#   GPU_KIT_BUDGET_S    seconds for all parts of `run` (default 450)
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
# what is left of the budget; a failure or a timeout is recorded, not fatal.
part() {
  local name=$1 box=$2; shift 2
  local l; l=$(left)
  if [ "$l" -lt 10 ]; then echo "gpu-kit: $name not run (budget spent)" | tee -a "$out/parts.log"; return; fi
  [ "$box" -le "$l" ] || box=$l
  local t0 rc=0; t0=$(date +%s)
  echo "=== $name (time box $box s)"
  timeout --kill-after=10 "$box" "$@" >"$out/$name.log" 2>&1 || rc=$?
  tail -5 "$out/$name.log"
  echo "$name rc=$rc $(( $(date +%s) - t0 )) s (box $box s)" | tee -a "$out/parts.log"
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
  mkdir -p "$out"; out=$(cd "$out" && pwd)
  local kit=$HERE work
  work=$out/work; mkdir -p "$work"
  deadline=$(( $(date +%s) + ${GPU_KIT_BUDGET_S:-450} ))
  : > "$out/parts.log"
  local bin=${PARAGRAF_BIN:-}
  if [ -z "$bin" ]; then
    xz -dc "$kit/paragraf.xz" > "$work/paragraf"; chmod +x "$work/paragraf"; bin=$work/paragraf
  fi
  mkdir -p "$work/corpus"; tar -C "$work/corpus" -xJf "$kit/corpus.tar.xz"
  xz -dc "$kit/tokenizer.json.xz" > "$work/tokenizer.json"
  if [ "$device" = cuda ]; then
    local libs
    libs=$(python3 - <<'PY' 2>/dev/null || true
import glob, os, site, sys
roots = site.getsitepackages() + [site.getusersitepackages()] + sys.path
seen = []
for r in roots:
    for d in glob.glob(os.path.join(r, "nvidia", "cu13", "lib")) + glob.glob(os.path.join(r, "nvidia", "*", "lib")):
        if d not in seen:
            seen.append(d)
print(":".join(seen))
PY
)
    [ -n "$libs" ] || die "no nvidia/*/lib folder in the Python packages (CUDA libraries)"
    export LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1 || true
  fi
  local gc=("$bin" --quiet gpu-check --out "$out" --device "$device" "${tiny[@]}")
  "${gc[@]}" --part plan
  part parity 100 "${gc[@]}" --part parity
  part encoder 110 "${gc[@]}" --part encoder
  part decoder 150 "${gc[@]}" --part decoder
  part e2e 90 "${gc[@]}" --part e2e --corpus "$work/corpus" --tokenizer "$work/tokenizer.json"
  part peer 120 python3 "$kit/gpu_peer.py" --plan "$out/plan.json" --out "$out/peer.json" --device "$device"
  "${gc[@]}" --part report
  echo "gpu-kit: report in $out/gpu-check.md"
}

case $cmd in
  pack) pack "$@" ;;
  run) run "$@" ;;
  *) die "usage: gpu-kit.sh pack [--cpu] [KIT_DIR] | run OUT [--device cuda|cpu] [--tiny]" ;;
esac
