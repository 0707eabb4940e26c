"""`memtree doctor` and `memtree status`: what the vault holds, and every file it cannot use.

Doctor reads the files themselves (never the derived index), so it also works when the index
is damaged, and it changes nothing unless asked to fix what is safe to fix.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import CONFIG_FILE, Config
from .errors import VaultFormatError
from .markdown import read_front_matter, summary_from_parts
from .model import CALENDAR_RANGE, valid_id
from .periods import day_in_calendar, parse_period
from .summary import LEVELS, FactCandidate, Summary
from .vault import (
    DERIVED,
    GITIGNORE_LINES,
    RAW,
    STALE_TEMP_SECONDS,
    Vault,
    is_temp,
    read_chunk_file,
)

if TYPE_CHECKING:
    from datetime import datetime

    from .compaction import CompactReport

KNOWN_TOP_LEVEL = {CONFIG_FILE, RAW, DERIVED, "ROOT.md", ".gitignore", ".git", "facts", *LEVELS}
LAST_RUN = "last_run.json"


@dataclass(frozen=True)
class Problem:
    path: str  # relative to the vault
    kind: str  # unreadable, misplaced, out-of-range, duplicate-id, stale-temp, temp, symlink, unexpected, config,
    # summary
    message: str
    fix: str | None = None  # what `doctor --fix` would do, when something safe can be done

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind, "message": self.message, "fix": self.fix}


@dataclass
class DoctorReport:
    problems: list[Problem] = field(default_factory=list)
    chunks_ok: int = 0
    summaries_ok: int = 0
    fixed: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": not self.problems,
            "chunks_ok": self.chunks_ok,
            "summaries_ok": self.summaries_ok,
            "problems": [p.to_json() for p in self.problems],
            "fixed": self.fixed,
        }


def _unknown_config_keys(vault: Vault) -> list[str]:
    import yaml

    try:
        data = yaml.safe_load((vault.root / CONFIG_FILE).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError, UnicodeDecodeError, RecursionError):
        return []
    known = {"timezone", "summarizer", "budgets", "settle_hours", "redaction", "topics", "facts", "tokenizer"}
    known |= {"retention", "recall"}
    return sorted(str(k) for k in data if k not in known) if isinstance(data, dict) else []


def doctor(vault: Vault, fix: bool = False, now: float | None = None) -> DoctorReport:
    """Lists every file the vault cannot read or that sits in the wrong place; fixes only when asked."""
    now = time.time() if now is None else now
    report = DoctorReport()
    problems = report.problems
    for key in _unknown_config_keys(vault):
        problems.append(Problem(CONFIG_FILE, "config", f"unknown setting {key!r} (ignored)"))
    gitignore = vault.root / ".gitignore"
    ignored = gitignore.read_text(encoding="utf-8", errors="replace").split() if gitignore.exists() else []
    for line in GITIGNORE_LINES:
        if line not in ignored:
            problems.append(
                Problem(".gitignore", "config", f"{line} is not git-ignored", fix="run `memtree init` again")
            )

    ids: dict[str, list[str]] = defaultdict(list)
    moves: list[tuple[Path, Path]] = []
    with_facts: list[tuple[str, str, tuple[FactCandidate, ...]]] = []  # (file, backend, fact candidates)
    for folder, dirs, files in os.walk(vault.root):
        here = Path(folder)
        rel_dir = vault.relative(here) if here != vault.root else ""
        if rel_dir == "":
            dirs[:] = sorted(d for d in dirs if d not in (".git", DERIVED))
        else:
            dirs[:] = sorted(dirs)
        for name in sorted(dirs):
            if (here / name).is_symlink():
                problems.append(
                    Problem(
                        f"{rel_dir}/{name}".lstrip("/"),
                        "symlink",
                        "a symlinked folder (memtree never writes through it)",
                    )
                )
        for name in sorted(files):
            path = here / name
            rel = f"{rel_dir}/{name}".lstrip("/")
            top = rel.split("/", 1)[0]
            if is_temp(name):
                age = now - path.lstat().st_mtime
                if age > STALE_TEMP_SECONDS:
                    problems.append(
                        Problem(
                            rel,
                            "stale-temp",
                            f"temp file left by an interrupted write ({int(age // 60)} min old)",
                            fix="delete it",
                        )
                    )
                continue
            if path.is_symlink():
                problems.append(Problem(rel, "symlink", "a symlink (memtree neither reads nor writes through it)"))
                continue
            if rel_dir == "" and name not in KNOWN_TOP_LEVEL and not name.startswith("."):
                continue  # the user's own files (README, notes): not ours to judge
            if top == RAW:
                _check_chunk(vault, path, rel, problems, ids, moves, report)
            elif top in LEVELS and name.endswith(".md"):
                summary = _check_summary(path, rel, top, problems, report)
                if summary is not None and summary.level == "daily" and summary.draft.facts:
                    with_facts.append((rel, summary.summarizer.backend, summary.draft.facts))
    from .facts.candidates import month_path, read_days

    with_facts.extend((month_path(day.day), day.backend, day.facts) for day in read_days(vault).values())
    _check_fact_sources(vault, with_facts, ids, problems)
    for chunk_id, paths in sorted(ids.items()):
        if len(paths) > 1:
            for rel in paths[1:]:
                problems.append(Problem(rel, "duplicate-id", f"id {chunk_id} is also used by {paths[0]}"))
    if fix:
        report.fixed = _fix(vault, problems, moves)
    return report


def _check_chunk(
    vault: Vault,
    path: Path,
    rel: str,
    problems: list[Problem],
    ids: dict[str, list[str]],
    moves: list[tuple[Path, Path]],
    report: DoctorReport,
) -> None:
    parts = rel.split("/")
    if len(parts) != 5 or not name_is_chunk(parts[4]) or not all(p.isdigit() for p in parts[1:4]):
        problems.append(Problem(rel, "unexpected", "not a chunk file (raw/YYYY/MM/DD/<id>.json)"))
        return
    try:
        chunk = read_chunk_file(path)
    except VaultFormatError as exc:
        problems.append(Problem(rel, "unreadable", exc.message.split(": ", 1)[-1]))
        return
    if chunk.id != parts[4][:-5]:
        problems.append(Problem(rel, "unreadable", f"its id is {chunk.id!r}, not the file name"))
        return
    ids[chunk.id].append(rel)
    if day_in_calendar(chunk.timestamp, vault.config.tz) is None:
        problems.append(
            Problem(
                rel,
                "out-of-range",
                f"its timestamp {chunk.timestamp.isoformat()} is outside {CALENDAR_RANGE}, so compaction, recall"
                f" and ROOT.md skip it (hint: correct the timestamp in the file, or `memtree forget {chunk.id}`)",
            )
        )
        return
    expected = vault.chunk_relpath(chunk)
    if expected != rel:
        problems.append(
            Problem(
                rel,
                "misplaced",
                f"its timestamp {chunk.timestamp.isoformat()} belongs in {expected}",
                fix=f"move it to {expected}",
            )
        )
        moves.append((path, vault.root / expected))
        return
    report.chunks_ok += 1


def name_is_chunk(name: str) -> bool:
    return name.endswith(".json") and valid_id(name[:-5])


def _check_summary(path: Path, rel: str, level: str, problems: list[Problem], report: DoctorReport) -> Summary | None:
    try:
        parse_period(level, path.stem)  # type: ignore[arg-type]
    except ValueError:
        problems.append(Problem(rel, "summary", f"not a valid {level} period name"))
        return None
    try:
        data, body = read_front_matter(path.read_bytes().decode("utf-8"), rel)
        summary = summary_from_parts(data, body, level, path.stem, rel)  # type: ignore[arg-type]
    except UnicodeDecodeError:
        problems.append(Problem(rel, "unreadable", "invalid UTF-8"))
        return None
    except VaultFormatError as exc:
        problems.append(Problem(rel, "unreadable", exc.message.split(": ", 1)[-1]))
        return None
    if str(data.get("period")) != summary.period or data.get("level") != level:
        problems.append(
            Problem(rel, "summary", f"front matter says {data.get('level')}/{data.get('period')}; the path wins")
        )
    report.summaries_ok += 1
    return summary


def _check_fact_sources(
    vault: Vault,
    with_facts: list[tuple[str, str, tuple[FactCandidate, ...]]],
    ids: dict[str, list[str]],
    problems: list[Problem],
) -> None:
    """A fact whose text is not in the chunks it cites (facts/provenance.py) was written by hand: it would be a
    standing fact in every session's prompt, so compaction leaves it out and doctor says where it is."""
    from .facts.provenance import supported

    chunks: dict[str, tuple[str, str] | None] = {}

    def said(chunk_id: str) -> tuple[str, str] | None:
        if chunk_id not in chunks:
            chunks[chunk_id] = None
            with contextlib.suppress(VaultFormatError):
                if ids.get(chunk_id):
                    chunk = read_chunk_file(vault.root / ids[chunk_id][0])
                    chunks[chunk_id] = (chunk.speaker, chunk.text)
        return chunks[chunk_id]

    for rel, backend, facts in with_facts:
        for fact in facts:
            cited = [found for found in map(said, fact.sources) if found is not None]
            if not supported(fact, backend, cited):
                sources = ", ".join(fact.sources[:3]) or "none"
                problems.append(
                    Problem(
                        rel,
                        "unsupported",
                        f"fact {fact.subject!r} is not in the chunks it cites ({sources}): a hand edit? It is not"
                        " promoted; restore the file from git, or delete it and run `memtree compact` to rebuild it",
                    )
                )


