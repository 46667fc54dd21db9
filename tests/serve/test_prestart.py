"""A worker process started with the server, for heavy tools that take seconds to load in a new one."""

from __future__ import annotations

import time

from pramana import work
from pramana.mcp.workers import WorkerPool
from tests.conftest import eventually


def echo_tools() -> dict:
    return {"echo": lambda text: text}


def test_prestart_starts_one_worker_the_first_call_then_uses():
    pool = WorkerPool(echo_tools, size=2, niceness=0)
    try:
        pool.prestart()
        pool.prestart()  # at most one is started ahead of the calls
        assert eventually(lambda: pool._free, 60), "no worker started"
        assert pool.started == 1
        answered, value = pool._free[0].ask(
            ("echo", ("om",), {}, time.monotonic() + 30), work.Limit(time.monotonic() + 30)
        )
        assert (answered, value) == (True, "om") and pool.started == 1
    finally:
        pool.close()
