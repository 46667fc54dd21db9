"""Translations the source filed under a verse they do not translate (pramana/gita/alignment.py)."""

import json
import sqlite3

import pytest

from pramana.gita.alignment import misfiled_texts
from pramana.gita.reference import VerseRef, all_refs
from pramana.gita.source import parse_verse
from pramana.gita.store import MIGRATIONS, GitaStore
from tests.gita.conftest import aged_cache

from .test_service import lookup

pytestmark = pytest.mark.data


@pytest.fixture(scope="module")
def found(gita_mirror) -> dict[tuple[VerseRef, str], VerseRef]:
    """What the audit finds over the source's texts (after the number check and the placeholders)."""
    english: dict[VerseRef, list[tuple[str, str]]] = {}
    for ref in all_refs():
        path = gita_mirror / "slok" / str(ref.chapter) / str(ref.verse) / "index.json"
        record = parse_verse(json.loads(path.read_text("utf-8")), ref)
        english[ref] = [
            (t.key, t.text) for t in record.texts if t.field == "et" and not t.numbered_for_other_verse
        ]
    return misfiled_texts(english)


@pytest.mark.parametrize(
    ("verse", "author", "translates"),
    [
        ((11, 41), "prabhu", (11, 33)),  # "Therefore, get up and prepare to fight…"
        ((11, 42), "prabhu", (10, 36)),  # "Of cheats, I am the gambling of cheats…"
        ((11, 27), "prabhu", (11, 29)),  # the moths and the blazing fire, twice
        ((16, 11), "prabhu", (16, 10)),
        ((1, 23), "san", (1, 24)),
        # runs shifted by a verse: each text is the next verse's, in other words than that one's
        ((5, 20), "san", (5, 21)),
        ((5, 24), "san", (5, 25)),
        ((1, 30), "san", (1, 31)),
        ((1, 45), "prabhu", (1, 46)),
    ],
)
def test_misfiled_translations_are_found_with_the_verse_they_translate(found, verse, author, translates):
    assert found[(VerseRef(*verse), author)] == VerseRef(*translates)


@pytest.mark.parametrize(
    ("verse", "author"),
    [
        ((1, 34), "prabhu"),  # lists Arjuna's kinsmen as 1.26 does, where it belongs
        ((2, 43), "adi"),  # one text for the range 2.42-2.44, repeated on each
        ((12, 7), "prabhu"),  # 12.6-7 are one sentence; each text is where it belongs
        ((12, 18), "prabhu"),  # no other author has a text at 12.18 to judge by
        ((3, 23), "purohit"),
        ((13, 1), "siva"),
        ((1, 44), "purohit"),  # a free rendering that reads like 6.30 to the others, not like 1.43 or 1.45
        ((5, 19), "san"),  # the verse before the shifted run
    ],
)
def test_texts_that_only_look_alike_stay(found, verse, author):
    assert (VerseRef(*verse), author) not in found


def test_the_audit_finds_the_misfiled_texts_and_no_more(found):
    """Each of these was found misfiled by readers of every translation (gita/data/PROVENANCE.md)."""
    shifted = {((1, v), "san") for v in (23, 25, 28, 29, 30, 31, 33, 34)}
    shifted |= {((5, v), "san") for v in (20, 21, 22, 23, 24, 25, 26, 28)}
    shifted |= {((1, v), "prabhu") for v in (22, 44, 45, 46)}
    copies = {((11, 27), "prabhu"), ((11, 41), "prabhu"), ((11, 42), "prabhu"), ((12, 4), "prabhu")}
    copies.add(((16, 11), "prabhu"))
    assert {(ref.chapter, ref.verse, author) for ref, author in found} == {
        (c, v, author) for (c, v), author in shifted | copies
    }


def test_a_seed_shows_another_authors_text_for_a_misfiled_one(gita):
    verse = lookup(gita, "11.41")
    assert verse.translation.author_key != "prabhu"
    assert "belongs to another verse" in verse.notes[0]
    assert "prepare to fight" not in verse.translation.text
    hits = gita.search("prepare to fight win glory conquer enemies flourishing kingdom", max_results=3)
    assert "BG 11.41" not in [hit.ref for hit in hits.results]


def test_a_cache_seeded_before_the_audit_is_audited_when_opened(seeded_copy):
    aged_cache(seeded_copy, 5, "UPDATE verse_texts SET numbered_for_other_verse = 0 WHERE ref = 'BG 11.41'")
    store = GitaStore(seeded_copy)
    texts = {t.author_key: t for t in store.verse(VerseRef(11, 41)).texts if t.field == "et"}
    assert texts["prabhu"].numbered_for_other_verse and not texts["siva"].numbered_for_other_verse
    assert sqlite3.connect(seeded_copy).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
