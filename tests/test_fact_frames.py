"""The offline fact extractor, one rule family at a time: explicit markers, the frames that carry most facts,
what disqualifies a sentence, the fact's text and subject, and pasted code that states nothing.

How it does over thousands of wordings is evaluation, not a unit test: bench/eval_phrasings.py."""

from __future__ import annotations

import json
import types
from datetime import datetime
from pathlib import Path

import pytest

from compaction_tree.config import Config
from compaction_tree.facts import extract_facts, extract_sentence, statements_of, subject_key
from compaction_tree.facts.pasted import is_pasted, said_text
from compaction_tree.model import Chunk
from compaction_tree.periods import day_period
from compaction_tree.summarizers import Unit


def read(sentence: str, speaker: str = "user"):  # type: ignore[no-untyped-def]
    found = extract_sentence(sentence, speaker)
    assert found is not None, sentence
    return found


# ---- explicit markers ------------------------------------------------------------------------------


def test_remember_that_keeps_the_statement_without_the_marker() -> None:
    found = read("Remember that my dentist is Dr. Lopez.")
    assert found.fact == "My dentist is Dr. Lopez."
    assert (found.subject, found.value, found.category) == ("dentist", "Dr. Lopez", "entity")
    assert found.confidence > read("My dentist is Dr. Lopez.").confidence  # said outright to be kept


def test_a_marked_statement_no_frame_reads_is_still_kept() -> None:
    found = read("Please note that the office wifi password rotates every 90 days.")
    assert found.fact == "The office wifi password rotates every 90 days."
    assert found.subject == "office_wifi_password"


@pytest.mark.parametrize(
    "sentence", ["From now on, write commit messages in English.", "Answer in British spelling from now on."]
)
def test_from_now_on_is_a_standing_rule(sentence: str) -> None:
    found = read(sentence)
    assert found.category == "preference" and found.fact == sentence


# ---- the frames ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "category", "subject", "value"),
    [
        ("We decided to use PostgreSQL for the database.", "decision", "database", "PostgreSQL"),
        ("we settled on Terraform for the infra code", "decision", "infra_code", "Terraform"),
        ("Decided: Alembic for migrations", "decision", "migration", "Alembic"),
        ("I prefer tabs over spaces", "preference", "tab_space", "tabs"),
        ("I never deploy on Fridays", "constraint", "deploy_fridays", "deploy on Fridays"),
        ("please always use British spelling", "preference", "british_spelling", "use British spelling"),
        ("Customer data must stay inside the EU", "constraint", "customer_data", "stay inside the EU"),
        ("My manager is Priya", "entity", "manager", "Priya"),
        ("I live in Lyon", "entity", "home", "Lyon"),
        ("Halima is our new data engineer", "entity", "halima_role", "data engineer"),
        ("error tracking is Sentry across every service", "decision", "error_tracking", "Sentry"),
        ("prod db: Postgres 15", "decision", "prod_db", "Postgres 15"),
        ("Kestrel's uptime SLA is 99.9%", "domain_fact", "kestrel_uptime_sla", "99.9%"),
    ],
)
def test_each_frame_reads_category_subject_and_value(sentence: str, category: str, subject: str, value: str) -> None:
    found = read(sentence)
    assert (found.category, found.subject, found.value) == (category, subject, value)


@pytest.mark.parametrize(
    ("sentence", "subject", "value", "old"),
    [
        ("The staging host is now fly.io (was Heroku).", "staging_host", "fly.io", "Heroku"),
        ("the token lifetime is now 10 minutes instead of 15 minutes", "token_lifetime", "10 minutes", "15 minutes"),
        ("We moved the API from Heroku to Fly.io.", "api", "Fly.io", "Heroku"),
        ("our CI switched from Jenkins to GitHub Actions", "ci", "GitHub Actions", "Jenkins"),
        ("We decided to deploy on Fly.io instead of Heroku.", "deploy", "Fly.io", "Heroku"),
    ],
)
def test_a_change_naming_the_old_value_says_what_it_replaces(sentence: str, subject: str, value: str, old: str) -> None:
    found = read(sentence)
    assert (found.subject, found.value, found.replaces) == (subject, value, (subject, old))


@pytest.mark.parametrize(
    ("sentence", "subject", "old"),
    [
        ("the Orca standup is at 9:15, no longer 10:00", "orca_standup", "10:00"),
        ("Magpie CI is GitHub Actions (was CircleCI)", "magpie_ci", "CircleCI"),
        ("Magpie CI is GitHub Actions (used to be CircleCI)", "magpie_ci", "CircleCI"),
    ],
)
def test_an_old_value_told_after_any_frame_is_what_it_replaces(sentence: str, subject: str, old: str) -> None:
    found = read(sentence)
    assert found.replaces == (subject, old) and old not in found.value


