"""The errors memtree raises on purpose, each with a hint and a documented exit code.

The core raises these; `cli.py` turns them into one line on stderr and the exit code.
Anything else that escapes is a bug and is left to propagate with its traceback.
"""

from __future__ import annotations

# Exit codes (documented in README.md, "Exit codes").
OK = 0
ERROR = 1  # a failure with no more specific code
USAGE = 2  # bad command line (typer/click also use 2)
NO_VAULT = 3  # no vault found, or the folder is not a vault
BAD_INPUT = 4  # an invalid id, timestamp, text, file or config value
CONFLICT = 5  # an id that already exists with different content, or whose file is unreadable
PARTIAL = 6  # some records or units failed; the rest were done
UNSAFE = 7  # refused: a symlink out of the vault, a network filesystem, an unreadable vault file, a risky commit
LLM = 8  # the model could not be used (configuration, authentication, budget exhausted by errors)
STALE = 9  # `memtree root --check`: ROOT.md is out of date


class MemtreeError(Exception):
    """A failure the user can act on: a message and a hint that says how."""

    exit_code = ERROR

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} (hint: {self.hint})" if self.hint else self.message


class UsageError(MemtreeError):
    exit_code = USAGE


class VaultNotFoundError(MemtreeError):
    exit_code = NO_VAULT


class InvalidInputError(MemtreeError):
    exit_code = BAD_INPUT


class ConfigError(InvalidInputError):
    """memtree.yaml is unreadable or holds a value of the wrong shape."""


class ConflictError(MemtreeError):
    exit_code = CONFLICT


class DamagedChunkError(ConflictError):
    """The id's file is there but unreadable (a write cut short, a bad hand edit): it is never overwritten."""


class UnsafePathError(MemtreeError):
    exit_code = UNSAFE


class VaultFormatError(MemtreeError):
    """A vault file that cannot be parsed: reported and skipped, never rewritten."""

    exit_code = UNSAFE


class NetworkFilesystemError(MemtreeError):
    exit_code = UNSAFE


class GitBusyError(MemtreeError):
    """`compact --commit` refused: git is mid-merge, mid-rebase, ... where a commit could lose files."""

    exit_code = UNSAFE


class LLMError(MemtreeError):
    """The model cannot be used at all (bad configuration, authentication, unknown model)."""

    exit_code = LLM
