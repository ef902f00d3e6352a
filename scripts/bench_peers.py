#!/usr/bin/env python3
"""Same-run peers (issue 38): our in-process models beside their reference
runtimes on the same CPU, the same inputs and the same thread count, in
alternated rounds; prints ours ÷ theirs with the spread of the rounds.

- encoder: `paragraf bench encode --inputs` (candle) vs PyTorch +
  transformers `AutoModel` on the same weights directory, the e5 recipe
  ("query: " / "passage: " prefixes, mean pooling over the attention mask,
  L2 norm), tokenization included on both sides: query latency (batch 1)
  and passages/s of one batched call at 128 and 512 tokens. Both sides'
  vectors must agree (cosine >= 0.9999) or the run fails.
- decoder: `paragraf bench decode --inputs` vs llama.cpp (llama-cpp-python)
  on the same GGUF file: the same prompt ids, the same number of greedy
  steps (no stop token), prefill tok/s, time to first token and decode tok/s
  of the one-token steps. Our side counts the steps whose token equals
  llama.cpp's (the ids never leave our binary).

Each round runs both sides once, ours first in odd rounds and theirs first in
even ones; the figures are medians over the rounds of each round's median,
the ratio is the median of the per-round ratios with their min-max.

Setup (once; cached under target/, never in CI):

    python3 -m venv target/peer-venv
    target/peer-venv/bin/pip install torch transformers numpy llama-cpp-python

Run:

    target/peer-venv/bin/python scripts/bench_peers.py \\
        --paragraf target/release/paragraf \\
        --model-dir ~/.cache/paragraf/test-models [--rounds 3] [--threads 2] \\
        [--only encode,decode] [--out target/bench-peers]

Writes OUT/peers.json (every round of both sides) and OUT/peers.md.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

QUERIES = [
    "Ab wann braucht ein Unternehmen einen Datenschutzbeauftragten?",
    "Welche Frist gilt für die Meldung einer Datenpanne an die Aufsichtsbehörde?",
    "Must a small company keep a record of processing activities?",
    "Darf der Arbeitgeber E-Mails der Beschäftigten auswerten?",
    "What does the Cyber Resilience Act require for vulnerability handling?",
    "Wer ist nach dem BSI-Gesetz eine besonders wichtige Einrichtung?",
    "Wie lange dürfen Videoaufnahmen gespeichert werden?",
    "Which AI systems count as high-risk under the AI Act?",
]

# Our own text in the style of the sources (no corpus text): passages are
# rotations of its words, cut to the token budget.
PASSAGE = (
    "Der Verantwortliche trifft unter Berücksichtigung des Stands der Technik, der "
    "Implementierungskosten und der Art, des Umfangs, der Umstände und der Zwecke der "
    "Verarbeitung geeignete technische und organisatorische Maßnahmen, um ein dem Risiko "
    "angemessenes Schutzniveau zu gewährleisten. Dazu gehören die Pseudonymisierung und "
    "Verschlüsselung personenbezogener Daten, die Fähigkeit, die Vertraulichkeit, "
    "Integrität, Verfügbarkeit und Belastbarkeit der Systeme auf Dauer sicherzustellen, "
    "sowie ein Verfahren zur regelmäßigen Überprüfung der Wirksamkeit der Maßnahmen. "
    "The manufacturer shall handle vulnerabilities effectively, provide security updates "
    "without delay and notify actively exploited vulnerabilities to the designated CSIRT. "
    "Betreiber kritischer Anlagen melden erhebliche Störungen unverzüglich dem Bundesamt."
)

DECODE_PROMPT = (
    "Quellen:\n[1] Art. 33 DSGVO — Meldung von Verletzungen des Schutzes personenbezogener "
    "Daten an die Aufsichtsbehörde. Im Falle einer Verletzung des Schutzes personenbezogener "
    "Daten meldet der Verantwortliche unverzüglich und möglichst binnen 72 Stunden, nachdem "
    "ihm die Verletzung bekannt wurde, diese der zuständigen Aufsichtsbehörde, es sei denn, "
    "dass die Verletzung voraussichtlich nicht zu einem Risiko für die Rechte und Freiheiten "
    "natürlicher Personen führt.\n"
)


def median(v):
    return statistics.median(v)


def spread(v):
    return {"median": median(v), "min": min(v), "max": max(v), "rounds": v}


def passages(tok, tokens, n):
    """n passages of at most `tokens` tokens (prefix and specials included),
    each a different rotation of PASSAGE's words, as long as the budget allows."""
    words = PASSAGE.split()
    out, counts = [], []
    for k in range(n):
        r = (k * 7) % len(words)
        ring = words[r:] + words[:r]
        text, i = "", 0
        while True:
            cand = (text + " " + ring[i % len(ring)]).strip()
            if len(tok("passage: " + cand)["input_ids"]) > tokens:
                break
            text, i = cand, i + 1
        out.append(text)
        counts.append(len(tok("passage: " + text)["input_ids"]))
    return out, counts


