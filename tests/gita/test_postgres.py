"""The gita store on PostgreSQL as several replicas share it: writes from many at once, what one
fetches seen by all, a read-only role, an empty database, and faults (down at start, restarted
under load, slow queries, a full pool). A real server: the session's own cluster (conftest.py)."""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest

from benchmarks._http_server import running_server
from benchmarks._mcp_client import http_session
from benchmarks._postgres_server import database_of, schema_of
from pramana import work
from pramana.config import GitaSettings
from pramana.errors import NotReadyError
from pramana.gita.book_source import BookData, BookVerse
from pramana.gita.books import BOOKS
from pramana.gita.reference import ChapterRef, VerseRef
from pramana.gita.service import GitaService
from pramana.gita.source import parse_verse
from pramana.gita.store_postgres import PostgresGitaStore
from pramana.store.postgres import DatabaseUnavailableError
from pramana.store.sqlite import StoreError
from tests.conftest import eventually, new_schema


def _counts(url: str) -> dict[str, int]:
    """Rows per gita table, counted by PostgreSQL itself."""
    tables = ["verses", "verse_texts", "verse_search", "verse_words", "chapters", "books", "book_verses",
              "book_words"]  # fmt: skip
    with psycopg.connect(url) as conn:
        return {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables}  # type: ignore[index]


def _records(gita_mirror: Path, chapters: range) -> list:  # type: ignore[type-arg]
    from pramana.gita.reference import VERSES_PER_CHAPTER

    found = []
    for chapter in chapters:
        for verse in range(1, VERSES_PER_CHAPTER[chapter - 1] + 1):
            doc = json.loads(
                (gita_mirror / "slok" / str(chapter) / str(verse) / "index.json").read_text("utf-8")
            )
            found.append(parse_verse(doc, VerseRef(chapter, verse)))
    return found


def test_replicas_writing_the_same_verses_at_once_write_each_row_once(postgres_cluster, gita_mirror):
    """Two replicas seeding together: every verse written by both, in opposite orders, from four
    threads each; the rows are those one writer leaves, none twice, none lost."""
    records = _records(gita_mirror, range(1, 4))
    alone_url = new_schema(postgres_cluster)
    alone = PostgresGitaStore(alone_url)
    for record in records:
        alone.save_verse(record)
    shared_url = new_schema(postgres_cluster)
    replicas = [PostgresGitaStore(shared_url), PostgresGitaStore(shared_url)]
    try:
        with ThreadPoolExecutor(8) as pool:
            jobs = [pool.submit(replicas[i % 2].save_verse, record)
                    for order in (records, records[::-1]) for i, record in enumerate(order)]  # fmt: skip
            for job in jobs:
                job.result()
        assert _counts(shared_url) == _counts(alone_url)
        assert _counts(shared_url)["verses"] == len(records)
        assert replicas[0].search("karmanyevadhikaraste", 3)[0].ref == VerseRef(2, 47)
    finally:
        for store in [alone, *replicas]:
            store.close()


def test_a_verse_fetched_by_one_replica_is_served_by_the_others(postgres_url, mirror_url):
    fetching = GitaService(GitaSettings(database_url=postgres_url, api_url=mirror_url))
    offline = GitaService(
        GitaSettings(database_url=postgres_url, api_url="http://127.0.0.1:9", http_retries=1)
    )
    try:
        assert offline.store.verse_count() == 0 and eventually(lambda: offline.store.db.listening)
        assert fetching.lookup("BG 15.7").translation is not None  # a cache miss: fetched, stored
        assert eventually(lambda: offline.store.verse_count() == 1)  # told by NOTIFY, not polled
        served = offline.lookup("BG 15.7")  # this replica cannot reach the source
        assert served.translation is not None and served.notes == []
    finally:
        fetching.close()
        offline.close()


def _small_book(store: PostgresGitaStore, code: str, chapters: list[ChapterRef]) -> BookData:
    """Part of an installed book, as an install would write it (replace_book checks no structure)."""
    verses = [
        BookVerse(v.ref, v.transliteration, v.translation, v.synonyms, v.prose)
        for chapter in chapters
        for v in store.book_chapter(chapter)
    ]
    return BookData(BOOKS[code], verses)


