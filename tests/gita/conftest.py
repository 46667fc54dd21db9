"""The installed books (SB and CC from the shared archive), once per session."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pramana.config import GitaSettings
from pramana.gita.service import GitaService
from tests.conftest import require_data

ARCHIVE = "slides-2460884c-verses.tar.gz"


@pytest.fixture(scope="session")
def scripture_archive() -> Path:
    """The shared copy of upstream's archive (../shared/data/scripture, PROVENANCE.md)."""
    return require_data("scripture", ARCHIVE)


@pytest.fixture(scope="session")
def books_db(tmp_path_factory: pytest.TempPathFactory, seeded_db: Path, scripture_archive: Path) -> Path:
    """The seeded Gita cache with SB and CC installed from the shared archive; copy it before writing."""
    path = tmp_path_factory.mktemp("books") / "gita.db"
    shutil.copy(seeded_db, path)
    service = GitaService(GitaSettings(db_path=path))
    result = service.install_books(["sb", "cc"], str(scripture_archive))
    service.close()
    assert [book.installed_now for book in result.books] == [True, True]
    return path


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
