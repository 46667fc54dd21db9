"""The index stage's writes: files, their chunks, symbols, imports and references, vectors and term
bags, and whether the last index run finished.

Chunks, symbols, imports and references of a file are replaced together in one transaction,
so a reader (the MCP server, while an index runs) sees a file either before or after, never half.
"""

from __future__ import annotations

import functools
import itertools
import json
import operator
import sqlite3
import threading
import time
from array import array
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pramana.code.index.deps import Resolver
from pramana.code.index.prepare import PreparedFile, embedded_text, packed_bag, rows
from pramana.code.index.tables import CHUNK_COLUMNS, REFS_INDEXES, CodeTables
from pramana.code.index.walk import RepoFile
from pramana.code.parse import ParsedFile
from pramana.code.records import ChunkRecord, PendingImport
from pramana.code.search.terms import chunk_bag, path_words
from pramana.embed import chunk_text as _embedded_text
from pramana.install import command
from pramana.store.sqlite import rollback, write_transaction


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


@dataclass
class WrittenChunks:
    """Every chunk this process wrote into an index that had none (a cold index), in rowid order, as
    the search data needs it: so that it is built from memory after the index rather than read back
    from SQLite. Kept only while every write to the chunks went through here; checked against the
    tables' counts before use (search/store.py)."""

    terms: dict[str, int]  # the writer's lexicon (term -> id), in id order
    rowids: list[int] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    heads: list[tuple[str, str | None, str | None]] = field(default_factory=list)  # path, name, parent
    bags: list[tuple[bytes, bytes]] = field(default_factory=list)  # term ids, weights
    vectors: list[tuple[int, str, bytes]] = field(default_factory=list)  # rowid, chunk id, float32s
    checked: int | None = None  # the index generation at which these were found to be all it holds
    # The search data built from these in a thread once the last row was written (see
    # SearchReads.build_search_data_ahead): kind ("lexical", "vectors") -> what was built.
    ahead: dict[str, object] = field(default_factory=dict)
    ahead_thread: threading.Thread | None = None

    def built_ahead(self, kind: str) -> object:
        """What the ahead build made of `kind` (waiting for it), or None (none started, or it failed)."""
        if self.ahead_thread is not None:
            self.ahead_thread.join()
        return self.ahead.pop(kind, None)


