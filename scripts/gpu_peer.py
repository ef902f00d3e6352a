#!/usr/bin/env python3
"""The PyTorch peer of `paragraf gpu-check` (the GPU kit), run in the same
session on the same GPU: the same shapes, read from the kit's plan.json.

- encoder: transformers `XLMRobertaModel`, random-initialised from the plan's
  bge-m3 config, fp16, SDPA attention, the plan's token lengths and batches,
  in each of the plan's `encoder_heads` modes, doing the work ours does:
  dense only = CLS pooling, L2 norm, vectors copied to the host; with heads
  = that plus bge-m3's heads as FlagEmbedding computes them (token weights
  relu(sparse_linear(h)), ColBERT normalize(colbert_linear(h[:, 1:]) * mask))
  copied to the host;
- decoder: `Qwen2ForCausalLM` of each plan decoder's shape, random, bf16,
  greedy: prefill of the plan's prompt length, then the plan's decode steps
  with the KV cache.

Writes --out after every measurement (status "partial" until the end;
atomically: a temporary file renamed over it), so a time box leaves what was
measured and never half a file. Without torch/transformers it writes
status "not run" with the reason and the planned measurements, and exits 3:
the kit's report says so; nothing is passed off as measured.

Usage: gpu_peer.py --plan OUT/plan.json --out OUT/peer.json [--device cuda]
"""
import argparse
import json
import os
import sys
import time


def heads_modes(plan):
    """The sweep's modes (False: dense only, True: with bge-m3's heads)."""
    modes = plan.get("encoder_heads", [False])
    return [h for h in modes if not h or plan["encoder"].get("m3_heads")]


def planned(plan):
    """The measurements the plan asks for (checked before torch is imported)."""
    enc = plan["encoder"]["config"]
    for key in ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
                "intermediate_size", "max_position_embeddings"):
        if not isinstance(enc.get(key), int):
            raise ValueError(f"plan.json: encoder.config.{key} missing")
    items = [{"part": "encoder", "heads": h, "tokens": s["tokens"], "batch": b}
             for h in heads_modes(plan) for s in plan["sweeps"] for b in s["batches"]]
    for d in plan["decoders"]:
        for key in ("vocab", "hidden", "layers", "heads", "kv_heads", "ffn", "context"):
            if not isinstance(d["shape"].get(key), int):
                raise ValueError(f"plan.json: decoders[].shape.{key} missing")
        items.append({"part": "decoder", "model": d["name"]})
    return items


class Report:
    def __init__(self, path, plan):
        self.path = path
        self.data = {"status": "partial", "planned": planned(plan), "encoder": [],
                     "decoder": [], "notes": [], "versions": {}}
        self.flush()

    def flush(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.data, f, indent=2)
            f.write("\n")
        os.replace(tmp, self.path)

    def add(self, section, row):
        print(f"peer {section}: {row}", flush=True)
        self.data[section].append(row)
        self.flush()

    def note(self, text):
        print(f"peer: {text}", flush=True)
        self.data["notes"].append(text)
        self.flush()


def timed(torch, device, fn, min_s, min_calls=2):
    fn()
    if device == "cuda":
        torch.cuda.synchronize()
    calls, t0 = 0, time.perf_counter()
    while calls < min_calls or time.perf_counter() - t0 < min_s:
        fn()
        calls += 1
    if device == "cuda":
        torch.cuda.synchronize()
    return calls, time.perf_counter() - t0


def encoder(torch, transformers, plan, rep, device):
    c = plan["encoder"]["config"]
    cfg = transformers.XLMRobertaConfig(
        vocab_size=c["vocab_size"], hidden_size=c["hidden_size"],
        num_hidden_layers=c["num_hidden_layers"], num_attention_heads=c["num_attention_heads"],
        intermediate_size=c["intermediate_size"], max_position_embeddings=c["max_position_embeddings"],
        type_vocab_size=c["type_vocab_size"], pad_token_id=c["pad_token_id"],
        layer_norm_eps=c["layer_norm_eps"], attn_implementation="sdpa")
    dtype = torch.float16 if device == "cuda" else torch.float32
    torch.manual_seed(1)
    model = transformers.XLMRobertaModel(cfg, add_pooling_layer=False).to(device, dtype).eval()
    rep.note(f"encoder: XLMRobertaModel {c['num_hidden_layers']}x{c['hidden_size']}, {dtype}, sdpa")
    hidden = c["hidden_size"]
    sparse_linear = torch.nn.Linear(hidden, 1).to(device, dtype).eval()
    colbert_linear = torch.nn.Linear(hidden, hidden).to(device, dtype).eval()
    vocab = c["vocab_size"]
    for heads in heads_modes(plan):
        for sweep in plan["sweeps"]:
            tokens = sweep["tokens"]
            oom = False
            for batch in sweep["batches"]:
                ids = torch.randint(5, vocab, (batch, tokens), device=device)
                ids[:, 0], ids[:, -1] = 0, 2
                mask = torch.ones_like(ids)

                def run():
                    with torch.inference_mode():
                        h = model(input_ids=ids, attention_mask=mask).last_hidden_state
                        torch.nn.functional.normalize(h[:, 0].float(), dim=-1).cpu()
                        if heads:
                            torch.relu(sparse_linear(h)).squeeze(-1).float().cpu()
                            cb = colbert_linear(h[:, 1:]) * mask[:, 1:, None].to(h.dtype)
                            torch.nn.functional.normalize(cb.float(), dim=-1).cpu()
                try:
                    calls, secs = timed(torch, device, run, plan["min_seconds"])
                except torch.cuda.OutOfMemoryError as e:  # noqa: PERF203
                    rep.note(f"encoder {tokens} x {batch} heads={heads}: out of memory ({e})")
                    oom = True
                    break
                per_s = calls * batch / secs
                rep.add("encoder", {"heads": heads, "tokens": tokens, "batch": batch,
                                    "calls": calls, "passages_per_s": per_s,
                                    "tokens_per_s": per_s * tokens,
                                    "dtype": str(dtype).replace("torch.", "")})
            if oom and device == "cuda":
                torch.cuda.empty_cache()
    del model
    if device == "cuda":
        torch.cuda.empty_cache()


