"""Issue 28's structure leftovers after Cython's C declarations, on snippets written for these tests:
Cython's function pointers declared (`cdef object (*pick)(object)` was a method named `object (*pick)`),
prototypes taking one across lines, `cdef (int, int) f(...)`, C variables named in a string and a
`cppclass`'s constructors (no symbols); F#'s auto-properties (`member val X = 0 with get, set`, no
symbol); a Fortran submodule's parent (none)."""

from __future__ import annotations

from pramana.code.index.tables import POINTERS_VALS_AND_SUBMODULES
from pramana.code.parse import parse_file
from pramana.code.parse.syntax import SyntaxReader
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

MILL_PXD = """cdef extern from "mill.h":
    long MILL_VERSION "__mill_version"
    ctypedef int (*grind_cb)(int n) except -1
    cppclass Grinder:
        Grinder()
        Grinder(int speed, bint cold) except +
        int turn(int n)

cdef class Hopper:
    cdef object (*_pick)(object, Hopper, int*)
    cdef int* (*_next)(int*)

cdef void set_pick(
        object (*pick)(object, Hopper, int*), object state)

cdef (double, int) weigh(int n) nogil

cdef struct tray:
    int slots[]
"""

MILL_PYX = """cdef (int, int) split_load(int total,
                           int parts):
    return (total // parts, total % parts)


cdef class Sieve:
    def __init__(self, grain, sizes=("fine",), *, wet=False,
                 dry=True):
        self.grain = grain
        Sieve.count = sum(n for n in sizes)

    def shake(self):
        return self.grain


Sieve(3)


cdef int weigh_all(char* name, int n, int scale=1):
    cdef total = 0
    cdef size_t width = sizeof(unsigned long) + sizeof(Sieve*)
    fill(<char*>&total, n)
    label = name or "plain"
    return total if label else "none"
"""


def _errors(path: str, language: str, source: str) -> int:
    """ERROR and missing nodes where the grammar read the file (after its masks)."""
    found = 0
    for root in SyntaxReader(path, language, "root", source)._parse():
        stack = [root]
        while stack:
            node = stack.pop()
            found += node.type == "ERROR" or node.is_missing
            stack.extend(node.children)
    return found


def test_cython_pointers_tuples_c_names_and_constructors_read_without_errors():
    assert symbol_rows("mill/mill.pxd", "cython", MILL_PXD) == {
        ("type", None, "grind_cb", 3, 3),
        ("class", None, "Grinder", 4, 7),
        ("method", "Grinder", "Grinder", 5, 5),  # the constructors, declared
        ("method", "Grinder", "Grinder", 6, 6),
        ("method", "Grinder", "turn", 7, 7),
        ("class", None, "Hopper", 9, 11),  # its function pointers are fields: no symbols
        ("function", None, "set_pick", 13, 14),
        ("function", None, "weigh", 16, 16),
        ("class", None, "tray", 18, 19),
    }
    assert _errors("mill/mill.pxd", "cython", MILL_PXD) == 0


def test_cython_code_with_tuples_and_nested_parentheses_keeps_its_structure():
    assert symbol_rows("mill/mill.pyx", "cython", MILL_PYX) == {
        ("function", None, "split_load", 1, 3),
        ("class", None, "Sieve", 6, 13),
        ("method", "Sieve", "__init__", 7, 10),  # a default holding parentheses, over two lines
        ("method", "Sieve", "shake", 12, 13),
        ("function", None, "weigh_all", 19, 24),
    }  # `Sieve(3)` outside the class and `sum(n for n in sizes)` stay calls
    # A default after a `,` in a `cdef` function's parameters, `cdef total = 0` (no C type), `sizeof` of
    # C types, a cast before `&x`, a string after `or` or `else` (not a C name given in a string): read.
    assert _errors("mill/mill.pyx", "cython", MILL_PYX) == 0


BARREL_FS = """module Orchard.Cellar

type Barrel(capacity: int) =
    /// How full it is.
    member val Litres = 0 with get, set
    member val Label = "cider" with get
    member val private Seal = true
    member this.Capacity = capacity
    member this.Fill n = this.Litres <- this.Litres + n
"""


def test_fsharp_auto_properties_are_members():
    assert symbol_rows("src/Cellar.fs", "fsharp", BARREL_FS) == {
        ("module", "Orchard", "Cellar", 1, 9),
        ("class", "Orchard.Cellar", "Barrel", 3, 9),
        ("method", "Barrel", "Litres", 5, 5),
        ("method", "Barrel", "Label", 6, 6),
        ("method", "Barrel", "Seal", 7, 7),
        ("method", "Barrel", "Capacity", 8, 8),
        ("method", "Barrel", "Fill", 9, 9),
    }
    symbols = {s.name: s for s in parse_file("src/Cellar.fs", "fsharp", "root", BARREL_FS).symbols}
    assert symbols["Litres"].doc == "How full it is."
    assert symbols["Litres"].exported and not symbols["Seal"].exported  # `member val private`


ORCHARD_F90 = """module orchard
  implicit none
  interface
    module subroutine press(n)
      integer, intent(in) :: n
    end subroutine press
  end interface
end module orchard

submodule (orchard) orchard_press
  implicit none
contains
  module procedure press
    print *, n
  end procedure press
end submodule orchard_press

submodule (orchard:orchard_press) orchard_chill
contains
  subroutine chill()
  end subroutine chill
end submodule orchard_chill
"""


def test_a_fortran_submodule_is_its_parents():
    assert symbol_rows("src/orchard.f90", "fortran", ORCHARD_F90) == {
        ("module", None, "orchard", 1, 8),
        ("function", "orchard", "press", 4, 6),
        ("module", "orchard", "orchard_press", 10, 16),
        ("function", "orchard_press", "press", 13, 15),
        ("module", "orchard_press", "orchard_chill", 18, 22),  # the submodule it extends
        ("function", "orchard_chill", "chill", 20, 21),
    }


def test_the_symbol_tools_find_them(tmp_path):
    files = {"mill/mill.pxd": MILL_PXD, "src/Cellar.fs": BARREL_FS, "src/orchard.f90": ORCHARD_F90}
    service = indexed_service(files, tmp_path)
    listed = {(s.name, s.kind, s.parent) for s in service.list_functions("mill/mill.pxd").symbols}
    assert ("Grinder", "method", "Grinder") in listed
    assert not any("(" in name for name, _, _ in listed)
    found = service.find_usages("Litres", limit=5).definitions
    assert [(d.filePath, d.startLine, d.kind) for d in found] == [("src/Cellar.fs", 5, "method")]
    explained = service.explain_code("orchard_chill")
    assert explained.definition is not None
    assert (explained.definition.filePath, explained.definition.startLine) == ("src/orchard.f90", 18)


def test_an_index_made_before_reads_these_files_again(tmp_path):
    files = {
        "mill/mill.pxd": MILL_PXD,
        "src/Cellar.fs": BARREL_FS,
        "src/orchard.f90": ORCHARD_F90,
        "src/keep.py": "def keep():\n    return 1\n",
    }
    report, _, _ = reindexed_from_before(POINTERS_VALS_AND_SUBMODULES, files, tmp_path)
    again = set(report.changed_paths)
    assert again >= set(files) - {"src/keep.py"}
    assert "src/keep.py" not in again
