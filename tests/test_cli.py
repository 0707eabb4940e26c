"""The command line as agents and cron use it: outputs, JSON shapes, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import memtree, snapshot

from compaction_tree.vault import Vault


def jsonl(path: Path, records: list[object], raw_lines: list[str] = ()) -> Path:  # type: ignore[assignment]
    lines = [json.dumps(r) for r in records] + list(raw_lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_add_prints_the_id_and_json_on_request(vault: Vault) -> None:
    plain = memtree("--vault", str(vault.root), "add", "We chose Fly.io", "--timestamp", "2026-03-15T10:00:00Z")
    assert plain.code == 0 and len(plain.stdout.strip()) == 16 and plain.stderr == ""
    again = memtree(
        "--vault", str(vault.root), "add", "We chose Fly.io", "--timestamp", "2026-03-15T10:00:00Z", "--json"
    )
    assert again.code == 0
    assert again.json() == {
        "id": plain.stdout.strip(),
        "path": f"raw/2026/03/15/{plain.stdout.strip()}.json",
        "created": False,
        "redactions": 0,
        "redacted_rules": {},
    }


def test_add_reads_stdin_with_a_dash(vault: Vault) -> None:
    result = memtree(
        "--vault",
        str(vault.root),
        "add",
        "-",
        "--speaker",
        "assistant",
        "--topic",
        "deploy",
        "--topic",
        "fly.io",
        "--importance",
        "0.8",
        "--session",
        "s1",
        "--source",
        "claude-code",
        input="multi\nline\ntext\n",
    )
    assert result.code == 0
    stored = json.loads(next((vault.root / "raw").rglob("*.json")).read_text())
    assert stored["text"] == "multi\nline\ntext\n"
    assert stored["speaker"] == "assistant" and stored["topics"] == ["deploy", "fly.io"]
    assert stored["importance"] == 0.8 and stored["session"] == "s1" and stored["source"] == "claude-code"


def test_add_counts_redactions_and_never_stores_the_secret(vault: Vault) -> None:
    secret = "ghp_" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"
    result = memtree("--vault", str(vault.root), "add", f"my token is {secret} ok", "--json")
    assert result.json()["redactions"] == 1 and result.json()["redacted_rules"] == {"github": 1}
    stored = next((vault.root / "raw").rglob("*.json")).read_text()
    assert secret not in stored and "[REDACTED:github:" in stored


def test_redaction_can_be_turned_off(vault: Vault) -> None:
    config = (vault.root / "memtree.yaml").read_text().replace("enabled: true", "enabled: false")
    (vault.root / "memtree.yaml").write_text(config)
    secret = "ghp_" + "Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"
    memtree("--vault", str(vault.root), "add", f"token {secret}")
    assert secret in next((vault.root / "raw").rglob("*.json")).read_text()


def test_import_jsonl_twice_adds_nothing_the_second_time(vault: Vault, tmp_path: Path) -> None:
    records = [
        {
            "id": f"c{i}",
            "timestamp": f"2026-03-{10 + i % 5:02d}T10:00:{i % 60:02d}Z",
            "speaker": "user",
            "text": f"note number {i}",
        }
        for i in range(30)
    ]
    source = jsonl(tmp_path / "in.jsonl", records)
    first = memtree("--vault", str(vault.root), "import", str(source), "--json")
    assert first.code == 0 and first.json()["added"] == 30 and first.json()["format"] == "jsonl"
    before = snapshot(vault.root)
    second = memtree("--vault", str(vault.root), "import", str(source), "--json")
    assert second.code == 0 and second.json()["added"] == 0 and second.json()["existing"] == 30
    assert snapshot(vault.root) == before


def test_import_without_ids_is_idempotent_too(vault: Vault, tmp_path: Path) -> None:
    records = [{"timestamp": "2026-03-10T10:00:00Z", "speaker": "user", "text": f"line {i}"} for i in range(5)]
    source = jsonl(tmp_path / "in.jsonl", records)
    assert memtree("--vault", str(vault.root), "import", str(source), "--json").json()["added"] == 5
    assert memtree("--vault", str(vault.root), "import", str(source), "--json").json()["added"] == 0


def test_import_reports_bad_records_keeps_the_good_ones_and_exits_partial(vault: Vault, tmp_path: Path) -> None:
    good = [
        {"id": f"g{i}", "timestamp": "2026-03-10T10:00:00Z", "speaker": "user", "text": f"good {i}"} for i in range(3)
    ]
    bad_lines = [
        '{"id": "b1", "timestamp": "2026-03-10T10:00:00Z", "speaker": "user"}',  # no text
        "{not json",
        '{"id": "../evil", "timestamp": "2026-03-10T10:00:00Z", "speaker": "user", "text": "x"}',
        '{"id": "b4", "timestamp": "next tuesday", "speaker": "user", "text": "x"}',
    ]
    source = jsonl(tmp_path / "in.jsonl", good, bad_lines)
    result = memtree("--vault", str(vault.root), "import", str(source), "--format", "jsonl", "--json")
    assert result.code == 6
    report = result.json()
    assert report["added"] == 3 and report["failed"] == 4
    assert [e["position"] for e in report["errors"]] == ["line 4", "line 5", "line 6", "line 7"]
    assert sorted(f.id for f in vault.raw_files()) == ["g0", "g1", "g2"]
    human = memtree("--vault", str(vault.root), "import", str(source))
    assert human.code == 6 and "skipped line 5" in human.stderr


def test_import_of_a_missing_file_or_unknown_format(vault: Vault, tmp_path: Path) -> None:
    assert memtree("--vault", str(vault.root), "import", str(tmp_path / "nope.jsonl")).code == 4
    odd = tmp_path / "odd.txt"
    odd.write_text("just some prose\n")
    result = memtree("--vault", str(vault.root), "import", str(odd))
    assert result.code == 4 and "--format" in result.stderr
    assert memtree("--vault", str(vault.root), "import", str(odd), "--format", "docx").code == 2


def test_import_locomo_file(vault: Vault, tmp_path: Path) -> None:
    sample = {
        "sample_id": "conv-1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "Lovely!", "blip_caption": "a cat on a sofa"},
            ],
        },
        "qa": [],
    }
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([sample]))
    result = memtree("--vault", str(vault.root), "import", str(path), "--json")
    assert result.code == 0 and result.json()["format"] == "locomo" and result.json()["added"] == 2
    texts = sorted(json.loads(p.read_text())["text"] for p in (vault.root / "raw").rglob("*.json"))
    assert texts == ["I adopted a cat.", "Lovely! [shares a cat on a sofa]"]


def test_status_json_is_stable(vault: Vault, tmp_path: Path) -> None:
    for i in range(4):
        memtree("--vault", str(vault.root), "add", f"note {i} about postgres", "--timestamp", f"2026-03-1{i}T10:00:00Z")
    report = memtree("--vault", str(vault.root), "status", "--json").json()
    assert set(report) == {
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
        "problems",
        "last_run",
    }
    assert report["chunks"] == 4 and report["raw_tokens"] > 0
    assert report["first"].startswith("2026-03-10") and report["last"].startswith("2026-03-13")
    assert report["summaries"] == {"daily": 0, "weekly": 0, "monthly": 0}
    assert report["uncompacted_chunks"] == 4 and report["problems"] == 0


def test_status_counts_problem_files(vault: Vault) -> None:
    memtree("--vault", str(vault.root), "add", "fine", "--timestamp", "2026-03-10T10:00:00Z")
    folder = vault.root / "raw/2026/03/10"
    (folder / "broken.json").write_text("<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> other\n")
    report = memtree("--vault", str(vault.root), "status", "--json").json()
    assert report["chunks"] == 1 and report["problems"] == 1


# ---------------------------------------------------------------- doctor


def broken_corpus(vault: Vault) -> dict[str, str]:
    """File name -> the kind doctor must report it as."""
    folder = vault.root / "raw/2026/03/10"
    folder.mkdir(parents=True)
    good = {"id": "good", "timestamp": "2026-03-10T10:00:00+00:00", "speaker": "user", "text": "fine"}
    files = {
        "good.json": json.dumps(good),
        "conflict.json": '<<<<<<< HEAD\n{"id": "conflict"}\n=======\n{}\n>>>>>>> b\n',
        "truncated.json": '{"id": "truncated", "timestamp": "2026-03-10T10:00:00+00:00", "spea',
        "empty.json": "",
        "nan.json": '{"id": "nan", "timestamp": "2026-03-10T10:00:00+00:00", "speaker": "u", "text": "x", '
        '"importance": NaN}',
        "dupkey.json": '{"id": "dupkey", "id": "dupkey", "timestamp": "2026-03-10T10:00:00+00:00", "speaker": "u", '
        '"text": "x"}',
        "deep.json": "[" * 100_000 + "]" * 100_000,
        "wrongname.json": json.dumps({**good, "id": "other"}),
        "misplaced.json": json.dumps({**good, "id": "misplaced", "timestamp": "2026-03-12T10:00:00+00:00"}),
        "notes.txt": "stray",
    }
    for name, text in files.items():
        (folder / name).write_text(text)
    (folder / "badutf8.json").write_bytes(b'{"id": "badutf8", "text": "\xff\xfe"}')
    (folder / "surrogate.json").write_text(
        '{"id": "surrogate", "timestamp": "2026-03-10T10:00:00+00:00", "speaker": "u", "text": "\\ud800"}'
    )
    stale = folder / ".good.json.1.abcd.tmp"
    stale.write_text("{")
    os.utime(stale, (1, 1))
    return {
        "conflict.json": "unreadable",
        "truncated.json": "unreadable",
        "empty.json": "unreadable",
        "nan.json": "unreadable",
        "dupkey.json": "unreadable",
        "deep.json": "unreadable",
        "wrongname.json": "unreadable",
        "misplaced.json": "misplaced",
        "notes.txt": "unexpected",
        "badutf8.json": "unreadable",
        "surrogate.json": "unreadable",
        ".good.json.1.abcd.tmp": "stale-temp",
    }


def test_doctor_lists_every_broken_file_and_changes_nothing(vault: Vault) -> None:
    expected = broken_corpus(vault)
    before = snapshot(vault.root)
    result = memtree("--vault", str(vault.root), "doctor", "--json")
    assert result.code == 7
    report = result.json()
    found = {p["path"].rsplit("/", 1)[1]: p["kind"] for p in report["problems"]}
    assert found == expected
    assert report["chunks_ok"] == 1
    assert snapshot(vault.root) == before


def test_doctor_fix_only_sweeps_temps_and_moves_misplaced_chunks(vault: Vault) -> None:
    broken_corpus(vault)
    result = memtree("--vault", str(vault.root), "doctor", "--fix", "--json")
    assert result.code == 0
    assert sorted(result.json()["fixed"]) == [
        "deleted raw/2026/03/10/.good.json.1.abcd.tmp",
        "moved raw/2026/03/10/misplaced.json to raw/2026/03/12/misplaced.json",
    ]
    assert (vault.root / "raw/2026/03/10/conflict.json").exists()  # broken files are never rewritten or removed
    after = memtree("--vault", str(vault.root), "doctor", "--json").json()
    assert {p["kind"] for p in after["problems"]} == {"unreadable", "unexpected"}


def test_commands_keep_working_beside_broken_files(vault: Vault) -> None:
    broken_corpus(vault)
    before = snapshot(vault.root)
    status = memtree("--vault", str(vault.root), "status", "--json").json()
    assert status["chunks"] == 2 and status["problems"] == 9  # unreadable ones; a misplaced chunk is still a chunk
    assert memtree("--vault", str(vault.root), "compact", "--json").code == 0
    assert (vault.root / "daily/2026-03-10.md").exists()
    assert memtree("--vault", str(vault.root), "recall", "fine", "--json").json()["sources"] == ["good", "misplaced"]

    def raw(files: dict[str, str]) -> dict[str, str]:
        return {k: v for k, v in files.items() if k.startswith("raw/") and not k.endswith(".tmp")}

    assert raw(snapshot(vault.root)) == raw(before)  # no broken file rewritten or removed (stale temps are swept)


# ---------------------------------------------------------------- import cost


PROBE = """
import sys
sys.argv = {argv!r}
from compaction_tree.cli import main
try:
    main()
