"""A learned second opinion on whether a sentence states a durable fact, and of which kind.

The cue tables and frames know the shapes of statement they were written for, and miss the same
fact worded otherwise. This linear model looks at what a sentence is made of instead: its words and
word pairs (names and numbers stood in for by placeholders), how it starts, the sides of things it
names, who says it. The extractor asks it only about sentences no cue took and no gate disqualified.

The weights are data (data/fact_model.tsv), trained by bench/train_fact_model.py on labelled
sentences of the dev material only, so extraction stays deterministic, offline and reproducible.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..text import STOPWORDS, WORD, fold, word_form
from .gates import FIRST_PERSON
from .statement import ASPECT_OF

MODEL_FILE = "fact_model.tsv"
FACT = "fact"  # the head that scores "is a durable fact"; the others score each category


def _token(token: str, first: bool) -> str:
    if any(c.isdigit() for c in token):
        return "#num"  # "100 times a minute" and "120 calls a minute" are one shape
    if not first and token[:1].isupper() and fold(token) not in STOPWORDS and token != "I":
        return "#name"  # which project or person is named says nothing about being a fact
    return word_form(token)


def features(text: str, assistant: bool) -> tuple[str, ...]:
    """What the model sees of a cleaned sentence, sorted (so sums add up in one order, to the same bits)."""
    tokens = [_token(t, n == 0) for n, t in enumerate(WORD.findall(text))]
    found = {"bias", "speaker:assistant" if assistant else "speaker:user", f"length:{min(len(tokens) // 5, 8)}"}
    found.update(f"w:{t}" for t in tokens)
    found.update(f"b:{a}_{b}" for a, b in itertools.pairwise(tokens))
    found.update(f"side:{ASPECT_OF[t]}" for t in tokens if t in ASPECT_OF)
    if tokens:
        found.add(f"first:{tokens[0]}")
        found.add(f"start:{'_'.join(tokens[:2])}")
    if FIRST_PERSON.search(text):
        found.add("first_person")
    return tuple(sorted(found))


@dataclass(frozen=True)
class Opinion:
    probability: float  # that the sentence states a durable fact
    category: str  # the likeliest category, if it does


@lru_cache(maxsize=1)
def _weights() -> dict[str, dict[str, float]]:
    heads: dict[str, dict[str, float]] = {}
    text = resources.files("compaction_tree.data").joinpath(MODEL_FILE).read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        head, feature, weight = line.split("\t")
        heads.setdefault(head, {})[feature] = float(weight)
    return heads


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@lru_cache(maxsize=4096)  # asked twice of a sentence the model is unsure of (extract: learned, then replaced-only)
def opinion(text: str, assistant: bool) -> Opinion:
    heads = _weights()
    seen = features(text, assistant)
    scores = {head: sum(weights.get(f, 0.0) for f in seen) for head, weights in heads.items()}
    category = max(sorted(h for h in scores if h != FACT), key=lambda h: scores[h])
    return Opinion(_sigmoid(scores[FACT]), category)
