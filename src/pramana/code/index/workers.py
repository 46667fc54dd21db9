"""Starting and ending the parse workers of an index (index/prepare.py runs them: `serve`, `_Pool`).

Apart from prepare.py so that a new index's first worker starts as early as it can: `pramana code
index` starts it before the CLI loads (index/early.py), and this module imports only what starting
it needs (the standard library's `os` and `subprocess`, and the walk's size guess), not the parser
and its language table that prepare.py imports (~0.06 s of CPU on the one CPU then busy, while the
other waited for the worker).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import subprocess
import sys
from pathlib import Path
from typing import IO

from pramana.code.index.skipped import holds_at_least

# A pool pays for itself from about this much text (~0.4 s of parsing on one core; starting a
# worker costs ~0.2 s of CPU, spent beside the indexing process). Measured on semble's benchmark
# with two CPUs: cobra (0.6 MB) 0.40 -> 0.35 s, serde (1.3 MB) 1.12 -> 0.78 s, tokio (3.4 MB)
# 2.19 -> 1.51 s.
POOL_MIN_BYTES = 500_000
POOL_MIN_FILES = 16
WORKERS_ENV = "PRAMANA_CODE_INDEX_WORKERS"

# -P: the working directory (a repository, perhaps with a json.py) must not shadow a module. The
# collector is off while the worker loads (serve() turns it on): imports leave no garbage to
# speak of, and its passes over what they load cost a worker ~10% of its start.
COMMAND = ("-P", "-c", "import gc; gc.disable(); from pramana.code.index.prepare import serve; serve()")
STATIC_TABLE = "static-table"  # an argument: load the shipped table before the first task
AHEAD = "ahead"  # an argument, then a repository: parse its first files before the first task


def workers_from_environment() -> int | None:
    """$PRAMANA_CODE_INDEX_WORKERS as a number, None when unset; a value that is no count is refused."""
    value = os.environ.get(WORKERS_ENV, "").strip()
    if not value:
        return None
    if not value.isdigit():
        from pramana.errors import InvalidInputError

        raise InvalidInputError(
            f"{WORKERS_ENV}={value!r} is not a number of worker processes: use 0 (parse in the indexing"
            " process) or a positive count, or unset it to let pramana choose"
        )
    return int(value)


def cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def start_worker(static_table: bool, ahead: Path | None = None) -> subprocess.Popen[bytes]:
    """A worker; with `ahead`, a repository whose first files it parses until its first task."""
    env = dict(os.environ)
    # The package as this process found it, even when it is not installed.
    source = str(Path(__file__).resolve().parents[3])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
    # A worker multiplies no matrices: numpy's OpenBLAS threads (one per CPU) would only start and
    # spin, on the CPU the indexing process parses on (~50 ms of CPU a worker). As every command
    # has it (process.for_commands), which the early worker, started before the CLI, comes before.
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    command = [sys.executable, *COMMAND, *([STATIC_TABLE] if static_table else [])]
    if ahead is not None:
        command += [AHEAD, str(ahead)]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    _widen_pipe(process.stdout)
    return process


def _widen_pipe(stream: IO[bytes] | None, size: int = 1 << 20) -> None:
    """Let a worker's answers (~0.4 MB a task) fit in its pipe where the system allows (Linux: up
    to /proc/sys/fs/pipe-max-size, 1 MB by default), so that it rarely waits for the reader."""
    try:
        import fcntl

        set_size = getattr(fcntl, "F_SETPIPE_SZ", None)
        if stream is not None and set_size is not None:
            fcntl.fcntl(stream.fileno(), set_size, size)
    except (ImportError, OSError):
        pass  # another system, or a smaller limit: the pipe as it is


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a worker now (one not needed, or one that does not end by itself)."""
    with contextlib.suppress(OSError):
        process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


def start_worker_early(root: Path, static_table: bool) -> None:
    """Start a parse worker now, for an index that will parse the whole repository at `root` (a new
    index): its start (~0.15 s of CPU: Python, tree-sitter and, with `static_table`, the shipped table)
    then runs while the indexing process loads the rest of itself, on a CPU that would be idle, rather
    than when the files are there to parse; and until its first task comes it parses the files of the
    first tasks (prepare._parse_ahead), which it then claims (prepare._Pool.CLAIMED). The pool takes
    it (take_early); end_early_worker ends one it did not.

    Only when a pool could be started: never with one CPU or $PRAMANA_CODE_INDEX_WORKERS=0, nor for a
    repository whose files are too few or hold too little for a pool (skipped.holds_at_least)."""
    workers = workers_from_environment()
    if _early or not sys.executable or workers == 0 or (workers is None and cpus() < 2):
        return
    if workers is None and not holds_at_least(root, POOL_MIN_FILES, POOL_MIN_BYTES):
        return
    _early.append(start_worker(static_table, ahead=root.resolve()))
    atexit.register(end_early_worker)


_early: list[subprocess.Popen[bytes]] = []  # a worker started ahead of the index that will use it


def take_early(count: int) -> list[subprocess.Popen[bytes]]:
    """Up to `count` of the workers started early, for a pool; any other is ended."""
    taken, _early[:] = _early[:count], _early[count:]
    end_early_worker()
    return taken


def end_early_worker() -> None:
    """End the worker start_worker_early started, if no index took it."""
    while _early:
        stop(_early.pop())
