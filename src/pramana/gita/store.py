"""The gita cache: the spec's `verses` and `chapters` tables, plus per-author texts and FTS5.

Schema version 1 is the spec's §3.2 plus the following; version 4 re-derives every cached row's
texts from its raw_json (rows a v0.1 (spec) implementation cached, and texts cached before the
source's damage was repaired); version 3 adds `verse_texts.repairs`; version 5 re-derives them again
(placeholders had been kept as texts); version 6 flags misfiled translations (alignment.py);
version 9 drops search rows whose verse is no longer cached.
- `verse_texts`: each author's cleaned and repaired text per verse, so a lookup never parses raw
  JSON, with what was repaired (JSON, see `repair.Repairs`);
- `verse_fts`: FTS5 over folded transliteration, translations and Devanāgarī (BM25);
- `chapters.fetched_at` and `chapters.summary_hindi`.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pramana.errors import PramanaError
from pramana.gita.alignment import misfiled_texts
from pramana.gita.book_source import BookData, BookVerse
from pramana.gita.books import BOOK_ORDER
from pramana.gita.reference import VERSE_COUNT, ChapterRef, VerseRef
from pramana.gita.repair import Repairs
from pramana.gita.semantic import VectorFile, vectors_path
from pramana.gita.source import ChapterRecord, VerseRecord, author_texts, parse_verse
from pramana.gita.terms import VerseTerms, devanagari_glossary
from pramana.gita.translators import COMMENTARY_FIELDS
from pramana.gita.verse_text import avagraha_as_data
from pramana.install import command
from pramana.store.fts import quote, search_terms
from pramana.store.sqlite import Migration, SQLiteStore, StoreError, schema_version, write_transaction
from pramana.text.normalize import fold_word, fold_words, has_devanagari
from pramana.text.transliterate import devanagari_to_iast

SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS verses (
    ref              TEXT PRIMARY KEY,
    chapter          INTEGER NOT NULL,
    verse            INTEGER NOT NULL,
    devanagari       TEXT,
    transliteration  TEXT,
    translations     TEXT,
    synonyms         TEXT,
    vedabase_url     TEXT,
    raw_json         TEXT,
    fetched_at       TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS chapters (
    chapter_number      INTEGER PRIMARY KEY,
    name                TEXT,
    name_transliterated TEXT,
    name_meaning        TEXT,
    verses_count        INTEGER,
    summary             TEXT,
    raw_json            TEXT
);
CREATE INDEX IF NOT EXISTS idx_verses_chapter ON verses(chapter);
CREATE INDEX IF NOT EXISTS idx_verses_transliteration ON verses(transliteration);
ALTER TABLE chapters ADD COLUMN name_translation TEXT;
ALTER TABLE chapters ADD COLUMN summary_hindi TEXT;
ALTER TABLE chapters ADD COLUMN fetched_at TIMESTAMP;
CREATE TABLE verse_texts (
    ref          TEXT NOT NULL REFERENCES verses(ref) ON DELETE CASCADE,
    author_key   TEXT NOT NULL,
    author       TEXT NOT NULL,
    field        TEXT NOT NULL,
    text         TEXT NOT NULL,
    numbered_for_other_verse INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (ref, author_key, field)
);
CREATE VIRTUAL TABLE verse_fts USING fts5(
    ref UNINDEXED,
    transliteration,
    translations,
    devanagari,
    tokenize = 'unicode61 remove_diacritics 2'
);
"""


def _rederive_texts(conn: sqlite3.Connection) -> None:
    """Every cached row gets its texts and search entries again from its raw_json (rows the spec's
    v0.1 implementation cached have none; older rows have unrepaired texts); a row without a
    usable raw_json is dropped (it is re-fetched on demand)."""
    for ref_text, raw in conn.execute("SELECT ref, raw_json FROM verses").fetchall():
        try:
            ref = _parse_stored_ref(ref_text)
            _write_verse(conn, parse_verse(json.loads(raw), ref, raw))
        except (ValueError, TypeError, PramanaError):
            conn.execute("DELETE FROM verses WHERE ref = ?", (ref_text,))
            conn.execute("DELETE FROM verse_fts WHERE ref = ?", (ref_text,))


