"""sample_vault/ is what its script produces, byte for byte: regenerate it with
`python -m compaction_tree.demo sample_vault` whenever the summarizer or the sample changes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import snapshot

from compaction_tree.compaction import compact
from compaction_tree.demo import SAMPLE_NOW, build_sample_vault
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.sample import _parse_sessions
from compaction_tree.vault import Vault

SAMPLE = Path(__file__).resolve().parents[1] / "sample_vault"
HINT = "the committed sample_vault is out of date: run `python -m compaction_tree.demo sample_vault` and commit"


def differences(expected: dict[str, str], actual: dict[str, str]) -> list[str]:
    return sorted(p for p in set(expected) | set(actual) if expected.get(p) != actual.get(p))


@pytest.fixture(scope="module")
def committed() -> dict[str, str]:
    assert (SAMPLE / "memtree.yaml").exists(), HINT
    return snapshot(SAMPLE)


@pytest.mark.slow
def test_the_sample_vault_is_what_its_script_builds(tmp_path: Path, committed: dict[str, str]) -> None:
    build_sample_vault(tmp_path / "sample")
    assert differences(committed, snapshot(tmp_path / "sample")) == [], HINT


@pytest.mark.slow
def test_compacting_a_copy_of_the_committed_chunks_gives_the_committed_tree(
    tmp_path: Path, committed: dict[str, str]
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(SAMPLE, copy, ignore=shutil.ignore_patterns(".memtree"))
    for derived in ("daily", "weekly", "monthly", "facts"):
        shutil.rmtree(copy / derived, ignore_errors=True)
    (copy / "ROOT.md").unlink()
    vault = Vault.open(copy)
    report = compact(vault, ExtractiveSummarizer(vault.config), SAMPLE_NOW)
    assert not report.failed and report.root_changed
    assert differences(committed, snapshot(copy)) == [], HINT


def test_the_sample_vault_is_useful(committed: dict[str, str]) -> None:
    """Not just any files: the themes the README promises are in its index."""
    root = (SAMPLE / "ROOT.md").read_text(encoding="utf-8")
    for theme in ("CORS", "Stripe", "Fly", "Heroku", "Postgres", "refresh token"):
        assert theme in root, theme
    assert sum(1 for p in committed if p.startswith("raw/")) > 400
    assert {p.split("/")[0] for p in committed} >= {"raw", "daily", "weekly", "monthly", "facts", "ROOT.md"}


def test_the_sample_data_file_refuses_a_split_session_or_an_unknown_speaker() -> None:
    turn = '{{"session": "2026-01-05-{slug}", "start": "09:40", "speaker": "{speaker}", "text": "hi"}}'
    kickoff, other = turn.format(slug="kickoff", speaker="user"), turn.format(slug="other", speaker="user")
    assert [s.name for s in _parse_sessions([kickoff, kickoff, other])] == ["2026-01-05-kickoff", "2026-01-05-other"]
    with pytest.raises(ValueError, match="line 3: session 2026-01-05-kickoff is split"):
        _parse_sessions([kickoff, other, kickoff])
    with pytest.raises(ValueError, match="line 1: speaker must be user or assistant"):
        _parse_sessions([turn.format(slug="kickoff", speaker="system")])
