"""Shared fixtures: the shared datasets, loopback HTTP servers over them, a seeded gita cache.

Two tiers (docs/testing.md). The whole suite is `scripts/test`; the fast tier, `scripts/test --fast`
(pytest -m "not slow and not data"), runs in under a minute and is what to run while working. The
rule, applied here at collection so that no one has to remember it:

- `data`: a test that reads the shared datasets, i.e. uses a fixture built on them (gita_mirror,
  csl_data, dpd_data and every fixture that needs those: seeded_db, sanskrit_db, dpd_db, ...), or a
  module that calls require_data itself. Mark such a test `@pytest.mark.data` only where neither
  applies.
- `slow`: a test in a module that starts processes (it imports run_pramana, running_server, an MCP
  session helper, subprocess, multiprocessing or WorkerPool) or uses a fixture that takes seconds to
  build (SLOW_FIXTURES: embedding tables, the MiniLM model). Mark a test `@pytest.mark.slow` by hand
  when it takes over a second of CPU some other way (a large hypothesis run, a big index).
- everything else is fast: pure logic over real SQLite files in tmp_path, in-process services over
  small inputs. Keep such tests in a module of their own, away from process-starting ones, so that
  they stay in the fast tier.

No test asserts a wall-clock time (the machine running it may be busy): assert order, counts, and
deadlines the code itself enforces; timings are measured by the scripts in benchmarks/.
"""

from __future__ import annotations

import asyncio
import fcntl
import gzip
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from pramana.config import GitaSettings
from pramana.gita.service import GitaService, remembered_source_path
from pramana.pali.source import build as build_dpd
from pramana.sanskrit.source import install
from pramana.sanskrit.store import SanskritStore

REPO_ROOT = Path(__file__).resolve().parent.parent


def _test_data_dir() -> Path:
    return Path(os.environ.get("PRAMANA_TEST_DATA", REPO_ROOT.parent / "shared" / "data")).resolve()


DATA_FIXTURES = {"gita_mirror", "csl_data", "dpd_data"}
SLOW_FIXTURES = {"static_data_dir", "static", "minilm"}  # embedding tables and the MiniLM model
PROCESS_HELPERS = {
    "run_pramana", "running_server", "stdio_session", "http_session", "sse_session", "subprocess",
    "multiprocessing", "Popen", "WorkerPool",
}  # fmt: skip


# Modules that one pytest-xdist worker runs as one unit (scripts/test: -n 2 --dist loadfile), so that
# what they share, built once per worker, is built once: a worker's PostgreSQL cluster with the Gita
# seeded and the books installed (seeded_postgres, books_postgres) and the `books` service's matcher
# over 26,000 verses; the wheel's mypyc build (built_wheel), which a second worker would wait for; and
# one `serve all` over HTTP (all_server). These units run first, in this order, then every other
# module, those with the most tests first: no worker is left waiting for a long unit at the end.
ONE_WORKER = {
    "postgres": (
        "tests/gita/test_books.py", "tests/gita/test_semantic.py", "tests/gita/test_postgres.py",
        "tests/gita/test_service.py", "tests/gita/test_store.py", "tests/gita/test_scripture_matcher.py",
        "tests/gita/test_scripture_transcript.py",
    ),
    "wheel": ("tests/test_wheel.py", "tests/sanskrit/test_native.py"),
    "serve all": (
        "tests/serve/test_hostile.py", "tests/serve/test_http.py", "tests/serve/test_node_clients.py",
        "tests/serve/test_attacks.py",
    ),
}  # fmt: skip
_UNIT_OF = {module: unit for unit, modules in ONE_WORKER.items() for module in modules}


def _unit(nodeid: str) -> str:
    """The unit a test goes to a worker in: its group in ONE_WORKER, else its module."""
    module = nodeid.split("::", 1)[0]
    return _UNIT_OF.get(module, module)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook
