"""The derived index under .memtree/index.sqlite: every chunk and summary line, searchable.

It is a cache of the committed files, rebuilt from them at any time (delete it and the next
command rebuilds it). Two ways to bring it up to date:
- quick (recall, know, status): only day folders whose mtime changed are listed again, so a
  chunk added a second ago is found while a 100,000-chunk vault costs a few hundred stats;
- thorough (compaction): every file is stat'ed, so hand edits in place are noticed too.

SQLite is the one writer here besides vault.py: the file is derived, git-ignored, and SQLite
keeps it consistent across processes (WAL, one IMMEDIATE transaction per sync).

When the file cannot be used (a read-only vault, a full disk, a database another process keeps
locked), the index is built in memory from the files instead: slower, but every reading command
still answers, and nothing on disk is touched.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from .errors import VaultFormatError
from .markdown import parse_summary, summary_from_data, summary_to_data
from .model import CALENDAR_RANGE, Chunk, sha256_hex, utc_iso
from .periods import calendar_day, day_in_calendar, parse_period
from .summary import LEVELS, SECTIONS, Level, Summary
from .text import stems, word_forms
from .tokens import count_tokens
from .vault import RAW, Vault, is_temp, read_chunk_file

SCHEMA_VERSION = "15"  # 15: chunks by speaker (recall asks whose conversations a question names)
SITTING_GAP = timedelta(minutes=30)  # a longer pause ends a conversation that has no session id
BUSY_SECONDS = 120.0  # how long to wait for another process's sync before building in memory instead
PURGE_WAIT_SECONDS = 5.0  # how long forget waits for readers to leave the log before building the index anew
RACY_SECONDS = 2.0  # a folder changed this recently may change again within the same mtime tick

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE dirs(path TEXT PRIMARY KEY, mtime INTEGER NOT NULL);
CREATE TABLE chunks(
    rowid INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, folder TEXT NOT NULL, day TEXT NOT NULL,
    id TEXT NOT NULL, ts TEXT NOT NULL, local TEXT NOT NULL, speaker TEXT NOT NULL, session TEXT,
    conversation TEXT, source TEXT, topics TEXT NOT NULL, importance REAL, text TEXT NOT NULL, sha TEXT NOT NULL,
    tokens INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL);
CREATE INDEX chunks_folder ON chunks(folder);
CREATE INDEX chunks_id ON chunks(id);
CREATE INDEX chunks_ts ON chunks(ts);
CREATE INDEX chunks_day ON chunks(day);
CREATE INDEX chunks_session ON chunks(session, ts, id);
CREATE INDEX chunks_conversation ON chunks(conversation);
CREATE INDEX chunks_speaker ON chunks(speaker, conversation);
CREATE TABLE summaries(
    rowid INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, level TEXT NOT NULL, period TEXT NOT NULL,
    start TEXT NOT NULL, end TEXT NOT NULL, input_hash TEXT NOT NULL, sha TEXT NOT NULL, chunks INTEGER NOT NULL,
    data TEXT NOT NULL, sources TEXT NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL);
CREATE TABLE lines(
    rowid INTEGER PRIMARY KEY, summary INTEGER NOT NULL, level TEXT NOT NULL, period TEXT NOT NULL,
    section TEXT NOT NULL, text TEXT NOT NULL, sources TEXT NOT NULL, tokens INTEGER NOT NULL);
CREATE INDEX lines_summary ON lines(summary);
CREATE TABLE problems(path TEXT PRIMARY KEY, reason TEXT NOT NULL);
CREATE VIRTUAL TABLE chunk_fts USING fts5(words, stems, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE line_fts USING fts5(words, stems, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE chunk_vocab USING fts5vocab(chunk_fts, 'col');
CREATE TABLE conversations(rowid INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL);
CREATE VIRTUAL TABLE conversation_fts USING fts5(stems, tokenize='unicode61 remove_diacritics 0');
"""


