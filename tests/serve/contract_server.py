"""A small MCP server whose tools misbehave on purpose, run by pramana's tool-call contract.

Started over stdio by test_calls.py: `python contract_server.py`.
"""

import threading
import time

from mcp.server.mcpserver import Context

from pramana import work
from pramana.errors import NotFoundError
from pramana.mcp.calls import progress_reporter, tool_call
from pramana.mcp.tools import new_server

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


if __name__ == "__main__":
    server.run("stdio")
