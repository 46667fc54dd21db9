"""The shape of questions_fresh.json, the independent question set (its "about" says how it was made).

Only the shape: which verses answer each question was checked by hand against the translations.
"""

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from pramana.gita import packaged

FILE = Path(__file__).parent / "questions_fresh.json"
CHAPTERS = range(1, 19)
PER_CHAPTER = 5


@pytest.fixture(scope="module")
def document() -> dict:
    return json.loads(FILE.read_text("utf-8"))


@pytest.fixture(scope="module")
def questions(document) -> list[dict]:
    return document["questions"]


def _verse_ids() -> set[str]:
    """Each of the 701 verses of the packaged text, written as "BG 2.47"."""
    return {str(ref) for ref in packaged.packaged_verses()}


def test_the_file_says_what_it_is(document):
    assert set(document) == {"about", "questions"}
    assert isinstance(document["about"], str) and len(document["about"]) > 200


def test_ninety_questions_numbered_in_order(questions):
    assert len(questions) == len(CHAPTERS) * PER_CHAPTER == 90
    assert [q["id"] for q in questions] == list(range(1, 91))
    for q in questions:
        assert set(q) == {"id", "chapter", "question", "answers", "second_judge"}, q


def test_five_questions_per_chapter(questions):
    assert Counter(q["chapter"] for q in questions) == dict.fromkeys(CHAPTERS, PER_CHAPTER)


def test_every_answer_is_a_real_verse_of_its_chapter(questions):
    verses = _verse_ids()
    assert len(verses) == 701
    for q in questions:
        answers = q["answers"]
        assert 1 <= len(answers) <= 4, q
        assert len(set(answers)) == len(answers), q
        for answer in answers:
            assert answer in verses, q
            assert re.fullmatch(rf"BG {q['chapter']}\.\d+", answer), q


def test_the_second_judges_answers_are_real_verses(questions):
    """Its verses may be of any chapter: it judged verses that rankings found, wherever they were."""
    verses = _verse_ids()
    for q in questions:
        assert len(set(q["second_judge"])) == len(q["second_judge"]) <= 10, q
        assert set(q["second_judge"]) <= verses, q


def test_questions_are_plain_text_and_not_repeated(questions):
    texts = [q["question"] for q in questions]
    for text in texts:
        assert isinstance(text, str) and text == text.strip() and len(text) >= 10, text
    folded = [" ".join(re.findall(r"\w+", text.casefold())) for text in texts]
    assert len(set(folded)) == len(folded), [t for t, n in Counter(folded).items() if n > 1]
