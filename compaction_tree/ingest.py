"""The write path: turn what an agent or an export hands us into stored chunks.

Every chunk is validated, redacted for secrets and given an id (derived from its content when
none is supplied) before it reaches raw/. This module stays light: `memtree add` runs it in a
fresh process after every agent turn.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .config import Config
from .errors import ConflictError, DamagedChunkError, InvalidInputError, UnsafePathError, VaultFormatError
from .model import (
    CALENDAR_RANGE,
    FIRST_YEAR,
    ID_PATTERN,
    LAST_YEAR,
    MAX_TEXT_CHARS,
    MAX_UTC_OFFSET,
    Chunk,
    derive_chunk_id,
    valid_id,
    year_in_calendar,
)
from .redact import only_placeholders, redact
from .vault import Vault, read_chunk_file, sync_all

MAX_SPEAKER = 100
_CONTROL = re.compile(r"[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]")  # C0 controls but tab, newline, return
MAX_LABEL = 200  # session, source, one topic
MAX_TOPICS = 50


# What datetime.fromisoformat leaves out of ISO 8601: ordinal dates (2026-074) and 24:00, the end of a day.
_ORDINAL = re.compile(r"(\d{4})-?(\d{3})(?=$|[T ])")
_MIDNIGHT_END = re.compile(r"(?<=[T ])24(?::?00(?::?00(?:[.,]0+)?)?)?(?=$|[Zz+-])")


def _fromisoformat(text: str) -> datetime:
    ordinal = _ORDINAL.match(text)
    if ordinal:
        day = datetime.strptime(f"{ordinal[1]}-{ordinal[2]}", "%Y-%j").date()
        if day.year != int(ordinal[1]):  # strptime takes day 366 of a common year as 1 January
            raise ValueError("day of year out of range")
        text = day.isoformat() + text[ordinal.end() :]
    end_of_day = _MIDNIGHT_END.search(text)
    if end_of_day:
        moment = datetime.fromisoformat(text[: end_of_day.start()] + "00:00" + text[end_of_day.end() :])
        return moment + timedelta(days=1)
    return datetime.fromisoformat(text)


def parse_when(value: Any, config: Config) -> datetime:
    """Any ISO 8601 timestamp (or an aware datetime); naive times are in the vault's zone."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        text = value.strip()
        try:
            moment = _fromisoformat(text)
        except OverflowError:  # 9999-12-31T24:00, the day after the last one
            moment = datetime.max
        except ValueError:
            raise InvalidInputError(
                f"timestamp {value!r} is not ISO 8601",
                hint="use e.g. 2026-03-15T14:30:00+01:00, 2026-03-15T13:30Z or 2026-03-15",
            ) from None
    else:
        raise InvalidInputError(f"timestamp must be a string, not {type(value).__name__}", hint="use ISO 8601")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=config.tz)
    _check_calendar(moment, value, config)
    return moment


def _check_calendar(moment: datetime, value: Any, config: Config) -> None:
    """Refuses what the calendar of days, weeks and months cannot hold (model.FIRST_YEAR, LAST_YEAR)."""
    offset = moment.utcoffset()
    if offset is None or abs(offset) > MAX_UTC_OFFSET:
        raise InvalidInputError(
            f"timestamp {str(value)!r} has a UTC offset beyond ±{MAX_UTC_OFFSET // timedelta(hours=1)}:00",
            hint="use the offset of a real time zone, e.g. +01:00 or Z",
        )
    # the year first: converting year 1 or 9999 to the vault's zone can overflow
    if not year_in_calendar(moment.year) or not year_in_calendar(moment.astimezone(config.tz).year):
        raise InvalidInputError(
            f"timestamp {str(value)!r} is outside {CALENDAR_RANGE}",
            hint=f"memtree keeps days from {FIRST_YEAR} to {LAST_YEAR}, in the vault's time zone; check the date",
        )


def _check_utf8(name: str, value: str, hint: str) -> None:
    """Undecodable bytes (a command-line argument or file read with surrogateescape) cannot be stored."""
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInputError(f"{name} is not valid UTF-8", hint=hint) from None


def _label(name: str, value: Any, limit: int) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} must be a string, not {type(value).__name__}", hint=f"pass --{name} TEXT")
    _check_utf8(name, value, hint=f"pass --{name} as UTF-8 text")
    value = value.strip()
    if "\n" in value or "\x00" in value or len(value) > limit:
        raise InvalidInputError(f"{name} must be one line of at most {limit} characters", hint=f"shorten --{name}")
    return value or None


def _check_text(text: Any) -> str:
    if not isinstance(text, str):
        raise InvalidInputError(
            f"text must be a string, not {type(text).__name__}", hint="pass the text as an argument or on stdin with -"
        )
    if not text.strip():
        raise InvalidInputError("the text is empty", hint="pass the text as an argument, or - to read it from stdin")
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidInputError(
            f"the text is longer than {MAX_TEXT_CHARS:,} characters",
            hint="split it into several chunks, one per turn or topic",
        )
    if "\x00" in text:
        raise InvalidInputError(
            "the text contains a NUL byte", hint="binary data does not belong in memory; strip it first"
        )
    _check_utf8("the text", text, hint="convert it to UTF-8 first")
    # terminal control sequences (ESC[...) would replay on whoever prints the memory later
    return _CONTROL.sub("", text)


