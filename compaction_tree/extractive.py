"""The built-in summarizer: deterministic, offline, and good enough to use the tree with no LLM.

A day is summarized from its chunks: sentences are ranked by how much of the day's recurring,
specific vocabulary they carry (generic English counts for little); decisions, fixes and open
items are found by cue; topics by statistics (topics.py). Weeks are summarized from their days'
bullets and months from their weeks', favouring what recurs across children. Every level is
packed under its token budget, and every bullet cites the chunk ids it came from.

Determinism: every ranking has a total order (ties broken by time and id), and sums run over
sorted keys, so the same inputs give the same bytes in any process.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .config import Config
from .markdown import render_bullet
from .model import Chunk
from .sessions import ANSWER, REQUEST, SAID, Session, roles, sessions_of
from .summarizers import Limits, Unit, UnitFailed, Usage
from .summary import SECTIONS, Bullet, Draft, FactCandidate, SummarizerIdentity, TopicStat
from .text import bounded, content_tokens, prose_share, sentences, stem, word_form
from .tokens import counter_for, tokenizer_name
from .topics import candidates, is_generic, merge_topics, rank_topics

PROMPT_VERSION = "extractive-3"
MAX_WORDS = 48  # a bullet longer than this is cut at a word boundary
TOPIC_LIMITS = {"daily": 15, "weekly": 25, "monthly": 40}
SECTION_CAPS = {"decisions": 6, "problems": 6, "pending": 5, "highlights": 40}
SECTION_BONUS = {"decisions": 1.6, "problems": 1.4, "pending": 1.2, "highlights": 1.0}
HEADING_TOKENS = 5
PROSE = 0.6  # lines with fewer plain words than this share are code or logs

# a decision is said in the future or as a proposal ("let's use", "we'll keep"), not as a habit ("I keep forgetting")
_WILL = r"(?:\blet'?s\b|\bwe'?ll\b|\bwe will\b|\bi'?ll\b|\bi will\b|\bwe should\b|\bwe'?re going to\b)"
CUES: dict[str, re.Pattern[str]] = {
    "decisions": re.compile(
        r"\b(?:decided|decision|agreed|settled on|going with|go with|opted|chose|chosen|picked"
        r"|switch(?:ed|ing)? (?:to|from|over)|mov(?:ed|ing) (?:to|from|over)|migrat(?:e|ed|ing) (?:to|from)"
        r"|from now on|will use|'ll use|standardi[sz]e on)\b"
        r"|" + _WILL + r".{0,30}\b(?:use|adopt|keep|drop|replace|switch|move)\b",
        re.IGNORECASE,
    ),
    "problems": re.compile(
        r"\b(?:fixed|fixes|the fix|resolved|solved|root cause|turned out|works now|working now|the culprit|workaround"
        r"|patched|was caused by|because of a|the (?:issue|problem|bug|error) was|figured out|no longer)\b",
        re.IGNORECASE,
    ),
    # open work, not chatter: "tomorrow, I'm done for today" and "I have to run to a meeting" are not tasks,
    # and "pending" alone is as often a state in the data ("the booking stays pending")
    "pending": re.compile(
        r"\b(?:todo|to-do|next step|next steps|still need|still needs|still pending|not yet|follow[ -]up"
        r"|remind me|open question|blocked on|later this week|next week|need to (?:add|check|fix|write|move|update"
        r"|decide|test|look)|should (?:probably )?(?:add|look|check|fix|move|write))\b",
        re.IGNORECASE,
    ),
}
_QUESTION = re.compile(r"\?\s*$")


@dataclass(frozen=True)
class Candidate:
    """A sentence (daily) or a child's bullet (weekly, monthly) that could become a bullet."""

    text: str
    sources: tuple[str, ...]
    section: str
    order: tuple[Any, ...]  # chronological position: the final tie-breaker
    terms: tuple[str, ...]  # distinct stems, sorted


def clip(text: str, words: int = MAX_WORDS) -> str:
    parts = text.split()
    return text if len(parts) <= words else " ".join(parts[:words]) + " …"


def section_of(text: str) -> str:
    if _QUESTION.search(text):
        return "highlights"  # "should we switch to Fly?" decides nothing
    for name in ("decisions", "problems", "pending"):
        if CUES[name].search(text):
            return name
    return "highlights"


def _terms(text: str) -> tuple[str, ...]:
    return tuple(sorted({stem(word_form(t)) for t in content_tokens(bounded(text))}))


def _specificity(term: str) -> float:
    return 0.15 if is_generic(term) else 1.0


