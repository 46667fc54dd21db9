"""`pramana pali download` against a real HTTP server on 127.0.0.1: checksum, resume, bad archives."""

import asyncio
import hashlib
import os
import tarfile

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from pramana.errors import SourceError
from pramana.pali.service import PaliService
from pramana.pali.source import download_release
from pramana.pali.tables import Base, DpdHeadword, Lookup
from tests.conftest import LoopbackServer, RangeHandler


@pytest.fixture
def release(tmp_path):
    """A DPD-shaped dpd.db (DPD's tables only, no pramana index) packed as DPD packs its release."""
    db = tmp_path / "build" / "dpd.db"
    db.parent.mkdir()
    engine = create_engine(f"sqlite:///{db}")
    Base.metadata.create_all(engine)
    with Session(engine) as session:  # through DPD's models, as DPD's own code writes it
        session.add(DpdHeadword(id=34626, lemma_1="dhamma 1.01", pos="masc", meaning_1="nature; character",
                                construction="√dhar + ma", stem="dhamm", pattern="a masc"))  # fmt: skip
        session.add(
            Lookup(lookup_key="dhammo", headwords="[34626]", grammar='[["dhamma", "noun", "masc nom sg"]]')
        )
        session.commit()
    engine.dispose()
    served = tmp_path / "served"
    served.mkdir()
    archive = served / "dpd.db.tar.bz2"
    with tarfile.open(archive, "w:bz2") as tar:
        noise = tmp_path / "build" / "notes.bin"  # big enough that a cut download has a part to resume
        noise.write_bytes(os.urandom(1 << 20))
        tar.add(noise, arcname="notes.bin")
        tar.add(db, arcname="dpd.db")
    (served / "dpd.db.tar.bz2.sha256").write_text(
        hashlib.sha256(archive.read_bytes()).hexdigest() + "  dpd.db.tar.bz2\n"
    )
    return served


def test_download_unpacks_verifies_and_indexes(tmp_path, release):
    handler = type("Cutting", (RangeHandler,), {"cut": {"/dpd.db.tar.bz2"}, "requests": []})
    target = tmp_path / "data" / "dpd.db"
    with LoopbackServer(handler, release) as server:
        asyncio.run(download_release(f"{server.url}/dpd.db.tar.bz2", target))
    ranges = [r for path, r in handler.requests if path == "/dpd.db.tar.bz2"]
    assert ranges[0] == "" and ranges[1].startswith("bytes=") and ranges[1] != "bytes=0-"  # resumed
    service = PaliService(target)
    assert service.analyze("dhammo").tokens[0].candidates[0].readings == ["masc nom sg"]
    assert service.search_meaning("character").results[0].id == 34626  # the meaning index was added
    assert not list(target.parent.glob(".*.part"))  # nothing unfinished left


def test_checksum_mismatch_keeps_the_old_database(tmp_path, release):
    (release / "dpd.db.tar.bz2.sha256").write_text("0" * 64 + "  dpd.db.tar.bz2\n")
    target = tmp_path / "dpd.db"
    target.write_bytes(b"the old one")
    with LoopbackServer(RangeHandler, release) as server, pytest.raises(SourceError, match="checksum"):
        asyncio.run(download_release(f"{server.url}/dpd.db.tar.bz2", target))
    assert target.read_bytes() == b"the old one"


def test_not_an_archive(tmp_path, release):
    (release / "dpd.db.tar.bz2").write_bytes(b"not bzip2 at all")
    (release / "dpd.db.tar.bz2.sha256").unlink()
    with LoopbackServer(RangeHandler, release) as server, pytest.raises(SourceError, match=r"tar\.bz2"):
        asyncio.run(download_release(f"{server.url}/dpd.db.tar.bz2", tmp_path / "dpd.db"))
    assert not (tmp_path / "dpd.db").exists()


def test_a_database_without_pramanas_index_still_searches(tmp_path, release):
    """A dpd.db copied in by hand (no pramana tables): meaning search falls back to a scan."""
    # Not extractall(filter=...): that argument came in Python 3.11.4, and Debian 12 has 3.11.2.
    with tarfile.open(release / "dpd.db.tar.bz2") as tar:
        packed = tar.extractfile("dpd.db")
        assert packed is not None
        (tmp_path / "dpd.db").write_bytes(packed.read())
    service = PaliService(tmp_path / "dpd.db")
    assert not service.store.has_meaning_index
    assert [hit.id for hit in service.search_meaning("nature").results] == [34626]
