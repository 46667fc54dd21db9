"""Reading JSON documents from an upstream: an http(s) base URL or a local mirror directory.

Shared by the servers whose data comes as many small JSON documents. Transient failures
(timeouts, connection errors, 5xx, truncated bodies) are retried with exponential backoff;
a 404 is final and reported as NotFoundError.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx

from pramana import __version__, work
from pramana.errors import InvalidInputError, NotFoundError, SourceError, SourceUnreachableError

USER_AGENT = f"pramana/{__version__}"
_BACKOFF_BASE_S = 0.25
_BACKOFF_CAP_S = 4.0


class _Transient(Exception):
    """A failure worth retrying."""


class _Unreachable(_Transient):
    """No answer at all: the connection failed or timed out."""


class _NotJson(_Transient):
    """A 200 answer whose body is not (complete) JSON."""


class JsonSource:
    """Fetch `path/` documents below a base URL, or `path/index.json` below a directory."""

    def __init__(self, location: str, *, timeout: float = 10.0, retries: int = 4, max_connections: int = 16):
        self.location = location.strip()
        if not self.location:
            raise InvalidInputError("empty data source: give an http(s) base URL or a directory")
        self.retries = retries
        self.timeout = timeout
        self._is_url = self.location.startswith(("http://", "https://"))
        self._client: httpx.AsyncClient | None = None
        self._document_name = ""
        if self._is_url:
            self._client = httpx.AsyncClient(
                base_url=self.location.rstrip("/"),
                follow_redirects=True,
                timeout=httpx.Timeout(timeout),
                limits=httpx.Limits(
                    max_connections=max_connections, max_keepalive_connections=max_connections
                ),
                headers={"User-Agent": USER_AGENT},
            )
        else:
            self._root = Path(self.location).expanduser()
            if not self._root.is_dir():
                raise InvalidInputError(
                    f"data source {self.location!r} is neither an http(s) URL nor an existing directory"
                )

    @property
    def is_remote(self) -> bool:
        return self._is_url

    async def __aenter__(self) -> JsonSource:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    async def get(self, path: str) -> Any:
        """The decoded JSON document at `path` (e.g. "slok/2/47")."""
        return (await self.get_with_text(path))[0]

    async def get_with_text(self, path: str) -> tuple[Any, str]:
        """The decoded JSON document at `path` and the text it was decoded from."""
        path = path.strip("/")
        if not self._is_url:
            return self._read_file(path)
        last_error: _Transient | None = None
        for attempt in range(self.retries):
            try:
                return await self._get_once(path)
            except _Transient as exc:
                last_error = exc
                if attempt + 1 < self.retries:
                    work.check(f"{self.location}/{path}/ is not answering ({last_error})")
                    delay = min(_BACKOFF_CAP_S, _BACKOFF_BASE_S * 2**attempt)
                    await asyncio.sleep(delay * (0.5 + random.random() / 2))
        error = SourceUnreachableError if isinstance(last_error, _Unreachable) else SourceError
        raise error(f"{self.location}/{path}/ failed after {self.retries} attempts: {last_error}")

    async def _get_once(self, path: str) -> tuple[Any, str]:
        # The trailing slash saves the redirect GitHub Pages answers without it. Some hosts
        # (a plain static server over a copy whose index.html links broke) only serve the
        # document as .../index.json: fall back to that once, then keep using it.
        try:
            return self._decode(await self._request(f"/{path}/{self._document_name}"), path)
        except _NotJson:
            if self._document_name:
                raise
            document = self._decode(await self._request(f"/{path}/index.json"), path)
            self._document_name = "index.json"
            return document

    async def _request(self, url: str) -> httpx.Response:
        assert self._client is not None
        timeout = work.time_for(self.timeout)
        try:
            return await self._client.get(url, timeout=timeout)
        except httpx.TimeoutException as exc:
            raise _Unreachable(f"timed out (no answer within {timeout:.3g} s: {type(exc).__name__})") from exc
        except httpx.ConnectError as exc:  # refused, no such host, no route
            raise _Unreachable(f"connection failed ({exc})") from exc
        except httpx.TransportError as exc:
            raise _Transient(f"connection failed ({exc})") from exc

    def _decode(self, response: httpx.Response, path: str) -> tuple[Any, str]:
        if response.status_code == 404:
            raise NotFoundError(f"{self.location}/{path}/ was not found (404)")
        if response.status_code >= 500 or response.status_code == 429:
            raise _Transient(f"HTTP {response.status_code}")
        if response.status_code != 200:
            raise SourceError(f"{self.location}/{path}/ answered HTTP {response.status_code}")
        # The upstream serves JSON as text/html without a charset: decode UTF-8 ourselves.
        try:
            text = response.content.decode("utf-8")
            return json.loads(text), text
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise _NotJson(f"response is not complete JSON ({exc})") from exc

    def _read_file(self, path: str) -> tuple[Any, str]:
        file = self._root / path / "index.json"
        if not file.is_file():
            raise NotFoundError(f"{file} was not found")
        try:
            text = file.read_bytes().decode("utf-8")
            return json.loads(text), text
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SourceError(f"{file} is not valid JSON: {exc}") from exc
