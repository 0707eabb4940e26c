"""Consolidation: fact candidates in, one current truth per subject out, with an audit trail. Pure.

1. Each candidate is analysed: its terms (non-generic stems; numbers, times, money, number and
   calendar words kept whole), its entities (runs of capitalized words, technical tokens, values),
   its name words, and, when it states a change ("switched from X to Y", "no more X", "(was X)"),
   the words of the value it replaces and of the new one.
2. Two candidates are linked when they share at least two entities or their similarity is at
   least 0.75 (lexical cosine over terms by default; a similarity function from the caller, such
   as embeddings, otherwise), and also when their subject keys are the same set of canonical
   words and name a side of a thing ("billing_cap" and "billing_limit"; not just "ledger_api"),
   when one names the other's value as replaced, or when one changes a value of the same kind
   (a version, a clock time, money...) of the same named thing. Statements about differently
   named things ("Kestrel" and "Heron") are never linked, however alike their wording.
   Union-find groups linked candidates, strongest links first, and never lets a cluster grow
   past 20 members.
3. Each cluster is replayed in date order, then source order. A day's candidates first merge
   among themselves; then each meets the subject it is most surely about:
   - redundant (similarity >= 0.90 and the same core entities): merged; the most complete
     wording is the base, entities and sources are united, corroboration counts add, and the
     confidence rises (noisy-or, capped at 0.99);
   - a restatement that adds no new value corroborates the current one (counts and sources add);
   - a contradiction is resolved by recency (the later day), then confidence (of the surest
     single statement on each side, so that corroboration is not counted twice), then
     corroboration (statements behind each side), then order (the later statement wins); the
     loser goes into the subject's history with the date it stopped being true and the rule.
4. Every merge, corroboration, supersession and resolution is an Event whose id hashes what it
   decided (kind, subject, and the first statement of each side), so it survives unrelated
   rebuilds. An event listed in `reversed` takes the other branch: an undone merge leaves the
   candidate on a subject of its own, an undone supersession keeps the old value current, an
   undone resolution lets the newcomer win.

Every ordering is total (dates, natural source order, then text) and no set order reaches the
output, so the same candidates give the same bytes in any input order and any process. Cost:
about 0.2 s for the ~400 candidates of a year of the extractive summarizer, 1.7 s for 5,000.
The file formats of the store are at the end.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .summary import FactCandidate
from .text import STOPWORDS, WORD, fold, stem, word_form
from .topics import is_generic

LINK_SIMILARITY = 0.75
MERGE_SIMILARITY = 0.90
MAX_CLUSTER = 20
MAX_POSTING = 80  # a term shared by more candidates than this is too common to suggest a link
CATEGORIES = ("preference", "constraint", "decision", "domain_fact", "entity", "failure_pattern")

Similarity = Callable[[str, str], float]  # (fact text, fact text) -> 0..1

# ---------------------------------------------------------------- what a statement says

_NAME_WORD = r"[A-Z][\w'’.-]*"
_NAME = rf"(?-i:(?!(?:I|I'm|I've|My|We|Our|The|This|That|It|You|They|He|She)\b){_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}})"
CHANGE_VERB = (
    r"(?:switch|mov|migrat|chang|shift|bump|upgrad|downgrad|rais|lower|increas|decreas|reduc|transition|port|"
    r"push|pull|updat|replac|swap|went|gone|go|goes|going|hand)\w*"
)
# How changes are stated, tried in this order (the first that matches wins); groups: o the value
# replaced, v the new value, s what changed. The forms that name the old value come first.
# fmt: off
_CHANGE_FORMS = (
    r"\b" + CHANGE_VERB + r"\b.*?(?:\bfrom\s+|,\s+)(?P<o>.+?)\s+(?:to|->|→|onto|into|over to)\s+(?P<v>.+)",
    r"\b" + CHANGE_VERB + r"\b.*?\bto\s+(?P<v>.+?)\s+from\s+(?P<o>.+)",
    r"\boff\s+(?P<o>[^,;]+?)\s+(?:and\s+)?(?:onto|to|into)\s+(?P<v>.+)",
    r"\b(?:dropping|ditching|dropped|ditched|forget|forget about|scrap|scrapped|abandon(?:ed|ing)?)\s+(?P<o>[^,;]+?)"
    r"[,;]\s*(?:(?:we'?re\s+|i'?m\s+)?(?:going for|switching to|moving to|now|from now on|going forward)\b)"
    r"\s*(?P<v>.*)",
    r"\b(?P<v>[^,;:]+)\s+instead of\s+(?P<o>.+?)(?:\s+please)?$",
    r"\bno more\s+(?P<o>.+?)(?:\s+for\s+(?:me|us))?,\s+(?:it'?s\s+|now\s+)?(?P<v>.+)",
    r"\bnot\s+(?:that\s+)?(?P<o>[^,;]+?)[,;]?\s+(?:but|it'?s)\s+(?:that\s+)?(?P<v>.+)",
    r"\((?:it\s+|that\s+)?(?:was|previously|formerly|used to be)\s+(?P<o>[^)]+)\)",
    r"\b(?:is|are)\s+off\s+(?P<o>[^,;]+?)(?:\s+as of\s+\w+)?[,;]",
    r"(?:^|,\s*|;\s*|:\s*)(?P<o>[^,;:]+?)\s+(?:is|are)\s+(?:out(?=\s*[,;]\s*\w)|gone|retired|history|deprecated|"
    r"read-only)\b",
    r"\bleft\s+(?P<o>" + _NAME + r")\s*[,;]",
    r"\breplac(?:ed|ing|e)\s+(?P<o>.+?)\s+with\s+(?P<v>.+)",
    r"\b(?P<o>" + _NAME + r")\s+(?:handed|passed|gave|transferred)\s+(?P<s>.+?)\s+(?:over\s+)?to\s+(?P<v>.+)",
    r"\bno longer\s+(?:uses?|runs? on|on|in|with|using)?\s*(?P<o>[^,;]+)",
    r",\s+not\s+(?P<o>(?-i:[A-Z][\w.-]*|\d[\w.:,%]*)(?:\s+(?-i:[A-Z][\w.-]*))*)(?:\s+any\s?more)?$",
    r"\bstopped\s+(?:being|using|eating|drinking|doing)\s+(?P<o>[^,;]+?)[,;]\s*(?P<v>.*)",
    r"\bnot\s+(?P<o>[^,;]+?)\s+any\s?more\b",
    r"(?:\b(?P<v>" + _NAME + r")\s+)?\btook over\s+(?P<s>.+?)\s+from\s+(?P<o>.+)",
    # changes that do not say what they replace
    r"\b(?:we|i)(?:'ve|'re|\s+have|\s+are)?\s+(?:just\s+|finally\s+)?(?:switch|mov|migrat|upgrad|bump|rais|lower|"
    r"chang|shift|transition)\w*\s+(?P<s>[^,;]+?)\s+(?:over\s+)?to\s+(?P<v>.+)",
    r"^(?:upgraded|bumped|migrated|moved|switched|raised|lowered)\s+(?P<s>[^,;]+?)\s+to\s+(?P<v>.+)",
    r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:is|are)\s+now\s+(?:at|on|in|using|running)?\s*(?P<v>.+)",
    r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:went|goes|has gone|is going)\s+(?:up|down)\s+to\s+(?P<v>.+)",
    r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?-i:moved|switched|changed|shifted|relocated)\s+to\s+"
    r"(?P<v>(?:the\s+)?(?-i:[A-Z]|\d)[^,;]*)",
)
# fmt: on
CHANGE_PATTERNS = tuple(re.compile(form, re.IGNORECASE) for form in _CHANGE_FORMS)
# the new value of a change that does not say "to Y": "X is out, Atlas now builds on Y", "going for Y"
NEW_VALUE = re.compile(
    r"\bnow\s+(?:\w+\s+){0,2}?(?:on|in|to|at|with|uses?|using|is|are)\s+(?P<v>[^,;]+)"
    r"|\b(?:going for|switching to|moving to|it'?s|everything runs on|runs on|lives in)\s+(?P<v2>[^,;]+?)(?:\s+now)?$",
    re.IGNORECASE,
)


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


# words that only say that something changed: they never make two statements disagree
CHANGE_WORDS = frozenset(
    stem(word_form(w))
    for w in _wordset(
        "switched switch moved move moves moving migrated migrating changed shifted bumped upgraded raised lowered "
        "replaced now anymore longer instead new rule out gone off left dropping going starting today tomorrow "
        "cycle next actually forget read-only delete until"
    )
)
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
    "limit": "limit limits cap capped caps quota throttle throttled allowance rate",
    "owner": "owner owners owns ownership maintainer maintains",
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
}
# acronyms that name a side of things, not a thing: never what tells two subjects apart
GENERIC_ACRONYMS = frozenset(
    _wordset("sla slo api ci cd pr db sdk cli ui ux qa sre sso mfa dns cdn vpn url ttl rps qps eta etl os")
)
ASPECT_OF = {word: aspect for aspect, words in ASPECTS.items() for word in words.split()}
WEAK_ASPECTS = frozenset({"time", "day", "rule", "new", "setting", "current", "main", "deploy", "deploys", "now"})


@lru_cache(maxsize=65536)
def key_parts(subject: str) -> frozenset[str]:
    """A subject key as a set of canonical words: what two keys are compared on."""
    return frozenset(ASPECT_OF.get(part, part) for part in subject.split("_") if part and part not in WEAK_ASPECTS)


_VALUE = re.compile(r"\$?\d[\d,.:]*\d%?(?:\s?(?:am|pm))?|\$?\d%?(?:\s?(?:am|pm))?", re.IGNORECASE)
_SPEAKER = re.compile(r"^[\w.-]{1,40}:\s+")
_POSSESSIVE = re.compile(r"['’]s$")
_JOINER = re.compile(r"[.'’_-]")
_TECHNICAL = re.compile(r"\w[._-]\w")
_CLAUSE_END = re.compile(r"[.:;!?]")


@dataclass(frozen=True)
class Change:
    """What a change statement says: the value it replaces (may be empty), the new one, what changed."""

    old: str
    new: str
    subject: str
    start: int  # where in the text the change is stated


_LAST_PHRASE = re.compile(r"^.*\b(?:on|in|at|to|with|for|is|are|get|gets|use|uses|using|now)\s+(?=\S)", re.IGNORECASE)


def change_of(text: str) -> Change | None:
    for pattern in CHANGE_PATTERNS:
        match = pattern.search(text)
        if match is not None:
            groups = match.groupdict()
            new = groups.get("v") or ""
            if "instead of" in match.group(0):  # "Elsa swims on Wednesday instead of Monday": the value is Wednesday
                new = _LAST_PHRASE.sub("", new)
            return Change(groups.get("o") or "", new, groups.get("s") or "", match.start())
    return None


def plain_text(fact: str) -> str:
    """A fact without the "speaker: " that quotes a first-person statement."""
    return _SPEAKER.sub("", fact, count=1)


def _values(text: str) -> set[str]:
    return {v.lower().replace(" ", "").rstrip(".,") for v in _VALUE.findall(text)}


def _is_value(token: str) -> bool:
    return token[:1].isdigit() or token[:1] == "$"


def terms_of(text: str) -> frozenset[str]:
    """What a statement is about, for similarity: non-generic stems, and values whole."""
    found = _values(text)
    for match in WORD.finditer(text):
        token = _POSSESSIVE.sub("", match.group())
        if token[:1].isdigit():
            continue
        for piece in [token, *_JOINER.split(token)] if _JOINER.search(token) else [token]:
            form = word_form(piece) if piece else ""
            if fold(piece) in NUMBER_WORDS or form in CALENDAR:
                found.add(form)
            elif (
                form and fold(piece) not in STOPWORDS and (not is_generic(form) or (piece.isupper() and len(piece) > 1))
            ):
                found.add(stem(form))
    return frozenset(found)


def words_of(text: str) -> frozenset[str]:
    """Every content word's stem, generic ones too, and values whole: what an old value is matched on."""
    found = _values(text)
    for match in WORD.finditer(text):
        for piece in _JOINER.split(_POSSESSIVE.sub("", match.group())):
            if fold(piece) in NUMBER_WORDS:
                found.add(fold(piece))
            elif len(piece) > 1 and not piece[:1].isdigit() and fold(piece) not in STOPWORDS:
                found.add(stem(word_form(piece)))
    return frozenset(found)


