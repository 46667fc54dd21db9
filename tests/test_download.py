"""`pramana.download` against a real HTTP server on 127.0.0.1: a resumed download is the upstream file
exactly (never a mix of two versions, never a decoded/encoded hybrid), and a bad one is deleted."""

import asyncio
import hashlib
import os
import time

import pytest

from pramana.download import download
from pramana.errors import NotFoundError, SourceError
from tests.conftest import LoopbackServer, RangeHandler

NAME = "release.bin"


def handler(**behaviour: object) -> type[RangeHandler]:
    """A RangeHandler of its own (fresh logs), cutting release.bin once, with `behaviour` on top."""
    attributes = {"cut": {f"/{NAME}"}, "requests": [], "exchanges": [], "next_version": {}}
    return type("Upstream", (RangeHandler,), {**attributes, **behaviour})


@pytest.fixture
def served(tmp_path):
    folder = tmp_path / "served"
    folder.mkdir()
    (folder / NAME).write_bytes(os.urandom(1 << 20))
    return folder


@pytest.fixture
def target(tmp_path):
    return tmp_path / "dl" / NAME


def part(target):
    return target.with_name(NAME + ".part")


def fetch(url: str, target, **options):
    return asyncio.run(download(f"{url}/{NAME}", target, **options))


def leftovers(target) -> list[str]:
    return sorted(p.name for p in target.parent.iterdir() if p.name != target.name)


def test_a_cut_download_resumes_where_it_stopped_for_the_same_version(served, target):
    upstream = handler()
    with LoopbackServer(upstream, served) as server:
        fetch(server.url, target)
    assert target.read_bytes() == (served / NAME).read_bytes()
    (first, first_status), (second, second_status) = upstream.exchanges
    assert (first_status, second_status) == (200, 206)
    assert "range" not in first and second["range"] == f"bytes={(1 << 20) // 2}-"
    assert second["if-range"].startswith('"')  # the ETag the first answer carried
    assert first["accept-encoding"] == second["accept-encoding"] == "identity"
    assert leftovers(target) == []  # no .part, no .part.json


def test_a_file_replaced_between_attempts_is_fetched_anew(served, target):
    new = os.urandom(1 << 19) + b"the next release"
    upstream = handler(next_version={f"/{NAME}": new})
    with LoopbackServer(upstream, served) as server:
        fetch(server.url, target)
    assert target.read_bytes() == new
    assert [status for _, status in upstream.exchanges] == [200, 200]  # If-Range failed: all of it


def test_a_server_that_ignores_if_range_cannot_mix_two_versions(served, target):
    new = os.urandom(1 << 20)  # the same size, so only the ETag tells the versions apart
    upstream = handler(next_version={f"/{NAME}": new}, if_range=False)
    with LoopbackServer(upstream, served) as server:
        fetch(server.url, target)
    assert target.read_bytes() == new
    # the 206 named another version, so the part was dropped and the whole file asked for
    assert [(h.get("range", ""), status) for h, status in upstream.exchanges][1:] == [
        (f"bytes={(1 << 20) // 2}-", 206),
        ("", 200),
    ]


def test_last_modified_validates_a_resume_when_there_is_no_etag(served, target):
    os.utime(served / NAME, (time.time() - 3600,) * 2)  # older than the Date: a strong validator
    upstream = handler(etag=False)
    with LoopbackServer(upstream, served) as server:
        fetch(server.url, target)
    assert target.read_bytes() == (served / NAME).read_bytes()
    resumed = upstream.exchanges[1][0]
    assert resumed["range"] != "bytes=0-" and resumed["if-range"].endswith(" GMT")


@pytest.mark.parametrize(
    "behaviour",
    [
        {"etag": False, "last_modified": False},
        {"etag": False},  # Last-Modified not a second before the Date: it could hide a second change
    ],
    ids=["no-validator", "fresh-last-modified"],
)
def test_without_a_validator_a_part_is_never_resumed(served, target, behaviour):
    # Modified "now" as the server sees it, however long a busy machine takes to get to the request
    # (the file's own mtime was a second old by then in one run, which made it a strong validator).
    os.utime(served / NAME, (time.time() + 60,) * 2)
    upstream = handler(**behaviour)
    with LoopbackServer(upstream, served) as server:
        fetch(server.url, target)
    assert target.read_bytes() == (served / NAME).read_bytes()
    assert [h.get("range", "") for h, _ in upstream.exchanges] == ["", ""]


