"""Queries on a dpd.db (DPD's release or `pramana pali build`): typed records out, answers remembered."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from sqlalchemy import bindparam, event, func, inspect, select, text
from sqlalchemy.engine import Engine

from pramana import work
from pramana.errors import NotReadyError
from pramana.install import command
from pramana.pali import models
from pramana.pali.sandhi import SandhiRule, SandhiRules
from pramana.pali.source import (
    DPD_TABLES,
    HEADWORD_FREQUENCY,
    MEANINGS_FTS,
    SANDHI_RULES,
    SPLIT_EXCEPTIONS,
    sqlite_engine,
)
from pramana.pali.tables import DpdHeadword, DpdRoot, lemma_clean, unpack
from pramana.store.fts import quote

HOW_TO_GET = f"run `{command('pali build --from DIR')}` (DPD's TSV backups) or `{command('pali download')}`"
LOOKUP_COLUMNS = ("lookup_key", "headwords", "roots", "deconstructor", "variant", "spelling", "grammar",
                  "help", "abbrev")  # fmt: skip
_BRIEF_COLUMNS = ("id", "lemma_1", "pos", "grammar", "meaning_1", "meaning_2", "meaning_lit", "family_root",
                  "root_key", "construction", "stem")  # fmt: skip


@dataclass(frozen=True)
class LookupRecord:
    """One row of DPD's `lookup` table, its JSON columns read."""

    key: str
    headwords: tuple[int, ...] = ()
    roots: tuple[str, ...] = ()
    deconstructor: tuple[str, ...] = ()  # DPD's splits, "a + b"
    variant_of: tuple[str, ...] = ()  # main readings when the key is a variant
    spelling: tuple[str, ...] = ()  # corrections when the key is a misspelling
    grammar: tuple[tuple[str, str, str], ...] = ()  # (lemma_clean, pos, "masc nom sg")
    help: str = ""
    abbreviation: dict[str, str] | None = None


@dataclass(frozen=True)
class HeadwordRecord:
    """A `dpd_headwords` row: the brief columns always; asked for in full, `details` holds the
    columns a word's entry shows (DETAIL_COLUMNS, as text, "" where absent)."""

    id: int
    lemma_1: str
    pos: str
    grammar: str = ""
    meaning_1: str = ""
    meaning_2: str = ""
    meaning_lit: str = ""
    family_root: str = ""
    root_key: str = ""
    construction: str = ""
    stem: str = ""
    frequency: float = 0.0  # log(1 + how often it is met), see source.add_headword_frequency
    details: Mapping[str, str] = field(default_factory=dict)


# The columns of a word's full entry: models.HeadwordDetail's own fields, named once there.
DETAIL_COLUMNS = tuple(
    name for name in models.HeadwordDetail.model_fields if name not in models.Candidate.model_fields
    and name != "root"
)  # fmt: skip
_FULL_COLUMNS = _BRIEF_COLUMNS + tuple(name for name in DETAIL_COLUMNS if name not in _BRIEF_COLUMNS)


# A root's columns: models.RootInfo's fields, named once there (what the store hands the service).
ROOT_FIELDS = tuple(models.RootInfo.model_fields)
_BATCH = 500  # SQLite's limit on bound parameters is far above this; batches keep statements small
# What the store remembers of a read-only database (answers, misses included): a sentence's words and
# the forms its splits try come back in the next sentence (ca, ti, evaṃ, and the forms of one sutta).
MEMO_ENTRIES = 10_000  # a record is ~1 kB

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    """A bounded map shared by the server's worker threads; the least recently used go first when full."""

    def __init__(self, size: int = MEMO_ENTRIES):
        self.size = size
        self._entries: dict[K, V] = {}
        self._lock = threading.Lock()

    def known(self, keys: Iterable[K]) -> tuple[dict[K, V], list[K]]:
        """The remembered answers among `keys`, and the keys to look up."""
        found: dict[K, V] = {}
        missing: list[K] = []
        with self._lock:
            for key in keys:
                if key in self._entries:
                    found[key] = self._entries[key] = self._entries.pop(key)  # now the most recent
                else:
                    missing.append(key)
        return found, missing

    def remember(self, answers: dict[K, V]) -> None:
        with self._lock:
            self._entries.update(answers)
            while len(self._entries) > self.size:
                del self._entries[next(iter(self._entries))]
        work.cached(len(answers))


