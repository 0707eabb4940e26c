"""Fact labels for the statement banks of the benchmark's question specs.

Written by a helper session (an AI assistant) for the durable-facts evaluation. Every label was judged from
the templates in bench/corpus.py alone (SINGLE_SPECS, PARAPHRASE_SPECS, TEMPORAL_SPECS, MULTI_SPECS,
LIST_SPECS), without reading the extractor (compaction_tree/) and without running eval_facts.py or any
extractor, so the labels do not depend on what the extractor does. EVENT_SPECS in corpus.py is an earlier,
coarser judgement; these labels disagree with it in places (see the comments).

The corpus plants these chunks so questions can be asked about them; they are not PlantedFacts. Many still
state a true standing fact, others tell of an event. LABELS says, per spec key and statement bank ("state",
"decoy", "hop0", "hop1", "hop2"; no question spec has a "lead" or "again" bank), what storing a fact from
such a chunk means:

  standing (a tuple of slot names): every template of the bank states something a careful personal/team
      memory should keep as a current standing fact, true beyond the day it was said (who owns/leads/manages
      something, a person's allergy/diet/birthday/relation/pet/job, a system's configuration, where something
      lives, a recurring schedule, a known cause of a recurring problem, a preference, a recommendation
      someone stands by). The tuple names the template slots ("{p}", "{allergen}") whose filled values a
      correct stored fact must contain; every listed slot occurs in every template of the bank.
  "transient": every template tells of a one-off event, a booking or trip detail, a deadline, a status of
      the moment, something that happened today, a near plan or an incident: storing it as a standing fact
      is wrong.
  "unclear": the templates disagree, or a reasonable careful person could go either way. Used for settled
      details of an upcoming one-off event (a hotel for a trip, a wedding, a talk, an offsite, a launch
      date), which a memory would hold until the event but which are not standing facts either.

A key "bank.index" (e.g. "state.0") labels one template and overrides the bank's label for it (the index is
the template's position in the bank; dev uses the even ones, test the odd ones).
"""

