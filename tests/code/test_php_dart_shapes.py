"""PHP's definitions inside a top-level `if` (helper functions behind `function_exists`, polyfills)
and Dart's constructors, mixins, extensions, extension types and top-level accessors: what the
structural tools know of them."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import PHP_DART_SHAPES
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

HELPERS = """\
<?php

use Shop\\Http\\Response;

if (! function_exists('abort')) {
    /**
     * Stop the request with an HTTP status.
     */
    function abort(int $code, string $message = ''): never
    {
        throw new HttpException($code, $message);
    }
}

if (PHP_VERSION_ID >= 80100) {
    enum Level: int { case Debug = 100; }
} elseif (PHP_VERSION_ID >= 80000) {
    final class Level { public function value(): int { return 100; } }
} else {
    class Level { public function value() { return abort(500); } }
}

if (! function_exists('redirect')):
    function redirect(string $to): Response { return new Response(302, $to); }
endif;
"""

SHAPES = """\
part of shapes;

mixin Scalable on Shape {
  double factor = 1;
  void scale(double by) {
    factor *= by;
  }
}

extension on int {
  int get squared => this * this;
}

sealed class Shape {
  const Shape();
  factory Shape.unit() = Square.unit;
  factory Shape.fromJson(Map<String, Object?> json) {
    return Square(json['side'] as double);
  }
  double get area;
}

final class Square extends Shape with Scalable {
  final double side;
  Square(this.side);
  Square._internal() : side = 0;
  Square.unit() : side = 1;
  @override
  double get area => side * side;
}

enum Unit {
  metre('m');

  const Unit(this.symbol);
  final String symbol;
}

extension type Metres(double value) {
  Metres twice() => Metres(value * 2);
}

int get answer => 42;
"""


def test_php_functions_and_classes_defined_behind_a_top_level_if_aresymbol_rows():
    assert symbol_rows("src/helpers.php", "php", HELPERS) == {
        ("function", None, "abort", 9, 12),
        ("type", None, "Level", 16, 16),
        ("class", None, "Level", 18, 18),
        ("method", "Level", "value", 18, 18),
        ("class", None, "Level", 20, 20),
        ("method", "Level", "value", 20, 20),
        ("function", None, "redirect", 24, 24),
    }


def test_dart_constructors_mixins_extensions_and_top_level_getters_aresymbol_rows():
    found = symbol_rows("lib/src/shapes.dart", "dart", SHAPES)
    assert found == {
        ("class", None, "Scalable", 3, 8),
        ("method", "Scalable", "scale", 5, 7),
        ("method", "int", "squared", 11, 11),  # an unnamed extension's: a member of what it extends
        ("class", None, "Shape", 14, 21),
        ("method", "Shape", "Shape", 15, 15),
        ("method", "Shape", "unit", 16, 16),
        ("method", "Shape", "fromJson", 17, 19),
        ("method", "Shape", "area", 20, 20),
        ("class", None, "Square", 23, 30),
        ("method", "Square", "Square", 25, 25),
        ("method", "Square", "_internal", 26, 26),
        ("method", "Square", "unit", 27, 27),
        ("method", "Square", "area", 29, 29),
        ("type", None, "Unit", 32, 37),
        ("method", "Unit", "Unit", 35, 35),
        ("class", None, "Metres", 39, 41),
        ("method", "Metres", "twice", 40, 40),
        ("function", None, "answer", 43, 43),
    }
    parsed = parse_file("lib/src/shapes.dart", "dart", "root", SHAPES)
    exported = {s.name: s.exported for s in parsed.symbols if s.parent == "Square"}
    assert exported["_internal"] is False and exported["unit"] is True
    # A constructor's names define it: `Shape` of `factory Shape.fromJson` is no reference to Shape.
    assert not [r for r in parsed.references if r.name == "fromJson"]


LIBRARY = """\
library shapes;

import 'dart:math';

part 'src/shapes.dart';
"""

BARREL = """\
export 'shapes.dart' show Shape, Square;
"""


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> CodeService:
    files = {
        "src/helpers.php": HELPERS,
        "lib/src/shapes.dart": SHAPES,
        "lib/shapes.dart": LIBRARY,
        "lib/geometry.dart": BARREL,
    }
    return indexed_service(files, tmp_path_factory.mktemp("repo"))


def test_structural_tools_find_php_helpers_and_dart_constructors(service):
    assert [s.name for s in service.list_functions("src/helpers.php").symbols] == [
        "abort", "Level", "Level", "value", "Level", "value", "redirect",
    ]  # fmt: skip
    abort = service.explain_code("abort")
    assert abort.definition is not None
    assert (abort.definition.filePath, abort.definition.startLine, abort.definition.endLine) == (
        "src/helpers.php", 9, 12,
    )  # fmt: skip
    assert abort.definition.doc == "Stop the request with an HTTP status."
    calls = service.find_usages("abort").usages
    assert any(u.filePath == "src/helpers.php" and u.kind == "call" for u in calls)
    from_json = service.explain_code("Shape.fromJson")
    assert from_json.definition is not None
    assert (from_json.definition.name, from_json.definition.parent, from_json.definition.startLine) == (
        "fromJson", "Shape", 17,
    )  # fmt: skip
    scale = service.find_usages("scale").definitions
    assert [(d.filePath, d.parent, d.startLine) for d in scale] == [("lib/src/shapes.dart", "Scalable", 5)]


def test_an_index_made_before_reads_its_php_and_dart_again(tmp_path):
    files = {
        "src/helpers.php": HELPERS,
        "lib/src/shapes.dart": SHAPES,
        "tools/gen.py": "def gen():\n    pass\n",
    }
    report, reopened, _ = reindexed_from_before(PHP_DART_SHAPES, files, tmp_path)
    assert {"src/helpers.php", "lib/src/shapes.dart"} <= set(report.changed_paths)
    assert "tools/gen.py" not in report.changed_paths
    assert CodeService(reopened, tmp_path / "repo").explain_code("abort").definition is not None


def test_a_dart_librarys_parts_and_exports_are_its_dependencies(service):
    library = service.get_dependencies("lib/shapes.dart")
    assert [(i.module, i.resolved, i.external) for i in library.imports] == [
        ("dart:math", [], True),
        ("src/shapes.dart", ["lib/src/shapes.dart"], False),
    ]
    assert service.get_dependencies("lib/src/shapes.dart").importedBy == ["lib/shapes.dart"]
    barrel = service.get_dependencies("lib/geometry.dart")
    assert [(i.module, i.resolved) for i in barrel.imports] == [("shapes.dart", ["lib/shapes.dart"])]
