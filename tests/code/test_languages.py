"""The table of languages: every node type, field and query it names exists in the installed grammar;
and in every language beyond the first five, the structural tools answer exactly on a small file
written for the purpose (tests/code/languages_fixture.py)."""

from __future__ import annotations

import re
import warnings

import pytest
import tree_sitter as ts

from pramana.code.index.indexer import Indexer
from pramana.code.languages import BY_NAME, LANGUAGES, Language, language_for, language_of
from pramana.code.parse import parse_file
from pramana.code.parse.syntax import docs_query, grammar, imports_query, names_query
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from tests.code.languages_fixture import CASES

PARSED = [language for language in LANGUAGES if language.parsed]


def _node_types(language: Language) -> set[str]:
    syntax = language.syntax
    assert syntax is not None
    types = {*syntax.definitions, *syntax.declarations, *syntax.wrappers, *syntax.containers}
    types |= {*syntax.bodies, *syntax.bindings, *syntax.keywords, *syntax.sibling_bodies, *syntax.sections}
    types |= set(syntax.sibling_bodies.values()) | (syntax.transparent - {"ERROR"}) | set(syntax.receivers)
    types |= set(syntax.identifiers) | set(syntax.comments) | set(syntax.computed)
    types |= set(syntax.constructors) | set(syntax.unnamed) | set(syntax.conditionals)
    for binding in syntax.bindings.values():
        types |= set(binding.declarators) | set(binding.kinds)
    if syntax.call_definitions is not None:
        types.add(syntax.call_definitions.node)
    return types


@pytest.mark.parametrize("language", PARSED, ids=lambda language: language.name)
def test_every_node_type_and_query_of_the_table_exists_in_the_grammar(language):
    grammar_ = grammar(language.name)
    missing = sorted(t for t in _node_types(language) if grammar_.id_for_node_kind(t, True) is None)
    assert not missing, f"{language.name}: no such node types in the grammar: {missing}"
    for keywords in language.syntax.keywords.values():
        unknown = [k for k in keywords if k and grammar_.id_for_node_kind(k, False) is None]
        assert not unknown, f"{language.name}: no such keywords: {unknown}"
    assert isinstance(names_query(language.name), ts.Query)  # the calls, members and imports compile
    imports_query(language.name), docs_query(language.name)
    if language.rereading is not None:  # read again by another language of the table, its masks compiling
        assert BY_NAME[language.rereading.language].parsed, language.rereading.language
        assert all(re.compile(mask) for mask in language.rereading.masks)


def test_every_grammar_loads_in_the_form_tree_sitter_keeps():
    """tree-sitter-perl hands its grammar as a bare address, a form tree-sitter deprecates (and may
    drop): it is wrapped in the capsule the other grammars hand, so no grammar loads by the old form."""
    grammar.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        loaded = [grammar(language.name) for language in PARSED]
    assert all(isinstance(g, ts.Language) for g in loaded)
    assert ts.Parser(grammar("perl")).parse(b"package Shop; sub total { 1 }").root_node.child_count == 2


def test_languages_are_known_by_extension_and_cpp_headers_by_their_content():
    assert {language_of(p) for p in ("a.kt", "b.scala", "c.ex", "d.exs", "e.swift")} == {
        "kotlin", "scala", "elixir", "swift",
    }  # fmt: skip
    assert language_of("Rakefile") == "ruby" and language_of("x.unknown") == "text"
    assert language_for("include/fmt/base.h", b"#include <string>\nnamespace fmt {\n") == "cpp"
    assert language_for("src/uv.h", b"#include <stddef.h>\nstruct uv_s { int x; };\n") == "c"


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.language)
def test_definitions_of_each_language_are_read_exactly(case):
    assert language_of(case.path) == case.language
    parsed = parse_file(case.path, case.language, "root", case.source)
    found = {(s.kind, s.parent, s.name, s.start_line, s.end_line) for s in parsed.symbols}
    assert found == case.symbols
    assert [i.module for i in parsed.imports] == list(case.imports)
    assert any(r.name == case.called and r.kind == "call" for r in parsed.references)
    lines = case.source.splitlines()
    covered = {n for c in parsed.chunks for n in range(c.start_line, c.end_line + 1)}
    code = {n for n, line in enumerate(lines, 1) if re.search(r"\w", line) and line.strip() != "end"}
    assert code <= covered, sorted(code - covered)  # every line of code is in a chunk


@pytest.fixture(scope="module")
def polyglot(tmp_path_factory) -> CodeService:
    root = tmp_path_factory.mktemp("polyglot")
    for case in CASES:
        target = root / case.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(case.source, encoding="utf-8")
    store = CodeStore(tmp_path_factory.mktemp("polyglot-index") / "code.db")
    Indexer(root, store, workers=0).run()
    return CodeService(store, root)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.language)
def test_list_functions_and_the_definition_of_a_name_in_each_language(polyglot, case):
    listed = polyglot.list_functions(case.path)
    assert {(s.kind, s.parent, s.name, s.startLine, s.endLine) for s in listed.symbols} == case.symbols
    assert {s.language for s in listed.symbols} == {case.language}
    expected = sorted((s[3], s[4]) for s in case.symbols if s[2] == case.lookup)
    usages = polyglot.find_usages(case.lookup, limit=50)
    here = [d for d in usages.definitions if d.filePath == case.path]
    assert sorted((d.startLine, d.endLine) for d in here) == expected
    explained = polyglot.explain_code(case.lookup)
    assert explained.definition is not None and explained.code is not None
    definitions = [explained.definition, *explained.otherDefinitions]
    assert sorted((d.startLine, d.endLine) for d in definitions if d.filePath == case.path) == expected
    calls = polyglot.find_usages(case.called, limit=50).usages
    assert any(u.filePath == case.path and u.kind == "call" for u in calls)


