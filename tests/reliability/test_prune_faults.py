"""Prune under crashes and faults (issue 30): a `prune --apply` stopped at any durable side effect,
killed at a random time, or hit by an I/O error loses nothing that no summary covers, leaves every
summary as it was, and the next run finishes the job with the files an uninterrupted run gives."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import shutil
import subprocess
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from helpers import tally
from test_compaction import fill
from test_prune import chatter

from compaction_tree.compaction import compact
from compaction_tree.errors import MemtreeError
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.ingest import add
from compaction_tree.retention import ledger, prune
from compaction_tree.vault import Vault

from .conftest import NOW
from .faults import SLOW, FaultyIO, PowerCutModel, counting_checkpoints, installed, run_in_child, sample
from .invariants import check_idempotent, check_loads, files, raw_state
from .test_durability import hold_lock

SUMMARY_DIRS = ("daily/", "weekly/", "monthly/")


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        check=True,
        capture_output=True,
    )


def pruning(root: Path) -> Callable[[], None]:
    def run() -> None:
        prune(Vault.open(root), NOW, older_than_days=30, apply=True)

    return run


@pytest.fixture(scope="module")
def committed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], int]:
    """(a compacted vault committed to git, the files after one uninterrupted prune, its checkpoints)."""
    base = tmp_path_factory.mktemp("prune-faults")
    vault, _ = Vault.init(base / "template", "UTC")
    fill(vault, date(2026, 1, 26), 14, 4)  # two months: the ledger is two files
    chatter(vault, date(2026, 1, 26), 14, 16)
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    git(vault.root, "init", "-q")
    git(vault.root, "add", "-A")
    git(vault.root, "commit", "-qm", "memory")
    done = shutil.copytree(vault.root, base / "reference", symlinks=True)
    with counting_checkpoints() as labels:
        pruning(done)()
    assert sum(label.startswith("unlink ") for label in labels) > 10
    return vault.root, files(done), len(labels)


def check_covered(root: Path, template: Path) -> None:
    """Every chunk gone is in the ledger, and its day's summary (unchanged) cites it by id and hash."""
    vault = Vault.open(root)
    recorded = ledger(vault)
    before, after = files(template), files(root)
    for path in set(before) - set(after):
        assert path.startswith("raw/"), path  # nothing but chunks ever goes
        chunk = json.loads((template / path).read_text(encoding="utf-8"))
        entry = recorded[chunk["id"]]
        summary = (root / f"daily/{entry.day}.md").read_text(encoding="utf-8")
        assert chunk["id"] in summary and entry.sha256 in summary, path
    for path, sha in before.items():
        if path.startswith(SUMMARY_DIRS):
            assert after.get(path) == sha, path


def recover_and_compare(root: Path, template: Path, reference: dict[str, str]) -> None:
    check_loads(root)
    check_covered(root, template)
    pruning(root)()  # the next run finishes the job
    assert files(root) == reference, sorted(set(files(root).items()) ^ set(reference.items()))[:6]
    again = compact(Vault.open(root), ExtractiveSummarizer(Vault.open(root).config), NOW)
    assert (again.written, again.deleted) == ([], [])


def test_a_second_prune_changes_nothing(committed: tuple[Path, dict[str, str], int], tmp_path: Path) -> None:
    template, reference, _ = committed
    root = shutil.copytree(template, tmp_path / "twice", symlinks=True)
    pruning(root)()
    pruning(root)()
    assert files(root) == reference


def test_prune_stopped_at_every_durable_step_loses_nothing_and_the_next_run_finishes(
    committed: tuple[Path, dict[str, str], int], tmp_path: Path
) -> None:
    template, reference, count = committed
    for n in sample(list(range(1, count + 1)), every=1 if SLOW else 12):
        root = shutil.copytree(template, tmp_path / f"crash-{n}", symlinks=True)
        result = run_in_child(pruning(root), crash_at=n)
        assert result.crashed, (n, result)
        recover_and_compare(root, template, reference)
        tally("prune crash points swept (crash, check, re-run, byte-compare)")
        shutil.rmtree(root)


def test_prune_killed_at_random_times(committed: tuple[Path, dict[str, str], int], tmp_path: Path) -> None:
    template, reference, _ = committed
    rng = random.Random(30)
    for attempt in range(6 if SLOW else 2):
        root = shutil.copytree(template, tmp_path / f"kill-{attempt}", symlinks=True)
        run_in_child(pruning(root), kill_after=rng.uniform(0.2, 2.5))
        recover_and_compare(root, template, reference)
        shutil.rmtree(root)


