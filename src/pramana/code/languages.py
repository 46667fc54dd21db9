"""The languages pramana knows: one table drives file extensions, grammars, what counts as a
definition, a call, an import or a test, for every language.

Adding a language is one entry in LANGUAGES (and a test in tests/code/test_languages.py): its file
names, the PyPI wheel with its tree-sitter grammar, and its `Syntax`, the node types and query
patterns the generic reader (parse/syntax.py) follows. A language without a grammar (`syntax=None`)
is indexed as text, cut into windows of lines.

Node types and fields come from each grammar's node-types.json; tests/code/test_languages.py checks
that every one named here exists in the installed grammar, so a grammar upgrade that renames one fails
a test rather than quietly losing definitions.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from types import MappingProxyType

Kinds = Mapping[str, str]


def _frozen(mapping: Mapping[str, str] | None = None, **more: str) -> Kinds:
    return MappingProxyType({**(mapping or {}), **more})


@dataclass(frozen=True)
class Binding:
    """A declaration that defines something through its value: `const f = () => {}` (JS),
    `const Parser = struct {...}` (Zig), `type Server struct {...}` (Go), `M.load = function` (Lua).

    `declarators`: the child node types holding one name and value each (none: the node itself);
    `name`/`value`: a field name, or a node type (the first child of that type); `kinds`: the value's
    node type -> the definition's kind (values of other types define nothing, unless `default`)."""

    kinds: Kinds
    declarators: tuple[str, ...] = ()
    name: str = "name"
    value: str = "value"
    default: str | None = None
    # A path (as `name`) into the declared type that makes a value of another kind a function:
    # TypeScript's `export const map: { (f): ...; (self, f): ... } = internal.map`, the overloads of a
    # function written as a typed constant (how Effect and fp-ts define their whole API).
    typed: str = ""
    # Values that make a table a class or a module when the file defines members on it (Lua's
    # `local M = {}` with `function M.load()`, `local Map = class()` with `function Map:get()`): a
    # class if a member is a method, else a module; nothing when no member is defined on it.
    owners: frozenset[str] = frozenset()
    # Values of an owner that define a module even when no member is defined on it, bound to a plain
    # name outside every function (Lua's data tables, `local reason_phrases = setmetatable({...}, mt)`,
    # `config = { port = 80 }`): node types of the value, or of a call's first argument. Not a number
    # or a string (`local x = 1`): a value that is no table is no definition, as in every language.
    tables: frozenset[str] = frozenset()
    # Qualifier segments that say where a member lives -> the kind they make it (JavaScript's
    # `Runner.prototype.run = function`: a method `run` of Runner).
    member_segments: Kinds = field(default_factory=dict)
    # Names that stand for the file's own module (CommonJS `exports.f = ...`, `module.exports.f`): what
    # is defined on one is a top-level, exported definition; one assigned whole (`module.exports =
    # function lookupFiles`) is named by the value's own name, and defines nothing without one.
    module_names: frozenset[str] = frozenset()
    # Calls whose value is a new type, `receiver.method` -> kind: Ruby's `Point = Struct.new(:x, :y) do
    # ... end`, `ParseError = Class.new(StandardError)`; the methods of the call's block are its members.
    factories: Kinds = field(default_factory=dict)
    # Nodes around a value that leave it the same value (TypeScript's `function f() {} as any`,
    # `(() => {})`, `f!`): the value is the one inside.
    casts: frozenset[str] = frozenset()
    # A call node type: a top-level value that is such a call with a function or a class as its first
    # argument defines that function or class (`Object.assign(function flow() {}, {...})`, React's
    # `memo((props) => ...)` and `forwardRef(...)`, Effect's `Effect.fn(function* () {...})`).
    wrapping_call: str = ""
    # Values that choose one of several values, node type -> the node type of one arm ("" when the
    # values are its own children): Zig's `const Impl = switch (os) { .linux => struct {...}, else =>
    # void }` and `if (single) struct {...} else struct {...}`. The binding defines what its first
    # chosen value of a known kind defines, and the members of every chosen value are its own.
    alternatives: Kinds = field(default_factory=dict)
    # Calls whose value is a class, by the last name of what they call (`class`, `pl.class`,
    # `setmetatable`) -> a field that a later table argument must hold with a name as its value (the
    # class's base), "" for none: Lua's `local Animal = class{...}`, `Foo = setmetatable({}, {
    # __index = Base })`. The functions of the call's first table argument are the class's methods.
    class_calls: Kinds = field(default_factory=dict)


@dataclass(frozen=True)
class CallDefinitions:
    """Definitions written as calls (Elixir's `def name(args) do`, `defmodule Name do`): the call node
    type, the field holding the callee, and callee -> kind. The name is the first argument."""

    node: str
    callee: str
    kinds: Kinds
    private: frozenset[str] = frozenset()  # callees that define something private (`defp`)
    # The keyword argument of a container naming what its members implement the protocol for (Elixir's
    # `defimpl Enumerable, for: List` defines `Enumerable.List`; without it, for the enclosing module).
    target_keyword: str = ""
    # Attributes that declare without defining (Elixir's `@callback fetch(id) :: term` of a behaviour):
    # the node wrapping such a call (`@`), and attribute -> kind. Symbols without chunks of their own.
    attribute_node: str = ""
    attributes: Kinds = field(default_factory=_frozen)


@dataclass(frozen=True)
class Syntax:
    """How the generic reader finds definitions, references and imports in one grammar."""

    # node type -> kind of what it defines: function, method (a function inside a class is one
    # anyway), class, interface, type, module or macro.
    definitions: Kinds
    # node type -> {keyword child: kind}: one node type for several kinds (Swift's class_declaration
    # is a class, struct, enum or extension by its keyword); "" names the kind for "none of these",
    # and a keyword mapped to "container" makes it a container (below) named by the definition's name.
    keywords: Mapping[str, Kinds] = field(default_factory=dict)
    # node type -> how its name is found when it has no `name` field: a field or node type, then the
    # next step after "/"; a step ending in "*" is followed as long as it goes (C's nested declarators);
    # "=init" names it `init` (Swift's initialisers have no name).
    names: Kinds = field(default_factory=dict)
    # Node types around a definition that belong to it (decorators, templates, `export`): type -> the
    # field holding the definition ("" for its first child that is one).
    wrappers: Kinds = field(default_factory=dict)
    # Node types whose members are definitions of an owner without being one (Rust's `impl T`, Swift's
    # `extension T`, C++ namespaces): type -> the field or node type naming the owner ("" for none:
    # members stay where they are, as in a namespace).
    containers: Kinds = field(default_factory=dict)
    # Expressions that define members in place, members of the definition around them (Java's
    # anonymous class in a field's initializer, `Visitor v = new Visitor() { void head() {...} }`):
    # symbols without chunks of their own, their text staying in the chunk of what holds them.
    inline: frozenset[str] = frozenset()
    # Node types read through, as if their children stood where they stand (preprocessor
    # conditionals, `extern "C" {}`, the parser's ERROR nodes around code it could not read).
    transparent: frozenset[str] = frozenset({"ERROR"})
    # Conditionals read through as transparent ones are, whose methods in a class body are symbols
    # without chunks of their own (Ruby's `if defined?(::Gem) def call ... else def call ... end`):
    # both branches stay in one chunk of the class, the condition with them. Classes in them, and
    # what is at a file's top level, are chunked as any definition.
    conditionals: frozenset[str] = frozenset()
    # Conditionals whose definitions are symbols without chunks of their own wherever they stand, the
    # conditional's text staying whole in the chunks around it: Lua's small implementations, one per
    # library (`if bit32 then function M.xor() ... end elseif jit then function M.xor() ... end`), read
    # best as one piece (chunked apart, lua-http's zlib.lua lost the query that names it).
    whole_conditionals: frozenset[str] = frozenset()
    # Node types holding a definition's members when it has no `body` field.
    bodies: frozenset[str] = frozenset()
    # Definitions that, written without a body, own what follows them up to the next one of these
    # (Perl's `package Shop::Cart;`: the subs after it, up to the next `package`, are Shop::Cart's).
    sections: frozenset[str] = frozenset()
    # Node types that define what belongs to no type wherever they are written: Objective-C's C
    # functions and macros between `@implementation Widget` and `@end` are not Widget's methods.
    ownerless: frozenset[str] = frozenset()
    # node type -> the field or node type holding the type a function belongs to, written before its
    # name (Go's receiver `func (s *Server) Start()`, Kotlin's `fun Table.extend()`).
    receivers: Kinds = field(default_factory=dict)
    # Properties computed by code (Swift's `var area: Double { ... }`, Kotlin's `val Size.long get() =
    # ...`), unlike stored ones: node type -> the child (a field or node type) that makes one a
    # definition: a function, a method of the type it is in or extends (`names` finds its name), a
    # symbol without a chunk of its own, as `declarations` are. Where `names` finds no name, the
    # identifier beside the function in what holds it names it (Dart's `final F onTap = () {}`).
    # Also a stored property whose getter and setter the language writes for it (F#'s auto-property
    # `member val Litres = 0 with get, set`, as C#'s `{ get; set; }` is a symbol), even in a node
    # type otherwise `transparent` (below).
    computed: Kinds = field(default_factory=dict)
    # Declarations without a body of their own that are still symbols (C prototypes, C++ methods
    # declared in a class): node type -> the kind they declare. They get no chunk of their own.
    declarations: Kinds = field(default_factory=dict)
    bindings: Mapping[str, Binding] = field(default_factory=dict)
    call_definitions: CallDefinitions | None = None
    # Definitions that may have no name, whose members then belong to another type: node type -> the
    # field naming it (Dart's `extension on BuildContext {...}` adds methods to BuildContext).
    unnamed: Kinds = field(default_factory=dict)
    # Constructors named by the identifiers before their parameters, the type's then their own
    # (Dart's `Square.unit()`, `factory Shape.fromJson(...)`, `const Color(...)`: no `name` field):
    # node types of such signatures, found as the definition or as one of its children.
    constructors: frozenset[str] = frozenset()
    # Operators named by the keyword `operator` and what follows it up to their parameters (C#'s
    # `operator +(Money a, Money b)`, `implicit operator decimal(Money m)`, Dart's `operator ==(...)`,
    # `operator [](int i)`): node type -> the field or node type of the parameters; the name is
    # `operator+`, `operator==`, `operator[]`, `operator decimal`, as C++'s are. Found as the
    # definition or as one of its children (Dart's `method_signature` holds an `operator_signature`).
    operators: Kinds = field(default_factory=dict)
    # A definition ends where its body ends, when the body is the next sibling (Dart's
    # `method_signature` then `function_body`): signature type -> body type.
    sibling_bodies: Kinds = field(default_factory=dict)
    identifiers: tuple[str, ...] = ("identifier",)
    # Query patterns: @call marks a name a call calls (`f` of `f()`, `g` of `x.g()`), @member a name
    # an access reaches (`g` of `x.g`, `X::g`), @import a whole import (names inside it are imports).
    calls: str = ""
    members: str = ""
    imports: str = ""
    # How an import's module and names are read: "python", "cython", "typescript", "go", "rust" (their
    # own rules), or "text": the import's @module capture (else its whole text) cleaned by `import_text`.
    import_reader: str = "text"
    import_text: str = ""  # a regex whose group "module" is the module in the import's text
    separator: str = "."  # between a module's parts (`java.util.List`), for resolving imports
    comments: tuple[str, ...] = ("comment",)
    # Leading nodes that document a definition besides comments (Elixir's `@doc`): query patterns
    # capturing @doc.
    docs: str = ""
    # Nodes between a definition's doc comment and the definition (Rust's `#[inline]`): passed over
    # to read the definition's doc (its chunk still starts at the definition, as measured best).
    attributes: tuple[str, ...] = ()
    # Test code inside a source file, ranked as test files are (search/paths.py's TEST): node types that
    # are tests whole (Zig's `test "name" {}`), and a regex on an attribute's text (of `attributes`)
    # that makes the item after it test code (Rust's `#[cfg(test)] mod tests {}`, `#[test] fn`).
    test_nodes: tuple[str, ...] = ()
    test_attributes: str = ""
    # Attributes of the item they stand inside, also matched by test_attributes (Rust's `#![cfg(test)]`
    # at a file's top: the whole file is test code; inside `mod x { ... }`: that module).
    inner_attributes: tuple[str, ...] = ()
    docstrings: bool = False  # Python: the first string of the body is the doc
    # A comment right after a definition that documents it, by how it starts (OCaml's `(** ... *)` after
    # a `val` of an interface), when no comment before it does; the first such comment before any code
    # documents a file that is a module (Language.file_module). Not one of a banner of stars `(*****`.
    trailing_docs: str = ""
    # The language's own doc markers, a regex taken out of a leading doc before the markers every
    # language shares (parse/syntax.py's _COMMENT_MARKERS): Fortran's `!>`, `!!` on each line, the
    # quotes opening a Julia docstring (`"Halve x."`, `"""Double x.`).
    doc_markers: str = ""
    # Perl's POD (`=head2 fire` / `=item fire` and the paragraph after it) documents the sub of that
    # name, and `=head1 NAME`'s `Pottery::Kiln - Fire pots` the package, when no comment above does.
    pod_docs: bool = False
    # Calls that define an attribute, an accessor method of the package around them (Moose's, Moo's and
    # Mojo::Base's `has name => ...`, `has [qw(a b)]`): symbols, in the chunk that holds them.
    attribute_calls: frozenset[str] = frozenset()
    # The grammar takes a comment into the node before it (tree-sitter-fsharp's `///` docs, extras of
    # whatever node was open): a definition ends before the comment lines it ends with, and its leading
    # comment is read from the lines above it.
    comments_in_previous: bool = False
    # What makes a definition exported (public): "python" (top level, no leading underscore), "go"
    # (a capital), "dart" (no leading underscore), "export" (an `export` wrapper), "words" (one of
    # `public` in its head, the text before its name), "not-words" (none of `private` in its head).
    exported: str = "not-words"
    public: frozenset[str] = frozenset()
    private: frozenset[str] = frozenset()
    skipped_references: frozenset[str] = frozenset()
    # Regexes over the source whose group "mask" is blanked (same length) before parsing: macros the
    # grammar cannot know, like C++'s `class FMT_API format_error` or a line holding only
    # `FMT_BEGIN_NAMESPACE`, which would otherwise make it misread the code that follows. A pattern
    # with a group "end" instead turns that one blank into `;`: the statement before ends there; a group
    # "caret", "dash", "zero", "colon" or "enum" becomes `^`, `-`, `0`, `:` or `enum` and blanks (a C++
    # lambda's capture list read as a block, a macro defining a method as its `-`, an Objective-C message
    # send read by C++'s grammar as an expression, fast enumeration's `in` as a range-for's `:`, Apple's
    # `typedef NS_ENUM(NSInteger,` as the `enum` it is). Masks are applied
    # in order, each over the original text: a later blank overwrites what an earlier one wrote.
    masks: tuple[str, ...] = ()
    # Consecutive definitions of one name are one (Haskell's equations and signature, Elixir's clauses).
    merge_clauses: bool = False
    # A grammar that gives up on a whole file at one construct it cannot read (tree-sitter-bash on
    # `${x%%[<{().[]*}`, `!(glob)`, some `[[ =~ ]]` regexes: bash-completion's main file, 78 functions,
    # was read as one ERROR holding 20): the line where the first error starts is blanked and the
    # file parsed again, at most this many times (0: never), kept if it finds more definitions.
    heal_lines: int = 0
    # Heal only a tree holding an ERROR node, not one whose only errors are missing tokens (a `;` the
    # grammar inserted), which it read whole: most of a Groovy tree's errors, 525 of CodeNarc's 870 files.
    heal_missing: bool = True
    # Definitions that only give another name to something defined elsewhere (OCaml's `module Hashtbl
    # = Hashtbl` re-exporting a file's module, dune's `module List = Base__List`): node type -> (the
    # path to its value, the value's node types that make it an alias). They define nothing.
    aliases: Mapping[str, tuple[str, frozenset[str]]] = field(default_factory=dict)
    # C's include guard (`#ifndef RING_H` then `#define RING_H`, no value) keeps a header from being
    # read twice: a macro node type whose valueless definition right under an `#ifndef` of its own
    # name defines nothing -> that `#ifndef`'s node type.
    include_guards: Kinds = field(default_factory=dict)
    # Definitions that add members to a class defined elsewhere when they hold a field (Objective-C's
    # category, `@interface Widget (Layout)`): node type -> that field. Their members are the class's.
    categories: Kinds = field(default_factory=dict)
    # A definition's kind told by its first line as written, where masks (above) made it another
    # definition's node: regex -> kind, the first that matches (Cython's `cdef enum Colour:` and
    # `ctypedef fused number_t:`, read as Python classes, are types as C's enums are).
    head_kinds: tuple[tuple[str, str], ...] = ()
    # Class node types that are interfaces when every member they have is a declaration (F#'s `type
    # IStore = abstract Load: int -> Barrel`, its way of writing an interface).
    abstract_interfaces: frozenset[str] = frozenset()
    # Class node types in whose body a statement calling the class's own name declares a constructor
    # (Cython's `cppclass Juicer:` declaring `Juicer(int n)`, read as a Python call): a method, declared.
    constructor_calls: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Rereading:
    """A file read a second time by another language's grammar, for what its own grammar cannot read
    (Objective-C++'s C++ classes, namespaces and templates, which the Objective-C grammar reads only as
    far as masks let it): that language, and masks (as Syntax.masks) blanking, for that reading, what its
    grammar cannot read, added to its own. The first reading keeps its own definitions (those of node
    types the other language's Syntax does not know: an `@implementation`); the second reading's
    definitions outside them take the place of the first reading's where they overlap (parse/syntax.py)."""

    language: str
    masks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Language:
    name: str
    extensions: tuple[str, ...]
    grammar: tuple[str, str] | None = None  # (module of the PyPI wheel, its function returning the grammar)
    syntax: Syntax | None = None
    file_names: tuple[str, ...] = ()  # whole file names (Makefile, Rakefile)
    # Test files of the ecosystem by name (regexes matched against the file name), and folders.
    test_files: tuple[str, ...] = ()
    test_dirs: tuple[str, ...] = ()
    # Folders of code generated or vendored in the ecosystem (besides paths.py's for every language).
    generated_dirs: tuple[str, ...] = ()
    # Files whose only job is to gather others (`__init__.py`, `mod.rs`, `index.ts`).
    reexports: tuple[str, ...] = ()
    # Files that are their folder's module, with code of their own (Lua's `init.lua`: `require
    # "telescope"` loads `telescope/init.lua`): the folder's name names them.
    heads: tuple[str, ...] = ()
    headers: tuple[str, ...] = ()  # extensions of declaration-only files (C/C++ headers)
    # Files whose lines outside every definition document the whole package (Rust's crate root
    # `lib.rs`, its `//!` guide and `mod` list; Go's `doc.go`): they name every part, do none.
    package_docs: tuple[str, ...] = ()
    # Extensions of files that are part of the module including them (Cython's `include "a.pxi"`):
    # `etree.XMLParser` is a definition of a `.pxi` that `etree.pyx` includes.
    included: tuple[str, ...] = ()
    family: str = ""  # languages sharing a grammar and rules (tsx -> typescript)
    doc: bool = False  # documentation rather than code
    # Names that say a file without a known extension is in this language: the interpreter of its
    # `#!` line (version digits dropped: python3.11 -> python), or the mode of an editor's mode line
    # (Emacs' `-*- shell-script -*-`, Vim's `vim: ft=sh`).
    interpreters: tuple[str, ...] = ()
    # A file that is itself a definition named after it, its top-level definitions its members:
    # "capitalized" (OCaml: `hashtbl.ml` is module `Hashtbl`), "struct" (Zig: a capitalised
    # `ArenaAllocator.zig` is a struct with fields and methods; a lower-case one is a namespace).
    file_module: str = ""
    # Folders below the source root are capitalised module names (Haskell: `src/Test/Hspec.hs` is
    # module `Test.Hspec`, the namespace every test library lives in): only a lower-case folder
    # (`test/`, `tests/`) holds a test suite there.
    module_folders: bool = False
    rereading: Rereading | None = None

    @property
    def parsed(self) -> bool:
        return self.syntax is not None


