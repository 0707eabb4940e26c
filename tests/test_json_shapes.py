"""The `--json` output of every command that has one: its keys are a stable contract (README.md, "CLI";
DESIGN.md's CLI contract), so a key renamed or dropped fails here. Adding a key means adding it here
and to the README's table, on purpose."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import memtree

FACT = {"subject", "category", "fact", "confidence", "valid_from", "sources", "seen", "history"}
EVENT = {"id", "date", "kind", "subject", "category", "old", "new", "rule", "sources", "reversed_by"}
COMPACT = {
    "dry_run",
    "skipped",
    "planned",
    "done",
    "written",
    "deleted",
    "unchanged",
    "failed",
    "blocked",
    "deferred",
    "calls",
    "cache_hits",
    "input_tokens",
    "output_tokens",
    "cost",
    "estimate",
    "root_changed",
    "facts_changed",
    "seconds",
}
STATUS = {
    "vault",
    "timezone",
    "chunks",
    "raw_tokens",
    "first",
    "last",
    "summaries",
    "summary_tokens",
    "compacted_through",
    "uncompacted_chunks",
    "oldest_uncompacted_day",
    "consolidation_lag_days",
    "facts",
    "retention",
    "problems",
    "last_run",
    "last_hook_failure",
    "embeddings",
}
# what `compact` records for `status` (.memtree/last_run.json): the run's keys, when it finished, and why no commit
LAST_RUN = (COMPACT - {"committed"}) | {"finished", "not_committed"}

SHAPES: dict[str, set[str]] = {
    "init": {"vault", "created", "timezone"},
    "add": {"id", "path", "created", "redactions", "redacted_rules"},
    "remember": {"id", "path", "created", "subject", "category", "fact", "applied", "current", "redactions"},
    "import": {
        "file",
        "format",
        "records",
        "added",
        "existing",
        "already_stored",
        "failed",
        "errors",
        "skipped",
        "evidence",
        "redactions",
        "redacted_rules",
    },
    "compact": COMPACT | {"committed"},
    "status": STATUS,
    "doctor": {"ok", "chunks_ok", "summaries_ok", "problems", "fixed"},
    "recall": {"query", "budget", "tokens", "context", "sources"},
    "know": {
        "topic",
        "canonical",
        "known",
        "mentions",
        "first_seen",
        "last_seen",
        "in_root",
        "see",
        "entries",
        "facts",
    },
    "prune": {
        "dry_run",
        "older_than_days",
        "cutoff",
        "floor",
        "chunks",
        "pruned",
        "kept",
        "gate",
        "seconds",
        "finished",
    },
    "forget": {"forgotten", "cache_purged", "compaction"},
    "facts": FACT,
    "facts search": FACT,
    "facts show": FACT,
    "facts log": EVENT,
    "facts undo": {"event", "undo", "changed"},
}


def _json(vault: Path, *args: str) -> Any:
    result = memtree("--vault", str(vault), *args, "--json")
    assert result.code == 0, (args, result.stderr)
    return json.loads(result.stdout)


def _keys(data: Any) -> set[str]:
    """An object's keys; a list's: those of its first item (the items share one shape)."""
    if isinstance(data, list):
        assert data, "a list to check must not be empty"
        data = data[0]
    assert isinstance(data, dict)
    return set(data)


def test_every_json_output_has_its_documented_keys(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    seen: dict[str, set[str]] = {"init": _keys(_json(vault, "init", "--timezone", "UTC"))}
    seen["add"] = _keys(_json(vault, "add", "We chose Postgres for the catalog.", "--timestamp", "2026-01-05T10:00"))
    seen["remember"] = _keys(_json(vault, "remember", "Deploys go to Fly.io.", "--subject", "deploy_target"))
    _json(vault, "remember", "Deploys go to Render.", "--subject", "deploy_target")  # an event to undo
    export = tmp_path / "chats.jsonl"
    export.write_text('{"text": "hello there", "timestamp": "2026-01-06T10:00:00Z", "speaker": "user"}\n')
    seen["import"] = _keys(_json(vault, "import", str(export)))
    seen["compact"] = _keys(_json(vault, "compact"))
    status = _json(vault, "status")
    seen["status"] = _keys(status)
    assert set(status["last_run"]) == LAST_RUN
    seen["doctor"] = _keys(_json(vault, "doctor"))
    seen["recall"] = _keys(_json(vault, "recall", "postgres"))
    seen["know"] = _keys(_json(vault, "know", "postgres"))
    seen["prune"] = _keys(_json(vault, "prune"))
    seen["facts"] = _keys(_json(vault, "facts"))
    seen["facts search"] = _keys(_json(vault, "facts", "search", "deploy"))
    seen["facts show"] = _keys(_json(vault, "facts", "show", "deploy_target"))
    log = _json(vault, "facts", "log")
    seen["facts log"] = _keys(log)
    seen["facts undo"] = _keys(_json(vault, "facts", "undo", log[0]["id"]))
    chunk = _json(vault, "add", "forget me", "--timestamp", "2026-01-06T12:00")["id"]
    seen["forget"] = _keys(_json(vault, "forget", chunk))
    assert seen == SHAPES


def test_the_readme_lists_every_command_with_json() -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    table = readme.split("<!-- json-shapes -->")[1]
    for command, keys in SHAPES.items():
        row = next((line for line in table.splitlines() if line.startswith(f"| `{command} --json`")), None)
        assert row is not None, command
        assert {key.strip("` ") for key in row.split("|")[2].split(",")} == keys, command
