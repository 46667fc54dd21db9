"""Worker processes for the calls of CPU-heavy tools.

The threads of one Python process share its interpreter lock: a call computing for seconds in a
worker thread slows the event loop (/health) and every short call, however few such calls run. A
tool marked heavy (`tool_call(heavy=True)`) starts like any other, in a worker thread; a call that
has spent calls.LONG_CALL_AFTER_S of CPU there stops, and is run again from the start in one of a few
worker processes at lower OS priority: an interpreter lock of its own, and the CPU left to the
server whenever the server wants it. Most calls are short and never move.

Each process has its own copy of the heavy tools (the pool's `tools` factory registers the servers
there, over their own stores), so nothing but arguments and results crosses. A call waits for a
free process within its deadline, and at most MAX_WAITING calls wait: more are told at once that
the server is busy. A process that has not answered by the call's deadline plus STOP_GRACE_S is
killed (its answer is never read) and replaced; one that has served MAX_CALLS calls is replaced
too, which gives back whatever memory a call grew in it.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

import anyio
import anyio.to_thread

from pramana import process, work
from pramana.errors import PramanaError
from pramana.mcp.tools import explained

log = logging.getLogger(__name__)

ToolFunctions = dict[str, Callable[..., Any]]

# One process per spare core: the server keeps a core for its event loop and short calls.
POOL_SIZE = max(1, (os.cpu_count() or 2) - 1)
MAX_WAITING = 8
# Nice 10 weighs ~1/10 of a nice-0 process: heavy calls get the CPU the server leaves.
NICENESS = 10
MAX_CALLS = 500
# After the deadline, the work gets this long to stop at its own next check (its message is the
# more precise one) before the caller is answered regardless (and a worker process is replaced).
STOP_GRACE_S = 0.5
POLL_S = 0.1


def default_start_method() -> str:
    """forkserver where the platform has it (Linux, macOS), else spawn (Windows)."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


class ServerBusy(PramanaError):
    """Every worker process is taken and enough calls already wait for one."""

    def __init__(self) -> None:
        super().__init__("the server is busy with other long calls; try again shortly")


