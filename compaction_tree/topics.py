"""Topics: which phrases a stretch of conversation is about, and when two names are one topic.

A topic's key is its canonical form: NFKC + casefold, plurals folded, aliases applied
("Refresh Tokens", "refresh token" and "refresh-tokens" share a key; "k8s" and "Kubernetes"
too). Candidates are found by statistics, not by a model: names and acronyms, technical
tokens, and content words and word pairs that recur across chunks and are not generic English.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from .lang import (
    DETECT_TOKENS,
    SPACELESS,
    detect,
    is_common,
    languages_of,
    lemma,
    rarity,
    script_runs,
    without_particle,
)
from .summary import TopicStat
from .text import STOPWORDS, WORD, bounded, content_tokens, fold, word_form

# Obvious aliases, as word forms: the left side is read as the right side.
BUILTIN_ALIASES: dict[str, str] = {
    "k8s": "kubernetes",
    "postgresql": "postgres",
    "psql": "postgres",
    "pg": "postgres",
    "js": "javascript",
    "ts": "typescript",
    "py": "python",
    "db": "database",
    "auth": "authentication",
    "authn": "authentication",
    "authz": "authorization",
    "repo": "repository",
    "env": "environment",
    "config": "configuration",
    "infra": "infrastructure",
    "ci cd": "ci",
    "gh": "github",
    "aws lambda": "lambda",
    "json web token": "jwt",
    "golang": "go",
    "mongo": "mongodb",
    "node.js": "node",
    "nodejs": "node",
    "react.js": "react",
    "reactjs": "react",
    "vue.js": "vue",
    "next.js": "nextjs",
    "e mail": "email",
}

_ACRONYM = re.compile(r"[A-Z][A-Z0-9]{1,7}s?")
_TECH = re.compile(r"(?:\w+[._]\w+|[a-z]+[A-Z]\w*|[A-Za-z]+\d+[A-Za-z\d]*)")
_SENTENCE_END = re.compile(r"[.!?]\s*$")


@lru_cache(maxsize=1)
def generic_words() -> frozenset[str]:
    """Words too generic to name a topic alone (compaction_tree/data/generic_words.txt)."""
    try:
        text = resources.files("compaction_tree").joinpath("data/generic_words.txt").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        text = ""
    words = {line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")}
    return frozenset(words | STOPWORDS)


def is_generic(form: str) -> bool:
    """Generic in English (see lang.py for the other languages)."""
    return form in generic_words() or len(form) < 3 or form.isdigit()


_is_generic = is_generic  # candidates() shadows the name with its language-aware version

# a file path: its folders are capitalized words ("C Users ITMACOS"), user names, but no topic
_PATH = re.compile(
    r"(?<![\w/])(?:[A-Za-z]:[\\/]|~/|\\\\)[^\s\"'`<>|]*"  # C:\Users\..., ~/..., \\server\share
    r"|\S*\\\S*"  # anything with a backslash
    r"|(?<![\w/:])(?:/[^\s/\"'`<>|]+){4,}/?"  # /home/me/code/app: deeper than an API route (/api/auth/refresh)
)


def _named(token: str) -> bool:
    """An identifier names something when it has a word in it: pg_dump, fly.io, useEffect, not a_1 or x1."""
    return any(len(part) >= 3 and part.isalpha() for part in re.split(r"[._\d]+|(?<=[a-z])(?=[A-Z])", token))


def _words(sentence: str, lang: str) -> list[str]:
    """The sentence's words as topics see them: Japanese and Chinese cut at script changes, Korean
    words without their particles."""
    words = [m.group() for m in WORD.finditer(sentence)]
    if lang in ("ja", "zh"):
        return [run for word in words for run in script_runs(word)]
    if lang == "ko":
        return [w if is_common(fold(w), lang) else without_particle(w, lang) for w in words]
    return words


def topic_key(name: str, aliases: Mapping[str, str] = BUILTIN_ALIASES) -> str:
    """The canonical form two names must share to be one topic.

    Word forms are taken from the original spelling (so "CORS" stays "cors", never "cor"),
    then folded: "Refresh Tokens", "refresh token", "refresh-tokens" and "refresh_token" share a key.
    """
    key = _folded(name)
    return aliases.get(key, key)


@lru_cache(maxsize=65536)  # a year's ROOT.md asks for the key of the same few thousand names again and again
def _folded(name: str) -> str:
    words = (w for t in WORD.findall(unicodedata.normalize("NFKC", name)) for w in re.split(r"[-_]", t) if w)
    return " ".join(word_form(w) for w in words)


@dataclass(frozen=True)
class Candidate:
    key: str
    surface: str  # the spelling as it appeared
    kind: str  # explicit, name, acronym, tech, pair, initial (a capitalized word opening a sentence), word
    lang: str = "en"  # the chunk's language
    plain: str = ""  # a word's or pair's dictionary form when it is inflected ("esportiamo": "esportare")


def candidates(text: str, explicit: Iterable[str] = ()) -> list[Candidate]:
    """Topic candidates in one chunk (each key at most once), in order of appearance."""
    found: dict[str, Candidate] = {}

    def put(surface: str, kind: str) -> None:
        key = topic_key(surface)
        if key and (key not in found or _KIND_WEIGHT[kind] > _KIND_WEIGHT[found[key].kind]):
            found[key] = Candidate(key, surface, kind, lang, plain_form(surface, kind))

    def plain_form(surface: str, kind: str) -> str:
        if kind not in ("word", "pair", "initial") or lang == "en":
            return ""
        plain = " ".join(lemma(w.casefold(), lang) for w in surface.split())
        return plain if plain != surface.casefold() else ""

    def put_name(run: list[str], opens_sentence: bool = False) -> None:
        # a run of capitalized words names something unless every word is generic ("Thanks", "Wow Great");
        # generic words inside a name stay ("New York", "Super Bowl"), stopwords at its ends do not.
        # One capitalized word that opens a sentence may be a name ("Stripe webhooks need...") or
        # not ("Congrats on...", "Cherish it"): it weighs less, and a real name shows its capital
        # elsewhere too.
        while run and stopword(run[0]):
            run = run[1:]
        while run and stopword(run[-1]):
            run = run[:-1]
        if run and not all(is_generic(word_form(t)) for t in run):
            put(" ".join(run[-3:]), "initial" if opens_sentence and len(run) == 1 else "name")

    text = _PATH.sub(".\n", bounded(text))  # C:\Users\ITMACOS\..., /home/me/...: where files are, not topics
    lang = detect([fold(m.group()) for m in itertools.islice(WORD.finditer(text), DETECT_TOKENS)])
    for topic in explicit:
        put(topic, "explicit")

    def is_generic(form: str) -> bool:  # in the chunk's own language too
        if lang in SPACELESS and len(form) >= 2 and not form.isascii():
            return form in generic_words() or is_common(form, lang)
        return _is_generic(form) or is_common(form, lang)

    def stopword(token: str) -> bool:
        return fold(token) in STOPWORDS or is_common(fold(token), lang)

    for sentence in re.split(r"(?<=[.!?])\s+|(?<=[。！？])|\n+", text):
        tokens = _words(sentence, lang)
        run: list[str] = []
        run_start = 0
        previous = ""
        for i, token in enumerate(tokens):
            form = word_form(token)
            generic = is_generic(form)
            if "'" in token or "’" in token:  # contractions and possessives: I'm, Caroline's
                base = re.split(r"['’]", token)[0]
                if base and base[0].isupper() and not is_generic(word_form(base)):
                    put_name([*run, base])  # "Caroline's AI": the name ends at the possessive
                else:
                    put_name(run, run_start == 0)
                run, previous = [], ""
                continue
            if _ACRONYM.fullmatch(token) and form not in generic_words() and not is_common(form, lang):
                put(token, "acronym")  # AI, CI, JWT, CORS (two letters are fine when written in capitals)
            elif _TECH.fullmatch(token) and not generic and not token[0].isdigit() and _named(token):
                put(token, "tech")
            # the first word of a sentence is capitalized anyway: it may start a name only if not generic
            if token[0].isupper() and not (i == 0 and generic):
                if not run:
                    run_start = i
                run.append(token)
            else:
                put_name(run, run_start == 0)
                run = []
            if not generic and not stopword(token) and not token[0].isdigit():
                # a sentence's capital says nothing about the word: "Request" opening a sentence is "request"
                put(token.lower() if i == 0 and token[1:].islower() else token, "word")
                if previous:
                    put(f"{previous} {token}", "pair")
                previous = token
            else:
                previous = ""
        put_name(run, run_start == 0)
    return list(found.values())


_KIND_WEIGHT = {"explicit": 4.0, "name": 2.0, "acronym": 2.0, "tech": 2.0, "pair": 1.4, "initial": 1.2, "word": 1.0}
KINDS = frozenset(_KIND_WEIGHT)


def rank_topics(per_chunk: Sequence[Sequence[Candidate]], limit: int) -> list[tuple[str, str, int]]:
    """(key, display name, chunks mentioning it) for the strongest candidates, best first.

    A candidate must recur (two chunks or more) unless it was given explicitly or is a name,
    an acronym or a technical token; a word inside a chosen pair is dropped when it adds
    nothing beyond the pair.
    """
    df: Counter[str] = Counter()
    kinds: dict[str, str] = {}
    langs: dict[str, Counter[str]] = defaultdict(Counter)
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    plains: dict[str, str] = {}
    lowercase: set[str] = set()  # keys also written in lower case inside a sentence
    for chunk in per_chunk:
        for c in chunk:
            df[c.key] += 1
            surfaces[c.key][c.surface] += 1
            if c.plain:
                plains.setdefault(c.key, c.plain)
            langs[c.key][c.lang] += 1
            if _KIND_WEIGHT[c.kind] > _KIND_WEIGHT.get(kinds.get(c.key, "word"), 0) or c.key not in kinds:
                kinds[c.key] = c.kind
            if c.kind in ("word", "pair") and c.surface.islower():
                lowercase.add(c.key)
    for key in lowercase:
        if kinds[key] == "initial":  # "Request ..." opening one sentence, "the request" in another
            kinds[key] = "word"
            surfaces[key] = Counter({s: n for s, n in surfaces[key].items() if s.islower()})
    scored = []
    for key in sorted(df):
        kind, count = kinds[key], df[key]
        if count < 2 and kind in ("pair", "word"):
            continue
        # how distinctive, not how frequent: "photo" on every other line names nothing, "Luna" twice does;
        # a topic given explicitly is the user's own label, taken as it is
        # an inflected form is as common as its word: "creiamo" as "creare"
        names = (display_name(surfaces[key]), plains.get(key, ""))
        rare = 1.0 if kind == "explicit" else min(rarity(n, (display_name(langs[key]),)) for n in names if n)
        scored.append((-(count * _KIND_WEIGHT[kind] * rare), key))
    scored.sort()
    chosen: list[str] = []
    for _, key in scored:
        if len(chosen) >= limit:
            break
        words = key.split()
        # "refresh" adds nothing when "refresh token" is chosen and not much more frequent
        if len(words) == 1 and any(key in other.split() and df[other] * 2 >= df[key] for other in chosen):
            continue
        if len(words) == 2 and any(w in chosen and df[w] <= df[key] * 2 for w in words):
            chosen = [c for c in chosen if not (c in words and df[c] <= df[key] * 2)]
        chosen.append(key)
    return [(key, display_name(surfaces[key]), df[key]) for key in chosen]


@dataclass
class Tally:
    """One topic across a whole memory: how it is written, what kind of candidate it is, and the days
    it comes up on (day -> chunks mentioning it)."""

    key: str
    surfaces: Counter[str]
    kind: str
    days: Counter[str]
    langs: Counter[str] = field(default_factory=Counter)  # chunks mentioning it, by their language
    plains: Counter[str] = field(default_factory=Counter)  # chunks where it was an inflected form, by dictionary form
    lowercase: bool = False  # written in lower case as a word or pair somewhere
    speakers: Counter[str] = field(default_factory=Counter)  # chunks mentioning it, by who said them

    @property
    def chunks(self) -> int:
        return sum(self.days.values())

    @property
    def plain(self) -> str:
        """Its dictionary form when most of its mentions are an inflected form, else ""."""
        return display_name(self.plains) if self.plains and sum(self.plains.values()) * 2 > self.chunks else ""

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages of at least LANGUAGE_SHARE of the chunks mentioning it."""
        if len(self.langs) < 2:
            return tuple(self.langs)
        total = sum(self.langs.values())
        return tuple(sorted(lang for lang, n in self.langs.items() if n >= LANGUAGE_SHARE * total))

    @property
    def name(self) -> str:
        return display_name(self.surfaces)


