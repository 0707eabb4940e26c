"""`compact --commit` never risks data (issue 31): it refuses while git is mid-operation, before
touching the index; it commits exactly memtree's files, never a user's file in the vault's
folders; it leaves a user's staged work staged. Real git repositories in temporary folders."""

from __future__ import annotations

import subprocess
from datetime import date
from pathlib import Path

import pytest
from helpers import memtree, snapshot
from test_compaction import fill

from compaction_tree import errors
from compaction_tree.gitcommit import memtree_file
from compaction_tree.vault import Vault


def git(folder: Path, *args: str, check: bool = True) -> str:
    result = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True)
    assert result.returncode == 0 or not check, result.stderr
    return result.stdout


@pytest.fixture(autouse=True)
def git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")  # HOME is a fresh folder already (conftest)
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "memtree")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "m@t")


def project(tmp_path: Path, folder: str = "memory") -> tuple[Path, Vault]:
    """A project's repository holding a vault in a subfolder, its chunks committed on `main`."""
    repo = tmp_path / "repo"
    vault, _ = Vault.init(repo / folder, "UTC")
    fill(vault, date(2026, 1, 5), 3, 4)
    git(repo, "init", "-q", "-b", "main")
    (repo / "notes.txt").write_text("base\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    return repo, vault


def diverge(repo: Path) -> None:
    """main and other both change notes.txt (main twice: a revert of its first change conflicts)."""
    git(repo, "switch", "-qc", "other")
    commit_notes(repo, "other\n")
    git(repo, "switch", "-q", "main")
    commit_notes(repo, "main\n")
    commit_notes(repo, "main again\n")


def commit_notes(repo: Path, text: str) -> None:
    (repo / "notes.txt").write_text(text)
    git(repo, "commit", "-qam", text.strip())


def raw_files(vault: Vault) -> dict[str, str]:
    return {path: digest for path, digest in snapshot(vault.root).items() if path.startswith("raw/")}


def compact_commit(vault: Vault, *more: str):  # type: ignore[no-untyped-def]
    return memtree("--vault", str(vault.root), "compact", "--commit", *more)


def head_files(repo: Path) -> set[str]:
    return {f for f in git(repo, "show", "--name-only", "--format=", "HEAD").splitlines() if f}


# Each starts an operation that stops on a conflict, and ends it the way a user backs out.
OPERATIONS = {
    "merge": (["merge", "other"], ["merge", "--abort"]),
    "rebase (merge backend)": (["rebase", "--merge", "other"], ["rebase", "--abort"]),
    "rebase (apply backend)": (["rebase", "--apply", "other"], ["rebase", "--abort"]),
    "cherry-pick": (["cherry-pick", "other"], ["cherry-pick", "--abort"]),
    "revert": (["revert", "--no-edit", "HEAD~1"], ["revert", "--abort"]),
    "bisect": (["bisect", "start", "HEAD", "HEAD~2"], ["bisect", "reset"]),
    "stash pop": (["stash", "pop"], ["reset", "-q", "--hard"]),
    "detached HEAD": (["switch", "-q", "--detach", "HEAD~1"], ["switch", "-q", "main"]),
}


def start(repo: Path, name: str) -> None:
    if name == "stash pop":  # a conflict with no MERGE_HEAD: only the index's unmerged entries say so
        (repo / "notes.txt").write_text("stashed\n")
        git(repo, "stash", "-q")
        commit_notes(repo, "changed meanwhile\n")
    git(repo, *OPERATIONS[name][0], check=False)


@pytest.mark.parametrize("name", OPERATIONS)
def test_commit_is_refused_mid_operation_and_backing_out_loses_nothing(tmp_path: Path, name: str) -> None:
    repo, vault = project(tmp_path)
    diverge(repo)
    start(repo, name)
    fill(vault, date(2026, 1, 12), 2, 3, seed=8)  # chunks `memtree add` wrote meanwhile, not yet committed
    index, head, chunks = git(repo, "ls-files", "-s"), git(repo, "rev-parse", "HEAD"), raw_files(vault)

    result = compact_commit(vault)
    assert result.code == errors.UNSAFE, result.stderr
    assert result.stderr.count("\n") == 1 and "not committing" in result.stderr and "hint:" in result.stderr
    assert "compacted:" in result.stdout  # the compaction ran: its summaries wait for the next run
    assert (vault.root / "daily/2026-01-12.md").exists()
    assert git(repo, "ls-files", "-s") == index and git(repo, "rev-parse", "HEAD") == head  # nothing staged

    git(repo, *OPERATIONS[name][1])
    assert raw_files(vault) == chunks  # backing out of the operation kept every chunk
    assert git(repo, "symbolic-ref", "--short", "HEAD").strip() == "main"
    assert compact_commit(vault).code == 0
    assert {f"memory/{path}" for path in chunks} <= set(git(repo, "ls-files").splitlines())
    assert git(repo, "status", "--porcelain", "--", "memory/raw", "memory/daily") == ""


def test_a_started_bisect_refuses_though_head_is_still_on_its_branch(tmp_path: Path) -> None:
    repo, vault = project(tmp_path)
    git(repo, "bisect", "start")
    result = compact_commit(vault)
    assert result.code == errors.UNSAFE and "bisect" in result.stderr and "git bisect reset" in result.stderr
    # under cron only the log has that line: `status` says it too, until a run commits
    assert "not committed: not committing: the repository is in the middle of a bisect" in status(vault)
    git(repo, "bisect", "reset")
    assert compact_commit(vault).code == 0 and "not committed" not in status(vault)


def status(vault: Vault) -> str:
    return memtree("--vault", str(vault.root), "status").stdout


def test_a_linked_worktree_mid_merge_is_refused_and_its_clean_state_commits(tmp_path: Path) -> None:
    repo, _ = project(tmp_path)
    diverge(repo)
    tree = tmp_path / "tree"
    git(repo, "worktree", "add", "-q", "-b", "side", str(tree), "main")
    vault = Vault.open(tree / "memory")
    fill(vault, date(2026, 1, 12), 2, 3, seed=8)
    git(tree, "merge", "other", check=False)  # MERGE_HEAD is in .git/worktrees/tree/, not .git/
    index = git(tree, "ls-files", "-s")
    assert compact_commit(vault).code == errors.UNSAFE
    assert git(tree, "ls-files", "-s") == index
    git(tree, "merge", "--abort")
    assert compact_commit(vault).code == 0
    assert "memory/daily/2026-01-12.md" in head_files(tree)
    assert git(repo, "log", "-1", "--format=%s", "main").strip() == "main again"  # the other worktree's branch


STRAYS = {
    "raw/.env": "DB_PASSWORD=hunter2\n",
    "raw/notes.md": "the user's notes\n",
    "raw/2026/01/05/scratch.txt": "not a chunk\n",
    "raw/2026/01/05/.hidden.json": "{}\n",
    "raw/2026/01/05/copy of chunk.json": "{}\n",
    "raw/2026/1/5/x.json": "{}\n",
    "raw/2026/01/05/extra/deeper.json": "{}\n",
    "daily/scratch.txt": "a scratch file\n",
    "daily/2026-01-05.md.bak": "a backup\n",
    "daily/2026-13-01.md": "no such day\n",
    "weekly/draft.md": "a draft\n",
    "monthly/2026-01/notes.md": "notes\n",
    "facts/private-notes.md": "private\n",
    "facts/preference.md.orig": "a merge leftover\n",
}


def test_stray_files_in_memtrees_folders_are_never_committed(tmp_path: Path) -> None:
    repo, vault = project(tmp_path)
    for path, text in STRAYS.items():
        (vault.root / path).parent.mkdir(parents=True, exist_ok=True)
        (vault.root / path).write_text(text)
    fill(vault, date(2026, 1, 12), 2, 3, seed=8)
    new_chunks = set(raw_files(vault)) - {p for p in STRAYS if p.startswith("raw/")}
    new_chunks -= set(git(vault.root, "ls-files", "--", "raw").splitlines())
    assert new_chunks and all(memtree_file(path) for path in new_chunks)

    assert compact_commit(vault).code == 0
    committed = head_files(repo)
    assert not committed & {f"memory/{path}" for path in STRAYS}
    assert {f"memory/{path}" for path in new_chunks} <= committed and "memory/daily/2026-01-12.md" in committed
    untracked = git(repo, "ls-files", "--others", "--exclude-standard").splitlines()
    assert sorted(untracked) == sorted(f"memory/{path}" for path in STRAYS)


def test_every_file_memtree_writes_is_recognised_as_its_own(tmp_path: Path) -> None:
    _, vault = project(tmp_path, folder=".")  # a vault at the top of its repository
    fill(vault, date(2026, 1, 12), 14, 6, seed=9)
    result = memtree("--vault", str(vault.root), "compact", "--json").json()
    changed = [*result["written"], *result["deleted"], *result["facts_changed"], "ROOT.md"]
    assert result["facts_changed"] and result["written"]
    assert [path for path in changed if not memtree_file(path)] == []
    assert all(memtree_file(path) for path in raw_files(vault))


def test_a_users_staged_work_stays_staged_and_out_of_the_commit(tmp_path: Path) -> None:
    repo, vault = project(tmp_path)
    (repo / "app.py").write_text("print('work in progress')\n")
    commit_notes(repo, "committed\n")
    (repo / "notes.txt").write_text("staged, not committed\n")
    with (vault.root / "memtree.yaml").open("a") as config:
        config.write("# the user's edit, staged\n")
    git(repo, "add", "app.py", "notes.txt", "memory/memtree.yaml")
    staged = git(repo, "diff", "--cached")
    fill(vault, date(2026, 1, 12), 2, 3, seed=8)

    assert compact_commit(vault).code == 0
    committed = head_files(repo)
    assert committed and all(path.startswith("memory/") for path in committed)
    assert "memory/memtree.yaml" not in committed
    assert git(repo, "diff", "--cached") == staged


def test_a_failed_commit_leaves_nothing_staged_and_the_next_run_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, vault = project(tmp_path)
    fill(vault, date(2026, 1, 12), 2, 3, seed=8)
    index = git(repo, "ls-files", "-s")
    with monkeypatch.context() as no_identity:
        for key in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL", "EMAIL"):
            no_identity.delenv(key, raising=False)
        no_identity.setenv("GIT_CONFIG_COUNT", "1")
        no_identity.setenv("GIT_CONFIG_KEY_0", "user.useConfigOnly")
        no_identity.setenv("GIT_CONFIG_VALUE_0", "true")
        failed = compact_commit(vault, "--json")
    assert failed.code == errors.ERROR and "git commit failed" in failed.stderr
    assert failed.json()["written"]  # the report is printed: the compaction itself was done
    assert git(repo, "ls-files", "-s") == index  # a user's next `git commit` takes none of memtree's files
    again = compact_commit(vault, "--json")
    assert again.code == 0 and again.json()["written"] == [] and again.json()["committed"]
    assert "memory/daily/2026-01-12.md" in head_files(repo)


def test_the_prune_ledger_is_memtrees_and_nothing_else_in_its_folder() -> None:
    assert memtree_file("pruned/2026-03.jsonl")  # what a fresh clone needs to keep pruned days sealed
    assert not any(map(memtree_file, ("pruned/notes.txt", "pruned/2026-13.jsonl", "pruned/x/2026-03.jsonl")))
