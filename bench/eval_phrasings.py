#!/usr/bin/env python3
"""How the offline extractor does one sentence at a time, on hand-written phrasing sets (JSONL).

The sets live in bench/data/phrasings/<name>.jsonl, one record a line:
  {"kind": "statement", "speaker", "sentence", "category" (null: no fact), "value"}: `value` is a
  substring a correct fact holds;
  {"kind": "change", "speaker", "old", "new", "old_value", "new_value"}.

Split discipline (issue 27): "blind" and "dev" to "dev7" are tuning material (the cue extractor was
tuned on all of them, the frames extractor on these only); "holdout" to "holdout6" were written blind
to the extractor and are measured, never tuned on: nobody reads their misses to change a rule.
Report precision and recall on the holdouts; a miss there is a sign, not a case to fix.

- statements: a fact sentence is *found* when `extract_sentence` returns a fact containing the
  planted value; a non-fact sentence that yields anything is a *false alarm*. Category agreement
  is reported over the found ones.
- changes: every old statement is dated in January and its restatement with a new value in
  March, all in one consolidation run (so unrelated facts can wrongly link, as in a real vault).
  A change is *handled* when one fact holds the new value as current and the old in its history.
  Each pair is also consolidated alone.

Run:  .venv/bin/python bench/eval_phrasings.py [--set NAME | --split dev|holdout] [--learned] [-v]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import minilm

from compaction_tree.facts import extract_sentence, extract_statements
from compaction_tree.facts.consolidate import Fact, consolidate
from compaction_tree.summary import FactCandidate

PHRASINGS = Path(__file__).resolve().parent / "data" / "phrasings"
SETS = sorted(p.stem for p in PHRASINGS.glob("*.jsonl"))
TUNING = [name for name in SETS if not name.startswith("holdout")]
HOLDOUT = [name for name in SETS if name.startswith("holdout")]
Statement = tuple[str, str, str | None, str]
Change = tuple[str, str, str, str, str]


def load(name: str) -> tuple[tuple[Statement, ...], tuple[Change, ...]]:
    """A phrasing set's statements and changes, in file order."""
    statements: list[Statement] = []
    changes: list[Change] = []
    for line in (PHRASINGS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        if r["kind"] == "statement":
            statements.append((r["speaker"], r["sentence"], r["category"], r["value"]))
        else:
            changes.append((r["speaker"], r["old"], r["new"], r["old_value"], r["new_value"]))
    return tuple(statements), tuple(changes)


def _has(text: str, value: str) -> bool:
    return value.casefold() in text.casefold()


def score_statements(STATEMENTS: tuple[Statement, ...], verbose: bool) -> dict[str, float]:
    found = missed = alarms = agree = 0
    facts = sum(1 for _, _, category, _ in STATEMENTS if category)
    for speaker, sentence, category, value in STATEMENTS:
        got = extract_sentence(sentence, speaker, use_model=LEARNED)
        if category is None:
            if got is not None:
                alarms += 1
                if verbose:
                    print(f"  false alarm [{got.cue}] {got.category}/{got.subject}: {sentence}")
        elif got is not None and _has(got.fact, value):
            found += 1
            agree += got.category == category
            if verbose and got.category != category:
                print(f"  category {got.category} != {category} [{got.cue}]: {sentence}")
        else:
            missed += 1
            if verbose:
                print(f"  missed ({category}, {value!r}): {sentence}")
    non_facts = len(STATEMENTS) - facts
    return {
        "facts": facts,
        "found": found / facts,
        "category_agreement": agree / found if found else 0.0,
        "non_facts": non_facts,
        "false_alarms": alarms / non_facts if non_facts else 0.0,
        "precision": found / (found + alarms) if found + alarms else 0.0,
    }


def _handled(facts: Sequence[Fact], n: int, old_value: str, new_value: str) -> bool:
    return any(
        f"n{n}" in f.current.sources
        and _has(f.current.fact, new_value)
        and any(f"o{n}" in v.sources and _has(v.fact, old_value) for v in f.history)
        for f in facts
    )


def score_changes(CHANGES: tuple[Change, ...], verbose: bool, embeddings: bool = False) -> dict[str, float]:
    candidates: dict[int, list[FactCandidate]] = {}
    for n, (speaker, old, new, _, _) in enumerate(CHANGES):
        for sentence, day, tag in ((old, f"2026-01-{n % 28 + 1:02d}", "o"), (new, f"2026-03-{n % 28 + 1:02d}", "n")):
            # a change told in passing too, and else a statement that is a fact only as what a later change replaces
            found = extract_statements(sentence, speaker, LEARNED)
            got = next((e for e in found if not e.replaced_only), next(iter(found), None))
            if got is not None:
                candidates.setdefault(n, []).append(
                    FactCandidate(
                        got.category,
                        got.subject,
                        got.fact,
                        got.confidence,
                        day,
                        (f"{tag}{n}",),
                        value=got.value,
                        replaces=got.replaces,
                    )
                )
    extracted = sum(not c.replaced_only for found in candidates.values() for c in found)
    similarity = minilm.similarity() if embeddings else None  # a real embedding model, or lexical
    facts = consolidate([c for found in candidates.values() for c in found], similarity=similarity).facts
    handled = alone = 0
    for n, (_, old, new, old_value, new_value) in enumerate(CHANGES):
        ok = _handled(facts, n, old_value, new_value)
        handled += ok
        alone += _handled(consolidate(candidates.get(n, []), similarity=similarity).facts, n, old_value, new_value)
        if verbose and not ok:
            holders = [
                f.subject for f in facts if {f"o{n}", f"n{n}"} & {s for v in (f.current, *f.history) for s in v.sources}
            ]
            print(f"  unhandled {old_value!r} -> {new_value!r} (subjects {holders}):\n    {old}\n    {new}")
    return {
        "changes": len(CHANGES),
        "extracted": extracted / (2 * len(CHANGES)),
        "handled": handled / len(CHANGES),
        "alone": alone / len(CHANGES),
    }


def _report(name: str, verbose: bool, embeddings: bool) -> dict[str, float]:
    statements_set, changes_set = load(name)
    statements = score_statements(statements_set, verbose)
    changes = score_changes(changes_set, verbose, embeddings)
    print(
        f"{name}: statements: {statements['facts']} facts found {statements['found']:.3f} "
        f"(category agreement {statements['category_agreement']:.2f}), {statements['non_facts']} non-facts "
        f"false alarms {statements['false_alarms']:.3f}, precision {statements['precision']:.3f}; "
        f"changes: {changes['changes']} pairs, handled {changes['handled']:.3f} (alone {changes['alone']:.3f})"
    )
    return statements


LEARNED = False  # as memtree by default: the frames alone (--learned: with the learned fallback, `facts.learned`)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the offline extractor on hand-written phrasing sets")
    parser.add_argument("--set", choices=SETS, help="one phrasing set")
    parser.add_argument("--split", choices=["dev", "holdout"], help="all tuning sets, or all held-out ones")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every miss and false alarm")
    parser.add_argument(
        "--embeddings", action="store_true", help="link changes by all-MiniLM-L6-v2 similarity (bench/minilm.py)"
    )
    parser.add_argument("--learned", action="store_true", help="with the learned fallback (memtree.yaml facts.learned)")
    args = parser.parse_args(argv)
    global LEARNED
    LEARNED = args.learned
    names = [args.set] if args.set else HOLDOUT if args.split == "holdout" else TUNING if args.split else ["blind"]
    found = alarms = facts = 0.0
    for name in names:
        one = _report(name, args.verbose and args.split != "holdout", args.embeddings)
        found += one["found"] * one["facts"]
        alarms += one["false_alarms"] * one["non_facts"]
        facts += one["facts"]
    if len(names) > 1:
        print(f"all: recall {found / facts:.3f}, precision {found / (found + alarms) if found + alarms else 0.0:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
