#!/usr/bin/env bash
# The README's two commands must share one build: the features the main
# command (`cargo run --release -p paragraf`) resolves for every third-party
# crate must equal those of the test command (`cargo test --workspace`, which
# also resolves dev-dependencies). A difference rebuilds that crate and all
# above it (for `syn`: every proc macro, serde, the candle stack). Fix one by
# naming the feature in crates/paragraf/Cargo.toml (feature unification).
set -euo pipefail
cd "$(dirname "$0")/.."
fmt='{p} [{f}]'
main=$(mktemp) test=$(mktemp)
trap 'rm -f "$main" "$test"' EXIT
cargo tree -p paragraf -e normal -f "$fmt" --prefix none | sort -u >"$main"
cargo tree --workspace -e normal,dev -f "$fmt" --prefix none | sort -u >"$test"
python3 - "$main" "$test" <<'PY'
import re, sys
def load(p):
    d = {}
    for l in open(p):
        m = re.match(r'(\S+) (v\S+)(?: \((.*?)\))? \[(.*)\]', l.strip())
        if m:
            d.setdefault((m.group(1), m.group(2), m.group(3) or ''), set()).update(
                x for x in m.group(4).split(',') if x)
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
bad = []
for k in sorted(a):
    # our own crates may differ (test-only features); they rebuild in seconds
    if k in b and a[k] != b[k] and not k[2].startswith('/'):
        bad.append(f"{k[0]} {k[1]}: test build adds {sorted(b[k] - a[k])}, lacks {sorted(a[k] - b[k])}")
if bad:
    print("feature sets differ between the main and the test build:")
    print("\n".join("  " + x for x in bad))
    sys.exit(1)
print(f"check-feature-unification: {len(a)} crates of the main build resolve the same features in the test build")
PY
