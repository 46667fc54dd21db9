"""Cutting a source file into chunks and reading its symbols, by syntax.

Python, TypeScript/TSX, JavaScript, Go and Rust are parsed with tree-sitter: each function,
method, class, interface and type alias becomes a chunk (with its leading doc comment), and the
file's definitions, imports and identifier references fill the symbol table. Markdown is cut by
section; anything else by windows of lines.

Chunk types: function, method, class, interface, type, module (top-level code outside any
definition), section (markdown) and lines (line windows). Go and Rust structs count as classes,
traits as interfaces, enums as types.
"""

from __future__ import annotations

import bisect
import functools
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import tree_sitter as ts

MAX_CHUNK_LINES = 150  # a longer definition is cut into overlapping windows
WINDOW_LINES = 60
WINDOW_OVERLAP = 10
MODULE_GAP_LINES = 40  # top-level code between definitions is grouped up to this many lines
MAX_SIGNATURE_CHARS = 200

CODE_LANGUAGES = ("python", "typescript", "tsx", "javascript", "go", "rust")
SKIPPED_REFERENCE_NAMES = frozenset({"self", "cls", "this", "super", "_"})


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
    kind: str  # function, method, class, interface, type
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


@dataclass
class Reference:
    name: str
    line: int
    kind: str  # call, import or reference
    member: bool = False  # the name is what an access reaches: `x.name`, `x.name()`, `X::name`


@dataclass
class ParsedFile:
    chunks: list[Chunk] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)


# --- grammars -------------------------------------------------------------------------------------


@functools.cache
def _language(name: str) -> ts.Language:
    if name == "python":
        import tree_sitter_python as grammar

        return ts.Language(grammar.language())
    if name in ("typescript", "tsx"):
        import tree_sitter_typescript as grammar

        return ts.Language(grammar.language_tsx() if name == "tsx" else grammar.language_typescript())
    if name == "javascript":
        import tree_sitter_javascript as grammar

        return ts.Language(grammar.language())
    if name == "go":
        import tree_sitter_go as grammar

        return ts.Language(grammar.language())
    if name == "rust":
        import tree_sitter_rust as grammar

        return ts.Language(grammar.language())
    raise ValueError(f"no grammar for {name}")


_IDENTIFIER_TYPES = {
    "python": ("identifier",),
    "typescript": ("identifier", "property_identifier", "type_identifier", "shorthand_property_identifier"),
    "javascript": ("identifier", "property_identifier", "shorthand_property_identifier"),
    "go": ("identifier", "field_identifier", "type_identifier", "package_identifier"),
    "rust": ("identifier", "field_identifier", "type_identifier"),
}


@functools.cache
def _names_query(language: str) -> ts.Query:
    """Every identifier (@name) and, in the same pass in C instead of walking up from each one,
    where names stand: @member is the last named child of a member access (`x.name`), @callee what
    a call calls, @member_callee the member of an access that a call calls (`x.name()`), @import
    an import, @loader a `require(...)`/`import(...)` call (JS/TS). `_reference_kind` is the
    definition these captures reproduce."""
    alternatives = " ".join(f"({kind})" for kind in _IDENTIFIER_TYPES[_family(language)])
    patterns = [f"[{alternatives}] @name"]
    for access in _MEMBER_ACCESS:
        patterns.append(f"({access} (_) @member .)")
    for call in _CALLS:
        for field_name in ("function", "constructor"):
            patterns.append(f"({call} {field_name}: (_) @callee)")
            patterns += [
                f"({call} {field_name}: ({access} (_) @member_callee .))" for access in _MEMBER_ACCESS
            ]
    patterns += [f"({kind}) @import" for kind in _IMPORTS]
    if _family(language) in ("typescript", "javascript"):
        loader = "(call_expression function: (_) @loader_name) @loader"
        patterns.append(f'({loader} (#any-of? @loader_name "require" "import"))')
    grammar = _language(language)
    usable = []
    for pattern in patterns:  # a node kind or field the grammar lacks makes a pattern invalid: skip it
        try:
            ts.Query(grammar, pattern)
        except ts.QueryError:
            continue
        usable.append(pattern)
    return ts.Query(grammar, "\n".join(usable))


