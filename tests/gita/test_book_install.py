"""`pramana gita install sb cc`: from a real loopback HTTP server and from local copies; resumed,
killed, repeated, damaged, short, offline. Whatever happens, a reader sees each book whole or not at all."""

from __future__ import annotations

import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pramana.config import GitaSettings
from pramana.errors import SourceError, SourceUnreachableError
from pramana.gita.books import UPSTREAM_ARCHIVE, UPSTREAM_COMMIT
from pramana.gita.service import GitaService
from tests.conftest import LoopbackServer, RangeHandler, run_pramana
from tests.gita.book_archive import OWN_TEXTS, truncated, with_own_translations, without

pytestmark = pytest.mark.data

ARCHIVE_NAME = "slides.tar.gz"


def upstream(**behaviour: object) -> type[RangeHandler]:
    """A Range-capable server of its own (fresh logs)."""
    attributes = {"cut": set(), "requests": [], "exchanges": [], "next_version": {}}
    return type("Upstream", (RangeHandler,), {**attributes, **behaviour})


def service(db: Path) -> GitaService:
    return GitaService(GitaSettings(db_path=db))


def whole_or_absent(db: Path) -> dict[str, int]:
    """The books a reader of `db` sees, each checked whole: every row of a book listed, none of another."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        listed = dict(conn.execute("SELECT book, texts FROM books").fetchall())
        rows = dict(conn.execute("SELECT book, count(*) FROM book_verses GROUP BY book").fetchall())
    assert rows == listed, f"half-written: {rows} rows for {listed}"
    return listed


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_default_source_is_the_pinned_upstream_archive():
    assert GitaSettings().books_source == UPSTREAM_ARCHIVE
    assert UPSTREAM_ARCHIVE.endswith(f"/tar.gz/{UPSTREAM_COMMIT}")


def test_a_second_install_does_nothing_and_force_replaces_a_book_whole(books_copy, scripture_archive):
    gita = service(books_copy)
    before = gita.store.installed_books()
    again = gita.install_books(["sb", "cc"], str(scripture_archive))
    assert [b.installed_now for b in again.books] == [False, False] and "Already installed" in again.notes[0]
    assert gita.store.installed_books() == before
    forced = gita.install_books(["cc"], str(scripture_archive), force=True)
    after = gita.store.installed_books()
    assert forced.books[0].installed_now and after["CC"].installed_ns > before["CC"].installed_ns
    assert after["SB"] == before["SB"] and after["CC"].verses == 11_555
    assert gita.lookup("CC Antya 20.12").transliteration.startswith("ceto-darpaṇa-mārjanaṁ")
    gita.close()


def _install(db: Path, source: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "pramana", "gita", "install", "sb", "cc", "--source", source, "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _holds(condition) -> bool:  # type: ignore[no-untyped-def]
    """The condition, polled while the install writes: a file it lists may be renamed away (the
    install's atomic writes of `*.part.json`) before it is read, which is "not yet", not an error."""
    try:
        return bool(condition())
    except FileNotFoundError:
        return False


def _kill_when(process: subprocess.Popen[str], condition, timeout: float = 120) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not _holds(condition):
        assert process.poll() is None, f"finished before it could be killed: {process.stderr.read()}"
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()


def test_an_install_killed_while_downloading_serves_nothing_and_the_next_one_resumes(
    tmp_path, scripture_archive
):
    """Killed mid-download, nothing is served; run again, it asks for the rest only, and the user's
    own translations (an archive with translations written for the test) are kept in the cache."""
    served = tmp_path / "served"
    served.mkdir()
    with_own_translations(scripture_archive, served / ARCHIVE_NAME)
    db = tmp_path / "gita.db"
    handler = upstream(pause=0.05)  # 64 KiB every 50 ms: slow enough to be killed mid-download
    seen: list[tuple[int, int, str]] = []
    with LoopbackServer(handler, served) as server:
        url = f"{server.url}/{ARCHIVE_NAME}"
        process = _install(db, url)
        parts = tmp_path / "downloads"
        _kill_when(process, lambda: any(p.stat().st_size > 300_000 for p in parts.glob("*.part")))
        assert not db.exists() or whole_or_absent(db) == {}
        handler.pause = 0.0
        handler.exchanges.clear()
        gita = service(db)
        result = gita.install_books(["sb", "cc"], url, lambda *p: seen.append(p))
    (headers, status), *_ = handler.exchanges
    assert status == 206 and int(headers["range"].split("=")[1].rstrip("-")) > 300_000
    assert result.downloaded_bytes == (served / ARCHIVE_NAME).stat().st_size
    assert whole_or_absent(db) == {"SB": 13_003, "CC": 11_359}
    assert {message for _, _, message in seen} >= {"downloading", "writing SB", "writing CC", "installed"}
    assert not list(parts.glob("scripture-*"))  # the archive is removed once installed
    verse = gita.lookup("SB 1.2.6")
    assert verse.translation.text == OWN_TEXTS["sb/1/2/6"]["translation"]
    assert verse.synonyms == OWN_TEXTS["sb/1/2/6"]["synonyms"]
    assert gita.lookup("SB 10.1.6").translation.text.startswith("A quillwort sentence for three verses")
    found = gita.search("quillwort steady love", 3)
    assert found.results[0].ref == "SB 1.2.6" and "quillwort" in found.results[0].translation_excerpt
    assert gita.store.installed_books()["CC"].translations == 1 + 2  # CC Ādi 17.31, and 1.4-1.5 upstream
    gita.close()
    assert b"lanternfish" not in db.read_bytes()  # purports are never stored


def test_an_install_killed_while_writing_leaves_each_book_whole_or_absent(tmp_path, scripture_archive):
    db = tmp_path / "gita.db"
    wal = db.with_name("gita.db-wal")
    process = _install(db, str(scripture_archive))
    _kill_when(process, lambda: wal.exists() and wal.stat().st_size > 1_000_000)
    partial = whole_or_absent(db)
    assert partial in ({}, {"SB": 13_003})
    assert service(db).install_books(["sb", "cc"], str(scripture_archive)).books[-1].installed_now
    assert whole_or_absent(db) == {"SB": 13_003, "CC": 11_359}


def test_a_damaged_or_short_archive_is_refused_and_what_was_installed_stays(
    books_copy, scripture_archive, tmp_path
):
    gita = service(books_copy)
    before = gita.store.installed_books()
    cut = truncated(scripture_archive, tmp_path / "cut.tar.gz")
    with pytest.raises(SourceError, match=r"damaged or incomplete.*nothing was installed"):
        gita.install_books(["sb"], str(cut), force=True)
    short = without(scripture_archive, tmp_path / "short.tar.gz", "/sb/3/3/17.json", "/cc/adi/17/31.json")
    with pytest.raises(SourceError) as refused:
        gita.install_books(["sb", "cc"], str(short), force=True)
    message = str(refused.value)
    assert "is not a complete copy" in message and "nothing was installed" in message
    assert "SB 3.3.17 missing" in message and "CC Ādi 17.31 missing" in message
    assert "14,089 verses where the Śrīmad-Bhāgavatam has 14,090" in message
    assert str(tmp_path) not in message  # no server path in an answer
    assert gita.store.installed_books() == before
    gita.close()


def test_an_unreachable_source_is_an_error_naming_source(tmp_path):
    url = f"http://127.0.0.1:{free_port()}/{ARCHIVE_NAME}"
    with pytest.raises(SourceUnreachableError, match="--source") as refused:
        service(tmp_path / "gita.db").install_books(["sb", "cc"], url)
    # Refused at once: the connection was refused (ConnectError), not waited for until a timeout.
    assert "ConnectError" in str(refused.value) and "Timeout" not in str(refused.value)
    cli = run_pramana("gita", "install", "sb", "cc", "--source", url, "--db", str(tmp_path / "cli.db"))
    assert cli.returncode == 2
    lines = cli.stderr.strip().splitlines()
    assert lines[-1].startswith("error: Cannot reach the books' archive at") and "--source" in lines[-1]
    assert "Traceback" not in cli.stderr


def test_install_names_what_it_installs(tmp_path):
    with pytest.raises(Exception, match="nothing to install"):
        service(tmp_path / "g.db").install_books(["bg"])
    missing = run_pramana(
        "gita", "install", "sb", "--source", str(tmp_path / "nowhere"), "--db", str(tmp_path / "g.db")
    )
    assert missing.returncode == 2 and "no file or folder" in missing.stderr
    assert str(tmp_path) not in missing.stderr