def run_ours(args, what, model, inputs_path):
    cmd = [args.paragraf, "--model-dir", args.model_dir, "-q", "--device", "cpu",
           "bench", what, "--inputs", inputs_path]
    if model:
        cmd += ["--models", model]
    env = dict(os.environ, RAYON_NUM_THREADS=str(args.threads))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"bench_peers: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def encode_peer(args, out):
    import torch
    import transformers

    torch.set_num_threads(args.threads)
    mdir = os.path.join(args.model_dir, args.encoder)
    tok = transformers.AutoTokenizer.from_pretrained(mdir)
    # no pooler: the e5 recipe pools the last hidden state itself
    model = transformers.AutoModel.from_pretrained(mdir, add_pooling_layer=False).eval()
    sets = []
    for tokens, n in ((128, 16), (512, 8)):
        texts, counts = passages(tok, tokens, n)
        sets.append({"tokens": tokens, "texts": texts, "counts": counts})
    inputs = {"queries": QUERIES, "passes": args.passes,
              "passages": [{"tokens": s["tokens"], "texts": s["texts"]} for s in sets]}
    inputs_path = os.path.join(out, "encode-inputs.json")
    with open(inputs_path, "w") as f:
        json.dump(inputs, f, ensure_ascii=False)

    def embed(texts, prefix):
        enc = tok([prefix + t for t in texts], padding=True, truncation=True,
                  max_length=512, return_tensors="pt")
        with torch.inference_mode():
            h = model(**enc).last_hidden_state
            m = enc["attention_mask"].unsqueeze(-1).to(h.dtype)
            v = (h * m).sum(1) / m.sum(1)
            return torch.nn.functional.normalize(v, dim=-1).numpy()

    def theirs():
        vecs = [embed([q], "query: ")[0] for q in QUERIES]
        qms = []
        for _ in range(args.passes):
            for q in QUERIES:
                t = time.perf_counter()
                embed([q], "query: ")
                qms.append((time.perf_counter() - t) * 1e3)
        runs = []
        for s in sets:
            vecs.extend(embed(s["texts"], "passage: "))
            per_s = []
            for _ in range(args.passes):
                t = time.perf_counter()
                embed(s["texts"], "passage: ")
                per_s.append(len(s["texts"]) / (time.perf_counter() - t))
            runs.append({"tokens": s["tokens"], "batch": len(s["texts"]), "per_s": per_s,
                         "median_per_s": median(per_s)})
        return {"query_ms": qms, "query_p50_ms": median(qms), "passages": runs, "vectors": vecs}

    rounds = []
    for r in range(args.rounds):
        order = ("ours", "theirs") if r % 2 == 0 else ("theirs", "ours")
        got = {}
        for side in order:
            got[side] = (run_ours(args, "encode", args.encoder, inputs_path) if side == "ours"
                         else theirs())
        rounds.append(got)
        print(f"encode round {r + 1}: query p50 ours {got['ours']['query_p50_ms']:.2f} ms, "
              f"theirs {got['theirs']['query_p50_ms']:.2f} ms; " + ", ".join(
                  f"{o['tokens']} tok ours {o['median_per_s']:.2f}/s theirs {t['median_per_s']:.2f}/s"
                  for o, t in zip(got["ours"]["passages"], got["theirs"]["passages"])), flush=True)
    # the same work: token counts and vectors
    import numpy as np
    ours0 = rounds[0]["ours"]
    for o, s in zip(ours0["passages"], sets):
        if o["token_counts"] != s["counts"]:
            sys.exit(f"bench_peers: token counts differ at {s['tokens']} tokens: "
                     f"ours {o['token_counts']} vs transformers {s['counts']}")
    a = np.array(ours0["vectors"], dtype=np.float64)
    b = np.array(rounds[0]["theirs"]["vectors"], dtype=np.float64)
    cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    min_cos = float(cos.min())
    summary = {
        "query_p50_ms": {side: spread([rd[side]["query_p50_ms"] for rd in rounds])
                         for side in ("ours", "theirs")},
        # speed ratio: their latency over ours (> 1: ours faster)
        "query_ratio": spread([rd["theirs"]["query_p50_ms"] / rd["ours"]["query_p50_ms"]
                               for rd in rounds]),
        "passages": [],
        "min_cosine": min_cos,
        "vectors": len(cos),
        "token_counts": {str(s["tokens"]): s["counts"] for s in sets},
    }
    for i, s in enumerate(sets):
        o = [rd["ours"]["passages"][i]["median_per_s"] for rd in rounds]
        t = [rd["theirs"]["passages"][i]["median_per_s"] for rd in rounds]
        summary["passages"].append({"tokens": s["tokens"], "batch": len(s["texts"]),
                                    "ours": spread(o), "theirs": spread(t),
                                    "ratio": spread([x / y for x, y in zip(o, t)])})
    for rd in rounds:  # keep the report small: vectors only in the check
        for side in rd.values():
            side.pop("vectors", None)
    if min_cos < 0.9999:
        sys.exit(f"bench_peers: vectors differ (min cosine {min_cos:.6f} < 0.9999)")
    return {"versions": {"torch": torch.__version__, "transformers": transformers.__version__},
            "summary": summary, "rounds": rounds}


