"""Words for keyword (BM25) search over code: identifiers split the way people say them.

`getUserName`, `get_user_name` and `GetUserNAME` all yield `get user name`, and the whole
identifier is kept too (`getusername`), so a query can say either. FTS5's porter stemmer then
folds `parsing`/`parser`/`parse` together on both sides.
"""

from __future__ import annotations

import functools
import re

_IDENTIFIER = re.compile(r"[A-Za-z0-9_]+|[^\W\d_]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
MAX_TERM_CHARS = 40

# English function words: they carry no meaning in a query or in code. Words of the domain
# ("python", "test", "error") are not among them: a developer searches for those.
STOP_WORDS = frozenset(
    """a an and are as at be by for from how i if in into is it its of on or that the this to was
    with what when where which who why do does can should would will my me we you your our""".split()  # noqa: SIM905
)
# Words too common in code to tell chunks apart, dropped from queries only.
QUERY_ONLY_STOP_WORDS = frozenset({"def", "return", "self", "none", "true", "false", "const", "let", "var"})


def split_identifier(identifier: str) -> list[str]:
    """`parseHTTPResponse_v2` -> ['parse', 'http', 'response', 'v', '2'] (lower case)."""
    parts = []
    for piece in identifier.split("_"):
        parts.extend(p.lower() for p in _CAMEL.findall(piece) or [piece])
    return [p for p in parts if p]


def terms(text: str) -> list[str]:
    """The index terms of `text`, in order: identifier parts, plus each multi-part identifier whole."""
    found: list[str] = []
    for identifier in _IDENTIFIER.findall(text):
        found.extend(_identifier_terms(identifier))
    return found


@functools.lru_cache(maxsize=131_072)
def _identifier_terms(identifier: str) -> tuple[str, ...]:
    # Code repeats its identifiers: splitting each distinct one once makes indexing several times faster.
    parts = [p for p in split_identifier(identifier) if len(p) > 1 or p.isdigit()]
    found = [p for p in parts if p not in STOP_WORDS]
    whole = identifier.lower().strip("_")
    if len(parts) > 1 and len(whole) <= MAX_TERM_CHARS:
        found.append(whole.replace("_", ""))
    return tuple(found)


def query_terms(text: str) -> list[str]:
    """Distinct search terms of a query, in order, without stop words."""
    seen: dict[str, None] = {}
    for term in terms(text):
        if term not in QUERY_ONLY_STOP_WORDS:
            seen.setdefault(term, None)
    return list(seen)


def path_terms(path: str) -> str:
    return " ".join(terms(path.replace("/", " ").replace(".", " ")))
