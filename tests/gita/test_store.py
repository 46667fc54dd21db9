import json
import sqlite3

from pramana.gita.reference import VerseRef
from pramana.gita.source import parse_verse
from pramana.gita.store import MIGRATIONS, GitaStore


def _record(gita_mirror, chapter, verse):
    doc = json.loads((gita_mirror / "slok" / str(chapter) / str(verse) / "index.json").read_text("utf-8"))
    return parse_verse(doc, VerseRef(chapter, verse))


def test_round_trip_and_resave_replaces(tmp_path, gita_mirror):
    store = GitaStore(tmp_path / "c.db")
    record = _record(gita_mirror, 2, 47)
    store.save_verse(record)
    store.save_verse(record)
    conn = sqlite3.connect(tmp_path / "c.db")
    assert conn.execute("SELECT count(*) FROM verses").fetchone()[0] == 1
    assert conn.execute("SELECT count(*) FROM verse_fts").fetchone()[0] == 1
    stored = store.verse(VerseRef(2, 47))
    assert stored.transliteration == record.transliteration
    assert {t.author_key for t in stored.texts} >= {"prabhu", "siva", "tej"}
    assert store.verse(VerseRef(2, 48)) is None
    assert [h.ref for h in store.search("karmanyevadhikaraste", 5)] == [VerseRef(2, 47)]


def test_commentaries_are_read_from_the_raw_document(tmp_path, gita_mirror):
    store = GitaStore(tmp_path / "c.db")
    store.save_verse(_record(gita_mirror, 2, 47))
    (madhav,) = store.commentaries(VerseRef(2, 47), "madhav")
    assert madhav.field == "sc" and madhav.text.startswith("कामात्मनां निन्दा")


def test_opens_a_cache_made_by_the_spec_implementation(tmp_path, gita_mirror):
    """A v0.1 cache (the spec's two tables, no schema version) is upgraded in place."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE verses (ref TEXT PRIMARY KEY, chapter INTEGER NOT NULL, verse INTEGER NOT NULL,"
        " devanagari TEXT, transliteration TEXT, translations TEXT, synonyms TEXT, vedabase_url TEXT,"
        " raw_json TEXT, fetched_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);"
        "CREATE TABLE chapters (chapter_number INTEGER PRIMARY KEY, name TEXT, name_transliterated TEXT,"
        " name_meaning TEXT, verses_count INTEGER, summary TEXT, raw_json TEXT);"
    )
    raw = (gita_mirror / "slok" / "9" / "34" / "index.json").read_text("utf-8")
    conn.execute(
        "INSERT INTO verses (ref, chapter, verse, transliteration, raw_json) VALUES"
        " ('BG 9.34', 9, 34, 'manmanā', ?), ('BG 2.47', 2, 47, 'karma', 'not json')",
        (raw,),
    )
    conn.commit()
    conn.close()
    store = GitaStore(path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert store.cached_refs() == {"BG 9.34"}  # the unusable row is dropped, to be re-fetched
    legacy = store.verse(VerseRef(9, 34))
    assert legacy.devanagari.startswith("मन्मना") and any(t.author_key == "prabhu" for t in legacy.texts)
    assert [h.ref for h in store.search("manmana", 3)] == [VerseRef(9, 34)]
    store.save_verse(_record(gita_mirror, 2, 47))
    assert store.verse_count() == 2


def test_a_cache_holding_placeholders_as_texts_is_rederived(tmp_path, gita_mirror):
    """Caches written before version 5 kept "See Comment under 1.9" as Abhinavagupta's text."""
    path = tmp_path / "c.db"
    store = GitaStore(path)
    store.save_verse(_record(gita_mirror, 10, 1))
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT OR REPLACE INTO verse_texts (ref, author_key, author, field, text) VALUES"
        " ('BG 10.1', 'abhinav', 'Sri Abhinavgupta', 'et', 'See Comment under 10.3')"
    )
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()
    reopened = GitaStore(path)
    assert not any(t.author_key == "abhinav" for t in reopened.verse(VerseRef(10, 1)).texts)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