def _fix(vault: Vault, problems: list[Problem], moves: list[tuple[Path, Path]]) -> list[str]:
    """Only what is safe: delete stale temps, move misplaced chunks to a free name in the right folder."""
    from .vault import create_only, remove

    fixed = []
    for problem in problems:
        if problem.kind == "stale-temp":
            (vault.root / problem.path).unlink(missing_ok=True)
            fixed.append(f"deleted {problem.path}")
    for source, target in moves:
        vault.ensure_dir(target.parent)
        if create_only(target, source.read_bytes()):
            remove(source)
            fixed.append(f"moved {vault.relative(source)} to {vault.relative(target)}")
    return fixed


# ---------------------------------------------------------------- status


def record_run(vault: Vault, report: CompactReport, finished: datetime, not_committed: str | None = None) -> None:
    """.memtree/last_run.json for `memtree status` (derived and git-ignored: a wall-clock time is fine here).
    `not_committed`: why --commit made no commit, which under cron only the log would say otherwise."""
    data = {
        **report.to_json(),
        "finished": finished.astimezone(vault.config.tz).isoformat(timespec="seconds"),
        "written": len(report.written),
        "not_committed": not_committed,
    }
    vault.write(f"{DERIVED}/{LAST_RUN}", (json.dumps(data, indent=1) + "\n").encode("utf-8"))


