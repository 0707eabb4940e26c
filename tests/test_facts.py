"""Durable facts: extraction cues, consolidation (clusters, merges, supersession, the three-step
rule), undo, determinism, the store's files, retrieval, and the whole path through compaction."""

from __future__ import annotations

import json
import random
import sys
import types
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from compaction_tree import Memory, facts
from compaction_tree.compaction import compact
from compaction_tree.errors import InvalidInputError
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.facts.consolidate import (
    MAX_CLUSTER,
    Fact,
    Version,
    clusters_of,
    consolidate,
    parse_audit,
    parse_category,
    render_audit,
    render_category,
)
from compaction_tree.index import Index
from compaction_tree.ingest import add
from compaction_tree.summary import FactCandidate
from compaction_tree.vault import Vault


def cand(
    fact: str,
    day: str = "2025-03-03",
    source: str = "c1",
    subject: str = "subject",
    category: str = "decision",
    confidence: float = 0.8,
) -> FactCandidate:
    return FactCandidate(category, subject, fact, confidence, day, (source,))


def only(outcome_facts: Any, subject: str) -> Fact:
    found = [f for f in outcome_facts if f.subject == subject]
    assert len(found) == 1, [f.subject for f in outcome_facts]
    return found[0]


# ---------------------------------------------------------------- extraction


# ---------------------------------------------------------------- consolidation


def test_a_change_supersedes_and_the_old_value_moves_to_history() -> None:
    outcome = consolidate(
        [
            cand("user: We decided to host Atlas on Heroku.", "2025-03-03", "c1", "atlas_host"),
            cand("user: We switched Atlas from Heroku to Fly.io.", "2025-03-10", "c2", "atlas"),
            cand("Atlas CI runs on GitHub Actions.", "2025-03-11", "c3", "atlas_ci"),
        ]
    )
    atlas = only(outcome.facts, "atlas_host")
    assert atlas.current.fact == "user: We switched Atlas from Heroku to Fly.io."
    assert atlas.current.valid_from == "2025-03-10"
    (old,) = atlas.history
    assert old.fact == "user: We decided to host Atlas on Heroku." and old.sources == ("c1",)
    assert old.valid_until == "2025-03-10" and old.why == "superseded: recency"
    event = next(e for e in outcome.events if e.kind == "supersede")
    assert old.event == event.id and event.rule == "recency" and event.sources == ("c1", "c2")
    assert event.old == old.fact and event.new == atlas.current.fact
    assert only(outcome.facts, "atlas_ci").history == ()  # the CI is another subject


def test_near_duplicates_merge_into_the_most_complete_wording() -> None:
    outcome = consolidate(
        [
            cand("Billing keeps its data in Postgres.", "2025-03-03", "c1", "billing_datastore", confidence=0.7),
            cand("Billing keeps its data in Postgres, as agreed.", "2025-03-04", "c2", "billing_datastore"),
        ]
    )
    (fact,) = outcome.facts
    assert fact.current.fact == "Billing keeps its data in Postgres, as agreed."
    assert fact.current.seen == 2
    assert fact.current.confidence == 0.94  # 1 - (1 - 0.7) * (1 - 0.8)
    assert fact.current.sources == ("c1", "c2")
    assert fact.current.valid_from == "2025-03-03"
    (event,) = outcome.events
    assert event.kind == "merge" and event.rule.startswith("near-duplicate")
    assert outcome.count("merge") == 1


TABS = "user: I prefer tabs for indentation."
SPACES = "user: I prefer 4 spaces for indentation."


def indentation(fact: str, day: str, source: str, confidence: float = 0.8) -> FactCandidate:
    return cand(fact, day, source, "indentation", "preference", confidence)


def test_contradictions_are_resolved_by_recency_first() -> None:
    outcome = consolidate([indentation(TABS, "2025-03-03", "c1", 0.95), indentation(SPACES, "2025-03-04", "c2", 0.6)])
    (fact,) = outcome.facts
    assert fact.current.fact == SPACES
    assert fact.history[0].why == "superseded: recency"


