"""Running memtree unattended: the run log, git commits, and cron/systemd schedules."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

from .compaction import CompactReport
from .errors import MemtreeError
from .health import LAST_RUN
from .vault import DERIVED, Vault


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


def commit_message(report: CompactReport) -> str:
    counts = {
        level: sum(1 for p in report.written if p.startswith(level + "/")) for level in ("daily", "weekly", "monthly")
    }
    parts = [f"{n} {level}" for level, n in counts.items() if n]
    periods = sorted(Path(p).stem for p in report.written)
    span = f" ({periods[0]} .. {periods[-1]})" if periods else ""
    title = f"memtree: compact {', '.join(parts) or 'index'}{span}"
    body = [f"- {path}" for path in report.changed]
    return title + "\n\n" + "\n".join(body) + "\n"


def commit_changes(vault: Vault, report: CompactReport) -> str | None:
    """Commits exactly the files this run changed (never .memtree/); None when not in a git work tree."""
    if not in_git_work_tree(vault):
        return None
    paths = [p for p in report.changed if not p.startswith(DERIVED)]
    if not paths:
        return None
    for args in (("add", "-A", "--", *paths), ("commit", "-q", "-m", commit_message(report), "--only", "--", *paths)):
        result = _git(vault, *args)
        if result.returncode != 0:
            raise MemtreeError(
                f"git {args[0]} failed: {(result.stderr or result.stdout).strip().splitlines()[-1:]}",
                hint="the summaries are written; commit them by hand",
            )
    head = _git(vault, "rev-parse", "--short", "HEAD")
    return head.stdout.strip() or None


def schedule_text(vault: Vault, command: str = "memtree", hour: int = 3, minute: int = 15) -> str:
    """A crontab line and a systemd timer that compact nightly and commit to git."""
    root = shlex.quote(str(vault.root))
    log = f"{vault.root}/{DERIVED}/compact.log"
    # flock -n on a lock file of its own: memtree's lock is taken inside the run (same file would skip it)
    cron = (
        f"{minute} {hour} * * * cd {root} && flock -n {root}/{DERIVED}/cron.lock {command} --vault {root} "
        f"compact --commit >> {shlex.quote(log)} 2>&1"
    )
    return f"""\
# crontab -e, then add this line (runs nightly at {hour:02d}:{minute:02d}; output in {log}):
{cron}

# or systemd (user units): ~/.config/systemd/user/memtree.service
[Unit]
Description=memtree compaction of {vault.root}

[Service]
Type=oneshot
WorkingDirectory={vault.root}
ExecStart={command} --vault {vault.root} compact --commit

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
