#!/usr/bin/env python3
"""A battery of definition questions generated from the laws' own
definitions articles: for every term a definitions norm defines in quotes
(„…“ ein/eine/der …; ‘…’ means …), one question in the term's language
(„Was bedeutet <term>?“, "What does <term> mean?"), expecting the
definitions norms of the laws that define it in that language. A self-test
of the definition path (frame, defined terms, categories), not a set of
real questions: its labels miss a term another law defines in other words.

    paragraf -q corpus ingest --from ../shared/corpus --out /tmp/ing --json
    python3 scripts/defined-terms-battery.py /tmp/ing/chunks.jsonl > /tmp/defbat.jsonl
    paragraf eval --golden /tmp/defbat.jsonl --index <index>
"""
import collections
import json
import re
import sys

# the definitions norm of each law the battery reads (the lexicon's
# [[regulation]] definitions; superseded versions left out)
DEFINITIONS = {
    "DSGVO": "Art. 4", "NIS2": "Art. 6", "CRA": "Art. 3", "KI-VO": "Art. 3", "MVO": "Art. 3",
    "PLD": "Art. 4", "GPSR": "Art. 3", "RED": "Art. 2", "DORA": "Art. 3", "Data Act": "Art. 2",
    "CSA": "Art. 2", "BDSG": "§ 2", "TDDDG": "§ 2", "DDG": "§ 1", "BSIG": "§ 2", "HinSchG": "§ 3",
    "GeschGehG": "§ 2", "TKG": "§ 3", "AGG": "§ 3", "UWG": "§ 2", "GwG": "§ 1", "ProdHaftG": "§ 2",
    "ProdSG": "§ 2", "KRITISDachG": "§ 2", "ArbSchG": "§ 2",
}
EN = re.compile(r"(?:^|\n|\(\d+\)\s*|\d+\.\s*)\s*[‘'\"]([^’'\"]{3,60})[’'\"]\s+means")
DE = re.compile(r"[„\"]([^“\"]{3,60})[“\"]\s+(?:ein|eine|einen|die|der|das|jede|jeder|jedes|alle)\b")


def main(path):
    terms = collections.defaultdict(set)
    with open(path, encoding="utf-8") as f:
        for line in f:
            c = json.loads(line)
            if DEFINITIONS.get(c["regulation"]) != c["norm"]:
                continue
            pattern = EN if c["lang"] == "en" else DE
            for term in pattern.findall(c["text"]):
                terms[(c["lang"], term.strip())].add(f'{c["norm"]} {c["regulation"]}')
    for i, ((lang, term), norms) in enumerate(sorted(terms.items())):
        query = f"What does {term} mean?" if lang == "en" else f"Was bedeutet {term}?"
        row = {"id": f"def-{i:03d}", "query": query, "expect_any": sorted(norms)}
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
