"""What issue 28's twenty-sixth held-out set (AsteroidPipeline's Julia, GMetrics's Groovy, netCDF-Fortran)
showed, on snippets of our own: a Groovy class with an untyped field (`private static final SEP = '/'`)
had no symbol, nor one whose one-line closure field the grammar misreads; a package folder named
`coverage` in a Maven source tree was skipped as a coverage report; fixed-form Fortran (`C` comment
lines) and `#ifdef`'d procedures had no symbol; Fortran's `include "a.f90"` and Julia's
`include("a.jl")` led nowhere."""

from __future__ import annotations

import tree_sitter as ts

from pramana.code.index.tables import GROOVY_FORTRAN_JULIA_INCLUDES
from pramana.code.index.walk import is_skipped_dir
from pramana.code.parse import parse_file
from pramana.code.parse.syntax import _holds_error_node, grammar
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

# An untyped constant with a one-character string: the grammar lost the whole class to it.
OVEN = """package org.bakery.util

class Oven {
    private static final SEP = '/'

    static String trayName(String path) {
        return path.tokenize(SEP).last()
    }

    static int heat(int degrees) {
        return degrees * 2
    }
}
"""

# A closure in a field the grammar cannot read (`def x = { return ... }`): healed line by line.
PROOFER = """package org.bakery

class Proofer {
    def makeTimer = { return new Timer() }

    void rise(String dough) {
        println dough
    }

    int minutes() {
        return 45
    }
}
"""


def test_groovy_untyped_constant_keeps_its_class():
    rows = symbol_rows("src/main/groovy/org/bakery/util/Oven.groovy", "groovy", OVEN)
    assert ("class", None, "Oven", 3, 13) in rows
    assert {("method", "Oven", "trayName"), ("method", "Oven", "heat")} <= {r[:3] for r in rows}


def test_groovy_mask_keeps_typed_fields_comparisons_and_closures_as_they_are():
    # A typed field, `==` and a closure after the name are not an untyped declaration: not masked,
    # and the symbols are the same as for the text with the typed constant.
    typed = OVEN.replace("private static final SEP", "private static final String SEP")
    assert symbol_rows("Oven.groovy", "groovy", typed) == symbol_rows("Oven.groovy", "groovy", OVEN)
    parsed = parse_file("Oven.groovy", "groovy", "root", OVEN)
    assert all("def" not in chunk.content for chunk in parsed.chunks)  # the masked text is not shown


def test_groovy_misread_closure_field_is_healed():
    names = {r[:3] for r in symbol_rows("src/main/groovy/org/bakery/Proofer.groovy", "groovy", PROOFER)}
    assert {
        ("class", None, "Proofer"),
        ("method", "Proofer", "rise"),
        ("method", "Proofer", "minutes"),
    } <= names


def test_groovy_heals_only_a_tree_holding_an_error_node():
    # One-line methods leave missing `;` tokens only: the tree is read whole, not healed.
    oven = OVEN.replace("{\n        return degrees * 2\n    }", "{ return degrees * 2 }")
    oven = oven.replace("private static final SEP", "private static final String SEP")
    parser = ts.Parser(grammar("groovy"))
    missing_only = parser.parse(oven.encode()).root_node
    assert missing_only.has_error and not _holds_error_node(missing_only)
    assert _holds_error_node(parser.parse(PROOFER.encode()).root_node)
    names = {r[:3] for r in symbol_rows("Oven.groovy", "groovy", oven)}
    assert {("class", None, "Oven"), ("method", "Oven", "trayName"), ("method", "Oven", "heat")} <= names


def test_a_maven_package_named_like_build_output_is_walked(tmp_path):
    assert not is_skipped_dir("src/main/groovy/org/bakery/coverage")
    assert not is_skipped_dir("app/src/test/java/com/bakery/build")
    assert is_skipped_dir("coverage") and is_skipped_dir("web/coverage") and is_skipped_dir("src/build")
    files = {
        "src/main/groovy/bakery/coverage/CrustRatio.groovy": "class CrustRatio {\n  int crust() { 1 }\n}\n",
        "coverage/lcov-report/index.js": "function crustReport() { return 1 }\n",
    }
    service = indexed_service(files, tmp_path)
    found = {d.filePath for d in service.find_usages("CrustRatio").definitions}
    assert found == {"src/main/groovy/bakery/coverage/CrustRatio.groovy"}
    assert service.find_usages("crustReport").definitions == []


