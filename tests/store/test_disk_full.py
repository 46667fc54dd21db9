"""A full disk during a real install: one line naming the cause, the dictionaries installed before intact."""

from __future__ import annotations

import sqlite3

import pytest

from tests.conftest import run_pramana, small_filesystem

pytestmark = pytest.mark.data


def entries(db) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return dict(conn.execute("SELECT dict_code, count(*) FROM entries GROUP BY dict_code").fetchall())


def test_an_install_that_fills_the_disk_says_so_in_one_line_and_keeps_what_was_there(tmp_path, csl_data):
    # 1.6 MB: room for acph (163 entries), not for abch as well (its text alone is 0.6 MB).
    with small_filesystem(tmp_path / "disk", "1600k") as disk:
        env = {"PRAMANA_DATA_DIR": str(disk / "data")}
        install = ("sanskrit", "install", "--source", str(csl_data), "--no-forms")
        first = run_pramana(*install[:2], "acph", *install[2:], env=env)
        assert first.returncode == 0, first.stderr
        full = run_pramana(*install[:2], "abch", *install[2:], env=env)
        assert full.returncode == 2
        errors = [line for line in full.stderr.splitlines() if line.startswith("error:")]
        assert errors == [line for line in full.stderr.splitlines() if "error" in line.lower()]
        assert len(errors) == 1 and errors[0].startswith("error: no space left on the disk"), full.stderr
        assert "Traceback" not in full.stderr and "rollback" not in full.stderr
        assert entries(disk / "data" / "sanskrit.db") == {"acph": 163}
