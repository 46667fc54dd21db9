"""`pramana gita install sb cc`: the SB and CC verses from upstream's archive into the gita cache.

The source is a URL serving the archive (default: the pinned upstream commit), a local copy of it
(.tar.gz) or the folder it unpacks to. A URL is downloaded to `<data dir>/downloads/` resumably
(pramana.download: `.part` plus a sidecar; the rest is asked for with Range + If-Range) and removed
once installed. The books are read and their structure checked (every chapter, every verse, the
counts of books.py) before anything is written; each book is then written whole in one transaction,
so an interrupted or refused install leaves what was installed before, and a reader never sees half
a book. A book already installed is left as it is unless `force`.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from pramana import work
from pramana.download import download
from pramana.errors import (
    InvalidInputError,
    NotFoundError,
    SourceError,
    SourceUnreachableError,
    offline_error,
)
from pramana.gita import models
from pramana.gita.book_source import BookData, read_source, structure_problems
from pramana.gita.books import BOOKS, UPSTREAM_ARCHIVE, book_named
from pramana.gita.store import InstalledBook
from pramana.gita.stores import ScriptureStore
from pramana.install import command, rerun
from pramana.store.failures import storage_problem
from pramana.store.sqlite import StoreError

Progress = Callable[[int, int, str], None]

SOURCE_HINT = (
    f"Install from a copy you can reach: `{command('gita install sb cc --source PATH_OR_URL')}` (upstream's"
    " .tar.gz, the folder it unpacks to, or a URL serving the archive), or set VEDABASE_BOOKS_SOURCE"
    " (which the install_books tool reads)."
)
DOWNLOAD_ATTEMPTS = 3


def wanted_codes(names: list[str]) -> list[str]:
    """The installable books `names` asks for ('sb', 'CC', 'bhagavatam'), each once, in order."""
    if not names:
        raise InvalidInputError("name the books to install: sb (Śrīmad-Bhāgavatam), cc (Caitanya-caritāmṛta)")
    return list(dict.fromkeys(book_named(name, installable=True).code for name in names))


def is_url(location: str) -> bool:
    return location.startswith(("http://", "https://"))


def shown_source(location: str) -> str:
    """The source as an answer may show it: a URL as it is, a local path never (issue 31)."""
    if is_url(location):
        return location if location != UPSTREAM_ARCHIVE else f"upstream ({location})"
    return "a local copy"


def install(
    store: ScriptureStore,
    codes: list[str],
    location: str,
    *,
    downloads: Path,
    timeout: float,
    progress: Progress | None = None,
    force: bool = False,
) -> models.InstallResult:
    started = time.perf_counter()
    installed = store.installed_books()
    todo = [code for code in codes if force or code not in installed]
    if not todo:
        books = [_info(installed[code], installed_now=False) for code in codes]
        note = "Already installed; nothing to do (`--force` installs again)."
        return models.InstallResult(
            books=books, source=shown_source(location), downloaded_bytes=0, seconds=0.0, notes=[note]
        )
    location = location.strip()
    if not location:
        raise InvalidInputError(f"the source is empty. {SOURCE_HINT}", parameter="source")
    archive, downloaded = _local_copy(location, downloads, timeout, progress)
    try:
        read = read_source(archive, [BOOKS[code] for code in todo], progress)
    except SourceError:
        if downloaded:  # a damaged download: the next run fetches it anew
            archive.unlink(missing_ok=True)
        raise
    _check(read.books, location)
    notes = []
    for position, code in enumerate(todo, start=1):
        data = read.books[code]
        work.check("the install stopped before writing; nothing was installed of " + code)
        if progress is not None:
            progress(position - 1, len(todo), f"writing {code}")
        try:
            # Another process (a replica) may have installed it since: kept, unless forced.
            installed[code] = store.replace_book(
                data, read.version, location, _fixed(data), keep_existing=not force
            )
        except sqlite3.Error as exc:  # locked by another install, disk full: the book stays as it was
            raise StoreError(f"{code} was not installed: {storage_problem(exc)}") from None
        except StoreError as exc:  # PostgreSQL unreachable, a read-only role: the book stays as it was
            raise StoreError(f"{code} was not installed: {exc}") from None
        if not data.translations:
            notes.append(
                f"{code}: the source has the verse texts only, no translations (upstream's archive has them)."
            )
    if progress is not None:
        progress(len(todo), len(todo), "installed")
    if downloaded:
        archive.unlink(missing_ok=True)
    books = [_info(installed[code], installed_now=code in todo) for code in codes]
    return models.InstallResult(
        books=books,
        source=shown_source(location),
        downloaded_bytes=downloaded,
        seconds=round(time.perf_counter() - started, 3),
        notes=notes,
    )


def _check(books: dict[str, BookData], location: str) -> None:
    """Refuse, before anything is written, a source that is not every verse of each book."""
    found = []
    for code, data in books.items():
        problems = structure_problems(data)
        if problems:
            found.append(f"{code} ({BOOKS[code].name}): " + "; ".join(problems))
    if found:
        raise SourceError(
            f"{shown_source(location)} is not a complete copy of upstream's archive, so nothing was"
            f" installed: {' | '.join(found)}. {SOURCE_HINT}"
        )


def _fixed(data: BookData) -> dict[str, int]:
    """The quirks repaired, counted by kind ("SB 3.3.26: ṟ/ḻ written for ṝ/l̐" → that kind, once)."""
    return dict(Counter(line.split(": ", 1)[1] for line in data.fixed))


def _info(book: InstalledBook, *, installed_now: bool) -> models.InstalledBookInfo:
    return models.InstalledBookInfo(
        book=book.code,
        name=BOOKS[book.code].name,
        verses=book.verses,
        texts=book.texts,
        chapters=book.chapters,
        translations=book.translations,
        version=book.version,
        installed_at=book.installed_at,
        fixed=book.fixed,
        installed_now=installed_now,
    )


def _local_copy(
    location: str, downloads: Path, timeout: float, progress: Progress | None
) -> tuple[Path, int]:
    """The archive or folder on disk, and how many bytes were downloaded for it (0: it was local)."""
    if not is_url(location):
        path = Path(location.removeprefix("file://")).expanduser()
        if not path.exists():
            raise NotFoundError(
                f"--source names no file or folder that exists here. {SOURCE_HINT}", parameter="source"
            )
        return path, 0
    target = downloads / f"scripture-{hashlib.sha256(location.encode()).hexdigest()[:16]}.tar.gz"

    async def report(done: int, total: int | None) -> None:
        if progress is not None:
            progress(done, total or 0, "downloading")
        work.check("the download stopped; run the install again to resume it")

    try:
        asyncio.run(download(location, target, timeout=timeout, retries=DOWNLOAD_ATTEMPTS, progress=report))
    except OSError as exc:  # the downloads folder cannot be written (permissions, disk full)
        raise SourceError(
            f"the download cannot be saved in the data directory ({exc.strerror or type(exc).__name__});"
            " nothing was installed"
        ) from None
    except NotFoundError as exc:
        raise NotFoundError(f"{exc}; nothing was installed. {SOURCE_HINT}") from None
    except SourceUnreachableError as exc:  # nothing answered: the shape every server's offline error has
        raise offline_error(
            "the books' archive", location, exc, retry=rerun("gita install sb cc"),
            variable="VEDABASE_BOOKS_SOURCE", local="PATH_OR_URL",
            meanwhile="Nothing was installed; the Gītā works without them.",
        ) from None  # fmt: skip
    except SourceError as exc:
        partial = target.with_name(target.name + ".part")
        got = partial.stat().st_size if partial.is_file() else 0
        if not got:
            raise SourceUnreachableError(
                f"cannot download the books from {location} ({_why(exc)}); nothing was installed."
                f" {SOURCE_HINT}"
            ) from None
        raise SourceError(
            f"the download from {location} stopped after {got:,} bytes ({_why(exc)}); nothing was installed."
            f" Run the install again to resume it, or: {SOURCE_HINT}"
        ) from None
    return target, target.stat().st_size


def _why(exc: SourceError) -> str:
    """What went wrong, from download()'s message ("download of URL failed after 3 attempts (WHY); …")."""
    text = str(exc)
    start, end = text.find("("), text.rfind(")")
    return text[start + 1 : end] if 0 <= start < end else text
