"""Putting the code server together from settings: store, embedder, engine, background index."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from pramana.code.embed import Embedder, choose_embedder
from pramana.code.engines import Engine, SQLiteEngine
from pramana.code.github import GitHubReader
from pramana.code.index import Indexer, IndexReport, Progress
from pramana.code.service import CodeService, IndexProgress
from pramana.code.store import CodeStore
from pramana.config import CodeSettings
from pramana.errors import InvalidInputError, NotFoundError

log = logging.getLogger(__name__)


def make_embedder(settings: CodeSettings, *, load_in_background: bool = False) -> Embedder | None:
    embedder = choose_embedder(settings.embedder, settings.openai_api_key, settings.openai_base_url)
    prepare = getattr(embedder, "prepare", None)
    if load_in_background and prepare is not None:
        prepare()
    return embedder


def make_engine(settings: CodeSettings, store: CodeStore, embedder: Embedder | None) -> Engine:
    """The configured engine. Milvus and Pinecone keep one collection/namespace per checkout,
    named from the checkout itself (the index may not have recorded it yet)."""
    if settings.backend == "milvus":
        from pramana.code.milvus_engine import MilvusEngine

        root = repo_root(settings, store)
        return MilvusEngine(settings.milvus_uri, root, store, embedder, token=settings.milvus_token)
    if settings.backend == "pinecone":
        from pramana.code.pinecone_engine import PineconeEngine

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
    """Index `root` into `store`, then bring the engine up to date with what changed."""
    report = Indexer(root, store, embedder, max_file_bytes=settings.max_file_bytes, progress=progress).run()
    engine.sync(store, report.changed_paths, report.removed_paths)
    return report


def open_service(settings: CodeSettings, *, serving: bool) -> CodeService:
    """The service over the configured index.

    `serving` (the MCP server): answer at once. The repository (with --repo) is re-indexed and
    the embedding model loaded in the background; until then answers come from what is ready.
    Otherwise (the CLI) the model is loaded when first needed and nothing is indexed.
    """
    store = CodeStore(settings.resolved_db_path())
    root = repo_root(settings, store)
    embedder = make_embedder(settings, load_in_background=serving)
    engine = make_engine(settings, store, embedder)
    progress = IndexProgress()
    service = CodeService(store, root, embedder, engine, progress, file_reader=_github_reader(settings))
    if serving and settings.repo is not None:
        start_background_index(service, settings)
    return service


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
        progress.stage = "done"

    thread = threading.Thread(target=work, name="pramana-code-index", daemon=True)
    thread.start()
    return thread


def _github_reader(settings: CodeSettings) -> GitHubReader | None:
    if not (settings.github_token and settings.github_repo):
        return None

    return GitHubReader(
        settings.github_api_url, settings.github_repo, settings.github_branch, settings.github_token
    )