def _name_start(token: str) -> bool:
    """A sentence's capitalized first word names something unless it looks ordinary ("Bumped", "Dropping")."""
    form = word_form(token)
    return not is_generic(form) and not form.endswith(("ed", "ing", "ly"))


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
        technical = bool(_TECHNICAL.search(bare)) and not _is_value(bare)
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


@dataclass(frozen=True)
class Analysis:
    terms: frozenset[str]  # non-generic stems and values: what similarity and disagreement look at
    words: frozenset[str]  # all content stems and values
    entities: frozenset[str]
    names: frozenset[str]  # name words, those of the replaced value left out
    old: frozenset[str]  # words of the value a change statement replaces
    old_entities: frozenset[str]
    new: frozenset[str]  # words of the value it introduces, when it says
    change: bool


def analyse(text: str) -> Analysis:
    body = plain_text(text)
    change = change_of(body)
    old = new = ""
    if change is not None:
        old, new = change.old, change.new
        later = NEW_VALUE.search(body, change.start) if not new else None
        new = new or (" ".join(v for v in later.groups() if v) if later else "")
    entities, names = names_of(body)
    old_entities, old_names = names_of(old) if old else (frozenset(), frozenset())
    return Analysis(
        terms_of(body),
        words_of(body),
        entities,
        names - old_names,
        words_of(old) if old else frozenset(),
        old_entities,
        words_of(new) if new else frozenset(),
        change is not None,
    )


