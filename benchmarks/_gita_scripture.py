"""The SB and CC verses of the shared archive as pramana's importer reads them (gita/book_source.py,
the reader an install uses), without writing a cache: for the scripture benchmarks and, through
tests/gita/scripture.py, the tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pramana.gita.book_source import read_source
from pramana.gita.books import BOOKS

ARCHIVE = Path("scripture") / "slides-2460884c-verses.tar.gz"


@dataclass(frozen=True)
class ScriptureVerse:
    book: str  # "SB" or "CC"
    ref: str  # "SB 1.2.6", "SB 10.1.5-7", "CC Ādi 17.31"
    text: str  # IAST as vedabase writes it (ṁ), one line a half-verse


def read_scripture(archive: Path) -> tuple[ScriptureVerse, ...]:
    """Every SB and CC text of `archive` that has a verse text, in book order: the verses an install
    writes (tests/gita/scripture.py's installed_verses gives the same from a cache)."""
    read = read_source(archive, [BOOKS["SB"], BOOKS["CC"]])
    return tuple(
        ScriptureVerse(verse.ref.book, str(verse.ref), verse.transliteration)
        for code in ("SB", "CC")
        for verse in read.books[code].verses
        if verse.transliteration
    )
