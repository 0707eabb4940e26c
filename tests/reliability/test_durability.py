"""Durable writes and concurrency (docs/RELIABILITY.md W1-W9, W11): the atomic writer's call order and
failure behaviour, SIGKILLed rewrites, temp-file hygiene, create-only races, many writers beside
the compactor, the flock lock, and symlinks and network filesystems refused."""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import multiprocessing
import os
import random
import re
import shutil
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from helpers import memtree, snapshot, tally
from test_compaction import fill

from compaction_tree import vault as vault_module
from compaction_tree.compaction import LOCKED_MESSAGE, compact
from compaction_tree.errors import ConflictError, UnsafePathError
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.health import doctor
from compaction_tree.index import Index
from compaction_tree.ingest import add
from compaction_tree.markdown import parse_summary
from compaction_tree.vault import Vault, atomic_write, create_only, filesystem_type, remove

from .conftest import Fixture
from .faults import SLOW, CountingSummarizer, FaultyIO, PowerCutModel, SpyIO, installed, run_in_child, slow_only
from .invariants import check_loads, files, temp_files

NOW = datetime(2026, 4, 20, 12, tzinfo=timezone.utc)

# ---------------------------------------------------------------- W1: the writer's call order


def test_w1_atomic_write_calls_in_order(tmp_path: Path) -> None:
    target = tmp_path / "f.md"
    spy = SpyIO()
    with installed(spy):
        atomic_write(target, b"new")
    assert [op for op, _ in spy.calls] == ["write", "flush", "fsync", "replace", "fsync_dir"]
    assert spy.calls[3] == ("replace", "f.md") and spy.calls[4] == ("fsync_dir", tmp_path.name)


def test_w1_create_only_and_remove_call_in_order(tmp_path: Path) -> None:
    spy = SpyIO()
    with installed(spy):
        assert create_only(tmp_path / "c.json", b"{}")
        remove(tmp_path / "c.json")
    assert [op for op, _ in spy.calls] == ["write", "flush", "fsync", "link", "fsync_dir", "unlink", "fsync_dir"]


@pytest.mark.parametrize("op", ["write", "flush", "fsync", "replace", "fsync_dir"])
def test_w1_a_failure_at_each_step_of_atomic_write(tmp_path: Path, op: str) -> None:
    target = tmp_path / "f.md"
    target.write_bytes(b"old bytes")
    with installed(FaultyIO(op, 1)), pytest.raises(OSError):
        atomic_write(target, b"new bytes")
    # before the rename the target is untouched; a failed fsync of the folder comes after it: wholly new
    assert target.read_bytes() == (b"new bytes" if op == "fsync_dir" else b"old bytes")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.md"]  # no temp file


@pytest.mark.parametrize("op", ["write", "flush", "fsync", "link", "fsync_dir"])
def test_w1_a_failure_at_each_step_of_create_only(tmp_path: Path, op: str) -> None:
    target = tmp_path / "c.json"
    with installed(FaultyIO(op, 1)), pytest.raises(OSError):
        create_only(target, b'{"whole": true}')
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == (["c.json"] if op == "fsync_dir" else [])
    if names:
        assert target.read_bytes() == b'{"whole": true}'


def test_w1_without_hard_links_create_only_falls_back_to_exclusive_create(tmp_path: Path) -> None:
    target = tmp_path / "c.json"
    with installed(FaultyIO("link", 1, persistent=True, code=errno.EPERM)):
        assert create_only(target, b"first")
        assert not create_only(target, b"second")  # never clobbers, on the fallback path either
    assert target.read_bytes() == b"first"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.json"]


