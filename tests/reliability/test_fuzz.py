"""C7: the code that reads vault files, fuzzed from the seeds docs/RELIABILITY.md names (conflict markers,
a BOM, NaN, duplicate keys, deep nesting, lone surrogates, invalid UTF-8, an empty file) plus a
valid file of each kind: by atheris (coverage-guided, atheris_targets.py, in a child process) and by
Hypothesis (structure-unaware, everywhere atheris has no wheel). Targets: the raw-chunk loader, the
summary front-matter parser, ROOT.md's input-hash reader, the id check (memtree has no slugifier:
topics never become file names), the redactor, and memtree.yaml and facts/ readers. The only
exception allowed is VaultFormatError (ConfigError for memtree.yaml)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import subprocess
import sys
from datetime import date, datetime, timezone
from pathlib import Path

import pytest
from helpers import tally
from hypothesis import given, settings
from hypothesis import strategies as st

from compaction_tree.errors import VaultFormatError
from compaction_tree.markdown import parse_summary
from compaction_tree.model import valid_id
from compaction_tree.redact import redact
from compaction_tree.root import recorded_input_hash
from compaction_tree.vault import decode_chunk

from .faults import SLOW
from .fuzz_targets import TARGETS

SEEDS = [
    b"<<<<<<< HEAD\n",
    b"\n=======\n",
    b">>>>>>> b\n",
    b"\xef\xbb\xbf",
    b"NaN",
    b"Infinity",
    b'{"id": "a", "id": "b"}',
    b"[" * 1000,
    b"{" * 1000,
    b'"\\ud800"',
    b"\xff\xfe",
    b"",
    b"---\n",
    b"level: daily\n",
    b"input_hash: x\n",
    b"!!python/object/apply:os.system ['id']",
    b"&a [*a, *a]",
    b"- text [id1, id2]\n",
    b"## Overview\n",
    b'{"id": "x", "timestamp": "2026-03-02T10:00:00+00:00", "speaker": "u", "text": "t"}',
    b" " * 1000,
]
blobs = st.lists(st.one_of(st.sampled_from(SEEDS), st.binary(max_size=40)), max_size=12).map(b"".join)
EXAMPLES = 5_000 if SLOW else 300


@settings(max_examples=EXAMPLES, deadline=None)
@given(blobs)
def test_c7_raw_chunk_loader(data: bytes) -> None:
    tally("C7 Hypothesis fuzz examples")
    with contextlib.suppress(VaultFormatError):
        decode_chunk(data, "fuzz.json")


@settings(max_examples=EXAMPLES, deadline=None)
@given(blobs)
def test_c7_summary_parser_and_root_reader(data: bytes) -> None:
    tally("C7 Hypothesis fuzz examples")
    text = data.decode("utf-8", "replace")
    for candidate in (text, "---\n" + text, "---\nlevel: daily\ninput_hash: h\n" + text + "\n---\n" + text):
        with contextlib.suppress(VaultFormatError):
            parse_summary(candidate, "daily", "2026-03-02", "fuzz.md")
        recorded_input_hash(candidate)


@settings(max_examples=EXAMPLES, deadline=None)
@given(blobs)
def test_c7_fact_candidates_reader(data: bytes) -> None:
    """A facts/candidates/ month file out of shape (a merge conflict, a hand edit) loses its bad lines, nothing more."""
    from compaction_tree.facts.candidates import parse_month

    tally("C7 Hypothesis fuzz examples")
    text = data.decode("utf-8", "replace")
    line = '{"day": "2026-03-02", "input": "h", "backend": "extractive", "extractor": "x", "facts": [%s]}'
    for candidate in (text, line % text, text + "\n" + line % ""):
        parse_month(candidate)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(max_size=80), blobs)
def test_c7_id_check_and_redactor(text: str, data: bytes) -> None:
    tally("C7 Hypothesis fuzz examples")
    valid_id(text)
    redact(text + data.decode("utf-8", "replace"))


# ---------------------------------------------------------------- atheris

DEEP = [b"[" * 100_000, b"{" * 100_000, b'{"a": ' * 50_000, b"- " * 50_000, b"&a [" * 20_000]
# fast profile: 3,000 executions per target; slow: a million or two minutes, whichever comes first (the
# YAML readers run a few hundred inputs a second once the corpus holds 16 KB documents);
# MEMTREE_FUZZ_SECONDS=600 is the nightly budget of docs/RELIABILITY.md
SECONDS = int(os.environ.get("MEMTREE_FUZZ_SECONDS", "0")) or (120 if SLOW else 0)
RUNS = 1_000_000 if SECONDS else 3_000
needs_atheris = pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris has no wheel here")


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The named seeds, full size, and one valid file of every kind a small compacted vault holds."""
    from test_compaction import fill

    from compaction_tree.compaction import compact
    from compaction_tree.extractive import ExtractiveSummarizer
    from compaction_tree.ingest import add
    from compaction_tree.vault import Vault

    folder = tmp_path_factory.mktemp("seeds")
    for n, seed in enumerate(SEEDS + DEEP):
        (folder / f"seed-{n}").write_bytes(seed)
    vault, _ = Vault.init(tmp_path_factory.mktemp("seed-vault") / "v", "UTC")
    fill(vault, date(2026, 3, 2), 14, 5)
    add(vault, "We decided to use Stripe for the billing page.", timestamp="2026-03-04T12:00:00Z")
    add(vault, "We switched the billing page to Adyen instead.", timestamp="2026-03-10T12:00:00Z")
    compact(vault, ExtractiveSummarizer(vault.config), datetime(2026, 4, 20, tzinfo=timezone.utc))
    valid = [next(vault.raw_files()).path, *sorted(vault.root.glob("*ly/*.md"))[:3], vault.root / "ROOT.md"]
    valid += [vault.root / "memtree.yaml", *sorted(p for p in (vault.root / "facts").rglob("*") if p.is_file())]
    for path in valid:
        (folder / f"valid-{path.name}").write_bytes(path.read_bytes())
    return folder


