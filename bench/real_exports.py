"""What the importers keep of real exports: per file, records, added, skipped by reason.

The files are real exports written by real tools for real users, published in public
repositories (the manifest below: repository, pinned commit, path pattern, licence). None is
copied into this project: some repositories have no licence, and all of them hold people's own
words. Get them into a folder laid out as FOLDER/<owner>+<name>/<path>:

    .venv/bin/python bench/real_exports.py --dir FOLDER --from-mirrors ROOT  # git snapshots: ROOT/<owner>+<name>/repo
    .venv/bin/python bench/real_exports.py --dir FOLDER --download           # GitHub, at the pinned commits
    .venv/bin/python bench/real_exports.py --dir FOLDER [--source NAME] [--as-added] [--show]

Each file is imported into a scratch vault (records, added, evidence, skipped by reason). Then
each source's files go into one vault, compacted with the built-in summarizer (its ROOT.md's top
15 topics are printed: none should be a function word), and each daily summary is checked: how
many of its lines cite narration (the importer's `narration` records; target none), and how many
of the day's sessions have a user request in the summary (target all). `--as-added` stores the
records without their importance, as `memtree add` from a hook would, so narration must be found
by the session's structure alone. `--show` prints the daily summaries (they quote the data: keep
the output out of commits).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import subprocess
import tempfile
import urllib.request
from collections import Counter
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

LATER = datetime(2100, 1, 1, tzinfo=UTC)  # every day of the files is closed by then
TOPIC_LINE = re.compile(r"^- \*\*(.+?)\*\*", re.MULTILINE)  # a ROOT.md entry (a topic, or a standing fact's subject)
SECTION = re.compile(r"^## (.+)\n((?:.+\n?)*)", re.MULTILINE)


@dataclass(frozen=True)
class Source:
    name: str
    repo: str  # owner/name on GitHub
    commit: str
    pattern: str  # fnmatch pattern over paths in the repository ('*' crosses folders)
    what: str
    licence: str


SOURCES = [
    Source("spotter", "marot/spotter", "8cc42b0bd39d04e71e509d7d58e6782ab435329f",
           "test/fixtures/transcripts/*.jsonl", "Claude Code 2.1.38-2.1.39, sessions and subagents", "none"),
    Source("session-share", "moredip/session-share", "c82245286829af5cfe9b535885ed158f34c296b8",
           "samples/claude-code-projects/*.jsonl", "Claude Code 2.1.11-2.1.29, sessions and subagents", "MIT"),
    Source("m-claude", "M-Thisness/M-Claude", "5a8d89ee3677906aec18f7beb518a5a08e72a002",
           "Archives/*.jsonl", "Claude Code 2.0.72-2.1.9, one user's sessions", "CC0-1.0"),
    Source("chatgpt-pt", "ramon15martins15-cell/Rowts", "243226ae5604d241413b073b092ba948a9f085de",
           "conversations.json", "ChatGPT data export, Portuguese", "none"),
    Source("chatgpt-en", "RainChinChao/Chatgpt-Aided-veRIPY-CARIPY-", "dd320475401bd0cfc75c9b9f10208ddd65421cf1",
           "conversations.json", "ChatGPT data export, English (hardware design)", "none"),
]  # fmt: skip


def source_paths(folder: Path, source: Source) -> list[Path]:
    """The source's files present in FOLDER/<owner>+<name>/, non-empty, by path."""
    root = folder / source.repo.replace("/", "+")
    found = [p for p in root.rglob("*") if p.is_file() and p.stat().st_size]
    return sorted(p for p in found if fnmatch.fnmatch(p.relative_to(root).as_posix(), source.pattern))


def from_mirror(folder: Path, mirrors: Path, source: Source) -> None:
    """Copy the source's files out of a git snapshot at the pinned commit (no work tree needed)."""
    git_dir = mirrors / source.repo.replace("/", "+") / "repo"
    if not git_dir.exists():
        print(f"{source.name}: no snapshot at {git_dir}")
        return
    listing = _git(git_dir, "ls-tree", "-r", "--name-only", source.commit).decode().splitlines()
    for name in (n for n in listing if fnmatch.fnmatch(n, source.pattern)):
        try:
            data = _git(git_dir, "show", f"{source.commit}:{name}")
        except subprocess.CalledProcessError:
            print(f"{source.name}: {name} is not in the snapshot (too large?)")
            continue
        _write(folder / source.repo.replace("/", "+") / name, data)


def download(folder: Path, source: Source) -> None:
    api = f"https://api.github.com/repos/{source.repo}/git/trees/{source.commit}?recursive=1"
    with urllib.request.urlopen(api) as answer:
        tree = json.load(answer)["tree"]
    for name in (e["path"] for e in tree if e["type"] == "blob" and fnmatch.fnmatch(e["path"], source.pattern)):
        raw = f"https://raw.githubusercontent.com/{source.repo}/{source.commit}/{name}"
        with urllib.request.urlopen(raw) as answer:
            _write(folder / source.repo.replace("/", "+") / name, answer.read())


def _git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True).stdout


