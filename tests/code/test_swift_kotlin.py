"""Swift and Kotlin as mobile libraries write them, and what real code of theirs showed in every
language: members of a class nested in a small one, extensions of nested types, computed and
extension properties, `#if` between a switch's cases, Gradle's and Android's test source sets. The
snippets are written for these tests."""

from __future__ import annotations

import pytest
import tree_sitter as ts

from pramana.code.index.indexer import Indexer
from pramana.code.index.tables import KOTLIN_MASKS, NESTED_MEMBERS
from pramana.code.parse import parse_file
from pramana.code.parse.syntax import SyntaxReader, grammar
from pramana.code.search.paths import TEST, path_kinds
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from tests.code.conftest import reindexed_from_before

SWIFT = """import Foundation

public protocol Shape {
  var area: Double { get }
  func draw()
}

public struct Geometry {
  public final class Circle: Shape {
    public init(radius: Double) { self.radius = radius }
    public func draw() {}
    let radius: Double
  }
}

extension Geometry.Circle {
  public var area: Double {
    return radius * radius * 3.14
  }
  subscript(index: Int) -> Double { radius }
}

public enum Unit {
  case metre, foot
  func scale() -> Double { self == .metre ? 1 : 0.3 }
}
"""

SWIFT_SWITCH = """@objc(EXClock)
public final class Clock: NSObject {
  @objc
  private func handle(_ note: Notification) {
    switch note.name {
    #if os(iOS)
    case UIApplication.didBecomeActiveNotification:
      resume()
    #elseif os(macOS)
    case NSApplication.didBecomeActiveNotification:
      resume()
    #endif
    default:
      return
    }
  }

  public func resume() {}

  func settle(_ result: Result<Int, Error>) {
    switch consume result {
    case .success(let value):
      print(value)
    case .failure:
      break
    }
  }

  public func stop() {}
}
"""

# Swift 5.9's `consume` in a closure's switch: without the mask the grammar reads the whole file as
# one error.
SWIFT_CONSUME = """final class Dispatcher {
  func bind(context: Context) throws -> Handle {
    let handler = try context.engine.makeHandler(label) { [weak context, self] target, args in
      guard let context else {
        throw DispatchError.lost
      }
      let pending = try Pending(context.engine)
      self.invoke(context, target: target, args: args) { [pending] result in
        switch consume result {
        case .success(let value):
          pending.fulfil(value)
        case .failure(let error):
          pending.fail(error)
        }
      }
      return pending.handle()
    }
    return handler.asHandle()
  }

  func unbind(copy other: Handle) {}
}
"""

KOTLIN = """package shop.camera

import android.util.Size

interface Output {
  class Prepared(val tag: String) {
    fun notifyAttached() = println(tag)
  }
  fun prepare(): Prepared
}

class Lens(private val zoom: Float) {
  val wide: Boolean
    get() = zoom < 1f
  val label = "lens"
}

val Size.longEdge: Int get() = maxOf(width, height)

val Size.area: Int
  get() {
    return width * height
  }

fun Lens.Companion.standard(): Lens = Lens(1f)
"""


def _symbols(path: str, language: str, source: str) -> set[tuple[str, str | None, str, int, int]]:
    parsed = parse_file(path, language, "root", source)
    return {(s.kind, s.parent, s.name, s.start_line, s.end_line) for s in parsed.symbols}


@pytest.mark.parametrize(
    ("path", "language", "source", "ping_end"),
    [
        ("Out.kt", "kotlin", "class Out {\n  class Inner {\n    fun ping() = go()\n  }\n}\n", 3),
        ("Out.java", "java", "class Out {\n  static class Inner {\n    void ping() { go(); }\n  }\n}\n", 3),
        ("out.py", "python", "class Out:\n    class Inner:\n        def ping(self):\n            go()\n", 4),
        ("Out.swift", "swift", "class Out {\n  class Inner {\n    func ping() { go() }\n  }\n}\n", 3),
    ],
)
def test_members_of_a_class_nested_in_a_small_one_are_symbols_in_every_language(
    path, language, source, ping_end
):
    found = _symbols(path, language, source)
    assert ("class", "Out", "Inner", 2, 4) in found
    assert ("method", "Inner", "ping", 3, ping_end) in found, found