def test_contradictions_on_one_day_are_resolved_by_confidence() -> None:
    outcome = consolidate([indentation(TABS, "2025-03-03", "c1", 0.9), indentation(SPACES, "2025-03-03", "c2", 0.7)])
    (fact,) = outcome.facts
    assert fact.current.fact == TABS  # stated first, but more confidently
    assert fact.history[0].fact == SPACES and fact.history[0].why == "outweighed: confidence"
    (event,) = outcome.events
    assert (event.kind, event.rule) == ("keep", "confidence")


def test_then_by_corroboration() -> None:
    outcome = consolidate(
        [
            indentation(TABS, "2025-03-03", "c1"),
            indentation(SPACES, "2025-03-03", "c2"),
            indentation(TABS, "2025-03-03", "c3"),
        ]
    )
    (fact,) = outcome.facts
    assert fact.current.fact == TABS and fact.current.seen == 2
    assert fact.history[0].why == "outweighed: corroboration"


def test_then_by_order_the_later_statement_wins() -> None:
    outcome = consolidate([indentation(TABS, "2025-03-03", "c1"), indentation(SPACES, "2025-03-03", "c2")])
    (fact,) = outcome.facts
    assert fact.current.fact == SPACES
    assert fact.history[0].why == "superseded: order"


def test_a_change_keyed_by_the_value_it_replaces_still_meets_the_thing_it_names() -> None:
    outcome = consolidate(
        [
            cand("Kestrel CI runs on GitLab CI.", "2025-03-03", "c1", "kestrel_ci"),
            replace(
                cand("GitLab CI is out, Kestrel now builds on Drone.", "2025-03-10", "c2", "gitlab_ci"),
                replaces=("kestrel_ci", "GitLab CI"),  # which subject the change is of: the reader's to say
            ),
        ]
    )
    (fact,) = outcome.facts
    assert fact.current.sources == ("c2",) and [v.sources for v in fact.history] == [("c1",)]


def test_alike_statements_with_values_of_different_kinds_are_two_subjects() -> None:
    # how often Redwood pays and which plan it pays for: alike in wording, a cadence and a name
    outcome = consolidate(
        [
            cand("Redwood Analytics pays quarterly.", "2025-03-03", "c1", "redwood_analytics_billing"),
            cand("Redwood Analytics pays for Business.", "2025-03-10", "c2", "redwood_analytics"),
        ]
    )
    assert sorted(f.current.sources for f in outcome.facts) == [("c1",), ("c2",)]
    assert all(f.history == () for f in outcome.facts)


def test_a_change_to_a_dotted_name_replaces_only_what_it_is_about() -> None:
    # "moving from Heroku to Fly.io" says nothing of the logging that was a Heroku add-on
    outcome = consolidate(
        [
            cand("user: I'll use Papertrail since it's a Heroku add-on.", "2026-01-16", "c1", "papertrail"),
            cand("user: Decision made: we're moving from Heroku to Fly.io.", "2026-03-03", "c2", "heroku"),
        ]
    )
    assert sorted(f.current.sources for f in outcome.facts) == [("c1",), ("c2",)]


def test_union_find_chains_link_what_is_not_linked_directly() -> None:
    a = cand("We host Atlas on Heroku in region EU.", "2025-03-01", "c1", "atlas_host")
    b = cand("Our Heroku dyno for EU runs Python 3.12.", "2025-03-02", "c2", "atlas_runtime")
    c = cand("Moved the Python 3.12 build off it, to Render.", "2025-03-03", "c3", "hosting")
    assert len(clusters_of([a, c])) == 2  # no link between the first and the last statement
    assert [len(cluster) for cluster in clusters_of([c, a, b])] == [3]  # two entities shared, a to b and b to c
    fact = only(consolidate([c, a, b]).facts, "atlas_host")  # one subject: the latest value stands
    assert fact.current.sources == ("c3",)
    assert [v.sources for v in fact.history] == [("c2",), ("c1",)]


