"""Frames: a durable statement found by what it is about, whatever the word order. Pure.

A frame is one side of a thing that facts are about (where a project is hosted, a client's rate
limit, a person's role, the speaker's diet): words that say which side it is (its trigger), what a
value of that side looks like, and whose it is (a named thing, a person, or the speaker). A clause
that holds a trigger and a value of the right kind states that side's value for the thing it names:
"Corvid lives on Fly.io", "hosting-wise, Bramble sits on DigitalOcean" and "Postgres is where the
ledger keeps its data" are one frame each. The vocabulary is English words for sides of things and
for kinds of value (clock times, weekdays, rates, money, percentages, versions, capitalized names),
never the values a particular conversation uses.

The cue tables (cues.py) go first, being surer of what they match; frames find the wordings the
cues were not written for, and give a change ("Corvid moved to Render") the key of the side it changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text import WORD, fold, word_form
from ..topics import is_generic

_I = re.IGNORECASE
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
_TIME = r"(?:\d{1,2}:\d\d(?:\s*[ap]m)?|\d{1,2}\s*[ap]m|noon|midnight)\b"
_NUMBER = r"(?:\d[\d,.]*k?|one|two|three|four|five|six|ten|twenty|thirty|fifty|a hundred|hundred)"
# a run of capitalized words or a technical token: what names a product, a place or a person
_CALENDAR_WORDS = "monday tuesday wednesday thursday friday saturday sunday " + _MONTH[3:-1].replace("|", " ")
_NOT_NAMED = "|".join(f"[{w[0].upper()}{w[0]}]{w[1:]}s?" for w in _CALENDAR_WORDS.split())
_NAMED = (
    r"(?-i:(?!(?:" + _NOT_NAMED + r")\b)(?![A-Z]+-\d)"
    r"(?:[A-Z][\w.+'’&-]*|[a-z][a-z0-9]*(?:[.][a-z0-9]+)+)(?:\s+(?:&\s+)?[A-Z][\w.+'’&-]*){0,2})"
)
_PERSON = r"(?-i:[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)?)"

VALUES = {
    "named": _NAMED,
    "time": _TIME,
    "weekday": _WEEKDAY + r"(?:\s+(?:mornings?|afternoons?|evenings?|nights?))?",
    "rate": _NUMBER
    + r"\s*(?:requests?|calls?|req|rps|messages?|jobs?)\s*(?:(?:per|a|an|/|every)\s*)(?:second|sec|minute|"
    r"min|hour|day)\b",
    "money": r"(?:[$€£]\s?\d[\d,.]*k?|\d[\d,.]*k?\s*(?:dollars|euros|eur|usd|pounds|gbp)\b)",
    "percent": r"\d{2}(?:\.\d+)?\s*%",
    "duration": r"\d+(?:\.\d+)?\s*(?:seconds?|secs?|s|ms|minutes?|mins?|hours?|hrs?)\b",
    "weeks": r"(?:" + _NUMBER + r")[- ]weeks?\b",
    "version": r"(?<![\d.])v?\d+\.\d+(?:\.\d+)?(?![\d.]*\d)",
    "cadence": r"\b(?:monthly|quarterly|annually|yearly|weekly|every (?:month|quarter|year|week))\b",
    "date": r"\b(?:" + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r")\b",
    "person": _PERSON,
    "phrase": r".+",
}


@dataclass(frozen=True)
class Frame:
    aspect: str  # the key's last word: which side of the thing
    category: str
    trigger: re.Pattern[str]
    value: re.Pattern[str]
    owner: str = "thing"  # whose side: "thing" (a named thing or noun phrase), "person", "self" (the speaker's own)
    who: str = "user"  # "any": the assistant may state it too (it reads settings and causes)
    before: bool = False  # the value may come before the trigger ("Postgres is where the ledger keeps its data")


def _frame(
    aspect: str, category: str, trigger: str, value: str, owner: str = "thing", who: str = "user", before: bool = False
) -> Frame:
    return Frame(
        aspect, category, re.compile(trigger, _I), re.compile(VALUES.get(value, value), _I), owner, who, before
    )


# Tried in this order: the first frame whose trigger and value are both in the clause decides.
FRAMES: tuple[Frame, ...] = (
    _frame("sla", "domain_fact", r"\b(?:uptime|availability|sla)\b", "percent"),
    _frame(
        "limit",
        "constraint",
        r"\b(?:limit\w*|cap\w*|quota|gets?|allowed|allowance|throttl\w*|max\w*|at most|up to|no more|raised|bumped|"
        r"can (?:do|make|send|use)|"
        r"lowered|increased|reduced|cut)\b",
        "rate",
    ),
    _frame("budget", "constraint", r"\b(?:budget|spend\w*|capped|cap|max\w*|at most|more than|limit|up to)\b", "money"),
    _frame("timeout", "domain_fact", r"\b(?:time[sd]? out|timeout|gives up|give up)\b", "duration", who="any"),
    _frame("billing", "domain_fact", r"\b(?:pays?|paid|bill\w*|invoic\w*|renews?|charged?)\b", "cadence"),
    _frame("sprint", "decision", r"\b(?:sprints?|iterations?)\b", "weeks"),
    _frame("standup", "domain_fact", r"\b(?:stand-?ups?|stands up|daily sync|sync)\b", "time"),
    # the trigger is one word, so that a time between "deploys" and "Fridays" is not inside it
    _frame("cutoff", "constraint", r"\bdeploy\w*\b(?=.*\bfridays?\b)|\bfridays?\b(?=.*\bdeploy)", "time"),
    _frame(
        "window",
        "constraint",
        r"\bmigrations?\b",
        r"(?:(?:only\s+)?(?:on|during|after|before|between|outside)\s+)"
        r"(?:" + _WEEKDAY + r"(?:\s+(?:mornings?|afternoons?|evenings?|nights?))?|weekends?|" + _TIME + r"|the\s+[\w-]+"
        r"\s+window)(?:\s+and\s+" + _TIME + r")?",
    ),
    _frame(
        "meeting",
        "constraint",
        r"\b(?:meetings?|calls?)\b.*\b(?:no|never|don'?t|free|focus|blocked|clear)\b"
        r"|\b(?:no|never|don'?t|free|focus|blocked|clear)\b.*\b(?:meetings?|calls?)\b",
        "weekday",
        owner="self",
    ),
    _frame(
        "diet",
        "preference",
        r"^",
        r"\b(?:vegetarian|vegan|pescatarian|flexitarian|keto|paleo|gluten[- ]free|dairy[- ]free|halal|kosher)\b",
        owner="self",
    ),
    _frame(
        "answers",
        "preference",
        r"\b(?:answers?|explanations?|responses?|replies|when you (?:answer|reply|explain))\b",
        r"\b(?:bullet points?|paragraphs?|prose|code first|tl;?dr|(?:short|long|detailed|brief|concise)(?: answers?| "
        r"version)?|examples?(?: in \w+)?|one sentence|a few sentences|step by step)\b",
        owner="self",
    ),
    _frame("indentation", "preference", r"\bindent\w*", r"\b(?:\d+|two|four|eight)\s+spaces\b|\btabs?\b", owner="self"),
    _frame(
        "seat",
        "preference",
        r"\b(?:seats?|fly|flying|flights?|planes?|trains?)\b",
        r"\b(?:aisle|window|middle|exit row)(?:\s+seats?)?",
        owner="self",
    ),
    _frame(
        "alerts",
        "preference",
        r"\b(?:alerts?|notifications?|pages|paging)\b",
        r"\b(?:slack|e-?mail|sms|texts?|text messages?|phone calls?|calls|pagerduty|opsgenie|teams|discord|"
        r"push notifications?)\b",
    ),
    _frame("owner", "entity", r"\b(?:is|are)\b", _PERSON + r"['’]s(?:\s+now)?\.?$"),
    _frame(
        "versioning",
        "decision",
        r"\bversion(?:ing|ed|s)?\b",
        r"(?<=\bin )(?:the\s+)?(?:url(?: path)?|path|header|accept header|query(?: string)?)\b"
        r"|(?<=\bwith )(?:dates?|semver|numbers?)\b|\b(?:date|url|header|semver)[- ]based\b",
    ),
    _frame(
        "schedule",
        "entity",
        r"\b(?:lessons?|class(?:es)?|swim\w*|ballet|practice|training|football|soccer|piano|"
        r"tennis|judo|karate|dance|dancing|tutoring|therapy|riding)\b",
        "weekday",
        owner="person",
    ),
    _frame("birthday", "entity", r"\b(?:birthday|born|turns \d+)\b", "date", owner="person"),
    _frame("version", "domain_fact", r"\b(?:on|pinned|runs?|running|using|uses|version|at)\b", "version"),
    _frame(
        "ci",
        "decision",
        r"\bci\b|\b(?:builds?|pipelines?)\s+(?:run\s+|go\s+|happen\s+)?(?:on|in|with|through|via|"
        r"using)\b|\bbuilds? on\b",
        "named",
    ),
    _frame("queue", "decision", r"\b(?:job queue|queue|background jobs|jobs|workers|tasks)\b", "named"),
    _frame(
        "datastore",
        "decision",
        r"\b(?:database|db|datastore|persists?|persisted|stores?|stored|storage)\b"
        r"|\b(?:its|their|all|the|our)\s+data\b(?!\s+(?:team|engineer|scientist|analyst|platform))",
        "named",
        before=True,
    ),
    _frame(
        "host",
        "decision",
        r"\b(?:host\w*|lives on|live on|sits on|runs on|run on|deployed (?:on|to)|deploys? to|"
        r"goes on|go on|put\w*\s+[\w.-]+(?:\s+[\w.-]+)?\s+on)\b",
        "named",
    ),
    _frame(
        "holiday",
        "decision",
        r"\b(?:christmas|easter|new year'?s?|thanksgiving|hanukkah|diwali|eid|holidays?|"
        r"summer break|winter break|vacation)\b",
        r"(?<=\bin )" + _NAMED,
    ),
    _frame(
        "home",
        "entity",
        r"\b(?:lives?|living|(?<!-)based|is in|['’]s in|stays? in|resides)\b",
        r"(?<=\bin )" + _NAMED,
        owner="person",
    ),
)


@dataclass(frozen=True)
class FrameMatch:
    frame: Frame
    thing: str  # what the fact is about ("" for the speaker's own side)
    value: str
    trigger_at: int = 0  # where the trigger starts


_SELF = re.compile(r"\b(?:i|i'm|i've|my|me|mine|here|please)\b|^(?:give|send|show|keep|use|write|answer)\b", _I)
_NOT_A_THING = frozenset(
    "i i'm i've i'd my we we're our you your the this that it it's they he she his her their a an ok so also and but "
    "btw fyi reminder note heads up please".split()
)
# verbs and relatives that link a thing to its value: never part of the thing's name
_LINKS = frozenset(
    "is are was were be been has have had keeps keep stores store uses use runs run lives live sits sit goes go "
    "gets get happens happen starts start where which who whose for of on in at with to".split()
)
_CALENDAR = re.compile(r"^(?:" + _WEEKDAY + "|" + _MONTH + r"|today|tomorrow|tonight)$", _I)


def _named_things(text: str, skip: tuple[int, int]) -> list[str]:
    """Capitalized runs and technical tokens outside the value, sentence-initial ordinary words left out."""
    found = []
    for match in re.finditer(_NAMED, text):
        start, end = match.span()
        if start < skip[1] and end > skip[0]:
            continue
        words = [w for w in match.group().split() if fold(w) not in _NOT_A_THING and not _CALENDAR.match(w)]
        if start == 0 and words and is_generic(word_form(words[0])) and len(words) == 1:
            continue  # "Fridays, ...", "Hosting-wise": a capital because it starts the sentence
        if words:
            found.append(" ".join(words))
    return found


def _phrase_before(text: str, position: int, skip: tuple[int, int]) -> str:
    """The words just before a trigger, the value's left out ("the quotes service persists ..." -> "quotes service")."""
    head = text[:position]
    if skip[0] < position:
        head = head[: skip[0]] + " " + head[skip[1] :]
    words = [w for w in WORD.findall(head) if fold(w) not in _NOT_A_THING and fold(w) not in _LINKS]
    return " ".join(words[-3:])


