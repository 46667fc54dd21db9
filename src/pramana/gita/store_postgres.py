"""The gita store on PostgreSQL: every replica's one cache (PRAMANA_DATABASE_URL=postgresql://…).

The same tables and typed records as the SQLite store (gita/store.py), with search in PostgreSQL's
terms (store/pg_search.py: tsvector and a GIN index find the rows, FTS5's BM25 ranks them) and the
question vectors in a table. Several replicas write safely at once:
- a verse is written in one transaction whose first statement upserts its row: two replicas seeding
  together write each verse one after the other, never twice;
- a book is replaced in one transaction under an advisory lock on the book: a second install waits,
  then finds it installed (unless forced) instead of writing it again;
- the misfiled-translation audit and the schema migrations run under advisory locks too.
Each write notifies the other replicas (LISTEN/NOTIFY): they drop the counts they keep, and rebuild
their verse matcher when the installed books change. While the listening connection is down,
nothing is kept: every count is read again.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from pramana.gita.alignment import misfiled_texts
from pramana.gita.book_source import BookData
from pramana.gita.reference import VERSE_COUNT, ChapterRef, VerseRef
from pramana.gita.repair import Repairs
from pramana.gita.source import ChapterRecord, VerseRecord
from pramana.gita.store import (
    _BOOK_COLUMNS,
    CHAPTER_COLUMNS,
    INSTALLED_COLUMNS,
    InstalledBook,
    SearchHit,
    StoredBookVerse,
    StoredText,
    StoredVerse,
    _book_verse,
    _parse_stored_ref,
    _searchable_book_text,
    _searchable_transliteration,
    book_ref,
    book_verse_values,
    chapter_record,
    chapter_values,
    commentaries_in,
    folded_term,
    installed_from_rows,
    labelled_verse_holding,
    signature_of,
    verse_terms,
    verse_values,
)
from pramana.gita.terms import VerseTerms
from pramana.gita.verse_text import avagraha_as_data
from pramana.store import pg_search
from pramana.store.fts import search_terms
from pramana.store.postgres import PoolSettings, PostgresDatabase, ReadOnlyStoreError
from pramana.store.sqlite import StoreError

if TYPE_CHECKING:
    import psycopg

COMPONENT = "gita"
CHANNEL = "pramana_gita"

SCHEMA_V1 = """
CREATE TABLE verses (
    ref              TEXT PRIMARY KEY,
    chapter          INTEGER NOT NULL,
    verse            INTEGER NOT NULL,
    devanagari       TEXT,
    transliteration  TEXT,
    translations     TEXT,
    synonyms         TEXT,
    vedabase_url     TEXT,
    raw_json         TEXT,
    fetched_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX verses_by_number ON verses (chapter, verse);
CREATE TABLE chapters (
    chapter_number      INTEGER PRIMARY KEY,
    name                TEXT,
    name_transliterated TEXT,
    name_meaning        TEXT,
    verses_count        INTEGER,
    summary             TEXT,
    raw_json            TEXT,
    name_translation    TEXT,
    summary_hindi       TEXT,
    fetched_at          TIMESTAMPTZ
);
CREATE TABLE verse_texts (
    ref          TEXT NOT NULL REFERENCES verses (ref) ON DELETE CASCADE,
    author_key   TEXT NOT NULL,
    author       TEXT NOT NULL,
    field        TEXT NOT NULL,
    text         TEXT NOT NULL,
    numbered_for_other_verse BOOLEAN NOT NULL DEFAULT false,
    repairs      TEXT,
    position     INTEGER NOT NULL,
    PRIMARY KEY (ref, author_key, field)
);
CREATE TABLE verse_search (
    ref          TEXT PRIMARY KEY REFERENCES verses (ref) ON DELETE CASCADE,
    translations TEXT NOT NULL,
    terms        TSVECTOR NOT NULL,
    sanskrit_terms TSVECTOR NOT NULL,
    length       INTEGER NOT NULL
);
CREATE INDEX verse_search_terms ON verse_search USING gin (terms);
CREATE INDEX verse_search_sanskrit_terms ON verse_search USING gin (sanskrit_terms);
CREATE TABLE verse_words (
    word  TEXT NOT NULL,
    ref   TEXT NOT NULL REFERENCES verse_search (ref) ON DELETE CASCADE,
    c     INTEGER[] NOT NULL,
    PRIMARY KEY (word, ref)
);
CREATE INDEX verse_words_by_ref ON verse_words (ref);
CREATE TABLE books (
    book          TEXT PRIMARY KEY,
    verses        INTEGER NOT NULL,
    texts         INTEGER NOT NULL,
    chapters      INTEGER NOT NULL,
    translations  INTEGER NOT NULL,
    version       TEXT NOT NULL,
    source        TEXT NOT NULL,
    fixed         TEXT NOT NULL,
    installed_ns  BIGINT NOT NULL,
    installed_at  TEXT NOT NULL,
    tokens        BIGINT NOT NULL
);
CREATE TABLE book_verses (
    id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    book             TEXT NOT NULL,
    division         INTEGER NOT NULL,
    chapter          INTEGER NOT NULL,
    verse            INTEGER NOT NULL,
    last             INTEGER NOT NULL,
    label            TEXT NOT NULL,
    ref              TEXT NOT NULL UNIQUE,
    transliteration  TEXT NOT NULL,
    translation      TEXT NOT NULL,
    synonyms         TEXT NOT NULL,
    prose            BOOLEAN NOT NULL,
    terms            TSVECTOR NOT NULL,
    sanskrit_terms   TSVECTOR NOT NULL,
    length           INTEGER NOT NULL
);
CREATE INDEX book_verses_by_number ON book_verses (book, division, chapter, verse);
CREATE INDEX book_verses_terms ON book_verses USING gin (terms);
CREATE INDEX book_verses_sanskrit_terms ON book_verses USING gin (sanskrit_terms);
CREATE TABLE book_words (
    word  TEXT NOT NULL,
    id    BIGINT NOT NULL,
    book  TEXT NOT NULL,
    c     INTEGER[] NOT NULL,
    PRIMARY KEY (word, id)
);
CREATE INDEX book_words_by_book ON book_words (book);
CREATE TABLE question_vectors (
    model   TEXT NOT NULL,
    key     TEXT NOT NULL,
    vector  BYTEA NOT NULL,
    PRIMARY KEY (model, key)
);
"""

# Versioned like the SQLite store's: migration i moves version i to i+1 (store/postgres.py).
MIGRATIONS = [SCHEMA_V1]

# FTS5 column weights of the SQLite store: verses (transliteration, translations, devanagari) and
# the books (transliteration, translation).
VERSE_ANY = (4.0, 1.0, 4.0)
VERSE_TRANSLITERATION = (4.0, 0.0, 0.0)
VERSE_SANSKRIT = (4.0, 0.0, 4.0)
BOOK_ANY = (4.0, 1.0)
BOOK_TRANSLITERATION = (4.0, 0.0)

_VERSE_STATS = "SELECT count(*)::float8 AS rows, coalesce(avg(length), 0)::float8 AS mean FROM verse_search"
_BOOK_STATS = (
    "SELECT coalesce(sum(texts), 0)::float8 AS rows,"
    " coalesce(sum(tokens)::float8 / nullif(sum(texts), 0), 0)::float8 AS mean FROM books"
)


class PostgresGitaStore:
    """Typed access to the gita tables in one PostgreSQL database; safe to share between threads,
    processes and machines. Nothing is read at construction: a database that is down is reported
    by the first call (and /ready), which also migrates the schema once it is reachable."""

    def __init__(self, url: str, pool: PoolSettings | None = None, *, read_only: bool = False):
        self.db = PostgresDatabase(url, pool, name="pramana-gita")
        self.location = self.db.where
        self._read_only_asked = read_only
        self._writable: bool | None = None
        self._open_lock = threading.Lock()
        self._generation = 0
        self._kept: dict[str, tuple[int, Any]] = {}
        self._subscribers: list[Callable[[str], None]] = []
        self.db.listen(CHANNEL, self._changed)

    # -- opening, changes ----------------------------------------------------------------------

    def _open(self) -> bool:
        """Migrate (a writable role) or check the schema (a read-only one), once; whether this
        process may write."""
        if (opened := self._writable) is not None:
            return opened
        with self._open_lock:
            if self._writable is not None:  # another thread opened it meanwhile
                return self._writable
            version = self.db.schema_version(COMPONENT)
            writable = not self._read_only_asked and self._may_create(version)
            if writable and version < len(MIGRATIONS):
                self.db.migrate(COMPONENT, MIGRATIONS)
            elif version == 0:
                raise StoreError(
                    f"{self.location} has no pramana tables yet, and this role may not create them:"
                    " fill it once with a role that may (`pramana gita seed --database-url URL` for the"
                    " translations, `pramana gita install sb cc --database-url URL` for the books),"
                    " then serve with this one"
                )
            elif version < len(MIGRATIONS):
                raise StoreError(
                    f"{self.location} holds gita schema version {version}, and this pramana needs"
                    f" {len(MIGRATIONS)}: run any `pramana gita` command once with a role that may"
                    " change tables (it migrates them), then serve with this one"
                )
            self._writable = writable and self.db.can_write("verses")
            return self._writable

    def _may_create(self, version: int) -> bool:
        with self.db.transaction() as conn:
            if version == 0:
                row = conn.execute(
                    "SELECT has_schema_privilege(current_user, current_schema(), 'CREATE')"
                    " AND NOT pg_is_in_recovery()"
                ).fetchone()
                return bool(row and row[0])
        return self.db.can_write("verses")

    @property
    def read_only(self) -> bool:
        return not self._open()

    def _changed(self, what: str) -> None:
        self._generation += 1
        for callback in list(self._subscribers):
            callback(what)

    def on_change(self, callback: Callable[[str], None]) -> None:
        """Call `callback(what)` when any replica changes the store ("verses", "books", …)."""
        self._subscribers.append(callback)

    def _kept_value(self, name: str, compute: Callable[[], Any]) -> Any:
        """`compute()`, kept until a change is notified; never kept while not listening."""
        if not self.db.listening:
            return compute()
        generation = self._generation
        kept = self._kept.get(name)
        if kept is not None and kept[0] == generation:
            return kept[1]
        value = compute()
        self._kept[name] = (generation, value)
        return value

    @contextmanager
    def _reading(self) -> Iterator[psycopg.Connection[Any]]:
        self._open()
        with self.db.transaction() as conn:
            yield conn

    @contextmanager
    def _writing(self, what: str) -> Iterator[psycopg.Connection[Any]]:
        if not self._open():
            raise ReadOnlyStoreError(f"{self.location} is read-only for this process")
        with self.db.transaction(write=True) as conn:
            yield conn
            self.db.notify(conn, what)
        self._changed(what)

    def close(self) -> None:
        self.db.close()

    def state(self) -> dict[str, Any]:
        return self.db.state()

    # -- writing -------------------------------------------------------------------------------

    def save_verse(self, record: VerseRecord) -> None:
        """Write one verse and its texts atomically (upsert first: concurrent writers take turns)."""
        with self._writing("verses") as conn, conn.pipeline():  # its statements sent together
            _write_verse(conn, record)

    def save_chapter(self, chapter: ChapterRecord) -> None:
        with self._writing("chapters") as conn:
            conn.execute(
                "INSERT INTO chapters (chapter_number, name, name_transliterated, name_meaning,"
                " verses_count, summary, raw_json, name_translation, summary_hindi, fetched_at)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, now())"
                " ON CONFLICT (chapter_number) DO UPDATE SET name = EXCLUDED.name,"
                " name_transliterated = EXCLUDED.name_transliterated, name_meaning = EXCLUDED.name_meaning,"
                " verses_count = EXCLUDED.verses_count, summary = EXCLUDED.summary,"
                " raw_json = EXCLUDED.raw_json, name_translation = EXCLUDED.name_translation,"
                " summary_hindi = EXCLUDED.summary_hindi, fetched_at = now()",
                chapter_values(chapter),
            )

    def mark_misfiled(self) -> int:
        """Flag the translations the source filed under the wrong verse, once all are cached."""
        with self._writing("verses") as conn:
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':gita-misfiled'))")
            if _count(conn, "SELECT count(*) FROM verses") < VERSE_COUNT:
                return 0
            misfiled = misfiled_texts(_english_texts(conn))
            with conn.cursor() as cur:
                cur.executemany(
                    "UPDATE verse_texts SET numbered_for_other_verse = true"
                    " WHERE ref = %s AND author_key = %s AND field = 'et'",
                    [(str(ref), author) for ref, author in misfiled],
                )
            for ref in {ref for ref, _ in misfiled}:
                _write_search_row(conn, str(ref))
            return len(misfiled)

    # -- reading -------------------------------------------------------------------------------

    def verse_count(self) -> int:
        return int(self._kept_value("verse_count", lambda: self._scalar("SELECT count(*) FROM verses")))

    def _scalar(self, query: str, params: Sequence[Any] = ()) -> Any:
        with self._reading() as conn:
            row = conn.execute(query, params).fetchone()
            return row[0] if row else None

    def content_signature(self) -> str:
        """What the cached documents are, cheaply, as the SQLite store's: how many, and the schema
        version (a seed or a fetch from any replica changes the count)."""
        return f"{self.verse_count()}:pg{len(MIGRATIONS)}"

    def term_sources(self) -> list[VerseTerms]:
        """Each cached verse's Sanskrit term sources, as the SQLite store reads them (terms.py)."""
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT ref, transliteration, devanagari, raw_json FROM verses ORDER BY chapter, verse"
            ).fetchall()
        return verse_terms(rows)

    def cached_refs(self) -> set[str]:
        with self._reading() as conn:
            return {row[0] for row in conn.execute("SELECT ref FROM verses")}

    def cached_chapters(self) -> set[int]:
        with self._reading() as conn:
            return {row[0] for row in conn.execute("SELECT chapter_number FROM chapters")}

    def verse(self, ref: VerseRef) -> StoredVerse | None:
        with self._reading() as conn:
            row = conn.execute(
                "SELECT devanagari, transliteration, vedabase_url FROM verses WHERE ref = %s", (str(ref),)
            ).fetchone()
            if row is None:
                return None
            texts = [
                StoredText(r[0], r[1], r[2], r[3], bool(r[4]), Repairs.from_json(r[5]))
                for r in conn.execute(
                    "SELECT author_key, author, field, text, numbered_for_other_verse, repairs"
                    ' FROM verse_texts WHERE ref = %s ORDER BY author_key COLLATE "C", field COLLATE "C"',
                    (str(ref),),
                )
            ]
        return StoredVerse(ref, row[0], row[1], row[2], texts)

    def verses(self, refs: list[VerseRef]) -> dict[VerseRef, StoredVerse]:
        """The cached ones of `refs`, in two queries (not two per verse)."""
        if not refs:
            return {}
        by_name = {str(ref): ref for ref in refs}
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT ref, devanagari, transliteration, vedabase_url FROM verses WHERE ref = ANY(%s)",
                (list(by_name),),
            ).fetchall()
            texts: dict[str, list[StoredText]] = {row[0]: [] for row in rows}
            for r in conn.execute(
                "SELECT ref, author_key, author, field, text, numbered_for_other_verse, repairs"
                " FROM verse_texts WHERE ref = ANY(%s)"
                ' ORDER BY ref, author_key COLLATE "C", field COLLATE "C"',
                (list(texts),),
            ):
                texts[r[0]].append(StoredText(r[1], r[2], r[3], r[4], bool(r[5]), Repairs.from_json(r[6])))
        return {by_name[r[0]]: StoredVerse(by_name[r[0]], r[1], r[2], r[3], texts[r[0]]) for r in rows}

    def commentaries(self, ref: VerseRef, author_key: str) -> list[StoredText]:
        raw = self._scalar("SELECT raw_json FROM verses WHERE ref = %s", (str(ref),))
        return commentaries_in(raw, ref, author_key)

    def chapter(self, number: int) -> ChapterRecord | None:
        with self._reading() as conn:
            row = conn.execute(
                f"SELECT {CHAPTER_COLUMNS}, to_char(fetched_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')"
                " FROM chapters WHERE chapter_number = %s",
                (number,),
            ).fetchone()
        return chapter_record(row) if row else None

    def transliterations(self) -> list[tuple[VerseRef, str, str]]:
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT chapter, verse, transliteration, devanagari FROM verses ORDER BY chapter, verse"
            ).fetchall()
        return [(VerseRef(r[0], r[1]), r[2], r[3]) for r in rows]

    def english_texts(self) -> dict[VerseRef, list[tuple[str, str]]]:
        with self._reading() as conn:
            return _english_texts(conn)

    # -- search --------------------------------------------------------------------------------

    def search(self, query: str, limit: int) -> list[SearchHit]:
        return self.search_every_word(query, limit) or self.search_any_word(query, limit)

    def search_every_word(self, query: str, limit: int) -> list[SearchHit]:
        clauses = _query_clauses(query)
        return self._run_search(pg_search.Query(clauses, True), limit) if clauses else []

    def search_any_word(self, query: str, limit: int) -> list[SearchHit]:
        clauses = _query_clauses(query)
        return self._run_search(pg_search.Query(clauses, False), limit) if len(clauses) > 1 else []

    def search_sanskrit(self, query: str, limit: int) -> list[SearchHit]:
        clauses = [_term_clause(term, VERSE_SANSKRIT, VERSE_TRANSLITERATION) for term in search_terms(query)]
        return self._run_search(pg_search.Query(clauses, True), limit) if clauses else []

    def _run_search(self, query: pg_search.Query, limit: int) -> list[SearchHit]:
        rows = self._ranked(
            query, "verse_search", "verse_words", "ref", "ref", "translations", _VERSE_STATS, limit
        )
        marked = _snippet_words(query, column=1)
        return [
            SearchHit(_parse_stored_ref(r[0]), float(r[-1]), pg_search.snippet(r[1], marked)) for r in rows
        ]

    def _ranked(
        self,
        query: pg_search.Query,
        table: str,
        words_table: str,
        key: str,
        columns: str,
        snippet_column: str,
        stats: str,
        limit: int,
        filter_sql: str = "",
        extra: dict[str, Any] | None = None,
    ) -> list[tuple[Any, ...]]:
        where, matching = query.where()
        if not where:
            return []
        sql = pg_search.bm25_sql(table, words_table, key, columns, snippet_column, stats, where, filter_sql)
        parameters = {**pg_search.bm25_parameters(query, limit), **matching, **(extra or {})}
        with self._reading() as conn:
            return conn.execute(sql, parameters).fetchall()

    # -- installed books -----------------------------------------------------------------------

    def installed_books(self) -> dict[str, InstalledBook]:
        return dict(self._kept_value("installed_books", self._read_books))

    def _read_books(self) -> dict[str, InstalledBook]:
        with self._reading() as conn:
            rows = conn.execute(f"SELECT {INSTALLED_COLUMNS} FROM books").fetchall()
        return installed_from_rows(rows)

    def replace_book(
        self, data: BookData, version: str, source: str, fixed: dict[str, int], *, keep_existing: bool = False
    ) -> InstalledBook:
        """Write one book whole in one transaction, under a lock on the book: a reader sees the old
        book or the new one; a second install at the same time waits, then (with `keep_existing`)
        keeps the book the first one wrote."""
        code = data.book.code
        with self._writing("books") as conn:
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':gita-book:' || %s))", (code,)
            )
            if keep_existing and conn.execute("SELECT 1 FROM books WHERE book = %s", (code,)).fetchone():
                return self._read_books()[code]
            conn.execute("DELETE FROM book_words WHERE book = %s", (code,))
            conn.execute("DELETE FROM book_verses WHERE book = %s", (code,))
            conn.execute("DELETE FROM books WHERE book = %s", (code,))
            indexed = [
                pg_search.index_columns([_searchable_book_text(v.transliteration), v.translation])
                for v in data.verses
            ]
            tokens = sum(row.length for row in indexed)
            columns = "book, division, chapter, verse, last, label, ref, transliteration, translation,"
            with (
                conn.cursor() as cur,
                cur.copy(
                    f"COPY book_verses ({columns} synonyms, prose, terms, sanskrit_terms, length) FROM STDIN"
                ) as copy,
            ):
                for v, row in zip(data.verses, indexed, strict=True):
                    copy.write_row((*book_verse_values(v), row.terms, row.sanskrit_terms, row.length))
            ids = dict(conn.execute("SELECT ref, id FROM book_verses WHERE book = %s", (code,)).fetchall())
            with conn.cursor() as cur, cur.copy("COPY book_words (word, id, book, c) FROM STDIN") as copy:
                for v, row in zip(data.verses, indexed, strict=True):
                    verse_id = ids[str(v.ref)]
                    for word, counts in row.counts.items():
                        copy.write_row((word, verse_id, code, counts))
            conn.execute(
                "INSERT INTO books (book, verses, texts, chapters, translations, version, source, fixed,"
                " installed_ns, installed_at, tokens) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (code, data.verse_count, len(data.verses), len(data.chapters), data.translations, version,
                 source, json.dumps(fixed), time.time_ns(), time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
                 tokens),
            )  # fmt: skip
        return self._read_books()[code]

    def book_verse(self, ref: VerseRef) -> StoredBookVerse | None:
        with self._reading() as conn:
            row = conn.execute(
                f"SELECT {_BOOK_COLUMNS} FROM book_verses WHERE ref = %s", (str(ref),)
            ).fetchone()
        return _book_verse(row) if row else None

    def book_verse_holding(self, ref: VerseRef) -> StoredBookVerse | None:
        if ref.label:
            return labelled_verse_holding(self.book_chapter(ref.chapter_ref), ref.label)
        with self._reading() as conn:
            row = conn.execute(
                f"SELECT {_BOOK_COLUMNS} FROM book_verses WHERE book = %s AND division = %s AND chapter = %s"
                " AND label = '' AND verse <= %s AND greatest(verse, last) >= %s ORDER BY verse LIMIT 1",
                (ref.book, ref.division, ref.chapter, ref.verse, ref.verse),
            ).fetchone()
        return _book_verse(row) if row else None

    def book_chapter(self, chapter: ChapterRef) -> list[StoredBookVerse]:
        with self._reading() as conn:
            rows = conn.execute(
                f"SELECT {_BOOK_COLUMNS} FROM book_verses WHERE book = %s AND division = %s AND chapter = %s"
                " ORDER BY id",
                (chapter.book, chapter.division, chapter.chapter),
            ).fetchall()
        return [_book_verse(row) for row in rows]

    def book_verses(self, codes: list[str]) -> list[StoredBookVerse]:
        """Every text of the books `codes`, in book order (each book's in upstream's order)."""
        found = []
        with self._reading() as conn:
            for code in codes:
                rows = conn.execute(
                    f"SELECT {_BOOK_COLUMNS} FROM book_verses WHERE book = %s ORDER BY id", (code,)
                ).fetchall()
                found += [_book_verse(row) for row in rows]
        return found

    def books_signature(self) -> str:
        """Which books are installed, and when each was (an install or a forced one changes it)."""
        return signature_of(self.installed_books())

    def book_transliterations(self, codes: list[str]) -> list[tuple[VerseRef, str]]:
        found = []
        with self._reading() as conn:
            for code in codes:
                rows = conn.execute(
                    "SELECT chapter, verse, book, division, last, label, transliteration FROM book_verses"
                    " WHERE book = %s AND transliteration != '' ORDER BY id",
                    (code,),
                )
                found += [(book_ref(r), r[6]) for r in rows]
        return found

    def search_books(
        self, query: str, limit: int, codes: list[str], *, every_word: bool = True
    ) -> list[SearchHit]:
        clauses = [_term_clause(term, BOOK_ANY, BOOK_TRANSLITERATION) for term in search_terms(query)]
        if not clauses or (not every_word and len(clauses) < 2):
            return []
        return self._run_book_search(pg_search.Query(clauses, every_word), limit, codes)

    def search_books_sanskrit(self, query: str, limit: int, codes: list[str]) -> list[SearchHit]:
        clauses = [
            _term_clause(term, BOOK_TRANSLITERATION, BOOK_TRANSLITERATION) for term in search_terms(query)
        ]
        return self._run_book_search(pg_search.Query(clauses, True), limit, codes) if clauses else []

    def _run_book_search(self, query: pg_search.Query, limit: int, codes: list[str]) -> list[SearchHit]:
        if not codes:
            return []
        rows = self._ranked(
            query, "book_verses", "book_words", "id", "id, chapter, verse, book, division, last, label",
            "translation", _BOOK_STATS, limit, "AND book = ANY(%(codes)s)", {"codes": list(codes)},
        )  # fmt: skip
        marked = _snippet_words(query, column=1)
        return [SearchHit(book_ref(r[1:]), float(r[-1]), pg_search.snippet(r[7], marked)) for r in rows]

    # -- question vectors ----------------------------------------------------------------------

    def load_vectors(self, model: str) -> dict[str, np.ndarray]:
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT key, vector FROM question_vectors WHERE model = %s", (model,)
            ).fetchall()
        return {key: np.frombuffer(vector, dtype=np.float16) for key, vector in rows}

    def save_vectors(self, model: str, known: dict[str, np.ndarray], new: Sequence[str]) -> None:
        with self._writing("vectors") as conn, conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO question_vectors (model, key, vector) VALUES (%s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                [(model, key, known[key].astype(np.float16).tobytes()) for key in new],
            )

    def vectors_stamp(self) -> int:
        """Changes when vectors are added (what the question index is rebuilt for)."""
        return int(self._kept_value("vectors", lambda: self._scalar("SELECT count(*) FROM question_vectors")))


