"""Shared by the readers: the record types, JSON parsing with positions, turns and injected blocks."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMATS: tuple[str, ...] = ("jsonl", "claude-code", "chatgpt", "locomo", "codex", "claude-ai", "openai", "gemini")
FORMAT_HINT = "pass --format jsonl|claude-code|codex|gemini|chatgpt|claude-ai|openai|locomo"
SNIFF_BYTES = 64 * 1024  # a LoCoMo file opens with its qa list: its own keys come later
SNIFF_LINES = 20
PROGRESS_EVERY = 1000  # lines, for the line formats

Progress = Callable[[int, int], None]
BOM = b"\xef\xbb\xbf"


# Chunks kept for recall but not as the stuff of summaries, topics and facts: an agent's
# narration between tool calls ("Now let me check the tests"), a shell command's output. The
# importer knows (it sees the turn's shape, which a chunk alone no longer shows), the chunk
# says so through the one field every reader already has: importance at or below this value.
EVIDENCE_IMPORTANCE = 0.1


@dataclass(frozen=True)
class ImportRecord:
    """One chunk to be: where it came from and its fields, types checked, values not yet.

    `kind` says why a record is kept as evidence only (`narration`, `command_output`); it is
    reported, not stored: the stored mark is the importance (EVIDENCE_IMPORTANCE)."""

    position: str  # "line 12", "conversation 3, message 7", "conv-26 session_2 turn 5"
    fields: dict[str, Any]
    kind: str | None = None


@dataclass(frozen=True)
class Skipped:
    """A record read fine and left out on purpose: a tool call or result, thinking, a
    subagent's message, injected text. `reason` is a short snake_case word, counted."""

    position: str
    reason: str


@dataclass(frozen=True)
class BadRecord:
    """A record that could not be read, and why, in one line."""

    position: str
    reason: str


Item = ImportRecord | BadRecord | Skipped


class _Malformed(Exception):
    """A record that cannot be used; the message is the reason a BadRecord carries."""


def _no_progress(done: int, total: int) -> None:
    pass


# --- shared parsing helpers ---------------------------------------------------------------


