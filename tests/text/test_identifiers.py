"""Identifier splitting: cached by `_`-free piece (split_piece), the same words as splitting whole."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pramana.code.search.terms import _identifier_terms, _stemmed_terms, chunk_bag
from pramana.text.identifiers import is_number, split_identifier, split_piece
from pramana.text.stem import stem

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def _split_whole(identifier: str) -> list[str]:
    """The split as it was written before the pieces were cached: every piece split afresh."""
    parts: list[str] = []
    for piece in identifier.split("_"):
        parts.extend(p.lower() for p in _CAMEL.findall(piece) or [piece])
    return [p for p in parts if p]


def test_identifiers_split_as_people_say_them():
    assert split_identifier("parseHTTPResponse_v2") == ["parse", "http", "response", "v", "2"]
    assert split_identifier("__init__") == ["init"]
    assert split_identifier("naïveCafé") == ["na", "ve", "caf"]  # letters beyond ASCII are not cut
    assert split_piece("") == () and split_identifier("_") == []


@settings(max_examples=400)
@given(st.text(alphabet="aZbY09_é²xX", max_size=24))
def test_a_split_by_cached_pieces_is_the_whole_split(identifier):
    assert split_identifier(identifier) == _split_whole(identifier)


def test_a_number_is_ascii_digits_alone():
    assert is_number("2024") and is_number("0")
    assert not is_number("²") and not is_number("٣")  # digits to str.isdigit, not numbers here
    assert not is_number("v2") and not is_number("1.5") and not is_number("")


@settings(max_examples=300)
@given(st.integers(min_value=0, max_value=10**40))
def test_a_number_is_its_own_term_as_stemming_would_leave_it(number):
    digits = str(number)
    assert _identifier_terms(digits) == (digits,)
    assert _stemmed_terms(digits) == (stem(digits),) == (digits,)


def test_a_names_identifiers_count_three_times_each_use():
    bag = chunk_bag("Parser", "parse parse", [], "parse(x); parse(y); 0x1f")
    assert bag == {"parser": 3.0, "pars": 6.0 + 2.0, "0": 1.0, "1": 1.0, "0x1f": 1.0}
    assert list(bag) == ["parser", "pars", "0", "1", "0x1f"]  # the order terms come in: the lexicon's
