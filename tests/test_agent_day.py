"""Daily summaries of an agent's day: per session, what the user asked and what came of it;
narration (marked by an importer, or found by the order of the session) is never summary material."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from compaction_tree.config import Config
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.model import Chunk
from compaction_tree.periods import day_period
from compaction_tree.sessions import ANSWER, NARRATION, REQUEST, SAID, roles
from compaction_tree.summarizers import Unit
from compaction_tree.summary import Draft

DAY = "2026-02-12"
MARKED = 0.1  # importers.EVIDENCE_IMPORTANCE

Line = tuple[str, str] | tuple[str, str, float]


def session(name: str, hour: int, *lines: Line) -> list[Chunk]:
    start = datetime.fromisoformat(f"{DAY}T{hour:02d}:00:00+00:00")
    return [
        Chunk(f"{name}-{n}", start + timedelta(minutes=n), line[0], line[1], session=name, importance=_importance(line))
        for n, line in enumerate(lines)
    ]


def _importance(line: Line) -> float | None:
    return line[2] if len(line) == 3 else None


def summarize(chunks: list[Chunk]) -> Draft:
    unit = Unit(day_period(date.fromisoformat(DAY)), 400, chunks=tuple(sorted(chunks, key=lambda c: c.timestamp)))
    return ExtractiveSummarizer(Config(), fact_extractor=lambda _unit: ()).summarize(unit)


def cited(draft: Draft) -> set[str]:
    return {source for bullet in draft.bullets() for source in bullet.sources}


def lines_of(draft: Draft) -> list[str]:
    return [bullet.text for bullet in draft.bullets()]


# An agent's turn as an importer stores it: the narration between tool calls marked as evidence.
WORK = session(
    "s1",
    9,
    ("user", "Migrate the billing service from Heroku Postgres to Neon and keep the nightly backups."),
    ("assistant", "I decided to switch the connection pool to PgBouncer before the migration starts.", MARKED),
    ("assistant", "Fixed the failing backup job: the root cause was a missing pg_dump version pin.", MARKED),
    ("assistant", "We still need to update the staging secrets for the Neon database.", MARKED),
    (
        "assistant",
        "Done: billing now runs on Neon, backups run nightly with pg_dump 16. "
        "We decided to keep Heroku Postgres read-only until March.",
    ),
)


def test_marked_narration_is_never_a_decision_problem_pending_or_highlight() -> None:
    draft = summarize(WORK)
    narration = {c.id for c in WORK if c.importance == MARKED}
    assert not cited(draft) & narration
    assert not any("PgBouncer" in line or "pg_dump version pin" in line for line in lines_of(draft))


def test_a_session_line_says_what_was_asked_and_what_came_of_it() -> None:
    draft = summarize(WORK)
    line = next(b for b in draft.overview if " session: " in b.text)
    assert line.text.startswith('09:00 session: user asked "Migrate the billing service')
    assert "billing now runs on Neon" in line.text
    assert line.sources == ("s1-0", "s1-4")
    assert any("keep Heroku Postgres read-only" in b.text for b in draft.decisions)


def test_unmarked_narration_is_found_by_what_follows_it() -> None:
    """Stored by `memtree add` (a Stop hook): no importance, so the session's order decides."""
    chunks = session(
        "s2",
        10,
        ("user", "Set up the Grafana dashboards for the checkout latency alerts."),
        ("assistant", "Now let me check how the alert rules are defined in the repository."),
        ("assistant", "Good, the rules live in alerts.yaml. Let me switch to the dashboard JSON now."),
        ("assistant", "The checkout latency dashboard is live with p50, p95 and p99 panels."),
        ("user", "thanks, the deploy pipeline for dashboards is next week"),
    )
    found = roles(chunks)
    assert [found[c.id] for c in chunks] == [REQUEST, NARRATION, NARRATION, ANSWER, REQUEST]
    draft = summarize(chunks)
    assert not cited(draft) & {"s2-1", "s2-2"}
    assert "checkout latency dashboard is live" in draft.overview[1].text


def test_a_long_report_before_a_later_reply_is_an_answer_not_narration() -> None:
    report = "All done. Summary of the work:\n" + "\n".join(f"- task {n}: merged and deployed" for n in range(1, 6))
    chunks = session(
        "s3",
        11,
        ("user", "Finish the remaining tasks of the search epic."),
        ("assistant", report),
        ("assistant", "That notification was from an earlier test run; nothing to do."),
    )
    found = roles(chunks)
    assert found["s3-1"] == ANSWER
    assert "merged and deployed" in summarize(chunks).overview[1].text


