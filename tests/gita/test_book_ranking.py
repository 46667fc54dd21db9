"""The question ranking of the installed books (pramana.gita.book_ranking): one ranking over every
book's verses, each search limited to the books it asks for. The verses' translations and word meanings
here were written for these tests (none is the BBT's); their Sanskrit lines are short made-up lines."""

import pytest

from pramana.gita.book_ranking import BooksRanking, book_entries
from pramana.gita.ranking import VerseRanking
from pramana.gita.reference import parse_reference
from pramana.gita.store import StoredBookVerse


def _verse(ref: str, sanskrit: str, translation: str = "", synonyms: str = "") -> StoredBookVerse:
    return StoredBookVerse(parse_reference(ref), sanskrit, translation, synonyms, prose=False)


STORED = [
    _verse(
        "SB 1.2.6",
        "sa vai puṁsāṁ paro dharmo yato bhaktir adhokṣaje",
        "The highest calling of a person is a steady love that asks for nothing.",
        "saḥ — that; vai — surely; paraḥ — highest; dharmaḥ — calling; bhaktiḥ — steady love",
    ),
    _verse(
        "SB 1.3.28",
        "ete cāṁśa-kalāḥ puṁsaḥ kṛṣṇas tu bhagavān svayam",
        "These are portions of the person, but the lantern keeper himself is the source.",
        "ete — these; aṁśa — portions; svayam — himself",
    ),
    _verse("SB 10.1.1", "rājā nagaraṁ praviveśa saha sainyena"),  # installed without translation
    _verse(
        "CC Ādi 17.31",
        "tṛṇād api sunīcena taror api sahiṣṇunā",
        "Humbler than grass, more patient than a tree, one should sing the names always.",
        "tṛṇāt — than grass; api — even; sunīcena — lower; taroḥ — than a tree; sahiṣṇunā — patient",
    ),
]


@pytest.fixture(scope="module")
def books():
    return BooksRanking(VerseRanking.of_book(book_entries(STORED)), [v.ref.book for v in STORED])


def ranked(books, query, codes=("SB", "CC"), limit=3):
    return [str(hit.ref) for hit in books.rank(query, limit, (), books.read(query), list(codes))]


def test_the_ranking_holds_every_book_in_order_and_knows_it_has_translations(books):
    assert books.books == ["SB", "CC"] and books.translated and not books.semantic


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("what is bhakti", "SB 1.2.6"),  # loose Sanskrit: the verse's own word
        ("trinad api suneechena", "CC Ādi 17.31"),  # popular spelling, no marks
        ("krishna bhagavan swayam", "SB 1.3.28"),
        ("be more patient than a tree", "CC Ādi 17.31"),  # English words of a translation
        ("raja nagaram pravivesha", "SB 10.1.1"),  # a verse installed without translation: its words
    ],
)
def test_questions_reach_the_books_verses(books, query, first):
    assert ranked(books, query)[0] == first


def test_a_search_returns_only_the_books_it_asks_for(books):
    assert all(ref.startswith("SB") for ref in ranked(books, "patient than a tree", ["SB"]))
    assert all(ref.startswith("CC") for ref in ranked(books, "steady love calling", ["CC"]))
    assert ranked(books, "steady love calling", ["SB"])[0] == "SB 1.2.6"


def test_sanskrit_words_are_read_in_english_from_the_books_word_meanings(books):
    read = books.read("sahishnuna sunichena")  # the word meanings' English: "patient", "lower"
    assert read.share == 1.0 and read.english.split() == ["patient", "lower"]
