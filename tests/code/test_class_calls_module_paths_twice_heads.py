"""Lua's classes made by a call (`local Kettle = class{...}`, `Teapot = Class {...}`, `Mug =
setmetatable({}, { __index = Cup })`): classes, the functions of their table their methods; Rust's
`#[path = "unix.rs"] mod imp;`: the module is that file; a Fortran heading written twice under `#if` /
`#else` (one body, one `end`): one procedure, named by its first branch. On small files written for
these tests."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import CLASS_CALLS_MODULE_PATHS_TWICE_WRITTEN_HEADS
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


# Heating kernels per precision, written as a preprocessed template.
HEAT_F90 = """module heat_kernels
  implicit none
contains

#ifdef DOUBLE_PRECISION_HEAT
  subroutine warm_plate_double(t, n)
#else
  subroutine warm_plate_single(t, n)
#endif
    integer, intent(in) :: n
    real, intent(inout) :: t(n)
    t = t + 1.0
  end subroutine

  subroutine cool_plate(t, n)
    integer, intent(in) :: n
    real, intent(inout) :: t(n)
    t = t - 1.0
  end subroutine cool_plate

#if REALCASE == 1
  subroutine stir_real_&
#endif
#if COMPLEXCASE == 1
  subroutine stir_complex_&
#endif
  &PRECISION &
  (pot, n)
    integer, intent(in) :: n
    real, intent(inout) :: pot(n)
    pot = pot * 0.5
#if REALCASE == 1
  end subroutine stir_real_&
#endif
#if COMPLEXCASE == 1
  end subroutine stir_complex_&
#endif
  &PRECISION

#ifdef LOGGING
  subroutine log_heat(t)
    real :: t
    print *, t
  end subroutine log_heat
#else
  subroutine log_heat(t)
    real :: t
  end subroutine log_heat
#endif

  function plate_count() result(n)
    integer :: n
    n = 2
  end function plate_count
end module heat_kernels
"""


def test_a_heading_written_twice_under_a_conditional_is_one_procedure():
    found = symbol_rows("src/heat_kernels_template.F90", "fortran", HEAT_F90)
    assert found == {
        ("module", None, "heat_kernels", 1, 55),
        ("function", "heat_kernels", "warm_plate_double", 6, 13),  # `#ifdef` / `#else`
        ("function", "heat_kernels", "cool_plate", 15, 19),  # no longer inside warm_plate's
        ("function", "heat_kernels", "stir_real", 22, 33),  # `#endif` / `#if`, its name pasted
        ("function", "heat_kernels", "log_heat", 41, 44),  # whole procedures per branch: both, as before
        ("function", "heat_kernels", "log_heat", 46, 48),
        ("function", "heat_kernels", "plate_count", 51, 54),
    }


def test_an_index_made_before_reads_its_lua_rust_and_fortran_files_again(tmp_path):
    files = {
        "kitchen/appliances.lua": KITCHEN_LUA, **HEATING_FILES, "src/heat_kernels_template.F90": HEAT_F90,
        "tools/gen.py": "def gen():\n    pass\n",
    }  # fmt: skip
    report, reopened, root = reindexed_from_before(
        CLASS_CALLS_MODULE_PATHS_TWICE_WRITTEN_HEADS, files, tmp_path
    )
    assert {"kitchen/appliances.lua", "src/heating.rs", "src/heat_kernels_template.F90"} <= set(
        report.changed_paths
    )
    assert not {"tools/gen.py", "src/stove.rs"} & set(report.changed_paths)  # a Rust file declaring no module
    service = CodeService(reopened, root)
    listed = {(s.name, s.kind) for s in service.list_functions("kitchen/appliances.lua").symbols}
    assert ("Kettle", "class") in listed