# --- the syntax of each grammar -------------------------------------------------------------------

_C_FAMILY_COMMENTS = ("comment",)
_TS_FUNCTIONS = {"arrow_function", "function_expression", "generator_function"}
# What a variable or an assignment holding a function or a class defines (JavaScript's and TypeScript's).
_TS_VALUES = _frozen({value: "function" for value in _TS_FUNCTIONS}, **{"class": "class"})
# A value cast or parenthesized is the same value (`function computed() {} as any`).
_TS_CASTS = frozenset(
    {
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "type_assertion",
        "parenthesized_expression",
    }
)
# What a class field holding a function defines (JavaScript's and TypeScript's): a method.
_TS_FIELD_VALUES = _frozen({value: "method" for value in _TS_FUNCTIONS}, **{"class": "class"})

PYTHON = Syntax(
    definitions=_frozen(
        function_definition="function", class_definition="class", type_alias_statement="type"
    ),
    wrappers=_frozen(decorated_definition="definition"),
    calls="(call function: (identifier) @call) (call function: (attribute (_) @call .))",
    members="(attribute (_) @member .)",
    imports="(import_statement) @import (import_from_statement) @import",
    import_reader="python",
    docstrings=True,
    exported="python",
)

# Cython (`.pyx` modules, `.pxd` declarations, `.pxi` files a module `include`s): Python with C types,
# read by Python's grammar once masks turn its C into Python of the same length. `cdef class Name(Base)
# [ type T, object O ]:` is a class (`cdef public` and the bracketed C names blanked), and so are `cdef
# struct`, `ctypedef enum` and the old `property name:` block; `cdef inline int _name(xmlNode* c) except
# -1 nogil:` is a function (`def` over `cdef int`, the C parameters and what follows them blanked); a C
# declaration (`cdef xmlNode* c_node = x`, a struct's `int count`, `DEF LIMIT = 8`)
# becomes an assignment to `_` (`_=` over its type: `_=           c_node = x`), keeping its indentation,
# as does a function's prototype (no `:`) and a C name given in a string (`cdef int f "c_f"(int x)`) is
# blanked; Python 2's `raise E, "text"` reads `raise E - "text"`, `cdef int a = 0, b = 1` two statements,
# the old `for i from 0 <= i < n:` `for i in 0 <= i < n:`; `cimport` is an import and `include "a.pxi"`
# (read as Python 2's `exec    "a.pxi"`) one of the file it names, part of the module; `<xmlNode*>x` casts,
# `&x` addresses and `c'x'` chars are blanked to Python. C declarations are symbols without chunks: a
# prototype (`cdef int f(int x) nogil`, in an extern block `int f(int x)`) is read as `del f(     )`, a
# `ctypedef` of a plain type as `global name`, an extern block (`cdef extern from "x.h":`) as `while 1:`
# whose structs, enums, `cppclass`es and functions are symbols as they are outside it.
_CY_WORD = r"(?:[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?[ \t*&]+)"
_CY_MODIFIERS = r"(?:(?:public|private|final|api|readonly|inline|extern|packed)\s+)*"
_CY_NOT_TYPE = (
    r"(?!(?:and|as|assert|async|await|break|class|continue|def|del|elif|else|except|finally|for|from"
    r"|global|if|import|in|is|lambda|nonlocal|not|or|pass|print|raise|return|struct|union|enum|try|while"
    r"|with|yield)\b)"
)
# A C type's words before a declared name, in a C declaration of an extern block (`const char* `,
# `char *`, `vector[T]& `): no keyword, no spaced-out `a * b` (an expression's continued line).
_CY_C_WORD = rf"(?:{_CY_NOT_TYPE}[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?(?:[*&]+[ \t]+|[ \t]+[*&]*))"
# The C name a declaration may give in a string, between its name and its parameters (`cdef long
# press "orchard_press"(basket_t* b)`).
_CY_C_NAME = r'(?:[ \t]*"[^"\n]*")?'
# What may follow a C function's parameters in a declaration (`nogil`, `except -1`, C++'s `except +`,
# `const`), up to the end of its line.
_CY_AFTER = (
    r"(?:[ \t]*(?:noexcept|nogil|const|with[ \t]+gil|except[ \t]*[?*+]?[ \t]*[-\w.]*))*[ \t]*(?:#[^\n]*)?$"
)
# A parameter list's text, parentheses one deep inside it (a function pointer, `object (*pick)(object,
# int*)`; a default, `events=("end",)`), lines included.
_CY_PARAMS = r"(?:[^()]|\([^()]*\))*"
# A tuple of C types returned (`cdef (int, int) split(...)`), before a function's name.
_CY_TUPLE = r"(?:\([^()\n]*\)[ \t]+)?"
# Not the `(*name)(` of a function pointer declared (`cdef object (*pick)(object)`: a C variable).
_CY_NOT_POINTER = r"(?![ \t]*\*[ \t]*\w+[ \t]*\)[ \t]*\()"
# A C parameter with its name (`const char* name`, `int n`): no keyword among its words.
_CY_C_PARAM = rf"(?:{_CY_C_WORD})+{_CY_NOT_TYPE}\w+"
CYTHON_MASKS = (
    rf"(?m)^[ \t]*(?P<klass>(?:c?p?|ctype)def\s+{_CY_MODIFIERS}class\s+)(?=\w)",
    r"(?m)^[ \t]*(?:(?:c?p?|ctype)def\s+)?(?:\w+\s+)*(?:cpp)?class\s+(?:\w+\.)*\w+\s*(?:\([^)]*\))?\s*\\?\s*"
    r"(?P<mask>\[[^\]]*\])",
    r"(?m)^[ \t]*(?:c?p?|ctype)def\s+(?:\w+\s+)*class\s+(?P<mask>(?:\w+\.)+)(?=\w)",
    rf"(?m)^[ \t]*(?P<define>cp?def\s+{_CY_MODIFIERS}{_CY_TUPLE}(?:{_CY_NOT_TYPE}{_CY_WORD})*?)"
    rf"(?=\w+{_CY_C_NAME}\s*\({_CY_NOT_POINTER}{_CY_PARAMS}\)[^:\n]*:)",
    rf"(?m)^[ \t]*(?P<delete>cp?def\s+{_CY_MODIFIERS}{_CY_TUPLE}(?:{_CY_NOT_TYPE}{_CY_WORD})*?)"
    rf"(?=\w+{_CY_C_NAME}\s*\({_CY_NOT_POINTER}{_CY_PARAMS}\)[^:\n]*$)",
    rf"(?m)^[ \t]+(?P<delete>(?![A-Za-z_][ \t*&])(?:{_CY_C_WORD})+?)"
    rf"(?=\w+{_CY_C_NAME}\s*\([^)]*\){_CY_AFTER})",
    rf"(?m)^[ \t]*(?:cp?def\s+{_CY_MODIFIERS}{_CY_TUPLE}(?:{_CY_NOT_TYPE}{_CY_WORD})*?|(?:async\s+)?def\s+)"
    rf"\w+{_CY_C_NAME}\s*\({_CY_NOT_POINTER}(?P<mask>{_CY_PARAMS})\)",
    rf"(?m)^[ \t]+(?:{_CY_C_WORD})+?\w+{_CY_C_NAME}\s*\((?P<mask>[^)]*)\)(?=" + _CY_AFTER + ")",
    r"(?m)\)(?P<mask>[ \t]*(?:(?:noexcept|nogil|const|with\s+gil|except\s*[?*+]?[ \t]*[-\w.]*)[ \t]*)+)"
    r"(?=:|#|$)",
    r"(?m)(?<=\w)(?<!include)(?<!\bor)(?<!\band)(?<!\bnot)(?<!\bin)(?<!\bis)(?<!\bif)(?<!\belse)(?<!\breturn)"
    r"(?<!\byield)[ \t]+(?P<mask>\"[^\"\n]*\")(?=[ \t]*(?:\(|:|#|$))",
    r"(?m)^[ \t]*raise[ \t]+[\w.]+[ \t]*(?P<dash>,)",
    r"(?m)^[ \t]*cdef\b[^\n(]*?(?P<end>,)(?=[ \t]*\w+[ \t]*=[^=])",  # not a default's `, b=1`
    r"(?m)^[ \t]*for[ \t]+\w+[ \t]+(?P<within>from)\b",
    rf"(?m)^[ \t]+(?P<chain>(?:{_CY_NOT_TYPE}{_CY_WORD}){{1,4}}?)"
    rf"(?=\w+(?:\[\w*\])?{_CY_C_NAME}[ \t]*(?:#[^\n]*)?$)",
    rf"(?m)^[ \t]*(?P<chain>c(?:type)?def\s+{_CY_MODIFIERS}(?:{_CY_NOT_TYPE}{_CY_WORD})+?)"
    rf"(?=\w+(?:\[\w*\])?{_CY_C_NAME}[ \t]*(?:=|,|#|$))",
    rf"(?m)^[ \t]*(?P<typedef>ctypedef\s+{_CY_MODIFIERS}{_CY_WORD}+?)"
    rf"(?=\w+(?:\[\w*\])?{_CY_C_NAME}[ \t]*;?[ \t]*(?:#[^\n]*)?$)",
    # `cdef class Name` without a body announces a class defined later: nothing defined here.
    r"(?m)^[ \t]*(?P<chain>cdef\s+(?:(?:public|final)\s+)*class\s+)(?=\w+[ \t]*(?:#[^\n]*)?$)",
    r"(?m)^[ \t]*(?P<typedef>ctypedef\s+[^\n(:]*\([ \t]*\*[ \t]*)\w+(?P<mask>[ \t]*\)[ \t]*\([^)]*\)[^\n#]*)",
    r"(?m)^[ \t]*(?P<klass>(?:c(?:type)?def|cpdef)\s+(?:(?:public|packed|extern)\s+)*"
    r"(?:struct|union|enum|fused)\s+)(?=\w+\s*:)",
    r"(?m)^[ \t]*(?P<klass>(?:(?:struct|union)\s|(?:cdef\s+)?cppclass\s)\s*)"
    r"(?=\w+\s*(?:\[[^\]\n]*\]\s*)?(?:\([^)]*\)\s*)?:)",
    r"(?m)^[ \t]*(?P<with>enum\s)(?=\s*\w+\s*:)",
    r"(?m)^[ \t]*(?P<klass>property\s+)(?=\w+\s*:)",
    r"(?m)^[ \t]*(?P<block>cdef\s+extern\s+from\s+[^:\n]*)(?=:)",
    r"(?m)^[ \t]*(?P<block>c?p?def\s+enum\s*)(?=:)",
    r"(?m)^[ \t]*(?P<include>include)(?=[ \t]+[\"'])",
    r"(?m)^[ \t]*(?P<chain>DEF)(?=[ \t]+\w+[ \t]*=)",
    r"\b(?P<mask>c)(?=['\"])",
    r"\b(?P<mask>c)(?=import\s)",
    r"(?P<mask><[ \t]*(?:(?:const|unsigned|signed|long|short)[ \t]+)*[A-Za-z_][\w.]*(?:[ \t]*\*)*[ \t]*\??>)"
    r"(?=[ \t]*(?:[\w(<\"'&]|\\\n))",  # what a cast casts, or a line continued after it
    r"(?<=[(,=\s>])(?P<mask>&)(?=\w)",
    # A decorator of a prototype (`@cython.locals(n=int)` over `cdef int f(n)` in a `.pxd`): a call.
    r"(?m)^[ \t]*(?P<mask>@)(?=[\w.]+\([^)]*\)[ \t]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*cp?def\s[^:\n]*\)[^:\n]*$)",
    # A function pointer declared (`cdef object (*pick)(object, int*)`, in an extern block or a struct
    # `int (*cb)(int) nogil`): a C variable, `_=          pick`.
    rf"(?m)^[ \t]*(?P<chain>(?:cdef\s+{_CY_MODIFIERS}[^\n(:=#]*|[ \t](?!c(?:type)?def\b)(?:{_CY_C_WORD})+)"
    r"\([ \t]*\*[ \t]*)"
    rf"\w+(?P<mask>[ \t]*\)[ \t]*\({_CY_PARAMS}\){_CY_AFTER})",
    # `cdef total = 0` (a Python object, no C type): `_=   total = 0`; `int slots[]`'s brackets blanked.
    rf"(?m)^[ \t]*(?P<chain>cdef\s+){_CY_NOT_TYPE}(?=\w+[ \t]*=[^=])",
    r"(?<=\w)(?P<mask>\[\])",
    # `sizeof(unsigned long)`, `sizeof(xmlChar*)`: `sizeof(         long)`, `sizeof(xmlChar )`.
    r"\bsizeof\([ \t]*(?P<mask>(?:(?:unsigned|signed|long|short|const)[ \t]+)+)(?=\w)",
    r"\bsizeof\([ \t]*[\w.]+(?P<mask>[ \t]*\*[ \t*]*)\)",
    # A C++ constructor declared in a `cppclass` (`Juicer(int speed, bint cold)`): its C parameters
    # blanked (a Python call never holds `int speed`), read as the call of the class it is.
    rf"(?m)^[ \t]+\w+[ \t]*\((?P<mask>[ \t]*{_CY_C_PARAM}(?:[ \t]*,[ \t]*{_CY_C_PARAM})*[ \t]*)\){_CY_AFTER}",
    # A C++ operator declared in a `cppclass` (`bint operator==(Grinder)`, `T& operator[](size_t)`): a
    # prototype, its symbol's `_` or `__` read back as written: `del operator__(       )`. A type of three
    # characters or less (`T& operator[]`) leaves no room for `del `: such an operator stays unread.
    rf"(?m)^[ \t]+(?P<delete>(?![^\n]{{0,3}}operator)(?:{_CY_C_WORD})+?)operator"
    r"(?:(?P<under2>[=!<>+\-*/%&|^]=|\[\]|\(\)|<<|>>|\+\+|--|&&|\|\|)|(?P<under>[-+*/%<>!~&|^=,]))"
    r"[ \t]*\((?P<mask>[^()\n]*)\)" + _CY_AFTER,
)
CYTHON = dataclasses.replace(
    PYTHON,
    masks=CYTHON_MASKS,
    imports=f"{PYTHON.imports} (exec_statement) @import",  # `include "a.pxi"`, read as `exec    "a.pxi"`
    import_reader="cython",
    # A function's prototype (`cdef int f(int x) nogil`, read as `del      f(     )      `), a C type
    # (`ctypedef unsigned long size_t`, read as `global        size_t`) and an extern block's bare
    # `enum colour:` (read as `with colour:`): symbols without chunks of their own.
    declarations=_frozen(delete_statement="function", global_statement="type", with_statement="type"),
    names=_frozen(
        delete_statement="call/function",
        global_statement="identifier",
        with_statement="with_clause/with_item/identifier",
    ),
    # What a C header declares (`cdef extern from "x.h":`, read as `while 1:`): symbols, their text in
    # the chunks around them as before.
    inline=frozenset({"while_statement"}),
    head_kinds=(
        (r"^[ \t]*(?:(?:c(?:type)?|cp)def\s+)?(?:(?:public|packed|extern)\s+)*(?:enum|fused)\b", "type"),
    ),
    constructor_calls=frozenset({"class_definition"}),
)

