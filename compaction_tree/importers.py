"""Readers for conversation exports: a file in, a stream of records out.

This module only parses. Each record carries the fields `memtree add` takes (id, timestamp,
speaker, text, session, source, topics, importance) with their types checked; the vault
validates the values (id pattern, timestamp parse), redacts, derives missing ids and writes.

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

Every record the file holds comes out as one item: an ImportRecord, a BadRecord, or a Skipped
with its reason (a tool call, thinking, a subagent's message...), so an import can account
for all of them.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .errors import InvalidInputError, UsageError
from .model import valid_id

FORMATS: tuple[str, ...] = ("jsonl", "claude-code", "chatgpt", "locomo", "codex", "claude-ai", "openai")
FORMAT_HINT = "pass --format jsonl|claude-code|codex|chatgpt|claude-ai|openai|locomo"
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
        f"cannot tell the format of {path}: not memtree JSONL, a Claude Code transcript, a Codex "
        "rollout, a ChatGPT or Claude.ai conversations.json, an OpenAI messages list or a LoCoMo file",
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


# --- claude-code: session transcripts -----------------------------------------------------

# Line flags for text nobody said in this conversation: injected meta, a subagent's side
# conversation, the summary written after a compaction, a synthetic API error.
_SKIPPED_FLAGS = (
    ("isSidechain", "sidechain"),
    ("isMeta", "meta"),
    ("isCompactSummary", "compact_summary"),
    ("isApiErrorMessage", "api_error"),
)
# Blocks Claude Code or an IDE extension puts inside the user's own text. A file the user has
# open is not what they asked, and its path would only come back as a topic: no note is kept.
_INJECTED_TAGS = ("system-reminder", "ide_opened_file", "ide_selection", "ide_diagnostics")
_IDE_TAGS = frozenset(("ide_opened_file", "ide_selection", "ide_diagnostics"))
# Text in the user's turn that the user did not type.
_HARNESS_PREFIXES = (
    "<local-command-caveat",
    "<task-notification",
    "<user-prompt-submit-hook",
    "<system-reminder",
)
_OUTPUT_TAGS = ("bash-stdout", "bash-stderr", "local-command-stdout", "local-command-stderr")


def _read_claude_code(path: Path, progress: Progress) -> Iterator[Item]:
    turn = _Turn()
    for item in _json_lines(path, progress):
        if isinstance(item, BadRecord):
            yield from turn.take(item, "")
            continue
        position, value = item
        try:
            record, event = _claude_line(position, value)
        except _Malformed as error:
            record, event = BadRecord(position, str(error)), ""
        yield from turn.take(record, event)
    yield from turn.flush()


def _claude_line(position: str, value: Any) -> tuple[Item, str]:
    """One transcript line as a record (or why it is skipped), and what it means for the turn."""
    if not isinstance(value, dict):
        raise _Malformed(f"expected a JSON object, got {_kind(value)}")
    speaker = value.get("type")
    if speaker not in ("user", "assistant"):
        return Skipped(position, _type_reason(speaker)), ""
    for flag, reason in _SKIPPED_FLAGS:
        if value.get(flag) is True:
            return Skipped(position, reason), ""
    message = value.get("message")
    if not isinstance(message, dict):
        raise _Malformed(
            "missing 'message'" if message is None else f"'message' must be an object, got {_kind(message)}"
        )
    if message.get("model") == "<synthetic>":
        return Skipped(position, "api_error"), ""
    blocks = _claude_blocks(message.get("content"))
    if speaker == "assistant":
        return _claude_assistant(position, value, blocks)
    return _claude_user(position, value, blocks)


def _claude_blocks(content: Any) -> list[tuple[str, str]]:
    """(block type, its text or "") for each content block."""
    if content is None:
        return []
    if isinstance(content, str):
        return [("text", content)]
    if not isinstance(content, list):
        raise _Malformed(f"'message.content' must be a string or a list of blocks, got {_kind(content)}")
    blocks = []
    for block in content:
        if isinstance(block, dict):
            text = block.get("text")
            blocks.append((str(block.get("type")), text if isinstance(text, str) else ""))
    return blocks


def _claude_assistant(position: str, value: dict[str, Any], blocks: list[tuple[str, str]]) -> tuple[Item, str]:
    texts = [text.strip() for kind, text in blocks if kind == "text" and text.strip()]
    calls = any(kind in ("tool_use", "server_tool_use") for kind, _ in blocks)
    if not texts:
        thinking = any(kind in ("thinking", "redacted_thinking") for kind, _ in blocks)
        reason = "tool_use" if calls else "thinking" if thinking else "empty"
        return Skipped(position, reason), TOOL if calls else ""
    record = ImportRecord(position, _claude_fields(value, "assistant", "\n\n".join(texts)))
    if calls:  # older versions put the text and the call it announces on one line
        return _as_evidence(record, "narration"), TOOL
    return record, ANSWER


def _claude_user(position: str, value: dict[str, Any], blocks: list[tuple[str, str]]) -> tuple[Item, str]:
    """Every user line but a tool's result ends the turn before it (a request, an interruption,
    a background task's notification the assistant then answers)."""
    texts = [text for kind, text in blocks if kind == "text"]
    if not any(text.strip() for text in texts):
        if any(kind == "tool_result" for kind, _ in blocks):
            return Skipped(position, "tool_result"), ""
        return Skipped(position, "image" if any(kind == "image" for kind, _ in blocks) else "empty"), PROMPT
    words, outputs, reasons = _user_words(texts)
    if words:
        return ImportRecord(position, _claude_fields(value, "user", "\n\n".join(words))), PROMPT
    if outputs:  # a shell command's output: what the next answer builds on, kept to be recalled
        record = ImportRecord(position, _claude_fields(value, "user", "\n\n".join(outputs)))
        return _as_evidence(record, "command_output"), PROMPT
    return Skipped(position, min(reasons) if reasons else "empty"), PROMPT