def _count(conn: psycopg.Connection[Any], query: str) -> int:
    row = conn.execute(query).fetchone()
    return int(row[0]) if row else 0


def _english_texts(conn: psycopg.Connection[Any]) -> dict[VerseRef, list[tuple[str, str]]]:
    texts: dict[VerseRef, list[tuple[str, str]]] = {}
    for ref, author, text in conn.execute(
        "SELECT ref, author_key, text FROM verse_texts WHERE field = 'et'"
        ' AND NOT numbered_for_other_verse ORDER BY ref COLLATE "C", author_key COLLATE "C"'
    ):
        texts.setdefault(_parse_stored_ref(ref), []).append((author, text))
    return texts


def _write_verse(conn: psycopg.Connection[Any], record: VerseRecord) -> None:
    ref = str(record.ref)
    conn.execute(
        "INSERT INTO verses (ref, chapter, verse, devanagari, transliteration, translations, synonyms,"
        " vedabase_url, raw_json, fetched_at) VALUES (%s, %s, %s, %s, %s, %s, NULL, %s, %s, now())"
        " ON CONFLICT (ref) DO UPDATE SET chapter = EXCLUDED.chapter, verse = EXCLUDED.verse,"
        " devanagari = EXCLUDED.devanagari, transliteration = EXCLUDED.transliteration,"
        " translations = EXCLUDED.translations, synonyms = NULL, vedabase_url = EXCLUDED.vedabase_url,"
        " raw_json = EXCLUDED.raw_json, fetched_at = now()",
        verse_values(record),
    )
    conn.execute("DELETE FROM verse_texts WHERE ref = %s", (ref,))
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO verse_texts (ref, author_key, author, field, text, numbered_for_other_verse,"
            " repairs, position) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (ref, t.key, t.author, t.field, t.text, t.numbered_for_other_verse, t.repairs.to_json(), i)
                for i, t in enumerate(record.texts)
            ],
        )
    usable = [t.text for t in record.texts if not t.numbered_for_other_verse]
    _save_search_row(conn, ref, record.transliteration, record.devanagari, usable)