class PaliStore:
    """A read-only dpd.db. Safe to share between the server's worker threads (a pooled engine)."""

    def __init__(self, path: Path, word_weights: Mapping[tuple[str, str], float] | None = None):
        """`word_weights`: an amount added to the frequency of every headword of a word (lemma, part of
        speech), such as w·log(1 + its count in a corpus): benchmarks/pali_corpus_counts.py."""
        if not path.is_file():
            raise NotReadyError(f"no DPD database at {path}; {HOW_TO_GET}, or set DPD_DB_PATH")
        self.path = path
        # mode=ro: the server never writes; a bad query cannot damage the dictionary.
        self.engine: Engine = sqlite_engine(path, read_only=True)
        event.listen(self.engine, "connect", _read_only_pragmas)
        inspector = inspect(self.engine)
        tables = set(inspector.get_table_names())
        missing = DPD_TABLES - tables
        if missing:
            raise NotReadyError(
                f"{path} is not a DPD database (no {', '.join(sorted(missing))}); {HOW_TO_GET}"
            )
        self.has_roots = "dpd_roots" in tables
        self.has_meaning_index = MEANINGS_FTS in tables
        self.sandhi_rules = SandhiRules()
        if SANDHI_RULES in tables:
            with self.engine.connect() as conn:
                columns = {c["name"] for c in inspector.get_columns(SANDHI_RULES)}
                weight = "weight" if "weight" in columns else "3"
                rows = conn.execute(
                    text(f"SELECT left_end, right_start, left_was, right_was, {weight} FROM {SANDHI_RULES}")
                )
                self.sandhi_rules = SandhiRules(SandhiRule(*row) for row in rows)
        self._headword_columns = {c["name"] for c in inspector.get_columns("dpd_headwords")}
        self._lookups: Memo[str, LookupRecord | None] = Memo()
        self._listed: Memo[str, bool] = Memo(5 * MEMO_ENTRIES)  # forms splits try: ~100 bytes each
        self._headwords: Memo[int, HeadwordRecord] = Memo()
        with self.engine.connect() as conn:
            self.split_exceptions = (
                frozenset(row[0] for row in conn.execute(text(f"SELECT word FROM {SPLIT_EXCEPTIONS}")))
                if SPLIT_EXCEPTIONS in tables
                else frozenset()
            )
            self.frequency: dict[int, float] = (
                dict(conn.execute(text(f"SELECT id, frequency FROM {HEADWORD_FREQUENCY}")).all())
                if HEADWORD_FREQUENCY in tables
                else {}
            )
            if word_weights:
                for hid, lemma, pos in conn.exec_driver_sql("SELECT id, lemma_1, pos FROM dpd_headwords"):
                    added = word_weights.get((lemma_clean(lemma), pos), 0.0)
                    if added:
                        self.frequency[hid] = self.frequency.get(hid, 0.0) + added

    def close(self) -> None:
        self.engine.dispose()

    def headword_count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(DpdHeadword)).scalar_one())

    def lookups(self, keys: Iterable[str]) -> dict[str, LookupRecord]:
        remembered, wanted = self._lookups.known(set(keys))
        found: dict[str, LookupRecord | None] = dict.fromkeys(wanted)
        sql = f"SELECT {', '.join(LOOKUP_COLUMNS)} FROM lookup WHERE lookup_key IN"
        for row in self._rows_in(sql, wanted):
            found[row.lookup_key] = _lookup_record(row._mapping)
        self._lookups.remember(found)
        return {key: row for key, row in (remembered | found).items() if row is not None}

    def listed(self, forms: Iterable[str]) -> set[str]:
        """The forms that are lookup keys with headwords (one indexed query a batch, nothing read out)."""
        remembered, wanted = self._listed.known(set(forms))
        sql = "SELECT lookup_key FROM lookup WHERE headwords NOT IN ('', '[]') AND lookup_key IN"
        listed = {row[0] for row in self._rows_in(sql, wanted)}
        self._listed.remember({form: form in listed for form in wanted})
        return listed | {form for form, ok in remembered.items() if ok}

    def _rows_in(self, sql: str, values: list[Any]) -> Iterator[Any]:
        """Rows of `sql` + " (?, ?, …)" for `values`, a batch a query (plain SQL: these run for every
        word of every sentence, and building a statement costs more than running it)."""
        with self.engine.connect() as conn:
            for start in range(0, len(values), _BATCH):
                batch = values[start : start + _BATCH]
                yield from conn.exec_driver_sql(f"{sql} ({', '.join('?' * len(batch))})", tuple(batch))

    def known_forms(self, forms: Iterable[str]) -> set[str]:
        """The forms that name at least one headword in this database (lean: no row is read out)."""
        wanted = sorted(set(forms))
        known: set[str] = set()
        query = text(
            "SELECT lookup_key FROM lookup WHERE lookup_key IN :keys AND EXISTS (SELECT 1 FROM"
            " json_each(CASE WHEN json_valid(headwords) THEN headwords ELSE '[]' END) AS listed"
            " JOIN dpd_headwords ON dpd_headwords.id = listed.value)"
        ).bindparams(bindparam("keys", expanding=True))
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), _BATCH):
                known.update(row[0] for row in conn.execute(query, {"keys": wanted[start : start + _BATCH]}))
        return known

    def headwords(self, ids: Iterable[int], *, full: bool = False) -> dict[int, HeadwordRecord]:
        """Headwords by id: the brief columns (remembered), or every column when `full`."""
        remembered, wanted = ({}, sorted(set(ids))) if full else self._headwords.known(set(ids))
        names = [n for n in (_FULL_COLUMNS if full else _BRIEF_COLUMNS) if n in self._headword_columns]
        found: dict[int, HeadwordRecord] = {}
        for row in self._rows_in(f"SELECT {', '.join(names)} FROM dpd_headwords WHERE id IN", wanted):
            values: dict[str, Any] = {k: ("" if v is None else v) for k, v in row._mapping.items()}
            brief = {name: values[name] for name in _BRIEF_COLUMNS if name in values}
            details = {name: str(values.get(name, "")) for name in DETAIL_COLUMNS} if full else {}
            found[row.id] = HeadwordRecord(
                **brief, frequency=self.frequency.get(row.id, 0.0), details=details
            )
        if not full:
            self._headwords.remember(found)
        return remembered | found

    def roots(self, roots: Iterable[str]) -> dict[str, models.RootInfo]:
        wanted = sorted({r for r in roots if r})
        if not wanted or not self.has_roots:
            return {}
        columns = [getattr(DpdRoot, name) for name in ROOT_FIELDS]
        with self.engine.connect() as conn:
            rows = conn.execute(select(*columns).where(DpdRoot.root.in_(wanted)))
            return {row.root: models.RootInfo(**_strings_but_group(row._mapping)) for row in rows}

    def search_meanings(self, terms: list[str], limit: int) -> tuple[list[int], bool]:
        """Headword ids whose meanings hold every term, best first; and whether there were more."""
        with self.engine.connect() as conn:
            if self.has_meaning_index:
                rows = conn.execute(
                    text(
                        f"SELECT rowid FROM {MEANINGS_FTS} WHERE {MEANINGS_FTS} MATCH :query"
                        f" ORDER BY bm25({MEANINGS_FTS}, 4.0, 1.0, 1.0), rowid LIMIT :limit"
                    ),
                    {"query": " AND ".join(quote(term) for term in terms), "limit": limit + 1},
                )
            else:  # a dpd.db brought from elsewhere, without pramana's index: a slower scan
                condition = " AND ".join(
                    f"(meaning_1 || ' ' || meaning_2) LIKE :t{i}" for i in range(len(terms))
                )
                rows = conn.execute(
                    text(
                        f"SELECT id FROM dpd_headwords WHERE {condition} ORDER BY length(meaning_1), id"
                        " LIMIT :limit"
                    ),
                    {**{f"t{i}": f"%{term}%" for i, term in enumerate(terms)}, "limit": limit + 1},
                )
            ids = [row[0] for row in rows]
        return ids[:limit], len(ids) > limit


