"""The code index in one SQLite file: files, chunks, their search terms (FTS5), vectors and symbols.

Chunks, symbols, imports and references of a file are replaced together in one transaction,
so a reader (the MCP server, while an index runs) sees a file either before or after, never half.
"""

from __future__ import annotations

import contextlib
import functools
import heapq
import json
import logging
import operator
import posixpath
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from pramana.code.index.prepare import PreparedFile, embedded_text, rows
from pramana.code.index.walk import RepoFile
from pramana.code.parse import ParsedFile
from pramana.code.records import (
    ChunkRecord,
    DefinitionChunk,
    FileRecord,
    Forwarder,
    ImportRecord,
    Owner,
    PendingImport,
    SymbolRecord,
    UseRecord,
)
from pramana.code.search.lexical import LexicalIndex, join_strings, pack_arrays, split_strings, unpack_arrays
from pramana.code.search.paths import is_secondary, older_version_folders
from pramana.code.search.terms import chunk_bag, path_words
from pramana.embed import chunk_text as _embedded_text
from pramana.install import command
from pramana.store.sqlite import BUSY_TIMEOUT_MS, SQLiteStore, rollback, write_transaction

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    package TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    sha TEXT NOT NULL,
    lines INTEGER NOT NULL
);
CREATE TABLE chunks (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    chunk_type TEXT NOT NULL,
    name TEXT,
    parent TEXT,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    content TEXT NOT NULL
);
CREATE INDEX chunks_file ON chunks(file_id, start_line);
CREATE TABLE vectors (
    chunk_rowid INTEGER PRIMARY KEY REFERENCES chunks(rowid) ON DELETE CASCADE,
    vector BLOB NOT NULL
);
CREATE TABLE symbols (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    parent TEXT,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    exported INTEGER NOT NULL,
    signature TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX symbols_name ON symbols(name);
CREATE INDEX symbols_kind ON symbols(kind);
CREATE INDEX symbols_file ON symbols(file_id, start_line);
CREATE TABLE imports (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    module TEXT NOT NULL,
    names TEXT NOT NULL,
    line INTEGER NOT NULL,
    resolved TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX imports_file ON imports(file_id);
CREATE TABLE dependencies (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    target TEXT NOT NULL
);
CREATE INDEX dependencies_target ON dependencies(target);
CREATE TABLE refs (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    line INTEGER NOT NULL,
    kind TEXT NOT NULL
);
CREATE INDEX refs_name ON refs(name);
CREATE INDEX refs_file ON refs(file_id);
"""

# refs.member: the reference reaches a member (`x.name`, `x.name()`, `X::name`), so a method's usages
# can leave out variables of the same name. Files indexed before it are parsed again at the next index.
REFS_MEMBER = """
ALTER TABLE refs ADD COLUMN member INTEGER NOT NULL DEFAULT 0;
UPDATE files SET size = -1, sha = '';
"""

# BM25 in memory (lexical.py): each chunk's stemmed terms as ids into the lexicon, with weights.
LEXICON = """
CREATE TABLE lexicon (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
CREATE TABLE bags (
    chunk_rowid INTEGER PRIMARY KEY REFERENCES chunks(rowid) ON DELETE CASCADE,
    terms BLOB NOT NULL,
    weights BLOB NOT NULL
);
"""

# The FTS5 table of each chunk's terms, which keyword search used before the bags: writing it
# was a third of the indexing time. Bags missing after this are counted from the chunks.
DROP_FTS = "DROP TABLE IF EXISTS chunk_terms;"

# What search holds in memory (the BM25 postings, the vector matrix), saved as the arrays it is
# made of, so that a new process (a CLI call, a server start) loads it in milliseconds instead of
# rebuilding it from every chunk's row (0.8 s for 40k chunks). Arrays and NUL-joined strings
# only: never pickle, which would run code from whoever wrote the index file.
SNAPSHOTS = """
CREATE TABLE snapshots (
    kind TEXT NOT NULL,
    part TEXT NOT NULL,
    generation INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (kind, part)
);
"""


# Re-exports (`export * from "./x"`) and Rust's `mod x;` are dependencies: files indexed before are
# parsed again at the next index.
REEXPORT_IMPORTS = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('typescript', 'tsx', 'javascript', 'rust');
"""


@dataclass(frozen=True)
class FileState:
    path: str
    size: int
    mtime_ns: int
    sha: str


@dataclass(frozen=True)
class IndexState:
    """Whether the last index run finished: an interrupted one (a kill, a crash, Ctrl-C) leaves the
    index `complete=False` until a run completes; `files_total` is what that run's walk found."""

    complete: bool
    files: int
    files_total: int | None

    def describe(self) -> str | None:
        """What an answer from this index must say, None for a complete index."""
        if self.complete:
            return None
        total = f" of {self.files_total:,}" if self.files_total else ""
        return (
            f"the index is incomplete ({self.files:,}{total} files): its last index run did not finish,"
            f" so results may miss parts of the repository; `{command('code index PATH')}` (or restarting"
            " the server) completes it"
        )


@dataclass(frozen=True)
class Filters:
    """Which chunks a search may return."""

    languages: tuple[str, ...] = ()
    excluded_languages: tuple[str, ...] = ()
    package: str | None = None
    exclude_file: str | None = None

    def sql(self) -> tuple[str, list[object]]:
        clauses, params = [], []
        if self.languages:
            clauses.append(f"f.language IN ({','.join('?' * len(self.languages))})")
            params.extend(self.languages)
        if self.excluded_languages:
            clauses.append(f"f.language NOT IN ({','.join('?' * len(self.excluded_languages))})")
            params.extend(self.excluded_languages)
        if self.package:
            clauses.append("f.package = ?")
            params.append(self.package)
        if self.exclude_file:
            clauses.append("f.path != ?")
            params.append(self.exclude_file)
        return (" AND " + " AND ".join(clauses)) if clauses else "", params


@dataclass(frozen=True)
class VectorMatrix:
    generation: int
    rowids: np.ndarray
    ids: list[str]
    matrix: np.ndarray


# Each in the order of its record's fields (records.py).
CHUNK_COLUMNS = """c.rowid, c.id, c.chunk_type, c.name, c.parent, c.start_line, c.end_line, c.content,
    f.path, f.package, f.language"""
FILE_COLUMNS = "id, path, language, package, size, mtime_ns, sha, lines"
SYMBOL_COLUMNS = """s.id, s.file_id, s.name, s.kind, s.parent, s.start_line, s.end_line, s.exported = 1,
    s.signature, s.doc, f.path, f.package, f.language"""
_R = TypeVar("_R")
FORWARDER_LINES, FORWARDER_TARGETS, FORWARDER_REFERENCES = 40, 3, 3


class CodeStore(SQLiteStore):
    migrations = (SCHEMA, REFS_MEMBER, LEXICON, DROP_FTS, SNAPSHOTS, REEXPORT_IMPORTS)

    def __init__(self, path: Path | str, *, read_only: bool = False):
        super().__init__(path, read_only=read_only)
        self._vector_cache: VectorMatrix | None = None
        self._lexicon_cache: _Lexicon | None = None  # the writer's copy of the lexicon
        self._lexical_cache: LexicalIndex | None = None
        self._masks: dict[tuple[int, str, Filters], np.ndarray] = {}
        self._older_versions: tuple[int, frozenset[str]] = (-1, frozenset())
        self._cache_lock = threading.Lock()

    # meta

    def meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with write_transaction(self._conn) as conn:
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def index_state(self) -> IndexState:
        """An index made before the state was recorded counts as complete."""
        files = int(self._conn.execute("SELECT count(*) FROM files").fetchone()[0])
        total = self.meta("index_files_total")
        return IndexState(self.meta("index_state") != "partial", files, int(total) if total else None)

    def generation(self) -> int:
        """Bumped by every change, so caches built from the index know when they are stale."""
        return int(self.meta("generation") or 0)

    def _bump(self, conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO meta VALUES ('generation', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    # writing

    def file_states(self) -> dict[str, FileState]:
        rows = self._conn.execute("SELECT path, size, mtime_ns, sha FROM files")
        return {row[0]: FileState(*row) for row in rows}

    def touch(self, path: str, size: int, mtime_ns: int) -> None:
        self.write_files([], touched=[(path, size, mtime_ns)])

    def replace_file(self, file: RepoFile, sha: str, line_count: int, parsed: ParsedFile) -> list[int]:
        """Store one file's chunks and symbols in place of what it had; returns the new chunk rowids."""
        return self.write_files([rows(file, sha, line_count, parsed)])[0]

    def write_files(
        self, files: Sequence[PreparedFile], touched: Sequence[tuple[str, int, int]] = ()
    ) -> list[list[int]]:
        """Store files' rows in place of what they had, in one transaction (a reader sees each
        file whole, before or after), and record new (size, mtime) for `touched` paths whose text
        is unchanged. Returns each file's new chunk rowids."""
        with self.bulk_writer(max_rows=None, max_seconds=None) as writer:
            for path, size, mtime_ns in touched:
                writer.touch(path, size, mtime_ns)
            for prepared in files:
                writer.add(prepared)
        return writer.rowids

    def bulk_writer(self, max_rows: int | None = 60_000, max_seconds: float | None = 1.0) -> BulkWriter:
        """A writer for many files: see BulkWriter."""
        return BulkWriter(self, max_rows, max_seconds)

    def _insert(
        self, conn: sqlite3.Connection, files: Sequence[PreparedFile], lexicon: _Lexicon
    ) -> list[list[int]]:
        """Write files' rows in place of what they had, inside the caller's transaction.

        A chunk whose embedded text is unchanged (an edit elsewhere in the file, or lines that only
        moved) keeps its vector, so editing one function re-embeds one chunk, not the file.
        """
        kept = self._vectors_by_text(conn, [f.file.path for f in files])
        self._delete_files(conn, [f.file.path for f in files])
        # Ids are given here, not taken from lastrowid, so that every table is one executemany.
        # The write lock is held: no other writer can take them meanwhile.
        file_id = conn.execute("SELECT coalesce(max(id), 0) FROM files").fetchone()[0]
        rowid = conn.execute("SELECT coalesce(max(rowid), 0) FROM chunks").fetchone()[0]
        file_rows, chunk_rows, vector_rows, bag_rows = [], [], [], []
        symbol_rows, import_rows, ref_rows = [], [], []
        terms, new_terms = lexicon.terms, []
        rowids: list[list[int]] = []
        for prepared in files:
            file, file_id = prepared.file, file_id + 1
            file_rows.append(
                (file_id, file.path, file.language, file.package, file.size, file.mtime_ns,
                 prepared.sha, prepared.lines)
            )  # fmt: skip
            first = rowid + 1
            vectors = prepared.vectors
            for position, chunk in enumerate(prepared.chunks):
                rowid += 1
                chunk_rows.append((rowid, chunk[0], file_id, *chunk[1:7]))
                counts = chunk[7]
                for term in counts:
                    if term not in terms:
                        lexicon.highest += 1
                        terms[term] = lexicon.highest
                        new_terms.append((lexicon.highest, term))
                bag_rows.append((rowid, *_bag_blobs(counts, terms)))
                if vectors is not None:
                    vector_rows.append((rowid, vectors[position].tobytes()))
                elif kept:
                    vector = kept.get(embedded_text(file.path, chunk))
                    if vector is not None:
                        vector_rows.append((rowid, vector))
            rowids.append(list(range(first, rowid + 1)))
            symbol_rows.extend((file_id, *symbol) for symbol in prepared.symbols)
            import_rows.extend((file_id, *imported) for imported in prepared.imports)
            ref_rows.extend((file_id, *ref) for ref in prepared.refs)
        conn.executemany(
            "INSERT INTO files (id, path, language, package, size, mtime_ns, sha, lines)"
            " VALUES (?,?,?,?,?,?,?,?)",
            file_rows,
        )
        conn.executemany(
            "INSERT INTO chunks (rowid, id, file_id, chunk_type, name, parent, start_line, end_line,"
            " content) VALUES (?,?,?,?,?,?,?,?,?)",
            chunk_rows,
        )
        conn.executemany("INSERT INTO vectors (chunk_rowid, vector) VALUES (?, ?)", vector_rows)
        conn.executemany("INSERT INTO lexicon (id, term) VALUES (?, ?)", new_terms)
        conn.executemany("INSERT INTO bags (chunk_rowid, terms, weights) VALUES (?, ?, ?)", bag_rows)
        conn.executemany(
            "INSERT INTO symbols"
            " (file_id, name, kind, parent, start_line, end_line, exported, signature, doc)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            symbol_rows,
        )
        conn.executemany("INSERT INTO imports (file_id, module, names, line) VALUES (?,?,?,?)", import_rows)
        # In name order, refs_name (the largest index) grows in place rather than at random.
        ref_rows.sort(key=operator.itemgetter(1))
        conn.executemany("INSERT INTO refs (file_id, name, line, kind, member) VALUES (?,?,?,?,?)", ref_rows)
        return rowids

    def _lexicon(self, conn: sqlite3.Connection) -> _Lexicon:
        """The lexicon's term ids and the highest, read again only when the file's lexicon is not
        the one this writer last left (another writer added to it, or a write rolled back). The
        caller owns it until it gives it back (`_lexicon_cache`) after a commit."""
        highest = conn.execute("SELECT coalesce(max(id), 0) FROM lexicon").fetchone()[0]
        cached, self._lexicon_cache = self._lexicon_cache, None
        if cached is None or cached.highest != highest:
            terms = {term: term_id for term_id, term in conn.execute("SELECT id, term FROM lexicon")}
            cached = _Lexicon(terms, highest)
        return cached

    def _vectors_by_text(self, conn: sqlite3.Connection, paths: Sequence[str]) -> dict[str, bytes]:
        """The vectors the chunks of these files have now, by the text they embed."""
        if conn.execute("SELECT 1 FROM vectors LIMIT 1").fetchone() is None:
            return {}
        kept: dict[str, bytes] = {}
        for start in range(0, len(paths), 500):
            batch = paths[start : start + 500]
            rows = conn.execute(
                "SELECT f.path, c.chunk_type, c.parent, c.name, c.content, v.vector FROM chunks c"
                " JOIN files f ON f.id = c.file_id JOIN vectors v ON v.chunk_rowid = c.rowid"
                f" WHERE f.path IN ({','.join('?' * len(batch))})",
                batch,
            )
            kept.update((_embedded_text(r[0], r[1], r[2], r[3], r[4]), r[5]) for r in rows)
        return kept

    def remove_files(self, paths: Sequence[str]) -> None:
        if not paths:
            return
        with write_transaction(self._conn) as conn:
            self._delete_files(conn, paths)
            self._bump(conn)

    def _delete_files(self, conn: sqlite3.Connection, paths: Sequence[str]) -> None:
        for start in range(0, len(paths), 500):
            batch = paths[start : start + 500]
            ids = [
                row[0]
                for row in conn.execute(
                    f"SELECT id FROM files WHERE path IN ({','.join('?' * len(batch))})", batch
                )
            ]
            if not ids:
                continue
            marks = ",".join("?" * len(ids))
            conn.execute(f"DELETE FROM files WHERE id IN ({marks})", ids)  # cascades to the rest

    def put_vectors(self, rowids: Sequence[int], vectors: np.ndarray) -> None:
        with write_transaction(self._conn) as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO vectors (chunk_rowid, vector) VALUES (?, ?)",
                [
                    (rowid, np.asarray(vector, dtype=np.float32).tobytes())
                    for rowid, vector in zip(rowids, vectors, strict=True)
                ],
            )
            self._bump(conn)

    def clear_vectors(self) -> None:
        with write_transaction(self._conn) as conn:
            conn.execute("DELETE FROM vectors")
            self._bump(conn)

    def vector_dimension(self) -> int | None:
        row = self._conn.execute("SELECT length(vector) / 4 FROM vectors LIMIT 1").fetchone()
        return int(row[0]) if row else None

    def chunks_without_vectors(self) -> list[ChunkRecord]:
        return self._records(
            ChunkRecord,
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            " WHERE c.rowid NOT IN (SELECT chunk_rowid FROM vectors) ORDER BY c.rowid",
        )

    def _records(self, kind: type[_R], sql: str, params: Sequence[object] = ()) -> list[_R]:
        """The rows of a query as records of `kind` (its fields in the query's column order)."""
        cursor = self._conn.cursor()
        cursor.row_factory = lambda _, row: kind(*row)
        return cursor.execute(sql, params).fetchall()

    def _record(self, kind: type[_R], sql: str, params: Sequence[object] = ()) -> _R | None:
        found = self._records(kind, sql, params)
        return found[0] if found else None

    def vectors_of(self, paths: Sequence[str]) -> Iterator[tuple[ChunkRecord, np.ndarray]]:
        """Each chunk of these files that has a vector, with it (for engines kept outside SQLite)."""
        for start in range(0, len(paths), 500):
            batch = list(paths[start : start + 500])
            rows = self._conn.execute(
                f"SELECT {CHUNK_COLUMNS}, v.vector FROM chunks c JOIN files f ON f.id = c.file_id"
                " JOIN vectors v ON v.chunk_rowid = c.rowid"
                f" WHERE f.path IN ({','.join('?' * len(batch))}) ORDER BY c.rowid",
                batch,
            )
            for row in rows:
                yield ChunkRecord(*tuple(row)[:-1]), np.frombuffer(row[-1], dtype=np.float32)

    def replace_dependencies(
        self, resolved: dict[int, list[str]], paths: Sequence[str] | None = None
    ) -> None:
        """Record where each import leads inside the repository (import id -> repo paths), for the
        imports of `paths` (None: every file)."""
        scope, params = ("", []) if paths is None else _file_scope(paths)
        with write_transaction(self._conn) as conn:
            conn.execute(
                f"DELETE FROM dependencies WHERE 1 = 1{scope.replace('i.file_id', 'file_id')}", params
            )
            conn.executemany(
                "UPDATE imports SET resolved = ? WHERE id = ?",
                [(json.dumps(targets), import_id) for import_id, targets in resolved.items()],
            )
            conn.execute(
                "INSERT INTO dependencies (file_id, target) SELECT DISTINCT i.file_id, j.value"
                f" FROM imports i, json_each(i.resolved) j WHERE 1 = 1{scope}",
                params,
            )
            self._bump(conn)

    # reading

    def imports_to_resolve(self, paths: Sequence[str] | None = None) -> list[PendingImport]:
        """The imports of `paths` (None: of every file), with their file's path and language."""
        scope, params = ("", []) if paths is None else _file_scope(paths)
        return self._records(
            PendingImport,
            "SELECT i.id, i.module, i.names, f.path, f.language"
            f" FROM imports i JOIN files f ON f.id = i.file_id WHERE 1 = 1{scope}",
            params,
        )

    def paths(self) -> list[str]:
        return [row[0] for row in self._conn.execute("SELECT path FROM files ORDER BY path")]

    def has_files(self) -> bool:
        return self._conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is not None

    def counts(self) -> dict[str, int]:
        return {
            table: int(self._conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
            for table in ("files", "chunks", "vectors", "symbols", "refs", "imports")
        }

    def values(self, column: str) -> list[str]:
        # The column name is chosen from a fixed set, never taken from the caller's text.
        name = {"package": "package", "language": "language"}[column]
        return [r[0] for r in self._conn.execute(f"SELECT DISTINCT {name} FROM files ORDER BY 1")]

    def keyword_search(self, words: Sequence[str], filters: Filters, limit: int) -> list[tuple[str, float]]:
        """(chunk id, BM25 score, higher is better) of the best chunks holding any of `words`."""
        if not words:
            return []
        index = self.lexical_index()
        mask = None
        if filters != Filters():
            mask = self.filter_mask("lexical", index.generation, index.rowids, filters)
        return index.top(words, limit, mask)

    def lexical_index(self) -> LexicalIndex:
        """Every chunk's terms as postings in memory, rebuilt when the index changes."""
        generation = self.generation()
        with self._cache_lock:
            if self._lexical_cache is None or self._lexical_cache.generation != generation:
                self._lexical_cache = None  # let the old one go before building the new
                self._lexical_cache = self._load_lexical(generation)
            return self._lexical_cache

    def fill_bags(self) -> int:
        """Count the terms of chunks that have no bag yet (after indexing); returns how many."""
        missing = self._conn.execute(
            "SELECT c.rowid, c.parent, c.name, f.path, c.content"
            " FROM chunks c JOIN files f ON f.id = c.file_id"
            " WHERE c.rowid NOT IN (SELECT chunk_rowid FROM bags)"
        ).fetchall()
        if not missing:
            return 0
        counted = [(row[0], _count_terms(*row[1:])) for row in missing]
        with write_transaction(self._conn) as conn:
            known = {t: i for i, t in conn.execute("SELECT id, term FROM lexicon")}
            new = {term for _, counts in counted for term in counts if term not in known}
            conn.executemany("INSERT OR IGNORE INTO lexicon (term) VALUES (?)", [(t,) for t in sorted(new)])
            if new:
                known = {t: i for i, t in conn.execute("SELECT id, term FROM lexicon")}
            conn.executemany(
                "INSERT OR REPLACE INTO bags (chunk_rowid, terms, weights) VALUES (?, ?, ?)",
                [(rowid, *_bag_blobs(counts, known)) for rowid, counts in counted],
            )
        return len(counted)

    def _load_lexical(self, generation: int) -> LexicalIndex:
        saved = self._snapshot("lexical", generation)
        if saved is not None:
            with contextlib.suppress(KeyError, ValueError):  # a damaged snapshot is built again
                return LexicalIndex.from_parts(generation, saved)
        index = self._build_lexical(generation)
        self._save_snapshot("lexical", generation, index.parts())
        return index

    def _build_lexical(self, generation: int) -> LexicalIndex:
        if not self.read_only:
            self.fill_bags()
        term_ids = {t: i for i, t in self._conn.execute("SELECT id, term FROM lexicon")}
        rows = self._conn.execute(
            "SELECT c.rowid, c.id, b.terms, b.weights, f.path, c.name, c.parent,"
            " CASE WHEN b.chunk_rowid IS NULL THEN c.content END"
            " FROM chunks c JOIN files f ON f.id = c.file_id LEFT JOIN bags b ON b.chunk_rowid = c.rowid"
            " ORDER BY c.rowid"
        )
        rowids, ids, bags, heads = [], [], [], {}
        highest = max(term_ids.values(), default=0)
        for row in rows:
            rowids.append(row[0])
            ids.append(row[1])
            heads[row[1]] = (row[4], row[5], row[6])
            if row[2] is not None:
                bags.append((np.frombuffer(row[2], dtype=np.int32), np.frombuffer(row[3], dtype=np.float32)))
            else:  # a read-only index without bags: count in memory, with ids past the lexicon's
                counts = _count_terms(row[6], row[5], row[4], row[7])
                for term in counts:
                    if term not in term_ids:
                        highest += 1
                        term_ids[term] = highest
                bags.append(_bag_blobs(counts, term_ids, as_arrays=True))  # type: ignore[arg-type]
        return LexicalIndex.build(generation, rowids, ids, heads, bags, term_ids)

    def filter_mask(self, kind: str, generation: int, rowids: np.ndarray, filters: Filters) -> np.ndarray:
        """Which of `rowids` pass `filters`, cached per index generation."""
        key = (generation, kind, filters)
        with self._cache_lock:
            mask = self._masks.get(key)
        if mask is None:
            allowed_key = (generation, "allowed", filters)  # shared by the lexical and vector masks
            with self._cache_lock:
                allowed = self._masks.get(allowed_key)
            if allowed is None:
                allowed = self.filtered_rowids(filters)
            mask = np.isin(rowids, allowed, assume_unique=True)
            with self._cache_lock:
                self._masks = {k: v for k, v in self._masks.items() if k[0] == generation}
                self._masks[key], self._masks[allowed_key] = mask, allowed
        return mask

    def vector_matrix(self) -> VectorMatrix:
        """Every chunk vector as one float32 matrix, cached until the index changes."""
        generation = self.generation()
        with self._cache_lock:
            if self._vector_cache is None or self._vector_cache.generation != generation:
                self._vector_cache = None  # let the old matrix go before the new one is read
                self._vector_cache = self._read_vectors(generation)
            return self._vector_cache

    def _read_vectors(self, generation: int) -> VectorMatrix:
        saved = self._snapshot("vectors", generation)
        if saved is not None:
            with contextlib.suppress(KeyError, ValueError):
                rowids, ids, matrix = saved["rowids"], split_strings(saved["ids"]), saved["matrix"]
                if len(rowids) == len(ids) == len(matrix):
                    return VectorMatrix(generation, rowids, ids, matrix)
        vectors = self._collect_vectors(generation)
        self._save_snapshot(
            "vectors",
            generation,
            {"rowids": vectors.rowids, "ids": join_strings(vectors.ids), "matrix": vectors.matrix},
        )
        return vectors

    def _snapshot(self, kind: str, generation: int) -> dict[str, np.ndarray] | None:
        """The saved parts of `kind` if they were saved at `generation`; None otherwise."""
        rows = self._conn.execute(
            "SELECT part, data FROM snapshots WHERE kind = ? AND generation = ?", (kind, generation)
        ).fetchall()
        if not rows:
            return None
        try:
            return unpack_arrays(dict(rows))
        except (KeyError, ValueError, TypeError):
            log.warning("the saved %s search data is unreadable; it is built again", kind)
            return None

    def _save_snapshot(self, kind: str, generation: int, parts: dict[str, np.ndarray]) -> None:
        """Save what was built, unless the index changed meanwhile (then it is already stale).

        Never waits for the write lock: a search that built this must not stall behind an index
        run's batch (which will make it stale anyway); the next build saves it instead."""
        if self.read_only:
            return
        conn = self._conn
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            with write_transaction(conn):
                if self.generation() != generation:
                    return
                conn.execute("DELETE FROM snapshots WHERE kind = ?", (kind,))
                conn.executemany(
                    "INSERT INTO snapshots (kind, part, generation, data) VALUES (?, ?, ?, ?)",
                    [(kind, part, generation, data) for part, data in pack_arrays(parts).items()],
                )
        except sqlite3.OperationalError as exc:  # busy, or a full disk: search works without it
            log.info("could not save the %s search data: %s", kind, exc)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    def _collect_vectors(self, generation: int) -> VectorMatrix:
        """Row by row into one preallocated matrix: never every blob and a copy of each at once
        (for 40k chunks that peak was ~100 MB, and the allocator kept it)."""
        conn = self._conn
        conn.execute("BEGIN")  # one snapshot for the count and the rows
        try:
            count, width = conn.execute(
                "SELECT count(*), coalesce(max(length(vector)), 0) FROM vectors"
            ).fetchone()
            rowids = np.zeros(count, dtype=np.int64)
            matrix = np.zeros((count, width // 4) if count else (0, 0), dtype=np.float32)
            ids: list[str] = []
            rows = conn.execute(
                "SELECT v.chunk_rowid, c.id, v.vector FROM vectors v JOIN chunks c ON c.rowid = v.chunk_rowid"
                " ORDER BY v.chunk_rowid"
            )
            for position, (rowid, chunk_id, vector) in enumerate(rows):
                rowids[position] = rowid
                ids.append(chunk_id)
                matrix[position] = np.frombuffer(vector, dtype=np.float32)
        finally:
            conn.execute("COMMIT")
        # Vectors of chunks that are gone (none, with foreign keys on) would leave zero rows: cut them.
        return VectorMatrix(generation, rowids[: len(ids)], ids, matrix[: len(ids)])

    def filtered_rowids(self, filters: Filters) -> np.ndarray:
        """The rowids of the chunks that pass `filters` (distinct, int64)."""
        where, params = filters.sql()
        rows = self._conn.execute(
            f"SELECT c.rowid FROM chunks c JOIN files f ON f.id = c.file_id WHERE 1 = 1{where}", params
        )
        return np.fromiter((row[0] for row in rows), dtype=np.int64)

    def chunks_by_id(self, ids: Iterable[str]) -> dict[str, ChunkRecord]:
        wanted = list(ids)
        if not wanted:
            return {}
        rows = self._records(
            ChunkRecord,
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            f" WHERE c.id IN ({','.join('?' * len(wanted))})",
            wanted,
        )
        return {r.id: r for r in rows}

    def chunk_heads(self, ids: Iterable[str]) -> dict[str, tuple[str, str | None, str | None]]:
        """Where each chunk is and what it is called: id -> (path, name, parent), from memory."""
        heads = self.lexical_index().heads
        return {chunk_id: heads[chunk_id] for chunk_id in ids if chunk_id in heads}

    def definition_chunks(
        self, names: Sequence[str], filters: Filters, limit: int = 2_000
    ) -> list[DefinitionChunk]:
        """For each definition of one of `names`, the chunk that holds it (the one named after it,
        else the smallest one covering its first line): id, path, name, parent."""
        if not names:
            return []
        where, params = filters.sql()
        rows = self._records(
            DefinitionChunk,
            "SELECT s.id AS symbol, s.name, s.parent, f.path, c.id, coalesce(c.name = s.name, 0) AS named,"
            " c.end_line - c.start_line AS size"
            " FROM symbols s JOIN files f ON f.id = s.file_id JOIN chunks c ON c.file_id = s.file_id"
            " AND c.start_line <= s.start_line AND c.end_line >= s.start_line"
            f" WHERE s.name IN ({','.join('?' * len(names))}){where} LIMIT ?",
            [*names, *params, limit],
        )
        best: dict[int, DefinitionChunk] = {}
        for row in rows:
            held = best.get(row.symbol)
            if held is None or (-row.named, row.size) < (-held.named, held.size):
                best[row.symbol] = row
        return list(best.values())

    def older_version_folders(self) -> frozenset[str]:
        """The repository's folders of superseded versions (paths.older_version_folders), cached
        per index generation."""
        generation = self.generation()
        if self._older_versions[0] != generation:
            self._older_versions = (generation, older_version_folders(self.paths()))
        return self._older_versions[1]

    def namesake_references(
        self, paths: Sequence[str], referrers: Sequence[str]
    ) -> list[tuple[str, str, str]]:
        """(path, name, referring path): the top-level types of `paths` named after their file (its
        name without extension, ignoring case, `_`, `-` and a plural s: `Triple` of `Triple.java`,
        `Completion` of `completions.go`), and the files of `referrers` that refer to them."""
        if not paths or not referrers:
            return []
        heads = [(path, _namesake_key(posixpath.splitext(posixpath.basename(path))[0])) for path in paths]
        rows = self._conn.execute(
            f"WITH heads(path, key) AS (VALUES {','.join('(?, ?)' for _ in heads)})"
            " SELECT DISTINCT f.path, s.name, g.path FROM heads h JOIN files f ON f.path = h.path"
            " JOIN symbols s ON s.file_id = f.id"
            " AND rtrim(lower(replace(replace(s.name, '_', ''), '-', '')), 's') = h.key"
            " JOIN refs r ON r.name = s.name JOIN files g ON g.id = r.file_id"
            f" WHERE g.path IN ({','.join('?' * len(referrers))}) AND g.id != f.id AND s.parent IS NULL"
            " AND s.kind IN ('class', 'interface', 'type', 'module')",
            [*(value for head in heads for value in head), *referrers],
        )
        return [(row[0], row[1], row[2]) for row in rows]

    def forwarders(self, targets: Sequence[str], filters: Filters) -> list[Forwarder]:
        """The files that forward to one of `targets` (see Forwarder): at most FORWARDER_LINES
        lines in one chunk, defining nothing, including or re-exporting one to FORWARDER_TARGETS
        files of the repository, calling nothing, with at most FORWARDER_REFERENCES other names
        outside their imports (a guard macro, `export default z`). A barrel of many files is a table
        of contents, and a script that uses what it imports does something: neither forwards."""
        if not targets:
            return []
        where, params = filters.sql()
        return self._records(
            Forwarder,
            "SELECT d.target, f.path, c.id, c.name, c.parent"
            " FROM dependencies d JOIN files f ON f.id = d.file_id JOIN chunks c ON c.file_id = f.id"
            f" WHERE d.target IN ({','.join('?' * len(targets))}) AND f.lines <= ?{where}"
            " AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.file_id = f.id)"
            " AND (SELECT count(*) FROM chunks k WHERE k.file_id = f.id) = 1"
            " AND (SELECT count(DISTINCT e.target) FROM dependencies e WHERE e.file_id = f.id) <= ?"
            " AND (SELECT count(*) FROM refs r WHERE r.file_id = f.id AND r.kind != 'import'"
            "      AND r.line NOT IN (SELECT i.line FROM imports i WHERE i.file_id = f.id)) <= ?"
            " AND NOT EXISTS (SELECT 1 FROM refs r WHERE r.file_id = f.id AND r.kind = 'call'"
            "      AND r.line NOT IN (SELECT i.line FROM imports i WHERE i.file_id = f.id))",
            [*targets, FORWARDER_LINES, *params, FORWARDER_TARGETS, FORWARDER_REFERENCES],
        )

    def chunk(self, chunk_id: str) -> ChunkRecord | None:
        return self._record(
            ChunkRecord,
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id = ?",
            (chunk_id,),
        )

    def chunks_at(self, path: str, line: int) -> list[ChunkRecord]:
        return self._records(
            ChunkRecord,
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            " WHERE f.path = ? AND c.start_line <= ? AND c.end_line >= ? ORDER BY c.end_line - c.start_line",
            (path, line, line),
        )

    def file(self, path: str) -> FileRecord | None:
        return self._record(FileRecord, f"SELECT {FILE_COLUMNS} FROM files WHERE path = ?", (path,))

    def file_chunks(self, path: str) -> list[ChunkRecord]:
        return self._records(
            ChunkRecord,
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            " WHERE f.path = ? ORDER BY c.start_line",
            (path,),
        )

    def symbols_under(self, path: str, limit: int) -> tuple[list[SymbolRecord], int]:
        """The first `limit` definitions in the file `path`, or in every file below the folder `path`
        ('' is the root), and how many there are."""
        base = "FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? OR f.path LIKE ? ESCAPE '\\'"
        params = (path, _below(path))
        total = int(self._conn.execute(f"SELECT count(*) {base}", params).fetchone()[0])
        rows = self._records(
            SymbolRecord,
            f"SELECT {SYMBOL_COLUMNS} {base} ORDER BY f.path, s.start_line LIMIT ?",
            (*params, limit),
        )
        return rows, total

    def has_folder(self, path: str) -> bool:
        return bool(
            self._conn.execute(
                "SELECT 1 FROM files WHERE path LIKE ? ESCAPE '\\' LIMIT 1", (_below(path),)
            ).fetchone()
        )

    def definitions(self, name: str, limit: int | None = None) -> list[SymbolRecord]:
        """The definitions of `name` (the first `limit`, None: all), production code before tests,
        examples and the like; in each, classes, interfaces, types and functions before methods
        before anything else."""
        rows = self._records(
            SymbolRecord,
            f"SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = ?",
            (name,),
        )
        # A common name (get, __init__) has thousands: keep `limit` of them while reading, not all.
        if limit is not None:
            return heapq.nsmallest(limit, rows, key=_definition_order)
        return sorted(rows, key=_definition_order)

    def definition_count(self, name: str) -> int:
        return int(self._conn.execute("SELECT count(*) FROM symbols WHERE name = ?", (name,)).fetchone()[0])

    def symbols_of_kind(
        self, kinds: Sequence[str], exported_only: bool, package: str | None, limit: int
    ) -> tuple[list[SymbolRecord], int]:
        clauses, params = [], []
        if kinds:
            clauses.append(f"s.kind IN ({','.join('?' * len(kinds))})")
            params.extend(kinds)
        if exported_only:
            clauses.append("s.exported = 1")
        if package:
            clauses.append("f.package = ?")
            params.append(package)
        where = " AND ".join(clauses) or "1 = 1"
        base = f"FROM symbols s JOIN files f ON f.id = s.file_id WHERE {where}"
        total = int(self._conn.execute(f"SELECT count(*) {base}", params).fetchone()[0])
        rows = self._records(
            SymbolRecord,
            f"SELECT {SYMBOL_COLUMNS} {base} ORDER BY f.path, s.start_line LIMIT ?",
            [*params, limit],
        )
        return rows, total

    def references(
        self, name: str, limit: int, *, members_first: bool = False, members_only: bool = False
    ) -> tuple[list[UseRecord], int]:
        """The first `limit` uses of `name` and how many there are, in the order a developer reads
        them: production code before tests, examples and the like (`paths.is_secondary`), calls
        before other references before imports, then by path and line.

        members_first puts accesses of a member (`x.name`, `x.name()`, `X::name`) before bare uses
        of the name; members_only keeps them alone, for a method, which is used no other way: a
        variable, a function or an import that merely shares its name is not a use of it.
        """
        where = "name = ? AND member = 1 AND kind != 'import'" if members_only else "name = ?"
        # paths.is_secondary is Python, so the uses are sorted here: one pass over the name's rows in
        # four small columns, a few ms for the usual hundreds, about 0.25 s for 100,000.
        cursor = self._conn.cursor()
        cursor.row_factory = None  # plain tuples: a third of the time of sqlite3.Row here
        uses = cursor.execute(f"SELECT rowid, file_id, kind, member, line FROM refs WHERE {where}", (name,))
        uses = uses.fetchall()
        paths = self._conn.execute(
            "SELECT id, path FROM files WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted({use[1] for use in uses})),),
        )
        files = {file_id: (is_secondary(path), path) for file_id, path in paths}
        members = members_first or members_only

        def order(use: tuple[int, int, str, int, int]) -> tuple[object, ...]:
            secondary, path = files.get(use[1], (True, ""))
            return members and not use[3], secondary, _USE_ORDER.get(use[2], 2), path, use[4]

        chosen = {use[0]: rank for rank, use in enumerate(heapq.nsmallest(limit, uses, key=order))}
        rows = self._records(
            UseRecord,
            "SELECT r.rowid, r.line, r.kind, r.member, f.path, f.package, f.language, f.id AS file_id"
            " FROM refs r JOIN files f ON f.id = r.file_id WHERE r.rowid IN (SELECT value FROM json_each(?))",
            (json.dumps(list(chosen)),),
        )
        rows.sort(key=lambda row: chosen[row.rowid])
        return rows, len(uses)

    def references_in(self, path: str, start: int, end: int, kind: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT DISTINCT r.name FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line BETWEEN ? AND ? AND r.kind = ? ORDER BY r.line",
            (path, start, end, kind),
        )
        return [r[0] for r in rows]

    def imports_of(self, path: str, limit: int) -> list[ImportRecord]:
        return self._records(
            ImportRecord,
            "SELECT i.module, i.names, i.line, i.resolved FROM imports i JOIN files f ON f.id = i.file_id"
            " WHERE f.path = ? ORDER BY i.line LIMIT ?",
            (path, limit),
        )

    def dependents(self, path: str, limit: int) -> tuple[list[str], int]:
        """The first `limit` files importing `path` (by path), and how many there are."""
        base = "FROM dependencies d JOIN files f ON f.id = d.file_id WHERE d.target = ?"
        total = int(self._conn.execute(f"SELECT count(DISTINCT f.path) {base}", (path,)).fetchone()[0])
        rows = self._conn.execute(f"SELECT DISTINCT f.path {base} ORDER BY f.path LIMIT ?", (path, limit))
        return [r[0] for r in rows], total

    def enclosing_symbol(self, path: str, line: int) -> Owner | None:
        return self._record(
            Owner,
            "SELECT s.name, s.parent, s.kind FROM symbols s JOIN files f ON f.id = s.file_id"
            " WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ?"
            " ORDER BY s.end_line - s.start_line LIMIT 1",
            (path, line, line),
        )


_KIND_ORDER = {"class": 0, "interface": 0, "type": 0, "function": 0, "method": 1}
_USE_ORDER = {"call": 0, "reference": 1, "import": 2}


def _definition_order(row: SymbolRecord) -> tuple[object, ...]:
    return (
        is_secondary(row.path),
        _KIND_ORDER.get(row.kind, 2),
        row.parent is not None,
        -row.exported,
        row.path,
        row.start_line,
    )


@dataclass
class _Lexicon:
    terms: dict[str, int]  # stemmed term -> id in the lexicon table
    highest: int  # the highest id; ids are given in order


class BulkWriter:
    """Writes many files' rows as they come, in transactions of up to `max_rows` rows or
    `max_seconds` (None: one transaction). Each file is written whole inside one transaction, so a
    reader (the server, while it indexes) sees it before or after, never half; one transaction for
    many files is much faster than one each; and a commit every second lets answers given during a
    long index cover more and more. Rows are inserted while the caller prepares the next files.

    Used as a context manager: leaving it commits, an exception rolls back what is not committed.
    """

    FLUSH_ROWS = 5_000  # rows gathered before they are inserted (executemany per table)

    def __init__(self, store: CodeStore, max_rows: int | None, max_seconds: float | None):
        self.store, self.max_rows, self.max_seconds = store, max_rows, max_seconds
        self.conn = store._conn
        self.rowids: list[list[int]] = []  # each added file's chunk rowids, once inserted
        self._pending: list[PreparedFile] = []
        self._pending_rows = 0
        self._rows = 0  # rows in the open transaction
        self._lexicon: _Lexicon | None = None
        self._started: float | None = None  # when the open transaction began
        self._changed = False

    def __enter__(self) -> BulkWriter:
        return self

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        if error is None:
            self.commit()
        else:
            self.rollback()

    def add(self, prepared: PreparedFile) -> None:
        self._begin()
        self._pending.append(prepared)
        rows = len(prepared.chunks) + len(prepared.symbols) + len(prepared.refs) + 1
        self._pending_rows += rows
        self._rows += rows
        if self._pending_rows >= self.FLUSH_ROWS:
            self._flush()
        self._commit_when_due()

    def touch(self, path: str, size: int, mtime_ns: int) -> None:
        """Record a new size and mtime for a file whose text is the one indexed."""
        self._begin()
        self.conn.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?", (size, mtime_ns, path))
        self._rows += 1
        self._commit_when_due()

    def commit(self) -> None:
        if self._started is None:
            return
        self._flush()
        if self._changed:
            self.store._bump(self.conn)
        self.conn.execute("COMMIT")
        self.store._lexicon_cache = self._lexicon  # checked against the file before its next use
        self._end()

    def rollback(self) -> None:
        if self._started is not None:
            rollback(self.conn)  # the lexicon's new terms go too: the cache stays empty
            self._end()

    def _begin(self) -> None:
        if self._started is None:
            self.conn.execute("BEGIN IMMEDIATE")
            self._started = time.perf_counter()
            self._lexicon = self.store._lexicon(self.conn)

    def _flush(self) -> None:
        if self._pending:
            assert self._lexicon is not None
            self.rowids += self.store._insert(self.conn, self._pending, self._lexicon)
            self._changed = True
        self._pending, self._pending_rows = [], 0

    def _commit_when_due(self) -> None:
        assert self._started is not None
        if (self.max_rows is not None and self._rows >= self.max_rows) or (
            self.max_seconds is not None and time.perf_counter() - self._started >= self.max_seconds
        ):
            self.commit()

    def _end(self) -> None:
        self._pending, self._pending_rows, self._rows = [], 0, 0
        self._started, self._lexicon, self._changed = None, None, False


@functools.lru_cache(maxsize=1024)
def _path_words(path: str) -> list[str]:
    return path_words(path)


def _namesake_key(stem: str) -> str:
    return stem.lower().replace("_", "").replace("-", "").rstrip("s")


def _count_terms(parent: str | None, name: str | None, path: str, content: str) -> dict[str, float]:
    """A stored chunk's bag, as the index workers count it (terms.chunk_bag)."""
    return chunk_bag(parent, name, _path_words(path), content)


def _bag_blobs(
    counts: dict[str, float], term_ids: dict[str, int], *, as_arrays: bool = False
) -> tuple[bytes, bytes] | tuple[np.ndarray, np.ndarray]:
    terms = np.fromiter((term_ids[t] for t in counts), dtype=np.int32, count=len(counts))
    weights = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))
    return (terms, weights) if as_arrays else (terms.tobytes(), weights.tobytes())


def _file_scope(paths: Sequence[str]) -> tuple[str, list[str]]:
    marks = ",".join("?" * len(paths))
    return f" AND i.file_id IN (SELECT id FROM files WHERE path IN ({marks}))", list(paths)


def _below(folder: str) -> str:
    escaped = folder.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"{escaped}/%" if escaped else "%"
