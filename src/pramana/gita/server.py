"""The gita server, declared (pramana.servers): the vedabase-mcp spec's tools over the verse cache."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pramana.servers import Installed, Progress, Server, Source

if TYPE_CHECKING:
    import typer
    from mcp.server.mcpserver import MCPServer

    from pramana.config import GitaSettings
    from pramana.doctor import ServerStatus
    from pramana.gita.service import GitaService
    from pramana.mcp.tools import Readiness

INSTRUCTIONS = """Verses of the Bhagavad Gita (the vedicscriptures dataset: 701 verses, 18 chapters, 22
translators and commentators) and, once installed, of the Srimad-Bhagavatam (SB) and the
Caitanya-caritamrta (CC). Use lookup_verse for a known reference ('BG 2.47', 'SB 1.2.6',
'CC Adi 17.31'), get_chapter for a chapter's verses, search_verses for questions, words or topics,
fuzzy_match_verse for Sanskrit garbled by a transcript, correct_transcript for a whole lecture. The
Gita's Sanskrit ships with the server, so its lookups, matching and transcript correction work at
once; its translations are cached as they are looked up (if search says the cache is empty, call
seed_database once). SB and CC need install_books once; every result names its book."""

GITA_VERSES = 701


def settings_class() -> type[GitaSettings]:
    from pramana.config import GitaSettings

    return GitaSettings


def install(settings: GitaSettings, source: Source, progress: Progress) -> Installed:
    """The translations of the Gita from `source.location` (default: the settings' source), or, with
    `parts` ('sb', 'cc'), those books from upstream's archive (or the copy `location` names)."""
    from pramana.errors import SourceError
    from pramana.gita.service import GitaService

    def reported(done: int, total: int, what: str) -> None:
        progress(what, done, total)

    if source.location is not None and not source.parts:
        settings = settings.model_copy(update={"api_url": source.location})
    service = GitaService(settings)
    try:
        if source.parts:
            books = service.install_books(list(source.parts), source.location, reported).books
            return Installed(_where(service), "; ".join(f"{b.book}: {b.verses:,} verses" for b in books))
        seeded = service.seed(reported)
        cached = f"{seeded.verses_cached} of {seeded.verses_expected} verses"
        if not seeded.complete:
            failed = (
                f"; {len(seeded.failures)} failed, e.g. {seeded.failures[0].item}: {seeded.failures[0].error}"
            )
            raise SourceError(
                f"{cached} cached{failed if seeded.failures else ''}; run it again for the rest"
            )
        return Installed(_where(service), cached)
    finally:
        service.close()


def _where(service: GitaService) -> Path | str:
    """The SQLite cache's file, or the PostgreSQL database as an answer may name it."""
    url = service.settings.database_url
    if url is None:
        return service.sqlite_cache().path
    from pramana.store.postgres import describe

    return describe(url)


def open_service(settings: GitaSettings) -> GitaService:
    """The served service: what a seed or an install changes (the search indexes, the question
    vectors) it rebuilds in the background."""
    from pramana.gita.service import GitaService

    return GitaService(settings, background=True)


def tools(server: MCPServer, service: Callable[[], GitaService]) -> None:
    from pramana.gita.tools import tools

    tools(server, service)


def ready(service: GitaService) -> Readiness:
    from pramana.gita.tools import readiness

    return readiness(service)


def warm_workers(settings: GitaSettings) -> bool:
    from pramana.gita.tools import warm_workers

    return warm_workers(settings)


def cli() -> typer.Typer:
    from pramana.gita.cli import app

    return app


def doctor() -> list[ServerStatus]:
    from dataclasses import replace

    from pramana.doctor import embeddings_extra

    return [replace(check_gita(), optional=embeddings_extra("questions ranked by meaning"))]


def check_gita() -> ServerStatus:
    from pramana.doctor import ServerStatus, file_size, read_safely
    from pramana.gita.store import GitaStore
    from pramana.install import command

    settings = settings_class().load()
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


SERVER = Server(
    name="gita",
    title="vedabase",
    settings=settings_class,
    instructions=INSTRUCTIONS,
    install=install,
    open=open_service,
    tools=tools,
    ready=ready,
    doctor=doctor,
    cli=cli,
    preload=("pramana.gita.tools",),
    warm_workers=warm_workers,
)
