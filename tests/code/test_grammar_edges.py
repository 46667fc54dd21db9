"""The edges of the Perl, Fortran, Julia and F# grammars (issue 28): a GLSL shader named `.fs` is not F#,
doc lines without their language's markers, a Perl sub after a `package X { ... }` block in the package
around it, F#'s `///` docs their definitions' own, and an index made before read again. Snippets
written for these tests."""

from __future__ import annotations

import itertools

from pramana.code.index.tables import GLSL_DOCS_PERL_SCOPES, GLSL_EXTENSIONS
from pramana.code.languages import language_for
from pramana.code.parse import parse_file
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

FRAGMENT_SHADER = """#version 330 core
in vec2 uv;
out vec4 color;
uniform sampler2D glaze;

void main() {
    color = texture(glaze, uv);
}
"""
OLD_FRAGMENT_SHADER = """precision mediump float;
varying vec2 vUv;
uniform float uKilnHeat;
void main() { gl_FragColor = vec4(vUv, uKilnHeat, 1.0); }
"""
VERTEX_SHADER = "attribute vec3 position;\nvoid main() { gl_Position = vec4(position, 1.0); }\n"
# F# that names things as GLSL does: a function `uniform`, a value `out`, a `main` that is no `void main(`.
FSHARP_LIKE_GLSL = """module Kiln.Firing

let uniform low high = (low + high) / 2.0
let out = [ uniform 1.0 2.0 ]

[<EntryPoint>]
let main argv = 0
"""


def doc_of(path: str, language: str, source: str, name: str) -> str:
    return next(s.doc for s in parse_file(path, language, "root", source).symbols if s.name == name)


def test_a_glsl_shader_named_fs_or_vs_is_glsl_and_f_sharp_stays_f_sharp():
    assert language_for("shaders/glaze.fs", FRAGMENT_SHADER.encode()) == "glsl"
    assert language_for("web/kiln.fs", OLD_FRAGMENT_SHADER.encode()) == "glsl"
    assert language_for("shaders/pot.vs", VERTEX_SHADER.encode()) == "glsl"
    assert language_for("src/Firing.fs", FSHARP_LIKE_GLSL.encode()) == "fsharp"
    assert language_for("notes/kiln.vs", b"Fire at 1200 degrees; cool slowly.\n") == "text"


def test_a_shader_is_code_in_windows_found_by_search_without_f_sharp_symbols(tmp_path):
    files = {"shaders/glaze.fs": FRAGMENT_SHADER, "src/Firing.fs": FSHARP_LIKE_GLSL}
    service = indexed_service(files, tmp_path)
    shader = service.store.file("shaders/glaze.fs")
    assert shader is not None and shader.language == "glsl"
    assert service.list_functions("shaders/glaze.fs").symbols == []
    assert [s.name for s in service.list_functions("src/Firing.fs").symbols] == ["Firing", "uniform", "main"]
    found = service.search_code("glaze texture sampler", limit=2).chunks
    assert found[0].metadata.filePath == "shaders/glaze.fs"


def test_fortran_doc_lines_lose_their_markers():
    source = """module gauges
contains
  !> Read the pressure gauge.
  !! In pascals.
  real function pressure(g)
    integer, intent(in) :: g
    pressure = g * 1.0
  end function pressure

  !! Zero the dial.
  subroutine reset(g)
    integer, intent(inout) :: g
    g = 0
  end subroutine reset

  !!!!!!!!!!!!!!!!
  ! Spin the dial once.
  subroutine spin(g)
    integer, intent(inout) :: g
    g = g + 1
  end subroutine spin
end module gauges
"""
    docs = {name: doc_of("src/gauges.f90", "fortran", source, name) for name in ("pressure", "reset", "spin")}
    assert docs == {
        "pressure": "Read the pressure gauge.",
        "reset": "Zero the dial.",
        "spin": "Spin the dial once.",
    }


def test_julia_docstrings_lose_their_opening_quotes():
    source = '''module Tally

"""
    add(a, b)

Sum two counts.
"""
function add(a, b)
    a + b
end

"Halve a count."
halve(x) = x / 2

"""Double a count, "twice" as much."""
double(x) = 2x

end
'''
    docs = {name: doc_of("src/Tally.jl", "julia", source, name) for name in ("add", "halve", "double")}
    assert docs == {
        "add": "Sum two counts.",  # the prose after the signature Julia's convention indents
        "halve": "Halve a count.",
        "double": 'Double a count, "twice" as much.',
    }


def test_other_languages_keep_the_shared_comment_rule():
    c = '// "Hot" kilns first.\nint fire(void) { return 1; }\n'
    assert doc_of("kiln.c", "c", c, "fire") == '"Hot" kilns first.'
    ruby = "# !important: fire first\ndef fire\nend\n"
    assert doc_of("kiln.rb", "ruby", ruby, "fire") == "!important: fire first"


