"""Pinecone as the vector engine (the raktamarga spec's store), through its official client.

Dense search runs in Pinecone; keyword (BM25) search stays in the local SQLite index, which also
holds the symbols. Vectors live in one namespace per repository and each vector's metadata carries
what the filters need. A vector's id is `<file key>#<lines>`, the file key a hash of its path
(Pinecone wants ASCII ids of at most 512 characters; paths need not be either): serverless indexes
refuse to delete by metadata filter, so a file's vectors are found by listing the ids with its
prefix and deleted by id.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pramana import install_extra_hint, work
from pramana.code.search.engines import REMOTE_TIMEOUT, Hits, batched
from pramana.code.search.store import Filters
from pramana.code.store import CodeStore
from pramana.config import CodeSettings
from pramana.errors import NotReadyError, SourceError
from pramana.locations import repository_key

UPSERT_BATCH = 100  # Pinecone takes at most 1,000 vectors and 2 MB per request
DELETE_BATCH = 1000  # and at most 1,000 ids per delete
# The data-plane client tries a request 4 times (5xx, 429, timeouts), with backoff, and its REST
# index takes no retry setting (the client's retry_config reaches only gRPC): a hung service ends a
# call about a second after its deadline, not 4 x 30 s later.
ATTEMPTS = 4
LIST_PAGE = 100  # ids per page when listing (Pinecone's most)
LIST_WHOLE_AFTER = 100  # files looked up one prefix each; for more, the namespace is listed once
MAX_NAME_CHARS = 200
MAX_LOCAL_ID_CHARS = 64


def file_key(path: str) -> str:
    return hashlib.sha1(path.encode("utf-8")).hexdigest()


def vector_id(path: str, chunk_id: str) -> str:
    """`<file key>#<lines>` (`<file key>#<hash>` for a chunk id of another shape)."""
    local = chunk_id.removeprefix(f"{path}:")
    if local == chunk_id or not local.isascii() or len(local) > MAX_LOCAL_ID_CHARS:
        local = hashlib.sha1(chunk_id.encode("utf-8")).hexdigest()
    return f"{file_key(path)}#{local}"


def _attempt_timeout() -> float:
    """Each of a request's attempts gets its share of the time the call has left."""
    return work.time_for(REMOTE_TIMEOUT) / ATTEMPTS


class PineconeEngine:
    name = "pinecone"

    def __init__(self, index: Any, namespace: str, store: CodeStore):
        self.index = index
        self.namespace = namespace
        self.store = store
        try:
            stats = index.describe_index_stats(timeout=_attempt_timeout())
        except Exception as exc:
            raise SourceError(f"cannot reach the Pinecone index: {exc}") from exc
        # An empty namespace (a new index, or a new repository) is filled from the whole local index.
        self._fresh = self.namespace not in (stats.namespaces or {})
        self.dimension: int | None = stats.dimension

    @classmethod
    def from_settings(cls, settings: CodeSettings, root: Path, store: CodeStore) -> PineconeEngine:
        try:
            from pinecone import Pinecone
        except ImportError as exc:
            raise NotReadyError(
                f"the pinecone backend needs the extra: {install_extra_hint('pinecone')}"
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
            response = self.index.query(**query, timeout=_attempt_timeout())
        except Exception as exc:
            raise SourceError(f"Pinecone query failed: {exc}") from exc
        return [(m.metadata["chunk_id"], float(m.score)) for m in response.matches if m.metadata]

    def sync(self, store: CodeStore, changed_paths: Sequence[str], removed_paths: Sequence[str]) -> None:
        """Upsert the vectors of changed files, then delete the ids those files (and removed ones)
        no longer have."""
        self._check_dimension(store)
        if self._fresh:
            changed_paths, removed_paths = store.paths(), []
        stored = {} if self._fresh else self._stored_ids([*changed_paths, *removed_paths])
        kept: set[str] = set()
        upserted = 0
        for batch in batched(self._records(store, changed_paths), UPSERT_BATCH):
            self.index.upsert(vectors=batch, namespace=self.namespace)
            kept.update(record["id"] for record in batch)
            upserted += len(batch)
        stale = [i for ids in stored.values() for i in ids if i not in kept]
        for ids in batched(stale, DELETE_BATCH):
            self.index.delete(ids=ids, namespace=self.namespace)
        self._fresh = self._fresh and not upserted

    def _stored_ids(self, paths: Sequence[str]) -> dict[str, list[str]]:
        """The ids the namespace holds for each of `paths`, listed by their prefixes (or, for many
        files, by listing the whole namespace once)."""
        paths_of = {file_key(p): p for p in paths}
        prefixes = [f"{key}#" for key in paths_of] if len(paths_of) <= LIST_WHOLE_AFTER else [""]
        found: dict[str, list[str]] = defaultdict(list)
        for vector_id in self._listed(prefixes):
            path = paths_of.get(vector_id.partition("#")[0])
            if path is not None:
                found[path].append(vector_id)
        return found

    def _listed(self, prefixes: Iterable[str]) -> Iterator[str]:
        for prefix in prefixes:
            token: str | None = None
            while True:
                page = self.index.list_paginated(
                    prefix=prefix, limit=LIST_PAGE, pagination_token=token, namespace=self.namespace
                )
                yield from (item.id for item in page.vectors or [])
                token = page.pagination.next if page.pagination else None
                if not token:
                    break

    def _check_dimension(self, store: CodeStore) -> None:
        dimension = store.vector_dimension()
        if dimension is not None and self.dimension is not None and dimension != self.dimension:
            raise NotReadyError(
                f"the Pinecone index stores {self.dimension}-dimensional vectors, but the embedder"
                f" ({store.meta('embedder')}) makes {dimension}: create an index of dimension {dimension}"
                " with the cosine metric and point PINECONE_INDEX or PINECONE_HOST at it"
            )

    def _records(self, store: CodeStore, paths: Sequence[str]) -> Iterator[dict[str, Any]]:
        for row, vector in store.vectors_of(paths):
            yield {
                "id": vector_id(row.path, row.id),
                "values": [float(x) for x in vector],
                "metadata": {
                    "chunk_id": row.id,
                    "file_path": row.path,
                    "package": row.package,
                    "language": row.language,
                    "chunk_type": row.chunk_type,
                    "name": (row.name or "")[:MAX_NAME_CHARS],
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
