"""gemini: a Gemini CLI chat recording, ~/.gemini/tmp/<project>/chats/session-*.jsonl (or the older .json).

The file is a log, not a list: a metadata line (`sessionId`, `projectHash`, `startTime`), then
message lines `{"id", "timestamp", "type", "content", ...}`. A message is written again under
the same id each time it grows (its tool calls, its thoughts), `{"$rewindTo": id}` drops that
message and every one after it (the user rewound the conversation), and `{"$set": {...}}`
updates the metadata, or with `messages` replaces them all. The older recording is one JSON
document: the metadata with its `messages` list. The whole file is read before any message is
given out, since a later line can still change or drop an earlier one.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model import valid_id
from .common import (
    ANSWER,
    BOM,
    PROMPT,
    TOOL,
    BadRecord,
    ImportRecord,
    Item,
    Progress,
    Skipped,
    _as_evidence,
    _json_lines,
    _kind,
    _load_document,
    _Malformed,
    _required_str,
    _Turn,
    _type_reason,
)

# User text the CLI writes itself: context it adds, what a hook put there.
_INJECTED_PREFIXES = ("<session_context>", "<hook_context>")


@dataclass
class _Recording:
    """The messages as the CLI would show them: by id, in the order each id first appeared."""

    session: str | None = None
    subagent: bool = False  # a subagent's own recording: its messages are not the user's conversation
    messages: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    dropped: list[Item] = field(default_factory=list)

    def put(self, position: str, message: dict[str, Any]) -> None:
        earlier = self.messages.get(message["id"])
        if earlier is not None:
            self.dropped.append(Skipped(earlier[0], "superseded"))
        self.messages[message["id"]] = (position, message)

    def rewind(self, to: str) -> None:
        ids = list(self.messages)
        cut = ids.index(to) if to in ids else 0
        for key in ids[cut:]:
            self.dropped.append(Skipped(self.messages.pop(key)[0], "branch"))

    def replace(self, position: str, messages: list[Any]) -> None:
        for earlier, _ in self.messages.values():
            self.dropped.append(Skipped(earlier, "superseded"))
        self.messages = {}
        self.take_list(position, messages)

    def take_list(self, where: str, messages: list[Any]) -> None:
        for number, message in enumerate(messages, start=1):
            position = f"{where}, message {number}" if where != "file" else f"message {number}"
            if _is_message(message):
                self.put(position, message)
            else:
                self.dropped.append(BadRecord(position, _not_a_message(message)))


def _read_gemini(path: Path, progress: Progress) -> Iterator[Item]:
    recording = _Recording()
    seen: list[Item] = []  # lines accounted for on reading: metadata, rewinds, bad ones
    for position, value in _gemini_values(path, progress):
        if isinstance(value, BadRecord):
            seen.append(value)
        else:
            seen.extend(_take_line(recording, position, value))
    yield from seen
    yield from recording.dropped
    turn = _Turn()
    for position, message in recording.messages.values():
        if recording.subagent:
            yield Skipped(position, "sidechain")
            continue
        try:
            record, event = _gemini_message(position, message, recording.session)
        except _Malformed as error:
            record, event = BadRecord(position, str(error)), ""
        yield from turn.take(record, event)
    yield from turn.flush()


def _gemini_values(path: Path, progress: Progress) -> Iterator[tuple[str, Any]]:
    """(position, value): the older recording as one 'file' value, else one per line. The file is
    read once: a pretty-printed one as a whole document, any other line by line (a recording saved
    on one line is then that line alone)."""
    if _pretty_printed(path):
        try:
            document = _load_document(path)
        except _Malformed as error:  # a document cut short or spoiled: its lines mean nothing alone
            yield "file", BadRecord("file", str(error))
            return
        if _is_recording(document):
            yield "file", document
            return
    lines = _json_lines(path, progress)
    first = next(lines, None)
    second = next(lines, None)
    if isinstance(first, tuple) and second is None and _is_recording(first[1]):
        yield "file", first[1]
        return
    for item in itertools.chain((first, second), lines):
        if item is not None:
            yield (item.position, item) if isinstance(item, BadRecord) else item


def _is_recording(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("messages"), list)


def _pretty_printed(path: Path) -> bool:
    with path.open("rb") as stream:
        return stream.readline().removeprefix(BOM).strip() == b"{"


def _take_line(recording: _Recording, position: str, value: Any) -> list[Item]:
    """Apply one line to the recording; what the line itself counts as, if not a message."""
    if not isinstance(value, dict):
        return [BadRecord(position, f"expected a JSON object, got {_kind(value)}")]
    if isinstance(value.get("$rewindTo"), str):
        recording.rewind(value["$rewindTo"])
        return [Skipped(position, "rewind")]
    update = value.get("$set")
    if isinstance(update, dict):
        _take_metadata(recording, update)
        if isinstance(update.get("messages"), list):
            recording.replace(position, update["messages"])
        return [Skipped(position, "metadata")]
    if _is_message(value):
        recording.put(position, value)
        return []
    if isinstance(value.get("sessionId"), str):
        _take_metadata(recording, value)
        if isinstance(value.get("messages"), list):  # the older recording, whole
            recording.take_list(position, value["messages"])
        return [] if position == "file" else [Skipped(position, "session_meta")]
    return [BadRecord(position, _not_a_message(value))]


def _take_metadata(recording: _Recording, value: dict[str, Any]) -> None:
    session = value.get("sessionId")
    if isinstance(session, str) and session:
        recording.session = session
    if "kind" in value:
        recording.subagent = value["kind"] == "subagent"


def _is_message(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("id"), str) and "type" in value


def _not_a_message(value: Any) -> str:
    if not isinstance(value, dict):
        return f"expected a message object, got {_kind(value)}"
    return "missing 'id'" if "id" not in value else "missing 'type'" if "type" not in value else "'id' must be a string"


def _gemini_message(position: str, message: dict[str, Any], session: str | None) -> tuple[Item, str]:
    kind = message.get("type")
    if kind not in ("user", "gemini"):
        return Skipped(position, _type_reason(kind)), ""  # info, error, warning: the CLI's own lines
    if kind == "user":
        text = _parts_text(message.get("displayContent")) or _parts_text(message.get("content"))
        if not text:
            return Skipped(position, "empty"), PROMPT
        if text.startswith(_INJECTED_PREFIXES):
            return Skipped(position, "harness"), ""
        return ImportRecord(position, _gemini_fields(message, "user", text, session)), PROMPT
    text = _parts_text(message.get("content"))
    calls = bool(message.get("toolCalls"))
    if not text:
        reason = "tool_use" if calls else "thinking" if message.get("thoughts") else "empty"
        return Skipped(position, reason), TOOL if calls else ""
    record = ImportRecord(position, _gemini_fields(message, "assistant", text, session))
    if calls:  # the text that announced the calls: said on the way
        return _as_evidence(record, "narration"), TOOL
    return record, ANSWER


def _parts_text(content: Any) -> str:
    """The text of a Gemini part list: a string, a part, or a list of them; thought parts and
    function calls, responses and files are not text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content.strip()
    parts = content if isinstance(content, list) else [content]
    pieces = []
    for part in parts:
        if isinstance(part, str):
            pieces.append(part.strip())
        elif isinstance(part, dict):
            if part.get("thought") is True:
                continue
            if isinstance(part.get("text"), str):
                pieces.append(part["text"].strip())
        else:
            raise _Malformed(f"'content' must be text or a list of parts, got a part of type {_kind(part)}")
    return "\n\n".join(piece for piece in pieces if piece)


def _gemini_fields(message: dict[str, Any], speaker: str, text: str, session: str | None) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if valid_id(message["id"]):
        fields["id"] = message["id"]
    fields["timestamp"] = _required_str(message, "timestamp")
    fields["speaker"] = speaker
    fields["text"] = text
    if session:
        fields["session"] = session
    fields["source"] = "gemini"
    return fields