def _english_texts(conn: sqlite3.Connection) -> dict[VerseRef, list[tuple[str, str]]]:
    texts: dict[VerseRef, list[tuple[str, str]]] = {}
    for ref, author, text in conn.execute(
        "SELECT ref, author_key, text FROM verse_texts WHERE field = 'et'"
        " AND numbered_for_other_verse = 0 ORDER BY ref, author_key"
    ):
        texts.setdefault(_parse_stored_ref(ref), []).append((author, text))
    return texts


def _mark_misfiled(conn: sqlite3.Connection) -> int:
    """Flag the translations filed under a verse they do not translate (alignment.py), once every
    verse is cached; and take them out of the verses' search text. How many were flagged."""
    if conn.execute("SELECT count(*) FROM verses").fetchone()[0] < VERSE_COUNT:
        return 0
    misfiled = misfiled_texts(_english_texts(conn))
    conn.executemany(
        "UPDATE verse_texts SET numbered_for_other_verse = 1"
        " WHERE ref = ? AND author_key = ? AND field = 'et'",
        [(str(ref), author) for ref, author in misfiled],
    )
    for ref in {ref for ref, _ in misfiled}:
        usable = conn.execute(
            "SELECT text FROM verse_texts WHERE ref = ? AND numbered_for_other_verse = 0 ORDER BY rowid",
            (str(ref),),
        )
        conn.execute(
            "UPDATE verse_fts SET translations = ? WHERE ref = ?",
            ("\n".join(text for (text,) in usable), str(ref)),
        )
    return len(misfiled)


# The installed books (SB, CC): one row per text as upstream keys them (a joined verse, SB 10.1.5-7,
# is one row holding verses 5 to 7), written whole in one transaction per book.
BOOKS_SCHEMA = """
CREATE TABLE IF NOT EXISTS books (
    book          TEXT PRIMARY KEY,
    verses        INTEGER NOT NULL,
    texts         INTEGER NOT NULL,
    chapters      INTEGER NOT NULL,
    translations  INTEGER NOT NULL,
    version       TEXT NOT NULL,
    source        TEXT NOT NULL,
    fixed         TEXT NOT NULL,
    installed_ns  INTEGER NOT NULL,
    installed_at  TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS book_verses (
    id               INTEGER PRIMARY KEY,
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
    prose            INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS book_verses_by_number ON book_verses(book, division, chapter, verse);
CREATE VIRTUAL TABLE IF NOT EXISTS book_fts USING fts5(
    transliteration,
    translation,
    tokenize = 'unicode61 remove_diacritics 2'
);
"""

# Version 2 once re-derived the v0.1 rows. Version 4 now re-derives every row, after version 3
# has added the column it writes, so version 2 does nothing. Version 5 re-derives them again: the
# source's placeholders ("See Comment under 1.9", "… did not comment upon this sloka") had been
# cached as texts. Version 6 flags misfiled translations in caches seeded before; version 7 flags
# again, since the audit also finds runs of texts shifted by a verse or two. Version 9 drops the search
# rows of verses no longer cached (a re-derive dropped the verse and left its row), so that a verse
# has a `verse_fts` row only while it has a `verses` row: writing a verse not cached before then needs
# no DELETE on `verse_fts`, whose `ref` is unindexed (each such DELETE scans the whole table: a
# seed's 701 of them cost 1.2-1.4 s of CPU, half of its writes).
MIGRATIONS: list[Migration] = [
    SCHEMA_V1,
    "",
    "ALTER TABLE verse_texts ADD COLUMN repairs TEXT;",
    _rederive_texts,
    _rederive_texts,
    _mark_misfiled,  # after every re-derive, which writes the texts as the source has them
    _mark_misfiled,
    BOOKS_SCHEMA,
    "DELETE FROM verse_fts WHERE ref NOT IN (SELECT ref FROM verses);",
]
# BM25 column weights: ref, transliteration, translations, devanagari.
_BM25 = "bm25(verse_fts, 0.0, 4.0, 1.0, 4.0)"
_SANSKRIT_COLUMNS = "{transliteration devanagari} : "