class _NoAnswer(Exception):
    """The process did not answer in time, or died: it must be replaced."""


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any, tools: Callable[[], ToolFunctions], niceness: int):
        self.conn, theirs = context.Pipe()
        arguments = (theirs, tools, niceness)
        self.process = context.Process(target=_serve, args=arguments, name="pramana-worker", daemon=True)
        self.process.start()
        theirs.close()
        self.calls = 0

    def ask(self, request: tuple, limit: work.Limit) -> tuple[bool, Any]:
        """(answered, result or error message); _NoAnswer past the deadline, when stopped, or if it died."""
        self.calls += 1
        until = limit.ends + STOP_GRACE_S
        try:
            self.conn.send(request)
            while not self.conn.poll(max(0.0, min(POLL_S, until - time.monotonic()))):
                if limit.stopped.is_set() or time.monotonic() >= until:
                    raise _NoAnswer
            return self.conn.recv()
        except (OSError, EOFError) as exc:  # the process died (killed, out of memory)
            raise _NoAnswer from exc

    def stop(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.conn.close()


class WorkerPool:
    """At most `size` worker processes for heavy calls, started when first needed.

    `tools` (picklable: a module-level function or a partial of one) makes the tool functions in
    each process; `preload`: modules the processes are forked with, imported once. Processes start
    by `start_method`, by default forkserver where the platform has it (Linux, macOS): a fork of a
    small server process that has imported `preload`, ~0.1 s; else spawn (Windows): a new
    interpreter, which imports them itself (a second or two for the first call that needs it).
    Never plain fork: the server forking itself while its threads hold locks can deadlock the child.
    """

    def __init__(
        self,
        tools: Callable[[], ToolFunctions],
        preload: Sequence[str] = (),
        size: int = POOL_SIZE,
        niceness: int = NICENESS,
        start_method: str | None = None,
    ):
        self._tools = tools
        self._niceness = niceness
        self.start_method = start_method or default_start_method()
        self._context = multiprocessing.get_context(self.start_method)
        if self.start_method == "forkserver":
            self._context.set_forkserver_preload(["pramana.mcp.workers", *preload])
        self._size = size
        self._free: list[_Worker] = []
        self._turns = threading.Semaphore(size)
        self._lock = threading.Lock()
        self._waiting = 0
        self.started = 0  # processes started so far (replacements included)

    async def call(self, name: str, args: tuple, kwargs: dict, limit: work.Limit) -> Any:
        """Run tool `name` in a worker process within `limit`; its error message raises ToolError-ready."""
        if self._waiting >= self._size + MAX_WAITING:
            raise ServerBusy
        self._waiting += 1
        try:
            job = functools.partial(self._run, name, args, kwargs, limit)
            return await anyio.to_thread.run_sync(job, abandon_on_cancel=True)
        finally:
            self._waiting -= 1

    def _run(self, name: str, args: tuple, kwargs: dict, limit: work.Limit) -> Any:
        if not self._take_turn(limit):
            raise ServerBusy
        try:
            worker = self._worker()
            try:
                answered, value = worker.ask((name, args, kwargs, limit.ends), limit)
            except _NoAnswer:
                self._replace(worker)
                raise work.WorkLimitExceeded(f"{name} did not finish within its deadline") from None
            self._give_back(worker)
        finally:
            self._turns.release()
        if not answered:
            raise _WorkerError(value)
        return value

    def prestart(self) -> None:
        """Start one worker process now, in the background: for a server whose heavy tools take seconds
        to get ready in a new process (the gita matcher over 26,000 verses), so that the first heavy
        call does not wait for that within its deadline."""

        def start() -> None:
            with self._lock:
                if self.started:  # one is running or starting already
                    return
                self.started += 1
            worker = _Worker(self._context, self._tools, self._niceness)
            with self._lock:
                self._free.append(worker)

        threading.Thread(target=start, name="pramana-worker-start", daemon=True).start()

    def _take_turn(self, limit: work.Limit) -> bool:
        while not limit.over():
            if self._turns.acquire(timeout=max(0.0, min(POLL_S, limit.remaining()))):
                return True
        return False

    def _worker(self) -> _Worker:
        with self._lock:
            if self._free:
                return self._free.pop()
            self.started += 1
        return _Worker(self._context, self._tools, self._niceness)

    def _give_back(self, worker: _Worker) -> None:
        if worker.calls >= MAX_CALLS:
            worker.stop()
            return
        with self._lock:
            self._free.append(worker)

    def _replace(self, worker: _Worker) -> None:
        """Kill a worker that did not answer; the next call starts a new one."""
        log.warning("a worker process did not answer within its call's deadline; replaced")
        worker.stop()

    def close(self) -> None:
        with self._lock:
            workers, self._free = self._free, []
        for worker in workers:
            worker.stop()


class _WorkerError(PramanaError):
    """A tool's error, as the worker process explained it (its message is for the agent as it is)."""


def _serve(conn: Connection, tools: Callable[[], ToolFunctions], niceness: int) -> None:
    """A worker process: answer (name, args, kwargs, ends) requests until the parent closes the pipe."""
    if hasattr(os, "nice"):  # Windows has no nice: the worker runs at the server's priority there
        os.nice(niceness)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which ends its workers
    process.for_serving()
    functions = tools()
    process.freeze_loaded()
    while True:
        try:
            name, args, kwargs, ends = conn.recv()
        except EOFError:
            return
        conn.send(_answer(functions[name], name, args, kwargs, ends))


def _answer(fn: Callable[..., Any], name: str, args: tuple, kwargs: dict, ends: float) -> tuple[bool, Any]:
    # The monotonic clock is the system's: `ends` means the same moment in both processes.
    try:
        with work.limited(work.Limit(ends)):
            return True, fn(*args, **kwargs)
    except Exception as exc:
        return False, explained(exc, name)
