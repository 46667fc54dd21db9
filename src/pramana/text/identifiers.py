"""Identifiers split the way people say them, and numbers, which no split changes, for every
server that reads code-like words: keyword search over code (code/search/terms.py) and the static
embedding table's tokeniser (pramana.embed)."""

from __future__ import annotations

import functools
import re

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
# Every byte but an ASCII letter, digit or `_` as a space (ascii_words).
_NOT_WORD = bytes(
    code if code < 128 and (chr(code).isalnum() or code == ord("_")) else 32 for code in range(256)
)


def ascii_words(text: str) -> list[str]:
    """`re.findall(r"[A-Za-z0-9_]+", text)` of an ASCII `text`: the same words in the same order (after
    the translation only those characters and the space are left, and `split()` returns the maximal runs
    of what is not a space), found in C without the regular expression engine's steps per character:
    441 M fewer instructions over tokio's 7,508 chunks. Translated as bytes, by a table of 256 (an ASCII
    text's encoding and decoding are copies): `str.translate` looks up each distinct character of each
    text in its mapping, a KeyError each for the letters it leaves: 39% more over the same chunks."""
    return text.encode().translate(_NOT_WORD).decode().split()


def split_identifier(identifier: str) -> list[str]:
    """`parseHTTPResponse_v2` -> ['parse', 'http', 'response', 'v', '2'] (lower case)."""
    if "_" not in identifier:
        return list(split_piece(identifier))
    return [part for piece in identifier.split("_") for part in split_piece(piece)]


def is_one_case_word(text: str) -> bool:
    """ASCII letters of one case (`self`, `len`, `MAX`): a word that splits into itself alone."""
    return text.isascii() and text.isalpha() and (text.islower() or text.isupper())


def split_piece(piece: str) -> tuple[str, ...]:
    """One `_`-free piece of an identifier, split (lower case, no empty part). A piece of ASCII letters
    of one case (most pieces of snake_case names) is one part, itself: _CAMEL finds no other, and the
    first index of a new process splits every distinct piece."""
    if is_one_case_word(piece):
        return (piece.lower(),)
    return _split_mixed_piece(piece)


@functools.lru_cache(maxsize=131_072)
def _split_mixed_piece(piece: str) -> tuple[str, ...]:
    # Cached: a repository's distinct identifiers are many more than their distinct pieces
    # (`getUser_id`, `set_user_id`...).
    return tuple(part.lower() for part in _CAMEL.findall(piece) or [piece] if part)


# A class prefix glued to an acronym (Objective-C's `GSHTTPAuthentication`, `NSJSONSerialization`:
# Apple's convention is a two- or three-letter prefix before every class name): one run of capitals
# before the next word, at the start of a piece, of six letters or more, so that the acronym has three
# letters or more whichever the prefix's length (a run of five, `RCTJSStackFrame`, `NSURLSession`,
# would read `tjs` as often as `url`).
_GLUED_RUN = re.compile(r"[A-Z]{6,}(?=[A-Z][a-z])")


def glued_acronyms(piece: str) -> tuple[str, ...]:
    """The acronym a class prefix hides at the start of an identifier's piece (lower case): the run of
    capitals without its first two letters and without its first three (`GSHTTPAuthentication` ->
    ('http', 'ttp'), `NSJSONSerialization` -> ('json', 'son')): the split cannot tell where the prefix
    ends, so both are said. Nothing for a piece without such a run (`XMLHttpRequest`, `MAX_SIZE`,
    `NSURLSession`)."""
    if len(piece) < 8 or not piece[:6].isupper():  # no run of six capitals and a word after it
        return ()
    return _glued_acronyms(piece)


@functools.lru_cache(maxsize=131_072)
def _glued_acronyms(piece: str) -> tuple[str, ...]:
    run = _GLUED_RUN.match(piece)
    if run is None:
        return ()
    letters = run[0].lower()
    return letters[2:], letters[3:]


def is_number(word: str) -> bool:
    """`word` is ASCII digits alone (`str.isdigit` alone would take `²` or `٣` too): a number, which
    no splitting or stemming changes."""
    return word.isdigit() and word.isascii()
