"""The code index in one SQLite file: files, chunks, their search terms (FTS5), vectors and symbols.

Chunks, symbols, imports and references of a file are replaced together in one transaction,
so a reader (the MCP server, while an index runs) sees a file either before or after, never half.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pramana.code.embed import chunk_text as _embedded_text
from pramana.code.files import RepoFile
from pramana.code.parse import ParsedFile
from pramana.code.terms import path_terms, terms
from pramana.store.fts import quote
from pramana.store.sqlite import SQLiteStore, write_transaction

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
CREATE VIRTUAL TABLE chunk_terms USING fts5(name, path, body, tokenize = 'porter unicode61');
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

NAME_WEIGHT, PATH_WEIGHT, BODY_WEIGHT = 3.0, 1.0, 1.0


@dataclass(frozen=True)
class FileState:
    path: str
    size: int
    mtime_ns: int
    sha: str


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


CHUNK_COLUMNS = """c.rowid, c.id, c.chunk_type, c.name, c.parent, c.start_line, c.end_line, c.content,
    f.path, f.package, f.language"""


class CodeStore(SQLiteStore):
    migrations = (SCHEMA,)

    def __init__(self, path: Path | str, *, read_only: bool = False):
        super().__init__(path, read_only=read_only)
        self._vector_cache: VectorMatrix | None = None
        self._cache_lock = threading.Lock()

    # meta

    def meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with write_transaction(self._conn) as conn:
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

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
        with write_transaction(self._conn) as conn:
            conn.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?", (size, mtime_ns, path))

    def replace_file(self, file: RepoFile, sha: str, line_count: int, parsed: ParsedFile) -> list[int]:
        """Store one file's chunks and symbols in place of what it had; returns the new chunk rowids.

        A chunk whose embedded text is unchanged (an edit elsewhere in the file, or lines that only
        moved) keeps its vector, so editing one function re-embeds one chunk, not the file.
        """
        with write_transaction(self._conn) as conn:
            kept = self._vectors_by_text(conn, file.path)
            self._delete_files(conn, [file.path])
            file_id = conn.execute(
                "INSERT INTO files (path, language, package, size, mtime_ns, sha, lines)"
                " VALUES (?,?,?,?,?,?,?)",
                (file.path, file.language, file.package, file.size, file.mtime_ns, sha, line_count),
            ).lastrowid
            rowids = []
            path_words = path_terms(file.path)  # once per file, not per chunk
            for chunk in parsed.chunks:
                rowid = conn.execute(
                    "INSERT INTO chunks"
                    " (id, file_id, chunk_type, name, parent, start_line, end_line, content)"
                    " VALUES (?,?,?,?,?,?,?,?)",
                    (chunk.id, file_id, chunk.chunk_type, chunk.name, chunk.parent, chunk.start_line,
                     chunk.end_line, chunk.content),
                ).lastrowid  # fmt: skip
                conn.execute(
                    "INSERT INTO chunk_terms (rowid, name, path, body) VALUES (?,?,?,?)",
                    (rowid, *search_terms(chunk.parent, chunk.name, path_words, chunk.content)),
                )
                vector = kept.get(
                    _embedded_text(chunk.path, chunk.chunk_type, chunk.parent, chunk.name, chunk.content)
                )
                if vector is not None:
                    conn.execute("INSERT INTO vectors (chunk_rowid, vector) VALUES (?, ?)", (rowid, vector))
                rowids.append(rowid)
            conn.executemany(
                "INSERT INTO symbols"
                " (file_id, name, kind, parent, start_line, end_line, exported, signature, doc)"
                " VALUES (?,?,?,?,?,?,?,?,?)",
                [(file_id, s.name, s.kind, s.parent, s.start_line, s.end_line, int(s.exported),
                  s.signature, s.doc)
                 for s in parsed.symbols],
            )  # fmt: skip
            conn.executemany(
                "INSERT INTO imports (file_id, module, names, line) VALUES (?,?,?,?)",
                [(file_id, i.module, json.dumps(i.names), i.line) for i in parsed.imports],
            )
            conn.executemany(
                "INSERT INTO refs (file_id, name, line, kind) VALUES (?,?,?,?)",
                [(file_id, r.name, r.line, r.kind) for r in parsed.references],
            )
            self._bump(conn)
        return rowids

    def _vectors_by_text(self, conn: sqlite3.Connection, path: str) -> dict[str, bytes]:
        rows = conn.execute(
            "SELECT c.chunk_type, c.parent, c.name, c.content, v.vector FROM chunks c"
            " JOIN files f ON f.id = c.file_id JOIN vectors v ON v.chunk_rowid = c.rowid WHERE f.path = ?",
            (path,),
        )
        return {_embedded_text(path, r[0], r[1], r[2], r[3]): r[4] for r in rows}

    def remove_files(self, paths: Sequence[str]) -> None:
        if not paths:
            return
        with write_transaction(self._conn) as conn:
            self._delete_files(conn, paths)
            self._bump(conn)

    def _delete_files(self, conn: sqlite3.Connection, paths: Sequence[str]) -> None:
        for path in paths:
            row = conn.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
            if row is None:
                continue
            conn.execute(
                "DELETE FROM chunk_terms WHERE rowid IN (SELECT rowid FROM chunks WHERE file_id = ?)",
                (row[0],),
            )
            conn.execute("DELETE FROM files WHERE id = ?", (row[0],))  # cascades to the rest

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

    def chunks_without_vectors(self) -> list[sqlite3.Row]:
        return self._conn.execute(
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            " WHERE c.rowid NOT IN (SELECT chunk_rowid FROM vectors) ORDER BY c.rowid"
        ).fetchall()

    def vectors_of(self, paths: Sequence[str]) -> Iterator[tuple[sqlite3.Row, np.ndarray]]:
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
                yield row, np.frombuffer(row["vector"], dtype=np.float32)

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

    def imports_to_resolve(self, paths: Sequence[str] | None = None) -> list[sqlite3.Row]:
        """The imports of `paths` (None: of every file), with their file's path and language."""
        scope, params = ("", []) if paths is None else _file_scope(paths)
        return self._conn.execute(
            "SELECT i.id, i.module, i.names, f.path, f.language"
            f" FROM imports i JOIN files f ON f.id = i.file_id WHERE 1 = 1{scope}",
            params,
        ).fetchall()

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
        """(chunk id, BM25 score, higher is better) of chunks holding any of `words`."""
        if not words:
            return []
        where, params = filters.sql()
        match = " OR ".join(quote(w) for w in words)
        rows = self._conn.execute(
            f"SELECT c.id, -bm25(chunk_terms, {NAME_WEIGHT}, {PATH_WEIGHT}, {BODY_WEIGHT}) AS score"
            " FROM chunk_terms t JOIN chunks c ON c.rowid = t.rowid JOIN files f ON f.id = c.file_id"
            f" WHERE chunk_terms MATCH ?{where} ORDER BY bm25(chunk_terms, {NAME_WEIGHT}, {PATH_WEIGHT},"
            f" {BODY_WEIGHT}) LIMIT ?",
            [match, *params, limit],
        )
        return [(r[0], float(r[1])) for r in rows]

    def vector_matrix(self) -> VectorMatrix:
        """Every chunk vector as one float32 matrix, cached until the index changes."""
        generation = self.generation()
        with self._cache_lock:
            if self._vector_cache is None or self._vector_cache.generation != generation:
                rows = self._conn.execute(
                    "SELECT v.chunk_rowid, c.id, v.vector"
                    " FROM vectors v JOIN chunks c ON c.rowid = v.chunk_rowid"
                    " ORDER BY v.chunk_rowid"
                ).fetchall()
                rowids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
                matrix = (
                    np.vstack([np.frombuffer(r[2], dtype=np.float32) for r in rows])
                    if rows
                    else np.zeros((0, 0), dtype=np.float32)
                )
                self._vector_cache = VectorMatrix(generation, rowids, [r[1] for r in rows], matrix)
            return self._vector_cache

    def filtered_rowids(self, filters: Filters) -> set[int]:
        where, params = filters.sql()
        rows = self._conn.execute(
            f"SELECT c.rowid FROM chunks c JOIN files f ON f.id = c.file_id WHERE 1 = 1{where}", params
        )
        return {int(r[0]) for r in rows}

    def chunks_by_id(self, ids: Iterable[str]) -> dict[str, sqlite3.Row]:
        wanted = list(ids)
        if not wanted:
            return {}
        rows = self._conn.execute(
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            f" WHERE c.id IN ({','.join('?' * len(wanted))})",
            wanted,
        )
        return {r["id"]: r for r in rows}

    def chunk(self, chunk_id: str) -> sqlite3.Row | None:
        return self._conn.execute(
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id = ?",
            (chunk_id,),
        ).fetchone()

    def chunks_at(self, path: str, line: int) -> list[sqlite3.Row]:
        return self._conn.execute(
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            " WHERE f.path = ? AND c.start_line <= ? AND c.end_line >= ? ORDER BY c.end_line - c.start_line",
            (path, line, line),
        ).fetchall()

    def file(self, path: str) -> sqlite3.Row | None:
        return self._conn.execute("SELECT * FROM files WHERE path = ?", (path,)).fetchone()

    def file_chunks(self, path: str) -> list[sqlite3.Row]:
        return self._conn.execute(
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            " WHERE f.path = ? ORDER BY c.start_line",
            (path,),
        ).fetchall()

    def symbols_under(self, path: str) -> list[sqlite3.Row]:
        """Definitions in the file `path`, or in every file below the folder `path` ('' is the root)."""
        pattern = _below(path)
        return self._conn.execute(
            "SELECT s.*, f.path, f.package, f.language FROM symbols s JOIN files f ON f.id = s.file_id"
            " WHERE f.path = ? OR f.path LIKE ? ESCAPE '\\' ORDER BY f.path, s.start_line",
            (path, pattern),
        ).fetchall()

    def has_folder(self, path: str) -> bool:
        return bool(
            self._conn.execute(
                "SELECT 1 FROM files WHERE path LIKE ? ESCAPE '\\' LIMIT 1", (_below(path),)
            ).fetchone()
        )

    def definitions(self, name: str) -> list[sqlite3.Row]:
        return self._conn.execute(
            "SELECT s.*, f.path, f.package, f.language FROM symbols s JOIN files f ON f.id = s.file_id"
            " WHERE s.name = ? ORDER BY s.exported DESC, s.parent IS NOT NULL, f.path, s.start_line",
            (name,),
        ).fetchall()

    def symbols_of_kind(
        self, kinds: Sequence[str], exported_only: bool, package: str | None, limit: int
    ) -> tuple[list[sqlite3.Row], int]:
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
        rows = self._conn.execute(
            f"SELECT s.*, f.path, f.package, f.language {base} ORDER BY f.path, s.start_line LIMIT ?",
            [*params, limit],
        ).fetchall()
        return rows, total

    def references(self, name: str, limit: int) -> tuple[list[sqlite3.Row], int]:
        base = "FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ?"
        total = int(self._conn.execute(f"SELECT count(*) {base}", (name,)).fetchone()[0])
        rows = self._conn.execute(
            f"SELECT r.line, r.kind, f.path, f.package, f.language, f.id AS file_id {base}"
            " ORDER BY r.kind = 'import', f.path, r.line LIMIT ?",
            (name, limit),
        ).fetchall()
        return rows, total

    def references_in(self, path: str, start: int, end: int, kind: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT DISTINCT r.name FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line BETWEEN ? AND ? AND r.kind = ? ORDER BY r.line",
            (path, start, end, kind),
        )
        return [r[0] for r in rows]

    def imports_of(self, path: str) -> list[sqlite3.Row]:
        return self._conn.execute(
            "SELECT i.module, i.names, i.line, i.resolved FROM imports i JOIN files f ON f.id = i.file_id"
            " WHERE f.path = ? ORDER BY i.line",
            (path,),
        ).fetchall()

    def dependents(self, path: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT DISTINCT f.path FROM dependencies d JOIN files f ON f.id = d.file_id"
            " WHERE d.target = ? ORDER BY f.path",
            (path,),
        )
        return [r[0] for r in rows]

    def enclosing_symbol(self, path: str, line: int) -> sqlite3.Row | None:
        return self._conn.execute(
            "SELECT s.name, s.parent, s.kind FROM symbols s JOIN files f ON f.id = s.file_id"
            " WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ?"
            " ORDER BY s.end_line - s.start_line LIMIT 1",
            (path, line, line),
        ).fetchone()


def search_terms(parent: str | None, name: str | None, path_words: str, content: str) -> tuple[str, str, str]:
    """The words a chunk is found by: its name's, its path's and its text's (identifiers split)."""
    return " ".join(terms(f"{parent or ''} {name or ''}")), path_words, " ".join(terms(content))


def _file_scope(paths: Sequence[str]) -> tuple[str, list[str]]:
    marks = ",".join("?" * len(paths))
    return f" AND i.file_id IN (SELECT id FROM files WHERE path IN ({marks}))", list(paths)


def _below(folder: str) -> str:
    escaped = folder.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"{escaped}/%" if escaped else "%"