def decode_peer(args, out):
    import llama_cpp
    import numpy as np

    gguf = os.path.join(args.model_dir, args.gguf)
    llm = llama_cpp.Llama(model_path=gguf, n_ctx=2048, n_threads=args.threads,
                          n_threads_batch=args.threads, n_batch=512, n_ubatch=512,
                          verbose=False)
    base = llm.tokenize(DECODE_PROMPT.encode(), add_bos=False, special=False)
    prompt = (base * (args.prompt_tokens // len(base) + 1))[: args.prompt_tokens]

    n_vocab = llm.n_vocab()

    def last_logits():
        # the last evaluated token's logits, read in place (llama-cpp-python
        # keeps no copy unless logits_all)
        return np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(n_vocab,))

    def theirs():
        llm.reset()
        t0 = time.perf_counter()
        llm.eval(prompt)
        prefill = time.perf_counter() - t0
        nxt = int(np.argmax(last_logits()))
        ttft = time.perf_counter() - t0
        ids = [nxt]
        t1 = time.perf_counter()
        for _ in range(args.steps - 1):
            llm.eval([nxt])
            nxt = int(np.argmax(last_logits()))
            ids.append(nxt)
        dec = time.perf_counter() - t1
        return {"prefill_tok_per_s": len(prompt) / prefill, "ttft_ms": ttft * 1e3,
                "decode_tok_per_s": (args.steps - 1) / dec, "ids": ids}

    theirs()  # warm-up
    expected = theirs()["ids"]
    inputs = {"gguf": gguf, "prompt_ids": prompt, "steps": args.steps,
              "passes": args.passes, "expected_ids": expected}
    inputs_path = os.path.join(out, "decode-inputs.json")
    with open(inputs_path, "w") as f:
        json.dump(inputs, f)
    rounds = []
    for r in range(args.rounds):
        order = ("ours", "theirs") if r % 2 == 0 else ("theirs", "ours")
        got = {}
        for side in order:
            if side == "ours":
                runs = run_ours(args, "decode", None, inputs_path)
            else:
                runs = [theirs() for _ in range(args.passes)]
                for x in runs:
                    x["agree_with_first"] = sum(a == b for a, b in zip(x.pop("ids"), expected))
            got[side] = {k: median([x[k] for x in runs])
                         for k in ("prefill_tok_per_s", "ttft_ms", "decode_tok_per_s")}
            if side == "ours":
                got[side]["agree"] = min(x["agree"] for x in runs)
        rounds.append(got)
        print(f"decode round {r + 1}: ours prefill {got['ours']['prefill_tok_per_s']:.1f} "
              f"decode {got['ours']['decode_tok_per_s']:.2f} tok/s; llama.cpp prefill "
              f"{got['theirs']['prefill_tok_per_s']:.1f} decode "
              f"{got['theirs']['decode_tok_per_s']:.2f} tok/s", flush=True)
    summary = {"prompt_tokens": len(prompt), "steps": args.steps,
               "agree_steps_min": min(rd["ours"]["agree"] for rd in rounds)}
    for k in ("prefill_tok_per_s", "decode_tok_per_s", "ttft_ms"):
        o = [rd["ours"][k] for rd in rounds]
        t = [rd["theirs"][k] for rd in rounds]
        ratio = [y / x for x, y in zip(o, t)] if k == "ttft_ms" else [x / y for x, y in zip(o, t)]
        summary[k] = {"ours": spread(o), "theirs": spread(t), "ratio": spread(ratio)}
    return {"versions": {"llama_cpp_python": llama_cpp.__version__}, "summary": summary,
            "rounds": rounds}


def markdown(rep):
    a = rep["args"]
    lines = [f"# Same-run peers ({a['threads']} threads, {a['rounds']} alternated rounds, "
             f"{a['passes']} passes each)", "",
             "ratio = ours ÷ theirs in speed (> 1: ours faster); median of the rounds' "
             "ratios [min–max].", "",
             "| what | ours | reference | ratio |", "|---|---:|---:|---|"]
    e = rep.get("encode")
    if e:
        s = e["summary"]
        q = s["query_p50_ms"]
        r = s["query_ratio"]
        lines.append(f"| {a['encoder']} query p50 ms (batch 1) | {q['ours']['median']:.2f} | "
                     f"{q['theirs']['median']:.2f} (PyTorch {e['versions']['torch']}) | "
                     f"**{r['median']:.2f}×** [{r['min']:.2f}–{r['max']:.2f}] |")
        for p in s["passages"]:
            r = p["ratio"]
            lines.append(f"| passages/s, {p['batch']} × {p['tokens']} tokens | "
                         f"{p['ours']['median']:.2f} | {p['theirs']['median']:.2f} | "
                         f"**{r['median']:.2f}×** [{r['min']:.2f}–{r['max']:.2f}] |")
    d = rep.get("decode")
    if d:
        s = d["summary"]
        for k, label in (("prefill_tok_per_s", "prefill tok/s"), ("decode_tok_per_s", "decode tok/s"),
                         ("ttft_ms", "time to first token ms")):
            r = s[k]["ratio"]
            lines.append(f"| {a['gguf']} {label} ({s['prompt_tokens']}-token prompt, "
                         f"{s['steps']} greedy steps) | {s[k]['ours']['median']:.2f} | "
                         f"{s[k]['theirs']['median']:.2f} (llama.cpp, llama-cpp-python "
                         f"{d['versions']['llama_cpp_python']}) | **{r['median']:.2f}×** "
                         f"[{r['min']:.2f}–{r['max']:.2f}] |")
    lines.append("")
    if e:
        lines.append(f"Encoder vectors: min cosine ours vs PyTorch {e['summary']['min_cosine']:.6f} "
                     f"over {e['summary']['vectors']} texts; token counts equal.")
    if d:
        lines.append(f"Decoder: our greedy tokens equal llama.cpp's on at least "
                     f"{d['summary']['agree_steps_min']} of {d['summary']['steps']} steps.")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--paragraf", default="target/release/paragraf")
    ap.add_argument("--model-dir", default=os.path.expanduser("~/.cache/paragraf/test-models"))
    ap.add_argument("--encoder", default="multilingual-e5-small")
    ap.add_argument("--gguf", default="Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--prompt-tokens", type=int, default=256)
    ap.add_argument("--steps", type=int, default=64)
    ap.add_argument("--only", default="encode,decode")
    ap.add_argument("--out", default="target/bench-peers")
    args = ap.parse_args()
    if args.rounds < 1 or args.passes < 1 or args.steps < 2:
        sys.exit("bench_peers: --rounds and --passes must be >= 1, --steps >= 2")
    os.makedirs(args.out, exist_ok=True)
    rep = {"args": vars(args), "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "machine": {"cpu_count": os.cpu_count(), "uname": " ".join(os.uname())}}
    only = set(args.only.split(","))
    if "encode" in only:
        rep["encode"] = encode_peer(args, args.out)
    if "decode" in only:
        rep["decode"] = decode_peer(args, args.out)
    with open(os.path.join(args.out, "peers.json"), "w") as f:
        json.dump(rep, f, indent=1)
    md = markdown(rep)
    with open(os.path.join(args.out, "peers.md"), "w") as f:
        f.write(md)
    print(md)


if __name__ == "__main__":
    main()
