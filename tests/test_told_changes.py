"""Changes told in passing ("Quern moved to port 9443"): kept as change-only candidates, they become facts
only as the change of a subject already known (compaction_tree/facts/updates.py)."""

from __future__ import annotations

import random

import pytest

from compaction_tree import facts
from compaction_tree.facts.consolidate import Fact, consolidate
from compaction_tree.facts.statement import change_of
from compaction_tree.markdown import parse_summary, render_summary, summary_from_data, summary_to_data
from compaction_tree.summary import Draft, FactCandidate, SourceRef, SummarizerIdentity, Summary


def told(day: str, source: str, sentence: str) -> FactCandidate:
    """What extraction makes of a user's sentence, a change told in passing and a statement too unsure to be a
    fact included."""
    (got,) = facts.extract_statements(sentence, "user")
    return FactCandidate(
        got.category, got.subject, got.fact, got.confidence, day, (source,), got.change_only, got.replaced_only
    )


def candidate(fact: str, subject: str, day: str, source: str, change_only: bool = False) -> FactCandidate:
    return FactCandidate("decision", subject, fact, 0.8 if not change_only else 0.7, day, (source,), change_only)


def superseding(old: str, new: str) -> Fact:
    """The one fact the user's two sentences make, said in January and March: the new one current, the old its
    history (asserted)."""
    (fact,) = consolidate([told("2026-01-05", "a", old), told("2026-03-02", "b", new)]).facts
    assert fact.current.sources == ("b",) and [v.sources for v in fact.history] == [("a",)]
    return fact


def holding(outcome_facts: tuple[Fact, ...], source: str) -> Fact:
    (found,) = [f for f in outcome_facts if source in f.current.sources]
    return found


def leaves_alone(old: str, new: str) -> None:
    """The user's statement in January keeps no history after what extraction makes of the March one, if anything
    (asserted)."""
    later = [
        FactCandidate(g.category, g.subject, g.fact, g.confidence, "2026-03-02", ("b",), g.change_only, g.replaced_only)
        for g in facts.extract_statements(new, "user")
    ]
    assert holding(consolidate([told("2026-01-05", "a", old), *later]).facts, "a").history == ()


# ---------------------------------------------------------------- extraction


def test_a_change_told_in_passing_is_change_only_and_no_fact_by_itself() -> None:
    (got,) = facts.extract_statements("Quern moved to port 9443 so it doesn't clash with the sidecar", "user")
    assert got.change_only and got.cue == "told-change"
    assert facts.extract_sentence("Quern moved to port 9443 so it doesn't clash with the sidecar", "user") is None


@pytest.mark.parametrize(
    "sentence",
    [
        "the docs site got shipped over to Netlify",
        "Mireille rolled off billing-exporter this sprint and Tobias picked it up",
    ],
)
def test_a_change_told_by_a_phrasal_verb_is_change_only(sentence: str) -> None:
    (got,) = facts.extract_statements(sentence, "user")
    assert got.change_only


@pytest.mark.parametrize(
    "sentence",
    [
        "Viktor thinks we should rebuild search-indexer from scratch now",  # only thought
        "CPU on feed-builder is pegged at 100% since Wednesday",  # a metric's reading
        "Heroku staging is off now as planned (scaled to 0).",  # an event
        "Repeating since it didn't go through: there's a race in the usage-meter worker",  # "since" as "because"
        "the new queue is nice",  # no value
    ],
)
def test_what_tells_no_new_value_is_not_even_change_only(sentence: str) -> None:
    assert not [e for e in facts.extract_statements(sentence, "user") if not e.replaced_only]


# ---------------------------------------------------------------- anchoring


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "chose Buildkite to build Ibis, mostly for the caching",
            "no more Buildkite for Ibis, rewrote the pipeline for CircleCI",
        ),
        ("our data engineer is Sven", "our data engineer? that's Lena now, Sven left"),
        (
            "Arjun has been our support lead since last spring",
            "announcement today: Arjun becomes site reliability engineer, handing off the support lead duties",
        ),
    ],
)
def test_a_change_naming_whose_value_it_replaces_or_told_after_a_news_label_supersedes_it(old: str, new: str) -> None:
    superseding(old, new)


def test_changes_told_after_the_same_event_change_each_their_own_thing() -> None:
    said = [
        ("2026-01-05", "a", "fwiw httpx in our repo is 3.11"),
        ("2026-01-06", "b", "Kafka here is 6.23, so newer docs may not match"),
        ("2026-03-02", "c", "dependabot PR merged, Kafka is at 6.27 now (bye 6.23)"),
        ("2026-03-03", "d", "dependabot PR merged, httpx is at 3.15 now (bye 3.11)"),
    ]
    outcome = consolidate([told(day, source, sentence) for day, source, sentence in said])
    chains = sorted((f.current.sources, tuple(v.sources for v in f.history)) for f in outcome.facts)
    assert chains == [(("c",), (("b",),)), (("d",), (("a",),))]


