"""Installing over real HTTP on 127.0.0.1, including a failure halfway through a download."""

import asyncio
import multiprocessing
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from pramana.errors import SourceError
from pramana.sanskrit import source
from pramana.sanskrit.importers import import_path
from pramana.sanskrit.source import install
from pramana.sanskrit.store import SanskritStore
from tests.conftest import LoopbackServer, RangeHandler


def counts(db):
    conn = sqlite3.connect(db)
    return dict(conn.execute("SELECT code, entry_count FROM dictionaries").fetchall())


def test_install_over_http(tmp_path, csl_url):
    store = SanskritStore(tmp_path / "s.db")
    done = asyncio.run(install(store, ["nmmb", "ap90"], csl_url, tmp_path / "dl"))
    assert [(d.code, d.entries) for d in done] == [("nmmb", 506), ("ap90", 31_720)]
    assert done[1].alternates > 400
    assert counts(tmp_path / "s.db") == {"nmmb": 506, "ap90": 31_720}
    assert not list((tmp_path / "dl").rglob("*.part"))


def test_a_download_cut_halfway_resumes(tmp_path, csl_data):
    handler = type("Cutting", (RangeHandler,), {"cut": {"/ap90/ap90.txt"}, "requests": []})
    store = SanskritStore(tmp_path / "s.db")
    with LoopbackServer(handler, csl_data) as server:
        done = asyncio.run(install(store, ["ap90"], server.url, tmp_path / "dl"))
    assert done[0].entries == 31_720
    ranges = [r for path, r in handler.requests if path == "/ap90/ap90.txt"]
    assert ranges[0] == "" and ranges[1].startswith("bytes=") and ranges[1] != "bytes=0-"


