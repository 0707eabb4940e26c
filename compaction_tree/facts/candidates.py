"""A day's fact candidates, kept apart from its summary: facts/candidates/<YYYY-MM>.jsonl. Pure but for I/O.

Fact extraction is versioned apart from summaries: a new extractor re-extracts the candidates of
every day (files under facts/ change) and never touches a daily summary's input hash or bytes.
One line per day, in day order, holding what the candidates were read from and by what:

    {"day": "2026-03-15", "input": <the daily summary's input hash>, "backend": "extractive",
     "extractor": "cues-38 min 0.6", "facts": [{"category": ..., "subject": ..., "fact": ...}, ...]}

A day's line is current while both its input (the day's chunks, so `forget` re-derives it) and its
extractor are. The LLM's candidates come from the same JSON answer as the day's summary, so they
are renewed exactly when the summary is; the extractive summarizer's are re-extracted on their own.
A day with no line (a vault from before this file, or a sealed day) falls back to the candidates its
summary's front matter holds.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..summary import FactCandidate

if TYPE_CHECKING:
    from ..vault import Vault

CANDIDATES_DIR = "facts/candidates"


@dataclass(frozen=True)
class DayFacts:
    day: str  # YYYY-MM-DD
    input: str  # the daily summary's input hash they were read with
    backend: str  # the summarizer backend (provenance.py checks a quoting backend word for word)
    extractor: str  # what read them: the extractor version and settings, or the model and prompt
    facts: tuple[FactCandidate, ...]

    def current(self, input_hash: str, extractor: str) -> bool:
        return self.input == input_hash and self.extractor == extractor


def candidate_record(c: FactCandidate) -> dict[str, Any]:
    record: dict[str, Any] = {
        "category": c.category,
        "subject": c.subject,
        "fact": c.fact,
        "confidence": c.confidence,
        "valid_from": c.valid_from,
        "sources": list(c.sources),
    }
    # absent when unset: the lines stay short, and read back the same
    if c.value:
        record["value"] = c.value
    if c.replaces:
        record["replaces"] = list(c.replaces)
    if c.change_only:
        record["change_only"] = True
    if c.replaced_only:
        record["replaced_only"] = True
    return record


def candidate_from(record: Mapping[str, Any]) -> FactCandidate:
    replaces = record.get("replaces")
    return FactCandidate(
        str(record["category"]),
        str(record["subject"]),
        str(record["fact"]),
        float(record["confidence"]),
        str(record["valid_from"]),
        tuple(str(s) for s in record.get("sources") or ()),
        record.get("change_only") is True,
        record.get("replaced_only") is True,
        str(record.get("value") or ""),
        (str(replaces[0]), str(replaces[1])) if isinstance(replaces, list) and len(replaces) == 2 else None,
    )


def render_month(days: Iterable[DayFacts]) -> str:
    lines = []
    for d in sorted(days, key=lambda d: d.day):
        record = {
            "day": d.day,
            "input": d.input,
            "backend": d.backend,
            "extractor": d.extractor,
            "facts": [candidate_record(c) for c in d.facts],
        }
        lines.append(json.dumps(record, ensure_ascii=False, sort_keys=True))
    return "".join(line + "\n" for line in lines)


def parse_month(text: str) -> list[DayFacts]:
    """A month file's days; a line out of shape (a hand edit) is skipped: its day is then re-derived."""
    found = []
    for line in text.splitlines():
        try:
            data = json.loads(line)
            found.append(
                DayFacts(
                    str(data["day"]),
                    str(data["input"]),
                    str(data["backend"]),
                    str(data["extractor"]),
                    tuple(candidate_from(f) for f in data["facts"]),
                )
            )
        except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError):
            continue
    return found


def month_path(day: str) -> str:
    return f"{CANDIDATES_DIR}/{day[:7]}.jsonl"


def read_days(vault: Vault) -> dict[str, DayFacts]:
    """Every day's candidates as stored, by day."""
    folder = vault.root / CANDIDATES_DIR
    found: dict[str, DayFacts] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.jsonl")):
        data = vault.read_bytes(f"{CANDIDATES_DIR}/{path.name}")
        for day in parse_month(data.decode("utf-8", errors="replace") if data else ""):
            if month_path(day.day) == f"{CANDIDATES_DIR}/{path.name}":
                found[day.day] = day
    return found


def write_days(vault: Vault, days: Mapping[str, DayFacts]) -> list[str]:
    """Writes the month files that changed, deletes those left empty; the paths written or deleted."""
    months: dict[str, list[DayFacts]] = defaultdict(list)
    for d in days.values():
        months[month_path(d.day)].append(d)
    folder = vault.root / CANDIDATES_DIR
    existing = {f"{CANDIDATES_DIR}/{p.name}" for p in folder.glob("*.jsonl")} if folder.is_dir() else set()
    changed = [path for path in sorted(months) if vault.write(path, render_month(months[path]).encode("utf-8"))]
    changed += [path for path in sorted(existing - set(months)) if vault.delete(path)]
    return sorted(changed)
