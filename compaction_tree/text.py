"""Text analysis shared by the summarizer, the topic index, search and awareness.

Two normal forms of a word:
- `word_form`: lowercase with plurals folded ("tokens" -> "token", "APIs" -> "api"), but acronyms
  kept ("CORS" stays "cors", never "cor"). Awareness matches phrases of these, so "auth" never
  matches "author" and "refresh tokens" matches "refresh token".
- `stem`: a light suffix stripper on top ("painted", "painting" -> "paint") for ranking recall.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

# Words, including ones with inner dots, dashes, apostrophes or underscores: fly.io, pg_dump, e-mail, don't
WORD = re.compile(r"\w+(?:[.'’_-]\w+)*")
_SPLIT_WORD = re.compile(r"[.'’_-]")

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "aren",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "cannot",
        "could",
        "couldn",
        "did",
        "didn",
        "do",
        "does",
        "doesn",
        "doing",
        "don",
        "down",
        "during",
        "each",
        "either",
        "else",
        "even",
        "ever",
        "every",
        "few",
        "for",
        "from",
        "further",
        "get",
        "gets",
        "got",
        "had",
        "hadn",
        "has",
        "hasn",
        "have",
        "haven",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "isn",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "like",
        "ll",
        "m",
        "me",
        "might",
        "more",
        "most",
        "must",
        "mustn",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "oh",
        "ok",
        "okay",
        "on",
        "once",
        "one",
        "only",
        "or",
        "other",
        "others",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "re",
        "really",
        "s",
        "same",
        "shall",
        "shan",
        "she",
        "should",
        "shouldn",
        "so",
        "some",
        "such",
        "t",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "though",
        "through",
        "thus",
        "to",
        "too",
        "under",
        "until",
        "up",
        "upon",
        "us",
        "ve",
        "very",
        "via",
        "was",
        "wasn",
        "way",
        "we",
        "well",
        "were",
        "weren",
        "what",
        "when",
        "where",
        "whether",
        "which",
        "while",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "won",
        "would",
        "wouldn",
        "yeah",
        "yes",
        "yet",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "d",
        "also",
        "just",
        "still",
        "much",
        "many",
        "may",
    ]
)

# Words ending in s that are not plurals: folding them would make "news" mean "new".
# nouns whose singular ends in -ie: their plural is not a -y word's ("cookies" -> cookie, "cities" -> city)
_IE_NOUNS = frozenset(
    """
