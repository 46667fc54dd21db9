"""The dictionary database: one SQLite file holding every installed dictionary.

- `entries`: one row per article, with its raw markup and its searchable plain text;
- `headwords`: every search key of an article (its headword, the alternate spellings of
  `*_hwextra.txt`, and the stem of a headword printed as a nominative: `DarmaH` under `Darma`)
  in SLP1 and as a loose key, indexed, so exact and prefix lookups never scan the table;
- `headword_grams`, `headword_loose_grams`: FTS5 trigram indexes over `headwords.slp1` and
  `headwords.loose` (every key, one row each), for substring ("fuzzy") search in either spelling;
- `entries_fts`: FTS5 over the articles' plain text, BM25-ranked, for reverse search;
- the form index (see `forms.py`): `lexicon` (every headword with its genders or `ind.`, the built-in
  indeclinables, pronouns and numerals, the verbal stems of the roots) and `verb_forms` (the roots'
  finite forms, the grammar a small number into `forms.GRAMMARS`), both keyed without a rowid;
  `form_state` says what they were built from.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import sqlite3
import time
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from multiprocessing.connection import Connection
from typing import Any, Literal

from pramana.errors import SourceError
from pramana.sanskrit.forms import LexiconRow
from pramana.sanskrit.stems import cited_stems
from pramana.store.fts import quote
from pramana.store.sqlite import Migration, SQLiteStore, schema_version, write_transaction
from pramana.text.schemes import loose_key_from_slp1

SCHEMA_V1 = """
CREATE TABLE dictionaries (
    code         TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    short_name   TEXT NOT NULL DEFAULT '',
    from_lang    TEXT NOT NULL DEFAULT '',
    to_lang      TEXT NOT NULL DEFAULT '',
    description  TEXT NOT NULL DEFAULT '',
    year         TEXT NOT NULL DEFAULT '',
    licence      TEXT NOT NULL DEFAULT '',
    source       TEXT NOT NULL DEFAULT '',
    format       TEXT NOT NULL DEFAULT '',
    entry_count  INTEGER NOT NULL DEFAULT 0,
    installed_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE entries (
    id        INTEGER PRIMARY KEY,
    dict_code TEXT NOT NULL REFERENCES dictionaries(code) ON DELETE CASCADE,
    lnum      TEXT NOT NULL,
    key_slp1  TEXT NOT NULL,
    key2      TEXT NOT NULL DEFAULT '',
    homonym   TEXT NOT NULL DEFAULT '',
    page      TEXT NOT NULL DEFAULT '',
    markup    TEXT NOT NULL,
    plain     TEXT NOT NULL,
    UNIQUE (dict_code, lnum)
);
CREATE TABLE headwords (
    id        INTEGER PRIMARY KEY,
    entry_id  INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
    dict_code TEXT NOT NULL,
    slp1      TEXT NOT NULL,
    loose     TEXT NOT NULL,
    is_alt    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_headwords_slp1 ON headwords(slp1, dict_code, entry_id);
CREATE INDEX idx_headwords_loose ON headwords(loose, dict_code, entry_id);
CREATE INDEX idx_headwords_entry ON headwords(entry_id);
CREATE VIRTUAL TABLE headword_grams USING fts5(
    slp1, content = 'headwords', content_rowid = 'id', tokenize = 'trigram case_sensitive 1'
);
CREATE VIRTUAL TABLE entries_fts USING fts5(
    plain, content = 'entries', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
"""
HEADWORD, ALTERNATE, STEM = 0, 1, 2  # headwords.is_alt: what kind of key a row is


def _index_cited_stems(conn: sqlite3.Connection) -> None:
    """V2: the stems of cited forms (`DarmaH` → `Darma`) become keys of the databases built before."""
    rows = conn.execute("SELECT entry_id, dict_code, slp1 FROM headwords").fetchall()
    known = {(entry_id, key) for entry_id, _, key in rows}
    added = {
        (entry_id, code, stem)
        for entry_id, code, key in rows
        for stem in cited_stems(key)
        if (entry_id, stem) not in known
    }
    first = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM headwords").fetchone()[0]
    conn.executemany(
        "INSERT INTO headwords (entry_id, dict_code, slp1, loose, is_alt) VALUES (?, ?, ?, ?, ?)",
        [(entry_id, code, stem, loose_key_from_slp1(stem), STEM) for entry_id, code, stem in sorted(added)],
    )
    conn.execute(
        "INSERT INTO headword_grams (rowid, slp1) SELECT id, slp1 FROM headwords WHERE id >= ?", (first,)
    )


SCHEMA_V3 = """
CREATE INDEX idx_headwords_slp1_length ON headwords(length(slp1), slp1);
CREATE INDEX idx_headwords_loose_length ON headwords(length(loose), loose);
CREATE INDEX idx_entries_key ON entries(dict_code, key_slp1);
CREATE VIRTUAL TABLE headword_loose_grams USING fts5(
    loose, content = 'headwords', content_rowid = 'id', tokenize = 'trigram'
);
INSERT INTO headword_loose_grams (rowid, loose) SELECT id, loose FROM headwords;
"""
SCHEMA_V4 = """
CREATE TABLE grammars (
    id      INTEGER PRIMARY KEY,
    text    TEXT NOT NULL UNIQUE,
    kind    TEXT NOT NULL
);
CREATE TABLE forms (
    form       TEXT NOT NULL,
    lemma      TEXT NOT NULL,
    grammar_id INTEGER NOT NULL REFERENCES grammars(id),
    PRIMARY KEY (form, lemma, grammar_id)
) WITHOUT ROWID;
CREATE TABLE form_lemmas (
    lemma   TEXT NOT NULL,
    kind    TEXT NOT NULL,
    genders TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (lemma, kind)
) WITHOUT ROWID;
"""
# V5: the compact form index replaces the table of every generated form (8 M rows for MW + Apte).
SCHEMA_V5 = """
DROP TABLE forms;
DROP TABLE grammars;
DROP TABLE form_lemmas;
CREATE TABLE lexicon (
    stem    TEXT NOT NULL,
    kind    INTEGER NOT NULL,
    lemma   TEXT NOT NULL DEFAULT '',
    info    INTEGER NOT NULL DEFAULT 0,
    genders TEXT NOT NULL DEFAULT '',
    weight  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (stem, kind, lemma, info)
) WITHOUT ROWID;
CREATE TABLE verb_forms (
    form    TEXT NOT NULL,
    lemma   TEXT NOT NULL,
    grammar INTEGER NOT NULL,
    PRIMARY KEY (form, lemma, grammar)
) WITHOUT ROWID;
CREATE TABLE form_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE form_blobs (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
"""


def _compress_markup(conn: sqlite3.Connection) -> None:
    """V6: articles' markup stored deflated against a dictionary of each dictionary's own text (an article
    is too short to compress alone: MW + Apte's 40 MB of markup in 18)."""
    conn.execute("CREATE TABLE markup_dicts (code TEXT PRIMARY KEY, zdict BLOB NOT NULL)")
    codes = [code for (code,) in conn.execute("SELECT code FROM dictionaries")]
    for code in codes:
        rows = conn.execute("SELECT id, markup FROM entries WHERE dict_code = ?", (code,)).fetchall()
        texts = [unpack(markup) for _, markup in rows]
        zdict = make_zdict(texts)
        conn.execute("INSERT INTO markup_dicts VALUES (?, ?)", (code, zdict))
        conn.executemany(
            "UPDATE entries SET markup = ? WHERE id = ?",
            [(pack(text, zdict), id_) for (id_, _), text in zip(rows, texts, strict=True)],
        )


ZDICT_BYTES = 32_768
ZDICT_SAMPLE = 3_000


def make_zdict(texts: list[str]) -> bytes:
    """A deflate dictionary from articles spread over `texts` (the first ZDICT_SAMPLE given)."""
    step = max(1, len(texts) // ZDICT_SAMPLE)
    return "".join(texts[::step]).encode("utf-8")[-ZDICT_BYTES:]


@lru_cache(maxsize=64)
def _deflater(zdict: bytes) -> zlib._Compress:
    # primed once: setting a 32 KB dictionary costs more than deflating a short article
    return zlib.compressobj(6, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, zdict)


@lru_cache(maxsize=64)
def _inflater(zdict: bytes) -> zlib._Decompress:
    return zlib.decompressobj(-15, zdict)


def pack(markup: str, zdict: bytes) -> bytes:
    deflate = _deflater(zdict).copy()
    return deflate.compress(markup.encode("utf-8")) + deflate.flush()


def unpack(markup: str | bytes, zdict: bytes = b"") -> str:
    if isinstance(markup, str):  # written before V6
        return markup
    return _inflater(zdict).copy().decompress(markup).decode("utf-8")


# V7: the trigram indexes need no per-row sizes (they are never ranked by BM25): 8 MB less.
SCHEMA_V7 = """
DROP TABLE headword_grams;
DROP TABLE headword_loose_grams;
CREATE VIRTUAL TABLE headword_grams USING fts5(
    slp1, content = 'headwords', content_rowid = 'id', tokenize = 'trigram case_sensitive 1', columnsize = 0
);
CREATE VIRTUAL TABLE headword_loose_grams USING fts5(
    loose, content = 'headwords', content_rowid = 'id', tokenize = 'trigram', columnsize = 0
);
INSERT INTO headword_grams (headword_grams) VALUES ('rebuild');
INSERT INTO headword_loose_grams (headword_loose_grams) VALUES ('rebuild');
"""


MIGRATIONS: list[Migration] = [
    SCHEMA_V1,
    _index_cited_stems,
    SCHEMA_V3,
    SCHEMA_V4,
    SCHEMA_V5,
    _compress_markup,
    SCHEMA_V7,
]
# lexicon kinds of the dictionaries' headwords, rebuilt from what is installed (forms.NOMINAL …)
DICTIONARY_KINDS = (0, 1, 4, 5)
VERB_KINDS = (2, 3)
LooseKey = Callable[[str], str]
KeyColumn = Literal["slp1", "loose"]
OPENING_CHARS = 400
_ARTICLE_COLUMNS = "id, dict_code, lnum, key_slp1, key2, homonym, page, markup"


def search_keys(headword: str, alternates: Iterable[str]) -> dict[str, int]:
    """Every key of an article and its kind: the headword, its alternates, the stems of both."""
    keys = {headword: HEADWORD} | {key: ALTERNATE for key in alternates if key != headword}
    stems = {stem: STEM for key in keys for stem in cited_stems(key) if stem not in keys}
    return keys | stems


@dataclass(frozen=True)
class Dictionary:
    code: str
    name: str
    short_name: str
    from_lang: str
    to_lang: str
    description: str
    year: str
    licence: str
    source: str
    format: str
    entry_count: int


@dataclass(frozen=True)
class NewEntry:
    lnum: str
    key_slp1: str
    key2: str
    homonym: str
    page: str
    markup: str
    plain: str
    alt_keys: tuple[str, ...] = ()


# -- preparing entries for writing (here, or in a second process) ----------------------------------

ImportProgress = Callable[[int, int | None], None]
EntryMaker = Callable[[ImportProgress | None], Iterable[NewEntry]]
# (lnum, key_slp1, key2, homonym, page, markup, plain), [(key, loose key, kind), …]
PreparedEntry = tuple[tuple[str, str, str, str, str, str, str], list[tuple[str, str, int]]]
# the deflate dictionary, then batches of entries
Prepared = Generator[bytes | list[PreparedEntry], None, None]
BATCH = 500
# CPU seconds of each import's second process, in this process's life (for benchmarks: a forkserver's
# children are not this process's, so its rusage does not count them)
WORKER_CPU_S: list[float] = []
WORKER_STOP_S = 5.0


def _prepared(entries: Iterable[NewEntry], loose: LooseKey) -> Prepared:
    """The markup's deflate dictionary (from the first articles), then the entries in batches, each
    with every search key, its loose key and kind. (The writer deflates the markup: that balances the
    two processes' work.)"""
    loose = lru_cache(maxsize=None)(loose)  # MW: 288,505 keys, 187,214 distinct
    entries = iter(entries)
    first = list(itertools.islice(entries, ZDICT_SAMPLE * 4))
    zdict = make_zdict([entry.markup for entry in first])
    yield zdict
    rest = itertools.chain(first, entries)
    while batch := list(itertools.islice(rest, BATCH)):
        yield [
            (
                (e.lnum, e.key_slp1, e.key2, e.homonym, e.page, e.markup, e.plain),
                [(key, loose(key), kind) for key, kind in search_keys(e.key_slp1, e.alt_keys).items()],
            )
            for e in batch
        ]


def _prepare_in_worker(maker: EntryMaker, loose: LooseKey, pipe: Connection) -> None:
    """The second process: what `_prepared` yields, sent down `pipe` (which blocks while the writer
    is behind), progress between; an error is sent as it was raised."""
    try:
        for item in _prepared(maker(lambda done, total: pipe.send(("progress", (done, total)))), loose):
            pipe.send(("batch", item))
        pipe.send(("end", time.process_time()))
    except BaseException as exc:
        try:
            pipe.send(("error", exc))
        except Exception:
            pipe.send(("error", SourceError(f"reading the dictionary failed: {exc}")))
    finally:
        pipe.close()


def _prepared_in_worker(
    maker: EntryMaker, loose: LooseKey, progress: ImportProgress | None, cpu: list[float] | None = None
) -> Prepared:
    """What `_prepared` yields, made in a second process; its CPU seconds appended to `cpu`."""
    from pramana.mcp.workers import default_start_method

    context: Any = multiprocessing.get_context(default_start_method())  # typeshed: BaseContext
    ours, theirs = context.Pipe(duplex=False)
    worker = context.Process(target=_prepare_in_worker, args=(maker, loose, theirs), daemon=True)
    worker.start()
    theirs.close()
    try:
        while True:
            try:
                kind, value = ours.recv()
            except EOFError:
                raise SourceError(
                    f"the process reading the dictionary stopped (exit code {worker.exitcode})"
                ) from None
            if kind == "batch":
                yield value
            elif kind == "progress":
                if progress:
                    progress(*value)
            elif kind == "error":
                raise value
            else:
                if cpu is not None:
                    cpu.append(value)
                return
    finally:
        ours.close()  # a worker still sending (the writer failed) gets a broken pipe and ends
        worker.join(WORKER_STOP_S)
        if worker.is_alive():
            worker.kill()
            worker.join()


@dataclass(frozen=True)
class Hit:
    entry_id: int
    dict_code: str
    lnum: str
    key_slp1: str  # the article's headword
    matched_key: str  # the key that matched (an alternate spelling, or the headword)
    homonym: str
    snippet: str = ""
    senses: int = 1  # articles of this headword in this dictionary that matched
    opening: str = ""  # the start of the first article's plain text, for a gloss


@dataclass(frozen=True)
class Article:
    entry_id: int
    dict_code: str
    lnum: str
    key_slp1: str
    key2: str
    homonym: str
    page: str
    markup: str


class SanskritStore(SQLiteStore):
    migrations = MIGRATIONS
    _zdicts: dict[str, bytes] | None = None

    def outdated(self) -> bool:
        """An existing file of an older schema, opened read-only (so not migrated)."""
        version = schema_version(self._conn)
        return 0 < version < len(self.migrations)

    # -- writing -------------------------------------------------------------------------------

    def replace_dictionary(
        self, dictionary: Dictionary, entries: Iterable[NewEntry] | EntryMaker, loose: LooseKey,
        progress: ImportProgress | None = None,
    ) -> int:  # fmt: skip
        """Install `dictionary` in one transaction: on any failure the previous state stays.

        `entries` given as an `EntryMaker` (a picklable function making them) are read, rendered
        and keyed in a second process while this one writes what it has sent so far."""
        if callable(entries) and multiprocessing.current_process().daemon:
            entries = entries(progress)  # a daemonic process (a tool's worker) may have no children
        if callable(entries):
            batches = _prepared_in_worker(entries, loose, progress, WORKER_CPU_S)
        else:
            batches = _prepared(entries, loose)
        with contextlib.closing(batches):  # a failed write stops the second process at once
            return self._write_dictionary(dictionary, batches)

    def _write_dictionary(
        self, dictionary: Dictionary, batches: Iterator[bytes | list[PreparedEntry]]
    ) -> int:
        zdict = next(batches)
        assert isinstance(zdict, bytes)
        count = 0
        with write_transaction(self._conn) as conn:
            self._delete(conn, dictionary.code)
            conn.execute("INSERT INTO markup_dicts VALUES (?, ?)", (dictionary.code, zdict))
            conn.execute(
                "INSERT INTO dictionaries (code, name, short_name, from_lang, to_lang, description, year,"
                " licence, source, format) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    dictionary.code, dictionary.name, dictionary.short_name, dictionary.from_lang,
                    dictionary.to_lang, dictionary.description, dictionary.year, dictionary.licence,
                    dictionary.source, dictionary.format,
                ),
            )  # fmt: skip
            # the ids SQLite would give one row at a time (the largest plus one), given in bulk
            next_id = conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM entries").fetchone()[0]
            for batch in batches:
                assert isinstance(batch, list)
                ids = range(next_id, next_id + len(batch))
                conn.executemany(
                    "INSERT INTO entries (id, dict_code, lnum, key_slp1, key2, homonym, page, markup, plain)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (id_, dictionary.code, *row[:5], pack(row[5], zdict), row[6])
                        for id_, (row, _) in zip(ids, batch, strict=True)
                    ],
                )
                conn.executemany(
                    "INSERT INTO headwords (entry_id, dict_code, slp1, loose, is_alt) VALUES (?, ?, ?, ?, ?)",
                    [
                        (id_, dictionary.code, *key)
                        for id_, (_, keys) in zip(ids, batch, strict=True)
                        for key in keys
                    ],
                )
                conn.executemany(
                    "INSERT INTO entries_fts (rowid, plain) VALUES (?, ?)",
                    [(id_, row[-1]) for id_, (row, _) in zip(ids, batch, strict=True)],
                )
                next_id += len(batch)
                count += len(batch)
            conn.execute(
                "INSERT INTO headword_grams (rowid, slp1) SELECT id, slp1 FROM headwords WHERE dict_code = ?",
                (dictionary.code,),
            )
            conn.execute(
                "INSERT INTO headword_loose_grams (rowid, loose)"
                " SELECT id, loose FROM headwords WHERE dict_code = ?",
                (dictionary.code,),
            )
            conn.execute("UPDATE dictionaries SET entry_count = ? WHERE code = ?", (count, dictionary.code))
        self.settle()
        return count

    def settle(self) -> None:
        """After a bulk write: fold the WAL into the database and refresh the planner's statistics,
        so that the first readers do not wade through a write-ahead log of hundreds of MB."""
        self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._conn.execute("PRAGMA optimize")

    def compact(self) -> bool:
        """Give back the pages a migration freed (the old form index: 300 MB) when they are most of the
        file; True if it did."""
        free, total = (
            self._conn.execute(f"PRAGMA {name}").fetchone()[0] for name in ("freelist_count", "page_count")
        )
        if not total or free < total // 3:
            return False
        self._conn.execute("VACUUM")
        self.settle()
        return True

    def remove_dictionary(self, code: str) -> None:
        with write_transaction(self._conn) as conn:
            self._delete(conn, code)

    def _delete(self, conn: sqlite3.Connection, code: str) -> None:
        # External-content FTS5 tables are told what they indexed before the rows go.
        conn.execute(
            "INSERT INTO headword_grams (headword_grams, rowid, slp1)"
            " SELECT 'delete', id, slp1 FROM headwords WHERE dict_code = ?",
            (code,),
        )
        conn.execute(
            "INSERT INTO headword_loose_grams (headword_loose_grams, rowid, loose)"
            " SELECT 'delete', id, loose FROM headwords WHERE dict_code = ?",
            (code,),
        )
        conn.execute(
            "INSERT INTO entries_fts (entries_fts, rowid, plain)"
            " SELECT 'delete', id, plain FROM entries WHERE dict_code = ?",
            (code,),
        )
        conn.execute("DELETE FROM headwords WHERE dict_code = ?", (code,))
        conn.execute("DELETE FROM entries WHERE dict_code = ?", (code,))
        conn.execute("DELETE FROM dictionaries WHERE code = ?", (code,))
        conn.execute("DELETE FROM markup_dicts WHERE code = ?", (code,))
        self._zdicts = None

    def form_state(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM form_state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def replace_verbs(
        self, batches: Iterable[tuple[list[tuple[str, str, int]], list[LexiconRow]]], state: str
    ) -> int:
        """Replace the verb forms and verbal stems, in one transaction (a failure keeps the old ones)."""
        count = 0
        kinds = ",".join(map(str, VERB_KINDS))
        with write_transaction(self._conn) as conn:
            conn.execute("DELETE FROM verb_forms")
            conn.execute(f"DELETE FROM lexicon WHERE kind IN ({kinds})")
            for forms, stems in batches:
                cursor = conn.executemany("INSERT OR IGNORE INTO verb_forms VALUES (?, ?, ?)", forms)
                count += cursor.rowcount
                self._insert_lexicon(conn, stems)
            conn.execute("INSERT OR REPLACE INTO form_state VALUES ('verbs', ?)", (state,))
        return count

    def replace_lexicon(self, rows: list[LexiconRow], state: str) -> None:
        kinds = ",".join(map(str, DICTIONARY_KINDS))
        with write_transaction(self._conn) as conn:
            conn.execute(f"DELETE FROM lexicon WHERE kind IN ({kinds})")
            self._insert_lexicon(conn, rows)
            conn.execute("INSERT OR REPLACE INTO form_state VALUES ('lexicon', ?)", (state,))
        self.settle()

    @staticmethod
    def _insert_lexicon(conn: sqlite3.Connection, rows: Iterable[LexiconRow]) -> None:
        conn.executemany(
            "INSERT OR IGNORE INTO lexicon (stem, kind, lemma, info, genders, weight)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(r.stem, r.kind, r.lemma, r.info, r.genders, r.weight) for r in rows],
        )

    def stamp(self) -> tuple[int, ...]:
        """Changes when the file's content may have (a write by any process, a file replaced): the file's
        and its write-ahead log's inode, size and modification time (0s for a missing or empty file: a
        log is made empty or removed only once what it held is in the file, whose own stamp then moves)."""
        found: list[int] = []
        for path in (self.path, self.path.with_name(self.path.name + "-wal")):
            try:
                stat = path.stat()
            except OSError:
                found += [0, 0, 0]
            else:
                found += [stat.st_ino, stat.st_size, stat.st_mtime_ns] if stat.st_size else [0, 0, 0]
        return tuple(found)

    def has_forms(self) -> bool:
        return self._conn.execute("SELECT 1 FROM lexicon LIMIT 1").fetchone() is not None

    def form_counts(self) -> dict[str, int]:
        kinds = ",".join(map(str, VERB_KINDS))
        return {
            "verb_forms": int(self._conn.execute("SELECT count(*) FROM verb_forms").fetchone()[0]),
            "lexicon": int(self._conn.execute("SELECT count(*) FROM lexicon").fetchone()[0]),
            "verbal": int(
                self._conn.execute(f"SELECT count(*) FROM lexicon WHERE kind IN ({kinds})").fetchone()[0]
            ),
        }

    def form_index_bytes(self) -> int:
        """Bytes the form index's tables take (0 when this SQLite has no dbstat)."""
        try:
            row = self._conn.execute(
                "SELECT sum(pgsize) FROM dbstat"
                " WHERE name IN ('lexicon', 'verb_forms', 'form_state', 'form_blobs')"
            ).fetchone()
        except sqlite3.OperationalError:
            return 0
        return int(row[0] or 0)

    def lexicon(self, stems: Iterable[str], batch: int = 900) -> list[LexiconRow]:
        keys = list(dict.fromkeys(stems))
        found: list[LexiconRow] = []
        for start in range(0, len(keys), batch):
            chunk = keys[start : start + batch]
            rows = self._conn.execute(
                "SELECT stem, kind, lemma, info, genders, weight FROM lexicon"
                f" WHERE stem IN ({','.join('?' * len(chunk))})",
                chunk,
            )
            found += [LexiconRow(*row) for row in rows]
        return found

    def form_blobs(self) -> dict[str, bytes]:
        return dict(self._conn.execute("SELECT key, value FROM form_blobs").fetchall())

    def replace_form_blobs(self, blobs: dict[str, bytes]) -> None:
        with write_transaction(self._conn) as conn:
            conn.execute("DELETE FROM form_blobs")
            conn.executemany("INSERT INTO form_blobs VALUES (?, ?)", list(blobs.items()))

    # The rows below are given as the tuples their types say, not sqlite3.Row: the analysis may run
    # compiled (mypyc, `hatch_build.py`), which checks a tuple is a tuple.
    def lexicon_keys(self) -> Iterator[tuple[str, int, str, int]]:
        yield from map(tuple, self._conn.execute("SELECT stem, kind, genders, weight FROM lexicon"))

    def lexicon_weights(self) -> Iterator[tuple[str, int]]:
        yield from map(tuple, self._conn.execute("SELECT stem, max(weight) FROM lexicon GROUP BY stem"))

    def verb_form_keys(self) -> Iterator[str]:
        for (form,) in self._conn.execute("SELECT DISTINCT form FROM verb_forms"):
            yield form

    def verb_lemmas(self) -> dict[str, str]:
        """verb lemma (gam, coray, gamay) → its root (gam, cur, gam)."""
        return dict(self._conn.execute("SELECT stem, lemma FROM lexicon WHERE kind = 3").fetchall())

    def verb_forms(self, forms: Iterable[str], batch: int = 900) -> list[tuple[str, str, int]]:
        keys = list(dict.fromkeys(forms))
        found: list[tuple[str, str, int]] = []
        for start in range(0, len(keys), batch):
            chunk = keys[start : start + batch]
            rows = self._conn.execute(
                f"SELECT form, lemma, grammar FROM verb_forms WHERE form IN ({','.join('?' * len(chunk))})",
                chunk,
            )
            found += map(tuple, rows)
        return found

    def headword_openings(self) -> Iterator[tuple[str, str]]:
        """(headword, start of the article) for every article of every dictionary: a headword's first
        article may be a cross-reference or a root, its grammar in the next (MW `sukha`, `tvac`)."""
        yield from self._conn.execute("SELECT key_slp1, substr(plain, 1, ?) FROM entries", (OPENING_CHARS,))

    def headwords(self) -> set[str]:
        """Every headword (SLP1) of the installed dictionaries."""
        return {key for (key,) in self._conn.execute("SELECT DISTINCT key_slp1 FROM entries")}

    # -- reading -------------------------------------------------------------------------------

    def dictionaries(self) -> list[Dictionary]:
        rows = self._conn.execute(
            "SELECT code, name, short_name, from_lang, to_lang, description, year, licence, source, format,"
            " entry_count FROM dictionaries ORDER BY code"
        )
        return [Dictionary(*row) for row in rows]

    def exact(self, keys: list[str], codes: list[str] | None, limit: int) -> list[Hit]:
        if not keys:
            return []
        where = f"h.slp1 IN ({','.join('?' * len(keys))})"
        return self._headwords(where, keys, "e.dict_code, min(e.id)", codes, limit)

    def first_articles(
        self, keys: list[str], codes: list[str] | None, limit: int
    ) -> list[tuple[str, str, str]]:
        """(key, dictionary, lnum) of each headword of `keys`' first article per dictionary, as `exact`
        orders its hits: only what names an article (the analyzer's answers name them), at half the
        cost of reading the articles' openings and counts."""
        if not keys:
            return []
        scope, scope_params = self._scope(codes)
        rows = self._conn.execute(
            "SELECT h.slp1, e.dict_code, e.lnum, min(e.id) FROM headwords h"
            f" JOIN entries e ON e.id = h.entry_id WHERE h.slp1 IN ({','.join('?' * len(keys))}){scope}"
            " GROUP BY e.dict_code, e.key_slp1 ORDER BY e.dict_code, min(e.id) LIMIT ?",
            (*keys, *scope_params, limit),
        )
        return [(key, dict_code, lnum) for key, dict_code, lnum, _ in rows]

    def article_groups(
        self, keys: list[str], codes: list[str] | None
    ) -> list[tuple[str, str, str, str, int]]:
        """`first_articles`' groups for each key on its own, unlimited: (key, dictionary, headword,
        lnum, first entry id) — what a caller that remembers keys merges into `first_articles`' answer."""
        if not keys:
            return []
        scope, scope_params = self._scope(codes)
        rows = self._conn.execute(
            "SELECT h.slp1, e.dict_code, e.key_slp1, e.lnum, min(e.id) FROM headwords h"
            f" JOIN entries e ON e.id = h.entry_id WHERE h.slp1 IN ({','.join('?' * len(keys))}){scope}"
            " GROUP BY h.slp1, e.dict_code, e.key_slp1",
            (*keys, *scope_params),
        )
        return rows.fetchall()

    def loose(self, key: str, codes: list[str] | None, limit: int) -> list[Hit]:
        return self._headwords("h.loose = ?", [key], "e.dict_code, min(e.id)", codes, limit)

    def prefix(self, key: str, codes: list[str] | None, limit: int, column: KeyColumn = "slp1") -> list[Hit]:
        """Headwords whose key starts with `key`, shortest first (the key itself, then its derivatives).

        One range read of the (length, key) index per length, so a one-letter prefix over 300,000
        keys costs as little as a long one: no scan, no sort of every match.
        """
        found: dict[tuple[str, str], Hit] = {}
        where = f"length(h.{column}) = ? AND h.{column} >= ? AND h.{column} < ?"
        for length in range(len(key), self._longest(column) + 1):
            params = [length, key, key + "\U0010ffff"]
            for hit in self._headwords(where, params, f"h.{column}, e.dict_code", codes, limit):
                found.setdefault((hit.dict_code, hit.key_slp1), hit)
            if len(found) >= limit:
                break
        return list(found.values())[:limit]

    def substring(
        self, key: str, codes: list[str] | None, limit: int, column: KeyColumn = "slp1"
    ) -> list[Hit]:
        grams = "headword_grams" if column == "slp1" else "headword_loose_grams"
        if len(key) >= 3:  # a quoted string of 3+ characters is a substring match for the trigram index
            where, params = f"h.id IN (SELECT rowid FROM {grams} WHERE {grams} MATCH ?)", [quote(key)]
        else:  # trigrams need three characters; two-letter substrings are rare and cheap enough
            where, params = f"instr(h.{column}, ?) > 0", [key]
        order = f"length(h.{column}), h.{column}, e.dict_code"
        return self._headwords(where, params, order, codes, limit)

    def fulltext(self, terms: list[str], codes: list[str] | None, limit: int) -> list[Hit]:
        sql, params = self._scope(codes, column="e.dict_code")
        fts_query = " AND ".join(quote(term) for term in terms)
        rows = self._conn.execute(
            "SELECT e.id, e.dict_code, e.lnum, e.key_slp1, e.key_slp1, e.homonym,"
            " snippet(entries_fts, 0, '**', '**', '…', 16), 1, substr(e.plain, 1, ?) FROM entries_fts"
            " JOIN entries e ON e.id = entries_fts.rowid WHERE entries_fts MATCH ?" + sql +
            " ORDER BY bm25(entries_fts) LIMIT ?",
            (OPENING_CHARS, fts_query, *params, limit),
        )  # fmt: skip
        return [Hit(*row) for row in rows]

    def article(self, dict_code: str, lnum: str) -> Article | None:
        row = self._conn.execute(
            f"SELECT {_ARTICLE_COLUMNS} FROM entries WHERE dict_code = ? AND lnum = ?", (dict_code, lnum)
        ).fetchone()
        return self._article(row) if row else None

    def senses(self, dict_code: str, key_slp1: str, limit: int) -> list[Article]:
        """Every article of a headword in one dictionary, in the dictionary's order."""
        rows = self._conn.execute(
            f"SELECT {_ARTICLE_COLUMNS} FROM entries WHERE dict_code = ? AND key_slp1 = ?"
            " ORDER BY id LIMIT ?",
            (dict_code, key_slp1, limit),
        )
        return [self._article(row) for row in rows]

    def _article(self, row: tuple) -> Article:
        if self._zdicts is None:
            self._zdicts = dict(self._conn.execute("SELECT code, zdict FROM markup_dicts").fetchall())
        entry_id, dict_code, lnum, key_slp1, key2, homonym, page, packed = row  # _ARTICLE_COLUMNS
        markup = unpack(packed, self._zdicts.get(dict_code, b""))
        return Article(entry_id, dict_code, lnum, key_slp1, key2, homonym, page, markup)

    def _longest(self, column: KeyColumn) -> int:
        # max() of the indexed expression is one step down the index.
        return int(
            self._conn.execute(f"SELECT coalesce(max(length({column})), 0) FROM headwords").fetchone()[0]
        )

    def _headwords(
        self, where: str, params: Sequence[object], order: str, codes: list[str] | None, limit: int
    ) -> list[Hit]:
        """Matching keys, one hit per headword per dictionary (its first article, and how many match)."""
        scope, scope_params = self._scope(codes)
        # With a single min() aggregate, SQLite takes the other columns from the row holding the minimum.
        rows = self._conn.execute(
            "SELECT min(e.id), e.dict_code, e.lnum, e.key_slp1, h.slp1, e.homonym, '',"
            " count(DISTINCT e.id), substr(e.plain, 1, ?) FROM headwords h"
            f" JOIN entries e ON e.id = h.entry_id WHERE {where}{scope}"
            f" GROUP BY e.dict_code, e.key_slp1 ORDER BY {order} LIMIT ?",
            (OPENING_CHARS, *params, *scope_params, limit),
        )
        return [Hit(*row) for row in rows]

    @staticmethod
    def _scope(codes: list[str] | None, column: str = "h.dict_code") -> tuple[str, list[str]]:
        if not codes:
            return "", []
        return f" AND {column} IN ({','.join('?' * len(codes))})", list(codes)
