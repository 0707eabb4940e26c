"""Compaction: plan which summaries are stale, rebuild exactly those, and report. Never prints.

The plan works level by level from a snapshot of the raw chunks taken under the lock:
- a closed day with chunks gets a daily summary whose input hash covers the summarizer, its
  parameters and the ordered (id, content hash) of the day's chunks;
- a closed week gets a weekly summary from its days' summary files (their bytes' hashes), a
  closed month one from its weeks', so a late chunk dirties its day and that day's ancestors,
  and nothing else;
- a summary whose recorded input hash matches the plan is left alone: no call, no write.

A unit that fails writes nothing and blocks only its ancestors; the next run redoes just that.
Units of a level run concurrently. A summarizer that reads known facts (the LLM, which is shown the
facts of earlier days about what a day names) gets its days a week at a time, in order, each week
told the facts of the daily summaries before it as they then stand: what a day is shown does not
depend on which unit finishes first, nor on whether the run was interrupted before.

A day's fact candidates are kept apart from its summary (facts/candidates.py): a summary's bytes and
input hash never depend on the fact extractor. A new extractor re-reads the days whose summaries
stay, and only files under facts/ change.
"""

from __future__ import annotations

import math
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from .errors import MemtreeError
from .facts.candidates import DayFacts, read_days, write_days
from .index import ChunkRef, Index, chunk_from_row, natural_ties
from .markdown import render_summary
from .model import Chunk, canonical_json, sha256_hex
from .periods import (
    Period,
    calendar_day,
    children,
    day_period,
    is_closed,
    month_key_of_week,
    month_period,
    parse_period,
    week_period,
)
from .retention import drop_from_ledger, ledger, sealed_days, strip_forgotten
from .summarizers import BudgetReached, Limits, Summarizer, Unit, UnitFailed
from .summary import CHILD_LEVEL, LEVELS, FactCandidate, Level, SourceRef, Summary
from .vault import Vault

if TYPE_CHECKING:
    from .gitcommit import CommitOutcome

Progress = Callable[[str, int, int], None]  # (level, done, total)
LOCKED_MESSAGE = "skipped: another compaction holds the lock"
NO_LIMITS = Limits()


@dataclass
class CompactReport:
    dry_run: bool = False
    skipped: str | None = None
    planned: dict[str, int] = field(default_factory=lambda: {level: 0 for level in LEVELS})
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    unchanged: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    blocked: list[tuple[str, str]] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)
    calls: int = 0
    cache_hits: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0
    estimate: dict[str, Any] | None = None
    root_changed: bool = False
    facts_changed: list[str] = field(default_factory=list)
    seconds: float = 0.0
    commit: CommitOutcome | None = None  # what --commit did (api.Memory.compact); not part of to_json()
    warnings: list[str] = field(default_factory=list)  # the run went on regardless (stderr); not part of to_json()

    @property
    def changed(self) -> list[str]:
        """Vault files this run wrote or deleted (what --commit commits)."""
        return sorted({*self.written, *self.deleted, *self.facts_changed, *(["ROOT.md"] if self.root_changed else [])})

    def to_json(self) -> dict[str, Any]:
        """Lists sorted: units finish in whatever order the concurrent calls return."""
        return {
            "dry_run": self.dry_run,
            "skipped": self.skipped,
            "planned": self.planned,
            "done": len(self.written),
            "written": sorted(self.written),
            "deleted": sorted(self.deleted),
            "unchanged": self.unchanged,
            "failed": [{"unit": u, "reason": r} for u, r in sorted(self.failed)],
            "blocked": [{"unit": u, "reason": r} for u, r in self.blocked],
            "deferred": sorted(self.deferred),
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost": round(self.cost, 6),
            "estimate": self.estimate,
            "root_changed": self.root_changed,
            "facts_changed": self.facts_changed,
            "seconds": round(self.seconds, 3),
        }


def input_hash(summarizer: Summarizer, period: Period, budget: int, sources: Iterable[SourceRef]) -> str:
    return sha256_hex(
        canonical_json(
            {
                "summarizer": summarizer.identity.to_record(),
                "params": dict(summarizer.params()),
                "level": period.level,
                "period": period.key,
                "budget": budget,
                "sources": [[s.id, s.sha256] for s in sources],
            }
        )
    )


