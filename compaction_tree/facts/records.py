"""The facts store's records (Version, Fact, Event) and its files, text in and text out. Pure.

facts/<category>.md holds one section per subject: the current value, then its history, each a
line with its dates, confidence, corroboration and sources; facts/audit.jsonl holds one event a
line. Both parse back into the same records (hand edits out of shape are skipped).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

CATEGORIES = ("preference", "constraint", "decision", "domain_fact", "entity", "failure_pattern")


@dataclass(frozen=True)
class Version:
    """One value a subject had: the current one, or one in its history (with until, why and event)."""

    fact: str
    valid_from: str
    confidence: float
    seen: int  # statements behind it (corroboration)
    sources: tuple[str, ...]
    valid_until: str | None = None
    why: str | None = None  # "superseded: recency", "outweighed: confidence", "undone: u..."
    event: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "fact": self.fact,
            "valid_from": self.valid_from,
            "confidence": self.confidence,
            "seen": self.seen,
            "sources": list(self.sources),
        }
        if self.valid_until is not None:
            data.update(valid_until=self.valid_until, why=self.why, event=self.event)
        return data


@dataclass(frozen=True)
class Fact:
    """What is true now about one subject, and what was true before (history, newest first)."""

    subject: str
    category: str
    current: Version
    history: tuple[Version, ...] = ()

    @property
    def text(self) -> str:
        return self.current.fact

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "category": self.category,
            **self.current.to_json(),
            "history": [v.to_json() for v in self.history],
        }


@dataclass(frozen=True)
class Event:
    """One decision of a consolidation: a merge, a corroboration, a supersession or a resolution."""

    id: str
    date: str  # the data date it happened (the newer statement's), never a clock time
    kind: str  # merge | corroborate | supersede | keep
    rule: str
    subject: str
    category: str
    old: str
    new: str
    sources: tuple[str, ...]
    reversed_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "sources": list(self.sources)}


# ---------------------------------------------------------------- the files: text in, text out

TITLES = {
    "preference": "Preferences",
    "constraint": "Constraints",
    "decision": "Decisions",
    "domain_fact": "Domain facts",
    "entity": "People and things",
    "failure_pattern": "Failure patterns",
}
NOTE = (
    "<!-- Generated from the daily summaries by `memtree compact`: edits here are overwritten. "
    "Reverse a change with `memtree facts undo ID` (ids: facts/audit.jsonl). -->"
)
_LINE = re.compile(
    r"^\s*- (?:\*\*Now\*\*|Until (?P<until>\d{4}-\d\d-\d\d)): (?P<fact>.*) "
    r"\((?P<meta>[^()]*)\) \[(?P<sources>[^\]]*)\]$"
)


def _meta(version: Version) -> str:
    parts = [f"since {version.valid_from}", f"confidence {version.confidence:g}", f"seen {version.seen}"]
    if version.why:
        parts.append(re.sub(r"[()·]", "", version.why))
    if version.event:
        parts.append(f"event {version.event}")
    return " · ".join(parts)


def _line(version: Version) -> str:
    head = "- **Now**" if version.valid_until is None else f"  - Until {version.valid_until}"
    text = " ".join(version.fact.split())
    return f"{head}: {text} ({_meta(version)}) [{', '.join(version.sources)}]"


def render_category(category: str, facts: Sequence[Fact]) -> str:
    """facts/<category>.md: one section per subject, the current value first, then its history."""
    lines = [f"# {TITLES.get(category, category)}", "", NOTE, ""]
    for f in sorted(facts, key=lambda f: f.subject):
        lines += [f"## {f.subject}", _line(f.current), *(_line(v) for v in f.history), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _version(match: re.Match[str]) -> Version | None:
    meta: dict[str, str] = {}
    why = None
    for part in match.group("meta").split(" · "):
        name, _, value = part.partition(" ")
        if name in ("since", "confidence", "seen", "event"):
            meta[name] = value
        else:
            why = part
    try:
        sources = tuple(s for s in match.group("sources").split(", ") if s)
        return Version(
            match.group("fact"),
            meta["since"],
            float(meta["confidence"]),
            int(meta["seen"]),
            sources,
            match.group("until"),
            why,
            meta.get("event"),
        )
    except (KeyError, ValueError):
        return None


def parse_category(text: str, category: str) -> list[Fact]:
    """The facts of one facts/<category>.md; lines out of shape (hand edits) are skipped."""
    facts: list[Fact] = []
    subject: str | None = None
    current: Version | None = None
    history: list[Version] = []
    for line in [*text.splitlines(), "## "]:
        if line.startswith("## "):
            if subject and current is not None:
                facts.append(Fact(subject, category, current, tuple(history)))
            subject, current, history = line[3:].strip(), None, []
            continue
        match = _LINE.match(line)
        version = _version(match) if match else None
        if version is None:
            continue
        if version.valid_until is None:
            current = version
        elif current is not None:
            history.append(version)
    return facts


def render_audit(events: Sequence[Event]) -> str:
    """facts/audit.jsonl: one event a line, oldest first."""
    return "".join(json.dumps(e.to_json(), ensure_ascii=False) + "\n" for e in events)


def parse_audit(text: str) -> list[Event]:
    events = []
    for line in text.splitlines():
        try:
            data = json.loads(line)
            fields = {k: str(data[k]) for k in ("id", "date", "kind", "rule", "subject", "category", "old", "new")}
            sources = tuple(str(s) for s in data["sources"])
            reversed_by = str(data["reversed_by"]) if data.get("reversed_by") else None
            events.append(Event(**fields, sources=sources, reversed_by=reversed_by))
        except (ValueError, KeyError, TypeError, RecursionError):  # a hand-edited or damaged line is skipped
            continue
    return events
