"""Friends who chat: distractor conversations like LoCoMo's, from Google's Synthetic-Persona-Chat.

LoCoMo's held-out check puts eight two-person conversations in one memory, so each one's distractors
are other people's small talk about family, hobbies, pets and plans: far closer to it than
bench/corpus.py's software and work chat. Synthetic-Persona-Chat (google-research-datasets, CC BY 4.0)
holds ~2,000 such chats between two personas. Here they are dealt out to pairs of named friends, one
chat a session, the sessions dated across LoCoMo dev's months, each chat's name placeholders filled
with the pair's names, so a pair reads as one long multi-session conversation.

The data stays out of the repository. Get the two CSV files of commit 1f367a0 (~3.5 MB):
  https://github.com/google-research-datasets/Synthetic-Persona-Chat/tree/1f367a0/data
  (Synthetic-Persona-Chat_test.csv and Synthetic-Persona-Chat_valid.csv) into one folder, and give
that folder to bench/eval_scale.py or bench/eval_root.py as --persona-chat DIR.
"""

from __future__ import annotations

import csv
import random
import re
import sys
from collections.abc import Set as AbstractSet
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2] / "shared" / "tools"))

import membench as mb  # noqa: E402

from bench.corpus import PEOPLE  # noqa: E402

FILES = ("Synthetic-Persona-Chat_test.csv", "Synthetic-Persona-Chat_valid.csv")
FIRST_DAY, DAYS = datetime(2023, 1, 1, 9), 300  # LoCoMo dev's two conversations fall in these months
_TURN = re.compile(r"^User ([12]):\s*(.*)$")
_OWN_NAME = re.compile(r"(?i)\b(?:I'm|I am|my name is|name's)\s*$")
_PLACEHOLDER = re.compile(r"\[(?:user ?([12])(?:'s)? ?(?:name)?|name|username|your name)\]", re.IGNORECASE)


def chats(folder: Path) -> list[list[tuple[int, str]]]:
    """Every chat in the folder's CSV files, as (user 1 or 2, what they said) turns, in file order."""
    found = []
    for name in FILES:
        path = folder / name
        if not path.exists():
            raise SystemExit(f"{path} is missing: see bench/persona_chat.py for where to get it")
        with path.open(newline="", encoding="utf-8") as handle:
            for row in list(csv.reader(handle))[1:]:
                turns = []
                for line in row[2].splitlines():
                    said = _TURN.match(line.strip())
                    if said:
                        turns.append((int(said.group(1)), said.group(2)))
                    elif line.strip() and turns:
                        turns[-1] = (turns[-1][0], f"{turns[-1][1]} {line.strip()}")
                if len(turns) >= 4:
                    found.append(turns)
    return found


def _named(text: str, speaker: int, names: tuple[str, str]) -> str:
    """The chat's name placeholders filled: "[User 2's name]" is user 2's, a bare "[name]" the speaker's
    own after "I'm" and the other's otherwise."""

    def fill(match: re.Match[str]) -> str:
        if match.group(1):
            return names[int(match.group(1)) - 1]
        own = _OWN_NAME.search(text[: match.start()])
        return names[speaker - 1] if own else names[2 - speaker]

    return _PLACEHOLDER.sub(fill, text)


def friends(
    folder: Path, pairs: int, sessions: int, seed: int = 1, avoid: AbstractSet[str] = frozenset()
) -> list[mb.Conversation]:
    """pairs conversations of sessions chats each, between two named people (none of avoid's names)."""
    pool = chats(folder)
    rng = random.Random(seed)
    rng.shuffle(pool)
    if pairs * sessions > len(pool):
        raise SystemExit(f"{pairs} x {sessions} chats asked for, the files hold {len(pool)}")
    names = [n for n in PEOPLE if n not in avoid]
    rng.shuffle(names)
    if 2 * pairs > len(names):
        raise SystemExit(f"{pairs} pairs need {2 * pairs} names, there are {len(names)}")
    made = []
    for p in range(pairs):
        two = (names[2 * p], names[2 * p + 1])
        key = f"friends{p + 1}"
        days = sorted(rng.sample(range(DAYS), sessions))
        chunks, dates = [], {}
        for s, day in enumerate(days, 1):
            start = FIRST_DAY + timedelta(days=day, minutes=rng.randrange(12 * 60))
            dates[s] = start.isoformat()
            for t, (user, text) in enumerate(pool[p * sessions + s - 1], 1):
                chunks.append(
                    mb.Chunk(f"{key}:D{s}:{t}", key, len(chunks), s, dates[s], two[user - 1], _named(text, user, two))
                )
        made.append(mb.Conversation(key, key, two, chunks, dates, [], {}))
    return made
