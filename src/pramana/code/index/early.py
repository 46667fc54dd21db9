"""`pramana code index PATH` for a new index: its first parse worker starts before the CLI has loaded.

The CLI's own imports (typer, pydantic, rich, numpy: ~0.2 s) come before it reads its settings; a
worker started only then would begin parsing late, and the other CPU would wait. So the command line
is read here first, by the rules the settings follow for the index file (--db, else
$PRAMANA_CODE_DB, else the repository's default index), with nothing imported that the check does
not need. A wrong guess costs a worker's start on the other CPU: `code.data.install` checks again
with the real settings and ends a worker the index will not use.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

# `code index`'s options that take a value (code/cli.py); anything else unknown: no guess.
_VALUE_OPTIONS = ("--db", "--backend", "--embedder")


def start_for_command(argv: Sequence[str]) -> None:
    """Start a parse worker now when `argv` (the arguments after `pramana`) indexes a new repository."""
    parsed = _index_arguments(argv)
    if parsed is None:
        return
    repo, db = parsed
    try:
        root = repo.expanduser().resolve()
        if not root.is_dir() or _index_file(root, db).exists():
            return
    except (OSError, RuntimeError):
        return
    from pramana.code.index.workers import start_worker_early

    start_worker_early(root, static_table=False)  # the table loads when its first task says so


def hold_collections(argv: Sequence[str]) -> None:
    """For `code index` (`argv`: the arguments after `pramana`): the garbage collector off while the
    command loads, until `resume_collections`. Its imports (typer, pydantic, rich, numpy, the
    store, the parser) leave almost no garbage, yet the collector's passes over what they load
    took ~7% of the start's CPU (a young, a middle and a full pass over everything loaded)."""
    global _holding
    if list(argv[:2]) == ["code", "index"] and gc.isenabled():
        gc.disable()
        _holding = True


def resume_collections() -> None:
    """Once `code index` has loaded (its store open, its embedder ready): what is loaded is frozen out
    of the collector's passes (it lives as long as the process), and the collector runs again.
    Nothing when hold_collections did not turn it off (a library's or a test's process)."""
    global _holding
    if _holding:
        _holding = False
        gc.freeze()
        gc.enable()


_holding = False


def end_without_teardown(argv: Sequence[str], code: object) -> None:
    """For `code index` (`argv`: the arguments after `pramana`) ending with exit status `code`
    (SystemExit's): end the process now, as the interpreter's exit would, less its teardown.

    What the exit does for the command runs first, in the interpreter's order: its other threads
    are waited for, its atexit handlers run (the early worker's end, logging's flush, the freeze of
    process.freeze_at_exit) and stdout and stderr are flushed. What is skipped is the interpreter's
    teardown, which frees every object and module one by one only for the process to end: after a
    cold index of tokio or zod, ~40-100 ms in front of the prompt with nothing else running
    (docs/benchmarks.md). The index is closed by then (code.data.install closes the store, which
    copies its log into the file). Returns for any other command, and for a `code` that is no exit
    status (a message, which the interpreter prints)."""
    if list(argv[:2]) != ["code", "index"] or not (code is None or isinstance(code, int)):
        return
    current = threading.current_thread()
    for thread in threading.enumerate():
        if thread is not current and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        os._exit(120)  # the interpreter's own status when it cannot flush stdout at exit
    os._exit(code or 0)


def _index_arguments(argv: Sequence[str]) -> tuple[Path, str | None] | None:
    """(repository, --db value) of `code index REPO [options]`, else None."""
    if list(argv[:2]) != ["code", "index"]:
        return None
    repo: str | None = None
    db: str | None = None
    rest = list(argv[2:])
    while rest:
        token = rest.pop(0)
        name, equals, value = token.partition("=")
        if name in _VALUE_OPTIONS:
            if not equals:
                if not rest:
                    return None
                value = rest.pop(0)
            if name == "--db":
                db = value
        elif token.startswith("-") or repo is not None:
            return None  # --help, an option this does not know, a second argument: no guess
        else:
            repo = token
    return (Path(repo), db) if repo else None


def _index_file(root: Path, db: str | None) -> Path:
    from pramana.locations import default_code_db

    given = db or os.environ.get("PRAMANA_CODE_DB")
    return Path(given).expanduser() if given else default_code_db(root)