def status(vault: Vault) -> dict[str, Any]:
    """Counts, tokens per level, coverage and lag, problems, and the last compaction run."""
    from .hooklog import last_failure
    from .index import Index

    with Index(vault) as index:
        index.sync()
        totals = index.totals()
        tokens = dict(
            index.db.execute(
                "SELECT s.level, sum(l.tokens) FROM lines l JOIN summaries s ON s.rowid = l.summary GROUP BY s.level"
            )
        )
        covered = {row[0] for row in index.db.execute("SELECT period FROM summaries WHERE level = 'daily'")}
        pending = index.db.execute(
            "SELECT count(*), min(day) FROM chunks"
            " WHERE day NOT IN (SELECT period FROM summaries WHERE level = 'daily')"
        ).fetchone()
        problems = len(index.problems())
    from .embeddings import coverage
    from .facts.store import last_rebuild_report
    from .retention import metrics

    rebuilt = last_rebuild_report(vault)
    last_run = None
    raw_last = vault.read_bytes(f"{DERIVED}/{LAST_RUN}")
    if raw_last:
        try:
            last_run = json.loads(raw_last)
        except (ValueError, RecursionError):
            last_run = None
    return {
        "vault": str(vault.root),
        "timezone": vault.config.timezone,
        "chunks": totals["chunks"],
        "raw_tokens": totals["raw_tokens"],
        "first": _local(totals["first"], vault.config),
        "last": _local(totals["last"], vault.config),
        "summaries": totals["summaries"],
        "summary_tokens": {level: tokens.get(level, 0) for level in LEVELS},
        "compacted_through": max(covered) if covered else None,
        "uncompacted_chunks": pending[0],
        "oldest_uncompacted_day": pending[1],
        # consolidation lag: from the oldest chunk no daily summary covers to the newest chunk
        "consolidation_lag_days": _days_between(pending[1], totals["last"], vault.config),
        "facts": {"current": rebuilt.facts, "candidates": rebuilt.candidates} if rebuilt else None,
        "retention": metrics(vault, totals["chunks"]),
        "problems": problems,
        "last_run": last_run,
        "last_hook_failure": last_failure(vault.root),  # a line of .memtree/hooks.log (`--hook-log`)
        "embeddings": coverage(vault, totals["chunks"]),  # recall.embeddings: chunks with a vector, or None when off
    }


def _local(utc: str | None, config: Config) -> str | None:
    if utc is None:
        return None
    from datetime import datetime

    return datetime.fromisoformat(utc).astimezone(config.tz).isoformat()


def _days_between(day: str | None, utc: str | None, config: Config) -> int | None:
    newest = _local(utc, config)
    if day is None or newest is None:
        return None
    from datetime import date

    return (date.fromisoformat(newest[:10]) - date.fromisoformat(day)).days