@pytest.mark.data
def test_installs_at_once_keep_one_copy_and_every_replica_matches_the_new_book(
    postgres_cluster, books_postgres, postgres_url, books_db
):
    from pramana.gita.store import GitaStore

    source = PostgresGitaStore(books_postgres)
    # What the matcher reads from the store is the same on both backends.
    assert source.book_transliterations(["SB", "CC"]) == GitaStore(
        books_db, read_only=True
    ).book_transliterations(["SB", "CC"])
    chapters = [ChapterRef(17, "CC", 1), ChapterRef(20, "CC", 2)]
    data = _small_book(source, "CC", chapters)
    source.close()
    reader = GitaService(GitaSettings(database_url=postgres_url))
    writers = [PostgresGitaStore(postgres_url) for _ in range(2)]
    try:
        assert reader.available_books() == ["BG"]
        with ThreadPoolExecutor(2) as pool:
            installed = list(
                pool.map(lambda s: s.replace_book(data, "v1", "test", {}, keep_existing=True), writers)
            )
        assert installed[0] == installed[1]  # the second waited, then kept the first one's book
        counts = _counts(postgres_url)
        assert (counts["books"], counts["book_verses"]) == (1, len(data.verses))
        with ThreadPoolExecutor(2) as pool:  # forced, both replace: still one copy
            list(pool.map(lambda s: s.replace_book(data, "v2", "test", {}), writers))
        assert _counts(postgres_url) == counts
        assert eventually(lambda: reader.available_books() == ["BG", "CC"])
        found = reader.match("tṛṇād api su-nīcena taror api sahiṣṇunā", books=["cc"])
        assert found.matches[0].ref == "CC Ādi 17.31"
    finally:
        reader.close()
        for store in writers:
            store.close()


