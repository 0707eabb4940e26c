"""Consolidation: fact candidates in, one current truth per subject out, with an audit trail. Pure.

1. Each candidate is analysed: its terms (non-generic word stems, numbers kept whole), its
   entities (names, numbers, technical tokens) and, when it states a change ("switched from X
   to Y", "no more X", "(was X)"), the terms of the value it replaces.
2. Two candidates are linked when they share at least two entities or their similarity is at
   least 0.75 (lexical cosine over terms by default, or a similarity function given by the
   caller, e.g. embeddings), and also when they carry the same subject key or one names the
   other's value as replaced. Linked candidates whose names are disjoint ("Kestrel" vs "Heron")
   are never linked by similarity alone. Union-find groups them, strongest links first, and
   never lets a cluster grow past 20 members.
3. Each cluster is replayed in date order, then source order. A day's candidates first merge
   among themselves; then each claim meets the subject it is about (its best link among the
   cluster's current values, if any):
   - redundant (similarity >= 0.90 and the same core entities): merged; the most complete
     wording is the base, entities and sources are united, corroboration counts add, and the
     confidence rises (noisy-or);
   - a consistent restatement that adds nothing new corroborates the current value;
   - a contradiction is resolved by recency, then confidence, then corroboration, then order
     (the later statement); the loser goes into the subject's history with the date it stopped
     being true and why.
4. Every merge, corroboration, supersession and resolution is an Event whose id is a hash of
   what it decided (its kind, subject, and the first statements of both sides), so it survives
   unrelated rebuilds. An event listed in `reversed` takes the other branch: an undone merge
   leaves the candidate on a subject of its own, an undone supersession keeps the old value
   current, an undone resolution lets the newcomer win.

Every ordering here is total (dates, natural source order, then text), so the same candidates
give the same facts and events in any input order.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .summary import FactCandidate
from .text import STOPWORDS, WORD, fold, stem, word_form
from .topics import is_generic

LINK_SIMILARITY = 0.75
MERGE_SIMILARITY = 0.90
MAX_CLUSTER = 20
MAX_POSTING = 400  # a term shared by more candidates than this is too common to suggest a link
CATEGORIES = ("preference", "constraint", "decision", "domain_fact", "entity", "failure_pattern")

Similarity = Callable[[str, str], float]

# ---------------------------------------------------------------- what a fact says

_NAME_WORD = r"[A-Z][\w'’.-]*"
_NAME = (
    r"(?-i:(?!(?:I|I'm|I've|My|We|Our|The|This|That|It|You|They|He|She)\b)"
    + _NAME_WORD
    + r"(?:\s+"
    + _NAME_WORD
    + r"){0,2})"
)
CHANGE_VERB = (
    r"(?:switch|mov|migrat|chang|shift|bump|upgrad|downgrad|rais|lower|increas|decreas|reduc|transition|port|"
    r"push|pull|updat|replac|swap|went|gone|go|goes|going|hand)\w*"
)
# What a change statement looks like, tried in this order (the first that matches wins): groups
# o (the value replaced), v (the new value), s (what changed). Forms that name the old value come first.
_CHANGE_FORMS = (
    r"\b" + CHANGE_VERB + r"\b.*?(?:\bfrom\s+|,\s+)(?P<o>.+?)\s+(?:to|->|→|onto|into|over to)\s+(?P<v>.+)",
    r"\b" + CHANGE_VERB + r"\b.*?\bto\s+(?P<v>.+?)\s+from\s+(?P<o>.+)",
    r"\boff\s+(?P<o>[^,;]+?)\s+(?:and\s+)?(?:onto|to|into)\s+(?P<v>.+)",
    r"\b(?:dropping|ditching|dropped|ditched|forget|forget about|scrap|scrapped|abandon(?:ed|ing)?)\s+(?P<o>[^,;]+?)"
    r"[,;]\s*(?:(?:we'?re\s+|i'?m\s+)?(?:going for|switching to|moving to|now|from now on|going forward)\b)\s*(?P<v>.*)",
    r"\b(?P<v>[^,;:]+)\s+instead of\s+(?P<o>.+?)(?:\s+please)?$",
    r"\bno more\s+(?P<o>.+?)(?:\s+for\s+(?:me|us))?,\s+(?:it'?s\s+|now\s+)?(?P<v>.+)",
    r"\bnot\s+(?:that\s+)?(?P<o>[^,;]+?)[,;]?\s+(?:but|it'?s)\s+(?:that\s+)?(?P<v>.+)",
    r"\((?:it\s+|that\s+)?(?:was|previously|formerly|used to be)\s+(?P<o>[^)]+)\)",
    r"\b(?:is|are)\s+off\s+(?P<o>[^,;]+?)(?:\s+as of\s+\w+)?[,;]",
    r"(?:^|,\s*|;\s*|:\s*)(?P<o>[^,;:]+?)\s+(?:is|are)\s+(?:out(?=\s*[,;]\s*\w)|gone|retired|history|deprecated|"
    r"read-only)\b",
    r"\bleft\s+(?P<o>" + _NAME + r")\s*[,;]",
    r"\breplac(?:ed|ing|e)\s+(?P<o>.+?)\s+with\s+(?P<v>.+)",
    r"\b(?P<o>" + _NAME + r")\s+handed\s+(?P<s>.+?)\s+(?:over\s+)?to\s+(?P<v>.+)",
    r"\bno longer\s+(?:uses?|runs? on|on|in|with|using)?\s*(?P<o>[^,;]+)",
    r"\bnot\s+(?P<o>[^,;]+?)\s+any\s?more\b",
    r"\btook over\s+(?P<s>.+?)\s+from\s+(?P<o>.+)",
    # changes that do not say what they replace
    r"\b(?:we|i)(?:'ve|'re|\s+have|\s+are)?\s+(?:just\s+|finally\s+)?(?:switch|mov|migrat|upgrad|bump|rais|lower|"
    r"chang|shift|transition)\w*\s+(?P<s>[^,;]+?)\s+(?:over\s+)?to\s+(?P<v>.+)",
    r"^(?:upgraded|bumped|migrated|moved|switched|raised|lowered)\s+(?P<s>[^,;]+?)\s+to\s+(?P<v>.+)",
    r"^(?P<s>(?:the\s+)?[\w.' -]{2,40}?)\s+(?:is|are)\s+now\s+(?:at|on|in|using|running)\s+(?P<v>.+)",
)
CHANGE_PATTERNS = tuple(re.compile(form, re.IGNORECASE) for form in _CHANGE_FORMS)


@dataclass(frozen=True)
class Change:
    """What a change statement says: the value it replaces (may be empty), the new one, what changed."""

    old: str
    new: str
    subject: str
    start: int  # where the change is stated in the text


def change_of(text: str) -> Change | None:
    for pattern in CHANGE_PATTERNS:
        match = pattern.search(text)
        if match is not None:
            groups = match.groupdict()
            return Change(groups.get("o") or "", groups.get("v") or "", groups.get("s") or "", match.start())
    return None


# words that only say that something changed: they never make two statements disagree
CHANGE_WORDS = frozenset(
    stem(word_form(w))
    for w in (
        "switched switch moved move moves moving migrated migrating changed shifted bumped upgraded raised lowered "
        "replaced now anymore longer instead new rule out gone off left dropping going starting today tomorrow "
        "cycle next actually forget read-only delete until"
    ).split()
)
# number words are values: "two weeks" and "three weeks" disagree
NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred "
    "first second third fourth fifth once twice".split()
)
# the new value of a change that does not say "to Y": "X is out, Atlas now builds on Y", "going for Y"
NEW_VALUE = re.compile(
    r"\bnow\s+(?:\w+\s+){0,2}?(?:on|in|to|at|with|uses?|using|is|are)\s+(?P<v>[^,;]+)"
    r"|\b(?:going for|switching to|moving to|it'?s|everything runs on|runs on|lives in)\s+(?P<v2>[^,;]+?)(?:\s+now)?$",
    re.IGNORECASE,
)
_VALUE = re.compile(r"\$?\d[\d,.:]*\d%?(?:\s?(?:am|pm))?|\$?\d%?(?:\s?(?:am|pm))?", re.IGNORECASE)
_SPEAKER = re.compile(r"^[\w.-]{1,40}:\s+")


def plain_text(fact: str) -> str:
    """A fact without the "speaker: " that quotes a first-person statement."""
    return _SPEAKER.sub("", fact, count=1)


def _is_value(token: str) -> bool:
    return token[:1].isdigit() or token[:1] == "$"


def terms_of(text: str) -> frozenset[str]:
    """What a sentence is about, for similarity: non-generic stems, and numbers, times, money whole."""
    found: set[str] = set()
    for value in _VALUE.findall(text):
        found.add(value.lower().replace(" ", "").rstrip(".,"))
    for match in WORD.finditer(text):
        token = re.sub(r"['’]s$", "", match.group())
        if token[:1].isdigit():
            continue
        pieces = [token, *re.split(r"[.'’_-]", token)] if re.search(r"[.'’_-]", token) else [token]
        for piece in pieces:
            if fold(piece) in NUMBER_WORDS:
                found.add(fold(piece))
                continue
            if not piece or fold(piece) in STOPWORDS or piece.lower() in ("s", "t"):
                continue
            form = word_form(piece)
            if is_generic(form) and not (piece.isupper() and len(piece) >= 2):
                continue
            found.add(stem(form))
    return frozenset(found)


def _name_start(token: str) -> bool:
    """A capitalized first word names something unless it is an ordinary word ("Bumped", "Dropping")."""
    form = word_form(token)
    return not is_generic(form) and not form.endswith(("ed", "ing", "ly"))


def entities_of(text: str) -> frozenset[str]:
    return _names(text)[0]


def _names(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(entities, name words) of a text.

    Entities: names (runs of capitalized words), technical tokens and values, each one lowercase
    string. Name words: every capitalized word that is not generic English, acronym or technical
    token, calendar words left out; a sentence's first word only when it does not look like an
    ordinary word ("Bumped", "Dropping").
    """
    found: set[str] = set()
    loose: set[str] = set()
    for value in _VALUE.findall(text):
        found.add(value.lower().replace(" ", "").rstrip(".,"))
    run: list[str] = []
    start = 0  # where the current sentence or clause starts: its first word is capitalized anyway
    for match in WORD.finditer(text):
        token = match.group()
        first = not text[start : match.start()].strip()
        bare = re.sub(r"['’]s$", "", token)
        technical = bool(re.search(r"\w[._-]\w", bare)) and not _is_value(bare)
        acronym = len(bare) >= 2 and bare.isupper() and bare.isalpha()
        capitalized = bare[:1].isupper() and fold(bare) not in STOPWORDS
        form = bare.lower() if technical else word_form(bare)
        if technical:
            found.add(form)
        named = capitalized and not is_generic(form) and (not first or _name_start(bare))
        if (technical or acronym or named) and form not in CALENDAR:
            loose.add(form)
        if (capitalized and (not first or _name_start(bare))) or acronym:
            run.append(form)
            if bare != token:  # "Quillstone Media's limit": the possessive ends the name
                found.add(" ".join(run))
                run = []
        elif run:
            found.add(" ".join(run))
            run = []
        if re.search(r"[.:;!?]\s*$", text[match.end() : match.end() + 2]):
            if run:
                found.add(" ".join(run))
                run = []
            start = match.end() + 1
    if run:
        found.add(" ".join(run))
    return frozenset(found), frozenset(loose)


