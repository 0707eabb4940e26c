"""Where the vault is (--vault, then MEMTREE_VAULT, then the nearest memtree.yaml upward) and
what its memtree.yaml says."""

from __future__ import annotations

import contextlib
import math
import os
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, get_args, get_type_hints
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import ConfigError, VaultNotFoundError

CONFIG_FILE = "memtree.yaml"
ENV_VAULT = "MEMTREE_VAULT"
ENV_MODEL = "MEMTREE_MODEL"
MAX_CONFIG_BYTES = 256 * 1024
CONFIG_RULES = 4  # bump when parse_config refuses more: a config cached under older rules is parsed again
BACKENDS = ("extractive", "litellm")
# tiktoken's encodings, and the count it falls back to (tokens.APPROXIMATE, spelled out: importing tokens
# here would slow `memtree add`); o200k_base and cl100k_base ship with litellm, the others count as
# chars/4 unless TIKTOKEN_CACHE_DIR holds them (tokens.py)
TIKTOKEN_ENCODINGS = ("o200k_base", "cl100k_base", "o200k_harmony", "p50k_base", "p50k_edit", "r50k_base", "gpt2")
TOKENIZERS = (*TIKTOKEN_ENCODINGS, "approx-chars/4")
# Token budgets: below 50 a summary holds no sentence; a summary or ROOT.md above 100,000 tokens would
# crowd out the conversation in most models' windows, and recall above 1,000,000 fits none of them.
MIN_BUDGET = 50
MAX_BUDGET = 100_000
MAX_RECALL_BUDGET = 1_000_000
MAX_SETTLE_HOURS = 24 * 366  # a year: beyond it nothing would ever be summarized (and timedelta overflows)


@dataclass(frozen=True)
class SummarizerConfig:
    backend: str = "extractive"
    model: str | None = None
    api_base: str | None = None
    temperature: float = 0.0
    timeout: float = 120.0  # seconds per call; LiteLLM's own default is 6000
    concurrency: int = 4
    max_calls: int | None = None  # per run
    max_cost: float | None = None  # USD per run
    max_input_tokens: int | None = None  # None: from the model's context window


@dataclass(frozen=True)
class Budgets:
    root: int = 3000
    daily: int = 400
    weekly: int = 600
    monthly: int = 800
    recall: int = 5000

    def for_level(self, level: str) -> int:
        value: int = getattr(self, level)
        return value


@dataclass(frozen=True)
class RetentionConfig:
    """`memtree prune` (retention.py): what may go once a summary covers it."""

    older_than_days: int = 90  # only chunks older than this are ever pruned
    floor: float = 0.5  # chunks whose importance reaches this stay forever


@dataclass(frozen=True)
class Config:
    timezone: str = "UTC"
    summarizer: SummarizerConfig = field(default_factory=SummarizerConfig)
    budgets: Budgets = field(default_factory=Budgets)
    settle_hours: float = 2.0
    redaction: bool = True
    disabled_rules: tuple[str, ...] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)
    fact_min_confidence: float = 0.6
    # the learned fallback behind the fact frames: more facts, but in real chat only a third to a half right
    fact_learned: bool = False
    tokenizer: str = "o200k_base"
    retention: RetentionConfig = field(default_factory=RetentionConfig)
    # recall by meaning too (embeddings.py): False, True (the provider's embedding model) or a LiteLLM model
    recall_embeddings: bool | str = False

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


def system_timezone() -> str:
    """The machine's IANA zone name, or UTC when it cannot be told."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    try:
        target = os.readlink("/etc/localtime")
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    with contextlib.suppress(OSError):
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    for name in candidates:
        if name and valid_zone(name):
            return name
    return "UTC"


def valid_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def default_config_text(timezone: str) -> str:
    """The memtree.yaml that `memtree init` writes: every setting, with a comment saying why."""
    return f"""\
# memtree vault configuration (see README.md, "Configuration").
timezone: {timezone}  # IANA name: days, weeks and months are cut in this zone

