"""`--commit`: git commits of memtree's own files in the vault, and nothing else; refused when git is mid-operation."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import GitBusyError, MemtreeError
from .model import valid_id
from .vault import LEDGER_DIR, RAW, SUMMARY_DIRS, Vault


def _git(vault: Vault, *args: str) -> subprocess.CompletedProcess[str]:
    # --no-optional-locks: a background run never rewrites the index only to refresh its stat data
    return _run(["git", "--no-optional-locks", "-C", str(vault.root), *args], None, 120)


def _run(command: list[str], stdin: str | None, timeout: int) -> subprocess.CompletedProcess[str]:
    """A git command; one that hangs (a signing key's passphrase prompt under cron) fails like any other."""
    try:
        return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(command, 124, "", f"no answer in {timeout} s")


def in_git_work_tree(vault: Vault) -> bool:
    if shutil.which("git") is None:
        return False
    result = _git(vault, "rev-parse", "--is-inside-work-tree")
    return result.returncode == 0 and result.stdout.strip() == "true"


# The folders --commit looks in: memtree's own. Never .memtree/ (derived), never memtree.yaml.
COMMITTED = (RAW, *SUMMARY_DIRS, "facts", "ROOT.md", LEDGER_DIR)  # pruned/: retention.py's ledger


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
        hint=NEXT_RUN,
    )


NEXT_RUN = "the summaries are written; the next `memtree compact --commit` commits them, or commit by hand"

# An operation git has in progress, by the file it keeps for it (found through `rev-parse
# --git-path`, so a linked worktree's own), and how to end it. A commit then risks the files it
# holds: mid-merge git stages them, cannot commit, and `merge --abort` deletes them; mid-rebase (or
# cherry-pick, revert, bisect) the commit lands on a detached HEAD and `--abort` or `bisect reset`
# takes them out of the work tree.
IN_PROGRESS = (
    ("MERGE_HEAD", "a merge", "`git merge --continue` or `git merge --abort`"),
    ("rebase-merge", "a rebase", "`git rebase --continue` or `git rebase --abort`"),
    ("rebase-apply", "a rebase or `git am`", "`git rebase --continue` or `--abort`; `git am` likewise"),
    ("CHERRY_PICK_HEAD", "a cherry-pick", "`git cherry-pick --continue` or `git cherry-pick --abort`"),
    ("REVERT_HEAD", "a revert", "`git revert --continue` or `git revert --abort`"),
    ("sequencer", "a cherry-pick or revert", "`git cherry-pick --continue` or `--quit`; `git revert` likewise"),
    ("BISECT_LOG", "a bisect", "`git bisect reset`"),
)


def refuse_unsafe_state(vault: Vault) -> None:
    """Raises GitBusyError when a commit now could lose files: an operation in progress, unresolved
    conflicts, or a detached HEAD (a commit there belongs to no branch, and switching back to one
    removes its new chunks from the work tree). Only reads: the index is left as it is."""
    markers = _git(vault, "rev-parse", *(arg for marker, *_ in IN_PROGRESS for arg in ("--git-path", marker)))
    if markers.returncode != 0:
        raise _fail("rev-parse", markers)
    for (_, what, end), path in zip(IN_PROGRESS, markers.stdout.splitlines(), strict=False):
        if (vault.root / path).exists():  # relative to the folder git ran in
            raise GitBusyError(f"not committing: the repository is in the middle of {what}", f"end it ({end}){THEN}")
    unmerged = _git(vault, "ls-files", "--unmerged", "--", ":/")
    if unmerged.returncode != 0:
        raise _fail("ls-files", unmerged)
    if unmerged.stdout:
        raise GitBusyError("not committing: the repository has unresolved conflicts", f"resolve them{THEN}")
    branch = _git(vault, "symbolic-ref", "-q", "HEAD")
    if branch.returncode == 1:
        raise GitBusyError("not committing: HEAD is detached (on no branch)", f"`git switch` to a branch{THEN}")
    if branch.returncode != 0:
        raise _fail("symbolic-ref", branch)


THEN = ", then run `memtree compact --commit` again: the summaries are written, it commits them"


