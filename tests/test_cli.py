"""The command line as agents and cron use it: outputs, JSON shapes, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import re
import shlex
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
    assert stored["text"] == "multi\nline\ntext"  # the newline that ends the input is not part of the turn
    assert stored["speaker"] == "assistant" and stored["topics"] == ["deploy", "fly.io"]
    assert stored["importance"] == 0.8 and stored["session"] == "s1" and stored["source"] == "claude-code"


def test_piped_and_argument_text_are_the_same_chunk(vault: Vault) -> None:
    args = ("--vault", str(vault.root), "add", "--timestamp", "2026-03-02T10:00:00Z")
    piped = memtree(*args, "-", input="We deploy on Fly.io.\n")
    given = memtree(*args, "We deploy on Fly.io.")
    assert piped.stdout == given.stdout and "already stored" in given.stderr


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


def test_status_json_counts_the_vault(vault: Vault) -> None:
    for i in range(4):
        memtree("--vault", str(vault.root), "add", f"note {i} about postgres", "--timestamp", f"2026-03-1{i}T10:00:00Z")
    report = memtree("--vault", str(vault.root), "status", "--json").json()
    assert report["last_hook_failure"] is None
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
    assert result.code == 7  # the unreadable files are still there: only the user can repair them
    assert sorted(result.json()["fixed"]) == [
        "deleted raw/2026/03/10/.good.json.1.abcd.tmp",
        "moved raw/2026/03/10/misplaced.json to raw/2026/03/12/misplaced.json",
    ]
    assert (vault.root / "raw/2026/03/10/conflict.json").exists()  # broken files are never rewritten or removed
    after = memtree("--vault", str(vault.root), "doctor", "--json").json()
    assert {p["kind"] for p in after["problems"]} == {"unreadable", "unexpected"}


def test_doctor_fix_exits_0_once_everything_is_fixed(vault: Vault) -> None:
    folder = vault.root / "raw/2026/03/10"
    folder.mkdir(parents=True)
    chunk = {"id": "late", "timestamp": "2026-03-12T10:00:00+00:00", "speaker": "user", "text": "misfiled"}
    (folder / "late.json").write_text(json.dumps(chunk))
    stale = folder / ".late.json.1.abcd.tmp"
    stale.write_text("{")
    os.utime(stale, (1, 1))
    assert memtree("--vault", str(vault.root), "doctor").code == 7
    fixed = memtree("--vault", str(vault.root), "doctor", "--fix")
    assert fixed.code == 0 and "2 fixed, 0 left" in fixed.stdout
    assert memtree("--vault", str(vault.root), "doctor").code == 0


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
heavy = sorted(
    m for m in sys.modules
    if m.split(".")[0] in ("litellm", "tiktoken", "rich", "yaml", "openai", "httpx", "mcp", "mcp_types", "starlette")
)
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


@pytest.mark.parametrize(
    "argv", [("--help",), ("mcp", "--help"), ("status",), ("recall", "anything"), ("know", "x"), ("context",)]
)
def test_only_the_mcp_command_itself_imports_the_mcp_sdk(vault: Vault, argv: tuple[str, ...]) -> None:
    modules = loaded_modules("--vault", str(vault.root), *argv)
    assert not {m for m in modules if m.split(".")[0] in ("mcp", "mcp_types", "starlette")}


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
        "mcp",
    ],
)
def test_every_command_has_help_with_an_example(command: str) -> None:
    result = memtree(command, "--help")
    assert result.code == 0 and "Example: memtree " in result.stdout


# ---------------------------------------------------------------- errors from the command line itself


@pytest.mark.parametrize(
    ("args", "where", "words"),
    [
        (["bogus"], "memtree --help", "no such command 'bogus'"),
        (["add", "x", "--importance", "abc"], "memtree add --help", "is not a valid float"),
        (["recall"], "memtree recall --help", "missing argument"),
        (["add", "x", "--nope"], "memtree add --help", "no such option"),
        (["schedule", "--hour", "25"], "memtree schedule --help", "not in the range"),
        (["compact", "--max-calls", "-1"], "memtree compact --help", "not in the range"),
        (["compact", "--max-cost", "-0.5"], "memtree compact --help", "not in the range"),
        (["facts", "bogus"], "memtree facts --help", "no such command"),
        (["--vault"], "memtree --help", "requires an argument"),
    ],
)
def test_usage_errors_are_one_line_with_a_hint_and_exit_2(args: list[str], where: str, words: str) -> None:
    result = memtree(*args)
    assert result.code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("memtree: error: ")
    assert words in result.stderr.lower() and f"(hint: see `{where}`)" in result.stderr


def test_usage_errors_are_one_line_from_the_installed_command_too(vault: Vault) -> None:
    memtree_bin = Path(sys.executable).parent / "memtree"
    for argv in (["add", "x", "--importance", "abc"], ["bogus"]):
        done = subprocess.run(
            [str(memtree_bin), "--vault", str(vault.root), *argv], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "(hint: see `memtree" in done.stderr
    bare = subprocess.run([str(memtree_bin)], capture_output=True, text=True, timeout=60)
    assert bare.returncode == 2 and "Commands" in bare.stdout + bare.stderr  # `memtree` alone: the help


def test_import_where_every_record_is_bad_says_so_with_a_hint(vault: Vault, tmp_path: Path) -> None:
    broken = tmp_path / "conversations.json"
    broken.write_text('[{"mapping": {"a": {"message": ', encoding="utf-8")
    result = memtree("--vault", str(vault.root), "import", str(broken), "--format", "chatgpt", "--json")
    assert result.code == 6 and result.json()["failed"] == 1 and result.json()["added"] == 0
    assert "nothing in" in result.stderr and "hint: is it chatgpt?" in result.stderr
    mixed = jsonl(
        tmp_path / "mixed.jsonl", [{"timestamp": "2026-03-02T10:00:00Z", "speaker": "u", "text": "ok"}], ["{"]
    )
    assert memtree("--vault", str(vault.root), "import", str(mixed)).code == 6
    assert memtree("--vault", str(vault.root), "import", str(mixed)).code == 6  # already stored + 1 bad: partial


# ---------------------------------------------------------------- schedule


def test_schedule_names_this_memtree_by_its_full_path_and_quotes_odd_folders(tmp_path: Path) -> None:
    odd, _ = Vault.init(tmp_path / "my memory %d", "UTC")
    result = memtree("--vault", str(odd.root), "schedule")
    assert result.code == 0
    cron = next(line for line in result.stdout.splitlines() if line.startswith("15 3 * * * "))
    command = str(Path(sys.executable).parent / "memtree")  # cron's PATH does not hold a venv
    root = shlex.quote(str(odd.root)).replace("%", "\\%")  # a bare % would end the cron command
    assert f"cd {root} && flock -n {root}/.memtree/cron.lock {command} --vault {root} compact --commit" in cron
    assert cron.replace("\\%", "").count("%") == 0
    unit = result.stdout.split("memtree.service\n", 1)[1]
    assert f'ExecStart={command} --vault "{odd.root}"'.replace("%", "%%") in unit
    assert "EnvironmentFile=-%h/.config/memtree/env" in unit


def test_the_crontab_line_runs_as_cron_would_run_it(vault: Vault, tmp_path: Path) -> None:
    from compaction_tree.ingest import add

    add(vault, "We decided to keep Stripe webhooks idempotent.", timestamp="2026-03-02T10:00:00Z")
    result = memtree("--vault", str(vault.root), "schedule")
    line = next(line for line in result.stdout.splitlines() if line.startswith("15 3 * * * "))
    command = line.split(" ", 5)[5].replace("\\%", "%")  # cron strips the schedule and unescapes %
    done = subprocess.run(["sh", "-c", command], env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, timeout=120)
    assert done.returncode == 0
    log = (vault.root / ".memtree/compact.log").read_text()
    assert "compacted: " in log and (vault.root / "daily/2026-03-02.md").exists()


# ---------------------------------------------------------------- choosing and checking the model


def test_a_model_in_memtree_yaml_is_used_without_switching_the_backend(vault: Vault) -> None:
    from compaction_tree.backends import summarizer_for

    config = vault.root / "memtree.yaml"
    config.write_text(config.read_text().replace("  model: null", "  model: openai/gpt-4o-mini"))
    chosen = summarizer_for(Vault.open(vault.root), env={})
    assert chosen.identity.backend == "litellm" and chosen.identity.model == "openai/gpt-4o-mini"
    assert summarizer_for(vault, env={}).identity.backend == "extractive"  # the vault as it was: no model


def test_a_missing_api_key_or_an_unknown_model_stops_the_run_at_once(vault: Vault) -> None:
    from compaction_tree.ingest import add

    add(vault, "We decided to keep Stripe webhooks idempotent.", timestamp="2026-03-02T10:00:00Z")
    before = snapshot(vault.root)
    no_key = memtree("--vault", str(vault.root), "compact", "--model", "openai/gpt-4o-mini", "--json")
    assert no_key.code == 8 and no_key.stderr.count("\n") == 1
    assert "needs OPENAI_API_KEY" in no_key.stderr and "export OPENAI_API_KEY=" in no_key.stderr
    unknown = memtree("--vault", str(vault.root), "compact", "--model", "no-such-model-xyz")
    assert unknown.code == 8 and "unknown model 'no-such-model-xyz'" in unknown.stderr
    dry = memtree("--vault", str(vault.root), "compact", "--model", "no-such-model-xyz", "--dry-run")
    assert dry.code == 8
    assert snapshot(vault.root) == before  # nothing summarized, nothing lost


def test_the_library_compact_honours_the_configured_budget(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    from fakellm import FakeLLM

    from compaction_tree import Memory
    from compaction_tree.ingest import add

    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    for day in range(2, 6):
        add(vault, f"Day {day}: the Stripe webhook retried.", timestamp=f"2026-03-0{day}T10:00:00Z")

    def answer(body: dict[str, object]) -> str:
        messages = body["messages"]
        assert isinstance(messages, list)
        first = messages[1]["content"].split("[", 1)[1].split("]", 1)[0]
        return json.dumps({"overview": {"text": "Webhooks.", "sources": [first]}, "topics": ["stripe"]})

    with FakeLLM(answer) as server:
        config = vault.root / "memtree.yaml"
        text = config.read_text().replace("  api_base: null", f"  api_base: {server.base_url}")
        config.write_text(text.replace("  max_calls: null", "  max_calls: 2"))
        report = Memory.open(vault.root).compact(model="openai/fake-model")
        assert server.calls == 2 and report.calls == 2 and len(report.deferred) == 2


# ---------------------------------------------------------------- progress bars


def run_on_a_terminal(argv: list[str]) -> tuple[int, str]:
    """Runs memtree with stderr on a pseudo-terminal: (exit code, what the terminal showed)."""
    import pty

    env = {k: v for k, v in os.environ.items() if k != "MEMTREE_NO_PROGRESS"}
    master, slave = pty.openpty()
    with subprocess.Popen(
        [str(Path(sys.executable).parent / "memtree"), *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env=env,
    ) as proc:
        os.close(slave)
        shown = b""
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the terminal's other side is closed
                break
            if not data:
                break
            shown += data
        code = proc.wait(timeout=120)
    os.close(master)
    return code, shown.decode("utf-8", "replace")


@pytest.mark.slow
def test_progress_bars_on_a_terminal_and_never_in_a_pipe(tmp_path: Path) -> None:
    from compaction_tree.ingest import add

    vaults = [Vault.init(tmp_path / name, "UTC")[0] for name in ("tty", "pipe")]
    big = tmp_path / "big.jsonl"  # imports draw a bar from 2 MB up
    line = {"timestamp": "2026-03-02T10:00:00Z", "speaker": "user", "text": "x"}
    jsonl(big, [{**line, "text": f"{i}: " + "the deploy pipeline and its migrations " * 50} for i in range(1100)])
    for vault in vaults:
        for day in range(2, 6):
            add(vault, f"Day {day}: we fixed the CORS preflight.", timestamp=f"2026-03-0{day}T10:00:00Z")
    env = {k: v for k, v in os.environ.items() if k != "MEMTREE_NO_PROGRESS"}
    for command in (["compact"], ["import", str(big)]):
        code, shown = run_on_a_terminal(["--vault", str(vaults[0].root), *command])
        assert code == 0 and "━" in shown, command
        piped = subprocess.run(
            [str(Path(sys.executable).parent / "memtree"), "--vault", str(vaults[1].root), *command],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert piped.returncode == 0 and "━" not in piped.stderr and "\x1b[" not in piped.stderr, command
    add(vaults[0], "A later day: the webhook retries.", timestamp="2026-03-10T10:00:00Z")
    code, shown = run_on_a_terminal(["--vault", str(vaults[0].root), "compact", "--json"])
    assert code == 0 and "━" not in shown  # --json is for programs: no bars even on a terminal


def test_context_fits_a_hooks_character_cap_by_shedding_whole_entries(tmp_path: Path) -> None:
    """Claude Code keeps 10,000 characters of a SessionStart hook's output: a generous ROOT.md budget
    must not push the block past it, and what goes is detail (gists, then entries), not half a line."""
    import shutil

    copy = tmp_path / "sample"
    shutil.copytree(Path(__file__).resolve().parents[1] / "sample_vault", copy)
    config = copy / "memtree.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("root: 3000", "root: 4000"), encoding="utf-8")
    uncapped = memtree("--vault", str(copy), "context", "--max-chars", "0").stdout
    assert len(uncapped) > 10_000  # the case the cap is for
    capped = memtree("--vault", str(copy), "context").stdout
    assert 6_000 < len(capped) <= 9_500
    assert capped.startswith("<memory>\n") and capped.endswith("</memory>\n") and "memtree recall" in capped
    entries = [line for line in capped.splitlines() if line.startswith("- **")]
    whole = {line for line in uncapped.splitlines() if line.startswith("- **")}
    without_gists = {re.sub(r"\): .* → ", ") → ", line) for line in whole}
    assert len(entries) >= 10 and set(entries) <= whole | without_gists  # entries kept whole or as one line
    small = memtree("--vault", str(copy), "context", "--max-chars", "4000").stdout
    assert len(small) <= 4_000 and small.endswith("</memory>\n")


def test_hook_log_records_a_failure_and_never_exits_2(vault: Vault) -> None:
    bad = memtree("--vault", str(vault.root), "--hook-log", "recall", "x", "--budget", "lots")  # a usage error: 2
    assert bad.code == 1
    log = (vault.root / ".memtree/hooks.log").read_text(encoding="utf-8").splitlines()
    assert len(log) == 1 and "recall exited 2" in log[0] and "--budget" in log[0]
    missing = memtree("--vault", str(vault.root), "--hook-log", "import", str(vault.root / "gone.jsonl"))
    assert missing.code == 1
    status = memtree("--vault", str(vault.root), "status", "--json").json()
    assert "import exited 4" in status["last_hook_failure"] and "gone.jsonl" in status["last_hook_failure"]
    assert "hooks     last failure" in memtree("--vault", str(vault.root), "status").stdout
    plain = memtree("--vault", str(vault.root), "recall", "x", "--budget", "lots")  # without --hook-log: as before
    assert plain.code == 2 and len((vault.root / ".memtree/hooks.log").read_text().splitlines()) == 2
