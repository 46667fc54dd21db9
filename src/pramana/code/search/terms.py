"""Words for keyword (BM25) search over code: identifiers split the way people say them.

`getUserName`, `get_user_name` and `GetUserNAME` all yield `get user name`, and the whole
identifier is kept too (`getusername`), so a query can say either. The Porter stemmer then
folds `parsing`/`parses`/`parse` together on both sides (`stem`), and a chunk's terms are
counted once, weighted by where they stand (`chunk_bag`), for BM25 (lexical.py).

This module imports little: index workers (prepare.py) count terms too.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import cast

from pramana.text.identifiers import (
    ascii_words,
    glued_acronyms,
    is_number,
    is_one_case_word,
    split_identifier,
)
from pramana.text.stem import stem

_IDENTIFIER = re.compile(r"[A-Za-z0-9_]+|[^\W\d_]+")
MAX_TERM_CHARS = 40

# English function words: they carry no meaning in a query or in code. Words of the domain
# ("python", "test", "error") are not among them: a developer searches for those.
STOP_WORDS = frozenset(
    """a an and are as at be by for from how i if in into is it its of on or that the this to was
    with what when where which who why do does can should would will my me we you your our""".split()  # noqa: SIM905
)
# Words too common in code to tell chunks apart, dropped from queries only.
QUERY_ONLY_STOP_WORDS = frozenset({"def", "return", "self", "none", "true", "false", "const", "let", "var"})


def identifiers(text: str) -> list[str]:
    return ascii_words(text) if text.isascii() else _IDENTIFIER.findall(text)  # the same words in ASCII


def terms(text: str) -> list[str]:
    """The index terms of `text`, in order: identifier parts, plus each multi-part identifier whole."""
    found: list[str] = []
    for identifier in identifiers(text):
        found.extend(_identifier_terms(identifier))
    return found


@functools.lru_cache(maxsize=131_072)
def _identifier_terms(identifier: str) -> tuple[str, ...]:
    # Code repeats its identifiers: splitting each distinct one once makes indexing several times faster.
    if is_number(identifier):  # a number: one part, itself
        return (identifier,)
    if is_one_case_word(identifier):
        # One word of one case (`self`, `len`, `MAX`): one part, and no glued acronym (no lower case
        # after a run of capitals). Below, the same in many more steps: a third of the distinct words.
        word = identifier.lower()
        return (word,) if len(word) > 1 and word not in STOP_WORDS else ()
    parts = [p for p in split_identifier(identifier) if len(p) > 1 or p.isdigit()]
    found = [p for p in parts if p not in STOP_WORDS]
    whole = identifier.lower().strip("_")
    if len(parts) > 1 and len(whole) <= MAX_TERM_CHARS:
        found.append(whole.replace("_", ""))
    # `GSHTTPAuthentication` is split `gshttp authentication`: "http" is said too, after the rest.
    found.extend(a for piece in identifier.split("_") for a in glued_acronyms(piece) if a not in STOP_WORDS)
    return tuple(found)


# British spellings a developer writes in a question, where the code mostly says the American word
# (`colour` -> `color`, `flavour` -> `flavor`, `initialise` -> `initialize`): the query searches both.
_BRITISH = re.compile(
    r"(colo|behavio|neighbo|flavo|favo|hono|labo|humo|rumo|vapo|armo|endeavo|savo|odo|harbo)ur"
    r"|(initiali|seriali|normali|finali|visuali|locali|speciali|capitali|materiali|optimi|minimi|maximi"
    r"|organi|synchroni|recogni|authori|customi|categori|prioriti|summari|utili)s(?=e|ing|ation)"
)


def american(term: str) -> str | None:
    """The American spelling of a British-spelt word (`colours` -> `colors`), else None."""
    spelt = _BRITISH.sub(lambda m: f"{m[1]}r" if m[1] else f"{m[2]}z", term)
    return spelt if spelt != term else None


def query_terms(text: str) -> list[str]:
    """Distinct search terms of a query, in order, without stop words; a British-spelt word with its
    American spelling after it."""
    seen: dict[str, None] = {}
    for term in terms(text):
        if term not in QUERY_ONLY_STOP_WORDS:
            seen.setdefault(term, None)
            if (spelt := american(term)) is not None:
                seen.setdefault(spelt, None)
    return list(seen)


def path_terms(path: str) -> str:
    return " ".join(path_words(path))


def path_words(path: str) -> list[str]:
    return terms(path.replace("/", " ").replace(".", " "))


def search_terms(parent: str | None, name: str | None, path_terms: str, content: str) -> tuple[str, str, str]:
    """The words a chunk is found by: its name's, its path's and its text's (identifiers split)."""
    return " ".join(terms(f"{parent or ''} {name or ''}")), path_terms, " ".join(terms(content))


