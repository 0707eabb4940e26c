"""The sample vault: three months of a coding agent's memory, compacted, for newcomers and tests.

    python -m compaction_tree.demo sample_vault     # (re)builds the committed sample_vault/
    memtree demo                                     # builds a scratch copy and shows what memtree does

The build is deterministic: the chunks come from sample.py (its data file,
data/sample_sessions.jsonl) and compaction runs with the clock pinned to SAMPLE_NOW (the
nightly run after the last session), so the files are the same on every machine, byte for
byte. April is still open at that time: its days are summarized, its week is not, and
ROOT.md covers it from the daily summaries.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from .compaction import CompactReport, compact
from .ingest import ImportReport, import_file
from .vault import Vault

SAMPLE_TIMEZONE = "Europe/Berlin"
SAMPLE_NOW = datetime(2026, 4, 7, 3, 15, tzinfo=ZoneInfo(SAMPLE_TIMEZONE))
EXAMPLE_QUESTION = "How did we fix the CORS bug?"
EXAMPLE_TOPICS = ("refresh tokens", "Kubernetes")


def build_sample_vault(
    path: Path, progress: Callable[[str, int, int], None] | None = None
) -> tuple[Vault, ImportReport, CompactReport]:
    """Creates (or refreshes) the sample vault at path."""
    from .extractive import ExtractiveSummarizer
    from .sample import sample_chunks

    vault, _ = Vault.init(path, SAMPLE_TIMEZONE)
    with tempfile.TemporaryDirectory(prefix="memtree-sample-") as scratch:
        source = Path(scratch) / "sample.jsonl"
        with source.open("w", encoding="utf-8") as out:
            for chunk in sample_chunks():
                out.write(json.dumps(chunk, ensure_ascii=False) + "\n")
        imported = import_file(vault, source)
    report = compact(vault, ExtractiveSummarizer(vault.config), SAMPLE_NOW, progress=progress)
    return vault, imported, report


def scratch_copy(target: Path | None = None) -> Path:
    """A new folder for the demo vault (the committed sample_vault/ is never touched)."""
    if target is None:
        return Path(tempfile.mkdtemp(prefix="memtree-demo-")) / "vault"
    if target.exists() and any(target.iterdir()):
        from .errors import InvalidInputError

        raise InvalidInputError(
            f"{target} is not empty", hint="pick a new folder, or leave --dir out for a temporary one"
        )
    return target


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("usage: python -m compaction_tree.demo SAMPLE_VAULT_DIR\n")
        return 2
    target = Path(args[0])
    if target.exists():
        # rebuilt from scratch so that nothing stale survives (the raw chunks are regenerated too)
        for name in ("raw", "daily", "weekly", "monthly", "facts", ".memtree", "ROOT.md", "memtree.yaml", ".gitignore"):
            path = target / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
    vault, imported, report = build_sample_vault(target)
    print(
        f"{vault.root}: {imported.added} chunks, {len(report.written)} summaries, ROOT.md "
        f"{'rebuilt' if report.root_changed else 'unchanged'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
