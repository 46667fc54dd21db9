"""`pramana doctor`: per server, what data it has, where, how big, whether it is ready, what to run next.

Every database is opened read-only and nothing is created: asking cannot change what is there.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from pramana.config import CodeSettings, GitaSettings, PaliSettings, SanskritSettings, default_data_dir
from pramana.errors import PramanaError
from pramana.install import command, extra_command
from pramana.store.failures import storage_problem
from pramana.store.sqlite import connect, schema_version

GITA_VERSES = 701
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
    gita = replace(check_gita(), optional=_embeddings_extra("questions ranked by meaning"))
    model = "sentences ranked by the model itself (--embedder minilm)"
    code = [replace(found, optional=_embeddings_extra(model)) for found in check_code()]
    return [gita, check_sanskrit(), check_pali(), *code]


def _embeddings_extra(purpose: str) -> tuple[str, ...]:
    """The embeddings extra, as an optional line, when it is not installed."""
    from pramana.code.embed import extra_installed

    if extra_installed():
        return ()
    return (f"{purpose}: the embeddings extra, `{extra_command('embeddings')}`",)


def _size(path: Path) -> int:
    return path.stat().st_size if path.is_file() else 0


def _read(path: Path, read: Callable[[], _T]) -> tuple[_T | None, str | None]:
    """What `read` says about the file, or why it could not be read (a file that is not this
    server's database, a newer schema, a locked or damaged file)."""
    try:
        return read(), None
    except PramanaError as exc:
        return None, str(exc)
    except Exception as exc:  # sqlite3 or SQLAlchemy: say what it means, never a traceback
        return None, storage_problem(exc) or f"{type(exc).__name__}: {exc}"


def check_gita() -> ServerStatus:
    from pramana.gita.store import GitaStore

    settings = GitaSettings.load()
    path = settings.resolved_db_path()
    packaged = "the Sanskrit of all 701 verses (packaged): lookup and match work"
    if settings.database_url:
        return _check_gita_postgres(settings, packaged)
    if not path.is_file():
        seed = f"{command('gita seed')}  (the translations: seconds to a minute)"
        books = f"SB, CC not installed (optional: {command('gita install sb cc')})"
        return ServerStatus("gita", True, str(path), 0, f"{packaged}; no translations yet; {books}", seed)

    def count() -> str:
        with closing(GitaStore(path, read_only=True)) as store:
            return json.dumps([store.verse_count(), _books(store)])

    read, problem = _read(path, count)
    if problem is not None:
        remedy = (
            f"{command('gita lookup 2.47')}  (upgrades the cache in place)"
            if _older_gita_cache(path)
            else f"move {path} aside, then: {command('gita seed')}"
        )
        has = f"{packaged}; cache unreadable: {problem}"
        return ServerStatus("gita", True, str(path), _size(path), has, remedy)
    verses, books = json.loads(read or '[0, ""]')
    missing = "" if verses >= GITA_VERSES else f"{command('gita seed')}  (fetches only the missing verses)"
    has = f"{packaged}; translations of {verses} of {GITA_VERSES} verses; {books}"
    return ServerStatus("gita", True, str(path), _size(path), has, missing)


def _check_gita_postgres(settings: GitaSettings, packaged: str) -> ServerStatus:
    """The gita store on PostgreSQL (PRAMANA_DATABASE_URL): reachable, and what it holds."""
    from pramana.gita.stores import open_store
    from pramana.store.postgres import DatabaseUnavailableError

    try:
        store = open_store(settings, read_only=True)
    except PramanaError as exc:  # the postgres extra is missing
        return ServerStatus("gita", True, "PostgreSQL", 0, f"{packaged}; {exc}", str(exc))
    with closing(store):
        try:
            verses, books = store.verse_count(), _books(store)
        except DatabaseUnavailableError as exc:
            fix = "start PostgreSQL, or check PRAMANA_DATABASE_URL"
            return ServerStatus("gita", True, store.location, 0, f"{packaged}; {exc}", fix)
        except PramanaError as exc:
            seed = "pramana gita seed --database-url URL  (with a role that may create tables)"
            return ServerStatus("gita", True, store.location, 0, f"{packaged}; {exc}", seed)
    missing = "" if verses >= GITA_VERSES else "pramana gita seed  (fetches only the missing verses)"
    has = f"{packaged}; translations of {verses} of {GITA_VERSES} verses; {books}"
    return ServerStatus("gita", True, store.location, 0, has, missing)


def _books(store: Any) -> str:
    """Each installable book: installed (verses, chapters, translations, upstream commit), or how to."""
    from pramana.gita.books import INSTALLABLE

    installed = store.installed_books()
    parts = []
    for book in INSTALLABLE:
        found = installed.get(book.code)
        if found is None:
            parts.append(f"{book.code} not installed (optional: {command(f'gita install {book.slug}')})")
            continue
        translations = f", {found.translations:,} translations" if found.translations else ", no translations"
        parts.append(
            f"{book.code} {found.verses:,} verses in {found.chapters} chapters{translations}"
            f" (commit {found.version[:8]}, installed {found.installed_at})"
        )
    return "; ".join(parts)


def _older_gita_cache(path: Path) -> bool:
    """A cache an earlier pramana made: any gita command that opens it writable migrates it."""
    from pramana.gita.store import MIGRATIONS

    try:
        with closing(connect(path, read_only=True)) as conn:
            return 0 < schema_version(conn) < len(MIGRATIONS)
    except sqlite3.Error:
        return False


def check_sanskrit() -> ServerStatus:
    from pramana.sanskrit.store import SanskritStore

    path = SanskritSettings.load().resolved_db_path()
    install = f"{command('sanskrit install ap90')}  (any csl-orig codes: mw, ap90, pwkvn…)"
    if not path.is_file():
        return ServerStatus("sanskrit", False, str(path), 0, "no dictionaries", install)

    forms: list[bool] = []

    def listed() -> str:
        with closing(SanskritStore(path, read_only=True)) as store:
            found = store.dictionaries()
            forms.append(store.has_forms())
        return ", ".join(f"{d.code} ({d.entry_count:,})" for d in found)

    codes, problem = _read(path, listed)
    if problem is not None:
        return ServerStatus("sanskrit", False, str(path), _size(path), f"unreadable: {problem}", install)
    if not codes:
        return ServerStatus("sanskrit", False, str(path), _size(path), "no dictionaries", install)
    forms_hint = f"inflected forms (rāmeṇa → rāma): `{command('sanskrit forms')}`  (seconds)"
    optional = () if forms[0] else (forms_hint,)
    return ServerStatus("sanskrit", True, str(path), _size(path), f"dictionaries {codes}", "", optional)


def check_pali() -> ServerStatus:
    from pramana.pali.store import HOW_TO_GET, PaliStore

    path = PaliSettings.load().resolved_db_path()
    get = f"{command('pali download')}  (DPD's latest release)"
    if not path.is_file():
        return ServerStatus("pali", False, str(path), 0, "no DPD database", get)

    def headwords() -> str:
        with closing(PaliStore(path)) as store:
            return f"{store.headword_count():,}"

    count, problem = _read(path, headwords)
    if problem is not None:
        return ServerStatus("pali", False, str(path), _size(path), f"unreadable: {problem}", HOW_TO_GET)
    return ServerStatus("pali", True, str(path), _size(path), f"DPD with {count} headwords", "")


def check_code() -> list[ServerStatus]:
    """One line per index: the configured one (PRAMANA_CODE_REPO / PRAMANA_CODE_DB), else every index
    under the data directory, else one saying how to make the first."""
    settings = CodeSettings.load()
    if settings.missing_configuration() is None:
        return [_check_code_index(settings.resolved_db_path(), settings.repo)]
    indexes = sorted((default_data_dir() / "code").glob("*.db"))
    if not indexes:
        folder = default_data_dir() / "code"
        return [ServerStatus("code", False, str(folder), 0, "no index", command("code index PATH/TO/REPO"))]
    return [_check_code_index(index, None) for index in indexes]


def _check_code_index(path: Path, repo: Path | None) -> ServerStatus:
    from pramana.code.store import CodeStore

    index = command(f"code index {repo or 'PATH/TO/REPO'}")
    if not path.is_file():
        return ServerStatus("code", False, str(path), 0, "no index", index)

    def counted() -> tuple[str, str | None]:
        with closing(CodeStore(path, read_only=True)) as store:
            counts, root = store.counts(), store.meta("root") or "?"
            state, embedder = store.index_state(), store.meta("embedder")
        files, chunks, vectors = counts["files"], counts["chunks"], counts["vectors"]
        has = f"{root}: {files:,} files, {chunks:,} chunks, {vectors:,} vectors"
        again = command(f"code index {repo or (root if root != '?' else 'PATH/TO/REPO')}")
        if not state.complete:
            total = f" of {state.files_total:,}" if state.files_total else ""
            return f"{has}; incomplete ({files:,}{total} files): its last index run did not finish", again
        if embedder and vectors < chunks:
            return f"{has}; {chunks - vectors:,} chunks not embedded yet (keyword search for those)", again
        if not embedder:
            return f"{has} (keyword search only: indexed without an embedder)", None
        return has, None

    found, problem = _read(path, counted)
    if problem is not None or found is None:
        return ServerStatus("code", False, str(path), _size(path), f"unreadable: {problem}", index)
    has, unfinished = found
    return ServerStatus("code", unfinished is None, str(path), _size(path), has, unfinished or "")


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
