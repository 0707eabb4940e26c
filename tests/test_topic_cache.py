"""ROOT.md's topic tally is cached by day, by month and for every month but the newest: whatever the cache
holds, ROOT.md has the bytes a compaction from scratch gives (no .memtree/ at all)."""

from __future__ import annotations

import itertools
import json
import shutil
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compaction_tree import Memory
from compaction_tree.compaction import compact, forget
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.index import Index
from compaction_tree.ingest import add
from compaction_tree.root import ROOT_FILE
from compaction_tree.topic_cache import HISTORY, KEPT, MONTHS, TALLY_VERSION, all_tallies, day_digests
from compaction_tree.topics import KINDS, Tally, merge_tallies, open_tallies, settled, tally_counts
from compaction_tree.vault import DERIVED, Vault

NOW = datetime(2026, 6, 30, tzinfo=timezone.utc)

# the kinds a key is seen as change from month to month: a capital opening a sentence in one month and the
# word in lower case in another, a name in one and an acronym in the next
LINES = [
    "Request reviews went slowly with Marisol.",
    "KAFKA lag again; Marisol tuned the consumer.",
    "Kafka consumer groups rebalanced after the deploy.",
    "The request queue in Zanzibar staging is full.",
    "Tidepool release notes for the Kafka upgrade.",
    "Booked the clarinet lessons for Thursday.",
]


PAIRS = (("Ana", "Ben"), ("Cleo", "Dev"))  # two groups of people: ROOT.md gives each a line of its own topics


def _fill(vault: Vault, month: int, days: range, shift: int = 0) -> list[str]:
    ids = []
    for day in days:
        when = datetime(2026, month, day, 9, tzinfo=timezone.utc)
        people = PAIRS[day % 2]
        for i in range(3):
            line = LINES[(day + i + month + shift) % len(LINES)]
            at = (when + timedelta(minutes=i)).isoformat()
            ids.append(add(vault, line, timestamp=at, speaker=people[i % 2]).id)
    return ids


def _tallies(vault: Vault) -> dict[str, Tally]:
    """The tallies of every chunk, as the cache gives them (ROOT.md remeasures its strongest topics in the
    index: in a small vault, wrong tallies would hardly show in its bytes)."""
    with Index(vault) as index:
        index.sync()
        return all_tallies(vault, index, day_digests(index))


def _scratch(vault: Vault, tmp_path: Path) -> Vault:
    """A copy of the vault without .memtree/."""
    copy = tmp_path / f"scratch-{len(list(tmp_path.iterdir()))}"
    shutil.copytree(vault.root, copy, ignore=shutil.ignore_patterns(DERIVED))
    return Vault.open(copy)


def _from_scratch(vault: Vault, tmp_path: Path) -> str:
    """ROOT.md as a vault with no .memtree/ renders it; and the tallies must be the same as the cache's."""
    fresh = _scratch(vault, tmp_path)
    assert _tallies(vault) == _tallies(fresh)
    return Memory(fresh).root()


def _compact(vault: Vault) -> str:
    compact(vault, ExtractiveSummarizer(vault.config), NOW)
    return (vault.root / ROOT_FILE).read_text("utf-8")


def test_incremental_root_is_byte_identical_to_one_from_scratch(vault: Vault, tmp_path: Path) -> None:
    feb = _fill(vault, 2, range(2, 12))
    _fill(vault, 3, range(2, 12))
    _fill(vault, 4, range(1, 6))
    root = _compact(vault)
    assert root == _from_scratch(vault, tmp_path)
    assert (vault.root / HISTORY).exists()  # February and March, merged
    assert "- **Ana, Ben**" in root and "- **Cleo, Dev**" in root  # each group's topics, from the tallies

    _fill(vault, 4, range(6, 7), shift=1)  # a new day in the newest month
    assert _compact(vault) == _from_scratch(vault, tmp_path)

    _fill(vault, 5, range(4, 6), shift=2)  # a new month: April joins the history
    assert _compact(vault) == _from_scratch(vault, tmp_path)

    add(vault, "A late note: the request queue moved to Kafka.", timestamp="2026-03-05T18:00:00Z")  # an old day
    assert _compact(vault) == _from_scratch(vault, tmp_path)

    forget(vault, feb[:6], ExtractiveSummarizer(vault.config), NOW)  # chunks of old days, two of them whole
    root = (vault.root / ROOT_FILE).read_text("utf-8")
    assert root == _from_scratch(vault, tmp_path)
    assert "2026-02-02" not in root and "2026-02-03" not in root


def test_the_files_of_a_month_with_no_chunk_left_go(vault: Vault, tmp_path: Path) -> None:
    feb = _fill(vault, 2, range(2, 4))
    _fill(vault, 3, range(2, 4))
    _compact(vault)
    assert (vault.root / MONTHS / "2026-02.json").exists()
    forget(vault, feb, ExtractiveSummarizer(vault.config), NOW)
    assert not list((vault.root / MONTHS).glob("2026-02*"))
    assert (vault.root / ROOT_FILE).read_text("utf-8") == _from_scratch(vault, tmp_path)