def test_a_slash_command_request_is_the_sessions_request() -> None:
    chunks = session(
        "s4",
        12,
        ("user", "/review: check the auth module for token expiry bugs"),
        ("assistant", "Let me read the auth module.", MARKED),
        ("assistant", "The refresh token never expired: fixed it by checking exp in verify_token."),
    )
    line = summarize(chunks).overview[1]
    assert '"/review: check the auth module for token expiry bugs"' in line.text
    assert line.sources[0] == "s4-0"


def test_pending_said_before_the_session_went_on_is_not_pending_at_its_end() -> None:
    chunks = session(
        "s5",
        13,
        ("user", "Add rate limiting to the public upload API."),
        ("assistant", "Rate limiting is in. We still need to add tests for the upload limits."),
        ("user", "ok, write them"),
        ("assistant", "Tests for the upload limits pass. Next step: document the limits in the API guide."),
    )
    pending = [b.text for b in summarize(chunks).pending]
    assert not any("still need to add tests" in text for text in pending)
    assert any("document the limits" in text for text in pending)


def test_a_request_with_no_answer_says_so() -> None:
    chunks = session(
        "s6",
        14,
        ("user", "mix phx.server does not start on the staging box"),
        ("assistant", "Let me check the project structure first.", MARKED),
    )
    line = summarize(chunks).overview[1]
    assert line.text.endswith("→ no answer recorded")
    assert line.sources == ("s6-0",)


def test_every_session_of_a_busy_day_has_its_request() -> None:
    chunks = [
        chunk
        for n in range(6)
        for chunk in session(
            f"busy{n}",
            8 + n,
            ("user", f"Implement feature {n} of the reporting epic with exports to CSV and PDF formats."),
            ("assistant", f"Feature {n} is implemented, exported reports are tested, and the branch is pushed."),
        )
    ]
    draft = summarize(chunks)
    assert {f"busy{n}-0" for n in range(6)} <= cited(draft)


def uuid_session(n: int, hour: int, requests: int) -> list[Chunk]:
    """A session named like Claude Code's (a UUID, ~22 tokens an id) with `requests` rounds."""
    lines: list[Line] = []
    for k in range(requests):
        lines.append(("user", f"Port module {n}.{k} of the billing service to the new queue client library."))
        lines.append(("assistant", f"Module {n}.{k} is ported, its tests pass against the queue emulator."))
    return session(f"0eda269a-9c44-481b-958d-{n:012d}", hour, *lines)


def test_a_day_of_seven_sessions_with_long_ids_names_every_request() -> None:
    chunks = [chunk for n in range(7) for chunk in uuid_session(n, 8 + n, 1)]
    draft = summarize(chunks)
    assert {f"0eda269a-9c44-481b-958d-{n:012d}-0" for n in range(7)} <= cited(draft)


def test_past_what_fits_the_sessions_where_the_user_asked_most_are_named() -> None:
    chunks = [chunk for n in range(14) for chunk in uuid_session(n, 6 + n, 3 if n in (2, 11) else 1)]
    named = {source.split("-")[4] for source in cited(summarize(chunks))}
    assert {f"{2:012d}", f"{11:012d}"} <= named  # the two sessions of three requests each
    assert len(named) < 14  # a day's 400 tokens cannot cite fourteen ids and their words


def test_a_chat_between_people_has_no_requests_and_keeps_every_message() -> None:
    chunks = session(
        "talk",
        15,
        ("Caroline", "I went to the adoption agency meeting on Friday."),
        ("Melanie", "How did the adoption meeting go?"),
        ("Melanie", "I painted a lake sunrise for the art show last week."),
    )
    assert set(roles(chunks).values()) == {SAID}
    draft = summarize(chunks)
    assert len(draft.overview) == 1
    assert any("lake sunrise" in text for text in lines_of(draft))


def test_the_session_line_quotes_the_follow_up_that_names_most_and_cites_it() -> None:
    log = "Feb 19 18:40:32 api heroku/router at=error code=H12 desc='Request timeout' method=POST path=/api/pay"
    chunks = session(
        "s7",
        16,
        ("user", "Migrate the billing service to Neon."),
        ("assistant", "Billing runs on Neon now."),
        ("user", "Also move the invoice cron jobs to the new worker queue."),
        ("assistant", "The invoice cron jobs run on the worker queue."),
        ("user", log),
        ("assistant", "That H12 is the router timeout of the old dyno."),
        ("user", "thanks!"),
        ("assistant", "You're welcome."),
    )
    line = summarize(chunks).overview[1]
    assert '"Migrate the billing service to Neon."; then "Also move the invoice cron jobs' in line.text
    assert "H12" not in line.text and "thanks" not in line.text
    assert line.sources[:2] == ("s7-0", "s7-2")
