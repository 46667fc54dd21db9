"""Issue 28's structure leftovers, on snippets written for these tests: what Cython's C declarations
(`cdef extern from "x.h":` blocks, prototypes, `ctypedef`s) declare are symbols (none were: a `.pxd`
of a C library's API gave its classes only); a doc comment above an attribute or annotation documents
the definition under them (F#'s `///` above `[<Obsolete>]` did not, nor Groovy's Javadoc after a field
holding a closure); and shapes of F#, Groovy, Julia and Fortran a user writes every day: `let rec ...
and ...`, interface implementations and type extensions; traits and closure fields; `where` short
forms, definitions given to a macro and docstrings opening with a signature; abstract interfaces."""

from __future__ import annotations

from pramana.code.index.tables import EXTERNS_TRAITS_AND_DOCS
from pramana.code.parse.syntax import SyntaxReader
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

PRESS_PXD = """from libc.stdint cimport int64_t

cdef extern from "press.h" nogil:
    ctypedef struct press_t:
        int64_t pressure
    ctypedef enum press_mode:
        PRESS_COLD
        PRESS_WARM
    ctypedef unsigned long press_size
    ctypedef int (*press_cb)(press_t* p, void* data) except -1
    struct press_stats:
        int runs
    enum press_error:
        PRESS_OK,
        PRESS_JAMMED
    press_t* press_open(const char* name, press_size size)
    int press_run(press_t* p, press_cb cb) except -1
    void press_close(press_t *p)
    cdef long press_weigh "press_weight"(press_t* p)
    cppclass Juicer:
        int squeeze(int n) except +

cdef enum:
    MAX_PRESSES = 4

cdef enum Ripeness:
    RAW
    RIPE

ctypedef double litres_t

cdef class Press:
    cdef press_t* _handle
    cpdef long run(self, int times=*)
    cdef int _jam(self) except -1

cdef int open_press(const char* name) except -1
"""


def test_what_a_cython_declaration_file_declares_is_a_symbol():
    assert symbol_rows("cider/press.pxd", "cython", PRESS_PXD) == {
        ("class", None, "press_t", 4, 5),
        ("type", None, "press_mode", 6, 8),
        ("type", None, "press_size", 9, 9),
        ("type", None, "press_cb", 10, 10),
        ("class", None, "press_stats", 11, 12),
        ("type", None, "press_error", 13, 15),
        ("function", None, "press_open", 16, 16),
        ("function", None, "press_run", 17, 17),
        ("function", None, "press_close", 18, 18),
        ("function", None, "press_weigh", 19, 19),
        ("class", None, "Juicer", 20, 21),
        ("method", "Juicer", "squeeze", 21, 21),
        ("type", None, "Ripeness", 26, 28),
        ("type", None, "litres_t", 30, 30),
        ("class", None, "Press", 32, 35),
        ("method", "Press", "run", 34, 34),
        ("method", "Press", "_jam", 35, 35),
        ("function", None, "open_press", 37, 37),
    }


PRESS_PYX = """cimport cider.press as press

cdef extern from "Python.h":
    object PyBytes_FromStringAndSize(char* s, Py_ssize_t n)


cdef class Press:
    \"\"\"A cider press.\"\"\"

    cpdef long run(self, int times=1):
        \"\"\"Presses the apples `times` times.\"\"\"
        cdef long total = 0
        for i in range(times):
            total += press_apples(self, i)
        return total

    cdef int _jam(self) except -1:
        return 0


cdef int open_press(const char* name) except -1:
    return 0


def press_apples(Press p, int i):
    \"\"\"One pressing.\"\"\"
    return i
"""

# A docstring line that reads like a C declaration stays a docstring's line (masks only change how the
# grammar reads; the text is the file's).
DOCUMENTED_PYX = '''def squeeze(apples):
    """Squeeze the apples.

    Returns the juice(of the apples)
    int count(apples) nogil
    """
    return apples
'''


def test_cython_code_around_declarations_is_read_as_before():
    assert symbol_rows("cider/press.pyx", "cython", PRESS_PYX) == {
        ("function", None, "PyBytes_FromStringAndSize", 4, 4),
        ("class", None, "Press", 7, 18),
        ("method", "Press", "run", 10, 15),
        ("method", "Press", "_jam", 17, 18),
        ("function", None, "open_press", 21, 22),
        ("function", None, "press_apples", 25, 27),
    }
    assert symbol_rows("cider/squeeze.pyx", "cython", DOCUMENTED_PYX) == {("function", None, "squeeze", 1, 7)}


# A typedef giving its C name in a string or ending in `;`, and a class announced before its definition.
ANNOUNCED_PXD = """cdef extern from "vat.h":
    ctypedef const char const_label "const char"
    ctypedef int vat_id_t;

cdef class _Vat

cdef class Vat:
    cdef vat_id_t _id
"""


# A prototype under `@cython.locals(...)`, and a cast whose line goes on after a backslash.
LOCALS_PXD = """import cython

@cython.locals(litres=cython.double)
cdef double pour(object vat, double litres)

@cython.locals(
    count=int,
)
cpdef int fill(object vat)
"""

