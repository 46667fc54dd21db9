"""Reading a repository's files safely: paths that stay inside it, text as pramana decodes it, hashes.

Which files get indexed is the walk's (index/walk.py); what language each is, the table's
(languages.py).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path, PurePosixPath

from pramana.errors import InvalidInputError


def decode(data: bytes) -> str:
    """A file's text as pramana reads it: UTF-8, undecodable bytes replaced."""
    return data.decode("utf-8", errors="replace")


def text_hash(text: str) -> str:
    """The hash the index keeps for a file's text, so a reader can tell whether the file changed."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def line_count(text: str) -> int:
    return text.count("\n") + (0 if not text or text.endswith("\n") else 1)


def is_binary(head: bytes) -> bool:
    if b"\0" in head:
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start < len(head) - 4  # a multi-byte character cut at the end of `head` is fine
    return False


def resolve_inside(root: Path, rel_path: str) -> Path:
    """The file `rel_path` names inside `root`, refusing any path that leaves it.

    Stops path traversal: absolute paths, `..` segments and symlinks that resolve outside
    the repository (say to ~/.ssh) are refused before anything is opened.
    """
    cleaned = rel_path.strip()
    if not cleaned:
        raise InvalidInputError("path is empty; give a file path relative to the repository root")
    if "\0" in cleaned:
        raise InvalidInputError("path contains a NUL byte")
    posix = PurePosixPath(cleaned.replace("\\", "/"))
    if posix.is_absolute() or re.match(r"^[A-Za-z]:", cleaned):
        raise InvalidInputError(f"path {rel_path!r} is absolute; give it relative to the repository root")
    if ".." in posix.parts:
        raise InvalidInputError(f"path {rel_path!r} leaves the repository ('..' is not allowed)")
    root = root.resolve()
    target = (root / posix).resolve()
    if not target.is_relative_to(root):
        raise InvalidInputError(f"path {rel_path!r} points outside the repository (through a symlink)")
    return target


def normalize_rel(rel_path: str) -> str:
    """A user-given relative path in the form the index stores: POSIX, no './', no trailing '/'."""
    posix = PurePosixPath(rel_path.strip().replace("\\", "/"))
    text = str(posix)
    return "" if text == "." else text