@dataclass
class _Current:
    """The summaries as they stand during a run: path -> (summary, sha256 of the file bytes)."""

    summaries: dict[str, tuple[Summary, str]]
    unreadable: set[str]


class Compactor:
    """One compaction run over a vault (see the module docstring)."""

    def __init__(
        self,
        vault: Vault,
        summarizer: Summarizer,
        now: datetime,
        *,
        limits: Limits = NO_LIMITS,
        dry_run: bool = False,
        progress: Progress | None = None,
        only: frozenset[str] | None = None,
        redo: frozenset[str] = frozenset(),
    ) -> None:
        self.vault = vault
        self.only = only  # `forget`: the summaries to regenerate (None: every stale one)
        self.redo = redo  # `forget`: days to regenerate though their input is unchanged (they were shown a fact)
        self.summarizer = summarizer
        self.now = now
        self.limits = limits
        self.dry_run = dry_run
        self.progress = progress
        self.settle = timedelta(hours=vault.config.settle_hours)
        self.report = CompactReport(dry_run=dry_run)
        self._dirty: set[str] = set()  # dry run: what lower levels would rewrite
        self._chunk_ids: set[str] = set()  # the chunks that exist, as the run starts
        self._day_facts: dict[str, DayFacts] = {}  # each day's fact candidates, as they stand during the run

    def run(self, index: Index) -> CompactReport:
        started = time.perf_counter()
        synced = index.sync(thorough=True)
        self._index = index
        if not self.dry_run:  # temps left by killed writers, found by the sync's listing: no second walk
            temp_folders = [self.vault.root / folder for folder in sorted(synced.temp_folders)]
            self.vault.sweep_temps(folders=self.vault.lock_holders_folders(), older_than=-math.inf)
            self.vault.sweep_temps(folders=[*self.vault.writable_folders(), *temp_folders])
        by_day: dict[str, list[ChunkRef]] = defaultdict(list)
        for ref in index.chunk_refs():
            by_day[ref.day].append(ref)
        self._chunk_ids = {ref.id for refs in by_day.values() for ref in refs}
        # sealed history: a day some chunk of which was pruned keeps its summary, even with no chunk left
        self._sealed = {day for day in sealed_days(self.vault) if calendar_day(day) is not None}
        hashes = index.summary_hashes()
        current = _Current(
            {path: (summary, hashes[path][1]) for path, summary in index.summaries()},
            {path for path, _ in index.problems() if path.split("/", 1)[0] in LEVELS},
        )
        self._day_facts = read_days(self.vault)
        self._by_day = by_day
        self.summarizer.begin_run(self.limits)
        units_planned = {level: 0 for level in LEVELS}
        tokens_in = tokens_out = 0
        cost = 0.0
        days = {date.fromisoformat(day) for day in [*by_day, *self._sealed]}
        stale_paths: list[str] = []
        for level in LEVELS:
            units, stale = self._plan(level, by_day, days, current)
            self.report.planned[level] = len(units)
            if self.dry_run:
                self._dirty.update(unit.label for unit in units)
                for unit in units:
                    unit_in, unit_out, unit_cost = self.summarizer.estimate(unit)
                    units_planned[level] += 1
                    tokens_in, tokens_out, cost = tokens_in + unit_in, tokens_out + unit_out, cost + unit_cost
                continue
            for path in stale:
                current.summaries.pop(path, None)
            stale_paths += stale
            self._execute(level, units, current)
        if not self.dry_run:
            self._delete_stale(stale_paths)
        usage = self.summarizer.usage
        self.report.calls, self.report.cache_hits = usage.calls, usage.cache_hits
        self.report.input_tokens, self.report.output_tokens, self.report.cost = (
            usage.input_tokens,
            usage.output_tokens,
            usage.cost,
        )
        if self.dry_run:
            self.report.estimate = {
                "units": units_planned,
                "input_tokens": tokens_in,
                "output_tokens": tokens_out,
                "cost": round(cost, 6),
            }
        else:
            self._refresh_facts(current)
            self._finish(index, current)
        self.report.seconds = time.perf_counter() - started
        return self.report

    def _delete_stale(self, paths: list[str]) -> None:
        """Summaries that cover nothing any more go last, once their parents are rebuilt without them:
        a crash in between never leaves a parent citing a missing child (docs/RELIABILITY.md I2). A parent
        that covers nothing either goes before its children, for the same reason. A child whose parent
        could not be rebuilt this run, or stays itself, stays until the parent goes."""
        kept = {unit for unit, _ in [*self.report.failed, *self.report.blocked]} | set(self.report.deferred)
        for path in sorted(paths, key=lambda p: (-LEVELS.index(p.partition("/")[0]), p)):
            if _parent_path(path) in kept:
                kept.add(path)
                continue
            if self.vault.delete(path):
                self.report.deleted.append(path)

    # ---------------------------------------------------------------- planning

    def _plan(
        self, level: Level, by_day: dict[str, list[ChunkRef]], days: set[date], current: _Current
    ) -> tuple[list[Unit], list[str]]:
        """(units to build, stale summaries to delete) at one level, given the levels below as they stand."""
        tz = self.vault.config.tz
        budget = self.vault.config.budgets.for_level(level)
        wanted: dict[str, Period] = {}
        if level == "daily":
            periods = [day_period(d) for d in sorted(days)]
        elif level == "weekly":
            periods = sorted({week_period(d) for d in days})
        else:
            periods = sorted({month_period(month_key_of_week(week_period(d).start)) for d in days})
        units: list[Unit] = []
        for period in periods:
            if not is_closed(period, self.now, tz, self.settle) or not self._in_scope(period, current):
                continue
            wanted[period.path] = period
            if period.path in current.unreadable:
                self.report.blocked.append(
                    (period.path, "the existing file is unreadable; fix or delete it (memtree doctor)")
                )
                continue
            if period.key in self._sealed and level == "daily":
                self._keep_sealed(period, current)
                continue
            unit = self._unit(period, budget, by_day, days, current)
            if unit is None:
                continue
            existing = current.summaries.get(period.path)
            if existing is not None and existing[0].input_hash == unit.input_hash and period.path not in self.redo:
                self.report.unchanged += 1
                continue
            if level == "daily":
                unit = replace(unit, chunks=self._chunks_of(period.key))
            units.append(unit)
        stale = sorted(
            path
            for path in current.summaries
            if path.startswith(level + "/")
            and path not in wanted
            and (self.only is None or path in self.only)
            and self._covers_nothing(path, level, days)
        )
        return units, stale

    def _keep_sealed(self, period: Period, current: _Current) -> None:
        """A pruned day's summary is never rebuilt from what is left (retention.py)."""
        if period.path in current.summaries:
            self.report.unchanged += 1
        else:
            self.report.blocked.append(
                (period.path, "sealed (chunks pruned) and its summary is gone: restore it from git")
            )

    def _in_scope(self, period: Period, current: _Current) -> bool:
        if self.only is None or period.path in self.only:
            return True
        # a missing child of a summary being regenerated (a late chunk's new day): without it, the
        # parent could not be rebuilt
        return period.path not in current.summaries and _parent_path(period.path) in self.only

    def _covers_nothing(self, path: str, level: Level, days: set[date]) -> bool:
        try:
            period = parse_period(level, path[len(level) + 1 : -3])
        except ValueError:
            return False
        return not any(period.start <= d <= period.end for d in days)

    def _unit(
        self, period: Period, budget: int, by_day: dict[str, list[ChunkRef]], days: set[date], current: _Current
    ) -> Unit | None:
        """The unit for a period, without its chunks' text (loaded only if it must be rebuilt)."""
        if period.level == "daily":
            refs = by_day[period.key]
            sources = tuple(SourceRef(r.id, r.sha) for r in refs)
            return Unit(
                period,
                budget,
                sources=sources,
                input_hash=input_hash(self.summarizer, period, budget, sources),
                tokens=sum(r.tokens for r in refs),
            )
        child_level = CHILD_LEVEL[period.level]
        wanted = [p for p in children(period) if any(p.start <= d <= p.end for d in days)]
        if self.dry_run and any(p.path in self._dirty for p in wanted):
            # the children are not rebuilt in a dry run: estimate from their budgets
            child_budget = self.vault.config.budgets.for_level(child_level)
            return Unit(period, budget, input_hash="(dry run)", tokens=len(wanted) * child_budget)
        missing = [p.path for p in wanted if p.path not in current.summaries]
        if missing:
            self.report.blocked.append(
                (period.path, f"waiting on {', '.join(missing[:3])}" + (" ..." if len(missing) > 3 else ""))
            )
            return None
        child_summaries = tuple(current.summaries[p.path][0] for p in wanted)
        sources = tuple(SourceRef(p.key, current.summaries[p.path][1]) for p in wanted)
        tokens = sum(len(b.text) // 4 + 4 for child in child_summaries for b in child.draft.bullets())
        return Unit(
            period,
            budget,
            children=child_summaries,
            sources=sources,
            input_hash=input_hash(self.summarizer, period, budget, sources),
            tokens=tokens,
        )

    def _chunks_of(self, day: str) -> tuple[Chunk, ...]:
        rows = natural_ties(sorted(self._index.chunks("day = ?", (day,)), key=lambda r: (r.ts, r.id)))
        return tuple(chunk_from_row(r) for r in rows)

    # ---------------------------------------------------------------- running

    def _execute(self, level: Level, units: list[Unit], current: _Current) -> None:
        total = len(units)
        if self.progress:
            self.progress(level, 0, total)
        reads = level == "daily" and self.summarizer.reads_known_facts
        groups = [units]
        if reads:
            weeks: dict[str, list[Unit]] = defaultdict(list)
            for unit in units:
                weeks[week_period(unit.period.start).key].append(unit)
            groups = [weeks[key] for key in sorted(weeks)]
        done = 0
        for n, group in enumerate(groups):
            if reads:
                self.summarizer.know(self._facts_before(group[0].period.start, current))
            done, stopped = self._run_pool(level, group, current, done, total)
            if stopped:
                self.report.deferred.extend(u.label for later in groups[n + 1 :] for u in later)
                break

    def _facts_before(self, week: date, current: _Current) -> list[FactCandidate]:
        """The facts the daily summaries before a week hold, in their days' order, but those citing a chunk that is
        gone (forgotten: its words must reach no model again)."""
        monday = (week - timedelta(days=week.weekday())).isoformat()
        days = {s.period: s for s, _ in current.summaries.values() if s.level == "daily" and s.end < monday}
        return [
            fact
            for day in sorted(days)
            for fact in self._facts_of(day, days[day])
            if set(fact.sources) <= self._chunk_ids
        ]

    def _facts_of(self, day: str, summary: Summary) -> tuple[FactCandidate, ...]:
        """A day's candidates: its line under facts/candidates/, else those its summary held (an older vault)."""
        found = self._day_facts.get(day)
        return found.facts if found is not None else summary.draft.facts

    def _extractor(self) -> str:
        """What reads the facts: a separate extractor's version, or the summarizer itself (its one answer)."""
        version = getattr(self.summarizer, "facts_version", None)
        if callable(version):
            return str(version())
        identity = self.summarizer.identity
        return f"{identity.backend}/{identity.model}/{identity.prompt_version}"

    def _refresh_facts(self, current: _Current) -> None:
        """Brings facts/candidates/ up to date with the daily summaries as they now stand: a day whose extractor or
        input changed is read again (when facts are read apart), a day with no line takes its summary's (an older
        vault: the one migration), a day with neither chunks nor a summary loses its line."""
        extractor, extract = self._extractor(), getattr(self.summarizer, "extract_facts", None)
        days: dict[str, DayFacts] = {}
        for path, (summary, _) in sorted(current.summaries.items()):
            if summary.level != "daily" or (self.only is not None and path not in self.only):
                continue
            day, known = summary.period, self._day_facts.get(summary.period)
            readable = day in self._by_day and day not in self._sealed  # a sealed day's chunks are pruned
            if known is not None and (known.current(summary.input_hash, extractor) or not readable):
                days[day] = known
            elif callable(extract) and readable:
                unit = Unit(day_period(date.fromisoformat(day)), 0, self._chunks_of(day), input_hash=summary.input_hash)
                days[day] = DayFacts(day, summary.input_hash, summary.summarizer.backend, extractor, extract(unit))
            elif known is None and summary.draft.facts:
                backend = summary.summarizer.backend
                days[day] = DayFacts(day, summary.input_hash, backend, "summary", summary.draft.facts)
            elif known is not None:
                days[day] = known  # read by a model whose answer is not here again (a failed unit): kept
        if self.only is not None:  # `forget`: the other days' lines stand as they are
            days = {**{d: f for d, f in self._day_facts.items() if f"daily/{d}.md" not in self.only}, **days}
        self._day_facts = days
        self.report.facts_changed += write_days(self.vault, days)

    def _run_pool(self, level: Level, units: list[Unit], current: _Current, done: int, total: int) -> tuple[int, bool]:
        """Summarizes units concurrently and writes each as it comes: (units done so far, whether the budget
        stopped the run)."""
        workers = max(1, min(self.summarizer.concurrency, len(units)))
        pending = list(units)
        stopped = False
        with ThreadPoolExecutor(max_workers=workers) as pool:
            running: dict[Future[Summary], Unit] = {}
            while pending or running:
                while pending and not stopped and len(running) < workers:
                    unit = pending.pop(0)
                    running[pool.submit(self._build, unit)] = unit
                if not running:
                    break
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in sorted(finished, key=lambda f: running[f].period):
                    unit = running.pop(future)
                    try:
                        summary = future.result()
                    except BudgetReached:
                        stopped = True
                        self.report.deferred.append(unit.label)
                        continue
                    except UnitFailed as exc:
                        self.report.failed.append((unit.label, str(exc)))
                        continue
                    self._write(summary, current)
                    done += 1
                    if self.progress:
                        self.progress(level, done, total)
            self.report.deferred.extend(u.label for u in pending)
        return done, stopped

    def _build(self, unit: Unit) -> Summary:
        draft = self.summarizer.summarize(unit)
        period = unit.period
        chunks = len(unit.chunks) if period.level == "daily" else sum(child.chunks for child in unit.children)
        return Summary(
            period.level,
            period.key,
            period.start.isoformat(),
            period.end.isoformat(),
            unit.sources,
            self.summarizer.identity,
            unit.input_hash,
            chunks,
            draft,
        )

    def _write(self, summary: Summary, current: _Current) -> None:
        if summary.level == "daily":  # its facts go under facts/candidates/, never into the summary's bytes
            facts = DayFacts(
                summary.period, summary.input_hash, summary.summarizer.backend, self._extractor(), summary.draft.facts
            )
            self._day_facts[summary.period] = facts
            summary = replace(summary, draft=replace(summary.draft, facts=()))
        data = render_summary(summary).encode("utf-8")
        if self.vault.write(summary.path, data):
            self.report.written.append(summary.path)
        current.summaries[summary.path] = (summary, sha256_hex(data))

    def _finish(self, index: Index, current: _Current) -> None:
        from .facts.store import rebuild_facts, standing_fact_lines
        from .root import write_root

        if self.report.written or self.report.deleted or self.report.facts_changed:
            index.sync()  # else the index is as the sync under the lock left it: nothing was written since
        self.report.facts_changed = sorted({*self.report.facts_changed, *rebuild_facts(self.vault, index)})
        self.report.root_changed = write_root(self.vault, index, standing_fact_lines(self.vault))
        self._refresh_chunk_vectors(index)

    def _refresh_chunk_vectors(self, index: Index) -> None:
        """recall.embeddings: embed the new chunks, drop the forgotten ones' vectors (embeddings.py)."""
        from .embeddings import refresh_store

        warning = refresh_store(self.vault, index).warning
        if warning:
            self.report.warnings.append(warning)


def _parent_path(path: str) -> str | None:
    """The summary a daily or weekly summary file rolls up into."""
    level, _, name = path.partition("/")
    try:
        if level == "daily":
            return week_period(date.fromisoformat(name[:-3])).path
        if level == "weekly":
            return month_period(month_key_of_week(parse_period("weekly", name[:-3]).start)).path
    except ValueError:
        return None
    return None


def compact(
    vault: Vault,
    summarizer: Summarizer,
    now: datetime,
    *,
    limits: Limits = NO_LIMITS,
    dry_run: bool = False,
    progress: Progress | None = None,
    allow_network_fs: bool = False,
) -> CompactReport:
    """Runs one compaction under the vault's lock; a second compactor returns at once, skipped."""
    vault.refuse_network_fs(allow_network_fs)
    with vault.lock() as acquired:
        if not acquired:
            return CompactReport(dry_run=dry_run, skipped=LOCKED_MESSAGE)
        with Index(vault) as index:
            return Compactor(vault, summarizer, now, limits=limits, dry_run=dry_run, progress=progress).run(index)


@dataclass
class ForgetReport:
    forgotten: list[str] = field(default_factory=list)  # raw files removed
    cache_purged: int = 0
    compaction: CompactReport | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "forgotten": self.forgotten,
            "cache_purged": self.cache_purged,
            "compaction": self.compaction.to_json() if self.compaction else None,
        }


