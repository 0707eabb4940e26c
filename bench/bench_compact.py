"""Compaction cost on a synthetic one-year vault, and LLM concurrency against a local fake server.

Run: .venv/bin/python bench/bench_compact.py [--days 365 --per-day 100] [--llm-days 60] [--repeat 5]

1. A one-year vault of realistic chunks (bench/corpus.py, ~100 a day) is imported, then
   compacted with the extractive summarizer: from scratch, after one new day, and with nothing new
   (--repeat N: N new days and N runs with nothing new, their medians; on a loaded machine one run is noise,
   and the CPU time, the threads' included, says more than the wall time).
2. A smaller vault is compacted through the LiteLLM summarizer against tests/fakellm.py answering
   every call after 200 ms: serially (concurrency 1) and with concurrency 8.
Targets (issue 3): scratch < 60 s, one new day < 2 s, no-op < 1 s, concurrency >= 4x faster.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("LITELLM_MODE", "PRODUCTION")

from bench.corpus import generate  # noqa: E402
from compaction_tree.compaction import compact  # noqa: E402
from compaction_tree.extractive import ExtractiveSummarizer  # noqa: E402
from compaction_tree.ingest import import_file  # noqa: E402
from compaction_tree.llm import LiteLLMSummarizer  # noqa: E402
from compaction_tree.vault import Vault  # noqa: E402

NOW = datetime(2026, 11, 1, tzinfo=timezone.utc)


def write_jsonl(path: Path, chunks: list[dict[str, object]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for chunk in chunks:
            out.write(json.dumps(chunk, ensure_ascii=False) + "\n")


def extractive(work: Path, days: int, per_day: int, repeat: int = 1) -> dict[str, float]:
    corpus = generate(11, days=days, chunks_per_day=per_day, start=date(2025, 1, 6), plant=False)
    source = work / "year.jsonl"
    write_jsonl(source, corpus.chunks)
    vault, _ = Vault.init(work / "year", "UTC")
    started = time.perf_counter()
    imported = import_file(vault, source)
    figures = {"chunks": float(imported.added), "import_s": time.perf_counter() - started}

    cpu = time.process_time()
    report = compact(vault, ExtractiveSummarizer(vault.config), NOW)
    figures["scratch_s"], figures["scratch_cpu"] = report.seconds, time.process_time() - cpu
    figures["summaries"] = float(len(report.written))

    last = max(date.fromisoformat(c["timestamp"][:10]) for c in corpus.chunks)  # type: ignore[index]
    one_day, noop, one_day_cpu, noop_cpu = [], [], [], []
    for n in range(repeat):
        new_day = last + timedelta(days=1 + n)
        extra = generate(12 + n, days=1, chunks_per_day=per_day, start=new_day, plant=False).chunks
        for chunk in extra:
            chunk["id"] = f"n{n}-" + str(chunk["id"])
        source = work / "day.jsonl"
        write_jsonl(source, extra)
        import_file(vault, source)
        cpu = time.process_time()
        report = compact(vault, ExtractiveSummarizer(vault.config), NOW)
        one_day.append(report.seconds)
        one_day_cpu.append(time.process_time() - cpu)
        figures["one_day_written"] = float(len(report.written))

        cpu = time.process_time()
        report = compact(vault, ExtractiveSummarizer(vault.config), NOW)
        noop.append(report.seconds)
        noop_cpu.append(time.process_time() - cpu)
        figures["noop_written"] = float(len(report.written) + int(report.root_changed))
    figures["one_day_s"], figures["noop_s"] = statistics.median(one_day), statistics.median(noop)
    figures["one_day_cpu"], figures["noop_cpu"] = statistics.median(one_day_cpu), statistics.median(noop_cpu)
    return figures


def answer(body: dict[str, object]) -> str:
    data = str(body["messages"][1]["content"])  # type: ignore[index]
    ids = re.findall(r"^\[([^\]]+)\]", data, re.MULTILINE)
    return json.dumps(
        {
            "overview": {"text": "A period of work.", "sources": ids[:1]},
            "decisions": [{"text": "Keep going.", "sources": ids[:2]}],
            "problems": [],
            "pending": [],
            "highlights": [],
            "topics": ["work"],
            "facts": [],
        }
    )


def llm(work: Path, days: int) -> dict[str, float]:
    from fakellm import FakeLLM

    corpus = generate(13, days=days, chunks_per_day=20, start=date(2025, 3, 3), plant=False)
    source = work / "llm.jsonl"
    write_jsonl(source, corpus.chunks)
    figures: dict[str, float] = {}
    with FakeLLM(responder=answer, latency=0.2) as server:
        for concurrency in (1, 8):
            vault, _ = Vault.init(work / f"llm{concurrency}", "UTC")
            text = (vault.root / "memtree.yaml").read_text()
            text = text.replace("api_base: null", f"api_base: {server.base_url}")
            text = text.replace("concurrency: 4", f"concurrency: {concurrency}")
            (vault.root / "memtree.yaml").write_text(text)
            vault = Vault.open(vault.root)
            import_file(vault, source)
            os.environ["OPENAI_API_KEY"] = "not-a-real-key"
            summarizer = LiteLLMSummarizer(vault.config, "openai/bench-model", vault=vault)
            report = compact(vault, summarizer, NOW)
            figures[f"c{concurrency}_s"] = report.seconds
            figures[f"c{concurrency}_calls"] = float(report.calls)
            figures[f"c{concurrency}_failed"] = float(len(report.failed))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--per-day", type=int, default=100)
    parser.add_argument("--llm-days", type=int, default=60, help="0: the extractive year alone")
    parser.add_argument("--repeat", type=int, default=1, help="new days and no-op runs, their medians reported")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="memtree-bench-compact-"))
    try:
        e = extractive(work, args.days, args.per_day, args.repeat)
        m = llm(work, args.llm_days) if args.llm_days > 0 else None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"one-year vault: {int(e['chunks']):,} chunks imported in {e['import_s']:.1f} s")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (wall times on a busy machine: see the CPU times)")
    print(
        f"extractive, from scratch     {e['scratch_s']:6.1f} s  CPU {e['scratch_cpu']:5.1f} s"
        f"  ({int(e['summaries'])} summaries)   target < 60 s: {'met' if e['scratch_s'] < 60 else 'MISSED'}"
    )
    print(
        f"extractive, one new day      {e['one_day_s']:6.2f} s  CPU {e['one_day_cpu']:5.2f} s"
        f"  ({int(e['one_day_written'])} summaries rewritten)   target < 2 s: "
        f"{'met' if e['one_day_s'] < 2 else 'MISSED'}"
    )
    print(
        f"extractive, nothing new      {e['noop_s']:6.2f} s  CPU {e['noop_cpu']:5.2f} s"
        f"  ({int(e['noop_written'])} files written)   target < 1 s: {'met' if e['noop_s'] < 1 else 'MISSED'}"
    )
    if m is None:
        return 0
    speedup = m["c1_s"] / m["c8_s"]
    print(
        f"LLM at 200 ms per call, {int(m['c1_calls'])} calls: serial {m['c1_s']:.1f} s, concurrency 8 {m['c8_s']:.1f} s"
        f" -> {speedup:.1f}x   target >= 4x: {'met' if speedup >= 4 else 'MISSED'}"
        f"  (failed units: {int(m['c1_failed'] + m['c8_failed'])})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
