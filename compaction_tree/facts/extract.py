"""Durable facts from one day's chunks, offline: few frames, read precisely (issue 27).

What was pasted (code, logs, configuration, terminal output, JSON: pasted.py) states nothing. Each
sentence left is dropped when it is a question, a hypothetical, narration of work under way, a moment
("today", "for now") or too long to be one statement; then an explicit marker ("remember that …",
"from now on …") or one of the frames (frames.py) must match. A sentence no frame takes is no fact:
the offline tier's job is precision, and reading English in all its wordings is the model's job.

A fact's text is the statement without a speaker label or chatter before it; its subject key names
what the fact is about ("database", "manager"), from the sentence's own words for it, and only when the
sentence names nothing else, from the value.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..config import Config
from ..summary import FactCandidate
from ..text import STOPWORDS, WORD, fold, sentences, word_form
from ..topics import is_generic
from . import learned
from .frames import (
    FRAMES,
    HYPOTHETICAL,
    INTRODUCER,
    LEAD,
    MAIN_CLAUSE_END,
    MARKER,
    MOMENT,
    NARRATION,
    NOT_YET,
    OLD_VALUE_TAIL,
    QUESTION,
    SPEAKER_LABEL,
    STANDING,
    Frame,
)
from .pasted import is_pasted, said_text

if TYPE_CHECKING:
    from ..summarizers import Unit

# the extractor's own version, in the summarizer's params (a new one re-reads every day)
EXTRACTOR_VERSION = "frames-3"
MAX_FACT_WORDS = 40  # a longer sentence is an explanation, not a fact
MAX_KEY_WORDS = 6
MAX_VALUE_WORDS = 10  # a longer "value" is a clause the frame should not have taken
MARKED_CONFIDENCE = 0.9  # the speaker said outright it is to be kept
# what only the learned model read: below the standing-facts floor (0.7), so it waits in facts/ until said again
LEARNED_CONFIDENCE = 0.65
LEARNED_KEY_WORDS = 3  # a statement the model read names its subject first: its first content words
# a sentence end before a lowercase word ("Deployed. release ran, no-op as expected. switching DNS now"): chat the
# sentence splitter leaves whole, several statements in one
_SEVERAL_SENTENCES = re.compile(r"[.!?]\s+(?=[a-z])")
_POINTS_BACK = re.compile(r"(?:it|they|this|that|he|she)(?:['’](?:s|re|ve|ll|d))?\b", re.IGNORECASE)
SUBJECT = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")
ASSISTANTS = frozenset({"assistant", "ai", "agent", "bot", "model", "system", "claude", "chatgpt", "gpt"})


@dataclass(frozen=True)
class Extracted:
    category: str
    subject: str
    fact: str
    confidence: float
    cue: str  # the frame that read it
    value: str = ""
    replaces: tuple[str, str] | None = None
    change_only: bool = False  # kept for the store's readers: this extractor tells no change in passing
    replaced_only: bool = False


def is_assistant(speaker: str) -> bool:
    folded = fold(speaker).strip()
    return folded in ASSISTANTS or folded.startswith(("assistant", "ai "))


# --- subject keys ---


def key_words(text: str, generic: bool = False) -> list[str]:
    """The words of a phrase that can name a subject: content word forms, generic ones only if asked."""
    words = []
    for token in WORD.findall(text):
        token = re.sub(r"['’]s$", "", token)
        form = fold(token) if token[:1].isupper() and not token.isupper() else word_form(token)
        if not form or fold(token) in STOPWORDS or form[0].isdigit():
            continue
        if generic or not is_generic(form) or token.isupper():
            words.append(form)
    return words


def key_from_words(forms: Iterable[str], aspect: str = "") -> str:
    words: list[str] = []
    for form in forms:
        ascii_form = unicodedata.normalize("NFKD", form).encode("ascii", "ignore").decode()
        words.extend(p for p in re.split(r"[^a-z0-9]+", ascii_form.lower()) if p and p not in words)
    if aspect and aspect not in words:
        words = [*words[: MAX_KEY_WORDS - 1], aspect]
    return "_".join(words[:MAX_KEY_WORDS])


def subject_key(*parts: str, aspect: str = "", generic: bool = False, drop: Iterable[str] = ()) -> str:
    """A short snake_case key: the subject phrase's content words (at most six), then the aspect.

    A phrase with at most one specific word keeps its generic ones too ("infra_code", "database"): alone, a
    generic word names nothing, and a specific one names the thing but not its side.
    """
    dropped = set(drop)
    words = [w for part in parts for w in key_words(part, generic) if w not in dropped]
    if len(words) <= 1 and not generic:
        wider = [w for part in parts for w in key_words(part, True) if w not in dropped]
        words = wider[:3] if not words or words[0] in wider[:3] else words
    return key_from_words(words, aspect)


# --- sentences ---


def clean(sentence: str) -> str:
    """The statement without a speaker label, chatter before it or spaces doubled."""
    text = " ".join(sentence.split())
    text = SPEAKER_LABEL.sub("", text)
    return LEAD.sub("", text).strip()


def _fact_text(text: str) -> str:
    body = text[0].upper() + text[1:]
    return body if body[-1] in ".!" else body + "."


def disqualified(text: str) -> bool:
    """A question, hypothetical, narration, moment, undone choice or explanation: no fact, whatever frame fits."""
    if len(text.split()) > MAX_FACT_WORDS or len(text.split()) < 2 or is_pasted(text):
        return True
    checks = (QUESTION, HYPOTHETICAL, NARRATION, MOMENT, NOT_YET)
    return any(check.search(text) for check in checks)


def _trimmed(value: str | None) -> str:
    value = (value or "").strip(" .!\"'“”")
    return re.sub(r"^(?:the|a|an|our|my)\s+", "", value, flags=re.IGNORECASE)


# frames whose value is a state: a verb in -ing there is something under way ("my back is killing me")
_STATE_FRAMES = frozenset({"was-now", "my-is", "possessive-is", "counted-is", "person-role", "hosted"})


# frames that name no subject of their own: a bare name as the value is not enough to know what it is about
_NEEDS_SUBJECT = frozenset({"decided", "decision-label", "use-named", "like"})
# frames told by a verb of choice, rule or change: their main clause is a statement even with an aside after it
# ("we settled on Ruff, black is gone"); a plain "X is Y" with an aside is often a comment ("Boats: Laser, ...")
_VERB_FRAMES = tuple(
    f for f in FRAMES if f.name not in {"my-is", "possessive-is", "counted-is", "named-is", "label", "person-role"}
)
_COMPARING = frozenset({"prefer", "like"})
_HOSTING = frozenset({"decided-host", "hosted", "runs-on"})
_PERSONAL = re.compile(r"\b(?:i|me|you|your|he|his|she|her|we|us|they|them|their)\b", re.IGNORECASE)
# frames whose value must start with a word of content: "always use X", not "always here to help", "chose them"
_CONTENT_FIRST = frozenset({"always-never", "decided", "prefer", "like", "must"})


def _says_something(value: str) -> bool:
    """A value with a word of content or a number, not pointing back: "results are in" gives "in", which says
    nothing; "went from 1550 ms to double that" gives "double that", which says it only with what came before."""
    words = [fold(token) for token in WORD.findall(value)]
    return any(w not in STOPWORDS for w in words) and not _POINTING_BACK.intersection(words)


_POINTING_BACK = frozenset({"that", "it", "those", "them"})


# frames whose value may be any phrase: "my X is Y" names X's manager, birthday or host, or says how X is ("my knee
# is fine now", "our velocity is all over the place"): a condition or an opinion, no lasting fact
_FREE_VALUE_FRAMES = frozenset({"my-is", "possessive-is"})


def _names_or_counts(raw_value: str) -> bool:
    """The value names or counts something: a name or a number in it ("Priya", "March 3", "QA lead"), or a noun
    phrase an article or a preposition introduces ("a nurse", "on a grain-free diet"), not a bare description
    ("fine now", "all over the place", "on hold")."""
    if INTRODUCER.match(raw_value.strip()):
        return True
    return any((token[:1].isupper() and token != "I") or any(c.isdigit() for c in token) for token in raw_value.split())


def _under_way(frame: str, value: str) -> bool:
    first = value.split()[0].casefold()
    return frame in _STATE_FRAMES and first.endswith("ing") and len(first) > 5


def _no_fact_value(frame: str, match: re.Match[str]) -> bool:
    """The frame's value says nothing, is under way, or describes rather than names: no fact, by its shape."""
    value = _trimmed(match.group("value"))
    return (
        not _says_something(value)
        or _under_way(frame, value)
        or (frame in _FREE_VALUE_FRAMES and not _names_or_counts(match.group("value")))
    )


