"""Perl as CPAN writes it (issue 28): a module's POD documents its package and its subs (`=head1 NAME`,
`=head2 fire`, `=item $kiln->fire`), and `use parent` / `use base` lead to the classes inherited
from, not to the pragma; `has` (Moose, Moo, Mojo::Base) defines attributes; an index made before is
read again. Snippets written for these tests."""

from __future__ import annotations

from pramana.code.index.tables import PERL_POD_PARENTS
from pramana.code.parse import parse_file
from tests.code.conftest import indexed_service, reindexed_from_before

KILN = """package Pottery::Kiln;
use Pottery::Base 'Pottery::Oven';

# Heat it up.
sub fire { my ($self, $pot) = @_; return $self->_heat($pot); }

sub cool { shift->{temperature} = 20 }

sub glaze { 1 }

sub _heat { $_[1]{hot} = 1; $_[1] }

1;

__END__

=encoding utf8

=head1 NAME

Pottery::Kiln - Fire glazed pots at B<high> temperature

=head1 METHODS

=head2 fire

  $kiln->fire($pot);

Fire a pot in the kiln
until the glaze melts.

=head2 cool

Cool the kiln down to C<20> degrees.

=over 4

=item * not a method

=item $kiln->glaze($colour)

Glaze a pot in one colour.

=back

=cut
"""
FURNACE = "package Pottery::Furnace;\nsub stoke { 1 }\n1;\n"
CLAY = "package Pottery::Clay;\nsub wedge { 1 }\n1;\n"
OVEN = "package Pottery::Oven;\nsub bake { 1 }\n1;\n"
SHED = """package Pottery::Shed;
use strict;
use parent -norequire, 'Pottery::Furnace';
use base qw(Pottery::Clay);
require Pottery::Oven;

sub store { 1 }

1;
"""


def docs(source: str) -> dict[str, str]:
    return {s.name: s.doc for s in parse_file("lib/Pottery/Kiln.pm", "perl", "root", source).symbols}


def test_pod_documents_the_package_and_its_subs_and_a_comment_above_a_sub_wins():
    assert docs(KILN) == {
        "Kiln": "Fire glazed pots at high temperature",
        "fire": "Heat it up.",  # the comment above it, as in every language
        "cool": "Cool the kiln down to 20 degrees.",
        "glaze": "Glaze a pot in one colour.",
        "_heat": "",
    }
    without_comment = KILN.replace("# Heat it up.\n", "")
    assert docs(without_comment)["fire"] == "Fire a pot in the kiln until the glaze melts."


def test_pod_of_another_name_or_no_pod_documents_nothing():
    other = (
        "package Pottery::Wheel;\nsub spin { 1 }\n1;\n__END__\n\n"
        "=head1 NAME\n\nPottery::Kiln - Fire\n\n=head2 turn\n\nTurn it.\n\n=cut\n"
    )
    assert docs(other) == {"Wheel": "", "spin": ""}
    assert docs("package Pottery::Wheel;\nsub spin { 1 }\n1;\n") == {"Wheel": "", "spin": ""}


def test_use_parent_and_base_lead_to_the_parents_not_the_pragma():
    modules = [(i.module, i.line) for i in parse_file("lib/Pottery/Shed.pm", "perl", "root", SHED).imports]
    assert modules == [("strict", 2), ("Pottery::Furnace", 3), ("Pottery::Clay", 4), ("Pottery::Oven", 5)]
    kiln = [i.module for i in parse_file("lib/Pottery/Kiln.pm", "perl", "root", KILN).imports]
    assert kiln == ["Pottery::Base", "Pottery::Oven"]  # Mojo::Base's `use X::Base 'Parent'`


