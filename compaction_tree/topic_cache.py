"""Every chunk's topic candidates, tallied for ROOT.md and cached under .memtree/ by day.

ROOT.md is rendered at every compaction and by `memtree context` at every session start, and
finding the candidates of a year of chunks takes seconds. So each day's tally is kept with a digest
of its chunks (a changed day is tallied again, the others are read back), and the few thousand
topics ROOT.md can use at all are kept apart, with a digest of the whole vault: a session start
reads only those. Derived data: losing either file costs time, never content.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from .index import Index
from .topics import KINDS, Tally, TallyCount, candidates, tally_counts
from .vault import DERIVED, Vault, atomic_write

TALLY_VERSION = "tally-2"  # bump when candidates() or the floor change what a day's tally holds
BY_DAY = f"{DERIVED}/topic-tally.json"
KEPT = f"{DERIVED}/topic-tally-kept.json"

Rows = list[list[Any]]  # [key, surface, kind, language, dictionary form, chunks]


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
    kept = _read(vault, KEPT)
    if kept.get("digest") == whole:
        decoded = _decode(kept.get("tallies"))
        if decoded is not None and isinstance(kept.get("rejected"), list):
            return decoded, frozenset(str(k) for k in kept["rejected"])
    stored = _read(vault, BY_DAY)
    days = stored.get("days", {}) if stored.get("version") == TALLY_VERSION else {}
    try:
        fresh = _recounted(index, digests, days if isinstance(days, dict) else {})
        tallies = tally_counts(_replay(fresh))
    except (_Damaged, TypeError):  # TypeError: a row holds what cannot be a key
        fresh = _recounted(index, digests, {})
        tallies = tally_counts(_replay(fresh))
    _write(vault, BY_DAY, {"version": TALLY_VERSION, "days": fresh})
    result, rejected = keep(tallies)
    _write(vault, KEPT, {"digest": whole, "tallies": _encode(result), "rejected": sorted(rejected)})
    return result, rejected


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
    counted: Counter[tuple[str, str, str, str, str]] = Counter()
    for row in index.chunks("day = ?", (day,)):
        for c in candidates(row.text, row.topics):
            counted[(c.key, c.surface, c.kind, c.lang, c.plain)] += 1
    return [[*fields, n] for fields, n in sorted(counted.items())]


class _Damaged(Exception):
    """A stored day's rows are not as _day_rows wrote them."""


def _replay(days: Mapping[str, Mapping[str, Any]]) -> Iterable[TallyCount]:
    for day in sorted(days):
        for row in days[day]["rows"]:
            # checked inline: this loop runs over every (topic, day) of the vault at each new day
            if not (type(row) is list and len(row) == 6 and row[2] in KINDS and type(row[5]) is int and row[5] > 0):
                raise _Damaged(day)
            key, surface, kind, lang, plain, n = row
            if not (type(key) is str and type(surface) is str and type(lang) is str and type(plain) is str):
                raise _Damaged(day)
            yield day, key, surface, kind, lang, plain, n


def _encode(tallies: Mapping[str, Tally]) -> dict[str, Any]:
    return {
        k: [t.kind, *(dict(sorted(c.items())) for c in (t.surfaces, t.days, t.langs, t.plains))]
        for k, t in tallies.items()
    }


# A cache is read back only in the shape it was written: a damaged or hand-edited file is counted
# again, never trusted into ROOT.md's arithmetic.


def _count(n: Any) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n > 0


def _counts(data: Any) -> Counter[str] | None:
    if isinstance(data, dict) and all(isinstance(k, str) and _count(n) for k, n in data.items()):
        return Counter(data)
    return None


def _decode(data: Any) -> dict[str, Tally] | None:
    """The kept tallies, or None when the file does not hold them as _encode wrote them."""
    if not isinstance(data, dict):
        return None
    tallies = {}
    for key, fields in data.items():
        if not (isinstance(fields, list) and len(fields) == 5 and fields[0] in KINDS):
            return None
        surfaces, days, langs, plains = (_counts(f) for f in fields[1:])
        if surfaces is None or days is None or langs is None or plains is None or not surfaces or not days:
            return None
        tallies[key] = Tally(key, surfaces, fields[0], days, langs, plains)
    return tallies


def _read(vault: Vault, relative: str) -> dict[str, Any]:
    with contextlib.suppress(OSError, ValueError):
        data = json.loads((vault.root / relative).read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return data
    return {}


def _write(vault: Vault, relative: str, data: Mapping[str, Any]) -> None:
    target: Path = vault.root / relative
    if target.parent.is_dir() and not target.parent.is_symlink() and not target.is_symlink():
        with contextlib.suppress(OSError):
            atomic_write(target, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
