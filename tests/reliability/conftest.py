"""Fixtures shared by the reliability suite: one fixture vault (30 days x 20 chunks) built once,
and the files an uninterrupted compaction of it produces."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path

import pytest
from test_compaction import fill

from compaction_tree.compaction import compact
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.vault import Vault

from .invariants import files

NOW = datetime(2026, 4, 20, 12, 0, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Fixture:
    template: Path  # the vault with its chunks, never compacted
    reference: dict[str, str]  # files after one uninterrupted compaction (no .memtree/, no temps)
    checkpoints: int  # checkpoints passed by that compaction
    gone: frozenset[str] = frozenset()  # chunk ids deleted by hand (summaries may cite them until compacted)

    def copy(self, to: Path) -> Path:
        shutil.copytree(self.template, to, symlinks=True)
        return to


@pytest.fixture(scope="session")
def month(tmp_path_factory: pytest.TempPathFactory) -> Fixture:
    """30 days x 20 chunks (docs/RELIABILITY.md C1's fixture vault)."""
    from .faults import counting_checkpoints

    base = tmp_path_factory.mktemp("month")
    template, _ = Vault.init(base / "template", "UTC")
    fill(template, date(2026, 2, 2), 30, 20)
    done = shutil.copytree(template.root, base / "reference")
    with counting_checkpoints() as labels:
        vault = Vault.open(done)
        compact(vault, ExtractiveSummarizer(vault.config), NOW)
    return Fixture(template.root, files(done), len(labels))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """This suite is sweeps (crash points, kills, faults, fuzzing, a state machine): every test here
    carries `slow`, so a plain `pytest` leaves it out and `pytest -m ""` (CI) runs it. MEMTREE_SLOW=1
    gives each its full budget: `MEMTREE_SLOW=1 pytest tests/reliability -m slow`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.slow)