# calendar words are values ("Friday", "March"), never what a statement is about
CALENDAR = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august "
    "september october november december".split()
)


def names_of(entities: Iterable[str]) -> frozenset[str]:
    return frozenset(e for e in entities if not _is_value(e) and e not in CALENDAR)


def words_of(text: str) -> frozenset[str]:
    """Every content word's stem, generic ones too, and values whole: what an old value is matched on."""
    found = {v.lower().replace(" ", "").rstrip(".,") for v in _VALUE.findall(text)}
    for match in WORD.finditer(text):
        for piece in re.split(r"[.'’_-]", re.sub(r"['’]s$", "", match.group())):
            if fold(piece) in NUMBER_WORDS:
                found.add(fold(piece))
            elif piece and not piece[:1].isdigit() and fold(piece) not in STOPWORDS and len(piece) > 1:
                found.add(stem(word_form(piece)))
    return frozenset(found)


@dataclass(frozen=True)
class Analysis:
    terms: frozenset[str]  # non-generic stems and values: what similarity and disagreement look at
    words: frozenset[str]  # all content stems and values
    entities: frozenset[str]
    names: frozenset[str]  # name words (see _names)
    old: frozenset[str]  # words of the value a change statement replaces
    old_terms: frozenset[str]  # its specific words (names, values, non-generic words)
    old_entities: frozenset[str]
    new: frozenset[str]  # words of the value it introduces, when it says
    change: bool

    def merged(self, other: Analysis) -> Analysis:
        return Analysis(
            self.terms | other.terms,
            self.words | other.words,
            self.entities | other.entities,
            self.names | other.names,
            self.old,
            self.old_terms,
            self.old_entities,
            self.new,
            self.change,
        )


