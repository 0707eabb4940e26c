"""Whether a daily summary's fact rests on the chunks it cites (a hand edit of the front matter does not).

A fact candidate in a daily summary's front matter becomes a standing fact, read by the agent at every
session start; the file is plain YAML in git, so a tampered commit can add one. Nothing in the file can
prove who wrote it (any checksum there can be recomputed by whoever edits it), so what is checked is the
fact against the chunks it cites, the way each summarizer writes facts:

- the extractive summarizer quotes: its fact is a statement of the chunk, word for word, at most
  recapitalized, re-punctuated at its ends and led by "speaker: ". Its words in a row must occur in a
  cited chunk (measured: all 112 of the sample vault's candidates, and all 872 statements the extractor
  finds in 10,900 synthetic chat turns of four corpus splits and LoCoMo's 788 dev turns);
- a model paraphrases ("I never deploy on a Friday" -> "The user never deploys on Fridays"), so for any
  other summarizer the fact need only share one content word (a light stem; the cited speakers' names
  count) with its cited chunks. On LoCoMo's 353 model-written observations with their evidence turns the
  least share was 1 in 10 (none would be refused); a fact written by hand about something its chunks
  never mention shares none. It is a floor, not a proof: a forger who reuses a chunk's words passes it.

Which rule applies is the summary's summarizer identity. Claiming another identity to get the loose rule
changes nothing durable: the identity is part of the summary's input hash, so the next compaction of that
day regenerates the file and the forged fact with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..summary import FactCandidate
from ..text import WORD, content_tokens, fold, stem, word_form

QUOTING_BACKENDS = frozenset({"extractive"})


def _words(text: str) -> str:
    """Folded words, space-separated and space-framed: a phrase is in it iff its own _words is a substring."""
    return " " + " ".join(WORD.findall(fold(text))) + " "


def _terms(text: str) -> set[str]:
    return {stem(word_form(t)) for t in content_tokens(text)}


# who said a first-person statement ("alice: I prefer tabs."; "user" when the speaker's name is not one word)
_SPEAKER_LABEL = re.compile(r"[\w.-]{1,40}: ")


def quotes(fact: str, text: str) -> bool:
    """fact is a statement of text, word for word (led by its speaker's label or not)."""
    label = _SPEAKER_LABEL.match(fact)
    words = _words(fact[label.end() :] if label else fact)
    return words.strip() != "" and words in _words(text)


def supported(candidate: FactCandidate, backend: str, cited: Sequence[tuple[str, str]]) -> bool:
    """Whether candidate rests on cited, the (speaker, text) of the chunks it cites that exist."""
    if not cited:
        return False
    if backend in QUOTING_BACKENDS:
        return any(quotes(candidate.fact, text) for _, text in cited)
    said = _terms(candidate.fact)
    found = set().union(*(_terms(text) | _terms(speaker) for speaker, text in cited))
    return not said or bool(said & found)
