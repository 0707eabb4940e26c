"""How often recall returned each chunk (.memtree/usage.json): written by retrieval, read by retention
for a chunk's importance. Its own module so that neither of the two imports the other for it."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence

from .errors import MemtreeError
from .vault import DERIVED, Vault

USAGE_FILE = f"{DERIVED}/usage.json"  # derived, never committed


def load_usage(vault: Vault) -> dict[str, int]:
    raw = vault.read_bytes(USAGE_FILE)
    try:
        data = json.loads(raw) if raw else {}
    except (ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, int) and v > 0}


def record_usage(vault: Vault, chunk_ids: Sequence[str]) -> None:
    """Counts a recall's chunks in .memtree/usage.json. Best effort: a read-only vault still recalls."""
    if not chunk_ids:
        return
    usage = load_usage(vault)
    for chunk_id in chunk_ids:
        usage[chunk_id] = usage.get(chunk_id, 0) + 1
    with contextlib.suppress(OSError, MemtreeError):
        vault.write(USAGE_FILE, json.dumps(usage, sort_keys=True, separators=(",", ":")).encode("utf-8"))
