#!/usr/bin/env python3
"""Reference outputs on identical weights, recorded once, checked in every
test run by crates/paragraf-models/tests/reference_parity.rs (issue 37).

Run by hand, never in CI (it needs PyTorch and transformers):

    python3 -m venv target/ref-venv
    target/ref-venv/bin/pip install torch transformers safetensors numpy gguf
    target/ref-venv/bin/python scripts/ref_parity.py \
        [--models ~/.cache/paragraf/test-models] [--only e5,tiny,gguf]

It writes crates/paragraf-models/tests/fixtures/parity/:

* e5.json — multilingual-e5-small (real weights): token ids and sentence
  vectors of German/English queries ("query: ...") and passages
  ("passage: ..."), one over 512 tokens. The e5 recipe: BertModel's last
  hidden state, mean over the attention mask, L2-normalised. Token ids are
  cut the way the crate cuts them (`embed_run::TextEmbedder::tokenize`:
  the first 511 ids and then the last id, `</s>`) — the same ids as
  transformers' `truncation=True, max_length=512`, which the script checks.

* tiny-xlmr/ — a seeded random-weight XLM-R (hidden 32, 2 layers, 4 heads,
  a 64-word WordLevel vocabulary) in bge-m3's file layout: config.json,
  tokenizer.json and weights.json: the encoder (XLMRobertaModel's tensor
  names, under "model") and the two heads (FlagEmbedding's
  `linear.state_dict()` names, under "sparse_linear" and "colbert_linear"),
  every f32 as its shortest round-trip decimal — text, so no binary is
  committed; the test writes them out as safetensors. tiny-xlmr.json holds the
  outputs of transformers' XLMRobertaModel (eager attention, f32) and of
  bge-m3's heads computed as FlagEmbedding's reference code does
  (FlagOpen/FlagEmbedding, FlagEmbedding/BGE_M3/modeling.py,
  `BGEM3Model.dense_embedding / sparse_embedding / colbert_embedding /
  _encode`, and the inference wrapper `BGEM3FlagModel`'s
  `_process_token_weights` / `_process_colbert_vecs`):

      h            = XLMRobertaModel(ids, attention_mask).last_hidden_state
      dense        = normalize(h[:, 0])                       # CLS pooling
      token_w[t]   = relu(sparse_linear(h[t]))                # H -> 1
      sparse[id]   = max over positions t with ids[t] == id of token_w[t],
                     kept only when > 0, dropping cls/eos/pad/unk ids
      colbert      = normalize(colbert_linear(h[:, 1:]) * mask[:, 1:])
                     keeping the first (tokens - 1) rows   # drops CLS

  The weights are scaled so that the details that distinguish XLM-R bite:
  embeddings small enough that layer-norm eps (1e-5) matters, position
  embeddings distinct per row (the offset pad+1), repeated tokens with
  different contextual weights (max, not first).

* qwen-gguf.json — Qwen2.5-Coder-0.5B-Instruct Q4_K_M loaded by transformers
  (`from_pretrained(dir, gguf_file=...)`, dequantised to f32): a German
  prompt, transformers' 32 greedy tokens (the forced tokens) and, per step,
  the argmax, the top-2 gap and the top 32 logits (ids and values) of one
  teacher-forced pass.
"""

import argparse
import json
import os
import platform
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "crates/paragraf-models/tests/fixtures/parity")


def r6(xs):
    """Floats rounded to 7 significant digits (f32 precision, smaller JSON)."""
    return [float(f"{float(x):.7g}") for x in xs]


def dump(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, path)


# ---------------------------------------------------------------- e5-small

