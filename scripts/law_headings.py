"""The headings of the binding norms in a chunks dump (`paragraf corpus
ingest --json`): law → norm → its headings. Shared by the batteries."""
import collections
import json


def headings_by_law(path):
    titles = collections.defaultdict(lambda: collections.defaultdict(set))
    with open(path, encoding="utf-8") as f:
        for line in f:
            c = json.loads(line)
            if c["source_class"] == "binding_law":
                titles[c["regulation"]][c["norm"]].add(c["title"] or "")
    return titles
