"""Facts the agent wrote (`memtree remember`): a ledger by structure alone. Pure.

A remembered fact is a chunk in raw/ like any other, so it survives rebuilds and `forget` removes it:
its `source` is "remember:<category>" and its first topic is the subject key. Its text is the fact.
It never goes through the English analysis of consolidate.py: on one subject, a later statement
supersedes the earlier one (its history keeps the old value), the same text again corroborates it,
and every change is an audit event that `memtree facts undo` can reverse. Where the extracted facts
hold the same subject, the later value is current and the other goes into the history (recency).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .records import CATEGORIES, Event, Fact, Version

SOURCE_PREFIX = "remember:"
CONFIDENCE = 1.0  # the agent was told it in so many words
DEFAULT_CATEGORY = "domain_fact"  # when neither --category nor the extractor names one
SUPERSEDED = "superseded: remembered"
SUBJECT = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")


def source_for(category: str) -> str:
    return SOURCE_PREFIX + category


def category_of(source: str | None) -> str | None:
    """The category a chunk's source marks it remembered with, or None (not a remembered fact)."""
    if not source or not source.startswith(SOURCE_PREFIX):
        return None
    category = source[len(SOURCE_PREFIX) :]
    return category if category in CATEGORIES else None


def normal_subject(key: str) -> str:
    """ "Deploy target", "deploy-target" and "deploy_target" are one key: deploy_target ("" if none is left)."""
    return "_".join(w for w in re.split(r"[\s_-]+", key.strip().lower()) if w)


@dataclass(frozen=True)
class Remembered:
    """One `remember`, as read back from its chunk."""

    id: str
    day: str  # the local day it was remembered (the fact's valid_from)
    moment: str  # its UTC timestamp: the replay order, with the id
    text: str
    subject: str
    category: str


def _event_id(kind: str, subject: str, old: Version, new_source: str) -> str:
    basis = f"remember:{kind}:{subject}:{old.sources[0]}:{new_source}"
    return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:12]


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


class _Subject:
    """One subject's replay: its current value, history (newest first) and category."""

    def __init__(self, first: Remembered) -> None:
        self.subject = first.subject
        self.category = first.category
        self.current = Version(first.text, first.day, CONFIDENCE, 1, (first.id,))
        self.history: list[Version] = []

    def fact(self) -> Fact:
        return Fact(self.subject, self.category, self.current, tuple(self.history))

    def meet(self, said: Remembered, reversals: Mapping[str, str]) -> Event:
        old = self.current
        if _same_text(old.fact, said.text):
            self.current = replace(old, seen=old.seen + 1, sources=(*old.sources, said.id))
            return self._event("corroborate", "remembered again", old, said, None)
        undone = reversals.get(_event_id("supersede", self.subject, old, said.id))
        event = self._event("supersede", "remembered: a later value", old, said, undone)
        if undone:  # the undo keeps the old value current; the newcomer is history
            new = Version(said.text, said.day, CONFIDENCE, 1, (said.id,), said.day, f"undone: {undone}", event.id)
            self.history.insert(0, new)
        else:
            self.history.insert(0, replace(old, valid_until=said.day, why=SUPERSEDED, event=event.id))
            self.current = Version(said.text, said.day, CONFIDENCE, 1, (said.id,))
            self.category = said.category
        return event

    def _event(self, kind: str, rule: str, old: Version, said: Remembered, undone: str | None) -> Event:
        return Event(
            _event_id(kind, self.subject, old, said.id),
            said.day,
            kind,
            rule,
            self.subject,
            said.category,
            old.fact,
            said.text,
            (*old.sources[:1], said.id),
            undone,
        )


def ledger(said: Iterable[Remembered], reversals: Mapping[str, str]) -> tuple[list[Fact], list[Event]]:
    """The remembered facts (one per subject) and their events, replayed in time order (then id order)."""
    subjects: dict[str, _Subject] = {}
    events: list[Event] = []
    for item in sorted(said, key=lambda r: (r.moment, r.id)):
        known = subjects.get(item.subject)
        if known is None:
            subjects[item.subject] = _Subject(item)
        else:
            events.append(known.meet(item, reversals))
    return [subjects[s].fact() for s in sorted(subjects)], events


def combined(
    extracted: Sequence[Fact], remembered: Sequence[Fact], reversals: Mapping[str, str]
) -> tuple[list[Fact], list[Event]]:
    """The store's facts: the extracted ones, and the remembered ones; where both hold a subject, the later
    current value is current (a remembered one on a tie) and the other goes into the history."""
    mine = {f.subject: f for f in remembered}
    facts: list[Fact] = [f for f in extracted if f.subject not in mine]
    events: list[Event] = []
    theirs = {f.subject: f for f in extracted if f.subject in mine}
    for subject in sorted(mine):
        fact = mine[subject]
        other = theirs.get(subject)
        if other is not None:
            fact, event = _one_subject(fact, other, reversals)
            events.append(event)
        facts.append(fact)
    return facts, events


def _one_subject(remembered: Fact, extracted: Fact, reversals: Mapping[str, str]) -> tuple[Fact, Event]:
    """One subject held by both: the later current value wins (undone: the other one does)."""
    later_extracted = extracted.current.valid_from > remembered.current.valid_from
    newer, older = (extracted, remembered) if later_extracted else (remembered, extracted)
    event_id = _event_id("supersede", remembered.subject, older.current, newer.current.sources[0])
    undone = reversals.get(event_id)
    winner, loser = (older, newer) if undone else (newer, older)
    why = f"undone: {undone}" if undone else "superseded: recency"
    until = newer.current.valid_from
    old = replace(loser.current, valid_until=until, why=why, event=event_id)
    history = sorted(
        [old, *winner.history, *loser.history], key=lambda v: (v.valid_until or "", v.valid_from), reverse=True
    )
    event = Event(
        event_id,
        until,
        "supersede",
        "remembered and extracted: the later value",
        remembered.subject,
        newer.category,
        older.current.fact,
        newer.current.fact,
        (older.current.sources[0], newer.current.sources[0]),
        undone,
    )
    return Fact(remembered.subject, winner.category, winner.current, tuple(history)), event
