"""The symbol tools' lookups over the symbol table (symbols/store.py): which definitions a name or
'A.b' means, what to say when A holds no b, the uses of a name with their lines, and the records as
the tools' models. Exact lookups, never similarity guesses."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import islice
from pathlib import Path, PurePosixPath

from pramana.code import languages, models
from pramana.code.files import resolve_inside
from pramana.code.records import SymbolRecord, UseRecord
from pramana.code.symbols.store import SymbolQueries

# A common name (get, __init__) or module can have thousands of definitions or imports in a big
# repository: answers list the first of them and say how many there are.
MAX_DEFINITIONS = 50
MAX_IMPORTS = 2_000
MAX_INCLUDERS = 20  # modules a Cython `.pxi` is part of, looked up for `module.name`
_NAME_SEPARATOR = re.compile(r"\.|::|#|->|:")  # `:` last: Lua's `Map:set`, after C++'s `::`
# A name may end in marks (Haskell's `foldl'`, Elixir's `empty?`, Ruby's `save!`), as find_usages allows.
_QUALIFIED_NAME = re.compile(r"[A-Za-z_$][\w$]*['?!]*(?:(?:\.|::|#|->|:)[A-Za-z_$][\w$]*['?!]*)*")


# An operator as the symbol table names it: C++'s, C#'s and Dart's `operator==`, `operator bool`;
# Swift's, Scala's, Ruby's, Haskell's or Elixir's `==`, `<=>`, `[]`, `<~>`; with an owner or not.
_OPERATOR_NAME = re.compile(
    r"(?:(?P<owner>[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)(?:\.|::|#))?"
    r"(?P<name>operator\s*[^\w\s]+(?:\s*[^\w\s]+)*|operator\s+[A-Za-z_][\w:<>]*|[^\w\s'\"`]+)"
)

# Objective-C's methods, named in the table by their selector's first part (languages.py): a whole
# selector, `initWithFrame:style:` or `Widget.initWithFrame:style:`, and the way Objective-C writes
# a method, `-[Widget initWithFrame:style:]`, `+[Widget(Layout) sharedWidget]`.
_SELECTOR = re.compile(
    r"(?:(?P<owner>[A-Za-z_]\w*)(?:\.|::|#))?(?P<name>[A-Za-z_]\w*):(?:[A-Za-z_]\w*:)*"
    r"|[-+]?\[\s*(?P<receiver>[A-Za-z_]\w*)\s*(?:\(\s*\w*\s*\)\s*)?"  # `-[Widget(Layout) `
    r"\s(?P<first>[A-Za-z_]\w*)(?::(?:[A-Za-z_]\w*:)*)?\s*\]"
)


def selector_name(query: str) -> str | None:
    """The name an Objective-C method has in the table, for a selector or `-[A b:c:]`; else None."""
    selector = _SELECTOR.fullmatch(query.strip())
    return (selector["name"] or selector["first"]) if selector is not None else None


def qualified_name(query: str) -> tuple[str | None, str] | None:
    """('A', 'b') for 'A.b', 'A::b', 'A:b', 'pkg.A.b' or 'A#b'; (None, 'b') for 'b'; ('A',
    'operator==') for 'A::operator ==' and (None, '<=>') for '<=>'; ('A', 'b') for Objective-C's
    'A.b:c:' and '-[A b:c:]', (None, 'b') for 'b:c:'; None for other text."""
    text = query.strip()
    selector = _SELECTOR.fullmatch(text)
    if selector is not None:
        return selector["owner"] or selector["receiver"], selector["name"] or selector["first"]
    operator = _OPERATOR_NAME.fullmatch(text)
    if operator is not None:
        name = operator["name"]
        if name.startswith("operator") and not name[len("operator") :].strip()[:1].isalpha():
            name = "".join(name.split())  # `operator ==` is `operator==`, `operator()` stays
        owner = operator["owner"]
        return (_NAME_SEPARATOR.split(owner)[-1] if owner else None), name
    text = text.removesuffix("()")
    if not _QUALIFIED_NAME.fullmatch(text):
        return None
    parts = _NAME_SEPARATOR.split(text)
    while len(parts) > 1 and parts[0] in ("self", "this", "cls", "Self"):
        parts.pop(0)
    return (parts[-2] if len(parts) > 1 else None), parts[-1]


def module_names(path: str) -> tuple[str, str]:
    """The names code uses for the module of a file: its stem and its folder's name (a Go package,
    a Python package's __init__.py, an index.ts)."""
    pure = PurePosixPath(path)
    return pure.stem, pure.parent.name


