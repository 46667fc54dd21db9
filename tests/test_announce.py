"""Long first-run steps say, before they start, what they are, how big and how long, and how to skip
or shrink them; the time printed at the end is the wall time the user waited."""

from __future__ import annotations

import re

import pytest

from tests.conftest import run_pramana


@pytest.mark.data
def test_a_sanskrit_install_announces_its_steps_and_how_to_skip_the_long_one(tmp_path, csl_data):
    env = {"PRAMANA_DATA_DIR": str(tmp_path), "SANSKRIT_DB_PATH": ""}
    shown = run_pramana("sanskrit", "install", "acsj", "--source", str(csl_data), "--no-forms", env=env)
    assert shown.returncode == 0, shown.stderr
    first = shown.stderr.splitlines()[0]
    assert first.startswith(f"Installing acsj from {csl_data}: one text file each")
    assert "--no-forms" not in first  # skipped already: nothing to announce about it
    assert re.search(r"^done in \d+ s$", shown.stdout, flags=re.MULTILINE)


def test_the_forms_announcement_names_the_cost_and_the_way_out():
    from pramana.sanskrit.cli import FORMS_COST

    assert "seconds" in FORMS_COST and "20 MB" in FORMS_COST


@pytest.mark.data
def test_a_gita_seed_announces_what_it_fetches_and_says_nothing_when_all_is_cached(tmp_path, gita_mirror):
    env = {"PRAMANA_DATA_DIR": str(tmp_path), "VEDABASE_DB_PATH": ""}
    first = run_pramana("gita", "seed", "--source", str(gita_mirror), env=env)
    assert first.returncode == 0, first.stderr
    plan = f"Seeding the translations of 701 verses and the 18 chapters from {gita_mirror}"
    assert first.stderr.startswith(plan)
    assert re.search(r"^done in \d+ s$", first.stderr, flags=re.MULTILINE)
    again = run_pramana("gita", "seed", env=env)  # the remembered source; nothing missing
    assert again.returncode == 0 and "Seeding" not in again.stderr and "done in" not in again.stderr