@dataclass(frozen=True)
class StoredText:
    author_key: str
    author: str
    field: str
    text: str
    numbered_for_other_verse: bool
    repairs: Repairs = dataclasses.field(default_factory=Repairs)


@dataclass(frozen=True)
class StoredVerse:
    ref: VerseRef
    devanagari: str
    transliteration: str
    vedabase_url: str
    texts: list[StoredText]


@dataclass(frozen=True)
class StoredBookVerse:
    ref: VerseRef
    transliteration: str
    translation: str
    synonyms: str
    prose: bool


@dataclass(frozen=True)
class InstalledBook:
    code: str
    verses: int
    texts: int
    chapters: int
    translations: int  # texts with a translation in this cache
    version: str
    source: str
    fixed: dict[str, int]  # upstream quirks repaired at install, by kind
    installed_ns: int
    installed_at: str


@dataclass(frozen=True)
class SearchHit:
    ref: VerseRef
    score: float
    snippet: str


class GitaStore(SQLiteStore):
    """Typed access to the cache file; safe to share between threads and processes."""

    migrations = MIGRATIONS

    def __init__(self, path: Path | str, *, read_only: bool = False):
        super().__init__(path, read_only=read_only)
        # A read-only file is never migrated: one from an older pramana lacks columns read here.
        if self.read_only and self.path.exists() and schema_version(self._conn) < len(self.migrations):
            raise StoreError(
                f"the gita cache {self.path} was made by an older pramana (schema version"
                f" {schema_version(self._conn)}, this one needs {len(self.migrations)}): open it once"
                f" where it is writable (any pramana gita command, such as `{command('gita lookup 2.47')}`),"
                " or seed a new one"
            )

    @property
    def location(self) -> str:
        return str(self.path)

    def state(self) -> dict[str, Any]:
        return {"backend": "sqlite"}

    def on_change(self, callback: Callable[[str], None]) -> None:
        """Nothing to subscribe to: every process reads the file's counts afresh."""

    # -- writing -------------------------------------------------------------------------

    def save_verse(self, record: VerseRecord) -> None:
        """Write one verse and its texts atomically: an interrupted seed never leaves half a row."""
        with write_transaction(self._conn) as conn:
            _write_verse(conn, record)

    def save_chapter(self, chapter: ChapterRecord) -> None:
        with write_transaction(self._conn) as conn:
            conn.execute(
                "INSERT OR REPLACE INTO chapters (chapter_number, name, name_transliterated, name_meaning,"
                " verses_count, summary, raw_json, name_translation, summary_hindi, fetched_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)",
                chapter_values(chapter),
            )

    def mark_misfiled(self) -> int:
        """Flag the translations the source filed under the wrong verse, once all are cached (a seed
        writes them as the source has them). How many were flagged."""
        with write_transaction(self._conn) as conn:
            return _mark_misfiled(conn)

    # -- reading -------------------------------------------------------------------------

    def verse_count(self) -> int:
        return int(self._conn.execute("SELECT count(*) FROM verses").fetchone()[0])

    def cached_refs(self) -> set[str]:
        return {row[0] for row in self._conn.execute("SELECT ref FROM verses")}

    def cached_chapters(self) -> set[int]:
        return {row[0] for row in self._conn.execute("SELECT chapter_number FROM chapters")}

    def verse(self, ref: VerseRef) -> StoredVerse | None:
        row = self._conn.execute(
            "SELECT devanagari, transliteration, vedabase_url FROM verses WHERE ref = ?", (str(ref),)
        ).fetchone()
        if row is None:
            return None
        texts = [
            StoredText(
                r["author_key"],
                r["author"],
                r["field"],
                r["text"],
                bool(r["numbered_for_other_verse"]),
                Repairs.from_json(r["repairs"]),
            )
            for r in self._conn.execute(
                "SELECT author_key, author, field, text, numbered_for_other_verse, repairs"
                " FROM verse_texts WHERE ref = ?",
                (str(ref),),
            )
        ]
        return StoredVerse(ref, row["devanagari"], row["transliteration"], row["vedabase_url"], texts)

    def verses(self, refs: list[VerseRef]) -> dict[VerseRef, StoredVerse]:
        """The cached ones of `refs` (a chapter, a page of search hits)."""
        found = {ref: self.verse(ref) for ref in refs}
        return {ref: verse for ref, verse in found.items() if verse is not None}

    def commentaries(self, ref: VerseRef, author_key: str) -> list[StoredText]:
        """An author's commentaries on a verse, read from the raw document (not kept cleaned)."""
        row = self._conn.execute("SELECT raw_json FROM verses WHERE ref = ?", (str(ref),)).fetchone()
        return commentaries_in(row[0] if row else None, ref, author_key)

    def chapter(self, number: int) -> ChapterRecord | None:
        row = self._conn.execute(
            f"SELECT {CHAPTER_COLUMNS}, fetched_at FROM chapters WHERE chapter_number = ?", (number,)
        ).fetchone()
        return chapter_record(row) if row else None

    def transliterations(self) -> list[tuple[VerseRef, str, str]]:
        """(ref, IAST, Devanāgarī) of every cached verse, in verse order."""
        rows = self._conn.execute(
            "SELECT chapter, verse, transliteration, devanagari FROM verses ORDER BY chapter, verse"
        )
        return [(VerseRef(r[0], r[1]), r[2], r[3]) for r in rows]

    def english_texts(self) -> dict[VerseRef, list[tuple[str, str]]]:
        """(author key, text) of every cached English text that belongs to its verse, by verse."""
        return _english_texts(self._conn)

    def content_signature(self) -> str:
        """What the cached documents are, cheaply (no document is read): how many, and the schema
        version, whose migrations are what re-derive cached texts; a seed or a lookup that caches a
        verse changes the count."""
        return f"{self.verse_count()}:{schema_version(self._conn)}"

    def term_sources(self) -> list[VerseTerms]:
        """Each cached verse's Sanskrit term sources (terms.py): its IAST and Devanāgarī, Sivananda's
        word-for-word gloss, and every author's Sanskrit and Hindi commentary (Devanāgarī), read
        from the raw documents."""
        return verse_terms(
            self._conn.execute(
                "SELECT ref, transliteration, devanagari, raw_json FROM verses ORDER BY chapter, verse"
            )
        )

    def search(self, query: str, limit: int) -> list[SearchHit]:
        """BM25-ranked verses for `query`; all words must match, else any word may."""
        return self.search_every_word(query, limit) or self.search_any_word(query, limit)

    def search_every_word(self, query: str, limit: int) -> list[SearchHit]:
        """BM25-ranked verses holding every word of `query`."""
        clauses = _query_clauses(query)
        return self._run_search(" AND ".join(clauses), limit) if clauses else []

    def search_any_word(self, query: str, limit: int) -> list[SearchHit]:
        """BM25-ranked verses holding any word of `query`, if it has several (else none: one word
        is every word)."""
        clauses = _query_clauses(query)
        return self._run_search(" OR ".join(clauses), limit) if len(clauses) > 1 else []

    def search_sanskrit(self, query: str, limit: int) -> list[SearchHit]:
        """BM25-ranked verses whose Sanskrit (IAST or Devanāgarī) holds every word of `query`."""
        clauses = [_term_clause(term, _SANSKRIT_COLUMNS) for term in search_terms(query)]
        return self._run_search(" AND ".join(clauses), limit) if clauses else []

    def _run_search(self, fts_query: str, limit: int) -> list[SearchHit]:
        rows = self._conn.execute(
            f"SELECT ref, {_BM25} AS rank, snippet(verse_fts, 2, '**', '**', '…', 24) AS snip"
            " FROM verse_fts WHERE verse_fts MATCH ? ORDER BY rank LIMIT ?",
            (fts_query, limit),
        ).fetchall()
        return [SearchHit(_parse_stored_ref(r["ref"]), -float(r["rank"]), r["snip"] or "") for r in rows]

    # -- question vectors: a file beside the cache ----------------------------------------------

    def load_vectors(self, model: str) -> dict[str, np.ndarray]:
        return VectorFile(vectors_path(self.path)).load_vectors(model)

    def save_vectors(self, model: str, known: dict[str, np.ndarray], new: Sequence[str]) -> None:
        VectorFile(vectors_path(self.path)).save_vectors(model, known, new)

    def vectors_stamp(self) -> int:
        try:
            return vectors_path(self.path).stat().st_mtime_ns
        except OSError:
            return 0

    # -- installed books ------------------------------------------------------------------------

    def installed_books(self) -> dict[str, InstalledBook]:
        """The books installed, by code, in catalogue order (none in a file no install touched)."""
        if not self._has_books_table():
            return {}
        return installed_from_rows(self._conn.execute(f"SELECT {INSTALLED_COLUMNS} FROM books").fetchall())

    def _has_books_table(self) -> bool:
        # A read-only cache of an older schema has none (a writable one is migrated on open).
        return self._conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'books'").fetchone() is not None

    def replace_book(
        self, data: BookData, version: str, source: str, fixed: dict[str, int], *, keep_existing: bool = False
    ) -> InstalledBook:
        """Write one book whole, replacing what was installed of it, in one transaction: a reader
        sees the old book or the new one, never part of either. With `keep_existing`, a book that
        another process installed meanwhile is kept."""
        code = data.book.code
        rows = [book_verse_values(v) for v in data.verses]
        with write_transaction(self._conn) as conn:
            if keep_existing and conn.execute("SELECT 1 FROM books WHERE book = ?", (code,)).fetchone():
                return self.installed_books()[code]
            conn.execute(
                "DELETE FROM book_fts WHERE rowid IN (SELECT id FROM book_verses WHERE book = ?)", (code,)
            )
            conn.execute("DELETE FROM book_verses WHERE book = ?", (code,))
            conn.execute("DELETE FROM books WHERE book = ?", (code,))
            conn.executemany(
                "INSERT INTO book_verses (book, division, chapter, verse, last, label, ref, transliteration,"
                " translation, synonyms, prose) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            conn.executemany(
                "INSERT INTO book_fts (rowid, transliteration, translation) VALUES (?, ?, ?)",
                (
                    (row_id, _searchable_book_text(text), translation)
                    for row_id, text, translation in conn.execute(
                        "SELECT id, transliteration, translation FROM book_verses WHERE book = ?", (code,)
                    ).fetchall()
                ),
            )
            conn.execute(
                "INSERT INTO books (book, verses, texts, chapters, translations, version, source, fixed,"
                " installed_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (code, data.verse_count, len(rows), len(data.chapters), data.translations, version, source,
                 json.dumps(fixed), time.time_ns()),
            )  # fmt: skip
        self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file holds the book, not the log
        return self.installed_books()[code]

    def book_verse(self, ref: VerseRef) -> StoredBookVerse | None:
        """The text keyed exactly by `ref` (SB 10.1.5-7, SB 4.29.1b)."""
        row = self._conn.execute(
            f"SELECT {_BOOK_COLUMNS} FROM book_verses WHERE ref = ?", (str(ref),)
        ).fetchone()
        return _book_verse(row) if row else None

    def book_verse_holding(self, ref: VerseRef) -> StoredBookVerse | None:
        """The text that holds verse `ref`, or the first verse of a range (SB 10.1.6 is in SB 10.1.5-7)."""
        if ref.label:
            return labelled_verse_holding(self.book_chapter(ref.chapter_ref), ref.label)
        row = self._conn.execute(
            f"SELECT {_BOOK_COLUMNS} FROM book_verses WHERE book = ? AND division = ? AND chapter = ?"
            " AND label = '' AND verse <= ? AND max(verse, last) >= ? ORDER BY verse LIMIT 1",
            (ref.book, ref.division, ref.chapter, ref.verse, ref.verse),
        ).fetchone()
        return _book_verse(row) if row else None

    def book_chapter(self, chapter: ChapterRef) -> list[StoredBookVerse]:
        """Every text of a chapter, in upstream's order."""
        rows = self._conn.execute(
            f"SELECT {_BOOK_COLUMNS} FROM book_verses WHERE book = ? AND division = ? AND chapter = ?"
            " ORDER BY id",
            (chapter.book, chapter.division, chapter.chapter),
        )
        return [_book_verse(row) for row in rows]

    def book_transliterations(self, codes: list[str]) -> list[tuple[VerseRef, str]]:
        """(ref, IAST) of every text of the books `codes` that has one, in book order."""
        found = []
        for code in codes:
            rows = self._conn.execute(
                "SELECT chapter, verse, book, division, last, label, transliteration FROM book_verses"
                " WHERE book = ? AND transliteration != '' ORDER BY id",
                (code,),
            )
            found += [(book_ref(r), r[6]) for r in rows]
        return found

    def book_verses(self, codes: list[str]) -> list[StoredBookVerse]:
        """Every text of the books `codes`, in book order (each book's in upstream's order)."""
        found = []
        for code in codes:
            rows = self._conn.execute(
                f"SELECT {_BOOK_COLUMNS} FROM book_verses WHERE book = ? ORDER BY id", (code,)
            )
            found += [_book_verse(row) for row in rows]
        return found

    def books_signature(self) -> str:
        """Which books are installed, and when each was (an install or a forced one changes it)."""
        return signature_of(self.installed_books())

    def search_books(
        self, query: str, limit: int, codes: list[str], *, every_word: bool = True
    ) -> list[SearchHit]:
        """BM25-ranked texts of the books `codes` holding every word of `query` (or any, with several
        words and `every_word` False), in their Sanskrit or in a translation the cache has."""
        clauses = _book_clauses(query)
        if not clauses or (not every_word and len(clauses) < 2):
            return []
        return self._run_book_search((" AND " if every_word else " OR ").join(clauses), limit, codes)

    def search_books_sanskrit(self, query: str, limit: int, codes: list[str]) -> list[SearchHit]:
        """BM25-ranked texts whose Sanskrit holds every word of `query`."""
        clauses = _book_clauses(query, "transliteration : ")
        return self._run_book_search(" AND ".join(clauses), limit, codes) if clauses else []

    def _run_book_search(self, fts_query: str, limit: int, codes: list[str]) -> list[SearchHit]:
        if not codes:
            return []
        marks = ", ".join("?" for _ in codes)
        rows = self._conn.execute(
            "SELECT v.chapter, v.verse, v.book, v.division, v.last, v.label,"
            f" {_BOOK_BM25} AS rank, snippet(book_fts, 1, '**', '**', '…', 24) AS snip"
            f" FROM book_fts JOIN book_verses v ON v.id = book_fts.rowid"
            f" WHERE book_fts MATCH ? AND v.book IN ({marks}) ORDER BY rank LIMIT ?",
            (fts_query, *codes, limit),
        ).fetchall()
        return [SearchHit(book_ref(r), -float(r["rank"]), r["snip"] or "") for r in rows]


