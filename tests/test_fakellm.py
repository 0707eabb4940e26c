"""The fake OpenAI-compatible server, and what litellm 1.106.2 does against it.

Each LiteLLM test pins one fact that memtree's LLM layer relies on (docs/RELIABILITY.md 5.2/5.3):
how many HTTP requests one `completion()` makes, which exception each failure becomes, where
`Retry-After` can be read, what costs and context sizes are known offline, how `mock_response`
behaves. If an upgrade of litellm or openai changes a fact, its test fails here first.
"""

from __future__ import annotations

import base64
import http.client
import importlib.util
import json
import os
import statistics
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

# Must be set before litellm is imported: without the first, importing litellm fetches its cost
# map from the internet (see test_import_without_local_cost_map_tries_the_network).
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ["LITELLM_MODE"] = "PRODUCTION"

import httpx
from fakellm import (
    FakeLLM,
    content_policy_error,
    context_window_error,
    count_tokens,
    delay,
    drop,
    embed_text,
    error_body,
    hang,
    malformed,
    ok,
    reply_json,
    status,
)


@pytest.fixture(autouse=True, scope="module")
def _litellm() -> None:
    """Imports litellm (6-10 s) when a test here first runs, not when pytest collects every module."""
    global litellm, openai
    import litellm
    import openai

    litellm.suppress_debug_info = True


# Makes the OpenAI SDK's own retries (when they happen) wait 1 ms instead of its 0.5-8 s backoff.
FAST_RETRY = {"retry-after-ms": "1"}
MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.fixture
def llm() -> Iterator[FakeLLM]:
    with FakeLLM() as server:
        yield server


def complete(llm: FakeLLM, **kwargs: Any) -> Any:
    """memtree's call shape; pass num_retries=None to leave LiteLLM's default in place."""
    kwargs.setdefault("model", "openai/fake")
    kwargs.setdefault("messages", MESSAGES)
    kwargs.setdefault("timeout", 2.0)
    kwargs.setdefault("num_retries", 0)
    if kwargs["num_retries"] is None:
        del kwargs["num_retries"]
    return litellm.completion(api_base=llm.base_url, api_key="test-key", **kwargs)


def failure(llm: FakeLLM, *behaviours: Any, **kwargs: Any) -> Exception:
    """Queue `behaviours`, make one completion() call and return what it raised."""
    llm.push(*behaviours)
    try:
        complete(llm, **kwargs)
    except Exception as exc:
        return exc
    raise AssertionError("completion() did not raise")


def embed(llm: FakeLLM, **kwargs: Any) -> Any:
    kwargs.setdefault("input", ["alpha", "beta"])
    kwargs.setdefault("timeout", 2.0)
    kwargs.setdefault("num_retries", 0)
    if kwargs["num_retries"] is None:
        del kwargs["num_retries"]
    return litellm.embedding(model="openai/fake-embed", api_base=llm.base_url, api_key="test-key", **kwargs)


def retry_after_seconds(exc: BaseException) -> float | None:
    """Where memtree should read Retry-After: LiteLLM's copy of the real response headers first
    (its `exc.response` is a stand-in with no headers), then `exc.response` (exceptions built by
    hand, e.g. for mock_response=, carry their headers there)."""
    headers = getattr(exc, "litellm_response_headers", None)
    if not headers or "retry-after" not in headers:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
    if not headers or "retry-after" not in headers:
        return None
    try:
        return float(headers["retry-after"])
    except ValueError:  # an HTTP date
        return None


def post(llm: FakeLLM, path: str, body: Any, timeout: float = 2.0) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", llm.port, timeout=timeout)
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


# --- the server on its own ----------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/chat/completions", "/chat/completions"])
def test_chat_completion_shape(llm: FakeLLM, path: str) -> None:
    code, headers, raw = post(llm, path, {"model": "m", "messages": [{"role": "user", "content": "x" * 40}]})
    assert code == 200 and headers["content-type"] == "application/json"
    body = json.loads(raw)
    assert body["object"] == "chat.completion" and body["model"] == "m"
    assert body["choices"][0]["message"] == {
        "role": "assistant",
        "content": "echo: " + "x" * 40,
        "refusal": None,
    }
    assert body["choices"][0]["finish_reason"] == "stop"
    assert body["usage"] == {"prompt_tokens": 10, "completion_tokens": 12, "total_tokens": 22}


