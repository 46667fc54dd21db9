"""Talking to a real pramana server process over MCP stdio with the SDK's client."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TextIO

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


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
