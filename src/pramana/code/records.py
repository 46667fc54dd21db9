"""What the code index hands out: frozen records, one type per kind of row, so that the service and
the engines read fields by name with their types (never `row["..."]` lookups of SQLite rows)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChunkRecord:
    rowid: int
    id: str
    chunk_type: str
    name: str | None
    parent: str | None
    start_line: int
    end_line: int
    content: str
    path: str
    package: str
    language: str


@dataclass(frozen=True)
class FileRecord:
    id: int
    path: str
    language: str
    package: str
    size: int
    mtime_ns: int
    sha: str
    lines: int


@dataclass(frozen=True)
class SymbolRecord:
    id: int
    file_id: int
    name: str
    kind: str
    parent: str | None
    start_line: int
    end_line: int
    exported: bool
    signature: str
    doc: str
    path: str
    package: str
    language: str


@dataclass(frozen=True)
class DefinitionChunk:
    """The chunk that holds one definition of a name searched for."""

    symbol: int
    name: str
    parent: str | None
    path: str
    id: str
    named: bool  # the chunk is named after the definition (else it only covers its first line)
    size: int  # lines, minus one


@dataclass(frozen=True)
class Forwarder:
    """A small file that only includes or re-exports a few files of the repository (an umbrella
    header, a package's `__init__.py` or `index.ts` of one module): its one chunk, and a file it
    forwards to."""

    target: str
    path: str
    id: str
    name: str | None
    parent: str | None


@dataclass(frozen=True)
class UseRecord:
    rowid: int
    line: int
    kind: str  # call, reference or import
    member: bool
    path: str
    package: str
    language: str
    file_id: int


@dataclass(frozen=True)
class ImportRecord:
    module: str
    names: str  # JSON list
    line: int
    resolved: str  # JSON list of repository paths


@dataclass(frozen=True)
class PendingImport:
    """An import to resolve against the files indexed now."""

    id: int
    module: str
    names: str  # JSON list
    path: str
    language: str


@dataclass(frozen=True)
class Owner:
    """The innermost definition around a line."""

    name: str
    parent: str | None
    kind: str