def _kind(value: Any) -> str:
    """A value's JSON type name, for reasons."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _reject_constant(name: str) -> Any:
    raise _Malformed(f"invalid JSON: {name} is not allowed")


def _parse_json(text: str, whole_file: bool = False) -> Any:
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno} column {error.colno}" if whole_file else f"column {error.colno}"
        # "Unterminated string starting at" already ends in "at".
        raise _Malformed(f"invalid JSON: {error.msg.removesuffix(' at')} at {where}") from None
    except RecursionError:
        raise _Malformed("invalid JSON: nested too deeply") from None


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _Malformed(f"invalid UTF-8 at byte {error.start + 1}") from None


def _required_str(record: dict[str, Any], name: str) -> str:
    value = record.get(name)
    if value is None:
        raise _Malformed(f"missing '{name}'")
    if not isinstance(value, str):
        raise _Malformed(f"'{name}' must be a string, got {_kind(value)}")
    return value


def _optional_str(record: dict[str, Any], name: str) -> str | None:
    value = record.get(name)
    if value is not None and not isinstance(value, str):
        raise _Malformed(f"'{name}' must be a string, got {_kind(value)}")
    return value


def _json_lines(path: Path, progress: Progress) -> Iterator[tuple[str, Any] | BadRecord]:
    """(position, value) per non-blank line, read in binary so one bad line spoils only itself."""
    total = path.stat().st_size
    done = 0
    progress(0, total)
    with path.open("rb") as stream:
        for number, raw in enumerate(stream, start=1):
            done += len(raw)
            if number % PROGRESS_EVERY == 0:
                progress(done, max(done, total))
            if number == 1 and raw.startswith(BOM):
                raw = raw[len(BOM) :]
            raw = raw.rstrip(b"\r\n")  # a cut last line then reads "Unterminated string"
            if not raw.strip():
                continue
            position = f"line {number}"
            try:
                yield position, _parse_json(_decode(raw))
            except _Malformed as error:
                yield BadRecord(position, str(error))
    progress(done, max(done, total))


def _load_document(path: Path) -> Any:
    """A whole-file JSON value; _Malformed if the file as a whole cannot be read."""
    raw = path.read_bytes()
    if raw.startswith(BOM):
        raw = raw[len(BOM) :]
    if not raw.strip():
        raise _Malformed("empty file")
    return _parse_json(_decode(raw), whole_file=True)


def _read_conversations(
    path: Path,
    progress: Progress,
    key: str,
    shape: type,
    read_one: Callable[[str, dict[str, Any], Any], Iterator[Item]],
) -> Iterator[Item]:
    """A whole-file export of conversations (ChatGPT's, Claude.ai's): a list of them, or one saved
    alone (an object with its `key`). Each must be an object whose `key` holds a `shape` (dict or
    list); `read_one(position, conversation, that value)` reads it."""
    try:
        document = _load_document(path)
    except _Malformed as error:
        yield BadRecord("file", str(error))
        return
    if isinstance(document, dict) and key in document:
        document = [document]
    if not isinstance(document, list):
        yield BadRecord("file", f"expected a JSON array of conversations, got {_kind(document)}")
        return
    progress(0, len(document))
    for number, conversation in enumerate(document, start=1):
        where = f"conversation {number}"
        value = conversation.get(key) if isinstance(conversation, dict) else None
        if not isinstance(conversation, dict):
            yield BadRecord(where, f"expected an object, got {_kind(conversation)}")
        elif not isinstance(value, shape):
            wanted = "an object" if shape is dict else "an array"
            yield BadRecord(
                where, f"missing '{key}'" if value is None else f"'{key}' must be {wanted}, got {_kind(value)}"
            )
        else:
            yield from read_one(where, conversation, value)
        progress(number, len(document))


# --- shared: turns, narration, injected blocks --------------------------------------------

# What a record means for the turn it is in: a user's request opens a turn, an assistant text
# may be its answer, a tool call makes the texts before it narration; "" changes nothing.
PROMPT, ANSWER, TOOL = "prompt", "answer", "tool"


def _as_evidence(item: Item, kind: str) -> Item:
    if not isinstance(item, ImportRecord) or item.kind is not None:
        return item
    return ImportRecord(item.position, {**item.fields, "importance": EVIDENCE_IMPORTANCE}, kind)


class _Turn:
    """Holds a turn's assistant texts (and whatever follows them) until the turn shows what they
    were: a text followed by a tool call in the same turn is narration ("Now let me check the
    logs"), the text after the last tool call is the answer. Narration is still stored, as
    evidence (it can carry a fact a later answer relies on), but marked so that summaries,
    topics and facts are made of what the user asked and what the answer said. This is decided
    here because only the importer sees the turn; a stored chunk no longer does."""

    def __init__(self) -> None:
        self.held: list[Item] = []

    def take(self, item: Item, event: str) -> list[Item]:
        if event == PROMPT:
            out = self.flush()
            out.append(item)
            return out
        if event == ANSWER or self.held:
            self.held.append(item)
            if event == TOOL:
                out = [_as_evidence(held, "narration") for held in self.held]
                self.held = []
                return out
            return []
        return [item]

    def flush(self) -> list[Item]:
        out, self.held = self.held, []
        return out


def _tag_text(text: str, tag: str) -> str | None:
    """The text inside the first <tag ...>...</tag>, or None. Found with str.find: linear."""
    start = text.find(f"<{tag}")
    if start < 0:
        return None
    opened = text.find(">", start)
    end = text.find(f"</{tag}>", opened)
    if opened < 0 or end < 0:
        return None
    return text[opened + 1 : end].strip()


def _strip_blocks(text: str, tags: tuple[str, ...]) -> tuple[str, set[str]]:
    """The text without its <tag>...</tag> blocks for the given tags, and the tags removed.
    An unclosed tag is left in place."""
    removed: set[str] = set()
    for tag in tags:
        opening, closing = f"<{tag}", f"</{tag}>"
        start = text.find(opening)
        while start >= 0:
            end = text.find(closing, start)
            if end < 0:
                break
            text = text[:start] + text[end + len(closing) :]
            removed.add(tag)
            start = text.find(opening, start)
    return text.strip(), removed


_SAFE_REASON = re.compile(r"[a-z][a-z0-9_-]{0,39}")


def _type_reason(kind: Any) -> str:
    """A line that is not a message counts under its own type (summary, system, progress...)."""
    if isinstance(kind, str) and _SAFE_REASON.fullmatch(kind):
        return kind.replace("-", "_")
    return "other"
