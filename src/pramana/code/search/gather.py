"""Search's candidates: BM25 and dense hits and the definitions a query names, joined into
rank.Candidates, and the supertypes of the types a query names (what their headers build on)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pramana.code.records import DefinitionChunk
from pramana.code.search import rank
from pramana.code.search.engines import Hits
from pramana.code.search.store import Filters
from pramana.code.symbols.lookup import MAX_IMPORTS

if TYPE_CHECKING:
    from pramana.code.store import CodeStore  # search reads, and the imports a supertype's file makes


def candidates(
    store: CodeStore,
    plan: rank.QueryPlan,
    keyword: Hits,
    dense: Hits,
    definitions: Sequence[DefinitionChunk],
    *,
    sentence: bool = False,
) -> dict[str, rank.Candidate]:
    """The hits and the named definitions as candidates; for a query a person wrote (`sentence`, not a
    snippet's terms), the chunks holding a constant it writes out that nothing defines."""
    heads = store.chunk_heads()
    candidates: dict[str, rank.Candidate] = {}
    for chunk_id, score in keyword:
        head = heads.get(chunk_id)
        if head is not None:
            candidates.setdefault(chunk_id, rank.Candidate(*head)).lexical = score
    for chunk_id, score in dense:
        head = heads.get(chunk_id)
        if head is not None:
            found = candidates.get(chunk_id)
            if found is None:
                found = candidates[chunk_id] = rank.Candidate(*head)
            found.dense = score
    files: dict[str, set[str]] = {}
    bodies: dict[str, set[str]] = {}  # name -> the files with a chunk of its own for it
    for row in definitions:
        files.setdefault(row.name, set()).add(row.path)
        if row.named:
            bodies.setdefault(row.name, set()).add(row.path)
    for row in definitions:
        found = candidates.get(row.id)
        if found is None:
            found = candidates[row.id] = rank.Candidate(row.path, row.name, row.parent)
        strength = rank.definition_strength(plan, row.name, row.parent, row.path, len(files[row.name]))
        if not row.named and bodies.get(row.name, set()) - {row.path}:
            # Declared here (a prototype among others, an interface block's entry), defined with a
            # body of its own elsewhere: the body answers first.
            strength *= rank.DECLARED_SCALE
        found.definition = max(found.definition, strength)
    if sentence:
        _verbatim_mentions(store, plan, candidates, set(files))
    return candidates


def _verbatim_mentions(
    store: CodeStore, plan: rank.QueryPlan, candidates: dict[str, rank.Candidate], defined: set[str]
) -> None:
    """A constant's name a sentence writes out that nothing defines (`SPDLOG_LEVEL`: an environment
    variable, a key) is looked up where it is written: a chunk holding it verbatim counts as one that a
    sentence names (rank.VERBATIM_SCALE)."""
    names = [s for s in plan.symbols if s not in defined and rank.written_name(s)]
    if plan.symbol_query or not names or not candidates:
        return
    pattern = re.compile("|".join(rf"(?<![\w$]){re.escape(name)}(?![\w$])" for name in names))
    for chunk_id, chunk in store.chunks_by_id(list(candidates)).items():
        if pattern.search(chunk.content):
            found = candidates[chunk_id]
            found.definition = max(found.definition, rank.VERBATIM_SCALE)


def supertypes(
    store: CodeStore, definitions: Sequence[DefinitionChunk], filters: Filters
) -> dict[str, list[DefinitionChunk]]:
    """For each chunk defining a type the query names, the definitions (in other files) of the
    types its header builds on (rank.header_types): the chunk id -> their chunks. A name that
    many files define (a namespace every file reopens) is left alone, as its boost is."""
    files: dict[str, set[str]] = {}
    for row in definitions:
        files.setdefault(row.name, set()).add(row.path)
    definitions = [row for row in definitions if len(files[row.name]) <= rank.COMMON_DEFINITION_FILES]
    chunks = store.chunks_by_id({row.id for row in definitions})
    named: dict[str, list[str]] = {}
    for row in definitions:
        chunk = chunks.get(row.id)
        if chunk is not None and chunk.chunk_type in rank.TYPE_CHUNKS:
            named.setdefault(row.id, []).extend(rank.header_types(chunk.content, row.name))
    wanted = {name for names in named.values() for name in names}
    if not wanted:
        return {}
    found: dict[str, list[DefinitionChunk]] = {}
    # One chunk per name and file: its first definition there (a trait before its companion object).
    for base in sorted(store.definition_chunks(sorted(wanted), filters), key=lambda b: b.symbol):
        if all(held.path != base.path for held in found.get(base.name, ())):
            found.setdefault(base.name, []).append(base)
    supertypes: dict[str, list[DefinitionChunk]] = {}
    for chunk_id, names in named.items():
        path = chunks[chunk_id].path
        bases = [base for name in names for base in _supertype(store, path, found.get(name, []))]
        if bases:
            supertypes[chunk_id] = bases[: rank.MAX_SUPERTYPES]
    return supertypes


def _supertype(store: CodeStore, path: str, definitions: list[DefinitionChunk]) -> list[DefinitionChunk]:
    """Which of a supertype name's definitions the type in `path` builds on: its own file's (no
    other file then), the only one, the one it imports, or the one in a file named after it;
    none when that is unclear."""
    if not definitions or any(d.path == path for d in definitions):
        return []
    if len(definitions) == 1:
        return definitions
    if len(definitions) > rank.COMMON_DEFINITION_FILES:
        return []
    name = definitions[0].name
    imported: set[str] = set()
    for record in store.imports_of(path, MAX_IMPORTS):
        names = json.loads(record.names)
        if not names or name in names:
            imported.update(json.loads(record.resolved))
            imported.update(d.path for d in definitions if rank.module_names(record.module, d.path))
    chosen = [d for d in definitions if d.path in imported]
    chosen = chosen or [d for d in definitions if rank.named_after(d.path, d.name)]
    return chosen if len(chosen) == 1 else []
