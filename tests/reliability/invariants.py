"""The invariants of docs/RELIABILITY.md §2.3, as checks run after every crash, fault and hostile step.

I1 no raw chunk is deleted (memtree has no prune: compaction never deletes a chunk);
I2 every id a summary cites is a live raw chunk or a lower-level summary;
I3 loading the vault never raises (Vault.open, index sync, doctor, status, ROOT.md);
I4 compact; compact == compact (the second run writes nothing and makes no summarizer call).
"""

from __future__ import annotations

import hashlib
import os
import re
from datetime import datetime
from pathlib import Path

from helpers import tally

from compaction_tree.compaction import compact
from compaction_tree.errors import VaultFormatError
from compaction_tree.facts.store import standing_fact_lines
from compaction_tree.health import doctor, status
from compaction_tree.index import Index
from compaction_tree.markdown import parse_summary
from compaction_tree.periods import parse_period
from compaction_tree.root import root_text
from compaction_tree.summary import CHILD_LEVEL, LEVELS, Summary
from compaction_tree.vault import Vault, is_temp

from .faults import CountingSummarizer

LAYOUT = re.compile(
    r"(memtree\.yaml|\.gitignore|ROOT\.md"
    r"|raw/\d{4}/\d{2}/\d{2}/[0-9A-Za-z_-]{1,64}\.json"
    r"|daily/\d{4}-\d{2}-\d{2}\.md|weekly/\d{4}-W\d{2}\.md|monthly/\d{4}-\d{2}\.md"
    r"|facts/[a-z_]+\.md|facts/audit\.jsonl|facts/overrides\.yaml|facts/candidates/\d{4}-\d{2}\.jsonl)"
)


def files(root: Path, *, derived: bool = False, temps: bool = False, git: bool = False) -> dict[str, str]:
    """relative path -> sha256 of every file (derived .memtree/, temp files and .git/ left out by default)."""
    found = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if (derived or d != ".memtree") and (git or d != ".git"))
        for name in sorted(names):
            if is_temp(name) and not temps:
                continue
            path = Path(folder) / name
            if path.is_symlink():
                continue
            found[path.relative_to(root).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def temp_files(root: Path) -> list[str]:
    return sorted(p for p in files(root, derived=True, temps=True) if is_temp(p.rsplit("/", 1)[-1]))


def raw_state(root: Path) -> dict[str, str]:
    return {p: h for p, h in files(root).items() if p.startswith("raw/")}


def check_loads(root: Path) -> None:
    """I3: every way of loading the vault completes."""
    vault = Vault.open(root)
    list(vault.raw_files())
    with Index(vault) as index:
        index.sync()
        index.sync(thorough=True)
        index.summaries()
        root_text(vault, index, standing_fact_lines(vault))
    doctor(vault)
    status(vault)


def check_no_chunk_lost(before: dict[str, str], root: Path) -> None:
    """I1: every raw file present before is present after, byte for byte."""
    after = raw_state(root)
    lost = sorted(p for p in before if p not in after)
    changed = sorted(p for p in before if p in after and after[p] != before[p])
    assert not lost, f"raw chunks lost: {lost[:5]}"
    tally("raw chunk files checked present and unchanged after a crash, fault or step (I1)", len(before))
    assert not changed, f"raw chunks modified: {changed[:5]}"


def readable_summaries(root: Path) -> dict[str, Summary]:
    found = {}
    for level in LEVELS:
        folder = root / level
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.md")):
            try:
                parse_period(level, path.stem)
                found[f"{level}/{path.name}"] = parse_summary(
                    path.read_bytes().decode("utf-8"), level, path.stem, path.name
                )
            except (VaultFormatError, ValueError):
                continue
    return found


def check_citations(root: Path, gone: frozenset[str] = frozenset()) -> None:
    """I2: what every readable summary cites resolves (`gone`: chunks deleted by hand, not by memtree)."""
    vault = Vault.open(root)
    live = {f.id for f in vault.raw_files()} | gone
    summaries = readable_summaries(root)
    present = {path for path in files(root) if path.split("/")[0] in LEVELS}
    for path, summary in summaries.items():
        if summary.level == "daily":
            missing = [s.id for s in summary.sources if s.id not in live]
        else:
            child = CHILD_LEVEL[summary.level]
            missing = [s.id for s in summary.sources if f"{child}/{s.id}.md" not in present]
        assert not missing, f"{path} cites sources that do not exist: {missing[:5]}"
        cited = {i for b in summary.draft.bullets() for i in b.sources}
        assert cited <= live, f"{path} cites chunks that do not exist: {sorted(cited - live)[:5]}"


def check_idempotent(root: Path, now: datetime) -> None:
    """I4: one more compaction changes nothing and asks the summarizer nothing."""
    before = files(root)
    vault = Vault.open(root)
    counting = CountingSummarizer(vault.config)
    report = compact(vault, counting, now)
    assert counting.calls == 0, counting.labels
    assert report.written == [] and report.deleted == [] and not report.root_changed, report.to_json()
    assert report.facts_changed == [], report.facts_changed
    assert files(root) == before


def check_layout(root: Path) -> None:
    """Every committed file memtree knows sits at a path of the vault layout."""
    odd = sorted(p for p in files(root) if not LAYOUT.fullmatch(p))
    assert not odd, f"unexpected files: {odd[:5]}"


def check_all(root: Path, raw_before: dict[str, str], gone: frozenset[str] = frozenset()) -> None:
    check_loads(root)
    check_no_chunk_lost(raw_before, root)
    check_citations(root, gone)
