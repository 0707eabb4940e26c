"""The vault on disk: its layout, and the only code that writes, replaces or deletes its files.

Durability rules (docs/RELIABILITY.md §0):
- every replaced file goes through `atomic_write`: unique temp in the same folder, write, flush,
  fsync, `os.replace`, fsync the folder; the temp is removed on error;
- raw chunks are create-only: published with `os.link`, so an existing name fails instead of
  being clobbered;
- nothing is written through a symlink or outside the vault;
- temp files are dot-prefixed, ignored by every loader, and swept once they are old.

`io` and `checkpoint` are the seams the reliability tests use to inject faults and crashes.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from .config import (
    CONFIG_FILE,
    CONFIG_RULES,
    Config,
    config_from_data,
    config_to_data,
    default_config_text,
    find_vault,
    parse_config,
    system_timezone,
    valid_zone,
)
from .errors import (
    ConfigError,
    ConflictError,
    DamagedChunkError,
    InvalidInputError,
    MemtreeError,
    NetworkFilesystemError,
    UnsafePathError,
    VaultFormatError,
    VaultNotFoundError,
)
from .model import Chunk, valid_id

DERIVED = ".memtree"
RAW = "raw"
SUMMARY_DIRS = ("daily", "weekly", "monthly")
LEDGER_DIR = "pruned"  # what `memtree prune` deleted, and why (retention.py)
TEMP_SUFFIX = ".tmp"
STALE_TEMP_SECONDS = 600  # a younger temp may belong to a live writer
MAX_CHUNK_BYTES = 8 * 1024 * 1024
GITIGNORE_LINE = ".memtree/"
GITIGNORE_LINES = (GITIGNORE_LINE, ".*.tmp")  # derived state; temp files a killed writer left behind
NETWORK_FILESYSTEMS = frozenset(
    {"nfs", "nfs4", "cifs", "smb3", "smbfs", "fuse.sshfs", "9p", "afs", "ceph", "glusterfs"}
)
CONFLICT_MARKERS = (b"<<<<<<< ", b"\n=======\n", b">>>>>>> ")


class VaultWriteError(MemtreeError, OSError):
    """An I/O error (disk full, EIO, permissions) while writing a vault file: one clear line for the
    user instead of a traceback. Still an OSError, for code that treats derived writes as optional."""


@contextlib.contextmanager
def _writing(relative: str) -> Iterator[None]:
    try:
        yield
    except MemtreeError:
        raise
    except OSError as exc:
        raise VaultWriteError(
            f"cannot write {relative}: {exc.strerror or exc}",
            hint="check the disk (space, permissions), then run again: no file was left half-written",
        ) from exc


class FileIO:
    """The system calls of a durable write, one method each, so tests can inject faults."""

    def write(self, handle: IO[bytes], data: bytes) -> None:
        handle.write(data)

    def flush(self, handle: IO[bytes]) -> None:
        handle.flush()

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def replace(self, source: Path, target: Path) -> None:
        os.replace(source, target)

    def link(self, source: Path, target: Path) -> None:
        os.link(source, target)

    def unlink(self, path: Path) -> None:
        os.unlink(path)

    def fsync_dir(self, folder: Path) -> None:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def mkdir(self, folder: Path) -> None:
        os.mkdir(folder)

    def sync(self) -> None:
        os.sync()


io = FileIO()


def checkpoint(label: str) -> None:
    """Called before every durable side effect; the crash tests replace it to stop the process there."""


def _temp_for(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}{TEMP_SUFFIX}")


def _write_temp(target: Path, data: bytes, durable: bool = True) -> Path:
    temp = _temp_for(target)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        with os.fdopen(fd, "wb") as handle:
            io.write(handle, data)
            io.flush(handle)
            if durable:
                io.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return temp


def atomic_write(target: Path, data: bytes) -> None:
    """Replaces target with data so that readers see the old bytes or the new, never a mix."""
    temp = _write_temp(target, data)
    try:
        checkpoint(f"replace {target.name}")
        io.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    io.fsync_dir(target.parent)


def create_only(target: Path, data: bytes, durable: bool = True) -> bool:
    """Publishes a new file; False (and nothing written) when the name already exists.

    durable=False skips the fsyncs for bulk imports, which call `sync_all` once at the end
    (measured here: two fsyncs per chunk would make a 10,000-chunk import take over 5 s).
    """
    temp = _write_temp(target, data, durable)
    try:
        checkpoint(f"link {target.name}")
        try:
            io.link(temp, target)
        except FileExistsError:
            return False
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            return _create_in_place(target, data)  # no hard links here (exFAT, some sync folders)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
    if durable:
        io.fsync_dir(target.parent)
    return True


def sync_all() -> None:
    """Flushes every pending write to disk: the end of a bulk import."""
    checkpoint("sync")
    io.sync()


def _create_in_place(target: Path, data: bytes) -> bool:
    """The fallback publish: a crash can leave a partial file, which the loader reports and skips."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "wb") as handle:
        io.write(handle, data)
        io.flush(handle)
        io.fsync(handle.fileno())
    io.fsync_dir(target.parent)
    return True


