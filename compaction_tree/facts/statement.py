"""The names and values a fact statement holds, for the LLM prompt's check of specifics (llm.py): the known
sides of things (KNOWN_ASPECTS), whether a word can tell one thing from another (is_specific), and the
entities and name words of a text (names_of). Pure.
"""

from __future__ import annotations

import re

from ..text import STOPWORDS, WORD, fold, word_form
from ..topics import is_generic


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


# number and calendar words are values: "two weeks" and "three weeks", "Friday" and "Monday" disagree
NUMBER_WORDS = _wordset(
    "zero one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred "
    "first second third fourth fifth once twice noon midnight"
)
CALENDAR = _wordset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august "
    "september october november december"
)
# Words that name the same side of a thing, folded to one ("billing_data" and "billing_datastore"
# are one subject); weak words say nothing about which side.
ASPECTS = {
    "datastore": "datastore database db storage store stores stored persist persists persistence",
    "host": "host hosted hosting hosts",
    "ci": "ci build builds built pipeline pipelines",
    "limit": "limit limits cap capped caps ceiling quota throttle throttled allowance rate",
    "owner": "owner owners owns ownership maintainer maintains belong belongs",
    "home": "home live lives living based relocated",
    "cutoff": "cutoff freeze",
    "version": "version versions upgrade upgraded",
    "answers": "answer answers explanation explanations response responses reply replies format",
    "sprint": "sprint sprints iteration iterations",
    "schedule": "schedule lesson lessons class classes",
    "diet": "diet food eat",
    "role": "role title position job",
    "contact": "contact poc liaison",
    "goal": "goal goals target aim resolution",
    "standup": "standup standups stand-up sync",
    "timeout": "timeout timeouts",
    "url": "url urls",
    "port": "port ports",
    "queue": "queue queues broker",
    "billing": "billing invoice invoiced invoices billed",
    "sla": "sla uptime availability",
    "rotation": "rotation",
    "allergy": "allergy allergies allergic",
    "birthday": "birthday birthdays",
    "retention": "retention retained",
    "failure": "failure failures",  # the failure cues' side: "e2e_failure" and "e2e_suite_failure" are one side
}
# acronyms that name a side of things, not a thing: never what tells two subjects apart
GENERIC_ACRONYMS = frozenset(
    _wordset(
        "sla slo api ci cd pr db sdk cli ui ux qa sre sso mfa dns cdn vpn url ttl rps qps eta etl os p50 p90 p95 p99"
    )
)
ASPECT_OF = {word: aspect for aspect, words in ASPECTS.items() for word in words.split()}


def is_specific(word: str) -> bool:
    """A word that can tell one thing from another: not generic English, not an acronym of a side ("api")."""
    return not is_generic(word) and word not in GENERIC_ACRONYMS


KNOWN_ASPECTS = frozenset(ASPECTS)
# "latency" too: the metric a target in ms or a percentile sets ("search_latency_goal" is "p95_goal_search")
WEAK_ASPECTS = frozenset(
    {"time", "day", "rule", "new", "setting", "current", "main", "deploy", "deploys", "now", "latency"}
)


_UNIT = r"(?:\s?(?:am|pm)\b|\s?(?:kb|mb|gb|tb)\b)?"  # "2 pm" and "512MB" are values whole: "512MB" is not "512GB"
_VALUE = re.compile(r"\$?\d[\d,.:]*\d%?" + _UNIT + r"|\$?\d%?" + _UNIT, re.IGNORECASE)
_POSSESSIVE = re.compile(r"['’]s$")
_JOINER = re.compile(r"[.'’_-]")
_TECHNICAL = re.compile(r"\w[._-]\w")
_CLAUSE_END = re.compile(r"[.:;!?]")


def _values(text: str) -> set[str]:
    return {v.lower().replace(" ", "").rstrip(".,") for v in _VALUE.findall(text)}


def _is_value(token: str) -> bool:
    return token[:1].isdigit() or token[:1] == "$"


def _counted(token: str) -> bool:
    """ "two-week", "three-day": a number word joined to a unit."""
    return fold(_JOINER.split(token)[0]) in NUMBER_WORDS


def _name_start(token: str) -> bool:
    """A sentence's capitalized first word names something unless it looks ordinary ("Bumped", "Dropping") or
    names a side of things ("Retention got extended to 180 days", "Rule for Tern: ...")."""
    form = word_form(token)
    return (
        not is_generic(form)
        and not form.endswith(("ed", "ing", "ly"))
        and form not in ASPECT_OF
        and form not in WEAK_ASPECTS  # "Rule for Tern: ..."
    )


def names_of(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(entities, name words) of a text.

    Entities: runs of capitalized words, technical tokens (fly.io, event-bus) and values, each one
    lowercase string. Name words: each capitalized word that is not generic English, acronym or
    technical token, calendar words left out.
    """
    found = _values(text)
    names: set[str] = set()
    run: list[str] = []
    start = 0  # where the sentence or clause starts: its first word is capitalized anyway
    for match in WORD.finditer(text):
        token = match.group()
        first = not text[start : match.start()].strip()
        bare = _POSSESSIVE.sub("", token)
        # "fly.io", "event-bus" name things; "two-week" is a value
        technical = bool(_TECHNICAL.search(bare)) and not _is_value(bare) and not _counted(bare)
        acronym = len(bare) >= 2 and bare.isupper() and bare.isalpha()
        capitalized = bare[:1].isupper() and fold(bare) not in STOPWORDS and (not first or _name_start(bare))
        form = bare.lower() if technical else word_form(bare)
        if technical:
            found.add(form)
        if (technical or acronym or (capitalized and not is_generic(form))) and form not in CALENDAR:
            names.add(form)
        if capitalized or acronym:
            run.append(form)
        if run and (not (capitalized or acronym) or bare != token):  # a possessive ends a name
            found.add(" ".join(run))
            run = []
        if _CLAUSE_END.match(text, match.end()):
            if run:
                found.add(" ".join(run))
                run = []
            start = match.end() + 1
    if run:
        found.add(" ".join(run))
    return frozenset(found), frozenset(names)