# The node kinds that define something, per grammar family, and the chunk type each makes.
_DEFINITIONS: dict[str, dict[str, str]] = {
    "python": {
        "function_definition": "function",
        "class_definition": "class",
        "type_alias_statement": "type",
    },
    "typescript": {
        "function_declaration": "function",
        "generator_function_declaration": "function",
        "function_signature": "function",
        "class_declaration": "class",
        "abstract_class_declaration": "class",
        "interface_declaration": "interface",
        "type_alias_declaration": "type",
        "enum_declaration": "type",
        "method_definition": "method",
        "abstract_method_signature": "method",
    },
    "go": {"function_declaration": "function", "method_declaration": "method"},
    "rust": {
        "function_item": "function",
        "function_signature_item": "function",
        "struct_item": "class",
        "union_item": "class",
        "enum_item": "type",
        "trait_item": "interface",
        "type_item": "type",
    },
}
_DEFINITIONS["javascript"] = _DEFINITIONS["typescript"]
_COMMENTS = ("comment", "line_comment", "block_comment")
_CALLS = ("call", "call_expression", "new_expression")
_MEMBER_ACCESS = (
    "attribute",
    "member_expression",
    "selector_expression",
    "field_expression",
    "scoped_identifier",
)
_IMPORTS = ("import_statement", "import_from_statement", "import_declaration", "use_declaration")


def _family(language: str) -> str:
    return "typescript" if language == "tsx" else language


# --- entry point ----------------------------------------------------------------------------------


def parse_file(path: str, language: str, package: str, text: str) -> ParsedFile:
    """Chunks and symbols of one file's text."""
    if language in CODE_LANGUAGES:
        return _SyntaxReader(path, language, package, text).read()
    lines = text.splitlines()
    chunks = markdown_sections(lines) if language == "markdown" else None
    if chunks is None:
        chunks = [(None, start, end) for start, end in line_windows(1, len(lines))]
    kind = "section" if language == "markdown" else "lines"
    parsed = ParsedFile()
    for name, start, end in chunks:
        parsed.chunks.append(_make_chunk(path, language, package, kind, name, start, end, lines))
    return parsed


def line_windows(start: int, end: int) -> Iterator[tuple[int, int]]:
    """Windows of WINDOW_LINES lines overlapping by WINDOW_OVERLAP, covering start..end."""
    if end < start:
        return
    position = start
    while True:
        stop = min(end, position + WINDOW_LINES - 1)
        yield position, stop
        if stop >= end:
            return
        position = stop - WINDOW_OVERLAP + 1


