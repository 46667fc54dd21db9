"""The reader's subject index (data/topics.json): a description of every verse, in pramana's own words."""

import json
import re
from pathlib import Path

import pytest

from pramana.gita import packaged
from pramana.gita.question import QuestionIndex, split_translations
from pramana.gita.reference import VERSE_COUNT, VerseRef, all_refs
from tests.conftest import REPO_ROOT

from .own_text import copied, english_texts, mirror_runs, words

TOPICS = REPO_ROOT / "src" / "pramana" / "gita" / "data" / packaged.TOPICS_FILE
MIN_WORDS, MAX_WORDS = 25, 60


def test_every_verse_has_a_description_of_one_to_three_sentences():
    document = json.loads(TOPICS.read_text(encoding="utf-8"))
    assert document["about"].strip()
    topics = packaged.verse_topics()
    assert list(topics) == all_refs() and len(topics) == VERSE_COUNT == 701
    assert set(document) == {"about"} | {str(ref) for ref in topics}
    for ref, text in topics.items():
        assert text == text.strip() and "\n" not in text, ref
        assert MIN_WORDS <= len(words(text)) <= MAX_WORDS, (ref, len(words(text)))
        assert 1 <= len(re.findall(r"[.?!]['\"]?(?:\s|$)", text)) <= 3, ref


def test_no_description_copies_a_run_of_words_from_the_mirror(gita_mirror: Path):
    """A copyright guard: the translations are the works of named authors, the descriptions are
    paraphrases; none shares SHARED_RUN words in a row with any English text of any author."""
    found = copied(packaged.verse_topics().items(), mirror_runs(gita_mirror))
    assert not found, found


@pytest.mark.parametrize(
    ("question", "verse"),
    [
        # the translations name the conches and Nakula and Sahadeva, never "twins": 7th without the index
        ("which conch shells did the twin brothers blow", VerseRef(1, 16)),
        # they say "roots upward" and "branches downward", never "upside-down": 2nd without it
        ("the upside-down tree with roots above", VerseRef(15, 1)),
        # they say "does nothing in return" or "no return", not "repay": 2nd without it
        ("a gift given to someone who cannot repay it", VerseRef(17, 20)),
    ],
)
def test_a_question_in_everyday_words_finds_the_verse_its_description_covers(seeded_db, question, verse):
    texts = english_texts(seeded_db)
    described = QuestionIndex(split_translations(texts, questions={}), None)
    undescribed = QuestionIndex(split_translations(texts, topics={}, questions={}), None)
    assert described.search(question, 5)[0].ref == verse
    assert undescribed.search(question, 5)[0].ref != verse
