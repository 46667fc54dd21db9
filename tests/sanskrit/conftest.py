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
