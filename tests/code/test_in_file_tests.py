"""Test code inside a source file is test code (issue 28): a Rust `#[cfg(test)] mod tests {}` and its
`#[test] fn`s, a Zig `test "name" {}`. Its chunks rank as a test file's do, its definitions and the
uses in it come after production code's in find_definition and find_usages; a name asked for is
still found. Snippets of our own."""

from __future__ import annotations

from pramana.code.index.indexer import Indexer
from pramana.code.index.tables import TEST_SPANS, WHOLE_FILE_TESTS
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before

KETTLE = """/// Heats the water until it boils, then switches the kettle off.
pub fn boil_water(litres: u32) -> u32 {
    let minutes = litres * 3;
    minutes
}

pub fn pour(cups: u32) -> u32 {
    cups * 250
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_kettle() -> u32 {
        boil_water(2)
    }

    #[test]
    fn boil_water_boils_water() {
        // boil the water, the water boils: boil water twice, water water
        assert_eq!(boil_water(1), 3);
        assert_eq!(boil_water(2), 6);
        assert_eq!(full_kettle(), 6);
    }
}
"""

MARKED = """pub fn shared() {}

#[tokio::test(flavor = "multi_thread")]
async fn runs_on_a_runtime() {
    shared();
}

#[cfg(all(loom, test))]
mod loom_checks {
    fn model() {}
}

#[cfg(not(test))]
fn outside_tests() {}

#[cfg(any(test, feature = "fuzz"))]
fn fuzzing_too() {}

#[cfg_attr(test, derive(Debug))]
struct Plain;

#[test_case(1)]
fn parametrised(n: u32) {}
"""

ZIG_KETTLE = """const std = @import("std");

pub fn boilWater(litres: u32) u32 {
    return litres * 3;
}

test "boilWater boils" {
    try std.testing.expectEqual(@as(u32, 3), boilWater(1));
}

test "two litres" {
    try std.testing.expectEqual(@as(u32, 6), boilWater(2));
}

fn helper() u32 {
    return 1;
}
"""


def test_a_cfg_test_module_and_its_attribute_are_one_span():
    parsed = parse_file("src/kettle.rs", "rust", "root", KETTLE)
    assert parsed.tests == [(11, 26)]  # from `#[cfg(test)]` to the module's closing brace


def test_test_attributes_mark_the_item_after_them():
    lines = MARKED.splitlines()
    spans = parse_file("src/marked.rs", "rust", "root", MARKED).tests
    covered = {lines[line - 1] for start, end in spans for line in range(start, end + 1)}
    assert "async fn runs_on_a_runtime() {" in covered and "    fn model() {}" in covered
    assert not covered & {"fn outside_tests() {}", "fn fuzzing_too() {}", "struct Plain;"}
    assert "fn parametrised(n: u32) {}" not in covered  # `#[test_case]` is not `#[test]`
    assert "pub fn shared() {}" not in covered


def test_zig_test_blocks_are_test_code_and_functions_are_not():
    parsed = parse_file("src/kettle.zig", "zig", "root", ZIG_KETTLE)
    assert parsed.tests == [(7, 13)]  # the two blocks, only a blank line between them: one span
    assert parse_file("src/other.rs", "rust", "root", "pub fn f() {}\n").tests == []


STOVE = {
    "src/kettle.rs": "/// Heats the water until it boils, then switches off.\n"
    "pub fn heat(litres: u32) -> u32 {\n    litres * 3\n}\n",
    "src/stove.rs": """pub fn ignite() -> bool {
    true
}

#[cfg(test)]
mod tests {
    #[test]
    fn water_boils_when_heated() {
        // heat the water until the water boils: boiling water, hot water
        let water = crate::kettle::heat(1);
        assert!(water > 0, "the water boils");
    }
}
""",
}


def test_the_implementation_ranks_above_in_file_tests(tmp_path):
    """The test says the query's words more often than the function: as production code it led."""
    service = indexed_service(STOVE, tmp_path)
    found = service.search_code("how is the water boiled", limit=3).chunks
    assert [(c.metadata.filePath, c.metadata.name) for c in found[:2]] == [
        ("src/kettle.rs", "heat"),
        ("src/stove.rs", "water_boils_when_heated"),
    ]
    asked = service.search_code("tests for boiling water", limit=3).chunks
    assert asked[0].metadata.name == "water_boils_when_heated"  # a query asking for tests gets them


