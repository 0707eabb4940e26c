"""Embeddings through LiteLLM (optional, derived): the one provider call facts and recall share, and
recall's store of chunk vectors.

With `recall.embeddings` set, `compact` embeds every chunk not embedded yet ("speaker: text", batched)
into .memtree/chunk-vectors.bin, drops the vectors of chunks that are gone, and rebuilds the store when
the model changes or the file is damaged; a provider failure keeps what was embedded and leaves one
warning. Recall embeds the question (one call) and passes the chunks nearest it by cosine to
retrieval's `nearest` hook; chunks not embedded yet are still found by their words. The file is never
committed (.memtree/ is git-ignored), written atomically, and the same vectors give the same bytes.
numpy (the `embeddings` extra) is imported only here, and only when vectors are read or searched.
"""

from __future__ import annotations

import hashlib
import json
import math
import mmap
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import Config
    from .index import Index
    from .vault import Vault

# The embedding model of each provider that has one; other providers keep the lexical similarity.
EMBEDDING_MODELS = {
    "openai": "openai/text-embedding-3-small",
    "azure": "azure/text-embedding-3-small",
    "ollama": "ollama/nomic-embed-text",
    "gemini": "gemini/text-embedding-004",
    "mistral": "mistral/mistral-embed",
}
ENV_EMBEDDING_MODEL = "MEMTREE_EMBEDDING_MODEL"
BATCH = 64  # texts per provider call
MAX_CHARS = 8000  # of a chunk's text embedded: ~2K tokens, within every provider's input limit
SAVE_EVERY = 60.0  # seconds of a long fill between saves of the store
QUERY_TIMEOUT = 10.0  # seconds at most for the question's call: recall answers by words rather than wait
VECTORS_FILE = ".memtree/chunk-vectors.bin"
_MAGIC = b"memtree chunk vectors 1\n"
_NAME_ONE = "name one, e.g. recall.embeddings: ollama/nomic-embed-text, or set $MEMTREE_EMBEDDING_MODEL"


def embedding_model(config: Config, env: Mapping[str, str] | None = None) -> str | None:
    """For a litellm vault: $MEMTREE_EMBEDDING_MODEL, else the embedding model of the chat model's provider."""
    if config.summarizer.backend != "litellm" or not config.summarizer.model:
        return None
    explicit = (os.environ if env is None else env).get(ENV_EMBEDDING_MODEL)
    if explicit:
        return explicit
    model = config.summarizer.model
    return EMBEDDING_MODELS.get(model.split("/", 1)[0] if "/" in model else "openai")


def recall_model(config: Config, env: Mapping[str, str] | None = None) -> str | None:
    """The model `recall.embeddings` names: None when off; `true` means $MEMTREE_EMBEDDING_MODEL, else the
    summarizer's provider's (embedding_model), None when there is neither."""
    setting = config.recall_embeddings
    if setting is True:
        explicit = (os.environ if env is None else env).get(ENV_EMBEDDING_MODEL)
        return explicit or embedding_model(config, env)
    return setting or None


def embed_texts(model: str, texts: Sequence[str], api_base: str | None, timeout: float) -> list[list[float]]:
    """One vector per text, in order, from litellm.embedding, BATCH texts a call and no retry. Raises on
    any failure, including an answer that is not one vector of finite numbers per text."""
    from .llm import _import_litellm

    litellm = _import_litellm()
    vectors: list[list[float]] = []
    # embedding() ignores num_retries=0 and falls back to this default (3 requests per call, measured):
    # set for our calls only, and put back, since the process may use LiteLLM for other things
    previous = getattr(litellm, "DEFAULT_MAX_RETRIES", None)
    setattr(litellm, "DEFAULT_MAX_RETRIES", 0)  # noqa: B010
    try:
        for start in range(0, len(texts), BATCH):
            batch = list(texts[start : start + BATCH])
            response = litellm.embedding(model=model, input=batch, api_base=api_base, timeout=timeout, num_retries=0)
            vectors += _vectors_of(response, len(batch))
    finally:
        setattr(litellm, "DEFAULT_MAX_RETRIES", previous)  # noqa: B010
    return vectors


def _vectors_of(response: Any, expected: int) -> list[list[float]]:
    items = sorted(_field(response, "data", None) or [], key=lambda item: _field(item, "index", 0))
    vectors = [[float(x) for x in _field(item, "embedding", None) or []] for item in items]
    if len(vectors) != expected or not all(v and all(math.isfinite(x) for x in v) for v in vectors):
        raise ValueError(f"the provider sent {len(vectors)} usable vector(s) for {expected} text(s)")
    return vectors


def _field(item: Any, name: str, default: Any) -> Any:
    return item.get(name, default) if isinstance(item, dict) else getattr(item, name, default)


# ---------------------------------------------------------------- the chunk-vector store