def remove(target: Path) -> None:
    """Deletes a file durably; a file that is already gone counts as deleted."""
    checkpoint(f"unlink {target.name}")
    try:
        io.unlink(target)
    except FileNotFoundError:
        return
    io.fsync_dir(target.parent)


def remove_all(targets: Sequence[Path]) -> None:
    """Deletes files, then makes that durable with one fsync per folder rather than one per file. Until
    then a power cut may bring files back: only for a caller that recorded its intent durably first and
    finishes the job on its next run (prune)."""
    folders: dict[Path, None] = {}
    for target in targets:
        checkpoint(f"unlink {target.name}")
        try:
            io.unlink(target)
        except FileNotFoundError:
            continue
        folders[target.parent] = None
    for folder in folders:
        io.fsync_dir(folder)


def is_temp(name: str) -> bool:
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


MOUNTS = Path("/proc/mounts")  # a module attribute: the tests point it at a made-up table


def filesystem_type(path: Path) -> str | None:
    """The type of the filesystem holding path, from /proc/mounts (Linux); None elsewhere."""
    try:
        mounts = MOUNTS.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    real = str(path.resolve())
    best, kind = "", None
    for line in mounts:
        parts = line.split()
        if len(parts) < 3:
            continue
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), parts[1])  # \040 is a space
        if (real == point or real.startswith(point.rstrip("/") + "/")) and len(point) >= len(best):
            best, kind = point, parts[2]
    return kind


@dataclass(frozen=True)
class RawFile:
    """A raw chunk file as listed: where it is, and what its path says (day folder, id)."""

    path: Path
    day: str  # YYYY-MM-DD from the folders
    id: str  # from the file name