def _check_new_id(chunk_id: Any, config: Config) -> None:
    """An id given by the caller becomes a file name and shows in ROOT.md and `memtree context`, and
    is never redacted: one that looks like a secret, or that a command line would read as an option,
    is refused. (Reading stays as lenient as `valid_id`: vaults holding such ids remain readable.)"""
    fix = "leave the id out to derive one from the content"
    if not isinstance(chunk_id, str) or not valid_id(chunk_id):
        shown = repr(chunk_id)[:80]
        why = (
            "it is a reserved device name on Windows"
            if isinstance(chunk_id, str) and ID_PATTERN.fullmatch(chunk_id)
            else "ids are 1-64 characters of A-Z a-z 0-9 _ -"
        )
        raise InvalidInputError(f"invalid id {shown}: {why}", hint=fix)
    if chunk_id.startswith("-"):
        raise InvalidInputError(
            f"invalid id {chunk_id!r}: an id may not start with '-'",
            hint=f"`memtree forget` would read it as an option; {fix}",
        )
    if config.redaction:
        found = redact(chunk_id, disabled=config.disabled_rules)
        if found.counts:  # the message shows the placeholder, never the secret
            raise InvalidInputError(
                f"invalid id {found.text!r}: it looks like a secret ({', '.join(found.counts)})",
                hint=f"ids become file names and show in ROOT.md; {fix}",
            )


@dataclass(frozen=True)
class Prepared:
    chunk: Chunk
    redactions: Mapping[str, int]


def prepare_chunk(fields: Mapping[str, Any], config: Config, now: datetime | None = None) -> Prepared:
    """Validates one record, redacts its secrets and settles its id; nothing is written."""
    text = _check_text(fields.get("text"))
    when = fields.get("timestamp")
    timestamp = parse_when(when, config) if when is not None else (now or datetime.now(UTC)).astimezone(config.tz)
    speaker = _label("speaker", fields.get("speaker", "user"), MAX_SPEAKER)
    if not speaker:
        raise InvalidInputError("speaker is empty", hint="pass --speaker NAME, e.g. user or assistant")
    session = _label("session", fields.get("session"), MAX_LABEL)
    source = _label("source", fields.get("source"), MAX_LABEL)
    raw_topics = fields.get("topics") or ()
    if isinstance(raw_topics, str) or not isinstance(raw_topics, Iterable):
        raise InvalidInputError("topics must be a list of strings", hint='e.g. "topics": ["auth", "cors"]')
    labels = [t for t in (_label("topic", t, MAX_LABEL) for t in raw_topics) if t]
    if len(set(labels)) > MAX_TOPICS:
        raise InvalidInputError(f"more than {MAX_TOPICS} topics", hint="keep the few that matter")
    importance = fields.get("importance")
    if importance is not None:
        if isinstance(importance, bool) or not isinstance(importance, (int, float)) or not 0 <= importance <= 1:
            raise InvalidInputError(
                f"importance must be a number from 0 to 1, not {importance!r}", hint="e.g. --importance 0.8"
            )
        importance = float(importance)

    counts: Counter[str] = Counter()

    def clean(value: str) -> str:
        if not config.redaction:
            return value
        result = redact(value, disabled=config.disabled_rules)
        counts.update(result.counts)
        return result.text

    text, speaker = clean(text), clean(speaker)
    session = clean(session) if session else None
    source = clean(source) if source else None
    # Topics reach ROOT.md and `memtree context`, so they are redacted like the text. One that was
    # wholly a secret labels nothing and is dropped (the redaction is still counted); one that only
    # holds a secret keeps its words around the placeholder.
    topics = tuple(dict.fromkeys(t for t in map(clean, labels) if not only_placeholders(t)))

    chunk_id = fields.get("id")
    if chunk_id is None or chunk_id == "":
        chunk_id = derive_chunk_id(timestamp, speaker, text, session, source)
    else:
        _check_new_id(chunk_id, config)
    chunk = Chunk(chunk_id, timestamp, speaker, text, session, source, topics, importance)
    return Prepared(chunk, dict(sorted(counts.items())))


@dataclass(frozen=True)
class AddResult:
    id: str
    path: str
    created: bool  # False: the identical chunk was already stored (a no-op)
    redactions: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": self.path,
            "created": self.created,
            "redactions": sum(self.redactions.values()),
            "redacted_rules": dict(self.redactions),
        }