PERL_SCOPES = """package Kiln;

sub fire { return 1; }

package Kiln::Shelf {
    sub stack { return 2; }
}

sub cool { return 3; }

package Kiln::Vent;

sub open_vent { return 4; }
"""


def test_a_perl_sub_after_a_package_block_is_the_enclosing_packages():
    assert symbol_rows("lib/Kiln.pm", "perl", PERL_SCOPES) == {
        ("module", None, "Kiln", 1, 3),
        ("function", "Kiln", "fire", 3, 3),
        ("module", "Kiln", "Shelf", 5, 7),
        ("function", "Kiln::Shelf", "stack", 6, 6),
        ("function", "Kiln", "cool", 9, 9),  # the block's scope ended: Kiln's again, not top-level
        ("module", "Kiln", "Vent", 11, 13),
        ("function", "Kiln::Vent", "open_vent", 13, 13),
    }
    chunks = parse_file("lib/Kiln.pm", "perl", "root", PERL_SCOPES).chunks
    spans = sorted((c.start_line, c.end_line) for c in chunks)
    assert all(end < start for (_, end), (start, _) in itertools.pairwise(spans)), spans  # no chunk overlaps


def test_a_perl_sub_after_a_package_block_with_no_package_before_is_top_level():
    source = "package Loom::Warp {\n    sub tension { return 1; }\n}\n\nsub weave { return 2; }\n"
    assert ("function", None, "weave", 5, 5) in symbol_rows("bin/loom.pl", "perl", source)


FSHARP_DOCS = """module Shop.Till

/// A till of coins.
type Till() =
    /// Open the drawer.
    member this.Open() = 1
    /// Close the drawer.
    member this.Close() = 0

/// Count the coins.
let count (t: Till) = t.Open()

/// A receipt.
type Receipt = { Total: decimal }
"""


def test_f_sharp_doc_comments_belong_to_the_definition_after_them():
    parsed = parse_file("src/Till.fs", "fsharp", "root", FSHARP_DOCS)
    found = {s.name: (s.start_line, s.end_line, s.doc) for s in parsed.symbols if s.kind != "module"}
    assert found == {
        "Till": (4, 8, "A till of coins."),
        "Open": (6, 6, "Open the drawer."),
        "Close": (8, 8, "Close the drawer."),  # not running on to the next definition's doc
        "count": (11, 11, "Count the coins."),
        "Receipt": (14, 14, "A receipt."),
    }


FILES = {
    "shaders/glaze.fs": FRAGMENT_SHADER,
    "shaders/pot.vs": VERTEX_SHADER,
    "lib/Kiln.pm": PERL_SCOPES,
    "src/Till.fs": FSHARP_DOCS,
    "src/gauges.f90": "module gauges\ncontains\n!> Zero it.\nsubroutine reset()\nend subroutine\nend\n",
    "src/Tally.jl": 'module Tally\n\n"Halve it."\nhalve(x) = x / 2\n\nend\n',
    "src/app.py": "def fire():\n    return 1\n",
}


def test_an_index_made_before_reads_these_files_again(tmp_path):
    shaders_were_other = (
        "UPDATE files SET language = CASE WHEN path LIKE '%.fs' THEN 'fsharp' ELSE 'text' END"
        " WHERE path LIKE 'shaders/%'"
    )
    docs_had_markers = "UPDATE symbols SET doc = '!> Zero it.' WHERE name = 'reset'"
    report, reopened, _ = reindexed_from_before(
        GLSL_DOCS_PERL_SCOPES, FILES, tmp_path, shaders_were_other, docs_had_markers
    )
    assert set(report.changed_paths) == set(FILES) - {"src/app.py"}
    assert reopened.file("shaders/glaze.fs").language == "glsl"  # type: ignore[union-attr]
    assert reopened.file("shaders/pot.vs").language == "glsl"  # type: ignore[union-attr]
    docs = dict(reopened._conn.execute("SELECT name, doc FROM symbols WHERE name IN ('reset', 'halve')"))
    assert docs == {"reset": "Zero it.", "halve": "Halve it."}


def test_a_shader_under_glsl_extensions_is_glsl_and_an_index_made_before_reads_it_again(tmp_path):
    shaders = {
        "shaders/glaze.frag": FRAGMENT_SHADER,
        "shaders/pot.vert": VERTEX_SHADER,
        "shaders/common.glsl": "float kilnHeat(float t) { return t * 1200.0; }\n",
        "src/app.py": "def fire():\n    return 1\n",
    }
    shader_paths = {path for path in shaders if path.startswith("shaders/")}
    assert {language_for(path, shaders[path].encode()) for path in shader_paths} == {"glsl"}
    was_text = "UPDATE files SET language = 'text' WHERE path LIKE 'shaders/%'"
    report, reopened, _ = reindexed_from_before(GLSL_EXTENSIONS, shaders, tmp_path, was_text)
    assert set(report.changed_paths) == shader_paths
    assert {reopened.file(p).language for p in shader_paths} == {"glsl"}  # type: ignore[union-attr]
