"""Shell and Lua as their code is really written: scripts without an extension (known by their `#!`
line or an editor's mode line), bash-completion's `f() {...} && complete -F f cmd`, files the bash
grammar cannot read whole, Lua's `Class:method`, `local f = function`, and modules written as a
function returning their table. The snippets are written for these tests."""

from __future__ import annotations

import tree_sitter as ts

from pramana.code.index.indexer import Indexer
from pramana.code.index.tables import SCRIPTS
from pramana.code.languages import language_for
from pramana.code.parse import parse_file
from pramana.code.parse.syntax import grammar
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from tests.code.conftest import reindexed_from_before


def test_a_file_without_an_extension_is_in_the_language_its_first_line_or_mode_line_names():
    named = {
        ("bin/tool", b"#!/usr/bin/env bash\nset -e\n"): "shell",
        ("libexec/run", b"#!/bin/sh -e\nexec true\n"): "shell",
        ("scripts/check", b"#!/usr/bin/env -S lua5.4 -W\nprint(1)\n"): "lua",
        ("bin/serve", b"#!/usr/bin/python3.11\nimport sys\n"): "python",
        ("completions/tool", b"# tool(1) completion   -*- shell-script -*-\n_tool() { :; }\n"): "shell",
        ("completions/other", b"_other()\n{\n    :\n}\n# ex: filetype=sh\n"): "shell",
        ("helpers/modules", b"# -*- python -*-\nimport pkgutil\n"): "python",
        ("test/cases.bats", b"@test 'adds' {\n  run add 1 2\n}\n"): "shell",
    }
    for (path, head), language in named.items():
        assert language_for(path, head) == language, path
    # Perl has no grammar here but is code, cut into windows (text before issue 28's twenty-third set).
    assert language_for("helpers/perl", b"# -*- perl -*-\nuse strict;\n") == "perl"
    # A language the table does not know, a name that says text, no word at all: text as before.
    assert language_for("helpers/tool", b"# -*- tcl -*-\nputs hi\n") == "text"
    assert language_for("notes.txt", b"#!/bin/sh\n") == "text"
    assert language_for("README", b"Read me -*- coding: utf-8 -*-\n") == "text"
    assert language_for("LICENSE", b"MIT License\n") == "text"
    # A vim mode line counts in the last lines only when the head read is the whole file.
    long_head = b"_f()\n{\n    :\n}\n" + b"# filler\n" * 2000 + b"# ex: filetype=sh\n"
    assert language_for("completions/long", long_head[:8192]) == "text"


COMPLETION = """# tool(1) completion          -*- shell-script -*-

if [[ $OSTYPE == *linux* ]]; then
    _tool_pids()
    {
        COMPREPLY=($(compgen -W '$(command ps axo pid=)' -- "$cur"))
    }
else
    _tool_pids()
    {
        COMPREPLY=($(compgen -W '$(command ps -A -o pid)' -- "$cur"))
    }
fi

_tool()
{
    local cur prev words cword
    _init_completion || return
    _tool_pids
} &&
    complete -F _tool tool
"""


def test_bash_definitions_joined_to_a_command_or_inside_a_top_level_if_are_functions():
    parsed = parse_file("completions/tool", "shell", "root", COMPLETION)
    assert {(s.name, s.start_line, s.end_line) for s in parsed.symbols} == {
        ("_tool_pids", 4, 7),
        ("_tool_pids", 9, 12),
        ("_tool", 15, 20),
    }
    assert any(r.name == "_tool_pids" and r.kind == "call" and r.line == 19 for r in parsed.references)


# Three constructs tree-sitter-bash cannot read (an expansion's pattern with `[<{(`, an extglob
# `!(...)`, a `=~` regex holding `[^]]`): the first makes it read every later function into the first.
UNREADABLE = """# Helpers of a made-up tool.

_tool_first_option()
{
    local option=$1
    option=${option%%[<{().[]*}
    printf '%s\\n' "$option"
}

_tool_plugins()
{
    local dir=${TOOL_PLUGINS:-/etc/tool.d}
    COMPREPLY=($(compgen -W '$(printf "%s\\n" $dir/!(*.bak))' -- "$cur"))
}

_tool_matches()
{
    [[ $cur =~ ^(\\$\\{[#!]?)([A-Za-z0-9_]*)\\[([^]]*)$ ]] && return 0
    return 1
}

_tool()
{
    _tool_plugins
    _tool_first_option "$1"
}
"""