def forget(
    vault: Vault, chunk_ids: Iterable[str], summarizer: Summarizer, now: datetime, allow_network_fs: bool = False
) -> ForgetReport:
    """Takes chunks out of memory completely: their files, every cached LLM answer that saw them, and
    (by recompacting) exactly the summaries that cited them directly or through a child, the facts
    they supported and ROOT.md. Git history keeps old versions: see README.md, "Forgetting"."""
    import json

    from .errors import InvalidInputError
    from .facts.store import EMBEDDINGS_FILE
    from .model import valid_id

    wanted = list(dict.fromkeys(chunk_ids))
    for chunk_id in wanted:
        if not valid_id(chunk_id):
            raise InvalidInputError(
                f"invalid id {chunk_id!r}", hint="pass the id memtree printed, e.g. from memtree recall --json"
            )
    report = ForgetReport()
    vault.refuse_network_fs(allow_network_fs)  # it takes the lock and deletes files, like compact
    with vault.lock() as acquired:
        if not acquired:
            raise MemtreeError("another compaction holds the lock", hint="try again when it has finished")
        files = [f for f in vault.raw_files() if f.id in set(wanted)]
        pending, scope = _pending_forget(vault)
        pruned = [entry for chunk_id, entry in ledger(vault).items() if chunk_id in set(wanted)]
        missing = sorted(set(wanted) - {f.id for f in files} - {e.id for e in pruned} - pending)
        if missing:
            raise InvalidInputError(
                f"no chunk with id {missing[0]}", hint="check the id with memtree recall --json or memtree know"
            )
        with Index(vault) as index:
            index.sync()  # the summaries as the files have them, to find the days shown a chunk's facts
            # what cites a chunk, directly or through a child: the summaries of its day, week and month (a summary
            # of the day written before the chunk arrived does not, and is left unchanged); and those of the days
            # shown a fact resting on it (the LLM's known facts), which may repeat it
            daily = [summary for _, summary in index.summaries("daily")]
            shown, carrying = _days_shown(daily, read_days(vault), pending | set(wanted))
            # a chunk outside the calendar was never compacted (the index skips it): nothing of its day cites it
            days = [
                day for day in (calendar_day(d) for d in [*(f.day for f in files), *(e.day for e in pruned)]) if day
            ]
            for day in days + shown:
                week = week_period(day)
                paths = (day_period(day).path, week.path, month_period(month_key_of_week(week.start)).path)
                if scope is not None:
                    scope |= {path for path in paths if (vault.root / path).is_file()}
            # the intent first: if this run is interrupted once a chunk file is gone, `forget ID` again finishes it
            intent = {"ids": sorted(pending | set(wanted)), "summaries": None if scope is None else sorted(scope)}
            vault.write(PENDING_FORGET, json.dumps(intent).encode("utf-8"))
            cache = vault.derived / "cache"
            for entry in sorted(cache.glob("*.json")) if cache.is_dir() else []:
                try:
                    saw = set(json.loads(entry.read_text(encoding="utf-8")).get("chunks", []))
                except (OSError, ValueError, AttributeError, TypeError, RecursionError):
                    saw = None  # unreadable: it cannot be checked, so it goes
                if saw is None or saw & (set(wanted) | carrying):  # an answer shown a fact resting on one too
                    vault.delete(vault.relative(entry))
                    report.cache_purged += 1
            # fact vectors are keyed by a hash of their text, but a vector can still give its text away: they go,
            # and the recompaction below embeds again the facts that remain (when an embedding model is set)
            if vault.delete(EMBEDDINGS_FILE):
                report.cache_purged += 1
            for file in files:
                vault.delete(vault.relative(file.path))
                report.forgotten.append(vault.relative(file.path))
            # a sealed day cannot be rebuilt (its pruned chunks are gone): its lines resting on a chunk go instead
            strip_forgotten(vault, index, pending | set(wanted))
            _strip_fact_lines(vault, pending | set(wanted))
            drop_from_ledger(vault, pending | set(wanted))
            only = None if scope is None else frozenset(scope)
            redo = frozenset(day_period(day).path for day in shown)
            report.compaction = Compactor(vault, summarizer, now, only=only, redo=redo).run(index)
        _purge_index(vault, sorted(pending | set(wanted)))
        done = report.compaction
        if not (done.failed or done.blocked or done.deferred):  # else the next `forget ID` retries them
            vault.delete(PENDING_FORGET)
    return report


