#!/usr/bin/env python3
"""How the extractor (cues, frames, the learned model) does one sentence at a time, on hand-written sets.

The sets: "blind" (bench/fact_phrasings.py, written without reading the extractor; the broad
cues were later tuned on it, so it is no longer blind), "dev" (bench/fact_phrasings_dev.py,
tuning material in the style of real conversations), "dev2" (bench/fact_phrasings_dev2.py,
more tuning material, leaning on how people report changes and on look-alikes that use a change's
words), "dev3" (bench/fact_phrasings_dev3.py, everyday conversation between people: mostly
the chatter that is no fact, with names and numbers in it, and personal facts told in passing),
"dev4" and "dev5" (a coding session; lives, households and small businesses), "dev6" (changes
above all, told as people tell them), "dev7" (changes of what a user tells an agent over weeks, the old
value said in many wordings), and "holdout" to "holdout6" (bench/fact_phrasings_holdout*.py,
blind checks written by someone who never read the extractor: before the facts2 round, after the
learned model's first round, after its second, during the round of changes told in passing, and
before the round tuned on dev6, and at the end of the round of subjects named by part of their name;
measure, never tune on them).
None replaces the held-out corpus split.

The synthetic corpus has a few templates per fact; its held-out split ("fresh") shows whether the
cues generalize, but only over a handful of sentence shapes. This checks the same thing one sentence
at a time, over a blind hand-written set:

- statements: a fact sentence is *found* when `extract_sentence` returns a fact containing the
  planted value; a non-fact sentence that yields anything is a *false alarm*. Category agreement
  is reported over the found ones.
- changes: every old statement is dated in January and its restatement with a new value in
  March, all in one consolidation run (so unrelated facts can wrongly link, as in a real vault);
  a change told in passing (a change-only candidate, facts/updates.py) takes part there, though it
  is no statement found.
  A change is *handled* when one fact holds the new value as current and the old in its history.
  Each pair is also consolidated alone: in the shared run, pairs that are one subject for one person
  ("my diet", "my manager") but come from different people collide, which no single vault does.

Run:  .venv/bin/python bench/eval_phrasings.py [--set NAME] (blind, dev..dev7, holdout..holdout6) [-v]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fact_phrasings
import fact_phrasings_dev
import fact_phrasings_dev2
import fact_phrasings_dev3
import fact_phrasings_dev4
import fact_phrasings_dev5
import fact_phrasings_dev6
import fact_phrasings_dev7
import fact_phrasings_holdout
import fact_phrasings_holdout2
import fact_phrasings_holdout3
import fact_phrasings_holdout4
import fact_phrasings_holdout5
import fact_phrasings_holdout6
import minilm

from compaction_tree.facts import extract_sentence, extract_statements
from compaction_tree.facts.consolidate import Fact, consolidate
from compaction_tree.summary import FactCandidate

SETS = {
    "blind": fact_phrasings,
    "dev": fact_phrasings_dev,
    "dev2": fact_phrasings_dev2,
    "dev3": fact_phrasings_dev3,
    "dev4": fact_phrasings_dev4,
    "dev5": fact_phrasings_dev5,
    "dev6": fact_phrasings_dev6,
    "dev7": fact_phrasings_dev7,
    "holdout": fact_phrasings_holdout,
    "holdout2": fact_phrasings_holdout2,
    "holdout3": fact_phrasings_holdout3,
    "holdout4": fact_phrasings_holdout4,
    "holdout5": fact_phrasings_holdout5,
    "holdout6": fact_phrasings_holdout6,
}
Statement = tuple[str, str, str | None, str]
Change = tuple[str, str, str, str, str]


def _has(text: str, value: str) -> bool:
    return value.casefold() in text.casefold()


def score_statements(STATEMENTS: tuple[Statement, ...], verbose: bool) -> dict[str, float]:
    found = missed = alarms = agree = 0
    facts = sum(1 for _, _, category, _ in STATEMENTS if category)
    for speaker, sentence, category, value in STATEMENTS:
        got = extract_sentence(sentence, speaker)
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
            found = extract_statements(sentence, speaker)
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
                        got.change_only,
                        got.replaced_only,
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the cue extractor on a hand-written phrasing set")
    parser.add_argument("--set", choices=sorted(SETS), default="blind", help="which phrasing set")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every miss and false alarm")
    parser.add_argument(
        "--embeddings", action="store_true", help="link changes by all-MiniLM-L6-v2 similarity (bench/minilm.py)"
    )
    args = parser.parse_args(argv)
    chosen = SETS[args.set]
    statements = score_statements(chosen.STATEMENTS, args.verbose)
    changes = score_changes(chosen.CHANGES, args.verbose, args.embeddings)
    print(
        f"statements: {statements['facts']} facts found {statements['found']:.3f} "
        f"(category agreement {statements['category_agreement']:.2f}), {statements['non_facts']} non-facts "
        f"false alarms {statements['false_alarms']:.3f}, precision {statements['precision']:.3f}"
    )
    print(
        f"changes: {changes['changes']} pairs, statements extracted {changes['extracted']:.3f}, "
        f"handled {changes['handled']:.3f} (each pair alone: {changes['alone']:.3f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
