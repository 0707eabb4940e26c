"""Hostile and unlucky input (issue 31): timestamps at the edge of the calendar, absurd or binary
memtree.yaml settings, undecodable bytes in labels, and malformed or cyclic ChatGPT exports. Each
is refused or reported with a one-line error and a hint, or skipped; none is fatal or silent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import memtree

from compaction_tree.errors import BAD_INPUT, PARTIAL
from compaction_tree.model import FIRST_YEAR, LAST_YEAR
from compaction_tree.vault import Vault


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