def test_swift_extensions_of_nested_types_computed_properties_and_subscripts():
    found = _symbols("Sources/Geometry.swift", "swift", SWIFT)
    assert {
        ("interface", None, "Shape", 3, 6),
        ("method", "Shape", "area", 4, 4),  # a protocol's property requirement
        ("class", "Geometry", "Circle", 9, 13),
        ("method", "Circle", "init", 10, 10),
        ("method", "Circle", "area", 17, 19),  # `extension Geometry.Circle`: a member of Circle
        ("method", "Circle", "subscript", 20, 20),
        ("type", None, "Unit", 23, 26),
        ("method", "Unit", "scale", 25, 25),
    } <= found
    assert not any(s[2] in ("radius", "metre") for s in found)  # stored properties and cases define nothing
    assert not any(s[1] == "Geometry.Circle" for s in found)


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_swift_if_between_switch_cases_and_what_the_grammar_cannot_read_keep_the_class(newline):
    found = _symbols("Sources/Clock.swift", "swift", SWIFT_SWITCH.replace("\n", newline))
    assert ("class", None, "Clock", 1, 30) in found
    methods = {s[2]: s[1] for s in found if s[0] == "method"}
    assert methods == {"handle": "Clock", "resume": "Clock", "settle": "Clock", "stop": "Clock"}


def test_swift_ownership_operators_do_not_cost_the_class():
    found = _symbols("Sources/Dispatcher.swift", "swift", SWIFT_CONSUME)
    assert {
        ("class", None, "Dispatcher", 1, 22),
        ("method", "Dispatcher", "bind", 2, 19),
        ("method", "Dispatcher", "unbind", 21, 21),
    } == found


def test_kotlin_computed_and_extension_properties_and_nested_members():
    found = _symbols("src/main/java/shop/camera/Output.kt", "kotlin", KOTLIN)
    assert {
        ("class", "Output", "Prepared", 6, 8),
        ("method", "Prepared", "notifyAttached", 7, 7),
        ("method", "Lens", "wide", 13, 14),
        ("method", "Size", "longEdge", 18, 18),
        ("method", "Size", "area", 20, 23),
        ("method", "Lens", "standard", 25, 25),
    } <= found
    assert not any(s[2] == "label" for s in found)  # a stored property defines nothing


def test_computed_properties_are_symbols_without_chunks_of_their_own():
    parsed = parse_file("src/main/java/shop/camera/Output.kt", "kotlin", "root", KOTLIN)
    lens = [c for c in parsed.chunks if c.start_line <= 13 <= c.end_line]
    assert [(c.name, c.start_line) for c in lens] == [("Lens", 12)]  # the getter is in its class's chunk


@pytest.fixture
def mobile(tmp_path) -> CodeService:
    root = tmp_path / "repo"
    files = {
        "ios/Geometry.swift": SWIFT,
        "ios/Clock.swift": SWIFT_SWITCH,
        "android/src/main/java/shop/camera/Output.kt": KOTLIN,
        "android/src/main/java/shop/camera/Use.kt": "fun frame(s: android.util.Size) = s.longEdge + s.area\n",
    }
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    store = CodeStore(tmp_path / "index.db")
    Indexer(root, store, workers=0).run()
    return CodeService(store, root)


def test_the_structural_tools_know_swift_and_kotlin_members_by_their_owner(mobile):
    explained = mobile.explain_code("Circle.area")
    assert explained.definition is not None
    assert (explained.definition.filePath, explained.definition.startLine) == ("ios/Geometry.swift", 17)
    assert explained.code is not None and "radius * radius" in explained.code.content
    prepared = mobile.explain_code("Prepared.notifyAttached").definition
    assert prepared is not None and prepared.parent == "Prepared"
    edge = mobile.find_usages("longEdge")
    assert [(d.parent, d.startLine) for d in edge.definitions] == [("Size", 18)]
    assert any(u.filePath.endswith("Use.kt") for u in edge.usages)
    listed = mobile.list_functions("ios/Clock.swift").symbols
    assert {(s.name, s.parent) for s in listed} >= {("Clock", None), ("stop", "Clock")}


def test_gradle_and_android_test_source_sets_are_tests():
    for path in (
        "lib/src/androidTest/java/shop/CameraTest.kt",
        "lib/src/androidTest/java/shop/Camera.java",
        "lib/src/commonTest/kotlin/shop/Ledger.kt",
        "lib/src/iosTest/kotlin/shop/Ledger.kt",
        "lib/src/androidUnitTest/kotlin/shop/Ledger.kt",
        "lib/src/testFixtures/kotlin/shop/Fakes.kt",
        "lib/src/main/kotlin/shop/LedgerIT.kt",
        "Tests/ShopTests/LedgerTests.swift",
        "ShopUITests/Launch.swift",
    ):
        assert TEST in path_kinds(path), path
    for path in ("lib/src/main/kotlin/shop/Latest.kt", "lib/src/main/java/shop/Contest.java", "ios/A.swift"):
        assert TEST not in path_kinds(path), path


