"""An agent's day by structure: who asked what in each session, and which agent messages answered.

A coding agent talks between its tool calls ("Now let me check the tests", "Good. Now commit:");
that narration is 60-75% of what it says and none of it is what the user asked or what came of
it. The importers mark it (importance at or below EVIDENCE_IMPORTANCE) because they see the tool
calls; chunks stored by `memtree add` (a Stop hook, a script) carry no mark, so the same is read
from the order of the session: an agent message that another agent message follows before the
user speaks again was said on the way, unless it is long enough to be a report by itself.

Only sessions where an agent and someone else speak are read this way: a chat between people
(two named speakers, LoCoMo) has no requests and no narration, and every message of it counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .model import Chunk

# The role name chat APIs and memtree's importers give the agent's side ("model" is Gemini's).
AGENT_SPEAKERS = frozenset(("assistant", "agent", "model"))
# Chunks kept for recall only; the same value as importers.EVIDENCE_IMPORTANCE, which is not
# imported here: importers/ is the import path's module, this one runs at compaction.
EVIDENCE_IMPORTANCE = 0.1
# An agent message of this many non-empty lines is a report (a list of what was done), not a step.
REPORT_LINES = 5

REQUEST, ANSWER, NARRATION, EVIDENCE, SAID = "request", "answer", "narration", "evidence", "said"


@dataclass(frozen=True)
class Round:
    """A user's request and the agent's answers to it (narration left out), in time order."""

    request: Chunk
    answers: tuple[Chunk, ...]
    outcome: Chunk | None  # the answer that says what came of the request


@dataclass(frozen=True)
class Session:
    key: str
    chunks: tuple[Chunk, ...]
    rounds: tuple[Round, ...]


def is_agent(chunk: Chunk) -> bool:
    return chunk.speaker.strip().lower() in AGENT_SPEAKERS


def is_evidence(chunk: Chunk) -> bool:
    return chunk.importance is not None and chunk.importance <= EVIDENCE_IMPORTANCE


def sessions_of(chunks: Sequence[Chunk]) -> list[Session]:
    """The day's sessions in order of their first chunk; chunks without a session are left out."""
    grouped: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        if chunk.session:
            grouped.setdefault(chunk.session, []).append(chunk)
    return [Session(key, tuple(members), _rounds(members)) for key, members in grouped.items()]


def roles(chunks: Sequence[Chunk]) -> dict[str, str]:
    """Each chunk's part in its session: request, answer, narration, evidence, or said (anything else)."""
    found: dict[str, str] = {}
    for chunk in chunks:
        found[chunk.id] = _evidence_role(chunk) if is_evidence(chunk) else SAID
    for session in sessions_of(chunks):
        if not _agent_session(session.chunks):
            continue
        for chunk in session.chunks:
            if not is_evidence(chunk):
                found[chunk.id] = REQUEST if not is_agent(chunk) else NARRATION
        for round_ in session.rounds:
            for answer in round_.answers:
                found[answer.id] = ANSWER
        for answer in _before_any_request(session.chunks):
            found[answer.id] = ANSWER
    return found


def _evidence_role(chunk: Chunk) -> str:
    return NARRATION if is_agent(chunk) else EVIDENCE


def _agent_session(chunks: Sequence[Chunk]) -> bool:
    """An agent spoke (if only on the way, in narration) and someone else asked."""
    return any(is_agent(c) for c in chunks) and any(not is_agent(c) and not is_evidence(c) for c in chunks)


def _rounds(chunks: Sequence[Chunk]) -> tuple[Round, ...]:
    if not _agent_session(chunks):
        return ()
    rounds: list[Round] = []
    request: Chunk | None = None
    run: list[Chunk] = []
    for chunk in chunks:
        if is_evidence(chunk):
            continue
        if not is_agent(chunk):
            if request is not None:
                rounds.append(_round(request, run, chunks))
            request, run = chunk, []
        elif request is not None:
            run.append(chunk)
    if request is not None:
        rounds.append(_round(request, run, chunks))
    return tuple(rounds)


def _round(request: Chunk, run: Sequence[Chunk], session: Sequence[Chunk]) -> Round:
    """Marked by the importer, the first answer is the request's (the text after the last tool
    call; later ones reply to background tasks); unmarked, the last report, or the last message
    before the user speaks."""
    answers = _answers(run, session)
    if not answers:
        return Round(request, answers, None)
    if _marked(session):
        return Round(request, answers, answers[0])
    reports = [c for c in answers if _is_report(c)]
    return Round(request, answers, (reports or list(answers))[-1])


def _marked(session: Sequence[Chunk]) -> bool:
    return any(is_evidence(c) for c in session)


def _before_any_request(chunks: Sequence[Chunk]) -> tuple[Chunk, ...]:
    """Agent messages before the day's first request (a session that began the day before)."""
    leading: list[Chunk] = []
    for chunk in chunks:
        if is_evidence(chunk):
            continue
        if not is_agent(chunk):
            break
        leading.append(chunk)
    return _answers(leading, chunks)


def _answers(run: Sequence[Chunk], session: Sequence[Chunk]) -> tuple[Chunk, ...]:
    """The answers in a run of agent messages between two requests. Where the importer marked
    narration, what it left unmarked is the answer (the text after the last tool call, a reply
    to a background task); unmarked, the run's last message is the answer, and any report."""
    if _marked(session):
        return tuple(run)
    return tuple(c for i, c in enumerate(run) if i == len(run) - 1 or _is_report(c))


def _is_report(chunk: Chunk) -> bool:
    return sum(1 for line in chunk.text.splitlines() if line.strip()) >= REPORT_LINES