_BOOK_COLUMNS = "chapter, verse, book, division, last, label, transliteration, translation, synonyms, prose"
_BOOK_BM25 = "bm25(book_fts, 4.0, 1.0)"


# What both stores (this one and store_postgres.py) read and write alike.


def _book_verse(row: Sequence[Any]) -> StoredBookVerse:
    """A book verse from a row of _BOOK_COLUMNS."""
    return StoredBookVerse(book_ref(row), row[6], row[7], row[8], bool(row[9]))


def book_ref(row: Sequence[Any]) -> VerseRef:
    """A book verse's reference from a row that starts with chapter, verse, book, division, last, label."""
    return VerseRef(row[0], row[1], row[2], row[3], row[4], row[5])


def book_verse_values(verse: BookVerse) -> tuple[object, ...]:
    """A text's row of `book_verses` (book, division, chapter, verse, last, label, ref,
    transliteration, translation, synonyms, prose)."""
    ref = verse.ref
    return (
        ref.book, ref.division, ref.chapter, ref.verse, ref.last, ref.label, str(ref),
        verse.transliteration, verse.translation, verse.synonyms, verse.prose,
    )  # fmt: skip


def labelled_verse_holding(chapter: Iterable[StoredBookVerse], label: str) -> StoredBookVerse | None:
    """The text of `chapter` whose label range holds `label` (1a is in 1a-2a)."""
    for verse in chapter:
        if label in verse.ref.label.split("-"):
            return verse
    return None


