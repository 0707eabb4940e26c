"""Durable facts: the store in the vault, undo, and the reading API (extraction: extract.py).

A fact is what is true now about one subject (a preference, a constraint, a decision...), not
what happened. Facts come out of the per-day compaction pass as `FactCandidate`s (the cue
extractor, or the LLM's JSON answer) and are kept in each day's line of facts/candidates/
(candidates.py; an older vault's daily summaries hold them in their front matter until its next
compaction). `rebuild_facts` recomputes the store from all of them after every compaction
(consolidate.py), so a late chunk or a forgotten one re-derives everything consistently; the
outcome of each cluster is kept in .memtree/facts-clusters.json, so a run replays only the
clusters its new candidates touch, with the bytes a full rebuild gives.

The store, git-tracked and deterministic (the same candidates give the same bytes):
- facts/<category>.md   one section per subject: the current value, then its history;
- facts/audit.jsonl     every merge, corroboration, supersession and resolution, one a line;
- facts/overrides.yaml  the reversals `undo` recorded, honoured by every rebuild.
The last rebuild's figures and its retrieval check go to .memtree/facts-report.json.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..embeddings import embed_texts, embedding_model
from ..errors import InvalidInputError, VaultFormatError
from ..summary import FactCandidate
from ..text import STOPWORDS, WORD, fold, word_form
from ..topics import BUILTIN_ALIASES, topic_key
from .candidates import candidate_record, month_path, read_days
from .consolidate import (
    CATEGORIES,
    ClusterOutcome,
    Event,
    Fact,
    Outcome,
    Similarity,
    Version,
    consolidate,
    parse_audit,
    parse_category,
    plain,
    render_audit,
    render_category,
    replay_cluster,
)
from .extract import (
    SUBJECT,
    statements_of,
    subject_key,
)
from .provenance import supported
from .remembered import SOURCE_PREFIX as REMEMBERED_SOURCE
from .remembered import Remembered, category_of, combined, ledger

if TYPE_CHECKING:
    from ..index import Index
    from ..vault import Vault


FACTS_DIR = "facts"
AUDIT_FILE = "facts/audit.jsonl"
OVERRIDES_FILE = "facts/overrides.yaml"
REPORT_FILE = ".memtree/facts-report.json"
EMBEDDINGS_FILE = ".memtree/fact-embeddings.json"
CLUSTERS_FILE = ".memtree/facts-clusters.json"
CACHE_VERSION = 3  # raise when consolidate.py decides differently: kept outcomes are then replayed
CHECK_LIMIT = 5  # the retrieval check: a fact must come back among this many for its own subject
STANDING_WORDS = 30  # a standing fact's line in ROOT.md is cut after this many words
# what a reader is unsure of (below 0.7) waits in facts/ until it is said again, which raises it
STANDING_MIN_CONFIDENCE = 0.7
STANDING_ORDER = ("preference", "constraint", "decision", "failure_pattern", "domain_fact", "entity")

# ---------------------------------------------------------------- matching facts to a query


def match_forms(text: str) -> list[str]:
    """Word forms for phrase matching, compounds split (event-bus, event_bus -> event bus)."""
    return [
        word_form(part)
        for token in WORD.findall(text.replace("_", " "))
        for part in re.split(r"[.'’-]", token)
        if part and fold(part) not in STOPWORDS
    ]


def _contains(haystack: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    return any(list(haystack[i : i + n]) == list(phrase) for i in range(len(haystack) - n + 1))


class Matcher:
    """Facts by word form; the subject, the current value and each past value are separate fields."""

    def __init__(self, facts: Iterable[Fact]) -> None:
        self.facts = list(facts)
        self.fields: list[tuple[list[str], list[str], list[list[str]]]] = []
        self.index: dict[str, set[int]] = {}
        for n, f in enumerate(self.facts):
            subject, current = match_forms(f.subject), match_forms(f.current.fact)
            history = [match_forms(v.fact) for v in f.history]
            self.fields.append((subject, current, history))
            for form in {*subject, *current, *(w for h in history for w in h)}:
                self.index.setdefault(form, set()).add(n)

    def match(self, query: str, limit: int | None = None, phrase: bool = True) -> list[Fact]:
        """phrase: the query's words in a row (precise); else all of them anywhere. Best first."""
        scores: dict[int, int] = {}
        for words in {tuple(match_forms(query)), tuple(match_forms(topic_key(query, BUILTIN_ALIASES)))}:
            if not words:
                continue
            for n in set.intersection(*(self.index.get(w, set()) for w in words)):
                subject, current, history = self.fields[n]
                if _contains(subject, words):
                    score = 5
                elif _contains(current, words):
                    score = 4
                elif any(_contains(h, words) for h in history):
                    score = 3
                else:  # all the words, not in a row: the current value's first
                    score = 2 if set(words) <= {*subject, *current} else 1
                if score >= 3 or not phrase:
                    scores[n] = max(scores.get(n, 0), score)
        ranked = sorted(
            scores, key=lambda n: (-scores[n], -self.facts[n].current.seen, -self.facts[n].current.confidence, n)
        )
        return [self.facts[n] for n in ranked[:limit]]


