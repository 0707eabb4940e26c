"""jsonl: memtree's own contract, one object per line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .common import (
    BadRecord,
    ImportRecord,
    Item,
    Progress,
    _json_lines,
    _kind,
    _Malformed,
    _optional_str,
    _required_str,
)

# --- jsonl: memtree's contract ------------------------------------------------------------


def _read_jsonl(path: Path, progress: Progress) -> Iterator[Item]:
    for item in _json_lines(path, progress):
        if isinstance(item, BadRecord):
            yield item
            continue
        position, value = item
        try:
            yield ImportRecord(position, _contract_fields(value))
        except _Malformed as error:
            yield BadRecord(position, str(error))


def _contract_fields(value: Any) -> dict[str, Any]:
    """{"id"?, "timestamp", "speaker", "text", "session"?, "source"?, "topics"?, "importance"?};
    other keys are ignored and null means absent for the optional ones."""
    if not isinstance(value, dict):
        raise _Malformed(f"expected a JSON object, got {_kind(value)}")
    fields: dict[str, Any] = {}
    identifier = _optional_str(value, "id")
    if identifier is not None:
        fields["id"] = identifier
    for name in ("timestamp", "speaker", "text"):
        fields[name] = _required_str(value, name)
    for name in ("session", "source"):
        optional = _optional_str(value, name)
        if optional is not None:
            fields[name] = optional
    topics = value.get("topics")
    if topics is not None:
        if not isinstance(topics, list) or not all(isinstance(topic, str) for topic in topics):
            raise _Malformed("'topics' must be a list of strings")
        fields["topics"] = list(topics)
    importance = value.get("importance")
    if importance is not None:
        if isinstance(importance, bool) or not isinstance(importance, int | float):
            raise _Malformed(f"'importance' must be a number, got {_kind(importance)}")
        fields["importance"] = float(importance)
    return fields
