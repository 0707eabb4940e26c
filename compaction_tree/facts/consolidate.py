"""Consolidation: fact candidates in, one current truth per subject out, with an audit trail. Pure.

Structure only: no English is read here (reading is the extractor's or the model's job). What a
candidate brings is its subject key, its value (what it says of the subject, when known), what it
says it replaces (a subject and an old value), its date, confidence and sources.

1. Aliases. Union-find groups the subject keys that name one thing: a candidate replacing a value
   of another key links the two keys; so do two candidates sharing at least two entities (tokens
   written as names, numbers or technical terms: "PostgreSQL", "16", "fly.io") or with a token
   cosine of at least 0.75 (or the caller's similarity, such as embeddings). Strongest links first;
   no cluster grows past MAX_CLUSTER keys. A cluster is one subject.
2. Replay. A cluster's candidates are replayed in date order, then source order. Each meets the
   subject's current value:
   - the same value (equal values, or equal or near-identical statements when no value is given)
     merges into it: sources unite, corroboration counts add, the confidence rises (noisy-or,
     capped at 0.99);
   - a statement that names the current value as the one it replaces supersedes it;
   - another value supersedes it when it is later (recency); on the same day, the surer statement
     wins, then the more corroborated, then the later one. The loser goes into the history with
     the date it stopped being true and the rule.
   A change told in passing (change_only) is a fact only as the change of a subject already held;
   a statement too unsure by itself (replaced_only) only as a value a later one supersedes.
3. Every merge, supersession and resolution is an Event whose id hashes what it decided (kind,
   subject, and the first statement of each side), so it survives unrelated rebuilds. An event
   listed in `reversed` takes the other branch: an undone merge leaves the candidate on a subject
   of its own, an undone supersession keeps the old value current.

A cluster's outcome depends on its own candidates and the reversals alone, so a caller may keep
the outcomes of clusters that did not change (store.py does: a run costs what changed). Every
ordering is total and no set order reaches the output: the same candidates give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..summary import FactCandidate
from ..text import fold
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

LINK_SIMILARITY = 0.75
MERGE_SIMILARITY = 0.90
MIN_SHARED_ENTITIES = 2
MAX_CLUSTER = 20  # subject keys in one cluster
MAX_POSTING = 80  # a token shared by more subjects than this is too common to suggest a link

Similarity = Callable[[str, str], float]  # (fact text, fact text) -> 0..1

_LABEL = re.compile(r"^[\w.-]{1,40}:\s+")  # "user: ", the speaker a statement is quoted with
_TOKEN = re.compile(r"\w+(?:[.'’_+#/,-]\w+)*", re.UNICODE)


@dataclass(frozen=True)
class Outcome:
    facts: tuple[Fact, ...]  # by category, then subject
    events: tuple[Event, ...]  # by date
    clusters: int
    ordered: tuple[FactCandidate, ...]  # the candidates, in replay order
    absorbed: Mapping[int, str]  # position in `ordered` -> the subject holding it (current or history)

    def count(self, kind: str) -> int:
        return sum(1 for e in self.events if e.kind == kind and e.reversed_by is None)


# ---------------------------------------------------------------- the shape of a statement


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", text) if p)


def candidate_order(c: FactCandidate) -> tuple[Any, ...]:
    """Date, then the natural order of the first source (conv-2 before conv-10), then the rest."""
    first = natural_key(c.sources[0]) if c.sources else ()
    return (c.valid_from, first, c.subject, c.fact, c.category, -c.confidence, c.sources)


def plain(text: str) -> str:
    """The statement without the speaker label it may be quoted with."""
    label = _LABEL.match(text)
    return text[label.end() :] if label and text[label.end() :].strip() else text


@lru_cache(maxsize=65536)
def tokens_of(text: str) -> frozenset[str]:
    return frozenset(fold(t) for t in _TOKEN.findall(plain(text)))


@lru_cache(maxsize=65536)
def entities_of(text: str) -> frozenset[str]:
    """Names, numbers and technical terms, by shape alone (any language): a run of capitalized words is one name
    ("Stripe Connect", "Grafana Loki"), a sentence's capitalized first word is no part of one ("We", "The"; "Our
    Heroku dyno" names Heroku);
    a token with a digit or inner punctuation is one ("16", "fly.io", "pg_dump")."""
    found: set[str] = set()
    run: list[str] = []
    run_opens_sentence = False

    def close() -> None:
        name = run[1:] if run_opens_sentence else run  # "Our Heroku dyno": Heroku, whatever opened the sentence
        if name:
            found.add(fold(" ".join(name)))
        run.clear()

    body = plain(text)
    previous_end = 0
    for match in _TOKEN.finditer(body):
        gap = body[previous_end : match.start()]
        if gap.strip():
            close()  # a name does not run across punctuation
        opens = previous_end == 0 or gap.strip()[-1:] in (".", "!", "?", ":")
        previous_end = match.end()
        token = re.split(r"['’]", match.group())[0]  # "Priya's" is Priya, "I'm" is I
        if any(ch.isdigit() for ch in token) or any(ch in "._+#/,-" for ch in token):
            close()
            found.add(fold(token))
        elif len(token) > 1 and (token[0].isupper() or any(ch.isupper() for ch in token[1:])):
            if not run:
                run_opens_sentence = opens
            run.append(token)
        else:
            close()
    close()
    return frozenset(found)


def cosine(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / math.sqrt(len(a) * len(b)) if a and b else 0.0


def same_value(a: str, b: str) -> bool:
    return " ".join(fold(a).split()).strip(" .") == " ".join(fold(b).split()).strip(" .")


def _noisy_or(a: float, b: float) -> float:
    return round(min(0.99, 1 - (1 - a) * (1 - b)), 2)


# ---------------------------------------------------------------- the replay


@dataclass
class _Claim:
    """A statement during the replay: one candidate, or several merged."""

    candidate: FactCandidate
    fact: str
    value: str
    valid_from: str
    last_seen: str
    confidence: float  # rises with corroboration (what the store shows)
    seen: int
    sources: list[str]
    own: float  # the surest single statement's confidence: what a contradiction compares
    origin: str  # the first candidate's text and sources: the claim's identity in event ids
    members: list[int]  # positions of the candidates it holds
    unsure: bool  # replaced-only statements alone: a fact only once a later value replaces it

    def version(self, until: str | None = None, why: str | None = None, event: str | None = None) -> Version:
        return Version(self.fact, self.valid_from, self.confidence, self.seen, tuple(self.sources), until, why, event)


@dataclass
class _Entry:
    """A subject during the replay: its current claim, its history, every candidate it holds."""

    subject: str
    category: str
    current: _Claim
    history: list[Version] = field(default_factory=list)
    members: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class ClusterOutcome:
    """One cluster's replay: its entries as (subject, category, current, history, members), and its events.
    Members are positions within the cluster, so that the outcome does not depend on the other clusters."""

    entries: tuple[tuple[str, str, Version, tuple[Version, ...], tuple[int, ...]], ...]
    events: tuple[Event, ...]


def _claim(c: FactCandidate, n: int) -> _Claim:
    return _Claim(
        candidate=c,
        fact=c.fact,
        value=c.value,
        valid_from=c.valid_from,
        last_seen=c.valid_from,
        confidence=c.confidence,
        seen=1,
        sources=list(c.sources),
        own=c.confidence,
        origin=json.dumps([c.fact, list(c.sources)], ensure_ascii=False),
        members=[n],
        unsure=c.replaced_only,
    )


class _Replay:
    """One cluster's candidates (in replay order) replayed into subjects and events."""

    def __init__(self, reversed_events: Mapping[str, str], similarity: Similarity | None) -> None:
        self.reversed = reversed_events
        self.similarity = similarity
        self.events: list[Event] = []

    def sim(self, a: str, b: str) -> float:
        if self.similarity is not None:
            return self.similarity(plain(a), plain(b))
        return cosine(tokens_of(a), tokens_of(b))

    def run(self, candidates: Sequence[FactCandidate]) -> ClusterOutcome:
        entries: list[_Entry] = []
        for claim in self._same_days(candidates):
            c = claim.candidate
            entry = self._entry_for(entries, c)
            if entry is None or not self._meet(entry, claim):
                if c.change_only:
                    continue  # a change told in passing of no subject held here: no fact by itself
                entry = _Entry(c.subject, c.category if c.category in CATEGORIES else "domain_fact", claim)
                entry.members.extend(claim.members)
                entries.append(entry)
        return ClusterOutcome(
            tuple(
                (e.subject, e.category, e.current.version(), tuple(e.history), tuple(e.members))
                for e in entries
                if not e.current.unsure  # an unsure value no later one replaced: no fact
            ),
            tuple(self.events),
        )

    def _same_days(self, candidates: Sequence[FactCandidate]) -> list[_Claim]:
        """Each day's statements with those of one value merged, in order: a day's majority is then one claim
        (what a contradiction on the same day weighs), not the last word of the day."""
        claims: list[_Claim] = []
        for n, c in enumerate(candidates):
            claim = _claim(c, n)
            for group in (g for g in claims if g.valid_from == c.valid_from and g.candidate.subject == c.subject):
                relation, rule = self.relation(group, claim)
                if relation == "merge" and not claim.candidate.replaces:
                    kind = "merge" if rule != "the same value" or same_value(group.fact, claim.fact) else "corroborate"
                    if self._event(kind, rule, c.subject, c.category, group, claim).reversed_by is None:
                        self._absorb(group, claim)
                        group.members.extend(claim.members)
                        break
            else:
                claims.append(claim)
        return claims

    @staticmethod
    def _entry_for(entries: list[_Entry], c: FactCandidate) -> _Entry | None:
        """The subject a statement is about: its own key, else the key it replaces, else the cluster's first."""
        for wanted in (c.subject, c.replaces[0] if c.replaces else None):
            found = next((e for e in entries if e.subject == wanted), None)
            if found is not None:
                return found
        return entries[0] if entries else None

    def relation(self, current: _Claim, new: _Claim) -> tuple[str, str]:
        """(merge | replace | differ, the rule) for a statement about current's subject."""
        replaces = new.candidate.replaces
        if replaces and replaces[1].strip() and self._holds(current, replaces[1]):
            return "replace", "names the current value as replaced"
        if current.value and new.value:
            return ("merge", "the same value") if same_value(current.value, new.value) else ("differ", "")
        if same_value(current.fact, new.fact):
            return "merge", "the same statement"
        similarity = self.sim(current.fact, new.fact)
        if similarity >= MERGE_SIMILARITY:
            return "merge", f"near-duplicate (similarity {similarity:.2f})"
        named = entities_of(current.fact)
        if named and named == entities_of(new.fact) and similarity >= LINK_SIMILARITY:
            return "merge", f"near-duplicate (similarity {similarity:.2f}, same entities)"
        return "differ", ""

    @staticmethod
    def _holds(claim: _Claim, value: str) -> bool:
        if claim.value:
            return same_value(claim.value, value)
        said = tokens_of(value)  # its words, whole: "15" is not in "150"
        return bool(said) and said <= tokens_of(claim.fact)

    def _meet(self, entry: _Entry, claim: _Claim) -> bool:
        """Applies claim to entry's subject; False when it must stand alone (its merge was undone)."""
        current = entry.current
        relation, rule = self.relation(current, claim)
        if claim.candidate.replaced_only and relation != "merge":
            return True  # an unsure statement never outweighs a value held: it is dropped
        if relation == "merge":
            # the same words again merge; the same value in other words corroborates it
            kind = "merge" if rule != "the same value" or same_value(current.fact, claim.fact) else "corroborate"
            if self._event(kind, rule, entry.subject, entry.category, current, claim).reversed_by is not None:
                return False
            self._absorb(current, claim)
            entry.members.extend(claim.members)
            return True
        if relation == "replace" or claim.valid_from > current.last_seen:
            new_wins, rule = True, rule or "recency"
        elif claim.own != current.own:  # corroboration is the next step: not counted twice
            new_wins, rule = claim.own > current.own, "confidence"
        elif claim.seen != current.seen:
            new_wins, rule = claim.seen > current.seen, "corroboration"
        else:
            new_wins, rule = True, "order"
        kind = "supersede" if new_wins else "keep"
        event = self._event(kind, rule, entry.subject, entry.category, current, claim)
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

    @staticmethod
    def _absorb(into: _Claim, claim: _Claim) -> None:
        if (len(tokens_of(claim.fact)), len(claim.fact)) > (len(tokens_of(into.fact)), len(into.fact)):
            into.fact = claim.fact  # the most complete wording is the base
        into.value = into.value or claim.value
        into.unsure = into.unsure and claim.unsure
        into.seen += claim.seen
        into.confidence = _noisy_or(into.confidence, claim.confidence)
        into.own = max(into.own, claim.own)
        into.last_seen = max(into.last_seen, claim.last_seen)
        into.sources.extend(s for s in claim.sources if s not in into.sources)

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
            category if category in CATEGORIES else "domain_fact",
            current.fact,
            new.fact,
            sources,
            self.reversed.get(identity),
        )
        self.events.append(event)
        return event


