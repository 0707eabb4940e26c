"""Every chunk's topic candidates, tallied for ROOT.md and cached under .memtree/ by month.

ROOT.md is rendered at every compaction and by `memtree context` at every session start, and
finding the candidates of a year of chunks takes seconds. So each day's candidates are kept with a
digest of its chunks (a changed day is counted again, the others are read back), each month's tally
beside them, and the tally of every month but the newest merged in one file: a new day costs that
file and its own month, not a replay of the year (a new month merges the one before into that file,
a changed old day merges every month again).
The few thousand topics ROOT.md can use at all are kept apart, with a digest of the whole vault: a
session start reads only those. Derived data: losing any of these files costs time, never content.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from .errors import MemtreeError
from .index import Index
from .topics import KINDS, Tally, TallyCount, candidates, merge_tallies, open_tallies, settled
from .vault import DERIVED, Vault, atomic_write

TALLY_VERSION = "tally-3"  # bump when candidates() or the floor change what a day's tally holds (3: who said it)
MONTHS = f"{DERIVED}/topic-tally"  # <month>.json: the month's tally; <month>-days.json: its days' candidates
HISTORY = f"{MONTHS}/history.json"  # every month but the newest, merged
KEPT = f"{DERIVED}/topic-tally-kept.json"
BEFORE_MONTHS = f"{DERIVED}/topic-tally.json"  # every day in one file, as memtree kept them until months
_MONTH = re.compile(r"\d{4}-\d{2}")

Rows = list[list[Any]]  # [key, surface, kind, language, dictionary form, speaker, chunks]


def day_digests(index: Index) -> dict[str, str]:
    """Each day's digest of its chunks (ids and content hashes, in order)."""
    hashes: dict[str, Any] = {}
    for day, chunk_id, sha in index.db.execute("SELECT day, id, sha FROM chunks ORDER BY day, ts, id"):
        hashes.setdefault(day, hashlib.sha256()).update(f"{chunk_id}:{sha}\n".encode())
    return {day: h.hexdigest() for day, h in hashes.items()}


Kept = tuple[dict[str, Tally], frozenset[str]]  # the topics ROOT.md may name, and keys it must not


def cached_tallies(vault: Vault, index: Index, keep: Callable[[dict[str, Tally]], Kept], salt: str = "") -> Kept:
    """keep(the tallies of every chunk), from the cache when nothing changed since it was written.
    salt: what else keep() depends on (the budget, the languages, the summaries), so that a change of it
    is seen."""
    digests = day_digests(index)
    whole = hashlib.sha256(json.dumps([TALLY_VERSION, salt, sorted(digests.items())]).encode()).hexdigest()
    kept = _read_kept(vault, whole)
    if kept is not None:
        return kept
    result, rejected = keep(all_tallies(vault, index, digests))
    _write(vault, KEPT, {"digest": whole, "tallies": _encode(result), "rejected": sorted(rejected)})
    return result, rejected


def all_tallies(vault: Vault, index: Index, digests: Mapping[str, str]) -> dict[str, Tally]:
    """The tallies of every chunk: the months before the newest from their merged file while none of their days
    changed, else each month's from its file, merged in order."""
    by_month: dict[str, dict[str, str]] = {}
    for day in sorted(digests):
        by_month.setdefault(day[:7], {})[day] = digests[day]
    months = sorted(by_month)
    before = _Before(vault)
    merged, found = _read_history(vault, by_month)
    for month in months[merged:-1]:  # a month closed since (a new one began), or all of them
        merge_tallies(found, _month_tallies(vault, index, month, by_month[month], before))
    if merged < len(months) - 1:
        history = {day: digest for month in months[:-1] for day, digest in by_month[month].items()}
        _write(vault, HISTORY, {"version": TALLY_VERSION, "digests": history, "tallies": _encode_open(found)})
    if months:
        merge_tallies(found, _month_tallies(vault, index, months[-1], by_month[months[-1]], before))
    _drop_stale(vault, set(months))
    return settled(found)