LANGUAGE_SHARE = 0.2


def tally(dated: Iterable[tuple[str, Sequence[Candidate]]], speaker: str = "") -> dict[str, Tally]:
    """Every candidate of (day, candidates of one chunk) pairs, by key. A key is the strongest kind it
    was seen as, except that a capital only ever seen opening a sentence while the word is also
    written in lower case is a word ("Request ..." and "the request")."""
    counts = ((day, c.key, c.surface, c.kind, c.lang, c.plain, speaker, 1) for day, chunk in dated for c in chunk)
    return tally_counts(counts)


# day, key, surface, kind, language, dictionary form, speaker, chunks
TallyCount = tuple[str, str, str, str, str, str, str, int]


def tally_counts(counts: Iterable[TallyCount]) -> dict[str, Tally]:
    """tally() from counts."""
    return settled(open_tallies(counts))


def open_tallies(counts: Iterable[TallyCount]) -> dict[str, Tally]:
    """The counts by key, in the order given, before settled(): a part of memory that merge_tallies() can join
    to the parts before and after it, with the same result as counting them all at once."""
    found: dict[str, Tally] = {}
    for day, key, surface, kind, lang, plain, speaker, n in counts:
        t = found.get(key)
        if t is None:
            t = found[key] = Tally(key, Counter(), kind, Counter())
        elif _KIND_WEIGHT[kind] > _KIND_WEIGHT[t.kind]:
            t.kind = kind
        t.surfaces[surface] += n
        t.days[day] += n
        t.langs[lang] += n
        t.speakers[speaker] += n
        if plain:
            t.plains[plain] += n
        if not t.lowercase and kind in ("word", "pair") and surface.islower():
            t.lowercase = True
    return found


