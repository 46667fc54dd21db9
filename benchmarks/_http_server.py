"""A real `pramana serve ... --transport http` process on a free loopback port, for tests and benchmarks."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx


@dataclass
class RunningServer:
    process: subprocess.Popen[str]
    port: int
    log_lines: list[str] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def mcp_url(self) -> str:
        return self.base + "/mcp"

    def logs(self) -> list[dict]:
        """The JSON log lines so far (every line must be JSON)."""
        return [json.loads(line) for line in list(self.log_lines)]

    def stop(self, timeout: float = 20) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def _read_lines(
    process: subprocess.Popen[str], lines: list[str], port: list[int], ready: threading.Event
) -> None:
    assert process.stderr is not None
    for line in process.stderr:
        lines.append(line.rstrip("\n"))
        if not port and '"listening"' in line:
            port.append(int(json.loads(line)["port"]))
            ready.set()
    ready.set()


@contextmanager
def running_server(
    args: Sequence[str], env: dict[str, str] | None = None, *, startup_timeout: float = 90
) -> Iterator[RunningServer]:
    """Start `pramana serve ARGS --transport http --port 0`, wait for /health, stop it with SIGTERM."""
    command = [sys.executable, "-m", "pramana", "serve", *args, "--transport", "http", "--port", "0"]
    process = subprocess.Popen(
        command,
        env={**os.environ, "PRAMANA_LOG_LEVEL": "INFO", **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    lines: list[str] = []
    port: list[int] = []
    ready = threading.Event()
    threading.Thread(target=_read_lines, args=(process, lines, port, ready), daemon=True).start()
    server = None
    try:
        ready.wait(startup_timeout)
        if not port:
            process.kill()
            process.wait()
            raise RuntimeError("server did not start:\n" + "\n".join(lines[-30:]))
        server = RunningServer(process, port[0], lines)
        deadline = time.monotonic() + startup_timeout
        while httpx.get(server.base + "/health").status_code != 200:
            if time.monotonic() > deadline:
                raise RuntimeError("no /health")
            time.sleep(0.1)
        yield server
    finally:
        if server is not None:
            server.stop()
        elif process.poll() is None:
            process.kill()
            process.wait()
