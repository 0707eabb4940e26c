#!/usr/bin/env python3
"""A plain BM25 baseline over raw chunks: what memtree's recall is compared against.

``BM25Baseline(chunks, count_tokens).retrieve(query, budget) -> (context, ids)`` ranks chunks by
Okapi BM25 (k1=1.2, b=0.75 by default) over simply analysed tokens of the speaker and the text
(lower-cased, split on anything that is not a letter or digit, a short stopword list dropped,
light suffix stripping; the speaker counts, as in ../shared/tools/membench.py: in a chat between
two people "what did Caroline research?" is best answered by Caroline's own turns),
then adds the best-ranked chunks that fit the budget, skipping those that don't and going on
down the ranking.  Only chunks that match at least one query term are candidates.  The context
is markdown in time order: one ``## YYYY-MM-DD`` header per day (the date as written in the
chunk's timestamp) and one ``speaker: text`` line per chunk, days separated by a blank line.
Headers count against the budget, and the whole context is checked with ``count_tokens``
(``count_tokens(context) <= budget`` always); ``ids`` lists the chunks used, in time order.

The index is an inverted index whose postings carry each document's precomputed BM25 term
weight, so a query costs one pass over the postings of its terms (pure Python, no numpy).

Script: ``python bench/bm25.py [--chunks N]`` times building and querying on a generated
corpus (tokens counted as ceil(len / 4)).
"""

from __future__ import annotations

import argparse
import importlib
import math
import re
import sys
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

