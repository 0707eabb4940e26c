"""Fact candidates are versioned apart from summaries (facts/candidates/), and a rebuild costs what changed.

A new extractor version changes files under facts/ only; an older vault, whose daily summaries hold their facts,
migrates with one compaction; consolidation reuses the outcome of every cluster the new candidates do not touch,
and gives the bytes a rebuild from scratch gives."""

from __future__ import annotations

import ast
import random
import shutil
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import snapshot

from compaction_tree.compaction import compact
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.facts import extract as extract_module
from compaction_tree.facts import store
from compaction_tree.facts.candidates import CANDIDATES_DIR, read_days
from compaction_tree.index import Index
from compaction_tree.ingest import add
from compaction_tree.markdown import parse_summary, render_summary
from compaction_tree.vault import Vault

NOW = datetime(2025, 4, 30, tzinfo=UTC)
SAID = [
    "We decided to host {thing} on Heroku.",
    "I prefer tabs for indentation.",
    "We switched {thing} from Heroku to Fly.io.",
    "Actually I prefer 4 spaces for indentation.",
    "Never deploy {thing} on Fridays.",
    "Our {thing} database is PostgreSQL 15.",
    "The {thing} database is MySQL now.",
    "The nightly export keeps failing because the S3 credentials expire after 12 hours.",
]
THINGS = ["Atlas", "Kestrel", "Heron", "Quern"]


def say(vault: Vault, day: int, rng: random.Random) -> None:
    for n in range(rng.randint(1, 3)):
        text = rng.choice(SAID).format(thing=rng.choice(THINGS))
        add(vault, text, timestamp=f"2025-03-{day:02d}T1{n}:00:00+00:00", speaker="user")


def filled(vault: Vault, days: range, seed: int = 7) -> Vault:
    rng = random.Random(seed)
    for day in days:
        say(vault, day, rng)
    return vault


def changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}


