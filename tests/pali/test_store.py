"""Opening a dpd.db wherever it lives."""

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from pramana.pali.source import build
from pramana.pali.store import PaliStore


def test_a_path_with_url_characters_is_built_and_opened_read_only(tmp_path, tiny_backup):
    # In a sqlite:/// URL, `?mode=rwc` would become the query (read-write, creating a file) and
    # `#` would cut the path: a folder named like this must still mean just this file.
    folder = tmp_path / "data?mode=rwc#x"
    target = folder / "dpd.db"
    build(tiny_backup, target)
    store = PaliStore(target)
    try:
        assert store.headword_count() == 1
        assert "dhammo" in store.lookups(["dhammo"])
        with pytest.raises(OperationalError, match="readonly"), store.engine.connect() as conn:
            conn.execute(text("DELETE FROM dpd_headwords"))
    finally:
        store.close()
    made = sorted(path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*") if path.is_file())
    assert [name for name in made if not name.startswith("backup/")] == ["data?mode=rwc#x/dpd.db"]
