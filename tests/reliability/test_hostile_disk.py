"""Issue 31, unlucky disks: a read-only vault, a full disk, an index another process keeps locked.

Reading commands answer from the files (the derived index is built in memory when its file cannot
be used); writing commands stop with one line and a hint; nothing stored is lost or changed. The
read-only and full cases use a real tmpfs (mounting needs root, as on these machines and in CI;
elsewhere they skip): a chmod does not stop root, and a faked errno would not test SQLite's own
behaviour on such a disk.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from compaction_tree import index as index_module
from compaction_tree.vault import Vault
from tests.helpers import memtree, snapshot

READING = (("status", "--json"), ("know", "postgres", "--json"), ("recall", "postgres", "--json"), ("context",))


@contextlib.contextmanager
def tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "none", str(where)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def compacted_vault(root: Path) -> Path:
    Vault.init(root, "UTC")
    for day in (2, 3, 4):
        text = f"We decided to keep Postgres as the main database, said on day {day}."
        assert memtree("--vault", str(root), "add", text, "--timestamp", f"2026-03-0{day}T10:00").code == 0
    assert memtree("--vault", str(root), "compact").code == 0
    return root


def assert_reading_commands_answer(root: Path) -> None:
    for command in READING:
        run = memtree("--vault", str(root), *command)
        assert run.code == 0, (command, run.stderr)
    assert memtree("--vault", str(root), "know", "postgres", "--json").json()["known"] is True
    assert memtree("--vault", str(root), "know", "kubernetes", "--json").json()["known"] is False
    recalled = memtree("--vault", str(root), "recall", "which database did we keep?", "--json").json()
    assert "Postgres" in recalled["context"]
    assert "Postgres" in memtree("--vault", str(root), "context").stdout


def assert_one_line_error(run_args: tuple[str, ...], root: Path, says: str) -> None:
    run = memtree("--vault", str(root), *run_args)
    assert run.code == 1, (run_args, run.stdout, run.stderr)
    assert run.stderr.count("\n") == 1 and says in run.stderr and "hint:" in run.stderr


@pytest.mark.parametrize("derived", ["kept", "never built"])
def test_a_read_only_vault_answers_and_refuses_writes_in_one_line(tmp_path: Path, derived: str) -> None:
    source = compacted_vault(tmp_path / "source")
    assert memtree("--vault", str(source), "status").code == 0  # builds .memtree/index.sqlite
    with tmpfs(tmp_path / "disk", "8m") as disk:
        root = disk / "vault"
        shutil.copytree(source, root)
        if derived == "never built":  # a fresh clone: no .memtree/ at all
            shutil.rmtree(root / ".memtree")
        before = snapshot(root, include_derived=True)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)

        assert_reading_commands_answer(root)
        assert memtree("--vault", str(root), "root").code == 0  # ROOT.md is current: nothing to write
        assert memtree("--vault", str(root), "facts", "--json").code == 0
        assert memtree("--vault", str(root), "doctor").code == 0
        for writing in (
            ("compact",),
            ("add", "one more"),
            ("forget", next(iter(sorted((root / "raw").rglob("*.json")))).stem),
        ):
            assert_one_line_error(writing, root, "Read-only file system")
        assert snapshot(root, include_derived=True) == before


def test_a_full_disk_answers_and_refuses_writes_in_one_line(tmp_path: Path) -> None:
    source = compacted_vault(tmp_path / "source")
    with tmpfs(tmp_path / "disk", "2m") as disk:
        root = disk / "vault"
        shutil.copytree(source, root)
        shutil.rmtree(root / ".memtree")
        for day in (5, 6):  # a day to compact, so that compaction has something to write
            assert (
                memtree(
                    "--vault",
                    str(root),
                    "add",
                    f"Moved Redis to a new host on day {day}.",
                    "--timestamp",
                    f"2026-03-0{day}T09:00",
                ).code
                == 0
            )
        chunks = snapshot(root / "raw")
        with open(disk / "filler", "wb") as filler, contextlib.suppress(OSError):  # fills the disk to the last block
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()

        assert_reading_commands_answer(root)
        assert_one_line_error(("compact",), root, "No space left on device")
        assert_one_line_error(("add", "one more"), root, "No space left on device")
        assert snapshot(root / "raw") == chunks
        assert not [p for p in root.rglob("*") if p.name.endswith(".tmp")]

        (disk / "filler").unlink()  # once there is room again, the same compaction goes through
        assert memtree("--vault", str(root), "compact").code == 0
        assert (root / "daily" / "2026-03-05.md").exists()


def test_an_index_locked_by_another_process_does_not_stall_reading_commands(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = compacted_vault(vault.root.parent / "locked")
    assert memtree("--vault", str(root), "status").code == 0
    holder = sqlite3.connect(root / ".memtree" / "index.sqlite", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # what a long sync in another process looks like
    monkeypatch.setattr(index_module, "BUSY_SECONDS", 0.2)
    try:
        assert_reading_commands_answer(root)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
