"""Summaries: the levels of the tree, and the frozen dataclasses of a summary file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Level = Literal["daily", "weekly", "monthly"]
LEVELS: tuple[Level, ...] = ("daily", "weekly", "monthly")
CHILD_LEVEL: dict[Level, Level] = {"weekly": "daily", "monthly": "weekly"}


@dataclass(frozen=True)
class SourceRef:
    """A cited source: a chunk id (daily) or a child period key (weekly, monthly) and its hash."""

    id: str
    sha256: str


@dataclass(frozen=True)
class Bullet:
    """One line of a summary and the chunk ids it rests on (its traceability)."""

    text: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class TopicStat:
    """How often a topic came up within a summary's period, and when."""

    name: str
    count: int
    first: str  # YYYY-MM-DD
    last: str


@dataclass(frozen=True)
class FactCandidate:
    """A durable fact noticed in a day's chunks (kept under facts/candidates/, consolidated in facts/consolidate.py)."""

    category: str
    subject: str
    fact: str
    confidence: float
    valid_from: str  # YYYY-MM-DD
    sources: tuple[str, ...]
    # a change told in passing: a fact only as the change of a subject already known
    change_only: bool = False
    # a statement too unsure to be a fact by itself: one only as the value a later change names as replaced
    replaced_only: bool = False
    # what the fact says of its subject ("PostgreSQL"); "" when only the statement is known
    value: str = ""
    # (subject, old value) that the statement says this replaces, as in "X is now Y (was Z)"
    replaces: tuple[str, str] | None = None


SECTIONS: tuple[tuple[str, str], ...] = (
    ("overview", "Overview"),
    ("decisions", "Key decisions"),
    ("problems", "Problems solved"),
    ("pending", "Pending"),
    ("highlights", "Highlights"),
)


@dataclass(frozen=True)
class Draft:
    """What a summarizer returns for one unit; compaction turns it into a Summary."""

    overview: tuple[Bullet, ...] = ()
    decisions: tuple[Bullet, ...] = ()
    problems: tuple[Bullet, ...] = ()
    pending: tuple[Bullet, ...] = ()
    highlights: tuple[Bullet, ...] = ()
    topics: tuple[TopicStat, ...] = ()
    facts: tuple[FactCandidate, ...] = ()
    # the chunks behind the known facts the model was shown with the data (forget regenerates what saw one)
    shown: tuple[str, ...] = ()

    def section(self, name: str) -> tuple[Bullet, ...]:
        value: tuple[Bullet, ...] = getattr(self, name)
        return value

    def bullets(self) -> tuple[Bullet, ...]:
        return tuple(b for name, _ in SECTIONS for b in self.section(name))


@dataclass(frozen=True)
class SummarizerIdentity:
    backend: str
    model: str | None
    prompt_version: str

    def to_record(self) -> dict[str, Any]:
        return {"backend": self.backend, "model": self.model, "prompt": self.prompt_version}


@dataclass(frozen=True)
class Summary:
    """A daily, weekly or monthly summary file: front matter plus the draft it renders."""

    level: Level
    period: str  # 2026-03-15, 2026-W11, 2026-03
    start: str  # first day covered, YYYY-MM-DD
    end: str  # last day covered
    sources: tuple[SourceRef, ...]
    summarizer: SummarizerIdentity
    input_hash: str
    chunks: int  # raw chunks covered, directly or through children
    draft: Draft = field(default_factory=Draft)

    @property
    def path(self) -> str:
        return f"{self.level}/{self.period}.md"
