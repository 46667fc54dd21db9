import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from pramana.mcp.calls import DEFAULT_DEADLINE_S
from pramana.store.sqlite import (
    BUSY_TIMEOUT_MS,
    READ_BUSY_TIMEOUT_MS,
    SQLiteStore,
    StoreError,
    connect,
    migrate,
    schema_version,
    write_transaction,
)

MIGRATIONS = [
    "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);",
    "ALTER TABLE items ADD COLUMN note TEXT; CREATE INDEX idx_items_name ON items(name);",
]


def test_connect_uses_wal_and_creates_parent(tmp_path):
    conn = connect(tmp_path / "deep" / "er" / "x.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000


def test_a_reader_held_out_by_a_lock_is_told_so_well_within_a_call_s_deadline(tmp_path):
    path = tmp_path / "x.db"
    writer = connect(path)
    migrate(writer, MIGRATIONS)
    reader = connect(path, read_only=True)
    waits = reader.execute("PRAGMA busy_timeout").fetchone()[0]
    assert waits == READ_BUSY_TIMEOUT_MS <= DEFAULT_DEADLINE_S * 1000 / 2 < BUSY_TIMEOUT_MS
    reader.execute("PRAGMA busy_timeout = 50")  # the same refusal, without the wait
    writer.execute("PRAGMA locking_mode = EXCLUSIVE")
    writer.execute("BEGIN EXCLUSIVE")
    writer.execute("DELETE FROM items WHERE id = -1")
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            reader.execute("SELECT count(*) FROM items").fetchone()
    finally:
        writer.execute("ROLLBACK")


def test_migrate_runs_each_step_once(tmp_path):
    conn = connect(tmp_path / "x.db")
    assert migrate(conn, MIGRATIONS[:1]) == 1
    conn.execute("INSERT INTO items (name) VALUES ('kept')")
    assert migrate(conn, MIGRATIONS) == 2
    assert migrate(conn, MIGRATIONS) == 2
    assert schema_version(conn) == 2
    assert [tuple(row) for row in conn.execute("SELECT name, note FROM items")] == [("kept", None)]


def test_failed_migration_changes_nothing(tmp_path):
    conn = connect(tmp_path / "x.db")
    migrate(conn, MIGRATIONS[:1])
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, [*MIGRATIONS[:1], "ALTER TABLE items ADD COLUMN a TEXT; THIS IS NOT SQL;"])
    assert schema_version(conn) == 1
    columns = [row[1] for row in conn.execute("PRAGMA table_info(items)")]
    assert columns == ["id", "name"]


def test_newer_schema_is_refused(tmp_path):
    conn = connect(tmp_path / "x.db")
    migrate(conn, MIGRATIONS)
    with pytest.raises(StoreError, match="newer"):
        migrate(conn, MIGRATIONS[:1])


def test_write_transaction_rolls_back_on_error(tmp_path):
    conn = connect(tmp_path / "x.db")
    migrate(conn, MIGRATIONS)
    with pytest.raises(RuntimeError), write_transaction(conn):
        conn.execute("INSERT INTO items (name) VALUES ('lost')")
        raise RuntimeError("interrupted")
    assert conn.execute("SELECT count(*) FROM items").fetchone()[0] == 0


def test_not_a_database_is_a_clear_error(tmp_path):
    bogus = tmp_path / "x.db"
    bogus.write_text("this is not sqlite" * 100)
    with pytest.raises(StoreError, match="cannot open database"):
        connect(bogus)


def test_processes_migrating_and_writing_at_once(tmp_path):
    """Several processes share one file: each migrates and writes without 'database is locked'."""
    db = tmp_path / "shared.db"
    script = textwrap.dedent(
        f"""
        import sys
        from pramana.store.sqlite import connect, migrate, write_transaction
        conn = connect({str(db)!r})
        migrate(conn, {MIGRATIONS!r})
        for i in range(200):
            with write_transaction(conn):
                conn.execute("INSERT INTO items (name) VALUES (?)", (sys.argv[1] + str(i),))
        """
    )
    procs = [subprocess.Popen([sys.executable, "-c", script, f"p{n}-"]) for n in range(4)]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0, 0]
    conn = connect(db)
    assert conn.execute("SELECT count(*) FROM items").fetchone()[0] == 800
    assert schema_version(conn) == 2


