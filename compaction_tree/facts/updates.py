"""Changes told against what is already known: "Halyard moved to port 9443", "release train is weekly now".

People tell a change in any words, naming its subject only in passing; no cue can know them all.
Such a sentence is no fact by itself ("the export now starts at 01:00" might be about anything),
but it is one when it names the whole of a subject already known and gives it a new value: then
it is that subject's change. The extractor keeps these sentences as change-only candidates
(`FactCandidate.change_only`); before consolidation, `anchor` finds the subject each one changes
and gives it that subject's key and category, or drops it when it changes nothing known, or
nothing known for sure (two subjects fit equally well).

A subject fits a told change when:
- every word of the thing its key names is in the sentence ("nightly_export": "nightly" and "export"),
  one of them specific (not "use", not "api"), or the sentence says the value the subject's latest statement
  holds ended ("since Okafor retired") or was replaced ("we moved off LaunchDarkly onto Flagsmith"), or it names
  that value beside a new one of its kind and something else the statement names, whatever words tell the change
  ("ruff 4.11 had a cve so we jumped straight to 4.15" after "our ruff is 4.11": a key made of the wrong words
  still gets its change);
- the sentence holds a value the subject's latest statement lacks (a number, a name, a weekday...);
- it names no side of things other than the key's ("prod_datastore" and "prod db upgraded", not
  "quern_owner" and "Quern's db moved"), and names the key's side, or a value of the kind the
  subject holds (for a key with a side, with a change said in so many words: "now", "moved").
A change naming a replaced value the subject's latest statement never held does not fit it ("Tern isn't on Cloud
Run anymore" is no change of the infra standup). Among several, the one whose value the change names as ended wins,
then the one whose value is of the same kind ("02:30" and "01:00"), then the one named by more words; two that fit
equally leave the change unanchored.

A statement a cue took is anchored the same way when it tells a change under a key nobody used
before and names no value it replaces, if its key holds nothing but the known statement's words,
its new values and sides ("Ines is tech lead from this sprint on", keyed "ines"), and is not whose
it is ("Remy's best friend is Finn now"). Such a statement may name the thing by part of its name ("uploads can
go up to 50MB now" after "max upload size is 10MB") when its value is of the known one's kind and its numbers
count the same thing (not "uploads are failing for 3 customers now").

A statement the extractor was too unsure of to call a fact ("logs go to papertrail": no name, no number) is
kept as replaced-only (`FactCandidate.replaced_only`): it becomes the subject's earlier value when a later
change names its value as replaced ("we moved logging off papertrail and onto grafana loki") and no statement
kept says that value (`_vouched`), or when a later change gives its very subject, the same key, a new value of
its kind ("core hours are 10 to 4", then "core hours changed to 11-3"; `_same_key`), or gives a part of its name
a value that counts the same thing ("climbing club went up to 42 a month"); the rest are left out.

Kept only for consolidate.py until consolidation reads structure only (issue 27, the ledger branch): the
extractor no longer emits change-only candidates. Delete it then, with statement.py.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache

from ..summary import FactCandidate
from ..text import STOPWORDS, WORD, stem, word_form
from .statement import (
    ASPECT_OF,
    CADENCE,
    CALENDAR,
    CHANGE_WORDS,
    KNOWN_ASPECTS,
    NUMBER_WORDS,
    Analysis,
    analyse,
    is_specific,
    key_parts,
    key_stems,
    name_parts,
    plain_text,
    shapes_of,
    speaker_of,
)

# verbs of state, habit and routine (kept from the cue extractor's gates until consolidation drops them)
STATIVE = re.compile(
    r"\b(?:is|are|am|has|have|does|do|uses?|runs?|lives?|works?|owns?|likes?|loves?|hates?|prefers?|needs?|wants?|goes|go|"
    r"takes?|eats?|drinks?|plays?|drives?|teach(?:es)?|expires?|rotates?|meets?|belongs?|costs?|pays?|stays?|"
    r"keeps?|speaks?|stud(?:y|ies)|gets?|holds?|handles?|covers?|leads?|manages?|sits?|lasts?|breaks?|fails?|"
    r"crash(?:es)?|times out|means?|allows?|requires?|supports?|calls?|sends?|reads?|writes?|stores?|serves?)\b"
    r"|(?<=\w)['’](?:s|m|re|ve)\b",
    re.IGNORECASE,
)
_ON_WEEKDAYS = r"on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekdays|weekends)"
_TIMES_A = r"(?:once|twice|\w+ times) a (?:day|week|month|year)"
HABIT = re.compile(
    r"\b(?:every|each|daily|nightly|weekly|monthly|hourly|" + _ON_WEEKDAYS + r"|"
    r"at \d{1,2}(?::\d\d)?\s*(?:am|pm|utc)?|by \d{1,2}(?::\d\d)?\s*(?:am|pm)?|"
    r"comes? from|comes? through|goes? through|" + _TIMES_A + r")\b",
    re.IGNORECASE,
)
ROUTINE = re.compile(
    r"\b(?:listens?|buys?|sells?|commutes?|opens?|closes?|kicks? in|retr(?:y|ies)|attends?)\b"
    # words that are nouns as often ("the p95 target", "bank holidays"): a verb after who does it
    r"|\b(?:i|we|they)\s+(?:\w+ly\s+)?(?:target|host|charge|bank|swim|cycle|ride)\b",
    re.IGNORECASE,
)

# what says a value is new: a time word ("now", "these days", "as of"), a verb of change in the past ("moved",
# not "a pull request", "schema changes", "port 80"), "new"
TOLD_CHANGE = re.compile(
    r"\b(?:now|nowadays|these days|any ?more|no longer|as of|starting|from (?:now|this|next|here)|"
    r"since (?=the|our|last|this|we|v?\d|(?-i:[A-Z]))|"  # "since Tuesday", not "since it didn't go through"
    r"new|finally|instead|(?:go|goes|went) (?:to|with)|gone|rewritten|rebuilt|dropped|cut to|took over|"
    r"takes over|(?:go|goes|went|shipped|cut|handed) over to|rolled off|picked (?:it|them) up|where it (?:was|used to)|"
    r"jump(?:ed)? (?:straight |right )?to (?=v?\d+\.\d)|"  # to a version: an upgrade, not a reading
    r"upped|(?:up|down) to|joined|started (?:at|with)|"
    r"swapped|(?:switch|push|extend|tighten|relax|shift|bump|swap|lower|transition|port|hand|mov|migrat|chang|upgrad|"
    r"downgrad|rais|increas|decreas|reduc|updat|replac|relocat|promot|reassign|renam|reschedul|renegotiat|"
    r"reconfigur)e?d)\b",  # an arrow is as often a flow ("dump of prod → the new cluster") as a change
    re.IGNORECASE,
)
# words that tell something is new, not that a value changed: "new PB", "finally got the keys"
_WEAK_SIGNAL = re.compile(r"\b(?:new|finally|instead)\b", re.IGNORECASE)


def _said_as_change(text: str) -> bool:
    """A change said in so many words ("now", "moved"), not only something new ("new PB", "finally got the keys")."""
    return TOLD_CHANGE.search(_WEAK_SIGNAL.sub("", text)) is not None


# sides of a thing that a number measures, not things of their own ("port", not "standup")
MEASURED_SIDES = frozenset({"port", "limit", "timeout", "version", "retention", "rotation", "sla"})
VALUE_WORDS = NUMBER_WORDS | CALENDAR | CADENCE  # ordinary words that are values ("weekly", "two", "Thursday")
CHANGE_ONLY_CONFIDENCE = 0.7  # as sure as the statement it changes is of the subject; recency decides


@lru_cache(maxsize=65536)  # anchoring asks it of every statement it weighs
def _thing(subject: str) -> frozenset[str]:
    """The stems of what a key names, its sides left out, when one of them is specific."""
    parts = key_parts(subject) - KNOWN_ASPECTS
    if not any(is_specific(p) for p in parts):
        return frozenset()
    return frozenset(stem(p) for p in parts)


# verbs among the words of sides: "access tokens live for 5 minutes now" names no home
_VERBS = frozenset(
    "live lives living based relocated store stores stored persist persists build builds built eat".split()
)


def _sides(text: str, verbs: bool = False) -> frozenset[str]:
    """The sides of things a sentence names by noun ("port", "owner", "db"), or by verb too ("lives")."""
    forms = (word_form(t) for t in WORD.findall(text))
    return frozenset(ASPECT_OF[f] for f in forms if f in ASPECT_OF and (verbs or f not in _VERBS))


def _values(text: str) -> frozenset[str]:
    """What in a statement can be a value: numbers, names, calendar and cadence words."""
    info = analyse(text)
    words = {word_form(t) for t in WORD.findall(text)}  # "Tuesdays" is "tuesday"
    return info.entities | info.names | frozenset(words & VALUE_WORDS)


# the end of what held: "since Okafor retired", "cancelled Ironworks"
# how a name is told to have ended: after it ("Okafor retired", "Rosalind and I split up"), or before it
# ("dropped 5:2", "we replaced SumUp"); "Priya dropped her kids off" ends nothing of Priya's
_ENDED_AFTER = (
    r"(?:\s+and\s+i)?\s+(?:has\s+|had\s+|just\s+)?"
    r"(?:retired|quit|closed|sold|shut down|split up|broke up|left(?=\s*(?:[,.;]|$|the company|the team|us\b)))"
)
_ENDED_BEFORE = r"(?:dropped|ditched|replaced|swapped|sold|cancell?ed|stopped|quit|left)\s+(?:the\s+|my\s+|our\s+)?"


def _ended_name(latest: str, told: str) -> bool:
    """The told change names a name of the known statement as what ended ("seeing someone new, Dr. Lindqvist,
    since Okafor retired" after "my therapist is Dr. Okafor")."""
    for name in _named(latest):
        if not is_specific(name):
            continue
        said = re.escape(name).replace(r"\ ", r"\s+")
        if re.search(rf"\b{said}\b{_ENDED_AFTER}|{_ENDED_BEFORE}{said}\b", told, re.IGNORECASE):
            return True
    return False


def _by_part_of_name(subject: str, latest: str, own_key: str, told: str, bare: bool = True) -> bool:
    """A statement keyed `own_key` names the thing `subject` names by part of its name ("uploads can go up to 50MB
    now" after "max upload size is 10MB"), and at most the side its number measures ("exporter port is 9200 now"),
    when both give it a measure alike (`measures_alike`): not a thing of its own ("the office standup is 15 minutes
    now" after "my commute to the office is 30 minutes"), nor whose the thing is ("Elsa has Mr Dubois for maths now"
    after "just back from Elsa's art exhibition"), nor a value a name is ("the office moved to Leeds now" after
    "the office wifi password is Starling42")."""
    thing, own = _thing(subject), _thing(own_key)
    if not (thing > own > frozenset() and own <= analyse(told).words) or thing - own <= STOPWORDS:
        return False  # "all_hands" is not named by "hand"
    if not (key_parts(own_key) & KNOWN_ASPECTS) <= (key_parts(subject) | MEASURED_SIDES):
        return False
    return not says_whose(own_key, latest) and measures_alike(subject, latest, told, bare)


def _ended(latest: str, thing: frozenset[str], told: str, told_info: Analysis) -> bool:
    """The told change says the known statement's value ended: a name of it ("since Okafor retired"), or the value
    it names as replaced, when that is what the known statement says of its subject ("we moved off LaunchDarkly
    onto Flagsmith" after "feature flags are managed in LaunchDarkly"), the words of the subject's thing aside ("we
    moved from mypy 4.18 to 4.19" after "mypy is pinned at 4.18")."""
    old = told_info.old
    value = _value_part(old, thing)
    if value and any(is_specific(w) for w in value) and old <= analyse(latest).words and _holds_as_value(latest, value):
        return True
    return _ended_name(latest, told)


def _named(statement: str) -> frozenset[str]:
    """The names of a statement and its values written as no word is ("5:2"; not "building")."""
    info = analyse(statement)
    return info.names | {e for e in info.entities if not e.isalpha()}


# what follows an "'s" that is "is", not whose ("frontend's on Vercel now", not "Remy's best friend")
_NOT_IS = r"(?!\s+(?:(?:on|in|at|with|now|up|down|back|over|off|out|moved|gone|been|got|going)\b|\d))"


def says_whose(key: str, text: str) -> bool:
    """The text names whose something is by a word of the key ("Remy's best friend", "the kids' school"), not
    what it is ("frontend's on Vercel now")."""
    words = "|".join(re.escape(w) for w in key.split("_") if w)
    return bool(words) and re.search(rf"\b(?:{words})(?:['’]s\b{_NOT_IS}|s['’](?=\s))", text, re.IGNORECASE) is not None


def _fit(subject: str, latest: str, told: str, own_key: str = "") -> tuple[int, int, int] | None:
    """How well a told change fits a known subject whose latest statement is `latest`: (names its value as
    replaced, same kind of value, words naming it), or None when it does not fit. own_key: the key a cue gave the told
    statement, which must name nothing but the known statement's words, its new values and sides of things."""
    thing = _thing(subject)
    told_info = analyse(told)
    new = {v for v in _values(told) - _values(latest) if not name_parts(v) <= thing}
    whole = bool(thing) and thing <= told_info.words
    part = not whole and bool(own_key) and _by_part_of_name(subject, latest, own_key, told)
    # it names the value it replaces: said to have ended, or beside a new value of its kind
    replaces = (not own_key and _ended(latest, thing, told, told_info)) or _succeeds(latest, told, new)
    if not (whole or part or replaces):
        return None
    replaced = _value_part(told_info.old, thing)
    if not replaces and any(is_specific(w) for w in replaced) and not replaced & analyse(latest).words:
        return None  # "Tern isn't on Cloud Run anymore" is no change of a statement that never named Cloud Run
    if not new:
        return None
    latest_info = analyse(latest)
    if own_key:
        if says_whose(own_key, told):
            return None  # "Remy's best friend is Finn now": keyed by whose it is, its own subject
        allowed = latest_info.words | {w for v in new for w in name_parts(v)}
        if not replaces and not {stem(p) for p in key_parts(own_key) - KNOWN_ASPECTS} <= allowed:
            return None  # "we now use Redis for the Kestrel cache" is about the cache, not Kestrel's version
    key_sides, told_sides = key_parts(subject) & KNOWN_ASPECTS, _sides(told) | (key_parts(own_key) & KNOWN_ASPECTS)
    same_kind = bool(_when(latest, subject, told) & _when(told, subject, latest))
    # "Milo has Ms Moreau for French now" is no change of Milo's allergy: it names no other side than the key's,
    # and the key's, or a value of the kind the subject holds and, for a key with a side, a change in so many
    # words ("access tokens live for 5 minutes now"; not "The Meadow Run done, 41:52, new PB" for a running goal)
    if key_sides and told_sides and key_sides.isdisjoint(told_sides):
        return None
    # a key naming no side: the side its statement names, verbs and all ("my dad lives with us", "Dad moved into the
    # assisted living place")
    said_sides = not key_sides and bool(_sides(latest, verbs=True) & _sides(told, verbs=True))
    if not (
        replaces  # it says what it replaces: no side need say what it is about
        or key_sides & told_sides
        or said_sides
        or (same_kind and (not key_sides or _said_as_change(told)))
    ):
        return None
    # saying what it replaces is the surest sign of whose change it is ("Curlew isn't on Heroku anymore" is
    # Curlew's hosting, though "correction for the infra doc" names the infra standup too)
    return (int(replaces), int(same_kind), len(thing))


def _succeeds(latest: str, told: str, new: Iterable[str]) -> bool:
    """The told change names a value of the known statement beside a new value of its kind, and what the value is
    of: it tells what holds that place now, however it words the change ("ruff 4.11 had a cve so we jumped straight
    to 4.15" after "our ruff is 4.11", "Tendai manages mobile now" after "the mobile squad is managed by Priyanka").
    The change must be said in so many words: "Contract with Evergreen Clinics is signed, finally" after "Contract
    with Vantage Realty is signed" is another contract, "Blocker for the catalog-api rewrite: the new VPC peering"
    after "Stellan took over the catalog-api rewrite" no new lead."""
    if not _said_as_change(told):
        return False
    named = _named(told)
    values = set(new) & named
    shared = {n for n in _named(latest) & named if is_specific(n)}
    shared = {n for n in shared if not any(name_parts(n) < name_parts(other) for other in shared)}  # "gitlab ci"
    words = {w for w in analyse(latest).words & analyse(told).words if is_specific(w)} - CHANGE_WORDS
    for old in shared:
        if not any(_same_kind(old, value) for value in values):
            continue
        # two names: one is the thing, the other its value; one name and a word: the name is the value unless the
        # change says it is whose the thing is ("Wren's db is on Render now" replaces no Wren of "Wren is hosted on
        # Fly.io")
        if shared - {old} or (words - name_parts(old) and not says_whose(old, told)):
            return True
    return False


def _same_kind(a: str, b: str) -> bool:
    """Two values of one kind: names, or numbers of one shape (a version, a clock time...)."""
    if not re.search(r"\d", a + b):
        return True
    return bool(re.search(r"\d", a) and re.search(r"\d", b) and shapes_of(analyse(a)) & shapes_of(analyse(b)))


# what a number is said with that counts nothing ("opens at 7 now")
_NOT_COUNTED = STOPWORDS | {"now", "up", "down", "from", "since"}
_MULTIPLIERS = frozenset("k m am pm st nd rd th x".split())
_PER = frozenset({"a", "an", "per", "every", "each"})
# units of one measure: "8 hours" and "30 minutes" are both lengths of time
_MEASURE = {
    **dict.fromkeys("s sec secs second ms millisecond min minute h hr hrs hour day week month year".split(), "time"),
    **dict.fromkeys("b kb mb gb tb byte kilobyte megabyte gigabyte terabyte".split(), "size"),
    **dict.fromkeys("g kg gram kilo kilogram lb lbs".split(), "weight"),
}


def _counted(text: str, other: str = "") -> frozenset[str]:
    """What a statement's numbers count, those the other statement also says left out: their unit, as a measure
    ("10MB", "30 minutes", "3 customers"), and what they are per ("35 a month", "10k requests per day", "25k/day")."""
    said = {t.casefold() for t in WORD.findall(other)}
    tokens = [t.group() for t in WORD.finditer(text)]
    gaps = [""] + [text[a.end() : b.start()] for a, b in itertools.pairwise(WORD.finditer(text))]
    # the word each token is, when it goes on the clause before it and is no number
    words = [
        "" if t[:1].isdigit() or re.search(r"[,;:.!?()]", gap) else word_form(t)
        for t, gap in zip(tokens, gaps, strict=True)
    ] + ["", ""]
    counted: set[str] = set()
    for i, token in enumerate(tokens):
        if not token[:1].isdigit() or token.casefold() in said:
            continue
        suffix = token.lstrip("0123456789.").casefold()
        if suffix.isalpha() and suffix not in _MULTIPLIERS:
            counted.add(_measure(suffix))
        j = i + 1
        if words[j] and words[j] not in _NOT_COUNTED | _PER and "/" not in gaps[j]:
            counted.add(_measure(words[j]))  # the unit: "3 customers", "24 hours"
            j += 1
        if words[j] in _PER and words[j + 1] and words[j + 1] not in _NOT_COUNTED:
            counted.add(f"per {_measure(words[j + 1])}")  # "35 a month", "10k requests per day"
        elif words[j] and "/" in gaps[j]:
            counted.add(f"per {_measure(words[j])}")  # "25k/day"
    return frozenset(counted)


def _measure(unit: str) -> str:
    return _MEASURE.get(unit, stem(unit))


def counts_alike(latest: str, told: str) -> bool:
    """Their numbers count the same thing, or one of them says not what ("the bakery opens at 7", "we open at 6:30
    now"; not "max upload size is 10MB", "uploads are failing for 3 customers now")."""
    counted_latest, counted_told = _counted(latest, told), _counted(told, latest)
    return not (counted_latest and counted_told) or bool(counted_latest & counted_told)


def measures_alike(subject: str, latest: str, told: str, bare: bool = True) -> bool:
    """Both statements give the thing a measure alike: values of one shape (a size, a clock time, money, a day...),
    numbers counting the same thing ("35 a month", "42 a month"), or, if `bare`, numbers that count nothing said
    ("listens on 9102", "is 9200 now"); not a name, not "400 students" after "starts at 8:15"."""
    if _shapes(latest, subject) & _shapes(told, subject):
        return True
    counted_latest, counted_told = _counted(latest, told), _counted(told, latest)
    if counted_latest or counted_told:
        return bool(counted_latest & counted_told)
    return bare and bool(re.search(r"\d", latest) and re.search(r"\d", told))


def _shapes(text: str, subject: str) -> frozenset[str]:
    """The shapes of a statement's values (statement.shapes_of), a cadence its subject is not named by included."""
    return shapes_of(analyse(text)) | _cadence(text, key_parts(subject))


def _kinds(text: str, thing: frozenset[str]) -> frozenset[str]:
    """The kinds of value a statement holds: a version, a clock time... (statement.shapes_of), a number, a name
    other than those of its subject."""
    info = analyse(text)
    kinds = set(shapes_of(info))
    if re.search(r"\d", text) or info.words & NUMBER_WORDS:
        kinds.add("number")
    acronyms = {t.lower() for t in WORD.findall(text) if t.isupper() and len(t) > 1}  # "CPU" is no named value
    if any(not name_parts(name) <= thing for name in info.names - acronyms):
        kinds.add("name")
    return frozenset(kinds)


def anchor(ordered: Iterable[FactCandidate]) -> list[tuple[FactCandidate, bool]]:
    """The candidates kept, each with whether it was keyed to the known subject it changes: every change-only
    one (left out when it changes nothing known), a statement a cue took that tells a change under a key nobody
    used before ("Ines is tech lead from this sprint on", keyed "ines" by its value), and a replaced-only one a
    later change names as replaced (`_vouched`; the others are left out). In their order, but for a vouched one,
    which comes just before the change that vouched for it: the caller puts it back where it was said."""
    by_word: dict[str, list[tuple[int, FactCandidate]]] = defaultdict(list)
    maybe: dict[str, list[FactCandidate]] = defaultdict(list)  # word -> replaced-only statements saying it
    maybe_keyed: dict[frozenset[str], list[FactCandidate]] = defaultdict(list)  # key -> replaced-only statements
    said: dict[str, set[int]] = defaultdict(set)  # word -> the statements kept that say it
    keys: set[str] = set()
    out: list[tuple[FactCandidate, bool]] = []

    def keep(c: FactCandidate, anchored: bool) -> None:
        out.append((c, anchored))
        keys.add(c.subject)
        # the next change of the subject is told against this statement, found by a word of its thing or a name
        for word in _thing(c.subject) | {w for n in _named(c.fact) for w in name_parts(n)}:
            by_word[word].append((len(out), c))
        for word in analyse(c.fact).words:
            said[word].add(len(out))

    for c in ordered:
        if c.replaced_only:
            for word in analyse(c.fact).words:
                maybe[word].append(c)
            maybe_keyed[key_stems(c.subject)].append(c)
            continue
        target = None
        if c.change_only or (c.subject not in keys and TOLD_CHANGE.search(plain_text(c.fact))):
            target = _target(c, by_word, said, out)
        vouched = None
        if target is None:
            vouched = _vouched(c, maybe, said, out) or (None if c.subject in keys else _same_key(c, maybe_keyed, maybe))
        if vouched is not None:
            # one subject for both: the change's, or for a change told in passing (keyed by its words alone) the
            # statement's
            subject, category = (vouched.subject, vouched.category) if c.change_only else (c.subject, c.category)
            keep(replace(vouched, category=category, subject=subject, replaced_only=False), False)
            keep(replace(c, category=category, subject=subject), True)
            continue
        if target is None and c.change_only:
            continue  # changes nothing known, or two subjects as well as each other
        if target is not None and target.subject != c.subject:
            c = replace(c, category=target.category, subject=target.subject)
        keep(c, target is not None)
    return out


_PRONOUN_FIRST = re.compile(r"^(?:i|we|they|you|my|our|their|your)\b", re.IGNORECASE)


def _vouched(
    change: FactCandidate,
    maybe: dict[str, list[FactCandidate]],
    said: dict[str, set[int]],
    kept: list[tuple[FactCandidate, bool]],
) -> FactCandidate | None:
    """The replaced-only statement a change names the value of as replaced ("we moved logging off papertrail"
    after "logs go to papertrail"), when no statement kept says that value of the change's thing ("Signe's birthday
    is November 18" says nothing of who owns session-broker): the latest said before the change, by the same
    speaker, holding the value as its value (not "Kubernetes is a pain to debug"), about what the change is about if
    one is ("access tokens 10 minutes instead of 15" after "15 min access tokens"), or else saying a value no number
    or common word is ("black")."""
    told = analyse(change.fact)
    old = told.old
    if not old:
        return None
    thing = _thing(change.subject) - old
    # the thing by its name where the change names it ("northwind", not "gateway" of "gateway_northwind_traders")
    named = {w for w in thing if any(w in name_parts(n) for n in told.names)} or thing
    for _, statement in _kept_saying(old, said, kept):
        if not thing or named & analyse(statement.fact).words:
            return None  # a kept statement says the value, of the change's thing: consolidation links the two
    rarest = _rarest(old, maybe)
    speaker = speaker_of(change.fact)
    saying = [
        m
        for m in maybe.get(rarest, ())
        if old <= analyse(m.fact).words
        and m.valid_from < change.valid_from
        and (speaker is None or speaker_of(m.fact) in (speaker, None))  # a statement of its own speaker, if quoted
        and _holds_as_value(m.fact, _value_part(old, _thing(m.subject)))  # "Nginx here is 1.20": 1.20 is the value
    ]
    # what the change is about: a thing its key names by name ("ledger_api_port": Ledger-api), which the statement
    # must name too; else its key's words, not the value replaced nor a verb ("swapped_last", "flake8_gone")
    key = name_parts(change.subject)
    things = [name_parts(n) for n in told.names if name_parts(n) <= key and not name_parts(n) <= old | told.new]
    if things:
        return next((m for m in reversed(saying) if any(t <= analyse(m.fact).words for t in things)), None)
    named = {stem(p) for p in key_parts(change.subject) - KNOWN_ASPECTS if is_specific(p) and not TOLD_CHANGE.match(p)}
    named -= old
    about = [m for m in saying if named & analyse(m.fact).words]
    # else a statement saying a value no number or common word is, if the change names nothing but values
    anything = any(is_specific(w) for w in old) and not named - told.new
    chosen = about or (saying if anything else [])
    return chosen[-1] if chosen else None  # in the order said: the last is the latest


def _rarest(words: frozenset[str], maybe: dict[str, list[FactCandidate]]) -> str:
    """Of the words, the one fewest unsure statements say: the shortest list to look through."""
    return min(words, key=lambda w: (len(maybe.get(w, ())), w))


def _same_key(
    change: FactCandidate,
    maybe_keyed: dict[frozenset[str], list[FactCandidate]],
    maybe: dict[str, list[FactCandidate]],
) -> FactCandidate | None:
    """The replaced-only statement of the very subject a change gives a new value, though it names no value as
    replaced ("core hours are 10 to 4", then "core hours changed to 11-3"): the latest said before it by the same
    speaker, lacking the new value and holding one of its kind. Failing one, a statement whose key names the
    change's thing and more and that gives it a measure said alike (`_by_part_of_name`: "climbing club membership is
    35 a month", then "climbing club went up to 42 a month")."""
    text, told = plain_text(change.fact), analyse(change.fact)
    if change.change_only or told.old or not _said_as_change(text):
        return None
    thing = _thing(change.subject)
    if not thing:
        return None
    speaker = speaker_of(change.fact)
    found = _latest_replaced(change, maybe_keyed.get(key_stems(change.subject), []), thing, speaker, told)
    if found is None:
        rarest = _rarest(thing, maybe)
        # an unsure statement is held to a measure said alike, not bare numbers ("the coffee machine on floor 3 is
        # broken", then "the coffee now costs 2.50")
        wider = [
            m
            for m in maybe.get(rarest, ())
            if _by_part_of_name(m.subject, m.fact, change.subject, change.fact, bare=False)
        ]
        found = _latest_replaced(change, wider, thing, speaker, told)
    return found


def _latest_replaced(
    change: FactCandidate, statements: list[FactCandidate], thing: frozenset[str], speaker: str | None, told: Analysis
) -> FactCandidate | None:
    """Of the statements, the latest said before the change by its speaker that lacks its new value and holds a
    value of its kind."""
    saying = [
        m
        for m in statements
        if m.valid_from < change.valid_from
        and (speaker is None or speaker_of(m.fact) in (speaker, None))
        and (
            any(not name_parts(v) <= thing for v in _values(change.fact) - _values(m.fact))
            or not told.new <= analyse(m.fact).words  # "moved error tracking over to rollbar"
        )
        and not value_kinds_differ(m.subject, m.fact, change.subject, change.fact)
    ]
    return saying[-1] if saying else None


def _kept_saying(
    words: frozenset[str], said: dict[str, set[int]], kept: list[tuple[FactCandidate, bool]]
) -> list[tuple[int, FactCandidate]]:
    """The statements kept so far that say all the words, with their positions (1-based, in the order said)."""
    return [(p, kept[p - 1][0]) for p in sorted(set.intersection(*(said.get(w, set()) for w in words)))]


def _value_part(value: frozenset[str], thing: frozenset[str]) -> frozenset[str]:
    """A value said with its thing's name ("mypy 4.18"), the name left out; all of it for a key named by its value
    ("shop_freshway")."""
    return (value - thing) or value


def _holds_as_value(statement: str, value: frozenset[str]) -> bool:
    """The value is what the statement says of its subject, not the subject ("we format with black", "logs go to
    papertrail", "talk to Jonas about catalog-api, they own it"; not "Marketing is key"): it is not said before the
    verb in its clause, unless the statement's subject is who speaks, or it has no verb."""
    text = plain_text(statement)
    if _PRONOUN_FIRST.match(text):
        return True
    verb = STATIVE.search(text) or ROUTINE.search(text) or HABIT.search(text)
    if verb is None:
        return True  # a note ("15 min access tokens, 30 days refresh"): no telling its subject from its values
    clause = re.split(r"[,;:]", text[: verb.start()])[-1]  # "talk to Jonas about catalog-api, they own it"
    return not {stem(word_form(t)) for t in WORD.findall(clause)} & value


def _target(
    change: FactCandidate,
    by_word: dict[str, list[tuple[int, FactCandidate]]],
    said: dict[str, set[int]],
    kept: list[tuple[FactCandidate, bool]],
) -> FactCandidate | None:
    """The latest statement of the known subject a change fits best, if one fits better than any other: found by a
    word of its thing or a name, or, for a change told in passing, by the value it names as replaced ("new plan: 30
    km a week instead of a first marathon" after "my goal is a first marathon")."""
    info = analyse(change.fact)
    if not change.change_only and info.old:
        return None  # "Priya moved from data engineer to security engineer" names what it replaces: its own subject
    found = [pc for word in sorted(info.words & by_word.keys()) for pc in by_word[word]]
    if change.change_only and info.old:
        # a statement saying the value replaced, naming whoever the change names ("new plan for Sam: ... instead of a
        # first marathon" is not the speaker's goal)
        named = {w for n in info.names for w in name_parts(n)} - info.old
        found += [(p, c) for p, c in _kept_saying(info.old, said, kept) if named <= analyse(c.fact).words]
    latest: dict[str, tuple[int, FactCandidate]] = {}  # subject -> its last statement before the change
    for position, c in found:
        if c.valid_from < change.valid_from and position >= latest.get(c.subject, (-1, c))[0]:
            latest[c.subject] = (position, c)
    own_key = "" if change.change_only else change.subject
    fits = sorted(
        ((fit, subject) for subject, (_, c) in latest.items() if (fit := _fit(subject, c.fact, change.fact, own_key))),
        reverse=True,
    )
    if not fits or (len(fits) > 1 and fits[0][0] == fits[1][0]):
        return None
    return latest[fits[0][1]][1]


def value_kinds_differ(subject_a: str, fact_a: str, subject_b: str, fact_b: str) -> bool:
    """Both statements hold values, of no kind in common ("quarterly" and "Business", "9:30" and "Priya")."""
    kinds_a = _kinds(fact_a, _thing(subject_a)) | _cadence(fact_a)
    kinds_b = _kinds(fact_b, _thing(subject_b)) | _cadence(fact_b)
    return bool(kinds_a and kinds_b) and kinds_a.isdisjoint(kinds_b)


def _when(text: str, subject: str, other: str) -> frozenset[str]:
    """The kinds of value a statement holds (`_kinds`), a day and a cadence as one: when something happens ("the
    first Monday", "quarterly"); not a cadence its subject is named by ("the nightly export"), nor one the other
    statement says too ("the weekly team lunch")."""
    said_by_both = {word_form(t) for t in WORD.findall(other)} & CADENCE
    kinds = _kinds(text, _thing(subject)) | _cadence(text, key_parts(subject) | said_by_both)
    return frozenset("when" if kind in ("calendar", "cadence") else kind for kind in kinds)


def _cadence(text: str, named_by: frozenset[str] = frozenset()) -> frozenset[str]:
    said = {word_form(t) for t in WORD.findall(text)} & CADENCE
    return frozenset({"cadence"}) if said - named_by else frozenset()
