"""Ruby's definitions that are not plain `def`s in a class body: methods defined under a condition
(one per Ruby version or per optional gem), and classes made by a call assigned to a constant
(`Struct.new`, `Class.new`, `Data.define`, `Module.new`) with the methods of the call's block."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import RUBY_SHAPES
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

SUGGESTER = """\
module Shelf
  class Suggester
    def initialize(name)
      @name = name
    end

    if defined?(::Levenshtein)
      def suggest
        Levenshtein.closest(@name, catalogue)
      end
    else
      def suggest
        catalogue.find { |title| title.start_with?(@name[0]) }
      end
    end

    unless method_defined?(:catalogue)
      def catalogue
        []
      end
    end

    def self.legacy; end if RUBY_VERSION < "3.0"
  end
end
"""

SHAPES = """\
module Shelf
  Loan = Struct.new(:book, :due) do
    # Whether the loan is past its due date.
    def overdue?(today)
      today > due
    end
  end

  MissingBook = Class.new(StandardError)
  Coordinates = Data.define(:aisle, :shelf)
  Helpers = Module.new do
    def shelve(book); end
  end

  limit = Integer(ENV.fetch("LIMIT", "3"))
  DEFAULT = [limit, 10].min
end
"""


def test_methods_under_a_condition_are_the_class_s():
    rows = symbol_rows("lib/shelf/suggester.rb", "ruby", SUGGESTER)
    assert ("method", "Suggester", "suggest", 8, 10) in rows
    assert ("method", "Suggester", "suggest", 12, 14) in rows
    assert ("method", "Suggester", "catalogue", 18, 20) in rows
    assert ("method", "Suggester", "legacy", 23, 23) in rows
    assert ("class", "Shelf", "Suggester", 2, 24) in rows


def test_what_divides_the_branches_is_no_chunk_of_its_own():
    chunks = parse_file("lib/shelf/suggester.rb", "ruby", "lib", SUGGESTER).chunks
    contents = [c.content.strip() for c in chunks]
    assert all(c not in ("else", "end") for c in contents)
    assert any("Levenshtein.closest" in c for c in contents)
    assert any("title.start_with?" in c for c in contents)


def test_a_constant_assigned_a_new_struct_or_class_is_a_class_with_its_block_s_methods():
    rows = symbol_rows("lib/shelf/shapes.rb", "ruby", SHAPES)
    assert ("class", "Shelf", "Loan", 2, 7) in rows
    assert ("method", "Loan", "overdue?", 4, 6) in rows
    assert ("class", "Shelf", "MissingBook", 9, 9) in rows
    assert ("class", "Shelf", "Coordinates", 10, 10) in rows
    assert ("module", "Shelf", "Helpers", 11, 13) in rows
    assert ("method", "Helpers", "shelve", 12, 12) in rows
    # Other values define nothing: a local, a constant holding a number.
    assert not {name for _, _, name, _, _ in rows} & {"limit", "DEFAULT"}


@pytest.fixture
def service(tmp_path) -> CodeService:
    return indexed_service({"lib/shelf/suggester.rb": SUGGESTER, "lib/shelf/shapes.rb": SHAPES}, tmp_path)


def test_structural_tools_find_them(service):
    listed = [s.name for s in service.list_functions("lib/shelf/shapes.rb").symbols]
    assert listed == ["Shelf", "Loan", "overdue?", "MissingBook", "Coordinates", "Helpers", "shelve"]
    found = service.explain_code("Loan.overdue?").definition
    assert found is not None and (found.filePath, found.startLine) == ("lib/shelf/shapes.rb", 4)
    assert found.doc == "Whether the loan is past its due date."
    suggest = service.explain_code("Suggester.suggest").definition
    assert suggest is not None and suggest.startLine in (8, 12)


def test_an_index_made_before_reads_ruby_again(tmp_path):
    files = {"lib/shelf/shapes.rb": SHAPES, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, root = reindexed_from_before(RUBY_SHAPES, files, tmp_path)
    assert report.changed_paths == ["lib/shelf/shapes.rb"]
    assert CodeService(reopened, root).explain_code("Loan").definition is not None


def test_both_branches_stay_in_one_chunk_of_the_class_with_their_condition():
    chunks = parse_file("lib/shelf/suggester.rb", "ruby", "lib", SUGGESTER).chunks
    (branches,) = [c for c in chunks if "Levenshtein.closest" in c.content]
    assert "if defined?(::Levenshtein)" in branches.content and "title.start_with?" in branches.content
    assert (branches.chunk_type, branches.name) == ("class", "Suggester")


def test_a_class_under_a_condition_keeps_chunks_of_its_own():
    source = (
        "module Shelf\n  if defined?(::Rails)\n    class Railtie\n"
        + "".join(f"      def hook_{n}\n" + "        run\n" * 30 + "      end\n" for n in range(2))
        + "    end\n  end\nend\n"
    )
    chunks = parse_file("lib/shelf/railtie.rb", "ruby", "lib", source).chunks
    assert {c.name for c in chunks if c.chunk_type == "method"} == {"hook_0", "hook_1"}
