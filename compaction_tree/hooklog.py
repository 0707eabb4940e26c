"""`--hook-log`: a failed run started by an agent's hook leaves one line in the vault's .memtree/hooks.log,
and `memtree status` shows the last one. A hook's stderr goes to a screen nobody watches (or to
nowhere, behind `|| true`), so without this a hook that fails every time fails unseen."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

HOOK_LOG = "hooks.log"
KEPT_LINES = 200  # the log stays small: the latest failures are the ones that matter


class LastErrorLine:
    """stderr, remembering the last line memtree wrote there (its error, with the hint)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.last = ""

    def write(self, text: str) -> int:
        lines = [line for line in text.splitlines() if line.startswith("memtree:")]
        if lines:
            self.last = lines[-1]
        return self.stream.write(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


class HookRun:
    """What a failed run needs to report itself: the --vault it was given and what it said."""

    def __init__(self) -> None:
        self.enabled = False
        self.vault: Path | None = None
        self.command = "memtree"
        self.stderr: LastErrorLine | None = None

    def start(self, vault: Path | None, command: str | None) -> None:
        self.enabled, self.vault, self.command = True, vault, command or "memtree"
        if not isinstance(sys.stderr, LastErrorLine):
            self.stderr = LastErrorLine(sys.stderr)
            sys.stderr = self.stderr

    def stop(self) -> None:
        """The run is over (a test runner may start another in this process)."""
        if self.stderr is not None and sys.stderr is self.stderr:
            sys.stderr = self.stderr.stream
        self.enabled, self.vault, self.command, self.stderr = False, None, "memtree", None

    def record(self, code: int | str | None) -> None:
        said = self.stderr.last.removeprefix("memtree: ") if self.stderr else ""
        append_failure(self.vault, f"{self.command} exited {code}" + (f": {said}" if said else ""))


HOOK = HookRun()


def append_failure(vault: Path | None, message: str) -> bool:
    """Appends a dated line to the vault's hooks.log; False when no vault could be found (the error on
    stderr is then all there is: Claude Code shows a failing hook's stderr to the user)."""
    from .config import find_vault
    from .errors import MemtreeError
    from .vault import DERIVED, atomic_write

    try:
        folder = find_vault(vault) / DERIVED
        folder.mkdir(exist_ok=True)
        target = folder / HOOK_LOG
        old = target.read_text(encoding="utf-8", errors="replace").splitlines() if target.exists() else []
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        line = " ".join(f"{stamp} {message}".split())  # one line, whatever the message held
        atomic_write(target, ("\n".join([*old[-(KEPT_LINES - 1) :], line]) + "\n").encode("utf-8"))
    except (MemtreeError, OSError):
        return False
    return True


def last_failure(root: Path) -> str | None:
    """The latest line of the vault's hooks.log, if any."""
    from .vault import DERIVED

    try:
        lines = (root / DERIVED / HOOK_LOG).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return next((line for line in reversed(lines) if line.strip()), None)
