"""The reader's subject index (data/topics.json): a description of every verse, in pramana's own words."""

import json
import re
import unicodedata
from pathlib import Path

import pytest

from pramana.config import GitaSettings
from pramana.gita import packaged
from pramana.gita.question import QuestionIndex, split_translations
from pramana.gita.reference import VERSE_COUNT, VerseRef, all_refs
from pramana.gita.service import GitaService
from tests.conftest import REPO_ROOT

TOPICS = REPO_ROOT / "src" / "pramana" / "gita" / "data" / packaged.TOPICS_FILE
MIN_WORDS, MAX_WORDS = 25, 60
SHARED_RUN = 8  # words in a row a description may not share with any translation or commentary


def _words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text.lower())
    return re.findall(r"[a-z]+", "".join(ch for ch in folded if not unicodedata.combining(ch)))


def test_every_verse_has_a_description_of_one_to_three_sentences():
    document = json.loads(TOPICS.read_text(encoding="utf-8"))
    assert document["about"].strip()
    topics = packaged.verse_topics()
    assert list(topics) == all_refs() and len(topics) == VERSE_COUNT == 701
    assert set(document) == {"about"} | {str(ref) for ref in topics}
    for ref, text in topics.items():
        assert text == text.strip() and "\n" not in text, ref
        assert MIN_WORDS <= len(_words(text)) <= MAX_WORDS, (ref, len(_words(text)))
        assert 1 <= len(re.findall(r"[.?!]['\"]?(?:\s|$)", text)) <= 3, ref


def test_no_description_copies_a_run_of_words_from_the_mirror(gita_mirror: Path):
    """A copyright guard: the translations are the works of named authors, the descriptions are
    paraphrases; none shares SHARED_RUN words in a row with any English text of any author."""
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
    for ref, text in packaged.verse_topics().items():
        words = _words(text)
        shared = [" ".join(words[i : i + SHARED_RUN]) for i in range(len(words) - SHARED_RUN + 1)]
        shared = [run for run in shared if tuple(run.split()) in runs]
        if shared:
            copied[str(ref)] = shared[0]
    assert not copied, copied


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
    service = GitaService(
        GitaSettings(db_path=seeded_db, api_url="http://127.0.0.1:9"), embedder_factory=lambda: None
    )
    try:
        texts = service.store.english_texts()
    finally:
        service.close()
    described = QuestionIndex(split_translations(texts, questions={}), None)
    undescribed = QuestionIndex(split_translations(texts, topics={}, questions={}), None)
    assert described.search(question, 5)[0].ref == verse
    assert undescribed.search(question, 5)[0].ref != verse
