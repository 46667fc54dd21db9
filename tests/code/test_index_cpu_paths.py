"""The shortcuts a cold index takes per file find what the longer way found: masks searched from line
breaks, one-case words split without the regular expression, glued acronyms looked for only where a
run of capitals can be, piece ids packed as bytes (issue 28's per-file CPU)."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pramana.code.languages import C
from pramana.code.parse.syntax import _compiled, _Mask
from pramana.code.search.terms import MAX_TERM_CHARS, STOP_WORDS, _identifier_terms
from pramana.text.identifiers import glued_acronyms, split_identifier

_GLUED_RUN = re.compile(r"[A-Z]{6,}(?=[A-Z][a-z])")


def _terms_the_long_way(identifier: str) -> tuple[str, ...]:
    """_identifier_terms as written before its one-case shortcut (a number aside: it is its own term)."""
    parts = [p for p in split_identifier(identifier) if len(p) > 1 or p.isdigit()]
    found = [p for p in parts if p not in STOP_WORDS]
    whole = identifier.lower().strip("_")
    if len(parts) > 1 and len(whole) <= MAX_TERM_CHARS:
        found.append(whole.replace("_", ""))
    for piece in identifier.split("_"):
        run = _GLUED_RUN.match(piece)
        if run is not None:
            letters = run[0].lower()
            found += [a for a in (letters[2:], letters[3:]) if a not in STOP_WORDS]
    return tuple(found)


@settings(max_examples=500)
@given(st.text(alphabet="aAbBzZ09_é", max_size=16) | st.sampled_from(["self", "MAX", "if", "IF", "x", "the"]))
def test_a_words_terms_are_those_of_the_long_way(identifier):
    if not (identifier.isdigit() and identifier.isascii()):
        assert _identifier_terms(identifier) == _terms_the_long_way(identifier)


@settings(max_examples=500)
@given(st.text(alphabet="ABCDEFGHabc1É_", max_size=14))
def test_glued_acronyms_are_looked_for_only_where_they_can_be(piece):
    run = _GLUED_RUN.match(piece)
    expected = () if run is None else (run[0].lower()[2:], run[0].lower()[3:])
    assert glued_acronyms(piece) == expected


def test_glued_acronyms_of_a_class_prefix():
    assert glued_acronyms("GSHTTPAuthentication") == ("http", "ttp")
    assert glued_acronyms("NSURLSession") == () and glued_acronyms("NSJSONx") == ()


def _same_matches(mask: _Mask, source: bytes) -> None:
    expected = [(m.span(name) if m.start(name) >= 0 else None) for m in mask.pattern.finditer(source)
                for name in mask.pattern.groupindex]  # fmt: skip
    found = [(m.span(name) if m.start(name) >= 0 else None) for m in mask.matches(source)
             for name in mask.pattern.groupindex]  # fmt: skip
    assert found == expected, source


C_SNIPPETS = [
    b"UV_EXTERN int uv_run(uv_loop_t* loop);\n",
    b"static int foo(void) UV_NOEXCEPT {\n  return 0;\n}\nEXPORT_MACRO\nEXPORT_MACRO\n",
    b"EXPORT_MACRO\n\nstruct API_EXPORT Foo {\n};\nint x;\nSPDLOG_INLINE void f() {}\n",
    b"typedef NS_ENUM(NSInteger, RCTKind) {\n  RCTA,\n} NS_SWIFT_NAME(Kind);\n",
    b"\n\n\nMACRO_ONE\nMACRO_TWO(a, b)\n  MACRO_THREE  \n",
    b"",
]


def test_c_masks_find_what_a_search_at_every_byte_finds():
    masks = _compiled(C.masks)
    assert sum(mask.after_break is not None for mask in masks) >= 5  # most start at a line start
    for mask in masks:
        for snippet in C_SNIPPETS:
            _same_matches(mask, snippet)


@settings(max_examples=300)
@given(
    st.lists(
        st.sampled_from([b"MACRO_ONE", b"\n", b" ", b"(x)", b"int f()", b"{", b"}", b";", b"A"]), max_size=30
    )
)
def test_masks_from_line_breaks_match_as_finditer(pieces):
    source = b"".join(pieces)
    for mask in _compiled(C.masks):
        _same_matches(mask, source)
    # a match that takes in the line break before the next one, a `^` of the first alternative only,
    # and a pattern that can match nothing
    for pattern in (r"(?m)^(?P<mask>A[^\n]*\n)", r"(?m)^(?P<mask>A)|(?P<other>;)", r"(?m)^(?P<mask>A*)"):
        _same_matches(_Mask.compiled(pattern), source)


def test_a_caret_of_the_first_alternative_only_is_searched_as_written():
    assert _Mask.compiled(r"(?m)^a|b").after_break is None
    assert _Mask.compiled(r"(?m)^(?:a|b)").after_break is not None
    assert _Mask.compiled(r"\bclass\s+").after_break is None


def test_packed_piece_ids_are_the_ids(static):
    pieces = static._pieces
    for text in ["fn main() -> Result<(), E> {}", "parse_http_response v2 ÜberTyp", "", "  ;; "]:
        assert pieces.packed_text_ids(text) == np.array(pieces.text_ids(text), dtype=np.intp).tobytes()
    head, words = "src/lib.rs function parse\n", ["parse", "http_body", "42"]
    ids = pieces.text_ids(head) + [i for word in words for i in pieces[word]]
    assert pieces.packed_found_ids(head, words) == np.array(ids, dtype=np.intp).tobytes()
