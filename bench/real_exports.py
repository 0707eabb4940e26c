"""What the importers keep of real exports: per file, records, added, skipped by reason.

The files are real Claude Code transcripts (Claude Code 2.1.38-2.1.39, sessions and their
subagent files) published as test fixtures by github.com/marot/spotter. The repository has no
licence, so they are not copied here: this script downloads them at a pinned commit into a
cache folder (or reads them from --dir) and imports each into a scratch vault.

    .venv/bin/python bench/real_exports.py [--dir FOLDER] [--as-added] [--show]

Then every file is imported into one vault, compacted with the built-in summarizer, and each
daily summary is checked: how many of its lines cite narration (the importer's `narration`
records; target none), and how many of the day's sessions have a user request in the summary
(target all). `--as-added` stores the records without their importance, as `memtree add` from
a hook would, so narration must be found by the session's structure alone. `--show` prints the
daily summaries (they quote the data: keep the output out of commits).
"""

from __future__ import annotations

import argparse
import tempfile
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from compaction_tree.compaction import compact
from compaction_tree.errors import MemtreeError
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.importers import ImportRecord, read_records
from compaction_tree.ingest import add, import_file
from compaction_tree.markdown import parse_summary
from compaction_tree.summary import Bullet, Summary
from compaction_tree.vault import Vault

LATER = datetime(2100, 1, 1, tzinfo=UTC)  # every day of the fixtures is closed by then

SPOTTER = "https://raw.githubusercontent.com/marot/spotter/8cc42b0bd39d04e71e509d7d58e6782ab435329f/"
FILES = [
    "test/fixtures/transcripts/short.jsonl",
    "test/fixtures/transcripts/subagent.jsonl",
    "test/fixtures/transcripts/tool_heavy.jsonl",
    "test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
    "test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl",
    "test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
    "test/fixtures/transcripts/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl",
    "test/fixtures/transcripts/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl",
    "test/fixtures/transcripts/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl",
    "test/fixtures/transcripts/fa812bfe-b295-4cca-9c2f-fdf01028cb46/subagents/agent-a93ccab.jsonl",
]


def fetch(folder: Path) -> list[Path]:
    paths = []
    for name in FILES:
        target = folder / name.replace("test/fixtures/transcripts/", "").replace("/", "_")
        if not target.exists():
            urllib.request.urlretrieve(SPOTTER + name, target)
        paths.append(target)
    return paths


def imports(paths: list[Path]) -> None:
    print("file | format | records | added | evidence | skipped")
    for path in paths:
        with tempfile.TemporaryDirectory() as scratch:
            vault, _ = Vault.init(Path(scratch) / "v", "UTC")
            try:
                report = import_file(vault, path)
            except MemtreeError as error:
                print(f"{path.name} | - | error: {error}")
                continue
        evidence = ", ".join(f"{n} {kind}" for kind, n in sorted(report.evidence.items()))
        print(
            f"{path.name[:44]} | {report.format} | {report.records} | {report.added} | {evidence or '-'} | "
            f"{report.skipped_text() or '-'}"
        )


@dataclass(frozen=True)
class Stored:
    kind: str | None  # the importer's evidence kind: narration, command_output
    speaker: str
    session: str
    day: str  # YYYY-MM-DD of its raw/ folder
    file: str


def store_all(vault: Vault, paths: list[Path], as_added: bool) -> dict[str, Stored]:
    """Every kept record of every file into one vault, by chunk id."""
    stored: dict[str, Stored] = {}
    for path in paths:
        for record in read_records(path):
            if not isinstance(record, ImportRecord):
                continue
            fields = dict(record.fields)
            if as_added:
                fields.pop("importance", None)
            result = add(vault, **fields)
            day = "-".join(Path(result.path).parts[1:4])
            session = fields.get("session") or result.id
            stored[result.id] = Stored(record.kind, fields["speaker"], session, day, path.name)
    return stored


def summaries(paths: list[Path], as_added: bool, show: bool) -> None:
    """Narration lines and per-session requests in each daily summary of all the files together."""
    with tempfile.TemporaryDirectory() as scratch:
        vault, _ = Vault.init(Path(scratch) / "v", "UTC")
        stored = store_all(vault, paths, as_added)
        compact(vault, ExtractiveSummarizer(vault.config), LATER)
        mode = "stored as by memtree add" if as_added else "imported"
        print(f"\nday ({mode}) | sessions with a request in the summary | summary lines | narration lines")
        totals = [0, 0, 0, 0]
        cited: list[tuple[Summary, list[Bullet]]] = []
        for path in sorted((vault.root / "daily").glob("*.md")):
            text = path.read_text(encoding="utf-8")
            summary = parse_summary(text, "daily", path.stem, path.name)
            cited.append((summary, lines_of(summary)))
            figures = day_figures(summary, stored)
            totals = [a + b for a, b in zip(totals, figures, strict=True)]
            print(f"{path.stem} | {figures[0]}/{figures[1]} | {figures[2]} | {figures[3]}")
            if show:
                print(text.split("\n---\n", 1)[-1])
        print(f"all | {totals[0]}/{totals[1]} | {totals[2]} | {totals[3]}")
        print("\nfile | session | its request in the summary | summary lines citing it | of them narration")
        for name, session in sorted({(c.file, c.session) for c in stored.values() if _request(c)}):
            mine = [b for _, bullets in cited for b in bullets if _cites(b, stored, session)]
            asked = any(_request(stored[s]) for b in mine for s in b.sources if s in stored)
            narration = sum(1 for b in mine if _narration(b, stored))
            print(f"{name[:44]} | {session[:8]} | {'yes' if asked else 'NO'} | {len(mine)} | {narration}")


def lines_of(summary: Summary) -> list[Bullet]:
    """Every line but the first of the Overview, which is counts and topics."""
    draft = summary.draft
    return list(draft.overview[1:]) + [b for b in draft.bullets() if b not in draft.overview]


def _cites(bullet: Bullet, stored: dict[str, Stored], session: str) -> bool:
    return any(s in stored and stored[s].session == session for s in bullet.sources)


def _narration(bullet: Bullet, stored: dict[str, Stored]) -> bool:
    return any(stored[s].kind == "narration" for s in bullet.sources if s in stored)


def day_figures(summary: Summary, stored: dict[str, Stored]) -> list[int]:
    """[sessions whose request the summary cites, sessions with a request that day, lines, narration lines]"""
    bullets = lines_of(summary)
    narration = [b for b in bullets if _narration(b, stored)]
    cited = {stored[s].session for b in bullets for s in b.sources if s in stored and _request(stored[s])}
    owed = {c.session for c in stored.values() if c.day == summary.period and _request(c)}
    return [len(owed & cited), len(owed), len(bullets), len(narration)]


def _request(chunk: Stored) -> bool:
    return chunk.speaker == "user" and chunk.kind is None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="read every file of this folder instead of downloading")
    parser.add_argument("--as-added", action="store_true", help="store without importance, as `memtree add` does")
    parser.add_argument("--show", action="store_true", help="print the daily summaries (they quote the data)")
    args = parser.parse_args()
    if args.dir:
        paths = sorted(path for path in args.dir.iterdir() if path.is_file() and path.stat().st_size)
    else:
        cache = Path(tempfile.gettempdir()) / "memtree-real-exports"
        cache.mkdir(exist_ok=True)
        paths = fetch(cache)
    imports(paths)
    summaries(paths, args.as_added, args.show)


if __name__ == "__main__":
    main()