def test_embeddings_shape_float_and_base64(llm: FakeLLM) -> None:
    code, _, raw = post(llm, "/v1/embeddings", {"model": "e", "input": ["alpha", "beta"]})
    body = json.loads(raw)
    assert code == 200 and body["object"] == "list" and body["model"] == "e"
    assert [d["index"] for d in body["data"]] == [0, 1]
    assert body["data"][0]["embedding"] == embed_text("alpha", 8)
    assert body["usage"]["total_tokens"] == count_tokens("alpha") + count_tokens("beta")
    assert sum(v * v for v in body["data"][1]["embedding"]) == pytest.approx(1.0)
    _, _, raw = post(llm, "/v1/embeddings", {"model": "e", "input": "alpha", "encoding_format": "base64"})
    packed = base64.b64decode(json.loads(raw)["data"][0]["embedding"])
    assert list(struct.unpack("<8f", packed)) == pytest.approx(embed_text("alpha", 8), abs=1e-6)
    assert FakeLLM(embedding_dim=3).embedding_dim == 3 and len(embed_text("alpha", 3)) == 3


def test_queue_is_consumed_in_order_then_the_responder_answers() -> None:
    def responder(body: dict[str, Any]) -> str:
        return json.dumps({"n_messages": len(body["messages"])})

    with FakeLLM(responder=responder) as llm:
        llm.push(ok("first"), status(503), ok(None))
        req = {"model": "m", "messages": MESSAGES}
        answers = [post(llm, "/v1/chat/completions", req) for _ in range(4)]
        assert [a[0] for a in answers] == [200, 503, 200, 200]
        assert json.loads(answers[0][2])["choices"][0]["message"]["content"] == "first"
        assert json.loads(answers[1][2])["error"]["type"] == "server_error"
        assert json.loads(answers[2][2])["choices"][0]["message"]["content"] is None
        assert json.loads(json.loads(answers[3][2])["choices"][0]["message"]["content"]) == {"n_messages": 1}
        assert [r.behaviour for r in llm.requests] == ["ok", "status", "ok", "responder"]
        assert llm.pending == 0


def test_responder_can_answer_with_a_behaviour() -> None:
    """How L8 will be tested: the stub refuses prompts over N tokens with a context-window error."""

    def responder(body: dict[str, Any]) -> Any:
        prompt = "".join(m["content"] for m in body["messages"])
        return context_window_error(limit=50) if count_tokens(prompt) > 50 else ok("short enough")

    with FakeLLM(responder=responder) as llm:
        exc = failure(llm, messages=[{"role": "user", "content": "y" * 400}])
        assert isinstance(exc, litellm.ContextWindowExceededError)
        assert complete(llm).choices[0].message.content == "short enough"


def test_a_responder_that_raises_answers_500_and_is_kept() -> None:
    def responder(body: dict[str, Any]) -> str:
        raise KeyError("prompt")

    with FakeLLM(responder=responder) as llm:
        code, _, raw = post(llm, "/v1/chat/completions", {"messages": MESSAGES})
        assert code == 500 and "KeyError" in json.loads(raw)["error"]["message"]
        assert [type(e) for e in llm.errors] == [KeyError]


def test_requests_are_recorded(llm: FakeLLM) -> None:
    before = time.monotonic()
    post(llm, "/v1/chat/completions", {"model": "m", "messages": MESSAGES})
    post(llm, "/nowhere", {})
    (chat, lost) = llm.requests
    assert chat.method == "POST" and chat.path == "/v1/chat/completions"
    assert chat.body == {"model": "m", "messages": MESSAGES} and json.loads(chat.raw) == chat.body
    assert chat.headers["content-type"] == "application/json"  # names are lower-cased
    assert before <= chat.arrived <= lost.arrived <= time.monotonic()
    assert chat.client[0] == "127.0.0.1"
    assert llm.calls == 1  # only chat and embeddings requests count
    llm.reset()
    assert llm.requests == [] and llm.calls == 0


