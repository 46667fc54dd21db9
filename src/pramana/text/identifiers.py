"""Identifiers split the way people say them, and numbers, which no split changes, for every
server that reads code-like words: keyword search over code (code/search/terms.py) and the static
embedding table's tokeniser (pramana.embed)."""

from __future__ import annotations

import functools
import re

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def split_identifier(identifier: str) -> list[str]:
    """`parseHTTPResponse_v2` -> ['parse', 'http', 'response', 'v', '2'] (lower case)."""
    if "_" not in identifier:
        return list(split_piece(identifier))
    return [part for piece in identifier.split("_") for part in split_piece(piece)]


@functools.lru_cache(maxsize=131_072)
def split_piece(piece: str) -> tuple[str, ...]:
    """One `_`-free piece of an identifier, split (lower case, no empty part). Cached: a repository's
    distinct identifiers are many more than their distinct pieces (`getUser_id`, `set_user_id`...),
    and the first index of a new process splits every one of them."""
    return tuple(part.lower() for part in _CAMEL.findall(piece) or [piece] if part)


def is_number(word: str) -> bool:
    """`word` is ASCII digits alone (`str.isdigit` alone would take `²` or `٣` too): a number, which
    no splitting or stemming changes."""
    return word.isdigit() and word.isascii()