def test_an_index_made_before_nested_members_were_symbols_reads_its_code_again(tmp_path):
    files = {"src/Output.kt": KOTLIN, "README.md": "# Shop\n"}
    report, _, _ = reindexed_from_before(NESTED_MEMBERS, files, tmp_path)
    assert sorted(report.changed_paths) == ["src/Output.kt"]


# What tree-sitter-kotlin 1.1.0 gives a whole file up on (written for this test; each construct is
# how real Kotlin libraries write it): Kotlin 2.1's `when` guards, one line or several, an annotation
# on its own line before a property's accessor or a primary constructor, a statement that starts
# with a variable `where`.
KOTLIN_GIVING_UP = """package shop.sql

abstract class Builder {
  fun render(node: Node, where: Clause?): String = with(Text()) {
    append("SELECT ")
    where?.let {
      append(" WHERE ")
    }
    toString()
  }

  fun kind(node: Node): Int = when (node) {
    is Join if node.lateral -> 1
    is Join if (
      node.outer &&
        !node.lateral
      ) -> 2
    !is Table if node.size > 0 -> 3
    else -> 0
  }

  val label
    @Suppress("Unused")
    get() = "builder"

  fun <T> pick(items: List<T>): T
    where T : Comparable<T> {
    return items.max()
  }

  fun last() = render(Empty, null)
}

class Cache
  @Inject
  internal constructor(private val size: Int) {
  fun clear() = Unit
}
"""


def test_kotlin_constructs_the_grammar_gives_a_file_up_on_cost_nothing():

    reader = SyntaxReader("src/main/kotlin/shop/sql/Builder.kt", "kotlin", "root", KOTLIN_GIVING_UP)
    assert not any(root.has_error for root in reader._parse())
    found = _symbols("src/main/kotlin/shop/sql/Builder.kt", "kotlin", KOTLIN_GIVING_UP)
    methods = {(s[2], s[3], s[4]) for s in found if s[0] == "method" and s[1] == "Builder"}
    assert methods == {
        ("render", 4, 10), ("kind", 12, 20), ("label", 22, 24), ("pick", 26, 29), ("last", 31, 31),
    }  # fmt: skip
    assert {("class", None, "Cache", 34, 38), ("method", "Cache", "clear", 37, 37)} <= found
    # Blanked or ended where they were: every line and column holds, the code read is the file's.
    assert len(reader.parsed_source) == len(KOTLIN_GIVING_UP.encode())
    assert reader.parsed_source.count(b"\n") == KOTLIN_GIVING_UP.count("\n")


@pytest.mark.parametrize(
    "source",
    [
        "fun f(x: Any) = when (x) {\n  is A -> if (x.ok) 1 else 2\n  else -> 0\n}\n",  # `if` in a body
        "fun f(xs: List<Int>) {\n  if (xs.isEmpty()) return\n"
        "  else if (xs.size > 1) xs.forEach { x -> g(x) }\n}\n",
        "fun f() = update(\n  table,\n  where = op,\n)\n",  # a named argument `where`
        "class Box<T>(val item: T)\n  where T : Comparable<T> {\n  fun get() = item\n}\n",  # constraints
        "@Target(\n  AnnotationTarget.CLASS,\n)\nannotation class Api\n\n"
        'class A {\n  @get:JvmName("y")\n  val x: Int = 1\n}\n',
    ],
    ids=["if-in-branch", "else-if-lambda", "named-argument", "constraints", "annotation-class"],
)
def test_kotlin_masks_leave_code_the_grammar_reads_alone(source):
    assert not ts.Parser(grammar("kotlin")).parse(source.encode()).root_node.has_error
    reader = SyntaxReader("src/F.kt", "kotlin", "root", source)
    reader._parse()
    assert reader.parsed_source == source.encode()


def test_an_index_made_before_the_kotlin_masks_reads_kotlin_again(tmp_path):
    # Not a Swift file beside it: FIELDS_OPERATORS, a later migration, reads Swift again.
    files = {"src/Builder.kt": KOTLIN_GIVING_UP, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, root = reindexed_from_before(KOTLIN_MASKS, files, tmp_path)
    assert sorted(report.changed_paths) == ["src/Builder.kt"]
    names = {(s.name, s.parent) for s in CodeService(reopened, root).list_functions("src/Builder.kt").symbols}
    assert {("render", "Builder"), ("kind", "Builder"), ("pick", "Builder")} <= names