def pytest_xdist_make_scheduler(config: pytest.Config, log):  # type: ignore[no-untyped-def]
    """`--dist loadfile` with ONE_WORKER's groups as units, handed out in the order collected."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class Units(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _unit(nodeid)

    config.option.loadscopereorder = False  # the collection's order below, not xdist's by test count
    return Units(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test `data` and `slow` by the rule in this module's docstring; order the modules
    ONE_WORKER's units first, then by their number of tests (a module's own order kept)."""
    for item in items:
        module = getattr(item, "module", None)
        names = set(vars(module)) if module is not None else set()
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & DATA_FIXTURES or "require_data" in names:
            item.add_marker(pytest.mark.data)
        if names & PROCESS_HELPERS or fixtures & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)
    units = list(ONE_WORKER)
    count: dict[str, int] = {}
    for item in items:
        count[_unit(item.nodeid)] = count.get(_unit(item.nodeid), 0) + 1

    def rank(unit: str) -> tuple[int, int]:
        return (units.index(unit), 0) if unit in ONE_WORKER else (len(units), -count[unit])

    items.sort(key=lambda item: rank(_unit(item.nodeid)))  # stable: each unit's own order kept


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """A folder that `build` fills once per run, shared by the pytest-xdist workers: the first to ask
    builds it under a lock, the others wait for it and reuse it (the DPD database alone takes a
    minute). Read it, or copy it before writing, as every session fixture's data."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    folder = base / f"built-{name}"
    with open(base / f"built-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / ".built").exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed build left
            folder.mkdir()
            build(folder)
            (folder / ".built").touch()
    return folder


@pytest.fixture(scope="session", autouse=True)
def own_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The default data directory is the session's own: no test reads or writes the user's data."""
    previous = os.environ.get("PRAMANA_DATA_DIR")
    os.environ["PRAMANA_DATA_DIR"] = str(tmp_path_factory.mktemp("default-data"))
    yield Path(os.environ["PRAMANA_DATA_DIR"])
    if previous is None:
        del os.environ["PRAMANA_DATA_DIR"]
    else:
        os.environ["PRAMANA_DATA_DIR"] = previous


@pytest.fixture(scope="session", autouse=True)
def no_question_model() -> Iterator[None]:
    """Gita services and servers rank questions without the model unless a test gives them one
    (tests/gita/test_semantic.py): a seed would otherwise encode every translation (minutes)."""
    previous = os.environ.get("VEDABASE_QUESTION_MODEL")
    os.environ["VEDABASE_QUESTION_MODEL"] = "0"
    yield
    if previous is None:
        del os.environ["VEDABASE_QUESTION_MODEL"]
    else:
        os.environ["VEDABASE_QUESTION_MODEL"] = previous


