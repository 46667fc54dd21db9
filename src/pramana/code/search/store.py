"""The search stage's reads: the term bags as an in-memory BM25 index, the vectors as one matrix (each
saved as a snapshot for the next process), filters, and what ranking asks of the index (the chunks
of definitions, files named after their types, files that forward to others)."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import posixpath
import sqlite3
import string
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from pramana.code.index.store import WrittenChunks, _bag_blobs, _count_terms
from pramana.code.index.tables import CHUNK_COLUMNS, TEST_SPAN_ROWS, CodeTables
from pramana.code.languages import package_doc_names
from pramana.code.records import ChunkRecord, DefinitionChunk, Forwarder
from pramana.code.search.lexical import LexicalIndex, join_strings, pack_arrays, split_names, unpack_arrays
from pramana.code.search.paths import (
    command_module,
    headed_folders,
    is_command,
    older_version_folders,
    production_chunks,
    production_share,
)
from pramana.store.sqlite import BUSY_TIMEOUT_MS, write_transaction
from pramana.text.stem import stem

log = logging.getLogger(__name__)

FORWARDER_LINES, FORWARDER_TARGETS, FORWARDER_REFERENCES = 40, 3, 3


@dataclass(frozen=True)
class Filters:
    """Which chunks a search may return."""

    languages: tuple[str, ...] = ()
    excluded_languages: tuple[str, ...] = ()
    package: str | None = None
    exclude_file: str | None = None

    def sql(self) -> tuple[str, list[object]]:
        clauses: list[str] = []
        params: list[object] = []
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


class SearchReads(CodeTables):
    """What search reads, with the caches it keeps per index generation."""

    _written: WrittenChunks | None = None  # see IndexWrites.keep_written

    def __init__(self, path: Path | str, *, read_only: bool = False):
        super().__init__(path, read_only=read_only)
        self._vector_cache: VectorMatrix | None = None
        self._lexical_cache: LexicalIndex | None = None
        self._masks: dict[tuple[int, str, Filters], np.ndarray] = {}
        # (index generation, older_version_folders, headed_folders) of the repository's paths
        self._folders: tuple[int, frozenset[str], frozenset[str]] = (-1, frozenset(), frozenset())
        # (index generation, each chunk's production_chunks flag, production_share by term)
        self._shares: tuple[int, list[bool], dict[str, float]] = (-1, [], {})
        self._possible: _Possible = _Possible(-1, frozenset(), frozenset(), {}, {}, frozenset(), frozenset())
        self._cache_lock = threading.Lock()
        self._pinned = threading.local()  # one_generation's generation, per thread

    def generation(self) -> int:
        """The index generation; inside `one_generation`, the one read when it began."""
        pinned: int | None = getattr(self._pinned, "generation", None)
        return super().generation() if pinned is None else pinned

    @contextlib.contextmanager
    def one_generation(self) -> Iterator[None]:
        """Read the index generation once for the block (in this thread): each cache a search consults
        checks it (about nine reads of `meta` a call), and all of them answer from the same one."""
        if getattr(self._pinned, "generation", None) is not None:
            yield
            return
        self._pinned.generation = super().generation()
        try:
            yield
        finally:
            self._pinned.generation = None

    def vector_dimension(self) -> int | None:
        row = self._conn.execute("SELECT length(vector) / 4 FROM vectors LIMIT 1").fetchone()
        return int(row[0]) if row else None

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
        index, packed = self._build_lexical(generation)
        self._save_snapshot("lexical", generation, packed or _packed_lexical(index))
        return index

    def build_search_data_ahead(self) -> None:
        """Once a cold index has written its last row (every chunk is in IndexWrites.keep_written's
        WrittenChunks): build the search data from them in a thread, now, while this thread has SQLite
        build the refs table's indexes (C code that runs without the interpreter's lock): the BM25
        postings and the vector matrix are then ready when load_search_data asks, rather than built
        after the indexes, on one CPU while the other waits. Nothing happens otherwise; what is built
        is used only where the tables still hold exactly what was written (_written_in_full)."""
        written = self._written
        if written is None or written.ahead_thread is not None:
            return
        thread = threading.Thread(
            target=_build_ahead, args=(written,), name="pramana-search-data", daemon=True
        )
        written.ahead_thread = thread
        thread.start()

    def _build_lexical(self, generation: int) -> tuple[LexicalIndex, dict[str, bytes] | None]:
        """The postings, and their snapshot's bytes when they were built ahead with them."""
        written = self._written_in_full(generation)
        if written is not None:  # after a cold index in this process: from memory, as read below
            ahead = _taken_ahead(written, "lexical", LexicalIndex, generation)
            return ahead or (_lexical_of(written, generation), None)
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
        return LexicalIndex.build(generation, rowids, ids, heads, bags, term_ids), None

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
                rowids, ids, matrix = saved["rowids"], split_names(saved["ids"]), saved["matrix"]
                if len(rowids) == len(ids) == len(matrix):
                    return VectorMatrix(generation, rowids, ids, matrix)
        vectors, packed = self._collect_vectors(generation)
        self._save_snapshot("vectors", generation, packed or _packed_vectors(vectors))
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

    def _save_snapshot(self, kind: str, generation: int, packed: dict[str, bytes]) -> None:
        """Save what was built (`packed` by pack_arrays), unless the index changed meanwhile (then it
        is already stale).

        Never waits for the write lock: a search that built this must not stall behind an index
        run's batch (which will make it stale anyway); the next build saves it instead."""
        if self.read_only:
            return
        conn = self._conn
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            with write_transaction(conn):
                if CodeTables.generation(self) != generation:  # the index's own, never pinned
                    return
                conn.execute("DELETE FROM snapshots WHERE kind = ?", (kind,))
                conn.executemany(
                    "INSERT INTO snapshots (kind, part, generation, data) VALUES (?, ?, ?, ?)",
                    [(kind, part, generation, data) for part, data in packed.items()],
                )
        except sqlite3.OperationalError as exc:  # busy, or a full disk: search works without it
            log.info("could not save the %s search data: %s", kind, exc)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    def _collect_vectors(self, generation: int) -> tuple[VectorMatrix, dict[str, bytes] | None]:
        """Row by row into one preallocated matrix: never every blob and a copy of each at once
        (for 40k chunks that peak was ~100 MB, and the allocator kept it). With the matrix, its
        snapshot's bytes when it was built ahead with them."""
        written = self._written_in_full(generation)
        if written is not None:
            taken = _taken_ahead(written, "vectors", VectorMatrix, generation)
            if taken is not None:
                return taken
            vectors = _vectors_of(written, generation)
            if vectors is not None:
                return vectors, None
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
        return VectorMatrix(generation, rowids[: len(ids)], ids, matrix[: len(ids)]), None

    def _written_in_full(self, generation: int) -> WrittenChunks | None:
        """What this process wrote into an empty index (IndexWrites.keep_written), if it is still all
        the index holds at `generation`: every chunk, term bag, lexicon term and vector; None otherwise."""
        written = self._written
        if written is None:
            return None
        if written.checked == generation:  # counted once per generation: every change bumps it
            return written
        conn = self._conn
        chunks = conn.execute("SELECT count(*), coalesce(max(rowid), 0) FROM chunks").fetchone()
        bags = conn.execute("SELECT count(*) FROM bags").fetchone()[0]
        terms = conn.execute("SELECT count(*), coalesce(max(id), 0) FROM lexicon").fetchone()
        vectors = conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
        highest = max(written.terms.values(), default=0)
        if (
            tuple(chunks) == (len(written.rowids), written.rowids[-1] if written.rowids else 0)
            and bags == len(written.rowids)
            and tuple(terms) == (len(written.terms), highest)
            and vectors == len(written.vectors)
        ):
            written.checked = generation
            return written
        log.debug("the chunks written in this process are not all the index holds: read back")
        self._written = None
        return None

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

    def chunk_heads(self) -> Mapping[str, tuple[str, str | None, str | None]]:
        """Where each chunk is and what it is called: id -> (path, name, parent), from memory."""
        return self.lexical_index().heads

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
        """The repository's folders of superseded versions (paths.older_version_folders)."""
        return self._path_folders()[1]

    def headed_folders(self) -> frozenset[str]:
        """The repository's folders with a head file beside or inside them (paths.headed_folders)."""
        return self._path_folders()[2]

    def read_rank_tables(self) -> None:
        """Read what the rank keeps per index generation (the paths' folders, what its look-ups can
        answer): ~0.1 s of SQLite on a large repository, which a server pays before its first search
        (runtime.warm_caches) rather than in it."""
        self._path_folders()
        self._possible_answers()

    def _path_folders(self) -> tuple[int, frozenset[str], frozenset[str]]:
        """The folders the rank reads from the repository's paths, from one read of them per index
        generation."""
        generation = self.generation()
        if self._folders[0] != generation:
            paths = self.paths()
            self._folders = (generation, older_version_folders(paths), headed_folders(paths))
        return self._folders

    def production_share(self, word: str) -> float:
        """The share of the repository's production chunks that hold `word` (stemmed as BM25 does;
        paths.production_share), read from its postings once per index generation."""
        index = self.lexical_index()
        term = stem(word.lower())
        tests = self._possible_answers().tests
        with self._cache_lock:
            if self._shares[0] != index.generation:
                production = production_chunks(
                    (index.heads[chunk_id][0] for chunk_id in index.ids),
                    (chunk_id in tests for chunk_id in index.ids),
                )
                self._shares = (index.generation, production, {})
            _, production, shares = self._shares
        if term not in shares:
            shares[term] = production_share(production, index.holding(word))
        return shares[term]

    def fragments(self, ids: Sequence[str]) -> frozenset[str]:
        """Which of `ids` are lines left between a definition's members (a `private`, an alias, a
        section comment): chunks named like a definition of their file that starts before them and
        spans them (the chunk that starts a definition, a method's own, is none)."""
        return self._possible_answers().fragments.intersection(ids)

    def command_modules(self) -> Mapping[str, str]:
        """Each command's script of the repository (paths.is_command) -> the module it runs
        (paths.command_module)."""
        return self._possible_answers().command_modules

    def in_file_tests(self, ids: Sequence[str]) -> frozenset[str]:
        """Which of `ids` are test code inside a source file (a Rust `#[cfg(test)] mod tests {}`, a Zig
        `test "name" {}`): ranked as a test file's chunks are."""
        return self._possible_answers().tests.intersection(ids)

    def package_docs(self, ids: Sequence[str]) -> frozenset[str]:
        """Which of `ids` are a package's documentation: chunks of a package documentation file
        (languages' `package_docs`: Rust's `lib.rs`, Go's `doc.go`) that hold no definition, the
        crate's `//!` guide and `mod` list, the package comment."""
        return self._possible_answers().package_docs.intersection(ids)

    def namesake_references(
        self, paths: Sequence[str], referrers: Sequence[str]
    ) -> list[tuple[str, str, str]]:
        """(path, name, referring path): the top-level types of `paths` named after their file (its
        name without extension, ignoring case, `_`, `-` and a plural s: `Triple` of `Triple.java`,
        `Completion` of `completions.go`), and the files of `referrers` that refer to them; each
        once, in no particular order (rank's user counts them), from the table read once per index
        generation (_possible_answers)."""
        references = self._possible_answers().namesake_references
        wanted = set(referrers)
        found: list[tuple[str, str, str]] = []
        for path in dict.fromkeys(paths):
            for referrer, names in references.get(path, {}).items():
                if referrer in wanted:
                    found.extend((path, name, referrer) for name in names)
        return found

    def has_forwarders(self) -> bool:
        """Whether any file of the index forwards to another (see `forwarders`)."""
        return bool(self._possible_answers().forwarded)

    def forwarders(self, targets: Sequence[str], filters: Filters) -> list[Forwarder]:
        """The files that forward to one of `targets` (see Forwarder): at most FORWARDER_LINES
        lines in one chunk, defining nothing, including or re-exporting one to FORWARDER_TARGETS
        files of the repository, calling nothing, with at most FORWARDER_REFERENCES other names
        outside their imports (a guard macro, `export default z`). A barrel of many files is a table
        of contents, and a script that uses what it imports does something: neither forwards."""
        if not self._possible_answers().forwarded.intersection(targets):
            return []
        where, params = filters.sql()
        return self._records(
            Forwarder,
            "SELECT d.target, f.path, c.id, c.name, c.parent"
            " FROM dependencies d JOIN files f ON f.id = d.file_id JOIN chunks c ON c.file_id = f.id"
            f" WHERE d.target IN ({','.join('?' * len(targets))}) AND f.lines <= ?{where}{_FORWARDS}",
            [*targets, FORWARDER_LINES, *params, FORWARDER_TARGETS, FORWARDER_REFERENCES],
        )

    def _possible_answers(self) -> _Possible:
        """What the rank's look-ups can answer with at all, whatever the query, once per index
        generation: every fragment (`fragments` answers from it), every file's namesake types with the
        files referring to them (`namesake_references` answers from it), and the targets forwarders
        forward to (a query none of whose files is among them skips `forwarders`' SQL, most do; one
        that has one runs it as before, so its rows and their order do not change)."""
        generation = self.generation()
        with self._cache_lock:
            if self._possible.generation != generation:
                self._possible = self._read_possible(generation)
            return self._possible

    def _read_possible(self, generation: int) -> _Possible:
        fragments = self._conn.execute(
            "SELECT c.id FROM chunks c WHERE c.name IS NOT NULL AND EXISTS (SELECT 1 FROM symbols s"
            " WHERE s.name = c.name AND s.file_id = c.file_id AND s.start_line < c.start_line"
            " AND s.end_line >= c.end_line)"
        )
        namesakes = self._conn.execute(
            "SELECT DISTINCT f.path, s.name, g.path FROM symbols s JOIN files f ON f.id = s.file_id"
            " JOIN refs r ON r.name = s.name JOIN files g ON g.id = r.file_id"
            " WHERE g.id != f.id AND s.parent IS NULL AND s.kind IN ('class', 'interface', 'type', 'module')"
        )
        references: dict[str, dict[str, set[str]]] = {}
        for path, name, referrer in namesakes:
            if _names_key(name) == _namesake_key(posixpath.splitext(posixpath.basename(path))[0]):
                references.setdefault(path, {}).setdefault(referrer, set()).add(name)
        forwarded = self._conn.execute(
            "SELECT DISTINCT d.target FROM dependencies d JOIN files f ON f.id = d.file_id"
            f" WHERE f.lines <= ?{_FORWARDS}",
            [FORWARDER_LINES, FORWARDER_TARGETS, FORWARDER_REFERENCES],
        )
        return _Possible(
            generation,
            frozenset(row[0] for row in fragments),
            self._package_doc_chunks(),
            self._command_modules(),
            {
                path: {referrer: frozenset(names) for referrer, names in by_referrer.items()}
                for path, by_referrer in references.items()
            },
            frozenset(row[0] for row in forwarded),
            self._in_file_test_chunks(),
        )

    def _in_file_test_chunks(self) -> frozenset[str]:
        """The chunks half or more of whose lines are in-file test code (the test_spans table), the
        spans first (CROSS JOIN: a repository has a few hundred, its chunks tens of thousands)."""
        rows = self._conn.execute(
            f"SELECT c.id FROM ({TEST_SPAN_ROWS}) t CROSS JOIN chunks c ON c.file_id = t.file_id"
            " AND c.start_line <= t.end_line AND c.end_line >= t.start_line GROUP BY c.rowid"
            " HAVING 2 * sum(min(c.end_line, t.end_line) - max(c.start_line, t.start_line) + 1)"
            " >= c.end_line - c.start_line + 1"
        )
        return frozenset(row[0] for row in rows)

    def _command_modules(self) -> dict[str, str]:
        """paths.command_module of each command's script that uses a file of the repository."""
        used: dict[str, list[str]] = {}
        for path, target in self._conn.execute(
            "SELECT f.path, d.target FROM dependencies d JOIN files f ON f.id = d.file_id"
            " WHERE f.path GLOB '*bin/*' OR f.path GLOB '*exe/*' OR f.path GLOB '*script*/*'"
        ):
            if is_command(path):
                used.setdefault(path, []).append(target)
        found = {script: command_module(script, targets) for script, targets in used.items()}
        return {script: module for script, module in found.items() if module is not None}

    def _package_doc_chunks(self) -> frozenset[str]:
        """The chunks of package documentation files (languages.package_doc_names) that overlap no
        symbol, save one that only heads the definition right after it (`_heads_definition`): read for
        the few files whose path ends like one (the name is checked in Python), the files first (CROSS
        JOIN keeps SQLite from scanning every chunk: 66 ms -> 0.2 ms on serde's 4,191 chunks)."""
        names = sorted(package_doc_names())
        if not names:
            return frozenset()
        like = " OR ".join("f.path LIKE ?" for _ in names)
        rows = self._conn.execute(
            "SELECT c.id, f.path, c.content, EXISTS (SELECT 1 FROM symbols s WHERE s.file_id = c.file_id"
            " AND s.start_line = c.end_line + 1) FROM files f CROSS JOIN chunks c ON c.file_id = f.id"
            f" WHERE ({like})"
            " AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.file_id = c.file_id"
            " AND s.start_line <= c.end_line AND s.end_line >= c.start_line)",
            [f"%{name}" for name in names],
        )
        return frozenset(
            chunk_id
            for chunk_id, path, content, before_definition in rows
            if posixpath.basename(path) in names and not (before_definition and _heads_definition(content))
        )