def _shaped_as_no_fact(text: str) -> bool:
    """A frame fits the statement and its value tells it is no fact ("my knee is fine now"): the model is not asked."""
    return any((match := frame.pattern.match(text)) and _no_fact_value(frame.name, match) for frame in FRAMES)


def _read(text: str, frames: Iterable[Frame] = FRAMES) -> Extracted | None:
    """The first frame that reads the statement, as a fact."""
    for frame in frames:
        match = frame.pattern.match(text)
        if match is None:
            continue
        groups = {k: _trimmed(v) for k, v in match.groupdict().items()}
        value = groups.get("value", "")
        if len(value.split()) > MAX_VALUE_WORDS or _no_fact_value(frame.name, match):
            continue
        named, aspect = groups.get("subject") or groups.get("subject2") or "", ""
        old = groups.get("old") or groups.get("old2") or ""
        if frame.name == "live-work":  # "I live in Lyon" is about where the user lives
            named = "home" if named == "live" else "workplace" if groups.get("prep") != "as" else "role"
        elif named.casefold() in {"i", "i'm", "i am"}:
            named = "allergies"
        elif frame.name == "person-role":  # "Rosa is in charge of billing" is about Rosa's role
            aspect = "role"
        elif frame.name in _HOSTING and named:  # "Bramble is deployed on Hetzner" is about where Bramble runs
            aspect = "host"
        elif frame.name in _HOSTING:  # "we decided to deploy on Fly.io": about where we deploy
            named = groups.get("verb", "")
        if frame.name in _CONTENT_FIRST and fold(value.split()[0]) in STOPWORDS:
            continue
        if _PERSONAL.search(named):  # "draft a reply saying I": a clause, not a thing's name
            continue
        if not named and frame.name in _NEEDS_SUBJECT and len(value.split()) <= 2:
            continue  # "Decided: HS256." says nothing of what HS256 is for: a subject must not be its value
        subject = subject_key(named, aspect=aspect) if named else subject_key(value, old)
        if not subject:
            continue
        category = "constraint" if frame.name == "always-never" and groups.get("mode", "").casefold() == "never" else ""
        replaces = (subject, old) if old and frame.name != "prefer" else None
        return Extracted(
            category or frame.category, subject, _fact_text(text), frame.confidence, frame.name, value, replaces
        )
    return None