def analyse(text: str) -> Analysis:
    body = plain_text(text)
    change = change_of(body)
    old_text = new_text = ""
    if change is not None:
        old_text, new_text = change.old, change.new
        if not new_text:
            later = NEW_VALUE.search(body, change.start)
            new_text = " ".join(v for v in later.groups() if v) if later else ""
    entities, names = _names(body)
    old_names = _names(old_text)[1] if old_text else frozenset()
    return Analysis(
        terms_of(body),
        words_of(body),
        entities,
        names - old_names,
        words_of(old_text) if old_text else frozenset(),
        terms_of(old_text) | (words_of(old_text) & (CALENDAR | NUMBER_WORDS)) if old_text else frozenset(),
        entities_of(old_text) if old_text else frozenset(),
        words_of(new_text) if new_text else frozenset(),
        change is not None,
    )


def lexical_similarity(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))


# ---------------------------------------------------------------- the results


@dataclass(frozen=True)
class Version:
    """One value a subject had: the current one, or one in its history (with until/why/event)."""

    fact: str
    valid_from: str
    confidence: float
    seen: int
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
    date: str
    kind: str  # merge | corroborate | supersede | keep
    rule: str
    subject: str
    category: str
    old: str
    new: str
    sources: tuple[str, ...]
    reversed_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "date": self.date,
            "kind": self.kind,
            "rule": self.rule,
            "subject": self.subject,
            "category": self.category,
            "old": self.old,
            "new": self.new,
            "sources": list(self.sources),
            "reversed_by": self.reversed_by,
        }