INSTALLED_COLUMNS = (
    "book, verses, texts, chapters, translations, version, source, fixed, installed_ns, installed_at"
)


def installed_from_rows(rows: Iterable[Sequence[Any]]) -> dict[str, InstalledBook]:
    """The installed books from rows of INSTALLED_COLUMNS, by code, in catalogue order."""
    found = {
        r[0]: InstalledBook(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7]), r[8], r[9])
        for r in rows
    }
    return {code: found[code] for code in sorted(found, key=BOOK_ORDER.__getitem__)}


def signature_of(books: dict[str, InstalledBook]) -> str:
    """Which books are installed, and when each was (what books_signature says)."""
    return ",".join(f"{code}:{book.installed_ns}" for code, book in books.items())


# A chapter's columns but its fetch time, which each database writes its own way (as SQLite's
# CURRENT_TIMESTAMP writes it: UTC, to the second).
CHAPTER_COLUMNS = (
    "chapter_number, name, name_transliterated, name_translation, name_meaning, verses_count, summary,"
    " summary_hindi, raw_json"
)


def chapter_record(row: Sequence[Any]) -> ChapterRecord:
    """A chapter from a row of CHAPTER_COLUMNS and its fetch time."""
    return ChapterRecord(
        chapter_number=row[0],
        name=row[1],
        name_transliterated=row[2] or "",
        name_translation=row[3] or "",
        name_meaning=row[4] or "",
        verses_count=row[5],
        summary=row[6] or "",
        summary_hindi=row[7] or "",
        raw_json=row[8] or "",
        fetched_at=row[9] or "",
    )