# What says the index file cannot be used now (rather than that it is damaged, or a bug): the
# folder is read-only or full, or another process kept the database locked past BUSY_SECONDS.
_UNWRITABLE_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EDQUOT})
_UNUSABLE_SQLITE = frozenset(
    getattr(sqlite3, name)
    for name in ("SQLITE_READONLY", "SQLITE_FULL", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_BUSY", "SQLITE_LOCKED")
)


def unusable_file(exc: BaseException) -> bool:
    """Whether exc (or what caused it) says the index file cannot be written or reached right now."""
    while exc is not None:
        if isinstance(exc, OSError) and exc.errno in _UNWRITABLE_ERRNOS:
            return True
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in _UNUSABLE_SQLITE:
            return True
        exc = exc.__cause__  # type: ignore[assignment]
    return False


@dataclass(frozen=True)
class ChunkRow:
    """A chunk as the index holds it: enough to plan, search and quote without opening its file."""

    rowid: int
    path: str
    day: str
    id: str
    ts: str  # UTC, ISO 8601: sorts in time order
    local: str  # in the vault's zone, for display
    speaker: str
    session: str | None
    text: str
    sha: str
    tokens: int
    topics: tuple[str, ...]
    importance: float | None


class ChunkRef(NamedTuple):
    """What planning needs of a chunk: where it belongs, and its content hash (a tuple: there are many)."""

    rowid: int
    day: str
    id: str
    ts: str
    sha: str
    tokens: int


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Orders conv-D1-2 before conv-D1-10: chunks with equal timestamps keep their turn order."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", text) if p)


def natural_ties(refs: list[Any]) -> list[Any]:
    """refs sorted by (ts, id), with runs of equal timestamps re-sorted naturally by id (cheap: runs are rare)."""
    out: list[Any] = []
    start = 0
    for i in range(1, len(refs) + 1):
        if i == len(refs) or refs[i].ts != refs[start].ts:
            run = refs[start:i]
            out.extend(sorted(run, key=lambda r: natural_key(r.id)) if len(run) > 1 else run)
            start = i
    return out


class _Turn(NamedTuple):
    rowid: int
    ts: str
    id: str
    speaker: str


class Mentions(NamedTuple):
    chunks: int
    first: str  # day
    last: str
    days: int  # distinct days


@dataclass(frozen=True)
class LineRow:
    rowid: int
    level: Level
    period: str
    section: str
    text: str
    sources: tuple[str, ...]
    tokens: int


@dataclass
class SyncStats:
    chunks_read: int = 0
    chunks_removed: int = 0
    summaries_read: int = 0
    summaries_removed: int = 0
    temp_folders: set[str] = field(default_factory=set)  # raw folders holding temp files (for the sweeper)
    conversations: set[str] = field(default_factory=set)  # conversations whose turns changed (to index again)
    days: set[str] = field(default_factory=set)  # days whose chunks changed (their sittings are found again)


def _fts_text(text: str, named: str = "") -> tuple[str, str]:
    """(words, stems): awareness matches phrases of words, which include names (the speaker);
    ranking uses the stems of the text alone, or "the user's ..." would match every user turn."""
    return " ".join(word_forms(f"{named} {text}")), " ".join(stems(f"{named} {text}"))


