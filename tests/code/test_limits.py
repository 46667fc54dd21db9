"""Answers over a big repository stay bounded: common names and much-imported modules are listed in
part, with how many there are; usages read only the lines they show."""

import pytest

from pramana.code import service as service_module
from pramana.code.index.indexer import Indexer
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from pramana.code.symbols import lookup as lookup_module

FILES = 12


@pytest.fixture(scope="module")
def crowded(tmp_path_factory) -> CodeService:
    """Twelve modules that all import `common` and each define `get` and a class with a `get`."""
    root = tmp_path_factory.mktemp("crowded") / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "common.py").write_text("def util():\n    return 1\n")
    for i in range(FILES):
        (root / "pkg" / f"mod_{i:02}.py").write_text(
            "from pkg.common import util\n\n\n"
            f"class Thing{i}:\n    def get(self):\n        return util()\n\n\n"
            "def get():\n    return util()\n\n\ndef use():\n    return get()\n"
        )
    store = CodeStore(tmp_path_factory.mktemp("index") / "code.db")
    Indexer(root, store).run()
    return CodeService(store, root)


@pytest.fixture
def small_caps(monkeypatch):
    monkeypatch.setattr(lookup_module, "MAX_DEFINITIONS", 5)
    for name, value in {"MAX_DEPENDENTS": 4, "MAX_SYMBOL_LIMIT": 7}.items():
        monkeypatch.setattr(service_module, name, value)


def test_a_common_name_lists_some_definitions_and_counts_them_all(crowded, small_caps):
    found = crowded.find_usages("get", 3)
    assert len(found.definitions) == 5 and found.definitionsFound == 2 * FILES
    assert [d.kind for d in found.definitions] == ["function"] * 5  # the best first: functions, then methods
    assert len(found.usages) == 3 and found.totalFound == FILES


def test_a_much_imported_module_lists_some_importers_and_counts_them_all(crowded, small_caps):
    found = crowded.get_dependencies("pkg/common.py")
    assert found.importedBy == [f"pkg/mod_{i:02}.py" for i in range(4)] and found.importedByTotal == FILES


def test_listing_the_whole_repository_is_capped(crowded, small_caps):
    listed = crowded.list_functions("")
    assert len(listed.symbols) == 7 and listed.totalFound == 4 * FILES + 1
    assert [s.filePath for s in listed.symbols][:1] == ["pkg/common.py"]


def test_explain_code_of_a_common_name(crowded, small_caps):
    explained = crowded.explain_code("get")
    assert explained.definition.name == "get" and len(explained.otherDefinitions) == 4


def test_usages_show_the_line_the_parser_counted(tmp_path):
    # A form feed is whitespace to Python and no line break to the parser; str.splitlines split there
    # and showed the line after the one used.
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    return 1\n\x0c\nx = f()\n" + "# filler\n" * 200)
    store = CodeStore(tmp_path / "code.db")
    Indexer(root, store).run()
    found = CodeService(store, root).find_usages("f")
    assert [(u.line, u.text) for u in found.usages] == [(4, "x = f()")]
