"""Loose spelling in every mode, prefix order, one hit per headword with a gloss, senses in order."""

import pytest

from pramana.sanskrit.service import gloss
from pramana.text.schemes import loose_key


def _words(found) -> list[str]:
    return [hit.word for hit in found.results]


def test_prefix_puts_the_shortest_headwords_first(sanskrit):
    found = sanskrit.search("kfzR", "prefix", limit=10)
    assert "kṛṣṇa" in _words(found)
    lengths = [len(hit.matched) for hit in found.results]
    assert lengths == sorted(lengths)


def test_prefix_of_a_whole_word_gives_the_word_first(sanskrit):
    found = sanskrit.search("agni", "prefix", ["ap90"], limit=5)
    assert found.results[0].matched == "agni" and found.results[0].word == "agniḥ"


@pytest.mark.parametrize(
    ("query", "mode", "word"),
    [("krishn", "prefix", "kṛṣṇa"), ("krsna", "fuzzy", "kṛṣṇa"), ("krishna", "fuzzy", "akṛṣṇa")],
)
def test_loose_spelling_in_prefix_and_fuzzy(sanskrit, query, mode, word):
    found = sanskrit.search(query, mode, ["ap90"], limit=100)
    assert word in _words(found)
    assert found.matched_by == "loose" and all(hit.loose for hit in found.results)


@pytest.mark.parametrize("mode", ["prefix", "fuzzy"])
def test_the_word_itself_then_longer_words_as_typed_then_loosely(sanskrit, mode):
    found = sanskrit.search("kfzRa", mode, ["ap90"], limit=1000)
    kinds = [
        0 if hit.matched == "kṛṣṇa" else 1 if loose_key(hit.matched) == "krsna" else 2 if not hit.loose else 3
        for hit in found.results
    ]
    assert kinds == sorted(kinds) and {0, 2, 3} <= set(kinds)
    assert found.results[0].word == "kṛṣṇa"
    assert all(hit.loose for hit in found.results if kinds[found.results.index(hit)] == 3)


def test_a_whole_word_in_loose_spelling_before_longer_words_as_typed(sanskrit):
    words = [hit.word for hit in sanskrit.search("rama", "prefix", ["ap90"], limit=10).results]
    assert words[0] == "rama" and words.index("rāma") < words.index("ramaṇa")


def test_one_hit_per_headword_with_its_senses_and_a_gloss(sanskrit):
    found = sanskrit.search("vA", "exact", ["ccs"])
    assert [(hit.word, hit.senses) for hit in found.results] == [("vā", 6)]
    article = sanskrit.get_article(found.results[0].article_id)
    assert [sense.number for sense in article.senses] == [1, 2, 3, 4, 5, 6]
    numbers = [int(sense.article_id.split(":")[1]) for sense in article.senses]
    assert numbers == sorted(numbers) and len(set(numbers)) == 6
    assert all(sense.markdown in article.markdown for sense in article.senses)
    later = sanskrit.get_article(article.senses[2].article_id)  # any other sense comes alone
    assert later.senses == [] and later.markdown == article.senses[2].markdown


def test_hits_carry_a_gloss(sanskrit):
    glosses = {hit.dict_code: hit.gloss for hit in sanskrit.search("agni", "exact", ["ap90", "ccs"]).results}
    assert glosses["ccs"].startswith("m. Feuer")
    assert glosses["ap90"].startswith("1 Fire") and "[" not in glosses["ap90"]
    assert all(len(text) <= 102 and "\n" not in text for text in glosses.values())


@pytest.mark.parametrize(
    ("opening", "expected"),
    [
        ("agni\n\nag-ni, m. fire; conflagration.", "ag-ni, m. fire; conflagration."),
        ("kṛṣṇa — a. [kṛṣ-nak] 1 Black.", "a. 1 Black."),
        ("Vana — — a son of Uśīnara.", "a son of Uśīnara."),
        ("धर्म [dharma] [dhárma]1 m. ( rarely n.", "1 m. (rarely n."),
        (
            "कृष्ण [kṛṣṇa] [kṛṣṇá]1 m. f. n. black , dark ( opposed to [śukla] , [rajata] )",
            "1 m. f. n. black, dark (opposed to [śukla], [rajata])",
        ),
        ("word — " + "long " * 40, "long " * 19 + "long …"),
    ],
)
def test_gloss(opening, expected):
    assert gloss(opening) == expected.strip()