_TS_CALLS = " ".join(
    f"({call} {field_name}: [(identifier) (property_identifier)] @call)"
    f" ({call} {field_name}: (member_expression (_) @call .))"
    for call in ("call_expression", "new_expression")
    for field_name in ("function", "constructor")
    if (call, field_name) != ("call_expression", "constructor")
    and (call, field_name) != ("new_expression", "function")
)
# TypeScript 4.7's variance annotations (`interface Effect<out A, in R>`), which
# tree-sitter-typescript 0.23 cannot read: one turns the rest of the file into an error (Effect's
# 28,000-line `Effect.ts` was 9 symbols of its 223 exported constants).
_TS_VARIANCE = r"[<,]\s*(?P<mask>(?:in\s+)?out|in)\s+[A-Za-z_$][\w$]*\s*(?=[,>=]|extends\b)"
# The type parameters of a call signature starting a line after a member with no `;` (`(): X<R>`
# then `<B>(b: B): X`), which the grammar reads as one expression with the member before: Effect's
# overloaded constants, in dprint's style. Not in .tsx, where a line may start with an element.
_TS_CALL_SIGNATURE_PARAMETERS = r"(?m)^[ \t]*(?P<mask><\s*(?:const\s+)?[A-Z][^;]{0,2000}?>)(?=\()"
TYPESCRIPT = Syntax(
    definitions=_frozen(
        function_declaration="function",
        generator_function_declaration="function",
        function_signature="function",
        class_declaration="class",
        abstract_class_declaration="class",
        interface_declaration="interface",
        type_alias_declaration="type",
        enum_declaration="type",
        method_definition="method",
        abstract_method_signature="method",
        internal_module="module",
    ),
    wrappers=_frozen(export_statement="declaration"),
    # `namespace Util { function helper() }`: Util.helper (`declare module "x"` owns nothing).
    containers=_frozen(module=""),
    transparent=frozenset({"ERROR", "expression_statement"}),
    bindings={
        **{
            kind: Binding(
                _TS_VALUES,
                declarators=("variable_declarator",),
                # Not `const f: (x: X) => Y = make(...)`: measured, zod's `safeParse` of that shape (a
                # re-export of core's) took "how safeParse returns a result" from core (0.88 -> 0.62).
                typed="type/object_type/call_signature",
                casts=_TS_CASTS,
                wrapping_call="call_expression",
            )
            for kind in ("lexical_declaration", "variable_declaration")
        },
        # Class fields holding functions (React's `handleClick = () => {}`, Angular's and NestJS's
        # `private readonly load = async (id) => ...`): methods of the class, as JavaScript's are.
        "public_field_definition": Binding(_TS_FIELD_VALUES, name="name", value="value"),
    },
    identifiers=("identifier", "property_identifier", "type_identifier", "shorthand_property_identifier"),
    calls=_TS_CALLS,
    members="(member_expression (_) @member .)",
    imports=(
        "(import_statement) @import (export_statement source: (string)) @import"
        " ((call_expression function: (_) @loader arguments: (arguments . (string) @module)) @import"
        ' (#any-of? @loader "require" "import"))'
    ),
    import_reader="typescript",
    exported="export",
    masks=(_TS_VARIANCE, _TS_CALL_SIGNATURE_PARAMETERS),
)
JAVASCRIPT = Syntax(
    definitions=_frozen(
        function_declaration="function",
        generator_function_declaration="function",
        class_declaration="class",
        method_definition="method",
    ),
    wrappers=TYPESCRIPT.wrappers,
    transparent=TYPESCRIPT.transparent,
    bindings={
        **{kind: TYPESCRIPT.bindings[kind] for kind in ("lexical_declaration", "variable_declaration")},
        # CommonJS and pre-class code: `Runner.prototype.run = function`, `exports.main = () =>`,
        # `module.exports = function lookupFiles`, `Suite.create = function` (Express, Mocha, Fastify).
        "assignment_expression": Binding(
            _TS_VALUES,
            name="left",
            value="right",
            member_segments=_frozen(prototype="method"),
            module_names=frozenset({"exports", "module.exports"}),
        ),
        # Class fields holding functions: `handle = () => {}`, `static create = () => {}`, `#run = ...`.
        "field_definition": Binding(_TS_FIELD_VALUES, name="property", value="value"),
    },
    identifiers=("identifier", "property_identifier", "shorthand_property_identifier"),
    calls=_TS_CALLS,
    members=TYPESCRIPT.members,
    imports=TYPESCRIPT.imports,
    import_reader="typescript",
    exported="export",
)
GO = Syntax(
    definitions=_frozen(function_declaration="function", method_declaration="method"),
    bindings={
        "type_declaration": Binding(
            _frozen(struct_type="class", interface_type="interface"),
            declarators=("type_spec", "type_alias"),
            value="type",
            default="type",
        )
    },
    identifiers=("identifier", "field_identifier", "type_identifier", "package_identifier"),
    calls=(
        "(call_expression function: (identifier) @call)"
        " (call_expression function: (selector_expression (_) @call .))"
    ),
    members="(selector_expression (_) @member .)",
    imports="(import_declaration) @import",
    import_reader="go",
    receivers=_frozen(method_declaration="receiver"),
    declarations=_frozen(method_elem="method"),  # an interface's `Read(p []byte) (int, error)`
    exported="go",
)
RUST = Syntax(
    definitions=_frozen(
        function_item="function",
        function_signature_item="function",
        struct_item="class",
        union_item="class",
        enum_item="type",
        trait_item="interface",
        type_item="type",
        macro_definition="macro",
    ),
    # `impl Semaphore for bounded::Semaphore`: members of the type's own name; `extern "C" { fn f(); }`:
    # foreign functions declared where they stand.
    containers=_frozen(impl_item="type/name|type/type/name|type", mod_item="", foreign_mod_item=""),
    identifiers=("identifier", "field_identifier", "type_identifier"),
    calls=(
        "(call_expression function: (identifier) @call)"
        " (call_expression function: (field_expression (_) @call .))"
        " (call_expression function: (scoped_identifier (_) @call .))"
        " (macro_invocation macro: (identifier) @call)"
    ),
    members="(field_expression (_) @member .) (scoped_identifier (_) @member .)",
    imports="(use_declaration) @import (mod_item !body) @import",
    import_reader="rust",
    separator="::",
    comments=("line_comment", "block_comment"),
    # `#[derive(...)]`, `#[inline]`, `#[cfg_attr(...)]` between a `///` doc and its item: the doc is the
    # item's (chrono's `LocalResult`, every `#[inline]` method had none).
    attributes=("attribute_item",),
    inner_attributes=("inner_attribute_item",),
    # `#[test]`, `#[tokio::test(...)]`, `#[cfg(test)]`, `#[cfg(all(loom, test))]` (not `cfg(not(test))`,
    # nor `cfg(any(test, ...))`, compiled outside tests too); `#![cfg(test)]` inside a file or module.
    test_attributes=(
        r"#!?\[\s*(?:(?:\w+\s*::\s*)*test\b(?!\s*::)"
        r"|cfg\s*\(\s*(?:all\s*\(\s*(?:(?:[^()]|\([^()]*\))*?,\s*)?)?test\s*[,)])"
    ),
    exported="words",
    public=frozenset({"pub"}),
)

JAVA = Syntax(
    definitions=_frozen(
        class_declaration="class",
        interface_declaration="interface",
        enum_declaration="type",
        record_declaration="class",
        annotation_type_declaration="interface",
        method_declaration="method",
        constructor_declaration="method",
        compact_constructor_declaration="method",  # a record's `public Point { ... }`
        annotation_type_element_declaration="method",  # `String value() default "";` of an @interface
    ),
    # An enum constant's own body (`DATA { void read() {...} }`, how state machines and strategies are
    # written) holds methods of that constant; an anonymous class in a field's initializer (`Visitor v =
    # new Visitor() { void head() {...} }`), methods of the class around it.
    containers=_frozen(enum_constant="name"),
    inline=frozenset({"object_creation_expression"}),
    bodies=frozenset({"class_body"}),
    transparent=frozenset({"ERROR", "enum_body_declarations", "field_declaration", "variable_declarator"}),
    identifiers=("identifier", "type_identifier"),
    calls=(
        "(method_invocation name: (identifier) @call)"
        " (object_creation_expression type: (type_identifier) @call)"
        " (object_creation_expression type: (scoped_type_identifier (type_identifier) @call .))"
    ),
    members=(
        "(method_invocation object: (_) name: (identifier) @member)"
        " (field_access field: (identifier) @member)"
        " (scoped_type_identifier (type_identifier) @member .)"
    ),
    imports="(import_declaration) @import",
    import_text=r"import\s+(?:static\s+)?(?P<module>[\w.$*]+)",
    comments=("line_comment", "block_comment"),
    exported="words",
    public=frozenset({"public", "protected"}),
)
# Balanced parentheses, three deep, across lines: (a), (a (b)), (a (b (c))).
_KOTLIN_PARENTHESES = r"\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)"
_KOTLIN_ANNOTATION = rf"@[\w.:]+(?![\w.:])(?:{_KOTLIN_PARENTHESES})?"
KOTLIN = Syntax(
    definitions=_frozen(
        class_declaration="class",
        object_declaration="class",
        function_declaration="function",
        type_alias="type",
    ),
    keywords={"class_declaration": _frozen(interface="interface")},
    names=_frozen(type_alias="type", property_declaration="variable_declaration/identifier"),
    containers=_frozen(companion_object=""),
    bodies=frozenset({"class_body", "enum_class_body"}),
    receivers=_frozen(function_declaration="user_type", property_declaration="user_type"),
    # A getter, or a function as the value (`val onClick = { v: View -> ... }`, `val f = fun(x: Int)
    # ...`): a method of its class (a plain value, `val limit = 3`, stays no symbol).
    computed=_frozen(property_declaration="getter|lambda_literal|anonymous_function"),
    identifiers=("identifier",),
    calls=(
        "(call_expression . (identifier) @call)"
        " (call_expression . (navigation_expression (identifier) @call .))"
    ),
    members="(navigation_expression (identifier) @member .)",
    imports="(import) @import",
    import_text=r"import\s+(?P<module>[\w`]+(?:\.[\w`]+)*(?:\.\*)?)",
    comments=("line_comment", "block_comment"),
    private=frozenset({"private", "internal"}),
    masks=(
        # Kotlin 2.1's guards in a `when` branch (`is Join if dialect is OracleDialect ->`), which the
        # grammar cannot read and loses the whole file on: the guard is blanked, the branch stays.
        # A guard in parentheses may span lines (`is X if (\n a &&\n b\n) ->`).
        r"(?m)^[ \t]*(?:(?:!?is|!?in)\b(?:(?!->)[^\n{])*?|else)[ \t]+"
        rf"(?P<mask>if\b(?:[^\n{{]*?|[ \t]*{_KOTLIN_PARENTHESES})(?=\s*->))",
        # Annotations starting a line before a property's accessor (`val id` / `@OptIn(...)` /
        # `get() = ...`), which the grammar reads only when the property has a type, or before a
        # primary constructor on a line of its own (`class A` / `@Inject internal constructor()`),
        # which costs the class its body.
        rf"(?m)^[ \t]*(?P<mask>{_KOTLIN_ANNOTATION}(?:[ \t]+{_KOTLIN_ANNOTATION})*)"
        rf"(?=(?:\s*{_KOTLIN_ANNOTATION})*\s*(?:(?:private|protected|internal|public)[ \t]+)?"
        r"(?:[gs]et|constructor)\b)",
        # A statement starting with a variable named `where` (`where?.let {`): the grammar takes the
        # line for the `where` constraints of what precedes it and reads on into the next lines; a
        # `;` in the indentation ends the statement before. Only after a line that ends an expression
        # (not `,` or `(`: an argument list; not `{`: the grammar reads no `;` first in a block), and
        # not before `where T : Any` (constraints).
        r"(?m)^[^\n]*[\w)\]}\"'][ \t]*\r?\n(?:[ \t]*\r?\n)*[ \t]*(?P<end>[ \t])"
        r"(?=where\b(?![ \t]+@?[A-Za-z_]))",
    ),
)
SCALA = Syntax(
    definitions=_frozen(
        class_definition="class",
        object_definition="class",
        trait_definition="interface",
        enum_definition="type",
        type_definition="type",
        function_definition="function",
        function_declaration="function",
        given_definition="class",
        package_object="module",
    ),
    # `val parse = (s: String) => ...`: a function held by a value, a method of its class or object.
    names=_frozen(val_definition="pattern", var_definition="pattern"),
    computed=_frozen(val_definition="lambda_expression", var_definition="lambda_expression"),
    # `extension [T](xs: List[T])`: members of List (Scala 3 gives the extension its defs directly).
    containers=_frozen(
        extension_definition="parameters/parameter/type/type|parameters/parameter/type", package_clause=""
    ),
    identifiers=("identifier", "type_identifier"),
    calls=(
        "(call_expression function: (identifier) @call)"
        " (call_expression function: (field_expression field: (identifier) @call))"
        " (instance_expression (type_identifier) @call)"
    ),
    members="(field_expression field: (identifier) @member)",
    imports="(import_declaration) @import",
    import_text=r"import\s+(?P<module>[\w`]+(?:\.[\w`]+)*)",
    comments=("comment", "block_comment"),
    private=frozenset({"private", "protected"}),
)

