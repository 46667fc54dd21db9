"""Faults: killed seeds and installs lose nothing and resume; damaged databases are reported clearly
while the rest of the server keeps answering."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import httpx
import pytest

from benchmarks._http_server import running_server
from benchmarks._mcp_client import http_session
from tests.conftest import LoopbackServer, QuietHandler, RangeHandler, eventually, run_pramana


class SlowHandler(QuietHandler):
    """The mirror, 40 ms a document: a seed takes a few seconds, long enough to be killed midway."""

    def do_GET(self) -> None:
        time.sleep(0.04)
        super().do_GET()


class ThrottledHandler(RangeHandler):
    """Range-capable, sending 64 KiB every 50 ms: a download can be killed halfway."""

    cut: ClassVar[set[str]] = set()
    requests: ClassVar[list[tuple[str, str]]] = []
    pause = 0.05


def pramana(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "pramana", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )


def count(db: Path, sql: str) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return int(conn.execute(sql).fetchone()[0])
    except sqlite3.Error:
        return 0


def test_a_seed_killed_with_sigkill_leaves_whole_verses_and_a_rerun_completes(tmp_path, gita_mirror):
    db = tmp_path / "cache.db"
    with LoopbackServer(SlowHandler, gita_mirror) as server:
        seeding = pramana("gita", "seed", "--db", str(db), "--source", server.url)
        assert eventually(lambda: count(db, "SELECT count(*) FROM verses") >= 60, 60), "timed out"
        seeding.send_signal(signal.SIGKILL)
        seeding.wait(10)
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            verses = conn.execute("SELECT count(*) FROM verses").fetchone()[0]
            indexed = conn.execute("SELECT count(*) FROM verse_fts").fetchone()[0]
            orphan_check = "SELECT 1 FROM verse_texts t WHERE t.ref = v.ref"
            textless = conn.execute(
                f"SELECT count(*) FROM verses v WHERE NOT EXISTS ({orphan_check})"
            ).fetchone()[0]
        assert 60 <= verses < 701
        assert indexed == verses and textless == 0  # every verse whole: its texts and its search row
        rerun = run_pramana("gita", "seed", "--db", str(db), "--source", server.url, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert count(db, "SELECT count(*) FROM verses") == 701


def test_an_install_killed_mid_download_resumes_and_adds_no_partial_dictionary(
    tmp_path, csl_data, sanskrit_db
):
    db = tmp_path / "sanskrit.db"
    env_db = ["--db", str(db), "--no-forms"]  # the download is under test, not the form index
    with LoopbackServer(ThrottledHandler, csl_data) as server:
        installing = pramana("sanskrit", "install", "ap90", "--source", server.url, *env_db)
        assert eventually(lambda: any(p.stat().st_size > 200_000 for p in tmp_path.rglob("*.part")), 60), (
            "timed out"
        )
        installing.send_signal(signal.SIGKILL)
        installing.wait(10)
        assert list(tmp_path.rglob("*.part")), "the download should have been cut midway"
        assert count(db, "SELECT count(*) FROM dictionaries") == 0
        assert count(db, "SELECT count(*) FROM entries") == 0
        ThrottledHandler.requests.clear()
        done = run_pramana("sanskrit", "install", "ap90", "--source", server.url, *env_db, timeout=600)
        assert done.returncode == 0, done.stderr
    assert any(
        ranged.startswith("bytes=") and ranged != "bytes=0-" for _, ranged in ThrottledHandler.requests
    )
    reference = count(sanskrit_db, "SELECT count(*) FROM entries WHERE dict_code = 'ap90'")
    assert count(db, "SELECT count(*) FROM entries WHERE dict_code = 'ap90'") == reference > 0
    assert not list(tmp_path.rglob("*.part"))  # the finished download replaced its partial file


# -- damaged databases while serving ------------------------------------------------------------------


def corrupt(db: Path) -> None:
    """Keep the header and schema page, scribble over the rest: queries meet a malformed image."""
    size = db.stat().st_size
    with open(db, "r+b") as handle:
        for offset in range(8192, size, 4096 * 7):
            handle.seek(offset)
            handle.write(os.urandom(4096))


@pytest.fixture
def damaged(all_data: dict[str, str], tmp_path: Path) -> Iterator[dict[str, str]]:
    """Private copies: pali corrupt, sanskrit locked by another writer, gita's cache file immutable."""
    env = dict(all_data)
    for key, name in (
        ("DPD_DB_PATH", "dpd.db"),
        ("SANSKRIT_DB_PATH", "sanskrit.db"),
        ("VEDABASE_DB_PATH", "c.db"),
    ):
        target = tmp_path / name
        shutil.copy(all_data[key], target)
        env[key] = str(target)
    corrupt(Path(env["DPD_DB_PATH"]))
    locker = sqlite3.connect(env["SANSKRIT_DB_PATH"], isolation_level=None)
    locker.execute("PRAGMA locking_mode = EXCLUSIVE")
    locker.execute("BEGIN EXCLUSIVE")
    locker.execute("DELETE FROM entries WHERE rowid = -1")
    yield env
    locker.execute("ROLLBACK")
    locker.close()


