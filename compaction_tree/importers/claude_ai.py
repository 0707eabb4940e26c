"""claude-ai: conversations.json from a Claude.ai data export (chat_messages per conversation)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..model import valid_id
from .common import (
    BadRecord,
    ImportRecord,
    Item,
    Progress,
    Skipped,
    _kind,
    _Malformed,
    _optional_str,
    _read_conversations,
    _required_str,
)

# --- claude-ai: the Claude.ai data export -------------------------------------------------


def _read_claude_ai(path: Path, progress: Progress) -> Iterator[Item]:
    return _read_conversations(path, progress, "chat_messages", list, _claude_ai_conversation)


def _claude_ai_conversation(where: str, conversation: dict[str, Any], messages: list[Any]) -> Iterator[Item]:
    session = conversation.get("uuid")
    session = session if isinstance(session, str) and session else None
    branch = _claude_ai_branch(messages)
    for number, message in enumerate(messages, start=1):
        position = f"{where}, message {number}"
        if branch is not None and id(message) not in branch:
            yield Skipped(position, "branch")
            continue
        try:
            fields = _claude_ai_fields(message, session)
        except _Malformed as error:
            yield BadRecord(position, str(error))
            continue
        yield ImportRecord(position, fields) if isinstance(fields, dict) else Skipped(position, fields)


def _claude_ai_branch(messages: list[Any]) -> set[int] | None:
    """The messages the user last saw, when the export links them (`parent_message_uuid`): from
    the last message up through its parents. An edited prompt or a regenerated answer leaves
    its older branch in the list. None when there are no links: every message counts."""
    by_uuid = {m["uuid"]: m for m in messages if isinstance(m, dict) and isinstance(m.get("uuid"), str)}
    if not by_uuid or not any(isinstance(m.get("parent_message_uuid"), str) for m in by_uuid.values()):
        return None
    last = next(m for m in reversed(messages) if isinstance(m, dict) and isinstance(m.get("uuid"), str))
    branch: set[int] = set()
    node: Any = last
    while isinstance(node, dict) and id(node) not in branch:
        branch.add(id(node))
        parent = node.get("parent_message_uuid")
        node = by_uuid.get(parent) if isinstance(parent, str) else None
    return branch


def _claude_ai_fields(message: Any, session: str | None) -> dict[str, Any] | str:
    """A message's fields, or why it is skipped. The text is the `content` text blocks (tool
    calls and results, thinking and attachments left out), or `text` in older exports."""
    if not isinstance(message, dict):
        raise _Malformed(f"expected an object, got {_kind(message)}")
    sender = message.get("sender")
    if sender not in ("human", "assistant"):
        return "system"
    content = message.get("content")
    kinds: set[str] = set()
    if isinstance(content, list) and content:
        blocks = [block for block in content if isinstance(block, dict)]
        kinds = {str(block.get("type")) for block in blocks}
        texts = [b["text"].strip() for b in blocks if b.get("type") == "text" and isinstance(b.get("text"), str)]
        text = "\n\n".join(piece for piece in texts if piece)
    else:
        text = (_optional_str(message, "text") or "").strip()
    if not text:
        return "tool_use" if "tool_use" in kinds else "thinking" if "thinking" in kinds else "empty"
    fields: dict[str, Any] = {}
    uuid = message.get("uuid")
    if isinstance(uuid, str) and valid_id(uuid):
        fields["id"] = uuid
    fields["timestamp"] = _required_str(message, "created_at")
    fields["speaker"] = "user" if sender == "human" else "assistant"
    fields["text"] = text
    if session:
        fields["session"] = session
    fields["source"] = "claude-ai"
    return fields
