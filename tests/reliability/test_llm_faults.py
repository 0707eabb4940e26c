"""LLM calls (docs/RELIABILITY.md L1-L10, C6) beyond tests/test_llm.py: every LiteLLM exception class,
the attempt cap, cache keys and corrupt cache files, partial failure, hostile and broken answers,
the split depth limit, the budget message, and prompts independent of directory order."""

from __future__ import annotations

import json
import os
import random
import re
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest
from fakellm import FakeLLM, context_window_error, ok, reply_json
from helpers import memtree, snapshot, tally
from test_llm import Clock, answer, configure, populate, summarizer

from compaction_tree import llm as llm_module
from compaction_tree.compaction import compact
from compaction_tree.errors import LLMError
from compaction_tree.ingest import add
from compaction_tree.llm import MAX_ATTEMPTS, MAX_REASKS, LiteLLMSummarizer, classify
from compaction_tree.summarizers import Limits
from compaction_tree.vault import Vault

from .invariants import check_loads, files

NOW = datetime(2026, 4, 20, tzinfo=timezone.utc)
DATA_ID = re.compile(r"^\[([^\]]+)\]", re.MULTILINE)


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def summaries(root: Path) -> dict[str, str]:
    return {p: h for p, h in snapshot(root).items() if p.split("/")[0] in ("daily", "weekly", "monthly")}


def litellm_exception(name: str, status_code: int | None = None) -> BaseException:
    import litellm

    cls = getattr(litellm.exceptions, name)
    code = status_code or STATUS.get(name, 500)
    response = httpx.Response(code, request=httpx.Request("POST", "http://127.0.0.1/v1"))
    kwargs: dict[str, Any] = {"message": f"stub {name}", "model": "fake", "llm_provider": "openai"}
    params = cls.__init__.__code__.co_varnames
    if "response" in params:
        kwargs["response"] = response
    if "status_code" in params and name in ("APIError", "UnsupportedParamsError"):
        kwargs["status_code"] = code
    if "request" in params and name in ("APIConnectionError", "APIError"):
        kwargs["request"] = response.request
    if name == "BudgetExceededError":
        kwargs = {"current_cost": 2.0, "max_budget": 1.0}
    return cls(**kwargs)  # type: ignore[no-any-return]


STATUS = {
    "BadRequestError": 400,
    "ContentPolicyViolationError": 400,
    "ContextWindowExceededError": 400,
    "AuthenticationError": 401,
    "PaymentRequiredError": 402,
    "PermissionDeniedError": 403,
    "NotFoundError": 404,
    "Timeout": 408,
    "UnprocessableEntityError": 422,
    "RateLimitError": 429,
    "InternalServerError": 500,
    "BadGatewayError": 502,
    "ServiceUnavailableError": 503,
}

# name -> what memtree must do: retry it, split the input, fail the unit, or stop the run (fatal)
TABLE = {
    "Timeout": "retry",
    "APIConnectionError": "retry",
    "RateLimitError": "retry",
    "InternalServerError": "retry",
    "ServiceUnavailableError": "retry",
    "BadGatewayError": "retry",
    "ContextWindowExceededError": "split",
    "ContentPolicyViolationError": "fail",
    "BadRequestError": "fail",
    "UnprocessableEntityError": "fail",
    "AuthenticationError": "fatal",
    "PermissionDeniedError": "fatal",
    "NotFoundError": "fatal",
    "PaymentRequiredError": "fatal",
    "BudgetExceededError": "fatal",
}


@pytest.mark.parametrize("name", sorted(TABLE))
def test_l3_the_classification_of_every_litellm_exception(name: str) -> None:
    assert classify(litellm_exception(name)) == TABLE[name]


@pytest.mark.parametrize(
    ("code", "verdict"),
    [
        (408, "retry"),
        (409, "retry"),
        (429, "retry"),
        (500, "retry"),
        (502, "retry"),
        (503, "retry"),
        (504, "retry"),
        (529, "retry"),
        (400, "fail"),
        (422, "fail"),
        (401, "fatal"),
        (403, "fatal"),
        (404, "fatal"),
        (402, "fatal"),
    ],
)
def test_l3_the_classification_by_status(code: int, verdict: str) -> None:
    assert classify(litellm_exception("APIError", code)) == verdict


