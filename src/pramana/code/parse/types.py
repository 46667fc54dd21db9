"""What parsing a file yields: its chunks, and for the symbol table its definitions, imports and
references. Plain dataclasses: index workers send them (as rows) to the indexing process."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass
class Chunk:
    path: str
    language: str
    package: str
    chunk_type: str
    name: str | None
    start_line: int  # 1-based, inclusive
    end_line: int
    content: str
    parent: str | None = None

    @property
    def id(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


@dataclass
class Symbol:
    name: str
    kind: str  # function, method, class, interface, type, module, macro
    start_line: int
    end_line: int
    parent: str | None
    exported: bool
    signature: str
    doc: str


@dataclass
class Import:
    module: str
    names: list[str]
    line: int


class Reference(NamedTuple):
    """One use of a name (ParsedFile.reference_rows holds them as plain tuples)."""

    name: str
    line: int
    kind: str  # call, import or reference
    member: bool = False  # the name is what an access reaches: `x.name`, `x.name()`, `X::name`


@dataclass
class ParsedFile:
    chunks: list[Chunk] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    # (name, line, kind, member) rows: a file has thousands, and the index takes them as plain tuples
    reference_rows: list[tuple[str, int, str, bool]] = field(default_factory=list)
    # Line spans (first, last; 1-based, inclusive) of test code inside the file (a Rust `#[cfg(test)]
    # mod tests {}`, a Zig `test "name" {}`): ranked as a test file is.
    tests: list[tuple[int, int]] = field(default_factory=list)
    # The paths a module declared as test code would be read from (Rust's `#[cfg(test)] mod tests;` in
    # src/kettle.rs: src/kettle/tests.rs or src/kettle/tests/mod.rs): test code whole.
    test_modules: list[str] = field(default_factory=list)

    @property
    def references(self) -> list[Reference]:
        return [Reference(*row) for row in self.reference_rows]
