"""The tree-sitter reader: one file's definitions, chunks, imports and references, read the way its
language's `Syntax` (languages.py) says, the same code for every language.

A definition is a node of one of the language's definition types (or a binding, a wrapper around
one, a call that defines: see Syntax). Classes, interfaces, modules and types hold members: their
bodies are read again with the definition as parent. A definition becomes a symbol and a chunk with
its leading doc comment; a class or module whose members are functions becomes a header chunk and one
chunk per member; definitions longer than MAX_CHUNK_LINES become overlapping windows; top-level code
outside any definition becomes `module` chunks.
"""

from __future__ import annotations

import bisect
import ctypes
import functools
import importlib
import itertools
import operator
import posixpath
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import tree_sitter as ts

from pramana.code.languages import Binding, Language, Rereading, Syntax, language
from pramana.code.parse.text import MAX_CHUNK_LINES, WINDOW_LINES, make_chunk, split_long
from pramana.code.parse.types import Chunk, Import, ParsedFile, Symbol

MODULE_GAP_LINES = 40  # top-level code between definitions is grouped up to this many lines
# Members shorter than SMALL_MEMBER_LINES share chunks, packed up to PACK_LINES (a line window): a
# chunk per getter drowns a class's substance in fragments (semble's chunks are ~1,500 characters).
SMALL_MEMBER_LINES = 30
PACK_LINES = WINDOW_LINES
MAX_SIGNATURE_CHARS = 200
DOC_HEAD_LINES = 6  # a doc comment's first line is read from this many of its lines (_doc_line)
MAX_PIECES = 2_000  # a file read in pieces (SyntaxReader._parse) is read in at most about this many
SIGNATURE_LINES = 4  # a head whose name is further down is read from its first line only...
ANNOTATED_HEAD_LINES = 24  # ...unless annotations above it end within this: then its naming line
MAX_HEAD_BYTES = 400  # the text before a definition's name read for `public`, `static`, `defp`...
SKIPPED_REFERENCE_NAMES = frozenset({"self", "cls", "this", "super", "_"})
CLASS_LIKE = frozenset({"class", "interface", "module", "type"})
CALLABLE = frozenset({"function", "method", "macro"})
# `Foo::bar`, `M.load`, `M:method`, `Ecto.Repo`, `basic_string_view<char>::size`: a qualified name.
_QUALIFIED = re.compile(r"^[\w$~]+(?:<[^<>]*>)?(?:(?:::|\.|:)[\w$~]+(?:<[^<>]*>)?)+$")
_SEPARATOR = re.compile(r"::|\.|:")
# `Foo::bar` (C++, a member), `Foo:bar` (Lua: a method, called with its object as `self`).
_METHOD_QUALIFIER = re.compile(r"::|(?<!:):(?!:)")


def _method_qualified(text: str, qualifier: str | None) -> bool:
    return bool(qualifier and _METHOD_QUALIFIER.search(text))


_GENERICS = re.compile(r"<[^<>]*>|\[[^\[\]]*\]")
_WORDS = re.compile(rb"[A-Za-z_]\w*")
_NEWLINE = re.compile(b"\n")
# A doc comment's markers: //, ///, /** */, *, #, --, -- |, ;, (* *), @doc "..."
_COMMENT_MARKERS = re.compile(
    r"^\s*(?:///?|//!|/\*\*?|\*+(?!/)|#+|--+\s*\|?|;+|\(\*\*?"
    r"|@(?:doc|moduledoc|typedoc)\s+(?:\"\"\"|\"|~S\"\"\")?)[ \t]?",
    re.M,
)
_COMMENT_ENDS = re.compile(r"\s*(?:\*/|\*\)|\"\"\"|\")\s*$", re.M)
_MARKUP = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")  # <summary>, <p>, <code> in doc comments


@functools.cache
def grammar(name: str) -> ts.Language:
    """The tree-sitter grammar of a language, from its PyPI wheel (nothing is downloaded)."""
    spec = language(name)
    if spec.grammar is None:
        raise ValueError(f"no grammar for {name}")
    module, function = spec.grammar
    found = getattr(importlib.import_module(module), function)()
    return ts.Language(_capsule(found) if isinstance(found, int) else found)


def _capsule(pointer: int) -> object:
    """A grammar handed as a bare address (tree-sitter-perl 2.0) in the capsule tree-sitter takes: its
    int form is deprecated (a DeprecationWarning now) and may go in a later tree-sitter."""
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)
    return new(pointer, b"tree_sitter.Language", None)


@functools.cache
def names_query(name: str) -> ts.Query:
    """One pass in C over the file for what references need: every identifier (@name), what calls
    call (@call), what accesses reach (@member) and imports (@import)."""
    syntax = _syntax(name)
    alternatives = " ".join(f"({kind})" for kind in syntax.identifiers)
    tests = " ".join(f"({kind})" for kind in syntax.test_nodes)
    marks = (
        " ".join(f"({kind})" for kind in (*syntax.attributes, *syntax.inner_attributes))
        if syntax.test_attributes
        else ""
    )
    patterns = "\n".join(
        p
        for p in (
            f"[{alternatives}] @name", syntax.calls, syntax.members, syntax.imports,
            f"[{tests}] @test" if tests else "", f"[{marks}] @test_attribute" if marks else "",
        )
        if p
    )  # fmt: skip
    return ts.Query(grammar(name), patterns)


@functools.cache
def _test_attribute(name: str) -> re.Pattern[str] | None:
    pattern = _syntax(name).test_attributes
    return re.compile(pattern) if pattern else None


@functools.cache
def imports_query(name: str) -> ts.Query | None:
    syntax = _syntax(name)
    return ts.Query(grammar(name), syntax.imports) if syntax.imports else None


@functools.cache
def docs_query(name: str) -> ts.Query | None:
    syntax = _syntax(name)
    return ts.Query(grammar(name), syntax.docs) if syntax.docs else None


@functools.cache
def _compiled(patterns: tuple[str, ...]) -> tuple[_Mask, ...]:
    return tuple(_Mask.compiled(pattern) for pattern in patterns)


@dataclass(frozen=True)
class _Mask:
    """A mask (Syntax.masks) compiled; and, for one that starts at a line start (`(?m)^...`), the same
    pattern after a line break (`(?m)\n...`), which finds the same matches many times faster: the
    regular expression engine tries a pattern at every byte, where `^` fails only after steps of its
    own, but skips to the next `\n` in one fast scan when the pattern starts with it (libuv's C masks:
    2.1 G instructions, more than tree-sitter's parse of the same files)."""

    pattern: re.Pattern[bytes]
    after_break: re.Pattern[bytes] | None

    @classmethod
    def compiled(cls, pattern: str) -> _Mask:
        compiled = re.compile(pattern.encode())
        return cls(compiled, _after_break(compiled))

    def matches(self, source: bytes) -> list[re.Match[bytes]]:
        """`pattern.finditer(source)`'s matches (their groups, as the whole match of `after_break`
        takes in the line break before it)."""
        if self.after_break is None:
            return list(self.pattern.finditer(source))
        found: list[re.Match[bytes]] = []
        position, end = 0, len(source)
        while position <= end:
            # A match here, at a line start, is the pattern's own (after_break's would start before);
            # after it, every match starts after a line break that after_break finds.
            match = (
                self.pattern.match(source, position) if position == 0 or source[position - 1] == 10 else None
            )
            start = position
            if match is None:
                match = self.after_break.search(source, position)
                if match is None:
                    return found
                start = match.start() + 1
            if match.end() == start:  # an empty match: finditer's own rules for what comes next
                return list(self.pattern.finditer(source))
            found.append(match)
            position = match.end()
        return found


def _after_break(pattern: re.Pattern[bytes]) -> re.Pattern[bytes] | None:
    """`pattern` with its leading line start `(?m)^` as a line break (_Mask), None when it does not
    start with one (a pattern whose `^` begins only its first alternative, `(?m)^a|b`, does not)."""
    text = pattern.pattern
    if not text.startswith(b"(?m)^"):
        return None
    parsed = re._parser.parse(text.decode())  # type: ignore[attr-defined]
    if not parsed.data or parsed.data[0] != (re._constants.AT, re._constants.AT_BEGINNING):  # type: ignore[attr-defined]
        return None
    return re.compile(b"(?m)\n" + text[len(b"(?m)^") :])


def _masked(source: bytes, patterns: tuple[str, ...]) -> tuple[bytes, set[int]]:
    """The source with masks (Syntax.masks) blanked, every byte where it was; line breaks are kept,
    so that what follows a mask spanning lines (`class API_EXPORT\nFoo`) keeps its line numbers. And
    the offsets of the masks' lead text (_LEADS): a name starting there is the mask's, not the source's
    (`_=` over `cdef int`: a name `_` whose bytes in the source read `c`), and no reference."""
    masks = _compiled(patterns)
    leads: set[int] = set()
    if not masks:
        return source, leads
    text = bytearray(source)
    for compiled in masks:
        mask = compiled.pattern
        for found in compiled.matches(source):
            if "end" in mask.groupindex:  # a blank that ends the statement before (Syntax.masks)
                start = found.start("end")
                text[start : start + 1] = b";"
                continue
            for group, first in _LEADS.items():  # a blank that starts with another character
                if group in mask.groupindex and found.start(group) >= 0:
                    start, end = found.span(group)
                    lead = len(first)
                    text[start:end] = first + _BLANK_BUT_BREAKS.sub(b" ", source[start + lead : end])
                    leads.update(range(start, start + lead))
            if "mask" in mask.groupindex and found.start("mask") >= 0:
                start, end = found.span("mask")
                text[start:end] = _BLANK_BUT_BREAKS.sub(b" ", source[start:end])
    return bytes(text), leads


_BLANK_BUT_BREAKS = re.compile(rb"[^\r\n]")
# Groups of a mask (Syntax.masks) blanked but for their first characters: a C++ lambda's capture list
# read as a block's `^`, a macro defining a method (`RCT_EXPORT_METHOD(`) read as a method's `-`, an
# Objective-C message send read by C++'s grammar as a `0`, fast enumeration's `in` as a range-for's `:`,
# `typedef NS_ENUM(NSInteger,` as an `enum`; Cython's `cdef int` of a function as `def`, `cdef struct` and
# `property` as `class`, `cdef extern from "x.h"` as `while 1`, a C declaration's type as `_=`, a
# prototype's as `del`, a `ctypedef`'s as `global`, a bare `enum` as `with`, `for i from`'s `from` as
# `in`, `include "a.pxi"` as Python 2's `exec "a.pxi"`; F#'s `and` of `let rec ... and` as `let`; a
# fixed-form Fortran comment's `C` as `!`, and the pieces of a procedure name pasted by the preprocessor
# as one `&`; a C++ operator's `==` or `[]` in a Cython `cppclass` as `__`, its name read back as
# `operator==`; Groovy's Elvis `?:` as `||` and its empty `''` as `""` (a group at least as long as what
# it becomes).
_LEADS = {
    "caret": b"^", "dash": b"-", "zero": b"0", "colon": b":", "enum": b"enum",
    "define": b"def", "klass": b"class", "block": b"while 1", "chain": b"_=", "within": b"in",
    "include": b"exec", "delete": b"del", "typedef": b"global", "with": b"with", "let": b"let",
    "bang": b"!", "under": b"_", "under2": b"__", "either": b"||", "quotes": b'""', "amp": b"&",
}  # fmt: skip


def _healed(parser: ts.Parser, tree: ts.Tree, source: bytes, times: int) -> tuple[ts.Tree, bytes]:
    """The tree after blanking, up to `times` times, the line where its first error starts (every
    byte where it was, so rows and offsets hold), each parse reusing the last (tree-sitter's
    incremental parsing: bash-completion's 2,300 lines heal in 27 steps, ~40 ms)."""
    text = bytearray(source)
    starts = [0, *(found.end() for found in _NEWLINE.finditer(source))]
    for _ in range(times):
        error = _first_error(tree.root_node)
        if error is None:
            break
        row = error.start_point[0]
        start = starts[row]
        end = starts[row + 1] - 1 if row + 1 < len(starts) else len(text)
        if not text[start:end].strip():
            break  # the error is on a blank line (a missing `}` at the end): nothing left to blank
        text[start:end] = _BLANK_BUT_BREAKS.sub(b" ", bytes(text[start:end]))
        width = end - start
        tree.edit(start, end, end, (row, 0), (row, width), (row, width))
        tree = parser.parse(bytes(text), tree)
    return tree, bytes(text)


def _holds_error_node(node: ts.Node) -> bool:
    """Whether the tree holds an ERROR node (has_error also counts missing tokens)."""
    return node.type == "ERROR" or any(_holds_error_node(c) for c in node.children if c.has_error)


def _first_error(node: ts.Node) -> ts.Node | None:
    """The first error in the text: the innermost ERROR or missing node where reading first failed."""
    if node.is_missing:
        return node
    for child in node.children:
        if child.has_error or child.is_missing:
            found = _first_error(child)
            if found is not None:
                return found
    return node if node.type == "ERROR" else None


