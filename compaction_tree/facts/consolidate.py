"""Consolidation: fact candidates in, one current truth per subject out, with an audit trail. Pure.

0. A change told in passing ("Quern moved to port 9443") takes the key of the known subject it
   changes, or is left out; so does a statement a cue keyed by its new value ("Ines is tech lead
   from this sprint on", keyed "ines"). Such a statement then meets its subject as the same key
   (updates.py).
1. Each candidate is analysed: its terms (non-generic stems; numbers, times, money, sizes, number,
   calendar and cadence words kept whole: "monthly" and "annually" disagree), its entities (runs
   of capitalized words, technical tokens, values), its name words, and, when it states a change
   ("switched from X to Y", "no more X", "(was X)"), the words of the value it replaces and of the
   new one.
2. Two candidates are linked when they share at least two entities or their similarity is at
   least 0.75 (lexical cosine over terms by default; a similarity function from the caller, such
   as embeddings, otherwise; not when both hold values of no kind in common, as "pays quarterly"
   and "pays for Business" do), and also when their subject keys are the same set of canonical
   words and name a side of a thing ("billing_cap" and "billing_limit"; not just "ledger_api"),
   when one names the other's value as replaced (for the speaker's own statements, whatever else
   they say: "a flat white for me now, not the iced latte"), when one changes a value of the same
   kind (a version, a clock time, money...) of the same named thing, or when one states a change
   of the thing the other's key names on the same side ("growth_sprint" and "sprint"; "sorrel_host"
   and "sorrel" when both give it a named value; where a thing "moved to" is its host). Statements
   about differently named things ("Kestrel" and "Heron") are never linked, however alike their
   wording, nor are keys naming the same side of two things that share no specific word and that
   neither statement mentions ("starling_ci" and "puffin_ci", "data_standup" and
   "analytics_standup"); when neither key holds a name but both name one specific thing ("ledger_datastore",
   "ledger"), the names in their text are values (MySQL, Postgres), not other things. A change
   someone close to the speaker made ("my sister switched from Dr. Okafor to Dr. Lee") replaces no
   value of a statement that names them neither way ("my dentist is Dr. Okafor").
   Union-find groups linked candidates, strongest links first, and never lets a cluster grow
   past 20 members.
3. Each cluster is replayed in date order, then source order. A day's candidates first merge
   among themselves; then each meets the subject it is most surely about:
   - redundant (similarity >= 0.90 and the same core entities): merged; the most complete
     wording is the base, entities and sources are united, corroboration counts add, and the
     confidence rises (noisy-or, capped at 0.99);
   - a restatement that adds no new value corroborates the current one (counts and sources add);
     a change whose new value the current statement lacks is a contradiction ("new goal: a full
     marathon" after "a half marathon"), never a near-duplicate;
   - a contradiction is resolved by recency (the later day), then confidence (of the surest
     single statement on each side, so that corroboration is not counted twice), then
     corroboration (statements behind each side), then order (the later statement wins); the
     loser goes into the subject's history with the date it stopped being true and the rule. A
     subject named after the value a change replaces ("papertrail") takes the change's ("logging").
4. Every merge, corroboration, supersession and resolution is an Event whose id hashes what it
   decided (kind, subject, and the first statement of each side), so it survives unrelated
   rebuilds. An event listed in `reversed` takes the other branch: an undone merge leaves the
   candidate on a subject of its own, an undone supersession keeps the old value current, an
   undone resolution lets the newcomer win.

Every ordering is total (dates, natural source order, then text) and no set order reaches the
output, so the same candidates give the same bytes in any input order and any process. Cost:
about 0.2 s for the ~400 candidates of a year of the extractive summarizer, 1.7 s for 5,000.
The records and the file formats of the store are in records.py, the analysis of a statement in
statement.py.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .records import (
    CATEGORIES,
    Event,
    Fact,
    Version,
    parse_audit,
    parse_category,
    render_audit,
    render_category,
)

__all__ = [
    "CATEGORIES",
    "MAX_CLUSTER",
    "Event",
    "Fact",
    "Outcome",
    "Similarity",
    "Version",
    "clusters_of",
    "consolidate",
    "parse_audit",
    "parse_category",
    "render_audit",
    "render_category",
]
from ..summary import FactCandidate
from ..text import WORD, stem, word_form
from ..topics import is_generic
from .statement import (
    CHANGE_WORDS,
    KNOWN_ASPECTS,
    Analysis,
    analyse,
    is_specific,
    key_parts,
    key_stems,
    lexical_similarity,
    mentions,
    name_parts,
    names_old,
    plain_text,
    shapes_of,
    terms_of,
)
from .updates import TOLD_CHANGE, anchor, counts_alike, value_kinds_differ

LINK_SIMILARITY = 0.75
MERGE_SIMILARITY = 0.90
MAX_CLUSTER = 20
MAX_POSTING = 80  # a term shared by more candidates than this is too common to suggest a link

Similarity = Callable[[str, str], float]  # (fact text, fact text) -> 0..1


@dataclass(frozen=True)
class Outcome:
    facts: tuple[Fact, ...]  # by category, then subject
    events: tuple[Event, ...]  # by date
    clusters: int
    ordered: tuple[FactCandidate, ...]  # the candidates, in replay order
    absorbed: Mapping[int, str]  # position in `ordered` -> the subject holding it (current or history)

    def count(self, kind: str) -> int:
        return sum(1 for e in self.events if e.kind == kind and e.reversed_by is None)


# ---------------------------------------------------------------- the engine


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", text) if p)


def candidate_order(c: FactCandidate) -> tuple[Any, ...]:
    """Date, then the natural order of the first source (conv-2 before conv-10), then the rest."""
    first = natural_key(c.sources[0]) if c.sources else ()
    return (c.valid_from, first, c.subject, c.fact, c.category, -c.confidence, c.sources)


def _noisy_or(a: float, b: float) -> float:
    return round(min(0.99, 1 - (1 - a) * (1 - b)), 2)


@dataclass
class _Claim:
    """A statement during the replay: one candidate, or several merged."""

    fact: str
    category: str
    subject: str
    valid_from: str
    last_seen: str
    confidence: float  # rises with corroboration (what the store shows)
    seen: int
    sources: list[str]
    info: Analysis
    own: float  # the surest single statement's confidence: what a contradiction compares
    origin: str  # the first candidate's text and sources: the claim's identity in event ids
    members: list[int]  # positions of the candidates it holds
    told: bool = False  # a change told in passing, keyed to the subject it changes (updates.py)
    key: frozenset[str] = field(init=False)  # the subject key's canonical words
    _aspects: frozenset[str] = field(init=False)
    _subject_names: frozenset[str] = field(init=False)

    def version(self, until: str | None = None, why: str | None = None, event: str | None = None) -> Version:
        return Version(self.fact, self.valid_from, self.confidence, self.seen, tuple(self.sources), until, why, event)

    def __post_init__(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Recomputes what depends on its names (after a merge united them)."""
        self.key = key_parts(self.subject)
        self._aspects = _aspects(self.subject, self.info.names)
        self._subject_names = _subject_names(self.subject, self.info.names)

    def aspects(self) -> frozenset[str]:
        """Which side of a thing its subject key names ("datastore" in "ledger_api_datastore"), if any."""
        return self._aspects

    def subject_names(self) -> frozenset[str]:
        """Its names that are in its subject key: what it is about, by name."""
        return self._subject_names

    def key_stems(self) -> frozenset[str]:
        """Its subject key's words as the statement's words are kept (stems), to compare the two."""
        return key_stems(self.subject)

    def thing_stems(self) -> frozenset[str]:
        """The specific words of the thing its key names, its sides left out, as stems."""
        return frozenset(stem(w) for w in self.key - KNOWN_ASPECTS if is_specific(w))


