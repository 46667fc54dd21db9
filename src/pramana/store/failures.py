"""What a storage failure means, in one line: its cause and what to do about it.

Every server's stores, downloads and index files fail the same few ways: the disk is full, another
process holds the database, the file or its filesystem is read-only, the file is damaged. The MCP
layer (a tool error) and the CLI (one line on stderr, no traceback) both read failures through
`storage_problem`, so an install, index, build or seed says what happened without each server
wording it; anything else is not a storage failure and is left to the caller.
"""

from __future__ import annotations

import errno
import re
import sqlite3
import sys

FULL = "no space left on the disk"
FREE_SPACE = (
    "free some space, or choose a data folder on a larger disk (PRAMANA_DATA_DIR or the command's"
    " --db), then run the command again: what was stored before is unchanged"
)
LOCKED = (
    "is locked by another process (another install, index or seed writing to it, or a server holding"
    " it): wait for that to finish, then try again"
)
READ_ONLY = "check the file's permissions and whether its filesystem is mounted read-only"
DAMAGED = "rebuild or re-install it (the command that made it), or restore it from a copy"

_DISK_FULL_ERRNOS = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_READ_ONLY_ERRNOS = {errno.EROFS, errno.EACCES, errno.EPERM}


def storage_problem(exc: BaseException) -> str | None:
    """One line saying what a storage failure was and what to do; None when `exc` is not one.

    Looks through wrappers (SQLAlchemy keeps the driver's error as `.orig`) and exception chains: a
    failure raised while cleaning up (a second ROLLBACK) names the cause that started it.
    """
    seen: set[int] = set()
    vague: str | None = None
    psycopg = sys.modules.get("psycopg")  # not imported: no PostgreSQL error can be here
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if psycopg is not None and isinstance(current, psycopg.Error):
            # The PostgreSQL store words the failures it expects (unreachable, read-only role, a
            # deadline); one that escaped it is named by its first line, without a server's socket path.
            return f"database error: {postgres_first_line(current)}"
        if isinstance(current, sqlite3.Error):
            problem = _sqlite_problem(current)
            if problem is not None:
                return problem
            vague = vague or f"database error: {current}"
        elif isinstance(current, OSError):
            problem = _os_problem(current)
            if problem is not None:
                return problem
        current = getattr(current, "orig", None) or current.__cause__ or current.__context__
    return vague


_SOCKET = re.compile(r'socket "[^"]*"')


def postgres_first_line(exc: BaseException) -> str:
    """A PostgreSQL error's first line, without a socket path of the server's (answers go to remote
    clients)."""
    text = str(exc).strip() or type(exc).__name__
    return _SOCKET.sub("socket", text.splitlines()[0])


def _sqlite_problem(exc: sqlite3.Error) -> str | None:
    """The failure's cause and what to do; None for an error that names neither (a bad statement)."""
    message = str(exc)
    name = getattr(exc, "sqlite_errorname", "") or ""
    lowered = message.lower()
    if name.startswith("SQLITE_FULL") or "disk is full" in lowered:
        return f"{FULL} ({message}): {FREE_SPACE}"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in lowered:
        return f"the database {LOCKED} ({message})"
    if name.startswith("SQLITE_READONLY") or "readonly" in lowered or "read-only" in lowered:
        return f"the database file is read-only ({message}) and this must write to it: {READ_ONLY}"
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or any(
        word in lowered for word in ("malformed", "not a database", "corrupt", "encrypted")
    ):
        return f"the database file is damaged ({message}): {DAMAGED}"
    if name.startswith("SQLITE_IOERR") or "disk i/o" in lowered:
        return (
            f"the disk failed to read or write the database ({message}): check the disk and that there"
            f" is free space, then try again; if it persists, {DAMAGED}"
        )
    if name.startswith("SQLITE_CANTOPEN") or "unable to open" in lowered:
        return f"the database file cannot be opened ({message}): check that its folder exists and is writable"
    return None


def _os_problem(exc: OSError) -> str | None:
    where = f" ({exc.filename})" if exc.filename else ""
    reason = exc.strerror or str(exc)
    if exc.errno in _DISK_FULL_ERRNOS:  # the file named may be the source of a copy, not the full disk
        return f"{FULL}: {FREE_SPACE}"
    if exc.errno == errno.EROFS:
        return f"cannot write{where}: the filesystem is read-only; {READ_ONLY}"
    if exc.errno in _READ_ONLY_ERRNOS and exc.filename:
        return f"cannot write{where}: {reason}; {READ_ONLY}"
    if exc.errno == errno.EIO:
        return f"the disk failed to read or write{where}: {reason}; check the disk"
    return None