def commentaries_in(raw_json: str | None, ref: VerseRef, author_key: str) -> list[StoredText]:
    """An author's commentaries on a verse, from the verse's raw document."""
    if not raw_json:
        return []
    doc = json.loads(raw_json)
    return [
        StoredText(t.key, t.author, t.field, t.text, t.numbered_for_other_verse, t.repairs)
        for t in author_texts({author_key: doc.get(author_key)}, ref, COMMENTARY_FIELDS)
    ]


def chapter_values(chapter: ChapterRecord) -> tuple[object, ...]:
    """A chapter's row of `chapters` but its fetch time (chapter_number, name, name_transliterated,
    name_meaning, verses_count, summary, raw_json, name_translation, summary_hindi)."""
    return (
        chapter.chapter_number,
        chapter.name,
        chapter.name_transliterated,
        chapter.name_meaning,
        chapter.verses_count,
        chapter.summary,
        chapter.raw_json,
        chapter.name_translation,
        chapter.summary_hindi,
    )


def verse_values(record: VerseRecord) -> tuple[object, ...]:
    """A verse's row of `verses` (ref, chapter, verse, devanagari, transliteration, translations,
    vedabase_url, raw_json)."""
    return (
        str(record.ref),
        record.ref.chapter,
        record.ref.verse,
        record.devanagari,
        record.transliteration,
        json.dumps(record.english_translations, ensure_ascii=False),
        record.ref.vedabase_url,
        record.raw_json,
    )


