"""Indexing a repository: walk, parse what changed, embed what has no vector, resolve imports.

Incremental: a file whose size and mtime are unchanged is skipped without reading it; one whose
content hash is unchanged only has its mtime updated; files gone from the tree leave the index.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pramana import work
from pramana.code.index.deps import Resolver
from pramana.code.index.prepare import prepare_files
from pramana.code.index.skipped import DEFAULT_MAX_FILE_BYTES
from pramana.code.index.walk import RepoFile, Walk
from pramana.code.store import CodeStore
from pramana.embed import Embedder, StaticEmbedder, chunk_text

log = logging.getLogger(__name__)

EMBED_BATCH = 64
EMBED_WRITE_ROWS = 4096  # vectors written per transaction
Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass
class IndexReport:
    files_seen: int = 0
    files_parsed: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    chunks_written: int = 0
    chunks_embedded: int = 0
    parse_seconds: float = 0.0
    embed_seconds: float = 0.0
    total_seconds: float = 0.0
    changed_paths: list[str] = field(default_factory=list)  # parsed again (includes added_paths)
    added_paths: list[str] = field(default_factory=list)
    removed_paths: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refused_links: list[str] = field(default_factory=list)  # 'path -> target: why', not followed
    # stage -> (wall, this process's CPU) seconds: where a run's time went (benchmarks/code_cold.py)
    stages: dict[str, tuple[float, float]] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.stages[name] = (time.perf_counter() - wall, time.process_time() - cpu)


class Indexer:
    # A commit at least this often (rows or seconds): one per file would be slow, one for a whole
    # cold index would keep a server that indexes in the background from showing any of it for long.
    BATCH_ROWS = 60_000
    BATCH_SECONDS = 1.0

    def __init__(
        self,
        root: Path,
        store: CodeStore,
        embedder: Embedder | None = None,
        *,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        progress: Progress | None = None,
        workers: int | None = None,
    ):
        self.root = root.resolve()
        self.store = store
        self.embedder = embedder
        self.max_file_bytes = max_file_bytes
        self.progress = progress or (lambda stage, done, total: None)
        self.workers = workers  # processes that parse; None: chosen from the work and the CPUs

    def run(self) -> IndexReport:
        report = IndexReport()
        started = time.perf_counter()
        self.store.set_meta("root", str(self.root))
        self.store.ensure_refs_indexes()  # a cold index killed while it wrote left them unbuilt
        walk = Walk(self.root, self.max_file_bytes)
        with report.stage("walk"):
            files = walk.files()
        report.refused_links = walk.refused
        # Incomplete until this run ends: a kill part-way leaves an index that says so (doctor, CLI,
        # every search answer), and the next run, finding the files already written unchanged,
        # carries on from there.
        self.store.set_meta("index_state", "partial")
        self.store.set_meta("index_files_total", str(len(files)))
        report.files_seen = len(files)
        if self.embedder is not None and self.store.meta("embedder") != self.embedder.name:
            self.store.clear_vectors()  # another model's vectors: every chunk is embedded anew
            self.store.set_meta("embedder", self.embedder.name)
        with report.stage("parse and write"):
            resolved, cold = self._update_files(files, report)
        with report.stage("resolve imports"):
            if resolved:
                self.store.set_meta("resolved", "1")
            elif report.removed_paths or report.added_paths or self.store.meta("resolved") != "1":
                self.resolve_imports()  # the set of files changed: any import may lead elsewhere now
            elif report.changed_paths:
                self.resolve_imports(report.changed_paths)
        with report.stage("bags and vectors left"):
            # BM25 term counts of chunks without them (written by an older pramana), so the first search
            # needs none; a cold index wrote every chunk with its bag.
            if not cold:
                self.store.fill_bags()
            if self.embedder is not None:
                self._embed(report)  # what is still without a vector
        self.store.set_meta("index_state", "complete")
        report.total_seconds = time.perf_counter() - started
        return report

    def _update_files(self, files: Sequence[RepoFile], report: IndexReport) -> tuple[bool, bool]:
        """Parse and write what changed: (every import was resolved as it was written, the index had
        no file: every row was written by this run)."""
        known = self.store.file_states()
        # A cold index: the search data built after it comes from what is written, and imports are
        # resolved as they are written, against the files walked (which, when none fails, are the
        # files indexed: what resolve_imports would resolve them against after).
        resolver = None
        cold = not known
        if cold:
            self.store.keep_written()
            resolver = Resolver(file.path for file in files)
        parse_started = time.perf_counter()
        pending: list[tuple[RepoFile, str | None]] = []
        for file in files:
            state = known.pop(file.path, None)
            if state is not None and (state.size, state.mtime_ns) == (file.size, file.mtime_ns):
                report.files_unchanged += 1
            else:
                pending.append((file, state.sha if state else None))
        done = report.files_unchanged
        if done:
            self.progress("parse", done, len(files))
        new_paths = {file.path for file, known_sha in pending if known_sha is None}
        # Rows are written as files come (while workers parse the next ones), committed in batches.
        writer = self.store.bulk_writer(self.BATCH_ROWS, self.BATCH_SECONDS, resolver, new_files_only=cold)
        with work.fewer_collections(), writer:
            for outcome in prepare_files(self.root, pending, self.workers, self._embedder_for_workers()):
                path = outcome.file.path
                if outcome.error is not None:
                    if outcome.detail:
                        log.error("cannot parse %s\n%s", path, outcome.detail)
                    report.errors.append(outcome.error)
                elif outcome.prepared is None:  # the text is the one indexed: only the mtime changed
                    writer.touch(path, outcome.file.size, outcome.file.mtime_ns)
                    report.files_unchanged += 1
                else:
                    writer.add(outcome.prepared)
                    report.files_parsed += 1
                    report.chunks_written += len(outcome.prepared.chunks)
                    if outcome.prepared.vectors is not None:
                        report.chunks_embedded += len(outcome.prepared.chunks)
                    report.changed_paths.append(path)
                    if path in new_paths:
                        report.added_paths.append(path)
                done += 1
                self.progress("parse", done, len(files))
            if cold:
                # Every row is written: the search data is built from them in a thread while the
                # writer's end builds the refs table's indexes (SearchReads.build_search_data_ahead).
                writer.commit()
                self.store.build_search_data_ahead()
        report.removed_paths = sorted(known)
        report.files_removed = len(known)
        self.store.remove_files(report.removed_paths)
        report.parse_seconds = time.perf_counter() - parse_started
        return resolver is not None and not report.errors, cold

    def _embedder_for_workers(self) -> StaticEmbedder | None:
        """The static table, when it is loaded: chunks are embedded where they are parsed then, in
        parallel; other embedders (a remote API) run afterwards, from here, in batches."""
        embedder = self.embedder
        return embedder if isinstance(embedder, StaticEmbedder) and embedder.is_ready() else None

    def resolve_imports(self, paths: Sequence[str] | None = None) -> None:
        """Resolve the imports of `paths` (None: of every file) against the files indexed now."""
        resolver = Resolver(self.store.paths())
        resolved = {
            row.id: resolver.resolve(row.path, row.language, row.module, json.loads(row.names))
            for row in self.store.imports_to_resolve(paths)
        }
        self.store.replace_dependencies(resolved, paths)
        self.store.set_meta("resolved", "1")

    def _embed(self, report: IndexReport) -> None:
        """Embed every chunk without a vector, writing vectors a few thousand at a time."""
        assert self.embedder is not None
        pending = self.store.chunks_without_vectors()
        started = time.perf_counter()
        rowids: list[int] = []
        vectors: list[np.ndarray] = []
        for start in range(0, len(pending), EMBED_BATCH):
            batch = pending[start : start + EMBED_BATCH]
            texts = [chunk_text(r.path, r.chunk_type, r.parent, r.name, r.content) for r in batch]
            vectors.append(np.asarray(self.embedder.embed(texts), dtype=np.float32))
            rowids += [row.rowid for row in batch]
            report.chunks_embedded += len(batch)
            if len(rowids) >= EMBED_WRITE_ROWS or start + EMBED_BATCH >= len(pending):
                self.store.put_vectors(rowids, np.vstack(vectors))
                rowids, vectors = [], []
            self.progress("embed", min(start + EMBED_BATCH, len(pending)), len(pending))
        report.embed_seconds = time.perf_counter() - started
