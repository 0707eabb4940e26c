"""Recall among distractors: LoCoMo dev conversations in one vault with distractor conversations,
memtree's recall against BM25 over turns and over sessions in the same run.

Run (from the project root; numpy comes with the dev extras):
  .venv/bin/python bench/eval_scale.py                        # LoCoMo dev alone (~25K tokens)
  .venv/bin/python bench/eval_scale.py --noise 14             # + ~110K tokens of distractors
  .venv/bin/python bench/eval_scale.py --noise 14 --ask conv-26   # questions of one conversation
  .venv/bin/python bench/eval_scale.py --noise 14 --embeddings  # + recall with recall.embeddings (MiniLM)
  .venv/bin/python bench/eval_scale.py --persona-chat DIR       # + 6 pairs of friends chatting (~120K tokens):
      8 two-person conversations in one vault, like LoCoMo's held-out check (bench/persona_chat.py)
  .venv/bin/python bench/eval_scale.py --persona-chat DIR --noise 110   # both: ~1.1M tokens

The data, the baselines (bm25: turns by BM25; bm25_session: whole sessions by BM25, packed best first) and the scoring
(the share of a question's evidence turns whose text is in the context) are
../shared/tools/membench.py's, imported from there so both count the same way; memtree's recall
is called in process on a vault built once under --work. Distractors are bench/corpus.py's
noise (software, work and personal chat, plant=False) over LoCoMo's dates, --noise chunks a day on
average, and with --persona-chat pairs of friends chatting (bench/persona_chat.py), the closer
stand-in for the held-out check's other conversations: they enter the baselines' memory too.
Never point --data at LoCoMo's held-out conversations (see ../shared/datasets/README.md). Output
quotes no data.

--embeddings adds a column: recall with recall.embeddings on, bench/minilm.py's MiniLM served over HTTP
standing in for the provider (memtree's own path: `memtree compact` fills the chunk-vector store through
LiteLLM, recall embeds each question); every text is embedded once, ~0.1 s each on a loaded 2-core machine,
cached under --work.

Tuning rule: retrieval's conversation ranking (its weight, and the focus that raises it) was tuned
on conv-26's questions at --noise 14 and on eval_memory.py's synthetic dev split; the
per-conversation rows report conv-30 as the split it was not tuned on. So were the weight and number
of recall's nearest chunks by meaning (--embeddings: picked on conv-26 from 0.3/0.6/1.0 x 50/100), and
the rule for questions that name a speaker with the number of whole conversations (10, from 3; on
conv-26 among the friends).
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
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parents[2] / "shared" / "tools"))

import membench as mb  # noqa: E402

from bench.corpus import generate  # noqa: E402
from compaction_tree.index import Index  # noqa: E402
from compaction_tree.retrieval import recall  # noqa: E402
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


def add_friends_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--persona-chat",
        type=Path,
        help="folder of Synthetic-Persona-Chat's CSV files: friends' chats as distractors (bench/persona_chat.py)",
    )
    parser.add_argument("--pairs", type=int, default=6, help="pairs of friends (--persona-chat)")
    parser.add_argument("--sessions", type=int, default=30, help="chats of each pair (--persona-chat)")


def friends_of(args: argparse.Namespace, locomo: Sequence[mb.Conversation]) -> list[mb.Conversation]:
    """The distractor friendships --persona-chat asks for (none without it), named apart from locomo's people."""
    if not args.persona_chat:
        return []
    from bench.persona_chat import friends

    return friends(args.persona_chat, args.pairs, args.sessions, avoid={s for c in locomo for s in c.speakers})


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


def with_embeddings(vault: Vault, work: Path) -> tuple[Vault, float]:
    """The vault with recall.embeddings on, served by bench/minilm.py's MiniLM over HTTP (standing in for a
    provider: LiteLLM's embedding() and the chunk-vector store are memtree's own), filled by `memtree compact`;
    the seconds that took. Vectors are cached in work/minilm-cache.npz, so a second run embeds only questions."""
    from bench.minilm import embed_recall_of, serve

    server, cache = serve(0, work / "minilm-cache.npz")
    embed_recall_of(vault.root, server)
    started = time.perf_counter()
    memtree = [sys.executable, "-m", "compaction_tree", "--vault", str(vault.root), "compact"]
    done = subprocess.run(memtree, capture_output=True, text=True)
    filled = time.perf_counter() - started
    cache.save()
    if done.returncode or "warning" in done.stderr:
        raise SystemExit(f"compact with embeddings: {done.stderr.strip()}")
    return Vault.open(vault.root), filled


def nearest_latency(chunks: int, dim: int) -> None:
    """The store's side of recall by meaning at this many chunks (random unit vectors; the question's vector
    given): reading .memtree/chunk-vectors.bin once, then each search (a matrix product and the top 100)."""
    import tempfile

    import numpy as np

    from compaction_tree import embeddings

    with tempfile.TemporaryDirectory(prefix="memtree-nearest-") as scratch:
        vault, _ = Vault.init(Path(scratch) / "vault", "UTC")
        rows = np.random.default_rng(1).standard_normal((chunks, dim), dtype=np.float32)
        ids = tuple(f"{n:016x}" for n in range(chunks))
        stored = embeddings.Stored("bench", ids, ids, embeddings._unit_rows(rows))
        vault.write(embeddings.VECTORS_FILE, embeddings.encode(stored))
        nearest = embeddings.StoredNearest(vault, "bench")
        timings = []
        for n in range(21):
            query = f"question {n}"
            embeddings._queries[("bench", query)] = embeddings._unit_rows(rows[n : n + 1] + 0.5)[0]
            started = time.perf_counter()
            nearest(query, 100)
            timings.append(time.perf_counter() - started)
        size = (vault.root / embeddings.VECTORS_FILE).stat().st_size / 1e6
        print(
            f"{chunks:,} chunks x {dim} ({size:.0f} MB): first search (reads the store) {timings[0] * 1000:.0f} ms, "
            f"then median {median_ms(timings[1:]):.1f} ms"
        )