_C_DECLARATOR = "declarator*"
_C_MACRO = r"[A-Z][A-Z0-9_]{2,}"
# A function's head up to its name: the return type (`std::string`, `const Foo<T>&`, `int *`) and the name.
_C_HEAD = r"(?:(?:const|unsigned|signed|struct|enum|typename)[ \t]+)*[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?"
# Words that start a statement or qualify a type, never a type: `const RE2& GetRE2(` and `static BOOL
# get_function(` return the types RE2 and BOOL.
_C_KEYWORDS = (
    r"(?:const|unsigned|signed|struct|enum|typename|static|inline|extern|virtual|explicit|constexpr|friend"
    r"|register|volatile|return|else|new|delete|case|goto|typedef|using)\b"
)
_C_TEMPLATE_ARGS = r"(?:<[^;{}()\n]*>)?"
_C_NAME = rf"~?[A-Za-z_]\w*{_C_TEMPLATE_ARGS}(?:::~?[A-Za-z_]\w*{_C_TEMPLATE_ARGS})*"
_C_NAMED = rf"[ \t*&]+{_C_NAME}[ \t]*\("
_C_MACROS = (
    r"(?m)^[ \t]*(?P<mask>[A-Z][A-Z0-9_]{2,}(?:\([^()\n]*\))?)[ \t]*$",  # a line that is one macro
    r"\b(?:class|struct|union)\s+(?P<mask>(?:[A-Z][A-Z0-9_]{2,}(?:\([^()\n]*\))?\s+)+)(?=[A-Za-z_]\w*\s*(?:final\s*)?[:{<])",
    # Export and inline macros before a function's return type (`SPDLOG_INLINE std::tm localtime(`,
    # `YAML_CPP_API Node Load(`, `SPDLOG_INLINE logger::logger(`) or between the type and the name
    # (`std::string SPDLOG_INLINE getenv(`): the grammar reads the macro as the type, and the real type
    # as part of the name or a constructor's initializer list as a bit field.
    rf"(?m)^[ \t]*(?:(?:static|inline|extern|virtual|explicit|constexpr|friend)[ \t]+)*"
    rf"(?P<mask>{_C_MACRO})[ \t]+(?!{_C_MACRO}[ \t*&])(?={_C_HEAD}{_C_NAMED}|{_C_NAME}::{_C_NAME}[ \t]*\()",
    rf"(?m)^[ \t]*(?:(?:static|inline|extern|virtual)[ \t]+)*(?!{_C_KEYWORDS})"
    rf"{_C_HEAD}[ \t*&]+(?P<mask>{_C_MACRO})(?=[ \t]+{_C_NAME}[ \t]*\()",
    # Macros after a parameter list (`) SPDLOG_NOEXCEPT {`, `) const LOCKS_EXCLUDED(mu_);`, on the line
    # after it too): the grammar reads them as the declarator and names the function after the macro.
    # Not after a statement's condition (`if (err) RETURN_ERROR(err);`), a cast (`(void*) CMSG_DATA(h)`:
    # the parenthesis must follow a name that is no macro, after no `=`, or close a list opened on a line
    # before), a macro (`XCS("a") XCS("b")`), nor in a comment or a preprocessor line.
    rf"(?m)^(?![ \t]*(?:#|//|/\*|\*|(?:if|while|for|switch|return|else|do|case)\b))"
    rf"(?:[^\n;{{}}=\"']{{0,200}}?\b(?!{_C_MACRO}[ \t]*\()[A-Za-z_]\w*[ \t]*\("
    r"(?:[^()\n]|\([^()\n]*\)){0,400}"
    r"|[^\n;{}()=\"']*)\)[ \t]*(?:\r?\n[ \t]+)?(?:const[ \t]+)?"
    rf"(?P<mask>(?:{_C_MACRO}(?:\([^()\n]*\))?[ \t]*)+)"
    r"(?=(?:(?:override|final|const|noexcept)\b[^\n{;]*)?(?:\r?\n[ \t]*)?(?:[{;=]|->|:(?!:)))",
    # Apple's enum macros (`typedef NS_ENUM(NSInteger, RCTFooKind) {`, NS_OPTIONS, NS_CLOSED_ENUM,
    # NS_ERROR_ENUM, CF_ENUM, CF_OPTIONS): the grammar reads the first enumerator as the typedef's name.
    # Read as the `enum RCTFooKind {` they expand to.
    r"(?m)^[ \t]*(?P<enum>typedef[ \t]+(?:NS|CF)_(?:ENUM|OPTIONS|CLOSED_ENUM|ERROR_ENUM)[ \t]*\([^,()\n]*,)"
    r"[ \t]*[A-Za-z_]\w*[ \t]*(?P<mask>\))(?=\s*\{)",
    # ...and Apple's macros after its closing brace (`} NS_SWIFT_NAME(InstanceType);`,
    # `API_AVAILABLE(...)`), which the grammar reads as a declarator that hides the enum.
    r"(?m)^\}[ \t]*(?P<mask>(?:(?:NS|CF|API)_[A-Z0-9_]+\((?:[^()\n]|\([^()\n]*\))*\)[ \t]*)+)(?=;)",
)
C = Syntax(
    definitions=_frozen(
        function_definition="function",
        struct_specifier="class",
        union_specifier="class",
        enum_specifier="type",
        preproc_function_def="macro",
        preproc_def="macro",
    ),
    names=_frozen(function_definition=_C_DECLARATOR, declaration=_C_DECLARATOR),
    masks=_C_MACROS,
    bindings={
        "type_definition": Binding(
            _frozen(struct_specifier="class", union_specifier="class", enum_specifier="type"),
            name=_C_DECLARATOR,
            value="type",
            default="type",
        )
    },
    declarations=_frozen(declaration="function"),
    include_guards=_frozen(preproc_def="preproc_ifdef"),
    transparent=frozenset(
        {
            "ERROR",
            "preproc_ifdef",
            "preproc_if",
            "preproc_else",
            "preproc_elif",
            "preproc_elifdef",
            "linkage_specification",
            "declaration_list",
        }
    ),
    identifiers=("identifier", "field_identifier", "type_identifier"),
    calls=(
        "(call_expression function: (identifier) @call)"
        " (call_expression function: (field_expression field: (_) @call))"
    ),
    members="(field_expression field: (_) @member)",
    imports="(preproc_include path: (_) @module) @import",
    import_text=r"^[\"<]?(?P<module>[^\">]+)",
    separator="/",
    exported="not-words",
    private=frozenset({"static"}),
)
CPP = Syntax(
    definitions=_frozen(
        {**C.definitions},
        class_specifier="class",
        alias_declaration="type",
        concept_definition="interface",
    ),
    names=_frozen(C.names, field_declaration=_C_DECLARATOR),
    masks=_C_MACROS,
    wrappers=_frozen(template_declaration=""),
    containers=_frozen(namespace_definition=""),
    bindings=C.bindings,
    declarations=_frozen(declaration="function", field_declaration="method"),
    include_guards=C.include_guards,
    transparent=C.transparent,
    identifiers=("identifier", "field_identifier", "type_identifier", "namespace_identifier"),
    calls=(
        C.calls + " (call_expression function: (qualified_identifier name: (identifier) @call))"
        " (call_expression function: (template_function name: (identifier) @call))"
    ),
    members=C.members + " (qualified_identifier name: (_) @member)",
    imports=C.imports,
    import_text=C.import_text,
    separator="/",
    private=frozenset({"static"}),
)
# Objective-C: C with classes written `@interface`/`@implementation`, protocols and methods named by
# selectors. A method is named by its selector's first part (`initWithFrame` of
# `initWithFrame:style:`), the word `[obj initWithFrame:...]` calls it by; symbols/lookup.py reads a
# whole selector or `-[Widget initWithFrame:style:]` as that name.
_OBJC_PROPERTY = "struct_declaration/struct_declarator"
# Macros after a property's name (`RCTBridge *bridge RCT_DEPRECATED;`, `API_AVAILABLE(ios(13.0))`):
# the grammar reads the last word as the name. A macro has an underscore or arguments, so that
# `NSUInteger FPS;` keeps its name.
_OBJC_MACRO_ARGUMENTS = r"\((?:[^()\n]|\([^()\n]*\))*\)"
_OBJC_PROPERTY_MACROS = (
    r"(?m)^[ \t]*@property\b[^;\n]*?[ \t*][A-Za-z_]\w*(?P<mask>(?:[ \t]+(?:[A-Z][A-Z0-9]*_[A-Z0-9_]*"
    rf"(?:{_OBJC_MACRO_ARGUMENTS})?|[A-Z][A-Z0-9_]+{_OBJC_MACRO_ARGUMENTS}))+)[ \t]*;"
)
# A macro that defines a method from its selector (React Native's `RCT_EXPORT_METHOD(open:(NSURL *)url
# reject:(Block)reject) { ... }`, after a return type: `RCT_EXPORT_SYNCHRONOUS_TYPED_METHOD(NSNumber *,
# count:(id)arg)`): without it the grammar names a function after the last argument.
# Read as the method it expands to: the macro's name and parenthesis as a `-`, its closing one blank.
_OBJC_METHOD_MACROS = (
    r"(?m)^[ \t]*(?P<dash>[A-Z][A-Z0-9_]*\((?:[^(),;{}\n]*,)?)[ \t]*[A-Za-z_]\w*[ \t]*:"
    r"(?:[^(){};]|\([^(){};]*\))*(?P<mask>\))[ \t]*(?=\r?\n[ \t]*\{|\{)"
)
# A macro's call on lines of its own (`RCT_ENUM_CONVERTER(Type, (@{ ... }), Default, integerValue)`
# between methods): the grammar reads it as a function's head and what follows as its body. C's masks
# blank one on a single line; this one spans lines. Not one that a body follows (a method's macro), a
# statement (`DEBUG_LOG(x);` is a call) nor the last line of a `#define` continued with `\`.
_OBJC_MACRO_CALLS = (
    r"(?m)(?<!\\\n)^[ \t]*(?P<mask>[A-Z][A-Z0-9_]{2,}\((?:[^()]|\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))*\))"
    r"[ \t]*\r?$(?!\n[ \t]*\{)"
)
OBJC = Syntax(
    definitions=_frozen(
        {**C.definitions},
        class_implementation="class",
        protocol_declaration="interface",
        method_definition="method",
    ),
    names=_frozen(
        C.names,
        class_interface="identifier",
        class_implementation="identifier",
        protocol_declaration="identifier",
        method_definition="identifier",
        method_declaration="identifier",
        property_declaration=f"{_OBJC_PROPERTY}/identifier|{_OBJC_PROPERTY}/pointer_declarator/identifier",
    ),
    categories=_frozen(class_interface="category", class_implementation="category"),
    # An interface's and a protocol's members stand in it; an implementation's each in an
    # `implementation_definition`, read through.
    bodies=frozenset({"class_interface", "class_implementation", "protocol_declaration"}),
    ownerless=frozenset({"function_definition", "preproc_def", "preproc_function_def"}),
    masks=(*_C_MACROS, _OBJC_PROPERTY_MACROS, _OBJC_METHOD_MACROS, _OBJC_MACRO_CALLS),
    bindings=C.bindings,
    # A method or a property declared in an `@interface` or a `@protocol`, and the `@interface` itself
    # (prototypes only, its code in the `@implementation`): symbols without chunks, a header's lines
    # outside them weighed as C's prototypes are (search/paths.py).
    declarations=_frozen(
        C.declarations, class_interface="class", method_declaration="method", property_declaration="method"
    ),
    include_guards=C.include_guards,
    transparent=C.transparent | {"implementation_definition", "qualified_protocol_interface_declaration"},
    identifiers=C.identifiers,
    calls=C.calls + " (message_expression receiver: (_) . method: (identifier) @call)",
    members=C.members,
    imports="(preproc_include path: (_) @module) @import",
    import_text=C.import_text,
    separator="/",
    private=frozenset({"static"}),
)
# Objective-C++ (`.mm`) is read twice. The Objective-C grammar reads it once the C++ it cannot know is
# blanked, every byte where it was: a `namespace X {` header (its body and closing brace read as a
# block, looked through), `using` lines, `template <...>` heads, `std::`-style qualifiers, C++ casts,
# references in parameter lists (`const Foo &foo`). A lambda's capture list becomes a block's `^`
# (group "caret"). C++'s grammar then reads it again (Language.rereading) with the Objective-C blanked
# (_OBJC_IN_CPP): its classes, structs, their methods, templates and `Foo::bar` definitions.
_OBJCPP_PARAMETER = r"[(,][ \t]*(?:const[ \t]+)?[A-Za-z_][\w<>*]*"
_OBJCPP_MASKS = (
    r"(?m)^[ \t]*(?P<mask>(?:inline[ \t]+)?namespace(?:[ \t]+[A-Za-z_][\w:]*)?)[ \t]*(?=(?:\r?\n[ \t]*)?\{)",
    r"(?m)^[ \t]*(?P<mask>using\b[^;\n]*;)",
    r"(?m)^[ \t]*(?P<mask>template[ \t]*<[^;{}]*?>)(?=\s*(?:class|struct|typename|inline|static|[A-Za-z_]))",
    r"(?P<mask>(?<![\w:])(?:[A-Za-z_]\w*(?:<[^<>;{}()\n]*>)?)?::(?:[A-Za-z_]\w*(?:<[^<>;{}()\n]*>)?::)*)(?=~?[A-Za-z_])",
    r"\b(?P<mask>(?:static|dynamic|reinterpret|const)_cast[ \t]*<[^;{}()\n]*?>)(?=[ \t]*\()",
    r"(?:[=(,{]|return)[ \t]*(?P<caret>\[[^\[\]\n]*\])(?=[ \t]*[({])",
    # A reference parameter (`const Foo &foo`, `Foo& foo`), not `a & b` nor `a&b`.
    rf"{_OBJCPP_PARAMETER}(?:[ \t]+(?:const[ \t]+)?|(?=&))(?P<mask>&&?)(?=[A-Za-z_]\w*[ \t]*[,)=])",
    rf"{_OBJCPP_PARAMETER}(?P<mask>&&?)(?=[ \t]+[A-Za-z_]\w*[ \t]*[,)=])",
    r"(?<=[\w>*])[ \t]*(?P<mask>&&?)(?=[ \t]*\))",  # a method's reference parameter: `(const Foo &)foo`
    r"\b(?P<mask>auto)(?=[ \t*&]+[A-Za-z_]\w*[ \t]*[=({])",  # `auto x = ...`: an assignment
    r"\)[ \t]*(?:const[ \t]+)?(?P<mask>(?:noexcept|override|final)\b(?:[ \t]+(?:override|final)\b)*)",
)
OBJCPP = dataclasses.replace(
    OBJC,
    masks=(*OBJC.masks, *_OBJCPP_MASKS),
    # A namespace's body, its header blanked: a block at the top level.
    transparent=OBJC.transparent | {"compound_statement"},
)


