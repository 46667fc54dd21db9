"""The scriptures the gita server knows: the Bhagavad-gītā (packaged) and the books a user installs.

The Śrīmad-Bhāgavatam (SB) and the Caitanya-caritāmṛta (CC) come from one public archive, a pinned
commit of `pavamana1123/slides` (see ../shared/data/scripture/PROVENANCE.md), keyed exactly by
vedabase's references. The counts below are that commit's: the install refuses an archive whose
structure differs (a truncated download, another commit), before anything is served.
"""

from __future__ import annotations

from dataclasses import dataclass

from pramana.config import DEFAULT_BOOKS_SOURCE
from pramana.errors import InvalidInputError
from pramana.install import command
from pramana.text.normalize import strip_diacritics

UPSTREAM_COMMIT = "2460884c17200ac6861bbaa479b1662e416461fe"
UPSTREAM_ARCHIVE = DEFAULT_BOOKS_SOURCE  # codeload's .tar.gz of that commit (26 MB)


@dataclass(frozen=True)
class Book:
    code: str  # "SB": what references and results call it
    slug: str  # "sb": upstream's folder, vedabase's URL, the install argument
    name: str
    division_name: str  # what a first-level division is called ("canto", "līlā"); "" for the Gītā
    divisions: tuple[str, ...]  # their names, in order ("1" … "12"; "Ādi", "Madhya", "Antya")
    division_slugs: tuple[str, ...]  # as upstream's folders and vedabase's URLs have them
    chapters: tuple[int, ...]  # chapters per division
    verses: int  # verses counted by number: a joined verse (SB 10.1.5-7) counts each member

    @property
    def chapter_count(self) -> int:
        return sum(self.chapters)

    @property
    def installable(self) -> bool:
        return self.code != "BG"

    def division_label(self, division: int) -> str:
        """ "10" for SB canto 10, "Madhya" for CC's second līlā."""
        return self.divisions[division - 1]


GITA = Book("BG", "bg", "Bhagavad-gītā", "", (), (), (18,), 701)
SB = Book(
    "SB",
    "sb",
    "Śrīmad-Bhāgavatam",
    "canto",
    tuple(str(canto) for canto in range(1, 13)),
    tuple(str(canto) for canto in range(1, 13)),
    (19, 10, 33, 31, 26, 19, 15, 24, 24, 90, 31, 13),
    14_090,
)
CC = Book(
    "CC",
    "cc",
    "Śrī Caitanya-caritāmṛta",
    "līlā",
    ("Ādi", "Madhya", "Antya"),
    ("adi", "madhya", "antya"),
    (17, 25, 20),
    11_555,
)
BOOKS: dict[str, Book] = {book.code: book for book in (GITA, SB, CC)}
INSTALLABLE: tuple[Book, ...] = (SB, CC)
BOOK_ORDER: dict[str, int] = {code: rank for rank, code in enumerate(BOOKS)}
INSTALL_HINT = f"{command('gita install sb cc')} (or the install_books tool)"


def install_hint(codes: list[str] | tuple[str, ...] = ("SB", "CC")) -> str:
    names = " ".join(BOOKS[code].slug for code in codes)
    return f"`{command(f'gita install {names}')}` (or the install_books tool)"


def book_named(name: str, *, installable: bool = False) -> Book:
    """A book by its code, slug or (loosely) its name: 'sb', 'SB', 'CC', 'bhagavatam', 'gita'."""
    key = "".join(ch for ch in strip_diacritics(name) if ch.isalpha())
    for book in BOOKS.values():
        aliases = {book.slug, *_ALIASES.get(book.code, ())}
        if key in aliases:
            if installable and not book.installable:
                raise InvalidInputError(
                    "the Bhagavad-gītā ships with pramana: there is nothing to install"
                    f" (`{command('gita seed')}` caches its translations)"
                )
            return book
    choices = ", ".join(f"{b.slug} ({b.name})" for b in (INSTALLABLE if installable else BOOKS.values()))
    raise InvalidInputError(f"unknown book {name.strip()[:40]!r}: choose among {choices}")


_ALIASES: dict[str, tuple[str, ...]] = {
    "BG": ("gita", "bhagavadgita"),
    "SB": ("bhagavatam", "srimadbhagavatam", "bhag", "bhagavatapurana"),
    "CC": ("caitanyacaritamrta", "chaitanyacharitamrita", "caritamrta"),
}


def chosen_books(names: list[str] | None, available: list[str]) -> list[str]:
    """The codes of the books `names` asks for (default: every one available), in catalogue order;
    a book asked for that is not available is an error saying how to install it."""
    if not names:
        return available
    codes = list(dict.fromkeys(book_named(name).code for name in names))
    missing = [code for code in codes if code not in available]
    if missing:
        listed = ", ".join(f"{code} ({BOOKS[code].name})" for code in missing)
        raise InvalidInputError(
            f"{listed} {'is' if len(missing) == 1 else 'are'} not installed: run {install_hint(missing)}",
            parameter="books",
        )
    return sorted(codes, key=BOOK_ORDER.__getitem__)
