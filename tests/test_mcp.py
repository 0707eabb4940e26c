"""`memtree mcp`: the real server as a subprocess, spoken to with the SDK's own stdio client and with raw
JSON-RPC lines (the handshake of each protocol revision), plus the same server in memory for the tools'
details. What a client sees: tools with schemas, text plus structured results, tool errors with a hint for
bad arguments (the server keeps answering), ROOT.md and its summaries as resources, nothing but chunks written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import snapshot

from compaction_tree.vault import Vault

pytest.importorskip("mcp")

from mcp import Client, MCPError, StdioServerParameters
from mcp_types import INVALID_PARAMS

from compaction_tree.mcp_server import build_server

SAMPLE = Path(__file__).resolve().parents[1] / "sample_vault"
TOOLS = {"context", "recall", "know", "facts", "remember", "add"}
SERVER = [sys.executable, "-m", "compaction_tree"]


@pytest.fixture
def sample(tmp_path: Path) -> Vault:
    """A copy of the sample vault: three months of chunks, summaries, facts and ROOT.md."""
    shutil.copytree(SAMPLE, tmp_path / "sample")
    return Vault.open(tmp_path / "sample")


def stdio(root: Path) -> StdioServerParameters:
    # the SDK passes a bare environment by default; the server must import this checkout as the tests do
    return StdioServerParameters(
        command=SERVER[0], args=[*SERVER[1:], "--vault", str(root), "mcp"], env=dict(os.environ)
    )


def session(server: Any, check: Callable[[Client], Awaitable[None]], mode: str = "auto") -> None:
    async def main() -> None:
        async with Client(server, mode=mode, read_timeout_seconds=60) as client:
            await check(client)

    try:
        anyio.run(main)
    except BaseExceptionGroup as group:  # the client's task groups wrap a failed assertion: show it plainly
        while isinstance(group, BaseExceptionGroup) and len(group.exceptions) == 1:
            group = group.exceptions[0]
        raise group from None


async def call(client: Client, tool: str, **arguments: Any) -> tuple[str, Any, bool]:
    result = await client.call_tool(tool, arguments)
    text = "\n".join(block.text for block in result.content if block.type == "text")
    return text, result.structured_content, bool(result.is_error)


# ---------------------------------------------------------------- the real server, over stdio


class RawServer:
    """The server as a client process sees it: JSON-RPC messages, one per line, on its stdin and stdout."""

    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(
            [*SERVER, "--vault", str(root), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.watchdog = threading.Timer(60, self.proc.kill)  # a hung server fails the test instead of the run
        self.watchdog.start()

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        self.proc.stdin.flush()

    def ask(self, id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.send({"id": id, "method": method, **({"params": params} if params is not None else {})})
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            assert line, f"the server closed stdout: {self.close()}"
            message = json.loads(line)
            if message.get("id") == id:
                return dict(message)

    def close(self) -> str:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.watchdog.cancel()
        return self.proc.stderr.read()


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
@pytest.mark.slow
def test_the_initialize_handshake_answers_each_revision_clients_send(vault: Vault, version: str) -> None:
    server = RawServer(vault.root)
    answer = server.ask(
        1,
        "initialize",
        {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "a-client", "version": "1"}},
    )["result"]
    assert answer["protocolVersion"] == version and answer["serverInfo"]["name"] == "memtree"
    assert {"tools", "resources"} <= set(answer["capabilities"]) and "know" in answer["instructions"]
    server.send({"method": "notifications/initialized"})
    listed = server.ask(2, "tools/list")["result"]["tools"]
    assert {tool["name"] for tool in listed} == TOOLS
    called = server.ask(3, "tools/call", {"name": "know", "arguments": {"topic": "kubernetes"}})["result"]
    assert not called.get("isError") and called["structuredContent"]["known"] is False
    assert "Traceback" not in server.close()


@pytest.mark.parametrize(("mode", "version"), [("legacy", "2025-11-25"), ("auto", "2026-07-28")])
@pytest.mark.slow
def test_the_sdk_client_connects_over_stdio_with_the_handshake_and_the_newer_revision(
    sample: Vault, mode: str, version: str
) -> None:
    async def check(client: Client) -> None:
        assert client.protocol_version == version
        text, data, error = await call(client, "recall", query="where do we deploy?", budget=400, ids=True)
        assert not error and data["sources"] and data["tokens"] <= 400
        quoted = [line for line in text.splitlines() if line.startswith("[")]
        assert quoted and all(line.split("]", 1)[0][1:] in data["sources"] for line in quoted)

    session(stdio(sample.root), check, mode)


@pytest.mark.slow
def test_every_tool_over_stdio_and_the_server_writes_nothing_but_chunks(sample: Vault) -> None:
    before = snapshot(sample.root)

    async def check(client: Client) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(listed) == TOOLS
        for tool in listed.values():  # an agent acts on the descriptions: every tool and argument has one
            assert tool.description and len(tool.description) > 40 and tool.output_schema
            assert all(p.get("description") for p in tool.input_schema.get("properties", {}).values())
        assert listed["recall"].input_schema["required"] == ["query"]
        assert listed["know"].annotations is not None and listed["know"].annotations.read_only_hint

        text, data, _ = await call(client, "context")
        assert text.startswith("<memory>\n") and "# Memory index" in text and "`know` tool" in text
        assert data["vault"] == str(sample.root)
        text, data, _ = await call(client, "know", topic="fly.io")
        assert data["known"] and data["first_seen"] and data["see"] and text.startswith("known: 'fly.io'")
        text, data, _ = await call(client, "know", topic="kubernetes operator")
        assert not data["known"] and text == "unknown: nothing in memory mentions 'kubernetes operator'"
        text, data, _ = await call(client, "facts", category="decision")
        assert data["facts"] and all(f["category"] == "decision" for f in data["facts"])
        text, data, _ = await call(client, "facts", query="Netlify for the frontend")
        assert data["history"] is False and any(f["subject"] == "frontend_host" for f in data["facts"])
        text, data, _ = await call(client, "facts", query="frontend host")  # a subject, as said
        assert data["history"] is True and [f["subject"] for f in data["facts"]] == ["frontend_host"]
        assert data["facts"][0]["sources"]
        added, data, error = await call(
            client, "add", text="Zephyrine is the new staging box.", timestamp="2026-04-03T12:00:00Z", session="s9"
        )
        assert not error and data["created"] and added == f"stored: {data['id']}"
        again = await call(
            client, "add", text="Zephyrine is the new staging box.", timestamp="2026-04-03T12:00:00Z", session="s9"
        )
        assert again[1]["id"] == data["id"] and not again[1]["created"] and "already stored" in again[0]
        _, found, _ = await call(client, "recall", query="zephyrine staging box")
        assert data["id"] in found["sources"]  # found at once: no compaction needed
        _, known, _ = await call(client, "know", topic="zephyrine")
        assert known["known"] and known["entries"][0]["source"] == data["id"]

    session(stdio(sample.root), check)
    after = snapshot(sample.root)
    new = {path for path in after if path not in before}
    assert {path for path in before if after.get(path) != before[path]} == set()  # nothing rewritten
    assert len(new) == 1 and all(path.startswith("raw/") for path in new)  # the chunk added, nothing else


@pytest.mark.slow
def test_a_revision_the_server_does_not_know_gets_its_newest_handshake_revision(vault: Vault) -> None:
    server = RawServer(vault.root)
    offered = {"protocolVersion": "2099-01-01", "capabilities": {}, "clientInfo": {"name": "future", "version": "9"}}
    assert server.ask(1, "initialize", offered)["result"]["protocolVersion"] == "2025-11-25"
    server.close()


@pytest.mark.slow
def test_the_readme_mcp_config_snippet_starts_a_server_that_answers(vault: Vault) -> None:
    readme = (SAMPLE.parent / "README.md").read_text(encoding="utf-8")
    part = readme.split("### MCP server", 1)[1].split("\n### ", 1)[0]
    snippet = json.loads(re.findall(r"```json\n(.*?)```", part, re.DOTALL)[0])["mcpServers"]["memtree"]
    args = [str(vault.root) if "agent-memory" in a else a for a in snippet["args"]]  # the reader's vault
    assert snippet["command"].endswith("/memtree") and args == ["--vault", str(vault.root), "mcp"]

    async def check(client: Client) -> None:
        assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS

    session(StdioServerParameters(command=SERVER[0], args=[*SERVER[1:], *args], env=dict(os.environ)), check)
    claude = re.search(r"claude mcp add memtree -- (memtree .*?mcp)", part)
    assert claude and claude.group(1).split()[1:] == ["--vault", "~/agent-memory", "mcp"]


def test_a_vault_that_cannot_be_found_is_one_line_and_exit_3_before_the_server_starts(tmp_path: Path) -> None:
    for where in (tmp_path / "absent", tmp_path):  # no folder; a folder that is not a vault
        done = subprocess.run(
            [*SERVER, "--vault", str(where), "mcp"], input="", capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 3 and done.stdout == ""  # stdout is the protocol channel: nothing on it
        assert done.stderr.startswith("memtree: error: ") and done.stderr.count("\n") == 1 and "hint:" in done.stderr


def test_without_the_mcp_package_the_command_says_how_to_install_it(vault: Vault) -> None:
    probe = (
        "import sys; sys.modules['mcp'] = None; sys.argv = ['memtree', '--vault', sys.argv[1], 'mcp']\n"
        "from compaction_tree.cli import main; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(vault.root)], input="", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and done.stdout == ""
    assert "needs the mcp package" in done.stderr and "memtree[mcp]" in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_adds_from_the_server_and_the_cli_at_once_all_land(vault: Vault) -> None:
    cli_texts = [f"cli turn {i} about the Brackenfell migration" for i in range(6)]

    def cli_add(text: str) -> int:
        command = [*SERVER, "--vault", str(vault.root), "add", text, "--session", "cli"]
        return subprocess.run(command, capture_output=True, timeout=60).returncode

    async def check(client: Client) -> None:
        with ThreadPoolExecutor(3) as pool:
            codes = pool.map(cli_add, cli_texts)
            for i in range(12):
                _, data, error = await call(client, "add", text=f"server turn {i} about Brackenfell", session="mcp")
                assert not error and data["created"]
            assert list(codes) == [0] * len(cli_texts)
        _, found, _ = await call(client, "recall", query="brackenfell migration cli turn", budget=5000)
        assert len(found["sources"]) >= len(cli_texts)  # the CLI's chunks are found through the server at once

    session(stdio(vault.root), check)
    chunks = [json.loads(path.read_text()) for path in (vault.root / "raw").rglob("*.json")]
    assert sorted(c["session"] for c in chunks) == ["cli"] * 6 + ["mcp"] * 12
    assert not list((vault.root / "raw").rglob("*.tmp"))


# ---------------------------------------------------------------- the same server in memory: the details


def test_bad_arguments_are_tool_errors_with_a_hint_and_the_server_keeps_answering(vault: Vault) -> None:
    bad = [
        ("recall", {}, "query: field required"),
        ("recall", {"query": "x", "budget": 0}, "budget: input should be greater than or equal to 1"),
        ("recall", {"query": "x", "budget": "many"}, "budget: input should be a valid integer"),
        ("recall", {"query": "   "}, "the query is empty"),
        ("know", {"topic": "the"}, "names no topic"),
        ("know", {"topic": ["a", "list"]}, "topic: input should be a valid string"),
        ("add", {"text": ""}, "the text is empty"),
        ("add", {"text": "x", "timestamp": "last tuesday"}, "is not ISO 8601"),
        ("add", {"text": "x", "speaker": "a\nb"}, "speaker must be one line"),
        ("add", {"text": "x" * 2_000_000}, "longer than"),
        ("remember", {"subject": "iac"}, "text: field required"),
        ("facts", {"category": "opinions"}, "unknown category 'opinions'"),
        ("remember", {"text": "x", "category": "a\nb"}, "unknown category 'a\\nb'"),
    ]

    async def check(client: Client) -> None:
        for tool, arguments, words in bad:
            result = await client.call_tool(tool, arguments)
            text = result.content[0].text  # type: ignore[union-attr]
            assert result.is_error and words in text and "hint: " in text, (tool, arguments, text)
            assert "Traceback" not in text and "pydantic.dev" not in text and text.count("\n") == 0
        unknown = await client.call_tool("forget_everything", {})
        assert unknown.is_error
        _, data, error = await call(client, "know", topic="anything at all")  # still answering
        assert not error and data["known"] is False

    session(build_server(vault.root), check)
    assert not list((vault.root / "raw").rglob("*.json"))  # nothing bad was stored


def test_root_and_each_summary_it_links_are_resources(sample: Vault) -> None:
    root_text = (sample.root / "ROOT.md").read_text(encoding="utf-8")
    links = sorted(set(re.findall(r"\]\(((?:daily|weekly|monthly)/[^)]+\.md)\)", root_text)))
    assert links

    async def check(client: Client) -> None:
        listed = {str(r.uri) for r in (await client.list_resources()).resources}
        assert "memtree://root" in listed
        assert len(listed) == 1 + sum(len(sample.summary_files(level)) for level in ("daily", "weekly", "monthly"))
        root = (await client.read_resource("memtree://root")).contents[0]
        assert root.text == root_text  # type: ignore[union-attr]
        for link in links:  # each link, resolved against memtree://root, is a listed, readable resource
            uri = f"memtree://root/{link}"
            assert uri in listed
            content = (await client.read_resource(uri)).contents[0]
            assert content.text == (sample.root / link).read_text(encoding="utf-8")  # type: ignore[union-attr]
        config = (sample.root / "memtree.yaml").read_text(encoding="utf-8")
        for outside in (
            "memtree://root/raw/2026-01-05.md",
            "memtree://root/daily/..%2F..%2Fmemtree.yaml",
            "memtree://root/daily/2019-01-01.md",
        ):
            with pytest.raises(MCPError) as failed:  # not found, as a protocol error; no file outside is read
                await client.read_resource(outside)
            assert failed.value.error.code == INVALID_PARAMS and config not in str(failed.value.error)

    session(build_server(sample.root), check)


def test_root_is_served_before_the_first_compaction_without_writing_it(vault: Vault) -> None:
    from compaction_tree.ingest import add

    add(vault, "We picked Caddy for TLS.", timestamp="2026-03-01T10:00:00Z")

    async def check(client: Client) -> None:
        text = (await client.read_resource("memtree://root")).contents[0].text  # type: ignore[union-attr]
        assert "# Memory index" in text
        assert [str(r.uri) for r in (await client.list_resources()).resources] == ["memtree://root"]

    session(build_server(vault.root), check)
    assert not (vault.root / "ROOT.md").exists()


def test_the_tools_take_no_lock_so_a_compaction_beside_them_is_fine(vault: Vault) -> None:
    async def check(client: Client) -> None:
        with vault.lock() as held:  # what a running compaction holds
            assert held
            _, data, error = await call(client, "remember", text="Deploys go through Nomad now.", subject="deploys")
            assert not error and data["created"] and data["applied"] is False  # stored; the compaction applies it
            _, found, error = await call(client, "recall", query="nomad deploys")
            assert not error and found["sources"] == [data["id"]]

    session(build_server(vault.root), check)


def test_remember_is_a_current_fact_at_once_and_a_later_value_supersedes_it(vault: Vault) -> None:
    async def check(client: Client) -> None:
        text, data, error = await call(
            client, "remember", text="Release notes go out on Thursdays.", subject="release_day", category="decision"
        )
        assert not error and data["applied"] and data["subject"] == "release_day" and text.startswith("remembered")
        assert (vault.root / data["path"]).is_file()  # a chunk in raw/: forget removes it, rebuilds keep it
        await call(client, "remember", text="Release notes go out on Fridays now.", subject="release_day")
        _, facts, _ = await call(client, "facts", query="release_day")
        assert facts["history"] and facts["facts"][0]["fact"] == "Release notes go out on Fridays now."
        assert [h["fact"] for h in facts["facts"][0]["history"]] == ["Release notes go out on Thursdays."]
        assert "Fridays" in (vault.root / "ROOT.md").read_text()

    session(build_server(vault.root), check)


def test_secrets_are_redacted_before_an_add_through_the_server_is_written(vault: Vault) -> None:
    key = "sk-proj-" + "Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kM9nP2rS5uV8xA1"

    async def check(client: Client) -> None:
        text, data, _ = await call(client, "add", text=f"the key is {key}")
        assert data["redactions"] == 1 and "redacted 1 secret" in text

    session(build_server(vault.root), check)
    assert key not in "".join((vault.root / "raw").rglob("*.json").__next__().read_text())


PROBE = """
import sys, anyio
from mcp import Client
from compaction_tree.mcp_server import build_server

async def main():
    async with Client(build_server(__import__("pathlib").Path(sys.argv[1]))) as client:
        for tool, arguments in [
            ("context", {}), ("recall", {"query": "deploy"}), ("know", {"topic": "fly.io"}), ("facts", {}),
            ("add", {"text": "a turn"}), ("remember", {"text": "a decision"}),
        ]:
            assert not (await client.call_tool(tool, arguments)).is_error, tool
        await client.read_resource("memtree://root")

anyio.run(main)
print(",".join(sorted(m for m in sys.modules if m.split(".")[0] in ("litellm", "openai"))))
"""


@pytest.mark.slow
def test_no_tool_imports_litellm_so_the_server_starts_and_answers_fast(sample: Vault) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(sample.root)], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == ""
