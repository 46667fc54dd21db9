"""Where retrieval runs: the SQLite file itself (default), Milvus or Pinecone.

The SQLite store always holds files, chunks and symbols (the symbol tools answer from it). An
engine answers the two similarity questions, keyword (BM25) and dense (vectors), and is kept in
step with the store after each index run through `sync`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, TypeVar

import numpy as np

from pramana.code.search.store import Filters
from pramana.code.store import CodeStore

Hits = list[tuple[str, float]]  # (chunk id, score: higher is better)
T = TypeVar("T")
REMOTE_TIMEOUT = 10.0  # a remote engine's query; within a tool call, no longer than the call has left


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Lists of at most `size` items, in order (engines cap how much one request may carry)."""
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class Engine(Protocol):
    name: str

    def keyword(self, words: Sequence[str], filters: Filters, limit: int) -> Hits: ...

    def dense(self, vector: np.ndarray, filters: Filters, limit: int) -> Hits: ...

    def sync(self, store: CodeStore, changed_paths: Sequence[str], removed_paths: Sequence[str]) -> None: ...


class SQLiteEngine:
    """BM25 and vectors in memory with numpy (lexical.py; a 40k x 256 float32 matrix is 40 MB)."""

    name = "sqlite"

    def __init__(self, store: CodeStore):
        self.store = store

    def keyword(self, words: Sequence[str], filters: Filters, limit: int) -> Hits:
        return self.store.keyword_search(words, filters, limit)

    def dense(self, vector: np.ndarray, filters: Filters, limit: int) -> Hits:
        vectors = self.store.vector_matrix()
        if not len(vectors.ids):
            return []
        scores = vectors.matrix @ np.asarray(vector, dtype=np.float32)
        if filters != Filters():
            mask = self.store.filter_mask("vectors", vectors.generation, vectors.rowids, filters)
            scores = np.where(mask, scores, -np.inf)
        count = min(limit, len(scores))
        top = np.argpartition(-scores, count - 1)[:count]
        top = top[np.argsort(-scores[top], kind="stable")]
        top = top[np.isfinite(scores[top])]
        ids = vectors.ids
        return [(ids[i], score) for i, score in zip(top.tolist(), scores[top].tolist(), strict=True)]

    def sync(self, store: CodeStore, changed_paths: Sequence[str], removed_paths: Sequence[str]) -> None:
        """Nothing to do: the store is the engine."""