def test_a_preference_between_two_is_no_change() -> None:
    found = read("I prefer tea instead of coffee")
    assert found.value == "tea" and found.replaces is None


def test_a_change_without_the_old_value_replaces_nothing_it_names() -> None:
    found = read("The staging host is now fly.io.")
    assert found.value == "fly.io" and found.replaces is None


def test_an_aside_after_the_main_clause_is_kept_in_the_fact_but_not_read() -> None:
    found = read("we standardised on Ruff for linting, black is gone")
    assert found.value == "Ruff" and found.fact == "We standardised on Ruff for linting, black is gone."


# ---- what is no fact, whatever frame fits ----------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "Should we use Redis for the cache?",  # a question
        "do we always deploy on Fridays",
        "If we use Redis, the cache is Redis.",  # a hypothetical
        "maybe we settled on Terraform",
        "Now let me check the logs.",  # narration of work under way
        "I'm going to run the migrations.",
        "I prefer tea today.",  # a moment
        "my sister lives in Leeds since last month",
        "we decided to use Redis for the cache? :)",  # a question, an emoticon after it
        "the cache is Redis, smells like a leak",  # an impression
        "my manager seems to be Priya",
        "Noor wants preview environments for every pull request",  # someone's wish, not a choice
        "my manager is Priya though",  # a reply conceding a point
        "the budget went from 3000 euros to double that",  # a value that points back
        "the build is now Bazel for now",
        "disk on the build runner is at 97%",
        "my branch is 40 commits behind main on this branch",
        "we haven't decided on Terraform",  # a choice not made
        "my back is killing me",  # a state under way
        "Priya's survey results are in",  # a value that says nothing
        "It's amazing how art can show things",  # a pronoun is no name
        "This is the right attitude!",
        "Always here to help.",  # a rule's value starts with what to do
        "Seeing your students grow must be really fulfilling",  # a clause, not a thing, before the verb
        "Remember to take breaks",  # an exhortation: remember *that* states something
        "draft a reply saying I can't make it Thursday",  # a clause, not a thing, before the verb
    ],
)
def test_questions_hypotheticals_narration_and_moments_are_no_fact(sentence: str) -> None:
    assert extract_sentence(sentence, "user") is None


@pytest.mark.parametrize(
    "sentence",
    [
        "my laptop is painfully slow these days",  # a condition
        "our sprint board is all over the place",  # an opinion
        "Priya's desk is always messy",
        "my shoulder is much better now",
        "our migration is on hold",  # a state a preposition tells
    ],
)
def test_how_a_thing_is_is_no_fact_of_my_x_is_y(sentence: str) -> None:
    assert extract_sentence(sentence, "user", use_model=False) is None


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("my manager is Priya", "Priya"),  # a name
        ("our lease is up next March", "up next March"),
        ("my budget is 400 euros", "400 euros"),  # a number
        ("my brother is a nurse", "nurse"),  # a noun phrase an article introduces
        ("our dog is on a grain-free diet", "on a grain-free diet"),  # ... or a preposition
        ("Ayo's team is the platform group", "platform group"),
        ("my goal is to run a marathon", "to run a marathon"),  # a goal
        ("our podcast is about urban gardening", "about urban gardening"),  # a topic
    ],
)
def test_my_x_is_y_reads_a_value_that_names_or_counts(sentence: str, value: str) -> None:
    assert read(sentence).value == value


def test_what_the_assistant_says_is_no_fact_of_the_users() -> None:
    assert extract_sentence("We decided to use PostgreSQL for the database.", "assistant") is None
    assert extract_sentence("We decided to use PostgreSQL for the database.", "user") is not None


def test_a_sentence_no_frame_reads_is_no_fact_of_the_frames() -> None:
    assert extract_sentence("the office wifi password rotates every 90 days", "user", use_model=False) is None


# ---- the fact's text and subject ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "user: Decided: HS256 for JWT signing.",
        "ok so Decided: HS256 for JWT signing.",
        "side note: Decided: HS256 for JWT signing.",
        "unrelated, but Decided: HS256 for JWT signing.",
    ],
)
def test_a_fact_is_the_statement_without_speaker_label_or_chatter(said: str) -> None:
    found = read(said)
    assert found.fact == "Decided: HS256 for JWT signing."
    assert found.subject == "jwt_signing"  # what it is about, not a word of the value


def test_subject_keys_are_short_snake_case_content_words() -> None:
    assert subject_key("the Staging host's URL") == "staging_host_url"
    assert subject_key("the database") == "database"  # all generic: they are what it names
    assert subject_key("Café Núñez") == "cafe_nunez"


