"""Reading upstream's archive: every quirk PROVENANCE.md lists (and two it does not), on a small
archive in upstream's layout written for these tests; the structure check on what is missing."""

from __future__ import annotations

import json

import pytest

from pramana.errors import SourceError
from pramana.gita.book_source import read_source, structure_problems
from pramana.gita.books import Book
from pramana.gita.reference import VerseRef
from tests.gita.book_archive import verse_file, write_archive, write_folder

# Two cantos: 1 with chapters 1 (verses 1, 2-3) and 2 (verses 1, 2, then the lettered 1a-2a, 1b),
# 2 with chapter 1 (verses 1-2): seven verses by number.
TINY_SB = Book("SB", "sb", "Test Bhāgavatam", "canto", ("1", "2"), ("1", "2"), (2, 1), 7)
TINY_CC = Book(
    "CC",
    "cc",
    "Test Caritāmṛta",
    "līlā",
    ("Ādi", "Madhya", "Antya"),
    ("adi", "madhya", "antya"),
    (1, 0, 0),
    2,
)

FILES: dict[str, str | bytes] = {
    # the stray '/' that makes three of upstream's files invalid JSON; ṟ and ḻ for ṝ and l̐
    "sb/1/1/1.json": verse_file("sb/1/1/1", "oṁ pitṟn namaḥ\nsa mahāḻ loke\n").replace(
        '"prevId": "sb/1/1/1"', '"prevId":/null'
    ),
    # a joined verse, one stanza per verse, one of them an empty string as upstream has some
    "sb/1/1/2-3.json": verse_file("sb/1/1/2-3", "prathamaṁ padam\nsecond line\n", "", "tṛtīyaṁ padam\n"),
    "sb/1/2/1.json": verse_file(
        "sb/1/2/1",
        "śrī-śuka uvāca\nsatyaṁ paraṁ dhīmahi\n",
        translation="A quillwort sentence of our own.",
        synonyms="satyam—quillwort truth; param—quillwort highest",
        purport=[{"type": "normal", "content": "A lanternfish purport."}],
    ),
    # word meanings and a translation pasted into the verse text (CC Ādi 1.4 upstream)
    "sb/1/2/2.json": verse_file(
        "sb/1/2/2",
        "anarpita-carīṁ cirāt\nkaruṇayāvatīrṇaḥ kalau\n"
        "anarpita—not given; carīm—before; cirāt—for long\nTRANSLATION\nA quillwort pasted sentence.\n"
        "Link to this page: https: /example.org/x\nPrevious: Adi 1.3     Next: Adi 1.5\n",
    ),
    "sb/1/2/1a-2a.json": verse_file("sb/1/2/1a-2a", "sarveṣām eva\n", "labdhvehānte\n"),
    "sb/1/2/1b.json": verse_file("sb/1/2/1b", "bhaktiḥ kṛṣṇe dayā\n"),
    "sb/1/2/summary.json": json.dumps({"info": {"id": "sb/1/2/summary"}, "verses": None}),
    "sb/2/appendix.json": json.dumps({"verses": None}),
    "sb/2/1/1.json": verse_file("sb/2/1/1", "eka-dvi-tri\n"),
    "sb/2/1/2.json": verse_file("sb/2/1/2", "bahu-pādam\n"),
    # CC: backslashed ids and a prevId pointing at an SB verse; a verse with no text at all
    "cc/adi/1/1.json": verse_file("cc\\adi\\1\\1", "vande gurūn\n"),
    "cc/adi/1/2.json": verse_file("cc\\adi\\1\\2", ""),
    "cc/adi/2/debug.log": "not a verse",
    "bg/1/1.json": verse_file("bg/1/1", "not read"),
}


@pytest.fixture(params=["tar.gz", "folder"])
def source(request, tmp_path):
    if request.param == "folder":
        return write_folder(FILES, tmp_path)
    return write_archive(FILES, tmp_path / "slides.tar.gz")


def read(path, books=(TINY_SB, TINY_CC)):
    return read_source(path, list(books))


def texts(data):
    return {str(v.ref): v for v in data.verses}