def test_a_change_told_over_two_clauses_is_read_as_one_when_only_both_name_what_it_replaces() -> None:
    (joined,) = facts.statements_of("no more 10:00 standups for analytics! we meet at 9:30 now", "user")
    assert "10:00" in joined.fact and "9:30" in joined.fact
    superseding(
        "analytics's daily sync happens at 10:00, 15 min max",
        "no more 10:00 standups for analytics! we meet at 9:30 now",
    )
    # the value replaced is a name or a number, not words of a reaction
    from compaction_tree.facts.extract import _names_replaced

    first = "sounds like the parade was an awesome experience"
    assert not _names_replaced(first + ", it's great to see the support", first)
    # a first clause naming nothing the second replaces stays apart
    (alone,) = facts.statements_of("the new laptop is great! we meet at 9:30 now", "user")
    assert alone.fact == "user: We meet at 9:30 now."


@pytest.mark.parametrize(
    "sentence",
    [
        "we moved the retro to 3pm today",  # that day's retro
        "the meeting with Calloway Partners got moved to 4pm today",
        "I accidentally pushed to main last night, reverted it",  # one's own doings
        "Disk on worker-3 is 80% full as of this morning.",  # a reading
        "Fix for KES-6186 merged: moving the job to the high-priority queue.",  # a label that is no news
        # that day's move, said of no lasting value (from a review)
        "the team lunch got switched to the taco truck today",
        "traffic got shifted to the Frankfurt region this morning while us-east recovers",
        "the retro got moved to half past three today",
        "my seat got upgraded to business class today",
        "the build failed, so we shipped 2.3.1 instead of 2.4",  # an event, then what was done about it
        "the oven broke, so we had takeout instead of the roast",
        "no more candy for Emma, she already had three",  # a name after "for", and only a reason after
        "no more screen time for Leo, he's grounded till Sunday",
        "Kim has been our team lead, before Mark took over in May",  # a post held before, or for a while
        "Nina has been our interim manager while Paul was on leave",
        "we voted yesterday and it's pizza for the team lunch",
    ],
)
def test_a_days_move_an_event_or_a_post_held_for_a_while_is_no_change(sentence: str) -> None:
    assert not [e for e in facts.extract_statements(sentence, "user") if not e.replaced_only]


def test_a_change_of_nothing_known_is_left_out() -> None:
    outcome = consolidate(
        [
            candidate("Kestrel runs on Fly.io.", "kestrel_host", "2026-01-05", "a"),
            candidate("Halyard moved to port 9443.", "halyard_moved_port", "2026-03-02", "b", change_only=True),
        ]
    )
    assert [f.current.sources for f in outcome.facts] == [("a",)]


def test_a_change_told_before_its_subject_was_known_is_left_out() -> None:
    outcome = consolidate(
        [
            candidate("Halyard moved to port 9443.", "halyard_moved_port", "2026-01-05", "a", change_only=True),
            candidate("Halyard's internal port is 8443.", "halyard", "2026-03-02", "b"),
        ]
    )
    assert [(f.current.sources, f.history) for f in outcome.facts] == [(("b",), ())]


def test_a_change_on_another_side_of_a_known_thing_does_not_take_its_place() -> None:
    # Milo's allergy is one side of Milo, a French teacher none; who owns Quern is another side than its db
    outcome = consolidate(
        [
            candidate("Milo is allergic to cashews.", "milo_allergy", "2026-01-05", "a"),
            candidate("Milo has Ms Moreau for French now.", "milo_moreau_french", "2026-03-02", "b", True),
            candidate("Wen owns Quern.", "quern_owner", "2026-01-05", "c"),
            candidate("Quern's db moved to Postgres 16 now.", "quern_db_postgres", "2026-03-02", "d", True),
        ]
    )
    assert sorted(f.current.sources for f in outcome.facts) == [("a",), ("c",)]
    assert all(f.history == () for f in outcome.facts)


