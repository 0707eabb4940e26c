"""The sample memory behind `memtree demo`: three months of an agent helping one developer.

Maya builds and runs Tidepool, a small SaaS for booking sailing lessons (FastAPI, React,
Postgres), with an AI coding agent from 2026-01-05 to 2026-04-03. The conversations were
written by hand, session by session, with the noise real memory has: "ok thanks", pasted
tracebacks, a wrong diagnosis corrected days later, decisions revisited, and facts that
change (the staging URL, the access-token lifetime, the team, the on-call rotation, the
Postgres version, the host).

They are data, not code: data/sample_sessions.jsonl holds one turn a line, in order:
`{"session": "2026-01-05-kickoff", "start": "09:40", "speaker": "user", "topics": [...],
"pause": 6, "text": "..."}`. `session` is the day (Berlin time) and a slug, `start` the
session's first turn, `pause` the minutes someone went off before this turn (both optional,
like `topics`). Edit that file to change the sample, then regenerate sample_vault/.

Nothing here is random: timestamps follow from each session's start and the length of its
turns, so every call returns the same chunks. `python -m compaction_tree.sample OUT.jsonl`
writes them in memtree's JSONL import format.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["Session", "Turn", "main", "sample_chunks", "sample_sessions"]

SESSIONS_FILE = "data/sample_sessions.jsonl"


@dataclass(frozen=True)
class Turn:
    speaker: str  # "user" or "assistant"
    text: str
    topics: tuple[str, ...] = ()
    pause: int = 0  # extra minutes before this turn: someone went off to run or look up something


@dataclass(frozen=True)
class Session:
    day: str  # YYYY-MM-DD, local time in Europe/Berlin
    start: str  # HH:MM
    slug: str
    turns: tuple[Turn, ...]

    @property
    def name(self) -> str:
        return f"{self.day}-{self.slug}"


def _turn(record: dict[str, Any]) -> Turn:
    speaker = record["speaker"]
    if speaker not in ("user", "assistant"):
        raise ValueError(f"speaker must be user or assistant, got {speaker!r}")
    return Turn(speaker, str(record["text"]), tuple(record.get("topics", ())), int(record.get("pause", 0)))


def _parse_sessions(lines: Sequence[str]) -> tuple[Session, ...]:
    """Group consecutive turn records into sessions; a session's turns must be contiguous and agree on its start."""
    grouped: dict[str, tuple[str, list[Turn]]] = {}
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
            name, start = str(record["session"]), str(record["start"])
            turn = _turn(record)
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{SESSIONS_FILE} line {number}: {exc}") from exc
        if name in grouped and (grouped[name][0] != start or name != next(reversed(grouped))):
            raise ValueError(f"{SESSIONS_FILE} line {number}: session {name} is split or changes its start")
        grouped.setdefault(name, (start, []))[1].append(turn)
    return tuple(Session(name[:10], start, name[11:], tuple(turns)) for name, (start, turns) in grouped.items())


@cache
def sample_sessions() -> tuple[Session, ...]:
    """The sample conversations, in order, read from the package's data file."""
    text = resources.files("compaction_tree").joinpath(SESSIONS_FILE).read_text(encoding="utf-8")
    return _parse_sessions([line for line in text.splitlines() if line.strip()])


def _last_sunday(year: int, month: int) -> date:
    following = date(year + month // 12, month % 12 + 1, 1)
    last = following - timedelta(days=1)
    return last - timedelta(days=(last.weekday() + 1) % 7)


def _berlin(local: datetime) -> datetime:
    """`local` (naive, Berlin wall time) with its UTC offset: CET, or CEST from the last Sunday of
    March 02:00 to the last Sunday of October 03:00 (the EU rule).

    Written out rather than taken from zoneinfo so the sample needs no time-zone database, which
    Windows installs lack without the tzdata package.
    """
    spring = datetime.combine(_last_sunday(local.year, 3), datetime.min.time()).replace(hour=2)
    autumn = datetime.combine(_last_sunday(local.year, 10), datetime.min.time()).replace(hour=3)
    if spring <= local < spring + timedelta(hours=1):
        raise ValueError(f"{local} does not exist in Europe/Berlin (clocks skip 02:00-03:00)")
    summer = spring <= local < autumn
    return local.replace(tzinfo=timezone(timedelta(hours=2 if summer else 1)))


def _gap(previous: Turn, turn: Turn) -> timedelta:
    """Time between two turns: the user reads the answer and types; the assistant writes.

    Derived from the lengths only, so the timestamps are the same in every run.
    """
    wobble = len(turn.text) * 37 % 23  # a few seconds of variation that follows from the text itself
    if turn.speaker == "user":
        seconds = 50 + min(len(previous.text) // 20, 120) + min(len(turn.text) // 4, 90)
    else:
        seconds = 6 + len(turn.text) // 50
    return timedelta(seconds=seconds + wobble, minutes=turn.pause)


def sample_chunks() -> list[dict[str, object]]:
    """The sample conversations as memtree chunks (JSONL import records), sorted by timestamp."""
    chunks: list[dict[str, object]] = []
    for number, session in enumerate(sample_sessions(), start=1):
        moment = datetime.fromisoformat(f"{session.day}T{session.start}:00")
        previous: Turn | None = None
        for index, turn in enumerate(session.turns, start=1):
            if previous is not None:
                moment += _gap(previous, turn)
            chunk: dict[str, object] = {
                "id": f"s{number:03d}-{index:02d}",
                "timestamp": _berlin(moment).isoformat(),
                "speaker": turn.speaker,
                "text": turn.text,
                "session": session.name,
            }
            if turn.topics:
                chunk["topics"] = list(turn.topics)
            chunks.append(chunk)
            previous = turn
    return chunks


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m compaction_tree.sample OUT.jsonl` (or `-` for stdout): write the sample as JSONL."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m compaction_tree.sample OUT.jsonl  (- for stdout)", file=sys.stderr)
        return 2
    lines = "".join(json.dumps(chunk, ensure_ascii=False) + "\n" for chunk in sample_chunks())
    if args[0] == "-":
        sys.stdout.write(lines)
    else:
        with open(args[0], "w", encoding="utf-8", newline="\n") as out:
            out.write(lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
