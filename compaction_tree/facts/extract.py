"""Durable facts by cue, from one day's chunks (deterministic and offline).

Each sentence is split where chat runs two together, cleaned of chatter, and checked against what
disqualifies a statement (gates.py: questions, hypotheticals, temporary arrangements, rejected
options, hearsay, pasted logs, one moment, work told as it happens). Then the cue tables
(cues.py) are tried, the first that matches deciding the category and subject; then the frames
(frames.py), which find a statement by what it is about whatever its word order; a sentence
stating a change ("we switched Atlas from Heroku to Fly.io") is a fact by itself. Last, a user's
sentence none of them took is put to the learned model (learned.py), behind stricter gates of its
own: a verb of state, nothing under way or planned, no chatter; its facts are less sure (0.65).
A sentence that is still left but tells a change with a value ("nightly export now starts at
01:00") is kept as change-only: a fact only as the change of a subject already known (updates.py).

A subject key names the thing and the side of it ("kestrel_host", "acme_limit", "priya_role"), so
that a fact and its later change meet on one key or are linked by consolidate.py.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..config import Config
from ..summary import FactCandidate
from ..text import STOPWORDS, WORD, fold, sentences, stem, word_form
from ..topics import is_generic
from . import learned
from .cues import BROAD_CUES, CUES, LEAD_VERB, POST, VALUE_SPLIT, Cue
from .frames import FrameMatch, frame_of
from .gates import (
    ANSWERING,
    ASSISTANTS,
    CAUSE,
    DURABLE,
    EVENT,
    EVIDENCE,
    FIRST_PERSON,
    HABIT,
    HEDGE,
    ONE_OFF,
    PREAMBLE,
    RECURRING,
    ROUTINE,
    STATIVE,
    clean_sentence,
    lasting_change,
    rejection,
    standing_state,
    undated,
)
from .pasted import said_text
from .statement import (
    ASPECT_OF,
    CALENDAR,
    CHANGE_VERB,
    CHANGE_WORDS,
    CLASS_NOUNS,
    CODE_NAME,
    DEPARTURE_LEAD,
    KNOWN_ASPECTS,
    NUMBER_WORDS,
    SETTING,
    Change,
    change_of,
    names_of,
    new_value,
    plain_text,
)
from .updates import CHANGE_ONLY_CONFIDENCE, TOLD_CHANGE, VALUE_WORDS

if TYPE_CHECKING:
    from ..summarizers import Unit

EXTRACTOR_VERSION = "cues-38"
MAX_FACT_WORDS = 45  # a longer sentence is an explanation, not a fact
MAX_KEY_WORDS = 6
LEARNED_FLOOR = 0.8  # the learned model's probability a statement must reach (chosen on the blind set and LoCoMo chat)
LEARNED_FLOOR_UNNAMED = 0.98  # for a statement that names and counts nothing
LEARNED_CONFIDENCE = 0.65  # stored (facts.min_confidence 0.6), not standing in ROOT.md (store.STANDING_MIN_CONFIDENCE)
SUBJECT = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*")


def is_assistant(speaker: str) -> bool:
    folded = fold(speaker).strip()
    return folded in ASSISTANTS or folded.startswith(("assistant", "ai "))


# words that say nothing about what a key names, even next to a specific one
_VAGUE = re.compile(
    r"^(?:new|old|current|main|whole|same|other|thing|things|stuff|one|ones|lot|bit|way|time|day|week|year|we're|i'm|"
    r"it's|that's|let's|really|very|still|just|now|then|also|only|please|thanks|ok|okay|yes|no|some|any|every|all|"
    r"mostly|usually|often|always|never|sometimes|actually|currently|finally|officially|probably|basically)$"
)
_CLAUSE_BREAK = re.compile(r"(?<=[.!?])\s+(?:[^\w\s]{1,4}\s+)?(?=[\"'(]?[A-Za-z])")
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|vs|etc|approx|cf|incl|dr|mr|mrs|ms|st|prof|jr|sr|no)\.$", re.IGNORECASE)


def clauses(sentence: str) -> list[str]:
    """A sentence split where chat starts a new one in lowercase or after an emoji ("agreed. commit: ...")."""
    parts: list[str] = []
    for piece in _CLAUSE_BREAK.split(" ".join(sentence.split())):
        if parts and _ABBREVIATION.search(parts[-1]):
            parts[-1] += " " + piece
        elif piece:
            parts.append(piece)
    return parts


_VAGUE_NAMES = frozenset({"ok", "hi", "so", "oh", "no", "yes"})


def key_words(text: str, generic: bool = False) -> list[str]:
    """The words of a phrase that can name a subject: content word forms, generic ones only if asked."""
    words = []
    for token in WORD.findall(text):
        token = re.sub(r"['’]s$", "", token)
        form = fold(token) if token[:1].isupper() and not token.isupper() else word_form(token)
        if not form or fold(token) in STOPWORDS or form[0].isdigit():
            continue
        short_name = len(token) == 2 and token.istitle() and form not in _VAGUE_NAMES  # "Bo", "Jo"
        if not generic and is_generic(form) and not ((token.isupper() and len(token) >= 2) or short_name):
            continue
        words.append(form)
    return words


def subject_key(*parts: str, aspect: str = "", generic: bool = False, drop: Iterable[str] = ()) -> str:
    """A short snake_case key: the subject phrase's content words (at most six), then the aspect.

    A phrase with one specific word keeps its generic ones too ("token_lifetime", not "lifetime").
    """
    dropped = set(drop)
    words = [w for part in parts for w in key_words(part, generic) if w not in dropped]
    if len(words) == 1 and not generic:
        wider = [w for part in parts for w in key_words(part, True) if w not in dropped and not _VAGUE.match(w)]
        words = wider[:3] if words[0] in wider[:3] else words
    return key_from_words(words, aspect)


def key_from_words(forms: Iterable[str], aspect: str = "") -> str:
    words: list[str] = []
    for form in forms:
        ascii_form = unicodedata.normalize("NFKD", form).encode("ascii", "ignore").decode()
        words.extend(p for p in re.split(r"[^a-z0-9]+", ascii_form.lower()) if p and p not in words)
    words = list(dict.fromkeys(ASPECT_OF.get(w, w) for w in words))
    specific = [w for w in words if w not in CLASS_NOUNS and w not in ASPECT_OF.values()]
    if specific:  # "ledger_datastore", not "ledger_service_datastore"
        words = [w for w in words if w not in CLASS_NOUNS]
    if aspect and aspect not in words:
        words = [*words[: MAX_KEY_WORDS - 1], aspect]
    return "_".join(words[:MAX_KEY_WORDS])


_SUBJECT_GROUPS = ("s0", "s", "sa", "s2", "sa2", "s3", "sa3", "s4", "s5")  # the thing first, then its side


def _subject_of(match: re.Match[str], cue: Cue) -> str:
    groups = {k: v for k, v in match.groupdict().items() if v}
    subject = " ".join(groups[k] for k in _SUBJECT_GROUPS if k in groups)
    verb = (groups.get("verb") or "").lower()
    if cue.name in ("we-host", "runs-on") and re.search(r"\bdata$", subject.strip(), re.IGNORECASE):
        return subject.strip()[:-4] + " datastore"  # "inventory-api data lives in MongoDB": where it keeps its data
    if cue.name == "thats-my-preference" and key_words(groups.get("v", "")):
        subject += " " + key_words(groups["v"])[-1]  # "rebase merges for Ibis pls": Ibis's merges, not all of Ibis
    if cue.name == "data-stays" and not re.search(r"\bdata$", subject.strip(), re.IGNORECASE):
        subject += " data"  # "Acme's contract says all their data lives in Canada": where Acme's data stays
    if cue.name in ("we-host", "picked-for") and subject and verb:
        subject += " " + {"keep": "datastore", "store": "datastore", "build": "ci", "queue": "queue"}.get(verb, "host")
    if cue.name == "broad-relation" and subject:
        relation = match.string[match.start() : match.start("v")]
        if re.search(r"\b(?:kept|retained|stored)\s+for\s*$", relation, re.IGNORECASE):
            subject += " retention"  # "logs are kept for 90 days": how long they are kept, one side of the logs
        elif re.search(r"\bexpires?\s+after\s*$", relation, re.IGNORECASE):
            subject += " timeout"  # "sessions expire after 30 minutes": the sessions' timeout
    if cue.name in ("no-x-on", "broad-no-x") and re.search(
        r"\b(?:deploy(?:ment)?|release|merge|ship)s?$", subject, re.I
    ):
        subject += " cutoff"  # "no deploys on Fridays": when shipping stops, as "the freeze day is Thursday now"
    if cue.name == "meeting-at" and groups.get("s2"):
        subject += " standup"  # "the design team stands up at 10:30": the design standup
    if cue.name in ("i-always", "i-never") and subject:
        # "I never deploy to production on a Friday": what is done, to what ("deploy_production")
        objects = [w for w in key_words(groups.get("v", "")) if w not in CALENDAR]
        subject += " " + objects[0] if objects else ""
    if (
        subject
        and cue.name in ("runs-on", "is-versioned")
        and verb
        and not any(w in ASPECT_OF for w in key_words(subject))
    ):
        subject += " CI" if "build" in verb else " hosting" if re.search(r"host|deploy|run|live", verb) else " " + verb
    if not subject and cue.category == "decision" and not (change_of(groups.get("v", "")) or Change("", "", "", 0)).old:
        # "we decided to host Atlas on Heroku": the subject sits before the value's preposition,
        # and the verb says which aspect of it ("atlas_host", not "atlas": its CI is another subject)
        value = groups.get("v", "")
        for_split = re.match(r"^(?P<v>.+?)\s+for\s+(?P<s>.+)$", value, re.IGNORECASE)
        verb = LEAD_VERB.match(value)
        split = for_split or VALUE_SPLIT.match(LEAD_VERB.sub("", value))
        subject = _REASON_TAIL.sub("", split.group("s")) if split else ""
        if verb and not for_split and subject:
            subject += " " + verb.group("verb")
    if groups.get("on"):  # "decision on catalog-api: Postgres for persistence": what was decided on, that side of it
        subject = f"{groups['on']} {subject}".strip()
    return subject


# a reply's pointer to an item of the message it answers ("on 1, ...", "re #2: ..."): meaningless in a fact
_ITEM_REFERENCE = re.compile(r"^(?:on|re|as for|about)\s+(?:point\s+|item\s+|#)?\d{1,2}\s*[,:]\s+(?=\S)", re.IGNORECASE)


def _fact_text(speaker: str, text: str) -> str:
    """The sentence as a fact; a first-person one is quoted with its speaker ("alice: I prefer tabs.")."""
    text = _ITEM_REFERENCE.sub("", text)
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
    change_only: bool = False  # a change told in passing, a fact only as the change of a known subject
    replaced_only: bool = False  # too unsure to be a fact, but one as the value a later change names as replaced


_ONE_CHOICE = re.compile(
    r"^the\b.{0,40}\b(?:approach|option|one|idea|version|variant|solution|fix|way|plan)\b", re.IGNORECASE
)
_SELF = re.compile(r"^(?:i|i'm|i am|we|we're|we are)$", re.IGNORECASE)
_SELF_RULE = re.compile(r"^(?:stay|remain|keep|support|comply|use|run|store|be|never|only|always)\b", re.IGNORECASE)


# "On-call: three people from now on": a note's label names what its sentences are about
_LABEL = re.compile(r"^(?P<label>[A-Za-z][\w'’/ -]{1,30}?)\s*:\s+(?=\S)")
_NOT_A_TOPIC = re.compile(
    r"^(?:decided|decision(?: made)?|agreed|final (?:call|decision)|settled|note|notes|n\.?b|rule|new rule|reminder|"
    r"update|fyi|edit|ps|important|tl;?dr|heads[- ]up|quick note|side note|also|so|ok|okay|next|reasons?|causes?|"
    r"(?:\w+\s+)?news|announcement|"
    r"impact|"
    r"fix(?:es)?|problem|question|answer|results?|summary|todo|done|context|status|why|because|plan|idea|goal|target|"
    r"curl|error|log|logs|output|example|e\.g)$"
    r"|\b(?:i|me|my|we|us|our|you|your|this|that|it|he|she|they|for)\b",
    re.IGNORECASE,
)
_VERSION_VALUE = re.compile(r"^\s*(?:version\s+)?v?\d+(?:\.\d+)+\w*\b|(?-i:[A-Z])[\w.-]*\s+v?\d+\.\d+\b", re.IGNORECASE)
# an address: a URL, or a host name in lowercase with a subdomain ("staging.example.app", not "Fly.io")
_URL_VALUE = re.compile(r"https?://|\b[a-z0-9-]+(?:\.[a-z0-9-]+)+\.(?:app|dev|io|com|net|org|cloud)\b")
# "billing now instead of Omar": what a change replaces is not part of what it is about
_CHANGE_TAIL = re.compile(r"(?:\s+now)?,?\s+(?:instead of|rather than|not|no longer|replacing)\b.*$", re.IGNORECASE)
_REASON_TAIL = re.compile(r"\s+(?:because|since|as|so that|now that|after)\b.*$", re.IGNORECASE)


def topic_of(sentence: str) -> str:
    """The label a note starts with ("Postgres: ...", "On-call: ..."), when it names a topic."""
    match = _LABEL.match(PREAMBLE.sub("", " ".join(sentence.split())))  # "fyi new habit: ..." is about a habit
    if match is None:
        return ""
    label = match.group("label").strip()
    if len(label.split()) > 4 or _NOT_A_TOPIC.search(label) or not key_words(label):
        return ""
    return label


def extract_sentence(sentence: str, speaker: str) -> Extracted | None:
    """The first durable fact a sentence states, or None (see extract_statements); a change told in passing
    is none by itself."""
    return next((e for e in extract_statements(sentence, speaker) if not (e.change_only or e.replaced_only)), None)


def extract_statements(sentence: str, speaker: str) -> list[Extracted]:
    """The durable facts a sentence states, one per clause at most (see the cue tables and `rejection`), the
    changes it tells in passing (change_only: facts only as the change of a known subject), and what it may state
    (replaced_only: facts only as the value a later change names as replaced)."""
    topic = topic_of(sentence)
    return _read([(clause, topic) for clause in clauses(sentence)], speaker)


def statements_of(text: str, speaker: str) -> list[Extracted]:
    """A turn's statements (see extract_statements), sentence by sentence; what was pasted into it (code, logs,
    configuration, terminal output, JSON: pasted.py) states nothing."""
    said = said_text(text)
    return _read([(clause, topic_of(s)) for s in sentences(said) for clause in clauses(s)], speaker)


def _read(pieces: list[tuple[str, str]], speaker: str) -> list[Extracted]:
    """The statements of clauses said one after another, each with its topic; a question answered at once, or a
    change told over two clauses, is read as one statement (`_asked_and_answered`, `_told_together`)."""
    found: list[Extracted] = []
    previous, before = "", None  # the clause before, and its statement
    for clause, topic in pieces:
        own = _from_clause(clause, speaker, topic)
        asked = _asked_and_answered(previous, clause) if previous and before is None else ""
        if asked:  # "our data engineer? that's Lena": what the question names is what the answer is about
            own = _from_clause(asked, speaker, topic) or own
        elif previous and own is not None and (before is None or before.replaced_only):
            together = _told_together(previous, clause, speaker, topic)
            if together is not None:
                if before is not None:
                    found.pop()  # the first clause's unsure statement is part of the change
                own = together
        if own is not None:
            found.append(own)
        previous, before = clause, own
    return found


def _told_together(first: str, second: str, speaker: str, topic: str) -> Extracted | None:
    """A change told over two clauses as one statement ("no more 10:00 standups for analytics! we meet at 9:30
    now"), when only the two joined name the value replaced."""
    joined = _joined(first, second)
    together = _from_clause(joined, speaker, topic) if joined else None
    if together is None or together.replaced_only or not _names_replaced(joined, first):
        return None
    return together


# a question that only names what the answer is about: "our data engineer?", "the data standup?", "migrating Ibis?"
_NAMED_BY_QUESTION = re.compile(r"^(?:our|my|the|their|his|her|\w{3,}ing)\s", re.IGNORECASE)


def _asked_and_answered(question: str, answer: str) -> str:
    """A question the speaker answers at once ("our data engineer? that's Lena", "migrating Ibis? do it before 7am")
    as one statement ("our data engineer: that's Lena"); not a question asked of someone ("who owns it?")."""
    question = PREAMBLE.sub("", question.strip())
    if not (question.endswith("?") and len(question.split()) <= 6 and _NAMED_BY_QUESTION.match(question)):
        return ""
    return f"{question.rstrip('? ')}: {answer}"


def _joined(first: str, second: str) -> str:
    """Two clauses as one ("no more X!" and "we meet at 9:30 now": "no more X, we meet at 9:30 now")."""
    first = first.rstrip().rstrip(".!")
    if re.search(r"[.!?]\s", first) or len((first + " " + second).split()) > MAX_FACT_WORDS:
        return ""
    return f"{first}, {second[:1].lower()}{second[1:]}"


def _names_replaced(joined: str, first: str) -> bool:
    """The joined clauses tell a change whose replaced value, a name or a number, the first clause holds."""
    change = change_of(clean_sentence(joined))
    if change is None or not change.old or change.old.casefold() not in first.casefold():
        return False
    return bool(names_of(change.old)[1] or re.search(r"\d", change.old))  # a value, not "an awesome experience"


def _from_clause(clause: str, speaker: str, topic: str) -> Extracted | None:
    """A clause's statement; for a request that states nothing sure itself, what it tells in passing."""
    found = _extract_clause(clause, speaker, topic)
    if found is not None and not found.replaced_only:
        return found
    return _aside(clause, speaker, topic) or found


# a request to the assistant ("can you update the runbook", "help me plan meals this week"), which is no fact,
# and what it tells in passing after a comma, said to be in passing ("the job queue is RabbitMQ btw", "remember
# I'm vegetarian"; not "her name is Mochi", "the deadline is Friday": what the task needs)
_REQUEST_ASIDE = re.compile(
    r"^(?:(?:can|could|would|will) you|pls|please|help me|draft|write|make|find|update|add|fix|check)\b[^,;?]*,\s+"
    r"(?:(?:and\s+)?(?:remember|btw|fyi|fwiw|note)[,:]?\s+(?P<marked>[^,;?]+?)|(?P<aside>[^,;?]+?)\s+(?:btw|fyi))"
    r"[.!]?$",
    re.IGNORECASE,
)


def _aside(clause: str, speaker: str, topic: str) -> Extracted | None:
    """What a request tells in passing after it, when the request states nothing itself."""
    told = _REQUEST_ASIDE.match(clause)
    return _extract_clause(told.group("marked") or told.group("aside"), speaker, topic) if told else None


def _with_value_aspect(key: str, value: str, text: str = "") -> str:
    """A key that names no side of its thing takes one from the kind of value: a version ("Postgres 16",
    "on 2.2"), an address. "Sprocket runs on Ruby 3.2" is about its version, not where it is hosted."""
    parts = key.split("_")
    if parts[-1:] == ["host"] and _VERSION_VALUE.match(value.strip()):
        return key_from_words(parts[:-1], "version")
    if not key or set(parts) & KNOWN_ASPECTS:
        return key
    words = "|".join(re.escape(w) for w in key.split("_"))
    if _VERSION_VALUE.search(value) or re.search(rf"\b(?:{words})\s+v?\d+(?:\.\d+)*\b", text, re.IGNORECASE):
        return key_from_words(key.split("_"), "version")
    if _URL_VALUE.search(value):
        return key_from_words(key.split("_"), "url")
    return key


# "from now on", "these days": they say a statement lasts, not what it is about
_LASTING = re.compile(
    r"(?:^|,?\s+)(?:from now on|from here on|going forward|moving forward|henceforth|these days|nowadays|"
    r"(?:from|starting)\s+(?:this|next)\s+(?:sprint|week|month|quarter|release|term|year)(?:\s+on)?)\b,?",
    re.IGNORECASE,
)
_LASTING_CUES = frozenset({"from-now-on", "x-from-now-on", "please-always"})
_ALLOWED = re.compile(r"\ballowed\b", re.IGNORECASE)


def _extract_clause(raw: str, speaker: str, topic: str = "", ask_model: bool = True) -> Extracted | None:
    raw = raw.replace("’", "'")  # the cues are written with a straight apostrophe; phones type a curly one
    text = clean_sentence(raw)
    if not 2 <= len(text.split()) <= MAX_FACT_WORDS:
        return None
    found = _by_cue(text, raw, speaker, topic) or _after_label(text, speaker, topic)
    if found is not None or not ask_model:
        return found
    return _by_model(text, raw, speaker, topic) or _told_change(text, raw, speaker) or _maybe(text, raw, speaker, topic)


# a label that tells news is coming ("announcement today:", "reorg news:", "update:")
_NEWS = re.compile(r"(?:(?:\w+\s+)?news|announcement|update)(?:\s+(?:today|yesterday|this \w+))?", re.IGNORECASE)


_TO_A_REFERENCE = re.compile(r"\b(?:to|on|from|by)\s+(?:it|this|that|them|these|those)\s*[.!]?$", re.IGNORECASE)


def _after_label(text: str, speaker: str, topic: str) -> Extracted | None:
    """What the cues find after a label that names no topic ("announcement today: Arjun becomes site reliability
    engineer", "update: ..."), the sentence whole as the fact."""
    label = _LABEL.match(text)
    if label is None or not _NEWS.fullmatch(label["label"].strip()):
        return None
    found = _by_cue(text[label.end() :], text[label.end() :], speaker, topic)
    return replace(found, fact=_fact_text(speaker, text)) if found is not None else None


def _by_cue(text: str, raw: str, speaker: str, topic: str) -> Extracted | None:
    lasting = _without_lasting(text, raw, speaker, topic) or _after_departure(text, raw, speaker, topic)
    if lasting is not None:
        return lasting
    assistant = is_assistant(speaker)
    # "Based on the config you pasted, the orders service reads from the replica": what the
    # assistant read in the user's own setup, which the broad cues may take from it
    evidence = EVIDENCE.match(text)
    plain = text[evidence.end() :] if evidence else text
    one_off = bool(ONE_OFF.search(raw))  # before cleaning: "right now" is not chatter
    for cue in CUES:
        broad = cue.name in BROAD_CUES
        if broad and one_off:
            continue
        if assistant and cue.who != "any" and not (broad and evidence and cue.category == "domain_fact"):
            continue
        match = cue.pattern.search(plain if broad else text)
        if match is None or rejection(text, raw, cue.category) is not None:
            continue
        if (broad or cue.name.startswith("attribute-")) and _evaluates(text):
            continue  # "Per-worker database: that sounds like a fixture thing": a reaction, not a setting
        if cue.who == "user!" and not (names_of(match.group(0))[1] or re.search(r"\d", match.group(0))):
            continue  # "the app uses too much memory": about nothing in particular
        value = next((v for k, v in sorted(match.groupdict().items()) if k.startswith("v") and v), "")
        if cue.category == "failure_pattern" and _TO_A_REFERENCE.search(value):
            continue  # "every failed run traces back to it": a cause told elsewhere
        if cue.category in ("preference", "entity") and _ONE_CHOICE.match(value):
            continue  # "Priya prefers the --use-list approach": a pick among options for one task
        subject = _subject_of(match, cue)
        # "I have to run to a meeting": what one must do now, unless it is a rule ("we must stay in the EU")
        rule = (
            DURABLE.search(text)
            or (subject.strip().lower().startswith("we") and _SELF_RULE.match(value))
            or _ALLOWED.search(match.group(0))  # "we're not allowed to call OpenAI": a rule as said
        )
        if cue.category == "constraint" and _SELF.match(subject.strip()) and not rule:
            continue
        key = _cue_key(cue, subject, _REASON_TAIL.sub("", value), text, topic)
        if not key:
            continue
        confidence = cue.confidence - (0.1 if HEDGE.search(text) else 0.0) - (0.05 if assistant else 0.0)
        return Extracted(cue.category, key, _fact_text(speaker, text), round(confidence, 2), cue.name)
    change = change_of(text)
    framed = frame_of(text, assistant, (change.old, change.new) if change else ())
    mine = re.search(r"\b(?:i|i'm|i've|my|me)\b", text, re.IGNORECASE) or _ELIDED_I.match(text)
    if framed is not None and (change is None or (change.contrast and not mine) or assistant):
        return _framed(framed, text, raw, speaker, topic)
    # "it's a flat white for me, not the iced latte": a contrast states a change when it is one's own
    if change is None or (change.contrast and not (mine and key_words(change.old, generic=True))) or assistant:
        return None
    # "we switched Atlas from Heroku to Fly.io", "no more cortado for me": a change states a fact by itself
    if rejection(text, raw, "decision", change) is not None or (
        EVENT.search(text) and not _sets_a_target(text, change)
    ):
        return None
    if _FILE.search(change.new or text[change.start :]) or _WORK_ITEM.match(text):
        return None  # "moved the helpers to utils.py", "the ticket got moved to Done": work, not a setting
    # what follows how a change came about names it before a frame does; change_key looks there first itself
    if framed is None:
        key = change_key(text, change, topic)
    else:
        key = _key_after_came_about(text, change, topic) or _frame_key(framed)
    if mine and ANSWERING.search(text) and (framed is None or framed.frame.aspect == "answers"):
        key = "answers"  # how the assistant should answer: one subject, whatever the wording
    if not key and mine:  # "I've switched from cortado to flat white": a change of one's own, named by its values
        key = subject_key(change.old, generic=True) or _value_key(change.old) or subject_key(text, generic=True)
    if not key:
        return None  # "15 minutes, not 30": a change of nothing named
    category = framed.frame.category if framed is not None else "preference" if mine else "decision"
    return Extracted(category, key, _fact_text(speaker, text), 0.8, "change")


def _value_key(value: str) -> str:
    """A key of a value's words, numbers too ("a 50-minute 10K": "50_minute_10k"), for a change named by it."""
    return key_from_words(w for w in re.findall(r"[a-z0-9]+", fold(value)) if w not in STOPWORDS)


# the sides of a thing that a metric's value sets: a target's change is a setting, the metric's moving an event
_TARGETS = frozenset(
    {"goal", "target", "limit", "cap", "ceiling", "quota", "timeout", "sla", "slo", "budget", "threshold"}
)
_FIXED = re.compile(r"\b(?:fixed|resolved|solved)\b", re.IGNORECASE)


def _by_model(text: str, raw: str, speaker: str, topic: str) -> Extracted | None:
    """A statement no cue or frame knew the wording of, if the learned model is sure of it (learned.py).
    The gates still apply, and stricter ones (gates.standing_state); a change keys as changes do, the rest
    by the phrase before its verb (`_model_key`)."""
    if is_assistant(speaker) or _of_the_moment(text, raw) or not standing_state(text):
        return None
    seen = learned.opinion(text, False)
    # "Dancing is like second nature to me": about nothing named or counted, the model must be surer
    floor = LEARNED_FLOOR if _names_or_counts(text) else LEARNED_FLOOR_UNNAMED
    if seen.probability < floor or _disqualified(text, raw, seen.category):
        return None
    change = change_of(text)
    if change is not None and (change.old or change.subject):
        key = change_key(text, change, topic)
    else:
        key = _model_key(" ".join(_LASTING.sub(" ", text).split()), topic)  # "from this sprint on" names no side
    if not key:
        return None
    confidence = LEARNED_CONFIDENCE - (0.1 if HEDGE.search(text) else 0.0)
    return Extracted(seen.category, key, _fact_text(speaker, text), round(confidence, 2), "learned")


_HOPE = re.compile(r"\b(?:fingers crossed|hopefully|knock on wood|touch wood)\b", re.IGNORECASE)


def _of_the_moment(text: str, raw: str) -> bool:
    """What one moment holds, a reaction, or what happened ("right now", "looks fine", "we moved it"): checked
    before the learned model is asked, of the main clause only (`main_clause`), but for a hope anywhere ("goes
    live on June 5, fingers crossed": not so yet)."""
    if _HOPE.search(raw):  # before cleaning, which reads "fingers crossed" as chatter
        return True
    main = main_clause(text)
    moment = raw if main == text else main  # the raw text's first clause may be chatter ("oh btw, ...")
    return bool(ONE_OFF.search(moment) or _evaluates(main) or _past_tense(main))


# what is added after a statement to tell of an occasion it holds for ("..., we throttled it during the DDoS", "...,
# I rebooked after the strike", "..., the usual one got flooded")
_OCCASION = re.compile(r"\b(?:when|during|while|after|until|till|twice|the usual|usually|normally)\b", re.IGNORECASE)


# a day that comes once: "dinner is at 7 on Saturday" (not "on Saturdays", "every Saturday")
_ONE_DAY = re.compile(
    r"\bon\s+(?:(?:this|next|the)\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b(?!s)"
    r"|\bon\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d",
    re.IGNORECASE,
)


def main_clause(text: str) -> str:
    """A statement's first clause when it states a standing state on its own and names or counts something, before
    what is added after a comma: why, since when, who settled it ("Tern's builds go through GitLab CI, picked it
    because it's free", "quarterly is how often Evergreen gets an invoice, they negotiated that"), which tells how
    the statement came to hold, not that it holds only for a moment. The whole text otherwise, and where what is
    added tells of an occasion (`_OCCASION`) or the clause names a day that comes once (`_ONE_DAY`)."""
    first, *rest = re.split(r"\s*[,;]\s+|\s+(?:-|–|—)\s+", text, maxsplit=1)
    if not rest or _OCCASION.search(rest[0]) or _ONE_DAY.search(first):
        return text
    if len(first.split()) < 4 or not standing_state(first) or not _names_or_counts(first):
        return text
    if TOLD_CHANGE.search(first):
        return text  # "access tokens live for 5 minutes now, security asked": a change, told against what it changes
    return first


def _disqualified(text: str, raw: str, category: str) -> bool:
    """What no statement the model took may be: a question, a hypothetical... (`rejection`), a story (told in its
    main clause), a file or a work item."""
    if rejection(text, raw, category, change_of(text)) is not None:
        return True
    told = main_clause(text)
    return bool(_NARRATIVE.search(CAUSE.split(told)[0]) or _FILE.search(text) or _WORK_ITEM.match(text))


# what says a choice was made and holds, in whatever words it is told ("that's my pick", "we shook on it")
_SETTLED = re.compile(
    r"\b(?:(?:we|everyone|they|all)\s+(?:all\s+)?agreed|settled on|shook on it|debate is over|(?:my|our) pick|"
    r"full stop|that'?s final|non-negotiable|end of discussion|case closed|no exceptions|(?<!until )signed off|"
    r"standardi[sz](?:ed|ing) on)\b",
    re.IGNORECASE,
)
# what says a failure has a standing cause, in the present tense ("the culprit is that it uses the real clock")
_CAUSE_TOLD = re.compile(
    r"\b(?:the (?:culprit|root cause|cause|reason|problem) is|(?:it|that)'?s because|(?:it )?comes down to|"
    r"(?:is|are) caused by|fails? because)\b",
    re.IGNORECASE,
)


def _maybe(text: str, raw: str, speaker: str, topic: str) -> Extracted | None:
    """A statement the learned model leans to but is not sure enough of ("logs go to papertrail": no name, no
    number), or a standing state with a name or a number in it that it does not lean to ("the cron for invoice
    emails fires at 02:00 UTC"): kept as replaced-only, a fact only once a later change names its value as
    replaced ("we moved logging off papertrail"). Unless it says the choice is settled ("Tern branches land on
    main via rebase merges, that's my pick") or a failure's standing cause ("..., and the culprit is that it uses the
    real clock"): then no cue knew its wording, but the speaker vouches it holds. What disqualifies any statement (a
    question, a moment, what is only planned...) disqualifies it too."""
    if is_assistant(speaker) or _of_the_moment(text, raw):
        return None
    seen = learned.opinion(text, False)
    # the model leans to it, or it states a standing state with a name or a number in it ("payday is the 25th")
    if seen.probability < LEARNED_FLOOR and not (standing_state(text) and _names_or_counts(text)):
        return None
    if _disqualified(text, raw, seen.category):
        return None
    key = _model_key(" ".join(_LASTING.sub(" ", text).split()), topic) or subject_key(text, generic=True)
    if not key:
        return None
    fact = _fact_text(speaker, text)
    if _SETTLED.search(text):
        return Extracted(seen.category, key, fact, LEARNED_CONFIDENCE, "settled")
    if _CAUSE_TOLD.search(text):
        return Extracted("failure_pattern", key, fact, LEARNED_CONFIDENCE, "cause-told")
    return Extracted(seen.category, key, fact, LEARNED_CONFIDENCE, "maybe", replaced_only=True)


# what is only thought, wanted or planned ("Viktor thinks we should rebuild it"): no new value of anything
_NOT_TOLD = re.compile(
    r"\b(?:should|shall|could|would|might|may|thinks?|wants? to|plans? to|planning|will|gonna|going to|hoping)\b",
    re.IGNORECASE,
)
_METRIC = re.compile(r"\b(?:cpu|memory|ram|disk|load|traffic|usage)\b", re.IGNORECASE)
# a trip, not a move: "my sister went over to Edinburgh for the festival"
_TRIP = re.compile(
    r"\b(?:went|go|goes|going|gone|flew|drove|headed)\s+(?:over\s+|down\s+|up\s+)?to\s+[^,;.]*?\bfor\s+"
    r"(?:the|a|an|my|our|his|her|their)\b",
    re.IGNORECASE,
)


def _told_change(text: str, raw: str, speaker: str) -> Extracted | None:
    """A change told in words no cue knows ("Halyard moved to port 9443"), kept as change-only: it becomes a
    fact only as the change of a subject already known (updates.py). The gates apply as to any statement; what
    is only thought or planned and a metric's reading tell no change."""
    if is_assistant(speaker) or not TOLD_CHANGE.search(text) or _NOT_TOLD.search(text) or _TRIP.search(text):
        return None
    change = change_of(text)
    # a lasting change that names what it replaces, by name or as a setting, is a story of a change, whatever else
    # it tells on the way ("Curlew isn't on Heroku anymore, it was rehomed on Railway"): no passing event (but "p95
    # went from 180 ms to 420 ms" is a reading, "Friday's retro got moved from 4pm to 2pm, it was a short week" once)
    names_old = change is not None and bool(re.search(r"(?-i:[A-Z])|" + SETTING, change.old))
    told = names_old and lasting_change(text, change)
    if _evaluates(text) and not told:
        return None
    took_effect = undated(raw, as_of=True)  # "as of yesterday" dates the change, it is no passing moment
    if ONE_OFF.search(took_effect) or _FILE.search(text) or _WORK_ITEM.match(text):
        return None
    if rejection(text, took_effect, "decision", change) is not None:
        return None
    sets_a_target = bool({fold(w) for w in WORD.findall(text)} & _TARGETS)
    if ((EVENT.search(text) and not told) or _METRIC.search(text)) and not sets_a_target:
        return None  # "CPU is pegged at 100% since Thursday", "off now as planned": a reading, an event
    if not (_named_things(text) or re.search(r"\d", text) or {word_form(w) for w in WORD.findall(text)} & VALUE_WORDS):
        return None  # "the queue is new": no value to be the subject's new one
    key = subject_key(text, generic=True)  # a placeholder: anchoring gives it the key of the subject it changes
    if not key:
        return None
    return Extracted(
        "decision", key, _fact_text(speaker, text), CHANGE_ONLY_CONFIDENCE, "told-change", change_only=True
    )


def _named_things(text: str) -> frozenset[str]:
    """The names a sentence holds, past its first word (which is capitalized anyway)."""
    first = WORD.match(text)
    return names_of(text[first.end() :] if first else text)[1]


def _model_key(text: str, topic: str) -> str:
    """What a statement the model took is about: the phrase before its verb ("our staging box", "Pilar's
    birthday"), or the note's topic, with the side of things the sentence names; a statement about oneself ("I
    take the 42 bus to work") by what follows the verb, its names left out (they are the value, as "Hetzner" is
    in "our staging box is on Hetzner", which must meet "we moved staging to DigitalOcean"), or by the verb
    ("I drive a Skoda Octavia"). A habit is about what comes before its schedule ("the nightly export starts at
    02:30"); a post or a job held by someone named first, about the post or the job ("Femi is our DBA")."""
    sides = [ASPECT_OF[w] for w in key_words(text, generic=True) if w in ASPECT_OF]
    side = sides[0] if sides else ""
    verb = STATIVE.search(text)
    if verb is None:  # a habit: what comes before its schedule or source ("the nightly export starts", "we release")
        # (past a subject and its verb: in "the nightly export starts at 02:30", "nightly" is no schedule)
        before = next((text[: h.start()] for h in HABIT.finditer(text) if len(text[: h.start()].split()) >= 2), "")
        verb = None if before else ROUTINE.search(text)  # else a routine's verb: "the api listens on 8080"
        if verb is None:
            return subject_key(before, aspect=side) or subject_key(before, aspect=side, generic=True)
    before = text[: verb.start()]
    held = _held_by_name(text)
    if held is not None:
        # "Femi is our DBA", "Bea does our Instagram": who holds a post or does a job is its value, as in "our DBA
        # is Femi"; the post or the job is what it is about
        doer = held.group("verb").lower() not in ("is", "'s", "’s")
        return subject_key(held.group("s"), aspect="owner" if doer else "")
    if key_words(before, generic=True):
        key = subject_key(before, aspect=side) or subject_key(before, aspect=side, generic=True)
        if set(key.split("_")) <= KNOWN_ASPECTS:  # "CI still runs postgres:15": not what CI is, a side of it
            key = key_from_words([key, *key_words(text[verb.end() :])[:1]])
        return key
    if topic:
        return subject_key(topic, aspect=side)
    after = text[verb.end() :]
    _, names = names_of(after)
    return subject_key(after, aspect=side, drop=names) or side or subject_key(verb.group(), generic=True)


_HELD = re.compile(
    r"(?P<verb>is|['’]s|does|runs|handles|manages|leads|owns|covers|teaches|coaches|services?|suppl(?:y|ies))\s+"
    r"(?:our|my|the)\s+(?P<s>[\w' -]+?)\s*(?:[,;.(]|$|\s+(?:for|at|in|on)\b)",
    re.IGNORECASE,
)


# someone named first and what they are or do ("Leo is studying chemistry", "Anouk teaches maths"; not "Mom is in
# the hospital", "Tuesday works for me")
_NAMED_FIRST = re.compile(
    r"^(?P<name>[A-Z][a-z]+)\s+(?:is\s+(?:a|an|our|my|the|studying|learning|training)|works|teaches|studies|leads|"
    r"lives|coaches|manages)\b"
)


def _names_or_counts(text: str) -> bool:
    """The statement names or counts something: a name ("Leo is studying chemistry"), a number, a path
    ("/healthz"), a day or a cadence ("every Friday", "runs hourly"; not "Tuesday works for me")."""
    if _named_things(text) or re.search(r"\d|(?<![\w/])/\w", text) or _held_by_name(text):
        return True
    first = _NAMED_FIRST.match(text)
    if first and not is_generic(first.group("name").lower()) and first.group("name").lower() not in CALENDAR:
        return True
    # a day, a month or a cadence past the first word ("reviews in the afternoons"; not "Tuesday works for me")
    later = {word_form(t) for t in WORD.findall(text)[1:]}
    return bool(RECURRING.search(text) or later & (VALUE_WORDS - NUMBER_WORDS))


def _held_by_name(text: str) -> re.Match[str] | None:
    """ "Femi is our DBA", "Sabine does our books": a post or a job, held by someone named first (not one of
    several, as brothers and friends are)."""
    held = _HELD.search(text)
    if held is None or not _only_names(text[: held.start()]) or _MANY.search(held.group("s")):
        return None
    return held


_MANY = re.compile(
    r"\b(?:brothers?|sisters?|siblings?|friends?|cousins?|kids?|children|child|sons?|daughters?|colleagues?|"
    r"neighbou?rs?|uncles?|aunts?|nephews?|nieces?|teammates?|classmates?|clients?|customers?|students?|fans?)$",
    re.IGNORECASE,
)


def _only_names(phrase: str) -> bool:
    """A phrase of names alone ("Femi", "Greenflame", "Dr Sato"): someone, or some firm, not a thing's side."""
    words = WORD.findall(phrase)
    return bool(words) and len(words) <= 3 and all(w[:1].isupper() and fold(w) not in STOPWORDS for w in words)


def _sets_a_target(text: str, change: Change) -> bool:
    """ "Search latency goal got tightened to 200ms": the change of a target, though it names a metric and its
    value (which alone tell of an event, "latency went up to 300ms")."""
    if _FIXED.search(text) or not change.new:
        return False
    return bool({fold(w) for w in WORD.findall(change.subject or text[: change.start])} & _TARGETS)


def _read_as(
    text: str, core: str, raw: str, speaker: str, topic: str, skip: frozenset[str] = frozenset()
) -> Extracted | None:
    """What a statement states when its core is read alone (for its subject and category), kept in its own words."""
    if core == text or rejection(text, raw, "decision") is not None:
        return None
    inner = _extract_clause(core, speaker, topic, ask_model=False)  # the whole sentence may still state a change
    if inner is None or inner.cue in skip:
        return None
    return Extracted(inner.category, inner.subject, _fact_text(speaker, text), inner.confidence, inner.cue)


def _without_lasting(text: str, raw: str, speaker: str, topic: str) -> Extracted | None:
    """What a statement that says it lasts ("the staging URL is X from now on") states, read without the words
    that say so, so that its subject is what it is about, not the rest of the sentence."""
    bare = " ".join(_LASTING.sub(" ", text).split()).strip(" ,")
    return _read_as(text, bare, raw, speaker, topic, skip=_LASTING_CUES)


# "Rune stepped down, ...": who left is the value replaced (statement.py), what follows the statement
_DEPARTED = re.compile(DEPARTURE_LEAD + r"(?=(?-i:[A-Z]))", re.IGNORECASE)


def _after_departure(text: str, raw: str, speaker: str, topic: str) -> Extracted | None:
    """What "Rune stepped down, Olga leads the data team now" states: its subject is that of what follows the
    departure ("data_owner"), so that it meets "Rune leads the data team"."""
    departed = _DEPARTED.match(text)
    return _read_as(text, text[departed.end() :], raw, speaker, topic) if departed else None


# "the gateway is slow", "Drone queue for Kestrel is long": how something is doing, not what it is
_EVALUATION = re.compile(
    r"\b(?:is|are|was|were|looks?|feels?|seems?|stays?|went|got)\s+(?:\w+\s+)?(?:slow|fine|long|short|clean|good|great|nice|"
    r"happy|well|bad|down|up|red|green|busy|quiet|full|empty|done|late|early|ok|okay|solid|painful|annoying|flaky|"
    r"holding up|working|doing)\b|\b(?:again|as usual|like before|sounds? like|looks? like|seems? like)\b"
    r"|\btoo\s+(?!much\b|many\b)\w+|:\s*(?:solid|fast|slow|good|great|meh|fine|nice|bad|decent|okay|ok|painful|promising)\b"
    r"|^it['’]?s\s+(?:definitely|probably|likely|just|actually|clearly|obviously)\b",
    re.IGNORECASE,
)


# what opens the condition or cause a statement depends on ("deploys die every time the pods take too long to drain")
_CONDITION = re.compile(r"\b(?:every time|each time|whenever|when|as soon as)\b", re.IGNORECASE)


def _evaluates(text: str) -> bool:
    """The statement says how something is doing ("the gateway is slow"), not in the condition it states
    ("document-store deploys die every time the old pods take too long to drain")."""
    return bool(_EVALUATION.search(_CONDITION.split(text, maxsplit=1)[0]))


_NARRATIVE = re.compile(
    r"\b(?:was|were|had|did|got|went|bit|came|took|made|said|told|knows|setting up|set up)\b|^(?:set|setting)\b",
    re.IGNORECASE,
)
_CONTRAST = re.compile(r",\s*not\s+[^,;]+", re.IGNORECASE)  # "bullet points, not paragraphs": a choice, not a denial
_NEGATED = re.compile(r"\b(?:not|never|no|n't|don'?t|doesn'?t|isn'?t|aren'?t|won'?t|without)\b", re.IGNORECASE)
_DECIDED = re.compile(
    r"^(?:decided|decision(?: made)?|agreed|final (?:call|decision)|settled|rule|new rule|note|reminder)$",
    re.IGNORECASE,
)
# what a word in -ed describes after: "is hosted", "we're closed", "stored in memcached", "our shared drive"
_PARTICIPLE_OK = re.compile(
    r"(?:\b(?:is|are|be|been|being|gets?|got|stays?|remains?)|['’](?:s|re))\s+(?:\w+ly\s+)?$"
    r"|\b(?:in|on|with|into|onto|by|via|the|a|an|our|my|their|your)\s+$",
    re.IGNORECASE,
)


def _past_tense(text: str) -> bool:
    """A verb in the past ("moved", "deployed"), not a participle that describes ("is hosted", "pinned to")."""
    for match in re.finditer(r"\b[a-z]{3,}ed\b", text):
        word = match.group()
        if word in ("need", "based", "used", "speed", "seed", "feed", "embed", "pinned", "contracted") or word.endswith(
            "eed"
        ):
            continue
        if not _PARTICIPLE_OK.search(text[: match.start()]):
            return True
    return False


def _frame_key(framed: FrameMatch) -> str:
    if not framed.thing:
        return framed.frame.aspect
    verbs = [w for w in key_words(framed.thing, generic=True) if stem(w) in CHANGE_WORDS]  # "growth is switching to"
    return subject_key(framed.thing, aspect=framed.frame.aspect, drop=verbs) or framed.frame.aspect


def _framed(framed: FrameMatch, text: str, raw: str, speaker: str, topic: str) -> Extracted | None:
    """A statement the cues did not know the wording of, found by its frame (frames.py)."""
    frame = framed.frame
    if rejection(text, raw, frame.category) is not None or _evaluates(text) or ONE_OFF.search(raw):
        return None
    if _NARRATIVE.search(CAUSE.split(text)[0]) or _past_tense(text):
        return None  # "the 30 s router timeout bit us", "I did that during the setup": what happened
    if frame.category not in ("constraint",) and _NEGATED.search(_CONTRAST.sub("", text)):
        return None  # "I don't want mocks for the database at all": not what the database is
    label = _LABEL.match(text)
    if label and framed.trigger_at >= label.end() and not _DECIDED.match(label.group("label")):
        return None  # "Timings: ...", "Rehearsal with Priya: dump of ... → a fresh database": notes about an event
    key = _frame_key(framed)
    if not framed.thing and topic:
        key = subject_key(topic, aspect=frame.aspect) or key
    confidence = 0.7 - (0.1 if HEDGE.search(text) else 0.0) - (0.05 if is_assistant(speaker) else 0.0)
    return Extracted(frame.category, key, _fact_text(speaker, text), round(confidence, 2), f"frame-{frame.aspect}")


_INSTRUCTION = re.compile(
    r"^(?:write|give|use|keep|send|show|put|add|include|make|format|call|book|order|pick|choose|get|run|deploy|merge|"
    r"push|schedule|review)\s+(?:me\s+|my\s+|the\s+|your\s+|all\s+|any\s+)?(?P<thing>[\w-]+(?:\s+[\w-]+){0,2}?)"
    r"(?=\s+(?:in|with|like|as|for|on|at|to|by|when|so|because|before|after|from|without)\b)",
    re.IGNORECASE,
)


# "the workflow engine is Airflow": what a named value fills
_FILLED = re.compile(
    r"^(?:the\s+|our\s+|my\s+)?(?P<s>(?!(?:it|this|that|he|she|they|we|i)\b)[\w-]+(?:\s+[\w-]+){0,2}?)\s+(?:is|are)\s+"
    r"(?:now\s+)?(?-i:[A-Z])[\w.-]*(?:\s+(?-i:[A-Z0-9])[\w.-]*){0,2}$",
    re.IGNORECASE,
)


# what the speaker is, by cue (cues.py): keyed by the side the cue names ("role"), whatever the value
_SELF_CUES = frozenset({"self-role", "self-origin", "self-language", "self-age"})


def _cue_key(cue: Cue, subject: str, value: str, text: str, topic: str = "") -> str:
    if cue.category == "preference" and ANSWERING.search(text) and not (subject and not ANSWERING.search(subject)):
        return "answers"  # how the assistant should answer: one subject, whatever the wording
    filled = _FILLED.match(value.strip().rstrip(".")) if cue.name in _LASTING_CUES and not subject else None
    if filled is not None:  # "from now on the workflow engine is Airflow": about the workflow engine
        return subject_key(filled.group("s")) or subject_key(filled.group("s"), generic=True)
    subject = _CHANGE_TAIL.sub("", subject)
    key = subject_key(subject or topic, aspect=cue.aspect) if subject or topic else ""
    if key:
        return _with_value_aspect(key, value, text)
    if cue.aspect and (cue.category in ("preference", "constraint") or cue.name in _SELF_CUES):
        return cue.aspect  # "I'm vegan", "I'm a nurse": the side names the subject, the value is the value
    change = change_of(value)
    if change is not None and change.old:  # "Decision made: we're moving from Heroku to Fly.io"
        return change_key(value, change) or subject_key(change.old, generic=True)
    sides = [w for w in key_words(value, generic=True) if ASPECT_OF.get(w) in KNOWN_ASPECTS]
    if sides and not cue.aspect and cue.category == "preference":  # "I eat vegan": the subject is the diet
        return key_from_words(sides)
    if cue.category == "preference":
        # "always write commit messages in imperative mood": what the instruction is about, "commit_message"
        thing = _INSTRUCTION.match(value)
        if thing and subject_key(thing.group("thing")):
            return subject_key(thing.group("thing"), aspect=cue.aspect)
    return subject_key(value, aspect=cue.aspect) or subject_key(value or text, aspect=cue.aspect, generic=True)


# the item of work a sentence is about ("the ticket got moved to Done"), not a thing named after one ("the card
# reader is SumUp")
_WORK_ITEM = re.compile(
    r"^(?:the|this|that|my|your|our)\s+(?:pr|pull request|ticket|branch|issue|card|commit|file|task|story|bug)s?\b"
    r"(?!\s+(?!(?:is|are|was|were|got|gets|has|have|had|needs?|just|still|now|should|will|can|and)\b)[a-z])",
    re.I,
)
# a file worked on ("moved the helpers to utils.py"), not a framework ("Marlin is a Next.js app")
_FILE = re.compile(
    r"\b(?!(?-i:[A-Z][a-z]+)\.js\b)[\w-]+\.(?:py|js|ts|tsx|jsx|go|rs|rb|java|md|json|ya?ml|toml|txt|cfg|ini|sql|sh)\b"
    r"|\w/\w"
)
# "switched from X to Y this month", "dropping X, going for Y": chat leaves out the "I"
_ELIDED_I = re.compile(
    r"^(?:just\s+|finally\s+|please\s+)?(?:switched|moved|changed|went|gone|bumped|dropped|dropping|ditched|ditching|"
    r"upgraded|migrated|forget|gave up|switch|move|change|go|sold|quit|cancell?ed)\b",
    re.IGNORECASE,
)
_ADVERBS = frozenset(
    {"officially", "finally", "just", "now", "all", "everything", "already", "actually", "also", "morning", "today"}
)
_PARENTHESES = re.compile(r"\s*\([^()]*\)")


def _library_key(value: str) -> str:
    """ "Django 5.0": a version value names what it is the version of."""
    library = re.match(r"^\s*([A-Za-z][\w.-]*)\s+v?\d+(?:\.\d+)+", value)
    return subject_key(library.group(1), aspect="version", generic=True) if library else ""


_POST = re.compile(r"(?:the\s+|our\s+)?(?:new\s+)?" + POST, re.IGNORECASE)
_TAKES_OVER = re.compile(r"\b(?:(?:took|takes|taken|taking)\s+over\s+(?!as\b)|inherit(?:s|ed)\s)", re.IGNORECASE)


# how a change came about, told before it: a reason ending in "so" ("Drone licensing got silly so ..."), or what
# happened ("dependabot PR merged, ...")
_CAME_ABOUT = re.compile(
    r"^(?P<why>[^,;]*?\b(?:\w{3,}ed|got|kept|was|were|had)\b[^,;]*?)(?:,\s*so|\s+so|,)\s+(?!that\b|far\b|much\b|many\b)"
    r"(?=\S)",
    re.IGNORECASE,
)


# a clause that tells the move itself ("finally got off Nginx 1.20, 1.23 is live", "we got rid of the flaky Kong
# tests"), not how it came about
_TELLS_MOVE = re.compile(
    r"\b(?:" + CHANGE_VERB + r"|got off|got rid of|no more|ditched|retired|removed|killed|shut down|dropped)\b",
    re.IGNORECASE,
)
_PRONOUN_SUBJECT = re.compile(r"^(?:i|i'm|we|we're|they|they're|it|it's|you|he|she)\b", re.IGNORECASE)


def _key_after_came_about(text: str, change: Change, topic: str) -> str:
    """The key of a change told after how it came about, from what follows ("Drone licensing got silly so Kestrel
    CI is on Buildkite now": "kestrel_ci"); "" when it is not told so."""
    came_about = _CAME_ABOUT.match(text)
    if came_about is None or topic or _TELLS_MOVE.search(came_about["why"]):
        return ""
    rest = text[came_about.end() :]
    again = change_of(rest)
    key = change_key(rest, again) if again is not None and (again.old or again.subject) else ""
    if not key and not _PRONOUN_SUBJECT.match(rest):  # "Kestrel lives on Render now": keyed as statements are
        key = _with_value_aspect(_model_key(rest, ""), change.new or change.old, rest)
    return key


def change_key(text: str, change: Change, topic: str = "") -> str:
    """The subject of a change: what changed, without its old and new values or the verb that says so; what it
    is about is told after how it came about ("Drone licensing got silly so Kestrel CI is on Buildkite now")."""
    key = _key_after_came_about(text, change, topic)
    if key:
        return key
    post = _POST.fullmatch(change.subject)
    if post is not None:  # "took over as on-call lead": keyed by the post, as the cue "holds-post" keys its holder
        return subject_key(post.group("s"), post.group("sa") or "", aspect="owner")
    # "Paloma takes over catalog-api from Jonas" (not "Sam takes over the driving from Lyon")
    if re.fullmatch(CODE_NAME, change.subject) and _TAKES_OVER.search(text, change.start):
        return subject_key(change.subject, aspect="owner")
    new = new_value(text, change)
    verbs = [w for w in key_words(text, generic=True) if stem(w) in CHANGE_WORDS]  # "switched" names nothing
    label = _LABEL.match(text)
    # a label that names no topic ("reorg news: ...") says nothing of what changed
    said = key_words(label["label"], generic=True) if label and _NOT_A_TOPIC.search(label["label"].strip()) else []
    drop = [*key_words(change.old), *key_words(new), *verbs, *_ADVERBS, *said]
    text = _PARENTHESES.sub("", text)
    between = re.search(CHANGE_VERB + r"\s+(?P<s>.*?)\s*(?:\bfrom\b|,|\bto\b)", text, re.IGNORECASE)
    if change.subject or topic:  # named by the change itself: only its verbs and the old value are not the subject
        key = subject_key(change.subject or topic, drop=[*key_words(change.old), *verbs, *_ADVERBS])
    else:
        key = subject_key(text[: change.start], between.group("s") if between else "", drop=drop)
    key = key or subject_key(text, drop=drop) or _library_key(new)
    if not key:
        return ""
    # "the pool changed the schedule: Elsa swims on Wednesday instead of Monday" is about Elsa
    named = names_of(text)[1] - names_of(change.old)[1] - names_of(new)[1]
    tokens = [
        t for t in WORD.findall(text) if word_form(re.sub(r"['’]s$", "", t)) in named and not is_generic(t.lower())
    ]
    explicit = bool(change.subject or topic)
    if tokens and not explicit and not {stem(word_form(w)) for w in key.split("_")} & {stem(n) for n in named}:
        key = key_from_words([*key_words(tokens[0]), *key.split("_")])
    return _with_value_aspect(key, new or change.old, text)


def extract_facts(unit: Unit, config: Config) -> tuple[FactCandidate, ...]:
    """The durable facts stated in one day's chunks, found by cue (deterministic and offline)."""
    day = unit.period.key
    found: dict[tuple[str, str], FactCandidate] = {}
    for chunk in unit.chunks:
        for extracted in statements_of(chunk.text, chunk.speaker):
            if extracted.confidence < config.fact_min_confidence:
                continue
            key = (extracted.subject, plain_text(extracted.fact).casefold())
            previous = found.get(key)
            if previous is None:
                found[key] = FactCandidate(
                    extracted.category,
                    extracted.subject,
                    extracted.fact,
                    extracted.confidence,
                    day,
                    (chunk.id,),
                    extracted.change_only,
                    extracted.replaced_only,
                )
            elif chunk.id not in previous.sources:  # said twice the same day: one candidate, both sources
                found[key] = replace(previous, sources=(*previous.sources, chunk.id))
    return tuple(found.values())