def test_status_helpers_and_unknown_paths(llm: FakeLLM) -> None:
    llm.push(
        status(429, headers={"Retry-After": "7"}),
        status(400, body="plain words"),
        reply_json({"choices": []}),
        status(204),
    )
    code, headers, raw = post(llm, "/v1/chat/completions", {})
    assert code == 429 and headers["retry-after"] == "7"
    assert json.loads(raw)["error"]["code"] == "rate_limit_exceeded"
    code, headers, raw = post(llm, "/v1/chat/completions", {})
    assert (code, raw) == (400, b"plain words") and headers["content-type"].startswith("text/plain")
    assert post(llm, "/v1/chat/completions", {})[2] == b'{"choices": []}'
    code, _, raw = post(llm, "/v1/chat/completions", {})
    assert (code, raw) == (204, b"")
    code, _, raw = post(llm, "/v2/unknown", {})
    assert code == 404 and "no route" in json.loads(raw)["error"]["message"]


def test_malformed_drop_and_delay(llm: FakeLLM) -> None:
    llm.push(malformed(b"{not json"), drop(), delay(0.2, then=ok("late")), delay(0.1))
    code, _, raw = post(llm, "/v1/chat/completions", {})
    assert (code, raw) == (200, b"{not json")
    with pytest.raises(http.client.RemoteDisconnected):
        post(llm, "/v1/chat/completions", {})
    start = time.monotonic()
    _, _, raw = post(llm, "/v1/chat/completions", {"messages": MESSAGES})
    assert json.loads(raw)["choices"][0]["message"]["content"] == "late"
    assert time.monotonic() - start >= 0.2
    _, _, raw = post(llm, "/v1/chat/completions", {"messages": MESSAGES})
    assert json.loads(raw)["choices"][0]["message"]["content"] == "echo: hi"  # `then` defaults to the responder


def test_close_releases_hung_requests_within_a_second() -> None:
    llm = FakeLLM().start()
    llm.push(hang(), hang())
    outcomes: list[str] = []

    def client() -> None:
        try:
            post(llm, "/v1/chat/completions", {}, timeout=30)
            outcomes.append("answered")
        except (OSError, http.client.HTTPException) as exc:
            outcomes.append(type(exc).__name__)

    threads = [threading.Thread(target=client) for _ in range(2)]
    for t in threads:
        t.start()
    assert llm.wait_for_calls(2, timeout=2)
    start = time.monotonic()
    llm.close()
    assert time.monotonic() - start < 1.0
    for t in threads:
        t.join(timeout=1.0)
        assert not t.is_alive()
    assert outcomes == ["RemoteDisconnected", "RemoteDisconnected"]
    assert llm.wait_for_calls(3, timeout=0.05) is False


def test_latency_applies_concurrently_and_recording_is_thread_safe(llm: FakeLLM) -> None:
    llm.latency = 1.0
    with ThreadPoolExecutor(16) as pool:
        codes = list(pool.map(lambda _: post(llm, "/v1/chat/completions", {})[0], range(16)))
    assert codes == [200] * 16
    assert llm.calls == 16 and len(llm.requests) == 16
    arrivals = [r.arrived for r in llm.requests]
    assert max(arrivals) - min(arrivals) < llm.latency  # all sixteen waited out their latency together


# --- 1. one completion() = how many HTTP requests --------------------------------------------------

SDK_RETRYABLE = {
    "429": status(429, headers=FAST_RETRY),
    "500": status(500, headers=FAST_RETRY),
    "503": status(503, headers=FAST_RETRY),
    "408": status(408, headers=FAST_RETRY),
    "drop": drop(),
}


@pytest.mark.parametrize("behaviour", SDK_RETRYABLE.values(), ids=SDK_RETRYABLE.keys())
def test_num_retries_zero_sends_exactly_one_request(llm: FakeLLM, behaviour: Any) -> None:
    failure(llm, behaviour, behaviour, behaviour, num_retries=0)
    assert llm.calls == 1
    assert llm.requests[0].headers["x-stainless-retry-count"] == "0"


@pytest.mark.parametrize("behaviour", SDK_RETRYABLE.values(), ids=SDK_RETRYABLE.keys())
def test_without_num_retries_the_openai_sdk_retries_twice(llm: FakeLLM, behaviour: Any) -> None:
    failure(llm, behaviour, behaviour, behaviour, num_retries=None)
    assert llm.calls == 3
    assert [r.headers["x-stainless-retry-count"] for r in llm.requests] == ["0", "1", "2"]