# ---------------------------------------------------------------- reading the store


def category_path(category: str) -> str:
    return f"{FACTS_DIR}/{category}.md"


def load_facts(vault: Vault) -> list[Fact]:
    """The current facts, with their history, as stored (by category, then subject)."""
    facts: list[Fact] = []
    for category in CATEGORIES:
        data = vault.read_bytes(category_path(category))
        if data:
            facts.extend(parse_category(data.decode("utf-8", errors="replace"), category))
    return facts


def get_fact(vault: Vault, subject: str) -> Fact | None:
    """One fact by its subject key ("deploy process" and "deploy-process" mean deploy_process)."""
    wanted = "_".join(re.split(r"[\s_-]+", subject.strip().lower()))
    return next((f for f in load_facts(vault) if f.subject == wanted), None)


def search_facts(vault: Vault, query: str) -> list[Fact]:
    """Facts holding every word of the query (subject, current value or history), best first."""
    return Matcher(load_facts(vault)).match(query, phrase=False)


def facts_matching(vault: Vault, text: str, limit: int = 5) -> list[Fact]:
    """Facts whose subject, value or history holds the query as a phrase of word forms (precise:
    "auth" never matches "author"); subject matches first, then current values, then history."""
    return Matcher(load_facts(vault)).match(text, limit)


def standing_fact_lines(vault: Vault) -> tuple[str, ...]:
    """ROOT.md's "Standing facts": one line per current fact sure enough to stand there, preferences and
    constraints first, then the most corroborated, the most confident and the most recent."""
    facts = sorted(
        (f for f in load_facts(vault) if f.current.confidence >= STANDING_MIN_CONFIDENCE),
        key=lambda f: (
            STANDING_ORDER.index(f.category),
            -f.current.seen,
            -f.current.confidence,
            "".join(chr(0x10FFFF - ord(c)) for c in f.current.valid_from),  # newest first
            f.subject,
        ),
    )
    lines = []
    for f in facts:
        words = f.current.fact.split()
        text = " ".join(words[:STANDING_WORDS]) + (" …" if len(words) > STANDING_WORDS else "")
        lines.append(f"- **{f.subject}**: {text} (since {f.current.valid_from})")
    return tuple(lines)


def audit_events(vault: Vault) -> list[Event]:
    """facts/audit.jsonl, oldest first (what `memtree facts log` shows)."""
    data = vault.read_bytes(AUDIT_FILE)
    return parse_audit(data.decode("utf-8", errors="replace")) if data else []


# ---------------------------------------------------------------- undo


@dataclass(frozen=True)
class Override:
    """One `undo`: it reverses an audit event, or an earlier undo (which restores that event)."""

    id: str
    undo: str  # the event or undo id reversed
    kind: str
    subject: str


