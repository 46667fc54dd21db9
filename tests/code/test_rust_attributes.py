"""A Rust doc comment above an item's attributes is the item's doc (issue 28's Java/Kotlin/PHP/Rust
held-out set: chrono's `/// The conversion result ...` then `#[derive(...)]` then `pub enum LocalResult`,
and every `#[inline]` method, had no doc). The doc is read through the attributes; the chunks stay as
they were (taking the doc and attributes into the item's chunk cost serde 0.022). Snippets of our own."""

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


def test_a_doc_between_attributes_is_read_too():
    attribute_first = ORCHARD.replace(
        "/// A fruit ready to be picked.\n#[derive(Clone, Debug, PartialEq)]\n",
        "#[derive(Clone, Debug, PartialEq)]\n/// A fruit ready to be picked.\n",
    )
    assert _symbols(attribute_first)["Ripeness"][1] == "A fruit ready to be picked."


def test_the_structural_tools_show_the_doc(tmp_path):
    service = indexed_service({"src/orchard.rs": ORCHARD}, tmp_path)
    found = service.explain_code("Ripeness").definition
    assert found is not None and found.doc == "A fruit ready to be picked."
    listed = {s.name: s.doc for s in service.list_functions("src/orchard.rs").symbols}
    assert listed["next"] == "The stage after this one, wrapping to green." and listed["is_ripe"] == ""


def test_an_index_made_before_reads_rust_again(tmp_path):
    files = {"src/orchard.rs": ORCHARD, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, root = reindexed_from_before(RUST_ATTRIBUTES, files, tmp_path)
    assert "src/orchard.rs" in report.changed_paths and "tools/gen.py" not in report.changed_paths
    assert CodeService(reopened, root).explain_code("Ripeness.next").definition is not None


def test_attributes_are_left_out_by_their_nodes_not_their_text():
    """The attribute's rows are what the doc leaves out, all of them (a `#[cfg_attr(` over three
    lines) and nothing else (a line of the comment that starts with `#[` is the comment's)."""
    spread = ORCHARD.replace(
        '#[cfg_attr(feature = "serde", derive(Serialize))]\n',
        '#[cfg_attr(\n    feature = "serde",\n    derive(Serialize)\n)]\n',
    )
    assert _symbols(spread)["Ripeness"][1] == "A fruit ready to be picked."
    hashed = ORCHARD.replace(
        "    /// The stage after this one, wrapping to green.\n",
        "    /*\n    #[inline] is enough: the stage after this one, wrapping to green.\n    */\n",
    )
    assert "is enough: the stage after this one" in _symbols(hashed)["next"][1]
