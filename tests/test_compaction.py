"""Compaction: the tree, exact incremental rebuilds, determinism, the lock, cost control, git."""

from __future__ import annotations

import random
import shutil
import subprocess
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from helpers import memtree, mtimes, snapshot

from compaction_tree.compaction import LOCKED_MESSAGE, compact
from compaction_tree.extractive import PROMPT_VERSION, ExtractiveSummarizer
from compaction_tree.ingest import add
from compaction_tree.markdown import parse_summary
from compaction_tree.summarizers import Limits
from compaction_tree.tokens import count_tokens
from compaction_tree.vault import Vault

NOW = datetime(2026, 4, 20, 12, 0, tzinfo=timezone.utc)
TOPICS = [
    "JWT refresh tokens",
    "the CORS preflight",
    "Stripe webhooks",
    "the Postgres schema",
    "Fly.io deploys",
    "structured logging",
    "the billing page",
    "GitHub Actions",
]
VERBS = [
    "We decided to keep",
    "I fixed a bug in",
    "Still need to review",
    "Let's document",
    "The team discussed",
    "We switched the staging setup for",
    "Tests now cover",
    "Remind me to check",
]


def fill(vault: Vault, start: date, days: int, per_day: int, seed: int = 7) -> list[str]:
    """Realistic-enough chunks: a few topics per day, decisions, fixes, open items, small talk."""
    rng = random.Random(seed)
    ids = []
    for d in range(days):
        day = start + timedelta(days=d)
        if day.weekday() == 6 and d % 3:
            continue  # some quiet Sundays
        for i in range(per_day):
            topic = rng.choice(TOPICS)
            text = f"{rng.choice(VERBS)} {topic} after the review on {day:%A}; item {rng.randint(1, 99)} is done."
            if i % 5 == 4:
                text = "ok thanks, sounds good"
            moment = datetime(day.year, day.month, day.day, 9, 0, tzinfo=timezone.utc) + timedelta(minutes=7 * i)
            ids.append(add(vault, text, timestamp=moment.isoformat(), speaker="user" if i % 2 else "assistant").id)
    return ids


