"""ROOT.md in a memory of several groups of people (pairs of friends, a user and an assistant): each group
gets a line of its own topics, so the largest or noisiest group does not take all the room."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta, timezone

from compaction_tree.compaction import compact
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.index import Index
from compaction_tree.ingest import add
from compaction_tree.root import ROOT_FILE, _folded_keys, speaker_groups
from compaction_tree.vault import Vault

NOW = datetime(2026, 4, 20, tzinfo=timezone.utc)
START = datetime(2026, 3, 1, 9, tzinfo=timezone.utc)
# invented names, none of them a word: as distinctive as a name can be
NAMES = [
    a + b
    for a, b in itertools.product(
        ["Bor", "Tal", "Quen", "Vel", "Dro", "Fen", "Kes", "Rav"], ["vane", "mesk", "drilo", "ostra", "unde", "pilk"]
    )
]


def _small_budget(vault: Vault, tokens: int) -> Vault:
    config = vault.root / "memtree.yaml"
    config.write_text(config.read_text("utf-8").replace("root: 3000", f"root: {tokens}"), "utf-8")
    return Vault.open(vault.root)


def _section(text: str, title: str) -> list[str]:
    if f"## {title}" not in text:
        return []
    return [line for line in text.split(f"## {title}", 1)[1].split("\n## ", 1)[0].splitlines() if line]


def test_a_small_group_keeps_its_own_topics_beside_a_loud_one(vault: Vault) -> None:
    vault = _small_budget(vault, 700)
    for day, name in enumerate(NAMES[:30]):  # Ana and Ben talk every day, each day about someone new
        when = START + timedelta(days=day)
        for i in range(6):
            at = (when + timedelta(minutes=i)).isoformat()
            add(vault, f"{name} called again today.", timestamp=at, speaker=("Ana", "Ben")[i % 2])
    for day in (3, 9):  # Cleo and Dev, twice, about their own trip
        when = START + timedelta(days=day, hours=6)
        add(vault, "The Zanzibar ferry is booked.", timestamp=when.isoformat(), speaker="Cleo")
        add(vault, "Marisol has the tickets.", timestamp=(when + timedelta(minutes=1)).isoformat(), speaker="Dev")
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    text = (vault.root / ROOT_FILE).read_text("utf-8")
    lines = _section(text, "Who talks about what")
    small = [line for line in lines if line.startswith("- **Cleo, Dev** (4 chunks")]
    assert small and "Zanzibar" in small[0] and "Marisol" in small[0], lines
    assert any(line.startswith("- **Ana, Ben**") for line in lines)
    # the people are a line's label, not topics of the other sections
    assert "**Ana**" not in text and "Cleo," not in text.split("## Who talks about what")[0]


def test_one_group_has_no_line_of_its_own(vault: Vault) -> None:
    """An agent's memory (a user and an assistant) is all one group: the index is about it already."""
    for day in range(3):
        when = START + timedelta(days=day)
        add(vault, "Kafka lag again on the Tidepool consumer.", timestamp=when.isoformat(), speaker="user")
        add(
            vault,
            "Tune the Tidepool consumer's fetch size.",
            timestamp=(when + timedelta(minutes=1)).isoformat(),
            speaker="assistant",
        )
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    text = (vault.root / ROOT_FILE).read_text("utf-8")
    assert "Tidepool" in text and not _section(text, "Who talks about what")


def test_people_who_share_their_conversations_are_one_group(vault: Vault) -> None:
    """A guest in one of another group's sessions joins neither; three who always talk together are one group."""
    turns = [(f"a{n}", ("Ana", "Ben")) for n in range(3)]
    turns += [(f"c{n}", ("Cleo", "Dev", "Ana") if n == 0 else ("Cleo", "Dev")) for n in range(4)]
    turns += [(f"e{n}", ("Eve", "Fay", "Gus")) for n in range(2)]
    when = START
    for session, people in turns:
        for speaker in people:
            when += timedelta(minutes=1)
            add(vault, f"{speaker} has news.", timestamp=when.isoformat(), speaker=speaker, session=session)
    with Index(vault) as index:
        index.sync()
        groups = speaker_groups(index)
    assert [g.speakers for g in groups] == [("Cleo", "Dev"), ("Ana", "Ben"), ("Eve", "Fay", "Gus")]  # largest first
    assert [g.chunks for g in groups] == [8, 7, 6]


def test_a_line_names_each_thing_once() -> None:
    keys = [
        "rolls royce",
        "painting",
        "royce ghost",
        "rolls royce ghost",
        "paint",
        "adoption",
        "adoption agency",
        "luna",
    ]
    assert _folded_keys(keys, 10) == ["rolls royce ghost", "painting", "adoption agency", "luna"]
    assert _folded_keys(keys, 2) == ["rolls royce", "painting"]
