"""The library API for agents written in Python: the same operations as the command line.

    from compaction_tree import Memory

    memory = Memory.open("~/agent-memory")          # or Memory.init(path) for a new vault
    memory.add("We moved deploys to Fly.io.", speaker="user")
    memory.remember("Deploys go to Fly.io.", subject="deploy_target")  # a fact, in facts/ at once
    memory.compact()                                # extractive; Memory.compact(model="openai/gpt-4o-mini")
    print(memory.context())                         # ROOT.md plus how to use it, for the system prompt
    memory.know("fly.io").known                     # True
    memory.recall("where do we deploy?", budget=3000).context

Each method opens the derived index it needs and closes it again: a Memory is cheap to keep.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from .vault import Vault

if TYPE_CHECKING:
    from .compaction import CompactReport, ForgetReport
    from .facts.store import RememberResult
    from .ingest import AddResult, ImportReport
    from .retrieval import Awareness, Recall


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Memory:
    """One vault, opened."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault

    @classmethod
    def open(cls, path: str | Path | None = None) -> Memory:
        """The vault at path, or found like the CLI finds it ($MEMTREE_VAULT, then upward)."""
        return cls(Vault.open(Path(path).expanduser() if path is not None else None))

    @classmethod
    def init(cls, path: str | Path, timezone_name: str | None = None) -> Memory:
        """Creates the vault if needed (idempotent) and opens it."""
        vault, _ = Vault.init(Path(path).expanduser(), timezone_name)
        return cls(vault)

    @property
    def path(self) -> Path:
        return self.vault.root

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
        confidence 1.0; a later value of the same subject supersedes it, with history. Like `memtree remember`."""
        from .facts.store import remember

        return remember(self.vault, text, subject=subject, category=category, timestamp=timestamp, now=_now())

    def import_file(self, path: str | Path, format: str | None = None) -> ImportReport:
        from .ingest import import_file

        return import_file(self.vault, Path(path).expanduser(), format)

    def compact(
        self,
        model: str | None = None,
        *,
        now: datetime | None = None,
        max_calls: int | None = None,
        max_cost: float | None = None,
        dry_run: bool = False,
    ) -> CompactReport:
        from .compaction import compact
        from .summarizers import Limits, summarizer_for

        settings = self.vault.config.summarizer  # as the command line: memtree.yaml's budget unless overridden
        limits = Limits(
            max_calls if max_calls is not None else settings.max_calls,
            max_cost if max_cost is not None else settings.max_cost,
        )
        return compact(self.vault, summarizer_for(self.vault, model), now or _now(), limits=limits, dry_run=dry_run)

    def root(self) -> str:
        """Rebuilds ROOT.md (no LLM call) and returns it."""
        from .index import Index
        from .root import ROOT_FILE, root_text

        with Index(self.vault) as index:
            index.sync()
            text = root_text(self.vault, index)
        self.vault.write(ROOT_FILE, text.encode("utf-8"))
        return text

    def context(self, max_chars: int | None = 9_500) -> str:
        """The session-start block: ROOT.md plus short instructions for the agent, within max_chars
        characters (None: no cap) as `memtree context`. It reads: ROOT.md on disk is rewritten only by
        root() and compact()."""
        from .index import Index
        from .root import fitted_block
        from .usage import session_block

        with Index(self.vault) as index:
            index.sync()
            return fitted_block(self.vault, index, lambda text: session_block(text, self.vault.root), max_chars)

    def know(self, topic: str) -> Awareness:
        from .retrieval import know

        return know(self.vault, topic)

    def recall(self, query: str, budget: int | None = None) -> Recall:
        from .retrieval import recall

        return recall(self.vault, query, budget if budget is not None else self.vault.config.budgets.recall)

    def forget(self, *chunk_ids: str, model: str | None = None) -> ForgetReport:
        from .compaction import forget
        from .summarizers import summarizer_for

        return forget(self.vault, chunk_ids, summarizer_for(self.vault, model), _now())