def test_a_gzipped_body_is_stored_as_the_file_and_never_resumed(served, target):
    (served / NAME).write_bytes(b"compressible text " * 50_000 + os.urandom(1 << 18))
    upstream = handler(gzip=True)  # whatever Accept-Encoding says
    with LoopbackServer(upstream, served) as server:
        fetch(server.url, target)
    assert target.read_bytes() == (served / NAME).read_bytes()
    assert [h.get("range", "") for h, _ in upstream.exchanges] == ["", ""]  # started over
    assert leftovers(target) == []


def interrupted(server_url: str, target) -> None:
    """One attempt, cut halfway: leaves the part and its sidecar as a real failed run does."""
    with pytest.raises(SourceError, match=rf"download of {server_url}/{NAME} failed.*run again"):
        fetch(server_url, target, retries=1)
    assert leftovers(target) == [f"{NAME}.part", f"{NAME}.part.json"]


def test_a_416_to_a_complete_part_of_the_same_version_completes_it(served, target):
    upstream = handler()
    with LoopbackServer(upstream, served) as server:
        interrupted(server.url, target)
        part(target).write_bytes((served / NAME).read_bytes())  # died before the rename
        fetch(server.url, target)
    assert target.read_bytes() == (served / NAME).read_bytes()
    last, status = upstream.exchanges[-1]
    assert status == 416 and last["range"] == f"bytes={1 << 20}-" and "if-range" in last
    assert len(upstream.exchanges) == 2  # nothing downloaded again
    assert leftovers(target) == []


def test_a_416_to_a_longer_part_starts_over(served, target):
    upstream = handler()
    with LoopbackServer(upstream, served) as server:
        interrupted(server.url, target)
        part(target).write_bytes((served / NAME).read_bytes() + b"stale tail")
        fetch(server.url, target)
    assert target.read_bytes() == (served / NAME).read_bytes()
    assert [status for _, status in upstream.exchanges][1:] == [416, 200]


def test_a_416_naming_another_version_starts_over(served, target):
    upstream = handler(if_range=False)
    with LoopbackServer(upstream, served) as server:
        interrupted(server.url, target)
        stale = (served / NAME).read_bytes()
        part(target).write_bytes(stale)  # complete, but of the old version
        (served / NAME).write_bytes(os.urandom(len(stale)))  # a new release of the same size
        fetch(server.url, target)
    assert target.read_bytes() == (served / NAME).read_bytes() != stale
    assert [status for _, status in upstream.exchanges][1:] == [416, 200]


def test_a_part_without_its_sidecar_is_not_trusted(served, target):
    """A .part left by a crash before the sidecar was written (or by an older pramana)."""
    target.parent.mkdir()
    part(target).write_bytes(b"who knows what" * 1000)
    upstream = handler(cut=set())
    with LoopbackServer(upstream, served) as server:
        fetch(server.url, target)
    assert target.read_bytes() == (served / NAME).read_bytes()
    assert [h.get("range", "") for h, _ in upstream.exchanges] == [""]


def test_a_checksum_mismatch_deletes_the_download(tmp_path, served, target):
    data = (served / NAME).read_bytes()
    with LoopbackServer(handler(), served) as server:
        with pytest.raises(SourceError, match=rf"checksum mismatch for {server.url}/{NAME}.*run again"):
            fetch(server.url, target, sha256="0" * 64)
        assert list(target.parent.iterdir()) == []  # no target, no .part, no sidecar
        fetch(server.url, target, sha256=hashlib.sha256(data).hexdigest().upper())
    assert target.read_bytes() == data
    with pytest.raises(SourceError, match="checksum mismatch"):  # a local source is checked the same way
        asyncio.run(download(str(served / NAME), tmp_path / "copy.bin", sha256="0" * 64))
    assert not (tmp_path / "copy.bin").exists() and not (tmp_path / "copy.bin.part").exists()


def test_a_missing_file_is_one_clear_error(tmp_path, served, target):
    with LoopbackServer(handler(), served) as server, pytest.raises(NotFoundError) as caught:
        asyncio.run(download(f"{server.url}/nothing.bin", tmp_path / "nothing.bin"))
    assert str(caught.value) == f"{server.url}/nothing.bin was not found (HTTP 404); check the URL"