class IndexWrites(CodeTables):
    """What an index run writes, and the state it leaves."""

    _written: WrittenChunks | None = None

    def __init__(self, path: Path | str, *, read_only: bool = False):
        super().__init__(path, read_only=read_only)
        self._lexicon_cache: _Lexicon | None = None  # the writer's copy of the lexicon

    def ensure_refs_indexes(self) -> None:
        """Build the refs table's indexes where they are missing (a cold index that did not end)."""
        conn = self._conn
        found = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        for name, columns in REFS_INDEXES.items():
            if name not in found:
                conn.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {columns}")  # names from a fixed table

    def keep_written(self) -> None:
        """Keep what is written from now on in memory (see WrittenChunks), if the index has no chunk."""
        if self._conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is None:
            self._written = WrittenChunks({})

    def forget_written(self) -> None:
        self._written = None

    def index_state(self) -> IndexState:
        """An index made before the state was recorded counts as complete."""
        files = int(self._conn.execute("SELECT count(*) FROM files").fetchone()[0])
        total = self.meta("index_files_total")
        return IndexState(self.meta("index_state") != "partial", files, int(total) if total else None)

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

    def bulk_writer(
        self,
        max_rows: int | None = 60_000,
        max_seconds: float | None = 1.0,
        resolver: Resolver | None = None,
        *,
        new_files_only: bool = False,
    ) -> BulkWriter:
        """A writer for many files: see BulkWriter."""
        return BulkWriter(self, max_rows, max_seconds, resolver, new_files_only=new_files_only)

    def _insert(
        self,
        conn: sqlite3.Connection,
        files: Sequence[PreparedFile],
        lexicon: _Lexicon,
        resolver: Resolver | None = None,
    ) -> list[list[int]]:
        """Write files' rows in place of what they had, inside the caller's transaction; with a
        `resolver`, each import with where it leads, and the file's dependencies (as
        replace_dependencies records them).

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
        symbol_rows: list[tuple] = []
        import_rows: list[tuple] = []
        ref_rows: list[tuple] = []
        test_rows: list[tuple[int, int, int]] = []
        test_module_rows: list[tuple[int, str]] = []
        dependency_rows: list[tuple[int, str]] = []
        terms, new_terms = lexicon.terms, []
        rowids: list[list[int]] = []
        written = self._written
        if written is not None:
            written.terms = terms
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
                bag_terms, weights = chunk[7]
                if not all(map(terms.__contains__, bag_terms)):  # most chunks bring no new term
                    for term in bag_terms:
                        if term not in terms:
                            lexicon.highest += 1
                            terms[term] = lexicon.highest
                            new_terms.append((lexicon.highest, term))
                bag = (_term_ids(bag_terms, terms), weights)
                bag_rows.append((rowid, *bag))
                vector: bytes | None = None
                if vectors is not None:
                    vector = vectors[position].tobytes()
                elif kept:
                    vector = kept.get(embedded_text(file.path, chunk))
                if vector is not None:
                    vector_rows.append((rowid, vector))
                if written is not None:
                    written.rowids.append(rowid)
                    written.ids.append(chunk[0])
                    written.heads.append((file.path, chunk[2], chunk[3]))
                    written.bags.append(bag)
                    if vector is not None:
                        written.vectors.append((rowid, chunk[0], vector))
            rowids.append(list(range(first, rowid + 1)))
            symbol_rows.extend((file_id, *symbol) for symbol in prepared.symbols)
            if resolver is None:
                import_rows.extend((file_id, *imported, "[]") for imported in prepared.imports)
            else:
                targets: set[str] = set()
                for module, names, line in prepared.imports:
                    found = resolver.resolve(file.path, file.language, module, json.loads(names))
                    import_rows.append((file_id, module, names, line, json.dumps(found)))
                    targets.update(found)
                dependency_rows.extend((file_id, target) for target in targets)
            ref_rows += [(file_id, name, line, kind, _FLAG[flag]) for name, line, kind, flag in prepared.refs]
            test_rows += [(file_id, start, end) for start, end in prepared.tests]
            test_module_rows += [(file_id, path) for path in prepared.test_modules]
        _insert_rows(conn, "files (id, path, language, package, size, mtime_ns, sha, lines)", file_rows)
        chunk_columns = "rowid, id, file_id, chunk_type, name, parent, start_line, end_line, content"
        _insert_rows(conn, f"chunks ({chunk_columns})", chunk_rows)
        _insert_rows(conn, "vectors (chunk_rowid, vector)", vector_rows)
        _insert_rows(conn, "lexicon (id, term)", new_terms)
        _insert_rows(conn, "bags (chunk_rowid, terms, weights)", bag_rows)
        _insert_rows(
            conn,
            "symbols (file_id, name, kind, parent, start_line, end_line, exported, signature, doc)",
            symbol_rows,
        )
        _insert_rows(conn, "imports (file_id, module, names, line, resolved)", import_rows)
        _insert_rows(conn, "dependencies (file_id, target)", dependency_rows)
        # In name order, refs_name (the largest index) grows in place rather than at random.
        ref_rows.sort(key=operator.itemgetter(1))
        _insert_rows(conn, "refs (file_id, name, line, kind, member)", ref_rows)
        _insert_rows(conn, "test_spans (file_id, start_line, end_line)", test_rows)
        _insert_rows(conn, "test_module_files (file_id, path)", test_module_rows)
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
            self._written = None  # chunks that were written before leave: what is kept no longer fits
            marks = ",".join("?" * len(ids))
            conn.execute(f"DELETE FROM files WHERE id IN ({marks})", ids)  # cascades to the rest

    def put_vectors(self, rowids: Sequence[int], vectors: np.ndarray) -> None:
        self._written = None  # vectors made after the writes (another embedder): read back instead
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
        self._written = None
        with write_transaction(self._conn) as conn:
            conn.execute("DELETE FROM vectors")
            self._bump(conn)

    def chunks_without_vectors(self) -> list[ChunkRecord]:
        return self._records(
            ChunkRecord,
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            " WHERE c.rowid NOT IN (SELECT chunk_rowid FROM vectors) ORDER BY c.rowid",
        )

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

    def imports_to_resolve(self, paths: Sequence[str] | None = None) -> list[PendingImport]:
        """The imports of `paths` (None: of every file), with their file's path and language."""
        scope, params = ("", []) if paths is None else _file_scope(paths)
        return self._records(
            PendingImport,
            "SELECT i.id, i.module, i.names, f.path, f.language"
            f" FROM imports i JOIN files f ON f.id = i.file_id WHERE 1 = 1{scope}",
            params,
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

    def __init__(
        self,
        store: IndexWrites,
        max_rows: int | None,
        max_seconds: float | None,
        resolver: Resolver | None = None,
        *,
        new_files_only: bool = False,
    ):
        self.store, self.max_rows, self.max_seconds = store, max_rows, max_seconds
        self.resolver = resolver  # imports resolved as they are written (see IndexWrites._insert)
        # An index with no file yet (a cold index: every row is new): SQLite's foreign-key checks
        # are left off while it writes. Each row's file, chunk or lexicon term is inserted by the
        # same write just before it, and nothing is deleted (so no cascade is missed); the checks
        # (a lookup per row: 90k refs on tokio) cost ~10% of the inserts.
        self.new_files_only = new_files_only
        self.conn = store._conn
        self.rowids: list[list[int]] = []  # each added file's chunk rowids, once inserted
        self._pending: list[PreparedFile] = []
        self._pending_rows = 0
        self._rows = 0  # rows in the open transaction
        self._lexicon: _Lexicon | None = None
        self._started: float | None = None  # when the open transaction began
        self._changed = False

    # While it writes: a page cache that holds the tables and indexes being filled (SQLite's default
    # 2 MB made a cold index of tokio, 35 MB, read ~37k pages back), and the write-ahead log copied
    # into the file once at the end rather than at each commit past 4 MB.
    CACHE_KIB = 65_536
    CHECKPOINT_PAGES = 16_384

    def __enter__(self) -> BulkWriter:
        conn = self.conn
        self._restore = (
            conn.execute("PRAGMA cache_size").fetchone()[0],
            conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0],
        )
        conn.execute(f"PRAGMA cache_size = -{self.CACHE_KIB}")
        conn.execute(f"PRAGMA wal_autocheckpoint = {self.CHECKPOINT_PAGES}")
        if self.new_files_only:
            conn.execute("PRAGMA foreign_keys = OFF")  # outside a transaction: there it would do nothing
            # Each refs row inserted into two indexes (by name: at random) cost more than building
            # them once at the end: on Zig's std (645k rows) 1.55 s of inserts against 0.63 s and
            # 0.27 s for the indexes, and the log written half as large.
            for name in REFS_INDEXES:
                conn.execute(f"DROP INDEX IF EXISTS {name}")  # names from a fixed table
        return self

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        try:
            if error is None:
                self.commit()
                if self.new_files_only:
                    self.store.ensure_refs_indexes()  # in the large page cache, before it is given back
                self.store.checkpoint_in_background()  # when the store copies its log at close
            else:
                self.rollback()
                if self.new_files_only:
                    with suppress(sqlite3.Error):  # the failure being handled is the one to report
                        self.store.ensure_refs_indexes()  # else the next index run's (Indexer.run)
        finally:
            cache, checkpoint = self._restore
            self.conn.execute(f"PRAGMA cache_size = {int(cache)}")
            self.conn.execute(f"PRAGMA wal_autocheckpoint = {int(checkpoint)}")
            self.conn.execute("PRAGMA foreign_keys = ON")  # as connect() opens every connection

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
            self.store.forget_written()
            self._end()

    def _begin(self) -> None:
        if self._started is None:
            self.conn.execute("BEGIN IMMEDIATE")
            self._started = time.perf_counter()
            self._lexicon = self.store._lexicon(self.conn)

    def _flush(self) -> None:
        if self._pending:
            assert self._lexicon is not None
            self.rowids += self.store._insert(self.conn, self._pending, self._lexicon, self.resolver)
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


