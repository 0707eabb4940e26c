"""Recall (the evidence for a question, within a token budget) and awareness (do I know X?).

Recall searches every level through the derived index, then walks down: summary lines that
match pass their score to the chunks they cite, a day whose summary matches lifts its matching
chunks, and a conversation (a session, or a sitting) whose turns together match the question lifts
its turns: evidence clusters, so the conversation is the unit a plain session search wins with
among many distractors (_conversation_lift), the more so when the question names someone who
takes part in the conversations or its best turns cluster in conversations beyond chance (_focus).
Given a way to find the chunks nearest the question in meaning (nearest: by default the vault's
chunk vectors when recall.embeddings is on, embeddings.py), those are candidates too (_by_meaning);
when it fails, recall ranks by words and says so. The best chunks that fit are quoted verbatim, in
time order, under a header per day, one "speaker: text" line each. Their ids are the sources; the
lines carry them only when asked (ids=True): an id costs a few tokens a line, up to a fifth of a
budget that would otherwise hold evidence.

Awareness matches the topic as a phrase of precise word forms (text.word_form) across every
chunk and summary line, so "auth" never matches "author" while "Refresh Tokens" matches
"refresh token"; aliases ("k8s" for "kubernetes") are tried too.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from .errors import InvalidInputError
from .index import ChunkRow, Index, LineRow
from .markdown import one_line
from .root import ROLES, ROOT_FILE
from .text import WORD, content_tokens, printable, stem, stems, word_form, word_forms
from .tokens import counter_for
from .topics import aliases_of, phrase_query, phrases_for, topic_key
from .vault import Vault

CHUNK_CANDIDATES = 400
LINE_CANDIDATES = 120
WALK_WEIGHT = 0.1  # a chunk reached only through a matching summary line scores this share at most
RECENCY = 0.1  # the newest matching chunk scores up to this much more than the oldest
FACT_MATCH = 0.6  # a fact is quoted when it holds this share of the question's words
MAX_FACTS = 3
FACTS_SHARE = 0.08  # of the budget, at most
REPLY_FROM = 40  # strong hits whose next turn in the session is considered too
REPLY_WEIGHT = 0.3  # ... scoring this share of the hit
BRIDGE_FROM = 6  # the best hits whose rare names may lead to a second hop
BRIDGE_TERMS = 6
BRIDGE_WEIGHT = 0.7  # a second-hop chunk scores at most this share of the best direct hit
CONVERSATIONS_FROM = 60  # this many best conversations (sessions, or sittings: index.py) lift their turns
CONVERSATIONS_WHOLE = 10  # ... and every turn of the best few is a candidate (about what 8K tokens hold)
CONVERSATION_WEIGHT = 0.25  # a turn gains up to this much from its conversation's rank (README: How well it works)
CONVERSATION_FOCUSED = 1.0  # ... up to this much when the question's best turns cluster in conversations (_focus)
FOCUS_HITS = 20  # the best turns whose conversations tell how clustered the evidence is
FOCUS_FROM, FOCUS_FULL = 0.1, 0.4  # the clustering at which the weight starts to grow, and is full
SEMANTIC_FROM = 100  # nearest chunks by meaning asked for, when recall is given a way to find them
SEMANTIC_WEIGHT = 0.6  # ... the nearest scoring this share of the best direct hit, the rest by their similarity
PACK_PASSES = 4  # at most: a pass after the first fills the room the exact count of the last one left
_NAMEISH = re.compile(r"\b(?:[A-Z][\w'’-]*[A-Za-z0-9]|[A-Za-z]+[-_]?\d[\w-]*)\b")


# (query, k) -> up to k (chunk id, similarity) pairs, most similar first: e.g. by embeddings
Nearest = Callable[[str, int], Sequence[tuple[str, float]]]


@dataclass(frozen=True)
class Recall:
    query: str
    budget: int
    context: str
    tokens: int
    sources: tuple[str, ...]
    notes: tuple[str, ...] = ()  # why recall ranked by words alone this time (e.g. the embeddings provider failed)

    def to_json(self) -> dict[str, Any]:
        return {
            "context": self.context,
            "tokens": self.tokens,
            "sources": list(self.sources),
            "query": self.query,
            "budget": self.budget,
        }


def _match_any(terms: Sequence[str], column: str) -> str:
    return " OR ".join(f'{column} : "{t}"' for t in terms)


def _label(row: ChunkRow, ids: bool) -> str:
    speaker = one_line(printable(row.speaker))
    return f"[{row.id}] {speaker}:" if ids else f"{speaker}:"


def _line_of(row: ChunkRow, ids: bool = False) -> str:
    """A chunk as recall quotes it: printable (a hand-written raw file holds what it likes), its lines indented."""
    text = printable(row.text).strip().replace("\n", "\n  ")
    return f"{_label(row, ids)} {text}"


def _day_header(day: str) -> str:
    return f"## {day} ({date.fromisoformat(day).strftime('%A')})"


def render_context(rows: Sequence[ChunkRow], ids: bool = False) -> str:
    lines: list[str] = []
    current = None
    for row in sorted(rows, key=lambda r: (r.ts, r.id)):
        if row.day != current:
            if lines:
                lines.append("")
            lines.append(_day_header(row.day))
            current = row.day
        lines.append(_line_of(row, ids))
    return "\n".join(lines) + ("\n" if lines else "")


def recall(
    vault: Vault,
    query: str,
    budget: int,
    index: Index | None = None,
    count_usage: bool = True,
    facts: bool = True,
    nearest: Nearest | None = None,
    meaning: bool = True,
    ids: bool = False,
) -> Recall:
    """The evidence for query that fits in budget tokens (see the module docstring). What it returns is
    counted in .memtree/usage.json (a chunk's importance, retention.py) unless count_usage is False.
    nearest adds the chunks nearest the query in meaning as candidates (_by_meaning); without it, the
    vault's chunk vectors do when recall.embeddings is on, unless meaning is False (words alone). ids labels
    each quoted line with its chunk id (at a few tokens a line)."""
    if budget < 1:
        raise InvalidInputError(f"budget must be a positive number of tokens, not {budget}", hint="e.g. --budget 5000")
    if not query.strip():
        raise InvalidInputError("the query is empty", hint='ask a question, e.g. memtree recall "how do we deploy?"')
    own = index is None
    index = index or Index(vault)
    try:
        if own:
            index.sync()
        if nearest is None and meaning:
            from .embeddings import nearest_for

            nearest = nearest_for(vault)
        found = _recall(vault, index, query, budget, facts, nearest, ids)
        if count_usage:
            from .recall_counts import record_usage

            record_usage(vault, found.sources)
        return found
    finally:
        if own:
            index.close()


def _recall(
    vault: Vault,
    index: Index,
    query: str,
    budget: int,
    with_facts: bool = True,
    nearest: Nearest | None = None,
    ids: bool = False,
) -> Recall:
    terms = sorted(set(stems(query))) or sorted({stem(word_form(t)) for t in WORD.findall(query)})
    if not terms:
        return Recall(query, budget, "", 0, ())
    match = _match_any(terms, "stems")
    scores: dict[int, float] = defaultdict(float)
    chunk_hits = index.search_chunks(match, CHUNK_CANDIDATES)
    top = chunk_hits[0][1] if chunk_hits else 1.0
    for rowid, score in chunk_hits:
        scores[rowid] += score / top
    # walk down: chunks cited by matching summary lines become candidates, at a discount (they may not
    # share a word with the question: an LLM's summary line can match a paraphrase no raw chunk does)
    line_hits = index.search_lines(match, LINE_CANDIDATES)
    if line_hits:
        best_line = line_hits[0][1]
        cited: dict[str, float] = defaultdict(float)
        for line, score in line_hits:
            for source in line.sources:
                cited[source] = max(cited[source], score / best_line)
        for chunk_id, row in index.chunks_by_id(sorted(cited)).items():
            scores[row.rowid] = max(scores[row.rowid], WALK_WEIGHT * cited[chunk_id])
    # the reply to a strong hit often holds the answer ("Got a favourite style?" - "Contemporary!")
    for hit, reply in index.next_in_session([rowid for rowid, _ in chunk_hits[:REPLY_FROM]]).items():
        scores[reply] = max(scores[reply], REPLY_WEIGHT * scores[hit])
    for rowid, lift in _second_hop(index, chunk_hits, terms).items():
        scores[rowid] = max(scores[rowid], lift)
    notes: tuple[str, ...] = ()
    if nearest is not None:
        from .embeddings import MeaningUnavailable

        try:
            near = nearest(query, SEMANTIC_FROM)
        except MeaningUnavailable as exc:
            near, notes = (), (str(exc),)
        for rowid, lift in _by_meaning(index, near).items():
            scores[rowid] = max(scores[rowid], lift)
    named = _named_speakers(index, query)
    for rowid, lift in _conversation_lift(index, match, scores, _focus(index, named, chunk_hits), named).items():
        scores[rowid] = scores.get(rowid, 0.0) + lift
    facts = _facts_for(vault, terms, budget) if with_facts else []
    candidates = index.chunks_by_rowid(sorted(scores))
    if candidates and RECENCY:
        # newer memories win close calls: what is true *now* was usually said last
        times = sorted(r.ts for r in candidates.values())
        position = {ts: i / max(1, len(times) - 1) for i, ts in enumerate(times)}
        for row in candidates.values():
            scores[row.rowid] *= 1 + RECENCY * position[row.ts]
    ranked = sorted(candidates.values(), key=lambda r: (-scores[r.rowid], r.ts, r.id))
    return replace(_pack(vault, query, budget, ranked, facts, ids), notes=notes)


def _conversation_lift(
    index: Index, match: str, scores: dict[int, float], focus: float, named: Sequence[str] = ()
) -> dict[int, float]:
    """What a conversation as a whole adds to its turns. Evidence clusters: the turns that answer a
    question share a session (or a sitting: index.py) whose words, taken together, match the question better
    than any one turn does, and its other turns often hold the answer without the question's words
    ("Got a favourite style?" - "Contemporary!"). So conversations are ranked by BM25 over all their
    turns as one text (the index keeps one per conversation), among every conversation of the
    memory, or only those of the people the question names (named): a name is a word many of their
    turns hold, which BM25 weighs at nothing once they fill half the memory; a turn gains
    CONVERSATION_WEIGHT times its conversation's share of the best score, and every turn of the best
    few becomes a candidate at that score."""
    ranked = dict(index.search_conversations(match, CONVERSATIONS_FROM, named))
    if not ranked:
        return {}
    best = max(ranked.values())
    if best <= 0:
        return {}
    leaders = sorted(ranked, key=lambda k: (-ranked[k], k))[:CONVERSATIONS_WHOLE]
    members = index.conversation_members(leaders)
    of_candidate = index.conversation_keys(sorted(scores))
    weight = CONVERSATION_WEIGHT + (CONVERSATION_FOCUSED - CONVERSATION_WEIGHT) * focus
    lift: dict[int, float] = {}
    for rowid, key in of_candidate.items():
        if key in ranked:
            lift[rowid] = weight * ranked[key] / best
    for key in leaders:
        for rowid in members[key]:
            lift[rowid] = weight * ranked[key] / best
    return lift


def _focus(index: Index, named: Sequence[str], hits: Sequence[tuple[int, float]]) -> float:
    """How much the question is about a conversation rather than a line of one, 0 to 1: the more, the
    fewer of this memory's conversations the people it names take part in ("what has Melanie painted?"
    among many people's talks picks hers, whose every session may hold a piece of the answer with none
    of the question's words, as a session search finds and a search by line does not; in a memory of
    her talks alone it picks nothing), or the more its best FOCUS_HITS turns cluster in fewer
    conversations than chance would put them in this memory (_clustering), from FOCUS_FROM (no more
    than chance) to FOCUS_FULL. Turns of a talk about the question's subject match it together
    (LoCoMo's "what did Mel paint after the camping trip?"), and among many unrelated conversations
    whole ones answer it best, as a session search does; a fact said once among daily chatter matches
    one turn a conversation, and within one long conversation every question clusters by chance:
    there turn-level ranking finds the evidence best."""
    conversations = index.conversation_count()
    picked = 1.0 - index.conversations_with(named) / conversations if named and conversations else 0.0
    best = [rowid for rowid, _ in hits[:FOCUS_HITS]]
    if not best:
        return picked
    keys = index.conversation_keys(best)
    distinct = len({keys.get(rowid, str(rowid)) for rowid in best})
    clustering = _clustering(distinct, len(best), conversations)
    return max(picked, min(1.0, max(0.0, (clustering - FOCUS_FROM) / (FOCUS_FULL - FOCUS_FROM))))


def _named_speakers(index: Index, query: str) -> list[str]:
    """The speakers whose every name word the query holds, roles ("user", "assistant") aside: those
    speak in every agent session and pick none."""
    asked = set(word_forms(query))
    names = {speaker: word_forms(speaker) for speaker in index.speakers() if speaker.casefold() not in ROLES}
    return sorted(speaker for speaker, name in names.items() if name and asked.issuperset(name))


def _clustering(distinct: int, hits: int, conversations: int) -> float:
    """How far hits fall in fewer distinct conversations than hits drawn at random from this many
    equal conversations would (0: as chance, 1: all in one)."""
    observed = 1.0 - distinct / hits
    if conversations <= 1 or hits <= 1:
        return 0.0
    expected = conversations * (1.0 - (1.0 - 1.0 / conversations) ** hits)
    chance = 1.0 - expected / hits
    return max(0.0, (observed - chance) / (1.0 - chance))


def _second_hop(index: Index, hits: Sequence[tuple[int, float]], terms: Sequence[str]) -> dict[int, float]:
    """Chunks reached through rare names in the best hits ("Imani is flying to Bristol" leads to
    "Taverna Kyma in Bristol is worth the trip"), scored at a discount: multi-hop questions."""
    if not hits:
        return {}
    top = index.chunks_by_rowid([rowid for rowid, _ in hits[:BRIDGE_FROM]])
    weight: dict[str, float] = defaultdict(float)
    best = hits[0][1]
    for rowid, score in hits[:BRIDGE_FROM]:
        row = top.get(rowid)
        if row is None:
            continue
        for name in _NAMEISH.findall(row.text):
            for term in stems(name):
                if term not in terms and not term.isdigit() and len(term) > 2:
                    weight[term] = max(weight[term], score / best)
    if not weight:
        return {}
    rare = max(3, index.chunk_count() // 300)
    frequency = index.document_frequency(sorted(weight))
    bridges = sorted((t for t in weight if 0 < frequency[t] <= rare), key=lambda t: (-weight[t], frequency[t], t))
    bridges = bridges[:BRIDGE_TERMS]
    if not bridges:
        return {}
    second = index.search_chunks(_match_any([*bridges, *terms], "stems"), CHUNK_CANDIDATES)
    if not second:
        return {}
    top_second = second[0][1]
    return {rowid: BRIDGE_WEIGHT * score / top_second for rowid, score in second}


def _by_meaning(index: Index, near: Sequence[tuple[str, float]]) -> dict[int, float]:
    """Chunks near the question in meaning that may share no word with it ("what does Mel do to relax?"
    - "pottery with the kids calms me"), scored at a discount by their similarity: open-domain and
    multi-hop questions, whose evidence a word match misses (README: How well it works)."""
    best = max((similarity for _, similarity in near), default=0.0)
    if best <= 0:
        return {}
    rows = index.chunks_by_id(sorted({chunk_id for chunk_id, _ in near}))
    lift: dict[int, float] = {}
    for chunk_id, similarity in near:
        if chunk_id in rows and similarity > 0:
            rowid = rows[chunk_id].rowid
            lift[rowid] = max(lift.get(rowid, 0.0), SEMANTIC_WEIGHT * similarity / best)
    return lift


def _facts_for(vault: Vault, terms: Sequence[str], budget: int) -> list[tuple[str, tuple[str, ...]]]:
    """Current facts that share most of the question's words: (line, source ids), within FACTS_SHARE."""
    from .facts.store import load_facts

    wanted = set(terms)
    scored = []
    for fact in load_facts(vault):
        have = set(stems(f"{fact.subject.replace('_', ' ')} {fact.current.fact}"))
        share = len(wanted & have) / len(wanted)
        if share >= FACT_MATCH:
            line = printable(
                f"- {fact.subject.replace('_', ' ')}: {one_line(fact.current.fact)} (since {fact.current.valid_from})"
            )
            scored.append((-share, -len(fact.current.sources), fact.subject, line, tuple(fact.current.sources)))
    count = counter_for(vault.config.tokenizer)
    chosen, used = [], 0
    for *_, line, sources in sorted(scored)[:MAX_FACTS]:
        cost = count(line) + 1
        if used + cost > budget * FACTS_SHARE:
            break
        chosen.append((line, sources))
        used += cost
    return chosen


def _pack(
    vault: Vault,
    query: str,
    budget: int,
    ranked: Sequence[ChunkRow],
    facts: Sequence[tuple[str, tuple[str, ...]]] = (),
    ids: bool = False,
) -> Recall:
    count = counter_for(vault.config.tokenizer)
    head = ("## Current facts\n" + "\n".join(line for line, _ in facts) + "\n\n") if facts else ""
    budget_for_chunks = budget - (count(head) if head else 0)
    chosen: list[ChunkRow] = []
    repeats: list[ChunkRow] = []  # the same words said again: cited, not quoted twice
    seen: set[str] = set()
    days: set[str] = set()
    taken: set[int] = set()  # rowids quoted or cited already
    used = 0
    for _ in range(PACK_PASSES):
        before = len(chosen)
        for row in ranked:
            if row.rowid in taken:
                continue
            said = " ".join(row.text.split()).casefold()
            if said in seen:
                repeats.append(row)
                taken.add(row.rowid)
                continue
            header = 0 if row.day in days else count(_day_header(row.day)) + 1
            # the label's closing space and the line's newline mostly merge into the tokens around them
            cost = row.tokens + count(_label(row, ids)) + header + row.text.count("\n")
            if used + cost > budget_for_chunks:
                continue
            chosen.append(row)
            taken.add(row.rowid)
            seen.add(said)
            days.add(row.day)
            used += cost
        if len(chosen) == before:
            break
        # the per-line sums are estimates: settle on the exact count, then fill the room it leaves
        used = count(render_context(chosen, ids))
        while used > budget_for_chunks and chosen:
            dropped = chosen.pop()  # stays taken: the next pass does not try it again
            seen.discard(" ".join(dropped.text.split()).casefold())
            used = count(render_context(chosen, ids))
        days = {row.day for row in chosen}  # a dropped row's day may need its header again
    context = head + render_context(chosen, ids)
    tokens = count(context)
    while tokens > budget and chosen:  # the per-line sums are an estimate; settle on the exact count
        chosen.pop()
        context = head + render_context(chosen, ids)
        tokens = count(context)
    quoted = {" ".join(r.text.split()).casefold() for r in chosen}
    cited = chosen + [r for r in repeats if " ".join(r.text.split()).casefold() in quoted]
    sources = tuple(r.id for r in sorted(cited, key=lambda r: (r.ts, r.id)))
    from_facts = tuple(s for _, ids in facts for s in ids if s not in sources)
    return Recall(query, budget, context, tokens, tuple(dict.fromkeys(sources + from_facts)))


# ---------------------------------------------------------------- awareness


@dataclass
class Awareness:
    topic: str
    canonical: str
    known: bool = False
    mentions: int = 0
    first_seen: str | None = None
    last_seen: str | None = None
    in_root: bool = False
    see: list[str] = field(default_factory=list)
    entries: list[dict[str, str]] = field(default_factory=list)
    facts: list[dict[str, Any]] = field(default_factory=list)  # current facts about the topic

    def to_json(self) -> dict[str, Any]:
        return {
            "facts": self.facts,
            "known": self.known,
            "topic": self.topic,
            "canonical": self.canonical,
            "last_seen": self.last_seen,
            "first_seen": self.first_seen,
            "mentions": self.mentions,
            "in_root": self.in_root,
            "see": self.see,
            "entries": self.entries,
        }


def know(vault: Vault, topic: str, index: Index | None = None, limit: int = 5) -> Awareness:
    """Whether memory holds topic, when it was last seen, and where to look."""
    cleaned = " ".join(topic.split())
    if not cleaned or not content_tokens(cleaned):
        raise InvalidInputError(f"{topic!r} names no topic", hint='e.g. memtree know "refresh tokens"')
    aliases = aliases_of(vault.config.aliases)
    answer = Awareness(cleaned, topic_key(cleaned, aliases))
    phrases = phrases_for(cleaned, aliases)
    if not phrases:
        return answer
    match = phrase_query(phrases)
    own = index is None
    index = index or Index(vault)
    try:
        if own:
            index.sync()
        chunks = list(index.phrase_chunks(match))
        lines = index.phrase_lines(match)
        cited = index.chunks_by_id(sorted({source for line in lines for source in line.sources}))
    finally:
        if own:
            index.close()
    # a summary line is dated by the chunks it cites, never by its period's end
    days = sorted({c.day for c in chunks} | {row.day for row in cited.values()} | _sealed_days_of(lines, cited))
    answer.known = bool(days)
    answer.mentions = len(chunks)
    if days:
        answer.first_seen, answer.last_seen = days[0], days[-1]
    see: list[str] = []
    for line in lines:
        see.append(f"{line.level}/{line.period}.md")
    for chunk in chunks:
        see.append(
            f"daily/{chunk.day}.md"
            if any(line.level == "daily" and line.period == chunk.day for line in lines)
            else chunk.path
        )
    answer.see = list(dict.fromkeys(see))[: limit * 2]
    for chunk in chunks[:limit]:
        answer.entries.append(
            {"date": chunk.day, "source": chunk.id, "speaker": chunk.speaker, "text": _clip(chunk.text)}
        )
    for line in lines[: max(0, limit - len(answer.entries))]:
        answer.entries.append({"date": line.period, "source": f"{line.level}/{line.period}", "text": _clip(line.text)})
    from .facts.store import facts_matching

    answer.facts = [f.to_json() for f in facts_matching(vault, cleaned, limit)]
    if answer.facts and not answer.known:  # a fact is a memory too (its chunks may be forgotten or pruned)
        answer.known = True
        answer.see.append("facts/")
    root = vault.read_bytes(ROOT_FILE)
    if root:
        root_forms = " " + " ".join(word_forms(root.decode("utf-8", errors="replace"))) + " "
        answer.in_root = any(f" {p} " in root_forms for p in phrases)
    return answer


def _sealed_days_of(lines: Sequence[LineRow], cited: dict[str, ChunkRow]) -> set[str]:
    """A daily line whose chunks were all pruned (retention.py) is dated by its day: it is still a memory."""
    return {line.period for line in lines if line.level == "daily" and not any(s in cited for s in line.sources)}


def _clip(text: str, words: int = 40) -> str:
    parts = printable(text).split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")
