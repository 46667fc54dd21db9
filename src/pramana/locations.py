"""Where pramana keeps what it builds: light enough for the CLI to ask before it loads its settings
(pramana.config re-exports these)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_code_db", "default_data_dir", "repository_key"]


def default_data_dir() -> Path:
    """Where pramana keeps databases it builds: $PRAMANA_DATA_DIR, else $XDG_DATA_HOME/pramana."""
    if os.environ.get("PRAMANA_DATA_DIR"):
        return Path(os.environ["PRAMANA_DATA_DIR"]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "pramana"


def repository_key(repo: Path) -> str:
    """A short stable key for one checkout (a hash of its absolute path): it names the checkout's
    index file, Milvus collection and Pinecone namespace."""
    import hashlib

    return hashlib.sha256(str(repo.expanduser().resolve()).encode("utf-8")).hexdigest()[:16]


def default_code_db(repo: Path) -> Path:
    """One index per checkout: the folder's name plus its repository key."""
    root = repo.expanduser().resolve()
    return default_data_dir() / "code" / f"{root.name or 'root'}-{repository_key(root)}.db"
