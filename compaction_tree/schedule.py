"""`memtree schedule`: a crontab line and systemd user units that compact nightly and commit."""

from __future__ import annotations

import shlex

from .vault import DERIVED, Vault


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
