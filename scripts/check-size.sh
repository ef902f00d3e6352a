#!/usr/bin/env bash
# Fails when the code outgrows what a reader can hold (issue 39):
#   - a non-test source file under crates/*/src with more than 900 lines
#     (counted as `wc -l` counts them, whole file);
#   - a non-test function with more than 150 lines (from its `fn` line to its
#     closing brace);
#   - a file-level import cycle inside a crate: a.rs names `crate::b` (or
#     `super::b`) and b.rs names `crate::a`, directly or in a loop.
# Test code is exempt: files under tests/, benches/, fuzz/, files named
# tests.rs or *_tests.rs, and `#[cfg(test)] mod … { … }` blocks (their
# functions are not measured).
# Generated tables: none in the sources today (lexicons and synonym lists are
# data files read with include_str!); a path listed in GENERATED below would
# be skipped, each with its reason.
# Usage: scripts/check-size.sh [MAX_FILE_LINES [MAX_FN_LINES]]
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - "${1:-900}" "${2:-150}" <<'PY'
import os, re, sys

MAX_FILE, MAX_FN = int(sys.argv[1]), int(sys.argv[2])
# path -> reason; generated code is measured by its generator, not here
GENERATED = {}

def is_test_path(p):
    parts = p.split(os.sep)
    name = parts[-1]
    return (any(d in ("tests", "benches", "fuzz") for d in parts[:-1])
            or name == "tests.rs" or name.endswith("_tests.rs"))

def blank(src):
    """The source with comments, strings and char literals replaced by spaces
    (newlines kept), so that braces and `fn` inside them do not count."""
    out, i, n = [], 0, len(src)
    def keep_nl(s):
        return "".join(c if c == "\n" else " " for c in s)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j): depth += 1; j += 2
                elif src.startswith("*/", j): depth -= 1; j += 2
                else: j += 1
            out.append(keep_nl(src[i:j])); i = j
        elif re.match(r'(b|c)?r#*"', src[i:i + 260]) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            m = re.match(r'(b|c)?r(#*)"', src[i:])
            end = '"' + m.group(2)
            j = src.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(keep_nl(src[i:j])); i = j
        elif c == '"' or (c in "bc" and src.startswith('"', i + 1) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))):
            j = i + (1 if c == '"' else 2)
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            j += 1
            out.append(keep_nl(src[i:j])); i = j
        elif c == "'" or (c == "b" and src.startswith("'", i + 1) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))):
            k = i + (1 if c == "'" else 2)
            m = re.match(r"(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'\n])'", src[k:k + 16])
            if m:  # a char literal; otherwise a lifetime or label
                j = k + m.end()
                out.append(" " * (j - i)); i = j
            else:
                out.append(src[i:k]); i = k
        elif c.isalnum() or c == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            out.append(src[i:j]); i = j
        else:
            out.append(c); i += 1
    return "".join(out)

def match_brace(code, open_at):
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "{": depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1

def line_of(code, pos):
    return code.count("\n", 0, pos) + 1

TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")
FN = re.compile(r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?"
                r"(?:extern\s+\S*\s+)?fn\s+(\w+)")
IMPL = re.compile(r"(?m)^[ \t]*(?:unsafe\s+)?impl\b[^{;]*\{|^[ \t]*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?trait\s+\w+[^{;]*\{")

def test_spans(code):
    spans = []
    for m in TEST_MOD.finditer(code):
        spans.append((m.start(), match_brace(code, m.end() - 1)))
    return spans

def functions(code, skip):
    owners = []  # (start, end, name) of impl/trait blocks, to name methods
    for m in IMPL.finditer(code):
        head = code[m.start():m.end()]
        name = re.sub(r"\s+", " ", head.strip().rstrip("{").strip())
        owners.append((m.start(), match_brace(code, m.end() - 1), name))
    for m in FN.finditer(code):
        if any(a <= m.start() <= b for a, b in skip):
            continue
        depth, j = 0, m.end()
        while j < len(code):
            ch = code[j]
            if ch in "([": depth += 1
            elif ch in ")]": depth -= 1
            elif depth == 0 and ch in "{;": break
            j += 1
        if j >= len(code) or code[j] == ";":
            continue  # a declaration without a body
        end = match_brace(code, j)
        owner = [o for o in owners if o[0] < m.start() <= o[1]]
        prefix = ""
        if owner:
            o = owner[-1][2]
            t = re.search(r"\bfor\s+([\w:]+)", o) or re.search(r"(?:impl|trait)(?:<[^>]*>)?\s+([\w:]+)", o)
            prefix = (t.group(1) + "::") if t else ""
        yield prefix + m.group(1), line_of(code, m.start()), line_of(code, end)

