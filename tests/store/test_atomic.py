"""Files written whole or not at all (pramana/store/atomic.py)."""

from __future__ import annotations

import pytest

from pramana.store.atomic import replacing, write_text


def test_the_new_file_replaces_the_old_only_when_whole(tmp_path):
    target = tmp_path / "deep" / "table.json"
    write_text(target, "old")
    with replacing(target) as fresh:
        fresh.write_text("new, half")
        assert target.read_text() == "old"  # readers see the old file while the new one is written
        assert fresh.parent == target.parent and fresh.name.startswith(".")
    assert target.read_text() == "new, half"
    assert [p.name for p in target.parent.iterdir()] == ["table.json"]


def test_an_error_while_writing_leaves_the_old_file_and_no_partial_one(tmp_path):
    target = tmp_path / "table.json"
    write_text(target, "old")
    with pytest.raises(OSError), replacing(target) as fresh:
        fresh.write_text("half")
        raise OSError(28, "No space left on device")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["table.json"]


def test_a_first_write_creates_its_folder(tmp_path):
    write_text(tmp_path / "a" / "b" / "c.txt", "x")
    assert (tmp_path / "a" / "b" / "c.txt").read_text() == "x"
