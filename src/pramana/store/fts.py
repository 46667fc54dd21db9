"""Building FTS5 queries from untrusted text.

User text never reaches FTS5's query parser as syntax: every word becomes a quoted
string, so `"`, `-`, `OR`, `NEAR`, `*`, `:` and parentheses are searched as text
instead of raising a syntax error or changing the query's meaning.
"""

from __future__ import annotations

import re

# Words searched per query. FTS5 computes bm25() and snippet() per phrase for every matching row:
# `the` written 125 times in one 500-character query took 94 s on 701 verses; distinct words past
# the twentieth narrow an AND query down no further.
MAX_TERMS = 20
# Letters, digits and the combining marks that Devanāgarī and decomposed IAST need.
_WORD = re.compile(r"[\w\u0900-\u0963\u0966-\u097F\u0300-\u036F]+")


def words(text: str) -> list[str]:
    """The searchable words of `text`, in order; punctuation and FTS5 operators are dropped."""
    return [w for w in _WORD.findall(text) if w.strip("_")]


def quote(term: str) -> str:
    """An FTS5 string literal: the term can contain anything, it is matched as text."""
    return '"' + term.replace('"', '""') + '"'


def search_terms(text: str) -> list[str]:
    """The distinct searchable words of `text` (a word again in other case is no new word), in order,
    at most MAX_TERMS."""
    distinct: dict[str, str] = {}
    for word in words(text):
        distinct.setdefault(word.casefold(), word)
        if len(distinct) == MAX_TERMS:
            break
    return list(distinct.values())