def test_aliases_link_by_replaces_shared_entities_or_similar_wording_only() -> None:
    kestrel = cand("Kestrel stores its data in PostgreSQL 15.", "2025-03-01", "c1", "kestrel_db")
    moved = cand("The datastore is now MySQL.", "2025-03-05", "c2", "datastore")
    assert len(clusters_of([kestrel, moved])) == 2  # nothing in common but English
    told = replace(moved, replaces=("kestrel_db", "PostgreSQL 15"))
    assert len(clusters_of([kestrel, told])) == 1
    heron = cand("Heron stores its data in PostgreSQL 15.", "2025-03-02", "c3", "heron_db")
    assert len(clusters_of([kestrel, heron])) == 1  # two entities shared ("postgresql", "15"): one subject


def test_replaces_supersedes_the_value_it_names_whatever_the_day_and_only_that_value() -> None:
    old = cand("Kestrel uses PostgreSQL 150.", "2025-03-03", "c1", "kestrel_db", confidence=0.9)
    wrong = replace(
        cand("Kestrel moved to MySQL.", "2025-03-03", "c2", "db", confidence=0.7),
        replaces=("kestrel_db", "PostgreSQL 15"),
    )
    right = replace(
        cand("Kestrel moved to Oracle.", "2025-03-03", "c3", "db", confidence=0.7),
        replaces=("kestrel_db", "PostgreSQL 150"),
    )
    (fact,) = consolidate([old, wrong, right]).facts
    assert (fact.subject, fact.current.sources) == ("kestrel_db", ("c3",))  # the same day, a lower confidence
    assert [v.why for v in fact.history] == [
        "superseded: names the current value as replaced",
        "outweighed: confidence",
    ]


def test_clusters_are_capped() -> None:
    many = [
        cand(f"Billing keeps its data in Postgres {n}.", "2025-03-03", f"c{n}", f"billing_{n}")
        for n in range(MAX_CLUSTER + 5)
    ]
    sizes = sorted(len(cluster) for cluster in clusters_of(many))  # every pair is alike: one cluster but its cap
    assert sizes == [5, MAX_CLUSTER]


def test_one_subject_stays_one_cluster_however_often_it_is_said() -> None:
    many = [cand(f"Billing keeps its data in Postgres {n}.", "2025-03-03", f"c{n}", "billing") for n in range(40)]
    assert [len(cluster) for cluster in clusters_of(many)] == [40]


def test_consolidation_is_independent_of_input_order() -> None:
    candidates = [
        cand("user: We decided to host Atlas on Heroku.", "2025-03-01", "c1", "atlas_host"),
        cand("user: We switched Atlas from Heroku to Fly.io.", "2025-03-02", "c2", "atlas"),
        cand("Atlas is hosted on Fly.io.", "2025-03-04", "c5", "atlas_host"),
        indentation(TABS, "2025-03-02", "c3"),
        indentation(SPACES, "2025-03-02", "c4"),
        cand("Priya owns billing.", "2025-03-01", "c6", "billing_owner", "entity"),
        cand("Priya handed billing over to Lena.", "2025-03-05", "c7", "billing", "entity"),
    ]

    def files(items: list[FactCandidate]) -> list[str]:
        outcome = consolidate(items)
        texts = [render_category(c, [f for f in outcome.facts if f.category == c]) for c in facts.CATEGORIES]
        return [*texts, render_audit(outcome.events)]

    expected = files(candidates)
    for seed in range(5):
        shuffled = list(candidates)
        random.Random(seed).shuffle(shuffled)
        assert files(shuffled) == expected


# ---------------------------------------------------------------- undo (in consolidation)