def _heads_definition(content: str) -> bool:
    """Whether a chunk only heads the definition after it: its lines are that definition's attributes
    or doc comment (`#[proc_macro_derive(...)]`), after nothing but the close of the one before."""
    lines = [line.strip() for line in content.splitlines() if line.strip()]
    while lines and lines[-1].startswith(_DEFINITION_HEADS):
        lines.pop()
    return all(not line.strip("{}()[];,") for line in lines)


_DEFINITION_HEADS = ("#[", "///", "@")


# What makes a file a forwarder besides its size (SearchReads.forwarders); `f` is the file.
_FORWARDS = (
    " AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.file_id = f.id)"
    " AND (SELECT count(*) FROM chunks k WHERE k.file_id = f.id) = 1"
    " AND (SELECT count(DISTINCT e.target) FROM dependencies e WHERE e.file_id = f.id) <= ?"
    " AND (SELECT count(*) FROM refs r WHERE r.file_id = f.id AND r.kind != 'import'"
    "      AND r.line NOT IN (SELECT i.line FROM imports i WHERE i.file_id = f.id)) <= ?"
    " AND NOT EXISTS (SELECT 1 FROM refs r WHERE r.file_id = f.id AND r.kind = 'call'"
    "      AND r.line NOT IN (SELECT i.line FROM imports i WHERE i.file_id = f.id))"
)