def _open_files(under: Path) -> int:
    """This process's open descriptors of files under `under` (other tests' threads open files too)."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # closed since the listing
            count += os.readlink(f"/proc/self/fd/{fd}").startswith(str(under))
    return count


def _rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts open files through /proc")
def test_connections_of_finished_threads_are_closed(tmp_path):
    """10,000 reads from 200 short-lived threads leave neither connections nor files open."""

    class Store(SQLiteStore):
        migrations = ("CREATE TABLE t (x INTEGER)", "INSERT INTO t VALUES (1)")

        def read(self) -> int:
            return self._conn.execute("SELECT x FROM t").fetchone()[0]

    store = Store(tmp_path / "s.db")
    store.read()

    def round_of_threads() -> None:
        errors: list[BaseException] = []

        def reader() -> None:
            try:
                for _ in range(25):
                    assert store.read() == 1
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=reader) for _ in range(200)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors

    def settled_files() -> int:
        # A joined thread's local storage is dropped as its state is cleared, a moment after join().
        settle = time.monotonic() + 2
        while store._connections.open_count() > 1 and time.monotonic() < settle:
            time.sleep(0.01)
        return _open_files(tmp_path)

    round_of_threads()
    files, rss = settled_files(), _rss_kib()
    for _ in range(4):
        round_of_threads()
    # SQLite defers closing a connection's descriptor of the database while another connection of the
    # process holds a lock on it (POSIX locks are per process) and hands the deferred ones to the next
    # connections it opens: how many it keeps depends on how the threads interleaved (up to one per
    # thread reading at once; 24 to 38 seen), not on how many connections were ever opened. Left open,
    # the 1,000 connections of these four rounds would hold 3,000 descriptors.
    assert settled_files() - files < 200
    assert store._connections.open_count() == 1  # this thread's
    assert _rss_kib() - rss < 20_000  # KiB: no connection (each holds its page cache) left behind
    store.close()


def test_a_path_with_uri_characters_opens_read_only(tmp_path):
    folder = tmp_path / "a#b?mode=rw&c"
    path = folder / "x.db"
    writer = connect(path)
    writer.execute("CREATE TABLE t (x)")
    writer.close()
    reader = connect(path, read_only=True)
    assert reader.execute("SELECT count(*) FROM t").fetchone()[0] == 0
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        reader.execute("INSERT INTO t VALUES (1)")


def test_a_wal_database_opens_from_a_read_only_mount_unless_changes_are_left_in_its_log(tmp_path):
    from tests.conftest import read_only_mount

    volume = tmp_path / "volume"
    finished = connect(volume / "finished.db")
    finished.execute("CREATE TABLE t (x)")
    finished.execute("INSERT INTO t VALUES (1)")
    finished.close()  # the last connection checkpoints the log into the file
    unfinished = connect(volume / "unfinished.db")
    unfinished.execute("PRAGMA wal_autocheckpoint = 0")
    unfinished.execute("CREATE TABLE t (x)")
    shutil.copy(volume / "unfinished.db-wal", tmp_path / "log")  # as a crash would leave it
    unfinished.close()
    shutil.copy(tmp_path / "log", volume / "unfinished.db-wal")
    with read_only_mount(volume, tmp_path / "mnt") as mounted:
        reader = connect(mounted / "finished.db", read_only=True)
        assert reader.execute("SELECT x FROM t").fetchone()[0] == 1
        reader.close()
        with pytest.raises(StoreError, match=r"changes still in unfinished\.db-wal"):
            connect(mounted / "unfinished.db", read_only=True)


def test_a_process_exits_cleanly_while_another_thread_reads(tmp_path):
    """At exit, a thread still reading (a server's warm-up, say) keeps its connection: closing it
    under the read crashed the interpreter (a segmentation fault, seen when a script ended mid
    warm-up)."""
    script = textwrap.dedent(
        """
        import sys, threading
        from pramana.store.sqlite import SQLiteStore

        class Store(SQLiteStore):
            migrations = ("CREATE TABLE t (x INTEGER)",
                          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)"
                          " INSERT INTO t SELECT i FROM n")

        store = Store(sys.argv[1])
        started = threading.Barrier(9)

        def read():
            conn = store._conn
            started.wait()
            while True:
                conn.execute("SELECT count(*) FROM t a, t b WHERE a.x = b.x").fetchone()

        for _ in range(8):
            threading.Thread(target=read, daemon=True).start()
        started.wait()
        """
    )
    for attempt in range(6):
        done = subprocess.run(
            [sys.executable, "-c", script, str(tmp_path / f"s{attempt}.db")], capture_output=True, text=True
        )
        assert done.returncode == 0, (attempt, done.returncode, done.stderr[-2000:])


class _Items(SQLiteStore):
    migrations = MIGRATIONS


def _write_pages(store: SQLiteStore, rows: int) -> None:
    with write_transaction(store._conn) as conn:
        conn.executemany("INSERT INTO items (name) VALUES (?)", [("x" * 4000,) for _ in range(rows)])


def test_a_store_that_checkpoints_at_close_copies_its_log_once_when_it_closes(tmp_path):
    wal = tmp_path / "x.db-wal"
    usual = _Items(tmp_path / "usual.db")
    _write_pages(usual, 1100)  # past SQLite's 1,000 pages: the commit copies the log into the file
    copied = sqlite3.connect(tmp_path / "usual.db").execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert copied[1] == copied[2] > 0  # everything in the log was in the file already
    usual.close()

    store = _Items(tmp_path / "x.db")
    store.checkpoint_at_close()
    for _ in range(2):
        _write_pages(store, 1100)
    assert wal.stat().st_size > 2 * 1100 * 4000  # every commit still in the log
    reader = sqlite3.connect(tmp_path / "x.db")
    assert reader.execute("SELECT count(*) FROM items").fetchone()[0] == 2200  # committed, readable
    reader.close()
    store.close()
    assert not wal.exists() or wal.stat().st_size == 0  # copied into the file as it closed
    assert sqlite3.connect(tmp_path / "x.db").execute("SELECT count(*) FROM items").fetchone()[0] == 2200


def test_a_background_checkpoint_copies_the_log_while_the_store_stays_open(tmp_path):
    store = _Items(tmp_path / "x.db")
    store.checkpoint_in_background()  # a store that checkpoints as usual: nothing to start
    assert store._checkpointing is None
    store.checkpoint_at_close()
    _write_pages(store, 1100)
    written = 1100 * 4000
    assert (tmp_path / "x.db").stat().st_size < written  # in the log only, so far
    store.checkpoint_in_background()
    running = store._checkpointing
    assert running is not None
    running.join(timeout=30)
    assert (tmp_path / "x.db").stat().st_size > written  # copied into the file, the store still open
    _write_pages(store, 10)  # the store writes on meanwhile
    store.close()
    assert sqlite3.connect(tmp_path / "x.db").execute("SELECT count(*) FROM items").fetchone()[0] == 1110