@pytest.mark.parametrize(
    "told",
    ["Priya dropped her kids off, Tom is covering now", "Priya left early, Tom is covering now"],
)
def test_an_end_word_that_is_not_said_of_the_name_ends_nothing(told: str) -> None:
    outcome = consolidate(
        [
            candidate("Kestrel is owned by Priya.", "kestrel_owner", "2026-01-05", "a"),
            candidate(told, "tom_covering", "2026-03-02", "b", True),
        ]
    )
    assert [f.current.sources for f in outcome.facts] == [("a",)] and outcome.facts[0].history == ()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("my partner is Rosalind", "Rosalind and I split up, I'm with Dana now"),
        ("our landlord is Mr. Hale", "Hale sold the building, the new landlord is Brightkey"),
    ],
)
def test_a_name_said_to_have_ended_is_changed(old: str, new: str) -> None:
    from compaction_tree.facts.updates import _ended_name

    assert _ended_name(old, new)


def test_a_change_in_passing_replacing_the_subject_of_a_statement_is_no_change_of_its_value() -> None:
    # Priya is who Kestrel belongs to, not Kestrel's value: "Priya" replaced on the rota is no change of its owner
    outcome = consolidate(
        [
            candidate("Priya owns Kestrel's deploys.", "kestrel_deploy_owner", "2026-01-05", "a"),
            candidate("the rota moved off Priya onto Tom for May", "rota_tom_may", "2026-03-02", "b", True),
        ]
    )
    assert [f.current.sources for f in outcome.facts] == [("a",)] and outcome.facts[0].history == ()


def test_a_name_said_without_an_end_is_no_change_of_what_it_holds() -> None:
    # "Priya" is the value of Kestrel's owner; her team told now is no change of who owns Kestrel
    outcome = consolidate(
        [
            candidate("Kestrel is owned by Priya.", "kestrel_owner", "2026-01-05", "a"),
            candidate("Priya is on the Falcon team now.", "priya_falcon_team", "2026-03-02", "b", True),
        ]
    )
    assert [f.current.sources for f in outcome.facts] == [("a",)] and outcome.facts[0].history == ()


def test_a_change_two_subjects_fit_equally_is_left_out() -> None:
    outcome = consolidate(
        [
            candidate("Wren is hosted on Fly.io.", "wren_host", "2026-01-05", "a"),
            candidate("Wren keeps its data in MySQL.", "wren_datastore", "2026-01-06", "b"),
            candidate("Wren's db and hosting are on Render now.", "wren_render", "2026-03-02", "c", change_only=True),
        ]
    )
    assert sorted(f.current.sources for f in outcome.facts) == [("a",), ("b",)]


def test_a_statement_keyed_by_whose_it_is_keeps_its_own_subject() -> None:
    outcome = consolidate(
        [
            told("2026-01-05", "a", "Finn's best friend is Otto"),
            told("2026-03-02", "b", "Remy's best friend is Finn now"),
        ]
    )
    assert all(f.history == () for f in outcome.facts) and len(outcome.facts) == 2


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("max upload size is 10MB", "uploads are failing for 3 customers now"),  # counts customers, not megabytes
        ("my gym membership is 35 a month", "the gym is open 24 hours now"),
        ("the kids' school starts at 8:15", "the school now has 400 students"),
        ("the redis cache ttl is 300 seconds", "redis now runs version 7"),
        ("the office wifi password is Starling42", "the office moved to Leeds now"),  # a name is no measure
        ("the all-hands is the last Friday of the month", "we hand over to the night team on Thursdays now"),
        ("the nightly data export goes to S3", "the nightly export now takes 40 minutes"),  # "nightly" names it
    ],
)
def test_a_value_of_another_measure_changes_no_thing_named_by_part_of_its_name(old: str, new: str) -> None:
    outcome = consolidate([told("2026-01-05", "a", old), told("2026-03-02", "b", new)])
    assert len(outcome.facts) == 2 and all(f.history == () for f in outcome.facts)


def test_a_cause_named_as_replaced_with_how_it_was_held_is_replaced() -> None:
    superseding(
        "Figured out the ledger-sync deploy problem: the cron lock is never released.",
        "ledger-sync deploy investigation closed: root cause is that the runner's disk fills up, not that the cron "
        "lock is never released like we thought",  # "like we thought" is no word of the replaced cause
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # no change said ("new" and "finally" tell something is new, not that a value changed): another contract,
        # not the contract's new value; a blocker of the rewrite, not its new lead
        ("Contract with Halden Logistics is signed, finally.", "Contract with Brightwater Dental is signed, finally."),
        ("Stellan took over the ledger-api rewrite.", "Blocker for the ledger-api rewrite: the new VPC peering."),
    ],
)
def test_a_statement_naming_a_known_thing_beside_another_name_without_a_change_changes_nothing(
    old: str, new: str
) -> None:
    known = candidate(old, "ledger_api_lead", "2026-01-05", "a")
    later = told("2026-03-02", "b", new)
    assert holding(consolidate([known, later]).facts, "a").history == ()