@dataclass(frozen=True)
class _Possible:
    """SearchReads._possible_answers of one index generation."""

    generation: int
    fragments: frozenset[str]  # chunk ids
    package_docs: frozenset[str]  # chunk ids (SearchReads.package_docs)
    command_modules: Mapping[str, str]  # a command's script -> the module it runs
    # a file with types named after it -> each file referring to them -> their names
    namesake_references: Mapping[str, Mapping[str, frozenset[str]]]
    forwarded: frozenset[str]  # paths some forwarder forwards to
    tests: frozenset[str]  # chunk ids (SearchReads.in_file_tests)


def _names_key(name: str) -> str:
    """A type's name as a namesake key, as SQL's `rtrim(lower(...), 's')` made it when the look-up was
    SQL: lower() changes ASCII letters only (the file's key is Python's, _namesake_key)."""
    return name.replace("_", "").replace("-", "").translate(_ASCII_LOWER).rstrip("s")


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _namesake_key(stem: str) -> str:
    return stem.lower().replace("_", "").replace("-", "").rstrip("s")


def _lexical_of(written: WrittenChunks, generation: int) -> LexicalIndex:
    """The BM25 postings of what a cold index wrote, from memory (as _build_lexical reads them)."""
    kept = written.bags
    sizes = np.fromiter((len(terms) // 4 for terms, _ in kept), dtype=np.int64, count=len(kept))
    terms = np.frombuffer(b"".join(terms for terms, _ in kept), dtype=np.int32)
    weights = np.frombuffer(b"".join(weights for _, weights in kept), dtype=np.float32)
    heads = dict(zip(written.ids, written.heads, strict=True))
    return LexicalIndex.from_bags(
        generation, written.rowids, written.ids, heads, sizes, terms, weights, dict(written.terms)
    )


def _vectors_of(written: WrittenChunks, generation: int) -> VectorMatrix | None:
    """The vector matrix of what a cold index wrote, from memory; None if the vectors' widths differ."""
    vectors = written.vectors
    if len({len(v) for _, _, v in vectors}) > 1:
        return None
    matrix = np.frombuffer(b"".join(v for _, _, v in vectors), dtype=np.float32)
    rowids = np.fromiter((rowid for rowid, _, _ in vectors), dtype=np.int64, count=len(vectors))
    width = len(vectors[0][2]) // 4 if vectors else 0
    return VectorMatrix(generation, rowids, [i for _, i, _ in vectors], matrix.reshape(len(vectors), width))


def _packed_lexical(index: LexicalIndex) -> dict[str, bytes]:
    return pack_arrays(index.parts())


def _packed_vectors(vectors: VectorMatrix) -> dict[str, bytes]:
    return pack_arrays({"rowids": vectors.rowids, "ids": join_strings(vectors.ids), "matrix": vectors.matrix})


_Built = TypeVar("_Built", LexicalIndex, VectorMatrix)


@dataclass(frozen=True)
class _BuiltAhead:
    """Search data built ahead (SearchReads.build_search_data_ahead), its snapshot's bytes, and how
    much had been written when it was built (_written_size): stale once more was written."""

    data: LexicalIndex | VectorMatrix
    packed: dict[str, bytes]
    size: tuple[int, int, int]

    def fits(self, written: WrittenChunks) -> bool:
        return self.size == _written_size(written)


def _taken_ahead(
    written: WrittenChunks, kind: str, of: type[_Built], generation: int
) -> tuple[_Built, dict[str, bytes]] | None:
    """What the ahead build made of `kind` (an `of`), at `generation`, with its snapshot's bytes; None
    when none was built or more was written since."""
    ahead = written.built_ahead(kind)
    if isinstance(ahead, _BuiltAhead) and isinstance(ahead.data, of) and ahead.fits(written):
        return dataclasses.replace(ahead.data, generation=generation), ahead.packed
    return None


def _written_size(written: WrittenChunks) -> tuple[int, int, int]:
    return len(written.rowids), len(written.vectors), len(written.terms)


def _build_ahead(written: WrittenChunks) -> None:
    """SearchReads.build_search_data_ahead's thread (generation 0: the reader sets the real one)."""
    try:
        size = _written_size(written)
        lexical = _lexical_of(written, 0)
        vectors = _vectors_of(written, 0)
        if _written_size(written) != size:  # written to meanwhile: built from what was written then
            return
        written.ahead["lexical"] = _BuiltAhead(lexical, _packed_lexical(lexical), size)
        if vectors is not None:
            written.ahead["vectors"] = _BuiltAhead(vectors, _packed_vectors(vectors), size)
    except Exception:  # built again where it is needed, and any error raised there
        log.debug("the search data could not be built ahead", exc_info=True)