KNEAD_F77 = """C     Knead the bakery's dough, fixed form.
C
      program bakery
      implicit none
      integer loaves
      call knead(loaves)
      end

C     Fold the dough over itself.
      subroutine knead(n)
      integer n
      n = n + 1
      end
*     A star comment as well.
      integer function rest(m)
      integer m
      rest = m
      end
"""


def test_fixed_form_fortran_comments_are_comments():
    rows = symbol_rows("examples/bakery.f", "fortran", KNEAD_F77)
    assert {("module", "bakery"), ("function", "knead"), ("function", "rest")} <= {(r[0], r[2]) for r in rows}
    docs = {s.name: s.doc for s in parse_file("examples/bakery.f", "fortran", "root", KNEAD_F77).symbols}
    assert docs["knead"] == "Fold the dough over itself."


def test_free_form_code_in_column_one_is_not_taken_for_a_comment():
    source = "program oven\nc = 1\ncall knead(c)\nc(1) = 2\nend program oven\n"
    parsed = parse_file("oven.f90", "fortran", "root", source)
    assert {(r.name, r.kind) for r in parsed.references} >= {("knead", "call")}
    assert [s.name for s in parsed.symbols] == ["oven"]


LOGGING_F90 = """#ifdef LOGGING
! Set how much the oven logs.
function oven_log_level(level) result(status)
  integer, intent(in) :: level
  integer :: status
  status = level
end function oven_log_level
#else
subroutine oven_quiet()
end subroutine oven_quiet
#endif
"""


def test_fortran_procedures_under_ifdef_are_symbols():
    rows = {(r[0], r[2]) for r in symbol_rows("src/oven_logging.F90", "fortran", LOGGING_F90)}
    assert rows == {("function", "oven_log_level"), ("function", "oven_quiet")}


BAKERY_F90 = """module bakery
  use ovens
  implicit none
  include "bakery_constants.f90"
contains
  include "bakery_bread.f90"
end module bakery
"""


def test_fortran_and_julia_includes_lead_to_the_files_they_name(tmp_path):
    files = {
        "src/bakery.f90": BAKERY_F90,
        "src/bakery_constants.f90": "integer, parameter :: loaves = 12\n",
        "src/bakery_bread.f90": "function bread() result(n)\n  integer :: n\n  n = 1\nend function bread\n",
        "julia/Bakery/src/Bakery.jl": (
            'module Bakery\nusing Dates\ninclude("dough.jl")\ninclude("ovens/heat.jl")\nend\n'
        ),
        "julia/Bakery/src/dough.jl": "knead(x) = x + 1\n",
        "julia/Bakery/src/ovens/heat.jl": "function heat(t)\n    t * 2\nend\n",
    }
    service = indexed_service(files, tmp_path)
    fortran = {i.module: i.resolved for i in service.get_dependencies("src/bakery.f90").imports}
    assert fortran == {
        "ovens": [],
        "bakery_constants.f90": ["src/bakery_constants.f90"],
        "bakery_bread.f90": ["src/bakery_bread.f90"],
    }
    julia = {i.module: i.resolved for i in service.get_dependencies("julia/Bakery/src/Bakery.jl").imports}
    assert julia == {
        "Dates": [],
        "dough.jl": ["julia/Bakery/src/dough.jl"],
        "ovens/heat.jl": ["julia/Bakery/src/ovens/heat.jl"],
    }
    dough = service.get_dependencies("julia/Bakery/src/dough.jl")
    assert dough.importedBy == ["julia/Bakery/src/Bakery.jl"]


def test_groovy_fortran_and_julia_files_are_read_again(tmp_path):
    files = {"src/Oven.groovy": OVEN, "src/bakery.f": KNEAD_F77, "src/Bakery.jl": 'include("dough.jl")\n'}
    files |= {"src/dough.jl": "knead(x) = x\n", "src/cart.py": "def cart():\n    return 1\n"}
    report, reopened, _ = reindexed_from_before(GROOVY_FORTRAN_JULIA_INCLUDES, files, tmp_path)
    assert set(report.changed_paths) == set(files) - {"src/cart.py"}
    reopened.close()
