"""The reader's subject index (data/topics.json): a description of every verse, in pramana's own words."""

import json
import re
import unicodedata
from pathlib import Path

from pramana.gita import packaged
from pramana.gita.reference import VERSE_COUNT, all_refs
from tests.conftest import REPO_ROOT

TOPICS = REPO_ROOT / "src" / "pramana" / "gita" / "data" / packaged.TOPICS_FILE
MIN_WORDS, MAX_WORDS = 20, 60
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