def read_overrides(vault: Vault) -> list[Override]:
    data = vault.read_bytes(OVERRIDES_FILE)
    if not data:
        return []
    import yaml

    from ..config import safe_loader, too_nested

    try:
        text = data.decode("utf-8")
        if too_nested(text):
            raise RecursionError
        loaded = yaml.load(text, Loader=safe_loader(yaml, text))  # the C loader segfaults on deep nesting
    except (UnicodeDecodeError, yaml.YAMLError, RecursionError):
        raise VaultFormatError(f"{OVERRIDES_FILE} is unreadable", hint="fix it, or restore it from git") from None
    entries = loaded.get("undo") if isinstance(loaded, dict) else None
    if not isinstance(entries, list):
        raise VaultFormatError(f"{OVERRIDES_FILE}: 'undo' must be a list", hint="fix it, or restore it from git")
    return [
        Override(str(e["id"]), str(e["undo"]), str(e.get("kind", "")), str(e.get("subject", "")))
        for e in entries
        if isinstance(e, dict) and e.get("id") and e.get("undo")
    ]


def active_reversals(overrides: Sequence[Override]) -> dict[str, str]:
    """event id -> the undo reversing it. An undo that was itself undone reverses nothing."""
    cancelled: set[str] = set()
    active: dict[str, str] = {}
    for override in reversed(overrides):  # a later undo can only target an earlier one
        if override.id not in cancelled:
            cancelled.add(override.undo)
            active.setdefault(override.undo, override.id)
    return active


def _write_overrides(vault: Vault, overrides: Sequence[Override]) -> None:
    from ..markdown import dump_yaml

    header = (
        "# Reversed fact events, honoured by every rebuild of facts/ (written by `memtree facts undo ID`).\n"
        "# Undoing an undo id restores its event. Event ids: facts/audit.jsonl.\n"
    )
    vault.write(OVERRIDES_FILE, (header + dump_yaml({"undo": [o.__dict__ for o in overrides]})).encode("utf-8"))


def reverse_event(vault: Vault, event_id: str) -> tuple[str, bool]:
    """Records the reversal of an audit event (or an earlier undo) in facts/overrides.yaml; returns the undo's
    id and whether it is new. Undoing what is already undone writes nothing and returns the undo that did it.
    The caller holds the compaction lock and rebuilds facts/ and ROOT.md after a new one (api.Memory.undo).
    """
    wanted = event_id.strip()
    overrides = read_overrides(vault)
    active = active_reversals(overrides)
    events = {e.id: e for e in audit_events(vault)}
    undos = {o.id: o for o in overrides}
    if wanted not in events and wanted not in undos:
        raise InvalidInputError(
            f"no fact event or undo with id {wanted!r}",
            hint="event ids are in facts/audit.jsonl (`memtree facts log`), undo ids in facts/overrides.yaml",
        )
    if wanted in active:
        return active[wanted], False
    if wanted in undos and wanted not in active.values():  # that undo is already cancelled
        return next(o.id for o in reversed(overrides) if o.undo == wanted), False
    target = events.get(wanted)
    kind, subject = (target.kind, target.subject) if target else ("undo", undos[wanted].subject)
    new_id = "u" + hashlib.sha256(f"{wanted}:{len(overrides)}".encode()).hexdigest()[:11]
    _write_overrides(vault, [*overrides, Override(new_id, wanted, kind, subject)])
    return new_id, True


# ---------------------------------------------------------------- remember


@dataclass(frozen=True)
class RememberResult:
    """What `remember` stored, and whether facts/ and ROOT.md hold it yet (applied: False when a compaction
    held the lock; the next compaction applies it)."""

    id: str
    path: str
    created: bool
    subject: str
    category: str
    fact: str
    applied: bool
    redactions: Mapping[str, int]
    current: Fact | None = None  # the subject's fact after it, when applied

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": self.path,
            "created": self.created,
            "subject": self.subject,
            "category": self.category,
            "fact": self.fact,
            "applied": self.applied,
            "current": self.current.to_json() if self.current else None,
            "redactions": sum(self.redactions.values()),
        }