def test_a_bash_file_the_grammar_cannot_read_whole_keeps_every_function_where_it_is():
    root = ts.Parser(grammar("shell")).parse(UNREADABLE.encode()).root_node
    top = [c for c in root.named_children if c.type == "function_definition"]
    assert root.has_error and len(top) < 4  # the grammar alone loses them
    parsed = parse_file("lib/tool.bash", "shell", "root", UNREADABLE)
    assert {(s.name, s.start_line, s.end_line) for s in parsed.symbols} == {
        ("_tool_first_option", 3, 8),
        ("_tool_plugins", 10, 14),
        ("_tool_matches", 16, 20),
        ("_tool", 22, 26),
    }
    chunks = {c.name: (c.start_line, c.end_line) for c in parsed.chunks if c.name}
    assert chunks["_tool_first_option"] == (3, 8) and chunks["_tool"] == (22, 26)
    assert "option=${option%%[<{().[]*}" in next(c.content for c in parsed.chunks if c.start_line == 3)
    calls = {(r.name, r.line) for r in parsed.references if r.kind == "call"}
    assert {("_tool_plugins", 24), ("_tool_first_option", 25)} <= calls


LUA_CLASS = """local class = require("shop.class")

--- A basket of items.
local Basket = class()

function Basket:_init(items)
  self.items = items or {}
end

--- The sum of the prices.
function Basket:total()
  local sum = 0
  for _, item in ipairs(self.items) do sum = sum + item.price end
  return sum
end

function Basket.empty()
  return Basket({})
end

local describe = function(basket)
  return ("%d items"):format(#basket.items)
end

return Basket
"""

# A module written as a function returning its table, the style of busted's own modules.
LUA_CLOSURE = """local util = require("shop.util")

return function(shop)
  local ledger = {}

  local balance = function(account)
    return util.sum(account.entries)
  end

  function ledger.post(account, amount)
    table.insert(account.entries, amount)
    return balance(account)
  end

  return ledger
end
"""


def test_lua_methods_local_function_values_tables_that_own_them_and_modules_returned_by_a_function():
    basket = parse_file("shop/basket.lua", "lua", "root", LUA_CLASS)
    assert {(s.kind, s.parent, s.name, s.start_line, s.end_line, s.exported) for s in basket.symbols} == {
        ("class", None, "Basket", 4, 4, False),  # a table with methods defined on it
        ("method", "Basket", "_init", 6, 8, True),
        ("method", "Basket", "total", 11, 15, True),
        ("function", "Basket", "empty", 17, 19, True),
        ("function", None, "describe", 21, 23, False),
    }
    ledger = parse_file("shop/ledger.lua", "lua", "root", LUA_CLOSURE)
    assert {(s.kind, s.parent, s.name, s.start_line, s.end_line) for s in ledger.symbols} == {
        ("module", None, "ledger", 4, 4),  # a table with functions defined on it
        ("function", None, "balance", 6, 8),
        ("function", "ledger", "post", 10, 13),
    }
    assert any(r.name == "balance" and r.kind == "call" and r.line == 12 for r in ledger.references)
    # A module that is the table it returns: its fields' functions are the module's functions.
    returned = parse_file(
        "shop/util.lua", "lua", "root",
        "local rng = require('rng')\n\nreturn {\n  shuffle = function(t, seed)\n    return rng.mix(t, seed)\n"
        "  end,\n  version = '1.0',\n}\n",
    )  # fmt: skip
    assert {(s.kind, s.parent, s.name, s.start_line, s.end_line) for s in returned.symbols} == {
        ("function", None, "shuffle", 4, 6)
    }
    # The callee of a value (`require`) is no symbol; a file's table nothing is defined on is a module
    # all the same (its data: test_lua_tables.py).
    plain = parse_file("shop/plain.lua", "lua", "root", 'local util = require("shop.util")\nlocal t = {}\n')
    assert [(s.kind, s.name) for s in plain.symbols] == [("module", "t")]


