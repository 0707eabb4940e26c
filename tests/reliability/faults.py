"""Fault injection and crash helpers for the reliability suite.

- `FaultyIO` / `SpyIO`: `compaction_tree.vault.io` replacements that record every durable system
  call and fail the N-th call of one kind (once, or from then on);
- `run_in_child` / `crash_at`: run a function in a forked child whose `vault.checkpoint` ends the
  process with `os._exit` at the N-th checkpoint (no cleanup, no atexit: as a power cut would);
- `kill_after`: run a function in a forked child and SIGKILL it after a wall-clock delay;
- `CountingSummarizer` / `SlowSummarizer`: the extractive summarizer with a call counter, injected
  unit failures, and LLM-like latency; same identity, so outputs match a plain extractive run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import signal
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from compaction_tree import vault as vault_module
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.summarizers import Unit, UnitFailed
from compaction_tree.summary import Draft
from compaction_tree.vault import FileIO

OPS = ("write", "flush", "fsync", "replace", "link", "unlink", "fsync_dir", "mkdir", "sync")
CRASHED = 77  # the exit status of a child stopped at its crash point


class SpyIO(FileIO):
    """Records (operation, file name) for every durable system call, then performs it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def _note(self, op: str, name: str) -> None:
        with self._lock:
            self.calls.append((op, name))

    def count(self, op: str) -> int:
        return sum(1 for o, _ in self.calls if o == op)

    def write(self, handle: IO[bytes], data: bytes) -> None:
        self._note("write", Path(str(handle.name)).name)
        super().write(handle, data)

    def flush(self, handle: IO[bytes]) -> None:
        self._note("flush", Path(str(handle.name)).name)
        super().flush(handle)

    def fsync(self, fd: int) -> None:
        self._note("fsync", str(fd))
        super().fsync(fd)

    def replace(self, source: Path, target: Path) -> None:
        self._note("replace", target.name)
        super().replace(source, target)

    def link(self, source: Path, target: Path) -> None:
        self._note("link", target.name)
        super().link(source, target)

    def unlink(self, path: Path) -> None:
        self._note("unlink", path.name)
        super().unlink(path)

    def fsync_dir(self, folder: Path) -> None:
        self._note("fsync_dir", folder.name)
        super().fsync_dir(folder)

    def mkdir(self, folder: Path) -> None:
        self._note("mkdir", folder.name)
        super().mkdir(folder)

    def sync(self) -> None:
        self._note("sync", "")
        super().sync()