def memtree_file(path: str) -> bool:
    """Whether a vault-relative path is one of memtree's files, by its exact name: a chunk where the
    loader reads chunks (raw/YYYY/MM/DD/<id>.json), a summary named by its period, a facts/ file
    memtree writes, ROOT.md. Anything else in these folders is the user's and never committed."""
    from .facts.candidates import CANDIDATES_DIR
    from .facts.records import CATEGORIES
    from .facts.store import AUDIT_FILE, OVERRIDES_FILE, category_path
    from .periods import parse_period
    from .root import ROOT_FILE

    level, *rest = path.split("/")
    name = rest[-1] if rest else ""
    if level == RAW:
        folders = [len(part) if part.isascii() and part.isdigit() else 0 for part in rest[:-1]]
        return folders == [4, 2, 2] and name.endswith(".json") and valid_id(name.removesuffix(".json"))
    if level in SUMMARY_DIRS and len(rest) == 1 and name.endswith(".md"):
        try:
            parse_period(level, name.removesuffix(".md"))  # type: ignore[arg-type]
        except ValueError:
            return False
        return True
    if level == LEDGER_DIR and len(rest) == 1 and name.endswith(".jsonl"):  # pruned/YYYY-MM.jsonl
        try:
            parse_period("monthly", name.removesuffix(".jsonl"))
        except ValueError:
            return False
        return True
    if path.startswith(CANDIDATES_DIR + "/") and path.count("/") == 2 and name.endswith(".jsonl"):
        try:  # facts/candidates/YYYY-MM.jsonl
            parse_period("monthly", name.removesuffix(".jsonl"))
        except ValueError:
            return False
        return True
    return path in {*map(category_path, CATEGORIES), AUDIT_FILE, OVERRIDES_FILE, ROOT_FILE}


@dataclass(frozen=True)
class Pending:
    top: str  # the work tree's top folder
    prefix: str  # the vault's folder in it ("" at its top, else ending in "/")
    paths: list[str]  # memtree's files that differ from HEAD, relative to top
    untracked: list[str]  # those of them git does not know yet


def pending_changes(vault: Vault) -> Pending:
    """memtree's files in this vault that differ from HEAD: new chunks, changed summaries,
    deletions, whether staged or not. Every such file, not only this run's, so a commit that failed
    once (no git identity under cron) is made by the next run, and the chunks `add` wrote are
    committed with the summaries that cite them. They are told by their exact names (memtree_file),
    not kept in a list under .memtree/: a list would miss what `add` and `forget` change (`add`
    takes no lock and stays fast), and would be lost with the derived folder."""
    top = _git(vault, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise _fail("rev-parse", top)
    prefix = Path(os.path.relpath(vault.root, Path(top.stdout.strip()).resolve())).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    status = _git(vault, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--", *COMMITTED)
    if status.returncode != 0:
        raise _fail("status", status)
    entries = {entry[3:]: entry[:2] for entry in status.stdout.split("\0") if len(entry) > 3}
    paths = sorted(path for path in entries if memtree_file(path.removeprefix(prefix)))
    untracked = [path for path in paths if entries[path] == "??"]
    return Pending(top.stdout.strip(), prefix, paths, untracked)


def _git_with_paths(top: str, paths: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    command = ["git", "-C", top, "--literal-pathspecs", *args, "--pathspec-from-file=-", "--pathspec-file-nul"]
    return _run(command, "\0".join(paths) + "\0", 300)  # through stdin: a first commit can hold 100,000 chunks


@dataclass(frozen=True)
class CommitOutcome:
    """What `compact --commit` did: a commit, or why none (the compaction is done either way)."""

    committed: str | None = None  # the commit's short hash; None: nothing to commit, or refused
    error: MemtreeError | None = None  # why git made no commit (GitBusyError: refused)
    outside_git: bool = False  # the vault is in no git work tree: nothing to commit to


def commit_outcome(vault: Vault) -> CommitOutcome:
    """commit_changes, with its refusal kept as data: the caller reports the run first, then the refusal."""
    if not in_git_work_tree(vault):
        return CommitOutcome(outside_git=True)
    try:
        return CommitOutcome(committed=commit_changes(vault))
    except MemtreeError as exc:
        return CommitOutcome(error=exc)


def commit_changes(vault: Vault) -> str | None:
    """Commits memtree's changed files in the vault (see pending_changes) and nothing else: a user's
    staged work stays staged. Refused (GitBusyError) when git is mid-operation. None when nothing
    changed."""
    if not in_git_work_tree(vault):
        return None
    refuse_unsafe_state(vault)
    pending = pending_changes(vault)
    if not pending.paths:
        return None
    if pending.untracked:  # `commit --only` takes files git knows; it stages the others itself
        added = _git_with_paths(pending.top, pending.untracked, "add", "--intent-to-add")
        if added.returncode != 0:
            raise _fail("add", added)
    message = commit_message(pending.paths, pending.prefix)
    committed = _git_with_paths(pending.top, pending.paths, "commit", "-q", "--only", "-m", message)
    if committed.returncode != 0:
        if pending.untracked:  # untracked again, as before: nothing is left staged
            _git_with_paths(pending.top, pending.untracked, "rm", "--cached", "-q", "--ignore-unmatch")
        raise _fail("commit", committed)
    head = _git(vault, "rev-parse", "--short", "HEAD")
    return head.stdout.strip() or None