def stub_completion(monkeypatch: pytest.MonkeyPatch, behave: Any) -> list[dict[str, Any]]:
    """Replaces litellm.completion: behave(kwargs) returns a content string or raises."""
    import litellm

    calls: list[dict[str, Any]] = []
    real = litellm.completion

    def completion(**kwargs: Any) -> Any:
        calls.append(kwargs)
        content = behave(kwargs)
        return real(model=kwargs["model"], messages=kwargs["messages"], mock_response=content)

    monkeypatch.setattr(litellm, "completion", completion)
    return calls


def raises(name: str) -> Any:
    def behave(kwargs: dict[str, Any]) -> str:
        raise litellm_exception(name)

    return behave


@pytest.mark.parametrize("name", sorted(TABLE))
def test_c6_l3_each_exception_class_writes_nothing_and_retries_only_what_it_should(
    vault: Vault, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    populate(vault, days=1)
    calls = stub_completion(monkeypatch, raises(name))
    clock = Clock()
    summaries_before = summaries(vault.root)
    verdict = TABLE[name]
    if verdict == "fatal":
        with pytest.raises(LLMError):
            compact(vault, summarizer(vault, clock), NOW)
    else:
        report = compact(vault, summarizer(vault, clock), NOW)
        assert [unit for unit, _ in report.failed] == ["daily/2026-03-02.md"]
    assert summaries(vault.root) == summaries_before  # no summary from a failed call
    if verdict == "split":  # halves, down to single chunks, within the depth limit: then the unit fails
        assert 1 < len(calls) <= 2 ** (llm_module.MAX_SPLIT_DEPTH + 1)
    else:
        assert len(calls) == {"retry": MAX_ATTEMPTS, "fail": 1, "fatal": 1}[verdict] and MAX_ATTEMPTS <= 6
    assert all(c["timeout"] == vault.config.summarizer.timeout and c["num_retries"] == 0 for c in calls)  # L1
    if verdict == "retry":
        assert len(clock.sleeps) == MAX_ATTEMPTS - 1
    tally("C6 LiteLLM exception classes raised by a stub")


# ---------------------------------------------------------------- C6, L7: broken and hostile answers

BAD_ANSWERS = {
    "empty": "",
    "whitespace": " \n\t ",
    "truncated": '{"overview": {"text": "A day of work", "sources": [',
    "not json": "Sure! Here is the summary you asked for.",
    "a list": "[1, 2, 3]",
    "nan": '{"overview": {"text": NaN, "sources": ["x"]}}',
    "unknown id": json.dumps({"overview": {"text": "ok", "sources": ["0000000000000000"]}}),
    "path as id": json.dumps({"decisions": [{"text": "ok", "sources": ["../../etc/passwd"]}]}),
    "1 MB": json.dumps({"overview": {"text": "x" * 1_000_000, "sources": []}}),
    "lone surrogate": '{"overview": {"text": "bad \\ud800 text", "sources": ["ID"]}, "topics": ["\\udfff"]}',
    "deep": "[" * 100_000 + "]" * 100_000,
    "whitespace bomb": '{"overview": ' + " " * 199_000 + "oops",
    "fence bomb": "```" + " " * 199_000 + "x",
}


@pytest.mark.parametrize("kind", sorted(BAD_ANSWERS))
def test_c6_l7_no_summary_is_written_from_an_invalid_answer(vault: Vault, kind: str) -> None:
    populate(vault, days=1)
    chunk_id = next(vault.raw_files()).id

    def responder(body: dict[str, Any]) -> str:
        return BAD_ANSWERS[kind].replace('"ID"', json.dumps(chunk_id))

    with FakeLLM(responder=responder) as server:
        configured = configure(vault, server)
        started = time.monotonic()
        report = compact(configured, summarizer(configured), NOW)
        assert time.monotonic() - started < 20  # a hostile answer costs no super-linear parsing
        assert [unit for unit, _ in report.failed] == ["daily/2026-03-02.md"], report.failed
        assert server.calls == 1 + MAX_REASKS
        assert summaries(configured.root) == {}
        check_loads(configured.root)
        tally("C6/L7 invalid or hostile answers from the local server")


def test_c6_a_non_utf8_body_fails_the_unit_cleanly(vault: Vault) -> None:
    populate(vault, days=1)
    from fakellm import malformed

    with FakeLLM(responder=lambda body: malformed(b'{"choices": [{"message": {"content": "\xff\xfe"}}]}')) as server:
        configured = configure(vault, server)
        report = compact(configured, summarizer(configured), NOW)
        assert report.failed and summaries(configured.root) == {}


def test_c6_an_empty_choices_list_or_null_content(vault: Vault) -> None:
    populate(vault, days=1)
    with FakeLLM(responder=answer) as server:
        configured = configure(vault, server)
        server.push(reply_json({"id": "x", "object": "chat.completion", "choices": []}), ok(None), ok(None))
        report = compact(configured, summarizer(configured), NOW)
        assert [unit for unit, _ in report.failed] == ["daily/2026-03-02.md"]
        assert not (configured.root / "daily").exists()


# ---------------------------------------------------------------- L2: a hang, and the other units


def test_l2_a_hung_call_fails_its_unit_and_the_others_still_run(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    from fakellm import hang

    monkeypatch.setattr(llm_module, "MAX_ATTEMPTS", 1)
    populate(vault, days=3)
    with FakeLLM(responder=answer) as server:
        configured = configure(vault, server, timeout=1, concurrency=1)
        server.push(hang())
        started = time.monotonic()
        report = compact(configured, summarizer(configured), NOW)
        assert time.monotonic() - started < 1 * 1 + 5 + 5
        assert [unit for unit, _ in report.failed] == ["daily/2026-03-02.md"]
        assert sorted(p.name for p in (configured.root / "daily").iterdir()) == ["2026-03-03.md", "2026-03-04.md"]
    with configured.lock() as free:
        assert free


def test_l2_retrying_stops_at_the_unit_deadline(vault: Vault) -> None:
    """docs/RELIABILITY.md 5.2: total wall time per unit <= 10 min. A server that keeps asking for 400 s
    waits gets one retry; a second wait would pass the deadline, so the unit fails there."""
    from fakellm import status

    populate(vault, days=1)
    clock = Clock()
    with FakeLLM(responder=lambda body: status(429, headers={"Retry-After": "400"})) as server:
        configured = configure(vault, server)
        report = compact(configured, summarizer(configured, clock), NOW)
        assert [unit for unit, _ in report.failed] == ["daily/2026-03-02.md"]
        assert "gave up retrying" in report.failed[0][1]
        assert server.calls == 2 and clock.sleeps == [400.0] and sum(clock.sleeps) <= llm_module.UNIT_DEADLINE


# ---------------------------------------------------------------- L4, L5: the cache


def cache_keys(vault: Vault, model: str = "openai/fake-model", **config: Any) -> set[str]:
    with FakeLLM(responder=answer) as server:
        configured = configure(vault, server, **config)
        compact(configured, LiteLLMSummarizer(configured.config, model, vault=configured, sleep=Clock().sleep), NOW)
    keys = {p.name for p in (vault.root / ".memtree/cache").glob("*.json")}
    for level in ("daily", "weekly", "monthly"):
        for path in (vault.root / level).glob("*.md"):
            path.unlink()
    return keys


def test_l4_a_failure_at_call_k_of_m_then_a_rerun_pays_only_the_rest(vault: Vault) -> None:
    populate(vault, days=5)
    with FakeLLM(responder=answer) as server:
        configured = configure(vault, server, concurrency=1)
        calls = []

        def flaky(body: dict[str, Any]) -> Any:  # call K = 2 (the second day) fails, with its re-asks
            calls.append(1)
            return "not json" if 2 <= len(calls) <= 1 + 1 + MAX_REASKS else answer(body)

        server.responder = flaky
        first = compact(configured, summarizer(configured), NOW)
        assert [u for u, _ in first.failed] == ["daily/2026-03-03.md"]
        second = compact(configured, summarizer(configured), NOW)
        assert not second.failed and second.calls == 1 + 1 + 1  # the failed day, then its week and month
        assert first.calls - MAX_REASKS - 1 + second.calls == 5 + 1 + 1  # paid once per unit, over both runs


def test_l4_the_cache_key_covers_prompt_version_model_and_params(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    populate(vault, days=2)
    base = cache_keys(vault)
    assert cache_keys(vault) == base  # the same inputs: the same keys (nothing new cached)
    shutil_keys = {p.name for p in (vault.root / ".memtree/cache").glob("*.json")}
    assert shutil_keys == base
    hotter = cache_keys(vault, temperature=0.7) - base
    assert len(hotter) == len(base)  # every key changes with a parameter
    original = llm_module.PROMPT_VERSION
    monkeypatch.setattr(llm_module, "PROMPT_VERSION", "llm-test")
    newer = cache_keys(vault) - base - hotter
    assert len(newer) == len(base)
    monkeypatch.setattr(llm_module, "PROMPT_VERSION", original)
    other = cache_keys(vault, model="openai/another-model") - base - hotter - newer
    assert len(other) == len(base)  # and with the model
    assert cache_keys(vault) == base | hotter | newer | other  # back to the first settings: nothing new
    add(vault, "one more note for the second day", timestamp="2026-03-03T18:00:00Z")
    changed = cache_keys(vault) - base - hotter - newer - other
    assert 1 <= len(changed) <= 3  # that day, and its week and month when their inputs changed


CORRUPT = {
    "truncated": b'{"model": "x", "answer": {"overview": [',
    "not an object": b"[1, 2]",
    "answer not a dict": b'{"answer": "hello"}',
    "bullets of the wrong shape": b'{"answer": {"overview": [1, 2], "decisions": {"a": 1}, "topics": 7}}',
    "sources not a list": b'{"answer": {"overview": [{"text": "x", "sources": "abc"}]}}',
    "unknown ids": b'{"answer": {"overview": [{"text": "poisoned", "sources": ["0000000000000000"]}]}}',
    "deep": b'{"answer": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "binary": bytes(range(256)),
    "empty": b"",
}


@pytest.mark.parametrize("kind", sorted(CORRUPT))
def test_l5_a_corrupt_cache_file_is_ignored_and_recomputed(vault: Vault, kind: str) -> None:
    populate(vault, days=1)
    with FakeLLM(responder=answer) as server:
        configured = configure(vault, server)
        compact(configured, summarizer(configured), NOW)
        reference = files(configured.root)
        for level in ("daily", "weekly", "monthly"):
            for path in (configured.root / level).glob("*.md"):
                path.unlink()
        for entry in (configured.root / ".memtree/cache").glob("*.json"):
            entry.write_bytes(CORRUPT[kind])
        calls = server.calls
        report = compact(configured, summarizer(configured), NOW)
        assert not report.failed and report.cache_hits == 0 and server.calls == calls + 3
        assert files(configured.root) == reference
        tally("L5 corrupt cache files")


# ---------------------------------------------------------------- L6: some units fail


def test_l6_three_of_ten_days_fail(vault: Vault) -> None:
    populate(vault, days=10, per_day=2)  # 2 Mar (Mon) .. 11 Mar: weeks 10 and 11 (open: not summarized)
    failing = {"2026-03-03", "2026-03-05", "2026-03-09"}

    def responder(body: dict[str, Any]) -> str:
        what = body["messages"][1]["content"].splitlines()[0]
        if any(day in what for day in failing):
            return "not json"
        return answer(body)

    with FakeLLM(responder=responder) as server:
        configured = configure(vault, server)
        report = compact(configured, summarizer(configured), NOW)
        assert sorted(u for u, _ in report.failed) == [f"daily/{d}.md" for d in sorted(failing)]
        written = sorted(p.stem for p in (configured.root / "daily").glob("*.md"))
        assert len(written) == 7 and not set(written) & failing
        assert not (configured.root / "weekly").exists()  # its weeks wait for their missing days
        assert {u for u, _ in report.blocked} >= {"weekly/2026-W10.md", "weekly/2026-W11.md"}
        raw = {f.id for f in configured.raw_files()}
        assert len(raw) == 20  # nothing is deleted, whatever failed
        server.responder = answer
        calls = server.calls
        again = compact(configured, summarizer(configured), NOW)
        assert not again.failed
        assert sorted(again.written)[:3] == [f"daily/{d}.md" for d in sorted(failing)]
        assert server.calls - calls == 3 + 2 + 1  # the 3 days, then 2 weeks and 1 month


# ---------------------------------------------------------------- L8: context windows


def test_l8_a_model_that_always_says_too_long_fails_the_unit_without_recursing_forever(vault: Vault) -> None:
    populate(vault, days=1, per_day=12)
    with FakeLLM(responder=lambda body: context_window_error()) as server:
        configured = configure(vault, server)
        report = compact(configured, summarizer(configured), NOW)
        assert [unit for unit, _ in report.failed] == ["daily/2026-03-02.md"]
        assert server.calls <= 2 ** (llm_module.MAX_SPLIT_DEPTH + 1)
        assert not (configured.root / "daily").exists()


def test_l1_l8_split_calls_pass_the_timeout_too(vault: Vault, monkeypatch: pytest.MonkeyPatch) -> None:
    populate(vault, days=1, per_day=12)

    def small_model(kwargs: dict[str, Any]) -> str:
        content = kwargs["messages"][1]["content"]
        if len(content) > 1200:
            raise litellm_exception("ContextWindowExceededError")
        ids = DATA_ID.findall(content)
        return answer({"messages": kwargs["messages"]}, cite=ids[0])

    calls = stub_completion(monkeypatch, small_model)
    report = compact(vault, summarizer(vault), NOW)
    assert not report.failed and len(calls) > 4
    assert all(c["timeout"] == vault.config.summarizer.timeout and c["num_retries"] == 0 for c in calls)


# ---------------------------------------------------------------- L9: a budget


def test_l9_a_budget_of_five_calls_with_twenty_units_pending(vault: Vault) -> None:
    populate(vault, days=20, per_day=1)
    with FakeLLM(responder=answer) as server:
        configure(vault, server, concurrency=1)
        first = memtree("--vault", str(vault.root), "compact", "--model", "openai/fake-model", "--max-calls", "5")
        assert first.code == 0 and server.calls == 5
        assert "budget reached: 15 unit(s) left for the next run" in first.stdout
        second = memtree("--vault", str(vault.root), "compact", "--model", "openai/fake-model", "--json")
        assert second.code == 0 and second.json()["deferred"] == [] and second.json()["failed"] == []
        assert len(list((vault.root / "daily").glob("*.md"))) == 20


# ---------------------------------------------------------------- L10: determinism


def test_l10_directory_order_changes_neither_prompts_nor_cache_keys(
    vault: Vault, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    populate(vault, days=3, per_day=5)
    real_scandir, real_listdir = os.scandir, os.listdir
    outcomes = []
    for seed in (1, 2):
        root = shutil.copytree(vault.root, tmp_path / f"copy{seed}")
        rng = random.Random(seed)

        class Shuffled:
            def __init__(self, path: Any) -> None:
                self.entries = list(real_scandir(path))
                rng.shuffle(self.entries)  # noqa: B023 - used within this iteration

            def __iter__(self) -> Any:
                return iter(self.entries)

            def __enter__(self) -> Any:
                return self

            def __exit__(self, *exc: object) -> None:
                pass

            def close(self) -> None:
                pass

        def listdir(path: Any = ".") -> list[str]:
            names = real_listdir(path)
            rng.shuffle(names)  # noqa: B023 - used within this iteration
            return names

        monkeypatch.setattr(os, "scandir", Shuffled)
        monkeypatch.setattr(os, "listdir", listdir)
        with FakeLLM(responder=answer) as server:
            configured = configure(Vault.open(root), server)
            compact(configured, summarizer(configured), NOW)
            prompts = sorted(json.dumps(r.body["messages"]) for r in server.requests)  # calls run concurrently
        monkeypatch.setattr(os, "scandir", real_scandir)
        monkeypatch.setattr(os, "listdir", real_listdir)
        keys = sorted(p.name for p in (root / ".memtree/cache").glob("*.json"))
        outcomes.append((prompts, keys, {p: h for p, h in files(root).items() if p != "memtree.yaml"}))
    assert outcomes[0] == outcomes[1]


def test_l10_the_same_run_twice_sends_byte_identical_prompts(vault: Vault) -> None:
    populate(vault, days=2, per_day=3)
    sent = []
    for _ in range(2):
        with FakeLLM(responder=answer) as server:
            configured = configure(vault, server)
            compact(
                configured, LiteLLMSummarizer(configured.config, "openai/fake-model", vault=None), NOW, limits=Limits()
            )
            sent.append(sorted(json.dumps(r.body, sort_keys=True) for r in server.requests))
        for level in ("daily", "weekly", "monthly"):
            for path in (vault.root / level).glob("*.md"):
                path.unlink()
    assert sent[0] == sent[1]
