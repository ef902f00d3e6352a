#!/usr/bin/env python3
"""Batch evaluation across workers on Ray: `paragraf eval --shard i/n` for
every shard as a Ray task, then `paragraf eval --merge` of the shard
reports, then (with --check) the unsharded run for comparison.

The same driver fans out across GPU nodes: start a Ray cluster there
(`ray start --head`, `ray start --address=HEAD:6379` on each node) and run
it with RAY_ADDRESS set; each task asks Ray for one GPU with --gpus-per-task
1 and passes --device cuda to paragraf. Without RAY_ADDRESS it starts a local
Ray with --workers CPUs (2 here).

Ray is a driver-side dependency only (PyPI `ray`); paragraf itself never
needs Python at run time.

  python3 scripts/ray_eval.py --golden SET --index DIR --shards 2 --out DIR \\
      [--workers 2] [--check] [-- global paragraf flags, e.g. --home H --model-dir M]
"""
import argparse
import json
import os
import subprocess
import sys


def paragraf_cmd(binary, flags, args):
    return [binary] + flags + args


def rounded(v):
    """Floats to 12 significant digits (a sum in another order may differ in
    the last bit), recursively."""
    if isinstance(v, float):
        return float(f"{v:.12g}")
    if isinstance(v, dict):
        return {k: rounded(x) for k, x in v.items()}
    if isinstance(v, list):
        return [rounded(x) for x in v]
    return v


def comparable(report):
    """A report without what differs between two runs of the same questions
    (wall times, latencies, timings, creation time, machine, label)."""
    drop = {"wall_ms", "timings_ms", "latency"}

    def keep(d):
        return {k: v for k, v in d.items() if k not in drop}
    out = []
    for st in report["stages"]:
        by_lang = {lang: keep(a) for lang, a in (st.get("by_lang") or {}).items()}
        out.append({"stage": st["stage"], "aggregate": keep(st["aggregate"]),
                    "by_lang": by_lang, "queries": [keep(q) for q in st["queries"]]})
    return rounded(out)


def main():
    argv = sys.argv[1:]
    flags = []
    if "--" in argv:
        i = argv.index("--")
        argv, flags = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description="paragraf eval shards as Ray tasks")
    ap.add_argument("--golden", required=True, help="golden set (JSON lines)")
    ap.add_argument("--index", required=True, help="index directory (read-only, shared)")
    ap.add_argument("--shards", type=int, default=2, help="number of shards")
    ap.add_argument("--out", required=True, help="directory for shard, merged and check reports")
    ap.add_argument("--workers", type=int, default=2, help="CPUs of a local Ray (no RAY_ADDRESS)")
    ap.add_argument("--gpus-per-task", type=float, default=0, help="GPUs Ray reserves per shard")
    ap.add_argument("--device", default="cpu", help="paragraf --device for each shard")
    ap.add_argument("--bin", default=os.path.abspath("target/release/paragraf"), help="paragraf binary")
    ap.add_argument("--check", action="store_true", help="also run unsharded and compare")
    a = ap.parse_args(argv)
    import ray  # imported here: --help works without Ray

    if os.environ.get("RAY_ADDRESS"):
        ray.init()
    else:
        ray.init(num_cpus=a.workers, include_dashboard=False)
    os.makedirs(a.out, exist_ok=True)
    base = flags + ["--device", a.device, "--quiet"]

    @ray.remote(num_cpus=1, num_gpus=a.gpus_per_task)
    def shard(i, n):
        d = os.path.join(a.out, f"shard-{i}")
        cmd = paragraf_cmd(a.bin, base, ["eval", "--golden", a.golden, "--index", a.index,
                                         "--shard", f"{i}/{n}", "--report-dir", d])
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"shard {i}/{n} failed ({r.returncode}): {r.stderr[-2000:]}")
        return os.path.join(d, f"eval.shard-{i}-of-{n}.json")

    paths = ray.get([shard.remote(i, a.shards) for i in range(1, a.shards + 1)])
    print("shards:", *paths, sep="\n  ")
    merged_dir = os.path.join(a.out, "merged")
    subprocess.run(paragraf_cmd(a.bin, base, ["eval", "--merge", *paths, "--report-dir", merged_dir]),
                   check=True)
    merged = os.path.join(merged_dir, "eval.json")
    print("merged:", merged)
    if not a.check:
        return 0
    whole_dir = os.path.join(a.out, "unsharded")
    subprocess.run(paragraf_cmd(a.bin, base, ["eval", "--golden", a.golden, "--index", a.index,
                                              "--report-dir", whole_dir]), check=True)
    with open(merged) as f:
        m = comparable(json.load(f))
    with open(os.path.join(whole_dir, "eval.json")) as f:
        w = comparable(json.load(f))
    same = m == w
    for st_m, st_w in zip(m, w):
        print(f"{st_m['stage']}: hit@1 {st_m['aggregate']['hit_at_1']:.3f} (sharded) "
              f"vs {st_w['aggregate']['hit_at_1']:.3f} (unsharded)")
    print("Ray-sharded report equals the unsharded one:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