@pytest.mark.parametrize("op", ["unlink", "replace"])
def test_an_io_error_mid_prune_loses_nothing_and_the_next_run_finishes(
    committed: tuple[Path, dict[str, str], int], tmp_path: Path, op: str
) -> None:
    template, reference, _ = committed
    root = shutil.copytree(template, tmp_path / "faulty", symlinks=True)
    raw = raw_state(root)
    with installed(FaultyIO(op, 2)) as io, pytest.raises(OSError):
        pruning(root)()
    assert io.fired == 1  # type: ignore[attr-defined]
    assert set(raw_state(root)) <= set(raw)
    recover_and_compare(root, template, reference)


class LedgerFirst(PowerCutModel):
    """A power cut model that checks, at every unlink of a chunk, that the ledger naming it is on disk."""

    def unlink(self, path: Path) -> None:
        parts = path.relative_to(self.root).parts
        if parts[0] == "raw":  # raw/YYYY/MM/DD/ID.json
            month = self.root / "pruned" / f"{parts[1]}-{parts[2]}.jsonl"
            assert self.survives(month) and f'"{path.stem}"' in month.read_text(encoding="utf-8"), path
        super().unlink(path)


def test_a_power_cut_mid_prune_finds_every_deleted_chunk_in_the_ledger_on_disk(
    committed: tuple[Path, dict[str, str], int], tmp_path: Path
) -> None:
    """The deletions are made durable once per folder, at the end: until then a power cut may bring a
    chunk back (the next run deletes it again), never lose one the ledger on disk does not name."""
    template, reference, _ = committed
    root = shutil.copytree(template, tmp_path / "power", symlinks=True)
    with installed(LedgerFirst(root)) as model:
        pruning(root)()
    gone = [Path(p) for p in set(files(template)) - set(files(root))]
    assert gone and all(p.name not in model.durable.get(root / p.parent, set()) for p in gone)  # type: ignore[attr-defined]
    folders = {str(p.parent) for p in gone}
    synced = [name for op, name in model.calls if op == "fsync_dir" and name in {Path(f).name for f in folders}]  # type: ignore[attr-defined]
    assert len(synced) <= len(folders) < len(gone)  # one fsync per folder, not one per chunk
    assert files(root) == reference


def _late_writer(root: str, worker: int, count: int) -> None:
    """Chunks on the pruned days (late arrivals) and on today, while prune runs."""
    vault = Vault.open(root)
    for i in range(count):
        day = 26 + i % 3 if i % 2 else 19
        month = 1 if i % 2 else 4
        add(
            vault,
            f"late note {worker}-{i} about the billing export",
            timestamp=f"2026-{month:02d}-{day:02d}T15:{i % 60:02d}:00Z",
        )


def test_writers_adding_beside_a_prune_lose_nothing_and_compaction_then_settles(
    committed: tuple[Path, dict[str, str], int], tmp_path: Path
) -> None:
    """Concurrency: `memtree add` takes no lock, so chunks arrive while prune plans and deletes. Prune
    deletes only what it planned (each covered by its unchanged summary); every chunk added stays; the
    late ones on sealed days are never summarized into them, and compaction then settles (I4)."""
    template, _, _ = committed
    root = shutil.copytree(template, tmp_path / "busy", symlinks=True)
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_late_writer, args=(str(root), w, 20)) for w in range(4)]
    for writer in writers:
        writer.start()
    pruning(root)()
    for writer in writers:
        writer.join(120)
        assert writer.exitcode == 0
    tally("prune: chunks added by 4 processes during a prune", 80)
    check_covered(root, template)
    added = set(raw_state(root)) - set(files(template))
    assert len(added) == 80  # none lost, none pruned
    vault = Vault.open(root)
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    check_idempotent(root, NOW)
    check_loads(root)


def test_a_prune_while_another_process_holds_the_lock_is_refused_and_changes_nothing(
    committed: tuple[Path, dict[str, str], int], tmp_path: Path
) -> None:
    template, _, _ = committed
    root = shutil.copytree(template, tmp_path / "locked", symlinks=True)
    before = files(root)
    pid = hold_lock(root)
    try:
        with pytest.raises(MemtreeError, match="holds the lock"):
            pruning(root)()
        assert files(root) == before
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    pruning(root)()  # once the lock is free
    assert len(files(root)) < len(before)