def test_damaged_databases_are_reported_and_the_rest_keeps_serving(damaged: dict[str, str]):
    with running_server(["all"], damaged) as server:
        ready = httpx.get(server.base + "/ready", timeout=60)
        assert ready.status_code == 503
        states = ready.json()["servers"]
        assert states["gita"]["ready"] is True
        assert not states["pali"]["ready"] and "damaged" in states["pali"]["detail"]
        assert not states["sanskrit"]["ready"] and "locked" in states["sanskrit"]["detail"]

        async def calls() -> dict[str, tuple[bool, str]]:
            async with http_session(server.mcp_url) as session:
                answers = {
                    "pali": await session.call_tool("lookup_pali_word", {"word": "dhamma"}),
                    "sanskrit": await session.call_tool("sanskrit_search", {"query": "agni"}),
                    "gita": await session.call_tool("lookup_verse", {"reference": "BG 2.47"}),
                    "code": await session.call_tool("search_code", {"query": "cart total"}),
                }
            return {name: (a.is_error, a.content[0].text) for name, a in answers.items()}

        answers = asyncio.run(calls())
    assert answers["pali"][0] and "damaged" in answers["pali"][1] and "rebuild" in answers["pali"][1]
    assert answers["sanskrit"][0] and "locked" in answers["sanskrit"][1]
    assert answers["gita"][0] is False and answers["code"][0] is False


def make_read_only(path: Path) -> None:
    if os.geteuid() != 0:
        path.chmod(0o444)
        return
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("running as root and chattr +i is not permitted here: a read-only file cannot be made")


def test_a_read_only_cache_still_answers_reads_and_says_why_writes_fail(all_data: dict[str, str], tmp_path):
    db = tmp_path / "cache.db"
    with sqlite3.connect(all_data["VEDABASE_DB_PATH"]) as source, sqlite3.connect(db) as copy:
        source.backup(copy)
        copy.execute("PRAGMA foreign_keys = ON")
        gone = copy.execute("SELECT ref FROM verses WHERE chapter = 18 AND verse = 66").fetchone()[0]
        copy.execute("DELETE FROM verse_fts WHERE ref = ?", (gone,))
        copy.execute("DELETE FROM verses WHERE ref = ?", (gone,))
    make_read_only(db)
    try:
        with running_server(["gita"], {**all_data, "VEDABASE_DB_PATH": str(db)}) as server:

            async def calls() -> tuple[tuple[bool, str], tuple[bool, str]]:
                async with http_session(server.mcp_url) as session:
                    cached = await session.call_tool("lookup_verse", {"reference": "BG 2.47"})
                    missing = await session.call_tool("lookup_verse", {"reference": "BG 18.66"})
                return (cached.is_error, cached.content[0].text), (missing.is_error, missing.content[0].text)

            cached, missing = asyncio.run(calls())
    finally:
        subprocess.run(["chattr", "-i", str(db)], capture_output=True)
        db.chmod(0o644)
    assert cached[0] is False
    # Not cached and not cachable: the packaged Sanskrit, with a note saying why there is no translation.
    assert missing[0] is False and "read-only" in missing[1] and "सर्वधर्मान्परित्यज्य" in missing[1]


class FlakyHandler(RangeHandler):
    """Answers chosen paths with 500s, or hangs on them, a set number of times."""

    failures: ClassVar[dict[str, list[str]]] = {}

    def do_GET(self) -> None:
        queued = self.failures.get(self.path)
        if queued:
            behaviour = queued.pop(0)
            if behaviour == "hang":
                time.sleep(1.5)
            self.send_error(500, "upstream exploded")
            return
        super().do_GET()


def test_an_install_against_a_failing_source_changes_nothing_and_a_rerun_completes(tmp_path, csl_data):
    from pramana.errors import SourceError
    from pramana.sanskrit.source import install
    from pramana.sanskrit.store import SanskritStore

    store = SanskritStore(tmp_path / "s.db")
    FlakyHandler.failures = {"/nmmb/nmmb.txt": ["500", "500", "500"]}
    with LoopbackServer(FlakyHandler, csl_data) as server:
        with pytest.raises(SourceError, match="run again"):
            asyncio.run(install(store, ["nmmb"], server.url, tmp_path / "dl"))
        assert count(tmp_path / "s.db", "SELECT count(*) FROM entries") == 0
        FlakyHandler.failures = {"/nmmb/nmmb.txt": ["500"]}  # one 500 is retried
        done = asyncio.run(install(store, ["nmmb"], server.url, tmp_path / "dl"))
    assert done[0].entries == 506


def test_a_hanging_download_times_out_clearly_and_resumes(tmp_path, csl_data):
    from pramana.download import download
    from pramana.errors import SourceError

    FlakyHandler.failures = {"/ap90/ap90.txt": ["hang", "hang"]}
    target = tmp_path / "ap90.txt"
    with LoopbackServer(FlakyHandler, csl_data) as server:
        with pytest.raises(SourceError, match="run again to resume"):
            asyncio.run(download(server.url + "/ap90/ap90.txt", target, timeout=0.5, retries=2))
        assert not target.exists()
        asyncio.run(download(server.url + "/ap90/ap90.txt", target, timeout=5))
    assert target.read_bytes() == (csl_data / "ap90" / "ap90.txt").read_bytes()
