"""locomo: the LoCoMo research layout (a list of samples with session_N turn lists)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..model import valid_id
from .common import BadRecord, ImportRecord, Item, Progress, _kind, _load_document, _Malformed, _required_str

# --- locomo: research conversations -------------------------------------------------------

_SESSION_KEY = re.compile(r"session_(\d+)")
_DIA_ID = re.compile(r"D(\d+):(\d+)")
_UNSAFE = re.compile(r"[^0-9A-Za-z_-]+")
# "2:17 pm on 9 May, 2023". Parsed by hand: strptime's %B and %p follow the C locale.
_LOCOMO_TIME = re.compile(
    r"\s*(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})\s*", re.IGNORECASE
)
_MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip


def _read_locomo(path: Path, progress: Progress) -> Iterator[Item]:
    try:
        document = _load_document(path)
    except _Malformed as error:
        yield BadRecord("file", str(error))
        return
    if isinstance(document, dict):
        document = [document]  # one sample
    if not isinstance(document, list):
        yield BadRecord("file", f"expected a LoCoMo sample or an array of them, got {_kind(document)}")
        return
    progress(0, len(document))
    for number, sample in enumerate(document, start=1):
        yield from _locomo_sample(number, sample)
        progress(number, len(document))


def _locomo_sample(number: int, sample: Any) -> Iterator[Item]:
    if not isinstance(sample, dict):
        yield BadRecord(f"sample {number}", f"expected an object, got {_kind(sample)}")
        return
    raw_id = sample.get("sample_id")
    label = raw_id if isinstance(raw_id, str) and raw_id else f"sample-{number}"
    conversation = sample.get("conversation", sample)  # older files keep the sessions at the top level
    if not isinstance(conversation, dict):
        yield BadRecord(label, f"'conversation' must be an object, got {_kind(conversation)}")
        return
    sessions = sorted((int(match.group(1)), key) for key in conversation if (match := _SESSION_KEY.fullmatch(key)))
    if not sessions:
        yield BadRecord(label, "no session_N turn lists")
        return
    prefix = _UNSAFE.sub("-", label)
    for _, key in sessions:
        where = f"{label} {key}"
        turns = conversation[key]
        if not isinstance(turns, list):
            yield BadRecord(where, f"'{key}' must be an array of turns, got {_kind(turns)}")
            continue
        if not turns:
            continue
        start = _locomo_time(conversation.get(f"{key}_date_time"))
        if start is None:
            yield BadRecord(where, f"missing or unreadable '{key}_date_time'; its {len(turns)} turns are skipped")
            continue
        for index, turn in enumerate(turns):
            position = f"{where} turn {index + 1}"
            try:
                # One second per turn, so the order within a session survives sorting by time.
                fields = _locomo_fields(turn, prefix, f"{label}-{key}", start + timedelta(seconds=index))
            except _Malformed as error:
                yield BadRecord(position, str(error))
                continue
            yield ImportRecord(position, fields)


def _locomo_fields(turn: Any, prefix: str, session: str, moment: datetime) -> dict[str, Any]:
    if not isinstance(turn, dict):
        raise _Malformed(f"expected an object, got {_kind(turn)}")
    speaker = _required_str(turn, "speaker")
    text = _required_str(turn, "text")
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text = f"{text} [shares {caption.strip()}]".strip()
    fields: dict[str, Any] = {}
    dia_id = turn.get("dia_id")
    match = _DIA_ID.fullmatch(dia_id.strip()) if isinstance(dia_id, str) else None
    if match and valid_id(identifier := f"{prefix}-D{match.group(1)}-{match.group(2)}"):
        fields["id"] = identifier
    fields["timestamp"] = moment.isoformat()  # naive: the vault applies its time zone
    fields["speaker"] = speaker
    fields["text"] = text
    fields["session"] = session
    fields["source"] = "locomo"
    return fields


def _locomo_time(value: Any) -> datetime | None:
    match = _LOCOMO_TIME.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    hour, minute, half, day, month_name, year = match.groups()
    month = next((i for i, name in enumerate(_MONTHS, start=1) if name.startswith(month_name.lower())), None)
    if month is None or len(month_name) < 3 or not 1 <= int(hour) <= 12:
        return None
    hour24 = int(hour) % 12 + (12 if half.lower() == "p" else 0)
    try:
        return datetime(int(year), month, int(day), hour24, int(minute))
    except ValueError:
        return None
