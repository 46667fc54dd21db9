"""Shared fixtures: the shared datasets, loopback HTTP servers over them, a seeded gita cache."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from pramana.config import GitaSettings
from pramana.gita.service import GitaService
from pramana.pali.source import build as build_dpd
from pramana.sanskrit.source import install
from pramana.sanskrit.store import SanskritStore

REPO_ROOT = Path(__file__).resolve().parent.parent


def _test_data_dir() -> Path:
    return Path(os.environ.get("PRAMANA_TEST_DATA", REPO_ROOT.parent / "shared" / "data")).resolve()


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
    """A static server that honours Range requests and cuts chosen files off halfway; with `pause`,
    it sends 64 KiB at a time, that many seconds apart (slow enough to kill a client mid-download)."""

    cut: ClassVar[set[str]] = set()
    pause: ClassVar[float] = 0.0
    lock = threading.Lock()
    requests: ClassVar[list[tuple[str, str]]] = []

    def do_GET(self) -> None:
        path = self.translate_path(self.path)
        with self.lock:
            self.requests.append((self.path, self.headers.get("Range", "")))
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            self.send_error(404)
            return
        start = 0
        if self.headers.get("Range", "").startswith("bytes="):
            start = int(self.headers["Range"][6:].split("-")[0])
        body = data[start:]
        self.send_response(206 if start else 200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.path in self.cut:
            self.cut.discard(self.path)
            self.wfile.write(body[: len(body) // 2])  # then the connection drops
            return
        if not self.pause:
            self.wfile.write(body)
            return
        for offset in range(0, len(body), 65536):
            self.wfile.write(body[offset : offset + 65536])
            time.sleep(self.pause)


class _Backlogged(ThreadingHTTPServer):
    # socketserver listens with a backlog of 5: clients opening 16 connections at once then see
    # dropped SYNs, retried after a second, which short test timeouts report as a connect timeout.
    request_queue_size = 128


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
    """A cache file seeded once from the loopback mirror; copy it before writing to it."""
    path = tmp_path_factory.mktemp("seeded") / "cache.db"
    service = GitaService(GitaSettings(db_path=path, api_url=mirror_url))
    result = service.seed()
    service.close()
    assert result.complete, result.failures
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
    """ap90, ccs, krm and nmmb installed over loopback HTTP, once per session."""
    folder = tmp_path_factory.mktemp("sanskrit")
    store = SanskritStore(folder / "sanskrit.db")
    asyncio.run(install(store, INSTALLED, csl_url, folder / "downloads"))
    store.close()
    return folder / "sanskrit.db"


@pytest.fixture(scope="session")
def dpd_data() -> Path:
    return require_data("pali")


@pytest.fixture(scope="session")
def dpd_db(tmp_path_factory: pytest.TempPathFactory, dpd_data: Path) -> Path:
    target = tmp_path_factory.mktemp("pali") / "dpd.db"
    build_dpd(dpd_data, target)
    return target