E5_TEXTS = [
    ("query", "Ab welcher Größe muss eine Firma eine Datenschutzbeauftragte bestellen?"),
    ("query", "Welche Meldepflichten gelten nach NIS2 bei einem erheblichen Sicherheitsvorfall?"),
    ("query", "When must a controller notify a personal data breach to the supervisory authority?"),
    ("query", "Pflichten des Herstellers nach dem Cyber Resilience Act"),
    ("query", "Is a high-risk AI system subject to a conformity assessment?"),
    ("query", "Auskunftsrecht der betroffenen Person Art. 15 DSGVO"),
    ("passage", "Der Verantwortliche und der Auftragsverarbeiter benennen auf jeden Fall einen "
                "Datenschutzbeauftragten, wenn die Kerntätigkeit in der Durchführung von "
                "Verarbeitungsvorgängen besteht, welche eine umfangreiche regelmäßige und "
                "systematische Überwachung von betroffenen Personen erforderlich machen."),
    ("passage", "In the case of a personal data breach, the controller shall without undue delay "
                "and, where feasible, not later than 72 hours after having become aware of it, "
                "notify the personal data breach to the supervisory authority."),
    ("passage", "Besonders wichtige Einrichtungen und wichtige Einrichtungen sind verpflichtet, "
                "erhebliche Sicherheitsvorfälle unverzüglich, spätestens jedoch innerhalb von "
                "24 Stunden nach Kenntniserlangung, an das Bundesamt zu melden."),
    ("passage", "Die Umsatzsteuer für die Lieferung von Gegenständen beträgt neunzehn Prozent."),
    ("passage", "Preheat the oven to 180 degrees and bake the bread for forty minutes."),
    # over 512 tokens: cut to 511 + </s>
    ("passage", " ".join(
        f"Absatz {i}: Der Anbieter eines Hochrisiko-KI-Systems stellt sicher, dass das System "
        f"vor dem Inverkehrbringen einem Konformitätsbewertungsverfahren unterzogen wird."
        for i in range(1, 31))),
]
E5_MAX_TOKENS = 512


def cut(ids, max_tokens):
    """The crate's truncation: the first max-1 ids, then the last (`</s>`)."""
    if len(ids) <= max_tokens:
        return list(ids)
    return list(ids[: max_tokens - 1]) + [ids[-1]]


def e5(models):
    from tokenizers import Tokenizer
    from transformers import AutoTokenizer, BertModel

    d = os.path.join(models, "multilingual-e5-small")
    tok = Tokenizer.from_file(os.path.join(d, "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    hf_tok = AutoTokenizer.from_pretrained(d)
    model = BertModel.from_pretrained(d, attn_implementation="eager", add_pooling_layer=False)
    model = model.float().eval()
    rows = []
    for kind, text in E5_TEXTS:
        full = tok.encode(f"{kind}: {text}", add_special_tokens=True).ids
        ids = cut(full, E5_MAX_TOKENS)
        hf_ids = hf_tok(f"{kind}: {text}", truncation=True, max_length=E5_MAX_TOKENS)["input_ids"]
        assert hf_ids == ids, f"truncation differs from transformers for {text[:40]!r}"
        x = torch.tensor([ids])
        with torch.no_grad():
            h = model(input_ids=x, attention_mask=torch.ones_like(x)).last_hidden_state[0]
        v = torch.nn.functional.normalize(h.mean(0), dim=-1)
        rows.append({"kind": kind, "text": text, "tokens_untruncated": len(full),
                     "ids": ids, "vector": r6(v.tolist())})
    assert any(r["tokens_untruncated"] > E5_MAX_TOKENS for r in rows)
    return {"model": "multilingual-e5-small", "max_tokens": E5_MAX_TOKENS,
            "pooling": "mean over the attention mask, L2-normalised", "texts": rows}


# ---------------------------------------------------------------- tiny XLM-R

TINY_WORDS = (
    "der die das und oder nicht ist sind wird werden ein eine einen daten schutz "
    "recht pflicht meldung vorfall system hersteller anbieter person behörde frist "
    "the a of and to is data breach controller processor notify authority risk ai "
    "model safety product law article paragraph within hours days must shall may "
    "security incident report"
).split()
TINY_SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]  # ids 0..3, as in XLM-R
TINY_TEXTS = [
    "der hersteller meldet den vorfall",  # 'meldet', 'den' -> <unk>
    "daten daten schutz daten recht daten",
    "the controller must notify the authority within hours the controller shall",
    "ein system",
    "security incident report security incident report within days",
    "die behörde und die person und die frist und die pflicht",
    "risk",
    "ai model safety product law article paragraph risk ai model safety product law",
]
TINY_CFG = {
    "architectures": ["XLMRobertaModel"],
    "model_type": "xlm-roberta",
    "vocab_size": len(TINY_SPECIALS) + len(TINY_WORDS),
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 64,
    "hidden_act": "gelu",
    "hidden_dropout_prob": 0.0,
    "attention_probs_dropout_prob": 0.0,
    "layer_norm_eps": 1e-5,
    "max_position_embeddings": 40,
    "type_vocab_size": 1,
    "pad_token_id": 1,
    "bos_token_id": 0,
    "eos_token_id": 2,
    "position_embedding_type": "absolute",
}


def tiny_tokenizer():
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    vocab = {t: i for i, t in enumerate(TINY_SPECIALS + TINY_WORDS)}
    assert len(vocab) == TINY_CFG["vocab_size"], "duplicate word in TINY_WORDS"
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", 0), ("</s>", 2)])
    return tok


def write_text_weights(path, parts):
    """{file: state_dict} as JSON text, each f32 exactly (shortest decimal that
    reads back as the same f32)."""
    def num(x):
        return np.format_float_positional(np.float32(x), unique=True, trim="-")

    out = []
    for part, state in parts.items():
        ts = []
        for k in sorted(state):
            a = state[k].detach().contiguous().float().numpy()
            ts.append("%s: {\"shape\": %s, \"data\": [%s]}" % (
                json.dumps(k), json.dumps(list(a.shape)), ",".join(num(x) for x in a.ravel())))
        out.append("%s: {\n%s\n}" % (json.dumps(part), ",\n".join(ts)))
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join(out) + "\n}\n")