def run_pramana(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`python -m pramana ARGS` to completion, output captured; env adds to this process's environment."""
    return subprocess.run(
        [sys.executable, "-m", "pramana", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def eventually(condition: Callable[[], object], seconds: float = 10) -> bool:
    """Whether `condition()` holds within `seconds` (polled): a guard against a test that would hang,
    never a measure of how fast anything is."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def require_data(*parts: str) -> Path:
    """A folder of the shared datasets; missing fails in CI and skips elsewhere, saying why."""
    path = _test_data_dir().joinpath(*parts)
    if not path.exists():
        message = (
            f"test data {path} is missing: set PRAMANA_TEST_DATA to the shared/data folder "
            "(it holds the datasets, which are not in this repository)"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def gita_mirror() -> Path:
    return require_data("gita", "mirror")


class StaticHandler(SimpleHTTPRequestHandler):
    """`python -m http.server`, quiet: 301 adds the trailing slash, index.html is the index."""

    def log_message(self, format: str, *args: object) -> None:
        pass


class QuietHandler(StaticHandler):
    """Like the upstream (GitHub Pages): a directory answers with its index.json as text/html."""

    def send_head(self):  # type: ignore[no-untyped-def]
        target = Path(self.translate_path(self.path))
        if self.path.endswith("/") and (target / "index.json").is_file():
            self.path += "index.json"
            response = super().send_head()
            return response
        return super().send_head()

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        return "text/html"


class RangeHandler(StaticHandler):
    """A static server that honours Range and If-Range (RFC 9110) with a strong ETag and Last-Modified,
    and cuts chosen files off halfway; with `pause`, it sends 64 KiB at a time, that many seconds apart
    (slow enough to kill a client mid-download). Subclass it (fresh lists) to misbehave:
    `etag`/`last_modified` False leave that validator out, `if_range` False ignores If-Range,
    `gzip` encodes every body whatever the client accepts (Range then counts the gzipped bytes), and
    `next_version` replaces a file once its cut has been sent (upstream published a new one)."""

    cut: ClassVar[set[str]] = set()
    pause: ClassVar[float] = 0.0
    etag: ClassVar[bool] = True
    last_modified: ClassVar[bool] = True
    if_range: ClassVar[bool] = True
    gzip: ClassVar[bool] = False
    next_version: ClassVar[dict[str, bytes]] = {}
    lock = threading.Lock()
    requests: ClassVar[list[tuple[str, str]]] = []
    exchanges: ClassVar[list[tuple[dict[str, str], int]]] = []  # (request headers, status answered)

    def do_GET(self) -> None:
        path = self.translate_path(self.path)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
            modified = self.date_time_string(int(os.stat(path).st_mtime))
        except OSError:
            self._log(404)
            self.send_error(404)
            return
        if self.gzip:
            data = gzip.compress(data, mtime=0)
        validators = self._validators(data, modified)
        start = self._range_start(validators)
        if start is not None and start >= len(data):
            self._log(416)
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{len(data)}")
            self._send_validators(validators)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = data[start or 0 :]
        self._log(206 if start is not None else 200)
        self.send_response(206 if start is not None else 200)
        if start is not None:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self._send_validators(validators)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self._send_body(body, path)

    def _validators(self, data: bytes, modified: str) -> dict[str, str]:
        validators = {}
        if self.etag:
            validators["ETag"] = '"' + hashlib.sha256(data).hexdigest()[:16] + '"'
        if self.last_modified:
            validators["Last-Modified"] = modified
        return validators

    def _range_start(self, validators: dict[str, str]) -> int | None:
        """Where the answer starts (None: the whole file), If-Range first as RFC 9110 13.2.2 orders."""
        wanted = self.headers.get("Range", "")
        if not wanted.startswith("bytes="):
            return None
        condition = self.headers.get("If-Range")
        if self.if_range and condition is not None and condition not in validators.values():
            return None
        return int(wanted[6:].split("-")[0])

    def _send_validators(self, validators: dict[str, str]) -> None:
        for name, value in validators.items():
            self.send_header(name, value)
        if self.gzip:
            self.send_header("Content-Encoding", "gzip")

    def _send_body(self, body: bytes, path: str) -> None:
        if self.path in self.cut:
            self.cut.discard(self.path)
            self.wfile.write(body[: len(body) // 2])  # then the connection drops
            if self.path in self.next_version:
                with open(path, "wb") as handle:
                    handle.write(self.next_version.pop(self.path))
            return
        if not self.pause:
            self.wfile.write(body)
            return
        for offset in range(0, len(body), 65536):
            self.wfile.write(body[offset : offset + 65536])
            time.sleep(self.pause)

    def _log(self, status: int) -> None:
        with self.lock:
            self.requests.append((self.path, self.headers.get("Range", "")))
            self.exchanges.append(({k.lower(): v for k, v in self.headers.items()}, status))


class _Backlogged(ThreadingHTTPServer):
    # socketserver listens with a backlog of 5: clients opening 16 connections at once then see
    # dropped SYNs, retried after a second, which short test timeouts report as a connect timeout.
    request_queue_size = 128

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        # A client hanging up mid-answer is what the fault tests do on purpose. Printing its traceback
        # from this thread is noise, and on Python 3.11 a harm: the traceback's caret anchors call
        # ast.parse, which races with an ast.parse in the test thread ("AST constructor recursion depth
        # mismatch", CPython gh-106905).
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class LoopbackServer:
    """A real HTTP server on 127.0.0.1 in a background thread."""

    def __init__(self, handler: type[SimpleHTTPRequestHandler], directory: Path):
        self.httpd = _Backlogged(("127.0.0.1", 0), partial(handler, directory=str(directory)))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> LoopbackServer:
        self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def mirror_url(gita_mirror: Path) -> Iterator[str]:
    """The Gita mirror over real HTTP, as `python -m http.server` serves it (301 to add the slash)."""
    with LoopbackServer(QuietHandler, gita_mirror) as server:
        yield server.url


@pytest.fixture(scope="session")
def seeded_db(tmp_path_factory: pytest.TempPathFactory, mirror_url: str) -> Path:
    """A cache file seeded from the loopback mirror; copy it before writing to it. One seed per run
    (~10 s of CPU), copied for each worker: each worker's copy remembers its own mirror as the source
    it was seeded from (service.remembered_source_path), as its own seed would."""

    def build(folder: Path) -> None:
        service = GitaService(GitaSettings(db_path=folder / "cache.db", api_url=mirror_url))
        result = service.seed()
        service.close()
        assert result.complete, result.failures

    seeded = built_once(tmp_path_factory, "seeded-gita", build) / "cache.db"
    path = tmp_path_factory.mktemp("seeded") / "cache.db"
    with closing(sqlite3.connect(seeded)) as source, closing(sqlite3.connect(path)) as copy:
        source.backup(copy)
    remembered_source_path(path).write_text(mirror_url + "\n", encoding="utf-8")
    return path


@pytest.fixture
def seeded_copy(seeded_db: Path, tmp_path: Path) -> Path:
    """A private copy of the seeded cache."""
    target = tmp_path / "cache.db"
    shutil.copy(seeded_db, target)
    return target


@pytest.fixture
def gita(seeded_db: Path, mirror_url: str) -> Iterator[GitaService]:
    """A service over the shared seeded cache (read-only use)."""
    service = GitaService(GitaSettings(db_path=seeded_db, api_url=mirror_url))
    yield service
    service.close()


# -- sanskrit and pali databases, built once per session (the mcp tests use them too) --

INSTALLED = ["ap90", "ccs", "krm", "nmmb"]


@pytest.fixture(scope="session")
def csl_data() -> Path:
    return require_data("sanskrit")


@pytest.fixture(scope="session")
def csl_url(csl_data: Path):
    with LoopbackServer(StaticHandler, csl_data) as server:
        yield server.url


@pytest.fixture(scope="session")
def sanskrit_db(tmp_path_factory: pytest.TempPathFactory, csl_url: str) -> Path:
    """ap90, ccs, krm and nmmb installed over loopback HTTP, once per run."""

    def build(folder: Path) -> None:
        store = SanskritStore(folder / "sanskrit.db")
        asyncio.run(install(store, INSTALLED, csl_url, folder / "downloads"))
        store.close()

    return built_once(tmp_path_factory, "sanskrit", build) / "sanskrit.db"


@pytest.fixture(scope="session")
def dpd_data() -> Path:
    return require_data("pali")


@pytest.fixture(scope="session")
def dpd_db(tmp_path_factory: pytest.TempPathFactory, dpd_data: Path) -> Path:
    """The DPD database built from the shared data, once per run."""
    folder = built_once(tmp_path_factory, "pali", lambda folder: build_dpd(dpd_data, folder / "dpd.db"))
    return folder / "dpd.db"


@contextmanager
def read_only_mount(source: Path, target: Path) -> Iterator[Path]:
    """`source` mounted read-only at `target` (a bind mount): root ignores file permissions, a
    read-only filesystem it cannot. Skips where this machine may not mount."""
    target.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "--bind", str(source), str(target)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot bind-mount here ({mounted.stderr.strip() or 'mount failed'}); needs root")
    try:
        remounted = subprocess.run(
            ["mount", "-o", "remount,bind,ro", str(target)], capture_output=True, text=True
        )
        if remounted.returncode != 0:
            pytest.skip(f"cannot remount read-only here: {remounted.stderr.strip()}")
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], check=False)


@contextmanager
def small_filesystem(target: Path, size: str) -> Iterator[Path]:
    """A real filesystem of `size` (e.g. "1600k": a tmpfs) mounted at `target`, so that writes meet a
    real full disk. Skips where this machine may not mount."""
    target.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(target)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here ({mounted.stderr.strip() or 'mount failed'})")
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], check=False)


def require_extra(*modules: str) -> None:
    """Skip unless the extras' modules are installed; in CI (CI set) fail instead: there they must be."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        message = (
            f"needs {', '.join(missing)}: uv sync --all-extras (the embeddings, milvus and pinecone extras)"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def static_data_dir(tmp_path_factory) -> Path:
    """A data directory holding a static embedding table of its own (the shipped one, written where
    a table built from the model would go), for the tests of tables kept in a data directory."""
    from pramana.embed import packaged_table, table_path, write_table

    data_dir = tmp_path_factory.mktemp("data")
    shipped = packaged_table()
    assert shipped is not None, "the static table shipped in src/pramana/embed/data is missing or damaged"
    write_table(table_path(data_dir), shipped.vectors, shipped.vocab, 0.0)
    return data_dir


@pytest.fixture(scope="session")
def static(static_data_dir):
    """The static embedder over the session's table (loaded, never built again)."""
    from pramana.embed import StaticEmbedder

    embedder = StaticEmbedder(static_data_dir)
    assert embedder.is_ready()
    return embedder


def uv_command() -> str:
    """The uv that builds and installs wheels: skips where there is none, fails in CI."""
    found = os.environ.get("UV") or shutil.which("uv")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("uv is not installed: the wheel is built and installed with it")
        pytest.skip("uv is not installed")
    return found


def offline_env() -> dict[str, str]:
    """This process's environment for uv, offline (the locked packages come from uv's cache) and
    outside this checkout's virtual environment."""
    offline = {**os.environ, "UV_OFFLINE": "1", "UV_NO_PROGRESS": "1"}
    for name in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT", "PYTHONPATH"):
        offline.pop(name, None)
    return offline


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel `uv build` makes from this checkout (the wheel from the sdist), once per
    run: tests/test_wheel.py installs the wheel, tests/sanskrit/test_native.py runs its compiled
    analyzer. Its build compiles the analyzer with mypyc where a C compiler is at hand (hatch_build.py),
    the suite's costliest step after the analyzer's own answers: built once, not once for each."""
    uv = uv_command()

    def build(folder: Path) -> None:
        done = subprocess.run([uv, "build", "--out-dir", str(folder)], cwd=REPO_ROOT, env=offline_env(),
                              capture_output=True, text=True, timeout=600)  # fmt: skip
        assert done.returncode == 0, f"uv build: {done.stdout}\n{done.stderr}"

    return built_once(tmp_path_factory, "wheel", build)


# -- PostgreSQL: one throwaway cluster per session (benchmarks/_postgres_server.py) --


@pytest.fixture(scope="session")
def postgres_cluster():
    """A real PostgreSQL server of the session's own (on a Unix socket in its own folder); skips
    where there are no server binaries, fails in CI (.ci/run installs Debian's postgresql there)."""
    from benchmarks._postgres_server import started_cluster

    try:
        cluster = started_cluster()
    except RuntimeError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests need a server: {exc}")
        pytest.skip(f"PostgreSQL tests need a server: {exc}")
    yield cluster
    cluster.remove()


_schemas = iter(range(1, 1_000_000))


@pytest.fixture
def postgres_url(postgres_cluster) -> str:
    """A database URL of the session's cluster whose tables go into a schema of this test's own."""
    return new_schema(postgres_cluster)


def new_schema(cluster, copy_of: str | None = None, database: str = "pramana") -> str:  # type: ignore[no-untyped-def]
    """A schema in the cluster's `database`, empty or a copy of the schema another URL of this
    function's writes to, and a URL whose tables go there. A copy of a frozen URL (seeded_postgres)
    is a database of its own, copied from the template's files."""
    from benchmarks._postgres_server import clone_schema, database_of, schema_of

    if copy_of is not None and copy_of in cluster.templates:
        return cluster.copy_of(copy_of, f"copy{next(_schemas)}")
    name = f"t{next(_schemas)}"
    made = cluster.__dict__.setdefault("databases_made", set())
    if database not in made:
        cluster.create_database(database)
        made.add(database)
    if copy_of is None:
        cluster.sql(f"CREATE SCHEMA {name}", database=database)
    else:
        if database_of(copy_of) != database:
            raise ValueError("a schema is copied within its database (or freeze the source first)")
        clone_schema(cluster, schema_of(copy_of), name, database)
    return cluster.url(database, options=f"-csearch_path%3D{name}")


@pytest.fixture(scope="session")
def seeded_postgres(postgres_cluster, mirror_url: str) -> str:
    """A schema seeded once from the loopback mirror, as seeded_db is, in a database of its own that
    is then frozen: copy it (new_schema(copy_of=...)) before writing to it."""
    url = new_schema(postgres_cluster, database="seeded")
    service = GitaService(GitaSettings(database_url=url, api_url=mirror_url))
    result = service.seed()
    service.close()
    assert result.complete, result.failures
    postgres_cluster.freeze(url)
    return url
