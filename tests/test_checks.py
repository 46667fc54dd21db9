"""The one check of text inputs every server uses (pramana/checks.py)."""

from __future__ import annotations

import pytest

from pramana.checks import required_text
from pramana.errors import InvalidInputError


@pytest.mark.parametrize("value", ["", "   ", "\n\t", None])
def test_empty_text_is_refused_naming_the_parameter(value):
    with pytest.raises(InvalidInputError) as raised:
        required_text(value, "query", 10, empty_hint="give a word")
    assert str(raised.value) == "query is empty; give a word" and raised.value.parameter == "query"
    assert raised.value.worded_for({"query": "QUERY"}) == "QUERY is empty; give a word"


def test_text_over_its_limit_is_refused_with_the_sizes():
    with pytest.raises(InvalidInputError) as raised:
        required_text("x" * 12_345, "sentence", 10_000, too_long_hint="send it in parts")
    assert str(raised.value) == "sentence is 12,345 characters; the limit is 10,000: send it in parts"
    required_text("x" * 10_000, "sentence", 10_000)  # the limit itself is allowed


def test_text_comes_back_as_sent_unless_asked_to_strip():
    assert required_text("  karma  ", "query", 10) == "  karma  "
    assert required_text("  karma  ", "query", 10, strip=True) == "karma"