# ---------------------------------------------------------------- what a later change names as replaced


def test_a_statement_too_unsure_to_be_a_fact_is_kept_as_replaced_only() -> None:
    (got,) = facts.extract_statements("logs go to papertrail", "user")
    assert got.replaced_only and not got.change_only
    assert facts.extract_sentence("logs go to papertrail", "user") is None
    assert consolidate([told("2026-01-05", "a", "logs go to papertrail")]).facts == ()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # someone else's plan, team, site or diet (a review of this round's rules found these linked)
        ("I'm training for a first marathon", "new plan for Sam: 30 km a week instead of a first marathon"),
        ("we run Kubernetes 1.27 for batch jobs", "the ML team got off Kubernetes 1.27, 1.29 is live"),
        ("Nginx here is 1.20", "the partner's site got off Nginx 1.20, 1.23 is live"),
        ("my partner is vegetarian", "ended my vegetarian phase, eating fish now"),
        ("my sister is vegan", "ended my vegan phase, eating fish now"),
        # a change labelled with a thing the statement never names: that thing's value, not the statement's
        ("my favourite band is Radiohead", "new playlist: jazz instead of Radiohead"),
        ("I use Notion for notes", "new team wiki: Confluence instead of Notion"),
        ("I prefer dark mode for everything", "new rule for the slides: light theme instead of dark mode"),
        ("I usually order an iced latte", "new habit for my sister: a flat white instead of the iced latte"),
    ],
)
def test_a_change_of_someone_elses_value_leaves_the_statement_current(old: str, new: str) -> None:
    said = [(day, source, got) for day, source, text in (("2026-01-05", "a", old), ("2026-03-02", "b", new))
            for got in facts.extract_statements(text, "user")]  # fmt: skip
    candidates = [
        FactCandidate(g.category, g.subject, g.fact, g.confidence, day, (source,), g.change_only, g.replaced_only)
        for day, source, g in said
    ]
    assert not any(("a",) in [v.sources for v in f.history] for f in consolidate(candidates).facts)


def test_a_kept_statement_saying_the_value_of_another_thing_does_not_keep_the_unsure_one_from_history() -> None:
    outcome = consolidate(
        [
            told("2026-01-05", "a", "talk to Signe about session-broker, they own it"),
            told("2026-02-02", "b", "November 18 is Signe's birthday"),
            told("2026-03-02", "c", "Amara takes over session-broker from Signe"),
        ]
    )
    assert sorted((f.current.sources, [v.sources for v in f.history]) for f in outcome.facts) == [
        (("b",), []),
        (("c",), [("a",)]),
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Kubernetes is a pain to debug.", "We moved off Kubernetes to Nomad for the batch jobs."),
        ("Redis is the best thing we have.", "we switched the cache from Redis to Valkey"),
    ],
)
def test_an_unsure_statement_whose_subject_is_the_replaced_value_is_not_vouched_for(old: str, new: str) -> None:
    unsure = told("2026-01-05", "a", old)
    assert unsure.replaced_only
    outcome = consolidate([unsure, told("2026-03-02", "b", new)])
    assert all(f.history == () and f.current.sources != ("a",) for f in outcome.facts)


def unsure(fact: str, subject: str) -> FactCandidate:
    return FactCandidate("domain_fact", subject, fact, 0.65, "2026-01-05", ("a",), replaced_only=True)


@pytest.mark.parametrize(
    ("old", "subject", "new"),
    [
        (
            "Climbing club membership is 35 a month.",
            "climbing_club_membership",
            "climbing club went up to 42 members now",
        ),
        ("Just back from Nora's piano recital.", "nora_piano_recital", "Nora has Ms Petit for French now"),  # whose
        ("The coffee machine on floor 3 is broken.", "coffee_machine_floor", "the coffee now costs 2.50"),
    ],
)
def test_a_change_of_part_of_the_name_that_is_no_change_of_the_thing_vouches_for_nothing(
    old: str, subject: str, new: str
) -> None:
    outcome = consolidate([unsure(old, subject), told("2026-03-02", "b", new)])
    assert [(f.current.sources, f.history) for f in outcome.facts] == [(("b",), ())]


def test_a_change_before_the_statement_saying_its_value_does_not_make_it_history() -> None:
    outcome = consolidate(
        [
            told("2026-01-05", "a", "we moved logging off papertrail and onto grafana loki"),
            told("2026-03-02", "b", "logs go to papertrail"),
        ]
    )
    assert [(f.current.sources, f.history) for f in outcome.facts] == [(("a",), ())]