def _nested(opening: str, closing: str, depth: int) -> str:
    """A regex for text whose `opening`/`closing` pairs (regex-escaped) nest at most `depth` deep."""
    inner = f"[^{opening}{closing}]*"
    for _ in range(depth):
        inner = f"(?:[^{opening}{closing}]|{opening}{inner}{closing})*"
    return inner


_BRACKETED = _nested(r"\[", r"\]", 5)
_BRACED = _nested(r"\{", r"\}", 3)
# What C++'s grammar cannot read in Objective-C++, made what it reads for its reading (Language.rereading),
# every byte where it was. A message send (`[receiver selector:arg]`, nested up to six deep), an
# array or dictionary literal (`@[...]`, `@{...}`) and `@selector(...)` become a `0` (group "zero"):
# an expression. Fast enumeration's `in` becomes a range-for's `:` (group "colon"). Blanked: the `@` of
# a string or a boxed value (`@"text"`, `@(x)`), `@autoreleasepool`, `@try`, `@finally`, `@catch
# (...)`, `@synchronized (...)`, nullability and ownership qualifiers (`UIColor *_Nullable f(...)`,
# `(__bridge id)x`) and a block's `^` and parameters (their braces then a block, which
# C++'s grammar reads as an argument too), and, last, the `@interface`/`@implementation`/`@protocol`
# blocks whole (the Objective-C reading's own) and `@class`, `@protocol` and `@import` lines.
_OBJC_IN_CPP = (
    r"\bfor[ \t]*\([^;()\n]*?[\w*][ \t]+(?P<colon>in)[ \t]+(?=[^;\n]*\))",
    r"(?P<zero>@(?:selector|encode|protocol|available)[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))",
    # A send's receiver ends in a word, `]`, `)` or `"`, a space and its selector follow (`[[Foo alloc]
    # init]`, `[self.view addSubview:v]`): not a subscript (`a[i + 1]`), an attribute (`[[nodiscard]]`)
    # nor a lambda's captures (`[this, &x]`).
    rf"(?P<zero>@\[{_BRACKETED}\]|@\{{{_BRACED}\}}|(?<![\w)\]])\[(?=(?:[^\[\]]|\[{_BRACKETED}\])*?[\w\])\"]\s+"
    rf"[A-Za-z_]\w*\s*[:\]]){_BRACKETED}\])",
    r"(?P<mask>@)(?=[\"(]|\d|YES\b|NO\b)",
    r"(?P<mask>@(?:autoreleasepool|try|finally)\b)",
    r"\b(?P<mask>_Nullable|_Nonnull|_Null_unspecified|__nullable|__nonnull|__kindof|__block|__weak|__strong"
    r"|__unsafe_unretained|__autoreleasing|__bridge(?:_transfer|_retained)?)\b",
    r"(?P<mask>@(?:catch|synchronized)[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))",
    r"(?P<mask>\^[ \t]*(?:[A-Za-z_]\w*[ \t*]*)?(?:\((?:[^()\n]|\([^()\n]*\))*\))?)(?=\s*\{)",
    # A block line by line up to its `@end`, none of its lines starting another (each line read once).
    r"(?m)^[ \t]*(?P<mask>@(?:interface|implementation|protocol)\b(?![ \t]+\w+(?:[ \t]*,[ \t]*\w+)*[ \t]*;)"
    r"[^\n]*\n(?:(?![ \t]*@(?:interface|implementation|protocol|end)\b(?![ \t]*\())[^\n]*\n)*[ \t]*@end\b)",
    r"(?m)^[ \t]*(?P<mask>@(?:class|protocol|import)\b[^;\n]*;)",
)
_CSHARP_FIELD = "variable_declaration/variable_declarator"
CSHARP = Syntax(
    definitions=_frozen(
        class_declaration="class",
        struct_declaration="class",
        record_declaration="class",
        interface_declaration="interface",
        enum_declaration="type",
        delegate_declaration="type",
        method_declaration="method",
        constructor_declaration="method",
        local_function_statement="function",
        operator_declaration="method",
        conversion_operator_declaration="method",
    ),
    operators=_frozen(operator_declaration="parameters", conversion_operator_declaration="parameters"),
    # `public int Count { get; }` (a member whose accessors are methods), `~Order()`, an event
    # (`public event EventHandler Placed;`, whose add and remove are methods) and an indexer
    # (`this[int id]`, named `this`): symbols whose lines stay in the chunks between the class's
    # methods, as a getter's or a field's do.
    declarations=_frozen(
        property_declaration="method",
        destructor_declaration="method",
        event_field_declaration="method",
        event_declaration="method",
        indexer_declaration="method",
    ),
    # A field holding a function (`Func<int, int> twice = x => x * 2;`, `Action onDone = delegate
    # {...};`): a method-like member; a plain field stays no symbol.
    names=_frozen(
        field_declaration=_CSHARP_FIELD + "/name",
        event_field_declaration=_CSHARP_FIELD + "/name",
        indexer_declaration="=this",
    ),
    computed=_frozen(
        field_declaration=f"{_CSHARP_FIELD}/lambda_expression|{_CSHARP_FIELD}/anonymous_method_expression"
    ),
    containers=_frozen(namespace_declaration="", file_scoped_namespace_declaration=""),
    # `#if THREAD_SAFE` / `#elif` / `#else` around types or members (dnlib's src/Threading/Lock.cs is one
    # `#if` inside its namespace, Json.NET wraps whole files in `#if !(NETFX_CORE || PORTABLE)`): every
    # branch is read, as C's are.
    transparent=frozenset({"ERROR", "declaration_list", "preproc_if", "preproc_elif", "preproc_else"}),
    identifiers=("identifier",),
    calls=(
        "(invocation_expression function: (identifier) @call)"
        " (invocation_expression function: (member_access_expression name: (identifier) @call))"
        " (object_creation_expression type: (identifier) @call)"
    ),
    members="(member_access_expression name: (identifier) @member)",
    imports="(using_directive) @import",
    import_text=r"using\s+(?:static\s+)?(?:\w+\s*=\s*)?(?P<module>[\w.]+)",
    exported="words",
    public=frozenset({"public", "protected"}),
)
SWIFT = Syntax(
    definitions=_frozen(
        class_declaration="class",
        protocol_declaration="interface",
        function_declaration="function",
        init_declaration="method",
        deinit_declaration="method",
        typealias_declaration="type",
        protocol_function_declaration="method",
        subscript_declaration="method",
    ),
    keywords={
        "class_declaration": _frozen(
            {"class": "class", "struct": "class", "actor": "class", "enum": "type", "extension": "container"}
        )
    },
    names=_frozen(
        init_declaration="=init",
        deinit_declaration="=deinit",
        subscript_declaration="=subscript",
        property_declaration="name/bound_identifier",
        protocol_property_declaration="name/bound_identifier",
    ),
    # `var area: Double { ... }`, or a closure as the value (`let onTap: () -> Void = { ... }`; not
    # `lazy var x = { ... }()`, a value computed once).
    computed=_frozen(property_declaration="computed_value|lambda_literal"),
    # A protocol's `var area: Double { get }`: a requirement its conformers compute or store.
    declarations=_frozen(protocol_property_declaration="method"),
    # The grammar reads `#if` around declarations and statements, not between a switch's cases (it
    # then gives up on the whole class around it): a directive right before a `case` or `default` is
    # blanked, so the cases of every branch are read as one switch's.
    masks=(
        r"(?m)^(?P<mask>[ \t]*#(?:if|elseif|else|endif)\b[^\n]*)\n"
        r"(?=(?:[ \t\r]*\n)*[ \t]*(?:case\b|default\s*:|@unknown\b))",
        # Swift 5.9's ownership operators (`switch consume result {`), which the grammar does not
        # know and can lose a whole class on: the operand stays.
        r"(?<![.\w])(?P<mask>consume|copy)[ \t]+(?=[A-Za-z_])",
    ),
    # What else it cannot read costs a line, not a file.
    heal_lines=64,
    identifiers=("simple_identifier", "type_identifier"),
    calls=(
        "(call_expression . (simple_identifier) @call)"
        " (call_expression . (navigation_expression"
        " suffix: (navigation_suffix suffix: (simple_identifier) @call)))"
    ),
    members="(navigation_suffix suffix: (simple_identifier) @member)",
    imports="(import_declaration) @import",
    import_text=r"import\s+(?:\w+\s+)?(?P<module>[\w.]+)",
    comments=("comment", "multiline_comment"),
    private=frozenset({"private", "fileprivate", "internal"}),
)
RUBY = Syntax(
    definitions=_frozen(
        {"class": "class", "module": "module", "method": "method", "singleton_method": "method"}
    ),
    containers=_frozen(singleton_class=""),
    # `if defined?(::DidYouMean) ... def call ... else ... def call ... end` in a class body, `def x; end
    # if RUBY_VERSION >= ...`: methods defined for one Ruby or another are the class's all the same.
    conditionals=frozenset({"if", "unless", "then", "else", "elsif", "if_modifier", "unless_modifier"}),
    bindings={
        "assignment": Binding(
            _frozen(),
            name="left",
            value="right",
            factories=_frozen(
                {"Struct.new": "class", "Class.new": "class", "Data.define": "class", "Module.new": "module"}
            ),
        )
    },
    bodies=frozenset({"body_statement", "block_body"}),  # a factory's block: `Struct.new do ... end`
    identifiers=("identifier", "constant"),
    calls="(call method: (identifier) @call) (call method: (constant) @call)",
    members="(call receiver: (_) method: (_) @member) (scope_resolution name: (_) @member)",
    imports=(
        "((call method: (identifier) @loader arguments: (argument_list . (string (string_content) @module)))"
        ' @import (#any-of? @loader "require" "require_relative" "load" "autoload"))'
    ),
    separator="/",
    exported="not-words",
    skipped_references=frozenset({"self", "super"}),
)
PHP = Syntax(
    definitions=_frozen(
        class_declaration="class",
        interface_declaration="interface",
        trait_declaration="interface",
        enum_declaration="type",
        function_definition="function",
        method_declaration="method",
    ),
    containers=_frozen(namespace_definition=""),
    # `if (!function_exists('abort')) { function abort() {...} }`: how PHP libraries define their
    # helper functions (Laravel's helpers.php, 79 of them), and polyfills their classes.
    transparent=frozenset(
        {"ERROR", "declaration_list", "compound_statement"}
        | {"if_statement", "else_if_clause", "else_clause", "colon_block"}
    ),
    identifiers=("name",),
    calls=(
        "(function_call_expression function: (name) @call)"
        " (function_call_expression function: (qualified_name (name) @call .))"
        " (member_call_expression name: (name) @call) (scoped_call_expression name: (name) @call)"
        " (object_creation_expression (name) @call)"
    ),
    members=(
        "(member_call_expression name: (name) @member) (member_access_expression name: (name) @member)"
        " (scoped_call_expression name: (name) @member) (class_constant_access_expression (name) @member .)"
    ),
    imports="(namespace_use_declaration) @import",
    import_text=r"use\s+(?:function\s+|const\s+)?\\?(?P<module>[\w\\]+)",
    separator="\\",
    private=frozenset({"private", "protected"}),
    skipped_references=frozenset({"self", "parent", "static", "this"}),
)
ELIXIR = Syntax(
    definitions=_frozen(),
    call_definitions=CallDefinitions(
        "call",
        "target",
        _frozen(
            {"def": "function"},
            defmodule="module",
            defprotocol="interface",
            defimpl="container",
            defexception="class",
            defp="function",
            defmacro="macro",
            defmacrop="macro",
            defguard="macro",
            defguardp="macro",
            defdelegate="function",
            defn="function",
            defnp="function",
        ),
        private=frozenset({"defp", "defmacrop", "defguardp", "defnp"}),
        target_keyword="for",
        attribute_node="unary_operator",
        attributes=_frozen(callback="function", macrocallback="macro"),
    ),
    identifiers=("identifier", "alias"),
    calls="(call target: (identifier) @call) (call target: (dot right: (identifier) @call))",
    members="(dot right: (_) @member)",
    imports=(
        "((call target: (identifier) @loader (arguments . (alias) @module)) @import"
        ' (#any-of? @loader "alias" "import" "require" "use"))'
    ),
    docs=(
        "(unary_operator operand: (call target: (identifier) @doc_name)) @doc"
        ' (#any-of? @doc_name "doc" "moduledoc" "spec" "impl" "typedoc")'
    ),
    exported="not-words",
    skipped_references=frozenset(
        {
            "def",
            "defp",
            "defmodule",
            "defmacro",
            "defmacrop",
            "defprotocol",
            "defimpl",
            "defstruct",
            "defexception",
            "defguard",
            "defguardp",
            "defdelegate",
            "do",
            "end",
            "fn",
            "alias",
            "import",
            "require",
            "use",
            "quote",
            "unquote",
            "when",
            "and",
            "or",
            "not",
            "in",
        }
    ),
    merge_clauses=True,
)
LUA = Syntax(
    definitions=_frozen(function_declaration="function"),
    # `local f = function() ... end`: the binding inside `local`.
    wrappers=_frozen(variable_declaration=""),
    # A module written as a function that returns its table (`return function(busted) local block =
    # {} function block.run() ... end return block end`, busted's style), or as the table it returns
    # (`return { shuffle = function(t) ... end }`): its definitions are read as the file's own.
    transparent=frozenset(
        {"ERROR", "return_statement", "expression_list", "function_definition", "block", "table_constructor"}
    ),
    # Definitions per library or interpreter in a top-level `if` (`if zlib._VERSION:match "^lua%-zlib"
    # then function _M.inflate() ... end elseif ... end`): symbols, the `if` read whole.
    whole_conditionals=frozenset({"if_statement", "elseif_statement", "else_statement"}),
    bindings={
        "field": Binding(_frozen(function_definition="function")),
        "assignment_statement": Binding(
            _frozen(function_definition="function"),
            name="variable_list/0",
            value="expression_list/0",
            owners=frozenset({"table_constructor", "function_call"}),
            tables=frozenset({"table_constructor"}),
            # Class libraries' calls (penlight's `class()`, hump's and classic's `Class {...}`) and
            # a metatable inheriting from a base: classes even before a method is defined on them.
            class_calls=_frozen({"class": "", "Class": "", "setmetatable": "__index"}),
        ),
    },
    identifiers=("identifier",),
    calls=(
        "(function_call name: (identifier) @call)"
        " (function_call name: (dot_index_expression field: (identifier) @call))"
        " (function_call name: (method_index_expression method: (identifier) @call))"
    ),
    members=(
        "(dot_index_expression field: (identifier) @member)"
        " (method_index_expression method: (identifier) @member)"
    ),
    imports=(
        "((function_call name: (identifier) @loader arguments: (arguments . (string content: (_) @module)))"
        ' @import (#eq? @loader "require"))'
    ),
    comments=("comment",),
    private=frozenset({"local"}),
)
BASH = Syntax(
    definitions=_frozen(function_definition="function"),
    # `f() { ...; } && complete -F f cmd` (every bash-completion file), definitions per platform in a
    # top-level `if`: read through, as if the definitions stood alone.
    transparent=frozenset({"ERROR", "list", "if_statement", "elif_clause", "else_clause"}),
    identifiers=("command_name", "variable_name"),
    calls="(command name: (command_name) @call)",
    imports=(
        "((command name: (command_name) @loader . argument: (_) @module) @import"
        ' (#any-of? @loader "source" "."))'
    ),
    separator="/",
    exported="not-words",
    skipped_references=frozenset({"echo", "local", "export", "return", "set", "test", "true", "false"}),
    heal_lines=64,
)
HASKELL = Syntax(
    definitions=_frozen(
        {
            "function": "function",
            "signature": "function",
            "data_type": "class",
            "newtype": "class",
            "type_synonym": "type",
            "class": "interface",
            "type_family": "type",
            "bind": "function",
        }
    ),
    # `module Data.Aeson.KeyMap (...) where`: a symbol (parent Data.Aeson, name KeyMap) whose lines stay
    # in the chunk of the imports below it, as the top of a file of any language does.
    declarations=_frozen(header="module"),
    # An operator defined infix (`x <+> y = ...`, an instance's `a <> b = ...`) is named by it.
    names=_frozen(header="module", function="name|infix/operator"),
    # An instance's methods belong to the type it is for (`instance Show (Cart a)`: Cart), else to its
    # class (`instance ToJSON [a]`).
    containers=_frozen(instance="patterns/**name|name"),
    transparent=frozenset({"ERROR", "declarations", "class_declarations", "instance_declarations"}),
    bodies=frozenset({"class_declarations", "instance_declarations"}),
    identifiers=("variable", "name", "constructor"),
    calls="(apply function: (variable) @call) (apply function: (qualified id: (variable) @call))",
    members="(qualified id: (_) @member)",
    imports="(import module: (_) @module) @import",
    comments=("comment", "haddock"),
    exported="not-words",
    merge_clauses=True,
)
ZIG = Syntax(
    definitions=_frozen(function_declaration="function", test_declaration="function"),
    names=_frozen(test_declaration="string"),
    test_nodes=("test_declaration",),
    bindings={
        "variable_declaration": Binding(
            _frozen(
                struct_declaration="class",
                union_declaration="class",
                enum_declaration="type",
                opaque_declaration="type",
                error_set_declaration="type",
            ),
            name="identifier",
            value="",
            alternatives=_frozen(switch_expression="switch_case", if_expression=""),
        )
    },
    identifiers=("identifier",),
    calls=(
        "(call_expression function: (identifier) @call)"
        " (call_expression function: (field_expression member: (identifier) @call))"
    ),
    members="(field_expression member: (identifier) @member)",
    imports=(
        "((builtin_function (builtin_identifier) @loader"
        " (arguments . (string (string_content) @module))) @import"
        ' (#eq? @loader "@import"))'
    ),
    separator="/",
    exported="words",
    public=frozenset({"pub"}),
)
DART = Syntax(
    definitions=_frozen(
        class_definition="class",
        mixin_declaration="class",
        extension_declaration="class",
        extension_type_declaration="class",
        enum_declaration="type",
        type_alias="type",
        function_signature="function",
        # A top-level getter or setter (`int get answer => 42;`); a class's are in a method_signature.
        getter_signature="function",
        setter_signature="function",
        method_signature="method",
    ),
    names=_frozen(mixin_declaration="identifier", type_alias="type_identifier"),
    operators=_frozen(operator_signature="formal_parameter_list"),
    bodies=frozenset({"class_body"}),  # a mixin's members (its class_body has no field)
    unnamed=_frozen(extension_declaration="class"),
    declarations=_frozen(declaration="method"),
    # A field holding a function (`final VoidCallback onTap = () {...};`), named by the identifier
    # it is given; a plain field (`final double side;`, `final int x = 3;`) stays no symbol.
    computed=_frozen(declaration="initialized_identifier_list/initialized_identifier/function_expression"),
    constructors=frozenset(
        {
            "constructor_signature",
            "constant_constructor_signature",
            "factory_constructor_signature",
            "redirecting_factory_constructor_signature",
        }
    ),
    sibling_bodies=_frozen(
        function_signature="function_body",
        getter_signature="function_body",
        setter_signature="function_body",
        method_signature="function_body",
    ),
    identifiers=("identifier", "type_identifier"),
    calls=(
        "((identifier) @call . (selector (argument_part)))"
        " ((selector (unconditional_assignable_selector (identifier) @call)) . (selector (argument_part)))"
    ),
    members="(unconditional_assignable_selector (identifier) @member)",
    # `import`, and what makes another file part of this one: `export 'src/x.dart'` (a library's
    # barrel), `part 'src/x.dart'` (a library split into files, each `part of` it).
    imports=(
        "(import_or_export (_ (import_specification (configurable_uri (uri (string_literal) @module)))))"
        " @import"
        " (import_or_export (library_export (configurable_uri (uri (string_literal) @module)))) @import"
        " (part_directive (uri (string_literal) @module)) @import"
    ),
    import_text=r"^[\"']?(?P<module>[^\"']+)",
    separator="/",
    comments=("comment", "documentation_comment"),
    exported="dart",
)
OCAML = Syntax(
    definitions=_frozen(
        type_definition="type",
        module_definition="module",
        module_type_definition="interface",
        class_definition="class",
        exception_definition="class",
        external="function",
    ),
    names=_frozen(
        type_definition="type_binding/name",
        module_definition="module_binding/module_name",
        module_type_definition="module_type_name",
        class_definition="class_binding/class_name",
        exception_definition="constructor_declaration/constructor_name",
        external="value_name",
        value_specification="value_name|parenthesized_operator",  # `val ( +! ) : ...` too
    ),
    # `val find : 'a t -> key -> 'a` in an interface (`.mli`, `sig ... end`): declared, defined in the .ml.
    declarations=_frozen(value_specification="function"),
    aliases={
        "module_definition": ("module_binding/body", frozenset({"module_path", "extended_module_path"}))
    },
    bindings={
        "value_definition": Binding(
            _frozen(), declarators=("let_binding",), name="pattern", value="body", default="function"
        )
    },
    bodies=frozenset({"structure", "signature"}),
    identifiers=("value_name", "module_name", "type_constructor", "constructor_name"),
    calls="(application_expression function: (value_path (value_name) @call))",
    members="(value_path (module_path) (value_name) @member)",
    imports="(open_module module: (_) @module) @import",
    trailing_docs="(**",
    exported="not-words",
)