class ExtractiveSummarizer:
    def __init__(
        self, config: Config, fact_extractor: Callable[[Unit], tuple[FactCandidate, ...]] | None = None
    ) -> None:
        self.config = config
        self.identity = SummarizerIdentity("extractive", None, PROMPT_VERSION)
        self.usage = Usage()
        self.concurrency = 1  # CPU-bound: threads would only contend for the GIL
        self._counter: Callable[[str], int] | None = None  # loaded by the first summary (see _count)
        if fact_extractor is None:
            from .facts.extract import extract_facts

            self._facts: Callable[[Unit], tuple[FactCandidate, ...]] = lambda unit: extract_facts(unit, config)
        else:
            self._facts = fact_extractor

    def _count(self, text: str) -> int:
        # the tokenizer takes 0.45 s to load: a compaction with nothing to summarize never needs it
        if self._counter is None:
            self._counter = counter_for(self.config.tokenizer)
        return self._counter(text)

    def params(self) -> Mapping[str, Any]:
        # no extractor here: facts are versioned apart from summaries (facts/candidates.py)
        return {"tokenizer": tokenizer_name(self.config.tokenizer)}

    def facts_version(self) -> str:
        """What reads a day's facts, apart from the summary's input hash (facts/candidates.py)."""
        from .facts.extract import EXTRACTOR_VERSION

        learned = " learned" if self.config.fact_learned else ""
        return f"{EXTRACTOR_VERSION} min {self.config.fact_min_confidence}{learned}"

    def extract_facts(self, unit: Unit) -> tuple[FactCandidate, ...]:
        """A day's facts alone, for a day whose summary stays (a new extractor version)."""
        return self._facts(unit)

    reads_known_facts = False  # a day's facts come from its own words

    def begin_run(self, limits: Limits) -> None:
        self.usage = Usage()

    def know(self, facts: Sequence[FactCandidate]) -> None:
        pass

    def estimate(self, unit: Unit) -> tuple[int, int, float]:
        return unit.tokens, unit.budget, 0.0

    def summarize(self, unit: Unit) -> Draft:
        # Input so deep or large that reading it exhausts the stack or memory fails this unit alone,
        # reported like a model's failure: raised, it would stop every nightly run at the same day.
        try:
            if unit.period.level == "daily":
                return self._daily(unit)
            return self._rollup(unit)
        except (RecursionError, MemoryError) as exc:
            raise UnitFailed(f"the built-in summarizer could not read it ({type(exc).__name__})") from None

    # ---------------------------------------------------------------- days

    def _daily(self, unit: Unit) -> Draft:
        day = unit.period.key
        role = roles(unit.chunks)
        sessions = sessions_of(unit.chunks)
        final = _final_rounds(sessions)
        # summaries, topics and ranking read what was asked and answered: narration and a command's
        # output stay recallable in raw/, not summary material
        material = [c for c in unit.chunks if role[c.id] in (REQUEST, ANSWER, SAID)]
        pool: list[Candidate] = []
        for position, chunk in enumerate(unit.chunks):
            if role[chunk.id] not in (REQUEST, ANSWER, SAID):
                continue
            for index, sentence in enumerate(sentences(chunk.text)):
                terms = _terms(sentence)
                if len(terms) < 2:
                    continue  # "ok thanks", "Sure!"
                section = section_of(sentence)
                if section == "pending" and role[chunk.id] == ANSWER and chunk.id not in final:
                    continue  # the agent said it was next, then went on in the same session
                text = clip(f"{chunk.speaker}: {sentence}")
                pool.append(Candidate(text, (chunk.id,), section, (position, index), terms))
        ranked = rank_topics([candidates(c.text, c.topics) for c in material or unit.chunks], TOPIC_LIMITS["daily"])
        topics = tuple(TopicStat(name, count, day, day) for _key, name, count in ranked)
        chunk_df = Counter(t for chunk in material for t in set(_terms(chunk.text)))
        overview = self._overview_daily(unit, topics) + self._session_lines(unit, sessions)
        draft = self._pack(unit, pool, chunk_df, overview, topics)
        return replace(draft, facts=self._facts(unit))

    def _session_lines(self, unit: Unit, sessions: Sequence[Session]) -> tuple[Bullet, ...]:
        """Per agent session, what the user asked and what came of it: in full while the lines fit in
        SESSION_SHARE of the budget, else shorter, then the request alone, so that a busy day still
        names every session it can; past that, the sessions where the user asked the most."""
        for words, share in SESSION_TIERS:
            lines = [(s, line) for s in sessions if (line := _session_line(s, self.config, words))]
            costs = [self._count(render_bullet(line)) + 1 for _, line in lines]
            if sum(costs) <= unit.budget * share:
                return tuple(line for _, line in lines)
        room = unit.budget * SESSION_TIERS[-1][1]
        busiest = sorted(range(len(lines)), key=lambda i: (-len(lines[i][0].rounds), i))
        kept: set[int] = set()
        for index in busiest:
            if sum(costs[i] for i in kept) + costs[index] <= room:
                kept.add(index)
        return tuple(line for i, (_, line) in enumerate(lines) if i in kept)

    def _overview_daily(self, unit: Unit, topics: Sequence[TopicStat]) -> tuple[Bullet, ...]:
        chunks = unit.chunks
        sessions = len({c.session or c.id for c in chunks}) if any(c.session for c in chunks) else None
        first, last = chunks[0].timestamp.astimezone(self.config.tz), chunks[-1].timestamp.astimezone(self.config.tz)
        about = _about([t.name for t in topics[:4]])
        text = (
            f"{len(chunks)} chunks"
            + (f" in {sessions} session(s)" if sessions else "")
            + f", {first:%H:%M}-{last:%H:%M}"
            + (f"; about {about}" if about else "")
            + "."
        )
        return (Bullet(text, (chunks[0].id,) if len(chunks) == 1 else (chunks[0].id, chunks[-1].id)),)

    # ---------------------------------------------------------------- weeks and months

    def _rollup(self, unit: Unit) -> Draft:
        pool: list[Candidate] = []
        child_df: Counter[str] = Counter()
        for position, child in enumerate(unit.children):
            seen: set[str] = set()
            for name, _title in SECTIONS:
                if name == "overview":
                    continue
                for index, bullet in enumerate(child.draft.section(name)):
                    text = bullet.text if child.level != "daily" else f"{child.period}: {bullet.text}"
                    terms = _terms(bullet.text)
                    seen.update(terms)
                    pool.append(Candidate(text, bullet.sources, name, (position, index), terms))
            child_df.update(seen)
        topics = merge_topics(
            (t for child in unit.children for t in child.draft.topics), TOPIC_LIMITS[unit.period.level]
        )
        days = sum(1 for _ in unit.children) if unit.period.level == "weekly" else None
        chunks = sum(child.chunks for child in unit.children)
        about = _about([t.name for t in topics[:5]])
        text = (
            (f"{days} active day(s), " if days is not None else f"{len(unit.children)} week(s), ")
            + f"{chunks} chunks"
            + (f"; about {about}" if about else "")
            + "."
        )
        anchors = [b.sources[0] for child in (unit.children[0], unit.children[-1]) for b in child.draft.bullets()[:1]]
        overview = (Bullet(text, tuple(dict.fromkeys(anchors))),) if anchors else ()
        return self._pack(unit, pool, child_df, overview, topics)

    # ---------------------------------------------------------------- ranking and packing

    def _pack(
        self,
        unit: Unit,
        pool: list[Candidate],
        df: Counter[str],
        overview: tuple[Bullet, ...],
        topics: tuple[TopicStat, ...],
    ) -> Draft:
        weights = {t: _specificity(t) * math.log1p(df[t]) for t in sorted(df)}
        scored = []
        for c in pool:
            base = sum(weights.get(t, 0.0) for t in c.terms) / math.sqrt(len(c.terms) + 4)
            if _QUESTION.search(c.text):
                base *= 0.6
            if prose_share(c.text) < PROSE:
                base *= 0.3
            scored.append((base * SECTION_BONUS[c.section], c))
        # decisions, fixes and open items first: they are what a later session needs, and a week
        # or a month must not lose them to the highlights of busy days
        scored.sort(key=lambda sc: (sc[1].section == "highlights", -sc[0], sc[1].order))

        title_cost = 20
        used = title_cost + sum(self._count(render_bullet(b)) + 1 for b in overview) + HEADING_TOKENS
        if topics:
            used += self._count(", ".join(f"{t.name} ({t.count})" for t in topics)) + HEADING_TOKENS
        budget = unit.budget
        chosen: list[tuple[float, Candidate]] = []
        per_section: Counter[str] = Counter()
        seen_terms: list[set[str]] = []
        for score, c in scored:
            if per_section[c.section] >= SECTION_CAPS[c.section]:
                continue
            terms = set(c.terms)
            if any(_overlap(terms, other) > 0.6 for other in seen_terms):
                continue  # the same point said again
            cost = self._count(render_bullet(Bullet(c.text, c.sources))) + 1
            if per_section[c.section] == 0:
                cost += HEADING_TOKENS
            if used + cost > budget:
                continue
            used += cost
            per_section[c.section] += 1
            seen_terms.append(terms)
            chosen.append((score, c))
        sections: dict[str, list[Candidate]] = {name: [] for name, _ in SECTIONS}
        for _score, c in sorted(chosen, key=lambda sc: sc[1].order):
            sections[c.section].append(c)

        def bullets(name: str) -> tuple[Bullet, ...]:
            return tuple(Bullet(c.text, c.sources) for c in sections[name])

        return Draft(
            overview=overview,
            decisions=bullets("decisions"),
            problems=bullets("problems"),
            pending=bullets("pending"),
            highlights=bullets("highlights"),
            topics=topics,
        )


