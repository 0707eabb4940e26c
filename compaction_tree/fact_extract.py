"""Durable facts by cue, from one day's chunks (deterministic and offline).

Each sentence is cleaned of chatter, checked against what disqualifies a statement (questions,
hypotheticals, temporary arrangements, rejected options, hearsay), then against the cue tables
(fact_cues.py), the first that matches deciding its category and subject; a sentence stating a
change ("we switched Atlas from Heroku to Fly.io") is a fact by itself.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .config import Config
from .fact_cues import (
    ANSWERING,
    ASSISTANTS,
    BROAD_CUES,
    CUES,
    EVENT,
    EVIDENCE,
    FIRST_PERSON,
    HEARSAY,
    HEDGE,
    HYPOTHETICAL,
    LEAD_VERB,
    ONE_OFF,
    PREAMBLE,
    QUESTION_START,
    REJECTED,
    TEMPORARY,
    TRAILER,
    VALUE_SPLIT,
    Cue,
)
from .fact_text import ASPECT_OF, CHANGE_VERB, CHANGE_WORDS, NEW_VALUE, change_of, names_of, plain_text
from .summary import FactCandidate
from .text import STOPWORDS, WORD, fold, sentences, stem, word_form
from .topics import is_generic

if TYPE_CHECKING:
    from .summarizers import Unit

EXTRACTOR_VERSION = "cues-1"
MAX_FACT_WORDS = 45  # a longer sentence is an explanation, not a fact
MAX_KEY_WORDS = 6
SUBJECT = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")


def is_assistant(speaker: str) -> bool:
    folded = fold(speaker).strip()
    return folded in ASSISTANTS or folded.startswith(("assistant", "ai "))


def clean_sentence(sentence: str) -> str:
    """A sentence without the chatter around it ("oh btw, ...", "... lol")."""
    text = " ".join(sentence.split())
    for _ in range(3):
        before = text
        text = TRAILER.sub("", PREAMBLE.sub("", text).strip()).strip()
        if text == before:
            break
    return text.rstrip(" ,;:-")


def _disqualified(text: str, cue: Cue) -> bool:
    """Questions, hypotheticals, temporary arrangements, rejected options and hearsay state no fact."""
    if text.endswith("?") or QUESTION_START.match(text):
        return True
    if TEMPORARY.search(text) or REJECTED.search(text):
        return True
    if HYPOTHETICAL.search(text):
        # "X fails if the cache is cold" is a failure pattern; "if we decided..." is not a decision
        conditional_failure = cue.category == "failure_pattern" and not re.match(r"(?:if|what if)\b", text, re.I)
        if not conditional_failure:
            return True
    return cue.category not in ("entity", "failure_pattern") and bool(HEARSAY.search(text))


def key_words(text: str, generic: bool = False) -> list[str]:
    """The words of a phrase that can name a subject: content word forms, generic ones only if asked."""
    words = []
    for token in WORD.findall(text):
        token = re.sub(r"['’]s$", "", token)
        form = fold(token) if token[:1].isupper() and not token.isupper() else word_form(token)
        if not form or fold(token) in STOPWORDS or form[0].isdigit():
            continue
        if not generic and is_generic(form) and not (token.isupper() and len(token) >= 2):
            continue
        words.append(form)
    return words


def subject_key(*parts: str, aspect: str = "", generic: bool = False, drop: Iterable[str] = ()) -> str:
    """A short snake_case key: the subject phrase's content words (at most six), then the aspect."""
    dropped = set(drop)
    return key_from_words([w for part in parts for w in key_words(part, generic) if w not in dropped], aspect)


def key_from_words(forms: Iterable[str], aspect: str = "") -> str:
    words: list[str] = []
    for form in forms:
        ascii_form = unicodedata.normalize("NFKD", form).encode("ascii", "ignore").decode()
        words.extend(p for p in re.split(r"[^a-z0-9]+", ascii_form.lower()) if p and p not in words)
    words = list(dict.fromkeys(ASPECT_OF.get(w, w) for w in words))
    if aspect and aspect not in words:
        words = [*words[: MAX_KEY_WORDS - 1], aspect]
    return "_".join(words[:MAX_KEY_WORDS])


def _subject_of(match: re.Match[str], cue: Cue) -> str:
    groups = {k: v for k, v in match.groupdict().items() if v}
    subject = " ".join(groups[k] for k in ("s0", "s", "s2", "s3") if k in groups)
    verb = (groups.get("verb") or "").lower()
    if (
        subject
        and cue.name in ("runs-on", "is-versioned")
        and verb
        and not any(w in ASPECT_OF for w in key_words(subject))
    ):
        subject += " CI" if "build" in verb else " hosting" if re.search(r"host|deploy|run|live", verb) else " " + verb
    if not subject and cue.category == "decision":
        # "we decided to host Atlas on Heroku": the subject sits before the value's preposition,
        # and the verb says which aspect of it ("atlas_host", not "atlas": its CI is another subject)
        value = groups.get("v", "")
        for_split = re.match(r"^(?P<v>.+?)\s+for\s+(?P<s>.+)$", value, re.IGNORECASE)
        verb = LEAD_VERB.match(value)
        split = for_split or VALUE_SPLIT.match(LEAD_VERB.sub("", value))
        subject = split.group("s") if split else ""
        if verb and not for_split and subject:
            subject += " " + verb.group("verb")
    return subject


