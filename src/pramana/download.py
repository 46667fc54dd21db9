"""Atomic, resumable downloads of large files (dictionaries, databases).

A file is written to `<target>.part`; an interrupted download resumes from there with an HTTP
Range request, and only a complete file is renamed into place, so a reader never sees half a
file. A local path as the source is copied the same way.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pramana.errors import NotFoundError, SourceError

if TYPE_CHECKING:  # imported by download(): file_sha256's users need no HTTP client
    import httpx

ByteProgress = Callable[[int, int | None], Awaitable[None]]
CHUNK = 1 << 16


async def download(
    source: str,
    target: Path,
    *,
    timeout: float = 30.0,
    retries: int = 3,
    progress: ByteProgress | None = None,
) -> Path:
    """Fetch `source` (http(s) URL or local path) to `target`, atomically, resuming a partial file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    if not source.startswith(("http://", "https://")):
        path = Path(source).expanduser()
        if not path.is_file():
            raise NotFoundError(f"{path} was not found")
        shutil.copyfile(path, partial)
        partial.replace(target)
        if progress:
            await progress(target.stat().st_size, target.stat().st_size)
        return target
    import httpx

    from pramana.fetch import USER_AGENT

    last_error = ""
    async with httpx.AsyncClient(
        follow_redirects=True, timeout=httpx.Timeout(timeout), headers={"User-Agent": USER_AGENT}
    ) as client:
        for _attempt in range(retries):
            try:
                await _fetch(client, source, partial, progress)
                partial.replace(target)
                return target
            except (httpx.TransportError, _Incomplete) as exc:
                last_error = f"{type(exc).__name__}: {exc}"
    raise SourceError(
        f"download of {source} failed after {retries} attempts ({last_error}); run again to resume"
    )


class _Incomplete(Exception):
    pass


async def _fetch(client: httpx.AsyncClient, url: str, partial: Path, progress: ByteProgress | None) -> None:
    have = partial.stat().st_size if partial.exists() else 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    async with client.stream("GET", url, headers=headers) as response:
        if response.status_code == 404:
            raise NotFoundError(f"{url} was not found (404)")
        if response.status_code == 416:  # we already have all of it
            return
        if response.status_code >= 500:
            raise _Incomplete(f"HTTP {response.status_code}")
        if response.status_code not in (200, 206):
            raise SourceError(f"{url} answered HTTP {response.status_code}")
        resuming = response.status_code == 206
        length = response.headers.get("Content-Length")
        total = (int(length) + (have if resuming else 0)) if length else None
        written = have if resuming else 0
        with partial.open("ab" if resuming else "wb") as out:
            async for chunk in response.aiter_bytes(CHUNK):
                out.write(chunk)
                written += len(chunk)
                if progress:
                    await progress(written, total)
        if total is not None and written < total:
            raise _Incomplete(f"got {written} of {total} bytes")


def file_sha256(path: Path) -> str:
    """The sha256 of a file, read in blocks (downloads and model weights are checked against one)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
