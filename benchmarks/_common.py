"""Helpers for the benchmark scripts: the shared data, a loopback mirror, percentiles."""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def gita_mirror() -> Path:
    data = Path(os.environ.get("PRAMANA_TEST_DATA", REPO_ROOT.parent / "shared" / "data"))
    mirror = data / "gita" / "mirror"
    if not mirror.is_dir():
        sys.exit(f"no Gita mirror at {mirror}: set PRAMANA_TEST_DATA to the shared/data folder")
    return mirror


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def loopback_mirror(directory: Path) -> Iterator[str]:
    """The mirror served by a separate process, like `python -m http.server` (index.json as index)."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, str(Path(__file__).parent / "_mirror_server.py"), str(directory), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    try:
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


def percentiles(samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"p50 {statistics.median(ordered):.2f} ms, p95 {p95:.2f} ms, "
        f"min {ordered[0]:.2f} ms, max {ordered[-1]:.2f} ms (n={len(ordered)})"
    )