LABELS: dict[str, dict[str, tuple[str, ...] | str]] = {
    # ------------------------------------------------------------ SINGLE_SPECS
    "pet": {"state": ("p", "name")},  # "just adopted a dog named X": told as news, but the pet's name stands
    "hotel": {"state": "unclear"},  # where we stay on an upcoming trip: held until the trip, then stale
    "flight": {"state": "transient"},  # flight number and departure time of one trip
    # which ticket tracks an open bug: work-tracking state that lasts until the ticket closes, told as the
    # event of filing it; neither a fact about the system nor a mere one-off
    "ticket": {"state": "unclear"},
    "port": {"state": ("svc", "port")},
    "book": {"state": ("p", "book")},  # recommended / swears by / won't stop talking about: a standing opinion
    # a birthday present bought once; template 0 also says who {p} is to the user ("my sister {p}"), a
    # standing relation, so a fact from it may be right or wrong
    "gift": {"state": "transient", "state.0": "unclear"},
    "teacher": {"state": ("kid", "teacher")},
    "race_time": {"state": "transient"},  # one race's result ("new PB" in one template is still that result)
    "watering": {"state": ("plant", "every")},  # recurring schedule
    "flag": {"state": ("feat", "flag")},  # configuration
    # told after a visit ("dinner at X last night"), but every template rates the place or recommends a
    # dish there: the user's standing opinion of the restaurant
    "restaurant": {"state": ("city", "rest")},
    # the room booked for the next quarterly review ("this time", "moved to"); template 0 ("the {client} QBR
    # is in {room}") could also be read as the recurring meeting's usual room
    "room": {"state": "transient", "state.0": "unclear"},
    "best_friend": {"state": ("kid", "friend")},
    "talk": {"state": "unclear"},  # topic of one upcoming conference talk
    "wedding": {"state": "unclear"},  # place and month of someone's upcoming wedding (a save-the-date)
    # ------------------------------------------------------------ PARAPHRASE_SPECS
    "car": {
        "state": ("p", "car"),
        "decoy": "transient",
        "decoy.0": "unclear",  # {p} reviews fleet purchase requests "this quarter": a duty, but time-boxed
        "decoy.3": "unclear",  # {p}'s passing verdict on the office coffee machine
    },
    "sabbatical": {
        "state": ("p", "city"),  # {p} away in {city} for months: a standing state of a colleague, not a trip
        "decoy": "transient",
        "decoy.2": ("p",),  # {p} heads the working group on career development
    },
    "cut_back": {
        "state": ("p", "food"),  # doctor's orders: a standing diet constraint
        "decoy": "transient",
        "decoy.0": "unclear",  # {p} wants fewer recurring meetings: a wish, maybe a standing preference
        "decoy.1": ("p",),  # {p} recommends PRs of at most 400 lines: a stance
        "decoy.3": "unclear",  # "we use far less bandwidth since the CDN change": an observation of the moment
    },
    "allergy": {
        "state": ("p", "allergen"),
        "decoy": "transient",
        "decoy.1": ("p",),  # "{p} is intolerant of long meetings, as we all know": a standing trait
    },
    "laid_off": {
        "state": ("p", "client"),  # told as this week's news, but {p} no longer works at {client}
        "decoy": "transient",
        "decoy.1": "unclear",  # "{p} let go of the old dashboard project": an ownership change, or a one-off
    },
    "slow": {
        "state": ("svc", "cause"),  # known cause of a recurring problem ("slow again. root cause: ...")
        # alert thresholds, a dashboard panel, where the latency budget is written down, a heavy dependency
        # tree: minor but standing facts about {svc}
        "decoy": ("svc",),
    },
    "contractor": {
        "state": ("p", "proj"),  # who works on what
        "decoy": "transient",
        "decoy.3": ("proj",),  # "refreshing the {proj} staging data takes an hour": standing know-how
    },
    "recommend": {
        "state": ("p", "rest"),  # a recommendation {p} stands by
        "decoy": "transient",
        "decoy.3": ("p",),  # "{p} rates the new canteen highly, I don't": standing preferences
    },
    "repair": {
        "state": "transient",  # when the repair visit is
        "decoy": "transient",
        "decoy.0": "unclear",  # "the {syn} in the office kitchen is always full": habitual, but trivia
    },
    "lessons": {
        "state": ("kid", "teacher"),
        "decoy": "transient",  # 2: a project due Monday; 3: news that a school tutor retired
        "decoy.0": ("kid",),  # {kid} wants music on in the car: a preference
        "decoy.1": ("kid",),  # {kid}'s football coach is strict: {kid} plays football, a standing fact
    },
    "honeymoon": {
        "state": "unclear",  # destination of someone's upcoming two-week trip
        "decoy": "transient",
    },
    "bill": {
        # what drives {svc}'s cost up (a forgotten cluster, 100% trace sampling): a standing cause until
        # fixed, like "slow"; one template is about "this month" but names the same kind of driver
        "state": ("svc", "driver"),
        "decoy": "transient",
        "decoy.1": "unclear",  # {svc} needs a higher partner rate limit: a standing need or a passing ask
        "decoy.3": "unclear",  # "{svc} is driving the growth dashboard now": feeds it (config) or leads it?
    },
    "new_job": {
        "state": ("p", "client"),  # {p}'s (next) employer
        "decoy": "transient",
        "decoy.1": "unclear",  # {p} is moving house: where they live changes, but no place is given
    },
    # ------------------------------------------------------------ TEMPORAL_SPECS
    "rollback": {"state": "transient"},
    # a contract signed today: an event, though it leaves {client} under contract; the templates say no
    # more than that it happened
    "signed": {"state": "unclear"},
    "start": {"state": ("p", "role")},  # "started today as our new {role}": {p}'s role stands
    "outage": {"state": "transient"},
    # a release announcement; "{ver} is the latest {proj}" is superseded by the next one, and nothing says
    # which version is deployed or in use
    "release": {"state": "transient"},
    "race_day": {"state": "transient"},
    "appointment": {"state": "transient"},
    "kid_event": {"state": "transient"},
    "booked_flights": {"state": "transient"},
    "submitted": {"state": "transient"},
    # "{p}'s last day was today": told as an event (EVENT_SPECS), but it leaves a standing fact a team
    # memory must hold: {p} has left the company. Only {p} carries it.
    "last_day": {"state": ("p",)},
    "postmortem": {"state": "transient"},
    # ------------------------------------------------------------ MULTI_SPECS
    "codename_launch": {
        "hop0": ("p", "code"),  # who runs the initiative
        "hop1": "unclear",  # the locked launch date: a project decision, but a date of one upcoming event
    },
    "lead_blocker": {
        "hop0": ("p", "svc"),  # who leads the rewrite
        "hop1": "transient",  # what it is blocked on right now
    },
    "trip_restaurant": {
        "hop0": "transient",  # {p}'s work trip next week / soon
        "hop1": ("city", "rest"),  # the user's standing recommendation
    },
    "ticket_fix": {
        "hop0": "unclear",  # as "ticket": which ticket tracks a bug
        "hop1": "transient",  # the bug was closed with this fix: a one-off incident, not a recurring cause
    },
    "team_offsite": {
        "hop0": ("p", "team"),  # team membership
        "hop1": "unclear",  # where this year's offsite is: a detail of one upcoming event
    },
    "bday_wish": {
        "hop0": ("p", "bday"),
        "hop1": ("p", "gift"),  # {p} keeps saying they'd love {gift}: a standing wish, kept as a gift idea
    },
    "plan_feature": {
        "hop0": ("p", "client"),  # account manager
        "hop1": ("client", "plan"),  # the customer's current plan ("upgraded to" leaves it on that plan)
        "hop2": ("plan", "feature"),  # what the plan includes
    },
    # ------------------------------------------------------------ LIST_SPECS
    # trying a tool "today" with a first impression ("docs are great", "too heavy for us"); no decision is
    # taken, and the corpus counts even a considered-and-rejected option as a distractor, not a fact
    "evaluated": {"hop0": "transient"},
}


def label_of(template: str) -> tuple[str, ...] | str | None:
    """The label of one planted chunk by its template key ("spec.bank.index", corpus meta["templates"]); None for a
    chunk of no question spec (a planted fact, a distractor)."""
    spec, bank, index = template.rsplit(".", 2)
    by_bank = LABELS.get(spec)
    if by_bank is None:
        return None
    return by_bank.get(f"{bank}.{index}", by_bank.get(bank, "unclear"))
