"""Files written whole or not at all: the new content goes to a fresh file beside the target, which
replaces the target only once it is complete (a rename, atomic within one filesystem). A reader sees
the old file or the new one, never half of one; a crash, a full disk or an error leaves the old
file as it was and no partial file behind (a killed process can leave its fresh file, which is
hidden and named by its process: nothing ever reads it, and the next write does not collide with it).

Downloads that resume keep their partial file on purpose (pramana.download); everything else that
writes a file whole uses this.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(target: Path) -> Iterator[Path]:
    """A fresh path beside `target` to write in the block; when the block ends without an error it
    replaces `target`, else it is removed and `target` is untouched."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fresh = target.with_name(f".{target.name}.{os.getpid()}-{threading.get_ident()}.part")
    try:
        yield fresh
        os.replace(fresh, target)
    finally:
        fresh.unlink(missing_ok=True)


def write_bytes(target: Path, data: bytes) -> None:
    with replacing(target) as fresh:
        fresh.write_bytes(data)


def write_text(target: Path, text: str, encoding: str = "utf-8") -> None:
    with replacing(target) as fresh:
        fresh.write_text(text, encoding=encoding)
