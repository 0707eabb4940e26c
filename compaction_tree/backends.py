"""The summarizer backends by name, and the choice of one for a run (--model, MEMTREE_MODEL, memtree.yaml).

summarizers.py holds what every backend shares (the Protocol, Unit, Usage, Limits); the backends
import it, and this table imports them only when one is chosen: litellm stays off `memtree add`'s path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from .config import ENV_MODEL, Config
from .errors import ConfigError
from .summarizers import Summarizer
from .vault import Vault


def _extractive(vault: Vault, config: Config, model: str | None) -> Summarizer:
    from .extractive import ExtractiveSummarizer

    return ExtractiveSummarizer(config)


def _litellm(vault: Vault, config: Config, model: str | None) -> Summarizer:
    if not model:
        raise ConfigError(
            "the litellm summarizer needs a model",
            hint="pass --model openai/gpt-4o-mini, set MEMTREE_MODEL, or set summarizer.model in memtree.yaml",
        )
    from .llm import LiteLLMSummarizer

    return LiteLLMSummarizer(config, model, vault=vault)


BACKENDS: dict[str, Callable[[Vault, Config, str | None], Summarizer]] = {
    "extractive": _extractive,
    "litellm": _litellm,
}


def summarizer_for(vault: Vault, model: str | None = None, env: Mapping[str, str] | None = None) -> Summarizer:
    """The backend for this run: --model, then MEMTREE_MODEL, then memtree.yaml. A model named in
    any of them means litellm: `summarizer.model` set while `backend` still says extractive would
    otherwise be ignored, and the next run would replace the model's summaries with extractive ones."""
    config = vault.config
    env = os.environ if env is None else env
    chosen_model = model or env.get(ENV_MODEL) or config.summarizer.model
    backend = "litellm" if chosen_model else config.summarizer.backend
    return BACKENDS[backend](vault, config, chosen_model)
