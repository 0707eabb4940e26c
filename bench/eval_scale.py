"""Recall among distractors: LoCoMo dev conversations in one vault with synthetic distractor chunks,
memtree's recall against session-level BM25 in the same run.

Run (from the project root; numpy comes with the dev extras):
  .venv/bin/python bench/eval_scale.py                        # LoCoMo dev alone (~40K tokens)
  .venv/bin/python bench/eval_scale.py --noise 14             # + ~110K tokens of distractors
  .venv/bin/python bench/eval_scale.py --noise 14 --ask conv-26   # questions of one conversation
  .venv/bin/python bench/eval_scale.py --noise 14 --minilm    # + recall given MiniLM's nearest chunks

The data, the baselines (bm25_session: whole sessions by BM25, packed best first) and the scoring
(the share of a question's evidence turns whose text is in the context) are
../shared/tools/membench.py's, imported from there so both count the same way; memtree's recall
is called in process on a vault built once under --work. Distractors are bench/corpus.py's
noise (software, work and personal chat, plant=False) over LoCoMo's dates, --noise chunks a day on
average: they enter the baselines' memory too. Never point --data at LoCoMo's held-out
conversations (see ../shared/datasets/README.md). Output quotes no data.

--minilm adds a column: recall given the chunks nearest each question by bench/minilm.py's embeddings
(standing in for an embedding provider; every chunk is embedded once, ~0.1 s each on a loaded 2-core
machine, cached under --work).

Tuning rule: retrieval's conversation ranking (its weight, and the focus that raises it) was tuned
on conv-26's questions at --noise 14 and on eval_memory.py's synthetic dev split; the
per-conversation rows report conv-30 as the split it was not tuned on. So were the weight and number
of recall's nearest chunks by meaning (--minilm: picked on conv-26 from 0.3/0.6/1.0 x 50/100).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parents[2] / "shared" / "tools"))

import membench as mb  # noqa: E402

from bench.corpus import generate  # noqa: E402
from compaction_tree.index import Index  # noqa: E402
from compaction_tree.retrieval import Nearest, recall  # noqa: E402
from compaction_tree.tokens import bundled_tokenizer_dir  # noqa: E402
from compaction_tree.vault import Vault  # noqa: E402

# membench loads tiktoken itself: from the encodings litellm's wheel carries, as memtree does
os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(bundled_tokenizer_dir() or ""))

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


def distractors(per_day: int) -> mb.Conversation:
    raw = generate(7, days=300, chunks_per_day=(per_day // 2, per_day * 3 // 2), start=date(2023, 1, 1), plant=False)
    sessions: dict[str, int] = {}
    chunks = []
    for seq, record in enumerate(raw.chunks):
        number = sessions.setdefault(record["session"], len(sessions) + 1)
        chunks.append(
            mb.Chunk(
                f"noise:D{number}:{seq}",
                "noise",
                seq,
                number,
                record["timestamp"][:19],
                record["speaker"],
                record["text"],
            )
        )
    dates: dict[int, str] = {}
    for chunk in chunks:
        dates.setdefault(chunk.session, chunk.timestamp)
    return mb.Conversation("noise", "noise", ("user", "assistant"), chunks, dates, [], {})


def build(memory: mb.Memory, work: Path) -> tuple[Vault, float, float]:
    """The vault (built once under work, then reused), seconds to import and to compact it (0 when reused)."""
    vault_dir = work / "vault"
    imported = compacted = 0.0
    if not (vault_dir / "memtree.yaml").exists():
        memtree = [sys.executable, "-m", "compaction_tree", "--vault", str(vault_dir)]
        vault_dir.mkdir(parents=True)
        subprocess.run([*memtree, "init", "--timezone", "UTC"], check=True, capture_output=True)
        records = work / "import.jsonl"
        with records.open("w", encoding="utf-8") as out:
            for c in memory.chunks:
                out.write(
                    json.dumps(
                        {"id": mb.vault_id(c.id), "timestamp": c.timestamp, "speaker": c.speaker, "text": c.text}
                    )
                )
                out.write("\n")
        started = time.perf_counter()
        subprocess.run([*memtree, "import", str(records)], check=True, capture_output=True)
        imported = time.perf_counter() - started
        subprocess.run([*memtree, "compact"], check=True, capture_output=True)
        compacted = time.perf_counter() - started - imported
    return Vault.open(vault_dir), imported, compacted


def minilm_nearest(vault: Vault, work: Path) -> Nearest:
    """The chunks nearest a question by MiniLM embeddings of "speaker: text" (cached in work/minilm.npz)."""
    import numpy as np

    from bench.minilm import embed

    with Index(vault) as index:
        index.sync()
        rows = index.chunks()
    cache = work / "minilm.npz"
    stored = np.load(cache) if cache.exists() else None
    if stored is not None and [str(i) for i in stored["ids"]] == [r.id for r in rows]:
        vectors = stored["vecs"]
    else:
        vectors = np.array([embed(f"{r.speaker}: {r.text}") for r in rows], dtype=np.float32)
        np.savez(cache, ids=np.array([r.id for r in rows]), vecs=vectors)
    ids = [r.id for r in rows]
    of_question = lru_cache(maxsize=8)(lambda q: np.array(embed(q), dtype=np.float32))

    def nearest(query: str, k: int) -> Sequence[tuple[str, float]]:
        similarity = vectors @ of_question(query)
        return [(ids[i], float(similarity[i])) for i in np.argsort(-similarity, kind="stable")[:k]]

    return nearest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parents[2] / "shared" / "datasets" / "locomo-dev.json")
    parser.add_argument("--noise", type=int, default=0, help="distractor chunks a day, on average (0: none)")
    parser.add_argument("--ask", default="", help="ask only this conversation's questions (e.g. conv-26)")
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--budgets", default="2000,5000,8000")
    parser.add_argument("--work", type=Path, help="where the vault is built (kept, and reused when present)")
    parser.add_argument("--minilm", action="store_true", help="also recall given MiniLM's nearest chunks")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    count = mb.TokenCounter("auto", 30)
    convs = mb.load_locomo(args.data)
    if args.noise:
        convs.append(distractors(args.noise))
    memory = mb.Memory(convs, combined=True)
    baseline = mb.MemoryIndex(memory, count)
    work = args.work or Path(f"/tmp/memtree-eval-scale-{args.noise}")
    vault, imported, compacted = build(memory, work)
    tokens = sum(count(c.text) for c in memory.chunks)
    print(f"{len(memory.chunks):,} chunks, {tokens:,} tokens ({count.name})")
    if imported:
        print(f"imported in {imported:.1f} s, compacted in {compacted:.1f} s")
    ask = args.ask.replace("-", "")
    questions = [qa for conv in convs for qa in conv.qa if qa.evidence and (not ask or conv.key == ask)]
    random.Random(1).shuffle(questions)
    questions = questions[: args.questions]
    evidence = {c.id: mb.normalize(c.text) for c in memory.chunks}
    found: dict[tuple[str, int, int | str], list[float]] = defaultdict(list)
    latencies = []
    nearest = minilm_nearest(vault, work) if args.minilm else None
    methods = ["memtree", "bm25_session"] + (["memtree+minilm"] if nearest else [])
    for stale in vault.derived.glob("index.sqlite*"):  # derived: time building it from the files
        stale.unlink()
    with Index(vault) as index:
        started = time.perf_counter()
        index.sync()
        print(f"index built in {time.perf_counter() - started:.1f} s")
        for qa in questions:
            for budget in budgets:
                started = time.perf_counter()
                ours = recall(vault, qa.question, budget, index)
                latencies.append(time.perf_counter() - started)
                theirs = baseline.bm25_session(qa.question, budget)
                contexts = [("memtree", ours.context), ("bm25_session", theirs.context)]
                if nearest:
                    contexts.append(
                        ("memtree+minilm", recall(vault, qa.question, budget, index, False, nearest=nearest).context)
                    )
                for method, context in contexts:
                    score = mb.score_retrieval(qa, mb.Retrieval(context, count(context)), evidence)["recall"]
                    found[(method, budget, 0)].append(score)
                    found[(method, budget, qa.category)].append(score)
                    found[(method, budget, qa.conv)].append(score)
    print(f"{len(questions)} questions; median recall latency {sorted(latencies)[len(latencies) // 2] * 1000:.1f} ms")
    print(f"{'budget':>6} {'category':12} " + " ".join(f"{m:>14}" for m in methods))
    conversations = sorted({qa.conv for qa in questions})
    for budget in budgets:
        for category in (0, *CATEGORIES, *conversations):
            scores = [found[(m, budget, category)] for m in methods]
            if scores[0]:
                name = category if isinstance(category, str) else CATEGORIES.get(category, "all")
                print(f"{budget:>6} {name:12} " + " ".join(f"{sum(s) / len(s):14.3f}" for s in scores))


if __name__ == "__main__":
    main()