def tiny(_models):
    from transformers import XLMRobertaConfig, XLMRobertaModel

    d = os.path.join(OUT, "tiny-xlmr")
    os.makedirs(d, exist_ok=True)
    torch.manual_seed(37)
    cfg = XLMRobertaConfig(**TINY_CFG)
    model = XLMRobertaModel(cfg, add_pooling_layer=False)
    h = cfg.hidden_size
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "embeddings" in name and name.endswith(".weight") and "LayerNorm" not in name:
                # small: the sum's variance is ~1e-5, so eps=1e-5 vs 1e-12 bites
                p.copy_(torch.randn_like(p) * 0.002)
            elif "LayerNorm.weight" in name:
                p.copy_(1.0 + 0.2 * torch.randn_like(p))
            elif name.endswith(".bias"):
                p.copy_(0.1 * torch.randn_like(p))
            else:  # dense weights: ~unit gain so attention is not uniform
                p.copy_(torch.randn_like(p) / p.shape[1] ** 0.5)
    model = model.float().eval()
    model.config._attn_implementation = "eager"
    sparse_linear = torch.nn.Linear(h, 1)
    colbert_linear = torch.nn.Linear(h, h)
    with torch.no_grad():
        sparse_linear.weight.copy_(torch.randn(1, h) * 0.5)
        sparse_linear.bias.fill_(0.05)
        colbert_linear.weight.copy_(torch.randn(h, h) / h ** 0.5)
        colbert_linear.bias.copy_(0.1 * torch.randn(h))

    state = {k: v.contiguous() for k, v in model.state_dict().items()}
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(TINY_CFG, f, indent=1)
        f.write("\n")
    tok = tiny_tokenizer()
    tok.save(os.path.join(d, "tokenizer.json"))

    unused = {0, 2, 1, 3}  # cls, eos, pad, unk (FlagEmbedding's unused_tokens)
    seqs = [tok.encode(t).ids for t in TINY_TEXTS]
    longest = max(len(s) for s in seqs)
    ids = torch.tensor([s + [1] * (longest - len(s)) for s in seqs])
    mask = torch.tensor([[1] * len(s) + [0] * (longest - len(s)) for s in seqs])
    with torch.no_grad():
        hs = model(input_ids=ids, attention_mask=mask).last_hidden_state
        # centre and scale the sparse head on these texts: weights of order 1,
        # about half of them cut by the ReLU
        raw = (hs @ sparse_linear.weight.T).squeeze(-1)[mask.bool()]
        sparse_linear.weight.div_(raw.std())
        sparse_linear.bias.fill_(-float(raw.median() / raw.std()))
        dense = torch.nn.functional.normalize(hs[:, 0], dim=-1)
        token_w = torch.relu(sparse_linear(hs)).squeeze(-1)
        colbert = colbert_linear(hs[:, 1:]) * mask[:, 1:][:, :, None].float()
        colbert = torch.nn.functional.normalize(colbert, dim=-1)
    write_text_weights(os.path.join(d, "weights.json"), {
        "model": state,
        "sparse_linear": sparse_linear.state_dict(),
        "colbert_linear": colbert_linear.state_dict(),
    })
    rows = []
    repeated_max_not_first = 0
    for i, s in enumerate(seqs):
        w = token_w[i, : len(s)].tolist()
        sparse = {}
        first = {}
        for t, wt in zip(s, w):
            if t in unused or wt <= 0:
                continue
            first.setdefault(t, wt)
            if t not in sparse or wt > sparse[t]:
                sparse[t] = wt
        repeated_max_not_first += sum(1 for t in sparse if abs(sparse[t] - first[t]) > 1e-3)
        rows.append({
            "text": TINY_TEXTS[i],
            "ids": s,
            "dense": r6(dense[i].tolist()),
            "token_weights": r6(w),
            "sparse": [[t, float(f"{sparse[t]:.7g}")] for t in sorted(sparse)],
            "colbert": [r6(v) for v in colbert[i, : len(s) - 1].tolist()],
        })
    assert repeated_max_not_first >= 3, "texts must repeat tokens whose later weight is larger"
    assert any(3 in r["ids"] for r in rows), "one text must hold an unknown word"
    return {"model": "tiny-xlmr (seed 37)", "config": TINY_CFG,
            "unused_tokens": sorted(unused), "texts": rows}


