"""The library API, and the one place memtree's operations are put together: the command line
(cli.py, cli_facts.py) and the MCP server parse their input, make one call here and render it.

    from compaction_tree import Memory

    memory = Memory.open("~/agent-memory")          # or Memory.init(path) for a new vault
    memory.add("We moved deploys to Fly.io.", speaker="user")
    memory.remember("Deploys go to Fly.io.", subject="deploy_target")  # a fact, in facts/ at once
    memory.compact()                                # extractive; Memory.compact(model="openai/gpt-4o-mini")
    print(memory.context())                         # ROOT.md plus how to use it, for the system prompt
    memory.know("fly.io").known                     # True
    memory.recall("where do we deploy?", budget=3000).context

Each method opens the derived index it needs and closes it again: a Memory is cheap to keep.
Imports are deferred to the methods: `memtree add` goes through here after every agent turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .vault import Vault

if TYPE_CHECKING:
    from .compaction import CompactReport, ForgetReport, Progress
    from .facts.records import Event, Fact
    from .facts.store import RememberResult
    from .health import DoctorReport
    from .index import Index
    from .ingest import AddResult, ImportReport
    from .retention import PruneReport
    from .retrieval import Awareness, Recall


def _now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class UndoResult:
    """What `facts undo` did: the undo's id, and whether it is new (False: already undone, nothing changed)."""

    event: str
    undo: str
    changed: bool

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "undo": self.undo, "changed": self.changed}


