"""codex: a Codex CLI rollout, ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .common import (
    ANSWER,
    PROMPT,
    TOOL,
    BadRecord,
    ImportRecord,
    Item,
    Progress,
    Skipped,
    _json_lines,
    _kind,
    _Malformed,
    _required_str,
    _Turn,
    _type_reason,
)

# --- codex: Codex CLI rollouts ------------------------------------------------------------

# A rollout line is {"timestamp", "type", "payload"}; messages, tool calls and their outputs
# are `response_item`s. `event_msg` lines repeat the messages for the UI and are not read.
_CODEX_LINE_TYPES = frozenset(("session_meta", "response_item", "event_msg", "turn_context", "compacted"))
_CODEX_CALLS = frozenset(("function_call", "custom_tool_call", "local_shell_call", "web_search_call"))
_CODEX_RESULTS = frozenset(("function_call_output", "custom_tool_call_output", "local_shell_call_output"))


def _read_codex(path: Path, progress: Progress) -> Iterator[Item]:
    turn = _Turn()
    session: str | None = None
    for item in _json_lines(path, progress):
        if isinstance(item, BadRecord):
            yield from turn.take(item, "")
            continue
        position, value = item
        try:
            if isinstance(value, dict) and value.get("type") == "session_meta":
                session = _codex_session(value) or session
            record, event = _codex_line(position, value, session)
        except _Malformed as error:
            record, event = BadRecord(position, str(error)), ""
        yield from turn.take(record, event)
    yield from turn.flush()


def _codex_session(value: dict[str, Any]) -> str | None:
    payload = value.get("payload")
    identifier = payload.get("id") if isinstance(payload, dict) else None
    return identifier if isinstance(identifier, str) and identifier else None


def _codex_line(position: str, value: Any, session: str | None) -> tuple[Item, str]:
    if not isinstance(value, dict):
        raise _Malformed(f"expected a JSON object, got {_kind(value)}")
    if value.get("type") != "response_item":
        return Skipped(position, _type_reason(value.get("type"))), ""
    payload = value.get("payload")
    if not isinstance(payload, dict):
        raise _Malformed(f"'payload' must be an object, got {_kind(payload)}")
    kind = payload.get("type")
    if kind in _CODEX_CALLS:
        return Skipped(position, "tool_use"), TOOL
    if kind in _CODEX_RESULTS:
        return Skipped(position, "tool_result"), ""
    if kind == "reasoning":
        return Skipped(position, "thinking"), ""
    if kind != "message":
        return Skipped(position, _type_reason(kind)), ""
    role = payload.get("role")
    if role not in ("user", "assistant"):
        return Skipped(position, "system"), ""  # developer and system instructions
    text = _codex_text(payload.get("content"))
    if not text:
        return Skipped(position, "empty"), ""
    if role == "user" and _codex_injected(text):
        return Skipped(position, "harness"), ""
    fields: dict[str, Any] = {"timestamp": _required_str(value, "timestamp"), "speaker": role, "text": text}
    if session:
        fields["session"] = session
    fields["source"] = "codex"  # no message ids in a rollout: the vault derives them from the content
    return ImportRecord(position, fields), PROMPT if role == "user" else ANSWER


def _codex_text(content: Any) -> str:
    if isinstance(content, str):
        return content.strip()
    if not isinstance(content, list):
        raise _Malformed(f"'payload.content' must be a string or a list, got {_kind(content)}")
    pieces = [
        block["text"].strip()
        for block in content
        if isinstance(block, dict)
        and block.get("type") in ("input_text", "output_text", "text")
        and isinstance(block.get("text"), str)
    ]
    return "\n\n".join(piece for piece in pieces if piece)


_OPENING_TAG = re.compile(r"<([a-z_][a-z0-9_-]*)>")


def _codex_injected(text: str) -> bool:
    """Codex sends its context as user messages: <environment_context>, <user_instructions>,
    the AGENTS.md files, <turn_aborted>. One whole tagged block, or the AGENTS.md header."""
    if text.startswith("# AGENTS.md instructions"):
        return True
    match = _OPENING_TAG.match(text)
    return match is not None and text.endswith(f"</{match.group(1)}>")
