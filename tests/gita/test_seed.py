import sqlite3
import subprocess
import sys

import pytest

from pramana.config import GitaSettings
from pramana.errors import SourceUnreachableError
from pramana.gita.service import GitaService
from tests.gita.faulty_server import faulty_server

HEALTHY_MARGIN_S = 5.0  # seconds: a loopback verse took over 0.5 s at load 12


def _service(db, url, **settings) -> GitaService:
    return GitaService(GitaSettings(db_path=db, api_url=url, **settings))


def _consistent(db) -> None:
    """Every cached verse has its texts and its search row: no half-written verse."""
    conn = sqlite3.connect(db)
    verses = conn.execute("SELECT count(*) FROM verses").fetchone()[0]
    assert conn.execute("SELECT count(*) FROM verse_fts").fetchone()[0] == verses
    orphans = conn.execute(
        "SELECT count(*) FROM verses WHERE ref NOT IN (SELECT ref FROM verse_texts)"
        " OR ref NOT IN (SELECT ref FROM verse_fts)"
    ).fetchone()[0]
    assert orphans == 0


def test_seed_caches_701_verses_and_18_chapters(seeded_db):
    conn = sqlite3.connect(seeded_db)
    assert conn.execute("SELECT count(*) FROM verses").fetchone()[0] == 701
    assert conn.execute("SELECT count(*) FROM chapters").fetchone()[0] == 18
    # colophons (slok/N/last+1) are not verses
    assert conn.execute("SELECT count(*) FROM verses WHERE ref IN ('BG 1.48', 'BG 18.79')").fetchone()[0] == 0
    row = conn.execute(
        "SELECT chapter, verse, vedabase_url, translations, raw_json FROM verses WHERE ref = 'BG 13.1'"
    ).fetchone()
    assert row[:3] == (13, 1, "https://vedabase.io/en/library/bg/13/1/")
    assert "Arjuna said" in row[3]
    assert '"_id":"BG13.1"' in row[4].replace(" ", "")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    _consistent(seeded_db)


def test_second_seed_fetches_nothing(seeded_copy, gita_mirror):
    server, plan = faulty_server(gita_mirror)
    with server:
        result = _service(seeded_copy, server.url).seed()
    assert result.complete
    assert (result.fetched_verses, result.fetched_chapters) == (0, 0)
    assert plan.total_requests == 0


def test_seed_from_a_directory(tmp_path, gita_mirror):
    result = _service(tmp_path / "c.db", str(gita_mirror)).seed()
    assert result.complete and result.verses_cached == 701 and not result.failures


def test_seed_reports_failures_keeps_the_rest_and_a_rerun_completes(tmp_path, gita_mirror):
    server, plan = faulty_server(gita_mirror)
    plan.always.update(
        {"/slok/2/47/": "500", "/slok/3/1/": "hang", "/slok/4/1/": "truncate", "/slok/5/1/": "wrong-doc"}
    )
    plan.once.update({"/slok/6/1/": ["503"], "/slok/7/1/": ["truncate"], "/chapters/": ["500"]})
    db = tmp_path / "c.db"
    progress: list[tuple[int, int]] = []

    def record(done: int, total: int, message: str) -> None:
        progress.append((done, total))

    with server:
        # The hanging verse answers nothing until the client gives up: the timeout is one no healthy
        # loopback request comes near even on a loaded machine, and the hang costs its two attempts.
        first = _service(db, server.url, http_timeout=HEALTHY_MARGIN_S, http_retries=2).seed(record)
        assert {f.item for f in first.failures} == {"BG 2.47", "BG 3.1", "BG 4.1", "BG 5.1"}
        assert not first.complete
        assert first.verses_cached == 697 and first.chapters_cached == 18
        failure_text = {f.item: f.error for f in first.failures}
        assert "HTTP 500" in failure_text["BG 2.47"]
        assert "timed out" in failure_text["BG 3.1"]
        assert "not complete JSON" in failure_text["BG 4.1"]
        assert "identifies itself as 'BG1.1'" in failure_text["BG 5.1"]
        _consistent(db)

        plan.clear()
        plan.requests.clear()
        second = _service(db, server.url).seed()
    assert second.complete and not second.failures
    assert second.fetched_verses == 4 and second.fetched_chapters == 0
    assert plan.total_requests == 4
    assert progress[-1] == (progress[-1][1], progress[-1][1])
    assert [done for done, _ in progress] == sorted(done for done, _ in progress)


def test_interrupted_seed_leaves_no_half_written_verse(tmp_path, mirror_url):
    db = tmp_path / "c.db"

    def stop_after_some(done: int, total: int, message: str) -> None:
        if done >= 150:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _service(db, mirror_url).seed(stop_after_some)
    _consistent(db)
    partial = sqlite3.connect(db).execute("SELECT count(*) FROM verses").fetchone()[0]
    assert 150 <= partial < 701
    result = _service(db, mirror_url).seed()
    assert result.complete and result.fetched_verses == 701 - partial


def test_unreachable_source_stops_the_seed_at_the_first_verse(tmp_path):
    with pytest.raises(SourceUnreachableError, match="connection failed"):
        _service(tmp_path / "c.db", "http://127.0.0.1:9").seed()


def test_a_failing_first_verse_that_is_not_unreachability_is_retried_with_the_rest(tmp_path, gita_mirror):
    server, plan = faulty_server(gita_mirror)
    plan.once["/slok/1/1/"] = ["503"]
    with server:
        result = _service(tmp_path / "c.db", server.url).seed()
    assert result.complete and not result.failures
    assert plan.requests["/slok/1/1/"] == 2


def test_a_reader_keeps_working_while_another_process_seeds(seeded_copy, mirror_url):
    """Two processes on one cache file: a CLI seed writes while this process reads."""
    conn = sqlite3.connect(seeded_copy)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("DELETE FROM verses WHERE chapter >= 15")
    conn.execute("DELETE FROM verse_fts WHERE ref NOT IN (SELECT ref FROM verses)")
    conn.commit()
    conn.close()
    reader = _service(seeded_copy, mirror_url)
    seeder = subprocess.Popen(
        [sys.executable, "-m", "pramana", "gita", "seed", "--db", str(seeded_copy), "--source", mirror_url],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    reads = 0
    while seeder.poll() is None or reads == 0:
        assert reader.search("Krishna", 3).results
        assert reader.lookup("BG 2.47").ref == "BG 2.47"
        reads += 1
    assert seeder.returncode == 0
    assert reader.store.verse_count() == 701
    _consistent(seeded_copy)