_SHAPES = (
    ("version", re.compile(r"v?\d+\.\d+(?:\.\d+)*")),
    ("clock", re.compile(r"\d{1,2}(?::\d\d)?(?:am|pm)|\d{1,2}:\d\d|noon|midnight")),
    ("money", re.compile(r"\$[\d,.]+k?")),
    ("percent", re.compile(r"[\d.]+%")),
)


def shapes_of(info: Analysis) -> frozenset[str]:
    """The kinds of value a statement holds: a version, a clock time, money, a percentage, a weekday..."""
    found = {name for term in info.words for name, pattern in _SHAPES if pattern.fullmatch(term)}
    if info.words & CALENDAR:
        found.add("calendar")
    if info.words & {"minut", "second", "hour"} and info.words & {"request", "call", "event", "job"}:
        found.add("rate")
    if info.words & {"week", "day", "month"} and info.words & NUMBER_WORDS:
        found.add("duration")
    return frozenset(found)


def lexical_similarity(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / math.sqrt(len(a) * len(b)) if a and b else 0.0


@lru_cache(maxsize=8192)
def _parts(name: str) -> frozenset[str]:
    return frozenset(stem(word_form(p)) for p in re.split(r"[.\s_-]+", name) if p)


def names_old(current: Analysis, new: Analysis) -> bool:
    """new says it replaces current's value ("switched from <what current says> to ...").

    Besides the two values, what new is about must be in current too, unless new says nothing else.
    """
    if not new.old or not new.old <= current.words:
        return False
    about = new.terms - new.old - CHANGE_WORDS
    return not (about - new.new) or bool(about & current.terms)


def mentions(a: Analysis, b: Analysis) -> bool:
    """b names one of a's names somewhere, capitalized or not ("event-bus", "the data standup")."""
    return any(name in b.names or _parts(name) <= b.words for name in a.names)


# ---------------------------------------------------------------- the results


@dataclass(frozen=True)
class Version:
    """One value a subject had: the current one, or one in its history (with until, why and event)."""

    fact: str
    valid_from: str
    confidence: float
    seen: int  # statements behind it (corroboration)
    sources: tuple[str, ...]
    valid_until: str | None = None
    why: str | None = None  # "superseded: recency", "outweighed: confidence", "undone: u..."
    event: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "fact": self.fact,
            "valid_from": self.valid_from,
            "confidence": self.confidence,
            "seen": self.seen,
            "sources": list(self.sources),
        }
        if self.valid_until is not None:
            data.update(valid_until=self.valid_until, why=self.why, event=self.event)
        return data