@dataclass(frozen=True)
class Stored:
    """The store as read: ids sorted, each with a digest of the text embedded, and a unit-length row each."""

    model: str
    ids: tuple[str, ...]
    digests: tuple[str, ...]
    matrix: Any  # numpy float32, len(ids) x dim

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1]) if len(self.ids) else 0


def chunk_text(speaker: str, text: str) -> str:
    """What is embedded of a chunk: who said it matters to questions about a person."""
    return f"{speaker}: {text}"[:MAX_CHARS]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def encode(stored: Stored) -> bytes:
    import numpy as np

    header = {"model": stored.model, "dim": stored.dim, "ids": list(stored.ids), "digests": list(stored.digests)}
    payload = np.ascontiguousarray(stored.matrix, dtype="<f4").tobytes() if stored.ids else b""
    return _MAGIC + json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8") + b"\n" + payload


def decode(data: bytes | mmap.mmap | None) -> Stored | None:
    """The store in data (read, or mapped: its vectors are not copied); None when there is none or it is
    damaged in any way (then compaction rebuilds it)."""
    import numpy as np

    if not data or data[: len(_MAGIC)] != _MAGIC:
        return None
    end = data.find(b"\n", len(_MAGIC))
    try:
        header = json.loads(data[len(_MAGIC) : end])
        model, dim, ids, digests = header["model"], header["dim"], tuple(header["ids"]), tuple(header["digests"])
        valid = (
            end > 0
            and isinstance(model, str)
            and isinstance(dim, int)
            and dim >= 0
            and len(ids) == len(digests)
            and all(isinstance(i, str) for i in (*ids, *digests))
            and list(ids) == sorted(set(ids))
            and len(data) - end - 1 == len(ids) * dim * 4
            and (dim > 0 or not ids)
        )
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    if not valid:
        return None
    if not ids:
        return Stored(model, ids, digests, np.zeros((0, 0), "<f4"))
    matrix = np.frombuffer(data, dtype="<f4", count=len(ids) * dim, offset=end + 1).reshape(len(ids), dim)
    return Stored(model, ids, digests, matrix)


def _unit_rows(vectors: Any) -> Any:
    import numpy as np

    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


@dataclass
class FillReport:
    embedded: int = 0
    dropped: int = 0
    total: int = 0
    warning: str | None = None


def refresh_store(vault: Vault, index: Index) -> FillReport:
    """compact's step: with recall.embeddings on, embed the chunks not in the store yet and drop the vectors
    of chunks that are gone; with it off, no store is kept. A failure keeps what was embedded, with a warning."""
    model = recall_model(vault.config)
    if model is None:  # off, or no model known: no vectors are kept (a forgotten chunk's must not outlive it)
        vault.delete(VECTORS_FILE)
        if vault.config.recall_embeddings is False:
            return FillReport()
        return FillReport(warning=f"recall.embeddings: true, but no embedding model is known ({_NAME_ONE})")
    try:
        import numpy as np
    except ImportError:
        vault.delete(VECTORS_FILE)  # vectors of chunks since forgotten must not outlive them
        return FillReport(warning="recall.embeddings needs numpy: pip install 'memtree[embeddings]'")
    texts = {row.id: chunk_text(row.speaker, row.text) for row in index.chunks()}
    wanted = {chunk_id: _digest(text) for chunk_id, text in texts.items()}
    stored = decode(vault.read_bytes(VECTORS_FILE))
    kept = _still_valid(stored, model, wanted)
    dropped = len(stored.ids) - len(kept) if stored is not None else 0
    missing = sorted(set(wanted) - set(kept))
    if stored is not None and stored.model == model and not missing and not dropped:
        return FillReport(total=len(kept))  # as it was: not even re-encoded (58 MB at 38,000 chunks x 384)

    def save() -> None:
        ids = tuple(sorted(kept))
        matrix = np.stack([kept[i] for i in ids]) if ids else np.zeros((0, 0), np.float32)
        vault.write(VECTORS_FILE, encode(Stored(model, ids, tuple(wanted[i] for i in ids), matrix)))

    report = _embed_missing(vault, model, [(i, texts[i]) for i in missing], kept, save)
    report.dropped = dropped
    save()
    report.total = len(kept)
    return report


def _still_valid(stored: Stored | None, model: str, wanted: Mapping[str, str]) -> dict[str, Any]:
    """The stored vectors of chunks that still exist with the text they had, by this model (decode refused a
    store with a damaged row)."""
    import numpy as np

    if stored is None or stored.model != model:
        return {}
    kept = {}
    for row, (chunk_id, digest) in enumerate(zip(stored.ids, stored.digests, strict=True)):
        if wanted.get(chunk_id) == digest:
            kept[chunk_id] = np.array(stored.matrix[row])
    return kept


