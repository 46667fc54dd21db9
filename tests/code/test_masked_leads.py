"""What lxml's and aiohttp's Cython showed, on snippets of our own: a C declaration masked to `_= name`
(Cython's `cdef int counter`) gave a reference named after the first letter of its line (`c` of
`cdef`, `i` of `int`), and Groovy's `final` masked to `def` one named `fin`: the mask's lead text was
read back from the source. And a `cppclass`'s operators (`bint operator==(Grinder)`) were no symbols."""

from __future__ import annotations

import re

from pramana.code.index.tables import MASKED_LEADS_OPERATORS
from pramana.code.parse import parse_file
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

MILL_PYX = """cdef int counter = 0
cdef extern from "grind.h":
    ctypedef unsigned long grain_t
    int grind_beans(int amount) nogil
    enum roast:
        LIGHT

cdef class Mill:
    cdef public int turns
    cdef double weight

    cpdef int turn(self, int times):
        cdef int done = counter
        for i from 0 <= i < times:
            done += grind_beans(i)
        return done
"""

MILL_PXD = """cdef extern from "grinder.hpp" namespace "mill":
    cdef cppclass Grinder[T]:
        Grinder()
        void grind(int amount) nogil
        bint operator==(Grinder)
        bint operator!=(Grinder&)
        Grinder operator+(Grinder) except +
        void operator()(int) nogil
        T& operator[](size_t)
"""

KETTLE_GROOVY = """package brewing

class Kettle {
    protected final heat = 'low'

    def boil(int minutes) {
        return minutes * heat.size()
    }
}
"""


def _strays(path: str, language: str, source: str) -> list[tuple[str, int]]:
    """The references whose name is no whole word of their line as written."""
    lines = source.split("\n")
    rows = parse_file(path, language, "root", source).reference_rows
    return [(row[0], row[1]) for row in rows if row[0] not in re.findall(r"\w+", lines[row[1] - 1])]


def test_a_masks_lead_text_is_no_reference():
    assert _strays("mill/mill.pyx", "cython", MILL_PYX) == []
    assert _strays("Kettle.groovy", "groovy", KETTLE_GROOVY) == []
    rows = parse_file("mill/mill.pyx", "cython", "root", MILL_PYX).reference_rows
    names = {(row[0], row[1]) for row in rows}
    # What the declarations name, and use, still is.
    assert {("counter", 1), ("turns", 9), ("weight", 10), ("counter", 13), ("grind_beans", 15)} <= names
    assert not {("c", 1), ("c", 9), ("c", 10), ("c", 13)} & names
    kettle_rows = parse_file("Kettle.groovy", "groovy", "root", KETTLE_GROOVY).reference_rows
    kettle = {(row[0], row[1]) for row in kettle_rows}
    assert ("heat", 4) in kettle and ("fin", 4) not in kettle


def test_find_usages_shows_no_usage_made_by_a_mask(tmp_path):
    service = indexed_service({"mill/mill.pyx": MILL_PYX}, tmp_path)
    assert service.find_usages("c", limit=10).usages == []
    used = {(u.filePath, u.line) for u in service.find_usages("counter", limit=10).usages}
    assert ("mill/mill.pyx", 13) in used


def test_a_cppclass_operators_are_declared_methods():
    rows = symbol_rows("mill/mill.pxd", "cython", MILL_PXD)
    assert {
        ("method", "Grinder", "operator==", 5, 5),
        ("method", "Grinder", "operator!=", 6, 6),
        ("method", "Grinder", "operator+", 7, 7),
        ("method", "Grinder", "operator()", 8, 8),
        ("method", "Grinder", "grind", 4, 4),
    } <= rows
    # A type too short to leave room for the mask (`T& `): left unread, as before.
    assert not [row for row in rows if row[2] == "operator[]"]


def test_an_index_made_before_reads_cython_and_groovy_again(tmp_path):
    files = {"mill/mill.pyx": MILL_PYX, "Kettle.groovy": KETTLE_GROOVY, "mill/__init__.py": "x = 1\n"}
    report, _, _ = reindexed_from_before(MASKED_LEADS_OPERATORS, files, tmp_path)
    again = set(report.changed_paths)
    assert {"mill/mill.pyx", "Kettle.groovy"} <= again
    assert "mill/__init__.py" not in again
