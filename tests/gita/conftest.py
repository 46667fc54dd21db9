"""The service as the default install runs it (no embeddings); the installed books (SB and CC installed
once a session from the shared archive), a service over them, and its matcher over all three books
(26,000 verses, built once a session); caches aged to an older schema (aged_cache)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from pramana.config import GitaSettings
from pramana.gita.phonetic_matcher import PhoneticMatcher
from pramana.gita.service import GitaService
from tests.conftest import built_once, require_data
from tests.gita.scripture import ARCHIVE, ScriptureVerse, installed_verses


@pytest.fixture(scope="module")
def lexical(seeded_db: Path) -> Iterator[GitaService]:
    """The service without the embedding table, as the default install runs it (one a module)."""
    service = GitaService(
        GitaSettings(db_path=seeded_db, api_url="http://127.0.0.1:9"), embedder_factory=lambda: None
    )
    yield service
    service.close()


@pytest.fixture(scope="session")
def scripture_archive() -> Path:
    """The shared copy of upstream's archive (../shared/data/scripture, PROVENANCE.md)."""
    return require_data(*ARCHIVE.parts)


@pytest.fixture(scope="session")
def books_db(tmp_path_factory: pytest.TempPathFactory, seeded_db: Path, scripture_archive: Path) -> Path:
    """The seeded Gita cache with SB and CC installed from the shared archive, once per run; copy it
    before writing."""

    def build(folder: Path) -> None:
        shutil.copy(seeded_db, folder / "gita.db")
        service = GitaService(GitaSettings(db_path=folder / "gita.db"))
        result = service.install_books(["sb", "cc"], str(scripture_archive))
        service.close()
        assert [book.installed_now for book in result.books] == [True, True]

    return built_once(tmp_path_factory, "books", build) / "gita.db"


@pytest.fixture
def books_copy(books_db: Path, tmp_path: Path) -> Path:
    target = tmp_path / "gita.db"
    shutil.copy(books_db, target)
    return target


@pytest.fixture(scope="session")
def books(books_db: Path, mirror_url: str) -> Iterator[GitaService]:
    """One service over the books, for reading (its matcher over 26,000 verses is built once)."""
    service = GitaService(GitaSettings(db_path=books_db, api_url=mirror_url))
    yield service
    service.close()


@pytest.fixture(scope="session")
def scripture(books_db: Path) -> tuple[ScriptureVerse, ...]:
    """Every SB and CC text as installed, in book order."""
    return installed_verses(books_db)


@pytest.fixture(scope="session")
def every_book(books: GitaService) -> PhoneticMatcher:
    """The service's one matcher over the Gītā, then SB, then CC (every match test shares it)."""
    matcher = books.matcher()
    assert isinstance(matcher, PhoneticMatcher)
    return matcher


@pytest.fixture(scope="session")
def books_postgres(postgres_cluster, seeded_postgres: str, scripture_archive: Path) -> str:
    """The seeded Gita schema with SB and CC installed from the shared archive, as books_db is."""
    from tests.conftest import new_schema

    url = new_schema(postgres_cluster, copy_of=seeded_postgres)
    service = GitaService(GitaSettings(database_url=url))
    result = service.install_books(["sb", "cc"], str(scripture_archive))
    service.close()
    assert [book.installed_now for book in result.books] == [True, True]
    return url


BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def gita_settings(backend: str, tmp_path: Path, request: pytest.FixtureRequest):
    """GitaSettings(**values) for a new, empty store of the test's backend."""

    def make(**values: object) -> GitaSettings:
        if backend == "sqlite":
            return GitaSettings(db_path=tmp_path / "c.db", **values)
        from tests.conftest import new_schema

        # db_path: where this replica keeps what it derives (term indexes), the test's own folder
        url = new_schema(request.getfixturevalue("postgres_cluster"))
        return GitaSettings(database_url=url, db_path=tmp_path / "c.db", **values)

    return make


@pytest.fixture
def seeded_settings(backend: str, tmp_path: Path, request: pytest.FixtureRequest):
    """GitaSettings(**values) for a private copy of the seeded store of the test's backend."""

    def make(**values: object) -> GitaSettings:
        if backend == "sqlite":
            target = tmp_path / "seeded.db"
            if not target.exists():
                shutil.copy(request.getfixturevalue("seeded_db"), target)
            return GitaSettings(db_path=target, **values)
        from tests.conftest import new_schema

        cluster = request.getfixturevalue("postgres_cluster")
        url = new_schema(cluster, copy_of=request.getfixturevalue("seeded_postgres"))
        return GitaSettings(database_url=url, db_path=tmp_path / "seeded.db", **values)

    return make


def service_over(backend: str, request: pytest.FixtureRequest, sqlite_fixture: str, postgres_fixture: str,
                 **values: object) -> GitaService:  # fmt: skip
    if backend == "sqlite":
        return GitaService(GitaSettings(db_path=request.getfixturevalue(sqlite_fixture), **values))
    return GitaService(GitaSettings(database_url=request.getfixturevalue(postgres_fixture), **values))


# A statement for aged_cache: SQL, or SQL and its parameters.
Statement = str | tuple[str, tuple[object, ...]]


def aged_cache(path: Path, version: int, *statements: Statement) -> None:
    """The SQLite cache at `path` as an older schema left it: `statements` run on it, one each, and its
    schema version (`PRAGMA user_version`) set to `version`, so that opening it migrates it again."""
    conn = sqlite3.connect(path)
    try:
        for statement in statements:
            sql, parameters = (statement, ()) if isinstance(statement, str) else statement
            conn.execute(sql, parameters)
        conn.execute(f"PRAGMA user_version = {int(version)}")
        conn.commit()
    finally:
        conn.close()
