"""What the agent uses: ROOT.md under its budget, `know` that is trustworthy, `recall` within a budget."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest
from helpers import memtree

from compaction_tree import Memory
from compaction_tree.compaction import compact
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.index import Index
from compaction_tree.ingest import add
from compaction_tree.retrieval import know, recall, render_context
from compaction_tree.root import ROOT_FILE
from compaction_tree.tokens import count_tokens
from compaction_tree.vault import Vault

NOW = datetime(2026, 4, 20, tzinfo=timezone.utc)


def say(vault: Vault, text: str, when: str, speaker: str = "user", session: str | None = None) -> str:
    return add(vault, text, timestamp=when, speaker=speaker, session=session).id


@pytest.fixture
def project(vault: Vault) -> Vault:
    say(vault, "We use JSON Web Tokens with refresh tokens that rotate on every use.", "2026-03-02T10:00:00Z")
    say(vault, "The CORS preflight failed because of a trailing slash in CORS_ORIGINS.", "2026-03-03T10:00:00Z")
    say(vault, "Our Kubernetes cluster runs three nodes in Frankfurt.", "2026-03-04T10:00:00Z")
    say(vault, "The authorization server is Keycloak.", "2026-03-05T10:00:00Z")
    say(vault, "Refresh Tokens now expire after 30 days.", "2026-03-09T10:00:00Z")
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    return vault


# ---------------------------------------------------------------- know


@pytest.mark.parametrize(
    ("topic", "known"),
    [
        ("refresh tokens", True),
        ("Refresh Token", True),  # case and plural
        ("REFRESH-TOKENS", True),
        ("CORS", True),
        ("cors", True),  # a lowercase acronym still matches
        ("k8s", True),  # an alias of Kubernetes
        ("kubernetes clusters", True),
        ("Frankfurt", True),
        ("author", False),  # not an accident of spelling: "authorization" is not "author"
        ("auth", False),  # "auth" means authentication here (an alias); only authorization was mentioned
        ("token rotation", False),  # both words occur, never together
        ("Munich", False),
        ("jazz festival", False),
    ],
)
def test_know_is_trustworthy_both_ways(project: Vault, topic: str, known: bool) -> None:
    assert know(project, topic).known is known


@pytest.mark.parametrize(
    ("said", "asked"),
    [("session cookies", "session cookie"), ("the movie", "movies"), ("two cities", "city"), ("a party", "parties")],
)
def test_know_folds_plurals_of_ie_and_y_words(vault: Vault, said: str, asked: str) -> None:
    say(vault, f"We talked about {said} today.", "2026-03-02T10:00:00Z")
    assert know(vault, asked).known


def test_know_says_when_and_where(project: Vault) -> None:
    answer = know(project, "refresh tokens")
    assert answer.first_seen == "2026-03-02" and answer.last_seen == "2026-03-09" and answer.mentions == 2
    assert answer.see and all(p.startswith(("daily/", "weekly/", "monthly/", "raw/", "facts/")) for p in answer.see)
    assert {e["source"] for e in answer.entries} >= {e["source"] for e in answer.entries if e["date"] == "2026-03-09"}
    result = memtree("--vault", str(project.root), "know", "refresh tokens", "--json")
    data = result.json()
    assert result.code == 0 and data["known"] is True and data["last_seen"] == "2026-03-09"
    assert {
        "known",
        "topic",
        "canonical",
        "last_seen",
        "first_seen",
        "mentions",
        "in_root",
        "see",
        "entries",
        "facts",
    } <= set(data)


def test_know_of_nothing_is_a_usage_error(project: Vault) -> None:
    result = memtree("--vault", str(project.root), "know", "the", "--json")
    assert result.code == 4 and "names no topic" in result.stderr


def test_a_chunk_added_a_moment_ago_is_known_and_recalled(project: Vault) -> None:
    say(project, "Just now: we picked Grafana Loki for logs.", datetime.now(timezone.utc).isoformat())
    assert know(project, "grafana loki").known
    assert "Grafana Loki" in recall(project, "which log system did we pick?", 500).context


# ---------------------------------------------------------------- recall


@pytest.mark.parametrize("budget", [60, 200, 1000, 5000])
def test_recall_stays_within_its_budget(project: Vault, budget: int) -> None:
    result = recall(project, "refresh tokens expire rotate", budget)
    assert result.tokens == count_tokens(result.context) <= budget


def test_recall_quotes_evidence_in_time_order_with_dates_and_ids_when_asked(project: Vault) -> None:
    result = recall(project, "when do refresh tokens expire?", 2000, ids=True)
    lines = result.context.splitlines()
    headers = [line for line in lines if line.startswith("## ")]
    if headers[0] == "## Current facts":  # facts that hold most of the question's words come first
        headers = headers[1:]
    assert headers == sorted(headers) and headers[0].startswith("## 2026-03-02")
    quoted = [line for line in lines if line.startswith("[")]
    assert all(line.split("]", 1)[0][1:] in result.sources for line in quoted)
    assert "Refresh Tokens now expire after 30 days." in result.context
    assert list(result.sources) == sorted(result.sources, key=lambda i: result.context.index(i))


def test_recall_lines_carry_no_ids_by_default_so_the_budget_holds_more_evidence(vault: Vault) -> None:
    for i in range(60):
        say(
            vault,
            f"lantern repair notes item{i}.",
            f"2026-03-{1 + i % 28:02d}T08:{i % 60:02d}:00Z",
            session=f"s{i % 9}",
        )
    plain = recall(vault, "lantern repair", 400)
    labelled = recall(vault, "lantern repair", 400, ids=True)
    assert plain.sources and not any(source in plain.context for source in plain.sources)
    quoted = [line for line in plain.context.splitlines() if line and not line.startswith("## ")]
    assert len(quoted) == len(plain.sources) and all(line.startswith("user: lantern repair") for line in quoted)
    assert all(f"[{source}] user: " in labelled.context for source in labelled.sources)
    assert len(plain.sources) > len(labelled.sources)  # the ids' tokens went to evidence


def test_recall_cli_labels_lines_with_ids_only_when_asked(project: Vault) -> None:
    plain = memtree("--vault", str(project.root), "recall", "CORS preflight", "--budget", "800", "--json").json()
    labelled = memtree("--vault", str(project.root), "recall", "CORS preflight", "--ids", "--json").json()
    assert plain["sources"] and not any(f"[{source}]" in plain["context"] for source in plain["sources"])
    assert all(f"[{source}]" in labelled["context"] for source in labelled["sources"])


def test_recall_json_contract(project: Vault) -> None:
    data = memtree("--vault", str(project.root), "recall", "CORS preflight", "--budget", "800", "--json").json()
    assert isinstance(data["context"], str) and isinstance(data["tokens"], int) and isinstance(data["sources"], list)
    assert data["tokens"] <= 800 and "trailing slash" in data["context"]


@pytest.mark.parametrize("budget", [300, 1000, 2500])
def test_recall_fills_its_budget_when_there_is_more_to_quote(vault: Vault, budget: int) -> None:
    # the per-line token estimates overcount; the room they leave goes to the next chunks that fit
    for i in range(120):
        words = " ".join(["lantern", "repair"] + ["notes"] * (i % 7) + [f"item{i}"])
        say(vault, f"{words}.", f"2026-03-{1 + i % 28:02d}T08:{i % 60:02d}:00Z", session=f"s{i % 9}")
    result = recall(vault, "lantern repair", budget)
    with Index(vault) as index:
        rows = {row.id: row for row in index.chunks()}
    quoted = [rows[i] for i in result.sources]
    unquoted = [row for row in rows.values() if row.id not in result.sources]
    room = budget - result.tokens
    for row in unquoted:  # each would overflow, but for the few tokens a line's estimate may be off by
        assert count_tokens(render_context([*quoted, row])) > budget - 3, (room, row.id)


def test_identical_text_is_quoted_once_and_cited_for_every_copy(vault: Vault) -> None:
    ids = [say(vault, "Coffee first, then code.", f"2026-03-0{d}T08:00:00Z") for d in range(2, 7)]
    result = recall(vault, "coffee code", 2000)
    assert result.context.count("Coffee first, then code.") == 1
    assert set(ids) <= set(result.sources)


def test_recall_follows_the_reply_to_a_matching_turn(vault: Vault) -> None:
    for i in range(30):
        say(
            vault,
            f"Unrelated chatter number {i} about the weather and lunch plans.",
            f"2026-03-02T09:{i:02d}:00Z",
            session="s1",
        )
    say(vault, "Got a favourite style of dance?", "2026-03-03T10:00:00Z", speaker="assistant", session="s2")
    answer = say(vault, "Contemporary, always has been!", "2026-03-03T10:01:00Z", session="s2")
    result = recall(vault, "what style of dance does the user like?", 120)
    assert answer in result.sources


def test_recall_takes_a_second_hop_through_a_rare_name(vault: Vault) -> None:
    for i in range(40):
        say(vault, f"Filler about quarterly planning and team rituals, note {i}.", f"2026-03-02T08:{i:02d}:00Z")
    say(vault, "Imani is flying to Bristol next week.", "2026-03-03T10:00:00Z")
    evidence = say(vault, "Taverna Kyma in Bristol is worth the trip alone.", "2026-03-10T10:00:00Z")
    result = recall(vault, "Which restaurant would Imani enjoy where she is travelling?", 400)
    assert evidence in result.sources


def test_recall_given_nearest_chunks_by_meaning_quotes_one_sharing_no_word(vault: Vault) -> None:
    for i in range(40):
        say(vault, f"Filler about quarterly planning and team rituals, note {i}.", f"2026-03-02T08:{i:02d}:00Z")
    say(vault, "Melanie said she could not relax before the exam.", "2026-03-03T08:00:00Z")
    evidence = say(vault, "Pottery with the kids calms me down like nothing else.", "2026-03-05T10:00:00Z")
    question = "How does Melanie relax?"

    def nearest(query: str, k: int) -> list[tuple[str, float]]:  # an embedding model's view, in miniature
        assert query == question
        return [(evidence, 0.71)][:k]

    assert evidence not in recall(vault, question, 150).sources
    assert evidence in recall(vault, question, 150, nearest=nearest).sources


def test_recall_of_nothing_known_is_empty_not_an_error(project: Vault) -> None:
    result = recall(project, "zebra quokka", 500)
    assert result.context == "" and result.sources == () and result.tokens == 0


@pytest.mark.parametrize("args", [["recall", "", "--budget", "100"], ["recall", "x", "--budget", "0"]])
def test_recall_bad_arguments(project: Vault, args: list[str]) -> None:
    assert memtree("--vault", str(project.root), *args).code == 4


# ---------------------------------------------------------------- ROOT.md


def many_topics(vault: Vault, days: int = 120, per_day: int = 6) -> None:
    start = date(2025, 10, 6)
    for d in range(days):
        day = start + timedelta(days=d)
        for i in range(per_day):
            n = d * per_day + i
            say(
                vault,
                f"Project Topic{n % 400} needs Component{n % 350}; we decided on Vendor{n % 90} for it.",
                f"{day.isoformat()}T10:{i:02d}:00Z",
            )


@pytest.mark.slow
def test_root_never_exceeds_its_budget_and_never_cuts_an_entry(vault: Vault) -> None:
    many_topics(vault)
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    text = (vault.root / ROOT_FILE).read_text()
    assert count_tokens(text) <= 3000
    entries = [line for line in text.splitlines() if line.startswith("- **")]
    assert entries and all(line.endswith(")") or ")" in line.rsplit("→", 1)[-1] for line in entries)
    assert "## Also mentioned" in text and "more (ask `memtree know`)" in text


@pytest.mark.parametrize("budget", [400, 1000, 2000])
@pytest.mark.slow
def test_root_budget_is_configurable(vault: Vault, budget: int) -> None:
    many_topics(vault, days=40)
    config = (vault.root / "memtree.yaml").read_text().replace("root: 3000", f"root: {budget}")
    (vault.root / "memtree.yaml").write_text(config)
    vault = Vault.open(vault.root)
    assert count_tokens(Memory(vault).root()) <= budget


def test_root_covers_raw_chunks_not_yet_compacted(project: Vault) -> None:
    say(project, "Brand new: Sentry is wired into the billing page.", datetime.now(timezone.utc).isoformat())
    text = Memory(project).root()
    assert "Sentry" in text and "not yet summarized" in text


def test_root_canonicalizes_topics_and_splits_active_from_inactive(vault: Vault) -> None:
    for d, name in enumerate(["Refresh Tokens", "refresh token", "refresh-tokens", "REFRESH TOKENS"], start=2):
        say(vault, f"Today the {name} came up again, and the {name} matter.", f"2026-01-0{d}T10:00:00Z")
    say(vault, "Stripe webhooks need idempotency keys.", "2026-03-20T10:00:00Z")
    say(vault, "Stripe webhooks are verified with the signing secret.", "2026-03-21T10:00:00Z")
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    text = (vault.root / ROOT_FILE).read_text()
    active, inactive = text.split("## Active topics", 1)[1].split("## Inactive topics", 1)
    assert "Stripe" in active and "efresh" not in active
    assert sum(1 for line in inactive.splitlines() if "efresh" in line.lower() and line.startswith("- **")) == 1


def test_root_check_and_rebuild(project: Vault) -> None:
    assert memtree("--vault", str(project.root), "root", "--check").code == 0
    say(project, "A late thought about Keycloak realms.", "2026-03-05T18:00:00Z")
    check = memtree("--vault", str(project.root), "root", "--check")
    assert check.code == 9 and "stale" in check.stderr
    printed = memtree("--vault", str(project.root), "root")
    assert printed.code == 0 and printed.stdout == (project.root / ROOT_FILE).read_text()
    assert memtree("--vault", str(project.root), "root", "--check").code == 0


def test_root_links_point_at_files_that_exist(project: Vault) -> None:
    import re

    text = (project.root / ROOT_FILE).read_text()
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert links and all((project.root / link).exists() for link in links)


def test_context_is_root_plus_instructions(project: Vault) -> None:
    result = memtree("--vault", str(project.root), "context")
    assert result.code == 0 and result.stdout.startswith("<memory>\n---\nmemtree: root")
    assert "memtree recall" in result.stdout and "never claim" in result.stdout.lower()


# ---------------------------------------------------------------- the Python API


def test_the_python_api_does_what_the_cli_does(tmp_path: object) -> None:
    from pathlib import Path

    memory = Memory.init(Path(str(tmp_path)) / "m", "UTC")
    first = memory.add("We deploy with Fly.io now.", speaker="user", timestamp="2026-03-02T10:00:00Z")
    memory.add("Staging lives at staging.example.app.", speaker="assistant", timestamp="2026-03-02T10:05:00Z")
    report = memory.compact(now=NOW)
    assert report.written and not report.failed
    assert memory.know("fly.io").known and not memory.know("heroku").known
    assert "Fly.io" in memory.recall("how do we deploy?", budget=500).context
    assert memory.context().startswith("<memory>")
    assert Memory.open(memory.path).know("staging").known
    gone = memory.forget(first.id)
    assert gone.forgotten and not memory.know("fly.io").known
    assert json.loads(json.dumps(memory.know("staging").to_json()))["known"] is True