def _user_words(texts: list[str]) -> tuple[list[str], list[str], set[str]]:
    """What the user said (typed text, a slash command with its arguments, a shell command they
    ran), what their shell commands printed, and why the rest was left out."""
    words: list[str] = []
    outputs: list[str] = []
    reasons: set[str] = set()
    for raw in texts:
        text, removed = _strip_blocks(raw, _INJECTED_TAGS)
        if removed:
            reasons.add("ide" if removed <= _IDE_TAGS else "harness")
        if not text:
            continue
        command = _command_words(text)
        shell = _tag_text(text, "bash-input") if text.startswith("<bash-input") else None
        if command:
            words.append(command)
        elif shell:
            words.append(f"! {shell}")
        elif text.startswith(tuple(f"<{tag}" for tag in _OUTPUT_TAGS)):
            printed = [found for tag in _OUTPUT_TAGS if (found := _tag_text(text, tag))]
            if printed:
                outputs.append("\n".join(printed))
            else:
                reasons.add("empty")
        elif text.startswith("[Request interrupted by user"):
            reasons.add("interrupted")
        elif text.startswith(_HARNESS_PREFIXES):
            reasons.add("harness")
        else:
            words.append(text)
    return words, outputs, reasons


def _command_words(text: str) -> str | None:
    """A slash command as the user asked it: "/review: check the auth module", or "/clear"."""
    if not text.startswith(("<command-name", "<command-message", "<command-args")):
        return None
    name = _tag_text(text, "command-name") or ""
    if not name:
        message = (_tag_text(text, "command-message") or "").split()
        name = message[0] if message else ""
    args = _tag_text(text, "command-args") or ""
    if name and not name.startswith("/"):
        name = f"/{name}"
    if name and args:
        return f"{name}: {args}"
    return name or args or None


def _claude_fields(value: dict[str, Any], speaker: str, text: str) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    uuid = value.get("uuid")
    if isinstance(uuid, str) and valid_id(uuid):
        fields["id"] = uuid
    fields["timestamp"] = _required_str(value, "timestamp")
    fields["speaker"] = speaker
    fields["text"] = text
    session = value.get("sessionId")
    if isinstance(session, str) and session:
        fields["session"] = session
    fields["source"] = "claude-code"
    return fields


# --- chatgpt: conversations.json ----------------------------------------------------------


def _read_chatgpt(path: Path, progress: Progress) -> Iterator[Item]:
    try:
        document = _load_document(path)
    except _Malformed as error:
        yield BadRecord("file", str(error))
        return
    if isinstance(document, dict) and "mapping" in document:
        document = [document]  # one conversation saved on its own
    if not isinstance(document, list):
        yield BadRecord("file", f"expected a JSON array of conversations, got {_kind(document)}")
        return
    progress(0, len(document))
    for number, conversation in enumerate(document, start=1):
        yield from _chatgpt_conversation(f"conversation {number}", conversation)
        progress(number, len(document))


def _chatgpt_conversation(where: str, conversation: Any) -> Iterator[Item]:
    if not isinstance(conversation, dict):
        yield BadRecord(where, f"expected an object, got {_kind(conversation)}")
        return
    mapping = conversation.get("mapping")
    if not isinstance(mapping, dict):
        yield BadRecord(
            where,
            "missing 'mapping'" if mapping is None else f"'mapping' must be an object, got {_kind(mapping)}",
        )
        return
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
    text = _without_citations("\n".join(part for part in parts if isinstance(part, str) and part.strip())).strip()
    if not text:
        return "empty"
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


# --- claude-ai: the Claude.ai data export -------------------------------------------------


def _read_claude_ai(path: Path, progress: Progress) -> Iterator[Item]:
    try:
        document = _load_document(path)
    except _Malformed as error:
        yield BadRecord("file", str(error))
        return
    if isinstance(document, dict) and "chat_messages" in document:
        document = [document]  # one conversation saved on its own
    if not isinstance(document, list):
        yield BadRecord("file", f"expected a JSON array of conversations, got {_kind(document)}")
        return
    progress(0, len(document))
    for number, conversation in enumerate(document, start=1):
        yield from _claude_ai_conversation(f"conversation {number}", conversation)
        progress(number, len(document))


def _claude_ai_conversation(where: str, conversation: Any) -> Iterator[Item]:
    if not isinstance(conversation, dict):
        yield BadRecord(where, f"expected an object, got {_kind(conversation)}")
        return
    messages = conversation.get("chat_messages")
    if not isinstance(messages, list):
        yield BadRecord(where, "missing 'chat_messages'" if messages is None else "'chat_messages' must be an array")
        return
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


_READERS: dict[str, Callable[[Path, Progress], Iterator[Item]]] = {
    "jsonl": _read_jsonl,
    "claude-code": _read_claude_code,
    "chatgpt": _read_chatgpt,
    "locomo": _read_locomo,
    "codex": _read_codex,
    "claude-ai": _read_claude_ai,
    "openai": _read_openai,
}
