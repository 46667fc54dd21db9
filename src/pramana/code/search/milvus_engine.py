"""Milvus as the retrieval engine: dense (HNSW, cosine) and BM25 both run inside Milvus.

One collection per repository. Each chunk is a row: its id, the words it is found by (the same
split identifiers the SQLite index uses, which Milvus's BM25 function turns into a sparse
vector), its embedding, and the fields filters use. Symbols stay in the SQLite index.

Works with a Milvus server (`http://host:19530`), with milvus-lite serving on a port, and with
milvus-lite's embedded local file (`./milvus.db`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pramana import install_extra_hint, work
from pramana.code.search.engines import REMOTE_TIMEOUT, Hits, batched
from pramana.code.search.store import Filters
from pramana.code.search.terms import path_terms, search_terms
from pramana.code.store import CodeStore
from pramana.embed import EXTRA_HINT, Embedder
from pramana.errors import NotReadyError, SourceError
from pramana.locations import repository_key

INSERT_BATCH = 500
DELETE_BATCH = 200
MAX_ID_CHARS = 2048
MAX_TEXT_CHARS = 60_000  # under the VARCHAR limit of 65,535 bytes, with room for multi-byte text
HNSW_EF_MIN = 64


class MilvusEngine:
    name = "milvus"

    def __init__(
        self, uri: str, root: Path, store: CodeStore, embedder: Embedder | None, token: str | None = None
    ):
        try:
            from pymilvus import MilvusClient
        except ImportError as exc:
            raise NotReadyError(
                f"the milvus backend needs the extra: {install_extra_hint('milvus')}"
            ) from exc
        if embedder is None:
            raise NotReadyError(f"the milvus backend needs an embedder: {EXTRA_HINT}, or set OPENAI_API_KEY")
        self.store = store
        self.collection = "pramana_code_" + repository_key(root)
        try:
            self.client = MilvusClient(uri=uri, token=token or "")
            self._fresh = not self.client.has_collection(self.collection)
        except Exception as exc:  # pymilvus raises its own MilvusException and plain connection errors
            raise SourceError(f"cannot reach Milvus at {uri}: {exc}") from exc

    # searching

    def keyword(self, words: Sequence[str], filters: Filters, limit: int) -> Hits:
        if not words or self._fresh:
            return []
        hits = self._search([" ".join(words)], "sparse", {"metric_type": "BM25"}, filters, limit)
        # milvus-lite reports BM25 as a negative distance, Milvus as a positive score
        return [(hit["id"], abs(float(hit["distance"]))) for hit in hits]

    def dense(self, vector: np.ndarray, filters: Filters, limit: int) -> Hits:
        if self._fresh:
            return []
        params = {"metric_type": "COSINE", "params": {"ef": max(HNSW_EF_MIN, limit)}}
        hits = self._search([[float(x) for x in vector]], "dense", params, filters, limit)
        return [(hit["id"], float(hit["distance"])) for hit in hits]

    def _search(self, data: list[Any], field: str, params: dict, filters: Filters, limit: int) -> list[dict]:
        try:
            found = self.client.search(
                self.collection, data=data, anns_field=field, limit=limit, filter=milvus_filter(filters),
                search_params=params, output_fields=["id"], timeout=work.time_for(REMOTE_TIMEOUT),
            )  # fmt: skip
        except Exception as exc:
            raise SourceError(f"Milvus search failed: {exc}") from exc
        return list(found[0]) if found else []

    # keeping in step with the SQLite index

    def sync(self, store: CodeStore, changed_paths: Sequence[str], removed_paths: Sequence[str]) -> None:
        dimension = store.vector_dimension()
        if not self._fresh and dimension is not None and self._dimension() != dimension:
            self.drop()  # made for another embedder's vectors: made again, from the whole index
        if self._fresh:
            if not self._create(store):
                return  # nothing embedded yet: the collection is made once there is
            changed_paths, stale = store.paths(), []
        else:
            stale = [*changed_paths, *removed_paths]
        for batch in batched(stale, DELETE_BATCH):
            self.client.delete(self.collection, filter=f"file_path in {_strings(batch)}")
        inserted = 0
        for rows in batched(self._rows(store, changed_paths), INSERT_BATCH):
            self.client.insert(self.collection, rows)
            inserted += len(rows)
        if stale or inserted:
            # Sealed segments get their index built; unflushed rows are searched by brute force.
            self.client.flush(self.collection)

    def _rows(self, store: CodeStore, paths: Sequence[str]) -> Iterator[dict[str, Any]]:
        for row, vector in store.vectors_of(paths):
            if len(row.id) > MAX_ID_CHARS:
                continue
            name_words, path_words, body_words = search_terms(
                row.parent, row.name, path_terms(row.path), row.content
            )
            # The name counts three times, as the SQLite index weighs its name column.
            text = " ".join((name_words, name_words, name_words, path_words, body_words))
            yield {
                "id": row.id,
                "text": text[:MAX_TEXT_CHARS],
                "dense": [float(x) for x in vector],
                "file_path": row.path,
                "package": row.package,
                "language": row.language,
                "chunk_type": row.chunk_type,
            }

    def _create(self, store: CodeStore) -> bool:
        """Make the collection, sized for the index's vectors; False while there are none."""
        from pymilvus import DataType, Function, FunctionType, MilvusClient

        dimension = store.vector_dimension()
        if dimension is None:
            return False
        schema = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("id", DataType.VARCHAR, is_primary=True, max_length=MAX_ID_CHARS)
        schema.add_field(
            "text", DataType.VARCHAR, max_length=65_535, enable_analyzer=True,
            analyzer_params={"tokenizer": "standard", "filter": ["lowercase"]},
        )  # fmt: skip
        schema.add_field("dense", DataType.FLOAT_VECTOR, dim=dimension)
        schema.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
        for field in ("file_path", "package", "language", "chunk_type"):
            schema.add_field(field, DataType.VARCHAR, max_length=4096)
        schema.add_function(
            Function(
                name="text_bm25", function_type=FunctionType.BM25,
                input_field_names=["text"], output_field_names=["sparse"],
            )
        )  # fmt: skip
        index = self.client.prepare_index_params()
        index.add_index(
            field_name="dense",
            index_type="HNSW",
            metric_type="COSINE",
            params={"M": 16, "efConstruction": 200},
        )
        index.add_index(field_name="sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25")
        for field in ("file_path", "package", "language"):
            index.add_index(field_name=field, index_type="INVERTED")
        self.client.create_collection(
            self.collection, schema=schema, index_params=index, consistency_level="Strong"
        )
        self._fresh = False
        return True

    def _dimension(self) -> int | None:
        """The size of the collection's dense vectors."""
        fields = self.client.describe_collection(self.collection)["fields"]
        return next((int(f["params"]["dim"]) for f in fields if f["name"] == "dense"), None)

    def drop(self) -> None:
        """Remove this repository's collection (the next sync rebuilds it)."""
        self.client.drop_collection(self.collection)
        self._fresh = True


def _strings(values: Sequence[str]) -> str:
    """A Milvus list literal of strings. Escaping stops a path or package name containing a quote
    from ending the literal and adding its own conditions to the filter expression."""
    quoted = ('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values)
    return "[" + ", ".join(quoted) + "]"


def milvus_filter(filters: Filters) -> str:
    clauses = []
    if filters.languages:
        clauses.append(f"language in {_strings(filters.languages)}")
    if filters.excluded_languages:
        clauses.append(f"language not in {_strings(filters.excluded_languages)}")
    if filters.package:
        clauses.append(f"package in {_strings([filters.package])}")
    if filters.exclude_file:
        clauses.append(f"file_path not in {_strings([filters.exclude_file])}")
    return " and ".join(clauses)