def _write(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def imports(paths: list[Path]) -> Counter[str]:
    """One line per file; the source's totals back (records, added, failed, skipped:<reason>...)."""
    totals: Counter[str] = Counter()
    print("file | format | records | added | failed | evidence | skipped")
    for path in paths:
        with tempfile.TemporaryDirectory() as scratch:
            vault, _ = Vault.init(Path(scratch) / "v", "UTC")
            try:
                report = import_file(vault, path)
            except MemtreeError as error:
                print(f"{path.name} | - | error: {error}")
                totals["refused"] += 1
                continue
        evidence = ", ".join(f"{n} {kind}" for kind, n in sorted(report.evidence.items()))
        print(
            f"{path.name[:44]} | {report.format} | {report.records} | {report.added} | {len(report.failed)} | "
            f"{evidence or '-'} | {report.skipped_text() or '-'}"
        )
        totals.update(files=1, records=report.records, added=report.added, failed=len(report.failed))
        totals.update({f"skipped:{reason}": n for reason, n in report.skipped.items()})
        totals.update({f"evidence:{kind}": n for kind, n in report.evidence.items()})
    return totals


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
            try:
                result = add(vault, **fields)
            except MemtreeError:
                continue  # counted as failed by imports()
            day = "-".join(Path(result.path).parts[1:4])
            session = fields.get("session") or result.id
            stored[result.id] = Stored(record.kind, fields["speaker"], session, day, path.name)
    return stored


def summaries(paths: list[Path], as_added: bool, show: bool) -> tuple[int, int, int, int]:
    """Narration lines and per-session requests in each daily summary of the files together:
    (sessions whose request a summary cites, sessions with a request, summary lines, narration lines)."""
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
        root = (vault.root / "ROOT.md").read_text(encoding="utf-8")
        print(f"\nROOT.md top 15 topics: {', '.join(root_topics(root)[:15])}")
        print("\nfile | session | its request in the summary | summary lines citing it | of them narration")
        for name, session in sorted({(c.file, c.session) for c in stored.values() if _request(c)}):
            mine = [b for _, bullets in cited for b in bullets if _cites(b, stored, session)]
            asked = any(_request(stored[s]) for b in mine for s in b.sources if s in stored)
            narration = sum(1 for b in mine if _narration(b, stored))
            print(f"{name[:44]} | {session[:8]} | {'yes' if asked else 'NO'} | {len(mine)} | {narration}")
        return totals[0], totals[1], totals[2], totals[3]


def root_topics(root: str) -> list[str]:
    """ROOT.md's topics in its order: active and inactive entries, then the names of the tail (not the
    standing facts' subjects, which are entries too)."""
    found: list[str] = []
    for title, body in SECTION.findall(root):
        if title.startswith(("Active topics", "Inactive topics")):
            found += TOPIC_LINE.findall(body)
        elif title == "Also mentioned":
            found += [n for n in re.sub(r",? and \d+ more.*$", "", body.strip()).split(", ") if n]
    return found


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
    parser.add_argument("--dir", type=Path, required=True, help="the files, as FOLDER/<owner>+<name>/<path>")
    parser.add_argument("--from-mirrors", type=Path, help="first copy them out of git snapshots under this folder")
    parser.add_argument("--download", action="store_true", help="first download them from GitHub")
    parser.add_argument("--source", action="append", help="only this source (repeatable)")
    parser.add_argument("--as-added", action="store_true", help="store without importance, as `memtree add` does")
    parser.add_argument("--show", action="store_true", help="print the daily summaries (they quote the data)")
    args = parser.parse_args()
    chosen = [s for s in SOURCES if not args.source or s.name in args.source]
    rows = []
    for source in chosen:
        if args.from_mirrors:
            from_mirror(args.dir, args.from_mirrors, source)
        elif args.download:
            download(args.dir, source)
        paths = source_paths(args.dir, source)
        print(f"\n## {source.name}: {source.repo}@{source.commit[:7]} {source.pattern} ({source.what}; "
              f"licence {source.licence}): {len(paths)} files")  # fmt: skip
        if not paths:
            rows.append((source, Counter(), (0, 0, 0, 0)))
            continue
        totals = imports(paths)
        rows.append((source, totals, summaries(paths, args.as_added, args.show)))
    print("\nsource | files | records | added | failed | evidence | skipped (top 6) | requests in summary | "
          "summary lines | narration lines")  # fmt: skip
    for source, totals, (asked, owed, lines, narration) in rows:
        print(f"{source.name} | {totals['files']} | {totals['records']} | {totals['added']} | {totals['failed']} | "
              f"{_reasons(totals, 'evidence:', 3)} | {_reasons(totals, 'skipped:', 6)} | {asked}/{owed} | {lines} | "
              f"{narration}")  # fmt: skip


def _reasons(totals: Counter[str], prefix: str, most: int) -> str:
    found = sorted(((n, k.removeprefix(prefix)) for k, n in totals.items() if k.startswith(prefix)), reverse=True)
    return ", ".join(f"{n} {kind}" for n, kind in found[:most]) or "-"


if __name__ == "__main__":
    main()
