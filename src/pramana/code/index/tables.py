"""The code index's tables in one SQLite file (files, chunks, their vectors and term bags, symbols,
imports, references), and reading their rows as the typed records of records.py.

Each stage adds its own queries over these tables: the index its writes (index/store.py), search its
reads (search/store.py), the symbol tools theirs (symbols/store.py); pramana.code.store.CodeStore is
all three over one file.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Sequence
from typing import TypeVar

from pramana.code.records import ChunkRecord, FileRecord
from pramana.store.sqlite import SQLiteStore, write_transaction

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    package TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    sha TEXT NOT NULL,
    lines INTEGER NOT NULL
);
CREATE TABLE chunks (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    chunk_type TEXT NOT NULL,
    name TEXT,
    parent TEXT,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    content TEXT NOT NULL
);
CREATE INDEX chunks_file ON chunks(file_id, start_line);
CREATE TABLE vectors (
    chunk_rowid INTEGER PRIMARY KEY REFERENCES chunks(rowid) ON DELETE CASCADE,
    vector BLOB NOT NULL
);
CREATE TABLE symbols (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    parent TEXT,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    exported INTEGER NOT NULL,
    signature TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX symbols_name ON symbols(name);
CREATE INDEX symbols_kind ON symbols(kind);
CREATE INDEX symbols_file ON symbols(file_id, start_line);
CREATE TABLE imports (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    module TEXT NOT NULL,
    names TEXT NOT NULL,
    line INTEGER NOT NULL,
    resolved TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX imports_file ON imports(file_id);
CREATE TABLE dependencies (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    target TEXT NOT NULL
);
CREATE INDEX dependencies_target ON dependencies(target);
CREATE TABLE refs (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    line INTEGER NOT NULL,
    kind TEXT NOT NULL
);
CREATE INDEX refs_name ON refs(name);
CREATE INDEX refs_file ON refs(file_id);
"""

# The refs table's indexes (SCHEMA's): a cold index drops them while it writes and builds them
# after (index/store.py BulkWriter); whatever runs an index next makes sure they are there.
REFS_INDEXES = {"refs_name": "refs(name)", "refs_file": "refs(file_id)"}

# refs.member: the reference reaches a member (`x.name`, `x.name()`, `X::name`), so a method's usages
# can leave out variables of the same name. Files indexed before it are parsed again at the next index.
REFS_MEMBER = """
ALTER TABLE refs ADD COLUMN member INTEGER NOT NULL DEFAULT 0;
UPDATE files SET size = -1, sha = '';
"""

# BM25 in memory (lexical.py): each chunk's stemmed terms as ids into the lexicon, with weights.
LEXICON = """
CREATE TABLE lexicon (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
CREATE TABLE bags (
    chunk_rowid INTEGER PRIMARY KEY REFERENCES chunks(rowid) ON DELETE CASCADE,
    terms BLOB NOT NULL,
    weights BLOB NOT NULL
);
"""

# The FTS5 table of each chunk's terms, which keyword search used before the bags: writing it
# was a third of the indexing time. Bags missing after this are counted from the chunks.
DROP_FTS = "DROP TABLE IF EXISTS chunk_terms;"

# What search holds in memory (the BM25 postings, the vector matrix), saved as the arrays it is
# made of, so that a new process (a CLI call, a server start) loads it in milliseconds instead of
# rebuilding it from every chunk's row (0.8 s for 40k chunks). Arrays and NUL-joined strings
# only: never pickle, which would run code from whoever wrote the index file.
SNAPSHOTS = """
CREATE TABLE snapshots (
    kind TEXT NOT NULL,
    part TEXT NOT NULL,
    generation INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (kind, part)
);
"""


# Re-exports (`export * from "./x"`) and Rust's `mod x;` are dependencies: files indexed before are
# parsed again at the next index.
REEXPORT_IMPORTS = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('typescript', 'tsx', 'javascript', 'rust');
"""

# A C or C++ header's top-level prototypes (and their doc comments) are in module chunks: they were
# in none. Files indexed before are parsed again at the next index.
HEADER_PROTOTYPES = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('c', 'cpp');
"""

