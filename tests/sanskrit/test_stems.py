"""Headwords printed as nominatives (Apte's `DarmaH`, `vanaM`) are found by their stem."""

import sqlite3
from pathlib import Path

import pytest

from pramana.errors import NotReadyError
from pramana.install import command
from pramana.sanskrit.service import SanskritService
from pramana.sanskrit.stems import cited_stems
from pramana.sanskrit.store import SanskritStore, unpack


@pytest.mark.parametrize(
    ("headword", "stems"),
    [
        ("DarmaH", ["Darma"]),
        ("agniH", ["agni"]),
        ("DenuH", ["Denu"]),
        ("vanaM", ["vana"]),
        ("uSInarAH", ["uSInarA", "uSInara"]),
        ("kram", []),  # a root, not the neuter of `kra`
        ("naH", []),  # too short to be a stem plus an ending
        ("kfzRa", []),
    ],
)
def test_cited_stems(headword, stems):
    assert cited_stems(headword) == stems


@pytest.mark.parametrize(
    ("stem", "headword"),
    [("dharma", "dharmaḥ"), ("yoga", "yogaḥ"), ("agni", "agniḥ"), ("vana", "vanaṃ"), ("dhenu", "dhenuḥ")],
)
def test_apte_nominatives_are_found_by_their_stem(sanskrit, stem, headword):
    found = sanskrit.search(stem, "exact", ["ap90"])
    assert found.matched_by == "exact" and found.did_you_mean == []
    assert headword in {hit.word for hit in found.results}


def test_the_printed_form_is_still_a_key(sanskrit):
    found = sanskrit.search("DarmaH", "exact", ["ap90"])
    assert {(hit.word, hit.matched) for hit in found.results} >= {("dharmaḥ", "dharmaḥ")}


def test_a_database_built_before_the_stems_gets_them_on_open(sanskrit_copy: Path):
    """A version-1 file (no stem keys, no loose trigrams) is migrated: the stems are derived from the
    stored headwords, and the loose trigrams index every key."""
    with sqlite3.connect(sanskrit_copy) as conn:
        conn.execute(
            "INSERT INTO headword_grams (headword_grams, rowid, slp1)"
            " SELECT 'delete', id, slp1 FROM headwords WHERE is_alt = 2"
        )
        conn.execute("DELETE FROM headwords WHERE is_alt = 2")
        for index in ("idx_headwords_slp1_length", "idx_headwords_loose_length", "idx_entries_key"):
            conn.execute(f"DROP INDEX {index}")
        conn.execute("DROP TABLE headword_loose_grams")
        for table in ("lexicon", "verb_forms", "form_state", "form_blobs"):  # version 5 (4's are gone)
            conn.execute(f"DROP TABLE {table}")
        zdicts = dict(conn.execute("SELECT code, zdict FROM markup_dicts"))  # version 6: markup as text
        rows = conn.execute("SELECT id, dict_code, markup FROM entries").fetchall()
        conn.executemany(
            "UPDATE entries SET markup = ? WHERE id = ?",
            [(unpack(markup, zdicts[code]), id_) for id_, code, markup in rows],
        )
        conn.execute("DROP TABLE markup_dicts")
        conn.execute("PRAGMA user_version = 1")
    with pytest.raises(NotReadyError, match=f"older pramana: run `{command('sanskrit list')}`"):
        SanskritService(sanskrit_copy, read_only=True)  # a reader does not migrate, and says so
    SanskritStore(sanskrit_copy).close()  # a writer opens it: the migration runs
    migrated = SanskritService(sanskrit_copy, read_only=True)
    assert "Hairless, bald" in migrated.get_article(migrated.search("akeSa").results[0].article_id).markdown
    assert "yogaḥ" in {hit.word for hit in migrated.search("yoga", "exact", ["ap90"]).results}
    assert "yogaḥ" in {hit.word for hit in migrated.search("ogaH", "fuzzy", ["ap90"]).results}
    assert "kṛṣṇa" in {hit.word for hit in migrated.search("krsna", "fuzzy", ["ap90"]).results}
    migrated.close()