@dataclass(frozen=True)
class Outcome:
    facts: tuple[Fact, ...]  # by category, then subject
    events: tuple[Event, ...]  # in replay order
    candidates: int
    clusters: int
    absorbed: dict[int, str]  # candidate position (in `ordered`) -> the subject that holds it
    ordered: tuple[FactCandidate, ...]

    def count(self, kind: str) -> int:
        return sum(1 for e in self.events if e.kind == kind and e.reversed_by is None)


# ---------------------------------------------------------------- the working state


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", text) if p)


def candidate_order(c: FactCandidate) -> tuple[Any, ...]:
    """Date, then the natural order of the first source (conv-2 before conv-10), then the text."""
    return (
        c.valid_from,
        natural_key(c.sources[0]) if c.sources else (),
        c.subject,
        c.fact,
        c.category,
        -c.confidence,
        c.sources,
    )


def _event_id(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()[:12]


def _noisy_or(a: float, b: float) -> float:
    return round(min(0.99, 1 - (1 - a) * (1 - b)), 2)


@dataclass
class _Claim:
    """A statement as consolidation sees it: one candidate, or several merged."""

    fact: str
    category: str
    subject: str
    valid_from: str
    last_seen: str
    confidence: float
    seen: int
    sources: list[str]
    info: Analysis
    origin: str  # the first candidate's text and sources: the claim's identity in event ids
    members: list[int]  # positions of the candidates it holds

    @property
    def names(self) -> frozenset[str]:
        return names_of(self.info.entities)


    def version(self, until: str | None = None, why: str | None = None, event: str | None = None) -> Version:
        return Version(self.fact, self.valid_from, self.confidence, self.seen, tuple(self.sources), until, why, event)


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

    # ------------------------------------------------------------ comparing two statements

    def sim(self, a: _Claim, b: _Claim) -> float:
        if self.similarity is not None:
            return self.similarity(plain_text(a.fact), plain_text(b.fact))
        return lexical_similarity(a.info.terms, b.info.terms)

    def link(self, a: _Claim, b: _Claim, directed: bool = False) -> int:
        """How surely two statements are about one subject: 0 (not) .. 4 (the same subject key).

        directed: b is the newer statement, and only b may name a's value as replaced.
        """
        if a.subject == b.subject and "_" in a.subject:
            return 4  # a one-word key ("kestrel") says too little: the other rules decide
        if a.info.names and b.info.names and not (mentions(a.info, b.info) or mentions(b.info, a.info)):
            return 0  # about different named things ("Kestrel", "Heron"), however alike the wording
        if names_old(a.info, b.info) or (not directed and names_old(b.info, a.info)):
            return 3
        if len(a.info.entities & b.info.entities) >= 2:
            return 2
        return 1 if self.sim(a, b) >= LINK_SIMILARITY else 0

    def relate(self, current: _Claim, new: _Claim) -> tuple[str, str]:
        """(merge | corroborate | contradict, why) for a statement about current's subject."""
        if names_old(current.info, new.info):
            value = current.info.new or current.info.words - current.info.old
            fresh = (new.info.new or new.info.terms - new.info.old) - value - CHANGE_WORDS
            if fresh:
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

    # ------------------------------------------------------------ the run

    def run(self, candidates: Iterable[FactCandidate]) -> Outcome:
        ordered = tuple(sorted(candidates, key=candidate_order))
        cache: dict[str, Analysis] = {}
        claims = []
        for position, c in enumerate(ordered):
            info = cache.get(c.fact) or cache.setdefault(c.fact, analyse(c.fact))
            category = c.category if c.category in CATEGORIES else "domain_fact"
            origin = json.dumps([c.fact, list(c.sources)], ensure_ascii=False)
            claims.append(
                _Claim(
                    c.fact,
                    category,
                    c.subject,
                    c.valid_from,
                    c.valid_from,
                    c.confidence,
                    1,
                    list(c.sources),
                    info,
                    origin,
                    [position],
                )
            )
        clusters = self._clusters(claims)
        entries: list[_Entry] = []
        for cluster in clusters:
            entries.extend(self._replay([claims[i] for i in cluster], len(entries)))
        facts, absorbed = self._finish(entries)
        events = sorted(self.events, key=lambda e: (e.date, e.subject, e.kind, e.id))
        return Outcome(facts, tuple(events), len(ordered), len(clusters), absorbed, ordered)

    def _clusters(self, claims: Sequence[_Claim]) -> list[list[int]]:
        """Union-find over linked claims, strongest links first, no cluster above MAX_CLUSTER."""
        postings: dict[str, list[int]] = defaultdict(list)
        for i, claim in enumerate(claims):
            keys = {f"s:{claim.subject}", *(f"t:{t}" for t in claim.info.terms), *(f"w:{w}" for w in claim.info.words)}
            for key in keys:
                postings[key].append(i)
        pairs: set[tuple[int, int]] = set()
        for key in sorted(postings):
            members = postings[key]
            if len(members) > MAX_POSTING and not key.startswith("s:"):
                continue
            for x, i in enumerate(members):
                pairs.update((i, j) for j in members[x + 1 :])
        edges = []
        for i, j in sorted(pairs):
            strength = self.link(claims[i], claims[j])
            if strength:
                edges.append((-strength, i, j))
        edges.sort()
        parent = list(range(len(claims)))
        size = [1] * len(claims)

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for _, i, j in edges:
            a, b = find(i), find(j)
            if a == b or size[a] + size[b] > MAX_CLUSTER:
                continue
            a, b = min(a, b), max(a, b)
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
            for group in self._same_day(days[day]):
                ranked = sorted(
                    (
                        (
                            self.link(entry.current, group, directed=True),
                            len(entry.current.info.names & group.info.names),
                            self.sim(entry.current, group),
                            -n,
                        )
                        for n, entry in enumerate(entries)
                    ),
                    reverse=True,
                )
                if ranked and ranked[0][0] and self._meet(entries[-ranked[0][3]], group):
                    continue
                entry = _Entry(group.subject, group.category, group, created + len(entries))
                entry.members.extend(group.members)
                entries.append(entry)
        return entries

    def _same_day(self, claims: list[_Claim]) -> list[_Claim]:
        """A day's statements, the redundant and consistent ones merged (contradictions stay apart)."""
        groups: list[_Claim] = []
        for claim in claims:
            for group in groups:
                if not self.link(group, claim, directed=True):
                    continue
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
        """Merges claim into `into`; False when that event was undone (claim then stands alone)."""
        kind = "merge" if relation == "merge" else "corroborate"
        if self._event(kind, rule, subject, category, into, claim).reversed_by is not None:
            return False
        if kind == "merge":
            if (len(claim.info.terms), len(claim.fact)) > (len(into.info.terms), len(into.fact)):
                into.fact = claim.fact  # the most complete wording is the base
            into.info = into.info.merged(claim.info)
        into.seen += claim.seen
        into.confidence = _noisy_or(into.confidence, claim.confidence)
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
            winner, rule = "new", "recency"
        elif claim.confidence != current.confidence:
            winner, rule = ("new" if claim.confidence > current.confidence else "current"), "confidence"
        elif claim.seen != current.seen:
            winner, rule = ("new" if claim.seen > current.seen else "current"), "corroboration"
        else:
            winner, rule = "new", "order"
        kind = "supersede" if winner == "new" else "keep"
        event = self._event(kind, rule, entry.subject, entry.category, current, claim)
        if event.reversed_by is not None:
            winner = "current" if winner == "new" else "new"
            why = f"undone: {event.reversed_by}"
        else:
            why = f"superseded: {rule}" if winner == "new" else f"outweighed: {rule}"
        if winner == "new":
            entry.history.insert(0, current.version(claim.valid_from, why, event.id))
            entry.current = claim
        else:
            entry.history.insert(0, claim.version(claim.valid_from, why, event.id))
        entry.members.extend(claim.members)
        return True

    def _event(self, kind: str, rule: str, subject: str, category: str, current: _Claim, new: _Claim) -> Event:
        identity = _event_id(kind, subject, current.origin, new.origin)
        event = Event(
            identity,
            new.valid_from,
            kind,
            rule,
            subject,
            category,
            current.fact,
            new.fact,
            tuple(dict.fromkeys([*current.sources, *new.sources])),
            self.reversed.get(identity),
        )
        self.events.append(event)
        return event

    def _finish(self, entries: list[_Entry]) -> tuple[tuple[Fact, ...], dict[int, str]]:
        """Facts with unique subjects (a repeated one gets _2, _3... in order of creation)."""
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


def mentions(a: Analysis, b: Analysis) -> bool:
    """b names one of a's names somewhere (capitalized or not: "event-bus", "the data standup")."""
    for name in a.names:
        parts = [stem(word_form(p)) for p in re.split(r"[.\s_-]+", name) if p]
        if name in b.names or (parts and all(p in b.words for p in parts)):
            return True
    return False


def names_old(current: Analysis, new: Analysis) -> bool:
    """new says it replaces current's value ("switched from <what current says> to ...").

    A specific old value ("Drone", "a 25-minute 5K") is enough; a generic one ("the short answer")
    also needs the two statements to share what they are about, unless new says nothing else.
    """
    if not new.old or not new.old <= current.words:
        return False
    about = new.terms - new.old - CHANGE_WORDS  # what new is about, and its new value
    return bool(new.old_terms) or not (about - new.new) or bool(about & current.terms)


def consolidate(
    candidates: Iterable[FactCandidate],
    reversed_events: Mapping[str, str] | None = None,
    similarity: Similarity | None = None,
) -> Outcome:
    """The store's content from every candidate: see the module docstring."""
    return Consolidator(reversed_events, similarity).run(candidates)


# ---------------------------------------------------------------- the files (pure: text in, text out)

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
    r"^(?P<indent>\s*)- (?:\*\*Now\*\*|Until (?P<until>\d{4}-\d\d-\d\d)): (?P<fact>.*) "
    r"\((?P<meta>[^()]*)\) \[(?P<sources>[^\]]*)\]$"
)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _meta(version: Version) -> str:
    parts = [f"since {version.valid_from}", f"confidence {version.confidence:g}", f"seen {version.seen}"]
    if version.why:
        parts.append(version.why.replace("(", "").replace(")", ""))
    if version.event:
        parts.append(f"event {version.event}")
    return " · ".join(parts)


