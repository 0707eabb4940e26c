"""claude-code: a Claude Code session transcript, ~/.claude/projects/<project>/<session-uuid>.jsonl."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..model import valid_id
from .common import (
    ANSWER,
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
    _Malformed,
    _required_str,
    _strip_blocks,
    _tag_text,
    _Turn,
    _type_reason,
)

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
NO_OUTPUT = "(no content)"  # what Claude Code writes in an output tag when a command printed nothing


# A slash command typed alone ("/clear", "/init"): a request only if the model then acts on it.
# Claude Code runs its local commands (/clear, /exit, /login, /model, /compact...) itself and the
# next line is their output or the user's next prompt; a prompt command (/init, /review, a custom
# one) is expanded into a hidden prompt the model answers. Told apart by what follows, so no list
# of command names has to follow Claude Code's.
COMMAND = "command"


def _read_claude_code(path: Path, progress: Progress) -> Iterator[Item]:
    turn = _Turn()
    command: ImportRecord | None = None  # a bare slash command, until the next event says what it was
    for item in _json_lines(path, progress):
        if isinstance(item, BadRecord):
            yield from turn.take(item, "")
            continue
        position, value = item
        try:
            record, event = _claude_line(position, value)
        except _Malformed as error:
            record, event = BadRecord(position, str(error)), ""
        if command is not None and event in (ANSWER, TOOL):
            yield from turn.take(command, PROMPT)  # the model took it up: the user asked for this
            command = None
        elif command is not None and event in (PROMPT, COMMAND):
            yield Skipped(command.position, "local_command")
            command = None
        if event == COMMAND:
            command = record if isinstance(record, ImportRecord) else None
            continue
        yield from turn.take(record, event)
    if command is not None:
        yield Skipped(command.position, "local_command")
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
    words, outputs, reasons, bare = _user_words(texts)
    if words:
        record = ImportRecord(position, _claude_fields(value, "user", "\n\n".join(words)))
        return record, COMMAND if words == bare else PROMPT
    if outputs:  # a shell command's output: what the next answer builds on, kept to be recalled
        record = ImportRecord(position, _claude_fields(value, "user", "\n\n".join(outputs)))
        return _as_evidence(record, "command_output"), PROMPT
    return Skipped(position, min(reasons) if reasons else "empty"), PROMPT


def _user_words(texts: list[str]) -> tuple[list[str], list[str], set[str], list[str]]:
    """What the user said (typed text, a slash command with its arguments, a shell command they
    ran), what their shell commands printed, why the rest was left out, and which of the words
    are slash commands typed without arguments."""
    words: list[str] = []
    bare: list[str] = []
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
            if _tag_text(text, "command-args") in (None, "") and len(command.split()) == 1:
                bare.append(command)
        elif shell:
            words.append(f"! {shell}")
        elif text.startswith(tuple(f"<{tag}" for tag in _OUTPUT_TAGS)):
            printed = [found for tag in _OUTPUT_TAGS if (found := _tag_text(text, tag)) not in ("", None, NO_OUTPUT)]
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
    return words, outputs, reasons, bare


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
