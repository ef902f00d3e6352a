#!/usr/bin/env bash
# `cargo check -p paragraf-models --features cuda` on machines without a GPU or
# a CUDA package: installs nvcc (CUDA 13.0, from the Python registry) and the
# link stand-ins with ../shared/cuda/make-link-stubs.sh, then checks in a
# separate target dir so the main (CPU) build is not disturbed.
#
# Usage: scripts/cuda-check.sh [extra cargo args]
#   CUDA_STUBS_DIR   where the CUDA venv/stubs go   (default /work/targets/cuda-stubs)
#   CARGO_TARGET_DIR target dir for the cuda build  (default /work/targets/cuda)
#   CUDA_COMPUTE_CAP GPU compute capability         (default 90: H100/H200)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${PARAGRAF_SHARED:-$ROOT/../shared}
STUBS=${CUDA_STUBS_DIR:-/work/targets/cuda-stubs}
if ! command -v nvcc >/dev/null 2>&1; then
  env_lines=$(bash "$SHARED/cuda/make-link-stubs.sh" "$STUBS" | grep '^export ')
  eval "$env_lines"
fi
export CUDA_COMPUTE_CAP=${CUDA_COMPUTE_CAP:-90}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/work/targets/cuda}
nvcc --version | tail -2
cd "$ROOT"
cargo check --release -p paragraf-models --features cuda "$@"
echo "cuda-check: OK"