def merge_tallies(into: dict[str, Tally], later: Mapping[str, Tally]) -> None:
    """Adds the open tallies of a later part of memory (days after all of into's) to into's, copying what
    it keeps."""
    for key, t in later.items():
        mine = into.get(key)
        if mine is None:
            copied = (Counter(t.surfaces), t.kind, Counter(t.days), Counter(t.langs), Counter(t.plains), t.lowercase)
            into[key] = Tally(key, *copied, Counter(t.speakers))
            continue
        if _KIND_WEIGHT[t.kind] > _KIND_WEIGHT[mine.kind]:  # the first of the strongest kind, as when counted at once
            mine.kind = t.kind
        mine.surfaces.update(t.surfaces)
        dict.update(mine.days, t.days)  # other days: nothing to add up
        mine.langs.update(t.langs)
        mine.plains.update(t.plains)
        mine.speakers.update(t.speakers)
        mine.lowercase = mine.lowercase or t.lowercase


def settled(found: dict[str, Tally]) -> dict[str, Tally]:
    """Open tallies made final (in place): a capital only ever seen opening a sentence, while the word is also
    written in lower case, is that word."""
    for t in found.values():
        if t.lowercase and t.kind == "initial":
            t.kind = "word"
            t.surfaces = Counter({s: n for s, n in t.surfaces.items() if s.islower()})
    return found