@dataclass(frozen=True)
class Fact:
    """What is true now about one subject, and what was true before (history, newest first)."""

    subject: str
    category: str
    current: Version
    history: tuple[Version, ...] = ()

    @property
    def text(self) -> str:
        return self.current.fact

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "category": self.category,
            **self.current.to_json(),
            "history": [v.to_json() for v in self.history],
        }


@dataclass(frozen=True)
class Event:
    """One decision of a consolidation: a merge, a corroboration, a supersession or a resolution."""

    id: str
    date: str  # the data date it happened (the newer statement's), never a clock time
    kind: str  # merge | corroborate | supersede | keep
    rule: str
    subject: str
    category: str
    old: str
    new: str
    sources: tuple[str, ...]
    reversed_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "sources": list(self.sources)}


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


@lru_cache(maxsize=65536)
def _aspects(subject: str, names: frozenset[str]) -> frozenset[str]:
    named = {part for name in names if not is_generic(name) for part in _parts(name)}
    return frozenset(k for k in key_parts(subject) if _parts(k).isdisjoint(named))


@lru_cache(maxsize=65536)
def _subject_names(subject: str, names: frozenset[str]) -> frozenset[str]:
    key = _parts(subject)
    return frozenset(n for n in names if _parts(n) <= key and not is_generic(n) and n not in GENERIC_ACRONYMS)


