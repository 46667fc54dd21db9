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


def _saved(store: CodeStore) -> list[tuple]:
    return store._conn.execute(
        "SELECT kind, part, generation, data FROM snapshots ORDER BY kind, part"
    ).fetchall()


def test_after_a_cold_index_the_search_data_comes_from_what_was_written(
    fresh_repo, tmp_path, static, monkeypatch
):
    store = CodeStore(tmp_path / "cold.db")
    Indexer(fresh_repo, store, static).run()
    assert store._written is not None and store._written_in_full(store.generation()) is store._written
    assert store._written.ahead_thread is not None  # built in a thread once the last row was written
    statements: list[str] = []
    store._conn.set_trace_callback(statements.append)
    from_memory = store.lexical_index(), store.vector_matrix()
    store._conn.set_trace_callback(None)
    assert store._written.ahead == {}  # what was built ahead is what search holds
    # The rows were not read back: no query of the bags' terms or of the vectors themselves.
    assert statements and not [sql for sql in statements if "b.terms" in sql or "v.vector" in sql]
    # The same arrays, and the same bytes saved, as a build from the rows gives.
    from_rows_store = CodeStore(tmp_path / "cold.db")
    with from_rows_store._conn:
        from_rows_store._conn.execute("DELETE FROM snapshots")
    from_rows = from_rows_store.lexical_index(), from_rows_store.vector_matrix()
    assert from_rows_store._written is None
    lexical, rows_lexical = from_memory[0], from_rows[0]
    assert lexical.ids == rows_lexical.ids and lexical.heads == rows_lexical.heads
    assert list(lexical.term_ids.items()) == list(rows_lexical.term_ids.items())
    for name in ("rowids", "start", "docs", "weights", "norms"):
        assert np.array_equal(getattr(lexical, name), getattr(rows_lexical, name)), name
    assert from_memory[1].ids == from_rows[1].ids
    assert np.array_equal(from_memory[1].rowids, from_rows[1].rowids)
    assert np.array_equal(from_memory[1].matrix, from_rows[1].matrix)
    assert _saved(store) == _saved(from_rows_store)


def test_what_was_written_is_not_used_once_another_writer_changed_the_index(fresh_repo, tmp_path, static):
    store = CodeStore(tmp_path / "cold.db")
    Indexer(fresh_repo, store, static).run()
    assert store._written is not None
    (fresh_repo / "packages/api/shop/zebra.py").write_text("def feed_the_zebra():\n    return 'hay'\n")
    Indexer(fresh_repo, CodeStore(store.path), static).run()  # another process's index run
    assert [c for c, _ in store.keyword_search(["zebra"], Filters(), 5)] == ["packages/api/shop/zebra.py:1-2"]
    assert any(chunk_id.endswith("zebra.py:1-2") for chunk_id in store.vector_matrix().ids)
    assert store._written is None


def test_only_an_empty_index_keeps_what_is_written(fresh_repo, tmp_path, static):
    store = CodeStore(tmp_path / "warm.db")
    Indexer(fresh_repo, store, static).run()
    store.forget_written()
    (fresh_repo / "packages/api/shop/zebra.py").write_text("def feed_the_zebra():\n    return 'hay'\n")
    Indexer(fresh_repo, store, static).run()  # incremental: only the new file is written
    assert store._written is None
    assert [c for c, _ in store.keyword_search(["zebra"], Filters(), 5)] == ["packages/api/shop/zebra.py:1-2"]
    # A file written again in the same process drops what was kept (its old chunks leave).
    cold = CodeStore(tmp_path / "cold.db")
    Indexer(fresh_repo, cold, static).run()
    assert cold._written is not None
    (fresh_repo / "packages/api/shop/zebra.py").write_text("def feed_the_lion():\n    return 'meat'\n")
    Indexer(fresh_repo, cold, static).run()
    assert cold._written is None
    assert [c for c, _ in cold.keyword_search(["lion"], Filters(), 5)] == ["packages/api/shop/zebra.py:1-2"]


def test_search_data_built_ahead_is_not_used_for_an_index_that_changed_since(fresh_repo, tmp_path, static):
    store = CodeStore(tmp_path / "cold.db")
    Indexer(fresh_repo, store, static).run()
    written = store._written
    assert written is not None and written.ahead_thread is not None
    written.ahead_thread.join()
    assert set(written.ahead) == {"lexical", "vectors"}
    (fresh_repo / "packages/api/shop/zebra.py").write_text("def feed_the_zebra():\n    return 'hay'\n")
    Indexer(fresh_repo, store, static).run()  # the same process writes again: built ahead is stale
    assert [c for c, _ in store.keyword_search(["zebra"], Filters(), 5)] == ["packages/api/shop/zebra.py:1-2"]
    assert any(chunk_id.endswith("zebra.py:1-2") for chunk_id in store.vector_matrix().ids)