def _searchable_book_text(transliteration: str) -> str:
    """The folded words, and the words of each compound apart (tejo-vāri-mṛdāṁ: tejo, vari, mrdam)."""
    return fold_words(transliteration) + "\n" + fold_words(transliteration.replace("-", " "))


def _book_clauses(query: str, columns: str = "") -> list[str]:
    """One clause per word; the avagraha parts words in vedabase's IAST (yato 'nvayād)."""
    return [_term_clause(term, columns) for term in search_terms(query)]


def _write_verse(conn: sqlite3.Connection, record: VerseRecord) -> None:
    ref = str(record.ref)
    cached = conn.execute("SELECT 1 FROM verses WHERE ref = ?", (ref,)).fetchone() is not None
    conn.execute(
        "INSERT OR REPLACE INTO verses (ref, chapter, verse, devanagari, transliteration,"
        " translations, synonyms, vedabase_url, raw_json, fetched_at)"
        " VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, CURRENT_TIMESTAMP)",
        verse_values(record),
    )
    conn.execute("DELETE FROM verse_texts WHERE ref = ?", (ref,))
    conn.executemany(
        "INSERT INTO verse_texts (ref, author_key, author, field, text, numbered_for_other_verse, repairs)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (ref, t.key, t.author, t.field, t.text, int(t.numbered_for_other_verse), t.repairs.to_json())
            for t in record.texts
        ],
    )
    usable = [t for t in record.texts if not t.numbered_for_other_verse]
    if cached:  # a verse not cached has no search row (MIGRATIONS, version 9): no scan of verse_fts
        conn.execute("DELETE FROM verse_fts WHERE ref = ?", (ref,))
    conn.execute(
        "INSERT INTO verse_fts (ref, transliteration, translations, devanagari) VALUES (?, ?, ?, ?)",
        (
            ref,
            _searchable_transliteration(record.transliteration, record.devanagari),
            "\n".join(t.text for t in usable),
            record.devanagari,
        ),
    )