def _owning(definitions: list[_Definition]) -> list[_Definition]:
    """The definitions with each table of Binding.owners kept once, as a class (a member is a method)
    or a module, if the file defines members on it; dropped if it defines none. A function with
    methods defined on it is a class."""
    members: dict[str, list[_Definition]] = {}
    for definition in definitions:
        if definition.parent is not None:
            members.setdefault(definition.parent, []).append(definition)
    kept, owners = [], set()
    for definition in definitions:
        owned = members.get(definition.name, [])
        if definition.kind == "function" and any(m.kind == "method" for m in owned):
            definition.kind = "class"  # a constructor with methods on its prototype (`Foo.prototype.bar`)
        if definition.owner:
            if not (owned or definition.table) or definition.name in owners:
                continue
            owners.add(definition.name)
            definition.kind = "class" if any(m.kind == "method" for m in owned) else "module"
            # `local M = {}` on one line says nothing a search could find: a symbol whose line stays
            # in the chunk around it, with the file's head comment and requires (lua-http's zlib.lua:
            # a one-line chunk of its own cut the head from the module's first lines).
            if definition.node_start == definition.node.end_point[0] + 1:
                definition.chunked = False
        kept.append(definition)
    return kept


def _class_called(definition: _Definition) -> None:
    """A class made by a call (Binding.class_calls): its table's functions are its methods; one on one
    line (`local Base = class()`) a symbol whose line stays in the chunk around it, as `local M = {}`'s."""
    for member in definition.members:
        if member.kind == "function":
            member.kind = "method"
    if not definition.members and definition.node_start == definition.node.end_point[0] + 1:
        definition.chunked = False


def _unchunked(definition: _Definition) -> None:
    """A definition and its members as symbols only (Syntax.inline): their text stays where it is."""
    definition.chunked = False
    for member in definition.members:
        _unchunked(member)


def _is_comment_line(line: str) -> bool:
    found = _COMMENT_MARKERS.match(line)
    return found is not None and bool(line.strip())


def _swallowed_starts(root: ts.Node, syntax: Syntax) -> list[int]:
    """Where to cut a file the grammar misread: none if no definition in error holds another that
    starts at column 0 (the grammar swallowed the next top-level definitions into one it could not
    close); else the rows of every definition starting at column 0, so that each is read alone."""
    starts: set[int] = set()
    swallowed = False
    stack = [(root, False)]
    while stack:
        node, inside = stack.pop()
        defines = node.type in syntax.definitions
        if defines and node.start_point[1] == 0:
            starts.add(node.start_point[0])
            swallowed = swallowed or inside
        inside = inside or (defines and node.has_error)
        stack.extend((child, inside) for child in node.children if child.child_count)
    return sorted(starts) if swallowed else []


def _count_definitions(root: ts.Node, syntax: Syntax) -> int:
    kinds = syntax.definitions.keys() | syntax.bindings.keys()
    count, cursor, descending = 0, root.walk(), True
    while True:
        if descending:
            count += cursor.node is not None and cursor.node.type in kinds
            if cursor.goto_first_child():
                continue
        if cursor.goto_next_sibling():
            descending = True
            continue
        if not cursor.goto_parent():
            return count
        descending = False


@functools.cache
def _import_pattern(name: str) -> re.Pattern[str] | None:
    text = _syntax(name).import_text
    return re.compile(text) if text else None


def _syntax(name: str) -> Syntax:
    syntax = language(name).syntax
    if syntax is None:
        raise ValueError(f"{name} is not parsed")
    return syntax


@functools.cache
def _walks_declarators(path: str) -> bool:
    """A names path with a step followed through C's declarators (`declarator*`), not only `**t` steps
    (a descendant, one step of a path as any other)."""
    return any(step.endswith("*") for step in path.split("/"))


@functools.cache
def _reached_types(name: str) -> frozenset[str]:
    """The node types SyntaxReader._definitions_in finds anything in: for a child of any other type it
    yields nothing, so _definitions skips it (most of a file's nodes) without a generator for it."""
    syntax = _syntax(name)
    found = set().union(
        syntax.transparent, syntax.conditionals, syntax.whole_conditionals, syntax.wrappers,
        syntax.containers, syntax.inline, syntax.bindings, syntax.definitions, syntax.declarations,
        syntax.computed,
    )  # fmt: skip
    if syntax.call_definitions is not None:
        found |= {syntax.call_definitions.node, syntax.call_definitions.attribute_node}
    return frozenset(found)


@dataclass
class _Definition:
    node: ts.Node  # the whole definition, with decorators, `export`, `template <...>`
    head: ts.Node  # the definition itself (its signature is read from here)
    kind: str
    name: str
    parent: str | None
    exported: bool
    start_line: int  # including the leading doc comment
    end_line: int
    chunked: bool = True  # False: a declaration (a prototype), a symbol without a chunk of its own
    members: list[_Definition] = field(default_factory=list)
    owner: bool = False  # a table that defines something only if members are defined on it (Binding.owners)
    table: bool = False  # an owner that is a module even without members (Binding.tables)

    @property
    def node_start(self) -> int:
        return self.node.start_point[0] + 1


