"""Identifiers split the way people say them, for every server that reads code-like words: keyword
search over code (code/search/terms.py) and the static embedding table's tokeniser (pramana.embed)."""

from __future__ import annotations

import re

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def split_identifier(identifier: str) -> list[str]:
    """`parseHTTPResponse_v2` -> ['parse', 'http', 'response', 'v', '2'] (lower case)."""
    parts = []
    for piece in identifier.split("_"):
        parts.extend(p.lower() for p in _CAMEL.findall(piece) or [piece])
    return [p for p in parts if p]