def replay_cluster(
    candidates: Sequence[FactCandidate],
    reversed_events: Mapping[str, str] | None = None,
    similarity: Similarity | None = None,
) -> ClusterOutcome:
    """One cluster's outcome, its candidates given in replay order (candidate_order)."""
    return _Replay(reversed_events or {}, similarity).run(candidates)


# ---------------------------------------------------------------- aliases


def clusters(
    candidates: Sequence[FactCandidate],
    similarity: Similarity | None = None,
    strengths: MutableMapping[str, int] | None = None,
) -> list[list[int]]:
    """Positions of candidates (in replay order), grouped by the union-find of their subject keys. strengths: the
    link strengths of pairs of keys by what their statements are (see _links), kept by a caller between runs."""
    keys = sorted({c.subject for c in candidates})
    position = {k: n for n, k in enumerate(keys)}
    by_key: dict[str, list[FactCandidate]] = defaultdict(list)
    for c in candidates:
        by_key[c.subject].append(c)
    parent = list(range(len(keys)))
    size = [1] * len(keys)

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for _, a, b in sorted(_links(keys, by_key, position, similarity, {} if strengths is None else strengths)):
        ra, rb = sorted((find(a), find(b)))
        if ra != rb and size[ra] + size[rb] <= MAX_CLUSTER:
            parent[rb] = ra
            size[ra] += size[rb]
    groups: dict[int, list[int]] = defaultdict(list)
    for n, c in enumerate(candidates):
        groups[find(position[c.subject])].append(n)
    return sorted(groups.values())


