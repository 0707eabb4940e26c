"""The README stays true: every command and option is documented where the command is, the
reference tables match the code, and the README's commands, hooks and snippets run as written."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.main import get_command

from compaction_tree.cli import app

README = Path(__file__).resolve().parents[1] / "README.md"
BIN = Path(sys.executable).parent
TEXT = README.read_text(encoding="utf-8")


def code_blocks(text: str, lang: str = "(?:sh|json|python)?") -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", text, re.DOTALL)


def section(title: str) -> str:
    """The README's text under the heading `title`, up to the next heading of the same level or
    higher (headings inside code blocks do not count)."""
    lines = TEXT.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if re.fullmatch(rf"#+ {re.escape(title)}\n", line))
    depth = len(lines[start]) - len(lines[start].lstrip("#"))
    fenced = False
    for end in range(start + 1, len(lines)):
        fenced ^= lines[end].startswith("```")
        heading = re.match(r"(#+) ", lines[end])
        if heading and not fenced and len(heading.group(1)) <= depth:
            return "".join(lines[start + 1 : end])
    return "".join(lines[start + 1 :])


def table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
            rows.append([cell.strip() for cell in cells])
    return rows[1:]  # the header


def shell_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MEMTREE_VAULT", "MEMTREE_MODEL", "OPENAI_API_KEY")}
    return {**env, "PATH": f"{BIN}:{os.environ['PATH']}", "HOME": str(home), "MEMTREE_NO_PROGRESS": "1", **extra}


def sh(line: str, cwd: Path, env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["bash", "-c", line], cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
    return done


# ---------------------------------------------------------------- every command and option


def commands() -> dict[str, Any]:
    """'add' -> its click command, 'facts search' -> ..., for every command memtree has."""
    found: dict[str, Any] = {}

    def walk(command: Any, path: str) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            found[f"{path} {name}".strip()] = sub
            walk(sub, f"{path} {name}")

    walk(get_command(app), "")
    return found


def command_rows() -> dict[str, str]:
    """The command table: 'facts search' -> its whole row, keyed by the command path the row opens with."""
    known = commands()
    rows: dict[str, str] = {}
    for cells in table_rows(section("Walkthrough")):
        usage = cells[0].strip("`").replace("\\|", "|").split()
        if not usage or usage[0] != "memtree":
            continue
        path = usage[1]
        for word in usage[2:]:
            if f"{path} {word}" not in known:
                break
            path = f"{path} {word}"
        rows[path] = " | ".join(cells)
    return rows


def test_every_command_has_a_row_that_names_all_its_options() -> None:
    known, rows = commands(), command_rows()
    assert len(known) >= 18
    assert sorted(set(known) - set(rows)) == []
    missing = {
        path: [
            opt
            for param in command.params
            for opt in param.opts
            if opt.startswith("--") and opt != "--help" and opt not in rows[path]
        ]
        for path, command in known.items()
    }
    assert {path: opts for path, opts in missing.items() if opts} == {}
    assert "--vault DIR" in TEXT  # the one global option


def test_the_readme_opens_with_the_two_commands() -> None:
    first = code_blocks(TEXT)[0]
    lines = [line for line in first.splitlines() if line and not line.startswith("#")]
    assert len(lines) == 2
    assert lines[0].endswith("memtree demo") and "pip install" in lines[0]
    assert "pytest" in lines[1] and "'.[dev]'" in lines[1]
    tests = lines[1][lines[1].index("python -m pytest") :]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert f"{tests}\n" in ci  # CI runs the README's test command, options and all
    assert "-m ''" in tests or '-m ""' in tests  # every test, the slow ones too (`pytest` alone skips them)


RELIABILITY_ROW = re.compile(r"§\d+(?:\.\d+)?|\b[WCSL]\d+\b|\bI-?\d\b|\b\d\.\d\b")


def cited_reliability_rows() -> dict[str, set[str]]:
    """Each file that cites RELIABILITY.md, and the row ids (W2, I-3, S1-S11, §0.1, 5.2) it names there."""
    root = README.parent
    cited: dict[str, set[str]] = {}
    for path in sorted([*root.glob("compaction_tree/**/*.py"), *root.glob("tests/**/*.py"), root / "pyproject.toml"]):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "RELIABILITY.md" in line and path != Path(__file__):
                where = line.split("RELIABILITY.md", 1)[1].split(")")[0].split(":")[0]
                cited.setdefault(str(path.relative_to(root)), set()).update(RELIABILITY_ROW.findall(where))
                assert "docs/RELIABILITY.md" in line, f"{path}: cite docs/RELIABILITY.md, the copy in the repository"
    return cited


def test_the_reliability_promises_the_code_cites_are_in_the_repository() -> None:
    doc = (README.parent / "docs" / "RELIABILITY.md").read_text(encoding="utf-8")
    sections = {m.rstrip(".") for m in re.findall(r"^## (§[\d.]+)", doc, re.MULTILINE)}
    sections |= {s.split(".")[0] for s in sections}  # §5 names §5.2 and §5.3 together
    rows = set(re.findall(r"^\| ([WCSL]\d+|I-\d) \|", doc, re.MULTILINE)) | {"I1", "I2", "I3", "I4"}
    known = rows | sections | {s.lstrip("§") for s in sections} | {f"§0.{n}" for n in range(1, 11)}
    cited = cited_reliability_rows()
    assert len(cited) > 15
    missing = {path: sorted(ids - known) for path, ids in cited.items()}
    assert {path: ids for path, ids in missing.items() if ids} == {}


# ---------------------------------------------------------------- the reference tables


def test_the_exit_code_table_is_exactly_errors_py() -> None:
    from compaction_tree import errors

    codes = {v for k, v in vars(errors).items() if k.isupper() and isinstance(v, int)}
    documented = {int(cells[0]) for cells in table_rows(section("Exit codes"))}
    assert documented == codes
    raised = {
        cls.exit_code for cls in vars(errors).values() if isinstance(cls, type) and issubclass(cls, errors.MemtreeError)
    }
    assert raised <= documented


def yaml_keys(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and value and key != "aliases":
            flat.update(yaml_keys(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def test_the_configuration_reference_is_exactly_memtree_yaml() -> None:
    from compaction_tree.config import default_config_text, parse_config

    written = yaml_keys(yaml.safe_load(default_config_text("UTC")))
    documented: dict[str, str] = {}
    for cells in table_rows(section("Configuration")):
        names = re.findall(r"`([^`]+)`", cells[0])
        prefix = names[0].rpartition(".")[0]
        keys = [names[0], *(f"{prefix}.{n}" if prefix else n for n in names[1:])]
        defaults = re.findall(r"`([^`]+)`", cells[1])
        for i, key in enumerate(keys):
            if cells[1] == "none":
                documented[key] = "null"
            elif len(defaults) == len(keys) and cells[1].startswith("`"):
                documented[key] = defaults[i]
            else:
                documented[key] = "(prose)"
    assert sorted(documented) == sorted(written)
    for key, default in documented.items():
        if default != "(prose)":
            assert yaml.safe_dump(written[key], default_flow_style=True).strip().removesuffix("\n...") in (
                default,
                default + "\n...",
            ), key
    parse_config(default_config_text("UTC"))  # and memtree reads what it writes


# ---------------------------------------------------------------- the commands run as written


@pytest.fixture(scope="module")
def walkthrough(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], list[str]]:
    """The walkthrough block, run line by line by bash in an empty folder: (folder, lines, outputs)."""
    folder = tmp_path_factory.mktemp("walkthrough")
    block = TEXT.split("<!-- The block below is run by tests/test_docs.py", 1)[1]
    lines = [line.split("  #", 1)[0].strip() for line in code_blocks(block)[0].splitlines()]
    lines = [line for line in lines if line]
    assert lines and all(line.startswith(("memtree ", "echo ")) for line in lines)
    (folder / "conversations.jsonl").write_text(
        "\n".join(
            json.dumps(
                {
                    "timestamp": f"2026-03-0{d}T09:00:00+01:00",
                    "speaker": "user",
                    "text": f"Day {d}: the Fly.io deploy of the billing page went fine.",
                }
            )
            for d in (3, 4)
        )
        + "\n",
        encoding="utf-8",
    )
    env = shell_env(folder)
    return folder, lines, [sh(line, folder, env).stdout for line in lines]


@pytest.mark.slow
def test_the_walkthrough_runs_as_written(walkthrough: tuple[Path, list[str], list[str]]) -> None:
    _, lines, outputs = walkthrough
    know = json.loads(outputs[lines.index(next(line for line in lines if "know" in line))])
    assert know["known"] and know["last_seen"] == "2026-03-04"
    recall = outputs[lines.index(next(line for line in lines if "recall" in line))]
    assert "Fly.io" in recall


@pytest.mark.slow
def test_the_vault_section_shows_the_files_memtree_writes(walkthrough: tuple[Path, list[str], list[str]]) -> None:
    folder, _, _ = walkthrough
    vault = section("The vault")
    layout = code_blocks(vault, "")[0]
    documented = {line.split()[0].split("/")[0] for line in layout.splitlines() if line.strip()}
    present = {p.name for p in folder.iterdir()} - {"conversations.jsonl"}
    assert present <= documented and documented - present <= {"facts"}, (present, documented)

    chunk_example = json.loads(code_blocks(vault, "json")[0])
    stored = folder / f"raw/2026/03/02/{chunk_example['id']}.json"
    assert json.loads(stored.read_text(encoding="utf-8")) == chunk_example

    example = code_blocks(vault, "markdown")[0]
    real = (folder / "daily/2026-03-02.md").read_text(encoding="utf-8")
    head, body = example.split("\n---\n", 1)
    real_head, real_body = real.split("\n---\n", 1)
    assert body == real_body  # the sections, their order and every line, as written
    assert len(head.splitlines()) == len(real_head.splitlines())
    for shown, line in zip(head.splitlines(), real_head.splitlines(), strict=True):
        assert line.startswith(shown.removesuffix("...").split("...")[0]) and (
            shown.endswith("...") or shown.endswith("...}") or shown == line
        ), (shown, line)


@pytest.mark.slow
def test_the_claude_code_hooks_run_as_a_shell_runs_them(tmp_path: Path) -> None:
    vault = tmp_path / "memory"
    recipe = code_blocks(section("Claude Code"), "json")[0]
    # the recipe's absolute paths, here: a hook has neither the user's PATH nor MEMTREE_VAULT
    recipe = recipe.replace("/home/me/.venvs/memtree/bin/", f"{BIN}/").replace("/home/me/memory", str(vault))
    hooks = json.loads(recipe)["hooks"]
    env = shell_env(tmp_path)
    env["PATH"] = "/usr/bin:/bin"
    sh(f"{BIN}/memtree --vault {vault} init", tmp_path, env)
    transcript = tmp_path / ".claude/projects/app/7c6e1f0a.jsonl"
    transcript.parent.mkdir(parents=True)
    lines = [
        {
            "type": "user",
            "uuid": "u1-0001",
            "sessionId": "7c6e1f0a",
            "timestamp": "2026-03-03T09:00:00.000Z",
            "message": {"role": "user", "content": "The CORS preflight on /api/refresh fails on staging."},
        },
        {
            "type": "assistant",
            "uuid": "a1-0001",
            "sessionId": "7c6e1f0a",
            "timestamp": "2026-03-03T09:00:05.000Z",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "Allow OPTIONS in CORSMiddleware."}]},
        },
    ]
    transcript.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    event = {"session_id": "7c6e1f0a", "transcript_path": str(transcript), "hook_event_name": "SessionEnd"}
    (end,) = (h["command"] for entry in hooks["SessionEnd"] for h in entry["hooks"])
    for _ in range(2):  # the same transcript again (a Stop hook's run, then SessionEnd's) adds nothing
        sh(end, tmp_path, env, stdin=json.dumps(event))
    assert sorted(p.name for p in (vault / "raw").rglob("*.json")) == ["a1-0001.json", "u1-0001.json"]
    (start,) = (h["command"] for entry in hooks["SessionStart"] for h in entry["hooks"])
    context = sh(start, tmp_path, env, stdin=json.dumps({"hook_event_name": "SessionStart"})).stdout
    assert context.startswith("<memory>\n") and "memtree recall" in context and "CORS" in context

    # a failing run is not silent: a hook error (xargs says 123; never 2, "block"), a line in
    # .memtree/hooks.log, and `memtree status` shows it
    gone = {**event, "transcript_path": str(tmp_path / "moved-away.jsonl")}
    failed = subprocess.run(
        ["bash", "-c", end], cwd=tmp_path, env=env, input=json.dumps(gone), capture_output=True, text=True
    )
    assert failed.returncode not in (0, 2) and "moved-away.jsonl" in failed.stderr
    assert "moved-away.jsonl" in (vault / ".memtree/hooks.log").read_text(encoding="utf-8")
    status = json.loads(sh(f"{BIN}/memtree --vault {vault} status --json", tmp_path, env).stdout)
    assert "import exited 4" in status["last_hook_failure"] and "moved-away.jsonl" in status["last_hook_failure"]


def test_the_python_agent_example_runs(tmp_path: Path) -> None:
    snippet = code_blocks(section("A Python agent"), "python")[0]
    program = (
        "BASE_PROMPT = 'You are a coding agent.'\n" + snippet + "\non_turn('user', 'We deploy on Fly.io now.')\n"
        "on_turn('assistant', 'Noted: deploys go to Fly.io.')\n"
        "import json\n"
        "print(json.dumps({'know': tool_know('fly.io'), 'recall': tool_recall('where do we deploy?'),\n"
        "                  'prompt': system_prompt, 'done': report.to_json()['done']}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], env=shell_env(tmp_path), cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["know"]["known"] and "Fly.io" in out["recall"]
    assert out["prompt"].startswith("You are a coding agent.\n\n<memory>\n")
    assert (tmp_path / "agent-memory/memtree.yaml").exists()


@pytest.mark.slow
def test_the_nightly_block_runs_and_its_crontab_line_works(tmp_path: Path) -> None:
    env = shell_env(
        tmp_path,
        GIT_AUTHOR_NAME="me",
        GIT_AUTHOR_EMAIL="me@example.org",
        GIT_COMMITTER_NAME="me",
        GIT_COMMITTER_EMAIL="me@example.org",
    )
    memory = tmp_path / "agent-memory"
    sh(f"memtree --vault {memory} init --timezone UTC", tmp_path, env)
    sh(
        f"memtree --vault {memory} add 'We decided to keep Stripe webhooks idempotent.' --timestamp 2026-03-02",
        tmp_path,
        env,
    )
    block = code_blocks(section("Running it nightly and committing to git"), "sh")[0]
    output = sh("set -e\n" + block, tmp_path, env).stdout  # one shell, as typed: the cd holds for what follows
    cron = next(line for line in output.splitlines() if re.match(r"\d+ \d+ \* \* \* ", line))
    sh(cron.split(" ", 5)[5].replace("\\%", "%"), tmp_path, {**env, "PATH": "/usr/bin:/bin"})
    log = subprocess.run(["git", "-C", str(memory), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert log.splitlines()[0].startswith("memtree: compact 1 daily") and log.splitlines()[1] == "memory"
    assert "compacted: " in (memory / ".memtree/compact.log").read_text()


@pytest.mark.slow
def test_the_real_model_block_runs_against_an_openai_compatible_server(tmp_path: Path) -> None:
    from fakellm import FakeLLM

    def answer(body: dict[str, Any]) -> str:
        first = re.search(r"^\[([^\]]+)\]", body["messages"][1]["content"], re.MULTILINE)
        assert first
        bullet = {"text": "Deploys moved to Fly.io.", "sources": [first.group(1)]}
        return json.dumps({"overview": bullet, "decisions": [bullet], "topics": ["fly.io"]})

    env = shell_env(tmp_path)
    sh("memtree init --timezone UTC && memtree add 'We deploy on Fly.io.' --timestamp 2026-03-02", tmp_path, env)
    block = code_blocks(section("Using a real model"), "sh")[0]
    with FakeLLM(answer) as server:
        config = tmp_path / "memtree.yaml"
        config.write_text(config.read_text().replace("  api_base: null", f"  api_base: {server.base_url}"))
        script = "set -e\n" + "\n".join(line.split("  #", 1)[0] for line in block.splitlines())
        done = sh(script, tmp_path, env)
        assert server.calls == 3  # the dry run called nothing; then a day, its week and its month
    assert "plan: 1 daily, 1 weekly, 1 monthly" in done.stdout and "(dry run: nothing called" in done.stdout
    assert "compacted: 3 written" in done.stdout
    assert "Deploys moved to Fly.io." in (tmp_path / "daily/2026-03-02.md").read_text()


@pytest.mark.slow
def test_the_demo_runs(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(BIN / "memtree"), "demo", "--dir", str(tmp_path / "demo")],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "MEMTREE_NO_PROGRESS": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("---\nmemtree: root\n")
    assert "## Active topics" in done.stdout and '$ memtree recall "How did we fix the CORS bug?"' in done.stdout
    assert "unknown: nothing in memory mentions it" in done.stdout  # Kubernetes never came up
