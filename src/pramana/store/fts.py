"""Building FTS5 queries from untrusted text.

User text never reaches FTS5's query parser as syntax: every word becomes a quoted
string, so `"`, `-`, `OR`, `NEAR`, `*`, `:` and parentheses are searched as text
instead of raising a syntax error or changing the query's meaning.
"""

from __future__ import annotations

import re

# Letters, digits and the combining marks that Devanāgarī and decomposed IAST need.
_WORD = re.compile(r"[\w\u0900-\u0963\u0966-\u097F\u0300-\u036F]+")


def words(text: str) -> list[str]:
    """The searchable words of `text`, in order; punctuation and FTS5 operators are dropped."""
    return [w for w in _WORD.findall(text) if w.strip("_")]


def quote(term: str) -> str:
    """An FTS5 string literal: the term can contain anything, it is matched as text."""
    return '"' + term.replace('"', '""') + '"'