def test_the_one_file_cache_of_earlier_versions_is_read_then_removed(vault: Vault, tmp_path: Path) -> None:
    _fill(vault, 2, range(2, 5))
    _fill(vault, 3, range(2, 5))
    cold = Memory(vault).root()
    days: dict[str, Any] = {}
    for path in sorted((vault.root / MONTHS).glob("*-days.json")):
        days.update(json.loads(path.read_text())["days"])
    before = vault.root / DERIVED / "topic-tally.json"
    before.write_text(json.dumps({"version": TALLY_VERSION, "days": days}))
    shutil.rmtree(vault.root / MONTHS)
    (vault.root / KEPT).unlink()
    assert Memory(vault).root() == cold
    assert not before.exists() and (vault.root / HISTORY).exists()


def _edit(path: str, change: Callable[[Any], None]) -> Callable[[Path], None]:
    def damage(root: Path) -> None:
        data = json.loads((root / path).read_text())
        change(data)
        (root / path).write_text(json.dumps(data))

    return damage


def _every_tally(fields: Callable[[list[Any]], Any]) -> Callable[[Any], None]:
    def change(data: Any) -> None:
        for entry in data["tallies"].values():
            fields(entry)

    return change


def _set(i: int, value: Any) -> Callable[[list[Any]], None]:
    def change(entry: list[Any]) -> None:
        entry[i] = value

    return change


def _every_row(row: list[Any]) -> Callable[[Any], None]:
    def change(data: Any) -> None:
        for entry in data["days"].values():
            entry["rows"] = [row]

    return change


FEBRUARY, MARCH, APRIL = (f"{MONTHS}/2026-0{m}.json" for m in (2, 3, 4))
MARCH_DAYS = f"{MONTHS}/2026-03-days.json"
REPLAYED = (HISTORY, MARCH)  # so that March is replayed from its days


@pytest.mark.parametrize(
    ("damage", "drop"),
    [
        (_edit(HISTORY, _every_tally(_set(3, {"2026-02-02": "7"}))), ()),  # a count as text
        (_edit(HISTORY, _every_tally(_set(3, {"2026-04-01": 1}))), ()),  # a day the history does not hold
        (_edit(HISTORY, _every_tally(_set(0, ["name"]))), ()),  # a kind that cannot be one
        (_edit(HISTORY, _every_tally(_set(1, 1))), ()),  # lower case seen: not a yes or no
        (_edit(HISTORY, lambda data: data.update(tallies=[])), ()),
        (lambda root: (root / HISTORY).write_text("{" * 10_000), ()),
        (_edit(APRIL, _every_tally(_set(2, {"Kafka": 0}))), ()),  # the newest month, read at every new day
        (_edit(APRIL, _every_tally(lambda entry: entry.pop())), ()),
        (_edit(FEBRUARY, _every_tally(_set(4, {"en": True}))), (HISTORY,)),
        (_edit(MARCH_DAYS, _every_row(["kafka", "Kafka", "nonsense", "en", "", "Ana", 1])), REPLAYED),
        (_edit(MARCH_DAYS, _every_row(["kafka", "Kafka", "name", "en", "", "Ana", "7"])), REPLAYED),
        (_edit(MARCH_DAYS, _every_row([["kafka"], "Kafka", "name", "en", "", "Ana", 1])), REPLAYED),
        (_edit(MARCH_DAYS, _every_row(["kafka", "Kafka", "name", "en", "", 7, 1])), REPLAYED),  # who said it: no name
        (_edit(HISTORY, _every_tally(_set(6, {"Ana": -1}))), ()),
    ],
)
def test_a_damaged_cache_is_counted_again(
    vault: Vault, tmp_path: Path, damage: Callable[[Path], None], drop: tuple[str, ...]
) -> None:
    """Each file is read back only in the shape it was written. drop: the files to remove so that the damaged
    one is read (a month's tally is read when the history does not hold it, its days when the tally is gone)."""
    _fill(vault, 2, range(2, 5))
    _fill(vault, 3, range(2, 5))
    _fill(vault, 4, range(1, 3))
    cold = Memory(vault).root()
    expected = _tallies(_scratch(vault, tmp_path))
    for read in (_tallies, lambda vault: Memory(vault).root()):
        damage(vault.root)
        for path in (KEPT, *drop):
            (vault.root / path).unlink(missing_ok=True)
        assert read(vault) == (expected if read is _tallies else cold)


ROWS = st.lists(
    st.tuples(
        st.sampled_from(["2026-01-30", "2026-01-31", "2026-02-01", "2026-02-14", "2026-03-01"]),
        st.sampled_from(["kafka", "request", "tidepool"]),
        st.sampled_from(["Kafka", "KAFKA", "kafka", "Request", "request", "requests"]),
        st.sampled_from(sorted(KINDS)),
        st.sampled_from(["en", "it"]),
        st.sampled_from(["", "richiesta"]),
        st.sampled_from(["Ana", "Ben"]),
        st.integers(1, 3),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(ROWS, st.lists(st.sampled_from(["2026-01-31", "2026-02-01", "2026-02-15", "2026-03-01"]), max_size=3))
def test_tallies_merged_by_part_are_the_tallies_counted_at_once(rows: list[Any], cuts: list[str]) -> None:
    """The kind a key takes is the first of its strongest (name and acronym weigh the same), a capital only ever
    opening a sentence is a word once the word is seen in lower case in any part: merging parts in order
    changes none of it."""
    rows.sort(key=lambda r: r[0])  # in day order, as the cache replays them
    whole = tally_counts(rows)
    merged: dict[str, Any] = {}
    bounds = ["", *sorted(set(cuts)), "9999"]
    for low, high in itertools.pairwise(bounds):
        merge_tallies(merged, open_tallies(r for r in rows if low <= r[0] < high))
    assert settled(merged) == whole