def test_failed_install_keeps_the_previous_state(tmp_path, csl_data, csl_url):
    store = SanskritStore(tmp_path / "s.db")
    asyncio.run(install(store, ["nmmb"], csl_url, tmp_path / "dl"))
    broken = tmp_path / "broken"
    (broken / "nmmb").mkdir(parents=True)
    text = (csl_data / "nmmb" / "nmmb.txt").read_text("utf-8")
    (broken / "nmmb" / "nmmb.txt").write_text(text[: len(text) // 2], "utf-8")  # ends inside a record
    with pytest.raises(SourceError, match="unchanged"):
        asyncio.run(install(store, ["nmmb"], str(broken), tmp_path / "dl2"))
    assert counts(tmp_path / "s.db") == {"nmmb": 506}


def test_unknown_code_and_path_tricks(tmp_path, csl_url):
    store = SanskritStore(tmp_path / "s.db")
    with pytest.raises(Exception, match="csl-orig dictionary code"):
        asyncio.run(install(store, ["nosuchdict"], csl_url, tmp_path / "dl"))
    with pytest.raises(Exception, match="letters and digits"):
        asyncio.run(install(store, ["../etc"], csl_url, tmp_path / "dl"))


def test_metadata_from_dictionaries_json_fills_what_headers_lack(tmp_path, csl_url, csl_data):
    """fri has no header XML; the catalogue beside the source still names it and its languages."""
    import json

    from pramana.sanskrit.source import parse_catalogue

    store = SanskritStore(tmp_path / "s.db")
    asyncio.run(install(store, ["fri", "ap90"], csl_url, tmp_path / "dl"))
    listed = {d.code: d for d in store.dictionaries()}
    catalogue = {
        d["code"]: d for d in json.loads((csl_data / "dictionaries.json").read_text("utf-8"))["dictionaries"]
    }
    expected_title = catalogue["fri"].get("title_main") or catalogue["fri"].get("title_key") or "fri"
    assert listed["fri"].name == expected_title
    assert (listed["fri"].from_lang, listed["fri"].to_lang) == ("sa", "en")
    assert listed["fri"].licence == "unknown (no header)"  # only the catalogue says this
    assert listed["ap90"].name == "Apte's Practical Sanskrit-English Dictionary"  # the header wins
    assert parse_catalogue("not json") == {} and parse_catalogue('{"dictionaries": [42]}') == {}


def test_doctor_says_when_the_form_index_is_an_older_pramanas(forms_db, tmp_path, monkeypatch):
    """A form index an older pramana built still answers with the forms it had: doctor names the command
    that rebuilds it; a current one gets no such line."""
    from pramana.install import command
    from pramana.sanskrit.data import PURE_PYTHON_HINT, doctor

    copy = tmp_path / "sanskrit.db"
    shutil.copy(forms_db, copy)
    monkeypatch.setenv("SANSKRIT_DB_PATH", str(copy))
    [current] = doctor()
    # the tests run the source (an editable install): doctor says so, and says nothing else
    assert current.ready and current.optional == (PURE_PYTHON_HINT,)
    with closing(sqlite3.connect(copy)) as conn, conn:
        conn.execute("UPDATE form_state SET value = '1' WHERE key = 'lexicon'")
    [stale] = doctor()
    assert stale.ready
    [line, _] = stale.optional
    assert "older pramana (version 1" in line and command("sanskrit forms") in line


def table_rows(db):
    """Every table's rows (FTS5 shadow tables included), in order, with no install time."""
    with closing(sqlite3.connect(db)) as conn:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        tables = {}
        for name in sorted(names):
            rows = conn.execute(f'SELECT * FROM "{name}"').fetchall()
            if name == "dictionaries":
                rows = [row[:-1] for row in rows]  # installed_at
            tables[name] = sorted(rows, key=repr)
    return tables


def test_reading_in_a_second_process_writes_the_same_rows(tmp_path, csl_url, monkeypatch):
    """ap90 (over WORKER_FROM_BYTES) and nmmb (bare SLP1, under it) installed with their entries made
    in a second process and in this one: the databases hold the same rows, table by table."""
    monkeypatch.setattr(source, "WORKER_FROM_BYTES", 0)
    asyncio.run(install(SanskritStore(tmp_path / "worker.db"), ["nmmb", "ap90"], csl_url, tmp_path / "dl"))
    monkeypatch.setattr(source, "WORKER_FROM_BYTES", 10**12)
    asyncio.run(install(SanskritStore(tmp_path / "here.db"), ["nmmb", "ap90"], csl_url, tmp_path / "dl"))
    worker, here = table_rows(tmp_path / "worker.db"), table_rows(tmp_path / "here.db")
    assert len(worker["entries"]) == 506 + 31_720 and len(worker["headwords"]) > len(worker["entries"])
    assert worker.keys() == here.keys()
    for name in worker:
        assert worker[name] == here[name], name


def test_a_failure_in_the_second_process_keeps_the_previous_state(tmp_path, csl_data, csl_url, monkeypatch):
    monkeypatch.setattr(source, "WORKER_FROM_BYTES", 0)
    store = SanskritStore(tmp_path / "s.db")
    asyncio.run(install(store, ["nmmb"], csl_url, tmp_path / "dl"))
    before = table_rows(tmp_path / "s.db")
    broken = tmp_path / "broken"
    (broken / "nmmb").mkdir(parents=True)
    text = (csl_data / "nmmb" / "nmmb.txt").read_text("utf-8")
    (broken / "nmmb" / "nmmb.txt").write_text(text[: len(text) * 3 // 4], "utf-8")  # ends inside a record
    with pytest.raises(SourceError, match=r"ends inside record .*unchanged"):
        asyncio.run(install(store, ["nmmb"], str(broken), tmp_path / "dl2"))
    assert table_rows(tmp_path / "s.db") == before
    assert not multiprocessing.active_children()  # the second process is gone


def _import_one_page(folder: Path, db: Path) -> None:
    import_path(SanskritStore(db), folder, "mw")


def test_a_daemonic_process_imports_without_a_second_one(tmp_path, csl_data):
    """A daemonic process (a tool's worker process) may not start children: it makes the entries itself."""
    folder = tmp_path / "mw"
    folder.mkdir()
    (folder / "1.html").write_bytes((csl_data / "mw" / "heritage_xhtml" / "100.html").read_bytes())
    process = multiprocessing.get_context("spawn").Process(
        target=_import_one_page, args=(folder, tmp_path / "s.db"), daemon=True
    )
    process.start()
    process.join(120)
    assert process.exitcode == 0
    here = SanskritStore(tmp_path / "here.db")
    import_path(here, folder, "mw")
    here.close()
    assert table_rows(tmp_path / "s.db") == table_rows(tmp_path / "here.db")
