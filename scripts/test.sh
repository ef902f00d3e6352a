#!/usr/bin/env bash
# The test command of the README: lays out the small real test models (cached
# between runs), then runs every test of the workspace in release mode (the
# real-model tests need optimised code; release also shares its build with
# the `paragraf` binary).
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${PARAGRAF_SHARED:-../shared}
# absolute: cargo runs each test binary in its own crate directory
SHARED=$(cd "$SHARED" 2>/dev/null && pwd || echo "$SHARED")
export PARAGRAF_TEST_MODELS=${PARAGRAF_TEST_MODELS:-${XDG_CACHE_HOME:-$HOME/.cache}/paragraf/test-models}
if [ -f "$SHARED/models/fetch-test-models.sh" ]; then
  bash "$SHARED/models/fetch-test-models.sh" "$PARAGRAF_TEST_MODELS" embed llm >/dev/null
else
  echo "note: $SHARED/models/fetch-test-models.sh not found; real-model tests will be skipped" >&2
fi
export PARAGRAF_CORPUS=${PARAGRAF_CORPUS:-$SHARED/corpus}
[ -d "$PARAGRAF_CORPUS" ] || echo "note: corpus $PARAGRAF_CORPUS not found; real-corpus tests will be skipped" >&2
cargo test --release --workspace "$@"