summarizer:
  backend: extractive  # extractive (built in, offline, deterministic) or litellm (implied by a model)
  model: null  # a LiteLLM model string, e.g. openai/gpt-4o-mini; also --model or MEMTREE_MODEL
  api_base: null  # an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1
  temperature: 0
  timeout: 120  # seconds per LLM call
  concurrency: 4  # LLM calls in flight at once
  max_calls: null  # per compaction run; the rest waits for the next run
  max_cost: null  # USD per compaction run
  max_input_tokens: null  # split larger inputs (map-reduce); null: from the model's context window

budgets:  # tokens
  root: 3000  # ROOT.md, the index loaded at session start
  daily: 400
  weekly: 600
  monthly: 800
  recall: 5000  # default for `memtree recall` without --budget

settle_hours: 2  # a day, week or month is summarized this long after it ends

redaction:
  enabled: true  # replace API keys, tokens, private keys and passwords before anything is written
  disabled_rules: []  # rule names to skip, e.g. [jwt]

topics:
  aliases: {{}}  # extra aliases, e.g. {{k8s: kubernetes, pg: postgres}}

facts:
  min_confidence: 0.6  # facts below this are not stored
  learned: false  # also facts a small learned model reads (more found, many wrong: README, "How well it works")

tokenizer: o200k_base  # tiktoken encoding; counts are approximate (chars/4) when it is unavailable

recall:
  embeddings: false  # also find chunks by meaning: true (the provider's embedding model) or a LiteLLM model

retention:  # `memtree prune` (dry run unless --apply); see README.md, "Retention"
  older_than_days: 90  # only raw chunks older than this may go, once a summary cites them
  floor: 0.5  # importance (0..1) at or above which a chunk stays forever
"""


MAX_FAST_NESTING = 500
MAX_FLOW_INDICATORS = 10_000  # `[` and `{`: far beyond any file memtree writes
_BRACKETS = re.compile(r"[][{}]")


MAX_FLOW_DEPTH = 100  # memtree's own files nest `[`/`{` three deep at most


def too_nested(text: str) -> bool:
    """Refused outright: even the pure-Python loader takes quadratic time on deep flow nesting
    (~2 s for 60,000 `[`; and 1.3 s for 1,500 nested `{` found by fuzzing, where each level keeps a
    possible simple key the scanner walks for every token, measured here). No memtree file comes near
    either bound. The depth ignores quoting, so it can only overestimate."""
    flow = text.count("[") + text.count("{")
    if flow > MAX_FLOW_INDICATORS:
        return True
    if flow <= MAX_FLOW_DEPTH:
        return False
    depth = deepest = 0
    for bracket in _BRACKETS.findall(text):
        depth = depth + 1 if bracket in "[{" else max(0, depth - 1)
        deepest = max(deepest, depth)
    return deepest > MAX_FLOW_DEPTH


def safe_loader(yaml: Any, text: str) -> Any:
    """PyYAML's C SafeLoader, unless `text` could nest deeper than MAX_FAST_NESTING: its C composer
    recurses without a limit and a crafted file of ~50,000 `[` kills the process (a segfault,
    measured here). Then the pure-Python SafeLoader, which stops with a RecursionError instead.
    The bound is cheap and generous (every `[`/`{` anywhere, plus the deepest line's indentation and
    indicators), so ordinary files keep the fast loader."""
    flow = text.count("[") + text.count("{")
    block = max(
        (2 * (len(line) - len(line.lstrip(" "))) + line.count("- ") + line.count(": ") for line in text.splitlines()),
        default=0,
    )
    if flow + block > MAX_FAST_NESTING:
        return yaml.SafeLoader
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load_yaml(text: str, source: str) -> dict[str, Any]:
    import yaml  # not at module level: `memtree add` reads the cached config instead (see vault.load_config)

    try:
        if too_nested(text):
            raise RecursionError
        data = yaml.load(text, Loader=safe_loader(yaml, text))
    except RecursionError:
        raise ConfigError(f"{source} nests too deeply", hint="it should hold a few settings") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(
            f"{source} is not valid YAML{where}",
            hint="fix the file, or compare it with `memtree init` in an empty folder",
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source} must be a mapping of settings", hint="see README.md, Configuration")
    return data


def _typed(name: str, value: Any, annotation: Any) -> Any:
    """Checks one setting against its annotation (int, float, str, bool, optionally None)."""
    options = get_args(annotation) or (annotation,)
    base = next(t for t in options if t is not type(None))
    if value is None:
        if type(None) in options:
            return None
        raise ConfigError(f"memtree.yaml: {name} must not be empty", hint="remove the line to use the default")
    if base is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, base) or (isinstance(value, bool) and base is not bool):
        kind = {int: "a whole number", float: "a number", bool: "true or false", str: "text"}[base]
        raise ConfigError(f"memtree.yaml: {name} must be {kind}, not {value!r}", hint="see README.md, Configuration")
    if base is float and not math.isfinite(value):
        raise ConfigError(
            f"memtree.yaml: {name} must be a finite number, not {value!r}", hint="see README.md, Configuration"
        )
    if base in (int, float) and value < 0:
        raise ConfigError(f"memtree.yaml: {name} must not be negative", hint="see README.md, Configuration")
    return value


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name) or {}
    if not isinstance(value, dict):
        raise ConfigError(f"memtree.yaml: {name} must be a mapping", hint="see README.md, Configuration")
    return value


def _dataclass_from(cls: Any, values: dict[str, Any], section: str) -> Any:
    hints = get_type_hints(cls)
    kwargs = {
        f.name: _typed(f"{section}.{f.name}", values[f.name], hints[f.name]) for f in fields(cls) if f.name in values
    }
    return cls(**kwargs)


def _check_budgets(budgets: Budgets) -> None:
    for name in ("root", "daily", "weekly", "monthly", "recall"):
        value, most = getattr(budgets, name), MAX_RECALL_BUDGET if name == "recall" else MAX_BUDGET
        if not MIN_BUDGET <= value <= most:
            raise ConfigError(
                f"memtree.yaml: budgets.{name} must be from {MIN_BUDGET} to {most:,} tokens, not {value:,}",
                hint="the defaults: root 3000, daily 400, weekly 600, monthly 800, recall 5000",
            )


def _check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ConfigError(f"memtree.yaml: unknown {name} {value!r}", hint=f"use one of {', '.join(choices)}")
    return value


MAX_MODEL_CHARS = 200


def _recall_embeddings(value: Any) -> bool | str:
    """recall.embeddings: true, false (or empty), or a LiteLLM embedding model string."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and 0 < len(value) <= MAX_MODEL_CHARS and not any(c.isspace() for c in value):
        return value
    raise ConfigError(
        f"memtree.yaml: recall.embeddings must be true, false or a LiteLLM embedding model, not {repr(value)[:60]}",
        hint="e.g. recall.embeddings: openai/text-embedding-3-small",
    )


