"""Hostile and unlucky input (issue 31): timestamps at the edge of the calendar, absurd or binary
memtree.yaml settings, undecodable bytes in labels, and malformed or cyclic ChatGPT exports. Each
is refused or reported with a one-line error and a hint, or skipped; none is fatal or silent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import memtree

from compaction_tree.errors import BAD_INPUT, PARTIAL, ConfigError
from compaction_tree.model import FIRST_YEAR, LAST_YEAR
from compaction_tree.tokens import APPROXIMATE
from compaction_tree.vault import CONFIG_CACHE, Vault


def one_line_error(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("memtree: error: ") and "(hint: " in lines[0], stderr
    return lines[0]


def hand_written_chunk(vault: Vault, folder: str, chunk_id: str, timestamp: str, text: str = "from afar") -> str:
    """A chunk as an older memtree (or a hand edit) left it: no check of its timestamp."""
    path = vault.root / "raw" / folder / f"{chunk_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"id": chunk_id, "timestamp": timestamp, "speaker": "user", "text": f"{text} {chunk_id}"}
    path.write_text(json.dumps(record))
    return f"raw/{folder}/{chunk_id}.json"


# ---------------------------------------------------------------- timestamps


EDGES = [
    "9999-12-31T23:59:59",
    "0001-01-01T00:00",
    "9999-12-31T24:00",  # the day after the last one: overflowed while parsing
    "0001-01-01T00:00+23:59",  # an extreme offset at the edge: a traceback from `add`
    "9999-12-31T23:59:59-23:59",
    f"{FIRST_YEAR - 1}-12-31T23:59",
    f"{LAST_YEAR + 1}-01-01",
    f"{LAST_YEAR}-12-31T23:00-05:00",  # next year in the vault's zone (UTC)
    "2026-03-02T10:00+15:00",  # no zone is 15 hours from UTC
    "2026-03-02T10:00-23:59",
]


@pytest.mark.parametrize("timestamp", EDGES)
def test_add_refuses_a_timestamp_outside_the_calendar(vault: Vault, timestamp: str) -> None:
    run = memtree("--vault", str(vault.root), "add", "a turn", "--timestamp", timestamp)
    assert run.code == BAD_INPUT
    assert "timestamp" in one_line_error(run.stderr)
    assert not (vault.root / "raw").exists() or not any((vault.root / "raw").rglob("*.json"))


def test_add_keeps_the_calendar_edges(vault: Vault) -> None:
    for timestamp in (f"{FIRST_YEAR}-01-01T00:00", f"{LAST_YEAR}-12-31T23:59:59", "2026-03-02T10:00+14:00"):
        run = memtree("--vault", str(vault.root), "add", f"at {timestamp}", "--timestamp", timestamp)
        assert run.code == 0, run.stderr
    run = memtree("--vault", str(vault.root), "add", "too late", "--timestamp", f"{LAST_YEAR + 1}-01-01")
    assert run.code == BAD_INPUT


def test_import_reports_out_of_range_records_by_position(vault: Vault, tmp_path: Path) -> None:
    lines = [
        {"timestamp": "2026-03-02T10:00:00+00:00", "speaker": "user", "text": "kept"},
        {"timestamp": "9999-12-31T23:59:59+00:00", "speaker": "user", "text": "far future"},
        {"timestamp": "0001-01-01T00:00:00+23:59", "speaker": "user", "text": "far past, far east"},
        {"timestamp": "2026-03-02T11:00:00+00:00", "speaker": "user", "text": "kept too"},
    ]
    export = tmp_path / "chats.jsonl"
    export.write_text("".join(json.dumps(line) + "\n" for line in lines))
    run = memtree("--vault", str(vault.root), "import", str(export), "--json")
    assert run.code == PARTIAL
    report = run.json()
    assert (report["added"], report["failed"]) == (2, 2)
    assert [e["position"] for e in report["errors"]] == ["line 2", "line 3"]
    assert all("timestamp" in e["reason"] for e in report["errors"])


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_a_vault_holding_out_of_range_chunks_keeps_working(tmp_path: Path, zone: str) -> None:
    """Chunks an older version accepted: compact, forget, status, recall and ROOT.md skip them, doctor
    names them. They used to stop compaction for good ("not a month key: '1-01'", OverflowError)."""
    vault, _ = Vault.init(tmp_path / "vault", zone)
    far = {
        "far9999": hand_written_chunk(vault, "9999/12/31", "far9999", "9999-12-31T23:59:59+00:00"),
        "far0001": hand_written_chunk(vault, "0001/01/01", "far0001", "0001-01-01T00:00:00+00:00"),
        "faroffset": hand_written_chunk(vault, "0001/01/01", "faroffset", "0001-01-01T00:00:00+23:59"),
    }
    where = str(vault.root)
    for text in ("We deploy on Fly.io now.", "The staging DNS still points at Heroku."):
        assert memtree("--vault", where, "add", text, "--timestamp", "2026-03-02T10:00").code == 0
    assert memtree("--vault", where, "add", "Keep this one.", "--timestamp", "2026-03-03T10:00").code == 0

    run = memtree("--vault", where, "compact", "--json")
    assert run.code == 0, run.stderr
    assert "daily/2026-03-02.md" in run.json()["written"]
    root = (vault.root / "ROOT.md").read_text()
    assert "9999" not in root and "0001-01-01" not in root and "as of 2026-03-03" in root

    status = memtree("--vault", where, "status", "--json")
    assert status.code == 0
    assert status.json()["chunks"] == 3 and status.json()["last"].startswith("2026-03-0")
    assert memtree("--vault", where, "recall", "from afar").code == 0

    doctor = memtree("--vault", where, "doctor", "--json")
    flagged = {p["path"]: p for p in doctor.json()["problems"]}
    assert set(flagged) == set(far.values())
    assert all(p["kind"] == "out-of-range" and "hint:" in p["message"] for p in flagged.values())

    fly = next(p.stem for p in (vault.root / "raw/2026/03/02").glob("*.json"))
    assert memtree("--vault", where, "forget", fly).code == 0  # a normal chunk, beside the far ones
    assert memtree("--vault", where, "forget", "far9999").code == 0  # and a far one itself
    assert not (vault.root / far["far9999"]).exists() and (vault.root / far["far0001"]).exists()
    assert memtree("--vault", where, "compact").code == 0


def test_summaries_and_day_folders_outside_the_calendar_are_reported_not_fatal(vault: Vault) -> None:
    where = str(vault.root)
    assert memtree("--vault", where, "add", "A normal day.", "--timestamp", "2026-03-02T10:00").code == 0
    (vault.root / "weekly").mkdir(exist_ok=True)
    (vault.root / "weekly/9999-W52.md").write_text("---\nlevel: weekly\n---\n")  # its Sunday is in year 10000
    (vault.root / "daily").mkdir(exist_ok=True)
    (vault.root / "daily/0001-01-01.md").write_text("---\nlevel: daily\n---\n")
    hand_written_chunk(vault, "2026/13/45", "nosuchday", "2026-03-02T11:00:00+00:00")  # a folder no day names
    for command in (["compact"], ["status"], ["root"], ["recall", "normal day"], ["know", "normal"]):
        run = memtree("--vault", where, *command)
        assert run.code == 0, (command, run.stderr)
    kinds = {p["path"]: p["kind"] for p in memtree("--vault", where, "doctor", "--json").json()["problems"]}
    assert kinds == {
        "weekly/9999-W52.md": "summary",
        "daily/0001-01-01.md": "summary",
        "raw/2026/13/45/nosuchday.json": "misplaced",
    }


# ---------------------------------------------------------------- memtree.yaml


def with_config(vault: Vault, text: str | bytes) -> Any:
    path = vault.root / "memtree.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return memtree("--vault", str(vault.root), "status")


@pytest.mark.parametrize(
    "setting",
    [
        "tokenizer: nonsense",
        "tokenizer: gpt-4o",  # a model, not an encoding
        "budgets:\n  weekly: 1000000000000",
        "budgets:\n  root: 100001",
        "budgets:\n  recall: 1000001",
        "settle_hours: .nan",
        "settle_hours: 1.0e+30",
        "summarizer:\n  timeout: .inf",
    ],
)
def test_absurd_settings_are_refused_with_the_config_code(vault: Vault, setting: str) -> None:
    run = with_config(vault, f"timezone: UTC\n{setting}\n")
    assert run.code == BAD_INPUT
    assert "memtree.yaml" in one_line_error(run.stderr)


def test_the_bounds_are_kept_and_one_step_beyond_is_refused(vault: Vault) -> None:
    bounds = "budgets:\n  root: 100000\n  daily: 50\n  recall: 1000000\ntokenizer: cl100k_base\nsettle_hours: 8784\n"
    assert with_config(vault, "timezone: UTC\n" + bounds).code == 0
    assert with_config(vault, f"timezone: UTC\ntokenizer: {APPROXIMATE}\n").code == 0
    beyond = ("budgets:\n  root: 49", "budgets:\n  daily: 0", "budgets:\n  monthly: 100001", "settle_hours: 8785")
    for setting in beyond:
        assert with_config(vault, f"timezone: UTC\n{setting}\n").code == BAD_INPUT, setting


def test_a_binary_memtree_yaml_exits_with_the_config_code(vault: Vault) -> None:
    for content in (b"timezone: UTC\nbudgets:\n  root: 3000 \xff\xfe\n", b"\x00\x01\x02binary", b"timezone: UTC\x00\n"):
        run = with_config(vault, content)
        assert run.code == BAD_INPUT, content  # not 3 ("no vault"): the vault is there, its settings are unreadable
        assert "memtree.yaml" in one_line_error(run.stderr)


def test_a_config_cached_under_older_rules_is_checked_again(vault: Vault) -> None:
    """The parsed-config cache (for `add`) is keyed by the file's stamp; a setting an older version let
    through must not live on in it."""
    path = vault.root / "memtree.yaml"
    path.write_text("timezone: UTC\ntokenizer: nonsense\n")
    st = path.stat()
    config = json.loads((vault.root / CONFIG_CACHE).read_text())["config"]
    stamp = [st.st_mtime_ns, st.st_size, st.st_ino]  # as an older version wrote it
    (vault.root / CONFIG_CACHE).write_text(json.dumps({"stamp": stamp, "config": {**config, "tokenizer": "nonsense"}}))
    with pytest.raises(ConfigError, match="tokenizer"):
        Vault.open(vault.root)


# ---------------------------------------------------------------- undecodable bytes


LABEL_OPTIONS = ("--speaker", "--topic", "--session", "--source")


def run_with_bytes(vault: Vault, *argv: bytes | str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """The real CLI in a child process, so raw bytes reach it as the shell passes them (surrogate escapes)."""
    return subprocess.run(
        [sys.executable, "-m", "compaction_tree", "--vault", str(vault.root), *argv],
        input=stdin,
        capture_output=True,
        timeout=60,
        env={**os.environ, "LC_ALL": "C.UTF-8"},
    )


def test_undecodable_bytes_anywhere_in_add_are_refused_in_one_line(vault: Vault) -> None:
    latin1 = b"caf\xe9 \xff\xfe"
    runs = {
        **{option: run_with_bytes(vault, "add", "a turn", option, latin1) for option in LABEL_OPTIONS},
        "the text": run_with_bytes(vault, "add", latin1),
        "the text on stdin": run_with_bytes(vault, "add", "-", stdin=latin1),
    }
    for what, done in runs.items():
        assert done.returncode == BAD_INPUT, what
        line = one_line_error(done.stderr.decode("utf-8", "replace"))
        assert what.lstrip("-").removesuffix(" on stdin") in line and "UTF-8" in line
    assert not (vault.root / "raw").exists() or not any((vault.root / "raw").rglob("*.json"))


def test_lone_surrogates_in_imported_labels_fail_their_record(vault: Vault, tmp_path: Path) -> None:
    export = tmp_path / "chats.jsonl"
    good = '{"timestamp": "2026-03-02T10:00:00Z", "speaker": "user", "text": "kept"}\n'
    export.write_text(
        good
        + '{"timestamp": "2026-03-02T10:01:00Z", "speaker": "us\\udcffer", "text": "bad speaker"}\n'
        + '{"timestamp": "2026-03-02T10:02:00Z", "speaker": "user", "text": "bad topic", "topics": ["\\ud800"]}\n'
        + '{"timestamp": "2026-03-02T10:03:00Z", "speaker": "user", "text": "bad session", "session": "\\udfff"}\n'
    )
    run = memtree("--vault", str(vault.root), "import", str(export), "--json")
    assert run.code == PARTIAL
    assert (run.json()["added"], [e["position"] for e in run.json()["errors"]]) == (1, ["line 2", "line 3", "line 4"])


# ---------------------------------------------------------------- ChatGPT exports


def message_node(node_id: str, parent: Any, children: Any, text: str = "", role: str = "user") -> dict[str, Any]:
    message = {
        "id": f"msg-{node_id}",
        "author": {"role": role},
        "create_time": 1712345679.0,
        "content": {"content_type": "text", "parts": [text or f"message {node_id}"]},
    }
    return {"id": node_id, "message": message, "parent": parent, "children": children}


def conversation(*nodes: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"id": f"conv-{len(nodes)}", "create_time": 1712345600.0, "mapping": {n["id"]: n for n in nodes}, **extra}


GOOD = conversation(message_node("r", None, ["a"]), message_node("a", "r", [], "The deploy target is Fly.io."))
BROKEN = {
    "parent cycle, no current_node": conversation(message_node("p", "q", ["q"]), message_node("q", "p", ["p"])),
    "parent cycle from current_node": conversation(
        message_node("p", "q", []), message_node("q", "p", ["p"]), current_node="p"
    ),
    "self parent": conversation(message_node("s", "s", []), current_node="s"),
    "children cycle": conversation(
        message_node("r", None, ["a"]), message_node("a", "r", ["b"]), message_node("b", "a", ["a"])
    ),
    "current_node missing": conversation(message_node("r", None, []), current_node="gone"),
    "current_node not a string": conversation(message_node("r", None, []), current_node=["r"]),
}
NOT_A_MAPPING = [{"id": "conv-l", "mapping": [message_node("r", None, [])]}, {"id": "conv-s", "mapping": "r"}]


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_malformed_chatgpt_conversation_is_reported_by_position(vault: Vault, tmp_path: Path, case: str) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([GOOD, BROKEN[case]]))
    run = memtree("--vault", str(vault.root), "import", str(export), "--format", "chatgpt", "--json")
    assert run.code == PARTIAL
    report = run.json()
    assert report["added"] == 2  # both messages of GOOD
    assert [e["position"] for e in report["errors"]] == ["conversation 2"]


def test_an_export_of_only_broken_conversations_says_nothing_could_be_imported(vault: Vault, tmp_path: Path) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([*BROKEN.values(), *NOT_A_MAPPING]))
    run = memtree("--vault", str(vault.root), "import", str(export), "--format", "chatgpt")
    assert run.code == PARTIAL
    assert run.stderr.count("memtree: skipped conversation") == len(BROKEN) + len(NOT_A_MAPPING)
    assert "nothing in" in run.stderr and "could be imported" in run.stderr


def test_hostile_chatgpt_links_never_crash_or_hang(vault: Vault, tmp_path: Path) -> None:
    """Links of the wrong type (a list as a parent, a number as children) and a 50,000-node ring."""
    ring = [message_node(f"n{i}", f"n{(i - 1) % 50_000}", [f"n{(i + 1) % 50_000}"]) for i in range(50_000)]
    odd = [
        conversation(message_node("r", ["x"], 5)),
        conversation(message_node("r", None, {"a": 1}), message_node("a", {"r": 1}, [["r"]])),
        conversation(message_node("r", None, "ab"), message_node("a", "r", [None, 3.5])),
        conversation(*ring),
    ]
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([GOOD, *odd]))
    run = memtree("--vault", str(vault.root), "import", str(export), "--format", "chatgpt", "--json")
    assert run.json()["added"] >= 1
    assert "conversation 5" in {e["position"] for e in run.json()["errors"]}  # the ring has no root