LEDGER = """/// Moves what is owed from one account to another.
pub fn settle(from: &mut u64, to: &mut u64, amount: u64) {
    *from -= amount;
    *to += amount;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settling_a_debt_moves_the_balance() {
        // a debt settled: the balance moves from the debtor to the creditor
        let (mut debtor, mut creditor) = (10, 0);
        settle(&mut debtor, &mut creditor, 10);
        assert_eq!((debtor, creditor), (0, 10), "debt settled, balance moved");
    }
}
"""

AUDIT = (
    "/// Checks that the balance adds up once a debt is recorded.\n"
    "pub fn check_balance(total: u64) -> bool {\n    total > 0\n}\n"
)


def test_a_file_placed_by_its_own_tests_shows_its_code_there(tmp_path):
    """The unit tests of ledger.rs say the query's words, its code few: the file keeps the place its
    tests give it (weighed down alone, audit.rs passed it), and what is shown there is `settle`."""
    service = indexed_service({"src/ledger.rs": LEDGER, "src/audit.rs": AUDIT}, tmp_path)
    found = service.search_code("how is a debt settled and the balance moved", limit=3).chunks
    assert [(c.metadata.filePath, c.metadata.name) for c in found] == [
        ("src/ledger.rs", "settle"),
        ("src/audit.rs", "check_balance"),
        ("src/ledger.rs", "settling_a_debt_moves_the_balance"),
    ]


def test_symbol_tools_put_production_first_and_still_find_test_helpers(tmp_path):
    service = indexed_service({"src/kettle.rs": KETTLE, "src/kitchen.rs": _KITCHEN}, tmp_path)
    usages = service.find_usages("boil_water").usages
    assert [u.filePath for u in usages[:1]] == ["src/kitchen.rs"]  # the real caller before the tests
    assert {u.line for u in usages if u.filePath == "src/kettle.rs"} >= {16, 22, 23}
    helper = service.find_usages("full_kettle").definitions
    assert [(d.filePath, d.startLine) for d in helper] == [("src/kettle.rs", 15)]
    explained = service.explain_code("full_kettle").definition
    assert explained is not None and explained.filePath == "src/kettle.rs"


_KITCHEN = "use crate::kettle::boil_water;\n\npub fn make_tea() -> u32 {\n    boil_water(1)\n}\n"


def test_a_test_helper_is_listed_after_a_production_namesake(tmp_path):
    files = {"src/kettle.rs": KETTLE, "src/pot.rs": "fn full_kettle() -> u32 {\n    2\n}\n"}
    found = indexed_service(files, tmp_path).find_usages("full_kettle").definitions
    assert [d.filePath for d in found] == ["src/pot.rs", "src/kettle.rs"]


def test_an_index_made_before_reads_rust_and_zig_again(tmp_path):
    files = {
        "src/kettle.rs": KETTLE,
        "src/kettle.zig": ZIG_KETTLE,
        "src/plain.rs": "pub fn plain() {}\n",  # says no "test": nothing to find in it
        "tools/gen.py": "def gen():\n    pass\n",
    }
    report, reopened, root = reindexed_from_before(
        TEST_SPANS, files, tmp_path, "DROP INDEX test_spans_file", "DROP TABLE test_spans"
    )
    assert sorted(report.changed_paths) == ["src/kettle.rs", "src/kettle.zig"]
    found = CodeService(reopened, root).search_code("how does boil water work", limit=3).chunks
    assert found[0].metadata.name in {"boil_water", "boilWater"}  # production code of either file


WHOLE_TEST_FILE = """//! Checks for the kettle, compiled only for tests.
#![cfg(test)]

use crate::kettle::boil_water;

fn filled() -> u32 {
    boil_water(2)
}

#[test]
fn boils() {
    assert_eq!(filled(), 6);
}
"""

INNER_MARKS = """#![allow(dead_code)]
#![cfg(not(test))]

pub fn served() {}

mod checks {
    #![cfg(test)]

    fn checked() {}
}

mod shipped {
    #![cfg_attr(test, allow(unused))]

    fn kept() {}
}
"""


def test_a_file_marked_cfg_test_at_its_top_is_test_code_whole():
    assert parse_file("src/kettle_checks.rs", "rust", "root", WHOLE_TEST_FILE).tests == [(1, 13)]


def test_an_inner_cfg_test_marks_its_module_and_others_mark_nothing():
    lines = INNER_MARKS.splitlines()
    spans = parse_file("src/marks.rs", "rust", "root", INNER_MARKS).tests
    covered = {lines[line - 1] for start, end in spans for line in range(start, end + 1)}
    assert "    fn checked() {}" in covered and "mod checks {" in covered
    assert not covered & {"pub fn served() {}", "    fn kept() {}", "mod shipped {"}


