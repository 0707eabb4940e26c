"""importers: every format from synthetic fixtures, bad records with their positions, detection."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from helpers import memtree

from compaction_tree.errors import InvalidInputError, UsageError
from compaction_tree.importers import (
    EVIDENCE_IMPORTANCE,
    FORMAT_HINT,
    FORMATS,
    BadRecord,
    ImportRecord,
    Skipped,
    detect_format,
    read_records,
)
from compaction_tree.ingest import import_file
from compaction_tree.vault import Vault

Record = ImportRecord | BadRecord | Skipped


def write(tmp_path: Path, name: str, lines: list[str | bytes | dict[str, Any]]) -> Path:
    """A file of lines: dicts are dumped as JSON, bytes are written as they are."""
    path = tmp_path / name
    data = b"".join(
        (line if isinstance(line, bytes) else (line if isinstance(line, str) else json.dumps(line)).encode()) + b"\n"
        for line in lines
    )
    path.write_bytes(data)
    return path


def write_json(tmp_path: Path, name: str, value: Any, indent: int | None = 2) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(value, indent=indent), encoding="utf-8")
    return path


def good(records: Iterable[Record]) -> list[ImportRecord]:
    return [record for record in records if isinstance(record, ImportRecord)]


def bad(records: list[Record]) -> list[tuple[str, str]]:
    return [(record.position, record.reason) for record in records if isinstance(record, BadRecord)]


def skipped(records: list[Record]) -> dict[str, str]:
    return {record.position: record.reason for record in records if isinstance(record, Skipped)}


# --- jsonl --------------------------------------------------------------------------------

FULL = {
    "id": "c-001",
    "timestamp": "2026-03-15T09:30:00+01:00",
    "speaker": "alice",
    "text": "Deploy fails with a connection timeout.",
    "session": "s1",
    "source": "slack",
    "topics": ["deploy", "timeouts"],
    "importance": 1,
    "extra": "ignored",
}


def test_jsonl_passes_the_contract_fields_through(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "in.jsonl",
        [
            FULL,
            {"timestamp": "2026-03-15T10:00:00Z", "speaker": "bob", "text": "no id here"},
            {
                "id": None,
                "timestamp": "t",
                "speaker": "bob",
                "text": "nulls",
                "session": None,
                "topics": None,
            },
        ],
    )
    records = list(read_records(path, "jsonl"))
    assert records == [
        ImportRecord(
            "line 1",
            {
                "id": "c-001",
                "timestamp": "2026-03-15T09:30:00+01:00",
                "speaker": "alice",
                "text": "Deploy fails with a connection timeout.",
                "session": "s1",
                "source": "slack",
                "topics": ["deploy", "timeouts"],
                "importance": 1.0,
            },
        ),
        ImportRecord("line 2", {"timestamp": "2026-03-15T10:00:00Z", "speaker": "bob", "text": "no id here"}),
        ImportRecord("line 3", {"timestamp": "t", "speaker": "bob", "text": "nulls"}),
    ]
    assert isinstance(good(records)[0].fields["importance"], float)


def test_jsonl_reports_each_bad_line_and_reads_the_rest(tmp_path: Path) -> None:
    ok = {"timestamp": "2026-03-15T10:00:00Z", "speaker": "bob", "text": "fine"}
    path = write(
        tmp_path,
        "in.jsonl",
        [
            ok,
            '{"timestamp": "2026-03-15T10:00:00Z" "speaker": "bob"}',
            "[1, 2]",
            {"timestamp": "2026-03-15T10:00:00Z", "speaker": "bob"},
            {"timestamp": "2026-03-15T10:00:00Z", "speaker": "bob", "text": 42},
            "",
            b'{"timestamp": "2026-03-15T10:00:00Z", "speaker": "bob", "text": "caf\xe9"}',
            {**ok, "topics": "deploy"},
            {**ok, "importance": True},
            '{"timestamp": "t", "speaker": "bob", "text": "x", "importance": NaN}',
            {**ok, "timestamp": 1712345678},
            {**ok, "speaker": ["bob"]},
            {**ok, "id": 7},
            "[" * 100_000,
            ok,
        ],
    )
    records = list(read_records(path, "jsonl"))
    assert [record.position for record in good(records)] == ["line 1", "line 15"]
    assert bad(records) == [
        ("line 2", "invalid JSON: Expecting ',' delimiter at column 38"),
        ("line 3", "expected a JSON object, got array"),
        ("line 4", "missing 'text'"),
        ("line 5", "'text' must be a string, got number"),
        ("line 7", "invalid UTF-8 at byte 69"),
        ("line 8", "'topics' must be a list of strings"),
        ("line 9", "'importance' must be a number, got boolean"),
        ("line 10", "invalid JSON: NaN is not allowed"),
        ("line 11", "'timestamp' must be a string, got number"),
        ("line 12", "'speaker' must be a string, got array"),
        ("line 13", "'id' must be a string, got number"),
        ("line 14", "invalid JSON: nested too deeply"),
    ]


def test_jsonl_truncated_last_line_is_one_bad_record(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b'{"timestamp": "t", "speaker": "a", "text": "whole"}\n{"timestamp": "t", "spea')
    records = list(read_records(path, "jsonl"))
    assert [record.position for record in good(records)] == ["line 1"]
    assert bad(records) == [("line 2", "invalid JSON: Unterminated string starting at column 20")]


def test_jsonl_empty_file_and_blank_lines_give_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    blank = write(tmp_path, "blank.jsonl", ["", "   ", "\t"])
    assert list(read_records(empty, "jsonl")) == []
    assert list(read_records(blank, "jsonl")) == []


def test_jsonl_bom_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "windows.jsonl"
    line = b'{"timestamp": "t", "speaker": "a", "text": "x"}'
    path.write_bytes(b"\xef\xbb\xbf" + line + b"\r\n" + line + b"\r\n")
    records = list(read_records(path, "jsonl"))
    assert [record.position for record in good(records)] == ["line 1", "line 2"]
    assert bad(records) == []


def test_jsonl_text_is_not_stripped_or_split_on_unicode_separators(tmp_path: Path) -> None:
    text = "  one\u2028two\x1cthree  "
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"timestamp": "t", "speaker": "a", "text": text}, ensure_ascii=False) + "\n")
    [record] = read_records(path)
    assert isinstance(record, ImportRecord)
    assert record.fields["text"] == text


def test_jsonl_ten_thousand_lines_stream_quickly(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        for n in range(10_000):
            line = {
                "id": f"c{n}",
                "timestamp": "2026-03-15T10:00:00Z",
                "speaker": "a",
                "text": f"message {n}",
            }
            stream.write(json.dumps(line) + "\n")
    calls: list[tuple[int, int]] = []
    started = time.perf_counter()
    records = list(read_records(path, "jsonl", progress=lambda done, total: calls.append((done, total))))
    elapsed = time.perf_counter() - started
    assert len(good(records)) == 10_000
    assert records[-1].position == "line 10000"
    assert elapsed < 2.0
    size = path.stat().st_size
    assert calls[0] == (0, size) and calls[-1] == (size, size)
    assert len(calls) > 2  # called along the way, not only at the ends


# --- claude-code --------------------------------------------------------------------------

SESSION = "4f35e220-c435-4cf7-b9b9-f40426042847"


def claude(kind: str, content: Any, n: int, **extra: Any) -> dict[str, Any]:
    line: dict[str, Any] = {
        "parentUuid": None,
        "isSidechain": False,
        "type": kind,
        "message": {"role": kind, "content": content},
        "uuid": f"00000000-0000-0000-0000-{n:012d}",
        "timestamp": f"2025-05-26T07:{n:02d}:00.000Z",
        "sessionId": SESSION,
        "cwd": "/home/user/app",
    }
    line.update(extra)
    return line


def claude_transcript(tmp_path: Path) -> Path:
    thinking = {"type": "thinking", "thinking": "private reasoning", "signature": "x"}
    tool_use = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}
    tool_result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "file.txt"}
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}
    synthetic = claude("assistant", [{"type": "text", "text": "No response requested."}], 10)
    synthetic["message"]["model"] = "<synthetic>"
    no_timestamp = claude("user", "when did this start?", 15)
    del no_timestamp["timestamp"]
    no_session = claude("user", "no session id on this line", 18)
    del no_session["sessionId"]
    return write(
        tmp_path,
        f"{SESSION}.jsonl",
        [
            {
                "type": "summary",
                "summary": "Deploy timeout",
                "leafUuid": "00000000-0000-0000-0000-000000000009",
            },
            {"type": "file-history-snapshot", "messageId": "m0", "snapshot": {}, "isSnapshotUpdate": False},
            claude(
                "user",
                "<local-command-caveat>Caveat: generated by local commands</local-command-caveat>",
                3,
                isMeta=True,
            ),
            claude("user", "<command-name>/clear</command-name>\n<command-message>clear</command-message>", 4),
            claude("user", "Why does the deploy time out?", 5),
            claude("assistant", [thinking, {"type": "text", "text": "Let me check the logs."}, tool_use], 6),
            claude("user", [tool_result], 7),
            claude(
                "assistant",
                [
                    {"type": "text", "text": "The pool is too small."},
                    {"type": "text", "text": "Raise it to 20."},
                ],
                8,
            ),
            claude("user", [{"type": "text", "text": "thanks, see the screenshot"}, image], 9),
            synthetic,
            claude("assistant", [{"type": "text", "text": "API Error: 529"}], 11, isApiErrorMessage=True),
            claude("user", "subagent prompt", 12, isSidechain=True),
            claude("user", "This session is being continued...", 13, isCompactSummary=True),
            {
                "type": "system",
                "subtype": "turn_duration",
                "uuid": "u14",
                "timestamp": "2025-05-26T07:14:00Z",
            },
            no_timestamp,
            '{"type": "user", "message": {"role": "user", "content": "cut',
            claude("user", "odd uuid", 17, uuid="not a valid id!"),
            no_session,
            claude(
                "user",
                [
                    {"type": "text", "text": "<system-reminder>ignore</system-reminder>"},
                    {"type": "text", "text": "  and the retries?  "},
                ],
                19,
            ),
            claude("user", [{"type": "text", "text": "[Request interrupted by user]"}], 20),
            claude("user", 42, 21),
        ],
    )


def test_claude_code_imports_user_and_assistant_text_only(tmp_path: Path) -> None:
    records = list(read_records(claude_transcript(tmp_path), "claude-code"))
    texts = [(record.position, record.fields["speaker"], record.fields["text"]) for record in good(records)]
    assert texts == [  # line 4's /clear: a command the model never answered, not a request
        ("line 5", "user", "Why does the deploy time out?"),
        ("line 6", "assistant", "Let me check the logs."),
        ("line 8", "assistant", "The pool is too small.\n\nRaise it to 20."),
        ("line 9", "user", "thanks, see the screenshot"),
        ("line 17", "user", "odd uuid"),
        ("line 18", "user", "no session id on this line"),
        ("line 19", "user", "and the retries?"),
    ]
    assert bad(records) == [
        ("line 15", "missing 'timestamp'"),
        ("line 16", "invalid JSON: Unterminated string starting at column 57"),
        ("line 21", "'message.content' must be a string or a list of blocks, got number"),
    ]


def test_claude_code_field_mapping(tmp_path: Path) -> None:
    by_line = {record.position: record.fields for record in good(read_records(claude_transcript(tmp_path)))}
    assert by_line["line 5"] == {
        "id": "00000000-0000-0000-0000-000000000005",
        "timestamp": "2025-05-26T07:05:00.000Z",
        "speaker": "user",
        "text": "Why does the deploy time out?",
        "session": SESSION,
        "source": "claude-code",
    }
    assert "id" not in by_line["line 17"]  # the vault derives one
    assert "session" not in by_line["line 18"]


# --- chatgpt ------------------------------------------------------------------------------


def node(
    node_id: str,
    parent: str | None,
    children: list[str],
    role: str | None = None,
    parts: list[Any] | None = None,
    create_time: float | None = 1712345679.25,
    content_type: str = "text",
    **message: Any,
) -> dict[str, Any]:
    body = None
    if role is not None:
        body = {
            "id": f"msg-{node_id}",
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": create_time,
            "content": {"content_type": content_type, "parts": parts or []},
            "status": "finished_successfully",
            "metadata": {},
            "recipient": "all",
            **message,
        }
    return {"id": node_id, "message": body, "parent": parent, "children": children}


def mapping(*nodes: dict[str, Any]) -> dict[str, Any]:
    return {item["id"]: item for item in nodes}


def chatgpt_export() -> list[Any]:
    hidden = {"is_visually_hidden_from_conversation": True}
    first = {
        "title": "Deploy timeout",
        "create_time": 1712345600.0,
        "conversation_id": "conv-a",
        "id": "conv-a",
        "current_node": "n9",
        "mapping": mapping(
            node("root", None, ["n1"]),
            node("n1", "root", ["n2"], "system", ["you are helpful"], metadata=hidden),
            node("n2", "n1", ["n3"], "user", ["context the user never saw"], metadata=hidden),
            node("n3", "n2", ["n4old", "n4"], "user", ["The deploy fails with a timeout."]),
            node("n4old", "n3", [], "assistant", ["An abandoned first answer."]),
            node("n4", "n3", ["n5"], "assistant", ["search('pool size')"], recipient="browser"),
            node("n5", "n4", ["n6"], "tool", ["traceback"]),
            node("n6", "n5", ["n7"], "assistant", ["import os"], content_type="code"),
            node(
                "n7",
                "n6",
                ["n8"],
                "assistant",
                [{"asset_pointer": "file-1"}, "The pool is too small.", ""],
                content_type="multimodal_text",
            ),
            node("n8", "n7", ["n9"], "user", ["   "]),
            node("n9", "n8", [], "user", ["thanks"], create_time=None, id="bad id!"),
        ),
    }
    no_current = {
        "conversation_id": "conv-b",
        "create_time": 1712345600.0,
        "mapping": mapping(
            node("r", None, ["a"]),
            node("a", "r", ["b1", "b2"], "user", ["question"]),
            node("b1", "a", [], "assistant", ["older reply"]),
            node("b2", "a", [], "assistant", ["newer reply"]),
        ),
    }
    no_time = {
        "id": "conv-c",
        "current_node": "x",
        "mapping": mapping(node("x", None, [], "user", ["undated"], create_time=None)),
    }
    cycle = {
        "id": "conv-d",
        "create_time": 1712345600.0,
        "current_node": "p",
        "mapping": mapping(node("p", "q", [], "user", ["loop one"]), node("q", "p", ["p"], "user", ["loop two"])),
    }
    undated = node("y", None, [], "user", ["x"])
    undated["message"]["create_time"] = "yesterday"
    bad_time = {"id": "conv-e", "current_node": "y", "mapping": mapping(undated)}
    return [first, {"title": "no mapping"}, "not a conversation", no_current, no_time, cycle, bad_time]


def test_chatgpt_imports_the_active_branch_text(tmp_path: Path) -> None:
    records = list(read_records(write_json(tmp_path, "conversations.json", chatgpt_export()), "chatgpt"))
    rows = [(record.position, record.fields["speaker"], record.fields["text"]) for record in good(records)]
    assert rows == [
        ("conversation 1, message 3", "user", "The deploy fails with a timeout."),
        ("conversation 1, message 7", "assistant", "The pool is too small."),
        ("conversation 1, message 9", "user", "thanks"),
        ("conversation 4, message 1", "user", "question"),
        ("conversation 4, message 2", "assistant", "newer reply"),
    ]
    assert bad(records) == [
        ("conversation 2", "missing 'mapping'"),
        ("conversation 3", "expected an object, got string"),
        ("conversation 5, message 1", "missing 'create_time' (on the message and on the conversation)"),
        ("conversation 6", "the parent links loop back to node 'p'"),  # no order to trust: nothing taken
        ("conversation 7, message 1", "'create_time' must be a number of seconds, got string"),
    ]


def test_chatgpt_voice_messages_keep_what_was_said(tmp_path: Path) -> None:
    spoken = {"content_type": "audio_transcription", "text": "Qual é a capital de Portugal?", "direction": "in"}
    heard = {"content_type": "audio_transcription", "text": "Lisboa.", "direction": "out"}
    user_audio = {"content_type": "real_time_user_audio_video_asset_pointer", "audio_asset_pointer": {}}
    audio = {"content_type": "audio_asset_pointer", "asset_pointer": "sediment://file_1", "format": "wav"}
    image = {"content_type": "image_asset_pointer", "asset_pointer": "file-service://file-2"}
    voice = {
        "id": "conv-v",
        "create_time": 1712345600.0,
        "current_node": "v4",
        "mapping": mapping(
            node("v1", None, ["v2"], "user", [spoken, user_audio], content_type="multimodal_text"),
            node("v2", "v1", ["v3"], "assistant", [audio, heard], content_type="multimodal_text"),
            node("v3", "v2", ["v4"], "user", [user_audio], content_type="multimodal_text"),  # not transcribed
            node("v4", "v3", [], "user", [image], content_type="multimodal_text"),
        ),
    }
    records = list(read_records(write_json(tmp_path, "conversations.json", [voice]), "chatgpt"))
    assert [(r.fields["speaker"], r.fields["text"]) for r in good(records)] == [
        ("user", "Qual é a capital de Portugal?"),
        ("assistant", "Lisboa."),
    ]
    assert skipped(records) == {"conversation 1, message 3": "empty", "conversation 1, message 4": "image"}


def test_chatgpt_field_mapping(tmp_path: Path) -> None:
    records = good(read_records(write_json(tmp_path, "conversations.json", chatgpt_export(), indent=None)))
    assert records[0].fields == {
        "id": "msg-n3",
        "timestamp": "2024-04-05T19:34:39.250000+00:00",
        "speaker": "user",
        "text": "The deploy fails with a timeout.",
        "session": "conv-a",
        "source": "chatgpt",
    }
    thanks = records[2].fields
    assert "id" not in thanks  # "bad id!" does not fit the id pattern: the vault derives one
    assert thanks["timestamp"] == "2024-04-05T19:33:20+00:00"  # the conversation's create_time
    assert datetime.fromisoformat(thanks["timestamp"]).utcoffset() is not None
    assert records[3].fields["session"] == "conv-b"


@pytest.mark.parametrize("fmt", ["chatgpt", "locomo"])
@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty file"),
        (b"  \n", "empty file"),
        (b'[{"mapping": {"a": ', "invalid JSON: Expecting value at line 1 column 20"),
        (b'["caf\xe9"]', "invalid UTF-8 at byte 6"),
        (b"42", "expected"),
    ],
)
def test_whole_json_formats_report_an_unreadable_file_once(
    tmp_path: Path, fmt: str, content: bytes, reason: str
) -> None:
    path = tmp_path / "export.json"
    path.write_bytes(content)
    [record] = read_records(path, fmt)
    assert isinstance(record, BadRecord)
    assert record.position == "file"
    assert record.reason.startswith(reason)


def test_chatgpt_progress_counts_conversations(tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    path = write_json(tmp_path, "conversations.json", chatgpt_export())
    list(read_records(path, "chatgpt", progress=lambda done, total: calls.append((done, total))))
    assert calls[0] == (0, 7) and calls[-1] == (7, 7)


# --- locomo -------------------------------------------------------------------------------


def locomo_sample() -> dict[str, Any]:
    turn = {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a cat last week."}
    return {
        "qa": [{"question": "What did Ana adopt?", "answer": "a cat", "evidence": ["D1:1"], "category": 4}],
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "2:17 pm on 9 May, 2023",
            "session_1": [
                turn,
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Nice! What is its name?"},
                {
                    "speaker": "Ana",
                    "dia_id": "D1:3",
                    "text": "Miso.",
                    "blip_caption": "a photo of a grey cat",
                    "img_url": ["https://example.invalid/cat.jpg"],
                },
            ],
            "session_10_date_time": "12:05 am on 2 January, 2024",
            "session_10": [{"speaker": "Ben", "dia_id": "D10:1", "text": "Happy new year."}],
            "session_2_date_time": "9:05 am on 1 June, 2023",
            "session_2": [
                {"speaker": "Ben", "dia_id": "D2:1", "text": "How is Miso?"},
                {"speaker": "Ana", "dia_id": "D2:2"},
                {"speaker": "Ana", "dia_id": "odd", "text": "Growing fast."},
                {"speaker": "Ana", "dia_id": "D2:4", "text": "", "blip_caption": "a cat on a sofa"},
            ],
            "session_3_date_time": "sometime in June",
            "session_3": [{"speaker": "Ben", "dia_id": "D3:1", "text": "lost"}],
            "session_4_date_time": "3:00 pm on 5 July, 2023",
            "session_4": [],
            "session_5_date_time": "3:00 pm on 6 July, 2023",
        },
        "event_summary": {},
        "sample_id": "conv 7",
    }


def test_locomo_turns_in_session_order_with_ids_times_and_captions(tmp_path: Path) -> None:
    records = list(read_records(write_json(tmp_path, "locomo.json", [locomo_sample()]), "locomo"))
    rows = [
        (record.position, record.fields.get("id"), record.fields["timestamp"], record.fields["text"])
        for record in good(records)
    ]
    assert rows == [
        ("conv 7 session_1 turn 1", "conv-7-D1-1", "2023-05-09T14:17:00", "I adopted a cat last week."),
        ("conv 7 session_1 turn 2", "conv-7-D1-2", "2023-05-09T14:17:01", "Nice! What is its name?"),
        (
            "conv 7 session_1 turn 3",
            "conv-7-D1-3",
            "2023-05-09T14:17:02",
            "Miso. [shares a photo of a grey cat]",
        ),
        ("conv 7 session_2 turn 1", "conv-7-D2-1", "2023-06-01T09:05:00", "How is Miso?"),
        ("conv 7 session_2 turn 3", None, "2023-06-01T09:05:02", "Growing fast."),
        ("conv 7 session_2 turn 4", "conv-7-D2-4", "2023-06-01T09:05:03", "[shares a cat on a sofa]"),
        ("conv 7 session_10 turn 1", "conv-7-D10-1", "2024-01-02T00:05:00", "Happy new year."),
    ]
    assert bad(records) == [
        ("conv 7 session_2 turn 2", "missing 'text'"),
        ("conv 7 session_3", "missing or unreadable 'session_3_date_time'; its 1 turns are skipped"),
    ]
    assert good(records)[0].fields == {
        "id": "conv-7-D1-1",
        "timestamp": "2023-05-09T14:17:00",
        "speaker": "Ana",
        "text": "I adopted a cat last week.",
        "session": "conv 7-session_1",
        "source": "locomo",
    }


def test_locomo_older_layout_and_a_single_sample(tmp_path: Path) -> None:
    sample = locomo_sample()
    flat = {**sample["conversation"], "qa": sample["qa"], "sample_id": "conv-8"}
    records = good(read_records(write_json(tmp_path, "old.json", flat), "locomo"))
    assert records[0].fields["id"] == "conv-8-D1-1"
    assert records[0].fields["session"] == "conv-8-session_1"
    assert len(records) == 7


def test_locomo_bad_samples_are_reported(tmp_path: Path) -> None:
    no_id = locomo_sample()
    del no_id["sample_id"]
    samples = ["oops", {"sample_id": "empty", "conversation": {"speaker_a": "A"}}, no_id]
    records = list(read_records(write_json(tmp_path, "locomo.json", samples), "locomo"))
    assert bad(records)[:2] == [
        ("sample 1", "expected an object, got string"),
        ("empty", "no session_N turn lists"),
    ]
    assert good(records)[0].fields["id"] == "sample-3-D1-1"
    assert good(records)[0].position == "sample-3 session_1 turn 1"


@pytest.mark.parametrize(
    ("stamp", "expected"),
    [
        ("2:17 pm on 9 May, 2023", "2023-05-09T14:17:00"),
        ("12:05 am on 2 January, 2024", "2024-01-02T00:05:00"),
        ("12:30 pm on 29 February, 2024", "2024-02-29T12:30:00"),
        ("9:07 AM on 3 Sept, 2023", "2023-09-03T09:07:00"),
        ("10:04 am on 19 June 2023", "2023-06-19T10:04:00"),
        ("2:17 pm on 29 February, 2023", None),
        ("13:17 pm on 9 May, 2023", None),
        ("2:17 pm on 9 Ma, 2023", None),
        ("2023-05-09 14:17", None),
    ],
)
def test_locomo_session_dates(tmp_path: Path, stamp: str, expected: str | None) -> None:
    sample = {
        "sample_id": "s",
        "conversation": {
            "speaker_a": "A",
            "session_1_date_time": stamp,
            "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}],
        },
    }
    [record] = read_records(write_json(tmp_path, "one.json", sample), "locomo")
    if expected is None:
        assert isinstance(record, BadRecord)
    else:
        assert isinstance(record, ImportRecord)
        assert record.fields["timestamp"] == expected


# --- detection ----------------------------------------------------------------------------


def test_detects_each_format(tmp_path: Path) -> None:
    contract = {"timestamp": "2026-03-15T10:00:00Z", "speaker": "a", "text": "x"}
    assert detect_format(write(tmp_path, "a.jsonl", [contract, contract])) == "jsonl"
    assert detect_format(claude_transcript(tmp_path)) == "claude-code"
    assert detect_format(write_json(tmp_path, "pretty.json", chatgpt_export())) == "chatgpt"
    assert detect_format(write_json(tmp_path, "mini.json", chatgpt_export(), indent=None)) == "chatgpt"
    assert detect_format(write_json(tmp_path, "loco.json", [locomo_sample()])) == "locomo"
    assert detect_format(write_json(tmp_path, "one.json", locomo_sample(), indent=None)) == "locomo"
    # A document whose first line holds more than its opening brace.
    compact = json.dumps(locomo_sample(), indent=2).replace("{\n  ", "{", 1)
    assert detect_format(write(tmp_path, "compact.json", [compact])) == "locomo"


def test_detects_large_files_from_their_first_bytes(tmp_path: Path) -> None:
    # LoCoMo files open with a long qa list; the conversation comes after the sniffed bytes.
    sample = locomo_sample()
    sample["qa"] = [{"question": f"q{n}?", "answer": "a", "evidence": ["D1:1"], "category": 1} for n in range(3000)]
    sample = {"qa": sample.pop("qa"), **sample}
    for name, value in (("big-locomo.json", [sample]), ("big-sample.json", sample)):
        path = write_json(tmp_path, name, value, indent=None)
        assert path.stat().st_size > 128 * 1024
        assert detect_format(path) == "locomo"
    conversations = chatgpt_export()[:1] * 300
    path = write_json(tmp_path, "big-chatgpt.json", conversations, indent=None)
    assert path.stat().st_size > 128 * 1024
    assert detect_format(path) == "chatgpt"


def test_detection_skips_unparsable_and_neutral_lines(tmp_path: Path) -> None:
    claude_lines: list[str | bytes | dict[str, Any]] = [
        "{not json",
        {"type": "file-history-snapshot", "messageId": "m", "snapshot": {}},
        claude("user", "hi", 1),
    ]
    assert detect_format(write(tmp_path, "c.jsonl", claude_lines)) == "claude-code"


def test_detection_reads_records_through_read_records(tmp_path: Path) -> None:
    path = write_json(tmp_path, "loco.json", [locomo_sample()])
    assert list(read_records(path)) == list(read_records(path, "locomo"))


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([{"timestamp": "t", "speaker": "a", "text": "x", "sessionId": "s"}], "claude-code or jsonl"),
        ([{"timestamp": "t", "speaker": "a", "text": "x"}, claude("user", "hi", 1)], "claude-code or jsonl"),
        ([{"foo": 1}, {"bar": 2}], "not memtree JSONL"),
        (["just some notes", "in a text file"], "not memtree JSONL"),
        (["[1, 2, 3]"], "not memtree JSONL"),
        ([""], "the file is empty"),
    ],
)
def test_ambiguous_or_unknown_input_asks_for_format(
    tmp_path: Path, lines: list[str | dict[str, Any]], message: str
) -> None:
    path = write(tmp_path, "in.txt", list(lines))
    with pytest.raises(InvalidInputError) as caught:
        detect_format(path)
    assert message in caught.value.message
    assert caught.value.hint == FORMAT_HINT
    with pytest.raises(InvalidInputError):
        read_records(path)  # raised at call time, before iteration


def test_missing_file_directory_and_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no such file"):
        read_records(tmp_path / "absent.jsonl", "jsonl")
    with pytest.raises(InvalidInputError, match="no such file"):
        detect_format(tmp_path / "absent.jsonl")
    with pytest.raises(InvalidInputError, match="is a directory"):
        read_records(tmp_path, "jsonl")
    path = write(tmp_path, "a.jsonl", [{"timestamp": "t", "speaker": "a", "text": "x"}])
    with pytest.raises(UsageError, match="unknown import format"):
        read_records(path, "csv")


# --- every format -------------------------------------------------------------------------

FIXTURES: dict[str, Callable[[Path], Path]] = {
    "jsonl": lambda tmp_path: write(tmp_path, "in.jsonl", [FULL, "{bad", FULL]),
    "claude-code": claude_transcript,
    "chatgpt": lambda tmp_path: write_json(tmp_path, "conversations.json", chatgpt_export()),
    "locomo": lambda tmp_path: write_json(tmp_path, "locomo.json", [locomo_sample()]),
    "codex": lambda tmp_path: write(tmp_path, "rollout.jsonl", codex_rollout()),
    "claude-ai": lambda tmp_path: write_json(tmp_path, "conversations.json", claude_ai_export()),
    "openai": lambda tmp_path: write_json(tmp_path, "messages.json", openai_messages()),
    "gemini": lambda tmp_path: write(tmp_path, "session-2026-01-16T18-34-aa.jsonl", gemini_recording()),
}


def test_fixtures_cover_every_format() -> None:
    assert set(FIXTURES) == set(FORMATS)


@pytest.mark.parametrize("fmt", FORMATS)
def test_same_file_same_records(tmp_path: Path, fmt: str) -> None:
    path = FIXTURES[fmt](tmp_path)
    first = list(read_records(path, fmt))
    assert first == list(read_records(path, fmt))
    assert good(first) and all(record.fields["text"] for record in good(first))
    assert detect_format(path) == fmt


# --- claude-code: what the user asked, what came of it --------------------------------------


def test_claude_code_every_line_is_a_record_or_a_counted_skip(tmp_path: Path) -> None:
    records = list(read_records(claude_transcript(tmp_path), "claude-code"))
    assert len(records) == 21  # one per non-blank line
    assert skipped(records) == {
        "line 1": "summary",
        "line 2": "file_history_snapshot",
        "line 3": "meta",
        "line 4": "local_command",
        "line 7": "tool_result",
        "line 10": "api_error",
        "line 11": "api_error",
        "line 12": "sidechain",
        "line 13": "compact_summary",
        "line 14": "system",
        "line 20": "interrupted",
    }


def test_claude_code_slash_commands_keep_the_users_words(tmp_path: Path) -> None:
    call = {"type": "tool_use", "id": "t1", "name": "Read", "input": {}}
    lines = [
        claude(
            "user",
            "<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n"
            "<command-args>check the auth module</command-args>",
            1,
        ),
        claude("user", "<command-name>compact</command-name>\n<command-args></command-args>", 2),
        claude("user", "<local-command-stdout>Compacted</local-command-stdout>", 3),
        claude("user", "<command-message>init</command-message>", 4),
        claude("user", "Please analyze this codebase and write a CLAUDE.md", 5, isMeta=True),
        claude("assistant", [{"type": "text", "text": "I'll read the layout first."}, call], 6),
        claude("user", "<command-args>create TODO app by Next.js</command-args>", 7),
        claude("user", "<bash-input>git status</bash-input>", 8),
        claude("user", "<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>", 9),
        claude("user", "<local-command-stdout></local-command-stdout>", 10),
        claude("user", "<command-name>/exit</command-name>\n<command-args></command-args>", 11),
        claude("user", "<local-command-stdout>(no content)</local-command-stdout>", 12),
    ]
    records = list(read_records(write(tmp_path, "s.jsonl", lines), "claude-code"))
    assert [(r.position, r.fields["text"], r.kind) for r in good(records)] == [
        ("line 1", "/review: check the auth module", None),
        ("line 3", "Compacted", "command_output"),
        ("line 4", "/init", None),  # a prompt command: the model took it up
        ("line 6", "I'll read the layout first.", "narration"),
        ("line 7", "create TODO app by Next.js", None),
        ("line 8", "! git status", None),
        ("line 9", "On branch main", "command_output"),
    ]
    assert good(records)[-1].fields["importance"] == EVIDENCE_IMPORTANCE
    # /compact and /exit ran in Claude Code itself: the user asked the model nothing
    assert skipped(records) == {"line 2": "local_command", "line 5": "meta", "line 10": "empty",
                                "line 11": "local_command", "line 12": "empty"}  # fmt: skip
    assert len(records) == len(lines)


def test_claude_code_ide_blocks_and_reminders_are_cut_out_of_user_text(tmp_path: Path) -> None:
    opened = "<ide_opened_file>The user opened the file /home/u/app/auth.py in the IDE.</ide_opened_file>"
    selection = "<ide_selection>The user selected lines 3-9:\ndef login(): ...</ide_selection>"
    reminder = "<system-reminder>Remember the todo list.</system-reminder>"
    lines = [
        claude("user", [{"type": "text", "text": opened}, {"type": "text", "text": "why does login fail?"}], 1),
        claude("user", f"{selection}\nrename this{reminder}", 2),
        claude("user", [{"type": "text", "text": opened}], 3),
        claude("user", reminder, 4),
    ]
    records = list(read_records(write(tmp_path, "s.jsonl", lines), "claude-code"))
    assert [r.fields["text"] for r in good(records)] == ["why does login fail?", "rename this"]
    assert skipped(records) == {"line 3": "ide", "line 4": "harness"}


def test_claude_code_narration_before_tool_calls_is_evidence_the_answer_is_not(tmp_path: Path) -> None:
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}
    result = {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}
    text = lambda words: [{"type": "text", "text": words}]  # noqa: E731
    lines = [
        claude("user", "fix the failing test", 1),
        claude("assistant", text("Now let me check the tests."), 2),
        claude("assistant", [call], 3),  # Claude Code 2.x: one line per block
        claude("user", [result], 4),
        claude("assistant", [*text("Good. Now stage and commit:"), call], 5),  # 1.x: one line per message
        claude("user", [result], 6),
        claude("assistant", text("Fixed: the fixture used a stale date."), 7),
        claude("assistant", text("Committed as abc123."), 8),
        claude("user", "thanks", 9),
        claude("assistant", text("You're welcome."), 10),
    ]
    records = good(read_records(write(tmp_path, "s.jsonl", lines), "claude-code"))
    assert [(r.position, r.kind, r.fields.get("importance")) for r in records] == [
        ("line 1", None, None),
        ("line 2", "narration", EVIDENCE_IMPORTANCE),
        ("line 5", "narration", EVIDENCE_IMPORTANCE),
        ("line 7", None, None),
        ("line 8", None, None),
        ("line 9", None, None),
        ("line 10", None, None),
    ]


def test_import_counts_every_record_and_explains_a_file_that_gives_nothing(vault: Vault, tmp_path: Path) -> None:
    path = claude_transcript(tmp_path)
    report = import_file(vault, path)
    assert report.records == report.added + report.existing + len(report.failed) + sum(report.skipped.values())
    assert report.skipped["sidechain"] == 1 and report.evidence == {"narration": 1}
    run = memtree("--vault", str(vault.root), "import", str(path), "--json")
    data = run.json()
    assert run.code == 6 and data["added"] == 0 and data["already_stored"] == report.added
    assert data["skipped"]["api_error"] == 2 and data["failed"] == 3
    human = memtree("--vault", str(vault.root), "import", str(path))
    assert "skipped: " in human.stdout and "1 sidechain" in human.stdout

    subagent = write(tmp_path, "agent-a1.jsonl", [claude("user", "look for X", n, isSidechain=True) for n in (1, 2)])
    run = memtree("--vault", str(vault.root), "import", str(subagent))
    assert run.code == 4 and "subagent" in run.stderr
    rollout = write(tmp_path, "rollout.jsonl", codex_rollout()[:-2])  # no bad lines: every one is skipped
    run = memtree("--vault", str(vault.root), "import", str(rollout), "--format", "claude-code")
    assert run.code == 4 and "looks like codex" in run.stderr


def test_reimport_after_an_older_importer_reports_the_message_as_stored(vault: Vault, tmp_path: Path) -> None:
    # An earlier version stored this message with its IDE block; the same id now reads otherwise.
    old = "<ide_opened_file>opened a.py</ide_opened_file>\nwhy?"
    memtree("--vault", str(vault.root), "add", old, "--id", "00000000-0000-0000-0000-000000000001",
            "--timestamp", "2025-05-26T07:01:00.000Z", "--speaker", "user", "--session", SESSION,
            "--source", "claude-code")  # fmt: skip
    path = write(tmp_path, "s.jsonl", [claude("user", old, 1)])
    run = memtree("--vault", str(vault.root), "import", str(path), "--json")
    assert run.code == 0 and run.json()["already_stored"] == 1


# --- codex --------------------------------------------------------------------------------

CODEX_SESSION = "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5"


def codex(kind: str, payload: dict[str, Any], second: int) -> dict[str, Any]:
    return {"timestamp": f"2025-10-29T00:59:{second:02d}.317Z", "type": kind, "payload": payload}


def codex_message(role: str, text: str, second: int) -> dict[str, Any]:
    block = "output_text" if role == "assistant" else "input_text"
    return codex("response_item", {"type": "message", "role": role, "content": [{"type": block, "text": text}]}, second)


def codex_rollout() -> list[str | bytes | dict[str, Any]]:
    return [
        codex("session_meta", {"id": CODEX_SESSION, "cwd": "/tmp/p", "cli_version": "0.46.0"}, 0),
        codex_message("developer", "<permissions instructions>...</permissions instructions>", 1),
        codex_message("user", "<environment_context>\n  <cwd>/tmp/p</cwd>\n</environment_context>", 2),
        codex_message("user", "# AGENTS.md instructions for /tmp/p\n\n<INSTRUCTIONS>be brief</INSTRUCTIONS>", 3),
        codex_message("user", "why is the build red?", 4),
        codex("event_msg", {"type": "user_message", "message": "why is the build red?"}, 4),
        codex("turn_context", {"model": "gpt-5-codex"}, 5),
        codex("response_item", {"type": "reasoning", "summary": [], "encrypted_content": "x"}, 6),
        codex_message("assistant", "I'll run the tests.", 7),
        codex("response_item", {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}, 8),
        codex("response_item", {"type": "function_call_output", "call_id": "c1", "output": "1 failed"}, 9),
        codex_message("assistant", "A snapshot is stale; I updated it.", 10),
        "{cut",
        codex("response_item", "not an object", 12),  # type: ignore[arg-type]
    ]


def test_codex_rollout_keeps_the_request_and_the_answer(tmp_path: Path) -> None:
    path = write(tmp_path, "rollout-2025-10-29T00-59-38.jsonl", codex_rollout())
    assert detect_format(path) == "codex"
    records = list(read_records(path))
    assert [(r.fields["speaker"], r.fields["text"], r.kind) for r in good(records)] == [
        ("user", "why is the build red?", None),
        ("assistant", "I'll run the tests.", "narration"),
        ("assistant", "A snapshot is stale; I updated it.", None),
    ]
    assert good(records)[0].fields == {
        "timestamp": "2025-10-29T00:59:04.317Z",
        "speaker": "user",
        "text": "why is the build red?",
        "session": CODEX_SESSION,
        "source": "codex",
    }
    assert sorted(skipped(records).values()) == sorted(
        ["session_meta", "system", "harness", "harness", "event_msg", "turn_context", "thinking", "tool_use",
         "tool_result"]
    )  # fmt: skip
    assert [position for position, _ in bad(records)] == ["line 13", "line 14"]


def test_reimporting_a_codex_rollout_adds_nothing(vault: Vault, tmp_path: Path) -> None:
    path = write(tmp_path, "rollout.jsonl", codex_rollout())
    first = import_file(vault, path)
    second = import_file(vault, path)
    assert first.added == 3 and second.added == 0 and second.existing == 3


# --- claude-ai ----------------------------------------------------------------------------


def claude_ai_message(uuid: str, sender: str, text: str, parent: str | None = None, **extra: Any) -> dict[str, Any]:
    message = {
        "uuid": uuid,
        "text": text,
        "content": [{"type": "text", "text": text}],
        "sender": sender,
        "created_at": "2025-11-17T05:34:21.730215Z",
        "attachments": [],
        "files": [],
        **extra,
    }
    if parent is not None:
        message["parent_message_uuid"] = parent
    return message


def claude_ai_export() -> list[Any]:
    root = "00000000-0000-4000-8000-000000000000"
    tool = {"type": "tool_use", "name": "web_search", "input": {"query": "x"}}
    return [
        {
            "uuid": "conv-1",
            "name": "Trip",
            "created_at": "2025-11-17T05:34:19Z",
            "chat_messages": [
                claude_ai_message("m1", "human", "plan a trip to Rome", root),
                claude_ai_message("m2", "assistant", "An older answer.", "m1"),
                claude_ai_message("m3", "assistant", "Day 1: the Forum.", "m1"),
                claude_ai_message("m4", "assistant", "", "m3", content=[tool]),
                claude_ai_message("m5", "human", "and day 2?", "m3"),
            ],
        },
        {
            "uuid": "conv-2",
            "chat_messages": [
                {"uuid": "n1", "sender": "human", "text": "older export, text only", "created_at": "2024-01-01T12:00Z"},
                {"uuid": "n2", "sender": "assistant", "text": "no time"},
            ],
        },
        {"uuid": "conv-3", "name": "no messages"},
    ]


def test_claude_ai_export_follows_the_branch_the_user_last_saw(tmp_path: Path) -> None:
    path = write_json(tmp_path, "conversations.json", claude_ai_export())
    assert detect_format(path) == "claude-ai"
    records = list(read_records(path))
    assert [(r.position, r.fields["speaker"], r.fields["text"]) for r in good(records)] == [
        ("conversation 1, message 1", "user", "plan a trip to Rome"),
        ("conversation 1, message 3", "assistant", "Day 1: the Forum."),
        ("conversation 1, message 5", "user", "and day 2?"),
        ("conversation 2, message 1", "user", "older export, text only"),
    ]
    assert good(records)[0].fields["id"] == "m1" and good(records)[0].fields["session"] == "conv-1"
    assert skipped(records) == {"conversation 1, message 2": "branch", "conversation 1, message 4": "branch"}
    assert bad(records) == [
        ("conversation 2, message 2", "missing 'created_at'"),
        ("conversation 3", "missing 'chat_messages'"),
    ]


# --- chatgpt: citation markers ------------------------------------------------------------


def test_chatgpt_citation_markers_are_removed(tmp_path: Path) -> None:
    cited = "Rome has 2.8 million people \ue200cite\ue202turn0search4\ue201. See the guide 【4:0†source】."
    conversation = {
        "conversation_id": "c",
        "current_node": "a",
        "mapping": mapping(node("a", None, [], "assistant", [cited])),
    }
    records = good(read_records(write_json(tmp_path, "conversations.json", [conversation]), "chatgpt"))
    assert [r.fields["text"] for r in records] == ["Rome has 2.8 million people. See the guide."]


@pytest.mark.slow
def test_a_big_claude_code_import_stays_fast(vault: Vault, tmp_path: Path) -> None:
    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}
    lines: list[str | bytes | dict[str, Any]] = []
    for n in range(5_000):
        line = claude("user" if n % 2 else "assistant", f"message {n} about the deploy", n % 60)
        line["uuid"] = f"u-{n}"
        if not n % 4:
            line["message"]["content"] = [{"type": "text", "text": f"let me look {n}"}, call]
        lines.append(line)
    path = write(tmp_path, "big.jsonl", lines * 2)  # 10,000 records; the second half is already stored
    started = time.perf_counter()
    report = import_file(vault, path)
    assert time.perf_counter() - started < 10  # measured 1-2 s; the issue asks for < 5 s
    assert report.added == 5_000 and report.existing == 5_000


# --- openai: chat-messages lists ----------------------------------------------------------


def openai_messages() -> list[Any]:
    call = {"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}
    return [
        {"role": "system", "content": "You are a travel assistant."},
        {"role": "user", "content": "plan a weekend in Rome"},
        {"role": "assistant", "content": "Let me check the weather first.", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "sunny, 24 C"},
        {"role": "assistant", "content": [{"type": "text", "text": "Day 1: the Forum. Day 2: Trastevere."}]},
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:..."}}]},
        {"role": "user", "content": [{"type": "input_text", "text": "and where to eat?"}, {"type": "image_url"}]},
        {"role": "ai", "content": "Try Da Enzo."},
    ]


def test_openai_messages_keep_the_users_and_assistants_text(tmp_path: Path) -> None:
    path = write_json(tmp_path, "messages.json", openai_messages())
    records = list(read_records(path))
    assert skipped(records) == {"message 1": "system", "message 4": "tool_result", "message 6": "image"}
    assert [(r.position, r.fields["speaker"], r.fields["text"], r.kind) for r in good(records)] == [
        ("message 2", "user", "plan a weekend in Rome", None),
        ("message 3", "assistant", "Let me check the weather first.", "narration"),
        ("message 5", "assistant", "Day 1: the Forum. Day 2: Trastevere.", None),
        ("message 7", "user", "and where to eat?", None),
        ("message 8", "assistant", "Try Da Enzo.", None),
    ]
    assert good(records)[1].fields["importance"] == EVIDENCE_IMPORTANCE
    sessions = {r.fields["session"] for r in good(records)}
    assert len(sessions) == 1 and {r.fields["source"] for r in good(records)} == {"openai"}
    times = [r.fields["timestamp"] for r in good(records)]
    assert times == sorted(times) and len(set(times)) == len(times)  # one second per message keeps the order


def test_openai_wrapper_and_one_conversation_per_line(tmp_path: Path) -> None:
    wrapped = {"id": "conv-7", "created_at": "2025-05-01T10:00:00Z", "model": "gpt-4o", "messages": openai_messages()}
    records = good(read_records(write_json(tmp_path, "chat.json", wrapped)))
    assert detect_format(tmp_path / "chat.json") == "openai"
    assert {r.fields["session"] for r in records} == {"conv-7"}
    assert records[0].fields["timestamp"] == "2025-05-01T10:00:01+00:00"  # the conversation's time, message 2
    lines = [
        {
            "messages": [
                {"role": "user", "content": "hi", "timestamp": 1746093600},
                {"role": "assistant", "content": "hello"},
            ]
        },
        "{not json",
        {"messages": [{"role": "user", "content": "bye"}, {"role": "narrator", "content": "x"}]},
        {"messages": "nope"},
    ]
    path = write(tmp_path, "finetune.jsonl", lines)
    assert detect_format(path) == "openai"
    records = list(read_records(path))
    assert [r.position for r in good(records)] == ["line 1, message 1", "line 1, message 2", "line 3, message 1"]
    assert good(records)[0].fields["timestamp"] == "2025-05-01T10:00:00+00:00"
    assert [position for position, _ in bad(records)] == ["line 2", "line 3, message 2", "line 4"]
    assert "unknown 'role' 'narrator'" in bad(records)[1][1]


def test_openai_list_of_conversations_and_stable_sessions(tmp_path: Path) -> None:
    first = openai_messages()[:5]
    conversations = [{"messages": first}, {"messages": openai_messages()[5:]}]
    records = good(read_records(write_json(tmp_path, "many.json", conversations)))
    assert records[0].position == "conversation 1, message 2"
    assert len({r.fields["session"] for r in records}) == 2
    # the same conversation exported again, longer: its session (and so its chunk ids) stays
    longer = good(read_records(write_json(tmp_path, "longer.json", [{"messages": openai_messages()}])))
    assert longer[0].fields["session"] == records[0].fields["session"]


def test_reimporting_openai_messages_adds_nothing(vault: Vault, tmp_path: Path) -> None:
    path = write_json(tmp_path, "messages.json", openai_messages())
    first = import_file(vault, path)
    second = import_file(vault, path)
    assert first.added == 5 and second.added == 0 and second.existing == 5
    assert first.skipped == {"system": 1, "tool_result": 1, "image": 1} and first.evidence == {"narration": 1}
    run = memtree("--vault", str(vault.root), "import", str(path), "--format", "openai", "--json")
    assert run.code == 0 and run.json()["already_stored"] == 5


def test_a_large_openai_list_is_detected_from_its_first_bytes(tmp_path: Path) -> None:
    messages = [{"role": "user" if n % 2 else "assistant", "content": f"message {n} " * 20} for n in range(2000)]
    path = write_json(tmp_path, "big.json", messages, indent=None)
    assert path.stat().st_size > 128 * 1024
    assert detect_format(path) == "openai"
    assert detect_format(write_json(tmp_path, "big-chatgpt.json", chatgpt_export()[:1] * 300, indent=None)) == "chatgpt"


# --- gemini: Gemini CLI chat recordings ----------------------------------------------------

GEMINI_SESSION = "24e7203e-8840-4c58-91f1-5ab32f11e899"


def gemini(message_id: str, kind: str, content: Any, second: int, **extra: Any) -> dict[str, Any]:
    return {"id": message_id, "timestamp": f"2026-01-16T18:34:{second:02d}.000Z", "type": kind, "content": content,
            **extra}  # fmt: skip


def gemini_recording() -> list[str | bytes | dict[str, Any]]:
    call = {"id": "t1", "name": "run_shell_command", "args": {"command": "npm test"}, "status": "success"}
    header = {"sessionId": GEMINI_SESSION, "projectHash": "414e7f6f", "startTime": "2026-01-16T18:34:00.000Z"}
    return [
        header,
        gemini("u1", "user", [{"text": "<session_context>cwd: /tmp/p</session_context>"}], 1),
        gemini("u2", "user", [{"text": "why is the build red?\n--- /tmp/p/x.ts ---\nfile text"}], 2,
               displayContent=[{"text": "why is the build red? @x.ts"}]),
        gemini("g1", "gemini", "", 3, thoughts=[{"subject": "Looking", "description": "at the tests"}]),
        gemini("g1", "gemini", "I'll run the tests.", 4),  # written again as it grows
        gemini("g1", "gemini", "I'll run the tests.", 5, toolCalls=[call]),
        gemini("g2", "gemini", [{"text": "A snapshot was stale;", "thought": False}, {"text": "I updated it."}], 6),
        gemini("i1", "info", "Request cancelled.", 7),
        gemini("u3", "user", "and the lint?", 8),
        gemini("g3", "gemini", "Lint is clean.", 9),
        {"$rewindTo": "u3"},  # the user rewound: u3 and g3 are gone
        {"$set": {"lastUpdated": "2026-01-16T18:35:00.000Z"}},
        gemini("u4", "user", "and the docs?", 10),
        "{cut",
        {"timestamp": "2026-01-16T18:34:11.000Z", "type": "user"},  # no id
    ]  # fmt: skip


def test_gemini_recording_keeps_the_last_version_of_each_message(tmp_path: Path) -> None:
    path = write(tmp_path, "session-2026-01-16T18-34-24e7203e.jsonl", gemini_recording())
    assert detect_format(path) == "gemini"
    records = list(read_records(path))
    assert [(r.position, r.fields["speaker"], r.fields["text"], r.kind) for r in good(records)] == [
        ("line 3", "user", "why is the build red? @x.ts", None),  # what the user typed, not the file
        ("line 6", "assistant", "I'll run the tests.", "narration"),
        ("line 7", "assistant", "A snapshot was stale;\n\nI updated it.", None),
        ("line 13", "user", "and the docs?", None),
    ]
    assert good(records)[0].fields == {
        "id": "u2",
        "timestamp": "2026-01-16T18:34:02.000Z",
        "speaker": "user",
        "text": "why is the build red? @x.ts",
        "session": GEMINI_SESSION,
        "source": "gemini",
    }
    assert skipped(records) == {
        "line 1": "session_meta",
        "line 2": "harness",
        "line 4": "superseded",
        "line 5": "superseded",
        "line 8": "info",
        "line 9": "branch",
        "line 10": "branch",
        "line 11": "rewind",
        "line 12": "metadata",
    }
    assert [position for position, _ in bad(records)] == ["line 14", "line 15"]
    assert len(records) == 15  # every line accounted for once


def test_gemini_older_recording_is_one_document(tmp_path: Path) -> None:
    lines = gemini_recording()
    document = {**lines[0], "lastUpdated": "2026-01-16T18:35:00.000Z",  # type: ignore[dict-item]
                "messages": [lines[2], lines[5], gemini("m", "gemini", "Done.", 9), "not a message"]}  # fmt: skip
    path = write_json(tmp_path, "session-2026-01-16T18-34-24e7203e.json", document)
    assert detect_format(path) == "gemini"
    records = list(read_records(path))
    assert [(r.position, r.fields["text"], r.kind) for r in good(records)] == [
        ("message 1", "why is the build red? @x.ts", None),
        ("message 2", "I'll run the tests.", "narration"),
        ("message 3", "Done.", None),
    ]
    assert bad(records) == [("message 4", "expected a message object, got string")]
    cut = tmp_path / "cut.json"
    cut.write_text(path.read_text()[:-40])
    assert bad(list(read_records(cut, "gemini"))) == [("file", bad(list(read_records(cut, "gemini")))[0][1])]
    one_line = tmp_path / "session-2026-01-16T18-34-one.json"
    one_line.write_text(json.dumps(document))
    assert list(read_records(one_line)) == records


def test_a_gemini_log_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def whole_file(path: Path) -> None:
        raise AssertionError("a .jsonl log parsed as one document first")

    path = write(tmp_path, "session-2026-01-16T18-34-24e7203e.jsonl", gemini_recording())
    expected = list(read_records(path, "gemini"))
    monkeypatch.setattr("compaction_tree.importers.gemini._load_document", whole_file)
    assert list(read_records(path, "gemini")) == expected


def test_gemini_checkpoint_replaces_the_messages(tmp_path: Path) -> None:
    lines = gemini_recording()
    checkpoint = {"$set": {"messages": [lines[2], gemini("g9", "gemini", "Summary so far.", 20)]}}
    path = write(tmp_path, "session.jsonl", [*lines[:7], checkpoint])
    records = list(read_records(path, "gemini"))
    assert [(r.position, r.fields["text"]) for r in good(records)] == [
        ("line 8, message 1", "why is the build red? @x.ts"),
        ("line 8, message 2", "Summary so far."),
    ]
    assert skipped(records)["line 3"] == "superseded" and skipped(records)["line 8"] == "metadata"


def test_a_gemini_subagent_recording_keeps_nothing(tmp_path: Path) -> None:
    lines = gemini_recording()
    path = write(tmp_path, "subagent.jsonl", [{**lines[0], "kind": "subagent"}, *lines[1:8]])  # type: ignore[dict-item]
    records = list(read_records(path))
    assert not good(records)
    assert sorted(skipped(records).values()).count("sidechain") == 5  # u1, u2, g1, g2, i1


def test_a_gemini_line_is_not_taken_for_claude_code(tmp_path: Path) -> None:
    header = gemini_recording()[0]
    assert detect_format(write(tmp_path, "only-header.jsonl", [header])) == "gemini"
    assert detect_format(write(tmp_path, "claude.jsonl", [{"sessionId": "s", "type": "summary"}])) == "claude-code"


def test_reimporting_a_gemini_recording_adds_nothing(vault: Vault, tmp_path: Path) -> None:
    path = write(tmp_path, "session.jsonl", gemini_recording())
    first = import_file(vault, path)
    second = import_file(vault, path)
    assert first.added == 4 and second.added == 0 and second.existing == 4
    assert first.evidence == {"narration": 1} and first.skipped["superseded"] == 2
    run = memtree("--vault", str(vault.root), "import", str(path), "--json")
    assert run.code == 6 and run.json()["already_stored"] == 4 and run.json()["format"] == "gemini"


def test_a_large_gemini_recording_is_detected_from_its_first_bytes(tmp_path: Path) -> None:
    header = gemini_recording()[0]
    messages = [gemini(f"m{n}", "user" if n % 2 else "gemini", f"message {n} " * 20, n % 60) for n in range(1000)]
    older = write_json(tmp_path, "session.json", {**header, "messages": messages}, indent=None)  # type: ignore[dict-item]
    lines = write(tmp_path, "session.jsonl", [header, *messages])
    assert older.stat().st_size > 128 * 1024 and lines.stat().st_size > 128 * 1024
    assert detect_format(older) == "gemini" and detect_format(lines) == "gemini"
    assert len(good(read_records(older))) == len(good(read_records(lines))) == 1000
