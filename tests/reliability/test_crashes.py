"""Crashes and faults (docs/RELIABILITY.md C1-C4): a compaction stopped at every durable side effect,
killed at random times, or hit by I/O errors, always leaves a vault that loads, and a clean re-run
gives the same files, byte for byte, as a run that was never interrupted."""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from helpers import memtree, tally
from test_compaction import fill

from compaction_tree.compaction import compact
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.ingest import add
from compaction_tree.vault import Vault

from .conftest import NOW, Fixture
from .faults import (
    SLOW,
    CountingSummarizer,
    FaultyIO,
    SpyIO,
    counting_checkpoints,
    installed,
    run_in_child,
    sample,
    slow_only,
)
from .invariants import check_all, check_idempotent, check_loads, files, raw_state, temp_files


def compaction(root: Path, latency: tuple[float, float] | None = None, seed: int = 0) -> Callable[[], None]:
    def run() -> None:
        vault = Vault.open(root)
        summarizer = CountingSummarizer(vault.config, latency=latency, seed=seed) if latency else None
        compact(vault, summarizer or ExtractiveSummarizer(vault.config), NOW)

    return run


def recover_and_compare(
    root: Path, raw: dict[str, str], reference: dict[str, str], gone: frozenset[str] = frozenset()
) -> None:
    """After a crash: the vault loads (I1-I3); a clean run gives the reference files and is a fixed point (I4)."""
    check_all(root, raw, gone)
    compaction(root)()
    check_all(root, raw)
    assert files(root) == reference, sorted(set(files(root).items()) ^ set(reference.items()))[:6]
    check_idempotent(root, NOW)
    # what the crash left behind is a young temp file at most: kept (a live writer may own it), swept once old
    vault = Vault.open(root)
    assert vault.sweep_temps() == 0
    vault.sweep_temps(now=time.time() + 11 * 60)
    assert temp_files(root) == []


# ---------------------------------------------------------------- C1: every crash point


def crash_point(fixture: Fixture, tmp_path: Path, n: int) -> None:
    root = fixture.copy(tmp_path / f"crash-{n}")
    raw = raw_state(root)
    result = run_in_child(compaction(root), crash_at=n)
    assert result.crashed, (n, result)
    recover_and_compare(root, raw, fixture.reference, fixture.gone)
    tally("C1 crash points swept (crash, load, clean re-run, byte-compare)")
    shutil.rmtree(root)


def test_c1_the_fixture_has_a_crash_point_at_every_durable_write(month: Fixture) -> None:
    # 30 daily + 5 weekly + 2 monthly... + facts + ROOT.md + the config cache of a fresh copy
    assert month.checkpoints >= 38


def test_c1_sampled_crash_points(month: Fixture, tmp_path: Path) -> None:
    points = sample(list(range(1, month.checkpoints + 1)), every=10)
    for n in points:
        crash_point(month, tmp_path, n)


@slow_only
def test_c1_every_crash_point(month: Fixture, tmp_path: Path) -> None:
    for n in range(1, month.checkpoints + 1):
        crash_point(month, tmp_path, n)


@pytest.fixture(scope="module")
def incremental(month: Fixture, tmp_path_factory: pytest.TempPathFactory) -> tuple[Fixture, int]:
    """The month, compacted, then hand-changed: two late chunks and one day's chunks deleted."""
    base = tmp_path_factory.mktemp("incremental")
    root = month.copy(base / "template")
    compaction(root)()
    vault = Vault.open(root)
    add(vault, "Late: we decided to pin Postgres 16.2 for the billing page.", timestamp="2026-02-11T18:00:00Z")
    add(vault, "Late: a Sunday note on GitHub Actions caching.", timestamp="2026-02-08T20:00:00Z")
    gone = set()
    for file in list(vault.raw_files()):
        if file.day == "2026-02-24":
            file.path.unlink()
            gone.add(file.id)
    done = shutil.copytree(root, base / "reference")
    with counting_checkpoints() as labels:
        compaction(done)()
    assert any(label.startswith("unlink ") for label in labels)
    return Fixture(root, files(done), len(labels), frozenset(gone)), len(labels)


def test_c1_crash_points_of_an_incremental_run(incremental: tuple[Fixture, int], tmp_path: Path) -> None:
    fixture, count = incremental
    for n in sample(list(range(1, count + 1)), every=1 if SLOW else 3):
        crash_point(fixture, tmp_path, n)


