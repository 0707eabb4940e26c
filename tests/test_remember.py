"""`memtree remember` and Memory.remember: a fact the agent writes, in facts/ and ROOT.md at once."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from helpers import memtree, snapshot

from compaction_tree import Memory
from compaction_tree.errors import BAD_INPUT
from compaction_tree.facts import audit_events, get_fact
from compaction_tree.facts.store import unquoted
from compaction_tree.vault import Vault


def _memory(vault: Vault) -> Memory:
    return Memory(vault)


def _facts_files(root: Path) -> dict[str, str]:
    """The store (facts/candidates/ is its input: a day compacted since adds its line there)."""
    return {k: v for k, v in snapshot(root).items() if k.startswith("facts/") and not k.startswith("facts/candidates/")}


def test_a_remembered_fact_is_a_chunk_and_a_standing_fact_at_once(vault: Vault) -> None:
    result = _memory(vault).remember("Deploys go to Fly.io.", subject="Deploy target", category="decision")
    stored = json.loads((vault.root / result.path).read_text(encoding="utf-8"))
    assert stored["source"] == "remember:decision" and stored["topics"] == ["deploy_target"]
    assert result.applied and result.subject == "deploy_target"
    fact = get_fact(vault, "deploy_target")
    assert fact is not None and fact.category == "decision" and fact.current.confidence == 1.0
    assert fact.current.fact == "Deploys go to Fly.io." and fact.current.sources == (result.id,)
    root = (vault.root / "ROOT.md").read_text(encoding="utf-8")
    assert "- **deploy_target**: Deploys go to Fly.io." in root


def test_a_second_value_supersedes_the_first_with_history_and_an_event(vault: Vault) -> None:
    memory = _memory(vault)
    first = memory.remember("Deploys go to Fly.io.", subject="deploy_target", category="decision")
    second = memory.remember("Deploys go to Render.", subject="deploy_target")
    fact = second.current
    assert fact is not None and fact.category == "decision"  # a new value keeps its subject's category
    assert fact.current.fact == "Deploys go to Render."
    assert [v.fact for v in fact.history] == ["Deploys go to Fly.io."] and fact.history[0].sources == (first.id,)
    (event,) = audit_events(vault)
    assert event.kind == "supersede" and event.old == "Deploys go to Fly.io." and event.new == "Deploys go to Render."
    memory.undo(event.id)
    restored = get_fact(vault, "deploy_target")
    assert restored is not None and restored.current.fact == "Deploys go to Fly.io."


def test_without_a_subject_the_extractor_names_it(vault: Vault) -> None:
    result = _memory(vault).remember("I prefer dark mode in the editor.")
    assert result.category == "preference" and result.subject == "editor"


def test_compaction_afterwards_gives_the_same_facts_files(vault: Vault) -> None:
    memory = _memory(vault)
    memory.add("We decided to use Postgres for the catalog.", timestamp="2026-03-01T10:00")
    memory.add("I prefer dark mode in the editor.", timestamp="2026-03-02T10:00")
    memory.compact(now=_at("2026-03-10T12:00"))
    memory.remember("I prefer light mode in the editor.", timestamp="2026-03-03T09:00")  # the extractor takes it too
    memory.remember("We use MySQL for the catalog now.", subject="catalog", timestamp="2026-03-03T09:30")
    before = _facts_files(vault.root)
    decisions = (vault.root / "facts/decision.md").read_text(encoding="utf-8")
    assert "MySQL" in decisions and "Until 2026-03-03" in decisions
    report = memory.compact(now=_at("2026-03-10T12:00"))
    assert "daily/2026-03-03.md" in report.written  # the remembered chunks' day was compacted
    assert _facts_files(vault.root) == before


def test_forget_removes_a_remembered_fact(vault: Vault) -> None:
    memory = _memory(vault)
    first = memory.remember("Deploys go to Fly.io.", subject="deploy_target", timestamp="2026-03-01T10:00")
    second = memory.remember("Deploys go to Render.", subject="deploy_target", timestamp="2026-03-02T10:00")
    memory.forget(second.id)
    fact = get_fact(vault, "deploy_target")
    assert fact is not None and fact.current.sources == (first.id,) and not fact.history
    memory.forget(first.id)
    assert get_fact(vault, "deploy_target") is None


def test_a_busy_lock_stores_the_chunk_and_says_the_next_compaction_applies_it(vault: Vault) -> None:
    with vault.lock() as held:
        assert held
        run = memtree("--vault", str(vault.root), "remember", "Deploys go to Fly.io.", "--subject", "deploy_target")
    assert run.code == 0 and "next `memtree compact`" in run.stderr
    assert get_fact(vault, "deploy_target") is None
    assert any(vault.root.glob("raw/*/*/*/*.json"))
    _memory(vault).compact()  # today's chunk stays raw; the facts come from raw/
    assert get_fact(vault, "deploy_target") is not None


def test_bad_category_and_subject_are_one_line_errors(vault: Vault) -> None:
    for args, wanted in (
        (["--category", "opinion"], "preference, constraint"),
        (["--subject", "a/b"], "deploy_target"),
    ):
        run = memtree("--vault", str(vault.root), "remember", "Deploys go to Fly.io.", *args)
        assert run.code == BAD_INPUT and wanted in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert not any(vault.root.glob("raw/*/*/*/*.json"))


def test_the_command_prints_the_fact_or_json(vault: Vault) -> None:
    run = memtree("--vault", str(vault.root), "remember", "Tabs, not spaces.", "--subject", "indent", "--json")
    data = json.loads(run.stdout)
    assert data["subject"] == "indent" and data["applied"] and data["current"]["confidence"] == 1.0
    run = memtree("--vault", str(vault.root), "remember", "Spaces now.", "--subject", "indent")
    assert run.code == 0 and "indent: Spaces now." in run.stdout and "supersedes 'Tabs, not spaces.'" in run.stderr


def _at(moment: str) -> datetime:
    return datetime.fromisoformat(moment + "+00:00")


def test_fact_text_drops_the_speaker_label_but_not_a_topic_label(vault: Vault) -> None:
    memory = _memory(vault)
    memory.add("I prefer dark mode in the editor.", speaker="alice", timestamp="2026-03-02T10:00")
    memory.compact(now=_at("2026-03-10T12:00"))
    fact = get_fact(vault, "editor")
    assert fact is not None and fact.current.fact == "I prefer dark mode in the editor."
    assert "alice: " not in (vault.root / "facts/preference.md").read_text(encoding="utf-8")
    daily = (vault.root / "daily/2026-03-02.md").read_text(encoding="utf-8")
    assert "alice: I prefer dark mode" in daily  # who said it stays with the candidate
    assert unquoted("user: Decided: HS256.", {"alice"}) == "Decided: HS256."
    assert unquoted("Decided: we use HS256.", {"alice"}) == "Decided: we use HS256."