def _links(
    keys: Sequence[str],
    by_key: Mapping[str, Sequence[FactCandidate]],
    position: Mapping[str, int],
    similarity: Similarity | None,
    strengths: MutableMapping[str, int],
) -> set[tuple[int, int, int]]:
    """(-strength, key, key): 3 a replaced value of the other key, 2 shared entities, 1 similar statements.
    The last two depend on the keys' statements alone: `strengths` keeps them by a digest of both sets of texts,
    so that a run compares again only the keys whose statements changed."""
    links: set[tuple[int, int, int]] = set()
    for key in keys:
        for c in by_key[key]:
            other = c.replaces[0] if c.replaces else None
            if other and other != key and other in position:
                a, b = sorted((position[key], position[other]))
                links.add((-3, a, b))
    # candidate pairs from shared tokens (a posting list per token, too common ones skipped)
    postings: dict[str, set[int]] = defaultdict(set)
    for key in keys:
        for token in set().union(*(tokens_of(c.fact) for c in by_key[key])):
            postings[token].add(position[key])
    shared: Counter[tuple[int, int]] = Counter()
    for token in sorted(postings):
        members = sorted(postings[token])
        if len(members) <= MAX_POSTING:
            shared.update((a, b) for x, a in enumerate(members) for b in members[x + 1 :])
    texts = [sorted({c.fact for c in by_key[key]}) for key in keys]
    digests = [hashlib.sha256(json.dumps(t, ensure_ascii=False).encode("utf-8")).hexdigest()[:16] for t in texts]
    for a, b in sorted(shared):
        pair = f"{digests[a]}:{digests[b]}"
        strength = strengths.get(pair)
        if strength is None:
            strength = strengths[pair] = _strength(texts[a], texts[b], similarity)
        if strength:
            links.add((-strength, a, b))
    return links