def test_c1_crash_points_when_a_whole_week_loses_its_chunks(tmp_path: Path) -> None:
    """Found by the state machine (C5, slow profile): when a week's every chunk is gone, its daily and
    weekly summaries both cover nothing. Deleting the day before the week left, at a crash in between,
    a weekly summary citing a missing day (I2)."""
    vault, _ = Vault.init(tmp_path / "template", "UTC")
    fill(vault, date(2026, 3, 2), 21, 3)
    compaction(vault.root)()
    gone = set()
    for file in list(vault.raw_files()):
        if "2026-03-09" <= file.day <= "2026-03-15":  # week 11, all of it
            file.path.unlink()
            gone.add(file.id)
    done = shutil.copytree(vault.root, tmp_path / "reference")
    Vault.open(done)
    with counting_checkpoints() as labels:
        compaction(done)()
    assert "unlink 2026-W11.md" in labels and "unlink 2026-03-09.md" in labels  # the week and its days go
    fixture = Fixture(vault.root, files(done), len(labels), frozenset(gone))
    for n in range(1, fixture.checkpoints + 1):
        crash_point(fixture, tmp_path, n)


# ---------------------------------------------------------------- C2: random SIGKILL


def random_kill(fixture: Fixture, tmp_path: Path, seed: int) -> bool:
    rng = random.Random(seed)
    root = fixture.copy(tmp_path / f"kill-{seed}")
    raw = raw_state(root)
    result = run_in_child(compaction(root, latency=(0.01, 0.1), seed=seed), kill_after=rng.uniform(0, 2.0))
    assert result.killed or result.status == 0, result
    recover_and_compare(root, raw, fixture.reference)
    shutil.rmtree(root)
    tally("C2 random SIGKILLs during compaction (0-2 s in)")
    tally("C2 ... of which landed mid-run", result.killed)
    return result.killed


def test_c2_random_sigkill_during_compaction(month: Fixture, tmp_path: Path) -> None:
    killed = [random_kill(month, tmp_path, seed) for seed in range(2)]
    assert any(killed)


@slow_only
def test_c2_fifty_random_sigkills(month: Fixture, tmp_path: Path) -> None:
    killed = [random_kill(month, tmp_path, seed) for seed in range(100, 150)]
    assert sum(killed) >= 25  # most runs are killed mid-way (a short run may finish first)


# ---------------------------------------------------------------- C3: I/O errors


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Ten days, compacted once, then one day's chunks deleted (so the next run unlinks too)."""
    base = tmp_path_factory.mktemp("small")
    vault, _ = Vault.init(base / "template", "UTC")
    fill(vault, date(2026, 3, 2), 10, 6)
    compaction(vault.root)()
    gone = set()
    for file in list(vault.raw_files()):
        if file.day == "2026-03-04":
            file.path.unlink()
            gone.add(file.id)
    add(vault, "A late note: the CORS preflight is fixed.", timestamp="2026-03-05T19:00:00Z")
    done = shutil.copytree(vault.root, base / "reference")
    Vault.open(done)  # a copy has a new inode: its config cache is refreshed first (a write whose failure is ignored)
    spy = SpyIO()
    with installed(spy):
        assert memtree("--vault", str(done), "compact").code == 0
    counts = {op: spy.count(op) for op in OPS_SWEPT}
    return {"template": vault.root, "reference": files(done), "counts": counts, "gone": frozenset(gone)}


OPS_SWEPT = ("write", "fsync", "replace", "unlink", "fsync_dir")