class Memory:
    """One vault, opened."""

    def __init__(self, vault: Vault, created: Iterable[str] = ()) -> None:
        self.vault = vault
        self.created = tuple(created)  # what init() created (empty: the vault was there, or was opened)

    @classmethod
    def open(cls, path: str | Path | None = None) -> Memory:
        """The vault at path, or found like the CLI finds it ($MEMTREE_VAULT, then upward)."""
        return cls(Vault.open(Path(path).expanduser() if path is not None else None))

    @classmethod
    def init(cls, path: str | Path, timezone_name: str | None = None) -> Memory:
        """Creates the vault if needed (idempotent) and opens it; a bad time zone fails before any write."""
        vault, created = Vault.init(Path(path).expanduser(), timezone_name)
        return cls(vault, created)

    @property
    def path(self) -> Path:
        return self.vault.root

    # ---------------------------------------------------------------- storing

    def add(
        self,
        text: str,
        *,
        speaker: str = "user",
        timestamp: str | datetime | None = None,
        session: str | None = None,
        source: str | None = None,
        topics: Iterable[str] = (),
        importance: float | None = None,
        id: str | None = None,
    ) -> AddResult:
        from .ingest import add

        return add(
            self.vault,
            text,
            timestamp=timestamp,
            speaker=speaker,
            session=session,
            source=source,
            topics=topics,
            importance=importance,
            id=id,
            now=_now(),
        )

    def remember(
        self,
        text: str,
        *,
        subject: str | None = None,
        category: str | None = None,
        timestamp: str | datetime | None = None,
    ) -> RememberResult:
        """Stores a fact the agent was told (a chunk in raw/) and puts it in facts/ and ROOT.md at once,
        confidence 1.0; a later value of the same subject supersedes it, with history. Like `memtree remember`.
        A compaction holding the lock applies it instead (applied: False)."""
        from .facts.store import get_fact, store_remembered

        stored = store_remembered(self.vault, text, subject=subject, category=category, timestamp=timestamp, now=_now())
        with self.vault.lock() as acquired:
            if not acquired:
                return stored
            self._rebuild_facts_and_root()
        return replace(stored, applied=True, current=get_fact(self.vault, stored.subject))

    def import_file(
        self, path: str | Path, format: str | None = None, progress: Callable[[int, int], None] | None = None
    ) -> ImportReport:
        from .errors import UsageError
        from .importers import FORMATS
        from .ingest import import_file

        if format is not None and format not in FORMATS:
            raise UsageError(f"unknown format {format!r}", hint=f"use one of {', '.join(FORMATS)}")
        return import_file(self.vault, Path(path).expanduser(), format, progress)

    # ---------------------------------------------------------------- compaction

    def compact(
        self,
        model: str | None = None,
        *,
        now: datetime | None = None,
        max_calls: int | None = None,
        max_cost: float | None = None,
        dry_run: bool = False,
        commit: bool = False,
        progress: Progress | None = None,
        allow_network_fs: bool = False,
    ) -> CompactReport:
        """Summarizes closed periods and rebuilds facts/ and ROOT.md, within memtree.yaml's budget unless
        max_calls/max_cost say otherwise; records the run for `memtree status`. commit: git commit memtree's
        changed files; what it did is report.commit (a refusal is kept there, not raised: the work is done)."""
        from .backends import summarizer_for
        from .compaction import compact
        from .health import record_run
        from .summarizers import Limits

        settings = self.vault.config.summarizer
        limits = Limits(
            max_calls if max_calls is not None else settings.max_calls,
            max_cost if max_cost is not None else settings.max_cost,
        )
        summarizer = summarizer_for(self.vault, model)
        report = compact(
            self.vault,
            summarizer,
            now or _now(),
            limits=limits,
            dry_run=dry_run,
            progress=progress,
            allow_network_fs=allow_network_fs,
        )
        if dry_run or report.skipped:
            return report
        if commit:
            from .gitcommit import commit_outcome

            report.commit = commit_outcome(self.vault)
        error = report.commit.error if report.commit else None
        record_run(self.vault, report, _now(), str(error) if error else None)
        return report

    def forget(self, *chunk_ids: str, model: str | None = None, allow_network_fs: bool = False) -> ForgetReport:
        from .backends import summarizer_for
        from .compaction import forget

        return forget(self.vault, chunk_ids, summarizer_for(self.vault, model), _now(), allow_network_fs)

    def prune(
        self, older_than: str | int | None = None, *, apply: bool = False, allow_network_fs: bool = False
    ) -> PruneReport:
        """Lists (apply: deletes) old raw chunks a committed summary covers. older_than: days, or "90d", "6m"."""
        from .retention import parse_window, prune

        days = parse_window(older_than) if isinstance(older_than, str) else older_than
        return prune(self.vault, _now(), older_than_days=days, apply=apply, allow_network_fs=allow_network_fs)

    # ---------------------------------------------------------------- ROOT.md and the session block

    def root(self) -> str:
        """Rebuilds ROOT.md (no LLM call) and returns it."""
        from .root import ROOT_FILE, root_text

        with self._index() as index:
            text = root_text(self.vault, index, self._fact_lines())
        self.vault.write(ROOT_FILE, text.encode("utf-8"))
        return text

    def root_is_stale(self) -> bool:
        """Whether ROOT.md differs from what root() would write (a hand edit counts); changes nothing."""
        from .root import root_is_stale

        with self._index() as index:
            return root_is_stale(self.vault, index, self._fact_lines())

    def root_preview(self) -> str:
        """ROOT.md as root() would write it, writing nothing (the MCP server's resource)."""
        from .root import root_text

        with self._index() as index:
            return root_text(self.vault, index, self._fact_lines())

    def context(self, max_chars: int | None = 9_500, mcp: bool = False) -> str:
        """The session-start block: ROOT.md plus short instructions for the agent, within max_chars
        characters (None or 0: no cap) as `memtree context`. It reads: ROOT.md on disk is rewritten only by
        root() and compact(). mcp: the instructions speak of the MCP tools, not of shell commands."""
        from .root import fitted_block
        from .session_text import MCP_INSTRUCTIONS, session_block

        def wrap(text: str) -> str:
            return session_block(text, None, MCP_INSTRUCTIONS) if mcp else session_block(text, self.vault.root)

        with self._index() as index:
            return fitted_block(self.vault, index, self._fact_lines(), wrap, max_chars)

    # ---------------------------------------------------------------- reading

    def know(self, topic: str) -> Awareness:
        from .retrieval import know

        return know(self.vault, topic)

    def recall(self, query: str, budget: int | None = None, ids: bool = False) -> Recall:
        from .retrieval import recall

        return recall(self.vault, query, budget if budget is not None else self.vault.config.budgets.recall, ids=ids)

    def status(self) -> dict[str, Any]:
        """`memtree status --json`: the keys are stable (README.md, CLI)."""
        from .health import status

        return status(self.vault)

    def doctor(self, fix: bool = False) -> DoctorReport:
        from .health import doctor

        return doctor(self.vault, fix=fix)

    # ---------------------------------------------------------------- facts

    def facts(self, category: str | None = None) -> list[Fact]:
        from .facts.store import load_facts

        return [f for f in load_facts(self.vault) if category is None or f.category == category]

    def search_facts(self, query: str) -> list[Fact]:
        from .facts.store import search_facts

        return search_facts(self.vault, query)

    def fact(self, subject: str) -> Fact:
        from .errors import InvalidInputError
        from .facts.store import get_fact

        found = get_fact(self.vault, subject)
        if found is None:
            raise InvalidInputError(f"no fact with subject {subject!r}", hint="list them with memtree facts")
        return found

    def fact_log(self) -> list[Event]:
        from .facts.store import audit_events

        return audit_events(self.vault)

    def undo(self, event_id: str) -> UndoResult:
        """Reverses a fact event from the audit log (or an earlier undo), then rebuilds facts/ and ROOT.md."""
        from .errors import ConflictError
        from .facts.store import reverse_event

        with self.vault.lock() as acquired:
            if not acquired:
                raise ConflictError("a compaction is running", hint="run `memtree facts undo` again when it finishes")
            undo_id, changed = reverse_event(self.vault, event_id)
            if changed:
                self._rebuild_facts_and_root()
        return UndoResult(event_id.strip(), undo_id, changed)

    # ---------------------------------------------------------------- helpers

    def _index(self) -> Index:
        """The derived index, synced; use it in a with block."""
        from .index import Index

        index = Index(self.vault)
        try:
            index.sync()
        except BaseException:
            index.close()
            raise
        return index

    def _fact_lines(self) -> tuple[str, ...]:
        from .facts.store import standing_fact_lines

        return standing_fact_lines(self.vault)

    def _rebuild_facts_and_root(self) -> None:
        """facts/ and ROOT.md from what the vault holds now; the caller holds the compaction lock."""
        from .facts.store import rebuild
        from .root import write_root

        with self._index() as index:
            rebuild(self.vault, index)
            write_root(self.vault, index, self._fact_lines())
