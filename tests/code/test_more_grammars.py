"""Perl, Fortran, Groovy, Julia and F# parsed with their PyPI grammars (issue 28: every language a team
writes): shapes the fixture of test_languages.py does not hold, the ecosystems' test files, and an index
made before them read again. Snippets written for these tests."""

from __future__ import annotations

from pramana.code.index.tables import PERL_FORTRAN_GROOVY_JULIA_FSHARP
from pramana.code.languages import language_of
from pramana.code.search.paths import TEST, path_kinds
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

PERL_BLOCKS = """package Orchard::Press {
    sub squeeze { my ($self, @pears) = @_; return scalar @pears; }
}

sub Orchard::Press::bottle { return 'bottle'; }

package Orchard::Cellar;

sub store {
    my ($self, $bottle) = @_;
    return Orchard::Press::bottle();
}

class Orchard::Barrel;

method fill { return 1; }
sub seal { return 2; }
"""


def test_perl_packages_of_both_forms_own_their_subs_and_a_class_its_methods():
    assert symbol_rows("lib/Orchard/Press.pm", "perl", PERL_BLOCKS) == {
        ("module", "Orchard", "Press", 1, 3),
        ("function", "Orchard::Press", "squeeze", 2, 2),
        ("function", "Orchard::Press", "bottle", 5, 5),  # `sub Orchard::Press::bottle`: qualified
        ("module", "Orchard", "Cellar", 7, 12),  # up to the next package, not the end of the file
        ("function", "Orchard::Cellar", "store", 9, 12),
        ("class", "Orchard", "Barrel", 14, 17),
        ("method", "Orchard::Barrel", "fill", 16, 16),
        ("method", "Orchard::Barrel", "seal", 17, 17),
    }


def test_a_perl_script_without_a_package_has_top_level_subs():
    script = "#!/usr/bin/perl\nuse strict;\n\nsub press_all { return 1; }\n\npress_all();\n"
    assert symbol_rows("bin/press-all", "perl", script) == {("function", None, "press_all", 4, 4)}


def test_fortran_procedures_of_a_program_and_a_submodule():
    source = """program harvest
  implicit none
  call count_pears(3)
contains
  subroutine count_pears(n)
    integer, intent(in) :: n
    print *, n
  end subroutine count_pears
end program harvest
"""
    assert symbol_rows("src/harvest.f90", "fortran", source) == {
        ("module", None, "harvest", 1, 9),
        ("function", "harvest", "count_pears", 5, 8),
    }


def test_a_gradle_build_is_cut_into_windows_and_stays_searchable(tmp_path):
    gradle = "plugins {\n    id 'java'\n}\n\ndependencies {\n    implementation project(':cider-core')\n}\n"
    assert language_of("build.gradle") == "gradle" and symbol_rows("build.gradle", "gradle", gradle) == set()
    service = indexed_service({"build.gradle": gradle}, tmp_path)
    found = [c.metadata.filePath for c in service.search_code("cider-core dependency", limit=3).chunks]
    assert found == ["build.gradle"]


def test_julia_short_functions_with_where_clauses_and_qualified_names():
    source = """struct Pair{T} <: AbstractPair
    a::T
end

function swap(p::Pair{T}) where {T}
    return Pair(p.b, p.a)
end

Base.length(p::Pair) = 2
limit = 10
"""
    assert symbol_rows("src/pairs.jl", "julia", source) == {
        ("class", None, "Pair", 1, 3),
        ("function", None, "swap", 5, 7),
        ("function", "Base", "length", 9, 9),
    }


def test_the_ecosystems_test_files_are_tests():
    for path in ("t/press.t", "test/runtests.jl", "src/test/groovy/orchard/PressSpec.groovy"):
        assert TEST in path_kinds(path), path
    for path in ("Orchard.Tests/PressTests.fs", "tests/PressTest.fs"):
        assert TEST in path_kinds(path), path
    for path in ("lib/Orchard/Press.pm", "src/Orchard.jl", "src/Press.fs", "src/main/groovy/Press.groovy"):
        assert TEST not in path_kinds(path), path


FILES = {
    "lib/Orchard/Press.pm": PERL_BLOCKS,
    "src/Orchard.jl": "module Orchard\n\nripen(p) = p + 1\n\nend\n",
    "src/Press.fs": "module Orchard.Press\n\nlet squeeze pears = pears * 2\n",
    "build.gradle": "plugins {\n    id 'java'\n}\n",
}


def test_an_index_made_before_reads_these_languages_again(tmp_path):
    was_text = "UPDATE files SET language = 'text' WHERE path LIKE '%.jl' OR path LIKE '%.fs'"
    was_groovy = "UPDATE files SET language = 'groovy' WHERE path LIKE '%.gradle'"
    symbols_were_none = "DELETE FROM symbols"
    report, reopened, _ = reindexed_from_before(
        PERL_FORTRAN_GROOVY_JULIA_FSHARP, FILES, tmp_path, was_text, was_groovy, symbols_were_none
    )
    assert set(report.changed_paths) == set(FILES)
    assert reopened.file("build.gradle").language == "gradle"  # type: ignore[union-attr]
    assert reopened.file("src/Orchard.jl").language == "julia"  # type: ignore[union-attr]
    assert reopened.file("src/Press.fs").language == "fsharp"  # type: ignore[union-attr]
    names = {row[0] for row in reopened._conn.execute("SELECT name FROM symbols")}
    assert {"squeeze", "store", "ripen", "Orchard"} <= names