def test_imports_of_every_language_lead_to_the_files_they_name():
    from pramana.code.index.deps import Resolver

    resolver = Resolver(
        [
            "java/src/main/java/shop/Cart.java", "java/src/main/java/shop/Item.java", "c/ring.c",
            "c/ring.h", "ruby/lib/shop/coupon.rb", "ruby/lib/shop/money.rb", "elixir/lib/shop/price.ex",
            "lua/shop/util.lua", "shell/scripts/lib/common.sh", "dart/lib/money.dart",
            "php/src/Money/Amount.php", "haskell/src/Data/Lens.hs", "kotlin/shop/Ledger.kt",
        ]
    )  # fmt: skip
    expected = {
        ("c/ring.c", "c", "ring.h"): ["c/ring.h"],
        ("c/ring.c", "c", "stdlib.h"): [],
        ("java/x/Y.java", "java", "shop.Item"): ["java/src/main/java/shop/Item.java"],
        ("java/x/Y.java", "java", "shop.*"): [
            "java/src/main/java/shop/Cart.java",
            "java/src/main/java/shop/Item.java",
        ],
        ("java/x/Y.java", "java", "java.util.List"): [],
        ("kotlin/a/B.kt", "kotlin", "shop.Ledger"): ["kotlin/shop/Ledger.kt"],
        ("ruby/lib/shop/coupon.rb", "ruby", "money"): ["ruby/lib/shop/money.rb"],
        ("ruby/lib/x.rb", "ruby", "shop/money"): ["ruby/lib/shop/money.rb"],
        ("elixir/lib/shop/cart.ex", "elixir", "Shop.Price"): ["elixir/lib/shop/price.ex"],
        ("lua/shop/stock.lua", "lua", "shop.util"): ["lua/shop/util.lua"],
        ("shell/scripts/deploy.sh", "shell", "./lib/common.sh"): ["shell/scripts/lib/common.sh"],
        ("dart/lib/wallet.dart", "dart", "package:shop/money.dart"): ["dart/lib/money.dart"],
        ("php/src/Invoice.php", "php", "Shop\\Money\\Amount"): ["php/src/Money/Amount.php"],
        ("haskell/src/X.hs", "haskell", "Data.Lens"): ["haskell/src/Data/Lens.hs"],
    }
    for (importer, language, module), files in expected.items():
        assert resolver.resolve(importer, language, module, []) == files, (language, module)


ECOSYSTEMS = {
    "cpp": {
        "include/widget.h": "/** A widget on the screen. */\nclass Widget {\n public:\n  void draw();\n};\n",
        "src/widget.cc": '#include "widget.h"\n\nvoid Widget::draw() { paint(this); }\n',
        "test/widget_test.cc": (
            "TEST(Widget, Draws) {\n  Widget widget;\n  widget.draw();\n  Widget other;\n}\n"
        ),
    },
    "java": {
        "src/main/java/ui/Widget.java": (
            "package ui;\n\n/** A widget. */\npublic class Widget {\n  void draw() {}\n}\n"
        ),
        "src/test/java/ui/WidgetTest.java": (
            "package ui;\n\nclass WidgetTest {\n"
            "  void drawsWidget() { Widget widget = new Widget(); widget.draw(); }\n"
            "  class Widget {}\n}\n"
        ),
    },
    "ruby": {
        "lib/ui/widget.rb": "module Ui\n  # A widget.\n  class Widget\n    def draw; end\n  end\nend\n",
        "spec/ui/widget_spec.rb": (
            "class Widget; end\nRSpec.describe Widget do\n  it { Widget.new.draw }\nend\n"
        ),
    },
    "elixir": {
        "lib/ui/widget.ex": 'defmodule Ui.Widget do\n  @moduledoc "A widget."\n  def draw(w), do: w\nend\n',
        "test/ui/widget_test.exs": (
            'defmodule Widget do\n  use ExUnit.Case\n  test "draws", do: Ui.Widget.draw(1)\nend\n'
        ),
    },
    "swift": {
        "Sources/UI/Widget.swift": "/// A widget.\npublic final class Widget {\n    func draw() {}\n}\n",
        "Tests/UITests/WidgetTests.swift": (
            "final class Widget {}\nfinal class WidgetTests { func testDraw() { Widget() } }\n"
        ),
    },
}


@pytest.mark.parametrize("ecosystem", sorted(ECOSYSTEMS))
def test_production_code_ranks_above_the_ecosystems_tests_that_name_it(ecosystem, tmp_path):
    files = ECOSYSTEMS[ecosystem]
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    store = CodeStore(tmp_path / "code.db")
    Indexer(tmp_path, store, workers=0).run()
    found = CodeService(store, tmp_path).search_code("Widget", limit=5).chunks
    production = [p for p in files if "test" not in p.lower() and "spec" not in p.lower()]
    assert found[0].metadata.filePath in production
    ranks = {c.metadata.filePath: n for n, c in reversed(list(enumerate(found)))}
    tests = [p for p in files if p not in production]
    assert all(ranks.get(t, 99) > max(ranks.get(p, 99) for p in production[:1]) for t in tests)