# docs/RELIABILITY.md §0.1 (and STYLE.md): vault.py is the only module that writes, replaces or deletes
# files. Each exception below is outside a vault's committed files, with why.
WRITE_CALL = re.compile(
    r"\.write_(text|bytes)\(|\bopen\([^)]*[\"'][wax]b?\+?[\"']|\.open\([\"'][wax]|os\.(replace|rename|remove|unlink)\("
    r"|\.unlink\(|shutil\.(rmtree|move|copy)|\.rename\(|\.replace\([^)]*\bPath|sqlite3\.connect\("
)
ALLOWED_WRITES = {
    ("demo.py", 'with source.open("w", encoding="utf-8") as out:'),  # a JSONL file in a scratch folder
    ("demo.py", "shutil.rmtree(path)"),  # `python -m compaction_tree.demo` rebuilds the sample vault
    ("demo.py", "path.unlink()"),
    ("sample.py", 'with open(args[0], "w", encoding="utf-8", newline="\\n") as out:'),  # a dev script's output
    ("health.py", "(vault.root / problem.path).unlink(missing_ok=True)"),  # doctor --fix: a stale temp file
    ("index.py", 'os.unlink(f"{self.path}{suffix}")'),  # the derived SQLite index, discarded when damaged
    (
        "index.py",
        "db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)",
    ),
    ("index.py", 'db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)'),  # no file at all
}


def test_rule_0_1_only_vault_py_writes_files() -> None:
    package = Path(__file__).resolve().parents[2] / "compaction_tree"
    found = set()
    for path in sorted(package.glob("*.py")):
        if path.name == "vault.py":
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if WRITE_CALL.search(line) and not line.lstrip().startswith("#"):
                found.add((path.name, line.strip()))
    assert found - ALLOWED_WRITES == set()
    assert ALLOWED_WRITES - found == set()  # the list stays true


# ---------------------------------------------------------------- W2, W3: SIGKILL during rewrites