def test_an_undone_supersession_keeps_the_old_value() -> None:
    candidates = [
        cand("user: We decided to host Atlas on Heroku.", "2025-03-01", "c1", "atlas_host"),
        cand("user: We switched Atlas from Heroku to Fly.io.", "2025-03-02", "c2", "atlas"),
    ]
    (event,) = consolidate(candidates).events
    outcome = consolidate(candidates, {event.id: "u1"})
    (fact,) = outcome.facts
    assert fact.current.sources == ("c1",)
    assert fact.history[0].sources == ("c2",) and fact.history[0].why == "undone: u1"
    assert outcome.events[0].id == event.id and outcome.events[0].reversed_by == "u1"


def test_an_undone_merge_leaves_a_subject_of_its_own() -> None:
    candidates = [
        cand("Billing keeps its data in Postgres.", "2025-03-03", "c1", "billing_datastore"),
        cand("Billing keeps its data in Postgres, as agreed.", "2025-03-04", "c2", "billing_datastore"),
    ]
    (event,) = consolidate(candidates).events
    outcome = consolidate(candidates, {event.id: "u1"})
    assert sorted(f.subject for f in outcome.facts) == ["billing_datastore", "billing_datastore_2"]


# ---------------------------------------------------------------- the files


def test_the_category_file_round_trips() -> None:
    original = [
        Fact(
            "atlas_host",
            "decision",
            Version("user: We switched Atlas from Heroku to Fly.io (the cheaper one).", "2025-03-10", 0.8, 1, ("c2",)),
            (
                Version(
                    "user: We decided to host Atlas on Heroku.",
                    "2025-03-03",
                    0.95,
                    2,
                    ("c1", "c9"),
                    "2025-03-10",
                    "superseded: recency",
                    "0123456789ab",
                ),
            ),
        ),
        Fact("billing_owner", "decision", Version("Priya owns billing.", "2025-01-02", 0.99, 7, ("a", "b", "c"))),
    ]
    text = render_category("decision", original)
    assert text.startswith("# Decisions\n") and text.endswith("]\n") and "\n\n\n" not in text
    assert parse_category(text, "decision") == original
    assert render_category("decision", parse_category(text, "decision")) == text
    mangled = text.replace("(since 2025-01-02", "(once upon a time")  # a hand edit: that line is skipped
    assert [f.subject for f in parse_category(mangled, "decision")] == ["atlas_host"]


def test_the_audit_log_round_trips() -> None:
    candidates = [indentation(TABS, "2025-03-03", "c1", 0.9), indentation(SPACES, "2025-03-03", "c2", 0.7)]
    events = consolidate(candidates).events
    text = render_audit(events)
    assert len(text.splitlines()) == len(events) == 1
    assert tuple(parse_audit(text)) == events
    record = json.loads(text)
    assert list(record) == ["id", "date", "kind", "rule", "subject", "category", "old", "new", "sources", "reversed_by"]


# ---------------------------------------------------------------- the vault


DAYS = {
    "2025-03-03": [
        ("user", "We decided to host Atlas on Heroku. Also, I prefer tabs for indentation."),
        ("assistant", "The nightly export keeps failing because the S3 credentials expire after 12 hours."),
    ],
    "2025-03-04": [("user", "If we decided to use Kafka for billing, we'd have to rewrite the workers.")],
    "2025-03-05": [("user", "Quick note: the Atlas host is now Fly.io (was Heroku).")],
    "2025-03-06": [("user", "Actually I prefer 4 spaces for indentation. Never deploy Atlas on Fridays.")],
}
NOW = datetime(2025, 3, 12, tzinfo=UTC)


def fill(vault: Vault, days: dict[str, list[tuple[str, str]]]) -> None:
    for day, turns in days.items():
        for n, (speaker, text) in enumerate(turns):
            add(vault, text, timestamp=f"{day}T10:0{n}:00+00:00", speaker=speaker)


