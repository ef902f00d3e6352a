#!/usr/bin/env python3
"""A battery of own scope questions over the names of 23 laws: twelve
phrasings (six English, six German: „Für wen gilt …?“, "Who is subject to
the …?", …) per law, expecting the law's lowest-numbered norms headed as
its scope (Anwendungsbereich, Geltungsbereich, Scope, Verpflichtete). A
self-test of how scope questions are recognised whatever their wording;
the names are the ones people use, not always the law's official ones.

    paragraf -q corpus ingest --from ../shared/corpus --out /tmp/ing --json
    python3 scripts/scope-battery.py /tmp/ing/chunks.jsonl > /tmp/scope.jsonl
    paragraf eval --golden /tmp/scope.jsonl --index <index>
"""
import json
import re
import sys

from law_headings import headings_by_law

# law → (an English name, a German name) as questions write them
LAWS = {
    "DSGVO": ("GDPR", "DSGVO"), "BDSG": ("BDSG", "BDSG"), "TDDDG": ("TDDDG", "TDDDG"),
    "DDG": ("DDG", "DDG"), "BSIG": ("BSIG", "BSIG"),
    "NIS2": ("NIS2 Directive", "NIS-2-Richtlinie"),
    "CRA": ("Cyber Resilience Act", "Cyber Resilience Act"), "KI-VO": ("AI Act", "KI-Verordnung"),
    "MVO": ("Machinery Regulation", "Maschinenverordnung"),
    "PLD": ("Product Liability Directive", "Produkthaftungsrichtlinie"),
    "ProdHaftG": ("Product Liability Act", "Produkthaftungsgesetz"),
    "ProdSG": ("ProdSG", "Produktsicherheitsgesetz"), "GPSR": ("GPSR", "Produktsicherheitsverordnung"),
    "RED": ("Radio Equipment Directive", "Funkanlagenrichtlinie"), "DORA": ("DORA", "DORA"),
    "Data Act": ("Data Act", "Data Act"), "CSA": ("Cybersecurity Act", "Cybersecurity Act"),
    "HinSchG": ("Whistleblower Protection Act", "Hinweisgeberschutzgesetz"),
    "GeschGehG": ("Trade Secrets Act", "Geschäftsgeheimnisgesetz"),
    "TKG": ("TKG", "Telekommunikationsgesetz"), "AGG": ("AGG", "AGG"),
    "ArbSchG": ("Occupational Safety and Health Act", "Arbeitsschutzgesetz"),
    "GwG": ("Money Laundering Act", "Geldwäschegesetz"),
    "KRITISDachG": ("KRITIS umbrella act", "KRITIS-Dachgesetz"),
    "JI-RL": ("Law Enforcement Directive", "JI-Richtlinie"),
}
FRAMES_EN = ["Who does the {L} apply to?", "Who is subject to the {L}?",
             "Who must comply with the {L}?", "Which companies fall under the {L}?",
             "What is the scope of the {L}?", "Is my company covered by the {L}?"]
FRAMES_DE = ["Für wen gilt das {L}?", "Wer ist vom {L} betroffen?",
             "Welche Unternehmen fallen unter das {L}?", "Was ist der Anwendungsbereich des {L}?",
             "Gilt das {L} für mein Unternehmen?", "Wer muss das {L} einhalten?"]
SCOPE = re.compile(r"anwendungsbereich|geltungsbereich|\bscope\b|verpflichtete", re.I)


def number(norm):
    m = re.search(r"\d+", norm)
    return int(m.group()) if m else 9999


def main(path):
    titles = headings_by_law(path)
    i = 0
    for law, (en, de) in LAWS.items():
        scope = [n for n, t in titles[law].items() if any(SCOPE.search(x) for x in t)]
        scope = sorted(scope, key=number)[:2]
        if not scope:
            continue
        expect = [f"{n} {law}" for n in scope]
        for k, frame in enumerate(FRAMES_EN + FRAMES_DE):
            name = en if k < len(FRAMES_EN) else de
            row = {"id": f"sc-{i:03d}-{k}", "query": frame.format(L=name), "expect_any": expect}
            print(json.dumps(row, ensure_ascii=False))
        i += 1


if __name__ == "__main__":
    main(sys.argv[1])
