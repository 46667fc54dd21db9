"""What search holds in memory is saved with the index and loaded by the next process."""

from __future__ import annotations

import numpy as np
import pytest

from pramana.code.index.indexer import Indexer
from pramana.code.search.lexical import join_strings, pack_arrays, split_strings, unpack_arrays
from pramana.code.search.store import Filters
from pramana.code.store import CodeStore


@pytest.fixture
def indexed(fresh_repo, tmp_path, static):
    store = CodeStore(tmp_path / "code.db")
    Indexer(fresh_repo, store, static).run()
    store.lexical_index(), store.vector_matrix()  # built, and saved
    return store


def _no_rebuild(store: CodeStore, monkeypatch) -> None:
    def refuse(*args):  # type: ignore[no-untyped-def]
        raise AssertionError("rebuilt from the rows although a current snapshot was saved")

    monkeypatch.setattr(store, "_build_lexical", refuse)
    monkeypatch.setattr(store, "_collect_vectors", refuse)


def test_a_new_process_loads_what_the_last_one_built(indexed, monkeypatch):
    built_lexical, built_vectors = indexed.lexical_index(), indexed.vector_matrix()
    reopened = CodeStore(indexed.path)
    _no_rebuild(reopened, monkeypatch)
    loaded = reopened.lexical_index()
    assert loaded.ids == built_lexical.ids and loaded.heads == built_lexical.heads
    assert loaded.term_ids == built_lexical.term_ids
    for name in ("rowids", "start", "docs", "weights", "norms"):
        assert np.array_equal(getattr(loaded, name), getattr(built_lexical, name)), name
    vectors = reopened.vector_matrix()
    assert vectors.ids == built_vectors.ids and np.array_equal(vectors.matrix, built_vectors.matrix)
    words = ["apply", "discount"]
    assert reopened.keyword_search(words, Filters(), 5) == indexed.keyword_search(words, Filters(), 5)


def test_a_snapshot_of_an_older_index_is_not_used(indexed, fresh_repo, static):
    (fresh_repo / "packages/api/shop/zebra.py").write_text("def feed_the_zebra():\n    return 'hay'\n")
    Indexer(fresh_repo, CodeStore(indexed.path), static).run()
    reopened = CodeStore(indexed.path)
    assert [c for c, _ in reopened.keyword_search(["zebra"], Filters(), 5)] == [
        "packages/api/shop/zebra.py:1-2"
    ]
    assert any(chunk_id.endswith("zebra.py:1-2") for chunk_id in reopened.vector_matrix().ids)


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE snapshots SET data = x'00ff00' WHERE part = 'docs'",
        "UPDATE snapshots SET data = CAST('{\"ids\": [\"|O\", [3]]}' AS BLOB) WHERE part = 'layout'",
        "UPDATE snapshots SET data = CAST('not json' AS BLOB) WHERE part = 'layout'",
        "DELETE FROM snapshots WHERE part = 'ids'",
    ],
)
def test_a_damaged_snapshot_is_built_again(indexed, damage):
    expected = indexed.keyword_search(["apply", "discount"], Filters(), 5)
    with indexed._conn:
        indexed._conn.execute(damage)
    reopened = CodeStore(indexed.path)
    assert reopened.keyword_search(["apply", "discount"], Filters(), 5) == expected
    assert len(reopened.vector_matrix().ids) == reopened.counts()["chunks"]


def test_strings_and_arrays_survive_packing():
    items = ["a.py:1-2", None, "", "ünïcode/路径.py", "x"]
    assert split_strings(join_strings(items)) == items
    assert split_strings(join_strings([])) == []
    arrays = {"m": np.arange(12, dtype=np.float32).reshape(3, 4), "i": np.array([1, 2], dtype=np.int64)}
    unpacked = unpack_arrays(pack_arrays(arrays))
    for name, array in arrays.items():
        assert np.array_equal(unpacked[name], array) and unpacked[name].dtype == array.dtype
    with pytest.raises(ValueError):  # no object arrays: bytes must never become Python objects
        unpack_arrays({"layout": b'{"x": ["|O", [1]]}', "x": b"\0" * 8})


def test_a_search_does_not_wait_for_the_write_lock_to_save_what_it_built(indexed):
    from pramana.store.sqlite import BUSY_TIMEOUT_MS, connect

    with indexed._conn:
        indexed._conn.execute("DELETE FROM snapshots")  # as after an index run another process made
    writer = connect(indexed.path)
    writer.execute("BEGIN IMMEDIATE")  # an index run's batch, holding the write lock
    try:
        reader = CodeStore(indexed.path)
        found = reader.keyword_search(["apply", "discount"], Filters(), 5)
        assert found == indexed.keyword_search(["apply", "discount"], Filters(), 5)
        # It did not wait for the lock (busy timeout 0 for the save), and gave the save up:
        assert reader._conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 0
        assert reader._conn.execute("PRAGMA busy_timeout").fetchone()[0] == BUSY_TIMEOUT_MS
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert reader._conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 0
    reader._lexical_cache = None  # the next build finds the lock free: saved
    reader.lexical_index()
    assert reader._conn.execute("SELECT count(*) FROM snapshots WHERE kind = 'lexical'").fetchone()[0] > 0