def test_compaction_builds_the_store_root_and_report(vault: Vault) -> None:
    fill(vault, DAYS)
    report = compact(vault, ExtractiveSummarizer(vault.config), now=NOW)
    assert report.facts_changed == [
        "facts/audit.jsonl",
        "facts/candidates/2025-03.jsonl",
        "facts/constraint.md",
        "facts/decision.md",
        "facts/preference.md",
    ]
    atlas = facts.get_fact(vault, "atlas host")
    assert atlas is not None and "Fly.io" in atlas.current.fact
    assert "Heroku" in atlas.history[0].fact
    indent = facts.get_fact(vault, "indentation")
    assert indent is not None and "4 spaces" in indent.current.fact and "tabs" in indent.history[0].fact
    assert not any("Kafka" in f.current.fact for f in facts.load_facts(vault))
    root = (vault.root / "ROOT.md").read_text(encoding="utf-8")
    standing = root.split("## Standing facts\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert standing[0].startswith("- **indentation**") and standing[1].startswith("- **deploy_atlas**")
    last = facts.last_rebuild_report(vault)
    assert last is not None and last.superseded == 2 and last.facts == 3 and last.unreachable == []
    # nothing new: nothing written
    again = compact(vault, ExtractiveSummarizer(vault.config), now=NOW)
    assert again.facts_changed == [] and again.written == []


def test_a_late_chunk_rederives_the_facts(vault: Vault) -> None:
    fill(vault, {day: DAYS[day] for day in ("2025-03-03", "2025-03-06")})
    compact(vault, ExtractiveSummarizer(vault.config), now=NOW)
    assert "Heroku" in facts.get_fact(vault, "atlas_host").current.fact  # type: ignore[union-attr]
    fill(vault, {"2025-03-05": DAYS["2025-03-05"]})
    report = compact(vault, ExtractiveSummarizer(vault.config), now=NOW)
    assert "facts/decision.md" in report.facts_changed
    assert "Fly.io" in facts.get_fact(vault, "atlas_host").current.fact  # type: ignore[union-attr]


def test_rebuild_writes_nothing_when_nothing_changed(vault: Vault) -> None:
    fill(vault, DAYS)
    compact(vault, ExtractiveSummarizer(vault.config), now=NOW)
    before = {p.name: p.read_bytes() for p in (vault.root / "facts").rglob("*") if p.is_file()}
    with Index(vault) as index:
        index.sync()
        assert facts.rebuild_facts(vault, index) == []
    assert {p.name: p.read_bytes() for p in (vault.root / "facts").rglob("*") if p.is_file()} == before


def test_undo_and_undo_of_the_undo(vault: Vault) -> None:
    fill(vault, DAYS)
    compact(vault, ExtractiveSummarizer(vault.config), now=NOW)
    event = next(e for e in facts.audit_events(vault) if e.subject == "atlas_host")
    undo_id = Memory(vault).undo(event.id).undo
    assert "Heroku" in facts.get_fact(vault, "atlas_host").current.fact  # type: ignore[union-attr]
    assert Memory(vault).undo(event.id).undo == undo_id  # already undone: nothing more
    overrides = (vault.root / "facts/overrides.yaml").read_text(encoding="utf-8")
    assert event.id in overrides and undo_id in overrides
    (reversed_event,) = [e for e in facts.audit_events(vault) if e.id == event.id]
    assert reversed_event.reversed_by == undo_id
    root = (vault.root / "ROOT.md").read_text(encoding="utf-8")
    assert "host Atlas on Heroku" in root  # ROOT.md's standing facts follow the undo
    redo = Memory(vault).undo(undo_id).undo
    assert redo != undo_id
    assert "Fly.io" in facts.get_fact(vault, "atlas_host").current.fact  # type: ignore[union-attr]
    with pytest.raises(InvalidInputError) as info:
        Memory(vault).undo("nope")
    assert info.value.hint and "audit.jsonl" in info.value.hint


def test_an_undo_whose_event_is_gone_is_reported_stale(vault: Vault) -> None:
    fill(vault, DAYS)
    compact(vault, ExtractiveSummarizer(vault.config), now=NOW)
    event = next(e for e in facts.audit_events(vault) if e.subject == "atlas_host")
    undo_id = Memory(vault).undo(event.id).undo
    (vault.root / "raw/2025/03/05").joinpath(next((vault.root / "raw/2025/03/05").iterdir()).name).unlink()
    compact(vault, ExtractiveSummarizer(vault.config), now=NOW)
    report = facts.last_rebuild_report(vault)
    assert report is not None and report.stale_overrides == [undo_id]


def store(vault: Vault, *items: Fact) -> None:
    for category in facts.CATEGORIES:
        chosen = [f for f in items if f.category == category]
        if chosen:
            vault.write(facts.store.category_path(category), render_category(category, chosen).encode("utf-8"))


def fact(subject: str, text: str, category: str = "decision", history: tuple[str, ...] = ()) -> Fact:
    past = tuple(Version(h, "2025-01-01", 0.8, 1, ("old",), "2025-02-01", "superseded: recency", "e1") for h in history)
    return Fact(subject, category, Version(text, "2025-02-01", 0.8, 1, ("c",)), past)


def test_facts_matching_is_precise(vault: Vault) -> None:
    store(
        vault,
        fact("auth_service_host", "The auth service runs on Fly.io."),
        fact("style_guide_owner", "The author of the style guide is Priya.", "entity"),
        fact("atlas_host", "Atlas runs on Fly.io.", history=("Atlas runs on Heroku.",)),
        fact("refresh_token", "Refresh tokens live for 30 days.", "domain_fact"),
    )

    def subjects(query: str) -> list[str]:
        return [f.subject for f in facts.facts_matching(vault, query)]

    assert subjects("auth") == ["auth_service_host"]
    assert subjects("author") == ["style_guide_owner"]
    assert subjects("heroku") == ["atlas_host"]  # found through its history
    assert subjects("refresh token") == ["refresh_token"]  # plurals fold
    assert subjects("fly.io") == ["auth_service_host", "atlas_host"] or subjects("fly.io") == [
        "atlas_host",
        "auth_service_host",
    ]
    assert subjects("service auth") == []  # a phrase, in order
    assert [f.subject for f in facts.search_facts(vault, "service auth")] == ["auth_service_host"]
    assert facts.get_fact(vault, "style-guide owner") is not None


def test_standing_fact_lines_put_preferences_and_constraints_first(vault: Vault) -> None:
    store(
        vault,
        fact("atlas_host", "Atlas runs on Fly.io."),
        fact("no_friday_deploys", "Never deploy on Fridays.", "constraint"),
        fact("indentation", "user: I prefer 4 spaces for indentation.", "preference"),
        fact("priya_role", "Priya is our staff engineer.", "entity"),
    )
    lines = facts.standing_fact_lines(vault)
    assert [line.split("**")[1] for line in lines] == ["indentation", "no_friday_deploys", "atlas_host", "priya_role"]
    assert lines[0] == "- **indentation**: user: I prefer 4 spaces for indentation. (since 2025-02-01)"


def test_a_fact_only_the_learned_model_vouches_for_waits_outside_the_standing_facts(vault: Vault) -> None:
    unsure = Fact(
        "office_wifi", "domain_fact", Version("The office wifi rotates every 90 days.", "2025-02-01", 0.65, 1, ("c",))
    )
    store(vault, fact("atlas_host", "Atlas runs on Fly.io."), unsure)
    assert [line.split("**")[1] for line in facts.standing_fact_lines(vault)] == ["atlas_host"]
    assert facts.get_fact(vault, "office_wifi") is not None  # still stored, found by know and recall


def test_the_retrieval_check_reports_a_subject_no_longer_found() -> None:
    outcome = consolidate(
        [
            cand("Billing keeps its data in Postgres.", "2025-03-03", "c1", "billing_datastore"),
            cand("Billing keeps its data in Postgres.", "2025-03-04", "c2", "zebra_crossing"),
        ]
    )
    assert outcome.count("merge") == 1
    assert facts.store.retrieval_check(outcome) == [
        {"query": "zebra crossing", "expected": "billing_datastore", "source": "c2"}
    ]


# ---------------------------------------------------------------- similarity by embeddings


def test_a_similarity_function_replaces_the_lexical_one() -> None:
    candidates = [
        cand("user: I take my coffee black.", "2025-03-03", "c1", "coffee", "preference"),
        cand("user: No milk or sugar in my coffee, ever.", "2025-03-04", "c2", "drink", "preference"),
    ]
    assert len(consolidate(candidates).facts) == 2

    def close(a: str, b: str) -> float:
        return 0.95 if "coffee" in a and "coffee" in b else 0.0

    (merged,) = consolidate(candidates, similarity=close).facts
    assert merged.current.seen == 2


def test_embeddings_come_from_litellm_once_then_from_the_cache(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    config = (vault.root / "memtree.yaml").read_text(encoding="utf-8")
    config = config.replace("backend: extractive", "backend: litellm").replace("model: null", "model: openai/gpt-x")
    (vault.root / "memtree.yaml").write_text(config, encoding="utf-8")
    vault = Vault.open(vault.root)
    calls: list[list[str]] = []

    def embedding(model: str, input: list[str], **kwargs: Any) -> Any:
        calls.append(list(input))
        assert model == "openai/text-embedding-3-small" and kwargs["num_retries"] == 0 and kwargs["timeout"]
        data = [{"index": n, "embedding": [1.0, float(len(text))]} for n, text in enumerate(input)]
        return types.SimpleNamespace(data=data)

    fake = types.ModuleType("litellm")
    fake.embedding = embedding  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "litellm", fake)
    similarity, label, warning = facts.store.similarity_for(vault, ["a b", "c d e"])
    assert label == "embeddings:openai/text-embedding-3-small" and warning is None and similarity is not None
    assert similarity("a b", "a b") == pytest.approx(1.0)
    assert calls == [["a b", "c d e"]]
    assert Path(vault.derived / "fact-embeddings.json").exists()
    facts.store.similarity_for(vault, ["c d e", "a b"])
    assert len(calls) == 1  # all cached

    def broken(**kwargs: Any) -> Any:
        raise ConnectionError("no network")

    fake.embedding = broken  # type: ignore[attr-defined]
    similarity, label, warning = facts.store.similarity_for(vault, ["new text"])
    assert similarity is None and label == "lexical" and warning and "ConnectionError" in warning


def test_no_embeddings_without_litellm(vault: Vault) -> None:
    assert facts.store.embedding_model(vault.config) is None
    assert facts.store.similarity_for(vault, ["a"]) == (None, "lexical", None)


def test_the_same_bytes_in_any_process() -> None:
    import subprocess

    script = (
        "import json, sys\n"
        "from compaction_tree.facts.consolidate import consolidate, render_audit, render_category\n"
        "from compaction_tree.summary import FactCandidate\n"
        "cands = [FactCandidate(*c[:5], tuple(c[5])) for c in json.loads(sys.stdin.read())]\n"
        "o = consolidate(cands)\n"
        "print(render_audit(o.events) + ''.join(render_category(c, [f for f in o.facts if f.category == c])"
        " for c in sorted({f.category for f in o.facts})))\n"
    )
    payload = json.dumps(
        [
            ["decision", "atlas_host", "user: We decided to host Atlas on Heroku.", 0.85, "2025-03-01", ["c1"]],
            ["decision", "atlas", "user: We switched Atlas from Heroku to Fly.io.", 0.8, "2025-03-02", ["c2"]],
            ["preference", "indentation", TABS, 0.8, "2025-03-02", ["c3"]],
            ["preference", "indentation", SPACES, 0.8, "2025-03-02", ["c4"]],
            ["entity", "billing_owner", "Priya owns billing.", 0.8, "2025-03-01", ["c5"]],
            ["entity", "billing", "Priya handed billing over to Lena.", 0.8, "2025-03-05", ["c6"]],
        ]
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            input=payload,
            capture_output=True,
            text=True,
            check=True,
            env={**__import__("os").environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in (1, 2, 3)
    }
    assert len(outputs) == 1 and "Lena" in next(iter(outputs))
