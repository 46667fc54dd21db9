"""Chunks, symbols, imports and references read by syntax, per language."""

import time

import pytest

from pramana.code.index.tables import C_TYPEDEF_NAMES
from pramana.code.parse import MAX_CHUNK_LINES, parse_file
from pramana.code.service import CodeService
from tests.code.conftest import SAMPLE_FILES, reindexed_from_before


def parsed(path, language, package="root"):
    return parse_file(path, language, package, SAMPLE_FILES[path])


def kinds(result):
    return {(s.kind, s.parent, s.name) for s in result.symbols}


def test_python_definitions_chunks_and_docs():
    result = parsed("packages/api/shop/cart.py", "python", "api")
    assert kinds(result) == {
        ("class", None, "Cart"),
        ("method", "Cart", "__init__"),
        ("method", "Cart", "add_item"),
        ("method", "Cart", "total"),
        ("function", None, "apply_discount"),
    }
    by_name = {s.name: s for s in result.symbols}
    assert by_name["total"].doc == "Sum of price times quantity over every item."
    assert (
        by_name["apply_discount"].signature == "def apply_discount(amount: Decimal, percent: int) -> Decimal:"
    )
    assert by_name["apply_discount"].exported and not by_name["add_item"].exported
    chunks = {(c.chunk_type, c.name): c for c in result.chunks}
    methods = chunks[("method", "__init__, add_item, total")]  # small neighbours share a chunk
    assert methods.parent == "Cart" and methods.content.lstrip().startswith("def __init__")
    assert "def add_item" in methods.content and methods.end_line == by_name["total"].end_line
    header = chunks[("class", "Cart")]
    assert "currency" in header.content and "def " not in header.content  # methods are their own chunks
    module = chunks[("module", None)]
    assert module.start_line == 1 and "from decimal import Decimal" in module.content
    assert all(c.package == "api" and c.language == "python" for c in result.chunks)


def test_python_imports_and_call_references():
    result = parsed("packages/api/shop/payments.py", "python")
    assert [(i.module, i.names) for i in result.imports] == [
        ("logging", []),
        (".cart", ["Cart", "apply_discount"]),
    ]
    refs = {(r.name, r.kind) for r in result.references}
    assert ("apply_discount", "call") in refs and ("total", "call") in refs
    assert ("apply_discount", "import") in refs
    assert ("Cart", "reference") in refs  # the annotation
    assert not any(r.name == "charge_card" for r in result.references)  # a definition is not a usage


def test_typescript_interfaces_types_exports_and_doc_comments():
    result = parsed("packages/web/src/api.ts", "typescript", "web")
    assert kinds(result) == {
        ("interface", None, "Order"),
        ("type", None, "OrderId"),
        ("function", None, "fetchOrders"),
        ("class", None, "OrderClient"),
        ("method", "OrderClient", "constructor"),
        ("method", "OrderClient", "send"),
    }
    by_name = {s.name: s for s in result.symbols}
    assert by_name["fetchOrders"].exported and by_name["Order"].exported
    assert by_name["fetchOrders"].doc == "Fetch the orders of one customer from the server."
    fetch_chunk = next(c for c in result.chunks if c.name == "fetchOrders")
    assert fetch_chunk.content.startswith("/** Fetch the orders")  # the doc comment travels with it
    assert [(i.module, i.names) for i in result.imports] == [("./util.js", ["slugify"])]


def test_tsx_and_javascript():
    app = parsed("packages/web/src/App.tsx", "tsx", "web")
    assert kinds(app) == {("function", None, "App")}
    assert ("fetchOrders", "call") in {(r.name, r.kind) for r in app.references}
    util = parsed("packages/web/src/util.js", "javascript", "web")
    assert kinds(util) == {("function", None, "slugify"), ("function", None, "debounce")}


def test_go_structs_interfaces_and_receivers():
    result = parsed("services/inventory/server.go", "go")
    assert kinds(result) == {
        ("class", None, "Server"),
        ("interface", None, "Stock"),
        ("method", "Stock", "Quantity"),  # an interface's method: declared, without a chunk of its own
        ("method", "Server", "Start"),
        ("function", None, "NewServer"),
    }
    assert all(s.exported for s in result.symbols)
    assert {i.module for i in result.imports} == {"fmt", "net/http"}
    assert (
        next(s for s in result.symbols if s.name == "Start").doc == "Start listens on the server's address."
    )


