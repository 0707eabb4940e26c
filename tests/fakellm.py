"""A scriptable OpenAI-compatible HTTP server on 127.0.0.1 for tests (stdlib only).

LiteLLM is exercised against a real socket instead of a patched client, so the tests see the
same retries, timeouts and error translation that production code does. Usage::

    with FakeLLM(responder=lambda body: '{"bullets": []}', latency=0.0) as llm:
        llm.push(status(429, headers={"Retry-After": "7"}), ok("second answer"))
        litellm.completion(model="openai/fake", api_base=llm.base_url, api_key="test-key", ...)
        assert llm.calls == 1 and llm.requests[0].body["model"] == "fake"

One-shot behaviours queued with `push` are consumed in order, one per request (chat or
embeddings); when the queue is empty, chat requests are answered with `responder(body)`,
which may also return a behaviour (e.g. `context_window_error()` for a prompt that is too long).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import math
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "Behaviour",
    "FakeLLM",
    "RecordedRequest",
    "content_policy_error",
    "context_window_error",
    "count_tokens",
    "delay",
    "drop",
    "error_body",
    "hang",
    "malformed",
    "ok",
    "reply_json",
    "status",
]

CHAT_PATHS = frozenset({"/v1/chat/completions", "/chat/completions"})
EMBEDDING_PATHS = frozenset({"/v1/embeddings", "/embeddings"})

# Default error bodies, worded like OpenAI's own so that LiteLLM's message sniffing maps them the
# way it maps the real service (e.g. a 401 is only an AuthenticationError when it says "Incorrect API
# key provided"). None of them mentions "rate limit" or a bare 429 except the 429 itself, because
# LiteLLM turns any error saying so into a RateLimitError.
_DEFAULT_ERRORS: dict[int, tuple[str, str, str | None]] = {
    400: ("fake error 400: invalid request.", "invalid_request_error", None),
    401: (
        "Incorrect API key provided: test-key. You can find your API key at "
        "https://platform.openai.com/account/api-keys.",
        "invalid_request_error",
        "invalid_api_key",
    ),
    403: ("fake error 403: country, region, or territory not supported.", "request_forbidden", None),
    404: (
        "The model does not exist or you do not have access to it.",
        "invalid_request_error",
        "model_not_found",
    ),
    408: ("fake error 408: request timed out.", "timeout", None),
    409: ("fake error 409: conflict.", "conflict", None),
    422: ("fake error 422: unprocessable entity.", "invalid_request_error", None),
    429: (
        "Rate limit reached for requests. Please try again later.",
        "requests",
        "rate_limit_exceeded",
    ),
    500: ("The server had an error while processing your request. Sorry about that!", "server_error", None),
    502: ("fake error 502: bad gateway.", "server_error", None),
    503: ("The engine is currently overloaded, please try again later.", "server_error", None),
    504: ("fake error 504: gateway timeout.", "server_error", None),
    529: ("Overloaded", "overloaded_error", None),
}


@dataclass(frozen=True)
class Behaviour:
    """What the server does with one request; build these with the helper functions below."""

    kind: str  # "ok" | "status" | "malformed" | "delay" | "hang" | "drop"
    content: str | None = None
    finish_reason: str = "stop"
    code: int = 200
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    raw: bytes = b""
    seconds: float = 0.0
    then: Behaviour | None = None


def ok(content: str | None, finish_reason: str = "stop") -> Behaviour:
    """A normal 200 completion whose message content is `content` (None gives `content: null`)."""
    return Behaviour("ok", content=content, finish_reason=finish_reason)


def status(code: int, body: Any = None, headers: Mapping[str, str] | None = None) -> Behaviour:
    """Answer with HTTP `code`. `body`: None -> an OpenAI-style error (or nothing for 2xx),
    dict/list -> JSON, str/bytes -> sent as is."""
    return Behaviour("status", code=code, body=body, headers=dict(headers or {}))


def reply_json(obj: Any, code: int = 200) -> Behaviour:
    """Answer with an arbitrary JSON document, e.g. a completion with an empty `choices` list."""
    return status(code, body=obj)


def malformed(raw: bytes = b'{"id": "chatcmpl-broken", "choices": [') -> Behaviour:
    """A 200 with `Content-Type: application/json` whose body is not valid JSON."""
    return Behaviour("malformed", raw=raw)


def delay(seconds: float, then: Behaviour | None = None) -> Behaviour:
    """Wait `seconds` (cut short by shutdown), then do `then` (default: ask the responder, so a
    responder must not itself answer with a bare `delay()`)."""
    return Behaviour("delay", seconds=seconds, then=then)


def hang() -> Behaviour:
    """Read the request and never answer; the connection is closed when the server stops."""
    return Behaviour("hang")


def drop() -> Behaviour:
    """Read the request and close the connection without sending a byte."""
    return Behaviour("drop")


def error_body(message: str, type_: str, code: str | None = None, param: str | None = None) -> dict[str, Any]:
    """An OpenAI-style error document."""
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


def context_window_error(limit: int = 128000, requested: int = 200000) -> Behaviour:
    """The 400 that OpenAI sends for a prompt over the context window (LiteLLM maps it to
    `ContextWindowExceededError` because of the "maximum context length" wording)."""
    message = (
        f"This model's maximum context length is {limit} tokens. However, your messages "
        f"resulted in {requested} tokens. Please reduce the length of the messages."
    )
    return status(400, error_body(message, "invalid_request_error", "context_length_exceeded", "messages"))


def content_policy_error() -> Behaviour:
    """The 400 that OpenAI sends when a request trips its safety system."""
    message = (
        "Your request was rejected as a result of our safety system. Your prompt may contain "
        "text that is not allowed by our safety system."
    )
    return status(400, error_body(message, "invalid_request_error", "content_policy_violation"))


def count_tokens(text: str) -> int:
    """A deterministic stand-in for a tokenizer: one token per 4 characters, at least 1."""
    return max(1, math.ceil(len(text) / 4))


def default_responder(body: Mapping[str, Any]) -> str:
    """Echo the last user message, so tests can see what was sent."""
    messages = body.get("messages") or []
    last = next((m for m in reversed(messages) if m.get("role") == "user"), None)
    return f"echo: {_text_of(last.get('content')) if last else ''}"


def embed_text(text: str, dim: int) -> list[float]:
    """A deterministic unit vector derived from sha256(text)."""
    raw = b""
    counter = 0
    while len(raw) < dim * 4:
        raw += hashlib.sha256(f"{counter}:{text}".encode()).digest()
        counter += 1
    ints = struct.unpack(f"<{dim}I", raw[: dim * 4])
    vec = [i / 0xFFFFFFFF * 2.0 - 1.0 for i in ints]
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any  # parsed JSON, or None if the body was not JSON
    raw: bytes
    arrived: float  # time.monotonic()
    behaviour: str  # kind of the behaviour that answered it ("responder" when none was queued)
    client: tuple[str, int]  # the client's address: distinct ports mean distinct connections


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128
    allow_reuse_address = True
    fake: FakeLLM


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server
    server_version = "FakeLLM/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def setup(self) -> None:
        super().setup()
        self.server.fake._track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.fake._track(self.connection, add=False)

    def do_GET(self) -> None:
        fake = self.server.fake
        fake._record(self, b"", "get")
        if self.path.rstrip("/") in {"/v1/models", "/models"}:
            self._send_json(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
        else:
            self._send_json(404, error_body(f"no route GET {self.path}", "invalid_request_error"))

    def do_POST(self) -> None:
        fake = self.server.fake
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        path = self.path.split("?", 1)[0]
        if path not in CHAT_PATHS and path not in EMBEDDING_PATHS:
            fake._record(self, raw, "not_found")
            self._send_json(404, error_body(f"no route POST {path}", "invalid_request_error"))
            return
        behaviour = fake._next_behaviour()
        body = fake._record(self, raw, behaviour.kind if behaviour else "responder")
        if fake.latency > 0 and fake._stopping.wait(fake.latency):
            self._abort()
            return
        self._perform(behaviour, path, body)

    def _perform(self, behaviour: Behaviour | None, path: str, body: Any) -> None:
        fake = self.server.fake
        if behaviour is None and path in CHAT_PATHS:
            try:
                answer: str | Behaviour = fake.responder(body if isinstance(body, dict) else {})
            except Exception as exc:  # a bug in the test's responder: keep it, answer 500
                fake._errors_append(exc)
                answer = status(500, error_body(f"FakeLLM responder raised {exc!r}", "server_error"))
            behaviour = answer if isinstance(answer, Behaviour) else ok(answer)
        if behaviour is None or behaviour.kind == "ok":
            if path in EMBEDDING_PATHS:
                self._send_json(200, fake._embedding_response(body))
            else:
                assert behaviour is not None
                self._send_json(200, fake._chat_response(body, behaviour.content, behaviour.finish_reason))
        elif behaviour.kind == "status":
            self._send_status(behaviour)
        elif behaviour.kind == "malformed":
            self._send_raw(200, behaviour.raw, {"Content-Type": "application/json"})
        elif behaviour.kind == "delay":
            if fake._stopping.wait(behaviour.seconds):
                self._abort()
            else:
                self._perform(behaviour.then, path, body)
        elif behaviour.kind == "hang":
            fake._stopping.wait()
            self._abort()
        elif behaviour.kind == "drop":
            self._abort()
        else:  # pragma: no cover - programming error in a test
            raise ValueError(f"unknown behaviour {behaviour.kind!r}")

    def _send_status(self, behaviour: Behaviour) -> None:
        code, body = behaviour.code, behaviour.body
        headers = dict(behaviour.headers)
        if body is None and code >= 400:
            message, type_, err_code = _DEFAULT_ERRORS.get(code, (f"fake error {code}.", "api_error", None))
            body = error_body(message, type_, err_code)
        if body is None:
            payload = b""
        elif isinstance(body, bytes):
            payload = body
        elif isinstance(body, str):
            payload = body.encode()
        else:
            payload = json.dumps(body).encode()
        if not any(name.lower() == "content-type" for name in headers):
            plain = isinstance(body, str)
            headers["Content-Type"] = "text/plain; charset=utf-8" if plain else "application/json"
        self._send_raw(code, payload, headers)

    def _send_json(self, code: int, obj: Any) -> None:
        self._send_raw(code, json.dumps(obj).encode(), {"Content-Type": "application/json"})

    def _send_raw(self, code: int, payload: bytes, headers: Mapping[str, str]) -> None:
        try:
            self.send_response(code)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()
        except OSError:  # the client went away (e.g. its timeout fired first)
            self.close_connection = True

    def _abort(self) -> None:
        """Close the connection without a response."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)


