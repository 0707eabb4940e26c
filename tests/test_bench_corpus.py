"""Invariants of the benchmark corpus generator and of the BM25 baseline.

The label checks here are written independently of the generator's own helpers (plain regexes
over the chunk text), so a bug in the generator's matching shows up as a failure.
"""

from __future__ import annotations

import json
import os
import re
import string
import subprocess
import sys
import time
from dataclasses import asdict
from datetime import date, datetime
from pathlib import Path

import pytest

from bench import corpus
from bench.bm25 import BM25Baseline, approx_tokens

# bench/ scripts on generated corpora: part of the slow set (pytest -m '')
pytestmark = pytest.mark.slow

ID = re.compile(r"^[0-9A-Za-z_-]{1,64}$")
WORD = re.compile(r"[a-z0-9]+")


@pytest.fixture(scope="module")
def dev() -> corpus.Corpus:
    return corpus.generate(1)


@pytest.fixture(scope="module")
def held_out() -> corpus.Corpus:
    return corpus.generate(1, split="test")


@pytest.fixture(scope="module")
def fresh() -> corpus.Corpus:
    return corpus.generate(1, split="fresh")


@pytest.fixture(scope="module")
def dev2() -> corpus.Corpus:
    return corpus.generate(1, split="dev2")


@pytest.fixture(scope="module")
def dev3() -> corpus.Corpus:
    return corpus.generate(1, split="dev3")


def dump(c: corpus.Corpus) -> str:
    records = [
        c.chunks,
        [asdict(q) for q in c.questions],
        [asdict(p) for p in c.probes],
        [asdict(f) for f in c.facts],
        c.meta,
    ]
    return json.dumps(records, default=str, sort_keys=True)


def norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def lines_of(c: corpus.Corpus) -> list[str]:
    return [norm(f"{ch['speaker']}: {ch['text']}") for ch in c.chunks]


def mentioning(lines: list[str], topic: str) -> list[int]:
    """Indexes of lines where topic occurs as whole words (plural s/es allowed), case-insensitively."""
    needle = norm(topic)
    pattern = re.compile(r"(?<![a-z0-9])" + re.escape(needle) + r"(?:s|es)?(?![a-z0-9])")
    return [i for i, line in enumerate(lines) if needle in line and pattern.search(line)]


# ---------------------------------------------------------------- determinism and the chunk contract


def test_same_arguments_same_corpus_and_other_arguments_differ() -> None:
    a = corpus.generate(7, days=30)
    assert dump(a) == dump(corpus.generate(7, days=30))
    assert a.chunks != corpus.generate(8, days=30).chunks
    assert a.chunks != corpus.generate(7, days=30, split="test").chunks


def test_output_does_not_depend_on_hash_seeds() -> None:
    """Set iteration order changes with PYTHONHASHSEED; the corpus must not."""
    script = (
        "import hashlib, json, sys; from dataclasses import asdict; sys.path.insert(0, sys.argv[1]); "
        "import corpus; c = corpus.generate(5, days=20); "
        "records = [c.chunks, [asdict(r) for r in c.questions + c.probes + c.facts], c.meta]; "
        "print(hashlib.sha256(json.dumps(records, default=str, sort_keys=True).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", script, str(Path(__file__).resolve().parents[1] / "bench")],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in ("0", "1", "2")
    }
    assert len(digests) == 1 and len(digests.pop()) == 64


def test_script_writes_the_five_files(tmp_path: Path) -> None:
    assert corpus.main(["--seed", "3", "--days", "10", "--split", "test", "--out", str(tmp_path)]) == 0
    lines = (tmp_path / "chunks.jsonl").read_text(encoding="utf-8").splitlines()
    expected = corpus.generate(3, days=10, split="test")
    assert [json.loads(line) for line in lines] == expected.chunks
    questions = json.loads((tmp_path / "questions.json").read_text(encoding="utf-8"))
    assert [q["id"] for q in questions] == [q.id for q in expected.questions]
    facts = json.loads((tmp_path / "facts.json").read_text(encoding="utf-8"))
    assert len(facts) == len(expected.facts) and all(isinstance(f["valid_from"], str) for f in facts)
    assert len(json.loads((tmp_path / "probes.json").read_text(encoding="utf-8"))) == len(expected.probes)
    assert json.loads((tmp_path / "meta.json").read_text(encoding="utf-8"))["split"] == "test"


