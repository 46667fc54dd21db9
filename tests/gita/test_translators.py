import json
import re

import pytest

from pramana.errors import InvalidInputError
from pramana.gita.translators import TRANSLATORS, clean_author_text, resolve_translator


@pytest.mark.parametrize(
    ("raw", "chapter", "verse", "text"),
    [
        ("2.47 Thy right is to work only", 2, 47, "Thy right is to work only"),
        ("2.47. Let your claim lie on action", 2, 47, "Let your claim lie on action"),
        ("।।2.47।। कर्म करने मात्र में", 2, 47, "कर्म करने मात्र में"),
        ("2.47।।\u00a0व्याख्या--", 2, 47, "व्याख्या--"),
        (
            "You have a right to perform your prescribed duty",
            2,
            47,
            "You have a right to perform your prescribed duty",
        ),
    ],
)
def test_prefixes_are_stripped(raw, chapter, verse, text):
    cleaned = clean_author_text(raw, chapter, verse)
    assert cleaned is not None
    assert cleaned.text == text
    assert not cleaned.numbered_for_other_verse


@pytest.mark.parametrize(
    ("raw", "chapter", "verse"),
    [
        ("1.1 - 1.19 Dhrtarastra said", 1, 5),
        ("1.23. - 1.24. Sanjaya said", 1, 24),
        ("1.24  1.25 Sanjay said", 1, 24),
        ("।।1.28 1.29।।अर्जुन ने कहा", 1, 29),
        ("2.42-2.43  O son of Prtha", 2, 43),
        ("2.42-43 O son of Prtha", 2, 42),
    ],
)
def test_ranges_cover_their_verses(raw, chapter, verse):
    cleaned = clean_author_text(raw, chapter, verse)
    assert cleaned is not None and not cleaned.numbered_for_other_verse
    assert not cleaned.text[0].isdigit()


def test_text_numbered_for_another_verse_is_flagged():
    cleaned = clean_author_text("5.10 He who does actions, offering them to Brahman", 18, 45)
    assert cleaned is not None and cleaned.numbered_for_other_verse


@pytest.mark.parametrize(
    "raw",
    [
        "Sri Madhavacharya did not comment on this sloka",
        "There is no purport for this verse",
        # The forms the source's other placeholders take (each seen in the data).
        "2.47 Sri Abhinavgupta did not comment upon this sloka.",
        "2.47  2.48  Sri Abhinavgupta did not comment upon this sloka.",
        "2.47 Sri Sankaracharya did not comment on this sloka. The commentary starts from 2.11",
        "2.47 See Comment under 2.48",
        "2.47 See Coment under 2.48",
        "2৷৷47 See Comment under 2.48",
        "2.47 See Commentary under 2.48",
        "2.47 No such translation is available for this sloka.",
        "2.47 There is no such translation for this sloka.",
        "2.47 No Commentary.",
        "2.47 This sloka does not exit in Gitartha sangraha of Abhinavagupta.",
        "2.47 ",
        "   ",
        None,
        42,
    ],
)
def test_placeholders_and_empties_are_absent(raw):
    assert clean_author_text(raw, 2, 47) is None


@pytest.mark.parametrize(
    "raw",
    [
        "2.47 You have a right to work; no commentary can change that.",
        "2.47 See the commentary under 2.48 for the reasons: work without attachment.",
        "2.47 No translation can carry all of karma; work is your right.",
    ],
)
def test_texts_that_mention_placeholder_words_are_kept(raw):
    cleaned = clean_author_text(raw, 2, 47)
    assert cleaned is not None and cleaned.text == raw.removeprefix("2.47 ")


def test_no_author_text_in_the_source_is_a_placeholder(gita_mirror):
    """Every short text left after cleaning is a real translation, not a note about a missing one."""
    suspicious = []
    for path in sorted((gita_mirror / "slok").glob("*/*/index.json")):
        doc = json.loads(path.read_text("utf-8"))
        for author in (v for v in doc.values() if isinstance(v, dict)):
            for field in ("et", "ec"):
                cleaned = clean_author_text(author.get(field), doc["chapter"], doc["verse"])
                short = cleaned is not None and len(cleaned.text) < 90
                if short and re.search(r"\b(comment|commentary|translation|sloka)\b", cleaned.text, re.I):
                    suspicious.append((path.parent.name, field, cleaned.text))
    assert suspicious == []


def test_resolve_translator_by_key_name_or_part():
    assert resolve_translator(None).key == "prabhu"
    assert resolve_translator("").key == "prabhu"
    assert resolve_translator("siva").key == "siva"
    assert resolve_translator("Swami Sivananda").key == "siva"
    assert resolve_translator("sivananda").key == "siva"
    assert resolve_translator("Prabhupāda").key == "prabhu"
    assert resolve_translator("GAMBIRANANDA").key == "gambir"
    assert resolve_translator("Dr. S. Sankaranarayan").key == "san"


@pytest.mark.parametrize("name", ["nobody", "Swami", "Sri", "'; DROP TABLE verses; --"])
def test_unknown_or_ambiguous_translator_lists_choices(name):
    with pytest.raises(InvalidInputError, match="prabhu"):
        resolve_translator(name)


def test_the_22_authors_are_the_datasets(gita_mirror):
    doc = json.loads((gita_mirror / "slok" / "2" / "47" / "index.json").read_text("utf-8"))
    authors = {k: v["author"] for k, v in doc.items() if isinstance(v, dict)}
    assert len(TRANSLATORS) == 22
    assert authors == {key: t.name for key, t in TRANSLATORS.items()}
    for key, translator in TRANSLATORS.items():
        assert set(translator.fields) <= set(doc[key]) - {"author"} | {"ec"}
