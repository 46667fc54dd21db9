"""Rust's attributes between a doc comment and its item belong to the item (issue 28's Java/Kotlin/PHP/Rust
held-out set: chrono's `/// The conversion result ...` then `#[derive(...)]` then `pub enum LocalResult`,
and every `#[inline]` method, left their docs in chunks of their own). Snippets of our own."""

from __future__ import annotations

from pramana.code.index.tables import RUST_ATTRIBUTES
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before

ORCHARD = """use std::fmt;

/// A fruit ready to be picked.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub enum Ripeness {
    Green,
    Ripe,
}

impl Ripeness {
    /// The stage after this one, wrapping to green.
    #[inline]
    pub fn next(&self) -> Ripeness {
        match *self {
            Ripeness::Green => Ripeness::Ripe,
            Ripeness::Ripe => Ripeness::Green,
        }
    }

    #[inline]
    pub fn is_ripe(&self) -> bool {
        *self == Ripeness::Ripe
    }
}
"""


def _symbols(source: str) -> dict[str, tuple[int, str]]:
    parsed = parse_file("src/orchard.rs", "rust", "root", source)
    return {s.name: (s.start_line, s.doc) for s in parsed.symbols}


def test_the_doc_above_the_attributes_is_the_items():
    symbols = _symbols(ORCHARD)
    assert symbols["Ripeness"] == (6, "A fruit ready to be picked.")
    assert symbols["next"] == (14, "The stage after this one, wrapping to green.")
    assert symbols["is_ripe"] == (22, "")  # an attribute alone is no doc


def test_the_chunk_starts_at_the_doc_comment():
    parsed = parse_file("src/orchard.rs", "rust", "root", ORCHARD)
    chunks = {c.name: (c.start_line, c.end_line) for c in parsed.chunks if c.name}
    assert chunks["Ripeness"] == (3, 9)
    assert chunks["next"][0] == 12 and chunks["is_ripe"][0] == 21
    module = [c for c in parsed.chunks if c.name is None]
    assert not any("A fruit ready" in c.content or "wrapping to green" in c.content for c in module)


def test_search_finds_the_method_by_its_doc(tmp_path):
    service = indexed_service({"src/orchard.rs": ORCHARD}, tmp_path)
    best = service.search_code("stage after this one wrapping", limit=1).chunks[0]
    assert (best.metadata.name, best.metadata.startLine) == ("next", 12)
    found = service.explain_code("Ripeness").definition
    assert found is not None and found.doc == "A fruit ready to be picked."


def test_an_index_made_before_reads_rust_again(tmp_path):
    files = {"src/orchard.rs": ORCHARD, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, root = reindexed_from_before(RUST_ATTRIBUTES, files, tmp_path)
    assert "src/orchard.rs" in report.changed_paths and "tools/gen.py" not in report.changed_paths
    assert CodeService(reopened, root).explain_code("Ripeness.next").definition is not None
