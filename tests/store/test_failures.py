"""Storage failures are one line that names the cause and what to do, and the data stays as it was.

Real failures of real SQLite files: a full database (SQLite's max_page_count makes a real
SQLITE_FULL), a lock held by another connection, a read-only handle, a damaged file.
"""

from __future__ import annotations

import errno
import sqlite3

import pytest
import typer

from pramana.cli_support import run
from pramana.store.failures import storage_problem
from pramana.store.sqlite import connect, rollback, write_transaction


def full_database(tmp_path) -> sqlite3.Connection:
    """A database with one row that has no room for more (a real SQLITE_FULL on the next write)."""
    conn = connect(tmp_path / "full.db")
    conn.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, body BLOB)")
    conn.execute("INSERT INTO items (body) VALUES (zeroblob(100))")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages + 1}")
    return conn


def test_a_full_disk_during_a_write_reports_the_cause_not_the_cleanup(tmp_path):
    conn = full_database(tmp_path)
    with pytest.raises(sqlite3.OperationalError) as raised, write_transaction(conn):
        conn.execute("DELETE FROM items")  # the old row goes in the same transaction...
        conn.execute("INSERT INTO items (body) VALUES (zeroblob(1000000))")  # ...then the disk fills
    assert raised.value.sqlite_errorname == "SQLITE_FULL"  # not "cannot rollback"
    assert "disk is full" in str(raised.value)
    assert not conn.in_transaction
    assert conn.execute("SELECT count(*) FROM items").fetchone()[0] == 1  # the data as it was
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    problem = storage_problem(raised.value)
    assert problem is not None and problem.startswith("no space left on the disk")
    assert "free some space" in problem and "\n" not in problem


def test_rollback_after_sqlite_ended_the_transaction_itself_is_quiet(tmp_path):
    conn = connect(tmp_path / "x.db")
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("ROLLBACK")  # as SQLite does on its own after SQLITE_FULL or an I/O error
    rollback(conn)  # nothing open: nothing to do, nothing raised
    conn.execute("CREATE TABLE t (x)")
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO t VALUES (1)")
    rollback(conn)
    assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 0


def test_a_cleanup_failure_chained_on_the_cause_still_names_the_cause(tmp_path):
    conn = full_database(tmp_path)
    try:
        try:
            conn.execute("INSERT INTO items (body) VALUES (zeroblob(1000000))")
        except sqlite3.OperationalError:
            conn.execute("ROLLBACK")  # what the old cleanup did: raises over the real failure
    except sqlite3.OperationalError as cleanup:
        assert "cannot rollback" in str(cleanup)
        problem = storage_problem(cleanup)
    assert problem is not None and problem.startswith("no space left on the disk")


def test_a_database_error_that_names_no_cause_is_still_one_line(tmp_path):
    conn = connect(tmp_path / "x.db")
    with pytest.raises(sqlite3.OperationalError) as raised:
        conn.execute("SELECT * FROM no_such_table")
    assert storage_problem(raised.value) == "database error: no such table: no_such_table"


def test_another_writer_holding_the_lock(tmp_path):
    path = tmp_path / "x.db"
    holder = connect(path)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    waiter = sqlite3.connect(path, timeout=0, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError) as raised:
        waiter.execute("BEGIN IMMEDIATE")
    holder.execute("ROLLBACK")
    problem = storage_problem(raised.value)
    assert problem is not None and "locked by another process" in problem and "try again" in problem


def test_a_read_only_handle_and_a_damaged_file(tmp_path):
    path = tmp_path / "x.db"
    connect(path).execute("CREATE TABLE t (x)")
    reader = connect(path, read_only=True)
    with pytest.raises(sqlite3.OperationalError) as raised:
        reader.execute("INSERT INTO t VALUES (1)")
    problem = storage_problem(raised.value)
    assert problem is not None and "read-only" in problem and "permissions" in problem

    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"this is no database " * 500)
    with pytest.raises(sqlite3.DatabaseError) as raised:
        sqlite3.connect(damaged).execute("SELECT * FROM sqlite_master")
    problem = storage_problem(raised.value)
    assert problem is not None and "damaged" in problem and "rebuild" in problem


@pytest.mark.parametrize(
    ("code", "says"),
    [(errno.ENOSPC, "no space left"), (errno.EROFS, "read-only"), (errno.EACCES, "permissions")],
)
def test_filesystem_errors_of_storage(tmp_path, code: int, says: str):
    problem = storage_problem(OSError(code, "as the kernel says", str(tmp_path / "f")))
    assert problem is not None and says in problem


def test_errors_that_are_not_storage_failures_are_left_alone():
    assert storage_problem(ConnectionRefusedError(errno.ECONNREFUSED, "refused")) is None
    assert storage_problem(KeyError("x")) is None


def test_the_cli_prints_a_storage_failure_as_one_line(tmp_path, capsys):
    conn = full_database(tmp_path)

    def fill() -> None:
        with write_transaction(conn):
            conn.execute("INSERT INTO items (body) VALUES (zeroblob(1000000))")

    with pytest.raises(typer.Exit) as exited:
        run(fill)
    assert exited.value.exit_code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: no space left on the disk"), lines


def test_the_cli_keeps_the_traceback_of_a_bug():
    with pytest.raises(KeyError):
        run(lambda: {}["missing"])


def test_a_postgresql_error_is_one_line_without_the_servers_socket_path():
    psycopg = pytest.importorskip("psycopg")
    try:  # a real refusal: nothing listens on this socket
        psycopg.connect("postgresql:///x?host=/nonexistent/run&port=1", connect_timeout=2)
    except psycopg.OperationalError as exc:
        refused = exc
    wrapped = RuntimeError("the call failed")
    wrapped.__cause__ = refused
    problem = storage_problem(wrapped)
    assert problem is not None and problem.startswith("database error: ")
    assert "/nonexistent" not in problem and "\n" not in problem
