"""Does memtree find the evidence within a budget, and is its "no" trustworthy? Measured against BM25.

Run:
  .venv/bin/python bench/eval_memory.py                  # held-out synthetic corpora (split=test)
  .venv/bin/python bench/eval_memory.py --split dev      # the corpora memtree may be tuned on
  .venv/bin/python bench/eval_memory.py --split dev2     # dev's, with the fact statements reworded
  .venv/bin/python bench/eval_memory.py --split fresh    # test's, with the fact statements reworded
  .venv/bin/python bench/eval_memory.py --locomo ../shared/datasets/locomo-dev.json
  .venv/bin/python bench/eval_memory.py --scale 100000   # ROOT.md tokens and recall latency at 100K chunks
  .venv/bin/python bench/eval_memory.py --embeddings     # with recall.embeddings on (bench/minilm.py over HTTP)

Evidence recall: for every question with known evidence chunks, each method builds a context
within a token budget B (2K, 5K, 8K); recall is the share of the evidence chunks whose text
occurs in the context (whitespace collapsed, case folded). Methods: `memtree` (recall within B),
`memtree+root` (ROOT.md plus recall within B minus ROOT.md's tokens: the claimed agent
session), and `bm25` (bench/bm25.py over raw chunks, the same budget and tokenizer).

Awareness: probes are topics that occur in the corpus (present) and that do not (absent_clean:
no word in common; absent_near: some words in common, never the phrase). `know` answers
`memtree know TOPIC`; `root` says known when ROOT.md mentions the topic. Accuracy, the
false-positive rate (absent called known) and the false-negative rate are reported.

Tuning rule: retrieval was tuned on split=dev seeds and on LoCoMo conv-26 only; report split=test
and split=fresh seeds and conv-30 as held out (the fact extractor is tuned on dev, dev2 and test:
eval_facts.py). Output quotes the data only with --details (keep such files out of commits: LoCoMo
is non-commercial research data).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("MEMTREE_NO_PROGRESS", "1")

from bench.bm25 import BM25Baseline  # noqa: E402
from bench.corpus import generate  # noqa: E402
from compaction_tree.compaction import compact  # noqa: E402
from compaction_tree.extractive import ExtractiveSummarizer  # noqa: E402
from compaction_tree.index import Index  # noqa: E402
from compaction_tree.ingest import import_file  # noqa: E402
from compaction_tree.retrieval import know, recall  # noqa: E402
from compaction_tree.root import ROOT_FILE  # noqa: E402
from compaction_tree.text import word_form  # noqa: E402
from compaction_tree.tokens import counter_for, tokenizer_name  # noqa: E402
from compaction_tree.topics import is_generic  # noqa: E402
from compaction_tree.vault import Vault  # noqa: E402

BUDGETS = (2000, 5000, 8000)
# what --scale asks of a large vault (also bench/bench_mcp.py, through the MCP server)
SCALE_QUERIES = [
    "how did we fix the CORS preflight?",
    "what did the doctor say about the knee",
    "refresh token rotation",
    "which hotel did we book in Lisbon",
    "postgres migration failed",
    "weekend hiking plans",
    "why did the deploy fail",
    "birthday gift ideas",
    "stripe webhook signature",
    "the on-call rotation",
]
SPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    return SPACE.sub(" ", text).strip().casefold()


def mentions(text: str, topic: str) -> bool:
    """Whole-word, case-insensitive, singular or plural either way ("setbacks" is mentioned by "setback")."""
    needle = normalize(topic)
    singular = re.sub(r"(?:es|s)$", "", needle) if len(needle) > 3 else needle
    pattern = rf"(?<![a-z0-9])(?:{re.escape(needle)}|{re.escape(singular)})(?:s|es)?(?![a-z0-9])"
    return re.search(pattern, text) is not None


@dataclass
class QA:
    question: str
    category: str
    evidence: tuple[str, ...]


@dataclass
class Dataset:
    name: str
    chunks: list[dict[str, object]]
    questions: list[QA]
    probes: list[tuple[str, str]]  # (topic, label)
    tz: str = "UTC"


@dataclass
class Results:
    recall: dict[tuple[str, int, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    awareness: dict[str, list[tuple[str, bool]]] = field(default_factory=lambda: defaultdict(list))
    timings: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    root_tokens: list[int] = field(default_factory=list)
    build: list[str] = field(default_factory=list)


EMBEDDINGS: list[Any] = []  # --embeddings: bench/minilm.py's server, once started


def build_vault(work: Path, data: Dataset) -> Vault:
    vault, _ = Vault.init(work / f"vault-{data.name}", data.tz)
    if EMBEDDINGS:
        from bench.minilm import embed_recall_of

        embed_recall_of(vault.root, EMBEDDINGS[0])
        vault = Vault.open(vault.root)
    source = work / f"{data.name}.jsonl"
    with source.open("w", encoding="utf-8") as out:
        for chunk in data.chunks:
            out.write(json.dumps(chunk, ensure_ascii=False) + "\n")
    report = import_file(vault, source)
    last = max(datetime.fromisoformat(str(c["timestamp"])) for c in data.chunks)
    now = (last + timedelta(days=1)).astimezone(timezone.utc)  # the last day is closed; its week may not be
    compacted = compact(vault, ExtractiveSummarizer(vault.config), now)
    print(
        f"  {data.name}: {report.added} chunks, {len(compacted.written)} summaries in {compacted.seconds:.1f} s",
        file=sys.stderr,
    )
    return vault


def evaluate(data: Dataset, work: Path, results: Results) -> None:
    vault = build_vault(work, data)
    count = counter_for(vault.config.tokenizer)
    text_of = {str(c["id"]): normalize(str(c["text"])) for c in data.chunks}
    bm25 = BM25Baseline(data.chunks, count)  # type: ignore[arg-type]
    root_text = (vault.root / ROOT_FILE).read_text(encoding="utf-8")
    root_tokens = count(root_text)
    results.root_tokens.append(root_tokens)
    with Index(vault) as index:
        index.sync()
        for qa in data.questions:
            for budget in BUDGETS:
                started = time.perf_counter()
                found = recall(vault, qa.question, budget, index=index)
                results.timings["recall"].append(time.perf_counter() - started)
                if found.notes:  # --embeddings: a run that fell back to words measures nothing
                    raise SystemExit(f"recall: {found.notes[0]}")
                contexts = {
                    "memtree": found.context,
                    "bm25": bm25.retrieve(qa.question, budget)[0],
                    "bm25-session": bm25.retrieve_sessions(qa.question, budget)[0],
                }
                if budget > root_tokens:
                    session = recall(vault, qa.question, budget - root_tokens, index=index)
                    contexts["memtree+root"] = root_text + "\n" + session.context
                for method, context in contexts.items():
                    got = normalize(context)
                    share = sum(text_of[e] in got for e in qa.evidence) / len(qa.evidence)
                    results.recall[(method, budget, qa.category)].append(share)
                    results.recall[(method, budget, "all")].append(share)
        root_norm = normalize(root_text)
        for topic, label in data.probes:
            started = time.perf_counter()
            answer = know(vault, topic, index=index)
            results.timings["know"].append(time.perf_counter() - started)
            results.awareness["know"].append((label, answer.known))
            results.awareness["root"].append((label, mentions(root_norm, topic)))


# ---------------------------------------------------------------- datasets


def synthetic(seed: int, split: str, days: int) -> Dataset:
    corpus = generate(seed, days=days, split=split)
    questions = [QA(q.question, q.category, q.evidence) for q in corpus.questions]
    probes = [(p.topic, p.label) for p in corpus.probes]
    return Dataset(f"{split}-{seed}", corpus.chunks, questions, probes)  # type: ignore[arg-type]


LOCOMO_CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
NAME = re.compile(r"\b[A-Z][a-z]{2,}(?:\s[A-Z][a-z]{2,})?\b")


def locomo(path: Path) -> list[Dataset]:
    """Each LoCoMo conversation as its own memory, read with memtree's own importer."""
    from compaction_tree.importers import ImportRecord, read_records

    raw = json.loads(path.read_text(encoding="utf-8"))
    samples = raw if isinstance(raw, list) else [raw]
    records = [r for r in read_records(path, "locomo") if isinstance(r, ImportRecord)]
    datasets = []
    texts: dict[str, str] = {}
    for sample in samples:
        sample_id = re.sub(r"[^0-9A-Za-z_-]", "-", str(sample["sample_id"]))
        chunks = [dict(r.fields) for r in records if str(r.fields.get("id", "")).startswith(sample_id + "-D")]
        ids = {str(c["id"]) for c in chunks}
        questions = []
        for item in sample.get("qa", []):
            evidence = tuple(
                f"{sample_id}-D{s}-{t}" for s, t in re.findall(r"D:?(\d+):(\d+)", " ".join(item.get("evidence", [])))
            )
            evidence = tuple(dict.fromkeys(e for e in evidence if e in ids))
            if evidence and "question" in item:
                questions.append(
                    QA(str(item["question"]), LOCOMO_CATEGORIES.get(int(item["category"]), "other"), evidence)
                )
        text = normalize(" ".join(str(c["text"]) for c in chunks))
        texts[sample_id] = text
        datasets.append(Dataset(sample_id, chunks, questions, []))
    # probes: names used at least twice and short single-hop answers that occur; absent: the others' probes
    present: dict[str, set[str]] = {}
    for data, sample in zip(datasets, samples, strict=False):
        names = defaultdict(int)
        for chunk in data.chunks:
            for name in NAME.findall(str(chunk["text"])):
                names[name] += 1
        speakers = {str(sample["conversation"].get(k, "")) for k in ("speaker_a", "speaker_b")}
        found = {
            n
            for n, k in names.items()
            if k >= 2 and n not in speakers and not all(is_generic(word_form(w)) for w in n.split())
        }
        for item in sample.get("qa", []):
            answer = str(item.get("answer", ""))
            short = 1 <= len(answer.split()) <= 3 and answer.replace(" ", "").isalpha()
            if item.get("category") in (1, 4) and short and mentions(texts[data.name], answer):
                found.add(answer)
        # a probe must name something: not "Yes", not "And"
        present[data.name] = {t for t in found if not all(is_generic(word_form(w)) for w in t.split())}
    for data in datasets:
        others = sorted({t for name, topics in present.items() if name != data.name for t in topics})
        absent = [t for t in others if not mentions(texts[data.name], t)]
        data.probes = [(t, "present") for t in sorted(present[data.name])]
        data.probes += [
            (t, "absent_near" if any(mentions(texts[data.name], w) for w in t.split()) else "absent_clean")
            for t in absent
        ]
    return datasets


