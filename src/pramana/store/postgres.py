"""A PostgreSQL database shared by several pramana processes (replicas): a connection pool, schema
migrations, each call's deadline as the statement timeout, errors an agent can act on, and change
notifications between replicas. The `postgres` extra (psycopg 3 and psycopg-pool) provides it.

- **Pool.** `pool_min`..`pool_max` connections, opened in the background: a server starts while
  PostgreSQL is down and answers (with the reason) until it is back. A connection found dead when a
  call takes it (PostgreSQL restarted since) is replaced there and then, and the idle ones checked:
  the calls in flight during a restart fail with a clear error, the ones after it succeed.
- **Deadlines.** Every transaction runs with `SET LOCAL statement_timeout` at the time the call has
  left (pramana.work), and waits for a pooled connection no longer than that either.
- **Migrations.** Versioned like the SQLite ones (migration i moves version i to i+1), recorded per
  component in `pramana_schema`, run under an advisory lock: replicas starting together migrate once.
- **Changes.** A writer's transaction sends `pg_notify(channel, what)`; each process LISTENs on a
  connection of its own and tells its subscribers, so caches built from the database (the verse
  matcher, counts) follow what another replica wrote.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pramana import work
from pramana.errors import NotReadyError
from pramana.store.failures import postgres_first_line
from pramana.store.sqlite import StoreError, run_steps

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

log = logging.getLogger(__name__)
# psycopg-pool logs every failed connection attempt as a warning; pramana says it once, its own way.
logging.getLogger("psycopg.pool").setLevel(logging.ERROR)

PgMigration = str | Callable[["psycopg.Connection[Any]"], None]
SCHEMA_TABLE = "pramana_schema"
CONNECT_TIMEOUT_S = 5
LISTEN_RETRY_S = 1.0


def install_hint() -> str:
    from pramana import install_extra_hint

    return install_extra_hint("postgres")


def require_driver() -> None:
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        raise NotReadyError(
            f"a postgresql:// database URL needs the postgres extra: {install_hint()}"
        ) from None


def is_database_url(value: str | None) -> bool:
    return bool(value) and value.strip().lower().startswith(("postgresql://", "postgres://"))  # type: ignore[union-attr]


def describe(url: str) -> str:
    """The database as an answer may name it: its name and, for a network host, host and port;
    never the user, the password or a socket path on the server."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(url)
    except Exception:
        return "the PostgreSQL database"
    name = parts.get("dbname") or parts.get("user") or "postgres"
    host = str(parts.get("host") or "")
    where = "" if not host or host.startswith("/") else f" on {host}:{parts.get('port') or 5432}"
    return f"the PostgreSQL database {name!r}{where}"


class ReadOnlyStoreError(StoreError):
    """The database refused a write: the role may only read, or the server is a read-only standby."""


class DatabaseUnavailableError(StoreError):
    """PostgreSQL cannot be reached, or the connection to it was lost."""


@dataclass(frozen=True)
class PoolSettings:
    min_size: int = 1
    max_size: int = 10
    wait_s: float = 5.0  # longest wait for a free connection (less when the call's deadline is nearer)
    statement_timeout_s: float = 30.0  # for work outside a call's deadline (the CLI, seeding)