def test_rust_items_impl_methods_and_uses():
    result = parsed("crates/pricing/src/lib.rs", "rust")
    assert kinds(result) == {
        ("class", None, "Price"),
        ("interface", None, "Priced"),
        ("method", "Priced", "price"),
        ("method", "Price", "with_vat"),
    }
    # `pub mod tax;` brings tax.rs in: a dependency as much as the `use`.
    assert [(i.module, i.names) for i in result.imports] == [("self::tax", []), ("crate::tax", ["vat"])]
    assert ("vat", "call") in {(r.name, r.kind) for r in result.references}


def test_markdown_sections_ignore_headings_in_fences():
    result = parsed("README.md", "markdown")
    assert [(c.chunk_type, c.name) for c in result.chunks] == [
        ("section", "Sample shop"),
        ("section", "Installing"),
        ("section", "Refunds"),
    ]
    assert "not a heading" in result.chunks[-1].content


def test_long_definitions_and_plain_text_become_windows():
    body = "\n".join(f"    x{i} = {i}" for i in range(400))
    result = parse_file("big.py", "python", "root", f"def big():\n{body}\n")
    pieces = [c for c in result.chunks if c.name == "big"]
    assert len(pieces) > 1 and all(c.end_line - c.start_line < MAX_CHUNK_LINES for c in pieces)
    assert pieces[0].start_line == 1 and pieces[-1].end_line == 401
    assert len({c.id for c in result.chunks}) == len(result.chunks)
    text = parse_file("a.txt", "text", "root", "\n".join(f"line {i}" for i in range(130)))
    assert [(c.start_line, c.end_line) for c in text.chunks] == [(1, 60), (51, 110), (101, 130)]


def test_broken_source_still_yields_what_parses():
    result = parse_file("x.py", "python", "root", "def ok():\n    return 1\n\ndef broken(:\n")
    assert "ok" in {s.name for s in result.symbols}
    assert result.chunks  # nothing is lost: the broken part lands in a chunk too


def test_a_long_markdown_heading_line_is_read_in_linear_time():
    # `(.+?)\s*#*\s*$` backtracked cubically: a 2,000-character line took 17 s, 4,000 took minutes.
    spaces = " " * 50_000
    text = f"# Title ##\n\n## a{spaces}b\n\ntext\n\n### Closed {spaces}#{spaces}x\n"
    started = time.thread_time()  # this thread's CPU, not the clock: a busy machine does not move it
    result = parse_file("README.md", "markdown", "root", text)
    assert time.thread_time() - started < 2  # milliseconds when linear; minutes when it backtracks
    names = [c.name for c in result.chunks]
    assert names[0] == "Title" and names[1] == f"a{spaces}b" and names[2].endswith("#" + spaces + "x")


def test_imports_read_wherever_they_stand_and_none_where_there_are_none():
    # The imports query runs over the span of the imports the names query found: the first, one
    # between definitions and the last must all be read, and a file without any yields none.
    source = (
        '#include <stdio.h>\nint a(void) { return 1; }\n#include "mid.h"\n'
        'int b(void) { return a(); }\n#include "end.h"\n'
    )
    found = parse_file("src/x.c", "c", "", source).imports
    assert [(i.module, i.line) for i in found] == [("stdio.h", 1), ("mid.h", 3), ("end.h", 5)]
    assert parse_file("A.java", "java", "", "class A { int f() { return g(); } }\n").imports == []


