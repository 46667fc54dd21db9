"""How much work one call may spend: a deadline that services check in their long loops.

The MCP layer runs each tool call in a worker thread under a deadline. A Python thread cannot be
stopped from outside, so the work stops itself: any loop whose cost can grow faster than its input
calls `check()`, which raises `WorkLimitExceeded` once the call's time is up. Outside a deadline
(the CLI, tests, index builds) `check()` does nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from pramana.errors import PramanaError

_deadline: ContextVar[float | None] = ContextVar("pramana_deadline", default=None)


class WorkLimitExceeded(PramanaError):
    """The input needs more work than one call may spend."""

    def __init__(self, what: str):
        super().__init__(f"this input needs more work than one call may spend: {what}")


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Run the block with `seconds` to spend (None: no limit); nested deadlines keep the earlier one."""
    if seconds is None:
        yield
        return
    ends = time.monotonic() + seconds
    current = _deadline.get()
    token = _deadline.set(ends if current is None else min(current, ends))
    try:
        yield
    finally:
        _deadline.reset(token)


def remaining() -> float | None:
    """Seconds left in this call, None when it has no deadline."""
    ends = _deadline.get()
    return None if ends is None else ends - time.monotonic()


def check(what: str) -> None:
    """Raise WorkLimitExceeded (`what`: which work, in the caller's terms) once the time is up."""
    ends = _deadline.get()
    if ends is not None and time.monotonic() > ends:
        raise WorkLimitExceeded(what)
