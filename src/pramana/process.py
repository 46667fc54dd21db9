"""Process-wide settings: made by pramana's entry points (the `pramana` command, `vedabase-mcp`, a
worker process), never when a module is imported, so that a program using pramana as a library
keeps its own interpreter and environment as it set them.

- every command: numpy's BLAS on one thread (`for_commands`);
- a serving process, stdio or HTTP, and its worker processes (`for_serving`): short thread
  switches, and what the servers load once frozen out of the garbage collector's full passes.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys

from pramana import work

# The interpreter's default 5 ms between forced thread switches makes a short call wait ~5 ms per
# hand-off behind each busy thread; 1 ms keeps the event loop and short calls prompt.
SWITCH_INTERVAL_S = 0.001


def for_commands() -> None:
    """Before a command runs. numpy's OpenBLAS runs a thread per CPU; a search's matrix-vector
    product is too small to gain from them, and between products they spin, taking the CPU the
    request needs (a 7.5k-chunk search went from 1.2 to 6.8 ms on two busy cores). One thread,
    unless the user chose otherwise; it takes effect because numpy is imported later, by the
    command that needs it."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def for_serving() -> None:
    """Before a server (or a worker process of one) builds its tools."""
    for_commands()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    work.settle_heaps(True)


def freeze_loaded() -> None:
    """Once a server is built: the SDK's and the servers' modules live as long as the process.
    Imports leave next to no garbage (tens of objects), so they are frozen without the full
    collection that settling a built cache runs first, which would cost the start ~50 ms."""
    gc.freeze()


def freeze_at_exit() -> None:
    """For a command that built much and will not run long after (an index): at the process's exit,
    before the interpreter's shutdown, freeze everything (gc.freeze), so that the collector's full
    passes at shutdown do not scan it all for cycles only for the exit to free it anyway. After
    indexing a repository of 7.5k chunks those passes cost ~0.1-0.15 s of CPU, in front of the
    prompt. At exit only: a program (or a test) that goes on keeps its collector as it was."""
    global _freezing_at_exit
    if not _freezing_at_exit:
        _freezing_at_exit = True
        atexit.register(gc.freeze)


_freezing_at_exit = False