def _body(text: str) -> tuple[str, str] | None:
    """The statement an explicit marker or standing rule introduces, and which one it was."""
    for name, pattern in (("marker", MARKER), ("from-now-on", STANDING)):
        match = pattern.match(text)
        if match:
            body = next(g for g in match.groups() if g)
            return body.strip(), name
    return None


def _marked(text: str, body: str, marker: str) -> Extracted | None:
    """A statement the speaker marked as lasting: a frame's reading of it if one fits, else itself."""
    read = _read(LEAD.sub("", body)) or _read(text)
    if read is not None:
        kept = body if marker == "marker" else text  # "remember that" is no part of the fact; "from now on" is
        return replace(read, fact=_fact_text(kept), confidence=MARKED_CONFIDENCE, cue=f"{marker}+{read.cue}")
    subject = key_from_words(key_words(body)[:3])
    if not subject:
        return None
    category = "preference" if marker == "from-now-on" else "domain_fact"
    kept = body if marker == "marker" else text
    return Extracted(category, subject, _fact_text(kept), MARKED_CONFIDENCE, marker, _trimmed(body))


def gated(sentence: str, speaker: str) -> str | None:
    """The sentence's statement, cleaned, when no gate shuts it out (the agent's words, a question, ...)."""
    if is_assistant(speaker):  # what the agent says back is no fact of the user's
        return None
    text = clean(sentence)
    return None if disqualified(text) else text


