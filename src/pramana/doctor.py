"""`pramana doctor`: per server, what data it has, where, how big, whether it is ready, what to run next.

Each server says this of itself (its declaration's `doctor`, pramana.servers); what they share is
here. Every database is opened read-only and nothing is created: asking cannot change what is there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

from pramana.errors import PramanaError
from pramana.install import extra_command
from pramana.store.failures import storage_problem

_T = TypeVar("_T")


@dataclass(frozen=True)
class ServerStatus:
    server: str
    ready: bool  # its tools answer (the gita matcher is ready even before a seed)
    path: str
    size_bytes: int
    has: str  # what data it has, in words
    next: str  # the command to run next, or "" when nothing is missing
    optional: tuple[str, ...] = ()  # what it can do better with more, and the command that adds it

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def check_all() -> list[ServerStatus]:
    """Every server's lines, in the registry's order."""
    from pramana.servers import servers

    return [status for server in servers().values() for status in server.doctor()]


def embeddings_extra(purpose: str) -> tuple[str, ...]:
    """The embeddings extra, as an optional line, when it is not installed."""
    from pramana.embed import extra_installed

    if extra_installed():
        return ()
    return (f"{purpose}: the embeddings extra, `{extra_command('embeddings')}`",)


def file_size(path: Path) -> int:
    return path.stat().st_size if path.is_file() else 0


def read_safely(read: Callable[[], _T]) -> tuple[_T | None, str | None]:
    """What `read` says about a server's file, or why it could not be read (a file that is not this
    server's database, a newer schema, a locked or damaged file)."""
    try:
        return read(), None
    except PramanaError as exc:
        return None, str(exc)
    except Exception as exc:  # sqlite3 or SQLAlchemy: say what it means, never a traceback
        return None, storage_problem(exc) or f"{type(exc).__name__}: {exc}"


def human_size(size: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return f"{size} B"


def status_line(status: ServerStatus) -> str:
    """One line: server, ready or not, size, path, what it has, and what to run next; then one
    indented line per optional addition."""
    state = "ready" if status.ready else "not ready"
    size = human_size(status.size_bytes) if status.size_bytes else "no file"
    then = f"; next: {status.next}" if status.next else ""
    optional = "".join(f"\n{'':<8} optional: {line}" for line in status.optional)
    return f"{status.server:<8} {state:<9} {size:>8}  {status.path}  {status.has}{then}{optional}"
