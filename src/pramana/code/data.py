"""The code server's data (its declaration's install and doctor, pramana.servers): a repository's
index, made or brought up to date, and what the indexes hold."""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pramana.servers import Installed, Progress, Source

if TYPE_CHECKING:
    from pramana.code.index.indexer import IndexReport
    from pramana.config import CodeSettings
    from pramana.doctor import ServerStatus


@dataclass(frozen=True)
class IndexRun:
    """An index run's report, with the embedder it used (None: keyword search only) and what the
    index holds after it."""

    report: IndexReport
    embedder: str | None
    chunks: int
    symbols: int


def install(settings: CodeSettings, source: Source, progress: Progress) -> Installed:
    """The index of the repository `source.location` names (default: the settings' repository);
    run again, only files whose content changed are parsed and embedded."""
    from pramana.errors import InvalidInputError

    if source.location is not None:
        settings = settings.model_copy(update={"repo": Path(source.location).expanduser()})
    if settings.repo is None:
        raise InvalidInputError("name the repository to index (or set PRAMANA_CODE_REPO)")
    from pramana.code.index.early import resume_collections
    from pramana.code.index.workers import end_early_worker, start_worker_early

    if not settings.resolved_db_path().exists() and settings.repo.is_dir():
        # A new index parses every file: a parse worker starts while the rest loads. A hint only, read
        # here without importing pramana.embed (numpy) first: the static table is what `static` uses,
        # and `auto` without an OpenAI key (choose_embedder's order).
        choice = settings.embedder
        static_table = choice == "static" or (choice == "auto" and not settings.openai_api_key)
        start_worker_early(settings.repo, static_table)
    else:
        end_early_worker()  # one the command line's guess started (code/index/early.py) for nothing
    try:
        from pramana.code.runtime import make_embedder, make_engine, run_index
        from pramana.code.store import CodeStore

        store = CodeStore(settings.resolved_db_path())
        store.checkpoint_at_close()  # closed below, once the index and its search data are written
        embedder = make_embedder(settings)
        resume_collections()  # loaded: what is loaded is frozen out of the collector's passes
        report = run_index(
            settings.repo, store, embedder, make_engine(settings, store, embedder), settings, progress
        )
    finally:
        end_early_worker()  # one the index did not take (it failed before parsing)
    counts = store.counts("chunks", "symbols")
    store.close()  # now, not whenever the collector gets to it: closing copies the log into the file
    done = IndexRun(report, embedder.name if embedder else None, counts["chunks"], counts["symbols"])
    return Installed(store.path, f"{report.files_seen:,} files ({report.files_parsed:,} parsed)", report=done)


def doctor() -> list[ServerStatus]:
    """One line per index: the configured one (PRAMANA_CODE_REPO / PRAMANA_CODE_DB), else every index
    under the data directory, else one saying how to make the first."""
    from dataclasses import replace

    from pramana.config import CodeSettings, default_data_dir
    from pramana.doctor import ServerStatus, embeddings_extra
    from pramana.install import command

    settings = CodeSettings.load()
    if settings.missing_configuration() is None:
        found = [check_code_index(settings.resolved_db_path(), settings.repo)]
    elif indexes := sorted((default_data_dir() / "code").glob("*.db")):
        found = [check_code_index(index, None) for index in indexes]
    else:
        folder = default_data_dir() / "code"
        found = [ServerStatus("code", False, str(folder), 0, "no index", command("code index PATH/TO/REPO"))]
    model = embeddings_extra("sentences ranked by the model itself (--embedder minilm)")
    return [replace(status, optional=model) for status in found]


def check_code_index(path: Path, repo: Path | None) -> ServerStatus:
    from pramana.code.store import CodeStore
    from pramana.doctor import ServerStatus, file_size, read_safely
    from pramana.install import command

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

    found, problem = read_safely(counted)
    if problem is not None or found is None:
        return ServerStatus("code", False, str(path), file_size(path), f"unreadable: {problem}", index)
    has, unfinished = found
    return ServerStatus("code", unfinished is None, str(path), file_size(path), has, unfinished or "")