def decoder(torch, transformers, plan, rep, device):
    for d in plan["decoders"]:
        s = d["shape"]
        cfg = transformers.Qwen2Config(
            vocab_size=s["vocab"], hidden_size=s["hidden"], num_hidden_layers=s["layers"],
            num_attention_heads=s["heads"], num_key_value_heads=s["kv_heads"],
            intermediate_size=s["ffn"], max_position_embeddings=s["context"],
            tie_word_embeddings=s["tied"], attn_implementation="sdpa")
        dtype = torch.bfloat16 if device == "cuda" else torch.float32
        t0 = time.perf_counter()
        torch.manual_seed(3)
        with torch.device(device):
            prev = torch.get_default_dtype()
            torch.set_default_dtype(dtype)
            try:
                model = transformers.Qwen2ForCausalLM(cfg).eval()
            finally:
                torch.set_default_dtype(prev)
        load_s = time.perf_counter() - t0
        prompt = torch.tensor([[(i * 53 + 7) % 256 for i in range(plan["prefill_tokens"])]],
                              device=device)
        steps = plan["decode_steps"]

        def once():
            with torch.inference_mode():
                t = time.perf_counter()
                out = model(input_ids=prompt, use_cache=True)
                nxt = out.logits[:, -1].argmax(-1, keepdim=True)
                if device == "cuda":
                    torch.cuda.synchronize()
                prefill = time.perf_counter() - t
                past = out.past_key_values
                t = time.perf_counter()
                for _ in range(steps - 1):
                    out = model(input_ids=nxt, past_key_values=past, use_cache=True)
                    past = out.past_key_values
                    nxt = out.logits[:, -1].argmax(-1, keepdim=True)
                    nxt.item()  # the next step needs the token on the host, as ours does
                if device == "cuda":
                    torch.cuda.synchronize()
                return prefill, time.perf_counter() - t
        once()  # warm-up
        prefill, decode = once()
        # the bytes one decode step reads: every weight once (its own dtype),
        # so each side can be set against its own bandwidth bound
        weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
        rep.add("decoder", {"model": d["name"], "dtype": str(dtype).replace("torch.", ""),
                            "weight_bytes_per_token": weight_bytes,
                            "init_s": load_s, "prompt_tokens": plan["prefill_tokens"],
                            "prefill_tok_per_s": plan["prefill_tokens"] / prefill,
                            "decode_tok_per_s": (steps - 1) / decode})
        del model
        if device == "cuda":
            torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plan", required=True, help="plan.json of `paragraf gpu-check --part plan`")
    ap.add_argument("--out", required=True, help="peer.json to write")
    ap.add_argument("--device", default="cuda", help="cuda or cpu")
    a = ap.parse_args()
    with open(a.plan) as f:
        plan = json.load(f)
    rep = Report(a.out, plan)
    try:
        import torch
        import transformers
    except ImportError as e:
        rep.data["status"] = "not run"
        rep.note(f"torch/transformers not importable: {e}")
        return 3
    device = "cuda" if a.device.startswith("cuda") else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        rep.data["status"] = "not run"
        rep.note("torch sees no CUDA device")
        return 3
    rep.data["versions"] = {"torch": torch.__version__, "transformers": transformers.__version__,
                            "cuda": torch.version.cuda,
                            "gpu": torch.cuda.get_device_name(0) if device == "cuda" else "cpu"}
    rep.flush()
    for name, fn in (("encoder", encoder), ("decoder", decoder)):
        try:
            fn(torch, transformers, plan, rep, device)
        except Exception as e:  # one failing section must not lose the other
            rep.note(f"{name} failed: {type(e).__name__}: {e}")
    rep.data["status"] = "complete"
    rep.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
