"""How much work one call may spend: a deadline that services check in their long loops.

The MCP layer runs each tool call in a worker thread under a deadline. A Python thread cannot be
stopped from outside, so the work stops itself: any loop whose cost can grow faster than its input
calls `check()`, which raises `WorkLimitExceeded` once the call's time is up or its caller has gone
(the call was cancelled or timed out). Outside a deadline (the CLI, tests, index builds) `check()`
does nothing.
"""

from __future__ import annotations

import functools
import gc
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from pramana.errors import PramanaError


class WorkLimitExceeded(PramanaError):
    """The input needs more work than one call may spend."""

    def __init__(self, what: str):
        super().__init__(f"this input needs more work than one call may spend: {what}")


@dataclass
class Limit:
    """When one call must stop: its end on the monotonic clock, or earlier when `stopped` is set.

    `on_long`, if given, is called once, from the first `check()` made after the call has worked
    `long_after` seconds (on `clock`, from `started`): the MCP layer counts the worker thread's CPU
    time, and moves a long call to a worker process or makes it wait for one of a few slots.
    """

    ends: float
    stopped: threading.Event = field(default_factory=threading.Event)
    on_long: Callable[[Limit], None] | None = None
    long_after: float = 0.05
    started: float = field(default_factory=time.monotonic)
    clock: Callable[[], float] = time.monotonic

    def count_work_by(self, clock: Callable[[], float]) -> None:
        """Measure `long_after` on `clock` from now (time.thread_time: this thread's CPU time)."""
        self.clock, self.started = clock, clock()

    def remaining(self) -> float:
        return self.ends - time.monotonic()

    def over(self) -> bool:
        return self.stopped.is_set() or time.monotonic() > self.ends


MIN_NETWORK_TIMEOUT = 0.05

_limit: ContextVar[Limit | None] = ContextVar("pramana_work_limit", default=None)


@contextmanager
def limited(limit: Limit | None) -> Iterator[None]:
    """Run the block under `limit` (None: no limit); a nested limit never extends an outer one."""
    outer = _limit.get()
    if limit is None or (outer is not None and outer.ends <= limit.ends and not limit.stopped.is_set()):
        yield
        return
    token = _limit.set(limit)
    try:
        yield
    finally:
        _limit.reset(token)


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Run the block with `seconds` to spend (None: no limit)."""
    with limited(None if seconds is None else Limit(time.monotonic() + seconds)):
        yield


def remaining() -> float | None:
    """Seconds left in this call, None when it has no deadline (none, or a limit that only stops:
    `Limit(math.inf, stopped=...)`)."""
    limit = _limit.get()
    return None if limit is None or math.isinf(limit.ends) else limit.remaining()


def time_for(seconds: float) -> float:
    """A network timeout of `seconds`, cut to the time this call has left (a remote service that
    hangs must not hold a worker past the call's deadline), never below MIN_NETWORK_TIMEOUT."""
    left = remaining()
    return seconds if left is None else max(MIN_NETWORK_TIMEOUT, min(seconds, left))


def pause(seconds: float, what: str) -> None:
    """Sleep before a retry: never past the call's deadline; raises WorkLimitExceeded (`what`) instead."""
    left = remaining()
    if left is not None and left <= seconds:
        raise WorkLimitExceeded(what)
    check(what)
    time.sleep(seconds)


_settling = False


def settle_heaps(enabled: bool) -> None:
    """Whether `settle_heap` freezes what was built (a serving process's choice: pramana.process)."""
    global _settling
    _settling = enabled


def settle_heap() -> None:
    """Mark what exists now as long-lived, once a cache has been built (a matcher, an index), in a
    process that serves (`settle_heaps(True)`); elsewhere (the CLI, a program using pramana as a
    library) this does nothing: freezing is a choice for the whole process.

    The cyclic garbage collector's full passes stop the whole process, every thread: with a few
    hundred thousand long-lived objects to scan that is ~100 ms at a time, often, under load.
    Frozen objects are never scanned again (nor collected: call this after a build, not in a loop).
    """
    if not _settling:
        return
    gc.collect()
    gc.freeze()
    _release_freed_memory()


def _release_freed_memory() -> None:
    """Hand back to the system the memory a build used and freed. glibc's malloc keeps freed memory in
    its arenas (a background build's thread gets an arena of its own), resident until reused: a gita
    server with SB and CC held ~150 MB so after building its matcher and search indexes.
    `malloc_trim` releases the free pages of every arena in milliseconds; where the C library has
    none (musl, macOS) nothing is done."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes  # here: ctypes.util (shutil, tempfile, random) is no part of every process's start
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


FEWER_COLLECTIONS_YOUNG = 20_000  # new objects between the collector's young passes (fewer_collections)


@contextmanager
def fewer_collections(young: int = FEWER_COLLECTIONS_YOUNG) -> Iterator[None]:
    """While making many short-lived objects that form no cycles (an index parsing and writing a
    repository): the collector runs every `young` new objects instead of every 700, and so its
    full passes over everything loaded come that much less often (~7% of parsing CPU). The
    thresholds are set back afterwards: the process's choice stays its own."""
    thresholds = gc.get_threshold()
    gc.set_threshold(max(young, thresholds[0]), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def freeze_cached() -> None:
    """After a call that filled caches kept for the process's life: in a serving process
    (`settle_heaps(True)`), leave what exists out of the collector's full passes (gc.freeze, without
    settle_heap's collection); elsewhere nothing."""
    if _settling:
        gc.freeze()


# Entries added to caches since their last freeze (a count shared by all caches; races only shift it).
_cached_since_freeze = 0
FREEZE_EVERY = 2_000


def cached(entries: int) -> None:
    """Count `entries` just added to a cache that grows call by call (a server's remembered answers);
    every FREEZE_EVERY, in a serving process (`settle_heaps(True)`), mark what exists as long-lived
    (gc.freeze, without settle_heap's collection).

    Otherwise the collector's full passes scan every cached object again and again: 20,000 remembered
    Pāḷi words made them 0.1 s, then 0.7 s. Frozen objects are still freed when nothing refers to them
    (an entry the cache lets go of), only never scanned for cycles; cached records hold none."""
    global _cached_since_freeze
    if not _settling:  # freezing is a serving process's choice (pramana.process), not a library's
        return
    _cached_since_freeze += entries
    if _cached_since_freeze >= FREEZE_EVERY:
        _cached_since_freeze = 0
        freeze_cached()


def check(what: str) -> None:
    """Raise WorkLimitExceeded (`what`: which work, in the caller's terms) once the call must stop."""
    limit = _limit.get()
    if limit is None:
        return
    if limit.over():
        raise WorkLimitExceeded(what)
    if limit.on_long is not None and limit.clock() - limit.started > limit.long_after:
        on_long, limit.on_long = limit.on_long, None
        on_long(limit)