class PostgresDatabase:
    """One database URL: its pool, transactions under the caller's deadline, migrations, notifications."""

    def __init__(self, url: str, settings: PoolSettings | None = None, *, name: str = "pramana"):
        require_driver()
        from psycopg_pool import ConnectionPool

        self.url = url
        self.settings = settings or PoolSettings()
        self.where = describe(url)
        self._last_error: str | None = None
        self._lost = 0  # connections found broken (a restart, a network cut)
        self.pool: ConnectionPool = ConnectionPool(
            url,
            min_size=self.settings.min_size,
            max_size=self.settings.max_size,
            kwargs={"connect_timeout": CONNECT_TIMEOUT_S, "application_name": name, "autocommit": True},
            reconnect_failed=self._reconnect_failed,
            configure=_configure,
            open=False,
            name=name,
        )
        self.pool.open(wait=False)
        self._listeners: list[Callable[[str], None]] = []
        self._listen_thread: threading.Thread | None = None
        self._listening = threading.Event()
        self._closing = threading.Event()
        self._channel: str | None = None

    # -- connections ---------------------------------------------------------------------------

    def _reconnect_failed(self, pool: Any) -> None:
        log.warning("%s: cannot connect to PostgreSQL", self.where)

    @contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection bounded by the caller's deadline: for a write, one transaction; for a
        read, statements of their own (no BEGIN and COMMIT to wait for). psycopg's failures come out
        as StoreErrors that say what happened and what to do."""
        import psycopg

        conn = self._connection()
        try:
            if write:
                conn.execute("BEGIN")
            yield conn
            if write:
                conn.execute("COMMIT")
        except BaseException as exc:
            if write and not conn.broken:
                conn.execute("ROLLBACK")
            if isinstance(exc, psycopg.Error):
                raise self.explain(exc) from exc
            raise
        finally:
            self.pool.putconn(conn)

    def _connection(self) -> psycopg.Connection[Any]:
        """A connection from the pool with the call's statement timeout set (and, for a write, a
        transaction begun). One found dead (PostgreSQL restarted since it was last used) is dropped,
        the idle ones are checked, and another is taken: only calls that were in flight fail."""
        import psycopg
        from psycopg_pool import PoolTimeout

        for attempt in range(3):
            left = work.remaining()
            wait = self.settings.wait_s if left is None else max(0.05, min(self.settings.wait_s, left))
            try:
                conn = self.pool.getconn(timeout=wait)
            except PoolTimeout as exc:
                raise self._pool_problem(wait) from exc
            try:
                conn.execute(f"SET statement_timeout = {self._timeout_ms()}")
                return conn
            except psycopg.OperationalError as exc:
                self.pool.putconn(conn)
                if not conn.broken or attempt == 2:
                    raise self.explain(exc) from exc
                self._lost += 1
                self.pool.check()
        raise AssertionError("unreachable")

    def _timeout_ms(self) -> int:
        left = work.remaining()
        seconds = self.settings.statement_timeout_s if left is None else left
        return max(1, int(seconds * 1000))

    def _pool_problem(self, waited: float) -> StoreError:
        stats = self.pool.get_stats()
        if stats.get("pool_size", 0) == 0 or not self.reachable():
            return DatabaseUnavailableError(
                f"{self.where} cannot be reached ({self._last_error or 'no connection'}); pramana"
                " keeps trying and answers again as soon as it is back"
            )
        return StoreError(
            f"all {self.settings.max_size} connections to {self.where} are busy (waited {waited:.1f} s):"
            " try again shortly (PRAMANA_DATABASE_POOL_MAX sets how many this process opens)"
        )

    def reachable(self) -> bool:
        """Whether a new connection can be made now (remembers why not)."""
        import psycopg

        try:
            psycopg.connect(self.url, connect_timeout=min(CONNECT_TIMEOUT_S, 2)).close()
        except psycopg.Error as exc:
            self._last_error = postgres_first_line(exc)
            return False
        self._last_error = None
        return True

    def explain(self, exc: Exception) -> StoreError:
        """A psycopg error as a StoreError the agent can act on."""
        import psycopg
        from psycopg import errors

        message = postgres_first_line(exc)
        if isinstance(exc, errors.QueryCanceled):
            return StoreError(
                f"{self.where} did not answer within the time this call had left ({message});"
                " try again, or a narrower request"
            )
        if isinstance(exc, (errors.InsufficientPrivilege, errors.ReadOnlySqlTransaction)):
            return ReadOnlyStoreError(
                f"{self.where} refused a write ({message}): this replica's database role may only read"
            )
        if isinstance(exc, psycopg.OperationalError):
            self._lost += 1
            self._last_error = message
            return DatabaseUnavailableError(
                f"the connection to {self.where} failed ({message}); PostgreSQL may be restarting:"
                " try again shortly (pramana reconnects by itself)"
            )
        return StoreError(f"database error from {self.where}: {message}")

    def state(self) -> dict[str, Any]:
        """The pool as /ready reports it."""
        stats = self.pool.get_stats()
        return {
            "backend": "postgresql",
            "database": self.where,
            "pool_min": self.settings.min_size,
            "pool_max": self.settings.max_size,
            "connections": stats.get("pool_size", 0),
            "idle": stats.get("pool_available", 0),
            "waiting": stats.get("requests_waiting", 0),
            "connections_lost": self._lost + stats.get("connections_lost", 0),
            "listening": self._listening.is_set(),
        }

    # -- migrations ----------------------------------------------------------------------------

    def schema_version(self, component: str) -> int:
        with self.transaction() as conn:
            exists = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (SCHEMA_TABLE,)).fetchone()
            if not exists or not exists[0]:
                return 0
            row = conn.execute(
                f"SELECT version FROM {SCHEMA_TABLE} WHERE component = %s", (component,)
            ).fetchone()
            return int(row[0]) if row else 0

    def migrate(self, component: str, migrations: Sequence[PgMigration]) -> int:
        """Bring `component`'s tables to version len(migrations), once, whoever else starts now."""
        target = len(migrations)
        if self.schema_version(component) == target:
            return target
        with self.transaction(write=True) as conn:
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(current_schema() || %s))", (":" + component,))
            conn.execute(
                f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE}"
                " (component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
            )
            row = conn.execute(
                f"SELECT version FROM {SCHEMA_TABLE} WHERE component = %s", (component,)
            ).fetchone()
            current = int(row[0]) if row else 0
            if current > target:
                raise StoreError(
                    f"{self.where} has {component} schema version {current}, newer than this pramana"
                    f" ({target}): upgrade pramana"
                )
            run_steps(conn, migrations[current:], _statements)
            conn.execute(
                f"INSERT INTO {SCHEMA_TABLE} (component, version) VALUES (%s, %s)"
                " ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version",
                (component, target),
            )
        return target

    def can_write(self, table: str) -> bool:
        """Whether this role may write `table` on a primary (not a read-only standby)."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT has_table_privilege(current_user, %s, 'INSERT') AND NOT pg_is_in_recovery()"
                " AND current_setting('default_transaction_read_only') = 'off'",
                (table,),
            ).fetchone()
            return bool(row and row[0])

    # -- notifications -------------------------------------------------------------------------

    def notify(self, conn: psycopg.Connection[Any], what: str) -> None:
        """Tell every process listening (once this transaction commits) that `what` changed."""
        if self._channel is not None:
            conn.execute("SELECT pg_notify(%s, %s)", (self._channel, what))

    def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call `callback(what)` for each change notified on `channel` (also with "reconnected" after
        the listening connection was lost: notifications may have been missed meanwhile)."""
        self._channel = channel
        self._listeners.append(callback)
        if self._listen_thread is None:
            self._listen_thread = threading.Thread(
                target=self._listen_loop, name="pramana-listen", daemon=True
            )
            self._listen_thread.start()

    @property
    def listening(self) -> bool:
        return self._listening.is_set()

    def _tell(self, what: str) -> None:
        for callback in list(self._listeners):
            try:
                callback(what)
            except Exception:
                log.warning("a change listener failed", exc_info=True)

    def _listen_loop(self) -> None:
        import psycopg
        from psycopg import sql

        assert self._channel is not None
        while not self._closing.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._channel)))
                    self._listening.set()
                    self._tell("reconnected")
                    while not self._closing.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._tell(note.payload)
            except psycopg.Error as exc:
                self._last_error = postgres_first_line(exc)
            finally:
                if self._listening.is_set():
                    self._listening.clear()
                    self._tell("disconnected")
            self._closing.wait(LISTEN_RETRY_S)

    def close(self) -> None:
        self._closing.set()
        self.pool.close(timeout=2)


def _configure(conn: psycopg.Connection[Any]) -> None:
    """Each new connection's settings: pramana's queries are short and index-shaped. JIT compiling
    costs more than any of them runs; and the planner, which does not count the reading of tsvectors
    stored out of line, would scan a few hundred rows checking each one's (tens of ms) rather than
    ask the GIN index (a ms)."""
    conn.execute("SET jit = off")
    conn.execute("SET enable_seqscan = off")


def _statements(script: str) -> list[str]:
    """A migration script's statements (no function bodies in them: split on ';' at line ends)."""
    return [part.strip() for part in script.split(";\n") if part.strip().strip(";")]