auntie bestie birdie boogie brownie budgie calorie collie cookie cutie eyrie foodie freebie genie goalie hippie
hoodie indie lassie lingerie magpie movie newbie pixie prairie quickie rookie roomie selfie smoothie sweetie talkie
techie veggie walkie yuppie zombie
""".split()
)

_NOT_PLURAL = frozenset(
    [
        "always",
        "analysis",
        "basis",
        "bias",
        "bus",
        "canvas",
        "chaos",
        "class",
        "crisis",
        "dns",
        "news",
        "physics",
        "perhaps",
        "plus",
        "series",
        "species",
        "status",
        "thesis",
        "this",
        "thus",
        "was",
        "has",
        "is",
        "does",
        "yes",
        "us",
        "gas",
        "lens",
        "mathematics",
        "analytics",
        "economics",
        "ethics",
        "kubernetes",
        "redis",
        "postgres",
        "jenkins",
        "rails",
        "express",
        "less",
        "unless",
        "various",
        "previous",
        "famous",
        "nervous",
        "serious",
        "across",
        "whereas",
    ]
)


def fold(text: str) -> str:
    """NFKC + casefold: the canonical form two spellings must share to be the same name."""
    return unicodedata.normalize("NFKC", text).casefold()


@lru_cache(maxsize=65536)
def word_form(token: str) -> str:
    """The precise normal form of one token (see the module docstring)."""
    lower = fold(token)
    if len(token) >= 3 and token[-1] == "s" and token[:-1].isupper() and token[:-1].isalpha():
        return lower[:-1]  # APIs, URLs, PRs
    if len(lower) <= 3 or not lower.isalpha() or lower in _NOT_PLURAL:
        return lower
    if token[-1].isupper() and len(token) <= 5:  # CORS, AWS, iOS: an acronym, not a plural ("TOKENS" is shouting)
        return lower
    if lower.endswith("ies") and len(lower) > 4:
        return lower[:-1] if lower[:-1] in _IE_NOUNS else lower[:-3] + "y"  # cookies, but cities
    if lower.endswith("es") and lower[:-2].endswith(("ss", "x", "z", "ch", "sh")):
        return lower[:-2]
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        return lower[:-1]
    return lower


@lru_cache(maxsize=65536)
def stem(form: str) -> str:
    """A light stemmer over word forms, for ranking: painted/painting/paints -> paint."""
    if len(form) <= 4 or not form.isalpha():
        return form
    for suffix in ("ing", "ed"):
        if form.endswith(suffix) and len(form) - len(suffix) >= 3:
            form = form[: -len(suffix)]
            if len(form) > 3 and form[-1] == form[-2] and form[-1] not in "lsz":  # running -> run
                form = form[:-1]
            break
    if form.endswith("e") and len(form) > 4:  # baking/bake meet at "bak"; short words keep their e
        form = form[:-1]
    return form


def tokens(text: str) -> list[str]:
    """Raw word tokens; compound names (fly.io, pg_dump) also yield their parts, contractions only their parts."""
    found = []
    for match in WORD.finditer(text):
        token = match.group()
        if token.isalnum():
            found.append(token)
            continue
        if "'" not in token and "’" not in token:
            found.append(token)
        found.extend(p for p in _SPLIT_WORD.split(token) if p)
    return found


def content_tokens(text: str) -> list[str]:
    """Tokens that carry meaning, in order, original spelling kept (stopwords dropped)."""
    return [t for t in tokens(text) if fold(t) not in STOPWORDS]


def word_forms(text: str) -> list[str]:
    """Precise forms of the content words, in order (what phrase matching sees)."""
    return [word_form(t) for t in content_tokens(text)]


# Ranking keeps more words than awareness does: "now", "usual", "first" help find the latest value.
RANKING_STOPWORDS = frozenset(
    """
