"""Atomic, resumable downloads of large files (dictionaries, databases).

A file is written to `<target>.part`; only a complete, verified file is renamed into place, so a
reader never sees half a file. A local path as the source is copied the same way.

Resuming is only safe when the rest of the file comes from the same upstream version as the part
already on disk, so `<target>.part.json` (the sidecar) records the URL, the version's validator and
its size. The sidecar exists only while the part can be resumed; an interrupted download then asks
for the rest with `Range` + `If-Range: <validator>`, and anything short of a 206 (or 416) that names
the same version and continues at the right byte means starting over from byte 0. Validators:
a strong ETag, else a Last-Modified date that is at least one second older than the response's Date
(RFC 9110 8.8.2.2: only then can it not hide a second change within the same second). Without
one, or when the server content-encodes the body (httpx hands over decoded bytes while Range counts
encoded ones), a part is never resumed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pramana.errors import NotFoundError, SourceError, SourceUnreachableError
from pramana.store.atomic import write_text

if TYPE_CHECKING:  # imported by download(): file_sha256's users need no HTTP client
    import httpx

ByteProgress = Callable[[int, int | None], Awaitable[None]]
CHUNK = 1 << 16
_CONTENT_RANGE = re.compile(r"bytes\s+(?:(\d+)-(\d+)|\*)/(\d+|\*)")


async def download(
    source: str,
    target: Path,
    *,
    timeout: float = 30.0,
    retries: int = 3,
    progress: ByteProgress | None = None,
    sha256: str | None = None,
) -> Path:
    """Fetch `source` (http(s) URL or local path) to `target`, atomically, resuming a partial file
    when the server proves it is the same version; with `sha256`, the file must have that digest."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = _part(target)
    if not source.startswith(("http://", "https://")):
        path = Path(source).expanduser()
        if not path.is_file():
            raise NotFoundError(f"{path} was not found")
        shutil.copyfile(path, partial)
    else:
        await _download_url(source, partial, timeout=timeout, retries=retries, progress=progress)
    if sha256:
        _verify_sha256(source, partial, sha256)
    partial.replace(target)
    _sidecar(partial).unlink(missing_ok=True)
    if progress and not source.startswith(("http://", "https://")):
        await progress(target.stat().st_size, target.stat().st_size)
    return target


def file_sha256(path: Path) -> str:
    """The sha256 of a file, read in blocks (downloads and model weights are checked against one)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _part(target: Path) -> Path:
    return target.with_name(target.name + ".part")


def _sidecar(partial: Path) -> Path:
    return partial.with_name(partial.name + ".json")


@dataclass(frozen=True)
class _Resumable:
    """What the sidecar says about the part beside it: which version of which URL it is a prefix of."""

    url: str
    validator: str
    total: int | None


class _Incomplete(Exception):
    """The transfer stopped early: retry, resuming where it stopped."""


class _Restart(Exception):
    """The part cannot be continued (it was discarded): ask for the whole file again."""


async def _download_url(
    url: str, partial: Path, *, timeout: float, retries: int, progress: ByteProgress | None
) -> None:
    import httpx

    from pramana.fetch import USER_AGENT

    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    last_error = ""
    failures = 0
    reached = False  # any answer at all: a transfer that broke can be resumed; no answer is "offline"
    async with httpx.AsyncClient(
        follow_redirects=True, timeout=httpx.Timeout(timeout), headers=headers
    ) as client:
        while failures < retries:
            try:
                await _fetch(client, url, partial, progress)
                return
            except _Restart:
                # Not counted: the part is gone, so the next request has no Range and cannot
                # end in another restart (a 206 or 416 to it is a SourceError).
                continue
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                failures += 1
                last_error = f"{type(exc).__name__}: {exc}"
            except (httpx.TransportError, httpx.DecodingError, _Incomplete) as exc:
                failures += 1
                reached = True
                last_error = f"{type(exc).__name__}: {exc}"
    if not reached and not partial.exists():
        raise SourceUnreachableError(f"{last_error}, {retries} attempts")
    raise SourceError(
        f"download of {url} failed after {retries} attempts ({last_error}); run again to resume"
    )


async def _fetch(client: httpx.AsyncClient, url: str, partial: Path, progress: ByteProgress | None) -> None:
    resume = _load_resumable(url, partial)
    have = partial.stat().st_size if resume else 0
    headers = {"Range": f"bytes={have}-", "If-Range": resume.validator} if resume else {}
    async with client.stream("GET", url, headers=headers) as response:
        status = response.status_code
        if status in (404, 410):
            raise NotFoundError(f"{url} was not found (HTTP {status}); check the URL")
        if status >= 500:
            raise _Incomplete(f"HTTP {status}")
        if resume and status == 416:
            total = _accept_complete_part(response, resume, have, partial)
            if progress:
                await progress(have, total)
        elif resume and status == 206:
            total = _continue_at(response, resume, have, partial)
            await _write_body(response, partial, "ab", have, total, progress)
        elif status == 200:  # a fresh download, or the file changed since the part (If-Range failed)
            total = _start_over(response, url, partial)
            await _write_body(response, partial, "wb", 0, total, progress)
        else:
            raise SourceError(f"{url} answered HTTP {status} to a download; check the URL or try later")
    _check_size(url, partial, total)


def _load_resumable(url: str, partial: Path) -> _Resumable | None:
    """The sidecar's record if the part can be continued; otherwise both are discarded."""
    resume = None
    # A missing, torn or foreign sidecar says nothing about the part: start over.
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        data = json.loads(_sidecar(partial).read_text("utf-8"))
        resume = _Resumable(url=data["url"], validator=data["validator"], total=data["total"])
        valid_types = isinstance(resume.validator, str) and isinstance(resume.total, int | None)
        if resume.url != url or not valid_types or not partial.is_file():
            resume = None
    if resume is None:
        _discard(partial)
    return resume