def _embed_missing(
    vault: Vault, model: str, missing: Sequence[tuple[str, str]], kept: dict[str, Any], save: Callable[[], None]
) -> FillReport:
    """Adds the vectors of (id, text) pairs to kept, batch by batch: a failure keeps the batches done, and a
    long first fill is saved every SAVE_EVERY seconds, so a killed run has not paid for nothing."""
    report = FillReport()
    saved = time.monotonic()
    settings = vault.config.summarizer
    size = len(next(iter(kept.values()))) if kept else None
    for start in range(0, len(missing), BATCH):
        batch = missing[start : start + BATCH]
        try:
            vectors = embed_texts(model, [text for _, text in batch], settings.api_base, settings.timeout)
        except Exception as exc:  # any provider failure: recall finds the rest by words until the next compact
            left = len(missing) - start
            report.warning = f"embeddings unavailable ({_reason(exc)}); {left} chunk(s) left for the next compact"
            break
        if len({size or len(vectors[0]), *(len(v) for v in vectors)}) > 1:
            report.warning = f"{model} sent vectors of different sizes; {len(missing) - start} chunk(s) left"
            break
        size = len(vectors[0])
        kept.update(zip((chunk_id for chunk_id, _ in batch), _unit_rows(vectors), strict=True))
        report.embedded += len(batch)
        if time.monotonic() - saved > SAVE_EVERY:
            save()
            saved = time.monotonic()
    return report


def _reason(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:160]}"


# ---------------------------------------------------------------- recall's nearest chunks


class MeaningUnavailable(Exception):
    """Recall cannot rank by meaning this time (the message says why); it ranks by words alone."""


_loaded: dict[str, tuple[tuple[int, int], Stored | None]] = {}
_queries: dict[tuple[str, str], Any] = {}
_lock = threading.Lock()
MAX_CACHED_QUERIES = 256


def _load(vault: Vault) -> Stored | None:
    """The store, read once per process while its file is unchanged (an MCP server recalls many times)."""
    path = vault.derived / VECTORS_FILE.split("/", 1)[1]
    try:
        stat = path.stat()
    except OSError:
        return None
    key = (stat.st_mtime_ns, stat.st_size)
    with _lock:
        cached = _loaded.get(str(path))
        if cached is not None and cached[0] == key:
            return cached[1]
    try:  # mapped, not read: a search touches every vector once, and a process may search only once
        with path.open("rb") as file:
            stored = decode(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)) if key[1] else None
    except (OSError, ValueError):
        stored = None
    with _lock:
        _loaded[str(path)] = (key, stored)
    return stored


class StoredNearest:
    """retrieval.Nearest over the store: the chunks nearest a question by cosine, most similar first."""

    def __init__(self, vault: Vault, model: str) -> None:
        self.vault, self.model = vault, model

    def __call__(self, query: str, k: int) -> Sequence[tuple[str, float]]:
        try:
            import numpy as np
        except ImportError:
            raise MeaningUnavailable("recall.embeddings needs numpy: pip install 'memtree[embeddings]'") from None
        stored = _load(self.vault)
        if stored is None or stored.model != self.model or not stored.ids:
            raise MeaningUnavailable(f"no chunk is embedded with {self.model} yet (`memtree compact` embeds them)")
        question = self._embed_query(query)
        if question.shape[0] != stored.dim:
            raise MeaningUnavailable(f"{self.model} changed its vectors' size (`memtree compact` embeds again)")
        similarity = stored.matrix @ question  # finite: decode refuses a damaged store, embed_texts a bad vector
        k = min(k, len(stored.ids))
        top = np.argpartition(-similarity, k - 1)[:k] if k < len(stored.ids) else np.arange(len(stored.ids))
        order = sorted(top.tolist(), key=lambda row: (-float(similarity[row]), row))
        return [(stored.ids[row], float(similarity[row])) for row in order]

    def _embed_query(self, query: str) -> Any:
        key = (self.model, query)
        with _lock:
            cached = _queries.get(key)
        if cached is not None:
            return cached
        settings = self.vault.config.summarizer
        try:
            (vector,) = embed_texts(self.model, [query], settings.api_base, min(settings.timeout, QUERY_TIMEOUT))
        except Exception as exc:  # any provider failure: words alone, and say so
            raise MeaningUnavailable(f"embeddings unavailable ({_reason(exc)}); found by words only") from None
        (unit,) = _unit_rows([vector])
        with _lock:
            if len(_queries) >= MAX_CACHED_QUERIES:
                _queries.pop(next(iter(_queries)))
            _queries[key] = unit
        return unit


def nearest_for(vault: Vault) -> StoredNearest | None:
    """Recall's nearest-by-meaning over the store, when recall.embeddings is on."""
    model = recall_model(vault.config)
    return StoredNearest(vault, model) if model else None


def coverage(vault: Vault, chunks: int) -> dict[str, Any] | None:
    """For `status`: the model and how many of the vault's chunks have a vector (None when off)."""
    model = recall_model(vault.config)
    if model is None:
        return None
    try:
        stored = _load(vault)
    except ImportError:
        stored = None
    embedded = len(stored.ids) if stored is not None and stored.model == model else 0
    return {"model": model, "embedded": embedded, "chunks": chunks}