def test_anchoring_is_independent_of_input_order() -> None:
    statements = [
        told("2026-01-05", "a", "Quern's internal port is 8443"),
        told("2026-02-02", "b", "Quern moved to port 9443 so it doesn't clash with the sidecar"),
        told("2026-01-07", "c", "our tech lead is Renske"),
        told("2026-03-02", "d", "Ines is tech lead from this sprint on"),
        candidate("Halyard moved to port 9443.", "halyard_moved_port", "2026-03-03", "e", change_only=True),
        told("2026-01-05", "f", "logs go to papertrail"),
        told("2026-01-05", "g", "app logs are in papertrail"),
        told("2026-03-02", "h", "we moved logging off papertrail and onto grafana loki"),
    ]
    first = consolidate(statements)
    for seed in range(5):
        shuffled = statements[:]
        random.Random(seed).shuffle(shuffled)
        assert consolidate(shuffled) == first


# ---------------------------------------------------------------- the day file


def day_summary(*found: FactCandidate) -> Summary:
    return Summary(
        "daily",
        "2026-03-02",
        "2026-03-02",
        "2026-03-02",
        (SourceRef("b", "0" * 64),),
        SummarizerIdentity("extractive", None, "x"),
        "h",
        1,
        Draft(facts=found),
    )


def test_change_only_and_replaced_only_candidates_round_trip_and_others_are_written_as_before() -> None:
    plain = candidate("Quern's internal port is 8443.", "quern", "2026-03-02", "b")
    passing = candidate("Quern moved to port 9443.", "quern_moved_port", "2026-03-02", "b", change_only=True)
    unsure = told("2026-03-02", "b", "logs go to papertrail")
    assert unsure.replaced_only
    text = render_summary(day_summary(plain, passing, unsure))
    # absent where false: files written before read the same
    assert text.count("change_only: true") == 1 and text.count("replaced_only: true") == 1
    assert parse_summary(text, "daily", "2026-03-02", "d").draft.facts == (plain, passing, unsure)
    data = summary_to_data(day_summary(plain, passing, unsure))
    assert summary_from_data(data).draft.facts == (plain, passing, unsure)


# ---------------------------------------------------------------- a change told with the story of how it came about


def test_a_change_naming_a_replaced_value_the_subject_never_held_is_not_its_change() -> None:
    candidates = [
        told("2026-01-05", "a", "the docs standup is at 9:30"),
        told("2026-03-02", "c", "correction for the docs: Marlin isn't on Netlify anymore, it was moved to Vercel"),
    ]
    (fact,) = consolidate(candidates).facts  # the change names nothing it could change: left out
    assert fact.current.sources == ("a",) and fact.history == ()


# ---------------------------------------------------------------- what held before, told after what holds now


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I live in Porto", "we were in Lisbon before the conference, now back home"),  # where we were, not lived
        ("our CI is Jenkins", "Jenkins couldn't keep up with the release rush last week"),  # a bad week, no move
    ],
)
def test_what_held_for_a_while_or_struggled_once_is_no_earlier_value(old: str, new: str) -> None:
    leaves_alone(old, new)


def test_a_reading_that_jumps_is_no_change_of_what_its_thing_runs() -> None:
    leaves_alone("Kestrel runs on Python 3.11", "Kestrel's error count jumped straight to 40 after the deploy")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Dana is our office manager", "Dana got a long-service award after five years as office manager"),
        ("Mum drives a Toyota Yaris", "Mum couldn't keep up on the walk so we went to the cafe instead"),
        ("our retro is at 4pm on Fridays", "Friday's retro got moved from 4pm to 2pm, it was a short week"),  # once
    ],
)
def test_what_held_before_in_a_story_of_something_else_is_no_change(old: str, new: str) -> None:
    leaves_alone(old, new)


def test_what_someone_was_before_an_event_names_no_replaced_value_unless_something_holds_now() -> None:
    assert change_of("he was the top scorer before the injury") is None
    assert change_of("Ilse is head of platform now, she was QA lead before the reorg") is not None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My sister lives in Glasgow", "My sister went over to Edinburgh for the festival, she loved it"),  # a visit
        ("My sister lives in Glasgow", "My sister went to Edinburgh for the festival, she loved it"),
        (
            "I'm the only designer at Pebble",
            "My job got easier after three months as the only designer, the devs trust me now",
        ),
    ],
)
def test_a_visit_or_a_job_getting_easier_is_no_change(old: str, new: str) -> None:
    leaves_alone(old, new)