def test_sdk_retries_hide_a_failure_and_honour_retry_after(llm: FakeLLM) -> None:
    """Without num_retries=0 a 429 costs an invisible sleep of Retry-After inside completion()."""
    llm.push(status(429, headers={"retry-after-ms": "300"}))
    start = time.monotonic()
    assert complete(llm, num_retries=None).choices[0].message.content == "echo: hi"
    assert time.monotonic() - start >= 0.3
    assert llm.calls == 2


def test_max_retries_zero_alone_also_sends_one_request(llm: FakeLLM) -> None:
    failure(llm, *[status(500, headers=FAST_RETRY)] * 3, num_retries=None, max_retries=0)
    assert llm.calls == 1


def test_num_retries_above_zero_ends_in_a_tenacity_import_error(llm: FakeLLM) -> None:
    """num_retries=N becomes the SDK's max_retries; once those fail, LiteLLM's own retry layer
    needs tenacity, which is not installed, and the real error is replaced by a bare Exception."""
    assert importlib.util.find_spec("tenacity") is None
    exc = failure(llm, *[status(500, headers=FAST_RETRY)] * 3, num_retries=1)
    assert type(exc) is Exception and "tenacity" in str(exc)
    assert llm.calls == 2


# --- 2. which exception for which failure --------------------------------------------------------

EXCEPTIONS = {
    "400": (status(400), "BadRequestError", 400),
    "400-context-window": (context_window_error(), "ContextWindowExceededError", 400),
    "400-content-policy": (content_policy_error(), "ContentPolicyViolationError", 400),
    "401": (status(401), "AuthenticationError", 401),
    "403": (status(403), "APIError", 403),
    "404": (status(404), "NotFoundError", 404),
    "408": (status(408), "Timeout", 408),
    "409": (status(409), "APIError", 409),
    "422": (status(422), "BadRequestError", 422),
    "429": (status(429), "RateLimitError", 429),
    "500": (status(500), "InternalServerError", 500),
    "502": (status(502), "BadGatewayError", 502),
    "503": (status(503), "ServiceUnavailableError", 503),
    "504": (status(504), "Timeout", 504),
    "529": (status(529), "APIError", 529),
    "drop": (drop(), "InternalServerError", 500),
    "200-malformed-json": (malformed(), "InternalServerError", 500),
    "200-html": (status(200, body="<html>hi</html>"), "InternalServerError", 500),
}


@pytest.mark.parametrize("case", EXCEPTIONS.values(), ids=EXCEPTIONS.keys())
def test_exception_class_and_status_code(llm: FakeLLM, case: tuple[Any, str, int]) -> None:
    behaviour, class_name, status_code = case
    exc = failure(llm, behaviour)
    assert type(exc) is getattr(litellm, class_name)
    assert exc.status_code == status_code  # type: ignore[attr-defined]
    assert llm.calls == 1


def test_dropped_connection_reads_as_connection_error_text(llm: FakeLLM) -> None:
    exc = failure(llm, drop())
    assert "Connection error." in str(exc)
    assert not isinstance(exc, litellm.APIConnectionError)


TRAPS = {
    # the class follows the wording of the body, not only the status
    "401-generic-invalid-request": (
        status(401, error_body("nope", "invalid_request_error")),
        "BadRequestError",
        401,
    ),
    "503-invalid-request-type": (
        status(503, error_body("down", "invalid_request_error")),
        "BadRequestError",
        503,
    ),
    "500-says-rate-limit": (
        status(500, error_body("upstream rate limit hit", "server_error")),
        "RateLimitError",
        429,
    ),
    "500-says-max-context": (
        status(500, error_body("This model's maximum context length is 8192 tokens", "server_error")),
        "ContextWindowExceededError",
        500,
    ),
    "400-plain-text-max-context": (
        status(400, "This model's maximum context length is 10 tokens"),
        "ContextWindowExceededError",
        400,
    ),
    "400-llama-cpp-context": (
        status(400, error_body("the request exceeds the available context size", "invalid_request_error")),
        "ContextWindowExceededError",
        400,
    ),
    "400-anthropic-wording-is-not-context": (
        status(400, error_body("prompt is too long: 300000 tokens > 200000 maximum", "invalid_request_error")),
        "BadRequestError",
        400,
    ),
    "400-echoing-429-stays-400": (
        status(400, error_body("bad token 429 in input", "invalid_request_error")),
        "BadRequestError",
        400,
    ),
    "403-permission-type": (status(403, error_body("forbidden", "permission_error")), "APIError", 403),
    "413": (status(413), "APIError", 413),
}


