"""Verse references ("BG 2.47", "2:47", "Bhagavad-gītā 15-7") and the Gita's verse bounds."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pramana.errors import InvalidInputError, NotFoundError

# Verses per chapter in the vedicscriptures data (chapters/index.json): 701 in all, because
# chapter 13 counts Arjuna's question as 13.1. A test checks this against the dataset.
VERSES_PER_CHAPTER: tuple[int, ...] = (
    47, 72, 43, 42, 29, 47, 30, 28, 34, 42, 55, 20, 35, 27, 20, 24, 28, 78,
)  # fmt: skip
CHAPTER_COUNT = len(VERSES_PER_CHAPTER)
VERSE_COUNT = sum(VERSES_PER_CHAPTER)
MAX_REFERENCE_LENGTH = 100

ACCEPTED_FORMS = "'BG 2.47', '2.47', '2:47', 'bg 15-7', 'Bhagavad Gita 9.34', 'Bhagavad-gītā 2.47'"

_REFERENCE = re.compile(
    r"""^\s*
    (?:(?:bhagavad[\s\-]*gita|gita|bg)\s*)?   # optional prefix, diacritics already folded
    (?P<chapter>\d{1,3})\s*[.:\-]\s*(?P<verse>\d{1,3})
    \s*$""",
    re.IGNORECASE | re.VERBOSE,
)


@dataclass(frozen=True, order=True)
class VerseRef:
    chapter: int
    verse: int

    def __str__(self) -> str:
        return f"BG {self.chapter}.{self.verse}"

    @property
    def vedabase_url(self) -> str:
        return f"https://vedabase.io/en/library/bg/{self.chapter}/{self.verse}/"


def _fold_prefix(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def parse_reference(text: str) -> VerseRef:
    """Parse a verse reference and check it names one of the 701 verses.

    Raises InvalidInputError for anything that is not a reference (including trailing
    text) and NotFoundError for a well-formed reference to a verse that does not exist.
    """
    if not text or not text.strip():
        raise InvalidInputError(f"empty verse reference; use a form like {ACCEPTED_FORMS}")
    if len(text) > MAX_REFERENCE_LENGTH:
        raise InvalidInputError(
            f"verse reference is {len(text)} characters; a reference is at most {MAX_REFERENCE_LENGTH}"
        )
    match = _REFERENCE.match(_fold_prefix(text))
    if match is None:
        raise InvalidInputError(
            f"cannot read {text.strip()[:60]!r} as a Bhagavad Gita verse reference; "
            f"use chapter and verse like {ACCEPTED_FORMS}"
        )
    return checked_ref(int(match["chapter"]), int(match["verse"]))


def checked_ref(chapter: int, verse: int) -> VerseRef:
    check_chapter(chapter)
    count = VERSES_PER_CHAPTER[chapter - 1]
    if not 1 <= verse <= count:
        raise NotFoundError(f"BG {chapter}.{verse} does not exist: chapter {chapter} has verses 1-{count}")
    return VerseRef(chapter, verse)


def check_chapter(chapter: int) -> int:
    if not 1 <= chapter <= CHAPTER_COUNT:
        raise NotFoundError(
            f"chapter {chapter} does not exist: the Bhagavad Gita has chapters 1-{CHAPTER_COUNT}"
        )
    return chapter


def all_refs() -> list[VerseRef]:
    return [
        VerseRef(chapter, verse)
        for chapter, count in enumerate(VERSES_PER_CHAPTER, start=1)
        for verse in range(1, count + 1)
    ]
