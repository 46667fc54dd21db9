"""Lua's data tables: a table bound to a name outside every function (`local texts = setmetatable({...},
mt)`, `config = {...}`) is a module, as a table with functions defined on it is, even when the file
defines none on it; numbers, strings, other calls and tables inside functions stay no definition. On
small files written for these tests."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import LUA_DATA_TABLES
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

# Greetings of a chat bot by language, with a fallback for the rest.
GREETINGS_LUA = """-- Greetings by language code.
local greeting_texts = setmetatable({
  en = "Hello",
  fr = "Bonjour",
  de = "Hallo",
}, {__index = function() return "Hi" end})

return greeting_texts
"""

# A bot's settings and helpers: globals, locals, a table inside a function.
BOT_LUA = """local json = require "json"
local retries = 3
local name = "chatbot"
local session = open_session()
local limits = { per_minute = 20 }

bot_settings = {
  channel = "general",
  quiet = false,
}

local handlers = {}
handlers.fallback = { reply = "?" }

local function greet(user)
  local reply = { to = user, text = "Hello" }
  local seen = setmetatable({}, {__mode = "k"})
  return reply, seen
end

return { greet = greet }
"""


def test_a_lua_table_outside_every_function_is_a_module():
    found = symbol_rows("bot/greetings.lua", "lua", GREETINGS_LUA)
    assert ("module", None, "greeting_texts", 2, 6) in found  # a call wrapping a table constructor
    found = symbol_rows("bot/bot.lua", "lua", BOT_LUA)
    modules = {(name, start, end) for kind, _, name, start, end in found if kind == "module"}
    assert modules == {("limits", 5, 5), ("bot_settings", 7, 10), ("handlers", 12, 12)}
    assert ("function", None, "greet", 15, 19) in found


def test_numbers_strings_calls_and_tables_inside_functions_define_nothing():
    names = {name for _, _, name, _, _ in symbol_rows("bot/bot.lua", "lua", BOT_LUA)}
    assert not names & {"json", "retries", "name", "session", "reply", "seen", "fallback"}


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> CodeService:
    files = {"bot/greetings.lua": GREETINGS_LUA, "bot/bot.lua": BOT_LUA}
    return indexed_service(files, tmp_path_factory.mktemp("tables"))


def test_find_definition_and_list_functions_know_a_data_table(service):
    found = service.explain_code("greeting_texts").definition
    assert found is not None and (found.filePath, found.startLine) == ("bot/greetings.lua", 2)
    assert [s.name for s in service.list_functions("bot/greetings.lua").symbols] == ["greeting_texts"]
    listed = {s.name for s in service.list_functions("bot/bot.lua").symbols}
    assert {"bot_settings", "limits", "greet"} <= listed and "reply" not in listed
    top = service.search_code("greeting_texts", limit=3).chunks[0]
    assert (top.metadata.filePath, top.metadata.startLine) == ("bot/greetings.lua", 1)


def test_an_index_made_before_reads_its_lua_files_again(tmp_path):
    files = {"bot/greetings.lua": GREETINGS_LUA, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, root = reindexed_from_before(LUA_DATA_TABLES, files, tmp_path)
    assert "bot/greetings.lua" in report.changed_paths  # later migrations may read more
    listed = CodeService(reopened, root).list_functions("bot/greetings.lua").symbols
    assert [s.name for s in listed] == ["greeting_texts"]