# Scripts without an extension are code in the language their `#!` or mode line names (they were
# text); Bash's and Lua's definitions are read further (healed files, `f() {} && cmd`, `A:m` methods,
# tables that own members). Files indexed before are parsed again at the next index.
SCRIPTS = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('text', 'shell', 'lua');
"""

# An OCaml file is its module and a capitalised Zig file its struct (a symbol, the parent of what the
# file defines); OCaml's `val`s are declarations and renamings none; C's include guards are no macros.
# Files indexed before are parsed again at the next index.
FILE_MODULES = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('ocaml', 'zig', 'c', 'cpp');
"""

# The members of a class nested in one that is a single chunk are symbols (they were lost, in every
# language); Swift's and Kotlin's computed properties are symbols; Swift's `#if` between a switch's
# cases no longer costs the class around it. Code files indexed before are parsed again at the next
# index (documentation is read as it was).
NESTED_MEMBERS = """
UPDATE files SET size = -1, sha = ''
WHERE language NOT IN ('markdown', 'rst', 'text', 'asciidoc');
"""

# TypeScript read through its variance annotations and line-starting call signatures, its constants
# typed with overloads (functions) and namespaces (modules); Scala's package objects and extensions.
# Those files indexed before are parsed again at the next index.
TS_SCALA_SHAPES = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('typescript', 'tsx', 'scala');
"""

# Kotlin files with `when` guards, an annotation before a property's accessor or a primary
# constructor, or a statement starting with a variable named `where` were one syntax error (no
# symbol, or a class without its body): they are parsed again.
KOTLIN_MASKS = """
UPDATE files SET size = -1, sha = '' WHERE language = 'kotlin';
"""

# PHP's functions and classes inside a top-level `if` (`if (!function_exists('abort'))`, polyfills);
# Dart's constructors (named, factory, const, redirecting), a mixin's and an unnamed extension's
# members, extension types and top-level getters and setters; Dart's `export` and `part` directives
# are dependencies. Those files indexed before are parsed again at the next index.
PHP_DART_SHAPES = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('php', 'dart');
"""

# JavaScript's definitions by assignment: prototype methods (`Runner.prototype.run = function`, and
# the constructor they make a class), CommonJS exports (`exports.main = () =>`, `module.exports =
# function lookupFiles`) and class fields holding functions. Those files indexed before are parsed
# again at the next index.
JS_ASSIGNMENTS = """
UPDATE files SET size = -1, sha = '' WHERE language = 'javascript';
"""

# Java's enum constants with bodies hold their own methods, an anonymous class in a field's initializer
# its enclosing class's, records' compact constructors and annotation types' elements are methods; Go
# interfaces' methods are symbols; Rust's `impl a::B` holds members of `B`, `extern "C"` blocks' functions
# are symbols. Those files indexed before are parsed again at the next index.
JAVA_GO_RUST_SHAPES = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('java', 'go', 'rust');
"""

# Members holding functions (TypeScript's `handle = () => {}`, Kotlin's `val f = { ... }`, Swift's
# closures, Scala's `val f = (x) => ...`, C#'s `Func<>` fields) are methods; operators are symbols
# named as used (C#'s and Dart's `operator+`, C++'s `operator bool` and `T& operator<<`, with every
# C++ function returning a reference; Elixir's `def a <~> b`, Haskell's `x <+> y =`, OCaml's `( +! )`
# as `+!`). Those files indexed before are parsed again at the next index.
FIELDS_OPERATORS = """
UPDATE files SET size = -1, sha = ''
WHERE language IN ('typescript', 'tsx', 'kotlin', 'swift', 'scala', 'csharp', 'dart', 'cpp', 'elixir',
                   'haskell', 'ocaml');
