"""Retention on a synthetic one-year vault: what `memtree prune` removes, how fast, and what it costs recall.

Run: .venv/bin/python bench/bench_prune.py [--days 365 --seed 1 --split dev]

A one-year dev corpus (bench/corpus.py, planted questions and awareness probes) is imported,
compacted and committed to git. Recall@5K (the share of each question's evidence chunks whose text is
in the 5,000-token context) and `know` on every probe are measured, then `prune --apply` runs with the
default window (90 days) and floor, and everything is measured again; a compaction follows.
Targets (issue 30): >= half of the chunks older than the window pruned, recall@5K drop <= 0.02,
`know` unchanged, prune < 10 s, compaction after prune writes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("MEMTREE_NO_PROGRESS", "1")

from bench.corpus import Corpus, generate  # noqa: E402
from compaction_tree.compaction import compact  # noqa: E402
from compaction_tree.extractive import ExtractiveSummarizer  # noqa: E402
from compaction_tree.index import Index  # noqa: E402
from compaction_tree.ingest import import_file  # noqa: E402
from compaction_tree.retention import prune  # noqa: E402
from compaction_tree.retrieval import know, recall  # noqa: E402
from compaction_tree.vault import Vault  # noqa: E402

BUDGET = 5000
SPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    return SPACE.sub(" ", text).strip().casefold()


def git(vault: Vault, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(vault.root), "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args],
        check=True,
        capture_output=True,
    )


def measure(vault: Vault, corpus: Corpus, text_of: dict[str, str]) -> tuple[float, dict[str, bool]]:
    """(mean recall@5K over the questions, probe -> known)."""
    shares = []
    with Index(vault) as index:
        index.sync()
        for qa in corpus.questions:
            got = normalize(recall(vault, qa.question, BUDGET, index=index, count_usage=False).context)
            shares.append(sum(text_of[e] in got for e in qa.evidence) / len(qa.evidence))
        known = {p.topic: know(vault, p.topic, index=index).known for p in corpus.probes}
    return sum(shares) / max(1, len(shares)), known


def run(work: Path, days: int, seed: int, split: str = "dev") -> dict[str, float]:
    corpus = generate(seed, days=days, split=split)
    source = work / "year.jsonl"
    with source.open("w", encoding="utf-8") as out:
        for chunk in corpus.chunks:
            out.write(json.dumps(chunk, ensure_ascii=False) + "\n")
    vault, _ = Vault.init(work / "year", "UTC")
    import_file(vault, source)
    last = max(datetime.fromisoformat(str(c["timestamp"])) for c in corpus.chunks)
    now = (last + timedelta(days=1)).astimezone(timezone.utc)
    compact(vault, ExtractiveSummarizer(vault.config), now)
    git(vault, "init", "-q")
    git(vault, "add", "-A")
    git(vault, "commit", "-qm", "a year of memory")
    text_of = {str(c["id"]): normalize(str(c["text"])) for c in corpus.chunks}
    recall_before, known_before = measure(vault, corpus, text_of)
    report = prune(vault, now, apply=True)
    recall_after, known_after = measure(vault, corpus, text_of)
    after = compact(vault, ExtractiveSummarizer(vault.config), now)
    old = len(report.pruned) + sum(n for reason, n in report.kept.items() if reason != "recent")
    return {
        "chunks": float(len(corpus.chunks)),
        "old": float(old),
        "pruned": float(len(report.pruned)),
        "prune_s": report.seconds,
        "recall_before": recall_before,
        "recall_after": recall_after,
        "questions": float(len(corpus.questions)),
        "probes": float(len(corpus.probes)),
        "know_changed": float(sum(known_before[t] != known_after[t] for t in known_before)),
        "compact_written": float(len(after.written) + len(after.deleted) + int(after.root_changed)),
        "gate_questions": float(report.gate.questions),
        "gate_before": float(report.gate.answered_before),
        "gate_after": float(report.gate.answered_after or 0),
        "gate_kept": float(report.gate.kept),
        **{f"kept {reason}": float(n) for reason, n in report.kept.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--split", default="dev", help="the corpus split: dev, or fresh (held out)")
    parser.add_argument("--keep", type=Path, help="build the vault here and keep it")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="memtree-bench-prune-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        f = run(work, args.days, args.seed, args.split)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    share = f["pruned"] / max(1, f["old"])
    drop = f["recall_before"] - f["recall_after"]
    print(f"vault: {int(f['chunks']):,} chunks over {args.days} days; {int(f['old']):,} older than the window")
    print(
        f"pruned {int(f['pruned']):,} ({share:.0%} of the old)   target >= 50%: {'met' if share >= 0.5 else 'MISSED'}"
    )
    print(f"prune --apply {f['prune_s']:.1f} s   target < 10 s: {'met' if f['prune_s'] < 10 else 'MISSED'}")
    print(
        f"recall@5K {f['recall_before']:.3f} -> {f['recall_after']:.3f} ({int(f['questions'])} questions)   "
        f"target drop <= 0.02: {'met' if drop <= 0.02 else 'MISSED'}"
    )
    print(
        f"know: {int(f['know_changed'])} of {int(f['probes'])} probes changed   target 0: "
        f"{'met' if f['know_changed'] == 0 else 'MISSED'}"
    )
    print(f"compaction after prune wrote {int(f['compact_written'])} file(s)   target 0")
    print(
        f"recall gate: {int(f['gate_questions'])} lines asked, {int(f['gate_before'])} answered before, "
        f"{int(f['gate_after'])} after; {int(f['gate_kept'])} chunks kept for it"
    )
    print("kept: " + ", ".join(f"{int(v)} {k[5:]}" for k, v in f.items() if k.startswith("kept ")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