def test_reference_lines_are_the_syntax_tree_rows():
    # A reference's line is counted from the newlines before it (as tree-sitter counts rows), not
    # from what str.splitlines() takes for a line break (\r, \f, \u2028 inside a comment or string).
    source = (
        "int helper(int x) { return x; }\r\n"  # 1
        "/* a form feed \f and a line separator \u2028 and é */\r\n"  # 2
        'int use(void) { const char *s = "\r"; return helper(2); }\n'  # 3
        "\n"  # 4
        "int again(void) { return helper(use()); }\n"  # 5
    )
    result = parse_file("src/lines.c", "c", "", source)
    calls = {(r.name, r.line) for r in result.references if r.kind == "call"}
    assert calls == {("helper", 3), ("helper", 5), ("use", 5)}
    assert all(isinstance(row, tuple) and len(row) == 4 for row in result.reference_rows)
    assert [tuple(r) for r in result.references] == result.reference_rows


def test_an_export_macro_across_lines_keeps_the_lines_after_it():
    # `class API_EXPORT\nWidget` is read as class Widget with the macro blanked; the blank keeps the
    # line break, so the class starts on line 2 and what follows keeps its own lines.
    source = (
        "class API_EXPORT\n"  # 1
        "Widget {\n"  # 2
        "  int size() const;\n"  # 3
        "};\n"  # 4
        "int helper(int x) { return x; }\n"  # 5
        "int use(void) { return helper(2); }\n"  # 6
    )
    result = parse_file("src/widget.hpp", "cpp", "", source)
    lines = {symbol.name: (symbol.start_line, symbol.end_line) for symbol in result.symbols}
    assert lines["Widget"] == (1, 4)  # the class's node starts at `class`
    assert lines["helper"] == (5, 5) and lines["use"] == (6, 6)
    calls = {(r.name, r.line) for r in result.references if r.kind == "call"}
    assert ("helper", 6) in calls


def test_a_headers_prototypes_and_their_comments_are_searchable_text():
    # A prototype is a symbol without a chunk of its own; its lines (and the doc comment above it)
    # still belong to a chunk, or a C header's documented API would be in none.
    source = (
        "#include <stddef.h>\n"  # 1
        "\n"  # 2
        "/* Encode an internationalized domain name as punycode. */\n"  # 3
        "long idna_encode(const char* name, char* out, size_t size);\n"  # 4
        "\n"  # 5
        "struct idna_state { int pos; };\n"  # 6
    )
    result = parse_file("src/idna.h", "c", "", source)
    assert any(symbol.name == "idna_encode" for symbol in result.symbols)
    spans = [(chunk.start_line, chunk.end_line) for chunk in result.chunks]
    assert any(start <= 3 and end >= 4 for start, end in spans), spans


def test_a_signature_runs_to_the_line_that_names_the_definition_as_a_whole_word():
    source = "static seal_new_t\nseal_new(int n)\n{\n    return n;\n}\n"
    (symbol,) = parse_file("src/seal.c", "c", "root", source).symbols
    assert symbol.signature == "static seal_new_t seal_new(int n)"  # not cut at `seal_new_t`


TYPEDEFS = """\
typedef void (*close_cb)(struct handle *h);
typedef int (^compare_block)(const void *a, const void *b);
typedef const char *(*getter_fn)(void *ctx, int i);
typedef int *int_ptr;
typedef char name_buf[32];
typedef struct node *node_ptr;
typedef struct tree { int size; } tree_t;
typedef struct { int x, y; } point_t;
"""


@pytest.mark.parametrize(("path", "language"), [("src/types.h", "c"), ("src/types.hpp", "cpp")])
def test_a_typedef_is_named_by_the_name_inside_its_declarators(path, language):
    symbols = {(s.name, s.kind) for s in parse_file(path, language, "src", TYPEDEFS).symbols}
    assert symbols == {
        ("close_cb", "type"),
        ("compare_block", "type"),
        ("getter_fn", "type"),
        ("int_ptr", "type"),
        ("name_buf", "type"),
        ("node_ptr", "type"),
        ("tree_t", "class"),
        ("tree", "class"),
        ("point_t", "class"),
    }  # `struct node` without a body is used, not defined: no `node`


