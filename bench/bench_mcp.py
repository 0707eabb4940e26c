"""The MCP server's cost: time to the `initialize` answer from process start, and recall through the server.

Run: .venv/bin/python bench/bench_mcp.py [--vault DIR | --chunks 100000] [--runs 9]

Each start is a fresh `python -m compaction_tree --vault DIR mcp` with the initialize request already
waiting on its stdin, timed until the answer's line arrives on stdout: what a client such as Claude Code
waits for. Recall is timed as a client sees it (tools/call written, result line read) on one warm server,
over the queries eval_memory.py's scale run uses, after one warm-up pass.
Targets (issue 29): initialize within 1 s; recall on a 100K-chunk vault under 300 ms per call, warm.
Bytecode caching is forced on, as in bench_add.py.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from bench.eval_memory import SCALE_QUERIES as QUERIES  # noqa: E402

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
}


def env() -> dict[str, str]:
    found = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**found, "PYTHONPATH": str(REPO), "MEMTREE_NO_PROGRESS": "1"}


def start(vault: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "compaction_tree", "--vault", str(vault), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env(),
    )


def ask(proc: subprocess.Popen[str], message: dict[str, Any]) -> dict[str, Any]:
    stdin: IO[str] = proc.stdin  # type: ignore[assignment]
    stdout: IO[str] = proc.stdout  # type: ignore[assignment]
    stdin.write(json.dumps(message) + "\n")
    stdin.flush()
    while True:
        answer = json.loads(stdout.readline())
        if answer.get("id") == message["id"]:
            return dict(answer)


def time_to_initialize(vault: Path) -> float:
    started = time.perf_counter()
    proc = start(vault)
    answer = ask(proc, INITIALIZE)
    elapsed = time.perf_counter() - started
    assert answer["result"]["serverInfo"]["name"] == "memtree", answer
    proc.stdin.close()  # type: ignore[union-attr]
    proc.wait(timeout=30)
    return elapsed


def recall_timings(vault: Path, rounds: int) -> list[float]:
    proc = start(vault)
    ask(proc, INITIALIZE)
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")  # type: ignore[union-attr]
    timings = []
    for n in range(rounds + 1):
        for i, query in enumerate(QUERIES):
            call = {"jsonrpc": "2.0", "id": 1 + n * len(QUERIES) + i, "method": "tools/call"}
            call["params"] = {"name": "recall", "arguments": {"query": query, "budget": 5000}}
            began = time.perf_counter()
            answer = ask(proc, call)
            if n:  # the first pass warms the index and the page cache
                timings.append(time.perf_counter() - began)
            assert not answer["result"].get("isError"), answer
    proc.stdin.close()  # type: ignore[union-attr]
    proc.wait(timeout=30)
    return timings


def build(work: Path, chunks: int) -> Path:
    """A vault of `chunks` generated chunks (100 a day), imported and compacted as eval_memory.py's scale run."""
    from bench.corpus import generate
    from compaction_tree.compaction import compact
    from compaction_tree.extractive import ExtractiveSummarizer
    from compaction_tree.ingest import import_file
    from compaction_tree.vault import Vault

    corpus = generate(21, days=max(1, chunks // 100), chunks_per_day=100, start=date(2023, 1, 2), plant=False)
    vault, _ = Vault.init(work / "vault", "UTC")
    source = work / "chunks.jsonl"
    source.write_text("".join(json.dumps(c) + "\n" for c in corpus.chunks), encoding="utf-8")
    import_file(vault, source)
    last = max(datetime.fromisoformat(str(c["timestamp"])) for c in corpus.chunks)
    compact(vault, ExtractiveSummarizer(vault.config), (last + timedelta(days=1)).astimezone(UTC))
    return vault.root


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vault", type=Path, help="an existing vault (default: build one of --chunks chunks)")
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=9, help="server starts to time")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the queries, after one warm-up pass")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        vault = args.vault
        if vault is None:
            began = time.perf_counter()
            vault = build(Path(scratch), args.chunks)
            print(f"built {args.chunks:,} chunks in {time.perf_counter() - began:.0f} s", file=sys.stderr)
        time_to_initialize(vault)  # the first start compiles bytecode
        starts = [time_to_initialize(vault) for _ in range(args.runs)]
        recalls = recall_timings(vault, args.rounds)
        count = sum(1 for _ in (vault / "raw").rglob("*.json"))
    print(
        f"initialize answered after {statistics.median(starts) * 1000:.0f} ms (median of {len(starts)} starts; "
        f"min {min(starts) * 1000:.0f}, max {max(starts) * 1000:.0f})\n"
        f"recall through the server on {count:,} chunks: median {statistics.median(recalls) * 1000:.0f} ms, "
        f"max {max(recalls) * 1000:.0f} ms ({len(recalls)} calls, budget 5000)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