@pytest.mark.parametrize("case", TRAPS.values(), ids=TRAPS.keys())
def test_exception_class_depends_on_the_body_wording(llm: FakeLLM, case: tuple[Any, str, int]) -> None:
    behaviour, class_name, status_code = case
    exc = failure(llm, behaviour)
    assert type(exc) is getattr(litellm, class_name)
    assert exc.status_code == status_code  # type: ignore[attr-defined]


def test_exception_hierarchy() -> None:
    assert issubclass(litellm.ContextWindowExceededError, litellm.BadRequestError)
    assert issubclass(litellm.ContentPolicyViolationError, litellm.BadRequestError)
    assert issubclass(litellm.UnsupportedParamsError, litellm.BadRequestError)
    assert not issubclass(litellm.ContextWindowExceededError, litellm.InvalidRequestError)
    # Timeout is an openai.APITimeoutError, hence an openai.APIConnectionError, but not a
    # litellm.APIConnectionError; neither 502 nor 503 is an InternalServerError.
    assert issubclass(litellm.Timeout, openai.APITimeoutError)
    assert issubclass(litellm.Timeout, openai.APIConnectionError)
    assert not issubclass(litellm.Timeout, litellm.APIConnectionError)
    assert not issubclass(litellm.ServiceUnavailableError, litellm.InternalServerError)
    assert not issubclass(litellm.BadGatewayError, litellm.InternalServerError)
    # litellm.APIError is the fallback class, not a common base.
    for name in (
        "BadRequestError",
        "RateLimitError",
        "InternalServerError",
        "Timeout",
        "AuthenticationError",
    ):
        cls = getattr(litellm, name)
        assert not issubclass(cls, litellm.APIError)
        assert issubclass(cls, openai.OpenAIError)
    assert issubclass(litellm.APIError, openai.OpenAIError)
    assert litellm.ModelNotMappedError.__bases__ == (Exception,)
    assert litellm.BudgetExceededError.__bases__ == (Exception,)


def test_hang_past_timeout_raises_timeout_after_about_timeout(llm: FakeLLM) -> None:
    complete(llm)  # the first call in a process pays ~0.7 s of lazy set-up; keep it out of the timing
    llm.push(hang())
    start = time.monotonic()
    exc = failure(llm, timeout=0.5)
    elapsed = time.monotonic() - start
    assert type(exc) is litellm.Timeout and exc.status_code == 408
    assert 0.5 <= elapsed < 0.9
    llm.push(delay(1.5, then=ok("too late")))
    assert type(failure(llm, timeout=0.3)) is litellm.Timeout
    assert complete(llm).choices[0].message.content == "echo: hi"  # the pool is still usable


def test_empty_choices_and_null_content_are_returned_not_raised(llm: FakeLLM) -> None:
    usage = {"prompt_tokens": 1, "completion_tokens": 0, "total_tokens": 1}
    llm.push(reply_json({"id": "x", "object": "chat.completion", "created": 1, "model": "fake", "choices": []}))
    llm.push(reply_json({"id": "y", "object": "chat.completion", "created": 1, "choices": [], "usage": usage}))
    llm.push(ok(None), ok("cut sho", finish_reason="length"))
    assert complete(llm).choices == []
    assert complete(llm).choices == []
    resp = complete(llm)
    assert resp.choices[0].message.content is None and resp.choices[0].finish_reason == "stop"
    assert complete(llm).choices[0].finish_reason == "length"


# --- 3. Retry-After -------------------------------------------------------------------------------


@pytest.mark.parametrize("code", [400, 408, 429, 500, 502, 503, 504, 529])
def test_retry_after_is_in_litellm_response_headers(llm: FakeLLM, code: int) -> None:
    exc = failure(llm, status(code, headers={"Retry-After": "7", "x-ratelimit-remaining-requests": "0"}))
    headers = exc.litellm_response_headers  # type: ignore[attr-defined]
    assert isinstance(headers, httpx.Headers)
    assert headers["retry-after"] == headers["Retry-After"] == "7"
    assert headers["x-ratelimit-remaining-requests"] == "0"
    # exc.response, when there is one, is a stand-in without the server's headers
    if code in (408, 504, 529):
        assert not hasattr(exc, "response")
    else:
        assert exc.response.status_code == code and "retry-after" not in exc.response.headers  # type: ignore[attr-defined]
    assert litellm.utils._get_retry_after_from_exception_header(headers) == 7
    assert retry_after_seconds(exc) == 7.0


