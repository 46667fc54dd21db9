"""The code tools, over the stages of code/: search (candidates gathered in search/gather.py, ranked
by search/rank.py), file and chunk reading, and the symbol tools (list_functions, get_dependencies,
find_usages, search_by_type, explain_code), exact lookups in the symbol table built at indexing time
(symbols/lookup.py), never similarity guesses. This module checks the tools' input and shapes their
answers; the work is in the stages.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

import numpy as np

from pramana.checks import required_text
from pramana.code import models
from pramana.code.files import decode, is_binary, line_count, normalize_rel, resolve_inside, text_hash
from pramana.code.languages import DOC_LANGUAGES, HEAD_BYTES, language_for
from pramana.code.records import ChunkRecord, DefinitionChunk, SymbolRecord
from pramana.code.search import gather, rank
from pramana.code.search.engines import Engine, Hits, SQLiteEngine
from pramana.code.search.paths import TEST, TESTS_AS_SUBJECT, is_secondary, test_words
from pramana.code.search.store import Filters
from pramana.code.search.terms import terms
from pramana.code.store import CodeStore
from pramana.code.symbols import lookup
from pramana.embed import EXTRA_HINT, Embedder, StaticEmbedder, is_ready
from pramana.errors import InvalidInputError, NotFoundError, NotReadyError
from pramana.install import command

MAX_QUERY_CHARS = 2_000
MAX_SNIPPET_CHARS = 20_000
MAX_LIMIT = 50
MAX_SYMBOL_LIMIT = 500
MAX_DEPENDENTS = 500  # importers of a module listed (a common one can have thousands)
MAX_CALLS = 40
MAX_EXPAND_LINES = 500
MAX_FILE_CHARS = 1_000_000
MAX_SIMILAR_TERMS = 64
SYMBOL_KINDS = {
    "function": ("function", "method"),
    "class": ("class",),
    "interface": ("interface",),
    "type": ("type",),
    "export": (),
}
CANDIDATES = 200  # from BM25 and from the vectors each, before ranking


INDEXING_STAGES = ("model", "parse", "embed")


@dataclass
class IndexProgress:
    """How far a background index has got, for answers given while it runs."""

    stage: str = "idle"  # idle, model, parse, embed, done, failed
    done: int = 0
    total: int = 0
    error: str | None = None

    def describe(self) -> str | None:
        if self.stage == "parse" and self.total == 0:
            return None  # still walking: nothing is being written yet (the index's state says the rest)
        if self.stage in INDEXING_STAGES:
            verb = {
                "model": "building the embedding table, once",
                "parse": "parsing files",
                "embed": "embedding chunks",
            }[self.stage]
            return (
                f"indexing in progress ({verb}: {self.done}/{self.total}); "
                "results cover what is indexed so far"
            )
        if self.stage == "failed":
            return f"indexing failed: {self.error}"
        if self.stage == "read-only":
            return "the index is on a read-only filesystem: served as it is, not re-indexed"
        return None


class CodeService:
    def __init__(
        self,
        store: CodeStore,
        root: Path,
        embedder: Embedder | None = None,
        engine: Engine | None = None,
        progress: IndexProgress | None = None,
        file_reader: Callable[[str], models.FileResult] | None = None,
    ):
        self.store = store
        self.root = root.resolve()
        self.embedder = embedder
        self.engine = engine or SQLiteEngine(store)
        self.progress = progress or IndexProgress()
        self.file_reader = file_reader
        self._note_lock = threading.Lock()
        self._keyword_note_given = False

    # search

    def search_code(
        self, query: str, limit: int = 5, package: str | None = None, language: str | None = None
    ) -> models.SearchResult:
        query = required_text(query, "query", MAX_QUERY_CHARS)
        _check_limit(limit, MAX_LIMIT)
        filters = Filters(
            languages=(self._known("language", language),) if language else (),
            excluded_languages=() if language else tuple(sorted(DOC_LANGUAGES)),
            package=self._known("package", package) if package else None,
        )
        return self._search(query, limit, filters)

    def search_docs(self, query: str, limit: int = 5) -> models.SearchResult:
        query = required_text(query, "query", MAX_QUERY_CHARS)
        _check_limit(limit, MAX_LIMIT)
        return self._search(query, limit, Filters(languages=tuple(sorted(DOC_LANGUAGES))))

    def find_similar(self, code: str, limit: int = 5, exclude_file: str | None = None) -> models.SearchResult:
        code = required_text(code, "code", MAX_SNIPPET_CHARS)
        _check_limit(limit, MAX_LIMIT)
        exclude = normalize_rel(exclude_file) if exclude_file else None
        filters = Filters(excluded_languages=tuple(sorted(DOC_LANGUAGES)), exclude_file=exclude)
        words = _distinctive_terms(code)
        if not words:
            raise InvalidInputError("the snippet has no identifiers or words to compare; give some code")
        return self._search(code, limit, filters, words=words)

    def _search(
        self, query: str, limit: int, filters: Filters, words: Sequence[str] | None = None
    ) -> models.SearchResult:
        """BM25 and dense candidates, plus the definitions the query names, ranked by rank.py."""
        with self.store.one_generation():  # every cache it consults checks the generation
            return self._ranked(query, limit, filters, words)

    def _ranked(
        self, query: str, limit: int, filters: Filters, words: Sequence[str] | None
    ) -> models.SearchResult:
        self._require_index()
        plan = rank.plan(query, words)
        if TEST in plan.wanted and any(
            self.store.production_share(word) >= TESTS_AS_SUBJECT for word in test_words(plan.every_word)
        ):
            # A test framework's subject, not its tests; once the sentence says the subject, another
            # test word beside it (NUnit's "how is a test fixture built") speaks of the subject too.
            plan = replace(plan, wanted=plan.wanted - {TEST})
        keyword = self.engine.keyword(list(plan.words), filters, CANDIDATES) if plan.words else []
        dense: Hits = []
        semantic = self.embedder is not None and is_ready(self.embedder)
        if semantic:
            vector = self.embedder.embed([query])[0]  # type: ignore[union-attr]
            if np.any(vector):  # a query with no known word pieces has no direction to search in
                dense = self.engine.dense(vector, filters, CANDIDATES)
        definitions: list[DefinitionChunk] = []
        if words is None and plan.symbols:
            names = (*plan.symbols, *rank.marked_names(plan.symbols))
            definitions = self.store.definition_chunks(names, filters)
        candidates = gather.candidates(self.store, plan, keyword, dense, definitions, sentence=words is None)
        # A filter that itself picks tests or examples asks for them: no demotion then.
        priors = not (filters.package and is_secondary(filters.package + "/x"))
        sentence_weight = getattr(self.embedder, "sentence_weight", None)
        forwards = self.store.has_forwarders()  # else no file to lift: the rank skips looking
        ranked = rank.rank(
            plan, candidates, limit, apply_priors=priors, sentence_weight=sentence_weight,
            forwarders=(lambda paths: self.store.forwarders(paths, filters)) if forwards else None,
            supertypes=gather.supertypes(self.store, definitions, filters),
            older_versions=self.store.older_version_folders(),
            headed=self.store.headed_folders(),
            fragments=self.store.fragments,
            package_docs=self.store.package_docs,
            in_file_tests=self.store.in_file_tests,
            command_modules=self.store.command_modules(),
            namesake_references=self.store.namesake_references,
            rarity=lambda words: self.store.lexical_index().rarity(words),
        )  # fmt: skip
        chunks = self.store.chunks_by_id(chunk_id for chunk_id, _ in ranked)
        found = [_chunk(chunks[chunk_id], score) for chunk_id, score in ranked if chunk_id in chunks]
        mode: Literal["hybrid", "keyword", "semantic"] = (
            ("hybrid" if keyword else "semantic") if semantic else "keyword"
        )
        return models.SearchResult(
            chunks=found,
            totalFound=len(candidates),
            mode=mode,
            note=self._keyword_note(),
            indexing=self.index_note(),
        )

    def index_note(self) -> str | None:
        """How far the index is from the repository: an index run under way, or the last one cut off."""
        running = self.progress.describe()
        incomplete = self.store.index_state().describe()
        if running and incomplete and self.progress.stage in INDEXING_STAGES:
            return running  # the run under way is what completes it
        return running or incomplete

    def _definition_code(self, definition: SymbolRecord) -> models.CodeChunk | None:
        try:
            lines = self.get_file(definition.path).content.splitlines()
        except (NotFoundError, InvalidInputError):
            return None
        start, end = definition.start_line, min(definition.end_line, definition.start_line + 299)
        return models.CodeChunk(
            id=f"{definition.path}:{start}-{end}",
            score=1.0,
            content="\n".join(lines[start - 1 : end]),
            metadata=models.ChunkMetadata(
                filePath=definition.path, package=definition.package, chunkType=definition.kind,
                name=definition.name, startLine=start, endLine=end, language=definition.language,
            ),
        )  # fmt: skip

    def _keyword_note(self) -> str | None:
        """Said once per server: without an embedder, search matches words, not meaning."""
        if self.embedder is not None:
            if is_ready(self.embedder):
                return None
            if isinstance(self.embedder, StaticEmbedder):
                return "the embedding table is being built (once); this answer is keyword (BM25) matches only"
            return (
                "the embedding model could not be loaded (see the server log); "
                "this answer is keyword (BM25) matches only"
            )
        with self._note_lock:
            if self._keyword_note_given:
                return None
            self._keyword_note_given = True
        return (
            "semantic search is off, results are keyword (BM25) matches only; "
            f"to search by meaning, {EXTRA_HINT}"
        )

    # files and chunks

    def get_file(self, path: str) -> models.FileResult:
        rel = self._indexed_path(path)
        if self.file_reader is not None:
            return self.file_reader(rel)
        target = resolve_inside(self.root, rel)
        try:
            data = target.read_bytes()
            modified = target.stat().st_mtime
        except OSError as exc:
            raise NotFoundError(f"cannot read {rel}: {exc.strerror}; re-index if it was removed") from exc
        if is_binary(data[:HEAD_BYTES]):
            raise InvalidInputError(f"{rel} is a binary file")
        text = decode(data)
        if len(text) > MAX_FILE_CHARS:
            raise InvalidInputError(
                f"{rel} has {len(text):,} characters, over the {MAX_FILE_CHARS:,} limit; "
                "use list_functions and get_chunk_context to read parts of it"
            )
        return models.FileResult(
            path=rel,
            content=text,
            language=language_for(rel, data[:HEAD_BYTES]),
            lastModified=datetime.fromtimestamp(modified, UTC).isoformat(timespec="seconds"),
            lines=line_count(text),
        )

    def get_chunk_context(self, chunk_id: str, expand_lines: int = 20) -> models.ChunkContext:
        chunk_id = required_text(chunk_id, "chunkId", 2_000)
        if not 0 <= expand_lines <= MAX_EXPAND_LINES:
            raise InvalidInputError(f"expandLines must be between 0 and {MAX_EXPAND_LINES}")
        row = self.store.chunk(chunk_id)
        if row is None:
            raise NotFoundError(
                f"no chunk {chunk_id!r}; chunk ids come from search results ('path:start-end') and change "
                "when their file is re-indexed"
            )
        indexed = self.store.file(row.path)
        current = self.get_file(row.path)
        lines = current.content.splitlines()
        start = max(1, row.start_line - expand_lines)
        end = min(len(lines), row.end_line + expand_lines)
        return models.ChunkContext(
            chunk=_chunk(row, 1.0),
            path=row.path,
            startLine=start,
            endLine=end,
            content="\n".join(lines[start - 1 : end]),
            changedSinceIndexed=indexed is not None and indexed.sha != text_hash(current.content),
        )

    # symbols

    def list_functions(self, path: str) -> models.SymbolList:
        rel = normalize_rel(required_text(path, "path", 1_000) if path.strip() not in ("", ".", "/") else "")
        self._require_index()
        if rel and self.store.file(rel) is None and not self.store.has_folder(rel):
            raise NotFoundError(
                f"{rel!r} is neither an indexed file nor a folder with indexed files" + self._near(rel)
            )
        rows, total = self.store.symbols_under(rel, MAX_SYMBOL_LIMIT)
        return models.SymbolList(path=rel, symbols=[lookup.symbol_info(r) for r in rows], totalFound=total)

    def get_dependencies(self, path: str) -> models.DependencyResult:
        rel = self._indexed_path(path)
        imports = [
            models.ImportInfo(
                module=r.module, names=json.loads(r.names), line=r.line,
                resolved=json.loads(r.resolved), external=not json.loads(r.resolved),
            )
            for r in self.store.imports_of(rel, lookup.MAX_IMPORTS)
        ]  # fmt: skip
        importers, total = self.store.dependents(rel, MAX_DEPENDENTS)
        return models.DependencyResult(path=rel, imports=imports, importedBy=importers, importedByTotal=total)

    def find_usages(self, name: str, limit: int = 10) -> models.UsageResult:
        name = required_text(name, "name", 200)
        _check_limit(limit, MAX_SYMBOL_LIMIT)
        self._require_index()
        bare = lookup.selector_name(name) or name.rsplit(".", 1)[-1].rsplit("::", 1)[-1]
        if not re.fullmatch(r"[\w$]+['?!]*", bare):  # `foldl'`, `empty?`, `save!`
            raise InvalidInputError(f"{name!r} is not an identifier; give a function, class or export name")
        # 'Cart.total' asks for a member: `x.total()` before a variable that is also called total.
        rows, total = self.store.references(bare, limit, members_first=bare != name.strip())
        return models.UsageResult(
            name=bare,
            definitions=[lookup.symbol_info(r) for r in self.store.definitions(bare, lookup.MAX_DEFINITIONS)],
            definitionsFound=self.store.definition_count(bare),
            usages=lookup.usages(self.store, self.root, rows),
            totalFound=total,
        )

    def search_by_type(self, kind: str, package: str | None = None, limit: int = 20) -> models.TypeSearch:
        if kind not in SYMBOL_KINDS:
            raise InvalidInputError(f"type must be one of {', '.join(SYMBOL_KINDS)}")
        _check_limit(limit, MAX_SYMBOL_LIMIT)
        self._require_index()
        package = self._known("package", package) if package else None
        rows, total = self.store.symbols_of_kind(SYMBOL_KINDS[kind], kind == "export", package, limit)
        return models.TypeSearch(
            type=kind, package=package, symbols=[lookup.symbol_info(r) for r in rows], totalFound=total
        )

    def explain_code(self, query: str) -> models.Explanation:
        query = required_text(query, "query", MAX_QUERY_CHARS)
        self._require_index()
        named = lookup.qualified_name(query)
        definitions = lookup.definitions_for(self.store, *named) if named else []
        related: list[models.CodeChunk] = []
        note = None
        if not definitions:
            related = self.search_code(query, limit=5).chunks
            if named and named[0] is not None:
                # 'A.b' where A defines no b: another b is not the answer, whatever search finds.
                note = lookup.no_member_note(self.store, named[0], named[1])
            else:
                definitions = lookup.definitions_at(self.store, related[0]) if related else []
        if not definitions:
            return models.Explanation(
                query=query, definition=None, otherDefinitions=[], code=None, calls=[], imports=[], usages=[],
                related=related, note=note,
            )  # fmt: skip
        best = definitions[0]
        code = self._definition_code(best)
        called = self.store.references_in(best.path, best.start_line, best.end_line, "call")
        calls = [
            models.CalledSymbol(
                name=name,
                definedIn=[f"{d.path}:{d.start_line}" for d in self.store.definitions(name, 5)],
            )
            for name in called[:MAX_CALLS]
        ]
        # A method is used through an object or its type (`x.lookup()`, `Cart::new()`), never by a
        # variable or a function that shares its name.
        usage_rows, _ = self.store.references(best.name, 10, members_only=best.kind == "method")
        return models.Explanation(
            query=query,
            definition=lookup.symbol_info(best),
            otherDefinitions=[lookup.symbol_info(d) for d in definitions[1:10]],
            code=code,
            calls=calls,
            imports=self.get_dependencies(best.path).imports,
            usages=lookup.usages(self.store, self.root, usage_rows),
            related=related,
        )

    # helpers

    def _indexed_path(self, path: str) -> str:
        rel = normalize_rel(required_text(path, "path", 1_000))
        resolve_inside(self.root, rel)  # refuses '..', absolute paths and symlinks out, before any lookup
        self._require_index()
        if self.store.file(rel) is None:
            raise NotFoundError(
                f"{rel!r} is not in the index"
                " (missing, ignored by .gitignore, binary, generated or too large)" + self._near(rel)
            )
        return rel

    def _near(self, rel: str) -> str:
        from rapidfuzz import fuzz, process  # here: only a wrong path needs it, not a server's start

        paths = self.store.paths()
        close = [
            match
            # The cutoff lets rapidfuzz skip hopeless paths early: a 1,000-character name against
            # 100,000 paths takes 0.5 s instead of 4.
            for match, score, _ in process.extract(rel, paths, scorer=fuzz.WRatio, limit=3, score_cutoff=60)
            if score > 60
        ]
        return f"; did you mean {', '.join(close)}?" if close else ""

    def _known(self, column: str, value: str) -> str:
        known = self.store.values(column)
        if value in known:
            return value
        lowered = {k.lower(): k for k in known}
        if value.lower() in lowered:
            return lowered[value.lower()]
        raise InvalidInputError(f"unknown {column} {value!r}; the index has: {', '.join(known[:40])}")

    def _require_index(self) -> None:
        if not self.store.has_files() and self.progress.stage not in INDEXING_STAGES:
            state = self.progress.describe()
            raise NotReadyError(
                f"the code index is empty; run `{command('code index PATH')}`"
                " or start the server with --repo PATH" + (f" ({state})" if state else "")
            )


def _distinctive_terms(code: str) -> list[str]:
    """The snippet's terms, rarest-looking first (long identifiers before short words), capped."""
    counts: dict[str, int] = {}
    for term in terms(code):
        counts[term] = counts.get(term, 0) + 1
    return sorted(counts, key=lambda t: (-len(t), t))[:MAX_SIMILAR_TERMS]


def _check_limit(limit: int, most: int) -> None:
    if not 1 <= limit <= most:
        raise InvalidInputError(f"limit must be between 1 and {most}")


def _chunk(row: ChunkRecord, score: float) -> models.CodeChunk:
    return models.CodeChunk(
        id=row.id,
        score=round(score, 6),
        content=row.content,
        metadata=models.ChunkMetadata(
            filePath=row.path, package=row.package, chunkType=row.chunk_type, name=row.name,
            startLine=row.start_line, endLine=row.end_line, language=row.language,
        ),
    )  # fmt: skip
