"""openai: an OpenAI chat-messages list, as an array, under "messages", or one conversation per line."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .chatgpt import _epoch_iso, _shown
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
    _Turn,
)

# --- openai: a chat-messages list -----------------------------------------------------------

# The shape of the OpenAI chat API, which many tools and datasets save as is: a list of
# {"role", "content"} messages, a {"messages": [...]} object, a list of such objects, or one per
# line (fine-tuning and eval files). Times are optional in it: a message's own, else its
# conversation's plus one second per message, else the file's modification time.
_OPENAI_TIME_KEYS = ("timestamp", "created_at", "create_time", "created")
_OPENAI_ID_KEYS = ("id", "conversation_id", "session_id", "thread_id")
_OPENAI_TEXT_PARTS = frozenset(("text", "input_text", "output_text"))
# the same two sides under the names other chat libraries give them (LangChain, Gemini)
_OPENAI_SPEAKERS = {"user": "user", "human": "user", "assistant": "assistant", "ai": "assistant", "model": "assistant"}


def _read_openai(path: Path, progress: Progress) -> Iterator[Item]:
    mtime = datetime.fromtimestamp(int(path.stat().st_mtime), tz=UTC)
    try:
        document = _load_document(path)
    except _Malformed as error:
        if not _openai_lines(path):
            yield BadRecord("file", str(error))
            return
        for item in _json_lines(path, progress):
            if isinstance(item, BadRecord):
                yield item
            else:
                yield from _openai_conversation(item[0], item[1], mtime)
        return
    if isinstance(document, dict) or (isinstance(document, list) and document and _is_message(document[0])):
        yield from _openai_conversation("", document, mtime)
        return
    if not isinstance(document, list):
        yield BadRecord("file", f"expected a JSON array of messages or conversations, got {_kind(document)}")
        return
    progress(0, len(document))
    for number, conversation in enumerate(document, start=1):
        yield from _openai_conversation(f"conversation {number}", conversation, mtime)
        progress(number, len(document))


def _openai_lines(path: Path) -> bool:
    """One {"messages": [...]} object per line, rather than one document that failed to parse."""
    with path.open("rb") as stream:
        first = stream.readline().removeprefix(BOM).strip()
    try:
        return isinstance(value := json.loads(first), dict) and isinstance(value.get("messages"), list)
    except (ValueError, RecursionError):
        return False


def _is_message(value: Any) -> bool:
    return isinstance(value, dict) and "role" in value and "messages" not in value


def _openai_conversation(where: str, conversation: Any, mtime: datetime) -> Iterator[Item]:
    messages = conversation.get("messages") if isinstance(conversation, dict) else conversation
    if not isinstance(messages, list):
        got = "missing 'messages'" if isinstance(conversation, dict) else f"got {_kind(conversation)}"
        yield BadRecord(where or "file", f"expected a list of messages or an object with 'messages': {got}")
        return
    meta = conversation if isinstance(conversation, dict) else {}
    session = _openai_session(meta, messages)
    try:
        start = _openai_time(meta) or mtime
    except _Malformed as error:
        yield BadRecord(where or "file", f"conversation: {error}")
        start = mtime
    turn = _Turn()
    for number, message in enumerate(messages, start=1):
        position = f"{where}, message {number}" if where else f"message {number}"
        try:
            record, event = _openai_message(position, message, session, start + timedelta(seconds=number - 1))
        except _Malformed as error:
            record, event = BadRecord(position, str(error)), ""
        yield from turn.take(record, event)
    yield from turn.flush()


def _openai_session(meta: dict[str, Any], messages: list[Any]) -> str:
    """The conversation's own id, else one from its opening messages: the same conversation,
    exported again with more messages, keeps its session (and so its chunk ids)."""
    for key in _OPENAI_ID_KEYS:
        value = meta.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return "openai-" + hashlib.sha256(json.dumps(messages[:2], sort_keys=True).encode()).hexdigest()[:16]


def _openai_time(value: dict[str, Any]) -> datetime | None:
    for key in _OPENAI_TIME_KEYS:
        moment = value.get(key)
        if moment is None:
            continue
        if isinstance(moment, str):
            try:
                parsed = datetime.fromisoformat(moment.strip())
            except ValueError:
                raise _Malformed(f"'{key}' is not an ISO 8601 time: {_shown(moment)}") from None
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
        iso = _epoch_iso(moment, key)
        return datetime.fromisoformat(iso) if iso else None
    return None


def _openai_message(position: str, message: Any, session: str, fallback: datetime) -> tuple[Item, str]:
    if not isinstance(message, dict):
        raise _Malformed(f"expected a message object, got {_kind(message)}")
    role = message.get("role")
    if role in ("system", "developer"):
        return Skipped(position, "system"), ""
    if role in ("tool", "function"):
        return Skipped(position, "tool_result"), ""
    speaker = _OPENAI_SPEAKERS.get(role) if isinstance(role, str) else None
    if speaker is None:
        raise _Malformed("missing 'role'" if role is None else f"unknown 'role' {_shown(role)}")
    calls = bool(message.get("tool_calls") or message.get("function_call"))
    text, parts = _openai_text(message.get("content"))
    if not text:
        reason = "tool_use" if calls else "image" if parts & {"image_url", "input_image"} else "empty"
        return Skipped(position, reason), TOOL if calls else ""
    moment = _openai_time(message) or fallback
    fields = {"timestamp": moment.isoformat(), "speaker": speaker, "text": text, "session": session, "source": "openai"}
    record = ImportRecord(position, fields)
    if speaker == "user":
        return record, PROMPT
    return (_as_evidence(record, "narration"), TOOL) if calls else (record, ANSWER)


def _openai_text(content: Any) -> tuple[str, set[str]]:
    """The text of a message's content (a string or a list of parts) and the part types seen."""
    if content is None:
        return "", set()
    if isinstance(content, str):
        return content.strip(), {"text"}
    if not isinstance(content, list):
        raise _Malformed(f"'content' must be a string or a list of parts, got {_kind(content)}")
    kinds = {str(part.get("type")) for part in content if isinstance(part, dict)}
    pieces = [
        part["text"].strip()
        for part in content
        if isinstance(part, dict) and part.get("type") in _OPENAI_TEXT_PARTS and isinstance(part.get("text"), str)
    ]
    return "\n\n".join(piece for piece in pieces if piece), kinds