# BM25F-style weighted term frequency: a chunk's name counts three times.
NAME_WEIGHT, PATH_WEIGHT, BODY_WEIGHT = 3.0, 1.0, 1.0


def chunk_bag(parent: str | None, name: str | None, path: Sequence[str], content: str) -> dict[str, float]:
    """A chunk's BM25 term counts: its name's terms (weighed NAME_WEIGHT), its path's (`path_words`)
    and its text's, stemmed. Code repeats its identifiers: each distinct one is split and stemmed once
    (cached across chunks and files)."""
    return words_bag(parent, name, path_stems(path), identifiers(content))


def path_stems(path: Sequence[str]) -> list[str]:
    """A path's words (`path_words`) stemmed, as chunk_bag counts them: once per file, not per chunk."""
    return list(map(stem, path))


def words_bag(
    parent: str | None, name: str | None, path: Sequence[str], words: Sequence[str]
) -> dict[str, float]:
    """chunk_bag of a chunk whose text's identifiers are `words` (`identifiers`, found once for both
    this bag and the chunk's vector) and whose path's stems are `path` (`path_stems`)."""
    counts: dict[str, float] = {}
    get = counts.get
    # A name's few identifiers one by one (a Counter costs more than it saves there): the same
    # terms in the same order, and the same sums (whole numbers, exact in a float).
    for identifier in identifiers(f"{parent or ''} {name or ''}"):
        for term in _stemmed_terms(identifier):
            counts[term] = get(term, 0.0) + NAME_WEIGHT
    # Every term of every identifier counted in C (the identifiers' terms cached), and merged in C:
    # the same terms in the same order (the name's, then the text's new ones as first seen), and the
    # same whole-number sums (a text-only term's count stays an int: its float32 weight is the same).
    body = Counter(chain.from_iterable(map(_stemmed_terms, words)))
    if counts or BODY_WEIGHT != 1.0:
        shared = {term: weight + BODY_WEIGHT * body[term] for term, weight in counts.items() if term in body}
        counts.update(body if BODY_WEIGHT == 1.0 else {t: BODY_WEIGHT * c for t, c in body.items()})
        counts.update(shared)  # a term the name has keeps its place, with both sums
    else:
        counts = cast(dict[str, float], body)
        get = counts.get
    for key in path:
        counts[key] = get(key, 0.0) + PATH_WEIGHT
    return counts


def _stem_identifier(identifier: str) -> tuple[str, ...]:
    # Each distinct number of a file (constants, tables, test vectors) is an identifier of its own:
    # no stemming rule changes a word without letters, so a number is its own term.
    if is_number(identifier):
        return (identifier,)
    return tuple(map(stem, _identifier_terms(identifier)))


class _StemmedTerms(dict[str, tuple[str, ...]]):
    """identifier -> its terms, stemmed: each distinct identifier split and stemmed once (cached across
    chunks and files). A dict's own look-up, which `map` calls in C: a bag looks up every identifier of
    its text, and an lru_cache's call (it moves each hit to the front of its list) cost a quarter more."""

    LIMIT = 131_072  # distinct identifiers kept; past it the cache starts again

    def __missing__(self, identifier: str) -> tuple[str, ...]:
        if len(self) >= self.LIMIT:
            self.clear()
        found = self[identifier] = _stem_identifier(identifier)
        return found


_stemmed_terms = _StemmedTerms().__getitem__