def test_c7_a_deeply_nested_audit_line_is_skipped() -> None:
    """Found by atheris: json's RecursionError on such a line escaped parse_audit (`memtree facts log`
    ended in a traceback). Fixed on main meanwhile; kept as a regression test."""
    from compaction_tree.facts.records import parse_audit

    good = '{"id": "a1", "date": "2026-03-02", "kind": "merge", "rule": "r", "subject": "s", "category": "decision",'
    good += ' "old": "o", "new": "n", "sources": ["x"], "reversed_by": null}'
    assert [e.id for e in parse_audit("[" * 5000 + "\n" + good + "\n")] == ["a1"]


@pytest.mark.parametrize("target", TARGETS)
def test_c7_every_seed_at_full_size(seeds: Path, target: str) -> None:
    """The seeds as they are (the fuzzer's inputs are capped at 16 KB; these go to 100,000 levels deep)."""
    for seed in sorted(seeds.iterdir()):
        TARGETS[target](seed.read_bytes())


@needs_atheris
@pytest.mark.parametrize("target", TARGETS)
def test_c7_atheris(seeds: Path, tmp_path: Path, target: str) -> None:
    corpus, crashes = tmp_path / "corpus", tmp_path / "crashes"
    corpus.mkdir()
    crashes.mkdir()
    budget = [f"-runs={RUNS}", *([f"-max_total_time={SECONDS}"] if SECONDS else [])]
    script = Path(__file__).with_name("atheris_targets.py")
    flags = [*budget, "-seed=1", "-max_len=16384", "-timeout=30", f"-artifact_prefix={crashes}/"]
    done = subprocess.run(
        [sys.executable, str(script), target, *flags, str(corpus), str(seeds)],
        capture_output=True,
        text=True,
        timeout=SECONDS + 3600,
    )
    log = done.stderr
    found = sorted(p.name for p in crashes.iterdir())
    assert done.returncode == 0 and not found, f"{target}: {found}\n{log[-3000:]}"
    executions = int(log.rsplit("Done ", 1)[1].split(" runs", 1)[0])
    tally("C7 atheris executions (8 targets)", executions)
    assert executions >= (1_000 if SECONDS else RUNS)
