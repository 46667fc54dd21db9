import json

import pytest

from pramana.errors import InvalidInputError, NotFoundError
from pramana.gita.reference import VERSE_COUNT, VERSES_PER_CHAPTER, VerseRef, all_refs, parse_reference


@pytest.mark.parametrize(
    "text",
    [
        "BG 2.47",
        "2.47",
        "2:47",
        "bg 2-47",
        "BG2.47",
        "  bg   2 . 47  ",
        "Bhagavad Gita 2.47",
        "BHAGAVAD GITA 2:47",
        "bhagavad-gita 2-47",
        "Bhagavad-gītā 2.47",
        "Bhagavadgita 2.47",
        "GITA 2.47",
        "gītā 2.47",
        "२.४७",  # Devanāgarī numerals
    ],
)
def test_accepted_forms(text):
    assert parse_reference(text) == VerseRef(2, 47)


def test_spec_examples():
    assert parse_reference("BG 9:34") == VerseRef(9, 34)
    assert parse_reference("bg 15-7") == VerseRef(15, 7)
    assert parse_reference("Bhagavad Gita 9.34") == VerseRef(9, 34)


@pytest.mark.parametrize(
    "text",
    [
        "BG 2.47 extra",
        "BG 2.47.1",
        "2",
        "BG",
        "SB 1.1",  # SB 1.1.1 is a reference now (test_books_reference.py); a chapter is no verse
        "CC 17.31",  # CC needs its līlā
        "2..47",
        "BG 2 47",
        "two.47",
        "2.47; DROP TABLE verses",
    ],
)
def test_malformed_references_are_rejected(text):
    with pytest.raises(InvalidInputError, match=r"BG 2\.47"):
        parse_reference(text)


@pytest.mark.parametrize("text", ["", "   ", "x" * 101])
def test_empty_or_huge_references_are_rejected(text):
    with pytest.raises(InvalidInputError):
        parse_reference(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("BG 19.1", "chapters 1-18"),
        ("BG 0.1", "chapters 1-18"),
        ("BG 2.73", "verses 1-72"),
        ("BG 2.0", "verses 1-72"),
        ("BG 13.36", "verses 1-35"),
        ("BG 18.79", "verses 1-78"),
    ],
)
def test_verses_that_do_not_exist(text, message):
    with pytest.raises(NotFoundError, match=message):
        parse_reference(text)


def test_701_verses_with_arjunas_question_as_13_1():
    assert VERSE_COUNT == 701
    assert parse_reference("13.1") == VerseRef(13, 1)
    assert parse_reference("13.35") == VerseRef(13, 35)
    assert len(all_refs()) == 701
    assert len(set(all_refs())) == 701


def test_vedabase_url_and_str():
    ref = VerseRef(2, 47)
    assert str(ref) == "BG 2.47"
    assert ref.vedabase_url == "https://vedabase.io/en/library/bg/2/47/"


def test_bounds_match_the_dataset(gita_mirror):
    chapters = json.loads((gita_mirror / "chapters" / "index.json").read_text("utf-8"))
    assert (
        tuple(c["verses_count"] for c in sorted(chapters, key=lambda c: c["chapter_number"]))
        == VERSES_PER_CHAPTER
    )
    for chapter, count in enumerate(VERSES_PER_CHAPTER, start=1):
        # slok/N/count+1 is the chapter colophon, not a verse
        assert (gita_mirror / "slok" / str(chapter) / str(count)).is_dir()
        colophon = json.loads(
            (gita_mirror / "slok" / str(chapter) / str(count + 1) / "index.json").read_text("utf-8")
        )
        assert "did not comment" in colophon["siva"]["et"]