def test_no_headers_without_a_response(llm: FakeLLM) -> None:
    assert failure(llm, drop()).litellm_response_headers is None  # type: ignore[attr-defined]
    assert failure(llm, hang(), timeout=0.3).litellm_response_headers is None  # type: ignore[attr-defined]
    assert retry_after_seconds(failure(llm, status(429))) is None


def test_spend_limit_429_is_told_apart_by_its_body(llm: FakeLLM) -> None:
    message = "You exceeded your current quota, please check your plan and billing details."
    exc = failure(llm, status(429, error_body(message, "insufficient_quota", "insufficient_quota")))
    assert type(exc) is litellm.RateLimitError and exc.status_code == 429
    assert exc.body["code"] == "insufficient_quota" and exc.body["type"] == "insufficient_quota"
    assert message in str(exc) and "insufficient_quota" not in str(exc)


# --- 4. usage, cost and model info offline -------------------------------------------------------

PRICES = {  # (input, output) USD per token in litellm 1.106.2's bundled cost map
    "openai/gpt-4o-mini": (1.5e-07, 6e-07),
    "anthropic/claude-haiku-4-5": (1e-06, 5e-06),
}


def test_usage_content_and_completion_cost(llm: FakeLLM) -> None:
    resp = complete(llm, model="openai/gpt-4o-mini", messages=[{"role": "user", "content": "x" * 40}])
    assert resp.choices[0].message.content == "echo: " + "x" * 40
    usage = resp.usage
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (10, 12, 22)
    assert resp.model == "gpt-4o-mini"  # taken from the server's answer
    expected = 10 * 1.5e-07 + 12 * 6e-07
    assert litellm.completion_cost(completion_response=resp) == pytest.approx(expected)
    assert resp._hidden_params["response_cost"] == pytest.approx(expected)


def test_cost_of_an_unknown_model(llm: FakeLLM) -> None:
    resp = complete(llm, model="openai/my-local-model")
    assert resp._hidden_params["response_cost"] is None
    with pytest.raises(litellm.ModelNotMappedError):
        litellm.completion_cost(completion_response=resp)
    with pytest.raises(litellm.ModelNotMappedError):
        litellm.cost_per_token(model="openai/my-local-model", prompt_tokens=1, completion_tokens=1)
    with pytest.raises(litellm.BadRequestError, match="LLM Provider NOT provided"):
        litellm.cost_per_token(model="my-local-model", prompt_tokens=1, completion_tokens=1)


@pytest.mark.parametrize("model", PRICES)
def test_cost_per_token_offline(model: str) -> None:
    per_in, per_out = PRICES[model]
    for name in (model, model.split("/", 1)[1]):
        cost = litellm.cost_per_token(model=name, prompt_tokens=1000, completion_tokens=500)
        assert cost == pytest.approx((1000 * per_in, 500 * per_out))


def test_context_window_sizes_offline() -> None:
    mini = litellm.get_model_info("openai/gpt-4o-mini")
    assert (mini["max_input_tokens"], mini["max_output_tokens"]) == (128000, 16384)
    haiku = litellm.get_model_info("anthropic/claude-haiku-4-5")
    assert (haiku["max_input_tokens"], haiku["max_output_tokens"]) == (200000, 64000)
    # get_max_tokens is the OUTPUT limit, not the context window
    assert litellm.get_max_tokens("openai/gpt-4o-mini") == 16384
    assert litellm.get_max_tokens("anthropic/claude-haiku-4-5") == 64000
    with pytest.raises(litellm.ModelNotMappedError):
        litellm.get_model_info("openai/my-local-model")
    with pytest.raises(Exception, match="isn't mapped yet") as info:
        litellm.get_max_tokens("openai/my-local-model")
    assert type(info.value) is Exception


# --- 5. request parameters reach the server ------------------------------------------------------