def _phrase_after(text: str, start: int, end: int) -> str:
    words = [w for w in WORD.findall(text[start:end]) if fold(w) not in _NOT_A_THING and fold(w) not in _LINKS]
    return " ".join(words[:3])


def _specific(phrase: str) -> bool:
    return any(not is_generic(word_form(w)) for w in WORD.findall(phrase))


NEAR = 8  # words between a trigger and its value, at most: further apart, they are not one statement


def _value(frame: Frame, text: str, trigger: re.Match[str]) -> re.Match[str] | None:
    """The value nearest after the trigger, else the nearest before it ("Postgres is where X keeps its data")."""
    found = [
        m
        for m in frame.value.finditer(text)
        if not _overlaps(m.span(), trigger.span()) and not re.search(r"\bnot\s+(?:the\s+)?$", text[: m.start()], _I)
    ]
    after = [m for m in found if m.start() >= trigger.end() and _words(text[trigger.end() : m.start()]) <= NEAR]
    if after:
        return after[0]
    before = [m for m in found if m.end() <= trigger.start() and _words(text[m.end() : trigger.start()]) <= NEAR]
    return before[-1] if before and (frame.before or frame.value.pattern != _NAMED) else None


def _gap(text: str, trigger: re.Match[str], value: re.Match[str]) -> int:
    if value.start() >= trigger.end():
        return _words(text[trigger.end() : value.start()])
    return _words(text[value.end() : trigger.start()])