def _reader_url(postgres_cluster, url: str, *, grant: bool = True) -> str:  # type: ignore[no-untyped-def]
    database, schema = database_of(url), schema_of(url)
    role = f"reader_{database}_{schema}"
    postgres_cluster.sql(f"CREATE ROLE {role} LOGIN", database=database)
    postgres_cluster.sql(f"GRANT USAGE ON SCHEMA {schema} TO {role}", database=database)
    if grant:
        postgres_cluster.sql(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {role}", database=database)
    return postgres_cluster.url(database, user=role, options=f"-csearch_path%3D{schema}")


def test_a_read_only_role_serves_and_says_what_it_cannot_do(postgres_cluster, seeded_postgres, mirror_url):
    url = _reader_url(postgres_cluster, new_schema(postgres_cluster, copy_of=seeded_postgres))
    service = GitaService(GitaSettings(database_url=url, api_url=mirror_url))
    try:
        assert service.store.read_only
        assert service.lookup("BG 2.47").translation.author_key == "prabhu"
        assert service.search("how can I control my restless mind?", 3).results[0].ref.startswith("BG 6.")
        assert service.chapter_summary(2).source == "live"  # answered; not written
        with pytest.raises(NotReadyError, match="read-only for this process"):
            service.seed()
        with pytest.raises(NotReadyError, match="read-only"):
            service.install_books(["cc"], "/nowhere")
    finally:
        service.close()


def test_an_empty_database_says_how_to_fill_it(postgres_cluster, postgres_url):
    from pramana.mcp.servers import build

    empty_reader = GitaService(GitaSettings(database_url=_reader_url(postgres_cluster, postgres_url)))
    with pytest.raises(StoreError, match=r"no pramana tables yet.*pramana gita seed --database-url"):
        empty_reader.lookup("BG 2.47")
    empty_reader.close()
    served = build(["gita"], {"gita": GitaSettings(database_url=postgres_url)}, worker_processes=False)
    state = served.readiness()["gita"]
    assert state.ready and "pramana gita seed --database-url URL" in state.detail
    assert state.database is not None and state.database["pool_max"] == 10


def test_a_slow_query_ends_at_the_calls_deadline(postgres_url):
    store = PostgresGitaStore(postgres_url)
    store.verse_count()  # migrated, connected
    with psycopg.connect(postgres_url) as locker:
        locker.execute("LOCK TABLE verses IN ACCESS EXCLUSIVE MODE")  # holds until the block ends
        with work.deadline(0.5), pytest.raises(StoreError, match="did not answer within the time"):
            store.cached_refs()
    assert store.cached_refs() == set()  # the connection went back to the pool, usable
    store.close()


def test_the_pool_is_sized_by_settings_and_a_full_pool_is_a_clear_error(postgres_url):
    settings = GitaSettings(database_url=postgres_url, database_pool_max=1, database_pool_wait=0.3)
    store = PostgresGitaStore(postgres_url, settings.pool_settings())
    store.verse_count()
    assert store.state()["pool_max"] == 1
    with store.db.transaction(), pytest.raises(StoreError, match=r"all 1 connections .* are busy"):
        store.cached_refs()
    store.close()


def test_down_at_start_then_restarted_under_load(postgres_cluster, seeded_postgres, mirror_url):
    """PostgreSQL down when the server starts: /ready 503 saying why, calls answered with the reason;
    up again: ready, without restarting pramana. Restarted while calls run: those in flight fail
    with a clear error, the next ones succeed."""
    url = new_schema(postgres_cluster, copy_of=seeded_postgres)
    postgres_cluster.stop()
    try:
        with running_server(
            ["gita"],
            env={
                "PRAMANA_DATABASE_URL": url,
                "VEDABASE_API_URL": mirror_url,
                "PRAMANA_DATABASE_POOL_WAIT": "1",
            },
        ) as server:
            ready = httpx.get(server.base + "/ready", timeout=30)
            assert ready.status_code == 503
            gita = ready.json()["servers"]["gita"]
            assert "cannot be reached" in gita["detail"] and gita["database"]["idle"] == 0
            assert "/tmp" not in ready.text  # no server path in what a remote client sees
            down = asyncio.run(_call(server.mcp_url, "lookup_verse", {"reference": "BG 2.47"}))
            assert down.is_error and "cannot be reached" in down.content[0].text
            postgres_cluster.start()
            assert eventually(lambda: httpx.get(server.base + "/ready", timeout=30).status_code == 200, 30)
            up = asyncio.run(_call(server.mcp_url, "lookup_verse", {"reference": "BG 2.47"}))
            assert not up.is_error and up.structured_content["translation"]["author_key"] == "prabhu"
    finally:
        if not postgres_cluster.is_running():
            postgres_cluster.start()

    service = GitaService(GitaSettings(database_url=url, api_url=mirror_url))
    with ThreadPoolExecutor(4) as pool:  # the pool holds a few connections
        assert all(pool.map(lambda _: service.lookup("BG 2.47").translation, range(8)))
    failures: list[Exception] = []

    # The lock is held by a prepared transaction: it outlives every session, so the restart, not the
    # lock's holder going away first, is what ends the call that waits on it.
    with psycopg.connect(url) as locker:
        locker.execute("LOCK TABLE verses IN ACCESS EXCLUSIVE MODE")
        locker.execute("PREPARE TRANSACTION 'restart_test'")

    def blocked_call() -> None:
        try:
            service.store.cached_refs()
        except StoreError as exc:
            failures.append(exc)

    caller = threading.Thread(target=blocked_call)
    caller.start()
    # The call is inside PostgreSQL (its own query: another thread of the service may wait too).
    assert eventually(lambda: _waiting_on_a_lock(url, "SELECT ref FROM verses"), 30)
    postgres_cluster.restart()
    caller.join(30)
    with psycopg.connect(url, autocommit=True) as conn:  # the lock goes: later calls may read
        conn.execute("ROLLBACK PREPARED 'restart_test'")
    assert len(failures) == 1 and isinstance(failures[0], DatabaseUnavailableError)
    assert "PostgreSQL may be restarting" in str(failures[0])
    for _ in range(3):  # the pool's connections died with the server: replaced as they are taken
        assert service.lookup("BG 2.47").translation is not None
    assert service.store.state()["connections_lost"] >= 1
    service.close()


def _waiting_on_a_lock(url: str, query: str) -> bool:
    """Whether a session of this database waits on a lock running `query`."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database() AND query = %s",
            (query,),
        ).fetchone()
    return bool(row and row[0])


async def _call(url: str, tool: str, arguments: dict):  # type: ignore[no-untyped-def]
    async with http_session(url) as session:
        return await session.call_tool(tool, arguments)


def test_a_database_url_must_be_postgresql():
    from pramana.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="postgresql://"):
        GitaSettings.load(database_url="mysql://somewhere/db")
    assert GitaSettings.load(database_url="postgresql://u@h/db").backend() == "postgresql"
    assert GitaSettings.load().backend() == "sqlite"


def test_pramana_install_gita_fills_a_postgres_database_and_names_it_without_credentials(
    postgres_cluster, gita_mirror
):
    from pramana import servers as registry

    url = new_schema(postgres_cluster)
    installed = registry.server("gita").install(
        GitaSettings(database_url=url), registry.Source(str(gita_mirror)), lambda *r: None
    )
    assert installed.detail == "701 of 701 verses"
    assert str(installed.path).startswith("the PostgreSQL database")
    assert "password" not in str(installed.path) and "@" not in str(installed.path)
    assert _counts(url)["verses"] == 701