PERL = Syntax(
    definitions=_frozen(
        package_statement="module",
        class_statement="class",  # Perl 5.38's `class Point;` / `class Point { ... }`
        subroutine_declaration_statement="function",
        method_declaration_statement="method",
    ),
    # `package Shop::Cart;`: the subs after it, up to the next package, are Shop::Cart's; `package
    # Shop::Cart { ... }` holds its own in its block.
    sections=frozenset({"package_statement", "class_statement"}),
    bodies=frozenset({"block"}),
    identifiers=("bareword", "function", "method"),
    calls=(
        "(function_call_expression function: (function) @call)"
        " (ambiguous_function_call_expression function: (function) @call)"
        " (method_call_expression method: (method) @call)"
    ),
    members="(method_call_expression method: (method) @member)",
    imports=(
        "(use_statement module: (package) @module) @import (require_expression (bareword) @module) @import"
    ),
    import_reader="perl",
    separator="::",
    exported="dart",  # `sub _helper`: private by convention
    pod_docs=True,
    attribute_calls=frozenset({"has"}),
)
# Fortran (free form): a module's or a program's procedures after `contains`, derived types, generic
# interfaces; each named in its opening statement.
# A Fortran heading written twice under a preprocessor conditional (FORTRAN's masks): its lines.
# Its `#if` in column 0: a pattern starting with `#` is searched for fast (one starting at `^`, 4 times
# the CPU over ELPA's and netCDF-Fortran's 269 files).
_FORTRAN_IF = r"#(?<![^\n]#)[ \t]*if[^\n]*\n"
_FORTRAN_ELSE = r"[ \t]*#[ \t]*(?:else[^\n]*\n|endif[^\n]*\n[ \t]*#[ \t]*if[^\n]*\n)"
_FORTRAN_ENDIF = r"[ \t]*#[ \t]*endif[^\n]*(?:\n|$)"
# A branch: a procedure's heading (or its `end`), continued on at most 8 lines that are no directive and
# no `end`.
_FORTRAN_BRANCH = (
    r"(?![ \t]*#)[^\n!]*?\b(?:subroutine|function)[ \t]+\w+[^\n]*\n"
    r"(?:(?![ \t]*#)(?![ \t]*end\b)[^\n]*\n){0,8}?"
)
# Between a pasted name's first line and its pieces: the conditional's other lines, its second heading.
_FORTRAN_SECOND_HEAD = (
    r"(?:(?:[ \t]*#[^\n]*\n)+(?:[^\n!]*\b(?:subroutine|function)[ \t]+\w+&[ \t]*\n(?:[ \t]*#[^\n]*\n)+)?)?"
)
FORTRAN = Syntax(
    definitions=_frozen(
        module="module",
        submodule="module",
        program="module",
        subroutine="function",
        function="function",
        module_procedure="function",
        derived_type_definition="class",
        interface="interface",
    ),
    names=_frozen(
        module="module_statement/name",
        submodule="submodule_statement/name",
        program="program_statement/name",
        subroutine="subroutine_statement/name",
        function="function_statement/name",
        module_procedure="module_procedure_statement/name",
        derived_type_definition="derived_type_statement/type_name",
        interface="interface_statement/name",
        procedure_statement="binding/binding_name|method_name",
    ),
    # `submodule (orchard) orchard_press`, `submodule (orchard:orchard_press) orchard_press_cold`: a
    # submodule's parent is the module (or submodule) it extends, the last it names.
    receivers=_frozen(submodule="submodule_statement/parent/name|submodule_statement/ancestor/name"),
    # A derived type's procedures after its `contains` (`procedure :: area => circle_area`, a deferred
    # `procedure(area_fn), deferred :: area`): its methods, declared (bound to a procedure elsewhere).
    declarations=_frozen(procedure_statement="method"),
    bodies=frozenset({"module", "submodule", "program", "derived_type_definition"}),
    # An interface without a name (`abstract interface`, an explicit one) declares its procedures.
    unnamed=_frozen(interface=""),
    # `#ifdef LOGGING` around a procedure (a `.F90` goes through the C preprocessor): both branches read.
    transparent=frozenset(
        {
            "ERROR",
            "internal_procedures",
            "derived_type_procedures",
            "preproc_ifdef",
            "preproc_if",
            "preproc_else",
            "preproc_elif",
            "preproc_elifdef",
        }
    ),
    identifiers=("identifier", "type_name", "method_name", "type_member"),
    calls="(subroutine_call subroutine: (identifier) @call) (call_expression . (identifier) @call)",
    members="(derived_type_member_expression (type_member) @member)",
    # `use netcdf`, and `include "netcdf_file.f90"` (the file's text pasted there: netCDF's `netcdf` module
    # is some twenty such files).
    imports="(use_statement (module_name) @module) @import (include_statement (filename) @module) @import",
    # Doxygen's `!>`, FORD's `!!`, a plain `!`, a banner's `!!!!`; fixed form's `C` or `*` in column 1.
    doc_markers=r"^(?:[ \t]*!+[<>]?|[Cc*](?=[ \t]|$))",
    # Fixed form's comment lines (FORTRAN 77's `.f`, `.F`): a `C`, `c` or `*` in column 1, read as the
    # free form's `!` (the grammar's form), else every line after is in error. Not free form's code
    # there: `call f`, `character c`, `c = 1`, `c(1) = 2` start with a letter, `=` or `(` after the `c`.
    # A procedure named by the preprocessor's token pasting, a continued line per piece (ELPA's `subroutine
    # bandred_&` / `&MATH_DATATYPE&` / `&_&` / `&PRECISION &` / `(obj, na, ...)`): the grammar names it by
    # a piece, or loses it. Read as `subroutine bandred&` with the pieces blank (its `end subroutine`
    # likewise, without the `&`): named by its stem (ELPA 2022.11: 84 of 183 such procedures named, 133 now).
    # A heading written twice, one per branch of a preprocessor conditional (`#ifdef DOUBLE_PRECISION`
    # / `subroutine kernel_double(q)` / `#else` / `subroutine kernel_single(q)` / `#endif`, or `#if
    # REALCASE == 1` / `subroutine hh_transform_real_&` / `#endif` / `#if COMPLEXCASE == 1` / ...), with
    # one body and one `end`: the grammar read two procedures, the first holding the rest of the file,
    # or none. The first branch is read, as the preprocessor would with its condition true: the
    # conditional's other lines blank (an `end` written twice likewise), the pieces pasted after it
    # named by the stem as above.
    masks=(
        r"(?m)^(?P<bang>\*|[Cc](?=[ \t]*$|[ \t]+[^ \t=(]|[-=*!#+~cC]))",
        r"(?i)(?<!end)(?<!end )\b(?:subroutine|function)[ \t]+\w+?"
        rf"(?P<amp>_?&[ \t]*\n{_FORTRAN_SECOND_HEAD}(?:[ \t]*&\w*[ \t]*&[ \t]*\n)*[ \t]*&\w*[ \t]*)(?=&)",
        r"(?im)\bend[ \t]*(?:subroutine|function)[ \t]+\w+?"
        rf"(?P<mask>_?&[ \t]*\n{_FORTRAN_SECOND_HEAD}(?:[ \t]*&\w*[ \t]*&[ \t]*\n)*[ \t]*&\w*)[ \t]*$",
        rf"(?im)(?P<mask>{_FORTRAN_IF})(?={_FORTRAN_BRANCH}{_FORTRAN_ELSE}{_FORTRAN_BRANCH}{_FORTRAN_ENDIF})",
        rf"(?im){_FORTRAN_IF}{_FORTRAN_BRANCH}(?P<mask>{_FORTRAN_ELSE}{_FORTRAN_BRANCH}{_FORTRAN_ENDIF})",
    ),
)