CAST_PYX = """cdef class Tap:
    cdef vat_t* _vat

    def __init__(self):
        self._vat = <vat_t*> \\
            malloc(sizeof(vat_t))

    def open(self):
        return 1
"""


def test_prototypes_under_decorators_and_casts_before_a_continued_line():
    for path, source in (("cider/vat.pxd", LOCALS_PXD), ("cider/tap.pyx", CAST_PYX)):
        assert not any(root.has_error for root in SyntaxReader(path, "cython", "cider", source)._parse())
    assert symbol_rows("cider/vat.pxd", "cython", LOCALS_PXD) == {
        ("function", None, "pour", 4, 4),
        ("function", None, "fill", 9, 9),
    }
    assert symbol_rows("cider/tap.pyx", "cython", CAST_PYX) == {
        ("class", None, "Tap", 1, 9),
        ("method", "Tap", "__init__", 4, 6),
        ("method", "Tap", "open", 8, 9),
    }


def test_typedefs_with_c_names_and_announced_classes():
    assert symbol_rows("cider/vat.pxd", "cython", ANNOUNCED_PXD) == {
        ("type", None, "const_label", 2, 2),
        ("type", None, "vat_id_t", 3, 3),
        ("class", None, "Vat", 7, 8),
    }


CIDER = {
    "cider/__init__.py": '"""Cider making."""\n',
    "cider/press.pxd": PRESS_PXD,
    "cider/press.pyx": PRESS_PYX,
}


def test_the_symbol_tools_find_cython_declarations(tmp_path):
    service = indexed_service(CIDER, tmp_path)
    declared = service.find_usages("press_run", limit=5).definitions
    assert [(d.filePath, d.startLine, d.kind) for d in declared] == [("cider/press.pxd", 17, "function")]
    listed = {(s.name, s.kind, s.parent) for s in service.list_functions("cider/press.pxd").symbols}
    assert {
        ("press_open", "function", None),
        ("squeeze", "method", "Juicer"),
        ("run", "method", "Press"),
    } <= listed
    # A function declared in the .pxd and defined in the .pyx: the body first (a header's rule).
    defined = service.find_usages("open_press", limit=5).definitions
    assert [(d.filePath, d.startLine) for d in defined] == [("cider/press.pyx", 21), ("cider/press.pxd", 37)]
    explained = service.explain_code("press_mode")
    assert explained.definition is not None
    assert (explained.definition.filePath, explained.definition.kind) == ("cider/press.pxd", "type")


STORE_FS = """module Cellar.Store

/// A barrel of cider.
[<Struct>]
type Barrel = { Litres: float }

/// Old way to fill.
[<System.Obsolete("use fill")>]
[<CompiledName("FillOld")>]
let fillOld (b: Barrel) = b

/// Is the count even.
let rec isEven n = if n = 0 then true else isOdd (n - 1)
/// Is the count odd.
and isOdd n = if n = 0 then false else isEven (n - 1)

/// A store of barrels.
type IStore =
    abstract Load: int -> Barrel

/// A store in memory.
type MemoryStore() =
    let mutable barrels = Map.empty
    interface IStore with
        member this.Load id = Map.find id barrels
    /// Empties the store.
    [<Obsolete>]
    member this.Clear() = barrels <- Map.empty

type Barrel with
    /// Is it empty.
    member this.IsEmpty = this.Litres = 0.0

exception CellarFlooded of string
"""


def test_fsharp_docs_above_attributes_and_the_shapes_of_a_module():
    assert symbol_rows("cellar/Store.fs", "fsharp", STORE_FS) == {
        ("module", "Cellar", "Store", 1, 34),
        ("class", "Cellar.Store", "Barrel", 5, 5),
        ("function", "Cellar.Store", "fillOld", 10, 10),
        ("function", "Cellar.Store", "isEven", 13, 13),
        ("function", "Cellar.Store", "isOdd", 15, 15),
        ("interface", "Cellar.Store", "IStore", 18, 19),  # every member abstract
        ("method", "IStore", "Load", 19, 19),
        ("class", "Cellar.Store", "MemoryStore", 22, 28),
        ("method", "MemoryStore", "Load", 25, 25),
        ("method", "MemoryStore", "Clear", 28, 28),
        ("method", "Barrel", "IsEmpty", 32, 32),
        ("class", "Cellar.Store", "CellarFlooded", 34, 34),
    }


def _docs(path: str, language: str, source: str, tmp_path) -> dict[str, str]:
    service = indexed_service({path: source}, tmp_path)
    return {s.name: s.doc for s in service.list_functions(path).symbols}


