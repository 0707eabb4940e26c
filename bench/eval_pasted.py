"""Pasted code, logs, configuration, terminal output and JSON must never become facts.

    .venv/bin/python bench/eval_pasted.py [--show]

Reads bench/data/pasted.jsonl (one pasted turn a line: id, kind, speaker, text; written blind to the
extractor's rules) and counts what the built-in extractor takes from it: the facts (target 0), and the
statements it keeps only as changes or replaced values (also 0: one could become a fact by linking). Then the
fact sentences of the phrasing sets (bench/data/phrasings/*.jsonl, statements and both sides of changes) that
the paste rule (facts/pasted.py) cuts anything from: recall it would cost (target 0).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compaction_tree.facts import statements_of
from compaction_tree.facts.pasted import said_text

DATA = Path(__file__).parent / "data" / "pasted.jsonl"
PHRASINGS = sorted((Path(__file__).parent / "data" / "phrasings").glob("*.jsonl"))


def phrasing_losses() -> tuple[int, list[str]]:
    """(fact sentences in the phrasing sets, those said_text takes anything from): the recall a paste rule costs."""
    sentences: list[str] = []
    for path in PHRASINGS:
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["kind"] == "statement" and record["category"]:
                sentences.append(record["sentence"])
            elif record["kind"] == "change":
                sentences += [record["old"], record["new"]]
    lost = [s for s in sentences if " ".join(said_text(s).split()) != " ".join(s.split())]
    return len(sentences), lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print each statement taken")
    args = parser.parse_args()
    items = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    facts: Counter[str] = Counter()
    passing: Counter[str] = Counter()
    for item in items:
        for found in statements_of(item["text"], item["speaker"]):
            (passing if found.change_only or found.replaced_only else facts)[item["kind"]] += 1
            if args.show:
                print(f"{item['id']} {item['kind']:9} {found.category}/{found.subject}: {found.fact!r}")
    kinds = Counter(item["kind"] for item in items)
    print(f"{len(items)} pasted items ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})")
    print(f"facts: {sum(facts.values())} {dict(sorted(facts.items()))}")
    print(f"change-only or replaced-only statements: {sum(passing.values())} {dict(sorted(passing.items()))}")
    total, lost = phrasing_losses()
    print(f"fact sentences of the phrasing sets cut as pasted: {len(lost)} of {total}")
    for sentence in lost if args.show else ():
        print(f"  cut: {sentence!r}")


if __name__ == "__main__":
    main()
