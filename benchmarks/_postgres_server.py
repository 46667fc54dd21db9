"""A real PostgreSQL server of the tests' (and benchmarks') own: initdb into a fresh folder, listening
only on a Unix socket in that folder, stopped and removed at the end.

PostgreSQL refuses to run as root, so as root the cluster is made and run by the `postgres` user
(Debian's package creates it) in a folder that user owns. Never the system's cluster: nothing here
reads or changes /var/lib/postgresql. `.ci/run` installs Debian's `postgresql` package when no
server binaries are found.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

SOCKET_PORT = 5432  # part of the socket's file name only: nothing listens on TCP


def server_binaries() -> Path | None:
    """The folder with initdb, pg_ctl and postgres: $PRAMANA_PG_BINDIR, pg_config's, or the newest
    of Debian's /usr/lib/postgresql/*/bin; None when there is no server here."""
    candidates = []
    if os.environ.get("PRAMANA_PG_BINDIR"):
        candidates.append(Path(os.environ["PRAMANA_PG_BINDIR"]))
    if shutil.which("pg_config"):
        found = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=False)
        if found.returncode == 0:
            candidates.append(Path(found.stdout.strip()))
    debian = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True
    )
    candidates += [Path(p) for p in debian]
    return next((c for c in candidates if (c / "initdb").is_file() and (c / "pg_ctl").is_file()), None)


class PostgresCluster:
    """One throwaway cluster. `url(database)` connects over its socket as the `postgres` superuser
    (trust authentication: the socket lives in a folder only its owner and root can enter)."""

    def __init__(self, bindir: Path, *, settings: dict[str, str] | None = None):
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="pramana-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.settings = {
            "listen_addresses": "''",
            "unix_socket_directories": f"'{self.folder}'",
            "port": str(SOCKET_PORT),
            "max_connections": "400",
            "max_prepared_transactions": "10",  # a lock that outlives its session (the restart test)
            "fsync": "off",  # a test cluster: speed over durability
            "synchronous_commit": "off",
            "full_page_writes": "off",
            **(settings or {}),
        }
        self.templates: dict[str, str] = {}  # a URL frozen by freeze(): the template database of its copies
        self._owner = None
        if os.geteuid() == 0:
            self._owner = pwd.getpwnam("postgres")
            os.chown(self.folder, self._owner.pw_uid, self._owner.pw_gid)
        os.chmod(self.folder, 0o700)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self._owner is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=self.folder)
        if check and done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stderr.strip() or done.stdout.strip()}")
        return done

    def init(self) -> PostgresCluster:
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"
        )
        with (self.data / "postgresql.conf").open("a") as conf:
            for name, value in self.settings.items():
                conf.write(f"{name} = {value}\n")
        return self

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop", check=False)

    def restart(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-m", "fast", "-w", "restart")

    def is_running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode == 0

    def url(self, database: str = "postgres", user: str = "postgres", options: str = "") -> str:
        extra = f"&options={options}" if options else ""
        return f"postgresql://{user}@/{database}?host={self.folder}&port={SOCKET_PORT}{extra}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        """Run one statement as the superuser (autocommit: CREATE DATABASE needs it)."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(statement)  # type: ignore[arg-type]

    def create_database(self, name: str) -> str:
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def freeze(self, url: str) -> None:
        """Make a template of `url`'s database (nobody may be connected to it) for copy_of(url): a
        copy of its files, ~10x faster than copying its rows schema by schema."""
        import psycopg

        template = f"{database_of(url)}_template"
        deadline = time.monotonic() + 10
        while True:
            try:
                self.sql(f'CREATE DATABASE "{template}" TEMPLATE "{database_of(url)}" STRATEGY FILE_COPY')
                break
            except psycopg.errors.ObjectInUse:  # a connection just closed is still ending
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.templates[url] = template

    def copy_of(self, url: str, database: str) -> str:
        """A new database `database` holding what `url` held when it was frozen; its URL (same schema)."""
        self.sql(f'CREATE DATABASE "{database}" TEMPLATE "{self.templates[url]}" STRATEGY FILE_COPY')
        return self.url(database, options=f"-csearch_path%3D{schema_of(url)}")

    def remove(self) -> None:
        if self.data.exists():
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


def database_of(url: str) -> str:
    """The database a URL of PostgresCluster.url names."""
    from urllib.parse import urlsplit

    return urlsplit(url).path.lstrip("/")


def schema_of(url: str) -> str:
    """The schema a URL of tests/conftest.py's new_schema puts its tables in."""
    return url.rsplit("%3D", 1)[1]


def started_cluster(settings: dict[str, str] | None = None) -> PostgresCluster:
    """A new running cluster, or RuntimeError saying why there is none."""
    bindir = server_binaries()
    if bindir is None:
        raise RuntimeError(
            "no PostgreSQL server binaries (initdb, pg_ctl) here: apt-get install postgresql"
            " (or set PRAMANA_PG_BINDIR)"
        )
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            raise RuntimeError("running as root needs a `postgres` user to run the server as") from None
    cluster = PostgresCluster(bindir, settings=settings)
    try:
        cluster.init().start()
    except BaseException:
        cluster.remove()
        raise
    return cluster


def wait_until_accepting(cluster: PostgresCluster, seconds: float = 30) -> None:
    import psycopg

    deadline = time.monotonic() + seconds
    while True:
        try:
            psycopg.connect(cluster.url(), connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def clone_schema(cluster: PostgresCluster, source: str, target: str, database: str = "pramana") -> None:
    """Copy every table of schema `source` into a new schema `target` (rows, defaults, indexes,
    identity columns): what copying a SQLite file is to the SQLite tests."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(cluster.url(database), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(target)))
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = %s ORDER BY tablename", (source,)
            )
        ]
        for table in tables:
            old, new = sql.Identifier(source, table), sql.Identifier(target, table)
            conn.execute(sql.SQL("CREATE TABLE {} (LIKE {} INCLUDING ALL)").format(new, old))
            conn.execute(sql.SQL("INSERT INTO {} OVERRIDING SYSTEM VALUE SELECT * FROM {}").format(new, old))
        for table, column in conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = %s AND is_identity = 'YES'",
            (target,),
        ).fetchall():
            conn.execute(
                sql.SQL(
                    "SELECT setval(pg_get_serial_sequence({}, {}), coalesce(max({}), 0) + 1, false) FROM {}"
                ).format(
                    sql.Literal(f"{target}.{table}"),
                    sql.Literal(column),
                    sql.Identifier(column),
                    sql.Identifier(target, table),
                )
            )
