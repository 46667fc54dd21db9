"""Helpers for the benchmark scripts: the shared data, a loopback mirror, percentiles."""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession

from pramana import process

REPO_ROOT = Path(__file__).resolve().parent.parent
# A benchmark is a command of its own: the process-wide settings pramana's commands make (one BLAS
# thread), before numpy is imported by what it measures.
process.for_commands()


def shared_data(*parts: str) -> Path:
    """A folder of the shared datasets (PRAMANA_TEST_DATA, default ../shared/data); exits if missing."""
    data = Path(os.environ.get("PRAMANA_TEST_DATA", REPO_ROOT.parent / "shared" / "data"))
    folder = data.joinpath(*parts)
    if not folder.exists():
        sys.exit(f"no {'/'.join(parts)} data at {folder}: set PRAMANA_TEST_DATA to the shared/data folder")
    return folder


def gita_mirror() -> Path:
    return shared_data("gita", "mirror")


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


def load_average() -> str:
    """The machine's load average (1, 5, 15 minutes), printed beside timings on a shared machine."""
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def descendants(pid: int | None = None) -> list[int]:
    """The processes this one (or `pid`) started, and theirs: a server over stdio and its workers."""
    found, parents = [], [os.getpid() if pid is None else pid]
    while parents:
        parent = parents.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                continue
            found += children
            parents += children
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds the processes have used (a figure the machine's load does not inflate)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15 of proc(5)
    return total / os.sysconf("SC_CLK_TCK")


def process_cpu_ms(pid: int) -> float:
    """CPU time one process has run, all its threads, to the nanosecond (Linux:
    /proc/PID/task/*/schedstat; 0 where there is no /proc): fine enough for one call's cost, where
    cpu_seconds counts clock ticks."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            total += int(stat.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended between listing and reading
    return total / 1e6


async def until_idle(settle_s: float = 1.0, quiet: int = 3, timeout_s: float = 300.0) -> float:
    """Wait until this process's children (a server, its workers and helpers) have used next to no CPU
    for `quiet` periods of `settle_s` in a row: a server builds its indexes in the background at start
    (some in niced processes, which a busy machine starves for a moment), and that would be counted in
    what is timed next. The seconds waited."""
    import asyncio

    started = time.perf_counter()
    before, calm = cpu_seconds(descendants()), 0
    while calm < quiet and time.perf_counter() - started < timeout_s:
        await asyncio.sleep(settle_s)
        now = cpu_seconds(descendants())
        calm = calm + 1 if now - before < 0.05 * settle_s else 0
        before = now
    return time.perf_counter() - started


def rss_mb(pids: list[int]) -> float:
    """Resident memory of the processes, in MB."""
    total = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        total += sum(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
    return total * 1024 / 1e6


def percentiles(samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"p50 {statistics.median(ordered):.2f} ms, p95 {p95:.2f} ms, "
        f"min {ordered[0]:.2f} ms, max {ordered[-1]:.2f} ms (n={len(ordered)})"
    )


async def sdk_timed(
    session: ClientSession, tool: str, arguments: dict, calls: int
) -> tuple[list[float], Any]:
    """Milliseconds per call through the SDK's ClientSession, and the last result (exits on a tool error)."""
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        result = await session.call_tool(tool, arguments)
        samples.append((time.perf_counter() - started) * 1000)
    if result.is_error:
        sys.exit(result.content[0].text)
    return samples, result


class RawStdioClient:
    """A bare JSON-RPC client over a server's stdin/stdout: the time the server and the transport take.

    The SDK's ClientSession re-validates every structured result against the tool's outputSchema in
    pure Python (jsonschema), which costs milliseconds for lists of 50 results; clients such as Claude
    Desktop validate with compiled validators or not at all. Measuring both shows which is which.
    """

    def __init__(self, args: list[str], env: dict[str, str]):
        self._process = subprocess.Popen(
            [sys.executable, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=env, text=True, encoding="utf-8", bufsize=1,
        )  # fmt: skip
        self._next_id = 0
        self.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "pramana-benchmark", "version": "0"},
        })  # fmt: skip
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _send(self, message: dict) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(message) + "\n")
        self._process.stdin.flush()

    def request(self, method: str, params: dict) -> dict:
        self._next_id += 1
        self._send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        assert self._process.stdout is not None
        while True:
            message = json.loads(self._process.stdout.readline())
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]

    def call_tool(self, name: str, arguments: dict) -> dict:
        result = self.request("tools/call", {"name": name, "arguments": arguments})
        if result.get("isError"):
            raise RuntimeError(result["content"][0]["text"])
        return result

    def timed(self, name: str, arguments: dict, calls: int) -> list[float]:
        samples = []
        for _ in range(calls):
            started = time.perf_counter()
            self.call_tool(name, arguments)
            samples.append((time.perf_counter() - started) * 1000)
        return samples

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(timeout=10)