def parse_config(text: str, source: str = CONFIG_FILE) -> Config:
    """Reads memtree.yaml; unknown keys are ignored (and reported by `memtree doctor`)."""
    if len(text.encode("utf-8")) > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"{source} is larger than {MAX_CONFIG_BYTES // 1024} KB", hint="it should hold a few settings"
        )
    if "\x00" in text:
        raise ConfigError(
            f"{source} is binary (it holds a NUL byte)",
            hint="it should hold a few settings: run `memtree init` in an empty folder to see them",
        )
    data = _load_yaml(text, source)
    timezone = data.get("timezone", "UTC")
    if not isinstance(timezone, str) or not valid_zone(timezone):
        raise ConfigError(
            f"memtree.yaml: unknown time zone {timezone!r}", hint="use an IANA name such as Europe/Paris or UTC"
        )
    summarizer: SummarizerConfig = _dataclass_from(SummarizerConfig, _section(data, "summarizer"), "summarizer")
    _check_choice("summarizer backend", summarizer.backend, BACKENDS)
    if summarizer.concurrency < 1:
        raise ConfigError("memtree.yaml: summarizer.concurrency must be at least 1", hint="try 4")
    budgets: Budgets = _dataclass_from(Budgets, _section(data, "budgets"), "budgets")
    _check_budgets(budgets)
    redaction = _section(data, "redaction")
    disabled = redaction.get("disabled_rules") or []
    if not isinstance(disabled, list) or not all(isinstance(r, str) for r in disabled):
        raise ConfigError("memtree.yaml: redaction.disabled_rules must be a list of rule names", hint="e.g. [jwt]")
    from .redact import RULE_NAMES

    unknown = sorted(set(disabled) - RULE_NAMES)
    if unknown:
        raise ConfigError(
            f"memtree.yaml: unknown redaction rule {unknown[0]!r}", hint=f"known rules: {', '.join(sorted(RULE_NAMES))}"
        )
    aliases = _section(data, "topics").get("aliases") or {}
    if not isinstance(aliases, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in aliases.items()):
        raise ConfigError("memtree.yaml: topics.aliases must map names to names", hint="e.g. {k8s: kubernetes}")
    retention: RetentionConfig = _dataclass_from(RetentionConfig, _section(data, "retention"), "retention")
    if retention.older_than_days < 1 or not 0 <= retention.floor <= 1:
        raise ConfigError(
            "memtree.yaml: retention.older_than_days must be at least 1 and retention.floor within 0..1",
            hint="the defaults are 90 and 0.5",
        )
    defaults = Config()
    settle_hours = _typed("settle_hours", data.get("settle_hours", defaults.settle_hours), float)
    if settle_hours > MAX_SETTLE_HOURS:
        raise ConfigError(
            f"memtree.yaml: settle_hours must be at most {MAX_SETTLE_HOURS} (a year)", hint="the default is 2"
        )
    return Config(
        timezone=timezone,
        summarizer=summarizer,
        budgets=budgets,
        settle_hours=settle_hours,
        redaction=_typed("redaction.enabled", redaction.get("enabled", True), bool),
        disabled_rules=tuple(disabled),
        aliases=dict(sorted(aliases.items())),
        fact_min_confidence=_typed("facts.min_confidence", _section(data, "facts").get("min_confidence", 0.6), float),
        fact_learned=_typed("facts.learned", _section(data, "facts").get("learned", False), bool),
        tokenizer=_check_choice(
            "tokenizer", _typed("tokenizer", data.get("tokenizer", defaults.tokenizer), str), TOKENIZERS
        ),
        retention=retention,
        recall_embeddings=_recall_embeddings(_section(data, "recall").get("embeddings")),
    )


