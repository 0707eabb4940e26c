"""Shared fixtures: every test runs isolated from the user's home, vault and model settings."""

from __future__ import annotations

import os

# before anything imports litellm: no network fetch of the cost map, no debug banners
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("LITELLM_MODE", "PRODUCTION")
os.environ.setdefault("MEMTREE_NO_PROGRESS", "1")

from collections.abc import Iterator
from pathlib import Path

import pytest

from compaction_tree.vault import Vault


@pytest.fixture(autouse=True)
def isolated(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for name in ("MEMTREE_VAULT", "MEMTREE_MODEL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(home)
    yield


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    """A fresh vault in UTC."""
    created, _ = Vault.init(tmp_path / "vault", "UTC")
    return created


def slow() -> bool:
    """The slow profile (MEMTREE_SLOW=1): full sweeps and large Hypothesis budgets."""
    return os.environ.get("MEMTREE_SLOW") == "1"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The reliability suite's counts (crash points, faults, kills, hostile inputs) for this run."""
    from helpers import FIGURES

    if FIGURES:
        terminalreporter.section("reliability figures")
        for what, count in sorted(FIGURES.items()):
            terminalreporter.write_line(f"{count:>9,}  {what}")
