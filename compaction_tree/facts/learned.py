"""A learned fallback: whether a sentence no frame took states a durable fact, and of which kind.

The frames know a few shapes of statement and miss the same fact worded otherwise. This linear model
looks at what a sentence is made of instead: its words and word pairs (names and numbers stood in for
by placeholders), how it starts, how long it is. The extractor asks it only about a sentence every gate
let through (not pasted, no question, hypothetical, narration or moment) and no frame or marker read.

The weights and the threshold are data (data/fact_model.tsv), trained by bench/train_fact_model.py on
the dev phrasing sets only; the file is read the first time a day's sentence needs it, never on
`memtree add`'s path nor in a compaction that extracts nothing.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..text import STOPWORDS, WORD, fold, word_form

MODEL_FILE = "fact_model.tsv"
FACT = "fact"  # the head that scores "is a durable fact"; the others score each category
THRESHOLD = "#threshold"  # the fact head's row holding the probability a fact needs (chosen on dev data)


def _token(token: str, first: bool) -> str:
    if any(c.isdigit() for c in token):
        return "#num"  # "100 requests a minute" and "120 calls a minute" are one shape
    if not first and token[:1].isupper() and fold(token) not in STOPWORDS and token != "I":
        return "#name"  # which project or person is named says nothing about being a fact
    return word_form(token)


def features(text: str) -> tuple[str, ...]:
    """What the model sees of a cleaned sentence, sorted (so sums add up in one order, to the same bits)."""
    tokens = [_token(t, n == 0) for n, t in enumerate(WORD.findall(text))]
    found = {"bias", f"length:{min(len(tokens) // 4, 8)}"}
    found.update(f"w:{t}" for t in tokens)
    found.update(f"b:{a}_{b}" for a, b in itertools.pairwise(tokens))
    if tokens:
        found.add(f"first:{tokens[0]}")
        found.add(f"start:{'_'.join(tokens[:2])}")
    return tuple(sorted(found))


@dataclass(frozen=True)
class Opinion:
    probability: float  # that the sentence states a durable fact
    category: str  # the likeliest category, if it does
    sure: bool  # the probability reaches the model's threshold


Model = tuple[dict[str, dict[str, float]], float]


def parse(text: str) -> Model:
    """The heads' weights and the fact threshold of a model file's text."""
    heads: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        if line and not line.startswith("# "):
            head, feature, weight = line.split("\t")
            heads.setdefault(head, {})[feature] = float(weight)
    threshold = heads.get(FACT, {}).pop(THRESHOLD, 1.0)
    return heads, threshold


@lru_cache(maxsize=1)
def model() -> Model:
    return parse(resources.files("compaction_tree.data").joinpath(MODEL_FILE).read_text(encoding="utf-8"))


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def score(heads: dict[str, dict[str, float]], seen: tuple[str, ...]) -> dict[str, float]:
    return {head: sum(weights.get(f, 0.0) for f in seen) for head, weights in heads.items()}


def opinion(text: str, weights: Model | None = None) -> Opinion:
    """The model's reading of a cleaned sentence (weights: another model, for training and evaluation)."""
    heads, threshold = weights or model()
    scores = score(heads, features(text))
    category = max(sorted(h for h in scores if h != FACT), key=lambda h: scores[h])
    probability = sigmoid(scores[FACT])
    return Opinion(probability, category, probability >= threshold)