# ---------------------------------------------------------------- scale


def scale(work: Path, chunks: int) -> dict[str, float]:
    """ROOT.md tokens and warm in-process recall latency on a vault of `chunks` chunks."""
    days = max(1, chunks // 100)
    corpus = generate(21, days=days, chunks_per_day=100, start=date(2023, 1, 2), plant=False)
    data = Dataset(f"scale-{chunks}", corpus.chunks, [], [])  # type: ignore[arg-type]
    started = time.perf_counter()
    vault = build_vault(work, data)
    build = time.perf_counter() - started
    count = counter_for(vault.config.tokenizer)
    root_tokens = count((vault.root / ROOT_FILE).read_text(encoding="utf-8"))
    queries = SCALE_QUERIES
    timings = []
    with Index(vault) as index:
        index.sync()
        for query in queries:
            recall(vault, query, 5000, index=index)  # warm caches
        for _ in range(3):
            for query in queries:
                started = time.perf_counter()
                index.sync()  # what every recall does: a chunk added a minute ago must be found
                recall(vault, query, 5000, index=index)
                timings.append(time.perf_counter() - started)
    return {
        "chunks": float(len(corpus.chunks)),
        "root_tokens": float(root_tokens),
        "build_s": build,
        "recall_median_ms": statistics.median(timings) * 1000,
        "recall_max_ms": max(timings) * 1000,
    }


# ---------------------------------------------------------------- report


def awareness_table(results: Results) -> list[str]:
    lines = [f"{'awareness':10} {'probes':>7} {'accuracy':>9} {'FPR':>6} {'FPR near':>9} {'FNR':>6}"]
    for method, predictions in sorted(results.awareness.items()):
        present = [known for label, known in predictions if label == "present"]
        absent = [known for label, known in predictions if label != "present"]
        near = [known for label, known in predictions if label == "absent_near"]
        wrong = sum(not k for k in present) + sum(absent)
        lines.append(
            f"{method:10} {len(predictions):7} {1 - wrong / len(predictions):9.3f} "
            f"{sum(absent) / max(1, len(absent)):6.3f} {sum(near) / max(1, len(near)):9.3f} "
            f"{sum(not k for k in present) / max(1, len(present)):6.3f}"
        )
    return lines


def recall_table(results: Results) -> list[str]:
    """One block per budget: a row per question category, a column per method."""
    categories = [*sorted({c for _, _, c in results.recall if c != "all"}), "all"]
    methods = [m for m in ("memtree", "memtree+root", "bm25", "bm25-session") if any(k[0] == m for k in results.recall)]
    lines = []
    for budget in BUDGETS:
        lines.append(f"{'budget ' + str(budget):17}" + "".join(f" {m:>13}" for m in methods))
        for category in categories:
            cells = []
            for method in methods:
                values = results.recall.get((method, budget, category), [])
                cells.append(f" {statistics.mean(values):13.3f}" if values else f" {'-':>13}")
            n = len(results.recall.get(("memtree", budget, category), []))
            lines.append(f"  {category[:11]:11}{n:4}" + "".join(cells))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test", choices=("dev", "dev2", "dev3", "test", "fresh"))
    parser.add_argument("--seeds", default="2,4", help="comma-separated corpus seeds (default 2,4)")
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument("--locomo", type=Path, help="a LoCoMo-format JSON file instead of the synthetic corpora")
    parser.add_argument("--convs", help="with --locomo: only these sample ids, e.g. conv-30")
    parser.add_argument(
        "--scale", type=int, help="also build a vault of this many chunks: ROOT.md tokens, recall latency"
    )
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    parser.add_argument("--embeddings", action="store_true", help="recall.embeddings on (bench/minilm.py over HTTP)")
    args = parser.parse_args()
    if args.embeddings:
        from bench.minilm import serve

        EMBEDDINGS.append(serve()[0])
    with tempfile.TemporaryDirectory(prefix="memtree-eval-") as scratch:
        return run(args, Path(scratch))


def run(args: argparse.Namespace, work: Path) -> int:
    results = Results()
    if args.locomo:
        datasets = locomo(args.locomo)
        if args.convs:
            wanted = set(args.convs.split(","))
            datasets = [d for d in datasets if d.name in wanted]
    else:
        datasets = [synthetic(int(s), args.split, args.days) for s in args.seeds.split(",")]
    for data in datasets:
        evaluate(data, work, results)
    print(
        f"machine: {os.cpu_count()} cores; tokenizer {tokenizer_name()}; "
        f"datasets: {', '.join(d.name for d in datasets)}"
    )
    print(f"questions: {sum(len(d.questions) for d in datasets)}; ROOT.md tokens: {results.root_tokens}")
    print("\nevidence recall (share of evidence chunks in the context)")
    print("\n".join(recall_table(results)))
    print()
    print("\n".join(awareness_table(results)))
    timing = {k: statistics.median(v) * 1000 for k, v in results.timings.items()}
    print(f"\nmedian in-process latency: recall {timing.get('recall', 0):.1f} ms, know {timing.get('know', 0):.1f} ms")
    figures: dict[str, object] = {
        "datasets": [d.name for d in datasets],
        "recall": {f"{m}@{b}:{c}": statistics.mean(v) for (m, b, c), v in sorted(results.recall.items())},
        "root_tokens": results.root_tokens,
        "latency_ms": timing,
    }
    if args.scale:
        s = scale(work, args.scale)
        figures["scale"] = s
        print(
            f"\nscale: {int(s['chunks']):,} chunks built in {s['build_s']:.0f} s; "
            f"ROOT.md {int(s['root_tokens'])} tokens "
            f"(target <= 3000); warm recall median {s['recall_median_ms']:.0f} ms, max {s['recall_max_ms']:.0f} ms "
            f"(target < 300 ms)"
        )
    if args.out:
        args.out.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
