"""Queries on a dpd.db (DPD's release or `pramana pali build`), through the SQLAlchemy models."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, event, func, inspect, select, text
from sqlalchemy.engine import Engine

from pramana.errors import NotReadyError
from pramana.install import command
from pramana.pali.models import DpdHeadword, DpdRoot, Lookup
from pramana.pali.sandhi import SandhiRule, SandhiRules
from pramana.pali.source import DPD_TABLES, MEANINGS_FTS, SANDHI_RULES, sqlite_engine
from pramana.store.fts import quote

HOW_TO_GET = f"run `{command('pali build --from DIR')}` (DPD's TSV backups) or `{command('pali download')}`"
LOOKUP_COLUMNS = ("lookup_key", "headwords", "roots", "deconstructor", "variant", "spelling", "grammar",
                  "help", "abbrev")  # fmt: skip
HEADWORD_BRIEF = ("id", "lemma_1", "pos", "grammar", "meaning_1", "meaning_2", "meaning_lit", "family_root",
                  "root_key", "construction")  # fmt: skip
HEADWORD_FULL = (*HEADWORD_BRIEF, "lemma_2", "derived_from", "neg", "verb", "trans", "plus_case", "sanskrit",
                 "root_base", "compound_type", "compound_construction", "stem", "pattern", "source_1",
                 "sutta_1", "example_1", "source_2", "sutta_2", "example_2", "antonym", "synonym",
                 "variant", "notes", "cognate")  # fmt: skip
ROOT_FIELDS = ("root", "root_group", "root_sign", "root_meaning", "root_has_verb", "sanskrit_root",
               "sanskrit_root_meaning", "sanskrit_root_class", "root_example", "dhatupatha_pali",
               "dhatupatha_english", "dhatumanjusa_pali", "dhatumanjusa_english")  # fmt: skip
_BATCH = 500  # SQLite's limit on bound parameters is far above this; batches keep statements small


class PaliStore:
    """A read-only dpd.db. Safe to share between the server's worker threads (a pooled engine)."""

    def __init__(self, path: Path):
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
                rows = conn.execute(
                    text(f"SELECT left_end, right_start, left_was, right_was FROM {SANDHI_RULES}")
                )
                self.sandhi_rules = SandhiRules(SandhiRule(*row) for row in rows)
        self._headword_columns = {c["name"] for c in inspector.get_columns("dpd_headwords")}

    def close(self) -> None:
        self.engine.dispose()

    def headword_count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(DpdHeadword)).scalar_one())

    def lookups(self, keys: Iterable[str]) -> dict[str, dict[str, str]]:
        wanted = sorted(set(keys))
        found: dict[str, dict[str, str]] = {}
        columns = [getattr(Lookup, name) for name in LOOKUP_COLUMNS]
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), _BATCH):
                batch = wanted[start : start + _BATCH]
                for row in conn.execute(select(*columns).where(Lookup.lookup_key.in_(batch))):
                    found[row.lookup_key] = dict(row._mapping)
        return found

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

    def headwords(self, ids: Iterable[int], *, full: bool = False) -> dict[int, dict[str, Any]]:
        wanted = sorted(set(ids))
        names = [n for n in (HEADWORD_FULL if full else HEADWORD_BRIEF) if n in self._headword_columns]
        columns = [getattr(DpdHeadword, name) for name in names]
        found: dict[int, dict[str, Any]] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), _BATCH):
                batch = wanted[start : start + _BATCH]
                for row in conn.execute(select(*columns).where(DpdHeadword.id.in_(batch))):
                    found[row.id] = dict(row._mapping)
        return found

    def roots(self, roots: Iterable[str]) -> dict[str, dict[str, Any]]:
        wanted = sorted({r for r in roots if r})
        if not wanted or not self.has_roots:
            return {}
        columns = [getattr(DpdRoot, name) for name in ROOT_FIELDS]
        with self.engine.connect() as conn:
            rows = conn.execute(select(*columns).where(DpdRoot.root.in_(wanted)))
            return {row.root: dict(row._mapping) for row in rows}

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