"""

# C and C++ functions behind macros the grammar cannot know: export and inline macros before the return
# type or the name (`SPDLOG_INLINE std::tm localtime(`, `std::string YAML_CPP_API Dump(`), annotations after
# the parameters (`) SPDLOG_NOEXCEPT {`, `) LOCKS_EXCLUDED(mu_);`) were named after the macro or the type.
# Those files indexed before are parsed again at the next index.
C_MACRO_HEADS = """
UPDATE files SET size = -1, sha = '' WHERE language = 'c' OR language = 'cpp';
"""

# Ruby's methods and classes inside an `if`/`unless`/`else` of a class body (one per Ruby version) and
# the classes a constant is assigned (`Point = Struct.new(:x) do ... end`, `Error = Class.new(Base)`)
# with their block's methods. Those files indexed before are parsed again at the next index.
RUBY_SHAPES = """
UPDATE files SET size = -1, sha = '' WHERE language = 'ruby';
"""

# C's and C++'s typedefs of pointers, arrays and functions are named by the name inside their
# declarators (`typedef void (*uv_close_cb)(uv_handle_t*)` is `uv_close_cb`, not `(*uv_close_cb)(...)`),
# and `typedef struct node *node_ptr` defines no `node`. Those files indexed before are read again.
C_TYPEDEF_NAMES = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('cpp', 'c');
"""  # not HEADER_PROTOTYPES' very text: tests find a migration by its text

