"""The command line and the library API are one orchestration (api.Memory): the same calls give the same
vault, the same errors and the same run record, whichever a user takes. Each test runs through both."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import memtree, snapshot

from compaction_tree import Memory
from compaction_tree.errors import MemtreeError

# (command line, the same through Memory): each returns the exit code, 0 when it went through
Op = tuple[list[str], Callable[[Memory], Any]]


def run(way: str, root: Path, op: Op) -> int:
    args, call = op
    if way == "cli":
        return memtree("--vault", str(root), *args).code
    try:
        call(Memory.open(root))
    except MemtreeError as exc:
        return exc.exit_code
    return 0


def init(way: str, root: Path, zone: str) -> int:
    if way == "cli":
        return memtree("--vault", str(root), "init", "--timezone", zone).code
    try:
        Memory.init(root, zone)
    except MemtreeError as exc:
        return exc.exit_code
    return 0


WAYS = pytest.mark.parametrize("way", ["cli", "api"])
CHUNKS = [
    ("We chose Postgres for the catalog service.", "2026-03-02T10:00"),
    ("The deploy target is Fly.io; staging runs there too.", "2026-03-03T11:00"),
    ("Refresh tokens rotate every 30 days.", "2026-03-04T09:30"),
]


def add_all(way: str, root: Path) -> None:
    for text, when in CHUNKS:
        assert (
            run(way, root, (["add", text, "--timestamp", when], lambda m, t=text, w=when: m.add(t, timestamp=w))) == 0
        )


@WAYS
def test_a_bad_time_zone_fails_before_anything_is_written(way: str, tmp_path: Path) -> None:
    root = tmp_path / "vault"
    assert init(way, root, "Not/AZone") == 4
    assert not root.exists()
    root.mkdir()
    assert init(way, root, "Not/AZone") == 4 and list(root.iterdir()) == []


@WAYS
def test_a_compaction_is_recorded_for_status(way: str, tmp_path: Path) -> None:
    root = tmp_path / "vault"
    assert init(way, root, "UTC") == 0
    add_all(way, root)
    assert run(way, root, (["compact"], lambda m: m.compact())) == 0
    last_run = Memory.open(root).status()["last_run"]
    assert last_run is not None and last_run["written"] > 0 and last_run["not_committed"] is None


@WAYS
def test_both_ways_write_the_same_vault(way: str, tmp_path: Path) -> None:
    reference, root = tmp_path / "reference", tmp_path / "vault"
    for target, how in ((reference, "cli"), (root, way)):
        assert init(how, target, "UTC") == 0
        add_all(how, target)
        assert run(how, target, (["compact"], lambda m: m.compact())) == 0
        assert run(how, target, (["root"], lambda m: m.root())) == 0
    assert snapshot(root) == snapshot(reference)


@WAYS
def test_compact_commits_when_asked(way: str, tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("no git")
    root = tmp_path / "vault"
    assert init(way, root, "UTC") == 0
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "start"], check=True)
    add_all(way, root)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in (("GIT_AUTHOR_NAME", "t"), ("GIT_AUTHOR_EMAIL", "t@example.com")):
            patch.setenv(name, value)
            patch.setenv(name.replace("AUTHOR", "COMMITTER"), value)
        assert run(way, root, (["compact", "--commit"], lambda m: m.compact(commit=True))) == 0
    log = subprocess.run([*git, "log", "--format=%s"], capture_output=True, text=True, check=True).stdout
    assert log.splitlines()[0].startswith("memtree: compact")
    assert subprocess.run([*git, "status", "--porcelain", "raw"], capture_output=True, text=True).stdout == ""


@WAYS
def test_compact_outside_git_commits_nothing_and_says_so(way: str, tmp_path: Path) -> None:
    root = tmp_path / "vault"
    assert init(way, root, "UTC") == 0
    add_all(way, root)
    if way == "cli":
        result = memtree("--vault", str(root), "compact", "--commit", "--json")
        assert result.code == 0 and "not in a git work tree" in result.stderr and result.json()["committed"] is None
    else:
        report = Memory.open(root).compact(commit=True)
        assert report.commit is not None and report.commit.outside_git and report.commit.committed is None


@WAYS
def test_remember_and_undo_rebuild_facts_and_root(way: str, tmp_path: Path) -> None:
    root = tmp_path / "vault"
    assert init(way, root, "UTC") == 0
    for text in ("Deploys go to Fly.io.", "Deploys go to Render."):
        op: Op = (
            ["remember", text, "--subject", "deploy_target"],
            lambda m, t=text: m.remember(t, subject="deploy_target"),
        )
        assert run(way, root, op) == 0
    assert "Deploys go to Render." in (root / "ROOT.md").read_text(encoding="utf-8")
    (event,) = Memory.open(root).fact_log()
    assert run(way, root, (["facts", "undo", event.id], lambda m: m.undo(event.id))) == 0
    assert Memory.open(root).fact("deploy_target").current.fact == "Deploys go to Fly.io."
    assert "- **deploy_target**: Deploys go to Fly.io." in (root / "ROOT.md").read_text(encoding="utf-8")
    assert run(way, root, (["facts", "undo", "nope"], lambda m: m.undo("nope"))) == 4


@WAYS
def test_bad_input_gets_the_same_exit_code(way: str, tmp_path: Path) -> None:
    root = tmp_path / "vault"
    assert init(way, root, "UTC") == 0
    export = tmp_path / "chats.jsonl"
    export.write_text(json.dumps({"text": "hi", "timestamp": "2026-03-02T10:00:00Z"}) + "\n")
    assert run(way, root, (["import", str(export), "--format", "nope"], lambda m: m.import_file(export, "nope"))) == 2
    assert run(way, root, (["facts", "show", "nothing"], lambda m: m.fact("nothing"))) == 4
    assert run(way, root, (["prune", "--older-than", "0d"], lambda m: m.prune("0d"))) == 4
    assert run(way, root, (["recall", " "], lambda m: m.recall(" "))) == 4
    assert list((root / "raw").iterdir()) == []


@WAYS
def test_root_check_and_context_read_what_root_writes(way: str, tmp_path: Path) -> None:
    root = tmp_path / "vault"
    assert init(way, root, "UTC") == 0
    add_all(way, root)
    assert run(way, root, (["root"], lambda m: m.root())) == 0
    memory = Memory.open(root)
    assert not memory.root_is_stale() and memtree("--vault", str(root), "root", "--check").code == 0
    (root / "ROOT.md").write_text("edited by hand\n", encoding="utf-8")
    assert memory.root_is_stale() and memtree("--vault", str(root), "root", "--check").code == 9
    assert memtree("--vault", str(root), "context").stdout == memory.context()
