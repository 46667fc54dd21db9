"""An index run cut off part-way says so everywhere until a run completes (and the next run carries
on); symbolic links inside the repository are followed, each file once, and links that leave it are
refused with the reason; the CLI inside an indexed checkout needs no --repo."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from pramana.cli import app
from pramana.code.data import check_code_index
from pramana.code.index.indexer import Indexer
from pramana.code.index.store import BulkWriter
from pramana.code.index.walk import Walk
from pramana.code.service import CodeService, IndexProgress
from pramana.code.store import CodeStore
from pramana.install import command


class Killed(BaseException):
    """What a kill looks like from inside: the run stops wherever it is."""


def test_an_interrupted_index_says_so_until_a_run_completes(fresh_repo, tmp_path, monkeypatch):
    path = tmp_path / "code.db"
    store = CodeStore(path)
    monkeypatch.setattr(Indexer, "BATCH_ROWS", 1)  # every file committed as it comes
    real_add = BulkWriter.add
    written: list[str] = []

    def add_then_die(self, prepared):  # type: ignore[no-untyped-def]
        if len(written) == 5:
            raise Killed
        written.append(prepared.file.path)
        real_add(self, prepared)

    monkeypatch.setattr(BulkWriter, "add", add_then_die)
    with pytest.raises(Killed):
        Indexer(fresh_repo, store, workers=0).run()
    monkeypatch.setattr(BulkWriter, "add", real_add)

    state = store.index_state()
    assert not state.complete and state.files == 5 and state.files_total == 16
    service = CodeService(store, fresh_repo)
    answer = service.search_code("refund a payment")
    assert answer.indexing is not None and "incomplete (5 of 16 files)" in answer.indexing
    doctor = check_code_index(path, fresh_repo)
    assert not doctor.ready and "incomplete (5 of 16 files)" in doctor.has
    assert doctor.next == command(f"code index {fresh_repo}")

    report = Indexer(fresh_repo, store, workers=0).run()  # a restart carries on
    assert report.files_unchanged == 5 and report.files_parsed == 11
    assert store.index_state().complete and store.counts()["files"] == 16
    assert CodeService(store, fresh_repo).search_code("refund a payment").indexing is None
    assert check_code_index(path, fresh_repo).ready


def test_a_running_index_is_reported_but_an_up_to_date_one_is_not(sample_store, sample_repo):
    walking = IndexProgress(stage="parse", done=0, total=0)  # the walk, before any file is read
    assert CodeService(sample_store, sample_repo, progress=walking).search_code("cart").indexing is None
    parsing = IndexProgress(stage="parse", done=3, total=16)
    shown = CodeService(sample_store, sample_repo, progress=parsing).search_code("cart").indexing
    assert shown is not None and "3/16" in shown


def test_links_inside_the_repository_are_followed_once_and_links_out_refused(tmp_path):
    root = tmp_path / "repo"
    (root / "Core").mkdir(parents=True)
    (root / "Core" / "Session.swift").write_text("class Session { func resume() {} }\n")
    (root / "hidden").mkdir()
    (root / "hidden" / "Only.swift").write_text("struct OnlyThroughALink {}\n")
    (root / ".gitignore").write_text("hidden/\n")
    (root / "Sources").mkdir()
    os.symlink("../Core", root / "Sources" / "Core")  # a folder of links into a sibling folder
    os.symlink("../hidden/Only.swift", root / "Sources" / "Only.swift")
    outside = tmp_path / "secret.swift"
    outside.write_text("let key = 1\n")
    os.symlink(outside, root / "Sources" / "Secret.swift")
    os.symlink(".", root / "Sources" / "again")  # a loop
    os.symlink("missing.swift", root / "Sources" / "Broken.swift")

    walk = Walk(root)
    paths = [f.path for f in walk.files() if f.path.endswith(".swift")]
    assert paths == ["Core/Session.swift", "Sources/Only.swift"]  # its own path first, else the link's
    refused = "\n".join(walk.refused)
    assert "Sources/Secret.swift -> " in refused and "leads out of the repository" in refused
    assert "Sources/again -> Sources: a loop" in refused
    assert "Sources/Broken.swift -> " in refused and "does not exist" in refused

    store = CodeStore(tmp_path / "code.db")
    report = Indexer(root, store, workers=0).run()
    assert report.refused_links == walk.refused
    service = CodeService(store, root)
    assert [s.name for s in service.list_functions("Sources/Only.swift").symbols] == ["OnlyThroughALink"]
    assert "OnlyThroughALink" in service.get_file("Sources/Only.swift").content
    with pytest.raises(Exception, match="outside the repository"):
        service.get_file("Sources/Secret.swift")


def test_the_cli_inside_an_indexed_checkout_needs_no_repo(fresh_repo, tmp_path, monkeypatch):
    monkeypatch.setenv("PRAMANA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("PRAMANA_CODE_REPO", raising=False)
    monkeypatch.delenv("PRAMANA_CODE_DB", raising=False)
    runner = CliRunner()
    indexed = runner.invoke(app, ["code", "index", str(fresh_repo), "--embedder", "none"])
    assert indexed.exit_code == 0, indexed.output
    assert "link not followed" in indexed.output and "escape.py" in indexed.output
    monkeypatch.chdir(fresh_repo / "packages" / "api")
    found = runner.invoke(app, ["code", "search", "refund a payment", "-n", "1"])
    assert found.exit_code == 0, found.output
    assert "refund_payment" in found.output
    monkeypatch.chdir(tmp_path)
    elsewhere = runner.invoke(app, ["code", "search", "refund"])
    assert elsewhere.exit_code == 2 and "--repo" in elsewhere.output


def test_a_bulk_write_raises_the_page_cache_for_itself_and_gives_it_back(fresh_repo, tmp_path, monkeypatch):
    store = CodeStore(tmp_path / "code.db")
    conn = store._conn

    def pragmas() -> tuple[int, int]:
        return conn.execute("PRAGMA cache_size").fetchone()[0], conn.execute(
            "PRAGMA wal_autocheckpoint"
        ).fetchone()[0]

    before = pragmas()
    seen: list[tuple[int, int]] = []
    real_add = BulkWriter.add
    monkeypatch.setattr(
        BulkWriter, "add", lambda self, prepared: seen.append(pragmas()) or real_add(self, prepared)
    )
    Indexer(fresh_repo, store, workers=0).run()
    assert seen and set(seen) == {(-BulkWriter.CACHE_KIB, BulkWriter.CHECKPOINT_PAGES)} != {before}
    assert pragmas() == before  # the connection serves reads afterwards as it did
    with pytest.raises(Killed), store.bulk_writer():
        raise Killed  # given back after a failure too
    assert pragmas() == before
