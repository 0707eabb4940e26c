"""The LiteLLM summarizer: any model LiteLLM speaks to, used as a pure text transformer.

What protects the vault (docs/RELIABILITY.md §4.3, §5):
- memories enter the prompt only inside a data block whose delimiter is derived from the
  content's hash (an author cannot forge a delimiter that depends on their own text), and the
  system prompt says to report instructions found there, never to follow them;
- the answer must be JSON of a fixed shape; every bullet must cite ids that were sent; an
  invalid answer is re-asked at most twice, then the unit fails and nothing is written;
- file names, what is written and what is deleted are decided by code, never by the model;
- one retry policy of our own (LiteLLM gets num_retries=0, which also stops the OpenAI SDK's
  hidden retries): 408/409/429/5xx/529 and connection errors back off with full jitter and
  honour Retry-After; other 4xx fail at once; a context-window error splits the input;
- every validated answer is cached under .memtree/cache/ by (prompt version, model, params,
  input ids and hashes), so a re-run after a crash pays only for what never completed.
"""

from __future__ import annotations

import json
import math
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from functools import lru_cache
from typing import Any, NamedTuple

from .config import Config
from .errors import LLMError
from .llm_answer import (
    DELIMITER_LIKE,
    KNOWN_HEADING,
    KNOWN_PROMPT,
    SYSTEM_PROMPT,
    USER_PROMPT,
    InvalidAnswer,
    Item,
    draft_from_answer,
    validate_answer,
)
from .markdown import render_bullet
from .model import canonical_json, sha256_hex
from .redact import redact
from .summarizers import BudgetReached, Limits, Unit, UnitFailed, Usage
from .summary import SECTIONS, Bullet, Draft, FactCandidate, SummarizerIdentity, TopicStat
from .text import word_form, word_forms
from .tokens import counter_for
from .topics import candidates, merge_topics, rank_topics
from .vault import DERIVED, Vault

PROMPT_VERSION = "llm-2"  # llm-2: facts give their value and what they replace
MAX_ATTEMPTS = 6  # transport attempts per call
MAX_REASKS = 2  # invalid answers re-asked before the unit fails
BACKOFF_BASE, BACKOFF_CAP = 2.0, 60.0
UNIT_DEADLINE = 600.0  # seconds of retrying per unit
DEFAULT_CONTEXT = 8_000  # input tokens when the model's window is unknown (local models)
MAX_SPLIT_DEPTH = 4
RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
MAX_KNOWN = 30  # known facts shown with one call's data, those naming most of what it names first
MAX_KNOWN_CHARS = 200
SPEAKER_WORDS = frozenset({"user", "assistant", "agent"})  # in many keys ("user_diet"), naming nobody in particular


class Shown(NamedTuple):
    """The known facts one call is shown: their lines, the chunks they rest on, their tokens."""

    lines: list[str]
    chunks: tuple[str, ...]
    tokens: int


NOTHING_SHOWN = Shown([], (), 0)


@lru_cache(maxsize=65536)  # asked again of every earlier fact each week of a run
def _naming(subject: str, statement: str) -> frozenset[str]:
    """The words that name what a known fact is about: its key's specific words, and the names in its statement."""
    from .facts.statement import KNOWN_ASPECTS, is_specific, names_of

    words = {word_form(w) for w in subject.split("_") if len(w) > 2}
    words = {w for w in words if w not in KNOWN_ASPECTS and is_specific(w)}
    return frozenset(words | {w for name in names_of(statement)[1] for w in word_forms(name)}) - SPEAKER_WORDS


