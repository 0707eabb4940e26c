"""Running memtree unattended: the run log, git commits, and cron/systemd schedules."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

from .compaction import CompactReport
from .errors import MemtreeError
from .health import LAST_RUN
from .vault import DERIVED, RAW, SUMMARY_DIRS, Vault


def record_run(vault: Vault, report: CompactReport, finished: datetime) -> None:
    """.memtree/last_run.json for `memtree status` (derived and git-ignored: a wall-clock time is fine here)."""
    data = {
        **report.to_json(),
        "finished": finished.astimezone(vault.config.tz).isoformat(timespec="seconds"),
        "written": len(report.written),
    }
    vault.write(f"{DERIVED}/{LAST_RUN}", (json.dumps(data, indent=1) + "\n").encode("utf-8"))


def _git(vault: Vault, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(vault.root), *args], capture_output=True, text=True, timeout=120)


def in_git_work_tree(vault: Vault) -> bool:
    if shutil.which("git") is None:
        return False
    result = _git(vault, "rev-parse", "--is-inside-work-tree")
    return result.returncode == 0 and result.stdout.strip() == "true"


# What --commit commits: memtree's own files. Never .memtree/ (derived), never memtree.yaml or
# anything else of the user's.
COMMITTED = (RAW, *SUMMARY_DIRS, "facts", "ROOT.md", "pruned")  # pruned/: retention.py's ledger


def commit_message(paths: list[str], prefix: str = "") -> str:
    """A title saying what is committed (summaries per level and the days they span, chunk files),
    then every file. `prefix` is the vault's folder in the work tree ("" at its top, else ending in "/")."""
    from .periods import parse_period

    counts = dict.fromkeys(SUMMARY_DIRS, 0)
    periods = []
    chunks = 0
    for path in paths:
        level, _, name = path.removeprefix(prefix).partition("/")
        if level == RAW:
            chunks += 1
        elif level in counts and "/" not in name:
            with contextlib.suppress(ValueError):
                periods.append(parse_period(level, name.removesuffix(".md")))  # type: ignore[arg-type]
                counts[level] += 1
    parts = [f"{n} {level}" for level, n in counts.items() if n]
    if periods:
        parts[-1] += f" ({min(p.start for p in periods)} .. {max(p.end for p in periods)})"
    if chunks:
        parts.append(f"{chunks} chunk file(s)")
    title = "memtree: " + ("compact " if periods else "") + ", ".join(parts or ["ROOT.md and facts"])
    return title + "\n\n" + "\n".join(f"- {path}" for path in paths) + "\n"


def _fail(step: str, result: subprocess.CompletedProcess[str]) -> MemtreeError:
    lines = (result.stderr or result.stdout).strip().splitlines()
    return MemtreeError(
        f"git {step} failed: {lines[-1] if lines else f'exit status {result.returncode}'}",
        hint="the summaries are written; the next `memtree compact --commit` commits them, or commit by hand",
    )


def pending_changes(vault: Vault) -> tuple[str, list[str]]:
    """(the work tree's top folder, memtree's files in this vault that differ from HEAD, relative to
    that folder): new chunks, changed summaries, deletions, whether staged or not. Everything, not
    only this run's files, so a commit that failed once (no git identity under cron) is made by the
    next run, and the chunks a summary cites are committed with it."""
    top = _git(vault, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise _fail("rev-parse", top)
    status = _git(vault, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--", *COMMITTED)
    if status.returncode != 0:
        raise _fail("status", status)
    return top.stdout.strip(), sorted(entry[3:] for entry in status.stdout.split("\0") if len(entry) > 3)


def commit_changes(vault: Vault) -> str | None:
    """Commits memtree's changed files in the vault (see pending_changes); None when there are none."""
    if not in_git_work_tree(vault):
        return None
    top, paths = pending_changes(vault)
    if not paths:
        return None
    prefix = Path(os.path.relpath(vault.root, Path(top).resolve())).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    listing = "\0".join(paths) + "\0"  # through stdin: a first commit can hold 100,000 chunk files
    from_stdin = ("--pathspec-from-file=-", "--pathspec-file-nul")
    message = commit_message(paths, prefix)
    for args in (("add", "-A", *from_stdin), ("commit", "-q", "--only", "-m", message, *from_stdin)):
        result = subprocess.run(
            ["git", "-C", top, "--literal-pathspecs", *args],
            input=listing,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if result.returncode != 0:
            raise _fail(args[0], result)
    head = _git(vault, "rev-parse", "--short", "HEAD")
    return head.stdout.strip() or None


def _cron_escape(text: str) -> str:
    return text.replace("%", "\\%")  # cron turns a bare % into a newline


def _unit_value(text: str) -> str:
    return text.replace("%", "%%")  # systemd expands %-specifiers in unit files


def _unit_arg(text: str) -> str:
    """One ExecStart= argument, quoted the way systemd parses it."""
    if text and not any(c.isspace() or c in "\"'\\;" for c in text):
        return _unit_value(text)
    return '"' + _unit_value(text.replace("\\", "\\\\").replace('"', '\\"')) + '"'


def schedule_text(vault: Vault, command: str = "memtree", hour: int = 3, minute: int = 15) -> str:
    """A crontab line and systemd user units that compact nightly and commit to git."""
    root = shlex.quote(str(vault.root))
    log = f"{vault.root}/{DERIVED}/compact.log"
    # flock -n on a lock file of its own: memtree's lock is taken inside the run (same file would skip it)
    cron = _cron_escape(
        f"{minute} {hour} * * * cd {root} && flock -n {root}/{DERIVED}/cron.lock {shlex.quote(command)} "
        f"--vault {root} compact --commit >> {shlex.quote(log)} 2>&1"
    )
    exec_start = " ".join(_unit_arg(a) for a in (command, "--vault", str(vault.root), "compact", "--commit"))
    return f"""\
# crontab -e, then add this line (runs nightly at {hour:02d}:{minute:02d}; output in {log}).
# cron does not read your shell profile: with a model, set its key on a line above, e.g. OPENAI_API_KEY=...
{cron}

# or systemd (user units): ~/.config/systemd/user/memtree.service
[Unit]
Description=memtree compaction of {_unit_value(str(vault.root))}

[Service]
Type=oneshot
WorkingDirectory={_unit_value(str(vault.root))}
# API keys for a model (OPENAI_API_KEY=...), one per line; the file is optional
EnvironmentFile=-%h/.config/memtree/env
ExecStart={exec_start}

# ~/.config/systemd/user/memtree.timer
[Unit]
Description=Nightly memtree compaction

[Timer]
OnCalendar=*-*-* {hour:02d}:{minute:02d}:00
Persistent=true

[Install]
WantedBy=timers.target

# then: systemctl --user daemon-reload && systemctl --user enable --now memtree.timer
"""
