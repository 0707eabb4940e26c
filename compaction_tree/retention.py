"""Retention: an importance score per chunk, and summarize-then-prune (README.md, "Retention").

`memtree prune` lists (and with --apply deletes) the raw chunks that no longer need their own file:
older than the window, importance below the floor, cited by id and hash by a daily summary that git
holds, and resting under no fact. Before anything goes, the recall gate asks the questions the
period's summary lines answer and keeps a chunk that carries a line's only evidence.

What was pruned is recorded in pruned/YYYY-MM.jsonl (id, hash, day): a committed file, so a fresh
clone knows too. Compaction keeps the daily summary of a day listed there as it is (sealed history:
never rebuilt from what is left); `forget` edits it instead (strip_forgotten). The order of an apply
is the intent first (the ledger), then the deletions: a run killed in between leaves files the next
run deletes, and never a chunk gone that no summary covers.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from .errors import MemtreeError, UnsafePathError, VaultFormatError
from .index import ChunkRow, Index
from .markdown import render_summary
from .model import valid_id
from .recall_counts import load_usage
from .summary import Bullet, Summary
from .vault import DERIVED, LEDGER_DIR, Vault

# Importance, 0..1 (an explicit --importance replaces the computed value): a base, plus content that
# records a decision, a failure or a constraint, plus centrality (weekly and monthly summaries citing
# the chunk: the tree picked it twice over), plus use (recall returned it). A chunk a fact rests on
# is never pruned, whatever its score.
BASE = 0.1
CUE_WEIGHT = 0.4  # a decision, failure or constraint reaches the default floor by itself
SUBSTANCE_WEIGHT = 0.4  # so does a statement of specifics (small talk has neither)
SUBSTANCE_WORDS = 6  # content words (text.content_tokens) that make a statement of substance
CENTRAL_WEIGHT = 0.15  # per level above daily whose lines cite it
USE_WEIGHT = 0.1  # per log2(1 + times recalled)
MAX_USE = 0.3
_CUES = re.compile(
    r"\b(?:decid\w*|decision\w*|chose|chosen|choose|agreed|settled on|go with|going with|switch(?:ed)? to"
    r"|fail\w*|broke\w*|broken|crash\w*|outage|incident|regress\w*|roll(?:ed)? ?back|root cause|bug"
    r"|must|must not|never|always|required?|requirement|constraint|deadline|do not|don't|cannot|limit)\b",
    re.IGNORECASE,
)


# specifics: inline code, a number or date, an identifier (feature_flag, geo-lookup), a name inside a sentence
_SPECIFICS = re.compile(r"`[^`\n]+`|\b\d[\d.,:/-]*\b|\b[a-z]+[_.-][a-z0-9_.-]+\b|(?<=[a-z,;:] )[A-Z][a-z]+\b")
# a question, from the end of the sentence before it to its question mark (not one inside a URL)
_QUESTION = re.compile(r"(?:^|(?<=[.!?\n]))[^.!?\n]*\?+(?=\s|$)")  # tried at sentence starts only: linear


@dataclass(frozen=True)
class Importance:
    value: float
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class PrunedChunk:
    """One ledger line: a chunk pruned on purpose, kept by id and content hash."""

    id: str
    sha256: str
    day: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "sha256": self.sha256, "day": self.day}


@dataclass
class GateReport:
    questions: int = 0  # summary lines about the pruned chunks
    answered_before: int = 0  # whose evidence recall returned before the prune
    kept: int = 0  # chunks kept because they carried a line's only evidence
    answered_after: int | None = None  # measured again after --apply
    asked: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # (line, its chunks) answered before

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "asked"}


@dataclass
class PruneReport:
    dry_run: bool
    older_than_days: int
    floor: float
    cutoff: str  # chunks of days before this one are old enough
    pruned: list[dict[str, Any]] = field(default_factory=list)
    kept: dict[str, int] = field(default_factory=dict)  # reason -> chunks
    finished: int = 0  # chunks a killed run had recorded but not yet deleted
    gate: GateReport = field(default_factory=GateReport)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "older_than_days": self.older_than_days,
            "floor": self.floor,
            "cutoff": self.cutoff,
            "pruned": len(self.pruned),
            "kept": dict(sorted(self.kept.items())),
            "finished": self.finished,
            "gate": self.gate.to_json(),
            "chunks": self.pruned,
            "seconds": round(self.seconds, 3),
        }


# ---------------------------------------------------------------- the ledger


def ledger(vault: Vault) -> dict[str, PrunedChunk]:
    """id -> entry, from every pruned/*.jsonl; a line that does not parse is skipped (doctor's business)."""
    entries: dict[str, PrunedChunk] = {}
    folder = vault.root / LEDGER_DIR
    if not folder.is_dir() or folder.is_symlink():
        return entries
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            entry = _entry(line)
            if entry is not None:
                entries[entry.id] = entry
    return entries


def _entry(line: str) -> PrunedChunk | None:
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict):
        return None
    chunk_id, sha, day = record.get("id"), record.get("sha256"), record.get("day")
    if not (isinstance(chunk_id, str) and valid_id(chunk_id) and isinstance(sha, str) and isinstance(day, str)):
        return None
    if not re.fullmatch(r"\d{4}-\d\d-\d\d", day):
        return None
    return PrunedChunk(chunk_id, sha, day)


def sealed_days(vault: Vault) -> set[str]:
    """The days some chunk of which was pruned: their daily summaries are kept as they are."""
    return {entry.day for entry in ledger(vault).values()}


def _write_ledger(vault: Vault, entries: Iterable[PrunedChunk]) -> None:
    """Rewrites the month files the entries touch, each atomically; lines sorted (same entries, same bytes)."""
    by_month: dict[str, dict[str, PrunedChunk]] = defaultdict(dict)
    for entry in ledger(vault).values():
        by_month[entry.day[:7]][entry.id] = entry
    touched = set()
    for entry in entries:
        by_month[entry.day[:7]][entry.id] = entry
        touched.add(entry.day[:7])
    for month in sorted(touched):
        _write_month(vault, month, by_month[month].values())


def _write_month(vault: Vault, month: str, entries: Iterable[PrunedChunk]) -> None:
    lines = [json.dumps(e.to_json(), sort_keys=True) for e in sorted(entries, key=lambda e: (e.day, e.id))]
    path = f"{LEDGER_DIR}/{month}.jsonl"
    if lines:
        vault.write(path, ("\n".join(lines) + "\n").encode("utf-8"))
    else:
        vault.delete(path)


def drop_from_ledger(vault: Vault, ids: set[str]) -> None:
    """`forget` of a pruned chunk: its id and hash go from the ledger too."""
    by_month: dict[str, list[PrunedChunk]] = defaultdict(list)
    hit = set()
    for entry in ledger(vault).values():
        by_month[entry.day[:7]].append(entry)
        if entry.id in ids:
            hit.add(entry.day[:7])
    for month in sorted(hit):
        _write_month(vault, month, [e for e in by_month[month] if e.id not in ids])


# ---------------------------------------------------------------- sealed summaries and forget


def strip_forgotten(vault: Vault, index: Index, ids: set[str]) -> list[str]:
    """Edits the sealed daily summaries that cite a forgotten chunk: every line and fact resting on it goes,
    and its source entry. The rest stays word for word (its pruned chunks cannot be read again to rebuild
    it). Returns the summaries written. VaultFormatError, before any edit, when a sealed summary that
    holds one of the ids cannot be read (conflict markers, a bad hand edit): it cannot be rebuilt either,
    so the forget stays pending until the file is fixed."""
    sealed = sealed_days(vault)
    for day in sorted(sealed):
        path = f"daily/{day}.md"
        data = vault.read_bytes(path)
        if data and any(i.encode() in data for i in ids) and _read_summary(vault, path, day) is None:
            raise VaultFormatError(
                f"{path} holds a forgotten chunk but cannot be read",
                hint=f"fix {path} (conflict markers? `git checkout -- {path}`), then run memtree forget again",
            )
    written = []
    for path, indexed in index.summaries("daily"):
        if indexed.period not in sealed:
            continue
        data = vault.read_bytes(path)  # a summary that cites a chunk names its id: only those are parsed
        if not data or not any(i.encode() in data for i in ids):
            continue
        summary = _read_summary(vault, path, indexed.period)
        if summary is None or not {s.id for s in summary.sources} & ids:
            continue
        draft = summary.draft

        def clean(bullets: tuple[Bullet, ...]) -> tuple[Bullet, ...]:
            return tuple(b for b in bullets if not set(b.sources) & ids)

        edited = replace(
            summary,
            sources=tuple(s for s in summary.sources if s.id not in ids),
            chunks=summary.chunks - sum(1 for s in summary.sources if s.id in ids),
            draft=replace(
                draft,
                overview=clean(draft.overview),
                decisions=clean(draft.decisions),
                problems=clean(draft.problems),
                pending=clean(draft.pending),
                highlights=clean(draft.highlights),
                facts=tuple(f for f in draft.facts if not set(f.sources) & ids),
                shown=tuple(s for s in draft.shown if s not in ids),
            ),
        )
        if vault.write(path, render_summary(edited).encode("utf-8")):
            written.append(path)
    return written


def _read_summary(vault: Vault, path: str, period: str) -> Summary | None:
    """The file's summary with its sources (the index holds them apart)."""
    from .markdown import parse_summary

    data = vault.read_bytes(path)
    if data is None:
        return None
    try:
        return parse_summary(data.decode("utf-8"), "daily", period, path)
    except (ValueError, MemtreeError):
        return None


# ---------------------------------------------------------------- importance


def has_cue(text: str) -> bool:
    """Content that records a decision, a failure or a constraint."""
    return _CUES.search(text) is not None


def has_substance(text: str) -> bool:
    """A statement of specifics (names, numbers, identifiers) or of some length: small talk is neither,
    and nor is a question: it records what was asked, which its answer and the summary line carry."""
    from .text import content_tokens

    stated = _QUESTION.sub(" ", text)
    return _SPECIFICS.search(stated) is not None or len(content_tokens(stated)) >= SUBSTANCE_WORDS


def importance(row: ChunkRow, central_levels: int, uses: int) -> Importance:
    """The score of one chunk (see the constants above for the weights)."""
    if row.importance is not None:
        return Importance(max(0.0, min(1.0, row.importance)), ("explicit",))
    value, reasons = BASE, []
    if has_cue(row.text):
        value += CUE_WEIGHT
        reasons.append("decision/failure/constraint")
    if has_substance(row.text):
        value += SUBSTANCE_WEIGHT
        reasons.append("specifics")
    if central_levels:
        value += CENTRAL_WEIGHT * central_levels
        reasons.append(f"cited by {central_levels} higher level(s)")
    if uses:
        value += min(MAX_USE, USE_WEIGHT * math.log2(1 + uses))
        reasons.append(f"recalled {uses}x")
    return Importance(round(min(1.0, value), 4), tuple(reasons))


@dataclass
class _Citations:
    daily: dict[str, tuple[str, str]]  # chunk id -> (daily summary path, hash it cites)
    central: dict[str, int]  # chunk id -> weekly/monthly levels whose lines cite it
    facts: set[str]  # chunks a fact candidate rests on
    lines: list[tuple[str, str, tuple[str, ...]]]  # (daily path, line text, its chunks)


def _citations(index: Index) -> _Citations:
    found = _Citations({}, defaultdict(int), set(), [])
    for path, summary in index.summaries():
        if summary.level == "daily":
            for chunk_id, sha in index.summary_sources(path):
                found.daily[chunk_id] = (path, sha)
            found.facts.update(s for fact in summary.draft.facts for s in fact.sources)
            found.lines.extend((path, b.text, b.sources) for b in summary.draft.bullets())
        else:
            for chunk_id in {s for b in summary.draft.bullets() for s in b.sources}:
                found.central[chunk_id] += 1
    return found


# ---------------------------------------------------------------- prune


def prune(
    vault: Vault,
    now: datetime,
    *,
    older_than_days: int | None = None,
    apply: bool = False,
    allow_network_fs: bool = False,
) -> PruneReport:
    """Plans (and with apply, carries out) a prune under the vault's lock; see the module docstring."""
    started = time.perf_counter()
    policy = vault.config.retention
    window = older_than_days if older_than_days is not None else policy.older_than_days
    cutoff = (now.astimezone(vault.config.tz).date() - timedelta(days=window)).isoformat()
    report = PruneReport(not apply, window, policy.floor, cutoff)
    if apply:
        vault.refuse_network_fs(allow_network_fs)
    with vault.lock() as acquired:
        if not acquired:
            raise MemtreeError("another compaction holds the lock", hint="try again when it has finished")
        clean = _committed(vault) if apply else None
        with Index(vault) as index:
            index.sync()
            recorded = ledger(vault)
            cites = _citations(index)
            doomed = _plan(vault, index, cites, report, clean, recorded)
            _keep_last_mentions(index, cites, doomed, report, recorded)
            _gate(vault, index, cites, doomed, report, recorded)
            if apply:
                _apply(vault, index, doomed, report)
    report.seconds = time.perf_counter() - started
    if apply:
        record_prune(vault, report)
    return report


def _plan(
    vault: Vault,
    index: Index,
    cites: _Citations,
    report: PruneReport,
    clean: set[str] | None,
    pending: dict[str, PrunedChunk],
) -> dict[str, ChunkRow]:
    """The chunks that may go (id -> row), counting those kept by reason."""
    usage = load_usage(vault)
    kept: dict[str, int] = defaultdict(int)
    doomed: dict[str, ChunkRow] = {}
    for row in index.chunks():
        reason = _keep_reason(row, report, cites, usage, clean, pending)
        if reason is None:
            doomed[row.id] = row
        else:
            kept[reason] += 1
    report.kept = dict(kept)
    return doomed


def _keep_reason(
    row: ChunkRow,
    report: PruneReport,
    cites: _Citations,
    usage: dict[str, int],
    clean: set[str] | None,
    pending: dict[str, PrunedChunk],
) -> str | None:
    if row.id in pending and pending[row.id].sha256 == row.sha:
        report.finished += 1  # recorded by a run that was stopped before it deleted the file
        return None
    if row.day >= report.cutoff:
        return "recent"
    cited = cites.daily.get(row.id)
    if cited is None or cited[1] != row.sha:
        return "no summary cites it"
    if row.id in cites.facts:
        return "a fact rests on it"
    score = importance(row, cites.central.get(row.id, 0), usage.get(row.id, 0))
    if score.value >= report.floor:
        return "important"
    if clean is not None and not ({row.path, cited[0]} <= clean):
        return "not committed to git"
    report.pruned.append(
        {"id": row.id, "day": row.day, "path": row.path, "importance": score.value, "reasons": list(score.reasons)}
    )
    return None


def _gate(
    vault: Vault,
    index: Index,
    cites: _Citations,
    doomed: dict[str, ChunkRow],
    report: PruneReport,
    recorded: dict[str, PrunedChunk],
) -> None:
    """Asks each daily summary line about a doomed chunk as a question; where recall found the line's
    evidence before and every piece of it would go, the best-placed piece stays."""
    ask = _Asker(vault, index)
    asked = set()
    for _, text, sources in cites.lines:
        # a line some chunk of which stays keeps evidence; one asked already is answered alike
        # (a chunk pruned already, or recorded by a run that stopped before deleting it, is gone: it was gated)
        gone = [s in doomed or s in recorded for s in sources]
        if not sources or not all(gone) or not text.strip() or (text, sources) in asked:
            continue
        asked.add((text, sources))
        report.gate.questions += 1
        found = [s for s in ask(text) if s in sources]
        if not found:
            continue
        report.gate.answered_before += 1
        report.gate.asked.append((text, sources))
        if all(s in doomed for s in found) and any(s not in recorded for s in found):
            keep = next(s for s in found if s not in recorded)
            doomed.pop(keep)
            report.gate.kept += 1
    kept = {p["id"] for p in report.pruned} - set(doomed)
    report.pruned = sorted((p for p in report.pruned if p["id"] not in kept), key=lambda p: (p["day"], p["id"]))
    report.kept["recall gate"] = report.gate.kept


def _keep_last_mentions(
    index: Index, cites: _Citations, doomed: dict[str, ChunkRow], report: PruneReport, recorded: dict[str, PrunedChunk]
) -> None:
    """Awareness: a chunk that holds the last mention of a topic (topics.candidates: a name, a term, a
    pair of words) that no chunk that stays and no summary line mentions stays too, or `know` would
    forget the topic ("had the hearing test earlier, nothing to worry about"). Mentioned means all the
    topic's stems in one chunk or line (the index's terms: cheap, and a little generous)."""
    from .text import stems
    from .topics import candidates

    holders: dict[str, set[int]] = defaultdict(set)  # stem -> the chunks that stay and the lines that hold it
    doomed_rowids = {row.rowid for row in doomed.values()}
    staying = [ref.rowid for ref in index.chunk_refs() if ref.rowid not in doomed_rowids]
    for rowid, terms in index.stems_of(staying).items():
        for term in terms.split():
            holders[term].add(rowid)
    for number, (_, text, _) in enumerate(cites.lines, start=1):
        for term in stems(text):
            holders[term].add(-number)  # lines, apart from chunks by their sign
    kept = 0
    for row in sorted(doomed.values(), key=lambda r: (r.day, r.ts, r.id)):
        if row.id in recorded:
            continue  # recorded by a run that stopped before deleting it: it was weighed then
        for candidate in candidates(row.text):
            needed = set(stems(candidate.key))
            if needed and not set.intersection(*(holders.get(t, set()) for t in needed)):
                doomed.pop(row.id)
                kept += 1
                for term in stems(row.text):
                    holders[term].add(row.rowid)
                break
    report.kept["last mention of a topic"] = kept
    report.pruned = [p for p in report.pruned if p["id"] in doomed]


def _apply(vault: Vault, index: Index, doomed: dict[str, ChunkRow], report: PruneReport) -> None:
    from .facts.store import rebuild_facts, standing_fact_lines
    from .root import write_root

    rows = sorted(doomed.values(), key=lambda r: (r.day, r.id))
    _write_ledger(vault, [PrunedChunk(r.id, r.sha, r.day) for r in rows])  # the intent, before any deletion
    vault.delete_all([row.path for row in rows])
    index.sync(thorough=True)
    rebuild_facts(vault, index)
    write_root(vault, index, standing_fact_lines(vault))
    report.gate.answered_after = _answered(vault, index, report.gate.asked)


class _Asker:
    """The chunks recall returns for a question, at the recall budget (facts left out: they rest on chunks
    prune keeps; uses not counted). Recall is deterministic, so a question asked again (a hundred days
    summed up by "Let's keep it pragmatic.") is answered from the first asking."""

    def __init__(self, vault: Vault, index: Index) -> None:
        self.vault, self.index = vault, index
        self.budget = vault.config.budgets.recall
        self.answers: dict[str, tuple[str, ...]] = {}

    def __call__(self, question: str) -> tuple[str, ...]:
        from .retrieval import recall

        if question not in self.answers:
            # words alone: pruning stays offline and its answer the same whatever a provider says today
            found = recall(
                self.vault, question, self.budget, index=self.index, count_usage=False, facts=False, meaning=False
            )
            self.answers[question] = found.sources
        return self.answers[question]


def _answered(vault: Vault, index: Index, asked: Sequence[tuple[str, tuple[str, ...]]]) -> int:
    """How many of the (line, its chunks) questions recall still answers with one of the chunks."""
    ask = _Asker(vault, index)
    return sum(1 for text, sources in asked if set(ask(text)) & set(sources))


def _committed(vault: Vault) -> set[str]:
    """The vault's files git holds unchanged at HEAD (relative to the vault). Pruning deletes for good what
    git does not hold: outside a work tree, --apply is refused."""
    from .gitcommit import in_git_work_tree

    if not in_git_work_tree(vault):
        raise UnsafePathError(
            f"{vault.root} is not in a git work tree: a pruned chunk could never be brought back",
            hint="git init and commit the vault (memtree compact --commit), then prune",
        )
    git = ["git", "-C", str(vault.root)]
    listed = subprocess.run([*git, "ls-files", "-z", "--", "raw", "daily"], capture_output=True, timeout=300)
    dirty = subprocess.run(
        [*git, "status", "--porcelain=v1", "-z", "--no-renames", "--", "raw", "daily"],
        capture_output=True,
        timeout=300,
    )
    if listed.returncode or dirty.returncode:
        raise MemtreeError("git could not list the vault's files", hint="check `git status` in the vault")
    prefix = subprocess.run([*git, "rev-parse", "--show-prefix"], capture_output=True, text=True, timeout=60)
    strip = prefix.stdout.strip()
    changed = {entry[3:].removeprefix(strip) for entry in dirty.stdout.decode().split("\0") if len(entry) > 3}
    return {p for p in listed.stdout.decode().split("\0") if p} - changed


def parse_window(text: str | None) -> int | None:
    """`90d`, `12w`, `6m` (30 days), `1y` (365 days), or a bare number of days."""
    from .errors import InvalidInputError

    if text is None:
        return None
    found = re.fullmatch(r"\s*(\d{1,5})\s*([dwmy]?)\s*", text.lower())
    days = int(found.group(1)) * {"": 1, "d": 1, "w": 7, "m": 30, "y": 365}[found.group(2)] if found else 0
    if days < 1:
        raise InvalidInputError(f"--older-than {text!r} is not an age", hint="e.g. --older-than 90d (or 12w, 6m, 1y)")
    return days


# ---------------------------------------------------------------- metrics (memtree status)

LAST_PRUNE = f"{DERIVED}/last_prune.json"
STORE_FOLDERS = ("raw", "daily", "weekly", "monthly", "facts", LEDGER_DIR)


def record_prune(vault: Vault, report: PruneReport) -> None:
    """.memtree/last_prune.json for `memtree status` (derived, like last_run.json)."""
    data = {k: v for k, v in report.to_json().items() if k != "chunks"}
    vault.write(LAST_PRUNE, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8"))


def store_size(vault: Vault) -> dict[str, dict[str, int]]:
    """folder -> {"files", "bytes"} of what memtree keeps in git."""
    sizes = {}
    for folder in STORE_FOLDERS:
        files = size = 0
        stack = [vault.root / folder]
        while stack:
            try:
                entries = list(os.scandir(stack.pop()))
            except (FileNotFoundError, NotADirectoryError):
                continue
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    files, size = files + 1, size + entry.stat(follow_symlinks=False).st_size
        sizes[folder] = {"files": files, "bytes": size}
    return sizes


def metrics(vault: Vault, chunks: int) -> dict[str, Any]:
    """Retention figures for `memtree status`: store size, pruned and kept, prune rate, the last prune."""
    pruned = len(ledger(vault))
    raw = vault.read_bytes(LAST_PRUNE)
    try:
        last = json.loads(raw) if raw else None
    except (ValueError, RecursionError):
        last = None
    return {
        "store": store_size(vault),
        "pruned_chunks": pruned,
        "kept_chunks": chunks,
        "prune_rate": round(pruned / (pruned + chunks), 4) if pruned + chunks else 0.0,
        "last_prune": last if isinstance(last, dict) else None,
    }
