"""The learned fallback behind the frames: what it reads, what it may not, its confidence, and when it is loaded.

How well it does on wordings it never saw is evaluation, not a unit test: bench/eval_phrasings.py."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from compaction_tree import facts
from compaction_tree.compaction import compact
from compaction_tree.config import Config
from compaction_tree.extractive import ExtractiveSummarizer
from compaction_tree.facts import extract_sentence, learned
from compaction_tree.facts.extract import LEARNED_CONFIDENCE
from compaction_tree.facts.store import STANDING_MIN_CONFIDENCE
from compaction_tree.ingest import add
from compaction_tree.vault import Vault

NO_FRAME = "the office wifi password rotates every 90 days"  # a fact no marker or frame reads


@pytest.fixture
def learning(vault: Vault) -> Vault:
    """A vault whose memtree.yaml turns the learned fallback on (it is off by default)."""
    config = vault.root / "memtree.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("learned: false", "learned: true"), encoding="utf-8")
    opened = Vault.open(vault.root)
    assert opened.config.fact_learned
    return opened


def test_the_model_reads_what_no_frame_does_below_the_standing_floor() -> None:
    assert extract_sentence(NO_FRAME, "user", use_model=False) is None
    found = extract_sentence(NO_FRAME, "user")
    assert found is not None and found.cue == "learned"
    assert (found.fact, found.subject) == ("The office wifi password rotates every 90 days.", "office_wifi_password")
    # shown by facts, know and recall, but not a standing fact until it is said again (noisy-or: 0.88)
    assert Config().fact_min_confidence <= found.confidence == LEARNED_CONFIDENCE < STANDING_MIN_CONFIDENCE
    assert 1 - (1 - LEARNED_CONFIDENCE) ** 2 >= STANDING_MIN_CONFIDENCE


def test_a_frame_keeps_its_reading_and_confidence() -> None:
    found = extract_sentence("We decided to use PostgreSQL for the database.", "user")
    assert found is not None and found.cue == "decided" and found.confidence > LEARNED_CONFIDENCE


@pytest.mark.parametrize(
    "sentence",
    [
        "does the office wifi password rotate every 90 days?",  # a question
        "if the office wifi password rotates every 90 days we should automate it",  # a hypothetical
        "let me check whether the office wifi password rotates every 90 days",  # narration
        "the office wifi password rotates every 90 days for now",  # a moment
        "office_wifi_password_rotation_days = 90",  # pasted configuration
    ],
)
def test_the_gates_stand_before_the_model(sentence: str) -> None:
    assert extract_sentence(sentence, "user") is None


@pytest.mark.parametrize("sentence", ["our sprint board is all over the place", "Priya's desk is always messy"])
def test_a_value_a_frame_judged_no_fact_is_not_asked_of_the_model(sentence: str) -> None:
    assert extract_sentence(sentence, "user", use_model=False) is None  # "my X is Y", Y describing X
    assert extract_sentence(sentence, "user") is None


def test_the_agent_s_words_are_never_read_by_the_model() -> None:
    assert extract_sentence(NO_FRAME, "assistant") is None


def test_a_sentence_the_model_doubts_is_no_fact() -> None:
    heads, _ = learned.model()
    assert extract_sentence(NO_FRAME, "user", weights=(heads, 1.01)) is None  # above any probability


def test_the_model_file_parses_to_heads_and_a_threshold() -> None:
    heads, threshold = learned.parse("# comment\nfact\t#threshold\t0.9\nfact\tw:wifi\t1.5\ndecision\tw:wifi\t-0.2\n")
    assert threshold == 0.9 and heads == {"fact": {"w:wifi": 1.5}, "decision": {"w:wifi": -0.2}}
    assert learned.opinion("the wifi", (heads, 0.9)).category == "decision"


@pytest.mark.slow
def test_the_committed_model_is_what_the_dev_sets_train() -> None:
    import bench.train_fact_model as train

    text = train.build()
    assert text == train.OUT.read_text(encoding="utf-8")  # same material, same bytes
    assert "holdout" not in text.splitlines()[1]


PROBE = """
import sys
sys.argv = {argv!r}
from compaction_tree.cli import main
try:
    main()