class SyntaxReader:
    def __init__(
        self, path: str, language_name: str, package: str, text: str, more_masks: tuple[str, ...] = ()
    ):
        self.path, self.language, self.package = path, language_name, package
        self.spec: Language = language(language_name)
        self.syntax = _syntax(language_name)
        self.masks = self.syntax.masks + more_masks  # Language.rereading's added to the language's own
        self.text = text
        self.source = text.encode("utf-8")
        self.lines = text.splitlines()
        # Start bytes of names that are no references: defining names, and masks' lead text (_parse).
        self.name_nodes: set[int] = set()
        self.covered: list[tuple[int, int]] = []  # line spans of sibling bodies (Dart)
        self.parsed_source = self.source  # masked (languages.Syntax.masks) when read
        self._captured: dict[str, list[ts.Node]] | None = None
        self._doc_nodes: set[int] = set()
        self.test_modules: list[str] = []  # _declared_test_module
        self._piece_starts: set[int] = set()  # rows where a piece of a misread file begins (_parse)
        self._skipped = SKIPPED_REFERENCE_NAMES | self.syntax.skipped_references
        self._reached = _reached_types(language_name)
        # node id -> its previous named sibling (None for a first child), for the children that
        # _definitions went through: tree-sitter finds a node's previous sibling by walking down from
        # the root and along the parent's children, each time (a tenth of parsing on tokio's files).
        self._previous_named: dict[int, ts.Node | None] = {}

    def read(self) -> ParsedFile:
        parsed = ParsedFile()
        roots = self._parse()
        module = self._file_module(roots[0])
        if module is not None:
            parsed.symbols.append(module)
        owner, owner_kind = (module.name, module.kind) if module is not None else (None, None)
        definitions = self._read_trees(roots, parsed, owner, owner_kind)
        if self.spec.rereading is not None:
            definitions = self._reread(self.spec.rereading, definitions, parsed)
        definitions = _owning(definitions)
        # Top-level macros (a C header's hundreds of `#define`s) share chunks as small members do.
        self._add_members(definitions, parsed, kinds=frozenset({"macro"}))
        parsed.chunks.extend(self._module_chunks(definitions))
        parsed.chunks = _unique(parsed.chunks)
        if self.syntax.attribute_calls:
            parsed.symbols += self._attributes(roots[0], parsed.symbols)
        if self.syntax.pod_docs:
            _add_pod_docs(parsed.symbols, self.lines)
        return parsed

    def _attributes(self, root: ts.Node, symbols: list[Symbol]) -> list[Symbol]:
        """The attributes that calls of Syntax.attribute_calls define at the top level or in a block
        package (`has heat => 1200;`, `has [qw(fuel vent)]`; not `has '+colour'`, which changes an
        inherited one): methods of the innermost package around them."""
        packages = sorted(
            (s for s in symbols if s.kind in ("module", "class")), key=lambda s: s.start_line - s.end_line
        )
        found: list[Symbol] = []
        for statement in _attribute_statements(root):
            call = statement.named_children[0] if statement.named_children else None
            if call is None or call.type not in _PERL_CALLS or len(call.named_children) < 2:
                continue
            function, arguments = call.named_children[0], call.named_children[1]
            if self._text(function) not in self.syntax.attribute_calls:
                continue
            if arguments.type == "list_expression" and arguments.named_children:
                arguments = arguments.named_children[0]
            line = statement.start_point[0] + 1
            owner = next((s for s in packages if s.start_line <= line <= s.end_line), None)
            parent = None if owner is None else _package_name(owner)
            signature = _first_line(self.lines[line - 1])
            for name in self._attribute_names(arguments):
                exported = not name.startswith("_")
                found.append(
                    Symbol(name, "method", line, statement.end_point[0] + 1, parent, exported, signature, "")
                )
        return found

    def _attribute_names(self, node: ts.Node) -> list[str]:
        """`heat`, `'heat'`, `[qw(fuel vent)]`, `['fuel', 'vent']`: the names an attribute call defines."""
        if node.type == "autoquoted_bareword":
            names = [self._text(node)]
        elif node.type in ("string_literal", "quoted_word_list", "anonymous_array_expression"):
            names = [
                word
                for n in (node, *_descendants(node))
                if n.type == "string_content"
                for word in self._text(n).split()
            ]
        else:
            return []
        return [name for name in names if _PERL_NAME.fullmatch(name)]

    def _read_trees(
        self, roots: list[ts.Node], parsed: ParsedFile, owner: str | None, owner_kind: str | None
    ) -> list[_Definition]:
        """The definitions in the trees; their imports and references added to `parsed`."""
        definitions: list[_Definition] = []
        docs = docs_query(self.language)
        for root in roots:
            self._captured = None  # the names query's captures, per tree
            if docs is not None:
                self._doc_nodes |= {node.id for node in ts.QueryCursor(docs).captures(root).get("doc", [])}
            definitions += self._definitions(root, owner, owner_kind, top_level=True)
            parsed.imports += self._imports(root)
            parsed.reference_rows += self._references(root)
            parsed.tests += self._tests(root)
        parsed.tests = _joined_spans(parsed.tests, self.lines)
        parsed.test_modules = list(dict.fromkeys(self.test_modules))
        return definitions

    def _reread(
        self, rereading: Rereading, definitions: list[_Definition], parsed: ParsedFile
    ) -> list[_Definition]:
        """The file read again by another language's grammar (Language.rereading: Objective-C++'s C++).
        This reading keeps its own definitions, those of node types the other language does not know
        (`@implementation`, `@interface`, `@protocol`, their methods); the other reading's definitions
        that overlap none of them are taken, with the references on their lines, in place of this
        reading's that they overlap (a C++ class this grammar read as fragments, `void Foo::bar()` read
        as a function `bar` of no class)."""
        other = SyntaxReader(self.path, rereading.language, self.package, self.text, rereading.masks)
        found = ParsedFile()
        theirs = other._read_trees(other._parse(), found, None, None)
        syntax = other.syntax
        known = syntax.definitions.keys() | syntax.declarations.keys() | syntax.bindings.keys()
        own = [d for d in definitions if d.head.type not in known]
        own_lines = _lines_of(own, len(self.lines))
        # A definition the other grammar could not close ran on over the next ones (a construct its
        # masks missed): one in error that holds the head of one of this reading's at column 0.
        heads = sorted(d.node_start for d in definitions if d.node.start_point[1] == 0)
        taken = [
            d for d in theirs
            if not _stands_on(own_lines, d)
            and not (d.node.has_error and _holds_any(heads, d.node_start + 1, d.end_line))
        ]  # fmt: skip
        taken_lines = _lines_of(taken, len(self.lines))
        own_ids = {id(d) for d in own}
        kept = [d for d in definitions if id(d) in own_ids or not _stands_on(taken_lines, d)]
        rows = [row for row in parsed.reference_rows if not taken_lines[row[1]]]
        rows += (row for row in found.reference_rows if taken_lines[row[1]])
        parsed.reference_rows = sorted(rows, key=lambda row: (row[1], row[0]))
        return sorted(kept + taken, key=lambda d: d.node.start_byte)

    def _parse(self) -> list[ts.Node]:
        """The file's syntax trees (one, or one per piece: below), from the masked source
        (languages.Syntax.masks), healed (Syntax.heal_lines) when the grammar could not read it whole.

        When healing leaves a definition in error holding definitions that start at column 0, the
        grammar read past the end of the first (an expansion it misread opened a brace it never
        closed) and took in the next ones as its own: the file is then read in pieces, one from each
        of those starts, each parsed on its own, where they were (tree-sitter's included ranges)."""
        self.parsed_source, leads = _masked(self.source, self.masks)
        self.name_nodes.update(leads)  # a mask's lead text names nothing of the source
        parser, syntax = ts.Parser(grammar(self.language)), self.syntax
        tree = parser.parse(self.parsed_source)
        if not (syntax.heal_lines and tree.root_node.has_error):
            return [tree.root_node]
        if not syntax.heal_missing and not _holds_error_node(tree.root_node):
            return [tree.root_node]
        healed, source = _healed(parser, tree, self.parsed_source, syntax.heal_lines)
        if _count_definitions(healed.root_node, syntax) <= _count_definitions(tree.root_node, syntax):
            return [tree.root_node]
        self.parsed_source = source
        offsets = [0, *(found.end() for found in _NEWLINE.finditer(source))]
        roots: list[ts.Node] = []
        pieces = [(0, len(offsets), healed.root_node)]  # (first row, row after, its tree)
        while pieces:
            first, end, root = pieces.pop()
            starts = [row for row in _swallowed_starts(root, syntax) if first < row < end]
            if not starts or len(roots) + len(pieces) > MAX_PIECES:
                roots.append(root)
                continue
            rows = [first, *starts, end]
            self._piece_starts.update(starts)
            for top, bottom in itertools.pairwise(rows):
                start_byte, end_byte = offsets[top], offsets[bottom] if bottom < len(offsets) else len(source)
                parser.included_ranges = [ts.Range((top, 0), (bottom, 0), start_byte, end_byte)]
                pieces.append((top, bottom, parser.parse(source).root_node))
        return sorted(roots, key=lambda root: root.start_byte)

    # definitions

    def _file_module(self, root: ts.Node) -> Symbol | None:
        """The definition a file itself is (languages.Language.file_module), named after the file."""
        rule, stem = self.spec.file_module, PurePosixPath(self.path).name.split(".")[0]
        if not stem or not (stem[0].isalpha() or stem[0] == "_"):
            return None
        if rule == "capitalized":
            name, kind = stem[0].upper() + stem[1:], "module"
        elif rule == "struct" and stem[0].isupper():
            name, kind = stem, "class"
        else:
            return None
        inner_docs = (line.lstrip()[3:] for line in self.lines if line.lstrip().startswith("//!"))
        doc = _first_line("\n".join(inner_docs))  # Zig's `//!` lines document their file
        for child in root.named_children if self.syntax.trailing_docs and not doc else ():
            if child.type not in self.syntax.comments:
                break
            if self._is_doc(self._text(child)):  # OCaml's first `(** ... *)`
                doc = _first_line(_COMMENT_ENDS.sub("", _COMMENT_MARKERS.sub("", self._text(child))))
                break
        return Symbol(name, kind, 1, max(len(self.lines), 1), None, True, PurePosixPath(self.path).name, doc)

    def _definitions(
        self, node: ts.Node, parent: str | None, parent_kind: str | None, top_level: bool
    ) -> list[_Definition]:
        found: list[_Definition] = []
        previous, before = self._previous_named, None
        reached = self._reached
        for child in node.named_children:
            previous[child.id] = before  # _start_with_comments looks back from a definition
            if child.type in reached:
                found.extend(self._definitions_in(child, parent, parent_kind, top_level))
            before = child
        if self.syntax.sections and found:
            found = self._sectioned(found, node)
        return self._merged(found) if self.syntax.merge_clauses else found

    def _sectioned(self, found: list[_Definition], holder: ts.Node) -> list[_Definition]:
        """The definitions after a section's statement (Syntax.sections: Perl's `package Shop::Cart;`),
        up to the next section of either form, as its members: the section runs from its statement to
        the last line before the next one (or the end of what holds it). A section with a block
        (`package Shop::Cart { ... }`) holds its own; its scope ends with its block, and the statement's
        section before it applies again after it (Perl's rule; `main`'s, top-level, when none came
        before): what follows the block is that section's, chunked on its own (the section's lines
        stop at the block)."""
        sections = [d for d in found if d.head.type in self.syntax.sections]
        if not sections:
            return found
        last = _end_line(holder.named_children[-1]) if holder.named_children else sections[-1].end_line
        last = min(last, len(self.lines))  # POD after `__END__` with no `=cut`: a node past the last line
        kept: list[_Definition] = []
        section: _Definition | None = None
        section_name = ""  # the section's name as written (`Shop::Cart`), its members' parent
        inside = False  # no block section since the section's statement: what follows is in its lines
        for definition in found:
            if definition.head.type in self.syntax.sections:
                kept.append(definition)
                inside = self._body(definition.head) is None
                if inside:
                    section = definition
                    name_node = self._name_node(definition.head)[0]
                    section_name = self._text(name_node) if name_node is not None else definition.name
                    later = [d.start_line for d in sections if d.start_line > definition.start_line]
                    end = min(later) - 1 if later else last
                    while end > definition.node_start and not self.lines[end - 1].strip():
                        end -= 1
                    definition.end_line = max(definition.end_line, end)
            elif section is not None:
                definition.parent = section_name
                if definition.kind == "function" and section.kind in CLASS_LIKE - {"module"}:
                    definition.kind = "method"  # Perl 5.38's `class Point;`: its subs are methods
                (section.members if inside else kept).append(definition)
            else:
                kept.append(definition)
        return kept

    def _definitions_in(
        self, node: ts.Node, parent: str | None, parent_kind: str | None, top_level: bool
    ) -> Iterator[_Definition]:
        syntax, kind = self.syntax, node.type
        if kind in syntax.transparent and not self._computed(node):
            yield from self._definitions(node, parent, parent_kind, top_level)
        elif kind in syntax.conditionals:
            for definition in self._definitions(node, parent, parent_kind, top_level):
                if parent is not None and definition.kind in CALLABLE:  # a method: its branch's text
                    _unchunked(definition)  # stays in the chunk of the class (a class keeps its own)
                yield definition
        elif kind in syntax.whole_conditionals:
            for definition in self._definitions(node, parent, parent_kind, top_level):
                _unchunked(definition)
                yield definition
        elif kind in syntax.wrappers:
            yield from self._wrapped(node, parent, parent_kind, top_level)
        elif kind in syntax.containers:
            yield from self._container(node, syntax.containers[kind], parent, parent_kind, top_level)
        elif kind in syntax.inline:
            for definition in self._container(node, "", parent, parent_kind, top_level):
                _unchunked(definition)
                yield definition
        elif kind in syntax.bindings:
            yield from self._bindings(node, node, syntax.bindings[kind], parent, parent_kind, False)
        elif syntax.call_definitions is not None and kind == syntax.call_definitions.node:
            yield from self._call_definition(node, parent, parent_kind)
        elif syntax.call_definitions is not None and kind == syntax.call_definitions.attribute_node:
            operand = node.child_by_field_name("operand")
            if operand is not None and operand.type == syntax.call_definitions.node:
                yield from self._call_definition(operand, parent, parent_kind, attribute=node)
        elif kind in syntax.definitions or kind in syntax.declarations or self._computed(node):
            yield from self._definition(node, node, parent, parent_kind, top_level, wrapped=False)

    def _wrapped(
        self, outer: ts.Node, parent: str | None, parent_kind: str | None, top_level: bool
    ) -> Iterator[_Definition]:
        """A definition inside a decorator, `export` or `template <...>`: the outer node counts."""
        syntax = self.syntax
        field_name = syntax.wrappers[outer.type]
        if "/" in field_name:  # a path to it (Julia's `@inline f(x) = ...`: the macro's first argument)
            inner = _step(outer, field_name)
        else:
            inner = outer.child_by_field_name(field_name) if field_name else None
        if inner is None and not field_name:
            inner = next((c for c in outer.named_children if self._defines(c)), None)
        if inner is None:
            value = outer.child_by_field_name("value")  # `export default class {}`
            if value is not None and value.type in ("class", "function_expression", "arrow_function"):
                kind = "class" if value.type == "class" else "function"
                yield self._new(outer, outer, kind, "default", parent, True, outer)
            return
        if not self._defines(inner):
            return  # `export declare ...`, `export * from`: nothing defined here
        if inner.type in syntax.bindings:
            yield from self._bindings(outer, inner, syntax.bindings[inner.type], parent, parent_kind, True)
        elif inner.type in syntax.containers:
            yield from self._container(inner, syntax.containers[inner.type], parent, parent_kind, top_level)
        elif inner.type in syntax.wrappers:
            yield from self._wrapped(inner, parent, parent_kind, top_level)
        else:
            yield from self._definition(outer, inner, parent, parent_kind, top_level, wrapped=True)

    def _defines(self, node: ts.Node) -> bool:
        syntax = self.syntax
        return (
            node.type in syntax.definitions
            or node.type in syntax.declarations
            or node.type in syntax.bindings
            or node.type in syntax.containers
            or node.type in syntax.wrappers
            or self._computed(node)
        )

    def _computed(self, node: ts.Node) -> bool:
        """A property computed by code (Syntax.computed), not a stored one."""
        step = self.syntax.computed.get(node.type)
        return step is not None and _step(node, step) is not None

    def _definition(
        self, outer: ts.Node, node: ts.Node, parent: str | None, parent_kind: str | None, top_level: bool,
        wrapped: bool,
    ) -> Iterator[_Definition]:  # fmt: skip
        syntax = self.syntax
        if node.type in syntax.ownerless:
            parent = parent_kind = None
        # Declarations and computed properties are symbols without chunks of their own (a getter a
        # chunk would drown a class's substance in fragments, as C#'s properties would).
        declaration = node.type not in syntax.definitions
        kind = syntax.definitions.get(node.type) or syntax.declarations.get(node.type, "function")
        keywords = syntax.keywords.get(node.type)
        if keywords is not None:
            keyword = next((c.type for c in node.children if not c.is_named and c.type in keywords), "")
            kind = keywords.get(keyword, keywords.get("", kind))
        category = syntax.categories.get(node.type)
        if category is not None and node.child_by_field_name(category) is not None:
            kind = "container"  # `@interface Widget (Layout)`: Widget's members
        literal = syntax.names.get(node.type, "")
        name_node: ts.Node | None
        if literal.startswith("="):  # Swift's `init`: no name node
            name_node, through_function, text = node, True, literal[1:]
        elif (constructor := self._constructor_name(node)) is not None:
            name_node, text = constructor
        elif (operator := self._operator_name(node)) is not None:
            name_node, text = operator
        else:
            name_node, through_function = self._name_node(node)
            if name_node is None:
                name_node = self._holder_name(node)
            if name_node is None and node.type in syntax.unnamed:
                yield from self._unnamed_members(node, parent, parent_kind)
                return
            needs_function = declaration or node.type == "function_definition"
            if name_node is None or (needs_function and not through_function):
                # Nameless, or a declaration of a variable or a field rather than of a function; or no
                # function at all: C's `struct evbuffer #ifdef DOC {} #endif ;` read through its error as
                # a function named after the `#ifdef`'s condition.
                return
            text = self._cast_name(name_node) or _unparenthesized(_unquoted(self._text(name_node)))
            self._mark_name(name_node)
        if self._guards(node, text):
            return
        if syntax.head_kinds:  # `cdef enum Colour:` read as a class is a type (Syntax.head_kinds)
            head = self.source[node.start_byte : name_node.start_byte].decode("utf-8", errors="replace")
            kind = next((k for pattern, k in syntax.head_kinds if re.search(pattern, head)), kind)
        alias = syntax.aliases.get(node.type)
        if alias is not None and (value := _step(node, alias[0])) is not None and value.type in alias[1]:
            return  # `module Hashtbl = Hashtbl`: another name for a definition elsewhere
        if (
            kind in CLASS_LIKE
            and node.type.endswith("_specifier")
            and node.child_by_field_name("body") is None
        ):
            return  # `struct foo *p;` uses a type, `struct foo;` only announces it
        if kind == "container":
            # Swift's `extension Outer.Inner`: members of Inner, the name its own definition has.
            container = _split_qualified(_plain(text))[0]
            body = self._body(node)
            if body is not None:
                yield from self._definitions(body, container, "class", top_level=False)
            return
        name, qualifier = _split_qualified(text)
        receiver = self._receiver(node, name_node)
        owner = receiver or qualifier or parent
        # A function in a type's body is its method (a Swift, PHP or Java enum's as a class's).
        # Not a name qualified by the language's module separator (Perl's `sub Shop::Cart::total`: a sub
        # of the package Shop::Cart, as those written in it are).
        qualified = _method_qualified(text, qualifier) and self.syntax.separator not in text
        in_class = parent_kind in CLASS_LIKE - {"module"} or receiver or qualified
        if kind == "function" and owner is not None and in_class:
            kind = "method"
        exported = self._exported(outer, name_node, name, top_level, wrapped)
        definition = self._new(outer, node, kind, name, owner, exported, name_node)
        definition.chunked = not declaration
        if kind in CLASS_LIKE:
            body = self._body(node)
            if body is not None:
                definition.members = self._definitions(body, text if kind == "module" else name, kind, False)
                if node.type in syntax.constructor_calls:
                    definition.members = self._constructor_calls(body, name, definition.members)
            members = definition.members
            declared = all(m.head.type in syntax.declarations for m in members)
            if node.type in syntax.abstract_interfaces and members and declared:
                definition.kind = "interface"  # every member declared (Syntax.abstract_interfaces)
        yield definition

    def _constructor_calls(self, body: ts.Node, name: str, members: list[_Definition]) -> list[_Definition]:
        """A class's members with the constructors its body declares as calls of its own name
        (Syntax.constructor_calls: Cython's `cppclass Juicer:` declaring `Juicer(int n)`)."""
        found: list[_Definition] = []
        for statement in body.named_children:
            call = statement.named_children[0] if statement.type == "expression_statement" else None
            function = call.child_by_field_name("function") if call is not None else None
            if call is None or call.type != "call" or function is None or self._text(function) != name:
                continue
            self._mark_name(function)
            constructor = self._new(statement, statement, "method", name, name, True, function)
            constructor.chunked = False
            found.append(constructor)
        return sorted(members + found, key=lambda d: d.node.start_byte) if found else members

    def _holder_name(self, node: ts.Node) -> ts.Node | None:
        """The identifier beside the function a member holds, for one `names` finds no name for
        (Syntax.computed: Dart's `final VoidCallback onTap = () {}` is named `onTap`)."""
        step = self.syntax.computed.get(node.type)
        value = _step(node, step) if step is not None else None
        if value is None or value.parent is None:
            return None
        return next((c for c in value.parent.named_children if c.type in self.syntax.identifiers), None)

    def _unnamed_members(
        self, node: ts.Node, parent: str | None, parent_kind: str | None
    ) -> Iterator[_Definition]:
        """An unnamed definition's members, as members of the type it names (Syntax.unnamed: Dart's
        `extension on BuildContext {...}` adds methods to BuildContext); with no field naming one,
        declarations where the definition stands, without chunks of their own (Fortran's `abstract
        interface` declaring procedures)."""
        if not self.syntax.unnamed[node.type]:
            for definition in self._definitions(node, parent, parent_kind, False):
                _unchunked(definition)
                yield definition
            return
        extended = _step(node, self.syntax.unnamed[node.type])
        body = self._body(node)
        if extended is not None and body is not None:
            yield from self._definitions(body, _plain(self._text(extended)), "class", False)

    def _guards(self, node: ts.Node, name: str) -> bool:
        """`#define RING_H` right under `#ifndef RING_H`, without a value: an include guard."""
        test = self.syntax.include_guards.get(node.type)
        parent = node.parent
        if test is None or parent is None or parent.type != test or node.child_by_field_name("value"):
            return False
        tested = parent.child_by_field_name("name")
        return tested is not None and self._text(tested) == name and self._text(parent).startswith("#ifndef")

    def _bindings(
        self, outer: ts.Node, node: ts.Node, binding: Binding, parent: str | None, parent_kind: str | None,
        wrapped: bool,
    ) -> Iterator[_Definition]:  # fmt: skip
        """`const f = () => ...`, `const P = struct {...}`, `type S struct{...}`, `M.f = function`."""
        declarators = (
            [c for c in node.named_children if c.type in binding.declarators]
            if binding.declarators
            else [node]
        )
        for declarator in declarators:
            name_node = _declarator_name(declarator, binding.name)
            if binding.value:
                value = _step(declarator, binding.value)
            else:
                value = next(
                    (
                        c
                        for c in declarator.named_children
                        if c.type in binding.kinds or c.type in binding.alternatives
                    ),
                    None,
                )
            chained, value = _unchained(declarator, value, binding)
            value = _uncast(value, binding, top_level=parent is None)
            chosen = _chosen(value, binding)
            kind = binding.kinds.get((chosen[0] if chosen else value).type) if value is not None else None
            if kind is not None and _announced(value):
                value, kind = None, None  # `typedef struct node *node_ptr`: names a use of `struct node`
            if kind is None and value is not None and binding.factories:
                kind = binding.factories.get(self._callee(value))
            if kind is None and binding.typed and _step(declarator, binding.typed) is not None:
                kind = "function"
            kind = kind or binding.default
            methods = None if kind is not None else self._class_call(outer, value, binding)
            if methods is not None:
                kind = "class"
            owner = kind is None and value is not None and value.type in binding.owners
            if owner:
                kind = "module"
            if name_node is None or kind is None or name_node.type in ("object_pattern", "array_pattern"):
                continue
            base_kind = kind
            named = self._assigned(binding, name_node, value, kind)
            if named is None:
                continue
            name, qualifier, kind, module_level = named
            exported = module_level or self._exported(outer, name_node, name, parent is None, wrapped)
            whole = outer if len(declarators) == 1 else declarator
            definition = self._new(whole, declarator, kind, name, qualifier or parent, exported, name_node)
            definition.owner = owner
            definition.table = owner and qualifier is None and self._table(outer, value, binding)
            if kind in CLASS_LIKE and value is not None and not owner:
                definition.members = [
                    member
                    for each in ((chosen or [value]) if methods is None else methods)
                    for member in self._definitions(
                        each.child_by_field_name("body") or self._body(each) or each, name, kind, False
                    )
                ]
            if methods is not None:
                _class_called(definition)
            yield definition
            names = {name}
            for link in chained:  # the chain's other names: symbols without chunks of their own
                link_name = _declarator_name(link, binding.name)
                also = None if link_name is None else self._assigned(binding, link_name, value, base_kind)
                if link_name is None or also is None or also[0] in names:
                    continue
                names.add(also[0])
                alias = self._new(whole, declarator, also[2], also[0], also[1] or parent, exported, link_name)
                alias.chunked = False
                yield alias
            # Only a value that is itself a definition has a name of its own (C's `typedef struct tag
            # {...} name;`); `typedef Foo<int> Bar;`, `typedef std::pair<A, B> Elem;` and Go's
            # `type Alias = other.Thing` name a type defined elsewhere, not a second definition here.
            defines = value is not None and value.type in binding.kinds and not owner
            tag = value.child_by_field_name("name") if value is not None and defines else None
            if tag is not None and self._text(tag) not in names:
                self._mark_name(tag)
                alias = self._new(whole, declarator, kind, self._text(tag), parent, exported, tag)
                alias.chunked = False
                yield alias

    def _table(self, outer: ts.Node, value: ts.Node | None, binding: Binding) -> bool:
        """A value of Binding.tables (or a call whose first argument is one: `setmetatable({...}, mt)`)
        bound outside every function."""
        if value is not None and value.type in binding.owners - binding.tables:
            value = _step(value, "arguments/0")
        if value is None or value.type not in binding.tables:
            return False
        return self._outside_functions(outer, binding)

    def _outside_functions(self, outer: ts.Node, binding: Binding) -> bool:
        functions = {*self.syntax.definitions, *binding.kinds}
        ancestor = outer.parent
        while ancestor is not None:
            if ancestor.type in functions:
                return False
            ancestor = ancestor.parent
        return True

    def _class_call(self, outer: ts.Node, value: ts.Node | None, binding: Binding) -> list[ts.Node] | None:
        """A call of Binding.class_calls bound outside every function: the table holding its methods
        (its first table argument; none when it has none); None for any other value."""
        callee = value.child_by_field_name("name") if value is not None else None
        arguments = value.child_by_field_name("arguments") if value is not None else None
        if callee is None or arguments is None:
            return None
        base_field = binding.class_calls.get(re.split(r"[.:]", self._text(callee))[-1])
        tables = [each for each in arguments.named_children if each.type in binding.tables]
        if base_field is None or (
            base_field and not any(self._names_base(t, base_field) for t in tables[1:])
        ):
            return None
        return tables[:1] if self._outside_functions(outer, binding) else None

    def _names_base(self, table: ts.Node, base_field: str) -> bool:
        """`{ __index = Base }`: a field of that name whose value is a name, not a function or a table."""
        for each in table.named_children:
            name, value = each.child_by_field_name("name"), each.child_by_field_name("value")
            if name is not None and value is not None and self._text(name) == base_field:
                return value.type in self.syntax.identifiers or value.type.endswith("index_expression")
        return False

    def _callee(self, call: ts.Node) -> str:
        """`Struct.new` of `Struct.new(:x) do ... end`: a call's receiver and method, "" for no call."""
        receiver, method = call.child_by_field_name("receiver"), call.child_by_field_name("method")
        if receiver is None or method is None:
            return ""
        return f"{self._text(receiver)}.{self._text(method)}"

    def _assigned(
        self, binding: Binding, name_node: ts.Node, value: ts.Node | None, kind: str
    ) -> tuple[str, str | None, str, bool] | None:
        """A binding's (name, qualifier, kind, whether it is the module's own), its name marked; None
        for `module.exports = function () {}`, which has no name to find it by."""
        text = _unparenthesized(self._text(name_node))
        self._mark_name(name_node)
        name, qualifier = _split_qualified(text)
        if text in binding.module_names:  # `module.exports = function lookupFiles`: its own name
            own = value.child_by_field_name("name") if value is not None else None
            return (self._text(own), None, kind, True) if own is not None else None
        if qualifier is not None and (binding.module_names or binding.member_segments):
            qualifier, kind, module_level = _placed(binding, qualifier, kind)
            return name, qualifier, kind, module_level
        return name, qualifier, kind, False

    def _container(
        self, node: ts.Node, owner_step: str, parent: str | None, parent_kind: str | None, top_level: bool
    ) -> Iterator[_Definition]:
        """Members of an owner that is not itself defined here: `impl T`, `extension T`, a namespace."""
        body = self._body(node)
        if body is None:
            return
        owner_node = _step(node, owner_step) if owner_step else None
        if any(self._defines(each) for each in node.children_by_field_name("body")):
            body = node  # Scala 3's `extension (c: Circle)`: each def a `body` of the extension itself
        if owner_node is not None:
            yield from self._definitions(body, _plain(self._text(owner_node)), "class", top_level=False)
        else:
            yield from self._definitions(body, parent, parent_kind, top_level)

    def _call_definition(
        self, node: ts.Node, parent: str | None, parent_kind: str | None, attribute: ts.Node | None = None
    ) -> Iterator[_Definition]:
        """Elixir's `def name(args) do ... end`, `defmodule A.B do ... end`: calls that define; inside
        an `attribute` (`@callback fetch(id) :: term`), calls that declare."""
        calls = self.syntax.call_definitions
        assert calls is not None
        callee = node.child_by_field_name(calls.callee)
        if callee is None:
            return
        keyword = self._text(callee)
        kind = (calls.attributes if attribute is not None else calls.kinds).get(keyword)
        arguments = next((c for c in node.named_children if c.type == "arguments"), None)
        if kind is None or arguments is None or not arguments.named_children:
            return
        name_node = _call_head(arguments.named_children[0])
        if name_node is None:
            return
        text = self._text(name_node)
        self._mark_name(name_node)
        body = next((c for c in node.named_children if c.type == "do_block"), None)
        if kind == "container":
            if body is not None:
                owner = self._implemented_for(arguments, text, parent)
                yield from self._definitions(body, owner, "module", top_level=False)
            return
        name, qualifier = _split_qualified(text)
        exported = keyword not in calls.private
        outer = attribute or node
        definition = self._new(outer, outer, kind, name, qualifier or parent, exported, name_node)
        definition.chunked = attribute is None
        if kind in CLASS_LIKE and body is not None:
            # `defmodule Line` inside `Shop.Basket` defines Shop.Basket.Line.
            whole = f"{parent}.{text}" if parent and parent_kind in CLASS_LIKE else text
            definition.members = self._definitions(body, whole, kind, False)
        yield definition

    def _implemented_for(self, arguments: ts.Node, protocol: str, parent: str | None) -> str:
        """The module an implementation defines: Elixir's `defimpl Enumerable, for: List` is
        `Enumerable.List`; without `for:`, for the module it sits in (`Collectable.Mix.Shell`)."""
        keyword = self.syntax.call_definitions.target_keyword if self.syntax.call_definitions else ""
        for pairs in (c for c in arguments.named_children if c.type == "keywords"):
            for pair in pairs.named_children:
                key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
                if key is not None and value is not None and self._text(key).rstrip(": ") == keyword:
                    return f"{protocol}.{self._text(value)}" if value.type == "alias" else protocol
        return f"{protocol}.{parent}" if keyword and parent else protocol

    def _new(
        self, outer: ts.Node, head: ts.Node, kind: str, name: str, parent: str | None, exported: bool,
        name_node: ts.Node,
    ) -> _Definition:  # fmt: skip
        end, trimmed = _end_line(outer), self.syntax.comments_in_previous
        taken_in = self._trailing_comments(outer) if trimmed else []
        if taken_in:  # it ends with its last child before them
            end = min(end, _end_line(outer.named_children[-1 - len(taken_in)]))
        while end > outer.start_point[0] + 1 and (
            not self.lines[end - 1].strip() or (trimmed and _is_comment_line(self.lines[end - 1]))
        ):
            end -= 1  # a definition the grammar could not close runs on to the blank lines after it
        body_type = self.syntax.sibling_bodies.get(head.type)
        if body_type is not None:  # Dart: the body is the signature's next sibling
            sibling = outer.next_named_sibling
            if sibling is not None and sibling.type == body_type:
                end = _end_line(sibling)
        return _Definition(outer, head, kind, name, parent, exported, self._start_with_comments(outer), end)

    def _merged(self, definitions: list[_Definition]) -> list[_Definition]:
        """Consecutive definitions of one name as one (Haskell's signature and equations, Elixir's
        clauses)."""
        merged: list[_Definition] = []
        for definition in definitions:
            last = merged[-1] if merged else None
            if last is not None and (last.name, last.parent) == (definition.name, definition.parent):
                last.end_line = max(last.end_line, definition.end_line)
                last.members += definition.members
                last.exported = last.exported or definition.exported
                continue
            merged.append(definition)
        return merged

    def _name_node(self, node: ts.Node) -> tuple[ts.Node | None, bool]:
        """The node naming a definition, and whether a function declarator was passed on the way (a
        C declaration declares a function only then)."""
        path = self.syntax.names.get(node.type)
        if path is None:
            found = node.child_by_field_name("name")
            if found is None:  # Dart: `method_signature` holds the `function_signature` with the name
                found = next(
                    (n for c in node.named_children if (n := c.child_by_field_name("name")) is not None), None
                )
            return found, True
        if not _walks_declarators(path):  # only a walk through C's declarators can miss a function
            return _step(node, path), True
        current: ts.Node | None = node
        through_function = False
        for step in path.split("/"):
            if current is None:
                break
            if step.endswith("*"):
                step = step[:-1]
                while (following := _declared(current, step)) is not None:
                    through_function = through_function or current.type in _FUNCTION_DECLARATORS
                    current = following
                through_function = through_function or current.type in _FUNCTION_DECLARATORS
            else:
                current = _step(current, step)
        if (
            path.endswith("*")
            and current is not None
            and not current.type.endswith(("identifier", "_name", "destructor_name", "operator_cast"))
        ):
            return None, through_function
        return current, through_function

    def _cast_name(self, name_node: ts.Node) -> str | None:
        """C++'s conversion operator, `operator bool() const` or `Money::operator bool() const`, named
        `operator bool`, `Money::operator bool`; None for any other name."""
        cast = name_node if name_node.type == "operator_cast" else name_node.child_by_field_name("name")
        if cast is None or cast.type != "operator_cast" or (to := cast.child_by_field_name("type")) is None:
            return None
        scope = self.source[name_node.start_byte : cast.start_byte].decode("utf-8", errors="replace")
        return f"{scope}operator {self._text(to)}"

    def _operator_name(self, node: ts.Node) -> tuple[ts.Node, str] | None:
        """An operator's keyword and its name, `operator+`, `operator decimal` (Syntax.operators)."""
        operators = self.syntax.operators
        signature = _itself_or_child(node, operators)
        if signature is None:
            return None
        keyword = next((c for c in signature.children if c.type == "operator"), None)
        parameters = _step(signature, operators[signature.type])
        if keyword is None or parameters is None or parameters.start_byte < keyword.end_byte:
            return None
        written = self.source[keyword.end_byte : parameters.start_byte].decode("utf-8", "replace").split()
        if not written:
            return None
        self._mark_name(keyword)
        # A symbol touches the keyword (`operator==`); a type is a word apart (`operator decimal`).
        if written[0][0].isalnum() or written[0][0] == "_":
            return keyword, "operator " + " ".join(written)
        return keyword, "operator" + "".join(written)

    def _constructor_name(self, node: ts.Node) -> tuple[ts.Node, str] | None:
        """A constructor's first name node and its whole name (`Square.unit`: the owner, then its own
        name; `Color` for an unnamed one), its names marked as defining (Syntax.constructors)."""
        signature = _itself_or_child(node, self.syntax.constructors)
        if signature is None:
            return None
        names: list[ts.Node] = []
        for child in signature.named_children:
            if child.type in self.syntax.identifiers and child.type != "type_identifier":
                names.append(child)
            elif names:
                break
        if not names:
            return None
        for name_node in names:
            self._mark_name(name_node)
        return names[0], ".".join(self._text(n) for n in names)

    def _mark_name(self, name_node: ts.Node) -> None:
        """A defining name is no reference: nor are the identifiers inside a qualified one."""
        self.name_nodes.add(name_node.start_byte)
        if name_node.child_count:
            for node in _descendants(name_node):
                self.name_nodes.add(node.start_byte)

    def _receiver(self, node: ts.Node, name_node: ts.Node) -> str | None:
        """Go's `func (s *Server) Start()`, Kotlin's `fun Table.extend()`: the type a function is of;
        Fortran's `submodule (orchard) orchard_press`: the module a submodule extends."""
        step = self.syntax.receivers.get(node.type)
        target = _step(node, step) if step else None
        if target is None or target.end_byte > name_node.start_byte:
            return None
        names = [n for n in _descendants(target) if n.type == "type_identifier"]
        names = names or [n for n in _descendants(target) if n.type == "identifier"]
        names = names or ([] if target.named_children else [target])  # the name itself (Fortran's)
        return self._text(names[0]) if names else None

    def _body(self, node: ts.Node) -> ts.Node | None:
        body = node.child_by_field_name("body")
        if body is not None:
            return body
        bodies = self.syntax.bodies
        if node.type in bodies:  # Objective-C's `@interface`: its members are its own children
            return node
        for child in node.named_children:
            if child.type in bodies:
                return child
        for child in node.named_children:
            for grandchild in child.named_children:
                if grandchild.type in bodies:
                    return grandchild
            if child.child_by_field_name("body") is not None and child.type.endswith(("binding", "_clause")):
                return child.child_by_field_name("body")
        return None

    def _exported(
        self, outer: ts.Node, name_node: ts.Node, name: str, top_level: bool, wrapped: bool
    ) -> bool:
        rule = self.syntax.exported
        if rule == "python":
            return top_level and not name.startswith("_")
        if rule == "go":
            return name[:1].isupper()
        if rule == "dart":
            return not name.startswith("_")
        if rule == "export":
            return wrapped
        start = max(outer.start_byte, name_node.start_byte - MAX_HEAD_BYTES)
        words = {w.decode() for w in _WORDS.findall(self.source[start : name_node.start_byte])}
        if rule == "words":
            return bool(words & self.syntax.public)
        return not words & self.syntax.private

    def _start_with_comments(self, node: ts.Node) -> int:
        """The first line of the definition's leading comment block (or doc attributes), if it
        touches the definition."""
        return self._leading_block(node, through_attributes=False)[0]

    def _leading_block(self, node: ts.Node, through_attributes: bool) -> tuple[int, frozenset[int]]:
        """The first line of the leading comment block and the rows of the attributes stepped
        over; `through_attributes`: also a comment above the definition's attributes (Rust's
        `/// doc` then `#[inline]`), which its doc reads but its chunk does not take in (taking
        them in was measured: serde -0.022)."""
        start = node.start_point[0]
        attribute_rows: set[int] = set()
        previous = self._previous_sibling(node)
        if previous is None and node.parent is not None and node.parent.start_byte == node.start_byte:
            previous = self._previous_sibling(node.parent)  # the first member: its comment precedes the body
        comments, docs = self.syntax.comments, self._doc_nodes
        attributes = self.syntax.attributes if through_attributes else ()
        top = start  # the first row of the block so far, attributes included
        while (
            previous is not None
            and (previous.type in comments or previous.id in docs or previous.type in attributes)
            and previous.end_point[0] >= top - 1
            and self._starts_line(previous)
        ):
            top = previous.start_point[0]
            if previous.type in attributes:
                attribute_rows.update(range(top, previous.end_point[0] + 1))
            else:
                start = top
            previous = self._previous_sibling(previous)
        # The node before holds it, as its last children (Groovy's field `Closure f = { ... }` takes
        # in the Javadoc of the method after it).
        if self.syntax.comments_in_previous and previous is not None and previous.type not in comments:
            for comment in self._trailing_comments(previous):
                if comment.end_point[0] < top - 1 or not self._starts_line(comment):
                    break
                start = top = comment.start_point[0]
        # Its comment ended the piece before, or the node before holds it (F#): read from the text,
        # above the attributes stepped over (F#'s `/// doc` then `[<Obsolete>]`).
        if start in self._piece_starts or self.syntax.comments_in_previous:
            above = min(start, top)
            while above > 0 and _is_comment_line(self.lines[above - 1]):
                above -= 1
            start = above if above < min(start, top) else start
        return start + 1, frozenset(attribute_rows)

    def _trailing_comments(self, node: ts.Node) -> list[ts.Node]:
        """The comments `node` took in at its end, of what follows it (Syntax.comments_in_previous):
        its last named children that are comments, the last first; never its first child."""
        taken_in = []
        for child in reversed(node.named_children[1:]):
            if child.type not in self.syntax.comments:
                break
            taken_in.append(child)
        return taken_in

    def _previous_sibling(self, node: ts.Node) -> ts.Node | None:
        """node.prev_named_sibling, from what _definitions saw where it can."""
        try:
            return self._previous_named[node.id]
        except KeyError:
            return node.prev_named_sibling

    def _starts_line(self, node: ts.Node) -> bool:
        """Whether nothing but white space precedes `node` on its first line (`x = 1  # note` is a
        comment of the code before it, not of the next definition)."""
        row, column = node.start_point
        return row >= len(self.lines) or not column or not self.lines[row].encode("utf-8")[:column].strip()

    # chunks and symbols

    def _add(self, definition: _Definition, parsed: ParsedFile, chunk: bool = True) -> None:
        head = definition.head
        start, end = definition.start_line, definition.end_line
        parsed.symbols.append(
            Symbol(
                definition.name, definition.kind, definition.node_start, end, definition.parent,
                definition.exported, self._signature(head, definition.name), self._doc(head, definition),
            )
        )  # fmt: skip
        if not definition.chunked:  # Objective-C's `@interface`: its members are symbols all the same
            for member in definition.members:
                self._member_symbols(member, parsed, definition.exported)
        if not definition.chunked or not chunk:
            return
        node_start = definition.node_start
        members = [m for m in definition.members if m.chunked and m.start_line > node_start]
        split = any(m.kind in CALLABLE for m in members) and (
            definition.kind in ("class", "module") or end - start + 1 > MAX_CHUNK_LINES
        )
        if definition.kind == "module" and members:
            split = True
        if split:
            header_end = max(start, min(m.start_line for m in members) - 1)
            self._chunks(parsed, definition, start, header_end)
            covered = bytearray(end - start + 2)
            covered[: header_end - start + 1] = b"\1" * (header_end - start + 1)
            self._add_members(definition.members, parsed)
            for member in definition.members:
                if member.chunked:
                    _cover(covered, max(member.start_line, start) - start, min(member.end_line, end) - start)
            # What lies between the members (fields, a nested block's header) is part of the definition.
            lines = [n for n in range(header_end + 1, end + 1) if not covered[n - start]]
            for run in _runs(lines):
                if any(_CODE_LINE.search(self.lines[n - 1]) for n in run if n <= len(self.lines)):
                    self._chunks(parsed, definition, run[0], run[-1])
        else:
            for member in definition.members:  # interface members: symbols, one chunk for all
                self._member_symbols(member, parsed, definition.exported)
            self._chunks(parsed, definition, start, end)

    def _add_members(
        self, members: list[_Definition], parsed: ParsedFile, kinds: frozenset[str] | None = None
    ) -> None:
        """Each member a chunk, except runs of small ones, packed together up to PACK_LINES: one
        getter a chunk would drown a class's substance in fragments (each still its own symbol)."""
        pack: list[_Definition] = []

        def flush() -> None:
            if len(pack) == 1:
                self._add(pack[0], parsed)
            elif pack:
                for member in pack:
                    self._add(member, parsed, chunk=False)
                names = ", ".join(dict.fromkeys(m.name for m in pack))[:MAX_SIGNATURE_CHARS]
                first = pack[0]
                parsed.chunks.append(
                    make_chunk(
                        self.path, self.language, self.package, first.kind, names, first.start_line,
                        pack[-1].end_line, self.lines, first.parent,
                    )
                )  # fmt: skip
            pack.clear()

        for member in members:
            if not member.chunked:  # a declaration (a property, a prototype): a symbol, packed with none
                self._add(member, parsed)
                continue
            lines = member.end_line - member.start_line + 1
            small = not member.members and lines < SMALL_MEMBER_LINES
            small = small and (kinds is None or member.kind in kinds)
            fits = bool(pack) and member.start_line > pack[-1].end_line
            if small and fits and member.end_line - pack[0].start_line < PACK_LINES:
                pack.append(member)
                continue
            flush()
            if small:
                pack.append(member)
            else:
                self._add(member, parsed)
        flush()

    def _member_symbols(self, member: _Definition, parsed: ParsedFile, exported: bool) -> None:
        """A member in its owner's one chunk: a symbol with its doc (an interface's method), and so are
        its own members (a nested class's methods, when the class around it is too small to be split)."""
        parsed.symbols.append(
            Symbol(
                member.name, member.kind, member.node_start, member.end_line, member.parent, exported,
                self._signature(member.head, member.name), self._doc(member.head, member),
            )
        )  # fmt: skip
        for inner in member.members:
            self._member_symbols(inner, parsed, exported and inner.exported)

    def _chunks(self, parsed: ParsedFile, definition: _Definition, start: int, end: int) -> None:
        for window_start, window_end in split_long(start, end):
            parsed.chunks.append(
                make_chunk(
                    self.path, self.language, self.package, definition.kind, definition.name,
                    window_start, window_end, self.lines, definition.parent,
                )
            )  # fmt: skip

    def _module_chunks(self, definitions: list[_Definition]) -> Iterator[Chunk]:
        """Top-level code outside every chunked definition (imports, constants, scripts, and a C
        header's prototypes, which are symbols without chunks of their own)."""
        covered = bytearray(len(self.lines) + 2)
        for definition in definitions:
            if definition.chunked:
                _cover(covered, definition.start_line, definition.end_line)
        # Each stretch of lines no definition covers, in runs of up to MODULE_GAP_LINES lines.
        for stretch in _UNCOVERED.finditer(covered, 1, len(self.lines) + 1):
            first, end = stretch.span()
            for start in range(first, end, MODULE_GAP_LINES):
                yield from self._module_chunk(list(range(start, min(start + MODULE_GAP_LINES, end))))

    def _module_chunk(self, run: list[int]) -> Iterator[Chunk]:
        while run and not self.lines[run[-1] - 1].strip():
            run.pop()
        while run and not self.lines[run[0] - 1].strip():
            run.pop(0)
        if run and any(self.lines[n - 1].strip() for n in run):
            yield make_chunk(
                self.path, self.language, self.package, "module", None, run[0], run[-1], self.lines
            )

    def _signature(self, node: ts.Node, name: str = "") -> str:
        """The definition's first line, through the line that names it when its head spans lines
        (C's `int` above `crypto_box_seal(...)`, a return type or a template above a function)."""
        row, end = node.start_point[0], node.end_point[0] + 1
        lines = self.lines[row : min(row + SIGNATURE_LINES, end)] or [""]
        last = next((i for i, line in enumerate(lines) if not name or _holds_word(line, name)), None)
        if last is None and lines[0].lstrip().startswith("@"):
            # Annotations longer than the window (Kotlin's `@ReactModuleList(nativeModules = [...])`,
            # Java's `@Target({...})`, Swift's `@available(...)` over several lines): the naming line.
            below = self.lines[row + SIGNATURE_LINES : min(row + ANNOTATED_HEAD_LINES, end)]
            naming = next((line for line in below if _holds_word(line, name)), None)
            if naming is not None:
                return naming.strip()[:MAX_SIGNATURE_CHARS]
        return " ".join(line.strip() for line in lines[: (last or 0) + 1])[:MAX_SIGNATURE_CHARS]

    def _doc(self, node: ts.Node, definition: _Definition) -> str:
        """The first line of a docstring (Python) or of the leading doc comment."""
        if self.syntax.docstrings:
            body = node.child_by_field_name("body")
            first = body.named_children[0] if body is not None and body.named_children else None
            if first is not None and first.type == "expression_statement" and first.named_children:
                string = first.named_children[0]
                if string.type == "string":
                    return _first_line(self._text(string).strip("\"'rbuRBU \n"))
            return ""
        node_row = definition.node.start_point[0]
        top, attribute_rows = definition.start_line, frozenset[int]()
        if top - 1 == node_row and self.syntax.attributes:
            top, attribute_rows = self._leading_block(definition.node, through_attributes=True)
        if top - 1 < node_row:
            rows = range(top - 1, node_row)
            lines = [self.lines[row] for row in rows if row not in attribute_rows]
            if self.syntax.doc_markers:
                lines = _doc_markers(self.syntax.doc_markers).sub("", "\n".join(lines)).split("\n")
            return _doc_line(lines)
        return self._trailing_doc(definition.node)

    def _is_doc(self, comment: str) -> bool:
        """`(** Counts. *)` documents; a banner of stars `(*****` does not (ocamldoc's rule)."""
        marker = self.syntax.trailing_docs
        return comment.startswith(marker) and not comment[len(marker) :].startswith(marker[-1])

    def _trailing_doc(self, node: ts.Node) -> str:
        """The first line of a doc comment starting on the definition's last line or the next."""
        following = node.next_named_sibling
        if (
            not self.syntax.trailing_docs
            or following is None
            or following.type not in self.syntax.comments
            or following.start_point[0] > node.end_point[0] + 1
        ):
            return ""
        comment = self._text(following)
        if not self._is_doc(comment):
            return ""
        return _first_line(_COMMENT_ENDS.sub("", _COMMENT_MARKERS.sub("", comment)))

    # imports and references

    def _context(self, root: ts.Node) -> dict[str, list[ts.Node]]:
        if self._captured is None:
            self._captured = ts.QueryCursor(names_query(self.language)).captures(root)
        return self._captured

    def _import_ranges(self, root: ts.Node) -> list[tuple[int, int]]:
        """The byte ranges of the imports, outermost only, sorted."""
        ranges: list[tuple[int, int]] = []
        for node in sorted(self._context(root).get("import", []), key=lambda n: (n.start_byte, -n.end_byte)):
            if not ranges or node.start_byte >= ranges[-1][1]:
                ranges.append((node.start_byte, node.end_byte))
        return ranges

    def _imports(self, root: ts.Node) -> Iterator[Import]:
        reader = self.syntax.import_reader
        if reader != "text":
            read: Callable[[SyntaxReader, ts.Node], Iterator[Import]] = _IMPORT_READERS[reader]
            outer = {start for start, _ in self._import_ranges(root)}
            nodes = sorted(self._context(root).get("import", []), key=lambda n: (n.start_byte, -n.end_byte))
            for node in nodes:
                if node.start_byte in outer:
                    outer.discard(node.start_byte)
                    yield from read(self, node)
            return
        query = imports_query(self.language)
        # The names query holds the imports' patterns: where it found no import, this one finds none,
        # and where it did, this one need not look beyond them (a second pass over the whole file).
        found_imports = self._context(root).get("import")
        if query is None or not found_imports:
            return
        cursor = ts.QueryCursor(query)
        start, end = min(n.start_byte for n in found_imports), max(n.end_byte for n in found_imports)
        cursor.set_byte_range(start, end)
        pattern = _import_pattern(self.language)
        seen: set[tuple[str, int]] = set()
        for _, captures in sorted(cursor.matches(root), key=lambda match: match[1]["import"][0].start_byte):
            node = captures["import"][0]
            module_nodes = captures.get("module")
            text = self._text(module_nodes[0]) if module_nodes else self._text(node)
            if pattern is not None:
                found = pattern.search(text)
                if found is None:
                    continue
                text = found["module"]
            module = text.strip().strip("'\"`").rstrip(";").strip()
            line = node.start_point[0] + 1
            if module and (module, line) not in seen:
                seen.add((module, line))
                yield Import(module, [], line)

    def _references(self, root: ts.Node) -> list[tuple[str, int, str, bool]]:
        """One reference per name and line, the most telling kept (`lookup = x.lookup()`: the member
        call), in line then name order, as (name, line, kind, member) rows (Reference's fields). The
        loop runs for every identifier of the file (a quarter of parsing): it reads each node's
        bytes and id only (the line is counted in C, not read from a Point made per node), decodes
        each distinct name once (_ReferenceNames, across files), and makes each row once, as the
        tuple kept; what it does per capture is each a step of Python's: a map in C instead
        (`zip` of attribute lists, `compress`) measured more instructions."""
        context = self._context(root)
        captures = context.get("name", [])
        members = {node.id for node in context.get("member", ())}
        calls = {node.id for node in context.get("call", ())}
        # A flag per byte up to the last import's end: 1 inside an import (as cheap a test as a name's).
        imported = bytearray()
        for start, end in self._import_ranges(root):
            imported.extend(bytes(start - len(imported)))
            imported.extend(b"\1" * (end - start))
        imports_end = len(imported)
        source, name_nodes, names = self.source, self.name_nodes, _reference_names(self._skipped)
        # (line, name) -> (name, line, kind, member, start byte): the row, and where its capture starts
        kept: dict[tuple[int, str], tuple[str, int, str, bool, int]] = {}
        # The captures in the text's order (they come in runs, one per pattern), and each one's line
        # (tree-sitter's row + 1: the newlines before it) counted on from the one before, in C: a
        # bisection of the newlines' offsets per name was an eighth of this loop.
        ordered = sorted(captures, key=_START_BYTE)
        starts = list(map(_START_BYTE, ordered))
        text, newline = self.parsed_source, b"\n"
        lines = itertools.accumulate(
            map(text.count, itertools.repeat(newline), [0, *starts], starts), initial=1
        )
        next(lines)
        for node, start, line in zip(ordered, starts, lines, strict=True):
            if start in name_nodes:
                continue
            name = names[source[start : node.end_byte]]
            if name is None:
                continue
            node_id = node.id
            member = node_id in members
            if node_id in calls:
                kind = _CALL
            elif start < imports_end and imported[start]:
                kind = _IMPORT
            else:
                kind = _REFERENCE
            key = (line, name)
            known = kept.get(key)
            # The first in the text stays unless a later one reaches a member, or is a call where that
            # was not. The query's captures do not always come in the text's order (tree-sitter's
            # cursor interleaves patterns), so "first" is by start byte: the same file gives the same rows.
            if known is None or (member, kind == _CALL, -start) > (known[3], known[2] == _CALL, -known[4]):
                kept[key] = (name, line, kind, member, start)
        # the keys alone sorted: (line, name) pairs compare faster than items
        return list(map(_ROW, map(kept.__getitem__, sorted(kept))))

    def _tests(self, root: ts.Node) -> list[tuple[int, int]]:
        """The line spans of the test code in the tree (Syntax.test_nodes, and the items an attribute
        of Syntax.test_attributes marks, from the attribute on)."""
        context = self._context(root)
        spans = [(node.start_point[0] + 1, _end_line(node)) for node in context.get("test", ())]
        marking = _test_attribute(self.language)
        if marking is None:
            return spans
        passed = (*self.syntax.attributes, *self.syntax.comments)
        for attribute in context.get("test_attribute", ()):
            if not marking.match(self._text(attribute)):
                continue
            if attribute.type in self.syntax.inner_attributes:
                spans += _holder_span(attribute)
                continue
            item = attribute.next_named_sibling
            while item is not None and item.type in passed:
                item = item.next_named_sibling
            if item is not None:
                spans.append((attribute.start_point[0] + 1, _end_line(item)))
                self._declared_test_module(item)
        return spans

    def _declared_test_module(self, item: ts.Node) -> None:
        """A module marked as test code whose body is in a file of its own (Rust's `#[cfg(test)] mod
        tests;`): the paths that file would have, in self.test_modules."""
        name = item.child_by_field_name("name")
        if item.type == "mod_item" and item.child_by_field_name("body") is None and name is not None:
            path = self._path_attribute(item)
            if path:
                self.test_modules.append(
                    posixpath.normpath(posixpath.join(posixpath.dirname(self.path), path))
                )
            else:
                self.test_modules += rust_module_files(self.path, self._text(name))

    def _path_attribute(self, item: ts.Node) -> str:
        """The file a module declared without a body is read from when an attribute names it (Rust's
        `#[path = "unix.rs"] mod imp;`, relative to the declaring file's folder), "" when none does."""
        before = item.prev_named_sibling
        while before is not None and before.type in (*self.syntax.attributes, *self.syntax.comments):
            found = _PATH_ATTRIBUTE.fullmatch(self._text(before))
            if found:
                return found["path"]
            before = before.prev_named_sibling
        return ""

    def _text(self, node: ts.Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


# --- the imports of the first languages, read by their own rules ---------------------------------


def _imported_name(name: ts.Node) -> ts.Node:
    """`a.b` of `a.b as c` (the grammar requires it), or the name itself when it is not aliased."""
    if name.type != "aliased_import":
        return name
    target = name.child_by_field_name("name")
    assert target is not None
    return target


def _imports_python(reader: SyntaxReader, node: ts.Node) -> Iterator[Import]:
    line = node.start_point[0] + 1
    if node.type == "import_statement":
        for name in node.children_by_field_name("name"):
            target = _imported_name(name)
            yield Import(reader._text(target), [], line)
    elif node.type == "import_from_statement":
        module = node.child_by_field_name("module_name")
        names = []
        for name in node.children_by_field_name("name"):
            target = _imported_name(name)
            names.append(reader._text(target))
        if any(child.type == "wildcard_import" for child in node.children):
            names.append("*")
        yield Import(reader._text(module) if module is not None else ".", names, line)


def _imports_cython(reader: SyntaxReader, node: ts.Node) -> Iterator[Import]:
    """Python's imports, `cimport`s among them (masked to `import`), and `include "a.pxi"` (masked to
    `exec    "a.pxi"`: a real `exec` of Python 2 is no include): the file named, as it is written."""
    if node.type != "exec_statement":
        yield from _imports_python(reader, node)
        return
    code = node.child_by_field_name("code")
    if code is not None and code.type == "string" and reader.source.startswith(b"include", node.start_byte):
        yield Import(reader._text(code).strip("'\""), [], node.start_point[0] + 1)


def _imports_typescript(reader: SyntaxReader, node: ts.Node) -> Iterator[Import]:
    line = node.start_point[0] + 1
    if node.type == "import_statement":
        source = node.child_by_field_name("source")
        if source is None:
            require = next((n for n in _descendants(node) if n.type == "call_expression"), None)
            if require is not None:  # `import x = require("fs")`
                yield from _imports_typescript(reader, require)
            return
        names = [
            reader._text(n.child_by_field_name("name") or n if n.type == "import_specifier" else n)
            for n in _descendants(node)
            if n.type in ("import_specifier", "identifier") and n.parent is not None
            and n.parent.type in ("import_clause", "named_imports", "namespace_import")
        ]  # fmt: skip
        yield Import(reader._text(source).strip("'\"`"), names, line)
    elif node.type == "export_statement":  # a re-export, `export { a } from "./b"`, `export * from "./c"`
        source = node.child_by_field_name("source")
        if source is not None:
            names = [
                reader._text(n.child_by_field_name("name") or n)
                for n in _descendants(node)
                if n.type == "export_specifier"
            ]
            yield Import(reader._text(source).strip("'\"`"), names, line)
    elif node.type == "call_expression":
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        calls_loader = function is not None and reader._text(function) in ("require", "import")
        if calls_loader and arguments is not None and arguments.named_children:
            argument = arguments.named_children[0]
            if argument.type == "string":
                yield Import(reader._text(argument).strip("'\"`"), [], line)


def _imports_go(reader: SyntaxReader, node: ts.Node) -> Iterator[Import]:
    for spec in _descendants(node):
        if spec.type == "import_spec":
            path = spec.child_by_field_name("path")
            alias = spec.child_by_field_name("name")
            if path is not None:
                names = [reader._text(alias)] if alias is not None else []
                yield Import(reader._text(path).strip('"`'), names, spec.start_point[0] + 1)


_SPACES = re.compile(r"\s+")
# Rust's `#[path = "windows/sys.rs"]` before a `mod imp;`: the file the module is.
_PATH_ATTRIBUTE = re.compile(r'#\[\s*path\s*=\s*"(?P<path>[^"]+\.rs)"\s*\]')


def _imports_rust(reader: SyntaxReader, node: ts.Node) -> Iterator[Import]:
    if node.type == "mod_item":  # `mod tax;` brings in tax.rs (or tax/mod.rs) beside this module
        name = node.child_by_field_name("name")
        path = reader._path_attribute(node)  # `#[path = "unix.rs"] mod imp;`: that file (deps.py)
        if name is not None:
            yield Import(path or f"self::{reader._text(name)}", [], node.start_point[0] + 1)
        return
    argument = node.child_by_field_name("argument")
    if argument is None:
        return
    text = _SPACES.sub("", reader._text(argument))
    module, _, rest = text.partition("::{")
    if rest:
        names = [part.split("::")[-1].split(" as ")[0] for part in rest.rstrip("}").split(",") if part]
    else:
        module, _, last = text.rpartition("::")
        names = [last.split("as")[0]] if last else []
    yield Import(module or text, [n for n in names if n], node.start_point[0] + 1)


_PERL_PARENTS = frozenset({"parent", "base"})  # `use parent qw(A B)`: the pragma loads A and B
_PERL_QUOTED = frozenset({"string_literal", "quoted_word_list"})  # 'A', qw(A B); not "$interpolated"


def _imports_perl(reader: SyntaxReader, node: ts.Node) -> Iterator[Import]:
    """`use Carp;`, `require Carp;`: the module; `use parent -norequire, 'A', 'B'` and `use base 'A'`:
    the classes it inherits from, not the pragma; and a package named among a module's arguments
    (`use Pottery::Base 'Pottery::Oven'`, the parent class by Mojo::Base's and its kin's convention)."""
    line = node.start_point[0] + 1
    module = node.child_by_field_name("module") if node.type == "use_statement" else None
    if module is None:
        named = next((n for n in node.named_children if n.type == "bareword"), None)
        if named is not None:  # `require Pottery::Clay`
            yield Import(reader._text(named), [], line)
        return
    name = reader._text(module)
    words = [
        word
        for n in _descendants(node)
        if n.type == "string_content" and n.parent is not None and n.parent.type in _PERL_QUOTED
        for word in reader._text(n).split()
    ]
    if name in _PERL_PARENTS:
        yield from (Import(word, [], line) for word in words if not word.startswith("-"))
        return
    yield Import(name, [], line)
    yield from (Import(word, [], line) for word in words if "::" in word and word != name)


_IMPORT_READERS: dict[str, Callable[[SyntaxReader, ts.Node], Iterator[Import]]] = {
    "perl": _imports_perl,
    "python": _imports_python,
    "cython": _imports_cython,
    "typescript": _imports_typescript,
    "go": _imports_go,
    "rust": _imports_rust,
}


# --- helpers --------------------------------------------------------------------------------------


# Declarators that make a declaration a function's (C++'s `operator bool() const;` is one whole).
_FUNCTION_DECLARATORS = frozenset({"function_declarator", "operator_cast"})


def _declared(node: ts.Node, field_name: str) -> ts.Node | None:
    """The next declarator inward: the field, else the one child of C++'s `&`/`&&` declarator
    (`Money& operator<<(int)`, `const T& at(size_t)`), which holds it under no field; an
    `operator bool()` is where a walk ends, its name found."""
    if node.type == "operator_cast":
        return None
    found = node.child_by_field_name(field_name)
    if found is None and node.type == "reference_declarator" and node.named_children:
        found = node.named_children[-1]
    return found


def _announced(value: ts.Node | None) -> bool:
    """C's `struct node` without a body: a use of the type, or its announcement, not its definition."""
    if value is None or not value.type.endswith("_specifier"):
        return False
    return value.child_by_field_name("body") is None


def _declarator_name(node: ts.Node, step: str) -> ts.Node | None:
    """A binding's name (Binding.name): a path, or a field ending in "*" followed inward through C's
    declarators to the name they declare: `typedef int *intptr`, `typedef char name_t[32]`, `typedef
    void (*close_cb)(handle *h)` (and Apple's blocks, `(^done)(int)`) name `intptr`, `name_t`,
    `close_cb`, `done`. A walk that ends on no name gives the outermost declarator, as before."""
    if not step.endswith("*"):
        return _step(node, step)
    field_name = step[:-1]
    outer = current = node.child_by_field_name(field_name)
    while current is not None and not current.type.endswith("identifier"):
        if current.type == "parenthesized_declarator":  # `(*close_cb)`: its one declarator, no field
            current = next((c for c in reversed(current.named_children) if c.type != "ERROR"), None)
        else:
            current = _declared(current, field_name)
    return current if current is not None else outer


def _itself_or_child(node: ts.Node, types: Collection[str]) -> ts.Node | None:
    """`node` if it is of one of `types`, else its first named child that is (a definition that is a
    signature, or holds one: Syntax.operators, Syntax.constructors); None at once for no types."""
    if not types:
        return None
    if node.type in types:
        return node
    return next((c for c in node.named_children if c.type in types), None)


def _step(node: ts.Node, step: str) -> ts.Node | None:
    """One step of a path: a field of `node`, else its first named child of that type; "0" is its
    first named child; "**t" its first descendant of type t; a/b is a then b; a|b is a, else b."""
    if "|" in step:
        return next((found for path in step.split("|") if (found := _step(node, path)) is not None), None)
    current: ts.Node | None = node
    for part in step.split("/"):
        if current is None or not part:
            return current
        if part == "0":
            current = current.named_children[0] if current.named_children else None
            continue
        if part.startswith("**"):
            current = next((n for n in _descendants(current) if n.type == part[2:]), None)
            continue
        found = current.child_by_field_name(part)
        current = (
            found if found is not None else next((c for c in current.named_children if c.type == part), None)
        )
    return current


# A line with code: not only what closes or divides a block (`end`, `}`, `else`, `} else {`, `#endif`),
# which between a class's members (methods defined under an `if`) is no chunk of its own.
_CODE_LINE = re.compile(r"^(?!\s*(?:end|else|\}\)?;?|\);?|\}?\s*else\s*\{|#\s*(?:else|endif)\b.*)\s*$).*\w")


def _holds_word(line: str, name: str) -> bool:
    r"""`name` in `line` with no word character or `$` touching it on either side: the regex
    `(?<![\w$])name(?![\w$])` (`\w` is `isalnum()` or `_`), without compiling one per name (a
    large tree's definitions are thousands of names, each a miss of `re`'s cache)."""
    at, size = line.find(name), len(name)
    while at >= 0:
        end = at + size
        if not (at and _is_word_char(line[at - 1])) and not (end < len(line) and _is_word_char(line[end])):
            return True
        at = line.find(name, at + 1)
    return False


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char in "_$"


def _cover(covered: bytearray, first: int, last: int) -> None:
    """Mark `covered[first..last]` (nothing when last < first), as many times faster than line by line."""
    if 0 <= first <= last < len(covered):
        covered[first : last + 1] = b"\1" * (last - first + 1)
    else:  # out of range: as the loop it replaces did (an IndexError, or a negative index's wrap)
        for line in range(first, last + 1):
            covered[line] = 1


_UNCOVERED = re.compile(rb"\x00+")  # a run of lines that _cover did not mark


def _runs(lines: list[int]) -> Iterator[list[int]]:
    """Consecutive line numbers in runs of at most MODULE_GAP_LINES, blank lines cut off the ends."""
    run: list[int] = []
    for number in lines:
        if run and (number != run[-1] + 1 or len(run) >= MODULE_GAP_LINES):
            yield run
            run = []
        run.append(number)
    if run:
        yield run


def _joined_spans(spans: list[tuple[int, int]], lines: list[str]) -> list[tuple[int, int]]:
    """Line spans sorted, those that overlap or have only blank lines between them joined (a `#[test]
    fn` inside a `#[cfg(test)] mod` is one span, two `test` blocks one after the other too)."""
    joined: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if joined and all(not line.strip() for line in lines[joined[-1][1] : start - 1]):
            joined[-1] = (joined[-1][0], max(joined[-1][1], end))
        else:
            joined.append((start, end))
    return joined


def rust_module_files(declaring: str, name: str) -> list[str]:
    """The paths a Rust module `name` declared by `mod name;` in the file `declaring` is read from: beside
    a crate root or `mod.rs` (src/lib.rs: src/name.rs), else in the folder named after the file
    (src/kettle.rs: src/kettle/name.rs); each as `name.rs` or `name/mod.rs`."""
    folder, file = posixpath.split(declaring)
    if file not in ("mod.rs", "lib.rs", "main.rs"):
        folder = posixpath.join(folder, posixpath.splitext(file)[0])
    stem = posixpath.join(folder, name)
    return [f"{stem}.rs", f"{stem}/mod.rs"]


def _holder_span(inner: ts.Node) -> list[tuple[int, int]]:
    """The line span of what an inner attribute (`#![cfg(test)]`) stands in: the whole file at its top,
    the module whose body holds it (`mod x { #![cfg(test)] ... }`); none elsewhere."""
    body = inner.parent
    if body is not None and body.parent is None:  # the file's root
        return [(1, _end_line(body))]
    holder = body.parent if body is not None else None
    return [(holder.start_point[0] + 1, _end_line(holder))] if holder is not None else []


def _end_line(node: ts.Node) -> int:
    """The last line of a node (1-based): a node that ends with its newline (`#define X 1\n`) ends
    on the line of that newline, not the next."""
    row, column = node.end_point
    return row if column == 0 and row > node.start_point[0] else row + 1


def _unquoted(text: str) -> str:
    """A name written in quotes (Zig's `test "name"`, Kotlin's backquoted `fun`) without them; a name
    that only ends in one keeps it (Haskell's `focusUp'`, `foldl'`)."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        return text[1:-1]
    return text


def _call_head(argument: ts.Node) -> ts.Node | None:
    """The name in the head of an Elixir definition: `Ecto.Repo`, `get(a, b)`, `name`, `f(x) when g`,
    and the operator an operator's definition defines (`def a <~> b`: `<~>`)."""
    if argument.type in ("alias", "identifier"):
        return argument
    if argument.type == "call":
        return argument.child_by_field_name("target")
    if argument.type == "binary_operator":
        operator = argument.child_by_field_name("operator")
        if operator is not None and operator.type not in ("when", "::"):  # not `f(x) when g`, `f(x) :: t`
            return operator
        left = argument.child_by_field_name("left")
        return _call_head(left) if left is not None else None
    return None


def _unchained(
    declarator: ts.Node, value: ts.Node | None, binding: Binding
) -> tuple[list[ts.Node], ts.Node | None]:
    """An assignment's value through a chain of them (`req.get = req.header = function header`: one
    value, two names): the assignments passed through, and the value at the end."""
    chained: list[ts.Node] = []
    while value is not None and value.type == declarator.type and binding.value and not binding.declarators:
        chained.append(value)
        value = _step(value, binding.value)
    return chained, value


def _chosen(value: ts.Node | None, binding: Binding) -> list[ts.Node]:
    """The values of a known kind a choice can take (Binding.alternatives: the structs of Zig's `switch
    (os) { .linux => struct {...}, else => void }`), through choices nested in it; [] for no choice."""
    arm = binding.alternatives.get(value.type) if value is not None else None
    if value is None or arm is None:
        return []
    found: list[ts.Node] = []
    for child in value.named_children:
        for option in child.named_children if arm and child.type == arm else [child]:
            found.extend([option] if option.type in binding.kinds else _chosen(option, binding))
    return found


def _uncast(value: ts.Node | None, binding: Binding, top_level: bool) -> ts.Node | None:
    """The value a binding defines through casts (Binding.casts) and, at the top level, the function or
    class a wrapping call is given first (Binding.wrapping_call); else the value itself."""
    while value is not None and value.type in binding.casts and value.named_children:
        value = value.named_children[0]
    if value is None or not top_level or value.type != binding.wrapping_call or not _wraps(value):
        return value
    arguments = value.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    while first is not None and first.type in binding.casts and first.named_children:
        first = first.named_children[0]
    return first if first is not None and first.type in binding.kinds else value


def _wraps(call: ts.Node) -> bool:
    """A call that makes a definition of the function it is given: one by name (`memo(...)`) or on a
    capitalised namespace (`Object.assign`, `React.forwardRef`, `Effect.fn`), not a method of a value
    (`values.map((n) => n * 2)` is an array)."""
    callee = call.child_by_field_name("function")
    if callee is not None and callee.type == "member_expression":
        callee = callee.child_by_field_name("object")
        return callee is not None and callee.type == "identifier" and callee.text[:1].isupper()  # type: ignore[index]
    return callee is not None and callee.type == "identifier"


def _placed(binding: Binding, qualifier: str, kind: str) -> tuple[str | None, str, bool]:
    """Where a definition by assignment belongs: (its parent, its kind, whether it is the module's
    own). `exports.f` is the module's (no parent), `exports.describe.only` describe's, and
    `Runner.prototype.run` a method of Runner (Binding.module_names, Binding.member_segments)."""
    if qualifier in binding.module_names:
        return None, kind, True
    for module in sorted(binding.module_names, key=len, reverse=True):
        if qualifier.startswith(module + "."):
            return qualifier[len(module) + 1 :], kind, True
    holder, _, segment = qualifier.rpartition(".")
    if holder and segment in binding.member_segments:
        return holder, binding.member_segments[segment], False
    return qualifier, kind, False


_PARENTHESIZED_OPERATOR = re.compile(r"\(\s*(?P<operator>(?:let|and)?[^\w\s()'\"]+)\s*\)")


def _unparenthesized(text: str) -> str:
    """An operator as it is used: Haskell's `(<+>)` and OCaml's `( +! )`, `( let* )` define `<+>`,
    `+!` and `let*`."""
    operator = _PARENTHESIZED_OPERATOR.fullmatch(text)
    return operator["operator"] if operator is not None else text


def _split_qualified(text: str) -> tuple[str, str | None]:
    """('bar', 'Foo') for 'Foo::bar', 'Foo.bar' or 'Foo:bar'; (text, None) for a plain name."""
    scope, colons, operator = text.rpartition("::operator")
    if colons and scope and not operator[:1].isalnum() and operator[:1] != "_":  # `Money::operator==`
        return "operator" + operator, _GENERICS.sub("", scope)
    if not _QUALIFIED.match(text):
        return text, None
    plain = _GENERICS.sub("", text)
    parts = _SEPARATOR.split(plain)
    separator = _SEPARATOR.findall(plain)[-1]
    return parts[-1], separator.join(parts[:-1]) if len(parts) > 1 else None


def _plain(text: str) -> str:
    """A type's name without its generic arguments: `Foo<T>` -> `Foo`, `&'a mut Foo` -> `Foo`."""
    plain = text
    while True:
        stripped = _GENERICS.sub("", plain)
        if stripped == plain:
            break
        plain = stripped
    words = re.findall(r"[\w$]+(?:(?:::|\.)[\w$]+)*", plain.replace("mut ", " ").replace("dyn ", " "))
    return words[-1] if words else text


_REFERENCE, _IMPORT, _CALL = "reference", "import", "call"  # a reference's kinds (Reference.kind)
_START_BYTE = operator.attrgetter("start_byte")
_ROW = operator.itemgetter(0, 1, 2, 3)  # a reference's row, of what _references keeps


class _ReferenceNames(dict[bytes, "str | None"]):
    """A captured identifier's bytes -> the name it refers to, None if it is not kept as a reference
    (_reference_name): each distinct name decoded once across files, by a dict's own look-up."""

    LIMIT = 131_072  # distinct names kept; past it the cache starts again

    def __init__(self, skipped: frozenset[str]):
        super().__init__()
        self.skipped = skipped

    def __missing__(self, raw: bytes) -> str | None:
        if len(self) >= self.LIMIT:
            self.clear()
        name = self[raw] = _reference_name(raw, self.skipped)
        return name


@functools.lru_cache(maxsize=64)
def _reference_names(skipped: frozenset[str]) -> _ReferenceNames:
    """The names of the references of each language's skipped names (SyntaxReader._skipped)."""
    return _ReferenceNames(skipped)


def _reference_name(raw: bytes, skipped: frozenset[str]) -> str | None:
    """The name a captured identifier's bytes refer to, or None if it is not kept as a reference."""
    name = raw.decode("utf-8", errors="replace")
    if "." in name:  # an Elixir alias, `Ecto.Repo`: the module it names
        name = name.rsplit(".", 1)[-1]
    if name in skipped or not name or name.isdigit():
        return None
    return name


def _descendants(node: ts.Node) -> Iterator[ts.Node]:
    """Nodes below `node`, in document order."""
    cursor = node.walk()
    visited_children = False
    while True:
        current = cursor.node
        if not visited_children:
            if current is not None and current != node:
                yield current
            if cursor.goto_first_child():
                continue
            visited_children = True
        elif cursor.goto_next_sibling():
            visited_children = False
        elif not cursor.goto_parent() or cursor.node == node:
            return


def _holds_any(numbers: list[int], first: int, last: int) -> bool:
    """Whether a number of the sorted `numbers` lies in first..last."""
    index = bisect.bisect_left(numbers, first)
    return index < len(numbers) and numbers[index] <= last


def _lines_of(definitions: list[_Definition], line_count: int) -> bytearray:
    """A flag per line number (1-based, up to `line_count`): 1 where one of `definitions` stands (its
    node's lines, not its leading comment's)."""
    flags = bytearray(line_count + 2)
    for definition in definitions:
        start, end = definition.node_start, min(definition.end_line, line_count + 1)
        flags[start : end + 1] = b"\1" * max(end - start + 1, 0)
    return flags


def _stands_on(flags: bytearray, definition: _Definition) -> bool:
    """Whether a line of the definition's node is flagged (_lines_of)."""
    return any(flags[definition.node_start : definition.end_line + 1])


def _unique(chunks: list[Chunk]) -> list[Chunk]:
    """Chunks in line order, one per line range (`function a(){} function b(){}` share a line)."""
    by_id: dict[str, Chunk] = {}
    for chunk in sorted(chunks, key=lambda c: (c.start_line, c.end_line)):
        by_id.setdefault(chunk.id, chunk)
    return list(by_id.values())


@functools.cache
def _doc_markers(pattern: str) -> re.Pattern[str]:
    """A language's own doc markers (Syntax.doc_markers), compiled once."""
    return re.compile(pattern, re.M)


def _doc_line(lines: list[str]) -> str:
    """The first line of a leading doc comment's text (its markers, ends and markup taken out), read
    from the comment's first DOC_HEAD_LINES lines when it is there whole: a Javadoc or a Rust doc runs
    to tens of lines, and the regexes over all of them were an eighth of parsing commons-lang.

    The head gives the same line as the whole comment when that line holds no `<` (markup, the one
    substitution that joins lines, cannot start in it or in the blank lines above it) and a line
    break follows it in the head: what the cut changes is white space after the head's last text (a
    marker's or an end's white space running past the cut), which neither joins that line to another
    nor changes it stripped."""
    if len(lines) > DOC_HEAD_LINES:
        head = "\n".join(lines[:DOC_HEAD_LINES])
        found = _complete_first_line(_COMMENT_MARKERS.sub("", _COMMENT_ENDS.sub("", head)))
        if found is not None:
            return found
    comment = _COMMENT_ENDS.sub("", "\n".join(lines))
    return _first_line(_MARKUP.sub("", _COMMENT_MARKERS.sub("", comment)))


def _complete_first_line(text: str) -> str | None:
    """_first_line(text), if a line break follows that line in `text` and it holds no `<`; else None."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.strip():
            whole = index + 1 < len(lines) and "<" not in line
            return line.strip()[:MAX_SIGNATURE_CHARS] if whole else None
    return None


_PERL_CALLS = frozenset({"ambiguous_function_call_expression", "function_call_expression"})
_PERL_NAME = re.compile(r"[A-Za-z_]\w*")


def _attribute_statements(root: ts.Node) -> Iterator[ts.Node]:
    """The statements at the top level and in a block package's block."""
    for child in root.named_children:
        if child.type == "expression_statement":
            yield child
        elif child.type in ("package_statement", "class_statement"):
            for block in child.named_children:
                if block.type == "block":
                    yield from (s for s in block.named_children if s.type == "expression_statement")


_POD_COMMAND = re.compile(r"^=(head[1-6]|item)\s+(.*)$")
_POD_CODES = re.compile(r"[A-Z]<+\s*([^<>]*?)\s*>+")  # B<fire>, C<< $kiln->fire >>, L<Mojo::Base>
_POD_NAME = re.compile(r"(?:->|^\W*)([A-Za-z_]\w*)")  # `fire`, `$kiln->fire($pot)`: from the last `->`


def _add_pod_docs(symbols: list[Symbol], lines: list[str]) -> None:
    """POD's docs given to the symbols no comment documents: the paragraph after `=head2 fire` or
    `=item fire` (`=item $kiln->fire($pot)`) to the subs named `fire`, the line after `=head1 NAME`
    (`Pottery::Kiln - Fire pots`) to the package it names; verbatim (indented) paragraphs passed over."""
    undocumented = [s for s in symbols if not s.doc]
    if not undocumented or not any(line.startswith("=") for line in lines):
        return
    docs: dict[str, str] = {}
    for command, heading, paragraph in _pod_paragraphs(lines):
        if command == "head1" and heading.strip() == "NAME":
            package, dash, summary = paragraph.partition(" - ")
            if dash and summary:
                docs.setdefault(package.strip(), summary.strip())
            continue
        heading = _POD_CODES.sub(r"\1", heading)
        named = _POD_NAME.search(heading, heading.rfind("->") if "->" in heading else 0)
        if named and paragraph:
            docs.setdefault(named[1], paragraph)
    for symbol in undocumented:
        if symbol.kind in ("module", "class"):
            symbol.doc = docs.get(_package_name(symbol), "")
        elif symbol.kind in CALLABLE:
            symbol.doc = docs.get(symbol.name, "")


def _package_name(symbol: Symbol) -> str:
    """A Perl package's full name (`Pottery::Kiln`), read as `Kiln` of `Pottery` by the separator."""
    return f"{symbol.parent}::{symbol.name}" if symbol.parent else symbol.name


def _pod_paragraphs(lines: list[str]) -> Iterator[tuple[str, str, str]]:
    """Each `=headN`/`=item` command of the POD in `lines` as (command, heading, the first line of
    the first ordinary paragraph after it and before the next command, formatting codes taken out)."""
    in_pod, command, heading, text = False, "", "", list[str]()
    for line in [*lines, "=cut"]:
        if line.startswith("="):
            if command:
                yield command, heading, _first_line(_POD_CODES.sub(r"\1", " ".join(text)))
            found = _POD_COMMAND.match(line.rstrip())
            in_pod = not line.startswith("=cut")
            command, heading, text = (found[1], found[2], []) if found else ("", "", [])
        elif in_pod and command:
            if not line.strip():
                if text:
                    yield command, heading, _first_line(_POD_CODES.sub(r"\1", " ".join(text)))
                    command = ""
            elif not text and line[0].isspace():
                continue  # a verbatim paragraph (code), not the description
            else:
                text.append(line.strip())


def _first_line(text: str) -> str:
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()[:MAX_SIGNATURE_CHARS]
    return ""