def _fact_text(speaker: str, text: str) -> str:
    """The sentence as a fact; a first-person one is quoted with its speaker ("alice: I prefer tabs.")."""
    body = text[0].upper() + text[1:]
    if body[-1] not in ".!":
        body += "."
    label = speaker if re.fullmatch(r"[\w.-]{1,40}", speaker) else "user"
    return f"{label}: {body}" if FIRST_PERSON.search(text) else body


@dataclass(frozen=True)
class Extracted:
    category: str
    subject: str
    fact: str
    confidence: float
    cue: str


def extract_sentence(sentence: str, speaker: str) -> Extracted | None:
    """The durable fact one sentence states, or None (see the cue table and the disqualifiers)."""
    text = clean_sentence(sentence)
    if not 2 <= len(text.split()) <= MAX_FACT_WORDS:
        return None
    assistant = is_assistant(speaker)
    # "Based on the config you pasted, the orders service reads from the replica": what the
    # assistant read in the user's own setup, which the broad cues may take from it
    evidence = EVIDENCE.match(text)
    plain = text[evidence.end() :] if evidence else text
    one_off = bool(ONE_OFF.search(sentence))  # before cleaning: "right now" is not chatter
    for cue in CUES:
        broad = cue.name in BROAD_CUES
        if broad and (one_off or "?" in text):
            continue
        if assistant and cue.who != "any" and not (broad and evidence and cue.category == "domain_fact"):
            continue
        match = cue.pattern.search(plain if broad else text)
        if match is None or _disqualified(text, cue):
            continue
        if cue.who == "user!" and not (names_of(match.group(0))[1] or re.search(r"\d", match.group(0))):
            continue  # "the app uses too much memory": about nothing in particular
        value = next((v for k, v in sorted(match.groupdict().items()) if k.startswith("v") and v), "")
        subject = _subject_of(match, cue)
        key = (
            subject_key(subject, aspect=cue.aspect)
            or subject_key(value, aspect=cue.aspect)
            or subject_key(value or text, aspect=cue.aspect, generic=True)
        )
        if cue.category == "preference" and ANSWERING.search(text) and not (subject and not ANSWERING.search(subject)):
            key = "answers"  # how the assistant should answer: one subject, whatever the wording
        if not key:
            continue
        confidence = cue.confidence - (0.1 if HEDGE.search(text) else 0.0) - (0.05 if assistant else 0.0)
        return Extracted(cue.category, key, _fact_text(speaker, text), round(confidence, 2), cue.name)
    change = change_of(text)
    if change is None or assistant:
        return None
    # "we switched Atlas from Heroku to Fly.io", "no more cortado for me": a change states a fact by itself
    bare = Cue("change", "decision", 0.8, "user", "", re.compile(""))
    if _disqualified(text, bare) or EVENT.search(text):
        return None
    if not change.old and re.search(
        r"\b(?:today|tonight|tomorrow|this (?:week|morning|afternoon|evening))\b", text, re.I
    ):
        return None  # "the meeting moved to 3pm today": a one-off
    between = re.search(CHANGE_VERB + r"\s+(?P<s>.*?)\s*(?:\bfrom\b|,|\bto\b)", text, re.IGNORECASE)
    parts = [text[: change.start], between.group("s") if between else "", change.subject]
    later = NEW_VALUE.search(text, change.start) if not change.new else None
    new = change.new or (" ".join(v for v in later.groups() if v) if later else "")
    verbs = [w for w in key_words(text, generic=True) if stem(w) in CHANGE_WORDS]  # "switched" names nothing
    drop = [*key_words(change.old), *key_words(new), *verbs]
    key = (
        subject_key(*parts, drop=drop)
        or subject_key(text, drop=drop)
        or subject_key(text, drop=[*key_words(change.old), *verbs])
        or subject_key(text, generic=True, drop=verbs)
    )
    if not key:
        return None
    # "the pool changed the schedule: Elsa swims on Wednesday instead of Monday" is about Elsa
    named = names_of(text)[1] - names_of(change.old)[1] - names_of(new)[1]
    tokens = [
        t for t in WORD.findall(text) if word_form(re.sub(r"['’]s$", "", t)) in named and not is_generic(t.lower())
    ]
    if tokens and not {stem(word_form(w)) for w in key.split("_")} & {stem(n) for n in named}:
        key = key_from_words([*key_words(tokens[0]), *key.split("_")])
    mine = re.search(r"\b(?:i|i'm|i've|my|me)\b", text, re.IGNORECASE)
    return Extracted("preference" if mine else "decision", key, _fact_text(speaker, text), 0.8, "change")


def extract_facts(unit: Unit, config: Config) -> tuple[FactCandidate, ...]:
    """The durable facts stated in one day's chunks, found by cue (deterministic and offline)."""
    day = unit.period.key
    found: dict[tuple[str, str], FactCandidate] = {}
    for chunk in unit.chunks:
        for sentence in sentences(chunk.text):
            extracted = extract_sentence(sentence, chunk.speaker)
            if extracted is None or extracted.confidence < config.fact_min_confidence:
                continue
            key = (extracted.subject, plain_text(extracted.fact).casefold())
            previous = found.get(key)
            if previous is None:
                found[key] = FactCandidate(
                    extracted.category, extracted.subject, extracted.fact, extracted.confidence, day, (chunk.id,)
                )
            elif chunk.id not in previous.sources:  # said twice the same day: one candidate, both sources
                found[key] = FactCandidate(
                    previous.category,
                    previous.subject,
                    previous.fact,
                    previous.confidence,
                    day,
                    (*previous.sources, chunk.id),
                )
    return tuple(found.values())