_TOKEN = re.compile(r"[a-z0-9]+")
_STOPWORD_TEXT = """
    a about after all also am an and any are as at be been but by can could d did do does doing for from had
    has have how i if in into is it its just ll m me my no not of ok on or our re s so t than that the their
    them then there these they this to too up us ve was we were what when where which who why will with
    would you your yours"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def stem(word: str) -> str:
    """Strip one common suffix so that 'deploys', 'deployed' and 'deploying' meet; digits stay."""
    if len(word) <= 3 or word.isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif (word.endswith("ed") and len(word) > 4) or (word.endswith("es") and len(word) > 4 and word[-3] in "sxz"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":  # running -> run
        word = word[:-1]
    return word


class Analyzer:
    """Text -> terms, with a cache of stems (a corpus has few distinct words and many tokens)."""

    def __init__(self) -> None:
        self._stems: dict[str, str] = {}

    def __call__(self, text: str) -> list[str]:
        stems = self._stems
        out = []
        for token in _TOKEN.findall(text.lower()):
            term = stems.get(token)
            if term is None:
                term = "" if token in STOPWORDS else stem(token)
                stems[token] = term
            if term:
                out.append(term)
        return out


def _postings(documents: list[list[str]], k1: float, b: float) -> dict[str, tuple[list[int], list[float], float]]:
    """term -> (documents, BM25 term weights, idf) over analysed documents."""
    n = len(documents)
    lengths = [len(terms) for terms in documents]
    mean = (sum(lengths) / n) if n and sum(lengths) else 1.0
    docs: dict[str, list[int]] = {}
    weights: dict[str, list[float]] = {}
    for doc, terms in enumerate(documents):
        tf: dict[str, int] = {}
        for term in terms:
            tf[term] = tf.get(term, 0) + 1
        norm = k1 * (1 - b + b * len(terms) / mean)
        for term, f in tf.items():
            w = f * (k1 + 1) / (f + norm)
            if term in docs:
                docs[term].append(doc)
                weights[term].append(w)
            else:
                docs[term] = [doc]
                weights[term] = [w]
    return {t: (docs[t], weights[t], math.log(1 + (n - len(docs[t]) + 0.5) / (len(docs[t]) + 0.5))) for t in docs}


def _scores(postings: dict[str, tuple[list[int], list[float], float]], terms: list[str]) -> dict[int, float]:
    acc: dict[int, float] = {}
    get = acc.get
    for term in dict.fromkeys(terms):
        posting = postings.get(term)
        if posting is None:
            continue
        docs, weights, idf = posting
        for doc, w in zip(docs, weights, strict=True):
            acc[doc] = get(doc, 0.0) + idf * w
    return acc


class BM25Baseline:
    def __init__(
        self,
        chunks: list[dict[str, Any]],
        count_tokens: Callable[[str], int],
        k1: float = 1.2,
        b: float = 0.75,
    ) -> None:
        order = sorted(range(len(chunks)), key=lambda i: (datetime.fromisoformat(chunks[i]["timestamp"]), i))
        self.chunks = [chunks[i] for i in order]  # time order: a document's number is its place in time
        self.count_tokens = count_tokens
        self.analyze = Analyzer()
        # what each chunk's line costs, counted once: packing then needs no tokenizer calls
        self._costs = [count_tokens(f"{c['speaker']}: {c['text']}\n") for c in self.chunks]
        self._min_cost = min(self._costs, default=0)
        self._header_costs: dict[str, int] = {}
        terms = [self.analyze(f"{c['speaker']} {c['text']}") for c in self.chunks]
        self._postings = _postings(terms, k1, b)
        # sessions (the chunk's session, else its day) as documents, for `retrieve_sessions`
        groups: dict[str, list[int]] = {}
        for doc, chunk in enumerate(self.chunks):
            groups.setdefault(str(chunk.get("session") or chunk["timestamp"][:10]), []).append(doc)
        self._sessions = list(groups.values())
        self._session_postings = _postings([[t for d in group for t in terms[d]] for group in self._sessions], k1, b)

    def scores(self, query: str) -> dict[int, float]:
        """BM25 score of every chunk (by time-order number) that shares a term with the query."""
        return _scores(self._postings, self.analyze(query))

    def rank(self, query: str) -> list[int]:
        """Chunks by descending score, ties in time order."""
        scores = self.scores(query)
        docs = sorted(scores)
        docs.sort(key=scores.__getitem__, reverse=True)  # stable: equal scores stay in time order
        return docs

    def _line(self, doc: int) -> str:
        chunk = self.chunks[doc]
        return f"{chunk['speaker']}: {chunk['text']}"

    def _header_cost(self, day: str) -> int:
        if day not in self._header_costs:
            self._header_costs[day] = self.count_tokens(f"\n## {day}\n")
        return self._header_costs[day]

    def render(self, docs: list[int]) -> str:
        blocks: list[str] = []
        day = None
        for doc in sorted(docs):
            chunk_day = self.chunks[doc]["timestamp"][:10]
            if chunk_day != day:
                if blocks:
                    blocks.append("")
                blocks.append(f"## {chunk_day}")
                day = chunk_day
            blocks.append(self._line(doc))
        return "\n".join(blocks)

    def retrieve(self, query: str, budget: int) -> tuple[str, list[str]]:
        """The best-ranked chunks that fit budget tokens, as markdown in time order, and their ids."""
        return self._pack(([doc] for doc in self.rank(query)), budget)

    def retrieve_sessions(self, query: str, budget: int) -> tuple[str, list[str]]:
        """Whole sessions (or days, for chunks without one) ranked by BM25, the best that fit budget:
        the stronger baseline on questions whose answer is spread over a conversation."""
        scores = _scores(self._session_postings, self.analyze(query))
        ranked = sorted(scores, key=lambda g: (-scores[g], g))
        return self._pack((self._sessions[g] for g in ranked), budget)

    def _pack(self, groups: Iterable[list[int]], budget: int) -> tuple[str, list[str]]:
        if budget <= 0:
            return "", []
        left = budget
        days: set[str] = set()
        chosen: list[list[int]] = []
        for group in groups:
            new_days = {self.chunks[doc]["timestamp"][:10] for doc in group} - days
            cost = sum(self._costs[doc] for doc in group) + sum(self._header_cost(day) for day in new_days)
            if cost <= left:
                chosen.append(group)
                days |= new_days
                left -= cost
                if left < self._min_cost:
                    break
        context = self.render([doc for group in chosen for doc in group])
        while chosen and self.count_tokens(context) > budget:  # a tokenizer that is not additive
            chosen.pop()  # the lowest-ranked one
            context = self.render([doc for group in chosen for doc in group])
        return context, [self.chunks[doc]["id"] for doc in sorted(doc for group in chosen for doc in group)]


def approx_tokens(text: str) -> int:
    return (len(text) + 3) // 4


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).parent))  # the generator sits next to this file
    corpus = importlib.import_module("corpus")

    parser = argparse.ArgumentParser(description="Time the BM25 baseline on a generated corpus.")
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--budget", type=int, default=4000)
    args = parser.parse_args(argv)
    days = max(1, args.chunks // 100)
    began = time.perf_counter()
    data = corpus.generate(1, days=days, chunks_per_day=100)
    made = time.perf_counter()
    baseline = BM25Baseline(data.chunks, approx_tokens)
    built = time.perf_counter()
    timings = []
    found = 0
    for q in data.questions[:200]:
        t0 = time.perf_counter()
        _, ids = baseline.retrieve(q.question, args.budget)
        timings.append(time.perf_counter() - t0)
        found += any(e in ids for e in q.evidence)
    timings.sort()
    print(f"{len(data.chunks)} chunks: generated in {made - began:.1f}s, index built in {built - made:.1f}s")
    if timings:
        median, worst = timings[len(timings) // 2] * 1000, timings[-1] * 1000
        print(
            f"{len(timings)} queries at budget {args.budget}: median {median:.1f} ms, max {worst:.1f} ms; "
            f"some evidence found for {found}/{len(timings)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
