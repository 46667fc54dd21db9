"""The gita server's data (its declaration's install and doctor, pramana.servers): the Gita's
translations seeded into the verse cache, the SB and CC installed into it, and what is there."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pramana.servers import Installed, Progress, Source

if TYPE_CHECKING:
    from pramana.config import GitaSettings
    from pramana.doctor import ServerStatus
    from pramana.gita.service import GitaService

GITA_VERSES = 701


def install(settings: GitaSettings, source: Source, progress: Progress) -> Installed:
    """The translations of the Gita from `source.location` (default: the settings' source), then with
    the step `vectors` their question vectors; or, with `parts` ('sb', 'cc'), those books from
    upstream's archive (or the copy `location` names), again with `force`."""
    from pramana.gita.service import GitaService

    def reported(done: int, total: int, what: str) -> None:
        progress(what, done, total)

    if source.location is not None and not source.parts:
        settings = settings.model_copy(update={"api_url": source.location})
    service = GitaService(settings)
    try:
        if source.parts:
            result = service.install_books(list(source.parts), source.location, reported, force=source.force)
            books = "; ".join(f"{b.book}: {b.verses:,} verses" for b in result.books)
            return Installed(_where(service), books, report=result)
        seeded = service.seed(reported)
        if source.wants("vectors") and seeded.verses_cached:
            note = service.build_question_vectors(
                lambda done, total: progress("encoding texts for question search", done, total)
            )
            seeded = seeded.model_copy(update={"notes": [*seeded.notes, note] if note else seeded.notes})
        cached = f"{seeded.verses_cached} of {seeded.verses_expected} verses"
        if not seeded.complete:
            failed = (
                f"; {len(seeded.failures)} failed, e.g. {seeded.failures[0].item}: {seeded.failures[0].error}"
            )
            unfinished = f"{cached} cached{failed if seeded.failures else ''}; run it again for the rest"
            return Installed(_where(service), unfinished, complete=False, report=seeded)
        return Installed(_where(service), cached, report=seeded)
    finally:
        service.close()


def _where(service: GitaService) -> Path | str:
    """The SQLite cache's file, or the PostgreSQL database as an answer may name it."""
    url = service.settings.database_url
    if url is None:
        return service.sqlite_cache().path
    from pramana.store.postgres import describe

    return describe(url)


def doctor() -> list[ServerStatus]:
    from dataclasses import replace

    from pramana.doctor import embeddings_extra

    return [replace(check_gita(), optional=embeddings_extra("questions ranked by meaning"))]


def check_gita() -> ServerStatus:
    from pramana.config import GitaSettings
    from pramana.doctor import ServerStatus, file_size, read_safely
    from pramana.gita.store import GitaStore
    from pramana.install import command

    settings = GitaSettings.load()
    path = settings.resolved_db_path()
    packaged = "the Sanskrit of all 701 verses (packaged): lookup and match work"
    if settings.database_url:
        return _check_gita_postgres(settings, packaged)
    if not path.is_file():
        seed = f"{command('gita seed')}  (the translations: seconds to a minute)"
        books = f"SB, CC not installed (optional: {command('gita install sb cc')})"
        return ServerStatus("gita", True, str(path), 0, f"{packaged}; no translations yet; {books}", seed)

    def count() -> str:
        with closing(GitaStore(path, read_only=True)) as store:
            return json.dumps([store.verse_count(), _books(store)])

    read, problem = read_safely(count)
    if problem is not None:
        remedy = (
            f"{command('gita lookup 2.47')}  (upgrades the cache in place)"
            if _older_gita_cache(path)
            else f"move {path} aside, then: {command('gita seed')}"
        )
        has = f"{packaged}; cache unreadable: {problem}"
        return ServerStatus("gita", True, str(path), file_size(path), has, remedy)
    verses, books = json.loads(read or '[0, ""]')
    missing = "" if verses >= GITA_VERSES else f"{command('gita seed')}  (fetches only the missing verses)"
    has = f"{packaged}; translations of {verses} of {GITA_VERSES} verses; {books}"
    return ServerStatus("gita", True, str(path), file_size(path), has, missing)


def _check_gita_postgres(settings: GitaSettings, packaged: str) -> ServerStatus:
    """The gita store on PostgreSQL (PRAMANA_DATABASE_URL): reachable, and what it holds."""
    from pramana.doctor import ServerStatus
    from pramana.errors import PramanaError
    from pramana.gita.stores import open_store
    from pramana.store.postgres import DatabaseUnavailableError

    try:
        store = open_store(settings, read_only=True)
    except PramanaError as exc:  # the postgres extra is missing
        return ServerStatus("gita", True, "PostgreSQL", 0, f"{packaged}; {exc}", str(exc))
    with closing(store):
        try:
            verses, books = store.verse_count(), _books(store)
        except DatabaseUnavailableError as exc:
            fix = "start PostgreSQL, or check PRAMANA_DATABASE_URL"
            return ServerStatus("gita", True, store.location, 0, f"{packaged}; {exc}", fix)
        except PramanaError as exc:
            seed = "pramana gita seed --database-url URL  (with a role that may create tables)"
            return ServerStatus("gita", True, store.location, 0, f"{packaged}; {exc}", seed)
    missing = "" if verses >= GITA_VERSES else "pramana gita seed  (fetches only the missing verses)"
    has = f"{packaged}; translations of {verses} of {GITA_VERSES} verses; {books}"
    return ServerStatus("gita", True, store.location, 0, has, missing)


def _books(store: Any) -> str:
    """Each installable book: installed (verses, chapters, translations, upstream commit), or how to."""
    from pramana.gita.books import INSTALLABLE
    from pramana.install import command

    installed = store.installed_books()
    parts = []
    for book in INSTALLABLE:
        found = installed.get(book.code)
        if found is None:
            parts.append(f"{book.code} not installed (optional: {command(f'gita install {book.slug}')})")
            continue
        translations = f", {found.translations:,} translations" if found.translations else ", no translations"
        parts.append(
            f"{book.code} {found.verses:,} verses in {found.chapters} chapters{translations}"
            f" (commit {found.version[:8]}, installed {found.installed_at})"
        )
    return "; ".join(parts)


def _older_gita_cache(path: Path) -> bool:
    """A cache an earlier pramana made: any gita command that opens it writable migrates it."""
    from pramana.gita.store import MIGRATIONS
    from pramana.store.sqlite import connect, schema_version

    try:
        with closing(connect(path, read_only=True)) as conn:
            return 0 < schema_version(conn) < len(MIGRATIONS)
    except sqlite3.Error:
        return False