def _days_shown(
    daily: Sequence[Summary], lines: Mapping[str, DayFacts], chunk_ids: set[str]
) -> tuple[list[date], set[str]]:
    """The days whose summary was written after the model was shown a fact resting on one of the chunks (`shown`),
    and, since such a day may have repeated it as a fact of its own, the days shown one of its facts, and so on; with
    the chunks whose facts may so carry the words (the given ones, and those of the days found)."""

    def facts_of(s: Summary) -> tuple[FactCandidate, ...]:
        line = lines.get(s.period)
        return line.facts if line is not None else s.draft.facts

    days = {
        date.fromisoformat(s.period): (set(s.draft.shown), {c for f in facts_of(s) for c in f.sources})
        for s in daily
        if s.draft.shown
    }
    tainted, found = set(chunk_ids), set()
    while grown := [d for d, (shown, _) in days.items() if d not in found and shown & tainted]:
        found.update(grown)
        tainted.update(c for d in grown for c in days[d][1])
    return sorted(found), tainted


def _strip_fact_lines(vault: Vault, chunk_ids: set[str]) -> None:
    """Every day's fact candidates resting on a forgotten chunk go (a sealed day's line is never read again)."""
    lines = read_days(vault)
    kept = {
        day: replace(line, facts=tuple(f for f in line.facts if chunk_ids.isdisjoint(f.sources)))
        for day, line in lines.items()
    }
    write_days(vault, kept)