def _read_only_pragmas(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    dbapi_connection.execute("PRAGMA query_only = ON")


def _lookup_record(row: Any) -> LookupRecord:
    grammar = tuple(
        (str(e[0]), str(e[1]), str(e[2]))
        for e in unpack(row["grammar"])
        if isinstance(e, list) and len(e) >= 3
    )
    abbreviation = json.loads(row["abbrev"]) if row["abbrev"] else None
    help_text = json.loads(row["help"]) if row["help"] else ""
    return LookupRecord(
        key=row["lookup_key"],
        headwords=tuple(int(i) for i in unpack(row["headwords"])),
        roots=tuple(str(r) for r in unpack(row["roots"])),
        deconstructor=tuple(str(d) for d in unpack(row["deconstructor"])),
        variant_of=_variant_mains(row["variant"]),
        spelling=tuple(str(s) for s in unpack(row["spelling"])),
        grammar=grammar,
        help=str(help_text) if help_text else "",
        abbreviation={k: str(v) for k, v in abbreviation.items()} if isinstance(abbreviation, dict) else None,
    )


def _variant_mains(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    loaded = json.loads(value)
    if isinstance(loaded, dict):  # DPD's releases: {"main reading": [...sources]} and similar shapes
        return tuple(str(k) for k in loaded)
    return tuple(str(v) for v in (loaded if isinstance(loaded, list) else [loaded]))


def _strings_but_group(row: Any) -> dict[str, Any]:
    return {k: (int(v or 0) if k == "root_group" else ("" if v is None else str(v))) for k, v in row.items()}
