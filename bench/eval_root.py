"""What ROOT.md names: membench's awareness probes (memtree_root) on LoCoMo dev vaults, with and
without distractors, ROOT.md rendered in process by the code under test.

Run (from the project root):
  .venv/bin/python bench/eval_root.py                      # each dev conversation alone, then both
  .venv/bin/python bench/eval_root.py --noise 14           # both + bench/corpus.py distractors (~125K tokens of them)
  .venv/bin/python bench/eval_root.py --show               # also print the top topics (quotes the data)

Vaults are built once under --work (import + compact by the CLI) and reused: a change to ROOT.md's
ranking is measured without rebuilding; a change to the summaries' topics needs --rebuild.
Present probes are short phrases from a conversation's answers and its recurring names; absent ones
are membench's everyday topics that occur nowhere in the vault (distractors included). shown = the
share of present probes ROOT.md names, fp = the share of absent ones it names; a vault of both
conversations also shows each one's own present probes (tune on conv-26's, report conv-30's untuned).
Never point --data at LoCoMo's held-out conversations (see ../shared/datasets/README.md). Output quotes
no data unless --show.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parents[2] / "shared" / "tools"))

import membench as mb  # noqa: E402

from bench.eval_scale import add_friends_arguments, build, distractors, friends_of  # noqa: E402
from compaction_tree.index import Index  # noqa: E402
from compaction_tree.root import root_text  # noqa: E402


def probes_for(
    locomo: list[mb.Conversation], noise: mb.Conversation | None, seed: int, company: Sequence[mb.Conversation] = ()
) -> list[mb.Probe]:
    """membench's probes for the LoCoMo conversations as one memory; absent ones also absent from the
    distractors (noise, friends' chats)."""
    memory = mb.Memory(locomo, combined=True)
    probes = mb.build_probes(locomo, [memory], 30, seed)
    others = [mb.conversation_text(c) for c in ([noise] if noise else []) + list(company)]
    return [p for p in probes if p.label == "present" or not any(mb.mentions(t, p.topic) for t in others)]


def score(root: str, probes: list[mb.Probe]) -> tuple[int, float, float]:
    text = mb.normalize(root)
    present = [mb.mentions(text, p.topic) for p in probes if p.label == "present"]
    absent = [mb.mentions(text, p.topic) for p in probes if p.label != "present"]
    return len(present), sum(present) / max(1, len(present)), sum(absent) / max(1, len(absent))


def by_conversation(root: str, probes: list[mb.Probe], locomo: list[mb.Conversation]) -> dict[str, float]:
    """Shown share of each conversation's own present probes (tune on one, report the other untuned)."""
    text = mb.normalize(root)
    shares = {}
    for conv in locomo:
        own = mb.topic_candidates(conv)
        hits = [mb.mentions(text, p.topic) for p in probes if p.label == "present" and p.topic in own]
        shares[conv.key] = sum(hits) / max(1, len(hits))
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parents[2] / "shared" / "datasets" / "locomo-dev.json")
    parser.add_argument("--noise", type=int, default=0, help="distractor chunks a day, on average (0: none)")
    add_friends_arguments(parser)
    parser.add_argument("--work", type=Path, default=Path("/tmp/memtree-eval-root"))
    parser.add_argument("--seeds", type=int, default=3, help="probe samples averaged")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--show", action="store_true", help="print ROOT.md's topic lines (quotes the data)")
    args = parser.parse_args()
    convs = mb.load_locomo(args.data)
    sets = [[c] for c in convs] + ([convs] if len(convs) > 1 else [])
    company = friends_of(args, convs)
    if args.noise or company:
        sets = [convs]
    noise = distractors(args.noise) if args.noise else None
    count = mb.TokenCounter("auto", 30)
    print(f"{'vault':28} {'tokens':>8} {'present':>7} {'shown':>6} {'fp':>6} {'root tok':>8}")
    for locomo in sets:
        name = "+".join(c.key for c in locomo) + (f"+noise{args.noise}" if noise else "")
        name += f"+friends{args.pairs}x{args.sessions}" if company else ""
        work = args.work / name
        if args.rebuild and work.exists():
            shutil.rmtree(work)
        memory = mb.Memory(locomo + company + ([noise] if noise else []), combined=True)
        vault, *_ = build(memory, work)
        with Index(vault) as index:
            index.sync()
            root = root_text(vault, index, ())
        shown, fps, n = [], [], 0
        split: dict[str, list[float]] = {c.key: [] for c in locomo}
        for seed in range(args.seeds):
            probes = probes_for(locomo, noise, 13 + seed, company)
            n, s, f = score(root, probes)
            shown.append(s)
            fps.append(f)
            for key, share in by_conversation(root, probes, locomo).items():
                split[key].append(share)
        tokens = sum(count(c.text) for c in memory.chunks)
        per_conv = "  ".join(f"{key} {sum(v) / len(v):.3f}" for key, v in split.items()) if len(locomo) > 1 else ""
        print(
            f"{name:28} {tokens:8,} {n:7} {sum(shown) / len(shown):6.3f} {sum(fps) / len(fps):6.3f} "
            f"{count(root):8}  {per_conv}"
        )
        if args.show:
            print("\n".join(line for line in root.splitlines() if line.startswith("- ") or len(line) > 200))


if __name__ == "__main__":
    main()