except SystemExit:
    pass
model = sys.modules.get("compaction_tree.facts.learned")
sys.stderr.write("LOADED=" + str(bool(model and model.model.cache_info().currsize)) + "\\n")
"""


def model_loaded(*argv: str) -> bool:
    code = PROBE.format(argv=["memtree", *argv])
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=os.environ)
    return next(line for line in proc.stderr.splitlines() if line.startswith("LOADED=")) == "LOADED=True"


def test_the_model_is_loaded_only_when_a_day_is_extracted(learning: Vault) -> None:
    root = str(learning.root)
    assert not model_loaded("--vault", root, "add", NO_FRAME, "--timestamp", "2025-03-03T10:00:00+00:00")
    assert model_loaded("--vault", root, "compact")  # the day is read: the model is asked
    assert not model_loaded("--vault", root, "compact")  # nothing new: nothing read


@pytest.mark.parametrize(
    "sentence",
    [
        "Deployed the office wifi. the password rotates every 90 days.",  # several statements the splitter left whole
        "the office wifi password rotates every 90 days, see:",  # what leads into a paste
    ],
)
def test_the_model_reads_one_statement_at_a_time(sentence: str) -> None:
    assert extract_sentence(sentence, "user") is None


def test_the_model_s_statement_says_what_it_is_about() -> None:
    assert extract_sentence("They rotate every 90 days, the office wifi passwords.", "user") is None
    assert extract_sentence("It's the office wifi password, it rotates every 90 days.", "user") is None


def test_by_default_the_model_is_neither_loaded_nor_read(vault: Vault) -> None:
    root = str(vault.root)
    add(vault, NO_FRAME, timestamp="2025-03-03T10:00:00+00:00")
    add(vault, "We decided to use PostgreSQL for the database.", timestamp="2025-03-03T10:05:00+00:00")
    assert not model_loaded("--vault", root, "compact")
    assert [fact.subject for fact in facts.load_facts(vault)] == ["database"]  # the frame's fact alone


def test_turning_the_model_on_rereads_the_days_facts_only(vault: Vault, learning: Vault) -> None:
    now = datetime(2025, 3, 12, tzinfo=UTC)
    add(vault, NO_FRAME, timestamp="2025-03-03T10:00:00+00:00")
    compact(vault, ExtractiveSummarizer(vault.config), now=now)
    summaries = sorted(p.read_bytes() for p in (vault.root / "daily").rglob("*.md"))
    assert facts.get_fact(vault, "office_wifi_password") is None
    compact(learning, ExtractiveSummarizer(learning.config), now=now)
    assert facts.get_fact(learning, "office_wifi_password") is not None
    assert sorted(p.read_bytes() for p in (vault.root / "daily").rglob("*.md")) == summaries


def test_a_model_fact_stands_in_root_only_once_said_again(learning: Vault) -> None:
    vault = learning
    now = datetime(2025, 3, 12, tzinfo=UTC)
    add(vault, "The office wifi password rotates every 90 days.", timestamp="2025-03-03T10:00:00+00:00")
    compact(vault, ExtractiveSummarizer(vault.config), now=now)
    once = facts.get_fact(vault, "office_wifi_password")
    assert once is not None and once.current.confidence == LEARNED_CONFIDENCE  # in facts, know and recall
    assert facts.standing_fact_lines(vault) == ()
    add(vault, "The office wifi password rotates every 90 days.", timestamp="2025-03-05T10:00:00+00:00")
    compact(vault, ExtractiveSummarizer(vault.config), now=now)
    (line,) = facts.standing_fact_lines(vault)  # corroborated: sure enough to stand
    assert line.startswith("- **office_wifi_password**: The office wifi password rotates every 90 days.")