class FakeLLM:
    """An OpenAI-compatible server on 127.0.0.1:<ephemeral>; see the module docstring."""

    def __init__(
        self,
        responder: Callable[[dict[str, Any]], str | Behaviour] | None = None,
        *,
        latency: float = 0.0,
        embedding_dim: int = 8,
        model_name: str | None = None,
        embedder: Callable[[str, int], list[float]] | None = None,
    ) -> None:
        self.responder = responder or default_responder
        self.latency = latency  # seconds slept before answering each request (concurrently)
        self.embedding_dim = embedding_dim
        # (text, dimensions) -> the vector /embeddings answers; default: a hash of the text (embed_text)
        self.embedder = embedder or embed_text
        self.model_name = model_name  # reported in responses; default: echo the request's model
        self._lock = threading.Lock()
        self._queue: deque[Behaviour] = deque()
        self._requests: list[RecordedRequest] = []
        self._errors: list[BaseException] = []
        self._connections: set[socket.socket] = set()
        self._stopping = threading.Event()
        self._arrival = threading.Condition(self._lock)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._answered = 0  # numbers the completion ids

    # lifecycle -----------------------------------------------------------------------------
    def start(self) -> FakeLLM:
        if self._server is not None:
            return self
        self._stopping.clear()
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="FakeLLM", daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving; hung and delayed requests are released and their connections closed."""
        server = self._server
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        with self._lock:
            connections = list(self._connections)
        for conn in connections:  # wakes handlers blocked reading a kept-alive connection
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        self._server = None

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeLLM is not running")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # scripting -----------------------------------------------------------------------------
    def push(self, *behaviours: Behaviour) -> FakeLLM:
        """Queue one-shot behaviours, consumed one per request in order."""
        with self._lock:
            self._queue.extend(behaviours)
        return self

    @property
    def pending(self) -> int:
        """Queued behaviours not yet consumed."""
        with self._lock:
            return len(self._queue)

    def reset(self) -> None:
        """Forget recorded requests and queued behaviours."""
        with self._lock:
            self._queue.clear()
            self._requests.clear()
            self._errors.clear()

    # inspection ----------------------------------------------------------------------------
    @property
    def requests(self) -> list[RecordedRequest]:
        """A snapshot of every request received, in arrival order."""
        with self._lock:
            return list(self._requests)

    @property
    def errors(self) -> list[BaseException]:
        """Exceptions raised by the responder (each was answered with a 500)."""
        with self._lock:
            return list(self._errors)

    @property
    def calls(self) -> int:
        """Number of requests to a chat or embeddings endpoint."""
        with self._lock:
            return sum(1 for r in self._requests if r.path in CHAT_PATHS or r.path in EMBEDDING_PATHS)

    def wait_for_calls(self, n: int, timeout: float = 5.0) -> bool:
        """Block until at least `n` calls have arrived; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._arrival:
            while self._count_calls_locked() < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._arrival.wait(left)
            return True

    # internals -----------------------------------------------------------------------------
    def _count_calls_locked(self) -> int:
        return sum(1 for r in self._requests if r.path in CHAT_PATHS or r.path in EMBEDDING_PATHS)

    def _errors_append(self, exc: BaseException) -> None:
        with self._lock:
            self._errors.append(exc)

    def _track(self, conn: socket.socket, add: bool) -> None:
        with self._lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    def _next_behaviour(self) -> Behaviour | None:
        with self._lock:
            return self._queue.popleft() if self._queue else None

    def _record(self, handler: _Handler, raw: bytes, behaviour: str) -> Any:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        rec = RecordedRequest(
            method=handler.command,
            path=handler.path.split("?", 1)[0],
            headers={k.lower(): v for k, v in handler.headers.items()},
            body=body,
            raw=raw,
            arrived=time.monotonic(),
            behaviour=behaviour,
            client=(str(handler.client_address[0]), int(handler.client_address[1])),
        )
        with self._arrival:
            self._requests.append(rec)
            self._arrival.notify_all()
        return body

    def _next_id(self) -> int:
        with self._lock:
            self._answered += 1
            return self._answered

    def _chat_response(self, body: Any, content: str | None, finish_reason: str) -> dict[str, Any]:
        body = body if isinstance(body, dict) else {}
        prompt = "".join(_text_of(m.get("content")) for m in body.get("messages") or [] if isinstance(m, dict))
        prompt_tokens = count_tokens(prompt)
        completion_tokens = count_tokens(content) if content else 0
        return {
            "id": f"chatcmpl-fake-{self._next_id()}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model_name or body.get("model", "fake"),
            "system_fingerprint": "fp_fake",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": None},
                    "logprobs": None,
                    "finish_reason": finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def _embedding_response(self, body: Any) -> dict[str, Any]:
        body = body if isinstance(body, dict) else {}
        inputs = body.get("input", "")
        if isinstance(inputs, str) or (isinstance(inputs, list) and inputs and isinstance(inputs[0], int)):
            inputs = [inputs]
        texts = [x if isinstance(x, str) else json.dumps(x) for x in inputs]
        dim = int(body.get("dimensions") or self.embedding_dim)
        as_base64 = body.get("encoding_format") == "base64"
        data = []
        for i, text in enumerate(texts):
            vec = self.embedder(text, dim)
            emb: Any = base64.b64encode(struct.pack(f"<{dim}f", *vec)).decode() if as_base64 else vec
            data.append({"object": "embedding", "index": i, "embedding": emb})
        tokens = sum(count_tokens(t) for t in texts)
        return {
            "object": "list",
            "data": data,
            "model": self.model_name or body.get("model", "fake-embedding"),
            "usage": {"prompt_tokens": tokens, "completion_tokens": 0, "total_tokens": tokens},
        }