def io_fault(small: dict[str, object], tmp_path: Path, op: str, nth: int, persistent: bool) -> None:
    root = shutil.copytree(small["template"], tmp_path / f"{op}-{nth}-{persistent}")  # type: ignore[call-overload]
    raw = raw_state(root)
    Vault.open(root)
    fault = FaultyIO(op, nth, persistent)
    with installed(fault):
        result = memtree("--vault", str(root), "compact")
    assert fault.fired, (op, nth)
    assert result.code == 1, (op, nth, result)
    assert result.stderr.startswith("memtree: error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "injected" in result.stderr and "hint:" in result.stderr
    assert [t for t in temp_files(root) if not t.startswith(".memtree/")] == []  # no partial file visible
    check_all(root, raw, small["gone"])  # type: ignore[arg-type]  # no chunk deleted, every file readable
    assert memtree("--vault", str(root), "compact").code == 0
    assert files(root) == small["reference"]
    shutil.rmtree(root)
    tally(f"C3 I/O faults injected into compaction ({'persistent' if persistent else 'once'})")


def io_fault_cases(small: dict[str, object], every: int) -> list[tuple[str, int, bool]]:
    counts: dict[str, int] = small["counts"]  # type: ignore[assignment]
    cases = []
    for op in OPS_SWEPT:
        points = list(range(1, counts[op] + 1))
        for persistent in (False, True):
            cases += [(op, n, persistent) for n in (points if every == 1 else sample(points, every))]
    return cases


def test_c3_the_fixture_exercises_every_kind_of_call(small: dict[str, object]) -> None:
    counts: dict[str, int] = small["counts"]  # type: ignore[assignment]
    assert all(counts[op] >= 1 for op in OPS_SWEPT), counts


def test_c3_io_errors_sampled(small: dict[str, object], tmp_path: Path) -> None:
    for op, nth, persistent in io_fault_cases(small, every=10):
        io_fault(small, tmp_path, op, nth, persistent)


@slow_only
def test_c3_io_errors_at_every_call(small: dict[str, object], tmp_path: Path) -> None:
    for op, nth, persistent in io_fault_cases(small, every=1):
        io_fault(small, tmp_path, op, nth, persistent)


@pytest.mark.parametrize(
    ("op", "new_day"),
    [("write", False), ("fsync", False), ("link", False), ("fsync_dir", False), ("mkdir", True), ("fsync_dir", True)],
)
def test_c3_io_errors_while_adding_leave_no_chunk_and_a_clear_message(vault: Vault, op: str, new_day: bool) -> None:
    """new_day: the chunk opens its day folder (whose name is fsynced before the chunk is written)."""
    Vault.open(vault.root)  # the config cache is written (its own failures are ignored: it is derived)
    if not new_day:
        (vault.root / "raw/2026/03/02").mkdir(parents=True)
    fault = FaultyIO(op, 1)
    with installed(fault):
        result = memtree("--vault", str(vault.root), "add", "a note", "--timestamp", "2026-03-02T10:00:00Z")
    assert fault.fired and result.code == 1 and result.stderr.count("\n") == 1, result
    chunks = list((vault.root / "raw").rglob("*.json"))
    if op == "fsync_dir" and not new_day:  # the link is made: the chunk is there, whole (its durability is in doubt)
        assert len(chunks) == 1 and check_loads(vault.root) is None
    else:
        assert chunks == []
    assert temp_files(vault.root) == []
    again = memtree("--vault", str(vault.root), "add", "a note", "--timestamp", "2026-03-02T10:00:00Z")
    assert again.code == 0 and len(list(vault.raw_files())) == 1
    tally("C3 I/O faults injected into add")


# ---------------------------------------------------------------- C4: a crash during recovery


def compound(fixture: Fixture, tmp_path: Path, n: int, m: int) -> None:
    root = fixture.copy(tmp_path / f"compound-{n}-{m}")
    raw = raw_state(root)
    first = run_in_child(compaction(root), crash_at=n)
    assert first.crashed
    check_all(root, raw)
    second = run_in_child(compaction(root), crash_at=m)
    assert second.crashed, second  # m is within what is left to do: the recovery run is interrupted too
    recover_and_compare(root, raw, fixture.reference)
    shutil.rmtree(root)
    tally("C4 compound crashes (at n, again at m of the recovery, then a clean run)")


def compound_pairs(count: int, checkpoints: int, seed: int) -> list[tuple[int, int]]:
    """(n, m): a crash at point n, then one at point m of the recovery run, which has at least
    checkpoints - n + 1 points left (the writes from the n-th on)."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        n = rng.randint(1, checkpoints)
        pairs.append((n, rng.randint(1, checkpoints - n + 1)))
    return pairs


def test_c4_crash_again_during_recovery(month: Fixture, tmp_path: Path) -> None:
    for n, m in [(1, 1), (month.checkpoints // 2, 3), *compound_pairs(1, month.checkpoints, 4)]:
        compound(month, tmp_path, n, m)


@slow_only
def test_c4_twenty_compound_crashes(month: Fixture, tmp_path: Path) -> None:
    for n, m in compound_pairs(20, month.checkpoints, 5):
        compound(month, tmp_path, n, m)


def test_crash_helpers_stop_where_asked(tmp_path: Path) -> None:
    """The harness itself: the child stops at exactly the N-th checkpoint, and SIGKILL is a kill."""
    vault, _ = Vault.init(tmp_path / "v", "UTC")
    fill(vault, date(2026, 3, 2), 3, 2)
    root = Vault.open(vault.root).root  # writes the config cache now, so the first checkpoints are summaries
    result = run_in_child(compaction(root), crash_at=2)
    assert result.crashed and result.checkpoints == 2
    assert len(list((root / "daily").glob("*.md"))) == 1  # one summary replaced, the second stopped before
    slow = run_in_child(lambda: time.sleep(30), kill_after=0.05)
    assert slow.killed
