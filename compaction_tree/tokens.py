"""Token counting, offline: the one place tiktoken is imported.

tiktoken fetches its BPE files on first use, which fails (or hangs) without internet. The
litellm wheel ships the cl100k_base and o200k_base files under
`litellm/litellm_core_utils/tokenizers/`, named as tiktoken's cache expects (sha1 of the
download URL), so we point TIKTOKEN_CACHE_DIR there, found without importing litellm.

Fallback (documented in README.md): when neither that folder nor a TIKTOKEN_CACHE_DIR of the
user's holds the file, or tiktoken is missing, tokens are approximated as ceil(chars / 4).
We check the file is present before asking tiktoken, so it never tries the network.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
from collections.abc import Callable
from pathlib import Path

DEFAULT_ENCODING = "o200k_base"
APPROXIMATE = "approx-chars/4"
_BLOB = "https://openaipublic.blob.core.windows.net/encodings/{}.tiktoken"

_counters: dict[str, tuple[str, Callable[[str], int]]] = {}
SHORT_TEXT = 120  # characters: the counts of texts this short are remembered ...
SHORT_TEXTS = 1 << 16  # ... this many of them


def _approximate(text: str) -> int:
    return (len(text) + 3) // 4


def bundled_tokenizer_dir() -> Path | None:
    """litellm's folder of tiktoken files, located without importing litellm (it takes seconds)."""
    try:
        spec = importlib.util.find_spec("litellm")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"
    return folder if folder.is_dir() else None


def _cache_file_present(encoding: str) -> bool:
    name = hashlib.sha1(_BLOB.format(encoding).encode()).hexdigest()
    configured = os.environ.get("TIKTOKEN_CACHE_DIR")
    if configured:
        return (Path(configured) / name).is_file()
    bundled = bundled_tokenizer_dir()
    if bundled is not None and (bundled / name).is_file():
        os.environ["TIKTOKEN_CACHE_DIR"] = str(bundled)
        return True
    return False


def _load(encoding: str) -> tuple[str, Callable[[str], int]]:
    if encoding == APPROXIMATE or not _cache_file_present(encoding):
        return APPROXIMATE, _approximate
    try:
        import tiktoken

        enc = tiktoken.get_encoding(encoding)
    except Exception:  # a missing package or a damaged file: fall back rather than fail a command
        return APPROXIMATE, _approximate

    def count(text: str) -> int:
        return len(enc.encode(text, disallowed_special=()))

    # recall counts a header per candidate ("[id] speaker: ", a day's heading), hundreds per question and
    # the same ones question after question (prune's recall gate asks hundreds): counted once
    remembered = functools.lru_cache(maxsize=SHORT_TEXTS)(count)

    def count_short_once(text: str) -> int:
        return remembered(text) if len(text) <= SHORT_TEXT else count(text)

    return encoding, count_short_once


def counter(encoding: str = DEFAULT_ENCODING) -> tuple[str, Callable[[str], int]]:
    """(name actually used, count function); loaded once per process."""
    if encoding not in _counters:
        _counters[encoding] = _load(encoding)
    return _counters[encoding]


def counter_for(encoding: str = DEFAULT_ENCODING) -> Callable[[str], int]:
    return counter(encoding)[1]


def count_tokens(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    return counter(encoding)[1](text)


def tokenizer_name(encoding: str = DEFAULT_ENCODING) -> str:
    """The tokenizer counts will use, told without loading it (0.45 s for o200k_base)."""
    if encoding in _counters:
        return _counters[encoding][0]
    available = _cache_file_present(encoding) and importlib.util.find_spec("tiktoken") is not None
    return encoding if available and encoding != APPROXIMATE else APPROXIMATE
