import sqlite3

import pytest

from pramana.store.fts import MAX_TERMS, quote, search_terms, words

NASTY = [
    '"',
    '""',
    "-",
    "OR",
    "AND NOT",
    "NEAR(a b)",
    "*",
    "a*",
    "(",
    ")",
    "col:x",
    "^x",
    "'; DROP TABLE t; --",
    "+",
]


def test_words_keeps_devanagari_with_its_vowel_signs():
    assert words("कर्मण्येवाधिकारस्ते मा फलेषु") == ["कर्मण्येवाधिकारस्ते", "मा", "फलेषु"]


def test_words_drops_operators_punctuation():
    assert words('karma "yoga" -(OR)* x:y') == ["karma", "yoga", "OR", "x", "y"]


@pytest.mark.parametrize("text", NASTY)
def test_quoted_terms_never_raise_fts_syntax_errors(text):
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    conn.execute("INSERT INTO t VALUES ('OR and NEAR are plain words here; a star * too')")
    for term in [text, *words(text)]:
        conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (quote(term),)).fetchone()
    assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 1


def test_quoted_operator_is_matched_as_a_word():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    conn.executemany("INSERT INTO t VALUES (?)", [("this OR that",), ("neither",)])
    assert conn.execute("SELECT body FROM t WHERE t MATCH ?", (quote("OR"),)).fetchall() == [
        ("this OR that",)
    ]


def test_search_terms_are_distinct_and_capped():
    assert search_terms("the The THE karma the yoga Karma") == ["the", "karma", "yoga"]
    many = " ".join(f"w{i}" for i in range(100))
    assert search_terms(many) == [f"w{i}" for i in range(MAX_TERMS)]
    assert search_terms(" ".join(["a"] * 250)) == ["a"]