# No quantifiers that can trade characters with each other: `(.+?)\s*#*\s*$` took minutes on one
# 4,000-character line of spaces (cubic backtracking); the closing #s are stripped in Python.
_HEADING = re.compile(r"^#{1,6}\s+(.+)$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_sections(lines: list[str]) -> list[tuple[str | None, int, int]]:
    """(heading, first line, last line) of each section; long sections become windows."""
    starts: list[tuple[int, str | None]] = []
    in_fence = False
    for number, line in enumerate(lines, 1):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        heading = None if in_fence else _heading(line)
        if heading is not None:
            starts.append((number, heading))
    if not starts or starts[0][0] != 1:
        starts.insert(0, (1, None))
    sections = []
    for index, (start, name) in enumerate(starts):
        end = starts[index + 1][0] - 1 if index + 1 < len(starts) else len(lines)
        for window_start, window_end in _split_long(start, end):
            sections.append((name, window_start, window_end))
    return [s for s in sections if any(lines[i - 1].strip() for i in range(s[1], s[2] + 1))]


def _heading(line: str) -> str | None:
    """The text of an ATX heading ('## Title ##' -> 'Title'), None if the line is none."""
    match = _HEADING.match(line)
    if match is None:
        return None
    text = match[1]
    return text.rstrip().rstrip("#").rstrip() or text[:1]


def _split_long(start: int, end: int) -> Iterator[tuple[int, int]]:
    if end - start + 1 <= MAX_CHUNK_LINES:
        yield start, end
    else:
        yield from line_windows(start, end)


def _make_chunk(
    path: str, language: str, package: str, kind: str, name: str | None, start: int, end: int,
    lines: list[str],
    parent: str | None = None,
) -> Chunk:  # fmt: skip
    return Chunk(path, language, package, kind, name, start, end, "\n".join(lines[start - 1 : end]), parent)


# --- syntax ---------------------------------------------------------------------------------------


@dataclass
class _Definition:
    node: ts.Node  # the whole definition, with decorators / export keyword
    kind: str
    name: str
    parent: str | None
    exported: bool
    start_line: int  # including the leading doc comment
    members: list[_Definition] = field(default_factory=list)


class _SyntaxReader:
    def __init__(self, path: str, language: str, package: str, text: str):
        self.path, self.language, self.package = path, language, package
        self.family = _family(language)
        self.source = text.encode("utf-8")
        self.lines = text.splitlines()
        self.definitions_by_kind = _DEFINITIONS[self.family]
        self.name_nodes: set[int] = set()  # start bytes of defining names, not references
        self._captured: dict[str, list[ts.Node]] | None = None  # _names_query's captures

    def read(self) -> ParsedFile:
        parser = ts.Parser(_language(self.language))
        root = parser.parse(self.source).root_node
        parsed = ParsedFile()
        definitions = list(self._definitions(root, parent=None, top_level=True))
        for definition in definitions:
            self._add(definition, parsed)
        parsed.chunks.extend(self._module_chunks(definitions))
        parsed.chunks = _unique(parsed.chunks)
        parsed.imports = list(self._imports(root))
        parsed.references = self._references(root)
        return parsed

    # definitions

    def _definitions(self, node: ts.Node, parent: str | None, top_level: bool) -> Iterator[_Definition]:
        for child in node.named_children:
            yield from self._definitions_in(child, parent, top_level)

    def _definitions_in(self, node: ts.Node, parent: str | None, top_level: bool) -> Iterator[_Definition]:
        kind = node.type
        if kind == "decorated_definition":  # python: the definition with its decorators
            inner = node.child_by_field_name("definition")
            if inner is not None:
                yield from self._definition(node, inner, parent, top_level, exported=None)
        elif kind == "export_statement":
            declaration = node.child_by_field_name("declaration")
            if declaration is not None:
                yield from self._definitions_in_export(node, declaration, parent)
            else:
                value = node.child_by_field_name("value")
                if value is not None and value.type in ("class", "function_expression", "arrow_function"):
                    yield self._new(
                        node, "class" if value.type == "class" else "function", "default", parent, True
                    )
        elif kind in ("lexical_declaration", "variable_declaration"):
            yield from self._function_variables(node, node, parent, exported=False)
        elif kind == "type_declaration":  # go
            yield from self._go_types(node, parent)
        elif kind in ("impl_item", "mod_item", "internal_module", "module"):
            yield from self._container(node, parent)
        elif kind in self.definitions_by_kind:
            yield from self._definition(node, node, parent, top_level, exported=None)
        elif kind == "expression_statement" and self.family == "typescript":
            inner = node.named_children[0] if node.named_children else None
            if inner is not None and inner.type in ("internal_module", "module"):
                yield from self._container(inner, parent)

    def _definitions_in_export(
        self, outer: ts.Node, declaration: ts.Node, parent: str | None
    ) -> Iterator[_Definition]:
        if declaration.type in ("lexical_declaration", "variable_declaration"):
            yield from self._function_variables(outer, declaration, parent, exported=True)
        else:
            yield from self._definition(outer, declaration, parent, top_level=True, exported=True)

    def _definition(
        self, outer: ts.Node, node: ts.Node, parent: str | None, top_level: bool, exported: bool | None
    ) -> Iterator[_Definition]:
        kind = self.definitions_by_kind.get(node.type)
        name_node = node.child_by_field_name("name")
        if kind is None or name_node is None:
            return
        name = self._text(name_node)
        self.name_nodes.add(name_node.start_byte)
        if kind == "function" and parent is not None:
            kind = "method"
        if kind == "method" and self.family == "go":
            parent = self._go_receiver(node)
        if exported is None:
            exported = self._exported(node, name, top_level)
        definition = self._new(outer, kind, name, parent, exported)
        if kind in ("class", "interface"):
            body = node.child_by_field_name("body")
            if body is not None:
                definition.members = list(self._definitions(body, parent=name, top_level=False))
        yield definition

    def _function_variables(
        self, outer: ts.Node, declaration: ts.Node, parent: str | None, exported: bool
    ) -> Iterator[_Definition]:
        """`const f = () => ...` and `const f = function ...` define functions in JS/TS."""
        for declarator in declaration.named_children:
            if declarator.type != "variable_declarator":
                continue
            value = declarator.child_by_field_name("value")
            name_node = declarator.child_by_field_name("name")
            if value is None or name_node is None or name_node.type != "identifier":
                continue
            if value.type in ("arrow_function", "function_expression", "function", "generator_function"):
                self.name_nodes.add(name_node.start_byte)
                yield self._new(outer, "function", self._text(name_node), parent, exported)
            elif value.type == "class":
                self.name_nodes.add(name_node.start_byte)
                yield self._new(outer, "class", self._text(name_node), parent, exported)

    def _go_types(self, node: ts.Node, parent: str | None) -> Iterator[_Definition]:
        for spec in node.named_children:
            if spec.type not in ("type_spec", "type_alias"):
                continue
            name_node = spec.child_by_field_name("name")
            type_node = spec.child_by_field_name("type")
            if name_node is None:
                continue
            self.name_nodes.add(name_node.start_byte)
            kind = {"struct_type": "class", "interface_type": "interface"}.get(
                type_node.type if type_node is not None else "", "type"
            )
            name = self._text(name_node)
            outer = node if len(node.named_children) == 1 else spec
            yield self._new(outer, kind, name, parent, name[:1].isupper())

    def _container(self, node: ts.Node, parent: str | None) -> Iterator[_Definition]:
        """Rust impl blocks and modules, TS namespaces: their members are definitions."""
        body = node.child_by_field_name("body")
        if body is None:
            return
        if node.type == "impl_item":
            type_node = node.child_by_field_name("type")
            owner = self._text(type_node) if type_node is not None else parent
            yield from self._definitions(body, parent=owner, top_level=False)
        else:
            yield from self._definitions(body, parent=parent, top_level=True)

    def _go_receiver(self, node: ts.Node) -> str | None:
        receiver = node.child_by_field_name("receiver")
        if receiver is None:
            return None
        names = [n for n in _descendants(receiver) if n.type == "type_identifier"]
        return self._text(names[0]) if names else None

    def _exported(self, node: ts.Node, name: str, top_level: bool) -> bool:
        if self.family == "python":
            return top_level and not name.startswith("_")
        if self.family == "go":
            return name[:1].isupper()
        if self.family == "rust":
            return any(child.type == "visibility_modifier" for child in node.children)
        return False

    def _new(self, outer: ts.Node, kind: str, name: str, parent: str | None, exported: bool) -> _Definition:
        return _Definition(outer, kind, name, parent, exported, self._start_with_comments(outer))

    def _start_with_comments(self, node: ts.Node) -> int:
        """The first line of the definition's leading comment block, if it touches the definition."""
        start = node.start_point[0]
        previous = node.prev_named_sibling
        while previous is not None and previous.type in _COMMENTS and previous.end_point[0] >= start - 1:
            start = previous.start_point[0]
            previous = previous.prev_named_sibling
        return start + 1

    # chunks and symbols

    def _add(self, definition: _Definition, parsed: ParsedFile) -> None:
        node = definition.node
        start, end = definition.start_line, node.end_point[0] + 1
        parsed.symbols.append(
            Symbol(
                definition.name, definition.kind, node.start_point[0] + 1, end, definition.parent,
                definition.exported, self._signature(node), self._doc(node, definition.start_line),
            )
        )  # fmt: skip
        node_start = node.start_point[0] + 1
        # Methods get chunks of their own unless the class is written on one line with them.
        members = [m for m in definition.members if m.kind == "method" and m.start_line > node_start]
        if definition.kind == "class" and members:
            header_end = max(start, members[0].start_line - 1)
            self._chunks(parsed, definition, start, header_end)
            for member in definition.members:
                self._add(member, parsed)
        else:
            for member in definition.members:  # interface members: symbols, one chunk for all
                parsed.symbols.append(
                    Symbol(
                        member.name, member.kind, member.node.start_point[0] + 1,
                        member.node.end_point[0] + 1,
                        member.parent, definition.exported, self._signature(member.node), "",
                    )
                )  # fmt: skip
            self._chunks(parsed, definition, start, end)

    def _chunks(self, parsed: ParsedFile, definition: _Definition, start: int, end: int) -> None:
        for window_start, window_end in _split_long(start, end):
            parsed.chunks.append(
                _make_chunk(
                    self.path, self.language, self.package, definition.kind, definition.name,
                    window_start, window_end, self.lines, definition.parent,
                )
            )  # fmt: skip

    def _module_chunks(self, definitions: list[_Definition]) -> Iterator[Chunk]:
        """Top-level code outside every definition (imports, constants, scripts)."""
        covered = bytearray(len(self.lines) + 2)
        for definition in definitions:
            for line in range(definition.start_line, definition.node.end_point[0] + 2):
                covered[line] = 1
        run: list[int] = []
        for number in range(1, len(self.lines) + 1):
            if covered[number] or len(run) >= MODULE_GAP_LINES:
                yield from self._module_chunk(run)
                run = []
            if not covered[number]:
                run.append(number)
        yield from self._module_chunk(run)

    def _module_chunk(self, run: list[int]) -> Iterator[Chunk]:
        while run and not self.lines[run[-1] - 1].strip():
            run.pop()
        while run and not self.lines[run[0] - 1].strip():
            run.pop(0)
        if run and any(self.lines[n - 1].strip() for n in run):
            yield _make_chunk(
                self.path, self.language, self.package, "module", None, run[0], run[-1], self.lines
            )

    def _signature(self, node: ts.Node) -> str:
        first = self.lines[node.start_point[0]] if node.start_point[0] < len(self.lines) else ""
        target = node
        if node.type in ("decorated_definition", "export_statement"):
            target = node.child_by_field_name("definition") or node.child_by_field_name("declaration") or node
            first = self.lines[target.start_point[0]]
        return first.strip()[:MAX_SIGNATURE_CHARS]

    def _doc(self, node: ts.Node, start_line: int) -> str:
        """The first line of a docstring (Python) or of the leading doc comment."""
        if self.family == "python":
            target = node.child_by_field_name("definition") or node
            body = target.child_by_field_name("body")
            first = body.named_children[0] if body is not None and body.named_children else None
            if first is not None and first.type == "expression_statement" and first.named_children:
                string = first.named_children[0]
                if string.type == "string":
                    return _first_line(self._text(string).strip("\"'rbuRBU \n"))
            return ""
        if start_line - 1 < node.start_point[0]:
            comment = "\n".join(self.lines[start_line - 1 : node.start_point[0]])
            comment = re.sub(r"\s*\*/\s*$", "", comment, flags=re.M)
            return _first_line(re.sub(r"^\s*(///?|/\*\*?|\*|//!)\s?", "", comment, flags=re.M))
        return ""

    # imports and references

    def _imports(self, root: ts.Node) -> Iterator[Import]:
        reader: Callable[[ts.Node], Iterator[Import]] = getattr(self, f"_imports_{self.family}")
        imports = self._context(root).get("import", [])
        loaders = [  # calls inside an import statement are part of it
            node for node in self._context(root).get("loader", [])
            if not _inside(self._import_ranges(root), node.start_byte)
        ]  # fmt: skip
        for node in sorted([*imports, *loaders], key=lambda n: (n.start_byte, -n.end_byte)):
            yield from reader(node)

    def _context(self, root: ts.Node) -> dict[str, list[ts.Node]]:
        if self._captured is None:
            self._captured = ts.QueryCursor(_names_query(self.language)).captures(root)
        return self._captured

    def _import_ranges(self, root: ts.Node) -> list[tuple[int, int]]:
        return sorted((node.start_byte, node.end_byte) for node in self._context(root).get("import", []))

    def _imports_python(self, node: ts.Node) -> Iterator[Import]:
        line = node.start_point[0] + 1
        if node.type == "import_statement":
            for name in node.children_by_field_name("name"):
                target = name.child_by_field_name("name") if name.type == "aliased_import" else name
                yield Import(self._text(target), [], line)
        elif node.type == "import_from_statement":
            module = node.child_by_field_name("module_name")
            names = []
            for name in node.children_by_field_name("name"):
                target = name.child_by_field_name("name") if name.type == "aliased_import" else name
                names.append(self._text(target))
            if any(child.type == "wildcard_import" for child in node.children):
                names.append("*")
            yield Import(self._text(module) if module is not None else ".", names, line)

    def _imports_typescript(self, node: ts.Node) -> Iterator[Import]:
        line = node.start_point[0] + 1
        if node.type == "import_statement":
            source = node.child_by_field_name("source")
            if source is None:
                return
            names = [
                self._text(n.child_by_field_name("name") or n)
                if n.type == "import_specifier"
                else self._text(n)
                for n in _descendants(node)
                if n.type in ("import_specifier", "identifier") and n.parent is not None
                and n.parent.type in ("import_clause", "named_imports", "namespace_import")
            ]  # fmt: skip
            yield Import(self._text(source).strip("'\"`"), names, line)
        elif node.type == "call_expression":
            function = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            calls_loader = function is not None and self._text(function) in ("require", "import")
            if calls_loader and arguments is not None and arguments.named_children:
                argument = arguments.named_children[0]
                if argument.type == "string":
                    yield Import(self._text(argument).strip("'\"`"), [], line)

    _imports_javascript = _imports_typescript

    def _imports_go(self, node: ts.Node) -> Iterator[Import]:
        if node.type != "import_declaration":
            return
        for spec in _descendants(node):
            if spec.type == "import_spec":
                path = spec.child_by_field_name("path")
                alias = spec.child_by_field_name("name")
                if path is not None:
                    names = [self._text(alias)] if alias is not None else []
                    yield Import(self._text(path).strip('"`'), names, spec.start_point[0] + 1)

    def _imports_rust(self, node: ts.Node) -> Iterator[Import]:
        if node.type != "use_declaration":
            return
        argument = node.child_by_field_name("argument")
        if argument is None:
            return
        text = re.sub(r"\s+", "", self._text(argument))
        module, _, rest = text.partition("::{")
        if rest:
            names = [part.split("::")[-1].split(" as ")[0] for part in rest.rstrip("}").split(",") if part]
        else:
            module, _, last = text.rpartition("::")
            names = [last.split("as")[0]] if last else []
        yield Import(module or text, [n for n in names if n], node.start_point[0] + 1)

    def _references(self, root: ts.Node) -> list[Reference]:
        context = self._context(root)
        captures = context.get("name", [])
        members = {node.id for node in context.get("member", ())}
        callees = {node.id for node in context.get("callee", ())}
        member_callees = {node.id for node in context.get("member_callee", ())}
        import_ranges = self._import_ranges(root)
        imports_end = max((end for _, end in import_ranges), default=0)
        source, name_nodes = self.source, self.name_nodes
        seen: dict[tuple[str, int], Reference] = {}
        references = []
        for node in captures:
            start = node.start_byte
            if start in name_nodes:
                continue
            name = source[start : node.end_byte].decode("utf-8", errors="replace")
            if name in SKIPPED_REFERENCE_NAMES:
                continue
            line = node.start_point[0] + 1
            # The same answer as _reference_kind(node), without walking up the tree for each name.
            node_id = node.id
            member = node_id in members
            if node_id in (member_callees if member else callees):
                kind = "call"
            elif start < imports_end and _inside(import_ranges, start):
                kind = _import_or_reference(node)
            else:
                kind = "reference"
            known = seen.get((name, line))
            if known is None:
                seen[(name, line)] = reference = Reference(name, line, kind, member)
                references.append(reference)
            elif (member, kind == "call") > (known.member, known.kind == "call"):
                # One reference per name and line: keep the most telling (`lookup = x.lookup()`).
                known.kind, known.member = kind, member
        references.sort(key=operator.attrgetter("line", "name"))
        return references

    def _text(self, node: ts.Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _reference_kind(node: ts.Node) -> tuple[str, bool]:
    """(call, import or reference; whether the name is the member an access reaches, `x.name`)."""
    parent = node.parent
    if parent is None:
        return "reference", False
    callee, member = node, False
    if parent.type in _MEMBER_ACCESS:
        last = parent.named_children[-1] if parent.named_children else None
        if last is None or last.start_byte != node.start_byte:
            return _import_or_reference(node), False
        callee, parent, member = parent, parent.parent, True
        if parent is None:
            return "reference", member
    if parent.type in _CALLS:
        function = parent.child_by_field_name("function") or parent.child_by_field_name("constructor")
        if (
            function is not None
            and function.start_byte == callee.start_byte
            and function.end_byte == callee.end_byte
        ):
            return "call", member
    return _import_or_reference(node), member


def _inside(ranges: list[tuple[int, int]], position: int) -> bool:
    """Whether `position` falls in one of `ranges` (sorted, not overlapping)."""
    index = bisect.bisect_right(ranges, (position, float("inf"))) - 1
    return index >= 0 and ranges[index][0] <= position < ranges[index][1]


def _import_or_reference(node: ts.Node) -> str:
    ancestor = node.parent
    for _ in range(6):
        if ancestor is None:
            break
        if ancestor.type in _IMPORTS:
            return "import"
        ancestor = ancestor.parent
    return "reference"


def _descendants(node: ts.Node, stop: tuple[str, ...] = ()) -> Iterator[ts.Node]:
    """Nodes below `node` in document order; with `stop`, only the outermost nodes of those types."""
    cursor = node.walk()
    visited_children = False
    while True:
        current = cursor.node
        if not visited_children:
            if current is not None and current != node and (not stop or current.type in stop):
                yield current
                if stop and current.type in _IMPORTS:
                    visited_children = True
                    continue
            if cursor.goto_first_child():
                continue
            visited_children = True
        elif cursor.goto_next_sibling():
            visited_children = False
        elif not cursor.goto_parent() or cursor.node == node:
            return


def _unique(chunks: list[Chunk]) -> list[Chunk]:
    """Chunks in line order, one per line range (`function a(){} function b(){}` share a line)."""
    by_id: dict[str, Chunk] = {}
    for chunk in sorted(chunks, key=lambda c: (c.start_line, c.end_line)):
        by_id.setdefault(chunk.id, chunk)
    return list(by_id.values())


def _first_line(text: str) -> str:
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()[:MAX_SIGNATURE_CHARS]
    return ""