PENDING_FORGET = ".memtree/forget-pending.json"
INDEX_FILE = ".memtree/index.sqlite"
SUMMARY_PATH = re.compile(r"daily/\d{4}-\d\d-\d\d\.md|weekly/\d{4}-W\d\d\.md|monthly/\d{4}-\d\d\.md")


def _purge_index(vault: Vault, chunk_ids: Sequence[str]) -> None:
    """Leaves nothing of the forgotten chunks in the derived index: brought up to date, then rewritten
    without deleted rows' residue (about a second on a one-year vault, where building it anew takes
    13 s). Built anew when a row still names one (a summary rewritten within its file's mtime tick)
    or the file cannot be rewritten now."""
    with Index(vault) as index:
        index.sync()
        if not index.names_any(chunk_ids) and index.purge_residue():
            return
    _rebuild_index(vault)


def _rebuild_index(vault: Vault) -> None:
    """Builds the derived index anew from the files. SQLite keeps deleted rows in free pages, and FTS5
    keeps the terms of deleted rows in its segments until they merge: after a `forget`, nothing of the
    chunk or of the summaries that quoted it may survive there. The log goes first: a database file
    must never meet a log that belonged to an older one."""
    for suffix in ("-wal", "-shm", ""):
        vault.delete(f"{INDEX_FILE}{suffix}")
    with Index(vault) as index:
        index.sync(thorough=True)


def _pending_forget(vault: Vault) -> tuple[set[str], set[str] | None]:
    """(ids, summaries to regenerate) of an interrupted `forget` (their chunk files may be gone already).
    None for the summaries: an intent written before it recorded them, so every stale one is rebuilt."""
    import json

    from .model import valid_id

    raw = vault.read_bytes(PENDING_FORGET)
    if not raw:
        return set(), set()
    try:
        intent: Any = json.loads(raw)
    except (ValueError, RecursionError):
        return set(), set()
    if isinstance(intent, list):
        intent = {"ids": intent, "summaries": None}
    ids = intent.get("ids") if isinstance(intent, dict) else None
    paths = intent.get("summaries") if isinstance(intent, dict) else []
    return (
        {i for i in ids if isinstance(i, str) and valid_id(i)} if isinstance(ids, list) else set(),
        {p for p in paths if isinstance(p, str) and SUMMARY_PATH.fullmatch(p)} if isinstance(paths, list) else None,
    )
