"""The SB and CC verses of the shared archive as pramana's importer reads them (gita/book_source.py,
the reader an install uses), without writing a cache: for the scripture benchmarks and, through
tests/gita/scripture.py, the tests. And the gita server with the books installed, over stdio."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from mcp import ClientSession

from benchmarks._mcp_client import stdio_session
from pramana.config import GitaSettings
from pramana.gita.book_source import read_source
from pramana.gita.books import BOOKS
from pramana.gita.service import GitaService

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


def install_books(archive: Path, db: Path) -> Path:
    """A cache at `db` with SB and CC installed from `archive` (the Gītā needs no install)."""
    service = GitaService(GitaSettings(db_path=db))
    try:
        service.install_books(["sb", "cc"], str(archive))
    finally:
        service.close()
    return db


@asynccontextmanager
async def books_server(db: Path) -> AsyncIterator[ClientSession]:
    """`pramana serve gita` over stdio on the cache at `db`, its source unreachable (nothing fetched)."""
    env = {"VEDABASE_DB_PATH": str(db), "VEDABASE_API_URL": "http://127.0.0.1:9"}
    async with stdio_session(["-m", "pramana", "serve", "gita"], env) as session:
        yield session
