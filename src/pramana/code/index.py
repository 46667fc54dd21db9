"""Indexing a repository: walk, parse what changed, embed what has no vector, resolve imports.

Incremental: a file whose size and mtime are unchanged is skipped without reading it; one whose
content hash is unchanged only has its mtime updated; files gone from the tree leave the index.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pramana.code.deps import Resolver
from pramana.code.embed import Embedder, chunk_text
from pramana.code.files import (
    DEFAULT_MAX_FILE_BYTES,
    RepoFile,
    decode,
    line_count,
    text_hash,
    walk_repository,
)
from pramana.code.parse import parse_file
from pramana.code.store import CodeStore

log = logging.getLogger(__name__)

EMBED_BATCH = 64
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


class Indexer:
    def __init__(
        self,
        root: Path,
        store: CodeStore,
        embedder: Embedder | None = None,
        *,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        progress: Progress | None = None,
    ):
        self.root = root.resolve()
        self.store = store
        self.embedder = embedder
        self.max_file_bytes = max_file_bytes
        self.progress = progress or (lambda stage, done, total: None)

    def run(self) -> IndexReport:
        report = IndexReport()
        started = time.perf_counter()
        self.store.set_meta("root", str(self.root))
        files = list(walk_repository(self.root, self.max_file_bytes))
        report.files_seen = len(files)
        self._update_files(files, report)
        if report.removed_paths or report.added_paths or self.store.meta("resolved") != "1":
            self.resolve_imports()  # the set of files changed: any import may lead elsewhere now
        elif report.changed_paths:
            self.resolve_imports(report.changed_paths)
        if self.embedder is not None:
            self._embed(report)
        report.total_seconds = time.perf_counter() - started
        return report

    def _update_files(self, files: Sequence[RepoFile], report: IndexReport) -> None:
        known = self.store.file_states()
        parse_started = time.perf_counter()
        for done, file in enumerate(files, 1):
            state = known.pop(file.path, None)
            if state is not None and (state.size, state.mtime_ns) == (file.size, file.mtime_ns):
                report.files_unchanged += 1
            else:
                self._update_file(file, state.sha if state else None, report)
            self.progress("parse", done, len(files))
        report.removed_paths = sorted(known)
        report.files_removed = len(known)
        self.store.remove_files(report.removed_paths)
        report.parse_seconds = time.perf_counter() - parse_started

    def _update_file(self, file: RepoFile, known_sha: str | None, report: IndexReport) -> None:
        try:
            data = (self.root / file.path).read_bytes()
        except OSError as exc:
            report.errors.append(f"{file.path}: {exc}")
            return
        text = decode(data)
        sha = text_hash(text)
        if sha == known_sha:
            self.store.touch(file.path, file.size, file.mtime_ns)
            report.files_unchanged += 1
            return
        try:
            parsed = parse_file(file.path, file.language, file.package, text)
        except Exception as exc:  # one unparsable file must not stop the index
            log.exception("cannot parse %s", file.path)
            report.errors.append(f"{file.path}: {type(exc).__name__}: {exc}")
            return
        self.store.replace_file(file, sha, line_count(text), parsed)
        report.files_parsed += 1
        report.chunks_written += len(parsed.chunks)
        report.changed_paths.append(file.path)
        if known_sha is None:
            report.added_paths.append(file.path)

    def resolve_imports(self, paths: Sequence[str] | None = None) -> None:
        """Resolve the imports of `paths` (None: of every file) against the files indexed now."""
        resolver = Resolver(self.store.paths())
        resolved = {
            row["id"]: resolver.resolve(row["path"], row["language"], row["module"], json.loads(row["names"]))
            for row in self.store.imports_to_resolve(paths)
        }
        self.store.replace_dependencies(resolved, paths)
        self.store.set_meta("resolved", "1")

    def _embed(self, report: IndexReport) -> None:
        assert self.embedder is not None
        if self.store.meta("embedder") != self.embedder.name:
            self.store.clear_vectors()
            self.store.set_meta("embedder", self.embedder.name)
        pending = self.store.chunks_without_vectors()
        started = time.perf_counter()
        for start in range(0, len(pending), EMBED_BATCH):
            batch = pending[start : start + EMBED_BATCH]
            texts = [
                chunk_text(r["path"], r["chunk_type"], r["parent"], r["name"], r["content"]) for r in batch
            ]
            vectors = self.embedder.embed(texts)
            self.store.put_vectors([row["rowid"] for row in batch], vectors)
            report.chunks_embedded += len(batch)
            self.progress("embed", report.chunks_embedded, len(pending))
        report.embed_seconds = time.perf_counter() - started