def extract_sentence(
    sentence: str, speaker: str, *, use_model: bool = True, weights: learned.Model | None = None
) -> Extracted | None:
    """The durable fact one sentence states, or None: a marker or frame reads it, else the learned model may
    (use_model False: frames alone; weights: another model than the shipped one, for training)."""
    text = gated(sentence, speaker)
    if text is None:
        return None
    marked = _body(text)
    if marked is not None:
        body, marker = marked
        return None if disqualified(body) else _marked(text, body, marker)
    read = _read_without_old_value(text) or _read(text) or _read_main_clause(text)
    if read is not None or not use_model or _shaped_as_no_fact(text):
        return read
    return _read_by_model(text, weights)


def _read_by_model(text: str, weights: learned.Model | None) -> Extracted | None:
    """What the learned model holds to be a fact, unsure (LEARNED_CONFIDENCE): the statement is the value."""
    if _SEVERAL_SENTENCES.search(text) or text.rstrip().endswith(":") or _POINTS_BACK.match(text):
        return None  # one statement, saying what it is about: not a run the splitter left whole, a line leading
        # into a paste, nor a statement about "it" or "they" (what was said before)
    seen = learned.opinion(text, weights)
    subject = key_from_words(key_words(text)[:LEARNED_KEY_WORDS])
    if not seen.sure or not subject:
        return None
    return Extracted(seen.category, subject, _fact_text(text), LEARNED_CONFIDENCE, "learned", _trimmed(text))


def _read_without_old_value(text: str) -> Extracted | None:
    """A statement read without the old value it names ("the standup is at 9:15, no longer 10:00"): it replaces it."""
    tail = OLD_VALUE_TAIL.search(text)
    if tail is None or tail.start() == 0:
        return None
    read = _read(text[: tail.start()])
    if read is not None and read.cue in _COMPARING:
        return None  # "tea instead of coffee" is a preference between two, not a change
    old = _trimmed(tail.group("old") or tail.group("old2"))
    if read is None or not old or read.replaces:
        return read and replace(read, fact=_fact_text(text))
    return replace(read, fact=_fact_text(text), replaces=(read.subject, old))


def _read_main_clause(text: str) -> Extracted | None:
    """The statement read from its main clause alone ("we settled on Ruff, black is gone"); the fact keeps all."""
    main = MAIN_CLAUSE_END.split(text, maxsplit=1)[0]
    if main == text or len(main.split()) < 2:
        return None
    read = _read(main, _VERB_FRAMES)
    return replace(read, fact=_fact_text(text)) if read else None


def extract_statements(sentence: str, speaker: str, use_model: bool = True) -> list[Extracted]:
    """The facts a sentence states (at most one)."""
    found = extract_sentence(sentence, speaker, use_model=use_model)
    return [found] if found else []


def statements_of(text: str, speaker: str, use_model: bool = True) -> list[Extracted]:
    """A turn's facts, sentence by sentence; what was pasted into it states nothing."""
    return [found for s in sentences(said_text(text)) for found in extract_statements(s, speaker, use_model)]


def extract_facts(unit: Unit, config: Config) -> tuple[FactCandidate, ...]:
    """The durable facts stated in one day's chunks (deterministic and offline)."""
    day = unit.period.key
    found: dict[tuple[str, str], FactCandidate] = {}
    for chunk in unit.chunks:
        for extracted in statements_of(chunk.text, chunk.speaker, config.fact_learned):
            if extracted.confidence < config.fact_min_confidence:
                continue
            key = (extracted.subject, extracted.fact.casefold())
            previous = found.get(key)
            if previous is None:
                found[key] = FactCandidate(
                    extracted.category,
                    extracted.subject,
                    extracted.fact,
                    extracted.confidence,
                    day,
                    (chunk.id,),
                    value=extracted.value,
                    replaces=extracted.replaces,
                )
            elif chunk.id not in previous.sources:  # said twice the same day: one candidate, both sources
                found[key] = replace(previous, sources=(*previous.sources, chunk.id))
    return tuple(found.values())