# ---------------------------------------------------------------- Qwen GGUF

GGUF_FILE = "Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf"
GGUF_PROMPT = ("Frage: Wann muss ein Unternehmen nach der DSGVO einen "
               "Datenschutzbeauftragten benennen?\nAntwort:")
GGUF_STEPS = 32
GGUF_TOP = 32


def gguf(models):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(models, gguf_file=GGUF_FILE)
    model = AutoModelForCausalLM.from_pretrained(models, gguf_file=GGUF_FILE,
                                                 dtype=torch.float32)
    model = model.eval()
    prompt = tok(GGUF_PROMPT, add_special_tokens=False)["input_ids"]
    x = torch.tensor([prompt])
    with torch.no_grad():
        gen = model.generate(x, attention_mask=torch.ones_like(x), max_new_tokens=GGUF_STEPS,
                             min_new_tokens=GGUF_STEPS, do_sample=False)
    forced = gen[0, len(prompt):].tolist()
    assert len(forced) == GGUF_STEPS
    full = torch.tensor([prompt + forced[:-1]])
    with torch.no_grad():
        logits = model(input_ids=full).logits[0, len(prompt) - 1:].float()
    steps = []
    for i in range(GGUF_STEPS):
        v, ix = torch.topk(logits[i], GGUF_TOP)
        steps.append({"argmax": int(ix[0]), "top2_gap": float(v[0] - v[1]),
                      "top_ids": ix.tolist(), "top_logits": r6(v.tolist())})
    return {"model": GGUF_FILE, "prompt": GGUF_PROMPT, "prompt_ids": prompt,
            "forced": forced, "forced_text": tok.decode(forced), "steps": steps}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=os.environ.get(
        "PARAGRAF_TEST_MODELS", os.path.expanduser("~/.cache/paragraf/test-models")))
    ap.add_argument("--only", default="e5,tiny,gguf")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    import transformers
    versions = {"python": platform.python_version(), "torch": torch.__version__,
                "transformers": transformers.__version__, "numpy": np.__version__}
    for part in a.only.split(","):
        t0 = time.time()
        out = {"e5": e5, "tiny": tiny, "gguf": gguf}[part](a.models)
        out["generated_by"] = {"script": "scripts/ref_parity.py", **versions}
        name = {"e5": "e5.json", "tiny": "tiny-xlmr.json", "gguf": "qwen-gguf.json"}[part]
        dump(os.path.join(OUT, name), out)
        print(f"{part}: {name} in {time.time() - t0:.0f} s", file=sys.stderr)
    print(json.dumps(versions))


if __name__ == "__main__":
    main()