def kind_weight(kind: str) -> float:
    return _KIND_WEIGHT.get(kind, 1.0)


def display_name(surfaces: Mapping[str, int]) -> str:
    """The most used spelling; ties go to the alphabetically first, for determinism."""
    return min(surfaces.items(), key=lambda kv: (-kv[1], kv[0]))[0]


def merge_topics(stats: Iterable[TopicStat], limit: int) -> tuple[TopicStat, ...]:
    """Topics of children combined under their canonical key: counts add up, dates widen."""
    merged: dict[str, list[TopicStat]] = defaultdict(list)
    for stat in stats:
        merged[topic_key(stat.name)].append(stat)
    combined = []
    for key in sorted(merged):
        group = merged[key]
        names: Counter[str] = Counter()
        for s in group:
            names[s.name] += s.count
        combined.append(
            TopicStat(
                display_name(names),
                sum(s.count for s in group),
                min(s.first for s in group),
                max(s.last for s in group),
            )
        )
    # the period's most distinctive topics first: what it was about, not the words of every day
    langs = languages_of([t.name for t in combined])
    combined.sort(key=lambda t: (-t.count * rarity(t.name, langs), topic_key(t.name)))
    return tuple(combined[:limit])


def aliases_of(extra: Mapping[str, str] = {}) -> dict[str, str]:
    """The built-in aliases plus a vault's own (memtree.yaml: topics.aliases), as topic keys."""
    mine = {topic_key(k, {}): topic_key(v, {}) for k, v in extra.items()}
    return {**BUILTIN_ALIASES, **mine}


MAX_PHRASES = 16


def phrases_for(topic: str, aliases: dict[str, str]) -> list[str]:
    """The phrases (of word forms) that mean topic: its own spelling, its canonical key and its aliases.

    A lowercase query cannot say whether "cors" is an acronym or a plural, so each word also
    matches its unfolded lowercase form.
    """
    key = topic_key(topic, aliases)
    spellings = [topic, key, *sorted(source for source, target in aliases.items() if target == key)]
    phrases: set[str] = set()
    for spelling in spellings:
        # compound words by their parts: "on-call rotation" must match "on call rotation" too
        tokens = [t for t in content_tokens(spelling) if t.isalnum() or "." in t]
        slots = [sorted({word_form(t), fold(t)}) for t in tokens]
        phrases.update(" ".join(combo) for combo in itertools.islice(itertools.product(*slots), MAX_PHRASES))
    phrases.discard("")
    return sorted(phrases)


def phrase_query(phrases: Iterable[str]) -> str:
    """An FTS5 query matching any of the phrases in the index's `words` column."""
    return " OR ".join(f'words : "{p}"' for p in phrases)
