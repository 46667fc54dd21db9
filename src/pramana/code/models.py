"""What the code tools return: the raktamarga spec's SearchResult and FileResult, and symbol results.

Field names are the spec's (camelCase), so clients written against it read them unchanged.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class ChunkMetadata(BaseModel):
    filePath: str
    package: str
    chunkType: str = Field(description="function, method, class, interface, type, module, section or lines")
    name: str | None = None
    startLine: int
    endLine: int
    language: str


class CodeChunk(BaseModel):
    id: str = Field(description="Chunk id ('path:start-end'), for get_chunk_context")
    score: float
    content: str
    metadata: ChunkMetadata


class SearchResult(BaseModel):
    chunks: list[CodeChunk]
    totalFound: int = Field(description="Chunks that matched before the limit was applied")
    mode: Literal["hybrid", "keyword", "semantic"] = Field(
        description="hybrid: keywords and meaning; keyword: BM25 only (no embedder); semantic: vectors only"
    )
    note: str | None = None
    indexing: str | None = Field(default=None, description="Set while the index is still being built")


class FileResult(BaseModel):
    path: str
    content: str
    language: str
    lastModified: str = Field(description="ISO 8601, UTC")
    lines: int
    source: Literal["disk", "github"] = "disk"


class ChunkContext(BaseModel):
    chunk: CodeChunk
    path: str
    startLine: int = Field(description="First line shown, with the context")
    endLine: int
    content: str
    changedSinceIndexed: bool = Field(description="The file on disk differs from the indexed version")


class SymbolInfo(BaseModel):
    name: str
    kind: str = Field(description="function, method, class, interface or type")
    filePath: str
    package: str
    language: str
    startLine: int
    endLine: int
    parent: str | None = Field(default=None, description="The class, impl or receiver a method belongs to")
    exported: bool
    signature: str
    doc: str = ""


class SymbolList(BaseModel):
    path: str = Field(description="The file or folder listed ('' is the whole repository)")
    symbols: list[SymbolInfo]
    totalFound: int


class TypeSearch(BaseModel):
    type: str
    package: str | None
    symbols: list[SymbolInfo]
    totalFound: int


class ImportInfo(BaseModel):
    module: str
    names: list[str]
    line: int
    resolved: list[str] = Field(description="Files of this repository the import leads to")
    external: bool = Field(
        description="True when it leads to no file here (a third-party or standard module)"
    )


class DependencyResult(BaseModel):
    path: str
    imports: list[ImportInfo]
    importedBy: list[str] = Field(description="Files of this repository that import this one (the first 500)")
    importedByTotal: int = Field(description="How many files import this one")


class Usage(BaseModel):
    filePath: str
    line: int
    kind: Literal["call", "import", "reference"]
    text: str = Field(description="The line, trimmed")
    inSymbol: str | None = Field(default=None, description="The definition the usage sits in")


class UsageResult(BaseModel):
    name: str
    definitions: list[SymbolInfo] = Field(description="Where the name is defined (the first 50)")
    definitionsFound: int = Field(description="How many definitions the name has")
    usages: list[Usage]
    totalFound: int


class CalledSymbol(BaseModel):
    name: str
    definedIn: list[str] = Field(
        description="'path:line' of its definitions in this repository; empty if external"
    )


class Explanation(BaseModel):
    query: str
    definition: SymbolInfo | None = Field(description="The definition found for the query, if any")
    otherDefinitions: list[SymbolInfo] = Field(
        description="Other definitions with the same name (for 'A.b': only other definitions of b in A)"
    )
    code: CodeChunk | None
    calls: list[CalledSymbol]
    imports: list[ImportInfo] = Field(description="What the definition's file imports")
    usages: list[Usage]
    related: list[CodeChunk] = Field(description="Search results, when the query names no definition")
    note: str | None = Field(
        default=None, description="Why no definition is given, e.g. 'Cart.total' where Cart defines no total"
    )
