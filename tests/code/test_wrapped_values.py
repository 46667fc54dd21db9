"""TypeScript and JavaScript functions defined through a cast or a wrapping call (`function f() {} as
any`, `Object.assign(function f() {}, {...})`, React's `memo(...)`): what the structural tools know."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import JS_WRAPPED_VALUES
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

CAST_AND_WRAPPED = """\
export interface Factory {
  (value: number): number
  struct: Factory
}

export const scaled: Factory = function scaled(value: number) {
  return value * 2
} as any

export const retry = Object.assign(
  function retry(attempts: number) {
    return attempts + 1
  },
  { bound: true }
)

const Badge = memo((props: { label: string }) => props.label)

export const Store = mixin(class extends Base {
  load(): void {}
})

export const parsed = (input: string) => input.trim()

export const checked = ((n: number) => n > 0) satisfies (n: number) => boolean

export const isReady = predicate("Ready", Ready)

export const doubled = values.map((n) => n * 2)

export function run(items: number[]): number[] {
  const local = items.map((n) => n + 1)
  return local
}
"""

COMMONJS = """\
const handler = wrap(function handler(req) {
  return req.body
})

const plain = (1, 2)
"""


def test_casts_and_wrapping_calls_hold_their_function_or_class():
    assert symbol_rows("src/api.ts", "typescript", CAST_AND_WRAPPED) == {
        ("interface", None, "Factory", 1, 4),
        ("function", None, "scaled", 6, 8),  # through `as any`
        ("function", None, "retry", 10, 15),  # Object.assign's first argument
        ("function", None, "Badge", 17, 17),  # React's memo(...)
        ("class", None, "Store", 19, 21),  # a class given to a call, its members its own
        ("method", "Store", "load", 20, 20),
        ("function", None, "parsed", 23, 23),  # parenthesized
        ("function", None, "checked", 25, 25),  # `satisfies`
        ("function", None, "run", 31, 34),
        # Not `isReady` (no function given), `doubled` (a method of a value: an array) nor `local`
        # (inside a function).
    }


def test_javascript_reads_wrapping_calls_too():
    assert symbol_rows("lib/handler.js", "javascript", COMMONJS) == {("function", None, "handler", 1, 3)}


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> CodeService:
    return indexed_service({"src/api.ts": CAST_AND_WRAPPED}, tmp_path_factory.mktemp("wrapped"))


def test_structural_tools_find_functions_behind_casts_and_calls(service):
    listed = [s.name for s in service.list_functions("src/api.ts").symbols]
    assert listed[:4] == ["Factory", "scaled", "retry", "Badge"]
    explained = service.explain_code("retry")
    assert explained.definition is not None
    assert (explained.definition.filePath, explained.definition.startLine) == ("src/api.ts", 10)
    assert [d.name for d in service.find_usages("scaled").definitions] == ["scaled"]


def test_an_index_made_before_reads_its_typescript_and_javascript_again(tmp_path):
    files = {
        "src/api.ts": CAST_AND_WRAPPED,
        "lib/handler.js": COMMONJS,
        "tools/gen.py": "def gen():\n    return 1\n",
    }
    report, _, _ = reindexed_from_before(JS_WRAPPED_VALUES, files, tmp_path)
    assert {"src/api.ts", "lib/handler.js"} <= set(report.changed_paths)
    assert "tools/gen.py" not in report.changed_paths


def test_react_components_behind_memo_and_forward_ref_are_functions():
    source = (
        "export const Button = React.forwardRef((props: Props, ref: Ref) => (\n"
        "  <button ref={ref}>{props.label}</button>\n"
        "))\n"
        "\n"
        "export const Avatar = memo(function Avatar({ url }: { url: string }) {\n"
        "  return <img src={url} />\n"
        "})\n"
    )
    assert symbol_rows("src/Button.tsx", "tsx", source) == {
        ("function", None, "Button", 1, 3),
        ("function", None, "Avatar", 5, 7),
    }
