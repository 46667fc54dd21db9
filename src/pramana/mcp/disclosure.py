"""What a remote client may read about the machine that serves it: no path of its filesystem.

Errors and notes name files where that helps a person at the machine ("no dictionary database at
/home/ana/.local/share/pramana/sanskrit.db"). Over HTTP the reader is somebody else, and such a path
tells them the account, the layout and where the data lives. So at the MCP/HTTP boundary, and only
when serving over HTTP (`hide_paths`, called by the HTTP entry point), every text that leaves is
rewritten here, generically rather than message by message:

- error messages, progress messages and readiness details: every absolute path is cut to its last
  part (`…/sanskrit.db`), which still says which file is meant;
- results: only paths under the server's own folders (its data, databases, repository, home, Python
  installation) are cut, so that text a result quotes, such as a line of code naming `/usr/bin/env`,
  is left exactly as it is.

Local users (stdio, the CLI) see every path in full; the server's log keeps them too.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

import pramana
from pramana.config import default_data_dir

# An absolute POSIX path of two parts or more, not inside a URL or a longer word; or a Windows one.
_POSIX = r"(?<![\w.:/~\\-])/(?:[^\s/'\"`<>|(){}\[\],;]+/)+[^\s/'\"`<>|(){}\[\],;]+/?"
_WINDOWS = r"(?<![\w])[A-Za-z]:\\(?:[^\s\\'\"`<>|(){}\[\],;]+\\)*[^\s\\'\"`<>|(){}\[\],;]*"
ABSOLUTE_PATH = re.compile(f"{_POSIX}|{_WINDOWS}")
_TRAILING = ".:!?"  # punctuation that ends a sentence, not the path


def shortened(path: str) -> str:
    """`/srv/data/gita.db` -> `…/gita.db` (what follows the last separator; `…` for a folder)."""
    kept = path.rstrip(_TRAILING)
    last = re.split(r"[/\\]", kept.rstrip("/\\"))[-1]
    return f"…/{last}" + path[len(kept) :]


class PathScrubber:
    """Cuts paths out of what a remote client is sent; `roots`: the server's own folders."""

    def __init__(self, roots: Iterable[Path | str]):
        kept = set()
        for root in roots:  # as given, and as the filesystem resolves it (messages may show either)
            kept |= {str(Path(root)).rstrip("/\\"), os.path.realpath(root).rstrip("/\\")}
        # "/" or "C:" alone would be every path; such a root says nothing of this server anyway.
        self.roots = sorted((root for root in kept if len(root.strip("/\\")) > 2), key=len, reverse=True)

    def message(self, text: str) -> str:
        """An error, progress or readiness text: every absolute path shortened."""
        if "/" not in text and "\\" not in text:
            return text
        return ABSOLUTE_PATH.sub(lambda found: shortened(found.group()), text)

    def text(self, text: str) -> str:
        """Text a result holds: only the paths under the server's own folders shortened."""
        if not any(root in text for root in self.roots):
            return text

        def cut(found: re.Match[str]) -> str:
            path = found.group()
            return shortened(path) if any(_under(path, root) for root in self.roots) else path

        return ABSOLUTE_PATH.sub(cut, text)

    def result(self, value: Any) -> Any:
        """A tool's result (a CallToolResult, a model, a dict, a string) with `text` applied to every
        string in it; the very same object when nothing in it changes."""
        changed = _rewritten(value, self.text)
        return value if changed is _SAME else changed


def _under(path: str, root: str) -> bool:
    return path == root or (path.startswith(root) and path[len(root)] in "/\\")


_SAME = object()


def _rewritten(value: Any, fix: Any) -> Any:
    """`value` with `fix` applied to its strings, or _SAME when no string changes (no copy made)."""
    if isinstance(value, str):
        fixed = fix(value)
        return _SAME if fixed == value else fixed
    if isinstance(value, BaseModel):
        updates = {}
        for name in type(value).model_fields:
            new = _rewritten(getattr(value, name), fix)
            if new is not _SAME:
                updates[name] = new
        return value.model_copy(update=updates) if updates else _SAME
    if isinstance(value, dict):
        changes = {key: new for key, item in value.items() if (new := _rewritten(item, fix)) is not _SAME}
        return {**value, **changes} if changes else _SAME
    if isinstance(value, list | tuple):
        news = [_rewritten(item, fix) for item in value]
        if all(new is _SAME for new in news):
            return _SAME
        items = [item if new is _SAME else new for item, new in zip(value, news, strict=True)]
        return type(value)(items) if isinstance(value, tuple) else items
    return _SAME


_scrubber: PathScrubber | None = None


def hide_paths(roots: Iterable[Path | str]) -> PathScrubber:
    """From now on, in this process, what tools answer leaves without the server's paths (the HTTP
    entry point calls this; `roots` are the served servers' folders, to which `server_roots` adds)."""
    global _scrubber
    _scrubber = PathScrubber([*roots, *server_roots()])
    return _scrubber


def scrubber() -> PathScrubber | None:
    """The process's scrubber: None while paths are shown (stdio, the CLI, tests in process)."""
    return _scrubber


def public_message(text: str) -> str:
    return text if _scrubber is None else _scrubber.message(text)


def public_result(value: Any) -> Any:
    return value if _scrubber is None else _scrubber.result(value)


def server_roots() -> list[Path]:
    """Folders every pramana server has: the data folder, the home folder, the Python installation
    and pramana's own package."""
    return [
        default_data_dir(),
        Path.home(),
        Path(sys.prefix),
        Path(sys.base_prefix),
        Path(pramana.__file__).resolve().parent.parent,
    ]


def settings_roots(settings: Iterable[Any]) -> list[Path]:
    """The folders named by servers' settings: each absolute path a settings object holds (a file's
    folder for a file, e.g. a database), read from its fields, whatever the server."""
    found: list[Path] = []
    for each in settings:
        if not isinstance(each, BaseModel):
            continue
        for value in each.model_dump().values():
            if isinstance(value, Path | str) and Path(str(value)).is_absolute() and "://" not in str(value):
                path = Path(value).expanduser()
                found.append(path.parent if path.suffix or path.is_file() else path)
    return found
