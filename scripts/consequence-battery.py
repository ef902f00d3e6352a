#!/usr/bin/env python3
"""A battery of own consequence questions over the names of 25 laws: twelve
phrasings (six English, six German: „Welche Bußgelder drohen nach …?“,
"What happens if we do not comply with the …?", …) per law. The six that
ask for a sanction expect the law's norms headed as fines, penalties or
criminal provisions; the six that ask what follows in general expect those
and the norms headed as liability or damages. A self-test of how
consequence questions are answered whatever the law and the wording; the
names are the ones people use, not always the law's official ones.

    paragraf -q corpus ingest --from ../shared/corpus --out /tmp/ing --json
    python3 scripts/consequence-battery.py /tmp/ing/chunks.jsonl > /tmp/consequence.jsonl
    paragraf eval --golden /tmp/consequence.jsonl --index <index>
"""
import json
import re
import sys

from law_headings import headings_by_law

# law → (an English name, a German name, the German name's gender)
LAWS = {
    "DSGVO": ("GDPR", "DSGVO", "f"), "BDSG": ("BDSG", "BDSG", "n"), "TDDDG": ("TDDDG", "TDDDG", "n"),
    "DDG": ("DDG", "DDG", "n"), "BSIG": ("BSIG", "BSIG", "n"),
    "NIS2": ("NIS2 Directive", "NIS-2-Richtlinie", "f"),
    "CRA": ("Cyber Resilience Act", "Cyber Resilience Act", "m"), "KI-VO": ("AI Act", "KI-Verordnung", "f"),
    "MVO": ("Machinery Regulation", "Maschinenverordnung", "f"),
    "ProdSG": ("ProdSG", "Produktsicherheitsgesetz", "n"), "GPSR": ("GPSR", "GPSR", "f"),
    "RED": ("Radio Equipment Directive", "Funkanlagenrichtlinie", "f"), "DORA": ("DORA", "DORA", "f"),
    "Data Act": ("Data Act", "Data Act", "m"), "CSA": ("Cybersecurity Act", "Cybersecurity Act", "m"),
    "HinSchG": ("Whistleblower Protection Act", "Hinweisgeberschutzgesetz", "n"),
    "TKG": ("TKG", "Telekommunikationsgesetz", "n"), "AGG": ("AGG", "AGG", "n"),
    "ArbSchG": ("Occupational Safety and Health Act", "Arbeitsschutzgesetz", "n"),
    "GwG": ("Money Laundering Act", "Geldwäschegesetz", "n"),
    "KRITISDachG": ("KRITIS-Dachgesetz", "KRITIS-Dachgesetz", "n"),
    "UWG": ("Act against Unfair Competition", "UWG", "n"), "BetrVG": ("Works Constitution Act", "BetrVG", "n"),
    "ProdHaftG": ("Product Liability Act", "Produkthaftungsgesetz", "n"),
    "GeschGehG": ("Trade Secrets Act", "Geschäftsgeheimnisgesetz", "n"),
}
# a directive binds the member states: a German question about it asks
# after the German law that transposes it (the engine's transposing laws)
TRANSPOSED = {"NIS2": "BSIG"}
# German articles: nominative, accusative, dative
ARTICLES = {"f": ("die", "die", "der"), "n": ("das", "das", "dem"), "m": ("der", "den", "dem")}
SANCTION_EN = ["What are the penalties for violating the {L}?", "What fines can be imposed under the {L}?",
               "What sanctions apply to breaches of the {L}?"]
GENERAL_EN = ["What happens if we do not comply with the {L}?",
              "What are the consequences of non-compliance with the {L}?",
              "What happens if a company fails to meet its obligations under the {L}?"]
SANCTION_DE = ["Welche Bußgelder drohen nach {dat} {L}?", "Welche Strafen drohen bei Verstößen gegen {acc} {L}?",
               "Welche Sanktionen sieht {nom} {L} vor?"]
GENERAL_DE = ["Was passiert, wenn wir {acc} {L} nicht einhalten?", "Welche Folgen hat ein Verstoß gegen {acc} {L}?",
              "Was droht Unternehmen, die ihre Pflichten nach {dat} {L} verletzen?"]
SANCTION = re.compile(r"bu(ss|ß)geld|geldbu(ss|ß)e|sanktion|penalt|\bfines\b|strafvorschrift|criminal", re.I)
DAMAGES = re.compile(r"^haftung\b|schadens?ersatz|right to compensation|^liability$|liability$", re.I)
# headed with the word, stating no consequence: procedure, publication,
# an exemption from or a limit of liability, a payment for data
NOT = re.compile(r"anwendung der vorschriften|bekanntmachung|publication|exercise of the power|"
                 r"exemption|reduction|exclusion|limitation|beschränkung|höchstbetrag|minderung|of enisa|convictions", re.I)


def main(path):
    titles = headings_by_law(path)
    i = 0
    for law, (en, de, gender) in LAWS.items():
        def headed(of, pattern):
            return sorted(f"{n} {of}" for n, t in titles[of].items()
                          if any(pattern.search(x) and not NOT.search(x) for x in t))
        sanction = headed(law, SANCTION)
        general = sorted(set(sanction) | set(headed(law, DAMAGES)))
        if not general:
            continue
        de_sanction, de_general = sanction, general
        if law in TRANSPOSED:
            german = TRANSPOSED[law]
            de_sanction = sorted(set(sanction) | set(headed(german, SANCTION)))
            de_general = sorted(set(general) | set(headed(german, SANCTION)) | set(headed(german, DAMAGES)))
        nom, acc, dat = ARTICLES[gender]
        frames = [(f, en, sanction) for f in SANCTION_EN] + [(f, en, general) for f in GENERAL_EN]
        frames += [(f, de, de_sanction) for f in SANCTION_DE] + [(f, de, de_general) for f in GENERAL_DE]
        for k, (frame, name, expect) in enumerate(frames):
            if not expect:
                continue
            query = frame.format(L=name, nom=nom, acc=acc, dat=dat)
            query = query[0].upper() + query[1:]
            print(json.dumps({"id": f"cq-{i:03d}-{k}", "query": query, "expect_any": expect},
                             ensure_ascii=False))
        i += 1


if __name__ == "__main__":
    main(sys.argv[1])
