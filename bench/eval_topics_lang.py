"""ROOT.md's top 15 topics per language, and whether any is a stopword (issue 25: none may be).

Vaults: the conversations of tests/test_languages.py (the project's own text: Italian, Korean, German,
Spanish, French, Japanese), and
real English Claude Code transcripts (bench/real_exports.py's spotter fixtures: --dir FOLDER holding
them, since the repository has no licence and they are not copied here). Each set is imported into a
scratch vault, compacted, and ROOT.md's topics are read in its order (active, inactive, also mentioned).
The stopword check is stopwordsiso's lists (a dev extra), independent of the wordfreq frequencies
memtree itself uses. Also counted: identifiers (snake_case, camelCase, digits inside) and inflected
forms (a word whose simplemma dictionary form is another word: "esportiamo", also plurals).

    .venv/bin/python bench/eval_topics_lang.py [--dir FOLDER_OF_CLAUDE_CODE_JSONL]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parents[1] / "tests"))

import stopwordsiso  # noqa: E402
from test_languages import CONVOS  # noqa: E402

from compaction_tree.lang import lemma  # noqa: E402
from compaction_tree.root import IDENTIFIER  # noqa: E402

TOP = 15


def memtree(vault: Path, *args: str) -> str:
    command = [sys.executable, "-m", "compaction_tree", "--vault", str(vault), *args]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def jsonl_of(messages: list[str]) -> str:
    start = datetime(2026, 3, 2, 9, tzinfo=timezone.utc)
    lines = []
    for n, text in enumerate(messages):
        when = start + timedelta(days=n // 3, minutes=n)
        record = {"id": f"m{n}", "timestamp": when.isoformat(), "speaker": ("user", "assistant")[n % 2], "text": text}
        lines.append(json.dumps(record, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def root_topics(files: list[Path], scratch: Path) -> list[str]:
    vault = scratch / "vault"
    memtree(vault, "init", "--timezone", "UTC")
    for path in files:
        memtree(vault, "import", str(path))
    memtree(vault, "compact")
    root = memtree(vault, "root")
    named = re.findall(r"^- \*\*(.+?)\*\* \(\d+x", root, re.M)
    tail = re.search(r"## Also mentioned\n(.+)", root)
    if tail:
        named += [n.strip() for n in re.sub(r",? and \d+ more.*$", "", tail.group(1)).split(", ")]
    return named[:TOP]


def stopwords_in(topics: list[str], lang: str) -> list[str]:
    words = stopwordsiso.stopwords([lang, "en"]) if lang != "en" else stopwordsiso.stopwords("en")
    return [t for t in topics if t.casefold() in words]


def inflected(topics: list[str], lang: str) -> list[str]:
    return [t for t in topics if any(lemma(w.casefold(), lang) != w.casefold() for w in t.split())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="a folder of Claude Code transcripts (.jsonl)")
    args = parser.parse_args()
    sets: list[tuple[str, str, list[Path]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for lang in sorted(CONVOS):
            path = Path(tmp) / f"{lang}.jsonl"
            path.write_text(jsonl_of(CONVOS[lang]), encoding="utf-8")
            sets.append((lang, lang, [path]))
        if args.dir:
            files = sorted(p for p in args.dir.glob("*.jsonl") if p.stat().st_size)
            sets.append(("en (Claude Code)", "en", files))
        for name, lang, files in sets:
            scratch = Path(tempfile.mkdtemp(dir=tmp))
            topics = root_topics(files, scratch)
            bad = stopwords_in(topics, lang)
            print(f"{name}: {', '.join(topics)}")
            print(f"  stopwords (stopwordsiso {lang}+en): {', '.join(bad) or 'none'}")
            print(f"  identifiers: {', '.join(t for t in topics if IDENTIFIER.search(t)) or 'none'}")
            print(f"  inflected: {', '.join(inflected(topics, lang)) or 'none'}")


if __name__ == "__main__":
    main()