a an and are as at be been being but by can could did do does for from had has have he her him his how i if in
into is it its me my of on or our she so than that the their them then there these they this those to was we
were what when where which who whom whose why will with would you your s t d ll m re ve
""".split()
)


def stems(text: str) -> list[str]:
    """The terms search ranks on: light stems of every word but the most common function words.

    A hyphenated word also counts written solid, as people write it both ways ("de-stress" and
    "destress", "e-mail" and "email")."""
    found = []
    for token in tokens(text):
        if fold(token) in RANKING_STOPWORDS:
            continue
        found.append(stem(word_form(token)))
        if "-" in token and token.replace("-", "").isalpha():
            found.append(stem(word_form(token.replace("-", ""))))
    return found


def prose_share(text: str) -> float:
    """The share of a line's words that are words: low for stack traces, logs, JSON and shell output,
    which carry many rare tokens (they would win on vocabulary) and say little to a reader."""
    words = text.split()
    plain = sum(1 for w in words if w.strip(".,;:!?()'\"`").isalpha())
    return plain / len(words) if words else 0.0


# ---------------------------------------------------------------- sentences

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9])")
_ABBREVIATIONS = (
    "e.g.",
    "i.e.",
    "etc.",
    "vs.",
    "mr.",
    "mrs.",
    "ms.",
    "dr.",
    "prof.",
    "approx.",
    "no.",
    "fig.",
    "cf.",
    "st.",
)
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


# What summaries, topics and facts read of one chunk. Their hundreds of patterns are written for
# sentences; some cost the square of a sentence's length, and one pasted blob (a base64 image, a
# 1 MB log) would stall compaction for hours. So analysis reads bounded pieces: tokens over
# LONG_TOKEN characters (keys, hashes, base64; no word or URL of the corpora measured came near)
# shortened, then the first ANALYSED_CHARS of the chunk, sentences cut at SENTENCE_CHARS (the longest
# seen was 660). Cost is then linear in the text. The whole chunk stays stored, indexed and recalled.
ANALYSED_CHARS = 16_000
LONG_TOKEN = 100
SENTENCE_CHARS = 1_000
_LONG_TOKEN = re.compile(rf"\S{{{LONG_TOKEN + 1},}}")


def bounded(text: str) -> str:
    """The part of a chunk that analysis reads (see ANALYSED_CHARS)."""
    shortened = _LONG_TOKEN.sub(lambda token: token.group(0)[: LONG_TOKEN // 2] + "…", text)  # a blob eats no budget
    return shortened[:ANALYSED_CHARS]


def _pieces(sentence: str) -> Iterator[str]:
    """A sentence cut at word boundaries into pieces of at most SENTENCE_CHARS."""
    while len(sentence) > SENTENCE_CHARS:
        cut = sentence.rfind(" ", 0, SENTENCE_CHARS + 1)
        cut = cut if cut > 0 else SENTENCE_CHARS
        yield sentence[:cut]
        sentence = sentence[cut:].lstrip()
    if sentence:
        yield sentence


def sentences(text: str) -> list[str]:
    """Sentences and list items of a chunk's bounded part (see ANALYSED_CHARS), code blocks left
    out, each on one line."""
    prose = _FENCE.sub("\n", bounded(text))
    found: list[str] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)", prose):
        block = _LIST_ITEM.sub("", block.strip())
        if not block:
            continue
        pieces = _BOUNDARY.split(" ".join(block.split()))
        merged: list[str] = []
        for piece in pieces:
            if merged and merged[-1].lower().endswith(_ABBREVIATIONS):
                merged[-1] += " " + piece
            else:
                merged.append(piece)
        found.extend(piece for sentence in merged for piece in _pieces(sentence))
    return found


# ---------------------------------------------------------------- text shown to a reader

# What moves a terminal's cursor, clears its screen, reorders a line or hides text from a human reader while a
# model still reads it. Escape sequences go whole (ESC [ 2 J, not only its ESC); tab stays; the zero-width
# joiners (U+200C, U+200D) stay, as emoji and Indic and Persian script need them.
_ESCAPE_SEQUENCE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_LINE_BREAK = re.compile("\r\n?|[\x0b\x0c\x85\u2028\u2029]")
_HIDDEN = re.compile(
    "[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f"  # C0 and C1 controls (tab, newline and the breaks above aside)
    "\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"  # bidi controls, zero-width marks
    "\U000e0000-\U000e007f]"  # tag characters: invisible ASCII that a model reads
)
# A "<" (or a look-alike that NFKC folds to it) that would open a tag, a closing tag, an HTML comment or a
# declaration; spaces or joiners before the slash still make a closing tag to a model's eye
_LESS_THAN = "<\uff1c\ufe64"
_MARKUP = re.compile(f"[{_LESS_THAN}](?=[\\s\u200c\u200d]*[/\uff0f]|[!?\uff01\uff1f]|[^\\W\\d_])")
_CLOSING_TAG = re.compile(f"[{_LESS_THAN}](?=[\\s\u200c\u200d]*[/\uff0f])")


def printable(text: str) -> str:
    """Text safe to print or to show a model: no control character, escape sequence, bidi control or invisible
    mark, and every line break (CR, U+2028, U+2029...) a plain newline."""
    return _HIDDEN.sub("", _LINE_BREAK.sub("\n", _ESCAPE_SEQUENCE.sub("", text)))


def inert(text: str) -> str:
    """Content as one line of ROOT.md or of the session block: printable, on one line, and no markup. A "<"
    that would open a tag or an HTML comment is written "&lt;": markdown shows it as "<" instead of hiding
    what follows, and no tag in memory's content can pass for the block's own (see session_text.py)."""
    return _MARKUP.sub("&lt;", printable(text).replace("\n", " "))


def without_closing_tags(text: str) -> str:
    """text with every closing tag defused ("</x>" -> "&lt;/x>"), keeping "<question>"-like placeholders."""
    return _CLOSING_TAG.sub("&lt;", text)
