"""Connections and schema migrations for the SQLite files pramana keeps.

Several server processes may share one file: WAL lets readers run beside a writer,
`busy_timeout` makes a writer wait for another instead of failing, and writes use
`BEGIN IMMEDIATE` so two processes never both upgrade a read lock into a deadlock.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Protocol, TypeVar

from pramana.errors import PramanaError

BUSY_TIMEOUT_MS = 10_000
# A read-only connection (a server answering queries) waits less: in WAL mode a reader waits only for
# a lock no reader should meet (another process holding the file exclusively), and a call's default
# deadline is 10 s (pramana.mcp.calls): a reader that waited as long as a writer would run out the
# deadline first, and the agent would hear "did not finish" instead of "the database is locked".
READ_BUSY_TIMEOUT_MS = 4_000

Migration = str | Callable[[sqlite3.Connection], object]  # a function's result is not used


class StoreError(PramanaError):
    """The local database cannot be opened or is not one pramana can use."""


def on_read_only_filesystem(path: Path | str) -> bool:
    """Whether `path` (or the nearest folder above it that exists) is on a read-only mount.

    Windows has no statvfs: there, a folder that cannot be written to counts (a read-only share or
    medium), a read-only file alone does not (SQLite reports that one itself)."""
    probe = Path(path).resolve()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not hasattr(os, "statvfs"):
        folder = probe if probe.is_dir() else probe.parent
        return not os.access(folder, os.W_OK)
    return bool(os.statvfs(probe).f_flag & os.ST_RDONLY)


def read_only_uri(path: Path | str) -> str:
    """The URI that opens `path` for reading, wherever it is (percent-encoded: a `#` or `?` in a
    folder name cannot change the mode).

    On a read-only mount SQLite cannot make the lock and WAL index files even a reader of a WAL
    database needs ("unable to open database file"): there the file is opened as immutable,
    which is what it is, after checking that no changes are left in a write-ahead log beside it.
    """
    path = Path(path).resolve()
    uri = f"{path.as_uri()}?mode=ro"
    if not on_read_only_filesystem(path):
        return uri
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise StoreError(
            f"{path} is on a read-only filesystem with changes still in {wal.name}: open it once where it"
            " is writable (any pramana command that reads it), then copy or mount it again"
        )
    return uri + "&immutable=1"


def connect(path: Path | str, *, read_only: bool = False, page_size: int | None = None) -> sqlite3.Connection:
    """Open `path` in WAL mode with a busy timeout; creates the parent folder for writers.

    `page_size` is the page size of a file this call creates (a writer's): SQLite fixes it when the
    first page is written, which switching to WAL does; an existing file keeps its own."""
    path = Path(path)
    try:
        if read_only:
            conn = sqlite3.connect(read_only_uri(path), uri=True, check_same_thread=False)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {READ_BUSY_TIMEOUT_MS if read_only else BUSY_TIMEOUT_MS}")
        if not read_only:
            if page_size is not None:
                conn.execute(f"PRAGMA page_size = {int(page_size)}")  # no-op once the file has a page
            _use_wal(conn)
            conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot open database {path}: {exc}") from exc
    conn.row_factory = sqlite3.Row
    return conn


def _use_wal(conn: sqlite3.Connection) -> None:
    """Switch the file to WAL, waiting for other openers as busy_timeout would.

    SQLite answers "database is locked" to a journal-mode change at once, without calling the busy
    handler, when another process holds a lock: several processes opening a new file together
    would fail. WAL is recorded in the file, so once one of them has switched, the rest see it.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One atomic write: everything inside commits together or not at all."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        rollback(conn)
        raise
    conn.execute("COMMIT")


def rollback(conn: sqlite3.Connection) -> None:
    """Undo the open transaction, if there still is one, without hiding why it is being undone.

    SQLite rolls a transaction back by itself on some failures (a full disk, an I/O error): a second
    ROLLBACK would then raise "cannot rollback - no transaction is active" over the real cause.
    """
    if not conn.in_transaction:
        return
    with suppress(sqlite3.Error):  # the failure being handled is the one to report
        conn.execute("ROLLBACK")


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, migrations: Sequence[Migration]) -> int:
    """Bring the schema to `len(migrations)`; migration i moves version i to i+1.

    Safe when several processes start at once: the version is re-read inside the
    write lock, so each migration runs exactly once.
    """
    target = len(migrations)
    if schema_version(conn) == target:
        return target
    with write_transaction(conn):
        current = schema_version(conn)
        if current > target:
            raise StoreError(
                f"database schema version {current} is newer than this pramana ({target}); upgrade pramana"
            )
        run_steps(conn, migrations[current:], _statements)
        conn.execute(f"PRAGMA user_version = {target}")
    return target