@lru_cache(maxsize=65536)
def _aspects(subject: str, names: frozenset[str]) -> frozenset[str]:
    named = {part for name in names if not is_generic(name) for part in name_parts(name)}
    return frozenset(k for k in key_parts(subject) if name_parts(k).isdisjoint(named))


@lru_cache(maxsize=65536)
def _subject_names(subject: str, names: frozenset[str]) -> frozenset[str]:
    key = name_parts(subject)
    return frozenset(n for n in names if name_parts(n) <= key and is_specific(n))


_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|my|me)\b", re.IGNORECASE)
_OWN_NEW = re.compile(r"^new\s+[\w-]+\s*:", re.IGNORECASE)  # "new habit: ...": the speaker's own, the "my" left out


def _own_change(a: _Claim, b: _Claim) -> bool:
    """b is the speaker's own change of what a, also the speaker's own, says ("it's a flat white for me now, not
    the iced latte" after "usually I order an iced latte"; "new habit: oat flat white instead of cappuccino" after
    "my order is a cappuccino"): nothing else names what it is about."""
    told = plain_text(b.fact)
    return (
        bool(b.info.old)
        and b.info.old <= a.info.words
        and bool(_FIRST_PERSON.search(plain_text(a.fact)))
        and bool(_FIRST_PERSON.search(told) or _OWN_NEW.match(told))
    )


