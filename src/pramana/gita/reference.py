"""Verse references in every book: "BG 2.47", "2:47", "SB 1.2.6", "Bhāg. 10.1.5-7", "CC Ādi 17.31".

The Gītā's bounds are known here; an installed book's verses are checked against the store (the
service does that), its cantos, līlās and chapters here.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from pramana.errors import InvalidInputError, NotFoundError
from pramana.gita.books import BOOK_ORDER, BOOKS, CC, SB, Book

# Verses per chapter in the vedicscriptures data (chapters/index.json): 701 in all, because
# chapter 13 counts Arjuna's question as 13.1. A test checks this against the dataset.
VERSES_PER_CHAPTER: tuple[int, ...] = (
    47, 72, 43, 42, 29, 47, 30, 28, 34, 42, 55, 20, 35, 27, 20, 24, 28, 78,
)  # fmt: skip
CHAPTER_COUNT = len(VERSES_PER_CHAPTER)
VERSE_COUNT = sum(VERSES_PER_CHAPTER)
MAX_REFERENCE_LENGTH = 100

ACCEPTED_FORMS = (
    "'BG 2.47', '2.47', '2:47', 'bg 15-7', 'Bhagavad Gita 9.34', 'Bhagavad-gītā 2.47';"
    " 'SB 1.2.6', 'Bhāg. 1.2.6', 'Śrīmad-Bhāgavatam 10.1.5-7'; 'CC Ādi 17.31', 'Cc. Madhya 20.108-109'"
)
CHAPTER_FORMS = "'BG 2' (or '2'), 'SB 1.2', 'CC Madhya 20'"

# Prefixes as they read with diacritics folded (Śrīmad → Srimad, Ādi → Adi, caritāmṛta → caritamrta).
_BG = r"(?:bhagavad[\s\-]*gita|gita|bg\.?)"
_SB = r"(?:s\.?\s*b\.?|(?:s?h?r[ie]+mad[\s\-]*)?bhagavatam|bhagavata[\s\-]*purana|bhag\.?)"
_CC = r"(?:c\.?\s*c\.?|ch?aitanya[\s\-]*ch?aritam(?:r|ri)ta)"
_PART = r"(?P<part>adi|madhya|antya)(?:[\s\-]*lila)?\.?"
_NUMBER = r"(?P<verse>\d{1,3}[a-z]?)(?:\s*-\s*(?P<last>\d{1,3}[a-z]?))?"
_DOT = r"\s*[.:]\s*"

_BG_VERSE = re.compile(
    rf"^\s*(?:{_BG}\s*)?(?P<chapter>\d{{1,3}})\s*[.:\-]\s*(?P<verse>\d{{1,3}})\s*$", re.IGNORECASE
)
_SB_VERSE = re.compile(
    rf"^\s*{_SB}\s*(?P<division>\d{{1,2}}){_DOT}(?P<chapter>\d{{1,3}}){_DOT}{_NUMBER}\s*$", re.IGNORECASE
)
_CC_VERSE = re.compile(rf"^\s*{_CC}\s*{_PART}\s*(?P<chapter>\d{{1,3}}){_DOT}{_NUMBER}\s*$", re.IGNORECASE)
_BG_CHAPTER = re.compile(
    rf"^\s*(?:{_BG}\s*)?(?:ch(?:apter|\.)?\s*)?(?P<chapter>\d{{1,3}})\s*$", re.IGNORECASE
)
_SB_CHAPTER = re.compile(
    rf"^\s*{_SB}\s*(?P<division>\d{{1,2}}){_DOT}(?P<chapter>\d{{1,3}})\s*$", re.IGNORECASE
)
_CC_CHAPTER = re.compile(rf"^\s*{_CC}\s*{_PART}\s*(?P<chapter>\d{{1,3}})\s*$", re.IGNORECASE)
_LABELLED = re.compile(r"(\d+)([a-z])")


@functools.total_ordering
@dataclass(frozen=True)
class VerseRef:
    """One verse, or one text of joined verses (SB 10.1.5-7), of one book.

    `VerseRef(2, 47)` is BG 2.47, as before there were other books.
    """

    chapter: int
    verse: int
    book: str = "BG"
    division: int = 0  # SB's canto, CC's līlā (1 Ādi, 2 Madhya, 3 Antya); 0 in the Gītā
    last: int = 0  # the last verse of joined verses (SB 10.1.5-7: 7); 0 for one verse
    label: str = ""  # upstream's own number when it has letters (SB 4.29.1a-2a, 4.29.1b)

    def __str__(self) -> str:
        return f"{self.chapter_ref}.{self.number}"

    def _key(self) -> tuple[int, int, int, int, int, str]:
        return (BOOK_ORDER[self.book], self.division, self.chapter, self.verse, self.last, self.label)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, VerseRef):
            return NotImplemented
        return self._key() < other._key()

    @property
    def number(self) -> str:
        """The verse's number as vedabase writes it: '47', '5-7', '1a-2a'."""
        if self.label:
            return self.label
        return f"{self.verse}-{self.last}" if self.last else str(self.verse)

    @property
    def chapter_ref(self) -> ChapterRef:
        return ChapterRef(self.chapter, self.book, self.division)

    @property
    def joined(self) -> bool:
        return self.last > self.verse

    @property
    def members(self) -> range:
        """The verse numbers this text holds."""
        return range(self.verse, max(self.verse, self.last) + 1)

    @property
    def vedabase_url(self) -> str:
        return f"{self.chapter_ref.vedabase_url}{self.number}/"