def test_scripts_and_lua_modules_through_the_tools(tmp_path):
    files = {
        "bin/tool": "#!/usr/bin/env bash\n# Deploys it.\ndeploy_release() {\n  tar -czf r.tgz dist\n}\n",
        "completions/tool": COMPLETION,
        "shop/basket.lua": LUA_CLASS,
        "shop/ledger.lua": LUA_CLOSURE,
        "shop/stock.lua": "local M = {}\n\nfunction M.reserve(sku)\n  return sku\nend\n\nreturn M\n",
        "README": "The tool deploys releases.\n",
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    store = CodeStore(tmp_path / "code.db")
    Indexer(tmp_path, store, workers=0).run()
    service = CodeService(store, tmp_path)
    listed = service.list_functions("bin/tool").symbols
    assert [(s.name, s.language, s.startLine, s.endLine) for s in listed] == [
        ("deploy_release", "shell", 3, 5)
    ]
    assert service.get_file("completions/tool").language == "shell"
    found = service.search_code("deploy_release", limit=3).chunks
    assert found and found[0].metadata.filePath == "bin/tool"
    # `xml.parse` for the `function M.parse` of xml.lua; Lua's `Class:method` asked as written.
    explained = service.explain_code("stock.reserve").definition
    assert explained is not None and (explained.filePath, explained.startLine) == ("shop/stock.lua", 3)
    method = service.explain_code("Basket:total").definition
    assert method is not None
    assert (method.filePath, method.kind, method.startLine) == ("shop/basket.lua", "method", 11)
    assert service.explain_code("ledger.post").definition.filePath == "shop/ledger.lua"
    assert service.explain_code("stock.total").definition is None  # Basket's total is not stock.lua's


def _index(tmp_path, files: dict[str, str]) -> CodeService:
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    store = CodeStore(tmp_path / "code.db")
    Indexer(tmp_path, store, workers=0).run()
    return CodeService(store, tmp_path)


def test_busted_specs_and_bats_tests_rank_below_the_code_they_call(tmp_path):
    service = _index(
        tmp_path,
        {
            "lua/ui/widget.lua": "local M = {}\n\nfunction M.draw_widget(w)\n  return w\nend\n\nreturn M\n",
            "spec/ui/widget_spec.lua": (
                'describe("widget", function()\n  it("draws", function()\n'
                "    draw_widget(1)\n    draw_widget(2)\n    draw_widget(3)\n  end)\nend)\n"
            ),
            "lib/render.bash": "# Renders a frame.\nrender_frame() {\n  printf '%s\\n' \"$1\"\n}\n",
            "test/render.bats": (
                "#!/usr/bin/env bats\n\n@test 'renders' {\n  run render_frame a\n  render_frame b\n"
                "  render_frame c\n}\n"
            ),
        },
    )
    assert service.search_code("draw_widget", limit=3).chunks[0].metadata.filePath == "lua/ui/widget.lua"
    assert service.search_code("render_frame", limit=3).chunks[0].metadata.filePath == "lib/render.bash"


def test_a_lua_folders_init_file_is_what_the_folders_name_names(tmp_path):
    body = "local M = {{}}\n\n--- {doc}\nfunction M.{name}(opts)\n  return opts\nend\n\nreturn M\n"
    service = _index(
        tmp_path,
        {
            "lua/gazer/init.lua": body.format(doc="Sets gazer up.", name="setup"),
            "lua/gazer/pickers.lua": body.format(doc="Picks what gazer shows, the gazer way.", name="pick"),
            "lua/gazer/sorters.lua": body.format(doc="Sorts.", name="sort"),
        },
    )
    found = service.search_code("gazer", limit=3).chunks
    assert found[0].metadata.filePath == "lua/gazer/init.lua"


def test_one_lower_case_word_finds_its_definition_before_the_code_that_calls_it(tmp_path):
    service = _index(
        tmp_path,
        {
            "tablex.lua": (
                "local tablex = {}\n\n--- compare two values, recursively for tables.\n"
                "function tablex.deepcompare(t1, t2)\n  return cycle_compare(t1, t2, {})\nend\n\n"
                "return tablex\n"
            ),
            "map.lua": (
                "local deepcompare = require('tablex').deepcompare\nlocal Map = {}\n\n"
                "function Map:__eq(m)\n  -- deepcompare, not __eq again\n"
                "  return deepcompare(self, m, true)\nend\n\n"
                "return Map\n"
            ),
        },
    )
    found = service.search_code("deepcompare", limit=3).chunks
    assert found[0].metadata.filePath == "tablex.lua" and found[0].metadata.name == "deepcompare"


def test_an_index_made_before_scripts_were_code_reads_its_scripts_and_lua_again(tmp_path):
    files = {
        "bin/tool": "#!/usr/bin/env bash\ndeploy_release() {\n  tar -czf r.tgz dist\n}\n",
        "shop/basket.lua": LUA_CLASS,
        "src/main.py": "def main():\n    return 1\n",
    }
    # as an index of the version before: the script was text
    older = "UPDATE files SET language = 'text' WHERE path = 'bin/tool'"
    report, reopened, root = reindexed_from_before(SCRIPTS, files, tmp_path, older)
    # Later migrations (NESTED_MEMBERS: every code file) may read more.
    assert {"bin/tool", "shop/basket.lua"} <= set(report.changed_paths)
    listed = CodeService(reopened, root).list_functions("bin/tool").symbols
    assert [(s.name, s.language) for s in listed] == [("deploy_release", "shell")]