class Executes(Protocol):
    """A connection that runs one statement: SQLite's or psycopg's."""

    def execute(self, statement: str, /) -> object: ...


ConnT = TypeVar("ConnT", bound=Executes)


def run_steps(
    conn: ConnT, steps: Sequence[str | Callable[[ConnT], object]], split: Callable[[str], list[str]]
) -> None:
    """Run migration steps in order, in the caller's transaction: a function is called with the
    connection, a script is split (each database its own way) and its statements executed."""
    for step in steps:
        if callable(step):
            step(conn)
        else:
            for statement in split(step):
                conn.execute(statement)


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (executescript would commit our transaction)."""
    statements, buffer = [], ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):  # False while the ';' sits inside a string
            if buffer.strip(" \n\t;"):
                statements.append(buffer.strip())
            buffer = ""
    return statements


class _Held:
    """One thread's connection. The thread's local storage is its only strong reference, so when
    the thread ends the holder goes, and its finalizer closes the connection."""

    __slots__ = ("__weakref__", "conn")

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn


class ThreadLocalConnections:
    """One connection per thread (MCP tool calls run in a pool of worker threads), closed when its
    thread ends: connections and file descriptors stay as many as the threads that are alive."""

    def __init__(self, opener: Callable[[], sqlite3.Connection]) -> None:
        self._opener = opener
        self._local = threading.local()
        self._held: weakref.WeakSet[_Held] = weakref.WeakSet()
        self._lock = threading.Lock()

    def get(self) -> sqlite3.Connection:
        held = getattr(self._local, "held", None)
        if held is None:
            held = _Held(self._opener())
            # Not at exit: another thread may still be reading on its connection then (a server's
            # warm-up when a script ends), and closing it under the read crashes the interpreter.
            weakref.finalize(held, held.conn.close).atexit = False
            self._local.held = held
            with self._lock:
                self._held.add(held)
        return held.conn

    def open_count(self) -> int:
        """Connections open now (one per live thread that used this store)."""
        with self._lock:
            return len(self._held)

    def close_all(self) -> None:
        with self._lock:
            for held in list(self._held):
                held.conn.close()
            self._held.clear()
        self._local = threading.local()


class SQLiteStore:
    """Base of the servers' stores: one file, a connection per thread, the schema migrated on open.

    A read-only store (what an MCP server that only answers queries opens) never migrates or writes.
    A file on a read-only mount (a replica's volume) is always opened read-only: `read_only` tells
    the callers that must not write (no cache fills, no re-index).
    """

    migrations: Sequence[Migration] = ()
    page_size: int | None = None  # of a new file; SQLite's default (4,096) unless a store says

    def __init__(self, path: Path | str, *, read_only: bool = False):
        self.path = Path(path)
        self.read_only = read_only or (self.path.exists() and on_read_only_filesystem(self.path))
        self._connections = ThreadLocalConnections(
            lambda: connect(self.path, read_only=self.read_only, page_size=self.page_size)
        )
        if not self.read_only:
            migrate(self._conn, self.migrations)

    @property
    def _conn(self) -> sqlite3.Connection:
        return self._connections.get()

    _checkpoint_at_close = False
    _checkpointing: threading.Thread | None = None

    def checkpoint_at_close(self) -> None:
        """Copy the write-ahead log into the file when the store closes (SQLite does so as its last
        connection closes) or when asked (`checkpoint_in_background`), instead of after each commit
        that leaves the log past 1,000 pages: for a process that writes a whole database and then
        ends (`pramana code index`), those copies rewrite pages the next commits change again, and
        wait for the disk each time. This thread's connection only; a long-lived process must not:
        its log would only grow."""
        self._conn.execute("PRAGMA wal_autocheckpoint = 0")
        self._checkpoint_at_close = True

    def checkpoint_in_background(self) -> None:
        """After a large write, in a store that checkpoints at close: start copying the log into the
        file now, on a connection and thread of their own (SQLite copies without the interpreter's
        lock), while this process goes on (a passive checkpoint: writers are not held up), so that
        less is left to copy, and wait for, at close."""
        running = self._checkpointing
        if not self._checkpoint_at_close or (running is not None and running.is_alive()):
            return
        running = threading.Thread(target=self._checkpoint, name="pramana-checkpoint", daemon=True)
        self._checkpointing = running
        running.start()

    def _checkpoint(self) -> None:
        with suppress(sqlite3.Error, StoreError):  # the copy at close does whatever this did not
            conn = connect(self.path)
            try:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                conn.close()

    def close(self) -> None:
        if self._checkpointing is not None:
            self._checkpointing.join()
        self._connections.close_all()