class Vault:
    """An open vault: its folder and configuration, and every file operation on it."""

    def __init__(self, root: Path, config: Config) -> None:
        self.root = root.resolve()
        self.config = config

    # ---------------------------------------------------------------- opening

    @classmethod
    def open(cls, path: Path | str | None = None) -> Vault:
        """Finds the vault (path, then MEMTREE_VAULT, then upward) and reads its memtree.yaml."""
        root = find_vault(path)
        return cls(root, load_config(root))

    @classmethod
    def init(cls, root: Path, timezone: str | None = None) -> tuple[Vault, list[str]]:
        """Creates the vault files that are missing; returns the vault and what was created. Checks its
        input before any write: a memtree.yaml that every later open rejects is never written."""
        if timezone is not None and not valid_zone(timezone):
            raise InvalidInputError(
                f"unknown time zone {timezone!r}", hint="use an IANA name such as Europe/Paris or UTC"
            )
        root = root.absolute()
        if root.exists() and not root.is_dir():
            raise VaultNotFoundError(f"{root} is a file, not a folder", hint="pick another --vault folder")
        root.mkdir(parents=True, exist_ok=True)
        created: list[str] = []
        config_path = root / CONFIG_FILE
        if not config_path.exists():
            atomic_write(config_path, default_config_text(timezone or system_timezone()).encode("utf-8"))
            created.append(CONFIG_FILE)
        vault = cls.open(root)
        for name in (RAW, DERIVED):
            if not (vault.root / name).is_dir():
                vault.ensure_dir(vault.root / name)
                created.append(name + "/")
        if DERIVED + "/" in created:
            load_config(vault.root)  # caches the parsed config now, so a second init writes nothing at all
        gitignore = vault.root / ".gitignore"
        lines = gitignore.read_text(encoding="utf-8").splitlines() if gitignore.exists() else []
        missing = [line for line in GITIGNORE_LINES if line not in (existing.strip() for existing in lines)]
        if missing:
            vault.write(".gitignore", ("\n".join([*lines, *missing]) + "\n").encode("utf-8"))
            created.append(".gitignore")
        return vault, created

    # ---------------------------------------------------------------- paths

    def resolve(self, relative: str | Path) -> Path:
        """A path inside the vault; UnsafePathError when it would leave it (through .. or a symlink)."""
        candidate = self.root / relative
        real = candidate.parent.resolve() / candidate.name
        if not real.is_relative_to(self.root) or real == self.root:
            raise UnsafePathError(
                f"refusing to use {relative}: it resolves outside the vault ({real})",
                hint="remove the symlink or fix the path",
            )
        if candidate.is_symlink():
            raise UnsafePathError(
                f"refusing to write through the symlink {relative}", hint="replace it with a regular file or folder"
            )
        return candidate

    def relative(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def ensure_dir(self, folder: Path, durable: bool = True) -> None:
        """Creates folder and its missing parents inside the vault, durably: a new folder's name is only
        on disk once its parent is fsynced, and a chunk in a day folder whose name a power cut loses is
        a lost chunk. Nothing is created when the nearest existing folder is outside the vault.
        durable=False: a bulk import, which syncs everything once at the end."""
        missing = []
        probe = folder
        while not probe.is_dir() and probe != probe.parent:
            missing.append(probe)
            probe = probe.parent
        if not probe.resolve().is_relative_to(self.root):
            raise UnsafePathError(
                f"refusing to use {folder}: it resolves outside the vault",
                hint="a folder in the vault is a symlink to elsewhere; replace it with a real folder",
            )
        for path in reversed(missing):
            with contextlib.suppress(FileExistsError):  # another writer made it: its name is fsynced here too
                io.mkdir(path)
            if durable:
                io.fsync_dir(path.parent)
        if not folder.resolve().is_relative_to(self.root):
            raise UnsafePathError(
                f"refusing to use {folder}: it resolves outside the vault",
                hint="a folder in the vault is a symlink to elsewhere; replace it with a real folder",
            )

    @property
    def derived(self) -> Path:
        """.memtree/: what can be rebuilt from the committed files (lock, index, cache, run log)."""
        return self.root / DERIVED

    def refuse_network_fs(self, allowed: bool) -> None:
        kind = filesystem_type(self.root)
        if kind in NETWORK_FILESYSTEMS and not allowed:
            raise NetworkFilesystemError(
                f"the vault is on a network filesystem ({kind}), where locks are unreliable",
                hint="move it to a local disk, or pass --allow-network-fs if only one machine writes to it",
            )

    # ---------------------------------------------------------------- generic files

    def write(self, relative: str, data: bytes) -> bool:
        """Atomically replaces a vault file; False when it already held exactly these bytes."""
        target = self.resolve(relative)
        try:
            if target.read_bytes() == data:
                return False
        except FileNotFoundError:
            pass
        except IsADirectoryError:
            raise UnsafePathError(f"{relative} is a folder", hint="move it out of the way") from None
        with _writing(relative):
            self.ensure_dir(target.parent)
            atomic_write(target, data)
        return True

    def read_bytes(self, relative: str) -> bytes | None:
        try:
            path = self.resolve(relative)
            return path.read_bytes()
        except (FileNotFoundError, UnsafePathError):
            return None

    def delete(self, relative: str) -> bool:
        target = self.resolve(relative)
        if not target.exists():
            return False
        with _writing(relative):
            remove(target)
        return True

    def delete_all(self, relatives: Sequence[str]) -> None:
        """Deletes many files (see remove_all: durable at the end, not file by file)."""
        targets = [self.resolve(relative) for relative in relatives]
        with _writing(relatives[0] if len(relatives) == 1 else f"{len(relatives)} files"):
            remove_all(targets)

    # ---------------------------------------------------------------- raw chunks

    def chunk_relpath(self, chunk: Chunk) -> str:
        day = chunk.timestamp.astimezone(self.config.tz).date()
        return f"{RAW}/{day.year:04d}/{day.month:02d}/{day.day:02d}/{chunk.id}.json"

    def store_chunk(self, chunk: Chunk, durable: bool = True, checked: set[str] | None = None) -> bool:
        """Writes a new chunk; False when the identical chunk is already stored.

        ConflictError when the id is taken by different content: nothing is ever overwritten.
        `checked` carries the day folders a bulk import has already found to be real folders inside
        the vault: a realpath per chunk was a quarter of a 10,000-chunk import. The file name is a
        valid id and O_NOFOLLOW guards the file itself.
        """
        relative = self.chunk_relpath(chunk)
        folder = relative.rpartition("/")[0]
        known = checked is not None and folder in checked
        target = self.root / relative if known else self.resolve(relative)
        data = chunk.to_bytes()
        with _writing(relative):
            if not known:
                if not target.parent.is_dir():
                    self.ensure_dir(target.parent, durable)
                if checked is not None:
                    checked.add(folder)
            if create_only(target, data, durable):
                return True
        try:
            existing = read_chunk_file(target)
        except VaultFormatError:
            existing = None
        if existing is not None and existing.content_hash == chunk.content_hash:
            return False
        if existing is None:
            raise DamagedChunkError(
                f"chunk id {chunk.id} is taken by an unreadable file ({self.relative(target)})",
                hint="see it with memtree doctor; if it is a damaged copy, delete it and add or import again",
            )
        raise ConflictError(
            f"chunk id {chunk.id} already exists with different content ({self.relative(target)})",
            hint="pass another --id, or leave --id out to derive one from the content",
        )

    def raw_files(self) -> Iterator[RawFile]:
        """Every chunk file under raw/YYYY/MM/DD/, sorted; temps and other names are skipped."""
        raw = self.root / RAW
        for year in _sorted_dirs(raw, 4):
            for month in _sorted_dirs(year, 2):
                for day in _sorted_dirs(month, 2):
                    day_key = f"{year.name}-{month.name}-{day.name}"
                    for entry in sorted(os.scandir(day), key=lambda e: e.name):
                        name = entry.name
                        if name.startswith(".") or not name.endswith(".json") or entry.is_symlink():
                            continue
                        if entry.is_file(follow_symlinks=False) and valid_id(name[:-5]):
                            yield RawFile(Path(entry.path), day_key, name[:-5])

    def day_dirs(self) -> Iterator[tuple[str, Path]]:
        """(YYYY-MM-DD, folder) for every day folder under raw/."""
        raw = self.root / RAW
        for year in _sorted_dirs(raw, 4):
            for month in _sorted_dirs(year, 2):
                for day in _sorted_dirs(month, 2):
                    yield f"{year.name}-{month.name}-{day.name}", day

    def summary_files(self, level: str) -> list[Path]:
        folder = self.root / level
        if not folder.is_dir() or folder.is_symlink():
            return []
        return sorted(
            p for p in folder.iterdir() if p.suffix == ".md" and not p.name.startswith(".") and not p.is_symlink()
        )

    # ---------------------------------------------------------------- lock and temps

    @contextlib.contextmanager
    def lock(self, name: str = "lock") -> Iterator[bool]:
        """An exclusive, non-blocking flock on .memtree/<name>; yields False when someone else holds it.

        flock, never lockf: a POSIX record lock is silently dropped when this process closes any
        other descriptor of the same file. The lock file is opened for nothing else.
        """
        with _writing(f"{DERIVED}/{name}"):  # a read-only vault or a full disk: one line, not a traceback
            self.ensure_dir(self.derived)
            path = self.resolve(f"{DERIVED}/{name}")
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            yield True
        finally:
            os.close(fd)  # releases the flock

    def stale_temps(
        self, now: float | None = None, older_than: float = STALE_TEMP_SECONDS, folders: Iterable[Path] | None = None
    ) -> list[Path]:
        """Temp files left by killed writers (never one younger than older_than: it may be live),
        in the given folders, or anywhere in the vault."""
        now = time.time() if now is None else now
        places: list[tuple[str, list[str]]] = []
        if folders is None:
            for folder, dirs, files in os.walk(self.root):
                # .memtree/ too: a crash while caching an LLM answer or the config leaves its temp there
                dirs[:] = sorted(d for d in dirs if d != ".git")
                places.append((folder, files))
        else:
            places = [(str(f), os.listdir(f)) for f in folders if f.is_dir() and not f.is_symlink()]
        found = []
        for folder, files in places:
            for name in sorted(files):
                if is_temp(name):
                    path = Path(folder) / name
                    with contextlib.suppress(FileNotFoundError):
                        if now - path.lstat().st_mtime > older_than:
                            found.append(path)
        return found

    def writable_folders(self) -> list[Path]:
        """Where memtree replaces files (raw day folders aside): where its temps can be left behind."""
        return [
            self.root,
            *(self.root / level for level in SUMMARY_DIRS),
            self.root / "facts",
            self.derived,
            self.derived / "cache",
            self.derived / "topic-tally",  # ROOT.md's topic tally by month (topic_cache.py)
        ]

    def lock_holders_folders(self) -> list[Path]:
        """Where only a holder of the compaction lock writes (summaries, facts): once a run holds the
        lock, every temp file there is a killed run's, however young. Not ROOT.md's folder (`memtree
        root` writes it without the lock), and never raw/, where an `add` may be in flight."""
        return [*(self.root / level for level in SUMMARY_DIRS), self.root / "facts"]

    def sweep_temps(
        self, now: float | None = None, folders: Iterable[Path] | None = None, older_than: float = STALE_TEMP_SECONDS
    ) -> int:
        removed = 0
        for path in self.stale_temps(now, older_than, folders):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
                removed += 1
        return removed


def _sorted_dirs(folder: Path, width: int) -> list[Path]:
    try:
        entries = os.scandir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []
    with entries:
        return sorted(
            (
                Path(e.path)
                for e in entries
                if len(e.name) == width and e.name.isdigit() and e.is_dir(follow_symlinks=False)
            ),
            key=lambda p: p.name,
        )


CONFIG_CACHE = f"{DERIVED}/config.json"


def load_config(root: Path) -> Config:
    """memtree.yaml, parsed; from a JSON cache under .memtree/ while the file is unchanged.

    Parsing YAML means importing PyYAML (~15 ms), which `memtree add` cannot afford on every
    agent turn; the cache is keyed by the file's mtime, size and inode.
    """
    source = root / CONFIG_FILE
    try:
        st = source.stat()
        stamp = [st.st_mtime_ns, st.st_size, st.st_ino, CONFIG_RULES]  # new rules: the file is checked again
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError, RecursionError):
            cached = json.loads((root / CONFIG_CACHE).read_text(encoding="utf-8"))
            if cached["stamp"] == stamp:
                return config_from_data(cached["config"])
        text = source.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(
            f"{source} is not UTF-8 text", hint="it should hold a few settings: save it as UTF-8, or run `memtree init`"
        ) from None
    except OSError as exc:
        raise VaultNotFoundError(
            f"cannot read {source}: {exc}", hint="check the file's permissions and encoding"
        ) from None
    config = parse_config(text, str(source))
    cache = root / CONFIG_CACHE
    if cache.parent.is_dir() and not cache.parent.is_symlink() and not cache.is_symlink():
        with contextlib.suppress(OSError):
            atomic_write(cache, json.dumps({"stamp": stamp, "config": config_to_data(config)}).encode("utf-8"))
    return config


