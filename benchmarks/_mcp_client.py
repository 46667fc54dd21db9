"""Talking to a real pramana server process over MCP stdio with the SDK's client."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TextIO, TypeVar

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

T = TypeVar("T")


@asynccontextmanager
async def stdio_session(
    args: Sequence[str], env: dict[str, str], command: str = sys.executable, errlog: TextIO = sys.stderr
) -> AsyncIterator[ClientSession]:
    """A session with `command ARGS`; the server's stderr goes to `errlog`."""
    params = StdioServerParameters(command=command, args=list(args), env={**os.environ, **env})
    async with stdio_client(params, errlog) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def http_session(url: str, token: str | None = None) -> AsyncIterator[ClientSession]:
    """An SDK client session over streamable HTTP (url ends in /mcp)."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with (
        create_mcp_http_client(headers=headers) as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@asynccontextmanager
async def sse_session(url: str, token: str | None = None) -> AsyncIterator[ClientSession]:
    """An SDK client session over the legacy SSE transport (url ends in /sse)."""
    from mcp.client.sse import sse_client

    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with sse_client(url, headers=headers) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


class SessionThread:
    """One SDK session kept open in a background event loop, so that several tests (a module's
    fixture) or thousands of calls share one server: `open_session` is, e.g.,
    `lambda: http_session(url)` or `lambda: stdio_session(args, env)`."""

    def __init__(self, open_session: Callable[[], AbstractAsyncContextManager[ClientSession]]):
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(
            target=self.loop.run_until_complete, args=(self._main(open_session),), daemon=True
        )
        self.thread.start()
        assert self.ready.wait(60)

    async def _main(self, open_session: Callable[[], AbstractAsyncContextManager[ClientSession]]) -> None:
        async with open_session() as session:
            self.session = session
            self.ready.set()
            await self.stop.wait()

    def call(self, coroutine_factory: Callable[[ClientSession], Awaitable[T]]) -> T:
        """What `coroutine_factory(session)` returns, awaited in the session's loop."""

        async def run() -> T:
            return await coroutine_factory(self.session)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(120)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(30)
