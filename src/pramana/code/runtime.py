"""Putting the code server together from settings: store, embedder, engine, background index."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from pramana import work
from pramana.code.search.engines import Engine, SQLiteEngine
from pramana.code.store import CodeStore
from pramana.config import CodeSettings
from pramana.embed import Embedder, choose_embedder
from pramana.errors import InvalidInputError, NotFoundError
from pramana.store.locks import exclusive, lock_file

if TYPE_CHECKING:  # imported where used: a CLI search needs neither the indexer nor httpx,
    # and an index (`pramana code index`) needs no service: its imports are the start a cold index waits on
    from pramana.code.github import GitHubReader
    from pramana.code.index.indexer import IndexReport, Progress
    from pramana.code.service import CodeService

log = logging.getLogger(__name__)


def make_embedder(settings: CodeSettings) -> Embedder | None:
    return choose_embedder(settings.embedder, settings.openai_api_key, settings.openai_base_url)


def make_engine(settings: CodeSettings, store: CodeStore, embedder: Embedder | None) -> Engine:
    """The configured engine. Milvus and Pinecone keep one collection/namespace per checkout,
    named from the checkout itself (the index may not have recorded it yet)."""
    if settings.backend == "milvus":
        from pramana.code.search.milvus_engine import MilvusEngine

        root = repo_root(settings, store)
        return MilvusEngine(settings.milvus_uri, root, store, embedder, token=settings.milvus_token)
    if settings.backend == "pinecone":
        from pramana.code.search.pinecone_engine import PineconeEngine

        return PineconeEngine.from_settings(settings, repo_root(settings, store), store)
    return SQLiteEngine(store)


def repo_root(settings: CodeSettings, store: CodeStore) -> Path:
    """The checkout to read files from: --repo, else the one the index was built from."""
    if settings.repo is not None:
        root = settings.repo.expanduser().resolve()
    else:
        recorded = store.meta("root")
        if recorded is None:
            raise InvalidInputError("the index names no repository; pass --repo PATH")
        root = Path(recorded)
    if not root.is_dir():
        raise NotFoundError(f"repository folder not found: {root}")
    return root


def run_index(
    root: Path,
    store: CodeStore,
    embedder: Embedder | None,
    engine: Engine,
    settings: CodeSettings,
    progress: Progress | None = None,
) -> IndexReport:
    """Index `root` into `store`, then bring the engine up to date with what changed.

    A local embedder's model is made ready first (the static table is built once per data
    directory, reported as the stage "model"). When the embedder changed (or had made no vectors),
    every vector was computed anew, so the engine is given every file.
    """
    prepare = getattr(embedder, "prepare", None)
    if prepare is not None and root.is_dir():  # a wrong path fails in the Indexer, nothing built first
        prepare(None if progress is None else lambda done, total: progress("model", done, total))
    from pramana.code.index.indexer import Indexer

    # One index run of a database at a time: a second waits, then finds the files indexed.
    with exclusive(lock_file(store.path), f"indexing into {store.path.name}"):
        previous = store.meta("embedder")
        indexer = Indexer(root, store, embedder, max_file_bytes=settings.max_file_bytes, progress=progress)
        report = indexer.run()
        changed = report.changed_paths
        if embedder is not None and previous != embedder.name:
            changed = store.paths()
        with report.stage("engine"):
            engine.sync(store, changed, report.removed_paths)
        with report.stage("search data"):
            load_search_data(store, embedder, engine)
    return report


def load_search_data(store: CodeStore, embedder: Embedder | None, engine: Engine) -> None:
    """Load (building and saving it when the index changed) what a search holds in memory: the
    BM25 postings and, when the store is the vector engine, the vector matrix. After an index,
    this makes the next process's first search as fast as any (it loads the saved arrays)."""
    try:
        if not store.has_files():
            return
        store.lexical_index()
        if embedder is not None and isinstance(engine, SQLiteEngine):
            store.vector_matrix()
    finally:
        store.forget_written()  # what a cold index kept for this (IndexWrites.keep_written)
    work.settle_heap()


def open_service(settings: CodeSettings, *, serving: bool) -> CodeService:
    """The service over the configured index.

    `serving` (the MCP server): answer at once. The repository (with --repo) is re-indexed in the
    background; until then answers come from what is indexed. A cached static table loads with the
    first search (milliseconds); one that was never built is built by that background index, and
    search answers with keywords until it is there. Otherwise (the CLI) nothing is indexed.
    """
    from pramana.code.service import CodeService, IndexProgress

    store = CodeStore(settings.resolved_db_path())
    # An index on a read-only mount (a replica's volume) is searched as it is, never re-indexed.
    read_only = store.read_only
    root = repo_root(settings, store)
    embedder = make_embedder(settings)
    engine = make_engine(settings, store, embedder)
    progress = IndexProgress()
    service = CodeService(store, root, embedder, engine, progress, file_reader=_github_reader(settings))
    if serving and settings.repo is not None and not read_only:
        start_background_index(service, settings)
    if read_only:
        progress.stage = "read-only"
    if serving and (settings.repo is None or read_only):
        threading.Thread(target=warm_caches, args=(service,), name="pramana-code-warm", daemon=True).start()
    return service


def served(settings: CodeSettings) -> CodeService:
    """The service an MCP server opens (open_service, serving)."""
    return open_service(settings, serving=True)


def warm_caches(service: CodeService) -> None:
    """Load what the first search would need (the keyword postings, the vector matrix, the rank's
    tables) so that it answers at once: a client starts its servers well before it asks them
    anything. A failure is left for that search to report."""
    try:
        load_search_data(service.store, service.embedder, service.engine)
        if service.store.has_files():
            service.store.read_rank_tables()
    except Exception:
        log.debug("could not load the search caches ahead of the first search", exc_info=True)


def start_background_index(service: CodeService, settings: CodeSettings) -> threading.Thread:
    progress = service.progress

    def report(stage: str, done: int, total: int) -> None:
        progress.stage, progress.done, progress.total = stage, done, total

    def work() -> None:
        progress.stage = "parse"
        try:
            run_index(service.root, service.store, service.embedder, service.engine, settings, report)
        except Exception as exc:  # the server keeps answering from what is indexed
            log.exception("background indexing failed")
            progress.stage, progress.error = "failed", f"{type(exc).__name__}: {exc}"
            return
        progress.stage = "done"  # run_index has loaded the search data the index changed

    thread = threading.Thread(target=work, name="pramana-code-index", daemon=True)
    thread.start()
    return thread


def _github_reader(settings: CodeSettings) -> GitHubReader | None:
    if not (settings.github_token and settings.github_repo):
        return None

    from pramana.code.github import GitHubReader

    return GitHubReader(
        settings.github_api_url, settings.github_repo, settings.github_branch, settings.github_token
    )