# ---- a day's candidates ------------------------------------------------------------------------------


def _unit(*texts: tuple[str, str]) -> Unit:
    day = datetime(2026, 3, 2, 9)
    chunks = tuple(Chunk(f"c{n}", day, speaker, text) for n, (speaker, text) in enumerate(texts))
    return Unit(day_period(day.date()), 400, chunks=chunks)


def test_extract_facts_dates_cites_fills_value_and_replaces_and_merges_repeats() -> None:
    unit = _unit(
        ("user", "The staging host is now fly.io (was Heroku). Now let me check the logs."),
        ("assistant", "Noted: the staging host is now fly.io (was Heroku)."),
        ("user", "The staging host is now fly.io (was Heroku)."),
    )
    (candidate,) = extract_facts(unit, Config())
    assert candidate.valid_from == "2026-03-02" and candidate.sources == ("c0", "c2")
    assert candidate.value == "fly.io" and candidate.replaces == ("staging_host", "Heroku")
    assert extract_facts(unit, Config()) == (candidate,)  # the same every time


# ---- pasted code, logs, configuration: no facts --------------------------------------------------------

PASTED = Path(__file__).resolve().parents[1] / "bench" / "data" / "pasted.jsonl"


def test_nothing_pasted_in_the_evaluation_set_becomes_a_statement() -> None:
    items = [json.loads(line) for line in PASTED.read_text(encoding="utf-8").splitlines()]
    assert len(items) >= 100
    taken = {item["id"]: statements_of(item["text"], item["speaker"]) for item in items}
    assert {k: v for k, v in taken.items() if v} == {}


@pytest.mark.parametrize(
    "paste",
    [
        "VERSION = 2.0",  # key = value
        "# --- WORK ---\nHost github.com-work\n  HostName github.com\n  IdentityFile ~/.ssh/id_work",  # comment
        "retries: 5\nbackoff: exponential\nregion: eu-west",  # yaml keys
        'print(f"Total: {total}")',  # a call, symbols
        "$ python --version\nPython 3.11.6",  # a shell prompt
        'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\nValueError: bad',  # a stack trace
        '{"plan": "pro", "seats": 12}',  # JSON
        "2024-05-11T08:01:22Z ERROR worker-3 we use the fallback queue now",  # a log line
        "NAME      READY   STATUS\napi-1     1/1     Running",  # columns
        "Seq Scan on bookings  (cost=0.00..431.00 rows=2794 width=16)\nPlanning Time: 0.1 ms",  # key=value pairs
    ],
)
def test_each_shape_of_paste_states_nothing(paste: str) -> None:
    assert is_pasted(paste)
    assert statements_of(paste, "user") == []


def test_prose_around_a_paste_still_states_its_fact() -> None:
    text = (
        "We decided to use Postgres for the catalog.\n\n```sql\nCREATE TABLE catalog (id serial);\n```\n\nVERSION = 2.0"
    )
    assert said_text(text) == "We decided to use Postgres for the catalog."
    (found,) = statements_of(text, "user")
    assert found.value == "Postgres" and found.subject == "catalog"


@pytest.mark.parametrize(
    "note",
    [
        "indentation: 2 spaces",
        "ci -> buildkite",
        "ledgerd = the service that reconciles payments every night",
        "We set x=1 for the tests.",  # one key=value in a sentence
        'an alert for "status": 500 and router errors. I\'m the only one on call anyway.',  # quotes a bit of JSON
        "notes, rough:\n- school: name, where, timezone?? (one in NL later)\n- boats: Laser, Pirat\n- stripe",
    ],
)
def test_a_note_written_like_config_is_still_said(note: str) -> None:
    assert said_text(note) == note  # one yaml-looking line, an arrow, a definition in words: prose


def test_the_llm_path_drops_a_pasted_fact() -> None:
    from compaction_tree.llm_answer import draft_from_answer

    unit = Unit(day_period(datetime(2025, 3, 3).date()), 500)
    item = types.SimpleNamespace(id="1", chunks=("c1",))
    answer = {
        "facts": [
            {"category": "domain_fact", "subject": "version", "fact": "VERSION = 2.0", "confidence": 0.9},
            {"category": "decision", "subject": "db", "fact": "We use Postgres.", "confidence": 0.9},
        ]
    }
    for f in answer["facts"]:
        f.update(valid_from="2025-03-03", sources=["1"])
    draft = draft_from_answer(answer, [item], unit, 0.6)  # type: ignore[list-item]
    assert [f.subject for f in draft.facts] == ["db"]
