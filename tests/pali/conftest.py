"""Fixtures for the pali tests: the shared DPD data and a database built from it once per session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pramana.pali.service import PaliService
from pramana.pali.source import build
from tests.conftest import built_once

PASSAGES = ["DHP211", "TH215", "AN3.33_p1", "MN41_p2", "SN15.1_p2"]


@pytest.fixture(scope="session")
def pali(dpd_db: Path) -> PaliService:
    return PaliService(dpd_db)


def passage(dpd_data: Path, name: str) -> tuple[list[dict], list[list]]:
    """DPD's analyzer output for a real passage: (study analysis per token, distilled choice per token)."""
    folder = dpd_data / "dpd-db" / "analysis_fixtures" / name
    study = json.loads((folder / "study.json").read_text("utf-8"))["analysis"]
    distilled = json.loads((folder / "distilled.json").read_text("utf-8"))
    return study, distilled


@pytest.fixture
def tiny_backup(tmp_path: Path, dpd_data: Path) -> Path:
    """DPD backup files with one headword (dhamma 1.01) and the inflection templates: builds in a second."""
    folder = tmp_path / "backup"
    folder.mkdir()
    shutil.copyfile(dpd_data / "dpd-db" / "inflection_templates.json", folder / "inflection_templates.json")
    (folder / "dpd_headwords.tsv").write_text(
        '"id"\t"lemma_1"\t"pos"\t"stem"\t"pattern"\t"meaning_1"\n'
        '"34626"\t"dhamma 1.01"\t"masc"\t"dhamm"\t"a masc"\t"nature; character"\n',
        encoding="utf-8",
    )
    return folder


@pytest.fixture(scope="session")
def pali_any_edition(tmp_path_factory: pytest.TempPathFactory, dpd_data: Path) -> PaliService:
    """A database built without SuttaCentral's lookup keys (lookup_subset.tsv), as for any other edition,
    from a folder whose data are symlinked folders and files (as a backup folder often is)."""

    def build_any_edition(folder: Path) -> None:
        (folder / "dpd-db").symlink_to(dpd_data / "dpd-db", target_is_directory=True)
        (folder / "headwords").mkdir()
        (folder / "headwords" / "dpd_headwords.tsv").symlink_to(
            dpd_data / "ms-dpd-subset" / "dpd_headwords_subset.tsv"
        )
        build(folder, folder / "dpd.db")

    return PaliService(built_once(tmp_path_factory, "any-edition", build_any_edition) / "dpd.db")