@dataclass(frozen=True, order=True)
class ChapterRef:
    chapter: int
    book: str = "BG"
    division: int = 0

    def __str__(self) -> str:
        if self.book == "BG":
            return f"BG {self.chapter}"
        if self.book == "CC":
            return f"CC {CC.division_label(self.division)} {self.chapter}"
        return f"{self.book} {self.division}.{self.chapter}"

    @property
    def vedabase_url(self) -> str:
        book = BOOKS[self.book]
        division = f"{book.division_slugs[self.division - 1]}/" if self.division else ""
        return f"https://vedabase.io/en/library/{book.slug}/{division}{self.chapter}/"


def _fold_prefix(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _checked_text(text: str, what: str, forms: str) -> str:
    if not text or not text.strip():
        raise InvalidInputError(f"empty {what}; use a form like {forms}")
    if len(text) > MAX_REFERENCE_LENGTH:
        raise InvalidInputError(
            f"{what} is {len(text)} characters; a reference is at most {MAX_REFERENCE_LENGTH}"
        )
    return _fold_prefix(text)


def parse_reference(text: str) -> VerseRef:
    """Parse a verse reference of any book. A Gītā verse is checked against its 701 verses; an SB or
    CC verse against the book's cantos, līlās and chapters (its verses are the store's to check).

    Raises InvalidInputError for anything that is not a reference (including trailing text) and
    NotFoundError for a well-formed reference to a verse or chapter that does not exist.
    """
    folded = _checked_text(text, "verse reference", ACCEPTED_FORMS)
    if match := _BG_VERSE.match(folded):
        return checked_ref(int(match["chapter"]), int(match["verse"]))
    if match := _SB_VERSE.match(folded):
        chapter = checked_chapter(SB, int(match["division"]), int(match["chapter"]))
        return _book_verse(chapter, match["verse"], match["last"], text)
    if match := _CC_VERSE.match(folded):
        chapter = checked_chapter(CC, _part(match["part"]), int(match["chapter"]))
        return _book_verse(chapter, match["verse"], match["last"], text)
    raise InvalidInputError(
        f"cannot read {text.strip()[:60]!r} as a verse reference; use book, chapter and verse like"
        f" {ACCEPTED_FORMS}"
    )


def parse_chapter(text: str) -> ChapterRef:
    """Parse a chapter reference: 'BG 2' (or '2'), 'SB 1.2', 'CC Madhya 20'; checked as far as the
    books' structure goes."""
    folded = _checked_text(text, "chapter reference", CHAPTER_FORMS)
    if match := _BG_CHAPTER.match(folded):
        return ChapterRef(check_chapter(int(match["chapter"])))
    if match := _SB_CHAPTER.match(folded):
        return checked_chapter(SB, int(match["division"]), int(match["chapter"]))
    if match := _CC_CHAPTER.match(folded):
        return checked_chapter(CC, _part(match["part"]), int(match["chapter"]))
    raise InvalidInputError(
        f"cannot read {text.strip()[:60]!r} as a chapter reference; use a form like {CHAPTER_FORMS}"
    )


def _part(name: str) -> int:
    return CC.division_slugs.index(name.lower()) + 1


def checked_chapter(book: Book, division: int, chapter: int) -> ChapterRef:
    """A chapter of SB or CC, checked against the book's structure."""
    if not 1 <= division <= len(book.divisions):
        raise NotFoundError(
            f"{book.code} {division} does not exist: the {book.name} has {len(book.divisions)}"
            f" {book.division_name}s (1-{len(book.divisions)})"
        )
    count = book.chapters[division - 1]
    ref = ChapterRef(chapter, book.code, division)
    if not 1 <= chapter <= count:
        where = f"{book.code} {book.division_label(division)}"
        raise NotFoundError(f"{ref} does not exist: {where} has {count} chapters (1-{count})")
    return ref


def _book_verse(chapter: ChapterRef, verse: str, last: str | None, text: str) -> VerseRef:
    first_number, label = _verse_number(verse)
    last_number = 0
    if last is not None:
        last_number, last_label = _verse_number(last)
        label = f"{verse}-{last}" if label or last_label else ""
        if last_number < first_number or (last_number == first_number and not label):
            raise InvalidInputError(
                f"{text.strip()[:60]!r}: a range goes from the first verse to the last, like 'SB 10.1.5-7'"
            )
    if first_number < 1:
        raise NotFoundError(f"{chapter}.{verse} does not exist: verses are numbered from 1")
    return VerseRef(chapter.chapter, first_number, chapter.book, chapter.division, last_number, label.lower())


def _verse_number(text: str) -> tuple[int, str]:
    """(number, label): '6' → (6, ''), '1b' → (1, '1b')."""
    if match := _LABELLED.fullmatch(text.lower()):
        return int(match[1]), text.lower()
    return int(text), ""


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
