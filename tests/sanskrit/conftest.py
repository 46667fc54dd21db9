"""Fixtures for the sanskrit tests (the installed database itself is built in tests/conftest.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pramana.sanskrit.service import SanskritService


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


@pytest.fixture(scope="session")
def forms_db(tmp_path_factory: pytest.TempPathFactory, csl_url: str) -> Path:
    """Lanman's reader vocabulary installed with the CLI over loopback HTTP, which then builds the form
    index (its stems, and the verbs of the Dhātupāṭha pramana ships)."""
    from tests.conftest import built_once, run_pramana

    def build(folder: Path) -> None:
        db = folder / "sanskrit.db"
        done = run_pramana("sanskrit", "install", "lan", "--source", csl_url, "--db", str(db), timeout=300)
        assert done.returncode == 0, done.stderr
        printed = " ".join(done.stdout.split())  # rich wraps long lines
        assert "form index:" in printed and "2,259 roots" in printed, done.stdout

    return built_once(tmp_path_factory, "forms", build) / "sanskrit.db"


@pytest.fixture
def forms(forms_db: Path):
    service = SanskritService(forms_db, read_only=True)
    yield service
    service.close()
