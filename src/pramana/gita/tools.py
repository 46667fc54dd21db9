"""The `gita` MCP server: the five tools of the vedabase-mcp spec."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from pramana import work
from pramana.config import GitaSettings
from pramana.errors import PramanaError
from pramana.gita import format, models
from pramana.gita.books import BOOKS
from pramana.gita.reference import MAX_REFERENCE_LENGTH
from pramana.gita.service import (
    MAX_GARBLED_CHARS,
    MAX_QUERY_CHARS,
    MAX_TRANSCRIPT_CHARS,
    SEED_HINT,
    VERSE_COUNT,
    GitaService,
)
from pramana.install import command
from pramana.mcp.calls import progress_reporter, tool_call
from pramana.mcp.tools import READ_ONLY, Readiness, result

log = logging.getLogger(__name__)

Translator = Annotated[
    str | None,
    Field(
        description="Author key or name, e.g. 'prabhu' (default), 'siva', 'Gambirananda', 'Shankaracharya'",
        max_length=100,
    ),
]

Books = Annotated[
    list[Annotated[str, Field(max_length=40)]] | None,
    Field(
        description="Only these books: 'BG', 'SB', 'CC' (default: the Gita and every installed book)",
        max_length=len(BOOKS),
    ),
]

SEED = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=True)


# Seeding fetches 719 documents; a stopped seed keeps what it fetched, and the next one resumes.
SEED_DEADLINE_S = 900.0
# A lookup that misses the cache, and a chapter summary, wait for the source (with retries).
FETCH_DEADLINE_S = 30.0
# /ready answers within this, whatever the database does.
READY_DEADLINE_S = 2.0
# Installing downloads 26 MB and reads 25,000 files; a stopped download resumes next time.
INSTALL_DEADLINE_S = 900.0


def tools(server: MCPServer, opened: Callable[[], GitaService]) -> None:
    """Add the gita tools to `server` (the service opens at once: the packaged Sanskrit answers
    without a cache)."""
    service = opened()
    service.warm_up()  # the matcher and the search indexes, in the background: see GitaService.warm_up
    try:
        if service.settings.database_url and service.store.verse_count() == 0:
            log.warning("gita: %s", _empty_database_hint(service))
    except PramanaError as exc:  # PostgreSQL down: served all the same, /ready says why until it is back
        log.error("gita: %s; serving anyway: /ready answers 503 until the database can be reached", exc)

    def changed(what: str) -> None:
        if what == "books":  # another replica installed a book: the matcher and the indexes take it in
            service.warm_up()

    service.store.on_change(changed)

    @server.tool(annotations=READ_ONLY)
    @tool_call(FETCH_DEADLINE_S)
    def lookup_verse(
        reference: Annotated[
            str,
            Field(
                description="Verse reference: 'BG 2.47', '2:47', 'bg 15-7', 'Bhagavad Gita 9.34',"
                " 'SB 1.2.6', 'Bhāg. 10.1.5-7', 'CC Ādi 17.31', 'Cc. Madhya 20.108-109'",
                max_length=MAX_REFERENCE_LENGTH,
            ),
        ],
        translator: Translator = None,
    ) -> Annotated[CallToolResult, models.Verse]:
        """Fetch one verse by reference: the Bhagavad Gita's (Devanāgarī, IAST, a translation,
        Prabhupada's unless `translator` names another author), or an installed SB or CC verse (IAST, and
        the translation where the cache has one), with its vedabase.io link. A verse of joined verses
        (SB 10.1.6 of SB 10.1.5-7) gives the joined text and says so. With the Gita's translation not
        cached and the source unreachable, the Sanskrit alone, with a note."""
        verse = service.lookup(reference, translator)
        return result(format.verse_markdown(verse), verse)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def search_verses(
        query: Annotated[
            str,
            Field(
                description="Words to find, in English, Hindi, IAST or ASCII Sanskrit, or Devanāgarī",
                max_length=MAX_QUERY_CHARS,
            ),
        ],
        max_results: Annotated[int, Field(ge=1, le=10, description="How many verses, 1-10")] = 5,
        translator: Translator = None,
        books: Books = None,
    ) -> Annotated[CallToolResult, models.SearchResult]:
        """Search the verses of every book (or `books`), best first: a question in plain English ('how
        can I control my restless mind?'), keywords, or Sanskrit with or without diacritics, joined or not
        ('karmanyevadhikaraste', 'karmanye vadhikaraste', 'krishna') or in Devanāgarī. Each result names
        its book. The Gita needs seed_database once; SB and CC, install_books."""
        found = service.search(query, max_results, translator, books)
        return result(format.search_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call(heavy=True)  # 2,000 characters of garble are scored against every verse
    def fuzzy_match_verse(
        garbled_sanskrit: Annotated[
            str,
            Field(
                description="Sanskrit as a transcript wrote it, e.g. 'man manā bhava mad-bhākto'",
                max_length=MAX_GARBLED_CHARS,
            ),
        ],
        top_n: Annotated[int, Field(ge=1, le=5, description="How many candidates, 1-5")] = 3,
        translator: Translator = None,
        books: Books = None,
    ) -> Annotated[CallToolResult, models.MatchResult]:
        """Identify the verse that garbled or phonetic Sanskrit (from lecture transcripts) comes from, in
        the Gita and every installed book (or only `books`). Returns ranked candidates with scores in
        [0, 1], each naming its book, the words of the verse each matched, and the top one in full.
        `confident` is true only when the top match is reliable; otherwise treat the candidates as
        guesses. Works over all 701 Gita verses without seed_database."""
        matched = service.match(garbled_sanskrit, top_n, translator, books)
        return result(format.match_markdown(matched), matched)

    @server.tool(annotations=READ_ONLY)
    @tool_call(heavy=True)  # a megabyte of transcript is seconds of CPU
    def correct_transcript(
        text: Annotated[
            str,
            Field(
                description="Lecture transcript: English with garbled Sanskrit quotes (max 1,000,000 chars)",
                max_length=MAX_TRANSCRIPT_CHARS,
            ),
        ],
        books: Books = None,
    ) -> Annotated[CallToolResult, models.TranscriptCorrection]:
        """Find the verse quotes in a transcript (from the Gita and every installed book, or `books`) and
        correct them: each confident quote is replaced by the verse's words in IAST and its reference,
        e.g. '_karmaṇyevādhikāraste_ (BG 2.47)', '_sa vai puṁsāṁ paro dharmo_ (SB 1.2.6)'; unsure ones are
        flagged in place ('[unsure: BG 2.47?]') and never replaced. Also lists every span found."""
        corrected = service.correct_transcript(text, books)
        return result(format.transcript_markdown(corrected), corrected)

    @server.tool(annotations=READ_ONLY)
    @tool_call(FETCH_DEADLINE_S)
    def get_chapter_summary(
        chapter: Annotated[int, Field(ge=1, le=18, description="Chapter number, 1-18")],
    ) -> Annotated[CallToolResult, models.Chapter]:
        """Chapter name (Sanskrit and English), meaning, verse count and summary. Fetched fresh from the
        source; the cached copy is served, with a note, when the source cannot be reached."""
        chapter_info = service.chapter_summary(chapter)
        return result(format.chapter_markdown(chapter_info), chapter_info)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def get_chapter(
        chapter: Annotated[
            str,
            Field(
                description="Chapter reference: 'BG 2' (or '2'), 'SB 1.2', 'CC Madhya 20'",
                max_length=MAX_REFERENCE_LENGTH,
            ),
        ],
        translator: Translator = None,
    ) -> Annotated[CallToolResult, models.ChapterVerses]:
        """Every verse of one chapter, in order: its reference, IAST and the translation where the cache has
        one. Works for the Gita at once; SB and CC need install_books."""
        found = service.chapter(chapter, translator)
        return result(format.chapter_verses_markdown(found), found)

    @server.tool(annotations=SEED)
    @tool_call(INSTALL_DEADLINE_S, lane="long")
    def install_books(
        ctx: Context,
        books: Annotated[
            list[Annotated[str, Field(max_length=40)]],
            Field(
                description="The books to install: 'sb' (Srimad-Bhagavatam), 'cc' (Caitanya-caritamrta)",
                max_length=4,
            ),
        ] = ["sb", "cc"],  # noqa: B006 (a JSON default for the schema; never mutated)
        force: Annotated[bool, Field(description="Install again a book already installed")] = False,
    ) -> Annotated[CallToolResult, models.InstallResult]:
        """Install the Srimad-Bhagavatam and/or the Caitanya-caritamrta (their verses, and the
        translations where the source has them) from the server's configured source (upstream's
        archive by default, 26 MB). Checked whole before anything is served; resumable; a book already
        installed is left as it is unless `force`. Reports progress."""
        installed = service.install_books(books, progress=progress_reporter(ctx), force=force)
        if any(book.installed_now for book in installed.books):
            service.warm_up()  # the matcher and the search indexes over the new books
        return result(format.install_markdown(installed), installed)

    @server.tool(annotations=SEED)
    @tool_call(SEED_DEADLINE_S, lane="long")
    def seed_database(ctx: Context) -> Annotated[CallToolResult, models.SeedResult]:
        """Download all 701 verses and 18 chapters into the local cache. Resumable and idempotent:
        only what is missing is fetched, so run it again after a failure. Reports progress. Returns
        when the texts are stored; with the embeddings extra the server then encodes them in the
        background so that search_verses ranks questions by meaning (each search says how it ranked)."""

        seeded = service.seed(progress_reporter(ctx))
        return result(format.seed_markdown(seeded), seeded)


def readiness(service: GitaService) -> Readiness:
    """Ready from the start (the packaged Sanskrit answers lookups and matching); says what is cached,
    and on PostgreSQL the pool's state (not ready while the database cannot be reached)."""
    database = service.store.state() if service.settings.database_url else None
    try:
        # A load balancer's probe waits seconds at most, even while PostgreSQL cannot be reached.
        with work.deadline(READY_DEADLINE_S):
            cached = service.store.verse_count()
            books = service.store.installed_books()
    except PramanaError as exc:  # the database cannot be reached: not ready, with why and the pool
        return Readiness(ready=False, detail=str(exc), database=database)
    installed = f"; {' and '.join(books)} installed" if books else ""
    if cached == 0:
        # The packaged Sanskrit answers lookups and matching; only search needs the seed.
        hint = _empty_database_hint(service) if database else SEED_HINT
        return Readiness(
            ready=True,
            detail=f"no translations cached yet (search needs them). {hint}{installed}",
            database=database,
        )
    detail = f"{cached} of {VERSE_COUNT} verses cached{installed}"
    return Readiness(ready=True, detail=detail, database=database)


def _empty_database_hint(service: GitaService) -> str:
    return (
        f"{service.store.location} holds no translations yet: fill it once, from any one replica or"
        f" machine, with `{command('gita seed --database-url URL')}` (and `{command('gita install sb cc')}"
        " --database-url URL` for the Srimad-Bhagavatam and Caitanya-caritamrta), or the seed_database"
        " tool; every replica sees them at once"
    )


def warm_workers(settings: GitaSettings) -> bool:
    """Whether a worker process should start with the server: with SB and CC installed, building the
    matcher in a new process takes seconds, which a heavy call should not wait for (mcp/servers.py)."""
    from pramana.gita.stores import open_store

    if not settings.database_url and not settings.resolved_db_path().is_file():
        return False
    try:
        store = open_store(settings, read_only=True)
    except PramanaError:
        return False
    try:
        return bool(store.installed_books())
    except PramanaError:
        return False
    finally:
        store.close()


def main() -> None:
    """Run the gita server on stdio (`vedabase-mcp`); bad settings are one line on stderr, exit 2."""
    import sys

    from pramana import process
    from pramana.mcp.servers import build

    process.for_serving()
    try:
        served = build(["gita"])
    except PramanaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    process.freeze_loaded()
    served.server.run("stdio")
