import json
import sqlite3

from pramana.gita.reference import VerseRef
from pramana.gita.source import parse_verse
from pramana.gita.store import MIGRATIONS, GitaStore
from pramana.gita.stores import open_store
from tests.gita.conftest import aged_cache


def _record(gita_mirror, chapter, verse):
    doc = json.loads((gita_mirror / "slok" / str(chapter) / str(verse) / "index.json").read_text("utf-8"))
    return parse_verse(doc, VerseRef(chapter, verse))


def _rows(store, table: str) -> int:
    """Rows of `table` as the database itself counts them (not through the store)."""
    if isinstance(store, GitaStore):
        return sqlite3.connect(store.path).execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    import psycopg

    with psycopg.connect(store.db.url) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_round_trip_and_resave_replaces(gita_settings, gita_mirror):
    store = open_store(gita_settings())
    record = _record(gita_mirror, 2, 47)
    store.save_verse(record)
    store.save_verse(record)
    assert _rows(store, "verses") == 1
    assert _rows(store, "verse_fts" if isinstance(store, GitaStore) else "verse_search") == 1
    assert _rows(store, "verse_texts") == len(record.texts)
    stored = store.verse(VerseRef(2, 47))
    assert stored.transliteration == record.transliteration
    assert {t.author_key for t in stored.texts} >= {"prabhu", "siva", "tej"}
    assert store.verse(VerseRef(2, 48)) is None
    assert [h.ref for h in store.search("karmanyevadhikaraste", 5)] == [VerseRef(2, 47)]


def test_commentaries_are_read_from_the_raw_document(gita_settings, gita_mirror):
    store = open_store(gita_settings())
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
    aged_cache(
        path,
        4,
        "INSERT OR REPLACE INTO verse_texts (ref, author_key, author, field, text) VALUES"
        " ('BG 10.1', 'abhinav', 'Sri Abhinavgupta', 'et', 'See Comment under 10.3')",
    )
    reopened = GitaStore(path)
    assert not any(t.author_key == "abhinav" for t in reopened.verse(VerseRef(10, 1)).texts)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


SAME_ON_BOTH = [
    "karmanyevadhikaraste", "prescribed duty fruits of action", "yoga karma", "the", "Arjuna grief",
    "sarva dharman parityajya", "krishna", "so'pi", "qwerty zork", "dharma-kṣetre",
]  # fmt: skip


def test_keyword_search_ranks_alike_on_both_backends(seeded_db, seeded_postgres):
    """The PostgreSQL store ranks with FTS5's BM25 and cuts FTS5's snippets (store/pg_search.py):
    the same verses, in the same order, with the same scores and snippets as SQLite's FTS5."""
    from pramana.gita.store_postgres import PostgresGitaStore

    sqlite_store, pg_store = GitaStore(seeded_db, read_only=True), PostgresGitaStore(seeded_postgres)
    try:
        refs = [VerseRef(2, 47), VerseRef(18, 45), VerseRef(1, 47), VerseRef(11, 41), VerseRef(3, 99)]
        assert pg_store.verses(refs) == sqlite_store.verses(refs)  # texts, flags, repairs, order
        assert len(pg_store.verses(refs)) == 4 and pg_store.verse(VerseRef(2, 47)) == sqlite_store.verse(
            refs[0]
        )
        for query in SAME_ON_BOTH:
            for method in ("search", "search_any_word", "search_sanskrit"):
                ours, theirs = getattr(pg_store, method)(query, 5), getattr(sqlite_store, method)(query, 5)
                assert [h.ref for h in ours] == [h.ref for h in theirs], (query, method)
                assert [round(h.score, 6) for h in ours] == [round(h.score, 6) for h in theirs], (
                    query,
                    method,
                )
                assert [h.snippet for h in ours] == [h.snippet for h in theirs], (query, method)
    finally:
        pg_store.close()


def test_postgres_migrations_are_versioned_and_run_once(postgres_url):
    from pramana.gita.store_postgres import COMPONENT, PostgresGitaStore
    from pramana.gita.store_postgres import MIGRATIONS as PG_MIGRATIONS

    first, second = PostgresGitaStore(postgres_url), PostgresGitaStore(postgres_url)
    try:
        assert first.verse_count() == second.verse_count() == 0  # both opened: migrated once
        assert first.db.schema_version(COMPONENT) == len(PG_MIGRATIONS)
        assert not first.read_only
    finally:
        first.close()
        second.close()


def test_a_search_row_left_without_its_verse_is_dropped_on_upgrade(tmp_path, gita_mirror):
    """Version 9: a verse has a search row only while it is cached, so that writing a verse not cached
    before deletes nothing from verse_fts (a scan of the whole table each); a row an older re-derive
    left behind for a dropped verse goes, and the verse written again is found once."""
    path = tmp_path / "c.db"
    GitaStore(path).save_verse(_record(gita_mirror, 2, 47))
    aged_cache(
        path,
        8,
        "INSERT INTO verse_fts (ref, transliteration, translations, devanagari)"
        " VALUES ('BG 9.34', 'manmana bhava', 'think of me', '')",
    )
    store = GitaStore(path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert _rows(store, "verse_fts") == 1 and store.search("manmana", 3) == []
    store.save_verse(_record(gita_mirror, 9, 34))
    store.save_verse(_record(gita_mirror, 2, 47))  # cached: its row is replaced, not added
    assert _rows(store, "verse_fts") == _rows(store, "verses") == 2
    assert [h.ref for h in store.search("manmana", 3)] == [VerseRef(9, 34)]


def test_a_verse_a_rederive_drops_takes_its_search_row_with_it(tmp_path, gita_mirror):
    """A cached verse whose raw JSON is unusable is dropped when the texts are re-derived (version 5),
    and its search row with it: fetched again, it is written as a verse never cached."""
    path = tmp_path / "c.db"
    GitaStore(path).save_verse(_record(gita_mirror, 9, 34))
    aged_cache(path, 4, "UPDATE verses SET raw_json = 'not json' WHERE ref = 'BG 9.34'")
    store = GitaStore(path)
    assert _rows(store, "verses") == _rows(store, "verse_fts") == 0
    store.save_verse(_record(gita_mirror, 9, 34))
    assert [h.ref for h in store.search("manmana", 3)] == [VerseRef(9, 34)]