def parse_timestamp(value: Any, where: str) -> datetime:
    if not isinstance(value, str):
        raise VaultFormatError(f"{where}: timestamp is not a string")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise VaultFormatError(f"{where}: timestamp {value!r} is not ISO 8601") from None
    if moment.tzinfo is None:
        raise VaultFormatError(f"{where}: timestamp {value!r} has no UTC offset")
    return moment


def chunk_from_record(record: Any, where: str) -> Chunk:
    """A chunk from its stored JSON object; VaultFormatError for anything out of shape."""
    if not isinstance(record, dict):
        raise VaultFormatError(f"{where}: not a JSON object")
    for key in ("id", "speaker", "text"):
        if not isinstance(record.get(key), str):
            raise VaultFormatError(f"{where}: '{key}' is missing or not a string")
    if not record["text"].isascii():
        try:
            record["text"].encode("utf-8")
        except UnicodeEncodeError:
            raise VaultFormatError(f"{where}: text holds a lone surrogate (not valid Unicode)") from None
    if not valid_id(record["id"]):
        raise VaultFormatError(f"{where}: invalid id {record['id']!r}")
    topics = record.get("topics", [])
    if not isinstance(topics, list) or not all(isinstance(t, str) for t in topics):
        raise VaultFormatError(f"{where}: 'topics' must be a list of strings")
    importance = record.get("importance")
    if importance is not None and (isinstance(importance, bool) or not isinstance(importance, (int, float))):
        raise VaultFormatError(f"{where}: 'importance' must be a number")
    for key in ("session", "source"):
        if record.get(key) is not None and not isinstance(record[key], str):
            raise VaultFormatError(f"{where}: '{key}' must be a string")
    return Chunk(
        id=record["id"],
        timestamp=parse_timestamp(record.get("timestamp"), where),
        speaker=record["speaker"],
        text=record["text"],
        session=record.get("session"),
        source=record.get("source"),
        topics=tuple(topics),
        importance=float(importance) if importance is not None else None,
    )


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError(f"duplicate key {next(k for k in keys if keys.count(k) > 1)!r}")
    return dict(pairs)


def decode_chunk(data: bytes, where: str) -> Chunk:
    data = data.removeprefix(b"\xef\xbb\xbf")  # a BOM some editors add: harmless
    if not data.strip():
        raise VaultFormatError(f"{where}: empty file")
    if any(marker in data for marker in CONFLICT_MARKERS):
        raise VaultFormatError(f"{where}: git conflict markers")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VaultFormatError(f"{where}: invalid UTF-8 at byte {exc.start}") from None
    try:
        record = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError) as exc:
        raise VaultFormatError(f"{where}: invalid JSON ({str(exc).splitlines()[0][:120]})") from None
    return chunk_from_record(record, where)


def read_chunk_file(path: Path) -> Chunk:
    """Reads one raw chunk file; VaultFormatError when it cannot be used (the caller reports and skips it)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise VaultFormatError(f"{path.name}: cannot open ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(MAX_CHUNK_BYTES + 1)
    if len(data) > MAX_CHUNK_BYTES:
        raise VaultFormatError(f"{path.name}: larger than {MAX_CHUNK_BYTES // (1024 * 1024)} MB")
    return decode_chunk(data, path.name)