def _save_resumable(partial: Path, resume: _Resumable) -> None:
    """Write the sidecar atomically (a torn sidecar would otherwise be read as a different version)."""
    write_text(_sidecar(partial), json.dumps(asdict(resume)))


def _discard(partial: Path) -> None:
    _sidecar(partial).unlink(missing_ok=True)
    partial.unlink(missing_ok=True)


def _accept_complete_part(response: httpx.Response, resume: _Resumable, have: int, partial: Path) -> int:
    """A 416 to `Range: bytes=<size of part>-`: complete only if the part is the whole current file
    (a 416 that does not name the version is not trusted: starting over costs bytes, not correctness)."""
    match = _CONTENT_RANGE.fullmatch(response.headers.get("Content-Range", "").strip())
    total = int(match[3]) if match and match[3] != "*" else None
    if total != have or _validator(response) != resume.validator:
        _discard(partial)
        raise _Restart
    return have


def _continue_at(response: httpx.Response, resume: _Resumable, have: int, partial: Path) -> int | None:
    """Check that a 206 continues the part: same version, starting at its end, not content-encoded."""
    match = _CONTENT_RANGE.fullmatch(response.headers.get("Content-Range", "").strip())
    total = int(match[3]) if match and match[3] != "*" else None
    continues = (
        match is not None
        and match[1] is not None
        and int(match[1]) == have
        and _validator(response) == resume.validator
        and (resume.total is None or total == resume.total)
        and _identity(response)
    )
    if not continues:
        _discard(partial)
        raise _Restart
    return total


def _start_over(response: httpx.Response, url: str, partial: Path) -> int | None:
    """Truncate the part for a 200 body; record it as resumable only if a later attempt can prove
    it continues the same version. Returns the size to expect on disk, None when unknown."""
    _discard(partial)
    length = response.headers.get("Content-Length")
    total = int(length) if length and length.isdigit() and _identity(response) else None
    validator = _validator(response)
    if validator and _identity(response):
        _save_resumable(partial, _Resumable(url=url, validator=validator, total=total))
    return total


async def _write_body(
    response: httpx.Response,
    partial: Path,
    mode: str,
    written: int,
    total: int | None,
    progress: ByteProgress | None,
) -> None:
    with partial.open(mode) as out:
        async for chunk in response.aiter_bytes(CHUNK):
            out.write(chunk)
            written += len(chunk)
            if progress:
                await progress(written, total)


def _check_size(url: str, partial: Path, total: int | None) -> None:
    size = partial.stat().st_size
    if total is None or size == total:
        return
    if size < total:
        raise _Incomplete(f"got {size} of {total} bytes")
    _discard(partial)
    raise SourceError(f"download of {url} came to {size} bytes, not the announced {total}; run again")


def _validator(response: httpx.Response) -> str | None:
    """The response's strong ETag, else a Last-Modified date that is a strong validator."""
    etag = response.headers.get("ETag")
    if etag and not etag.startswith("W/"):  # a weak ETag can never satisfy If-Range
        return etag
    modified, date = response.headers.get("Last-Modified"), response.headers.get("Date")
    if not modified or not date:
        return None
    # Here, not at the top: file_sha256's users (an index worker, the static table) do without the
    # ~20 ms that email.utils takes to import.
    from email.utils import parsedate_to_datetime

    try:
        strong = (parsedate_to_datetime(date) - parsedate_to_datetime(modified)).total_seconds() >= 1
    except (TypeError, ValueError):
        return None
    return modified if strong else None


def _identity(response: httpx.Response) -> bool:
    return response.headers.get("Content-Encoding", "identity").strip().lower() in ("", "identity")


def _verify_sha256(source: str, partial: Path, expected: str) -> None:
    actual = file_sha256(partial)
    if actual != expected.strip().lower():
        _discard(partial)
        raise SourceError(
            f"checksum mismatch for {source}: expected sha256 {expected}, got {actual}; "
            "the download was deleted, run again (or check the published checksum)"
        )
