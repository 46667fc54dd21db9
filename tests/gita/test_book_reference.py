"""References to SB and CC verses and chapters, in every form the issue lists (no data needed)."""

from __future__ import annotations

import re

import pytest

from pramana.errors import InvalidInputError, NotFoundError
from pramana.gita.books import book_named, chosen_books
from pramana.gita.reference import ChapterRef, VerseRef, parse_chapter, parse_reference
from pramana.install import command


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("SB 1.2.6", "SB 1.2.6"),
        ("sb 1.2.6", "SB 1.2.6"),
        ("Śrīmad-Bhāgavatam 1.2.6", "SB 1.2.6"),
        ("Srimad Bhagavatam 1.2.6", "SB 1.2.6"),
        ("Bhāg. 1.2.6", "SB 1.2.6"),
        ("S.B. 1.2.6", "SB 1.2.6"),
        ("SB 1:2:6", "SB 1.2.6"),
        ("SB 10.1.5-7", "SB 10.1.5-7"),
        ("SB 4.29.1a-2a", "SB 4.29.1a-2a"),
        ("SB 4.29.1B", "SB 4.29.1b"),
        ("CC Ādi 17.31", "CC Ādi 17.31"),
        ("CC Adi 17.31", "CC Ādi 17.31"),
        ("cc adi 17.31", "CC Ādi 17.31"),
        ("CC Ādi-līlā 17.31", "CC Ādi 17.31"),
        ("Cc. Madhya 20.108", "CC Madhya 20.108"),
        ("CC Madhya 20.108-109", "CC Madhya 20.108-109"),
        ("Caitanya-caritāmṛta Antya 20.12", "CC Antya 20.12"),
        ("Chaitanya Charitamrita Antya 20.12", "CC Antya 20.12"),
        ("BG 2.47", "BG 2.47"),
        ("Bg. 2.47", "BG 2.47"),
    ],
)
def test_every_listed_form_reads_as_its_canonical_reference(text, canonical):
    assert str(parse_reference(text)) == canonical


def test_the_gita_keeps_its_references():
    assert parse_reference("BG 2.47") == VerseRef(2, 47) == VerseRef(2, 47, "BG")
    assert str(VerseRef(2, 47)) == "BG 2.47"


def test_a_reference_knows_its_book_division_and_joined_verses():
    ref = parse_reference("SB 10.1.5-7")
    assert (ref.book, ref.division, ref.chapter, ref.verse, ref.last) == ("SB", 10, 1, 5, 7)
    assert ref.joined and list(ref.members) == [5, 6, 7]
    assert ref.vedabase_url == "https://vedabase.io/en/library/sb/10/1/5-7/"
    cc = parse_reference("CC Madhya 20.108")
    assert (cc.book, cc.division, cc.chapter, cc.verse) == ("CC", 2, 20, 108)
    assert cc.vedabase_url == "https://vedabase.io/en/library/cc/madhya/20/108/"
    assert not cc.joined and list(cc.members) == [108]


def test_references_sort_by_book_then_number():
    refs = [parse_reference(t) for t in ("CC Ādi 1.1", "SB 10.1.1", "SB 2.1.1", "BG 18.78", "SB 2.1.10")]
    assert [str(r) for r in sorted(refs)] == ["BG 18.78", "SB 2.1.1", "SB 2.1.10", "SB 10.1.1", "CC Ādi 1.1"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("SB 13.1.1", "has 12 cantos"),
        ("SB 1.20.1", "SB 1 has 19 chapters"),
        ("SB 10.91.1", "SB 10 has 90 chapters"),
        ("CC Ādi 18.1", "CC Ādi has 17 chapters"),
        ("CC Madhya 26.1", "CC Madhya has 25 chapters"),
        ("SB 1.2.0", "numbered from 1"),
    ],
)
def test_references_past_the_books_structure_say_what_exists(text, message):
    with pytest.raises(NotFoundError, match=message):
        parse_reference(text)


@pytest.mark.parametrize("text", ["SB 1.2", "SB 1.2.6 and more", "CC 17.31", "CC Purana 1.1", "SB 1.2.7-5"])
def test_malformed_book_references_name_the_forms(text):
    with pytest.raises(InvalidInputError, match=r"SB 1\.2\.6|SB 10\.1\.5-7"):
        parse_reference(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SB 1.2", ChapterRef(2, "SB", 1)),
        ("Bhāg. 10.87", ChapterRef(87, "SB", 10)),
        ("CC Madhya 20", ChapterRef(20, "CC", 2)),
        ("Cc. Antya 20", ChapterRef(20, "CC", 3)),
        ("BG 2", ChapterRef(2)),
        ("2", ChapterRef(2)),
    ],
)
def test_chapter_references(text, expected):
    assert parse_chapter(text) == expected


def test_chapter_references_are_checked():
    assert str(parse_chapter("CC Madhya 20")) == "CC Madhya 20"
    with pytest.raises(NotFoundError, match="chapters 1-18"):
        parse_chapter("BG 19")
    with pytest.raises(NotFoundError, match="SB 3 has 33 chapters"):
        parse_chapter("SB 3.34")
    with pytest.raises(InvalidInputError, match=r"SB 1\.2"):
        parse_chapter("SB")


def test_books_by_name_and_the_filter():
    assert book_named("Bhāgavatam").code == "SB" and book_named("cc").code == "CC"
    with pytest.raises(InvalidInputError, match="nothing to install"):
        book_named("bg", installable=True)
    with pytest.raises(InvalidInputError, match="choose among"):
        book_named("quran")
    assert chosen_books(None, ["BG", "SB"]) == ["BG", "SB"]
    assert chosen_books(["sb", "BG", "SB"], ["BG", "SB"]) == ["BG", "SB"]
    install_cc = re.escape(command("gita install cc"))
    with pytest.raises(InvalidInputError, match=rf"CC \(.*\) is not installed: run `{install_cc}`"):
        chosen_books(["cc"], ["BG", "SB"])
