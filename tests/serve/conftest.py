"""Fixtures for the HTTP tests: every server's data in one place, and servers run over HTTP."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from benchmarks._http_server import RunningServer, running_server

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
TOKEN = "tok-" + "a1b2c3d4" * 4
OTHER_TOKEN = "tok-" + "e5f6a7b8" * 4

SMALL_REPO = {
    "billing/cart.py": '''"""Shopping cart totals."""


def cart_total(prices: list[float], discount_percent: int = 0) -> float:
    """Sum the prices and take off a percentage discount."""
    subtotal = sum(prices)
    return round(subtotal * (100 - discount_percent) / 100, 2)
''',
    "README.md": "# Shop\n\nA tiny shop: `cart_total` adds up a cart.\n",
}


@pytest.fixture(scope="session")
def all_data(
    tmp_path_factory: pytest.TempPathFactory,
    seeded_db: Path,
    sanskrit_db: Path,
    dpd_db: Path,
    mirror_url: str,
) -> dict[str, str]:
    """Environment for `serve all`: private copies of every database and a small repository to index."""
    folder = tmp_path_factory.mktemp("all")
    stage_all_data(folder, seeded_db, sanskrit_db, dpd_db)
    return all_data_env(folder, mirror_url)


def stage_all_data(folder: Path, seeded_db: Path, sanskrit_db: Path, dpd_db: Path) -> Path:
    """Copies of every server's database and the small repository in `folder`; returns the repository."""
    repo = folder / "shop"
    for rel, text in SMALL_REPO.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    for source, name in ((seeded_db, "cache.db"), (sanskrit_db, "sanskrit.db"), (dpd_db, "dpd.db")):
        shutil.copy(source, folder / name)
    return repo


def all_data_env(folder: Path, mirror_url: str) -> dict[str, str]:
    """The environment that points every server at the data `stage_all_data` put in `folder`."""
    return {
        "VEDABASE_DB_PATH": str(folder / "cache.db"),
        "VEDABASE_API_URL": mirror_url,
        "SANSKRIT_DB_PATH": str(folder / "sanskrit.db"),
        "DPD_DB_PATH": str(folder / "dpd.db"),
        "PRAMANA_CODE_REPO": str(folder / "shop"),
        "PRAMANA_CODE_DB": str(folder / "code.db"),
        "PRAMANA_CODE_EMBEDDER": "none",
    }


def wait_ready(server: RunningServer, timeout: float = 60) -> dict:
    import time

    deadline = time.monotonic() + timeout
    while True:
        response = httpx.get(server.base + "/ready")
        if response.status_code == 200 or time.monotonic() > deadline:
            return response.json()
        time.sleep(0.2)


@pytest.fixture(scope="session")
def all_server(all_data: dict[str, str]) -> Iterator[RunningServer]:
    """`pramana serve all --transport http`, with every server's data, no auth."""
    with running_server(["all"], all_data) as server:
        wait_ready(server)
        yield server


@pytest.fixture(scope="session")
def token_server(all_data: dict[str, str]) -> Iterator[RunningServer]:
    """The gita server over HTTP with `--auth token` and a low rate limit (60 a minute, bursts of 20)."""
    env = {**all_data, "PRAMANA_TOKENS": f"{TOKEN},{OTHER_TOKEN}"}
    with running_server(["gita", "--auth", "token", "--rate-limit", "60"], env) as server:
        yield server