def module_of(src_dir, path):
    rel = os.path.relpath(path, src_dir)[:-3].split(os.sep)
    if rel[-1] in ("lib", "main") and len(rel) == 1:
        return ()
    if rel[-1] == "mod":
        rel = rel[:-1]
    return tuple(rel)

def use_paths(code, at):
    """Full paths of a use tree starting at `at` (just after `crate::`)."""
    paths = []
    def tree(i, prefix):
        seg = []
        while i < len(code):
            m = re.match(r"\s*(\w+)\s*", code[i:])
            if m:
                seg.append(m.group(1)); i += m.end()
                if code.startswith("::", i):
                    i += 2
                    continue
                paths.append(prefix + tuple(seg))
                return i
            m = re.match(r"\s*\{", code[i:])
            if m:
                i += m.end()
                while True:
                    i = tree(i, prefix + tuple(seg))
                    m2 = re.match(r"\s*(,|\})", code[i:])
                    if not m2:
                        return i
                    i += m2.end()
                    if m2.group(1) == "}":
                        return i
                    if re.match(r"\s*\}", code[i:]):
                        i += re.match(r"\s*\}", code[i:]).end()
                        return i
            if re.match(r"\s*\*", code[i:]):
                paths.append(prefix + tuple(seg))
                return i + re.match(r"\s*\*", code[i:]).end()
            paths.append(prefix + tuple(seg))
            return i
        return i
    tree(at, ())
    return paths

def crate_cycles(crate, files, codes, spans):
    src_dir = os.path.join(crate, "src")
    mods = {module_of(src_dir, f): f for f in files}
    edges = {f: set() for f in files}
    for f in files:
        code, me = codes[f], module_of(src_dir, f)
        for m in re.finditer(r"\b(crate|super)::", code):
            if any(a <= m.start() <= b for a, b in spans[f]):
                continue
            if code[max(0, m.start() - 7):m.start()] == "super::":
                continue  # the rest of a `super::super::` chain
            for p in use_paths(code, m.end()):
                if m.group(1) == "super":
                    ups = 1
                    while p[:1] == ("super",):
                        ups, p = ups + 1, p[1:]
                    p = me[:max(0, len(me) - ups)] + p
                for k in range(len(p), 0, -1):
                    target = mods.get(p[:k])
                    if target:
                        break
                else:
                    continue
                t = module_of(src_dir, target)
                # a module and its own submodules (lib.rs, mod.rs facades)
                # are one room: only edges between unrelated files count
                if target == f or t[:len(me)] == me or me[:len(t)] == t:
                    continue
                edges[f].add(target)
    # cycles: strongly connected components with more than one file
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        stack.append(v); on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out, edges

failures = []
crates = sorted(os.path.join("crates", c) for c in os.listdir("crates") if os.path.isdir(os.path.join("crates", c, "src")))
n_files = n_fns = 0
for crate in crates:
    files, codes, spans = [], {}, {}
    for root, dirs, names in os.walk(os.path.join(crate, "src")):
        dirs.sort()
        for name in sorted(names):
            p = os.path.join(root, name)
            if not name.endswith(".rs") or is_test_path(p):
                continue
            src = open(p, encoding="utf-8").read()
            code = blank(src)
            files.append(p); codes[p] = code; spans[p] = test_spans(code)
            if p in GENERATED:
                continue
            n_files += 1
            lines = src.count("\n") + (0 if src.endswith("\n") or not src else 1)
            if lines > MAX_FILE:
                failures.append(f"{p}: {lines} lines (max {MAX_FILE}; move tests to a tests.rs, split by concern)")
            for name_, a, b in functions(code, spans[p]):
                n_fns += 1
                if b - a + 1 > MAX_FN:
                    failures.append(f"{p}:{a}: fn {name_} is {b - a + 1} lines (max {MAX_FN}; split into named steps)")
    cycles, _ = crate_cycles(crate, files, codes, spans)
    for comp in cycles:
        failures.append(f"{crate}: import cycle between files: {' ↔ '.join(comp)}")
# the README is a page for users (issue 39): the two commands first, under 150 lines
readme = open("README.md", encoding="utf-8").read().split("\n")
if readme and readme[-1] == "":
    readme.pop()
if len(readme) >= 150:
    failures.append(f"README.md: {len(readme)} lines (under 150; history goes to eval/HISTORY.md, details to docs/)")
if not all(any(l.startswith(c) for l in readme[:8]) for c in ("cargo run --release -p paragraf -- quickstart", "bash scripts/test.sh")):
    failures.append("README.md: the two commands (main job, tests) are not in its first lines")
if failures:
    print("check-size: the code outgrows its rooms:")
    print("\n".join(failures))
    sys.exit(1)
print(f"check-size: {n_files} source files ≤ {MAX_FILE} lines, {n_fns} functions ≤ {MAX_FN} lines, no import cycles")
PY
