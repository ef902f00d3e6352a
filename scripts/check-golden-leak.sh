#!/usr/bin/env bash
# Fails when a golden question (../shared/eval/*.jsonl) appears verbatim in
# the project's code, tests or benches: tests use their own phrasings so that
# the lexicon is never fitted to the golden wording. Reports under eval/
# (which quote the questions they score) are exempt.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${PARAGRAF_SHARED:-../shared}
if ! ls "$SHARED"/eval/golden-*.jsonl >/dev/null 2>&1; then
  echo "check-golden-leak: no golden files under $SHARED/eval" >&2
  exit 1
fi
python3 - "$SHARED" <<'PY'
import json, os, sys
shared = sys.argv[1]
qs = []
for f in sorted(os.listdir(os.path.join(shared, "eval"))):
    if f.startswith("golden-") and f.endswith(".jsonl") and ".answers." not in f:
        for line in open(os.path.join(shared, "eval", f), encoding="utf-8"):
            if line.strip():
                q = json.loads(line)["query"].strip()
                qs.append((f, q, q.rstrip("?!. ")))
hits = []
for root, dirs, files in os.walk("."):
    dirs[:] = [d for d in dirs if d not in ("target", ".git", "node_modules") and not (root == "." and d == "eval")]
    for fn in files:
        if not fn.endswith((".rs", ".toml", ".html", ".js", ".mjs", ".json", ".sh", ".md", ".py")):
            continue
        p = os.path.join(root, fn)
        text = open(p, encoding="utf-8", errors="replace").read()
        for f, q, core in qs:
            if len(core) > 20 and core in text:
                hits.append(f"{p}: {f}: {q}")
if hits:
    print("golden questions found verbatim (write your own phrasing):")
    print("\n".join(hits))
    sys.exit(1)
print(f"check-golden-leak: {len(qs)} golden questions, none verbatim in the project")
PY