def _strength(left: Sequence[str], right: Sequence[str], similarity: Similarity | None) -> int:
    best = 0
    for a in left:
        for b in right:
            if len(entities_of(a) & entities_of(b)) >= MIN_SHARED_ENTITIES:
                return 2
            score = similarity(plain(a), plain(b)) if similarity is not None else cosine(tokens_of(a), tokens_of(b))
            if score >= LINK_SIMILARITY:
                best = 1
    return best


# ---------------------------------------------------------------- the whole


def ordered(candidates: Iterable[FactCandidate]) -> tuple[FactCandidate, ...]:
    return tuple(sorted(candidates, key=candidate_order))


def finish(
    ordered_candidates: Sequence[FactCandidate],
    groups: Sequence[Sequence[int]],
    outcomes: Sequence[ClusterOutcome],
) -> Outcome:
    """The store's content from each cluster's outcome: unique subjects (a repeated key gets _2, _3... in
    order of its first statement), facts by category and subject, events by date."""
    pending = []
    for group, outcome in zip(groups, outcomes, strict=True):
        for subject, category, current, history, members in outcome.entries:
            held = tuple(group[m] for m in members)
            pending.append((current.valid_from, min(held), subject, category, current, history, held))
    taken: dict[str, int] = {}
    facts: list[Fact] = []
    absorbed: dict[int, str] = {}
    for _, _, subject, category, current, history, members in sorted(pending, key=lambda p: (p[0], p[1])):
        if subject in taken:
            taken[subject] += 1
            subject = f"{subject}_{taken[subject]}"
        taken.setdefault(subject, 1)
        facts.append(Fact(subject, category, current, history))
        absorbed.update((member, subject) for member in members)
    facts.sort(key=lambda f: (CATEGORIES.index(f.category), f.subject))
    events = sorted((e for o in outcomes for e in o.events), key=lambda e: (e.date, e.subject, e.kind, e.id))
    return Outcome(tuple(facts), tuple(events), len(groups), tuple(ordered_candidates), absorbed)


def clusters_of(candidates: Iterable[FactCandidate], similarity: Similarity | None = None) -> list[list[FactCandidate]]:
    """The union-find clusters a consolidation replays (for inspection and tests), in replay order."""
    found = ordered(candidates)
    return [[found[i] for i in group] for group in clusters(found, similarity)]


def consolidate(
    candidates: Iterable[FactCandidate],
    reversed_events: Mapping[str, str] | None = None,
    similarity: Similarity | None = None,
    replay: Callable[[Sequence[FactCandidate], Similarity | None], ClusterOutcome] | None = None,
    strengths: MutableMapping[str, int] | None = None,
) -> Outcome:
    """The store's content from every candidate (see the module docstring). replay: a cluster's outcome from
    its candidates, for a caller that keeps the outcomes of clusters seen before (default: replay_cluster)."""
    found = ordered(candidates)
    groups = clusters(found, similarity, strengths)

    def fresh(members: Sequence[FactCandidate], similarity: Similarity | None) -> ClusterOutcome:
        return replay_cluster(members, reversed_events, similarity)

    run = replay or fresh
    return finish(found, groups, [run([found[i] for i in group], similarity) for group in groups])