def test_the_parents_resolve_to_their_files_and_explain_shows_the_pod(tmp_path):
    files = {
        "lib/Pottery/Kiln.pm": KILN, "lib/Pottery/Shed.pm": SHED, "lib/Pottery/Furnace.pm": FURNACE,
        "lib/Pottery/Clay.pm": CLAY, "lib/Pottery/Oven.pm": OVEN,
    }  # fmt: skip
    service = indexed_service(files, tmp_path)
    resolved = {i.module: i.resolved for i in service.get_dependencies("lib/Pottery/Shed.pm").imports}
    assert resolved["Pottery::Furnace"] == ["lib/Pottery/Furnace.pm"]
    assert resolved["Pottery::Clay"] == ["lib/Pottery/Clay.pm"]
    assert "lib/Pottery/Shed.pm" in service.get_dependencies("lib/Pottery/Furnace.pm").importedBy
    cool = next(s for s in service.list_functions("lib/Pottery/Kiln.pm").symbols if s.name == "cool")
    assert cool.doc == "Cool the kiln down to 20 degrees."


def test_an_index_made_before_reads_perl_again(tmp_path):
    files = {"lib/Pottery/Shed.pm": SHED, "lib/Pottery/Furnace.pm": FURNACE, "t/shed.t": "use parent 'X';\n"}
    pragma_before = "UPDATE imports SET module = 'parent' WHERE module = 'Pottery::Furnace'"
    report, reopened, _ = reindexed_from_before(PERL_POD_PARENTS, files, tmp_path, pragma_before)
    assert set(report.changed_paths) == set(files)
    modules = {row[0] for row in reopened._conn.execute("SELECT module FROM imports")}
    assert "Pottery::Furnace" in modules and "parent" not in modules


TRAY = """package Pottery::Tray;
use Mojo::Base -base;

has 'glaze';
has heat => 1200;
has [qw(fuel vent)] => sub { [] };
has '+colour' => (default => 'red');
has _secret => 7;

package Pottery::Tray::Rack {
  has height => 2;
}

sub load { has_room(shift) }

1;

=head1 ATTRIBUTES

=head2 heat

  my $heat = $tray->heat;

How hot the tray may get, in degrees.

=cut
"""


def test_has_defines_attributes_of_the_package_around_it_documented_by_pod():
    found = {
        (s.kind, s.parent, s.name, s.start_line, s.exported, s.doc)
        for s in parse_file("lib/Pottery/Tray.pm", "perl", "root", TRAY).symbols
        if s.kind == "method"
    }
    assert found == {
        ("method", "Pottery::Tray", "glaze", 4, True, ""),
        ("method", "Pottery::Tray", "heat", 5, True, "How hot the tray may get, in degrees."),
        ("method", "Pottery::Tray", "fuel", 6, True, ""),
        ("method", "Pottery::Tray", "vent", 6, True, ""),
        ("method", "Pottery::Tray", "_secret", 8, False, ""),
        ("method", "Pottery::Tray::Rack", "height", 11, True, ""),
    }  # not `+colour` (an inherited attribute changed), not the call `has_room`


def test_an_attribute_is_found_where_has_defines_it(tmp_path):
    service = indexed_service({"lib/Pottery/Tray.pm": TRAY}, tmp_path)
    explained = service.explain_code("heat")
    assert explained.definition is not None
    assert (explained.definition.filePath, explained.definition.startLine) == ("lib/Pottery/Tray.pm", 5)
    assert explained.definition.doc == "How hot the tray may get, in degrees."
    listed = [(s.name, s.parent) for s in service.list_functions("lib/Pottery/Tray.pm").symbols]
    assert ("vent", "Pottery::Tray") in listed and ("height", "Pottery::Tray::Rack") in listed


def test_pod_running_to_the_end_of_the_file_without_cut_parses():
    wheel = "package Pottery::Wheel;\nuse strict;\n\nsub spin { 1 }\n\n1;\n\n__END__\n\n"
    wheel += "=head1 NAME\n\nPottery::Wheel - Spin\n"
    symbols = parse_file(
        "lib/Pottery/Wheel.pm", "perl", "root", wheel + "\n=head1 SEE ALSO\n\nL<Pottery::Kiln>\n"
    ).symbols
    assert [(s.name, s.start_line, s.end_line, s.doc) for s in symbols] == [
        ("Wheel", 1, 16, "Spin"),
        ("spin", 4, 4, ""),
    ]  # main: IndexError, the file cut into windows with no symbol