# A session line quotes a request and an outcome this long at most: with two ids cited (a Claude Code
# id costs 20 tokens), four sessions fit in the share of a day's 400 tokens the session lines may use.
SESSION_WORDS = (12, 16)  # (request, outcome)
SESSION_SHARE = 0.6
BRIEF_SESSION_WORDS = (8, 8)  # when a busy day's sessions do not fit, one request each and less of it
BRIEF_SESSION_SHARE = 0.8
# Busier still: the request alone, citing one id. A line then costs ~40 tokens with a Claude Code
# id, so seven or eight sessions fit in a day's 400 (five at the brief tier); real days of 13-19
# sessions still lose some.
ASKED_ONLY_WORDS = (6, 0)
SESSION_TIERS = (
    (SESSION_WORDS, SESSION_SHARE),
    (BRIEF_SESSION_WORDS, BRIEF_SESSION_SHARE),
    (ASKED_ONLY_WORDS, BRIEF_SESSION_SHARE),
)
OUTCOME_TERMS = 4  # "All done." says nothing: an outcome reads on until it names this many things


def _final_rounds(sessions: Sequence[Session]) -> set[str]:
    """The answers of each session's last request: what they leave open is still open at its end."""
    return {answer.id for session in sessions if session.rounds for answer in session.rounds[-1].answers}