def add(
    vault: Vault,
    text: str,
    *,
    timestamp: str | datetime | None = None,
    speaker: str = "user",
    session: str | None = None,
    source: str | None = None,
    topics: Iterable[str] = (),
    importance: float | None = None,
    id: str | None = None,
    now: datetime | None = None,
) -> AddResult:
    """Stores one chunk, durably, create-only. No lock: chunk files are unique and never replaced."""
    fields = {
        "text": text,
        "timestamp": timestamp,
        "speaker": speaker,
        "session": session,
        "source": source,
        "topics": list(topics),
        "importance": importance,
        "id": id,
    }
    prepared = prepare_chunk(fields, vault.config, now)
    try:
        created = vault.store_chunk(prepared.chunk)
    except ConflictError as exc:
        if id or isinstance(exc, DamagedChunkError):
            raise
        raise ConflictError(
            exc.message.replace("already exists with different content", "is taken")
            + ": the same text, time, speaker, session and source is stored with other topics or importance",
            hint="nothing was changed; pass --id to store this version as a chunk of its own",
        ) from None
    return AddResult(prepared.chunk.id, vault.chunk_relpath(prepared.chunk), created, prepared.redactions)


@dataclass
class ImportReport:
    """What an import did with every record of the file: records = added + existing + failed
    + the skipped counts. `evidence` counts the added or existing chunks kept for recall only
    (narration between tool calls, a command's output), by kind."""

    file: str
    format: str
    records: int = 0
    added: int = 0
    existing: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (position, reason)
    skipped: Counter[str] = field(default_factory=Counter)  # reason -> records
    evidence: Counter[str] = field(default_factory=Counter)  # kind -> chunks
    redactions: Counter[str] = field(default_factory=Counter)

    @property
    def partial(self) -> bool:
        return bool(self.failed)

    @property
    def kept_nothing(self) -> bool:
        """Records were read and none was stored or already there: likely the wrong file."""
        return self.records > 0 and not (self.added or self.existing)

    def skipped_text(self) -> str:
        """ "412 skipped: 200 tool_result, 150 tool_use, 62 thinking", or ""."""
        if not self.skipped:
            return ""
        reasons = ", ".join(f"{count} {reason}" for reason, count in _by_count(self.skipped))
        return f"{sum(self.skipped.values())} skipped: {reasons}"

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "format": self.format,
            "records": self.records,
            "added": self.added,
            "already_stored": self.existing,
            "existing": self.existing,  # the earlier name, kept for scripts that read it
            "failed": len(self.failed),
            "skipped": dict(_by_count(self.skipped)),
            "evidence": dict(_by_count(self.evidence)),
            "errors": [{"position": p, "reason": r} for p, r in self.failed],
            "redactions": sum(self.redactions.values()),
            "redacted_rules": dict(sorted(self.redactions.items())),
        }


def _by_count(counts: Counter[str]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


# Formats whose ids come from the export itself: a record stored by an earlier version of the
# importer, with other text or marks (a command's arguments, an IDE block stripped since), is
# the same message and stays as it was stored; refusing it would fail every later re-import.
_EXPORT_IDS = frozenset(("claude-code", "chatgpt", "claude-ai", "gemini"))


def import_file(
    vault: Vault, path: Path, fmt: str | None = None, progress: Callable[[int, int], None] | None = None
) -> ImportReport:
    """Imports every good record of an export; bad ones are reported with their position, and
    the ones left out on purpose are counted by reason.

    Importing the same file twice adds nothing: ids come from the export or from the content.
    """
    from .importers import BadRecord, Skipped, detect_format, read_records

    fmt = fmt or detect_format(path)
    report = ImportReport(str(path), fmt)
    checked: set[str] = set()  # day folders found safe during this import
    for item in read_records(path, fmt, progress):
        report.records += 1
        if isinstance(item, Skipped):
            report.skipped[item.reason] += 1
            continue
        if isinstance(item, BadRecord):
            report.failed.append((item.position, item.reason))
            continue
        try:
            prepared = prepare_chunk(item.fields, vault.config)
            created = _store_imported(vault, prepared.chunk, checked, fmt in _EXPORT_IDS)
        except (InvalidInputError, ConflictError) as exc:
            report.failed.append((item.position, exc.message))
            continue
        except UnsafePathError:
            raise
        report.redactions.update(prepared.redactions)
        if item.kind:
            report.evidence[item.kind] += 1
        if created:
            report.added += 1
        else:
            report.existing += 1
    if report.added:
        sync_all()
    return report


def _store_imported(vault: Vault, chunk: Chunk, checked: set[str], export_ids: bool) -> bool:
    try:
        return vault.store_chunk(chunk, durable=False, checked=checked)
    except DamagedChunkError:
        raise
    except ConflictError:
        if export_ids and _same_message(vault, chunk):
            return False
        raise


def _same_message(vault: Vault, chunk: Chunk) -> bool:
    """The stored chunk of this id is the same message: same time, speaker, session and source."""
    try:
        stored = read_chunk_file(vault.root / vault.chunk_relpath(chunk))
    except (VaultFormatError, OSError):  # unreadable: let the conflict stand
        return False
    return (stored.timestamp, stored.speaker, stored.session, stored.source) == (
        chunk.timestamp,
        chunk.speaker,
        chunk.session,
        chunk.source,
    )