def _count_terms(parent: str | None, name: str | None, path: str, content: str) -> dict[str, float]:
    """A stored chunk's bag, as the index workers count it (terms.chunk_bag)."""
    return chunk_bag(parent, name, _path_words(path), content)


_INT32 = next(code for code in "ilh" if array(code).itemsize == 4)  # the bags' int32 (C int)


def _bag_blobs(
    counts: dict[str, float], term_ids: dict[str, int], *, as_arrays: bool = False
) -> tuple[bytes, bytes] | tuple[np.ndarray, np.ndarray]:
    if not as_arrays:  # the writer's: a chunk's few dozen terms, where numpy's call costs more
        bag_terms, packed = packed_bag(counts)
        return _term_ids(bag_terms, term_ids), packed
    terms = np.fromiter((term_ids[t] for t in counts), dtype=np.int32, count=len(counts))
    weights = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))
    return terms, weights


def _term_ids(bag_terms: Sequence[str], term_ids: dict[str, int]) -> bytes:
    """A bag's terms as the int32 ids the bags table stores."""
    if len(bag_terms) < 2:  # itemgetter of one key gives the value itself, of none is no itemgetter
        return array(_INT32, [term_ids[term] for term in bag_terms]).tobytes()
    return array(_INT32, operator.itemgetter(*bag_terms)(term_ids)).tobytes()  # the look-ups in C