def median_ms(seconds: Sequence[float]) -> float:
    return sorted(seconds)[len(seconds) // 2] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parents[2] / "shared" / "datasets" / "locomo-dev.json")
    parser.add_argument("--noise", type=int, default=0, help="distractor chunks a day, on average (0: none)")
    add_friends_arguments(parser)
    parser.add_argument("--ask", default="", help="ask only this conversation's questions (e.g. conv-26)")
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--budgets", default="2000,5000,8000")
    parser.add_argument("--work", type=Path, help="where the vault is built (kept, and reused when present)")
    parser.add_argument(
        "--embeddings", action="store_true", help="also recall with recall.embeddings on (MiniLM over HTTP)"
    )
    parser.add_argument("--nearest-at", type=int, help="only time the store's search at this many chunks")
    args = parser.parse_args()
    if args.nearest_at:
        for dim in (384, 1536):  # MiniLM's, and OpenAI's text-embedding-3-small's
            nearest_latency(args.nearest_at, dim)
        return
    budgets = [int(b) for b in args.budgets.split(",")]
    count = mb.TokenCounter("auto", 30)
    convs = mb.load_locomo(args.data)
    convs += friends_of(args, convs)
    if args.noise:
        convs.append(distractors(args.noise))
    memory = mb.Memory(convs, combined=True)
    baseline = mb.MemoryIndex(memory, count)
    company = f"-friends{args.pairs}x{args.sessions}" if args.persona_chat else ""
    work = args.work or Path(f"/tmp/memtree-eval-scale-{args.noise}{company}")
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
    if args.embeddings:
        vault, filled = with_embeddings(vault, work)
        print(f"chunks embedded by `memtree compact` in {filled:.1f} s")
    methods = ["memtree", "bm25", "bm25_session"] + (["memtree+emb"] if args.embeddings else [])
    # the session block: ROOT.md as `memtree root` prints it, then recall in what the budget leaves
    root = subprocess.run(
        [sys.executable, "-m", "compaction_tree", "--vault", str(vault.root), "root"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.rstrip("\n")
    root_tokens = count(root)
    print(f"ROOT.md: {root_tokens:,} tokens")
    methods += ["block"] + (["block+emb"] if args.embeddings else [])
    meaning_latencies = []
    for stale in vault.derived.glob("index.sqlite*"):  # derived: time building it from the files
        stale.unlink()
    with Index(vault) as index:
        started = time.perf_counter()
        index.sync()
        print(f"index built in {time.perf_counter() - started:.1f} s")
        for qa in questions:
            for budget in budgets:
                started = time.perf_counter()
                ours = recall(vault, qa.question, budget, index, meaning=False)
                latencies.append(time.perf_counter() - started)
                theirs = baseline.bm25_session(qa.question, budget)
                turns = baseline.bm25(qa.question, budget)
                contexts = [("memtree", ours.context), ("bm25", turns.context), ("bm25_session", theirs.context)]
                if args.embeddings:
                    started = time.perf_counter()
                    by_meaning = recall(vault, qa.question, budget, index, False)
                    meaning_latencies.append(time.perf_counter() - started)
                    if by_meaning.notes:
                        raise SystemExit(f"recall with embeddings: {by_meaning.notes[0]}")
                    contexts.append(("memtree+emb", by_meaning.context))
                if budget > root_tokens:
                    rest = budget - root_tokens
                    contexts.append(
                        ("block", root + "\n\n" + recall(vault, qa.question, rest, index, meaning=False).context)
                    )
                    if args.embeddings:
                        contexts.append(("block+emb", root + "\n\n" + recall(vault, qa.question, rest, index).context))
                for method, context in contexts:
                    score = mb.score_retrieval(qa, mb.Retrieval(context, count(context)), evidence)["recall"]
                    found[(method, budget, 0)].append(score)
                    found[(method, budget, qa.category)].append(score)
                    found[(method, budget, qa.conv)].append(score)
    print(f"{len(questions)} questions; median recall latency {median_ms(latencies):.1f} ms")
    if meaning_latencies:  # a question's first budget embeds it (one HTTP call to MiniLM); the others reuse it
        first = meaning_latencies[:: len(budgets)]
        print(
            f"with embeddings: median {median_ms(meaning_latencies):.1f} ms, "
            f"{median_ms(first):.1f} ms when it embeds the question"
        )
    print(f"{'budget':>6} {'category':12} " + " ".join(f"{m:>14}" for m in methods))
    conversations = sorted({qa.conv for qa in questions})
    for budget in budgets:
        for category in (0, *CATEGORIES, *conversations):
            scores = [found[(m, budget, category)] for m in methods]
            if scores[0]:
                name = category if isinstance(category, str) else CATEGORIES.get(category, "all")
                cells = (f"{sum(s) / len(s):14.3f}" if s else f"{'-':>14}" for s in scores)
                print(f"{budget:>6} {name:12} " + " ".join(cells))


if __name__ == "__main__":
    main()
