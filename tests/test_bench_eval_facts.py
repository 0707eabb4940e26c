"""eval_facts measures the LLM path too: a model's JSON facts go through the real HTTP client, consolidation and
the store, and are scored as the extractive summarizer's are.

The model here is an oracle served from 127.0.0.1 (tests/fakellm.py): it names the planted facts of the data
lines it is shown, and nothing else. Full marks are then what the pipeline owes it; a wrong source id, date or
supersession anywhere between the answer and facts/ costs a point."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from fakellm import FakeLLM

from bench import corpus as corpus_module
from bench import eval_facts
from compaction_tree.facts.records import Fact, Version
from compaction_tree.summary import FactCandidate

# bench/ scripts on generated corpora: part of the slow set (pytest -m '')
pytestmark = pytest.mark.slow

SEED, SPLIT, DAYS = 101, "test", 30
DATA_LINE = re.compile(r"^\[(?P<id>[^\]\s]+)\] \d\d:\d\d ", re.MULTILINE)  # a chunk's line in a daily prompt


def _key(subject: str) -> str:
    return "_".join(re.findall(r"[a-z0-9]+", subject.lower())[:6])


def oracle(corpus: corpus_module.Corpus, replaces: bool = True) -> Any:
    """replaces: a new value is keyed under another name of its subject ("..._now") and says which subject and
    value it replaces, so that only `replaces` can tell consolidation they are one subject."""
    planted = {chunk: fact for fact in corpus.facts for chunk in fact.stated_in}
    day = {chunk["id"]: chunk["timestamp"][:10] for chunk in corpus.chunks}
    before = {(f.subject, f.superseded_by): f for f in corpus.facts if f.superseded_by}

    def one(fact: corpus_module.PlantedFact, line: str) -> dict[str, Any]:
        old = before.get((fact.subject, fact.value))
        said = {
            "category": fact.category,
            "subject": _key(fact.subject),
            "value": fact.value,
            "fact": f"{fact.subject}: {fact.value}.",
            "confidence": 0.9,
            "valid_from": day[line],
            "sources": [line],
        }
        if old is not None and replaces:
            said["subject"] = _key(fact.subject) + "_now"
            said["fact"] = f"{fact.subject} is now {fact.value}."
            said["replaces"] = {"subject": _key(old.subject), "value": old.value}
        return said

    def answer(body: dict[str, Any]) -> str:
        prompt = body["messages"][-1]["content"]
        facts = [one(fact, line["id"]) for line in DATA_LINE.finditer(prompt) if (fact := planted.get(line["id"]))]
        return json.dumps({"topics": ["work"], "facts": facts})

    return answer


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def test_a_model_that_names_every_planted_fact_scores_full_marks(tmp_path: Path, key: None) -> None:
    corpus = corpus_module.generate(SEED, days=DAYS, split=SPLIT)
    assert any(f.superseded_by for f in corpus.facts), "the test needs a planted change"
    with FakeLLM(responder=oracle(corpus)) as server:
        score = eval_facts.run_seed(SEED, SPLIT, DAYS, tmp_path, "openai/oracle", server.base_url, nightly=True)
        assert server.calls > DAYS  # a call a day at least, and the weeks and months on top
        assert any("Facts stated on earlier days" in r.body["messages"][1]["content"] for r in server.requests)
    assert (score.summarizer, score.failed_units) == ("litellm openai/oracle", 0)
    assert score.recall == 1.0 and score.stored_current == score.planted_current
    assert score.precision_planted_only == 1.0
    assert score.changes and score.changes_handled == score.changes and score.changes_stale == 0
    assert score.misses == {} and score.unhandled_kinds == {}
    replaced = [e for e in audit(tmp_path) if e["rule"] == "names the current value as replaced"]
    assert len(replaced) >= score.changes  # each change superseded through its `replaces`


def audit(workdir: Path) -> list[dict[str, Any]]:
    (path,) = workdir.glob("vault-*/facts/audit.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_days_the_model_fails_are_counted_not_fatal(tmp_path: Path, key: None) -> None:
    with FakeLLM(responder=lambda body: "Sure! Here are the facts you asked for.") as server:  # no JSON
        score = eval_facts.run_seed(SEED, SPLIT, 7, tmp_path, "openai/broken", server.base_url)
        assert server.calls > 0
    assert score.failed_units > 0 and score.stored_current == 0 and score.recall == 0.0
    assert score.misses == {"never extracted": score.planted_current}


def test_the_extractive_run_is_the_default(tmp_path: Path) -> None:
    with FakeLLM() as server:  # nothing may call it
        score = eval_facts.run_seed(SEED, SPLIT, 7, tmp_path)
        assert server.calls == 0
    assert (score.summarizer, score.failed_units) == ("extractive", 0) and score.stored_current > 0
    assert sum(score.misses.values()) == score.planted_current - score.true_positives  # every miss has its kind


def test_nightly_runs_store_what_one_run_stores(tmp_path: Path) -> None:
    (tmp_path / "once").mkdir(), (tmp_path / "nightly").mkdir()
    once = eval_facts.run_seed(SEED, SPLIT, 14, tmp_path / "once")
    nightly = eval_facts.run_seed(SEED, SPLIT, 14, tmp_path / "nightly", nightly=True)
    assert once.stored_current > 0 and once.to_json() | {"seconds_compact": 0, "seconds_rebuild": 0} == (
        nightly.to_json() | {"seconds_compact": 0, "seconds_rebuild": 0}
    )


def test_a_miss_is_put_where_its_chunks_candidates_stopped() -> None:
    planted = corpus_module.PlantedFact("decision", "Atlas hosting", "Fly.io", ("c1", "c2"), date(2026, 3, 2))

    def candidate(fact: str, source: str = "c2", **flags: bool) -> FactCandidate:
        return FactCandidate("decision", "atlas_host", fact, 0.8, "2026-03-02", (source,), **flags)

    def kind(*candidates: FactCandidate) -> str:
        return eval_facts.miss_kind(planted, list(candidates))

    assert kind() == "never extracted"
    assert kind(candidate("Atlas is on Fly.io", source="c9")) == "never extracted"  # another chunk's
    assert kind(candidate("Atlas is on Render")) == "never extracted"  # not the value
    assert kind(candidate("atlas is on fly.io", replaced_only=True)) == "unsure only"
    assert kind(candidate("Atlas moved to Fly.io", change_only=True)) == "change unanchored"
    assert kind(candidate("Atlas is on Fly.io", replaced_only=True), candidate("now Fly.io", change_only=True)) == (
        "change unanchored"
    )
    assert kind(candidate("Atlas runs on Fly.io"), candidate("Fly.io", replaced_only=True)) == "lost in consolidation"


def test_an_unhandled_change_says_which_of_its_values_no_fact_holds() -> None:
    old = corpus_module.PlantedFact("decision", "Atlas hosting", "Heroku", ("c1",), date(2026, 1, 5))
    new = corpus_module.PlantedFact("decision", "Atlas hosting", "Fly.io", ("c2",), date(2026, 3, 2))

    def version(fact: str, source: str) -> Version:
        return Version(fact, "2026-01-05", 0.8, 1, (source,))

    on_heroku, on_fly = version("Atlas is on Heroku", "c1"), version("Atlas moved to Fly.io", "c2")

    def kind(*facts: Fact) -> str:
        return eval_facts.unhandled_kind(list(facts), old, new)

    assert kind() == "both unseen"
    assert kind(Fact("atlas_host", "decision", on_heroku)) == "new unseen"
    assert kind(Fact("atlas_host", "decision", on_fly)) == "old unseen"
    assert kind(Fact("atlas", "decision", on_fly), Fact("atlas_host", "decision", on_heroku)) == "not linked"
    assert kind(Fact("atlas", "decision", on_fly), Fact("x", "decision", version("y", "c9"), (on_heroku,))) == (
        "not linked"  # the old value in another fact's history
    )
    assert kind(Fact("atlas_host", "decision", on_heroku, (on_fly,))) == "new unseen"  # the new value not current


def test_an_old_value_shown_as_current_is_wrong_but_was_right_when_said() -> None:
    heroku = corpus_module.PlantedFact(
        "decision", "Atlas hosting", "Heroku", ("c1",), date(2026, 1, 5), date(2026, 3, 2), "Fly.io"
    )
    fly = corpus_module.PlantedFact("decision", "Atlas hosting", "Fly.io", ("c2",), date(2026, 3, 2))
    corpus = corpus_module.Corpus(chunks=[], facts=[heroku, fly], meta={"templates": {"chunks": {}, "slots": {}}})

    def scored(*facts: Fact) -> eval_facts.Score:
        result = eval_facts.Score(1, "test", 1)
        eval_facts.score(list(facts), [], corpus, result)
        return result

    stale = Fact("atlas_host", "decision", Version("Atlas is on Heroku.", "2026-01-05", 0.8, 1, ("c1",)))
    noise = Fact("knee", "entity", Version("My knee is fine now.", "2026-01-05", 0.8, 1, ("c7",)))
    result = scored(stale, noise)
    assert (result.precision, result.precision_when_said, result.old_values) == (0.0, 0.5, 1)
    assert result.wrong_kinds == {"old value": 1, "noise": 1}
    superseded = Fact("atlas_host", "decision", Version("Atlas moved to Fly.io.", "2026-03-02", 0.8, 1, ("c2",)))
    superseded = Fact(superseded.subject, superseded.category, superseded.current, (stale.current,))
    assert (scored(superseded).precision, scored(superseded).old_values) == (1.0, 0)  # the ledger replaced it
