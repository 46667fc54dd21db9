"""Which part of the repository may import which: benchmarks depend on pramana (src/) and their own
support modules, never on the tests (tests may use the benchmarks' support modules: a live server,
MCP clients, evaluation sets)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO_ROOT


def _parse(source: str) -> ast.Module:
    # Python 3.11's ast.parse is not thread-safe (CPython gh-106905): another thread of this process
    # printing a traceback (its caret anchors parse source) can make it raise a SystemError. Once more
    # then, alone; a real syntax error is a SyntaxError and fails the test.
    try:
        return ast.parse(source)
    except SystemError:
        return ast.parse(source)


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(_parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_benchmarks_and_the_package_never_import_the_tests():
    importers = [*REPO_ROOT.joinpath("benchmarks").rglob("*.py"), *REPO_ROOT.joinpath("src").rglob("*.py")]
    offenders = {
        str(path.relative_to(REPO_ROOT)): sorted(m for m in modules if m == "tests" or m.startswith("tests."))
        for path in importers
        if (modules := imported_modules(path))
    }
    assert {path: modules for path, modules in offenders.items() if modules} == {}


def test_the_package_never_imports_the_benchmarks():
    for path in REPO_ROOT.joinpath("src").rglob("*.py"):
        modules = imported_modules(path)
        assert not any(m == "benchmarks" or m.startswith("benchmarks.") for m in modules), path


def test_the_same_file_names_mean_the_same_thing_in_every_server_package():
    """Each server package has the same stages under the same names (docs/development.md)."""
    from pramana.servers import BUILT_IN

    for module in BUILT_IN:
        name = module.split(".")[1]
        package = REPO_ROOT / "src" / "pramana" / name
        present = {path.name for path in package.glob("*.py")}
        stages = {"server.py", "data.py", "service.py", "store.py", "tools.py", "cli.py", "models.py"}
        assert stages <= present, name
        assert "results.py" not in present, name  # the tools' result models are models.py everywhere


def test_each_server_py_is_a_plain_declaration():
    """server.py names its parts ("module:name", imported when called); the code is in the stages."""
    from pramana.servers import BUILT_IN

    for module in BUILT_IN:
        path = REPO_ROOT / "src" / Path(*module.split(".")).with_suffix(".py")
        tree = ast.parse(path.read_text("utf-8"))
        defined = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.ClassDef)]
        assert defined == [], (module, defined)