def test_an_index_made_before_reads_c_and_cpp_again_and_finds_a_typedef_by_its_name(tmp_path):
    files = {"src/types.h": TYPEDEFS, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, root = reindexed_from_before(C_TYPEDEF_NAMES, files, tmp_path)
    assert report.changed_paths == ["src/types.h"]
    found = CodeService(reopened, root).explain_code("close_cb").definition
    assert found is not None and (found.filePath, found.startLine) == ("src/types.h", 1)


ANNOTATED = {
    "kotlin": (
        "a/Registry.kt",
        "@ModuleList(\n    modules = [\n        Store::class,\n    ],\n)\nclass Registry : Base() {\n"
        '    @Suppress(\n        "UNUSED",\n        "DEPRECATION",\n    )\n'
        "    override fun managers(context: Context): List<Int> {\n        return listOf()\n    }\n}\n",
        {
            "Registry": "class Registry : Base() {",
            "managers": "override fun managers(context: Context): List<Int> {",
        },
    ),
    "java": (
        "a/Marker.java",
        "@Target({\n    ElementType.TYPE,\n    ElementType.METHOD,\n    ElementType.FIELD,\n})\n"
        "public @interface Marker {\n}\n",
        {"Marker": "public @interface Marker {"},
    ),
    "swift": (
        "a/Loader.swift",
        "@available(\n    iOS 15.0,\n    macOS 12.0,\n    *\n)\npublic final class Loader {\n"
        "    @discardableResult\n    public func load(name: String) -> Bool { true }\n}\n",
        {
            "Loader": "public final class Loader {",
            "load": "@discardableResult public func load(name: String) -> Bool { true }",
        },
    ),
}


@pytest.mark.parametrize("language", sorted(ANNOTATED))
def test_a_signature_below_annotations_longer_than_its_window_is_the_line_that_names_it(language):
    path, source, expected = ANNOTATED[language]
    signatures = {s.name: s.signature for s in parse_file(path, language, "a", source).symbols}
    assert {name: signatures.get(name) for name in expected} == expected


def test_a_whole_word_touches_no_word_character_or_dollar():
    from pramana.code.parse.syntax import _holds_word

    assert _holds_word("x = seal(1)", "seal")
    assert _holds_word("seal", "seal")
    assert _holds_word("(a.b.c)", "a.b")  # a name with dots: only its ends are checked
    assert not _holds_word("unseal(1)", "seal")
    assert not _holds_word("seal_new()", "seal")
    assert not _holds_word("$seal + seal$", "seal")
    assert not _holds_word("éseal", "seal")  # \w is any letter, not only ASCII
    assert _holds_word("seal_x seal", "seal")  # the second occurrence


def test_a_name_twice_on_a_line_is_read_as_its_first_use_in_the_text():
    # `import x ...; use(x)`: the first use is in the import, the second a plain reference; the row kept
    # is the first in the text whatever order the query's captures come in (they are not always the
    # text's), so the same file always gives the same rows.
    source = 'import parser from "./parser.js"; export const read = (t) => wrap(parser, t);\n'
    kinds = {(r.name, r.kind) for r in parse_file("src/a.js", "javascript", "", source).references}
    assert ("parser", "import") in kinds
    assert ("parser", "reference") not in kinds
    assert ("wrap", "call") in kinds


def test_a_typedef_of_a_type_defined_elsewhere_defines_only_its_new_name():
    # `typedef struct tag {...} name;` defines both names; `typedef Foo<int> Bar;` and Go's
    # `type Alias = other.Thing` define Bar and Alias only: Foo and Thing are defined elsewhere, and a
    # definition of them here would send find_definition to the typedef (RE2's `set.h` had one named
    # `pair<std::string, re2::Regexp*>`).
    header = (
        "class Set {\n"
        "  typedef std::pair<std::string, int> Elem;\n"
        "  typedef Foo<int> Bar;\n"
        "};\n"
        "typedef struct node_s { int value; } node_t;\n"
    )
    names = {(s.parent, s.name) for s in parse_file("set.h", "cpp", "", header).symbols}
    assert names == {(None, "Set"), ("Set", "Elem"), ("Set", "Bar"), (None, "node_t"), (None, "node_s")}
    go = "package p\n\ntype Alias = other.Thing\ntype Client = http.Client\n"
    assert {s.name for s in parse_file("alias.go", "go", "p", go).symbols} == {"Alias", "Client"}
