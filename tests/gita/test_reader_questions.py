"""The reader's questions (data/reader_questions.json): what a reader asks that each verse answers, in
pramana's own words, searched as a fourth field of question search and among its dense texts."""

import json
from pathlib import Path

import pytest

from pramana.gita import packaged
from pramana.gita.question import QuestionIndex, VerseTexts, split_translations
from pramana.gita.reference import VERSE_COUNT, VerseRef, all_refs
from tests.conftest import REPO_ROOT

from .own_text import copied, english_texts, mirror_runs

QUESTIONS = REPO_ROOT / "src" / "pramana" / "gita" / "data" / packaged.QUESTIONS_FILE
MIN_WORDS, MAX_WORDS = 4, 16


def test_every_verse_has_twelve_to_fifteen_distinct_questions_or_searches():
    document = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    assert document["about"].strip()
    asked = packaged.verse_questions()
    assert list(asked) == all_refs() and len(asked) == VERSE_COUNT == 701
    assert set(document) == {"about"} | {str(ref) for ref in asked}
    for ref, questions in asked.items():
        assert 12 <= len(questions) <= 15, ref
        assert len({q.lower() for q in questions}) == len(questions), ref
        for text in questions:
            assert text == text.strip() and "\n" not in text, (ref, text)
            assert MIN_WORDS <= len(text.split()) <= MAX_WORDS, (ref, text)


def test_no_question_copies_a_run_of_words_from_the_mirror(gita_mirror: Path):
    """A copyright guard, as for the subject index: no question shares SHARED_RUN words in a row
    with any English text of any author."""
    asked = ((ref, text) for ref, questions in packaged.verse_questions().items() for text in questions)
    found = copied(asked, mirror_runs(gita_mirror))
    assert not found, found


@pytest.mark.parametrize(
    ("asked", "verse"),
    [
        # the translations say "Bhishma, Karna, Kripa", never "Duryodhana's side": not in the first 10 without
        ("Which famous warriors fought on Duryodhana's side?", VerseRef(1, 8)),
        ("Where do souls go when they escape rebirth for good?", VerseRef(8, 21)),
        ("Is giving donations just to show off a demonic trait?", VerseRef(16, 15)),
    ],
)
def test_a_readers_question_finds_its_verse_only_through_that_field(seeded_db, asked, verse):
    texts = english_texts(seeded_db)
    assert asked in packaged.verse_questions()[verse]
    with_questions = QuestionIndex(split_translations(texts), None)
    without = QuestionIndex(split_translations(texts, questions={}), None)
    assert with_questions.search(asked, 5)[0].ref == verse
    assert verse not in [hit.ref for hit in without.search(asked, 10)]


def test_each_question_is_a_dense_text_of_its_verse():
    verse = VerseTexts(VerseRef(2, 47), ["a translation"], [], "a description", ("one?", "two?"))
    assert verse.dense_texts == ["a translation", "a description", "one?", "two?"]


def test_sanskrit_in_a_readers_question_does_not_make_a_sanskrit_query_read_as_english(seeded_db):
    # 2.47's questions name it by its Sanskrit; a Sanskrit query still goes to the transliteration index
    asked = packaged.verse_questions()[VerseRef(2, 47)]
    assert any("karmanye vadhikaraste" in question.lower() for question in asked)
    index = QuestionIndex(split_translations(english_texts(seeded_db)), None)
    assert not index.reads_as_english("karmanye vadhikaraste")
    assert index.reads_as_english("what does the Gita say about the restless mind")