def run(vault: Vault, now: datetime = NOW, **kwargs: object):  # type: ignore[no-untyped-def]
    return compact(vault, ExtractiveSummarizer(vault.config), now, **kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def quarter_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    template, _ = Vault.init(tmp_path_factory.mktemp("quarter") / "vault", "UTC")
    fill(template, date(2026, 1, 5), 70, 12)
    return template.root


@pytest.fixture
def quarter(quarter_template: Path, tmp_path: Path) -> Vault:
    """Ten weeks of chunks (built once per module, copied for each test)."""
    shutil.copytree(quarter_template, tmp_path / "quarter")
    return Vault.open(tmp_path / "quarter")


def test_builds_daily_weekly_and_monthly_summaries_for_closed_periods(quarter: Vault) -> None:
    report = run(quarter)
    assert not report.failed and not report.blocked
    daily = sorted(p.name for p in (quarter.root / "daily").iterdir())
    weekly = sorted(p.name for p in (quarter.root / "weekly").iterdir())
    monthly = sorted(p.name for p in (quarter.root / "monthly").iterdir())
    assert daily[0] == "2026-01-05.md" and daily[-1] == "2026-03-15.md"
    assert weekly == [f"2026-W{w:02d}.md" for w in range(2, 12)]
    assert monthly == ["2026-01.md", "2026-02.md", "2026-03.md"]  # March 2026 ends on Sunday 29 March: closed
    assert (quarter.root / "ROOT.md").exists()


def test_open_periods_are_not_summarized(vault: Vault) -> None:
    fill(vault, date(2026, 4, 13), 7, 6)  # Monday 13 .. Sunday 19 April; now is Monday 20 April, noon
    run(vault)
    assert (vault.root / "weekly/2026-W16.md").exists()
    assert not (vault.root / "monthly").exists()  # April's last week ends 3 May
    add(vault, "today's work on the billing page", timestamp="2026-04-20T09:00:00Z")
    report = run(vault)
    assert not (vault.root / "daily/2026-04-20.md").exists() and report.written == []


def test_the_settle_time_delays_a_day(vault: Vault) -> None:
    add(vault, "late evening thoughts about Stripe webhooks", timestamp="2026-04-19T23:30:00Z")
    run(vault, now=datetime(2026, 4, 20, 1, 0, tzinfo=timezone.utc))  # settle_hours: 2 by default
    assert not (vault.root / "daily/2026-04-19.md").exists()
    run(vault, now=datetime(2026, 4, 20, 2, 0, tzinfo=timezone.utc))
    assert (vault.root / "daily/2026-04-19.md").exists()


def test_summary_files_record_sources_identity_and_cite_what_they_cover(quarter: Vault) -> None:
    run(quarter)
    day = parse_summary((quarter.root / "daily/2026-01-07.md").read_text(), "daily", "2026-01-07", "d")
    chunk_ids = {f.id for f in quarter.raw_files() if f.day == "2026-01-07"}
    assert {s.id for s in day.sources} == chunk_ids and day.chunks == len(chunk_ids)
    assert all(len(s.sha256) == 64 for s in day.sources)
    assert day.summarizer.backend == "extractive" and day.summarizer.prompt_version == PROMPT_VERSION
    assert day.draft.bullets() and all(set(b.sources) <= chunk_ids for b in day.draft.bullets())
    week = parse_summary((quarter.root / "weekly/2026-W02.md").read_text(), "weekly", "2026-W02", "w")
    assert [s.id for s in week.sources] == [
        f"2026-01-{d:02d}" for d in range(5, 12) if (quarter.root / f"daily/2026-01-{d:02d}.md").exists()
    ]
    week_chunks = {f.id for f in quarter.raw_files() if "2026-01-05" <= f.day <= "2026-01-11"}
    assert all(set(b.sources) <= week_chunks for b in week.draft.bullets())
    text = (quarter.root / "daily/2026-01-07.md").read_text()
    assert (
        text.startswith("---\nlevel: daily\nperiod: '2026-01-07'\n")
        and text.endswith("\n")
        and not text.endswith("\n\n")
    )


@pytest.mark.parametrize(("level", "budget"), [("daily", 400), ("weekly", 600), ("monthly", 800)])
def test_every_level_stays_within_its_token_size(quarter: Vault, level: str, budget: int) -> None:
    run(quarter)
    for path in (quarter.root / level).iterdir():
        body = path.read_text().split("\n---\n", 1)[1]
        assert count_tokens(body) <= budget, path.name


def test_a_rerun_with_nothing_new_writes_zero_bytes(quarter: Vault) -> None:
    run(quarter)
    before = mtimes(quarter.root)
    report = run(quarter)
    assert report.written == [] and report.deleted == [] and not report.root_changed and report.calls == 0
    assert mtimes(quarter.root) == before


@pytest.mark.slow
def test_output_is_deterministic_byte_for_byte(tmp_path: Path) -> None:
    vaults = []
    for name in ("a", "b"):
        v, _ = Vault.init(tmp_path / name, "UTC")
        fill(v, date(2026, 1, 5), 40, 10)
        run(v)
        vaults.append(snapshot(v.root))
    assert vaults[0] == vaults[1]


@pytest.mark.slow
def test_determinism_does_not_depend_on_hash_seeds(tmp_path: Path) -> None:
    """The same vault compacted in two processes with different PYTHONHASHSEED gives the same bytes."""
    v, _ = Vault.init(tmp_path / "seed", "UTC")
    fill(v, date(2026, 1, 5), 20, 10)
    results = []
    for seed in ("1", "2"):
        copy = tmp_path / f"copy{seed}"
        shutil.copytree(v.root, copy)
        env = {"PYTHONHASHSEED": seed, "MEMTREE_NO_PROGRESS": "1", "PATH": "/usr/bin:/bin"}
        code = (
            "from datetime import datetime, timezone\nfrom compaction_tree.vault import Vault\n"
            "from compaction_tree.compaction import compact\n"
            "from compaction_tree.extractive import PROMPT_VERSION, ExtractiveSummarizer\n"
            f"v = Vault.open({str(copy)!r})\n"
            "compact(v, ExtractiveSummarizer(v.config), datetime(2026, 4, 20, tzinfo=timezone.utc))\n"
        )
        import sys

        subprocess.run([sys.executable, "-c", code], check=True, env=env)
        results.append(snapshot(copy))
    assert results[0] == results[1]


def test_a_late_chunk_regenerates_exactly_its_day_and_ancestors(quarter: Vault) -> None:
    run(quarter)
    before = snapshot(quarter.root)
    add(quarter, "Late note: we decided to pin Postgres 16.2 for the billing page.", timestamp="2026-02-11T18:00:00Z")
    report = run(quarter)
    assert sorted(report.written) == ["daily/2026-02-11.md", "monthly/2026-02.md", "weekly/2026-W07.md"]
    after = snapshot(quarter.root)
    changed = {path for path in after if after[path] != before.get(path)}
    summaries = {p for p in changed if p.split("/")[0] in ("daily", "weekly", "monthly")}
    assert summaries == {"daily/2026-02-11.md", "weekly/2026-W07.md", "monthly/2026-02.md"}
    # besides the new chunk, only the derived views of everything may change: ROOT.md and the facts store
    assert {p for p in changed - summaries if not p.startswith(("raw/", "facts/"))} == {"ROOT.md"}


def test_a_late_chunk_into_a_closed_day_that_had_none_creates_it(quarter: Vault) -> None:
    run(quarter)
    add(quarter, "A Sunday thought on GitHub Actions caching.", timestamp="2026-01-11T20:00:00Z")
    report = run(quarter)
    assert "daily/2026-01-11.md" in report.written and "weekly/2026-W02.md" in report.written


def test_deleting_every_chunk_of_a_day_removes_its_summaries(vault: Vault) -> None:
    ids = [add(vault, f"only note {i} about Stripe webhooks", timestamp=f"2026-03-04T10:0{i}:00Z").id for i in range(3)]
    fill(vault, date(2026, 3, 9), 7, 5)
    run(vault)
    assert (vault.root / "weekly/2026-W10.md").exists()
    for chunk_id in ids:
        (vault.root / f"raw/2026/03/04/{chunk_id}.json").unlink()
    report = run(vault)
    assert sorted(report.deleted) == ["daily/2026-03-04.md", "weekly/2026-W10.md"]
    assert "monthly/2026-03.md" in report.written


def test_a_second_compactor_exits_at_once_skipped(quarter: Vault) -> None:
    with quarter.lock() as held:
        assert held
        report = run(quarter)
        assert report.skipped == LOCKED_MESSAGE and report.written == []
        result = memtree("--vault", str(quarter.root), "compact")
        assert result.code == 0 and result.stdout.strip() == LOCKED_MESSAGE
    assert not (quarter.root / "daily").exists()


def test_dry_run_plans_and_writes_nothing(quarter: Vault) -> None:
    before = snapshot(quarter.root, include_derived=False)
    result = memtree("--vault", str(quarter.root), "compact", "--dry-run", "--json")
    assert result.code == 0
    plan = result.json()
    assert plan["dry_run"] and plan["estimate"]["units"]["daily"] == 64
    assert plan["estimate"]["units"]["weekly"] == 10 and plan["estimate"]["units"]["monthly"] == 3
    assert plan["estimate"]["input_tokens"] > 0 and plan["estimate"]["cost"] == 0
    assert snapshot(quarter.root) == before


def test_compact_json_report_shape(quarter: Vault) -> None:
    result = memtree("--vault", str(quarter.root), "compact", "--json")
    report = result.json()
    assert result.code == 0
    assert {
        "done",
        "written",
        "unchanged",
        "failed",
        "calls",
        "input_tokens",
        "output_tokens",
        "cost",
        "seconds",
        "skipped",
        "deferred",
    } <= set(report)
    assert report["done"] == 77 and report["failed"] == [] and report["calls"] == 0


def test_status_after_compaction(quarter: Vault) -> None:
    run(quarter)
    status = memtree("--vault", str(quarter.root), "status", "--json").json()
    assert status["summaries"] == {"daily": 64, "weekly": 10, "monthly": 3}
    assert status["compacted_through"] == "2026-03-15" and status["uncompacted_chunks"] == 0
    assert all(status["summary_tokens"][level] > 0 for level in ("daily", "weekly", "monthly"))


def git_in(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.setenv(key, "memtree")
    for key in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(key, "m@t")


def committed_files(folder: Path) -> tuple[str, set[str]]:
    title, *files = git_in(folder, "show", "--name-only", "--format=%s", "HEAD").split("\n")
    return title, {f for f in files if f}


def test_commit_commits_memtrees_files_and_nothing_else(quarter: Vault, git_identity: None) -> None:
    git_in(quarter.root, "init", "-q")
    git_in(quarter.root, "add", "-A")
    git_in(quarter.root, "commit", "-qm", "raw chunks")
    (quarter.root / "notes.md").write_text("the user's own uncommitted work")
    with (quarter.root / "memtree.yaml").open("a") as config:
        config.write("# an edit of the user's, not memtree's to commit\n")
    result = memtree("--vault", str(quarter.root), "compact", "--commit", "--json")
    assert result.code == 0 and result.json()["committed"]
    title, files = committed_files(quarter.root)
    assert title == "memtree: compact 64 daily, 10 weekly, 3 monthly (2025-12-29 .. 2026-03-29)"
    assert "ROOT.md" in files and "daily/2026-01-05.md" in files
    assert not any(f.startswith(".memtree") or f in ("notes.md", "memtree.yaml") for f in files)
    assert git_in(quarter.root, "status", "--porcelain") == " M memtree.yaml\n?? notes.md\n"

    # a late chunk: committed together with the day, week and month that now cite it
    late = add(quarter, "A late note on the Stripe webhooks.", timestamp="2026-02-04T18:00:00Z")
    assert memtree("--vault", str(quarter.root), "compact", "--commit").code == 0
    title, files = committed_files(quarter.root)
    day = {"daily/2026-02-04.md", "weekly/2026-W06.md", "monthly/2026-02.md", "facts/candidates/2026-02.jsonl"}
    assert files == {late.path, *day, "ROOT.md"}  # the day's fact candidates too
    assert title == "memtree: compact 1 daily, 1 weekly, 1 monthly (2026-02-02 .. 2026-03-01), 1 chunk file(s)"
    assert memtree("--vault", str(quarter.root), "compact", "--commit", "--json").json()["committed"] is None


def test_a_commit_that_failed_is_made_by_the_next_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under cron git often has no identity: the summaries are written, the commit fails with one
    line, and the next run (once git is set up) commits them: nothing is left behind uncommitted."""
    repo = tmp_path / "repo"
    vault, _ = Vault.init(repo / "memory", "UTC")  # a vault in a subfolder of a project's repository
    fill(vault, date(2026, 1, 5), 3, 4)
    git_in(repo, "init", "-q")
    for key in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL", "EMAIL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")  # no guessing an identity from the host name either
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "user.useConfigOnly")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "true")
    failed = memtree("--vault", str(vault.root), "compact", "--commit")
    assert failed.code == 1 and failed.stderr.count("\n") == 1 and "git commit failed" in failed.stderr
    assert (vault.root / "daily/2026-01-05.md").exists()

    monkeypatch.setenv("GIT_AUTHOR_NAME", "memtree")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "m@t")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "memtree")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "m@t")
    again = memtree("--vault", str(vault.root), "compact", "--commit", "--json")
    assert again.code == 0 and again.json()["written"] == [] and again.json()["committed"]
    title, files = committed_files(repo)
    assert title == "memtree: compact 3 daily, 1 weekly, 1 monthly (2025-12-29 .. 2026-02-01), 12 chunk file(s)"
    assert "memory/daily/2026-01-05.md" in files and "memory/ROOT.md" in files
    assert all(f.startswith("memory/") and not f.startswith("memory/.memtree") for f in files)
    assert "memory/memtree.yaml" not in files


def test_commit_outside_a_git_work_tree_says_so(vault: Vault) -> None:
    fill(vault, date(2026, 1, 5), 2, 3)
    result = memtree("--vault", str(vault.root), "compact", "--commit", "--json")
    assert result.code == 0 and result.json()["committed"] is None
    assert "not in a git work tree; nothing committed" in result.stderr


def test_schedule_prints_a_crontab_line_and_a_systemd_timer(vault: Vault) -> None:
    result = memtree("--vault", str(vault.root), "schedule", "--hour", "4")
    assert result.code == 0
    assert "15 4 * * *" in result.stdout and "flock -n" in result.stdout and "compact --commit" in result.stdout
    assert ">> " in result.stdout and "OnCalendar=*-*-* 04:15:00" in result.stdout


def test_max_calls_is_ignored_by_the_extractive_summarizer(quarter: Vault) -> None:
    report = run(quarter, limits=Limits(max_calls=1))
    assert report.deferred == [] and len(report.written) == 77
