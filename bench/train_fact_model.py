#!/usr/bin/env python3
"""Train the learned fallback (compaction_tree/facts/learned.py), choose its threshold, write its file.

Material, dev only: the tuning phrasing sets (bench/data/phrasings: blind and dev to dev7; never
holdout*, and a dev sentence that a holdout set also holds is left out, so no holdout sentence is
learned). Each sentence is read as the extractor reads it (extract.gated: speaker label and chatter
cleaned off, questions, hypotheticals, narration, moments and pastes shut out); what no gate lets
through is not trained on, since the model is never asked about it. A labelled statement is a fact
of its category or no fact; both sentences of every change are facts (of no category).

Logistic regression by plain SGD with a fixed shuffle seed: one "fact" head over every sentence,
one head per category over the facts. The same material gives the same file, byte for byte.

The threshold: leave one dev set out at a time (a wording the fold's model never saw), pool the
frames' and the model's readings of its statements, and take the lowest probability at which frames
plus model keep TARGET_PRECISION; the shipped model, trained on all dev sets, gets that threshold.

Run:  .venv/bin/python bench/train_fact_model.py [--check] [--curve]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_phrasings import HOLDOUT, TUNING, load

from compaction_tree.facts.extract import extract_sentence, gated
from compaction_tree.facts.learned import FACT, MODEL_FILE, THRESHOLD, features, opinion
from compaction_tree.facts.records import CATEGORIES

EPOCHS = 10
RATE = 0.2
DECAY = 0.8
L2 = 1e-4
KEEP = 0.05  # smaller weights are left out of the file
MIN_COUNT = 2  # a feature of fewer training sentences is not learned (it would only remember that sentence)
TARGET_PRECISION = 0.96  # frames + model, pooled over the left-out dev sets (the target is 0.95)
CATEGORY_FEATURES = ("w:", "first:")
GRID = [round(0.5 + n * 0.01, 2) for n in range(50)]
OUT = Path(__file__).resolve().parents[1] / "compaction_tree" / "data" / MODEL_FILE

Example = tuple[tuple[str, ...], str | None, bool]  # features, category, is a fact


@dataclass(frozen=True)
class Statement:
    speaker: str
    sentence: str
    category: str | None
    value: str


def holdout_sentences() -> set[str]:
    """Every sentence of the holdout sets, folded: only to leave them out of training."""
    said: set[str] = set()
    for name in HOLDOUT:
        statements, changes = load(name)
        said.update(s[1].casefold().strip() for s in statements)
        said.update(text.casefold().strip() for c in changes for text in (c[1], c[2]))
    return said


def examples_of(name: str, excluded: set[str]) -> list[Example]:
    statements, changes = load(name)
    labelled = [(speaker, sentence, category, category is not None) for speaker, sentence, category, _ in statements]
    labelled += [(c[0], text, None, True) for c in changes for text in (c[1], c[2])]
    found = []
    for speaker, sentence, category, is_fact in labelled:
        text = gated(sentence, speaker)
        if text is not None and sentence.casefold().strip() not in excluded:
            found.append((features(text), category, is_fact))
    return found


def train_head(rows: list[tuple[tuple[str, ...], bool]]) -> dict[str, float]:
    """One logistic head, the classes weighed to balance."""
    positives = sum(1 for _, y in rows if y) or 1
    negatives = sum(1 for _, y in rows if not y) or 1
    weight = {True: len(rows) / (2 * positives), False: len(rows) / (2 * negatives)}
    weights: dict[str, float] = {}
    order = list(rows)
    shuffle = random.Random(0)
    rate = RATE
    for _ in range(EPOCHS):
        shuffle.shuffle(order)
        for seen, positive in order:
            z = sum(weights.get(f, 0.0) for f in seen)
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            gradient = (p - positive) * weight[positive]
            for f in seen:
                weights[f] = weights.get(f, 0.0) * (1 - rate * L2) - rate * gradient
        rate *= DECAY
    return {f: round(w, 4) for f, w in weights.items() if abs(w) >= KEEP}


def common(examples: list[Example]) -> list[Example]:
    """The examples with only the features MIN_COUNT sentences or more have."""
    counts = Counter(f for seen, _, _ in examples for f in seen)
    return [(tuple(f for f in seen if counts[f] >= MIN_COUNT), c, y) for seen, c, y in examples]


def train(examples: list[Example]) -> dict[str, dict[str, float]]:
    examples = common(examples)
    heads = {FACT: train_head([(f, is_fact) for f, _, is_fact in examples])}
    words = [(tuple(f for f in seen if f.startswith(CATEGORY_FEATURES)), c) for seen, c, _ in examples if c]
    for category in CATEGORIES:  # which kind of fact: told by its words, not their order (a smaller file)
        heads[category] = train_head([(seen, c == category) for seen, c in words])
    return heads


def _has(text: str, value: str) -> bool:
    return value.casefold() in text.casefold()


def readings(name: str, heads: dict[str, dict[str, float]]) -> list[tuple[bool, bool, float]]:
    """Per statement of a set, as eval_phrasings scores it: is it a fact; does a frame's reading count (a fact's
    reading holding its value, or any reading of a non-fact); the probability at which the model's would count
    (0 when a frame read the sentence, a gate shut it out, or the reading would not hold the value)."""
    out = []
    for speaker, sentence, category, value in load(name)[0]:
        is_fact = category is not None
        frames = extract_sentence(sentence, speaker, use_model=False)
        framed = frames is not None and (not is_fact or _has(frames.fact, value))
        text = gated(sentence, speaker)
        probability = 0.0
        if frames is None and text is not None:
            read = extract_sentence(sentence, speaker, weights=(heads, 0.0))
            if read is not None and (not is_fact or _has(read.fact, value)):
                probability = opinion(text, (heads, 0.0)).probability
        out.append((is_fact, framed, probability))
    return out


def curve(pooled: list[tuple[bool, bool, float]]) -> list[tuple[float, float, float]]:
    """(threshold, precision, recall) of frames plus model over the pooled statements."""
    facts = sum(1 for is_fact, _, _ in pooled if is_fact)
    points = []
    for threshold in GRID:
        kept = [(is_fact, framed or p >= threshold) for is_fact, framed, p in pooled]
        found = sum(1 for is_fact, k in kept if is_fact and k)
        alarms = sum(1 for is_fact, k in kept if not is_fact and k)
        precision = found / (found + alarms) if found + alarms else 0.0
        points.append((threshold, precision, found / facts))
    return points


def choose(points: Iterable[tuple[float, float, float]]) -> float:
    return next((t for t, precision, _ in points if precision >= TARGET_PRECISION), 1.0)


def build(show_curve: bool = False) -> str:
    excluded = holdout_sentences()
    by_set = {name: examples_of(name, excluded) for name in TUNING}
    pooled = []
    for left_out in TUNING:
        heads = train([e for name, examples in by_set.items() if name != left_out for e in examples])
        pooled += readings(left_out, heads)
    points = curve(pooled)
    threshold = choose(points)
    if show_curve:
        for t, precision, recall in points:
            print(f"threshold {t:.2f}: precision {precision:.3f} recall {recall:.3f}", file=sys.stderr)
    examples = [e for examples in by_set.values() for e in examples]
    heads = train(examples)
    chosen = next(p for p in points if p[0] == threshold) if threshold in GRID else (1.0, 0.0, 0.0)
    lines = [
        "# memtree fact model: head, feature, weight (written by bench/train_fact_model.py)",
        f"# dev phrasing sets {', '.join(TUNING)}: {len(examples)} gated sentences, "
        f"{sum(1 for e in examples if e[2])} facts",
        f"# threshold {threshold:.2f}: frames + model, each dev set left out in turn: precision {chosen[1]:.3f}, "
        f"recall {chosen[2]:.3f}",
        f"{FACT}\t{THRESHOLD}\t{threshold:.2f}",
    ]
    for head in sorted(heads):
        lines += [f"{head}\t{feature}\t{weight:.4f}" for feature, weight in sorted(heads[head].items())]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="train the learned fact fallback (see the module docstring)")
    parser.add_argument("--check", action="store_true", help="compare with the committed file, write nothing")
    parser.add_argument("--curve", action="store_true", help="print the left-out precision/recall per threshold")
    args = parser.parse_args(argv)
    text = build(args.curve)
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("the committed model is what this material trains" if same else "the committed model differs")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text.splitlines())} lines, {len(text.encode())} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