def test_response_format_and_sampling_params_pass_through(llm: FakeLLM) -> None:
    complete(llm, response_format={"type": "json_object"}, temperature=0, max_tokens=50, seed=1)
    (req,) = llm.requests
    assert req.path == "/v1/chat/completions"
    assert req.body == {
        "model": "fake",
        "messages": MESSAGES,
        "response_format": {"type": "json_object"},
        "temperature": 0,
        "max_tokens": 50,
        "seed": 1,
    }
    assert req.headers["authorization"] == "Bearer test-key"
    assert req.headers["x-stainless-read-timeout"] == "2.0"


# --- 6. mock_response ------------------------------------------------------------------------------


def test_mock_response_string_makes_no_request(llm: FakeLLM) -> None:
    resp = complete(llm, model="openai/gpt-4o-mini", mock_response='{"bullets": []}')
    assert isinstance(resp, litellm.ModelResponse)
    assert resp.choices[0].message.content == '{"bullets": []}'
    assert resp.choices[0].finish_reason == "stop"
    assert (resp.usage.prompt_tokens, resp.usage.completion_tokens, resp.usage.total_tokens) == (10, 20, 30)
    assert litellm.completion_cost(completion_response=resp) == pytest.approx(10 * 1.5e-07 + 20 * 6e-07)
    assert llm.calls == 0


def test_mock_response_exceptions(llm: FakeLLM) -> None:
    rate_limited = litellm.RateLimitError(
        message="slow down",
        llm_provider="openai",
        model="fake",
        response=httpx.Response(429, headers={"Retry-After": "7"}, request=httpx.Request("POST", "http://x")),
    )
    exc = failure(llm, mock_response=rate_limited)
    assert exc is rate_limited and retry_after_seconds(exc) == 7.0  # read from exc.response
    window = litellm.ContextWindowExceededError(message="too long", llm_provider="openai", model="fake")
    assert failure(llm, mock_response=window) is window
    wrapped = failure(llm, mock_response=ValueError("boom"))
    assert type(wrapped) is litellm.InternalServerError and "litellm.MockException: boom" in str(wrapped)
    by_name = failure(llm, mock_response="litellm.RateLimitError")
    assert type(by_name) is litellm.RateLimitError and by_name.status_code == 429
    by_name = failure(llm, mock_response="litellm.InternalServerError")
    assert type(by_name) is litellm.InternalServerError and by_name.status_code == 500
    by_name = failure(llm, mock_response="litellm.ContextWindowExceededError")
    assert type(by_name) is litellm.ContextWindowExceededError and by_name.status_code == 400
    # only those three exact names are special: any other string is returned as the content
    resp = complete(llm, mock_response="litellm.ContextWindowExceededError: too long")
    assert resp.choices[0].message.content == "litellm.ContextWindowExceededError: too long"
    assert type(failure(llm, mock_response=litellm.BadRequestError("x", "fake", "openai"))) is litellm.BadRequestError
    start = time.monotonic()
    assert type(failure(llm, mock_timeout=True, timeout=0.3)) is litellm.Timeout
    assert 0.3 <= time.monotonic() - start < 0.8
    assert llm.calls == 0


# --- 7. concurrency --------------------------------------------------------------------------------


def test_eight_threads_overlap() -> None:
    latency = 1.0  # long enough that a loaded machine still starts all eight threads inside it
    with FakeLLM() as llm:
        complete(llm)  # warm up LiteLLM's lazy set-up and its cached client
        llm.reset()
        llm.latency = latency

        def one(i: int) -> str:
            return str(complete(llm, messages=[{"role": "user", "content": f"msg {i}"}]).choices[0].message.content)

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(one, range(8)))
        assert answers == [f"echo: msg {i}" for i in range(8)]
        # No call is answered before `latency` has passed since it arrived, so eight arrivals inside
        # one latency mean all eight were in flight at once; one after another they would be 7 s apart.
        arrivals = [r.arrived for r in llm.requests]
        assert max(arrivals) - min(arrivals) < latency
        assert len({r.client for r in llm.requests}) == 8  # eight connections from one shared pool
        llm.reset()
        llm.latency = 0.0
        for i in range(3):
            one(i)
        assert len({r.client for r in llm.requests}) == 1  # calls one after another reuse a connection


# --- 8. import cost and network -------------------------------------------------------------------