def _session_line(session: Session, config: Config, words: tuple[int, int]) -> Bullet | None:
    """'14:11 session: user asked "Work on bead X…"; then "continue until done" → All done: …'"""
    if not session.rounds:
        return None
    request_words, outcome_words = words
    asked = [r for r in session.rounds if len(_terms(r.request.text)) >= 2] or list(session.rounds[:1])
    shown = asked[:1]
    if words == SESSION_WORDS:  # and the follow-up that names the most in prose ("thanks!" names little, a log a lot)
        openings = [(r, _opening(r.request, request_words)) for r in asked[1:]]
        prose = [(len(_terms(text)), -n, r) for n, (r, text) in enumerate(openings) if prose_share(text) >= PROSE]
        shown += [max(prose, key=lambda found: found[:2])[2]] if prose else []
    quoted = "; then ".join(f'"{_opening(r.request, request_words)}"' for r in shown)
    more = f" (+{len(asked) - len(shown)} more)" if len(asked) > len(shown) else ""
    start = session.chunks[0].timestamp.astimezone(config.tz)
    speaker = shown[0].request.speaker
    asking = f"{start:%H:%M} session: {speaker} asked {quoted}{more}"
    if not outcome_words:
        return Bullet(f"{start:%H:%M} {speaker} asked {quoted}{more}", (shown[0].request.id,))
    answered = [r.outcome for r in session.rounds if r.outcome]  # where the session ended up
    outcome = _opening(answered[-1], outcome_words) if answered else "no answer recorded"
    sources = [r.request.id for r in shown] + ([answered[-1].id] if answered else [])
    return Bullet(f"{asking} → {outcome}", tuple(dict.fromkeys(sources)))


def _opening(chunk: Chunk, words: int) -> str:
    """A message's first sentences, until they name a few things ("All done." alone does not), cut to `words`."""
    taken: list[str] = []
    named: set[str] = set()
    for sentence in sentences(chunk.text):
        taken.append(sentence.lstrip("# "))
        named.update(_terms(sentence))
        if len(named) >= OUTCOME_TERMS:
            break
    text = " ".join(taken) if taken else " ".join(chunk.text.split())
    return clip(text.replace('"', "'"), words)


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _about(names: Sequence[str]) -> str:
    if not names:
        return ""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