def find_vault(
    explicit: Path | str | None = None, env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> Path:
    """The vault folder: --vault, then $MEMTREE_VAULT, then the nearest folder upward with memtree.yaml."""
    env = os.environ if env is None else env
    for given, origin in ((explicit, "--vault"), (env.get(ENV_VAULT) or None, ENV_VAULT)):
        if given is not None:
            folder = Path(given).expanduser().absolute()
            if not (folder / CONFIG_FILE).is_file():
                raise VaultNotFoundError(
                    f"{folder} is not a memtree vault ({origin} points at it, but it has no {CONFIG_FILE})",
                    hint=f"run `memtree --vault {folder} init`, or fix {origin}",
                )
            return folder
    start = (cwd or Path.cwd()).absolute()
    for folder in (start, *start.parents):
        if (folder / CONFIG_FILE).is_file():
            return folder
    raise VaultNotFoundError(
        "no memtree vault here or in any parent folder",
        hint="run `memtree init` in the vault folder, or pass --vault DIR, or set MEMTREE_VAULT",
    )


def init_target(
    explicit: Path | str | None = None, env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> Path:
    """Where `memtree init` creates a vault: --vault, then $MEMTREE_VAULT, then the current folder."""
    env = os.environ if env is None else env
    given = explicit if explicit is not None else (env.get(ENV_VAULT) or None)
    return Path(given).expanduser().absolute() if given is not None else (cwd or Path.cwd()).absolute()


def config_to_data(config: Config) -> dict[str, Any]:
    """A JSON-able copy of a parsed config (what the cache under .memtree/ holds)."""
    return asdict(config)


def config_from_data(data: dict[str, Any]) -> Config:
    return Config(
        timezone=data["timezone"],
        summarizer=SummarizerConfig(**data["summarizer"]),
        budgets=Budgets(**data["budgets"]),
        settle_hours=data["settle_hours"],
        redaction=data["redaction"],
        disabled_rules=tuple(data["disabled_rules"]),
        aliases=dict(data["aliases"]),
        fact_min_confidence=data["fact_min_confidence"],
        fact_learned=data.get("fact_learned", False),
        tokenizer=data["tokenizer"],
        retention=RetentionConfig(**data.get("retention", {})),
        recall_embeddings=data.get("recall_embeddings", False),
    )
