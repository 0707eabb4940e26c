"""The vault on disk: init, discovery, ids and paths, the create-only and atomic writers."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest
from helpers import memtree, snapshot

from compaction_tree import vault as vault_module
from compaction_tree.config import find_vault
from compaction_tree.errors import ConflictError, InvalidInputError, UnsafePathError
from compaction_tree.ingest import add
from compaction_tree.model import Chunk, valid_id
from compaction_tree.vault import Vault, atomic_write, create_only, read_chunk_file

# ---------------------------------------------------------------- init


def test_init_creates_the_vault_and_twice_changes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "v"
    first = memtree("--vault", str(root), "init", "--timezone", "Europe/Paris", "--json")
    assert first.code == 0
    assert sorted(first.json()["created"]) == [".gitignore", ".memtree/", "memtree.yaml", "raw/"]
    assert "timezone: Europe/Paris" in (root / "memtree.yaml").read_text()
    assert (root / ".gitignore").read_text() == ".memtree/\n.*.tmp\n"
    before = snapshot(root, include_derived=True)
    second = memtree("--vault", str(root), "init", "--json")
    assert second.code == 0 and second.json()["created"] == []
    assert snapshot(root, include_derived=True) == before  # not a byte, not even under .memtree/


def test_init_twice_in_a_git_repository_changes_nothing_either(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("node_modules/\n")
    assert memtree("--vault", str(tmp_path / "memory"), "init").code == 0
    assert memtree("--vault", str(tmp_path), "init").code == 0
    before = snapshot(tmp_path, include_derived=True)
    mtimes = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if ".git" not in p.parts}
    for target in (tmp_path / "memory", tmp_path):
        again = memtree("--vault", str(target), "init")
        assert again.code == 0 and "nothing changed" in again.stdout
    assert snapshot(tmp_path, include_derived=True) == before
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if ".git" not in p.parts} == mtimes


def test_init_keeps_an_existing_gitignore_and_works_in_a_git_repository(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("node_modules/\n*.log\n")
    assert memtree("--vault", str(tmp_path), "init").code == 0
    assert (tmp_path / ".gitignore").read_text() == "node_modules/\n*.log\n.memtree/\n.*.tmp\n"
    assert memtree("--vault", str(tmp_path), "status").code == 0  # builds the derived index under .memtree/
    status = subprocess.run(
        ["git", "-C", str(tmp_path), "status", "--porcelain", "--ignored"], capture_output=True, text=True, check=True
    ).stdout
    assert "!! .memtree/" in status  # derived state stays out of git


def test_init_refuses_an_unknown_time_zone(tmp_path: Path) -> None:
    result = memtree("--vault", str(tmp_path / "v"), "init", "--timezone", "Mars/Olympus")
    assert result.code == 4 and "unknown time zone" in result.stderr and "hint:" in result.stderr
    assert not (tmp_path / "v" / "memtree.yaml").exists()


# ---------------------------------------------------------------- discovery


def test_discovery_order_flag_then_env_then_upward(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b, c = (Vault.init(tmp_path / name, "UTC")[0].root for name in "abc")
    nested = c / "notes" / "deep"
    nested.mkdir(parents=True)
    assert find_vault(None, env={}, cwd=nested) == c
    assert find_vault(None, env={"MEMTREE_VAULT": str(b)}, cwd=nested) == b
    assert find_vault(a, env={"MEMTREE_VAULT": str(b)}, cwd=nested) == a


def test_no_vault_is_one_clear_line_with_a_hint_and_exit_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = memtree("add", "hello")
    assert result.code == 3
    assert result.stderr.count("\n") == 1 and "hint:" in result.stderr and "memtree init" in result.stderr
    monkeypatch.setenv("MEMTREE_VAULT", str(tmp_path / "missing"))
    result = memtree("status")
    assert result.code == 3 and "MEMTREE_VAULT" in result.stderr


def test_broken_config_is_reported_not_a_crash(vault: Vault) -> None:
    (vault.root / "memtree.yaml").write_text("summarizer: [unclosed\n")
    result = memtree("--vault", str(vault.root), "status")
    assert result.code == 4 and "not valid YAML" in result.stderr


def test_the_config_cache_follows_edits(vault: Vault) -> None:
    assert Vault.open(vault.root).config.budgets.root == 3000
    text = (vault.root / "memtree.yaml").read_text().replace("root: 3000", "root: 2500")
    (vault.root / "memtree.yaml").write_text(text)
    assert Vault.open(vault.root).config.budgets.root == 2500


# ---------------------------------------------------------------- ids and paths

BAD_IDS = [
    "../x",
    "..",
    ".",
    "a/b",
    "a\\b",
    "C:\\x",
    "/etc/passwd",
    "x\x00y",
    "a" * 65,
    "a" * 300,
    " ",
    "CON",
    "nul",
    "Com1",
    "lpt9",
    "%2e%2e%2f",
    "café",
    "a.b",
    "id with space",
    "／",
]


@pytest.mark.parametrize("bad", BAD_IDS)
def test_bad_ids_are_rejected_and_nothing_is_written(vault: Vault, bad: str) -> None:
    assert not valid_id(bad)
    with pytest.raises(InvalidInputError) as caught:
        add(vault, "some text", id=bad, timestamp="2026-03-15T10:00:00Z")
    why = "reserved device name" if bad.lower() in ("con", "nul", "com1", "lpt9") else "ids are 1-64 characters"
    assert why in caught.value.message and caught.value.hint
    assert not list((vault.root / "raw").rglob("*"))


def test_good_ids_are_kept(vault: Vault) -> None:
    for good in ["a", "A-b_9", "x" * 64, "conv-26-D1-3", "CONSOLE", "con1"]:
        assert valid_id(good), good
        result = add(vault, f"text for {good}", id=good, timestamp="2026-03-15T10:00:00Z")
        assert result.path == f"raw/2026/03/15/{good}.json"


def test_ids_are_derived_from_content_so_adding_twice_is_a_no_op(vault: Vault) -> None:
    first = add(vault, "We chose Postgres 16.", timestamp="2026-03-15T10:00:00+01:00", speaker="user")
    again = add(vault, "We chose Postgres 16.", timestamp="2026-03-15T09:00:00Z", speaker="user")  # the same instant
    other = add(vault, "We chose Postgres 16.", timestamp="2026-03-15T10:00:00+01:00", speaker="assistant")
    assert first.created and not again.created and again.id == first.id
    assert other.id != first.id
    assert len(list(vault.raw_files())) == 2


def test_an_id_taken_by_other_content_is_a_conflict_and_never_overwritten(vault: Vault) -> None:
    add(vault, "original", id="fixed", timestamp="2026-03-15T10:00:00Z")
    path = vault.root / "raw/2026/03/15/fixed.json"
    before = path.read_bytes()
    with pytest.raises(ConflictError):
        add(vault, "replacement", id="fixed", timestamp="2026-03-15T10:00:00Z")
    assert path.read_bytes() == before
    result = memtree(
        "--vault", str(vault.root), "add", "replacement", "--id", "fixed", "--timestamp", "2026-03-15T10:00:00Z"
    )
    assert result.code == 5 and "already exists" in result.stderr


def test_an_id_taken_by_a_torn_file_is_never_overwritten_and_the_hint_says_so(vault: Vault) -> None:
    """A power cut in a bulk import (no fsync per chunk) can leave a chunk's file empty or cut short:
    adding the chunk again must not hide that as "other topics", nor overwrite what is there."""
    args = ("--vault", str(vault.root), "add", "We chose Postgres.", "--timestamp", "2026-03-15T10:00:00Z")
    chunk_id = memtree(*args).stdout.strip()
    path = vault.root / f"raw/2026/03/15/{chunk_id}.json"
    torn = path.read_bytes()[:20]
    path.write_bytes(torn)
    again = memtree(*args)
    assert again.code == 5 and again.stderr.count("\n") == 1
    assert "unreadable file" in again.stderr and "memtree doctor" in again.stderr
    assert path.read_bytes() == torn


def test_the_same_chunk_with_other_topics_is_a_conflict_with_a_hint_that_fits(vault: Vault) -> None:
    """A derived id covers time, speaker, text, session and source: re-adding the same words with
    another topic names the same id, so the hint must not say "leave --id out" (it was left out)."""
    args = ("--vault", str(vault.root), "add", "We chose Postgres.", "--timestamp", "2026-03-15T10:00:00Z")
    first = memtree(*args, "--topic", "database")
    assert first.code == 0 and memtree(*args, "--topic", "database").code == 0  # the same chunk: a no-op
    other = memtree(*args, "--topic", "postgres")
    assert other.code == 5 and other.stderr.count("\n") == 1
    assert "other topics or importance" in other.stderr and "pass --id" in other.stderr
    assert json.loads((vault.root / f"raw/2026/03/15/{first.stdout.strip()}.json").read_text())["topics"] == [
        "database"
    ]


def test_a_reserved_device_name_is_rejected_for_what_it_is(vault: Vault) -> None:
    result = memtree("--vault", str(vault.root), "add", "x", "--id", "CON")
    assert result.code == 4 and "reserved device name" in result.stderr


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("2026-03-15T10:00:00Z", "2026-03-15T10:00:00+00:00"),
        ("2026-03-15T10:00:00", "2026-03-15T10:00:00+01:00"),  # naive: the vault's zone (Paris, winter)
        ("2026-07-15T10:00:00", "2026-07-15T10:00:00+02:00"),  # ... in summer
        ("2026-03-15", "2026-03-15T00:00:00+01:00"),
        ("2026-03-15T10:00:00.123456-05:00", "2026-03-15T10:00:00.123456-05:00"),
        ("2026-03-15 10:00", "2026-03-15T10:00:00+01:00"),
        ("20260315T100000Z", "2026-03-15T10:00:00+00:00"),  # the basic format
        ("2026-074", "2026-03-15T00:00:00+01:00"),  # an ordinal date: day 74
        ("2026074T10:00Z", "2026-03-15T10:00:00+00:00"),
        ("2026-03-14T24:00", "2026-03-15T00:00:00+01:00"),  # 24:00 ends the day
        ("2026-12-31T24:00:00Z", "2027-01-01T00:00:00+00:00"),
    ],
)
def test_timestamps_any_iso_8601_naive_in_the_vault_zone(tmp_path: Path, given: str, stored: str) -> None:
    paris, _ = Vault.init(tmp_path / "v", "Europe/Paris")
    result = add(paris, "hello", timestamp=given)
    data = json.loads((paris.root / result.path).read_text())
    assert data["timestamp"] == stored


def test_the_day_folder_is_the_local_day(tmp_path: Path) -> None:
    tokyo, _ = Vault.init(tmp_path / "v", "Asia/Tokyo")
    result = add(tokyo, "late in UTC, next morning in Tokyo", timestamp="2026-03-15T23:30:00Z")
    assert result.path.startswith("raw/2026/03/16/")


@pytest.mark.parametrize(
    "bad", ["yesterday", "2026-13-01", "15/03/2026", "2026-03-15T25:00", "2026-366", "2026-000", "2026-03-15T24:30"]
)
def test_bad_timestamps_are_one_line_errors(vault: Vault, bad: str) -> None:
    result = memtree("--vault", str(vault.root), "add", "hello", "--timestamp", bad)
    assert result.code == 4 and "ISO 8601" in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["   "], "empty"),
        (["x", "--importance", "1.5"], "importance"),
        (["x", "--speaker", ""], "speaker"),
        (["x", "--topic", "a\nb"], "topic"),
        (["x", "--session", "s" * 300], "session"),
    ],
)
def test_bad_fields_are_rejected(vault: Vault, args: list[str], message: str) -> None:
    result = memtree("--vault", str(vault.root), "add", *args)
    assert result.code == 4 and message in result.stderr
    assert list(vault.raw_files()) == []


def test_a_nul_byte_in_text_is_rejected(vault: Vault) -> None:
    with pytest.raises(InvalidInputError):
        add(vault, "binary\x00junk")


def test_symlinked_raw_folder_pointing_outside_is_refused(vault: Vault, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (vault.root / "raw").rmdir()
    (vault.root / "raw").symlink_to(outside)
    with pytest.raises(UnsafePathError):
        add(vault, "must not land outside", timestamp="2026-03-15T10:00:00Z")
    assert list(outside.rglob("*.json")) == []


def test_symlinked_summary_target_is_refused(vault: Vault, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (vault.root / "daily").mkdir()
    (vault.root / "daily" / "2026-03-15.md").symlink_to(victim)
    with pytest.raises(UnsafePathError):
        vault.write("daily/2026-03-15.md", b"overwritten?")
    assert victim.read_text() == "precious"


# ---------------------------------------------------------------- writers


def test_atomic_write_replaces_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "f.md"
    atomic_write(target, b"one")
    atomic_write(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["f.md"]


def test_atomic_write_failure_leaves_the_old_bytes_and_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "f.md"
    atomic_write(target, b"old")

    def broken(*args: object) -> None:
        raise OSError(5, "injected I/O error")

    monkeypatch.setattr(vault_module.io, "fsync", broken)
    with pytest.raises(OSError):
        atomic_write(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.md"]


def test_create_only_never_clobbers(tmp_path: Path) -> None:
    target = tmp_path / "c.json"
    assert create_only(target, b"first")
    assert not create_only(target, b"second")
    assert target.read_bytes() == b"first"
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]


def _racer(root: str, text: str, start: object, results: object) -> None:
    vault = Vault.open(root)
    chunk = Chunk("same-id", datetime(2026, 3, 15, 10, tzinfo=timezone.utc), "user", text)
    start.wait()  # type: ignore[attr-defined]
    try:
        outcome = "created" if vault.store_chunk(chunk) else "existing"
    except ConflictError:
        outcome = "conflict"
    results.put((text, outcome))  # type: ignore[attr-defined]


@pytest.mark.parametrize("trial", range(10))
def test_two_processes_adding_the_same_id_exactly_one_wins(vault: Vault, trial: int) -> None:
    context = multiprocessing.get_context("fork")
    start, results = context.Barrier(2), context.Queue()
    workers = [context.Process(target=_racer, args=(str(vault.root), f"writer {n}", start, results)) for n in (1, 2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(10)
    outcomes = dict(results.get(timeout=5) for _ in workers)
    assert sorted(outcomes.values()) == ["conflict", "created"]
    winner = next(text for text, outcome in outcomes.items() if outcome == "created")
    files = list((vault.root / "raw").rglob("*.json"))
    assert len(files) == 1 and read_chunk_file(files[0]).text == winner
    assert not [p for p in (vault.root / "raw").rglob(".*")]


def test_loaders_never_list_temp_files(vault: Vault) -> None:
    add(vault, "real", timestamp="2026-03-15T10:00:00Z")
    folder = vault.root / "raw/2026/03/15"
    (folder / ".x.json.123.abcd.tmp").write_text("{half")
    assert [f.id for f in vault.raw_files()] == [next(iter(vault.raw_files())).id]
    assert len(list(vault.raw_files())) == 1


def test_the_sweeper_removes_only_old_temps(vault: Vault) -> None:
    folder = vault.root / "raw/2026/03/15"
    folder.mkdir(parents=True)
    old, young = folder / ".a.json.1.aaaa.tmp", folder / ".b.json.1.bbbb.tmp"
    old.write_text("x")
    young.write_text("x")
    past = old.stat().st_mtime - 11 * 60
    os.utime(old, (past, past))
    assert vault.sweep_temps() == 1
    assert not old.exists() and young.exists()


def test_a_chunk_file_with_a_bom_is_read(vault: Vault) -> None:
    result = add(vault, "written by an editor that adds a BOM", timestamp="2026-03-15T10:00:00Z")
    path = vault.root / result.path
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert read_chunk_file(path).text == "written by an editor that adds a BOM"


def test_terminal_control_sequences_are_stripped_on_the_way_in(vault: Vault) -> None:
    result = add(vault, "plain \x1b[2J\x1b[31mred\x07 text\ttabbed\nnext line", timestamp="2026-03-15T10:00:00Z")
    assert json.loads((vault.root / result.path).read_text())["text"] == "plain [2J[31mred text\ttabbed\nnext line"