def test_a_doc_above_attributes_documents_the_definition_under_them(tmp_path):
    docs = _docs("cellar/Store.fs", "fsharp", STORE_FS, tmp_path / "fs")
    assert docs["Barrel"] == "A barrel of cider."
    assert docs["fillOld"] == "Old way to fill."
    assert (docs["isEven"], docs["isOdd"]) == ("Is the count even.", "Is the count odd.")
    assert docs["Clear"] == "Empties the store."
    assert docs["IsEmpty"] == "Is it empty."
    docs = _docs("src/Cellar.groovy", "groovy", CELLAR_GROOVY, tmp_path / "groovy")
    assert docs["Cellar"] == "A cellar of barrels."
    assert docs["fill"] == "Fills a barrel."
    assert docs["tap"] == "Taps a barrel."
    assert docs["Aged"] == "Ageing behaviour."
    docs = _docs("src/Cellar.jl", "julia", CELLAR_JL, tmp_path / "julia")
    assert docs["fill"] == "Fill a barrel."
    assert docs["tap"] == "Tap a barrel, short form."
    assert docs["litres"] == "Litres of any barrel."
    assert docs["quick"] == "Quick fill."
    docs = _docs("src/cellar.f90", "fortran", CELLAR_F90, tmp_path / "fortran")
    assert docs["fill"] == "Fill a barrel."
    assert docs["barrel"] == "A barrel."


CELLAR_GROOVY = """package cellar

/**
 * A cellar of barrels.
 */
@groovy.transform.CompileStatic
class Cellar {
    /** Taps a barrel. */
    Closure tap = { barrel -> barrel.open() }

    /**
     * Fills a barrel.
     */
    @Deprecated
    @SuppressWarnings("unused")
    void fill(int litres) {
        println litres
    }
}

/** Ageing behaviour. */
trait Aged {
    int years() { 3 }
}

/** A script's own method. */
def bottle(String name) {
    new Cellar()
}

bottle("dry")
"""


def test_groovy_traits_closure_fields_and_a_scripts_methods():
    assert symbol_rows("src/Cellar.groovy", "groovy", CELLAR_GROOVY) == {
        ("class", None, "Cellar", 6, 19),
        ("method", "Cellar", "tap", 9, 9),
        ("method", "Cellar", "fill", 14, 18),
        ("interface", None, "Aged", 22, 24),
        ("method", "Aged", "years", 23, 23),
        ("function", None, "bottle", 27, 29),
    }


CELLAR_JL = '''module Cellar

"""
    Barrel(litres)

A barrel of cider.
"""
mutable struct Barrel
    litres::Float64
end

"Anything that holds cider."
abstract type Vessel end

"""
    fill(b, x)

Fill a barrel.
"""
function fill(b::Barrel, x)
    b.litres += x
end

"Tap a barrel, short form."
tap(b::Barrel) = b.litres

"Litres of any barrel."
litres(b::T) where {T<:Vessel} = 0.0

"Quick fill."
@inline quick(b) = fill(b, 1.0)

"Log a step."
macro logged(ex)
    return esc(ex)
end

Base.@kwdef struct Options
    dry::Bool = true
end

end
'''


def test_julia_where_short_forms_macro_wrapped_definitions_and_signature_docstrings():
    assert symbol_rows("src/Cellar.jl", "julia", CELLAR_JL) == {
        ("module", None, "Cellar", 1, 42),
        ("class", "Cellar", "Barrel", 8, 10),
        ("type", "Cellar", "Vessel", 13, 13),
        ("function", "Cellar", "fill", 20, 22),
        ("function", "Cellar", "tap", 25, 25),
        ("function", "Cellar", "litres", 28, 28),
        ("function", "Cellar", "quick", 31, 31),
        ("macro", "Cellar", "logged", 34, 36),
        ("class", "Cellar", "Options", 38, 40),
    }


CELLAR_F90 = """!> Cellar routines.
module cellar
  implicit none
  !> A barrel.
  type :: barrel
    real :: litres
  end type barrel

  type, extends(barrel) :: cask
    real :: age
  contains
    procedure :: pour => cask_pour
  end type cask

  abstract interface
    function measure(b) result(x)
      import :: barrel
      type(barrel), intent(in) :: b
      real :: x
    end function measure
  end interface

contains

  !> Fill a barrel.
  !! All the way.
  subroutine fill(b)
    type(barrel), intent(inout) :: b
    b%litres = 100.0
  end subroutine fill
end module cellar
"""


def test_fortran_abstract_interfaces_and_derived_types_declare_their_procedures():
    assert symbol_rows("src/cellar.f90", "fortran", CELLAR_F90) == {
        ("module", None, "cellar", 2, 31),
        ("class", "cellar", "barrel", 5, 7),
        ("class", "cellar", "cask", 9, 13),
        ("method", "cask", "pour", 12, 12),  # a type-bound procedure
        ("function", "cellar", "measure", 16, 20),
        ("function", "cellar", "fill", 27, 30),
    }


def test_an_index_made_before_reads_these_files_again(tmp_path):
    files = {
        "cider/press.pxd": PRESS_PXD,
        "cellar/Store.fs": STORE_FS,
        "src/Cellar.groovy": CELLAR_GROOVY,
        "src/Cellar.jl": CELLAR_JL,
        "src/cellar.f90": CELLAR_F90,
        "src/keep.py": "def keep():\n    return 1\n",
    }
    report, _, _ = reindexed_from_before(EXTERNS_TRAITS_AND_DOCS, files, tmp_path)
    again = set(report.changed_paths)
    assert again >= set(files) - {"src/keep.py"}
    assert "src/keep.py" not in again