def test_a_new_extractor_version_changes_files_under_facts_only(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    filled(vault, range(3, 20))
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    before = snapshot(vault.root)
    assert any(p.startswith(CANDIDATES_DIR) for p in before)
    monkeypatch.setattr(extract_module, "EXTRACTOR_VERSION", "cues-test")
    report = compact(vault, ExtractiveSummarizer(vault.config), NOW)
    after = snapshot(vault.root)
    assert report.written == [] and report.deleted == []  # no summary rebuilt
    differ = changed(before, after)
    assert differ and all(p.startswith(CANDIDATES_DIR + "/") for p in differ)  # the lines name the new version
    assert {d.extractor for d in read_days(vault).values()} == {f"cues-test min {vault.config.fact_min_confidence}"}


def test_a_days_summary_holds_no_facts_and_its_line_holds_them(vault: Vault) -> None:
    filled(vault, range(3, 6))
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    days = read_days(vault)
    assert sum(len(d.facts) for d in days.values()) > 0
    for path in sorted((vault.root / "daily").glob("*.md")):
        summary = parse_summary(path.read_text(encoding="utf-8"), "daily", path.stem, path.name)
        assert summary.draft.facts == ()
        assert days[summary.period].input == summary.input_hash


def test_an_older_vault_migrates_with_one_compaction(vault: Vault, tmp_path: Path) -> None:
    filled(vault, range(3, 20))
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    built = snapshot(vault.root)
    # the older layout: each day's facts in its summary's front matter, under an older input hash, no lines
    old = Vault.open(Path(shutil.copytree(vault.root, tmp_path / "old")))
    lines = read_days(old)
    for path in sorted((old.root / "daily").glob("*.md")):
        summary = parse_summary(path.read_text(encoding="utf-8"), "daily", path.stem, path.name)
        facts = lines[summary.period].facts
        path.write_text(render_summary(replace(summary, input_hash="older", draft=replace(summary.draft, facts=facts))))
    shutil.rmtree(old.root / CANDIDATES_DIR)
    with Index(old) as index:
        index.sync()
        # the older layout is read (its facts carry no value or replaces, so they may consolidate differently)
        store.rebuild_facts(old, index)
        assert store.load_facts(old)
    compact(old, ExtractiveSummarizer(old.config), NOW)
    assert snapshot(old.root) == built
    assert compact(old, ExtractiveSummarizer(old.config), NOW).changed == []


def test_a_forgotten_chunks_facts_leave_its_days_line(vault: Vault) -> None:
    from compaction_tree.compaction import forget

    filled(vault, range(3, 6))
    secret = add(
        vault, "Remember that the Quern vault password rotates every 30 days.", timestamp="2025-03-04T18:00:00Z"
    )
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    assert any(secret.id in f.sources for d in read_days(vault).values() for f in d.facts)
    forget(vault, [secret.id], ExtractiveSummarizer(vault.config), NOW)
    assert not any(secret.id in f.sources for d in read_days(vault).values() for f in d.facts)
    assert not [p for p in vault.root.rglob("*") if p.is_file() and b"rotates every 30" in p.read_bytes()]


def facts_files(root: Path) -> dict[str, str]:
    return {p: h for p, h in snapshot(root).items() if p.startswith("facts/") and not p.startswith(CANDIDATES_DIR)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_incremental_rebuild_gives_the_bytes_of_a_full_one(vault: Vault, seed: int) -> None:
    """Days arrive one compaction at a time in random order (late ones too); after each, the store must be what a
    rebuild without any kept cluster outcome gives."""
    rng = random.Random(seed)
    days = list(range(3, 28))
    rng.shuffle(days)
    for day in days[:12]:
        say(vault, day, rng)
        compact(vault, ExtractiveSummarizer(vault.config), NOW)
        incremental = facts_files(vault.root)
        audit = (vault.root / store.AUDIT_FILE).read_bytes() if (vault.root / store.AUDIT_FILE).exists() else b""
        (vault.root / store.CLUSTERS_FILE).unlink()
        with Index(vault) as index:
            index.sync()
            assert store.rebuild_facts(vault, index) == []  # from scratch: not a byte differs
        assert facts_files(vault.root) == incremental
        assert ((vault.root / store.AUDIT_FILE).read_bytes() if audit else b"") == audit


def test_a_rebuild_replays_only_the_clusters_new_candidates_touch(
    vault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    filled(vault, range(3, 20))
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    replayed: list[int] = []
    original = store.ClusterCache.save

    def counting(self: store.ClusterCache) -> None:
        replayed.append(self.replayed)
        original(self)

    monkeypatch.setattr(store.ClusterCache, "save", counting)
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    add(vault, "Never deploy Heron on Fridays.", timestamp="2025-03-25T10:00:00+00:00", speaker="user")
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    clusters = store.last_rebuild_report(vault).clusters  # type: ignore[union-attr]
    assert replayed[0] == 0 and 1 <= replayed[1] < clusters  # nothing new: none; a new day: what it touches


def test_consolidation_reads_no_english() -> None:
    """Structure only: consolidate.py imports none of the English analysis (statement, updates, cues, topics)."""
    source = Path(store.__file__).with_name("consolidate.py").read_text(encoding="utf-8")
    imported = {
        (node.module or "").split(".")[-1] for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)
    }
    assert not imported & {"statement", "updates", "cues", "topics", "frames", "gates", "learned", "extract"}


def test_a_vault_the_model_summarized_moves_its_facts_without_asking_the_model_again(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fakellm import FakeLLM
    from test_llm import configure, stating, summarizer

    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    add(vault, "Curlew is on Heroku.", timestamp="2026-03-02T10:00:00Z")
    add(vault, "Curlew moved to Fly.io.", timestamp="2026-03-10T09:00:00Z")
    now = datetime(2026, 4, 20, tzinfo=UTC)
    with FakeLLM(responder=stating({"Curlew": ("curlew_host", "")})) as server:
        vault = configure(vault, server)
        compact(vault, summarizer(vault), now)
        built = facts_files(vault.root)
        assert "Fly.io" in (vault.root / "facts/domain_fact.md").read_text(encoding="utf-8")
        for path in sorted((vault.root / "daily").glob("*.md")):  # the older layout, the same input hashes
            summary = parse_summary(path.read_text(encoding="utf-8"), "daily", path.stem, path.name)
            facts = read_days(vault)[summary.period].facts
            path.write_text(render_summary(replace(summary, draft=replace(summary.draft, facts=facts))))
        shutil.rmtree(vault.root / CANDIDATES_DIR)
        calls = server.calls
        report = compact(vault, summarizer(vault), now)
        # no day is stale: the model is not asked (the weeks here cite the days as this test rewrote them)
        assert server.calls == calls and not [p for p in report.written if p.startswith("daily/")]
    assert facts_files(vault.root) == built
    assert {d.extractor for d in read_days(vault).values()} == {"summary"}  # moved, as the model read them
