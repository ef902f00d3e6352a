#!/usr/bin/env python3
"""Derive crates/paragraf-rank/lexicon/synonyms_de.tsv from OpenThesaurus.

Input: the Debian package openthesaurus-de-text
(/usr/share/openthesaurus-de/openthesaurus.txt, LGPL-2.1+, Daniel Naber).
Kept: each synonym set's single-word members without usage marks
(no "(ugs.)", no spaces), sets with at least two of them; one set per
line, words separated by tabs. Dev-time only: the engine reads the TSV.
"""
import sys

src = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/openthesaurus-de/openthesaurus.txt"
out = sys.argv[2] if len(sys.argv) > 2 else "crates/paragraf-rank/lexicon/synonyms_de.tsv"
sets = []
seen = set()
for line in open(src, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    words = []
    for w in line.strip().split(";"):
        w = w.strip()
        if not w or " " in w or "(" in w or "." in w or "-" == w[:1]:
            continue
        if w not in words:
            words.append(w)
    if len(words) < 2:
        continue
    key = tuple(sorted(words))
    if key in seen:
        continue
    seen.add(key)
    sets.append(words)
with open(out, "w", encoding="utf-8") as f:
    f.write("# German synonym sets, one per line (tab-separated), derived by\n")
    f.write("# scripts/synonyms-from-openthesaurus.py from OpenThesaurus\n")
    f.write("# (openthesaurus.de, (C) 2003-2014 Daniel Naber, LGPL-2.1-or-later;\n")
    f.write("# Debian package openthesaurus-de-text 20160424): single words\n")
    f.write("# without usage marks of each set, sets of two or more.\n")
    for s in sets:
        f.write("\t".join(s) + "\n")
print(len(sets), "sets ->", out)
