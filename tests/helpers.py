"""Small helpers shared by the tests: run the CLI in-process, snapshot a vault's files."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from compaction_tree.cli import app


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def memtree(*args: str, input: str | None = None) -> Run:
    """The CLI through typer's CliRunner, exceptions not caught: an unexpected one fails the test."""
    result = CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)
    return Run(result.exit_code, result.stdout, result.stderr)


def snapshot(root: Path, include_derived: bool = False) -> dict[str, str]:
    """relative path -> sha256 of every file in the vault (the derived .memtree/ left out by default)."""
    files = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if include_derived or d != ".memtree")
        for name in sorted(names):
            path = Path(folder) / name
            files[path.relative_to(root).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


def mtimes(root: Path) -> dict[str, int]:
    return {
        p.relative_to(root).as_posix(): p.stat().st_mtime_ns
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memtree" not in p.parts
    }


FIGURES: Counter[str] = Counter()  # what the reliability suite tried, printed at the end of the run


def tally(what: str, n: int = 1) -> None:
    FIGURES[what] += n