class PowerCutModel(SpyIO):
    """What a power cut would lose, judged from the calls memtree makes (the question LazyFS answers
    with a FUSE filesystem that drops unsynced data, W10): a file's bytes are on disk once fsynced
    after its last write; a name in a folder (a new file, a rename onto it, a new subfolder) once that
    folder is fsynced after the name appeared; `sync` makes everything durable.

    `torn` lists every publish (rename or link) of a file whose bytes were not all synced: after a
    power cut, such a name could hold a partial file."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        self.dirty: set[int] = set()  # inodes written since their last fsync
        self.durable: dict[Path, set[str]] = {}  # folder -> its names as of its last fsync
        for folder, dirs, names in os.walk(root):  # what is there at the start is on disk
            self.durable[Path(folder)] = set(dirs) | set(names)
        self.torn: list[str] = []

    def write(self, handle: IO[bytes], data: bytes) -> None:
        self.dirty.add(os.fstat(handle.fileno()).st_ino)
        super().write(handle, data)

    def fsync(self, fd: int) -> None:
        super().fsync(fd)
        self.dirty.discard(os.fstat(fd).st_ino)

    def _publish(self, source: Path, target: Path) -> None:
        if os.stat(source).st_ino in self.dirty:
            self.torn.append(str(target.relative_to(self.root)))
        self.durable.setdefault(target.parent, set()).discard(target.name)  # new bytes under the name

    def replace(self, source: Path, target: Path) -> None:
        self._publish(source, target)
        super().replace(source, target)

    def link(self, source: Path, target: Path) -> None:
        self._publish(source, target)
        super().link(source, target)

    def fsync_dir(self, folder: Path) -> None:
        super().fsync_dir(folder)
        self.durable[folder] = set(os.listdir(folder))

    def sync(self) -> None:
        super().sync()
        self.dirty.clear()
        for folder, dirs, names in os.walk(self.root):
            self.durable[Path(folder)] = set(dirs) | set(names)

    def survives(self, path: Path) -> bool:
        """Would path, with its present bytes, be there after a power cut now?"""
        if os.stat(path).st_ino in self.dirty:
            return False
        while path != self.root:
            if path.name not in self.durable.get(path.parent, set()):
                return False
            path = path.parent
        return True


class InjectedFault(OSError):
    pass


class FaultyIO(SpyIO):
    """Fails the `nth` call (1-based) of `op` with an OSError; `persistent`: every later call too."""

    def __init__(self, op: str, nth: int, persistent: bool = False, code: int = errno.EIO) -> None:
        super().__init__()
        assert op in OPS, op
        self.op, self.nth, self.persistent, self.code = op, nth, persistent, code
        self.seen = 0
        self.fired = 0

    def _note(self, op: str, name: str) -> None:
        super()._note(op, name)
        if op != self.op:
            return
        self.seen += 1
        if self.seen == self.nth or (self.persistent and self.seen > self.nth):
            self.fired += 1
            raise InjectedFault(self.code, f"injected {op} failure #{self.seen}", name)


@contextlib.contextmanager
def installed(io: FileIO) -> Iterator[FileIO]:
    """Puts `io` in place of compaction_tree.vault.io for the duration."""
    saved = vault_module.io
    vault_module.io = io
    try:
        yield io
    finally:
        vault_module.io = saved


@contextlib.contextmanager
def counting_checkpoints() -> Iterator[list[str]]:
    """Records the label of every checkpoint passed (in this process)."""
    labels: list[str] = []
    saved = vault_module.checkpoint
    vault_module.checkpoint = labels.append
    try:
        yield labels
    finally:
        vault_module.checkpoint = saved


@dataclass
class ChildResult:
    status: int  # exit status; CRASHED when stopped at the crash point; -signal when killed
    checkpoints: int  # checkpoints passed before the end (from the child's report, when it could write it)
    error: str = ""  # the child's traceback, when fn raised

    @property
    def crashed(self) -> bool:
        return self.status == CRASHED

    @property
    def killed(self) -> bool:
        return self.status < 0


def _report(path: str, text: str) -> None:
    with contextlib.suppress(OSError), open(path, "w", encoding="utf-8") as out:
        out.write(text)


def run_in_child(
    fn: Callable[[], Any],
    crash_at: int | None = None,
    matching: Callable[[str], bool] | None = None,
    kill_after: float | None = None,
    timeout: float = 120.0,
) -> ChildResult:
    """Runs fn() in a forked child. crash_at=N: os._exit(CRASHED) at the N-th checkpoint (of those
    `matching` accepts); kill_after=S: SIGKILL the child S seconds after it started."""
    fd, note = tempfile.mkstemp(prefix="memtree-child-")
    os.close(fd)
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 1
        try:
            seen = [0]

            def checkpoint(label: str) -> None:
                if matching is not None and not matching(label):
                    return
                seen[0] += 1
                _report(note, f"{seen[0]}\n")
                if crash_at is not None and seen[0] >= crash_at:
                    os._exit(CRASHED)

            vault_module.checkpoint = checkpoint
            fn()
            _report(note, f"{seen[0]}\n")
            status = 0
        except BaseException:
            _report(note, "0\n" + traceback.format_exc())
        finally:
            os._exit(status)
    started = time.monotonic()
    killed_at = None if kill_after is None else started + kill_after
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        now = time.monotonic()
        if killed_at is not None and now >= killed_at:
            os.kill(pid, signal.SIGKILL)
            killed_at = None
        if now - started > timeout:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise TimeoutError(f"child still running after {timeout} s")
        time.sleep(0.002)
    code = os.waitstatus_to_exitcode(status)
    text = Path(note).read_text(encoding="utf-8") if Path(note).exists() else ""
    os.unlink(note)
    first, _, rest = text.partition("\n")
    return ChildResult(code, int(first) if first.strip().isdigit() else 0, rest)


# ---------------------------------------------------------------- stub summarizers


@dataclass
class CountingSummarizer:
    """The extractive summarizer, counting calls, failing the units named in `fail` (UnitFailed),
    and sleeping `latency` = (low, high) seconds per call like a remote LLM."""

    config: Any
    fail: set[str] = field(default_factory=set)
    latency: tuple[float, float] | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        self.inner = ExtractiveSummarizer(self.config)
        self.calls = 0
        self.labels: list[str] = []
        self._lock = threading.Lock()
        self._rng = random.Random(self.seed)

    def __getattr__(self, name: str) -> Any:  # identity, usage, params, begin_run, estimate
        return getattr(self.inner, name)

    @property
    def concurrency(self) -> int:
        return 4 if self.latency else 1

    def summarize(self, unit: Unit) -> Draft:
        with self._lock:
            self.calls += 1
            self.labels.append(unit.label)
            pause = self._rng.uniform(*self.latency) if self.latency else 0.0
        if pause:
            time.sleep(pause)
        if unit.label in self.fail:
            raise UnitFailed(f"{unit.label}: injected failure")
        with self._lock:  # the extractive backend is CPU-bound and not meant to run in threads
            return self.inner.summarize(unit)


# ---------------------------------------------------------------- profiles

SLOW = os.environ.get("MEMTREE_SLOW") == "1"


def slow_only(fn: Any) -> Any:
    """A test of the slow profile: marked `slow`, skipped unless MEMTREE_SLOW=1."""
    import pytest

    return pytest.mark.slow(pytest.mark.skipif(not SLOW, reason="slow profile: set MEMTREE_SLOW=1")(fn))


def sample(points: list[int], every: int) -> list[int]:
    """Every `every`-th point plus the first and the last (the fast profile's sweep)."""
    if not points:
        return []
    return sorted({points[0], points[-1], *points[::every]})
