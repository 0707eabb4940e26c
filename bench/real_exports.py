"""What the importers keep of real exports: per file, records, added, skipped by reason.

The files are real Claude Code transcripts (Claude Code 2.1.38-2.1.39, sessions and their
subagent files) published as test fixtures by github.com/marot/spotter. The repository has no
licence, so they are not copied here: this script downloads them at a pinned commit into a
cache folder (or reads them from --dir) and imports each into a scratch vault.

    .venv/bin/python bench/real_exports.py [--dir FOLDER]
"""

from __future__ import annotations

import argparse
import tempfile
import urllib.request
from pathlib import Path

from compaction_tree.errors import MemtreeError
from compaction_tree.ingest import import_file
from compaction_tree.vault import Vault

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="read every file of this folder instead of downloading")
    args = parser.parse_args()
    if args.dir:
        paths = sorted(path for path in args.dir.iterdir() if path.is_file() and path.stat().st_size)
    else:
        cache = Path(tempfile.gettempdir()) / "memtree-real-exports"
        cache.mkdir(exist_ok=True)
        paths = fetch(cache)
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


if __name__ == "__main__":
    main()
