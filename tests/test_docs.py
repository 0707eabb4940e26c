"""The README stays true: every command is documented, and its commands run as written."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from typer.main import get_command

from compaction_tree.cli import app

README = Path(__file__).resolve().parents[1] / "README.md"
BIN = Path(sys.executable).parent


def code_blocks(text: str) -> list[str]:
    return re.findall(r"```(?:sh|json|python)?\n(.*?)```", text, re.DOTALL)


def test_every_command_is_documented_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    commands = sorted(get_command(app).commands)  # type: ignore[attr-defined]
    assert len(commands) >= 14
    missing = [name for name in commands if f"memtree {name}" not in text]
    assert missing == []


def test_the_readme_opens_with_the_two_commands() -> None:
    first = code_blocks(README.read_text(encoding="utf-8"))[0]
    lines = [line for line in first.splitlines() if line and not line.startswith("#")]
    assert len(lines) == 2
    assert lines[0].endswith("memtree demo") and "pip install" in lines[0]
    assert "pytest" in lines[1] and "'.[dev]'" in lines[1]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest -q" in ci  # CI runs the README's test command


def test_every_exit_code_is_documented() -> None:
    from compaction_tree import errors

    text = README.read_text(encoding="utf-8")
    codes = {v for k, v in vars(errors).items() if k.isupper() and isinstance(v, int)}
    assert all(f"| {code} |" in text for code in codes)


def test_the_walkthrough_runs_as_written(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    block = text.split("<!-- The block below is run by tests/test_docs.py", 1)[1]
    lines = [line.split("  #", 1)[0].strip() for line in code_blocks(block)[0].splitlines()]
    lines = [line for line in lines if line]
    assert lines and all(line.startswith(("memtree ", "echo ")) for line in lines)
    (tmp_path / "conversations.jsonl").write_text(
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
    env = {
        **{k: v for k, v in os.environ.items() if k != "MEMTREE_VAULT"},
        "PATH": f"{BIN}:{os.environ['PATH']}",
        "HOME": str(tmp_path),
    }
    outputs = []
    for line in lines:
        done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{line}\n{done.stderr}"
        outputs.append(done.stdout)
    know = json.loads(outputs[lines.index(next(line for line in lines if "know" in line))])
    assert know["known"] and know["last_seen"] == "2026-03-04"
    recall = outputs[lines.index(next(line for line in lines if "recall" in line))]
    assert "Fly.io" in recall


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