# A reference's `member` as the int SQLite stores (the same 0 or 1): sqlite3 binds an int, a float, a
# str, bytes or None as it is, but anything else, a bool included, only after looking for an adapter
# (two failed attribute look-ups, each formatting an AttributeError's message): ~1,500 instructions
# a bool, ~0.2 G of tokio's cold index (90k refs).
_FLAG = (0, 1)


# Rows per INSERT statement (`VALUES (...), (...), ...`): SQLite runs one statement, and Python's
# sqlite3 binds, steps and resets it, once per statement rather than once per row (tokio's 90k refs:
# ~30% fewer instructions). At most 999 values a statement, the limit of SQLite before 3.32.
_STATEMENT_VALUES = 999


@functools.lru_cache(maxsize=64)
def _values_statement(table: str, width: int, rows: int) -> str:
    one = f"({','.join('?' * width)})"
    return f"INSERT INTO {table} VALUES {','.join([one] * rows)}"


def _insert_rows(conn: sqlite3.Connection, table: str, rows: Sequence[tuple]) -> None:
    """INSERT `rows` into `table` ("name (column, ...)": a fixed text, never the caller's data), in
    their order (rowids are given in it), many rows to a statement."""
    if not rows:
        return
    width = len(rows[0])
    per_statement = max(1, _STATEMENT_VALUES // width)
    whole = len(rows) - len(rows) % per_statement
    if whole:  # the values in groups of a statement's; the last, partial group is left to the next
        values = iter(itertools.chain.from_iterable(rows))
        groups = zip(*[values] * (width * per_statement), strict=False)  # strict would raise at the last
        conn.executemany(_values_statement(table, width, per_statement), groups)
    if whole < len(rows):
        conn.executemany(_values_statement(table, width, 1), rows[whole:])


def _file_scope(paths: Sequence[str]) -> tuple[str, list[str]]:
    marks = ",".join("?" * len(paths))
    return f" AND i.file_id IN (SELECT id FROM files WHERE path IN ({marks}))", list(paths)
