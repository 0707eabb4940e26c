#!/usr/bin/env python3
"""Train the learned fact opinion (compaction_tree/facts/learned.py) and write its weights.

Material, dev only (never the test split of the corpus, nor the blind or holdout phrasing sets):
- the dev split of the synthetic corpus (bench/corpus.py), seeds 1-3: a sentence holding a
  planted value in the chunk that planted it is a fact of the planted category; every sentence of a
  noise chunk or a distractor (hypothetical, temporary, rejected...) is not, nor one planted for a
  question about an event (corpus.EVENT_SPECS: "Kestrel 3.20 shipped today", "finished the race in 1:50");
  the other chunks planted for questions are left out, since many state true facts nobody labelled
  (training on question_facts.py's labels instead was tried, leaving one dev set out at a time: no
  better on the set left out, and the model fired on more LoCoMo chat);
- the tuning phrasing sets (fact_phrasings_dev*.py, dev to dev6): labelled statements,
  non-facts (weighted up: they are the real-chat look-alikes the corpus noise lacks) and both
  sentences of every change.

Logistic regression by plain SGD with a fixed shuffle seed, one "fact" head over every sentence and
one head per category over the facts: the same material gives the same file, byte for byte.

Run:  .venv/bin/python bench/train_fact_model.py [--check]
      (--check: train and compare with the committed file instead of writing it)
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus as corpus_module
import fact_phrasings_dev
import fact_phrasings_dev2
import fact_phrasings_dev3
import fact_phrasings_dev4
import fact_phrasings_dev5
import fact_phrasings_dev6

from compaction_tree.facts.extract import is_assistant
from compaction_tree.facts.gates import clean_sentence
from compaction_tree.facts.learned import FACT, MODEL_FILE, features
from compaction_tree.facts.records import CATEGORIES
from compaction_tree.text import sentences

SEEDS = (1, 2, 3)
DAYS = 120
EPOCHS = 8
RATE = 0.2
DECAY = 0.7
L2 = 1e-5
PHRASING_WEIGHT = 5.0  # a hand-written non-fact counts as this many corpus noise sentences
KEEP = 0.1  # smaller weights are left out of the file
OUT = Path(__file__).resolve().parents[1] / "compaction_tree" / "data" / MODEL_FILE

Example = tuple[tuple[str, ...], str | None, float]  # features, category (None: not a fact), weight


def _example(sentence: str, speaker: str, category: str | None, weight: float = 1.0) -> Example:
    return features(clean_sentence(sentence), is_assistant(speaker)), category, weight


def corpus_examples(seed: int) -> list[Example]:
    corpus = corpus_module.generate(seed, days=DAYS, split="dev")
    planted: dict[str, list[corpus_module.PlantedFact]] = {}
    for fact in corpus.facts:
        for chunk in fact.stated_in:
            planted.setdefault(chunk, []).append(fact)
    templates = corpus.meta["templates"]["chunks"]
    distractors = {d["chunk"] for d in corpus.meta["distractors"]}
    events = {chunk for chunk, key in templates.items() if key.rsplit(".", 2)[0] in corpus_module.EVENT_SPECS}
    found = []
    for chunk in corpus.chunks:
        if chunk["id"] in planted:
            for sentence in sentences(chunk["text"]):
                facts = [f for f in planted[chunk["id"]] if f.value.casefold() in sentence.casefold()]
                if facts:
                    found.append(_example(sentence, chunk["speaker"], facts[0].category))
        elif chunk["id"] not in templates or chunk["id"] in distractors or chunk["id"] in events:
            found.extend(_example(s, chunk["speaker"], None) for s in sentences(chunk["text"]))
    return found


def phrasing_examples(module) -> list[Example]:
    found = [
        _example(sentence, speaker, category, 1.0 if category else PHRASING_WEIGHT)
        for speaker, sentence, category, _ in module.STATEMENTS
    ]
    for speaker, old, new, _, _ in module.CHANGES:
        found += [_example(old, speaker, "change"), _example(new, speaker, "change")]
    return found


def train(examples: list[Example], label: str) -> dict[str, float]:
    """One logistic head: label FACT (any fact) or a category (against the other categories)."""
    if label == FACT:
        rows = [(f, c is not None, w) for f, c, w in examples]
    else:
        rows = [(f, c == label, w) for f, c, w in examples if c in CATEGORIES]
    positives = sum(w for _, y, w in rows if y)
    negatives = sum(w for _, y, w in rows if not y)
    boost = max(1.0, negatives / positives / 4)  # facts are rare; a quarter of balance keeps the noise quiet
    weights: dict[str, float] = {}
    shuffle = random.Random(0)
    rate = RATE
    for _ in range(EPOCHS):
        shuffle.shuffle(rows)
        for seen, positive, weight in rows:
            z = sum(weights.get(f, 0.0) for f in seen)
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            gradient = (p - positive) * weight * (boost if positive else 1.0)
            for f in seen:
                weights[f] = weights.get(f, 0.0) * (1 - rate * L2) - rate * gradient
        rate *= DECAY
    return weights


def render(heads: dict[str, dict[str, float]], counts: Iterable[str]) -> str:
    lines = ["# memtree fact model: head, feature, weight (written by bench/train_fact_model.py)"]
    lines += [f"# {line}" for line in counts]
    for head in sorted(heads):
        for feature, weight in sorted(heads[head].items()):
            if abs(weight) >= KEEP:
                lines.append(f"{head}\t{feature}\t{weight:.4f}")
    return "\n".join(lines) + "\n"


def build() -> str:
    examples = [e for seed in SEEDS for e in corpus_examples(seed)]
    for module in (
        fact_phrasings_dev,
        fact_phrasings_dev2,
        fact_phrasings_dev3,
        fact_phrasings_dev4,
        fact_phrasings_dev5,
        fact_phrasings_dev6,
    ):
        examples += phrasing_examples(module)
    facts = sum(1 for _, c, _ in examples if c is not None)
    counts = [
        f"dev corpus seeds {', '.join(map(str, SEEDS))} ({DAYS} days) and phrasing sets dev to dev6:",
        f"{len(examples)} sentences, {facts} facts",
    ]
    heads = {FACT: train(examples, FACT)}
    heads.update((category, train(examples, category)) for category in CATEGORIES)
    return render(heads, counts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="train the learned fact opinion (see the module docstring)")
    parser.add_argument("--check", action="store_true", help="compare with the committed weights, write nothing")
    args = parser.parse_args(argv)
    text = build()
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("the committed weights are what this material trains" if same else "the committed weights differ")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