# Groovy (the grammar is Java's, extended): classes and their methods, a script's `def` functions, and
# closures held by a script's variables (`def discount = { x -> ... }`), functions as much as `def`s are.
# A Gradle build or a Jenkins pipeline is calls with closures: no definitions, cut into windows.
# Groovy's `trait Glazed { ... }`, which tree-sitter-groovy cannot read (a call of `trait`, then a
# closure): read as the `class` it is like (same length), an interface as Rust's and Scala's traits are.
# A field or variable with modifiers and no type (`private static final SEP = '/'`, Groovy's
# constants): the grammar, Java's, wants a type there and can lose the whole class around it. Its
# last modifier is read as the `def` it means (`private static def   SEP = '/'`); not before a
# closure (`protected make = { ... }`), which the grammar reads better without a type.
# Groovy's own operators, where tree-sitter-groovy 0.1.2 gives up on the statement (the safe navigation
# `rates[name]?.label()`) or on the whole class (an empty `''`, to Java an empty char): `?.` is read as
# `.`, the Elvis `?:` as `||`, `''` as `""`, and `assert ok, 'message'` as Java's `assert ok : 'message'`
# (CodeNarc 0.23: 52 of 870 files had lost their own class, 20 now; GMetrics 0.7: 26 of 214, 5 now).
_GROOVY_MASKS = (
    r"(?m)^[ \t]*(?:(?:public|private|protected|abstract|static)[ \t]+)*(?P<klass>trait)(?=[ \t]+\w)",
    r"(?m)^[ \t]*(?:(?:private|protected|public|static|final|transient|volatile)[ \t]+)*"
    r"(?P<define>(?:private|protected|public|static|final)[ \t]+)"
    r"(?=[A-Za-z_$][\w$]*[ \t]*=[ \t]*[^\s{=~])",
    r"(?P<mask>\?)(?=\.[A-Za-z_@$])",
    r"(?P<either>\?:)",
    r"(?<![\\'])(?P<quotes>'')(?!')",
    r"(?m)^[ \t]*assert\b[^\n]*?(?P<colon>,)(?=[ \t]*(['\"])(?:\\.|(?!\2).)*\2[ \t]*$)",
)
GROOVY = Syntax(
    definitions=_frozen(
        class_declaration="class",
        interface_declaration="interface",
        enum_declaration="type",
        record_declaration="class",
        annotation_type_declaration="interface",
        method_declaration="method",
        constructor_declaration="method",
        function_definition="function",
    ),
    bodies=frozenset({"class_body"}),
    masks=_GROOVY_MASKS,
    head_kinds=((r"\btrait\s+$", "interface"),),
    # A closure held by a variable is a function, by a field (`Closure fire = { pot -> ... }`) a method.
    bindings={
        "local_variable_declaration": Binding(
            _frozen(closure="function"), declarators=("variable_declarator",), name="name", value="value"
        ),
        "field_declaration": Binding(
            _frozen(closure="method"), declarators=("variable_declarator",), name="name", value="value"
        ),
    },
    identifiers=("identifier", "type_identifier"),
    calls=(
        "(method_invocation name: (identifier) @call)"
        " (juxt_function_call name: (identifier) @call)"
        " (object_creation_expression type: (type_identifier) @call)"
    ),
    members=(
        "(method_invocation object: (_) name: (identifier) @member)"
        " (field_access field: (identifier) @member)"
    ),
    imports="(import_declaration) @import",
    import_text=r"import\s+(?:static\s+)?(?P<module>[\w.$*]+)",
    comments=("line_comment", "block_comment"),
    # A field whose closure ends its line without a `;` takes in the comments after it (the Javadoc
    # of the method that follows), so that a definition's doc is also read from the node before.
    comments_in_previous=True,
    exported="not-words",
    # tree-sitter-groovy 0.1.2 gives up on a whole class at constructs it cannot read (a one-line
    # closure `{ return x }` as a field's value, a slashy regex `~/[A-Z].*/`, an untyped parameter):
    # GMetrics 0.7 had 26 of 214 files without a symbol, 14 after the mask above, 4 healed. Each step
    # costs a parse (CodeNarc's 870 files, parsed in one process: 1.2 s CPU unhealed, 3.9 s at 10 steps,
    # 6.7 s at 64; 3.7 s at 10 healing only the 314 trees with an ERROR node, one symbol more).
    heal_lines=10,
    heal_missing=False,
)
# Julia: modules, structs and abstract types, `function`s, `macro`s, and the short form `f(x) = ...`.
JULIA = Syntax(
    definitions=_frozen(
        module_definition="module",
        struct_definition="class",
        abstract_definition="type",
        primitive_definition="type",
        function_definition="function",
        macro_definition="macro",
    ),
    names=_frozen(
        struct_definition="type_head/**identifier",
        abstract_definition="type_head/**identifier",
        primitive_definition="type_head/**identifier",
        function_definition="signature/**call_expression/0",
        macro_definition="signature/**call_expression/0",
    ),
    bodies=frozenset({"module_definition"}),
    # `clamp(x) = min(x, 1e6)`, `Base.show(io::IO, a::Account) = ...`: a function, named by its call,
    # and so is `double(x::T) where {T<:Number} = 2x` (the call inside the `where`).
    bindings={
        "assignment": Binding(
            _frozen(call_expression="function", where_expression="function"),
            name="call_expression/0|where_expression/call_expression/0",
            value="0",
        )
    },
    # A definition given to a macro (`@inline f(x) = x + 1`, `@kwdef struct Options ... end`) is a
    # definition, its doc the string before the macro.
    wrappers=_frozen(macrocall_expression="macro_argument_list/0"),
    identifiers=("identifier",),
    calls=(
        "(call_expression . (identifier) @call)"
        " (call_expression . (field_expression (identifier) @call .))"
        " (macrocall_expression (macro_identifier (identifier) @call))"
    ),
    members="(field_expression (identifier) @member .)",
    # `using Foo`, `import Foo.Bar`, and `include("detection.jl")`: a package's module file is its other
    # files included.
    imports=(
        "(using_statement) @import (import_statement) @import"
        " ((call_expression . (identifier) @_include (argument_list . (string_literal) @module .)) @import"
        ' (#eq? @_include "include"))'
    ),
    import_text=r'(?:(?:using|import)\s+|^")(?P<module>[\w./-]+)',
    # A string right before a definition is its docstring (`"Add an amount."`, `"""..."""`).
    comments=("line_comment", "block_comment", "string_literal"),
    # A docstring's opening quotes (the shared rule takes the closing), and the signature Julia's
    # convention indents by four more on the lines after them, then a blank line (`    area(c)`): the
    # first line of prose after it is the doc.
    doc_markers=r'\A([ \t]*)(?:raw)?"(?:"")?(?:[ \t]*\n(?:\1(?: {4}|\t)[^\n]*\n)+(?=[ \t]*\n))?',
)

# F#: modules (a file's `module Shop.Ledger`, nested `module Report =`), namespaces, types (records,
# unions, classes, interfaces, abbreviations), `let` functions and the members of types.
# `let rec isEven n = ...` then `and isOdd n = ...`: tree-sitter-fsharp reads both functions as one
# definition, named by the first; the `and` of a function with arguments (not a property's `and set v`,
# not a type's `and Node =`) is read as the `let` it stands for (parse/syntax.py's leads).
_FSHARP_MASKS = (
    r"(?m)^[ \t]*(?P<let>and)(?=[ \t]+(?:(?:inline|private|internal|public)[ \t]+)*(?!(?:get|set)\b)"
    r"[A-Za-z_]\w*[ \t]+[A-Za-z_(])",
)
FSHARP = Syntax(
    definitions=_frozen(
        named_module="module",
        module_defn="module",
        namespace="module",
        record_type_defn="class",
        union_type_defn="type",
        enum_type_defn="type",
        anon_type_defn="class",
        interface_type_defn="interface",
        type_abbrev_defn="type",
        delegate_type_defn="type",
        function_or_value_defn="function",  # a `let` with arguments; a value (`let limit = 3`) has no name
        method_or_prop_defn="method",
        exception_definition="class",
    ),
    masks=_FSHARP_MASKS,
    names=_frozen(
        exception_definition="long_identifier",
        module_defn="identifier",
        record_type_defn="type_name/type_name",
        union_type_defn="type_name/type_name",
        enum_type_defn="type_name/type_name",
        anon_type_defn="type_name/type_name",
        interface_type_defn="type_name/type_name",
        type_abbrev_defn="type_name/type_name",
        delegate_type_defn="type_name/type_name",
        function_or_value_defn="function_declaration_left/identifier",
        method_or_prop_defn="name/method|name/identifier",
        member_signature="identifier",
        member_defn="property_or_ident/identifier",
    ),
    # `member val Litres = 0 with get, set`: an auto-property, a member whose getter (and setter) F#
    # writes; a method declared, as C#'s `{ get; set; }` is.
    computed=_frozen(member_defn="property_or_ident"),
    # An interface's `abstract Price: unit -> decimal`: declared, defined by the types implementing it.
    declarations=_frozen(member_signature="method"),
    abstract_interfaces=frozenset({"anon_type_defn"}),
    # A type's members come in one `type_extension_elements` each: the type is its own body.
    bodies=frozenset(
        {"named_module", "module_defn", "namespace", "record_type_defn", "union_type_defn", "anon_type_defn"}
        | {"interface_type_defn", "type_extension"}
    ),
    # `type Account with member ...` adds members to a type defined elsewhere.
    containers=_frozen(type_extension="type_name"),
    # A class's `interface IStore with member this.Load ...`: methods of the class.
    transparent=frozenset(
        {"ERROR", "declaration_expression", "type_definition", "member_defn", "type_extension_elements"}
        | {"interface_implementation"}
    ),
    identifiers=("identifier",),
    calls=(
        "(application_expression . (long_identifier_or_op (identifier) @call))"
        " (application_expression . (long_identifier_or_op (long_identifier (identifier) @call .)))"
    ),
    members="(long_identifier (identifier) (identifier) @member .)",
    imports="(import_decl (long_identifier) @module) @import",
    comments=("line_comment", "block_comment", "xml_doc"),
    attributes=("attributes",),  # `/// doc` then `[<Obsolete>]`: the doc is the definition's
    comments_in_previous=True,
    exported="not-words",
    private=frozenset({"private", "internal"}),
)

# --- the table ------------------------------------------------------------------------------------

