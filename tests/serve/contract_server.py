"""A small MCP server whose tools misbehave on purpose, run by pramana's tool-call contract.

Started over stdio by test_calls.py: `python contract_server.py`.
"""

import multiprocessing
import os
import threading
import time

from mcp.server.mcpserver import Context

from pramana import process, work
from pramana.errors import NotFoundError
from pramana.mcp.calls import declaration_of, progress_reporter, tool_call
from pramana.mcp.tools import new_server
from pramana.mcp.workers import WorkerPool

server = new_server("contract", "tools that test how calls run")
DEADLINE = 0.5


@server.tool()
@tool_call(DEADLINE)
def ping() -> str:
    """Answer at once, saying where it ran."""
    return _where()


def _where() -> str:
    return "event loop thread" if threading.current_thread() is threading.main_thread() else "worker"


@server.tool()
@tool_call(DEADLINE)
def spin(seconds: float) -> str:
    """`seconds` of CPU work that checks its limit, as long-running service loops do."""
    ends = time.thread_time() + seconds
    while time.thread_time() < ends:
        work.check("spinning")
    return "done"


@server.tool()
@tool_call(DEADLINE)
def hang(seconds: float) -> str:
    """Work that never checks its limit (a blocking call)."""
    time.sleep(seconds)
    return "woke"


@server.tool()
@tool_call(DEADLINE)
def fail(kind: str) -> str:
    """Fail as services do: a pramana error, or a bug."""
    if kind == "pramana":
        raise NotFoundError("no such verse: BG 19.1")
    return {}["missing"]


@server.tool()
@tool_call(5, lane="long")
def count(ctx: Context, steps: int) -> str:
    """Report progress from the worker thread."""
    report = progress_reporter(ctx)
    for step in range(1, steps + 1):
        report(step, steps, f"step {step}")
    return _where()


@server.tool()
@tool_call(10, heavy=True)
def crunch(seconds: float) -> int:
    """`seconds` of CPU in steps that hold the interpreter lock (as a regex over a long text does),
    checking the limit between them; answers the id of the process it ran in."""
    ends = time.thread_time() + seconds
    while time.thread_time() < ends:
        work.check("crunching")
        sum(range(200_000))
    return os.getpid()


@server.tool()
@tool_call(10, heavy=True, at_once=lambda call: call.get("results", 0) > 100)
def read(text: str, results: int = 1) -> int:
    """Cheap work on a text of any length (asking for more than 100 results goes to a worker process at
    once, as a search asking for a thousand hits does); answers the id of the process it ran in."""
    work.check("reading")
    return os.getpid()


@server.tool()
@tool_call(DEADLINE, heavy=True)
def stall(seconds: float) -> str:
    """Long enough to move to a worker process; there, a wait that never checks its limit."""
    if multiprocessing.parent_process() is None:  # in the server
        declaration_of(crunch).function(0.1)
    time.sleep(seconds)
    return "woke"


# Calls that hold their worker until the test says `release`: what they overlap with is then a matter
# of order, not of how fast a busy machine runs.
_released = threading.Event()
_holding = 0
_holding_lock = threading.Lock()


def _hold() -> None:
    global _holding
    with _holding_lock:
        _holding += 1


@server.tool()
@tool_call(60)
def stuck() -> str:
    """Hold a worker thread, never checking the limit (a blocking call), until `release`."""
    _hold()
    _released.wait(60)
    return "released"


@server.tool()
@tool_call(60)
def hold_slot() -> str:
    """Work long enough to take a long-call slot, then keep it (checking the limit) until `release`."""
    ends = time.thread_time() + 0.1
    while time.thread_time() < ends:
        work.check("working")
    _hold()
    while not _released.wait(0.01):
        work.check("holding")
    return "released"


@server.tool()
@tool_call(DEADLINE)
def holding() -> int:
    """How many `stuck` and `hold_slot` calls are holding their worker now (or have)."""
    return _holding


@server.tool()
@tool_call(DEADLINE)
def release() -> str:
    """Let every `stuck` and `hold_slot` call finish."""
    _released.set()
    return "released"


@server.tool()
@tool_call(DEADLINE)
def pid() -> int:
    """The server's process id."""
    return os.getpid()


@server.tool()
@tool_call(DEADLINE)
def cpu() -> float:
    """CPU seconds the server's process has used so far."""
    return time.process_time()


def heavy_tools() -> dict:
    """The heavy tools, as a worker process runs them."""
    return {fn.__name__: declaration_of(fn).function for fn in (crunch, stall, read)}


if os.environ.get("CONTRACT_IN_THREADS") != "1":  # as before worker processes, to compare
    # At the server's priority: these tests are about moving and replacing, on a machine that may be busy.
    # CONTRACT_START_METHOD=spawn: as on Windows, which has no forkserver.
    start = os.environ.get("CONTRACT_START_METHOD") or None
    pool = WorkerPool(heavy_tools, size=1, niceness=0, start_method=start)
    for heavy in (crunch, stall, read):
        declaration_of(heavy).processes = pool

if __name__ == "__main__":
    process.for_serving()
    server.run("stdio")
