"""Which words are too common to be a topic, in the language a chunk is written in.

No word list is kept here: the frequencies are wordfreq's (word counts from Wikipedia, subtitles,
news, books and the web, for 40+ languages). A word whose frequency in the chunk's language is
at least COMMON_ZIPF (about one word in 16,000 of running text) is a function word, a filler
("Perfetto", "Puoi", "이렇게") or a word everybody uses: never a topic alone. The language is
the one whose most frequent words the chunk uses most.

English keeps its hand-tuned lists (text.STOPWORDS, data/generic_words.txt): they leave real
subjects ("music", "school", "coffee") that frequency alone would drop. wordfreq is imported
only here, by compaction and ROOT.md, never by `memtree add`; without it (a trimmed install)
other languages get the English lists only.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache

# the most used content languages of the web (W3Techs), plus Chinese and Arabic
WEB_LANGUAGES = "en es de ja fr ru pt it nl pl tr fa zh vi id ko cs ar uk sv".split()
COMMON_ZIPF = 4.8  # log10 of frequency per billion words: "perfetto" 4.96, "fattura" 4.06, "python" 3.4
MARKER_ZIPF = 6.0  # the language's function words ("di", "und", "은"), which tell the language apart
MIN_VOTES = 2
DETECT_TOKENS = 80  # the first words of a chunk are enough to tell its language


def _buckets(lang: str, zipf: float) -> list[list[str]]:
    """wordfreq's words of lang at least this frequent (its lists are bucketed by centibels)."""
    try:
        from wordfreq import get_frequency_list
    except ImportError:
        return []
    return get_frequency_list(lang, wordlist="small")[: round((9 - zipf) * 100) + 1]


@cache
def common_words(lang: str) -> frozenset[str]:
    """Words at least COMMON_ZIPF frequent in lang (empty for English: see the module docstring)."""
    if lang == "en":
        return frozenset()
    return frozenset(word for bucket in _buckets(lang, COMMON_ZIPF) for word in bucket)


@lru_cache(maxsize=1)
def _markers() -> dict[str, tuple[str, ...]]:
    """word -> the languages it is a function word of."""
    found: dict[str, list[str]] = {}
    for lang in WEB_LANGUAGES:
        for bucket in _buckets(lang, MARKER_ZIPF):
            for word in bucket:
                found.setdefault(word, []).append(lang)
    return {word: tuple(langs) for word, langs in found.items()}


def detect(words: Sequence[str]) -> str:
    """The language of a chunk, from its folded words: the one whose function words it uses most
    (English on a tie or when nothing is known)."""
    markers = _markers()
    votes: Counter[str] = Counter()
    for word in words[:DETECT_TOKENS]:
        for lang in markers.get(word, ()):
            votes[lang] += 1
        written = _written_in(word)
        if written:  # these scripts name their language; ja and zh words are clauses wordfreq never saw whole
            votes[written] += MIN_VOTES
    best = max(votes.values(), default=0)
    if best < MIN_VOTES and _mostly_other_script(words[:DETECT_TOKENS]):
        # a short line in Cyrillic or Arabic script with few function words ("Получилось! Теперь ..."):
        # the language whose vocabulary holds most of its words (loaded only for such a line)
        votes = Counter({lang: sum(w in _frequencies(lang) for w in words[:DETECT_TOKENS]) for lang in WEB_LANGUAGES})
        best = max(votes.values(), default=0)
    if best < MIN_VOTES or votes["en"] == best:  # a line of code or a short "ok, wow" says little
        return "en"
    return next(lang for lang in WEB_LANGUAGES if votes[lang] == best)


def _mostly_other_script(words: Sequence[str]) -> bool:
    """Most words are letters of a script other than Latin (and not Japanese, Chinese or Korean, which
    name their language)."""
    other = sum(1 for w in words if w[:1].isalpha() and _script(w[0]) != "LATIN" and not _written_in(w))
    return other * 2 > len(words)


def _written_in(word: str) -> str | None:
    if word.isascii():
        return None
    scripts = {_script(c) for c in word}
    if scripts & {"HIRAGANA", "KATAKANA"}:
        return "ja"
    if "CJK" in scripts:
        return "zh"
    return "ko" if "HANGUL" in scripts else None


def _script(char: str) -> str:
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else ""


SPACELESS = frozenset({"ja", "zh", "ko"})  # a word of two characters is a full word ("復元", "서버")


@lru_cache(maxsize=65536)
def lemma(word: str, lang: str) -> str:
    """The dictionary form of an inflected word ("creiamo" -> "creare", "factures" -> "facture"), by
    simplemma, for the languages it covers; the word itself otherwise. English folds its plurals
    elsewhere (text.word_form) and keeps its hand-tuned lists."""
    if lang == "en" or not word.isalpha():
        return word
    try:
        from simplemma import lemmatize
    except ImportError:
        return word
    try:
        return str(lemmatize(word, lang=lang)).casefold()
    except ValueError:  # a language simplemma does not cover
        return word


