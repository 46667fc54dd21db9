"""The reader's questions (data/reader_questions.json): what a reader asks that each verse answers, in
pramana's own words, searched as a fourth field of question search and among its dense texts."""

import json
import re
import unicodedata
from pathlib import Path

import pytest

from pramana.config import GitaSettings
from pramana.gita import packaged
from pramana.gita.question import QuestionIndex, VerseTexts, split_translations
from pramana.gita.reference import VERSE_COUNT, VerseRef, all_refs
from pramana.gita.service import GitaService
from tests.conftest import REPO_ROOT

QUESTIONS = REPO_ROOT / "src" / "pramana" / "gita" / "data" / packaged.QUESTIONS_FILE
MIN_WORDS, MAX_WORDS = 4, 16
SHARED_RUN = 8  # words in a row a question may not share with any translation or commentary


def _words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text.lower())
    return re.findall(r"[a-z]+", "".join(ch for ch in folded if not unicodedata.combining(ch)))


def test_every_verse_has_nine_to_twelve_distinct_questions_or_searches():
    document = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    assert document["about"].strip()
    asked = packaged.verse_questions()
    assert list(asked) == all_refs() and len(asked) == VERSE_COUNT == 701
    assert set(document) == {"about"} | {str(ref) for ref in asked}
    for ref, questions in asked.items():
        assert 9 <= len(questions) <= 12, ref
        assert len({q.lower() for q in questions}) == len(questions), ref
        for text in questions:
            assert text == text.strip() and "\n" not in text, (ref, text)
            assert MIN_WORDS <= len(text.split()) <= MAX_WORDS, (ref, text)


def test_no_question_copies_a_run_of_words_from_the_mirror(gita_mirror: Path):
    """A copyright guard, as for the subject index: no question shares SHARED_RUN words in a row
    with any English text of any author."""
    runs: set[tuple[str, ...]] = set()
    for ref in all_refs():
        path = gita_mirror / "slok" / str(ref.chapter) / str(ref.verse) / "index.json"
        verse = json.loads(path.read_text(encoding="utf-8"))
        for fields in verse.values():
            if isinstance(fields, dict):
                for field in ("et", "ec"):
                    words = _words(fields.get(field, ""))
                    runs.update(tuple(words[i : i + SHARED_RUN]) for i in range(len(words) - SHARED_RUN + 1))
    copied = {}
    for ref, questions in packaged.verse_questions().items():
        for text in questions:
            words = _words(text)
            shared = [tuple(words[i : i + SHARED_RUN]) for i in range(len(words) - SHARED_RUN + 1)]
            if any(run in runs for run in shared):
                copied[str(ref)] = text
    assert not copied, copied


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
    service = GitaService(
        GitaSettings(db_path=seeded_db, api_url="http://127.0.0.1:9"), embedder_factory=lambda: None
    )
    try:
        texts = service.store.english_texts()
    finally:
        service.close()
    assert asked in packaged.verse_questions()[verse]
    with_questions = QuestionIndex(split_translations(texts), None)
    without = QuestionIndex(split_translations(texts, questions={}), None)
    assert with_questions.search(asked, 5)[0].ref == verse
    assert verse not in [hit.ref for hit in without.search(asked, 10)]


def test_each_question_is_a_dense_text_of_its_verse():
    verse = VerseTexts(VerseRef(2, 47), ["a translation"], [], "a description", ("one?", "two?"))
    assert verse.dense_texts == ["a translation", "a description", "one?", "two?"]