def _words(text: str) -> int:
    return len(WORD.findall(text))


def frame_of(text: str, assistant: bool = False, avoid: tuple[str, ...] = ()) -> FrameMatch | None:
    """The first frame whose trigger and value a clause holds, with the thing it is about.

    avoid: texts that are values, not things (the old and new values of a change).
    """
    avoided = {fold(w) for a in avoid for w in WORD.findall(a)}
    for frame in FRAMES:
        if assistant and frame.who != "any":
            continue
        # the trigger nearest its value ("hosting-wise, Bramble sits on DigitalOcean": "sits on", not "hosting")
        pairs = [(t, v) for t in frame.trigger.finditer(text) if (v := _value(frame, text, t)) is not None]
        if not pairs:
            continue
        trigger, value = min(pairs, key=lambda p: (_gap(text, p[0], p[1]), -p[0].start()))
        if frame.owner == "self":
            unnamed = not re.search(r"(?-i:\b(?!I\b)[A-Z])", text[1:])  # "strictly vegetarian these days"
            if frame.aspect not in ("meeting", "indentation") and not (_SELF.search(text) or unnamed):
                continue
            return FrameMatch(frame, "", value.group().strip(), trigger.start())
        things = [t for t in _named_things(text, value.span()) if not _bare_words(t) <= avoided]
        if frame.owner == "person":
            people = [t for t in things if re.fullmatch(_PERSON, t)]
            if not people:
                continue
            return FrameMatch(frame, people[0], value.group().strip(), trigger.start())
        thing = things[0] if things else _phrase_before(text, trigger.start(), value.span())
        if not things and not _specific(thing) and value.start() > trigger.end():
            # "sprints on the mobile team are two weeks long", "our daily standup for infra happens at 10:10"
            thing = _phrase_after(text, trigger.end(), value.start()) or thing
        if not thing:
            continue
        return FrameMatch(frame, thing, value.group().strip(), trigger.start())
    return None


def _bare_words(phrase: str) -> set[str]:
    """A phrase's words folded, possessives dropped ("Hetzner's" is Hetzner)."""
    return {fold(re.sub(r"['’]s$", "", w)) for w in WORD.findall(phrase)}


def _overlaps(span: tuple[int, int], other: tuple[int, int]) -> bool:
    return span[0] < other[1] and other[0] < span[1]