def _read_history(vault: Vault, by_month: Mapping[str, Mapping[str, str]]) -> tuple[int, dict[str, Tally]]:
    """(how many of the oldest months it holds, their tallies) from the merged file, when its days are those
    months' days as they stand, each unchanged; else (0, {})."""
    stored = _read(vault, HISTORY)
    digests = stored.get("digests")
    if stored.get("version") != TALLY_VERSION or not isinstance(digests, dict) or not digests:
        return 0, {}
    held = sorted({day[:7] for day in digests})
    months = sorted(by_month)
    if held != months[: len(held)] or len(held) >= len(months):  # the newest month is never in it
        return 0, {}
    if digests != {day: digest for month in held for day, digest in by_month[month].items()}:
        return 0, {}
    decoded = _decode_open(stored.get("tallies"), digests.keys())
    return (len(held), decoded) if decoded is not None else (0, {})


class _Before:
    """The days as the one-file cache kept them (same rows): an upgraded vault counts no day again."""

    def __init__(self, vault: Vault) -> None:
        self._vault = vault
        self._days: dict[str, Any] | None = None

    def days(self) -> dict[str, Any]:
        if self._days is None:
            stored = _read(self._vault, BEFORE_MONTHS) if (self._vault.root / BEFORE_MONTHS).is_file() else {}
            days = stored.get("days") if stored.get("version") == TALLY_VERSION else None
            self._days = days if isinstance(days, dict) else {}
        return self._days


def _month_tallies(
    vault: Vault, index: Index, month: str, digests: dict[str, str], before: _Before
) -> dict[str, Tally]:
    """One month's open tallies (topics.open_tallies), counting again only the days whose chunks changed."""
    saved = _MONTH.fullmatch(month) is not None  # a month that cannot name a file is counted, not kept
    if saved:
        stored = _read(vault, f"{MONTHS}/{month}.json")
        if stored.get("version") == TALLY_VERSION and stored.get("digests") == digests:
            decoded = _decode_open(stored.get("tallies"), digests.keys())
            if decoded is not None:
                return decoded
    stored = _read(vault, f"{MONTHS}/{month}-days.json") if saved else {}
    days = stored.get("days", {}) if stored.get("version") == TALLY_VERSION else before.days()
    try:
        fresh = _recounted(index, digests, days if isinstance(days, dict) else {})
        tallies = open_tallies(_replay(fresh))
    except (_Damaged, TypeError):  # TypeError: a row holds what cannot be a key
        fresh = _recounted(index, digests, {})
        tallies = open_tallies(_replay(fresh))
    if saved:
        _write(vault, f"{MONTHS}/{month}-days.json", {"version": TALLY_VERSION, "days": fresh})
        _write(
            vault,
            f"{MONTHS}/{month}.json",
            {"version": TALLY_VERSION, "digests": digests, "tallies": _encode_open(tallies)},
        )
    return tallies


def _drop_stale(vault: Vault, months: set[str]) -> None:
    """Removes the files of months with no chunk left, and the one-file cache once its days are read."""
    folder = vault.root / MONTHS
    stale = [BEFORE_MONTHS] if (vault.root / BEFORE_MONTHS).is_file() else []
    with contextlib.suppress(OSError):
        if folder.is_dir() and not folder.is_symlink():
            stale += [f"{MONTHS}/{p.name}" for p in folder.iterdir() if p.suffix == ".json" and _gone(p.name, months)]
    for relative in stale:
        with contextlib.suppress(MemtreeError):
            vault.delete(relative)


def _gone(name: str, months: set[str]) -> bool:
    return name != Path(HISTORY).name and name[:7] not in months


