"""chatgpt: conversations.json from a ChatGPT data export (the active branch of each)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..model import valid_id
from .common import BadRecord, ImportRecord, Item, Progress, Skipped, _kind, _Malformed, _read_conversations

# --- chatgpt: conversations.json ----------------------------------------------------------


def _read_chatgpt(path: Path, progress: Progress) -> Iterator[Item]:
    return _read_conversations(path, progress, "mapping", dict, _chatgpt_conversation)


def _chatgpt_conversation(where: str, conversation: dict[str, Any], mapping: dict[str, Any]) -> Iterator[Item]:
    session = next(
        (value for key in ("conversation_id", "id") if isinstance(value := conversation.get(key), str) and value),
        None,
    )
    branch, problem = _active_branch(mapping, conversation.get("current_node"))
    if problem:
        yield BadRecord(where, problem)
    for number, (node_id, message) in enumerate(branch, start=1):
        position = f"{where}, message {number}"
        try:
            fields = _chatgpt_fields(message, node_id, session, conversation.get("create_time"))
        except _Malformed as error:
            yield BadRecord(position, str(error))
            continue
        yield ImportRecord(position, fields) if isinstance(fields, dict) else Skipped(position, fields)


def _active_branch(mapping: dict[str, Any], current: Any) -> tuple[list[tuple[str, Any]], str | None]:
    """The (node id, message) pairs the user last saw, root first: from current_node up through
    the parents. Other children of a fork are abandoned edits and regenerations. A current_node
    that is not in the mapping, or parent links that loop, leave no branch to trust: nothing of the
    conversation is taken, and the problem says why."""
    if current is None:
        node_id, problem = _last_leaf(mapping)
        if problem:
            return [], problem
    elif isinstance(current, str) and current in mapping:
        node_id = current
    else:
        return [], f"'current_node' {_shown(current)} is not a node of 'mapping'"
    branch: list[tuple[str, Any]] = []
    seen: set[str] = set()
    while isinstance(node_id, str) and node_id in mapping:  # a parent outside the mapping ends the branch
        if node_id in seen:
            return [], f"the parent links loop back to node {_shown(node_id)}"
        seen.add(node_id)
        node = mapping[node_id]
        if not isinstance(node, dict):
            branch.reverse()
            return branch, f"node {node_id!r} is not an object; the messages before it are skipped"
        if node.get("message") is not None:
            branch.append((node_id, node["message"]))
        node_id = node.get("parent")
    branch.reverse()
    return branch, None


def _last_leaf(mapping: dict[str, Any]) -> tuple[str | None, str | None]:
    """Without a current_node: from the first root, follow the newest child down. (leaf, problem)."""
    nodes = {key: node for key, node in mapping.items() if isinstance(node, dict)}
    node_id = next((key for key, node in nodes.items() if not _links_to(node.get("parent"), nodes)), None)
    if node_id is None:
        return None, "no root node: every node's parent link loops back" if nodes else None
    seen: set[str] = set()
    while node_id not in seen:
        seen.add(node_id)
        links = nodes[node_id].get("children")
        children = [child for child in links if _links_to(child, nodes)] if isinstance(links, list) else []
        if not children:
            return node_id, None
        node_id = children[-1]
    return None, f"the children links loop back to node {_shown(node_id)}"


def _links_to(link: Any, nodes: dict[str, Any]) -> bool:
    return isinstance(link, str) and link in nodes


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _chatgpt_fields(message: Any, node_id: str, session: str | None, fallback_time: Any) -> dict[str, Any] | str:
    """A visible user or assistant text message's fields; for everything else, why it is skipped."""
    if not isinstance(message, dict):
        raise _Malformed(f"'message' must be an object, got {_kind(message)}")
    author = message.get("author")
    role = author.get("role") if isinstance(author, dict) else None
    if role not in ("user", "assistant"):
        return "tool_result" if role == "tool" else "system"
    metadata = message.get("metadata")
    if isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation"):
        return "meta"
    if message.get("recipient") not in (None, "all"):
        return "tool_use"  # an assistant call to a tool (browser, python), not a reply
    content = message.get("content")
    content_type = content.get("content_type") if isinstance(content, dict) else None
    if content_type in ("thoughts", "reasoning_recap"):
        return "thinking"
    if content_type not in ("text", "multimodal_text"):
        return "non_text"  # code sent to a tool, its output, browsing displays, context edits
    parts = content.get("parts") if isinstance(content, dict) else None
    if not isinstance(parts, list):
        return "empty"
    text = _without_citations("\n".join(_part_texts(parts))).strip()
    if not text:
        return "image" if any(_part_type(part) == "image_asset_pointer" for part in parts) else "empty"
    timestamp = _epoch_iso(message.get("create_time"), "create_time")
    if timestamp is None:
        timestamp = _epoch_iso(fallback_time, "conversation create_time")
    if timestamp is None:
        raise _Malformed("missing 'create_time' (on the message and on the conversation)")
    fields: dict[str, Any] = {}
    message_id = message.get("id")
    identifier = message_id if isinstance(message_id, str) else node_id
    if valid_id(identifier):
        fields["id"] = identifier
    fields["timestamp"] = timestamp
    fields["speaker"] = role
    fields["text"] = text
    if session is not None:
        fields["session"] = session
    fields["source"] = "chatgpt"
    return fields


def _part_texts(parts: list[Any]) -> list[str]:
    """A message's text parts: strings, and what was said aloud in a voice conversation (an
    `audio_transcription` part beside the audio itself, on both sides)."""
    texts = []
    for part in parts:
        if _part_type(part) == "audio_transcription" and isinstance(part.get("text"), str):
            part = part["text"]
        if isinstance(part, str) and part.strip():
            texts.append(part)
    return texts


def _part_type(part: Any) -> str | None:
    kind = part.get("content_type") if isinstance(part, dict) else None
    return kind if isinstance(kind, str) else None


# ChatGPT's citation markers: "\ue200cite\ue202turn0search4\ue201" (private-use delimiters around
# a reference to a search result) and "【4:0†source】" (file search). They point into the
# session's tool results, which are not imported, so they would only stay as noise.
_CITATION = re.compile(r"[ \t]*(?:\ue200[^\ue200\ue201]{0,200}\ue201|【[^【】†]{0,100}†[^【】]{0,100}】)")
_CITATION_LEFTOVER = re.compile(r"[\ue200-\ue206]")


def _without_citations(text: str) -> str:
    return _CITATION_LEFTOVER.sub("", _CITATION.sub("", text))


def _epoch_iso(value: Any, label: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Malformed(f"'{label}' must be a number of seconds, got {_kind(value)}")
    try:
        return datetime.fromtimestamp(value, tz=UTC).isoformat()
    except (OverflowError, ValueError, OSError):
        raise _Malformed(f"'{label}' is out of range: {value}") from None