def store_remembered(
    vault: Vault,
    text: str,
    *,
    subject: str | None = None,
    category: str | None = None,
    timestamp: str | datetime | None = None,
    now: datetime | None = None,
) -> RememberResult:
    """Stores a fact the agent was told as a chunk in raw/ (source "remember:<category>", the subject its
    first topic); not yet applied. api.Memory.remember then rebuilds facts/ and ROOT.md under the compaction
    lock, as `facts undo` does; if a compaction holds the lock, that compaction's successor applies it."""
    from ..ingest import prepare_chunk
    from .remembered import DEFAULT_CATEGORY, normal_subject, source_for

    key = _checked_subject(subject)
    _check_category(category)
    fields: dict[str, Any] = {"text": " ".join(text.split()), "timestamp": timestamp, "speaker": "agent"}
    plain = prepare_chunk(fields, vault.config, now).chunk.text  # redacted: the subject is derived from what is kept
    derived = derive_subject(plain)
    key = key or (derived[0] if derived else "")
    key = key or normal_subject(subject_key(plain, generic=True)) or "fact"
    known = get_fact(vault, key) if not category else None  # a new value keeps its subject's category
    category = category or (known.category if known else derived[1] if derived else DEFAULT_CATEGORY)
    prepared = prepare_chunk({**fields, "source": source_for(category), "topics": [key]}, vault.config, now)
    created = vault.store_chunk(prepared.chunk)
    return RememberResult(
        prepared.chunk.id,
        vault.chunk_relpath(prepared.chunk),
        created,
        key,
        category,
        prepared.chunk.text,
        False,
        prepared.redactions,
    )


def derive_subject(text: str) -> tuple[str, str] | None:
    """(subject, category) the extractor gives the statement, if it reads one in it."""
    for found in statements_of(text, "user"):
        if not (found.change_only or found.replaced_only):
            return found.subject, found.category
    return None


def _checked_subject(subject: str | None) -> str:
    from .remembered import SUBJECT as KEY
    from .remembered import normal_subject

    if subject is None:
        return ""
    key = normal_subject(subject)
    if not KEY.fullmatch(key):
        raise InvalidInputError(
            f"invalid subject {subject!r}: a subject key is lowercase letters and digits joined by _",
            hint="e.g. --subject deploy_target",
        )
    return key


def _check_category(category: str | None) -> None:
    if category is not None and category not in CATEGORIES:
        raise InvalidInputError(f"unknown category {category!r}", hint=f"use one of: {', '.join(CATEGORIES)}")


# ---------------------------------------------------------------- rebuild


@dataclass(frozen=True)
class RebuildReport:
    """What a rebuild did, and its retrieval check (facts a consolidation made hard to find)."""

    changed: list[str] = field(default_factory=list)  # vault files written or deleted
    candidates: int = 0
    clusters: int = 0
    facts: int = 0
    merged: int = 0  # near-duplicate statements folded into one
    corroborated: int = 0  # restatements counted as support for the current value
    superseded: int = 0
    kept: int = 0  # contradictions the current value won
    reversed: int = 0  # events undone by facts/overrides.yaml
    stale_overrides: list[str] = field(default_factory=list)  # undos whose event no longer occurs
    unreachable: list[dict[str, str]] = field(default_factory=list)  # {"query", "expected", "source"}
    unsupported: list[dict[str, str]] = field(default_factory=list)  # candidates left out (daily_candidates)
    similarity: str = "lexical"
    warning: str | None = None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def daily_candidates(index: Index, config: Config) -> list[FactCandidate]:
    """Every daily summary's candidates, cleaned: confidence floor, a valid date and subject key, and
    resting on the chunks they cite (facts/provenance.py: a hand-edited summary's fact is never promoted)."""
    return screened_candidates(index, config)[0]


def remembered_statements(index: Index) -> list[Remembered]:
    """The facts `memtree remember` stored, as chunks: source "remember:<category>", the subject first topic."""
    found = []
    for chunk_id, day, moment, text, topics, source in index.sourced(REMEMBERED_SOURCE):
        category = category_of(source)
        if category and topics and SUBJECT.fullmatch(topics[0]) and text.strip():
            found.append(Remembered(chunk_id, day, moment, " ".join(text.split()), topics[0], category))
    return found