PROBE = r"""
import json, sys, time
events = []
def hook(event, args):
    if event in ("socket.getaddrinfo", "socket.gethostbyname"):
        events.append([event, str(args[0])])
        if args[0] not in ("127.0.0.1", "localhost"):
            raise OSError("blocked by the probe")
    elif event == "socket.connect":
        address = args[1]
        events.append([event, str(address)])
        if isinstance(address, tuple) and not str(address[0]).startswith("127."):
            raise OSError("blocked by the probe")
sys.addaudithook(hook)
start = time.perf_counter()
import litellm
elapsed = time.perf_counter() - start
at_import = list(events)
litellm.suppress_debug_info = True
litellm.completion(model="openai/gpt-4o-mini", messages=[{"role": "user", "content": "x"}],
                   mock_response="ok", api_key="k", timeout=1, num_retries=0)
litellm.cost_per_token(model="openai/gpt-4o-mini", prompt_tokens=1, completion_tokens=1)
litellm.get_model_info("anthropic/claude-haiku-4-5")
print(json.dumps({"import_s": elapsed, "at_import": at_import, "after": events[len(at_import):]}))
"""


def run_probe(local_cost_map: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LITELLM_")}
    env["LITELLM_MODE"] = "PRODUCTION"
    if local_cost_map:
        env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60, check=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.mark.slow
def test_import_time_and_no_network_with_local_cost_map() -> None:
    # a run costs 3-4 s, so only MEMTREE_SLOW=1 runs take the median of 3
    runs = [run_probe(local_cost_map=True) for _ in range(3 if os.environ.get("MEMTREE_SLOW") else 1)]
    assert all(r["at_import"] == [] and r["after"] == [] for r in runs)
    median = statistics.median(r["import_s"] for r in runs)
    print(f"litellm import: median {median:.2f} s of {[round(r['import_s'], 2) for r in runs]}")
    assert median < 10.0  # measured about 3.2 s on a 2-core machine: defer the import


@pytest.mark.slow
def test_import_without_local_cost_map_tries_the_network() -> None:
    run = run_probe(local_cost_map=False)
    assert ["socket.getaddrinfo", "raw.githubusercontent.com"] in run["at_import"]


# --- 9. embeddings ---------------------------------------------------------------------------------


def test_embedding_against_the_server(llm: FakeLLM) -> None:
    resp = embed(llm)
    assert isinstance(resp, litellm.EmbeddingResponse) and resp.model == "fake-embed"
    assert [d["embedding"] for d in resp.data] == [embed_text("alpha", 8), embed_text("beta", 8)]
    assert [d["index"] for d in resp.data] == [0, 1]
    assert resp.usage.prompt_tokens == 3 and resp.usage.total_tokens == 3
    (req,) = llm.requests
    assert req.path == "/v1/embeddings" and req.body == {"model": "fake-embed", "input": ["alpha", "beta"]}
    llm.push(*[status(429, headers={"Retry-After": "7", **FAST_RETRY})] * 3)
    with pytest.raises(litellm.RateLimitError) as info:
        embed(llm)
    assert retry_after_seconds(info.value) == 7.0
    assert llm.calls == 1 + 3  # num_retries=0 did not stop the SDK's retries: see below


@pytest.mark.parametrize("kwargs", [{"num_retries": 0}, {"max_retries": 0}, {"num_retries": 0, "max_retries": 0}])
def test_embedding_ignores_zero_retries(llm: FakeLLM, kwargs: dict[str, int]) -> None:
    """openai.py does `max_retries or DEFAULT_MAX_RETRIES`, so 0 becomes 2 for embeddings."""
    llm.push(*[status(500, headers=FAST_RETRY)] * 3)
    with pytest.raises(litellm.InternalServerError):
        embed(llm, **{"num_retries": None, **kwargs})
    assert llm.calls == 3


def test_embedding_one_request_needs_default_max_retries_zero(llm: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(litellm, "DEFAULT_MAX_RETRIES", 0)
    llm.push(*[status(500, headers=FAST_RETRY)] * 3)
    with pytest.raises(litellm.InternalServerError):
        embed(llm)
    assert llm.calls == 1 and llm.pending == 2
    llm.reset()
    llm.push(hang())
    with pytest.raises(litellm.Timeout):
        embed(llm, timeout=0.3)
    assert llm.calls == 1