# someone close to the speaker, whose own change a statement may tell ("my sister switched dentists")
_THEIRS = re.compile(
    r"^(?:(?:ok|so|well|oh),?\s+)?(?:my|our)\s+(?P<who>mother|father|mom|mum|dad|sister|brother|wife|husband|"
    r"partner|son|daughter|kids?|children|parents|friend|flatmate|roommate|neighbou?r|colleague|boss|manager)\b"
    r"(?:\s+(?-i:(?P<name>[A-Z][\w'’-]+)))?",
    re.IGNORECASE,
)


# one relation, however called ("my mum", "my mother"); a parent is either
_KIN = {"mum": "mother", "mom": "mother", "dad": "father"}
_SHARED = re.compile(r"\b(?:us|our|we|we're|we've|and i)\b", re.IGNORECASE)


def _someone_elses(a: _Claim, b: _Claim) -> bool:
    """b tells what someone close to the speaker changed of their own ("my sister switched from Dr. Okafor to Dr.
    Lee"), and a says nothing of them nor of b's thing ("my dentist is Dr. Okafor"): the value b replaces was theirs,
    not a's. Not a change of something shared ("my boss moved our standup to Tuesday"), nor of what a says of them
    ("my mum moved from Leeds to York" after "my mother lives in Leeds")."""
    text = plain_text(b.fact)
    told = _THEIRS.match(text)
    if told is None or _SHARED.search(text):
        return False
    kin = {_KIN.get(w, w) for w in a.info.words}
    who = _KIN.get(stem(word_form(told["who"])), stem(word_form(told["who"])))
    if who in kin or (who in ("mother", "father") and "parent" in kin):
        return False
    if told["name"] and stem(word_form(told["name"])) in a.info.words:
        return False
    return (a.info.terms - b.info.old).isdisjoint(b.info.words)


def _of_someone_close(a: _Claim, b: _Claim) -> bool:
    """a tells what someone close to the speaker is or has ("my partner is vegetarian"), and b the speaker's own
    change, naming them nowhere ("ended my vegetarian phase, eating fish now"): the value b replaces was the
    speaker's, not theirs."""
    text_a, text_b = plain_text(a.fact), plain_text(b.fact)
    told = _THEIRS.match(text_a)
    if told is None or _SHARED.search(text_a) or _THEIRS.match(text_b) or not _FIRST_PERSON.search(text_b):
        return False
    who = {told["who"].casefold(), *([told["name"].casefold()] if told["name"] else [])}
    return not who & {w.casefold() for w in WORD.findall(text_b)}


# "new playlist: jazz instead of Radiohead", "new quote for the roof: ...": a label naming the thing b is about
_NEW_LABEL = re.compile(r"^new\s+(?P<thing>[\w' -]{2,40}?)\s*:", re.IGNORECASE)
# label words that name no thing: the speaker's own habit, a rule, a time ("new habit: ...", "new rule: ...")
_NO_THING = frozenset(
    stem(w)
    for w in "habit preference plan goal routine favourite favorite go-to usual order default thing rule policy "
    "setting value number time day slot version setup approach decision choice pick schedule finding theory cause "
    "info news update title role for the my our of".split()
)


def _labelled_other_thing(a: _Claim, b: _Claim) -> bool:
    """b is labelled with a thing a never names ("new playlist: jazz instead of Radiohead" after "my favourite band
    is Radiohead"): the value it replaces was that thing's, not a's."""
    label = _NEW_LABEL.match(plain_text(b.fact))
    if label is None:
        return False
    thing = {stem(word_form(w)) for w in WORD.findall(label["thing"])} - _NO_THING
    return bool(thing) and thing.isdisjoint(a.info.words)


def _keys_apart(a: _Claim, b: _Claim) -> bool:
    """Each key names a thing the other statement never says ("heron", then "Kestrel: Friday freeze 3pm -> 4pm"):
    a value both hold is two subjects' alike, not one subject's replaced."""
    thing_a, thing_b = a.thing_stems(), b.thing_stems()
    return bool(thing_a and thing_b) and thing_a.isdisjoint(b.info.words) and thing_b.isdisjoint(a.info.words)


def _named_after_old(a: _Claim, b: _Claim) -> bool:
    """a's subject is named after the value b says it replaces ("papertrail", then "we moved logging from
    Papertrail to Grafana Loki"), or the value b replaces is a specific part of a's key, which names no side of a
    thing ("honda_civic", then "traded the civic in for a used ioniq 5"; not "heroku_key_value_datastore", then
    "moving from Heroku to Fly.io")."""
    if not (b.info.old and a.key):
        return False
    key = a.key_stems()
    if key <= b.info.old:
        return True
    return b.info.old <= key and any(is_specific(w) for w in b.info.old) and not _sides(a.key)