class Index:
    """A connection to the vault's derived index; use as a context manager."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault
        self.path = vault.derived / "index.sqlite"
        self._db: sqlite3.Connection | None = None
        self.in_memory = False  # True once the file proved unusable (see the module docstring)

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = self._open()
        return self._db

    def _open(self) -> sqlite3.Connection:
        try:
            return self._open_file()
        except (OSError, sqlite3.Error) as exc:
            if not unusable_file(exc):
                raise
        return self._open_memory()

    def _open_file(self) -> sqlite3.Connection:
        self.vault.ensure_dir(self.vault.derived)
        self.vault.resolve(".memtree/index.sqlite")  # refuses a symlink out of the vault
        for attempt in range(2):
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")  # derived data: a lost tail is rebuilt
                if self._version(db) != SCHEMA_VERSION:
                    self._create(db)
                return db
            except sqlite3.DatabaseError as exc:
                db.close()
                if attempt or unusable_file(exc):
                    raise
                self._discard()  # a damaged cache: rebuild it from the files
        raise AssertionError("unreachable")

    def _open_memory(self) -> sqlite3.Connection:
        self.in_memory = True
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self._create(db)
        return db

    def _version(self, db: sqlite3.Connection) -> str | None:
        with contextlib.suppress(sqlite3.OperationalError):
            row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            return str(row[0]) if row else None
        return None

    def _create(self, db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            if self._version(db) == SCHEMA_VERSION:  # another process just built it
                db.execute("COMMIT")
                return
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for name in tables:
                if not name.startswith(("chunk_fts_", "line_fts_", "conversation_fts_", "sqlite_")):
                    db.execute(f'DROP TABLE IF EXISTS "{name}"')
            for statement in _SCHEMA.split(";\n"):
                if statement.strip():
                    db.execute(statement)
        except BaseException:
            with contextlib.suppress(sqlite3.OperationalError):
                db.execute("ROLLBACK")
            raise
        db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        db.execute("COMMIT")

    def _discard(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{self.path}{suffix}")

    # ---------------------------------------------------------------- sync

    def sync(self, thorough: bool = False) -> SyncStats:
        """Brings the index up to date with the files (see the module docstring)."""
        try:
            return self._sync(thorough)
        except (OSError, sqlite3.Error) as exc:
            if self.in_memory or not unusable_file(exc):
                raise
        self.close()  # the disk filled up, or another process held the file too long
        self._db = self._open_memory()
        return self._sync(thorough)

    def _sync(self, thorough: bool) -> SyncStats:
        stats = SyncStats()
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            self._sync_raw(db, thorough, stats)
            self._sync_conversations(db, stats)
            for level in LEVELS:
                self._sync_summaries(db, level, stats)
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):  # a full disk may refuse even the rollback's journal
                db.execute("ROLLBACK")
            raise
        return stats

    def _sync_raw(self, db: sqlite3.Connection, thorough: bool, stats: SyncStats) -> None:
        now = time.time()
        known = dict(db.execute("SELECT path, mtime FROM dirs WHERE path LIKE 'raw/%'").fetchall())
        seen: set[str] = set()
        for _day, folder in self.vault.day_dirs():
            relative = self.vault.relative(folder)
            seen.add(relative)
            try:
                mtime = folder.stat().st_mtime_ns
            except FileNotFoundError:
                continue
            if not thorough and known.get(relative) == mtime:
                continue
            self._sync_folder(db, folder, relative, stats)
            recorded = 0 if now - mtime / 1e9 < RACY_SECONDS else mtime
            db.execute("INSERT OR REPLACE INTO dirs VALUES (?, ?)", (relative, recorded))
        for gone in set(known) - seen:
            stats.conversations |= self._conversations_in(db, "folder = ?", (gone,))
            stats.days.add(gone[len(RAW) + 1 :].replace("/", "-"))
            stats.chunks_removed += db.execute("DELETE FROM chunks WHERE folder = ?", (gone,)).rowcount
            db.execute("DELETE FROM chunk_fts WHERE rowid NOT IN (SELECT rowid FROM chunks)")
            db.execute("DELETE FROM dirs WHERE path = ?", (gone,))
            db.execute("DELETE FROM problems WHERE path LIKE ?", (gone + "/%",))

    def _sync_folder(self, db: sqlite3.Connection, folder: Path, relative: str, stats: SyncStats) -> None:
        rows = {
            path: (rowid, size, mtime)
            for rowid, path, size, mtime in db.execute(
                "SELECT rowid, path, size, mtime FROM chunks WHERE folder = ?", (relative,)
            )
        }
        present: set[str] = set()
        day = relative[len(RAW) + 1 :].replace("/", "-")
        stats.days.add(day)
        with os.scandir(folder) as entries:
            listing = list(entries)
        if any(is_temp(e.name) for e in listing):
            stats.temp_folders.add(relative)
        files = sorted(
            (e for e in listing if e.name.endswith(".json") and not e.name.startswith(".")), key=lambda e: e.name
        )
        for entry in files:
            path = f"{relative}/{entry.name}"
            present.add(path)
            try:
                st = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            old = rows.get(path)
            if old is not None and old[1] == st.st_size and old[2] == st.st_mtime_ns:
                continue
            self._read_chunk(db, Path(entry.path), path, relative, day, st, old[0] if old else None, stats)
        for path, (rowid, _, _) in rows.items():
            if path not in present:
                stats.conversations |= self._conversations_in(db, "rowid = ?", (rowid,))
                self._drop_chunk(db, rowid)
                stats.chunks_removed += 1
        for (path,) in db.execute("SELECT path FROM problems WHERE path LIKE ?", (relative + "/%",)).fetchall():
            if path not in present:
                db.execute("DELETE FROM problems WHERE path = ?", (path,))

    def _read_chunk(
        self,
        db: sqlite3.Connection,
        file: Path,
        path: str,
        folder: str,
        day: str,
        st: os.stat_result,
        rowid: int | None,
        stats: SyncStats,
    ) -> None:
        if rowid is not None:
            stats.conversations |= self._conversations_in(db, "rowid = ?", (rowid,))
            self._drop_chunk(db, rowid)
        try:
            if os.path.islink(file):
                raise VaultFormatError(f"{file.name}: a symlink (chunks must be regular files)")
            chunk = read_chunk_file(file)
            if chunk.id != file.name[:-5]:
                raise VaultFormatError(f"{file.name}: its id is {chunk.id!r}, not the file name")
            # outside the calendar its day, week and month cannot be computed: skipped (doctor says why)
            if day_in_calendar(chunk.timestamp, self.vault.config.tz) is None or calendar_day(day) is None:
                raise VaultFormatError(f"{file.name}: its day is outside {CALENDAR_RANGE} (see memtree doctor)")
        except VaultFormatError as exc:
            db.execute("INSERT OR REPLACE INTO problems VALUES (?, ?)", (path, exc.message))
            return
        db.execute("DELETE FROM problems WHERE path = ?", (path,))
        local = chunk.timestamp.astimezone(self.vault.config.tz)
        cursor = db.execute(
            "INSERT INTO chunks(path, folder, day, id, ts, local, speaker, session, conversation, source, topics,"
            " importance, text, sha, tokens, size, mtime) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                path,
                folder,
                day,
                chunk.id,
                utc_iso(chunk.timestamp),
                local.isoformat(),
                chunk.speaker,
                chunk.session,
                None if chunk.session is None else f"session:{chunk.session}",  # a sitting: set at the end of sync
                chunk.source,
                json.dumps(list(chunk.topics)),
                chunk.importance,
                chunk.text,
                chunk.content_hash,
                count_tokens(chunk.text, self.vault.config.tokenizer),
                st.st_size,
                st.st_mtime_ns,
            ),
        )
        words, stem_text = _fts_text(f"{' '.join(chunk.topics)} {chunk.text}", named=chunk.speaker)
        db.execute("INSERT INTO chunk_fts(rowid, words, stems) VALUES (?, ?, ?)", (cursor.lastrowid, words, stem_text))
        stats.chunks_read += 1
        if chunk.session is not None:
            stats.conversations.add(f"session:{chunk.session}")

    @staticmethod
    def _conversations_in(db: sqlite3.Connection, where: str, params: Sequence[Any]) -> set[str]:
        sql = f"SELECT DISTINCT conversation FROM chunks WHERE conversation IS NOT NULL AND {where}"
        return {str(r[0]) for r in db.execute(sql, params)}

    def _sync_conversations(self, db: sqlite3.Connection, stats: SyncStats) -> None:
        """Each changed conversation is indexed again as one text, its turns' stems together, so a
        question is matched against what was said together, not only turn by turn. A conversation is
        a session where the chunks name one; otherwise a sitting (_find_sittings)."""
        keys = set(stats.conversations)
        for day in sorted(stats.days):
            for (old,) in db.execute("SELECT key FROM conversations WHERE key LIKE ?", (f"day:{day}#%",)).fetchall():
                keys.add(str(old))
            keys |= self._find_sittings(db, day)
        for key in sorted(keys):
            old = db.execute("SELECT rowid FROM conversations WHERE key = ?", (key,)).fetchone()
            if old is not None:
                db.execute("DELETE FROM conversation_fts WHERE rowid = ?", (old[0],))
                db.execute("DELETE FROM conversations WHERE rowid = ?", (old[0],))
            texts = db.execute(
                "SELECT f.stems FROM chunks c JOIN chunk_fts f ON f.rowid = c.rowid WHERE c.conversation = ?"
                " ORDER BY c.ts, c.id",
                (key,),
            ).fetchall()
            if texts:
                rowid = db.execute("INSERT INTO conversations(key) VALUES (?)", (key,)).lastrowid
                db.execute(
                    "INSERT INTO conversation_fts(rowid, stems) VALUES (?, ?)", (rowid, " ".join(t for (t,) in texts))
                )

    @staticmethod
    def _find_sittings(db: sqlite3.Connection, day: str) -> set[str]:
        """Splits a day's chunks without a session into sittings, keyed day:<day>#<n>: turns in time
        order, a new sitting after a pause of SITTING_GAP, or when someone new speaks once two people
        are already talking (another conversation the same minute: a dialogue is between its people)."""
        rows = db.execute("SELECT rowid, ts, id, speaker FROM chunks WHERE day = ? AND session IS NULL", (day,))
        turns = natural_ties(sorted((_Turn(*r) for r in rows.fetchall()), key=lambda t: (t.ts, t.id)))
        keys: set[str] = set()
        number, speakers, last = 0, set(), None
        for turn in turns:
            at, speaker = datetime.fromisoformat(turn.ts), turn.speaker
            if last is not None and (at - last > SITTING_GAP or (len(speakers) >= 2 and speaker not in speakers)):
                number, speakers = number + 1, set()
            speakers.add(speaker)
            last = at
            key = f"day:{day}#{number}"
            keys.add(key)
            db.execute("UPDATE chunks SET conversation = ? WHERE rowid = ?", (key, turn.rowid))
        return keys

    def _drop_chunk(self, db: sqlite3.Connection, rowid: int) -> None:
        db.execute("DELETE FROM chunks WHERE rowid = ?", (rowid,))
        db.execute("DELETE FROM chunk_fts WHERE rowid = ?", (rowid,))

    def _sync_summaries(self, db: sqlite3.Connection, level: Level, stats: SyncStats) -> None:
        rows = {
            path: (rowid, size, mtime)
            for rowid, path, size, mtime in db.execute(
                "SELECT rowid, path, size, mtime FROM summaries WHERE level = ?", (level,)
            )
        }
        present = set()
        for file in self.vault.summary_files(level):
            path = f"{level}/{file.name}"
            present.add(path)
            try:
                st = file.stat()
            except FileNotFoundError:
                continue
            old = rows.get(path)
            if old is not None and old[1] == st.st_size and old[2] == st.st_mtime_ns:
                continue
            if old is not None:
                self._drop_summary(db, old[0])
            self._read_summary(db, file, path, level, st, stats)
        for path, (rowid, _, _) in rows.items():
            if path not in present:
                self._drop_summary(db, rowid)
                db.execute("DELETE FROM problems WHERE path = ?", (path,))
                stats.summaries_removed += 1

    def _read_summary(
        self, db: sqlite3.Connection, file: Path, path: str, level: Level, st: os.stat_result, stats: SyncStats
    ) -> None:
        try:
            parse_period(level, file.stem)
            data = file.read_bytes()
            summary = parse_summary(data.decode("utf-8"), level, file.stem, path)
        except UnicodeDecodeError:
            db.execute("INSERT OR REPLACE INTO problems VALUES (?, ?)", (path, f"{path}: invalid UTF-8"))
            return
        except ValueError:
            db.execute(
                "INSERT OR REPLACE INTO problems VALUES (?, ?)", (path, f"{path}: not a valid {level} period name")
            )
            return
        except VaultFormatError as exc:
            db.execute("INSERT OR REPLACE INTO problems VALUES (?, ?)", (path, exc.message))
            return
        db.execute("DELETE FROM problems WHERE path = ?", (path,))
        cursor = db.execute(
            "INSERT INTO summaries(path, level, period, start, end, input_hash, sha, chunks, data, sources, size,"
            " mtime) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                path,
                level,
                summary.period,
                summary.start,
                summary.end,
                summary.input_hash,
                sha256_hex(data),
                summary.chunks,
                json.dumps(summary_to_data(summary, with_sources=False)),
                json.dumps([[ref.id, ref.sha256] for ref in summary.sources]),
                st.st_size,
                st.st_mtime_ns,
            ),
        )
        summary_id = cursor.lastrowid
        tokenizer = self.vault.config.tokenizer
        for section, _title in SECTIONS:
            for bullet in summary.draft.section(section):
                line = db.execute(
                    "INSERT INTO lines(summary, level, period, section, text, sources, tokens) VALUES (?,?,?,?,?,?,?)",
                    (
                        summary_id,
                        level,
                        summary.period,
                        section,
                        bullet.text,
                        " ".join(bullet.sources),
                        count_tokens(bullet.text, tokenizer),
                    ),
                )
                words, stem_text = _fts_text(bullet.text)
                db.execute(
                    "INSERT INTO line_fts(rowid, words, stems) VALUES (?, ?, ?)", (line.lastrowid, words, stem_text)
                )
        stats.summaries_read += 1

    def _drop_summary(self, db: sqlite3.Connection, rowid: int) -> None:
        db.execute("DELETE FROM line_fts WHERE rowid IN (SELECT rowid FROM lines WHERE summary = ?)", (rowid,))
        db.execute("DELETE FROM lines WHERE summary = ?", (rowid,))
        db.execute("DELETE FROM summaries WHERE rowid = ?", (rowid,))

    # ---------------------------------------------------------------- forget

    def names_any(self, chunk_ids: Sequence[str]) -> bool:
        """Whether a chunk row, or a summary or line citing a chunk, still names one of the ids."""
        for chunk_id in chunk_ids:
            for table, column in (("chunks", "id"), ("summaries", "sources"), ("lines", "sources")):
                if self.db.execute(f"SELECT 1 FROM {table} WHERE instr({column}, ?) LIMIT 1", (chunk_id,)).fetchone():
                    return True
        return False

    def purge_residue(self) -> bool:
        """Rewrites the file without what deleted rows leave behind: FTS5 keeps a deleted row's terms in
        its segments until they merge, SQLite keeps deleted rows in free pages, the log keeps old pages.
        False when that cannot be done now (the index is in memory, another process reads the file)."""
        if self.in_memory:
            return False
        try:
            for table in ("chunk_fts", "line_fts", "conversation_fts"):
                self.db.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
            self.db.execute("VACUUM")
            # a reader's snapshot keeps the log: the caller builds the file anew rather than wait for it
            self.db.execute(f"PRAGMA busy_timeout = {int(PURGE_WAIT_SECONDS * 1000)}")
            busy, _, _ = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            return False
        finally:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        return not busy

    # ---------------------------------------------------------------- queries

    def chunk_refs(self) -> list[ChunkRef]:
        """Every chunk, lightly (no text), in time order with turn order kept for equal times."""
        rows = self.db.execute("SELECT rowid, day, id, ts, sha, tokens FROM chunks ORDER BY ts, id").fetchall()
        refs = [ChunkRef(*row) for row in rows]
        return natural_ties(refs)

    def chunks(self, where: str = "", params: Sequence[Any] = ()) -> list[ChunkRow]:
        sql = (
            "SELECT rowid, path, day, id, ts, local, speaker, session, text, sha, tokens, topics, importance"
            " FROM chunks" + (f" WHERE {where}" if where else "")
        )
        return [_chunk_row(r) for r in self.db.execute(sql, params)]

    def chunks_by_rowid(self, rowids: Sequence[int]) -> dict[int, ChunkRow]:
        found: dict[int, ChunkRow] = {}
        for start in range(0, len(rowids), 500):
            batch = rowids[start : start + 500]
            for row in self.chunks(f"rowid IN ({','.join('?' * len(batch))})", batch):
                found[row.rowid] = row
        return found

    def chunks_by_id(self, ids: Sequence[str]) -> dict[str, ChunkRow]:
        found: dict[str, ChunkRow] = {}
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            for row in self.chunks(f"id IN ({','.join('?' * len(batch))})", batch):
                found.setdefault(row.id, row)
        return found

    def speakers(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT DISTINCT speaker FROM chunks")}

    def sourced(self, prefix: str) -> list[tuple[str, str, str, str, tuple[str, ...], str]]:
        """(id, day, ts, text, topics, source) of the chunks whose source starts with prefix (`remember:`)."""
        rows = self.db.execute(
            "SELECT id, day, ts, text, topics, source FROM chunks WHERE substr(source, 1, ?) = ? ORDER BY ts, id",
            (len(prefix), prefix),
        ).fetchall()
        return [(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), r[5]) for r in rows]

    def summaries(self, level: Level | None = None) -> list[tuple[str, Summary]]:
        """(path, summary) for every readable summary, in period order.

        Without their source lists (36,500 refs in a one-year vault): nothing that reads
        summaries from the index needs them; the files hold them (see `summary_sources`).
        """
        sql = "SELECT path, data FROM summaries" + (" WHERE level = ?" if level else "") + " ORDER BY level, period"
        rows = self.db.execute(sql, (level,) if level else ())
        return [(path, summary_from_data(json.loads(data))) for path, data in rows]

    def summary_sources(self, path: str) -> list[tuple[str, str]]:
        row = self.db.execute("SELECT sources FROM summaries WHERE path = ?", (path,)).fetchone()
        return [(i, h) for i, h in json.loads(row[0])] if row else []

    def summary_hashes(self) -> dict[str, tuple[str, str]]:
        """path -> (input hash recorded in it, sha256 of the file's bytes)."""
        return {path: (ih, sha) for path, ih, sha in self.db.execute("SELECT path, input_hash, sha FROM summaries")}

    def problems(self) -> list[tuple[str, str]]:
        return list(self.db.execute("SELECT path, reason FROM problems ORDER BY path"))

    def search_chunks(self, match: str, limit: int) -> list[tuple[int, float]]:
        """(rowid, score) by BM25 on the stems column, best first; score is positive, larger is better."""
        sql = (
            "SELECT rowid, -bm25(chunk_fts, 0.0, 1.0) AS score FROM chunk_fts WHERE chunk_fts MATCH ?"
            " ORDER BY bm25(chunk_fts, 0.0, 1.0) LIMIT ?"
        )
        return [(int(r), float(s)) for r, s in self.db.execute(sql, (match, limit))]

    def next_in_session(self, rowids: Sequence[int]) -> dict[int, int]:
        """rowid -> the rowid of the turn that follows it in its conversation (the reply), where there is one.

        In memory order (time, then ids in natural order), so turns sharing a timestamp keep their
        order: "D1-2" comes before "D1-10"."""
        found: dict[int, int] = {}
        turns: dict[str, list[int]] = {}
        keys = self.conversation_keys(rowids)
        for rowid in rowids:
            key = keys.get(rowid)
            if key is None:
                continue
            if key not in turns:
                rows = self.db.execute("SELECT rowid, ts, id FROM chunks WHERE conversation = ?", (key,)).fetchall()
                ordered = natural_ties(
                    sorted((ChunkRef(r, "", i, ts, "", 0) for r, ts, i in rows), key=lambda ref: (ref.ts, ref.id))
                )
                turns[key] = [ref.rowid for ref in ordered]
            order = turns[key]
            position = order.index(rowid)
            if position + 1 < len(order):
                found[rowid] = order[position + 1]
        return found

    def conversation_keys(self, rowids: Sequence[int]) -> dict[int, str]:
        """rowid -> the key of the chunk's conversation: its session, or its sitting (_find_sittings)."""
        found: dict[int, str] = {}
        for start in range(0, len(rowids), 500):
            batch = rowids[start : start + 500]
            sql = f"SELECT rowid, conversation FROM chunks WHERE rowid IN ({','.join('?' * len(batch))})"
            found.update((int(r), str(k)) for r, k in self.db.execute(sql, batch) if k is not None)
        return found

    def conversation_members(self, keys: Sequence[str]) -> dict[str, list[int]]:
        """Each conversation key with all its chunks' rowids."""
        sql = "SELECT rowid FROM chunks WHERE conversation = ?"
        return {key: [int(r[0]) for r in self.db.execute(sql, (key,))] for key in keys}

    def search_conversations(self, match: str, limit: int, speakers: Sequence[str] = ()) -> list[tuple[str, float]]:
        """(conversation key, score) by BM25 over each conversation's turns taken as one text, best first;
        only conversations one of speakers takes part in, when given."""
        among = ""
        if speakers:
            marks = ",".join("?" * len(speakers))
            among = f" AND c.key IN (SELECT conversation FROM chunks WHERE speaker IN ({marks}))"
        sql = (
            "SELECT c.key, -bm25(conversation_fts) FROM conversation_fts f JOIN conversations c ON c.rowid = f.rowid"
            f" WHERE conversation_fts MATCH ?{among} ORDER BY bm25(conversation_fts) LIMIT ?"
        )
        return [(str(k), float(s)) for k, s in self.db.execute(sql, (match, *speakers, limit))]

    def stems_of(self, rowids: Sequence[int]) -> dict[int, str]:
        """The ranking terms of each chunk, as indexed (space-separated stems)."""
        found: dict[int, str] = {}
        for start in range(0, len(rowids), 500):
            batch = rowids[start : start + 500]
            sql = f"SELECT rowid, stems FROM chunk_fts WHERE rowid IN ({','.join('?' * len(batch))})"
            found.update((int(r[0]), str(r[1])) for r in self.db.execute(sql, batch))
        return found

    def document_frequency(self, terms: Sequence[str]) -> dict[str, int]:
        """How many chunks each ranking term occurs in (FTS5's vocabulary table)."""
        found: dict[str, int] = {}
        for term in terms:
            row = self.db.execute("SELECT doc FROM chunk_vocab WHERE col = 'stems' AND term = ?", (term,)).fetchone()
            found[term] = int(row[0]) if row else 0
        return found

    def conversation_count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM conversations").fetchone()[0])

    def conversations_with(self, speakers: Sequence[str]) -> int:
        """How many conversations one of speakers takes part in."""
        if not speakers:
            return 0
        sql = f"SELECT count(DISTINCT conversation) FROM chunks WHERE speaker IN ({','.join('?' * len(speakers))})"
        return int(self.db.execute(sql, tuple(speakers)).fetchone()[0])

    def chunk_count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM chunks").fetchone()[0])

    def search_lines(self, match: str, limit: int) -> list[tuple[LineRow, float]]:
        sql = (
            "SELECT l.rowid, l.level, l.period, l.section, l.text, l.sources, l.tokens, -bm25(line_fts, 0.0, 1.0)"
            " FROM line_fts JOIN lines l ON l.rowid = line_fts.rowid WHERE line_fts MATCH ?"
            " ORDER BY bm25(line_fts, 0.0, 1.0) LIMIT ?"
        )
        return [
            (LineRow(r[0], r[1], r[2], r[3], r[4], tuple(r[5].split()), r[6]), float(r[7]))
            for r in self.db.execute(sql, (match, limit))
        ]

    def phrase_chunks(self, match: str) -> Iterator[ChunkRow]:
        """Chunks whose word forms match an FTS5 phrase query (awareness), newest first."""
        sql = (
            "SELECT c.rowid, c.path, c.day, c.id, c.ts, c.local, c.speaker, c.session, c.text, c.sha, c.tokens,"
            " c.topics, c.importance FROM chunk_fts JOIN chunks c ON c.rowid = chunk_fts.rowid"
            " WHERE chunk_fts MATCH ? ORDER BY c.ts DESC"
        )
        for r in self.db.execute(sql, (match,)):
            yield _chunk_row(r)

    def phrase_stats(self, match: str) -> Mentions:
        """How often and when an awareness phrase query matches."""
        sql = (
            "SELECT count(*), min(c.day), max(c.day), count(DISTINCT c.day) FROM chunk_fts"
            " JOIN chunks c ON c.rowid = chunk_fts.rowid WHERE chunk_fts MATCH ?"
        )
        count, first, last, days = self.db.execute(sql, (match,)).fetchone()
        return Mentions(int(count), first or "", last or "", int(days))

    def day_count(self) -> int:
        return int(self.db.execute("SELECT count(DISTINCT day) FROM chunks").fetchone()[0])

    def phrase_lines(self, match: str) -> list[LineRow]:
        sql = (
            "SELECT l.rowid, l.level, l.period, l.section, l.text, l.sources, l.tokens FROM line_fts"
            " JOIN lines l ON l.rowid = line_fts.rowid WHERE line_fts MATCH ? ORDER BY l.period DESC"
        )
        return [
            LineRow(r[0], r[1], r[2], r[3], r[4], tuple(r[5].split()), r[6]) for r in self.db.execute(sql, (match,))
        ]

    def totals(self) -> dict[str, Any]:
        count, tokens, first, last = self.db.execute(
            "SELECT count(*), sum(tokens), min(ts), max(ts) FROM chunks"
        ).fetchone()
        levels = dict(self.db.execute("SELECT level, count(*) FROM summaries GROUP BY level").fetchall())
        return {
            "chunks": count,
            "raw_tokens": tokens or 0,
            "first": first,
            "last": last,
            "summaries": {level: levels.get(level, 0) for level in LEVELS},
        }


def _chunk_row(r: Sequence[Any]) -> ChunkRow:
    return ChunkRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], tuple(json.loads(r[11])), r[12])


def chunk_from_row(row: ChunkRow) -> Chunk:
    return Chunk(
        row.id, datetime.fromisoformat(row.local), row.speaker, row.text, row.session, None, row.topics, row.importance
    )