def render_category(category: str, facts: Sequence[Fact]) -> str:
    """facts/<category>.md: one section per subject, the current value on top, then the history."""
    lines = [f"# {TITLES.get(category, category)}", "", NOTE, ""]
    for f in sorted(facts, key=lambda f: f.subject):
        lines.append(f"## {f.subject}")
        current = f.current
        lines.append(f"- **Now**: {_one_line(current.fact)} ({_meta(current)}) [{', '.join(current.sources)}]")
        for version in f.history:
            lines.append(
                f"  - Until {version.valid_until}: {_one_line(version.fact)} ({_meta(version)}) "
                f"[{', '.join(version.sources)}]"
            )
        lines.append("")
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
        return Version(
            match.group("fact"),
            meta["since"],
            float(meta["confidence"]),
            int(meta["seen"]),
            tuple(s for s in match.group("sources").split(", ") if s),
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

    def flush() -> None:
        if subject is not None and current is not None:
            facts.append(Fact(subject, category, current, tuple(history)))

    for line in text.splitlines():
        if line.startswith("## "):
            flush()
            subject, current, history = line[3:].strip(), None, []
            continue
        match = _LINE.match(line)
        if match is None or subject is None:
            continue
        version = _version(match)
        if version is None:
            continue
        if match.group("until") is None:
            current = version
        elif current is not None:
            history.append(version)
    flush()
    return facts


def render_audit(events: Sequence[Event]) -> str:
    return "".join(json.dumps(e.to_json(), ensure_ascii=False) + "\n" for e in events)


def parse_audit(text: str) -> list[Event]:
    events = []
    for line in text.splitlines():
        try:
            data = json.loads(line)
            events.append(
                Event(
                    str(data["id"]),
                    str(data["date"]),
                    str(data["kind"]),
                    str(data["rule"]),
                    str(data["subject"]),
                    str(data["category"]),
                    str(data["old"]),
                    str(data["new"]),
                    tuple(str(s) for s in data["sources"]),
                    data.get("reversed_by"),
                )
            )
        except (ValueError, KeyError, TypeError):
            continue
    return events
