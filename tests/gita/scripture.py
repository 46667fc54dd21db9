"""The SB and CC verses as pramana installs them (gita/install.py reading the shared archive), for the
matcher's tests and the scripture benchmarks: a cache with the books installed, and its verses in
book order, each as its reference (text) and IAST."""

from __future__ import annotations

from pathlib import Path

from benchmarks._gita_scripture import ARCHIVE, ScriptureVerse, read_scripture
from pramana.config import GitaSettings
from pramana.gita.service import GitaService
from pramana.gita.store import GitaStore


def install_books(db: Path, archive: Path, api_url: str | None = None) -> GitaService:
    """A service over the cache `db` with SB and CC installed from `archive` (a no-op when they are)."""
    settings = GitaSettings(db_path=db, **({"api_url": api_url} if api_url else {}))
    service = GitaService(settings)
    service.install_books(["sb", "cc"], str(archive))
    return service


def installed_verses(db: Path) -> tuple[ScriptureVerse, ...]:
    """Every SB and CC text installed in the cache `db`, in book order (SB by canto, CC Ādi, Madhya,
    Antya), as the service's matcher is given them."""
    store = GitaStore(db, read_only=True)
    try:
        return tuple(
            ScriptureVerse(ref.book, str(ref), text)
            for ref, text in store.book_transliterations(["SB", "CC"])
        )
    finally:
        store.close()


__all__ = ["ARCHIVE", "ScriptureVerse", "install_books", "installed_verses", "read_scripture"]
