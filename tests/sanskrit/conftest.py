"""Fixtures for the sanskrit tests: the shared csl data, a loopback server, an installed database."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from pramana.sanskrit.service import SanskritService
from pramana.sanskrit.source import install
from pramana.sanskrit.store import SanskritStore
from tests.conftest import LoopbackServer, StaticHandler, require_data

INSTALLED = ["ap90", "ccs", "krm", "nmmb"]


@pytest.fixture(scope="session")
def csl_data() -> Path:
    return require_data("sanskrit")


@pytest.fixture(scope="session")
def csl_url(csl_data: Path):
    with LoopbackServer(StaticHandler, csl_data) as server:
        yield server.url


@pytest.fixture(scope="session")
def sanskrit_db(tmp_path_factory: pytest.TempPathFactory, csl_url: str) -> Path:
    """ap90, ccs, krm and nmmb installed over loopback HTTP, once per session."""
    folder = tmp_path_factory.mktemp("sanskrit")
    store = SanskritStore(folder / "sanskrit.db")
    asyncio.run(install(store, INSTALLED, csl_url, folder / "downloads"))
    store.close()
    return folder / "sanskrit.db"


@pytest.fixture
def sanskrit(sanskrit_db: Path):
    service = SanskritService(sanskrit_db, read_only=True)
    yield service
    service.close()


@pytest.fixture
def sanskrit_copy(sanskrit_db: Path, tmp_path: Path) -> Path:
    target = tmp_path / "sanskrit.db"
    shutil.copy(sanskrit_db, target)
    return target
