"""A query spelt the British way also searches the American spelling (issue 28's OCaml/C#/Scala/Dart
held-out set: "colour the vertices of a graph with k colours so that neighbours differ" met no word of
OCamlGraph's `coloring.ml`). Code spelt the British way is still found by the British word. Snippets
of our own."""

from __future__ import annotations

import pytest

from pramana.code.search.terms import american, query_terms
from tests.code.conftest import indexed_service


@pytest.mark.parametrize(
    ("british", "spelt"),
    [
        ("colour", "color"),
        ("colours", "colors"),
        ("neighbouring", "neighboring"),
        ("behaviour", "behavior"),
        ("flavour", "flavor"),
        ("initialise", "initialize"),
        ("serialisation", "serialization"),
        ("optimising", "optimizing"),
        ("organised", "organized"),
    ],
)
def test_a_british_spelling_has_its_american_one(british, spelt):
    assert american(british) == spelt


@pytest.mark.parametrize(
    "word", ["color", "hour", "four", "your", "promise", "raise", "otherwise", "bitwise"]
)
def test_other_words_have_none(word):
    assert american(word) is None


def test_the_query_searches_both_spellings_once():
    assert query_terms("colour the fences, colours of neighbours") == [
        "colour", "color", "fences", "colours", "colors", "neighbours", "neighbors",
    ]  # fmt: skip
    assert query_terms("color the fences") == ["color", "fences"]


PAINT = '''def color_fences(fences, palette):
    """Give each fence a color no neighbor shares."""
    for fence in fences:
        taken = {n.color for n in fence.neighbors}
        fence.color = next(c for c in palette if c not in taken)
'''

LADDER = '''def climb_ladder(ladder):
    """Step up every rung of the ladder."""
    for rung in ladder.rungs:
        rung.step()
'''

GOSSIP = '''def gossip(neighbours):
    """Pass the news over the fence to the neighbours."""
    for neighbour in neighbours:
        neighbour.hear("news")
'''

HEDGE = '''def trim_hedge(hedge, behaviour):
    """Trim a hedge the way its behaviour says."""
    return behaviour.trim(hedge)
'''


def test_a_british_question_finds_american_code_and_british_code(tmp_path):
    files = {
        "garden/paint.py": PAINT,
        "garden/ladder.py": LADDER,
        "garden/hedge.py": HEDGE,
        "garden/gossip.py": GOSSIP,
    }
    service = indexed_service(files, tmp_path)
    found = service.search_code("a colour unlike the neighbours", limit=3).chunks
    assert found[0].metadata.filePath == "garden/paint.py"  # not gossip.py, British as the query
    found = service.search_code("trim by behaviour", limit=3).chunks
    assert found[0].metadata.filePath == "garden/hedge.py"
