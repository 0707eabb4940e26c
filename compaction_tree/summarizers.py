"""What every summarizer backend shares: the Protocol, a unit of work, its usage and limits.

A unit of work is one period: its raw chunks (daily) or its children's summaries (weekly,
monthly), with a token budget. A backend returns a `Draft`; compaction writes it. The backends
themselves (extractive.py, llm.py) are chosen by name in backends.py; this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .model import Chunk
from .periods import Period
from .summary import Draft, FactCandidate, SourceRef, SummarizerIdentity, Summary


@dataclass(frozen=True)
class Unit:
    period: Period
    budget: int  # tokens for the whole summary body
    chunks: tuple[Chunk, ...] = ()  # daily: in time order
    children: tuple[Summary, ...] = ()  # weekly and monthly: in period order
    sources: tuple[SourceRef, ...] = ()
    input_hash: str = ""
    tokens: int = 0  # of the input, for plans and estimates

    @property
    def label(self) -> str:
        return self.period.path


@dataclass
class Usage:
    """What a run cost: LLM calls actually made, cache hits, tokens and dollars."""

    calls: int = 0
    cache_hits: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0


@dataclass(frozen=True)
class Limits:
    max_calls: int | None = None
    max_cost: float | None = None


class UnitFailed(Exception):
    """This unit cannot be summarized now (invalid answers, API errors); the others go on."""


class BudgetReached(Exception):
    """--max-calls or --max-cost is spent: stop cleanly, the rest waits for the next run."""


class Summarizer(Protocol):
    identity: SummarizerIdentity
    usage: Usage

    def params(self) -> Mapping[str, Any]:
        """Everything besides the inputs that changes the output (part of every input hash)."""
        ...

    def begin_run(self, limits: Limits) -> None: ...

    def estimate(self, unit: Unit) -> tuple[int, int, float]:
        """(input tokens, output tokens, dollars) one unit would cost, with no call made."""
        ...

    def summarize(self, unit: Unit) -> Draft: ...

    @property
    def concurrency(self) -> int: ...

    # True: a run's days go a week at a time, in order, each week told by `know` the facts the summaries of the days
    # before it hold (as they stand on disk: a resumed run is told what an uninterrupted one is)
    reads_known_facts: bool

    def know(self, facts: Sequence[FactCandidate]) -> None: ...
