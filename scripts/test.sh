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
export PARAGRAF_CORPUS=${PARAGRAF_CORPUS:-$SHARED/corpus}
if [ -f "$SHARED/models/fetch-test-models.sh" ] && [ -d "$PARAGRAF_CORPUS" ]; then
  bash "$SHARED/models/fetch-test-models.sh" "$PARAGRAF_TEST_MODELS" embed llm >/dev/null
  # the shared inputs are here: a real-model or real-corpus test that cannot
  # find them is a failure, never a silent pass
  export PARAGRAF_REQUIRE_INPUTS=${PARAGRAF_REQUIRE_INPUTS:-1}
else
  echo "note: $SHARED (corpus, test models) not found; real-input tests report 'not run'" >&2
  echo "      (set PARAGRAF_REQUIRE_INPUTS=1 to make that a failure, as CI does)" >&2
fi
cargo test --release --workspace --no-fail-fast "$@"
