"""A loopback HTTP server over the mirror that misbehaves on chosen paths, as upstreams do."""

from __future__ import annotations

import socket
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import LoopbackServer, QuietHandler

HANG_LIMIT_SECONDS = 60  # a "hang" answers nothing until the client gives up, or this long


class FaultPlan:
    """path → behaviours: `once` are used up one request at a time, `always` never are."""

    def __init__(self) -> None:
        self.once: dict[str, list[str]] = {}
        self.always: dict[str, str] = {}
        self.requests: Counter[str] = Counter()
        self._lock = threading.Lock()

    def next(self, path: str) -> str | None:
        with self._lock:
            self.requests[path] += 1
            queued = self.once.get(path)
            if queued:
                return queued.pop(0)
            return self.always.get(path)

    def clear(self) -> None:
        with self._lock:
            self.once.clear()
            self.always.clear()

    @property
    def total_requests(self) -> int:
        return sum(self.requests.values())


class FaultyHandler(QuietHandler):
    plan: FaultPlan

    def do_GET(self) -> None:
        if self.path.startswith("/moved/"):
            self.send_response(301)
            self.send_header("Location", self.path.removeprefix("/moved"))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        behaviour = self.plan.next(self.path.removesuffix("index.json"))
        if behaviour == "500":
            self.send_error(500, "upstream exploded")
        elif behaviour == "503":
            self.send_error(503, "try later")
        elif behaviour == "hang":
            self._wait_for_the_client_to_give_up()
        elif behaviour == "truncate":
            body = self._file_body()
            half = body[: len(body) // 2]
            self._send(half)
        elif behaviour == "wrong-doc":
            self._send(self._file_body("/slok/1/1/"))
        elif behaviour == "not-json":
            self._send(b"<html>maintenance</html>")
        else:
            super().do_GET()

    def _wait_for_the_client_to_give_up(self) -> None:
        """Answer nothing until the client closes the connection (its timeout ran out): only the
        client's timeout ends the request, and no clock of the server's races it."""
        self.close_connection = True
        self.connection.settimeout(HANG_LIMIT_SECONDS)
        try:
            while self.connection.recv(4096):
                pass
        except OSError:
            pass

    def _file_body(self, path: str | None = None) -> bytes:
        relative = (path or self.path).removesuffix("index.json").strip("/")
        return (Path(self.directory) / relative / "index.json").read_bytes()

    def _send(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def faulty_server(directory: Path) -> tuple[LoopbackServer, FaultPlan]:
    plan = FaultPlan()
    handler = type("PlannedHandler", (FaultyHandler,), {"plan": plan})
    return LoopbackServer(handler, directory), plan


def closed_port_url() -> str:
    """A loopback URL where nothing listens: connecting is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@contextmanager
def hanging_server() -> Iterator[str]:
    """A loopback port that accepts connections (the kernel completes them) and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