def _replaces_all_of_value(a: _Claim, b: _Claim) -> bool:
    """b names as replaced all that a says beyond its key ("our test runner is mocha", then "ported the whole
    suite from mocha to vitest"). When a's key is a side of a thing, b's key must name no other specific thing (not
    "the staging db is postgres", then "we migrated the analytics warehouse from postgres to snowflake")."""
    value = a.info.terms - a.key_stems()
    if not (b.info.old and value and value <= b.info.old):
        return False
    if any(is_specific(w) for w in b.info.old - a.info.words):
        return False  # "we got rid of the flaky Kong tests" replaces more than Kong: another thing
    return not _sides(a.key) or b.thing_stems() <= a.info.words | b.info.old


def _replaces_of_its_thing(a: _Claim, b: _Claim) -> bool:
    """b names a's value as replaced, and a says the thing b's key names, though a's key names it otherwise ("the
    Kubernetes cluster is on 1.27", then "cluster went from 1.27 to 1.30"; not when b names a thing a does not)."""
    thing_b = b.thing_stems()
    return (
        bool(thing_b)
        and thing_b <= a.info.words
        and all(name_parts(n) <= a.info.words for n in b.subject_names())  # "Cluster went ...": a name by place
        and _sides(a.key) == _sides(b.key)
        and names_old(a.info, b.info)
    )


def _named_value(claim: _Claim) -> frozenset[str]:
    """The names a statement holds besides those of its subject key: its value, when the value is a name."""
    key = name_parts(claim.subject)
    return frozenset(n for n in claim.info.names if not name_parts(n) <= key and not is_generic(n))


def about_different_subjects(a: _Claim, b: _Claim) -> bool:
    """Both subject keys hold a name, and not the same one."""
    subject_a, subject_b = a.subject_names(), b.subject_names()
    key_b = name_parts(b.subject)
    return bool(subject_a and subject_b) and not (
        subject_a & subject_b or any(name_parts(n) <= key_b for n in subject_a)
    )


def about_different_things(a: _Claim, b: _Claim) -> bool:
    """Statements about differently named things ("Kestrel" and "Heron", "feed-builder" and "ocr-worker").

    The names within the two subject keys decide when both keys hold one; when only one key holds a
    name, a key naming another thing (no word in common) is about a different one, unless its
    statement mentions the name; otherwise all their names, unless one statement mentions a name
    of the other anywhere.
    """
    subject_a, subject_b = a.subject_names(), b.subject_names()
    key_b = name_parts(b.subject)
    if subject_a and subject_b:
        return not (subject_a & subject_b or any(name_parts(n) <= key_b for n in subject_a))
    if not (subject_a or subject_b) and _same_thing(a.key, b.key):
        return False  # "billing_datastore" and "billing": their names are values (MySQL, Postgres), not things
    named, other = (a, b) if subject_a else (b, a)
    thing = other.key - KNOWN_ASPECTS
    if (subject_a or subject_b) and thing and thing.isdisjoint(named.key) and not mentions(named.info, other.info):
        return True  # "felix_schedule" and "bo_schedule", though "Bo" reads as an ordinary word
    if a.info.names and b.info.names:
        return not (mentions(a.info, b.info) or mentions(b.info, a.info))
    return False


# sides that are one for a thing that has both words ("Sprocket moved to Render" reads like a person's move)
_SAME_SIDE = {"home": "host"}


def _sides(key: frozenset[str]) -> frozenset[str]:
    return frozenset(_SAME_SIDE.get(w, w) for w in key & KNOWN_ASPECTS)


def _same_thing(key_a: frozenset[str], key_b: frozenset[str]) -> bool:
    """Two keys name one thing, a specific word, whatever sides they name ("billing_datastore", "billing")."""
    thing = key_a - KNOWN_ASPECTS
    return thing == key_b - KNOWN_ASPECTS and any(is_specific(w) for w in thing)


def _other_sides(key_a: frozenset[str], key_b: frozenset[str]) -> bool:
    """The two keys name one specific thing and different sides of it."""
    sides_a, sides_b = _sides(key_a), _sides(key_b)
    shared = (key_a & key_b) - KNOWN_ASPECTS
    return bool(sides_a and sides_b and sides_a.isdisjoint(sides_b) and any(is_specific(w) for w in shared))