def about_different_subjects(a: _Claim, b: _Claim) -> bool:
    """Both subject keys hold a name, and not the same one."""
    subject_a, subject_b = a.subject_names(), b.subject_names()
    key_b = _parts(b.subject)
    return bool(subject_a and subject_b) and not (subject_a & subject_b or any(_parts(n) <= key_b for n in subject_a))


def about_different_things(a: _Claim, b: _Claim) -> bool:
    """Statements about differently named things ("Kestrel" and "Heron", "feed-builder" and "ocr-worker").

    The names within the two subject keys decide when both keys hold one; otherwise all their
    names, unless one statement mentions a name of the other anywhere.
    """
    subject_a, subject_b = a.subject_names(), b.subject_names()
    key_b = _parts(b.subject)
    if subject_a and subject_b:
        return not (subject_a & subject_b or any(_parts(n) <= key_b for n in subject_a))
    if a.info.names and b.info.names:
        return not (mentions(a.info, b.info) or mentions(b.info, a.info))
    return False


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
        same_key = a.key == b.key and bool(a.aspects())
        if same_key and not about_different_subjects(a, b):
            return 4  # the key names the slot; names elsewhere may be values ("Priya owns billing")
        if about_different_things(a, b):
            return 0
        if names_old(a.info, b.info) or (not directed and names_old(b.info, a.info)):
            return 3
        if len(a.info.entities & b.info.entities) >= 2:
            return 2
        if self.same_kind_of_change(a, b) or (not directed and self.same_kind_of_change(b, a)):
            return 2
        return 1 if self.sim(a, b) >= LINK_SIMILARITY else 0

    @staticmethod
    def same_kind_of_change(a: _Claim, b: _Claim) -> bool:
        """b changes a value of the kind a states, about the same named thing, on no other side of it."""
        aspects_a, aspects_b = a.aspects(), b.aspects()
        if not b.info.change or (aspects_a and aspects_b and not aspects_a & aspects_b):
            return False
        named = {n for n in a.info.names if not is_generic(n)}
        if not named or not any(n in b.info.names or _parts(n) <= b.info.words for n in named):
            return False
        return bool(shapes_of(a.info) & shapes_of(b.info))

    def relate(self, current: _Claim, new: _Claim) -> tuple[str, str]:
        """(merge | corroborate | contradict, the rule) for a statement about current's subject."""
        if new.info.old and new.info.old <= current.info.words:  # it says it replaces what current says
            value = current.info.new or current.info.words - current.info.old
            if (new.info.new or new.info.terms - new.info.old) - value - CHANGE_WORDS:
                return "contradict", "names the current value as replaced"
            return "corroborate", "restates the change"
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
        if new.info.change and only_new & specific:
            return "contradict", "states a change to a new value"
        return "corroborate", "restates the current value"

    def claims(self, candidates: Iterable[FactCandidate]) -> tuple[tuple[FactCandidate, ...], list[_Claim]]:
        """The candidates in replay order, and a claim for each."""
        ordered = tuple(sorted(candidates, key=candidate_order))
        cache: dict[str, Analysis] = {}
        claims = []
        for n, c in enumerate(ordered):
            info = cache[c.fact] if c.fact in cache else cache.setdefault(c.fact, analyse(c.fact))
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