def test_a_helper_of_a_whole_test_file_comes_after_production(tmp_path):
    files = {
        "src/kettle.rs": KETTLE,
        "src/kettle_checks.rs": WHOLE_TEST_FILE,
        "src/pot.rs": "pub fn filled() -> u32 {\n    2\n}\n",
    }
    found = indexed_service(files, tmp_path).find_usages("filled").definitions
    assert [d.filePath for d in found] == ["src/pot.rs", "src/kettle_checks.rs"]


def test_an_index_made_before_reads_rust_files_saying_cfg_test_again(tmp_path):
    files = {
        "src/kettle_checks.rs": WHOLE_TEST_FILE,
        "src/kettle.zig": ZIG_KETTLE,
        "src/plain.rs": "pub fn plain() {}\n// a test, but no cfg\n",
    }
    report, reopened, _ = reindexed_from_before(WHOLE_FILE_TESTS, files, tmp_path, "DELETE FROM test_spans")
    assert report.changed_paths == ["src/kettle_checks.rs"]
    file = reopened.file("src/kettle_checks.rs")
    assert file is not None and reopened.test_spans([file.id]) == {file.id: [(1, 13)]}


DECLARING = """pub fn boil_water(litres: u32) -> u32 {
    litres * 3
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod checks;

mod spout;
"""

MODULE_TESTS = "use super::*;\n\nfn full_kettle() -> u32 {\n    boil_water(2)\n}\n"


def test_a_module_declared_as_test_code_is_read_from_its_own_files():
    assert parse_file("src/kettle.rs", "rust", "root", DECLARING).test_modules == [
        "src/kettle/tests.rs",
        "src/kettle/tests/mod.rs",
        "src/kettle/checks.rs",
        "src/kettle/checks/mod.rs",
    ]  # `mod spout;` is no test
    assert parse_file("src/lib.rs", "rust", "root", DECLARING).test_modules[:2] == [
        "src/tests.rs",
        "src/tests/mod.rs",
    ]


def test_the_file_of_a_declared_test_module_is_test_code_whole(tmp_path):
    files = {
        "src/kettle.rs": DECLARING,
        "src/kettle/tests.rs": MODULE_TESTS,
        "src/kettle/checks/mod.rs": "fn full_kettle() -> u32 {\n    3\n}\n",
        "src/kettle/spout.rs": "fn full_kettle() -> u32 {\n    4\n}\n",
        "src/pot.rs": "pub fn full_kettle() -> u32 {\n    2\n}\n",
    }
    service = indexed_service(files, tmp_path)
    found = [d.filePath for d in service.find_usages("full_kettle").definitions]
    assert sorted(found[:2]) == ["src/kettle/spout.rs", "src/pot.rs"]  # production first
    assert sorted(found[2:]) == ["src/kettle/checks/mod.rs", "src/kettle/tests.rs"]
    spans = service.store.test_spans(
        [service.store.file(p).id for p in ("src/kettle/tests.rs", "src/pot.rs")]
    )
    assert list(spans.values()) == [[(1, 5)]]  # tests.rs whole, pot.rs nothing


def test_a_declaration_no_longer_marked_leaves_its_module_production_code(tmp_path):
    files = {"src/kettle.rs": DECLARING, "src/kettle/tests.rs": MODULE_TESTS}
    service = indexed_service(files, tmp_path)
    child = service.store.file("src/kettle/tests.rs")
    assert child is not None and service.store.test_spans([child.id]) == {child.id: [(1, 5)]}
    (tmp_path / "repo" / "src" / "kettle.rs").write_text(
        DECLARING.replace("#[cfg(test)]\nmod tests;", "mod tests;")
    )
    Indexer(tmp_path / "repo", service.store, workers=0).run()
    assert service.store.test_spans([child.id]) == {}  # only the parent was read again


FILES_WITH_MOCKS = {
    "src/fs/mod.rs": "pub mod open;\n\n#[cfg(test)]\nmod mocks;\n",
    "src/fs/open.rs": "/// Opens a file for reading.\n"
    "pub fn open_file(path: &str) -> File {\n    File::at(path)\n}\n",
    "src/fs/mocks.rs": "/// A file opened for reading in memory: open a file, read the file.\n"
    "pub fn open_file(path: &str) -> MockFile {\n    MockFile::reading(path)\n}\n",
}


def test_a_declared_test_module_ranks_as_a_test_file(tmp_path):
    """As production code the mock was second, above the module declaring it."""
    found = indexed_service(FILES_WITH_MOCKS, tmp_path).search_code("open a file for reading", limit=3).chunks
    assert [c.metadata.filePath for c in found] == ["src/fs/open.rs", "src/fs/mod.rs", "src/fs/mocks.rs"]
