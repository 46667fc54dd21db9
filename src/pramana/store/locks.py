"""One writer at a time across processes, on every platform: a lock file beside what is written.

SQLite's own locks make a second writer wait BUSY_TIMEOUT_MS and then fail with "database is
locked"; a job that writes for longer (an index of a large repository, a dictionary install, the
static embedding table) would fail the other one halfway, after it had done its work twice. Such
jobs take this lock first: a second one says once that it waits, then runs when the first is done
(and finds its work done). The operating system releases the lock when its process ends, however
it ends, so a killed job never leaves the next one waiting.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

log = logging.getLogger(__name__)


def lock_file(target: Path) -> Path:
    """The lock file of `target`: `<name>.lock` beside it."""
    return target.with_name(target.name + ".lock")


@contextmanager
def exclusive(lock: Path, what: str) -> Iterator[None]:
    """Hold `lock` (made if missing) while the block runs. `what` says what this process is about to
    do ("indexing into shop-1a2b.db"), for the one line it logs when another process holds the lock."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    held = FileLock(lock)
    try:
        held.acquire(timeout=0)
    except Timeout:
        log.warning("%s: waiting for another pramana process writing it to finish", what)
        held.acquire()
    try:
        yield
    finally:
        held.release()
