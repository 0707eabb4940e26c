"""memtree prune: importance, summarize-then-prune, sealed history, the recall gate (issue 30)."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from helpers import memtree, snapshot
from test_compaction import fill

from compaction_tree import errors
from compaction_tree.compaction import compact, forget
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.index import ChunkRow, Index
from compaction_tree.ingest import add
from compaction_tree.recall_counts import USAGE_FILE, load_usage
from compaction_tree.retention import (
    BASE,
    CENTRAL_WEIGHT,
    CUE_WEIGHT,
    SUBSTANCE_WEIGHT,
    importance,
    ledger,
    parse_window,
    prune,
)
from compaction_tree.retrieval import know, recall
from compaction_tree.vault import Vault

NOW = datetime(2026, 4, 20, 12, 0, tzinfo=timezone.utc)
CHATTER = [
    "ok thanks, sounds good",
    "sure, one moment while I look at the {topic} page",
    "nice, the {topic} view loads quickly now",
    "let me grab a coffee before we look at {topic}",
]


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def chatter(vault: Vault, start: date, days: int, per_day: int) -> list[str]:
    """Small talk: no decision, failure or constraint, no fact: what prune may take."""
    ids = []
    for d in range(days):
        day = start + timedelta(days=d)
        for i in range(per_day):
            text = CHATTER[i % len(CHATTER)].format(topic=f"topic{d % 5}")
            moment = datetime(day.year, day.month, day.day, 10, 0, tzinfo=timezone.utc) + timedelta(minutes=5 * i)
            ids.append(add(vault, text, timestamp=moment.isoformat(), speaker="user" if i % 2 else "assistant").id)
    return ids


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    vault, _ = Vault.init(tmp_path_factory.mktemp("prune") / "vault", "UTC")
    fill(vault, date(2026, 1, 5), 21, 6)
    chatter(vault, date(2026, 1, 5), 21, 6)
    chatter(vault, date(2026, 4, 6), 7, 4)  # recent: within 90 days of NOW
    add(vault, "the deploy password rotation is documented", timestamp="2026-01-07T11:00:00Z", importance=0.9)
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    git(vault.root, "init", "-q")
    git(vault.root, "add", "-A")
    git(vault.root, "commit", "-qm", "memory")
    return vault.root


@pytest.fixture
def pvault(template: Path, tmp_path: Path) -> Vault:
    shutil.copytree(template, tmp_path / "v")
    return Vault.open(tmp_path / "v")


def row(text: str, importance_value: float | None = None) -> ChunkRow:
    return ChunkRow(1, "raw/x.json", "2026-01-05", "a1", "", "", "user", None, text, "0", 5, (), importance_value)


# ---------------------------------------------------------------- importance


def test_importance_adds_content_cues_centrality_and_use_and_an_explicit_value_replaces_it() -> None:
    assert importance(row("ok thanks"), 0, 0).value == BASE
    assert importance(row("we decided to go with it"), 0, 0).value == pytest.approx(BASE + CUE_WEIGHT)
    assert importance(row("the deploy failed twice"), 0, 0).value == pytest.approx(BASE + CUE_WEIGHT)
    specifics = [
        "we moved it to Postgres",
        "set `audit_export_beta` on",
        "it launches on 2026-03-04",
        "ask about geo-lookup",
    ]
    for text in specifics:
        assert importance(row(text), 0, 0).reasons == ("specifics",), text
    assert importance(row("the nursery said plants only need water every other week"), 0, 0).value >= 0.5
    assert importance(row("it must never run at night"), 0, 0).reasons == ("decision/failure/constraint",)
    assert SUBSTANCE_WEIGHT + BASE >= 0.5  # specifics alone reach the default floor
    assert importance(row("ok thanks"), 2, 0).value == pytest.approx(BASE + 2 * CENTRAL_WEIGHT)
    assert importance(row("ok thanks"), 0, 3).value > importance(row("ok thanks"), 0, 1).value > BASE
    assert importance(row("We decided it", 0.05), 2, 9).value == 0.05
    assert importance(row("ok", 3.0), 0, 0).value == 1.0


def test_a_question_records_no_specifics_the_statement_beside_it_does() -> None:
    asked = [
        "what should go on the Ibis roadmap for January?",
        "naming question: load_settings or something clearer?",
        "how do I write a design doc people will actually read?",
        "can you look at my JWT validation middleware? something feels off",
    ]
    for text in asked:
        assert importance(row(text), 0, 0).value == BASE, text
    stated = [
        "Sofia did great in the take-home. how was yours?",
        "what a week? the release moved to 2026-03-04",
        "see https://example.com/search?q=ledger for the dashboard",
    ]
    for text in stated:
        assert importance(row(text), 0, 0).reasons == ("specifics",), text
    assert importance(row("why did the deploy fail?"), 0, 0).reasons == ("decision/failure/constraint",)


@pytest.mark.slow
def test_recall_counts_what_it_returns_and_prune_scores_it(pvault: Vault) -> None:
    found = recall(pvault, "coffee topic1", 300)
    assert found.sources
    usage = load_usage(pvault)
    assert set(found.sources) <= set(usage) and all(usage[s] == 1 for s in found.sources)
    recall(pvault, "coffee topic1", 300)
    assert load_usage(pvault)[found.sources[0]] == 2
    assert USAGE_FILE.startswith(".memtree/")  # derived: git-ignored, never committed


# ---------------------------------------------------------------- dry run and apply


def test_dry_run_lists_what_would_go_and_why_and_changes_nothing(pvault: Vault) -> None:
    before = snapshot(pvault.root)
    result = memtree("--vault", str(pvault.root), "prune", "--json")
    assert result.code == 0
    report = result.json()
    today = datetime.now(timezone.utc).date()  # the CLI's now: every old chunk is past the 90 days
    assert report["dry_run"] and report["pruned"] > 0 and report["cutoff"] == str(today - timedelta(days=90))
    assert report["kept"]["important"] >= 1
    assert all({"id", "day", "path", "importance", "reasons"} <= set(c) for c in report["chunks"])
    assert all(c["importance"] < report["floor"] for c in report["chunks"])
    assert snapshot(pvault.root) == before
    text = memtree("--vault", str(pvault.root), "prune").stdout
    assert "would prune" in text and "dry run: nothing deleted" in text


def test_apply_deletes_only_covered_unimportant_old_chunks_and_compaction_then_writes_nothing(pvault: Vault) -> None:
    summaries = {p: h for p, h in snapshot(pvault.root).items() if p.split("/")[0] in ("daily", "weekly", "monthly")}
    with Index(pvault) as index:
        index.sync()
        rows = {r.id: r for r in index.chunks()}
        cited = {i: h for p, _ in index.summaries("daily") for i, h in index.summary_sources(p)}
        fact_sources = {s for _, x in index.summaries("daily") for f in x.draft.facts for s in f.sources}
    report = prune(pvault, NOW, older_than_days=90, apply=True)
    gone = {c["id"] for c in report.pruned}
    assert gone and all(not (pvault.root / rows[i].path).exists() for i in gone)
    assert all(cited[i] == rows[i].sha for i in gone)  # a daily summary cites each by id and hash
    assert not gone & fact_sources
    assert all(rows[i].day < "2026-01-20" for i in gone)
    assert all(rows[i].importance is None for i in gone)  # the explicit 0.9 stays
    assert {e.id: e.sha256 for e in ledger(pvault).values()} == {i: rows[i].sha for i in gone}
    assert report.gate.answered_after == report.gate.answered_before
    again = compact(pvault, ExtractiveSummarizer(pvault.config), NOW)
    assert (again.written, again.deleted, again.root_changed, again.facts_changed) == ([], [], False, [])
    after = {p: h for p, h in snapshot(pvault.root).items() if p.split("/")[0] in ("daily", "weekly", "monthly")}
    assert after == summaries  # sealed: every summary kept byte for byte


def test_apply_outside_git_is_refused_and_deletes_nothing(pvault: Vault) -> None:
    shutil.rmtree(pvault.root / ".git")
    before = snapshot(pvault.root)
    result = memtree("--vault", str(pvault.root), "prune", "--apply")
    assert result.code == errors.UNSAFE
    assert "not in a git work tree" in result.stderr and "hint" in result.stderr
    assert snapshot(pvault.root) == before


def test_a_chunk_git_does_not_hold_is_not_pruned(pvault: Vault) -> None:
    planned = prune(pvault, NOW, older_than_days=90)
    victim = planned.pruned[0]["path"]
    git(pvault.root, "rm", "-q", "--cached", victim)
    report = prune(pvault, NOW, older_than_days=90, apply=True)
    assert victim not in {c["path"] for c in report.pruned}
    assert report.kept["not committed to git"] == 1 and (pvault.root / victim).exists()


def test_importance_floor_and_window_come_from_the_config(pvault: Vault) -> None:
    config = pvault.root / "memtree.yaml"
    config.write_text(config.read_text() + "\nretention:\n  floor: 0.05\n  older_than_days: 400\n")
    vault = Vault.open(pvault.root)
    report = prune(vault, NOW)
    assert (report.floor, report.older_than_days, report.pruned) == (0.05, 400, [])


@pytest.mark.parametrize(("text", "days"), [("90d", 90), ("12w", 84), ("6m", 180), ("1y", 365), ("30", 30)])
def test_windows_parse(text: str, days: int) -> None:
    assert parse_window(text) == days


def test_a_bad_window_is_a_clear_error(pvault: Vault) -> None:
    result = memtree("--vault", str(pvault.root), "prune", "--older-than", "soon")
    assert result.code == errors.BAD_INPUT and "e.g. --older-than 90d" in result.stderr


# ---------------------------------------------------------------- sealed history


def test_a_late_chunk_on_a_pruned_day_never_rebuilds_its_summary_from_what_is_left(pvault: Vault) -> None:
    report = prune(pvault, NOW, older_than_days=90, apply=True)
    day = report.pruned[0]["day"]
    summary = (pvault.root / f"daily/{day}.md").read_bytes()
    add(pvault, "a late note about nothing much", timestamp=f"{day}T23:00:00Z")
    again = compact(pvault, ExtractiveSummarizer(pvault.config), NOW)
    assert f"daily/{day}.md" not in again.written
    assert (pvault.root / f"daily/{day}.md").read_bytes() == summary


@pytest.mark.slow
def test_a_fresh_clone_knows_what_was_pruned(pvault: Vault, tmp_path: Path) -> None:
    prune(pvault, NOW, older_than_days=90, apply=True)
    git(pvault.root, "add", "-A")
    git(pvault.root, "commit", "-qm", "prune")
    subprocess.run(["git", "clone", "-q", str(pvault.root), str(tmp_path / "clone")], check=True)
    clone = Vault.open(tmp_path / "clone")
    before = snapshot(clone.root)
    again = compact(clone, ExtractiveSummarizer(clone.config), NOW)
    assert (again.written, again.deleted) == ([], [])
    assert snapshot(clone.root) == before


@pytest.mark.slow
def test_a_pruned_chunk_comes_back_from_git_history(pvault: Vault) -> None:
    report = prune(pvault, NOW, older_than_days=90, apply=True)
    path = report.pruned[0]["path"]
    shown = git(pvault.root, "show", f"HEAD:{path}")  # the README's recipe
    assert json.loads(shown)["id"] == report.pruned[0]["id"]


def test_forget_of_a_pruned_chunk_removes_it_from_every_summary_and_the_ledger(pvault: Vault) -> None:
    report = prune(pvault, NOW, older_than_days=90, apply=True)
    victim = report.pruned[0]["id"]
    result = forget(pvault, [victim], ExtractiveSummarizer(pvault.config), NOW)
    assert result.compaction is not None and not result.compaction.failed
    for folder in ("daily", "weekly", "monthly"):
        for path in (pvault.root / folder).glob("*.md"):
            assert victim not in path.read_text(encoding="utf-8"), path
    assert victim not in ledger(pvault) and len(ledger(pvault)) == len(report.pruned) - 1


def test_forget_of_a_pruned_chunk_whose_sealed_summary_cannot_be_read_stays_pending_until_it_is_fixed(
    pvault: Vault,
) -> None:
    """Found by the state machine: a sealed summary with conflict markers kept the forgotten chunk's id
    and words, and the forget was reported done (resolving the conflict would have brought them back)."""
    report = prune(pvault, NOW, older_than_days=90, apply=True)
    git(pvault.root, "add", "-A")
    git(pvault.root, "commit", "-qm", "pruned")
    victim = report.pruned[0]
    daily = pvault.root / f"daily/{victim['day']}.md"
    daily.write_bytes(b"<<<<<<< HEAD\n" + daily.read_bytes() + b"=======\nother side\n>>>>>>> theirs\n")
    result = memtree("--vault", str(pvault.root), "forget", victim["id"])
    assert result.code == errors.UNSAFE and "cannot be read" in result.stderr and "git checkout" in result.stderr
    assert victim["id"] in ledger(pvault)  # still pending
    git(pvault.root, "checkout", "--", f"daily/{victim['day']}.md")
    assert memtree("--vault", str(pvault.root), "forget", victim["id"]).code == 0
    assert victim["id"] not in daily.read_text(encoding="utf-8") and victim["id"] not in ledger(pvault)


def test_forget_on_a_sealed_day_strips_its_lines_and_keeps_the_rest_word_for_word(pvault: Vault) -> None:
    report = prune(pvault, NOW, older_than_days=90, apply=True)
    sealed = {c["day"] for c in report.pruned}
    with Index(pvault) as index:
        index.sync()
        path, bullets = next(
            (p, s.draft.bullets()) for p, s in index.summaries("daily") if s.period in sealed and s.draft.bullets()
        )
    victim = bullets[0].sources[0]
    words = bullets[0].text
    others = [b.text for b in bullets if victim not in b.sources]
    forget(pvault, [victim], ExtractiveSummarizer(pvault.config), NOW)
    text = (pvault.root / path).read_text(encoding="utf-8")
    assert victim not in text and words not in text
    assert all(other in text for other in others)  # never rebuilt from what is left
    for folder in ("daily", "weekly", "monthly"):
        for summary in (pvault.root / folder).glob("*.md"):
            assert victim not in summary.read_text(encoding="utf-8"), summary


def test_the_last_mention_of_a_topic_stays_so_know_still_knows_it(tmp_path: Path) -> None:
    vault, _ = Vault.init(tmp_path / "v", "UTC")
    chatter(vault, date(2026, 1, 5), 3, 16)
    things = ["hearing test", "bike lock", "sourdough starter", "garden hose", "spare umbrella", "winter scarf"]
    things += ["library card", "reading glasses", "travel mug", "phone charger", "yoga mat", "chess clock"]
    for i, thing in enumerate(things):  # more passing remarks than the day's summary quotes
        add(vault, f"oh, the {thing} turned up", timestamp=datetime(2026, 1, 6, 12, i, tzinfo=timezone.utc))
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    git(vault.root, "init", "-q")
    git(vault.root, "add", "-A")
    git(vault.root, "commit", "-qm", "memory")
    report = prune(vault, NOW, older_than_days=30, apply=True)
    assert report.pruned and report.kept["last mention of a topic"] >= 1
    for thing in things:
        assert know(vault, thing).known, thing


# ---------------------------------------------------------------- the recall gate


def test_the_gate_keeps_the_only_evidence_of_a_summary_line(pvault: Vault) -> None:
    report = prune(pvault, NOW, older_than_days=90)
    assert report.gate.questions > 0 and report.gate.answered_before > 0
    assert report.gate.kept > 0 and report.kept["recall gate"] == report.gate.kept
    kept_ids = {c["id"] for c in report.pruned}
    for text, sources in report.gate.asked:
        assert set(sources) - kept_ids, text  # each answered line keeps a chunk


def test_the_gate_asks_a_repeated_line_once_and_decides_as_if_asked_each_time(
    pvault: Vault, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compaction_tree import retrieval

    asked: list[str] = []
    real = retrieval.recall

    def counting(vault: Vault, query: str, *args: object, **kwargs: object) -> retrieval.Recall:
        asked.append(query)
        return real(vault, query, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(retrieval, "recall", counting)
    report = prune(pvault, NOW, older_than_days=90)
    assert len(asked) == len(set(asked)) < report.gate.questions  # small talk summed up alike, day after day
    monkeypatch.undo()
    for text, sources in report.gate.asked:  # each answer is recall's own
        assert set(recall(pvault, text, pvault.config.budgets.recall, count_usage=False, facts=False).sources) & set(
            sources
        )


# ---------------------------------------------------------------- metrics


def test_status_reports_store_size_pruned_and_kept_prune_rate_lag_and_facts(pvault: Vault) -> None:
    report = prune(pvault, NOW, older_than_days=90, apply=True)
    result = memtree("--vault", str(pvault.root), "status", "--json")
    status = result.json()
    r = status["retention"]
    assert r["pruned_chunks"] == len(report.pruned) and r["kept_chunks"] == status["chunks"]
    assert r["prune_rate"] == round(len(report.pruned) / (len(report.pruned) + status["chunks"]), 4)
    assert r["store"]["raw"]["files"] == status["chunks"] and r["store"]["pruned"]["files"] >= 1
    assert r["store"]["daily"]["bytes"] > 0
    assert r["last_prune"]["kept"] == dict(sorted(report.kept.items()))
    assert status["consolidation_lag_days"] is None  # every chunk is in a daily summary
    assert status["facts"]["current"] >= 0
    assert "chunk(s) pruned" in memtree("--vault", str(pvault.root), "status").stdout


def test_compact_commit_commits_the_ledger(pvault: Vault) -> None:
    prune(pvault, NOW, older_than_days=90, apply=True)
    from compaction_tree.gitcommit import commit_changes

    git(pvault.root, "config", "user.name", "t")
    git(pvault.root, "config", "user.email", "t@example.com")
    assert commit_changes(pvault)
    assert git(pvault.root, "status", "--porcelain") == ""
