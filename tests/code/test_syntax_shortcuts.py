"""Shortcuts the tree-sitter reader takes must give what the long way gives.

`syntax._reached_types` and `SyntaxReader._definitions_in` name the same node types twice: the walk
skips a child whose type is not reached, so a branch added to `_definitions_in` for a field that
`_reached_types` leaves out would find nothing, silently; these tests tie the two together. And a
doc comment's first line read from its head (`_doc_line`) is the one read from the whole comment."""

from __future__ import annotations

import inspect
import re

import pytest

from pramana.code.languages import LANGUAGES, Language
from pramana.code.parse import syntax
from pramana.code.parse.syntax import SyntaxReader, _reached_types
from tests.code.languages_fixture import CASES

PARSED = [language for language in LANGUAGES if language.parsed]


def _dispatched_fields() -> set[str]:
    """The Syntax fields `_definitions_in` reads to choose how a node is read (`syntax.<field>`)."""
    source = inspect.getsource(SyntaxReader._definitions_in)
    return set(re.findall(r"\bsyntax\.(\w+)", source))


def test_definitions_in_dispatches_on_fields_the_test_knows():
    fields = _dispatched_fields()
    assert {"definitions", "declarations", "bindings", "wrappers", "containers", "transparent"} <= fields
    assert "call_definitions" in fields


@pytest.mark.parametrize("language", PARSED, ids=lambda language: language.name)
def test_every_node_type_definitions_in_reads_is_reached(language: Language):
    syntax = language.syntax
    assert syntax is not None
    reached = _reached_types(language.name)
    for field in _dispatched_fields():
        value = getattr(syntax, field)
        if field == "call_definitions":
            types = set() if value is None else {value.node, value.attribute_node}
        else:
            types = set(value)
        assert types <= reached, (field, sorted(types - reached))


class _Everything:
    def __contains__(self, item: object) -> bool:
        return True


def _read(case, reached_all: bool):
    reader = SyntaxReader(case.path, case.language, "root", case.source)
    if reached_all:
        reader._reached = _Everything()  # type: ignore[assignment]
    return reader.read()


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.language)
def test_skipping_unreached_children_loses_no_definition(case):
    """Reading every child gives what reading only the reached ones does, in each language's file."""
    assert _read(case, reached_all=False) == _read(case, reached_all=True)
    assert _read(case, reached_all=False).symbols  # the file defines something to lose


def _whole_comment_doc(lines: list[str]) -> str:
    """The first line of a doc comment as read from all of it (what _doc_line must give)."""
    comment = syntax._COMMENT_ENDS.sub("", "\n".join(lines))
    return syntax._first_line(syntax._MARKUP.sub("", syntax._COMMENT_MARKERS.sub("", comment)))


_BODY = [" * More about it.", " *", " * @param x the thing", " * @return what it gives", " */"]
DOC_COMMENTS = [
    ["/**", " * Counts the items.", " *", *_BODY],  # a Javadoc: read from its head
    ["/**", " * <p>Counts the items.</p>", *_BODY],  # markup in its line: read whole
    ["/**", " * Counts the items.", " *", " * <p>More.</p>", *_BODY],  # markup below it in the head
    ["/**", " * Counts the <a", " *   href='x'>items</a> of a cart.", *_BODY],  # a tag over two lines
    ["/**", " *", " *", " *", " *", " *", " * Said only after the head.", *_BODY],
    ["/**", " *", " *", " *", " *", " * The head's last line.", *_BODY],  # no line break after it
    ["/// Reads a frame.", "///", "/// # Errors", *(f"/// line {n}" for n in range(8))],
    ["-- |", "-- Parses a line.", "--", *(f"-- more {n}" for n in range(6))],  # Haskell's `-- |`
    ["/**", ' * Ends in a quote "', " *", *_BODY],
    ["(**", " * Folds a tree.  *)", *(f" {n}" for n in range(6)), " *)"],
    ["/**", "", "", "", "", "", "", " * After blank lines. */"],
]


@pytest.mark.parametrize("lines", DOC_COMMENTS, ids=range(len(DOC_COMMENTS)))
def test_a_doc_comments_first_line_from_its_head_is_the_whole_comments(lines):
    assert len(lines) > syntax.DOC_HEAD_LINES
    assert syntax._doc_line(lines) == _whole_comment_doc(lines)
    assert syntax._doc_line(lines)  # every one has a line to find


def test_a_doc_comment_read_from_its_head_is_read_from_its_head_only():
    """The head decides when it holds the line: what follows it is not read (a cut that read it all
    would give the same line, and save nothing)."""
    head = ["/**", " * Counts the items.", " *", " *", " *", " *"]
    assert syntax._doc_line([*head, " * <a unclosed tag"]) == "Counts the items."
    assert syntax._complete_first_line("\nCounts the items.\n\n") == "Counts the items."
    assert syntax._complete_first_line("\n  Only line  ") is None  # it may go on past the head
    assert syntax._complete_first_line("\nCounts the <a\nhref>items") is None  # markup may join lines