# TypeScript's and JavaScript's functions and classes behind a cast (`function computed() {} as any`,
# `(() => ...)`, `satisfies`) or given first to a top-level call (`Object.assign(function flow() {},
# {...})`, `memo((props) => ...)`, `Effect.fn(function* () {})`) are symbols. Those files indexed
# before are parsed again at the next index.
JS_WRAPPED_VALUES = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('typescript', 'tsx', 'javascript');
"""

# Objective-C: `.m` files (text before) and `.h` headers holding `@interface`, `@protocol`, `@end` or
# `#import` (C or C++ before) are parsed as Objective-C. Those files indexed before are read again.
OBJC_FILES = """
UPDATE files SET size = -1, sha = '' WHERE path LIKE '%.m' OR path LIKE '%.h';
"""

# Objective-C's C functions and macros inside `@implementation`/`@protocol` were their class's
# members, a property followed by a macro (`*bridge RCT_DEPRECATED;`) named after the macro.
OBJC_OWNERLESS = """
UPDATE files SET size = -1, sha = '' WHERE language = 'objc';
"""

# Objective-C++: `.mm` files (text before) are parsed with the Objective-C grammar, their C++ masked;
# a macro defining a method (`RCT_EXPORT_METHOD(open:(NSURL *)url) {`) is that method in Objective-C
# files too (a function named after its last argument before).
OBJCPP_FILES = """
UPDATE files SET size = -1, sha = '' WHERE path LIKE '%.mm' OR language = 'objc';
"""

# No C function named after an `#ifdef` that breaks an opaque struct's declaration (libevent's
# `struct evbuffer #ifdef EVENT_IN_DOXYGEN_ {} #endif ;`, read through its error as a function
# `EVENT_IN_DOXYGEN_`): a function definition needs a function declarator. Those files are read again.
C_OPAQUE_STRUCTS = """
UPDATE files SET size = -1, sha = '' WHERE language = 'cpp' OR language = 'c';
"""  # not C_MACRO_HEADS' or C_TYPEDEF_NAMES' text: a migration is found by its text

# C#'s events (`public event EventHandler Placed;`, and with add/remove accessors) and indexers
# (`this[int id]`, named `this`) are symbols of their class. C# files indexed before are parsed again.
CSHARP_EVENTS = """
UPDATE files SET size = -1, sha = '' WHERE language = 'csharp';
"""

# Objective-C++'s C++ (classes, structs, their methods, templates, `Foo::bar` definitions) is read a
# second time by C++'s grammar with the Objective-C blanked: symbols with their parents, where the
# Objective-C grammar left unnamed chunks. `.mm` files indexed before are read again.
OBJCPP_CPP_READING = """
UPDATE files SET size = -1, sha = '' WHERE language = 'objcpp';
"""

# Zig's bindings chosen per platform (`const Impl = switch (os) { .linux => struct {...}, ... }`, or an
# `if` between structs) are structs with every arm's functions as methods; Lua's functions defined in a
# top-level `if` (one per library or interpreter) are symbols, and a Lua table written on one line
# (`local M = {}`) has no chunk of its own. Those files are read again.
CHOSEN_DEFINITIONS = """
UPDATE files SET size = -1, sha = '' WHERE language = 'zig' OR language = 'lua';
"""

# A Rust doc comment above an item's attributes (`/// doc`, `#[derive(...)]`, `#[inline]`) is the item's
# doc (it had none). Rust files are parsed again.
RUST_ATTRIBUTES = """
UPDATE files SET sha = '', size = -1 WHERE language = 'rust';
"""

# Apple's enum macros (`typedef NS_ENUM(NSInteger, RCTFooKind) {`, NS_OPTIONS, NS_CLOSED_ENUM,
# NS_ERROR_ENUM, CF_ENUM, CF_OPTIONS) name their type, not its first enumerator, and no longer cost
# the `@interface` after them. Files indexed before with one of them in a chunk are parsed again.
APPLE_ENUMS = r"""
UPDATE files SET size = -1, sha = ''
WHERE id IN (
    SELECT file_id FROM chunks
    WHERE content LIKE '%NS\_ENUM(%' ESCAPE '\' OR content LIKE '%NS\_OPTIONS(%' ESCAPE '\'
    OR content LIKE '%\_CLOSED\_ENUM(%' ESCAPE '\' OR content LIKE '%NS\_ERROR\_ENUM(%' ESCAPE '\'
    OR content LIKE '%CF\_ENUM(%' ESCAPE '\' OR content LIKE '%CF\_OPTIONS(%' ESCAPE '\'
);
"""

# sbt's build files (`build.sbt`, `project/plugins.sbt`) are Scala, and the sources of lexer and parser
# generators (`.l`, `.mll`, `.y`, `.yy`, `.mly`) code without a grammar: all were text (documentation,
# left out of search_code). Those files indexed before are read again under their language.
BUILD_AND_GRAMMAR_FILES = """
UPDATE files SET size = -1, sha = ''
WHERE path LIKE '%.sbt' OR path LIKE '%.l' OR path LIKE '%.mll'
   OR path LIKE '%.y' OR path LIKE '%.yy' OR path LIKE '%.mly';
"""

# A class prefix glued to an acronym says the acronym too (`GSHTTPAuthentication`: "http", besides
# `gshttp`), and jq's `.jq`, `GNUmakefile` and `makefile` are code (text, that is documentation, before).
# Files with such a name, or with seven capitals before a lower-case letter in a chunk or in their path,
# are read again.
GLUED_ACRONYMS_JQ_MAKEFILES = """
UPDATE files SET size = -1, sha = ''
WHERE path GLOB '*.jq' OR path GLOB '*GNUmakefile' OR path = 'makefile' OR path GLOB '*/makefile'
   OR path GLOB '*[A-Z][A-Z][A-Z][A-Z][A-Z][A-Z][A-Z][a-z]*'
   OR id IN (SELECT file_id FROM chunks WHERE content GLOB '*[A-Z][A-Z][A-Z][A-Z][A-Z][A-Z][A-Z][a-z]*');
"""

# Groovy is code: Gradle's build scripts (`.gradle`), Groovy sources (`.groovy`, `.gvy`) and Jenkins
# pipelines (`Jenkinsfile`) were text, that is documentation. Files with such a name are read again.
GROOVY_FILES = """
UPDATE files SET size = -1, sha = ''
WHERE path GLOB '*.groovy' OR path GLOB '*.gradle' OR path GLOB '*.gvy'
   OR path = 'Jenkinsfile' OR path GLOB '*/Jenkinsfile';
"""

# An HTML page in a documentation folder (`docs/`, `site/`, `manual/`...) or Javadoc's `package.html` is
# documentation (`htmldoc`), no longer code: every HTML file is read again and its language told anew.
HTML_DOC_PAGES = """
UPDATE files SET size = -1, sha = '' WHERE language = 'html';
"""

# Perl, R, Erlang, Fortran and Clojure are code (text before, documentation), by extension or by their
# `#!` line: every text file is read again and its language told anew.
PERL_R_ERLANG_FORTRAN_CLOJURE = """
UPDATE files SET size = -1, sha = '' WHERE language = 'text';
"""

# Perl, Fortran and Groovy are parsed (tree-sitter-perl, -fortran, -groovy: packages and subs, modules
# and procedures, classes, methods and closures), no longer cut into windows only; Gradle's build
# scripts are language `gradle` (Groovy before), still windows; and Julia's `.jl` and F#'s `.fs`, `.fsx`
# are code, parsed (text before, documentation): those files indexed before are read again.
PERL_FORTRAN_GROOVY_JULIA_FSHARP = """
UPDATE files SET size = -1, sha = ''
WHERE language IN ('perl', 'fortran', 'groovy') OR path GLOB '*.jl' OR path GLOB '*.fs' OR path GLOB '*.fsx';
"""

# Cython (`.pyx`, `.pxd`, `.pxi`) is code, read by Python's grammar through masks (text before, that is
# documentation); the C that Cython generates ("Generated by Cython" atop it) is left out as generated.
# Files with such a name are read again (the generated C drops out at the next walk).
CYTHON_FILES = """
UPDATE files SET size = -1, sha = ''
WHERE path GLOB '*.pyx' OR path GLOB '*.pxd' OR path GLOB '*.pxi';
"""

# A `.fs` or `.vs` GLSL shader is glsl (F# before; `.vs` text); Fortran's and Julia's docs without their
# markers, F#'s `///` docs their definitions' own (the grammar gave them to the definition before), and a
# Perl sub after a `package X { ... }` block its enclosing package's. Those files are read again.
GLSL_DOCS_PERL_SCOPES = """
UPDATE files SET size = -1, sha = ''
WHERE language IN ('perl', 'fortran', 'julia', 'fsharp') OR path GLOB '*.fs' OR path GLOB '*.vs';
"""

# Cython's `cimport`s lead to the `.pxd` of the module they name and its `include "a.pxi"` to the file
# it names (the `include` was read as a declaration before): Cython files are read again.
CYTHON_IMPORTS = """
UPDATE files SET size = -1, sha = '' WHERE language = 'cython';
"""

# Perl's POD documents its package and subs (`=head1 NAME`, `=head2 fire`, `=item $x->fire`) where no
# comment does, and `use parent` / `use base` import the classes they name (the pragma before), as a
# package named among `use X::Base 'Parent'`'s arguments does; `has heat => ...` (Moose, Moo, Mojo::Base)
# defines an attribute, a method of its package: Perl files are read again.
PERL_POD_PARENTS = """
UPDATE files SET size = -1, sha = '' WHERE language = 'perl';
"""

# A shader under GLSL's own extensions (`.glsl`, `.vert`, `.frag`, ...) is glsl, code in windows (text
# before, documentation): those files are read again.
GLSL_EXTENSIONS = """
UPDATE files SET size = -1, sha = ''
WHERE path GLOB '*.glsl' OR path GLOB '*.vert' OR path GLOB '*.frag' OR path GLOB '*.geom'
   OR path GLOB '*.tesc' OR path GLOB '*.tese';
"""

# Cython's C declarations are symbols (an extern block's functions, structs, enums and typedefs, a
# `.pxd`'s prototypes and `ctypedef`s; enums are types), F#'s and Groovy's docs above attributes and
# annotations are their definitions' (also where a field took the Javadoc in), F#'s `let rec ... and`,
# interface implementations, type extensions, exceptions and all-abstract types (interfaces), Groovy's
# traits and closure fields, Julia's `where` short forms, definitions given to a macro and docstrings
# opening with a signature, and Fortran's abstract interfaces and type-bound procedures are read: those
# files are read again.
EXTERNS_TRAITS_AND_DOCS = """
UPDATE files SET size = -1, sha = ''
WHERE language IN ('cython', 'fsharp', 'groovy', 'julia', 'fortran');
"""

# Groovy's untyped fields (`private static final SEP = '/'`) no longer cost the grammar the class around
# them, and a file it misreads is healed line by line; fixed-form Fortran's `C` comment lines, `#ifdef`'d
# procedures and `include "a.f90"`, and Julia's `include("a.jl")` (imports of the file named) are read:
# those files are read again.
GROOVY_FORTRAN_JULIA_INCLUDES = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('groovy', 'fortran', 'julia');
"""

# Cython's function pointers declared (`cdef object (*pick)(object)`: C variables, not methods named
# `object (*pick)`), prototypes with one as a parameter across lines, `cdef (int, int) f(...)` (a tuple
# returned), C variables named in a string, a `cppclass`'s constructors (declared methods); F#'s
# auto-properties (`member val Litres = 0 with get, set`); and a Fortran submodule's parent: those files
# are read again.
POINTERS_VALS_AND_SUBMODULES = """
UPDATE files SET size = -1, sha = ''
WHERE language IN ('cython', 'fsharp') OR language = 'fortran';
"""

# A mask's lead text (Cython's `_=` over `cdef int`, Groovy's `def` over `final`) is no reference (its
# name was read back from the source: `c`, `fin`), and a Cython `cppclass`'s operators (`bint
# operator==(Grinder)`) are declared methods: Cython and Groovy files are read again.
MASKED_LEADS_OPERATORS = """
UPDATE files SET size = -1, sha = '' WHERE language IN ('cython', 'groovy');
"""

# Test code inside a source file (a Rust `#[cfg(test)] mod tests {}` or `#[test] fn`, a Zig `test "name"
# {}`): its line spans, so that the chunks, definitions and uses in them rank as a test file's do. Rust
# and Zig files that say "test" are read again.
TEST_SPANS = """
CREATE TABLE IF NOT EXISTS test_spans (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS test_spans_file ON test_spans(file_id, start_line);
UPDATE files SET size = -1, sha = ''
WHERE id IN (SELECT c.file_id FROM chunks c JOIN files f ON f.id = c.file_id
             WHERE f.language IN ('rust', 'zig') AND c.content LIKE '%test%');
"""

# A Rust file marked `#![cfg(test)]` at its top is test code whole (a module `mod x { #![cfg(test)] }`
# too), and so is the file of a module its parent declares as test code (`#[cfg(test)] mod tests;`: the
# paths it would be read from, by the declaring file): Rust files that say `cfg(test)` are read again.
WHOLE_FILE_TESTS = """
CREATE TABLE IF NOT EXISTS test_module_files (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    path TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS test_module_files_path ON test_module_files(path);
UPDATE files SET size = -1, sha = ''
WHERE language = 'rust'
  AND EXISTS (SELECT 1 FROM chunks c WHERE c.file_id = files.id AND instr(c.content, 'cfg(test)') > 0);
"""

# A Lua table bound to a name outside every function (`local reason_phrases = setmetatable({...}, mt)`,
# `config = { port = 80 }`) is a module even when the file defines no member on it. Lua files are read
# again.
LUA_DATA_TABLES = """
UPDATE files SET sha = '', size = -1 WHERE language IN ('lua');
"""

# Groovy's safe navigation `?.`, Elvis `?:`, empty `''` and `assert ok, 'message'` no longer cost the
# grammar the statement or the class around them, and a Fortran procedure whose name the preprocessor
# pastes from pieces (`subroutine bandred_&` / `&MATH_DATATYPE&` / ...) is named by its stem: Groovy and
# Fortran files are read again.
GROOVY_OPERATORS_FORTRAN_PASTED_NAMES = """
UPDATE files SET size = -1, sha = '' WHERE language = 'groovy' OR language = 'fortran';
"""

# C#'s types and members inside `#if` / `#elif` / `#else` (a file whose namespace holds one `#if`
# had no symbol): C# files that say `#if` are read again.
CSHARP_PREPROCESSOR_BRANCHES = """
UPDATE files SET size = -1, sha = ''
WHERE language = 'csharp'
  AND EXISTS (SELECT 1 FROM chunks c WHERE c.file_id = files.id AND instr(c.content, '#if') > 0);
"""

# A file whose name says nothing and that opens with `<?php` (a `common.inc` fixture, Drupal's `.module`)
# is PHP, text before: text files whose first chunk opens so are read again.
PHP_OPEN_TAG_FILES = """
UPDATE files SET size = -1, sha = ''
WHERE language = 'text'
  AND EXISTS (SELECT 1 FROM chunks c WHERE c.file_id = files.id AND c.start_line = 1
              AND ltrim(c.content, char(65279, 32, 9, 10, 13)) LIKE '<?php%');
"""

# Lua's classes made by a call (`local Kettle = class{...}`, `Mug = setmetatable({}, { __index = Cup })`)
# are classes with their table's functions as methods, Rust's `#[path = "unix.rs"] mod imp;` leads to that
# file, and a Fortran heading written twice under `#if`/`#else` is read once: Lua and Fortran files are
# read again, and Rust files declaring a module (`mod imp;` was an import `self::imp`).
CLASS_CALLS_MODULE_PATHS_TWICE_WRITTEN_HEADS = """
UPDATE files SET sha = '', size = -1 WHERE language IN ('lua', 'fortran')
    OR (language = 'rust' AND id IN (SELECT file_id FROM imports WHERE module LIKE 'self::%'));
"""

MIGRATIONS = (
    SCHEMA, REFS_MEMBER, LEXICON, DROP_FTS, SNAPSHOTS, REEXPORT_IMPORTS, HEADER_PROTOTYPES, SCRIPTS,
    FILE_MODULES, NESTED_MEMBERS, TS_SCALA_SHAPES, KOTLIN_MASKS, PHP_DART_SHAPES, JS_ASSIGNMENTS,
    JAVA_GO_RUST_SHAPES, FIELDS_OPERATORS, C_MACRO_HEADS, RUBY_SHAPES, C_TYPEDEF_NAMES, JS_WRAPPED_VALUES,
    OBJC_FILES, OBJC_OWNERLESS, OBJCPP_FILES, C_OPAQUE_STRUCTS, CSHARP_EVENTS, OBJCPP_CPP_READING,
    CHOSEN_DEFINITIONS, RUST_ATTRIBUTES, APPLE_ENUMS, BUILD_AND_GRAMMAR_FILES,
    GLUED_ACRONYMS_JQ_MAKEFILES, GROOVY_FILES, HTML_DOC_PAGES, PERL_R_ERLANG_FORTRAN_CLOJURE,
    PERL_FORTRAN_GROOVY_JULIA_FSHARP,
    CYTHON_FILES,
    GLSL_DOCS_PERL_SCOPES,
    CYTHON_IMPORTS,
    PERL_POD_PARENTS,
    GLSL_EXTENSIONS,
    EXTERNS_TRAITS_AND_DOCS,
    GROOVY_FORTRAN_JULIA_INCLUDES,
    POINTERS_VALS_AND_SUBMODULES,
    MASKED_LEADS_OPERATORS,
    TEST_SPANS,
    WHOLE_FILE_TESTS,
    LUA_DATA_TABLES,
    GROOVY_OPERATORS_FORTRAN_PASTED_NAMES,
    CSHARP_PREPROCESSOR_BRANCHES,
    PHP_OPEN_TAG_FILES,
    CLASS_CALLS_MODULE_PATHS_TWICE_WRITTEN_HEADS,
)  # fmt: skip

# Every span of test code (file_id, start_line, end_line): test_spans' and the whole of each module file
# declared as test code.
TEST_SPAN_ROWS = """SELECT file_id, start_line, end_line FROM test_spans
    UNION ALL SELECT f.id, 1, max(f.lines, 1) FROM files f
    WHERE f.path IN (SELECT path FROM test_module_files)"""

# Each in the order of its record's fields (records.py).
CHUNK_COLUMNS = """c.rowid, c.id, c.chunk_type, c.name, c.parent, c.start_line, c.end_line, c.content,
    f.path, f.package, f.language"""
FILE_COLUMNS = "id, path, language, package, size, mtime_ns, sha, lines"
_R = TypeVar("_R")


class CodeTables(SQLiteStore):
    """The tables, migrated on open, and what every stage reads: the index's generation and meta,
    files and chunks by path or id."""

    migrations = MIGRATIONS
    # A new index's pages: 16 KiB, not SQLite's 4 KiB. A cold index writes every page twice (to the
    # write-ahead log, then into the file), a call each: on tokio (35 MB) 30k writes and 17k reads
    # became 9.4k and 3.8k, ~0.1 s less system time; an existing index keeps its pages.
    page_size = 16_384

    def meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with write_transaction(self._conn) as conn:
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def generation(self) -> int:
        """Bumped by every change, so caches built from the index know when they are stale."""
        return int(self.meta("generation") or 0)

    def _bump(self, conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO meta VALUES ('generation', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    def _records(self, kind: type[_R], sql: str, params: Sequence[object] = ()) -> list[_R]:
        """The rows of a query as records of `kind` (its fields in the query's column order)."""
        cursor = self._conn.cursor()
        cursor.row_factory = lambda _, row: kind(*row)
        return cursor.execute(sql, params).fetchall()

    def _record(self, kind: type[_R], sql: str, params: Sequence[object] = ()) -> _R | None:
        found = self._records(kind, sql, params)
        return found[0] if found else None

    def paths(self) -> list[str]:
        return [row[0] for row in self._conn.execute("SELECT path FROM files ORDER BY path")]

    def has_files(self) -> bool:
        return self._conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is not None

    COUNTED = ("files", "chunks", "vectors", "symbols", "refs", "imports")

    def counts(self, *tables: str) -> dict[str, int]:
        """Rows in each of `tables` (default: every table of COUNTED). Name only those wanted: SQLite
        counts a table by walking it, and the vectors' (1.5 kB a row) is the longest walk."""
        wanted = [table for table in self.COUNTED if not tables or table in tables]  # names from a fixed set
        return {
            table: int(self._conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]) for table in wanted
        }

    def values(self, column: str) -> list[str]:
        # The column name is chosen from a fixed set, never taken from the caller's text.
        name = {"package": "package", "language": "language"}[column]
        return [r[0] for r in self._conn.execute(f"SELECT DISTINCT {name} FROM files ORDER BY 1")]

    def chunk(self, chunk_id: str) -> ChunkRecord | None:
        return self._record(
            ChunkRecord,
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id = ?",
            (chunk_id,),
        )

    def chunks_at(self, path: str, line: int) -> list[ChunkRecord]:
        return self._records(
            ChunkRecord,
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            " WHERE f.path = ? AND c.start_line <= ? AND c.end_line >= ? ORDER BY c.end_line - c.start_line",
            (path, line, line),
        )

    def file(self, path: str) -> FileRecord | None:
        return self._record(FileRecord, f"SELECT {FILE_COLUMNS} FROM files WHERE path = ?", (path,))

    def test_spans(self, file_ids: Collection[int]) -> dict[int, list[tuple[int, int]]]:
        """The line spans of in-file test code (TEST_SPANS) of each of `file_ids` that has some; a
        module file declared as test code (WHOLE_FILE_TESTS) is one span, the whole file."""
        spans: dict[int, list[tuple[int, int]]] = {}
        rows = self._conn.execute(
            f"SELECT file_id, start_line, end_line FROM ({TEST_SPAN_ROWS})"
            " WHERE file_id IN (SELECT value FROM json_each(?)) ORDER BY file_id, start_line",
            (json.dumps(sorted(file_ids)),),
        )
        for file_id, start, end in rows:
            spans.setdefault(file_id, []).append((start, end))
        return spans

    def file_chunks(self, path: str) -> list[ChunkRecord]:
        return self._records(
            ChunkRecord,
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN files f ON f.id = c.file_id"
            " WHERE f.path = ? ORDER BY c.start_line",
            (path,),
        )
