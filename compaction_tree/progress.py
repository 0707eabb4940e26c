"""Progress bars on stderr, drawn only when it is a terminal (never in cron logs or agents' pipes)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any


@contextlib.contextmanager
def level_progress(enabled: bool) -> Iterator[Any]:
    """Per-level bars on stderr when it is a terminal (compaction reports (level, done, total))."""
    if not enabled or not sys.stderr.isatty() or os.environ.get("MEMTREE_NO_PROGRESS"):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description:>8}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        tasks: dict[str, Any] = {}

        def update(level: str, done: int, total: int) -> None:
            if level not in tasks:
                tasks[level] = bar.add_task(level, total=total)
            bar.update(tasks[level], completed=done, total=total)

        yield update


def is_big(file: Path) -> bool:
    try:
        return file.stat().st_size > 2_000_000
    except OSError:
        return False


@contextlib.contextmanager
def file_progress(label: str, enabled: bool = True) -> Iterator[Any]:
    """A progress callback(done, total) drawing a bar on stderr when it is a terminal; a no-op otherwise."""
    if not enabled or not sys.stderr.isatty() or os.environ.get("MEMTREE_NO_PROGRESS"):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn(label),
        BarColumn(),
        TaskProgressColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