def screened_candidates(
    index: Index, config: Config, remembered: frozenset[str] = frozenset()
) -> tuple[list[FactCandidate], list[dict[str, str]]]:
    """(daily_candidates, {"summary", "subject"} of each candidate left out as unsupported). A remembered
    chunk is no source of theirs: its fact comes straight from the chunk, the same with or without a compaction."""
    found, unsupported = [], []
    days = day_candidates(index)
    cited = index.chunks_by_id(sorted({s for _, _, _, facts in days for c in facts for s in c.sources}))
    for path, period, backend, facts in days:
        for c in facts:
            if remembered and remembered.intersection(c.sources):
                c = replace(c, sources=tuple(s for s in c.sources if s not in remembered))
            if c.confidence < config.fact_min_confidence or not c.sources or not c.fact.strip():
                continue
            rows = [(row.speaker, row.text) for row in (cited.get(s) for s in c.sources) if row is not None]
            if not supported(c, backend, rows):
                unsupported.append({"summary": path, "subject": c.subject})
                continue
            valid_from = c.valid_from if re.fullmatch(r"\d{4}-\d\d-\d\d", c.valid_from) else period
            subject = c.subject if SUBJECT.fullmatch(c.subject) else subject_key(c.subject, generic=True) or "fact"
            found.append(replace(c, subject=subject, fact=" ".join(c.fact.split()), valid_from=valid_from))
    return found, unsupported


def day_candidates(index: Index) -> list[tuple[str, str, str, tuple[FactCandidate, ...]]]:
    """(file, day, backend, candidates) of every day: its line under facts/candidates/, else what its daily
    summary's front matter holds (a vault from before those lines, until its next compaction)."""
    lines = read_days(index.vault)
    found = [(month_path(d.day), d.day, d.backend, d.facts) for d in lines.values()]
    for path, summary in index.summaries("daily"):
        if summary.period not in lines and summary.draft.facts:
            found.append((path, summary.period, summary.summarizer.backend, summary.draft.facts))
    return sorted(found, key=lambda f: f[1])


def retrieval_check(outcome: Outcome) -> list[dict[str, str]]:
    """Each candidate's own subject, asked as a query, must still find the fact now holding it
    (among the first CHECK_LIMIT, as a phrase or by all its words)."""
    matcher = Matcher(outcome.facts)
    answers: dict[str, set[str]] = {}
    missing: dict[tuple[str, str], dict[str, str]] = {}
    for position, candidate in enumerate(outcome.ordered):
        expected = outcome.absorbed.get(position)
        query = candidate.subject.replace("_", " ")
        if expected is None or (query, expected) in missing:
            continue
        if query not in answers:
            found = matcher.match(query, CHECK_LIMIT) + matcher.match(query, CHECK_LIMIT, phrase=False)
            answers[query] = {f.subject for f in found}
        if expected not in answers[query]:
            missing[(query, expected)] = {"query": query, "expected": expected, "source": candidate.sources[0]}
    return [missing[k] for k in sorted(missing)]