def is_common(form: str, lang: str) -> bool:
    """A word too common in lang to be a topic, or an inflection of one ("creiamo" of "creare"); a
    compound when all its parts are ("est-ce", "peux-tu"). A Korean word is a stem and its endings
    written as one ("있습니다" = 있 + 습니다), where wordfreq counts the parts: it is common when both
    of some split are."""
    common = common_words(lang)
    if form in common or (common and lemma(form, lang) in common):
        return True
    parts = [p for p in re.split(r"[-'’]", form) if p]
    if len(parts) > 1 and all(p in common for p in parts):
        return True
    if lang == "ko" and len(form) >= 2:
        return any(form[:i] in common and form[i:] in common for i in range(1, len(form)))
    return False


def without_particle(word: str, lang: str) -> str:
    """A Korean word without its case particle or ending ("파이썬을", "파이썬은" -> "파이썬"), when what
    remains is a word of two syllables or more: "Python" with an object marker is still Python."""
    if lang != "ko" or len(word) < 3:
        return word
    markers = _markers()
    for i in range(2, len(word)):
        if "ko" in markers.get(word[i:], ()):
            return word[:i]
    return word


def script_runs(token: str) -> list[str]:
    """A Japanese or Chinese token cut where its script changes: written without spaces, one \\w+ run
    is a whole clause ("今日はデータベースのサーバーを再起動しました"). Hiragana runs are grammar
    (particles, endings) and are dropped; kanji and katakana runs are the words."""
    if not any(_script(c) in ("CJK", "HIRAGANA", "KATAKANA") for c in token):
        return [token]
    runs: list[tuple[str, str]] = []
    current, kind = "", ""
    for char in token:
        script = _script(char)
        if char == "ー":  # the long-vowel mark belongs to katakana words
            script = "KATAKANA"
        elif script not in ("CJK", "HIRAGANA", "KATAKANA"):
            script = "OTHER"  # pg_dump, v2: a Latin name inside a Japanese clause stays whole
        if script != kind:
            runs.append((kind, current))
            current = ""
        current, kind = current + char, script
    runs.append((kind, current))
    return [run for kind, run in runs if run and kind != "HIRAGANA"]


SPECIFIC_ZIPF = 3.0  # one use in a million words or rarer: "pottery" 3.7, "Melanie" 3.5, "SSO" 2.4
PHRASE_ZIPF_STEP = 1.0  # each word past the first makes a phrase about ten times rarer than its rarest word


@cache
def _frequencies(lang: str) -> dict[str, float]:
    """wordfreq's words of lang used once in a million words or more (its "small" list): a rarer word
    is specific whatever its exact frequency."""
    try:
        from wordfreq import get_frequency_dict
    except ImportError:
        return {}
    return get_frequency_dict(lang, wordlist="small")


@lru_cache(maxsize=65536)
def zipf(name: str, langs: tuple[str, ...]) -> float:
    """How common a topic's name is in general use, in the most common of langs (wordfreq's zipf: log10 of
    uses per billion words; 0 for a word it does not list). Its words combine as wordfreq combines
    them (1/f = sum of 1/f_i), which rates a phrase as its rarest word ("adoption agency" as
    "adoption"): each further word lowers it by PHRASE_ZIPF_STEP."""
    words = re.findall(r"\w+", name.casefold())
    best = 0.0
    for lang in langs:
        freqs = [_frequencies(lang).get(word, 0.0) for word in words]
        if words and all(freqs):
            combined = 1 / sum(1 / f for f in freqs)
            best = max(best, math.log10(combined) + 9 - PHRASE_ZIPF_STEP * (len(words) - 1))
    return best


def rarity(name: str, langs: tuple[str, ...]) -> float:
    """How much a name stands out from general language, in (0, 1]: 1 for specific names ("SSO",
    "pottery class", "Kafka"); a tenth for each zipf step above SPECIFIC_ZIPF ("photo" 0.01, "test" 0.006):
    a word everybody uses says little about this memory, however often it comes up."""
    return float(10 ** -max(0.0, zipf(name, langs) - SPECIFIC_ZIPF))


def languages_of(texts: Sequence[str], share: float = 0.2) -> tuple[str, ...]:
    """The languages at least share of the texts are written in (English when none is): what a vault's
    topic names are measured against."""
    from .text import WORD, fold

    votes = Counter(
        detect([fold(m.group()) for m in itertools.islice(WORD.finditer(text), DETECT_TOKENS)]) for text in texts
    )
    total = sum(votes.values())
    found = sorted(lang for lang, n in votes.items() if total and n >= share * total)
    return tuple(found) or ("en",)