def definitions_for(store: SymbolQueries, owner: str | None, name: str) -> list[SymbolRecord]:
    """The definitions of `name` (best first, see SymbolQueries.definitions); with an owner ('A' of
    'A.b'), only those A holds: members of A (by case, else ignoring it), or else top-level ones
    of a module or package A (`payments.charge_card`). Never a b of something else."""
    if owner is None:
        return store.definitions(name, MAX_DEFINITIONS)
    rows = store.definitions(name)
    owned = [r for r in rows if r.parent == owner]
    if not owned:
        owned = [r for r in rows if r.parent is not None and r.parent.lower() == owner.lower()]
    if not owned:
        # A module's own functions: top-level ones, or members of the table a Lua module returns
        # (`function M.parse` in xml.lua answers `xml.parse`), never a class's methods.
        owned = [
            r for r in rows
            if (r.parent is None or r.kind == "function") and owner in _modules_of(store, r.path)
        ]  # fmt: skip
    return owned


def _modules_of(store: SymbolQueries, path: str) -> set[str]:
    """The names of the module a file's definitions are in (module_names), and of the modules that
    include it when it is a part of them (Language.included: a Cython `.pxi`)."""
    names = set(module_names(path))
    if path.endswith(languages.included_extensions()):
        for includer in store.dependents(path, MAX_INCLUDERS)[0]:
            names.update(module_names(includer))
    return names


def no_member_note(store: SymbolQueries, owner: str, name: str) -> str:
    owners = [r for r in store.definitions(owner) if r.kind != "method"]
    if owners:
        where = ", ".join(f"{r.path}:{r.start_line}" for r in owners[:3])
        said = f"`{owner}` ({where}) defines no `{name}` (inherited and dynamic members are not indexed)"
    else:
        said = f"nothing named `{owner}` (a class, type or module) defines `{name}` in this index"
    others = [
        f"`{'.'.join(p for p in (r.parent, r.name) if p)}` ({r.path}:{r.start_line})"
        for r in store.definitions(name, 5)
    ]
    if others:
        said += f"; `{name}` is defined elsewhere as {', '.join(others)}"
    return said


def definitions_at(store: SymbolQueries, chunk: models.CodeChunk) -> list[SymbolRecord]:
    if not chunk.metadata.name:
        return []
    rows = store.definitions(chunk.metadata.name)
    here = [r for r in rows if r.path == chunk.metadata.filePath and r.start_line <= chunk.metadata.endLine]
    return here + [r for r in rows if r not in here]


def usages(store: SymbolQueries, root: Path, rows: Sequence[UseRecord]) -> list[models.Usage]:
    # One file read at a time, up to the last line wanted: 500 uses in 500 files of 1 MB each would
    # otherwise hold them all in memory at once.
    wanted: dict[str, set[int]] = {}
    for row in rows:
        wanted.setdefault(row.path, set()).add(row.line)
    texts = {
        (path, number): text
        for path, numbers in wanted.items()
        for number, text in _lines(root, path, numbers)
    }
    usages = []
    for row in rows:
        owner = store.enclosing_symbol(row.path, row.line)
        in_symbol = ".".join(p for p in (owner.parent, owner.name) if p) if owner else None
        usages.append(
            models.Usage(
                filePath=row.path, line=row.line, kind=row.kind,
                text=texts.get((row.path, row.line), ""), inSymbol=in_symbol,
            )
        )  # fmt: skip
    return usages


def _lines(root: Path, path: str, numbers: set[int]) -> Iterator[tuple[int, str]]:
    """(number, trimmed text) of those lines of the file, each cut to 300 characters. Lines end at
    '\n' only, as the parser counts them (a form feed or a lone '\r' does not end one)."""
    try:
        with resolve_inside(root, path).open("rb") as handle:
            for number, line in enumerate(islice(handle, max(numbers)), 1):
                if number in numbers:
                    yield number, line.decode("utf-8", errors="replace").strip()[:300]
    except OSError:
        return


def symbol_info(row: SymbolRecord) -> models.SymbolInfo:
    return models.SymbolInfo(
        name=row.name, kind=row.kind, filePath=row.path, package=row.package,
        language=row.language, startLine=row.start_line, endLine=row.end_line, parent=row.parent,
        exported=bool(row.exported), signature=row.signature, doc=row.doc,
    )  # fmt: skip