def rebuild(vault: Vault, index: Index, similarity: Similarity | None = None) -> RebuildReport:
    """Recomputes facts/ from every daily summary's candidates; writes only the files that changed."""
    said = remembered_statements(index)
    candidates, unsupported = screened_candidates(index, vault.config, frozenset(r.id for r in said))
    reversals = active_reversals(read_overrides(vault))
    label, warning = "custom" if similarity else "lexical", None
    if similarity is None:
        # a replaced-only candidate meets its change by key, if ever: not worth an embedding
        texts = [plain(c.fact) for c in candidates if not c.replaced_only]
        similarity, label, warning = similarity_for(vault, texts)
    cache = ClusterCache(vault, reversals, label)
    outcome = consolidate(candidates, reversals, similarity, cache.replay, cache.strengths)
    cache.save()
    own_facts, own_events = ledger(said, reversals)
    speakers = index.speakers()
    all_facts, joined = combined([_unquoted(f, speakers) for f in outcome.facts], own_facts, reversals)
    plain_events = (replace(e, old=unquoted(e.old, speakers), new=unquoted(e.new, speakers)) for e in outcome.events)
    events = [*plain_events, *own_events, *joined]
    changed: list[str] = []
    for category in CATEGORIES:
        facts = [f for f in all_facts if f.category == category]
        path = category_path(category)
        written = vault.write(path, render_category(category, facts).encode("utf-8")) if facts else vault.delete(path)
        if written:
            changed.append(path)
    if (events or vault.read_bytes(AUDIT_FILE) is not None) and vault.write(
        AUDIT_FILE, render_audit(events).encode("utf-8")
    ):
        changed.append(AUDIT_FILE)
    happened = {e.id for e in events}

    def count(kind: str) -> int:
        return sum(1 for e in events if e.kind == kind and not e.reversed_by)

    report = RebuildReport(
        changed=sorted(changed),
        candidates=len(outcome.ordered) + len(said),
        clusters=outcome.clusters,
        facts=len(all_facts),
        merged=count("merge"),
        corroborated=count("corroborate"),
        superseded=count("supersede"),
        kept=count("keep"),
        reversed=sum(1 for e in events if e.reversed_by),
        stale_overrides=sorted(u for event, u in reversals.items() if event not in happened and event[:1] != "u"),
        unreachable=retrieval_check(outcome),
        unsupported=unsupported,
        similarity=label,
        warning=warning,
    )
    vault.write(REPORT_FILE, (json.dumps(report.to_json(), indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return report


_QUOTED = re.compile(r"^[\w.-]{1,40}:\s+")


def unquoted(text: str, speakers: Collection[str]) -> str:
    """A statement without the speaker label the extractor quotes a first-person one with ("user: Decided: HS256."
    reads "Decided: HS256."); a label that names no speaker ("Decided: we use HS256.") is part of the statement."""
    label = _QUOTED.match(text)
    if label is None or not text[label.end() :].strip():
        return text
    name = label.group(0).rstrip().removesuffix(":")
    return text[label.end() :] if name in speakers or name == "user" else text


def _unquoted(fact: Fact, speakers: Collection[str]) -> Fact:
    """The fact as the statement alone: "user: I prefer tabs." reads "I prefer tabs." (who said it stays in the
    daily summary's candidate, which consolidation reads, and in the chunks its sources name)."""

    def plain(version: Version) -> Version:
        return replace(version, fact=unquoted(version.fact, speakers))

    return replace(fact, current=plain(fact.current), history=tuple(plain(v) for v in fact.history))


class ClusterCache:
    """The outcomes of the clusters a rebuild replayed (.memtree/facts-clusters.json), by what they hold: a run
    replays only the clusters its new candidates touch. A cluster's outcome depends on its candidates, the
    reversals and the similarity alone, so a kept one is the bytes a replay would give."""

    def __init__(self, vault: Vault, reversals: Mapping[str, str], similarity: str) -> None:
        self.vault = vault
        self.reversals = dict(reversals)
        self.salt = json.dumps([CACHE_VERSION, sorted(self.reversals.items()), similarity])
        self.kept: dict[str, Any] = {}
        self.used: dict[str, Any] = {}
        self.strengths = _Strengths()  # links between subject keys, by what they say (consolidate.clusters)
        data = vault.read_bytes(CLUSTERS_FILE)
        with contextlib.suppress(ValueError, TypeError, AttributeError, KeyError):
            loaded = json.loads(data) if data else {}
            if loaded.get("salt") == self.salt:
                self.kept = dict(loaded["clusters"])
                self.strengths.kept = {k: int(v) for k, v in loaded["links"].items()}
        self.replayed = 0

    def key(self, candidates: Sequence[FactCandidate]) -> str:
        body = json.dumps([candidate_record(c) for c in candidates], ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(body.encode("utf-8")).hexdigest()[:32]

    def replay(self, candidates: Sequence[FactCandidate], similarity: Similarity | None = None) -> ClusterOutcome:
        key = self.key(candidates)
        stored = self.kept.get(key)
        if stored is not None:
            with contextlib.suppress(ValueError, TypeError, KeyError, IndexError):
                outcome = _outcome_from(stored)
                self.used[key] = stored
                return outcome
        self.replayed += 1
        outcome = replay_cluster(candidates, self.reversals, similarity)
        self.used[key] = _outcome_json(outcome)
        return outcome

    def save(self) -> None:
        data = {"salt": self.salt, "clusters": self.used, "links": self.strengths.used}
        self.vault.write(CLUSTERS_FILE, json.dumps(data, ensure_ascii=False, sort_keys=True).encode("utf-8"))


class _Strengths(MutableMapping[str, int]):
    """Link strengths: those the last run wrote (kept) and those this run used (written back; the others go)."""

    def __init__(self) -> None:
        self.kept: dict[str, int] = {}
        self.used: dict[str, int] = {}

    def __getitem__(self, key: str) -> int:
        if key not in self.used:
            self.used[key] = self.kept[key]
        return self.used[key]

    def __setitem__(self, key: str, value: int) -> None:
        self.used[key] = value

    def __delitem__(self, key: str) -> None:
        self.used.pop(key, None)
        self.kept.pop(key, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self.used)

    def __len__(self) -> int:
        return len(self.used)


def _outcome_json(outcome: ClusterOutcome) -> dict[str, Any]:
    return {
        "entries": [
            [subject, category, current.to_json(), [v.to_json() for v in history], list(members)]
            for subject, category, current, history, members in outcome.entries
        ],
        "events": [e.to_json() for e in outcome.events],
    }


def _version_from(data: Mapping[str, Any]) -> Version:
    return Version(**{**data, "sources": tuple(data["sources"])})


def _outcome_from(data: Mapping[str, Any]) -> ClusterOutcome:
    entries = tuple(
        (str(subject), str(category), _version_from(current), tuple(_version_from(v) for v in history), tuple(members))
        for subject, category, current, history, members in data["entries"]
    )
    events = tuple(Event(**{**e, "sources": tuple(e["sources"])}) for e in data["events"])
    return ClusterOutcome(entries, events)


def rebuild_facts(vault: Vault, index: Index) -> list[str]:
    """rebuild(), for compaction: the vault-relative paths it wrote or deleted."""
    return rebuild(vault, index).changed


def last_rebuild_report(vault: Vault) -> RebuildReport | None:
    """The last rebuild's report (.memtree/facts-report.json), None if there is none or it is unreadable."""
    data = vault.read_bytes(REPORT_FILE)
    if not data:
        return None
    with contextlib.suppress(ValueError, TypeError):
        return RebuildReport(**json.loads(data))
    return None


# ---------------------------------------------------------------- embeddings (optional: ../embeddings.py)


def similarity_for(vault: Vault, texts: Sequence[str]) -> tuple[Similarity | None, str, str | None]:
    """(similarity, label, warning): embedding cosine when the vault uses litellm, else None (lexical)."""
    model = embedding_model(vault.config)
    if model is None:
        return None, "lexical", None
    try:
        vectors = _embed(vault, model, texts)
    except Exception as exc:  # any provider failure: consolidate lexically, and say so
        reason = f"{type(exc).__name__}: {str(exc)[:160]}"
        return None, "lexical", f"embeddings unavailable ({reason}); lexical similarity used"

    def similarity(a: str, b: str) -> float:
        va, vb = vectors.get(a), vectors.get(b)
        if not va or not vb:
            return 0.0
        norm = math.sqrt(sum(x * x for x in va)) * math.sqrt(sum(y * y for y in vb))
        return sum(x * y for x, y in zip(va, vb, strict=False)) / norm if norm else 0.0

    return similarity, f"embeddings:{model}", None


def _embed(vault: Vault, model: str, texts: Iterable[str]) -> dict[str, list[float]]:
    """Vectors for texts: from .memtree/fact-embeddings.json, or one call per 64 missing texts."""
    cache: dict[str, dict[str, list[float]]] = {}
    raw = vault.read_bytes(EMBEDDINGS_FILE)
    with contextlib.suppress(ValueError):
        cache = json.loads(raw) if raw else {}
    known = cache.setdefault(model, {})

    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]

    wanted = sorted(set(texts))
    missing = [t for t in wanted if key(t) not in known]
    if missing:
        settings = vault.config.summarizer
        vectors = embed_texts(model, missing, settings.api_base, settings.timeout)
        for text, vector in zip(missing, vectors, strict=True):
            known[key(text)] = [round(x, 6) for x in vector]
        vault.write(EMBEDDINGS_FILE, json.dumps(cache, sort_keys=True).encode("utf-8"))
    return {t: known[key(t)] for t in wanted}