def test_chunks_follow_the_jsonl_contract(dev: corpus.Corpus) -> None:
    ids = [c["id"] for c in dev.chunks]
    assert len(set(ids)) == len(ids)
    assert all(ID.match(i) for i in ids)
    assert {c["speaker"] for c in dev.chunks} == {"user", "assistant"}
    assert all(set(c) == {"id", "timestamp", "speaker", "text", "session"} for c in dev.chunks)
    assert all(c["text"].strip() for c in dev.chunks)
    moments = [datetime.fromisoformat(c["timestamp"]) for c in dev.chunks]
    assert all(m.tzinfo is not None for m in moments)
    assert moments == sorted(moments)
    last: dict[str, datetime] = {}
    for c, m in zip(dev.chunks, moments, strict=True):
        assert c["session"] not in last or last[c["session"]] < m, c
        last[c["session"]] = m
    days = {m.date() for m in moments}
    assert min(days) >= date(2025, 1, 6) and max(days) < date(2025, 4, 6)
    assert 40 <= len(days) < 90  # quiet days exist
    lengths = sorted(len(c["text"]) for c in dev.chunks)
    assert lengths[len(lengths) // 2] < 200 and sum(n >= 800 for n in lengths) >= 50  # short turns, long answers


def test_local_time_zone_offsets_follow_daylight_saving() -> None:
    c = corpus.generate(3, days=60, start=date(2025, 3, 1), tz="Europe/Berlin", plant=False)
    offsets = {c["timestamp"][:10]: c["timestamp"][-6:] for c in c.chunks}
    assert {o for d, o in offsets.items() if d < "2025-03-30"} == {"+01:00"}
    assert {o for d, o in offsets.items() if d > "2025-03-30"} == {"+02:00"}
    moments = [datetime.fromisoformat(ch["timestamp"]) for ch in c.chunks]
    assert moments == sorted(moments)


def test_one_year_at_100_per_day_is_fast() -> None:
    began = time.perf_counter()
    c = corpus.generate(1, days=365, chunks_per_day=100, plant=False)
    took = time.perf_counter() - began
    assert 32_000 <= len(c.chunks) <= 41_000
    assert max(ch["timestamp"][11:19] for ch in c.chunks) < "24:00:00"
    assert not c.questions and not c.probes and not c.facts
    assert took < 6.0, f"{len(c.chunks)} chunks took {took:.1f}s"  # ~0.6 s on the dev box; generous


# ---------------------------------------------------------------- questions


def test_questions_have_exact_evidence(dev: corpus.Corpus) -> None:
    by_id = {c["id"]: c for c in dev.chunks}
    counts = {cat: sum(q.category == cat for q in dev.questions) for cat in corpus.CATEGORIES}
    assert sum(counts.values()) >= 150 and min(counts.values()) >= 20, counts
    assert len({q.id for q in dev.questions}) == len(dev.questions)
    for q in dev.questions:
        assert q.evidence and all(e in by_id for e in q.evidence), q
        texts = [by_id[e]["text"].casefold() for e in q.evidence]
        for key in dev.meta["question_keys"][q.id]:
            assert any(key.casefold() in t for t in texts), (q, key)
        assert q.asked_at > max(by_id[e]["timestamp"] for e in q.evidence)
        if q.category in ("single-hop", "update", "paraphrase"):
            assert len(q.evidence) == 1 and q.answer.casefold() in texts[0], q
        elif q.category == "temporal":
            assert q.answer == by_id[q.evidence[0]]["timestamp"][:10], q
        else:
            days = {by_id[e]["timestamp"][:10] for e in q.evidence}
            assert 2 <= len(q.evidence) <= 3 and len(days) == len(q.evidence), q


def test_questions_do_not_copy_their_evidence(dev: corpus.Corpus) -> None:
    by_id = {c["id"]: c for c in dev.chunks}
    for q in dev.questions:
        if q.category not in ("single-hop", "paraphrase"):
            continue
        evidence = norm(by_id[q.evidence[0]]["text"])
        asked = norm(q.question).rstrip("?")
        assert asked not in evidence
        qw, ew = set(WORD.findall(asked)), set(WORD.findall(evidence))
        assert len(qw & ew) / len(qw | ew) < 0.6, q
        if q.category == "paraphrase":  # synonyms: little besides entity names is shared
            shared = (qw & ew) - {"the", "a", "of", "to", "s", "in", "on", "for", "and"}
            assert len(shared) <= 4, (q, shared)


def test_update_questions_point_at_the_latest_value(dev: corpus.Corpus) -> None:
    updates = [q for q in dev.questions if q.category == "update"]
    assert updates
    for q in updates:
        current = [f for f in dev.facts if f.stated_in[0] == q.evidence[0]]
        assert len(current) == 1, q
        fact = current[0]
        assert fact.value == q.answer and fact.superseded_on is None
        older = [f for f in dev.facts if f.subject == fact.subject and f.superseded_by is not None]
        assert older and max(f.superseded_on for f in older if f.superseded_on) == fact.valid_from


# ---------------------------------------------------------------- probes


def test_probe_labels_hold_in_the_text(dev: corpus.Corpus) -> None:
    lines = lines_of(dev)
    words = {w for line in lines for w in WORD.findall(line)}
    by_label = {label: [p.topic for p in dev.probes if p.label == label] for label in corpus.PROBE_LABELS}
    assert all(len(topics) >= 60 for topics in by_label.values()), {k: len(v) for k, v in by_label.items()}
    assert len({t.casefold() for topics in by_label.values() for t in topics}) == len(dev.probes)
    present_counts = {t: len(mentioning(lines, t)) for t in by_label["present"]}
    assert all(present_counts.values()), present_counts
    assert present_counts == dev.meta["probe_mentions"]
    assert sum(n <= 2 for n in present_counts.values()) >= 10  # some mentioned only once or twice
    assert sum(len(t.split()) > 1 for t in by_label["present"]) >= 10  # multi-word
    assert len(dev.meta["present_variants"]) >= 5  # case or number differs from the text
    joined = " ".join(lines)
    for label in ("absent_clean", "absent_near"):
        for topic in by_label[label]:
            assert not mentioning(lines, topic), (label, topic)
            if norm(topic) in joined:  # across lines too, as membench reads the whole memory
                assert not re.search(r"(?<![a-z0-9])" + re.escape(norm(topic)) + r"(?![a-z0-9])", joined), topic
    for topic in by_label["absent_clean"]:
        assert not set(WORD.findall(topic.casefold())) & words, topic
    for topic in by_label["absent_near"]:
        topic_words = WORD.findall(topic.casefold())
        related = [
            v
            for w in topic_words
            for v in words
            if len(v) >= 4 and len(w) >= 4 and (w.startswith(v) or v.startswith(w))
        ]
        assert set(topic_words) & words or related, topic  # "shoe shop" shares "shoe" with "shoes"


# ---------------------------------------------------------------- facts and distractors


def test_facts_and_their_changes(dev: corpus.Corpus) -> None:
    by_id = {c["id"]: c for c in dev.chunks}
    assert {f.category for f in dev.facts} == set(corpus.FACT_CATEGORIES)
    for f in dev.facts:
        assert f.stated_in and all(s in by_id for s in f.stated_in), f
        assert by_id[f.stated_in[0]]["timestamp"][:10] == f.valid_from.isoformat()
        assert all(f.value.casefold() in by_id[s]["text"].casefold() for s in f.stated_in), f
        if f.superseded_on is not None:
            assert f.superseded_on > f.valid_from
            successors = [g for g in dev.facts if g.subject == f.subject and g.valid_from == f.superseded_on]
            assert [g.value for g in successors] == [f.superseded_by], f
    assert sum(f.superseded_on is not None for f in dev.facts) >= 20
    corroborated = [f for f in dev.facts if len({by_id[s]["timestamp"][:10] for s in f.stated_in}) > 1]
    assert len(corroborated) >= 5
    stated = {s for f in dev.facts for s in f.stated_in}
    distractors = dev.meta["distractors"]
    assert {d["kind"] for d in distractors} >= {"hypothetical", "question", "temporary", "rejected"}
    assert all(d["chunk"] in by_id and d["chunk"] not in stated for d in distractors)


# ---------------------------------------------------------------- dev / test split


def test_dev_and_test_use_disjoint_templates_and_entities(dev: corpus.Corpus, held_out: corpus.Corpus) -> None:
    def keys(c: corpus.Corpus) -> set[str]:
        t = c.meta["templates"]
        return set(t["questions"].values()) | set(t["chunks"].values())

    dev_keys, test_keys = keys(dev), keys(held_out)
    assert dev_keys and test_keys and not dev_keys & test_keys
    assert all(int(k.rsplit(".", 1)[1]) % 2 == 0 for k in dev_keys)
    assert all(int(k.rsplit(".", 1)[1]) % 2 == 1 for k in test_keys)
    dev_texts = {corpus.template_text(k) for k in dev_keys}
    assert not dev_texts & {corpus.template_text(k) for k in test_keys}
    for key in dev_keys | test_keys:  # only banks that are split by parity are used
        assert key.rsplit(".", 2)[1] in corpus.SPLIT_BANKS
    dev_words = {w for line in lines_of(dev) for w in WORD.findall(line)}
    test_words = {w for line in lines_of(held_out) for w in WORD.findall(line)}
    for pool in (corpus.PEOPLE, corpus.KIDS, corpus.PROJECTS):
        dev_half, test_half = (set(v.lower() for v in corpus._half(pool, s)) for s in ("dev", "test"))
        assert not dev_half & test_half
        assert not test_half & dev_words and not dev_half & test_words


# ---------------------------------------------------------------- the splits with new wordings: fresh, dev2, dev3
# Each takes the pools and the other banks of a base split, and replaces every fact-bearing bank.
REPLACED_SPLITS = ("fresh", "dev2", "dev3")
BASE = {"fresh": "test", "dev2": "dev", "dev3": "test"}  # the split whose pools and other banks it takes
BASE_FIXTURE = {"test": "held_out", "dev": "dev"}


def _per_bank(split: str, spec: corpus._Spec, bank: str) -> int:
    """Templates in a replaced bank: fresh has as many as the base split's share of the bank, dev2 twice as
    many, dev3 three (four for a distractor)."""
    if split == "dev3":
        return 4 if spec.kind == "distractor" else 3
    return {"fresh": 1, "dev2": 2}[split] * len(corpus._half(getattr(spec, bank), BASE[split]))


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _fills(spec: corpus._Spec, bank: str) -> set[str]:
    """The slots the generator fills for one bank of a spec."""
    names = {part for slot, _ in spec.slots for part in slot.split("+")}
    if spec.kind != "distractor":
        names.add("v")
    if bank == "change":
        names.add("old")
    return names


def _planted_banks(spec: corpus._Spec) -> list[str]:
    return ["state"] if spec.kind == "distractor" else [b for b in ("state", "change", "again") if getattr(spec, b)]


FACT_AND_DISTRACTOR_SPECS = [
    s for s in corpus.ALL_SPECS if (s.kind in ("stable", "change") and s.category) or s.kind == "distractor"
]


def _canon(text: str) -> str:
    return " ".join(WORD.findall(text.casefold()))


def _replaced_templates(split: str) -> list[str]:
    return [t for banks in corpus.REPLACED_BANKS[split].values() for templates in banks.values() for t in templates]


def test_replaced_splits_are_wired() -> None:
    assert set(corpus.REPLACED_BANKS) == set(REPLACED_SPLITS) and set(corpus.SPLITS) >= set(REPLACED_SPLITS)
    assert corpus.REPLACED_BANKS["fresh"] is corpus.FRESH and corpus.REPLACED_BANKS["dev2"] is corpus.DEV2
    assert corpus.REPLACED_BANKS["dev3"] is corpus.DEV3
    assert corpus.FRESH_PREFIX == "fresh_" and corpus.DEV2_PREFIX == "dev2_"
    for split in REPLACED_SPLITS:
        assert corpus.PARITY[split] == corpus.PARITY[BASE[split]]
        assert corpus.BANK_PREFIX[split] == f"{split}_"
    # no prefix is a bank name or starts another: template_text can tell them apart
    prefixes = list(corpus.BANK_PREFIX.values())
    assert not any(a != b and b.startswith(a) for a in prefixes for b in prefixes)
    assert not any(bank.startswith(p) for bank in corpus.SPLIT_BANKS for p in prefixes)


@pytest.mark.parametrize("split", REPLACED_SPLITS)
def test_replaced_banks_cover_every_fact_bank_with_the_same_slots(split: str) -> None:
    replaced = corpus.REPLACED_BANKS[split]
    assert len(FACT_AND_DISTRACTOR_SPECS) == 42
    assert set(replaced) == {s.key for s in FACT_AND_DISTRACTOR_SPECS}
    for spec in FACT_AND_DISTRACTOR_SPECS:
        banks = replaced[spec.key]
        assert sorted(banks) == sorted(_planted_banks(spec)), spec.key
        for bank, templates in banks.items():
            old = getattr(spec, bank)
            assert len(templates) == _per_bank(split, spec, bank), (spec.key, bank)
            # the conventions of the bank: the slots all its templates name, and no slot none of them names
            always = set.intersection(*(_fields(t) for t in old))
            ever = set.union(*(_fields(t) for t in old))
            for template in templates:
                assert always <= _fields(template) <= ever, (split, spec.key, bank, template)
                assert _fields(template) <= _fills(spec, bank), (split, spec.key, bank, template)
                filled = template.format_map({name: f"<{name}>" for name in _fills(spec, bank)})
                assert not re.search(r"[{}]", filled), (split, spec.key, bank, template)
                assert len(template) <= 400 and template == " ".join(template.split()), (split, template)


@pytest.mark.parametrize("split", REPLACED_SPLITS)
def test_replaced_fact_sentences_are_new_wordings(split: str) -> None:
    banks = [b for b in corpus.SPLIT_BANKS if not b.startswith("hop")]
    known = {_canon(t) for s in corpus.ALL_SPECS for b in banks for t in getattr(s, b)}
    known |= {_canon(t) for s in corpus.ALL_SPECS for hop in s.hops for t in hop}
    for other in REPLACED_SPLITS:  # nor do they share a wording with each other
        if other != split:
            known |= {_canon(t) for t in _replaced_templates(other)}
    new = _replaced_templates(split)
    assert len(new) == sum(_per_bank(split, s, b) for s in FACT_AND_DISTRACTOR_SPECS for b in _planted_banks(s))
    assert len(new) == {"fresh": 197, "dev2": 394, "dev3": 293}[split]
    assert len({_canon(t) for t in new}) == len(new)
    assert not {_canon(t) for t in new} & known


@pytest.mark.parametrize("split", REPLACED_SPLITS)
def test_replaced_split_is_its_base_split_with_the_new_banks(split: str, request: pytest.FixtureRequest) -> None:
    c: corpus.Corpus = request.getfixturevalue(split)
    base_split = BASE[split]
    base: corpus.Corpus = request.getfixturevalue(BASE_FIXTURE[base_split])
    prefix = corpus.BANK_PREFIX[split]
    assert c.meta["split"] == split
    assert all(ch["id"].startswith(f"{corpus.ID_PREFIX[split]}1-") for ch in c.chunks)
    assert c.chunks != base.chunks  # seeded by its own name
    for pool in corpus.SPLIT_POOLS.values():
        assert corpus._half(pool, split) == corpus._half(pool, base_split)
    templates = c.meta["templates"]
    chunk_keys = set(templates["chunks"].values())
    replaced = {(s.key, b) for s in FACT_AND_DISTRACTOR_SPECS for b in _planted_banks(s)}
    used = set()
    for key in chunk_keys | set(templates["questions"].values()):
        spec, bank, index = key.rsplit(".", 2)
        assert not any(bank.startswith(p) for s, p in corpus.BANK_PREFIX.items() if s != split), key
        if bank.startswith(prefix):
            bank = bank.removeprefix(prefix)
            assert (spec, bank) in replaced, key
            assert corpus.template_text(key) == corpus.REPLACED_BANKS[split][spec][bank][int(index)]
            used.add(bank)
        else:  # everything else is the base split's half
            assert (spec, bank) not in replaced and bank in corpus.SPLIT_BANKS, key
            assert int(index) % 2 == corpus.PARITY[base_split], key
    assert used == {"state", "change", "again"}
    by_id = {ch["id"]: ch for ch in c.chunks}
    for chunk in templates["chunks"]:  # every slot filled
        assert not re.search(r"\{[A-Za-z_0-9]*\}", by_id[chunk]["text"]), by_id[chunk]["text"]
    stated = {i for f in c.facts for i in f.stated_in}
    assert all(prefix in templates["chunks"][i] for i in stated)
    assert all(prefix in templates["chunks"][d["chunk"]] for d in c.meta["distractors"])


def test_dev2_uses_the_dev_pools(dev2: corpus.Corpus, held_out: corpus.Corpus) -> None:
    dev2_words = {w for line in lines_of(dev2) for w in WORD.findall(line)}
    for pool in (corpus.PEOPLE, corpus.KIDS, corpus.PROJECTS):
        dev_half, test_half = (set(v.lower() for v in corpus._half(pool, s)) for s in ("dev", "test"))
        assert dev_half & dev2_words and not test_half & dev2_words


def test_chunk_ids_of_different_splits_never_collide(dev: corpus.Corpus, dev2: corpus.Corpus) -> None:
    # ids are ID_PREFIX[split] + seed: letters then digits, so distinct letter prefixes never collide
    prefixes = list(corpus.ID_PREFIX.values())
    assert set(corpus.ID_PREFIX) == set(corpus.SPLITS) and len(set(prefixes)) == len(prefixes)
    assert all(p.isalpha() for p in prefixes)
    assert [corpus.ID_PREFIX[s] for s in ("dev", "test", "fresh")] == ["d", "t", "f"]
    ids = {ch["id"] for ch in dev2.chunks} | {q.id for q in dev2.questions}
    assert not ids & ({ch["id"] for ch in dev.chunks} | {q.id for q in dev.questions})
    dev_21 = corpus.generate(21, days=10)  # "d2" + "1" would have collided with dev seed 21
    assert not ids & {ch["id"] for ch in dev_21.chunks}


@pytest.mark.parametrize("split", REPLACED_SPLITS)
def test_replaced_split_keeps_the_invariants_of_the_dev_corpus(split: str, request: pytest.FixtureRequest) -> None:
    c: corpus.Corpus = request.getfixturevalue(split)
    for check in (
        test_chunks_follow_the_jsonl_contract,
        test_questions_have_exact_evidence,
        test_questions_do_not_copy_their_evidence,
        test_update_questions_point_at_the_latest_value,
        test_probe_labels_hold_in_the_text,
        test_facts_and_their_changes,
    ):
        check(c)


@pytest.mark.parametrize("split", REPLACED_SPLITS)
def test_script_takes_the_replaced_splits(split: str, tmp_path: Path) -> None:
    assert corpus.main(["--seed", "3", "--days", "10", "--split", split, "--out", str(tmp_path)]) == 0
    lines = (tmp_path / "chunks.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == corpus.generate(3, days=10, split=split).chunks


# ---------------------------------------------------------------- BM25 baseline


def test_bm25_finds_planted_facts_within_budget(dev: corpus.Corpus) -> None:
    baseline = BM25Baseline(dev.chunks, approx_tokens)
    singles = [q for q in dev.questions if q.category == "single-hop"]
    found = 0
    for q in singles:
        context, ids = baseline.retrieve(q.question, 400)
        assert approx_tokens(context) <= 400
        found += q.evidence[0] in ids
    assert found / len(singles) >= 0.6, found  # ~0.9 measured


def test_bm25_context_is_dated_time_ordered_and_within_budget(dev: corpus.Corpus) -> None:
    def by_words(text: str) -> int:  # not additive over lines, unlike chars / 4
        return len(text.split()) + text.count("\n")

    baseline = BM25Baseline(dev.chunks, by_words)
    by_id = {c["id"]: c for c in dev.chunks}
    for q in dev.questions[:40]:
        for budget in (50, 300, 2000):
            context, ids = baseline.retrieve(q.question, budget)
            assert by_words(context) <= budget
            stamps = [by_id[i]["timestamp"] for i in ids]
            assert stamps == sorted(stamps)
            headers = re.findall(r"^## (\d{4}-\d{2}-\d{2})$", context, re.MULTILINE)
            assert headers == sorted(set(s[:10] for s in stamps))
            for i in ids:
                assert f"{by_id[i]['speaker']}: {by_id[i]['text']}" in context
    assert baseline.retrieve("zzzz unknownword", 1000) == ("", [])
    assert baseline.retrieve(dev.questions[0].question, 0) == ("", [])


def test_bm25_skips_what_does_not_fit_and_keeps_going() -> None:
    chunks = [
        {"id": "a", "timestamp": "2025-01-02T10:00:00+00:00", "speaker": "user", "text": "kiwi " * 200},
        {"id": "b", "timestamp": "2025-01-01T10:00:00+00:00", "speaker": "user", "text": "the kiwi tree"},
        {"id": "c", "timestamp": "2025-01-03T10:00:00+00:00", "speaker": "assistant", "text": "apples only"},
    ]
    baseline = BM25Baseline(chunks, approx_tokens)
    assert baseline.rank("kiwi")[0] == 1  # "a" (time order 1) repeats the term: it ranks first
    context, ids = baseline.retrieve("kiwi", 20)
    assert ids == ["b"] and context == "## 2025-01-01\nuser: the kiwi tree"
    context, ids = baseline.retrieve("kiwi apples", 1000)
    assert ids == ["b", "a", "c"]
    assert context.index("## 2025-01-01") < context.index("## 2025-01-02") < context.index("## 2025-01-03")
