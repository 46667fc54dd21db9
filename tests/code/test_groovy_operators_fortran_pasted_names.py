"""What issue 28's twenty-seventh held-out set (Zig's compiler_rt, CodeNarc's Groovy, ELPA's Fortran)
showed, on snippets of our own: a Groovy class using the safe navigation `?.`, the Elvis `?:`, an empty
`''` or `assert ok, 'message'` lost its methods or itself (tree-sitter-groovy 0.1.2 reads Java); a Fortran
procedure whose name the preprocessor pastes from pieces (`subroutine knead_&` / `&DOUGH&` / `&_&` /
`&PREC &`) was named by a piece (`DOUGH`) or not read at all."""

from __future__ import annotations

from pramana.code.index.tables import GROOVY_OPERATORS_FORTRAN_PASTED_NAMES
from pramana.code.languages import FORTRAN
from pramana.code.parse import parse_file
from pramana.code.parse.syntax import _masked
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

# Each of Groovy's operators below cost the grammar the method after it, or the class.
PANTRY = """package org.bakery.stock

class Pantry {
    private static final SHELVES = [Flour: 'top', Sugar: 'low']

    static String shelfFor(String item) {
        def shelf = SHELVES[item]?.toUpperCase()
        return shelf ?: ''
    }

    String label(String item) {
        assert item, 'an item is needed'
        return item?.trim()
    }

    int count(List items) {
        return items.size()
    }
}
"""


def test_groovy_operators_keep_the_class_and_its_methods():
    rows = symbol_rows("src/main/groovy/org/bakery/stock/Pantry.groovy", "groovy", PANTRY)
    assert ("class", None, "Pantry", 3, 19) in rows
    assert {
        ("method", "Pantry", "shelfFor", 6, 9),
        ("method", "Pantry", "label", 11, 14),
        ("method", "Pantry", "count", 16, 18),
    } <= rows


def test_groovy_operators_each_alone_keep_the_class():
    # Without the other operators, each one alone still cost the grammar the class or a method.
    for line in ("return shelf ?: ''", "return shelf?.trim()", "return ''"):
        text = (
            f"class Shelf {{\n    String pick(String shelf) {{\n        {line}\n    }}\n\n"
            "    int size() {\n        return 2\n    }\n}\n"
        )
        rows = symbol_rows("Shelf.groovy", "groovy", text)
        assert {("class", None, "Shelf"), ("method", "Shelf", "pick"), ("method", "Shelf", "size")} <= {
            r[:3] for r in rows
        }, line


def test_groovy_masks_leave_strings_ternaries_and_the_shown_text_alone():
    # A ternary, a `'''` string and a quote inside a string are not the masked operators; the chunks
    # show the source as written.
    text = (
        "class Scale {\n    String grade(int grams) {\n"
        "        return grams > 500 ? 'big' : 'small'\n    }\n\n"
        "    String note() {\n        return '''it''s\\nfine'''\n    }\n}\n"
    )
    rows = {r[:3] for r in symbol_rows("Scale.groovy", "groovy", text)}
    assert {("class", None, "Scale"), ("method", "Scale", "grade"), ("method", "Scale", "note")} <= rows
    parsed = parse_file("Pantry.groovy", "groovy", "root", PANTRY)
    shown = "\n".join(chunk.content for chunk in parsed.chunks)
    assert "?.toUpperCase()" in shown and "?: ''" in shown and "assert item, 'an item" in shown
    assert "||" not in shown and '""' not in shown


# A procedure named by token pasting, as a preprocessed Fortran template writes it; its `end` too.
KNEAD_TEMPLATE = """module knead_mod
  implicit none
contains

subroutine knead_&
&DOUGH&
&_&
&PREC &
(n, x)
  integer :: n
  real :: x(n)
  x = 2 * x
end subroutine knead_&
&DOUGH&
&_&
&PREC

subroutine fold(n)
  integer :: n
  n = n + 1
end subroutine fold

end module knead_mod
"""


def test_fortran_pasted_procedure_name_is_its_stem():
    rows = symbol_rows("src/knead_template.F90", "fortran", KNEAD_TEMPLATE)
    names = {r[:3] for r in rows}
    assert ("function", "knead_mod", "knead") in names
    assert ("function", "knead_mod", "fold") in names
    assert not {r for r in names if r[2] in {"DOUGH", "PREC", "knead_"}}
    spans = {r[2]: r[3:] for r in rows}
    assert spans["knead"] == (5, 13)  # to its `end subroutine knead_&` (the pieces after it are blank)


def test_fortran_continued_names_and_calls_are_not_pasted_names():
    # A name split over lines with its arguments on the last (`&loaves(n)`) and a call's argument alone
    # on a continued line are ordinary continuations: the masks leave them as written.
    text = (
        "subroutine count_&\n&loaves(n)\n  integer :: n\n  call bake(n, &\n  &n)\n"
        "end subroutine count_loaves\n"
    )
    masked, leads = _masked(text.encode(), FORTRAN.masks)
    assert masked == text.encode() and not leads


def test_find_definition_of_a_pasted_procedure(tmp_path):
    files = {"src/knead_template.F90": KNEAD_TEMPLATE, "src/Pantry.groovy": PANTRY}
    service = indexed_service(files, tmp_path)
    assert [d.filePath for d in service.find_usages("knead").definitions] == ["src/knead_template.F90"]
    assert [d.filePath for d in service.find_usages("shelfFor").definitions] == ["src/Pantry.groovy"]


def test_an_index_made_before_reads_groovy_and_fortran_again(tmp_path):
    files = {"src/Pantry.groovy": PANTRY, "src/knead_template.F90": KNEAD_TEMPLATE}
    files |= {"src/cart.py": "def cart():\n    return 1\n"}
    report, reopened, _ = reindexed_from_before(GROOVY_OPERATORS_FORTRAN_PASTED_NAMES, files, tmp_path)
    assert set(report.changed_paths) == {"src/Pantry.groovy", "src/knead_template.F90"}
    reopened.close()