def _other_things(a: _Claim, b: _Claim, named: bool) -> bool:
    """The two keys name the same side of two things that share no specific word ("starling_ci", "puffin_ci"),
    and neither statement mentions the other's thing: what only wording has in common does not make them one
    subject. named: both things are proper names in their statements ("Starling", "Ibis"), so that even a value
    one replaces is not the other's."""
    sides_a, sides_b = a.key & KNOWN_ASPECTS, b.key & KNOWN_ASPECTS
    thing_a = {w for w in a.key - KNOWN_ASPECTS if is_specific(w)}
    thing_b = {w for w in b.key - KNOWN_ASPECTS if is_specific(w)}
    if not (sides_a and sides_a == sides_b and thing_a and thing_b and thing_a.isdisjoint(thing_b)):
        return False
    if {stem(w) for w in thing_a} & b.info.words or {stem(w) for w in thing_b} & a.info.words:
        return False  # "GitLab CI is out, Kestrel now builds on Drone" (keyed by the old value) names Kestrel
    return not named or (_proper(thing_a, a.fact) and _proper(thing_b, b.fact))


def _proper(words: set[str], fact: str) -> bool:
    """One of the words is written as a name in the statement ("Starling is off DigitalOcean")."""
    return any(t[:1].isupper() and word_form(t) in words for t in WORD.findall(plain_text(fact)))


@dataclass
class _Entry:
    """A subject during the replay: its current claim, its history, every candidate it holds."""

    subject: str
    category: str
    current: _Claim
    created: int
    history: list[Version] = field(default_factory=list)
    members: list[int] = field(default_factory=list)


