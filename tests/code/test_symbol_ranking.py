"""find_usages and explain_code answer like a developer would: production code before its tests,
exactly the method a qualified name asks for, and a clear answer when there is none."""

import pytest

from pramana.code import format
from pramana.code.files import text_hash
from pramana.code.index.indexer import Indexer
from pramana.code.index.tables import REFS_MEMBER
from pramana.code.parse import parse_file
from pramana.code.search.paths import TESTS_AS_SUBJECT, production_chunks, production_share
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from pramana.store.sqlite import connect, migrate
from tests.code.conftest import indexed_service

# Paths chosen so that the tests sort before the production code that uses the same names
# ("shop/tests/..." < "shop/web.py"), as in many real repositories.
FILES = {
    "shop/totals.py": "def order_total(items):\n    return sum(price for _, price in items)\n",
    "shop/web.py": (
        "from shop.totals import order_total\n"  # 1
        "\n"
        "\n"
        "def checkout(items, catalog, sku):\n"  # 4
        "    total = order_total(items)\n"  # 5
        "    return total, catalog.lookup(sku)\n"  # 6
        "\n"
        "\n"
        "def index(rows):\n"  # 9
        "    lookup = {}\n"  # 10: a variable that shares the method's name
        "    for row in rows:\n"
        "        lookup[row] = True\n"  # 12
        "    return lookup\n"  # 13
    ),
    "shop/catalog.py": (
        "class Catalog:\n"
        "    def lookup(self, sku):\n"  # 2
        "        return self.items[sku]\n"
    ),
    "shop/warehouse.py": (
        "class Warehouse:\n"
        "    def lookup(self, sku):\n"  # 2
        "        return None\n"
    ),
    "shop/wiring.py": (
        "def handlers(catalog):\n"
        "    return [catalog.lookup]\n"  # 2: the method as a value
        "\n"
        "\n"
        "def named(name):\n"
        "    return lookup(name)\n"  # 6: registry's function lookup, not a method
    ),
    "shop/registry.py": "def lookup(name):\n    return name\n",
    "shop/tests/fakes.py": (
        "def order_total(items):\n    return 0\n\n\ndef lookup(name):\n    return None\n"
    ),
    "shop/tests/test_totals.py": (
        "from shop.totals import order_total\n"  # 1
        "\n"
        "\n"
        "def test_order_total():\n"
        "    assert order_total([('a', 2)]) == 2\n"  # 5
    ),
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> CodeService:
    root = tmp_path_factory.mktemp("ranking") / "repo"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    store = CodeStore(root.parent / "code.db")
    Indexer(root, store).run()
    return CodeService(store, root)


def where(usages):
    return [(u.filePath, u.line, u.kind) for u in usages]


def test_usages_list_production_code_before_tests(shop):
    found = shop.find_usages("order_total")
    assert where(found.usages) == [
        ("shop/web.py", 5, "call"),
        ("shop/web.py", 1, "import"),
        ("shop/tests/test_totals.py", 5, "call"),
        ("shop/tests/test_totals.py", 1, "import"),
    ]
    assert found.totalFound == 4


def test_the_limit_applies_after_ordering(shop):
    found = shop.find_usages("order_total", limit=1)
    assert where(found.usages) == [("shop/web.py", 5, "call")]
    assert found.totalFound == 4


def test_definitions_list_production_code_first(shop):
    found = shop.find_usages("order_total")
    assert [d.filePath for d in found.definitions] == ["shop/totals.py", "shop/tests/fakes.py"]


def test_explain_class_method_gives_exactly_that_method(shop):
    for query in ("Warehouse.lookup", "Warehouse::lookup", "shop.Warehouse.lookup", "warehouse.lookup"):
        found = shop.explain_code(query)
        assert (found.definition.parent, found.definition.filePath) == ("Warehouse", "shop/warehouse.py")
        assert found.otherDefinitions == []  # not Catalog.lookup, not the functions named lookup
    catalog = shop.explain_code("Catalog.lookup")
    assert (catalog.definition.parent, catalog.definition.filePath) == ("Catalog", "shop/catalog.py")


def test_a_methods_usages_leave_out_variables_and_functions_of_the_same_name(shop):
    found = shop.explain_code("Catalog.lookup")
    # `catalog.lookup(sku)` and `[catalog.lookup]`; not `lookup = {}` nor `lookup(name)`
    assert where(found.usages) == [("shop/web.py", 6, "call"), ("shop/wiring.py", 2, "reference")]


def test_a_qualified_name_finds_member_accesses_first(shop):
    plain = shop.find_usages("lookup")
    assert where(plain.usages)[:3] == [
        ("shop/web.py", 6, "call"),
        ("shop/wiring.py", 6, "call"),
        ("shop/web.py", 10, "reference"),
    ]
    member = shop.find_usages("Catalog.lookup")
    assert where(member.usages)[:4] == [
        ("shop/web.py", 6, "call"),
        ("shop/wiring.py", 2, "reference"),
        ("shop/wiring.py", 6, "call"),
        ("shop/web.py", 10, "reference"),
    ]
    assert member.totalFound == plain.totalFound == 6


def test_a_class_that_does_not_define_the_method_gets_a_clear_answer(shop):
    for query, said in (
        ("Basket.lookup", "nothing named `Basket`"),
        ("Catalog.remove", "`Catalog` (shop/catalog.py:1) defines no `remove`"),
    ):
        found = shop.explain_code(query)
        assert found.definition is None and found.otherDefinitions == [] and found.usages == []
        assert said in found.note
    missing = shop.explain_code("Basket.lookup")
    assert "`Catalog.lookup` (shop/catalog.py:2)" in missing.note  # where the name does live
    text = format.explanation_markdown(missing)
    assert text.startswith("# No definition named by 'Basket.lookup'") and "nothing named `Basket`" in text


def test_a_module_qualifies_its_top_level_functions(shop):
    found = shop.explain_code("registry.lookup")
    assert (found.definition.filePath, found.definition.parent) == ("shop/registry.py", None)
    assert found.otherDefinitions == []


def test_an_unqualified_name_prefers_production_functions_then_methods(shop):
    found = shop.explain_code("lookup")
    assert (found.definition.filePath, found.definition.kind) == ("shop/registry.py", "function")
    assert [(d.filePath, d.kind) for d in found.otherDefinitions] == [
        ("shop/catalog.py", "method"),
        ("shop/warehouse.py", "method"),
        ("shop/tests/fakes.py", "function"),
    ]


def test_references_record_member_accesses():
    source = "def f(svc):\n    lookup = svc.lookup(1)\n    g = svc.lookup\n    return lookup\n"
    refs = {(r.name, r.line): (r.kind, r.member) for r in parse_file("a.py", "python", "", source).references}
    assert refs[("lookup", 2)] == ("call", True)  # one per name and line: the member call wins
    assert refs[("lookup", 3)] == ("reference", True)
    assert refs[("lookup", 4)] == ("reference", False)
    assert refs[("svc", 2)] == ("reference", False)


def test_an_index_from_before_member_references_is_parsed_again(tmp_path):
    root = tmp_path / "repo"
    (root / "shop").mkdir(parents=True)
    for rel in ("shop/web.py", "shop/catalog.py"):
        (root / rel).write_text(FILES[rel])
    # An index an older pramana left: the schema before refs.member, catalog.py indexed and unchanged.
    db = tmp_path / "code.db"
    conn = connect(db)
    migrate(conn, CodeStore.migrations[: CodeStore.migrations.index(REFS_MEMBER)])
    stat = (root / "shop/catalog.py").stat()
    conn.execute(
        "INSERT INTO files (path, language, package, size, mtime_ns, sha, lines) VALUES (?,?,?,?,?,?,?)",
        (
            "shop/catalog.py",
            "python",
            "",
            stat.st_size,
            stat.st_mtime_ns,
            text_hash(FILES["shop/catalog.py"]),
            3,
        ),
    )
    conn.close()
    store = CodeStore(db)
    report = Indexer(root, store).run()
    assert report.files_parsed == 2  # catalog.py too, so that its references say which are members
    assert where(CodeService(store, root).explain_code("Catalog.lookup").usages) == [
        ("shop/web.py", 6, "call")
    ]


# A Haskell test library's own code lives in the `Test.*` namespace (src/Test/...); its test suite
# in the lower-case test/ folder. Words written by us for this test.
HASKELL_TEST_LIBRARY = {
    "src/Test/Runner/Shuffle.hs": (
        "module Test.Runner.Shuffle (shuffleItems) where\n\n"
        "-- | Shuffle the items of a forest with a seed.\n"
        "shuffleItems :: Int -> [a] -> [a]\n"
        "shuffleItems seed items = reverse items\n"
    ),
    "test/Test/Runner/ShuffleSpec.hs": (
        "module Test.Runner.ShuffleSpec (spec) where\n\n"
        "import Test.Runner.Shuffle\n\n"
        "spec :: Spec\n"
        'spec = describe "shuffleItems" $ do\n'
        '  it "shuffles the items of a forest with a seed" $ do\n'
        "    shuffleItems 1 [1, 2, 3] `shouldBe` [3, 2, 1]\n"
        '  it "shuffles the items of an empty forest" $ do\n'
        "    shuffleItems 1 [] `shouldBe` ([] :: [Int])\n"
    ),
}


def test_a_haskell_test_librarys_own_code_is_not_its_tests(tmp_path):
    service = indexed_service(HASKELL_TEST_LIBRARY, tmp_path)
    found = service.search_code("shuffle the items of a forest", limit=5).chunks
    assert found[0].metadata.filePath == "src/Test/Runner/Shuffle.hs"
    usages = service.find_usages("shuffleItems").usages
    assert usages and usages[0].filePath == "src/Test/Runner/Shuffle.hs"


# A test framework's own code speaks of tests: there a query's "tests" name what it does. Elsewhere
# "tests for the router" still asks for the test suite. Snippets written for this test.
TEST_FRAMEWORK = {
    "lib/my_unit/runner.ex": (
        "defmodule MyUnit.Runner do\n"
        '  @moduledoc "Runs every test module and each test in it."\n\n'
        "  def run(tests), do: Enum.map(tests, &run_test/1)\n\n"
        "  defp run_test(test), do: {test, :timer.tc(test.fun)}\n"
        "end\n"
    ),
    "lib/my_unit/report.ex": (
        "defmodule MyUnit.Report do\n"
        '  @moduledoc "Prints the slowest tests at the end of a run."\n\n'
        "  def slowest(timed, count), do: timed |> Enum.sort_by(&elem(&1, 1), :desc) |> Enum.take(count)\n"
        "end\n"
    ),
    "lib/my_unit/case.ex": (
        "defmodule MyUnit.Case do\n"
        '  @moduledoc "The test macro registers a test in the module."\n\n'
        "  defmacro test(name, do: body), do: quote(do: def(unquote(name)(), do: unquote(body)))\n"
        "end\n"
    ),
    "test/my_unit/report_test.exs": (
        "defmodule MyUnit.ReportTest do\n"
        "  use MyUnit.Case\n\n"
        '  test "the slowest tests are printed, slowest first" do\n'
        "    assert MyUnit.Report.slowest([{:a, 1}, {:b, 3}], 1) == [{:b, 3}]\n"
        "  end\n\n"
        '  test "no slowest tests are printed for an empty run" do\n'
        "    assert MyUnit.Report.slowest([], 1) == []\n"
        "  end\n"
        "end\n"
    ),
}
WEB_APP = {
    "lib/shop/router.ex": (
        "defmodule Shop.Router do\n"
        '  def route(conn, path), do: dispatch(conn, String.split(path, "/"))\n'
        "  defp dispatch(conn, parts), do: {conn, parts}\n"
        "end\n"
    ),
    "lib/shop/cart.ex": "defmodule Shop.Cart do\n  def total(items), do: Enum.sum(items)\nend\n",
    "test/shop/router_test.exs": (
        "defmodule Shop.RouterTest do\n"
        "  use ExUnit.Case\n\n"
        '  test "routes a path" do\n'
        '    assert Shop.Router.route(:conn, "a/b") == {:conn, ["a", "b"]}\n'
        "  end\n"
        "end\n"
    ),
}


def test_in_a_test_framework_the_word_tests_names_its_subject(tmp_path):
    framework = indexed_service(TEST_FRAMEWORK, tmp_path / "framework")
    assert framework.store.production_share("tests") >= TESTS_AS_SUBJECT
    found = framework.search_code("print the slowest tests", limit=5).chunks
    assert found[0].metadata.filePath == "lib/my_unit/report.ex"
    index = framework.store.lexical_index()
    holding = {index.heads[index.ids[position]][0] for position in index.holding("Tested")}  # stemmed
    assert "lib/my_unit/report.ex" in holding and "test/my_unit/report_test.exs" in holding
    assert index.holding("absent") == []
    app = indexed_service(WEB_APP, tmp_path / "app")
    assert app.store.production_share("tests") == 0.0
    found = app.search_code("tests for the router", limit=5).chunks
    assert found[0].metadata.filePath == "test/shop/router_test.exs"


def test_the_subject_word_keeps_its_meaning_beside_another_test_word(tmp_path):
    # "tests" is the framework's subject; "fixture" is not a word of its code, and still does not make
    # the sentence a request for the framework's own test suite.
    framework = indexed_service(TEST_FRAMEWORK, tmp_path)
    assert framework.store.production_share("fixture") < TESTS_AS_SUBJECT
    found = framework.search_code("print the slowest tests of a fixture", limit=5).chunks
    assert found[0].metadata.filePath == "lib/my_unit/report.ex"


def test_production_share_counts_production_chunks_only():
    paths = ["lib/a.ex", "lib/b.ex", "lib/c.ex", "lib/d.ex", "lib/e.ex", "test/a_test.exs"]
    chunks = production_chunks(paths)
    assert production_share(chunks, [0, 5]) == 0.2  # one production chunk in five; the test's is not counted
    assert production_share(chunks, [5]) == 0.0
    assert production_share(production_chunks(["test/a_test.exs"]), [0]) == 0.0  # no production code at all
