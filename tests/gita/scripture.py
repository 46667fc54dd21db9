"""The SB and CC verses as pramana installs them (gita/install.py reading the shared archive), for the
matcher's tests and the scripture benchmarks: a cache with the books installed, and its verses in
book order, each as its reference (text) and IAST."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pramana.config import GitaSettings
from pramana.gita.book_source import read_source
from pramana.gita.books import BOOKS
from pramana.gita.service import GitaService
from pramana.gita.store import GitaStore

ARCHIVE = Path("scripture") / "slides-2460884c-verses.tar.gz"


@dataclass(frozen=True)
class ScriptureVerse:
    book: str  # "SB" or "CC"
    ref: str  # "SB 1.2.6", "SB 10.1.5-7", "CC Ādi 17.31"
    text: str  # IAST as vedabase writes it (ṁ), one line a half-verse


def install_books(db: Path, archive: Path, api_url: str | None = None) -> GitaService:
    """A service over the cache `db` with SB and CC installed from `archive` (a no-op when they are)."""
    settings = GitaSettings(db_path=db, **({"api_url": api_url} if api_url else {}))
    service = GitaService(settings)
    service.install_books(["sb", "cc"], str(archive))
    return service


def installed_verses(db: Path) -> tuple[ScriptureVerse, ...]:
    """Every SB and CC text installed in the cache `db`, in book order (SB by canto, CC Ādi, Madhya,
    Antya), as the service's matcher is given them."""
    store = GitaStore(db, read_only=True)
    try:
        return tuple(
            ScriptureVerse(ref.book, str(ref), text)
            for ref, text in store.book_transliterations(["SB", "CC"])
        )
    finally:
        store.close()


def read_scripture(archive: Path) -> tuple[ScriptureVerse, ...]:
    """The same verses as installed_verses gives, read from `archive` by the importer an install uses
    (book_source.read_source) without writing a cache: for the benchmarks, which need no cache."""
    read = read_source(archive, [BOOKS["SB"], BOOKS["CC"]])
    return tuple(
        ScriptureVerse(verse.ref.book, str(verse.ref), verse.transliteration)
        for code in ("SB", "CC")
        for verse in read.books[code].verses
        if verse.transliteration
    )