def _import_litellm() -> Any:
    """LiteLLM takes ~3 s to import: only here, and with its network and banners turned off."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_MODE", "PRODUCTION")
    import litellm

    litellm.suppress_debug_info = True
    return litellm


class ContextTooLong(Exception):
    pass


def _retry_after(exc: BaseException) -> float | None:
    for headers in (
        getattr(exc, "litellm_response_headers", None),
        getattr(getattr(exc, "response", None), "headers", None),
    ):
        if headers is None:
            continue
        try:
            value = headers.get("retry-after")
        except AttributeError:
            continue
        if value is None:
            continue
        try:
            return max(0.0, float(value))
        except ValueError:
            return None
    return None


def classify(exc: BaseException) -> str:
    """'retry', 'split', 'fatal' (the model cannot be used at all) or 'fail' (this unit only).

    By status first: LiteLLM picks classes from the wording of error bodies (a 401 whose body
    says invalid_request_error arrives as BadRequestError), but keeps the status code.
    """
    name = type(exc).__name__
    if name == "ContextWindowExceededError":
        return "split"
    if name == "ContentPolicyViolationError":
        return "fail"
    status = getattr(exc, "status_code", None)
    body = getattr(exc, "body", None)
    code = body.get("code") if isinstance(body, dict) else None
    if (status == 429 and code == "insufficient_quota") or status == 402 or name == "BudgetExceededError":
        return "fatal"  # a spend limit (quota, payment required, LiteLLM's budget): retrying only burns time
    if status in (401, 403, 404) or name in ("AuthenticationError", "PermissionDeniedError", "NotFoundError"):
        return "fatal"
    if status in RETRY_STATUS:
        return "retry"
    if name in (
        "Timeout",
        "APIConnectionError",
        "APITimeoutError",
        "InternalServerError",
        "ServiceUnavailableError",
        "BadGatewayError",
        "RateLimitError",
        "CallTimedOut",
    ):
        return "retry"
    return "fail"


class CallTimedOut(Exception):
    """Our own watchdog: the call outlived its timeout though LiteLLM did not notice."""


class LiteLLMSummarizer:
    def __init__(
        self,
        config: Config,
        model: str,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        vault: Vault | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        self.config = config
        self.model = model
        self.settings = config.summarizer
        self.identity = SummarizerIdentity("litellm", model, PROMPT_VERSION)
        self.usage = Usage()
        self.limits = Limits()
        self._sleep, self._clock = sleep, clock
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._started = 0  # calls begun this run (for max_calls)
        self._count = counter_for(config.tokenizer)
        self._vault = vault  # where the cache lives (.memtree/cache/); None: no cache
        self._extra = dict(extra or {})  # e.g. mock_response= in unit tests
        self._litellm: Any = None
        self._learned_limit = 0  # set when the model refuses an input as too long
        self._checked = False  # the model and its key, before the first call (see _preflight)
        # subject -> ("subject: statement" line, the words that name its thing, the chunks it rests on, its tokens)
        self._known: dict[str, tuple[str, frozenset[str], tuple[str, ...], int]] = {}
        self._rarity: Counter[str] = Counter()  # naming word -> how many known subjects it names

    # ---------------------------------------------------------------- the Summarizer protocol

    @property
    def concurrency(self) -> int:
        return self.settings.concurrency

    def params(self) -> Mapping[str, Any]:
        return {"temperature": self.settings.temperature, "min_confidence": self.config.fact_min_confidence}

    reads_known_facts = True  # a day is shown what the days before its week stated about what it names

    def begin_run(self, limits: Limits) -> None:
        self.limits = limits
        self.usage = Usage()
        self._started = 0
        self._known = {}

    def know(self, facts: Sequence[FactCandidate]) -> None:
        """The facts of the days before the week about to be summarized, in their order (compaction): each
        subject's latest statement, with the words that name its thing, redacted again like the data. A subject
        whose latest statement names nothing is not shown, rather than shown with an older value."""
        latest = {f.subject: f for f in facts if not (f.change_only or f.replaced_only)}
        self._known = {}
        for subject, fact in latest.items():
            naming = _naming(subject, fact.fact)
            if naming:
                line = " ".join(redact(f"{subject}: {fact.fact}", self.config.disabled_rules).text.split())
                line = DELIMITER_LIKE.sub("<< ", line[:MAX_KNOWN_CHARS])
                self._known[subject] = (line, naming, fact.sources, self._count(line) + 1)
        self._rarity = Counter(w for _, naming, _, _ in self._known.values() for w in naming)

    def estimate(self, unit: Unit) -> tuple[int, int, float]:
        with self._lock:
            if not self._checked:
                self._check_model(self._lib())
        items = self._items(unit)
        tokens_in = (
            sum(i.tokens for i in items) + self._known_shown(unit, items).tokens + self._count(SYSTEM_PROMPT) + 60
        )
        tokens_out = unit.budget * 2
        return tokens_in, tokens_out, self._price(tokens_in, tokens_out) or 0.0

    def summarize(self, unit: Unit) -> Draft:
        items = self._items(unit)
        draft = self._summarize_items(unit, items, depth=0, what=self._what(unit))
        return self._finish(unit, draft)

    # ---------------------------------------------------------------- inputs

    def _what(self, unit: Unit) -> str:
        period = unit.period
        if period.level == "daily":
            return f"day, {period.key} ({date.fromisoformat(period.key):%A}), from its conversation excerpts"
        return (
            f"{'week' if period.level == 'weekly' else 'month'}, {period.key} ({period.start} to {period.end}), "
            f"from the summaries of its {'days' if period.level == 'weekly' else 'weeks'}"
        )

    def _items(self, unit: Unit) -> list[Item]:
        """The data lines, secrets redacted again (a rule added since the chunk was stored still applies)."""
        items: list[Item] = []
        disabled = self.config.disabled_rules
        if unit.period.level == "daily":
            for chunk in unit.chunks:
                when = chunk.timestamp.astimezone(self.config.tz).strftime("%H:%M")
                text = " ".join(redact(chunk.text, disabled).text.split())
                speaker = " ".join(redact(chunk.speaker, disabled).text.split())  # a hand-made file may hold one
                line = f"[{chunk.id}] {when} {speaker}: {text}"
                items.append(Item(chunk.id, line, (chunk.id,), self._count(line)))
            return items
        for child_index, child in enumerate(unit.children, 1):
            for name, _ in SECTIONS:
                for bullet_index, bullet in enumerate(child.draft.section(name), 1):
                    item_id = f"s{child_index}-{bullet_index}{name[0]}"
                    text = " ".join(redact(bullet.text, disabled).text.split())
                    line = f"[{item_id}] ({child.period}, {name}) {text}"
                    items.append(Item(item_id, line, bullet.sources, self._count(line)))
        return items

    def _input_limit(self) -> int:
        if self._learned_limit:
            return self._learned_limit
        if self.settings.max_input_tokens:
            return self.settings.max_input_tokens
        try:
            info = self._lib().get_model_info(self.model)
            window = int(info.get("max_input_tokens") or DEFAULT_CONTEXT)
        except Exception:  # an unmapped model (a local server): stay conservative
            window = DEFAULT_CONTEXT
        return max(1000, min(window, 100_000) - 2_000)

    def _known_shown(self, unit: Unit, items: Sequence[Item]) -> Shown:
        """For a day, the known facts whose thing its chunks name (their words, not ids, times or speakers), those
        naming the rarest words first: ("subject: statement" lines, the chunks they rest on, their tokens)."""
        if unit.period.level != "daily" or not self._known:
            return NOTHING_SHOWN
        text_of = {chunk.id: chunk.text for chunk in unit.chunks}
        said = set(word_forms(" ".join(text_of.get(c, "") for item in items for c in item.chunks)))
        scored = sorted(  # fsum: the same score in any order of the words, so the same lines in every process
            (-math.fsum(1 / self._rarity[w] for w in naming & said), subject)
            for subject, (_, naming, _, _) in self._known.items()
            if naming & said
        )[:MAX_KNOWN]
        shown = [self._known[subject] for _, subject in scored]
        lines = [line for line, _, _, _ in shown]
        tokens = sum(n for _, _, _, n in shown) + (self._count(KNOWN_HEADING) + 1 if shown else 0)
        return Shown(lines, tuple(sorted({c for _, _, sources, _ in shown for c in sources})), tokens)

    # ---------------------------------------------------------------- map-reduce

    def _summarize_items(self, unit: Unit, items: list[Item], depth: int, what: str, limit: int | None = None) -> Draft:
        limit = limit or self._input_limit()
        known = self._known_shown(unit, items)
        total = sum(i.tokens for i in items) + known.tokens  # the facts of earlier days take room beside the data
        if total <= limit or len(items) <= 1:
            try:
                return self._ask(unit, items, what, known)
            except ContextTooLong:
                if depth >= MAX_SPLIT_DEPTH or len(items) <= 1:
                    raise UnitFailed(f"{unit.label}: input too long for {self.model} even after splitting") from None
                # the model's window is smaller than we thought: remember it, and split in two
                self._learned_limit = max(200, total // 2)
                return self._summarize_items(unit, items, depth + 1, what, self._learned_limit)
        if depth >= MAX_SPLIT_DEPTH:
            raise UnitFailed(f"{unit.label}: input too long for {self.model} even after splitting")
        batches: list[list[Item]] = [[]]
        for item in items:
            if batches[-1] and sum(i.tokens for i in batches[-1]) + item.tokens > limit - known.tokens:
                batches.append([])
            batches[-1].append(item)
        partials = [
            self._summarize_items(unit, batch, depth + 1, what + f" (part {n} of {len(batches)})", limit)
            for n, batch in enumerate(batches, 1)
        ]
        # reduce: the parts' bullets become the data of one more call
        merged: list[Item] = []
        for part_index, part in enumerate(partials, 1):
            for name, _ in SECTIONS:
                for bullet_index, bullet in enumerate(part.section(name), 1):
                    item_id = f"p{part_index}-{bullet_index}{name[0]}"
                    line = f"[{item_id}] ({name}) {bullet.text}"
                    merged.append(Item(item_id, line, bullet.sources, self._count(line)))
        facts = tuple(f for part in partials for f in part.facts)
        reduced = self._summarize_items(unit, merged, depth + 1, what + " (combine the parts)", limit)
        return Draft(
            reduced.overview,
            reduced.decisions,
            reduced.problems,
            reduced.pending,
            reduced.highlights,
            reduced.topics,
            facts + reduced.facts,
            tuple(sorted({c for part in [*partials, reduced] for c in part.shown})),
        )

    # ---------------------------------------------------------------- one call, validated and cached

    def _cache_key(self, unit: Unit, items: Sequence[Item], what: str, known: Sequence[str] = ()) -> str:
        record: dict[str, Any] = {
            "prompt": PROMPT_VERSION,
            "model": self.model,
            "params": dict(self.params()),
            "budget": unit.budget,
            "what": what,
            "items": [[i.id, sha256_hex(i.line), list(i.chunks)] for i in items],
        }
        if known:  # (absent, the key is what it was before known facts were shown)
            record["known"] = sha256_hex("\n".join([KNOWN_HEADING, KNOWN_PROMPT, *known]))
        return sha256_hex(canonical_json(record))

    def _ask(self, unit: Unit, items: list[Item], what: str, shown: Shown) -> Draft:
        # the known facts are context, not input: they are in the cache key, but not in the period's input hash
        # (compaction.input_hash), or every new fact would send every summary back to the model
        known = shown.lines
        key = self._cache_key(unit, items, what, known)
        cached = self._cache_get(key, items)
        if cached is not None:
            with self._lock:
                self.usage.cache_hits += 1
            return replace(draft_from_answer(cached, items, unit, self.config.fact_min_confidence), shown=shown.chunks)
        data = "\n".join(DELIMITER_LIKE.sub("<< ", i.line) for i in items)
        if known:
            data += "\n" + "\n".join([KNOWN_HEADING, *known])
        marker = "MEMTREE-DATA-" + sha256_hex(data)[:16]
        open_, close = f"<<{marker}>>", f"<<END-{marker}>>"
        told = KNOWN_PROMPT if known else ""
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT.format(open=open_, close=close, budget=unit.budget)},
            {"role": "user", "content": USER_PROMPT.format(what=what, open=open_, close=close, data=data, known=told)},
        ]
        deadline = self._clock() + UNIT_DEADLINE
        problem = ""
        for _ in range(MAX_REASKS + 1):
            if problem:
                messages = [
                    *messages[:2],
                    {
                        "role": "user",
                        "content": f"Your previous answer was invalid: {problem}. "
                        "Answer again with the JSON object only.",
                    },
                ]
            answer = self._call(messages, unit, deadline)
            try:
                parsed = validate_answer(answer, items)
            except InvalidAnswer as exc:
                problem = str(exc)[:300]
                continue
            self._cache_put(key, parsed, items, shown.chunks)
            return replace(draft_from_answer(parsed, items, unit, self.config.fact_min_confidence), shown=shown.chunks)
        raise UnitFailed(f"{unit.label}: invalid answers from {self.model} ({problem})")

    def _call(self, messages: list[dict[str, str]], unit: Unit, deadline: float) -> str:
        litellm = self._lib()
        with self._lock:
            if not self._checked:
                self._preflight(litellm)
                self._checked = True
        for attempt in range(1, MAX_ATTEMPTS + 1):
            self._reserve(messages, unit)
            try:
                response = self._guarded(litellm, messages, unit)
            except Exception as exc:
                verdict = classify(exc)
                if verdict == "split":
                    raise ContextTooLong() from exc
                if verdict == "fatal":
                    raise LLMError(
                        f"{self.model}: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}",
                        hint="check the model name, the API key environment variable and your quota",
                    ) from None
                if verdict == "fail" or attempt == MAX_ATTEMPTS:
                    raise UnitFailed(
                        f"{unit.label}: {type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}"
                    ) from None
                wait = self._rng.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempt - 1)))
                after = _retry_after(exc)
                if after is not None:
                    wait = max(wait, after)
                if self._clock() + wait > deadline:
                    raise UnitFailed(f"{unit.label}: gave up retrying after {type(exc).__name__}") from None
                self._sleep(wait)
                continue
            self._account(response)
            choices = getattr(response, "choices", None) or []
            content = choices[0].message.content if choices else None
            return content if isinstance(content, str) else ""
        raise AssertionError("unreachable")

    def _check_model(self, litellm: Any) -> None:
        """A model string naming no provider fails every unit on its own: say so once (exit 8)."""
        try:
            litellm.get_llm_provider(self.model, api_base=self.settings.api_base)
        except Exception:
            raise LLMError(
                f"unknown model {self.model!r}: LiteLLM cannot tell which provider serves it",
                hint="name it as provider/model, e.g. openai/gpt-4o-mini, anthropic/claude-haiku-4-5, ollama/llama3.1",
            ) from None

    def _preflight(self, litellm: Any) -> None:
        """Stops the run at once (exit 8) for what no retry can fix: an unknown model, or the provider's
        key missing from the environment (LiteLLM reports that as a 500, which the retry policy would
        retry for minutes per unit)."""
        self._check_model(litellm)
        if "mock_response" in self._extra:
            return
        try:
            missing = litellm.validate_environment(self.model, api_base=self.settings.api_base).get("missing_keys")
        except Exception:  # a provider it cannot check: the first call will tell
            return
        keys = [k for k in missing or () if isinstance(k, str) and k.endswith(("_KEY", "_TOKEN"))]
        if keys:
            raise LLMError(
                f"{self.model} needs {' and '.join(keys)} in the environment",
                hint=f"export {keys[0]}=... (cron and systemd do not read your shell profile: see `memtree schedule`)",
            )

    def _guarded(self, litellm: Any, messages: list[dict[str, str]], unit: Unit) -> Any:
        """The call, in a thread we can walk away from if it outlives its timeout (a trickling server)."""
        outcome: dict[str, Any] = {}

        def call() -> None:
            try:
                outcome["response"] = litellm.completion(
                    model=self.model,
                    messages=messages,
                    temperature=self.settings.temperature,
                    max_tokens=max(256, unit.budget * 3),
                    timeout=self.settings.timeout,
                    num_retries=0,
                    api_base=self.settings.api_base,
                    **self._extra,
                )
            except BaseException as exc:  # handed to the caller's thread
                outcome["error"] = exc

        worker = threading.Thread(target=call, daemon=True, name="memtree-llm-call")
        worker.start()
        worker.join(self.settings.timeout + 5)
        if worker.is_alive():
            raise CallTimedOut(f"no answer within {self.settings.timeout:.0f}s")
        if "error" in outcome:
            raise outcome["error"]
        return outcome["response"]

    def _reserve(self, messages: list[dict[str, str]], unit: Unit) -> None:
        """Counts a call against --max-calls / --max-cost before it is made."""
        with self._lock:
            if self.limits.max_calls is not None and self._started >= self.limits.max_calls:
                raise BudgetReached()
            if self.limits.max_cost is not None:
                tokens_in = sum(self._count(m["content"]) for m in messages)
                expected = self._price(tokens_in, unit.budget * 2) or 0.0
                if self.usage.cost + expected > self.limits.max_cost:
                    raise BudgetReached()
            self._started += 1

    def _account(self, response: Any) -> None:
        usage = getattr(response, "usage", None)
        tokens_in = int(getattr(usage, "prompt_tokens", 0) or 0)
        tokens_out = int(getattr(usage, "completion_tokens", 0) or 0)
        cost = 0.0
        try:
            cost = float(self._lib().completion_cost(completion_response=response) or 0.0)
        except Exception:  # a model missing from LiteLLM's local price list costs what we cannot tell
            cost = self._price(tokens_in, tokens_out) or 0.0
        with self._lock:
            self.usage.calls += 1
            self.usage.input_tokens += tokens_in
            self.usage.output_tokens += tokens_out
            self.usage.cost += cost

    def _price(self, tokens_in: int, tokens_out: int) -> float | None:
        try:
            prompt, completion = self._lib().cost_per_token(
                model=self.model, prompt_tokens=tokens_in, completion_tokens=tokens_out
            )
            return float(prompt) + float(completion)
        except Exception:
            return None

    def _lib(self) -> Any:
        if self._litellm is None:
            self._litellm = _import_litellm()
        return self._litellm

    def _finish(self, unit: Unit, draft: Draft) -> Draft:
        """Topics counted by code (the model only names them), and the body cut to its budget."""
        if unit.period.level == "daily":
            day = unit.period.key
            ranked = rank_topics([candidates(c.text, c.topics) for c in unit.chunks], 15)
            stats = [TopicStat(name, count, day, day) for _, name, count in ranked]
            texts = [" " + " ".join(word_forms(c.text)) + " " for c in unit.chunks]
            for t in draft.topics:
                key = " ".join(word_forms(t.name))
                mentions = sum(1 for text in texts if key and f" {key} " in text)
                stats.append(TopicStat(t.name, max(1, mentions), day, day))
            topics = merge_topics(stats, 20)
        else:
            topics = merge_topics((t for child in unit.children for t in child.draft.topics), 40)
        sections = {name: list(draft.section(name)) for name, _ in SECTIONS}
        while self._size(sections) > unit.budget:
            for name in ("highlights", "pending", "problems", "decisions", "overview"):
                if sections[name]:
                    sections[name].pop()
                    break
            else:
                break
        return Draft(
            tuple(sections["overview"]),
            tuple(sections["decisions"]),
            tuple(sections["problems"]),
            tuple(sections["pending"]),
            tuple(sections["highlights"]),
            topics,
            draft.facts,
            draft.shown,
        )

    def _size(self, sections: Mapping[str, Sequence[Bullet]]) -> int:
        return (
            20
            + sum(self._count(render_bullet(b)) + 1 for bullets in sections.values() for b in bullets)
            + 5 * sum(1 for bullets in sections.values() if bullets)
        )

    # ---------------------------------------------------------------- the cache

    def _cache_get(self, key: str, items: Sequence[Item]) -> dict[str, Any] | None:
        raw = self._vault.read_bytes(f"{DERIVED}/cache/{key}.json") if self._vault else None
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            answer = data.get("answer") if isinstance(data, dict) else None
            if not isinstance(answer, dict):
                return None
            # validated again, as if the model had just sent it: the file may be damaged or hand-made
            overview = answer.get("overview")
            sent = {**answer, "overview": overview[0] if isinstance(overview, list) and overview else None}
            return validate_answer(json.dumps(sent), items)
        except (ValueError, RecursionError, InvalidAnswer):
            return None  # damaged: recompute (and overwrite)

    def _cache_put(self, key: str, answer: dict[str, Any], items: Sequence[Item], shown: Sequence[str] = ()) -> None:
        if self._vault is not None:
            # the chunks behind the answer, known facts' included, so that `memtree forget` can purge every answer
            # that saw one
            chunks = sorted({c for item in items for c in item.chunks} | set(shown))
            record = {"model": self.model, "prompt": PROMPT_VERSION, "chunks": chunks, "answer": answer}
            self._vault.write(f"{DERIVED}/cache/{key}.json", json.dumps(record, ensure_ascii=False).encode("utf-8"))