def payload(seed: int, size: int = 200 * 1024) -> bytes:
    body = random.Random(seed).randbytes(size // 2).hex().encode()
    return hashlib.sha256(body).hexdigest().encode() + b"\n" + body


def whole(data: bytes) -> bool:
    digest, _, body = data.partition(b"\n")
    return hashlib.sha256(body).hexdigest().encode() == digest


def rewrite_forever(target: Path, naive: bool) -> None:
    n = 0
    while True:
        n += 1
        if naive:
            with open(target, "wb") as out:
                out.write(payload(n))
        else:
            atomic_write(target, payload(n))


def kill_rewrites(folder: Path, trials: int, naive: bool = False) -> int:
    """SIGKILLs a rewrite loop 0-300 ms in, `trials` times; returns how often the target was unreadable."""
    folder.mkdir()
    target = folder / "2026-03-02.md"
    atomic_write(target, payload(0))
    rng = random.Random(2)
    broken = 0
    for _ in range(trials):
        result = run_in_child(lambda: rewrite_forever(target, naive), kill_after=rng.uniform(0, 0.3))
        assert result.killed
        broken += not whole(target.read_bytes())
        tally("W2 SIGKILLs during 200 KB rewrites" + (" (naive writer, must tear)" if naive else ""))
    return broken


def test_w2_w3_sigkill_during_rewrites_never_leaves_a_torn_file(tmp_path: Path) -> None:
    folder = tmp_path / "daily"
    assert kill_rewrites(folder, trials=200 if SLOW else 12) == 0
    # W3: what the kills left behind are dot-temps: no loader lists them, the sweeper waits 10 minutes
    vault, _ = Vault.init(tmp_path, "UTC")
    leftovers = [p for p in folder.iterdir() if p.name != "2026-03-02.md"]
    assert all(vault_module.is_temp(p.name) for p in leftovers)
    assert vault.summary_files("daily") == [folder / "2026-03-02.md"]
    report = doctor(vault)
    assert {p.kind for p in report.problems} <= {"unreadable"}  # the fake summary; young temps are no problem
    assert vault.sweep_temps() == 0
    assert vault.sweep_temps(now=time.time() + 9 * 60) == 0
    assert vault.sweep_temps(now=time.time() + 10 * 60 + 5) == len(leftovers)
    assert sorted(p.name for p in folder.iterdir()) == ["2026-03-02.md"]


@slow_only
def test_w2_a_naive_writer_does_tear_files(tmp_path: Path) -> None:
    """The power of W2: the same harness catches an open(w)+write writer (~46 % torn on this kind of machine)."""
    broken = kill_rewrites(tmp_path / "naive", trials=50, naive=True)
    print(f"\nW2: naive writer left {broken}/50 torn files")
    assert broken > 0


def test_w3_compaction_sweeps_old_temps_and_keeps_young_ones(vault: Vault) -> None:
    fill(vault, date(2026, 3, 2), 7, 3)
    places = [vault.root / "raw/2026/03/03", vault.root / "daily", vault.root / ".memtree/cache", vault.root]
    old, young = [], []
    for n, folder in enumerate(places):
        folder.mkdir(parents=True, exist_ok=True)
        for kind, bucket, age in (("old", old, 11 * 60), ("young", young, 9 * 60)):
            temp = folder / f".x{n}.{kind}.1.abcd.tmp"
            temp.write_text("{half")
            past = time.time() - age
            os.utime(temp, (past, past))
            bucket.append(temp)
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    only_lock_holders = vault.root / "daily"  # a young temp there is a killed run's: the lock says so
    assert not any(p.exists() for p in old)
    assert all(p.exists() != (p.parent == only_lock_holders) for p in young)
    assert all(not vault_module.is_temp(f.path.name) for f in vault.raw_files())


# ---------------------------------------------------------------- W4: two processes, one id


def _add_same_id(root: str, text: str, start: object, results: object) -> None:
    vault = Vault.open(root)
    start.wait()  # type: ignore[attr-defined]
    try:
        outcome = "created" if add(vault, text, id="same", timestamp="2026-03-02T10:00:00Z").created else "existing"
    except ConflictError:
        outcome = "conflict"
    results.put(outcome)  # type: ignore[attr-defined]


def race(root: Path, texts: tuple[str, str]) -> list[str]:
    context = multiprocessing.get_context("fork")
    start, results = context.Barrier(2), context.Queue()
    workers = [context.Process(target=_add_same_id, args=(str(root), t, start, results)) for t in texts]
    for w in workers:
        w.start()
    for w in workers:
        w.join(20)
    return sorted(results.get(timeout=5) for _ in workers)


@pytest.mark.parametrize("same_text", [True, False])
def test_w4_two_processes_add_the_same_id(tmp_path: Path, same_text: bool) -> None:
    texts = ("the same note", "the same note") if same_text else ("writer one", "writer two")
    for trial in range(100 if SLOW else 6):
        vault, _ = Vault.init(tmp_path / f"t{same_text}{trial}", "UTC")
        outcomes = race(vault.root, texts)
        assert outcomes == (["created", "existing"] if same_text else ["conflict", "created"])
        chunks = list((vault.root / "raw").rglob("*.json"))
        assert len(chunks) == 1 and json.loads(chunks[0].read_text())["text"] in texts
        assert temp_files(vault.root) == []
        shutil.rmtree(vault.root)
        tally("W4 two processes adding one id")


# ---------------------------------------------------------------- W5: many writers beside the compactor


def _writer(root: str, worker: int, count: int) -> None:
    vault = Vault.open(root)
    rng = random.Random(worker)
    for i in range(count):
        moment = datetime(2026, 3, 2, 8, tzinfo=timezone.utc) + timedelta(minutes=rng.randrange(14 * 24 * 60))
        add(vault, f"worker {worker} note {i} about the billing page", id=f"w{worker}-{i}", timestamp=moment)
        time.sleep(rng.uniform(0, 2.0 / count))  # the adds span about a second, the compactions' lifetime


def _compactor(root: str, runs: int, seen: object) -> None:
    for n in range(runs):
        vault = Vault.open(root)
        before = sum(1 for _ in vault.raw_files())
        report = compact(vault, CountingSummarizer(vault.config, latency=(0.0, 0.01), seed=n), NOW)
        seen.put((before, sum(1 for _ in vault.raw_files()), len(report.written)))  # type: ignore[attr-defined]
        time.sleep(0.05)


def many_writers(root: Path, per_worker: int) -> None:
    context = multiprocessing.get_context("fork")
    seen = context.Queue()
    procs = [context.Process(target=_writer, args=(str(root), w, per_worker)) for w in range(8)]
    procs.append(context.Process(target=_compactor, args=(str(root), 5, seen)))
    for p in procs:
        p.start()
    for p in procs:
        p.join(600)
        assert p.exitcode == 0
    runs = [seen.get(timeout=5) for _ in range(5)]
    tally("W5 chunks added by 8 processes beside 5 compactions", 8 * per_worker)
    # the point of W5: compactions that wrote summaries while chunks were still arriving
    assert any(before < after and written for before, after, written in runs), runs
    vault = Vault.open(root)
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    expected = {f"w{w}-{i}" for w in range(8) for i in range(per_worker)}
    stored = {f.id: f for f in vault.raw_files()}
    assert set(stored) == expected  # none lost
    with Index(vault) as index:
        index.sync()
        hashes = {row.id: row.sha for row in index.chunks()}
    cited: dict[str, int] = {}
    for path in sorted((root / "daily").glob("*.md")):
        summary = parse_summary(path.read_text(), "daily", path.stem, path.name)
        for source in summary.sources:
            assert hashes[source.id] == source.sha256  # cited with its content hash
            assert stored[source.id].day == path.stem
            cited[source.id] = cited.get(source.id, 0) + 1
    assert cited == dict.fromkeys(expected, 1)  # every chunk in exactly one daily summary
    for level, child in (("weekly", "daily"), ("monthly", "weekly")):
        seen = [
            s.id
            for path in (root / level).glob("*.md")
            for s in parse_summary(path.read_text(), level, path.stem, path.name).sources
        ]  # type: ignore[arg-type]
        assert len(seen) == len(set(seen)) and set(seen) == {p.stem for p in (root / child).glob("*.md")}
    check_loads(root)


def test_w5_eight_writers_while_compacting(vault: Vault) -> None:
    many_writers(vault.root, per_worker=25)


@slow_only
def test_w5_eight_writers_times_two_hundred(vault: Vault) -> None:
    many_writers(vault.root, per_worker=200)


# ---------------------------------------------------------------- W6, W7, W8: the lock


def _try_lock(root: str, results: object) -> None:
    with Vault.open(root).lock() as acquired:
        results.put(acquired)  # type: ignore[attr-defined]


def other_process_gets_lock(root: Path) -> bool:
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    proc = context.Process(target=_try_lock, args=(str(root), results))
    proc.start()
    proc.join(10)
    return bool(results.get(timeout=5))


def test_w6_the_lock_survives_an_unrelated_open_and_close(vault: Vault) -> None:
    with vault.lock() as held:
        assert held
        path = vault.root / ".memtree/lock"
        open(path).close()
        os.close(os.open(path, os.O_RDONLY))
        assert not other_process_gets_lock(vault.root)
    assert other_process_gets_lock(vault.root)


def test_w6_why_not_lockf(vault: Vault) -> None:
    """The trap the test guards against: a POSIX lockf lock is dropped by an unrelated close."""
    path = vault.root / ".memtree/other.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    open(path).close()
    context = multiprocessing.get_context("fork")
    results = context.Queue()

    def grab() -> None:
        other = os.open(path, os.O_RDWR)
        try:
            fcntl.lockf(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            results.put(True)
        except OSError:
            results.put(False)

    proc = context.Process(target=grab)
    proc.start()
    proc.join(10)
    os.close(fd)
    assert results.get(timeout=5) is True


def hold_lock(root: Path) -> int:
    """A child process that takes the vault's lock and sleeps; returns its pid once it holds it."""
    ready = root / ".memtree/held"
    pid = os.fork()
    if pid == 0:
        try:
            with Vault.open(root).lock() as got:
                # written whole, then renamed: the parent never reads it half written
                ready.with_suffix(".tmp").write_text(str(got))
                os.replace(ready.with_suffix(".tmp"), ready)
                time.sleep(60)
        finally:
            os._exit(0)
    deadline = time.monotonic() + 10
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ready.read_text() == "True"
    ready.unlink()
    return pid


def test_w7_a_second_compactor_exits_at_once_changing_nothing(vault: Vault) -> None:
    fill(vault, date(2026, 3, 2), 7, 3)
    Vault.open(vault.root)
    pid = hold_lock(vault.root)
    try:
        before = snapshot(vault.root, include_derived=True)
        started = time.monotonic()
        result = memtree("--vault", str(vault.root), "compact")
        elapsed = time.monotonic() - started
        assert result.code == 0 and result.stdout.strip() == LOCKED_MESSAGE and elapsed < 1.0
        assert snapshot(vault.root, include_derived=True) == before
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)


def test_w8_a_killed_lock_holder_frees_the_lock_at_once(vault: Vault) -> None:
    pid = hold_lock(vault.root)
    with vault.lock() as acquired:
        assert not acquired
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    started = time.monotonic()
    with vault.lock() as acquired:
        assert acquired and time.monotonic() - started < 1.0


# ---------------------------------------------------------------- W9: symlinks out of the vault


SYMLINKED = [
    "raw",
    "raw/2026/03/02",
    "daily",
    "daily/2026-03-02.md",
    "weekly",
    "ROOT.md",
    "facts",
    ".memtree",
    ".memtree/lock",
    ".memtree/index.sqlite",
    ".memtree/cache",
]


@pytest.mark.parametrize("place", SYMLINKED)
def test_w9_memtree_never_writes_through_a_symlink_out_of_the_vault(tmp_path: Path, place: str) -> None:
    vault, _ = Vault.init(tmp_path / "v", "UTC")
    fill(vault, date(2026, 3, 2), 7, 3)
    outside = tmp_path / "outside"
    outside.mkdir()
    link = vault.root / place
    if link.is_dir():
        shutil.move(str(link), str(outside / "moved"))
        shutil.rmtree(outside / "moved")
    elif link.exists():
        link.unlink()
    victim = outside / "victim"
    if place.endswith((".md", "lock", ".sqlite")):
        victim.write_bytes(b"precious")
    else:
        victim.mkdir()
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(victim)
    before = files(outside, derived=True, temps=True)
    folders = sorted(p for p in outside.rglob("*") if p.is_dir())
    for args in (["compact"], ["add", "one more", "--timestamp", "2026-03-02T11:00:00Z"], ["root"], ["status"]):
        result = memtree("--vault", str(vault.root), *args)
        assert result.code in (0, 3, 7), (args, result)
        if result.code:
            assert result.stderr.startswith("memtree: error: ") and result.stderr.count("\n") == 1
    assert files(outside, derived=True, temps=True) == before  # nothing written, replaced or created out there
    assert sorted(p for p in outside.rglob("*") if p.is_dir()) == folders  # not even a folder


def test_w9_the_writer_refuses_symlinked_targets(vault: Vault, tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (vault.root / "daily").mkdir()
    (vault.root / "daily/2026-03-02.md").symlink_to(victim)
    with pytest.raises(UnsafePathError):
        vault.write("daily/2026-03-02.md", b"x")
    with pytest.raises(UnsafePathError):
        vault.delete("daily/2026-03-02.md")
    assert victim.read_text() == "precious"


# ---------------------------------------------------------------- W10: a power cut (modelled)


def test_w10_every_chunk_whose_add_returned_survives_a_power_cut(vault: Vault, tmp_path: Path) -> None:
    """A chunk `add` reported stored is on disk at once: its bytes, its name, and the names of the day,
    month and year folders it created (before the fix, a new day folder's name was never fsynced)."""
    model = PowerCutModel(vault.root)
    stamps = ["2026-03-02T10:00:00Z", "2026-03-02T11:00:00Z", "2026-03-03T10:00:00Z", "2026-04-01T10:00:00Z"]
    stamps += ["2027-01-01T00:00:00Z", "2024-02-29T23:59:59Z"]
    with installed(model):
        for n, stamp in enumerate(stamps):
            added = add(vault, f"note {n}", timestamp=stamp)
            assert model.survives(vault.root / added.path), added.path
        assert model.torn == []
        # a bulk import skips the per-chunk fsyncs and syncs once at the end (10,000 chunks would take
        # minutes otherwise): until it returns, a power cut may leave a partial chunk, which the loader
        # reports and skips; once it has returned, everything is on disk
        source = tmp_path / "export.jsonl"  # a bulk import syncs once, at the end
        source.write_text(
            "".join(
                json.dumps({"timestamp": f"2025-0{m}-1{m}T10:00:00Z", "speaker": "u", "text": f"i{m}"}) + "\n"
                for m in range(1, 8)
            )
        )
        assert memtree("--vault", str(vault.root), "import", str(source)).code == 0
    assert all(model.survives(f.path) for f in vault.raw_files())
    tally("W10 chunks checked durable once add returned (power-cut model)", len(stamps) + 7)


def test_w10_compaction_publishes_only_whole_files_and_ends_durable(month: Fixture, tmp_path: Path) -> None:
    """At every instant of a compaction, each file is wholly old or wholly new (nothing is renamed or
    linked into place before its bytes are synced), and what the run reports written is on disk."""
    root = month.copy(tmp_path / "v")
    Vault.open(root)
    model = PowerCutModel(root)
    with installed(model):
        report = compact(Vault.open(root), ExtractiveSummarizer(Vault.open(root).config), NOW)
    assert model.torn == []
    published = model.count("replace") + model.count("link")
    assert published >= len(report.written) > 30
    for path in [*report.written, *report.facts_changed, "ROOT.md"]:
        assert model.survives(root / path), path
    tally("W10 files published by a compaction, each checked whole at every instant (power-cut model)", published)


# ---------------------------------------------------------------- W11: network filesystems


def fake_mounts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lines: list[str]) -> None:
    table = tmp_path / "mounts"
    table.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(vault_module, "MOUNTS", table)


def test_w11_the_filesystem_type_comes_from_the_longest_mount_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spaced = tmp_path / "my vault"
    spaced.mkdir()
    fake_mounts(
        monkeypatch,
        tmp_path,
        [
            "/dev/sda1 / ext4 rw 0 0",
            f"srv:/x {str(tmp_path).replace(' ', chr(92) + '040')} nfs4 rw 0 0",
            f"srv:/y {str(spaced).replace(' ', chr(92) + '040')} cifs rw 0 0",
            "garbage",
        ],
    )
    assert filesystem_type(tmp_path / "sub") == "nfs4"
    assert filesystem_type(spaced) == "cifs"
    assert filesystem_type(Path("/usr")) == "ext4"
    monkeypatch.setattr(vault_module, "MOUNTS", tmp_path / "missing")
    assert filesystem_type(tmp_path) is None  # not Linux: no refusal


@pytest.mark.parametrize("kind", ["nfs", "nfs4", "cifs", "smb3", "fuse.sshfs"])
def test_w11_compact_refuses_a_network_filesystem_add_still_works(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    fill(vault, date(2026, 3, 2), 7, 2)
    fake_mounts(monkeypatch, tmp_path, ["/dev/sda1 / ext4 rw 0 0", f"server:/share {vault.root} {kind} rw 0 0"])
    before = snapshot(vault.root)
    refused = memtree("--vault", str(vault.root), "compact")
    assert refused.code == 7 and "network filesystem" in refused.stderr and "--allow-network-fs" in refused.stderr
    assert snapshot(vault.root) == before
    assert memtree("--vault", str(vault.root), "add", "still fine", "--timestamp", "2026-03-03T09:00:00Z").code == 0
    allowed = memtree("--vault", str(vault.root), "compact", "--allow-network-fs")
    assert allowed.code == 0 and (vault.root / "daily/2026-03-02.md").exists()
