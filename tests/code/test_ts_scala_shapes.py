"""TypeScript written as typed constants with variance annotations (Effect's and fp-ts' style), Scala's
package objects and Scala 3 extensions: what the structural tools know of them."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import TS_SCALA_SHAPES
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

# A variance annotation (`out A`) and a generic call signature starting a line after another
# signature with no `;`: tree-sitter-typescript 0.23 reads neither, and lost all that follows.
TYPED_CONSTANTS = """\
export interface Task<out A, in out E = never> {
  readonly run: () => A
}

export const map: {
  <A, B>(f: (a: A) => B): <E>(self: Task<A, E>) => Task<B, E>
  <
    A,
    E,
    B
  >(self: Task<A, E>, f: (a: A) => B): Task<B, E>
} = internal.map

export const never: Task<never> = internal.never

export const delay: (millis: number) => Task<void> = internal.delay

export function flatten<A, E>(self: Task<Task<A, E>, E>): Task<A, E> {
  return self.run()
}
"""

NAMESPACE = """\
export namespace Retry {
  export function backoff(attempt: number): number {
    return 2 ** attempt
  }
  export const jitter = (millis: number) => millis * Math.random()
}

namespace Outer.Inner {
  function hidden(): void {}
}
"""

SCALA = """\
package shop

package object pricing {
  type Money = BigDecimal
  def round(m: Money): Money = m.setScale(2)
  implicit final class MoneyOps(private val m: Money) extends AnyVal {
    def plus(o: Money): Money = m + o
  }
}

case class Circle(r: Double)

extension (c: Circle)
  def diameter: Double = c.r * 2
  def scaled(k: Double): Circle = Circle(c.r * k)

extension [T](xs: List[T]) {
  def second: T = xs(1)
}
"""


def test_typescript_overloaded_constants_after_variance_annotations_are_functions():
    assert symbol_rows("src/Task.ts", "typescript", TYPED_CONSTANTS) == {
        ("interface", None, "Task", 1, 3),
        ("function", None, "map", 5, 12),
        # `never` is a value of a type, `delay` one of a function type (left out: docs/benchmarks.md)
        ("function", None, "flatten", 18, 20),  # after the constructs the grammar could not read
    }


def test_tsx_keeps_a_line_that_starts_with_an_element():
    source = "export function Hint() {\n  return (\n    <p>\n<Trans>(optional)</Trans>\n    </p>\n  )\n}\n"
    assert symbol_rows("src/Hint.tsx", "tsx", source) == {("function", None, "Hint", 1, 7)}


def test_scala_package_object_members_and_extension_methods():
    assert symbol_rows("src/shop/pricing.scala", "scala", SCALA) == {
        ("module", None, "pricing", 3, 9),
        ("type", "pricing", "Money", 4, 4),
        ("function", "pricing", "round", 5, 5),
        ("class", "pricing", "MoneyOps", 6, 8),
        ("method", "MoneyOps", "plus", 7, 7),
        ("class", None, "Circle", 11, 11),
        ("method", "Circle", "diameter", 14, 14),  # an extension's defs are the extended type's
        ("method", "Circle", "scaled", 15, 15),
        ("method", "List", "second", 18, 18),  # the type, not its parameter `T`
    }


def test_typescript_namespace_owns_its_members():
    assert symbol_rows("src/retry.ts", "typescript", NAMESPACE) == {
        ("module", None, "Retry", 1, 6),
        ("function", "Retry", "backoff", 2, 4),
        ("function", "Retry", "jitter", 5, 5),
        ("module", "Outer", "Inner", 8, 10),
        ("function", "Outer.Inner", "hidden", 9, 9),
    }


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> CodeService:
    files = {"src/Task.ts": TYPED_CONSTANTS, "src/retry.ts": NAMESPACE, "src/shop/pricing.scala": SCALA}
    return indexed_service(files, tmp_path_factory.mktemp("ts-scala"))


def test_structural_tools_know_typed_constants_and_extension_methods(service):
    listed = service.list_functions("src/Task.ts")
    assert [s.name for s in listed.symbols] == ["Task", "map", "flatten"]
    explained = service.explain_code("map")
    assert explained.definition is not None
    assert (explained.definition.filePath, explained.definition.startLine) == ("src/Task.ts", 5)
    diameter = service.explain_code("Circle.diameter")
    assert diameter.definition is not None
    assert (diameter.definition.name, diameter.definition.startLine) == ("diameter", 14)
    assert [d.parent for d in service.find_usages("MoneyOps").definitions] == ["pricing"]
    backoff = service.explain_code("Retry.backoff")
    assert backoff.definition is not None
    assert (backoff.definition.filePath, backoff.definition.startLine) == ("src/retry.ts", 2)


def test_an_index_made_before_reads_its_typescript_and_scala_again(tmp_path):
    files = {
        "src/Task.ts": TYPED_CONSTANTS,
        "src/shop/pricing.scala": SCALA,
        "tools/gen.py": "def gen():\n    return 1\n",
    }
    report, _, _ = reindexed_from_before(TS_SCALA_SHAPES, files, tmp_path)
    # Later migrations may read more.
    assert {"src/Task.ts", "src/shop/pricing.scala"} <= set(report.changed_paths)