def test_every_quirk_is_read_from_an_archive_or_its_folder(source):
    archive = read(source)
    assert archive.version == "2460884c17200ac6861bbaa479b1662e416461fe"
    sb, cc = archive.books["SB"], archive.books["CC"]
    assert structure_problems(sb) == [] and structure_problems(cc) == []
    assert sb.verse_count == 7 and cc.verse_count == 2
    verses = texts(sb)
    assert list(verses) == [
        "SB 1.1.1", "SB 1.1.2-3", "SB 1.2.1", "SB 1.2.2", "SB 1.2.1a-2a", "SB 1.2.1b", "SB 2.1.1", "SB 2.1.2",
    ]  # fmt: skip
    first = verses["SB 1.1.1"].transliteration
    assert first == "oṁ pitṝn namaḥ\nsa mahāl\u0310 loke"  # ṟ → ṝ, ḻ → l̐
    assert verses["SB 1.1.2-3"].transliteration == "prathamaṁ padam\nsecond line\n\ntṛtīyaṁ padam"
    assert verses["SB 1.1.2-3"].ref == VerseRef(1, 2, "SB", 1, 3)
    own = verses["SB 1.2.1"]
    assert own.translation == "A quillwort sentence of our own." and own.synonyms.startswith("satyam—")
    assert "lanternfish" not in repr(archive)  # purports are never read
    pasted = verses["SB 1.2.2"]
    assert pasted.transliteration == "anarpita-carīṁ cirāt\nkaruṇayāvatīrṇaḥ kalau"
    assert (
        pasted.synonyms.startswith("anarpita—not given")
        and pasted.translation == "A quillwort pasted sentence."
    )
    assert verses["SB 1.2.1a-2a"].ref == VerseRef(2, 1, "SB", 1, 2, "1a-2a")
    cc_verses = texts(cc)
    assert list(cc_verses) == ["CC Ādi 1.1", "CC Ādi 1.2"]
    assert cc_verses["CC Ādi 1.2"].transliteration == ""
    kinds = {line.split(": ", 1)[1] for line in sb.fixed}
    assert kinds == {
        "a stray '/' made the file invalid JSON",
        "ṟ/ḻ written for ṝ/l̐",
        "meanings pasted into the verse text were cut off",
    }


def test_progress_is_reported_while_reading(source):
    seen = []
    read_source(source, [TINY_SB], lambda done, total, what: seen.append((done, total, what)))
    assert seen and seen[-1][0] == seen[-1][1] > 0


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        # the last verse of a chapter: only the count can tell
        (lambda f: f.pop("sb/1/2/2.json"), "6 verses where the Test Bhāgavatam has 7"),
        (lambda f: f.pop("sb/1/1/1.json"), "verses missing or doubled: SB 1.1.1 missing"),
        (lambda f: f.update({"sb/1/1/3.json": verse_file("x", "again\n")}), "SB 1.1.3 doubled"),
        (lambda f: [f.pop("sb/2/1/1.json"), f.pop("sb/2/1/2.json")], "1 of 3 chapters are missing (SB 2.1)"),
        (
            lambda f: f.update({"sb/2/2/1.json": verse_file("x", "more\n")}),
            "chapters the book does not have: SB 2.2",
        ),
        (lambda f: f.update({"sb/1/1/1.json": "{not json"}), "SB 1.1.1 could not be read"),
    ],
)
def test_the_structure_check_says_what_is_wrong(tmp_path, change, problem):
    files = dict(FILES)
    change(files)
    sb = read(write_archive(files, tmp_path / "a.tar.gz"), [TINY_SB]).books["SB"]
    assert any(problem in found for found in structure_problems(sb)), structure_problems(sb)


def test_a_damaged_archive_is_a_clear_error_without_the_servers_paths(tmp_path):
    whole = write_archive(FILES, tmp_path / "whole.tar.gz").read_bytes()
    cut = tmp_path / "secret-folder" / "cut.tar.gz"
    cut.parent.mkdir()
    cut.write_bytes(whole[: len(whole) // 2])
    not_gzip = tmp_path / "secret-folder" / "page.tar.gz"
    not_gzip.write_text("<html>a page, not an archive</html>")
    for path in (cut, not_gzip):
        with pytest.raises(SourceError, match="damaged or incomplete") as raised:
            read(path)
        assert "secret-folder" not in str(raised.value)


def test_a_member_too_big_for_a_verse_is_refused(tmp_path):
    files = dict(FILES)
    files["sb/1/1/1.json"] = b" " * (5 << 20)
    with pytest.raises(SourceError, match="not one of upstream's verse files"):
        read(write_archive(files, tmp_path / "big.tar.gz"))


def test_a_folder_without_the_books_is_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError, match="no books/json/sb or books/json/cc"):
        read(tmp_path / "empty")


def test_only_books_json_is_read_from_the_repository(tmp_path):
    """Upstream's repository has other folders; a verse file's copy there is neither read nor doubled."""
    elsewhere = {
        "public/books/json/sb/1/1/1.json": verse_file("sb/1/1/1", "a copy elsewhere\n"),
        "books/js/sb/1/1/1.json": verse_file("sb/1/1/1", "another\n"),
        "sb/1/1/1.json": verse_file("sb/1/1/1", "and another\n"),
    }
    archive = read(write_archive(FILES, tmp_path / "repo.tar.gz", elsewhere=elsewhere), [TINY_SB])
    sb = archive.books["SB"]
    assert structure_problems(sb) == [] and texts(sb)["SB 1.1.1"].transliteration.startswith("oṁ pitṝn")