class Consolidator:
    """One consolidation over a set of candidates (see the module docstring)."""

    def __init__(self, reversed_events: Mapping[str, str] | None = None, similarity: Similarity | None = None) -> None:
        self.reversed = dict(reversed_events or {})  # event id -> the undo that reversed it
        self.similarity = similarity
        self.events: list[Event] = []

    def sim(self, a: _Claim, b: _Claim) -> float:
        if self.similarity is not None:
            return self.similarity(plain_text(a.fact), plain_text(b.fact))
        return lexical_similarity(a.info.terms, b.info.terms)

    def link(self, a: _Claim, b: _Claim, directed: bool = False) -> int:
        """How surely two statements are about one subject: 0 (not) to 4 (the same subject key).

        directed: b is the newer statement, and only b may name a's value as replaced.
        """
        same_key = a.key_stems() == b.key_stems()
        if same_key and bool(a.aspects()) and not about_different_subjects(a, b):
            return 4  # the key names the slot; names elsewhere may be values ("Priya owns billing")
        if same_key and (a.told or b.told):
            return 4  # a told change was keyed to the subject it changes
        if _replaces_of_its_thing(a, b) or (not directed and _replaces_of_its_thing(b, a)):
            return 3
        if about_different_things(a, b):
            return 0
        if _other_things(a, b, named=True):
            return 0  # "Starling is off DigitalOcean" replaces no value of Ibis's hosting, though it was DigitalOcean
        if _someone_elses(a, b) or (not directed and _someone_elses(b, a)):
            return 0
        if _labelled_other_thing(a, b) or (not directed and _labelled_other_thing(b, a)):
            return 0
        if _of_someone_close(a, b) or (not directed and _of_someone_close(b, a)):
            return 0
        if (names_old(a.info, b.info) or (not directed and names_old(b.info, a.info))) and not _keys_apart(a, b):
            return 3
        if _own_change(a, b) or (not directed and _own_change(b, a)):
            return 3
        if _named_after_old(a, b) or (not directed and _named_after_old(b, a)):
            return 3
        if _replaces_all_of_value(a, b) or (not directed and _replaces_all_of_value(b, a)):
            return 3
        if _other_things(a, b, named=False):
            return 0  # "starling_ci" and "puffin_ci", "data_standup" and "analytics_standup": alike, not one
        if _other_sides(a.key, b.key):
            return 0  # "billing_service_owner" and "billing_port_staging": two sides of one thing, told alike
        if len(a.info.entities & b.info.entities) >= 2:
            return 2
        if self.same_kind_of_change(a, b) or (not directed and self.same_kind_of_change(b, a)):
            return 2
        if self.same_thing_changed(a, b) or (not directed and self.same_thing_changed(b, a)):
            return 2
        if self.sim(a, b) < LINK_SIMILARITY or _keys_apart(a, b):
            return 0
        # "Redwood Analytics pays quarterly" and "... pays for Business": alike, but a cadence and a plan
        return 0 if value_kinds_differ(a.subject, a.fact, b.subject, b.fact) else 1

    @staticmethod
    def same_kind_of_change(a: _Claim, b: _Claim) -> bool:
        """b changes a value of the kind a states, about the same named thing, on no other side of it."""
        aspects_a, aspects_b = a.aspects() & KNOWN_ASPECTS, b.aspects() & KNOWN_ASPECTS
        if not b.info.change or (aspects_a and aspects_b and not aspects_a & aspects_b):
            return False
        named = {n for n in a.info.names if not is_generic(n)}
        if not named or not any(n in b.info.names or name_parts(n) <= b.info.words for n in named):
            return False
        return bool(shapes_of(a.info) & shapes_of(b.info))

    @staticmethod
    def same_thing_changed(a: _Claim, b: _Claim) -> bool:
        """b states a change about what a's key names, on the same side of it ("billing" and "billing_service",
        "pandas" and "pandas_version"): one key's thing is the other's, or part of it."""
        if not b.info.change:
            return False
        aspects_a, aspects_b = _sides(a.key), _sides(b.key)
        thing_a, thing_b = a.key - KNOWN_ASPECTS, b.key - KNOWN_ASPECTS
        if not (thing_a <= thing_b or thing_b <= thing_a):
            return False
        if aspects_a and aspects_a == aspects_b:
            return True  # "goal" and "running_goal"
        shared = thing_a & thing_b
        if (aspects_a and aspects_b) or not any(is_specific(w) for w in shared):
            return False
        specific_a = {w for w in thing_a if not is_generic(w)}
        specific_b = {w for w in thing_b if not is_generic(w)}
        if b.info.new and specific_b < specific_a and not aspects_b and TOLD_CHANGE.search(plain_text(b.fact)):
            # "minSdk went up to 26" after "the android minSdk is 24": the thing by part of its name (not "the gym is
            # open 24 hours now" after "my gym membership is 35 a month")
            return counts_alike(a.fact, b.fact)
        if aspects_a != aspects_b:
            # one names a side, the other not ("we run Sorrel on AWS", "Sorrel is on GCP now"): the same thing,
            # and each gives it a named value
            return specific_a == specific_b and bool(_named_value(a) and _named_value(b))
        # no side named ("billing", "remy"): the same thing (generic words aside), or a value of the same kind
        return specific_a == specific_b or bool(shapes_of(a.info) & shapes_of(b.info))

    def relate(self, current: _Claim, new: _Claim) -> tuple[str, str]:
        """(merge | corroborate | contradict, the rule) for a statement about current's subject."""
        # it says it replaces what current says (its specific words: "not that the config map is missing a key like
        # we thought" replaces "the config map is missing a key")
        replaced = {w for w in new.info.old if is_specific(w) or w[:1].isdigit()}
        if replaced and replaced <= current.info.words:
            value = current.info.new or current.info.words - current.info.old
            if (new.info.new or new.info.terms - new.info.old) - value - CHANGE_WORDS:
                return "contradict", "names the current value as replaced"
            return "corroborate", "restates the change"
        if new.info.change and new.info.new and not new.info.new <= current.info.words | CHANGE_WORDS:
            return "contradict", "states a change to a new value"  # "new goal: a full marathon" after a half
        core_new = new.info.entities - new.info.old_entities
        core_current = current.info.entities - current.info.old_entities
        similarity = self.sim(current, new)
        if similarity >= MERGE_SIMILARITY and core_new == core_current:
            return "merge", f"near-duplicate (similarity {similarity:.2f}, same entities)"
        only_new = new.info.terms - current.info.terms - new.info.old - CHANGE_WORDS
        only_current = current.info.terms - new.info.terms - current.info.old - CHANGE_WORDS
        specific = {t for e in core_new | core_current for t in terms_of(e)} | core_new | core_current
        if only_new and only_current and (current.subject == new.subject or (only_new | only_current) & specific):
            return "contradict", "states a different value"
        if (new.info.change or new.told) and only_new & specific:
            # a told change was keyed to this subject for the new value it gives it ("Caleb sold the flat in
            # Bologna, my brother is settled in Edinburgh" after "we stay with Caleb in Bologna")
            return "contradict", "states a change to a new value"
        return "corroborate", "restates the current value"

    def claims(self, candidates: Iterable[FactCandidate]) -> tuple[tuple[FactCandidate, ...], list[_Claim]]:
        """The candidates in replay order, and a claim for each."""
        anchored = sorted(anchor(sorted(candidates, key=candidate_order)), key=lambda a: candidate_order(a[0]))
        ordered = tuple(c for c, _ in anchored)
        claims = []
        for n, c in enumerate(ordered):
            info = analyse(c.fact)  # cached: a statement said on many days is analysed once
            category = c.category if c.category in CATEGORIES else "domain_fact"
            origin = json.dumps([c.fact, list(c.sources)], ensure_ascii=False)
            claims.append(
                _Claim(
                    fact=c.fact,
                    category=category,
                    subject=c.subject,
                    valid_from=c.valid_from,
                    last_seen=c.valid_from,
                    confidence=c.confidence,
                    seen=1,
                    sources=list(c.sources),
                    info=info,
                    own=c.confidence,
                    origin=origin,
                    members=[n],
                    told=anchored[n][1],
                )
            )
        return ordered, claims

    def run(self, candidates: Iterable[FactCandidate]) -> Outcome:
        ordered, claims = self.claims(candidates)
        clusters = self.clusters(claims)
        entries: list[_Entry] = []
        for cluster in clusters:
            entries.extend(self._replay([claims[i] for i in cluster], len(entries)))
        facts, absorbed = self._finish(entries)
        events = tuple(sorted(self.events, key=lambda e: (e.date, e.subject, e.kind, e.id)))
        return Outcome(facts, events, len(clusters), ordered, absorbed)

    def clusters(self, claims: Sequence[_Claim]) -> list[list[int]]:
        """Union-find over linked claims, strongest links first, no cluster above MAX_CLUSTER."""
        postings: dict[str, list[int]] = defaultdict(list)
        for i, claim in enumerate(claims):
            keys = {f"s:{'_'.join(sorted(claim.key))}", *(f"n:{n}" for n in claim.subject_names())}
            keys.update(f"t:{t}" for t in claim.info.terms | claim.info.entities | claim.info.names)
            # the side its key names: "logs_retention" and a change of "retention" share no other word
            keys.update(f"a:{part}" for part in claim.key & KNOWN_ASPECTS)
            for key in keys:
                postings[key].append(i)
        pairs: set[tuple[int, int]] = set()
        for key in sorted(postings):
            members = postings[key]
            if len(members) <= MAX_POSTING or (key[0] in "sn" and len(members) <= 5 * MAX_POSTING):
                pairs.update((i, j) for x, i in enumerate(members) for j in members[x + 1 :])
        # an old value is matched on all words, among statements sharing a word of the subject key
        words: dict[str, set[int]] = defaultdict(set)
        near: dict[str, set[int]] = defaultdict(set)
        for i, claim in enumerate(claims):
            for w in claim.info.words:
                words[w].add(i)
            for part in claim.key | claim.subject_names():
                near[part].add(i)
        for i, claim in enumerate(claims):
            if not claim.info.old:
                continue
            close = set().union(*(near[part] for part in claim.key | claim.subject_names()))
            found = set.intersection(*(words[w] for w in claim.info.old)) & close if close else set()
            pairs.update((min(i, j), max(i, j)) for j in found if j != i)
        edges = sorted((-strength, i, j) for i, j in pairs if (strength := self.link(claims[i], claims[j])))
        parent = list(range(len(claims)))
        size = [1] * len(claims)

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for _, i, j in edges:
            a, b = sorted((find(i), find(j)))
            if a != b and size[a] + size[b] <= MAX_CLUSTER:
                parent[b] = a
                size[a] += size[b]
        groups: dict[int, list[int]] = defaultdict(list)
        for i in range(len(claims)):
            groups[find(i)].append(i)
        return [groups[root] for root in sorted(groups)]

    def _replay(self, claims: list[_Claim], created: int) -> list[_Entry]:
        entries: list[_Entry] = []
        days: dict[str, list[_Claim]] = defaultdict(list)
        for claim in claims:
            days[claim.valid_from].append(claim)
        for day in sorted(days):
            for claim in self._same_day(days[day]):
                best: tuple[int, int, float, int] | None = None
                for n, entry in enumerate(entries):
                    strength = self.link(entry.current, claim, directed=True)
                    if strength:
                        rank = (
                            strength,
                            len(entry.current.info.names & claim.info.names),
                            self.sim(entry.current, claim),
                        )
                        if best is None or rank > best[:3]:
                            best = (*rank, n)
                if best is not None and self._meet(entries[best[3]], claim):
                    continue
                if claim.told:
                    continue  # a told change of no subject here (its merge undone): no fact by itself
                entry = _Entry(claim.subject, claim.category, claim, created + len(entries))
                entry.members.extend(claim.members)
                entries.append(entry)
        return entries

    def _same_day(self, claims: list[_Claim]) -> list[_Claim]:
        """A day's statements, the redundant and consistent ones merged (contradictions stay apart)."""
        groups: list[_Claim] = []
        for claim in claims:
            for group in groups:
                if self.link(group, claim, directed=True):
                    relation, rule = self.relate(group, claim)
                    if relation != "contradict" and self._absorb(
                        group.subject, group.category, group, claim, relation, rule
                    ):
                        group.members.extend(claim.members)
                        break
            else:
                groups.append(claim)
        return groups

    def _absorb(self, subject: str, category: str, into: _Claim, claim: _Claim, relation: str, rule: str) -> bool:
        """Merges claim into `into`; False when that event was undone (the claim then stands alone)."""
        kind = "merge" if relation == "merge" else "corroborate"
        if self._event(kind, rule, subject, category, into, claim).reversed_by is not None:
            return False
        if kind == "merge":
            if (len(claim.info.terms), len(claim.fact)) > (len(into.info.terms), len(into.fact)):
                into.fact = claim.fact  # the most complete wording is the base
            info = into.info
            into.info = Analysis(
                info.terms | claim.info.terms,
                info.words | claim.info.words,
                info.entities | claim.info.entities,
                info.names | claim.info.names,
                info.old,
                info.old_entities,
                info.new,
                info.change,
            )
            into.refresh()
        into.seen += claim.seen
        into.confidence = _noisy_or(into.confidence, claim.confidence)
        into.own = max(into.own, claim.own)
        into.last_seen = max(into.last_seen, claim.last_seen)
        into.sources.extend(s for s in claim.sources if s not in into.sources)
        return True

    def _meet(self, entry: _Entry, claim: _Claim) -> bool:
        """Applies claim to entry's subject; False when it must stand alone (its merge was undone)."""
        relation, rule = self.relate(entry.current, claim)
        if relation != "contradict":
            if not self._absorb(entry.subject, entry.category, entry.current, claim, relation, rule):
                return False
            entry.members.extend(claim.members)
            return True
        current = entry.current
        if claim.valid_from > current.last_seen:
            new_wins, rule = True, "recency"
        elif claim.own != current.own:  # corroboration is the next step: not counted twice
            new_wins, rule = claim.own > current.own, "confidence"
        elif claim.seen != current.seen:
            new_wins, rule = claim.seen > current.seen, "corroboration"
        else:
            new_wins, rule = True, "order"
        event = self._event("supersede" if new_wins else "keep", rule, entry.subject, entry.category, current, claim)
        why = f"superseded: {rule}" if new_wins else f"outweighed: {rule}"
        if event.reversed_by is not None:
            new_wins, why = not new_wins, f"undone: {event.reversed_by}"
        if new_wins:
            entry.history.insert(0, current.version(claim.valid_from, why, event.id))
            entry.current = claim
            if claim.info.old and {stem(p) for p in entry.subject.split("_")} <= claim.info.old:
                entry.subject = claim.subject  # it was named after the value that is now replaced
        else:
            entry.history.insert(0, claim.version(claim.valid_from, why, event.id))
        entry.members.extend(claim.members)
        return True

    def _event(self, kind: str, rule: str, subject: str, category: str, current: _Claim, new: _Claim) -> Event:
        basis = json.dumps([kind, subject, current.origin, new.origin], ensure_ascii=False)
        identity = hashlib.sha256(basis.encode("utf-8")).hexdigest()[:12]
        sources = tuple(dict.fromkeys([*current.sources, *new.sources]))
        event = Event(
            identity,
            new.valid_from,
            kind,
            rule,
            subject,
            category,
            current.fact,
            new.fact,
            sources,
            self.reversed.get(identity),
        )
        self.events.append(event)
        return event

    def _finish(self, entries: list[_Entry]) -> tuple[tuple[Fact, ...], dict[int, str]]:
        """Facts with unique subjects (a repeated key gets _2, _3... in order of creation)."""
        taken: dict[str, int] = {}
        facts = []
        absorbed: dict[int, str] = {}
        for entry in sorted(entries, key=lambda e: (e.current.valid_from, e.created)):
            subject = entry.subject
            if subject in taken:
                taken[subject] += 1
                subject = f"{subject}_{taken[subject]}"
            taken.setdefault(subject, 1)
            facts.append(Fact(subject, entry.category, entry.current.version(), tuple(entry.history)))
            absorbed.update((member, subject) for member in entry.members)
        facts.sort(key=lambda f: (CATEGORIES.index(f.category), f.subject))
        return tuple(facts), absorbed


def clusters_of(candidates: Iterable[FactCandidate], similarity: Similarity | None = None) -> list[list[FactCandidate]]:
    """The union-find clusters a consolidation replays (for inspection and tests), in replay order."""
    consolidator = Consolidator(similarity=similarity)
    ordered, claims = consolidator.claims(candidates)
    return [[ordered[i] for i in cluster] for cluster in consolidator.clusters(claims)]


def consolidate(
    candidates: Iterable[FactCandidate],
    reversed_events: Mapping[str, str] | None = None,
    similarity: Similarity | None = None,
) -> Outcome:
    """The store's content from every candidate (see the module docstring)."""
    return Consolidator(reversed_events, similarity).run(candidates)
