"""Which export a file is: its first 64 KB, line by line or as one JSON document."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError
from .codex import _CODEX_LINE_TYPES
from .common import FORMAT_HINT, SNIFF_BYTES, SNIFF_LINES
from .openai import _is_message


def detect_format(path: Path) -> str:
    """Guess the format from the first 64 KB: up to 20 JSON lines are classified one by one,
    a JSON document (it opens with `[`, or `{` alone on its line) by its structure or by the
    keys it opens with. Raises InvalidInputError when unknown or ambiguous."""
    path = Path(path)
    _check_file(path)
    with path.open("rb") as stream:
        head = stream.read(SNIFF_BYTES + 1)
    complete = len(head) <= SNIFF_BYTES
    text = head[:SNIFF_BYTES].decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if not text:
        raise InvalidInputError(f"cannot detect the format of {path}: the file is empty", hint=FORMAT_HINT)
    lines = text.split("\n")  # not splitlines(): JSON strings may hold U+2028 and friends
    if not complete:
        lines = lines[:-1]  # the last line may be cut short
    kinds: set[str] | None = None
    if text.startswith("{") and lines and lines[0].strip() != "{":
        kinds = _lines_kinds([line for line in lines if line.strip()][:SNIFF_LINES])
    if kinds is None and text.startswith(("[", "{")):  # a document: pretty-printed, or one long line
        kinds = _document_kinds(text, complete)
    kinds = kinds or set()
    if len(kinds) == 1:
        return kinds.pop()
    if kinds:
        candidates = " or ".join(sorted(kinds))
        raise InvalidInputError(f"cannot tell the format of {path}: it could be {candidates}", hint=FORMAT_HINT)
    raise InvalidInputError(
        f"cannot tell the format of {path}: not memtree JSONL, a Claude Code transcript, a Codex rollout, a "
        "Gemini CLI chat, a ChatGPT or Claude.ai conversations.json, an OpenAI messages list or a LoCoMo file",
        hint=FORMAT_HINT,
    )


def _check_file(path: Path) -> None:
    if path.is_dir():
        raise InvalidInputError(f"{path} is a directory", hint="import one file at a time")
    try:
        with path.open("rb"):
            pass
    except FileNotFoundError:
        raise InvalidInputError(f"{path}: no such file", hint="check the path") from None
    except OSError as error:
        raise InvalidInputError(f"cannot read {path}: {error.strerror}", hint="check the file's permissions") from None


def _value_kinds(value: Any) -> set[str]:
    """The formats one parsed JSON value (a line, or a whole small file) looks like."""
    if isinstance(value, list):
        first = next((item for item in value if isinstance(item, dict)), None)
        if first is None:
            return set()
        kinds = set()
        if "mapping" in first:
            kinds.add("chatgpt")
        if "chat_messages" in first:
            kinds.add("claude-ai")
        if _looks_like_locomo(first):
            kinds.add("locomo")
        if _is_message(first) or isinstance(first.get("messages"), list):
            kinds.add("openai")
        return kinds
    if not isinstance(value, dict):
        return set()
    kinds = set()
    kind = value.get("type")
    if _looks_like_gemini(value):
        return {"gemini"}
    if (
        "sessionId" in value
        or (kind in ("user", "assistant") and isinstance(value.get("message"), dict))
        or (kind == "summary" and "leafUuid" in value)
    ):
        kinds.add("claude-code")
    if "text" in value and "timestamp" in value:
        kinds.add("jsonl")
    if "mapping" in value:
        kinds.add("chatgpt")
    if "chat_messages" in value:
        kinds.add("claude-ai")
    if kind in _CODEX_LINE_TYPES and "payload" in value:
        kinds.add("codex")
    if _looks_like_locomo(value):
        kinds.add("locomo")
    if isinstance(value.get("messages"), list) and not kinds:
        kinds.add("openai")
    return kinds


def _looks_like_gemini(value: dict[str, Any]) -> bool:
    """A Gemini CLI recording's metadata (it has a sessionId, as Claude Code's lines do, but a
    projectHash too), a message of the model's, or a rewind or metadata update line."""
    if "projectHash" in value and "sessionId" in value:
        return True
    if value.get("type") == "gemini" and "id" in value and "content" in value:
        return True
    return "$rewindTo" in value or isinstance(value.get("$set"), dict)


def _looks_like_locomo(sample: dict[str, Any]) -> bool:
    conversation = sample.get("conversation")
    has_turns = "conversation" in sample or "session_1" in sample
    speakers = "speaker_a" in sample or (isinstance(conversation, dict) and "speaker_a" in conversation)
    return has_turns and ("qa" in sample or speakers)


def _lines_kinds(lines: list[str]) -> set[str] | None:
    """JSON lines: the formats of the lines that parse as objects (a cut or bad line says
    nothing); None when none does, as the text is then more likely one document."""
    kinds: set[str] = set()
    objects = False
    for line in lines:
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            continue
        objects = objects or isinstance(value, dict)
        kinds |= _value_kinds(value)
    return kinds if objects else None


_KEY = re.compile(r'"([A-Za-z0-9_]+)"\s*:')


def _document_kinds(head: str, complete: bool) -> set[str]:
    """A JSON document: its structure when it is small enough to parse here, else the keys
    its first bytes hold."""
    if complete:
        try:
            return _value_kinds(json.loads(head))
        except (ValueError, RecursionError):
            pass
    keys = set(_KEY.findall(head))
    if {"sessionId", "projectHash"} <= keys:
        return {"gemini"}
    kinds = set()
    if "mapping" in keys:
        kinds.add("chatgpt")
    if "chat_messages" in keys:
        kinds.add("claude-ai")
    # LoCoMo samples open with a long qa list whose items cite evidence dia_ids.
    if "speaker_a" in keys or ("qa" in keys and keys & {"conversation", "session_1", "evidence"}):
        kinds.add("locomo")
    # ChatGPT's messages have a role and content too: only a document no other format claims
    if not kinds and ("messages" in keys or {"role", "content"} <= keys):
        kinds.add("openai")
    return kinds
