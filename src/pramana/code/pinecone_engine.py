"""Pinecone as the vector engine (the raktamarga spec's store), through its official client.

Dense search runs in Pinecone; keyword (BM25) search stays in the local SQLite index, which also
holds the symbols. Vectors live in one namespace per repository, ids are hashes of chunk ids
(Pinecone wants ASCII ids of at most 512 characters; paths need not be either), and each vector's
metadata carries what the filters need.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pramana.code.engines import Hits, batched
from pramana.code.store import CodeStore, Filters
from pramana.config import CodeSettings, repository_key
from pramana.errors import NotReadyError, SourceError

UPSERT_BATCH = 100  # Pinecone takes at most 1,000 vectors and 2 MB per request
DELETE_BATCH = 100
MAX_NAME_CHARS = 200


def vector_id(chunk_id: str) -> str:
    return hashlib.sha1(chunk_id.encode("utf-8")).hexdigest()


class PineconeEngine:
    name = "pinecone"

    def __init__(self, index: Any, namespace: str, store: CodeStore):
        self.index = index
        self.namespace = namespace
        self.store = store
        try:
            stats = index.describe_index_stats()
        except Exception as exc:
            raise SourceError(f"cannot reach the Pinecone index: {exc}") from exc
        # An empty namespace (a new index, or a new repository) is filled from the whole local index.
        self._fresh = self.namespace not in (stats.namespaces or {})

    @classmethod
    def from_settings(cls, settings: CodeSettings, root: Path, store: CodeStore) -> PineconeEngine:
        try:
            from pinecone import Pinecone
        except ImportError as exc:
            raise NotReadyError(
                "the pinecone backend needs the extra: uv pip install 'pramana[pinecone]'"
            ) from exc
        if not settings.pinecone_api_key:
            raise NotReadyError("the pinecone backend needs PINECONE_API_KEY")
        client = Pinecone(api_key=settings.pinecone_api_key)
        try:
            index = (
                client.Index(host=settings.pinecone_host)
                if settings.pinecone_host
                else client.Index(name=settings.pinecone_index)
            )
        except Exception as exc:  # the client's errors carry the service's message
            raise SourceError(f"cannot open Pinecone index {settings.pinecone_index!r}: {exc}") from exc
        return cls(index, "repo-" + repository_key(root), store)

    def keyword(self, words: Sequence[str], filters: Filters, limit: int) -> Hits:
        return self.store.keyword_search(words, filters, limit)

    def dense(self, vector: np.ndarray, filters: Filters, limit: int) -> Hits:
        query: dict[str, Any] = {
            "vector": [float(x) for x in vector],
            "top_k": limit,
            "include_metadata": True,
            "namespace": self.namespace,
        }
        where = metadata_filter(filters)
        if where:
            query["filter"] = where
        try:
            response = self.index.query(**query)
        except Exception as exc:
            raise SourceError(f"Pinecone query failed: {exc}") from exc
        return [(m.metadata["chunk_id"], float(m.score)) for m in response.matches if m.metadata]

    def sync(self, store: CodeStore, changed_paths: Sequence[str], removed_paths: Sequence[str]) -> None:
        if self._fresh:
            changed_paths, stale = store.paths(), []
        else:
            stale = [*changed_paths, *removed_paths]
        for batch in batched(stale, DELETE_BATCH):
            self.index.delete(filter={"file_path": {"$in": batch}}, namespace=self.namespace)
        upserted = 0
        for batch in batched(self._records(store, changed_paths), UPSERT_BATCH):
            self.index.upsert(vectors=batch, namespace=self.namespace)
            upserted += len(batch)
        self._fresh = self._fresh and not upserted

    def _records(self, store: CodeStore, paths: Sequence[str]) -> Iterator[dict[str, Any]]:
        for row, vector in store.vectors_of(paths):
            yield {
                "id": vector_id(row["id"]),
                "values": [float(x) for x in vector],
                "metadata": {
                    "chunk_id": row["id"],
                    "file_path": row["path"],
                    "package": row["package"],
                    "language": row["language"],
                    "chunk_type": row["chunk_type"],
                    "name": (row["name"] or "")[:MAX_NAME_CHARS],
                },
            }


def metadata_filter(filters: Filters) -> dict[str, Any] | None:
    clauses: list[dict[str, Any]] = []
    if filters.languages:
        clauses.append({"language": {"$in": list(filters.languages)}})
    if filters.excluded_languages:
        clauses.append({"language": {"$nin": list(filters.excluded_languages)}})
    if filters.package:
        clauses.append({"package": {"$eq": filters.package}})
    if filters.exclude_file:
        clauses.append({"file_path": {"$ne": filters.exclude_file}})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}
