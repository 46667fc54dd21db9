"""Lua's classes made by a call (`local Kettle = class{...}`, `Teapot = Class {...}`, `Mug =
setmetatable({}, { __index = Cup })`): classes, the functions of their table their methods; and Rust's
`#[path = "unix.rs"] mod imp;`: the module is that file. On small files written for these tests."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import LUA_CLASS_CALLS_RUST_MODULE_PATHS
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

# A kitchen's appliances, written in the styles of three Lua class libraries.
KITCHEN_LUA = """local class = require "pl.class"
local Appliance = class()

-- A kettle that boils water.
local Kettle = class{
  __init = function(self, litres)
    self.litres = litres
  end,
  boil = function(self)
    return self.litres * 100
  end,
}

Teapot = kitchen.Class {
  __init = function(self) self.cups = 4 end,
  pour = function(self) return self.cups end
}

local Mug = setmetatable({}, { __index = Appliance })

function Mug:fill()
  return "full"
end

local Cup = setmetatable({
  sip = function(self) return true end,
}, { __index = Mug })

local labels = setmetatable({ hot = "Hot!" }, { __index = function() return "?" end })

local function make_tray()
  local Tray = class{ carry = function(self) end }
  local Plate = setmetatable({}, { __index = Appliance })
  return Tray, Plate
end

return { Kettle = Kettle }
"""


def test_a_class_made_by_a_call_is_a_class_with_its_tables_functions_as_methods():
    found = symbol_rows("kitchen/appliances.lua", "lua", KITCHEN_LUA)
    classes = {(name, start, end) for kind, _, name, start, end in found if kind == "class"}
    assert classes == {
        ("Appliance", 2, 2), ("Kettle", 5, 12), ("Teapot", 14, 17), ("Mug", 19, 19), ("Cup", 25, 27),
    }  # fmt: skip
    methods = {(parent, name, start) for kind, parent, name, start, _ in found if kind == "method"}
    assert methods == {
        ("Kettle", "__init", 6), ("Kettle", "boil", 9), ("Teapot", "__init", 15), ("Teapot", "pour", 16),
        ("Mug", "fill", 21), ("Cup", "sip", 26),
    }  # fmt: skip


def test_a_metatable_without_a_base_and_calls_inside_functions_make_no_class():
    found = symbol_rows("kitchen/appliances.lua", "lua", KITCHEN_LUA)
    assert ("module", None, "labels", 29, 29) in found  # `__index` a function: a data table, as before
    names = {name for _, _, name, _, _ in found}
    assert not names & {"Tray", "Plate", "carry", "class"}


@pytest.fixture(scope="module")
def kitchen(tmp_path_factory) -> CodeService:
    return indexed_service({"kitchen/appliances.lua": KITCHEN_LUA}, tmp_path_factory.mktemp("kitchen"))


def test_find_definition_and_list_functions_know_a_class_made_by_a_call(kitchen):
    found = kitchen.explain_code("Kettle").definition
    assert found is not None and (found.filePath, found.startLine, found.kind) == (
        "kitchen/appliances.lua", 5, "class",
    )  # fmt: skip
    boil = kitchen.explain_code("Kettle.boil").definition
    assert boil is not None and (boil.startLine, boil.endLine) == (9, 11)
    listed = {(s.name, s.kind) for s in kitchen.list_functions("kitchen/appliances.lua").symbols}
    assert {("Teapot", "class"), ("pour", "method"), ("Cup", "class"), ("sip", "method")} <= listed


# A kettle crate whose heating is chosen per platform by `#[path]`.
HEATING_RS = """#[cfg(unix)]
#[path = "heating/electric.rs"]
mod imp;

#[cfg(windows)]
// The stove of the other platform.
#[path = "stove.rs"]
mod imp;

mod timer;

#[cfg(test)]
#[path = "heating_checks.rs"]
mod checks;

pub fn heat() -> u32 {
    imp::heat()
}
"""

HEATING_FILES = {
    "src/heating.rs": HEATING_RS,
    "src/heating/electric.rs": "pub fn heat() -> u32 {\n    2000\n}\n",
    "src/stove.rs": "pub fn heat() -> u32 {\n    1500\n}\n",
    "src/heating/timer.rs": "pub fn minutes() -> u32 {\n    3\n}\n",
    "src/heating_checks.rs": "fn hot_enough() -> bool {\n    super::heat() > 1000\n}\n",
}


def test_a_module_with_a_path_attribute_leads_to_that_file(tmp_path):
    service = indexed_service(HEATING_FILES, tmp_path)
    imports = service.get_dependencies("src/heating.rs").imports
    assert [(i.module, i.resolved) for i in imports] == [
        ("heating/electric.rs", ["src/heating/electric.rs"]),
        ("stove.rs", ["src/stove.rs"]),
        ("self::timer", ["src/heating/timer.rs"]),  # no attribute: the folder named after the file
        ("heating_checks.rs", ["src/heating_checks.rs"]),
    ]
    assert service.get_dependencies("src/stove.rs").importedBy == ["src/heating.rs"]


def test_a_test_module_with_a_path_attribute_is_that_file():
    assert parse_file("src/heating.rs", "rust", "root", HEATING_RS).test_modules == ["src/heating_checks.rs"]


def test_an_index_made_before_reads_its_lua_and_rust_files_again(tmp_path):
    files = {"kitchen/appliances.lua": KITCHEN_LUA, **HEATING_FILES, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, root = reindexed_from_before(LUA_CLASS_CALLS_RUST_MODULE_PATHS, files, tmp_path)
    assert {"kitchen/appliances.lua", "src/heating.rs"} <= set(report.changed_paths)
    assert "tools/gen.py" not in report.changed_paths
    service = CodeService(reopened, root)
    assert ("Kettle", "class") in {(s.name, s.kind) for s in service.list_functions("kitchen/appliances.lua").symbols}