def verse_terms(rows: Iterable[Sequence[Any]]) -> list[VerseTerms]:
    """Each verse's Sanskrit term sources from its (ref, transliteration, devanagari, raw_json) row,
    in the rows' order (both stores read them alike)."""
    found = []
    for ref, transliteration, devanagari, raw in rows:
        try:
            doc = json.loads(raw) if raw else {}
        except ValueError:
            doc = {}
        blocks = [block for block in doc.values() if isinstance(block, dict)]
        siva = value if isinstance(value := doc.get("siva"), dict) else {}
        found.append(
            VerseTerms(
                _parse_stored_ref(ref),
                f"{transliteration or ''}\n{devanagari or ''}",
                devanagari_glossary(str(siva.get("ec") or "")),
                [str(b[f]) for b in blocks for f in COMMENTARY_FIELDS if isinstance(b.get(f), str)],
            )
        )
    return found


def _parse_stored_ref(ref: str) -> VerseRef:
    chapter, verse = ref.removeprefix("BG ").split(".")
    return VerseRef(int(chapter), int(verse))


def _searchable_transliteration(transliteration: str, devanagari: str) -> str:
    # Both the IAST and the Devanāgarī read as IAST: they split some lines differently.
    return fold_words(transliteration) + "\n" + fold_words(devanagari_to_iast(devanagari))


def _query_clauses(query: str) -> list[str]:
    """One FTS5 clause per searchable word of `query`."""
    terms = search_terms(avagraha_as_data(query))  # so'pi as the IAST column has it: so.api
    return [_term_clause(term) for term in terms]


def _term_clause(term: str, columns: str = "") -> str:
    """One query word: found as itself in any column (or in `columns`), or folded in the transliteration."""
    folded = folded_term(term)
    options = [columns + quote(term)]
    if folded:
        options.append(f"transliteration : {quote(folded)}")
    return "(" + " OR ".join(options) + ")"


def folded_term(term: str) -> str:
    """A query word as the folded transliteration has it (Devanāgarī read as IAST first)."""
    return fold_word(devanagari_to_iast(term) if has_devanagari(term) else term)
