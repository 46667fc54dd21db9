"""Matching garbled Sanskrit to verses, behind a small interface so scorers can be swapped.

- `PhoneticMatcher` (the default) aligns the query's phonetic skeleton (see
  `pramana.text.phonetic`) with every verse's, in its IAST and in its Devanāgarī read as IAST,
  so a quote of a line or half-line, garbled in the ways transcripts garble, finds its verse;
  it also says whether the best match is confident.
- `SpecMatcher` is the vedabase-mcp spec's §5 algorithm, exactly: normalize both sides with
  the spec's table, score 0.6 × SequenceMatcher ratio + 0.4 × keyword overlap, keep scores
  of at least 0.25. It is kept as the baseline the benchmarks compare against.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Hashable, Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Protocol

from pramana.text.normalize import has_devanagari, unify_anusvara
from pramana.text.transliterate import devanagari_to_iast

# A verse's key, opaque to the matchers: hashable and printable ("BG 2.47", a book's reference type).
VerseKey = Hashable


@dataclass(frozen=True)
class IndexedVerse:
    ref: VerseKey
    transliteration: str
    devanagari: str = ""
    book: str = "BG"  # which book the verse is in, for filtering at query time


@dataclass(frozen=True)
class Match:
    ref: VerseKey
    score: float  # 0..1
    transliteration: str
    matched: str = ""  # the part of the verse the query matched
    line: str = ""  # the verse line that part lies in (or starts in)
    book: str = "BG"
    # Every other verse whose text holds the matched words (a refrain, a speaker's line, a verse one book
    # quotes from another), in corpus order; `recurs` counts them all when there are more than are listed.
    also_in: tuple[VerseKey, ...] = ()
    recurs: int = 0


@dataclass(frozen=True)
class MatchReport:
    matches: list[Match]
    confident: bool
    query: str  # the part of the input that was matched (filler words trimmed)
    notes: tuple[str, ...] = ()


class VerseMatcher(Protocol):
    """Finds the verses a piece of (possibly garbled) Sanskrit most likely comes from."""

    name: str
    threshold: float

    def match(self, text: str, top_n: int, *, books: Collection[str] | None = None) -> MatchReport:
        """The `top_n` best verses for `text`, of the books `books` only if it is given."""
        ...


# The spec's §5.2 diacritic table, plus the capitals and the avagraha.
_SPEC_TABLE = str.maketrans(
    {
        "ā": "a", "ī": "i", "ū": "u", "ṛ": "ri", "ṝ": "ri", "ṁ": "m", "ṃ": "m", "ḥ": "h",
        "ṣ": "sh", "ś": "sh", "ṇ": "n", "ṅ": "n", "ñ": "n", "ṭ": "t", "ḍ": "d",
    }
)  # fmt: skip
_VERSE_NUMBER = re.compile(r"\|\|\s*\d+\s*-\s*\d+\s*\|\|")
_NOT_WORD = re.compile(r"[^a-z\s]")
_SPACES = re.compile(r"\s+")


def spec_normalize(text: str) -> str:
    """Spec §5.2: lowercase, strip diacritics by the table, remove punctuation, collapse spaces."""
    text = _VERSE_NUMBER.sub(" ", text.lower()).translate(_SPEC_TABLE)
    text = _NOT_WORD.sub("", text)
    return _SPACES.sub(" ", text).strip()


def _keywords(normalized: str) -> set[str]:
    return {word for word in normalized.split() if len(word) >= 3}


class SpecMatcher:
    """Spec §5: O(n) over all verses; SequenceMatcher on whole normalized verses."""

    name = "spec-sequence-keyword"
    threshold = 0.25

    def __init__(self, verses: Iterable[IndexedVerse], english_words: Iterable[str] = ()):
        self._verses: list[tuple[IndexedVerse, str, set[str]]] = []
        for verse in verses:
            normalized = spec_normalize(verse.transliteration)
            self._verses.append((verse, normalized, _keywords(normalized)))

    def __len__(self) -> int:
        return len(self._verses)

    def match(self, text: str, top_n: int, *, books: Collection[str] | None = None) -> MatchReport:
        found = self.ranked(text, top_n, books)
        # The spec has no notion of confidence: whatever clears the threshold is its answer.
        return MatchReport(found, confident=bool(found), query=text)

    def ranked(self, text: str, top_n: int, books: Collection[str] | None = None) -> list[Match]:
        if has_devanagari(text):
            text = devanagari_to_iast(text)
        query = spec_normalize(unify_anusvara(text))
        if not query:
            return []
        query_keywords = _keywords(query)
        scored: list[tuple[float, int, IndexedVerse]] = []
        for position, (verse, normalized, keywords) in enumerate(self._verses):
            if books is not None and verse.book not in books:
                continue
            sequence = SequenceMatcher(None, query, normalized).ratio()
            keyword = len(query_keywords & keywords) / max(len(query_keywords), 1)
            score = round(0.6 * sequence + 0.4 * keyword, 4)
            if score >= self.threshold:
                scored.append((score, position, verse))
        scored.sort(key=lambda item: (-item[0], item[1]))  # of equal scores, the verse given first
        return [Match(v.ref, score, v.transliteration, book=v.book) for score, _, v in scored[:top_n]]