except SystemExit:
    pass
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("litellm", "tiktoken", "rich", "yaml", "openai", "httpx"))
sys.stderr.write("HEAVY=" + ",".join(heavy) + "\\n")
"""


def loaded_modules(*argv: str, env: dict[str, str] | None = None) -> set[str]:
    code = PROBE.format(argv=["memtree", *argv])
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})}
    )
    line = next(line for line in proc.stderr.splitlines() if line.startswith("HEAVY="))
    return {m for m in line[6:].split(",") if m}


def test_add_and_help_import_neither_litellm_nor_tiktoken(vault: Vault) -> None:
    Vault.open(vault.root)  # the config cache exists after the first command, as in real use
    assert loaded_modules("--vault", str(vault.root), "add", "a turn of conversation") == set()
    assert not {m for m in loaded_modules("--help") if m.split(".")[0] in ("litellm", "tiktoken")}
    assert not {m for m in loaded_modules("add", "--help") if m.split(".")[0] in ("litellm", "tiktoken")}


def test_add_after_a_config_edit_still_skips_the_heavy_imports(vault: Vault) -> None:
    config = vault.root / "memtree.yaml"
    config.write_text(config.read_text().replace("root: 3000", "root: 2900"))
    modules = loaded_modules("--vault", str(vault.root), "add", "after an edit")
    assert not {m for m in modules if m.split(".")[0] in ("litellm", "tiktoken")}


@pytest.mark.parametrize(
    "command",
    [
        "init",
        "add",
        "import",
        "status",
        "doctor",
        "compact",
        "root",
        "recall",
        "know",
        "context",
        "schedule",
        "forget",
        "demo",
        "facts",
    ],
)
def test_every_command_has_help_with_an_example(command: str) -> None:
    result = memtree(command, "--help")
    assert result.code == 0 and "Example: memtree " in result.stdout