_KOTLIN_TESTS = (r".+Tests?\.kts?", r".+Spec\.kts?", r".+IT\.kts?")
# Gradle's test source sets: `src/test`, Android's `src/androidTest`, `src/androidUnitTest`,
# multiplatform's `src/commonTest`, `src/jvmTest`, `src/iosTest`..., and `src/testFixtures`.
_GRADLE_TEST_DIRS = ("src/test", r"src/[a-z]\w*Test", "src/testFixtures")
LANGUAGES: tuple[Language, ...] = (
    Language(
        "python",
        (".py", ".pyi"),
        ("tree_sitter_python", "language"),
        PYTHON,
        test_files=(r"test_.+\.py", r".+_tests?\.py", r"conftest\.py"),
        reexports=("__init__.py",),
        interpreters=("python", "pypy"),
    ),
    Language(
        "cython",
        (".pyx", ".pxd", ".pxi"),
        ("tree_sitter_python", "language"),
        CYTHON,
        test_files=(r"test_.+\.pyx",),
        headers=(".pxd",),  # what a module's `.pyx` defines, declared for other modules to `cimport`
        included=(".pxi",),
        family="python",
    ),
    Language(
        "typescript",
        (".ts", ".mts", ".cts"),
        ("tree_sitter_typescript", "language_typescript"),
        TYPESCRIPT,
        test_files=(r".+\.(?:test|spec)\.[cm]?ts",),
        reexports=("index.ts",),
        test_dirs=("__tests__", "__mocks__"),
    ),
    Language(
        "tsx",
        (".tsx",),
        ("tree_sitter_typescript", "language_tsx"),
        dataclasses.replace(TYPESCRIPT, masks=(_TS_VARIANCE,)),
        test_files=(r".+\.(?:test|spec)\.tsx",),
        family="typescript",
        test_dirs=("__tests__",),
    ),
    Language(
        "javascript",
        (".js", ".mjs", ".cjs", ".jsx"),
        ("tree_sitter_javascript", "language"),
        JAVASCRIPT,
        test_files=(r".+\.(?:test|spec)\.[cm]?jsx?",),
        reexports=("index.js",),
        test_dirs=("__tests__", "__mocks__"),
        interpreters=("node", "nodejs", "js", "javascript"),
    ),
    Language(
        "go",
        (".go",),
        ("tree_sitter_go", "language"),
        GO,
        test_files=(r".+_test\.go",),
        package_docs=("doc.go",),
    ),
    Language(
        "rust",
        (".rs",),
        ("tree_sitter_rust", "language"),
        RUST,
        test_files=(r"tests?\.rs",),
        reexports=("mod.rs",),
        package_docs=("lib.rs",),
    ),
    Language(
        "java",
        (".java",),
        ("tree_sitter_java", "language"),
        JAVA,
        test_files=(r".+Tests?\.java", r".+IT\.java", r"Test.+\.java"),
        test_dirs=_GRADLE_TEST_DIRS,
        reexports=("package-info.java", "module-info.java"),
    ),
    Language(
        "kotlin",
        (".kt", ".kts"),
        ("tree_sitter_kotlin", "language"),
        KOTLIN,
        test_files=_KOTLIN_TESTS,
        test_dirs=_GRADLE_TEST_DIRS,
    ),
    Language(
        "scala",
        (".scala", ".sc", ".sbt"),  # sbt's build files are Scala: `lazy val core = project.settings(...)`
        ("tree_sitter_scala", "language"),
        SCALA,
        test_files=(r".+(?:Spec|Suite|Tests?|Laws)\.scala",),
        test_dirs=("src/test",),
    ),
    Language(
        "c",
        (".c", ".h"),
        ("tree_sitter_c", "language"),
        C,
        test_files=(r"test_.+\.c", r".+_test\.c", r"test-.+\.c"),
        headers=(".h",),
    ),
    Language(
        "cpp",
        (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"),
        ("tree_sitter_cpp", "language"),
        CPP,
        test_files=(
            r".+_(?:test|unittest|benchmark)\.(?:cc|cpp|cxx)",
            r"test_.+\.(?:cc|cpp|cxx)",
            r".+-test\.(?:cc|cpp|cxx)",
        ),
        headers=(".hpp", ".hh", ".hxx", ".h++", ".h"),
    ),
    Language(
        "objc",
        (".m",),
        ("tree_sitter_objc", "language"),
        OBJC,
        test_files=(r".+Tests?\.m",),
        test_dirs=(r"[^/]*Tests",),
        headers=(".h",),
    ),
    Language(
        "objcpp",
        (".mm",),
        ("tree_sitter_objc", "language"),
        OBJCPP,
        test_files=(r".+Tests?\.mm",),
        test_dirs=(r"[^/]*Tests",),
        family="objc",
        rereading=Rereading("cpp", _OBJC_IN_CPP),
    ),
    Language(
        "csharp",
        (".cs",),
        ("tree_sitter_c_sharp", "language"),
        CSHARP,
        test_files=(r".+Tests?\.cs",),
        # .NET's test projects: `Dapper.Tests`, `Foo.UnitTests`, `Foo.IntegrationTests`,
        # `Dapper.Tests.Performance`, `Foo.Specs`.
        test_dirs=(r"[^/]*\.\w*Tests?(?:\.[^/]+)?", r"[^/]*\.Specs?"),
    ),
    Language(
        "swift",
        (".swift",),
        ("tree_sitter_swift", "language"),
        SWIFT,
        test_files=(r".+Tests?\.swift", r".+Spec\.swift"),
        test_dirs=("Tests", r"[^/]*Tests"),
    ),
    Language(
        "ruby",
        (".rb", ".rake", ".gemspec"),
        ("tree_sitter_ruby", "language"),
        RUBY,
        file_names=("Rakefile", "Gemfile"),
        test_files=(r".+_(?:spec|test)\.rb", r"test_.+\.rb"),
        interpreters=("ruby", "jruby"),
    ),
    Language(
        "php",
        (".php",),
        ("tree_sitter_php", "language_php"),
        PHP,
        test_files=(r".+Test\.php",),
        interpreters=("php",),
    ),
    Language(
        "elixir",
        (".ex", ".exs"),
        ("tree_sitter_elixir", "language"),
        ELIXIR,
        test_files=(r".+_test\.exs",),
        interpreters=("elixir",),
    ),
    Language(
        "lua",
        (".lua",),
        ("tree_sitter_lua", "language"),
        LUA,
        test_files=(r".+_spec\.lua", r".+_test\.lua", r"test_.+\.lua"),
        heads=("init.lua",),
        interpreters=("lua", "luajit"),
    ),
    Language(
        "shell",
        (".sh", ".bash", ".zsh", ".bats"),
        ("tree_sitter_bash", "language"),
        BASH,
        test_files=(r".+\.bats", r"test_.+\.sh", r".+_test\.sh"),
        interpreters=("sh", "bash", "zsh", "dash", "ksh", "mksh", "bats", "shell-script"),
    ),
    Language(
        "haskell",
        (".hs", ".lhs"),
        ("tree_sitter_haskell", "language"),
        HASKELL,
        test_files=(r".+Spec\.hs", r".+Test\.hs"),
        module_folders=True,
    ),
    Language(
        "zig",
        (".zig",),
        ("tree_sitter_zig", "language"),
        ZIG,
        test_files=(r".+_test\.zig", r"tests?\.zig"),  # the std's `json/test.zig` holds `json/`'s tests
        file_module="struct",
    ),
    Language(
        "dart",
        (".dart",),
        ("tree_sitter_dart", "language"),
        DART,
        test_files=(r".+_test\.dart",),
        generated_dirs=(),
        reexports=(),
    ),
    Language(
        "ocaml",
        (".ml", ".mli"),
        ("tree_sitter_ocaml", "language_ocaml"),
        OCAML,
        test_files=(r"test_.+\.ml", r".+_test\.ml"),
        headers=(".mli",),  # the interface of the module its `.ml` implements, read with it
        file_module="capitalized",
    ),
    Language(
        "perl",
        (".pl", ".pm", ".t"),
        ("tree_sitter_perl", "language"),
        PERL,
        test_files=(r".+\.t",),  # `t/basic.t`, `xt/author/pod.t`
        interpreters=("perl", "cperl"),
    ),
    Language(
        "fortran",
        (".f90", ".f95", ".f03", ".f08", ".f", ".for"),
        ("tree_sitter_fortran", "language"),
        FORTRAN,
        interpreters=("fortran",),
    ),
    # Groovy: Groovy code (logback's Gaffer configurations, Spock's specifications) and Jenkins pipelines.
    Language(
        "groovy",
        (".groovy", ".gvy"),
        ("tree_sitter_groovy", "language"),
        GROOVY,
        file_names=("Jenkinsfile",),
        test_files=(r".+(?:Spec|Tests?)\.groovy",),  # Spock's `CartSpec.groovy`, JUnit's `CartTest.groovy`
        test_dirs=_GRADLE_TEST_DIRS,
        interpreters=("groovy",),
    ),
    Language(
        "julia",
        (".jl",),
        ("tree_sitter_julia", "language"),
        JULIA,
        test_files=(r"runtests\.jl",),  # `test/runtests.jl`, what `Pkg.test` runs
        interpreters=("julia",),
    ),
    Language(
        "fsharp",
        (".fs", ".fsx"),  # not `.fsi` signatures: another grammar; a `.fs` GLSL shader is glsl (language_for)
        ("tree_sitter_fsharp", "language"),
        FSHARP,
        test_files=(r".+Tests?\.fs",),
        test_dirs=(r"[^/]*\.Tests?",),  # `Shop.Tests/`, .NET's test projects
        interpreters=("fsharpi", "fsi"),
    ),
    # Documentation and other text: cut into sections (markdown) or windows of lines.
    Language("markdown", (".md", ".markdown", ".mdx"), doc=True),
    Language("rst", (".rst",), doc=True),
    Language("text", (".txt",), doc=True),
    Language("asciidoc", (".adoc",), doc=True),
    Language("json", (".json",)),
    Language("toml", (".toml",)),
    Language("yaml", (".yaml", ".yml")),
    Language("ini", (".ini", ".cfg")),
    Language("sql", (".sql",)),
    Language("html", (".html",)),
    # An HTML page of a documentation site or a manual (language_for tells it from other HTML by its folder
    # or by Javadoc's names, _DOC_PAGE): prose, like Markdown; not code.
    Language("htmldoc", (), doc=True),
    Language("css", (".css", ".scss")),
    Language("vue", (".vue",)),
    Language("svelte", (".svelte",)),
    Language("graphql", (".graphql",)),
    Language("protobuf", (".proto",)),
    # Lexer and parser generators' sources: the rules with the host language's code in their actions
    # (flex's `.l`, ocamllex's `.mll`; yacc's and bison's `.y`/`.yy`, ocamlyacc's and Menhir's `.mly`).
    # Code a developer asks about ("where is the dot format lexed"), cut into windows: no grammar here.
    Language("lex", (".l", ".mll")),
    Language("yacc", (".y", ".yy", ".mly")),
    # jq's own language: a jq program's library of filters (jq's `builtin.jq`, a project's `.jq` modules).
    Language("jq", (".jq",)),
    # Gradle's build scripts (`build.gradle`, `settings.gradle`: the build of most Java, Kotlin and Android
    # projects) are Groovy that tree-sitter-groovy 0.1.2 misreads (`a?.b`, `compileSdkVersion f(x)`, `x.y
    # "z"`: react-native-screens' build.gradle was one function swallowing the last 117 of its 233 lines),
    # and hold calls with closures, not definitions: code, cut into windows, as before it was parsed.
    Language("gradle", (".gradle",)),
    # GLSL shaders: a fragment shader is often `shader.fs` (a vertex shader `shader.vs`), the extension of
    # F#: language_for tells them apart by their first lines (_GLSL_SHADER). Code cut into windows, as
    # are shaders under GLSL's own extensions (glslang's stage names; not `.comp`, said of other things).
    Language("glsl", (".glsl", ".vert", ".frag", ".geom", ".tesc", ".tese")),
    # Languages a team writes that have no grammar here: code cut into windows, so that search_code finds
    # them (text before: documentation). R, Erlang (common_test's `*_SUITE.erl`, EUnit's `*_tests.erl`),
    # Clojure.
    Language("r", (".r",), interpreters=("rscript", "r")),
    Language(
        "erlang",
        (".erl", ".hrl"),
        test_files=(r".+_SUITE\.erl", r".+_tests\.erl"),
        interpreters=("escript", "erlang"),
    ),
    Language(
        "clojure", (".clj", ".cljs", ".cljc"), test_files=(r".+_test\.clj[sc]?",), interpreters=("clojure",)
    ),
    Language("dockerfile", (), file_names=("Dockerfile",)),
    # GNU make reads `GNUmakefile` first, then `makefile`, then `Makefile` (GNUstep names every one so).
    Language("makefile", (), file_names=("Makefile", "GNUmakefile", "makefile")),
)

BY_NAME: Mapping[str, Language] = MappingProxyType({language.name: language for language in LANGUAGES})
_BY_EXTENSION = {ext: language for language in LANGUAGES for ext in language.extensions}
_BY_FILE_NAME = {name: language for language in LANGUAGES for name in language.file_names}
_BY_INTERPRETER = {name: language for language in LANGUAGES for name in language.interpreters}
TEXT = "text"
DOC_LANGUAGES = frozenset(language.name for language in LANGUAGES if language.doc)
PARSED_LANGUAGES = frozenset(language.name for language in LANGUAGES if language.parsed)


def language_of(path: str) -> str:
    """The language of a file, by its name or extension ('text' for anything else)."""
    name = PurePosixPath(path).name
    found = _BY_FILE_NAME.get(name) or _BY_EXTENSION.get(PurePosixPath(name).suffix.lower())
    return found.name if found else TEXT


# C++ in a `.h` file: what C never has (namespaces, templates, classes, C++ standard headers).
_CPP_HEADER = re.compile(
    rb"^\s*(?:namespace\s+\w+|template\s*<|class\s+\w+[^;]*$|#\s*include\s*<(?:string|vector|memory|utility"
    rb"|type_traits|iterator|cstddef|cstdint|cstdio|cstring|limits|functional|map|iosfwd|ostream|chrono"
    rb"|algorithm|array|initializer_list|stdexcept|system_error|atomic|thread|mutex)>|extern\s+\"C\+\+\")",
    re.M,
)

# Objective-C in a `.h` file: what neither C nor C++ has (`@interface Widget`, `@protocol`, `@end`,
# `#import`). Not a Doxygen command in a comment (` * @interface`): only at the start of a line.
_OBJC_HEADER = re.compile(
    rb"^[ \t]*(?:@(?:interface|protocol|implementation|class)[ \t]+[A-Za-z_]|@end\b"
    rb"|#[ \t]*import[ \t]*[<\"])",
    re.M,
)

# A GLSL shader in a `.fs` (F#'s extension) or `.vs` file: lines F# never writes (`#version 330`, a
# declaration ending in `;` as `precision mediump float;`, `uniform sampler2D tex;`, `in vec3 normal;`,
# `layout(location = 0)`, `void main()`).
_GLSL_SHADER = re.compile(
    rb"^[ \t]*(?:#[ \t]*version[ \t]+\d+"
    rb"|(?:precision|uniform|in|out|varying|attribute)(?:[ \t]+\w+)+[ \t]*(?:\[\w*\][ \t]*)?;"
    rb"|layout[ \t]*\([ \t]*(?:location|binding|set|std140|std430|push_constant)\b"
    rb"|void[ \t]+main[ \t]*\()",
    re.M,
)

# An HTML page that is documentation: in a documentation site's or a manual's folder (logback's
# logback-site/src/site/pages/manual/, NUnit's doc/, a Jekyll site's docs/_layouts/), or Javadoc's
# `package.html` and `overview.html` beside the Java sources they describe.
_DOC_PAGE = re.compile(
    r"(?:^|/)(?:docs?|documentation|site|manual|javadoc|apidocs?)/|(?:^|/)(?:package|overview)\.html$", re.I
)

# PHP's open tag at a file's start: PHP code under a name PHP's table does not list (Symfony's and
# PHPUnit's `common.inc` fixtures, Drupal's `.module`, `.install` and `.inc` files, templates `*.tpl`).
_PHP_OPEN = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*<\?php\b")
# The interpreter of a `#!` line: `#!/bin/sh -e`, `#!/usr/bin/env bash`, `#!/usr/bin/env -S lua -W`.
_SHEBANG = re.compile(rb"\A#![ \t]*(?:\S*/)?([^/\s]+)(?:[ \t]+(?:-\S+[ \t]+)*([^-\s]\S*))?")
_EMACS_MODE = re.compile(rb"-\*-[ \t]*(?:[^\n]*?\bmode:[ \t]*)?([\w+-]+)[ \t;]*(?:[^\n]*?)-\*-", re.I)
_VIM_MODE = re.compile(rb"(?:^|\s)(?:vim?|ex):.*?\b(?:ft|filetype)=([\w+-]+)")
_VERSION = re.compile(r"[\d.]+$")
HEAD_BYTES = 8192  # how much of a file the walk reads to tell its language, binary or generated


def language_for(path: str, head: bytes) -> str:
    """The language of a file from its name and its first bytes (HEAD_BYTES): a `.h` header holding
    Objective-C is Objective-C, one holding C++ is C++; an HTML page in a documentation folder is
    documentation (`htmldoc`); a `.fs` or `.vs` shader is GLSL, not F#; a file whose name says nothing
    (`bin/tool`, `libexec/run-tests`, bash-completion's `completions/make`) is in the language its `#!`
    line or an editor's mode line names, or PHP when it opens with `<?php` (`common.inc`)."""
    found = language_of(path)
    if found == "html" and _DOC_PAGE.search(path):
        return "htmldoc"
    if path.endswith((".fs", ".vs")) and _GLSL_SHADER.search(head):
        return "glsl"
    if found == "c" and path.endswith(".h"):
        if _OBJC_HEADER.search(head):
            return "objc"
        if _CPP_HEADER.search(head):
            return "cpp"
    name = PurePosixPath(path).name
    unnamed = name not in _BY_FILE_NAME and PurePosixPath(name).suffix.lower() not in _BY_EXTENSION
    if found == TEXT and unnamed:
        return _declared_language(head) or found
    return found


def _declared_language(head: bytes) -> str | None:
    if _PHP_OPEN.match(head):
        return "php"
    lines = head.splitlines()
    shebang = _SHEBANG.match(head)
    named = []
    if shebang:
        interpreter = shebang[1]
        named.append(shebang[2] if interpreter == b"env" and shebang[2] else interpreter)
    # Emacs reads its mode line on the first line (the second after `#!`), Vim in the first and the
    # last five lines (the last only when the head is the whole file).
    for line in lines[:2]:
        named += _EMACS_MODE.findall(line)
    ends = lines[:5] + (lines[-5:] if len(head) < HEAD_BYTES else [])
    for line in ends:
        named += _VIM_MODE.findall(line)
    for word in named:
        text = word.decode("ascii", "replace").lower()
        language = _BY_INTERPRETER.get(text) or _BY_INTERPRETER.get(_VERSION.sub("", text))
        if language is not None:
            return language.name
    return None


def language(name: str) -> Language:
    return BY_NAME.get(name) or BY_NAME[TEXT]


@functools.cache
def test_file_pattern() -> re.Pattern[str]:
    """Every ecosystem's test file names, as one regex to match a file's whole name (not its folders:
    hspec's `Test/Hspec/Core/Spec.hs` is no `FooSpec.hs`)."""
    names = "|".join(pattern for language in LANGUAGES for pattern in language.test_files)
    return re.compile(rf"(?:{names})")


@functools.cache
def test_dir_pattern() -> re.Pattern[str]:
    """Every ecosystem's test folders (besides the common ones in paths.py), matched in a whole path."""
    dirs = "|".join(dict.fromkeys(d for language in LANGUAGES for d in language.test_dirs))
    return re.compile(rf"(?:^|/)(?:{dirs})(?:/|$)")


@functools.cache
def module_folder_languages() -> frozenset[str]:
    return frozenset(language.name for language in LANGUAGES if language.module_folders)


@functools.cache
def reexport_names() -> frozenset[str]:
    return frozenset(name for language in LANGUAGES for name in language.reexports)


@functools.cache
def package_doc_names() -> frozenset[str]:
    return frozenset(name for language in LANGUAGES for name in language.package_docs)


@functools.cache
def head_names() -> frozenset[str]:
    return frozenset(name for language in LANGUAGES for name in language.heads)


@functools.cache
def header_extensions() -> frozenset[str]:
    return frozenset(ext for language in LANGUAGES for ext in language.headers)


@functools.cache
def included_extensions() -> tuple[str, ...]:
    return tuple(ext for language in LANGUAGES for ext in language.included)


@functools.cache
def implementation_extensions() -> frozenset[str]:
    """The other extensions of the languages that have headers (`.c`, `.cc`, `.cpp`, `.inl`...)."""
    return (
        frozenset(ext for language in LANGUAGES if language.headers for ext in language.extensions)
        - header_extensions()
    )