# ---------------------------------------------------------------- the files: text in, text out

TITLES = {
    "preference": "Preferences",
    "constraint": "Constraints",
    "decision": "Decisions",
    "domain_fact": "Domain facts",
    "entity": "People and things",
    "failure_pattern": "Failure patterns",
}
NOTE = (
    "<!-- Generated from the daily summaries by `memtree compact`: edits here are overwritten. "
    "Reverse a change with `memtree facts undo ID` (ids: facts/audit.jsonl). -->"
)
_LINE = re.compile(
    r"^\s*- (?:\*\*Now\*\*|Until (?P<until>\d{4}-\d\d-\d\d)): (?P<fact>.*) "
    r"\((?P<meta>[^()]*)\) \[(?P<sources>[^\]]*)\]$"
)


def _meta(version: Version) -> str:
    parts = [f"since {version.valid_from}", f"confidence {version.confidence:g}", f"seen {version.seen}"]
    if version.why:
        parts.append(re.sub(r"[()·]", "", version.why))
    if version.event:
        parts.append(f"event {version.event}")
    return " · ".join(parts)


def _line(version: Version) -> str:
    head = "- **Now**" if version.valid_until is None else f"  - Until {version.valid_until}"
    text = " ".join(version.fact.split())
    return f"{head}: {text} ({_meta(version)}) [{', '.join(version.sources)}]"


def render_category(category: str, facts: Sequence[Fact]) -> str:
    """facts/<category>.md: one section per subject, the current value first, then its history."""
    lines = [f"# {TITLES.get(category, category)}", "", NOTE, ""]
    for f in sorted(facts, key=lambda f: f.subject):
        lines += [f"## {f.subject}", _line(f.current), *(_line(v) for v in f.history), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _version(match: re.Match[str]) -> Version | None:
    meta: dict[str, str] = {}
    why = None
    for part in match.group("meta").split(" · "):
        name, _, value = part.partition(" ")
        if name in ("since", "confidence", "seen", "event"):
            meta[name] = value
        else:
            why = part
    try:
        sources = tuple(s for s in match.group("sources").split(", ") if s)
        return Version(
            match.group("fact"),
            meta["since"],
            float(meta["confidence"]),
            int(meta["seen"]),
            sources,
            match.group("until"),
            why,
            meta.get("event"),
        )
    except (KeyError, ValueError):
        return None


def parse_category(text: str, category: str) -> list[Fact]:
    """The facts of one facts/<category>.md; lines out of shape (hand edits) are skipped."""
    facts: list[Fact] = []
    subject: str | None = None
    current: Version | None = None
    history: list[Version] = []
    for line in [*text.splitlines(), "## "]:
        if line.startswith("## "):
            if subject and current is not None:
                facts.append(Fact(subject, category, current, tuple(history)))
            subject, current, history = line[3:].strip(), None, []
            continue
        match = _LINE.match(line)
        version = _version(match) if match else None
        if version is None:
            continue
        if version.valid_until is None:
            current = version
        elif current is not None:
            history.append(version)
    return facts


def render_audit(events: Sequence[Event]) -> str:
    """facts/audit.jsonl: one event a line, oldest first."""
    return "".join(json.dumps(e.to_json(), ensure_ascii=False) + "\n" for e in events)


def parse_audit(text: str) -> list[Event]:
    events = []
    for line in text.splitlines():
        try:
            data = json.loads(line)
            fields = {k: str(data[k]) for k in ("id", "date", "kind", "rule", "subject", "category", "old", "new")}
            sources = tuple(str(s) for s in data["sources"])
            reversed_by = str(data["reversed_by"]) if data.get("reversed_by") else None
            events.append(Event(**fields, sources=sources, reversed_by=reversed_by))
        except (ValueError, KeyError, TypeError):
            continue
    return events