def _write_search_row(conn: psycopg.Connection[Any], ref: str) -> None:
    """The verse's search row again, from its stored text and the texts that belong to it."""
    verse = conn.execute("SELECT transliteration, devanagari FROM verses WHERE ref = %s", (ref,)).fetchone()
    assert verse is not None
    usable = [
        row[0]
        for row in conn.execute(
            "SELECT text FROM verse_texts WHERE ref = %s AND NOT numbered_for_other_verse ORDER BY position",
            (ref,),
        )
    ]
    _save_search_row(conn, ref, verse[0] or "", verse[1] or "", usable)


def _save_search_row(
    conn: psycopg.Connection[Any], ref: str, transliteration: str, devanagari: str, usable: list[str]
) -> None:
    translations = "\n".join(usable)
    indexed = pg_search.index_columns(
        [_searchable_transliteration(transliteration, devanagari), translations, devanagari]
    )
    conn.execute(
        "INSERT INTO verse_search (ref, translations, terms, sanskrit_terms, length)"
        " VALUES (%s, %s, %s::tsvector, %s::tsvector, %s)"
        " ON CONFLICT (ref) DO UPDATE SET translations = EXCLUDED.translations, terms = EXCLUDED.terms,"
        " sanskrit_terms = EXCLUDED.sanskrit_terms, length = EXCLUDED.length",
        (ref, translations, indexed.terms, indexed.sanskrit_terms, indexed.length),
    )
    conn.execute("DELETE FROM verse_words WHERE ref = %s", (ref,))
    per_column = list(zip(*indexed.counts.values(), strict=True)) or [(), (), ()]
    conn.execute(
        "INSERT INTO verse_words (word, ref, c) SELECT word, %s, ARRAY[c0, c1, c2]"
        " FROM unnest(%s::text[], %s::int[], %s::int[], %s::int[]) AS u(word, c0, c1, c2)",
        (ref, list(indexed.counts), *[list(column) for column in per_column]),
    )


def _query_clauses(query: str) -> list[list[list[pg_search.Phrase]]]:
    terms = search_terms(avagraha_as_data(query))  # so'pi as the IAST column has it: so.api
    return [_term_clause(term, VERSE_ANY, VERSE_TRANSLITERATION) for term in terms]


def _term_clause(
    term: str, weights: tuple[float, ...], transliteration: tuple[float, ...]
) -> list[list[pg_search.Phrase]]:
    """One query word: itself in the columns `weights` names, or folded in the transliteration."""
    folded = folded_term(term)
    options = [pg_search.option(term, weights)]
    if folded:
        options.append(pg_search.option(folded, transliteration))
    return [option for option in options if option]


def _snippet_words(query: pg_search.Query, column: int) -> set[str]:
    return {p.word for p in query.phrases if len(p.weights) > column and p.weights[column]}
