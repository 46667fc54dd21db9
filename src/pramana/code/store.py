"""The code index in one SQLite file, as each stage uses it: the index writes it (index/store.py),
search reads it (search/store.py), the symbol tools query it (symbols/store.py); the tables and
their records are index/tables.py and records.py."""

from __future__ import annotations

from pramana.code.index.store import IndexWrites
from pramana.code.search.store import SearchReads
from pramana.code.symbols.store import SymbolQueries


class CodeStore(IndexWrites, SearchReads, SymbolQueries):
    """One repository's index: every stage's queries over one file, one connection per thread."""
