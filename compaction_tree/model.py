"""The chunk: the unit of memory, and the pure rules that define it (ids, hashes).

No I/O and no imports from the rest of the package. The summary side of the model lives in
summary.py, so that `memtree add`, which runs after every agent turn, creates one dataclass
here instead of ten (each costs about 1 ms to create at import).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

ID_PATTERN = re.compile(r"[0-9A-Za-z_-]{1,64}")
# ids become file names: Windows device names would make a vault unusable when cloned there
_RESERVED = re.compile(r"(?:con|prn|aux|nul|com[0-9]|lpt[0-9])", re.IGNORECASE)
MAX_TEXT_CHARS = 1_000_000  # one chunk; larger inputs are almost surely a mistake (a whole file piped in)


def valid_id(value: str) -> bool:
    return ID_PATTERN.fullmatch(value) is not None and _RESERVED.fullmatch(value) is None


def sha256_hex(data: bytes | str) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def canonical_json(value: Any) -> str:
    """The one JSON form hashes are taken of: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def utc_iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


# The calendar memtree keeps memory in: local days of the years 1970 to 2200, inclusive; new timestamps
# also carry a UTC offset of at most 14 hours either way (the widest any zone has used since 1970, and
# XML Schema's bound). Nobody talks in year 1 or 9999, and at those edges the calendar math overflows
# (the ISO week of 9999-12-31 ends in year 10000; "not a month key: '1-01'"). Refused at `add` and
# `import`; a stored chunk outside it (an older version's, a hand edit) is reported by `memtree doctor`
# and skipped by everything else.
FIRST_YEAR = 1970
LAST_YEAR = 2200
MAX_UTC_OFFSET = timedelta(hours=14)
CALENDAR_RANGE = f"the years {FIRST_YEAR}-{LAST_YEAR}"


def year_in_calendar(year: int) -> bool:
    return FIRST_YEAR <= year <= LAST_YEAR


@dataclass(frozen=True)
class Chunk:
    """One piece of conversation, as stored in raw/YYYY/MM/DD/<id>.json."""

    id: str
    timestamp: datetime  # always aware
    speaker: str
    text: str
    session: str | None = None
    source: str | None = None
    topics: tuple[str, ...] = ()
    importance: float | None = None

    def to_record(self) -> dict[str, Any]:
        """The JSON object written to disk; optional fields appear only when set."""
        record: dict[str, Any] = {
            "id": self.id,
            "timestamp": self.timestamp.isoformat(),
            "speaker": self.speaker,
            "text": self.text,
        }
        if self.session is not None:
            record["session"] = self.session
        if self.source is not None:
            record["source"] = self.source
        if self.topics:
            record["topics"] = list(self.topics)
        if self.importance is not None:
            record["importance"] = self.importance
        return record

    def to_bytes(self) -> bytes:
        return (json.dumps(self.to_record(), ensure_ascii=False, indent=1) + "\n").encode("utf-8")

    @property
    def content_hash(self) -> str:
        """What summaries record next to the id: a change to the chunk changes it."""
        return sha256_hex(canonical_json({**self.to_record(), "timestamp": utc_iso(self.timestamp)}))


def derive_chunk_id(
    timestamp: datetime, speaker: str, text: str, session: str | None = None, source: str | None = None
) -> str:
    """An id from the content, so that adding or importing the same chunk twice adds nothing."""
    basis = canonical_json([utc_iso(timestamp), speaker, text, session, source])
    return sha256_hex(basis)[:16]
