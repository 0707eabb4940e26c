"""Readers for conversation exports: a file in, a stream of records out.

This package only parses: a module per format, `detect` to guess which, and `common` for the
record types and what the readers share. Each record carries the fields `memtree add` takes
(id, timestamp, speaker, text, session, source, topics, importance) with their types checked;
the vault validates the values (id pattern, timestamp parse), redacts, derives missing ids and
writes.

Errors, in one rule: `read_records` and `detect_format` raise `InvalidInputError` only before
any record is read (no such file, a directory, unreadable, format unknown or ambiguous) and
`UsageError` for an unknown format name. From then on every problem is a `BadRecord` in the
stream and reading goes on: a bad line of a JSONL file, a conversation without a mapping, a
turn without text. A JSON format whose whole file cannot be parsed (empty, truncated, not
UTF-8, not JSON, a top level of the wrong shape) yields exactly one `BadRecord("file", ...)`.

Formats:
- jsonl: memtree's own contract, one object per line (see `_contract_fields`).
- claude-code: a session transcript, ~/.claude/projects/<project>/<session-uuid>.jsonl.
- chatgpt: conversations.json from a ChatGPT data export (the active branch of each).
- locomo: the LoCoMo research layout (a list of samples with session_N turn lists).
- codex: a Codex CLI rollout, ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl.
- claude-ai: conversations.json from a Claude.ai data export (chat_messages per conversation).
- openai: an OpenAI chat-messages list ({"role", "content"}), as an array, under "messages",
  or one {"messages": [...]} conversation per line.
- gemini: a Gemini CLI chat recording, ~/.gemini/tmp/<project>/chats/session-*.jsonl (or .json).

Every record the file holds comes out as one item: an ImportRecord, a BadRecord, or a Skipped
with its reason (a tool call, thinking, a subagent's message...), so an import can account
for all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import UsageError
from .chatgpt import _read_chatgpt
from .claude_ai import _read_claude_ai
from .claude_code import _read_claude_code
from .codex import _read_codex
from .common import (
    EVIDENCE_IMPORTANCE,
    FORMAT_HINT,
    FORMATS,
    BadRecord,
    ImportRecord,
    Item,
    Progress,
    Skipped,
    _no_progress,
)
from .detect import _check_file, detect_format
from .gemini import _read_gemini
from .jsonl import _read_jsonl
from .locomo import _read_locomo
from .openai import _read_openai


def read_records(path: Path, fmt: str | None = None, progress: Progress | None = None) -> Iterator[Item]:
    """Stream the records of an export file, detecting its format when `fmt` is None.

    The file is checked (and the format detected) at call time, so a missing file or an
    unknown format raises here rather than at the first `next()`. `progress(done, total)`
    is called now and then: bytes for the line formats, conversations or samples for the
    whole-JSON ones. Same file, same records in the same order.
    """
    path = Path(path)
    _check_file(path)
    if fmt is None:
        fmt = detect_format(path)
    elif fmt not in _READERS:
        raise UsageError(f"unknown import format {fmt!r}", hint=FORMAT_HINT)
    return _READERS[fmt](path, progress or _no_progress)


_READERS: dict[str, Callable[[Path, Progress], Iterator[Item]]] = {
    "jsonl": _read_jsonl,
    "claude-code": _read_claude_code,
    "chatgpt": _read_chatgpt,
    "locomo": _read_locomo,
    "codex": _read_codex,
    "claude-ai": _read_claude_ai,
    "openai": _read_openai,
    "gemini": _read_gemini,
}

__all__ = [
    "EVIDENCE_IMPORTANCE",
    "FORMATS",
    "FORMAT_HINT",
    "BadRecord",
    "ImportRecord",
    "Item",
    "Skipped",
    "detect_format",
    "read_records",
]
