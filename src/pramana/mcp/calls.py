"""How every tool call runs: in a bounded worker pool, under a deadline, with errors the agent can read.

Services are plain synchronous code. `tool_call` turns one into an async MCP tool that never runs
on the event loop: the call waits for one of a bounded number of worker threads, runs under a
`pramana.work` limit, and ends at its deadline with a tool error while the server goes on
answering everyone else. Workers idle for ten seconds end (anyio's thread pool), and with them
their SQLite connections.

Python threads share one interpreter lock, so a few CPU-bound calls would slow every other call
(and the event loop) however many workers there are. A call of a heavy tool that has spent
LONG_CALL_AFTER_S of CPU in its thread is therefore moved, at its next `work.check()`, to a worker
process (mcp/workers.py) when its server has a pool. Any other call that long waits there for one
of LONG_CALL_SLOTS slots (one per spare core): however many expensive inputs arrive, short calls
compete with at most that many busy threads. Long jobs that mostly wait on the network (seeding)
have a pool of their own and take no slot.
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from pramana import work
from pramana.mcp.disclosure import public_message, public_result, scrubber
from pramana.mcp.tools import explained
from pramana.mcp.workers import STOP_GRACE_S, WorkerPool

log = logging.getLogger(__name__)

Lane = Literal["calls", "long"]

DEFAULT_DEADLINE_S = 10.0
# No call may be given longer than this (a seed of every text from the network); a tool declaring a
# longer deadline is refused when its module is imported.
LONGEST_DEADLINE_S = 15 * 60.0
# Workers per lane. Long calls wait for their slot inside a worker, without using the CPU, so the
# pool is sized for the calls in flight (a few per client), not for the cores.
LANE_WORKERS: dict[Lane, int] = {"calls": 64, "long": 2}
LONG_CALL_AFTER_S = 0.05
# A heavy tool's call with more characters of input than this goes to a worker process at once. An
# ordinary call (a verse quote, a Pāli sentence, a headword) has tens to a few hundred; a longer one
# would spend its first LONG_CALL_AFTER_S of CPU under the server's interpreter lock, slowing every
# other call, and then move anyway (under hostile load, the heavy tools' first 50 ms were most of the
# time the server's worker threads held the lock: py-spy, benchmarks/hostile_load.py).
HEAVY_INPUT_CHARS = 1_000
LONG_CALL_SLOTS = max(1, (os.cpu_count() or 2) - 1)

_limiters: dict[Lane, anyio.CapacityLimiter] = {}
_long_slots = threading.BoundedSemaphore(LONG_CALL_SLOTS)


def _limiter(lane: Lane) -> anyio.CapacityLimiter:
    """The lane's bound on worker threads (made in the server's event loop, on its first call)."""
    if lane not in _limiters:
        _limiters[lane] = anyio.CapacityLimiter(LANE_WORKERS[lane])
    return _limiters[lane]


@dataclass(frozen=True)
class Budget:
    """What one call of a tool may spend: `seconds` from arrival to answer, run in `lane`; `heavy`:
    a long call may move to a worker process (a read-only tool that only computes: it is run again
    from the start there, and reports no progress)."""

    seconds: float = DEFAULT_DEADLINE_S
    lane: Lane = "calls"
    heavy: bool = False
    at_once: Callable[[dict[str, Any]], bool] | None = None  # a heavy call its arguments say is costly


@dataclass
class DeclaredTool:
    """A tool as `tool_call` declared it: its name, its budget, the plain synchronous function (what a
    worker process runs), and the pool its long calls move to when it is heavy (`processes`, set by
    the server that serves it; None: they stay in their thread)."""

    name: str
    budget: Budget
    function: Callable[..., Any]
    processes: WorkerPool | None = None


_declaring: ContextVar[list[DeclaredTool] | None] = ContextVar("pramana_declaring", default=None)
_declarations: weakref.WeakKeyDictionary[Callable[..., Any], DeclaredTool] = weakref.WeakKeyDictionary()


@contextmanager
def declared_tools() -> Iterator[list[DeclaredTool]]:
    """The tools `tool_call` declares while the block runs (a server module's `register`), in order."""
    tools: list[DeclaredTool] = []
    token = _declaring.set(tools)
    try:
        yield tools
    finally:
        _declaring.reset(token)


def declaration_of(tool: Callable[..., Any]) -> DeclaredTool:
    """The declaration behind a function `tool_call` returned."""
    return _declarations[tool]


def tool_call(
    seconds: float = DEFAULT_DEADLINE_S,
    lane: Lane = "calls",
    *,
    heavy: bool = False,
    at_once: Callable[[dict[str, Any]], bool] | None = None,
) -> Callable[[Callable[..., Any]], Any]:
    """Decorator: run a synchronous tool function as described in this module.

    A heavy tool's call goes to a worker process at once when its text arguments are longer than
    HEAVY_INPUT_CHARS, or when `at_once(arguments)` says its arguments ask for much work (a
    thousand results).

    The wrapper keeps the function's signature (MCP builds the tool's schema from it) and docstring
    (its description). Pramana errors become ToolError with their message; anything unexpected is
    logged with its traceback and reported without it. Each use declares a `DeclaredTool`, which
    `declared_tools()` collects and `declaration_of(wrapper)` finds.
    """
    if not 0 < seconds <= LONGEST_DEADLINE_S:
        raise ValueError(f"a tool's deadline is between 0 and {LONGEST_DEADLINE_S:g} s, not {seconds}")
    budget = Budget(seconds, lane, heavy, at_once)

    def decorate(fn: Callable[..., Any]) -> Any:
        if inspect.iscoroutinefunction(fn):
            raise TypeError(f"{fn.__name__}: tool functions are synchronous; tool_call runs them")
        declared = DeclaredTool(fn.__name__, budget, fn)

        @functools.wraps(fn)
        async def run(*args: Any, **kwargs: Any) -> Any:
            return await _run(fn, budget, declared.processes, args, kwargs)

        _declarations[run] = declared
        collecting = _declaring.get()
        if collecting is not None:
            collecting.append(declared)
        return run

    return decorate


async def _run(
    fn: Callable[..., Any], budget: Budget, processes: WorkerPool | None, args: tuple, kwargs: dict
) -> Any:
    limit = work.Limit(time.monotonic() + budget.seconds)
    job = functools.partial(_work, fn, budget, processes is not None, limit, args, kwargs)
    try:
        with anyio.fail_after(budget.seconds + STOP_GRACE_S):
            if processes is not None and budget.heavy and _costly(budget, args, kwargs):
                return await _public(await processes.call(fn.__name__, args, kwargs, limit))
            # abandon_on_cancel: at the deadline the caller is answered; the work, told to stop,
            # ends at its next check. A call still waiting for a worker never starts.
            try:
                return await anyio.to_thread.run_sync(
                    job, limiter=_limiter(budget.lane), abandon_on_cancel=True
                )
            except _TurnedHeavy:
                assert processes is not None
                return await _public(await processes.call(fn.__name__, args, kwargs, limit))
    except TimeoutError:
        raise ToolError(
            f"this input needs more work than one call may spend: {fn.__name__} did not finish within "
            f"its {budget.seconds:g} s; simplify or shorten the input"
        ) from None
    except ToolError as exc:
        raise ToolError(_told(fn.__name__, str(exc))) from exc
    except Exception as exc:
        raise ToolError(_told(fn.__name__, explained(exc, fn.__name__))) from exc
    finally:
        limit.stopped.set()  # a call timed out or cancelled by its client stops at its next check


def _told(name: str, message: str) -> str:
    """An error message as the client may read it; when paths had to be cut from it, the server's log
    keeps it whole, for the operator."""
    public = public_message(message)
    if public != message:
        log.info("%s: %s", name, message)
    return public


async def _public(value: Any) -> Any:
    """A worker process's result as a remote client may see it (mcp/disclosure.py), made off the loop."""
    if scrubber() is None:
        return value
    return await anyio.to_thread.run_sync(public_result, value)


def _input_chars(args: tuple, kwargs: dict) -> int:
    """The characters of a call's text arguments."""
    return sum(len(value) for value in (*args, *kwargs.values()) if isinstance(value, str))


def _costly(budget: Budget, args: tuple, kwargs: dict) -> bool:
    """Whether a heavy tool's call should go to a worker process before it starts."""
    if _input_chars(args, kwargs) > HEAVY_INPUT_CHARS:
        return True
    return budget.at_once is not None and budget.at_once(kwargs)


def _work(
    fn: Callable[..., Any], budget: Budget, movable: bool, limit: work.Limit, args: tuple, kwargs: dict
) -> Any:
    if limit.over():
        raise ToolError(
            "the server is busy with other calls and this one waited out its deadline; try again shortly"
        )
    limit.long_after = LONG_CALL_AFTER_S
    slot = _LongCallSlot()
    if budget.heavy and movable:
        # A call moves once it has used the CPU that long: on a busy machine a short one can take
        # long on the clock, and would wait for a process behind the heavy ones.
        limit.count_work_by(time.thread_time)
        limit.on_long = _move_to_a_process
    elif budget.lane == "calls":
        limit.on_long = slot.take
    try:
        with work.limited(limit):
            return public_result(fn(*args, **kwargs))
    finally:
        slot.release()


class _TurnedHeavy(Exception):
    """Raised at a heavy call's check once it has worked LONG_CALL_AFTER_S: run it in a process."""


def _move_to_a_process(limit: work.Limit) -> None:
    raise _TurnedHeavy


class _LongCallSlot:
    """One call's claim on a long-call slot, taken when it turns out long, released when it ends."""

    held = False

    def take(self, limit: work.Limit) -> None:
        if not _long_slots.acquire(timeout=max(0.0, limit.remaining())):
            raise work.WorkLimitExceeded(
                "the server is busy with other long calls and this one ran out of time waiting for its"
                " turn; try again shortly"
            )
        self.held = True

    def release(self) -> None:
        if self.held:
            self.held = False
            _long_slots.release()


def progress_reporter(ctx: Context) -> Callable[[int, int, str], None]:
    """A synchronous progress callback for work running in a tool's worker thread: each report is
    sent as an MCP progress notification on the server's event loop."""

    def report(done: int, total: int, message: str) -> None:
        try:
            anyio.from_thread.run(ctx.report_progress, done, total, public_message(message))
        except Exception:  # a lost progress notification must not fail the work it reports on
            log.debug("progress notification not sent", exc_info=True)

    return report