def _recounted(index: Index, digests: Mapping[str, str], days: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each day's tally: the stored one while its digest matches, else counted again."""
    fresh = {}
    for day, digest in digests.items():
        entry = days.get(day)
        if not (isinstance(entry, dict) and entry.get("digest") == digest and isinstance(entry.get("rows"), list)):
            entry = {"digest": digest, "rows": _day_rows(index, day)}
        fresh[day] = entry
    return fresh


def _day_rows(index: Index, day: str) -> Rows:
    counted: Counter[tuple[str, str, str, str, str, str]] = Counter()
    for row in index.chunks("day = ?", (day,)):
        for c in candidates(row.text, row.topics):
            counted[(c.key, c.surface, c.kind, c.lang, c.plain, row.speaker)] += 1
    return [[*fields, n] for fields, n in sorted(counted.items())]


class _Damaged(Exception):
    """A stored day's rows are not as _day_rows wrote them."""


def _replay(days: Mapping[str, Mapping[str, Any]]) -> Iterable[TallyCount]:
    for day in sorted(days):
        for row in days[day]["rows"]:
            # checked inline: this loop runs over every (topic, day) of the vault at each new day
            if not (type(row) is list and len(row) == 7 and row[2] in KINDS and type(row[6]) is int and row[6] > 0):
                raise _Damaged(day)
            key, surface, kind, lang, plain, speaker, n = row
            if not (type(key) is str and type(surface) is str and type(lang) is str and type(plain) is str):
                raise _Damaged(day)
            if type(speaker) is not str:
                raise _Damaged(day)
            yield day, key, surface, kind, lang, plain, speaker, n


def _encode(tallies: Mapping[str, Tally]) -> dict[str, Any]:
    return {
        k: [t.kind, *(dict(sorted(c.items())) for c in (t.surfaces, t.days, t.langs, t.plains, t.speakers))]
        for k, t in tallies.items()
    }


def _encode_open(tallies: Mapping[str, Tally]) -> dict[str, Any]:
    # in the order counted: merging depends on it (the first of the strongest kinds, the first spelling seen)
    return {k: [t.kind, t.lowercase, t.surfaces, t.days, t.langs, t.plains, t.speakers] for k, t in tallies.items()}


# A cache is read back only in the shape it was written: a damaged or hand-edited file is counted
# again, never trusted into ROOT.md's arithmetic.


def _kind(data: Any) -> bool:
    return type(data) is str and data in KINDS


def _decode(data: Any) -> dict[str, Tally] | None:
    """The kept tallies, or None when the file does not hold them as _encode wrote them."""
    if not isinstance(data, dict):
        return None
    tallies = {}
    for key, fields in data.items():
        if not (isinstance(fields, list) and len(fields) == 6 and _kind(fields[0])):
            return None
        kind, surfaces, days, langs, plains, speakers = fields
        if not (_all_counts(fields[1:]) and surfaces and days):
            return None
        tallies[key] = Tally(
            key, Counter(surfaces), kind, Counter(days), Counter(langs), Counter(plains), speakers=Counter(speakers)
        )
    return tallies


def _all_counts(fields: list[Any]) -> bool:
    """Each a JSON object of positive counts (its keys are strings: JSON's are), checked at C speed: the
    merged file holds every (topic, day) of the vault."""
    for data in fields:
        if type(data) is not dict:
            return False
        counts = data.values()
        if counts and not (set(map(type, counts)) == {int} and min(counts) > 0):
            return False
    return True


def _decode_open(data: Any, days: Iterable[str]) -> dict[str, Tally] | None:
    """A month's open tallies, or None when the file does not hold them as _encode_open wrote them for these days."""
    if type(data) is not dict:
        return None
    month = set(days)
    tallies = {}
    for key, fields in data.items():
        if not (type(fields) is list and len(fields) == 7 and _kind(fields[0]) and type(fields[1]) is bool):
            return None
        kind, lowercase, surfaces, seen, langs, plains, speakers = fields
        if not (_all_counts(fields[2:]) and surfaces and seen and langs and seen.keys() <= month):
            return None
        counts: list[Counter[str]] = [Counter(c) for c in (surfaces, seen, langs, plains, speakers)]
        tallies[key] = Tally(key, counts[0], kind, counts[1], counts[2], counts[3], lowercase, counts[4])
    return tallies


def _read_kept(vault: Vault, digest: str) -> Kept | None:
    """The kept topics when written for this digest. The digest opens the file: one written for other chunks
    is told apart without parsing its megabytes."""
    with contextlib.suppress(OSError, ValueError):
        data = (vault.root / KEPT).read_bytes()
        if data.startswith(f'{{"digest":"{digest}",'.encode()):
            kept = json.loads(data)
            decoded = _decode(kept.get("tallies"))
            if decoded is not None and isinstance(kept.get("rejected"), list):
                return decoded, frozenset(str(k) for k in kept["rejected"])
    return None


def _read(vault: Vault, relative: str) -> dict[str, Any]:
    with contextlib.suppress(OSError, ValueError):
        data = json.loads((vault.root / relative).read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return data
    return {}


def _write(vault: Vault, relative: str, data: Mapping[str, Any]) -> None:
    target: Path = vault.root / relative
    folder = target.parent
    with contextlib.suppress(OSError, MemtreeError):
        if folder.name != DERIVED and folder.parent.is_dir() and not folder.parent.is_symlink():
            vault.ensure_dir(folder, durable=False)  # .memtree/topic-tally/, inside a real .memtree/ only
        if folder.is_dir() and not folder.is_symlink() and not target.is_symlink():
            atomic_write(target, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
